/* hs_mb_dvp.c - the pieces the discrete variational stepper (method dvp, rt/hs_dvp.h) needs of
 * a description whose mass matrix depends on q: F = f + M'(q)[u] u (the applied forces plus
 * dT/dq, i.e. the Lagrangian's gradient without the -M' u that force() carries), its
 * Jacobians, and d(M(q) u)/dq. Only quaternion bodies have a q-dependent mass matrix; point and
 * planar bodies contribute nothing beyond force()'s own terms.
 *
 * A quaternion body's block is M(p) = 4 G(p)^T J G(p) + k p p^T (hs_mb.h). With G(p) x =
 * -G(x) p (the vector part of conj(p) * x is antisymmetric) and G(x)^T a = H(a) x,
 * H(a) = [[0, -a^T], [a, -[a]x]], the derivative of M(p) w is
 *     D(p, w) = d(M(p) w)/dp = 4 (H(J G(p) w) - G(p)^T J G(w)) + k ((p.w) I + p w^T),
 * linear in p and in w, so M'(p)[u] u = D(p, u) u. M(p) = Q(p, p) is quadratic, so
 * M'(p)[u] = 2 Q(p, u) = 4 (G(p)^T J G(u) + G(u)^T J G(p)) + k (p u^T + u p^T), and with
 * G(u) u = 0 the Jacobians of D(p, u) u = 2 Q(p, u) u are
 *     d/dp = -4 G(u)^T J G(u) + k (|u|^2 I + u u^T),   d/du = M'(p)[u] + D(p, u).
 * Kept in its own file so the force elements (hs_mb_force.c) grow without touching it. */
#include "hs_mb_int.h"

/* D(p, w) (4 x 4) of a quaternion body with principal inertia J (3) and k = 4 tr(J)/3. */
static void quat_mass_deriv(const hs_real *J, hs_real k, const hs_real *p, const hs_real *w,
                            hs_real D[4][4])
{
    hs_real Gp[3][4], Gw[3][4], a[3];
    mb_quat_G(p, Gp);
    mb_quat_G(w, Gw);
    for (int r = 0; r < 3; ++r) {
        a[r] = J[r] * (Gp[r][0] * w[0] + Gp[r][1] * w[1] + Gp[r][2] * w[2] + Gp[r][3] * w[3]);
    }
    const hs_real pw = p[0] * w[0] + p[1] * w[1] + p[2] * w[2] + p[3] * w[3];
    /* H(a): row 0 = (0, -a), rows 1..3 = (a_i, -[a]x row i) */
    const hs_real H[4][4] = {
        {HS_R(0.0), -a[0], -a[1], -a[2]},
        {a[0], HS_R(0.0), a[2], -a[1]},
        {a[1], -a[2], HS_R(0.0), a[0]},
        {a[2], a[1], -a[0], HS_R(0.0)}};
    for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 4; ++j) {
            hs_real g = HS_R(0.0);
            for (int r = 0; r < 3; ++r) { g += Gp[r][i] * J[r] * Gw[r][j]; }
            D[i][j] = HS_R(4.0) * (H[i][j] - g) + k * ((i == j ? pw : HS_R(0.0)) + p[i] * w[j]);
        }
    }
}

static void mv4(const hs_real D[4][4], const hs_real *x, hs_real *y)
{
    for (int i = 0; i < 4; ++i) { y[i] = D[i][0] * x[0] + D[i][1] * x[1] + D[i][2] * x[2] + D[i][3] * x[3]; }
}

static int mb_lagrange(const hs_mb_model *mb, hs_real t, const hs_real *q, const hs_real *u,
                       const hs_real *z, const hs_real *in, hs_real *F, hs_real *Fq, hs_real *Fu, hs_real *Mq)
{
    const hs_mb_desc *Ds = mb->desc;
    int rc = HS_OK;
    if (F != NULL || Fq != NULL) {
        /* mb_forces writes fq and fu together */
        rc = mb_forces_z(mb, t, q, u, z, in, F, Fq, Fq ? Fu : NULL);
        if (rc != 0) { return rc; }
    }
    if (Mq != NULL) { mb_qq_zero(mb, Mq); }
    for (int b = 0; b < Ds->nbodies; ++b) {
        const hs_mb_body *B = &Ds->bodies[b];
        if (B->kind != HS_MB_SPATIAL) { continue; }
        const int o = mb->qoff[b] + 3;
        const hs_real *p = &q[o], *pd = &u[o];
        const hs_real k = HS_R(4.0) * (B->inertia[0] + B->inertia[1] + B->inertia[2]) / HS_R(3.0);
        hs_real D[4][4];
        quat_mass_deriv(B->inertia, k, p, pd, D);
        if (F != NULL) {
            hs_real y[4];
            mv4(D, pd, y);
            for (int i = 0; i < 4; ++i) { F[o + i] += y[i]; }
        }
        if (Mq != NULL) {
            for (int i = 0; i < 4; ++i) {
                for (int j = 0; j < 4; ++j) { mb_qq_add(mb, Mq, b, 3 + i, b, 3 + j, D[i][j]); }
            }
        }
        if (Fq == NULL) { continue; }
        hs_real Gp[3][4], Gu[3][4];
        mb_quat_G(p, Gp);
        mb_quat_G(pd, Gu);
        const hs_real uu = pd[0] * pd[0] + pd[1] * pd[1] + pd[2] * pd[2] + pd[3] * pd[3];
        for (int i = 0; i < 4; ++i) {
            for (int j = 0; j < 4; ++j) {
                hs_real guu = HS_R(0.0), gpu = HS_R(0.0), gup = HS_R(0.0);
                for (int r = 0; r < 3; ++r) {
                    guu += Gu[r][i] * B->inertia[r] * Gu[r][j];
                    gpu += Gp[r][i] * B->inertia[r] * Gu[r][j];
                    gup += Gu[r][i] * B->inertia[r] * Gp[r][j];
                }
                mb_qq_add(mb, Fq, b, 3 + i, b, 3 + j,
                          -HS_R(4.0) * guu + k * ((i == j ? uu : HS_R(0.0)) + pd[i] * pd[j]));
                mb_qq_add(mb, Fu, b, 3 + i, b, 3 + j,
                          HS_R(4.0) * (gpu + gup) + k * (p[i] * pd[j] + pd[i] * p[j]) + D[i][j]);
            }
        }
    }
    if (F != NULL && hs_all_finite(F, mb->nq) == 0) { return HS_E_MODEL; }
    return rc;
}

int hs_mb_fn_lagrange(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                      const hs_real *z, const hs_real *in, hs_real *F, hs_real *Fq, hs_real *Fu,
                      hs_real *Mq)
{
    return mb_lagrange((const hs_mb_model *)m->desc, t, q, u, z, in, F, Fq, Fu, Mq);
}

int hs_mb_has_spatial(const hs_mb_model *mb)
{
    for (int b = 0; b < mb->desc->nbodies; ++b) {
        if (mb->desc->bodies[b].kind == HS_MB_SPATIAL) { return 1; }
    }
    return 0;
}
