#!/bin/sh
# Runs each make target named on the command line as a test suite and sums the
# "N passed, N failed" line each suite ends with. A suite that prints no such line or exits
# non-zero counts as one failure. Ends with the total line, alone.
#
#   run_suites.sh [-j N] SUITE...
#
# -j N runs N suites at a time (default 1). Each suite's output is kept together: it is
# printed as one block, headed "=== suite NAME (S s)", when the suite ends. Before the suites
# start, the tools they need (every suite target's prerequisites, plus $TEST_PREBUILD) are
# built by one `make -j N -k`, so two suites never build the same file at once; a tool that
# fails to build fails the suites that need it, when they try again.
# Suites named in $TEST_SERIAL never run at the same time as each other (they use UDP ports
# on 127.0.0.1 and real-time budgets: each picks free ports, but two could pick the same
# free range between checking and binding).
J=1
if [ "${1:-}" = "-j" ]; then J=$2; shift 2; fi
case $J in ''|*[!0-9]*|0) echo "run_suites.sh: -j needs a positive integer" >&2; exit 2 ;; esac
D=$(mktemp -d "${TMPDIR:-/tmp}/hilstep-suites.XXXXXX") || exit 1
pids=""
cleanup() { for p in $pids; do kill "$p" 2>/dev/null; done; rm -rf "$D"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
MK="make --no-print-directory -s"

if [ "$J" -gt 1 ]; then
    # Prerequisites of the suite targets, from make's own database (-p, nothing run: -q).
    pre=$(make -pq --no-print-directory "$@" 2>/dev/null | awk -v want=" $* " '
        /^# Files/ { files = 1 }
        files && /^[^#\t ][^=]*:/ && $0 !~ /[:?+]?=/ {
            t = $1; sub(/:.*/, "", t)
            if (index(want, " " t " ")) for (i = 2; i <= NF; ++i) print $i
        }' | sort -u | tr '\n' ' ')
    t0=$(date +%s)
    if $MK -j"$J" -k $pre ${TEST_PREBUILD:-} >"$D/build.log" 2>&1; then
        echo "=== tools built ($(($(date +%s) - t0)) s)"
    else
        echo "=== tools built ($(($(date +%s) - t0)) s; some failed: their suites report it)"
    fi
fi

is_serial() { case " ${TEST_SERIAL:-} " in *" $1 "*) return 0 ;; esac; return 1; }

tp=0; tf=0
# Prints one finished suite's block and adds its result line to the totals.
report() {
    s=$1
    rc=$(cat "$D/$s.rc")
    echo "=== suite $s ($(cat "$D/$s.time") s)"
    cat "$D/$s.out"
    line=$(grep -E '^([A-Za-z0-9-]+: )?[0-9]+ passed, [0-9]+ failed' "$D/$s.out" | tail -n 1)
    if [ -z "$line" ]; then
        echo "suite $s: no result line (exit $rc)"; tf=$((tf + 1)); return
    fi
    p=$(printf '%s\n' "$line" | sed -E 's/^([A-Za-z0-9-]+: )?([0-9]+) passed, ([0-9]+) failed.*/\2/')
    f=$(printf '%s\n' "$line" | sed -E 's/^([A-Za-z0-9-]+: )?([0-9]+) passed, ([0-9]+) failed.*/\3/')
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "suite $s: exit status $rc"; f=1
    fi
    tp=$((tp + p)); tf=$((tf + f))
}

pending=" $* "
running=""
while [ -n "$(echo $pending)" ] || [ -n "$running" ]; do
    # Start what may start: at most J at a time, one serial suite at a time, in list order.
    for s in $pending; do
        n=0; ser=0
        for r in $running; do n=$((n + 1)); if is_serial "$r"; then ser=1; fi; done
        [ $n -lt "$J" ] || break
        if is_serial "$s" && [ $ser -eq 1 ]; then continue; fi
        pending=$(echo "$pending" | sed "s/ $s / /")
        running="$running $s"
        ( t0=$(date +%s); $MK "$s" >"$D/$s.out" 2>&1; rc=$?
          echo $(($(date +%s) - t0)) >"$D/$s.time"; echo $rc >"$D/$s.rc.tmp"; mv "$D/$s.rc.tmp" "$D/$s.rc" ) &
        pids="$pids $!"
    done
    # Report what has finished.
    still=""
    for r in $running; do
        if [ -f "$D/$r.rc" ]; then report "$r"; else still="$still $r"; fi
    done
    running=$still
    if [ -n "$running" ]; then sleep 1; fi
done
wait
echo "$tp passed, $tf failed"
[ "$tf" -eq 0 ]
