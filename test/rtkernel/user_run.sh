#!/bin/sh
# make rtkernel-run: a user's plant on a CAN bus in the PREEMPT_RT guest, the user's ECU on the
# host. Boots Debian's PREEMPT_RT kernel under qemu-system-x86_64 (TCG) with the description
# (or C model) and DBC packed into the initramfs; in the guest, can-utils' slcand attaches a
# virtio console (hvc0) as the SocketCAN interface slcan0 and hilstep-rt runs there on slcan0
# while candump logs the bus. The console's host end is a pty: the ECU command runs on the
# host with HILSTEP_CAN_INTERFACE=slcan and HILSTEP_CAN_CHANNEL=/dev/pts/N, so python-can's
# can.Bus(interface=..., channel=...) is on the guest's bus (and HILSTEP_DBC names the DBC).
# The results (telemetry CSV, stats, candump log, the plant's summary and verdict) come back
# on a raw virtio disk, as for make rtkernel-test, and are unpacked into OUT.
# Usage: user_run.sh BUILD_DIR [OUT_DIR]   (OUT_DIR default BUILD_DIR/rtkernel-run)
# Environment (make rtkernel-run sets it from its variables):
#   RUN_MODEL_FILE  a description (.hsm); else RUN_MODEL, a model of the registry
#   RUN_DBC         the DBC binding the model's inputs and outputs (hil/CAN.md)
#   RUN_ECU         the ECU command, run by sh -c in the current directory
#   RUN_DURATION    seconds the plant runs (default 6); RUN_PERIOD_US (default 10000: the
#                   period an emulated CPU keeps); RUN_BUDGET_US (default 1000000: under TCG
#                   the latency measures the emulator); RUN_PARAM "K=V ..." (--param each);
#                   RUN_HOLD_S (default 5): the bus stays up this long after the plant's end;
#                   RUN_PLANT_OPTS: more hilstep-rt options for the guest's plant
#   RUN_SECOC_KEY   for a DBC with SecOC (the shipped DBCs of models with inputs): the key file
#                   (default the per-user link key); copied into the guest for the plant
#                   (secoc-key=), named to the ECU as HILSTEP_SECOC_KEY
#   RTKERNEL_ACCEL  tcg (default; auto = tcg) or kvm (no fallback: the ECU is already on the pty)
# Exit status: the plant's (hil/hs_exit.h) when it ran and said non-zero; 8 (HS_EXIT_LINK)
# when the plant passed but the ECU command failed; 2 (HS_EXIT_SETUP) when the run could not
# be set up (bad input, no kernel, the guest did not boot or sent no results); 1 bad usage
# (a variable, or an option hilstep-rt refuses).
B=${1:-build}
W=${2:-$B/rtkernel-run}
HERE=$(dirname "$0")
DUR=${RUN_DURATION:-6}
PERIOD=${RUN_PERIOD_US:-10000}
BUDGET=${RUN_BUDGET_US:-1000000}
HOLD=${RUN_HOLD_S:-5}
ACCEL=${RTKERNEL_ACCEL:-tcg}
[ "$ACCEL" = auto ] && ACCEL=tcg   # rtkernel-test's auto: its KVM probe would need a second pty here
TCG_INIT_S=90            # /init 3-6 s after the kernel starts on an idle machine, slower loaded
ECU_GRACE_S=15           # the ECU may outlive the guest this long (its own end of run), then it is stopped
say() { echo "rtkernel-run: $*"; }
die() { say "$2"; echo "verdict: not run ($2)" >"$W/verdict" 2>/dev/null; exit "$1"; }
mkdir -p "$W" || { say "cannot create $W"; exit 2; }

