/* hs_mb_row.c - the row primitives the joint files (model/elements/hs_mb_jt_*.c) build their
 * rows from: operands, DOT, ANGLE, QUAD and NORM rows, and the values their coord outputs read.
 * A leaf below the joint table: the files that walk the table (hs_mb_joint.c) sit above it. */
#include "hs_mb_int.h"


hs_mb_opnd mb_op_point(const hs_mb_point *p)
{
    hs_mb_opnd o;
    o.used = 1; o.body = p->body; o.dir = 0;
    for (int i = 0; i < 3; ++i) { o.s[i] = p->s[i]; }
    o.pt = (p->body < 0 && p->moving) ? p : NULL;
    return o;
}

hs_mb_opnd mb_op_dir(int body, const hs_real *v)
{
    hs_mb_opnd o;
    o.used = 1; o.body = body; o.dir = body >= 0; o.pt = NULL;
    for (int i = 0; i < 3; ++i) { o.s[i] = v[i]; }
    return o;
}

hs_mb_opnd mb_op_none(void)
{
    hs_mb_opnd o;
    o.used = 0; o.body = HS_MB_GROUND; o.dir = 0; o.pt = NULL;
    for (int i = 0; i < 3; ++i) { o.s[i] = HS_R(0.0); }
    return o;
}

static hs_mb_row *new_row(hs_mb_model *mb, int kind, int joint)
{
    const hs_mb_desc *D = mb->desc;
    const int k = mb->nmade;
    /* a redundant joint row the check removed is built into the sink: its joint's code stays
     * as it is, and no table sees the row */
    const int drop = (int)((joint >= 0) && (D->row_drop != NULL) && (k < D->nrow_made) && (D->row_drop[k] != 0u));
    if ((drop == 0) && (mb->nrow >= HS_MB_MAX_NC)) { return NULL; }
    ++mb->nmade;
    hs_mb_row *R = (drop != 0) ? &mb->row_sink : &mb->rows[mb->nrow];
    if (drop == 0) { ++mb->nrow; }
    R->kind = kind; R->joint = joint; R->body = HS_MB_GROUND; R->body2 = HS_MB_GROUND;
    for (int i = 0; i < 4; ++i) { R->o[i] = mb_op_none(); }
    R->f = NULL; R->value = HS_R(0.0); R->quad = NULL;
    return R;
}

hs_mb_row *mb_add_dot(hs_mb_model *mb, int j, hs_mb_opnd a, hs_mb_opnd b, hs_mb_opnd c, hs_mb_opnd d)
{
    hs_mb_row *R = new_row(mb, HS_MB_ROW_DOT, j);
    if (R != NULL) { R->o[0] = a; R->o[1] = b; R->o[2] = c; R->o[3] = d; }
    return R;
}

void mb_perp_pair(const hs_real *a, hs_real *u1, hs_real *u2)
{
    /* start from the axis direction a is least aligned with */
    hs_real e[3] = {0, 0, 0};
    const hs_real ax = a[0] < 0 ? -a[0] : a[0], ay = a[1] < 0 ? -a[1] : a[1], az = a[2] < 0 ? -a[2] : a[2];
    e[(ax <= ay && ax <= az) ? 0 : (ay <= az ? 1 : 2)] = HS_R(1.0);
    u1[0] = a[1] * e[2] - a[2] * e[1]; u1[1] = a[2] * e[0] - a[0] * e[2]; u1[2] = a[0] * e[1] - a[1] * e[0];
    const hs_real n = hs_sqrt(mb_dot3(u1, u1));
    for (int i = 0; i < 3; ++i) { u1[i] /= n; }
    u2[0] = a[1] * u1[2] - a[2] * u1[1]; u2[1] = a[2] * u1[0] - a[0] * u1[2]; u2[2] = a[0] * u1[1] - a[1] * u1[0];
}

const hs_real mb_ex[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};

int mb_rotates(const hs_mb_desc *D, int b)
{
    return b < 0 || D->bodies[b].kind == HS_MB_PLANAR || D->bodies[b].kind == HS_MB_SPATIAL;
}

hs_status mb_coincide(hs_mb_model *mb, int j, const hs_mb_joint *J)
{
    for (int k = 0; k < mb->desc->dim; ++k) {
        if (mb_add_dot(mb, j, mb_op_point(&J->a), mb_op_point(&J->b), mb_op_dir(HS_MB_GROUND, mb_ex[k]), mb_op_none()) == NULL) {
            return HS_E_SIZE;
        }
    }
    return HS_OK;
}

hs_status mb_lock3(hs_mb_model *mb, int j, int A, int B)
{
    static const int pr[3][2] = {{0, 1}, {0, 2}, {1, 2}};
    for (int k = 0; k < 3; ++k) {
        if (mb_add_dot(mb, j, mb_op_dir(A, mb_ex[pr[k][0]]), mb_op_none(), mb_op_dir(B, mb_ex[pr[k][1]]), mb_op_none()) == NULL) {
            return HS_E_SIZE;
        }
    }
    return HS_OK;
}

hs_status mb_angle_row(hs_mb_model *mb, int j, int A, int B, const hs_mb_fn *f)
{
    hs_mb_row *R = new_row(mb, HS_MB_ROW_ANGLE, j);
    if (R == NULL) { return HS_E_SIZE; }
    R->body = A; R->body2 = B; R->f = f;
    return HS_OK;
}

hs_status mb_quad_row(hs_mb_model *mb, int j, const hs_mb_point *a, const hs_mb_quadric *q)
{
    hs_mb_row *R = new_row(mb, HS_MB_ROW_QUAD, j);
    if (R == NULL) { return HS_E_SIZE; }
    R->o[0] = mb_op_point(a);
    R->quad = q;
    return HS_OK;
}

int mb_norm_row(hs_mb_model *mb, int b)
{
    hs_mb_row *R = new_row(mb, HS_MB_ROW_NORM, -1);
    if (R == NULL) { return HS_E_SIZE; }
    R->body = b;
    return HS_OK;
}

hs_real mb_row_travel(const hs_mb_model *mb, int r, const hs_real *s, hs_real t, const hs_real *q)
{
    const hs_mb_row *R = &mb->rows[r];
    mb_pk k4[3];
    hs_mb_opnd ax = R->o[2];
    if (s != NULL) {
        for (int j = 0; j < 3; ++j) { ax.s[j] = s[j]; }
    }
    mb_point_kin(mb, &R->o[0], t, q, NULL, &k4[0]);
    mb_point_kin(mb, &R->o[1], t, q, NULL, &k4[1]);
    mb_point_kin(mb, &ax, t, q, NULL, &k4[2]);
    hs_real d[3];
    for (int j = 0; j < 3; ++j) { d[j] = k4[0].r[j] - k4[1].r[j]; }
    return mb_dot3(d, k4[2].r);
}

hs_real mb_angle_diff(const hs_mb_model *mb, int A, int B, const hs_real *q)
{
    return q[mb->qoff[A] + 2] - (B >= 0 ? q[mb->qoff[B] + 2] : HS_R(0.0));
}
