#!/usr/bin/python3
"""The shipped models x methods x step sizes table of rt/METHODS.md ("Every method on every
shipped model"): each cell is one hilstep-sim run of T seconds from the model's own initial
state, classified as
    ok E   completed, E = max over every step of |E - E(0)| (J; '-' without an energy function)
    inaccurate E   completed, flagged by hilstep-sim (exit 4: err_est past --tol, or E past
                   10 % of the energy the model can release)
    refused: WHY   refused before the first step (exit 2 or init fault), with the reason
    fault@K STATUS the stepper refused step K (range: beyond the method's range; singular;
                   model fault; dvp residual) - the state is kept, finite
    refused@K: body N  the default's rotation check refused step K, naming the body past
                   h |w| = 0.5 (rt/METHODS.md "Where a method stops": the rods' rates are
                   checked at every step, not bounded at init) - the state is kept, finite
    NONFINITE@K    the stepper computed a non-finite step K: never allowed
Fails (exit 1) on any NONFINITE entry, and on any other mid-run refusal of the default method
(it must complete bounded, refuse before the first step, or refuse a body's rate in-step). The row `auto` is `--method auto` (the
long-run choice per model: em, else dvp, else the default; spook where h*omega is beyond
what em and dvp carry).

Usage: method_table.py SIM [--md OUT.md | --into FILE.md] [--t T] [--jobs N] [--glob-check MODE]
--glob-check MODE is passed to every run (make methods-table-test: off, since its verdicts
read the stepper's own faults, and the h/2 companion run of the default auto would double its
cost; the grid in rt/METHODS.md, make methods-table, keeps hilstep-sim's default).
--into replaces the block between "<!-- method-grid" and "<!-- /method-grid -->" in FILE.md.
Ends with "methods-table: N passed, N failed"."""
import concurrent.futures
import glob
import os
import re
import subprocess
import sys

H = [("1/20", "0.05"), ("1/60", "0.016666666666666666"), ("1e-2", "0.01"), ("1e-3", "0.001")]
MODELS = [
    ("test_eq", ["--model", "test_eq"]),
    ("car_axle", ["--model", "car_axle"]),
    ("circular_track", ["--model", "circular_track"]),
    ("pendulum", ["--model", "pendulum"]),
    ("chain n=8", ["--model", "chain", "--param", "n=8"]),
    ("ladder n=10", ["--model", "ladder", "--param", "n=10"]),
    ("car_axle_mb", ["--model", "car_axle_mb"]),
]
# every shipped description, so a new one joins the grid by being shipped
for path in sorted(glob.glob("model/mech/*.hsm")):
    MODELS.append((os.path.basename(path), ["--model-file", path]))


def methods(sim):
    """Names, the default, and the methods whose table row asks for --stab none."""
    out = subprocess.run([sim, "--methods"], capture_output=True, text=True, check=True).stdout
    rows = re.findall(r"^\| `([a-z0-9]+)`( \(default\))? \|[^|]*\|([^|]*)\|", out, re.M)
    return [m for m, _, _ in rows], [m for m, d, _ in rows if d][0], {m for m, _, s in rows if "--stab none" in s}


