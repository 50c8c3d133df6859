#!/bin/sh
# make run: the main job. Starts the software ECU (PI speed controller) and the real-time
# circular-track plant on loopback, closes the loop over UDP for DURATION seconds, and shows
# the live status, the summary, the latency histogram and the telemetry CSV path.
# Usage: run.sh BUILD_DIR DURATION_S
B=${1:-build}
D=${2:-10}
case "$D" in ''|*[!0-9.]*) echo "make run: DURATION must be a number of seconds, got '$D'"; exit 1;; esac
PLANT=127.0.0.1:47001
ECU=127.0.0.1:47002
LIM=$(awk "BEGIN{print int($D) + 15}")
echo "make run: hilstep-rt (circular_track plant, 1 kHz) + hilstep-ecu (PI speed controller)"
echo "make run: loop closed over UDP $PLANT <-> $ECU for $D s; Ctrl-C ends it early"
# The ECU gets an RT priority as well so the loop is not limited by it; without privileges it
# runs at normal priority and says nothing (the plant reports its own privileges).
timeout -k 2 "$LIM" "$B/hilstep-ecu" --listen $ECU --peer $PLANT --priority 70 \
    --stats "$B/hilstep-ecu.stats" >"$B/hilstep-ecu.log" 2>&1 &
ECU_PID=$!
trap 'kill -TERM $ECU_PID 2>/dev/null' EXIT
trap ':' INT TERM  # the plant ends its run on the same signal and prints the summary
# --foreground: Ctrl-C must reach the plant, which then finishes the frame and reports.
timeout --foreground -k 2 "$LIM" "$B/hilstep-rt" --listen $PLANT --peer $ECU --duration "$D" \
    --log "$B/hilstep-rt.csv" --stats "$B/hilstep-rt.stats" --hist "$B/hilstep-rt.hist"
rc=$?
wait $ECU_PID 2>/dev/null
if [ -f "$B/hilstep-ecu.stats" ]; then
    awk -F= '/^(ticks|missed_ticks|rx_accepted|rx_rejected|speed_error|command)=/ {printf "%s %s  ", $1, $2} END {print ""}' \
        "$B/hilstep-ecu.stats" | sed 's/^/ECU: /'
else
    echo "ECU: no stats (see $B/hilstep-ecu.log)"; tail -3 "$B/hilstep-ecu.log"
fi
echo "stats (key=value): $B/hilstep-rt.stats, ECU log: $B/hilstep-ecu.log"
exit $rc
