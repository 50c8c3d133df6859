#!/usr/bin/python3
"""soak_trailer.py SIM - 10^6 steps (1000 s, h = 1 ms) of the truck-trailer (hitch as a joint)
with the default method, the ISO 3888-1 lane change every 150 m at 80 km/h (maneuver = 2):
the run completes, and per 100 s block the largest |g| and hitch defect stay at rounding level
(<= 1e-9 m; the coordinates grow to X = 22 km, whose ulp is 4e-12 m) and do not grow from the
first block to the last by more than that rounding; speed and articulation stay bounded.
Prints "tire-soak: N passed, N failed"."""
import csv
import math
import subprocess
import sys
import tempfile

SIM = sys.argv[1]
npass = nfail = 0


def check(ok, what):
    global npass, nfail
    if ok:
        npass += 1
    else:
        nfail += 1
        print("  FAIL", what)


with tempfile.NamedTemporaryFile(suffix=".csv") as f:
    r = subprocess.run([SIM, "--model", "truck_trailer", "--param", "maneuver=2", "--h", "1e-3", "--t", "1000",
                        "--csv", f.name, "--every", "100"], capture_output=True, text=True)
    print(r.stdout.strip()[:200])
    check(r.returncode == 0 and "steps=1000000" in r.stdout and "status=ok" in r.stdout, "10^6 steps completed")
    rows = list(csv.reader(open(f.name)))
col = {h: i for i, h in enumerate(rows[0])}
blocks = {}
for row in rows[1:]:
    t = float(row[0])
    b = min(int(t // 100.0), 9)
    g = math.hypot(float(row[col["g1"]]), float(row[col["g2"]])) / 1000.0  # rows in mm
    v = math.hypot(float(row[col["u1"]]), float(row[col["u2"]]))
    art = abs(float(row[col["q3"]]) - float(row[col["q10"]]))
    gb, vl, vh, ab = blocks.get(b, (0.0, 1e9, 0.0, 0.0))
    blocks[b] = (max(gb, g), min(vl, v), max(vh, v), max(ab, art))
for b in sorted(blocks):
    gb, vl, vh, ab = blocks[b]
    print("block %3d-%4d s: max |g| %.3g m, speed %.2f..%.2f m/s, max articulation %.3f rad" % (100 * b, 100 * b + 100, gb, vl, vh, ab))
check(len(blocks) == 10, "ten 100 s blocks")
check(all(blocks[b][0] <= 1e-9 for b in blocks), "every block: max |g| <= 1e-9 m")
check(blocks[max(blocks)][0] <= blocks[0][0] + 1e-11, "no growth of max |g| beyond rounding (last vs first block)")
check(all(18.0 < blocks[b][1] and blocks[b][2] < 25.0 for b in blocks), "speed stays within 18..25 m/s")
check(all(blocks[b][3] < 0.5 for b in blocks), "articulation stays below 0.5 rad")
print("tire-soak: %d passed, %d failed" % (npass, nfail))
sys.exit(1 if nfail else 0)
