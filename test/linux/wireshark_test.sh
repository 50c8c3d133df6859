#!/bin/sh
# wireshark-test: the Lua dissector hil/hilstep.lua against a live loopback capture. A short
# closed loop (hilstep-rt + hilstep-ecu) is captured with Debian's tshark on lo; the capture is
# decoded with the dissector and the signal map the plant prints (--signals), and every field
# of every plant frame is compared with the plant's telemetry CSV (seq, ack_seq, flags, every
# output value bit for bit, CRC good), and every ECU frame the plant applied with the input it
# handed the model. Usage: wireshark_test.sh BUILD_DIR. Ends with "wireshark: N passed, N failed".
B=${1:-build}
PY=/usr/bin/python3
# Ports drawn free for this run (two clones running the suites at once must not collide).
BASE=$($PY "$(dirname "$0")/free_ports.py" 2) || { echo "wireshark: 0 passed, 1 failed"; exit 1; }
PLANT=127.0.0.1:$BASE
ECU=127.0.0.1:$((BASE + 1))
pass=0; fail=0
ok() { pass=$((pass + 1)); echo "  ok   $1"; }
ko() { fail=$((fail + 1)); echo "  FAIL $1"; }
T=$(mktemp -d "${TMPDIR:-/tmp}/hilstep-wireshark-test.XXXXXX") || exit 1
export XDG_CONFIG_HOME="$T/cfg"  # the run is authenticated (version 3) with this suite's per-user key
TS=""; EP=""
cleanup() { for q in $TS $EP; do kill "$q" 2>/dev/null; done; rm -rf "$T"; }
trap cleanup EXIT
if ! command -v tshark >/dev/null 2>&1; then
    ko "tshark not installed (make test installs it: test/install_deps.sh)"
    echo "wireshark: $pass passed, $fail failed"; exit 1
fi
# Capture on loopback (root: dumpcap needs no setuid here); -a bounds it at 60 s whatever happens.
tshark -i lo -f "udp and (port $BASE or port $((BASE + 1)))" -w "$T/cap.pcapng" -a duration:60 >"$T/ts.out" 2>&1 &
TS=$!
i=0; while [ $i -lt 200 ] && ! grep -q "Capturing on" "$T/ts.out"; do sleep 0.05; i=$((i + 1)); done
grep -q "Capturing on" "$T/ts.out" && ok "tshark capturing on lo" || { ko "tshark did not start"; cat "$T/ts.out"; }
timeout -k 2 20 "$B/hilstep-ecu" --listen $ECU --peer $PLANT --duration 15 --quiet --priority 70 >/dev/null 2>&1 &
EP=$!
timeout -k 2 20 "$B/hilstep-rt" --listen $PLANT --peer $ECU --duration 0.5 --quiet --budget-us 1000000 \
    --log "$T/rt.csv" --hist "$T/rt.hist" --stats "$T/rt.stats" >"$T/rt.out" 2>&1
rc=$?
wait $EP 2>/dev/null; EP=""
[ $rc -eq 0 ] && ok "plant run (0.5 s closed loop) exit 0" || { ko "plant exit $rc"; tail -3 "$T/rt.out"; }
sleep 0.5
kill -INT $TS 2>/dev/null; wait $TS 2>/dev/null; TS=""
"$B/hilstep-rt" --signals >"$T/map.txt"
HILSTEP_MAP="$T/map.txt" tshark -r "$T/cap.pcapng" -X lua_script:hil/hilstep.lua -Y hilstep \
    -T fields -E separator=/t -E aggregator=, -e hilstep.kind -e hilstep.count -e hilstep.version -e hilstep.seq \
    -e hilstep.ack_seq -e hilstep.flags -e hilstep.crc_status -e hilstep.session \
    -e hilstep.flags.final -e hilstep.in.F_t -e hilstep.out.speed -e hilstep.out.radius \
    -e hilstep.out.x1 -e hilstep.out.x2 -e hilstep.value_bits -e hilstep.challenge >"$T/dec.csv" 2>"$T/dec.err"
[ -s "$T/dec.csv" ] && ok "dissector decoded $(wc -l <"$T/dec.csv") frames" || { ko "nothing decoded"; head -5 "$T/dec.err"; }
CH=$(sed -n 's/.*run challenge \([0-9a-f]*\).*/\1/p' "$T/rt.out" | head -n 1)
$PY - "$T/dec.csv" "$T/rt.csv" "$CH" <<'PYEOF' >"$T/cmp.out" 2>&1
import csv, struct, sys
dec = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
def bits(x):
    return struct.unpack("<Q", struct.pack("<d", float(x)))[0]
def close(a, b):  # tshark shows 15 significant digits; the exact check is on the bits
    a, b = float(a), float(b)
    return abs(a - b) <= 1e-14 * max(abs(a), abs(b)) + 1e-300
head, *rows = list(csv.reader(open(sys.argv[2])))
H = {h.split("[")[0]: i for i, h in enumerate(head)}
by_tx = {int(r[H["tx_seq"]]): r for r in rows}
applied = {}
for r in rows:
    if int(r[H["fresh"]]) == 1:
        applied[int(r[H["in_seq"]])] = r
passed = failed = 0
def check(cond, what):
    global passed, failed
    if cond: passed += 1
    else:
        failed += 1
        if failed <= 5: print(f"  FAIL {what}")
