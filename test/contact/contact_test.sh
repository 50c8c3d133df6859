#!/bin/sh
# contact_test.sh - contacts, end stops and dry friction against analytic answers (model/CONTACT.md):
#   incline: sticks for mu > tan(20 deg), slides with a = g (sin 20 - mu cos 20) within 1 %
#            (box and pyramid friction, several methods), u = a t within 1e-9 (pyramid; box
#            within its one-step lag);
#   slide:   a cube sliding to a stop from v0 stops at v0^2 / (2 mu g) (plus the method's last
#            step; box within its one-step lag);
#   sphere:  at rest after 1 s, |v| <= 1e-6 m/s, penetration = the contact compliance within 1 %;
#   stack:   five boxes stand 60 s: top-box horizontal drift <= 0.1 mm (h = 1 ms) and <= 1 mm
#            (h = 1/60 s), its settle = the compliance of the five contacts within 1 %;
#   towers:  20 and 50 boxes (model/mech/large/): top settle = the compliance REG h^2/ERP g N^2
#            within 1 %; largest top drift <= 0.1 mm (tower20 over 5 s, tower50 over 2 s); per box and step
#            within 1.1 x the stack's instructions, worst / best step <= 1.05 (200 steps, 1 ms);
#   ball:    apex heights in ratio e^2 within 2 %;
#   stop:    a pendulum held at its end stop: the stop carries m g L/2 cos 45 within 0.1 %, the
#            penetration is the compliance within 1 %;
#   cylinders: rolling a = (2/3) g sin 20, slipping a = g (sin 20 - mu cos 20) and 2 mu g cos 20 / r,
#            at rest on the face, the side, a box, a cube on a drum (settles = the compliance within
#            1 %), over a table edge (leaves it at cos th = (4 + 3 v0^2 / (g r)) / 7); sphere on a
#            capsule; their energy; a mis-declared cylinder and unsupported pairs refused;
#   refusals with FILE:LINE; fixed cost: per-step instruction counts (callgrind) max/min <= 1.05.
# The compliance figures follow from rt/hs_contact.h: d = REG W F h^2 / ERP per normal row
# (W = J M^-1 J^T of the row, F its force), read from the header, not copied.
# Usage: contact_test.sh SIM [--quick]   (--quick: the 60 s stack at h = 1 ms becomes 6 s)
SIM=${1:?usage: contact_test.sh SIM [--quick]}
QUICK=${2:-}
HERE=$(dirname "$0")
ROOT=$HERE/../..
M=$ROOT/model/mech
SC=$HERE/scenes
pass=0; fail=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
ko() { fail=$((fail + 1)); echo "FAIL $*"; }
T=$(mktemp -d "${TMPDIR:-/tmp}/hs-contact.XXXXXX")
trap 'rm -rf "$T"' EXIT
hdr() { sed -n "s/^#define $1 HS_R(\([^)]*\)).*/\1/p" "$ROOT/rt/hs_contact.h"; }
REG=$(hdr HS_CT_REG); ERP=$(hdr HS_CT_ERP); HREF=$(hdr HS_CT_HREF); HOLDMAX=$(hdr HS_CT_HOLDMAX)
[ -n "$REG" ] && [ -n "$ERP" ] && [ -n "$HREF" ] && [ -n "$HOLDMAX" ] \
    && ok "compliance constants from rt/hs_contact.h: REG=$REG ERP=$ERP HREF=$HREF HOLDMAX=$HOLDMAX" \
    || ko "cannot read HS_CT_REG/HS_CT_ERP/HS_CT_HREF/HS_CT_HOLDMAX"
# the part of the h^2 compliance a resting row keeps at step h (rt/hs_contact.h hs_contact_hold):
# 1 - hold, hold = min(HOLDMAX, 1 - (HREF / h)^2) above HREF, 0 at and below it
keep() { awk -v h="$1" -v r="$HREF" -v m="$HOLDMAX" 'BEGIN { x = r / h; k = (x < 1) ? 1 - x * x : 0; if (k > m) k = m; printf "%.12g", 1 - k }'; }
field() { tr ' ' '\n' | sed -n "s/^$1=//p"; }
# check NAME VALUE EXPECT RELTOL
rel() {
    if awk -v v="$2" -v e="$3" -v t="$4" 'BEGIN { d = v - e; if (d < 0) d = -d; a = e < 0 ? -e : e; exit !(d <= t * a) }'; then
        ok "$1: $2 (expected $3, within $4 relative)"
    else ko "$1: $2 (expected $3, within $4 relative)"; fi
}
# below NAME VALUE LIMIT: |VALUE| <= LIMIT
below() {
    if awk -v v="$2" -v l="$3" 'BEGIN { if (v < 0) v = -v; exit !(v <= l) }'; then ok "$1: |$2| <= $3"
    else ko "$1: |$2| > $3"; fi
}

# ---- block on a 20 degree incline (x down the slope), 2 s at h = 1 ms ----
G=9.81
for fr in box pyramid; do
    sed "s/friction=box/friction=$fr/" "$M/incline.hsm" > "$T/incline_$fr.hsm"
    for mu in 0.5 0.37; do
        out=$("$SIM" --model-file "$T/incline_$fr.hsm" --param mu=$mu --h 0.001 --t 2)
        st=$(echo "$out" | field status)
        x=$(echo "$out" | field q1); u=$(echo "$out" | field u1)
        [ "$st" = ok ] && below "incline $fr mu=$mu > tan 20: sticks, x(2 s) (m)" "$x" 1e-6 || ko "incline $fr mu=$mu: status $st"
        below "incline $fr mu=$mu: speed at 2 s (m/s)" "$u" 1e-6
    done
    for m in sdirk symplectic galpha j2; do
        for mu in 0.2 0.35; do
            out=$("$SIM" --model-file "$T/incline_$fr.hsm" --param mu=$mu --method $m --h 0.001 --t 2)
            x=$(echo "$out" | field q1); u=$(echo "$out" | field u1)
            a=$(awk -v g=$G -v mu=$mu 'BEGIN { th = atan2(1, 1) * 20 / 45; printf "%.12g", g * (sin(th) - mu * cos(th)) }')
            rel "incline $fr $m mu=$mu slides: a from x(2 s) = a t^2/2" "$(awk -v x="$x" 'BEGIN { printf "%.8g", x / 2 }')" "$a" 0.01
            rel "incline $fr $m mu=$mu slides: a from u(2 s) = a t" "$(awk -v u="$u" 'BEGIN { printf "%.8g", u / 2 }')" "$a" 0.01
        done
    done
done

# pyramid friction (the bound mu times the normal just updated) within the step: the sliding
# block's velocity is the whole step's a t, a = gx - mu |gz| of the description's own gravity,
# within 1e-9 relative. box (the default: the bound from the previous step's normal impulse,
# fixed within the step, so the sweeps solve a box-bounded QP and never add energy; a bound that
# follows the sweep's normal made the cylinder's edge landing gain energy, model/CONTACT.md
# "Friction within the step") lags it by up to one step: u +6.0e-6 (mu = 0.2) and +1.24e-4
# (mu = 0.35) relative high, checked within 2.5e-4 (the lag's size, not rounding).
GX=$(sed -n 's/^gravity \([^,]*\),[^,]*,\(.*\)$/\1/p' "$M/incline.hsm")
GZ=$(sed -n 's/^gravity \([^,]*\),[^,]*,\(.*\)$/\2/p' "$M/incline.hsm")
for m in sdirk symplectic galpha j2; do
    for mu in 0.2 0.35; do
        for fr in box pyramid; do
            out=$("$SIM" --model-file "$T/incline_$fr.hsm" --param mu=$mu --method $m --h 0.001 --t 2 --glob-check off)
            u=$(echo "$out" | field u1)
            a=$(awk -v mu=$mu -v gx="$GX" -v gz="$GZ" 'BEGIN { printf "%.15g", gx + mu * gz }')
            tol=1e-9; [ $fr = box ] && tol=2.5e-4
            rel "incline $fr $m mu=$mu: u(2 s) = (gx - mu |gz|) t of the description's gravity (incline.hsm)" "$u" "$(awk -v a="$a" 'BEGIN { printf "%.15g", 2 * a }')" $tol
        done
    done
done

# ---- a cube sliding to a stop on the floor (test/contact/scenes/slide.hsm: v0 = 3 and 1 m/s,
# mu = 0.5, 1.5 s at 1 ms). It decelerates at a = mu g and stops after v0^2 / (2 a); with k =
# floor(v0 / (a h)) full steps and v_k = v0 - k a h left, the positions of each method add the
# step velocities: trapezoidal (sdirk, galpha: cq = h/2) v0^2 / (2 a) + h v_k / 2 - v_k^2 / (2 a)
# (the last step's trapezoid, at most h^2 a / 8 = 0.61 um), velocities first (symplectic)
# h (k v0 - a h k (k + 1) / 2), positions first (j2) that plus h v0. Pyramid: bar 5e-8 m
# (measured 9.4e-9 m at every method and v0: the cube's settle into its compliance, mu d =
# 2.5e-7 m later, and its pitch on its corners under the friction torque, given back when it
# stops, 2.5e-7 m earlier, cancel to that). Box, the default, stops up to a step's lag later
# (3.0e-5 m from 3 m/s at sdirk): bar 1e-4 m. Both at rest at 1.5 s. ----
sed "s/friction=box/friction=pyramid/" "$SC/slide.hsm" > "$T/slide_pyramid.hsm"
for v0 in 3 1; do
    for m in sdirk galpha symplectic j2; do
        for fr in box pyramid; do
            f="$SC/slide.hsm"; [ $fr = pyramid ] && f="$T/slide_pyramid.hsm"
            out=$("$SIM" --model-file "$f" --param v0=$v0 --method $m --h 0.001 --t 1.5 --glob-check off)
            x=$(echo "$out" | field q1); u=$(echo "$out" | field u1)
            xe=$(awk -v v0=$v0 -v m=$m 'BEGIN { a = 0.5 * 9.81; h = 0.001; k = int(v0 / (a * h)); vk = v0 - k * a * h
                    s = h * (k * v0 - a * h * k * (k + 1) / 2)
                    if (m == "sdirk" || m == "galpha") s = v0 * v0 / (2 * a) + h * vk / 2 - vk * vk / (2 * a)
                    if (m == "j2") s += h * v0
                    printf "%.12g", s }')
            bar=5e-8; [ $fr = box ] && bar=1e-4
            below "slide v0=$v0 $fr $m: stop at x = v0^2/(2 mu g) + the method's last step ($xe m): x - that (m)" \
                "$(awk -v x="$x" -v e="$xe" 'BEGIN { d = x - e; printf "%.6g", d < 0 ? -d : d }')" $bar
            below "slide v0=$v0 $fr $m: at rest at 1.5 s, u1 (m/s)" "$u" 1e-9
        done
    done
