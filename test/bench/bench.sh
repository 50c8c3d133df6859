#!/bin/sh
# make bench: host ns/step (median of 7 in one process), instructions per step from
# callgrind (deterministic: difference of two run lengths, so set-up cost cancels), and the car
# axle accuracy table. Not part of make test.
set -e
B=build/hilstep-bench
# the methods from the stepper's table: those taking a --stab choice, each with the ones it takes
M=$(mktemp "${TMPDIR:-/tmp}/hs-methods.XXXXXX")
trap 'rm -f "$M"' EXIT
build/hilstep-sim --list-methods > "$M"
takes() { grep -q "^$1 .*\<$2\>" "$M"; }
echo "== host time per step (h = 1 ms, index-2; median of 7 runs of 2000 steps, same process)"
$B table
echo
echo "== instructions per step (valgrind --tool=callgrind; (Ir(1100) - Ir(100)) / 1000)"
command -v valgrind >/dev/null 2>&1 || { echo "valgrind missing"; exit 1; }
ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'; }
printf '%-15s %-10s %-10s %12s\n' model method stab instr/step
for m in test_eq car_axle circular_track pendulum; do
    for s in none baumgarte projection; do
        [ "$m" = test_eq ] && [ "$s" != none ] && continue
        for me in $(awk '/ projection$/ { print $1 }' "$M"); do
            takes "$me" "$s" || continue # galpha (index 3), sdirk (index-1 stages): no Baumgarte
            a=$(ir $B one $m $me $s 100); b=$(ir $B one $m $me $s 1100)
            printf '%-15s %-10s %-10s %12d\n' $m $me $s $(( (b - a) / 1000 ))
        done
    done
done
echo
echo "== car axle accuracy at h = 1 ms over [0, 3]"
$B accuracy
echo
echo "== car axle, stiffer springs, h = 1 ms, J = each method, index-2 + projection: max |u| over [0, 3]"
$B stiff
