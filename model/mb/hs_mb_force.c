/* hs_mb_force.c - applied forces with analytic Jacobians: gravity, the quaternion bodies'
 * velocity terms (gyroscopic torque), then every force element through its row of the element
 * table (model/elements/hs_mb_elem.c; one file model/elements/hs_mb_el_<kind>.c per kind). The
 * helpers those files share are in hs_mb_load.c, the rotational elements of quaternion bodies
 * in hs_mb_rot.c. */
#include "hs_mb_int.h"

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
    /* the body's diagonal blocks looked up once (mb_qq_add's look-up, per entry) */
    int sq = 0, su = 0;
    hs_real *bq = mb_qq_block(mb, fq, b, b, &sq);
    hs_real *bu = (fu != NULL) ? mb_qq_block(mb, fu, b, b, &su) : NULL;
    for (int j = 0; j < 4; ++j) {
        hs_real ej[4] = {0, 0, 0, 0}, Ge[3][4];
        ej[j] = HS_R(1.0);
        mb_quat_G(ej, Ge);
        for (int i = 0; i < 4; ++i) {
            /* d/dp: +8 G(p')^T J G(p') - k |p'|^2 I */
            hs_real a = HS_R(0.0);
            for (int r = 0; r < 3; ++r) { a += Gd[r][i] * B->inertia[r] * Gd[r][j]; }
            if (bq != NULL) { bq[(3 + i) * sq + 3 + j] += HS_R(8.0) * a - (i == j ? kk * pd2 : HS_R(0.0)); }
            /* d/dp': -8 (G(e_j)^T J w + G(p')^T J G(p)) - 2 k p p'^T */
            hs_real c = HS_R(0.0);
            for (int r = 0; r < 3; ++r) { c += Ge[r][i] * Jw[r] + Gd[r][i] * B->inertia[r] * Gp[r][j]; }
            if (bu != NULL) { bu[(3 + i) * su + 3 + j] += -HS_R(8.0) * c - HS_R(2.0) * kk * p[i] * pd[j]; }
        }
    }
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
            if (rc != (int)HS_OK) { return rc; }
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
        if (rc != (int)HS_OK) { return rc; }
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
