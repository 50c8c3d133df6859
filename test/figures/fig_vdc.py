#!/usr/bin/python3
"""fig_vdc.py - the car's manoeuvres under hil/hs_vdc.c (issue 33 item 7), closed offline by
build/hilstep-vdc (the laws hilstep-ecu runs over the link), default method, h = 1 ms:

  fig_vdc_sine_dwell  FMVSS 126 / UN R140 sine with dwell at 80 km/h, coasting, amplitude 6.5
                      times the car's 0.3 g steer (from the slowly increasing steer), ESC off
                      and on: steer, yaw rate with the ESC's reference, the yaw-rate ratios'
                      instants and limits, the path
  fig_vdc_abs         straight stops from 20 m/s on mu = 1 and 0.3, ABS and locked wheels
  fig_vdc_mu_split    stops from 80 km/h on mu-split (left 1, right 0.3): locked, ABS per
                      wheel, ABS with select-low on the rear, the latter with the path driver;
                      the 3.5 m lane
  fig_vdc_step        step steer to the 0.3 g steer, and the slowly increasing steer's
                      regression (understeer gradient)

Writes <out>/<fig>.png, one CSV per run (vdc_<run>.csv, hilstep-vdc's columns) and vdc.md (the
numbers, as README and hil/VEHICLE.md quote them); --copy-committed also copies the sine with
dwell and mu-split PNGs to test/figures/ (shown in hil/VEHICLE.md).
Usage: fig_vdc.py --vdc build/hilstep-vdc --out build/figures [--copy-committed]
"""
import argparse
import math
import os
import shutil
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vdc  # noqa: E402

