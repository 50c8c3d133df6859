#!/bin/sh
# make rtkernel-test: boots Debian's PREEMPT_RT kernel (linux-image-rt-amd64) under
# qemu-system-x86_64 with an initramfs built now (mkinitramfs.sh) and runs, at the same time,
# hilstep-rt (SCHED_FIFO 80, mlockall) against hilstep-ecu and cyclictest at the plant's
# period. KVM is tried first (-cpu host); a guest that has not reached /init within
# KVM_INIT_S seconds, or a qemu that dies, counts as "KVM unusable" and the run falls back to
# TCG. The guest writes its result files as a tar archive onto a raw virtio disk; this script
# unpacks it and asserts: the kernel is PREEMPT_RT (/sys/kernel/realtime = 1); SCHED_FIFO and
# mlockall were granted; the closed loop ran (every frame one side sent is a frame the other
# side counted, nothing rejected or dropped, the PI loop brought the speed to v_ref); cyclictest
# ran alongside. Latency is printed, never judged: under TCG it measures the emulator.
# Usage: run.sh BUILD_DIR [shell|check] (check: judge the last boot's files again, no boot). Ends with "rtkernel: N passed, N failed".
# Environment: RTKERNEL_ACCEL=auto|kvm|tcg (default auto), RTKERNEL_DUR (default 6 s),
# RTKERNEL_PERIOD_US (default 10000: the period an emulated CPU keeps; 1 ms it does not).
B=${1:-build}
MODE=${2:-test}
HERE=$(dirname "$0")
W=$B/rtkernel
DUR=${RTKERNEL_DUR:-6}
PERIOD=${RTKERNEL_PERIOD_US:-10000}
ACCEL=${RTKERNEL_ACCEL:-auto}
KVM_INIT_S=10      # a KVM guest is in /init after ~2 s; here KVM hangs before any output
TCG_INIT_S=60      # TCG reaches /init in 3-6 s on an idle machine
TOTAL_S=$((2 * DUR + 140))  # UDP scenario DUR s, CAN DUR + 1 s, CAN FD 4 s, CAN spoof 7 s, CAN SecOC 7 s
pass=0; fail=0
ok() { pass=$((pass + 1)); echo "  ok   $1"; }
ko() { fail=$((fail + 1)); echo "  FAIL $1"; }
info() { echo "  info $1"; }
result() { echo "rtkernel: $pass passed, $fail failed"; [ $fail -eq 0 ]; exit $?; }

# The newest installed PREEMPT_RT kernel of Debian's linux-image-rt-amd64.
VMLINUZ=$(ls /boot/vmlinuz-*-rt-amd64 2>/dev/null | sort -V | tail -n 1)
if [ -z "$VMLINUZ" ] || [ ! -r "$VMLINUZ" ]; then
    ko "no readable /boot/vmlinuz-*-rt-amd64 (test/install_deps.sh installs linux-image-rt-amd64)"; result
