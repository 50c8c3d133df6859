#!/bin/sh
# MISRA C:2012 gate over rt/, model/ and hil/ (issue 11): runs cppcheck's misra addon, then
# test/misra/misra_gate.py classifies every finding as deviated inline (a "MISRA Ref R.N.k"
# tag backed by a permit in test/misra/DEVIATIONS.md), deviated by a scoped record there, or
# open. Any open finding fails. First a self-test proves the gate can fail: a fixture with
# one tagged and one untagged violation must give exactly one open finding.
# Usage: misra.sh [--table] [--write]   (make misra: both, printing the per-rule table and
#   writing it to test/misra/REPORT.md; make misra-test: neither, and a REPORT.md that differs
#   from this tree's table fails: a stale report is a failure)
# Ends with "misra: N passed, N failed".
# The include path of model/'s rooms (model/ROOMS).
MODEL_INC=$(awk '!/^#/ && NF {printf "-Imodel/%s ", $1}' model/ROOMS)
HERE=$(dirname "$0")
PY=/usr/bin/python3
T=$(mktemp -d "${TMPDIR:-/tmp}/hs-misra.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail=0
if ! command -v cppcheck >/dev/null 2>&1; then
    echo "  FAIL cppcheck not installed (test/install_deps.sh installs it)"
    echo "misra: 0 passed, 1 failed"; exit 1
fi
# Identical flags for the fixture and the tree.
run_addon() { # out-file, paths...
    o=$1; shift
    cppcheck --quiet --std=c99 --addon=misra --template='{file}:{line}:{id}' \
        --suppress=missingIncludeSystem -Irt $MODEL_INC -Ihil "$@" 2>"$o"
}
run_addon "$T/self.txt" "$HERE/selftest/fixture.c"; rc=$?
grep -q 'misra-c2012-' "$T/self.txt" || { echo "  FAIL the misra addon reported nothing on the fixture (rc $rc):"; cat "$T/self.txt"; fail=1; }
$PY "$HERE/misra_gate.py" "$T/self.txt" "$HERE/selftest/DEVIATIONS.md" --expect-open 1 >"$T/self.out" || fail=1
grep -q 'passed, 0 failed' "$T/self.out" || { cat "$T/self.out"; fail=1; }
# ...and a scoped record for a required rule is refused even when it would cover everything.
if $PY "$HERE/misra_gate.py" "$T/self.txt" "$HERE/selftest/DEVIATIONS_scoped.md" --expect-open 0 >"$T/self2.out"; then
    echo "  FAIL the gate accepted a scoped record for required rule 15.6:"; cat "$T/self2.out"; fail=1
fi

# ...and a tag on a line that does not show its permit's site construct is refused.
if $PY "$HERE/misra_gate.py" "$T/self.txt" "$HERE/selftest/DEVIATIONS_site.md" --expect-open 1 >"$T/self3.out"; then
    echo "  FAIL the gate accepted a tag whose site lacks its permit's construct:"; cat "$T/self3.out"; fail=1
fi

# The fixer (fix_required.sh) on a fixture: the expected edits, nothing on a second run, and
# the same gcc -O2 instructions before and after in both real types.
fx=0
mkdir -p "$T/fx/rt"; cp "$HERE/selftest/fix_in.c" "$T/fx/rt/fix_in.c"
for pass in braces bool lits braces bool lits; do
    [ $pass = braces ] && [ -f "$T/fx/once" ] && cp "$T/fx/rt/fix_in.c" "$T/fx/first.c"
    (cd "$T/fx" && $PY "$OLDPWD/$HERE/fix_required.py" $pass) >"$T/fx/log" 2>&1 || { cat "$T/fx/log"; fx=1; }
    [ $pass = lits ] && touch "$T/fx/once"
done
sed -n '/^#include/,$p' "$HERE/selftest/fix_expected.c" > "$T/fx/want.c"
sed -n '/^#include/,$p' "$T/fx/rt/fix_in.c" > "$T/fx/got.c"
cmp -s "$T/fx/want.c" "$T/fx/got.c" || { echo "  FAIL fix_required.py on selftest/fix_in.c: not selftest/fix_expected.c:"; diff "$T/fx/want.c" "$T/fx/got.c" | head -20; fx=1; }
cmp -s "$T/fx/first.c" "$T/fx/rt/fix_in.c" || { echo "  FAIL fix_required.py changed its own output on a second run"; fx=1; }
for D in "" -DHS_REAL_FLOAT; do
    for v in in out; do
        src="$HERE/selftest/fix_in.c"; [ $v = out ] && src="$T/fx/rt/fix_in.c"
        gcc -std=c99 -O2 -Wall -Wextra -Werror -Wconversion -Wdouble-promotion -Wshadow $D -c "$src" -o "$T/fx/$v.o" \
            && objdump -d --no-show-raw-insn "$T/fx/$v.o" | sed 1,3d > "$T/fx/$v.dis" || fx=1
    done
    cmp -s "$T/fx/in.dis" "$T/fx/out.dis" || { echo "  FAIL fix_required.py changed the fixture's machine code ($D)"; fx=1; }
done
[ $fx -eq 0 ] && echo "  ok   fix_required.py on selftest/fix_in.c: expected edits, idempotent, same gcc instructions"


# The tree's findings are cached under BUILD/misra, keyed by the content of every C source and
# header in rt/ model/ hil/ (all the addon reads: -I names only these directories, system
# headers are suppressed) and the tool versions: an unchanged tree costs nothing, a changed one one
# full run (-j2, a fresh cppcheck build dir: cppcheck's own incremental cache keys on tokens
# and would keep stale line numbers after a comment-only edit, which moves inline tags).
B=${BUILD:-build}
mkdir -p "$B/misra"
key=$( { cppcheck --version; sha256sum "$(dirname "$(command -v cppcheck)")/../lib/x86_64-linux-gnu/cppcheck/addons/misra.py" 2>/dev/null;
         find rt model hil -type f -name '*.[ch]' | LC_ALL=C sort | xargs sha256sum; } | sha256sum | cut -c1-16)
cache="$B/misra/findings-$key.txt"
# test/misra/findings.txt: the findings `make misra` wrote, headed by the key of the tree and
# tools it ran on. Taken only when that key is this tree's (every byte of the C files of rt/
# model/ hil/, the cppcheck version and the addon): then the addon's output is known without running it (the
# full run costs ~4 CPU minutes of make test). Any other tree or tool runs it again.
committed="$HERE/findings.txt"
if [ -f "$cache" ]; then
    cp "$cache" "$T/tree.txt"; rc=0
    echo "  (cached findings of this exact tree: $cache)"
elif [ "$(head -n 1 "$committed" 2>/dev/null)" = "# key $key" ]; then
    sed 1d "$committed" >"$T/tree.txt"; rc=0
    echo "  (findings of this exact tree and cppcheck from $committed, key $key, written by make misra)"
else
    cb=$(mktemp -d "$B/misra/cb.XXXXXX")
    run_addon "$T/tree.txt" --cppcheck-build-dir="$cb" -j2 rt model hil; rc=$?
    rm -rf "$cb"
    if [ $rc -eq 0 ]; then rm -f "$B"/misra/findings-*.txt; cp "$T/tree.txt" "$cache"; fi
fi
if [ $rc -ne 0 ] || grep -vqE '^[^:]+:[0-9]+:misra-c2012-[0-9]+\.[0-9]+$' "$T/tree.txt"; then
    echo "  FAIL cppcheck/misra addon: exit $rc or output that is not a finding:"
    grep -vE '^[^:]+:[0-9]+:misra-c2012-[0-9]+\.[0-9]+$' "$T/tree.txt" | head -20
    fail=1
fi
table=""; write=0
for a in "$@"; do
    case $a in --table) table=--table ;; --write) write=1 ;; *) echo "misra.sh: unknown option $a"; exit 2 ;; esac
