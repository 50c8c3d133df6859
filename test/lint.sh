#!/bin/sh
# Static checks of rt/ and model/: strict warnings on gcc and clang in both real types,
# cppcheck, and the freestanding rule (no libc headers, no allocation, no stdio in rt/).
pass=0; fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "  FAIL $1"; }
WARN="-Wall -Wextra -Werror -Wconversion -Wdouble-promotion -Wshadow"
FLAGS="-std=c99 -O2 -ffreestanding -ffp-contract=off -fno-math-errno -Irt -Imodel"
for cc in gcc clang; do
    if ! command -v $cc >/dev/null 2>&1; then ko "$cc not installed"; continue; fi
    for real in "" "-DHS_REAL_FLOAT"; do
        for f in rt/*.c model/*.c; do
            if $cc $FLAGS $WARN $real -c "$f" -o /dev/null 2>/tmp/hs-lint.err; then ok
            else ko "$cc $real $f"; cat /tmp/hs-lint.err; fi
        done
    done
done
if command -v cppcheck >/dev/null 2>&1; then
    if cppcheck --quiet --std=c99 --enable=warning,style,performance,portability \
        --error-exitcode=1 --inline-suppr -Irt -Imodel rt model 2>/tmp/hs-cppcheck.err; then ok
    else ko "cppcheck"; cat /tmp/hs-cppcheck.err; fi
else
    ko "cppcheck not installed"
fi
# rt/ stays freestanding: only <stddef.h>/<stdint.h>, no allocation or I/O calls.
bad=$(grep -nE '#include[[:space:]]*<' rt/*.c rt/*.h | grep -vE '<(stddef|stdint)\.h>')
if [ -z "$bad" ]; then ok; else ko "rt/ includes a hosted header: $bad"; fi
bad=$(grep -nE '\b(malloc|calloc|realloc|free|printf|fprintf|puts|fopen|sbrk)[[:space:]]*\(' rt/*.c rt/*.h model/*.c)
if [ -z "$bad" ]; then ok; else ko "allocation or stdio in rt/ or model/: $bad"; fi
# The rt/ objects link against nothing from libc: only sqrt as an instruction, no libm calls.
gcc $FLAGS -c rt/hs_stepper.c -o /tmp/hs-lint.o && und=$(nm -u /tmp/hs-lint.o | grep -vE ' (hs_|__stack_chk)' )
if [ -z "$und" ]; then ok; else ko "rt/hs_stepper.o needs external symbols: $und"; fi
echo "lint: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
