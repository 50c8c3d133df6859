/* hs_mb_kin.c - bodies: coordinates, points on bodies and their derivatives, quaternion
 * kinematics, and the accumulation of body blocks into dense or packed matrices.
 *
 * A point's derivatives are the only body-specific algebra; joints and forces are written in
 * terms of r, J = dr/dq, J'u, H[F] = d(J^T F)/dq and d(J u)/dq. For a quaternion body R(p) s
 * is a homogeneous quadratic in p, so J is linear in p and all three second-derivative terms
 * are the same linear map evaluated at p' or at unit vectors. */
#include "hs_mb_int.h"
#include "hs_math.h"

int hs_mb_body_nq(hs_mb_body_kind k)
{
    switch (k) {
    case HS_MB_PLANAR: return 3;
    case HS_MB_SPATIAL: return 7;
    case HS_MB_POINT2: return 2;
    case HS_MB_POINT3: return 3;
    default: return 0;
    }
}

void mb_fn_eval(const hs_mb_fn *f, hs_real t, hs_real *v, hs_real *d, hs_real *dd)
{
    hs_real s, c;
    hs_sincos(f->w * t + f->phi, &s, &c);
    if (v != NULL) { *v = f->a + f->b * t + f->c * s; }
    if (d != NULL) { *d = f->b + f->c * f->w * c; }
    if (dd != NULL) { *dd = -f->c * f->w * f->w * s; }
}

void mb_quat_E(const hs_real *p, hs_real E[3][4])
{
    const hs_real p0 = p[0], e1 = p[1], e2 = p[2], e3 = p[3];
    E[0][0] = -e1; E[0][1] = p0;  E[0][2] = -e3; E[0][3] = e2;
    E[1][0] = -e2; E[1][1] = e3;  E[1][2] = p0;  E[1][3] = -e1;
    E[2][0] = -e3; E[2][1] = -e2; E[2][2] = e1;  E[2][3] = p0;
}

void mb_quat_G(const hs_real *p, hs_real G[3][4])
{
    const hs_real p0 = p[0], e1 = p[1], e2 = p[2], e3 = p[3];
    G[0][0] = -e1; G[0][1] = p0;  G[0][2] = e3;  G[0][3] = -e2;
    G[1][0] = -e2; G[1][1] = -e3; G[1][2] = p0;  G[1][3] = e1;
    G[2][0] = -e3; G[2][1] = e2;  G[2][2] = -e1; G[2][3] = p0;
}

/* R(p) s = (p0^2 - e.e) s + 2 e (e.s) + 2 p0 e x s. */
static void quat_rs(const hs_real *p, const hs_real *s, hs_real *out)
{
    const hs_real *e = &p[1];
    const hs_real a = p[0] * p[0] - mb_dot3(e, e), es = mb_dot3(e, s);
    const hs_real x[3] = {e[1] * s[2] - e[2] * s[1], e[2] * s[0] - e[0] * s[2], e[0] * s[1] - e[1] * s[0]};
    for (int i = 0; i < 3; ++i) { out[i] = a * s[i] + HS_R(2.0) * e[i] * es + HS_R(2.0) * p[0] * x[i]; }
}

void mb_quat_rs_jac(const hs_real *p, const hs_real *s, hs_real L[3][4])
{
    /* L(i, 0) = 2 (p0 s_i + (e x s)_i), L(i, 1 + j) = 2 (-e_j s_i + [i = j] e.s + s_j e_i
     * + p0 (u_j x s)_i), each entry written out with the same operations in the same order
     * (the diagonal's p0 * 0 too: it sets the sign of a zero entry) */
    const hs_real p0 = p[0], e0 = p[1], e1 = p[2], e2 = p[3];
    const hs_real s0 = s[0], s1 = s[1], s2 = s[2];
    const hs_real es = mb_dot3(&p[1], s);
    const hs_real z = HS_R(0.0);
    L[0][0] = HS_R(2.0) * (p0 * s0 + (e1 * s2 - e2 * s1));
    L[1][0] = HS_R(2.0) * (p0 * s1 + (e2 * s0 - e0 * s2));
    L[2][0] = HS_R(2.0) * (p0 * s2 + (e0 * s1 - e1 * s0));
    L[0][1] = HS_R(2.0) * (-e0 * s0 + es + s0 * e0 + p0 * z);
    L[0][2] = HS_R(2.0) * (-e1 * s0 + z + s1 * e0 + p0 * s2);
    L[0][3] = HS_R(2.0) * (-e2 * s0 + z + s2 * e0 + p0 * -s1);
    L[1][1] = HS_R(2.0) * (-e0 * s1 + z + s0 * e1 + p0 * -s2);
    L[1][2] = HS_R(2.0) * (-e1 * s1 + es + s1 * e1 + p0 * z);
    L[1][3] = HS_R(2.0) * (-e2 * s1 + z + s2 * e1 + p0 * s0);
    L[2][1] = HS_R(2.0) * (-e0 * s2 + z + s0 * e2 + p0 * s1);
    L[2][2] = HS_R(2.0) * (-e1 * s2 + z + s1 * e2 + p0 * -s0);
    L[2][3] = HS_R(2.0) * (-e2 * s2 + es + s2 * e2 + p0 * z);
}

