/* pendulum.c - the 2D unit pendulum of [L1] section 6.1: unit mass, gravity (0, -10),
 * constraint |x| - 1 (distance, not its square, so G = x^T/|x|). Output: total energy. */
#include "hs_models.h"
#include "hs_math.h"
#include <stddef.h>

#define P(m) ((const hs_pendulum_params *)(m)->p)

static const hs_param_info params[] = {
    {"m", offsetof(hs_pendulum_params, m), HS_R(1.0), HS_R(1e-6), HS_R(1e6), "mass (kg)"},
    {"grav", offsetof(hs_pendulum_params, grav), HS_R(10.0), HS_R(0.0), HS_R(1e3), "gravity, acting in -y (m/s^2)"},
    {"len", offsetof(hs_pendulum_params, len), HS_R(1.0), HS_R(1e-3), HS_R(1e3), "rod length (m)"},
    {"theta0", offsetof(hs_pendulum_params, theta0), HS_R(0.0), HS_R(-7.0), HS_R(7.0), "initial angle from +x (rad)"},
};

/* MISRA Ref 9.2.1 [braced array of string pointers] */
static const char *const out_names[] = {"energy (J)"};

static int initial(const hs_model *m, hs_real t0, hs_real *q, hs_real *u, hs_real *z)
{
    (void)t0; (void)z;
    q[0] = P(m)->len * hs_cos(P(m)->theta0);
    q[1] = P(m)->len * hs_sin(P(m)->theta0);
    u[0] = HS_R(0.0); u[1] = HS_R(0.0);
    return HS_OK;
}

static int mass(const hs_model *m, hs_real t, const hs_real *q, hs_real *M)
{
    (void)t; (void)q;
    M[0] = P(m)->m; M[1] = HS_R(0.0); M[2] = HS_R(0.0); M[3] = P(m)->m;
    return HS_OK;
}

static int force(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                 const hs_real *z, const hs_real *in, hs_real *f)
{
    (void)t; (void)q; (void)u; (void)z; (void)in;
    f[0] = HS_R(0.0);
    f[1] = -P(m)->m * P(m)->grav;
    return HS_OK;
}

static int force_jac(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                     const hs_real *z, const hs_real *in, hs_real *fq, hs_real *fu)
{
    (void)m; (void)t; (void)q; (void)u; (void)z; (void)in;
    for (int i = 0; i < 4; ++i) { fq[i] = HS_R(0.0); fu[i] = HS_R(0.0); }
    return HS_OK;
}

static int constraint(const hs_model *m, hs_real t, const hs_real *q, hs_real *g, hs_real *G,
                      hs_real *gt)
{
    (void)t;
    hs_real r = hs_sqrt(q[0] * q[0] + q[1] * q[1]);
    if (!(r > HS_R(0.0))) { return HS_E_MODEL; }
    if (g != NULL) { g[0] = r - P(m)->len; }
    if (G != NULL) { G[0] = q[0] / r; G[1] = q[1] / r; }
    if (gt != NULL) { gt[0] = HS_R(0.0); }
    return HS_OK;
}

static int gamma_fn(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, hs_real *gam)
{
    (void)m; (void)t;
    /* d/dt (x/|x|) . u = (|u|^2 - (x.u)^2/|x|^2) / |x| */
    hs_real r2 = q[0] * q[0] + q[1] * q[1];
    hs_real r = hs_sqrt(r2);
    if (!(r > HS_R(0.0))) { return HS_E_MODEL; }
    hs_real xu = q[0] * u[0] + q[1] * u[1];
    gam[0] = (u[0] * u[0] + u[1] * u[1] - xu * xu / r2) / r;
    return HS_OK;
}

/* K = d(lambda x / |x|)/dx = lambda (I - x x^T / |x|^2) / |x|. */
static int curvature(const hs_model *m, hs_real t, const hs_real *q, const hs_real *lambda,
                     hs_real *K)
{
    (void)m; (void)t;
    hs_real r2 = q[0] * q[0] + q[1] * q[1];
    hs_real r = hs_sqrt(r2);
    if (!(r > HS_R(0.0))) { return HS_E_MODEL; }
    hs_real c = lambda[0] / r;
    K[0] = c * (HS_R(1.0) - q[0] * q[0] / r2);
    K[1] = -c * q[0] * q[1] / r2;
    K[2] = K[1];
    K[3] = c * (HS_R(1.0) - q[1] * q[1] / r2);
    return HS_OK;
}

/* Kinetic plus gravity (zero at y = 0): conserved by the exact solution. */
static int energy(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                  const hs_real *z, hs_real *E)
{
    (void)t; (void)z;
    *E = HS_R(0.5) * P(m)->m * (u[0] * u[0] + u[1] * u[1]) + P(m)->m * P(m)->grav * q[1];
    return HS_OK;
}

static int output(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                  const hs_real *z, const hs_real *in, hs_real *y)
{
    (void)t; (void)z; (void)in;
    y[0] = HS_R(0.5) * P(m)->m * (u[0] * u[0] + u[1] * u[1]) + P(m)->m * P(m)->grav * q[1];
    return HS_OK;
}

const hs_model_type hs_pendulum_type = {
    .name = "pendulum",
    .doc = "2D pendulum of Lacoursiere's regularized stepper: unit mass, gravity (0,-10), constraint |x| - 1",
    .nq = HS_PENDULUM_NQ,
    .nc = HS_PENDULUM_NC,
    .nz = HS_PENDULUM_NZ,
    .nin = 0,
    .nout = 1,
    .params = params,
    /* MISRA Ref 10.8.1 [table length, compile-time constant] */
    .nparams = (int)(sizeof params / sizeof params[0]),
    .param_size = sizeof(hs_pendulum_params),
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
};
