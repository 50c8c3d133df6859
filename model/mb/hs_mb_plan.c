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
    if ((mb_force_elems[E->kind]->spring != MB_YES) || (E->c != HS_R(0.0)) || (is_point(D, E->a.body) == 0)) { return 0; }
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
    /* a plan's force hook without springs returns fgrav untested */
    if (hs_all_finite(mb->fgrav, mb->nq) == 0) { return; }
    mb->plan_nqq = qq_size(mb);
    mb->plan_nqq8 = (mb->plan_nqq / 8) * 8;
    mb->plan_nq8 = (mb->nq / 8) * 8;
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
    int same = (int)((a->kind == b->kind) && (a->r == b->r) && (a->qa == b->qa) && (a->qb == b->qb) && (a->ba == b->ba)
               && (a->bb == b->bb) && (a->ga == b->ga) && (a->gb == b->gb) && (a->ga2 == b->ga2) && (a->gb2 == b->gb2)
               && (a->kaa == b->kaa) && (a->kbb == b->kbb) && (a->kab == b->kab) && (a->kba == b->kba)
               && (a->sta == b->sta) && (a->stb == b->stb) && (a->k == b->k) && (a->l0 == b->l0) && (a->pt == b->pt)
               && (a->f == b->f));
    for (int i = 0; i < 2; ++i) {
        if ((a->sa[i] != b->sa[i]) || (a->sb[i] != b->sb[i])) { same = 0; }
    }
    for (int i = 0; i < 4; ++i) {
        if (a->c[i] != b->c[i]) { same = 0; }
    }
    return same;
}

/* ---- run ----
 * The hooks below are the file-loaded twin of a generated description's straight-line calls:
 * the same kernels in the same order, so the same bits. What a generated file has as
 * constants they read from the plan; the rest of their work is kept to what the plan needs
 * (measured with callgrind against the generated twins, test/bench/mb_twins.sh): sizes
 * counted at compile, the outputs a hook asks for tested once per call for the stepper's
 * usual requests (each such case inlines the kernels with them known), g and gamma tested
 * finite row by row as the kernels write them instead of in a second pass, no test of f
 * without springs (gravity's f is finite at compile), and for a plan that calls no function
 * (no planar body's sines, no moving ground point: a "leaf" plan) hooks of their own without
 * the callee-saved registers, stack and tests the other kernels need (mb_plan_hooks chooses
 * at compile). A small dense plan (nq 2 to 6) gets hooks with its sizes as constants
 * (PLAN_SIZED): the fills of M, f, fq, fu and K and f's finite test are then straight code
 * as in a generated file (car axle 6972 -> 6787, pendulum 3005 -> 2870 instructions per
 * step). Tried and dropped as dearer on the car axle: one switch per run of kernels of one
 * kind, and the moving points evaluated before the kernels' loop. */

/* A = 0 (n entries; n8 = n rounded down to a multiple of 8, counted at compile). */
HS_MBK_INL void plan_zero(hs_real *A, int n, int n8)
{
    int i = 0;
    for (; i < n8; i += 8) {
        A[i] = HS_R(0.0); A[i + 1] = HS_R(0.0); A[i + 2] = HS_R(0.0); A[i + 3] = HS_R(0.0);
        A[i + 4] = HS_R(0.0); A[i + 5] = HS_R(0.0); A[i + 6] = HS_R(0.0); A[i + 7] = HS_R(0.0);
    }
    if ((i + 4) <= n) {
        A[i] = HS_R(0.0); A[i + 1] = HS_R(0.0); A[i + 2] = HS_R(0.0); A[i + 3] = HS_R(0.0);
        i += 4;
    }
    for (; i < n; ++i) { A[i] = HS_R(0.0); }
}

/* A = B (n entries, apart; n8 = n rounded down to a multiple of 8). */
HS_MBK_INL void plan_copy(hs_real *A, const hs_real *B, int n, int n8)
{
    int i = 0;
    for (; i < n8; i += 8) {
        const hs_real b0 = B[i], b1 = B[i + 1], b2 = B[i + 2], b3 = B[i + 3];
        const hs_real b4 = B[i + 4], b5 = B[i + 5], b6 = B[i + 6], b7 = B[i + 7];
        A[i] = b0; A[i + 1] = b1; A[i + 2] = b2; A[i + 3] = b3;
        A[i + 4] = b4; A[i + 5] = b5; A[i + 6] = b6; A[i + 7] = b7;
    }
    if ((i + 4) <= n) {
        const hs_real b0 = B[i], b1 = B[i + 1], b2 = B[i + 2], b3 = B[i + 3];
        A[i] = b0; A[i + 1] = b1; A[i + 2] = b2; A[i + 3] = b3;
        i += 4;
    }
    for (; i < n; ++i) { A[i] = B[i]; }
}

