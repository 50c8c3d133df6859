#!/usr/bin/env python3
"""test/err/calib.py BUILD [--table] - the error estimate's calibration (rt/METHODS.md "The
error estimate"): err_est (the largest local position error estimate of a step) against
err_true (the largest true local position error of a step: the same step taken as 16 steps of
h/16 from the same state, hilstep-sim --err-check 16) for the shipped models, every method of
the table and a grid of step sizes. Checks 0.1 <= err_est/err_true <= 10 on the calibrated
rows, that the ok-while-wrong run (spook on the rigid slider crank at 1/20 s) is flagged by the
default --tol (status=inaccurate, exit 4) and that no run of the grid whose estimate is within
the default tolerance is flagged; and err_rich (--glob-check's estimate with the runs at h/2 and
h/4) against the true global error err_ref (--glob-ref N) on the former false alarms (ok now) and
on wrong runs near the tolerance (flagged). --table prints the markdown table rt/METHODS.md carries."""
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

# err_rich, the global estimate beside the run (--glob-check auto: the same run at h/2 and h/4,
# rt/METHODS.md "For first-order estimates"), against the true global error err_ref (--glob-ref
# N: the default method at h/N beside the run, the run's largest distance from it in err_est's
# metric), over each run: the former false alarms run ok, the wrong runs stay flagged, the
# estimate within [0.5, 2] of the true error; rich2 (Richardson's 2^p/(2^p-1) times rich_dh, the
# estimate before the run at h/4) is checked too where it read the other way, so the case
# still tells the two apart
def rich_run(args, T, n):
    p = subprocess.run([SIM] + args + ["--t", T, "--glob-ref", str(n)], capture_output=True, text=True, timeout=600)
    return p.returncode, dict(w.split("=", 1) for w in p.stdout.split() if "=" in w)
RICH = [  # args, T, N of --glob-ref, want status, the old factor (None: not checked), why
    (["--model-file", "model/mech/pendulum.hsm", "--method", "spook", "--h", "0.016666666666666666"], "10", 100,
     "ok", 2.0, "a former false alarm (err_rich 5.45e-2, the bob 3.39e-2 m off)"),
    (["--model-file", "model/mech/bead_wire.hsm", "--method", "spook", "--h", "0.016666666666666666"], "10", 100,
     "ok", 2.0, "a former false alarm (5.39e-2 against 3.35e-2)"),
    (["--model-file", "model/mech/double_spherical.hsm", "--method", "spook", "--h", "0.01"], "10", 100,
     "inaccurate", None, "a former miss (5.05e-2 off, err_rich 4.80e-2 with r = 2.77 unbounded by 2^p)"),
    (["--model-file", "model/mech/iftomm/a04_bricard.hsm", "--method", "j1", "--h", "0.001"], "10", 2,
     "inaccurate", None, "wrong at its worst joint point (5.2e-2), P3 3.8e-2: not a false alarm in err_est's metric"),
    (["--model-file", "model/mech/rigid_body.hsm", "--method", "dvp",
      "--h", "0.016666666666666666"], "10", 100, "inaccurate", None, "wrong, 5.7e-2 rad"),
    (["--model", "circular_track", "--method", "spook", "--h", "0.05"], "10", 100, "inaccurate", None, "wrong, 6.1e-2"),
    (["--model", "test_eq", "--method", "explicit", "--h", "0.016666666666666666"], "10", 100, "inaccurate", None,
     "wrong, 8.2e-2"),
]
for args, T, n, want, f_old, why in RICH:
    rc, kv = rich_run(args, T, n)
    er, eref, dh = (float(kv.get(k, "nan")) for k in ("err_rich", "err_ref", "rich_dh"))
    tol = float(kv.get("tol", "nan"))
    wrong = not (eref <= tol)
    ok = (kv.get("status"), rc) == (want, 4 if want == "inaccurate" else 0) and wrong == (want == "inaccurate") \
        and 0.5 <= er / eref <= 2
    if f_old is not None:
        ok = ok and f_old * dh > tol  # the old estimate flagged it: the case separates the two
    check(ok, "err_rich %s: %s, err_ref %.3e, err_rich %.3e (ratio %.3g in [0.5, 2]), rich_ratio %s, status %s exit %d "
          "(want %s)%s" % (" ".join(args), why, eref, er, er / eref, kv.get("rich_ratio"), kv.get("status"), rc, want,
                           "; the old estimate %.3e" % (f_old * dh) if f_old else ""))
    if not TABLE:  # the table's file is markdown alone
        print("  err_rich %s: err_ref %.3e, err_rich %.3e (%.3g), status %s" % (" ".join(args[1:4:2]), eref, er,
                                                                              er / eref, kv.get("status")))

# The car axle under symplectic Euler at 1e-2 s is flagged though its err_ref is inside the
# tolerance (4.57e-2): its 7.1 Hz mode has slipped by about a cycle in the 10 s, so the run is
# out of phase with the reference there and off by twice that mode's amplitude whatever its
# method (rt/METHODS.md "Against the true global error", test/err/car_axle_mode.py); the bound
# r <= 2^p that catches double_spherical's miss flags it. Checked: flagged, the estimate within
# [0.5, 2] of err_ref, and the mode slipped by at least half a cycle.
import os, tempfile  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import car_axle_mode as cam  # noqa: E402
with tempfile.TemporaryDirectory() as d:
    cam.run(SIM, ["--h", "0.001"], os.path.join(d, "ref.csv"))
    f0, a0 = cam.mode(os.path.join(d, "ref.csv"))
    kv = cam.run(SIM, ["--method", "symplectic", "--h", "0.01", "--glob-ref", "100"], os.path.join(d, "s.csv"))
    f1, a1 = cam.mode(os.path.join(d, "s.csv"))
er, eref, tol = (float(kv.get(k, "nan")) for k in ("err_rich", "err_ref", "tol"))
check(kv.get("status") == "inaccurate" and eref <= tol and 0.5 <= er / eref <= 2 and abs(10 * (f1 - f0)) >= 0.5
      and abs(a1 - a0) <= 0.1 * a0,
      "car axle symplectic 1e-2 s: status %s, err_ref %.3e (tol %g), err_rich %.3e, its fast mode %.3f Hz against "
      "%.3f (%.2f cycles in 10 s), amplitude %.4f against %.4f" % (kv.get("status"), eref, tol, er, f1, f0,
                                                                  10 * (f1 - f0), a1, a0))
if not TABLE:
    print("  car axle symplectic 1e-2 s: err_ref %.3e, err_rich %.3e, fast mode %.2f cycles off in 10 s, status %s"
      % (eref, er, 10 * (f1 - f0), kv.get("status")))

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