/* H(i, j) = sum_a L_j(a, i) F(a) with L_j = mb_quat_rs_jac at the unit quaternion basis vector
 * j (the map is linear in p, so these are its second derivatives): d(L(p)^T F)/dp of a point s
 * of a quaternion body. Each L_j entry is 0 or +-2 s_k, so each sum is written with its
 * non-zero products only, in the order of a (the zero products, +-0, change no sum's value:
 * v + (+-0) is v); d = 2 s, m = 2 (-s). */
static void quat_hess(const hs_real *s, const hs_real *F, hs_real H[4][4])
{
    const hs_real d0 = HS_R(2.0) * s[0], d1 = HS_R(2.0) * s[1], d2 = HS_R(2.0) * s[2];
    const hs_real m0 = HS_R(2.0) * -s[0], m1 = HS_R(2.0) * -s[1], m2 = HS_R(2.0) * -s[2];
    H[0][0] = d0 * F[0] + d1 * F[1] + d2 * F[2];
    /* L_0(a, 1 + k) = 2 (e_k x s)_a, and L_{1+k}(a, 0) the same */
    H[1][0] = m2 * F[1] + d1 * F[2];
    H[2][0] = d2 * F[0] + m0 * F[2];
    H[3][0] = m1 * F[0] + d0 * F[1];
    H[0][1] = H[1][0]; H[0][2] = H[2][0]; H[0][3] = H[3][0];
    /* k = c: 2 s_c F_c at a = c, -2 s_a F_a elsewhere */
    H[1][1] = d0 * F[0] + m1 * F[1] + m2 * F[2];
    H[2][2] = m0 * F[0] + d1 * F[1] + m2 * F[2];
    H[3][3] = m0 * F[0] + m1 * F[1] + d2 * F[2];
    /* k != c: 2 s_c F_k (a = k) and 2 s_k F_c (a = c), in the order of a */
    H[1][2] = d1 * F[0] + d0 * F[1];
    H[2][1] = H[1][2];
    H[1][3] = d2 * F[0] + d0 * F[2];
    H[3][1] = H[1][3];
    H[2][3] = d2 * F[1] + d1 * F[2];
    H[3][2] = H[2][3];
}

