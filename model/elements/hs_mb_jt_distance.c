/* hs_mb_jt_distance.c - joint "distance": |a - b|^2 = length^2, a massless rod: 1 row. Coord: |a - b|. */
#include "hs_mb_int.h"

static uint32_t check(const hs_mb_desc *D, const hs_mb_joint *J, const char **why)
{
    (void)D;
    if (J->a.body < 0) { *why = "a must be on a body"; return MB_J_A; }
    if (J->a.body == J->b.body) { *why = "must differ from a's body"; return MB_J_B; }
    if (!(J->length > HS_R(0.0))) { *why = "length= must be > 0"; return MB_J_LENGTH; }
    return 0u;
}

static int rows(hs_mb_model *mb, int j)
{
    const hs_mb_joint *J = &mb->desc->joints[j];
    hs_mb_row *R = mb_add_dot(mb, j, mb_op_point(&J->a), mb_op_point(&J->b), mb_op_point(&J->a), mb_op_point(&J->b));
    if (R == NULL) { return HS_E_SIZE; }
    R->value = J->length * J->length;
    return HS_OK;
}

static int coord_kind(const hs_mb_desc *D, const hs_mb_joint *J) { (void)D; (void)J; return 0; }

static int coord(const hs_mb_model *mb, int j, hs_real t, const hs_real *q, hs_real *y)
{
    const int r0 = mb->jrow[j];
    mb_pk ka, kb;
    mb_point_kin(mb, &mb->rows[r0].o[0], t, q, NULL, &ka);
    mb_point_kin(mb, &mb->rows[r0].o[1], t, q, NULL, &kb);
    hs_real d[3];
    for (int i = 0; i < 3; ++i) { d[i] = ka.r[i] - kb.r[i]; }
    *y = hs_sqrt(mb_dot3(d, d));
    return HS_OK;
}

const mb_joint_elem mb_jt_distance = {
    "distance", "HS_MB_DISTANCE", MB_J_A | MB_J_B | MB_J_LENGTH, MB_J_A | MB_J_LENGTH, check, rows, 0, coord_kind, coord, NULL,
    .motion = MB_MO_ROD, .drive = MB_NO, .stop = MB_NO, .hinge = MB_NO, .relative = MB_YES};
