#!/usr/bin/env python3
"""test/iftomm/check.py BUILD - the IFToMM check (make iftomm-test; model/mech/iftomm/README.md):
1. A03's reference (test/iftomm/a03_ref.c) reproduces the IVP test set's published solution
   of Andrews' mechanism at t = 0.03 s (PSIDE at tolerance 1e-14) to 1e-8 rad;
2. the description a03_andrews.hsm against that reference: the seven angles at 0.03 s with the
   default at 10 and 20 us, error below 1e-5 rad and falling as h^2 (ratio 3 to 5.5);
3. err_est against the true local error (--err-check 16) on A03 within [0.1, 10];
4. the verdicts on A03 at the default tolerance (0.05) and at the benchmark's 1e-3 bar: a run
   whose error misses the tolerance is flagged (status=inaccurate, exit 4), one that meets it is
   not (exit 0); err_glob against the error within [0.1, 10]; the one wrong verdict left (a
   false alarm at 1e-3, 0.1 ms) is reported and must stay as it is (KNOWN);
5. A02 through its flat positions within 1e-3 m at every h from 0.25 to 2 ms, the error growing
   with h, every run ok; the accurate A01 and A02 runs stay ok;
6. a first-order method's global error on A01 over 20 s (--glob-check auto: the same run at h/2
   and h/4 beside it, err_rich): a wrong run flagged, a right one not, err_rich within [0.5, 2] of the
   error against the reference; --glob-check off and --tol off leave the old verdict;
7. A05's reference (test/iftomm/a05_ref.c) converged (1e-5 against 2e-5 s); the description
   against it: s and the shaft's angle within 1e-3 at 1 and 2 ms under the default, ok, the
   error falling as h^2, and not with K halved (a wrong model); the explicit Euler family
   refuses its steps (never ok);
8. A04 (Bricard) with spook at 2 ms: err_rich, in err_est's metric (a body's error at its named
   points), at least P3's error (within [1, 3]) and the wrong run flagged at --tol 2e-3."""
import math, os, subprocess, sys, tempfile

B = sys.argv[1] if len(sys.argv) > 1 else "build"
SIM, REF3 = B + "/hilstep-sim", B + "/iftomm-a03-ref"
A03 = "model/mech/iftomm/a03_andrews.hsm"
BAR = 1e-3
fails = passes = 0

def check(ok, what):
    global fails, passes
    print(("ok   " if ok else "FAIL ") + what)
    if ok: passes += 1
    else: fails += 1

def sim(path, h, T, *extra, csv=None, every=1):
    args = [SIM, "--model-file", path, "--h", repr(h), "--t", repr(T), *extra]
    if csv: args += ["--csv", csv, "--every", str(every)]
    p = subprocess.run(args, capture_output=True, text=True, timeout=120)
    return p.returncode, dict(w.split("=", 1) for w in p.stdout.split() if "=" in w)

def rel_angles(kv):
    """the test set's seven relative angles from the description's q (K1..K7: x, y, theta)"""
    th = [float(kv["q%d" % (3 * i + 3)]) for i in range(7)]
    return [th[0], th[1] - th[0], th[2], th[3] - th[4], th[4], th[5] - th[6], th[6]]

# 1. the reference against the published solution
p = subprocess.run([REF3, "--check"], capture_output=True, text=True)
check(p.returncode == 0, p.stdout.strip())
ref = [float(x) for x in subprocess.run([REF3, "0.03", "1"], capture_output=True, text=True,
                                          check=True).stdout.splitlines()[-1].split()[1:]]

# 2. the description converges to it at second order
errs = []
for h in (1e-5, 2e-5):
    rc, kv = sim(A03, h, 0.03, "--tol", "off")
    errs.append(max(abs(a - b) for a, b in zip(rel_angles(kv), ref)))
check(errs[0] < 1e-5 and 3.0 <= errs[1] / errs[0] <= 5.5,
      "A03 description against the reference at 0.03 s: %.2e rad (10 us), %.2e (20 us), ratio %.2f"
      % (errs[0], errs[1], errs[1] / errs[0]))

# 3. err_est tracks the true local error
for h in (1e-4, 5e-4, 1e-3):
    rc, kv = sim(A03, h, 0.03, "--tol", "off", "--err-check", "16")
    r = float(kv["err_est"]) / float(kv["err_true"])
    check(0.1 <= r <= 10, "A03 default h=%g: err_est %s, true local error %s, ratio %.3g in [0.1, 10]"
          % (h, kv["err_est"], kv["err_true"], r))

