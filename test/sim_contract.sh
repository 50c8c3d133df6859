#!/bin/sh
# The command-line contract of build/hilstep-sim (README, "Offline simulator"): options,
# exit codes, CSV header and rows, the summary line and the hash line.
SIM=${1:-build/hilstep-sim}
pass=0; fail=0
t() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "  FAIL $1"; fi; }
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
BASE="--model car_axle --method j2 --form index2 --stab projection --h 1e-3 --t 3"

$SIM --help >"$D/help"; rc=$?
t "help exits 0" '[ $rc -eq 0 ]'
for w in test_eq car_axle circular_track pendulum explicit symplectic j1 j2 j3 jexact index1 index2 ggl baumgarte projection eps L0 kp ki v_ref theta0; do
    t "help mentions $w" "grep -q -- '$w' '$D/help'"
done

$SIM $BASE --csv "$D/c.csv" --every 10 >"$D/out"; rc=$?
t "car axle run exits 0" '[ $rc -eq 0 ]'
t "csv header" '[ "$(head -n 1 "$D/c.csv" | cut -d, -f1-11)" = "t,q1,q2,q3,q4,u1,u2,u3,u4,g1,g2" ]'
t "csv first row at t=0" '[ "$(sed -n 2p "$D/c.csv" | cut -d, -f1)" = "0" ]'
t "csv rows every 10 steps incl. t=0 and t=3" '[ $(($(wc -l <"$D/c.csv") - 1)) -eq 301 ]'
t "csv last row at t=3" '[ "$(tail -n 1 "$D/c.csv" | cut -d, -f1)" = "3" ]'
for k in steps=3000 max_abs_g= ns_per_step= status=ok; do
    t "summary has $k" "grep -q ' *$k' '$D/out'"
done
t "summary is one line" '[ $(wc -l <"$D/out") -eq 1 ]'

$SIM $BASE --hash >"$D/h"; rc=$?
t "hash line" 'grep -qE "^trajectory-hash car_axle j2 projection 3000 0x[0-9a-f]{16}$" "$D/h"'
t "hash pinned as in test/unit/test_hash.c" "grep -q \"\$(grep -oE '0x[0-9a-f]{16}' '$D/h')\" test/unit/test_hash.c"

bad() { # name, expected word in the message, args...
    n=$1; w=$2; shift 2
    $SIM "$@" >/dev/null 2>"$D/e"; rc=$?
    t "$n exits 2" '[ $rc -eq 2 ]'
    t "$n names $w" "grep -q -- '$w' '$D/e'"
}
bad "unknown model" --model --model nope --method j2 --h 1e-3 --t 1
bad "unknown method" --method --model car_axle --method rk4 --h 1e-3 --t 1
bad "bad form" --form --model car_axle --method j2 --form index3 --h 1e-3 --t 1
bad "ggl with projection" --form --model car_axle --method j2 --form ggl --stab projection --h 1e-3 --t 1
bad "bad stab" --stab --model car_axle --method j2 --stab magic --h 1e-3 --t 1
bad "negative h" --h --model car_axle --method j2 --h -1 --t 1
bad "nan h" --h --model car_axle --method j2 --h nan --t 1
bad "missing t" --t --model car_axle --method j2 --h 1e-3
bad "unknown param" --param --model car_axle --param nope=1 --method j2 --h 1e-3 --t 1
bad "param out of range" --param --model car_axle --param eps=-1 --method j2 --h 1e-3 --t 1
bad "param not a number" --param --model car_axle --param eps=abc --method j2 --h 1e-3 --t 1
bad "inconsistent params" --param --model car_axle --param r=2 --method j2 --h 1e-3 --t 1
bad "negative alpha" --alpha --model car_axle --method j2 --stab baumgarte --alpha -3 --h 1e-3 --t 1
bad "analytic jac missing" --jac --model circular_track --method j2 --jac analytic --h 1e-3 --t 1
bad "unknown option" --frobnicate --model car_axle --method j2 --h 1e-3 --t 1 --frobnicate 3
bad "bad every" --every --model car_axle --method j2 --h 1e-3 --t 1 --every 0

# A diverging run is reported, not hidden: explicit Euler on test_eq with h^2 a = 9 (b = 0).
$SIM --model test_eq --param a=9e6 --method explicit --form index2 --stab none --h 1e-3 --t 100 >"$D/div" 2>/dev/null; rc=$?
t "divergence exits 1" '[ $rc -eq 1 ]'
t "divergence status not ok" '! grep -q "status=ok" "$D/div"'
echo "sim-contract: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
