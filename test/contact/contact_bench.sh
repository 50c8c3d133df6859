#!/bin/sh
# contact_bench.sh - make contact-bench: host instructions per step (callgrind) of the five-box
# stack (model/mech/stack.hsm), whole step and the contact stage alone, per method, and the
# spread (worst / best step) with every step of 60 s at h = 1/60 s measured.
# Usage: contact_bench.sh SIM
set -e
SIM=${1:-build/hilstep-sim}
HERE=$(dirname "$0")
F=$HERE/../../model/mech/stack.hsm
command -v valgrind > /dev/null 2>&1 || { echo "valgrind missing"; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/hs-ctbench.XXXXXX")
trap 'rm -rf "$T"' EXIT
# instructions of the toggled function over a run
ir() { fn=$1; shift
       valgrind --tool=callgrind --collect-atstart=no --toggle-collect="$fn" --callgrind-out-file=/dev/null \
           "$SIM" "$@" 2>&1 | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'; }
echo "| method | instructions per step | of which the contact stage |"
echo "|---|---|---|"
for m in "sdirk (default)" symplectic "spook --stab none" "j2"; do
    set -- $m
    flags="--method $1"; [ "${2:-}" = "--stab" ] && flags="$flags --stab $3"
    a=$(ir hs_stepper_step --model-file "$F" $flags --h 0.001 --t 0.1)
    b=$(ir hs_stepper_step --model-file "$F" $flags --h 0.001 --t 0.6)
    c=$(ir hs_st_contact --model-file "$F" $flags --h 0.001 --t 0.1)
    d=$(ir hs_st_contact --model-file "$F" $flags --h 0.001 --t 0.6)
    echo "| $m | $(( (b - a) / 500 )) | $(( (d - c) / 500 )) |"
done
echo
# every step of 60 s at h = 1/60 s (3600 steps), default method
mkdir -p "$T/cg"
valgrind --tool=callgrind --collect-atstart=no --toggle-collect=hs_stepper_step --dump-after=hs_stepper_step \
    --callgrind-out-file="$T/cg/cg" "$SIM" --model-file "$F" --h 0.016666666666666666 --t 60 > "$T/out" 2>/dev/null
grep -h '^summary:' "$T"/cg/cg.* | awk '{ s = $2; n++; if (n == 1 || s < mn) mn = s; if (s > mx) mx = s }
    END { printf "stack, default method, h = 1/60 s, 60 s: %d steps measured, best %d, worst %d, worst/best %.6f\n", n, mn, mx, mx / mn }'