# 4. the verdicts: a run whose error misses the tolerance it is given is flagged
# (status=inaccurate, exit 4), one that meets it is not (exit 0); at the default (0.05) and at
# the benchmark's 1e-3 bar (--tol 1e-3). err_est judges every step's local error, err_glob
# (hilstep-sim) their sum as the motion speeds up (rt/METHODS.md "The global estimate").
def beta_err(h, tol):
    """largest error of beta every 2 ms over 0.03 s (the benchmark's quantity), the run's
    result line and exit code under --tol tol"""
    rows = subprocess.run([REF3, "0.03", "15"], capture_output=True, text=True, check=True).stdout.split("\n")
    r = [float(l.split()[1]) for l in rows if l.strip()]
    with tempfile.TemporaryDirectory() as d:
        csv = os.path.join(d, "o.csv")
        sim(A03, h, 0.03, "--tol", "off", csv=csv, every=int(round(0.002 / h)))
        q = [list(map(float, l.split(","))) for l in open(csv).read().splitlines()[1:]]
    e = max(abs(v[3] - r[i]) for i, v in enumerate(q)) if len(q) == len(r) else float("nan")
    rc, kv = sim(A03, h, 0.03, "--tol", repr(tol))
    return e, kv, rc

# the one wrong verdict left (over the 7 runs below): at --tol 1e-3, 0.1 ms is 2.15e-4 rad off
# and its err_glob 1.43e-3 (6.6 times that: the sum of the local errors, which partly cancel);
# reported, and a change fails the suite until this list is updated
KNOWN = {(0.0001, 0.001)}
for tol in (0.05, 0.001):
    for h in ((1e-4, 5e-4, 1e-3) if tol == 0.05 else (5e-5, 1e-4, 5e-4, 1e-3)):
        e, kv, rc = beta_err(h, tol)
        st = kv.get("status")
        wrong = not (e <= tol)
        want = ("inaccurate", 4) if wrong != ((h, tol) in KNOWN) else ("ok", 0)
        if (h, tol) in KNOWN:
            print("KNOWN A03 h=%g --tol %g: status %s with beta %.2e rad off, err_glob %s (a false alarm, open)"
                  % (h, tol, st, e, kv.get("err_glob")))
        check((st, rc) == want, "A03 default h=%g --tol %g: beta %.2e rad off (%s it), err_est %s, err_glob %s: "
              "status %s, exit %d%s" % (h, tol, e, "misses" if wrong else "meets", kv.get("err_est"),
                                        kv.get("err_glob"), st, rc, " (known)" if (h, tol) in KNOWN else ""))
        if tol == 0.05:
            r = float(kv["err_glob"]) / e
            check(0.1 <= r <= 10, "A03 default h=%g: err_glob %s against beta's error %.3e: ratio %.3g in [0.1, 10]"
                  % (h, kv["err_glob"], e, r))

# The N-four-bar through its flat positions (A02, reference test/iftomm/ref.c): the default
# within the benchmark's 1e-3 m at every h from 0.25 to 2 ms, the error growing with h, and
# every run ok (the bounded refinement of sdirk's stages, rt/METHODS.md "Through a dependent
# position"; before it: 3.4e-2 m at 1 ms, ok while wrong).
def a02_err(h):
    ref = [tuple(map(float, l.split())) for l in subprocess.run(
        [B + "/iftomm-ref", repr(3.5 * 9.81 / 3.0), repr(math.pi / 2), "-1.0", "20.0", "400"],
        capture_output=True, text=True, check=True).stdout.splitlines()]
    with tempfile.TemporaryDirectory() as d:
        csv = os.path.join(d, "o.csv")
        rc, kv = sim("model/mech/iftomm/a02_fourbar2.hsm", h, 20.0, csv=csv, every=int(round(0.05 / h)))
        rows = [list(map(float, l.split(",")))[1:] for l in open(csv).read().splitlines()[1:]]
    e = max(math.hypot(v[0] + 0.5 * math.cos(v[2]) - r[1], v[1] + 0.5 * math.sin(v[2]) - r[2])
            for v, r in zip(rows, ref)) if len(rows) == len(ref) else float("nan")
    return e, kv, rc
