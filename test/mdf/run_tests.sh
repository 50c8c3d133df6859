#!/bin/sh
# mdf-test: hilstep-rt's MDF4 log (--log FILE.mf4, issue 36, hil/MDF.md) read back by
# test/mdf/mdf_reader.py, written from the standard (no code shared with port/linux-rt/hs_mdf.c
# or hilstep-plot). Each run writes the CSV and the MDF log from the same rows (--log twice):
#  1. circular_track in closed loop with hilstep-ecu for 1 s: the file finalized, one data group,
#     the CSV's channel names and units, master t_s (sync type 1), every record bit for bit;
#     the checker itself fails on the same file with one bit flipped;
#  2. --log FILE.mf4 alone writes no CSV (not the default one either);
#  3. runs killed with SIGKILL at random instants (test/mdf/mdf_kill.py): read strictly, with
#     no recovery, each file is a finalized MDF 4.1 file declaring at least the records flushed
#     100 ms before the kill, every one bit for bit; snapshots taken while it ran read strictly
#     too; the strict reader refuses a ##DT past the end and an 'UnFinMF ' file;
#  4. the disk full mid-run (ulimit -f): exit 5, the file finalized with the records that made
#     it (= the stats' count), no partial record; /dev/full: exit 5, ENOSPC named, all lost;
#     a missing directory: exit 2 at start, the path named;
#  5. hilstep-plot reads the .mf4 into the same PNG as the CSV (byte for byte), reads a killed
#     run's file, recovers an unfinalized one (older builds) with a note, and refuses a cut-off
#     header by name.
# On 127.0.0.1, ports drawn free. Usage: run_tests.sh BUILD. Ends with "N passed, N failed".
B=$(cd "${1:-build}" && pwd)
PY=/usr/bin/python3
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d /tmp/hilstep-mdf-test.XXXXXX)
export XDG_CONFIG_HOME="$T/cfg"
pass=0; fail=0; PIDS=""
ok() { pass=$((pass + 1)); echo "  ok   $1"; }
ko() { fail=$((fail + 1)); echo "  FAIL $1"; }
cleanup() { for p in $PIDS; do kill -KILL "$p" 2>/dev/null; done; rm -rf "$T"; }
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
check() { $PY "$HERE/mdf_check.py" "$@" >"$T/check.out" 2>&1; }
BASE=$($PY test/linux/free_ports.py 6) || { echo "no free UDP ports"; echo "0 passed, 1 failed"; exit 1; }
PLANT=127.0.0.1:$BASE; ECU=127.0.0.1:$((BASE + 1))
RT="$B/hilstep-rt --model circular_track --listen $PLANT --peer $ECU --no-auth --quiet --budget-us 1000000"

echo "--- 1. closed loop with hilstep-ecu, 1 s: CSV and MDF from the same rows"
timeout -k 2 20 "$B/hilstep-ecu" --model circular_track --listen $ECU --peer $PLANT --no-auth --quiet >"$T/ecu.out" 2>&1 &
EP=$!; PIDS="$PIDS $EP"
timeout -k 2 20 $RT --duration 1 --log "$T/a.csv" --log "$T/a.mf4" --stats "$T/a.stats" >"$T/a.out" 2>&1
rc=$?
wait $EP
n=$(key telemetry_rows "$T/a.stats")
if [ $rc -eq 0 ] && grep -q "^telemetry MDF: $T/a.mf4 ($n records, 0 lost)" "$T/a.out" \
   && [ "$(key rx_used "$T/a.stats")" -gt 500 ] 2>/dev/null; then
    ok "the run: exit 0, $n records (one per stepped frame), the loop closed ($(key rx_used "$T/a.stats") ECU frames used)"
else ko "the run: exit $rc"; tail -4 "$T/a.out"; grep rx_used "$T/a.stats"; fi
check full "$T/a.mf4" "$T/a.csv" "$T/a.stats"; tally "$T/check.out" "reader (complete run)"
# One bit of record 500's q1 flipped (the low mantissa bit): the checker must see it.
$PY -c '
import sys
sys.path.insert(0, sys.argv[3])
import mdf_reader
m = mdf_reader.read(sys.argv[1]); g = m["groups"][0]
q1 = [c for c in g["channels"] if c["name"] == "q1"][0]
buf = bytearray(open(sys.argv[1], "rb").read())
at = m["size"] - g["dt_bytes"] + 500 * g["record_bytes"] + q1["byte_offset"]
buf[at] ^= 1
open(sys.argv[2], "wb").write(buf)' "$T/a.mf4" "$T/flip.mf4" "$HERE"
check full "$T/flip.mf4" "$T/a.csv"
if grep -q "^  FAIL 1 of $n rows' fields differ: first row 500 q1" "$T/check.out"; then
    ok "the checker finds one flipped bit (record 500, q1)"
