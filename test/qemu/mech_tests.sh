#!/bin/sh
# qemu-mech-test: every shipped multibody description, through its generated tables
# (model/gen/mb_NAME.c), on the Cortex-M7 (double) and the Cortex-M4F (float) under QEMU, in the
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
# The vehicles on TMeasy tires (car, truck_trailer, truck_trailer_pen; model/vehicle/hs_veh.h) run on
# the M7 in the default configuration at h = 1 ms inside a 1 ms frame, ISO 3888-1 lane change
# driver: hash = host's, and at most VEH_BUDGET instructions per step (a 1 ms frame of a
# 216 MHz Cortex-M7 with margin), max over the steps.
# The descriptions' hand-written twins (car axle, pendulum, chain of 8 rods of 0.5 m: the
# mechanism chain.hsm describes) run on both boards in the default configuration, h = 1 ms,
# beside their descriptions: each run's hash = host's, and on the host the two twins are one
# mechanism (same nq and nc, final q and u within TWIN_TOL). Rows "BOARD LABEL default ..." of
# costs.txt (pendulum, chain_n8; car_axle is the hand-written reference row) are their costs;
# test/qemu/mech_twins.sh turns them into make bench's board twin table.
# Usage: mech_tests.sh CM_DIR HOST_SIM HOST_FLOAT_SIM [BOARDS [twins]]   (BOARDS default "m7 m4f")
#   twins: only the twin pairs, into CM_DIR/qemu-mech-twins (make bench; a few seconds)
# Ends with "qemu-mech: N passed, N failed"; exit status 1 when anything failed.
set -u
CM=${1:?cortex-m build dir}
SIM=${2:?host simulator}
SIMF=${3:?host float simulator}
BOARDS=${4:-m7 m4f}
ONLY=${5:-}
HERE=$(dirname "$0")
ROOT=$HERE/../..
OUT=$CM/qemu-mech
[ "$ONLY" = twins ] && OUT=$CM/qemu-mech-twins
rm -rf "$OUT"; mkdir -p "$OUT"
T0=$(date +%s)
QTIMEOUT=${QEMU_TIMEOUT:-120}
STEPS=1000
CONFIGS="default j2"
# Configurations beyond CONFIGS that a description's own host test uses (METHOD/STAB, index-2).
# dvp (the discrete variational method, [WM]) runs without stabilization, as in
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

# Twin pairs: "pair hand-label board-name description-label host-args-of-the-hand-written".
# chain.hsm is 8 rods of 0.5 m; the hand-written chain's default rod is 1 m, so len=0.5.
TWINS=$OUT/twins
cat > "$TWINS" <<EOT
car_axle car_axle car_axle car_axle.hsm --model car_axle
pendulum pendulum hand:pendulum pendulum.hsm --model pendulum
chain_n8 chain_n8 hand:chain,n=8,len=0.5 chain.hsm --model chain --param n=8 --param len=0.5
EOT
TWIN_TOL=1e-8
if [ "$ONLY" = twins ]; then
    CONFIGS=default
    extra() { :; }
    awk 'NR == FNR { want[$2]; want[$4]; next } $1 in want' "$TWINS" "$MECHS" > "$MECHS.t" && mv "$MECHS.t" "$MECHS"
fi

JOBS=$OUT/jobs
: > "$JOBS"
for b in $BOARDS; do
    # the hand-written twins not already in MECHS
    while read -r pair hl spec dl rest; do
        grep -q "^$hl " "$MECHS" || echo "$b-twin-$hl $b $spec default 1000 $STEPS 10" >> "$JOBS"
    done < "$TWINS"
    while read -r label name h rest; do
        for c in $CONFIGS $(extra "$label"); do echo "$b-$name-$(echo "$c" | tr / -) $b $name $c $h $STEPS" >> "$JOBS"; done
    done < "$MECHS"
    # The refusal path: chain's arena (over 8000 reals in any configuration) offered 100.
    [ "$ONLY" = twins ] || echo "$b-refuse $b chain default 1000 $STEPS 10 100" >> "$JOBS"
