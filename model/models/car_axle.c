/* car_axle.c - the IVP test set car axle (caraxis.f), shared/problems/car_axle.md.
 * q = (xl, yl, xr, yr); M = K I with K = M eps^2 / 2; +G^T lambda as in the test set. */
#include "hs_models.h"
#include "hs_math.h"
#include <stddef.h>

#define P(m) ((const hs_car_axle_params *)(m)->p)

const double hs_car_axle_ref_t3[10] = {
    4.9345578427556290e-02, 4.9698946023033241e-01, 1.0417425248854000e+00,
    3.7391102726522141e-01, -7.7058368403214852e-02, 7.4468665963277761e-03,
    1.7556815749428991e-02, 7.7034104377940305e-01, -4.7368867507846298e-03,
    -1.1046804113457301e-03};

static const hs_param_info params[] = {
    {"eps", offsetof(hs_car_axle_params, eps), HS_R(1e-2), HS_R(1e-6), HS_R(1.0), "epsilon (K = M eps^2/2)"},
    {"M", offsetof(hs_car_axle_params, M), HS_R(10.0), HS_R(1e-6), HS_R(1e6), "mass parameter"},
    {"L", offsetof(hs_car_axle_params, L), HS_R(1.0), HS_R(1e-3), HS_R(1e3), "axle length"},
    {"L0", offsetof(hs_car_axle_params, L0), HS_R(0.5), HS_R(1e-3), HS_R(1e3), "spring rest length"},
    {"r", offsetof(hs_car_axle_params, r), HS_R(0.1), HS_R(0.0), HS_R(1e3), "road bump amplitude (< L)"},
    {"w", offsetof(hs_car_axle_params, w), HS_R(10.0), HS_R(0.0), HS_R(1e4), "road bump angular frequency"},
    {"g", offsetof(hs_car_axle_params, g), HS_R(1.0), HS_R(-1e3), HS_R(1e3), "gravity"},
    {"external", offsetof(hs_car_axle_params, external), HS_R(0.0), HS_R(0.0), HS_R(1.0),
     "1: road excitation input 0 (HIL), added to the bump under the right wheel's spring"},
};

/* MISRA Ref 9.2.1 [braced array of string pointers] */
static const char *const in_names[] = {"road_dy (m)"};
static const char *const out_names[] = {"xl (m)", "yl (m)", "xr (m)", "yr (m)",
                                        "F_left (N)", "F_right (N)"};

/* With external = 1 the instance has the road input; without, callers keep passing no inputs
 * (the published problem, hilstep-sim, the pinned hashes). */
static int dims(const hs_model *m, hs_dims *d)
{
    d->nq = HS_CAR_AXLE_NQ;
    d->nc = HS_CAR_AXLE_NC;
    d->nz = HS_CAR_AXLE_NZ;
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    d->nin = P(m)->external == HS_R(1.0) ? 1 : 0;
    d->nout = 6;
    return HS_OK;
}

/* Extra road height under the right wheel's spring (m): the HIL input, 0 without one. */
static hs_real road_dy(const hs_model *m, const hs_real *in)
{
    return (P(m)->external == HS_R(1.0) && in) ? in[0] : HS_R(0.0);
}

/* Road excitation point and its first two time derivatives. */
typedef struct road { hs_real xb, yb, xb1, yb1, xb2, yb2; } road;

/* The point alone (force() and force_jac() need no derivatives): sin and cos of w t in s, c. */
static void road_point(const hs_car_axle_params *p, hs_real t, hs_real *xb, hs_real *yb, hs_real *s,
                       hs_real *c)
{
    hs_sincos(p->w * t, s, c);
    *yb = p->r * *s;
    *xb = hs_sqrt(p->L * p->L - *yb * *yb);
}

/* The point's velocity (xb1, yb1) from the point and cos of w t (constraint()'s g_t). */
static void road_vel(const hs_car_axle_params *p, hs_real xb, hs_real yb, hs_real c, hs_real *xb1,
                     hs_real *yb1)
{
    *yb1 = p->r * p->w * c;
    *xb1 = -yb * *yb1 / xb;
}

