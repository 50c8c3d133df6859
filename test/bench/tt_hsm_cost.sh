#!/bin/sh
# The truck-trailer descriptions against the hand-written models they describe: instructions
# per step on the host (x86-64 -O2), default method, h = 1 ms, straight ahead at 80 km/h with
# the inputs at 0 (the lane change's first second), as model/TIRE.md measures car.hsm:
#   step:  callgrind --toggle-collect=hs_stepper_step, run to t = 0.2 s minus run to 0.1 s, / 100
#   total: the same without --toggle-collect (everything a step of hilstep-sim does: the CSV-less
#          loop, outputs, error estimate)
# Usage: tt_hsm_cost.sh [BUILD_DIR]   (about 2 minutes: the descriptions under callgrind)
set -e
B=${1:-build}
command -v valgrind >/dev/null 2>&1 || { echo "valgrind missing"; exit 1; }
ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'; }
per() { # per-step difference of 200 and 100 steps; $1: extra valgrind option or "-"
    o=$1; shift
    [ "$o" = - ] && o=
    a=$(ir $o "$B/hilstep-sim" "$@" --h 1e-3 --t 0.1); b=$(ir $o "$B/hilstep-sim" "$@" --h 1e-3 --t 0.2)
    echo $(( (b - a) / 100 ))
}
echo "| model | hilstep-sim arguments | in hs_stepper_step | whole step | ratio to the C model (step) |"
echo "|---|---|---|---|---|"
for m in truck_trailer truck_trailer_pen; do
    cs=$(per --toggle-collect=hs_stepper_step --model $m); ct=$(per - --model $m)
    f=model/mech/vehicles/large/$m.hsm
    ds=$(per --toggle-collect=hs_stepper_step --model-file $f); dt=$(per - --model-file $f)
    echo "| $m (C) | \`--model $m\` | $cs | $ct | 1 |"
    echo "| $m.hsm | \`--model-file $f\` | $ds | $dt | $(awk "BEGIN{printf \"%.1f\", $ds/$cs}") |"
done
