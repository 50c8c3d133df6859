#!/bin/sh
# Judges the files of test/can/spoof.sh (run by test/rtkernel/run.sh on the host after the
# guest's boot). Prints "can-spoof: sent N applied N detected N" and one ok/FAIL line per
# check; exit 0 when every check holds. Usage: spoof_check.sh OUT [PREFIX LABEL] (the files of
# spoof.sh's PREFIX, default spoof; LABEL the result lines' name, default can-spoof; with
# can-secoc the plant's SecOC refusals are held to the attacker's modes: every changed frame
# (repeat, jump, next: the genuine MAC kept, no key) secoc_mac, every replay secoc_stale, every
# wrong CRC e2e_crc).
#   sent      the third node's forged frames (spoof_sent)
#   detected  forged frames the plant and the ECU refused: their data frames refused (alarms,
#             can_e2e_alarms, less the cryptographic frames refused, can_rx_secoc_refused, each
#             of which repeats the refusal of a held frame), up to the forged count; genuine
#             frames refused besides are said, bounded by the peer's frames not accepted
#   applied   the attacker's values that reached a controller, read from what each side acted
#             on, not from frame counts (a genuine frame the emulated plant misses would cancel
#             an accepted forgery in a difference of counters): at the plant the rows of its
#             telemetry (PREFIX_rt.csv, one per step) whose applied input in_F_t is the forged
#             EcuCommand value (+50 N; the live ECU's command reaches its 50 N limit only on a
#             saturated tick, counted in its saturated_ticks); at the ECU 1 when its PI acted on
#             the forged PlantState speed (-30 m/s) at least once: the ECU keeps no per-tick
#             log, its speed_min/speed_max say the range of speeds it acted on
# The counters stay as checks that a lost frame cannot cancel: the plant accepted no more
# EcuCommand frames than the ECU sent, the ECU no more plant frames than the plant sent, and
# every forged frame was refused (detected = sent); genuine frames the plant missed are info.
O=$1; PX=${2:-spoof}; L=${3:-can-spoof}
pass=0; fail=0
ok() { pass=$((pass + 1)); echo "  ok   $1"; }
ko() { fail=$((fail + 1)); echo "  FAIL $1"; }
kv() { awk -F= -v k="$2" '$1 == k { print $2; f = 1 } END { if (!f) print "" }' "$1" 2>/dev/null; }
P=$O/${PX}_rt.stats; E=$O/${PX}_ecu.stats; A=$O/${PX}_atk.stats
sent=$(kv "$A" spoof_sent); s_cmd=$(kv "$A" spoof_sent_EcuCommand); s_st=$(kv "$A" spoof_sent_PlantState)
s_cmd=${s_cmd:-0}; s_st=${s_st:-0}
# Data frames refused: the alarms less the cryptographic frames of a collection refused (a
# forged frame held for its cycle fails that cycle's MAC too: one forgery, one detection).
al_p=$(kv "$P" can_e2e_alarms); al_e=$(kv "$E" can_e2e_alarms)
cr_p=$(kv "$P" can_rx_secoc_refused); cr_e=$(kv "$E" can_rx_secoc_refused)
d_p=${al_p:+$((al_p - ${cr_p:-0}))}; d_e=${al_e:+$((al_e - ${cr_e:-0}))}
p_acc=$(kv "$P" can_rx_accepted); e_tx=$(kv "$E" can_tx_frames)
e_rx=$(kv "$E" can_rx_frames); e_acc=$(kv "$E" can_rx_accepted)
if [ -z "$sent" ] || [ -z "$d_p" ] || [ -z "$d_e" ] || [ -z "$p_acc" ] || [ -z "$e_tx" ] || [ -z "$e_rx" ]; then
    echo "$L: sent ${sent:-?} applied ? detected ?"
    ko "spoof scenario files incomplete (attacker exit '$(cat "$O/${PX}_atk.rc" 2>/dev/null)'): $(head -c 300 "$O/${PX}_atk.out" 2>/dev/null) $(head -c 300 "$O/${PX}_rt.out" 2>/dev/null)"
    echo "$L: $pass passed, $fail failed"; exit 1
