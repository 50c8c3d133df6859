#!/usr/bin/python3
"""tt_hsm_test.py SIM [--param NAME=VALUE ...] - the truck-trailer descriptions
(model/mech/vehicles/large/truck_trailer.hsm, truck_trailer_pen.hsm) against the hand-written
models they describe (`--model truck_trailer`, `truck_trailer_pen`, model/vehicle/hs_veh.c):
both through the same ISO 3888-1 lane change, the C model's own driver's steering (its first
WIN s from the steering's onset at 1 s, t shifted to 0) as the steer input of both
(`--param external=1` on the C side), default method, h = 1 ms.

Compared every 10th step: truck X, Y, psi, trailer X, Y, psi, the hitch defect and the hitch
force on the truck (the joint's multipliers: hs_veh.c's rows in mm give kN, the description's in
m give N; the spring-damper's -k d - c d'), and the outputs psi, psi_trailer. Tolerance per
quantity: twice the C model's own discretization error, measured as max |C(h) - C(h/2)| over
the window (each run is within about that of the exact solution, sdirk being of order 2 and the
inputs held over a step), so the same equations stay inside it and equations that differ by
more than the method can resolve do not. The joint's defect is rounding in both (the projection ends every step on the
rows): <= 1e-9 m. --param goes to the descriptions only (a wrong description must fail:
`--param m_r=20200`, the trailer 1 % heavier, does). Prints "tt_hsm: N passed, N failed"."""
import math
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tt_hsm  # noqa: E402

SIM = sys.argv[1]
PARAMS = sys.argv[2:]
WIN, SKIP, H, EVERY = 0.8, 1.0, 1e-3, 10   # every 10th step compared (the CSVs cost more than the steps)
NAMES = ["truck X", "truck Y", "truck psi", "trailer X", "trailer Y", "trailer psi", "hitch defect", "hitch force"]
UNITS = ["m", "m", "rad", "m", "m", "rad", "m", "N"]
npass = nfail = 0


def check(ok, what):
    global npass, nfail
    if ok:
        npass += 1
    else:
        nfail += 1
    print("  %s %s" % ("ok  " if ok else "FAIL", what))


def pval(name, default):
    for i in range(len(PARAMS) - 1):
        if PARAMS[i] == "--param" and PARAMS[i + 1].startswith(name + "="):
            return float(PARAMS[i + 1].split("=", 1)[1])
    return default


def diffs(a, b):
    """max |a - b| per quantity of NAMES over rows at equal t"""
    w = [0.0] * 8
    for ra, rb in zip(a, b):
        assert abs(ra[0] - rb[0]) < 1e-9
        for k in range(2):
            for j in range(3):
                w[3 * k + j] = max(w[3 * k + j], abs(ra[1][k][j] - rb[1][k][j]))
        w[6] = max(w[6], abs(ra[2] - rb[2]))
        w[7] = max(w[7], math.hypot(ra[3][0] - rb[3][0], ra[3][1] - rb[3][1]))
    return w


t0 = time.time()
# the descriptions' trailer chassis sits xc ahead of the unit's centre (truck_trailer.hsm)
tt_hsm.XC = -2 * pval("mw_t", 60.0) * (tt_hsm.A1 + tt_hsm.A2) / (pval("m_r", 20000.0) - 4 * pval("mw_t", 60.0))
k_h, c_h = pval("k_hitch", 1e6), pval("c_hitch", 2e4)
with tempfile.TemporaryDirectory() as d:
    lane = os.path.join(d, "lane.csv")
    tt_hsm.lane_inputs(SIM, WIN, lane, os.path.join(d, "drv.csv"), skip=SKIP)
    for cm in ("truck_trailer", "truck_trailer_pen"):
        pen = (1e6, 2e4) if cm.endswith("_pen") else None   # hs_veh.c's k_hitch, c_hitch defaults
        common = ["--inputs", lane, "--t", "%g" % WIN]
        p = [os.path.join(d, n) for n in ("c1.csv", "c2.csv", "d.csv")]
        try:
            tt_hsm.sim(SIM, ["--model", cm, "--param", "external=1", "--h", "%g" % H, "--every", "%d" % EVERY] + common, p[0])
            tt_hsm.sim(SIM, ["--model", cm, "--param", "external=1", "--h", "%g" % (H / 2), "--every", "%d" % (2 * EVERY)] + common, p[1])
            tt_hsm.sim(SIM, ["--model-file", tt_hsm.HSM[cm], "--h", "%g" % H, "--every", "%d" % EVERY] + common + PARAMS, p[2])
        except RuntimeError as e:
            check(False, "%s: %s" % (cm, e))
            continue
        lam_c, lam_d = ("lam1", "lam2", 1000.0), ("lam47", "lam48", 1.0)  # the hitch rows after 6 + 8 x 5
        c1 = tt_hsm.series(p[0], "c", pen=pen, lam=lam_c)
        c2 = tt_hsm.series(p[1], "c", pen=pen, lam=lam_c)
        dd = tt_hsm.series(p[2], "hsm", pen=None if pen is None else (k_h, c_h), lam=lam_d)
        if not (len(c1) == len(c2) == len(dd) == int(round(WIN / H / EVERY)) + 1):
            check(False, "%s: rows %d, %d, %d (expected %d)" % (cm, len(c1), len(c2), len(dd), int(round(WIN / H / EVERY)) + 1))
            continue
        e = diffs(c1, c2)
        got = diffs(dd, c1)
        fmax = max(math.hypot(*r[3]) for r in c1)
        for i in range(8):
            if i == 6 and pen is None:
                dmax = max(max(r[2] for r in dd), max(r[2] for r in c1))
                check(dmax <= 1e-9, "%s: hitch defect (joint) %.2e m in both <= 1e-9 m" % (cm, dmax))
                continue
            tol = 2.0 * e[i]
            check(got[i] <= tol, "%s: %s description - C %.2e %s <= %.2e (2 x |C(h) - C(h/2)|)" % (cm, NAMES[i], got[i], UNITS[i], tol))
        # the outputs of the same names: the description's vehicle yaw against hs_veh.c's psi
        # coordinates (the lane change stays far inside the yaw's (-pi, pi]), same tolerances
        (c1c, c1r), (ddc, ddr) = tt_hsm.read(p[0]), tt_hsm.read(p[2])
        for name, i in (("out_psi[rad]", 2), ("out_psi_trailer[rad]", 5)):
            got_o = max(abs(a[c1c[name]] - b[ddc[name]]) for a, b in zip(c1r, ddr))
            check(got_o <= 2.0 * e[i], "%s: output %s description - C %.2e <= %.2e" % (cm, name, got_o, 2.0 * e[i]))
        print("  %s: lane change %.1f s from the steering's onset, largest hitch force %.0f N" % (cm, WIN, fmax))
print("  (%.1f s wall)" % (time.time() - t0))
print("tt_hsm: %d passed, %d failed" % (npass, nfail))
sys.exit(1 if nfail else 0)
