"""tally.py - the tire suite scripts' check lines: check(ok, what) prints "  ok   what" or
"  FAIL what" and counts it; finish(name) prints "name: N passed, N failed" (the line
run_tire_test.py sums) and exits 1 when any check failed."""
import sys

_counts = [0, 0]  # passed, failed


def check(ok, what):
    _counts[0 if ok else 1] += 1
    print("  ok  " if ok else "  FAIL", what)


def finish(name):
    print("%s: %d passed, %d failed" % (name, _counts[0], _counts[1]))
    sys.exit(1 if _counts[1] else 0)