fi
KVER=${VMLINUZ#/boot/vmlinuz-}
command -v qemu-system-x86_64 >/dev/null 2>&1 || { ko "qemu-system-x86_64 missing (qemu-system-x86)"; result; }
mkdir -p "$W"
if ! sh "$HERE/mkinitramfs.sh" "$W" "$KVER" "$B" >"$W/mkinitramfs.log" 2>&1; then
    ko "initramfs not built:"; cat "$W/mkinitramfs.log"; result
fi
echo "  guest: kernel $KVER, initramfs $(wc -c <"$W/initramfs.cpio") bytes, modules $(tr '\n' ' ' <"$W/modules.txt")"

modes=udp+can
CMDLINE="console=ttyS0 quiet panic=-1 hsmode=$modes hsdur=$DUR hsperiod=$PERIOD"
QEMU_COMMON="-smp 2 -m 512M -no-reboot -kernel $VMLINUZ -initrd $W/initramfs.cpio"

if [ "$MODE" = shell ]; then
    a="-accel tcg,thread=multi"
    [ "$ACCEL" = kvm ] && a="-accel kvm -cpu host"
    echo "rtkernel-shell: $a; the guest's shell exits with 'exit' (powers off), Ctrl-A X quits qemu"
    exec qemu-system-x86_64 $a $QEMU_COMMON -nographic -append "console=ttyS0 quiet panic=-1 hsmode=shell"
fi

# boot ACCEL_ARGS INIT_LIMIT_S: runs the guest to power-off. Returns 0 when qemu exited by
# itself, 2 when /init was not reached in time (killed), 3 when the whole run overran (killed).
boot() {
    rm -f "$W/console.log" "$W/results.img" "$W/qemu.err"
    truncate -s 64M "$W/results.img"
    timeout -k 5 "$TOTAL_S" qemu-system-x86_64 $1 $QEMU_COMMON -display none -monitor none \
        -serial "file:$W/console.log" -drive "file=$W/results.img,format=raw,if=virtio" \
        -append "$CMDLINE" 2>"$W/qemu.err" &
    qpid=$!
    t0=$(date +%s)
    while kill -0 $qpid 2>/dev/null; do
        el=$(($(date +%s) - t0))
        if [ $el -ge "$2" ] && ! grep -q 'hs-guest: init' "$W/console.log" 2>/dev/null; then
            kill $qpid 2>/dev/null; wait $qpid 2>/dev/null; return 2
        fi
        sleep 0.5
    done
    wait $qpid
    qrc=$?
    [ $qrc -eq 124 ] || [ $qrc -eq 137 ] && return 3
    return 0
}

if [ "$MODE" = check ]; then
    # Judge the files of the last boot again (build/rtkernel/out), e.g. after editing one.
    kvm=$(cat "$W/kvm" 2>/dev/null || echo 0)
else
    kvm=0
    t_start=$(date +%s)
    if [ "$ACCEL" != tcg ]; then
        if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
            boot "-accel kvm -cpu host" "$KVM_INIT_S"; rc=$?
            if [ $rc -eq 0 ] && grep -q 'hs-guest: init' "$W/console.log"; then
                kvm=1
            else
                why="no /init after ${KVM_INIT_S} s"
                [ $rc -eq 0 ] && why="qemu exited before /init: $(tail -n 1 "$W/qemu.err")"
                info "KVM unusable ($why); falling back to TCG"
            fi
        else
            info "no usable /dev/kvm; TCG"
        fi
    fi
    if [ $kvm -eq 0 ]; then
        [ "$ACCEL" = kvm ] && { ko "RTKERNEL_ACCEL=kvm but KVM did not boot"; result; }
        boot "-accel tcg,thread=multi" "$TCG_INIT_S"; rc=$?
        if [ $rc -ne 0 ]; then
            ko "TCG guest did not finish (boot rc $rc: 2 = no /init in ${TCG_INIT_S} s, 3 = over ${TOTAL_S} s)"
            tail -n 20 "$W/console.log"; result
        fi
    fi
    t_end=$(date +%s)
    accel=TCG; [ $kvm -eq 1 ] && accel=KVM
    echo "  boot to power-off: $((t_end - t_start)) s wall (kvm=$kvm, $accel; KVM probe included)"
    echo $kvm >"$W/kvm"
fi

O=$W/out
[ "$MODE" = check ] || { rm -rf "$O"; mkdir -p "$O"; tar -xf "$W/results.img" -C "$O" 2>"$W/tar.err"; }
if [ -f "$O/scenario" ]; then
    ok "guest booted, ran hsmode=$modes and sent its results back (console: $W/console.log, files: $O)"
else
    ko "no results from the guest ($(head -n 1 "$W/tar.err" 2>/dev/null))"; tail -n 20 "$W/console.log"; result
fi

kv() { awk -F= -v k="$2" '$1 == k { print $2; f = 1 } END { if (!f) print "" }' "$1" 2>/dev/null; }
rt_out=$O/rt.out
realtime=$(cat "$O/realtime" 2>/dev/null)
[ "$(cat "$O/uname")" = "$KVER" ] && ok "guest kernel is $KVER" || ko "guest kernel $(cat "$O/uname"), expected $KVER"
[ "$realtime" = 1 ] && ok "/sys/kernel/realtime = 1 (PREEMPT_RT)" || ko "/sys/kernel/realtime = '$realtime'"
[ "$(cat "$O/vcan0")" = up ] && ok "vcan0 up (modules: $(tr '\n' ' ' <"$W/modules.txt"))" \
    || { ko "vcan0 not up"; cat "$O/guest.log"; }
sent="vcan0 123#DEADBEEF
vcan0 1F334455#1122334455667788
vcan0 7FF#"
got=$(sed -E 's/^\([0-9]+\.[0-9]+\) //' "$O/selftest.candump" 2>/dev/null)
[ "$(cat "$O/selftest.rc" 2>/dev/null)" = 0 ] && [ "$got" = "$sent" ] \
    && ok "vcan0: candump logged exactly the 3 frames cansend sent (std, ext, empty)" \
    || { ko "vcan0 self-test: candump exit '$(cat "$O/selftest.rc" 2>/dev/null)', log:"; cat "$O/selftest.candump" "$O/selftest.err"; }

# Privileges: every rt: line of the plant says granted/yes, none refuses.
sched=OTHER; mlock=fail
grep -q '^rt: SCHED_FIFO priority 80: granted$' "$rt_out" && sched=SCHED_FIFO
grep -q '^rt: mlockall: granted$' "$rt_out" && mlock=ok
refused=$(grep '^rt: ' "$rt_out" | grep -vE '^rt: (kernel PREEMPT_RT: yes|mlockall: granted|SCHED_FIFO priority 80: granted|/dev/cpu_dma_latency 0 us: held|verdict: hard real-time run)$')
grep -q '^rt: verdict: hard real-time run$' "$rt_out" && [ -z "$refused" ] && [ "$(kv "$O/rt.stats" hard_realtime)" = 1 ] \
    && ok "hilstep-rt: PREEMPT_RT yes, mlockall granted, SCHED_FIFO 80 granted, hard_realtime=1; no refusal" \
    || { ko "hilstep-rt rt: lines refuse something: ${refused:-verdict line missing}"; grep '^rt: ' "$rt_out"; }
echo "rtkernel: realtime=${realtime:-absent} sched=$sched mlock=$mlock kvm=$kvm"

# The UDP scenario: counters of both ends agree, nothing was lost on the way.
rc_rt=$(cat "$O/rt.rc" 2>/dev/null); rc_ecu=$(cat "$O/ecu.rc" 2>/dev/null)
case "$rc_rt" in
    0) ok "hilstep-rt exit 0 (run complete, no refused step, output complete)";;
    6) ok "hilstep-rt exit 6 (latency verdict; not judged under emulation)";;
    *) ko "hilstep-rt exit '$rc_rt'"; tail -n 15 "$rt_out";;
