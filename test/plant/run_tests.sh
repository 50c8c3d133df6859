#!/bin/sh
# plant-test (issue 16): what never reaches the wire, and what a file-size limit does.
#   1. build/hilstep-plant-unit: hs_plant's output guard (non-finite, out of range) under ASan.
#   2. hilstep-rt with a body at vel = 1e300,1e300 and an energy output, a UDP receiver on the
#      peer port decoding every frame: no NaN/Inf value, FAULT frames, then SAFE|FINAL, exit 4.
#   3. `ulimit -f 64` and hilstep-rt --log: EFBIG like a full disk - summary, complete rows
#      only, rows in the file = telemetry_rows, rows + lost = frames, exit 5.
#   4. The same limit on hilstep-sim --csv: status=write_error, complete rows only, exit 3.
#   5. `ulimit -f 1` on hilstep-ecu --stats: exit 5 with the reason, not killed by SIGXFSZ.
# Usage: run_tests.sh BUILD_DIR. Ends with "plant: N passed, N failed".
B=${1:-build}
PY=/usr/bin/python3
HERE=$(dirname "$0")
T=$(mktemp -d /tmp/hilstep-plant-test.XXXXXX)
export XDG_CONFIG_HOME="$T/cfg"  # the per-user default key of this suite, not the user's
pass=0
fail=0
RXPID=""
ok() { pass=$((pass + 1)); echo "  ok   $1"; }
ko() { fail=$((fail + 1)); echo "  FAIL $1"; }
cleanup() { [ -n "$RXPID" ] && kill "$RXPID" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
st() { sed -n "s/^$2=//p" "$1"; }
# complete_rows CSV: "N" when every line ends in a newline and has the header's field count,
# else "torn".
complete_rows() {
    if [ -s "$1" ] && [ "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" = '\n' ] &&
        [ "$(awk -F, 'NR == 1 { n = NF } NF != n { bad = 1 } END { print bad + 0 }' "$1")" = 0 ]; then
        echo $(($(wc -l <"$1") - 1))
    else echo torn; fi
}

echo "--- hs_plant output guard (unit, ASan + UBSan)"
"$B/hilstep-plant-unit" >"$T/unit.out" 2>&1
cat "$T/unit.out"
line=$(grep -E 'plant-unit: [0-9]+ passed, [0-9]+ failed' "$T/unit.out")
p=$(echo "$line" | sed -E 's/.* ([0-9]+) passed, ([0-9]+) failed.*/\1/')
f=$(echo "$line" | sed -E 's/.* ([0-9]+) passed, ([0-9]+) failed.*/\2/')
if [ -n "$line" ]; then pass=$((pass + p)); fail=$((fail + f)); else ko "plant-unit: no result line"; fi

echo "--- hilstep-rt: a non-finite output never reaches the wire"
BASE=$($PY "$HERE/../linux/free_ports.py" 2) || { echo "no free UDP ports"; echo "plant: 0 passed, 1 failed"; exit 1; }
printf 'model fast dim=2\ngravity 0,-10\nbody bob point2 mass=1 pos=0,0 vel=1e300,1e300\noutput energy\n' >"$T/fast.hsm"
$PY "$HERE/wire_rx.py" 127.0.0.1 $((BASE + 1)) 10 >"$T/rx.out" 2>&1 &
RXPID=$!
for i in 1 2 3 4 5 6 7 8 9 10; do grep -q ready "$T/rx.out" && break; sleep 0.2; done
timeout -k 2 30 "$B/hilstep-rt" --model-file "$T/fast.hsm" --duration 0.2 --quiet --priority 0 \
    --budget-us 1000000 --no-auth --listen 127.0.0.1:$BASE --peer 127.0.0.1:$((BASE + 1)) \
    --log "$T/fast.csv" --stats "$T/fast.stats" >"$T/fast.out" 2>&1
rc=$?
wait $RXPID; RXPID=""
rx=$(grep frames= "$T/rx.out")
v() { echo "$rx" | sed -nE "s/.*(^| )$1=([0-9]+).*/\2/p"; }
[ $rc -eq 4 ] && ok "vel=1e300 body with an energy output: exit 4 (refused steps)" \
    || { ko "vel=1e300 run: exit $rc, wanted 4"; tail -4 "$T/fast.out"; }
[ -n "$rx" ] && [ "$(v nonfinite)" = 0 ] && [ "$(v bad)" = 0 ] && [ "$(v frames)" -ge 1 ] \
    && ok "receiver: $(v frames) frames, $(v nonfinite) with NaN/Inf" \
    || ko "receiver: NaN/Inf on the wire: $rx"
[ "$(v frames)" = 10 ] && [ "$(v fault)" = 10 ] && [ "$(v safe)" = 1 ] && [ "$(v last_flags)" = 13 ] \
    && ok "9 held frames (FAULT), then FAULT|SAFE|FINAL at the 10th (fault hold 10)" \
    || ko "frame flags: $rx (wanted frames=10 fault=10 safe=1 last_flags=13)"
grep -q "last step fault: nonfinite_output" "$T/fast.out" && [ "$(st "$T/fast.stats" step_faults)" = 10 ] \
    && ok "summary names the status: $(grep 'last step fault' "$T/fast.out" | sed 's/^ *//')" \
    || { ko "summary: no 'last step fault: nonfinite_output' or step_faults != 10"; grep -E 'fault' "$T/fast.out"; }

echo "--- hilstep-rt under ulimit -f 64 (SIGXFSZ)"
# No ECU: the point is the lost output (exit 5); --allow-no-ecu keeps the link out of the verdict.
BASE=$($PY "$HERE/../linux/free_ports.py" 2) || BASE=0
(ulimit -f 64; exec timeout -k 2 30 "$B/hilstep-rt" --duration 1 --quiet --priority 0 --budget-us 1000000 --allow-no-ecu \
    --listen 127.0.0.1:$BASE --peer 127.0.0.1:$((BASE + 1)) --log "$T/big.csv" --stats "$T/big.stats" \
    >"$T/big.out" 2>&1)
rc=$?
rows=$(complete_rows "$T/big.csv")
[ $rc -eq 5 ] && grep -q '^verdict: FAIL.*output LOST -> exit 5' "$T/big.out" \
    && ok "hilstep-rt: exit 5 with the summary and verdict ($(grep -c . "$T/big.out") lines)" \
    || { ko "hilstep-rt --log past the size limit: exit $rc, wanted 5 and a verdict line"; tail -3 "$T/big.out"; }
[ "$rows" != torn ] && [ "$rows" = "$(st "$T/big.stats" telemetry_rows)" ] \
    && [ $(($(st "$T/big.stats" telemetry_rows) + $(st "$T/big.stats" telemetry_lost))) -eq "$(st "$T/big.stats" frames)" ] \
    && grep -q "File too large" "$T/big.out" \
    && ok "CSV cut to complete rows: $rows rows = telemetry_rows, + $(st "$T/big.stats" telemetry_lost) lost = $(st "$T/big.stats" frames) frames (File too large)" \
    || ko "CSV after EFBIG: rows '$rows', stats rows $(st "$T/big.stats" telemetry_rows) lost $(st "$T/big.stats" telemetry_lost) frames $(st "$T/big.stats" frames)"
# Every stepped frame went out, plus the FINAL one when the run ended between frames (an
# overrun past the last tick on a loaded machine).
fr=$(st "$T/big.stats" frames); tx=$(st "$T/big.stats" tx_frames)
[ -n "$fr" ] && [ -n "$tx" ] && [ "$fr" -gt 0 ] && { [ "$tx" -eq "$fr" ] || [ "$tx" -eq $((fr + 1)) ]; } \
    && ok "every frame went out, the FINAL one included (tx_frames $tx, frames $fr)" \
    || ko "tx_frames '$tx' for frames '$fr'"

echo "--- hilstep-sim under ulimit -f 64 (SIGXFSZ)"
(ulimit -f 64; exec "$B/hilstep-sim" --model car_axle --h 1e-3 --t 3 --csv "$T/sim.csv" >"$T/sim.out" 2>"$T/sim.err")
rc=$?
rows=$(complete_rows "$T/sim.csv")
[ $rc -eq 3 ] && grep -q 'status=write_error' "$T/sim.out" && grep -q 'File too large' "$T/sim.err" \
    && ok "hilstep-sim: exit 3, summary status=write_error, reason File too large" \
    || { ko "hilstep-sim --csv past the size limit: exit $rc, wanted 3"; cat "$T/sim.err"; }
[ "$rows" != torn ] && [ "$rows" -gt 0 ] && ok "hilstep-sim CSV cut to complete rows ($rows rows)" \
    || ko "hilstep-sim CSV ends in a torn row"

echo "--- hilstep-ecu --stats under ulimit -f 1 (SIGXFSZ)"
# The ECU against a plant (so its link is fine and only the file can fail): its stats file is
# over 512 bytes. Before: killed by SIGXFSZ (exit 153), no message. A loaded machine's silence
# of tens of ms would fail the link first (exit 11 outranks 5): fallbacks are not judged here.
BASE=$($PY "$HERE/../linux/free_ports.py" 2) || BASE=0
(ulimit -f 1; exec timeout -k 2 30 "$B/hilstep-ecu" --listen 127.0.0.1:$((BASE + 1)) --peer 127.0.0.1:$BASE \
    --max-fallback-ticks 1000000 --quiet --stats "$T/ecu.stats" >"$T/ecu.out" 2>&1) &
EP=$!
timeout -k 2 30 "$B/hilstep-rt" --duration 0.3 --quiet --priority 0 --budget-us 1000000 --log none \
    --listen 127.0.0.1:$BASE --peer 127.0.0.1:$((BASE + 1)) >"$T/ecu_rt.out" 2>&1
wait $EP; rc=$?
[ $rc -eq 5 ] && grep -q -- "--stats .*File too large" "$T/ecu.out" \
    && ok "hilstep-ecu: exit 5, $(grep -- '--stats' "$T/ecu.out")" \
    || { ko "hilstep-ecu --stats past the size limit: exit $rc, wanted 5 and a message"; tail -3 "$T/ecu.out"; }

echo "plant: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
