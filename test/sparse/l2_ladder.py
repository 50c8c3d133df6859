#!/usr/bin/python3
"""[L2] (Lacoursiere, SPOOK) reproduced on hilstep's ladder: make figures-l2.

Runs build/hilstep-spbench (method spook, eps = 1e-8, tau/h = 2, the paper's parameters) and
writes into OUT (default build/figures/l2):
  stability.csv          n = 20 at h = 1/60 and h = 1/20: status, energy range, max |g|
  fig4_energy.csv/.png   energy against time, n = 10 and n = 100, h = 1/60
  fig5_rms_g.csv/.png    RMS constraint violation against time, same runs
  fig6_mean_g.csv/.png   time-averaged RMS violation against h (n = 20), log-log slope
  fig7_cost.csv/.png     host ns per step against n (and the analysis' flop count)
and prints one line per figure with the numbers the README quotes. Exit 1 when a run the
paper calls stable is refused."""
import argparse
import csv
import math
import os
import subprocess
import sys

P = argparse.ArgumentParser()
P.add_argument("--bench", default="build/hilstep-spbench")
P.add_argument("--out", default="build/figures/l2")
P.add_argument("--T", type=float, default=20.0, help="simulated time of the Fig. 4/5 runs (s)")
P.add_argument("--quick", action="store_true", help="short runs (a test of the script)")
A = P.parse_args()
os.makedirs(A.out, exist_ok=True)
T = 2.0 if A.quick else A.T