/* z plus v[r] - v[r] (and v[r + 1] - v[r + 1] with two): +0 while every value is finite, NaN
 * once one is not (hs_all_finite's test, one value at a time as the kernels write them). */
HS_MBK_INL hs_real plan_fin(const hs_real *v, int r, int two, hs_real z)
{
    hs_real s = z + (v[r] - v[r]);
    if (two != 0) { s += v[r + 1] - v[r + 1]; }
    return s;
}

/* The plan's sizes: NQ > 0 a dense plan of NQ coordinates known at compile (the loops below
 * then have constant counts, as in a generated file), NQ = 0 the compiled plan's counts. */
HS_MBK_INL int sz_nq(const hs_mb_model *mb, int NQ) { return (NQ > 0) ? NQ : mb->nq; }
HS_MBK_INL int sz_nq8(const hs_mb_model *mb, int NQ) { return (NQ > 0) ? ((NQ / 8) * 8) : mb->plan_nq8; }
HS_MBK_INL int sz_nqq(const hs_mb_model *mb, int NQ) { return (NQ > 0) ? (NQ * NQ) : mb->plan_nqq; }
HS_MBK_INL int sz_nqq8(const hs_mb_model *mb, int NQ) { return (NQ > 0) ? (((NQ * NQ) / 8) * 8) : mb->plan_nqq8; }

/* The row kernels of the plan in order (x says which outputs; sc the planar sines, cosines);
 * HS_OK when the g and gamma asked for are finite (every row is a kernel's: each is tested
 * after its kernel). */
HS_MBK_INL int plan_kernels(const hs_mb_model *mb, int leaf, const hs_real *sc, const hs_mbk_rq *x)
{
    hs_real z = HS_R(0.0);
    if (leaf != 0) {
        /* a leaf plan's rows are distances of points */
        for (int k = 0; k < mb->nkr; ++k) {
            const hs_mb_kop *op = &mb->kop[k];
            if (op->kind == HS_MBK_DIST_QQ) {
                hs_mbk_dist(op, 1, x);
            } else {
                hs_mbk_dist(op, 0, x);
            }
            if (x->g != NULL) { z = plan_fin(x->g, op->r, 0, z); }
            if (x->gam != NULL) { z = plan_fin(x->gam, op->r, 0, z); }
        }
    } else {
        for (int k = 0; k < mb->nkr; ++k) {
            const hs_mb_kop *op = &mb->kop[k];
            int two = 0;
            switch (op->kind) {
            case HS_MBK_PAIR_PP: hs_mbk_pair(op, 1, sc, x); two = 1; break;
            case HS_MBK_PAIR_PG: hs_mbk_pair(op, 0, sc, x); two = 1; break;
            case HS_MBK_DIST_QQ: hs_mbk_dist(op, 1, x); break;
            case HS_MBK_DIST_QG: hs_mbk_dist(op, 0, x); break;
            default:
                hs_mbk_dot_qm(op, x);
                break;
            }
            if (x->g != NULL) { z = plan_fin(x->g, op->r, two, z); }
            if (x->gam != NULL) { z = plan_fin(x->gam, op->r, two, z); }
        }
    }
    return (z == HS_R(0.0)) ? HS_OK : HS_E_NONFINITE;
}

/* One pass over the row kernels: the outputs that are not NULL. */
HS_MBK_INL int plan_rows(const hs_mb_model *mb, int leaf, int NQ, hs_real t, const hs_real *q, const hs_real *u,
                         const hs_real *lam, hs_real *g, hs_real *G, hs_real *gt, hs_real *gam, hs_real *K)
{
    hs_mbk_rq x;
    hs_real sc[2 * HS_MB_MAX_BODIES]; /* sin, cos of each planar body's angle */
    x.t = t; x.q = q; x.u = u; x.lam = lam;
    x.g = g; x.G = G; x.gt = gt; x.gam = gam; x.K = K;
    if (leaf == 0) {
        for (int i = 0; i < mb->nfplanar; ++i) {
            const int b = mb->fplanar[i];
            hs_sincos(q[mb->qoff[b] + 2], &sc[2 * b], &sc[2 * b + 1]);
        }
    }
    if (G != NULL) {
        for (int i = 0; i < mb->ngz; ++i) {
            hs_real *A = &G[mb->gz[i][0]];
            for (int j = 0; j < mb->gz[i][1]; ++j) { A[j] = HS_R(0.0); }
        }
    }
    if (K != NULL) { plan_zero(K, sz_nqq(mb, NQ), sz_nqq8(mb, NQ)); }
    return plan_kernels(mb, leaf, sc, &x);
}

