"""l1_examples.py - the runs behind the regularized-stepper paper's examples (Lacoursiere, "A
regularized time stepper for multibody systems", sec. 6) and the numbers its text states,
shared by the compliance suite (test/compl/compl_test.py) and the figures
(test/figures/fig_compliance.py). Plain Python 3, no numpy.

Pendulum (sec. 6.1): unit mass, gravity (0, -10), |x| = 1, released horizontally, h = 1/60.
  implicit      the constraint as a penalty spring k = 1/c on a point mass
                (fig_pendulum_penalty.hsm), linearly implicit Euler with the exact Jacobian,
                velocities first (hilstep's jexact: eq. 6.3 of the paper)
  regularized   the paper's stepper eq. 4.4: semi-implicit Euler at index 2 (hilstep's
                symplectic --form index2) with the row's compliance c (--compliance c); at
                c = 0 its B = 1/h is Baumgarte's alpha = 1/h (--stab baumgarte)
Slider crank (sec. 6.2): model/mech/slider_crank_singular.hsm (crank = coupler = 1 m, driven
at 2 pi rad/s; dead centres at t = 0.25 + 0.5 k), the paper's stepper at h = 1/60 with the
joints' compliance and damping set through the file's params c and d.
"""
import csv
import math
import os
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
H60 = 1.0 / 60.0
T_PEND = 10.0           # s, 600 steps of 1/60
PENALTY_HSM = """model pendulum_penalty dim=2
param k = 100
gravity 0,-10
body bob point2 mass=1 pos=1,0
force rod spring a=bob b=ground k=k l0=1
output energy
"""
# (label, kind, c): the paper's Figs. 6.1-6.10
PEND_RUNS = [("implicit c=1e-2", "implicit", 1e-2), ("regularized c=1e-2", "regularized", 1e-2),
             ("implicit c=1e-8", "implicit", 1e-8), ("regularized c=1e-8", "regularized", 1e-8),
             ("regularized c=0", "regularized", 0.0)]
# (label, c, d): Fig. 6.13, plus the shipped file's own values at the default method and 1 ms
SC_RUNS = [("c=1e-20", 1e-20, 0.0), ("c=1e-16, d=1e14", 1e-16, 1e14)]


def run_sim(sim, args):
    """Runs hilstep-sim with args and --csv; returns (summary dict, header, rows, stderr)."""
    fd, path = tempfile.mkstemp(suffix=".csv")
    os.close(fd)
    try:
        p = subprocess.run([sim] + args + ["--csv", path], capture_output=True, text=True)
        last = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else ""
        summ = dict(kv.split("=", 1) for kv in last.split() if "=" in kv)
        summ["exit"] = p.returncode
        hdr, rows = [], []
        if os.path.getsize(path) > 0:
            with open(path) as f:
                r = list(csv.reader(f))
            hdr, rows = r[0], [[float(x) for x in row] for row in r[1:]]
        return summ, hdr, rows, p.stderr
    finally:
        os.unlink(path)


def pendulum(sim, kind, c, T=T_PEND, h=H60):
    """One pendulum run: dict with t, x, y, phi = |x| - 1, E and the summary. E is kinetic plus
    gravity, plus the spring's phi^2 / (2c) where the spring is soft enough to be part of the
    model (c >= 1e-4: at c = 1e-2 it holds up to 3.6 J). At c = 1e-8 the exact compliant motion
    stores below 0.02 J there, while the regularized stepper's phi is its O(h^2) linearization
    drift (2.8e-3 m at h = 1/60), whose phi^2 / (2c) would be a meaningless 400 J."""
    if kind == "implicit":
        fd, hsm = tempfile.mkstemp(suffix=".hsm")
        with os.fdopen(fd, "w") as f:
            f.write(PENALTY_HSM)
        try:
            s, hd, rows, err = run_sim(sim, ["--model-file", hsm, "--param", "k=%.17g" % (1.0 / c),
                                             "--h", repr(h), "--t", repr(T), "--method", "jexact"])
        finally:
            os.unlink(hsm)
    else:
        args = ["--model", "pendulum", "--h", repr(h), "--t", repr(T), "--method", "symplectic"]
        args += ["--stab", "none", "--compliance", "%.17g" % c] if c > 0 else ["--stab", "baumgarte"]
        s, hd, rows, err = run_sim(sim, args)
    iq1, iq2, iu1, iu2 = hd.index("q1"), hd.index("q2"), hd.index("u1"), hd.index("u2")
    out = {"t": [], "x": [], "y": [], "phi": [], "E": [], "summary": s, "stderr": err}
    for r in rows:
        x, y = r[iq1], r[iq2]
        phi = math.hypot(x, y) - 1.0
        E = 0.5 * (r[iu1] ** 2 + r[iu2] ** 2) + 10.0 * y + (0.5 * phi * phi / c if c >= 1e-4 else 0.0)
        for k, v in (("t", r[0]), ("x", x), ("y", y), ("phi", phi), ("E", E)):
            out[k].append(v)
    return out


