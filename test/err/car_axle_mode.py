#!/usr/bin/python3
"""test/err/car_axle_mode.py SIM - why the car axle's error stops shrinking at 1/60 and 1e-2 s.
Runs the built-in car_axle 10 s (the method grid's span) at 1 ms with the default method (the
reference, as `--glob-ref 10` of a 1e-2 s run would) and under each METHOD at 1/60 and 1e-2 s,
and prints, for q4 (the coordinate where every such run is furthest off): the frequency and
amplitude of its fast mode (the largest FFT line in 5-10 Hz), the phase that mode gains or
loses against the reference over 10 s, twice the reference mode's amplitude (the largest
distance two copies of a mode of that amplitude can reach when they are out of phase), and the
run's err_ref (`--glob-ref`). A run whose fast mode has slipped by about half a cycle or more
has err_ref near twice that amplitude, whatever its method: the error saturates there."""
import csv
import os
import subprocess
import sys
import tempfile

import numpy as np

METHODS = ["sdirk", "em", "galpha", "symplectic", "spook"]


def run(sim, args, csvf):
    p = subprocess.run([sim, "--model", "car_axle", "--t", "10", "--csv", csvf] + args,
                       capture_output=True, text=True, check=False)
    line = next((l for l in p.stdout.splitlines() if l.startswith("steps=")), "")
    return dict(x.split("=", 1) for x in line.split() if "=" in x)


def mode(csvf):
    t, x = [], []
    for r in csv.DictReader(open(csvf)):
        t.append(float(r["t"]))
        x.append(float(r["q4"]))
    t, x = np.array(t), np.array(x) - np.mean(x)
    X = np.fft.rfft(x) * 2 / len(x)
    f = np.fft.rfftfreq(len(x), t[1] - t[0])
    band = (f > 5) & (f < 10)
    i = int(np.argmax(np.abs(X) * band))
    # the line's frequency by the three-point parabola on |X| (a run's line falls between bins)
    a, b, c = np.abs(X[i - 1]), np.abs(X[i]), np.abs(X[i + 1])
    d = 0.5 * (a - c) / (a - 2 * b + c)
    return f[i] + d * (f[1] - f[0]), float(np.sqrt(np.sum(np.abs(X[band]) ** 2)))


def main():
    sim = sys.argv[1]
    with tempfile.TemporaryDirectory() as d:
        ref = os.path.join(d, "ref.csv")
        run(sim, ["--h", "0.001"], ref)
        f0, a0 = mode(ref)
        print(f"reference (default, 1 ms): fast mode {f0:.3f} Hz, amplitude {a0:.4f}, twice it {2 * a0:.4f}")
        print("| method | h | mode (Hz) | amplitude | phase slip in 10 s (cycles) | err_ref |")
        print("|---|---|---|---|---|---|")
        for me in METHODS:
            for hn, hv in (("1/60", "0.016666666666666666"), ("1e-2", "0.01")):
                out = os.path.join(d, f"{me}.csv")
                kv = run(sim, ["--method", me, "--h", hv, "--glob-ref", "100"], out)
                f, a = mode(out)
                print(f"| {me} | {hn} | {f:.3f} | {a:.4f} | {10 * (f - f0):+.2f} | {kv.get('err_ref', '?')} |")


if __name__ == "__main__":
    main()
