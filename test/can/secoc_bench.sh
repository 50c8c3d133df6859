#!/bin/sh
# can-mac-bench: callgrind instruction counts per frame of hs_can_encode (the ECU's send) and
# hs_can_receive_at (the plant's receive), inclusive, over 1000 EcuCommand frames of the
# circular track: E2E only (test/can/circular_track_e2e.dbc, 4 bytes) and E2E + SecOC
# (test/can/circular_track_secoc.dbc, 8 bytes: 24-bit HMAC-SHA-256 MAC, 8-bit freshness), and
# the receive of forged SecOC frames (a bad MAC: the freshness one window back is tried too).
# Then the secured PDU collection of the shipped DBCs (one cryptographic message per cycle):
# 1000 cycles of the quarter car (1 command) and of the truck-trailer with pendulum (9), E2E
# only (the collection off) and with it; the counts are per cycle, all its frames together.
B=${1:-build}
T=$(mktemp -d "${TMPDIR:-/tmp}/hs-canmacbench.XXXXXX"); trap 'rm -rf "$T"' EXIT
run() {  # NAME DBC [forged]
    valgrind --tool=callgrind --callgrind-out-file="$T/cg" "$B/hilstep-can-mac-bench" "$2" $3 >/dev/null 2>&1 \
        || { echo "can-mac-bench: valgrind or the bench failed on $1"; exit 1; }
    line="can-mac-bench: $1:"
    for f in hs_can_encode hs_can_receive_at; do
        ir=$(callgrind_annotate --inclusive=yes "$T/cg" 2>/dev/null | awk -v f="$f" '$0 ~ ":"f" " { gsub(",", "", $1); print $1; exit }')
        line="$line $f $((ir / 1000))"
    done
    echo "$line instructions per frame"
}
run "E2E only (circular_track_e2e.dbc)" test/can/circular_track_e2e.dbc
run "E2E + SecOC (circular_track_secoc.dbc)" test/can/circular_track_secoc.dbc
run "E2E + SecOC, forged frames received" test/can/circular_track_secoc.dbc forged
run_cycle() {  # NAME DBC [off|forged]
    valgrind --tool=callgrind --callgrind-out-file="$T/cg" "$B/hilstep-can-mac-bench" "$2" $3 >/dev/null 2>&1 \
        || { echo "can-mac-bench: valgrind or the bench failed on $1"; exit 1; }
    line="can-mac-bench: $1:"
    for f in hs_can_encode hs_can_receive_at; do
        ir=$(callgrind_annotate --inclusive=yes "$T/cg" 2>/dev/null | awk -v f="$f" '$0 ~ ":"f" " { gsub(",", "", $1); print $1; exit }')
        line="$line $f $((ir / 1000))"
    done
    echo "$line instructions per cycle"
}
run_cycle "collection off, E2E only (mech/quarter_car.dbc, 1 command + EcuCommandAuth)" hil/dbc/mech/quarter_car.dbc off
run_cycle "collection (mech/quarter_car.dbc, 1 command + EcuCommandAuth)" hil/dbc/mech/quarter_car.dbc
run_cycle "collection off, E2E only (truck_trailer_pen.dbc, 9 commands + EcuCommandAuth)" hil/dbc/truck_trailer_pen.dbc off
run_cycle "collection (truck_trailer_pen.dbc, 9 commands + EcuCommandAuth)" hil/dbc/truck_trailer_pen.dbc
run_cycle "collection, forged EcuCommandAuth received (truck_trailer_pen.dbc)" hil/dbc/truck_trailer_pen.dbc forged