done
# the analytic stop itself, without the method's step: v0^2 / (2 mu g) within h^2 mu g / 8 plus
# the 5e-8 above (pyramid, sdirk, v0 = 3: 0.917431193 m)
out=$("$SIM" --model-file "$T/slide_pyramid.hsm" --h 0.001 --t 1.5 --glob-check off)
below "slide v0=3 pyramid sdirk: x - v0^2/(2 mu g) (m), bar h^2 mu g / 8 + 5e-8" \
    "$(awk -v x="$(echo "$out" | field q1)" 'BEGIN { printf "%.6g", x - 9 / (2 * 0.5 * 9.81) }')" \
    "$(awk 'BEGIN { printf "%.6g", 1e-6 * 0.5 * 9.81 / 8 + 5e-8 }')"

# ---- sphere let go 1 mm above the floor: at rest after 1 s ----
out=$("$SIM" --model-file "$M/sphere.hsm" --h 0.001 --t 1)
z=$(echo "$out" | field q3); w=$(echo "$out" | field u3)
below "sphere: vertical speed after 1 s (m/s)" "$w" 1e-6
for k in u1 u2 u4 u5 u6 u7; do below "sphere: $k after 1 s" "$(echo "$out" | field $k)" 1e-6; done
# compliance: W = 1/m = 1 per kg, F = m g
dc=$(awk -v r="$REG" -v e="$ERP" 'BEGIN { printf "%.12g", r * 1 * 9.81 * 1e-6 / e }')
rel "sphere: penetration (m) = REG W m g h^2 / ERP" "$(awk -v z="$z" 'BEGIN { printf "%.8g", 0.1 - z }')" "$dc" 0.01

# ---- a capsule lying on the floor; a sphere on a ground box with a second sphere on top ----
cat > "$T/cap.hsm" <<'EOF2'
model cap dim=3
gravity 0,0,-9.81
body c spatial mass=1 inertia=0.0145,0.0145,0.00125 pos=0,0,0.05 quat=0.7071067811865476,0,0.7071067811865476,0
shape floor plane body=ground
shape s capsule body=c radius=0.05 half=0.2
contact k a=s b=floor mu=0.5
EOF2
out=$("$SIM" --model-file "$T/cap.hsm" --h 0.001 --t 1)
for k in u1 u2 u3 u4 u5 u6 u7; do below "capsule on the floor: $k after 1 s" "$(echo "$out" | field $k)" 1e-9; done
# each end carries m g / 2 with W = 1/m + 0.2^2 / Jyy (the lever of an end about the centre)
dc=$(awk -v r="$REG" -v e="$ERP" 'BEGIN { printf "%.12g", r * (1 + 0.04 / 0.0145) * 9.81 / 2 * 1e-6 / e }')
rel "capsule on the floor: penetration (m) = REG W F h^2 / ERP" "$(awk -v z="$(echo "$out" | field q3)" 'BEGIN { printf "%.8g", 0.05 - z }')" "$dc" 0.01
cat > "$T/sb.hsm" <<'EOF2'
model sb dim=3
gravity 0,0,-9.81
body b spatial mass=1 inertia=0.004,0.004,0.004 pos=0.1,0.05,0.6 quat=1,0,0,0
body t spatial mass=1 inertia=0.004,0.004,0.004 pos=0.1,0.05,0.8 quat=1,0,0,0
shape table box body=ground at=0,0,0.25 half=0.5,0.5,0.25
shape s sphere body=b radius=0.1
shape u sphere body=t radius=0.1
contact k a=s b=table mu=0.5
contact kk a=u b=s mu=0.5
EOF2
out=$("$SIM" --model-file "$T/sb.hsm" --h 0.001 --t 1)
below "sphere on a box: vertical speed after 1 s" "$(echo "$out" | field u3)" 1e-9
below "sphere on a sphere: vertical speed after 1 s" "$(echo "$out" | field u10)" 1e-9
# sphere-box carries 2 m g (W = 1/m); sphere-sphere m g (W = 2/m)
dc=$(awk -v r="$REG" -v e="$ERP" 'BEGIN { printf "%.12g", r * 1 * 2 * 9.81 * 1e-6 / e }')
rel "sphere on a box: penetration (m)" "$(awk -v z="$(echo "$out" | field q3)" 'BEGIN { printf "%.8g", 0.6 - z }')" "$dc" 0.01
dc2=$(awk -v r="$REG" -v e="$ERP" -v d="$dc" 'BEGIN { printf "%.12g", d + r * 2 * 9.81 * 1e-6 / e }')
rel "sphere on a sphere: settle of the top one (m)" "$(awk -v z="$(echo "$out" | field q10)" 'BEGIN { printf "%.8g", 0.8 - z }')" "$dc2" 0.01

# ---- ball, e = 0.8: apex ratios e^2 ----
for m in sdirk symplectic galpha; do
    "$SIM" --model-file "$M/ball.hsm" --method $m --h 0.001 --t 3 --csv "$T/ball.csv" > /dev/null
    awk -F, 'NR > 1 { z = $4 - 0.1; if (n == 0) { top = z; n = 1 }
                      if (NR > 3 && p1 > p2 && p1 > z && p1 > 0.01) print p1 / top, p1; if (NR > 3 && p1 > p2 && p1 > z && p1 > 0.01) top = p1
                      p2 = p1; p1 = z }' "$T/ball.csv" | head -n 4 > "$T/apex"
    [ "$(wc -l < "$T/apex")" -eq 4 ] && ok "ball $m: four bounces in 3 s" || ko "ball $m: $(wc -l < "$T/apex") apexes"
    i=0
    while read -r r h; do i=$((i + 1)); rel "ball $m: apex $i ratio (height $h m)" "$r" 0.64 0.02; done < "$T/apex"
done

# ---- pendulum on a revolute end stop (1 m rod, 1 kg, stop at -pi/4), 2 s ----
"$SIM" --model-file "$M/stop_pendulum.hsm" --h 0.001 --t 2 --csv "$T/stop.csv" > "$T/stop.out"
th=$(tail -n 1 "$T/stop.csv" | awk -F, '{ print $4 }')
imp=$(tail -n 1 "$T/stop.csv" | awk -F, '{ print $12 }')
tau=$(awk 'BEGIN { printf "%.12g", 1 * 9.81 * 0.5 * cos(atan2(1, 1)) }')
rel "stop: torque the stop carries (impulse / h, N m) = m g L/2 cos 45" "$(awk -v i="$imp" 'BEGIN { printf "%.10g", i / 0.001 }')" "$tau" 0.001
# W = 1 / I_pivot = 1 / (1/12 + 1/4) = 3
dc=$(awk -v r="$REG" -v e="$ERP" -v t="$tau" 'BEGIN { printf "%.12g", r * 3 * t * 1e-6 / e }')
rel "stop: penetration past -pi/4 (rad) = REG W tau h^2 / ERP" "$(awk -v t="$th" 'BEGIN { printf "%.8g", -atan2(1, 1) - t }')" "$dc" 0.01
below "stop: angular speed at 2 s (rad/s)" "$(field u3 < "$T/stop.out")" 1e-6

# ---- five stacked boxes, 60 s (15 s at 1.5 ms). At 1 ms the rows rest at the compliance
# REG W F h^2 / ERP; above HREF (1 ms) they keep (1 - hold) of it: at 1.5 ms exactly the 1 ms
# depth, at 1/60 s 1 - HOLDMAX of the h^2 law (0.852 mm, was 3.41 mm: the settle bar is 1 mm) ----
for h in 0.001 0.0015 0.016666666666666666; do
    t=60; lim=1e-4; [ "$h" != 0.001 ] && lim=1e-3
    [ "$h" = 0.0015 ] && t=15
    [ "$QUICK" = --quick ] && [ "$h" = 0.001 ] && t=6
    out=$("$SIM" --model-file "$M/stack.hsm" --h $h --t $t)
    st=$(echo "$out" | field status)
    [ "$st" = ok ] && ok "stack h=$h: $t s, status ok, max_compl=$(echo "$out" | field max_compl)" || ko "stack h=$h: status $st"
    x=$(echo "$out" | field q29); y=$(echo "$out" | field q30); z=$(echo "$out" | field q31)
    below "stack h=$h: top box horizontal drift in $t s (m)" "$(awk -v x="$x" -v y="$y" 'BEGIN { printf "%.6g", sqrt(x * x + y * y) }')" $lim
    # settle: the sum over the five levels of one corner's penetration: the floor's corners carry
    # 5 m g / 4 each (W = 4), the corners under box k + 1 carry (5 - k) m g / 4 (W = 8)
    sink=$(awk -v r="$REG" -v e="$ERP" -v h=$h -v k="$(keep $h)" 'BEGIN { printf "%.12g", k * r * h * h / e * 9.81 * (4 * 5 / 4 + 8 * (4 + 3 + 2 + 1) / 4) }')
    rel "stack h=$h: top box settle (m) = (1 - hold) x sum of REG W F h^2 / ERP" "$(awk -v z="$z" 'BEGIN { printf "%.8g", 0.9 - z }')" "$sink" 0.01
    below "stack h=$h: top box settle (m), the bar" "$(awk -v z="$z" 'BEGIN { printf "%.8g", 0.9 - z }')" 1e-3
    below "stack h=$h: top box tilt/twist (quaternion vector part)" "$(echo "$out" | field q35)" 1e-3
done

