/* hs_mb_acc.c - accelerometer outputs (`acc`) of any body, jointed or not, at a point of it and
 * in ground or body axes (model/FORMAT.md "Outputs").
 *
 * Convention: the output is the point's absolute acceleration d2r/dt2 (gravity is a force, not
 * subtracted): a body at rest on a table reads 0, a body in free fall reads g (-9.81 up), a
 * pendulum released from rest at the horizontal reads g at release. An accelerometer's specific
 * force is this minus the gravity vector (in the same axes).
 *
 * With joints the accelerations need the multipliers: at the instant's (t, q, u) the index-1
 * system [M G^T; G 0] [u'; -lambda] = [f; -gamma] is solved once per output evaluation (dense
 * LU with partial pivoting, rt/hs_dense.h: a fixed operation count for the model's n = nq + nc,
 * at most HS_MB_ACC_MAXN; compile refuses larger ones), with f every force element's and
 * gravity's load (the forces of output()), the rigid rows (a joint's compliance and the
 * contacts' impulses are not in it). Then a point P = c + R s of body b reads
 * a_P = J u'_b + J' u_b (mb_point_kin: J = dP/dq_b, ac = J' u), in body axes R^T a_P. */
#include "hs_mb_int.h"
#include "hs_dense.h"

/* Body b's mass block into the dense n x n matrix A at its coordinates (what the layer's mass
 * matrix holds: m for each translation, Izz planar, 4 G^T J G + k p p^T for a quaternion). */
static void mass_block(const hs_mb_model *mb, int b, const hs_real *q, hs_real *A, int n)
{
    const hs_mb_body *B = &mb->desc->bodies[b];
    const int o = mb->qoff[b];
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    const int nt = ((B->kind == HS_MB_POINT2) || (B->kind == HS_MB_PLANAR)) ? 2 : 3;
    for (int i = 0; i < nt; ++i) { A[(o + i) * n + o + i] = B->mass; }
    if (B->kind == HS_MB_PLANAR) {
        A[(o + 2) * n + o + 2] = B->inertia[2];
    } else if (B->kind == HS_MB_SPATIAL) {
        const hs_real *p = &q[o + 3];
        const hs_real kk = HS_R(4.0) * (B->inertia[0] + B->inertia[1] + B->inertia[2]) / HS_R(3.0);
        hs_real G[3][4];
        mb_quat_G(p, G);
        for (int i = 0; i < 4; ++i) {
            for (int j = 0; j < 4; ++j) {
                hs_real a = HS_R(0.0);
                for (int r = 0; r < 3; ++r) { a += G[r][i] * B->inertia[r] * G[r][j]; }
                A[(o + 3 + i) * n + o + 3 + j] = HS_R(4.0) * a + kk * p[i] * p[j];
            }
        }
    } else {
        /* a point body: its translations only */
    }
}

hs_status mb_acc_solve(const hs_mb_model *mb, hs_real t, const hs_real *q, const hs_real *u,
                       const hs_real *f, hs_real *udd)
{
    /* the system matrix and pivots: static scratch (off the stack, which the boards bound) */
    static hs_real kkt[HS_MB_ACC_MAXN * HS_MB_ACC_MAXN];
    static int kpiv[HS_MB_ACC_MAXN];
    const int nq = mb->nq, nc = mb->nrow, n = nq + nc;
    if (n > HS_MB_ACC_MAXN) { return HS_E_SIZE; }
    for (int i = 0; i < n * n; ++i) { kkt[i] = HS_R(0.0); }
    for (int b = 0; b < mb->desc->nbodies; ++b) { mass_block(mb, b, q, kkt, n); }
    hs_real rhs[HS_MB_ACC_MAXN];
    hs_real grow[7];
    for (int r = 0; r < nc; ++r) {
        for (int b = 0; b < mb->desc->nbodies; ++b) {
            for (int j = 0; j < 7; ++j) { grow[j] = HS_R(0.0); }
            mb_row_body_grad(mb, r, t, q, b, HS_R(1.0), grow);
            for (int j = 0; j < mb->bnq[b]; ++j) {
                /* G in the lower left block, G^T in the upper right */
                kkt[(nq + r) * n + mb->qoff[b] + j] = grow[j];
                kkt[(mb->qoff[b] + j) * n + nq + r] = grow[j];
            }
        }
    }
    for (int i = 0; i < nq; ++i) { rhs[i] = f[i]; }
    if (nc > 0) {
        hs_real gam[HS_MB_MAX_NC];
        const hs_status rc = mb_gamma(mb, t, q, u, gam);
        if (rc != HS_OK) { return rc; }
        for (int r = 0; r < nc; ++r) { rhs[nq + r] = -gam[r]; }
    }
    const hs_status rc = hs_lu_factor(kkt, kpiv, n);
    if (rc != HS_OK) { return rc; }
    hs_lu_solve(kkt, kpiv, n, rhs);
    for (int i = 0; i < nq; ++i) { udd[i] = rhs[i]; }
    return HS_OK;
}

int mb_acc_values(const hs_mb_model *mb, const hs_mb_output *o, int body, hs_real t, const hs_real *q,
                  const hs_real *u, const hs_real *udd, hs_real *y)
{
    const hs_mb_body *B = &mb->desc->bodies[body];
    const hs_mb_point pt = {.body = body, .s = {o->at[0], o->at[1], o->at[2]}};
    const hs_mb_opnd op = mb_op_point(&pt);
    mb_pk k;
    mb_point_kin(mb, &op, t, q, u, &k);
    const int nb = mb->bnq[body], qo = mb->qoff[body];
    hs_real a[3];
    for (int i = 0; i < 3; ++i) {
        a[i] = k.ac[i];
        for (int j = 0; j < nb; ++j) { a[i] += k.J[i][j] * udd[qo + j]; }
    }
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    const int nt = ((B->kind == HS_MB_POINT2) || (B->kind == HS_MB_PLANAR)) ? 2 : 3;
    if (o->axes != 0 && (B->kind == HS_MB_PLANAR || B->kind == HS_MB_SPATIAL)) {
        /* components along the body's axes: (R e_i) . a */
        hs_real ab[3];
        for (int i = 0; i < nt; ++i) {
            const hs_real e[3] = {(i == 0) ? HS_R(1.0) : HS_R(0.0), (i == 1) ? HS_R(1.0) : HS_R(0.0),
                                  (i == 2) ? HS_R(1.0) : HS_R(0.0)};
            const hs_mb_opnd d = mb_op_dir(body, e);
            mb_pk ke;
            mb_point_kin(mb, &d, t, q, NULL, &ke);
            ab[i] = ke.r[0] * a[0] + ke.r[1] * a[1] + ke.r[2] * a[2];
        }
        for (int i = 0; i < nt; ++i) { a[i] = ab[i]; }
    }
    int n = 0;
    for (int i = 0; i < nt; ++i) { y[n] = a[i]; ++n; }
    if (B->kind == HS_MB_PLANAR) { y[n] = udd[qo + 2]; ++n; }
    return n;
}