/* mb_point_kin; jac 0: r and rt only (u NULL), J left zero, no quaternion Jacobian formed. */
static void point_kin(const hs_mb_model *mb, const hs_mb_opnd *o, hs_real t, const hs_real *q,
                      const hs_real *u, int jac, mb_pk *k)
{
    for (int i = 0; i < 3; ++i) {
        k->r[i] = HS_R(0.0); k->rt[i] = HS_R(0.0); k->v[i] = HS_R(0.0); k->ac[i] = HS_R(0.0);
        for (int j = 0; j < 7; ++j) { k->J[i][j] = HS_R(0.0); }
    }
    k->body = HS_MB_GROUND;
    k->nb = 0;
    k->jtr = 0; k->jrot = 0;
    if (o->used == 0) { return; }
    const int dim = mb->desc->dim;
    if (o->body < 0) {
        for (int i = 0; i < dim; ++i) { k->r[i] = o->s[i]; }
        const hs_mb_point *pt = o->pt;
        if (pt != NULL && pt->moving == 1) {
            for (int i = 0; i < dim; ++i) {
                hs_real v, d, dd;
                mb_fn_eval(&pt->f[i], t, &v, &d, &dd);
                k->r[i] += v; k->rt[i] = d; k->ac[i] = dd;
            }
        } else if (pt != NULL && pt->moving == 2) {
            /* y = fy(t) on the circle x^2 + y^2 = R^2 (the car axle's road point) */
            hs_real y, y1, y2;
            mb_fn_eval(&pt->f[1], t, &y, &y1, &y2);
            const hs_real x = hs_sqrt(pt->radius * pt->radius - y * y);
            const hs_real x1 = -y * y1 / x;
            const hs_real x2 = -(y1 * y1 + y * y2 + x1 * x1) / x;
            k->r[0] += x; k->r[1] += y;
            k->rt[0] = x1; k->rt[1] = y1;
            k->ac[0] = x2; k->ac[1] = y2;
        } else {
            /* nothing else to do for the other kinds */
        }
        for (int i = 0; i < 3; ++i) { k->v[i] = k->rt[i]; }
        return;
    }
    const int b = o->body;
    const hs_real *x = &q[mb->qoff[b]];
    const hs_real *ud = u ? &u[mb->qoff[b]] : NULL;
    const hs_real tr = o->dir ? HS_R(0.0) : HS_R(1.0);
    const hs_mb_body_kind kind = mb->desc->bodies[b].kind;
    k->body = b;
    k->nb = mb->bnq[b];
    switch (kind) {
    case HS_MB_PLANAR: {
        hs_real s, c;
        hs_sincos(x[2], &s, &c);
        const hs_real rs0 = c * o->s[0] - s * o->s[1], rs1 = s * o->s[0] + c * o->s[1];
        k->r[0] = tr * x[0] + rs0;
        k->r[1] = tr * x[1] + rs1;
        k->J[0][0] = tr; k->J[1][1] = tr;
        k->J[0][2] = -rs1; k->J[1][2] = rs0;
        if (ud != NULL) {
            const hs_real w = ud[2];
            k->ac[0] = -w * w * rs0;
            k->ac[1] = -w * w * rs1;
        }
        break;
    }
    case HS_MB_POINT2:
    case HS_MB_POINT3:
        for (int i = 0; i < dim; ++i) {
            k->r[i] = tr * x[i] + o->s[i];
            k->J[i][i] = tr;
        }
        break;
    case HS_MB_SPATIAL: {
        /* MISRA Ref 10.6.2 [*tool*: c ? 0 : 1 into an int] */
        k->jtr = (o->dir != 0) ? 0 : 1;
        if (o->s[0] == HS_R(0.0) && o->s[1] == HS_R(0.0) && o->s[2] == HS_R(0.0)) {
            /* the body's own origin (a wheel's centre, a frame's origin): R(p) s, its
             * Jacobian in p and J'u are zero, so the rotation's terms are left out */
            for (int i = 0; i < 3; ++i) { k->r[i] = tr * x[i] + HS_R(0.0); k->J[i][i] = tr; }
            break;
        }
        hs_real rs[3], L[3][4];
        quat_rs(&x[3], o->s, rs);
        if (jac == 0) {
            for (int i = 0; i < 3; ++i) { k->r[i] = tr * x[i] + rs[i]; }
            break;
        }
        k->jrot = 1;
        mb_quat_rs_jac(&x[3], o->s, L);
        for (int i = 0; i < 3; ++i) {
            k->r[i] = tr * x[i] + rs[i];
            k->J[i][i] = tr;
            for (int j = 0; j < 4; ++j) { k->J[i][3 + j] = L[i][j]; }
        }
        if (ud != NULL) {
            hs_real Ld[3][4];
            mb_quat_rs_jac(&ud[3], o->s, Ld);
            for (int i = 0; i < 3; ++i) {
                k->ac[i] = Ld[i][0] * ud[3] + Ld[i][1] * ud[4] + Ld[i][2] * ud[5] + Ld[i][3] * ud[6];
            }
        }
        break;
    }
    default:
        break;
    }
    if (ud != NULL && k->nb == 7) {
        /* J u of the shape (mb_pk): the dense sum from +0 without its exact zero terms, which
         * leave a sum from +0 as it is (never -0: +0 + -0 = +0) */
        for (int i = 0; i < 3; ++i) {
            hs_real v = HS_R(0.0);
            if (k->jtr != 0) { v += ud[i]; }
            for (int j = 3; (k->jrot != 0) && (j < 7); ++j) { v += k->J[i][j] * ud[j]; }
            k->v[i] = v;
        }
    } else if (ud != NULL) {
        for (int i = 0; i < 3; ++i) {
            hs_real v = HS_R(0.0);
            for (int j = 0; j < k->nb; ++j) { v += k->J[i][j] * ud[j]; }
            k->v[i] = v;
        }
    } else {
        /* positions only */
    }
}