# ---- box towers (issue 35): model/mech/large/tower20.hsm, tower50.hsm (test/mb/gen_large.py),
# the stack with 20 and 50 boxes. Settle of the top box: the floor's corners carry N m g / 4
# each (W = 4), the corners under box k + 1 carry (N - k) m g / 4 (W = 8): the sum of REG W F
# h^2 / ERP over the N levels is REG h^2 / ERP g N^2. tower20 also stands: its top box's
# largest horizontal drift over 5 s at 1 ms <= 0.1 mm (issue 35's bar; make contact-bench
# prints the 20 s figures), and so does tower50 over 2 s: before the pair-level correction of
# the contact stage it swayed by up to 0.19 mm over 20 s (0.146 mm in these 2 s) with the
# default 20 sweeps (model/CONTACT.md "Box towers"). ----
for n in 20 50; do
    t=5; [ $n = 50 ] && t=2
    out=$("$SIM" --model-file "$M/large/tower$n.hsm" --h 0.001 --t $t --csv "$T/tower.csv")
    st=$(echo "$out" | field status)
    [ "$st" = ok ] && ok "tower$n h=0.001: $t s, status ok" || ko "tower$n: status $st"
    cx=$((7 * n - 5))
    sink=$(awk -v r="$REG" -v e="$ERP" -v n=$n 'BEGIN { printf "%.12g", r * 1e-6 / e * 9.81 * (4 * n / 4 + 8 * n * (n - 1) / 2 / 4) }')
    rel "tower$n: top box settle (m) = REG h^2 / ERP g N^2" \
        "$(awk -v z="$(echo "$out" | field q$((7 * n - 4)))" -v n=$n 'BEGIN { printf "%.8g", 0.2 * n - 0.1 - z }')" "$sink" 0.01
    d=$(awk -F, -v c=$cx 'NR > 1 { d = sqrt($c * $c + $(c + 1) * $(c + 1)); if (d > m) m = d } END { printf "%.6g", m }' "$T/tower.csv")
    below "tower$n: top box largest horizontal drift over $t s (m)" "$d" 1e-4
done

# ---- the contact residual in the verdict. tower20 at h = 10 ms: the compliance REG W F h^2 /
# ERP is 100 times the 1 ms one (the hold keeps 1 - HOLDMAX of it), a column on soft corners.
# With the sweeps in point order it rocked up from the order's asymmetry and fell within 5 s
# (flagged inaccurate through the residual); with each pair's points updated together
# (rt/hs_contact_fb.c fb_pair_sweep) nothing seeds the rocking and it stands: status ok, the top
# box's settle the kept compliance (1 - hold) REG h^2 / ERP g N^2 within 1 %, its offset below
# 1 um. The fall the verdict must catch is made below ("passing through"). The same tower at
# 6.25 ms stands (top within 4 mm over 20 s) and stays ok (the 1 ms runs above are ok too). On
# the settled stack the residual includes each row's compliance term, so it reads how far the
# sweeps are from the row equations, not eps lambda (7.85e-4 m/s on the row under box 2
# before): below 1e-5 m/s from 3 s on. ----
out=$("$SIM" --model-file "$M/large/tower20.hsm" --h 0.01 --t 10); rc=$?
st=$(echo "$out" | field status)
[ "$st" = ok ] && [ $rc = 0 ] && ok "tower20 h=0.01 (stands): status ok, exit 0, err_glob=$(echo "$out" | field err_glob)" \
    || ko "tower20 h=0.01 (stands): status $st exit $rc"
sink=$(awk -v r="$REG" -v e="$ERP" -v k="$(keep 0.01)" 'BEGIN { printf "%.12g", k * r * 1e-4 / e * 9.81 * 400 }')
rel "tower20 h=0.01: top box settle (m) = (1 - hold) REG h^2 / ERP g N^2" \
    "$(awk -v z="$(echo "$out" | field q136)" 'BEGIN { printf "%.8g", 3.9 - z }')" "$sink" 0.01
below "tower20 h=0.01: top box horizontal offset at 10 s (m)" \
    "$(awk -v x="$(echo "$out" | field q134)" -v y="$(echo "$out" | field q135)" 'BEGIN { printf "%.6g", sqrt(x * x + y * y) }')" 1e-6
out=$("$SIM" --model-file "$M/large/tower20.hsm" --h 0.00625 --t 20)
st=$(echo "$out" | field status)
[ "$st" = ok ] && ok "tower20 h=0.00625 (stands): status ok" || ko "tower20 h=0.00625 (stands): status $st"
below "tower20 h=0.00625: top box horizontal offset at 20 s (m)" \
    "$(awk -v x="$(echo "$out" | field q134)" -v y="$(echo "$out" | field q135)" 'BEGIN { printf "%.6g", sqrt(x * x + y * y) }')" 0.01
"$SIM" --model-file "$M/stack.hsm" --h 0.001 --t 6 --csv "$T/rest.csv" --every 10 > /dev/null
cc=$(head -n 1 "$T/rest.csv" | tr ',' '\n' | grep -n '^compl$' | cut -d: -f1)
below "stack h=0.001: contact residual (compl, m/s) from 3 s to 6 s" \
    "$(awk -F, -v c="$cc" 'NR > 1 && $1 >= 3 { if ($c > m) m = $c } END { printf "%.6g", m + 0 }' "$T/rest.csv")" 1e-5

# ---- symmetry (model/CONTACT.md "Symmetry"): a centred frictionless stack stands, an edge
# balanced on a face stays balanced. Without friction no row pushes sideways; a tilt can only
# be seeded by the stage treating mirror points differently, and the compliant corners then
# grow it (a heavy box on a light one: e-fold sqrt(m a^2 / (M g d)), 0.5 s at 100:1 and 1 ms)
# until the light box squeezes out and the heavy one falls (before: at 200 sweeps as at 20).
# ratio.hsm with mu = 0, 10 s at 1 ms: status ok, every speed after 2 s <= 1e-4 m/s (rad/s),
# the heavy box's offset <= 1e-6 m, both settles the compliance REG W F h^2 / ERP within 1 %
# (floor corners W = 4, F = (1 + M) g / 4; between the boxes W = 4/1 + 4/M, F = M g / 4). ----
for M_ in 100 1000; do
    for sw in 20 200; do
        { cat "$SC/ratio.hsm"; echo "solver sweeps=$sw"; } > "$T/ratio_mu0.hsm"
        out=$("$SIM" --model-file "$T/ratio_mu0.hsm" --param mu=0 --param M=$M_ --h 0.001 --t 10 --csv "$T/r0.csv" --every 10); rc=$?
        st=$(echo "$out" | field status)
        [ "$st" = ok ] && [ $rc = 0 ] && ok "frictionless $M_:1 stack, $sw sweeps: status ok" || ko "frictionless $M_:1 stack, $sw sweeps: status $st exit $rc"
        below "frictionless $M_:1 stack, $sw sweeps: largest speed from 2 s to 10 s (u1..u14)" \
            "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "u1") c = i; next } $1 >= 2 { for (j = c; j < c + 14; j++) { v = $j < 0 ? -$j : $j; if (v > m) m = v } } END { printf "%.6g", m + 0 }' "$T/r0.csv")" 1e-4
        below "frictionless $M_:1 stack, $sw sweeps: heavy box's horizontal offset at 10 s (m)" \
            "$(awk -v x="$(echo "$out" | field q8)" -v y="$(echo "$out" | field q9)" 'BEGIN { printf "%.6g", sqrt(x * x + y * y) }')" 1e-6
        dl=$(awk -v r="$REG" -v e="$ERP" -v m=$M_ 'BEGIN { printf "%.12g", r * 4 * (1 + m) * 9.81 / 4 * 1e-6 / e }')
        dh=$(awk -v r="$REG" -v e="$ERP" -v m=$M_ -v d="$dl" 'BEGIN { printf "%.12g", d + r * (4 + 4 / m) * m * 9.81 / 4 * 1e-6 / e }')
        rel "frictionless $M_:1 stack, $sw sweeps: light box's sink (m)" "$(awk -v z="$(echo "$out" | field q3)" 'BEGIN { printf "%.8g", 0.1 - z }')" "$dl" 0.01
        rel "frictionless $M_:1 stack, $sw sweeps: heavy box's sink (m)" "$(awk -v z="$(echo "$out" | field q10)" 'BEGIN { printf "%.8g", 0.3 - z }')" "$dh" 0.01
    done
done
# edge.hsm: a cube on an edge across a cube's top face, e-fold 0.14 s, so 2 s amplify a seed by
# e^(2 / 0.14) = 1.6e6: rounding (1e-16 m) stays below 1e-9 m, the point order's seed (10.7 mm
# at 1 s before) does not. Bar: the upper cube's sideways offset and tilt off its balance at
# 2 s <= 1e-9 (m; quaternion), the lower one's <= 1e-9 m.
out=$("$SIM" --model-file "$SC/edge.hsm" --h 0.001 --t 2)
st=$(echo "$out" | field status)
[ "$st" = ok ] && ok "edge balance: status ok" || ko "edge balance: status $st"
below "edge balance: upper cube's y at 2 s (m)" "$(echo "$out" | field q9)" 1e-9
below "edge balance: upper cube's x at 2 s (m)" "$(echo "$out" | field q8)" 1e-9
below "edge balance: lower cube's y at 2 s (m)" "$(echo "$out" | field q2)" 1e-9
below "edge balance: upper cube's tilt off 45 deg (quaternion x - sin 22.5 deg)" \
    "$(awk -v p="$(echo "$out" | field q12)" 'BEGIN { printf "%.6g", p - 0.38268343236508978 }')" 1e-9