def t_vertical(run):
    """First time the pendulum, released at x = 1, reaches x <= 0 (s), or None."""
    return next((t for t, x in zip(run["t"], run["x"]) if x <= 0.0), None)


def slider(sim, c, d, h=H60, T=10.0, method=("--method", "symplectic", "--stab", "none")):
    """Slider crank: dict with t, x (slider), err = max |x - 2 cos(2 pi t)|, the summary."""
    path = os.path.join(ROOT, "model", "mech", "slider_crank_singular.hsm")
    args = ["--model-file", path, "--h", repr(h), "--t", repr(T)] + list(method)
    if c is not None:
        args += ["--param", "c=%.17g" % c, "--param", "d=%.17g" % d]
    s, hd, rows, err = run_sim(sim, args)
    ix = hd.index("q7") if hd else 0
    out = {"t": [r[0] for r in rows], "x": [r[ix] for r in rows], "summary": s, "stderr": err}
    out["err"] = max((abs(x - 2 * math.cos(2 * math.pi * t)) for t, x in zip(out["t"], out["x"])), default=float("nan"))
    return out


def claims(sim):
    """The paper's statements about its examples, each with hilstep's number: a list of
    (what the paper says, what hilstep measured, holds) tuples, and the runs behind them."""
    P = {lab: pendulum(sim, kind, c) for lab, kind, c in PEND_RUNS}
    S = {lab: slider(sim, c, d) for lab, c, d in SC_RUNS}
    out = []
    tv = t_vertical(P["implicit c=1e-8"])
    out.append(("6.1: implicit, c = 1e-8: more than 5 s to drop from horizontal to vertical",
                "first x <= 0 at t = %s s" % (None if tv is None else "%.3f" % tv), tv is not None and tv > 5.0))
    tr = t_vertical(P["regularized c=1e-8"])
    out.append(("6.1: regularized, c = 1e-8: keeps going (the drop takes a quarter period, < 1 s)",
                "first x <= 0 at t = %.3f s, energy at 10 s %.3f J of 0" % (tr, P["regularized c=1e-8"]["E"][-1]),
                tr is not None and tr < 1.0 and abs(P["regularized c=1e-8"]["E"][-1]) < 0.1))
    Ei, Er = P["implicit c=1e-2"]["E"][-1], P["regularized c=1e-2"]["E"][-1]
    out.append(("6.1: c = 1e-2: the regularized stepper dissipates far less energy than the implicit one",
                "energy lost in 10 s: implicit %.2f J, regularized %.2f J (of 10 J available)" % (-Ei, -Er), -Ei > 2 * -Er))
    r0, r8 = P["regularized c=0"], P["regularized c=1e-8"]
    dmax = max(max(abs(a - b) for a, b in zip(r0["x"], r8["x"])), max(abs(a - b) for a, b in zip(r0["y"], r8["y"])))
    phimax = max(abs(p) for p in r0["phi"])
    out.append(("6.1: the regularized stepper handles c = 0 (Figs. 6.9, 6.10)",
                "c = 0 runs 600 steps (status %s), max |phi| %.2e m, within %.1e m of c = 1e-8" % (r0["summary"].get("status"), phimax, dmax),
                r0["summary"].get("status") == "ok" and phimax < 5e-3 and dmax < 1e-4))
    s20, s16 = S["c=1e-20"], S["c=1e-16, d=1e14"]
    out.append(("6.2: slider crank, c = 1e-20: stuck at the singular points",
                "status %s at t = %s s (the dead centre t = 0.25 s)" % (s20["summary"].get("status"), s20["summary"].get("t")),
                s20["summary"].get("status") == "singular" and abs(float(s20["summary"].get("t", "nan")) - 0.25) < 1e-9))
    out.append(("6.2: c = 1e-16 with damping: passes, smooth sinusoidal motion of the load",
                "status %s over 10 s (20 dead centres), max |x - 2 cos wt| = %.3g m" % (s16["summary"].get("status"), s16["err"]),
                s16["summary"].get("status") == "ok" and s16["err"] < 0.05))
    return out, P, S
