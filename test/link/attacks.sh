#!/bin/sh
# The two link attacks of issue 16, end to end, each by a second process on the plant's host
# (test/link/attacker.py) against hilstep-rt; each check failed on main before the fix.
#  hijack:   while plant and hilstep-ecu run, a process of the same user tries to bind the
#            plant's and the ECU's addresses (SO_REUSEPORT, SO_REUSEADDR, plain) to read their
#            frames, then forges 1 kHz input frames of 37.25 N. Before: it read 1,788 ECU frames
#            in 2 s and its frames were applied. Now: every bind refused, 0 frames read, its
#            frames counted as foreign, the plant's input never 37.25 N.
#  takeover: an ECU stand-in (session A, 2 N every 1 ms) pauses 5 ms; during the pause a second
#            process sends 3 frames of session B carrying -40 N from the ECU's address. Before:
#            they took the link over and the real ECU was refused for good. Now: 3 counted as
#            session_unconfirmed, no restart, the real ECU's frames used before and after.
# Usage: attacks.sh BUILD_DIR. Ends with "N passed, N failed".
B=${1:-build}
T=$(mktemp -d "${TMPDIR:-/tmp}/hs-attacks.XXXXXX")
. "$(dirname "$0")/lib.sh"

# ---- hijack -------------------------------------------------------------------------------
BASE=$($PY test/linux/free_ports.py 2) || { echo "no free ports"; echo "0 passed, 1 failed"; exit 1; }
PLANT=127.0.0.1:$BASE; ECU=127.0.0.1:$((BASE + 1))
timeout -k 2 20 "$B/hilstep-ecu" --listen $ECU --peer $PLANT --quiet --priority 70 --stats "$T/h_ecu.stats" >"$T/h_ecu.out" 2>&1 &
E=$!; PIDS="$PIDS $E"
timeout -k 2 20 "$B/hilstep-rt" --listen $PLANT --peer $ECU --duration 3 --quiet --priority 0 $BUDGET \
    --log "$T/h.csv" --stats "$T/h_rt.stats" >"$T/h_rt.out" 2>&1 &
P=$!; PIDS="$PIDS $P"
sleep 0.5
timeout -k 2 10 $PY test/link/attacker.py hijack $PLANT $ECU 1.0 37.25 >"$T/h_att.out" 2>&1
wait $P; rc=$?; wait $E
stolen=$(key stolen_frames "$T/h_att.out"); forged=$(key forged_sent "$T/h_att.out")
from=$(key forged_from "$T/h_att.out")
bp=$(key bind_plant_address "$T/h_att.out"); be=$(key bind_ecu_address "$T/h_att.out")
foreign=$(key rx_rej_foreign_address "$T/h_rt.stats"); used=$(key rx_used "$T/h_rt.stats")
gaps=$(key rx_seq_gaps "$T/h_rt.stats"); kd=$(key rx_kernel_drops "$T/h_rt.stats")
frames=$(key frames "$T/h_rt.stats")
bad=$(rows_with "$T/h.csv" 37.25)
echo "  info hijack: bind plant address: $bp; bind ECU address: $be; frames read: $stolen; forged $forged frames from $from"
echo "  info hijack: plant rx_rej_foreign_address $foreign, rx_used $used, CSV rows with 37.25 N: $bad"
[ $rc -eq 0 ] && ok "plant exit 0 during the hijack attempt" || { ko "plant exit $rc"; tail -3 "$T/h_rt.out"; }
case "$bp$be" in refused*refused*) ok "a second socket cannot bind the plant's or the ECU's address";;
    *) ko "a second socket bound the link's addresses (plant: $bp, ECU: $be)";; esac
[ "$stolen" = 0 ] && ok "the second process read 0 frames of the link" || ko "the second process read '$stolen' frames"
[ "$bad" = 0 ] && [ -n "$forged" ] && [ "$forged" -gt 0 ] && ok "plant input never on the attacker's 37.25 N ($forged forged frames)" \
    || ko "plant input on the attacker's value in '$bad' rows (forged '$forged')"
[ "$from" = own_port ] && [ "$foreign" = "$forged" ] && ok "every forged frame counted as foreign: $foreign" \
    || ko "foreign count '$foreign' != forged '$forged' (from $from)"
# A stolen ECU frame is a gap in the plant's view of the ECU's sequence (before: 1,039 read).
# rx_used only shows the loop ran (superseded frames when a loaded box misses ticks).
[ "$gaps" = 0 ] && [ "$kd" = 0 ] && [ -n "$used" ] && [ "$used" -ge $((frames / 2)) ] \
    && ok "no ECU frame diverted (seq gaps 0, kernel drops 0), rx_used $used of $frames frames" \
    || ko "ECU frames diverted or unused: seq gaps '$gaps', kernel drops '$kd', rx_used '$used' of '$frames'"

