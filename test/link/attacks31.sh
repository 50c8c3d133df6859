#!/bin/sh
# The link attacks of issue 31 (items 1 and 2) against the link authenticated by default, each
# by processes other than the plant (test/link/attacker.py); on main before the fix each one
# injected: 1,943 rows at 50 N, 4,516 ECU frames session_old, 2,459 after a replay; exit 0.
#  squat:  another user (nobody, when this runs as root; else a process of this user that does
#          not read the key file) binds the ECU's address before hilstep-ecu starts and streams
#          a new session at 50 N, version 1 and version 3 answering the challenge it reads.
#  pause:  a keyed ECU stand-in pauses 30 ms; during the pause a second process without the
#          key sends 3 frames of a new session at 50 N from the ECU's address.
#  replay: frames of a keyed ECU captured in an earlier run, replayed during the pause.
#  no-auth: the pause with --no-auth: the stray frames may win (no key), the ECU wins back.
# Each: no CSV row at the attacker's value, the live ECU keeps (or gets back) the link, the
# rejections counted by cause, the verdict names them and the exit status is 8.
# Usage: attacks31.sh BUILD_DIR. Ends with "N passed, N failed".
B=${1:-build}
T=$(mktemp -d "${TMPDIR:-/tmp}/hs-att31.XXXXXX")
. "$(dirname "$0")/lib.sh"
last_in() { tail -n 1 "$1" | awk -F, -v h="$(head -n 1 "$1")" 'BEGIN { n = split(h, f, ","); for (i = 1; i <= n; i++) if (f[i] ~ /^in_F_t/) c = i } { print $c + 0 }'; }
KEY="$T/cfg/hilstep/link.key"
ports() { BASE=$($PY test/linux/free_ports.py 2) || { echo "no free ports"; echo "$pass passed, $((fail + 1)) failed"; exit 1; }
          PLANT=127.0.0.1:$BASE; ECU=127.0.0.1:$((BASE + 1)); }
ports
"$B/hilstep-rt" --listen $PLANT --peer $ECU --duration 0.01 --quiet --log none $BUDGET >"$T/mk.out" 2>&1
[ -f "$KEY" ] && [ "$(stat -c %a "$KEY")" = 600 ] && [ "$(stat -c %a "$T/cfg/hilstep")" = 700 ] \
    && grep -q "created the per-user key $KEY" "$T/mk.out" \
    && ok "first use: the per-user key created mode 0600 in a 0700 directory, and said" \
    || ko "per-user key not created as 0600/0700: $(ls -la "$T/cfg/hilstep" 2>&1 | tr '\n' ' ')"

# ---- squat: another user binds the ECU's address first ------------------------------------
AS=""
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
    AS="setpriv --reuid=$(id -u nobody) --regid=$(id -g nobody) --clear-groups --"
    $AS test -r "$KEY" && ko "user nobody can read the key file" \
        || ok "the other user (nobody, uid $(id -u nobody)) cannot read the key file"
else
    echo "  info squat: not root, no second Unix user: the attacker is a process of this user that does not read the key file"
fi
ports
# the other user cannot read this checkout (a clone under a 0700 mktemp directory, say): it
# runs a copy of the attacker from a directory of its own that it can read
AD=$(mktemp -d "${TMPDIR:-/tmp}/hs-att31-nobody.XXXXXX"); chmod 755 "$AD"; cp test/link/attacker.py "$AD/"
chmod 644 "$AD/attacker.py"
timeout -k 2 10 $AS $PY "$AD/attacker.py" squat $PLANT $ECU 3.6 50 >"$T/s_att.out" 2>&1 &
A=$!; PIDS="$PIDS $A"
sleep 0.3
timeout -k 2 20 "$B/hilstep-rt" --listen $PLANT --peer $ECU --duration 3 --quiet --priority 0 $BUDGET \
    --log "$T/s.csv" --stats "$T/s_rt.stats" >"$T/s_rt.out" 2>&1 &
