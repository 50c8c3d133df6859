/* ladder.c - the ladder of rigid rods of [L2] (Lacoursiere, SPOOK), Fig. 2, made planar.
 *
 * [L2], sec. 6: "Rods 1 and 2 have their tails fixed at the origin. Then, rod j is connected
 * by its tail to the head of rod j-3 when mod(j, 3) = 2, and to rod j-2 otherwise. Finally, rod
 * j is connected head to head with rod j+1 for j = 3k, k = 1, 2, ..., N." With N links there
 * are 4 + 3(N-1) = 3N + 1 rods, 4N + 1 joints and N closed loops; every rod has mass 10 and
 * length 1. Read as a picture: rods 1, 4, 7, ... are the N + 1 rungs, rods 2, 5, 8, ... one
 * rail and rods 3, 6, 9, ... the other, so link c is the square cell of rods 3c-1, 3c, 3c+1
 * closed by the rung above it.
 *
 * Differences from the paper, on purpose: the paper's rods are 3D (centre plus a unit vector
 * with a unit-length constraint per rod, ball joints); here they are planar with maximal
 * coordinates (x, y, theta) per rod and revolute joints (2 equations each), the chain model's
 * formulation, so nq = 3(3N+1), nc = 2(4N+1) and no unit-length constraints. Planar loops of
 * revolute joints are not redundant (Gruebler: 3(3N+1) - 2(4N+1) = N + 1 degrees of freedom:
 * the swing about the origin plus one shear per cell). So each square cell is a parallelogram
 * that shears freely, and released horizontal the ladder folds flat within half a second
 * (n = 1: t = 0.44 s): there the loop equations become redundant and G loses rank, the case
 * issue 9 wants regularized constraints (SPOOK) for; an unregularized LU may refuse the step
 * (the float build does at n = 1, 2). The paper does not give the initial
 * configuration; here the ladder is released from rest lying horizontal: rails along +x at
 * y = 0 and y = -L, rungs along -y, gravity 9.81 in -y (the paper does not state g either). */
#include "hs_models.h"
#include "hs_rods.h"
#include <stddef.h>

#define P(m) ((const hs_ladder_params *)(m)->p)

static const hs_param_info params[] = {
    {"n", offsetof(hs_ladder_params, n), HS_R(10.0), HS_R(1.0), (hs_real)HS_LADDER_N_MAX, "number of links (square cells, integer)"},
    {"m", offsetof(hs_ladder_params, m), HS_R(10.0), HS_R(1e-6), HS_R(1e6), "mass of each rod (kg)"},
    {"len", offsetof(hs_ladder_params, len), HS_R(1.0), HS_R(1e-3), HS_R(1e3), "length of each rod (m)"},
    {"grav", offsetof(hs_ladder_params, grav), HS_R(9.81), HS_R(0.0), HS_R(1e3), "gravity, acting in -y (m/s^2)"},
};

static const char *const out_names[] = {"energy (J)", "corner x (m)", "corner y (m)"};

/* Joints in the order the ladder is built, cell by cell: tail joints of rods 1, 2, then per
 * cell c = 1 .. N the tail joints of its new rods 3c-1 (cell 1: none), 3c, 3c+1 and the
 * head-to-head joint (3c, 3c+1) that closes it. So joint k >= 1 is, with c = (k+3)/4 and
 * r = (k+3) mod 4: r < 3 the tail joint of rod 3c-1+r, r = 3 the loop closure. Each joint's rods
 * were met at most three new rods earlier (hs_rods computes each rod's sin/cos once) and the
 * G blocks are banded. Rod indices are 0-based here, 1-based in the comments. */
static void joint(int n, int k, hs_rod_joint *j)
{
    (void)n;
    const int c = (k + 3) / 4, r = (k + 3) % 4;
    if (k > 0 && r == 3) {
        j->a = 3 * c; j->sa = 1;      /* rod 3c+1's head ... */
        j->b = 3 * c - 1; j->sb = 1;  /* ... at rod 3c's head */
        return;
    }
    const int jr = k == 0 ? 1 : 3 * c - 1 + r; /* 1-based rod whose tail this joint holds */
    j->a = jr - 1; j->sa = -1; j->sb = 1;
    j->b = jr <= 2 ? -1 : (jr % 3 == 2 ? jr - 3 : jr - 2) - 1;
}

static void place(hs_real *q, int rod1, hs_real x, hs_real y, hs_real th)
{
    q[3 * (rod1 - 1)] = x; q[3 * (rod1 - 1) + 1] = y; q[3 * (rod1 - 1) + 2] = th;
}

static int initial(const hs_model *m, hs_real t0, hs_real *q, hs_real *u, hs_real *z)
{
    (void)t0; (void)z;
    const int n = hs_rods_links(m);
    const hs_real L = P(m)->len, down = -HS_R(1.5707963267948966);
    place(q, 1, HS_R(0.0), -HS_R(0.5) * L, down);
    for (int c = 1; c <= n; ++c) {
        const hs_real xc = (hs_real)c * L;
        place(q, 3 * c - 1, xc - HS_R(0.5) * L, HS_R(0.0), HS_R(0.0));
        place(q, 3 * c, xc - HS_R(0.5) * L, -L, HS_R(0.0));
        place(q, 3 * c + 1, xc, -HS_R(0.5) * L, down);
    }
    for (int i = 0; i < HS_LADDER_NQ(n); ++i) { u[i] = HS_R(0.0); }
    return HS_OK;
}

static const hs_rods_family FAMILY = {
    .n_max = HS_LADDER_N_MAX, .rods_per_link = 3, .rods_extra = 1,
    .joints_per_link = 4, .joints_extra = 1, .joint = joint};

const hs_model_type hs_ladder_type = {
    .name = "ladder",
    .doc = "ladder of rods of Lacoursiere's SPOOK paper, Fig. 2 (planar, maximal coordinates): n links, 3n+1 rods, 4n+1 joints",
    .nq = HS_LADDER_NQ_MAX,
    .nc = HS_LADDER_NC_MAX,
    .nz = 0,
    .nin = 0,
    .nout = HS_LADDER_NOUT,
    .params = params,
    /* MISRA Ref 10.8.1 [table length, compile-time constant] */
    .nparams = (int)(sizeof params / sizeof params[0]),
    .param_size = sizeof(hs_ladder_params),
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
    .constraint_all = hs_rods_fn_constraint_all,
};