/* The row hooks (hs_model.h signatures; m->desc is the hs_mb_model): the plan when it is on,
 * else the fast or general evaluators behind hs_mb_fn_*. */
HS_MBK_INL int run_constraint(const hs_model *m, int leaf, int NQ, hs_real t, const hs_real *q, hs_real *g, hs_real *G,
                               hs_real *gt)
{
    const hs_mb_model *mb = (const hs_mb_model *)m->desc;
    int rc;
    if (hs_mbk_on(mb) == 0) {
        rc = hs_mb_fn_constraint(m, t, q, g, G, gt);
    } else if ((g != NULL) && (G == NULL) && (gt == NULL)) {
        rc = plan_rows(mb, leaf, NQ, t, q, NULL, NULL, g, NULL, NULL, NULL, NULL); /* a projection's residual */
    } else if ((g == NULL) && (G != NULL) && (gt != NULL)) {
        rc = plan_rows(mb, leaf, NQ, t, q, NULL, NULL, NULL, G, gt, NULL, NULL); /* a projection's matrix */
    } else {
        rc = plan_rows(mb, leaf, NQ, t, q, NULL, NULL, g, G, gt, NULL, NULL);
    }
    return rc;
}

HS_MBK_INL int run_gamma(const hs_model *m, int leaf, int NQ, hs_real t, const hs_real *q, const hs_real *u, hs_real *gam)
{
    const hs_mb_model *mb = (const hs_mb_model *)m->desc;
    if (hs_mbk_on(mb) == 0) { return hs_mb_fn_gamma(m, t, q, u, gam); }
    return plan_rows(mb, leaf, NQ, t, q, u, NULL, NULL, NULL, NULL, gam, NULL);
}

HS_MBK_INL int run_curvature(const hs_model *m, int leaf, int NQ, hs_real t, const hs_real *q, const hs_real *lambda,
                              hs_real *K)
{
    const hs_mb_model *mb = (const hs_mb_model *)m->desc;
    if (hs_mbk_on(mb) == 0) { return hs_mb_fn_curvature(m, t, q, lambda, K); }
    return plan_rows(mb, leaf, NQ, t, q, NULL, lambda, NULL, NULL, NULL, NULL, K);
}

HS_MBK_INL int run_constraint_all(const hs_model *m, int leaf, int NQ, hs_real t, const hs_real *q, const hs_real *u,
                                   const hs_real *lambda, hs_real *G, hs_real *gam, hs_real *K)
{
    const hs_mb_model *mb = (const hs_mb_model *)m->desc;
    int rc;
    if (hs_mbk_on(mb) == 0) {
        rc = hs_mb_fn_constraint_all(m, t, q, u, lambda, G, gam, K);
    } else if ((G != NULL) && (gam != NULL) && (lambda != NULL) && (K != NULL)) {
        rc = plan_rows(mb, leaf, NQ, t, q, u, lambda, NULL, G, NULL, gam, K); /* a Newton matrix's */
    } else if ((G != NULL) && (gam != NULL) && (lambda == NULL)) {
        rc = plan_rows(mb, leaf, NQ, t, q, u, NULL, NULL, G, NULL, gam, NULL); /* a stage's rows */
    } else {
        rc = plan_rows(mb, leaf, NQ, t, q, u, lambda, NULL, G, NULL, gam, (lambda != NULL) ? K : NULL);
    }
    return rc;
}

int hs_mb_plan_constraint(const hs_model *m, hs_real t, const hs_real *q, hs_real *g, hs_real *G, hs_real *gt)
{
    return run_constraint(m, 0, 0, t, q, g, G, gt);
}

int hs_mb_plan_gamma(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, hs_real *gam)
{
    return run_gamma(m, 0, 0, t, q, u, gam);
}

