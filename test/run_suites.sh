#!/bin/sh
# Runs each make target named on the command line as a test suite and sums the
# "N passed, N failed" line each suite ends with. A suite that prints no such line or exits
# non-zero counts as one failure. Ends with the total line, alone.
#
#   run_suites.sh [-j N] SUITE...
#
# -j N runs N suites at a time (default 1). What happens is printed as it happens, one line
# each: "--- start NAME" when a suite starts, and when it ends its output as one block
# (headed "=== suite NAME (S s)", kept together even when suites run side by side) followed
# by "--- end NAME (S s): P passed, F failed". The tools build is announced the same way
# ("--- start build", "--- end build (S s)").
#
# The tools: before a suite starts, the tools it needs (its target's prerequisites) are built
# by one `make -j N -k` for all suites (plus $TEST_PREBUILD, the images the suites' recipes
# make), so two suites never build the same file at once; a tool that fails to build fails
# the suites that need it, when they try again. The suites of $TEST_EARLY (recipes that build
# nothing beyond their prerequisites) do not wait for all of it: their own prerequisites are
# built first, in a make of their own, and they start while the rest builds (then one suite
# runs beside the build; N - 1 of them in general).
# Suites named in $TEST_SERIAL never run at the same time as each other (they use UDP ports
# on 127.0.0.1 and real-time budgets: each picks free ports, but two could pick the same
# free range between checking and binding).
# $TEST_TIMES, when set, names a file that gets one line per phase and suite: NAME wall-s
# cpu-s (user + system of everything it ran), for the timing table of test/README.md.
J=1
if [ "${1:-}" = "-j" ]; then J=$2; shift 2; fi
case $J in ''|*[!0-9]*|0) echo "run_suites.sh: -j needs a positive integer" >&2; exit 2 ;; esac
D=$(mktemp -d "${TMPDIR:-/tmp}/hilstep-suites.XXXXXX") || exit 1
pids=""
cleanup() { for p in $pids; do kill "$p" 2>/dev/null; done; rm -rf "$D"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
MK="make --no-print-directory -s"
T0=$(date +%s)
if [ -n "${TEST_TIMES:-}" ]; then : >"$TEST_TIMES" || { echo "run_suites.sh: cannot write $TEST_TIMES" >&2; exit 2; }; fi

# Runs "$@" in the background as job NAME: output to $D/NAME.out, then $D/NAME.time (wall
# seconds), $D/NAME.cpu (user + system seconds of its children) and last $D/NAME.rc.
job() {
    n=$1; shift
    ( t0=$(date +%s); "$@" >"$D/$n.out" 2>&1; rc=$?
      echo $(($(date +%s) - t0)) >"$D/$n.time"
      # not piped: a pipeline's `times` runs in a subshell of its own, which has no children
      times >"$D/$n.times"
      awk 'NR == 2 { split($1, u, "m"); split($2, s, "m");
          printf "%.1f\n", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$D/$n.times" >"$D/$n.cpu"
      echo $rc >"$D/$n.rc.tmp"; mv "$D/$n.rc.tmp" "$D/$n.rc" ) &
    pids="$pids $!"
}
record_times() {
    [ -n "${TEST_TIMES:-}" ] || return 0
    echo "$1 $(cat "$D/$1.time") $(cat "$D/$1.cpu" 2>/dev/null || echo 0)" >>"$TEST_TIMES"
}

# The prerequisites of the suite targets named in $1, from make's own database (-p, nothing
# run: -q), one word each.
prereqs() {
    make -pq --no-print-directory $1 2>/dev/null | awk -v want=" $1 " '
        /^# Files/ { files = 1 }
        files && /^[^#\t ][^=]*:/ && $0 !~ /[:?+]?=/ {
            t = $1; sub(/:.*/, "", t)
            if (index(want, " " t " ")) for (i = 2; i <= NF; ++i) print $i
        }' | sort -u | tr '\n' ' '
}

in_list() { case " $2 " in *" $1 "*) return 0 ;; esac; return 1; }