void mb_point_kin(const hs_mb_model *mb, const hs_mb_opnd *o, hs_real t, const hs_real *q,
                  const hs_real *u, mb_pk *k)
{
    point_kin(mb, o, t, q, u, 1, k);
}

void mb_point_pos(const hs_mb_model *mb, const hs_mb_opnd *o, hs_real t, const hs_real *q, mb_pk *k)
{
    point_kin(mb, o, t, q, NULL, 0, k);
}

void mb_point_hess(const hs_mb_model *mb, const hs_mb_opnd *o, const hs_real *q,
                   const hs_real *F, hs_real H[7][7])
{
    for (int i = 0; i < 7; ++i) {
        for (int j = 0; j < 7; ++j) { H[i][j] = HS_R(0.0); }
    }
    if (o->used == 0 || o->body < 0) { return; }
    const hs_real *x = &q[mb->qoff[o->body]];
    switch (mb->desc->bodies[o->body].kind) {
    case HS_MB_PLANAR: {
        hs_real s, c;
        hs_sincos(x[2], &s, &c);
        const hs_real rs0 = c * o->s[0] - s * o->s[1], rs1 = s * o->s[0] + c * o->s[1];
        H[2][2] = -(F[0] * rs0 + F[1] * rs1);
        break;
    }
    case HS_MB_SPATIAL: {
        hs_real H4[4][4];
        quat_hess(o->s, F, H4);
        for (int i = 0; i < 4; ++i) {
            for (int j = 0; j < 4; ++j) { H[3 + i][3 + j] = H4[i][j]; }
        }
        break;
    }
    default:
        break;
    }
}

void mb_point_dju(const hs_mb_model *mb, const hs_mb_opnd *o, const hs_real *q,
                  const hs_real *u, hs_real D[3][7])
{
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 7; ++j) { D[i][j] = HS_R(0.0); }
    }
    if (o->used == 0 || o->body < 0) { return; }
    const hs_real *x = &q[mb->qoff[o->body]];
    const hs_real *ud = &u[mb->qoff[o->body]];
    switch (mb->desc->bodies[o->body].kind) {
    case HS_MB_PLANAR: {
        hs_real s, c;
        hs_sincos(x[2], &s, &c);
        const hs_real rs0 = c * o->s[0] - s * o->s[1], rs1 = s * o->s[0] + c * o->s[1];
        D[0][2] = -ud[2] * rs0;
        D[1][2] = -ud[2] * rs1;
        break;
    }
    case HS_MB_SPATIAL: {
        hs_real L[3][4];
        mb_quat_rs_jac(&ud[3], o->s, L);
        for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 4; ++j) { D[i][3 + j] = L[i][j]; }
        }
        break;
    }
    default:
        break;
    }
}

void mb_qq_add(const hs_mb_model *mb, hs_real *A, int bi, int i, int bj, int j, hs_real v)
{
    if (bi < 0 || bj < 0) { return; }
    if (mb->packed != 0) {
        const int off = mb->qqoff[bi][bj];
        if (off >= 0) { A[off + i * mb->bnq[bj] + j] += v; }
    } else {
        A[(mb->qoff[bi] + i) * mb->nq + mb->qoff[bj] + j] += v;
    }
}

void mb_zero(hs_real *A, int n)
{
    /* four stores per turn: the loop's own count and branch are most of a one-store turn */
    int i = 0;
    for (; i + 4 <= n; i += 4) { A[i] = HS_R(0.0); A[i + 1] = HS_R(0.0); A[i + 2] = HS_R(0.0); A[i + 3] = HS_R(0.0); }
    for (; i < n; ++i) { A[i] = HS_R(0.0); }
}

