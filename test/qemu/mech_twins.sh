#!/bin/sh
# make bench (descriptions against their hand-written twins on the boards): the car axle, the
# pendulum and the chain of 8 rods, hand-written (model/*/*.c) and generated (model/gen/mb_NAME.c),
# in the library's default configuration at h = 1 ms over 1000 steps from release, as the host
# table (test/bench/mb_twins.sh) runs them; instructions per step of hs_stepper_step under QEMU
# -icount shift=0 (SysTick counts x 40: every figure is a multiple of 40).
# The runs are qemu-mech's own (test/qemu/mech_tests.sh in its "twins" mode, which also checks
# each board hash against the host's and that each pair is one mechanism); a failed check
# prints FAIL in its row and makes this script exit 1 (make bench then keeps the old page).
# Usage: mech_twins.sh CM_DIR HOST_SIM HOST_FLOAT_SIM
set -u
CM=${1:-build/cortex-m}
SIM=${2:-build/hilstep-sim}
SIMF=${3:-$CM/host-float/hilstep-sim}
HERE=$(dirname "$0")
T=$(mktemp -d "${TMPDIR:-/tmp}/hs-mechtwins.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
if sh "$HERE/mech_tests.sh" "$CM" "$SIM" "$SIMF" "m7 m4f" twins > "$T/runs.txt" 2>&1; then all_ok=1; else all_ok=0; fi
COSTS=$CM/qemu-mech-twins/costs.txt
[ -f "$COSTS" ] || { echo "mech_twins.sh: no $COSTS"; cat "$T/runs.txt"; exit 1; }
PAIRS="car_axle:car_axle.hsm pendulum:pendulum.hsm chain_n8:chain.hsm"
# one board's section: table rows, then one ratio line per pair
section() { # BOARD TITLE
    echo "== descriptions against their hand-written twins on the $2"
    echo "   instructions per step (QEMU -icount shift=0, hs_stepper_step; min, max, mean over 1000 steps), default method, h = 1 ms (test/qemu/mech_twins.sh)"
    echo "   hand-written chain: n = 8, len = 0.5 (the rods of chain.hsm); hash: the board's trajectory hash = the host's (hilstep-sim --hash) for both twins"
    echo
    echo "| model | nq | nc | hand-written | generated | generated / hand | max/min hand | max/min generated | hash = host |"
    echo "|---|---|---|---|---|---|---|---|---|"
    for p in $PAIRS; do
        hl=${p%%:*}; dl=${p#*:}
        if grep -q "^ok   $1 twins $hl default" "$T/runs.txt"; then v=yes; else v=FAIL; fi
        awk -v b="$1" -v hl="$hl" -v dl="$dl" -v v="$v" '
            $1 == b && $3 == "default" && $2 == hl { hq = $5; hc = $6; hmin = $7; hmax = $8; hmean = $9 }
            $1 == b && $3 == "default" && $2 == dl { dmin = $7; dmax = $8; dmean = $9 }
            END {
                if (v != "yes" || hmean == "" || dmean == "" || hmin <= 0 || dmin <= 0) { printf "| %s | %s | %s | FAIL | FAIL | - | - | - | %s |\n", hl, hq, hc, v; exit }
                printf "| %s | %s | %s | %d | %d | %.2f | %.3f | %.3f | %s |\n", hl, hq, hc, hmean, dmean, dmean / hmean, hmax / hmin, dmax / dmin, v
            }' "$COSTS"
    done
    echo
    for p in $PAIRS; do
        hl=${p%%:*}; dl=${p#*:}
        grep -q "^ok   $1 twins $hl default" "$T/runs.txt" || { echo "$hl: not measured on the $3 (its board runs failed)"; continue; }
        awk -v b="$1" -v hl="$hl" -v dl="$dl" -v bn="$3" '
            $1 == b && $3 == "default" && $2 == hl { h = $9 }
            $1 == b && $3 == "default" && $2 == dl { g = $9 }
            END { r = g / h; printf "%s: generated %.2fx the hand-written instructions on the %s (bar 1.2x: %s)\n", hl, r, bn, (r <= 1.2) ? "met" : "missed" }' "$COSTS"
    done
}
section m7 "Cortex-M7 (QEMU mps2-an500, double)" M7
grep -E '^(ok|FAIL) +twins [a-z_0-9]+ on the host' "$T/runs.txt" | sed 's/^ok   /   checked: /; s/^FAIL /   FAILED: /'
echo
section m4f "Cortex-M4F (QEMU mps2-an386, float)" M4F
grep -E '^qemu-mech: ' "$T/runs.txt" | sed 's/^/   board runs: /'
if [ "$all_ok" = 0 ]; then grep '^FAIL' "$T/runs.txt" | sed 's/^/   /'; exit 1; fi
