/* hs_tire.c - TMeasy (Rill) with tread dynamics and a Dahl brake; see hs_tire.h, model/TIRE.md.
 *
 * Derivatives: every quantity of hs_tire_eval is carried as a value plus its partial
 * derivatives with respect to a group of at most TD_N of the element's arguments
 * (forward-mode differentiation of the closed-form expressions), so the Jacobian is exact to
 * rounding; the full Jacobian takes three passes over the groups, a caller that needs fewer
 * columns (the vehicles: vx, vy, Omega) one. Why groups of 3 and not all 8 at once: a value
 * with 8 partials is 80 bytes, copied by memcpy calls on the Cortex-M7 (3.0 M instructions per
 * car step) and 14 KB of stack for one evaluation; with 3 the copies are inline moves and
 * the evaluation takes 4.8 KB (hil/VEHICLE.md).
 * The steady-state functions are the same formulas on plain reals, which is what the
 * published-curve tests compare against an independent implementation.
 *
 * This file is compiled twice from the same text: here with every value's partials live
 * (TD_LIVE 1: straight-line arithmetic, constants carry zero partials), and by
 * hs_tire_values.c with HS_TIRE_VALUES_ONLY (TD_LIVE 0: the compiler drops every partial, so
 * hs_tire_eval_values is plain arithmetic, about a fifth of the instructions on the M7). The
 * values are the same operations in both, bit for bit. */
#include "hs_tire.h"
#include "hs_inline.h"

/* The arithmetic helpers of the gradient values below: forced inline on the host, where gcc -O2
 * leaves td_scale and interp_ld out of line (the hand-written car's step 54,227 -> 49,364
 * instructions, callgrind); left to the boards' -O3 -finline-limit=1000 (CM_TIRE_FLAGS), where
 * forcing them measured 200 instructions a step more (40,799 -> 40,999 on the M7). */
#if defined(__arm__)
#define TD_INL static
#else
#define TD_INL HS_INLINE
#endif

#ifdef HS_TIRE_VALUES_ONLY
#define TD_LIVE(x) 0
#else
#define TD_LIVE(x) 1
#endif

#define ND HS_TIRE_NARG
#define TD_N 3 /* partials carried per pass */

/* A value and its gradient with respect to the pass's group of arguments. A constant, or an
 * argument outside the group, has zero partials, so every operation is the same straight-line
 * arithmetic (no per-value bookkeeping); in the values-only build (TD_LIVE 0) the partials are
 * zeros the compiler removes with the arithmetic that would read them. */
typedef struct td {
    hs_real v;
    hs_real d[TD_N];
} td;

TD_INL td td_c(hs_real v)
{
    td r;
    r.v = v;
    for (int i = 0; i < TD_N; ++i) {
        r.d[i] = HS_R(0.0);
    }
    return r;
}

/* gradient entry i of a */
TD_INL hs_real gd(const td *a, int i)
{
    return (TD_LIVE(*a) != 0) ? a->d[i] : HS_R(0.0);
}

/* r.d = ka a.d + kb b.d: the four binary operations are this with their partials ka, kb. */
TD_INL void lin2(td *r, const td *a, hs_real ka, const td *b, hs_real kb)
{
    for (int i = 0; i < TD_N; ++i) {
        r->d[i] = (TD_LIVE(*a) != 0) ? (ka * a->d[i] + kb * b->d[i]) : HS_R(0.0);
    }
}

TD_INL td td_add(td a, td b)
{
    td r;
    r.v = a.v + b.v;
    lin2(&r, &a, HS_R(1.0), &b, HS_R(1.0));
    return r;
}

TD_INL td td_sub(td a, td b)
{
    td r;
    r.v = a.v - b.v;
    lin2(&r, &a, HS_R(1.0), &b, HS_R(-1.0));
    return r;
}

TD_INL td td_mul(td a, td b)
{
    td r;
    r.v = a.v * b.v;
    lin2(&r, &a, b.v, &b, a.v);
    return r;
}

/* a / b; b.v != 0 is the caller's guarantee. */
TD_INL td td_div(td a, td b)
{
    td r;
    const hs_real inv = HS_R(1.0) / b.v;
    r.v = a.v * inv;
    lin2(&r, &a, inv, &b, -r.v * inv);
    return r;
}

TD_INL td td_scale(td a, hs_real s)
{
    td r = td_c(s * a.v);
    if (TD_LIVE(r) != 0) {
        for (int i = 0; i < TD_N; ++i) {
            r.d[i] = s * a.d[i];
        }
    }
    return r;
}

TD_INL td td_addc(td a, hs_real c)
{
    a.v += c;
    return a;
}

/* sqrt(a) for a.v > 0; sqrt(0) = 0 with a zero gradient (used only where the result is then
 * multiplied by a quantity that vanishes there too). */