def run(args):
    r = subprocess.run([A.bench] + [str(a) for a in args], capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def series(n, h, T, every):
    rc, out, err = run(["run", "ladder", n, "spook", h, T, every])
    rows = [l for l in out.splitlines() if l and not l.startswith("#") and not l.startswith("t,")]
    data = [tuple(float(v) for v in l.split(",")) for l in rows]
    status = [l for l in out.splitlines() if l.startswith("# ")]
    return rc, data, status[0][2:] if status else err.strip()


def kv(line):
    return dict(p.split("=", 1) for p in line.split() if "=" in p)


bad = 0
# ---- stability (sec. 6: "stable on this problem for h as large as h = 1/20 for N = 20")
with open(os.path.join(A.out, "stability.csv"), "w") as f:
    w = csv.writer(f)
    w.writerow(["n", "h", "T", "status", "E0", "Emin", "Emax", "Eend", "max_g", "mean_rms_g"])
    for h in (1 / 60, 1 / 20):
        rc, out, err = run(["meang", "ladder", 20, "spook", h, 60.0 if not A.quick else 5.0])
        d = kv(out.strip().splitlines()[-1]) if out.strip() else {}
        w.writerow([20, h, 60.0, d.get("status", err.strip()), d.get("E0"), d.get("Emin"), d.get("Emax"),
                    d.get("Eend"), d.get("max_g"), d.get("mean_rms_g")])
        print("l2 stability n=20 h=1/%d: status=%s E0=%s Emax=%s Eend=%s max|g|=%s" %
              (round(1 / h), d.get("status"), d.get("E0"), d.get("Emax"), d.get("Eend"), d.get("max_g")))
        bad += rc != 0

# ---- Figs. 4 and 5
runs = {}
for n in (10, 100):
    rc, data, status = series(n, 1 / 60, T, 1)
    runs[n] = data
    bad += rc != 0
    d = kv(status)
    print("l2 fig4/5 n=%d h=1/60 T=%g: status=%s E0=%s Eend=%s (%.1f%% lost) max|g|=%s mean rms|g|=%s" %
          (n, T, d.get("status"), d.get("E0"), d.get("Eend"),
           100.0 * (float(d.get("E0", 0)) - float(d.get("Eend", 0))) / max(abs(float(d.get("E0", 1))), 1e-300)
           if d.get("E0") else float("nan"), d.get("max_g"), d.get("mean_rms_g")))
for name, col in (("fig4_energy", 1), ("fig5_rms_g", 2)):
    with open(os.path.join(A.out, name + ".csv"), "w") as f:
        w = csv.writer(f)
        w.writerow(["t", "n10", "n100"])
        for a, b in zip(runs[10], runs[100]):
            w.writerow([a[0], a[col], b[col]])

# ---- Fig. 6: <|g|> against h
hs = [1 / 960, 1 / 480, 1 / 240, 1 / 120, 1 / 60, 1 / 30, 1 / 20]
if A.quick:
    hs = hs[2:]
fig6 = []
for h in hs:
    rc, out, err = run(["meang", "ladder", 20, "spook", h, 5.0 if not A.quick else 1.0])
    d = kv(out.strip().splitlines()[-1]) if out.strip() else {}
    fig6.append((h, float(d.get("mean_rms_g", "nan")), float(d.get("max_g", "nan")), d.get("status")))
    bad += rc != 0
with open(os.path.join(A.out, "fig6_mean_g.csv"), "w") as f:
    w = csv.writer(f)
    w.writerow(["h", "mean_rms_g", "max_g", "status"])
    w.writerows(fig6)
xs = [math.log(r[0]) for r in fig6 if r[1] > 0]
ys = [math.log(r[1]) for r in fig6 if r[1] > 0]
nfit = len(xs)
slope = (nfit * sum(x * y for x, y in zip(xs, ys)) - sum(xs) * sum(ys)) / (nfit * sum(x * x for x in xs) - sum(xs) ** 2)
print("l2 fig6 n=20 T=5: slope of log <rms|g|> against log h over h = 1/%d .. 1/%d: %.2f (paper: O(h^2))"
      % (round(1 / hs[0]), round(1 / hs[-1]), slope))

# ---- Fig. 7: cost per step against n
fig7 = []
for n in ((5, 10, 20, 40) if A.quick else (5, 10, 20, 40, 60, 80, 100)):
    rc, out, err = run(["ns", "ladder", n, "spook"])
    rc2, an, err2 = run(["analysis", "ladder", n, "spook"])
    d = kv(an)
    nn = int(d["nq"]) + int(d["nc"])
    fig7.append((n, nn, float(out.strip()) if rc == 0 else float("nan"), int(d["flops_factor"]) + int(d["flops_solve"])))
with open(os.path.join(A.out, "fig7_cost.csv"), "w") as f:
    w = csv.writer(f)
    w.writerow(["n", "unknowns", "ns_per_step", "flops_factor_plus_solve"])
    w.writerows(fig7)
lx = [math.log(r[0]) for r in fig7]
ly = [math.log(r[2]) for r in fig7]
m = len(lx)
s7 = (m * sum(x * y for x, y in zip(lx, ly)) - sum(lx) * sum(ly)) / (m * sum(x * x for x in lx) - sum(lx) ** 2)
print("l2 fig7: host ns/step " + " ".join("n=%d:%.0f" % (r[0], r[2]) for r in fig7) + "; log-log slope %.2f" % s7)

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("matplotlib missing: CSV only")
    sys.exit(1 if bad else 0)

fig, ax = plt.subplots(figsize=(6, 3.5))
for n in (10, 100):
    ax.plot([r[0] for r in runs[n]], [r[1] for r in runs[n]], label="n = %d" % n)
ax.set_xlabel("t (s)"); ax.set_ylabel("E (J)"); ax.set_title("Fig. 4: energy, ladder, SPOOK h = 1/60")
ax.legend(); fig.tight_layout(); fig.savefig(os.path.join(A.out, "fig4_energy.png"), dpi=110)
fig, ax = plt.subplots(figsize=(6, 3.5))
for n in (10, 100):
    ax.semilogy([r[0] for r in runs[n]], [max(r[2], 1e-18) for r in runs[n]], label="n = %d" % n)
ax.set_xlabel("t (s)"); ax.set_ylabel("RMS |g| (m)"); ax.set_title("Fig. 5: RMS constraint violation")
ax.legend(); fig.tight_layout(); fig.savefig(os.path.join(A.out, "fig5_rms_g.png"), dpi=110)
fig, ax = plt.subplots(figsize=(5, 3.5))
ax.loglog([r[0] for r in fig6], [r[1] for r in fig6], "o-", label="hilstep spook (slope %.2f)" % slope)
ax.loglog([r[0] for r in fig6], [fig6[0][1] * (r[0] / fig6[0][0]) ** 2 for r in fig6], "k--", label="h^2")
ax.set_xlabel("h (s)"); ax.set_ylabel("<RMS |g|> (m)"); ax.set_title("Fig. 6: ladder n = 20")
ax.legend(); fig.tight_layout(); fig.savefig(os.path.join(A.out, "fig6_mean_g.png"), dpi=110)
fig, ax = plt.subplots(figsize=(5, 3.5))
ax.loglog([r[1] for r in fig7], [r[2] for r in fig7], "o-", label="ns/step (slope %.2f in n)" % s7)
ax.set_xlabel("unknowns nq + nc"); ax.set_ylabel("host ns per step"); ax.set_title("Fig. 7: cost per step")
ax.legend(); fig.tight_layout(); fig.savefig(os.path.join(A.out, "fig7_cost.png"), dpi=110)
print("l2 figures in %s" % A.out)
sys.exit(1 if bad else 0)
