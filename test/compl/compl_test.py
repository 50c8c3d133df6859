#!/usr/bin/python3
"""compl_test.py - `make compliance-test`: compliant, redundant and nonholonomic constraints
(model/COMPLIANCE.md). Every number checked comes from an analytic answer, a conservation law
or the regularized-stepper paper's text (test/compl/l1_examples.py):

  static deflection   a 2 kg body hanging on a compliant pin (compliance c, near-critical
                      damping): the pin stretches by c m g, every method that honours compliance
  oscillation         the same pin undamped: the body swings between 0 and 2 c m g (energy of
                      the spring), default method
  global compliance   the pendulum model under --compliance/--damping: |x| = 1 + c m g
  refusals            negative compliance (file:line), --compliance < 0, methods that cannot
                      honour compliance (index-1, dvp, em)
  redundant rows      removed with a warning naming the joints: the rigid four-bar runs, a door
                      on two hinges of one axis steps as the one-hinge door
  four-bar            model/mech/fourbar_spatial.hsm with sdirk, galpha, spook and index-2
                      semi-implicit Euler: loop closed to c |lambda|, energy kept
  slider crank        model/mech/slider_crank_singular.hsm through 20 dead centres with the
                      default method (today's main: refused at t = 0.249 s), and rigid: refused
  rolling disk        slip <= 1e-9 m/s and energy over 100 s; contact point on its circle
  hilstep-rt          the same global compliance and spook's epsilon and tau from the plant's
                      CLI (--compliance/--damping, --spook-eps/--spook-tau): stretch c m g
  [L1]            the paper's statements about its pendulum and slider crank
Usage: compl_test.py SIM [RT]   (RT: hilstep-rt, default beside SIM)
"""
import math
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import l1_examples  # noqa: E402

SIM = sys.argv[1] if len(sys.argv) > 1 else "build/hilstep-sim"
RT = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(SIM), "hilstep-rt")
ROOT = l1_examples.ROOT
MECH = os.path.join(ROOT, "model", "mech")
npass = nfail = 0


def check(ok, what):
    global npass, nfail
    if ok:
        npass += 1
        print("ok   " + what)
    else:
        nfail += 1
        print("FAIL " + what)


def hsm(text):
    fd, p = tempfile.mkstemp(suffix=".hsm")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    return p