TD_INL td td_sqrt(td a)
{
    td r = td_c(HS_R(0.0));
    if (a.v > HS_R(0.0)) {
        r.v = hs_sqrt(a.v);
        const hs_real k = HS_R(0.5) / r.v;
        if (TD_LIVE(r) != 0) {
            for (int i = 0; i < TD_N; ++i) {
                r.d[i] = k * a.d[i];
            }
        }
    }
    return r;
}

/* |a| with the gradient of the side a lies on (a = 0: the + side). */
static td td_abs(td a)
{
    return (a.v < HS_R(0.0)) ? td_scale(a, HS_R(-1.0)) : a;
}

#ifndef HS_TIRE_VALUES_ONLY /* the parameters and the published formulas: once, here */

/* ---- parameter sets ---- */

static void curve_set(hs_tire_curve *c, hs_real dF0, hs_real sM, hs_real FM, hs_real sS, hs_real FS)
{
    c->dF0 = dF0;
    c->sM = sM;
    c->FM = FM;
    c->sS = sS;
    c->FS = FS;
}

/* Camber and bore on (Rill's model, factors 1), and the torsional tread of a ring at the bore
 * radius of the nominal load: cpsi = cy R_B^2, dpsi = dy R_B^2, R_B = (L + B)/6 with
 * L = 2 sqrt(r0 FzN / cz) (TIRE.md "Camber and bore torque"). */
static void tors_set(hs_tire_par *p)
{
    p->kgam = HS_R(1.0);
    p->kbore = HS_R(1.0);
    const hs_real L = HS_R(2.0) * hs_sqrt(p->r0 * p->FzN / p->cz);
    const hs_real rb = (L + p->B) / HS_R(6.0);
    p->cpsi = p->cy * rb * rb;
    p->dpsi = p->dy * rb * rb;
}

void hs_tire_par_car(hs_tire_par *p)
{
    /* Rill, Road Vehicle Dynamics (CRC 2012), Table 3.3, passenger car tire 205/50 R15 */
    p->FzN = HS_R(3500.0);
    curve_set(&p->x[0], HS_R(120000.0), HS_R(0.110), HS_R(4400.0), HS_R(0.500), HS_R(4250.0));
    curve_set(&p->x[1], HS_R(200000.0), HS_R(0.100), HS_R(8700.0), HS_R(0.800), HS_R(7600.0));
    curve_set(&p->y[0], HS_R(55000.0), HS_R(0.200), HS_R(4200.0), HS_R(0.800), HS_R(4150.0));
    curve_set(&p->y[1], HS_R(80000.0), HS_R(0.220), HS_R(7500.0), HS_R(1.000), HS_R(7400.0));
    p->nL0[0] = HS_R(0.178);
    p->nL0[1] = HS_R(0.190);
    p->sy0[0] = HS_R(0.200);
    p->sy0[1] = HS_R(0.200);
    p->syE[0] = HS_R(0.500);
    p->syE[1] = HS_R(0.500);
    /* hilstep's values (TIRE.md): radius and vertical data of a 205/50 R15, tread
     * stiffness/damping of Rill's order of magnitude, rolling resistance 1 % */
    p->r0 = HS_R(0.30);
    p->cz = HS_R(190000.0);
    p->dz = HS_R(500.0);
    p->cx = HS_R(180000.0);
    p->dx = HS_R(2000.0);
    p->cy = HS_R(160000.0);
    p->dy = HS_R(2000.0);
    p->fr = HS_R(0.01);
    p->vN = HS_R(0.01);
    p->sigma_b = HS_R(50.0);
    p->omega_b = HS_R(0.5);
    /* the largest bristle damping that keeps the torque within the rating (hs_tire_eval) */
    p->tau_b = HS_R(1.0) / (p->sigma_b * p->omega_b);
    p->mu = HS_R(1.0); /* the road the table was measured on */
    p->B = HS_R(0.205); /* the section width of a 205/50 R15 as the patch width (TIRE.md) */
    tors_set(p);
}

void hs_tire_par_truck(hs_tire_par *p)
{
    /* the car tire's curves scaled by the load ratio 10 (forces and slopes), slips kept:
     * TIRE.md says why this is a stand-in, not published data */
    hs_tire_par_car(p);
    p->FzN = HS_R(35000.0);
    for (int k = 0; k < 2; ++k) {
        p->x[k].dF0 *= HS_R(10.0);
        p->x[k].FM *= HS_R(10.0);
        p->x[k].FS *= HS_R(10.0);
        p->y[k].dF0 *= HS_R(10.0);
        p->y[k].FM *= HS_R(10.0);
        p->y[k].FS *= HS_R(10.0);
    }
    p->r0 = HS_R(0.55);
    p->cz = HS_R(1000000.0);
    p->dz = HS_R(3000.0);
    p->cx = HS_R(1200000.0);
    p->dx = HS_R(3000.0);
    p->cy = HS_R(1000000.0);
    p->dy = HS_R(3000.0);
    p->fr = HS_R(0.006);
    p->B = HS_R(0.385); /* 385/65 R22.5 */
    tors_set(p);
}

