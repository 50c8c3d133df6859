#!/bin/sh
# can-test: the CAN side of the plant on the host (this machine's kernel has no vcan: the bus
# scenario runs in the PREEMPT_RT guest of make rtkernel-test, test/can/scenario.sh).
#   codec unit tests (ASan, UBSan); bit-exact cross-check against python3-canmatrix; the candump
#   checker on a synthetic run; the DBC -> C generator; every shipped DBC binds to its model;
#   the DBC limits and the E2E layout refused at FILE:LINE; hilstep-dbcgen's escaping; the E2E
#   CRC against an independent Python implementation and the Python example ECU; the second
#   sender's judge (test/can/spoof_check.sh) on made-up runs with a forged value applied;
#   hilstep-rt and hilstep-ecu refuse bad input with exit 2 naming FILE:LINE or the interface and
#   leave nothing behind; make run TRANSPORT=can without an interface says so (exit != 0).
# Usage: run_tests.sh BUILD_DIR. Ends with "can: N passed, N failed".
# The include path of model/'s rooms (model/ROOMS).
MODEL_INC=$(awk '!/^#/ && NF {printf "-Imodel/%s ", $1}' model/ROOMS)
B=${1:-build}
PY=/usr/bin/python3
T=$(mktemp -d /tmp/hilstep-can-test.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "  ok   $1"; }
ko() { fail=$((fail + 1)); echo "  FAIL $1"; }
tally() {
    line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
    if [ -z "$line" ]; then ko "$2: no result line"; cat "$1"; return; fi
    p=$(echo "$line" | sed -E 's/^(.*[^0-9])?([0-9]+) passed, ([0-9]+) failed.*/\2/')
    f=$(echo "$line" | sed -E 's/^(.*[^0-9])?([0-9]+) passed, ([0-9]+) failed.*/\3/')
    pass=$((pass + p)); fail=$((fail + f))
    grep -E '^  FAIL' "$1" || true
    echo "  $2: $p passed, $f failed"
}

echo "--- DBC parser and CAN codec unit tests (ASan, UBSan)"
"$B/hilstep-can-unit" >"$T/unit.out" 2>&1
tally "$T/unit.out" can-unit

echo "--- bit-exact against python3-canmatrix (Intel, Motorola, signed, scaled, CAN FD lengths)"
mkdir -p "$T/cross"
$PY test/can/cross_check.py "$B/hilstep-can-tool" "$T/cross" >"$T/cross.out" 2>&1
grep -E '^  (ok|FAIL)' "$T/cross.out"
tally "$T/cross.out" can-cross

echo "--- the candump checker on a synthetic run (frames from our codec, decoded by canmatrix)"
mkdir -p "$T/checker"
$PY test/can/checker_test.py "$B/hilstep-can-tool" "$T/checker" >"$T/checker.out" 2>&1
grep -E '^  ok' "$T/checker.out" | head -1
tally "$T/checker.out" can-checker

echo "--- DBC -> C table for boards (hilstep-dbcgen)"
"$B/hilstep-can-gen" hil/dbc/circular_track.dbc >"$T/gen.out" 2>&1
tally "$T/gen.out" can-gen
if command -v arm-none-eabi-gcc >/dev/null 2>&1; then
    if arm-none-eabi-gcc -std=c99 -mcpu=cortex-m7 -mthumb -mfpu=fpv5-d16 -mfloat-abi=hard -O2 -ffreestanding \
        -ffp-contract=off -Wall -Wextra -Werror -Wconversion -Wdouble-promotion -Wshadow -Irt $MODEL_INC -Ihil \
        -c "$B/can/circular_track_dbc.c" -o "$T/gen_m7.o" 2>"$T/arm.err" &&
       arm-none-eabi-gcc -std=c99 -mcpu=cortex-m7 -mthumb -mfpu=fpv5-d16 -mfloat-abi=hard -O2 -ffreestanding \
        -ffp-contract=off -Wall -Wextra -Werror -Wconversion -Wdouble-promotion -Wshadow -Irt $MODEL_INC -Ihil \
        -c hil/hs_can.c -o "$T/can_m7.o" 2>>"$T/arm.err"; then
        ok "the generated table and hil/hs_can.c compile for the Cortex-M7 (freestanding, strict warnings)"
    else
        ko "Cortex-M7 compile of the generated table"; cat "$T/arm.err"
    fi