esac
[ "$rc_ecu" = 0 ] && [ "$(kv "$O/ecu.stats" saw_final)" = 1 ] && ok "hilstep-ecu exit 0, saw the plant's final frame" \
    || { ko "hilstep-ecu exit '$rc_ecu', saw_final '$(kv "$O/ecu.stats" saw_final)'"; cat "$O/ecu.out"; }
frames=$(kv "$O/rt.stats" frames); ticks=$(kv "$O/rt.stats" ticks)
p_tx=$(kv "$O/rt.stats" tx_frames); p_rx=$(kv "$O/rt.stats" rx_datagrams); p_acc=$(kv "$O/rt.stats" rx_accepted)
e_tx=$(kv "$O/ecu.stats" tx_frames); e_acc=$(kv "$O/ecu.stats" rx_accepted); e_rej=$(kv "$O/ecu.stats" rx_rejected)
want_ticks=$((DUR * 1000000 / PERIOD))
[ "$ticks" = "$want_ticks" ] && [ "$DUR" -ge 5 ] \
    && ok "plant time base: $ticks ticks of $PERIOD us = $DUR s (>= 5 s, cyclictest alongside)" \
    || ko "plant ticks '$ticks', expected $want_ticks ($DUR s at $PERIOD us)"
info "plant stepped $frames of $ticks ticks (missed_ticks $(kv "$O/rt.stats" missed_ticks): the emulated CPU's overruns, counted, not judged)"
[ -n "$frames" ] && [ "$frames" -gt 0 ] && [ "$p_tx" = "$frames" ] && [ "$e_acc" = "$p_tx" ] && [ "$e_rej" = 0 ] \
    && ok "plant -> ECU: plant sent $p_tx frames (= frames stepped), ECU accepted $e_acc, rejected $e_rej" \
    || ko "plant -> ECU: frames $frames, plant tx $p_tx, ECU accepted $e_acc rejected $e_rej"
