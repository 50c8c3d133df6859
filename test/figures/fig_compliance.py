#!/usr/bin/python3
"""fig_compliance.py - the examples of Lacoursiere's regularized time stepper (sec. 6) from
hilstep-sim runs (the runs and the paper's statements: test/compl/l1_examples.py):

  fig_l1_pendulum.png   Figs. 6.1-6.10: the 2-D pendulum at h = 1/60 released horizontally,
                             the penalty spring under linearly implicit Euler ("implicit") and the
                             paper's stepper eq. 4.4 ("regularized") at c = 1e-2, 1e-8 and 0: the
                             trajectory, the energy and the constraint violation |x| - 1 of each
  fig_l1_slider_crank.png  Fig. 6.13: the equal-length slider crank through its dead centres,
                             the paper's stepper at h = 1/60 with c = 1e-20 (refused at the first
                             dead centre) and c = 1e-16 with damping 1e14 N s/m (passes), and the
                             shipped model/mech/slider_crank_singular.hsm with the default method
Writes the PNGs, their CSV data and l1.md (captions, the paper's statements against the
measured numbers).
Usage: fig_compliance.py --sim build/hilstep-sim --out build/figures
"""
import argparse
import csv
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "compl"))
import l1_examples  # noqa: E402

import matplotlib  # noqa: E402
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    claims, P, S = l1_examples.claims(a.sim)
    shipped = l1_examples.slider(a.sim, None, None, h=0.001, T=10.0, method=())

    # ---- pendulum: 3 rows (trajectory, energy, violation) x 5 runs ----
    labs = [lab for lab, _, _ in l1_examples.PEND_RUNS]
    fig, ax = plt.subplots(3, len(labs), figsize=(3.2 * len(labs), 8.4))
    for j, lab in enumerate(labs):
        r = P[lab]
        ax[0][j].plot(r["x"], r["y"], lw=0.8)
        ax[0][j].set_aspect("equal")
        ax[0][j].set_xlim(-1.4, 1.4)
        ax[0][j].set_ylim(-1.4, 0.4)
        ax[0][j].set_title(lab, fontsize=9)
        ax[1][j].plot(r["t"], r["E"], lw=0.8)
        ax[1][j].set_ylim(-11, 1)
        ax[2][j].plot(r["t"], r["phi"], lw=0.8)
        for k in range(3):
            ax[k][j].grid(True, alpha=0.3)
            ax[k][j].tick_params(labelsize=7)
        ax[0][j].set_xlabel("x (m)", fontsize=8)
        ax[1][j].set_xlabel("t (s)", fontsize=8)
        ax[2][j].set_xlabel("t (s)", fontsize=8)
    ax[0][0].set_ylabel("y (m)", fontsize=8)
    ax[1][0].set_ylabel("energy (J)", fontsize=8)
    ax[2][0].set_ylabel("|x| - 1 (m)", fontsize=8)
    fig.suptitle("Regularized stepper sec. 6.1: pendulum, h = 1/60, released at (1, 0)", fontsize=10)
    fig.tight_layout()
    fig.savefig(os.path.join(a.out, "fig_l1_pendulum.png"), dpi=80)
    plt.close(fig)
    with open(os.path.join(a.out, "fig_l1_pendulum.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["run", "t", "x", "y", "energy", "phi"])
        for lab in labs:
            r = P[lab]
            for i in range(len(r["t"])):
                w.writerow([lab, r["t"][i], r["x"][i], r["y"][i], r["E"][i], r["phi"][i]])

    # ---- slider crank ----
    fig, axs = plt.subplots(1, 1, figsize=(8, 3.6))
    tt = [k * 0.002 for k in range(1001)]
    axs.plot(tt, [2 * math.cos(2 * math.pi * t) for t in tt], color="0.7", lw=3, label="2 cos(w t)")
    for lab, _, _ in l1_examples.SC_RUNS:
        r = S[lab]
        axs.plot(r["t"], r["x"], marker=".", ms=3, lw=0.8,
                 label="h = 1/60, %s: %s at t = %s s" % (lab, r["summary"].get("status"), r["summary"].get("t")))
    axs.plot(shipped["t"], shipped["x"], lw=0.8, ls="--",
             label="shipped file (c = 1e-7, d = 2e4), default method, h = 1 ms")
    axs.set_xlim(0, 2)
    axs.set_xlabel("t (s)")
    axs.set_ylabel("slider x (m)")
    axs.grid(True, alpha=0.3)
    axs.legend(fontsize=7, loc="lower right")
    axs.set_title("Regularized stepper sec. 6.2: slider crank through its dead centres (t = 0.25 + 0.5 k)", fontsize=9)
    fig.tight_layout()
    fig.savefig(os.path.join(a.out, "fig_l1_slider_crank.png"), dpi=80)
    plt.close(fig)
    with open(os.path.join(a.out, "fig_l1_slider_crank.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["run", "t", "x"])
        for lab, r in list(S.items()) + [("shipped default 1 ms", shipped)]:
            for t, x in zip(r["t"], r["x"]):
                w.writerow([lab, t, x])

    with open(os.path.join(a.out, "l1.md"), "w") as f:
        f.write("# The regularized time stepper's examples (`make figures`, test/figures/fig_compliance.py)\n\n")
        f.write("## Figs. 6.1-6.10: fig_l1_pendulum.png\n\n")
        f.write("Columns: the runs; rows: trajectory, energy (kinetic + gravity, + the spring's\n"
                "potential at c = 1e-2), constraint violation |x| - 1. implicit = penalty spring\n"
                "k = 1/c with hilstep's jexact (eq. 6.3); regularized = eq. 4.4 (symplectic --form\n"
                "index2 with --compliance c; c = 0 is --stab baumgarte, alpha = 1/h = B).\n\n")
        f.write("## Fig. 6.13: fig_l1_slider_crank.png\n\n")
        f.write("The shipped file with the default method: status %s over 10 s, max |x - 2 cos wt| %.2e m.\n\n"
                % (shipped["summary"].get("status"), shipped["err"]))
        f.write("## The paper's statements against hilstep\n\n| paper | hilstep | holds |\n|---|---|---|\n")
        for paper, meas, ok in claims:
            f.write("| %s | %s | %s |\n" % (paper, meas, "yes" if ok else "NO"))
    bad = [c for c in claims if not c[2]]
    print("fig_compliance: 2 figures, %d statements, %d do not hold" % (len(claims), len(bad)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