prev = 0.0
for h in (0.00025, 0.0005, 0.001, 0.00125, 0.002):
    e, kv, rc = a02_err(h)
    check(e <= BAR and e > prev and (kv.get("status"), rc) == ("ok", 0),
          "A02 default h=%g: B0 %.2e m off at most (within 1e-3, above the shorter step's %.2e), status %s, "
          "exit %d, err_glob %s" % (h, e, prev, kv.get("status"), rc, kv.get("err_glob")))
    prev = e
# the A01 and A02 runs of the default whose error bench-iftomm measures (model/mech/iftomm/
# RESULTS.md), accurate: stay ok
for f, h, T in (("a01_pendulum", 0.001, 20.0), ("a02_fourbar2", 0.0005, 20.0)):
    rc, kv = sim("model/mech/iftomm/%s.hsm" % f, h, T)
    check((kv.get("status"), rc) == ("ok", 0), "%s default h=%g: status %s exit %d (err_est %s, err_glob %s)"
          % (f, h, kv.get("status"), rc, kv.get("err_est"), kv.get("err_glob")))

# 6. first-order methods' global error: err_rich against the reference on A01 (the point, m)
def a01_err(method, h, *extra):
    ref = [tuple(map(float, l.split())) for l in subprocess.run(
        [B + "/iftomm-ref", "9.81", "0.0", "0.0", "20.0", "40"],
        capture_output=True, text=True, check=True).stdout.splitlines()]
    with tempfile.TemporaryDirectory() as d:
        csv = os.path.join(d, "o.csv")
        rc, kv = sim("model/mech/iftomm/a01_pendulum.hsm", h, 20.0, "--method", method, *extra, csv=csv,
                     every=int(round(0.5 / h)))
        rows = [list(map(float, l.split(",")))[1:] for l in open(csv).read().splitlines()[1:]]
    e = max(math.hypot(v[0] - r[1], v[1] - r[2]) for v, r in zip(rows, ref)) if len(rows) == len(ref) else float("nan")
    return e, kv, rc
for method, h in (("symplectic", 0.001), ("symplectic", 0.0005), ("spook", 0.001), ("spook", 0.002)):
    e, kv, rc = a01_err(method, h)
    er = float(kv.get("err_rich", "nan"))
    want = ("ok", 0) if e <= 0.05 else ("inaccurate", 4)
    check((kv.get("status"), rc) == want and 0.5 <= er / e <= 2,
          "A01 %s h=%g: the point %.3e m off, err_rich %.3e (ratio %.3g in [0.5, 2]), status %s exit %d (want %s), "
          "err_glob %s" % (method, h, e, er, er / e, kv.get("status"), rc, want[0], kv.get("err_glob")))
e, kv, rc = a01_err("symplectic", 0.001, "--glob-check", "off")
# without the companions the per-step estimate alone said ok on this run, 0.95 m off; the
# description's release() (m g L = 9.81 J) now judges its energy error, 11.7 % of it
check((kv.get("status"), rc) == ("inaccurate", 4) and "err_rich" not in kv and e > 0.05
      and float(kv.get("rel_dE", "nan")) > 0.1 and float(kv.get("release", "nan")) == 9.81,
      "A01 symplectic h=0.001 --glob-check off: %.3e m off, status %s exit %d, no err_rich, flagged by its energy "
      "(rel_dE %s of release %s)" % (e, kv.get("status"), rc, kv.get("rel_dE"), kv.get("release")))
rc, kv = sim("model/mech/iftomm/a01_pendulum.hsm", 0.001, 1.0, "--method", "symplectic", "--tol", "off")
check(rc == 0 and "err_rich" not in kv, "A01 symplectic --tol off: no companion run (exit %d, err_rich %s)"
      % (rc, kv.get("err_rich")))
rc, kv = sim("model/mech/iftomm/a01_pendulum.hsm", 0.001, 1.0, "--glob-check", "on")
check(rc == 0 and "err_rich" in kv and float(kv["err_rich"]) < 1e-4,
      "A01 default (sdirk) --glob-check on over 1 s: err_rich %s (the distance from the runs at h/2 and h/4 "
      "extrapolated), exit %d"
      % (kv.get("err_rich"), rc))
# --glob-check on for second-order estimates: err_rich judges in place of err_glob, right where
# the sum misjudges (RESULTS.md: em on A03 at 0.5 ms, a false alarm; galpha on A02 at 2 ms, a miss)
rows = [list(map(float, l.split())) for l in subprocess.run([REF3, "0.03", "15"], capture_output=True,
        text=True, check=True).stdout.splitlines()]