# ---- without a symmetry (model/CONTACT.md "Box towers", "Mass ratio"): the towers and stacks
# above are mirror-symmetric, so their drift reads the symmetry. tower20_asym.hsm moves each box
# a few mm sideways in no mirror pattern (x_k = 3 mm sin(1.7 k), y_k = 2 mm cos(2.3 k) + 1 mm):
# 20 s at 1 ms, status ok, the top box's and every box's largest displacement from its start
# <= 0.1 mm (issue 35's bar; the compliance leans the tower 0.0085 mm), no creep (the top's
# displacement at 20 s within 1 um of that at 10 s), every speed from 10 s on <= 1e-4 (at rest).
# With `solver sweeps=4` the top moves 1.05 mm (the corners' split not converged). ----
out=$("$SIM" --model-file "$SC/tower20_asym.hsm" --h 0.001 --t 20 --csv "$T/ta.csv" --every 10); rc=$?
st=$(echo "$out" | field status)
[ "$st" = ok ] && [ $rc = 0 ] && ok "tower20_asym h=0.001: 20 s, status ok" || ko "tower20_asym: status $st exit $rc"
read -r dt da cr sp <<EOF
$(awk -F, -v n=20 'NR == 2 { for (k = 1; k <= n; k++) { x0[k] = $(7 * k - 5); y0[k] = $(7 * k - 4) } }
    NR > 1 { for (k = 1; k <= n; k++) { dx = $(7 * k - 5) - x0[k]; dy = $(7 * k - 4) - y0[k]; d = sqrt(dx * dx + dy * dy)
                                        if (d > m[k]) m[k] = d; if (d > a) a = d }
             if ($1 == 10) d10 = d; dn = d
             if ($1 >= 10) for (j = 7 * n + 2; j <= 14 * n + 1; j++) { v = $j < 0 ? -$j : $j; if (v > sp) sp = v } }
    END { c = dn - d10; printf "%.6g %.6g %.6g %.6g\n", m[n], a, c < 0 ? -c : c, sp }' "$T/ta.csv")
EOF
below "tower20_asym: top box's largest horizontal displacement over 20 s (m)" "$dt" 1e-4
below "tower20_asym: every box's largest horizontal displacement over 20 s (m)" "$da" 1e-4
below "tower20_asym: top box's displacement at 20 s less that at 10 s (m, creep)" "$cr" 1e-6
below "tower20_asym: largest speed from 10 s to 20 s (u, m/s and 1/s)" "$sp" 1e-4
# 1000:1 off centre: ratio_off.hsm, the heavy cube 3 mm, 2 mm off the light one's centre
# (mu = 0.5), 10 s at 1 ms: status ok, at rest (every speed from 2 s on <= 1e-4), no sideways
# drift (the heavy cube's displacement at 10 s within 1 um of that at 5 s; it leans 0.068 mm on
# the compliance in the first second).
out=$("$SIM" --model-file "$SC/ratio_off.hsm" --h 0.001 --t 10 --csv "$T/ro.csv" --every 10); rc=$?
st=$(echo "$out" | field status)
[ "$st" = ok ] && [ $rc = 0 ] && ok "1000:1 off centre (3 mm, 2 mm): status ok" || ko "1000:1 off centre: status $st exit $rc"
read -r sp cr <<EOF
$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "u1") c = i; if ($i == "q8") x = i }; next }
    NR == 2 { x0 = $x; y0 = $(x + 1) }
    { dx = $x - x0; dy = $(x + 1) - y0; d = sqrt(dx * dx + dy * dy); if ($1 == 5) d5 = d; dn = d
      if ($1 >= 2) for (j = c; j < c + 14; j++) { v = $j < 0 ? -$j : $j; if (v > sp) sp = v } }
    END { e = dn - d5; printf "%.6g %.6g\n", sp, e < 0 ? -e : e }' "$T/ro.csv")
EOF
below "1000:1 off centre: largest speed from 2 s to 10 s (u1..u14)" "$sp" 1e-4
below "1000:1 off centre: heavy cube's displacement at 10 s less that at 5 s (m, drift)" "$cr" 1e-6
# Never ok while wrong: without friction the same stacks 1 mm off centre are squeezed out (the
# compliant model's instability, model/CONTACT.md "Symmetry": the heavy cube's load tilts it on
# the light cube's corners, the tilted face pushes the light cube sideways) and the heavy cube
# falls past it (no contact holds it: the description has none with the floor). No row sinks
# (max_sunk <= 3.8e-4 m: the light cube leaves sideways), and err_glob, the sum of the steps'
# estimates, said ok at 3 s (1.1e-2); the runs at h/2 and h/4 beside it (hilstep-sim judges
# err_rich on every contact run) see the squeeze come later at the smaller compliance:
# inaccurate, exit 4, err_rich above --tol, at 3 s and at 10 s; the light cube is gone
# (|x| > 0.2 m at 10 s). ----
for M_ in 100 1000; do
    for t in 3 10; do
        out=$("$SIM" --model-file "$SC/ratio_off.hsm" --param mu=0 --param M=$M_ --param dx=0.001 --param dy=0 --h 0.001 --t $t 2>/dev/null); rc=$?
        st=$(echo "$out" | field status); er=$(echo "$out" | field err_rich)
        [ "$st" = inaccurate ] && [ $rc = 4 ] && awk -v r="$er" 'BEGIN { exit !(r > 0.05) }' \
            && ok "frictionless $M_:1 stack 1 mm off centre, $t s (squeezed out): err_rich $er > --tol, status inaccurate, exit 4" \
            || ko "frictionless $M_:1 stack 1 mm off centre, $t s: status $st exit $rc err_rich $er"
    done
    awk -v x="$(echo "$out" | field q1)" 'BEGIN { exit !(x < -0.2 || x > 0.2) }' \
        && ok "frictionless $M_:1 stack 1 mm off centre: the light cube has left at 10 s (x $(echo "$out" | field q1) m)" \
        || ko "frictionless $M_:1 stack 1 mm off centre: light cube at x $(echo "$out" | field q1) m (stood?)"
done

# ---- passing through (model/CONTACT.md "Passing through"): a row whose gap at the step's end
# lies more than twice its rest depth (2 eps lambda h / ERP) plus HS_CT_SLOP below the surface
# is a body sunk into another; that depth (max_sunk=, m) is a position error of the step, so it
# enters err_est and the verdict. (1) a box started d deep in the floor: the first step removes
# at most ERP of it, so max_sunk lies in [(1 - ERP) d, d]; at d = 8 cm > --tol 0.05 the run is
# inaccurate, exit 4 (it is also launched: the depth's correction is a velocity); at 1 cm
# max_sunk stays below --tol, but the launch is the step's (ERP d / h a step: 0.19 m up at 1 ms,
# 0.79 m at 0.5 ms, 3.2 m at 0.25 ms), which the run beside it at h/2 and h/4 measures: err_rich
# above --tol, inaccurate, exit 4 (said ok before hilstep-sim judged contact runs by err_rich). (2) a forced pass-through: the frictionless 1000:1 stack with one sweep a step (the load
# never converges: the boxes sink, bounce, sink again): inaccurate, exit 4, max_sunk > 0.05 m.
# (3) no false alarm: every scene above that stands reports max_sunk = 0 where checked here. ----
for d in 0.08 0.01; do
    cat > "$T/deep.hsm" <<EOF2
model deep dim=3
gravity 0,0,-9.81
body b spatial mass=1 inertia=0.0066667,0.0066667,0.0066667 pos=0,0,$(awk -v d=$d 'BEGIN { print 0.1 - d }') quat=1,0,0,0
shape floor plane body=ground
shape s box body=b half=0.1,0.1,0.1
contact c a=s b=floor mu=0.5
EOF2
    out=$("$SIM" --model-file "$T/deep.hsm" --h 0.001 --t 1 2>/dev/null); rc=$?
    st=$(echo "$out" | field status); sk=$(echo "$out" | field max_sunk); ee=$(echo "$out" | field err_est)
    awk -v s="$sk" -v d=$d -v e="$ERP" 'BEGIN { exit !(s >= (1 - e) * d && s <= d) }' \
        && ok "box started $d m deep: max_sunk $sk m in [(1 - ERP) d, d]" || ko "box started $d m deep: max_sunk $sk m outside [(1 - ERP) d, d]"
    awk -v a="$ee" -v b="$sk" 'BEGIN { exit !(a >= b) }' && ok "box started $d m deep: err_est $ee >= max_sunk" || ko "box started $d m deep: err_est $ee < max_sunk $sk"
    if [ $d = 0.08 ]; then
        [ "$st" = inaccurate ] && [ $rc = 4 ] && ok "box started 8 cm deep: status inaccurate, exit 4" || ko "box started 8 cm deep: status $st exit $rc"
    else
        er=$(echo "$out" | field err_rich)
        awk -v a="$ee" -v r="$er" 'BEGIN { exit !(a < 0.05 && r > 0.05) }' && [ "$st" = inaccurate ] && [ $rc = 4 ] \
            && ok "box started 1 cm deep (launched): err_est $ee below --tol, err_rich $er above it: status inaccurate, exit 4" \
            || ko "box started 1 cm deep: status $st exit $rc, err_est $ee, err_rich $er"
    fi
done
# the generic stage (joints, stops) measures the gap the step starts from: the stop pendulum
# started at -0.9 rad, 0.9 - pi/4 past its stop at -pi/4: max_sunk = that - HS_CT_SLOP on the
# first step (within 1e-6: the result line prints 7 digits), inaccurate and exit 4 (> --tol
# 0.05 rad; it is then flung round)
sed 's/pos=0.5,0 angle=0/pos=0.31080498413,-0.39166345481 angle=-0.9/' "$M/stop_pendulum.hsm" > "$T/sp.hsm"
out=$("$SIM" --model-file "$T/sp.hsm" --h 0.001 --t 1 2>/dev/null); rc=$?
st=$(echo "$out" | field status)
rel "stop pendulum started at -0.9 rad, past its stop: max_sunk (rad) = 0.9 - pi/4 - SLOP" "$(echo "$out" | field max_sunk)" \
    "$(awk -v sl="$(hdr HS_CT_SLOP)" 'BEGIN { printf "%.12g", 0.9 - atan2(1, 1) - sl }')" 1e-6
[ "$st" = inaccurate ] && [ $rc = 4 ] && ok "stop pendulum started past its stop: status inaccurate, exit 4" || ko "stop pendulum started past its stop: status $st exit $rc"
{ cat "$SC/ratio.hsm"; echo "solver sweeps=1"; } > "$T/ratio_s1.hsm"
out=$("$SIM" --model-file "$T/ratio_s1.hsm" --param mu=0 --h 0.001 --t 10 2>/dev/null); rc=$?
st=$(echo "$out" | field status); sk=$(echo "$out" | field max_sunk)
[ "$st" = inaccurate ] && [ $rc = 4 ] && ok "frictionless 1000:1 stack, 1 sweep (sinks through): status inaccurate, exit 4" \
    || ko "frictionless 1000:1 stack, 1 sweep: status $st exit $rc"
awk -v s="$sk" 'BEGIN { exit !(s > 0.05) }' && ok "frictionless 1000:1 stack, 1 sweep: max_sunk $sk m > 0.05 m" || ko "frictionless 1000:1 stack, 1 sweep: max_sunk $sk m"
for f in "$M/stack.hsm" "$M/sphere.hsm" "$M/stop_pendulum.hsm" "$SC/ratio.hsm" "$SC/edge.hsm" "$SC/drop.hsm" "$SC/capbox.hsm" "$SC/crossed.hsm" "$M/large/tower20.hsm" "$SC/cylroll.hsm" "$SC/cylrest.hsm" "$SC/cylbox.hsm"; do
    below "no false alarm: $(basename "$f") 2 s at 1 ms, max_sunk (m)" "$("$SIM" --model-file "$f" --h 0.001 --t 2 | field max_sunk)" 0
done