# judge unpack|again: the results of the guest (unpacked from the disk first, or OUT/out as it
# is) and the ECU's exit status erc give the verdict and the exit status.
judge() {
    O=$W/out
    if [ "$1" = unpack ]; then
        rm -rf "$O"; mkdir -p "$O"
        tar -xf "$W/results.img" -C "$O" 2>"$W/tar.err"
    fi
    [ -f "$O/uname" ] || { tail -n 20 "$W/console.log"; die 2 "no results from the guest ($(head -n 1 "$W/tar.err"))"; }
    [ "$(cat "$O/slcan0" 2>/dev/null)" = up ] || { cat "$O/guest.log" 2>/dev/null; die 2 "slcan0 did not come up in the guest"; }
    prc=$(cat "$O/plant.rc" 2>/dev/null)
    case $prc in ''|*[!0-9]*) tail -n 20 "$W/console.log"; die 2 "the plant left no exit status";; esac
    # The results, under the names the README gives them.
    for f in telemetry.csv plant.stats plant.out plant.hist candump.log; do
        [ -f "$O/$f" ] && cp "$O/$f" "$W/$f"
    done
    kv() { awk -F= -v k="$2" '$1 == k { print $2; f = 1 } END { if (!f) print "?" }' "$1" 2>/dev/null; }
    sed -n '/^transport can:/p; /^verdict:/p' "$W/plant.out"
    say "bus: $(wc -l <"$W/candump.log") frames in candump.log; plant sent $(kv "$W/plant.stats" can_tx_frames), received $(kv "$W/plant.stats" can_rx_frames) (accepted $(kv "$W/plant.stats" can_rx_accepted), applied $(kv "$W/plant.stats" rx_used)); stepped $(kv "$W/plant.stats" frames) of $(kv "$W/plant.stats" ticks) ticks"
    tail -n 3 "$W/ecu.out" | sed 's/^/  ecu| /'
    rc=$prc
    [ "$prc" = 0 ] && [ "$erc" != 0 ] && rc=8
    if [ "$rc" = 0 ]; then
        v="PASS"
    elif [ "$rc" = 8 ] && [ "$prc" = 0 ]; then
        v="FAIL: the plant passed, the ECU command exited $erc ($W/ecu.out)"
    else
        v="FAIL: the plant exited $prc ($(sed -n 's/^verdict: //p' "$W/plant.out" | head -n 1))"
    fi
    echo "verdict: $v; exit $rc" | tee "$W/verdict"
    say "files: $W/{telemetry.csv,plant.stats,plant.out,candump.log,ecu.out,verdict,console.log}"
    exit "$rc"
}

# RUN_JUDGE_ECU_RC=N: no boot, judge OUT/out again with N as the ECU's exit status (the
# test holds the exit table against copies of a run this way).
if [ -n "${RUN_JUDGE_ECU_RC:-}" ]; then
    erc=$RUN_JUDGE_ECU_RC
    judge again
fi
# ---- inputs: each named when it is wrong, before anything boots
num() { case $2 in ''|*[!0-9]*) die 1 "$1='$2': a whole number expected";; esac; }
num RUN_DURATION "$DUR"; num RUN_PERIOD_US "$PERIOD"; num RUN_BUDGET_US "$BUDGET"; num RUN_HOLD_S "$HOLD"
[ "$DUR" -ge 1 ] || die 1 "RUN_DURATION=$DUR: at least 1 s"
case $ACCEL in tcg|kvm) ;; *) die 1 "RTKERNEL_ACCEL=$ACCEL: tcg or kvm";; esac
if [ -n "${RUN_MODEL_FILE:-}" ]; then
    [ -r "$RUN_MODEL_FILE" ] || die 2 "MODEL_FILE=$RUN_MODEL_FILE: no such readable file"
    host_model="--model-file $RUN_MODEL_FILE"; guest_model="--model-file /hs/user/model.hsm"
    what="description $RUN_MODEL_FILE"
else
    case ${RUN_MODEL:-} in ''|*[!A-Za-z0-9_]*) die 1 "MODEL='${RUN_MODEL:-}': a model name of the registry (hilstep-rt --help) or MODEL_FILE=path.hsm";; esac
    host_model="--model $RUN_MODEL"; guest_model="--model $RUN_MODEL"; what="model $RUN_MODEL"
fi
[ -n "${RUN_DBC:-}" ] && [ -r "$RUN_DBC" ] || die 2 "DBC=${RUN_DBC:-}: no such readable file"
[ -n "${RUN_ECU:-}" ] || die 1 "ECU=\"command\": the ECU to run on the host is missing"
params=""
for kv in ${RUN_PARAM:-}; do
    case $kv in *=*) ;; *) die 1 "PARAM: '$kv' is not NAME=VALUE";; esac
    case $kv in *[!A-Za-z0-9_.=+-]*) die 1 "PARAM: '$kv' holds a character other than letters, digits, _ . = + -";; esac
    params="$params --param $kv"
