#!/bin/sh
# xcp-bench: instructions per frame (callgrind, frame() of test/xcp/xcp_bench.c: hs_plant_step,
# plus hs_xcp_event with a DAQ list of every output and t running) for MODEL (default the
# quarter car), 1000 frames each; prints both, their ratio, and "ok"/"FAIL" against the 5 %
# of issue 36; with --calibration also the instructions of one calibration of the
# description's first param (x 1.1): its recompile (off the real-time thread) and its apply
# (between two steps). Usage: xcp_bench.sh BUILD [MODEL.hsm] [--calibration]. Exit 1 when over
# 5 % or not measured.
B=${1:-build}
M=${2:-model/mech/quarter_car.hsm}
CAL=${3:-}
N=1000
T=$(mktemp -d "${TMPDIR:-/tmp}/hs-xcpbench.XXXXXX"); trap 'rm -rf "$T"' EXIT
command -v valgrind >/dev/null || { echo "xcp-bench: valgrind missing"; exit 1; }
for d in 0 1; do
    valgrind --tool=callgrind --collect-atstart=no --toggle-collect=frame \
        --callgrind-out-file="$T/cg$d" "$B/hilstep-xcp-bench" "$M" $N $d >"$T/out$d" 2>&1 \
        || { echo "xcp-bench: valgrind or the bench failed"; cat "$T/out$d"; exit 1; }
    ir=$(callgrind_annotate "$T/cg$d" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }')
    eval "ir$d=\$ir"
done
[ -n "$ir0" ] && [ -n "$ir1" ] || { echo "xcp-bench: no counts"; exit 1; }
awk -v a="$ir0" -v b="$ir1" -v n=$N -v m="$(basename "$M")" 'BEGIN {
    r = b / a
    printf "xcp-bench: %s, instructions per frame (hs_plant_step): %.0f without XCP, %.0f with a DAQ of every output and t at 1 ms (+%.0f, x%.4f)\n", m, a / n, b / n, (b - a) / n, r
    if (r <= 1.05) { print "  ok   the DAQ costs at most 5 % of the frame"; exit 0 }
    print "  FAIL the DAQ costs more than 5 % of the frame"; exit 1 }' || exit 1
[ "$CAL" = --calibration ] || exit 0
for f in recompile apply; do
    valgrind --tool=callgrind --collect-atstart=no --toggle-collect=$f \
        --callgrind-out-file="$T/c$f" "$B/hilstep-xcp-bench" "$M" 10 2 >"$T/o$f" 2>&1 \
        || { echo "xcp-bench: the calibration of $M failed"; cat "$T/o$f"; exit 1; }
    eval "c_$f=\$(callgrind_annotate \"\$T/c\$f\" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(\",\", \"\", \$1); print \$1; exit }')"
done
echo "xcp-bench: $(basename "$M"), one calibration: recompile $c_recompile instructions (off the real-time thread), apply $c_apply (between two steps: tables swapped, hs_stepper_set_state)"