P=$!; PIDS="$PIDS $P"
sleep 0.2
timeout -k 2 10 "$B/hilstep-ecu" --listen $ECU --peer $PLANT --quiet --timeout-ms 2000 >"$T/s_ecu.out" 2>&1; erc=$?
wait $P; rc=$?; wait $A; rm -rf "$AD"
bound=$(key bind_ecu_address "$T/s_att.out"); forged=$(key forged_sent "$T/s_att.out")
chal=$(key challenge_seen "$T/s_att.out")
bm=$(key rx_rej_bad_mac "$T/s_rt.stats"); acc=$(key rx_accepted "$T/s_rt.stats"); dg=$(key rx_datagrams "$T/s_rt.stats")
bad=$(rows_with "$T/s.csv" 50); rows=$(($(wc -l <"$T/s.csv") - 1))
echo "  info squat: attacker ${AS:+as nobody }bound the ECU's address: $bound, read the challenge: $chal, forged $forged frames at 50 N"
echo "  info squat: plant rx_datagrams $dg, rx_rej_bad_mac $bm, rx_accepted $acc; CSV rows at 50 N: $bad of $rows; plant exit $rc, hilstep-ecu exit $erc"
[ "$bound" = ok ] && ok "the attacker holds the ECU's address (the attack of issue 31 item 1)" || ko "attacker bind: '$bound'"
[ "$bad" = 0 ] && [ "$rows" -gt 1000 ] && ok "no row at the attacker's 50 N ($rows rows)" || ko "rows at 50 N: '$bad' of $rows"
[ "$acc" = 0 ] && [ -n "$bm" ] && [ "$bm" = "$dg" ] && [ "$bm" -gt 1000 ] \
    && ok "every forged frame refused as bad_mac ($bm of $dg), none accepted" || ko "bad_mac '$bm' of '$dg', accepted '$acc'"
[ $rc -eq 8 ] && grep -q "link attacked: $bm forged or wrong-key frames (bad_mac)" "$T/s_rt.out" \
    && ok "plant exit 8, the verdict names the forged frames" || { ko "plant exit $rc"; grep verdict "$T/s_rt.out"; }
[ $erc -eq 2 ] && grep -q "ddress already in use" "$T/s_ecu.out" \
    && ok "hilstep-ecu refuses to start on the held address (exit 2, 'address in use')" || ko "hilstep-ecu exit $erc: $(head -c 300 "$T/s_ecu.out")"

# ---- pause: 30 ms ECU pause, 3 stray frames without the key --------------------------------
pause_run() { # TAG PLANT_OPTS KEYFILE MODE [FILE]: a 3 s plant with the stand-in ECU
    ports
    timeout -k 2 20 "$B/hilstep-rt" --listen $PLANT --peer $ECU --duration 3 --quiet --priority 0 $BUDGET $2 \
        --log "$T/$1.csv" --stats "$T/$1_rt.stats" >"$T/$1_rt.out" 2>&1 &
    P=$!; PIDS="$PIDS $P"
    sleep 0.3
    timeout -k 2 10 $PY test/link/attacker.py ecu31 $PLANT $ECU 3.5 $6 50 "$3" $4 $5 >"$T/$1_att.out" 2>&1
    wait $P; rc=$?
}
pause_run p "" "$KEY" stray "" 2
stray=$(key stray_sent "$T/p_att.out"); pause=$(key pause_ms "$T/p_att.out")
bm=$(key rx_rej_bad_mac "$T/p_rt.stats"); rs=$(key rx_peer_restarts "$T/p_rt.stats"); old=$(key rx_rej_session_old "$T/p_rt.stats")
bad=$(rows_with "$T/p.csv" 50); good=$(rows_with "$T/p.csv" 2); rows=$(rows_since "$T/p.csv" 2); last=$(last_in "$T/p.csv")
echo "  info pause: ECU paused $pause ms, $stray stray frames at 50 N; plant bad_mac $bm, peer_restarts $rs, session_old $old; rows at 50 N: $bad, at 2 N: $good of $rows; exit $rc"
[ "$stray" = 3 ] && [ "$bm" = 3 ] && [ "$rs" = 0 ] && ok "3 stray frames during the 30 ms pause: 3 bad_mac, no takeover" \
    || ko "stray '$stray', bad_mac '$bm', peer_restarts '$rs'"