early=""
built=1   # 1 once every tool is built (or failed to)
if [ "$J" -gt 1 ]; then
    for s in "$@"; do if in_list "$s" "${TEST_EARLY:-}"; then early="$early $s"; fi; done
    pre=$(prereqs "$*")
    epre=""
    [ -z "$early" ] || epre=$(prereqs "$early")
    built=0
    echo "--- start build (the tools of $# suites$( [ -z "$early" ] || echo "; first those of$early"))"
    # One lane: the early suites' tools, then everything; make never runs twice at once here.
    job build sh -c '
        rc=0
        if [ -n "$2" ]; then $1 -j"$3" -k $2 || rc=1; fi
        : >"$4/build.early"
        $1 -j"$3" -k $5 || rc=1
        exit $rc' build "$MK" "$epre" "$J" "$D" "$pre ${TEST_PREBUILD:-}"
fi

is_serial() { in_list "$1" "${TEST_SERIAL:-}"; }
# May suite $1 start now? After the build, or during it an early suite whose tools are built.
ready() {
    [ "$built" -eq 1 ] && return 0
    in_list "$1" "$early" && [ -f "$D/build.early" ]
}

tp=0; tf=0
# Prints one finished suite's block and its end line, and adds its result to the totals.
report() {
    s=$1
    rc=$(cat "$D/$s.rc")
    record_times "$s"
    echo "=== suite $s ($(cat "$D/$s.time") s)"
    cat "$D/$s.out"
    line=$(grep -E '^([A-Za-z0-9-]+: )?[0-9]+ passed, [0-9]+ failed' "$D/$s.out" | tail -n 1)
    if [ -z "$line" ]; then
        echo "suite $s: no result line (exit $rc)"; p=0; f=1
    else
        p=$(printf '%s\n' "$line" | sed -E 's/^([A-Za-z0-9-]+: )?([0-9]+) passed, ([0-9]+) failed.*/\2/')
        f=$(printf '%s\n' "$line" | sed -E 's/^([A-Za-z0-9-]+: )?([0-9]+) passed, ([0-9]+) failed.*/\3/')
        if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
            echo "suite $s: exit status $rc"; f=1
        fi
    fi
    echo "--- end $s ($(cat "$D/$s.time") s): $p passed, $f failed"
    tp=$((tp + p)); tf=$((tf + f))
}

pending=" $* "
running=""
while [ -n "$(echo $pending)" ] || [ -n "$running" ] || [ "$built" -eq 0 ]; do
    if [ "$built" -eq 0 ] && [ -f "$D/build.rc" ]; then
        built=1
        record_times build
        if [ "$(cat "$D/build.rc")" -eq 0 ]; then
            echo "--- end build ($(cat "$D/build.time") s)"
        else
            echo "--- end build ($(cat "$D/build.time") s; some tools failed: their suites report it)"
        fi
    fi
    # Start what may start, in list order: at most J at a time (J - 1 beside the build), one
    # serial suite at a time.
    lanes=$J
    [ "$built" -eq 1 ] || lanes=$((J - 1))
    for s in $pending; do
        n=0; ser=0
        for r in $running; do n=$((n + 1)); if is_serial "$r"; then ser=1; fi; done
        [ $n -lt "$lanes" ] || break
        ready "$s" || continue
        if is_serial "$s" && [ $ser -eq 1 ]; then continue; fi
        pending=$(echo "$pending" | sed "s/ $s / /")
        running="$running $s"
        echo "--- start $s (at $(($(date +%s) - T0)) s)"
        job "$s" $MK "$s"
    done
    # Report what has finished.
    still=""
    for r in $running; do
        if [ -f "$D/$r.rc" ]; then report "$r"; else still="$still $r"; fi
    done
    running=$still
    if [ -n "$running" ] || [ "$built" -eq 0 ]; then sleep 1; fi
done
wait
if [ -n "${TEST_TIMES:-}" ]; then echo "total $(($(date +%s) - T0)) 0" >>"$TEST_TIMES"; fi
echo "$tp passed, $tf failed"
[ "$tf" -eq 0 ]
