#!/usr/bin/python3
"""Why the default (sdirk) drifts in energy on a conservative model (rt/METHODS.md "Long runs:
why the default drifts"): the chain of 8 rods, 200 s from rest, h = 2, 1 and 0.5 ms, with the
shipped method (ONE Newton step per stage, stage 2 on stage 1's factor) and with a build whose
stages take 3 Newton steps, each refactored (HS_SD_NEWTON=3: every stage solved to round-off,
the exact two-stage midpoint rule), both with the default projection and without it.

Per run: max over every step of |E - E(0)| (hilstep-sim's max_abs_dE), E(T) - E(0) from the
least-squares line through E(t) - E(0) (rows every 1 s, J; its slope times T) and max |g|.

Usage: sdirk_drift.py SIM SIM_NEWTON3 [--t T] [--into FILE.md] (--into replaces the block
between "<!-- sdirk-drift" and "<!-- /sdirk-drift -->")"""
import csv
import os
import subprocess
import sys


def put_into(path, marker, text):
    """Replaces the block between "<!-- MARKER" and "<!-- /MARKER -->" of path with text."""
    doc = open(path).read()
    a = doc.index("\n", doc.index("<!-- " + marker)) + 1
    b = doc.index("<!-- /" + marker + " -->")
    with open(path, "w") as f:
        f.write(doc[:a] + text + doc[b:])
import tempfile


def run(sim, h, stab, T, path):
    every = str(int(round(1.0 / float(h))))
    args = [sim, "--model", "chain", "--param", "n=8", "--h", h, "--t", str(T), "--stab", stab,
            "--csv", path, "--every", every]
    p = subprocess.run(args, capture_output=True, text=True)
    line = next((l for l in p.stdout.splitlines() if l.startswith("steps=")), "")
    kv = dict(x.split("=", 1) for x in line.split() if "=" in x)
    rows = list(csv.DictReader(open(path)))
    ek = [c for c in rows[0] if c.startswith("out_energy")][0]
    t = [float(r["t"]) for r in rows]
    e = [float(r[ek]) - float(rows[0][ek]) for r in rows]
    n = len(t)
    tm, em = sum(t) / n, sum(e) / n
    slope = sum((a - tm) * (b - em) for a, b in zip(t, e)) / sum((a - tm) ** 2 for a in t)
    return kv.get("status", "?"), float(kv.get("max_abs_dE", "nan")), slope * T, float(kv.get("max_abs_g", "nan"))


def main():
    sim, sim3 = sys.argv[1], sys.argv[2]
    T = int(sys.argv[sys.argv.index("--t") + 1]) if "--t" in sys.argv else 200
    path = os.path.join(tempfile.mkdtemp(prefix="hs_sddrift_"), "rows.csv")
    lines = ["chain n=8, %d s from rest, scale m g L n^2/2 = 313.92 J (`make sdirk-drift`):" % T, "",
             "| stages | stab | h | max \\|E - E(0)\\| (J) | trend E(T) - E(0) (J) | max \\|g\\| |",
             "|---|---|---|---|---|---|"]
    for name, b in (("1 Newton step (shipped)", sim), ("3 Newton steps, refactored", sim3)):
        for stab, hs in (("projection", ("2e-3", "1e-3", "5e-4")), ("none", ("1e-3",))):
            for h in hs:
                st, de, tr, g = run(b, h, stab, T, path)
                lines.append("| %s | %s | %s | %s | %+.3g | %.1e |" % (name, stab, h,
                             ("%.3g" % de) if st == "ok" else st, tr, g))
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if "--into" in sys.argv:
        put_into(sys.argv[sys.argv.index("--into") + 1], "sdirk-drift", text)


if __name__ == "__main__":
    main()