static int curve_ok(const hs_tire_curve *c)
{
    int ok = 1;
    ok &= (c->dF0 > HS_R(0.0)) ? 1 : 0;
    ok &= (c->FM > HS_R(0.0)) ? 1 : 0;
    ok &= (c->FS > HS_R(0.0)) ? 1 : 0;
    ok &= (c->sM > HS_R(0.0)) ? 1 : 0;
    ok &= (c->sS > c->sM) ? 1 : 0;
    /* the rational branch must reach FM at sM without a pole: dF0 sM / FM >= 1 */
    ok &= (c->dF0 * c->sM >= c->FM) ? 1 : 0;
    return ok;
}

hs_status hs_tire_par_check(const hs_tire_par *p)
{
    if (p == NULL) {
        return HS_E_NULL;
    }
    int ok = 1;
    ok &= (p->r0 > HS_R(0.0)) ? 1 : 0;
    ok &= (p->cz > HS_R(0.0)) ? 1 : 0;
    ok &= (p->dz >= HS_R(0.0)) ? 1 : 0;
    ok &= (p->FzN > HS_R(0.0)) ? 1 : 0;
    for (int k = 0; k < 2; ++k) {
        ok &= curve_ok(&p->x[k]);
        ok &= curve_ok(&p->y[k]);
        ok &= (p->nL0[k] >= HS_R(0.0)) ? 1 : 0;
        ok &= (p->sy0[k] > HS_R(0.0)) ? 1 : 0;
        ok &= (p->syE[k] >= p->sy0[k]) ? 1 : 0;
    }
    ok &= (p->cx > HS_R(0.0) && p->dx > HS_R(0.0)) ? 1 : 0;
    ok &= (p->cy > HS_R(0.0) && p->dy > HS_R(0.0)) ? 1 : 0;
    ok &= (p->fr >= HS_R(0.0)) ? 1 : 0;
    ok &= (p->vN > HS_R(0.0)) ? 1 : 0;
    ok &= (p->sigma_b > HS_R(0.0) && p->omega_b > HS_R(0.0) && p->tau_b >= HS_R(0.0)) ? 1 : 0;
    /* a brake torque above its rating Tb (hs_tire_eval) */
    ok &= (p->tau_b * p->sigma_b * p->omega_b <= HS_R(1.0) + HS_R(1e-6)) ? 1 : 0;
    ok &= (p->mu > HS_R(0.0)) ? 1 : 0;
    ok &= (p->B > HS_R(0.0) && p->kgam >= HS_R(0.0) && p->kbore >= HS_R(0.0)) ? 1 : 0;
    ok &= (p->cpsi > HS_R(0.0) && p->dpsi > HS_R(0.0)) ? 1 : 0;
    /* a NaN fails every comparison above, so non-finite parameters are refused too */
    return (ok != 0) ? HS_OK : HS_E_MODEL_PARAM;
}

/* ---- the curve and the load dependence on plain reals (the published formulas) ---- */

void hs_tire_curve_eval(const hs_tire_curve *c, hs_real s, hs_real *F, hs_real *fos)
{
    if (s <= c->sM) {
        const hs_real sg = s / c->sM;
        const hs_real den = HS_R(1.0) + sg * (sg + c->dF0 * c->sM / c->FM - HS_R(2.0));
        *fos = c->dF0 / den;
        *F = *fos * s;
    } else if (s <= c->sS) {
        const hs_real sg = (s - c->sM) / (c->sS - c->sM);
        *F = c->FM - (c->FM - c->FS) * sg * sg * (HS_R(3.0) - HS_R(2.0) * sg);
        *fos = *F / s;
    } else {
        *F = c->FS;
        *fos = *F / s;
    }
}

/* quadratic through (0, 0), (FzN, a1), (2 FzN, a2) at z = Fz / FzN; beyond 2 FzN (the data's
 * range) the line through the origin and (2 FzN, a2): the force per unit load of 2 FzN is kept,
 * so no force or slope turns over (the parabola of the car's dF0y reaches 0 at 4.7 FzN) */
static hs_real interp_q(hs_real a1, hs_real a2, hs_real z)
{
    if (z > HS_R(2.0)) {
        return HS_R(0.5) * a2 * z;
    }
    return z * (HS_R(2.0) * a1 - HS_R(0.5) * a2 - (a1 - HS_R(0.5) * a2) * z);
}

/* straight line through (FzN, a1), (2 FzN, a2), held at a2 beyond 2 FzN */
static hs_real interp_l(hs_real a1, hs_real a2, hs_real z)
{
    if (z > HS_R(2.0)) {
        return a2;
    }
    return a1 + (a2 - a1) * (z - HS_R(1.0));
}

