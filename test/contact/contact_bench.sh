#!/bin/sh
# contact_bench.sh - make contact-bench: host instructions per step (callgrind) of the five-box
# stack (model/mech/stack.hsm), whole step and the contact stage alone, per method, and the
# spread (worst / best step) with every step of 60 s at h = 1/60 s measured; the box towers of
# 20 and 50 boxes: instructions per step per box against the stack's, their spread,
# the top box's drift and settle over 20 s at 1 ms, and tower50's drift against the sweeps;
# the towers' verdict at steps of 1 to 10 ms, and the stack's rest depth against h (1 ms to
# 1/20 s) beside the compliance its rows keep (model/CONTACT.md "The rest depth at long steps").
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
    # --glob-check off: one stepper (the other methods' default runs an h/2 twin beside it for
    # err_rich, which hs_stepper_step would count three times per step)
    flags="--method $1 --glob-check off"; [ "${2:-}" = "--stab" ] && flags="$flags --stab $3"
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
    --callgrind-out-file="$T/cg/cg" "$SIM" --model-file "$F" --h 0.016666666666666666 --t 60 --glob-check off > "$T/out" 2>/dev/null
grep -h '^summary:' "$T"/cg/cg.* | awk '{ s = $2; n++; if (n == 1 || s < mn) mn = s; if (s > mx) mx = s }
    END { printf "stack, default method, h = 1/60 s, 60 s: %d steps measured, best %d, worst %d, worst/best %.6f\n", n, mn, mx, mx / mn }'