# ---- crossed edges (issue 35): a cube held with an edge up (45 deg about x, a fixed joint), a
# second cube turned 45 deg about y dropped 1 cm onto it: edge across edge. Only an edge-edge
# axis separates them (the face axes overlap by 6.4 cm), so without the 9 edge-edge axes the
# drop was launched (+9.9 m/s, +77 J). Rests on the lower edge for 2 s: the contact point
# under the centre of mass, W = 1/m, so the settle below the edge is REG W m g h^2 / ERP; the
# energy lost is m g (1 cm + that settle), never more than 2 % above (the impact's transient).
# (The balance is an unstable equilibrium: rounding at 1e-16 grows by e per sqrt(I_edge / (m g
# r)) = 0.139 s and tips it after about 4 s; the peers' runs show the same physics.)
out=$("$SIM" --model-file "$SC/crossed.hsm" --h 0.001 --t 2)
st=$(echo "$out" | field status)
[ "$st" = ok ] && ok "crossed edges: 2 s, status ok" || ko "crossed edges: status $st"
dc=$(awk -v r="$REG" -v e="$ERP" 'BEGIN { printf "%.12g", r * 1 * 9.81 * 1e-6 / e }')
rel "crossed edges: settle below the lower edge (m) = REG W m g h^2 / ERP" \
    "$(awk -v z="$(echo "$out" | field q10)" 'BEGIN { printf "%.8g", 0.5 + 0.2 * sqrt(2) - z }')" "$dc" 0.01
for k in q8 q9; do below "crossed edges: upper box $k (horizontal position, m) after 2 s" "$(echo "$out" | field $k)" 1e-6; done
for k in u8 u9 u10 u11 u12 u13 u14; do below "crossed edges: upper box $k after 2 s" "$(echo "$out" | field $k)" 1e-6; done
rel "crossed edges: energy lost = m g (0.01 m + settle) (J), from the final height" \
    "$(awk -v z="$(echo "$out" | field q10)" 'BEGIN { printf "%.8g", 9.81 * (0.79284271247461901 - z) }')" \
    "$(awk -v d="$dc" 'BEGIN { printf "%.8g", 9.81 * (0.01 + d) }')" 1e-6
dE=$(echo "$out" | field max_abs_dE)
awk -v v="$dE" -v d="$dc" 'BEGIN { exit !(v <= 1.02 * 9.81 * (0.01 + d)) }' \
    && ok "crossed edges: max |E - E(0)| over the run $dE J <= 1.02 m g (0.01 m + settle): no launch" \
    || ko "crossed edges: max |E - E(0)| $dE J: energy gained"

# ---- capsule on a box (issue 35): a capsule (r 0.05 m, half length 0.2 m) lying along x,
# centre (0.1, 0.05), dropped 1 cm onto a ground box (top at z = 0.5). Three points: its two
# ends and the axis point nearest the box (x = 0 over the box centre, 0.1 m behind the capsule
# centre). Each normal row's compliance k_i = ERP / (REG W_i h^2), W_i = 1/m + x_i^2 / Jyy; the
# rigid capsule sinks z + theta x_i at each point, sum k_i d_i = m g, sum k_i d_i x_i = 0: the
# centre's settle z and the tilt theta follow (awk below), the run must match them. ----
out=$("$SIM" --model-file "$SC/capbox.hsm" --h 0.001 --t 2)
st=$(echo "$out" | field status)
[ "$st" = ok ] && ok "capsule on a box: 2 s, status ok" || ko "capsule on a box: status $st"
read -r zc thc <<EOF2
$(awk -v r="$REG" -v e="$ERP" 'BEGIN { I = 0.0145; h = 1e-3; mg = 9.81; x[1] = 0.2; x[2] = -0.2; x[3] = -0.1
  for (i = 1; i <= 3; i++) { k = e / (r * (1 + x[i] ^ 2 / I) * h * h); s0 += k; s1 += k * x[i]; s2 += k * x[i] ^ 2 }
  z = mg * s2 / (s0 * s2 - s1 * s1); printf "%.12g %.12g\n", z, -s1 * z / s2 }')
EOF2
rel "capsule on a box: settle of the centre (m) from the three rows' compliances" \
    "$(awk -v z="$(echo "$out" | field q3)" 'BEGIN { printf "%.8g", 0.55 - z }')" "$zc" 0.01
# the tilt about y: quaternion (cos, 0, sin, 0) of 45 deg + theta/2, theta = 2 (atan2(q6, q4) - pi/4)
rel "capsule on a box: tilt about y (rad) from the same" \
    "$(awk -v w="$(echo "$out" | field q4)" -v y="$(echo "$out" | field q6)" 'BEGIN { printf "%.8g", 2 * (atan2(y, w) - atan2(1, 1)) }')" \
    "$thc" 0.02
below "capsule on a box: x - 0.1 after 2 s (m)" "$(awk -v x="$(echo "$out" | field q1)" 'BEGIN { printf "%.6g", x - 0.1 }')" 1e-6
below "capsule on a box: y - 0.05 after 2 s (m)" "$(awk -v x="$(echo "$out" | field q2)" 'BEGIN { printf "%.6g", x - 0.05 }')" 1e-9
for k in u1 u2 u3 u4 u5 u6 u7; do below "capsule on a box: $k after 2 s" "$(echo "$out" | field $k)" 1e-6; done

# ---- inelastic drop (drop.hsm): a ball (r 0.1 m) arriving at v0 = 4.43 and 30 m/s 0.3 mm above
# the floor, no restitution, 1 s at 1 ms. It must stay on the floor from its first touch: its gap
# never rises above 0 (a method moving positions with the mean of the step's velocities carried
# it h v0 / 2 in and its ERP lifted it out at ERP v0 / 2: 4 mm and 0.34 m of hop before the
# impact took such rows), and ends at rest at the compliance. The midpoint methods (sdirk,
# galpha, dvp) keep it within the touching slop HS_CT_SLOP of the surface (their stop is timed
# within the step); symplectic is checked for the hop and the rest only. ----
SLOP=$(hdr HS_CT_SLOP)
for v0 in 4.43 30; do
    for m in sdirk galpha dvp symplectic; do
        out=$("$SIM" --model-file "$SC/drop.hsm" --param v0=$v0 --method $m --h 0.001 --t 1 --csv "$T/drop.csv")
        st=$(echo "$out" | field status)
        read -r gmin gmax <<EOF2
$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "q3") c = i; next }
  { g = $c - 0.1; if (NR == 2 || g < mn) mn = g; if (t) { if (g > mx) mx = g } else if (g < 1e-5) { t = 1; mx = g } }
  END { printf "%.6g %.6g\n", mn, mx }' "$T/drop.csv")
EOF2
        [ "$st" = ok ] && ok "inelastic drop v0=$v0 $m: status ok" || ko "inelastic drop v0=$v0 $m: status $st"
        awk -v g="$gmax" 'BEGIN { exit !(g <= 0) }' && ok "inelastic drop v0=$v0 $m: largest gap after the first touch $gmax m <= 0: no hop" \
            || ko "inelastic drop v0=$v0 $m: largest gap after the first touch $gmax m > 0: it hopped"
        case $m in symplectic) ;; *) below "inelastic drop v0=$v0 $m: deepest gap (m) within the slop" "$gmin" "$SLOP" ;; esac
        below "inelastic drop v0=$v0 $m: u3 at 1 s (m/s)" "$(echo "$out" | field u3)" 1e-6
        rel "inelastic drop v0=$v0 $m: rest at the compliance REG m g h^2 / ERP (m)" \
            "$(awk -v z="$(echo "$out" | field q3)" 'BEGIN { printf "%.8g", 0.1 - z }')" \
            "$(awk -v r="$REG" -v e="$ERP" 'BEGIN { printf "%.8g", r * 9.81 * 1e-6 / e }')" 0.01
    done
    # the same ball on a vertical rail (a prismatic joint: the generic stage over q)
    sed 's/^shape floor/joint rail prismatic a=ball b=ground axis=0,0,1\nshape floor/' "$SC/drop.hsm" > "$T/drop_rail.hsm"
    out=$("$SIM" --model-file "$T/drop_rail.hsm" --param v0=$v0 --h 0.001 --t 1 --csv "$T/drop.csv")
    read -r gmin gmax <<EOF2
$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "q3") c = i; next }
  { g = $c - 0.1; if (NR == 2 || g < mn) mn = g; if (t) { if (g > mx) mx = g } else if (g < 1e-5) { t = 1; mx = g } }
  END { printf "%.6g %.6g\n", mn, mx }' "$T/drop.csv")
EOF2
    [ "$(echo "$out" | field path)" = generic ] && ok "inelastic drop on a rail v0=$v0: the generic stage" || ko "inelastic drop on a rail: path $(echo "$out" | field path)"
    awk -v g="$gmax" 'BEGIN { exit !(g <= 0) }' && ok "inelastic drop on a rail v0=$v0: largest gap after the first touch $gmax m <= 0: no hop" \
        || ko "inelastic drop on a rail v0=$v0: largest gap after the first touch $gmax m > 0: it hopped"
    below "inelastic drop on a rail v0=$v0: deepest gap (m) within the slop" "$gmin" "$SLOP"
    # the same as a 0.2 m cube landing flat: four redundant corners take the impact together,
    # so it neither hops nor slides (before: 4 mm and 0.34 m of hop, 30 um and 6.4 mm of slide)
    sed 's/shape s sphere body=ball radius=0.1/shape s box body=ball half=0.1,0.1,0.1/; s/inertia=0.004,0.004,0.004/inertia=0.0066667,0.0066667,0.0066667/' \
        "$SC/drop.hsm" > "$T/drop_box.hsm"
    out=$("$SIM" --model-file "$T/drop_box.hsm" --param v0=$v0 --h 0.001 --t 1 --csv "$T/drop.csv")
    gmax=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "q3") c = i; next }
      { g = $c - 0.1; if (t) { if (g > mx) mx = g } else if (g < 1e-5) { t = 1; mx = g } } END { printf "%.6g", mx }' "$T/drop.csv")
    awk -v g="$gmax" 'BEGIN { exit !(g <= 0) }' && ok "inelastic cube drop v0=$v0: largest gap after the first touch $gmax m <= 0: no hop" \
        || ko "inelastic cube drop v0=$v0: largest gap after the first touch $gmax m > 0: it hopped"
    below "inelastic cube drop v0=$v0: x at 1 s (m): no slide" "$(echo "$out" | field q1)" 1e-6
    below "inelastic cube drop v0=$v0: y at 1 s (m): no slide" "$(echo "$out" | field q2)" 1e-6
