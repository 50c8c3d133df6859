#!/bin/sh
# make bench (multibody part): instructions per step of every shipped description, on the host
# and on the boards, in the library's default configuration and in J2 + index-2 + projection
# (the configuration the descriptions' host tests use), h = 1 ms (the equal-length slider
# crank 1.1 ms: 1 ms lands on its singular instants), next to the hand-written car axle.
#   host: callgrind on hilstep-sim --model-file, (Ir(1100 steps) - Ir(100 steps)) / 1000, so
#         set-up cancels (mean instructions per step, x86-64 -O2)
#   M7, M4F: the generated tables (model/gen/mb_NAME.c) in hilstep-mech.elf under QEMU -icount
#         shift=0, mean over 1000 steps of hs_stepper_step (test/qemu/mech_tests.sh, which
#         also checks each board's trajectory hash against the host's; a row whose board run
#         failed says so instead of a number)
# Usage: mb_bench.sh SIM [CM_DIR HOST_FLOAT_SIM] [--readme FILE]
#   --readme FILE: also replace the table between the markers
#   "<!-- mb-bench-table:begin -->" and "<!-- mb-bench-table:end -->" in FILE (make mb-bench-readme).
set -e
SIM=${1:-build/hilstep-sim}
CM=${2:-build/cortex-m}
SIMF=${3:-$CM/host-float/hilstep-sim}
README=
[ "${4:-}" = --readme ] && README=${5:?README file}
HERE=$(dirname "$0")
ROOT=$HERE/../..
command -v valgrind >/dev/null 2>&1 || { echo "valgrind missing"; exit 1; }
# --glob-check off: hilstep-sim's companions at h/2 and h/4 (its offline estimate, on by
# default for j2 and for sdirk runs with contacts) are not the plant's step, and the boards
# do not run them; counting them made the host columns up to 9x the boards'.
ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$SIM" --glob-check off "$@" 2>&1 | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'; }

# Boards first (their script prints its own checks; keep only its verdict here).
T=$(mktemp -d "${TMPDIR:-/tmp}/hs-mbbench.XXXXXX")
trap 'rm -rf "$T"' EXIT
if sh "$ROOT/test/qemu/mech_tests.sh" "$CM" "$SIM" "$SIMF" > "$T/boards.txt" 2>&1; then board_ok=1; else board_ok=0; fi
COSTS=$CM/qemu-mech/costs.txt
board() { # board label config -> mean, or "FAIL"
    if grep -q "^FAIL $1 $2 $3:" "$T/boards.txt"; then echo FAIL; return; fi
    awk -v b="$1" -v l="$2" -v c="$3" '$1 == b && $2 == l && $3 == c { print $9 }' "$COSTS" 2>/dev/null | grep . || echo "n/a"
}
dm=$("$SIM" --help | sed -n 's/^library default (hs_stepper_default_def), used for what is omitted: method \([^ ]*\) form \([^ ]*\) stab \([^ ]*\)$/\1, \2, \3/p')

{
echo "| model | nq | nc | host default | M7 default | M4F default | host j2 | M7 j2 | M4F j2 |"
echo "|---|---|---|---|---|---|---|---|---|"
rows() { echo "car_axle car_axle 1e-3 --model car_axle"
         for f in "$ROOT"/model/mech/*.hsm; do
             case $f in *slider_crank_singular.hsm) h=1.1e-3 ;; *) h=1e-3 ;; esac
             echo "$(basename "$f") x $h --model-file $f"
         done; }
rows | while read -r label name h args; do
    nq=$("$SIM" $args --h "$h" --t "$h" --csv /dev/stdout 2>/dev/null | head -n 1 | tr ',' '\n' | { grep -c '^q' || true; })
    nc=$("$SIM" $args --h "$h" --t "$h" --csv /dev/stdout 2>/dev/null | head -n 1 | tr ',' '\n' | { grep -c '^g' || true; })
    t0=$(awk -v h="$h" 'BEGIN { printf "%.10g", 100 * h }'); t1=$(awk -v h="$h" 'BEGIN { printf "%.10g", 1100 * h }')
    tag=; [ "$label" = car_axle ] && tag=' (hand-written)'
    line="| $label$tag | $nq | $nc"
    for c in default j2; do
        case $c in default) flags= ;; *) flags="--method j2 --form index2 --stab projection" ;; esac
        a=$(ir $args $flags --h "$h" --t "$t0"); b=$(ir $args $flags --h "$h" --t "$t1")
        line="$line | $(( (b - a) / 1000 )) | $(board m7 "$label" $c) | $(board m4f "$label" $c)"
    done
    echo "$line |"
done
echo
# The spread over the steps of each board run: a fixed amount of work per step shows as max ~ min.
awk '$7 > 0 { r = $8 / $7; if (r > w) { w = r; what = $2 " " $3 " on the " toupper($1) } }
     END { if (w > 0) printf "Largest max/min of one step over the 1000 steps of any board run: %.4f (%s).\n", w, what }' "$COSTS"
} > "$T/table.md"

echo "== multibody descriptions: instructions per step, host (callgrind) and boards (QEMU), h = 1 ms"
echo "   default = the library default ($dm); j2 = j2, index2, projection"
cat "$T/table.md"
grep -E '^(qemu-mech: |qemu-mech stage)' "$T/boards.txt" | sed 's/^/   board runs: /'
if [ "$board_ok" = 0 ]; then grep '^FAIL' "$T/boards.txt" | sed 's/^/   /'; fi
if [ -n "$README" ]; then
    grep -q '^<!-- mb-bench-table:begin -->$' "$README" && grep -q '^<!-- mb-bench-table:end -->$' "$README" \
        || { echo "mb_bench.sh: $README has no mb-bench-table markers" >&2; exit 2; }
    awk -v tf="$T/table.md" -v dm="$dm" '
        /^<!-- mb-bench-table:begin -->$/ { print; print "Default = " dm " (the library default when measured); j2 = j2, index2, projection."; print "";
                                           while ((getline l < tf) > 0) print l; skip = 1; next }
        /^<!-- mb-bench-table:end -->$/ { skip = 0 }
        !skip { print }' "$README" > "$T/readme" && cp "$T/readme" "$README"
    echo "   table written into $README"
fi
[ "$board_ok" = 1 ]
