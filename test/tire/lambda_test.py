#!/usr/bin/python3
"""lambda_test.py SIM - every method's multipliers on one trajectory (issue 33 item 8).

1. The pendulum of model/mech/pendulum.hsm (unit mass on a unit rod, g = 10, released from the
   horizontal): its one row is g = |r|^2 - L^2, G = 2 r^T, so the rod's pull G^T lambda = -T r/L
   gives lambda = -T/(2 L), and the tension follows from the state alone: T = m (|v|^2/L + g.r/L)
   (the radial balance). Every method's lam1 at every 0.1 s row against that, within 1 % of m g
   (the methods' O(h) differences in where lambda sits in the step: a stage, the step's end).
2. The truck-trailer's hitch (--model truck_trailer, the ISO 3888-1 lane change, 3 s): every
   method's lam1, lam2 (kN on the truck, ground frame) against the default method's, within 1 %
   of the run's largest |lam|, and the default's against the force of the same hitch as a stiff
   spring-damper (--model truck_trailer_pen, k_hitch = 1e9 N/m, c_hitch = 2e4 N s/m: an
   independent realization of the coupling) within 3 % of that maximum. Before the fix dvp's
   multipliers were half the others' (0.269 against 0.537 kN at the start).
Not compared, and printed as such: the velocities-first methods symplectic, jexact, jkexact. They
enforce the velocity constraint with G at the step's start (G(q_n) u_{n+1} = 0), so their
multiplier carries the force along the rod that the applied forces need, not the centripetal
part that the turning of G asks for (the projection after the step supplies that as an
impulse, which no multiplier reports): on the pendulum lam1 is a third of -T/(2 L) where the
centripetal part 2 m g sin(alpha) is two thirds of T (printed: the ratio to m g.r/(2 L)).
Prints "lambda: N passed, N failed"."""
import csv
import math
import os
import subprocess
import sys
import tempfile

SIM = sys.argv[1]
from tally import check, finish  # noqa: E402 (this folder's shared check lines)
# the method table as hilstep-sim prints it (no list by hand), less the velocities-first ones
VELFIRST = ["symplectic", "jexact", "jkexact"]
ALL = [ln.split()[0] for ln in subprocess.run([SIM, "--list-methods"], capture_output=True, text=True).stdout.splitlines() if ln.strip()]
METHODS = [me for me in ALL if me not in VELFIRST]
DEFAULT = subprocess.run([SIM, "--model", "pendulum", "--h", "1e-3", "--t", "0.001"], capture_output=True, text=True).stdout.split(" method=")[1].split()[0]


def run(args, T):
    with tempfile.NamedTemporaryFile(suffix=".csv") as out:
        cmd = [SIM] + args + ["--h", "1e-3", "--t", str(T), "--csv", out.name, "--every", "100"]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0 or "status=ok" not in r.stdout:
            return None, " ".join(cmd) + ": " + (r.stdout + r.stderr).strip().splitlines()[-1]
        return list(csv.DictReader(open(out.name))), None


check(len(ALL) >= 13 and len(METHODS) == len(ALL) - 3, "hilstep-sim --list-methods: %d methods, %d compared (default %s)" % (len(ALL), len(METHODS), DEFAULT))
# 1. the pendulum
m, L, g = 1.0, 1.0, 10.0
for me in METHODS:
    rows, why = run(["--model-file", "model/mech/pendulum.hsm", "--method", me], 1.0)
    if rows is None:
        check(False, "pendulum, --method %s runs (%s)" % (me, why))
        continue
    worst, at = 0.0, 0.0
    for r in rows[1:]:
        x, y, vx, vy = (float(r[k]) for k in ("q1", "q2", "u1", "u2"))
        T = m * ((vx * vx + vy * vy) / L + (-g * y) / L)
        e = abs(float(r["lam1"]) - (-T / (2.0 * L)))
        if e > worst:
            worst, at = e, float(r["t"])
    check(worst <= 0.01 * m * g, "pendulum, --method %s: lam1 = -T/(2 L) from the state at 10 rows, worst %.2e N/m (at %.1f s) <= 1 %% of m g"
          % (me, worst, at))

for me in VELFIRST:
    rows, why = run(["--model-file", "model/mech/pendulum.hsm", "--method", me], 1.0)
    if rows is None:
        print("  (pendulum, --method %s did not run: %s)" % (me, why))
        continue
    r = rows[5]
    x, y, vx, vy = (float(r[k]) for k in ("q1", "q2", "u1", "u2"))
    T = m * ((vx * vx + vy * vy) / L + (-g * y) / L)
    print("  not compared: pendulum, --method %s (velocities first, G at the step's start): lam1 %.4f at %.1f s = %.3f of -T/(2 L) %.4f, %.4f of the applied forces' part -m g.r/(2 L^2) %.4f"
          % (me, float(r["lam1"]), float(r["t"]), float(r["lam1"]) / (-T / 2.0), -T / 2.0, float(r["lam1"]) / (-m * (-g * y) / 2.0), -m * (-g * y) / 2.0))

# 2. the truck-trailer's hitch
ref, why = run(["--model", "truck_trailer"], 3.0)
pen, why2 = run(["--model", "truck_trailer_pen", "--param", "k_hitch=1e9", "--param", "c_hitch=2e4"], 3.0)
if ref is None or pen is None:
    check(False, "truck-trailer reference runs (%s %s)" % (why, why2))
else:
    lmax = max(max(abs(float(r["lam1"])), abs(float(r["lam2"]))) for r in ref)
    ew = max(max(abs(float(a["lam1"]) - float(b["out_hitch_Fx[N]"]) / 1000.0), abs(float(a["lam2"]) - float(b["out_hitch_Fy[N]"]) / 1000.0))
             for a, b in zip(ref, pen))
    check(ew <= 0.03 * lmax, "truck-trailer hitch: default method's multipliers against the 1e9 N/m spring-damper's force: worst %.3f kN of max %.2f kN (<= 3 %%)" % (ew, lmax))
    for me in METHODS:
        if me == DEFAULT:
            continue
        rows, why = run(["--model", "truck_trailer", "--method", me], 3.0)
        if rows is None:
            check(False, "truck-trailer, --method %s runs (%s)" % (me, why))
            continue
        e = max(max(abs(float(a["lam1"]) - float(b["lam1"])), abs(float(a["lam2"]) - float(b["lam2"]))) for a, b in zip(rows, ref))
        r0 = float(rows[1]["lam1"]) / float(ref[1]["lam1"])
        check(e <= 0.01 * lmax, "truck-trailer hitch, --method %s: lam against the default's, worst %.3f kN of max %.2f kN (<= 1 %%); lam1 ratio at 0.1 s %.4f"
              % (me, e, lmax, r0))
finish("lambda")
