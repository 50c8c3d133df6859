#!/bin/sh
# The board with inputs (part of qemu-test): `make qemu-run INPUTS=file.csv` replays an input
# CSV on the Cortex-M7 and ends with a verdict line whose exit status matches it.
#   replay_test.sh BUILD SIM     (BUILD: the build directory the images are in)
# Checks, each against a number from elsewhere:
#   - the quarter car on model/mech/quarter_car_road.csv: the board's trajectory hash equals
#     hilstep-sim --model-file model/mech/quarter_car.hsm --inputs's for the same method and h, the verdict is PASS with exit 0,
#     and every step replayed an input frame (T / H of them);
#   - the same with the expected hash given (EXPECT_HASH, PASS) and with a wrong one (FAIL,
#     exit 7, both hashes named);
#   - a road above road_z's max = 0.5 m (INTERP=hold, a row per step): the board clamps and
#     counts as hilstep-rt does; its hash equals hilstep-sim's on the same road cut at 0.5 by
#     awk, and the count equals the rows above 0.5;
#   - H = 20 us, less than the frame's instructions at 1 ms: every frame overruns, FAIL, exit 3;
#   - a road that jumps across road_z's whole range (-0.5 m to 0.5 m) in 1 ms: body_acc leaves
#     its declared [-200, 200] m/s^2 (hilstep-sim's CSV of the same road shows it), the plant
#     refuses those steps: verdict FAIL, exit 4;
#   - a CSV in every form hilstep-sim reads (comments, CR LF, in_NAME [unit] headers, both
#     inputs in another order, blanks, signs, exponents), linear and hold: the
#     board hash equals hilstep-sim's;
#   - bad CSVs refused before anything runs, naming the file, line, column or limit.
# Prints "replay: N passed, N failed" last.
B=${1:?build directory}
SIM=${2:?hilstep-sim}
pass=0; fail=0
ok() { pass=$((pass + 1)); echo "  ok   $1"; }
ko() { fail=$((fail + 1)); echo "  FAIL $1"; }
D=$(mktemp -d "${TMPDIR:-/tmp}/hilstep-replay-test.XXXXXX") || exit 1
trap 'rm -rf "$D"' EXIT
M="env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -s BUILD=$B"
ROAD=model/mech/quarter_car_road.csv
MODEL=quarter_car
HSM=model/mech/quarter_car.hsm   # the board runs its generated tables (model/gen), by name

# hash of hilstep-sim's run of the description: inputs, t, then extra options
sim_hash() {
    "$SIM" --model-file $HSM --inputs "$1" --h 1e-3 --t "$2" --hash $3 2>"$D/sim.err" | awk '/^trajectory-hash / { print $6 }'
}
field() { sed -n "s/^verdict: .* $1=\([^ ]*\).*/\1/p" "$2"; }
# The board's exit status N as make reports it: make exits 2 for any failed recipe and names
# the recipe's status ("make: *** [...qemu-run] Error N").
board_rc() { sed -n 's/^make: \*\*\* \[.*qemu-run\] Error \([0-9]*\)$/\1/p' "$1" | tail -n 1; }

echo "--- the quarter car on $ROAD (3 s, h = 1 ms, the library's method)"
host=$(sim_hash $ROAD 3 "")
$M qemu-run QEMU_RUN_MODEL=$MODEL T=3 INPUTS=$ROAD >"$D/road.out" 2>&1; rc=$?
board=$(grep '^trajectory-hash ' "$D/road.out" | awk '{ print $6 }')
v=$(grep '^verdict: ' "$D/road.out")
if [ $rc -eq 0 ] && [ -n "$host" ] && [ "$board" = "$host" ]; then
    ok "make qemu-run INPUTS=$ROAD: board hash $board = hilstep-sim --inputs --hash, exit 0"
else
    ko "make qemu-run INPUTS=$ROAD: exit $rc, board '${board:-none}', host '${host:-none}'"; tail -5 "$D/road.out"
fi
[ "$(tail -n 1 "$D/road.out" | cut -c1-14)" = "verdict: PASS " ] && [ "$(field replayed "$D/road.out")" = 3000 ] \
    && [ "$(field refused "$D/road.out")" = 0 ] && [ "$(field overruns "$D/road.out")" = 0 ] \
    && [ "$(field clamped "$D/road.out")" = 0 ] && [ "$(field exit "$D/road.out")" = 0 ] \
    && ok "the last line is the verdict: PASS, 3000 frames replayed (T / H), 0 refused, 0 overruns, 0 clamped" \
    || ko "verdict line: '$v' (last line '$(tail -n 1 "$D/road.out")')"
grep -q "^hilstep plant: model $MODEL,.* inputs $ROAD (linear)$" "$D/road.out" \
    && ok "the banner names the inputs and their interpolation" || ko "banner: $(grep '^hilstep plant' "$D/road.out")"

