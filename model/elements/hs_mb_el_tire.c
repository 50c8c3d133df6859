/* hs_mb_el_tire.c - force element "tire": Rill's TMeasy tire (model/vehicle/hs_tire.h, model/TIRE.md)
 * between a spatial wheel body and a flat road, with the wheel's brake and drive reacting on its
 * carrier body b (or ground).
 *
 * Geometry. The road normal n is the ground z axis; the road height under the wheel is
 * h = road input + tab(x) (the ECU's road= input plus a profile table over ground x, t= the x
 * positions, v= the heights; a slope is a tilted gravity vector). With the wheel centre c
 * (point a), its velocity v, the spin axis e = R(p) axis and the steering angle delta (steer=)
 * (turns the heading about n: a massless knuckle, the spin inertia is not steered):
 * x0 = (e x n)/|e x n|, x = cos delta x0 + sin delta (n x x0), y = n x x; pen = r0 - (c_z - h),
 * pen' = -(v_z - h'(c_x) v_x), vx = x.v, vy = y.v, Omega = axis . w_body (the wheel's own spin).
 * hs_tire_eval gives Fz, Fx, Fy, Mz, the rolling resistance Ty and the brake torque Tb; the
 * road's force F = Fx x + Fy y + Fz n acts at the contact point c - rd n, i.e. F at c plus the
 * torque rd (Fy x - Fx y); Mz n, (Ty + Tb + Td) e act on the wheel and -(Tb + Td) e on b.
 * Steered, the knuckle's torque -kn e on the wheel and kn e on b, kn = rd (Fx (1 - cos delta) +
 * Fy sin delta), makes the spin's share of the contact torque -rd Fx (model/TIRE.md).
 *
 * camber=on: the camber spin oc = Omega e.n (the wheel's lean against n) enters as Rill's camber
 * slip; bore=on: the wheel's spin about n, wn = n . 2 E(p) p', gives the bore torque T_B n on the
 * wheel (model/TIRE.md "Camber and bore torque"); both off when left out (p->kgam, kbore = 0).
 *
 * States (3, the element table's auxiliary states; 4 with bore=on): the tread deflections xe,
 * ye (m), the brake's Dahl state zb and the torsional tread psi (rad), advanced by the stepper
 * from hs_tire_eval's rates.
 *
 * Derivatives: every quantity is a value with its gradient over the wheel's 7 coordinates and
 * 7 velocities (forward mode through the closed forms above), chained with hs_tire_eval's exact
 * Jacobian; the q-dependence of J^T F and of the torque map 2 E(p)^T T comes from the shared
 * helpers. Checked against central differences in test/mb/test_mb_deriv.c. */
#include "hs_mb_int.h"
#include "hs_math.h"
#ifndef HS_NO_VEHICLES
#include "hs_tire.h"
#endif

static uint32_t check(const hs_mb_desc *D, const hs_mb_force *E, const char **why)
{
#ifdef HS_NO_VEHICLES
    (void)D; (void)E;
    *why = "the tire element is not in this build (host only, model/TIRE.md)";
    return MB_K_A;
#else
    if (D->dim != 3) { *why = "a tire needs dim=3"; return MB_K_A; }
    if (E->a.body < 0 || D->bodies[E->a.body].kind != HS_MB_SPATIAL) { *why = "a must be a point on a spatial wheel body"; return MB_K_A; }
    if (E->b.body == E->a.body || (E->b.body >= 0 && D->bodies[E->b.body].kind != HS_MB_SPATIAL)) {
        *why = "b must be the wheel's spatial carrier body or ground";
        return MB_K_B;
    }
    if (mb_is_unit3(E->axis) == 0) { *why = "the spin axis must be a unit vector"; return MB_K_AXIS; }
    if (!(E->k >= HS_R(0.0))) { *why = "tire stiffness must be >= 0 (0: the data set's)"; return MB_K_K; }
    if (!(E->c >= HS_R(0.0))) { *why = "tire damping must be >= 0 (0: the data set's)"; return MB_K_C; }
    if (!(E->l0 >= HS_R(0.0))) { *why = "the unloaded radius must be >= 0 (0: the data set's)"; return MB_K_L0; }
    if (!(E->scale > HS_R(0.0))) { *why = "the road friction scale= must be > 0 (1: the tire data's road)"; return MB_K_SCALE; }
    if (E->tab != NULL) {
        for (int i = 1; i < E->tab->n; ++i) {
            if (!(E->tab->t[i] > E->tab->t[i - 1])) { *why = "road profile x positions must increase"; return MB_K_T; }
        }
    }
    return 0u;
#endif
}

static int inputs(const hs_mb_desc *D, const hs_mb_force *E, const char *suffix[3])
{
    (void)D; (void)E;
    suffix[0] = ".drive (N m)";
    suffix[1] = ".brake (N m)";
    return 2;
}


#ifndef HS_NO_VEHICLES

#define NV 14 /* the wheel's q (7) and u (7) */
#define HS_MB_TIRE_MU_MAX HS_R(2.0) /* largest road friction a mu= input may set */
/* The optional inputs steer= and road= (stored 1 + index): their value, 0 without one. */
static hs_real opt_in(const hs_real *in, int k1)
{
    return (k1 > 0) ? in[k1 - 1] : HS_R(0.0);
}


/* A value and its gradient over the wheel's coordinates and velocities, for the Jacobian's
 * evaluation (the helpers carry nd = NV partials; the values-only evaluations take tire_eval_v,
 * the same operations on plain reals). */
typedef struct gv {
    hs_real v;
    hs_real d[NV];
} gv;

static gv g_c(hs_real v)
{
    gv r;
    r.v = v;
    /* every partial set, also when none is carried: no copy reads an unset one */
    for (int i = 0; i < NV; ++i) { r.d[i] = HS_R(0.0); }
    return r;
}

static gv g_lin(int nd, hs_real ka, const gv *a, hs_real kb, const gv *b)
{
    gv r;
    r.v = ka * a->v + kb * b->v;
    for (int i = 0; i < nd; ++i) { r.d[i] = ka * a->d[i] + kb * b->d[i]; }
    return r;
}

static gv g_mul(int nd, const gv *a, const gv *b)
{
    gv r;
    r.v = a->v * b->v;
    for (int i = 0; i < nd; ++i) { r.d[i] = b->v * a->d[i] + a->v * b->d[i]; }
    return r;
}

