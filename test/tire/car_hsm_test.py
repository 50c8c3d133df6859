#!/usr/bin/python3
"""car_hsm_test.py SIM HSM - the car description model/mech/vehicles/car.hsm (chassis, four wheels
on their suspensions, four multibody tire elements) through hilstep-sim with the default method
at h = 1 ms: at rest on a flat road it drifts less than 1e-6 m/s over 60 s; on a 10 % slope with
1500 N m of brake on every wheel it holds (after settling it moves less than 1e-6 m in 20 s);
braked from 20 m/s with 800 N m per wheel it stops and stays stopped, and while it decelerates
the wheel loads move to the front by the quasi-static moment balance (3 %) with the weight still
shared m g / 2 per side; at rest the two left wheels carry
half the weight; steered by 0.02 rad at 20 m/s
its yaw rate after 5 s is the hand-written car's (model "car", the same tires and geometry on
static loads) to 1 %, its body slip angle to 10 %. Prints "car-hsm: N passed, N failed"."""
import csv
import math
import os
import subprocess
import sys
import tempfile

SIM, HSM = sys.argv[1], sys.argv[2]
npass = nfail = 0


def check(ok, what):
    global npass, nfail
    if ok:
        npass += 1
    else:
        nfail += 1
        print("  FAIL", what)


def run(params, brake, t, every, steer=0.0):
    with tempfile.TemporaryDirectory() as d:
        out, inp = os.path.join(d, "o.csv"), os.path.join(d, "i.csv")
        with open(inp, "w") as f:
            f.write("t,steer,brake_fl,brake_fr,brake_rl,brake_rr\n0,%g,%g,%g,%g,%g\n" % ((steer,) + (brake,) * 4))
        cmd = [SIM, "--model-file", HSM, "--h", "1e-3", "--t", str(t), "--csv", out, "--every", str(every),
               "--inputs", inp]
        for p in params:
            cmd += ["--param", p]
        r = subprocess.run(cmd, capture_output=True, text=True)
        check(r.returncode == 0 and "status=ok" in r.stdout, "%s exits 0 with status=ok" % " ".join(cmd))
        rows = list(csv.reader(open(out)))
    head = rows[0]
    col = {name.split("[")[0]: i for i, name in enumerate(head)}
    return col, [[float(v) for v in row] for row in rows[1:]]


# the car's data (car.hsm): masses, geometry
m_c, m_w, a, b, h, r0, cz, g = 1400.0, 25.0, 1.2, 1.5, 0.55, 0.3, 190000.0, 9.81
m = m_c + 4 * m_w

# rest, flat road
c, d = run([], 0, 60, 100)
vmax = max(math.hypot(r[c["out_speed"]], r[c["u2"]]) for r in d)
check(len(d) == 601, "rest: 601 rows")
check(vmax < 1e-6, "rest: |v| < 1e-6 m/s over 60 s (got %.3g)" % vmax)
half = d[-1][c["out_Fz_fl"]] + d[-1][c["out_Fz_rl"]]
check(abs(half - m * g / 2) < 1e-6 * m * g, "rest: the left wheels carry m g / 2 = %.3f N (got %.6f)" % (m * g / 2, half))
print("car.hsm rest 60 s: max |v| %.3g m/s; left wheels %.3f N of m g / 2 = %.3f N" % (vmax, half, m * g / 2))

# at rest every step factors once for its stages and once for the projection, plus the consistent
# acceleration's factorization at init: 2 n + 1. The bounded refinement of sdirk's stages
# (rt/METHODS.md "Through a dependent position") must not read the rounding of the tire and
# spring forces (1e-14 m/s^2 on the wheels' vertical accelerations) as a jump: it took 2325
# factorizations in these 1000 steps when it compared noise with noise.
r = subprocess.run([SIM, "--model-file", HSM, "--h", "1e-3", "--t", "1"], capture_output=True, text=True)
kv = dict(w.split("=", 1) for w in r.stdout.split() if "=" in w)
check(r.returncode == 0 and kv.get("status") == "ok" and kv.get("factorizations") == str(2 * 1000 + 1),
      "rest 1 s: factorizations = 2 n + 1 = 2001, no refinement (got %s)" % kv.get("factorizations"))
print("car.hsm rest 1 s: %s factorizations in 1000 steps (2 n + 1 = 2001)" % kv.get("factorizations"))