fi
# A collection's verified cryptographic frames are frames accepted too (the senders count
# them in can_tx_frames; the receivers in can_rx_secoc_verified, not can_rx_accepted).
p_acc=$((p_acc + $(kv "$P" can_rx_secoc_verified | sed 's/^$/0/')))
e_acc=$((${e_acc:-0} + $(kv "$E" can_rx_secoc_verified | sed 's/^$/0/')))
# The attacker's values (PREFIX_atk.targets: its --target MSG=SIGNAL:VALUE options).
tg=$(cat "$O/${PX}_atk.targets" 2>/dev/null)
tval() { echo "$tg" | tr ' ' '\n' | sed -n "s/^$1=$2:\(.*\)$/\1/p" | head -n 1; }
v_cmd=$(tval EcuCommand F_t); v_st=$(tval PlantState speed)
# Rows of the plant's telemetry whose in_F_t (the input it stepped with) is the forged value.
csv=$O/${PX}_rt.csv
a_p=$(awk -F, -v v="$v_cmd" 'NR == 1 { for (i = 1; i <= NF; i++) if (index($i, "in_F_t[") == 1) c = i; next }
    c { n++; d = $c - v; if (d < 0) d = -d; if (d <= 1e-6) a++ }
    END { if (!c || !n) print "?"; else print a + 0 }' "$csv" 2>/dev/null)
rows=$(($(wc -l <"$csv" 2>/dev/null || echo 1) - 1))
v_min=$(kv "$E" speed_min); v_max=$(kv "$E" speed_max); e_sat=$(kv "$E" saturated_ticks); e_pi=$(kv "$E" pi_ticks)
p_tx=$(kv "$P" can_tx_frames)
if [ -z "$v_cmd" ] || [ "$a_p" = "?" ] || [ -z "$a_p" ] || [ -z "$v_min" ] || [ -z "$p_tx" ] \
        || { [ "$s_st" -gt 0 ] && [ -z "$v_st" ]; }; then
    echo "$L: sent $sent applied ? detected ?"
    ko "spoof scenario files incomplete: targets '$tg', telemetry $csv (rows at the forged F_t: ${a_p:-none}, ? = no in_F_t column or no row), ECU speed_min '$v_min', plant can_tx_frames '$p_tx'"
    echo "$L: $pass passed, $fail failed"; exit 1
fi
# The ECU acted on the forged speed when it lies inside the range of speeds it acted on.
a_e=0
rng=$(awk -v lo="$v_min" -v hi="$v_max" 'BEGIN { printf "%.3f..%.3f m/s", lo, hi }')
[ -n "$v_st" ] && awk -v v="$v_st" -v lo="$v_min" -v hi="$v_max" 'BEGIN { exit !(v - lo >= -1e-6 && hi - v >= -1e-6) }' && a_e=1
# Detected: the forged frames refused. A receiver without the key accepts no forged frame, so
# each one it got is refused; the kernel's queue drops none unless can_rx_kernel_drops says so.
# Besides them a receiver may refuse a few genuine frames (a held cycle whose authenticator it
# lost, or a command a forgery displaced): at most the peer's frames it did not accept, so
# refusals beyond the forged count within that bound are said, not taken for detections.
kd_p=$(kv "$P" can_rx_kernel_drops); kd_e=$(kv "$E" can_rx_kernel_drops); kd=$((${kd_p:-0} + ${kd_e:-0}))
x_p=$((d_p - s_cmd)); x_e=$((d_e - s_st))
f_p=$d_p; [ "$x_p" -gt 0 ] && f_p=$s_cmd
f_e=$d_e; [ "$x_e" -gt 0 ] && f_e=$s_st
det=$((f_p + f_e)); app=$((a_p + a_e))
echo "$L: sent $sent applied $app detected $det"
[ "$x_p" -gt 0 ] || [ "$x_e" -gt 0 ] && echo "  info genuine frames refused besides the forged: plant $((x_p > 0 ? x_p : 0)) (of the ECU's $((e_tx - p_acc)) it did not accept), ECU $((x_e > 0 ? x_e : 0)) (of the plant's $((p_tx - e_acc)))"
# Every shipped DBC authenticates both directions (hil/CAN.md, "Security"): nothing forged may
# be applied, whatever else the verdicts say.
[ "$sent" -gt 0 ] && [ "$app" = 0 ] && [ "$det" = "$sent" ] && [ "$kd" = 0 ] \
        && [ "$x_p" -le $((e_tx - p_acc)) ] && [ "$x_e" -le $((p_tx - e_acc)) ] \
    && ok "second sender: $sent forged frames, $det detected, $app applied" \
    || ko "second sender: sent $sent, detected $det (plant refused $d_p, ECU $d_e; kernel drops $kd), applied $app (plant $a_p telemetry rows at F_t = $v_cmd N, ECU $a_e: its PI acted on $rng, forged ${v_st:-none} m/s)"
echo "  info plant accepted $p_acc of the ECU's $e_tx frames (commands and authenticators; $((e_tx - p_acc)) not accepted: an emulated plant misses some, never judged); the ECU's command at its limit on ${e_sat:-?} ticks"
[ "$d_p" -ge "$s_cmd" ] && [ "$a_p" = 0 ] && [ "$p_acc" -le "$e_tx" ] \
    && ok "plant: all $s_cmd forged EcuCommand frames ($v_cmd N) refused, none of its $rows telemetry rows at $v_cmd N, accepted $p_acc <= the ECU's $e_tx" \
    || ko "plant: forged EcuCommand $s_cmd, refused $d_p; $a_p of its $rows telemetry rows at F_t = $v_cmd N; accepted $p_acc of the ECU's $e_tx"
if [ "$L" = can-spoof ]; then
    echo "  info SecOC collections: plant verified $(kv "$P" can_rx_secoc_verified), refused $cr_p (held frames not verified $(kv "$P" can_rej_secoc_unverified)); ECU verified $(kv "$E" can_rx_secoc_verified), refused $cr_e (held frames not verified $(kv "$E" can_rej_secoc_unverified)); alarms plant $al_p, ECU $al_e"
    [ "$(kv "$P" can_rx_secoc_verified)" -gt 0 ] 2>/dev/null && [ "$(kv "$E" can_rx_secoc_verified)" -gt 0 ] 2>/dev/null \
        && ok "both directions authenticated: the plant and the ECU verified their peer's collections" \
        || ko "a collection never verified (plant '$(kv "$P" can_rx_secoc_verified)', ECU '$(kv "$E" can_rx_secoc_verified)'): the DBC's SecOC collections are not in use"
fi
if [ "$L" = can-secoc ]; then
    m_mac=$(($(kv "$A" spoof_mode_repeat) + $(kv "$A" spoof_mode_jump) + $(kv "$A" spoof_mode_next)))
    m_old=$(kv "$A" spoof_mode_replay); m_crc=$(kv "$A" spoof_mode_crc)
    r_mac=$(kv "$P" can_rej_secoc_mac); r_old=$(kv "$P" can_rej_secoc_stale); r_crc=$(kv "$P" can_rej_e2e_crc)
    echo "  info SecOC at the plant: forged (right CRC, no key) $m_mac -> secoc_mac $r_mac; replayed $m_old -> secoc_stale $r_old; wrong CRC $m_crc -> e2e_crc $r_crc"
    [ "$r_mac" = "$m_mac" ] && [ "$r_old" = "$m_old" ] && [ "$r_crc" = "$m_crc" ] && [ $((m_mac + m_old)) -gt 0 ] \
        && ok "SecOC: $m_mac forged EcuCommand frames (+50 N, next counter and freshness, CRC right, MAC not the key's) refused as secoc_mac, $m_old replays as secoc_stale" \
        || ko "SecOC refusals: secoc_mac $r_mac (forged $m_mac), secoc_stale $r_old (replayed $m_old), e2e_crc $r_crc (wrong CRC $m_crc)"
fi
[ "$d_e" -ge "$s_st" ] && [ "$a_e" = 0 ] && [ "$e_acc" -le "$p_tx" ] && [ "${e_pi:-0}" -gt 0 ] \
    && ok "ECU: all $s_st forged PlantState frames${v_st:+ ($v_st m/s)} refused, its PI acted on $rng only (${e_pi} ticks), accepted $e_acc <= the plant's $p_tx" \
    || ko "ECU: forged PlantState $s_st${v_st:+ ($v_st m/s)}, refused $d_e; its PI acted on $rng (${e_pi:-no} ticks); heard $e_rx, accepted $e_acc of the plant's $p_tx"
rej="$(kv "$P" can_e2e_EcuCommand_counter_repeated)/$(kv "$P" can_e2e_EcuCommand_counter_jump)/$(kv "$P" can_e2e_EcuCommand_crc)"
echo "  info E2E cadence check: $(cat "$O/can_tp_opt" 2>/dev/null || echo e2e-cadence=on) (off under TCG: the emulator stalls the ECU for tens of ms)"
echo "  info plant's E2E counters for EcuCommand (repeated/jump/crc): $rej; timeouts $(kv "$P" can_e2e_EcuCommand_timeout)"
rc_p=$(cat "$O/${PX}_rt.rc" 2>/dev/null); rc_e=$(cat "$O/${PX}_ecu.rc" 2>/dev/null)
[ "$rc_p" = 8 ] && grep -q 'link: [0-9]* frames refused by the E2E check' "$O/${PX}_rt.out" \
    && ok "plant exit 8 (link failed), its verdict names the attack: $(grep 'refused by the E2E' "$O/${PX}_rt.out" | head -1 | cut -c1-110)" \
    || { ko "plant exit '$rc_p' (wanted 8, HS_EXIT_LINK)"; tail -5 "$O/${PX}_rt.out"; }
if [ "$s_st" -gt 0 ]; then
    [ "$rc_e" = 8 ] && grep -q 'link: [0-9]* plant frames refused by the E2E check' "$O/${PX}_ecu.out" \
        && ok "ECU exit 8 (link failed), named: $(grep 'refused by the E2E' "$O/${PX}_ecu.out" | head -1 | cut -c1-100)" \
        || { ko "ECU exit '$rc_e' (wanted 8)"; tail -5 "$O/${PX}_ecu.out"; }
else
    [ "$rc_e" = 0 ] && ok "ECU exit 0 (no plant frame forged: its link held)" \
        || { ko "ECU exit '$rc_e' (wanted 0: nothing forged at it)"; tail -5 "$O/${PX}_ecu.out"; }
fi
fs=$(kv "$P" final_speed)
awk -v v="$fs" 'BEGIN { exit !(v != "" && v - 1 < 1e-3 && 1 - v < 1e-3) }' \
    && ok "the live ECU kept the loop: final speed $fs m/s = v_ref 1 m/s within 1e-3" \
    || ko "final speed '$fs' m/s, expected the ECU's v_ref 1 m/s"
echo "$L: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