[ "$bad" = 0 ] && [ "$old" = 0 ] && [ "$last" = 2 ] && [ "$good" -ge $((rows * 3 / 4)) ] \
    && ok "no row at 50 N; the live ECU kept the link (session_old 0, $good of $rows rows at 2 N, last $last N)" \
    || ko "rows at 50 N '$bad', session_old '$old', $good of $rows rows at 2 N, last '$last'"
[ $rc -eq 8 ] && grep -q "link attacked: 3 forged" "$T/p_rt.out" && ok "plant exit 8, the verdict names the 3 forged frames" \
    || { ko "pause: plant exit $rc"; grep verdict "$T/p_rt.out"; }

# ---- replay: frames captured in an earlier run --------------------------------------------
pause_run cap "" "$KEY" capture "$T/capture.hex" 7.5
ncap=$(wc -l <"$T/capture.hex")
head -n 500 "$T/capture.hex" >"$T/replay.hex"  # 500 of them: the replay ends well inside the run
pause_run r "" "$KEY" replay "$T/replay.hex" 2
stray=$(key stray_sent "$T/r_att.out")
orun=$(key rx_rej_old_run "$T/r_rt.stats"); kd=$(key rx_kernel_drops "$T/r_rt.stats"); ref=$(key rx_peer_unreachable "$T/r_rt.stats"); rs=$(key rx_peer_restarts "$T/r_rt.stats"); old=$(key rx_rej_session_old "$T/r_rt.stats")
bad=$(rows_with "$T/r.csv" 7.5); good=$(rows_with "$T/r.csv" 2); rows=$(rows_since "$T/r.csv" 2); last=$(last_in "$T/r.csv")
echo "  info replay: $ncap authentic frames at 7.5 N captured in an earlier run, $stray of them replayed during a 30 ms pause; plant old_run $orun, peer_restarts $rs, session_old $old; rows at 7.5 N: $bad, at 2 N: $good of $rows; kernel drops $kd; exit $rc"
[ "$stray" = 500 ] && [ "$orun" = "$stray" ] && [ "$rs" = 0 ] \
    && ok "every replayed frame refused as old_run ($orun of $stray), no takeover" || ko "replayed '$stray', old_run '$orun', restarts '$rs'"
[ "$bad" = 0 ] && [ "$old" = 0 ] && [ "$last" = 2 ] && [ "$good" -ge $((rows * 3 / 4)) ] \
    && ok "no row at the captured 7.5 N; the live ECU kept the link ($good of $rows rows at 2 N)" \
    || ko "rows at 7.5 N '$bad', session_old '$old', $good of $rows at 2 N, last '$last'"
[ $rc -eq 8 ] && grep -q "$orun replayed from an earlier run (old_run)" "$T/r_rt.out" \
    && ok "plant exit 8, the verdict names the replay" || { ko "replay: plant exit $rc"; grep verdict "$T/r_rt.out"; }

# ---- --no-auth: what the key protects against ---------------------------------------------
pause_run n "--no-auth" "-" stray "" 2
stray=$(key stray_sent "$T/n_att.out"); ret=$(key rx_peer_returns "$T/n_rt.stats"); old=$(key rx_rej_session_old "$T/n_rt.stats")
bad=$(rows_with "$T/n.csv" 50); last=$(last_in "$T/n.csv")
echo "  info no-auth: $stray stray frames after a 30 ms pause; rows at 50 N: $bad (no key: a stray stream is a restarted ECU), peer_returns $ret, session_old $old, last input $last N"
[ "$old" = 0 ] && [ "$last" = 2 ] && [ "$bad" -le 30 ] && { [ "$bad" = 0 ] || [ "$ret" = 1 ]; } \
    && ok "--no-auth: the paused ECU is re-admitted (peer_returns $ret, session_old 0, last input 2 N, $bad rows at 50 N)" \
    || ko "--no-auth: session_old '$old', peer_returns '$ret', rows at 50 N '$bad', last '$last'"
grep -q "verdict: .*link unauthenticated (--no-auth)" "$T/n_rt.out" && ok "--no-auth: the verdict says 'link unauthenticated'" \
    || ko "--no-auth verdict: $(grep verdict "$T/n_rt.out")"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
