#!/bin/sh
# Judges the files of test/can/spoof.sh (run by test/rtkernel/run.sh on the host after the
# guest's boot). Prints "can-spoof: sent N applied N detected N" and one ok/FAIL line per
# check; exit 0 when every check holds. Usage: spoof_check.sh OUT [PREFIX LABEL] (the files of
# spoof.sh's PREFIX, default spoof; LABEL the result lines' name, default can-spoof; with
# can-secoc the plant's SecOC refusals are held to the attacker's modes: every changed frame
# (repeat, jump, next: the genuine MAC kept, no key) secoc_mac, every replay secoc_stale, every
# wrong CRC e2e_crc).
#   sent      the third node's forged frames (spoof_sent)
#   detected  forged frames the plant and the ECU refused by their E2E check (can_e2e_alarms)
#   applied   frames accepted beyond the genuine ones: at the plant can_rx_accepted minus the
#             ECU's can_tx_frames (the plant reads every ECU frame: the ECU runs inside its
#             run); at the ECU its can_rx_frames minus the forgeries it heard (all: the third
#             node runs inside the ECU's run) is what it heard from the plant, and what it
#             accepted beyond that was applied
O=$1; PX=${2:-spoof}; L=${3:-can-spoof}
pass=0; fail=0
ok() { pass=$((pass + 1)); echo "  ok   $1"; }
ko() { fail=$((fail + 1)); echo "  FAIL $1"; }
kv() { awk -F= -v k="$2" '$1 == k { print $2; f = 1 } END { if (!f) print "" }' "$1" 2>/dev/null; }
P=$O/${PX}_rt.stats; E=$O/${PX}_ecu.stats; A=$O/${PX}_atk.stats
sent=$(kv "$A" spoof_sent); s_cmd=$(kv "$A" spoof_sent_EcuCommand); s_st=$(kv "$A" spoof_sent_PlantState)
s_cmd=${s_cmd:-0}; s_st=${s_st:-0}
d_p=$(kv "$P" can_e2e_alarms); d_e=$(kv "$E" can_e2e_alarms)
p_acc=$(kv "$P" can_rx_accepted); e_tx=$(kv "$E" can_tx_frames)
e_rx=$(kv "$E" can_rx_frames); e_acc=$(kv "$E" can_rx_accepted)
if [ -z "$sent" ] || [ -z "$d_p" ] || [ -z "$d_e" ] || [ -z "$p_acc" ] || [ -z "$e_tx" ] || [ -z "$e_rx" ]; then
    echo "$L: sent ${sent:-?} applied ? detected ?"
    ko "spoof scenario files incomplete (attacker exit '$(cat "$O/${PX}_atk.rc" 2>/dev/null)'): $(head -c 300 "$O/${PX}_atk.out" 2>/dev/null) $(head -c 300 "$O/${PX}_rt.out" 2>/dev/null)"
    echo "$L: $pass passed, $fail failed"; exit 1
fi
a_p=$((p_acc - e_tx)); a_e=$((e_acc - (e_rx - s_st)))
det=$((d_p + d_e)); app=$((a_p + a_e))
echo "$L: sent $sent applied $app detected $det"
[ "$sent" -gt 0 ] && [ "$app" = 0 ] && [ "$det" = "$sent" ] \
    && ok "second sender: $sent forged frames, $det detected, $app applied" \
    || ko "second sender: sent $sent, detected $det (plant $d_p, ECU $d_e), applied $app (plant $a_p, ECU $a_e)"
[ "$d_p" = "$s_cmd" ] && [ "$a_p" = 0 ] \
    && ok "plant: all $s_cmd forged EcuCommand frames (+50 N) refused, every one of the ECU's $e_tx frames accepted" \
    || ko "plant: forged EcuCommand $s_cmd, refused $d_p; accepted $p_acc of the ECU's $e_tx"
if [ "$L" = can-secoc ]; then
    m_mac=$(($(kv "$A" spoof_mode_repeat) + $(kv "$A" spoof_mode_jump) + $(kv "$A" spoof_mode_next)))
    m_old=$(kv "$A" spoof_mode_replay); m_crc=$(kv "$A" spoof_mode_crc)
    r_mac=$(kv "$P" can_rej_secoc_mac); r_old=$(kv "$P" can_rej_secoc_stale); r_crc=$(kv "$P" can_rej_e2e_crc)
    echo "  info SecOC at the plant: forged (right CRC, no key) $m_mac -> secoc_mac $r_mac; replayed $m_old -> secoc_stale $r_old; wrong CRC $m_crc -> e2e_crc $r_crc"
    [ "$r_mac" = "$m_mac" ] && [ "$r_old" = "$m_old" ] && [ "$r_crc" = "$m_crc" ] && [ $((m_mac + m_old)) -gt 0 ] \
        && ok "SecOC: $m_mac forged EcuCommand frames (+50 N, next counter and freshness, CRC right, MAC not the key's) refused as secoc_mac, $m_old replays as secoc_stale" \
        || ko "SecOC refusals: secoc_mac $r_mac (forged $m_mac), secoc_stale $r_old (replayed $m_old), e2e_crc $r_crc (wrong CRC $m_crc)"
fi
[ "$d_e" = "$s_st" ] && [ "$a_e" = 0 ] \
    && ok "ECU: all $s_st forged PlantState frames (-30 m/s) refused, every genuine one accepted" \
    || ko "ECU: forged PlantState $s_st, refused $d_e; heard $e_rx, accepted $e_acc"
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