void hs_tire_load(const hs_tire_curve c[2], hs_real FzN, hs_real Fz, hs_real mu, hs_tire_curve *out)
{
    const hs_real z = Fz / FzN;
    out->dF0 = interp_q(c[0].dF0, c[1].dF0, z);
    out->FM = mu * interp_q(c[0].FM, c[1].FM, z);
    out->FS = mu * interp_q(c[0].FS, c[1].FS, z);
    out->sM = mu * interp_l(c[0].sM, c[1].sM, z);
    out->sS = mu * interp_l(c[0].sS, c[1].sS, z);
}

#endif /* HS_TIRE_VALUES_ONLY */

/* ---- the same formulas on values with gradients ---- */

typedef struct tcurve {
    td dF0, sM, FM, sS, FS;
} tcurve;

/* interp_q and interp_l on gradients (the same branches) */
static td interp_qd(hs_real a1, hs_real a2, td z)
{
    if (z.v > HS_R(2.0)) {
        return td_scale(z, HS_R(0.5) * a2);
    }
    /* z (2 a1 - a2/2 - (a1 - a2/2) z) */
    td inner = td_addc(td_scale(z, -(a1 - HS_R(0.5) * a2)), HS_R(2.0) * a1 - HS_R(0.5) * a2);
    return td_mul(z, inner);
}

TD_INL td interp_ld(hs_real a1, hs_real a2, td z)
{
    if (z.v > HS_R(2.0)) {
        return td_c(a2);
    }
    return td_addc(td_scale(z, a2 - a1), a1 - (a2 - a1));
}

/* Road friction mu (Rill): the maxima, sliding forces and their slips scale with mu, the
 * initial slope dF0 stays, so F_mu(s) = mu F_1(s/mu) and the generalized slip's normalization
 * (ratios of sM and of FM/dF0) is the same on every road. */
static void load_d(const hs_tire_curve c[2], td z, hs_real mu, tcurve *o)
{
    o->dF0 = interp_qd(c[0].dF0, c[1].dF0, z);
    o->FM = td_scale(interp_qd(c[0].FM, c[1].FM, z), mu);
    o->FS = td_scale(interp_qd(c[0].FS, c[1].FS, z), mu);
    o->sM = td_scale(interp_ld(c[0].sM, c[1].sM, z), mu);
    o->sS = td_scale(interp_ld(c[0].sS, c[1].sS, z), mu);
}

/* fos = F(s)/s of the generalized curve (s >= 0) */
static td curve_fos_d(const tcurve *c, td s)
{
    if (s.v <= c->sM.v) {
        const td sg = td_div(s, c->sM);
        const td k = td_addc(td_div(td_mul(c->dF0, c->sM), c->FM), HS_R(-2.0));
        const td den = td_addc(td_mul(sg, td_add(sg, k)), HS_R(1.0));
        return td_div(c->dF0, den);
    }
    if (s.v <= c->sS.v) {
        const td sg = td_div(td_sub(s, c->sM), td_sub(c->sS, c->sM));
        const td h = td_mul(td_mul(sg, sg), td_addc(td_scale(sg, HS_R(-2.0)), HS_R(3.0)));
        const td F = td_sub(c->FM, td_mul(td_sub(c->FM, c->FS), h));
        return td_div(F, s);
    }
    return td_div(c->FS, s);
}

/* hypot(a c, b s) with c2 = cos^2, s2 = sin^2 given */
static td dir_mix(td a, td b, td c2, td s2)
{
    return td_sqrt(td_add(td_mul(td_mul(a, a), c2), td_mul(td_mul(b, b), s2)));
}

/* Combined-slip forces at load (curves X, Y already at the load): Fx = fos sx/hx,
 * Fy = fos sy/hy with the generalized slip's fos; *bx = fos/hx, *by = fos/hy, *fb = fos. The
 * bore slip sb (bore: 1) joins the generalized slip s = sqrt(sxn^2 + syn^2 + sb^2) (Rill's
 * TMeasy), not the direction, which stays the one of sx, sy. */
static void combined_d(const tcurve *X, const tcurve *Y, td sx, td sy, td sb, int bore, td *Fx, td *Fy,
                       td *bx, td *by, td *fb)
{
    /* normalizing factors (Rill): hx = sMx/(sMx+sMy) + (FMx/dF0x)/(FMx/dF0x + FMy/dF0y) */
    const td ssum = td_add(X->sM, Y->sM);
    const td qx = td_div(X->FM, X->dF0), qy = td_div(Y->FM, Y->dF0);
    const td qsum = td_add(qx, qy);
    const td hx = td_add(td_div(X->sM, ssum), td_div(qx, qsum));
    const td hy = td_add(td_div(Y->sM, ssum), td_div(qy, qsum));
    const td sxn = td_div(sx, hx), syn = td_div(sy, hy);
    const td s2 = td_add(td_mul(sxn, sxn), td_mul(syn, syn));
    td c2, n2;
    if (s2.v > HS_R(0.0)) {
        c2 = td_div(td_mul(sxn, sxn), s2);
        n2 = td_div(td_mul(syn, syn), s2);
    } else {
        /* direction undefined at zero slip: Rill's choice, 45 degrees */
        c2 = td_c(HS_R(0.5));
        n2 = td_c(HS_R(0.5));
    }
    tcurve G;
    G.dF0 = dir_mix(td_mul(X->dF0, hx), td_mul(Y->dF0, hy), c2, n2);
    G.sM = dir_mix(td_div(X->sM, hx), td_div(Y->sM, hy), c2, n2);
    G.FM = dir_mix(X->FM, Y->FM, c2, n2);
    G.sS = dir_mix(td_div(X->sS, hx), td_div(Y->sS, hy), c2, n2);
    G.FS = dir_mix(X->FS, Y->FS, c2, n2);
    const td s = td_sqrt((bore != 0) ? td_add(s2, td_mul(sb, sb)) : s2);
    const td fos = curve_fos_d(&G, s);
    *fb = fos;
    *bx = td_div(fos, hx);
    *by = td_div(fos, hy);
    *Fx = td_mul(*bx, sx);
    *Fy = td_mul(*by, sy);
}

