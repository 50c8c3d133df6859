#!/usr/bin/python3
"""iso3888_test.py SIM - the car through the ISO 3888-1 double lane change at 80 km/h with the
model's preview driver (default method, h = 1 ms): every corner of the body stays between the
cones of lanes 1, 3 and 5 while it is beside them.

Course (ISO 3888-1:1999, Fig. 1, Table 1), X along the track from the entry gate, vehicle width W:
  lane 1  X  0 .. 15 m, width 1.1 W + 0.25 m
  lane 3  X 45 .. 70 m, width 1.2 W + 0.25 m, its right-hand cone line 3.5 m left of lane 1's
  lane 5  X 95 ..110 m, width 1.3 W + 0.25 m, right-hand cone line in line with lane 1's
Lanes 2 and 4 (the changes) have no cones. The car of model/vehicle/hs_veh.c is taken as a body
W = 1.8 m wide (track 1.5 m), 2.1 m ahead of and 2.4 m behind its centre of mass (axles at
+1.2 / -1.5 m, 0.9 m overhangs); lane 1 is centred on the start line Y = 0.
Prints "iso3888: N passed, N failed"."""
import csv
import math
import os
import subprocess
import sys
import tempfile

SIM = sys.argv[1]
W, FRONT, REAR = 1.8, 2.1, -2.4
w1, w3, w5 = 1.1 * W + 0.25, 1.2 * W + 0.25, 1.3 * W + 0.25
right1 = -w1 / 2.0
LANES = [("lane 1", 0.0, 15.0, right1, right1 + w1),
         ("lane 3", 45.0, 70.0, right1 + 3.5, right1 + 3.5 + w3),
         ("lane 5", 95.0, 110.0, right1, right1 + w5)]
from tally import check, finish  # noqa: E402 (this folder's shared check lines)


with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, "car.csv")
    r = subprocess.run([SIM, "--model", "car", "--h", "1e-3", "--t", "8", "--csv", out],
                       capture_output=True, text=True)
    check(r.returncode == 0, "hilstep-sim --model car --h 1e-3 --t 8 exits 0 (%d)" % r.returncode)
    rows = list(csv.DictReader(open(out))) if r.returncode == 0 else []

margin = {name: math.inf for name, *_ in LANES}
side = {name: "" for name, *_ in LANES}
v_entry = None
for row in rows:
    X, Y, psi = float(row["out_X[m]"]), float(row["out_Y[m]"]), float(row["out_psi[rad]"])
    if v_entry is None and X + FRONT >= 0.0:
        v_entry = float(row["out_speed[m/s]"])
    c, s = math.cos(psi), math.sin(psi)
    for a in (FRONT, REAR):
        for b in (W / 2.0, -W / 2.0):
            x, y = X + c * a - s * b, Y + s * a + c * b
            for name, x0, x1, lo, hi in LANES:
                if x0 <= x <= x1:
                    m = min(y - lo, hi - y)
                    if m < margin[name]:
                        margin[name] = m
                        side[name] = "right" if y - lo < hi - y else "left"

check(v_entry is not None and abs(v_entry * 3.6 - 80.0) <= 1.0,
      "entry speed %.2f km/h (80 km/h +- 1)" % (v_entry * 3.6 if v_entry else float("nan")))
for name, x0, x1, lo, hi in LANES:
    m = margin[name]
    check(math.isfinite(m) and m >= 0.0,
          "%s (X %g..%g m, cones at Y %.3f / %.3f m): body inside, closest %.3f m to the %s cones"
          % (name, x0, x1, lo, hi, m, side[name]))
finish("iso3888")