[ -n "$e_tx" ] && [ "$e_tx" -gt 0 ] && [ "$p_rx" = "$e_tx" ] && [ "$p_acc" = "$e_tx" ] \
    && ok "ECU -> plant: ECU sent $e_tx frames, plant received $p_rx, accepted $p_acc" \
    || ko "ECU -> plant: ECU tx $e_tx, plant rx $p_rx accepted $p_acc"
drops="$(kv "$O/rt.stats" rx_kernel_drops) $(kv "$O/ecu.stats" rx_kernel_drops) $(kv "$O/rt.stats" rx_seq_gaps) $(kv "$O/ecu.stats" rx_seq_gaps) $(kv "$O/rt.stats" tx_send_errors) $(kv "$O/ecu.stats" tx_send_errors)"
[ "$drops" = "0 0 0 0 0 0" ] && ok "no kernel drops, sequence gaps or send errors on either side" \
    || ko "kernel drops / seq gaps / send errors (plant, ECU): $drops"
rows=$(($(wc -l <"$O/rt.csv") - 1))
[ "$rows" = "$frames" ] && [ "$(kv "$O/rt.stats" telemetry_rows)" = "$frames" ] && [ "$(kv "$O/rt.stats" telemetry_lost)" = 0 ] \
    && ok "telemetry CSV: $rows rows = frames stepped, none lost" \
    || ko "telemetry CSV rows $rows, telemetry_rows $(kv "$O/rt.stats" telemetry_rows), frames $frames"
# The PI controller (v_ref 1 m/s) is the only thing that moves the plant's speed off 0: a speed at
# v_ref after DUR seconds means the commands went round the loop.
fs=$(kv "$O/rt.stats" final_speed)
awk -v v="$fs" 'BEGIN { exit !(v != "" && v - 1 < 1e-3 && 1 - v < 1e-3) }' \
    && ok "closed loop: plant speed $fs m/s = ECU's v_ref 1 m/s within 1e-3" \
    || ko "closed loop: final speed '$fs', expected 1 m/s (v_ref)"
ct_total=$(awk '/^# Total:/ { t = $3 + 0 } /^# Histogram Overflows:/ { o = $4 + 0 } END { print t + o }' "$O/cyclictest.out")
[ "$(cat "$O/cyclictest.rc" 2>/dev/null)" = 0 ] && [ -n "$ct_total" ] && [ "$ct_total" -gt 0 ] \
    && ok "cyclictest ran alongside ($ct_total samples at $PERIOD us, SCHED_FIFO 80)" \
    || { ko "cyclictest exit '$(cat "$O/cyclictest.rc" 2>/dev/null)', samples '$ct_total'"; head -n 5 "$O/cyclictest.out"; }

# The CAN scenario (test/can/scenario.sh): the plant and the ECU on vcan0 with the circular
# track's DBC while candump logs the bus; test/can/check_candump.py decodes the log with
# canmatrix (not our codec) and holds every frame against the plant's telemetry and both
# sides' counters, exactly.
rc_crt=$(cat "$O/can_rt.rc" 2>/dev/null); rc_cecu=$(cat "$O/can_ecu.rc" 2>/dev/null)
case "$rc_crt" in
    0|6) ok "CAN: hilstep-rt --transport can exit $rc_crt, hilstep-ecu exit '$rc_cecu'";;
    *) ko "CAN: hilstep-rt exit '$rc_crt'"; tail -n 15 "$O/can_rt.out" 2>/dev/null;;
