/* hs_mb_jt_prismatic.c - joint "prismatic": relative rotation locked and a - b moving along axis (body b
 * frame): 2 rows in 2-D, 5 in 3-D; set values from the initial configuration. Coord: the travel. */
#include "hs_mb_int.h"

static uint32_t check(const hs_mb_desc *D, const hs_mb_joint *J, const char **why)
{
    if (J->a.body < 0) { *why = "a must be on a body"; return MB_J_A; }
    if (J->a.body == J->b.body) { *why = "must differ from a's body"; return MB_J_B; }
    if (mb_is_unit3(J->axis) == 0) { *why = "axis= must be a unit vector"; return MB_J_AXIS; }
    if (mb_rotates(D, J->a.body) == 0) { *why = "must be a planar or spatial body"; return MB_J_A; }
    if (mb_rotates(D, J->b.body) == 0) { *why = "must be a planar or spatial body or ground"; return MB_J_B; }
    return 0u;
}

static int rows(hs_mb_model *mb, int j)
{
    const hs_mb_joint *J = &mb->desc->joints[j];
    const int A = J->a.body, B = J->b.body;
    int rc = mb->desc->dim == 2 ? mb_angle_row(mb, j, A, B, NULL) : mb_lock3(mb, j, A, B);
    if (rc != (int)HS_OK) { return rc; }
    if (mb->desc->dim == 2) {
        const hs_real n[3] = {-J->axis[1], J->axis[0], 0};
        if (mb_add_dot(mb, j, mb_op_point(&J->a), mb_op_point(&J->b), mb_op_dir(B, n), mb_op_none()) == NULL) { rc = HS_E_SIZE; }
    } else {
        hs_real u1[3], u2[3];
        mb_perp_pair(J->axis, u1, u2);
        if (mb_add_dot(mb, j, mb_op_point(&J->a), mb_op_point(&J->b), mb_op_dir(B, u1), mb_op_none()) == NULL
            || mb_add_dot(mb, j, mb_op_point(&J->a), mb_op_point(&J->b), mb_op_dir(B, u2), mb_op_none()) == NULL) {
            rc = HS_E_SIZE;
        }
    }
    return rc;
}

static int coord_kind(const hs_mb_desc *D, const hs_mb_joint *J) { (void)D; (void)J; return 0; }

/* travel (a - b) . axis along b's axis */
static int coord(const hs_mb_model *mb, int j, hs_real t, const hs_real *q, hs_real *y)
{
    *y = mb_row_travel(mb, mb->jrow[j + 1] - 1, mb->desc->joints[j].axis, t, q);
    return HS_OK;
}

const mb_joint_elem mb_jt_prismatic = {
    "prismatic", "HS_MB_PRISMATIC", MB_J_A | MB_J_B | MB_J_AXIS, MB_J_A | MB_J_AXIS, check, rows, 1, coord_kind, coord, NULL,
    .motion = MB_MO_NONE, .drive = MB_NO, .stop = MB_YES, .hinge = MB_NO, .relative = MB_YES};
