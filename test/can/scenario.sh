#!/bin/sh
# The CAN bus scenario of issue 17 (POSIX sh; runs under busybox in the PREEMPT_RT guest of make
# rtkernel-test, and on any Linux with a vcan interface): at the same time, on IF,
#   candump -L logging the bus        (started first, stopped last)
#   hilstep-rt  --transport can       circular_track plant, SCHED_FIFO 80, mlockall, DUR s
#   hilstep-ecu --transport can       PI speed controller, SCHED_FIFO 70, started 1 s after the
#                                     plant and ended before it (DUR - 2 s), so the plant reads
#                                     every frame the ECU sends
# Then test/can/check_candump.py (host side: it needs python3-canmatrix) judges OUT:
#   check_candump.py OUT/can.candump DBC OUT/can_rt.csv OUT/can_rt.stats OUT/can_ecu.stats
# Usage: scenario.sh IF OUT DUR_S PERIOD_US DBC [BIN_DIR]  (BIN_DIR: where hilstep-rt and
# hilstep-ecu are; default: PATH). Writes OUT/can_*.{out,rc,stats,csv,hist} and OUT/can.candump.
# Exit status: the plant's (0 complete; 6 the latency verdict, which emulation may fail).
IF=$1; O=$2; DUR=$3; PERIOD=$4; DBC=$5; BIN=${6:-}
[ -n "$BIN" ] && BIN="$BIN/"
mkdir -p "$O"
LIM=$((DUR + 15))
BUS="--transport can --can-if $IF --dbc $DBC --period-us $PERIOD"
candump -L "$IF" >"$O/can.candump" 2>"$O/can_candump.err" &
CD=$!
sleep 0.5
# The latency verdict is not what this scenario judges: a 1 s budget leaves exit 0 to mean a
# complete run, no refused step, no lost output.
( timeout -s KILL $LIM "${BIN}hilstep-rt" $BUS --duration "$DUR" --priority 80 --budget-us 1000000 \
    --quiet --log "$O/can_rt.csv" --stats "$O/can_rt.stats" --hist "$O/can_rt.hist" \
    >"$O/can_rt.out" 2>&1; echo $? >"$O/can_rt.rc" ) &
RT=$!
sleep 1
timeout -s KILL $LIM "${BIN}hilstep-ecu" $BUS --duration $((DUR - 2)) --priority 70 \
    --stats "$O/can_ecu.stats" >"$O/can_ecu.out" 2>&1
echo $? >"$O/can_ecu.rc"
wait $RT
sleep 0.3
kill -TERM $CD 2>/dev/null
wait $CD 2>/dev/null
exit "$(cat "$O/can_rt.rc")"
