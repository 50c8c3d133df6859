# test/link/lib.sh - what the link attack scripts share; sourced after T (the scratch
# directory) is set: the pass/fail counters and lines, the cleanup of T and of the processes
# in PIDS, the suite's own per-user key (XDG_CONFIG_HOME under T, never the user's), a stats
# key reader and the telemetry CSV counts by the value of the input column in_F_t.
pass=0; fail=0; PIDS=""
ok() { pass=$((pass + 1)); echo "  ok   $1"; }
ko() { fail=$((fail + 1)); echo "  FAIL $1"; }
cleanup() { for p in $PIDS; do kill -TERM "$p" 2>/dev/null; done; rm -rf "$T"; }
trap cleanup EXIT
export XDG_CONFIG_HOME="$T/cfg"
key() { sed -n "s/^$1=//p" "$2" | head -n 1 | sed 's/\.0*$//'; }
PY=/usr/bin/python3
# latency is not what these measure (a loaded 2-core CI box)
BUDGET="--budget-us 1000000"
# Rows of the CSV $1 whose input column in_F_t equals $2 (exactly, as printed).
rows_with() { awk -F, -v want="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /^in_F_t/) c = i; next }
                                     c && $c + 0 == want + 0 { n++ } END { print n + 0 }' "$1"; }
# Rows from the first one whose in_F_t equals $2 to the end.
rows_since() { awk -F, -v want="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /^in_F_t/) c = i; next }
                                     c && $c + 0 == want + 0 { on = 1 } on { n++ } END { print n + 0 }' "$1"; }
