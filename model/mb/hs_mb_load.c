/* hs_mb_load.c - the helpers the force element files (model/elements/hs_mb_el_*.c) share:
 * generalized forces of point loads, point pairs and torques with their Jacobians, time tables
 * and the checks of their keys. A leaf below the element table: hs_mb_force.c, which walks
 * the table, sits above it. */
#include "hs_mb_int.h"

void mb_add_jtf(const hs_mb_model *mb, const mb_pk *k, const hs_real *F, hs_real s, hs_real *f)
{
    if (k->body < 0 || f == NULL) { return; /* f = NULL: Jacobians only */ }
    hs_real *fb = &f[mb->qoff[k->body]];
    for (int j = 0; j < k->nb; ++j) {
        fb[j] += s * (k->J[0][j] * F[0] + k->J[1][j] * F[1] + k->J[2][j] * F[2]);
    }
}

/* f += J_a^T F - J_b^T F with F = F(d, d') a force on point a (the opposite on b), and the
 * Jacobians: fq += Jd^T (Fd Jd + Fv Dd) + Ha[F] - Hb[F], fu += Jd^T Fv Jd with
 * Jd = Ja - Jb, Dd = d(Jd u)/dq. */
void mb_pair_force(const hs_mb_model *mb, const hs_mb_opnd *oa, const hs_mb_opnd *ob,
                   const mb_pk *ka, const mb_pk *kb, const hs_real *q, const hs_real *u,
                   const hs_real *F, hs_real (*Fd)[3], hs_real (*Fv)[3],
                   hs_real *f, hs_real *fq, hs_real *fu)
{
    mb_add_jtf(mb, ka, F, HS_R(1.0), f);
    mb_add_jtf(mb, kb, F, HS_R(-1.0), f);
    if (fq == NULL) { return; }
    const mb_pk *k[2];
    const hs_mb_opnd *o[2];
    k[0] = ka; k[1] = kb;
    o[0] = oa; o[1] = ob;
    hs_real D[2][3][7];
    /* J_i^T Fd and J_i^T Fv of each point once (each is used in two products) */
    mb_jx xd[2], xv[2];
    for (int i = 0; i < 2; ++i) {
        mb_point_dju(mb, o[i], q, u, D[i]);
        mb_jx_rows(k[i], Fd, &xd[i]);
        mb_jx_rows(k[i], Fv, &xv[i]);
    }
    for (int i = 0; i < 2; ++i) {
        for (int j = 0; j < 2; ++j) {
            const hs_real s = (i == j) ? HS_R(1.0) : HS_R(-1.0);
            if (k[i]->nb == 0 || k[j]->nb == 0 || k[j]->body < 0) { continue; }
            mb_add_jxj_rows(mb, fq, k[i], &xd[i], k[j], s);
            mb_add_jxd_rows(mb, fq, k[i], &xv[i], D[j], k[j]->body, k[j]->nb, s);
            mb_add_jxj_rows(mb, fu, k[i], &xv[i], k[j], s);
        }
    }
    mb_add_point_hess(mb, fq, oa, q, F, HS_R(1.0));
    mb_add_point_hess(mb, fq, ob, q, F, HS_R(-1.0));
}

void mb_add_torque(const hs_mb_model *mb, int b, hs_real tau, hs_real *f)
{
    if (b >= 0 && f != NULL) { f[mb->qoff[b] + 2] += tau; }
}