fi

# hilstep-dbcgen copies nothing into C unescaped: a path holding "*/" and C text, a unit with
# '?', '"' and non-ASCII bytes; a value that is not finite is refused (exit 2, FILE:LINE).
mkdir -p "$T/x*/int hs_injected = 1; "
inj="$T/x*/int hs_injected = 1; /*e.dbc"
sed 's|"m/s"|"m/s??=\\\"\xc2\xb5"|' hil/dbc/circular_track.dbc >"$inj"
if "$B/hilstep-dbcgen" "$inj" inj >"$T/inj.c" 2>"$T/inj.err" &&
   cc -std=c99 -Wall -Wextra -Werror -Wno-trigraphs -trigraphs -Irt $MODEL_INC -Ihil -c "$T/inj.c" -o "$T/inj.o" 2>>"$T/inj.err" &&
   ! nm "$T/inj.o" | grep -q hs_injected && nm "$T/inj.o" | grep -q ' R hs_can_db_inj$' &&
   [ "$(grep -c '\*/' "$T/inj.c")" = 2 ] && ! LC_ALL=C grep -q '[^ -~]' "$T/inj.c"; then
    ok "hilstep-dbcgen: a path with '*/' and C text stays in its comment (no hs_injected symbol), a unit with ??= \\\" and UTF-8 escaped, output pure ASCII"
else
    ko "hilstep-dbcgen escaping: $(head -3 "$T/inj.err")"; nm "$T/inj.o" 2>/dev/null | head
fi
"$B/hilstep-dbcgen" test/can/bad/start_inf.dbc x >"$T/inf.c" 2>"$T/inf.err"
rc=$?
[ $rc -eq 2 ] && grep -q 'start_inf.dbc:14: signal F_t: GenSigStartValue is not a finite number' "$T/inf.err" \
    && ok "hilstep-dbcgen refuses a start value of 1e400: exit 2, $(cat "$T/inf.err")" \
    || ko "hilstep-dbcgen on 1e400: exit $rc, $(cat "$T/inf.err")"

echo "--- E2E: CRC-8 by an independent implementation (test/can/e2e.py) against AUTOSAR's check values"
$PY test/can/e2e.py >"$T/e2e.out" 2>&1 && grep -q 'ok crc8 check values 0x4B' "$T/e2e.out" \
    && ok "test/can/e2e.py: CRC-8 SAE J1850 \"123456789\" = 0x4B, CRC-8H2F = 0xDF" || ko "test/can/e2e.py: $(cat "$T/e2e.out")"

echo "--- SecOC: MAC and freshness against Python's hmac, forged and replayed frames refused (test/can/secoc_check.py)"
$PY test/can/secoc_check.py "$B" >"$T/secoc.out" 2>&1
grep -E '^  (ok|FAIL)' "$T/secoc.out"
tally "$T/secoc.out" secoc

for a in "hil/dbc/circular_track.dbc" "test/can/circular_track_e2e.dbc" "test/can/circular_track_secoc.dbc" "test/can/circular_track_secoc.dbc forged" \
         "hil/dbc/mech/quarter_car.dbc" "hil/dbc/truck_trailer_pen.dbc" "hil/dbc/truck_trailer_pen.dbc forged" \
         "hil/dbc/truck_trailer_pen.dbc off"; do
    # shellcheck disable=SC2086
    "$B/hilstep-can-mac-bench" $a >"$T/macb.out" 2>&1 && ok "make can-mac-bench's loop on $a: $(cut -d: -f3- "$T/macb.out")" \
        || ko "can-mac-bench's loop on $a: $(cat "$T/macb.out")"
done

echo "--- the second sender's judge (test/can/spoof_check.sh) on made-up runs: a forged value applied is a FAIL"
sh test/can/spoof_check_test.sh "$B" >"$T/spoof_check.out" 2>&1
grep -E '^  ok' "$T/spoof_check.out" | sed -n '2p'
tally "$T/spoof_check.out" spoof-check