int hs_mb_plan_curvature(const hs_model *m, hs_real t, const hs_real *q, const hs_real *lambda, hs_real *K)
{
    return run_curvature(m, 0, 0, t, q, lambda, K);
}

int hs_mb_plan_constraint_all(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                              const hs_real *lambda, hs_real *G, hs_real *gam, hs_real *K)
{
    return run_constraint_all(m, 0, 0, t, q, u, lambda, G, gam, K);
}

static int leaf_constraint(const hs_model *m, hs_real t, const hs_real *q, hs_real *g, hs_real *G, hs_real *gt)
{
    return run_constraint(m, 1, 0, t, q, g, G, gt);
}

static int leaf_gamma(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, hs_real *gam)
{
    return run_gamma(m, 1, 0, t, q, u, gam);
}

static int leaf_curvature(const hs_model *m, hs_real t, const hs_real *q, const hs_real *lambda, hs_real *K)
{
    return run_curvature(m, 1, 0, t, q, lambda, K);
}

static int leaf_constraint_all(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                               const hs_real *lambda, hs_real *G, hs_real *gam, hs_real *K)
{
    return run_constraint_all(m, 1, 0, t, q, u, lambda, G, gam, K);
}

/* The springs' forces added into f, in plan order. */
HS_MBK_INL int plan_springs_f(const hs_mb_model *mb, int leaf, hs_real t, const hs_real *q, hs_real *f)
{
    int rc = HS_OK;
    for (int k = mb->nkr; k < mb->nkr + mb->nkf; ++k) {
        const hs_mb_kop *op = &mb->kop[k];
        if (op->kind == HS_MBK_SPR_QQ) {
            rc |= hs_mbk_spring_fk(op, HS_MBK_SPR_QQ, HS_R(0.0), q, f);
        } else if ((leaf != 0) || (op->kind == HS_MBK_SPR_QG)) {
            rc |= hs_mbk_spring_fk(op, HS_MBK_SPR_QG, HS_R(0.0), q, f);
        } else {
            rc |= hs_mbk_spring_fk(op, HS_MBK_SPR_QM, t, q, f);
        }
    }
    return rc;
}

/* The springs' Jacobians added into fq, in plan order. */
HS_MBK_INL int plan_springs_j(const hs_mb_model *mb, int leaf, hs_real t, const hs_real *q, hs_real *fq)
{
    int rc = HS_OK;
    for (int k = mb->nkr; k < mb->nkr + mb->nkf; ++k) {
        const hs_mb_kop *op = &mb->kop[k];
        if (op->kind == HS_MBK_SPR_QQ) {
            rc |= hs_mbk_spring_jk(op, HS_MBK_SPR_QQ, HS_R(0.0), q, fq);
        } else if ((leaf != 0) || (op->kind == HS_MBK_SPR_QG)) {
            rc |= hs_mbk_spring_jk(op, HS_MBK_SPR_QG, HS_R(0.0), q, fq);
        } else {
            rc |= hs_mbk_spring_jk(op, HS_MBK_SPR_QM, t, q, fq);
        }
    }
    return rc;
}

HS_MBK_INL int run_force(const hs_model *m, int leaf, int NQ, hs_real t, const hs_real *q, const hs_real *u,
                          const hs_real *z, const hs_real *in, hs_real *f)
{
    const hs_mb_model *mb = (const hs_mb_model *)m->desc;
    if (hs_mbk_on(mb) == 0) { return hs_mb_fn_force(m, t, q, u, z, in, f); }
    plan_copy(f, mb->fgrav, sz_nq(mb, NQ), sz_nq8(mb, NQ));
    if (mb->nkf == 0) { return HS_OK; } /* f = fgrav, finite (mb_plan_prepare) */
    const int rc = plan_springs_f(mb, leaf, t, q, f);
    return hs_mbk_forces_done(rc, f, sz_nq(mb, NQ));
}

HS_MBK_INL int run_force_jac(const hs_model *m, int leaf, int NQ, hs_real t, const hs_real *q, const hs_real *u,
                              const hs_real *z, const hs_real *in, hs_real *fq, hs_real *fu)
{
    const hs_mb_model *mb = (const hs_mb_model *)m->desc;
    if (hs_mbk_on(mb) == 0) { return hs_mb_fn_force_jac(m, t, q, u, z, in, fq, fu); }
    plan_zero(fq, sz_nqq(mb, NQ), sz_nqq8(mb, NQ));
    plan_zero(fu, sz_nqq(mb, NQ), sz_nqq8(mb, NQ));
    const int rc = plan_springs_j(mb, leaf, t, q, fq);
    return (rc != (int)HS_OK) ? HS_E_MODEL : HS_OK;
}