esac
[ "$rc_cecu" = 0 ] || { ko "CAN: hilstep-ecu exit '$rc_cecu'"; tail -n 5 "$O/can_ecu.out" 2>/dev/null; }
grep -q '^rt: verdict: hard real-time run$' "$O/can_rt.out" 2>/dev/null \
    && ok "CAN: the plant ran hard real-time (PREEMPT_RT, mlockall, SCHED_FIFO 80)" \
    || ko "CAN: the plant's rt: verdict is not hard real-time"
if /usr/bin/python3 "$HERE/../can/check_candump.py" "$O/can.candump" hil/dbc/circular_track.dbc \
        "$O/can_rt.csv" "$O/can_rt.stats" "$O/can_ecu.stats" >"$W/can_check.out" 2>&1; then
    ok "CAN: candump's log decoded by canmatrix = the plant's telemetry and both sides' counters ($(grep -c '^  ok' "$W/can_check.out") checks)"
    # The checker's loss accounting on this very run (test/can/check_candump_selftest.py):
    # frames the kernel refused and counted realign; lost, miscounted or forged frames fail.
    if /usr/bin/python3 "$HERE/../can/check_candump_selftest.py" "$O" can hil/dbc/circular_track.dbc \
            >"$W/can_selftest.out" 2>&1; then
        ok "CAN: $(tail -n 1 "$W/can_selftest.out") (check_candump.py against refused, lost and forged frames of this run)"
    else
        ko "CAN: check_candump_selftest.py:"; cat "$W/can_selftest.out"
    fi
else
    ko "CAN: check_candump.py:"; sed -n '2,20p' "$W/can_check.out"
fi
# At the same time as the bus loop (issue 17): cyclictest with samples, and the ECU's whole run
# (inside the plant's) at least 5 s of its period grid.
ct_can=$(awk '/^# Total:/ { t = $3 + 0 } /^# Histogram Overflows:/ { o = $4 + 0 } END { print t + o }' "$O/can_cyclictest.out" 2>/dev/null)
[ "$(cat "$O/can_cyclictest.rc" 2>/dev/null)" = 0 ] && [ -n "$ct_can" ] && [ "$ct_can" -gt 0 ] \
    && ok "CAN: cyclictest ran alongside the bus loop ($ct_can samples at $PERIOD us, SCHED_FIFO 80)" \
    || ko "CAN: cyclictest alongside the bus loop: exit '$(cat "$O/can_cyclictest.rc" 2>/dev/null)', samples '$ct_can'"
et=$(kv "$O/can_ecu.stats" ticks); em=$(kv "$O/can_ecu.stats" missed_ticks)
ecu_ticks=$((${et:-0} + ${em:-0}))
[ -n "$et" ] && [ $((ecu_ticks * PERIOD)) -ge 5000000 ] \
    && ok "CAN: the ECU ran $ecu_ticks ticks of $PERIOD us (run + missed: >= 5 s) inside the plant's run" \
    || ko "CAN: the ECU ran '$ecu_ticks' ticks of $PERIOD us, fewer than 5 s"
grep -E '^can: ' "$W/can_check.out" || echo "can: frames=? candump=? decode_mismatch=? (no checker result)"
# CAN FD with 29-bit ids and Motorola signals (test/can/circular_track_fd.dbc), 4 s.
if /usr/bin/python3 "$HERE/../can/check_candump.py" "$O/canfd.candump" test/can/circular_track_fd.dbc \
        "$O/canfd_rt.csv" "$O/canfd_rt.stats" "$O/canfd_ecu.stats" >"$W/canfd_check.out" 2>&1; then
    ok "CAN FD (29-bit ids, Motorola, 12/24-byte frames): $(sed -n 's/^can: //p' "$W/canfd_check.out")"