/* (n/L)(sy) of Rill's pneumatic trail, data at the load */
static td trail_d(td nL0, td sy0, td syE, td sy)
{
    const td a = td_abs(sy);
    if (a.v >= syE.v) {
        return td_c(HS_R(0.0));
    }
    const td w = td_div(sy0, syE);
    const td omw = td_addc(td_scale(w, HS_R(-1.0)), HS_R(1.0));
    if (a.v <= sy0.v) {
        const td sg = td_div(a, sy0);
        const td n1 = td_addc(td_scale(sg, HS_R(-1.0)), HS_R(1.0));
        const td cub = td_mul(td_mul(sg, sg), td_addc(td_scale(sg, HS_R(-2.0)), HS_R(3.0)));
        const td n2 = td_addc(td_scale(cub, HS_R(-1.0)), HS_R(1.0));
        return td_mul(nL0, td_add(td_mul(omw, n1), td_mul(w, n2)));
    }
    const td r = td_div(td_sub(syE, a), td_sub(syE, sy0));
    const td lin = td_div(td_sub(a, sy0), sy0);
    return td_scale(td_mul(td_mul(nL0, omw), td_mul(lin, td_mul(r, r))), HS_R(-1.0));
}

/* contact length L = 2 sqrt(r0 Fz / cz) (Rill) */
static td length_d(const hs_tire_par *p, td Fz)
{
    return td_scale(td_sqrt(td_scale(Fz, p->r0 / p->cz)), HS_R(2.0));
}

/* Steady forces and torque on gradients: Fz, L = length_d(Fz), the force's lateral slip syf
 * (sy plus the camber's equivalent slip), the trail's sy, the bore slip sb (bore: 1) given;
 * Mz = -ntr by sy (the camber force has no trail). */
static void steady_d(const hs_tire_par *p, td Fz, td L, td sx, td syf, td sy, td sb, int bore, td *Fx,
                     td *Fy, td *Mz, td *bx, td *by, td *ntr, td *fb)
{
    const td z = td_scale(Fz, HS_R(1.0) / p->FzN);
    tcurve X, Y;
    load_d(p->x, z, p->mu, &X);
    load_d(p->y, z, p->mu, &Y);
    combined_d(&X, &Y, sx, syf, sb, bore, Fx, Fy, bx, by, fb);
    const td nL0 = interp_ld(p->nL0[0], p->nL0[1], z);
    const td sy0 = interp_ld(p->sy0[0], p->sy0[1], z);
    const td syE = interp_ld(p->syE[0], p->syE[1], z);
    *ntr = td_mul(trail_d(nL0, sy0, syE, sy), L);
    *Mz = td_scale(td_mul(*ntr, td_mul(*by, sy)), HS_R(-1.0));
}

#ifndef HS_TIRE_VALUES_ONLY
void hs_tire_steady(const hs_tire_par *p, hs_real Fz, hs_real sx, hs_real sy,
                    hs_real *Fx, hs_real *Fy, hs_real *Mz)
{
    hs_tire_par q = *p;
    q.kgam = HS_R(0.0);
    q.kbore = HS_R(0.0);
    hs_tire_steady_cb(&q, Fz, sx, sy, HS_R(0.0), HS_R(0.0), Fx, Fy, Mz, NULL);
}

void hs_tire_steady_cb(const hs_tire_par *p, hs_real Fz, hs_real sx, hs_real sy, hs_real sg, hs_real sb,
                       hs_real *Fx, hs_real *Fy, hs_real *Mz, hs_real *Tbo)
{
    td fx = td_c(HS_R(0.0)), fy = fx, mz = fx, tb = fx, bx, by, n, fb;
    if (Fz > HS_R(0.0)) {
        const td L = length_d(p, td_c(Fz));
        /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
        const int bore = (p->kbore > HS_R(0.0)) ? 1 : 0;
        const hs_real syf = (p->kgam > HS_R(0.0)) ? sy + p->kgam * sg / HS_R(3.0) : sy;
        steady_d(p, td_c(Fz), L, td_c(sx), td_c(syf), td_c(sy), td_c(sb), bore, &fx, &fy, &mz, &bx, &by, &n, &fb);
        const hs_real rb = (L.v + p->B) / HS_R(6.0);
        tb = td_c((bore != 0) ? p->kbore * rb * fb.v * sb : HS_R(0.0));
    }
    if (Fx != NULL) {
        *Fx = fx.v;
    }
    if (Fy != NULL) {
        *Fy = fy.v;
    }
    if (Mz != NULL) {
        *Mz = mz.v;
    }
    if (Tbo != NULL) {
        *Tbo = tb.v;
    }
}
#endif