/* The element's tire data: Rill's car set (data=truck: hs_tire_par_truck, the truck-trailer's
 * stand-in) with r0, cz, dz from l0, k, c where given, on a road
 * of relative friction scale= (1 when left out: the data's road), or the mu= input's value when
 * it is > 0 (a rig's friction actuator; 0: scale=). HS_E_INPUT for a mu= input outside
 * [0, HS_MB_TIRE_MU_MAX] or not a number (the signal map clamps into the input's range first). */
static int tire_data(const hs_mb_force *E, const hs_real *in, hs_tire_par *p)
{
    if (E->tset != 0) { hs_tire_par_truck(p); } else { hs_tire_par_car(p); }
    p->mu = E->scale;
    const hs_real mi = opt_in(in, E->in3);
    if (!(mi >= HS_R(0.0) && mi <= HS_MB_TIRE_MU_MAX)) { return HS_E_INPUT; }
    if (mi > HS_R(0.0)) { p->mu = mi; }
    if (E->l0 > HS_R(0.0)) { p->r0 = E->l0; }
    if (E->k > HS_R(0.0)) { p->cz = E->k; }
    if (E->c > HS_R(0.0)) { p->dz = E->c; }
    /* camber=, bore= (off when left out: the description's figures before them, TIRE.md) */
    if (E->camb == 0) { p->kgam = HS_R(0.0); }
    if (E->bore == 0) { p->kbore = HS_R(0.0); }
    return HS_OK;
}

/* Everything one evaluation needs. */
typedef struct tire_kin {
    mb_pk kc;            /* wheel centre */
    gv c[3], v[3];       /* centre, its velocity */
    gv x[3], y[3];       /* heading and lateral axis (ground) */
    gv e[3];             /* spin axis (ground) */
    hs_real n[3];        /* road normal (ground): z, or normal=profile's (-h', 0, 1)/|.| */
    gv arg[HS_TIRE_NARG];
} tire_kin;

/* a x b of gradient vectors where b is a constant vector */
static void g_cross_c(int nd, const gv *a, const hs_real *b, gv *r)
{
    r[0] = g_lin(nd, b[2], &a[1], -b[1], &a[2]);
    r[1] = g_lin(nd, b[0], &a[2], -b[2], &a[0]);
    r[2] = g_lin(nd, b[1], &a[0], -b[0], &a[1]);
}

/* normal=profile: the heading from the tilted normal n (constant on a profile segment, its
 * kink at a breakpoint left out of the Jacobian like the slope in pen'): x0 = (e x n)/|e x n|
 * turned by delta about n, y = n x x; HS_E_MODEL for a wheel with no heading. */
static int heading_tilted(int nd, tire_kin *K, hs_real delta)
{
    gv x0[3], m0[3], t[3];
    const hs_real *n = K->n;
    gv a[3];
    /* e x n = -(n x e) */
    g_cross_c(nd, K->e, n, a);
    const gv a0 = g_mul(nd, &a[0], &a[0]), a1 = g_mul(nd, &a[1], &a[1]), a2 = g_mul(nd, &a[2], &a[2]);
    gv rho2 = g_lin(nd, HS_R(1.0), &a0, HS_R(1.0), &a1);
    rho2 = g_lin(nd, HS_R(1.0), &rho2, HS_R(1.0), &a2);
    const hs_real ee = K->e[0].v * K->e[0].v + K->e[1].v * K->e[1].v + K->e[2].v * K->e[2].v;
    if (!(rho2.v > HS_R(1e-12) * (ee + HS_R(1e-30)))) { return HS_E_MODEL; }
    const hs_real rho = hs_sqrt(rho2.v), irho = HS_R(1.0) / rho;
    for (int k = 0; k < 3; ++k) {
        x0[k].v = a[k].v * irho;
        for (int i = 0; i < nd; ++i) { x0[k].d[i] = a[k].d[i] * irho - a[k].v * rho2.d[i] * HS_R(0.5) * irho * irho * irho; }
        for (int i = nd; i < NV; ++i) { x0[k].d[i] = HS_R(0.0); }
    }
    /* m0 = n x x0 = -(x0 x n) */
    g_cross_c(nd, x0, n, t);
    for (int k = 0; k < 3; ++k) { m0[k] = g_lin(nd, -HS_R(1.0), &t[k], HS_R(0.0), &t[k]); }
    hs_real sd, cd;
    hs_sincos(delta, &sd, &cd);
    for (int k = 0; k < 3; ++k) { K->x[k] = g_lin(nd, cd, &x0[k], sd, &m0[k]); }
    g_cross_c(nd, K->x, n, t);
    for (int k = 0; k < 3; ++k) { K->y[k] = g_lin(nd, -HS_R(1.0), &t[k], HS_R(0.0), &t[k]); }
    return HS_OK;
}

/* normal=profile: n = (-h', 0, 1)/sqrt(1 + h'^2) of the profile's segment under the centre; the
 * penetration along n, pen = r0 - (c_z - h) n_z (the distance from the segment's line),
 * pen' = -n.v, vx = x.v, vy = y.v in the tilted contact frame (heading_tilted). */
