#!/bin/sh
# qemu-mech-test: every shipped multibody description, through its generated tables
# (model/mb_NAME.c), on the Cortex-M7 (double) and the Cortex-M4F (float) under QEMU, in the
# library's default configuration and in J2 + index-2 + projection (what the descriptions'
# host tests and the host bench use), plus the configurations of the Wendlandt and Marsden
# figures (rigid_body: symplectic + projection, double_spherical: symplectic without
# stabilization) and dvp where its tests run it; the hand-written car axle for reference.
# For each run: exit 0, every step committed, the trajectory hash equal to the host
# simulator's for the same description, configuration, h and steps (hilstep-sim --model-file
# ... --hash; the float host build for the M4F), the arena exactly what hs_stepper_workspace
# asks and its guard band untouched; plus one run that must refuse a too-small arena.
# Instructions per step (min, max, mean over the steps; SysTick counts x 40 under -icount
# shift=0, hs_stepper_step only) go to CM_DIR/qemu-mech/costs.txt for make bench.
# The vehicles on TMeasy tires (car, truck_trailer, truck_trailer_pen; model/hs_veh.h) run on
# the M7 in the default configuration at h = 1 ms inside a 1 ms frame, ISO 3888-1 lane change
# driver: hash = host's, and at most VEH_BUDGET instructions per step (a 1 ms frame of a
# 216 MHz Cortex-M7 with margin), max over the steps.
# Usage: mech_tests.sh CM_DIR HOST_SIM HOST_FLOAT_SIM [BOARDS]   (BOARDS default "m7 m4f")
# Ends with "qemu-mech: N passed, N failed"; exit status 1 when anything failed.
set -u
CM=${1:?cortex-m build dir}
SIM=${2:?host simulator}
SIMF=${3:?host float simulator}
BOARDS=${4:-m7 m4f}
HERE=$(dirname "$0")
ROOT=$HERE/../..
OUT=$CM/qemu-mech
rm -rf "$OUT"; mkdir -p "$OUT"
T0=$(date +%s)
QTIMEOUT=${QEMU_TIMEOUT:-120}
STEPS=1000
CONFIGS="default j2"
# Configurations beyond CONFIGS that a description's own host test uses (METHOD/STAB, index-2).
# dvp (the discrete variational method, seed 002) runs without stabilization, as in
# test/mb/test_mb_dvp.c (not on chain.hsm here: 1.2 M instructions per step, and the method's
# code is the same for every model).
extra() { case $1 in
    rigid_body.hsm) echo symplectic/projection dvp/none ;;
    double_spherical.hsm) echo symplectic/none dvp/none ;;
    pendulum.hsm) echo dvp/none ;;
esac; }

pass=0; fail=0
ok()  { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

# Mechanisms: "label name h_us host-model-args", one per line. The generated ones come from the
# descriptions themselves (their `model NAME` line), so a new .hsm is picked up here too.
MECHS=$OUT/mechs
echo "car_axle car_axle 1000 --model car_axle" > "$MECHS"
for f in "$ROOT"/model/mech/*.hsm; do
    name=$(sed -n 's/^[[:space:]]*model[[:space:]]\{1,\}\([A-Za-z0-9_]\{1,\}\).*/\1/p' "$f" | head -n 1)
    h=1000
    # The equal-length slider crank is singular at t = 0.25 + 0.5 k: h = 1 ms lands on it
    # (its host test, test/mb/test_mb_mech.c, steps over with h = 1.1 ms).
    case $f in *slider_crank_singular.hsm) h=1100 ;; esac
    echo "$(basename "$f") $name $h --model-file $f" >> "$MECHS"
done

JOBS=$OUT/jobs
: > "$JOBS"
for b in $BOARDS; do
    while read -r label name h rest; do
        for c in $CONFIGS $(extra "$label"); do echo "$b-$name-$(echo "$c" | tr / -) $b $name $c $h $STEPS" >> "$JOBS"; done
    done < "$MECHS"
    # The refusal path: chain's arena (over 8000 reals in any configuration) offered 100.
    echo "$b-refuse $b chain default 1000 $STEPS 10 100" >> "$JOBS"
