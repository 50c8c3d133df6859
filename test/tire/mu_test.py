#!/usr/bin/python3
"""mu_test.py SIM - road friction (issue 33 item 1) through hilstep-sim, default method, 1 ms.

Locked-wheel stops from 20 m/s (2500 N m on every wheel from t = 0, twice what a tire
transmits) at mu = 1 and mu = 0.3, on the hand-written car (static wheel loads) and on
model/mech/vehicles/car.hsm (suspension, so load transfer). TMeasy scales the sliding force FS
with mu (model/TIRE.md "Road friction"), so a locked car decelerates at a = mu sum FS(Fz_i)/m
and stops in v0^2/(2 a): the distance ratio is 1/mu exactly where the loads do not depend on a.
What moves it, and how much the test allows:
- load transfer (car.hsm): the front wheels gain dFz = m a hc/(2 l) per wheel, the rear lose it
  (hc the centre of mass height of the whole car plus 2 pen/3, the depth at which the element's
  force acts: model/TIRE.md), and FS is degressive in Fz, so the faster stop (mu = 1) loses more
  of sum FS. The prediction solves a = mu sum FS(Fz_i(a))/m with FS from test/tire/tmeasy_ref.py
  (the book's load interpolation, typed independently of hs_tire.c); the ratio must match it
  within 1 %, and each distance within 3 %;
- the wheels' spin-down before they lock (J = 1 kg m^2 from 68 rad/s: about 50 ms during which
  the tire passes its maximum FM > FS) and the tread springs' take-up at the start and the end:
  a few centimetres, inside those tolerances (the printed figures say how much).
Then mu-split (mu_l = 1, mu_r = 0.3, straight ahead, locked): the car yaws towards the high-mu
(left) side, yaw rate > 0 at 0.5 s, and the mirrored split gives the mirrored yaw angle (to
1e-9 relative on the symmetric hand-written car, 1e-3 on car.hsm). And a mu step in X (the C car's
patch_x0/patch_x1/patch_mu): braked with 800 N m (below the grip at mu = 1: the brakes decide,
a = (4 Tb/rd + fr m g)/m_eff) onto a patch of mu = 0.3 from X = -5 m (the car starts at -20 m), where the wheels lock and the car
slides at 0.3 sum FS/m. Prints "mu: N passed, N failed"."""
import csv
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[0])))
import tmeasy_ref  # noqa: E402

SIM = sys.argv[1]
from tally import check, finish  # noqa: E402 (this folder's shared check lines)
G = 9.81


def run(args, T, inputs=None):
    with tempfile.NamedTemporaryFile(suffix=".csv") as out:
        cmd = [SIM] + args + ["--h", "1e-3", "--t", str(T), "--csv", out.name, "--every", "10"]
        if inputs is not None:
            cmd += ["--inputs", inputs]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0 or "status=ok" not in r.stdout:
            check(False, "%s exits 0 with status=ok" % " ".join(cmd))
            return None
        return list(csv.DictReader(open(out.name)))


def stop(rows):
    """time and distance until the speed first falls below 0.01 m/s"""
    x0 = float(rows[0]["out_X[m]"])
    for r in rows:
        if abs(float(r["out_speed[m/s]"])) < 0.01:
            return float(r["t"]), float(r["out_X[m]"]) - x0
    return float("nan"), float("nan")


def fs(fz):
    return tmeasy_ref.at_load("fxs", fz)


def decel(mu, m, fzf, fzr, dz_per_a):
    """a = mu sum FS(Fz_i)/m with the front wheels' load fzf + dz_per_a a, the rear's
    fzr - dz_per_a a (fixed point: the map is a contraction, |d/da| ~ 0.05)"""
    a = 0.0
    for _ in range(100):
        a = mu * 2.0 * (fs(fzf + dz_per_a * a) + fs(fzr - dz_per_a * a)) / m
    return a


BRK = tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False)
BRK.write("t,brake_fl,brake_fr,brake_rl,brake_rr\n0,2500,2500,2500,2500\n")
BRK.close()
V0 = 20.0
# hand-written car: 1500 kg, a = 1.2, b = 1.5 m, static loads m g b/(2 l), m g a/(2 l)
m, l = 1500.0, 2.7
cars = [("car", ["--model", "car", "--param", "maneuver=0", "--param", "v0=20", "--param", "brake=2500"], None,
         (m, m * G * 1.5 / (2 * l), m * G * 1.2 / (2 * l), 0.0)),
        ("car.hsm", ["--model-file", "model/mech/vehicles/car.hsm", "--param", "v0=20"], BRK.name, None)]