static int tire_kin_tilted(const hs_mb_force *E, const hs_tire_par *tp, const hs_real *z, const hs_real *in,
                           int nd, hs_real h, hs_real hs, const gv *om, tire_kin *K)
{
    const hs_real nz = HS_R(1.0) / hs_sqrt(HS_R(1.0) + hs * hs);
    K->n[0] = -hs * nz; K->n[1] = HS_R(0.0); K->n[2] = nz;
    const int rc = heading_tilted(nd, K, opt_in(in, E->in1));
    if (rc != (int)HS_OK) { return rc; }
    gv pen = K->c[2];
    pen.v = tp->r0 - (K->c[2].v - h) * nz;
    for (int i = 0; i < nd; ++i) { pen.d[i] = -(K->c[2].d[i] - hs * K->c[0].d[i]) * nz; }
    const gv pend = g_lin(nd, -K->n[2], &K->v[2], -K->n[0], &K->v[0]);
    const gv a0 = g_mul(nd, &K->x[0], &K->v[0]), a1 = g_mul(nd, &K->x[1], &K->v[1]), a2 = g_mul(nd, &K->x[2], &K->v[2]);
    const gv b0 = g_mul(nd, &K->y[0], &K->v[0]), b1 = g_mul(nd, &K->y[1], &K->v[1]), b2 = g_mul(nd, &K->y[2], &K->v[2]);
    const gv a01 = g_lin(nd, HS_R(1.0), &a0, HS_R(1.0), &a1), b01 = g_lin(nd, HS_R(1.0), &b0, HS_R(1.0), &b1);
    K->arg[HS_TIRE_PEN] = pen;
    K->arg[HS_TIRE_PEND] = pend;
    K->arg[HS_TIRE_VX] = g_lin(nd, HS_R(1.0), &a01, HS_R(1.0), &a2);
    K->arg[HS_TIRE_VY] = g_lin(nd, HS_R(1.0), &b01, HS_R(1.0), &b2);
    K->arg[HS_TIRE_OM] = *om;
    K->arg[HS_TIRE_XE] = g_c(z[0]);
    K->arg[HS_TIRE_YE] = g_c(z[1]);
    K->arg[HS_TIRE_ZB] = g_c(z[2]);
    return HS_OK;
}

/* HS_OK, or HS_E_MODEL when the spin axis stands along the road normal (no heading).
 * nd: partials carried (NV with the Jacobian, 0 for values only). */
static int tire_kin_eval(const hs_mb_model *mb, const hs_mb_force *E, const hs_tire_par *tp, hs_real t,
                         const hs_real *q, const hs_real *u, const hs_real *z, const hs_real *in, int nd,
                         tire_kin *K)
{
    const int w = E->a.body, o = mb->qoff[w];
    const hs_mb_opnd oa = mb_op_point(&E->a), oe = mb_op_dir(w, E->axis);
    mb_pk ke;
    mb_point_kin(mb, &oa, t, q, u, &K->kc);
    mb_point_kin(mb, &oe, t, q, u, &ke);
    hs_real Dc[3][7];
    if (nd > 0) { mb_point_dju(mb, &oa, q, u, Dc); }
    for (int i = 0; i < 3; ++i) {
        K->c[i] = g_c(K->kc.r[i]);
        K->v[i] = g_c(K->kc.v[i]);
        K->e[i] = g_c(ke.r[i]);
        for (int j = 0; (nd > 0) && (j < 7); ++j) {
            K->c[i].d[j] = K->kc.J[i][j];
            K->v[i].d[j] = Dc[i][j];
            K->v[i].d[7 + j] = K->kc.J[i][j];
            K->e[i].d[j] = ke.J[i][j];
        }
    }
    /* spin: axis . w_body, w_body = 2 G(p) p' (G linear in p) */
    const hs_real *p = &q[o + 3], *pd = &u[o + 3];
    hs_real G[3][4];
    mb_quat_G(p, G);
    gv om = g_c(HS_R(0.0));
    for (int j = 0; j < 4; ++j) {
        hs_real ej[4] = {0, 0, 0, 0}, Gj[3][4];
        ej[j] = HS_R(1.0);
        mb_quat_G(ej, Gj);
        hs_real dq = HS_R(0.0), du = HS_R(0.0);
        for (int r = 0; r < 3; ++r) {
            du += HS_R(2.0) * E->axis[r] * G[r][j];
            dq += HS_R(2.0) * E->axis[r] * (Gj[r][0] * pd[0] + Gj[r][1] * pd[1] + Gj[r][2] * pd[2] + Gj[r][3] * pd[3]);
        }
        om.v += du * pd[j];
        if (nd > 0) {
            om.d[3 + j] = dq;
            om.d[7 + 3 + j] = du;
        }
    }
    /* road height and slope under the centre */
    hs_real h = opt_in(in, E->in2), hs = HS_R(0.0);
    if (E->tab != NULL && E->tab->n > 0) {
        const hs_mb_table *tb = E->tab;
        const hs_real cx = K->c[0].v;
        h += mb_table_eval(tb, cx);
        for (int i = 1; i < tb->n; ++i) {
            /* the segment's slope inside it, 0 outside the table (held ends) */
            if (cx > tb->t[i - 1] && cx < tb->t[i]) { hs = (tb->v[i] - tb->v[i - 1]) / (tb->t[i] - tb->t[i - 1]); }
        }
    }
    if (E->tilt != 0) { return tire_kin_tilted(E, tp, z, in, nd, h, hs, &om, K); }
    K->n[0] = HS_R(0.0); K->n[1] = HS_R(0.0); K->n[2] = HS_R(1.0);
    /* heading: x0 = (e_y, -e_x, 0) / |.|, turned by delta about n = z */
    const gv ex2 = g_mul(nd, &K->e[0], &K->e[0]), ey2 = g_mul(nd, &K->e[1], &K->e[1]);
    const gv rho2 = g_lin(nd, HS_R(1.0), &ex2, HS_R(1.0), &ey2);
    /* a wheel lying flat (also a non-finite state) has no heading: refused, no division by 0 */
    if (!(rho2.v > HS_R(1e-12) * (mb_dot3(ke.r, ke.r) + HS_R(1e-30)))) { return HS_E_MODEL; }
    const hs_real rho = hs_sqrt(rho2.v), irho = HS_R(1.0) / rho;
    gv x0x = K->e[1], x0y = K->e[0];
    for (int i = 0; i < nd; ++i) {
        /* d(a/rho) = da/rho - a drho2/(2 rho^3) */
        x0x.d[i] = K->e[1].d[i] * irho - K->e[1].v * rho2.d[i] * HS_R(0.5) * irho * irho * irho;
        x0y.d[i] = -(K->e[0].d[i] * irho - K->e[0].v * rho2.d[i] * HS_R(0.5) * irho * irho * irho);
    }
    x0x.v = K->e[1].v * irho;
    x0y.v = -K->e[0].v * irho;
    hs_real sd, cd;
    hs_sincos(opt_in(in, E->in1), &sd, &cd);
    K->x[0] = g_lin(nd, cd, &x0x, -sd, &x0y);
    K->x[1] = g_lin(nd, cd, &x0y, sd, &x0x);
    K->x[2] = g_c(HS_R(0.0));
    K->y[0] = g_lin(nd, -HS_R(1.0), &K->x[1], HS_R(0.0), &K->x[1]);
    K->y[1] = K->x[0];
    K->y[2] = g_c(HS_R(0.0));
    gv pen = K->c[2];
    pen.v = tp->r0 - (K->c[2].v - h);
    for (int i = 0; i < nd; ++i) { pen.d[i] = -(K->c[2].d[i] - hs * K->c[0].d[i]); }
    const gv pend = g_lin(nd, -HS_R(1.0), &K->v[2], hs, &K->v[0]);
    const gv a0 = g_mul(nd, &K->x[0], &K->v[0]), a1 = g_mul(nd, &K->x[1], &K->v[1]);
    const gv b0 = g_mul(nd, &K->y[0], &K->v[0]), b1 = g_mul(nd, &K->y[1], &K->v[1]);
    K->arg[HS_TIRE_PEN] = pen;
    K->arg[HS_TIRE_PEND] = pend;
    K->arg[HS_TIRE_VX] = g_lin(nd, HS_R(1.0), &a0, HS_R(1.0), &a1);
    K->arg[HS_TIRE_VY] = g_lin(nd, HS_R(1.0), &b0, HS_R(1.0), &b1);
    K->arg[HS_TIRE_OM] = om;
    K->arg[HS_TIRE_XE] = g_c(z[0]);
    K->arg[HS_TIRE_YE] = g_c(z[1]);
    K->arg[HS_TIRE_ZB] = g_c(z[2]);
    return HS_OK;
}

