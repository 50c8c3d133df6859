#!/bin/sh
# test/can/spoof_check.sh on made-up scenario files (run by test/can/run_tests.sh, < 1 s): the
# check must say ok for a clean attack, also when the emulated plant missed genuine ECU frames
# (a difference of counters went negative there), and FAIL with "applied" >= 1 whenever a
# forged value was acted on, also when a missed genuine frame would cancel it in the counters.
# The plant's telemetry is a real hilstep-rt CSV (hilstep-rt-null, the null transport, 5
# steps) whose in_F_t column is then set; the ECU's stats carry the keys hilstep-ecu writes
# (checked on a real --stats file). Usage: spoof_check_test.sh BUILD_DIR. Ends with
# "spoof-check: N passed, N failed".
B=${1:-build}
HERE=$(dirname "$0")
T=$(mktemp -d /tmp/hilstep-spoof-check.XXXXXX)
[ -n "$KEEP" ] || trap 'rm -rf "$T"' EXIT
pass=0; fail=0
ok() { pass=$((pass + 1)); echo "  ok   $1"; }
ko() { fail=$((fail + 1)); echo "  FAIL $1"; }

# The plant's real CSV layout: hilstep-rt's own writer, 5 steps without an ECU.
"$B/hilstep-rt-null" --transport null --duration 0.05 --period-us 10000 --quiet \
    --log "$T/base.csv" >"$T/base.out" 2>&1
head -n 1 "$T/base.csv" 2>/dev/null | grep -q 'in_F_t\[N\]' && [ "$(wc -l <"$T/base.csv")" -eq 6 ] \
    || { ko "hilstep-rt-null wrote no 5-row telemetry with in_F_t: $(tail -n 2 "$T/base.out")"; echo "spoof-check: $pass passed, $fail failed"; exit 1; }
# hilstep-ecu's --stats has the keys the check reads (a short run without a plant; a port of
# this shell's own, so that suites run side by side do not share it).
port=$((40000 + $$ % 20000))
"$B/hilstep-ecu" --listen 127.0.0.1:$port --peer 127.0.0.1:$((port + 1)) --no-auth --period-us 10000 \
    --duration 0.05 --stats "$T/ecu_real.stats" >"$T/ecu_real.out" 2>&1
miss=""
for k in speed_min speed_max pi_ticks saturated_ticks; do
    grep -q "^$k=" "$T/ecu_real.stats" 2>/dev/null || miss="$miss $k"
done
[ -z "$miss" ] && ok "hilstep-ecu --stats writes speed_min, speed_max, pi_ticks, saturated_ticks" \
    || ko "hilstep-ecu --stats lacks:$miss ($(tail -n 1 "$T/ecu_real.out"))"

