#!/bin/sh
# The compliant slider crank family behind the default's dead-centre range check
# (rt/METHODS.md "Where a method stops", model/mb/hs_mb_motion.c): the shipped
# model/mech/slider_crank_singular.hsm with its drive rate and initial speeds scaled by F, run
# for 10 s (the nearest whole number of steps) at each h in milliseconds, one line per run.
# Usage: dead_centre_sweep.sh SIM F "MS ..." [--param NAME=VALUE ...]
#   e.g. dead_centre_sweep.sh build/hilstep-sim 1 "$(seq 1 40)" --param d=1e4
set -e
SIM=${1:?SIM}; F=${2:?F}; LIST=${3:?MS list}; shift 3
HERE=$(dirname "$0")
M=$(mktemp "${TMPDIR:-/tmp}/hs-dc.XXXXXX")
trap 'rm -f "$M"' EXIT
/usr/bin/python3 - "$F" "$HERE/../../model/mech/slider_crank_singular.hsm" > "$M" <<'PY'
import math, sys
f = float(sys.argv[1]); w = 2 * math.pi * f
for l in open(sys.argv[2]):
    l = (l.replace("vel=0,3.141592653589793", "vel=0,%r" % (w / 2))
          .replace("omega=-6.283185307179586", "omega=%r" % -w)
          .replace("omega=6.283185307179586", "omega=%r" % w)
          .replace("f=0,6.283185307179586", "f=0,%r" % w))
    sys.stdout.write(l)
PY
for ms in $LIST; do
    h=$(/usr/bin/python3 -c "print($ms / 1000)")
    T=$(/usr/bin/python3 -c "print(round(10 / $h) * $h)")
    r=$("$SIM" --model-file "$M" --h "$h" --t "$T" "$@" 2>/dev/null | grep '^steps=' || true)
    echo "F=$F h=$h h*w_d=$(/usr/bin/python3 -c "import math; print('%.3f' % ($h * 2 * math.pi * $F))") $(echo "$r" | grep -o 'steps=[^ ]*') $(echo "$r" | grep -o 'max_abs_g=[^ ]*') $(echo "$r" | grep -o 'status=[^ ]*') $*"
done