/* d(n . 2 E(p) p')/dp_j and /dp'_j (E linear in p): the wheel's spin about the road normal n */
static hs_real wn_terms(const hs_real *n, const hs_real *p, const hs_real *pd, int j, hs_real *dq)
{
    hs_real Ep[3][4], Ej[3][4], ej[4] = {0, 0, 0, 0};
    mb_quat_E(p, Ep);
    ej[j] = HS_R(1.0);
    mb_quat_E(ej, Ej);
    hs_real du = HS_R(0.0), d = HS_R(0.0);
    for (int r = 0; r < 3; ++r) {
        du += HS_R(2.0) * n[r] * Ep[r][j];
        d += HS_R(2.0) * n[r] * (Ej[r][0] * pd[0] + Ej[r][1] * pd[1] + Ej[r][2] * pd[2] + Ej[r][3] * pd[3]);
    }
    *dq = d;
    return du;
}

/* The arguments OC (camber spin Omega e.n, camber=on), WN (the wheel's spin about n, bore=on)
 * and PSI (the bore's state z[3]) with their gradients; 0 when off (n constant, as in pen'). */
static void normal_spins(const hs_mb_model *mb, const hs_mb_force *E, const hs_real *q, const hs_real *u,
                         const hs_real *z, int nd, tire_kin *K)
{
    K->arg[HS_TIRE_OC] = g_c(HS_R(0.0));
    K->arg[HS_TIRE_WN] = g_c(HS_R(0.0));
    K->arg[HS_TIRE_PSI] = g_c((E->bore != 0) ? z[3] : HS_R(0.0));
    if (E->camb != 0) {
        gv en = g_c(HS_R(0.0));
        for (int i = 0; i < 3; ++i) { en = g_lin(nd, HS_R(1.0), &en, K->n[i], &K->e[i]); }
        K->arg[HS_TIRE_OC] = g_mul(nd, &K->arg[HS_TIRE_OM], &en);
    }
    if (E->bore != 0) {
        const int o = mb->qoff[E->a.body];
        gv wn = g_c(HS_R(0.0));
        for (int j = 0; j < 4; ++j) {
            hs_real dq;
            const hs_real du = wn_terms(K->n, &q[o + 3], &u[o + 3], j, &dq);
            wn.v += du * u[o + 3 + j];
            if (nd > 0) {
                wn.d[3 + j] = dq;
                wn.d[7 + 3 + j] = du;
            }
        }
        K->arg[HS_TIRE_WN] = wn;
    }
}

/* The brake capacity input (N m): a capacity, so a negative one refuses the step. */
static int brake_of(const hs_mb_force *E, const hs_real *in, hs_real *Tb)
{
    *Tb = in[E->in0 + 1];
    return (*Tb >= HS_R(0.0)) ? HS_OK : HS_E_INPUT;
}

/* fq/fu (body row `row`, wheel columns) += 2 E(p_row)^T dT (dT: 3 x NV gradients of a torque). */
static void add_torque_grad(const hs_mb_model *mb, int row, int w, const hs_real *q, const gv *T,
                            hs_real *fq, hs_real *fu)
{
    hs_real Ep[3][4];
    mb_quat_E(&q[mb->qoff[row] + 3], Ep);
    int sq = 0, su = 0;
    hs_real *bq = mb_qq_block(mb, fq, row, w, &sq), *bu = mb_qq_block(mb, fu, row, w, &su);
    for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 7; ++j) {
            const hs_real aq = HS_R(2.0) * (Ep[0][i] * T[0].d[j] + Ep[1][i] * T[1].d[j] + Ep[2][i] * T[2].d[j]);
            const hs_real au = HS_R(2.0) * (Ep[0][i] * T[0].d[7 + j] + Ep[1][i] * T[1].d[7 + j] + Ep[2][i] * T[2].d[7 + j]);
            if (bq != NULL) { bq[(3 + i) * sq + j] += aq; }
            if (bu != NULL) { bu[(3 + i) * su + j] += au; }
        }
    }
}

/* ---- the values-only evaluation (force without fq, zdot, the outputs) ----
 * The same operations as the gradient path's values (g_lin's ka a + kb b, g_mul's a b, in the
 * same order, constants included), on plain reals: the gv path copied 15-real values and zeroed
 * 14 partials per operation for nothing here, ~4k of the ~6.4k instructions per wheel and call
 * (callgrind, car.hsm). Bit for bit the values of tire_eval (force_fj's f and force()'s f agree:
 * test/mb/test_mb_deriv.c). */

/* a x b for a constant b, as g_cross_c on values */
static void v_cross_c(const hs_real *a, const hs_real *b, hs_real *r)
{
    r[0] = b[2] * a[1] + -b[1] * a[2];
    r[1] = b[0] * a[2] + -b[2] * a[0];
    r[2] = b[1] * a[0] + -b[0] * a[1];
}