echo "--- the Python ECU example (test/can/ecu_example.py, python-can) writes what our codec writes"
: >"$T/py.hex"; : >"$T/tool.in"
for k in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17; do
    F=$(awk -v k=$k 'BEGIN { printf "%.3f", 49.9 * sin(k * 1.3) }')
    $PY test/can/ecu_example.py --frame "$F" $k >>"$T/py.hex"
    echo "EcuCommand $F" >>"$T/tool.in"
done
"$B/hilstep-can-tool" encode hil/dbc/circular_track.dbc <"$T/tool.in" | awk '{ print $3 }' >"$T/tool.hex"
cmp -s "$T/py.hex" "$T/tool.hex" && [ "$(wc -l <"$T/py.hex")" = 18 ] \
    && ok "ecu_example.py's 18 EcuCommand frames (counter 0..17, wrapping at 16) = hilstep-can-tool's, byte for byte" \
    || { ko "ecu_example.py frames differ from the codec's"; diff "$T/py.hex" "$T/tool.hex" | head -5; }
# SecOC both ways (hil/dbc/circular_track.dbc's two collections) under a key of this run: the
# ECU's 18 cycles (freshness 1..18) verified by our receive side; the plant's cycles encoded by
# our codec verified by the ECU's Python (hmac), and refused under another key.
K=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n'); K2=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
: >"$T/pyc.in"; : >"$T/pl.in"
for k in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17; do
    F=$(awk -v k=$k 'BEGIN { printf "%.3f", 49.9 * sin(k * 1.3) }')
    $PY test/can/ecu_example.py --cycle "$F" $k $((k + 1)) "$K" >>"$T/pyc.in"
    awk -v k=$k 'BEGIN { printf "PlantState %.3f 1\nPlantPosition 0.5 -0.25\nPlantAuth\n", 31.9 * sin(k * 0.7) }' >>"$T/pl.in"
done
"$B/hilstep-can-tool" receive hil/dbc/circular_track.dbc "$K" <"$T/pyc.in" >"$T/pyc.out" 2>&1
n_app=$(grep -c '^applied EcuCommand' "$T/pyc.out"); n_acc=$(grep -c '^EcuCommandAuth accepted' "$T/pyc.out")
[ "$n_app" = 18 ] && [ "$n_acc" = 18 ] && [ "$(grep -vc -e ' held$' -e ' accepted$' -e '^applied ' "$T/pyc.out")" = 0 ] \
    && ok "ecu_example.py's 18 EcuCommandAuth frames (Python's hmac) verify in hil/hs_secoc.c: 18 cycles applied" \
    || { ko "ecu_example.py's cycles under our receive side: applied $n_app, accepted $n_acc"; head -5 "$T/pyc.out"; }
"$B/hilstep-can-tool" encode hil/dbc/circular_track.dbc "$K" <"$T/pl.in" >"$T/pl.enc" 2>&1
$PY test/can/ecu_example.py --verify "$K" <"$T/pl.enc" >"$T/pl.out" 2>&1
awk 'BEGIN { for (k = 0; k < 18; k++) printf "speed %.3f\n", 31.9 * sin(k * 0.7) }' >"$T/pl.want"
cmp -s "$T/pl.out" "$T/pl.want" \
    && ok "the plant's 18 PlantAuth cycles (our codec) verify in ecu_example.py and give the speeds sent" \
    || { ko "ecu_example.py --verify on the plant's cycles"; diff "$T/pl.out" "$T/pl.want" | head -5; }
"$B/hilstep-can-tool" encode hil/dbc/circular_track.dbc "$K2" <"$T/pl.in" >"$T/pl2.enc" 2>&1
$PY test/can/ecu_example.py --verify "$K" <"$T/pl2.enc" >"$T/pl2.out" 2>&1
[ "$(grep -c '^refused' "$T/pl2.out")" = 18 ] && ! grep -q '^speed' "$T/pl2.out" \
    && ok "the same cycles under another key: all 18 refused by ecu_example.py, no speed acted on" \
    || { ko "ecu_example.py acted on cycles under another key"; head -3 "$T/pl2.out"; }