int hs_mb_plan_force(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, const hs_real *z,
                     const hs_real *in, hs_real *f)
{
    return run_force(m, 0, 0, t, q, u, z, in, f);
}

int hs_mb_plan_force_jac(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, const hs_real *z,
                         const hs_real *in, hs_real *fq, hs_real *fu)
{
    return run_force_jac(m, 0, 0, t, q, u, z, in, fq, fu);
}

static int leaf_force(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, const hs_real *z,
                      const hs_real *in, hs_real *f)
{
    return run_force(m, 1, 0, t, q, u, z, in, f);
}

static int leaf_force_jac(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, const hs_real *z,
                          const hs_real *in, hs_real *fq, hs_real *fu)
{
    return run_force_jac(m, 1, 0, t, q, u, z, in, fq, fu);
}

HS_MBK_INL int run_mass(const hs_model *m, int NQ, hs_real t, const hs_real *q, hs_real *M)
{
    const hs_mb_model *mb = (const hs_mb_model *)m->desc;
    if (hs_mbk_on(mb) == 0) { return hs_mb_fn_mass(m, t, q, M); }
    const int n = sz_nqq(mb, NQ);
    if ((NQ > 0) || (mb->nmimg == n)) {
        /* a sized plan's M is whole (mb_plan_hooks) */
        plan_copy(M, mb->mimg, n, sz_nqq8(mb, NQ));
    } else {
        plan_zero(M, n, mb->plan_nqq8);
        for (int i = 0; i < mb->nmd; ++i) { M[mb->mdix[i]] = mb->mdv[i]; }
    }
    return HS_OK;
}

int hs_mb_plan_mass(const hs_model *m, hs_real t, const hs_real *q, hs_real *M)
{
    return run_mass(m, 0, t, q, M);
}

/* 1 when the plan's kernels call no function: no planar body (sines), no moving ground point. */
static int plan_leaf(const hs_mb_model *mb)
{
    int leaf = 1;
    if (mb->nfplanar > 0) { leaf = 0; }
    for (int k = 0; k < mb->nkr + mb->nkf; ++k) {
        const int kind = mb->kop[k].kind;
        if ((kind != HS_MBK_DIST_QQ) && (kind != HS_MBK_DIST_QG) && (kind != HS_MBK_SPR_QG) && (kind != HS_MBK_SPR_QQ)) {
            leaf = 0;
        }
    }
    return leaf;
}

/* The hooks of a dense plan of NQ coordinates (leaf: see plan_leaf), its sizes constants:
 * the fills of M, f, fq, fu and K and f's finite test as straight code, as a generated file's. */
/* MISRA Ref 20.7.1 [X-macro parameter is an identifier] */
#define PLAN_SIZED(tag, leaf, NQ)                                                                        \
    static int tag##_mass(const hs_model *m, hs_real t, const hs_real *q, hs_real *M)                   \
    {                                                                                                   \
        return run_mass(m, (NQ), t, q, M);                                                              \
    }                                                                                                   \
    static int tag##_force(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,            \
                           const hs_real *z, const hs_real *in, hs_real *f)                             \
    {                                                                                                   \
        return run_force(m, (leaf), (NQ), t, q, u, z, in, f);                                           \
    }                                                                                                   \
    static int tag##_force_jac(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,        \
                               const hs_real *z, const hs_real *in, hs_real *fq, hs_real *fu)           \
    {                                                                                                   \
        return run_force_jac(m, (leaf), (NQ), t, q, u, z, in, fq, fu);                                  \
    }                                                                                                   \
    static int tag##_constraint(const hs_model *m, hs_real t, const hs_real *q, hs_real *g, hs_real *G, \
                                hs_real *gt)                                                            \
    {                                                                                                   \
        return run_constraint(m, (leaf), (NQ), t, q, g, G, gt);                                         \
    }                                                                                                   \
    static int tag##_gamma(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,            \
                           hs_real *gam)                                                                \
    {                                                                                                   \
        return run_gamma(m, (leaf), (NQ), t, q, u, gam);                                                \
    }                                                                                                   \
    static int tag##_curvature(const hs_model *m, hs_real t, const hs_real *q, const hs_real *lambda,   \
                               hs_real *K)                                                              \
    {                                                                                                   \
        return run_curvature(m, (leaf), (NQ), t, q, lambda, K);                                         \
    }                                                                                                   \
    static int tag##_constraint_all(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,   \
                                    const hs_real *lambda, hs_real *G, hs_real *gam, hs_real *K)        \
    {                                                                                                   \
        return run_constraint_all(m, (leaf), (NQ), t, q, u, lambda, G, gam, K);                         \
    }