done
$PY "$HERE/misra_gate.py" "$T/tree.txt" "$HERE/DEVIATIONS.md" --tags rt,model,hil $table \
    --baseline "$HERE/baseline.txt" --report "$T/REPORT.md" >"$T/gate.out"; grc=$?
rep=0
if [ $write -eq 1 ]; then
    cp "$T/REPORT.md" "$HERE/REPORT.md" && echo "  wrote $HERE/REPORT.md"
    if [ $rc -eq 0 ]; then
        { echo "# key $key"; cat "$T/tree.txt"; } >"$committed.tmp" && mv "$committed.tmp" "$committed" \
            && echo "  wrote $committed (key $key)" || { echo "  FAIL cannot write $committed"; fail=1; }
    fi
elif cmp -s "$T/REPORT.md" "$HERE/REPORT.md"; then
    echo "  ok   $HERE/REPORT.md is this tree's table"
else
    echo "  FAIL $HERE/REPORT.md is stale (make misra rewrites it):"; diff "$HERE/REPORT.md" "$T/REPORT.md" | head -12
    rep=1
fi
sed '$d' "$T/gate.out"
line=$(tail -n 1 "$T/gate.out")
p=$(echo "$line" | sed -nE 's/^misra: ([0-9]+) passed, ([0-9]+) failed$/\1/p')
f=$(echo "$line" | sed -nE 's/^misra: ([0-9]+) passed, ([0-9]+) failed$/\2/p')
[ -n "$p" ] || { p=0; f=1; echo "  FAIL gate printed no result"; }
[ $grc -ne 0 ] && [ "$f" -eq 0 ] && f=1
# The gate's self-test, the fixer's self-test, the addon run and the report count as one check each.
p=$((p + 4 - fail - fx - rep)); f=$((f + fail + fx + rep))
echo "misra: $p passed, $f failed"
[ "$f" -eq 0 ]