done
VEHICLES="car truck_trailer truck_trailer_pen"
VEH_BUDGET=200000
# The descriptions of vehicles on tires (model/mech/vehicles, generated with their auxiliary
# states): on the M7, default method, h = 1 ms, zero inputs, in a 10 ms frame; every step within
# the 1 ms frame of the board, VDESC_FRAME instructions, not VEH_BUDGET (car.hsm: 715,880 at
# most, 2,646,360 while sdirk's refinement read its rounding at rest as a jump; hil/VEHICLE.md).
VEHDESC=$OUT/vehdesc
VDESC_FRAME=1000000
: > "$VEHDESC"
[ "$ONLY" = twins ] && VEHICLES=
for f in "$ROOT"/model/mech/vehicles/*.hsm; do
    [ -f "$f" ] && [ "$ONLY" != twins ] || continue
    echo "$(basename "$f") $(sed -n 's/^[[:space:]]*model[[:space:]]\{1,\}\([A-Za-z0-9_]\{1,\}\).*/\1/p' "$f" | head -n 1) $f" >> "$VEHDESC"
done
case " $BOARDS " in *" m7 "*)
    for v in $VEHICLES; do echo "m7-veh-$v m7 $v default 1000 $STEPS 1" >> "$JOBS"; done
    while read -r label name f; do echo "m7-vdesc-$name m7 $name default 1000 $STEPS 10" >> "$JOBS"; done < "$VEHDESC" ;;
esac
cat > "$OUT/one.sh" <<EOS
#!/bin/sh
n=\$1; b=\$2; shift 2
# The board's QEMU machine, written beside its images by its board.mk (cortex-m.mk).
m=\$(cat "$CM/\$b/qemu-machine" 2>/dev/null)
timeout $QTIMEOUT qemu-system-arm -M \$m -display none -monitor none -serial stdio \\
  -semihosting-config enable=on,target=native -icount shift=0,sleep=off \\
  -kernel "$CM/\$b/hilstep-mech.elf" -append "\$*" > "$OUT/\$n.log" 2>&1
echo \$? > "$OUT/\$n.rc"
EOS
xargs -P 2 -L 1 sh "$OUT/one.sh" < "$JOBS"

rc_of()  { cat "$OUT/$1.rc" 2>/dev/null || echo none; }
log_of() { cat "$OUT/$1.log" 2>/dev/null; }
# cost_row LABEL RUN COSTLINE [BOARD]: one row of $COSTS (board, label, default, method, nq,
# nc, min, max, mean); BOARD defaults to m7
cost_row() {
    head=$(log_of "$2" | grep '^mech ')
    nq=$(echo "$head" | sed -n 's/.* nq=\([0-9]*\).*/\1/p'); nc=$(echo "$head" | sed -n 's/.* nc=\([0-9]*\).*/\1/p')
    echo "$3" | awk -v b="${4:-m7}" -v l="$1" -v nq="${nq:-?}" -v nc="${nc:-?}" '
        { for (i = 1; i <= NF; ++i) { split($i, kv, "="); v[kv[1]] = kv[2] }
          printf "%s %s default %s %s %s %s %s %s\n", b, l, $3, nq, nc, v["min"], v["max"], v["mean"] }' >> "$COSTS"
}
# run_ok RUN HOSTHASH: the run exited 0, committed every step, hash = host's, guard intact
run_ok() {
    fw=$(log_of "$1" | grep '^trajectory-hash ')
    [ "$(rc_of "$1")" = 0 ] && [ -n "$fw" ] && [ "$fw" = "$2" ] \
        && log_of "$1" | grep '^mech-cost ' | grep -q " steps=$STEPS " && log_of "$1" | grep -qx 'arena-guard ok'
}
# final_state ARGS...: q and u after 1 s of h = 1 ms on the host, one "q1 value" per line
final_state() { "$SIM" "$@" --h 0.001 --t 1 --hash 2>/dev/null | sed -n 's/^steps=.* status=ok //p' | tr ' ' '\n' | sed -n 's/^\([qu][0-9]*\)=/\1 /p'; }

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
    # The twins: the hand-written run (its hash = host's hand-written run's) and the
    # description's run (checked above; once more here, so this line needs both).
    while read -r pair hl spec dl hargs; do
        case $hl in car_axle) hn=$b-car_axle-default ;; *) hn=$b-twin-$hl ;; esac
        dname=$(awk -v l="$dl" '$1 == l { print $2 }' "$MECHS"); dn=$b-$dname-default
        dfile=$(awk -v l="$dl" '$1 == l { print $5 }' "$MECHS")
        # shellcheck disable=SC2086
        hh=$($sim $hargs --h 0.001 --t 1 --hash 2>/dev/null | grep '^trajectory-hash ')
        dh=$($sim --model-file "$dfile" --h 0.001 --t 1 --hash 2>/dev/null | grep '^trajectory-hash ')
        hc=$(log_of "$hn" | grep '^mech-cost ')
        if [ -n "$hh" ] && [ -n "$dh" ] && run_ok "$hn" "$hh" && run_ok "$dn" "$dh"; then
            ok "$b twins $pair default, h = 1 ms: hand-written ($spec) and $dl's generated tables both complete $STEPS steps with hash = host: ${hh##* } and ${dh##* }"
        else
            bad "$b twins $pair: hand-written ($spec) exit $(rc_of "$hn") '$(log_of "$hn" | grep '^trajectory-hash ')' host '$hh'; $dl exit $(rc_of "$dn") '$(log_of "$dn" | grep '^trajectory-hash ')' host '$dh'"
            log_of "$hn" | grep -vE '^(mech|arena|trajectory-hash|mech-cost) ' | head -n 3
        fi
        [ "$hl" = car_axle ] || cost_row "$hl" "$hn" "$hc" "$b"
    done < "$TWINS"
    [ "$ONLY" = twins ] && continue
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
        max=$(echo "$cost" | sed -n 's/.* max=\([0-9]*\) .*/\1/p')
        stack=$(log_of "$n" | grep '^stack used=')
        if [ "$rc" = 0 ] && [ -n "$fw" ] && [ "$fw" = "$host" ] && echo "$cost" | grep -q " steps=$STEPS " \
           && [ -n "$max" ] && [ "$max" -le $VDESC_FRAME ] && log_of "$n" | grep -qx 'arena-guard ok'; then
            ok "m7 $label default, h = 1 ms, generated tables with auxiliary states: hash = host: ${fw#trajectory-hash }; ${cost#mech-cost }, max <= $VDESC_FRAME; $stack"
        else
            bad "m7 $label default: exit $rc; board '$fw' host '$host'; '$cost' (frame $VDESC_FRAME)"
            log_of "$n" | grep -vE '^(mech|arena|trajectory-hash|mech-cost) ' | head -n 5
        fi
        cost_row "$label" "$n" "$cost"
    done < "$VEHDESC" ;;