# ---- takeover -----------------------------------------------------------------------------
# The scenario is a 5 ms pause; a machine so loaded that the stand-in slept 15 ms or more
# (close to the 20 ms limit, when a takeover would be right) does not realize it: run again,
# at most 3 times.
for attempt in 1 2 3; do
    BASE=$($PY test/linux/free_ports.py 2) || { echo "no free ports"; echo "$pass passed, $((fail + 1)) failed"; exit 1; }
    PLANT=127.0.0.1:$BASE; ECU=127.0.0.1:$((BASE + 1))
    # The stand-in speaks version 1: the session rules of the --no-auth link (attacks31.sh has
    # the authenticated default).
    timeout -k 2 20 "$B/hilstep-rt" --listen $PLANT --peer $ECU --duration 3 --quiet --priority 0 $BUDGET --no-auth \
        --log "$T/t.csv" --stats "$T/t_rt.stats" >"$T/t_rt.out" 2>&1 &
    P=$!; PIDS="$PIDS $P"
    sleep 0.3
    # The stand-in outlives the plant's 3 s (it starts 0.3 s later), pausing at 1.75 s.
    timeout -k 2 10 $PY test/link/attacker.py takeover $PLANT $ECU 3.5 2.0 -40 >"$T/t_att.out" 2>&1
    wait $P; rc=$?
    pause=$(key pause_ms "$T/t_att.out")
    awk -v p="$pause" 'BEGIN { exit !(p != "" && p < 15) }' && break
    echo "  info takeover: the stand-in's pause took $pause ms on this loaded machine (attempt $attempt of 3)"
done
stray=$(key stray_sent "$T/t_att.out"); real=$(key real_sent "$T/t_att.out")
unconf=$(key rx_rej_session_unconfirmed "$T/t_rt.stats"); restarts=$(key rx_peer_restarts "$T/t_rt.stats")
old=$(key rx_rej_session_old "$T/t_rt.stats"); acc=$(key rx_accepted "$T/t_rt.stats")
bad=$(rows_with "$T/t.csv" -40); good=$(rows_with "$T/t.csv" 2); rows=$(rows_since "$T/t.csv" 2)
last=$(tail -n 1 "$T/t.csv" | awk -F, -v h="$(head -n 1 "$T/t.csv")" 'BEGIN { n = split(h, f, ","); for (i = 1; i <= n; i++) if (f[i] ~ /^in_F_t/) c = i } { print $c }')
echo "  info takeover: ECU pause $pause ms with $stray stray frames of a new session from a second process; real ECU sent $real"
echo "  info takeover: plant rx_rej_session_unconfirmed $unconf, rx_peer_restarts $restarts, rx_rej_session_old $old, rx_accepted $acc; CSV rows at -40 N: $bad, at 2 N: $good of the $rows since the ECU's first frame"
# The stray frames came from the ECU's own address: the link refused them, and the verdict
# fails the run on them (exit 9, link health: a forged frame is a failing verdict).
[ $rc -eq 9 ] && grep -q "^verdict: FAIL link: 3 frames from the ECU rejected (session_unconfirmed 3; limit 0)" "$T/t_rt.out" \
    && ok "plant exit 9 after the takeover attempt: the verdict names the 3 session_unconfirmed frames" \
    || { ko "plant exit $rc (want 9)"; grep '^verdict' "$T/t_rt.out"; }
[ "$stray" = 3 ] && [ "$unconf" = 3 ] && [ "$restarts" = 0 ] && ok "3 stray frames during the 5 ms pause: 3 session_unconfirmed, no takeover" \
    || ko "stray '$stray', session_unconfirmed '$unconf', peer_restarts '$restarts'"
[ "$bad" = 0 ] && ok "plant input never on the stray -40 N" || ko "plant input on the stray -40 N in $bad rows"
# Locked out, the real ECU's frames would be session_old and the input on its fallback 0 N.
[ "$old" = 0 ] && [ "$last" = 2 ] && [ "$good" -ge $((rows * 3 / 4)) ] \
    && ok "the real ECU's frames kept being used after the pause (session_old 0, $good of $rows rows at 2 N, last $last N)" \
    || ko "real ECU refused after the pause: session_old '$old', $good of $rows rows at 2 N, last input '$last'"
# The limit is an option of both tools, said at start (a 2 ms limit is what let the pause win).
BASE=$($PY test/linux/free_ports.py 2)
"$B/hilstep-rt" --listen 127.0.0.1:$BASE --peer 127.0.0.1:$((BASE + 1)) --takeover-ms 7 --duration 0.01 \
    --quiet --priority 0 --log none --budget-us 1000000 >"$T/lim_rt.out" 2>&1
"$B/hilstep-ecu" --listen 127.0.0.1:$((BASE + 1)) --peer 127.0.0.1:$BASE --takeover-ms 7 --timeout-ms 1 \
    --quiet >"$T/lim_ecu.out" 2>&1
grep -q "takes over only after more than 7 frames (7.0 ms) of silence" "$T/lim_rt.out" \
    && grep -q "takes over only after more than 7 frames (7.0 ms) of silence" "$T/lim_ecu.out" \
    && ok "--takeover-ms 7: both tools state the limit (7 frames of 1 ms)" || ko "--takeover-ms 7 not stated: $(head -n 2 "$T/lim_rt.out" "$T/lim_ecu.out")"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
