#!/bin/sh
# test/peers/peers_ir.sh PEERS N...: instructions per step of the chain of N rods in each engine,
# callgrind counting only hs_peers_ir_loop (the steps of a chain already built: set-up is not
# counted), mean over 1000 steps from the released state, h = 1 ms (ODE up to n = 32). Prints one line per engine
# and n, then the ratios the README quotes:
#   chain-ir n=<n> <engine> <instructions/step>
#   chain-ir-ratio n=<n> hilstep/mujoco <r> hilstep/bullet <r>
set -e
P=${1:?usage: peers_ir.sh build/hilstep-peers N...}
shift
command -v valgrind >/dev/null 2>&1 || { echo "valgrind missing"; exit 1; }
K=1000
ir() { # engine n -> instructions per step
    out=$(valgrind --tool=callgrind --toggle-collect=hs_peers_ir_loop --callgrind-out-file=/dev/null \
          "$P" --ir "$1" "$2" $K 2>&1) || { echo "$out" >&2; echo "FAIL"; return; }
    c=$(echo "$out" | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p')
    echo $(( c / K ))
}
echo "== chain of n rods, instructions per step (callgrind, mean of $K steps from release, h = 1 ms)"
for n in "$@"; do
    hs=$(ir hilstep "$n"); mj=$(ir mujoco "$n"); bt=$(ir bullet "$n")
    echo "chain-ir n=$n hilstep-default $hs"
    echo "chain-ir n=$n mujoco-euler $mj"
    echo "chain-ir n=$n bullet-multibody $bt"
    # ODE's dense solve makes n = 128 take minutes under callgrind; its times are in the table
    [ "$n" -le 32 ] && echo "chain-ir n=$n ode-worldstep $(ir ode "$n")"
    awk -v n="$n" -v h="$hs" -v m="$mj" -v b="$bt" \
        'BEGIN { printf "chain-ir-ratio n=%s hilstep/mujoco %.2f hilstep/bullet %.2f\n", n, h / m, h / b }'
done