echo "--- every shipped DBC binds to its model (hilstep-rt --transport can --signals: no bus touched)"
nb=0; bad=""
for m in circular_track car_axle pendulum chain ladder car_axle_mb car truck_trailer truck_trailer_pen; do
    nb=$((nb + 1)); meth=; [ "$m" = ladder ] && meth="--method spook" # refused by the default at init
    "$B/hilstep-rt" --model "$m" $meth --transport can --can-if none --dbc "hil/dbc/$m.dbc" --signals \
        >"$T/sig.out" 2>&1 || bad="$bad $m($(tail -1 "$T/sig.out"))"
done
for f in model/mech/*.hsm; do
    n=$(basename "$f" .hsm); nb=$((nb + 1))
    "$B/hilstep-rt" --model-file "$f" --transport can --can-if none --dbc "hil/dbc/mech/$n.dbc" --signals \
        >"$T/sig.out" 2>&1 || bad="$bad mech/$n($(tail -1 "$T/sig.out"))"
done
nb=$((nb + 1))
"$B/hilstep-rt" --model circular_track --transport can --can-if none --dbc test/can/circular_track_fd.dbc --signals \
    >"$T/sig.out" 2>&1 || bad="$bad circular_track_fd($(tail -1 "$T/sig.out"))"
[ -z "$bad" ] && ok "$nb shipped DBCs bind: every model input and output to one CAN signal" || ko "shipped DBCs that do not bind:$bad"
"$B/hilstep-rt" --model circular_track --transport can --can-if none --dbc hil/dbc/circular_track.dbc --signals >"$T/sig.out" 2>&1
grep -qE '^in +0 +F_t +N .* -50 +50 +0 +30$' "$T/sig.out" && grep -qE '^out +1 +radius +m .* 0 +6.5535 +1 +-$' "$T/sig.out" \
    && ok "circular_track map from the DBC: F_t +-50 N stale after 30 periods (3 x 10 ms at 1 ms), radius fallback 1 m (GenSigStartValue)" \
    || { ko "circular_track map from the DBC"; cat "$T/sig.out"; }

echo "--- the generated DBCs: the generator's output, E2E on every message, ranges and resolution against the models (test/can/check_shipped_dbc.py)"
mkdir -p "$T/shipped"
$PY test/can/check_shipped_dbc.py "$B" "$T/shipped" >"$T/shipped.out" 2>&1
grep -E '^  (ok|FAIL)' "$T/shipped.out"
tally "$T/shipped.out" shipped-dbc

echo "--- the README's python-can ECU writes counter and CRC (python-can's virtual bus, test/can/readme_ecu_check.py)"
timeout -k 2 120 $PY test/can/readme_ecu_check.py "$B" >"$T/readme_ecu.out" 2>&1
grep -E '^  (ok|FAIL)' "$T/readme_ecu.out"
tally "$T/readme_ecu.out" readme-ecu

echo "--- bad input: exit 2, FILE:LINE (or the interface), nothing half-started"
# run NAME EXPECTED_EXIT PATTERN CMD...: the command's exit status and stderr, and no CSV left.
run() {
    name=$1; want=$2; pat=$3; shift 3
    rm -f "$T/x.csv"
    timeout -k 2 20 "$@" --log "$T/x.csv" --quiet >"$T/o.out" 2>"$T/o.err"
    rc=$?
    if [ $rc -eq "$want" ] && grep -qE -- "$pat" "$T/o.err" && [ ! -e "$T/x.csv" ]; then
        ok "$name: exit $rc, $(head -1 "$T/o.err" | cut -c1-150)"
    else
        ko "$name: exit $rc (wanted $want), stderr: $(head -2 "$T/o.err"), csv left: $([ -e "$T/x.csv" ] && echo yes || echo no)"
    fi
}
RT="$B/hilstep-rt"
CT="--transport can --can-if vcan0"
run "DBC that does not parse" 2 'test/can/bad/syntax.dbc:6: signal F_t: expected \(factor,offset\)' \
    $RT $CT --dbc test/can/bad/syntax.dbc
run "overlapping signals" 2 'test/can/bad/overlap.dbc:13: signal x1 overlaps signal speed at bit 8' \
    $RT $CT --dbc test/can/bad/overlap.dbc
run "classic-CAN message over 8 bytes" 2 'test/can/bad/classic12.dbc:8: message PlantState: classic CAN carries at most 8 bytes, this one has 12' \
    $RT $CT --dbc test/can/bad/classic12.dbc
run "multiplexed signals" 2 'test/can/bad/mux.dbc:6: signal page: multiplexed signals are not supported' \
    $RT $CT --dbc test/can/bad/mux.dbc
run "a signal the model lacks" 2 'hil/dbc/circular_track.dbc:17: signal F_t: the model has no input or output of this name' \
    $RT --model car_axle $CT --dbc hil/dbc/circular_track.dbc
run "a model input the DBC lacks" 2 'test/can/bad/noinput.dbc: model input F_t has no signal in the DBC' \
    $RT $CT --dbc test/can/bad/noinput.dbc
run "cycle time not a multiple of the period" 2 'circular_track.dbc:16: message EcuCommand: GenMsgCycleTime is not a whole multiple of the period' \
    $RT $CT --dbc hil/dbc/circular_track.dbc --period-us 3000
# The DBC's safety limits (hil/CAN.md, "Limits"): issue 31's findings, each refused at its line.
run "stale limit of 429,496,729 cycles" 2 'test/can/bad/stale_huge.dbc:14: message EcuCommand: HilstepStaleCycles must be 1..1000' \
    $RT $CT --dbc test/can/bad/stale_huge.dbc
run "67,108 ms cycle time" 2 'test/can/bad/cycle_long.dbc:13: message EcuCommand: GenMsgCycleTime over the 1000 ms bound' \
    $RT $CT --dbc test/can/bad/cycle_long.dbc
run "start value 1e400" 2 'test/can/bad/start_inf.dbc:14: signal F_t: GenSigStartValue is not a finite number' \
    $RT $CT --dbc test/can/bad/start_inf.dbc
run "start value outside [min|max] (+60 N)" 2 'test/can/bad/start_range.dbc:14: signal F_t: GenSigStartValue \(raw \* factor \+ offset\) lies outside \[min\|max\]' \
    $RT $CT --dbc test/can/bad/start_range.dbc
run "factor 1e-320" 2 'test/can/bad/factor_tiny.dbc:11: signal F_t: \|factor\| must be 1e-12..1e12' \
    $RT $CT --dbc test/can/bad/factor_tiny.dbc
run "E2E counter without its CRC" 2 'test/can/bad/e2e_nocrc.dbc:10: message EcuCommand: HsE2EProfile needs one counter and one CRC signal' \
    $RT $CT --dbc test/can/bad/e2e_nocrc.dbc
# A DBC with SecOC messages needs the link key (hil/CAN.md, "Security"), loaded with --key's checks.
(umask 077; head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$T/secoc.key")
cp "$T/secoc.key" "$T/secoc_open.key"; chmod 644 "$T/secoc_open.key"
run "SecOC DBC, no key file" 2 "SecOC key of the DBC's authenticated messages: key file $T/none.key" \
    $RT --transport can --can-if hsnocan0 --dbc test/can/circular_track_secoc.dbc --transport-opt secoc-key="$T/none.key"
run "SecOC DBC, a key others can read" 2 "SecOC key of the DBC's authenticated messages: .*secoc_open.key" \
    $RT --transport can --can-if hsnocan0 --dbc test/can/circular_track_secoc.dbc --transport-opt secoc-key="$T/secoc_open.key"
run "SecOC DBC, its key loaded: the next refusal is the interface's" 2 "CAN interface 'hsnocan0': No such device" \
    $RT --transport can --can-if hsnocan0 --dbc test/can/circular_track_secoc.dbc --transport-opt secoc-key="$T/secoc.key"
# The shipped DBCs with inputs authenticate the commands (a SecOC collection): the key is needed
# by both tools; --no-auth reads none (the interface is then the next refusal).
QC="--model-file model/mech/quarter_car.hsm --transport can --can-if hsnocan0 --dbc hil/dbc/mech/quarter_car.dbc"
# shellcheck disable=SC2086
run "shipped quarter_car.dbc (SecOC collection), no key file" 2 "SecOC key of the DBC's authenticated messages: key file $T/none.key" \
    $RT $QC --transport-opt secoc-key="$T/none.key"
# shellcheck disable=SC2086
run "shipped quarter_car.dbc, --no-auth: no key read, the next refusal is the interface's" 2 "CAN interface 'hsnocan0': No such device" \
    $RT $QC --transport-opt secoc-key="$T/none.key" --no-auth
for na in "" --no-auth; do
    # shellcheck disable=SC2086
    timeout -k 2 20 "$B/hilstep-ecu" $QC --transport-opt secoc-key="$T/none.key" $na --quiet >"$T/o.out" 2>"$T/o.err"; rc=$?
    want="SecOC key of the DBC's authenticated messages: key file $T/none.key"
    [ -n "$na" ] && want="CAN interface 'hsnocan0': No such device"
    [ $rc -eq 2 ] && grep -q -- "$want" "$T/o.err" && ok "hilstep-ecu, shipped quarter_car.dbc ${na:-with the key missing}: exit 2, $(head -1 "$T/o.err" | cut -c1-110)" \
        || ko "hilstep-ecu, shipped quarter_car.dbc ${na:-with the key missing}: exit $rc, $(head -2 "$T/o.err")"
done
run "DBC file missing" 2 'test/can/none.dbc: cannot open the DBC file' $RT $CT --dbc test/can/none.dbc
run "missing interface" 2 "CAN interface 'hsnocan0': No such device" \
    $RT --transport can --can-if hsnocan0 --dbc hil/dbc/circular_track.dbc
run "--transport can without --dbc" 1 'needs --can-if IF and --dbc FILE' $RT --transport can --can-if vcan0
run "--key with CAN" 1 "--key authenticates the frame of hil/FRAME.md; transport can does not carry it" \
    $RT $CT --dbc hil/dbc/circular_track.dbc --key /dev/null
run "unknown transport" 1 "unknown transport 'carrier-pigeon'; known: udp can" $RT --transport carrier-pigeon
timeout -k 2 20 "$B/hilstep-ecu" --transport can --can-if hsnocan0 --dbc hil/dbc/circular_track.dbc \
    --duration 1 >"$T/e.out" 2>"$T/e.err"
rc=$?
[ $rc -eq 2 ] && grep -q "CAN interface 'hsnocan0'" "$T/e.err" && ok "hilstep-ecu, missing interface: exit 2, $(head -1 "$T/e.err" | cut -c1-100)" \
    || ko "hilstep-ecu, missing interface: exit $rc, $(cat "$T/e.err")"
timeout -k 2 20 "$B/hilstep-ecu" --transport can --can-if vcan0 --dbc test/can/bad/overlap.dbc \
    --duration 1 >"$T/e.out" 2>"$T/e.err"
rc=$?
[ $rc -eq 2 ] && grep -q "overlap.dbc:13:" "$T/e.err" && ok "hilstep-ecu, bad DBC: exit 2 with FILE:LINE" \
    || ko "hilstep-ecu, bad DBC: exit $rc, $(cat "$T/e.err")"

echo "--- an option the transport does not read is refused (exit 1), not ignored"
for tool in hilstep-rt hilstep-ecu; do
    timeout -k 2 20 "$B/$tool" --dbc hil/dbc/circular_track.dbc --duration 0.2 >"$T/o.out" 2>"$T/o.err"
    rc=$?
    [ $rc -eq 1 ] && grep -q "transport udp has no option dbc" "$T/o.err" \
        && ok "$tool --dbc without --transport can: exit 1, $(cat "$T/o.err")" \
        || ko "$tool --dbc with udp: exit $rc, $(cat "$T/o.err")"
done
timeout -k 2 20 "$B/hilstep-rt" --transport can --can-if vcan0 --dbc hil/dbc/circular_track.dbc \
    --transport-opt can-filtre=off --signals >"$T/o.out" 2>"$T/o.err"
rc=$?
[ $rc -eq 1 ] && grep -q "transport can has no option can-filtre" "$T/o.err" \
    && ok "a misspelt --transport-opt: exit 1, named" || ko "misspelt --transport-opt: exit $rc, $(cat "$T/o.err")"
timeout -k 2 20 "$B/hilstep-rt" --transport can --can-if vcan0 --dbc hil/dbc/circular_track.dbc \
    --transport-opt e2e-cadence=maybe --signals >"$T/o.out" 2>"$T/o.err"
rc=$?
[ $rc -eq 1 ] && grep -q "e2e-cadence must be on or off, got 'maybe'" "$T/o.err" \
    && ok "--transport-opt e2e-cadence=maybe: exit 1, named" || ko "e2e-cadence=maybe: exit $rc, $(cat "$T/o.err")"

echo "--- a third transport: one new file (test/can/hs_tp_null.c) and one registration line"
d=$(diff port/linux-rt/hs_transports.c "$B/can/hs_transports_null.c")
nl=$(printf '%s\n' "$d" | grep -c '^[<>]'); na=$(printf '%s\n' "$d" | grep -c '^>')
[ "$nl" = 1 ] && [ "$na" = 1 ] && ok "the registration table differs by one added line: $(printf '%s\n' "$d" | grep '^>' | sed 's/^> *//')" \
    || ko "registration table diff is not one added line: $d"