def run(sim, margs, me, h, T, stab_none, extra=()):
    args = [sim] + margs + ["--method", me, "--h", h, "--t", T] + list(extra)
    if me in stab_none:
        args += ["--stab", "none"]  # their constraint treatment is built in (their table row says so)
    p = subprocess.run(args, capture_output=True, text=True)
    line = next((l for l in p.stdout.splitlines() if l.startswith("steps=")), "")
    kv = dict(x.split("=", 1) for x in line.split() if "=" in x)
    err = p.stderr.strip().splitlines()
    if p.returncode == 2 or (kv.get("steps") == "0" and kv.get("status") not in (None, "ok")):
        why = err[0] if err else "refused"
        why = re.sub(r"^hilstep-sim: (init: |[-a-z]+: )?", "", why).replace(" (see --help)", "")
        why = re.split(r" \(|;|:", why)[0]
        m = re.search(r"h\*omega = ([0-9.e+-]+) .*h\*omega <= ([0-9.e+-]+); constraints that can become dependent: (yes|no)",
                      p.stderr)
        if m and m.group(3) == "yes":
            why = "constraints can become dependent"
        elif m:
            why = "h omega = %s > %s" % (m.group(1), m.group(2))
        return "refused", "refused: " + why
    st = kv.get("status", "?")
    dE = "%.1e" % float(kv["max_abs_dE"]) if "max_abs_dE" in kv else "-"
    m = re.search(r"body (\d+) \(0-based, the model's order\) turns at h\*\|w\| = ", p.stderr)
    if st == "range" and m:
        return "refused", "refused@%d: body %s" % (int(kv.get("steps", "0")) + 1, m.group(1))
    if st == "inaccurate" and p.returncode == 4:  # completed, flagged (err_est or energy)
        return "inaccurate", "inaccurate " + dE
    if st == "ok" and p.returncode == 0:
        return "ok", "ok " + dE
    if st == "inaccurate":  # every step taken, but err_est beyond the default --tol: not a refusal
        return "inaccurate", "inaccurate " + dE
    k = int(kv.get("steps", "0")) + 1
    if st == "nonfinite":
        return "nonfinite", "NONFINITE@%d" % k
    return "fault", "fault@%d %s" % (k, st)


def main():
    sim = sys.argv[1]
    md = sys.argv[sys.argv.index("--md") + 1] if "--md" in sys.argv else None
    T = sys.argv[sys.argv.index("--t") + 1] if "--t" in sys.argv else "10"
    jobs = int(sys.argv[sys.argv.index("--jobs") + 1]) if "--jobs" in sys.argv else 2
    extra = ["--glob-check", sys.argv[sys.argv.index("--glob-check") + 1]] if "--glob-check" in sys.argv else []
    meths, default, stab_none = methods(sim)
    meths = meths + ["auto"]
    cells = [(mn, ma, me, hn, hv) for mn, ma in MODELS for me in meths for hn, hv in H]
    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        res = list(ex.map(lambda c: run(sim, c[1], c[2], c[4], T, stab_none, extra), cells))
    table = {}
    passed = failed = 0
    for (mn, _, me, hn, _), (kind, text) in zip(cells, res):
        table[(mn, me, hn)] = text
        if kind == "nonfinite":
            failed += 1
            print("  FAIL %s %s h=%s: %s" % (mn, me, hn, text))
        elif me == default and kind == "fault":
            failed += 1
            print("  FAIL %s default %s h=%s: %s (refused mid-run, not at init)" % (mn, me, hn, text))
        else:
            passed += 1
    lines = ["Shipped models x methods x h, T = %s s each (`%s`):" % (T, " ".join(
        ["test/soak/method_table.py", "build/hilstep-sim", "--t", T] + extra)), ""]
    for mn, _ in MODELS:
        lines.append("**%s**" % mn)
        lines.append("")
        lines.append("| method | " + " | ".join("h = " + hn for hn, _ in H) + " |")
        lines.append("|---|" + "---|" * len(H))
        for me in meths:
            lines.append("| `%s`%s | " % (me, " (default)" if me == default else " (em, dvp, spook or the default)" if me == "auto" else "")
                         + " | ".join(table[(mn, me, hn)] for hn, _ in H) + " |")
        lines.append("")
    text = "\n".join(lines)
    into = sys.argv[sys.argv.index("--into") + 1] if "--into" in sys.argv else None
    if md:
        with open(md, "w") as f:
            f.write(text + "\n")
    elif into:
        doc = open(into).read()
        a = doc.index("<!-- method-grid")
        a = doc.index("\n", a) + 1
        b = doc.index("<!-- /method-grid -->")
        with open(into, "w") as f:
            f.write(doc[:a] + text + "\n" + doc[b:])
    else:
        print(text)
    print("methods-table: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
