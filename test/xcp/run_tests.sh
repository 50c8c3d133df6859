#!/bin/sh
# xcp-test: hilstep-rt's XCP slave and A2L (issue 36, hil/XCP.md) against the master and A2L
# reader of test/xcp/xcp_master.py, written from the standards. On 127.0.0.1, ports drawn free:
#  1. --a2l alone writes the A2L and exits 0; bad --xcp and --a2l values are refused (exit 2);
#  2. the spring of test/xcp/spring.hsm, authenticated (SEED & KEY): session, errors, a poll of
#     every A2L address against the description's values and the equilibrium, a 10 s DAQ with
#     every frame present, k calibrated to 2 k (the plant settles at -(l0 + m g / k)), a write
#     beyond the A2L's limit refused, a second master refused; the run's stats agree;
#  3. a C model (circular_track), unauthenticated: a calibration read back, one refused;
#  4. the latency verdict of a 3 s run with a DAQ of every output equals the one without XCP;
#  5. instructions per frame with and without the DAQ (callgrind): within 5 %.
#  0. before all, the slave alone under 300,000 bad datagrams (ASan+UBSan, xcp_storm.c).
# Usage: run_tests.sh BUILD. Ends with "N passed, N failed".
B=${1:-build}
PY=/usr/bin/python3
HERE=$(dirname "$0")
T=$(mktemp -d /tmp/hilstep-xcp-test.XXXXXX)
export XDG_CONFIG_HOME="$T/cfg"
pass=0; fail=0; PIDS=""
ok() { pass=$((pass + 1)); echo "  ok   $1"; }
ko() { fail=$((fail + 1)); echo "  FAIL $1"; }
cleanup() { for p in $PIDS; do kill -TERM "$p" 2>/dev/null; done; rm -rf "$T"; }
trap cleanup EXIT
trap 'exit 1' INT TERM
key() { sed -n "s/^$1=//p" "$2" | head -n 1; }
tally() {
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
    if [ -z "$line" ]; then ko "$2: no result line"; cat "$1"; return; fi
    p=${line%% passed*}; f=${line#*passed, }; f=${f%% failed*}
    pass=$((pass + p)); fail=$((fail + f))
    grep -E '^  (FAIL|info)' "$1" || true
    echo "  $2: $p passed, $f failed"
}
BASE=$($PY test/linux/free_ports.py 8) || { echo "no free UDP ports"; echo "0 passed, 1 failed"; exit 1; }
LINK="--listen 127.0.0.1:$BASE --peer 127.0.0.1:$((BASE + 1)) --allow-no-ecu --quiet --log none"
XCP=127.0.0.1:$((BASE + 2))
M=test/xcp/spring.hsm

echo "--- 0. the slave under a storm of bad datagrams (ASan, UBSan)"
"$B/hilstep-xcp-storm" >"$T/storm.out" 2>&1
tally "$T/storm.out" storm

echo "--- 1. --a2l alone; bad --xcp and --a2l"
"$B/hilstep-rt" --model-file $M $LINK --a2l "$T/noxcp.a2l" >"$T/a2l.out" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q "XCP_ON_UDP_IP 0x0104 5555 ADDRESS \"127.0.0.1\"" "$T/noxcp.a2l" \
   && ! grep -q "xcp: slave" "$T/a2l.out"; then
    ok "--a2l without --xcp: the A2L (the default address 127.0.0.1:5555), exit 0, no slave started"
else ko "--a2l without --xcp: exit $rc"; cat "$T/a2l.out"; fi
"$B/hilstep-rt" --model-file $M $LINK --xcp 127.0.0.1:notaport --duration 1 >"$T/bad.out" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q "\-\-xcp 127.0.0.1:notaport" "$T/bad.out"; then ok "--xcp 127.0.0.1:notaport: refused by name, exit 2"
else ko "--xcp bad address: exit $rc"; cat "$T/bad.out"; fi
"$B/hilstep-rt" --model-file $M $LINK --a2l "$T/no/such/dir/x.a2l" >"$T/bad2.out" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q "\-\-a2l $T/no/such/dir/x.a2l" "$T/bad2.out"; then ok "--a2l into a missing directory: refused by name, exit 2"
else ko "--a2l bad path: exit $rc"; cat "$T/bad2.out"; fi

echo "--- 2. the spring, authenticated: session, poll, 10 s DAQ, calibration (xcp_master.py)"
"$B/hilstep-rt" --model-file $M $LINK --budget-us 1000000 --xcp $XCP --a2l "$T/spring.a2l" \
    --duration 16 --stats "$T/spring.stats" --log "$T/spring.csv" --log "$T/spring.mf4" >"$T/spring.out" 2>&1 &
RT=$!; PIDS="$PIDS $RT"
i=0; while [ ! -s "$T/spring.a2l" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
sleep 0.3
timeout 60 $PY "$HERE/xcp_master.py" "$T/spring.a2l" $M "$T/cfg/hilstep/link.key" >"$T/master.out" 2>&1
tally "$T/master.out" "master (spring)"
wait $RT; rc=$?
S="$T/spring.stats"
dtos=$(sed -n 's/^  info dtos //p' "$T/master.out")
if [ $rc -eq 0 ] && grep -q "^verdict: PASS" "$T/spring.out"; then ok "the run: verdict PASS, exit 0"
else ko "the run: exit $rc"; tail -5 "$T/spring.out"; fi
if [ "$(key xcp_cal_writes "$S")" = 1 ] && [ "$(key xcp_cal_refused "$S")" = 1 ] && [ "$(key xcp_cal_out_of_limits "$S")" = 1 ]; then
    ok "stats: 1 calibration applied, 1 refused as outside the A2L's limits"
else ko "stats: calibration counters"; grep xcp_cal "$S"; fi
if [ "$(key xcp_cal_1_old_k "$S")" = 400 ] && [ "$(key xcp_cal_1_new_k "$S")" = 800 ] && [ "$(key xcp_cal_1_applied "$S")" = 1 ] \
   && [ "$(key xcp_cal_2_new_k "$S")" = 6000 ] && [ "$(key xcp_cal_2_applied "$S")" = 0 ]; then
    ok "stats: the record (time, name, old, new): k 400 -> 800 at t = $(key xcp_cal_1_t "$S") s, k 800 -> 6000 refused"
else ko "stats: calibration record"; grep xcp_cal_ "$S"; fi
if grep -q "xcp calibration 1: t .* k 400 -> 800  applied" "$T/spring.out"; then ok "console: the calibration record"
else ko "console: no calibration record"; fi
# The telemetry: xcp_cal (writes applied before the row's step) and cal_k (k in that step) go
# 0/400 -> 1/800 once, on the first step after the stats record's time; 6000 never appears.
tel=$($PY - "$T/spring.csv" "$(key xcp_cal_1_t "$S")" 0.001 <<'PYEOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
t_cal, h = float(sys.argv[2]), float(sys.argv[3])
kcol = [c for c in rows[0] if c.startswith("cal_k[")]
if not kcol or "xcp_cal" not in rows[0]:
    print("bad columns %s" % [c for c in rows[0] if "cal" in c]); sys.exit()
seen = [(float(r["t_s"]), int(r["xcp_cal"]), float(r[kcol[0]])) for r in rows]
ch = [i for i in range(1, len(seen)) if seen[i][1:] != seen[i - 1][1:]]
vals = sorted(set((n, k) for _, n, k in seen))
ok = vals == [(0, 400.0), (1, 800.0)] and len(ch) == 1 and t_cal < seen[ch[0]][0] <= t_cal + 2 * h + 1e-9
print("%s %d %s %s" % ("ok" if ok else "bad", len(rows), vals, seen[ch[0]][0] if ch else None))
PYEOF
)
case "$tel" in
    ok*) ok "telemetry: xcp_cal 0 -> 1 and cal_k 400 -> 800 once, at the first step after t = $(key xcp_cal_1_t "$S") s ($tel)";;
    *) ko "telemetry calibration columns: $tel";;