# Nor a jump of the applied forces: braked from 20 m/s with 800 N m per wheel the wheels' spin
# accelerations jump at the stop (brakes from sliding to holding), and the ABS recording's
# brake steps jump them while rolling; the constraint rows' residual of the stage predictor
# stays far below the jump test's reference (2e-10 to 3e-5 of it), so one Newton step follows
# them (rt/METHODS.md "Through a dependent position"): 2 n + 1 in 10,000 steps. (Before the
# rows' condition: 20,003 and 20,006, a 1.69 M instruction frame on the M7 at the stop.)
ABS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "abs_stop_inputs.csv")
with tempfile.TemporaryDirectory() as d:
    inp = os.path.join(d, "stop.csv")
    with open(inp, "w") as f:
        f.write("t,steer,brake_fl,brake_fr,brake_rl,brake_rr\n0,0,800,800,800,800\n")
    for name, extra in (("braked stop from 20 m/s, 800 N m", ["--param", "v0=20", "--inputs", inp]),
                        ("ABS stop from 22.2 m/s", ["--param", "v0=22.2222222222222222", "--inputs", ABS,
                                                    "--interp", "hold"])):
        r = subprocess.run([SIM, "--model-file", HSM, "--h", "1e-3", "--t", "10"] + extra,
                           capture_output=True, text=True)
        kv = dict(w.split("=", 1) for w in r.stdout.split() if "=" in w)
        check(r.returncode == 0 and kv.get("status") == "ok" and kv.get("factorizations") == str(2 * 10000 + 1),
              "%s 10 s: factorizations = 2 n + 1 = 20001, no refinement (got %s)" % (name, kv.get("factorizations")))
        print("car.hsm %s 10 s: %s factorizations in 10000 steps (2 n + 1 = 20001)" % (name, kv.get("factorizations")))

# 10 % slope, brakes applied
sg = 0.1 / math.sqrt(1.01)
c, d = run(["slope_sin=%.17g" % sg, "slope_cos=%.17g" % (1 / math.sqrt(1.01))], 1500, 30, 100)
x10 = [r[c["out_X"]] for r in d if abs(r[0] - 10.0) < 1e-9][0]
vlate = max(abs(r[c["out_speed"]]) for r in d if r[0] >= 10.0)
moved = d[-1][c["out_X"]] - x10
check(abs(moved) < 1e-6, "slope: moves < 1e-6 m from 10 s to 30 s (got %.3g)" % moved)
check(vlate < 1e-6, "slope: |v| < 1e-6 m/s after 10 s (got %.3g)" % vlate)
check(abs(x10 - d[0][c["out_X"]]) < 0.01, "slope: settles within 1 cm (got %.3g)" % (x10 - d[0][c["out_X"]]))
print("car.hsm 10 %% slope braked: settled by %.3g m, then moved %.3g m in 20 s, max |v| %.3g m/s"
      % (x10 - d[0][c["out_X"]], moved, vlate))

# braked from 20 m/s
c, d = run(["v0=20"], 800, 12, 10)
iv = c["out_speed"]
ts = [r[0] for r in d if r[iv] <= 0.0][0]
late = [r for r in d if r[0] > ts + 5.0]
vlate = max(abs(r[iv]) for r in late)
moved = late[-1][c["out_X"]] - late[0][c["out_X"]]
check(1.0 < ts < 4.0, "braking: stops (at %.3f s)" % ts)
check(vlate < 1e-6, "braking: |v| < 1e-6 m/s from 5 s after the stop (got %.3g)" % vlate)
check(abs(moved) < 1e-6, "braking: moves < 1e-6 m after (got %.3g)" % moved)
# load transfer in the steady part of the stop (2.0 to 2.4 s: pitch settled, deceleration a from
# the speed): the left wheels still carry m g / 2 between them (vertical equilibrium), and the
# front gains what the rear loses: the moment balance about the centre of mass (height h of the
# whole vehicle) with the braking force m a acting rd - rs = 2 pen / 3 below the road (the
# element's lever arm, model/TIRE.md) and the four wheels' spin decelerating at a / rd:
# (m a (h + 2 pen / 3) + 4 J a / rd) / (2 l), to 3 % (the rest: the chassis' centre of mass moves
# forward as it pitches, rolling resistance)
r1 = [row for row in d if abs(row[0] - 2.0) < 1e-9][0]
r2 = [row for row in d if abs(row[0] - 2.4) < 1e-9][0]
r_0 = d[0]
ax = (r1[iv] - r2[iv]) / 0.4
hv = (m_c * h + 2 * m_w * r_0[c["q10"]] + 2 * m_w * r_0[c["q24"]]) / m
pen = (r2[c["out_Fz_fl"]] + r2[c["out_Fz_rl"]]) / 2 / cz
rd = r0 - pen / 3
dfz = (m * ax * (hv + 2 * pen / 3) + 4 * 1.0 * ax / rd) / (2 * (a + b))
gf = r2[c["out_Fz_fl"]] - r_0[c["out_Fz_fl"]]
gr = r_0[c["out_Fz_rl"]] - r2[c["out_Fz_rl"]]
side = r2[c["out_Fz_fl"]] + r2[c["out_Fz_rl"]]
check(abs(side - m * g / 2) < 1e-3 * m * g / 2, "braking: the left wheels carry m g / 2 (got %.2f N of %.2f)" % (side, m * g / 2))
check(abs(gf - dfz) < 0.03 * dfz and abs(gr - dfz) < 0.03 * dfz,
      "braking: load transfer front +%.1f N, rear -%.1f N = the moment balance's %.1f N (3 %%)" % (gf, gr, dfz))