void mb_qq_zero(const hs_mb_model *mb, hs_real *A)
{
    mb_zero(A, mb->packed ? mb->qqsize : mb->nq * mb->nq);
}

hs_real *mb_qq_block(const hs_mb_model *mb, hs_real *A, int bi, int bj, int *stride)
{
    hs_real *blk = NULL;
    if (bi >= 0 && bj >= 0) {
        if (mb->packed != 0) {
            const int off = mb->qqoff[bi][bj];
            if (off >= 0) { blk = &A[off]; *stride = mb->bnq[bj]; }
        } else {
            blk = &A[mb->qoff[bi] * mb->nq + mb->qoff[bj]];
            *stride = mb->nq;
        }
    }
    return blk;
}

/* Row i of J_L^T X (X NULL: the identity) into JX; 0 when it is zero (nothing to add). For a
 * spatial L (mb_pk's shape) a translation row is X's row i: the dense sum 0 + 1 X(i, b) + 0 + 0
 * is that value exactly (v + (+-0) is v), and the rows the shape makes zero are skipped. */
static int jx_row(const mb_pk *L, hs_real (*X)[3], int i, hs_real JX[3])
{
    if (L->nb == 7 && i < 3) {
        if (L->jtr == 0) { return 0; }
        for (int b = 0; b < 3; ++b) {
            JX[b] = (X != NULL) ? X[i][b] : ((b == i) ? HS_R(1.0) : HS_R(0.0));
        }
    } else if (L->nb == 7 && L->jrot == 0) {
        return 0;
    } else if (X == NULL) {
        /* (0 + J0 e0 + J1 e1 + J2 e2) with the unit e: J + 0 exactly, the sum's sign of zero too */
        for (int b = 0; b < 3; ++b) { JX[b] = L->J[b][i] + HS_R(0.0); }
    } else {
        for (int b = 0; b < 3; ++b) {
            hs_real acc = HS_R(0.0);
            for (int a = 0; a < 3; ++a) { acc += L->J[a][i] * X[a][b]; }
            JX[b] = acc;
        }
    }
    return (JX[0] == HS_R(0.0) && JX[1] == HS_R(0.0) && JX[2] == HS_R(0.0)) ? 0 : 1;
}

void mb_jx_rows(const mb_pk *L, hs_real (*X)[3], mb_jx *o)
{
    for (int i = 0; i < L->nb; ++i) { o->ok[i] = jx_row(L, X, i, o->JX[i]); }
}

/* blk += s J_L^T X D over D's columns cols[0..nz) (D of R's body), J_L^T X's rows in LX; dtr 1:
 * D's columns 0..2 are the unit vectors (a spatial point's translation), where the dense sum
 * JX . D(:, j) is JX[j]. */
static void jxd_cols(hs_real *blk, int stride, const mb_pk *L, const mb_jx *LX, const hs_real D[3][7],
                     const int *cols, int nz, int dtr, hs_real s)
{
    for (int i = 0; i < L->nb; ++i) {
        if (LX->ok[i] == 0) { continue; }
        const hs_real *JX = LX->JX[i];
        hs_real *row = &blk[i * stride];
        for (int c = 0; c < nz; ++c) {
            const int j = cols[c];
            const hs_real v = (dtr != 0 && j < 3) ? JX[j] : (JX[0] * D[0][j] + JX[1] * D[1][j] + JX[2] * D[2][j]);
            row[j] += s * v;
        }
    }
}

void mb_add_jxd_rows(const hs_mb_model *mb, hs_real *A, const mb_pk *L, const mb_jx *LX,
                     const hs_real D[3][7], int body, int nb, hs_real s)
{
    if (L->nb == 0 || nb == 0 || body < 0) { return; }
    int stride = 0;
    hs_real *blk = mb_qq_block(mb, A, L->body, body, &stride);
    if (blk == NULL) { return; }
    /* Adding an exact zero leaves every entry as it was (A starts at +0, and +0 + -0 = +0), so
     * the columns of D and the rows of J^T X that are zero (a body origin's rotation terms,
     * a direction's translation) are skipped. */
    int cols[7], nz = 0;
    for (int j = 0; j < nb; ++j) {
        if (D[0][j] != HS_R(0.0) || D[1][j] != HS_R(0.0) || D[2][j] != HS_R(0.0)) { cols[nz++] = j; }
    }
    jxd_cols(blk, stride, L, LX, D, cols, nz, 0, s);
}