/* the small descriptions' sizes: one to three points without calls (2, 4, 6), one or two
 * planar bodies (3, 6), two points with calls (4: the car axle's moving ground point) */
PLAN_SIZED(leaf2, 1, 2)
PLAN_SIZED(leaf4, 1, 4)
PLAN_SIZED(leaf6, 1, 6)
PLAN_SIZED(call3, 0, 3)
PLAN_SIZED(call4, 0, 4)
PLAN_SIZED(call6, 0, 6)

/* The sized hooks for a dense plan of nq coordinates with its M whole, or NULL. */
static const hs_model_type *plan_sized(const hs_mb_model *mb, int leaf)
{
    /* MISRA Ref 20.7.1 [X-macro parameter is an identifier] */
#define PLAN_HOOKS(tag)                                                                                  \
    {.mass = tag##_mass, .force = tag##_force, .force_jac = tag##_force_jac, .constraint = tag##_constraint, \
     .gamma = tag##_gamma, .curvature = tag##_curvature, .constraint_all = tag##_constraint_all}
    static const hs_model_type leaf2_hooks = PLAN_HOOKS(leaf2), leaf4_hooks = PLAN_HOOKS(leaf4),
                               leaf6_hooks = PLAN_HOOKS(leaf6), call3_hooks = PLAN_HOOKS(call3),
                               call4_hooks = PLAN_HOOKS(call4), call6_hooks = PLAN_HOOKS(call6);
    const hs_model_type *H = NULL;
    if ((mb->packed == 0) && (mb->nmimg == mb->nq * mb->nq)) {
        if (leaf != 0) {
            if (mb->nq == 2) { H = &leaf2_hooks; }
            if (mb->nq == 4) { H = &leaf4_hooks; }
            if (mb->nq == 6) { H = &leaf6_hooks; }
        } else {
            if (mb->nq == 3) { H = &call3_hooks; }
            if (mb->nq == 4) { H = &call4_hooks; }
            if (mb->nq == 6) { H = &call6_hooks; }
        }
    }
    return H;
}

void mb_plan_hooks(const hs_mb_model *mb, hs_model_type *T)
{
    const int leaf = plan_leaf(mb);
    const hs_model_type *H = plan_sized(mb, leaf);
    if (H != NULL) {
        T->mass = H->mass;
        T->force = H->force;
        T->force_jac = H->force_jac;
    } else {
        T->mass = hs_mb_plan_mass;
        T->force = (leaf != 0) ? leaf_force : hs_mb_plan_force;
        T->force_jac = (leaf != 0) ? leaf_force_jac : hs_mb_plan_force_jac;
    }
    if ((mb->nc > 0) && (H != NULL)) {
        T->constraint = H->constraint;
        T->gamma = H->gamma;
        T->curvature = H->curvature;
        T->constraint_all = H->constraint_all;
    } else if (mb->nc > 0) {
        T->constraint = (leaf != 0) ? leaf_constraint : hs_mb_plan_constraint;
        T->gamma = (leaf != 0) ? leaf_gamma : hs_mb_plan_gamma;
        T->curvature = (leaf != 0) ? leaf_curvature : hs_mb_plan_curvature;
        T->constraint_all = (leaf != 0) ? leaf_constraint_all : hs_mb_plan_constraint_all;
    } else {
        T->constraint = NULL;
        T->gamma = NULL;
        T->curvature = NULL;
        T->constraint_all = NULL;
    }
}

int hs_mb_plan_hooked(const hs_mb_model *mb)
{
    hs_model_type T = mb->type;
    int same = 0;
    if (mb->plan != 0) {
        mb_plan_hooks(mb, &T);
        same = (int)((T.mass == mb->type.mass) && (T.force == mb->type.force) && (T.force_jac == mb->type.force_jac)
               && (T.constraint == mb->type.constraint) && (T.gamma == mb->type.gamma)
               && (T.curvature == mb->type.curvature) && (T.constraint_all == mb->type.constraint_all));
    }
    return same;
}
