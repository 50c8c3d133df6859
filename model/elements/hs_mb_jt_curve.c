/* hs_mb_jt_curve.c - joint "curve": point a on the ground quadric r^T A r + b.r + c = 0 (circle=, quadric=,
 * linear=, const=): 1 row. */
#include "hs_mb_int.h"

static uint32_t check(const hs_mb_desc *D, const hs_mb_joint *J, const char **why)
{
    (void)D;
    if (J->a.body < 0) { *why = "a must be on a body"; return MB_J_A; }
    return 0u;
}

static int rows(hs_mb_model *mb, int j)
{
    const hs_mb_joint *J = &mb->desc->joints[j];
    return mb_quad_row(mb, j, &J->a, &J->quad);
}

static int coord_kind(const hs_mb_desc *D, const hs_mb_joint *J) { (void)D; (void)J; return -1; }

static int coord(const hs_mb_model *mb, int j, hs_real t, const hs_real *q, hs_real *y)
{
    (void)mb; (void)j; (void)t; (void)q; (void)y;
    return HS_E_MODEL;
}

const mb_joint_elem mb_jt_curve = {
    "curve", "HS_MB_CURVE", MB_J_A | MB_J_CIRCLE | MB_J_QUADRIC | MB_J_LINEAR | MB_J_CONST, MB_J_A,
    check, rows, 0, coord_kind, coord, NULL,
    .motion = MB_MO_NONE, .drive = MB_NO, .stop = MB_NO, .hinge = MB_NO, .relative = MB_NO};
