#!/bin/sh
# make fuzz-coverage / fuzz-coverage-test: replays every committed corpus (test/fuzz/corpus/NAME,
# plus build/fuzz/corpus/NAME when FUZZ_COV_GROWN=1) through the harnesses built with clang's
# source-based coverage (BUILD/fuzzcov/fuzz_NAME), merges the profiles with llvm-profdata and
# prints the line coverage of every hil/*.c and port/linux-rt/*.c file - every one, also those
# no harness reaches - then "hil/ lines X %" and "port/linux-rt/ lines Y %" over each folder.
# Lines are counted as `llvm-cov show` counts them (a line with a count is a line of code). A
# line may be left out only when it carries the marker "fuzz-cov: unreachable: <reason>" in
# a comment and was never executed; each such line is listed with its reason.
#   coverage.sh BUILD MIN NAME...   MIN > 0: ends with "fuzz-coverage: N passed, N failed",
#                                   failing when X < MIN, Y < FUZZ_COV_MIN_PORT (default 0)
#                                   or a replay crashed
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
llvm-cov show $objs -instr-profile "$D/all.profdata" $(ls hil/*.c port/linux-rt/*.c) >"$D/show.txt" 2>"$D/show.err" \
    || { cat "$D/show.err"; echo "fuzz-coverage: 0 passed, 1 failed"; exit 1; }
/usr/bin/python3 - "$D/show.txt" "$min" "$fail" "${FUZZ_COV_MIN_PORT:-0}" hil/*.c port/linux-rt/*.c <<'PY'
import os, re, sys
show, mn, fails, mnp, files = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), sys.argv[5:]
per = {os.path.realpath(f): {"lines": 0, "hit": 0, "excl": [], "seen": False} for f in files}
cur = None
row = re.compile(r"^ *(\d+)\|\s*([0-9.]+[kMG]?)?\|(.*)$")
for line in open(show, errors="replace"):
    if line.endswith(":\n") and line.startswith("/"):
        cur = per.get(os.path.realpath(line[:-2]))
        if cur is not None:
            cur["seen"] = True
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
def code_lines(path):
    """A file no harness links has no coverage mapping: its lines of code outside comments
    and preprocessor lines are counted, all missed (an estimate of what llvm-cov counts)."""
    n, incom = 0, False
    for ln in open(path, errors="replace"):
        t = ln.strip()
        while t:
            if incom:
                k = t.find("*/")
                if k < 0:
                    t = ""
                    break
                t, incom = t[k + 2:].strip(), False
            elif t.startswith("/*"):
                incom = True
                t = t[2:]
            else:
                break
        if t and not t.startswith("#") and not t.startswith("//"):
            n += 1
    return n
tot = {}
for f in files:
    c = per[os.path.realpath(f)]
    if not c["seen"]:
        c["lines"] = code_lines(f)
        c["excl"] = []
        c["unlinked"] = True
    d = os.path.dirname(f) + "/"
    tl, th = tot.get(d, (0, 0))
    tot[d] = (tl + c["lines"], th + c["hit"])
    pct = 100.0 * c["hit"] / c["lines"] if c["lines"] else 100.0
    print("  %-30s lines %5d  covered %5d  %6.2f %%%s%s" % (f, c["lines"], c["hit"], pct,
          "  (%d excluded)" % len(c["excl"]) if c["excl"] else "",
          "  (no harness links it: lines of code estimated)" if c.get("unlinked") else ""))
    for ln, why in c["excl"]:
        print("      excluded %s:%d: %s" % (f, ln, why))
pct = {d: (100.0 * th / tl if tl else 0.0) for d, (tl, th) in tot.items()}
for d in tot:
    print("%s lines %.1f %%" % (d, pct[d]))
if mn > 0:
    passed = failed = 0
    for d, want in (("hil/", mn), ("port/linux-rt/", mnp)):
        x = pct.get(d, 0.0)
        ok = x >= want
        print("  %s %s line coverage %.1f %% %s %g %% (%d of %d lines)" % ("ok  " if ok else "FAIL", d, x,
              ">=" if ok else "<", want, tot[d][1], tot[d][0]))
        passed += ok
        failed += not ok
    if fails:
        failed += 1
    print("fuzz-coverage: %d passed, %d failed" % (passed, failed))
    sys.exit(0 if failed == 0 else 1)
sys.exit(1 if fails else 0)
PY