/* ---- the element ---- */

/* The camber's and the bore's slips (eval_core). */
typedef struct cb_slip {
    int bore;        /* 1: kbore > 0 */
    td vsyf, syf;    /* the lateral slip velocity and slip with the camber's equivalent share */
    td sgq;          /* that share, sg/3 (kgam times) */
    td rb, vb, sb;   /* bore radius, bore slip velocity, bore slip (0 without the bore) */
} cb_slip;

/* cb_slips' results with camber and bore off: the lateral slip and its velocity as they are */
static void cb_init(cb_slip *c, td vsy, td sy)
{
    const td zero = td_c(HS_R(0.0));
    c->bore = 0;
    c->vsyf = vsy;
    c->syf = sy;
    c->sgq = zero;
    c->rb = zero;
    c->vb = zero;
    c->sb = zero;
}

/* Camber (Rill): the camber spin oc turns the patch about n, a parabolic lateral deflection whose
 * mean is that of the lateral slip velocity vg = (L/6) oc: the camber slip sg = -(L/2) oc / v*
 * enters as the equivalent lateral slip sg/3 (TIRE.md). Bore: slip velocity vb = R_B w_n at the
 * bore radius R_B = (L + B)/6, slip sb = -vb / v*. */
static void cb_slips(const hs_tire_par *p, const td *a, td L, td vsy, td sy, td vstar, cb_slip *c)
{
    cb_init(c, vsy, sy);
    if (p->kgam > HS_R(0.0)) {
        const td vg = td_scale(td_mul(L, a[HS_TIRE_OC]), p->kgam / HS_R(6.0));
        c->vsyf = td_add(vsy, vg);
        c->sgq = td_scale(td_div(vg, vstar), HS_R(-1.0));
        c->syf = td_add(sy, c->sgq);
    }
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    c->bore = (p->kbore > HS_R(0.0)) ? 1 : 0;
    if (c->bore != 0) {
        c->rb = td_scale(td_addc(L, p->B), HS_R(1.0) / HS_R(6.0));
        c->vb = td_mul(c->rb, a[HS_TIRE_WN]);
        c->sb = td_scale(td_div(c->vb, vstar), HS_R(-1.0));
    }
}

/* Rill's dynamic bore torque with the tread's transport velocity vc (a patch at rest is a
 * torsional spring-damper and does not creep): cpsi psi + dpsi psi' = -(kbore R_B^2 fos / vc)
 * (w_n + psi'), solved for psi'; steady, kbore R_B fos sb (v* over vc). */
static void bore_dyn(const hs_tire_par *p, td rb, td fb, td vc, td psi, td wn, td *Tbo, td *dpsi)
{
    const td kf = td_scale(td_mul(td_mul(rb, rb), fb), p->kbore);
    const td nump = td_add(td_mul(td_scale(vc, p->cpsi), psi), td_mul(kf, wn));
    const td denp = td_add(td_scale(vc, p->dpsi), kf);
    *dpsi = td_scale(td_div(nump, denp), HS_R(-1.0));
    *Tbo = td_add(td_scale(psi, p->cpsi), td_scale(*dpsi, p->dpsi));
}


/* The Dahl brake (eval_core says why): zb' and the brake torque at capacity Tb. */
static void brake_d(const hs_tire_par *p, td om, td zb, hs_real Tb, td *dzb, td *Tbr)
{
    const td aom = td_abs(om);
    const td sig = td_div(td_c(p->sigma_b), td_addc(td_scale(aom, HS_R(1.0) / p->omega_b), HS_R(1.0)));
    *dzb = td_mul(td_sub(om, td_mul(aom, zb)), sig);
    *Tbr = td_scale(td_add(zb, td_scale(*dzb, p->tau_b)), -Tb);
}

/* o->y and the Jacobian's columns c0 .. c0 + nd - 1 from the results res: 1 when all finite.
 * x - x is 0 for a finite x and NaN otherwise, so one sum of them tested once says it for all
 * (a test per value took about 7 instructions of the M7's 40 per result row). */
static int out_put(hs_tire_out *o, const td *const *res, int c0, int nd)
{
    hs_real z = HS_R(0.0);
    for (int k = 0; k < (int)HS_TIRE_NRES; ++k) {
        const hs_real y = res[k]->v;
        o->y[k] = y;
        z += y - y;
        for (int i = 0; i < nd; ++i) {
            const hs_real d = gd(res[k], i);
            o->J[k][c0 + i] = d;
            z += d - d;
        }
    }
    return hs_isfinite(z);
}