static road road_at(const hs_car_axle_params *p, hs_real t)
{
    road r;
    hs_real s, c;
    road_point(p, t, &r.xb, &r.yb, &s, &c);
    road_vel(p, r.xb, r.yb, c, &r.xb1, &r.yb1);
    r.yb2 = -p->r * p->w * p->w * s;
    r.xb2 = -(r.yb1 * r.yb1 + r.yb * r.yb2 + r.xb1 * r.xb1) / r.xb;
    return r;
}

static hs_real kmass(const hs_car_axle_params *p) { return p->M * p->eps * p->eps / HS_R(2.0); }

static int check(const hs_model *m)
{
    /* xb = sqrt(L^2 - yb^2) needs the bump to stay inside the circle of radius L */
    return P(m)->r < P(m)->L ? HS_OK : HS_E_MODEL_PARAM;
}

static int initial(const hs_model *m, hs_real t0, hs_real *q, hs_real *u, hs_real *z)
{
    (void)z;
    const hs_car_axle_params *p = P(m);
    /* caraxis.f init generalized: springs at rest, phi = phi' = 0 (needs t0 with yb = 0). */
    road r = road_at(p, t0);
    q[0] = HS_R(0.0); q[1] = p->L0; q[2] = p->L; q[3] = p->L0;
    hs_real v = -r.yb1 * p->L0 / r.xb;
    u[0] = v; u[1] = HS_R(0.0); u[2] = v; u[3] = HS_R(0.0);
    return HS_OK;
}

static int mass(const hs_model *m, hs_real t, const hs_real *q, hs_real *M)
{
    (void)t; (void)q;
    const hs_real K = kmass(P(m));
    M[0] = K; M[1] = HS_R(0.0); M[2] = HS_R(0.0); M[3] = HS_R(0.0);
    M[4] = HS_R(0.0); M[5] = K; M[6] = HS_R(0.0); M[7] = HS_R(0.0);
    M[8] = HS_R(0.0); M[9] = HS_R(0.0); M[10] = K; M[11] = HS_R(0.0);
    M[12] = HS_R(0.0); M[13] = HS_R(0.0); M[14] = HS_R(0.0); M[15] = K;
    return HS_OK;
}

static int force(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                 const hs_real *z, const hs_real *in, hs_real *f)
{
    (void)u; (void)z;
    const hs_car_axle_params *p = P(m);
    hs_real xb, yb, sn, cs;
    road_point(p, t, &xb, &yb, &sn, &cs);
    hs_real K = kmass(p);
    hs_real Ll = hs_sqrt(q[0] * q[0] + q[1] * q[1]);
    /* + 0 without an input: the same bits as the published problem. */
    hs_real ex = q[2] - xb, ey = q[3] - (yb + road_dy(m, in));
    hs_real Lr = hs_sqrt(ex * ex + ey * ey);
    if (!(Ll > HS_R(0.0)) || !(Lr > HS_R(0.0))) { return HS_E_MODEL; /* spring of zero length */ }
    f[0] = (p->L0 - Ll) * q[0] / Ll;
    f[1] = (p->L0 - Ll) * q[1] / Ll - K * p->g;
    f[2] = (p->L0 - Lr) * ex / Lr;
    f[3] = (p->L0 - Lr) * ey / Lr - K * p->g;
    return HS_OK;
}

/* d/dp of the spring force (L0 - |p|) p / |p| = (L0/|p| - 1) I - L0 p p^T / |p|^3 into the
 * 2x2 block of fq (4x4) at row/column offset o. */
static void spring_jac(hs_real L0, hs_real px, hs_real py, hs_real *fq, int o)
{
    hs_real L = hs_sqrt(px * px + py * py);
    hs_real a = L0 / L - HS_R(1.0), c = L0 / (L * L * L);
    fq[o * 4 + o] = a - c * px * px;
    fq[o * 4 + o + 1] = -c * px * py;
    fq[(o + 1) * 4 + o] = -c * px * py;
    fq[(o + 1) * 4 + o + 1] = a - c * py * py;
}