done
# More options of hilstep-rt (e.g. the link-health thresholds): on the guest's command line as given.
popts=${RUN_PLANT_OPTS:-}
case $popts in *[!A-Za-z0-9_.=:,+\ -]*) die 1 "PLANT_OPTS='$popts': only letters, digits, spaces and _ . = : , + -";; esac
# The plant binds the DBC on the host first: a mistake is reported as FILE:LINE now, not
# after a boot. (--signals opens no interface.)
# shellcheck disable=SC2086
"$B/hilstep-rt" $host_model $params $popts --transport can --can-if slcan0 --dbc "$RUN_DBC" \
    --period-us "$PERIOD" --signals >"$W/signals.txt" 2>&1
src=$?
if [ $src -ne 0 ]; then
    cat "$W/signals.txt"; die $src "hilstep-rt refused $what, DBC $RUN_DBC or the options (exit $src, above); nothing booted"
fi

# A DBC that authenticates the ECU's commands (SecOC, hil/CAN.md "Security") needs one key on
# both ends: without it the plant would refuse the start (exit 2) after a boot.
SECOC_KEY_FILE=""
if grep -q '^BA_ "HsSecOC' "$RUN_DBC"; then
    SECOC_KEY_FILE=${RUN_SECOC_KEY:-${XDG_CONFIG_HOME:-$HOME/.config}/hilstep/link.key}
    [ -r "$SECOC_KEY_FILE" ] || die 2 "DBC $RUN_DBC authenticates the ECU's commands (SecOC): no key $SECOC_KEY_FILE (the first authenticated run of build/hilstep-rt over UDP makes it; RUN_SECOC_KEY=FILE names another); nothing booted"
fi