/* The element with the Jacobian columns c0 .. c0 + nd - 1 (nd <= TD_N; 0 for values only). */
static int eval_core(const hs_tire_par *p, const hs_real *arg, hs_real Tb, hs_tire_out *o, int c0,
                     int nd)
{
    td a[ND];
    /* MISRA Ref 10.4.9 [signed/unsigned operands, values checked in range] */
    for (int i = 0; i < ND; ++i) {
        a[i] = td_c(arg[i]);
        const int in_group = (int)((i >= c0) && (i < c0 + nd));
        if (in_group != 0) {
            for (int j = 0; j < TD_N; ++j) {
                a[i].d[j] = (i == c0 + j) ? HS_R(1.0) : HS_R(0.0);
            }
        }
    }
    const td zero = td_c(HS_R(0.0));
    /* vertical: spring-damper on the penetration, zero off the road and never pulling */
    td Fz = td_add(td_scale(a[HS_TIRE_PEN], p->cz), td_scale(a[HS_TIRE_PEND], p->dz));
    if (!(a[HS_TIRE_PEN].v > HS_R(0.0)) || !(Fz.v > HS_R(0.0))) {
        Fz = zero;
    }
    /* dynamic rolling radius rd = (2 r0 + rs)/3 with the static radius rs = r0 - pen */
    const td pen = (a[HS_TIRE_PEN].v > HS_R(0.0)) ? a[HS_TIRE_PEN] : zero;
    const td rd = td_addc(td_scale(pen, HS_R(-1.0) / HS_R(3.0)), p->r0);
    const td om = a[HS_TIRE_OM];
    const td vr = td_mul(rd, om);                /* rolling speed rd Omega */
    const td vsx = td_sub(a[HS_TIRE_VX], vr);    /* slip velocities */
    const td vsy = a[HS_TIRE_VY];
    /* Rill's modified slips with the fictitious velocity vN */
    const td vstar = td_addc(td_abs(vr), p->vN);
    const td sx = td_scale(td_div(vsx, vstar), HS_R(-1.0));
    const td sy = td_scale(td_div(vsy, vstar), HS_R(-1.0));
    /* camber and bore slips (cb_slips) */
    const td L = length_d(p, Fz);
    cb_slip cs;
    /* both off (the planar cars, the element's default): none of their work */
    if ((p->kgam > HS_R(0.0)) || (p->kbore > HS_R(0.0))) {
        cb_slips(p, a, L, vsy, sy, vstar, &cs);
    } else {
        cb_init(&cs, vsy, sy);
    }
    const int bore = cs.bore;
    /* Mzs: the steady torque, unused here (Mz below uses the trail with the dynamic force) */
    td Fxs = zero, Fys = zero, Mzs = zero, bx = zero, by = zero, ntr = zero, fb = zero;
    if (Fz.v > HS_R(0.0)) {
        steady_d(p, Fz, L, sx, cs.syf, sy, cs.sb, bore, &Fxs, &Fys, &Mzs, &bx, &by, &ntr, &fb);
    }
    /* tread dynamics (Rill's first order): c e + d e' = -(b/vc)(vs + e') solved for e'. The
     * transport velocity vc fades vN out at standstill, vc = |vr| + vN w2/(w2 + vN^2) + veps,
     * w2 = vsx^2 + vsy^2 + vr^2, so that a tire at rest is a spring-damper (no creep). */
    const hs_real vN2 = p->vN * p->vN;
    td w2 = td_add(td_add(td_mul(vsx, vsx), td_mul(vsy, vsy)), td_mul(vr, vr));
    if (bore != 0) {
        /* a patch turning at standstill slides too: the bore's slip velocity in w2 */
        w2 = td_add(w2, td_mul(cs.vb, cs.vb));
    }
    const td g = td_div(w2, td_addc(w2, vN2));
    const td vc = td_addc(td_add(td_abs(vr), td_scale(g, p->vN)), p->vN * HS_R(1e-6));
    const td xe = a[HS_TIRE_XE], ye = a[HS_TIRE_YE];
    const td numx = td_add(td_mul(td_scale(vc, p->cx), xe), td_mul(bx, vsx));
    const td denx = td_add(td_scale(vc, p->dx), bx);
    const td dxe = td_scale(td_div(numx, denx), HS_R(-1.0));
    const td numy = td_add(td_mul(td_scale(vc, p->cy), ye), td_mul(by, cs.vsyf));
    const td deny = td_add(td_scale(vc, p->dy), by);
    const td dye = td_scale(td_div(numy, deny), HS_R(-1.0));
    const td Fx = td_add(td_scale(xe, p->cx), td_scale(dxe, p->dx));
    const td Fy = td_add(td_scale(ye, p->cy), td_scale(dye, p->dy));
    /* aligning torque: the steady state's pneumatic trail n(sy) times the dynamic force, less
     * the camber's steady share by sg/3 (a parabolic deflection: no trail) */
    const td Fyt = (p->kgam > HS_R(0.0)) ? td_sub(Fy, td_mul(by, cs.sgq)) : Fy;
    const td Mz = td_scale(td_mul(ntr, Fyt), HS_R(-1.0));
    /* bore torque (bore_dyn) */
    td Tbo = zero, dpsi = zero;
    if (bore != 0) {
        bore_dyn(p, cs.rb, fb, vc, a[HS_TIRE_PSI], a[HS_TIRE_WN], &Tbo, &dpsi);
    }
    /* rolling resistance: -fr Fz rd, smoothed through zero spin over vN */
    const td sgn = td_div(vr, td_sqrt(td_addc(td_mul(vr, vr), vN2)));
    const td Ty = td_scale(td_mul(td_mul(Fz, rd), sgn), -p->fr);
    /* brake: Dahl, zb' = sigma (Omega - |Omega| zb), T = -Tb (zb + tau zb'), with the bristle
     * stiffness sigma = sigma_b / (1 + |Omega|/omega_b), so sigma |Omega| <= sigma_b omega_b.
     * tau sigma_b omega_b <= 1 (hs_tire_par_check) makes zb + tau zb' = (1 - tau sigma |Omega|) zb
     * + tau sigma Omega a convex combination of zb and sign(Omega): with |zb| <= 1 the torque never
     * exceeds the rating Tb, sliding it is exactly Tb, and explicit Euler on zb keeps |zb| <= 1
     * (h sigma |Omega| <= 1). |Omega| is not smoothed: a smoothed |Omega|_s < |Omega| let the
     * sliding zb settle at Omega/|Omega|_s > 1, so the brake held 7.5 % above its rating by
     * creeping; and the earlier tau sigma_b omega_b = 25 let the torque overshoot Tb 25-fold on
     * engagement, a stiff damping Tb tau sigma_b that jumped to 0 when the brake slid, which the
     * default method's one Newton step per stage turned into a 4-step cycle of a braked wheel at
     * rest (model/TIRE.md "Low speed and standstill") */
    td dzb, Tbr;
    brake_d(p, om, a[HS_TIRE_ZB], Tb, &dzb, &Tbr);
    const td *res[HS_TIRE_NRES];
    res[HS_TIRE_FZ] = &Fz;
    res[HS_TIRE_FX] = &Fx;
    res[HS_TIRE_FY] = &Fy;
    res[HS_TIRE_MZ] = &Mz;
    res[HS_TIRE_TY] = &Ty;
    res[HS_TIRE_TB] = &Tbr;
    res[HS_TIRE_TBO] = &Tbo;
    res[HS_TIRE_DXE] = &dxe;
    res[HS_TIRE_DYE] = &dye;
    res[HS_TIRE_DZB] = &dzb;
    res[HS_TIRE_DPSI] = &dpsi;
    const int ok = out_put(o, res, c0, nd);
    o->rd = rd.v;
    o->sx = sx.v;
    o->sy = sy.v;
    o->Fxs = Fxs.v;
    o->Fys = Fys.v;
    return (ok != 0) ? HS_OK : HS_E_NONFINITE;
}