/* Everything one values-only evaluation needs (tire_kin without partials). */
typedef struct tire_kv {
    mb_pk kc;                  /* wheel centre */
    hs_real e[3], x[3], y[3];  /* spin axis, heading, lateral axis (ground) */
    hs_real n[3];              /* road normal (ground) */
    hs_real arg[HS_TIRE_NARG];
} tire_kv;

/* normal=profile on values: heading_tilted and tire_kin_tilted's arguments; HS_E_MODEL for a
 * wheel with no heading */
static int kin_tilted_v(const hs_mb_force *E, const hs_tire_par *tp, const hs_real *in, hs_real h, hs_real hs,
                        tire_kv *K)
{
    const hs_real nz = HS_R(1.0) / hs_sqrt(HS_R(1.0) + hs * hs);
    K->n[0] = -hs * nz; K->n[1] = HS_R(0.0); K->n[2] = nz;
    hs_real a[3], x0[3], m0[3], t[3];
    v_cross_c(K->e, K->n, a);
    const hs_real a0 = a[0] * a[0], a1 = a[1] * a[1], a2 = a[2] * a[2];
    hs_real rho2 = HS_R(1.0) * a0 + HS_R(1.0) * a1;
    rho2 = HS_R(1.0) * rho2 + HS_R(1.0) * a2;
    const hs_real ee = K->e[0] * K->e[0] + K->e[1] * K->e[1] + K->e[2] * K->e[2];
    if (!(rho2 > HS_R(1e-12) * (ee + HS_R(1e-30)))) { return HS_E_MODEL; }
    const hs_real irho = HS_R(1.0) / hs_sqrt(rho2);
    for (int k = 0; k < 3; ++k) { x0[k] = a[k] * irho; }
    v_cross_c(x0, K->n, t);
    for (int k = 0; k < 3; ++k) { m0[k] = -HS_R(1.0) * t[k] + HS_R(0.0) * t[k]; }
    hs_real sd, cd;
    hs_sincos(opt_in(in, E->in1), &sd, &cd);
    for (int k = 0; k < 3; ++k) { K->x[k] = cd * x0[k] + sd * m0[k]; }
    v_cross_c(K->x, K->n, t);
    for (int k = 0; k < 3; ++k) { K->y[k] = -HS_R(1.0) * t[k] + HS_R(0.0) * t[k]; }
    const hs_real *c = K->kc.r, *v = K->kc.v;
    K->arg[HS_TIRE_PEN] = tp->r0 - (c[2] - h) * nz;
    K->arg[HS_TIRE_PEND] = -K->n[2] * v[2] + -K->n[0] * v[0];
    const hs_real vx01 = HS_R(1.0) * (K->x[0] * v[0]) + HS_R(1.0) * (K->x[1] * v[1]);
    const hs_real vy01 = HS_R(1.0) * (K->y[0] * v[0]) + HS_R(1.0) * (K->y[1] * v[1]);
    K->arg[HS_TIRE_VX] = HS_R(1.0) * vx01 + HS_R(1.0) * (K->x[2] * v[2]);
    K->arg[HS_TIRE_VY] = HS_R(1.0) * vy01 + HS_R(1.0) * (K->y[2] * v[2]);
    return HS_OK;
}

/* tire_kin_eval on values: HS_OK, or HS_E_MODEL when the wheel has no heading. */
static int kin_values(const hs_mb_model *mb, const hs_mb_force *E, const hs_tire_par *tp, hs_real t,
                      const hs_real *q, const hs_real *u, const hs_real *z, const hs_real *in, tire_kv *K)
{
    const int w = E->a.body, o = mb->qoff[w];
    const hs_mb_opnd oa = mb_op_point(&E->a), oe = mb_op_dir(w, E->axis);
    mb_pk ke;
    mb_point_kin(mb, &oa, t, q, u, &K->kc);
    mb_point_kin(mb, &oe, t, q, u, &ke);
    for (int i = 0; i < 3; ++i) { K->e[i] = ke.r[i]; }
    /* spin: axis . w_body, w_body = 2 G(p) p' */
    const hs_real *p = &q[o + 3], *pd = &u[o + 3];
    hs_real G[3][4];
    mb_quat_G(p, G);
    hs_real om = HS_R(0.0);
    for (int j = 0; j < 4; ++j) {
        hs_real du = HS_R(0.0);
        for (int r = 0; r < 3; ++r) { du += HS_R(2.0) * E->axis[r] * G[r][j]; }
        om += du * pd[j];
    }
    K->arg[HS_TIRE_OM] = om;
    K->arg[HS_TIRE_XE] = z[0];
    K->arg[HS_TIRE_YE] = z[1];
    K->arg[HS_TIRE_ZB] = z[2];
    hs_real h = opt_in(in, E->in2), hs = HS_R(0.0);
    if (E->tab != NULL && E->tab->n > 0) {
        const hs_mb_table *tb = E->tab;
        const hs_real cx = K->kc.r[0];
        h += mb_table_eval(tb, cx);
        for (int i = 1; i < tb->n; ++i) {
            if (cx > tb->t[i - 1] && cx < tb->t[i]) { hs = (tb->v[i] - tb->v[i - 1]) / (tb->t[i] - tb->t[i - 1]); }
        }
    }
    if (E->tilt != 0) { return kin_tilted_v(E, tp, in, h, hs, K); }
    K->n[0] = HS_R(0.0); K->n[1] = HS_R(0.0); K->n[2] = HS_R(1.0);
    const hs_real rho2 = HS_R(1.0) * (K->e[0] * K->e[0]) + HS_R(1.0) * (K->e[1] * K->e[1]);
    if (!(rho2 > HS_R(1e-12) * (mb_dot3(ke.r, ke.r) + HS_R(1e-30)))) { return HS_E_MODEL; }
    const hs_real irho = HS_R(1.0) / hs_sqrt(rho2);
    const hs_real x0x = K->e[1] * irho, x0y = -K->e[0] * irho;
    hs_real sd, cd;
    hs_sincos(opt_in(in, E->in1), &sd, &cd);
    K->x[0] = cd * x0x + -sd * x0y;
    K->x[1] = cd * x0y + sd * x0x;
    K->x[2] = HS_R(0.0);
    K->y[0] = -HS_R(1.0) * K->x[1] + HS_R(0.0) * K->x[1];
    K->y[1] = K->x[0];
    K->y[2] = HS_R(0.0);
    const hs_real *c = K->kc.r, *v = K->kc.v;
    K->arg[HS_TIRE_PEN] = tp->r0 - (c[2] - h);
    K->arg[HS_TIRE_PEND] = -HS_R(1.0) * v[2] + hs * v[0];
    K->arg[HS_TIRE_VX] = HS_R(1.0) * (K->x[0] * v[0]) + HS_R(1.0) * (K->x[1] * v[1]);
    K->arg[HS_TIRE_VY] = HS_R(1.0) * (K->y[0] * v[0]) + HS_R(1.0) * (K->y[1] * v[1]);
    return HS_OK;
}

