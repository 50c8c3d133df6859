#!/bin/sh
# Installs from Debian's packages whatever the test suites need and the machine lacks.
need=""
command -v cc >/dev/null 2>&1 || need="$need gcc"
command -v clang >/dev/null 2>&1 || need="$need clang"
command -v cppcheck >/dev/null 2>&1 || need="$need cppcheck"
command -v valgrind >/dev/null 2>&1 || need="$need valgrind"
command -v arm-none-eabi-gcc >/dev/null 2>&1 || need="$need gcc-arm-none-eabi libnewlib-arm-none-eabi"
command -v qemu-system-arm >/dev/null 2>&1 || need="$need qemu-system-arm"
/usr/bin/python3 -c 'import numpy' >/dev/null 2>&1 || need="$need python3-numpy"
/usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1 || need="$need python3-matplotlib"
if [ -n "$need" ]; then
    echo "installing:$need"
    export DEBIAN_FRONTEND=noninteractive
    (apt-get update -qq && apt-get install -y -qq $need) >/tmp/hilstep-apt.log 2>&1 \
        || { echo "apt-get install failed, see /tmp/hilstep-apt.log"; exit 1; }
fi
exit 0
