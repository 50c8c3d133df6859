/* hs_mb_force.c - applied forces with analytic Jacobians: gravity, the quaternion bodies'
 * velocity terms (gyroscopic torque), spring-dampers, rotational spring-dampers, bushings and
 * the HIL inputs (external force, external torque, joint motor). The rotational elements of
 * quaternion bodies are in hs_mb_rot.c. */
#include "hs_mb_int.h"

/* Adds J^T F of point k into f. */
static void add_jtf(const hs_mb_model *mb, const mb_pk *k, const hs_real *F, hs_real s, hs_real *f)
{
    if (k->body < 0 || f == NULL) { return; /* f = NULL: Jacobians only */ }
    hs_real *fb = &f[mb->qoff[k->body]];
    for (int j = 0; j < k->nb; ++j) {
        fb[j] += s * (k->J[0][j] * F[0] + k->J[1][j] * F[1] + k->J[2][j] * F[2]);
    }
}

static hs_mb_opnd opnd_of(const hs_mb_point *p)
{
    hs_mb_opnd o;
    o.used = 1; o.body = p->body; o.dir = 0; o.pt = (p->body < 0 && p->moving) ? p : NULL;
    for (int i = 0; i < 3; ++i) { o.s[i] = p->s[i]; }
    return o;
}

/* f += J_a^T F - J_b^T F with F = F(d, d') a force on point a (the opposite on b), and the
 * Jacobians: fq += Jd^T (Fd Jd + Fv Dd) + Ha[F] - Hb[F], fu += Jd^T Fv Jd with
 * Jd = Ja - Jb, Dd = d(Jd u)/dq. */