/* normal_spins on values (the same operations) */
static void normal_spins_v(const hs_mb_model *mb, const hs_mb_force *E, const hs_real *q, const hs_real *u,
                           const hs_real *z, tire_kv *K)
{
    K->arg[HS_TIRE_OC] = HS_R(0.0);
    K->arg[HS_TIRE_WN] = HS_R(0.0);
    K->arg[HS_TIRE_PSI] = (E->bore != 0) ? z[3] : HS_R(0.0);
    if (E->camb != 0) {
        hs_real en = HS_R(0.0);
        for (int i = 0; i < 3; ++i) { en = HS_R(1.0) * en + K->n[i] * K->e[i]; }
        K->arg[HS_TIRE_OC] = K->arg[HS_TIRE_OM] * en;
    }
    if (E->bore != 0) {
        const int o = mb->qoff[E->a.body];
        hs_real wn = HS_R(0.0);
        for (int j = 0; j < 4; ++j) {
            hs_real dq;
            wn += wn_terms(K->n, &q[o + 3], &u[o + 3], j, &dq) * u[o + 3 + j];
        }
        K->arg[HS_TIRE_WN] = wn;
    }
}

/* tire_eval on values: F, T, Tr (3 each), zd (3, 4 with bore=on) when not NULL. */
static int tire_eval_v(const hs_mb_model *mb, int e, hs_real t, const hs_real *q, const hs_real *u,
                       const hs_real *z, const hs_real *in, tire_kv *K, hs_real *F, hs_real *T, hs_real *Tr,
                       hs_real *zd, hs_tire_out *out)
{
    const hs_mb_force *E = &mb->desc->forces[e];
    hs_tire_par tp;
    int rc = tire_data(E, in, &tp);
    if (rc != (int)HS_OK) { return rc; }
    hs_real Tb;
    rc = brake_of(E, in, &Tb);
    if (rc != (int)HS_OK) { return rc; }
    rc = kin_values(mb, E, &tp, t, q, u, z, in, K);
    if (rc != (int)HS_OK) { return rc; }
    normal_spins_v(mb, E, q, u, z, K);
    rc = hs_tire_eval_values(&tp, K->arg, Tb, out);
    if (rc != (int)HS_OK) { return rc; }
    if (zd != NULL) {
        zd[0] = out->y[HS_TIRE_DXE];
        zd[1] = out->y[HS_TIRE_DYE];
        zd[2] = out->y[HS_TIRE_DZB];
        if (E->bore != 0) { zd[3] = out->y[HS_TIRE_DPSI]; }
    }
    const hs_real rd = out->rd, Fx = out->y[HS_TIRE_FX], Fy = out->y[HS_TIRE_FY], Td = in[E->in0];
    hs_real Ts = HS_R(1.0) * out->y[HS_TIRE_TY] + HS_R(1.0) * out->y[HS_TIRE_TB];
    hs_real Tbr = out->y[HS_TIRE_TB] + Td;
    const hs_real dl = opt_in(in, E->in1);
    if (dl != HS_R(0.0)) {
        /* the knuckle's torque kn (tire_eval) */
        hs_real sdl, cdl;
        hs_sincos(dl, &sdl, &cdl);
        const hs_real kn = rd * ((HS_R(1.0) - cdl) * Fx + sdl * Fy);
        Ts = HS_R(1.0) * Ts + -HS_R(1.0) * kn;
        Tbr = HS_R(1.0) * Tbr + -HS_R(1.0) * kn;
    }
    const hs_real rFx = rd * Fx, rFy = rd * Fy;
    for (int i = 0; i < 3; ++i) {
        F[i] = HS_R(1.0) * (Fx * K->x[i]) + HS_R(1.0) * (Fy * K->y[i]);
        T[i] = HS_R(1.0) * (rFy * K->x[i]) + -HS_R(1.0) * (rFx * K->y[i]);
        T[i] = HS_R(1.0) * T[i] + HS_R(1.0) * (Ts * K->e[i]);
        T[i] += Td * K->e[i];
        const hs_real tr = Tbr * K->e[i];
        Tr[i] = -HS_R(1.0) * tr + HS_R(0.0) * tr;
    }
    if (E->tilt == 0) {
        F[2] = HS_R(1.0) * F[2] + HS_R(1.0) * out->y[HS_TIRE_FZ];
        T[2] = HS_R(1.0) * T[2] + HS_R(1.0) * out->y[HS_TIRE_MZ];
    } else {
        for (int i = 0; i < 3; ++i) {
            F[i] = HS_R(1.0) * F[i] + K->n[i] * out->y[HS_TIRE_FZ];
            T[i] = HS_R(1.0) * T[i] + K->n[i] * out->y[HS_TIRE_MZ];
        }
    }
    if (E->bore != 0) {
        /* the bore torque about n, on the wheel (the road is ground: no reaction on b) */
        for (int i = 0; i < 3; ++i) { T[i] = HS_R(1.0) * T[i] + K->n[i] * out->y[HS_TIRE_TBO]; }
    }
    return HS_OK;
}

/* One tire: the road's force F (ground, at the centre), the wheel's torque T and the carrier's
 * reaction torque Tr, with gradients; zd (3) the state rates when not NULL. */