print("car.hsm braked from 20 m/s: stop at %.3f s, then max |v| %.3g m/s, moved %.3g m; at 2.0-2.4 s a = %.4f m/s^2 "
      "(the accelerometer, pitched: %.4f), load transfer front +%.1f N, rear -%.1f N, moment balance %.1f N"
      % (ts, vlate, moved, -ax, r2[c["out_a_x"]], gf, gr, dfz))
# steady cornering against the hand-written car
c, d = run(["v0=20"], 0, 5, 500, steer=0.02)
with tempfile.NamedTemporaryFile(suffix=".csv") as f:
    r2 = subprocess.run([SIM, "--model", "car", "--param", "maneuver=0", "--param", "v0=20", "--param", "steer=0.02",
                         "--h", "1e-3", "--t", "5", "--csv", f.name, "--every", "500"], capture_output=True, text=True)
    check(r2.returncode == 0, "hand-written car runs")
    rows = list(csv.reader(open(f.name)))
hc = {name.split("[")[0]: i for i, name in enumerate(rows[0])}
last = [float(v) for v in rows[-1]]
yh, bh = last[hc["out_yaw_rate"]], last[hc["out_beta"]]
y, be = d[-1][c["out_yaw_rate"]], d[-1][c["out_beta"]]
check(abs(y - yh) < 0.01 * abs(yh), "cornering: yaw rate %.6f rad/s = the hand-written car's %.6f (1 %%)" % (y, yh))
check(abs(be - bh) < 0.1 * abs(bh), "cornering: body slip angle %.5f rad = the hand-written car's %.5f (10 %%)" % (be, bh))
print("car.hsm steered 0.02 rad at 20 m/s, 5 s: yaw rate %.6f rad/s (hand-written car %.6f), beta %.5f rad (%.5f), "
      "a_y %.3f m/s^2 (the rolled body's accelerometer; v r = %.3f)" % (y, yh, be, bh, d[-1][c["out_a_y"]],
                                                                       d[-1][c["out_speed"]] * y))
# camber= and bore= left out (off): the trajectory is the one before they existed, bit for bit.
# The hash was printed by the tree before them (commit 88af758, hilstep-sim --hash on this run:
# 0xdd67f1882f0ca062) and held through the keys' arrival; an intended change of car.hsm's
# trajectory changes it and is said where it is made: re-pinned when the sparse order let each
# wheel's suspension rows follow the wheel (hs_model_type.leaf_rows, rt/hs_sparse.c sa_order),
# the same equations in another rounding (before it, this tree printed 0xdd67f1882f0ca062 too).
HASH_BEFORE = "0xe9bd8fffcabd1555"
with tempfile.TemporaryDirectory() as dd:
    inp = os.path.join(dd, "i.csv")
    with open(inp, "w") as f:
        f.write("t,steer,drive_fl,drive_fr,drive_rl,drive_rr\n0,0,0,0,0,0\n0.5,0.05,200,200,200,200\n"
                "2,0.1,300,300,300,300\n3,-0.05,0,0,0,0\n")
    hashes = {}
    for keys in ("", " camber=on", " bore=on"):
        hsm = os.path.join(dd, "car.hsm")
        with open(HSM) as src, open(hsm, "w") as dst:
            for line in src:
                dst.write(line.rstrip("\n") + keys + "\n" if line.startswith("force ") and " tire " in line else line)
        r = subprocess.run([SIM, "--model-file", hsm, "--param", "v0=15", "--h", "1e-3", "--t", "4", "--inputs", inp, "--hash"],
                           capture_output=True, text=True)
        hl = [l for l in r.stdout.splitlines() if l.startswith("trajectory-hash")]
        hashes[keys] = hl[0].split()[-1] if hl else None
check(hashes[""] == HASH_BEFORE, "camber=, bore= left out: car.hsm's 4 s run (v0=15, steer and drive) hash %s = %s, before camber and bore"
      % (hashes[""], HASH_BEFORE))
check(hashes[" camber=on"] not in (None, HASH_BEFORE) and hashes[" bore=on"] not in (None, HASH_BEFORE, hashes[" camber=on"]),
      "camber=on, bore=on on the four tires change that run (hashes %s, %s): the keys are live" % (hashes[" camber=on"], hashes[" bore=on"]))
print("car-hsm: %d passed, %d failed" % (npass, nfail))
sys.exit(1 if nfail else 0)
