/* hs_mb_force.c - applied forces with analytic Jacobians: gravity, the quaternion bodies'
 * velocity terms (gyroscopic torque), then every force element through its row of the element
 * table (model/elements/hs_mb_elem.c; one file model/elements/hs_mb_el_<kind>.c per kind), and the helpers those
 * files share. The rotational elements of quaternion bodies are in hs_mb_rot.c. */
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
    hs_real D[2][3][7], H[7][7];
    for (int i = 0; i < 2; ++i) { mb_point_dju(mb, o[i], q, u, D[i]); }
    for (int i = 0; i < 2; ++i) {
        for (int j = 0; j < 2; ++j) {
            const hs_real s = (i == j) ? HS_R(1.0) : HS_R(-1.0);
            mb_add_jxj(mb, fq, k[i], Fd, k[j], s);
            mb_add_jxd(mb, fq, k[i], Fv, D[j], k[j]->body, k[j]->nb, s);
            mb_add_jxj(mb, fu, k[i], Fv, k[j], s);
        }
    }
    mb_point_hess(mb, oa, q, F, H);
    mb_add_h(mb, fq, ka->body, ka->nb, H, HS_R(1.0));
    mb_point_hess(mb, ob, q, F, H);
    mb_add_h(mb, fq, kb->body, kb->nb, H, HS_R(-1.0));
}

/* Velocity terms of a quaternion body: f_p = -8 G(p')^T J G(p) p' - k p |p'|^2 with its
 * Jacobians (see hs_mb.h for the Lagrangian they come from). */