void mb_add_jxd(const hs_mb_model *mb, hs_real *A, const mb_pk *L, hs_real (*X)[3],
                const hs_real D[3][7], int body, int nb, hs_real s)
{
    if (L->nb == 0 || nb == 0 || body < 0) { return; }
    mb_jx LX;
    mb_jx_rows(L, X, &LX);
    mb_add_jxd_rows(mb, A, L, &LX, D, body, nb, s);
}

/* P(i, j) = J_L(:, i) . J_R(:, j) of two spatial points (mb_pk's shape) for i, j >= 3; the
 * translation entries are the shape's 1 and J entries, formed where they are used. */
static hs_real jtj_rot(const mb_pk *L, const mb_pk *R, int i, int j)
{
    return (L->J[0][i] + HS_R(0.0)) * R->J[0][j] + (L->J[1][i] + HS_R(0.0)) * R->J[1][j]
           + (L->J[2][i] + HS_R(0.0)) * R->J[2][j];
}

/* mb_add_jtj_pair's one block of two spatial points on one body: entry (x, y) gets s P(x, y),
 * then s P(y, x), skipping zeros, as the dense pass; the dense sums' exact zero terms are left
 * out (v + (+-0) is v): P(x, x) = 1 (x < 3, both translate), P(x, y) = J_R(x, y), P(y, x) =
 * J_L(x, y) (x < 3 <= y), the rotation block the 3-term sums. */
static void jtj_same_sp(hs_real *b, int st, const mb_pk *L, const mb_pk *R, hs_real s)
{
    if (L->jtr != 0 && R->jtr != 0) {
        for (int x = 0; x < 3; ++x) { hs_real *e = &b[x * st + x]; *e += s; *e += s; }
    }
    for (int x = 0; x < 3; ++x) {
        for (int y = 3; y < 7; ++y) {
            const hs_real pxy = (L->jtr != 0) ? R->J[x][y] : HS_R(0.0);
            const hs_real pyx = (R->jtr != 0) ? L->J[x][y] : HS_R(0.0);
            hs_real *e = &b[x * st + y], *f = &b[y * st + x];
            if (pxy != HS_R(0.0)) { *e += s * pxy; }
            if (pyx != HS_R(0.0)) { *e += s * pyx; *f += s * pyx; }
            if (pxy != HS_R(0.0)) { *f += s * pxy; }
        }
    }
    if (L->jrot == 0 || R->jrot == 0) { return; }
    hs_real P[4][4];
    for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 4; ++j) { P[i][j] = jtj_rot(L, R, 3 + i, 3 + j); }
    }
    for (int x = 0; x < 4; ++x) {
        for (int y = 0; y < 4; ++y) {
            hs_real *e = &b[(3 + x) * st + 3 + y];
            if (P[x][y] != HS_R(0.0)) { *e += s * P[x][y]; }
            if (P[y][x] != HS_R(0.0)) { *e += s * P[y][x]; }
        }
    }
}

/* v into b1(i, j) and b2(j, i) (either may be absent). */
static void add_pair(hs_real *b1, int s1, hs_real *b2, int s2, int i, int j, hs_real v)
{
    if (b1 != NULL) { b1[i * s1 + j] += v; }
    if (b2 != NULL) { b2[j * s2 + i] += v; }
}

/* mb_add_jtj_pair's two blocks of two spatial points on distinct bodies: v = s P(i, j) into
 * b1(i, j) and b2(j, i), P's entries as in jtj_same_sp; the zero ones (which add +-0, leaving
 * every entry as it was) are skipped. */