timeout -k 2 20 "$B/hilstep-rt-null" --transport null --transport-opt null-note=seam-test --duration 0.2 \
    --priority 0 --log none --budget-us 1000000 --allow-no-ecu --stats "$T/null.stats" >"$T/null.out" 2>&1
rc=$?
tx=$(sed -n 's/^tx_frames=//p' "$T/null.stats"); nf=$(sed -n 's/^null_frames=//p' "$T/null.stats")
[ $rc -eq 0 ] && [ -n "$tx" ] && [ "$tx" = "$nf" ] && grep -q 'null transport (seam-test)' "$T/null.out" \
    && ok "hilstep-rt --transport null: exit 0, its option arrived, every one of $tx frames reached it (null_frames)" \
    || { ko "hilstep-rt --transport null: exit $rc, tx_frames '$tx', null_frames '$nf'"; tail -3 "$T/null.out"; }

echo "--- make run TRANSPORT=can"
if ip link show vcan0 >/dev/null 2>&1; then
    echo "  info vcan0 exists here: make run TRANSPORT=can runs on it"
fi
TRANSPORT=can CAN_IF=hsnocan0 timeout -k 2 30 sh port/linux-rt/run.sh "$B" 1 >"$T/run.out" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q "no CAN interface 'hsnocan0'" "$T/run.out" \
    && ok "make run TRANSPORT=can without the interface: exit $rc, $(grep "no CAN interface" "$T/run.out" | head -1 | cut -c1-120)" \
    || { ko "make run TRANSPORT=can without the interface: exit $rc"; cat "$T/run.out"; }

if ip link show vcan0 >/dev/null 2>&1 && command -v candump >/dev/null 2>&1; then
    echo "--- the bus: test/can/scenario.sh on vcan0"
    sh test/can/scenario.sh vcan0 "$T/scn" 4 10000 hil/dbc/circular_track.dbc can "$B" >"$T/scn.out" 2>&1
    rc=$?
    $PY test/can/check_candump.py "$T/scn/can.candump" hil/dbc/circular_track.dbc "$T/scn/can_rt.csv" \
        "$T/scn/can_rt.stats" "$T/scn/can_ecu.stats" >"$T/chk.out" 2>&1
    crc=$?
    grep -E '^can: ' "$T/chk.out"
    [ $rc -eq 0 ] && [ $crc -eq 0 ] && ok "closed loop over vcan0, candump checked" || { ko "scenario on vcan0 (exit $rc, checker $crc)"; cat "$T/chk.out"; }
else
    echo "  info no vcan0 on this host (its kernel has no vcan): the bus scenario runs in make rtkernel-test"
fi
echo "can: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