esac
# ...and the MDF log of the same rows carries them bit for bit (test/mdf's independent reader)
$PY test/mdf/mdf_check.py full "$T/spring.mf4" "$T/spring.csv" "$S" >"$T/spring_mdf.out" 2>&1
if grep -q " 0 failed$" "$T/spring_mdf.out" && head -n 1 "$T/spring.csv" | grep -q ",xcp_cal,cal_g\[.*,cal_k\[N/m\]"; then
    ok "MDF log: the calibration channels (xcp_cal, cal_*) equal the CSV's bit for bit"
else ko "MDF log with calibration channels:"; grep -E "FAIL|passed" "$T/spring_mdf.out" | head -5; fi
if [ "$(key xcp_refused_connects "$S")" = 1 ] && [ "$(key xcp_foreign "$S")" -ge 1 ] 2>/dev/null; then
    ok "stats: the second master's CONNECT refused (1), its other packets ignored ($(key xcp_foreign "$S"))"
else ko "stats: second master"; grep -E 'xcp_(refused|foreign)' "$S"; fi
if [ -n "$dtos" ] && [ "$(key xcp_dtos "$S")" = "$dtos" ]; then ok "stats: xcp_dtos $dtos = the DTOs the master received"
else ko "stats: xcp_dtos $(key xcp_dtos "$S") vs received '$dtos'"; fi
if [ "$(key xcp_unlocks "$S")" = 2 ] && [ "$(key xcp_unlock_failed "$S")" = 1 ]; then ok "stats: 2 unlocks, 1 wrong key"
else ko "stats: unlocks"; grep unlock "$S"; fi