else ko "the checker missed a flipped bit"; cat "$T/check.out"; fi

echo "--- 2. --log FILE.mf4 alone"
mkdir -p "$T/alone"
(cd "$T/alone" && timeout -k 2 20 $RT --allow-no-ecu --duration 0.3 --log only.mf4 >"$T/alone.out" 2>&1)
rc=$?
if [ $rc -eq 0 ] && [ -s "$T/alone/only.mf4" ] && [ "$(ls "$T/alone")" = only.mf4 ] && ! grep -q "telemetry CSV" "$T/alone.out"; then
    ok "--log only.mf4: the MDF log, no CSV (the default build/hilstep-rt.csv not written)"
else ko "--log only.mf4: exit $rc, files: $(ls -R "$T/alone" | tr '\n' ' ')"; fi

echo "--- 3. killed with SIGKILL at random instants (4 runs side by side)"
$PY "$HERE/mdf_kill.py" "$B" "$T" $((BASE + 2)) $((BASE + 3)) $((BASE + 4)) $((BASE + 5)) >"$T/kill.out" 2>&1
tally "$T/kill.out" "reader (killed runs, strict, no recovery)"
# The strict reader's refusals, on the first killed run's file: a ##DT that runs past the end
# (a length written before its records) and an unfinalized ##ID (the old writer's running file);
# it reads bytes after the last block (a flush that a kill cut short before its commit).
$PY -c '
import sys
b = bytearray(open(sys.argv[1], "rb").read())
open(sys.argv[2], "wb").write(b + bytes(8))
b[0:8] = b"UnFinMF "; b[60] = 5
open(sys.argv[3], "wb").write(b)' "$T/k0.mf4" "$T/long.mf4" "$T/unfin.mf4"
$PY -c '
import sys, struct
sys.path.insert(0, sys.argv[3])
import mdf_reader
m = mdf_reader.read(sys.argv[1], strict=True, values=False); g = m["groups"][0]
b = bytearray(open(sys.argv[1], "rb").read())
dt = m["size"] - m["trailing"] - g["dt_bytes"] - 24
struct.pack_into("<Q", b, dt + 8, 24 + g["dt_bytes"] + g["record_bytes"])
open(sys.argv[2], "wb").write(b[:m["size"] - m["trailing"]])' "$T/k0.mf4" "$T/ahead.mf4" "$HERE"
r1=$($PY "$HERE/mdf_reader.py" "$T/ahead.mf4" --strict 2>&1 | tail -n 1)
r2=$($PY "$HERE/mdf_reader.py" "$T/unfin.mf4" --strict 2>&1 | tail -n 1)
if echo "$r1" | grep -q "##DT at [0-9]*: length [0-9]* out of the file" && echo "$r2" | grep -q "unfinalized.*refused in strict mode" \
   && $PY "$HERE/mdf_reader.py" "$T/unfin.mf4" --recover >/dev/null 2>&1 && $PY "$HERE/mdf_reader.py" "$T/long.mf4" --strict >/dev/null 2>&1; then
    ok "strict reader refuses a ##DT length one record past the end and an 'UnFinMF ' file (which --recover reads); reads 8 bytes more at the end"
else ko "strict reader refusals: $r1 / $r2"; fi

# The writer's commit window (hil/MDF.md): the ##DT right after the ##CG, and the bytes from the
# ##CG cycle count to the end of the ##DT length (40) inside one 512-byte sector.
w=$($PY -c '
import struct, sys
b = open(sys.argv[1], "rb").read()
dg = struct.unpack_from("<Q", b, 64 + 24)[0]
cg, dt = struct.unpack_from("<QQ", b, dg + 24 + 8)
print(cg, dt, (cg + 80) // 512 == (dt + 15) // 512 and dt == cg + 104 and b[cg:cg + 4] == b"##CG")' "$T/k0.mf4")
case "$w" in *True) ok "commit window: ##CG at ${w%% *}, ##DT right after it, cycle count to ##DT length in one 512-byte sector";;
*) ko "commit window: ##CG/##DT at $w";; esac

