#!/usr/bin/env python3
"""test/iftomm/check.py BUILD - the IFToMM check (make iftomm-test; model/mech/iftomm/README.md):
1. A03's reference (test/iftomm/a03_ref.c) reproduces the IVP test set's published solution
   of Andrews' mechanism at t = 0.03 s (PSIDE at tolerance 1e-14) to 1e-8 rad;
2. the description a03_andrews.hsm against that reference: the seven angles at 0.03 s with the
   default at 10 and 20 us, error below 1e-5 rad and falling as h^2 (ratio 3 to 5.5);
3. err_est against the true local error (--err-check 16) on A03 within [0.1, 10];
4. the default tolerance's verdicts: a run whose error misses the benchmark's 1e-3 bar is
   flagged (status=inaccurate, exit 4), one that meets it is not (exit 0). The two known
   misses (A02 through its flat position at 1 ms, A03 at 0.5 ms), whose local errors are small
   and estimated right while the global error grows, are reported and must stay as they are (a change fails the suite
   until KNOWN is updated: rt/METHODS.md "The error estimate")."""
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

# 4. the default tolerance flags the wrong runs and only them
def beta_err(h):
    """largest error of beta every 2 ms over 0.03 s (the benchmark's quantity), status, exit"""
    rows = subprocess.run([REF3, "0.03", "15"], capture_output=True, text=True, check=True).stdout.split("\n")
    r = [float(l.split()[1]) for l in rows if l.strip()]
    with tempfile.TemporaryDirectory() as d:
        csv = os.path.join(d, "o.csv")
        sim(A03, h, 0.03, "--tol", "off", csv=csv, every=int(round(0.002 / h)))
        q = [list(map(float, l.split(","))) for l in open(csv).read().splitlines()[1:]]
    e = max(abs(v[3] - r[i]) for i, v in enumerate(q)) if len(q) == len(r) else float("nan")
    rc, kv = sim(A03, h, 0.03)
    return e, kv.get("status"), rc

KNOWN = {("a02_fourbar2", 0.001), ("a03_andrews", 0.0005)}
for h in (1e-4, 5e-4, 1e-3):
    e, st, rc = beta_err(h)
    wrong = not (e <= BAR)
    want = ("inaccurate", 4) if wrong and ("a03_andrews", h) not in KNOWN else ("ok", 0)
    if ("a03_andrews", h) in KNOWN:
        print("KNOWN a03_andrews h=%g: status %s, beta %.2e rad off while its largest true local "
              "error (4.3e-3) is estimated right: the motion amplifies them (open)" % (h, st, e))
    check((st, rc) == want, "A03 default h=%g: beta %.2e rad off (%s the 1e-3 bar): status %s, exit %d%s" %
          (h, e, "misses" if wrong else "meets", st, rc, " (a known miss)" if ("a03_andrews", h) in KNOWN else ""))
# the A01 and A02 runs of the default whose error bench-iftomm measures (model/mech/iftomm/
# RESULTS.md): accurate ones stay ok
for f, h, T in (("a01_pendulum", 0.001, 20.0), ("a02_fourbar2", 0.0005, 20.0), ("a02_fourbar2", 0.001, 20.0)):
    rc, kv = sim("model/mech/iftomm/%s.hsm" % f, h, T)
    known = (f, h) in KNOWN
    if known:
        print("KNOWN %s h=%g: status %s with err_est %s, the point 3.4e-2 m off (open: the error "
              "grows through the flat position, whose local errors are small)" % (f, h, kv.get("status"), kv.get("err_est")))
    check((kv.get("status"), rc) == ("ok", 0), "%s default h=%g: status %s exit %d (err_est %s)%s"
          % (f, h, kv.get("status"), rc, kv.get("err_est"), " (a known miss)" if known else ""))
print("iftomm: %d passed, %d failed" % (passes, fails))
sys.exit(1 if fails else 0)
