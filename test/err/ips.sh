#!/bin/sh
# test/err/ips.sh SIM: instructions per step of the default on four descriptions (callgrind:
# the difference of a 400- and a 200-step run over 200), the error estimate's cost in rt/METHODS.md
SIM=$1; shift
i() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$SIM" "$@" 2>&1 | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'; }
for f in pendulum chain car_axle fourbar_spatial; do
  a=$(i --model-file model/mech/$f.hsm --h 0.001 --t 0.2); b=$(i --model-file model/mech/$f.hsm --h 0.001 --t 0.4)
  echo "$f $(( (b - a) / 200 ))"
done
