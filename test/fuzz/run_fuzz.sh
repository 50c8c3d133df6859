#!/bin/sh
# Runs each libFuzzer harness of test/fuzz/ (built by fuzz.mk under ASan + UBSan) from its
# committed seed corpus test/fuzz/corpus/NAME.
#   run_fuzz.sh BUILD runs N NAME[=M]... N (or M) executions each, fixed seed (make test); a
#                                        harness passes when it exits 0 after at least that many
#   run_fuzz.sh BUILD seconds S NAME...  S seconds each; new inputs kept in BUILD/fuzz/corpus/NAME
# Prints each harness's execution count and ends with "fuzz: N passed, N failed". A crash
# leaves its reproducer in BUILD/fuzz/crash-NAME-*.
B=$1; mode=$2; amount=$3; shift 3
pass=0; fail=0
T=$(mktemp -d "${TMPDIR:-/tmp}/hs-fuzz.XXXXXX")
trap 'rm -rf "$T"' EXIT
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
for arg in "$@"; do
    # NAME or NAME=RUNS (that harness's own execution count in runs mode)
    name=${arg%%=*}
    want=$amount
    [ "$mode" = runs ] && [ "$arg" != "$name" ] && want=${arg#*=}
    bin="$B/fuzz/fuzz_$name"
    seeds="test/fuzz/corpus/$name"
    [ -d "$seeds" ] || { echo "  FAIL $name: no seed corpus $seeds"; fail=$((fail + 1)); continue; }
    dict=""; [ -f "test/fuzz/$name.dict" ] && dict="-dict=test/fuzz/$name.dict"
    if [ "$name" = mbfile ]; then
        # the description language's words, plus each element kind's keyword: its file's name
        # (model/elements/hs_mb_el_KIND.c, hs_mb_jt_KIND.c), so the list follows the tables
        { cat test/fuzz/mbfile.dict; echo
          for f in model/elements/hs_mb_el_*.c model/elements/hs_mb_jt_*.c; do
              b=${f##*/}; b=${b#hs_mb_??_}; echo "\"${b%.c}\""
          done; } >"$T/mbfile.dict"
        dict="-dict=$T/mbfile.dict"
    fi
    if [ "$mode" = runs ]; then
        work="$T/$name"; mkdir -p "$work"
        lim="-runs=$want -seed=1 -max_total_time=300"
    else
        work="$B/fuzz/corpus/$name"; mkdir -p "$work"
        lim="-max_total_time=$want"
    fi
    "$bin" $lim $dict -max_len=4096 -print_final_stats=1 -artifact_prefix="$B/fuzz/crash-$name-" \
        "$work" "$seeds" >"$T/$name.log" 2>&1
    rc=$?
    runs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+).*/\1/p' "$T/$name.log" | tail -n 1)
    secs=$(sed -nE 's/^Done [0-9]+ runs in ([0-9]+) second.*/\1/p' "$T/$name.log" | tail -n 1)
    cov=$(grep -oE 'cov: [0-9]+' "$T/$name.log" | tail -n 1)
    runs=${runs:-0}
    if [ $rc -eq 0 ] && { [ "$mode" != runs ] || [ "$runs" -ge "$want" ]; }; then
        pass=$((pass + 1))
        echo "  ok   fuzz_$name: $runs executions in ${secs:-?} s, $cov, no crash, ASan+UBSan clean"
    else
        fail=$((fail + 1))
        echo "  FAIL fuzz_$name: exit $rc after $runs executions (wanted $want $mode)"
        grep -E 'ERROR|SUMMARY|runtime error|deadly|Test unit written' "$T/$name.log" | head -8
    fi
done
echo "fuzz: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