#ifndef HS_TIRE_VALUES_ONLY
hs_status hs_tire_eval(const hs_tire_par *p, const hs_real *arg, hs_real Tb, hs_tire_out *o)
{
    hs_status rc = HS_OK;
    for (int c0 = 0; c0 < (int)ND; c0 += TD_N) {
        const int rk = eval_core(p, arg, Tb, o, c0, ((int)ND - c0 < TD_N) ? (int)ND - c0 : TD_N);
        if (rk != (int)HS_OK) {
            rc = rk;
        }
    }
    return rc;
}

hs_status hs_tire_eval_mech(const hs_tire_par *p, const hs_real *arg, hs_real Tb, hs_tire_out *o)
{
    hs_status rc = HS_OK;
    /* the columns up to OM, OC (in the second pass anyway), WN with the bore (a third pass) */
    const int nc = (p->kbore > HS_R(0.0)) ? (int)HS_TIRE_XE : (int)HS_TIRE_WN;
    for (int c0 = 0; c0 < nc; c0 += TD_N) {
        const int rk = eval_core(p, arg, Tb, o, c0, TD_N);
        if (rk != (int)HS_OK) {
            rc = rk;
        }
    }
    return rc;
}

hs_status hs_tire_eval_vel(const hs_tire_par *p, const hs_real *arg, hs_real Tb, hs_tire_out *o)
{
    return eval_core(p, arg, Tb, o, HS_TIRE_VX, 3);
}

#else
hs_status hs_tire_eval_values(const hs_tire_par *p, const hs_real *arg, hs_real Tb, hs_tire_out *o)
{
    return eval_core(p, arg, Tb, o, 0, 0);
}
#endif
