#!/bin/sh
# Judges the files of test/can/spoof.sh (run by test/rtkernel/run.sh on the host after the
# guest's boot). Prints "can-spoof: sent N applied N detected N" and one ok/FAIL line per
# check; exit 0 when every check holds. Usage: spoof_check.sh OUT.
#   sent      the third node's forged frames (spoof_sent)
#   detected  forged frames the plant and the ECU refused by their E2E check (can_e2e_alarms)
#   applied   frames accepted beyond the genuine ones: at the plant can_rx_accepted minus the
#             ECU's can_tx_frames (the plant reads every ECU frame: the ECU runs inside its
#             run); at the ECU its can_rx_frames minus the forgeries it heard (all: the third
#             node runs inside the ECU's run) is what it heard from the plant, and what it
#             accepted beyond that was applied
O=$1
pass=0; fail=0
ok() { pass=$((pass + 1)); echo "  ok   $1"; }
ko() { fail=$((fail + 1)); echo "  FAIL $1"; }
kv() { awk -F= -v k="$2" '$1 == k { print $2; f = 1 } END { if (!f) print "" }' "$1" 2>/dev/null; }
P=$O/spoof_rt.stats; E=$O/spoof_ecu.stats; A=$O/spoof_atk.stats
sent=$(kv "$A" spoof_sent); s_cmd=$(kv "$A" spoof_sent_EcuCommand); s_st=$(kv "$A" spoof_sent_PlantState)
d_p=$(kv "$P" can_e2e_alarms); d_e=$(kv "$E" can_e2e_alarms)
p_acc=$(kv "$P" can_rx_accepted); e_tx=$(kv "$E" can_tx_frames)
e_rx=$(kv "$E" can_rx_frames); e_acc=$(kv "$E" can_rx_accepted)
if [ -z "$sent" ] || [ -z "$d_p" ] || [ -z "$d_e" ] || [ -z "$p_acc" ] || [ -z "$e_tx" ] || [ -z "$e_rx" ]; then
    echo "can-spoof: sent ${sent:-?} applied ? detected ?"
    ko "spoof scenario files incomplete (attacker exit '$(cat "$O/spoof_atk.rc" 2>/dev/null)'): $(head -c 300 "$O/spoof_atk.out" 2>/dev/null)"
    echo "can-spoof: $pass passed, $fail failed"; exit 1
fi
a_p=$((p_acc - e_tx)); a_e=$((e_acc - (e_rx - s_st)))
det=$((d_p + d_e)); app=$((a_p + a_e))
echo "can-spoof: sent $sent applied $app detected $det"
[ "$sent" -gt 0 ] && [ "$app" = 0 ] && [ "$det" = "$sent" ] \
    && ok "second sender: $sent forged frames, $det detected, $app applied" \
    || ko "second sender: sent $sent, detected $det (plant $d_p, ECU $d_e), applied $app (plant $a_p, ECU $a_e)"
[ "$d_p" = "$s_cmd" ] && [ "$a_p" = 0 ] \
    && ok "plant: all $s_cmd forged EcuCommand frames (+50 N) refused, every one of the ECU's $e_tx frames accepted" \
    || ko "plant: forged EcuCommand $s_cmd, refused $d_p; accepted $p_acc of the ECU's $e_tx"
[ "$d_e" = "$s_st" ] && [ "$a_e" = 0 ] \
    && ok "ECU: all $s_st forged PlantState frames (-30 m/s) refused, every genuine one accepted" \
    || ko "ECU: forged PlantState $s_st, refused $d_e; heard $e_rx, accepted $e_acc"
rej="$(kv "$P" can_e2e_EcuCommand_counter_repeated)/$(kv "$P" can_e2e_EcuCommand_counter_jump)/$(kv "$P" can_e2e_EcuCommand_crc)"
echo "  info E2E cadence check: $(cat "$O/can_tp_opt" 2>/dev/null || echo e2e-cadence=on) (off under TCG: the emulator stalls the ECU for tens of ms)"
echo "  info plant's E2E counters for EcuCommand (repeated/jump/crc): $rej; timeouts $(kv "$P" can_e2e_EcuCommand_timeout)"
rc_p=$(cat "$O/spoof_rt.rc" 2>/dev/null); rc_e=$(cat "$O/spoof_ecu.rc" 2>/dev/null)
[ "$rc_p" = 8 ] && grep -q 'link: [0-9]* frames refused by the E2E check' "$O/spoof_rt.out" \
    && ok "plant exit 8 (link failed), its verdict names the attack: $(grep 'refused by the E2E' "$O/spoof_rt.out" | head -1 | cut -c1-110)" \
    || { ko "plant exit '$rc_p' (wanted 8, HS_EXIT_LINK)"; tail -5 "$O/spoof_rt.out"; }
[ "$rc_e" = 8 ] && grep -q 'link: [0-9]* plant frames refused by the E2E check' "$O/spoof_ecu.out" \
    && ok "ECU exit 8 (link failed), named: $(grep 'refused by the E2E' "$O/spoof_ecu.out" | head -1 | cut -c1-100)" \
    || { ko "ECU exit '$rc_e' (wanted 8)"; tail -5 "$O/spoof_ecu.out"; }
fs=$(kv "$P" final_speed)
awk -v v="$fs" 'BEGIN { exit !(v != "" && v - 1 < 1e-3 && 1 - v < 1e-3) }' \
    && ok "the live ECU kept the loop: final speed $fs m/s = v_ref 1 m/s within 1e-3" \
    || ko "final speed '$fs' m/s, expected the ECU's v_ref 1 m/s"
echo "can-spoof: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
