#!/bin/sh
# The CAN bus scenario of issue 17 (POSIX sh; runs under busybox in the PREEMPT_RT guest of make
# rtkernel-test, and on any Linux with a vcan interface): at the same time, on IF,
#   candump -L logging the bus        (started first, stopped last)
#   hilstep-rt  --transport can       circular_track plant, SCHED_FIFO 80, mlockall, DUR s
#   hilstep-ecu --transport can       PI speed controller, SCHED_FIFO 70, started 1 s after the
#                                     plant and ended before it (DUR - 2 s), so the plant reads
#                                     every frame the ECU sends
# Then test/can/check_candump.py (host side: it needs python3-canmatrix) judges OUT:
#   check_candump.py OUT/TAG.candump DBC OUT/TAG_rt.csv OUT/TAG_rt.stats OUT/TAG_ecu.stats
# Usage: scenario.sh IF OUT DUR_S PERIOD_US DBC [TAG [BIN_DIR]]  (TAG names the files, default
# "can"; BIN_DIR: where hilstep-rt and hilstep-ecu are, default: PATH). Writes
# OUT/TAG_{rt,ecu}.{out,rc,stats}, OUT/TAG_rt.{csv,hist} and OUT/TAG.candump.
# Exit status: the plant's (0 complete; 6 the latency verdict, which emulation may fail).
IF=$1; O=$2; DUR=$3; PERIOD=$4; DBC=$5; TAG=${6:-can}; BIN=${7:-}
[ -n "$BIN" ] && BIN="$BIN/"
mkdir -p "$O"
LIM=$((DUR + 15))
# CAN_TP_OPT (environment): one --transport-opt for both ends, e.g. e2e-cadence=off under TCG.
BUS="--transport can --can-if $IF --dbc $DBC --period-us $PERIOD${CAN_TP_OPT:+ --transport-opt $CAN_TP_OPT}"
candump -L "$IF" >"$O/$TAG.candump" 2>"$O/${TAG}_candump.err" &
CD=$!
sleep 0.5
# The latency verdict is not what this scenario judges: a 1 s budget leaves exit 0 to mean a
# complete run, no refused step, no lost output.
# The ECU ends a second before the plant on purpose (the plant reads every frame it sent), so
# the plant's inputs fall back for that last second: allowed here, for the whole run's ticks.
( timeout -s KILL $LIM "${BIN}hilstep-rt" $BUS --duration "$DUR" --priority 80 --budget-us 1000000 \
    --max-fallback-ticks $(( (DUR + 1) * 1000000 / PERIOD )) \
    --quiet --log "$O/${TAG}_rt.csv" --stats "$O/${TAG}_rt.stats" --hist "$O/${TAG}_rt.hist" \
    >"$O/${TAG}_rt.out" 2>&1; echo $? >"$O/${TAG}_rt.rc" ) &
RT=$!
sleep 1
timeout -s KILL $LIM "${BIN}hilstep-ecu" $BUS --duration $((DUR - 2)) --priority 70 \
    --stats "$O/${TAG}_ecu.stats" >"$O/${TAG}_ecu.out" 2>&1
echo $? >"$O/${TAG}_ecu.rc"
wait $RT
sleep 0.3
kill -TERM $CD 2>/dev/null
wait $CD 2>/dev/null
exit "$(cat "$O/${TAG}_rt.rc")"