static int force_jac(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                     const hs_real *z, const hs_real *in, hs_real *fq, hs_real *fu)
{
    (void)u; (void)z;
    const hs_car_axle_params *p = P(m);
    hs_real xb, yb, sn, cs;
    road_point(p, t, &xb, &yb, &sn, &cs);
    /* the entries outside the two springs' diagonal blocks; spring_jac writes those */
    fq[2] = HS_R(0.0); fq[3] = HS_R(0.0); fq[6] = HS_R(0.0); fq[7] = HS_R(0.0);
    fq[8] = HS_R(0.0); fq[9] = HS_R(0.0); fq[12] = HS_R(0.0); fq[13] = HS_R(0.0);
    for (int i = 0; i < 16; ++i) { fu[i] = HS_R(0.0); }
    spring_jac(p->L0, q[0], q[1], fq, 0);
    spring_jac(p->L0, q[2] - xb, q[3] - (yb + road_dy(m, in)), fq, 2);
    return HS_OK;
}

static int constraint(const hs_model *m, hs_real t, const hs_real *q, hs_real *g, hs_real *G,
                      hs_real *gt)
{
    const hs_car_axle_params *p = P(m);
    hs_real xb, yb, sn, cs;
    /* the point, and its velocity only for gt (the position projection asks for g alone) */
    road_point(p, t, &xb, &yb, &sn, &cs);
    hs_real dx = q[0] - q[2], dy = q[1] - q[3];
    if (g != NULL) {
        g[0] = xb * q[0] + yb * q[1];
        g[1] = dx * dx + dy * dy - p->L * p->L;
    }
    if (G != NULL) {
        G[0] = xb; G[1] = yb; G[2] = HS_R(0.0); G[3] = HS_R(0.0);
        G[4] = HS_R(2.0) * dx; G[5] = HS_R(2.0) * dy; G[6] = -HS_R(2.0) * dx; G[7] = -HS_R(2.0) * dy;
    }
    if (gt != NULL) {
        hs_real xb1, yb1;
        road_vel(p, xb, yb, cs, &xb1, &yb1);
        gt[0] = xb1 * q[0] + yb1 * q[1];
        gt[1] = HS_R(0.0);
    }
    return HS_OK;
}

static int gamma_fn(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, hs_real *gam)
{
    road r = road_at(P(m), t);
    hs_real dxd = u[0] - u[2], dyd = u[1] - u[3];
    gam[0] = HS_R(2.0) * (r.xb1 * u[0] + r.yb1 * u[1]) + r.xb2 * q[0] + r.yb2 * q[1];
    gam[1] = HS_R(2.0) * (dxd * dxd + dyd * dyd);
    return HS_OK;
}

/* Outputs: wheel positions (m) and the spring forces along each spring, compression
 * positive (N; spring constant 1 in the test set's units). */
static int output(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                  const hs_real *z, const hs_real *in, hs_real *y)
{
    (void)u; (void)z;
    const hs_car_axle_params *p = P(m);
    road r = road_at(p, t);
    hs_real ex = q[2] - r.xb, ey = q[3] - (r.yb + road_dy(m, in));
    for (int i = 0; i < 4; ++i) { y[i] = q[i]; }
    y[4] = p->L0 - hs_sqrt(q[0] * q[0] + q[1] * q[1]);
    y[5] = p->L0 - hs_sqrt(ex * ex + ey * ey);
    return HS_OK;
}

/* K = d(G^T lambda)/dq: the road constraint is linear in q (K = 0); the axle length gives
 * d(2 lambda_2 (d, -d))/dq = 2 lambda_2 [[I, -I], [-I, I]], d = (xl - xr, yl - yr). */