static void jtj_two_sp(hs_real *b1, int s1, hs_real *b2, int s2, const mb_pk *L, const mb_pk *R, hs_real s)
{
    if (b1 != NULL && b2 != NULL) {
        /* both blocks present (bodies a row couples): row i of b1 and column i of b2 by pointer */
        for (int i = 0; (L->jtr != 0) && (i < 3); ++i) {
            hs_real *r1 = &b1[i * s1], *c2 = &b2[i];
            if (R->jtr != 0) { r1[i] += s; c2[i * s2] += s; }
            for (int j = 3; (R->jrot != 0) && (j < 7); ++j) {
                const hs_real p = R->J[i][j];
                if (p != HS_R(0.0)) { const hs_real v = s * p; r1[j] += v; c2[j * s2] += v; }
            }
        }
        for (int i = 3; (L->jrot != 0) && (i < 7); ++i) {
            hs_real *r1 = &b1[i * s1], *c2 = &b2[i];
            for (int j = 0; (R->jtr != 0) && (j < 3); ++j) {
                const hs_real p = L->J[j][i];
                if (p != HS_R(0.0)) { const hs_real v = s * p; r1[j] += v; c2[j * s2] += v; }
            }
            for (int j = 3; (R->jrot != 0) && (j < 7); ++j) {
                const hs_real v = s * jtj_rot(L, R, i, j);
                r1[j] += v; c2[j * s2] += v;
            }
        }
        return;
    }
    for (int i = 0; i < 3; ++i) {
        if (L->jtr != 0 && R->jtr != 0) { add_pair(b1, s1, b2, s2, i, i, s * HS_R(1.0)); }
        for (int j = 3; j < 7; ++j) {
            const hs_real p = (L->jtr != 0) ? R->J[i][j] : HS_R(0.0);
            if (p != HS_R(0.0)) { add_pair(b1, s1, b2, s2, i, j, s * p); }
        }
    }
    for (int i = 3; (L->jrot != 0) && (i < 7); ++i) {
        for (int j = 0; j < 3; ++j) {
            const hs_real p = (R->jtr != 0) ? L->J[j][i] : HS_R(0.0);
            if (p != HS_R(0.0)) { add_pair(b1, s1, b2, s2, i, j, s * p); }
        }
        for (int j = 3; (R->jrot != 0) && (j < 7); ++j) {
            add_pair(b1, s1, b2, s2, i, j, s * jtj_rot(L, R, i, j));
        }
    }
}

void mb_add_jtj_pair(const hs_mb_model *mb, hs_real *A, const mb_pk *L, const mb_pk *R, hs_real s)
{
    if (L->nb == 0 || R->nb == 0 || L->body < 0 || R->body < 0) { return; }
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    const int sp = ((L->nb == 7) && (R->nb == 7)) ? 1 : 0;
    if (L->body == R->body) {
        /* one block: each entry gets s (J_L^T J_R)(x, y), then s (J_R^T J_L)(x, y), the
         * second the first's (y, x) (entries are independent, so per entry the order of the
         * two passes is kept) */
        int st = 0;
        hs_real *b = mb_qq_block(mb, A, L->body, L->body, &st);
        if (b == NULL) { return; }
        if (sp != 0) { jtj_same_sp(b, st, L, R, s); return; }
        hs_real P[7][7];
        const int n = L->nb;
        for (int i = 0; i < n; ++i) {
            const hs_real J0 = L->J[0][i] + HS_R(0.0), J1 = L->J[1][i] + HS_R(0.0), J2 = L->J[2][i] + HS_R(0.0);
            for (int j = 0; j < n; ++j) { P[i][j] = J0 * R->J[0][j] + J1 * R->J[1][j] + J2 * R->J[2][j]; }
        }
        for (int x = 0; x < n; ++x) {
            for (int y = 0; y < n; ++y) {
                hs_real *e = &b[x * st + y];
                if (P[x][y] != HS_R(0.0)) { *e += s * P[x][y]; }
                if (P[y][x] != HS_R(0.0)) { *e += s * P[y][x]; }
            }
        }
        return;
    }
    /* Two blocks, nothing added between them: entry (j, i) of J_R^T J_L is the same sum of the
     * same products as (i, j) of J_L^T J_R (products commute exactly), formed once. */
    int s1 = 0, s2 = 0;
    hs_real *b1 = mb_qq_block(mb, A, L->body, R->body, &s1);
    hs_real *b2 = mb_qq_block(mb, A, R->body, L->body, &s2);
    if (sp != 0) { jtj_two_sp(b1, s1, b2, s2, L, R, s); return; }
    int cols[7], nz = 0;
    for (int j = 0; j < R->nb; ++j) {
        if (R->J[0][j] != HS_R(0.0) || R->J[1][j] != HS_R(0.0) || R->J[2][j] != HS_R(0.0)) { cols[nz++] = j; }
    }
    for (int i = 0; i < L->nb; ++i) {
        const hs_real J0 = L->J[0][i] + HS_R(0.0), J1 = L->J[1][i] + HS_R(0.0), J2 = L->J[2][i] + HS_R(0.0);
        if (J0 == HS_R(0.0) && J1 == HS_R(0.0) && J2 == HS_R(0.0)) { continue; }
        for (int c = 0; c < nz; ++c) {
            const int j = cols[c];
            const hs_real v = s * (J0 * R->J[0][j] + J1 * R->J[1][j] + J2 * R->J[2][j]);
            add_pair(b1, s1, b2, s2, i, j, v);
        }
    }
}