V80 = "v0=%.6f" % vdc.V80


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vdc", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--copy-committed", action="store_true")
    o = ap.parse_args()
    os.makedirs(o.out, exist_ok=True)
    md = ["# The car's manoeuvres (hilstep-vdc, `make figures`)", ""]

    def go(name, args):
        c, line = vdc.run(o.vdc, args, os.path.join(o.out, "vdc_%s.csv" % name))
        md.append("- `%s`: `hilstep-vdc %s` -> %s" % (name, " ".join(args), line))
        return c

    ramp = go("ramp", ["--maneuver", "ramp", "--param", V80, "--t", "4"])
    rp = vdc.ramp(ramp)
    amp = 6.5 * rp["d03"]
    step = go("step", ["--maneuver", "step", "--amp", "%.6f" % rp["d03"], "--param", V80, "--t", "4"])
    sd = {k: go("sd_" + k, ["--maneuver", "sine-dwell", "--amp", "%.6f" % amp, "--param", V80, "--t", "5", "--control", k])
          for k in ("none", "esc")}
    stops = {}
    for mu in (1.0, 0.3):
        for ctl in ("abs", "brake"):
            stops[(ctl, mu)] = go("stop_%s_mu%g" % (ctl, mu), ["--maneuver", "stop", "--control", ctl, "--param", "v0=20",
                                                               "--param", "mu=%g" % mu, "--t", "7"])
    split_runs = [("locked", ["--control", "brake"]), ("ABS per wheel", ["--control", "abs"]),
                  ("ABS select-low", ["--control", "abs-select-low"]),
                  ("ABS select-low + driver", ["--control", "abs-select-low", "--path-k", "0.1"])]
    split = {n: go("split_%d" % i, ["--maneuver", "stop", "--param", V80, "--t", "8", "--param", "mu_l=1",
                                    "--param", "mu_r=0.3"] + a) for i, (n, a) in enumerate(split_runs)}

    # sine with dwell
    fig, ax = plt.subplots(3, 1, figsize=(7, 8))
    res = {k: vdc.sine_dwell(c) for k, c in sd.items()}
    for k, c in sd.items():
        lab = "ESC off" if k == "none" else "ESC on"
        ax[0].plot(c["t"], [math.degrees(d) for d in c["steer"]], label=lab)
        ax[1].plot(c["t"], c["yaw_rate"], label=lab)
        ax[2].plot(c["X"], c["Y"], label=lab)
    ax[1].plot(sd["esc"]["t"], sd["esc"]["r_ref"], "k:", label="ESC reference")
    tc = res["esc"]["t_cos"]
    for tt, lim in ((tc + 1.0, vdc.YRR_1S_MAX), (tc + 1.75, vdc.YRR_175S_MAX)):
        ax[1].axvline(tt, color="grey", lw=0.5)
        for k in res:
            ax[1].plot([tt], [lim / 100.0 * res[k]["peak"]], "kv", ms=4)
    ax[0].set_ylabel("steer at the wheels (deg)")
    ax[1].set_ylabel("yaw rate (rad/s)")
    ax[1].set_xlabel("t (s); marks: the YRR limits at 1.0 s and 1.75 s after completion of steer")
    ax[2].set_xlabel("X (m)")
    ax[2].set_ylabel("Y (m)")
    for a in ax:
        a.grid(True, lw=0.3)
        a.legend(fontsize=7)
    ax[0].set_title("sine with dwell, 80 km/h, amplitude %.1f deg (6.5 x the 0.3 g steer)" % math.degrees(amp))
    fig.tight_layout()
    fig.savefig(os.path.join(o.out, "fig_vdc_sine_dwell.png"), dpi=110)
    plt.close(fig)

    # ABS stops
    fig, ax = plt.subplots(figsize=(7, 4))
    for (ctl, mu), c in stops.items():
        ax.plot([x - c["X"][0] for x in c["X"]], c["speed"], "-" if ctl == "abs" else "--",
                label="%s, mu = %g" % ("ABS" if ctl == "abs" else "locked", mu))
    ax.set_xlabel("distance (m)")
    ax.set_ylabel("speed (m/s)")
    ax.grid(True, lw=0.3)
    ax.legend()
    ax.set_title("straight stops from 20 m/s, 2500 N m demand per wheel")
    fig.tight_layout()
    fig.savefig(os.path.join(o.out, "fig_vdc_abs.png"), dpi=110)
    plt.close(fig)

    # mu-split
    fig, ax = plt.subplots(figsize=(7, 4))
    for n, c in split.items():
        s = vdc.stop(c)
        k = sum(1 for x in c["speed"] if x >= 0.5)
        ax.plot(c["X"][:k], c["Y"][:k], label="%s: |Y| %.1f m, psi %.0f deg" % (n, s["ymax"], math.degrees(s["psi_end"])))
    for y in (-vdc.LANE / 2, vdc.LANE / 2):
        ax.axhline(y, color="k", lw=0.8, ls="--")
    ax.set_xlabel("X (m)")
    ax.set_ylabel("Y (m, left = high mu)")
    ax.set_ylim(-3, 8)
    ax.grid(True, lw=0.3)
    ax.legend(fontsize=7)
    ax.set_title("mu-split stops from 80 km/h (left mu 1, right 0.3), lane 3.5 m")
    fig.tight_layout()
    fig.savefig(os.path.join(o.out, "fig_vdc_mu_split.png"), dpi=110)
    plt.close(fig)

    # step steer and the ramp
    fig, ax = plt.subplots(1, 2, figsize=(9, 3.6))
    ax[0].plot(step["t"], step["yaw_rate"], label="yaw rate (rad/s)")
    ax[0].plot(step["t"], [a / vdc.G for a in step["a_y"]], label="a_y (g)")
    ax[0].set_xlabel("t (s)")
    ax[0].set_title("step steer %.2f deg at 80 km/h" % math.degrees(rp["d03"]))
    ax[0].legend(fontsize=7)
    ax[1].plot([a / vdc.G for a in ramp["a_y"]], [math.degrees(d) for d in ramp["steer"]], label="slowly increasing steer")
    xs = [0.1, 0.375]
    ax[1].plot(xs, [math.degrees(rp["d03"] + rp["slope"] * (x - 0.3) * vdc.G) for x in xs], "k--",
               label="fit 0.1-0.375 g: kus %.2e rad s^2/m" % rp["kus"])
    ax[1].set_xlabel("a_y (g)")
    ax[1].set_ylabel("steer (deg)")
    ax[1].legend(fontsize=7)
    for a in ax:
        a.grid(True, lw=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(o.out, "fig_vdc_step.png"), dpi=110)
    plt.close(fig)

    def pc(x):
        return "%.1f" % (round(x, 1) + 0.0)  # no "-0.0"

    md += ["", "| manoeuvre | result | criterion |", "|---|---|---|"]
    md.append("| slowly increasing steer, 80 km/h | 0.3 g steer %.2f deg, understeer gradient %.2e rad s^2/m | the ESC's reference 1.0e-3 |"
              % (math.degrees(rp["d03"]), rp["kus"]))
    for k, s in res.items():
        md.append("| sine with dwell %.1f deg, ESC %s | YRR 1.0 s %s %%, 1.75 s %s %%, lateral %.2f m, heading %.0f deg at 5 s, "
                  "speed %.2f -> %.2f m/s (begin of steer -> 1.75 s after its completion) | "
                  "<= 35 %%, <= 20 %%, >= 1.83 m |" % (math.degrees(amp), "off" if k == "none" else "on", pc(s["yrr1"]), pc(s["yrr175"]),
                                                       s["lat"], math.degrees(s["psi_end"]), s["v_bos"], s["v_175"]))
    for (ctl, mu), c in stops.items():
        s = vdc.stop(c)
        md.append("| stop from 20 m/s, mu %g, %s | %.2f m in %.2f s | |" % (mu, "ABS" if ctl == "abs" else "locked", s["dist"], s["time"]))
    for n, c in split.items():
        s = vdc.stop(c)
        md.append("| mu-split from 80 km/h, %s | %.1f m, largest Y %.2f m, heading %.0f deg | Y within 1.75 m (3.5 m lane) |"
                  % (n, s["dist"], s["ymax"], math.degrees(s["psi_end"])))
    open(os.path.join(o.out, "vdc.md"), "w").write("\n".join(md) + "\n")
    print("\n".join(md[-12:]))
    if o.copy_committed:
        for f in ("fig_vdc_sine_dwell.png", "fig_vdc_mu_split.png"):
            shutil.copy(os.path.join(o.out, f), os.path.join(os.path.dirname(os.path.abspath(__file__)), f))


if __name__ == "__main__":
    main()
