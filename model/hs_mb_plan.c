/* hs_mb_plan.c - a description compiled into a flat plan of kernels: one call per row group
 * (a planar coincidence pair, a distance, a rheonomic dot row) or force element (an undamped
 * spring between points), each with its indices, offsets and constants fixed at compile, for
 * M, f, fq, fu, g, G, g_t, gamma and K.
 *
 * Why: the fast path (hs_mb_fast.c) still decides per call and per term what a term is, walks
 * its operands, zeroes every matrix it writes and evaluates the time laws' derivatives for
 * values-only calls; on the small descriptions that twin a hand-written model that was up to
 * five times the hand-written evaluation. A kernel here does only its element's arithmetic:
 * the same expressions as the fast path's (equal to it within rounding, test/mb/test_mb_fast.c),
 * G entries written once (no zeroing but the ranges no kernel writes), positions only where a
 * hook needs no derivatives. A description with any row or element no kernel covers keeps
 * the fast path (mb->plan = 0). */
#include "hs_mb_int.h"
#include "hs_math.h"
#include "hs_mb_kern.h"

/* ---- compile ---- */

static int qq_size(const hs_mb_model *mb) { return (mb->packed != 0) ? mb->qqsize : mb->nq * mb->nq; }

static int is_point(const hs_mb_desc *D, int b) { return (b >= 0) && (D->bodies[b].kind == HS_MB_POINT2); }
static int is_planar(const hs_mb_desc *D, int b) { return (b >= 0) && (D->bodies[b].kind == HS_MB_PLANAR); }

/* Sets the body fields of op for bodies a, b (b may be ground): coordinates and K blocks, the
 * blocks (a, b), (b, a) too when cross = 1 (0 when the pattern lacks one of them). */
static int op_bodies(const hs_mb_model *mb, hs_mb_kop *op, int a, int b, int cross)
{
    int ok = 1;
    op->ba = a; op->bb = b;
    op->qa = mb->qoff[a];
    op->qb = (b >= 0) ? mb->qoff[b] : -1;
    op->kaa = hs_mb_qq_base(mb, a, a, &op->sta);
    op->kbb = -1; op->kab = -1; op->kba = -1; op->stb = 0;
    if (b >= 0) {
        op->kbb = hs_mb_qq_base(mb, b, b, &op->stb);
        if (a == b) { ok = 0; }
    }
    if ((b >= 0) && (cross != 0)) {
        int st;
        op->kab = hs_mb_qq_base(mb, a, b, &st);
        if (st != op->sta) { ok = 0; }
        op->kba = hs_mb_qq_base(mb, b, a, &st);
        if (st != op->stb) { ok = 0; }
        if ((op->kab < 0) || (op->kba < 0)) { ok = 0; }
    }
    if (op->kaa < 0) { ok = 0; }
    return ok;
}

/* A planar kernel's K index: (theta, theta) of its block (a, a). */
static int theta_ix(int k, int st) { return k + 2 * st + 2; }