void mb_add_jxj_rows(const hs_mb_model *mb, hs_real *A, const mb_pk *L, const mb_jx *LX,
                     const mb_pk *R, hs_real s)
{
    if (R->nb != 7 || L->nb == 0 || R->body < 0) {
        mb_add_jxd_rows(mb, A, L, LX, R->J, R->body, R->nb, s);
        return;
    }
    int stride = 0;
    hs_real *blk = mb_qq_block(mb, A, L->body, R->body, &stride);
    if (blk == NULL) { return; }
    /* a spatial R's columns by its shape (mb_add_jxd finds the non-zero ones by a scan) */
    int cols[7], nz = 0;
    for (int j = 0; (R->jtr != 0) && (j < 3); ++j) { cols[nz] = j; ++nz; }
    for (int j = 3; (R->jrot != 0) && (j < 7); ++j) { cols[nz] = j; ++nz; }
    jxd_cols(blk, stride, L, LX, R->J, cols, nz, 1, s);
}

void mb_add_jxj(const hs_mb_model *mb, hs_real *A, const mb_pk *L, hs_real (*X)[3],
                const mb_pk *R, hs_real s)
{
    if (L->nb == 0 || R->nb == 0 || R->body < 0) { return; }
    mb_jx LX;
    mb_jx_rows(L, X, &LX);
    mb_add_jxj_rows(mb, A, L, &LX, R, s);
}

void mb_add_h(const hs_mb_model *mb, hs_real *A, int body, int nb, const hs_real H[7][7], hs_real s)
{
    int stride = 0;
    hs_real *blk = mb_qq_block(mb, A, body, body, &stride);
    if (blk == NULL) { return; }
    for (int i = 0; i < nb; ++i) {
        for (int j = 0; j < nb; ++j) { blk[i * stride + j] += s * H[i][j]; }
    }
}

void mb_add_point_hess(const hs_mb_model *mb, hs_real *A, const hs_mb_opnd *o, const hs_real *q,
                       const hs_real *F, hs_real s)
{
    if (o->used == 0 || o->body < 0) { return; }
    const hs_mb_body_kind kind = mb->desc->bodies[o->body].kind;
    /* the entries mb_point_hess leaves zero add nothing (A + s 0 is A), so only its non-zero
     * block is formed and added, each entry with the same products as there */
    if (kind == HS_MB_PLANAR || (kind == HS_MB_SPATIAL && (mb_is_zero3(o->s) == 0))) {
        int stride = 0;
        hs_real *blk = mb_qq_block(mb, A, o->body, o->body, &stride);
        if (blk == NULL) { return; }
        if (kind == HS_MB_SPATIAL) {
            hs_real H4[4][4];
            quat_hess(o->s, F, H4);
            for (int i = 0; i < 4; ++i) {
                for (int j = 0; j < 4; ++j) { blk[(3 + i) * stride + 3 + j] += s * H4[i][j]; }
            }
            return;
        }
        hs_real H[7][7];
        mb_point_hess(mb, o, q, F, H);
        int i0 = 3, i1 = 7;
        if (kind == HS_MB_PLANAR) { i0 = 2; i1 = 3; }
        for (int i = i0; i < i1; ++i) {
            for (int j = i0; j < i1; ++j) { blk[i * stride + j] += s * H[i][j]; }
        }
    }
}

/* In the kinematics file (hs_mb_load.c calls into it, not back): the point Jacobians skip their
 * exact zero columns with it. */
int mb_is_zero3(const hs_real *v) { return v[0] == HS_R(0.0) && v[1] == HS_R(0.0) && v[2] == HS_R(0.0); }