VMLINUZ=$(ls /boot/vmlinuz-*-rt-amd64 2>/dev/null | sort -V | tail -n 1)
[ -n "$VMLINUZ" ] && [ -r "$VMLINUZ" ] || die 2 "no readable /boot/vmlinuz-*-rt-amd64 (linux-image-rt-amd64)"
KVER=${VMLINUZ#/boot/vmlinuz-}
command -v qemu-system-x86_64 >/dev/null 2>&1 || die 2 "qemu-system-x86_64 missing (qemu-system-x86)"

# ---- the guest: rtkernel-test's initramfs with slcan, virtio_console and slcand added, then a
# second cpio archive (the kernel unpacks concatenated archives in order) with the user's files.
HS_EXTRA_MODULES="kernel/drivers/net/can/slcan/slcan.ko kernel/drivers/char/virtio_console.ko" \
HS_EXTRA_TOOLS=slcand sh "$HERE/mkinitramfs.sh" "$W/base" "$KVER" "$B" >"$W/mkinitramfs.log" 2>&1 \
    || { cat "$W/mkinitramfs.log"; die 2 "initramfs not built ($W/mkinitramfs.log)"; }
U=$W/user-root
rm -rf "$U"; mkdir -p "$U/hs/user"
cp "$HERE/user_init" "$U/hs/user_init" && chmod 755 "$U/hs/user_init"
cp "$RUN_DBC" "$U/hs/user/bus.dbc"
[ -n "${RUN_MODEL_FILE:-}" ] && cp "$RUN_MODEL_FILE" "$U/hs/user/model.hsm"
if [ -n "$SECOC_KEY_FILE" ]; then
    (umask 077; cp "$SECOC_KEY_FILE" "$U/hs/user/secoc.key") && chmod 600 "$U/hs/user/secoc.key" || die 2 "key not copied into $U"
fi
cat >"$U/hs/user/run.conf" <<EOF
dur=$DUR
period=$PERIOD
budget=$BUDGET
linger=1000
hold=$HOLD
model_args="$guest_model$params${popts:+ $popts}"
EOF
(cd "$U" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >"$W/user.cpio" \
    && cat "$W/base/initramfs.cpio" "$W/user.cpio" >"$W/initramfs.cpio" || die 2 "user cpio not written in $W"

rm -f "$W/console.log" "$W/qemu.err" "$W/results.img" "$W/ecu.out" "$W/verdict"
truncate -s 64M "$W/results.img" || die 2 "$W/results.img not created"
a="-accel tcg,thread=multi"
[ "$ACCEL" = kvm ] && a="-accel kvm -cpu host"
TOTAL_S=$((DUR + 180))
# shellcheck disable=SC2086
timeout -k 5 "$TOTAL_S" qemu-system-x86_64 $a -smp 2 -m 512M -no-reboot -kernel "$VMLINUZ" \
    -initrd "$W/initramfs.cpio" -display none -monitor none -serial "file:$W/console.log" \
    -drive "file=$W/results.img,format=raw,if=virtio" \
    -device virtio-serial-pci -chardev pty,id=hscan -device virtconsole,chardev=hscan \
    -append "console=ttyS0 quiet panic=-1 rdinit=/hs/user_init" >"$W/qemu.out" 2>"$W/qemu.err" &
qpid=$!
# Interrupted (Ctrl-C, a CI timeout): the guest and the ECU's process group go with this script.
epid=""
stop_all() {
    kill $qpid 2>/dev/null
    [ -n "$epid" ] && kill -TERM -- -"$epid" 2>/dev/null
}
trap 'stop_all; say "interrupted"; exit 2' INT TERM HUP
t0=$(date +%s)
# qemu names the pty on stdout: "char device redirected to /dev/pts/N (label hscan)".
pty=""
i=0
while [ -z "$pty" ] && [ $i -lt 100 ] && kill -0 $qpid 2>/dev/null; do
    pty=$(sed -n 's/.*char device redirected to \(\/dev\/[^ ]*\) (label hscan).*/\1/p' "$W/qemu.out" "$W/qemu.err" 2>/dev/null)
    [ -n "$pty" ] || sleep 0.1
    i=$((i + 1))
done
if [ -z "$pty" ]; then
    kill $qpid 2>/dev/null; wait $qpid 2>/dev/null
    cat "$W/qemu.err"; die 2 "qemu gave no pty for the CAN line"
fi
say "guest: kernel $KVER ($ACCEL), $what, DBC $RUN_DBC, ${DUR} s at ${PERIOD} us; bus: slcan0 in the guest = HILSTEP_CAN_INTERFACE=slcan HILSTEP_CAN_CHANNEL=$pty"
# The ECU starts now, before the guest is up: it hears the plant's first frame. setsid puts it
# in a process group of its own, so whatever it starts can be stopped with it.
HILSTEP_CAN_INTERFACE=slcan HILSTEP_CAN_CHANNEL=$pty HILSTEP_DBC=$RUN_DBC HILSTEP_SECOC_KEY=$SECOC_KEY_FILE \
    setsid sh -c "$RUN_ECU" >"$W/ecu.out" 2>&1 &
epid=$!
init_seen=0
while kill -0 $qpid 2>/dev/null; do
    if [ $init_seen -eq 0 ]; then
        if grep -q 'hs-guest: init' "$W/console.log" 2>/dev/null; then
            init_seen=1
        elif [ $(($(date +%s) - t0)) -ge $TCG_INIT_S ]; then
            kill $qpid 2>/dev/null; wait $qpid 2>/dev/null; kill -TERM -- -$epid 2>/dev/null
            tail -n 20 "$W/console.log" 2>/dev/null; die 2 "the guest did not reach its init in $TCG_INIT_S s"
        fi
    fi
    sleep 0.5
done
wait $qpid; qrc=$?
t1=$(date +%s)
# The ECU ends on its own (the example after 3 s of the plant's silence); past the grace it is stopped.
i=0
while kill -0 $epid 2>/dev/null && [ $i -lt $((ECU_GRACE_S * 2)) ]; do sleep 0.5; i=$((i + 1)); done
ecu_killed=0
if kill -0 $epid 2>/dev/null; then
    kill -TERM -- -$epid 2>/dev/null; sleep 1; kill -KILL -- -$epid 2>/dev/null; ecu_killed=1
fi
wait $epid; erc=$?
say "boot to power-off $((t1 - t0)) s wall; ECU exit $erc$([ $ecu_killed -eq 1 ] && echo " (still running ${ECU_GRACE_S} s after the guest: stopped)")"
[ $qrc -eq 124 ] || [ $qrc -eq 137 ] && { tail -n 20 "$W/console.log"; die 2 "the guest overran ${TOTAL_S} s (killed)"; }

judge unpack