echo
# the box towers (model/mech/large/, test/mb/gen_large.py) against the stack: every
# step of 200 at h = 1 ms, default method; per box the mean of steps 101 to 200
echo "| description | boxes | instructions per step | per box | per box / stack's | worst / best step (200) |"
echo "|---|---|---|---|---|---|"
for f in stack large/tower20 large/tower50; do
    case $f in stack) nb=5 ;; *) nb=${f#large/tower} ;; esac
    rm -rf "$T/cg"; mkdir -p "$T/cg"
    valgrind --tool=callgrind --collect-atstart=no --toggle-collect=hs_stepper_step --dump-after=hs_stepper_step \
        --callgrind-out-file="$T/cg/cg" "$SIM" --model-file "$HERE/../../model/mech/$f.hsm" --h 0.001 --t 0.2 --glob-check off > /dev/null 2>&1
    for g in "$T"/cg/cg.*; do echo "${g##*.} $(sed -n 's/^summary: *//p' "$g")"; done > "$T/ir"
    row=$(awk -v nb=$nb '{ n++; if (n == 1 || $2 < a) a = $2; if ($2 > b) b = $2; if ($1 > 100) { s += $2; k++ } }
        END { printf "%.0f %.1f %.6f", s / k, s / k / nb, b / a }' "$T/ir")
    set -- $row
    [ $nb = 5 ] && pb5=$2
    echo "| ${f#large/} | $nb | $1 | $2 | $(awk -v a="$2" -v b="$pb5" 'BEGIN { printf "%.3f", a / b }') | $3 |"
done
echo
# 20 s at h = 1 ms: the top box's horizontal drift from its start (largest over the run and at
# 20 s), its settle against the compliance REG h^2 / ERP g N^2 of the rows under the load; the
# same for tower20_asym and tower50_asym (each box moved a few mm sideways in no mirror pattern,
# test/contact/scenes/tower20_asym.hsm; tower50_asym is written here by the same formula).
# --glob-check off on these figure runs (the run alone: the same trajectory, a seventh of the time)
REG=$(sed -n 's/^#define HS_CT_REG HS_R(\([^)]*\)).*/\1/p' "$HERE/../../rt/hs_contact.h")
ERP=$(sed -n 's/^#define HS_CT_ERP HS_R(\([^)]*\)).*/\1/p' "$HERE/../../rt/hs_contact.h")
echo "| description, 20 s at h = 1 ms | top drift, largest (mm) | at 20 s (mm) | settle (mm) | compliance (mm) | max_compl (m/s) |"
echo "|---|---|---|---|---|---|"
awk 'BEGIN { n = 50; print "model tower50_asym dim=3\nparam mu = 0.5\ngravity 0,0,-9.81"
             for (k = 1; k <= n; k++) printf "body b%d spatial mass=1 inertia=0.0066667,0.0066667,0.0066667 pos=%.6f,%.6f,%.1f quat=1,0,0,0\n",
                                          k, 0.003 * sin(1.7 * k), 0.002 * cos(2.3 * k) + 0.001, 0.2 * k - 0.1
             print "shape floor plane body=ground"; for (k = 1; k <= n; k++) printf "shape s%d box body=b%d half=0.1,0.1,0.1\n", k, k
             print "contact c1 a=s1 b=floor mu=mu"; for (k = 2; k <= n; k++) printf "contact c%d a=s%d b=s%d mu=mu\n", k, k, k - 1 }' > "$T/tower50_asym.hsm"
for f in large/tower20 large/tower50 ASYM20 ASYM50; do
    case $f in ASYM20) p=$HERE/scenes/tower20_asym.hsm; n=20; l=tower20_asym ;; ASYM50) p=$T/tower50_asym.hsm; n=50; l=tower50_asym ;;
               *) p=$HERE/../../model/mech/$f.hsm; n=${f#large/tower}; l=tower$n ;; esac
    out=$("$SIM" --model-file "$p" --h 0.001 --t 20 --csv "$T/tower.csv" --glob-check off)
    c=$((7 * n - 5))
    awk -F, -v c=$c -v n=$n -v l=$l -v r="$REG" -v e="$ERP" -v mc="$(echo "$out" | tr ' ' '\n' | sed -n 's/^max_compl=//p')" \
        'NR == 2 { x0 = $c; y0 = $(c + 1) }
         NR > 1 { dx = $c - x0; dy = $(c + 1) - y0; d = sqrt(dx * dx + dy * dy); if (d > m) m = d; z = $(c + 2) }
         END { printf "| %s | %.4f | %.4f | %.5f | %.5f | %s |\n", l, m * 1e3, d * 1e3, (0.2 * n - 0.1 - z) * 1e3,
               r * 1e-6 / e * 9.81 * n * n * 1e3, mc }' "$T/tower.csv"
done
echo
# why tower50 sways: the sweeps' count (a copy of tower50.hsm with `solver sweeps=N`), 5 s
echo "| tower50, 5 s at h = 1 ms | top drift, largest (mm) | at 5 s (mm) |"
echo "|---|---|---|"
for s in 20 40 80; do
    { cat "$HERE/../../model/mech/large/tower50.hsm"; echo "solver sweeps=$s"; } > "$T/t50s.hsm"
    "$SIM" --model-file "$T/t50s.hsm" --h 0.001 --t 5 --csv "$T/tower.csv" --glob-check off > /dev/null
    awk -F, -v c=345 -v s=$s 'NR > 1 { d = sqrt($c * $c + $(c + 1) * $(c + 1)); if (d > m) m = d }
        END { printf "| solver sweeps=%d | %.4f | %.4f |\n", s, m * 1e3, d * 1e3 }' "$T/tower.csv"
done
echo
# the verdict on the towers at long steps (each 20 s, 10 s at 10 ms; the top box's largest
# horizontal offset over the run from the CSV, the result line's status and err_glob), and the
# stack's rest depth against h (60 s; settle of the top box against the compliance the rows
# keep, (1 - hold) REG W F h^2 / ERP, rt/hs_contact.h hs_contact_hold)
echo "| description, h | top offset, largest (mm) | status | err_glob | err_rich |"
echo "|---|---|---|---|---|"
for c in "20 0.001 20" "20 0.004 20" "20 0.00625 20" "20 0.008 20" "20 0.01 10" "50 0.001 20" "50 0.0016 20" "50 0.0025 20" "50 0.005 20"; do
    set -- $c
    out=$("$SIM" --model-file "$HERE/../../model/mech/large/tower$1.hsm" --h "$2" --t "$3" --csv "$T/tower.csv" --every 10 2>/dev/null || true)
    awk -F, -v c=$((7 * $1 - 5)) -v n="$1" -v h="$2" -v t="$3" -v st="$(echo "$out" | tr ' ' '\n' | sed -n 's/^status=//p')" \
        -v eg="$(echo "$out" | tr ' ' '\n' | sed -n 's/^err_glob=//p')" -v er="$(echo "$out" | tr ' ' '\n' | sed -n 's/^err_rich=//p')" \
        'NR > 1 { d = sqrt($c * $c + $(c + 1) * $(c + 1)); if (d > m) m = d }
         END { printf "| tower%d, %g ms (%g s) | %.4g | %s | %s | %s |\n", n, h * 1e3, t, m * 1e3, st, eg, er }' "$T/tower.csv"
done
echo
# tower50 at 5 ms: the top offset grows from rounding at one rate whatever the sweeps (the
# column on its compliant corners buckles under its own weight; model/CONTACT.md "When the
# budget is short"): offset at 10 s and 20 s, e-fold time between them
echo "| tower50, h = 5 ms, 20 s | top offset at 10 s (m) | at 20 s (m) | e-fold 10-20 s (s) |"
echo "|---|---|---|---|"
for s in 10 16 20 64; do
    { cat "$HERE/../../model/mech/large/tower50.hsm"; echo "solver sweeps=$s"; } > "$T/t50s.hsm"
    "$SIM" --model-file "$T/t50s.hsm" --h 0.005 --t 20 --csv "$T/tower.csv" --every 10 --glob-check off > /dev/null
    awk -F, -v c=345 -v s=$s 'NR > 1 { d = sqrt($c * $c + $(c + 1) * $(c + 1)); if ($1 == 10) a = d; b = d }
        END { printf "| solver sweeps=%d | %.3e | %.3e | %.3f |\n", s, a, b, 10 / log(b / a) }' "$T/tower.csv"
done
echo
HREF=$(sed -n 's/^#define HS_CT_HREF HS_R(\([^)]*\)).*/\1/p' "$HERE/../../rt/hs_contact.h")
HOLDMAX=$(sed -n 's/^#define HS_CT_HOLDMAX HS_R(\([^)]*\)).*/\1/p' "$HERE/../../rt/hs_contact.h")
echo "| stack, 60 s at h | settle (mm) | compliance kept (mm) | h^2 law (mm) | top drift at 60 s (mm) | status | err_glob | err_rich |"
echo "|---|---|---|---|---|---|---|---|"
for h in 0.001 0.002 0.004 0.00625 0.01 0.016666666666666666 0.05; do
    out=$("$SIM" --model-file "$F" --h $h --t 60 2>/dev/null || true)
    echo "$out" | tr ' ' '\n' | awk -F= -v h=$h -v r="$REG" -v e="$ERP" -v hr="$HREF" -v hm="$HOLDMAX" '
        { v[$1] = $2 }
        END { x = hr / h; k = (x < 1) ? 1 - x * x : 0; if (k > hm) k = hm
              law = r * h * h / e * 9.81 * (4 * 5 / 4 + 8 * (4 + 3 + 2 + 1) / 4)
              printf "| %.4g ms | %.5f | %.5f | %.5f | %.4f | %s | %s | %s |\n", h * 1e3, (0.9 - v["q31"]) * 1e3, (1 - k) * law * 1e3, law * 1e3,
                     sqrt(v["q29"] * v["q29"] + v["q30"] * v["q30"]) * 1e3, v["status"], v["err_glob"], v["err_rich"] }'
done
