/* hs_mb_jt_spherical.c - joint "spherical": points a and b coincide (2 rows in 2-D, 3 in 3-D). */
#include "hs_mb_int.h"

static uint32_t check(const hs_mb_desc *D, const hs_mb_joint *J, const char **why)
{
    (void)D;
    if (J->a.body < 0) { *why = "a must be on a body"; return MB_J_A; }
    if (J->a.body == J->b.body) { *why = "must differ from a's body"; return MB_J_B; }
    return 0u;
}

static int rows(hs_mb_model *mb, int j) { return mb_coincide(mb, j, &mb->desc->joints[j]); }

static int coord_kind(const hs_mb_desc *D, const hs_mb_joint *J) { (void)D; (void)J; return -1; }

static int coord(const hs_mb_model *mb, int j, hs_real t, const hs_real *q, hs_real *y)
{
    (void)mb; (void)j; (void)t; (void)q; (void)y;
    return HS_E_MODEL;
}

const mb_joint_elem mb_jt_spherical = {
    "spherical", "HS_MB_SPHERICAL", MB_J_A | MB_J_B, MB_J_A, check, rows, 0, coord_kind, coord, NULL,
    .motion = MB_MO_RIGID, .drive = MB_NO, .stop = MB_NO, .hinge = MB_NO, .relative = MB_YES};