# car.hsm: chassis 1400 kg at 0.55 m, four 25 kg wheels at their static centres; the spring
# carries the chassis' share, the tire spring and wheel the rest (car.hsm's own statics)
mc, mw, cz, r0 = 1400.0, 25.0, 190000.0, 0.3
sf, sr = mc * G * 1.5 / (2 * l), mc * G * 1.2 / (2 * l)
fzf, fzr = sf + mw * G, sr + mw * G
zf, zr = r0 - fzf / cz, r0 - fzr / cz
M = mc + 4 * mw
hc = (mc * 0.55 + 2 * mw * (zf + zr)) / M + 2.0 * ((fzf + fzr) / 2 / cz) / 3.0
cars[1] = cars[1][:3] + ((M, fzf, fzr, M * hc / (2 * l)),)

for name, args, inp, (mm, ff, fr_, dz) in cars:
    res = {}
    for mu in (1.0, 0.3):
        rows = run(args + ["--param", "mu=%g" % mu], 8.0, inp)
        if rows is None:
            continue
        ts, ds = stop(rows)
        dp = V0 * V0 / (2.0 * decel(mu, mm, ff, fr_, dz))
        res[mu] = (ds, dp)
        check(abs(ds - dp) < 0.03 * dp, "%s locked stop from 20 m/s at mu = %g: %.3f m in %.2f s, sliding prediction %.3f m (%+.2f %%)"
              % (name, mu, ds, ts, dp, 100.0 * (ds / dp - 1.0)))
    if len(res) == 2:
        r, rp = res[0.3][0] / res[1.0][0], res[0.3][1] / res[1.0][1]
        check(abs(r - rp) < 0.01 * rp, "%s: stop at mu 0.3 / stop at mu 1 = %.4f, 1/0.3 = %.4f; with %s %.4f (within 1 %%)"
              % (name, r, 1 / 0.3, "load transfer" if dz > 0 else "static loads", rp))
    # mu-split: left 1, right 0.3, and mirrored
    yaw = []
    for ml, mr in ((1.0, 0.3), (0.3, 1.0)):
        rows = run(args + ["--param", "mu_l=%g" % ml, "--param", "mu_r=%g" % mr], 1.0, inp)
        if rows is None:
            continue
        r05 = min(rows, key=lambda x: abs(float(x["t"]) - 0.5))
        yaw.append((float(r05["out_yaw_rate[rad/s]"]), float(rows[-1].get("out_psi[rad]", "nan")) if "out_psi[rad]" in rows[-1] else None,
                    float(rows[-1]["out_Y[m]"])))
    if len(yaw) == 2:
        check(yaw[0][0] > 0.05, "%s mu-split left 1 / right 0.3, locked: yaw rate %.4f rad/s at 0.5 s > 0 (towards the high-mu left side)" % (name, yaw[0][0]))
        tol = 1e-9 if dz == 0 else 1e-3
        check(abs(yaw[0][0] + yaw[1][0]) <= tol * abs(yaw[0][0]) and abs(yaw[0][2] + yaw[1][2]) <= tol * abs(yaw[0][2]) + 1e-12,
              "%s mirrored split (left 0.3 / right 1): yaw rate %.4f, Y(1 s) %.4f m against %.4f m (mirror within %g)" % (name, yaw[1][0], yaw[1][2], yaw[0][2], tol))

# a mu step in X on the hand-written car
rows = run(["--model", "car", "--param", "maneuver=0", "--param", "v0=20", "--param", "brake=800",
            "--param", "patch_x0=-5", "--param", "patch_x1=1e6", "--param", "patch_mu=0.3"], 4.0)
