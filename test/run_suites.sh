#!/bin/sh
# Runs each make target named on the command line as a test suite, shows its output, and
# sums the "N passed, N failed" line each suite ends with. A suite that prints no such line
# or exits non-zero counts as one failure. Ends with the total line, alone.
tp=0; tf=0
for s in "$@"; do
    echo "=== suite $s"
    out=$(make --no-print-directory -s "$s" 2>&1); rc=$?
    printf '%s\n' "$out"
    line=$(printf '%s\n' "$out" | grep -E '^([A-Za-z-]+: )?[0-9]+ passed, [0-9]+ failed' | tail -n 1)
    if [ -z "$line" ]; then
        echo "suite $s: no result line (exit $rc)"; tf=$((tf + 1)); continue
    fi
    p=$(printf '%s\n' "$line" | sed -E 's/^([A-Za-z-]+: )?([0-9]+) passed, ([0-9]+) failed.*/\2/')
    f=$(printf '%s\n' "$line" | sed -E 's/^([A-Za-z-]+: )?([0-9]+) passed, ([0-9]+) failed.*/\3/')
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "suite $s: exit status $rc"; f=1
    fi
    tp=$((tp + p)); tf=$((tf + f))
done
echo "$tp passed, $tf failed"
[ "$tf" -eq 0 ]
