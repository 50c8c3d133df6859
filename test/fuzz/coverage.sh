#!/bin/sh
# make fuzz-coverage / fuzz-coverage-test: replays every committed corpus (test/fuzz/corpus/NAME,
# plus build/fuzz/corpus/NAME when FUZZ_COV_GROWN=1) through the harnesses built with clang's
# source-based coverage (BUILD/fuzzcov/fuzz_NAME), merges the profiles with llvm-profdata and
# prints the line coverage of every hil/*.c file - every one, also those no harness reaches -
# then "hil/ lines X %" over all of them.
# Lines are counted as `llvm-cov show` counts them (a line with a count is a line of code). A
# line may be left out only when it carries the marker "fuzz-cov: unreachable: <reason>" in
# a comment and was never executed; each such line is listed with its reason.
#   coverage.sh BUILD MIN NAME...   MIN > 0: ends with "fuzz-coverage: N passed, N failed",
#                                   failing when X < MIN or a replay crashed
B=$1; min=$2; shift 2
D="$B/fuzzcov/prof"
rm -rf "$D"; mkdir -p "$D"
fail=0
objs=""
for name in "$@"; do
    bin="$B/fuzzcov/fuzz_$name"
    dirs="test/fuzz/corpus/$name"
    [ "${FUZZ_COV_GROWN:-0}" = 1 ] && [ -d "$B/fuzz/corpus/$name" ] && dirs="$dirs $B/fuzz/corpus/$name"
    n=$(find $dirs -type f 2>/dev/null | wc -l)
    if [ "$n" -eq 0 ]; then echo "  FAIL fuzz_$name: no corpus in $dirs"; fail=$((fail + 1)); continue; fi
    # Files (not directories) as arguments: libFuzzer runs each once, whole, and does not fuzz.
    if find $dirs -type f -print0 | LLVM_PROFILE_FILE="$D/$name-%p.profraw" xargs -0 "$bin" >"$D/$name.log" 2>&1; then
        echo "  replayed fuzz_$name: $n inputs"
    else
        echo "  FAIL fuzz_$name: the replay of its corpus failed"; grep -E 'ERROR|SUMMARY|runtime error' "$D/$name.log" | head -5
        fail=$((fail + 1))
    fi
    if [ -z "$objs" ]; then objs="$bin"; else objs="$objs -object $bin"; fi
done
llvm-profdata merge -sparse "$D"/*.profraw -o "$D/all.profdata" || { echo "llvm-profdata failed"; echo "fuzz-coverage: 0 passed, 1 failed"; exit 1; }
# shellcheck disable=SC2086
llvm-cov show $objs -instr-profile "$D/all.profdata" $(ls hil/*.c) >"$D/show.txt" 2>"$D/show.err" \
    || { cat "$D/show.err"; echo "fuzz-coverage: 0 passed, 1 failed"; exit 1; }
/usr/bin/python3 - "$D/show.txt" "$min" "$fail" hil/*.c <<'PY'
import os, re, sys
show, mn, fails, files = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
per = {os.path.realpath(f): {"lines": 0, "hit": 0, "excl": []} for f in files}
cur = None
row = re.compile(r"^ *(\d+)\|\s*([0-9.]+[kMG]?)?\|(.*)$")
for line in open(show, errors="replace"):
    if line.endswith(":\n") and line.startswith("/"):
        cur = per.get(os.path.realpath(line[:-2]))
        continue
    m = row.match(line)
    if cur is None or not m or m.group(2) is None:
        continue
    src = m.group(3)
    if m.group(2) == "0":
        k = src.find("fuzz-cov: unreachable:")
        reason = src[k + len("fuzz-cov: unreachable:"):].replace("*/", "").strip() if k >= 0 else ""
        if reason:
            cur["excl"].append((int(m.group(1)), reason))
            continue
        cur["lines"] += 1
    else:
        cur["lines"] += 1
        cur["hit"] += 1
tl = th = 0
for f in files:
    c = per[os.path.realpath(f)]
    tl += c["lines"]; th += c["hit"]
    pct = 100.0 * c["hit"] / c["lines"] if c["lines"] else 100.0
    print("  %-22s lines %5d  covered %5d  %6.2f %%%s" % (f, c["lines"], c["hit"], pct,
          "  (%d excluded)" % len(c["excl"]) if c["excl"] else ""))
    for ln, why in c["excl"]:
        print("      excluded %s:%d: %s" % (f, ln, why))
x = 100.0 * th / tl if tl else 0.0
print("hil/ lines %.1f %%" % x)
if mn > 0:
    ok = x >= mn and fails == 0
    print("  %s hil/ line coverage %.1f %% %s %g %% (%d of %d lines)" % ("ok  " if ok else "FAIL", x,
          ">=" if x >= mn else "<", mn, th, tl))
    print("fuzz-coverage: %d passed, %d failed" % (1 if ok else 0, 0 if ok else 1))
    sys.exit(0 if ok else 1)
sys.exit(1 if fails else 0)
PY
