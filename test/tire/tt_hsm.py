"""tt_hsm.py - the truck-trailer descriptions (model/mech/vehicles/large/truck_trailer*.hsm) beside the
hand-written `--model truck_trailer*` (model/vehicle/hs_veh.c): one lane change as inputs both
take, and each run's units, hitch defect and hitch force from its CSV. Used by
test/tire/tt_hsm_test.py and test/figures/fig_trailer.py."""
import csv
import math
import os
import subprocess

HSM = {"truck_trailer": "model/mech/vehicles/large/truck_trailer.hsm",
       "truck_trailer_pen": "model/mech/vehicles/large/truck_trailer_pen.hsm"}
HT, HR = -2.0, 5.0               # hs_veh.c tt_cfg hitch: truck's, trailer's (m)
DRV_K, DRV_L = 0.02, 1.5 + 12.0  # hs_veh.c tt_cfg drv_k (rad/m), af + drv_l (m): the preview point
MW_T, A1, A2 = 60.0, -3.6, -4.9  # the descriptions' trailer wheel mass (kg) and axles (m)
XC = -2 * MW_T * (A1 + A2) / (20000.0 - 4 * MW_T)  # their trailer chassis ahead of its unit's centre (m)
INPUTS = ["steer"] + ["%s_%d%s" % (k, a, s) for k in ("drive", "brake") for a in (1, 2, 3, 4) for s in "lr"]


def iso3888_y(X):
    """hs_veh_iso3888_y: the ISO 3888-1 centre line (m) at X (m)."""
    off = 3.5
    if 15.0 < X < 45.0:
        s = (X - 15.0) / 30.0
        return off * s * s * (3.0 - 2.0 * s)
    if 45.0 <= X <= 70.0:
        return off
    if 70.0 < X < 95.0:
        s = (X - 70.0) / 25.0
        return off * (1.0 - s * s * (3.0 - 2.0 * s))
    return 0.0


def read(path):
    rows = list(csv.reader(open(path)))
    col = {h: i for i, h in enumerate(rows[0])}
    return col, [[float(x) for x in r] for r in rows[1:]]


def sim(simbin, args, path):
    """One hilstep-sim run writing path; returns its result line (raises with the command on failure)."""
    cmd = [simbin] + args + ["--csv", path]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("%s: exit %d: %s %s" % (" ".join(cmd), r.returncode, r.stdout.strip()[-300:], r.stderr.strip()))
    return r.stdout.strip()


def lane_inputs(simbin, tend, path, tmp, skip=0.0):
    """The C model's own driver run (maneuver 1, every step's steering K (y_ref(X_p) - Y_p) from
    its state), written as an inputs CSV (t from skip on, shifted to 0) both models take."""
    sim(simbin, ["--model", "truck_trailer", "--h", "1e-3", "--t", "%g" % (tend + skip)], tmp)
    col, rows = read(tmp)
    os.remove(tmp)
    with open(path, "w") as f:
        f.write(",".join(["t"] + INPUTS) + "\n")
        for r in rows:
            if r[0] < skip - 1e-9:
                continue
            X, Y, psi = r[col["q1"]], r[col["q2"]], r[col["q3"]]
            Xp, Yp = X + DRV_L * math.cos(psi), Y + DRV_L * math.sin(psi)
            f.write("%.6f,%.17g" % (r[0] - skip, DRV_K * (iso3888_y(Xp) - Yp)) + ",0" * 16 + "\n")


def yaw(p0, p3):
    return 2.0 * math.atan2(p3, p0)


def units_c(col, r):
    """(X, Y, psi, X', Y', psi') of truck and trailer from a hs_veh.c row."""
    g = lambda n: r[col[n]]  # noqa: E731
    return [tuple(g("q%d" % (o + k)) for k in range(3)) + tuple(g("u%d" % (o + k)) for k in range(3)) for o in (1, 8)]


def units_hsm(col, r):
    """The same from a description's row: chassis origin and yaw (quaternion); the trailer's unit
    centre XC behind its chassis' (psi' from the quaternion's rate, a pure yaw)."""
    g = lambda n: r[col[n]]  # noqa: E731
    out = []
    for o, back in ((1, 0.0), (8, XC)):
        p0, p3, d0, d3 = g("q%d" % (o + 3)), g("q%d" % (o + 6)), g("u%d" % (o + 3)), g("u%d" % (o + 6))
        psi = yaw(p0, p3)
        w = 2.0 * (p0 * d3 - p3 * d0) / (p0 * p0 + p3 * p3)
        c, s = math.cos(psi), math.sin(psi)
        x, y, vx, vy = g("q%d" % o), g("q%d" % (o + 1)), g("u%d" % o), g("u%d" % (o + 1))
        out.append((x - back * c, y - back * s, psi, vx + w * back * s, vy - w * back * c, w))
    return out


def hitch(units):
    """Hitch points' difference (truck minus trailer) and its rate, ground frame (m, m/s)."""
    pts = []
    for (X, Y, psi, vx, vy, w), s in zip(units, (HT, HR)):
        c, sn = math.cos(psi), math.sin(psi)
        pts.append((X + c * s, Y + sn * s, vx - w * sn * s, vy + w * c * s))
    a, b = pts
    return a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3]


def series(path, kind, pen=None, lam=None):
    """Per row: t, the two units (units_c / units_hsm), hitch defect (m), hitch force on the truck
    (N: lam columns scaled to N, or the spring-damper pen = (k, c) from the hitch's motion)."""
    col, rows = read(path)
    out = []
    for r in rows:
        u = units_c(col, r) if kind == "c" else units_hsm(col, r)
        dx, dy, dvx, dvy = hitch(u)
        if pen is not None:
            F = (-pen[0] * dx - pen[1] * dvx, -pen[0] * dy - pen[1] * dvy)
        else:
            F = (lam[2] * r[col[lam[0]]], lam[2] * r[col[lam[1]]])
        out.append((r[0], u, math.hypot(dx, dy), F))
    return out
