#!/usr/bin/python3
"""tmeasy_ref.py - an independent implementation of Rill's TMeasy steady-state tire forces,
written from the published formulas (G. Rill, "Road Vehicle Dynamics: Fundamentals and
Modeling", CRC Press 2012, ch. 3: generalized slip and force characteristic, degressive load
influence, pneumatic trail; the same formulas in G. Rill, "TMeasy - the handling tire model for
all driving situations", 2013, and in W. Hirschberg, G. Rill, H. Weinfurter, "Tire model
TMeasy", Vehicle System Dynamics 45 (S1), 2007) at the book's passenger car tire data (Table 3.3,
205/50 R15, FzN = 3.5 kN).

It shares no code with model/vehicle/hs_tire.c: directions come from math.atan2/cos/sin (the book's
phi) instead of the C code's ratio form, the load dependence is written as the book's
interpolation, and the parameters are typed in again here. Camber force and bore torque
(forces_cb) from Rill's camber slip and bore slip, written from the formulas (below). Usage:
    tmeasy_ref.py BINARY   runs `BINARY curves`, compares every line to 1e-9 relative and
                           prints "N passed, N failed"
"""
import math
import subprocess
import sys

# Table 3.3 (passenger car tire), values at FzN and 2 FzN; forces in N.
FZN = 3500.0
TAB = {
    "dfx0": (120e3, 200e3), "sxm": (0.11, 0.10), "fxm": (4400.0, 8700.0),
    "sxs": (0.50, 0.80), "fxs": (4250.0, 7600.0),
    "dfy0": (55e3, 80e3), "sym": (0.20, 0.22), "fym": (4200.0, 7500.0),
    "sys": (0.80, 1.00), "fys": (4150.0, 7400.0),
    "nl0": (0.178, 0.190), "sy0": (0.20, 0.20), "sye": (0.50, 0.50),
}
R0, CZ = 0.30, 190000.0  # hilstep's radius and vertical stiffness (contact length only)
QUADRATIC = {"dfx0", "fxm", "fxs", "dfy0", "fym", "fys"}


SLIPS = {"sxm", "sxs", "sym", "sys"}


def at_load(name, fz, mu=1.0):
    """Rill's degressive load influence: forces and slopes on the parabola through 0, FzN,
    2 FzN; slips and trail data on the straight line through FzN, 2 FzN. Beyond 2 FzN, the
    table's range (hilstep's documented extension, model/TIRE.md "Load range"): forces and
    slopes proportional to the load with their ratio at 2 FzN, slips and trail data as at
    2 FzN. On a road of friction mu (Rill's scaling): maxima, sliding forces and their slips
    times mu, initial slopes and trail data unchanged."""
    y1, y2 = TAB[name]
    r = fz / FZN
    if name in QUADRATIC:
        v = y2 * r / 2.0 if r > 2.0 else r * (2.0 * y1 - 0.5 * y2 - (y1 - 0.5 * y2) * r)
    else:
        v = y2 if r > 2.0 else y1 + (y2 - y1) * (r - 1.0)
    if name in ("fxm", "fxs", "fym", "fys") or name in SLIPS:
        v *= mu
    return v


def characteristic(s, df0, sm, fm, ss, fs):
    """F(s): rational function up to sM, cubic Hermite (zero slope at both ends) to sS,
    then constant."""
    if s <= sm:
        sig = s / sm
        return df0 * s / (1.0 + sig * (sig + df0 * sm / fm - 2.0))
    if s <= ss:
        sig = (s - sm) / (ss - sm)
        return fm - (fm - fs) * sig * sig * (3.0 - 2.0 * sig)
    return fs