echo "--- 4. write errors"
(ulimit -f 200; exec $RT --allow-no-ecu --duration 1 --log "$T/c.csv" --log "$T/c.mf4" --stats "$T/c.stats" >"$T/c.out" 2>&1)
rc=$?
if [ $rc -eq 5 ] && grep -q "telemetry MDF $T/c.mf4: File too large; [0-9]* records written, later records lost" "$T/c.out"; then
    ok "disk full (ulimit -f 200): exit 5, the error named ($(key telemetry_mdf_records "$T/c.stats") records written)"
else ko "disk full: exit $rc"; tail -4 "$T/c.out"; fi
check cut "$T/c.mf4" "$T/c.csv" "$T/c.stats"; tally "$T/check.out" "reader (disk full)"
ln -s /dev/full "$T/full.mf4"
timeout -k 2 20 $RT --allow-no-ecu --duration 0.3 --log "$T/full.mf4" --stats "$T/full.stats" >"$T/full.out" 2>&1
rc=$?
if [ $rc -eq 5 ] && grep -q "telemetry MDF $T/full.mf4: No space left on device" "$T/full.out" \
   && [ "$(key telemetry_mdf_records "$T/full.stats")" = 0 ] && [ "$(key telemetry_mdf_lost "$T/full.stats")" = "$(key frames "$T/full.stats")" ]; then
    ok "/dev/full: exit 5, ENOSPC named, 0 records, every frame's record lost ($(key frames "$T/full.stats"))"
else ko "/dev/full: exit $rc"; tail -3 "$T/full.out"; grep telemetry_mdf "$T/full.stats"; fi
timeout -k 2 20 $RT --allow-no-ecu --duration 5 --log "$T/no/such/dir/x.mf4" >"$T/nodir.out" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q "\-\-log $T/no/such/dir/x.mf4: No such file or directory" "$T/nodir.out" && ! grep -q "^verdict" "$T/nodir.out"; then
    ok "--log into a missing directory: exit 2 at start, the path named"
else ko "--log missing directory: exit $rc"; tail -2 "$T/nodir.out"; fi

echo "--- 5. hilstep-plot reads the MDF log"
# The same columns and title from both files: the same values give the same PNG, byte for byte.
"$B/hilstep-plot" "$T/a.csv" --out "$T/pc" --columns q1,u1,out_speed --title a >"$T/pc.out" 2>&1; rc1=$?
"$B/hilstep-plot" "$T/a.mf4" --out "$T/pm" --columns q1,u1,out_speed --title a >"$T/pm.out" 2>&1; rc2=$?
if [ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && [ -s "$T/pm/a_columns.png" ] && cmp -s "$T/pc/a_columns.png" "$T/pm/a_columns.png"; then
    ok "hilstep-plot a.mf4 --columns q1,u1,out_speed: exit 0, the PNG byte for byte the CSV's"
else ko "hilstep-plot a.mf4: exit $rc2 (CSV $rc1)"; cat "$T/pm.out"; fi
"$B/hilstep-plot" "$T/k0.mf4" --out "$T/pk" --columns q1 >"$T/pk.out" 2>&1; rc=$?
if [ $rc -eq 0 ] && [ -s "$T/pk/k0_columns.png" ] && ! grep -q "unfinalized" "$T/pk.out"; then
    ok "hilstep-plot on a killed run's log: exit 0, read as the finalized file it is"
else ko "hilstep-plot killed log: exit $rc"; cat "$T/pk.out"; ls "$T/pk"; fi
"$B/hilstep-plot" "$T/unfin.mf4" --out "$T/pu" --columns q1 >"$T/pu.out" 2>&1; rc=$?
if [ $rc -eq 0 ] && grep -q "unfinalized" "$T/pu.out"; then ok "hilstep-plot on an unfinalized log (older builds): exit 0, says it recovered it"
else ko "hilstep-plot unfinalized log: exit $rc"; cat "$T/pu.out"; fi
head -c 300 "$T/a.mf4" >"$T/short.mf4"
"$B/hilstep-plot" "$T/short.mf4" --out "$T/ps" >"$T/ps.out" 2>&1; rc=$?
if [ $rc -eq 2 ] && grep -q "$T/short.mf4" "$T/ps.out"; then ok "hilstep-plot on a cut-off header: exit 2, the file named ($(sed 's/.*: //' "$T/ps.out" | head -c 80))"
else ko "hilstep-plot cut-off header: exit $rc"; cat "$T/ps.out"; fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
