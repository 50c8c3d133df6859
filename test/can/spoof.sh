#!/bin/sh
# The CAN second-sender scenario of issue 31 (POSIX sh; runs under busybox in the PREEMPT_RT
# guest of make rtkernel-test, and on any Linux with a vcan interface): on IF, at once,
#   hilstep-rt  --transport can       circular_track plant, SCHED_FIFO 80, DUR s
#   hilstep-ecu --transport can       PI speed controller, SCHED_FIFO 70, from 1 s to DUR - 1 s
#   hilstep-can-spoof                 a third node, from 1.5 s to DUR - 2.5 s (inside the ECU's
#                                     run, so the ECU hears every forgery it sends): after each
#                                     genuine EcuCommand it sends one at F_t = +45.5 N (not the ECU's own 50 N limit, which a genuine saturated command reaches), after each
#                                     genuine PlantState one at speed = -30 m/s (which would
#                                     make the PI command +50 N), each with a valid CRC and a
#                                     repeated or jumped counter, or a wrong CRC
# test/can/spoof_check.sh judges OUT on the host. Usage: spoof.sh IF OUT DUR_S PERIOD_US DBC
# [BIN_DIR] [PREFIX]. Writes OUT/PREFIX_{rt,ecu,atk}.{out,rc,stats}, OUT/PREFIX_rt.csv (the
# plant's telemetry: the command it applied each step) and OUT/PREFIX_atk.targets (the
# attacker's --target options: the values the check looks for) (PREFIX default spoof). Environment: SPOOF_TARGETS (the attacker's --target options, default
# both messages), SPOOF_MODES (its --modes), SECOC_KEY (the key file of a DBC's SecOC messages,
# for both ends: --transport-opt secoc-key=FILE).
IF=$1; O=$2; DUR=$3; PERIOD=$4; DBC=$5; BIN=${6:-}; P=${7:-spoof}
[ -n "$BIN" ] && BIN="$BIN/"
mkdir -p "$O"
LIM=$((DUR + 15))
BUS="--transport can --can-if $IF --dbc $DBC --period-us $PERIOD${CAN_TP_OPT:+ --transport-opt $CAN_TP_OPT}"
BUS="$BUS${SECOC_KEY:+ --transport-opt secoc-key=$SECOC_KEY}"
TARGETS=${SPOOF_TARGETS:---target EcuCommand=F_t:45.5 --target PlantState=speed:-30}
echo "$TARGETS" >"$O/${P}_atk.targets"
( timeout -s KILL $LIM "${BIN}hilstep-rt" $BUS --duration "$DUR" --priority 80 --budget-us 1000000 \
    --quiet --log "$O/${P}_rt.csv" --stats "$O/${P}_rt.stats" >"$O/${P}_rt.out" 2>&1
  echo $? >"$O/${P}_rt.rc" ) &
RT=$!
sleep 1
( timeout -s KILL $LIM "${BIN}hilstep-ecu" $BUS --duration $((DUR - 2)) --priority 70 \
    --stats "$O/${P}_ecu.stats" >"$O/${P}_ecu.out" 2>&1; echo $? >"$O/${P}_ecu.rc" ) &
ECU=$!
sleep 0.5
# shellcheck disable=SC2086
timeout -s KILL $LIM "${BIN}hilstep-can-spoof" --can-if "$IF" --dbc "$DBC" --duration $((DUR - 4)) \
    $TARGETS ${SPOOF_MODES:+--modes $SPOOF_MODES} --stats "$O/${P}_atk.stats" \
    >"$O/${P}_atk.out" 2>&1
echo $? >"$O/${P}_atk.rc"
wait $ECU
wait $RT
exit 0