else
    ko "CAN FD: check_candump.py (plant exit '$(cat "$O/canfd_rt.rc" 2>/dev/null)'):"; sed -n '1,20p' "$W/canfd_check.out"
fi
# A second sender on the bus (issue 31, test/can/spoof.sh): judged by test/can/spoof_check.sh.
sh "$HERE/../can/spoof_check.sh" "$O" >"$W/spoof_check.out" 2>&1
grep -E '^(can-spoof: sent|  (ok|FAIL|info))' "$W/spoof_check.out"
sp=$(sed -n 's/^can-spoof: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$W/spoof_check.out")
[ -n "$sp" ] || { sp="0 0"; ko "CAN spoof: no result from test/can/spoof_check.sh"; }
pass=$((pass + ${sp% *})); fail=$((fail + ${sp#* }))
# The same attack on the authenticated command (test/can/circular_track_secoc.dbc): forged
# frames without the key and replays, refused by the SecOC check.
sh "$HERE/../can/spoof_check.sh" "$O" secoc can-secoc >"$W/secoc_check.out" 2>&1
grep -E '^(can-secoc: sent|  (ok|FAIL|info))' "$W/secoc_check.out"
sp=$(sed -n 's/^can-secoc: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$W/secoc_check.out")
[ -n "$sp" ] || { sp="0 0"; ko "CAN SecOC: no result from test/can/spoof_check.sh"; }
pass=$((pass + ${sp% *})); fail=$((fail + ${sp#* }))
info "CAN plant stepped $(kv "$O/can_rt.stats" frames) of $(kv "$O/can_rt.stats" ticks) ticks; ECU frames applied $(kv "$O/can_rt.stats" rx_used), superseded $(kv "$O/can_rt.stats" rx_superseded)"

# Latency: one quantile rule for both histograms (cyclictest -h format, 1 us bins, where
# "# Total" counts the in-range samples only and "# Histogram Overflows" the rest): the upper
# edge of the bin where 99 % of all samples are reached, capped at the maximum; a p99 among
# the overflows is the maximum (hilstep-rt's hs_hist_quantile does the same).
p99() {
    # n starts at 0, not "": an unset n would file the first bin under the key "" and lose it.
    awk 'BEGIN { n = 0 } /^[0-9]+ [0-9]+$/ { b[n] = $1 + 0; c[n] = $2 + 0; n++ }
         /^# Total:/ { tot = $3 + 0 } /^# Max Latencies:/ { mx = $4 + 0 }
         /^# Histogram Overflows:/ { ov = $4 + 0 }
         END { all = tot + ov; if (all == 0) { print "n/a"; exit } acc = 0
               for (i = 0; i < n; i++) { acc += c[i]; if (acc >= 0.99 * all) { e = b[i] + 1; print (e < mx ? e : mx); exit } }
               print mx }' "$1"
}
hp=$(p99 "$O/rt.hist"); cp=$(p99 "$O/cyclictest.out")
sp=$(kv "$O/rt.stats" latency_p99)
awk -v a="$hp" -v s="$sp" 'BEGIN { exit !(s != "" && a == int(s)) }' \
    && ok "hilstep-rt's histogram file gives its own p99 ($hp us = stats latency_p99 $sp truncated)" \
    || ko "p99 from rt.hist $hp us, stats latency_p99 '$sp'"
ratio=$(awk -v a="$hp" -v b="$cp" 'BEGIN { if (b + 0 > 0) printf "%.2f", a / b; else print "n/a" }')
echo "latency: hilstep p99=$hp us cyclictest p99=$cp us ratio=$ratio"
if [ $kvm -eq 0 ]; then
    info "TCG: the CPU is emulated, so these latencies measure the emulator and the host's load, not the RT kernel; never judged"
else
    info "KVM guest: latencies include the host's scheduling of the vCPUs; never judged"
fi
result