esac

# On the host, once: each pair is one mechanism (the hand-written chain's default rods are 1 m
# long, chain.hsm's 0.5 m: a pairing without len=0.5 fails here).
while read -r pair hl spec dl hargs; do
    dfile=$(awk -v l="$dl" '$1 == l { print $5 }' "$MECHS")
    # shellcheck disable=SC2086
    final_state $hargs > "$OUT/twin-$pair.hand"
    final_state --model-file "$dfile" > "$OUT/twin-$pair.desc"
    verdict=$(awk -v tol=$TWIN_TOL 'NR == FNR { h[$1] = $2; nh++; next }
        { nd++; if (!($1 in h)) miss++; else { d = h[$1] - $2; if (d < 0) d = -d; if (d > w) w = d } }
        END { if (nh == 0 || nh != nd || miss) print "differ: " nh " and " nd " coordinates"
              else printf "%s %d coordinates, max |difference| %.3g\n", (w <= tol) ? "same" : "differ:", nh, w }' \
        "$OUT/twin-$pair.hand" "$OUT/twin-$pair.desc")
    case $verdict in
        same*) ok "twins $pair on the host: hand-written ($hargs) and $dl are one mechanism: q, u after 1 s of h = 1 ms: ${verdict#same }, <= $TWIN_TOL" ;;
        *) bad "twins $pair on the host: hand-written ($hargs) and $dl: $verdict (bound $TWIN_TOL)" ;;
    esac
done < "$TWINS"

echo "--- instructions per step on the boards (QEMU -icount shift=0; hs_stepper_step; $STEPS steps)"
awk '{ r = ($7 > 0) ? $8 / $7 : 0;
       printf "%-4s %-28s %-8s %-10s nq=%-3s nc=%-3s min=%7d max=%7d mean=%7d max/min=%.3f\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, r }' "$COSTS"
echo "qemu-mech stage wall time: $(( $(date +%s) - T0 )) s"
echo "qemu-mech: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