with tempfile.TemporaryDirectory() as d:
    csv = os.path.join(d, "o.csv")
    rc, kv = sim(A03, 0.0005, 0.03, "--method", "em", "--glob-check", "on", csv=csv, every=4)
    qs = [list(map(float, l.split(",")))[1:] for l in open(csv).read().splitlines()[1:]]
e = max(abs(q[2] - r[1]) for q, r in zip(qs, rows)) if len(qs) == len(rows) else float("nan")
er = float(kv.get("err_rich", "nan"))
check((kv.get("status"), rc) == ("ok", 0) and e <= 0.05 and 0.5 <= er / e <= 2,
      "A03 em h=0.0005 --glob-check on: beta %.3e rad off, err_rich %.3e (ratio %.3g), status %s exit %d "
      "(err_glob %s does not judge)" % (e, er, er / e, kv.get("status"), rc, kv.get("err_glob")))
ref = [tuple(map(float, l.split())) for l in subprocess.run(
    [B + "/iftomm-ref", repr(3.5 * 9.81 / 3.0), repr(math.pi / 2), "-1.0", "20.0", "400"],
    capture_output=True, text=True, check=True).stdout.splitlines()]
with tempfile.TemporaryDirectory() as d:
    csv = os.path.join(d, "o.csv")
    rc, kv = sim("model/mech/iftomm/a02_fourbar2.hsm", 0.002, 20.0, "--method", "galpha", "--glob-check", "on",
                 csv=csv, every=25)
    qs = [list(map(float, l.split(",")))[1:] for l in open(csv).read().splitlines()[1:]]
e = max(math.hypot(v[0] + 0.5 * math.cos(v[2]) - r[1], v[1] + 0.5 * math.sin(v[2]) - r[2])
        for v, r in zip(qs, ref)) if len(qs) == len(ref) else float("nan")
er = float(kv.get("err_rich", "nan"))
check((kv.get("status"), rc) == ("inaccurate", 4) and e > 0.05 and 0.5 <= er / e <= 2,
      "A02 galpha h=0.002 --glob-check on: B0 %.3e m off, err_rich %.3e (ratio %.3g), status %s exit %d"
      % (e, er, er / e, kv.get("status"), rc))
# 7. A05, the stiff flyball governor (model/mech/iftomm/a05_flyball.hsm) against its reference in
# four generalized coordinates (test/iftomm/a05_ref.c, RK4 at 1e-5 s, which --check compares with
# 2e-5 s): the slider's height s (the benchmark's quantity) and the shaft's angle every 10 ms
# over the first second (one oscillation of the governor; make bench-iftomm runs the 10 s).
# The default within the benchmark's 1e-3 m (rad) at 1 and 2 ms, ok (at 1 ms under --tol 1e-3,
# the bar itself), and its error falling as h^2. The bar alone cannot tell a wrong stiffness: the couplers are so stiff that halving K
# moves s by 1.5e-4 m over the second, inside 1e-3; the order can:
# with K = 4e5 N/m the error stays the model's difference at both h (ratio near 1), and this
# check fails it. Explicit and symplectic Euler, far beyond their stability limit (the dampers' rate
# on the slider, 2 C (dd/ds)^2 / m_sl = 6.7e3 1/s, against 2 / h = 2e3 at 1 ms), refuses its
# steps and never says ok.
A05, T5, N5 = "model/mech/iftomm/a05_flyball.hsm", 1.0, 100
p = subprocess.run([B + "/iftomm-a05-ref", "--check", repr(T5), str(N5)], capture_output=True, text=True)
lines5 = p.stdout.splitlines()
check(p.returncode == 0 and len(lines5) == N5 + 2, lines5[-1] if lines5 else "a05_ref --check: no output")
ref5 = [list(map(float, l.split())) for l in lines5[:-1]]

def a05_err(h, *extra):
    """largest error of s (m) and of the shaft's angle (rad, modulo 2 pi) every 10 ms over T5,
    the run's result line and exit code"""
    with tempfile.TemporaryDirectory() as d:
        csv = os.path.join(d, "o.csv")
        rc, kv = sim(A05, h, T5, *extra, csv=csv, every=int(round(T5 / N5 / h)))
        lines = open(csv).read().splitlines() if os.path.exists(csv) else []
    if len(lines) != N5 + 2:
        return float("nan"), float("nan"), kv, rc
    hdr = lines[0].split(",")
    iz, ia = hdr.index("out_slider.z[m]"), hdr.index("out_shaft_hinge.angle[rad]")
    rows = [list(map(float, l.split(","))) for l in lines[1:]]
    es = max(abs(v[iz] - r[1]) for v, r in zip(rows, ref5))
    ep = max(abs(math.remainder(v[ia] - r[2], 2 * math.pi)) for v, r in zip(rows, ref5))
    kv["err_est_10ms"] = rows[1][hdr.index("err_est")]  # the running largest estimate at t = 10 ms
    return es, ep, kv, rc