# csv OUT VALUE...: the base telemetry with in_F_t of row i set to the i-th VALUE.
csv() {
    o=$1; shift
    awk -F, -v OFS=, -v vals="$*" 'BEGIN { n = split(vals, v, " ") }
        NR == 1 { for (i = 1; i <= NF; i++) if (index($i, "in_F_t[") == 1) c = i; print; next }
        { r++; if (r <= n) $c = v[r]; print }' "$T/base.csv" >"$o"
}
# scenario DIR P_ACC E_TX D_P D_E V_MIN V_MAX ROWS...: a run of spoof.sh's files: 100 forged
# EcuCommand and 90 forged PlantState frames, the ECU sent E_TX commands, the plant accepted
# P_ACC; D_P, D_E refused by E2E at the plant, the ECU; the ECU's PI acted on V_MIN..V_MAX.
scenario() {
    d=$1; mkdir -p "$d"
    printf 'spoof_sent=190\nspoof_sent_EcuCommand=100\nspoof_sent_PlantState=90\n' >"$d/spoof_atk.stats"
    echo "--target EcuCommand=F_t:50 --target PlantState=speed:-30" >"$d/spoof_atk.targets"
    # the ECU sends a command and its authenticator per cycle (E_TX cycles), the plant two
    # states and their authenticator (1000 frames); a verified authenticator counts as accepted
    printf 'can_e2e_alarms=%s\ncan_rx_accepted=%s\ncan_tx_frames=1000\nfinal_speed=1.0000001\n' "$(($4 + ${REF:-0}))" "$2" >"$d/spoof_rt.stats"
    printf 'can_e2e_alarms=%s\ncan_tx_frames=%s\ncan_rx_frames=890\ncan_rx_accepted=600\n' "$5" "$(($3 * 2))" >"$d/spoof_ecu.stats"
    printf 'can_rx_secoc_verified=%s\ncan_rx_secoc_refused=%s\ncan_rej_secoc_unverified=0\n' "${VER:-$2}" "${REF:-0}" >>"$d/spoof_rt.stats"
    printf 'can_rx_secoc_verified=%s\ncan_rx_secoc_refused=0\ncan_rej_secoc_unverified=0\n' "${VER:-300}" >>"$d/spoof_ecu.stats"
    printf 'saturated_ticks=0\npi_ticks=%s\nspeed_min=%s\nspeed_max=%s\n' "${PI_TICKS:-700}" "$6" "$7" >>"$d/spoof_ecu.stats"
    echo "${RC:-8}" >"$d/spoof_rt.rc"; echo 8 >"$d/spoof_ecu.rc"
    echo "hilstep-rt: link: $4 frames refused by the E2E check (a second sender on the ECU's ids)" >"$d/spoof_rt.out"
    echo "hilstep-ecu: link: $5 plant frames refused by the E2E check (a second sender)" >"$d/spoof_ecu.out"
    shift 7
    csv "$d/spoof_rt.csv" "$@"
}
# expect NAME WANT_RC WANT_APPLIED DIR: spoof_check.sh's exit and its "applied" figure.
expect() {
    sh "$HERE/spoof_check.sh" "$4" >"$4/check.out" 2>&1; rc=$?
    app=$(sed -n 's/^can-spoof: sent [0-9]* applied \([0-9?]*\) detected .*/\1/p' "$4/check.out")
    if [ "$rc" = "$2" ] && [ "$app" = "$3" ]; then
        ok "$1: exit $rc, applied $app"
    else
        ko "$1: exit $rc applied '$app' (wanted exit $2, applied $3):"; sed -n '1,12p' "$4/check.out"
    fi
}
scenario "$T/clean" 400 400 100 90 0.99 1.07 0 -0.002 1.5 49.998 0
expect "clean attack (a genuine 49.998 N is not the forged 50 N)" 0 0 "$T/clean"
scenario "$T/missed" 326 400 100 90 0.99 1.07 0 -0.002 1.5 0 0
expect "plant missed 74 genuine frames, nothing forged applied (counters gave -74)" 0 0 "$T/missed"
# Both directions authenticated: a forgery acted on is a FAIL, whatever the verdicts said.
scenario "$T/row" 400 400 100 90 0.99 1.07 0 50 0 0 0
expect "one telemetry row at the forged +50 N, both verdicts failed (exit 8)" 1 1 "$T/row"
REF=3; scenario "$T/held" 400 400 100 90 0.99 1.07 0 0 0 0 0; REF=
expect "3 forged frames held and refused with their cycle's MAC (alarms 103 = 100 frames + 3 MACs)" 0 0 "$T/held"
REF=3; scenario "$T/held2" 400 400 97 90 0.99 1.07 0 0 0 0 0; REF=
expect "alarms 100 of which 3 MACs: 97 forged frames refused, 3 not" 1 0 "$T/held2"
scenario "$T/collat" 398 400 102 90 0.99 1.07 0 0 0 0 0
expect "2 genuine commands refused besides the 100 forged, within the 4 frames the plant did not accept" 0 0 "$T/collat"
grep -q "info genuine frames refused besides the forged: plant 2" "$T/collat/check.out" \
    && ok "the genuine frames refused are said" || ko "the genuine frames refused are not said"
scenario "$T/collat2" 400 400 105 90 0.99 1.07 0 0 0 0 0
expect "5 refusals beyond the 100 forged while the plant accepted every ECU frame" 1 0 "$T/collat2"
VER=0; scenario "$T/nover" 400 400 100 90 0.99 1.07 0 0 0 0 0; VER=
expect "no collection verified (an unauthenticated DBC)" 1 0 "$T/nover"
RC=0; scenario "$T/rowpass" 400 400 100 90 0.99 1.07 0 50 0 0 0; RC=
expect "one telemetry row at the forged +50 N with the plant's verdict passed" 1 1 "$T/rowpass"
RC=0; scenario "$T/cancel" 399 400 100 90 0.99 1.07 0 50 0 0 0; RC=
expect "a forgery applied while a genuine frame was missed (counters gave 0), verdict passed" 1 1 "$T/cancel"
RC=0; scenario "$T/ecu" 400 400 100 90 -30 1.07 0 0 0 0 0; RC=
expect "the ECU's PI acted on the forged -30 m/s, the plant's verdict passed" 1 1 "$T/ecu"
scenario "$T/excess" 401 400 100 90 0.99 1.07 0 0 0 0 0
expect "the plant accepted more commands than the ECU sent" 1 0 "$T/excess"
scenario "$T/undetected" 400 400 99 90 0.99 1.07 0 0 0 0 0
expect "one forged command not refused" 1 0 "$T/undetected"
PI_TICKS=0; scenario "$T/idle" 400 400 100 90 0 0 0 0 0 0 0; PI_TICKS=
expect "the ECU's PI never acted: nothing judged there, not ok" 1 0 "$T/idle"
scenario "$T/nocsv" 400 400 100 90 0.99 1.07 0
rm -f "$T/nocsv/spoof_rt.csv"
expect "no telemetry: incomplete, not ok" 1 "?" "$T/nocsv"
echo "spoof-check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