done

# a resting stack is no impact: at 1/20 s its settling rows approach at up to g h = 0.49 m/s;
# taken as inelastic impacts (no compliance on its redundant corners) it collapsed at step 12
# (30 s: the hold anchors follow the load at HS_CT_HOLDB per step, 600 steps settle them)
out=$("$SIM" --model-file "$M/stack.hsm" --h 0.05 --t 30)
[ "$(echo "$out" | field status)" = ok ] && ok "stack at 1/20 s, 30 s: status ok (resting rows keep their compliance)" || ko "stack at 1/20 s: status $(echo "$out" | field status)"
sink=$(awk -v r="$REG" -v e="$ERP" -v h=0.05 -v k="$(keep 0.05)" 'BEGIN { printf "%.12g", k * r * h * h / e * 9.81 * (4 * 5 / 4 + 8 * (4 + 3 + 2 + 1) / 4) }')
rel "stack at 1/20 s: top box settle (m) = (1 - hold) x sum of REG W F h^2 / ERP (it stands)" "$(awk -v z="$(echo "$out" | field q31)" 'BEGIN { printf "%.8g", 0.9 - z }')" "$sink" 0.01

# ---- mass ratio 1000:1 (ratio.hsm): a 1000 kg cube on a 1 kg cube on the floor, 10 s at 1 ms,
# declared bottom first (as shipped) and top first (contact lines reversed). Gauss-Seidel alone
# corrects the heavy load passed through the light body by about 1 - 1/1000 of its error per
# sweep: bottom first the cubes rattled at 1.4e-2 m/s and the heavy one wandered 0.13 mm, with
# status ok (model/CONTACT.md "Mass ratio"). The pair-level correction after the first sweep
# solves the pairs' loads together, so in either order: both rest (speeds <= 1e-5 m/s from 5 s
# on, issue 35's bar 1e-4), the heavy cube's largest horizontal offset over the run <= 0.01 mm,
# each settle the compliance of its rows (the floor's corners 1001 m g / 4 with W = 4, the
# corners between the cubes 1000 m g / 4 with W = 4 + 4/1000), and err_glob covers the wander. ----
{ grep -v '^contact' "$SC/ratio.hsm"; grep '^contact' "$SC/ratio.hsm" | tac; } > "$T/ratio_top.hsm"
dl=$(awk -v r="$REG" -v e="$ERP" 'BEGIN { printf "%.12g", r * 4 * 1001 * 9.81 / 4 * 1e-6 / e }')
for o in bottom top; do
    f="$SC/ratio.hsm"; [ $o = top ] && f="$T/ratio_top.hsm"
    out=$("$SIM" --model-file "$f" --h 0.001 --t 10 --csv "$T/ratio.csv")
    [ "$(echo "$out" | field status)" = ok ] && ok "mass ratio, $o first: status ok" || ko "mass ratio, $o first: status $(echo "$out" | field status)"
    below "mass ratio, $o first: largest speed from 5 s to 10 s (m/s, rad/s: u1..u14)" \
        "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "u1") c = i; next } $1 >= 5 { for (j = c; j < c + 14; j++) { v = $j < 0 ? -$j : $j; if (v > m) m = v } } END { printf "%.6g", m }' "$T/ratio.csv")" 1e-5
    dr=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "q8") c = i; next } { d = sqrt($c * $c + $(c + 1) * $(c + 1)); if (d > m) m = d } END { printf "%.6g", m }' "$T/ratio.csv")
    below "mass ratio, $o first: heavy cube's largest horizontal offset over 10 s (m)" "$dr" 1e-5
    eg=$(echo "$out" | field err_glob)
    awk -v e="$eg" -v d="$dr" 'BEGIN { exit !(e >= d) }' && ok "mass ratio, $o first: err_glob $eg >= the heavy cube's wander $dr m" \
        || ko "mass ratio, $o first: err_glob $eg < the heavy cube's wander $dr m: the estimate misses the error"
    rel "mass ratio, $o first: light cube's settle (m) = REG W F h^2 / ERP" "$(awk -v z="$(echo "$out" | field q3)" 'BEGIN { printf "%.8g", 0.1 - z }')" "$dl" 0.01
    rel "mass ratio, $o first: heavy cube's settle (m) = both levels' compliance" "$(awk -v z="$(echo "$out" | field q10)" 'BEGIN { printf "%.8g", 0.3 - z }')" \
        "$(awk -v r="$REG" -v e="$ERP" -v d="$dl" 'BEGIN { printf "%.12g", d + r * 4.004 * 1000 * 9.81 / 4 * 1e-6 / e }')" 0.01
done

# ---- capsule on two capsules (issue 35): a raft of two logs (r 0.05 m, touching, along x) on
# the floor, a third log dropped 1 cm into their groove: it rests at the groove's height
# 0.05 + sqrt(0.1^2 - 0.05^2) m above the floor, on the raft's centre line. ----
out=$("$SIM" --model-file "$SC/capcap.hsm" --h 0.001 --t 2)
st=$(echo "$out" | field status)
[ "$st" = ok ] && ok "log in the groove of two logs: 2 s, status ok" || ko "log in a groove: status $st"
below "log in the groove: height - 0.05 - sqrt(0.0075) (m), compliance only" \
    "$(awk -v z="$(echo "$out" | field q10)" 'BEGIN { printf "%.6g", z - 0.05 - sqrt(0.0075) }')" 1e-5
for k in q8 q9; do below "log in the groove: $k (m) after 2 s" "$(echo "$out" | field $k)" 1e-5; done
for k in u8 u9 u10 u11 u12 u13 u14; do below "log in the groove: $k after 2 s" "$(echo "$out" | field $k)" 1e-6; done

# ---- cylinders (model/CONTACT.md "Cylinders"). Solid cylinders, inertia m r^2 / 2 about the
# axis and m (3 r^2 + 4 l^2) / 12 across (l the half length), declared in the scenes.
# (a) cylroll.hsm: on its side on the 20 degree incline of incline.hsm (gs = g sin 20, gc =
# g cos 20 in the file), mu = 1 > tan 20 / 3: rolls without slip, a = (2/3) gs exactly (from
# F = gs / (1/m + r^2/I) at the contact line), read from u(1 s) = a t and x(1 s) = a t^2 / 2, and
# the axle's spin omega_y = v / r. sdirk within 1e-9 (it reads the law to 6e-15 at h = 2, 1,
# 0.5 and 0.25 ms: constant accelerations, the contact points at the exact lowest rim points),
# galpha within 1e-4 (1.0e-5 off, not traced); symplectic and j2 converge to it at first order
# (-0.52 % and +0.88 % at 1 ms, half that at 0.5 ms: a sphere rolling on the same incline shows
# the same errors, so it is theirs, not the cylinder's): their Richardson value 2 u(h/2) - u(h)
# within 2e-4. (b) mu = 0.05 < tan 20 / 3: slips, a = gs - mu gc and angular acceleration
# 2 mu gc / r (the friction force mu m gc at lever r over I = m r^2 / 2). ----
om() { awk -v w="$1" -v x="$2" -v y="$3" -v z="$4" -v dw="$5" -v dx="$6" -v dy="$7" -v dz="$8" \
    'BEGIN { printf "%.12g\n", 2 * (w * dy - dw * y + (z * dx - x * dz)) }'; } # world omega_y from q4..q7, u4..u7
