#!/bin/sh
# make run: the main job. Starts the software ECU (PI speed controller) and the real-time
# circular-track plant on loopback, closes the loop over UDP for DURATION seconds, and shows
# the live status, the summary, the latency percentiles, the verdict and the files written.
# MODEL=car: the car (model/vehicle/hs_veh.h) braking from 80 km/h with hilstep-ecu as its ABS
# (wheel-slip control from the wheel speeds, brake torque per wheel out; hil/VEHICLE.md).
# Exits with the plant's status (hil/hs_exit.h): 0 only for verdict PASS.
# Usage: run.sh BUILD_DIR DURATION_S [BUDGET_US]
B=${1:-build}
D=${2:-10}
BUDGET=${3:-}
case "$D" in ''|*[!0-9.]*) echo "make run: DURATION must be a number of seconds, got '$D'"; exit 1;; esac
PLANT=127.0.0.1:47001
ECU=127.0.0.1:47002
LIM=$(awk "BEGIN{print int($D) + 15}")
# TRANSPORT=can: the same loop over SocketCAN (hil/CAN.md) on CAN_IF with the shipped DBC.
TRANSPORT=${TRANSPORT:-udp}
CAN_IF=${CAN_IF:-vcan0}
DBC=${DBC:-hil/dbc/circular_track.dbc}
MODEL=${MODEL:-circular_track}
case "$MODEL" in
circular_track) M_RT="--model circular_track"; M_ECU="--model circular_track"
                TITLE="hilstep-rt (circular_track plant, 1 kHz) + hilstep-ecu (PI speed controller)";;
car) M_RT="--model car"; M_ECU="--model car --control abs"
     TITLE="hilstep-rt (car plant braking from 80 km/h, 1 kHz) + hilstep-ecu (ABS, 2500 N m demand per wheel)"
     [ "${TRANSPORT:-udp}" = udp ] || { echo "make run: MODEL=car runs over UDP (hil/dbc/car.dbc binds, but the ABS loop over CAN is not tested yet)"; exit 1; };;
*) echo "make run: MODEL must be circular_track or car, got '$MODEL'"; exit 1;;
esac
case "$TRANSPORT" in
udp) BUS_RT="--listen $PLANT --peer $ECU"; BUS_ECU="--listen $ECU --peer $PLANT"
     WHAT="UDP $PLANT <-> $ECU"; ECU_DUR="";;
can) if [ ! -e "/sys/class/net/$CAN_IF" ]; then
         echo "make run: no CAN interface '$CAN_IF' on this machine; TRANSPORT=can needs one. A virtual"
         echo "make run: bus: sudo modprobe vcan && sudo ip link add dev $CAN_IF type vcan && sudo ip link set up $CAN_IF"
         echo "make run: (or CAN_IF=can0 for a real one). Nothing was started."
         echo "make run: a kernel without vcan: make rtkernel-run (the plant on a bus in a PREEMPT_RT guest, your ECU here)"
         exit 2
     fi
     BUS_RT="--transport can --can-if $CAN_IF --dbc $DBC"; BUS_ECU="$BUS_RT"
     WHAT="CAN $CAN_IF with $DBC"
     # CAN has no FINAL frame: the ECU runs a second longer and is stopped after the plant.
     ECU_DUR="--duration $(awk "BEGIN{print $D + 1}")";;
*)   echo "make run: TRANSPORT must be udp or can, got '$TRANSPORT'"; exit 1;;
esac
echo "make run: $TITLE"
echo "make run: loop closed over $WHAT for $D s; Ctrl-C ends it early"
# The ECU gets an RT priority as well so the loop is not limited by it; without privileges it
# runs at normal priority and says nothing (the plant reports its own privileges).
timeout -k 2 "$LIM" "$B/hilstep-ecu" $M_ECU $BUS_ECU $ECU_DUR --priority 70 \
    --stats "$B/hilstep-ecu.stats" >"$B/hilstep-ecu.log" 2>&1 &
ECU_PID=$!
trap 'kill -TERM $ECU_PID 2>/dev/null' EXIT
trap ':' INT TERM  # the plant ends its run on the same signal and prints the summary
# --foreground: Ctrl-C must reach the plant, which then finishes the frame and reports.
timeout --foreground -k 2 "$LIM" "$B/hilstep-rt" $M_RT $BUS_RT --duration "$D" \
    ${BUDGET:+--budget-us "$BUDGET"} \
    --log "$B/hilstep-rt.csv" --stats "$B/hilstep-rt.stats" --hist "$B/hilstep-rt.hist"
rc=$?
[ "$TRANSPORT" = can ] && kill -TERM $ECU_PID 2>/dev/null
wait $ECU_PID 2>/dev/null
if [ "$MODEL" = car ] && [ -f "$B/hilstep-ecu.stats" ]; then
    awk -F= '{ v[$1] = $2 } END {
        printf "ECU: ticks %d  missed ticks %d  frames accepted %d  rejected %d  ABS acting %d ticks  max wheel slip %.3f\n",
               v["ticks"], v["missed_ticks"], v["rx_accepted"], v["rx_rejected"], v["abs_ticks"], v["slip_max"] }' \
        "$B/hilstep-ecu.stats"
    # the stop from the plant's telemetry: distance until the speed first falls below 0.5 m/s
    awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) { c[$i] = i } next }
        NR == 2 { x0 = $c["out_X[m]"] }
        !done && $c["out_speed[m/s]"] < 0.5 { printf "car: from 80 km/h to 0.5 m/s in %.3f s over %.2f m\n", $c["t_s"], $c["out_X[m]"] - x0; done = 1 }
        END { if (!done) print "car: still moving at the end of the run" }' "$B/hilstep-rt.csv"
elif [ -f "$B/hilstep-ecu.stats" ]; then
    awk -F= '{ v[$1] = $2 } END {
        printf "ECU: ticks %d  missed ticks %d  frames accepted %d  rejected %d  speed error %.3g m/s  last command %.3f N\n",
               v["ticks"], v["missed_ticks"], v["rx_accepted"], v["rx_rejected"], v["speed_error"], v["command"] }' \
        "$B/hilstep-ecu.stats"
else
    echo "ECU: no stats (see $B/hilstep-ecu.log)"; tail -3 "$B/hilstep-ecu.log"
fi
echo "files: stats (key=value) $B/hilstep-rt.stats, histogram $B/hilstep-rt.hist, ECU log $B/hilstep-ecu.log"
# The latency is judged on a hard real-time run, or with BUDGET_US (hilstep-rt --budget-us).
[ $rc -eq 6 ] && echo "make run: over the latency budget (exit 6): judged because ${BUDGET:+BUDGET_US=$BUDGET was given}${BUDGET:-this is a hard real-time run}; a loaded machine misses it too; BUDGET_US=... sets another budget."
case $rc in 9|10|11) echo "make run: the ECU link failed (exit $rc, the verdict line names the input or the cause; see $B/hilstep-ecu.log)";; esac
exit $rc