echo "--- 3. a C model (circular_track), unauthenticated"
"$B/hilstep-rt" --model circular_track $LINK --no-auth --budget-us 1000000 --xcp $XCP --a2l "$T/ct.a2l" \
    --duration 5 --stats "$T/ct.stats" >"$T/ct.out" 2>&1 &
RT=$!; PIDS="$PIDS $RT"
i=0; while [ ! -s "$T/ct.a2l" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
sleep 0.3
timeout 30 $PY "$HERE/xcp_master.py" "$T/ct.a2l" - - >"$T/ct_master.out" 2>&1
tally "$T/ct_master.out" "master (circular_track)"
wait $RT; rc=$?
if [ $rc -eq 0 ] && [ "$(key xcp_cal_writes "$T/ct.stats")" = 1 ] && [ "$(key xcp_cal_refused "$T/ct.stats")" = 1 ]; then
    ok "circular_track: exit 0, 1 calibration applied, 1 refused"
else ko "circular_track: exit $rc"; grep xcp_cal "$T/ct.stats"; tail -3 "$T/ct.out"; fi

echo "--- 4. the latency verdict with a DAQ of every output, against the run without XCP"
"$B/hilstep-rt" --model-file $M $LINK --duration 3 --stats "$T/plain.stats" >"$T/plain.out" 2>&1
rc0=$?
"$B/hilstep-rt" --model-file $M $LINK --duration 4 --xcp $XCP --a2l "$T/lat.a2l" --stats "$T/daq.stats" >"$T/daq.out" 2>&1 &
RT=$!; PIDS="$PIDS $RT"
i=0; while [ ! -s "$T/lat.a2l" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
sleep 0.2
timeout 30 $PY "$HERE/xcp_master.py" "$T/lat.a2l" $M "$T/cfg/hilstep/link.key" 3 >"$T/lat_master.out" 2>&1
tally "$T/lat_master.out" "master (DAQ only)"
wait $RT; rc1=$?
v0=$(sed -n 's/^verdict: \([A-Z]*\) .*/\1/p' "$T/plain.out"); v1=$(sed -n 's/^verdict: \([A-Z]*\) .*/\1/p' "$T/daq.out")
j0=$(key latency_judged "$T/plain.stats"); j1=$(key latency_judged "$T/daq.stats")
if grep -q '^xcp_' "$T/plain.stats"; then ko "the run without --xcp has xcp counters"
else ok "without --xcp no slave runs (no xcp_ counters)"; fi
if [ "$v0" = PASS ] && [ "$v1" = PASS ] && [ "$j0" = "$j1" ]; then
    ok "latency verdict: $v0 (judged $j0) without XCP, $v1 (judged $j1) with the DAQ; worst frame $(key frame_latency_max "$T/plain.stats") / $(key frame_latency_max "$T/daq.stats") us"
elif [ "$v0" != PASS ]; then
    echo "  info the run without XCP failed its verdict ($rc0: a loaded machine?); not compared"
else ko "latency verdict: $v0 without XCP, $v1 with the DAQ (exit $rc1)"; grep '^verdict' "$T/daq.out"; fi

echo "--- 5. instructions per frame with a DAQ of every output (callgrind)"
if command -v valgrind >/dev/null; then
    sh "$HERE/xcp_bench.sh" "$B" model/mech/quarter_car.hsm >"$T/bench.out" 2>&1
    cat "$T/bench.out"
    if grep -q "^  ok" "$T/bench.out"; then ok "quarter car: the DAQ within 5 % of the frame"; else ko "quarter car: DAQ cost"; fi
else ko "valgrind missing (test/install_deps.sh installs it)"; fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
