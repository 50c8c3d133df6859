/* hs_mb_el_engine.c - force element "engine": a combustion engine's torque map on a shaft, the
 * spin w (rad/s) of spatial body a (crank and flywheel: its inertia is the engine's) against
 * body b (the block; ground when left out) about the unit axis (both bodies' frames):
 *   T(w, p) on a, -T on b (N m), p the pedal input in [0, 1],
 * bilinear in the table of speeds t= (rad/s, >= 2, strictly increasing) by pedal levels
 * pedal= (>= 2, strictly increasing from 0 to 1) with values v= (N m, speed-major:
 * v[i np + j] = T(t_i, p_j)). Outside the speeds: below t_0 (idle, stall, turning backwards)
 * the values at t_0 hold; above the last speed the torque is 0 (the fuel cut-off of a rev
 * limiter); at it, the table's value. dT/dw (the stepper's force Jacobian fu through
 * mb_spin_load) is the map's slope inside the segment and 0 outside the speeds; the jumps at
 * the cut-off and at breakpoints are left out of it. A pedal outside [0, 1] or not a number
 * refuses the step (HS_E_INPUT): the description declares `input pedal min=0 max=1`, whose
 * signal map clamps it and counts the clamp (`clamped`, model/FORMAT.md "Signals"), so
 * nothing here changes an input without a count. The spin is mb_spin_eval's twist rate. */
#include "hs_mb_int.h"

/* 1 when the initial frames of spatial body A and of B (ground: B < 0) differ by a turn about
 * the unit axis n alone: the vector part of conj(p_B) p_A is parallel to n (within 1e-6). */
static int turn_about(const hs_mb_desc *D, int A, int B, const hs_real *n)
{
    static const hs_real one[4] = {1, 0, 0, 0};
    const hs_real *a = D->bodies[A].rot, *b = (B >= 0) ? D->bodies[B].rot : one;
    /* vec(conj(b) a) = b0 va - a0 vb - vb x va */
    hs_real v[3];
    v[0] = (b[0] * a[1]) - (a[0] * b[1]) - ((b[2] * a[3]) - (b[3] * a[2]));
    v[1] = (b[0] * a[2]) - (a[0] * b[2]) - ((b[3] * a[1]) - (b[1] * a[3]));
    v[2] = (b[0] * a[3]) - (a[0] * b[3]) - ((b[1] * a[2]) - (b[2] * a[1]));
    const hs_real vn = mb_dot3(v, n);
    hs_real e2 = HS_R(0.0);
    for (int i = 0; i < 3; ++i) { const hs_real d = v[i] - (vn * n[i]); e2 += d * d; }
    return (e2 <= HS_R(1e-12)) ? 1 : 0;
}

uint32_t mb_shaft_check(const hs_mb_desc *D, const hs_mb_force *E, const char **why)
{
    const int a = E->a.body, b = E->b.body, c = E->bc - 1, d = E->bd - 1;
    if (D->dim != 3) { *why = "a driveline element needs dim=3 (spatial shafts)"; return MB_K_A; }
    if ((a < 0) || (D->bodies[a].kind != HS_MB_SPATIAL)) { *why = "must be a spatial body"; return MB_K_A; }
    if ((b >= 0) && (D->bodies[b].kind != HS_MB_SPATIAL)) { *why = "must be a spatial body or ground"; return MB_K_B; }
    if (a == b) { *why = "must differ from a"; return MB_K_B; }
    if ((E->bc > 0) && ((c >= D->nbodies) || (D->bodies[c].kind != HS_MB_SPATIAL))) {
        *why = "must be a spatial body"; return ((E->kind == HS_MB_GEARBOX) ? MB_K_OUT : MB_K_LEFT);
    }
    if ((E->bc > 0) && ((c == a) || (c == b))) { *why = "must differ from a and b"; return ((E->kind == HS_MB_GEARBOX) ? MB_K_OUT : MB_K_LEFT); }
    if ((E->bd > 0) && ((d >= D->nbodies) || (D->bodies[d].kind != HS_MB_SPATIAL))) { *why = "must be a spatial body"; return MB_K_RIGHT; }
    if ((E->bd > 0) && ((d == a) || (d == b) || (d == c))) { *why = "must differ from a, b and left"; return MB_K_RIGHT; }
    if (mb_is_unit3(E->axis) == 0) { *why = "the shafts' axis must be a unit vector (each body's frame)"; return MB_K_AXIS; }
    /* the spin is the twist about axis of each shaft against b: their frames start a turn about it apart */
    if ((turn_about(D, a, b, E->axis) == 0) || ((E->bc > 0) && (turn_about(D, c, b, E->axis) == 0)) ||
        ((E->bd > 0) && (turn_about(D, d, b, E->axis) == 0))) {
        *why = "a shaft's initial frame differs from b's by more than a turn about axis"; return MB_K_AXIS;
    }
    return 0u;
}

