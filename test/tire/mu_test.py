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
npass = nfail = 0
G = 9.81


def check(ok, what):
    global npass, nfail
    if ok:
        npass += 1
        print("  ok  ", what)
    else:
        nfail += 1
        print("  FAIL", what)


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
os.unlink(BRK.name)
print("mu: %d passed, %d failed" % (npass, nfail))
sys.exit(1 if nfail else 0)
