#!/usr/bin/python3
"""Issue 8's figure: energy against time for every method (projection where it applies) on the
chain n = 8 (released horizontal, h = 1 ms) and on the car axle over 10^4 s (h = 1 ms; its
energy leaves out the road's work, so it is bounded, not constant). Runs build/hilstep-method-bars
energy ...; writes PNG + CSVs into --out. The methods are the stepper table's that take
--stab projection (hilstep-sim --list-methods; --sim, default beside --bin). Usage:
energy_fig.py --bin B --out DIR [--sim SIM] [--chain-t T] [--axle-t T]"""
import argparse, os, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

METHODS = []

def methods(sim):
    """The table's methods that take --stab projection, in table order."""
    out = subprocess.run([sim, "--list-methods"], capture_output=True, text=True, check=True).stdout
    return [w[0] for w in (line.split() for line in out.splitlines()) if w and "projection" in w[1:]]

REPLOT = False

def run(b, out, model, t, every, me, extra):
    path = os.path.join(out, "energy_methods_%s_%s.csv" % (model, me))
    cmd = [b, "energy", model, str(t), str(every), "-m", me, "-s", "projection"] + extra
    rc = 0
    if not REPLOT:
        with open(path, "w") as f:
            rc = subprocess.call(cmd, stdout=f, stderr=subprocess.DEVNULL)
    ts, es, note = [], [], ""
    for line in open(path):
        if line.startswith("#"):
            note = line[1:].strip()
            continue
        if line.startswith("t,"):
            continue
        a, e = line.split(",")
        ts.append(float(a)); es.append(float(e))
    return me, ts, es, note, rc

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--sim", help="hilstep-sim for the method list (default: beside --bin)")
    ap.add_argument("--chain-t", type=float, default=30.0)
    ap.add_argument("--axle-t", type=float, default=1e4)
    ap.add_argument("--replot", action="store_true", help="plot the CSVs already in --out")
    a = ap.parse_args()
    global REPLOT
    REPLOT = a.replot
    METHODS[:] = methods(a.sim or os.path.join(os.path.dirname(a.bin), "hilstep-sim"))
    os.makedirs(a.out, exist_ok=True)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    jobs = [("chain", a.chain_t, 10, ["-p", "n=8"]), ("car_axle", a.axle_t, 1000, [])]
    fig, axs = plt.subplots(1, 2, figsize=(13, 4.8))
    summary = []
    with ThreadPoolExecutor(max_workers=2) as ex:
        for ax, (model, t, every, extra) in zip(axs, jobs):
            res = list(ex.map(lambda me: run(a.bin, a.out, model, t, every, me, extra), METHODS))
            for me, ts, es, note, rc in res:
                if not ts:
                    continue
                lw = 2.2 if me in ("galpha", "sdirk") else 1.0
                lab = me + (" (refused at t=%.4g s)" % ts[-1] if note else "")
                ax.plot(ts, es, label=lab, lw=lw)
                summary.append("%s %s: E(0)=%.6g E(end)=%.6g t_end=%.6g %s" % (model, me, es[0], es[-1], ts[-1], note))
            ax.set_xlabel("t (s)")
            ax.set_ylabel("energy (J)")
            ax.set_title("%s, h = 1 ms, stab projection" % ("chain n = 8" if model == "chain" else "car axle (road work not counted)"))
            lo = min(min(r[2]) for r in res if r[2]); hi = max(max(r[2]) for r in res if r[2])
            span = hi - lo
            e_gal = [r for r in res if r[0] == "galpha"][0][2]
            if model == "chain":
                ax.set_ylim(e_gal[0] - 60, e_gal[0] + 60)
            else: # runaway methods leave the axes; their legend says when they were refused
                ax.set_ylim(0, 4 * max(e_gal))
            ax.legend(fontsize=7, loc="best")
    fig.tight_layout()
    png = os.path.join(a.out, "fig_energy_methods.png")
    fig.savefig(png, dpi=110)
    with open(os.path.join(a.out, "fig_energy_methods.txt"), "w") as f:
        f.write("\n".join(summary) + "\n")
    print("\n".join(summary))
    print("wrote", png)

if __name__ == "__main__":
    main()