fo() { echo "$out" | field "$1"; }
GS=$(sed -n 's/^param gs = //p' "$SC/cylroll.hsm"); GC=$(sed -n 's/^param gc = //p' "$SC/cylroll.hsm")
ar=$(awk -v g="$GS" 'BEGIN { printf "%.12g", 2 * g / 3 }')
for mt in sdirk:1e-9 galpha:1e-4; do
    m=${mt%:*}; tl=${mt#*:}
    out=$("$SIM" --model-file "$SC/cylroll.hsm" --method $m --h 0.001 --t 1)
    [ "$(fo status)" = ok ] && ok "cylinder rolling $m: status ok" || ko "cylinder rolling $m: status $(fo status)"
    rel "cylinder rolling $m: a from u(1 s) = a t (m/s^2) = (2/3) g sin 20" "$(fo u1)" "$ar" $tl
    rel "cylinder rolling $m: a from x(1 s) = a t^2 / 2" "$(awk -v x="$(fo q1)" 'BEGIN { printf "%.14g", 2 * x }')" "$ar" $tl
    rel "cylinder rolling $m: no slip, r omega_y = v (m/s)" "$(awk -v w="$(om "$(fo q4)" "$(fo q5)" "$(fo q6)" "$(fo q7)" "$(fo u4)" "$(fo u5)" "$(fo u6)" "$(fo u7)")" 'BEGIN { printf "%.12g", 0.1 * w }')" "$(fo u1)" 1e-9
done
for m in symplectic j2; do
    u1=$("$SIM" --model-file "$SC/cylroll.hsm" --method $m --h 0.001 --t 1 | field u1)
    u2=$("$SIM" --model-file "$SC/cylroll.hsm" --method $m --h 0.0005 --t 1 | field u1)
    rel "cylinder rolling $m: Richardson 2 u(h/2) - u(h) at 1 s (u $u1 at 1 ms, $u2 at 0.5 ms) = (2/3) g sin 20" \
        "$(awk -v a="$u1" -v b="$u2" 'BEGIN { printf "%.10g", 2 * b - a }')" "$ar" 2e-4
done
out=$("$SIM" --model-file "$SC/cylroll.hsm" --param mu=0.05 --h 0.001 --t 1)
rel "cylinder slipping mu=0.05: a from u(1 s) = g (sin 20 - mu cos 20)" "$(fo u1)" "$(awk -v s="$GS" -v c="$GC" 'BEGIN { printf "%.12g", s - 0.05 * c }')" 1e-4
rel "cylinder slipping mu=0.05: angular acceleration from omega_y(1 s) = 2 mu g cos 20 / r" \
    "$(om "$(fo q4)" "$(fo q5)" "$(fo q6)" "$(fo q7)" "$(fo u4)" "$(fo u5)" "$(fo u6)" "$(fo u7)")" "$(awk -v c="$GC" 'BEGIN { printf "%.12g", 2 * 0.05 * c / 0.1 }')" 1e-4

# (c) cylrest.hsm: let go 1 mm above the floor, one standing on its flat face (its rim triangle:
# three points at 120 degrees, m g / 3 each, W = 1/m + r^2 / I_across), one lying on its side
# (the two ends of its contact line, m g / 2 each, W = 1/m + l^2 / I_across): every speed from
# 1 s to 2 s <= 1e-4 (at 2 s <= 1e-9), the settles REG W F h^2 / ERP within 1 %, and neither turns.
# (d) cylbox.hsm: a cylinder (r 0.05, l 0.2) dropped 1 cm on its side onto a ground box: its line
# on the box's face, W = 1/m + l^2 / I_across; a 10 kg drum (r 0.2, l 0.1) standing on the floor
# with a 0.1 m cube (1 kg) on its top face: the cube's four corners on the drum's disc (m g / 4
# each, W = 4/m for the cube plus 1/M + (0.05^2 + 0.05^2) / I_across,drum for the drum), the drum on
# its rim triangle carrying (M + m) g / 3 per point; the cube sinks the drum's settle plus its own.
out=$("$SIM" --model-file "$SC/cylrest.hsm" --h 0.001 --t 2 --csv "$T/cyl.csv" --every 10)
[ "$(fo status)" = ok ] && ok "cylinders at rest: status ok" || ko "cylinders at rest: status $(fo status)"
below "cylinders at rest: largest speed from 1 s to 2 s (u1..u14)" \
    "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "u1") c = i; next } $1 >= 1 { for (j = c; j < c + 14; j++) { v = $j < 0 ? -$j : $j; if (v > m) m = v } } END { printf "%.6g", m + 0 }' "$T/cyl.csv")" 1e-4
for k in u1 u2 u3 u8 u9 u10; do below "cylinders at rest: $k at 2 s" "$(fo $k)" 1e-9; done
Ia=$(awk 'BEGIN { printf "%.12g", (3 * 0.01 + 4 * 0.0225) / 12 }')
rel "cylinder standing on its face: settle (m) = REG (1/m + r^2/I) (m g / 3) h^2 / ERP" "$(awk -v z="$(fo q3)" 'BEGIN { printf "%.8g", 0.15 - z }')" \
    "$(awk -v r="$REG" -v e="$ERP" -v I="$Ia" 'BEGIN { printf "%.12g", r * (1 + 0.01 / I) * 9.81 / 3 * 1e-6 / e }')" 0.01
rel "cylinder lying on its side: settle (m) = REG (1/m + l^2/I) (m g / 2) h^2 / ERP" "$(awk -v z="$(fo q10)" 'BEGIN { printf "%.8g", 0.1 - z }')" \
    "$(awk -v r="$REG" -v e="$ERP" -v I="$Ia" 'BEGIN { printf "%.12g", r * (1 + 0.0225 / I) * 9.81 / 2 * 1e-6 / e }')" 0.01
below "cylinder standing: tilt (quaternion x, y)" "$(awk -v a="$(fo q5)" -v b="$(fo q6)" 'BEGIN { printf "%.6g", (a < 0 ? -a : a) + (b < 0 ? -b : b) }')" 1e-9
below "cylinder lying: turn off its start (quaternion w - cos 45 deg, x, z)" \
    "$(awk -v w="$(fo q11)" -v a="$(fo q12)" -v b="$(fo q14)" 'BEGIN { d = w - 0.70710678118654757; printf "%.6g", (d < 0 ? -d : d) + (a < 0 ? -a : a) + (b < 0 ? -b : b) }')" 1e-9
out=$("$SIM" --model-file "$SC/cylbox.hsm" --h 0.001 --t 2)
[ "$(fo status)" = ok ] && ok "cylinder on a box, cube on a drum: 2 s, status ok" || ko "cylinder on a box, cube on a drum: status $(fo status)"
for k in u1 u2 u3 u4 u5 u6 u7 u8 u9 u10 u15 u16 u17; do below "cylinder on a box, cube on a drum: $k after 2 s" "$(fo $k)" 1e-6; done
below "cylinder on a box: x - 0.1, y - 0.05 after 2 s (m)" "$(awk -v x="$(fo q1)" -v y="$(fo q2)" 'BEGIN { a = x - 0.1; b = y - 0.05; printf "%.6g", (a < 0 ? -a : a) + (b < 0 ? -b : b) }')" 1e-9
rel "cylinder on a box: settle (m) = REG (1/m + l^2/I) (m g / 2) h^2 / ERP" "$(awk -v z="$(fo q3)" 'BEGIN { printf "%.8g", 0.55 - z }')" \
    "$(awk -v r="$REG" -v e="$ERP" 'BEGIN { I = (3 * 0.0025 + 4 * 0.04) / 12; printf "%.12g", r * (1 + 0.04 / I) * 9.81 / 2 * 1e-6 / e }')" 0.01
dd=$(awk -v r="$REG" -v e="$ERP" 'BEGIN { I = 10 * (3 * 0.04 + 4 * 0.01) / 12; printf "%.12g", r * (0.1 + 0.04 / I) * 11 * 9.81 / 3 * 1e-6 / e }')
rel "drum standing on the floor under a cube: settle (m) = REG (1/M + R^2/I) ((M + m) g / 3) h^2 / ERP" "$(awk -v z="$(fo q10)" 'BEGIN { printf "%.8g", 0.1 - z }')" "$dd" 0.01
rel "cube on the drum's face: settle (m) = the drum's + REG W (m g / 4) h^2 / ERP" "$(awk -v z="$(fo q17)" 'BEGIN { printf "%.8g", 0.25 - z }')" \
    "$(awk -v r="$REG" -v e="$ERP" -v d="$dd" 'BEGIN { I = 10 * (3 * 0.04 + 4 * 0.01) / 12; printf "%.12g", d + r * (4 + 0.1 + 0.005 / I) * 9.81 / 4 * 1e-6 / e }')" 0.01
below "cube on the drum: x - 2, y after 2 s (m)" "$(awk -v x="$(fo q15)" -v y="$(fo q16)" 'BEGIN { a = x - 2; printf "%.6g", (a < 0 ? -a : a) + (y < 0 ? -y : y) }')" 1e-6

# cyledge.hsm: rolling (v0 0.2 m/s, mu 5) over a table's edge. Beyond the face its rim points
# give way to the edge's points against the cylinder (model/CONTACT.md "Cylinders"): it pivots on
# the edge as a solid cylinder rolling about it, (3/4) m v^2 = (3/4) m v0^2 + m g r (1 - cos th),
# and leaves it where gravity's normal part no longer supplies v^2 / r: cos th = (4 + 3 v0^2 /
# (g r)) / 7 (v0 read where the centre passes the edge). The last step with a normal impulse on
# the table's rows is within 0.7 degrees of th (the turn of one step there, (v / r) h = 0.62 deg).
# With the edge point taken right below the rim point (on the end's plane) the end's normal was
# taken: the cylinder sank 0.22 mm into the edge.
out=$("$SIM" --model-file "$SC/cyledge.hsm" --h 0.001 --t 1 --csv "$T/edge.csv")
[ "$(fo status)" = ok ] && ok "cylinder over a table edge: status ok" || ko "cylinder over a table edge: status $(fo status)"
read -r v0 thl the <<EOF2
$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "ct1") a = i; if ($i == "ct4") b = i }; next }
  { th = atan2($2 - 0.5, $4 - 0.5) * 45 / atan2(1, 1) }
  v0 == "" && $2 >= 0.5 { v0 = sqrt($9 * $9 + $11 * $11) }
  $a + $b > 0 { last = th }
  END { c = (4 + 3 * v0 * v0 / (9.81 * 0.05)) / 7; printf "%.6f %.4f %.4f\n", v0, last, atan2(sqrt(1 - c * c), c) * 45 / atan2(1, 1) }' "$T/edge.csv")
EOF2
below "cylinder over a table edge (v0 $v0 m/s): leaves the edge at $thl deg, cos th = (4 + 3 v0^2/(g r))/7 gives $the deg: difference (deg)" \
    "$(awk -v a="$thl" -v b="$the" 'BEGIN { printf "%.4f", a - b }')" 0.7

# ---- sphere on a capsule: a sphere (r 0.1 m, 1 kg) let go 1 mm above the top of a ground capsule
# post (axis z, r 0.05 m, half length 0.25 m, top at z = 0.6): rests on the post's end, the
# sphere at the axis point nearest its centre (the clamped end) against it, W = 1/m. ----
cat > "$T/sc.hsm" <<'EOF2'
model sc dim=3
gravity 0,0,-9.81
body b spatial mass=1 inertia=0.004,0.004,0.004 pos=0,0,0.701 quat=1,0,0,0
shape post capsule body=ground at=0,0,0.3 radius=0.05 half=0.25
shape s sphere body=b radius=0.1
contact k a=s b=post mu=0.5
EOF2
out=$("$SIM" --model-file "$T/sc.hsm" --h 0.001 --t 1)
[ "$(fo status)" = ok ] && ok "sphere on a capsule: status ok" || ko "sphere on a capsule: status $(fo status)"
for k in u1 u2 u3; do below "sphere on a capsule: $k after 1 s" "$(fo $k)" 1e-9; done
rel "sphere on a capsule: settle (m) = REG m g h^2 / ERP" "$(awk -v z="$(fo q3)" 'BEGIN { printf "%.8g", 0.7 - z }')" \
    "$(awk -v r="$REG" -v e="$ERP" 'BEGIN { printf "%.12g", r * 9.81 * 1e-6 / e }')" 0.01

