#!/bin/sh
# Static checks of rt/ and model/: strict warnings on gcc and clang in both real types,
# cppcheck, the freestanding rule (no libc headers, no allocation, no stdio in rt/), and no
# hand-written function over 120 lines in rt/, model/, hil/ and port/.
# The include path of model/'s rooms (model/ROOMS).
MODEL_INC=$(awk '!/^#/ && NF {printf "-Imodel/%s ", $1}' model/ROOMS)
pass=0; fail=0
# Scratch files in a private directory: two clones running at once must not collide.
TMP=$(mktemp -d "${TMPDIR:-/tmp}/hilstep-lint.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "  FAIL $1"; }
WARN="-Wall -Wextra -Werror -Wconversion -Wdouble-promotion -Wshadow"
FLAGS="-std=c99 -O2 -ffreestanding -ffp-contract=off -fno-math-errno -Irt $MODEL_INC"
# clang's warnings all come from its front end, so it only parses (-fsyntax-only: the same
# diagnostics at a fifth of the time); gcc's need its optimizer (-Wmaybe-uninitialized,
# -Warray-bounds), so it compiles at -O2.
# gcc is the build's own: every rt/ and model/ object in double (CORE_OBJ) and in float
# (FLOAT_CORE), this suite's prerequisites, is compiled with flags that must carry these
# warnings as errors at -O2 (checked here); compiled once more they could not fail where the
# build passed.
flags_miss() { # make target printing a flag set; prints the flags it lacks
    f=" $(make -s --no-print-directory $1 2>/dev/null) "; m=""
    for w in $WARN -std=c99 -O2 -ffreestanding $2; do
        case "$f" in *" $w "*) ;; *) m="$m $w" ;; esac
    done
    echo "$m"
}
miss=$(flags_miss print-cflags-rt)
[ -z "$miss" ] && ok || ko "CFLAGS_RT (the build's rt/ and model/ objects) lacks:$miss"
fmiss=$(flags_miss print-cflags-float -DHS_REAL_FLOAT)
[ -z "$fmiss" ] && ok || ko "FLOAT_CFLAGS_LIB (the build's float objects) lacks:$fmiss"
for cc in gcc clang; do
    if ! command -v $cc >/dev/null 2>&1; then ko "$cc not installed"; continue; fi
    out="-c -o /dev/null"
    [ $cc = clang ] && out=-fsyntax-only
    for real in "" "-DHS_REAL_FLOAT"; do
        [ $cc = gcc ] && [ -z "$real" ] && [ -z "$miss" ] && continue
        [ $cc = gcc ] && [ -n "$real" ] && [ -z "$fmiss" ] && continue
        for f in rt/*.c model/*/*.c; do
            if $cc $FLAGS $WARN $real $out "$f" 2>$TMP/lint.err; then ok
            else ko "$cc $real $f"; cat $TMP/lint.err; fi
        done
    done
done
# cppcheck checks one preprocessor configuration, the build's (double, every model):
# its default, up to 12 combinations of the tree's #ifdefs, cost 114 s of CPU against 41 s
# for the same findings here, and the float configuration is compiled with every warning by
# gcc and clang above.
if command -v cppcheck >/dev/null 2>&1; then
    if cppcheck --quiet --max-configs=1 --std=c99 --enable=warning,style,performance,portability \
        --error-exitcode=1 --inline-suppr -Irt $MODEL_INC rt model 2>$TMP/cppcheck.err; then ok
    else ko "cppcheck"; cat $TMP/cppcheck.err; fi
else
    ko "cppcheck not installed"
fi
# rt/ stays freestanding: only <stddef.h>/<stdint.h>, no allocation or I/O calls.
bad=$(grep -nE '#include[[:space:]]*<' rt/*.c rt/*.h | grep -vE '<(stddef|stdint)\.h>')
if [ -z "$bad" ]; then ok; else ko "rt/ includes a hosted header: $bad"; fi
bad=$(grep -nE '\b(malloc|calloc|realloc|free|printf|fprintf|puts|fopen|sbrk)[[:space:]]*\(' rt/*.c rt/*.h model/*/*.c)
if [ -z "$bad" ]; then ok; else ko "allocation or stdio in rt/ or model/: $bad"; fi
# The rt/ objects link against nothing from libc: only sqrt as an instruction, no libm calls.
gcc $FLAGS -c rt/hs_stepper.c -o $TMP/lint.o && und=$(nm -u $TMP/lint.o | grep -vE ' (hs_|__stack_chk)' )
if [ -z "$und" ]; then ok; else ko "rt/hs_stepper.o needs external symbols: $und"; fi
# No hand-written function over 120 lines in rt/, model/, hil/ or port/ (issue 29; generated
# files are left out): the measure's self-test, then the tree, each function over it named with
# its file, line and length.
if /usr/bin/python3 test/fn_length.py --selftest >$TMP/fnlen.out 2>&1; then ok
else ko "a function over 120 lines (test/fn_length.py):"; grep -v '^  ok' $TMP/fnlen.out; fi
echo "lint: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