/* The kernel of rows r.. (its row count into *nr), or 0 when none covers them. */
static int plan_row(const hs_mb_model *mb, int r, hs_mb_kop *op, int *nr)
{
    const hs_mb_desc *D = mb->desc;
    const hs_mb_row *R = &mb->rows[r];
    const hs_mb_fterm *T = mb->fterm[r];
    static const hs_mb_kop none = {0};
    int ok = 0;
    *op = none; /* every field defined: generated plans are compared field by field */
    *nr = 1;
    op->r = r;
    op->pt = NULL;
    op->f = R->f;
    op->gb = -1; op->gb2 = -1; op->ga2 = -1;
    if (R->kind != HS_MB_ROW_DOT) { return 0; }
    for (int i = 0; i < 4; ++i) { op->c[i] = mb->fcab[r][i]; }
    op->sa[0] = T[0].s[0]; op->sa[1] = T[0].s[1];
    if ((mb->fpair[r] == 1) && (R->f == NULL) && (mb->rows[r + 1].f == NULL)) {
        /* coincidence: a = T0 (+1) planar, b = T1 (-1) planar or a constant */
        const int nt = mb->fnt[r];
        *nr = 2;
        op->c[0] = mb->fcab[r][0]; op->c[1] = mb->fcab[r + 1][1];
        op->c[2] = R->value; op->c[3] = mb->rows[r + 1].value;
        if ((T[0].sign == HS_R(1.0)) && is_planar(D, T[0].body) && (T[0].tr == HS_R(1.0))) {
            if ((nt == 1) && (op_bodies(mb, op, T[0].body, -1, 0) != 0)) {
                op->kind = HS_MBK_PAIR_PG;
                ok = 1;
            } else if ((nt == 2) && (T[1].sign == HS_R(-1.0)) && is_planar(D, T[1].body) && (T[1].tr == HS_R(1.0))
                       && (op_bodies(mb, op, T[0].body, T[1].body, 0) != 0)) {
                op->kind = HS_MBK_PAIR_PP;
                op->sb[0] = T[1].s[0]; op->sb[1] = T[1].s[1];
                op->gb = hs_mb_g_index(mb, r, T[1].body);
                op->gb2 = hs_mb_g_index(mb, r + 1, T[1].body);
                op->kbb = theta_ix(op->kbb, op->stb);
                ok = 1;
            } else {
                ok = 0;
            }
            op->kaa = theta_ix(op->kaa, op->sta);
            op->ga = hs_mb_g_index(mb, r, T[0].body);
            op->ga2 = hs_mb_g_index(mb, r + 1, T[0].body);
        }
    } else if ((mb->fpair[r] == 3) && (R->f == NULL)) {
        /* distance |a - b|^2 of points: a = T0 (+1), b = T1 (-1) or a constant */
        const int n = mb->fna[r];
        op->c[2] = R->value;
        if ((T[0].sign == HS_R(1.0)) && is_point(D, T[0].body)) {
            op->ga = hs_mb_g_index(mb, r, T[0].body);
            if ((n == 1) && (op_bodies(mb, op, T[0].body, -1, 0) != 0)) {
                op->kind = HS_MBK_DIST_QG;
                ok = 1;
            } else if ((n == 2) && (T[1].sign == HS_R(-1.0)) && is_point(D, T[1].body)
                       && (op_bodies(mb, op, T[0].body, T[1].body, 1) != 0)) {
                op->kind = HS_MBK_DIST_QQ;
                op->sb[0] = T[1].s[0]; op->sb[1] = T[1].s[1];
                op->gb = hs_mb_g_index(mb, r, T[1].body);
                ok = 1;
            } else {
                ok = 0;
            }
        }
    } else if ((mb->fpair[r] == 0) && (mb->fbconst[r] == 0) && (mb->fsym[r] == 0) && (mb->fnt[r] == 2)
               && (mb->fshare[r] == 0)) {
        /* (a - b) . (c - d) with a a point (+1) and c a moving ground point (+1), b, d constant */
        if ((T[0].side == 0) && (T[0].sign == HS_R(1.0)) && is_point(D, T[0].body) && (T[0].tr == HS_R(1.0))
            && (T[1].side == 1) && (T[1].sign == HS_R(1.0)) && (T[1].body < 0) && (T[1].pt != NULL)
            && (T[1].pt->moving == 2) && (op_bodies(mb, op, T[0].body, -1, 0) != 0)) {
            op->kind = HS_MBK_DOT_QM;
            op->pt = T[1].pt;
            op->ga = hs_mb_g_index(mb, r, T[0].body);
            op->k = R->value;
            ok = 1;
        }
    } else {
        ok = 0;
    }
    return ok;
}

/* The kernel of force element e, or 0 when none covers it. */
static int plan_force(const hs_mb_model *mb, int e, hs_mb_kop *op)
{
    const hs_mb_desc *D = mb->desc;
    const hs_mb_force *E = &D->forces[e];
    static const hs_mb_kop none = {0};
    int ok = 0;
    *op = none;
    op->r = e;
    op->pt = NULL;
    op->f = NULL;
    op->k = E->k;
    op->l0 = E->l0;
    if ((E->kind != HS_MB_SPRING) || (E->c != HS_R(0.0)) || (is_point(D, E->a.body) == 0)) { return 0; }
    op->sa[0] = E->a.s[0]; op->sa[1] = E->a.s[1];
    op->sb[0] = E->b.s[0]; op->sb[1] = E->b.s[1];
    if (E->b.body >= 0) {
        if ((is_point(D, E->b.body) != 0) && (op_bodies(mb, op, E->a.body, E->b.body, 1) != 0)) {
            op->kind = HS_MBK_SPR_QQ;
            ok = 1;
        }
    } else if (op_bodies(mb, op, E->a.body, -1, 0) != 0) {
        if (E->b.moving == 0) {
            op->kind = HS_MBK_SPR_QG;
            ok = 1;
        } else if (E->b.moving == 2) {
            op->kind = HS_MBK_SPR_QM;
            op->pt = &E->b;
            ok = 1;
        } else {
            ok = 0;
        }
    } else {
        ok = 0;
    }
    return ok;
}

