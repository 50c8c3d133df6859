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

static int initial(const hs_model *m, hs_real t0, hs_real *q, hs_real *u, hs_real *z)
{
    (void)t0; (void)z;
    const int n = hs_rods_links(m);
    for (int i = 0; i < n; ++i) {
        q[3 * i] = ((hs_real)i + HS_R(0.5)) * P(m)->len;
        q[3 * i + 1] = HS_R(0.0);
        q[3 * i + 2] = HS_R(0.0);
        u[3 * i] = HS_R(0.0); u[3 * i + 1] = HS_R(0.0); u[3 * i + 2] = HS_R(0.0);
    }
    return HS_OK;
}

static const hs_rods_family FAMILY = {
    .n_max = HS_CHAIN_N_MAX, .rods_per_link = 1, .rods_extra = 0,
    .joints_per_link = 1, .joints_extra = 0, .joint = joint, .chain = 1};

const hs_model_type hs_chain_type = {
    .name = "chain",
    .doc = "planar chain of n uniform rods pinned at the origin, maximal coordinates, released horizontal",
    .nq = HS_CHAIN_NQ_MAX,
    .nc = HS_CHAIN_NC_MAX,
    .nz = 0,
    .nin = 0,
    .nout = HS_CHAIN_NOUT,
    .params = params,
    /* MISRA Ref 10.8.1 [table length, compile-time constant] */
    .nparams = (int)(sizeof params / sizeof params[0]),
    .param_size = sizeof(hs_chain_params),
    .out_names = out_names,
    .check = hs_rods_fn_check,
    .initial = initial,
    .mass = hs_rods_fn_mass,
    .force = hs_rods_fn_force,
    .force_jac = hs_rods_fn_force_jac,
    .constraint = hs_rods_fn_constraint,
    .gamma = hs_rods_fn_gamma,
    .output = hs_rods_fn_output,
    .dims = hs_rods_fn_dims,
    .blocks = hs_rods_fn_blocks,
    .curvature = hs_rods_fn_curvature,
    .energy = hs_rods_fn_energy,
    .motion = hs_rods_fn_motion,
    .spin = hs_rods_fn_spin,
    .release = hs_rods_fn_release,
    .data = &FAMILY,
    .symmetric_jac = 1, /* fq = fu = 0, K has rod-diagonal theta entries only */
    .masks = hs_rods_fn_masks,
    .constraint_all = hs_rods_fn_constraint_all,
};