static uint32_t check(const hs_mb_desc *D, const hs_mb_force *E, const char **why)
{
    const uint32_t bad = mb_shaft_check(D, E, why);
    if (bad != 0u) { return bad; }
    const hs_mb_table *tb = E->tab;
    if (!(E->scale > HS_R(0.0))) { *why = "the engine's speed over the shaft's must be > 0"; return MB_K_SCALE; }
    if ((tb == NULL) || (tb->n < 2) || (tb->np < 2) || (tb->np > HS_MB_MAX_PL) || ((tb->n * tb->np) > HS_MB_MAX_TAB)) {
        *why = "a map needs >= 2 speeds t= and >= 2 pedal levels pedal=, at most 32 values v="; return MB_K_T;
    }
    for (int i = 1; i < tb->n; ++i) {
        if (!(tb->t[i] > tb->t[i - 1])) { *why = "speeds must be strictly increasing"; return MB_K_T; }
    }
    if (!((tb->p[0] == HS_R(0.0)) && (tb->p[tb->np - 1] == HS_R(1.0)))) { *why = "pedal levels must run from 0 to 1"; return MB_K_PEDAL; }
    for (int j = 1; j < tb->np; ++j) {
        if (!(tb->p[j] > tb->p[j - 1])) { *why = "pedal levels must be strictly increasing"; return MB_K_PEDAL; }
    }
    return 0u;
}

static int inputs(const hs_mb_desc *D, const hs_mb_force *E, const char *suffix[3])
{
    (void)D; (void)E;
    suffix[0] = ".pedal (1)";
    return 1;
}

/* The segment k of x in the n increasing breakpoints b (b[k] <= x, k <= n - 2; the first for
 * x below b[0]) and the fraction (x - b[k]) / (b[k+1] - b[k]) in [0, 1] into *s. */
static int segment(const hs_real *b, int n, hs_real x, hs_real *s)
{
    int k = 0;
    for (int i = 1; i < (n - 1); ++i) {
        if (x >= b[i]) { k = i; } /* every breakpoint is visited: fixed work */
    }
    hs_real f = (x - b[k]) / (b[k + 1] - b[k]);
    if (f < HS_R(0.0)) { f = HS_R(0.0); }
    if (f > HS_R(1.0)) { f = HS_R(1.0); }
    *s = f;
    return k;
}

/* T(w, p) of map tb (N m) and dT/dw into *dw (the treatment outside the speeds above). */
static hs_real engine_map(const hs_mb_table *tb, hs_real w, hs_real p, hs_real *dw)
{
    const int np = tb->np;
    *dw = HS_R(0.0);
    if (w > tb->t[tb->n - 1]) { return HS_R(0.0); }
    hs_real s, r;
    const int i = segment(tb->t, tb->n, w, &s);
    const int j = segment(tb->p, np, p, &r);
    const hs_real v00 = tb->v[(i * np) + j], v10 = tb->v[((i + 1) * np) + j];
    const hs_real v01 = tb->v[(i * np) + j + 1], v11 = tb->v[((i + 1) * np) + j + 1];
    const hs_real lo = v00 + (s * (v10 - v00)), hi = v01 + (s * (v11 - v01));
    if (w >= tb->t[0]) { *dw = (((HS_R(1.0) - r) * (v10 - v00)) + (r * (v11 - v01))) / (tb->t[i + 1] - tb->t[i]); }
    return lo + (r * (hi - lo));
}

static int eval(const hs_mb_model *mb, int e, hs_real t, const hs_real *q, const hs_real *u,
                const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu)
{
    (void)t;
    const hs_mb_force *E = &mb->desc->forces[e];
    const hs_real p = in[E->in0];
    if (!((p >= HS_R(0.0)) && (p <= HS_R(1.0)))) { return HS_E_INPUT; }
    mb_spin s;
    const hs_status rc = mb_spin_eval(mb, E->a.body, E->b.body, E->axis, q, u, &s);
    if (rc != HS_OK) { return rc; }
    /* the engine turns at k times the shaft (scale= k, default 1): T on the engine is k T on
     * the shaft, d(k T)/dw_shaft = k^2 dT/dw_e */
    const hs_real k = E->scale;
    mb_spin_jac D = {{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}};
    hs_real dT;
    const hs_real tau = k * engine_map(E->tab, k * s.w, p, &dT);
    D.d[0][0] = k * k * dT;
    mb_spin_load(mb, &s, 1, &tau, &D, f, fq, fu);
    return HS_OK;
}

const mb_force_elem mb_el_engine = {
    "engine", "HS_MB_ENGINE", MB_K_A | MB_K_B | MB_K_AXIS | MB_K_IN | MB_K_T | MB_K_V | MB_K_PEDAL | MB_K_SCALE,
    MB_K_A | MB_K_AXIS | MB_K_IN | MB_K_T | MB_K_V | MB_K_PEDAL, check, inputs, eval, NULL,
    .passive = MB_NO, .spring = MB_NO, .hinge = MB_NO, .tire = MB_NO};