def raw(args):
    p = subprocess.run([SIM] + args, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


M, G, C = 2.0, 9.81, 1e-5
HANG = """model hang dim=2
gravity 0,-%g
body bob planar mass=%g inertia=0.1 pos=0,-0.5 angle=0
joint pin revolute a=bob@0,0.5 b=ground@0,0 compliance=%g damping=%s
output pos bob
""" % (G, M, C, "DAMP")


def static_deflection():
    # critical damping 2 sqrt(m/c) = 894 N s/m; 2 s is 450 time constants 1/omega
    p = hsm(HANG.replace("DAMP", "900"))
    want = C * M * G
    try:
        for meth, extra in (("sdirk", []), ("galpha", []), ("spook", ["--stab", "none"]),
                            ("symplectic", ["--form", "index2", "--stab", "projection"]),
                            ("j2", ["--form", "index2"]), ("jexact", ["--form", "index2", "--stab", "none"])):
            s, hd, rows, err = l1_examples.run_sim(SIM, ["--model-file", p, "--h", "0.001", "--t", "2", "--method", meth] + extra)
            y = rows[-1][hd.index("q2")] if rows else float("nan")
            defl = -(y + 0.5)
            check(s.get("status") == "ok" and abs(defl - want) <= 1e-6 * want,
                  "compliant pin c = %g m/N under m g = %g N, %s: static deflection %.9e m = c m g %.9e m within 1e-6"
                  % (C, M * G, meth, defl, want))
    finally:
        os.unlink(p)


def oscillation():
    # undamped: from g = 0 at rest the body swings between 0 and 2 c m g (spring energy);
    # period 2 pi sqrt(c m) = 28.1 ms, h = 0.1 ms resolves it (h omega = 0.022)
    p = hsm(HANG.replace("DAMP", "0"))
    try:
        s, hd, rows, err = l1_examples.run_sim(SIM, ["--model-file", p, "--h", "1e-4", "--t", "1"])
        d = [-(r[hd.index("q2")] + 0.5) for r in rows]
        want = 2 * C * M * G
        check(s.get("status") == "ok" and abs(max(d) - want) <= 1e-3 * want and min(d) >= -1e-3 * want,
              "undamped compliant pin, default method: swings between %.3e and %.6e m, 0 and 2 c m g = %.6e m within 0.1 %%"
              % (min(d), max(d), want))
    finally:
        os.unlink(p)


def global_compliance():
    # pendulum model (|x| - 1 in m, lambda in N), hanging: |x| = 1 + c m g; --damping critical
    c = 1e-5
    for meth, extra in (("sdirk", []), ("galpha", []), ("symplectic", ["--stab", "none"]), ("spook", ["--stab", "none"])):
        s, hd, rows, err = l1_examples.run_sim(SIM, ["--model", "pendulum", "--param", "theta0=-1.5707963267948966",
                                                 "--h", "0.001", "--t", "2", "--compliance", str(c),
                                                 "--damping", "640", "--method", meth] + extra)
        r = rows[-1] if rows else [float("nan")] * 3
        stretch = math.hypot(r[hd.index("q1")], r[hd.index("q2")]) - 1.0 if rows else float("nan")
        check(s.get("status") == "ok" and abs(stretch - c * 10.0) <= 1e-6 * c * 10.0,
              "pendulum --compliance %g --damping 640, %s: rod stretch %.9e m = c m g %.1e m within 1e-6" % (c, meth, stretch, c * 10.0))
    # spook takes its epsilon and tau from --spook-eps/--spook-tau: the same stretch
    s, hd, rows, err = l1_examples.run_sim(SIM, ["--model", "pendulum", "--param", "theta0=-1.5707963267948966",
                                             "--h", "0.001", "--t", "2", "--method", "spook", "--stab", "none",
                                             "--spook-eps", str(c), "--spook-tau", "0.0064"])
    r = rows[-1]
    stretch = math.hypot(r[hd.index("q1")], r[hd.index("q2")]) - 1.0
    check(s.get("status") == "ok" and abs(stretch - c * 10.0) <= 1e-6 * c * 10.0,
          "pendulum spook --spook-eps %g --spook-tau 0.0064: rod stretch %.9e m = eps m g within 1e-6" % (c, stretch))


def refusals():
    p = hsm(HANG.replace("compliance=%g" % C, "compliance=-1e-5").replace("DAMP", "0"))
    try:
        rc, out, err = raw(["--model-file", p, "--h", "0.001", "--t", "1"])
        check(rc == 2 and ("%s:4: field 'compliance'" % p) in err and ">= 0" in err,
              "compliance=-1e-5 refused at FILE:4 with exit 2: %s" % err.strip().splitlines()[-1][-90:])
    finally:
        os.unlink(p)
    p = hsm(HANG.replace("DAMP", "-3"))
    try:
        rc, out, err = raw(["--model-file", p, "--h", "0.001", "--t", "1"])
        check(rc == 2 and ("%s:4: field 'damping'" % p) in err, "damping=-3 refused at FILE:4 with exit 2")
    finally:
        os.unlink(p)
    for opt in ("--compliance", "--damping", "--spook-eps", "--spook-tau"):
        rc, out, err = raw(["--model", "pendulum", "--h", "0.001", "--t", "1", opt, "-1"])
        check(rc == 2 and opt in err, "%s -1 refused with exit 2 naming the option" % opt)
    sc = os.path.join(MECH, "slider_crank_singular.hsm")
    for meth, extra in (("dvp", ["--stab", "none"]), ("em", ["--stab", "none"]), ("j2", ["--form", "index1"]),
                        ("symplectic", ["--form", "index1"])):
        rc, out, err = raw(["--model-file", sc, "--h", "0.001", "--t", "1", "--method", meth] + extra)
        check(rc != 0 and "must honour them" in err and "status=" in out and "steps=0" in out,
              "compliant joints refused at init by %s %s (cannot honour compliance), not ignored" % (meth, " ".join(extra)))
    redundant()


def redundant():
    """redundant rows removed with a warning (model/COMPLIANCE.md "Redundant constraints"): the
    rigid spatial four-bar (3 of j4's rows depend on j1..j3) runs with its loop closed to
    rounding; a door on two hinges of one axis (model/mech/door.hsm plus a second hinge: all 5
    of its rows are redundant) steps bit for bit as the one-hinge door when the second hinge
    comes last, and within 1e-12 when it comes first (its rows kept, the first hinge's removed)"""
    fb = os.path.join(MECH, "fourbar_spatial.hsm")
    rc, out, err = raw(["--model-file", fb, "--h", "0.001", "--t", "1", "--param", "c=0"])
    j4line = next(i + 1 for i, l in enumerate(open(fb)) if l.startswith("joint j4 "))
    kv = dict(w.split("=", 1) for w in out.split() if "=" in w)
    want = "fourbar_spatial.hsm:%d: warning: joint 'j4': 3 redundant rows removed (they depend on: j1 j2 j3;" % j4line
    check(rc == 0 and want in err and float(kv.get("max_abs_g", "nan")) < 1e-12,
          "rigid spatial four-bar runs, max |g| %s, warning: ...%s" % (kv.get("max_abs_g"), err.strip()[:150]))
    door = os.path.join(MECH, "door.hsm")
    text = open(door).read()
    h1 = "joint hinge revolute a=door@-0.5,0,0 b=ground@0,0,1 axis=0,0,1\n"
    h2 = "joint hinge2 revolute a=door@-0.5,0,1 b=ground@0,0,2 axis=0,0,1\n"
    assert h1 in text
    rc0, out0, _ = raw(["--model-file", door, "--h", "0.001", "--t", "10", "--hash"])
    q0 = [float(w.split("=")[1]) for w in out0.split() if w[:1] in "qu" and "=" in w and w.split("=")[0][1:].isdigit()]
    with tempfile.TemporaryDirectory() as d:
        for name, t, exact in (("after", text.replace(h1, h1 + h2), 1), ("first", text.replace(h1, h2 + h1), 0)):
            f = os.path.join(d, "door2_%s.hsm" % name)
            open(f, "w").write(t)
            rc, out, err = raw(["--model-file", f, "--h", "0.001", "--t", "10", "--hash"])
            q = [float(w.split("=")[1]) for w in out.split() if w[:1] in "qu" and "=" in w and w.split("=")[0][1:].isdigit()]
            dq = max(abs(a - b) for a, b in zip(q, q0)) if len(q) == len(q0) and q else float("nan")
            gone = "hinge2" if exact else "hinge"
            ok = rc == 0 and ("warning: joint '%s': 5 redundant rows removed" % gone) in err
            if exact:
                ok = ok and out.split("\n")[0].split()[-1] == out0.split("\n")[0].split()[-1]
            check(ok and dq <= 1e-12, "door on two hinges, the second %s: %s's 5 rows removed, state at 10 s %.1e from the "
                  "one-hinge door's%s" % (name, gone, dq, " (the same trajectory hash)" if exact else ""))


def fourbar():
    fb = os.path.join(MECH, "fourbar_spatial.hsm")
    c = 1e-8
    # closure: the compliant hinge j4 (rows 16..20; j1..j3 take 1..15) stretches by c |lambda|,
    # the rigid rows stay at rounding: max |g| <= 1.1 c max |lambda_j4| for the methods whose
    # compliant rows are the spring law itself (sdirk, galpha). spook regularizes every row with
    # its epsilon 1e-8 and tau = 2 h; index-2 semi-implicit Euler adds its O(h^2) linearization
    # drift (the paper's stepper): 1e-5 m for it; spook's violation is O(h^2) by design (seed
    # 000), 1e-4 m = 100 h^2 m/s^2 here.
    # energy (40.5 J; the spring holds c lambda^2 / 2 < 1e-3 J): sdirk 1e-3 J, galpha 1e-2 J (its
    # rho_inf = 0.9 damps), the first-order ones bounded only
    for meth, extra, ebound in (("sdirk", [], 1e-3), ("galpha", [], 1e-2),
                                ("spook", ["--stab", "none"], None),
                                ("symplectic", ["--form", "index2", "--stab", "projection"], None)):
        s, hd, rows, err = l1_examples.run_sim(SIM, ["--model-file", fb, "--h", "0.001", "--t", "20", "--method", meth] + extra)
        lam = [i for i, n in enumerate(hd) if n.startswith("lam")]
        lmax = max((abs(r[i]) for r in rows for i in lam[15:20]), default=float("nan"))
        g = float(s.get("max_abs_g", "nan"))
        dE = float(s.get("max_abs_dE", "nan"))
        spring = meth in ("sdirk", "galpha")
        gb = 1.1 * c * lmax if spring else (1e-4 if meth == "spook" else 1e-5)
        # every method but sdirk is judged by err_rich (the same run at h/2; rt/METHODS.md "For
        # first-order estimates"): the loop starts at rest on its dead centre and leaves it when
        # rounding grows, at a time that differs between h and h/2, so their status is err_rich's
        rich = float(s.get("err_rich", "nan"))
        verdict = s.get("status") == "ok" if meth == "sdirk" else s.get("status") == ("ok" if rich <= 0.05 else "inaccurate")
        ok = verdict and g <= gb
        what = "spatial four-bar, %s, 20 s at 1 ms: status %s (err_rich %s), max |g| %.2e m <= %.2e m" % (
            meth, s.get("status"), s.get("err_rich", "-"), g, gb)
        what += " (1.1 c max|lambda_j4|, %.0f N)" % lmax if spring else ""
        if ebound is not None:
            ok = ok and dE <= ebound
            what += ", max |E - E0| %.2e J <= %g J" % (dE, ebound)
        else:
            what += ", max |E - E0| %.2e J (first order: not asserted)" % dE
        check(ok, what)


def slider_crank():
    s = l1_examples.slider(SIM, None, None, h=0.001, T=10.0, method=())
    check(s["summary"].get("status") == "ok" and s["summary"].get("method") == "sdirk" and s["err"] <= 1e-3,
          "shipped slider_crank_singular.hsm, default method, h = 1 ms, 10 s (20 dead centres): status %s, "
          "max |x - 2 cos wt| %.2e m <= 1e-3" % (s["summary"].get("status"), s["err"]))
    for meth in ("galpha", "j2"):
        s = l1_examples.slider(SIM, None, None, h=0.001, T=10.0, method=("--method", meth))
        check(s["summary"].get("status") == "ok" and s["err"] <= 1e-3,
              "slider_crank_singular.hsm, %s: through 20 dead centres, max |x - 2 cos wt| %.2e m" % (meth, s["err"]))
    s = l1_examples.slider(SIM, 0.0, 0.0, h=0.001, T=1.0, method=())
    check(s["summary"].get("status") == "singular" and s["summary"].get("steps") == "249",
          "the same file rigid (--param c=0): refused as singular after step 249 (t = 0.249 s), as before")


def rolling_disk():
    for meth, extra, erel in (("sdirk", [], 1e-6), ("galpha", [], None), ("symplectic", ["--form", "index2"], None)):
        s, hd, rows, err = l1_examples.run_sim(SIM, ["--model", "rolling_disk", "--h", "0.001", "--t", "100",
                                                 "--every", "10", "--method", meth] + extra)
        sx, sy, e = hd.index("out_slip_x[m/s]"), hd.index("out_slip_y[m/s]"), hd.index("out_energy[J]")
        slip = max(max(abs(r[sx]), abs(r[sy])) for r in rows)
        E0 = rows[0][e]
        dE = max(abs(r[e] - E0) for r in rows) / E0
        grow = max(r[e] for r in rows) / E0 - 1.0
        # exact: the contact point on the circle of radius R spin/turn = 2 m about (0, 2)
        rad = max(abs(math.hypot(r[hd.index("q1")], r[hd.index("q2")] - 2.0) - 2.0) for r in rows)
        # the verdict against the exact answer: a contact point more than the default --tol
        # (0.05 m) off its circle is inaccurate (symplectic: err_rich, the run at h/2 beside it)
        want = "ok" if rad <= 0.05 else "inaccurate"
        ok = s.get("status") == want and slip <= 1e-9 and grow <= 1e-9
        what = "rolling disk, %s, 100 s: status %s (contact point %.1e m off its circle), slip %.1e m/s <= 1e-9, energy max %+.1e relative (never grows)" % (meth, s.get("status"), rad, slip, grow)
        if erel is not None:
            ok = ok and dE <= erel and rad <= 1e-6
            what += ", |E - E0|/E0 %.1e <= %g, contact on its circle to %.1e m" % (dE, erel, rad)
        else:
            what += ", |E - E0|/E0 %.1e (first order, bounded)" % dE
        check(ok, what)


def rt_cli():
    # hilstep-rt steps the same library: the hanging pendulum (m g = 10 N) over 2 s of its time
    # base (ticks missed on a loaded machine are skipped, not run; the last logged state is at
    # rest long before) stretches by c m g with --compliance, by eps m g with spook's
    # --spook-eps/--spook-tau, and not at all without (rigid: the option is what stretches it).
    c = 1e-5
    free = subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "test", "linux", "free_ports.py"), "2"],
                          capture_output=True, text=True)
    base = int(free.stdout.strip() or "0")
    for label, opts, want in (("--compliance 1e-05 --damping 640 (default method)", ["--compliance", str(c), "--damping", "640"], c * 10.0),
                              ("spook --spook-eps 1e-05 --spook-tau 0.0064",
                               ["--method", "spook", "--stab", "none", "--spook-eps", str(c), "--spook-tau", "0.0064"], c * 10.0),
                              ("no compliance option (rigid rod)", [], 0.0)):
        fd, log = tempfile.mkstemp(suffix=".csv")
        os.close(fd)
        try:
            p = subprocess.run([RT, "--model", "pendulum", "--param", "theta0=-1.5707963267948966", "--duration", "2",
                                "--priority", "0", "--budget-us", "1000000", "--quiet", "--listen",
                                "127.0.0.1:%d" % base, "--peer", "127.0.0.1:%d" % (base + 1), "--log", log] + opts,
                               capture_output=True, text=True, timeout=60)
            rows = [r.split(",") for r in open(log).read().splitlines()]
            hd = rows[0]
            last = rows[-1]
            stretch = math.hypot(float(last[hd.index("q1")]), float(last[hd.index("q2")])) - 1.0
            n = len(rows) - 1
        except (OSError, ValueError, IndexError, subprocess.TimeoutExpired) as e:
            p, stretch, n = None, float("nan"), 0
            print("  hilstep-rt: %s" % e)
        tol = 1e-6 * want if want > 0 else 1e-12
        check(p is not None and p.returncode == 0 and n >= 1000 and abs(stretch - want) <= tol,
              "hilstep-rt pendulum %s: rod stretch %.9e m = %.1e m within %.0e (%d steps, exit %s)"
              % (label, stretch, want, tol, n, p.returncode if p is not None else "-"))


def seed_claims():
    out, P, S = l1_examples.claims(SIM)
    for paper, meas, ok in out:
        check(ok, "%s -> %s" % (paper, meas))


for f in (static_deflection, oscillation, global_compliance, refusals, fourbar, slider_crank, rolling_disk, rt_cli,
          seed_claims):
    f()
print("compliance-test: %d passed, %d failed" % (npass, nfail))
sys.exit(1 if nfail else 0)