echo "--- EXPECT_HASH: right and wrong"
$M qemu-run QEMU_RUN_MODEL=$MODEL T=3 INPUTS=$ROAD EXPECT_HASH=$host >"$D/right.out" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q "^verdict: PASS hash=$host (= expected $host)" "$D/right.out" \
    && ok "EXPECT_HASH=$host: PASS, exit 0" || ko "EXPECT_HASH=$host: exit $rc, $(grep '^verdict' "$D/right.out")"
last=${host#"${host%?}"}
if [ "$last" = 0 ]; then wrong=${host%?}1; else wrong=${host%?}0; fi
$M qemu-run QEMU_RUN_MODEL=$MODEL T=3 INPUTS=$ROAD EXPECT_HASH=$wrong >"$D/wrong.out" 2>&1; rc=$?
[ $rc -ne 0 ] && [ "$(board_rc "$D/wrong.out")" = 7 ] && grep -q "^verdict: FAIL hash=$host (expected $wrong) .* exit=7$" "$D/wrong.out" \
    && ok "EXPECT_HASH=$wrong (one digit off): FAIL naming both hashes, board exit 7 (make: Error 7)" \
    || ko "EXPECT_HASH=$wrong: exit $rc, $(grep '^verdict' "$D/wrong.out")"

echo "--- the CSV's format as hilstep-sim reads it: comments, CRLF, in_ and units, blanks, exponents"
# a telemetry-style header (in_NAME [unit], both inputs, F_act first), CR LF line ends, a
# comment and a blank line between rows, fields with blanks, signs and exponents (hex floats
# are refused by both, below)
printf '# road and actuator\r\nt [s],in_F_act [N] ,in_road_z [m]\r\n0, 0,0\r\n\r\n0.25,+1.5e2, 0\r\n# a bump\r\n0.3 ,-2E1,.04\r\n0.35,2.4e1,4e-2\r\n0.5,0,-0\r\n' >"$D/fmt.csv"
for interp in linear hold; do
    host=$(sim_hash "$D/fmt.csv" 1 "--interp $interp")
    $M qemu-run QEMU_RUN_MODEL=$MODEL T=1 INPUTS="$D/fmt.csv" INTERP=$interp >"$D/fmt.out" 2>&1; rc=$?
    board=$(grep '^trajectory-hash ' "$D/fmt.out" | awk '{ print $6 }')
    if [ $rc -eq 0 ] && [ -n "$host" ] && [ "$board" = "$host" ] && [ "$(field replayed "$D/fmt.out")" = 1000 ]; then
        ok "a CSV in every form hilstep-sim takes, INTERP=$interp: board hash $board = hilstep-sim --interp $interp"
    else
        ko "format CSV, INTERP=$interp: exit $rc, board '${board:-none}', host '${host:-none}' $(cat "$D/sim.err")"; tail -3 "$D/fmt.out"
    fi
done

echo "--- a road above road_z's range (max = 0.5 m), one row per step, INTERP=hold"
# a slow rise from 0 to 0.7 m between 0.2 s and 1.7 s (half a cosine), then level; awk cuts it
# at 0.5 for hilstep-sim (with hold the cut rows are exactly the clamped inputs)
awk 'BEGIN { print "t,road_z [m]"; pi = 3.141592653589793
             for (k = 0; k < 2000; ++k) { t = k / 1000; v = 0
                 if (t >= 0.2) v = (t >= 1.7) ? 0.7 : 0.35 * (1 - cos(pi * (t - 0.2) / 1.5))
                 printf "%.3f,%.17g\n", t, v } }' >"$D/high.csv"
awk -F, 'NR == 1 { print; next } { v = $2 + 0; if (v > 0.5) v = 0.5; printf "%s,%.17g\n", $1, v }' "$D/high.csv" >"$D/cut.csv"
above=$(awk -F, 'NR > 1 && $2 + 0 > 0.5' "$D/high.csv" | wc -l | tr -d ' ')
host=$(sim_hash "$D/cut.csv" 2 "--interp hold")
$M qemu-run QEMU_RUN_MODEL=$MODEL T=2 INPUTS="$D/high.csv" INTERP=hold >"$D/high.out" 2>&1; rc=$?
board=$(grep '^trajectory-hash ' "$D/high.out" | awk '{ print $6 }')
clamped=$(field clamped "$D/high.out")
if [ $rc -eq 0 ] && [ -n "$host" ] && [ "$board" = "$host" ] && [ "$above" -gt 0 ] && [ "$clamped" = "$above" ]; then
    ok "0.7 m rise: clamped=$clamped = the $above rows above 0.5; board hash $board = hilstep-sim's on the road cut at 0.5"
else
    ko "0.7 m rise: exit $rc, clamped '${clamped:-?}' (rows above 0.5: $above), board '${board:-none}', host '${host:-none}'"
    tail -3 "$D/high.out"
fi

