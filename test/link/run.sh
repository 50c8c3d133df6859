#!/bin/sh
# link-test: the sequence/session scenarios of hs_rx, the MAC vectors and frame rules, the
# foreign flood (flood.sh), the two link attacks end to end (attacks.sh), authenticated runs
# (mac.sh), hilstep-ecu against other plants' maps (ecu.sh) and the car's ABS loop (abs.sh).
# Ends with "link: N passed, N failed".
B=${1:-build}
T=$(mktemp -d "${TMPDIR:-/tmp}/hs-link.XXXXXX"); trap 'rm -rf "$T"' EXIT
tp=0; tf=0
add() { line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
    p=$(echo "$line" | sed -E 's/^(.*[^0-9])?([0-9]+) passed, ([0-9]+) failed.*/\2/')
    f=$(echo "$line" | sed -E 's/^(.*[^0-9])?([0-9]+) passed, ([0-9]+) failed.*/\3/')
    [ -n "$line" ] || { p=0; f=1; }
    tp=$((tp + p)); tf=$((tf + f)); }
"$B/hilstep-link-unit" >"$T/u" 2>&1; grep -E 'FAIL|info' "$T/u"; add "$T/u"
"$B/hilstep-mac-unit" >"$T/m" 2>&1; grep -E 'FAIL|info' "$T/m"; add "$T/m"
sh test/link/flood.sh "$B" >"$T/f" 2>&1; cat "$T/f" | grep -vE 'passed, [0-9]+ failed'; add "$T/f"
for t in attacks attacks31 keyfile mac ecu abs; do
    sh test/link/$t.sh "$B" >"$T/$t" 2>&1; grep -vE 'passed, [0-9]+ failed' "$T/$t"; add "$T/$t"
done
echo "link: $tp passed, $tf failed"
[ $tf -eq 0 ]