if rows is not None:
    rd_f, rd_r = 0.3 - (m * G * 1.5 / (2 * l)) / 190000.0 / 3, 0.3 - (m * G * 1.2 / (2 * l)) / 190000.0 / 3
    m_eff = m + 2 * 1.0 / rd_f ** 2 + 2 * 1.0 / rd_r ** 2  # the wheels' spin inertia J/rd^2
    # the brakes' torque and the rolling resistance fr m g through the rolling wheels
    a_brake = (2 * 800.0 * (1 / rd_f + 1 / rd_r) + 0.01 * m * G) / m_eff
    a_ice = decel(0.3, m, m * G * 1.5 / (2 * l), m * G * 1.2 / (2 * l), 0.0)

    def mean_decel(x_lo, x_hi):
        sel = [r for r in rows if x_lo <= float(r["out_X[m]"]) <= x_hi]
        t0, t1 = float(sel[0]["t"]), float(sel[-1]["t"])
        return (float(sel[0]["out_speed[m/s]"]) - float(sel[-1]["out_speed[m/s]"])) / (t1 - t0)
    a1, a2 = mean_decel(-19.0, -7.0), mean_decel(-2.0, 15.0)
    check(abs(a1 - a_brake) < 0.01 * a_brake and abs(a2 - a_ice) < 0.03 * a_ice,
          "mu step at X = -5 m (800 N m brakes, from X = -20 m): %.3f m/s^2 before (brakes and rolling resistance, (4 Tb/rd + fr m g)/m_eff %.3f), %.3f after (locked at mu 0.3: %.3f)"
          % (a1, a_brake, a2, a_ice))


# ---- the friction actuator: inputs mu_fl..mu_rr (a rig's per-wheel friction; 0 = the road's) ----
def write_inputs(rows):
    f = tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False)
    f.write("t,brake_fl,brake_fr,brake_rl,brake_rr,mu_fl,mu_fr,mu_rl,mu_rr\n")
    for r in rows:
        f.write(",".join("%r" % x for x in r) + "\n")
    f.close()
    return f.name


def summary(args, T, inputs):
    """the summary line's fields of a run (no CSV): q1 (X), clamped_inputs, status"""
    r = subprocess.run([SIM] + args + ["--h", "1e-3", "--t", str(T), "--inputs", inputs, "--hash"], capture_output=True, text=True)
    out = {}
    for line in r.stdout.splitlines():
        if line.startswith("trajectory-hash"):
            out["hash"] = line.split()[-1]
        for w in line.split():
            if "=" in w:
                k, v = w.split("=", 1)
                out[k] = v
    return out


car_ext = ["--model", "car", "--param", "maneuver=0", "--param", "v0=20", "--param", "external=1"]
hsm = ["--model-file", "model/mech/vehicles/car.hsm", "--param", "v0=20"]
tmp = []
for name, args, (mm, ff, fr_, dz) in (("car", car_ext, cars[0][3]), ("car.hsm", hsm, cars[1][3])):
    # uniform: every wheel's input 0.3 against --param mu=0.3, and 1 against the default road
    ds = {}
    for mu in (1.0, 0.3):
        f = write_inputs([(0, 2500, 2500, 2500, 2500, mu, mu, mu, mu)])
        tmp.append(f)
        rows = run(args, 8.0, f)
        if rows is None:
            continue
        ts, d = stop(rows)
        dp = V0 * V0 / (2.0 * decel(mu, mm, ff, fr_, dz))
        ds[mu] = (d, dp)
        check(abs(d - dp) < 0.03 * dp, "%s locked stop, friction inputs mu_fl..mu_rr = %g: %.3f m in %.2f s, sliding prediction %.3f m (%+.2f %%)"
              % (name, mu, d, ts, dp, 100.0 * (d / dp - 1.0)))
        if mu == 0.3:
            # the same run with the road's --param mu=0.3 and no friction inputs: the C car
            # bit for bit (the hash); car.hsm to 1e-9 in X (its first step's Jacobian comes
            # from init, where every input is 0, so the two differ in the last bits)
            sa, sb = summary(args, 8.0, f), summary(args + ["--param", "mu=0.3"], 8.0, BRK.name)
            xa, xb = float(sa.get("q1", "nan")), float(sb.get("q1", "nan"))
            same = sa.get("hash") == sb.get("hash") if name == "car" else abs(xa - xb) <= 1e-9 * abs(xb)
            check(same, "%s: inputs mu_fl..mu_rr = 0.3 run as --param mu=0.3: X(8 s) %.9f m, %.9f m; hash %s, %s"
                  % (name, xa, xb, sa.get("hash"), sb.get("hash")))
    if len(ds) == 2:
        r, rp = ds[0.3][0] / ds[1.0][0], ds[0.3][1] / ds[1.0][1]
        check(abs(r - rp) < 0.01 * rp, "%s: stop at input mu 0.3 / at input mu 1 = %.4f, prediction %.4f (within 1 %%)" % (name, r, rp))
    # per wheel: the left wheels' inputs 1, the right ones' 0.3 -> yaws left as the mu-split does
    f = write_inputs([(0, 2500, 2500, 2500, 2500, 1.0, 0.3, 1.0, 0.3)])
    tmp.append(f)
    rows = run(args, 1.0, f)
    if rows is not None:
        r05 = min(rows, key=lambda x: abs(float(x["t"]) - 0.5))
        yr = float(r05["out_yaw_rate[rad/s]"])
        sa = summary(args, 1.0, f)
        sb = summary(args + ["--param", "mu_l=1", "--param", "mu_r=0.3"], 1.0, BRK.name)
        pa, pb = float(sa.get("q3" if name == "car" else "q7", "nan")), float(sb.get("q3" if name == "car" else "q7", "nan"))
        same = sa.get("hash") == sb.get("hash") if name == "car" else abs(pa - pb) <= 1e-9 * abs(pb)
        check(yr > 0.05 and same,
              "%s inputs mu_fl = mu_rl = 1, mu_fr = mu_rr = 0.3 (locked): yaw rate %.4f rad/s at 0.5 s (towards the high-mu left); yaw coordinate at 1 s (car: psi, car.hsm: the chassis quaternion's z) %.9g = the --param mu_l=1 mu_r=0.3 split's %.9g"
              % (name, yr, pa, pb))

