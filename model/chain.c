/* chain.c - planar chain of n uniform rods in maximal coordinates (issues 8 and 9).
 *
 * Rod i (0-based) has q = (x_i, y_i, theta_i); rod 0's tail is pinned at the origin and rod i's
 * tail is pinned to rod i-1's head by a revolute joint (2 equations each): nq = 3n, nc = 2n.
 * Released from rest lying along +x (theta = 0, centres at ((i + 1/2) L, 0)), gravity in -y.
 * Hanging straight, the chain has released m g L n^2 / 2 of potential energy: the yardstick
 * of issue 8's energy bar. Conservative: energy() is kinetic plus gravity (zero at y = 0). */
#include "hs_models.h"
#include "hs_rods.h"
#include <stddef.h>

#define P(m) ((const hs_chain_params *)(m)->p)

static const hs_param_info params[] = {
    {"n", offsetof(hs_chain_params, n), HS_R(8.0), HS_R(1.0), (hs_real)HS_CHAIN_N_MAX, "number of rods (integer)"},
    {"m", offsetof(hs_chain_params, m), HS_R(1.0), HS_R(1e-6), HS_R(1e6), "mass of each rod (kg)"},
    {"len", offsetof(hs_chain_params, len), HS_R(1.0), HS_R(1e-3), HS_R(1e3), "length of each rod (m)"},
    {"grav", offsetof(hs_chain_params, grav), HS_R(9.81), HS_R(0.0), HS_R(1e3), "gravity, acting in -y (m/s^2)"},
};

static const char *const out_names[] = {"energy (J)", "tip x (m)", "tip y (m)"};

/* Joint k: rod k's tail at rod k-1's head (the origin for k = 0). */
static void joint(int n, int k, hs_rod_joint *j)
{
    (void)n;
    j->a = k; j->sa = -1;
    j->b = k - 1; j->sb = 1;
}

/* The link count, or 0 when the parameter is not an integer in range. */
static int links(const hs_model *m)
{
    const hs_real v = P(m)->n;
    if (!(v >= HS_R(1.0) && v <= (hs_real)HS_CHAIN_N_MAX)) return 0;
    const int n = (int)v;
    return (hs_real)n == v ? n : 0;
}

static hs_rods rods(const hs_model *m)
{
    hs_rods r;
    const int n = links(m);
    r.nr = n; r.nj = n;
    r.m = P(m)->m; r.len = P(m)->len; r.grav = P(m)->grav;
    r.joint = joint; r.arg = n;
    return r;
}

static int dims(const hs_model *m, hs_dims *d)
{
    const int n = links(m);
    if (!n) return HS_E_MODEL_PARAM;
    d->nq = HS_CHAIN_NQ(n); d->nc = HS_CHAIN_NC(n); d->nz = 0; d->nin = 0; d->nout = HS_CHAIN_NOUT;
    return HS_OK;
}

static int check(const hs_model *m) { return links(m) ? HS_OK : HS_E_MODEL_PARAM; }

static int blocks(const hs_model *m, hs_blocks *b, int *buf, int nbuf)
{
    const hs_rods r = rods(m);
    return hs_rods_blocks(&r, b, buf, nbuf);
}

static int initial(const hs_model *m, hs_real t0, hs_real *q, hs_real *u, hs_real *z)
{
    (void)t0; (void)z;
    const int n = links(m);
    for (int i = 0; i < n; ++i) {
        q[3 * i] = ((hs_real)i + HS_R(0.5)) * P(m)->len;
        q[3 * i + 1] = HS_R(0.0);
        q[3 * i + 2] = HS_R(0.0);
        u[3 * i] = HS_R(0.0); u[3 * i + 1] = HS_R(0.0); u[3 * i + 2] = HS_R(0.0);
    }
    return HS_OK;
}

static int mass(const hs_model *m, hs_real t, const hs_real *q, hs_real *M)
{
    (void)t; (void)q;
    const hs_rods r = rods(m);
    hs_rods_mass(&r, M);
    return HS_OK;
}

static int force(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                 const hs_real *z, const hs_real *in, hs_real *f)
{
    (void)t; (void)q; (void)u; (void)z; (void)in;
    const hs_rods r = rods(m);
    hs_rods_force(&r, f);
    return HS_OK;
}

static int force_jac(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                     const hs_real *z, const hs_real *in, hs_real *fq, hs_real *fu)
{
    (void)t; (void)q; (void)u; (void)z; (void)in;
    const hs_rods r = rods(m);
    hs_rods_force_jac(&r, fq, fu);
    return HS_OK;
}

static int constraint(const hs_model *m, hs_real t, const hs_real *q, hs_real *g, hs_real *G,
                      hs_real *gt)
{
    (void)t;
    const hs_rods r = rods(m);
    return hs_rods_constraint(&r, q, g, G, gt);
}

static int gamma_fn(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, hs_real *gam)
{
    (void)t;
    const hs_rods r = rods(m);
    return hs_rods_gamma(&r, q, u, gam);
}

static int curvature(const hs_model *m, hs_real t, const hs_real *q, const hs_real *lambda,
                     hs_real *K)
{
    (void)t;
    const hs_rods r = rods(m);
    return hs_rods_curvature(&r, q, lambda, K);
}

static int energy(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                  const hs_real *z, hs_real *E)
{
    (void)t; (void)z;
    const hs_rods r = rods(m);
    *E = hs_rods_energy(&r, q, u);
    return hs_isfinite(*E) ? HS_OK : HS_E_NONFINITE;
}

static int output(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                  const hs_real *z, const hs_real *in, hs_real *y)
{
    (void)t; (void)z; (void)in;
    const hs_rods r = rods(m);
    y[0] = hs_rods_energy(&r, q, u);
    hs_rods_end(&r, q, r.nr - 1, 1, &y[1], &y[2]);
    return HS_OK;
}

const hs_model_type hs_chain_type = {
    .name = "chain",
    .doc = "planar chain of n uniform rods pinned at the origin, maximal coordinates, released horizontal",
    .nq = HS_CHAIN_NQ_MAX,
    .nc = HS_CHAIN_NC_MAX,
    .nz = 0,
    .nin = 0,
    .nout = HS_CHAIN_NOUT,
    .params = params,
    .nparams = (int)(sizeof params / sizeof params[0]),
    .param_size = sizeof(hs_chain_params),
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
    .blocks = blocks,
    .curvature = curvature,
    .energy = energy,
};
