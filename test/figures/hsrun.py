"""hsrun.py - shared helpers of the figure scripts and the figures check (plain Python 3).

Runs build/hilstep-sim through its command-line contract, reads its CSV and its final
key=value line, classifies test-equation runs as stable/unstable, and holds the analytic
stability boundaries of [BAE] section 2 and the run configurations that both
make_figures.py and check.py use (so the check tests exactly what the figures show).
No numpy, no matplotlib here.
"""
import math
import os
import shutil
import subprocess
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor

# ---------------------------------------------------------------------------------------
# Configurations shared by the figures and the check.

# Fig. 1: test equation q'' = -a q - b q' on a grid of (h^2 a, h b) at fixed h.
FIG1_H = 1e-3                 # s
FIG1_STEPS = 10000            # steps per run (10 s of simulated time at h = 1 ms)
FIG1_GROWTH = 1e6             # unstable when the scaled state grows by more than this factor
FIG1_METHODS = ["explicit", "j1", "j2", "j3", "jexact"]
FIG1_A_MAX = 12.0             # max of h^2 a
FIG1_B_MAX = 5.0              # max of h b

# Fig. 5/6/8: car axle, J2, the six formulation/stabilization pairs, h in 1-2-5 steps so
# that t = 3 is reached by a whole number of steps.
CAR_T = 3.0
CAR_METHOD = "j2"
CAR_COMBOS = [("index1", "none"), ("index2", "none"),
              ("index1", "baumgarte"), ("index2", "baumgarte"),
              ("index1", "projection"), ("index2", "projection")]
CAR_H = [1e-4, 2e-4, 5e-4, 1e-3, 2e-3, 5e-3, 1e-2]
# Expected orders of max |g| on [0, 3] (paper sec. 4.2, Fig. 6).
EXPECTED_SLOPE = {"none": 1.0, "baumgarte": 2.0, "projection": 3.0}
# Small steps on which the unstabilized drift is checked for its asymptotic order (the index-1
# drift of the positions-first methods grows superlinearly in h above ~1 ms, see README).
ASYM_H = [1e-5, 2e-5, 5e-5, 1e-4]
# Points whose max |g| is below this are at the round-off floor and left out of the fits.
G_FLOOR = 1e-13

CAR_REF_T3 = [4.9345578427556290e-02, 4.9698946023033241e-01, 1.0417425248854000e+00,
              3.7391102726522141e-01, -7.7058368403214852e-02, 7.4468665963277761e-03,
              1.7556815749428991e-02, 7.7034104377940305e-01]

HERE = os.path.dirname(os.path.abspath(__file__))


# ---------------------------------------------------------------------------------------
# Running the simulator.

class Sim:
    """Runs hilstep-sim; each run writes its CSV into a private temporary directory."""

    def __init__(self, exe, workers=None):
        self.exe = os.path.abspath(exe)
        if not os.access(self.exe, os.X_OK):
            raise SystemExit("hilstep-sim not found or not executable: %s" % self.exe)
        self.tmp = tempfile.mkdtemp(prefix="hs-fig-")
        self.workers = workers or max(1, min(2, os.cpu_count() or 1))
        self._n = 0
        self._lock = threading.Lock()
        self.runs = 0

    def close(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def _csvname(self):
        with self._lock:
            self._n += 1
            return os.path.join(self.tmp, "r%d.csv" % self._n)

    def run(self, model, method, form="index2", stab="none", h=1e-3, t=1.0, params=None,
            every=1, csv=True, keep_csv=None, extra=(), allow_refused=False):
        """One run. Returns dict(kv=final key=value pairs, rc=exit code, cols=header list,
        rows=list of float lists or None, cmd=argument list). allow_refused: a configuration
        the simulator refuses (exit 2, e.g. Baumgarte defaults outside the method's stability
        region) comes back as status "refused" with no rows instead of raising."""
        cmd = [self.exe, "--model", model]
        for k, v in (params or {}).items():
            cmd += ["--param", "%s=%s" % (k, repr(float(v)))]
        cmd += ["--method", method, "--form", form, "--stab", stab,
                "--h", repr(float(h)), "--t", repr(float(t))]
        # The figures judge accuracy themselves (many runs are deliberately outside a
        # method's region): the simulator's own --tol verdict stays off unless asked for.
        if "--tol" not in extra:
            cmd += ["--tol", "off"]
        cmd += list(extra)
        path = None
        if csv:
            path = keep_csv or self._csvname()
            cmd += ["--csv", path, "--every", str(int(every))]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True)
        with self._lock:
            self.runs += 1
        kv = parse_kv(p.stdout)
        res = {"kv": kv, "rc": p.returncode, "cols": None, "rows": None, "cmd": cmd,
               "stderr": p.stderr}
        if csv and os.path.exists(path):
            res["cols"], res["rows"] = read_csv(path)
            if not keep_csv:
                os.remove(path)
        if "status" not in kv and allow_refused and p.returncode == 2:
            res["kv"] = {"status": "refused", "steps": "0", "max_abs_g": "nan",
                         "why": p.stderr.strip().split(": ", 2)[-1]}
            res["cols"], res["rows"] = [], []
            return res
        if "status" not in kv:
            raise RuntimeError("hilstep-sim printed no status (rc %d): %s\nstdout: %s\nstderr: %s"
                               % (p.returncode, " ".join(cmd), p.stdout[-500:], p.stderr[-500:]))
        return res

    def map(self, fn, items):
        """fn(item) for every item, on self.workers threads (each runs one process)."""
        items = list(items)
        if self.workers <= 1:
            return [fn(x) for x in items]
        with ThreadPoolExecutor(max_workers=self.workers) as ex:
            return list(ex.map(fn, items))


