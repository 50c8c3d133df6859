#!/usr/bin/env python3
"""range_grid.py SIM SIM_NOCHECK [OUT.md] - the default method's range checks on a grid
(rt/METHODS.md "Where a method stops"): every shipped model at h = 0.5, 1, 2, 4 ms, run by
SIM (the checks as built, its default --tol: 'inaccurate' counts as flagged) and by
SIM_NOCHECK (built with -DHS_SD_MAX_HW=1e30, given --max-h-omega 0 --tol off: no range check
at init or on the rotation rate, no accuracy flag; the other in-step checks stay).

A cell is 'poor' when the unchecked run fails (any status but ok: it diverged into another
check, a NaN or an output range), or its energy error is above 10 % of the energy the model
can release (rel_dE=, models with release()), or (models without release()) its end state is
off the unchecked run at h/4 by more than 10 % of 1 + |q_ref|_inf. A false positive is a cell
the checks refuse or flag that is not poor; a false negative one they pass that is poor."""
import glob, os, re, subprocess, sys

HS = [0.5e-3, 1e-3, 2e-3, 4e-3]
MODELS = [("test_eq", [], 10), ("car_axle", [], 3), ("circular_track", [], 10),
          ("pendulum", [], 10), ("chain", ["n=8"], 60), ("chain", ["n=128"], 1),
          ("ladder", [], 5), ("rolling_disk", [], 10)]


def run(sim, model, params, h, t, extra):
    cmd = [sim] + (["--model-file", model] if model.endswith(".hsm") else ["--model", model])
    for p in params:
        cmd += ["--param", p]
    cmd += ["--h", repr(h), "--t", str(t)] + extra
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    line = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else ""
    f = dict(re.findall(r"(\w+)=(\S+)", line))
    q = [float(v) for k, v in sorted(((k, v) for k, v in f.items() if re.fullmatch(r"q\d+", k)),
                                      key=lambda kv: int(kv[0][1:]))]
    return f.get("status", "?"), f, q, p.stderr


def main():
    sim, nock = sys.argv[1], sys.argv[2]
    out = sys.argv[3] if len(sys.argv) > 3 else None
    models = MODELS + [(m, [], 5) for m in sorted(glob.glob("model/mech/*.hsm"))]
    rows, fp, fn, cells = [], 0, 0, 0
    for model, params, t in models:
        name = os.path.basename(model) + ("".join(" " + p for p in params))
        for h in HS:
            st, f, q, err = run(sim, model, params, h, t, [])
            ust, uf, uq, _ = run(nock, model, params, h, t, ["--max-h-omega", "0", "--tol", "off"])
            if "release" in uf or ust != "ok":
                e = float(uf.get("rel_dE", "nan")) if ust == "ok" else float("nan")
                how = "rel_dE %.2g" % e if ust == "ok" else "unchecked: " + ust
                poor = not (e <= 0.1)
            else:
                rst, _, rq, _ = run(nock, model, params, h / 4, t, ["--max-h-omega", "0", "--tol", "off"])
                d = max((abs(a - b) for a, b in zip(uq, rq)), default=0.0)
                s = 1.0 + max((abs(b) for b in rq), default=0.0)
                poor = rst != "ok" or len(uq) != len(rq) or not (d <= 0.1 * s)
                how = "|q - q(h/4)| %.2g" % d if rst == "ok" else "h/4: " + rst
            refused = st != "ok"
            who = re.search(r"set by (body|joint) \d+|body \d+ \(0-based", err)
            who = who.group(0).replace(" (0-based", "") if who else ""
            verdict = ("FP" if refused and not poor else "FN" if poor and not refused else "")
            fp += verdict == "FP"
            fn += verdict == "FN"
            cells += 1
            rows.append("| %s | %g | %s%s | %s | %s | %s |" % (
                name, h * 1e3, st, (" (" + who + ")") if who else "", ust, how,
                verdict or ("refused, poor" if refused else "ok")))
            print(rows[-1], flush=True)
    head = ["| model | h (ms) | checked status | unchecked status | error of the unchecked run | verdict |",
            "|---|---|---|---|---|---|"]
    tail = ["", "%d cells: %d false positives (refused or flagged, not poor), %d false negatives (passed, poor)."
            % (cells, fp, fn)]
    text = "\n".join(head + rows + tail) + "\n"
    print(tail[1])
    if out:
        with open(out, "w") as o:
            o.write(text)


if __name__ == "__main__":
    main()
