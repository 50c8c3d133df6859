#!/bin/sh
# make rt-bench: wake-up latency of hilstep-rt (closed loop with hilstep-ecu, 1 kHz) against
# cyclictest -m -p 80 -i 1000 for the same duration on the same machine, one after the other,
# both read from their 1 us histograms by the same code; plus telemetry drops at 1 kHz and the
# step's execution-time spread. Benchmarks only: prints figures, asserts nothing.
# Usage: rt_bench.sh BUILD_DIR DURATION_S
B=${1:-build}
D=${2:-10}
OUT=$B/rt-bench
mkdir -p "$OUT"
if ! command -v cyclictest >/dev/null 2>&1; then
    echo "rt-bench: installing rt-tests (cyclictest)"
    (export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && apt-get install -y -qq rt-tests) \
        >"$OUT/apt.log" 2>&1 || { echo "rt-bench: could not install rt-tests, see $OUT/apt.log"; exit 1; }
fi
LIM=$(awk "BEGIN{print int($D) + 20}")
echo "rt-bench: $D s of hilstep-rt (prio 80, closed loop with hilstep-ecu), then $D s of cyclictest"
timeout -k 2 "$LIM" "$B/hilstep-ecu" --listen 127.0.0.1:47202 --peer 127.0.0.1:47201 --priority 70 --quiet &
EPID=$!
timeout -k 2 "$LIM" "$B/hilstep-rt" --listen 127.0.0.1:47201 --peer 127.0.0.1:47202 --duration "$D" \
    --priority 80 --quiet --log "$OUT/hilstep-rt.csv" --hist "$OUT/hilstep-rt.hist" \
    --stats "$OUT/hilstep-rt.stats" >"$OUT/hilstep-rt.out" 2>&1
wait $EPID
grep '^rt: verdict' "$OUT/hilstep-rt.out"
LOOPS=$(awk "BEGIN{print int($D * 1000)}")
timeout -k 2 "$LIM" cyclictest -m -p 80 -i 1000 -l "$LOOPS" -h 10000 -q >"$OUT/cyclictest.hist" 2>"$OUT/cyclictest.err"
/usr/bin/python3 - "$OUT" <<'PY'
import sys
out = sys.argv[1]
def hist(path):
    bins, ovf, mx = {}, 0, 0
    for line in open(path):
        if line.startswith("# Histogram Overflows:"): ovf = int(line.split(":")[1])
        elif line.startswith("# Max Latencies:"): mx = int(line.split(":")[1])
        elif line[:1].isdigit():
            a, b = line.split()[:2]; bins[int(a)] = int(b)
    n = sum(bins.values()) + ovf
    def q(p):
        acc = 0
        for k in sorted(bins):
            acc += bins[k]
            if acc >= p * n: return k + 1          # upper edge of the bin, as hilstep-rt reports
        return mx
    return n, q(0.5), q(0.99), q(0.999), mx
st = dict(l.strip().split("=", 1) for l in open(f"{out}/hilstep-rt.stats") if "=" in l)
h = hist(f"{out}/hilstep-rt.hist"); c = hist(f"{out}/cyclictest.hist")
print(f"{'wake-up latency (us)':26s} {'samples':>8s} {'p50':>6s} {'p99':>6s} {'p99.9':>6s} {'max':>6s}")
print(f"{'hilstep-rt':26s} {h[0]:8d} {h[1]:6d} {h[2]:6d} {h[3]:6d} {h[4]:6d}")
print(f"{'cyclictest -m -p80 -i1000':26s} {c[0]:8d} {c[1]:6d} {c[2]:6d} {c[3]:6d} {c[4]:6d}")
r99 = h[2] / c[2] if c[2] else float("nan"); rmax = h[4] / c[4] if c[4] else float("nan")
print(f"ratio hilstep-rt / cyclictest: p99 {r99:.2f} (goal <= 1.2), max {rmax:.2f}")
print(f"telemetry at 1 kHz: {st['telemetry_rows']} rows, {st['telemetry_drops']} drops (goal 0)")
med, p999 = float(st["step_median"]), float(st["step_p999"])
print(f"step execution time: median {med:.2f} us, p99.9 {p999:.2f} us, max {float(st['step_max']):.2f} us, "
      f"p99.9/median {p999 / med:.2f}")
print(f"overruns: {st['overrun_frames']} frames, {st['missed_ticks']} missed ticks; "
      f"hard real-time: {'yes' if st['hard_realtime'] == '1' else 'no'}")
print(f"files: {out}/hilstep-rt.hist {out}/cyclictest.hist {out}/hilstep-rt.stats")
PY
