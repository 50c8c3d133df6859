#!/bin/sh
# make bench (descriptions against their hand-written twins): instructions per step of the
# car axle, the pendulum, the chain of 8 rods and the car on TMeasy tires (hand-written: `car`,
# no suspension; described: vehicles/car.hsm, spatial chassis and wheels on their suspension
# rows), each hand-written (model/*/*.c), generated
# (model/gen/mb_NAME.c, hilstep-mbgen) and loaded from its file (model/mech/*.hsm), in the library's
# default stepper configuration at h = 1 ms, on the host (x86-64 -O2).
#   total: callgrind --toggle-collect=hs_stepper_step over 1000 steps / 1000 (set-up excluded)
#   stages: the same with every model hook behind a forwarder (hilstep-mbtwins --stages):
#           inclusive cost of each hook (force_fj: f with its Jacobians in one call, rt/hs_model.h;
#           zdot: the auxiliary states), of hs_linsys_factor and hs_linsys_solve; "stepper" is
#           the rest of the step (stage loops, residuals, products, projection, commit)
# Usage: mb_twins.sh BUILD_DIR
set -e
B=${1:-build}
X=$B/hilstep-mbtwins
command -v valgrind >/dev/null 2>&1 || { echo "valgrind missing"; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/hs-twins.XXXXXX")
trap 'rm -rf "$T"' EXIT
N=1000
total() { valgrind --tool=callgrind --toggle-collect=hs_stepper_step --callgrind-out-file=/dev/null "$X" "$@" $N 2>&1 \
          | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'; }
# inclusive Ir of the functions named in the staged run, one "name value" per line
stages() {
    valgrind --tool=callgrind --toggle-collect=hs_stepper_step --callgrind-out-file="$T/cg" "$X" --stages "$@" $N >/dev/null 2>&1
    callgrind_annotate --inclusive=yes --threshold=100 "$T/cg" 2>/dev/null \
        | sed -n 's/^ *\([0-9,]*\) ([ 0-9.]*%)  [^=]*:\(stage_[a-z_]*\|hs_linsys_factor\|hs_linsys_solve\|hs_stepper_step\) \[.*/\2 \1/p' | tr -d ,
}
rows() {
    echo "car_axle hand car_axle"
    echo "car_axle gen car_axle_mb"
    echo "car_axle file model/mech/car_axle.hsm"
    echo "pendulum hand pendulum"
    echo "pendulum gen pendulum_mb"
    echo "pendulum file model/mech/pendulum.hsm"
    echo "chain_n8 hand chain n=8,len=0.5"  # chain.hsm: 8 rods of 0.5 m
    echo "chain_n8 gen chain"
    echo "chain_n8 file model/mech/chain.hsm"
    echo "car hand car"
    echo "car gen car_hsm"
    echo "car file model/mech/vehicles/car.hsm"
}
echo "== descriptions against their hand-written twins: instructions per step (callgrind, host), default method, h = 1 ms"
echo "   total: hs_stepper_step over $N steps; the stage columns: one run with the model hooks behind forwarders (test/bench/mb_twins.sh)"
echo
echo "| model | variant | total | / hand | mass | force | force_jac | force_fj | zdot | constraint | gamma | curvature | constraint_all | factor | solve | stepper |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
rows | while read -r model kind name extra; do
    tot=$(total $kind $name $extra)
    stages $kind $name $extra > "$T/st"
    [ "$kind" = hand ] && echo "$tot" > "$T/hand_$model"
    [ "$kind" = gen ] && echo "$tot" > "$T/gen_$model"
    [ "$kind" = file ] && echo "$tot" > "$T/file_$model"
    hand=$(cat "$T/hand_$model")
    awk -v m="$model" -v k="$kind" -v tot="$tot" -v hand="$hand" -v n=$N '
        { v[$1] = $2 }
        END {
            s = 0; split("stage_mass stage_force stage_force_jac stage_force_fj stage_zdot stage_constraint stage_gamma stage_curvature stage_constraint_all hs_linsys_factor hs_linsys_solve", f, " ")
            line = sprintf("| %s | %s | %d | %.2f", m, k, tot / n, tot / hand)
            for (i = 1; i <= 11; ++i) { x = (f[i] in v) ? v[f[i]] : 0; s += x; line = line sprintf(" | %d", x / n) }
            printf "%s | %d |\n", line, (v["hs_stepper_step"] - s) / n
        }' "$T/st"
done
echo
for model in car_axle pendulum chain_n8 car; do
    awk -v m="$model" -v h="$(cat "$T/hand_$model")" -v g="$(cat "$T/gen_$model")" -v f="$(cat "$T/file_$model")" 'BEGIN {
        r1 = g / h; r2 = f / h; r3 = (f > g) ? f / g : g / f
        printf "%s: generated %.2fx, file %.2fx the hand-written instructions (bar 1.2x: %s); file vs generated %.3fx (bar 1.1x: %s)\n",
               m, r1, r2, (r1 <= 1.2 && r2 <= 1.2) ? "met" : "missed", r3, (r3 <= 1.1) ? "met" : "missed" }'
done