/* 1 when row r's kernel writes G's entries of body b (every one of b's columns in row r). */
static int row_writes(const hs_mb_kop *op, int b) { return (b == op->ba) || ((b >= 0) && (b == op->bb)); }

/* G's ranges no kernel writes (dense G; a packed G's blocks are exactly the kernels'). */
static int plan_gzero(hs_mb_model *mb)
{
    int ok = 1;
    int written = 0;
    mb->ngz = 0;
    for (int k = 0; k < mb->nkr; ++k) {
        const hs_mb_kop *op = &mb->kop[k];
        /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
        const int nr = ((op->kind == HS_MBK_PAIR_PP) || (op->kind == HS_MBK_PAIR_PG)) ? 2 : 1;
        for (int r = op->r; r < op->r + nr; ++r) {
            for (int b = 0; b < mb->nb; ++b) {
                if (row_writes(op, b) != 0) {
                    written += mb->bnq[b];
                } else if (mb->packed == 0) {
                    const int ix = r * mb->nq + mb->qoff[b];
                    if ((mb->ngz > 0) && (mb->gz[mb->ngz - 1][0] + mb->gz[mb->ngz - 1][1] == ix)) {
                        mb->gz[mb->ngz - 1][1] += mb->bnq[b];
                    } else if (mb->ngz < HS_MB_MAX_GZ) {
                        mb->gz[mb->ngz][0] = ix;
                        mb->gz[mb->ngz][1] = mb->bnq[b];
                        ++mb->ngz;
                    } else {
                        ok = 0;
                    }
                } else {
                    /* packed: (r, b) is in no block unless a kernel of row r writes it */
                }
            }
        }
    }
    /* every G entry written once or zeroed: the kernels' rows are all rows, their blocks all blocks */
    if ((mb->packed != 0) && (written != mb->cqsize)) { ok = 0; }
    return ok;
}

void mb_plan_prepare(hs_mb_model *mb)
{
    const hs_mb_desc *D = mb->desc;
    const int all = HS_MB_FAST_ROWS | HS_MB_FAST_FORCES | HS_MB_FAST_MASS;
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    int ok = ((mb->fast & all) == all) ? 1 : 0;
    mb->plan = 0;
    mb->plan_packed = mb->packed;
    mb->nkr = 0;
    mb->nkf = 0;
    int r = 0;
    while ((ok != 0) && (r < mb->nrow)) {
        int nr = 1;
        if ((mb->nkr >= HS_MB_MAX_KOP) || (plan_row(mb, r, &mb->kop[mb->nkr], &nr) == 0)) {
            ok = 0;
        } else {
            ++mb->nkr;
        }
        r += nr;
    }
    for (int e = 0; (ok != 0) && (e < D->nforces); ++e) {
        if ((mb->nkr + mb->nkf >= HS_MB_MAX_KOP) || (plan_force(mb, e, &mb->kop[mb->nkr + mb->nkf]) == 0)) {
            ok = 0;
        } else {
            ++mb->nkf;
        }
    }
    if ((ok != 0) && (plan_gzero(mb) == 0)) { ok = 0; }
    if (ok == 0) { return; }
    /* gravity and the mass matrix's diagonal (the fast path's expressions) */
    for (int i = 0; i < mb->nq; ++i) { mb->fgrav[i] = HS_R(0.0); }
    mb->nmd = 0;
    for (int b = 0; b < D->nbodies; ++b) {
        const hs_mb_body *B = &D->bodies[b];
        int st;
        const int ix = hs_mb_qq_base(mb, b, b, &st);
        for (int i = 0; i < 2; ++i) { mb->fgrav[mb->qoff[b] + i] += B->mass * D->gravity[i]; }
        mb->mdix[mb->nmd] = ix; mb->mdv[mb->nmd] = B->mass; ++mb->nmd;
        mb->mdix[mb->nmd] = ix + st + 1; mb->mdv[mb->nmd] = B->mass; ++mb->nmd;
        if (B->kind == HS_MB_PLANAR) { mb->mdix[mb->nmd] = ix + 2 * st + 2; mb->mdv[mb->nmd] = B->inertia[2]; ++mb->nmd; }
    }
    /* a small M whole (a copy per call instead of zeroing and the diagonal) */
    mb->nmimg = 0;
    if (qq_size(mb) <= HS_MB_MAX_MIMG) {
        for (int i = 0; i < qq_size(mb); ++i) { mb->mimg[i] = HS_R(0.0); }
        for (int i = 0; i < mb->nmd; ++i) { mb->mimg[mb->mdix[i]] = mb->mdv[i]; }
        mb->nmimg = qq_size(mb);
    }
    mb->plan = 1;
}

