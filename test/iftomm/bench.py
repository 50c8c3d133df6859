#!/usr/bin/env python3
"""test/iftomm/bench.py BUILD [--short] [--out FILE] - the IFToMM benchmarks (model/mech/iftomm/):
for each problem, every method of the table and h = 0.5, 1, 2 ms, the largest error of the
benchmark's point against the reference (test/iftomm/ref.c, reduced coordinates, RK4 at
1e-5 s) at the benchmark's output steps, the run's err_est and status, and the instructions
per step (callgrind at h = 1 ms: the difference of a 400- and a 200-step run over 200; a step's
work does not depend on h, the stepper's fixed-cost promise). --out writes the full table
(model/mech/iftomm/RESULTS.md); --short prints the table README carries (1 ms)."""
import math, os, subprocess, sys, tempfile

B = sys.argv[1] if len(sys.argv) > 1 else "build"
SHORT = "--short" in sys.argv
OUT = sys.argv[sys.argv.index("--out") + 1] if "--out" in sys.argv else None
SIM, REF = B + "/hilstep-sim", B + "/iftomm-ref"
G = 9.81
# id, file, T (s), outputs, reduced-coordinate k, theta0, omega0, point from a CSV row (q list)
PROBLEMS = [
    # A01 over its first 20 s (the benchmark runs 2000 s), at its output spacing of 0.5 s
    ("A01", "a01_pendulum", 20.0, 40, G, 0.0, 0.0, lambda q: (q[0], q[1])),
    ("A02 N=2", "a02_fourbar2", 20.0, 400, 3.5 * G / 3.0, math.pi / 2, -1.0,
     lambda q: (q[0] + 0.5 * math.cos(q[2]), q[1] + 0.5 * math.sin(q[2]))),
]
HS = [0.0005, 0.001, 0.002]
BAR = 1e-3

def methods():
    out = subprocess.run([SIM, "--list-methods"], capture_output=True, text=True).stdout
    return [l.split()[0] for l in out.splitlines() if l.strip()]

def reference(k, th0, om0, T, nout):
    out = subprocess.run([REF, repr(k), repr(th0), repr(om0), repr(T), str(nout)],
                         capture_output=True, text=True, check=True).stdout
    return [tuple(map(float, l.split())) for l in out.splitlines()]

def instr(args):
    p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + args,
                       capture_output=True, text=True)
    for l in p.stderr.splitlines():
        if "Collected" in l:
            return int(l.split()[-1])
    return None

def run(pid, f, T, nout, point, ref, method, h):
    path = "model/mech/iftomm/%s.hsm" % f
    every = int(round(T / nout / h))
    with tempfile.TemporaryDirectory() as d:
        csv = os.path.join(d, "o.csv")
        p = subprocess.run([SIM, "--model-file", path, "--method", method, "--h", repr(h), "--t",
                            repr(T), "--csv", csv, "--every", str(every), "--tol", "off"],
                           capture_output=True, text=True)
        kv = dict(w.split("=", 1) for w in p.stdout.split() if "=" in w)
        err = 0.0
        rows = open(csv).read().splitlines()[1:] if os.path.exists(csv) else []
        for i, l in enumerate(rows):
            v = list(map(float, l.split(",")))
            x, y = point(v[1:])
            err = max(err, math.hypot(x - ref[i][1], y - ref[i][2]))
        if len(rows) < len(ref):
            err = float("nan")
    return kv.get("status", "?"), err, float(kv.get("err_est", "nan")), float(kv.get("err_sum", "nan"))

def ips_of(f, method):
    path = "model/mech/iftomm/%s.hsm" % f
    a = instr([SIM, "--model-file", path, "--method", method, "--h", "0.001", "--t", "0.2"])
    b = instr([SIM, "--model-file", path, "--method", method, "--h", "0.001", "--t", "0.4"])
    return (b - a) // 200 if a is not None and b is not None else None

lines = ["| problem | method | h (ms) | status | max error of the point (m) | 1e-3 bar | err_est | err_sum | instructions/step |",
         "|---|---|---|---|---|---|---|---|---|"]
SHORTM = ("sdirk", "em", "spook")
short = ["| problem, h = 1 ms | " + " | ".join("`%s`: error (m), err_est, instructions" % m for m in SHORTM) + " |",
         "|---|" + "---|" * len(SHORTM)]
for pid, f, T, nout, k, th0, om0, point in PROBLEMS:
    ref = reference(k, th0, om0, T, nout)
    cells = {}
    for method in methods():
        ips = ips_of(f, method)
        for h in HS:
            st, err, est, esum = run(pid, f, T, nout, point, ref, method, h)
            row = "| %s | %s | %g | %s | %.2e | %s | %.2e | %.2e | %s |" % (
                pid, method, h * 1e3, st, err, "met" if err <= BAR else "missed", est, esum,
                ips if ips is not None else "-")
            lines.append(row)
            if h == 0.001 and method in SHORTM:
                cells[method] = "%.1e, %.1e, %s" % (err, est, ips)
            print(row, flush=True)
    short.append("| %s | " % pid + " | ".join(cells.get(m, "-") for m in SHORTM) + " |")
text = "\n".join(lines) + "\n"
if OUT:
    with open(OUT, "w") as fo:
        fo.write("# IFToMM benchmarks: results\n\nWritten by `make bench-iftomm` (test/iftomm/bench.py); "
                 "error: the largest distance of the benchmark's point from the reference "
                 "(test/iftomm/ref.c) at the benchmark's output steps; runs with `--tol off` so "
                 "every run ends and its err_est shows.\n\n" + text)
if SHORT:
    print("\n".join(short))
