#!/bin/sh
# Installs from Debian's packages whatever `make run` and `make test` need and the machine
# lacks: C compilers (gcc, clang), cppcheck, valgrind, the Arm toolchain and newlib, QEMU,
# tshark (the frame dissector test), python3-numpy and python3-matplotlib; for make
# rtkernel-test Debian's PREEMPT_RT kernel (linux-image-rt-amd64), busybox-static, cpio,
# qemu-system-x86, can-utils, rt-tests (cyclictest), python3-can, python3-canmatrix and python3-serial.
# The apt log goes to build/hilstep-apt.log. HS_APT names the apt-get to call (the setup test uses a stub).
APT=${HS_APT:-apt-get}
need=""
command -v cc >/dev/null 2>&1 || need="$need gcc"
command -v clang >/dev/null 2>&1 || need="$need clang"
# make fuzz-coverage merges and reports clang's source-based coverage
command -v llvm-profdata >/dev/null 2>&1 && command -v llvm-cov >/dev/null 2>&1 || need="$need llvm"
command -v cppcheck >/dev/null 2>&1 || need="$need cppcheck"
command -v clang-tidy >/dev/null 2>&1 || need="$need clang-tidy"  # test/misra/fix_required.sh
command -v valgrind >/dev/null 2>&1 || need="$need valgrind"
command -v arm-none-eabi-gcc >/dev/null 2>&1 || need="$need gcc-arm-none-eabi libnewlib-arm-none-eabi"
command -v qemu-system-arm >/dev/null 2>&1 || need="$need qemu-system-arm"
command -v tshark >/dev/null 2>&1 || need="$need tshark"
# make rtkernel-test boots the installed rt kernel (installing it runs update-initramfs).
set -- /boot/vmlinuz-*-rt-amd64
[ -e "$1" ] || need="$need linux-image-rt-amd64"
case "$(dpkg-query -W -f='${Status}' busybox-static 2>/dev/null)" in
    *"ok installed"*) ;;
    *) need="$need busybox-static";;
esac
command -v cpio >/dev/null 2>&1 || need="$need cpio"
command -v qemu-system-x86_64 >/dev/null 2>&1 || need="$need qemu-system-x86"
command -v candump >/dev/null 2>&1 || need="$need can-utils"
command -v cyclictest >/dev/null 2>&1 || need="$need rt-tests"
/usr/bin/python3 -c 'import can' >/dev/null 2>&1 || need="$need python3-can"
/usr/bin/python3 -c 'import canmatrix' >/dev/null 2>&1 || need="$need python3-canmatrix"
/usr/bin/python3 -c 'import serial' >/dev/null 2>&1 || need="$need python3-serial"  # python-can slcan (make rtkernel-run)
/usr/bin/python3 -c 'import numpy' >/dev/null 2>&1 || need="$need python3-numpy"
/usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1 || need="$need python3-matplotlib"
if [ -n "$need" ]; then
    echo "installing:$need"
    mkdir -p build
    export DEBIAN_FRONTEND=noninteractive
    # tshark asks whether non-root users may capture; answer no without a prompt.
    echo "wireshark-common wireshark-common/install-setuid boolean false" | debconf-set-selections 2>/dev/null
    # (a second install at the same time, e.g. another checkout's make test, waits for the lock)
    L="-o DPkg::Lock::Timeout=600"
    ($APT update -qq $L && $APT install -y -qq $L $need) >build/hilstep-apt.log 2>&1 \
        || { echo "apt-get install failed, see build/hilstep-apt.log"; exit 1; }
fi
exit 0