# a friction step in time from the input (hold): mu 1 until t = 1 s, then 0.3, locked, C car
f = write_inputs([(0, 2500, 2500, 2500, 2500, 1.0, 1.0, 1.0, 1.0), (0.9995, 2500, 2500, 2500, 2500, 1.0, 1.0, 1.0, 1.0),
                  (1.0, 2500, 2500, 2500, 2500, 0.3, 0.3, 0.3, 0.3)])
tmp.append(f)
rows = run(car_ext, 6.0, f)
if rows is not None:
    def mean_decel_t(t_lo, t_hi):
        sel = [r for r in rows if t_lo <= float(r["t"]) <= t_hi]
        return (float(sel[0]["out_speed[m/s]"]) - float(sel[-1]["out_speed[m/s]"])) / (float(sel[-1]["t"]) - float(sel[0]["t"]))
    a_hi = decel(1.0, *cars[0][3][:3], 0.0)
    a_lo = decel(0.3, *cars[0][3][:3], 0.0)
    a1, a2 = mean_decel_t(0.3, 0.95), mean_decel_t(1.2, 2.5)
    check(abs(a1 - a_hi) < 0.03 * a_hi and abs(a2 - a_lo) < 0.03 * a_lo,
          "car, friction inputs 1 -> 0.3 at t = 1 s (locked): %.3f m/s^2 before (mu sum FS/m at 1: %.3f), %.3f after (at 0.3: %.3f)" % (a1, a_hi, a2, a_lo))

# out of range: input 3 is clamped to the map's 2 and counted, and runs as --param mu=2
f = write_inputs([(0, 0, 0, 0, 0, 3.0, 3.0, 3.0, 3.0)])
tmp.append(f)
s_in = summary(car_ext, 0.5, f)
f2 = write_inputs([(0, 0, 0, 0, 0, 0, 0, 0, 0)])
tmp.append(f2)
s_par = summary(car_ext + ["--param", "mu=2"], 0.5, f2)
check(s_in.get("status") == "ok" and s_in.get("clamped_inputs") == "2000" and s_in.get("hash") == s_par.get("hash"),
      "car, friction inputs 3 > 2: clamped_inputs=%s (4 inputs x 500 steps = 2000), hash %s = --param mu=2's %s"
      % (s_in.get("clamped_inputs"), s_in.get("hash"), s_par.get("hash")))
for f in tmp:
    os.unlink(f)
os.unlink(BRK.name)
finish("mu")
