#!/bin/sh
# make size-bench: instructions per step (callgrind on hilstep-sim, (Ir(300 steps) - Ir(100
# steps)) / 200, default configuration, h = 1 ms) of the IFToMM A02 N-four-bar for N = 5, 10,
# 20, 40 (2N + 1 bodies) and of box towers of 5, 10, 20, 50 boxes (test/mb/gen_large.py writes
# them), per body, and the ratio of the per-body cost to the smallest size's: 1.0 is linear.
#   size_bench.sh SIM
set -e
SIM=${1:-build/hilstep-sim}
HERE=$(dirname "$0")
command -v valgrind >/dev/null 2>&1 || { echo "valgrind missing"; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/hs-sizebench.XXXXXX")
trap 'rm -rf "$T"' EXIT
/usr/bin/python3 - "$T" "$HERE" <<'PYEOF'
import sys
sys.path.insert(0, sys.argv[2])
import gen_large
for n in (5, 10, 20, 40):
    open("%s/fourbar%d.hsm" % (sys.argv[1], n), "w").write(gen_large.fourbar(n))
for n in (5, 10, 20, 50):
    open("%s/tower%d.hsm" % (sys.argv[1], n), "w").write(gen_large.tower(n))
PYEOF
ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$SIM" "$@" 2>&1 | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'; }
echo "| description | bodies | instructions per step | per body | per body / smallest's |"
echo "|---|---|---|---|---|"
for kind in fourbar tower; do
    base=
    case $kind in fourbar) sizes="5 10 20 40" ;; *) sizes="5 10 20 50" ;; esac
    for n in $sizes; do
        case $kind in fourbar) nb=$((2 * n + 1)) ;; *) nb=$n ;; esac
        a=$(ir --model-file "$T/$kind$n.hsm" --h 1e-3 --t 0.1); b=$(ir --model-file "$T/$kind$n.hsm" --h 1e-3 --t 0.3)
        per=$(( (b - a) / 200 ))
        pb=$(( per / nb ))
        [ -n "$base" ] || base=$pb
        echo "| $kind$n | $nb | $per | $pb | $(awk -v x=$pb -v y=$base 'BEGIN { printf "%.2f", x / y }') |"
    done
done