plant = [d for d in dec if d[0] == "2"]
ecu = [d for d in dec if d[0] == "1"]
n_plant = n_ecu = 0
for d in plant:
    kind, count, ver, seq, ack, flags, crc, sess, final, fin, v, rad, x1, x2, vb, ch = d
    r = by_tx.get(int(seq))
    if r is None:
        continue   # the final frame of a run that ended between frames has no row
    n_plant += 1
    check(count == "4" and ver == "3", f"plant seq {seq}: count {count} version {ver}")
    check(int(ch, 16) == int(sys.argv[3], 16), f"plant seq {seq}: challenge {ch} == the plant's run challenge {sys.argv[3]}")
    check(int(ack) == int(r[H["in_seq"]]), f"plant seq {seq}: ack_seq {ack} == CSV in_seq {r[H['in_seq']]}")
    check(int(flags, 16) == int(r[H["tx_flags"]]), f"plant seq {seq}: flags {flags} == CSV tx_flags {r[H['tx_flags']]}")
    check(crc == "good", f"plant seq {seq}: CRC {crc}")
    vb = [int(x, 16) for x in vb.split(",")]
    for k, (name, val) in enumerate((("out_speed", v), ("out_radius", rad), ("out_x1", x1), ("out_x2", x2))):
        check(close(val, r[H[name]]), f"plant seq {seq}: {name} {val} == CSV {r[H[name]]} (15 digits)")
        check(vb[k] == bits(r[H[name]]), f"plant seq {seq}: {name} bits {vb[k]:#x} == CSV {bits(r[H[name]]):#x}")
for d in ecu:
    kind, count, ver, seq, ack, flags, crc, sess, final, fin = d[:10]
    vb = int(d[14], 16)
    check(crc == "good" and count == "1", f"ECU seq {seq}: CRC {crc}, count {count}")
    r = applied.get(int(seq))
    if r is None:
        continue   # superseded within a frame, or sent after the last frame
    n_ecu += 1
    check(int(d[15], 16) == int(sys.argv[3], 16), f"applied ECU seq {seq}: answers challenge {d[15]}")
    check(close(fin, r[H["in_F_t"]]) and vb == bits(r[H["in_F_t"]]),
          f"ECU seq {seq}: F_t {fin} ({vb:#x}) == CSV in_F_t {r[H['in_F_t']]}")
print(f"  info {len(plant)} plant frames and {len(ecu)} ECU frames decoded; {n_plant} plant frames and "
      f"{n_ecu} applied ECU frames matched to CSV rows; {passed} field comparisons equal, {failed} differ")
# A loaded machine may drop captured packets (tshark's buffer); every frame that was
# captured must match, and at least 100 of each direction.
ok = failed == 0 and n_plant >= 100 and n_ecu >= 100
print(f"  {'ok  ' if ok else 'FAIL'} every decoded field equals the telemetry CSV "
      f"({n_plant} plant frames of {len(rows)} rows, {n_ecu} ECU frames; >= 100 each)")
sys.exit(0 if ok else 1)
PYEOF
prc=$?
cat "$T/cmp.out"
[ $prc -eq 0 ] && ok "decoded frames == telemetry CSV, field by field" || ko "decoded frames differ from the CSV"
HILSTEP_MAP="$T/map.txt" tshark -r "$T/cap.pcapng" -X lua_script:hil/hilstep.lua -Y 'hilstep.kind == 2' -V \
    2>/dev/null | awk '/^Frame / { n++ } n == 1' >"$T/tree.txt"
for f in "Magic: 0x31465348" "Version: 3" "Run challenge (plant's nonce): 0x" "MAC (HMAC-SHA-256-128" "Kind: plant -> ECU" "Session: 0x" "Sequence number:" \
         "Send time" "Acknowledged seq" "FAULT" "FINAL" "speed (m/s):" "x2 (m):" "CRC status: good" "Signal map: circular_track"; do
    grep -qF -- "$f" "$T/tree.txt" || { ko "detail view lacks '$f'"; continue; }
done
grep -qF "CRC status: good" "$T/tree.txt" && ok "detail view: header, flag bits, signals by name with units, CRC status"
# Field names are the map's signal names as written (hil/FRAME.md): a description's signals are
# BODY.COORD, so chassis.y must be hilstep.out.chassis.y, not chassis_y.
printf 'signal map names\nin 0 F_act N 1 0 -1 1 0 0\nout 0 chassis.y m 1 0 -1 1 0 0\nout 1 body-acc m/s^2 1 0 -1 1 0 0\n' >"$T/names.txt"
HILSTEP_MAP="$T/names.txt" tshark -G fields -X lua_script:hil/hilstep.lua 2>/dev/null | awk -F'\t' '$5 == "hilstep" { print $3 }' >"$T/fields.txt"
grep -qx "hilstep.out.chassis.y" "$T/fields.txt" && grep -qx "hilstep.out.body-acc" "$T/fields.txt" && grep -qx "hilstep.in.F_act" "$T/fields.txt" \
    && ok "field names as the map spells them: hilstep.out.chassis.y, hilstep.out.body-acc, hilstep.in.F_act" \
    || ko "field names: $(grep -E '^hilstep\.(in|out)\.[^v]' "$T/fields.txt" | tr '\n' ' ')"
echo "wireshark: $pass passed, $fail failed"
[ $fail -eq 0 ]