int hs_mb_kop_same(const hs_mb_kop *a, const hs_mb_kop *b)
{
    /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
    int same = (a->kind == b->kind) && (a->r == b->r) && (a->qa == b->qa) && (a->qb == b->qb) && (a->ba == b->ba)
               && (a->bb == b->bb) && (a->ga == b->ga) && (a->gb == b->gb) && (a->ga2 == b->ga2) && (a->gb2 == b->gb2)
               && (a->kaa == b->kaa) && (a->kbb == b->kbb) && (a->kab == b->kab) && (a->kba == b->kba)
               && (a->sta == b->sta) && (a->stb == b->stb) && (a->k == b->k) && (a->l0 == b->l0) && (a->pt == b->pt)
               && (a->f == b->f);
    for (int i = 0; i < 2; ++i) {
        if ((a->sa[i] != b->sa[i]) || (a->sb[i] != b->sb[i])) { same = 0; }
    }
    for (int i = 0; i < 4; ++i) {
        if (a->c[i] != b->c[i]) { same = 0; }
    }
    return same;
}

/* ---- run ---- */

/* One pass over the row kernels: the outputs that are not NULL. */
HS_MBK_INL int plan_rows(const hs_mb_model *mb, hs_real t, const hs_real *q, const hs_real *u, const hs_real *lam,
                     hs_real *g, hs_real *G, hs_real *gt, hs_real *gam, hs_real *K)
{
    hs_mbk_rq x;
    hs_real sc[2 * HS_MB_MAX_BODIES]; /* sin, cos of each planar body's angle */
    x.t = t; x.q = q; x.u = u; x.lam = lam;
    x.g = g; x.G = G; x.gt = gt; x.gam = gam; x.K = K;
    for (int i = 0; i < mb->nfplanar; ++i) {
        const int b = mb->fplanar[i];
        hs_sincos(q[mb->qoff[b] + 2], &sc[2 * b], &sc[2 * b + 1]);
    }
    if (G != NULL) {
        for (int i = 0; i < mb->ngz; ++i) { hs_mbk_zero(&G[mb->gz[i][0]], mb->gz[i][1]); }
    }
    if (K != NULL) { hs_mbk_zero(K, qq_size(mb)); }
    for (int k = 0; k < mb->nkr; ++k) {
        const hs_mb_kop *op = &mb->kop[k];
        switch (op->kind) {
        case HS_MBK_PAIR_PP: hs_mbk_pair(op, 1, sc, &x); break;
        case HS_MBK_PAIR_PG: hs_mbk_pair(op, 0, sc, &x); break;
        case HS_MBK_DIST_QQ: hs_mbk_dist(op, 1, &x); break;
        case HS_MBK_DIST_QG: hs_mbk_dist(op, 0, &x); break;
        default: hs_mbk_dot_qm(op, &x); break;
        }
    }
    return hs_mbk_rows_done(g, gam, mb->nc);
}

/* The hooks (hs_model.h signatures; m->desc is the hs_mb_model): the plan when it is on, else
 * the fast or general evaluators behind hs_mb_fn_*. */
