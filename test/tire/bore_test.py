#!/usr/bin/python3
"""bore_test.py SIM - the bore torque of the multibody tire element (bore=on) through hilstep-sim on
test/tire/bore_wheel.hsm: a wheel at standstill (its centre held, Fz = FzN) turned about the
vertical by a constant torque M. Closed forms from Rill's bore torque (model/TIRE.md "Camber and
bore torque"), at FzN the table's own values: the bore radius R_B = (L + B)/6, L = 2 sqrt(r0 pen),
the sliding limit R_B FS with FS the sliding force of the 45 degree direction,
sqrt((FSx^2 + FSy^2)/2). Below the limit (M = 100 N m) the wheel twists the tread and stops: the
torsional state settles at psi = -M / cpsi (cpsi = cy R_B^2 at FzN) and the wheel no longer turns
(no creep). Above it (M = 400 N m) the wheel turns up at J w' = M - R_B FS v*/vc (v* = vN at
standstill, vc = vN (g + 1e-6), g = vb^2/(vb^2 + vN^2), vb = R_B w). Prints "bore: N passed, N failed"."""
import csv
import math
import os
import subprocess
import sys
import tempfile

from tally import check, finish

SIM = sys.argv[1]
HSM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bore_wheel.hsm")

# the data typed again (model/vehicle/hs_tire.c, Rill's Table 3.3 at FzN)
R0, CZ, B, CY, VN, J = 0.30, 190000.0, 0.205, 160000.0, 0.01, 0.6
FSX, FSY, FMX, FMY = 4250.0, 4150.0, 4400.0, 4200.0
PEN = 3500.0 / CZ
L = 2.0 * math.sqrt(R0 * PEN)
RB = (L + B) / 6.0
FS = math.sqrt((FSX ** 2 + FSY ** 2) / 2.0)
FM = math.sqrt((FMX ** 2 + FMY ** 2) / 2.0)
# cpsi at FzN: L there is the same L (pen = FzN / cz)
CPSI = CY * RB * RB


def run(M, t, every):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "o.csv")
        r = subprocess.run([SIM, "--model-file", HSM, "--param", "M=%r" % M, "--h", "1e-3", "--t", str(t),
                            "--csv", out, "--every", str(every)], capture_output=True, text=True)
        check(r.returncode == 0 and "status=ok" in r.stdout, "bore_wheel.hsm M=%g runs (status=ok)" % M)
        rows = list(csv.reader(open(out))) if os.path.exists(out) else [[]]
    col = {n.split("[")[0]: i for i, n in enumerate(rows[0])}
    return col, [[float(v) for v in row] for row in rows[1:]]


# below the limit: sticks
c, d = run(100.0, 4, 500)
if d:
    psi, wz = d[-1][c["z4"]], d[-1][c["out_w.wz"]]
    yaw = [2.0 * math.atan2(r[c["out_w.p3"]], r[c["out_w.p0"]]) for r in d]
    check(abs(psi + 100.0 / CPSI) < 1e-6 * 100.0 / CPSI,
          "M = 100 N m (below R_B FS = %.3f N m): psi %.9f rad = -M / cpsi %.9f (the bore torque answers M)" % (RB * FS, psi, -100.0 / CPSI))
    check(abs(wz) < 1e-5 and abs(yaw[-1] - yaw[-3]) < 1e-6,
          "M = 100 N m: the wheel stops turning, w_z %.2e rad/s, yaw %.6f rad moved %.2e rad over the last 2 s (no creep)"
          % (wz, yaw[-1], yaw[-1] - yaw[-3]))
    print("bore_wheel M = 100 N m, 4 s: psi %.6f rad (-M/cpsi %.6f), yaw %.6f rad, w_z %.2e rad/s" % (psi, -100.0 / CPSI, yaw[-1], wz))
# above the limit: slides, the torque at the limit
c, d = run(400.0, 0.6, 100)
if len(d) >= 6:
    r4, r5 = d[4], d[5]
    w4, w5 = r4[c["out_w.wz"]], r5[c["out_w.wz"]]
    acc = (w5 - w4) / (r5[c["t"]] - r4[c["t"]])
    tb = J * acc - 400.0
    wm = 0.5 * (w4 + w5)
    vb = RB * wm
    g = vb * vb / (vb * vb + VN * VN)
    ref = -RB * FS / (g + 1e-6)
    check(abs(tb - ref) < 1e-3 * abs(ref) and tb < 0 and abs(tb) < RB * FM,
          "M = 400 N m: the wheel slides; bore torque J w' - M = %.3f N m = -R_B FS v*/vc %.3f N m (0.1 %%), "
          "resisting, below R_B FM %.3f N m" % (tb, ref, RB * FM))
    print("bore_wheel M = 400 N m: w_z %.3f -> %.3f rad/s over 0.1 s, bore torque %.3f N m (R_B FS %.3f, R_B FM %.3f, R_B %.5f m)"
          % (w4, w5, tb, RB * FS, RB * FM, RB))
finish("bore")
