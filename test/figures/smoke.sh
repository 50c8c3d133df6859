#!/bin/sh
# figures-smoke: every script behind `make figures` runs to the end at reduced resolution
# (make_figures.py --quick, the sparse ladder figures --quick, the energy figure on short
# runs), into a scratch directory, and writes each PNG, its CSV data and the captions.
#   smoke.sh SIM ISSUE8_BIN SPBENCH_BIN VDC
SIM=${1:?hilstep-sim}; I8=${2:?hilstep-method-bars}; SP=${3:?hilstep-spbench}; VDC=${4:?hilstep-vdc}
PY=/usr/bin/python3
pass=0; fail=0
ok() { pass=$((pass + 1)); echo "  ok   $1"; }
ko() { fail=$((fail + 1)); echo "  FAIL $1"; }
D=$(mktemp -d "${TMPDIR:-/tmp}/hilstep-figures-smoke.XXXXXX") || exit 1
trap 'rm -rf "$D"' EXIT
png() { [ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }

$PY test/figures/make_figures.py --sim "$SIM" --out "$D/f" --quick --workers 1 >"$D/f.log" 2>&1; rc=$?
[ $rc -eq 0 ] && ok "make_figures.py --quick: exit 0 ($(grep -o '[0-9]* runs in [0-9.]* s' "$D/f.log"))" || { ko "make_figures.py --quick: exit $rc"; tail -5 "$D/f.log"; }
for f in fig1_stability fig3_circular_track fig5_car_axle_drift fig6_car_axle_maxdrift fig7_car_axle_explicit fig8_car_axle_global_error; do
    png "$D/f/$f.png" && [ -s "$D/f/$f.csv" ] && ok "$f.png and its CSV" || ko "$f.png or $f.csv missing"
done
for n in 1 3 5 6 7 8; do grep -q "^## Fig. $n " "$D/f/README.md" 2>/dev/null || { ko "captions lack Fig. $n"; continue; }; done
grep -q "^## Fig. 8 " "$D/f/README.md" 2>/dev/null && ok "captions for Figs. 1, 3, 5, 6, 7, 8"
# Fig. 7's table: all 30 runs, configurations outside the method's Baumgarte region marked.
n=$(($(wc -l <"$D/f/fig7_car_axle_methods.csv" 2>/dev/null || echo 1) - 1))
[ "$n" -eq 30 ] && ok "Fig. 7 table: 30 method x formulation x stabilization rows" || ko "Fig. 7 table: $n rows (want 30)"
grep -q "refused" "$D/f/fig7_car_axle_methods.csv" 2>/dev/null && ! grep -q "symplectic,index2,projection,refused" "$D/f/fig7_car_axle_methods.csv" \
    && ok "Fig. 7 table: refused Baumgarte configurations marked, the index-2 projection runs ran" || ko "Fig. 7 table: refusals not marked"

$PY test/sparse/l2_ladder.py --bench "$SP" --out "$D/s" --quick >"$D/s.log" 2>&1; rc=$?
[ $rc -eq 0 ] && ls "$D/s"/*.png >/dev/null 2>&1 && ok "l2_ladder.py --quick: exit 0, $(ls "$D/s"/*.png | wc -l) PNGs" || { ko "l2_ladder.py --quick: exit $rc"; tail -5 "$D/s.log"; }

$PY test/soak/energy_fig.py --bin "$I8" --out "$D/e" --chain-t 2 --axle-t 2 >"$D/e.log" 2>&1; rc=$?
[ $rc -eq 0 ] && ls "$D/e"/*.png >/dev/null 2>&1 && ok "energy_fig.py on 2 s runs: exit 0, PNG written" || { ko "energy_fig.py: exit $rc"; tail -5 "$D/e.log"; }
$PY test/figures/fig_compliance.py --sim "$SIM" --out "$D/c" >"$D/c.log" 2>&1; rc=$?
[ $rc -eq 0 ] && png "$D/c/fig_l1_pendulum.png" && png "$D/c/fig_l1_slider_crank.png" && [ -s "$D/c/fig_l1_pendulum.csv" ] \
    && grep -q "^| 6.2: " "$D/c/l1.md" && ok "fig_compliance.py: the regularized stepper's pendulum and slider crank figures, CSVs, captions" \
    || { ko "fig_compliance.py: exit $rc or a file missing"; tail -5 "$D/c.log"; }
$PY test/figures/fig_vdc.py --vdc "$VDC" --out "$D/v" >"$D/v.log" 2>&1; rc=$?
[ $rc -eq 0 ] && png "$D/v/fig_vdc_sine_dwell.png" && png "$D/v/fig_vdc_abs.png" && png "$D/v/fig_vdc_mu_split.png" \
    && png "$D/v/fig_vdc_step.png" && [ -s "$D/v/vdc_sd_esc.csv" ] && grep -q "ESC on | YRR" "$D/v/vdc.md" \
    && ok "fig_vdc.py: the sine with dwell, ABS, mu-split and step steer figures, CSVs, vdc.md" \
    || { ko "fig_vdc.py: exit $rc or a file missing"; tail -5 "$D/v.log"; }
echo "figures-smoke: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