static int tire_eval(const hs_mb_model *mb, int e, hs_real t, const hs_real *q, const hs_real *u,
                     const hs_real *z, const hs_real *in, tire_kin *K, gv *F, gv *T, gv *Tr,
                     hs_tire_out *out)
{
    const hs_mb_force *E = &mb->desc->forces[e];
    hs_tire_par tp;
    int rc = tire_data(E, in, &tp);
    if (rc != (int)HS_OK) { return rc; }
    hs_real Tb;
    rc = brake_of(E, in, &Tb);
    if (rc != (int)HS_OK) { return rc; }
    const int nd = NV;
    rc = tire_kin_eval(mb, E, &tp, t, q, u, z, in, nd, K);
    if (rc != (int)HS_OK) { return rc; }
    normal_spins(mb, E, q, u, z, nd, K);
    hs_real arg[HS_TIRE_NARG];
    for (int i = 0; i < (int)HS_TIRE_NARG; ++i) { arg[i] = K->arg[i].v; }
    /* the mechanics' Jacobian reads the columns of the wheel's arguments only (below) */
    rc = hs_tire_eval_mech(&tp, arg, Tb, out);
    if (rc != (int)HS_OK) { return rc; }
    /* the mechanical results with gradients: y_k = sum over args J[k][a] * grad(arg a) (the
     * states and inputs are constants for the mechanics' Jacobian; the state rates' rows are
     * not needed here) */
    gv res[HS_TIRE_DXE];
    /* the columns hs_tire_eval_mech wrote (OC comes with OM's pass, WN only with the bore) and
     * the rows in use (the bore torque's with it) */
    const int na = (E->bore != 0) ? (int)HS_TIRE_XE : (int)HS_TIRE_WN;
    const int nk = (E->bore != 0) ? (int)HS_TIRE_DXE : (int)HS_TIRE_TBO;
    for (int k = 0; k < nk; ++k) {
        res[k] = g_c(out->y[k]);
        for (int a = 0; a < na; ++a) {
            const hs_real Jka = out->J[k][a];
            for (int i = 0; i < nd; ++i) { res[k].d[i] += Jka * K->arg[a].d[i]; }
        }
    }
    /* rd = r0 - pen/3 on the road (hs_tire.c), r0 off it */
    gv rd = g_c(out->rd);
    if (K->arg[HS_TIRE_PEN].v > HS_R(0.0)) {
        for (int i = 0; i < nd; ++i) { rd.d[i] = -K->arg[HS_TIRE_PEN].d[i] / HS_R(3.0); }
    }
    const gv *Fx = &res[HS_TIRE_FX], *Fy = &res[HS_TIRE_FY];
    gv Ts = g_lin(nd, HS_R(1.0), &res[HS_TIRE_TY], HS_R(1.0), &res[HS_TIRE_TB]);
    const gv Trs = g_c(out->y[HS_TIRE_TB] + in[E->in0]);
    gv Tbr = Trs;
    for (int i = 0; i < nd; ++i) { Tbr.d[i] = res[HS_TIRE_TB].d[i]; }
    /* A massless knuckle turns the axle with the heading, so the spin takes -rd Fx (the slip's
     * power Fx (vx - rd Om) + Fy vy, hs_veh.c's law); about the unturned axle e the contact
     * torque gives rd (Fy sin d - Fx cos d): kn = rd (Fx (1 - cos d) + Fy sin d) more braking
     * on the wheel, reacted by the knuckle's carrier (exact for e normal to n; none unsteered) */
    const hs_real dl = opt_in(in, E->in1);
    if (dl != HS_R(0.0)) {
        hs_real sdl, cdl;
        hs_sincos(dl, &sdl, &cdl);
        const gv kf = g_lin(nd, HS_R(1.0) - cdl, Fx, sdl, Fy);
        const gv kn = g_mul(nd, &rd, &kf);
        Ts = g_lin(nd, HS_R(1.0), &Ts, -HS_R(1.0), &kn);
        Tbr = g_lin(nd, HS_R(1.0), &Tbr, -HS_R(1.0), &kn);
    }
    const gv rFx = g_mul(nd, &rd, Fx), rFy = g_mul(nd, &rd, Fy);
    for (int i = 0; i < 3; ++i) {
        const gv fx = g_mul(nd, Fx, &K->x[i]), fy = g_mul(nd, Fy, &K->y[i]);
        F[i] = g_lin(nd, HS_R(1.0), &fx, HS_R(1.0), &fy);
        const gv tx = g_mul(nd, &rFy, &K->x[i]), ty = g_mul(nd, &rFx, &K->y[i]);
        const gv te = g_mul(nd, &Ts, &K->e[i]), tr = g_mul(nd, &Tbr, &K->e[i]);
        T[i] = g_lin(nd, HS_R(1.0), &tx, -HS_R(1.0), &ty);
        T[i] = g_lin(nd, HS_R(1.0), &T[i], HS_R(1.0), &te);
        T[i].v += in[E->in0] * K->e[i].v;
        for (int j = 0; j < nd; ++j) { T[i].d[j] += in[E->in0] * K->e[i].d[j]; }
        Tr[i] = g_lin(nd, -HS_R(1.0), &tr, HS_R(0.0), &tr);
    }
    if (E->tilt == 0) {
        F[2] = g_lin(nd, HS_R(1.0), &F[2], HS_R(1.0), &res[HS_TIRE_FZ]);
        T[2] = g_lin(nd, HS_R(1.0), &T[2], HS_R(1.0), &res[HS_TIRE_MZ]);
    } else {
        /* normal=profile: Fz along the tilted normal, Mz about it (n constant on the segment) */
        for (int i = 0; i < 3; ++i) {
            F[i] = g_lin(nd, HS_R(1.0), &F[i], K->n[i], &res[HS_TIRE_FZ]);
            T[i] = g_lin(nd, HS_R(1.0), &T[i], K->n[i], &res[HS_TIRE_MZ]);
        }
    }
    if (E->bore != 0) {
        for (int i = 0; i < 3; ++i) { T[i] = g_lin(nd, HS_R(1.0), &T[i], K->n[i], &res[HS_TIRE_TBO]); }
    }
    return HS_OK;
}

