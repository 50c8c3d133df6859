#!/bin/sh
# test/bench/stages.sh [SRC]: instructions per step of the default method by stage and by kind
# of work, for the hand-written car axle and the chain of 8 and 32 rods (h = 1 ms, mean of 1000
# steps from the initial state, x86-64 -O2, callgrind counting only the steps). The sources of
# rt/ and model/ under SRC (default: this tree) are built with -DHS_STAGE_PROFILE, which keeps
# every stage a function of its own (rt/hs_stage.h HS_STAGE_FN); the final-state hash printed
# with each column is the normal build's. Rows:
#   stages: sd_stage1 (predictor, M f fq fu K_g G gamma, factor, solve), sd_stage2 (M f G gamma,
#   solve), sd_combine, project_positions (g, solve), project_velocities (M G g_t, factor,
#   solve), check, and "step: entry, plan, commit" (the rest of hs_stepper_step);
#   work: factorizations (hs_linsys_factor), solves (hs_linsys_solve, _solve_c, _solve_c_sub, and
#   _schur_newton, the range-space Newton step: residual, solve and update in one pass), model
#   evaluations (the model's functions and the math they call), block products (hs_blk_*,
#   hs_matvec*, hs_linsys_g_mv, hs_linsys_schur_residual), the stepper's own loops (everything else).
set -e
SRC=${1:-.}
HERE=$(cd "$(dirname "$0")" && pwd)
command -v valgrind >/dev/null 2>&1 || { echo "valgrind missing"; exit 1; }
O=$(mktemp -d "${TMPDIR:-/tmp}/hs-stages.XXXXXX")
trap 'rm -rf "$O"' EXIT
CC=${CC:-cc}
# model/'s rooms (model/ROOMS) as include directories
MINC=$(awk -v s="$SRC" '!/^#/ && NF {printf "-I%s/model/%s ", s, $1}' "$SRC/model/ROOMS")
for f in "$SRC"/rt/*.c "$SRC"/model/*/*.c; do
    d=$(basename "$(dirname "$f")")
    $CC -std=c99 -O2 -g -ffp-contract=off -fno-math-errno -ffreestanding -DHS_STAGE_PROFILE \
        -I"$SRC/rt" $MINC -c "$f" -o "$O/${d}_$(basename "$f" .c).o"
done
$CC -std=c99 -O2 -g -ffp-contract=off -fno-math-errno -D_POSIX_C_SOURCE=200809L -I"$SRC/rt" $MINC \
    "$HERE/stage_prof.c" "$O"/*.o -o "$O/prof" -lm
K=1000
run() { # label model n -> $O/<label>.txt: "key value" lines
    h=$("$O/prof" "$2" "$3" $K | sed "s/^hash //")
    valgrind --tool=callgrind --toggle-collect=hs_stage_steps --callgrind-out-file="$O/cg.$1" \
        "$O/prof" "$2" "$3" $K >/dev/null 2>&1
    callgrind_annotate --auto=no --inclusive=yes --threshold=100 "$O/cg.$1" > "$O/inc.$1" 2>/dev/null
    callgrind_annotate --auto=no --threshold=100 "$O/cg.$1" > "$O/self.$1" 2>/dev/null
    awk -v K=$K -v hash="$h" '
        FNR == 1 { f++ }
        /^ *[0-9,]+ / {
            v = $1; gsub(",", "", v); v += 0
            name = $0; sub(/^ *[0-9,]+ *(\([^)]*\))? */, "", name); sub(/ \[.*$/, "", name)
            file = name; sub(/:[^:]*$/, "", file); fn = name; sub(/^.*:/, "", fn); sub(/\..*$/, "", fn)
            if (f == 1) { inc[fn] = v > inc[fn] ? v : inc[fn]; if (fn == "hs_stage_steps") total = v }
            else { self[fn] += v; if (file ~ /\/model\/|hs_math\.c$/) model[fn] = 1 }
        }
        END {
            s["sd_stage1"] = inc["st_sd_stage1"]; s["sd_stage2"] = inc["st_sd_stage2"]
            s["sd_combine"] = inc["st_sd_combine"]; s["project_positions"] = inc["hs_st_project_positions"]
            s["project_velocities"] = inc["hs_st_project_velocities"]; s["check"] = inc["hs_st_check"]
            s["aux_states"] = inc["hs_st_aux_states"]
            st = 0; for (k in s) st += s[k]
            for (k in s) printf "stage %s %d\n", k, s[k] / K
            printf "stage step:_entry,_plan,_commit %d\n", (total - st) / K
            fa = inc["hs_linsys_factor"]; so = inc["hs_linsys_solve"] + inc["hs_linsys_solve_c"] + inc["hs_linsys_solve_c_sub"] + inc["hs_linsys_schur_newton"]
            me = 0; for (k in model) me += self[k]
            bp = 0; for (k in self) if (k ~ /^hs_blk_|^hs_matvec|^hs_linsys_g_mv$|^hs_linsys_schur_residual$/) bp += self[k]
            printf "work factorizations %d\nwork solves %d\nwork model_evaluations %d\nwork block_products %d\n", fa / K, so / K, me / K, bp / K
            printf "work stepper_own_loops %d\n", (total - fa - so - me - bp) / K
            printf "total total %d\nhash hash %s\n", total / K, hash
        }' "$O/inc.$1" "$O/self.$1" > "$O/$1.txt"
}
run car car_axle 0
run c8 chain 8
run c32 chain 32
echo "| default method (sdirk), h = 1 ms, instructions per step | car_axle | chain n = 8 | chain n = 32 |"
echo "|---|---|---|---|"
for row in "stage sd_stage1" "stage sd_stage2" "stage sd_combine" "stage project_positions" \
           "stage project_velocities" "stage check" "stage step:_entry,_plan,_commit" \
           "work factorizations" "work solves" "work model_evaluations" "work block_products" \
           "work stepper_own_loops" "total total" "hash hash"; do
    set -- $row
    label=$2; [ "$1" = work ] && label="of which: $2"; label=$(echo "$label" | tr _ ' ')
    printf '| %s | %s | %s | %s |\n' "$label" "$(awk -v a="$1" -v b="$2" '$1 == a && $2 == b { print $3 }' "$O/car.txt")" \
        "$(awk -v a="$1" -v b="$2" '$1 == a && $2 == b { print $3 }' "$O/c8.txt")" \
        "$(awk -v a="$1" -v b="$2" '$1 == a && $2 == b { print $3 }' "$O/c32.txt")"
done