int hs_mb_plan_constraint(const hs_model *m, hs_real t, const hs_real *q, hs_real *g, hs_real *G, hs_real *gt)
{
    const hs_mb_model *mb = (const hs_mb_model *)m->desc;
    if (hs_mbk_on(mb) == 0) { return hs_mb_fn_constraint(m, t, q, g, G, gt); }
    return plan_rows(mb, t, q, NULL, NULL, g, G, gt, NULL, NULL);
}

int hs_mb_plan_gamma(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, hs_real *gam)
{
    const hs_mb_model *mb = (const hs_mb_model *)m->desc;
    if (hs_mbk_on(mb) == 0) { return hs_mb_fn_gamma(m, t, q, u, gam); }
    return plan_rows(mb, t, q, u, NULL, NULL, NULL, NULL, gam, NULL);
}

int hs_mb_plan_curvature(const hs_model *m, hs_real t, const hs_real *q, const hs_real *lambda, hs_real *K)
{
    const hs_mb_model *mb = (const hs_mb_model *)m->desc;
    if (hs_mbk_on(mb) == 0) { return hs_mb_fn_curvature(m, t, q, lambda, K); }
    return plan_rows(mb, t, q, NULL, lambda, NULL, NULL, NULL, NULL, K);
}

int hs_mb_plan_constraint_all(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                              const hs_real *lambda, hs_real *G, hs_real *gam, hs_real *K)
{
    const hs_mb_model *mb = (const hs_mb_model *)m->desc;
    if (hs_mbk_on(mb) == 0) { return hs_mb_fn_constraint_all(m, t, q, u, lambda, G, gam, K); }
    return plan_rows(mb, t, q, u, lambda, NULL, G, NULL, gam, (lambda != NULL) ? K : NULL);
}

int hs_mb_plan_force(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, const hs_real *z,
                     const hs_real *in, hs_real *f)
{
    const hs_mb_model *mb = (const hs_mb_model *)m->desc;
    if (hs_mbk_on(mb) == 0) { return hs_mb_fn_force(m, t, q, u, z, in, f); }
    int rc = HS_OK;
    for (int i = 0; i < mb->nq; ++i) { f[i] = mb->fgrav[i]; }
    for (int k = mb->nkr; k < mb->nkr + mb->nkf; ++k) { rc |= hs_mbk_spring_f(&mb->kop[k], t, q, f); }
    return hs_mbk_forces_done(rc, f, mb->nq);
}

int hs_mb_plan_force_jac(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, const hs_real *z,
                         const hs_real *in, hs_real *fq, hs_real *fu)
{
    const hs_mb_model *mb = (const hs_mb_model *)m->desc;
    if (hs_mbk_on(mb) == 0) { return hs_mb_fn_force_jac(m, t, q, u, z, in, fq, fu); }
    int rc = HS_OK;
    hs_mbk_zero(fq, qq_size(mb));
    hs_mbk_zero(fu, qq_size(mb));
    for (int k = mb->nkr; k < mb->nkr + mb->nkf; ++k) { rc |= hs_mbk_spring_j(&mb->kop[k], t, q, fq); }
    /* MISRA Ref 10.4.1 [int code vs the enumerator naming it] */
    return (rc != HS_OK) ? HS_E_MODEL : HS_OK;
}

int hs_mb_plan_mass(const hs_model *m, hs_real t, const hs_real *q, hs_real *M)
{
    const hs_mb_model *mb = (const hs_mb_model *)m->desc;
    if (hs_mbk_on(mb) == 0) { return hs_mb_fn_mass(m, t, q, M); }
    const int n = qq_size(mb);
    if (mb->nmimg == n) {
        /* the whole (constant) matrix, four entries at a time */
        int i = 0;
        for (; i + 4 <= n; i += 4) {
            M[i] = mb->mimg[i]; M[i + 1] = mb->mimg[i + 1]; M[i + 2] = mb->mimg[i + 2]; M[i + 3] = mb->mimg[i + 3];
        }
        for (; i < n; ++i) { M[i] = mb->mimg[i]; }
    } else {
        hs_mbk_zero(M, n);
        for (int i = 0; i < mb->nmd; ++i) { M[mb->mdix[i]] = mb->mdv[i]; }
    }
    return HS_OK;
}