static int eval_z(const hs_mb_model *mb, int e, hs_real t, const hs_real *q, const hs_real *u,
                  const hs_real *z, const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu)
{
    const hs_mb_force *E = &mb->desc->forces[e];
    const int w = E->a.body, b = E->b.body;
    const hs_mb_opnd oa = mb_op_point(&E->a);
    hs_tire_out out;
    if (fq == NULL) {
        /* values only (a stage without the factor): no partials carried */
        tire_kv V;
        hs_real Fv[3], Tv[3], Rv[3];
        const int rv = tire_eval_v(mb, e, t, q, u, z, in, &V, Fv, Tv, Rv, NULL, &out);
        if (rv != (int)HS_OK) { return rv; }
        mb_point_load(mb, &oa, &V.kc, q, Fv, f, NULL);
        mb_body_torque(mb, w, q, Tv, f, NULL);
        if (b >= 0) { mb_body_torque(mb, b, q, Rv, f, NULL); }
        return HS_OK;
    }
    tire_kin K;
    gv F[3], T[3], Tr[3];
    const int rc = tire_eval(mb, e, t, q, u, z, in, &K, F, T, Tr, &out);
    if (rc != (int)HS_OK) { return rc; }
    hs_real Fv[3], Tv[3], Rv[3];
    for (int i = 0; i < 3; ++i) { Fv[i] = F[i].v; Tv[i] = T[i].v; Rv[i] = Tr[i].v; }
    mb_point_load(mb, &oa, &K.kc, q, Fv, f, fq);
    mb_body_torque(mb, w, q, Tv, f, fq);
    if (b >= 0) { mb_body_torque(mb, b, q, Rv, f, fq); }
    /* J_c^T dF */
    int sq = 0, su = 0;
    hs_real *bq = mb_qq_block(mb, fq, w, w, &sq), *bu = mb_qq_block(mb, fu, w, w, &su);
    for (int i = 0; i < 7; ++i) {
        for (int j = 0; j < 7; ++j) {
            hs_real aq = HS_R(0.0), au = HS_R(0.0);
            for (int r = 0; r < 3; ++r) {
                aq += K.kc.J[r][i] * F[r].d[j];
                au += K.kc.J[r][i] * F[r].d[7 + j];
            }
            if (bq != NULL) { bq[i * sq + j] += aq; }
            if (bu != NULL) { bu[i * su + j] += au; }
        }
    }
    add_torque_grad(mb, w, w, q, T, fq, fu);
    if (b >= 0) { add_torque_grad(mb, b, w, q, Tr, fq, fu); }
    return HS_OK;
}

static int zdot(const hs_mb_model *mb, int e, hs_real t, const hs_real *q, const hs_real *u,
                const hs_real *z, const hs_real *in, hs_real *zd)
{
    tire_kv K;
    hs_real F[3], T[3], Tr[3];
    hs_tire_out out;
    return tire_eval_v(mb, e, t, q, u, z, in, &K, F, T, Tr, zd, &out);
}

hs_status hs_mb_tire_probe(const hs_mb_model *mb, int e, hs_real t, const hs_real *q, const hs_real *u,
                     const hs_real *z, const hs_real *in, hs_real *val)
{
    if (e < 0 || e >= mb->desc->nforces || mb->desc->forces[e].kind != HS_MB_TIRE) { return HS_E_MODEL; }
    tire_kv K;
    hs_real F[3], T[3], Tr[3];
    hs_tire_out out;
    /* the element's own states: its slice of the model's z */
    const int rc = tire_eval_v(mb, e, t, q, u, &z[mb->zoff[e]], in, &K, F, T, Tr, NULL, &out);
    if (rc != (int)HS_OK) { return rc; }
    val[HS_MB_TIRE_OMEGA] = K.arg[HS_TIRE_OM];
    val[HS_MB_TIRE_FX] = out.y[HS_TIRE_FX];
    val[HS_MB_TIRE_FY] = out.y[HS_TIRE_FY];
    val[HS_MB_TIRE_FZ] = out.y[HS_TIRE_FZ];
    val[HS_MB_TIRE_SX] = out.sx;
    val[HS_MB_TIRE_SY] = out.sy;
    for (int i = 0; i < 3; ++i) { val[HS_MB_TIRE_FG + i] = F[i]; }
    return HS_OK;
}

#else

static int eval_z(const hs_mb_model *mb, int e, hs_real t, const hs_real *q, const hs_real *u,
                  const hs_real *z, const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu)
{
    (void)mb; (void)e; (void)t; (void)q; (void)u; (void)z; (void)in; (void)f; (void)fq; (void)fu;
    return HS_E_MODEL;
}

static int zdot(const hs_mb_model *mb, int e, hs_real t, const hs_real *q, const hs_real *u,
                const hs_real *z, const hs_real *in, hs_real *zd)
{
    (void)mb; (void)e; (void)t; (void)q; (void)u; (void)z; (void)in; (void)zd;
    return HS_E_MODEL;
}

hs_status hs_mb_tire_probe(const hs_mb_model *mb, int e, hs_real t, const hs_real *q, const hs_real *u,
                     const hs_real *z, const hs_real *in, hs_real *val)
{
    (void)mb; (void)e; (void)t; (void)q; (void)u; (void)z; (void)in; (void)val;
    return HS_E_MODEL;
}

#endif

/* the table's stateless entry point: the states at 0 (mb_forces calls eval_z with the model's) */
static int eval(const hs_mb_model *mb, int e, hs_real t, const hs_real *q, const hs_real *u,
                const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu)
{
    static const hs_real z0[4] = {0, 0, 0, 0};
    return eval_z(mb, e, t, q, u, z0, in, f, fq, fu);
}

const mb_force_elem mb_el_tire = {
    "tire", "HS_MB_TIRE",
    MB_K_A | MB_K_B | MB_K_AXIS | MB_K_K | MB_K_C | MB_K_L0 | MB_K_IN | MB_K_T | MB_K_V | MB_K_STEER | MB_K_ROAD | MB_K_SCALE | MB_K_MU | MB_K_NORMAL | MB_K_DATA | MB_K_CAMBER | MB_K_BORE,
    MB_K_A | MB_K_AXIS | MB_K_IN,
    check, inputs, eval, NULL,
    .passive = MB_NO, .spring = MB_NO, .hinge = MB_NO, .tire = MB_YES};

/* 3 states (xe, ye, zb), a 4th (psi) with bore=on */
static int tire_nz_of(const hs_mb_force *E)
{
    return (E->bore != 0) ? 4 : 3;
}

const mb_force_states mb_el_tire_states = {3, zdot, eval_z, tire_nz_of};
