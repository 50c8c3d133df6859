/* hs_mb_jt_perpendicular.c - joint "perpendicular": (a - b) . (c - d) = f(t): 1 row (the car axle's rheonomic row). */
#include "hs_mb_int.h"

static uint32_t check(const hs_mb_desc *D, const hs_mb_joint *J, const char **why)
{
    (void)D; (void)J; (void)why;
    return 0u;
}

static int rows(hs_mb_model *mb, int j)
{
    const hs_mb_joint *J = &mb->desc->joints[j];
    hs_mb_row *R = mb_add_dot(mb, j, mb_op_point(&J->a), mb_op_point(&J->b), mb_op_point(&J->c), mb_op_point(&J->d));
    if (R == NULL) { return HS_E_SIZE; }
    /* a zero law (the default: a, b, c all 0) is left out: it adds exactly 0 to g, g_t and
     * gamma, and its sine would be computed at every evaluation for nothing */
    if ((J->f.a != HS_R(0.0)) || (J->f.b != HS_R(0.0)) || (J->f.c != HS_R(0.0))) { R->f = &J->f; }
    return HS_OK;
}

static int coord_kind(const hs_mb_desc *D, const hs_mb_joint *J) { (void)D; (void)J; return -1; }

static int coord(const hs_mb_model *mb, int j, hs_real t, const hs_real *q, hs_real *y)
{
    (void)mb; (void)j; (void)t; (void)q; (void)y;
    return HS_E_MODEL;
}

const mb_joint_elem mb_jt_perpendicular = {
    "perpendicular", "HS_MB_PERPENDICULAR", MB_J_A | MB_J_B | MB_J_C | MB_J_D | MB_J_F, MB_J_A, check, rows, 0, coord_kind, coord, NULL,
    .motion = MB_MO_NONE, .drive = MB_NO, .stop = MB_NO, .hinge = MB_NO, .relative = MB_YES};