# ---- the contact stage never adds energy (test/contact/ct_energy.c): every step of the contact
# scenes, E after the stage <= E before it + |gravity's work over the stage's displacement| +
# rounding. Scenes and methods where it holds; model/CONTACT.md names where it does not (the
# end stop's impact step with every method; with sdirk the impact step of the 1 cm drops,
# crossed.hsm, capbox.hsm, capcap.hsm: +1e-4 to +2e-4 J, 0.1 to 0.2 % of the impact's 0.098 J). ----
CTE=$(dirname "$SIM")/hilstep-ctenergy
if [ -x "$CTE" ]; then
    for m in sdirk symplectic j2; do
        files="$M/ball.hsm $M/incline.hsm $M/sphere.hsm $M/stack.hsm $T/cap.hsm $T/sb.hsm $SC/cylroll.hsm $SC/cylrest.hsm $SC/cylbox.hsm $T/sc.hsm"
        [ "$m" != sdirk ] && files="$files $SC/crossed.hsm $SC/capbox.hsm $SC/capcap.hsm"
        # shellcheck disable=SC2086
        "$CTE" 0.001 2000 $m $files > "$T/cte.out" 2>&1
        while read -r word rest; do
            case $word in ok) ok "energy: $rest" ;; *) ko "energy: $word $rest" ;; esac
        done < "$T/cte.out"
        [ "$(grep -c '^ok' "$T/cte.out")" -eq "$(echo $files | wc -w)" ] || ko "energy $m: $(cat "$T/cte.out")"
    done
    # the cylinder over a table edge, pivoting on it, then landing spinning on the floor: with
    # sdirk; after symplectic and j2 the landing step gains 2.9e-5 and 2.5e-5 J over the bound
    # while the stage takes 4.7 and 4.9 J out (a sphere in its place: 3.4e-6 and 6.8e-7 J: the
    # impact of a spinning body, not the cylinder's geometry; model/CONTACT.md "Cylinders")
    "$CTE" 0.001 2000 sdirk "$SC/cyledge.hsm" > "$T/cte.out" 2>&1
    read -r word rest < "$T/cte.out"
    case $word in ok) ok "energy: $rest" ;; *) ko "energy: $word $rest" ;; esac
    # the long steps, where resting rows take back their hold (rt/hs_contact.h): the stack over
    # 20 s at 1/60 s and 30 s at 1/20 s, every step, with the same bound
    for m in sdirk symplectic j2; do
        for hs in "0.016666666666666666 1200" "0.05 600"; do
            # shellcheck disable=SC2086
            set -- $hs
            "$CTE" "$1" "$2" $m "$M/stack.hsm" > "$T/cte.out" 2>&1
            read -r word rest < "$T/cte.out"
            case $word in ok) ok "energy at h = $1: $rest" ;; *) ko "energy at h = $1: $word $rest" ;; esac
        done
    done
else
    ko "no $CTE (make contact-test builds it)"
fi

# ---- bad declarations: refused with FILE:LINE ----
bad() { # name, line number, file text
    printf '%s\n' "$3" > "$T/bad.hsm"
    msg=$("$SIM" --model-file "$T/bad.hsm" --h 0.001 --t 0.001 2>&1); rc=$?
    if [ $rc -eq 2 ] && echo "$msg" | grep -q "bad.hsm:$2:"; then ok "refused ($1) at bad.hsm:$2, exit 2"
    else ko "$1: exit $rc, '$msg'"; fi
}
HEAD='model b dim=3
gravity 0,0,-9.81
body a spatial mass=1 inertia=1,1,1 pos=0,0,1 quat=1,0,0,0'
bad "unknown shape" 5 "$HEAD
shape s sphere body=a radius=0.1
contact c a=s b=nope"
# cylinders: the field named, the pair named (model/FORMAT.md)
badf() { # name, line number, field, text the message must carry, file text
    printf '%s\n' "$5" > "$T/bad.hsm"
    msg=$("$SIM" --model-file "$T/bad.hsm" --h 0.001 --t 0.001 2>&1); rc=$?
    if [ $rc -eq 2 ] && echo "$msg" | grep -q "bad.hsm:$2: field '$3'" && echo "$msg" | grep -q -- "$4"; then
        ok "refused ($1) at bad.hsm:$2, field '$3', naming '$4', exit 2"
    else ko "$1: exit $rc, '$msg'"; fi
}
badf "cylinder radius 0" 4 radius "radius > 0" "$HEAD
shape s cylinder body=a radius=0 half=0.2"
badf "cylinder radius < 0" 4 radius "radius > 0" "$HEAD
shape s cylinder body=a radius=-0.1 half=0.2"
badf "cylinder half length 0" 4 half "half length of the axis > 0" "$HEAD
shape s cylinder body=a radius=0.1 half=0"
badf "cylinder without radius" 4 shape "radius= is required" "$HEAD
shape s cylinder body=a half=0.2"
badf "cylinder with half extents" 4 half "too many values" "$HEAD
shape s cylinder body=a radius=0.1 half=0.1,0.1,0.1"
for k in "cylinder radius=0.1 half=0.2:cylinder" "sphere radius=0.1:sphere" "capsule radius=0.1 half=0.2:capsule"; do
    badf "cylinder-${k#*:} pair" 6 contact "a=cylinder b=${k#*:}" "$HEAD
shape s cylinder body=a radius=0.1 half=0.2
shape k ${k%:*} body=ground
contact c a=s b=k"
done
badf "sphere-cylinder pair" 6 contact "a=sphere b=cylinder" "$HEAD
shape s sphere body=a radius=0.1
shape k cylinder body=ground radius=0.1 half=0.2
contact c a=s b=k"
bad "restitution above 1" 6 "$HEAD
shape s sphere body=a radius=0.1
shape f plane body=ground
contact c a=s b=f e=1.5"
bad "plane normal not unit" 5 "$HEAD
shape s sphere body=a radius=0.1
shape f plane body=ground normal=0,0,2"
bad "box without half extents" 4 "$HEAD
shape s box body=a"
bad "stop on a distance joint" 5 "$HEAD
joint d distance a=a b=ground length=1
stop s joint=d min=0"
bad "stop with min >= max" 5 "$HEAD
joint r revolute a=a@0,0,-1 b=ground axis=0,1,0
stop s joint=r min=1 max=0"
bad "shapes in a 2-D model" 3 'model b dim=2
body a planar mass=1 inertia=1 pos=0,1
shape s sphere body=a radius=0.1'
bad "both shapes on ground" 6 "$HEAD
shape f plane body=ground
shape k box body=ground half=1,1,1
contact c a=k b=f"

# ---- the result line and the CSV carry the residual ----
out=$("$SIM" --model-file "$M/ball.hsm" --h 0.001 --t 0.01 --csv "$T/b.csv")
echo "$out" | grep -q ' max_compl=' && ok "result line has max_compl=" || ko "no max_compl= on the result line"
head -n 1 "$T/b.csv" | grep -q ',ct1,compl,' && ok "CSV has ct1 and compl columns" || ko "CSV header: $(head -n 1 "$T/b.csv")"

# ---- fixed cost: instructions of every step (callgrind), the stack at h = 1/60 s for 200 steps
# (--glob-check off: the run alone, without its h/2 and h/4 companions' steps) ----
if command -v valgrind > /dev/null 2>&1; then
    mkdir -p "$T/cg"
    valgrind --tool=callgrind --collect-atstart=no --toggle-collect=hs_stepper_step --dump-after=hs_stepper_step \
        --callgrind-out-file="$T/cg/cg" "$SIM" --model-file "$M/stack.hsm" --h 0.016666666666666666 \
        --t 3.3333333333333335 --glob-check off > /dev/null 2>&1
    grep -h '^summary:' "$T"/cg/cg.* | awk '{ print $2 }' > "$T/ir"
    n=$(wc -l < "$T/ir")
    read -r mn mx <<EOF
$(awk 'NR == 1 { a = $1; b = $1 } { if ($1 < a) a = $1; if ($1 > b) b = $1 } END { print a, b }' "$T/ir")
EOF
    [ "$n" -eq 200 ] && ok "callgrind: $n steps measured" || ko "callgrind: $n steps measured, 200 expected"
    rel "stack: worst / best step instructions ($mx / $mn)" "$(awk -v a="$mx" -v b="$mn" 'BEGIN { printf "%.6f", a / b }')" 1 0.05
    # the towers (issue 35): every step of 200 at h = 1 ms; per box, the mean of steps 101 to
    # 200 within 1.1 times the five-box stack's (issue 35's bar), worst / best <= 1.05
    for f in stack large/tower20 large/tower50; do
        rm -rf "$T/cg"; mkdir -p "$T/cg"
        valgrind --tool=callgrind --collect-atstart=no --toggle-collect=hs_stepper_step --dump-after=hs_stepper_step \
            --callgrind-out-file="$T/cg/cg" "$SIM" --model-file "$M/$f.hsm" --h 0.001 --t 0.2 --glob-check off > /dev/null 2>&1
        for g in "$T"/cg/cg.*; do echo "${g##*.} $(sed -n 's/^summary: *//p' "$g")"; done > "$T/ir"
        case $f in stack) nb=5 ;; *) nb=${f#large/tower} ;; esac
        read -r n mn mx pb <<EOF
$(awk -v nb=$nb '{ n++; if (n == 1 || $2 < a) a = $2; if ($2 > b) b = $2; if ($1 > 100) { s += $2; k++ } }
    END { printf "%d %d %d %.1f\n", n, a, b, s / k / nb }' "$T/ir")
EOF
        [ "$n" -eq 200 ] || ko "callgrind $f: $n steps measured, 200 expected"
        below "${f#large/} h=0.001: worst / best step instructions ($mx / $mn) - 1" \
            "$(awk -v a="$mx" -v b="$mn" 'BEGIN { printf "%.6f", a / b - 1 }')" 0.05
        if [ $nb = 5 ]; then pb5=$pb
        elif awk -v a="$pb" -v b="$pb5" 'BEGIN { exit !(a <= 1.1 * b) }'; then
            ok "${f#large/}: $pb instructions per step per box <= 1.1 x the stack's $pb5 ($(awk -v a="$pb" -v b="$pb5" 'BEGIN { printf "%.3f", a / b }') x)"
        else ko "${f#large/}: $pb instructions per step per box > 1.1 x the stack's $pb5"; fi
    done
    # a cylinder's fixed work: cyledge.hsm over 700 steps rolls on the table's face (rim points on
    # the face), pivots on its edge (edge points against the cylinder), flies and lands on the
    # floor: every step measured, worst / best <= 1.05
    rm -rf "$T/cg"; mkdir -p "$T/cg"
    valgrind --tool=callgrind --collect-atstart=no --toggle-collect=hs_stepper_step --dump-after=hs_stepper_step \
        --callgrind-out-file="$T/cg/cg" "$SIM" --model-file "$SC/cyledge.hsm" --h 0.001 --t 0.7 --glob-check off > /dev/null 2>&1
    read -r n mn mx <<EOF
$(grep -h '^summary:' "$T"/cg/cg.* | awk '{ n++; if (n == 1 || $2 < a) a = $2; if ($2 > b) b = $2 } END { print n, a, b }')
EOF
    [ "$n" -eq 700 ] || ko "callgrind cyledge: $n steps measured, 700 expected"
    below "cyledge h=0.001: worst / best step instructions ($mx / $mn) - 1" "$(awk -v a="$mx" -v b="$mn" 'BEGIN { printf "%.6f", a / b - 1 }')" 0.05
else
    ko "valgrind missing (test/install_deps.sh installs it)"
fi

echo "contact-test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
