/* hs_mb_jt_driver.c - joint "driver": prescribes a coordinate = f(t): coord=angle theta_a - theta_b (planar),
 * coord=travel axis . (a - b) (ground axis): 1 row. Coord: that coordinate. */
#include "hs_mb_int.h"

static uint32_t check(const hs_mb_desc *D, const hs_mb_joint *J, const char **why)
{
    if (J->a.body < 0) { *why = "a must be on a body"; return MB_J_A; }
    if (J->a.body == J->b.body) { *why = "must differ from a's body"; return MB_J_B; }
    if (J->coord == 1 && mb_is_unit3(J->axis) == 0) { *why = "coord=travel needs a unit axis="; return MB_J_AXIS; }
    if (J->coord == 0 && (D->dim != 2 || D->bodies[J->a.body].kind != HS_MB_PLANAR)) { *why = "coord=angle needs a planar body"; return MB_J_A; }
    if (J->coord == 0 && mb_rotates(D, J->b.body) == 0) { *why = "coord=angle needs a planar body or ground"; return MB_J_B; }
    return 0u;
}

static int rows(hs_mb_model *mb, int j)
{
    const hs_mb_joint *J = &mb->desc->joints[j];
    if (J->coord == 0) { return mb_angle_row(mb, j, J->a.body, J->b.body, &J->f); }
    hs_mb_row *R = mb_add_dot(mb, j, mb_op_point(&J->a), mb_op_point(&J->b), mb_op_dir(HS_MB_GROUND, J->axis), mb_op_none());
    if (R == NULL) { return HS_E_SIZE; }
    R->f = &J->f;
    return HS_OK;
}

static int coord_kind(const hs_mb_desc *D, const hs_mb_joint *J) { (void)D; return J->coord == 0 ? 1 : 0; }

static int coord(const hs_mb_model *mb, int j, hs_real t, const hs_real *q, hs_real *y)
{
    const hs_mb_joint *J = &mb->desc->joints[j];
    if (J->coord == 0) { *y = mb_angle_diff(mb, J->a.body, J->b.body, q); }
    else { *y = mb_row_travel(mb, mb->jrow[j + 1] - 1, NULL, t, q); }
    return HS_OK;
}

const mb_joint_elem mb_jt_driver = {
    "driver", "HS_MB_DRIVER", MB_J_A | MB_J_B | MB_J_COORD | MB_J_AXIS | MB_J_F, MB_J_A, check, rows, 0, coord_kind, coord, NULL,
    .motion = MB_MO_NONE, .drive = MB_YES, .stop = MB_NO, .hinge = MB_NO, .relative = MB_NO};