static void pair_force(const hs_mb_model *mb, const hs_mb_opnd *oa, const hs_mb_opnd *ob,
                       const mb_pk *ka, const mb_pk *kb, const hs_real *q, const hs_real *u,
                       const hs_real *F, hs_real (*Fd)[3], hs_real (*Fv)[3],
                       hs_real *f, hs_real *fq, hs_real *fu)
{
    add_jtf(mb, ka, F, HS_R(1.0), f);
    add_jtf(mb, kb, F, HS_R(-1.0), f);
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

/* Planar torque tau on body b (about z); ground ignored. */
static void add_torque(const hs_mb_model *mb, int b, hs_real tau, hs_real *f)
{
    if (b >= 0 && f != NULL) { f[mb->qoff[b] + 2] += tau; }
}

/* Planar relative rotation spring-damper between bodies A and B (B may be ground). */
static void rot_spring(const hs_mb_model *mb, int A, int B, hs_real k, hs_real c, hs_real th0,
                       const hs_real *q, const hs_real *u, hs_real *f, hs_real *fq, hs_real *fu)
{
    const hs_real th = q[mb->qoff[A] + 2] - (B >= 0 ? q[mb->qoff[B] + 2] : HS_R(0.0));
    const hs_real om = u[mb->qoff[A] + 2] - (B >= 0 ? u[mb->qoff[B] + 2] : HS_R(0.0));
    const hs_real tau = -k * (th - th0) - c * om;
    add_torque(mb, A, tau, f);
    add_torque(mb, B, -tau, f);
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

int mb_forces(const hs_mb_model *mb, hs_real t, const hs_real *q, const hs_real *u,
              const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu)
{
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
        const hs_mb_force *E = &D->forces[e];
        const hs_mb_opnd oa = opnd_of(&E->a), ob = opnd_of(&E->b);
        mb_pk ka, kb;
        mb_point_kin(mb, &oa, t, q, u, &ka);
        mb_point_kin(mb, &ob, t, q, u, &kb);
        hs_real d[3], dv[3], F[3], Fd[3][3], Fv[3][3];
        for (int i = 0; i < 3; ++i) { d[i] = ka.r[i] - kb.r[i]; dv[i] = ka.v[i] - kb.v[i]; }
        switch (E->kind) {
        case HS_MB_SPRING: {
            const hs_real l = hs_sqrt(mb_dot3(d, d));
            if (!(l > HS_R(0.0))) { return HS_E_MODEL; /* direction undefined at zero length */ }
            hs_real e3[3], pv[3];
            for (int i = 0; i < 3; ++i) { e3[i] = d[i] / l; }
            const hs_real ld = mb_dot3(e3, dv);
            const hs_real s = E->k * (l - E->l0) + E->c * ld;
            for (int i = 0; i < 3; ++i) {
                F[i] = -s * e3[i];
                pv[i] = (dv[i] - ld * e3[i]) / l; /* dl'/dd = (I - e e^T) d' / l */
            }
            for (int i = 0; i < 3; ++i) {
                for (int j = 0; j < 3; ++j) {
                    const hs_real P = ((i == j) ? HS_R(1.0) : HS_R(0.0)) - e3[i] * e3[j];
                    Fd[i][j] = -e3[i] * (E->k * e3[j] + E->c * pv[j]) - s * P / l;
                    Fv[i][j] = -E->c * e3[i] * e3[j];
                }
            }
            pair_force(mb, &oa, &ob, &ka, &kb, q, u, F, Fd, Fv, f, fq, fu);
            break;
        }
        case HS_MB_BUSHING:
            for (int i = 0; i < 3; ++i) {
                F[i] = -E->k * d[i] - E->c * dv[i];
                for (int j = 0; j < 3; ++j) {
                    Fd[i][j] = (i == j) ? -E->k : HS_R(0.0);
                    Fv[i][j] = (i == j) ? -E->c : HS_R(0.0);
                }
            }
            pair_force(mb, &oa, &ob, &ka, &kb, q, u, F, Fd, Fv, f, fq, fu);
            if (dim == 2 && (E->kr != HS_R(0.0) || E->cr != HS_R(0.0))) {
                rot_spring(mb, E->a.body, E->b.body, E->kr, E->cr, HS_R(0.0), q, u, f, fq, fu);
            }
            if (dim == 3 && (E->kr != HS_R(0.0) || E->cr != HS_R(0.0))) {
                (void)mb_rot_force(mb, e, q, u, in, f, fq, fu); /* cannot fail for a bushing */
            }
            break;
        case HS_MB_ROTSPRING:
            if (dim == 3) {
                const int rc = mb_rot_force(mb, e, q, u, in, f, fq, fu);
                if (rc != 0) { return rc; }
            } else {
                rot_spring(mb, E->a.body, E->b.body, E->k, E->c, E->l0, q, u, f, fq, fu);
            }
            break;
        case HS_MB_EXTFORCE: {
            /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
            const int one = E->axis[0] != HS_R(0.0) || E->axis[1] != HS_R(0.0) || E->axis[2] != HS_R(0.0);
            for (int i = 0; i < 3; ++i) {
                if (one != 0) { F[i] = E->scale * in[E->in0] * E->axis[i]; }
                else { F[i] = i < dim ? E->scale * in[E->in0 + i] : HS_R(0.0); }
            }
            add_jtf(mb, &ka, F, HS_R(1.0), f);
            if (fq != NULL) {
                hs_real H[7][7];
                mb_point_hess(mb, &oa, q, F, H);
                mb_add_h(mb, fq, ka.body, ka.nb, H, HS_R(1.0));
            }
            break;
        }
        case HS_MB_EXTTORQUE: {
            const int b = E->a.body;
            if (D->bodies[b].kind == HS_MB_PLANAR) {
                add_torque(mb, b, E->scale * in[E->in0], f);
            } else { /* spatial: generalized force 2 E(p)^T tau of a ground-frame torque */
                const hs_real *p = &q[mb->qoff[b] + 3];
                hs_real Ep[3][4], tau[3];
                mb_quat_E(p, Ep);
                for (int i = 0; i < 3; ++i) { tau[i] = E->scale * in[E->in0 + i]; }
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
            break;
        }
        case HS_MB_MOTOR: {
            if (dim == 3) {
                const int rc = mb_rot_force(mb, e, q, u, in, f, fq, fu);
                if (rc != 0) { return rc; }
                break;
            }
            const hs_real tau = E->scale * in[E->in0];
            add_torque(mb, E->a.body, tau, f);
            add_torque(mb, E->b.body, -tau, f);
            break;
        }
        default:
            return HS_E_MODEL;
        }
    }
    return (!f || hs_all_finite(f, mb->nq)) ? HS_OK : HS_E_MODEL;
}

hs_real mb_potential(const hs_mb_model *mb, hs_real t, const hs_real *q)
{
    const hs_mb_desc *D = mb->desc;
    hs_real V = HS_R(0.0);
    for (int b = 0; b < D->nbodies; ++b) {
        for (int i = 0; i < D->dim; ++i) { V -= D->bodies[b].mass * D->gravity[i] * q[mb->qoff[b] + i]; }
    }
    for (int e = 0; e < D->nforces; ++e) {
        const hs_mb_force *E = &D->forces[e];
        const hs_mb_opnd oa = opnd_of(&E->a), ob = opnd_of(&E->b);
        mb_pk ka, kb;
        mb_point_kin(mb, &oa, t, q, NULL, &ka);
        mb_point_kin(mb, &ob, t, q, NULL, &kb);
        hs_real d[3];
        for (int i = 0; i < 3; ++i) { d[i] = ka.r[i] - kb.r[i]; }
        if (E->kind == HS_MB_SPRING) {
            const hs_real x = hs_sqrt(mb_dot3(d, d)) - E->l0;
            V += HS_R(0.5) * E->k * x * x;
        } else if (D->dim == 3 && (E->kind == HS_MB_BUSHING || E->kind == HS_MB_ROTSPRING)) {
            if (E->kind == HS_MB_BUSHING) { V += HS_R(0.5) * E->k * mb_dot3(d, d); }
            if (E->kind == HS_MB_ROTSPRING || E->kr != HS_R(0.0)) { V += mb_rot_potential(mb, e, q); }
        } else if (E->kind == HS_MB_BUSHING || E->kind == HS_MB_ROTSPRING) {
            const hs_real th = q[mb->qoff[E->a.body] + 2] - (E->b.body >= 0 ? q[mb->qoff[E->b.body] + 2] : HS_R(0.0));
            if (E->kind == HS_MB_BUSHING) {
                V += HS_R(0.5) * E->k * mb_dot3(d, d);
                if (D->dim == 2) { V += HS_R(0.5) * E->kr * th * th; }
            } else {
                V += HS_R(0.5) * E->k * (th - E->l0) * (th - E->l0);
            }
        } else {
            /* nothing else to do for the other kinds */
        }
    }
    return V;
}