for K, right in (("8e5", True), ("4e5", False)):
    e5 = {}
    for h in (0.002, 0.001):  # the description as it is, then with K halved; 1 ms at the bar
        tol = ("--tol", repr(BAR)) if h == 0.001 else ()
        es, ep, kv, rc = a05_err(h, *(tol + (() if right else ("--param", "K=" + K))))
        e5[h] = es
        if right:
            check(es <= BAR and ep <= BAR and (kv.get("status"), rc) == ("ok", 0),
                  "A05 default h=%g%s: s %.2e m off at most, shaft angle %.2e rad (bar 1e-3), status %s exit %d, "
                  "err_est %s, err_glob %s" % (h, " --tol 1e-3" if tol else "", es, ep, kv.get("status"), rc,
                                               kv.get("err_est"), kv.get("err_glob")))
            # the global error is the local ones added up (err_glob, judged for sdirk); err_est,
            # the largest local one, is the start's: the couplers' transient sets it within 10 ms
            # and no later step exceeds it (rt/METHODS.md "The error estimate", A05)
            eg, e = float(kv.get("err_glob", "nan")), max(es, ep)
            check(0.5 <= eg / e <= 2 and kv.get("err_est_10ms") is not None
                  and float(kv["err_est_10ms"]) == float(kv.get("err_est", "nan")),
                  "A05 default h=%g over 1 s: err_glob %.3e against the error %.3e (ratio %.3g in [0.5, 2]); "
                  "err_est %s, set by t = 10 ms (%s there)" % (h, eg, e, eg / e, kv.get("err_est"), kv.get("err_est_10ms")))
    r5 = e5[0.002] / e5[0.001]
    conv = 3.0 <= r5 <= 5.5
    check(conv == right, "A05 default, %s: s %.2e m off at 2 ms, %.2e at 1 ms, ratio %.2f %s [3, 5.5]%s"
          % ("the description as it is" if right else "with K = 4e5 N/m (a wrong model; the benchmark's 8e5)",
             e5[0.002], e5[0.001], r5,
             "in" if conv else "outside", "" if right else ": not the reference's motion, failed"))
for method in ("explicit", "symplectic"):
    rc, kv = sim(A05, 0.001, 0.1, "--method", method)
    check(kv.get("status") != "ok" and rc != 0, "A05 %s h=0.001: status %s, exit %d after %s steps (not ok)"
          % (method, kv.get("status"), rc, kv.get("steps")))
# A04, Bricard's mechanism (model/mech/iftomm/a04_bricard.hsm): the reference
# (test/iftomm/a04_ref.c: one coordinate, RK4; cached by make at 2 ms and 4 ms) converged and
# conservative; the parser's warning names the removed row; the default at 1 ms over the
# benchmark's 10 s puts P3 within the benchmark's 1e-3 m of the reference at 200 outputs, its
# energy within 1e-5 J of the start, status ok; a rod's mass changed (CD, 1.1 kg) misses the bar.
def a04_p3(row, h):
    """P3 (rod BC's lower end, BC@0,-0.5,0) and the energy from a CSV row of a04_bricard.hsm"""
    g = lambda c: float(row[h.index(c)])
    w, a, b, c = (g("out_BC.p%d[1]" % i) for i in range(4))
    col = (2 * (a * b - w * c), 1 - 2 * (a * a + c * c), 2 * (b * c + w * a))    # R e_y
    return [g("out_BC.%s[m]" % k) - 0.5 * col[i] for i, k in enumerate("xyz")], g("out_energy[J]")