static void quat_terms(const hs_mb_model *mb, int b, const hs_real *q, const hs_real *u,
                       hs_real *f, hs_real *fq, hs_real *fu)
{
    const hs_mb_body *B = &mb->desc->bodies[b];
    const hs_real *p = &q[mb->qoff[b] + 3], *pd = &u[mb->qoff[b] + 3];
    const hs_real kk = HS_R(4.0) * (B->inertia[0] + B->inertia[1] + B->inertia[2]) / HS_R(3.0);
    hs_real Gp[3][4], Gd[3][4], w[3], Jw[3];
    mb_quat_G(p, Gp);
    mb_quat_G(pd, Gd);
    for (int i = 0; i < 3; ++i) {
        w[i] = Gp[i][0] * pd[0] + Gp[i][1] * pd[1] + Gp[i][2] * pd[2] + Gp[i][3] * pd[3];
        Jw[i] = B->inertia[i] * w[i];
    }
    const hs_real pd2 = pd[0] * pd[0] + pd[1] * pd[1] + pd[2] * pd[2] + pd[3] * pd[3];
    for (int i = 0; i < 4; ++i) {
        if (f != NULL) { f[mb->qoff[b] + 3 + i] += -HS_R(8.0) * (Gd[0][i] * Jw[0] + Gd[1][i] * Jw[1] + Gd[2][i] * Jw[2]) - kk * p[i] * pd2; }
    }
    if (fq == NULL) { return; }
    for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 4; ++j) {
            /* d/dp: +8 G(p')^T J G(p') - k |p'|^2 I */
            hs_real a = HS_R(0.0);
            for (int r = 0; r < 3; ++r) { a += Gd[r][i] * B->inertia[r] * Gd[r][j]; }
            mb_qq_add(mb, fq, b, 3 + i, b, 3 + j, HS_R(8.0) * a - (i == j ? kk * pd2 : HS_R(0.0)));
            /* d/dp': -8 (G(e_j)^T J w + G(p')^T J G(p)) - 2 k p p'^T */
            hs_real ej[4] = {0, 0, 0, 0}, Ge[3][4];
            ej[j] = HS_R(1.0);
            mb_quat_G(ej, Ge);
            hs_real c = HS_R(0.0);
            for (int r = 0; r < 3; ++r) { c += Ge[r][i] * Jw[r] + Gd[r][i] * B->inertia[r] * Gp[r][j]; }
            mb_qq_add(mb, fu, b, 3 + i, b, 3 + j, -HS_R(8.0) * c - HS_R(2.0) * kk * p[i] * pd[j]);
        }
    }
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
        hs_real H[7][7];
        mb_point_hess(mb, oa, q, F, H);
        mb_add_h(mb, fq, ka->body, ka->nb, H, HS_R(1.0));
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
    if (fq != NULL) {
        for (int j = 0; j < 4; ++j) {
            hs_real ej[4] = {0, 0, 0, 0}, Ee[3][4];
            ej[j] = HS_R(1.0);
            mb_quat_E(ej, Ee);
            for (int i = 0; i < 4; ++i) {
                mb_qq_add(mb, fq, b, 3 + i, b, 3 + j,
                          HS_R(2.0) * (Ee[0][i] * tau[0] + Ee[1][i] * tau[1] + Ee[2][i] * tau[2]));
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

int mb_is_zero3(const hs_real *v) { return v[0] == HS_R(0.0) && v[1] == HS_R(0.0) && v[2] == HS_R(0.0); }

int mb_planar_or_ground(const hs_mb_desc *D, int b) { return b < 0 || D->bodies[b].kind == HS_MB_PLANAR; }

int mb_spatial_pair(const hs_mb_desc *D, int a, int b)
{
    return a >= 0 && D->bodies[a].kind == HS_MB_SPATIAL && a != b
           && (b < 0 || D->bodies[b].kind == HS_MB_SPATIAL);
}

hs_status mb_forces(const hs_mb_model *mb, hs_real t, const hs_real *q, const hs_real *u,
              const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu)
{
    return mb_forces_z(mb, t, q, u, NULL, in, f, fq, fu);
}

hs_status mb_zdot(const hs_mb_model *mb, hs_real t, const hs_real *q, const hs_real *u, const hs_real *z,
            const hs_real *in, hs_real *zd)
{
    const hs_mb_desc *D = mb->desc;
    for (int e = 0; e < D->nforces; ++e) {
        const mb_force_states *el = mb_force_states_of[D->forces[e].kind];
        if (el != NULL) {
            const int rc = el->zdot(mb, e, t, q, u, &z[mb->zoff[e]], in, &zd[mb->zoff[e]]);
            /* MISRA Ref 10.4.1 [int code vs the enumerator naming it] */
            if (rc != HS_OK) { return rc; }
        }
    }
    return hs_all_finite(zd, mb->nz) ? HS_OK : HS_E_MODEL;
}

hs_status mb_forces_z(const hs_mb_model *mb, hs_real t, const hs_real *q, const hs_real *u, const hs_real *z,
                const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu)
{
    /* springs only (no states, no inputs): the planar path */
    if ((mb->fast & HS_MB_FAST_FORCES) != 0) { return mb_fast_forces(mb, t, q, u, f, fq, fu); }
    static const hs_real zero_z[HS_MB_MAX_NZ] = {0};
    const hs_mb_desc *D = mb->desc;
    const int dim = D->dim;
    if (f != NULL) { for (int i = 0; i < mb->nq; ++i) { f[i] = HS_R(0.0); } }
    if (fq != NULL) { mb_qq_zero(mb, fq); mb_qq_zero(mb, fu); }
    for (int b = 0; b < D->nbodies; ++b) {
        const hs_mb_body *B = &D->bodies[b];
        if (f != NULL) { for (int i = 0; i < dim; ++i) { f[mb->qoff[b] + i] += B->mass * D->gravity[i]; } }
        if (B->kind == HS_MB_SPATIAL) { quat_terms(mb, b, q, u, f, fq, fu); }
    }
    for (int e = 0; e < D->nforces; ++e) {
        const int kind = (int)D->forces[e].kind;
        if (kind < 0 || kind >= (int)HS_MB_FORCE_KINDS) { return HS_E_MODEL; }
        const mb_force_states *st = mb_force_states_of[kind];
        const int rc = (st != NULL)
                           ? st->eval_z(mb, e, t, q, u, (z != NULL) ? &z[mb->zoff[e]] : zero_z, in, f, fq, fu)
                           : mb_force_elems[kind]->eval(mb, e, t, q, u, in, f, fq, fu);
        /* MISRA Ref 10.4.1 [int code vs the enumerator naming it] */
        if (rc != HS_OK) { return rc; }
    }
    return (!f || hs_all_finite(f, mb->nq)) ? HS_OK : HS_E_MODEL;
}

hs_real mb_potential(const hs_mb_model *mb, hs_real t, const hs_real *q, const hs_real *in)
{
    const hs_mb_desc *D = mb->desc;
    hs_real V = HS_R(0.0);
    for (int b = 0; b < D->nbodies; ++b) {
        for (int i = 0; i < D->dim; ++i) { V -= D->bodies[b].mass * D->gravity[i] * q[mb->qoff[b] + i]; }
    }
    for (int e = 0; e < D->nforces; ++e) {
        const mb_force_elem *el = mb_force_elems[D->forces[e].kind];
        if (el->potential != NULL) { V = el->potential(mb, e, t, q, in, V); }
    }
    return V;
}
