#!/bin/sh
# make bench (multibody part): instructions per step of every shipped description under
# hilstep-sim --model-file, J2 + index-2 + projection at h = 1 ms, from callgrind as the
# difference of two run lengths ((Ir(1100 steps) - Ir(100 steps)) / 1000, set-up cancels),
# next to the hand-written car axle. The board's figure for car_axle.hsm is the QEMU stage's
# step-cost line (make qemu-test, "car_axle_mb").
set -e
SIM=${1:-build/hilstep-sim}
command -v valgrind >/dev/null 2>&1 || { echo "valgrind missing"; exit 1; }
ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$SIM" "$@" 2>&1 | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'; }
echo "== multibody descriptions: instructions per step on the host (j2, index2, projection, h = 1 ms)"
printf '%-22s %4s %4s %12s\n' model nq nc instr/step
row() { # label, then hilstep-sim model arguments
    label=$1; shift
    a=$(ir "$@" --h 1e-3 --t 0.1); b=$(ir "$@" --h 1e-3 --t 1.1)
    n=$("$SIM" "$@" --h 1e-3 --t 0.001 --csv /dev/stdout 2>/dev/null | head -n 1 | tr ',' '\n' | grep -c '^q')
    c=$("$SIM" "$@" --h 1e-3 --t 0.001 --csv /dev/stdout 2>/dev/null | head -n 1 | tr ',' '\n' | grep -c '^g')
    printf '%-22s %4d %4d %12d\n' "$label" "$n" "$c" $(( (b - a) / 1000 ))
}
row "car_axle (hand-written)" --model car_axle
for f in model/mech/*.hsm; do
    case $f in *singular*) continue ;; esac   # h = 1 ms lands on its singular instant
    row "$(basename "$f")" --model-file "$f"
done
