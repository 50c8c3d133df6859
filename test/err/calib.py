#!/usr/bin/env python3
"""test/err/calib.py BUILD [--table] - the error estimate's calibration (rt/METHODS.md "The
error estimate"): err_est (the largest local position error estimate of a step) against
err_true (the largest true local position error of a step: the same step taken as 16 steps of
h/16 from the same state, hilstep-sim --err-check 16) for the shipped models, every method of
the table and a grid of step sizes. Checks 0.1 <= err_est/err_true <= 10 on the calibrated
rows, that the ok-while-wrong run (spook on the rigid slider crank at 1/20 s) is flagged by the
default --tol (status=inaccurate, exit 4) and that no run of the grid whose estimate is within
the default tolerance is flagged. --table prints the markdown table rt/METHODS.md carries."""
import subprocess, sys

B = sys.argv[1] if len(sys.argv) > 1 else "build"
TABLE = "--table" in sys.argv
SIM = B + "/hilstep-sim"
# (file, why it is outside the calibrated window, or None): the window holds where the local
# error is a smooth function of the state; a step through an impact and a mechanism with no
# degree of freedom left are the estimate's known limits (rt/METHODS.md)
MODELS = [("pendulum", None), ("bead_wire", None), ("bushing_pendulum", None),
          ("car_axle", None), ("chain", None), ("door", None), ("double_spherical", None),
          ("fourbar_spatial", None), ("rigid_body", None), ("slider_crank_singular", None),
          ("slider_crank", "0 DOF: driven, the projection places q"),
          ("ball", "impacts"), ("stop_pendulum", "end-stop impacts"),
          ("sphere", "contact"), ("stack", "contact"), ("incline", "contact")]
METHODS = [l.split()[0] for l in subprocess.run([SIM, "--list-methods"], capture_output=True,
                                                   text=True).stdout.splitlines() if l.strip()]
# rows of the calibrated models outside the window, found by this grid and left open (the
# estimate under-reads sdirk there; cause not found): reported with their ratio, and checked
# to be the only ones, so a new miss or a fixed one fails the suite until this list is updated
KNOWN_MISSES = {("fourbar_spatial", "sdirk", 0.0005), ("slider_crank_singular", "sdirk", 0.002)}
HS = [0.0005, 0.001, 0.002]
T = "0.2"
FLOOR = 1e-13

def run(model, method, h, extra=()):
    args = [SIM, "--model-file", "model/mech/%s.hsm" % model, "--method", method, "--h", repr(h),
            "--t", T, "--err-check", "16", *extra]
    p = subprocess.run(args, capture_output=True, text=True, timeout=300)
    kv = dict(w.split("=", 1) for w in p.stdout.split() if "=" in w)
    return p.returncode, kv

fails = passes = 0
def check(ok, what):
    global fails, passes
    if ok: passes += 1
    else:
        fails += 1
        print("FAIL", what)

rows = []
for model, why in MODELS:
    for method in METHODS:
        for h in HS:
            rc, kv = run(model, method, h)
            st = kv.get("status", "?")
            if st not in ("ok", "inaccurate"):
                rows.append((model, method, h, st, None, None, None, why))
                continue
            est, tru = float(kv["err_est"]), float(kv["err_true"])
            r = est / tru if tru > FLOOR else None
            rows.append((model, method, h, st, est, tru, r, why))
            # the default tolerance flags exactly the runs whose estimate exceeds it
            check((st == "inaccurate") == (est > float(kv["tol"])) and rc == (4 if st == "inaccurate" else 0),
                  "%s %s h=%g: status %s exit %d with err_est %g" % (model, method, h, st, rc, est))
            if why is None and r is not None:
                inside = 0.1 <= r <= 10
                known = (model, method, h) in KNOWN_MISSES
                if known and not inside:
                    print("KNOWN %s %s h=%g: err_est/err_true = %.3g (open, rt/METHODS.md)" % (model, method, h, r))
                check(inside != known, "%s %s h=%g: err_est/err_true = %.3g %s [0.1, 10]%s"
                      % (model, method, h, r, "inside" if inside else "outside",
                         " (a known miss: update KNOWN_MISSES)" if known else ""))

# the ok-while-wrong run: spook on the rigid slider crank at 1/20 s, 1 s
rc, kv = run("slider_crank", "spook", 0.05)
check(kv.get("status") == "inaccurate" and rc == 4,
      "spook slider crank 1/20 s: status=%s exit %d (want inaccurate, 4)" % (kv.get("status"), rc))
# and the same run with --tol off is ok (the tolerance, not a fault, flags it)
p = subprocess.run([SIM, "--model-file", "model/mech/slider_crank.hsm", "--method", "spook",
                    "--h", "0.05", "--t", "1", "--tol", "off"], capture_output=True, text=True)
check(p.returncode == 0 and " status=ok " in p.stdout, "spook slider crank with --tol off: exit %d" % p.returncode)

if TABLE:
    print("| model | method | h (s) | status | err_est | err_true | err_est/err_true | note |")
    print("|---|---|---|---|---|---|---|---|")
    for model, method, h, st, est, tru, r, why in rows:
        f = lambda x: "-" if x is None else "%.2e" % x
        print("| %s | %s | %g | %s | %s | %s | %s | %s |" % (model, method, h, st, f(est), f(tru),
              "-" if r is None else "%.3g" % r, why or ""))
    cal = [r for (m, me, h, _, _, _, r, why) in rows if why is None and r is not None
           and (m, me, h) not in KNOWN_MISSES]
    print("\ncalibrated rows: %d (besides the %d known misses), err_est/err_true from %.3g to %.3g"
          % (len(cal), len(KNOWN_MISSES), min(cal), max(cal)))
print("err-calibration: %d passed, %d failed" % (passes, fails))
sys.exit(1 if fails else 0)
