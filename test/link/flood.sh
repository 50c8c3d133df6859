#!/bin/sh
# Foreign flood against the ECU link (issue 11 item 6): hilstep-rt and hilstep-ecu in closed
# loop for 6 s while build/hilstep-flood sends RATE datagrams/s (default 100000) for 2.5 s
# from another local port to the plant's port. Checks that no ECU frame is lost (rx_seq_gaps
# and the peer queue's kernel drops both 0), that the loop still converges, and that every
# foreign datagram is counted: read ones in rx_rej_foreign_address plus the catch-all
# queue's kernel drops equal what the flooder sent. Prints the figures as "info" lines.
# Usage: flood.sh BUILD_DIR [RATE] [RT_BINARY]. Ends with "N passed, N failed".
B=${1:-build}; RATE=${2:-100000}; RT=${3:-$B/hilstep-rt}
BASE=$(/usr/bin/python3 test/linux/free_ports.py 3) || { echo "no free ports"; echo "0 passed, 1 failed"; exit 1; }
PLANT=127.0.0.1:$BASE; ECU=127.0.0.1:$((BASE + 1)); FOREIGN=127.0.0.1:$((BASE + 2))
T=$(mktemp -d "${TMPDIR:-/tmp}/hs-flood.XXXXXX")
export XDG_CONFIG_HOME="$T/cfg"  # the per-user default key of this suite, not the user's
pass=0; fail=0; PIDS=""
ok() { pass=$((pass + 1)); echo "  ok   $1"; }
ko() { fail=$((fail + 1)); echo "  FAIL $1"; }
cleanup() { for p in $PIDS; do kill -TERM "$p" 2>/dev/null; done; rm -rf "$T"; }
trap cleanup EXIT
key() { sed -n "s/^$1=//p" "$2" | head -n 1 | sed 's/\.0*$//'; }

timeout -k 2 20 "$B/hilstep-ecu" --listen $ECU --peer $PLANT --priority 70 --stats "$T/ecu.stats" --quiet >"$T/ecu.out" 2>&1 &
E=$!; PIDS="$PIDS $E"
# The latency budget is not what this test measures (a loaded 2-core CI box misses 1 ms now
# and then, flood or not); the ECU's frames and the foreign count are.
budget=""; "$RT" --help 2>/dev/null | grep -q -- --budget-us && budget="--budget-us 100000"
# 6 s: the flood runs 0.7 s .. 4.2 s. It is given 3.5 s to send its 2 s worth, because a loaded box
# misses 1 ms batches (78 275/s measured with 8 builds running, 195 700 in 2.5 s); what counts is
# the volume, and the plant outlives the flood by 1.8 s so that every datagram lands in a count:
# datagrams reaching the port after the plant closed it are outside every count (FRAME.md).
timeout -k 2 20 "$RT" --listen $PLANT --peer $ECU --duration 6 --quiet --log none $budget \
    --stats "$T/rt.stats" --hist "$T/rt.hist" >"$T/rt.out" 2>&1 &
P=$!; PIDS="$PIDS $P"
sleep 0.7
timeout -k 2 20 "$B/hilstep-flood" --from $FOREIGN --to $PLANT --rate "$RATE" --seconds 3.5 >"$T/flood.out" 2>&1
wait $P; rc=$?
wait $E
[ $rc -eq 0 ] && ok "plant exit 0 under the flood" || { ko "plant exit $rc"; tail -5 "$T/rt.out"; }
sent=$(key flood_sent "$T/flood.out"); frate=$(key flood_rate "$T/flood.out")
gaps=$(key rx_seq_gaps "$T/rt.stats"); kd=$(key rx_kernel_drops "$T/rt.stats")
acc=$(key rx_accepted "$T/rt.stats"); fr=$(key rx_rej_foreign_address "$T/rt.stats")
fkd=$(key rx_foreign_kernel_drops "$T/rt.stats"); v=$(key final_speed "$T/rt.stats")
ecu_tx=$(key tx_frames "$T/ecu.stats")
echo "  info flood: $sent datagrams at $frate /s from $FOREIGN; ECU frames: $ecu_tx sent, $acc accepted by the plant, $gaps lost in sequence (rx_seq_gaps), $kd dropped in the peer queue"
echo "  info foreign: $fr read and counted (rx_rej_foreign_address) + ${fkd:-n/a} dropped in the catch-all queue (rx_foreign_kernel_drops)"
[ -n "$sent" ] && [ "$sent" -ge $((RATE * 2)) ] && ok "flood of $sent datagrams (>= 2 s at $RATE/s)" || ko "flooder sent only '$sent'"
[ "$gaps" = 0 ] && [ "$kd" = 0 ] && ok "no ECU frame lost under the flood (seq gaps 0, kernel drops 0)" \
    || ko "ECU frames lost under the flood: seq gaps $gaps, kernel drops $kd of $ecu_tx"
[ -n "$fkd" ] && [ $((fr + fkd)) -eq "$sent" ] && ok "every foreign datagram counted: $fr + $fkd = $sent" \
    || ko "foreign datagrams counted ${fr} + ${fkd} != sent $sent"
[ -n "$v" ] && /usr/bin/python3 -c "import sys; sys.exit(0 if abs($v - 1.0) < 1e-3 else 1)" \
    && ok "closed loop converged under the flood (final speed $v m/s)" || ko "final speed '$v'"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
