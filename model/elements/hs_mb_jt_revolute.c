/* hs_mb_jt_revolute.c - joint "revolute": points a and b coincide (dim rows); spatial bodies add two rows
 * keeping axis (a frame) parallel to axis_b (b frame): a hinge. Its coord is the angle. */
#include "hs_mb_int.h"

static int spatial_pair(const hs_mb_desc *D, const hs_mb_joint *J)
{
    return (J->a.body >= 0 && D->bodies[J->a.body].kind == HS_MB_SPATIAL)
           || (J->b.body >= 0 && D->bodies[J->b.body].kind == HS_MB_SPATIAL);
}

static uint32_t check(const hs_mb_desc *D, const hs_mb_joint *J, const char **why)
{
    if (J->a.body < 0) { *why = "a must be on a body"; return MB_J_A; }
    if (J->a.body == J->b.body) { *why = "must differ from a's body"; return MB_J_B; }
    if (D->dim == 3) {
        if (mb_is_unit3(J->axis) == 0) { *why = "a 3-D revolute joint needs a unit axis="; return MB_J_AXIS; }
        if (mb_is_zero3(J->axis_b) == 0 && mb_is_unit3(J->axis_b) == 0) { *why = "not a unit vector"; return MB_J_AXIS_B; }
        if (spatial_pair(D, J) != 0 && mb_rotates(D, J->a.body) == 0) { *why = "a hinge needs a spatial body"; return MB_J_A; }
        if (spatial_pair(D, J) != 0 && mb_rotates(D, J->b.body) == 0) { *why = "a hinge needs a spatial body or ground"; return MB_J_B; }
    }
    return 0u;
}

static int rows(hs_mb_model *mb, int j)
{
    const hs_mb_joint *J = &mb->desc->joints[j];
    int rc = mb_coincide(mb, j, J);
    if (rc == (int)HS_OK && mb->desc->dim == 3 && spatial_pair(mb->desc, J) != 0) {
        hs_real u1[3], u2[3];
        const hs_real *ab = mb_is_zero3(J->axis_b) ? J->axis : J->axis_b;
        mb_perp_pair(ab, u1, u2);
        if (mb_add_dot(mb, j, mb_op_dir(J->a.body, J->axis), mb_op_none(), mb_op_dir(J->b.body, u1), mb_op_none()) == NULL
            || mb_add_dot(mb, j, mb_op_dir(J->a.body, J->axis), mb_op_none(), mb_op_dir(J->b.body, u2), mb_op_none()) == NULL) {
            rc = HS_E_SIZE;
        }
    }
    return rc;
}

static int coord_kind(const hs_mb_desc *D, const hs_mb_joint *J)
{
    if (D->dim == 2) {
        return (D->bodies[J->a.body].kind == HS_MB_PLANAR && (J->b.body < 0 || D->bodies[J->b.body].kind == HS_MB_PLANAR)) ? 1 : -1;
    }
    return mb_spatial_pair(D, J->a.body, J->b.body) ? 1 : -1;
}

static int coord(const hs_mb_model *mb, int j, hs_real t, const hs_real *q, hs_real *y)
{
    (void)t;
    const hs_mb_joint *J = &mb->desc->joints[j];
    if (mb->desc->dim == 3) {
        return mb_hinge_angle(mb, J->a.body, J->b.body, mb_axis_b(J->axis, J->axis_b), mb->hinge_c[HS_MB_MAX_FORCES + j], q, y);
    }
    *y = mb_angle_diff(mb, J->a.body, J->b.body, q);
    return HS_OK;
}

/* The hinge reference: zero angle where axis meets axis_b, initial angle in (-pi, pi]. */
static void prepare(hs_mb_model *mb, int j)
{
    const hs_mb_desc *D = mb->desc;
    const hs_mb_joint *J = &D->joints[j];
    if (D->dim == 3 && mb_spatial_pair(D, J->a.body, J->b.body) != 0) {
        mb_hinge_ref(J->axis, J->axis_b, D->bodies[J->a.body].rot,
                     J->b.body >= 0 ? D->bodies[J->b.body].rot : NULL, mb->hinge_c[HS_MB_MAX_FORCES + j]);
    }
}

const mb_joint_elem mb_jt_revolute = {
    "revolute", "HS_MB_REVOLUTE", MB_J_A | MB_J_B | MB_J_AXIS | MB_J_AXIS_B, MB_J_A, check, rows, 0, coord_kind, coord, prepare,
    .motion = MB_MO_RIGID, .drive = MB_NO, .stop = MB_YES, .hinge = MB_YES, .relative = MB_YES};