done
VEHICLES="car truck_trailer truck_trailer_pen"
VEH_BUDGET=200000
# The descriptions of vehicles on tires (model/mech/vehicles, generated with their auxiliary
# states): on the M7, default method, h = 1 ms, zero inputs, in a 10 ms frame (car.hsm's step
# is past the 1 ms frame: its cost is reported, not held to VEH_BUDGET; hil/VEHICLE.md).
VEHDESC=$OUT/vehdesc
: > "$VEHDESC"
for f in "$ROOT"/model/mech/vehicles/*.hsm; do
    [ -f "$f" ] || continue
    echo "$(basename "$f") $(sed -n 's/^[[:space:]]*model[[:space:]]\{1,\}\([A-Za-z0-9_]\{1,\}\).*/\1/p' "$f" | head -n 1) $f" >> "$VEHDESC"
done
case " $BOARDS " in *" m7 "*)
    for v in $VEHICLES; do echo "m7-veh-$v m7 $v default 1000 $STEPS 1" >> "$JOBS"; done
    while read -r label name f; do echo "m7-vdesc-$name m7 $name default 1000 $STEPS 10" >> "$JOBS"; done < "$VEHDESC" ;;
esac
cat > "$OUT/one.sh" <<EOS
#!/bin/sh
n=\$1; b=\$2; shift 2
case \$b in m7) m=mps2-an500 ;; m4f) m=mps2-an386 ;; esac
timeout $QTIMEOUT qemu-system-arm -M \$m -display none -monitor none -serial stdio \\
  -semihosting-config enable=on,target=native -icount shift=0,sleep=off \\
  -kernel "$CM/\$b/hilstep-mech.elf" -append "\$*" > "$OUT/\$n.log" 2>&1
echo \$? > "$OUT/\$n.rc"
EOS
xargs -P 2 -L 1 sh "$OUT/one.sh" < "$JOBS"

rc_of()  { cat "$OUT/$1.rc" 2>/dev/null || echo none; }
log_of() { cat "$OUT/$1.log" 2>/dev/null; }
# cost_row LABEL RUN COSTLINE: one m7 row of $COSTS (label, method, nq, nc, min, max, mean)
cost_row() {
    head=$(log_of "$2" | grep '^mech ')
    nq=$(echo "$head" | sed -n 's/.* nq=\([0-9]*\).*/\1/p'); nc=$(echo "$head" | sed -n 's/.* nc=\([0-9]*\).*/\1/p')
    echo "$3" | awk -v l="$1" -v nq="${nq:-?}" -v nc="${nc:-?}" '
        { for (i = 1; i <= NF; ++i) { split($i, kv, "="); v[kv[1]] = kv[2] }
          printf "m7 %s default %s %s %s %s %s %s\n", l, $3, nq, nc, v["min"], v["max"], v["mean"] }' >> "$COSTS"
}

COSTS=$OUT/costs.txt
: > "$COSTS"
for b in $BOARDS; do
    if [ ! -f "$CM/$b/hilstep-mech.elf" ]; then bad "image $b/hilstep-mech.elf was not built"; continue; fi
    case $b in m7) sim=$SIM ;; *) sim=$SIMF ;; esac
    while read -r label name h rest; do
        t=$(awk -v h="$h" -v n="$STEPS" 'BEGIN { printf "%.10g", h * n / 1e6 }')
        hh=$(awk -v h="$h" 'BEGIN { printf "%.10g", h / 1e6 }')
        for c in $CONFIGS $(extra "$label"); do
            n=$b-$name-$(echo "$c" | tr / -); rc=$(rc_of "$n")
            case $c in
                default) flags= ;;
                */*) flags="--method ${c%/*} --form index2 --stab ${c#*/}" ;;
                *) flags="--method $c --form index2 --stab projection" ;;
            esac
            # shellcheck disable=SC2086
            host=$($sim $rest $flags --h "$hh" --t "$t" --hash 2>/dev/null | grep '^trajectory-hash ')
            fw=$(log_of "$n" | grep '^trajectory-hash ')
            cost=$(log_of "$n" | grep '^mech-cost ')
            arena=$(log_of "$n" | grep '^arena reals=')
            head=$(log_of "$n" | grep '^mech ')
            if [ "$rc" = 0 ] && [ -n "$fw" ] && [ "$fw" = "$host" ] && echo "$cost" | grep -q " steps=$STEPS " \
               && log_of "$n" | grep -qx 'arena-guard ok'; then
                ok "$b $label $c: $STEPS steps of h = $hh s, hash = host: ${fw#trajectory-hash }; ${cost#mech-cost }; $arena, guard intact"
            else
                bad "$b $label $c: exit $rc; board '$fw' host '$host'; '$cost' '$arena'"
                log_of "$n" | grep -vE '^(mech|arena|trajectory-hash|mech-cost) ' | head -n 5
            fi
            nq=$(echo "$head" | sed -n 's/.* nq=\([0-9]*\).*/\1/p'); nc=$(echo "$head" | sed -n 's/.* nc=\([0-9]*\).*/\1/p')
            echo "$cost" | awk -v b="$b" -v l="$label" -v c="$c" -v nq="${nq:-?}" -v nc="${nc:-?}" '
                { for (i = 1; i <= NF; ++i) { split($i, kv, "="); v[kv[1]] = kv[2] }
                  printf "%s %s %s %s %s %s %s %s %s\n", b, l, c, $3, nq, nc, v["min"], v["max"], v["mean"] }' >> "$COSTS"
        done
    done < "$MECHS"
    n=$b-refuse; rc=$(rc_of "$n")
    if [ "$rc" = 2 ] && log_of "$n" | grep -q '^arena reals=[0-9]* of 100 ' \
       && log_of "$n" | grep -q '^arena too small for this model and configuration: refused$' \
       && ! log_of "$n" | grep -q '^trajectory-hash '; then
        ok "$b arena check: chain offered 100 reals refuses to start (exit 2): $(log_of "$n" | grep '^arena reals=')"
    else bad "$b arena check: exit $rc, expected 2 and a refusal"; log_of "$n" | tail -n 3; fi
