#!/bin/sh
# The contract of build/hilstep-plot: any hilstep CSV (hilstep-sim --csv, hilstep-rt --log)
# becomes one PNG per group of columns; a bad CSV is refused with file:line and exit 2.
PLOT=${1:-build/hilstep-plot}; SIM=${2:-build/hilstep-sim}
pass=0; fail=0
t() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "  FAIL $1"; fi; }
D=$(mktemp -d "${TMPDIR:-/tmp}/hilstep-plot-test.XXXXXX") || exit 1
trap 'rm -rf "$D"' EXIT
png() { [ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }

$SIM --model circular_track --h 1e-3 --t 1 --csv "$D/sim.csv" --every 10 >/dev/null
"$PLOT" "$D/sim.csv" --out "$D/p" >"$D/list" 2>"$D/e"; rc=$?
t "sim CSV: exit 0" '[ $rc -eq 0 ]'
for g in q u g z lam inputs outputs; do
    t "sim CSV: $g plot is a PNG" "png '$D/p/sim_$g.png'"
done
t "sim CSV: prints the paths it wrote" '[ $(wc -l <"$D/list") -eq 7 ] && grep -q "sim_outputs.png$" "$D/list"'
"$PLOT" "$D/sim.csv" --out "$D/c" --columns "out_speed,q1" >/dev/null 2>&1
t "--columns: one PNG of the named columns (unit optional)" "png '$D/c/sim_columns.png'"
# A telemetry CSV as hilstep-rt writes it (its header and one row per frame).
{ echo "tick,t_s,planned_ns,latency_ns,exec_ns,frame_ns,q1,u1,in_F_t[N],out_speed[m/s],gmax,in_seq,fresh,stale,fault,missed,rejected,faults,tx_seq,tx_flags"
  for k in 1 2 3 4 5; do echo "$k,0.00$k,${k}000000,1200,8000,400,0.$k,1,0.5,0.$k,1e-12,$k,1,0,0,0,0,0,$k,0"; done; } >"$D/rt.csv"
"$PLOT" "$D/rt.csv" --out "$D/r" >"$D/list" 2>"$D/e"; rc=$?
t "telemetry CSV: exit 0" '[ $rc -eq 0 ]'
for g in q u inputs outputs timing counters; do
    t "telemetry CSV: $g plot is a PNG" "png '$D/r/rt_$g.png'"
done
printf 't,x\n0,1\n0.1,oops\n' >"$D/bad.csv"
"$PLOT" "$D/bad.csv" --out "$D/b" >/dev/null 2>"$D/e"; rc=$?
t "bad value: exit 2 with file:line" "[ \$rc -eq 2 ] && grep -qF '$D/bad.csv:3: field 2 (x) is not a number' '$D/e'"
printf 't,x\n0,1\n0.1\n' >"$D/bad.csv"
"$PLOT" "$D/bad.csv" --out "$D/b" >/dev/null 2>"$D/e"; rc=$?
t "short row: exit 2 with file:line" "[ \$rc -eq 2 ] && grep -qF '$D/bad.csv:3: 1 fields, the header has 2' '$D/e'"
"$PLOT" "$D/sim.csv" --columns nope >/dev/null 2>"$D/e"; rc=$?
t "unknown column: exit 2, lists the columns" "[ \$rc -eq 2 ] && grep -q \"no column 'nope' (columns: t, q1\" '$D/e'"
"$PLOT" "$D/missing.csv" >/dev/null 2>"$D/e"; rc=$?
t "missing file: exit 2" "[ \$rc -eq 2 ] && grep -q 'cannot open' '$D/e'"
echo "plot: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