echo "--- a road that jumps from -0.5 m to 0.5 m in 1 ms: outputs out of range, refused steps"
printf 't,road_z [m]\n0,-0.5\n0.499,-0.5\n0.5,0.5\n2,0.5\n' >"$D/jump.csv"
# hilstep-sim's CSV shows |body_acc| (if hilstep-sim refuses out-of-range outputs itself, its
# CSV stops there: the largest value written is then the refused one or its predecessor).
"$SIM" --model-file $HSM --inputs "$D/jump.csv" --h 1e-3 --t 1 --csv "$D/jump_sim.csv" >/dev/null 2>"$D/jump_sim.err"
src=$?
amax=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) if ($i ~ /^out_body_acc/) c = i; next }
                c { a = $c < 0 ? -$c : $c; if (a > m) m = a } END { printf "%.0f", m }' "$D/jump_sim.csv")
amax=${amax:-0}
# the host's evidence: its CSV out of range, or its own refusal of the out-of-range output
host_out=0
if [ "$amax" -gt 200 ]; then host_out=1; fi
if [ $src -ne 0 ] && grep -qi 'range' "$D/jump_sim.err"; then host_out=1; amax="$amax (hilstep-sim refused: $(head -c 120 "$D/jump_sim.err"))"; fi
$M qemu-run QEMU_RUN_MODEL=$MODEL T=1 INPUTS="$D/jump.csv" >"$D/jump.out" 2>&1; rc=$?
refused=$(field refused "$D/jump.out")
if [ $host_out -eq 1 ] && [ $rc -ne 0 ] && [ "$(board_rc "$D/jump.out")" = 4 ] && [ "${refused:-0}" -gt 0 ] \
   && grep -q "^verdict: FAIL .* exit=4$" "$D/jump.out"; then
    ok "1 m jump: hilstep-sim's |body_acc| reaches $amax m/s^2 > 200; the board refuses $refused steps: FAIL, exit 4"
else
    ko "1 m jump: host |body_acc| max '${amax:-?}', exit $rc, refused '${refused:-?}', $(grep '^verdict' "$D/jump.out")"
    tail -4 "$D/jump.out"
fi

echo "--- a step that does not fit the frame: H = 20 us against the frames of the 1 ms run"
fmin=$(sed -n 's/^frame ticks=.* exec-min=\([0-9]*\) .*/\1/p' "$D/road.out")
$M qemu-run QEMU_RUN_MODEL=$MODEL T=0.01 H=2e-5 INPUTS=$ROAD >"$D/over.out" 2>&1; rc=$?
over=$(field overruns "$D/over.out")
if [ "${fmin:-0}" -gt 20000 ] && [ $rc -ne 0 ] && [ "$(board_rc "$D/over.out")" = 3 ] && [ "$over" = 500 ] \
   && grep -q "^verdict: FAIL .* exit=3$" "$D/over.out"; then
    ok "H=2e-5: every frame (at least $fmin instructions at 1 ms) exceeds 20000: overruns=500 of 500, FAIL, exit 3"
else
    ko "H=2e-5: frame min '${fmin:-?}', exit $rc, overruns '${over:-?}', $(grep '^verdict' "$D/over.out")"
fi

echo "--- bad input files: refused before anything runs, naming what is wrong"
printf 't,road_z [m],spring\n0,0,1\n' >"$D/col.csv"
printf 't,road_z\n0,0\n0.1,inf\n' >"$D/inf.csv"
printf 't,road_z [mm]\n0,0\n' >"$D/unit.csv"
printf 't,road_z\n0,0\n0,1\n' >"$D/order.csv"
printf 't,road_z\n0,0\n0.1,0x1p-4\n' >"$D/hex.csv"
for c in "col.csv|column 'spring' is not an input of model quarter_car" \
         "inf.csv|inf.csv:3: field 2 ('inf') is not a finite number" \
         "unit.csv|column 'road_z' is in mm, input road_z is in m" \
         "order.csv|order.csv:3: t = 0 is not after the previous row's 0" \
         "hex.csv|hex.csv:3: field 2 ('0x1p-4') is a hexadecimal float" \
         "$ROAD INPUTS_MAX_BYTES=1000|than the board's 1000 (INPUTS_MAX_BYTES)"; do
    f=${c%%|*}; want=${c#*|}
    case $f in model/*) path=$f ;; *) path="$D/$f" ;; esac
    $M qemu-run QEMU_RUN_MODEL=$MODEL T=1 INPUTS=$path >"$D/bad.out" 2>&1; rc=$?
    if [ $rc -ne 0 ] && grep -qF "$want" "$D/bad.out" && ! grep -q '^verdict: PASS' "$D/bad.out"; then
        ok "INPUTS=$f: refused (make exit $rc): ...$want"
    else
        ko "INPUTS=$f: exit $rc, want '$want'"; tail -3 "$D/bad.out"
    fi
done
echo "replay: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