def forces(fz, sx, sy, mu=1.0):
    p = {k: at_load(k, fz, mu) for k in TAB}
    # normalization of the slips
    sxh = p["sxm"] / (p["sxm"] + p["sym"]) + (p["fxm"] / p["dfx0"]) / (p["fxm"] / p["dfx0"] + p["fym"] / p["dfy0"])
    syh = p["sym"] / (p["sxm"] + p["sym"]) + (p["fym"] / p["dfy0"]) / (p["fxm"] / p["dfx0"] + p["fym"] / p["dfy0"])
    sxn, syn = sx / sxh, sy / syh
    s = math.hypot(sxn, syn)
    phi = math.atan2(syn, sxn) if s > 0.0 else math.pi / 4.0
    c, n = math.cos(phi), math.sin(phi)
    df0 = math.hypot(p["dfx0"] * sxh * c, p["dfy0"] * syh * n)
    fm = math.hypot(p["fxm"] * c, p["fym"] * n)
    sm = math.hypot(p["sxm"] / sxh * c, p["sym"] / syh * n)
    fs = math.hypot(p["fxs"] * c, p["fys"] * n)
    ss = math.hypot(p["sxs"] / sxh * c, p["sys"] / syh * n)
    F = characteristic(s, df0, sm, fm, ss, fs)
    fx, fy = F * c, F * n
    if s == 0.0:
        fx = fy = 0.0
    # pneumatic trail n/L(sy), contact length L = 2 sqrt(r0 dz), dz = Fz/cz
    a, s0, se, nl0 = abs(sy), p["sy0"], p["sye"], p["nl0"]
    w = s0 / se
    if a <= s0:
        sg = a / s0
        nl = nl0 * ((1.0 - w) * (1.0 - sg) + w * (1.0 - (3.0 - 2.0 * sg) * sg * sg))
    elif a <= se:
        nl = -nl0 * (1.0 - w) * (a - s0) / s0 * ((se - a) / (se - s0)) ** 2
    else:
        nl = 0.0
    L = 2.0 * math.sqrt(R0 * fz / CZ)
    mz = -nl * L * fy
    return fx, fy, mz


# Camber and bore torque (Rill, Road Vehicle Dynamics, 2012, sec. 3.3: camber slip and bore
# torque; the formulas as TMeasy's implementations write them): the patch turns about the road
# normal, by the camber spin Omega sin(gamma) and the wheel's yaw rate. The camber spin gives a
# parabolic lateral deflection y(x) ~ (L^2/4 - x^2) whose mean equals that of a lateral slip a
# third of the camber slip sg = -(L/2) Omega sin(gamma) / (rd |Omega| + vN); the bore slip
# sb = -R_B w_n / (rd |Omega| + vN) at the bore radius R_B = 2/3 R_P, R_P = (L/2 + B/2)/2 (the
# patch as a circle of the mean of its half length and half width), and it joins the generalized
# slip; the bore torque is R_B times the bore force F(s)/s sb, bounded by R_B max(FM, FS). The camber force
# carries no pneumatic trail (its deflection is symmetric about the patch centre).
B = 0.205  # contact patch width: the 205/50 R15's section width


def trail_nl(fz, sy):
    """n/L(sy): the book's pneumatic trail over contact length at load fz"""
    a, s0, se, nl0 = abs(sy), at_load("sy0", fz), at_load("sye", fz), at_load("nl0", fz)
    w = s0 / se
    if a <= s0:
        sg = a / s0
        return nl0 * ((1.0 - w) * (1.0 - sg) + w * (1.0 - (3.0 - 2.0 * sg) * sg * sg))
    if a <= se:
        return -nl0 * (1.0 - w) * (a - s0) / s0 * ((se - a) / (se - s0)) ** 2
    return 0.0


def forces_cb(fz, sx, sy, sg, sb):
    p = {k: at_load(k, fz) for k in TAB}
    kx, ky = p["fxm"] / p["dfx0"], p["fym"] / p["dfy0"]
    sxh = p["sxm"] / (p["sxm"] + p["sym"]) + kx / (kx + ky)
    syh = p["sym"] / (p["sxm"] + p["sym"]) + ky / (kx + ky)
    sy_eq = sy + sg / 3.0          # the camber's equivalent lateral slip
    sxn, syn = sx / sxh, sy_eq / syh
    phi = math.atan2(syn, sxn) if (sxn != 0.0 or syn != 0.0) else math.pi / 4.0
    c, n = math.cos(phi), math.sin(phi)
    sgen = math.sqrt(sxn * sxn + syn * syn + sb * sb)
    F = characteristic(sgen, math.hypot(p["dfx0"] * sxh * c, p["dfy0"] * syh * n),
                       math.hypot(p["sxm"] / sxh * c, p["sym"] / syh * n),
                       math.hypot(p["fxm"] * c, p["fym"] * n),
                       math.hypot(p["sxs"] / sxh * c, p["sys"] / syh * n),
                       math.hypot(p["fxs"] * c, p["fys"] * n))
    fos = F / sgen if sgen > 0.0 else 0.0
    fx, fy = fos * sxn, fos * syn
    L = 2.0 * math.sqrt(R0 * fz / CZ)
    # Mz: the trail of the slip sy times the slip's share of the force, fos sy / syh
    mz = -trail_nl(fz, sy) * L * fos * sy / syh
    rb = 2.0 / 3.0 * ((L / 2.0 + B / 2.0) / 2.0)
    tb = rb * fos * sb
    # the bound: F(s) never exceeds the larger of FM and FS along the direction (the rational
    # branch rises to FM, the Hermite runs monotonically from FM to FS, at low loads the data's
    # FS lies above FM)
    return fx, fy, mz, tb, rb * max(math.hypot(p["fxm"] * c, p["fym"] * n), math.hypot(p["fxs"] * c, p["fys"] * n))


