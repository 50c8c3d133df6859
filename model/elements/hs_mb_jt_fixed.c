/* hs_mb_jt_fixed.c - joint "fixed": a and b coincide and the relative rotation is locked: 3 rows in 2-D, 6 in
 * 3-D; set values from the initial configuration. */
#include "hs_mb_int.h"

static uint32_t check(const hs_mb_desc *D, const hs_mb_joint *J, const char **why)
{
    if (J->a.body < 0) { *why = "a must be on a body"; return MB_J_A; }
    if (J->a.body == J->b.body) { *why = "must differ from a's body"; return MB_J_B; }
    if (mb_rotates(D, J->a.body) == 0) { *why = "must be a planar or spatial body"; return MB_J_A; }
    if (mb_rotates(D, J->b.body) == 0) { *why = "must be a planar or spatial body or ground"; return MB_J_B; }
    return 0u;
}

static int rows(hs_mb_model *mb, int j)
{
    const hs_mb_joint *J = &mb->desc->joints[j];
    const int rc = mb_coincide(mb, j, J);
    if (rc != (int)HS_OK) { return rc; }
    return mb->desc->dim == 2 ? mb_angle_row(mb, j, J->a.body, J->b.body, NULL) : mb_lock3(mb, j, J->a.body, J->b.body);
}

static int coord_kind(const hs_mb_desc *D, const hs_mb_joint *J) { (void)D; (void)J; return -1; }

static int coord(const hs_mb_model *mb, int j, hs_real t, const hs_real *q, hs_real *y)
{
    (void)mb; (void)j; (void)t; (void)q; (void)y;
    return HS_E_MODEL;
}

const mb_joint_elem mb_jt_fixed = {
    "fixed", "HS_MB_FIXED", MB_J_A | MB_J_B, MB_J_A, check, rows, 1, coord_kind, coord, NULL,
    .motion = MB_MO_RIGID, .drive = MB_NO, .stop = MB_NO, .hinge = MB_NO, .relative = MB_YES};
