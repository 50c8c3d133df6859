/* rolling_disk.c - a vertical disk rolling without slipping on the plane (the classic
 * nonholonomic example; Lacoursiere's velocity constraints with gamma, [L2] sec. 3).
 * Coordinates q = (x, y, phi, theta): contact point (m), heading and rolling angle (rad).
 * M = diag(m, m, I_d, I_a), I_d = m R^2/4 about the vertical, I_a = m R^2/2 about the axle.
 * Rolling is two Pfaffian rows J(q) u = 0: x' - R cos(phi) theta' = 0, y' - R sin(phi)
 * theta' = 0. They are velocity-level (nonholonomic, nhol = 2): no g(q) has J as its
 * gradient, so g returns 0 and G returns J; gamma = dJ/dt u; the stepper's velocity rows and
 * projection then hold the rolling, its position rows have nothing to correct.
 * Exact motion: theta' and phi' constant, the contact point on a circle of radius
 * R theta'/phi'; energy (m R^2 + I_a) theta'^2/2 + I_d phi'^2/2 (gravity does no work on an
 * upright disk). Outputs: slip x, slip y (m/s, = J u) and energy (J). */
#include "hs_models.h"
#include "hs_math.h"
#include <stddef.h>

#define P(m) ((const hs_rolling_disk_params *)(m)->p)

static const hs_param_info params[] = {
    {"m", offsetof(hs_rolling_disk_params, m), HS_R(1.0), HS_R(1e-6), HS_R(1e6), "mass (kg)"},
    {"R", offsetof(hs_rolling_disk_params, R), HS_R(0.5), HS_R(1e-3), HS_R(1e3), "radius (m)"},
    {"spin0", offsetof(hs_rolling_disk_params, spin0), HS_R(4.0), HS_R(-1e3), HS_R(1e3), "initial rolling rate theta' (rad/s)"},
    {"turn0", offsetof(hs_rolling_disk_params, turn0), HS_R(1.0), HS_R(-1e3), HS_R(1e3), "initial heading rate phi' (rad/s)"},
};

static const char *const out_names[] = {"slip_x (m/s)", "slip_y (m/s)", "energy (J)"};

static int initial(const hs_model *m, hs_real t0, hs_real *q, hs_real *u, hs_real *z)
{
    (void)t0;
    (void)z;
    for (int i = 0; i < 4; ++i) {
        q[i] = HS_R(0.0);
    }
    u[0] = P(m)->R * P(m)->spin0;
    u[1] = HS_R(0.0);
    u[2] = P(m)->turn0;
    u[3] = P(m)->spin0;
    return HS_OK;
}

static int mass(const hs_model *m, hs_real t, const hs_real *q, hs_real *M)
{
    (void)t;
    (void)q;
    const hs_real mr2 = P(m)->m * P(m)->R * P(m)->R;
    for (int i = 0; i < 16; ++i) {
        M[i] = HS_R(0.0);
    }
    M[0] = P(m)->m;
    M[5] = P(m)->m;
    M[10] = HS_R(0.25) * mr2;
    M[15] = HS_R(0.5) * mr2;
    return HS_OK;
}

static int force(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                 const hs_real *z, const hs_real *in, hs_real *f)
{
    (void)m;
    (void)t;
    (void)q;
    (void)u;
    (void)z;
    (void)in;
    for (int i = 0; i < 4; ++i) {
        f[i] = HS_R(0.0);
    }
    return HS_OK;
}

static int force_jac(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                     const hs_real *z, const hs_real *in, hs_real *fq, hs_real *fu)
{
    (void)m;
    (void)t;
    (void)q;
    (void)u;
    (void)z;
    (void)in;
    for (int i = 0; i < 16; ++i) {
        fq[i] = HS_R(0.0);
        fu[i] = HS_R(0.0);
    }
    return HS_OK;
}

/* g = 0 (velocity-level rows), G = J(q), g_t = 0 */
static int constraint(const hs_model *m, hs_real t, const hs_real *q, hs_real *g, hs_real *G,
                      hs_real *gt)
{
    (void)t;
    const hs_real R = P(m)->R, c = hs_cos(q[2]), s = hs_sin(q[2]);
    if (g != NULL) {
        g[0] = HS_R(0.0);
        g[1] = HS_R(0.0);
    }
    if (G != NULL) {
        G[0] = HS_R(1.0); G[1] = HS_R(0.0); G[2] = HS_R(0.0); G[3] = -R * c;
        G[4] = HS_R(0.0); G[5] = HS_R(1.0); G[6] = HS_R(0.0); G[7] = -R * s;
    }
    if (gt != NULL) {
        gt[0] = HS_R(0.0);
        gt[1] = HS_R(0.0);
    }
    return HS_OK;
}

/* d/dt (J u) = J u' + gamma: gamma = (R sin(phi) phi' theta', -R cos(phi) phi' theta') */
static int gamma_fn(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, hs_real *gam)
{
    (void)t;
    const hs_real R = P(m)->R, w = u[2] * u[3];
    gam[0] = R * hs_sin(q[2]) * w;
    gam[1] = -R * hs_cos(q[2]) * w;
    return HS_OK;
}

/* K = d(J^T lambda)/dq: only row theta depends on phi, -R (cos phi l1 + sin phi l2) */
static int curvature(const hs_model *m, hs_real t, const hs_real *q, const hs_real *lambda,
                     hs_real *K)
{
    (void)t;
    for (int i = 0; i < 16; ++i) {
        K[i] = HS_R(0.0);
    }
    K[14] = P(m)->R * (hs_sin(q[2]) * lambda[0] - hs_cos(q[2]) * lambda[1]);
    return HS_OK;
}

static int energy(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                  const hs_real *z, hs_real *E)
{
    (void)t;
    (void)q;
    (void)z;
    const hs_real mr2 = P(m)->m * P(m)->R * P(m)->R;
    *E = HS_R(0.5) * (P(m)->m * (u[0] * u[0] + u[1] * u[1]) + HS_R(0.25) * mr2 * u[2] * u[2]
                      + HS_R(0.5) * mr2 * u[3] * u[3]);
    return HS_OK;
}

static int output(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                  const hs_real *z, const hs_real *in, hs_real *y)
{
    (void)in;
    const hs_real R = P(m)->R;
    y[0] = u[0] - R * hs_cos(q[2]) * u[3];
    y[1] = u[1] - R * hs_sin(q[2]) * u[3];
    return energy(m, t, q, u, z, &y[2]);
}

const hs_model_type hs_rolling_disk_type = {
    .name = "rolling_disk",
    .doc = "vertical disk rolling without slip on the plane: 2 nonholonomic (velocity-level) rows",
    .nq = HS_ROLLING_DISK_NQ,
    .nc = HS_ROLLING_DISK_NC,
    .nz = 0,
    .nin = 0,
    .nout = 3,
    .params = params,
    /* MISRA Ref 10.8.1 [table length, compile-time constant] */
    .nparams = (int)(sizeof params / sizeof params[0]),
    .param_size = sizeof(hs_rolling_disk_params),
    .out_names = out_names,
    .initial = initial,
    .mass = mass,
    .force = force,
    .force_jac = force_jac,
    .constraint = constraint,
    .gamma = gamma_fn,
    .output = output,
    .curvature = curvature,
    .energy = energy,
    .nhol = HS_ROLLING_DISK_NC,
};