def parse_kv(text):
    """The last line of stdout that holds key=value pairs, as a dict of strings."""
    for line in reversed(text.strip().splitlines()):
        parts = line.split()
        if parts and all("=" in w for w in parts):
            return dict(w.split("=", 1) for w in parts)
    return {}


def read_csv(path):
    with open(path) as f:
        lines = f.read().split("\n")
    cols = lines[0].strip().split(",")
    rows = []
    for ln in lines[1:]:
        ln = ln.strip()
        if not ln:
            continue
        try:
            rows.append([float(x) for x in ln.split(",")])
        except ValueError:
            break  # a truncated last line of a faulted run
    return cols, rows


def column(res, name):
    i = res["cols"].index(name)
    return [r[i] for r in res["rows"]]


def gcols(cols):
    return [c for c in cols if len(c) > 1 and c[0] == "g" and c[1:].isdigit()]


def max_abs_g_rows(res):
    """Per-row max |g_i| of a run's CSV."""
    idx = [res["cols"].index(c) for c in gcols(res["cols"])]
    return [max(abs(r[i]) for i in idx) for r in res["rows"]]


def steps_every(h, t, rows):
    """An output stride that divides the step count (so the last row is t) and gives about
    `rows` rows."""
    n = int(round(t / h))
    e = max(1, n // rows)
    while n % e:
        e -= 1
    return e


def write_csv(path, header, rows):
    with open(path, "w") as f:
        f.write(",".join(header) + "\n")
        for r in rows:
            f.write(",".join(x if isinstance(x, str) else "%.10g" % x for x in r) + "\n")


# ---------------------------------------------------------------------------------------
# Fig. 1: analytic stability of the test equation ([BAE] section 2), with A = h^2 a and
# B = h b (both >= 0).

def paper_stable(method, A, B):
    """The stability conditions stated in [BAE] section 2 (explicit Euler: |1 + h l| <= 1
    for both eigenvalues l of [[0, 1], [-a, -b]], written as the Jury conditions of its
    amplification matrix [[1, h], [-h a, 1 - h b]])."""
    if method == "explicit":
        return A <= B and A >= B - 2.0 and A >= 2.0 * B - 4.0
    if method == "j1":
        return B >= 0.0 and A <= 2.0 * B + 4.0
    if method == "j3":
        return 0.0 <= B <= 2.0 and A <= 4.0 - 2.0 * B
    if method in ("j2", "jexact"):
        return True
    raise ValueError(method)


def amplification(method, A, B):
    """2x2 amplification matrix of one step with h = 1 (positions first for explicit, J1,
    J2, J3; J_exact as eq. 3), from the general formula y1 = y0 + (I - J)^-1 F y0."""
    F = [[0.0, 1.0], [-A, -B]]
    if method == "explicit":
        J = [[0.0, 0.0], [0.0, 0.0]]
    elif method == "j1":
        J = [[0.0, 0.0], [-A, -B]]
    elif method == "j2":
        J = [[0.0, 0.0], [-A, -B - A]]
    elif method == "j3":
        J = [[0.0, 0.0], [-A, 0.0]]
    elif method == "jexact":
        J = F
    else:
        raise ValueError(method)
    a, b, c, d = 1 - J[0][0], -J[0][1], -J[1][0], 1 - J[1][1]
    det = a * d - b * c
    inv = [[d / det, -b / det], [-c / det, a / det]]
    X = [[sum(inv[i][k] * F[k][j] for k in range(2)) for j in range(2)] for i in range(2)]
    return [[1 + X[0][0], X[0][1]], [X[1][0], 1 + X[1][1]]]


def spectral_radius(Mx):
    tr = Mx[0][0] + Mx[1][1]
    det = Mx[0][0] * Mx[1][1] - Mx[0][1] * Mx[1][0]
    disc = tr * tr / 4 - det
    if disc >= 0:
        s = math.sqrt(disc)
        return max(abs(tr / 2 + s), abs(tr / 2 - s))
    return math.sqrt(max(det, 0.0))


def near_boundary(method, A, B, dA, dB):
    """True when the paper's classification changes within +-dA, +-dB of (A, B) inside the
    admissible quadrant A, B >= 0: such points are too close to the boundary for a finite
    run to decide, and are left out of the check."""
    s = paper_stable(method, A, B)
    for sa in (-1, 0, 1):
        for sb in (-1, 0, 1):
            a2, b2 = A + sa * dA, B + sb * dB
            if a2 < 0 or b2 < 0:
                continue
            if paper_stable(method, a2, b2) != s:
                return True
    return False


def fig1_grid(nA, nB):
    As = [FIG1_A_MAX * i / (nA - 1) for i in range(nA)]
    Bs = [FIG1_B_MAX * j / (nB - 1) for j in range(nB)]
    return [(A, B) for B in Bs for A in As]


def fig1_run(sim, method, A, B):
    """One test-equation run from the scaled state (q, h u) = (1, 1). Returns
    (stable, growth, status): growth is max |(q, h u)| over the last fifth of the output
    rows divided by its initial value; a non-ok status (e.g. nonfinite) is unstable."""
    h = FIG1_H
    T = FIG1_STEPS * h
    every = FIG1_STEPS // 50
    r = sim.run("test_eq", method, "index1", "none", h=h, t=T,
                params={"a": A / h ** 2, "b": B / h, "q0": 1.0, "u0": 1.0 / h}, every=every)
    status = r["kv"].get("status", "?")
    growth = float("inf")
    if r["rows"]:
        iq, iu = r["cols"].index("q1"), r["cols"].index("u1")
        norms = [math.hypot(row[iq], h * row[iu]) for row in r["rows"]]
        tail = norms[-max(1, len(norms) // 5):]
        if all(math.isfinite(x) for x in tail):
            growth = max(tail) / norms[0]
    stable = status == "ok" and r["rc"] == 0 and growth < FIG1_GROWTH
    return stable, growth, status


# ---------------------------------------------------------------------------------------
# Least squares.

def loglog_slope(hs, ys, floor=G_FLOOR):
    """Least-squares slope and intercept of log10 y against log10 h over the points with
    floor < y < inf. Returns (slope, intercept, n_used)."""
    pts = [(math.log10(h), math.log10(y)) for h, y in zip(hs, ys)
           if y is not None and math.isfinite(y) and y > floor]
    n = len(pts)
    if n < 2:
        return float("nan"), float("nan"), n
    mx = sum(p[0] for p in pts) / n
    my = sum(p[1] for p in pts) / n
    sxx = sum((p[0] - mx) ** 2 for p in pts)
    sxy = sum((p[0] - mx) * (p[1] - my) for p in pts)
    s = sxy / sxx
    return s, my - s * mx, n


def car_run(sim, form, stab, h, method=CAR_METHOD, t=CAR_T, every=None, rows=150):
    """A car axle run on [0, t]. Returns the run dict plus max_abs_g (from the summary line)."""
    if every is None:
        every = steps_every(h, t, rows)
    r = sim.run("car_axle", method, form, stab, h=h, t=t, every=every)
    r["max_abs_g"] = float(r["kv"].get("max_abs_g", "nan"))
    return r
