#!/usr/bin/python3
# offline_vs_rig.py - one behaviour offline and on the rig: hilstep-sim replays the inputs a
# hilstep-rt run was sent and must reproduce it.
#   offline_vs_rig.py SIM MODEL_FILE PLANT_CSV WORKDIR
# From the plant's telemetry: row n (the n-th stepped frame) applied ECU frame in_seq (0 = none
# yet) unless stale; the values that frame carried are replay_ecu.inputs(in_seq) (unclamped),
# else the inputs' fallbacks (0 for the quarter car). hilstep-sim gets exactly these as --inputs
# (hold, row n at t = n h) and clamps them itself. Checks, each against the other program:
#   - inputs: the sim's applied (clamped) values equal the plant's in_ columns in every row;
#   - state: every q and u of plant row n equals sim row n + 1 to the bit (same stepper);
#   - outputs: every out_ column of plant row n equals sim row n + 1 to the bit wherever the
#     inputs of n and n + 1 agree (the plant's row holds the outputs with the step's inputs,
#     the sim's with the next step's: on the few rows where an input changes, the outputs of a
#     direct-feedthrough signal like body_acc differ by design, and are left out, counted);
#   - clamps: the sim's clamped_inputs equals the number of (step, input) values outside the
#     declared ranges [-0.5, 0.5] m and [-5000, 5000] N, and is > 0.
# Prints "ok"/"FAIL" lines and "offline-vs-rig: N passed, N failed".
import csv, os, re, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from replay_ecu import inputs  # noqa: E402

RANGES = ((-0.5, 0.5), (-5000.0, 5000.0))
sim, model, plant_csv, wd = sys.argv[1:5]
passed = failed = 0


def check(ok, what):
    global passed, failed
    passed += bool(ok)
    failed += not ok
    print(("  ok   " if ok else "  FAIL ") + what)


def name(col):
    return re.sub(r"\[.*\]$", "", col)


rows = list(csv.DictReader(open(plant_csv)))
n = len(rows)
sent = []
for r in rows:
    seq, stale = int(r["in_seq"]), int(r["stale"])
    sent.append((0.0, 0.0) if seq == 0 or stale else inputs(seq))
inp = os.path.join(wd, "replay_inputs.csv")
with open(inp, "w") as f:
    f.write("t,road_z,F_act\n")
    for k, (a, b) in enumerate(sent):
        f.write("%r,%r,%r\n" % (k * 1e-3, a, b))
out = os.path.join(wd, "replay_sim.csv")
p = subprocess.run([sim, "--model-file", model, "--h", "1e-3", "--t", "%r" % (n * 1e-3), "--inputs", inp,
                    "--interp", "hold", "--csv", out], capture_output=True, text=True)
check(p.returncode == 0 and "status=ok" in p.stdout, f"hilstep-sim replay of {n} plant rows: exit {p.returncode}, "
      f"{(p.stdout.split() or ['?'])[4] if p.stdout else p.stderr.strip()}")
srows = list(csv.DictReader(open(out))) if os.path.exists(out) else []
check(len(srows) == n + 1, f"sim CSV has {len(srows)} rows = plant rows + 1 (the initial state)")
if len(srows) == n + 1:
    pin = [c for c in rows[0] if c.startswith("in_") and c != "in_seq"]
    sin = {name(c): c for c in srows[0] if c.startswith("in_")}
    pout = [c for c in rows[0] if c.startswith("out_")]
    sout = {name(c): c for c in srows[0] if c.startswith("out_")}
    states = [c for c in rows[0] if re.fullmatch(r"[qu]\d+", c)]
    check(sorted(name(c) for c in pin) == sorted(sin) and sorted(name(c) for c in pout) == sorted(sout)
          and states, f"the same signals on both sides: {', '.join(name(c) for c in pin + pout)}; {len(states)} state columns")
    bad_in = [k for k in range(n) if any(float(rows[k][c]) != float(srows[k][sin[name(c)]]) for c in pin)]
    check(not bad_in, f"inputs applied: sim (clamped itself) = plant in every one of {n} rows"
          + (f"; first differing row {bad_in[0]}" if bad_in else ""))
    bad_q = [k for k in range(n) if any(float(rows[k][c]) != float(srows[k + 1][c]) for c in states)]
    check(not bad_q, f"state: every q, u of the {n} plant rows = sim to the bit"
          + (f"; first differing row {bad_q[0]}" if bad_q else ""))
    same = [k for k in range(n) if all(float(srows[k][sin[name(c)]]) == float(srows[k + 1][sin[name(c)]]) for c in pin)]
    bad_y = [k for k in same if any(float(rows[k][c]) != float(srows[k + 1][sout[name(c)]]) for c in pout)]
    check(not bad_y and len(same) >= n * 9 // 10,
          f"outputs: every out_ column = sim to the bit in {len(same)} rows (the {n - len(same)} rows where an "
          f"input changes left out)" + (f"; first differing row {bad_y[0]}" if bad_y else ""))
    want = sum(1 for v in sent for x, (lo, hi) in zip(v, RANGES) if x < lo or x > hi)
    m = re.search(r"clamped_inputs=(\d+)", p.stdout)
    got = int(m.group(1)) if m else -1
    check(want > 0 and got == want, f"clamps: sim clamped_inputs={got} = {want} values sent outside their range")
print(f"offline-vs-rig: {passed} passed, {failed} failed")
sys.exit(failed != 0)