def pure(fz, s, axis):
    """The pure-slip characteristic straight from the table (no generalized slip): the
    combined formulas must reduce to it."""
    k = "x" if axis == 0 else "y"
    return characteristic(abs(s), at_load("df%s0" % k, fz), at_load("s%sm" % k, fz),
                          at_load("f%sm" % k, fz), at_load("s%ss" % k, fz),
                          at_load("f%ss" % k, fz)) * (1.0 if s >= 0 else -1.0)


def close(a, b, scale):
    return abs(a - b) <= 1e-9 * max(abs(b), scale)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = subprocess.run([sys.argv[1], "curves"], check=True, capture_output=True, text=True).stdout
    npass = nfail = 0
    worst = 0.0
    ncb = 0
    for line in out.splitlines():
        f = line.split()
        if f and f[0] == "tmcb":
            fz, sx, sy, sg, sb, fx, fy, mz, tb = (float(v) for v in f[1:10])
            rfx, rfy, rmz, rtb, tbmax = forces_cb(fz, sx, sy, sg, sb)
            checks = [(fx, rfx, 1.0), (fy, rfy, 1.0), (mz, rmz, 1e-2), (tb, rtb, 1e-2)]
            if sg == 0.0 and sb == 0.0:
                # no camber, no bore: the plain model's reference (forces) as well
                checks += list(zip((fx, fy, mz), forces(fz, sx, sy), (1.0, 1.0, 1e-2)))
            for got, ref, sc in checks:
                worst = max(worst, abs(got - ref) / max(abs(ref), sc))
                if close(got, ref, sc):
                    npass += 1
                else:
                    nfail += 1
                    print("  FAIL tmcb Fz=%g sx=%g sy=%g sg=%g sb=%g: %.17g vs reference %.17g" % (fz, sx, sy, sg, sb, got, ref))
            # the bound |T_B| <= R_B max(FM, FS) of the generalized curve; T_B has sb's sign (sb opposes the turn)
            ok = abs(tb) <= tbmax * (1.0 + 1e-12) and (tb * sb >= 0.0)
            npass += ok
            nfail += not ok
            if not ok:
                print("  FAIL tmcb bound Fz=%g sb=%g: Tbo %.6g beyond R_B max(FM, FS) %.6g or of the wrong sign" % (fz, sb, tb, tbmax))
            ncb += 1
            continue
        if not f or f[0] not in ("tm", "tmu"):
            continue
        mu = 1.0
        if f[0] == "tmu":
            mu = float(f[1])
            f = f[1:]
        fz, sx, sy, fx, fy, mz = (float(v) for v in f[1:7])
        rfx, rfy, rmz = forces(fz, sx, sy, mu)
        checks = [(fx, rfx, 1.0), (fy, rfy, 1.0), (mz, rmz, 1e-2)]
        if sy == 0.0 and mu == 1.0:
            checks.append((fx, pure(fz, sx, 0), 1.0))
        if sx == 0.0 and mu == 1.0:
            checks.append((fy, pure(fz, sy, 1), 1.0))
        for got, ref, sc in checks:
            worst = max(worst, abs(got - ref) / max(abs(ref), sc))
            if close(got, ref, sc):
                npass += 1
            else:
                nfail += 1
                print("  FAIL tm Fz=%g sx=%g sy=%g: %.17g vs reference %.17g" % (fz, sx, sy, got, ref))
    if ncb == 0:
        nfail += 1
        print("  FAIL no camber/bore samples (tmcb) from", sys.argv[1])
    if npass == 0:
        nfail += 1
        print("  FAIL no curve samples from", sys.argv[1])
    print("tmeasy curves: worst relative difference %.3g over %d values" % (worst, npass + nfail))
    print("tmeasy-ref: %d passed, %d failed" % (npass, nfail))
    sys.exit(1 if nfail else 0)


if __name__ == "__main__":
    main()