static int curvature(const hs_model *m, hs_real t, const hs_real *q, const hs_real *lambda,
                     hs_real *K)
{
    (void)m; (void)t; (void)q;
    const hs_real c = HS_R(2.0) * lambda[1], d = -c;
    K[0] = c; K[1] = HS_R(0.0); K[2] = d; K[3] = HS_R(0.0);
    K[4] = HS_R(0.0); K[5] = c; K[6] = HS_R(0.0); K[7] = d;
    K[8] = d; K[9] = HS_R(0.0); K[10] = c; K[11] = HS_R(0.0);
    K[12] = HS_R(0.0); K[13] = d; K[14] = HS_R(0.0); K[15] = c;
    return HS_OK;
}

/* constraint()'s G, gamma_fn()'s gamma and curvature()'s K at one point: the road once */
static int constraint_all(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                          const hs_real *lambda, hs_real *G, hs_real *gam, hs_real *K)
{
    road r = road_at(P(m), t);
    hs_real dx = q[0] - q[2], dy = q[1] - q[3];
    G[0] = r.xb; G[1] = r.yb; G[2] = HS_R(0.0); G[3] = HS_R(0.0);
    G[4] = HS_R(2.0) * dx; G[5] = HS_R(2.0) * dy; G[6] = -HS_R(2.0) * dx; G[7] = -HS_R(2.0) * dy;
    hs_real dxd = u[0] - u[2], dyd = u[1] - u[3];
    gam[0] = HS_R(2.0) * (r.xb1 * u[0] + r.yb1 * u[1]) + r.xb2 * q[0] + r.yb2 * q[1];
    gam[1] = HS_R(2.0) * (dxd * dxd + dyd * dyd);
    if ((K != NULL) && (lambda != NULL)) {
        return curvature(m, t, q, lambda, K);
    }
    return HS_OK;
}

/* Kinetic energy K |u|^2 / 2, the two springs (unit stiffness, (|s| - L0)^2 / 2) and gravity
 * K g (yl + yr). The road moves the right spring's anchor and the rheonomic constraint, so E
 * is not conserved unless r = 0 (or w = 0): the difference is the work done by the road.
 * energy() sees no inputs: with external = 1 the right spring is measured from the road
 * without the HIL's extra height, so E then also omits what that input changes. */
static int energy(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                  const hs_real *z, hs_real *E)
{
    (void)z;
    const hs_car_axle_params *p = P(m);
    road r = road_at(p, t);
    hs_real K = kmass(p);
    hs_real Ll = hs_sqrt(q[0] * q[0] + q[1] * q[1]) - p->L0;
    hs_real ex = q[2] - r.xb, ey = q[3] - r.yb;
    hs_real Lr = hs_sqrt(ex * ex + ey * ey) - p->L0;
    hs_real T = HS_R(0.5) * K * (u[0] * u[0] + u[1] * u[1] + u[2] * u[2] + u[3] * u[3]);
    *E = T + HS_R(0.5) * (Ll * Ll + Lr * Lr) + K * p->g * (q[1] + q[3]);
    return HS_OK;
}

const hs_model_type hs_car_axle_type = {
    .name = "car_axle",
    .doc = "IVP test set car axle: 4 positions, 2 constraints (one rheonomic), t in [0, 3]",
    .nq = HS_CAR_AXLE_NQ,
    .nc = HS_CAR_AXLE_NC,
    .nz = HS_CAR_AXLE_NZ,
    .nin = 1,
    .nout = 6,
    .params = params,
    /* MISRA Ref 10.8.1 [table length, compile-time constant] */
    .nparams = (int)(sizeof params / sizeof params[0]),
    .param_size = sizeof(hs_car_axle_params),
    .in_names = in_names,
    .out_names = out_names,
    .check = check,
    .initial = initial,
    .mass = mass,
    .force = force,
    .force_jac = force_jac,
    .constraint = constraint,
    .gamma = gamma_fn,
    .output = output,
    .dims = dims,
    .curvature = curvature,
    .energy = energy,
    /* fq's spring blocks and K are written with the same expression on both sides of the
     * diagonal, fu = 0 */
    .symmetric_jac = 1,
    .constraint_all = constraint_all,
};