done

case " $BOARDS " in *" m7 "*)
    for v in $VEHICLES; do
        n=m7-veh-$v; rc=$(rc_of "$n")
        host=$($SIM --model "$v" --h 0.001 --t 1 --hash 2>/dev/null | grep '^trajectory-hash ')
        fw=$(log_of "$n" | grep '^trajectory-hash ')
        cost=$(log_of "$n" | grep '^mech-cost ')
        max=$(echo "$cost" | sed -n 's/.* max=\([0-9]*\) .*/\1/p')
        stack=$(log_of "$n" | grep '^stack used=')
        if [ "$rc" = 0 ] && [ -n "$fw" ] && [ "$fw" = "$host" ] && echo "$cost" | grep -q " steps=$STEPS " \
           && [ -n "$max" ] && [ "$max" -le $VEH_BUDGET ] && log_of "$n" | grep -qx 'arena-guard ok'; then
            ok "m7 $v default, h = 1 ms in a 1 ms frame: hash = host: ${fw#trajectory-hash }; ${cost#mech-cost }, max <= $VEH_BUDGET; $stack"
        else
            bad "m7 $v default: exit $rc; board '$fw' host '$host'; '$cost' (budget $VEH_BUDGET)"
            log_of "$n" | grep -vE '^(mech|arena|trajectory-hash|mech-cost) ' | head -n 5
        fi
        cost_row "$v" "$n" "$cost"
    done
    while read -r label name f; do
        n=m7-vdesc-$name; rc=$(rc_of "$n")
        host=$($SIM --model-file "$f" --h 0.001 --t 1 --hash 2>/dev/null | grep '^trajectory-hash ')
        fw=$(log_of "$n" | grep '^trajectory-hash ')
        cost=$(log_of "$n" | grep '^mech-cost ')
        stack=$(log_of "$n" | grep '^stack used=')
        if [ "$rc" = 0 ] && [ -n "$fw" ] && [ "$fw" = "$host" ] && echo "$cost" | grep -q " steps=$STEPS " \
           && log_of "$n" | grep -qx 'arena-guard ok'; then
            ok "m7 $label default, h = 1 ms, generated tables with auxiliary states: hash = host: ${fw#trajectory-hash }; ${cost#mech-cost }; $stack"
        else
            bad "m7 $label default: exit $rc; board '$fw' host '$host'; '$cost'"
            log_of "$n" | grep -vE '^(mech|arena|trajectory-hash|mech-cost) ' | head -n 5
        fi
        cost_row "$label" "$n" "$cost"
    done < "$VEHDESC" ;;
esac

echo "--- instructions per step on the boards (QEMU -icount shift=0; hs_stepper_step; $STEPS steps)"
awk '{ r = ($7 > 0) ? $8 / $7 : 0;
       printf "%-4s %-28s %-8s %-10s nq=%-3s nc=%-3s min=%7d max=%7d mean=%7d max/min=%.3f\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, r }' "$COSTS"
echo "qemu-mech stage wall time: $(( $(date +%s) - T0 )) s"
echo "qemu-mech: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