void mb_rot_spring(const hs_mb_model *mb, int A, int B, hs_real k, hs_real c, hs_real th0,
                   const hs_real *q, const hs_real *u, hs_real *f, hs_real *fq, hs_real *fu)
{
    const hs_real th = q[mb->qoff[A] + 2] - (B >= 0 ? q[mb->qoff[B] + 2] : HS_R(0.0));
    const hs_real om = u[mb->qoff[A] + 2] - (B >= 0 ? u[mb->qoff[B] + 2] : HS_R(0.0));
    const hs_real tau = -k * (th - th0) - c * om;
    mb_add_torque(mb, A, tau, f);
    mb_add_torque(mb, B, -tau, f);
    if (fq == NULL) { return; }
    int bb[2];
    bb[0] = A; bb[1] = B;
    for (int i = 0; i < 2; ++i) {
        for (int j = 0; j < 2; ++j) {
            const hs_real s = (i == j) ? HS_R(1.0) : HS_R(-1.0);
            mb_qq_add(mb, fq, bb[i], 2, bb[j], 2, -s * k);
            mb_qq_add(mb, fu, bb[i], 2, bb[j], 2, -s * c);
        }
    }
}

void mb_point_load(const hs_mb_model *mb, const hs_mb_opnd *oa, const mb_pk *ka, const hs_real *q,
                   const hs_real *F, hs_real *f, hs_real *fq)
{
    mb_add_jtf(mb, ka, F, HS_R(1.0), f);
    if (fq != NULL) {
        mb_add_point_hess(mb, fq, oa, q, F, HS_R(1.0));
    }
}

void mb_body_torque(const hs_mb_model *mb, int b, const hs_real *q, const hs_real *tau,
                    hs_real *f, hs_real *fq)
{
    if (mb->desc->bodies[b].kind == HS_MB_PLANAR) {
        mb_add_torque(mb, b, tau[2], f);
        return;
    }
    /* spatial: generalized force 2 E(p)^T tau of a ground-frame torque */
    const hs_real *p = &q[mb->qoff[b] + 3];
    hs_real Ep[3][4];
    mb_quat_E(p, Ep);
    for (int i = 0; i < 4; ++i) {
        if (f != NULL) { f[mb->qoff[b] + 3 + i] += HS_R(2.0) * (Ep[0][i] * tau[0] + Ep[1][i] * tau[1] + Ep[2][i] * tau[2]); }
    }
    int st = 0;
    hs_real *blk = (fq != NULL) ? mb_qq_block(mb, fq, b, b, &st) : NULL;
    if (blk != NULL) {
        /* the diagonal block looked up once (mb_qq_add's look-up, per entry) */
        for (int j = 0; j < 4; ++j) {
            hs_real ej[4] = {0, 0, 0, 0}, Ee[3][4];
            ej[j] = HS_R(1.0);
            mb_quat_E(ej, Ee);
            for (int i = 0; i < 4; ++i) {
                blk[(3 + i) * st + 3 + j] += HS_R(2.0) * (Ee[0][i] * tau[0] + Ee[1][i] * tau[1] + Ee[2][i] * tau[2]);
            }
        }
    }
}

hs_real mb_table_eval(const hs_mb_table *tb, hs_real t)
{
    hs_real v = tb->v[0];
    for (int i = 1; i < tb->n; ++i) {
        /* every segment is visited: the cost is fixed by the table, not by t */
        if (t >= tb->t[i]) {
            v = tb->v[i];
        } else if (t > tb->t[i - 1]) {
            const hs_real w = (t - tb->t[i - 1]) / (tb->t[i] - tb->t[i - 1]);
            v = tb->v[i - 1] + w * (tb->v[i] - tb->v[i - 1]);
        } else {
            /* before this segment: an earlier one (or the first value) holds */
        }
    }
    return v;
}

int mb_is_unit3(const hs_real *v)
{
    const hs_real n = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    return n > HS_R(1.0) - HS_R(1e-6) && n < HS_R(1.0) + HS_R(1e-6);
}


int mb_planar_or_ground(const hs_mb_desc *D, int b) { return b < 0 || D->bodies[b].kind == HS_MB_PLANAR; }

int mb_spatial_pair(const hs_mb_desc *D, int a, int b)
{
    return a >= 0 && D->bodies[a].kind == HS_MB_SPATIAL && a != b
           && (b < 0 || D->bodies[b].kind == HS_MB_SPATIAL);
}
