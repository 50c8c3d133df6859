#!/usr/bin/python3
"""test/err/grid_truth.py SIM [--jobs N] [--timeout S] [--models A,B] [--skip A,B] [--json F] - the method grid's verdicts
(test/soak/method_table.py: the shipped models x methods x h in {1/20, 1/60, 1e-2, 1e-3}, 10 s)
against the true global error: every cell judged by err_rich (every method but the default,
and auto) is run again with `--glob-ref N` (the default method at h/N beside it, N = 100, 10 at
h = 1e-3; err_ref= the run's largest distance from it in err_est's metric), and classed by its
status under the default --tol against err_ref: wrong (err_ref > tol) and flagged, right and ok,
a false alarm, or wrong and not flagged. Cells that do not end (a fault, a refusal), and those
the reference does not finish within --timeout seconds (default 60), are counted apart.
Prints one line per false alarm and per miss, the estimate/true ratios' range over the cells
whose err_ref is above 1e-9, and ends with "grid-truth: N passed, N failed" (a miss or a false
alarm fails). --skip leaves models out (their references past any timeout here:
fourbar_spatial.hsm, stack.hsm); --json writes every cell's summary line, --from-json FILE tallies such a file again (no runs)."""
import concurrent.futures
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "soak"))
import method_table as mt  # noqa: E402

TOL = 0.05


def cell(sim, margs, me, h, stab_none, timeout):
    n = "10" if h == "0.001" else "100"
    args = [sim] + margs + ["--method", me, "--h", h, "--t", "10", "--glob-ref", n]
    if me in stab_none:
        args += ["--stab", "none"]
    try:
        p = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    line = next((l for l in p.stdout.splitlines() if l.startswith("steps=")), "")
    return dict(x.split("=", 1) for x in line.split() if "=" in x)


def main():
    sim = sys.argv[1]
    jobs = int(sys.argv[sys.argv.index("--jobs") + 1]) if "--jobs" in sys.argv else 2
    timeout = float(sys.argv[sys.argv.index("--timeout") + 1]) if "--timeout" in sys.argv else 60.0
    only = sys.argv[sys.argv.index("--models") + 1].split(",") if "--models" in sys.argv else None
    skip = sys.argv[sys.argv.index("--skip") + 1].split(",") if "--skip" in sys.argv else []
    meths, default, stab_none = mt.methods(sim)
    meths = [m for m in meths if m != default] + ["auto"]
    cells = [(mn, ma, me, hn, hv) for mn, ma in mt.MODELS if (only is None or mn in only) and mn not in skip
             for me in meths for hn, hv in mt.H]
    if "--from-json" in sys.argv:  # the tally again from a --json file of the same cells
        import json
        got = {(a, b, c): kv for a, b, c, kv in json.load(open(sys.argv[sys.argv.index("--from-json") + 1]))}
        res = [got.get((c[0], c[2], c[3])) for c in cells]
    else:
        with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
            res = list(ex.map(lambda c: cell(sim, c[1], c[2], c[4], stab_none, timeout), cells))
    count = {"wrong, flagged": 0, "right, ok": 0, "false alarm": 0, "WRONG AND OK": 0, "not judged": 0,
             "did not end": 0, "reference past the timeout": 0}
    lo, hi, bad = float("inf"), 0.0, []
    # Richardson's factor on the same runs, 2^p / (2^p - 1) times rich_dh (p the method's nominal
    # order), with the run's other verdicts (err_est, the energy) as they are
    first = {"explicit", "symplectic", "j1", "j2", "j3", "jexact", "jk", "jkexact", "spook"}
    rich_fa = rich_miss = 0
    for (mn, _, me, hn, _), kv in zip(cells, res):
        if kv is None:
            count["reference past the timeout"] += 1
            continue
        st = kv.get("status")
        if st not in ("ok", "inaccurate") or "err_ref" not in kv:
            count["did not end"] += 1
            continue
        if "err_rich" not in kv:
            count["not judged"] += 1
            continue
        er, eref = float(kv["err_rich"]), float(kv["err_ref"])
        wrong, flag = not (eref <= TOL), st == "inaccurate"
        v = ("wrong, flagged" if flag else "WRONG AND OK") if wrong else ("false alarm" if flag else "right, ok")
        count[v] += 1
        f = 2.0 if kv.get("method") in first else 4.0 / 3.0
        other = float(kv.get("err_est", "0")) > TOL or float(kv.get("rel_dE", "0")) > 0.1
        old = other or f * float(kv["rich_dh"]) > TOL
        rich_fa += int(old and not wrong)
        rich_miss += int(wrong and not old)
        if eref > 1e-9 and er == er and er != float("inf"):
            lo, hi = min(lo, er / eref), max(hi, er / eref)
        if v in ("false alarm", "WRONG AND OK"):
            bad.append("  %s: %s %s h=%s: err_ref %.3e, err_rich %.3e (ratio %.3g, rich_ratio %s), status %s"
                       % (v, mn, me, hn, eref, er, er / eref if eref > 0 else float("inf"), kv.get("rich_ratio"), st))
    if "--json" in sys.argv:
        import json
        with open(sys.argv[sys.argv.index("--json") + 1], "w") as f:
            json.dump([[c[0], c[2], c[3], kv] for c, kv in zip(cells, res)], f)
    print("\n".join(bad))
    print("grid truth (tol %g): %s; err_rich / err_ref %.3g to %.3g over the judged cells with err_ref > 1e-9"
          % (TOL, ", ".join("%s %d" % kv for kv in count.items()), lo, hi))
    print("Richardson's factor on the same runs: %d false alarms, %d wrong and not flagged" % (rich_fa, rich_miss))
    print("grid-truth: %d passed, %d failed" % (count["wrong, flagged"] + count["right, ok"],
                                                 count["false alarm"] + count["WRONG AND OK"]))
    return 1 if count["false alarm"] + count["WRONG AND OK"] else 0


if __name__ == "__main__":
    sys.exit(main())