def a04_run(path, h, T, *extra):
    """largest distance of P3 from the reference every 0.05 s over T, energy variation, the
    result line, exit code and stderr"""
    ref = [list(map(float, l.split())) for l in open(B + "/iftomm-a04-ref.txt")]
    with tempfile.TemporaryDirectory() as d:
        csv = os.path.join(d, "o.csv")
        p = subprocess.run([SIM, "--model-file", path, "--h", repr(h), "--t", repr(T), "--csv", csv,
                            "--every", str(int(round(0.05 / h))), *extra], capture_output=True, text=True, timeout=120)
        rows = [l.split(",") for l in open(csv).read().splitlines()] if os.path.exists(csv) else [[]]
    kv = dict(w.split("=", 1) for w in p.stdout.split() if "=" in w)
    pts = [a04_p3(r, rows[0]) for r in rows[1:]]
    n = int(round(T / 0.05)) + 1
    e = max(math.dist(q, r[1:4]) for (q, _), r in zip(pts, ref)) if len(pts) == n else float("nan")
    de = max(abs(en - pts[0][1]) for _, en in pts) if pts else float("nan")
    return e, de, kv, p.returncode, p.stderr

def a04_checks():
    ref = [list(map(float, l.split())) for l in open(B + "/iftomm-a04-ref.txt")]
    ref2 = [list(map(float, l.split())) for l in open(B + "/iftomm-a04-ref-2h.txt")]
    dref = max(math.dist(a[1:4], b[1:4]) for a, b in zip(ref, ref2))
    dE = max(abs(r[4] - ref[0][4]) for r in ref + ref2)
    res = max(r[5] for r in ref + ref2)
    check(len(ref) == len(ref2) == 201 and dref < 1e-9 and dE < 1e-9 and res < 1e-12,
          "A04 reference: P3 at 2 ms and 4 ms within %.1e m over 10 s (below 1e-9), energy within %.1e J, "
          "loop closed to %.1e m" % (dref, dE, res))
    A04 = "model/mech/iftomm/a04_bricard.hsm"
    e, de, kv, rc, err = a04_run(A04, 0.001, 10.0)
    # one row of the loop's closing hinge, depending on all six hinges (and the rods' norm rows)
    check("joint 'F': 1 redundant row removed (it depends on: A B C D E F " in err,
          "A04: the parser removes one row of F with a warning naming the loop's joints (%s)"
          % err.strip().split(": warning: ")[-1][:90])
    check(e <= BAR and de <= 1e-5 and (kv.get("status"), rc) == ("ok", 0),
          "A04 default h=0.001 over 10 s: P3 %.2e m off at most (within 1e-3), energy variation %.2e J (within 1e-5), "
          "status %s exit %d, err_est %s, err_glob %s" % (e, de, kv.get("status"), rc, kv.get("err_est"), kv.get("err_glob")))
    with tempfile.TemporaryDirectory() as d:
        bad = os.path.join(d, "a04_wrong.hsm")
        src = open(A04).read()
        assert "body CD spatial mass=1 " in src
        open(bad, "w").write(src.replace("body CD spatial mass=1 ", "body CD spatial mass=1.1 "))
        e, de, kv, rc, err = a04_run(bad, 0.001, 2.5)
    check(e > BAR, "A04 with rod CD at 1.1 kg (a wrong model) over 2.5 s: P3 %.2e m off, above the bar (status %s: the "
          "run itself is right)" % (e, kv.get("status")))
a04_checks()

# 8. err_rich where the benchmark's point is off a body's centre (rt/METHODS.md "At the points a
# description names"): spook on A04 at 2 ms over 10 s, P3 (0.5 m from rod BC's centre) against
# the reference every 0.05 s. A turn th of BC moves P3 by 0.5 th while its quaternion's
# components move by th / 2, so q's largest component read 0.76 of P3's error (err_rich
# 1.66e-3 against 2.18e-3 before the metric: ok at --tol 2e-3 while wrong). In the metric the
# estimate is at least the error (upper-bound-like: [1, 3]) and the run is flagged.
def a04_spook_check():
    e, de, kv, rc, err = a04_run("model/mech/iftomm/a04_bricard.hsm", 0.002, 10.0, "--method", "spook",
                                 "--tol", "2e-3")
    er = float(kv.get("err_rich", "nan"))
    check(e > 2e-3 and 1.0 <= er / e <= 3.0 and (kv.get("status"), rc) == ("inaccurate", 4),
          "A04 spook h=0.002 --tol 2e-3 over 10 s: P3 %.3e m off (misses 2e-3), err_rich %.3e (ratio %.3g in [1, 3]), "
          "status %s exit %d (want inaccurate 4)" % (e, er, er / e, kv.get("status"), rc))
a04_spook_check()
print("iftomm: %d passed, %d failed" % (passes, fails))
sys.exit(1 if fails else 0)
