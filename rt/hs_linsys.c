/* hs_linsys.c - linear-system layer: block assembly, analysis at init, fixed-cost factor/solve. */
#include "hs_linsys.h"
#include "hs_dense.h"

/* ---- packed block products ---- */

void hs_blk_qq_mv(const hs_blocks *b, const hs_real *A, const hs_real *x, hs_real *y)
{
    const int nq = b->qb[b->nqb];
    if (b->nqq == 1) { hs_matvec(A, nq, nq, x, y); return; } /* dense: same sums, less index work */
    for (int i = 0; i < nq; ++i) { y[i] = HS_R(0.0); }
    for (int k = 0; k < b->nqq; ++k) {
        const int I = b->qq[2 * k], J = b->qq[2 * k + 1];
        const int r0 = b->qb[I], r1 = b->qb[I + 1], c0 = b->qb[J], w = b->qb[J + 1] - c0;
        const hs_real *xs = x + c0;
        if (w == 3) {
            /* a planar body's 3 x 3 block, x in registers; the same sums in the same order */
            const hs_real x0 = xs[0], x1 = xs[1], x2 = xs[2];
            /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
            for (int i = r0; i < r1; ++i, A += 3) {
                hs_real s = y[i];
                s += A[0] * x0;
                s += A[1] * x1;
                s += A[2] * x2;
                y[i] = s;
            }
            continue;
        }
        /* the block's rows one after the other: A walks the packed block once */
        /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
        for (int i = r0; i < r1; ++i, A += w) {
            hs_real s = y[i];
            for (int j = 0; j < w; ++j) { s += A[j] * xs[j]; }
            y[i] = s;
        }
    }
}

void hs_blk_cq_mv(const hs_blocks *b, const hs_real *G, const hs_real *x, hs_real *y)
{
    const int nc = b->ncb > 0 ? b->cb[b->ncb] : 0;
    if (b->ncq == 1 && b->nqb == 1 && b->ncb == 1) { hs_matvec(G, nc, b->qb[1], x, y); return; }
    for (int i = 0; i < nc; ++i) { y[i] = HS_R(0.0); }
    for (int k = 0; k < b->ncq; ++k) {
        const int I = b->cq[2 * k], J = b->cq[2 * k + 1];
        const int r0 = b->cb[I], r1 = b->cb[I + 1], c0 = b->qb[J], w = b->qb[J + 1] - c0;
        const hs_real *xs = x + c0;
        /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
        for (int i = r0; i < r1; ++i, G += w) {
            hs_real s = y[i];
            for (int j = 0; j < w; ++j) { s += G[j] * xs[j]; }
            y[i] = s;
        }
    }
}

void hs_blk_cq_mtv(const hs_blocks *b, const hs_real *G, const hs_real *x, hs_real *y)
{
    const int nq = b->qb[b->nqb];
    if (b->ncq == 1 && b->nqb == 1 && b->ncb == 1) { hs_matvec_t(G, b->cb[1], nq, x, y); return; }
    for (int j = 0; j < nq; ++j) { y[j] = HS_R(0.0); }
    for (int k = 0; k < b->ncq; ++k) {
        const int I = b->cq[2 * k], J = b->cq[2 * k + 1];
        const int r0 = b->cb[I], r1 = b->cb[I + 1], c0 = b->qb[J], w = b->qb[J + 1] - c0;
        hs_real *ys = y + c0;
        /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
        for (int i = r0; i < r1; ++i, G += w) {
            const hs_real xi = x[i];
            for (int j = 0; j < w; ++j) { ys[j] += G[j] * xi; }
        }
    }
}

void hs_blk_cq_mv_mtv(const hs_blocks *b, const hs_real *G, const hs_real *x, const hs_real *l,
                      hs_real *yc, hs_real *yq)
{
    const int nc = b->ncb > 0 ? b->cb[b->ncb] : 0, nq = b->qb[b->nqb];
    for (int i = 0; i < nc; ++i) { yc[i] = HS_R(0.0); }
    for (int j = 0; j < nq; ++j) { yq[j] = HS_R(0.0); }
    for (int k = 0; k < b->ncq; ++k) {
        const int I = b->cq[2 * k], J = b->cq[2 * k + 1];
        const int r0 = b->cb[I], r1 = b->cb[I + 1], c0 = b->qb[J], w = b->qb[J + 1] - c0;
        const hs_real *xs = x + c0;
        hs_real *ys = yq + c0;
        if (w == 3) {
            /* a planar body's block (x, y, theta): x and the three sums of G^T l held in
             * registers over the block's rows; the same sums in the same order */
            const hs_real x0 = xs[0], x1 = xs[1], x2 = xs[2];
            hs_real s0 = ys[0], s1 = ys[1], s2 = ys[2];
            /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
            for (int i = r0; i < r1; ++i, G += 3) {
                const hs_real li = l[i];
                hs_real s = yc[i];
                s += G[0] * x0;
                s += G[1] * x1;
                s += G[2] * x2;
                yc[i] = s;
                s0 += G[0] * li;
                s1 += G[1] * li;
                s2 += G[2] * li;
            }
            ys[0] = s0;
            ys[1] = s1;
            ys[2] = s2;
            continue;
        }
        /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
        for (int i = r0; i < r1; ++i, G += w) {
            hs_real s = yc[i];
            const hs_real li = l[i];
            for (int j = 0; j < w; ++j) {
                s += G[j] * xs[j];
                ys[j] += G[j] * li;
            }
            yc[i] = s;
        }
    }
}

void hs_blk_qq_set_column(const hs_blocks *b, hs_real *A, int j, const hs_real *y, const hs_real *y0,
                          hs_real d)
{
    int off = 0;
    for (int k = 0; k < b->nqq; ++k) {
        const int I = b->qq[2 * k], J = b->qq[2 * k + 1];
        const int r0 = b->qb[I], r1 = b->qb[I + 1], c0 = b->qb[J], c1 = b->qb[J + 1];
        if (j >= c0 && j < c1) {
            for (int i = r0; i < r1; ++i) { A[off + (i - r0) * (c1 - c0) + (j - c0)] = (y[i] - y0[i]) / d; }
        }
        off += (r1 - r0) * (c1 - c0);
    }
}

static int blk_index(int nb, const int *list, const int *rows, const int *cols, int i, int j)
{
    int off = 0;
    for (int k = 0; k < nb; ++k) {
        const int I = list[2 * k], J = list[2 * k + 1];
        const int r0 = rows[I], r1 = rows[I + 1], c0 = cols[J], c1 = cols[J + 1];
        if (i >= r0 && i < r1 && j >= c0 && j < c1) { return off + (i - r0) * (c1 - c0) + (j - c0); }
        off += (r1 - r0) * (c1 - c0);
    }
    return -1;
}

int hs_blk_qq_index(const hs_blocks *b, int i, int j) { return blk_index(b->nqq, b->qq, b->qb, b->qb, i, j); }

int hs_blk_cq_index(const hs_blocks *b, int i, int j) { return blk_index(b->ncq, b->cq, b->cb, b->qb, i, j); }

int hs_blocks_cc_size(const hs_blocks *b)
{
    int s = 0;
    for (int k = 0; k < b->ncb; ++k) { s += (b->cb[k + 1] - b->cb[k]) * (b->cb[k + 1] - b->cb[k]); }
    return s;
}

/* ---- choice and sizes ---- */

hs_ls_kind hs_linsys_choose(hs_ls_kind kind, const hs_ls_backend *be, const hs_blocks *b,
                            int nq, int nc, int model_has_blocks)
{
    (void)b;
    if (kind == HS_LS_DENSE || kind == HS_LS_SPARSE) { return kind; }
    if (be == NULL || model_has_blocks == 0 || nq + nc <= HS_LS_DENSE_MAX) { return HS_LS_DENSE; }
    return HS_LS_SPARSE;
}

/* Entries (with duplicates) the scalar pattern is built from: A and its transpose, G at both
 * places, C, and the diagonal. */
static size_t triplet_count(const hs_linsys *ls)
{
    /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
    return (size_t)(2 * ls->nA + 2 * ls->nG + ls->nC + ls->n);
}

/* Scalar CSC pattern of the system into tmp: Ap (n+1), Ai (nnz), kind (n), then free space.
 * Returns nnz, or -1 when tmp is too small. */
static int build_pattern(const hs_linsys *ls, int *tmp, size_t ntmp, int **Ap_o, int **Ai_o,
                         int **kind_o)
{
    const hs_blocks *b = &ls->b;
    const int n = ls->n, nq = ls->nq;
    const size_t T = triplet_count(ls);
    /* layout: Ap (n+1) | kind (n) | rows (T) | cols (T) | Ai (T) */
    /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
    if (ntmp < (size_t)(2 * n + 1) + 3u * T) { return -1; }
    int *Ap = tmp, *kind = Ap + n + 1, *ri = kind + n, *ci = ri + T, *Ai = ci + T;
    size_t t = 0;
    /* an entry its mask says is always zero stays out of the pattern (the diagonal below is
     * always in): no fill from it, no work on it */
    int o = 0;
    for (int k = 0; k < b->nqq; ++k) {
        const int I = b->qq[2 * k], J = b->qq[2 * k + 1];
        for (int i = b->qb[I]; i < b->qb[I + 1]; ++i) {
            for (int j = b->qb[J]; j < b->qb[J + 1]; ++j, ++o) {
                if ((ls->qmask == NULL) || (ls->qmask[o] != 0)) {
                    ri[t] = i; ci[t] = j; ++t;
                    ri[t] = j; ci[t] = i; ++t;
                }
            }
        }
    }
    o = 0;
    for (int k = 0; k < b->ncq && ls->nc > 0; ++k) {
        const int I = b->cq[2 * k], J = b->cq[2 * k + 1];
        for (int i = b->cb[I]; i < b->cb[I + 1]; ++i) {
            for (int j = b->qb[J]; j < b->qb[J + 1]; ++j, ++o) {
                if ((ls->cmask == NULL) || (ls->cmask[o] != 0)) {
                    ri[t] = nq + i; ci[t] = j; ++t;
                    ri[t] = j; ci[t] = nq + i; ++t;
                }
            }
        }
    }
    if (ls->reg != 0) {
        for (int k = 0; k < b->ncb; ++k) {
            for (int i = b->cb[k]; i < b->cb[k + 1]; ++i) {
                for (int j = b->cb[k]; j < b->cb[k + 1]; ++j) { ri[t] = nq + i; ci[t] = nq + j; ++t; }
            }
        }
    }
    for (int i = 0; i < n; ++i) { ri[t] = i; ci[t] = i; ++t; }
    /* counting sort by column, then insertion sort of rows in each column and dedupe */
    for (int j = 0; j <= n; ++j) { Ap[j] = 0; }
    for (size_t k = 0; k < t; ++k) { Ap[ci[k] + 1]++; }
    for (int j = 0; j < n; ++j) { Ap[j + 1] += Ap[j]; }
    for (int j = 0; j < n; ++j) { kind[j] = Ap[j]; /* fill pointers (kind reused) */ }
    for (size_t k = 0; k < t; ++k) { Ai[kind[ci[k]]++] = ri[k]; }
    int nnz = 0;
    for (int j = 0; j < n; ++j) {
        const int p0 = Ap[j], p1 = Ap[j + 1];
        for (int p = p0 + 1; p < p1; ++p) {
            int v = Ai[p], q = p - 1;
            while (q >= p0 && Ai[q] > v) { Ai[q + 1] = Ai[q]; --q; }
            Ai[q + 1] = v;
        }
        const int start = nnz;
        for (int p = p0; p < p1; ++p) {
            if (nnz == start || Ai[nnz - 1] != Ai[p]) { Ai[nnz++] = Ai[p]; }
        }
        Ap[j] = start;
    }
    Ap[n] = nnz;
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    for (int i = 0; i < n; ++i) { kind[i] = i < nq ? 0 : 1; }
    /* move Ai next to kind so the free space after it is contiguous */
    int *Ai2 = ri;
    for (int p = 0; p < nnz; ++p) { Ai2[p] = Ai[p]; }
    *Ap_o = Ap; *Ai_o = Ai2; *kind_o = kind;
    return nnz;
}

static void ls_setup(hs_linsys *ls, hs_ls_kind kind, const hs_ls_backend *be, const hs_blocks *b,
                     int nq, int nc, int sign, int reg, int symmetric, const int *qmask, const int *cmask)
{
    ls->qmask = qmask;
    ls->cmask = (nc > 0) ? cmask : NULL;
    ls->kind = kind;
    ls->nq = nq; ls->nc = nc; ls->n = nq + nc;
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    ls->sign = sign < 0 ? -1 : 1;
    ls->reg = reg && nc > 0;
    ls->symmetric = symmetric;
    ls->b = *b;
    if (nc == 0) { ls->b.ncb = 0; ls->b.ncq = 0; }
    ls->nA = hs_blocks_qq_size(&ls->b);
    ls->nG = nc > 0 ? hs_blocks_cq_size(&ls->b) : 0;
    ls->nC = ls->reg ? hs_blocks_cc_size(&ls->b) : 0;
    ls->be = kind == HS_LS_SPARSE ? be : NULL;
    ls->dense1 = ls->b.nqq == 1 && ls->b.ncq <= 1 && ls->nA == nq * nq && ls->nG == nc * nq;
    ls->ldlt = 0;
    ls->nnz = 0;
    ls->sym = NULL;
    ls->mapA = ls->mapG1 = ls->mapG2 = ls->mapC = NULL;
    ls->slots = 0;
    ls->nnum = 0;
    ls->nzero = 0;
    ls->zlist = NULL;
    ls->act = NULL;
    for (int k = 0; k < 4; ++k) { ls->nact[k] = 0; }
    ls->flops_factor = 0;
    ls->flops_solve = 0;
    ls->schur = 0;
    ls->nent = 0;
    ls->nCp = 0;
    ls->sbw = 0;
    ls->sdiag = ls->scol = ls->sent = ls->srow = ls->spair = ls->sCp = NULL;
    ls->srp = ls->sroff = ls->srcol = NULL;
}

/* ---- range-space path (rt/hs_linsys.h): A diagonal, S = G A^-1 G^T + s C ---- */

static int csc_find(const int *Ap, const int *Ai, int i, int j);

/* 1 when ls (set up, masks attached) takes the range-space path: sparse backend with slots,
 * symmetric values, constraints, and every off-diagonal entry of A masked out. */
static int schur_eligible(const hs_linsys *ls)
{
    const hs_ls_backend *be = ls->be;
    if ((ls->kind != HS_LS_SPARSE) || (be == NULL) || (be->slot == NULL) || (be->factor_slots == NULL)) {
        return 0;
    }
    if ((ls->nc < 1) || (ls->symmetric == 0) || (ls->qmask == NULL)) {
        return 0;
    }
    const hs_blocks *b = &ls->b;
    int o = 0;
    for (int k = 0; k < b->nqq; ++k) {
        const int I = b->qq[2 * k], J = b->qq[2 * k + 1];
        for (int i = b->qb[I]; i < b->qb[I + 1]; ++i) {
            for (int j = b->qb[J]; j < b->qb[J + 1]; ++j, ++o) {
                if ((i != j) && (ls->qmask[o] != 0)) {
                    return 0;
                }
            }
        }
    }
    for (int k = 0; k < ls->nq; ++k) {
        if (hs_blk_qq_index(b, k, k) < 0) {
            return 0;
        }
    }
    return 1;
}

/* The range-space analysis' inputs, laid out in the caller's scratch by schur_pattern. */
typedef struct schur_pat {
    int *cptr;          /* (nq + 1) first entry of each column */
    int *ep, *er;       /* (nent) packed G offset and row of each entry, by column */
    int nent, npairs;   /* entries; pairs f <= e within a column */
    int *Ap, *Ai, *kd;  /* S's pattern (nc + 1, nnz, nc kinds all 0) */
    int nnz;
    int *btmp;          /* the backend's analysis scratch (nbtmp ints) */
    size_t nbtmp;
} schur_pat;

/* Entries of G the mask keeps (*nent) and pairs f <= e of them sharing a column (*npairs),
 * without scratch (init time: a scan of G's blocks per column). */
static void schur_counts(const hs_linsys *ls, int *nent, int *npairs)
{
    const hs_blocks *b = &ls->b;
    *nent = 0;
    *npairs = 0;
    for (int j = 0; j < ls->nq; ++j) {
        int c = 0, o = 0;
        for (int k = 0; k < b->ncq; ++k) {
            const int I = b->cq[2 * k], J = b->cq[2 * k + 1];
            const int w = b->qb[J + 1] - b->qb[J];
            for (int i = b->cb[I]; i < b->cb[I + 1]; ++i) {
                const int oj = o + (i - b->cb[I]) * w + (j - b->qb[J]);
                if ((j >= b->qb[J]) && (j < b->qb[J + 1]) && ((ls->cmask == NULL) || (ls->cmask[oj] != 0))) {
                    ++c;
                }
            }
            o += (b->cb[I + 1] - b->cb[I]) * w;
        }
        *nent += c;
        *npairs += c * (c + 1) / 2;
    }
}

/* Scratch ints of schur_pattern for those counts, the backend's share (*nb) included. */
static size_t schur_tmp_need(const hs_linsys *ls, int nent, int npairs, size_t *nb)
{
    const int T = 2 * npairs + ls->nC + ls->nc;
    *nb = ls->be->tmp_ints(ls->nc, T);
    /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
    return (size_t)(2 * ls->nq + 2) + 2u * (size_t)nent + 3u * (size_t)T + (size_t)(3 * ls->nc + 1) + *nb;
}

/* S's pattern into tmp (ntmp ints, at least schur_tmp_need): the pairs of G's entries sharing
 * a column, C's blocks when reg, the diagonal. 0, or -1 when tmp is short. */
static int schur_pattern(const hs_linsys *ls, int *tmp, size_t ntmp, schur_pat *sp)
{
    const hs_blocks *b = &ls->b;
    const int nq = ls->nq, nc = ls->nc;
    int nent = 0, npairs = 0;
    schur_counts(ls, &nent, &npairs);
    size_t nb = 0u;
    const size_t need = schur_tmp_need(ls, nent, npairs, &nb);
    if (ntmp < need) { return -1; }
    const int T = 2 * npairs + ls->nC + nc;
    /* cptr, fp | ep, er (nent) | ri, ci (T) | Ap (nc + 1), Ai (T), kd (nc), fill (nc) | backend */
    int *cptr = tmp, *fp = tmp + nq + 1;
    for (int j = 0; j <= nq; ++j) { cptr[j] = 0; }
    int o = 0;
    for (int k = 0; k < b->ncq; ++k) {
        const int I = b->cq[2 * k], J = b->cq[2 * k + 1];
        for (int i = b->cb[I]; i < b->cb[I + 1]; ++i) {
            for (int j = b->qb[J]; j < b->qb[J + 1]; ++j, ++o) {
                if ((ls->cmask == NULL) || (ls->cmask[o] != 0)) {
                    cptr[j + 1]++;
                }
            }
        }
    }
    for (int j = 0; j < nq; ++j) { cptr[j + 1] += cptr[j]; }
    int *ep = fp + nq + 1, *er = ep + nent, *ri = er + nent, *ci = ri + T;
    int *Ap = ci + T, *Ai = Ap + nc + 1, *kd = Ai + T, *fill = kd + nc;
    for (int j = 0; j < nq; ++j) { fp[j] = cptr[j]; }
    o = 0;
    for (int k = 0; k < b->ncq; ++k) {
        const int I = b->cq[2 * k], J = b->cq[2 * k + 1];
        for (int i = b->cb[I]; i < b->cb[I + 1]; ++i) {
            for (int j = b->qb[J]; j < b->qb[J + 1]; ++j, ++o) {
                if ((ls->cmask == NULL) || (ls->cmask[o] != 0)) {
                    ep[fp[j]] = o;
                    er[fp[j]] = i;
                    fp[j]++;
                }
            }
        }
    }
    int t = 0;
    for (int j = 0; j < nq; ++j) {
        for (int e = cptr[j]; e < cptr[j + 1]; ++e) {
            for (int f = cptr[j]; f <= e; ++f) {
                ri[t] = er[e]; ci[t] = er[f]; ++t;
                ri[t] = er[f]; ci[t] = er[e]; ++t;
            }
        }
    }
    if (ls->reg != 0) {
        for (int k = 0; k < b->ncb; ++k) {
            for (int i = b->cb[k]; i < b->cb[k + 1]; ++i) {
                for (int j = b->cb[k]; j < b->cb[k + 1]; ++j) { ri[t] = i; ci[t] = j; ++t; }
            }
        }
    }
    for (int i = 0; i < nc; ++i) { ri[t] = i; ci[t] = i; ++t; }
    /* counting sort by column, insertion sort of the rows in each column, dedupe */
    for (int j = 0; j <= nc; ++j) { Ap[j] = 0; }
    for (int k = 0; k < t; ++k) { Ap[ci[k] + 1]++; }
    for (int j = 0; j < nc; ++j) { Ap[j + 1] += Ap[j]; }
    for (int j = 0; j < nc; ++j) { fill[j] = Ap[j]; }
    for (int k = 0; k < t; ++k) { Ai[fill[ci[k]]++] = ri[k]; }
    int nnz = 0;
    for (int j = 0; j < nc; ++j) {
        const int p0 = Ap[j], p1 = Ap[j + 1];
        for (int p = p0 + 1; p < p1; ++p) {
            const int v = Ai[p];
            int q = p - 1;
            while ((q >= p0) && (Ai[q] > v)) { Ai[q + 1] = Ai[q]; --q; }
            Ai[q + 1] = v;
        }
        const int start = nnz;
        for (int p = p0; p < p1; ++p) {
            if ((nnz == start) || (Ai[nnz - 1] != Ai[p])) { Ai[nnz++] = Ai[p]; }
        }
        Ap[j] = start;
    }
    Ap[nc] = nnz;
    /* S is positive definite for G of full rank (any order admissible): every unknown kind 0 */
    for (int i = 0; i < nc; ++i) { kd[i] = 0; }
    sp->cptr = cptr; sp->ep = ep; sp->er = er; sp->nent = nent; sp->npairs = npairs;
    sp->Ap = Ap; sp->Ai = Ai; sp->kd = kd; sp->nnz = nnz;
    sp->btmp = tmp + (need - nb); sp->nbtmp = nb;
    return 0;
}

/* Ints of the lists after the backend's analysis in sym: sdiag, scol, sent, srow, spair, sCp,
 * srp, sroff, srcol. */
static size_t schur_list_ints(const hs_linsys *ls, const schur_pat *sp)
{
    /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
    return (size_t)(2 * ls->nq + 1) + 4u * (size_t)sp->nent + (size_t)sp->npairs + 2u * (size_t)ls->nC
           + (size_t)ls->nc + 1u;
}

/* Slot in num of S(i, j) (either triangle, the one the factor reads), -1 if none. */
static int schur_slot(const hs_linsys *L, const int *sym, const schur_pat *sp, int i, int j)
{
    if (L->sbw > 0) {
        /* the band: column min(i, j), row offset |i - j| */
        const int lo = (i < j) ? i : j, hi = (i < j) ? j : i;
        return (lo * L->sbw) + (hi - lo);
    }
    const hs_ls_backend *be = L->be;
    int p = csc_find(sp->Ap, sp->Ai, i, j);
    int sl = (p >= 0) ? be->slot(sym, p) : -1;
    if (sl < 0) {
        p = csc_find(sp->Ap, sp->Ai, j, i);
        sl = (p >= 0) ? be->slot(sym, p) : -1;
    }
    return sl;
}

/* S's half bandwidth in the constraints' own order (its pattern in sp). */
static int schur_bw(const schur_pat *sp, int nc)
{
    int bw = 0;
    for (int j = 0; j < nc; ++j) {
        for (int p = sp->Ap[j]; p < sp->Ap[j + 1]; ++p) {
            const int dd = (sp->Ai[p] > j) ? (sp->Ai[p] - j) : (j - sp->Ai[p]);
            bw = (dd > bw) ? dd : bw;
        }
    }
    return bw;
}

/* Reals of S's band with bw: nc + bw columns of bw + 1 (bw zero columns after S's, so the
 * factor's and the solve's loops need no bounds). */
static int band_len(int nc, int bw) { return (nc + bw) * (bw + 1); }

/* hs_linsys_init_masked's range-space branch for L (set up, eligible): S's analysis, then
 * the lists, into sym (nsym ints); *ls = L on success. */
static int schur_init(hs_linsys *ls, hs_linsys *L, int *sym, size_t nsym, int *tmp, size_t ntmp)
{
    const hs_ls_backend *be = L->be;
    const int nq = L->nq;
    schur_pat sp;
    if (schur_pattern(L, tmp, ntmp, &sp) != 0) { return HS_E_SIZE; }
    size_t ns = 0, nn = 0;
    const int bw = schur_bw(&sp, L->nc);
    int nval = 0;
    if (bw <= HS_LS_BAND_MAX) {
        if (nsym < schur_list_ints(L, &sp)) { return HS_E_SIZE; }
        nval = band_len(L->nc, bw);
        /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
        nn = (size_t)nval;
        L->sbw = bw + 1;
    } else {
        int rc = be->analyze(L->nc, sp.Ap, sp.Ai, sp.kd, 1, sp.btmp, sp.nbtmp, NULL, 0, &ns, &nn);
        if (rc != 0) { return rc; }
        if (nsym < ns + schur_list_ints(L, &sp)) { return HS_E_SIZE; }
        rc = be->analyze(L->nc, sp.Ap, sp.Ai, sp.kd, 1, sp.btmp, sp.nbtmp, sym, ns, &ns, &nn);
        if (rc != 0) { return rc; }
        nval = be->slot(sym, -1);
        /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
        if ((nval <= 0) || ((size_t)nval > nn)) { return HS_E_SIZE; }
    }
    L->schur = 1;
    L->sym = sym;
    L->nnz = sp.nnz;
    /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
    L->nnum = (int)nn;
    L->nzero = nval; /* num[0 .. nval): S's value slots, zeroed before each assembly */
    L->nent = sp.nent;
    L->sdiag = sym + ns;
    L->scol = L->sdiag + nq;
    L->sent = L->scol + nq + 1;
    L->srow = L->sent + sp.nent;
    L->spair = L->srow + sp.nent;
    L->sCp = L->spair + sp.npairs;
    for (int k = 0; k < nq; ++k) { L->sdiag[k] = hs_blk_qq_index(&L->b, k, k); }
    for (int j = 0; j <= nq; ++j) { L->scol[j] = sp.cptr[j]; }
    for (int e = 0; e < sp.nent; ++e) { L->sent[e] = sp.ep[e]; L->srow[e] = sp.er[e]; }
    int t = 0;
    long ff = 0;
    for (int j = 0; j < nq; ++j) {
        for (int e = sp.cptr[j]; e < sp.cptr[j + 1]; ++e) {
            for (int f = sp.cptr[j]; f <= e; ++f) {
                const int sl = schur_slot(L, sym, &sp, sp.er[e], sp.er[f]);
                if (sl < 0) { return HS_E_SIZE; }
                L->spair[t++] = sl;
            }
        }
    }
    int nCp = 0;
    if (L->reg != 0) {
        /* one triangle of each symmetric C block: the slot the factor reads */
        const hs_blocks *B = &L->b;
        int o = 0;
        for (int k = 0; k < B->ncb; ++k) {
            for (int i = B->cb[k]; i < B->cb[k + 1]; ++i) {
                for (int j = B->cb[k]; j < B->cb[k + 1]; ++j, ++o) {
                    if (i >= j) {
                        const int sl = schur_slot(L, sym, &sp, i, j);
                        if (sl < 0) { return HS_E_SIZE; }
                        L->sCp[2 * nCp] = o;
                        L->sCp[2 * nCp + 1] = sl;
                        ++nCp;
                    }
                }
            }
        }
    }
    L->nCp = nCp;
    /* the row lists: G's kept entries in packed order, counted then placed by row */
    L->srp = L->sCp + (2 * nCp);
    L->sroff = L->srp + L->nc + 1;
    L->srcol = L->sroff + sp.nent;
    {
        const hs_blocks *B = &L->b;
        int *rp = L->srp;
        for (int i = 0; i <= L->nc; ++i) { rp[i] = 0; }
        for (int e = 0; e < sp.nent; ++e) { rp[sp.er[e] + 1]++; }
        for (int i = 0; i < L->nc; ++i) { rp[i + 1] += rp[i]; }
        int o = 0, placed = 0;
        for (int k = 0; k < B->ncq; ++k) {
            const int I = B->cq[2 * k], J = B->cq[2 * k + 1];
            for (int i = B->cb[I]; i < B->cb[I + 1]; ++i) {
                for (int j = B->qb[J]; j < B->qb[J + 1]; ++j, ++o) {
                    if ((L->cmask == NULL) || (L->cmask[o] != 0)) {
                        /* rp[i] runs ahead while row i fills; shifted back below */
                        L->sroff[rp[i]] = o;
                        L->srcol[rp[i]] = j;
                        rp[i]++;
                        ++placed;
                    }
                }
            }
        }
        if (placed != sp.nent) { return HS_E_SIZE; }
        for (int i = L->nc; i > 0; --i) { rp[i] = rp[i - 1]; }
        rp[0] = 0;
    }
    long fs = 0;
    if (bw <= HS_LS_BAND_MAX) {
        /* per column: the inverse pivot, bw multipliers, bw (bw + 1) / 2 multiply-adds; the
         * solve: 2 bw multiply-adds and a scaling per row */
        const long lb = (long)bw;
        ff = (long)L->nc * (1L + lb + (lb * (lb + 1L)));
        fs = (long)L->nc * (1L + (4L * lb));
    } else {
        be->ops(sym, &ff, &fs);
    }
    /* per column: A's entry (4), its inverse (1), G A^-1 (1 per entry), 2 per pair; C adds */
    /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
    L->flops_factor = ff + 5L * nq + (long)sp.nent + 2L * sp.npairs + (long)nCp;
    /* G A^-1 b1 - b2 (2 per entry), S's solve, A^-1 b1 - (G A^-1)^T x2 (nq + 2 per entry) */
    L->flops_solve = fs + 4L * sp.nent + (long)nq;
    L->qmask = NULL; /* the caller's scratch: read during init only */
    L->cmask = NULL;
    *ls = *L;
    return HS_OK;
}

static long dense_factor_flops(int n)
{
    long f = 0;
    /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
    for (int k = 0; k < n; ++k) { f += (long)(n - k - 1) * (1 + 2 * (long)(n - k - 1)) + 1; }
    return f;
}

hs_status hs_linsys_need(hs_ls_kind kind, const hs_ls_backend *be, const hs_blocks *b, int nq, int nc,
                   int sign, int reg, int symmetric, int *tmp, size_t ntmp_avail,
                   size_t *nsym, size_t *nfac_reals, size_t *nfac_ints, size_t *ntmp)
{
    return hs_linsys_need_masked(kind, be, b, NULL, NULL, nq, nc, sign, reg, symmetric, tmp, ntmp_avail, nsym,
                                 nfac_reals, nfac_ints, ntmp);
}

hs_status hs_linsys_need_masked(hs_ls_kind kind, const hs_ls_backend *be, const hs_blocks *b, const int *qmask,
                          const int *cmask, int nq, int nc, int sign, int reg, int symmetric, int *tmp,
                          size_t ntmp_avail, size_t *nsym, size_t *nfac_reals, size_t *nfac_ints, size_t *ntmp)
{
    if (b == NULL || nsym == NULL || nfac_reals == NULL || nfac_ints == NULL || ntmp == NULL) { return HS_E_NULL; }
    if (nq < 1 || nc < 0) { return HS_E_SIZE; }
    hs_linsys ls;
    ls_setup(&ls, kind, be, b, nq, nc, sign, reg, symmetric, qmask, cmask);
    const size_t n = (size_t)ls.n;
    if (kind == HS_LS_DENSE) {
        *nsym = 0; *nfac_reals = n * n; *nfac_ints = n; *ntmp = 0;
        return HS_OK;
    }
    if (kind != HS_LS_SPARSE || be == NULL) { return HS_E_SIZE; }
    if (tmp == NULL) { return HS_E_NULL; }
    if (schur_eligible(&ls) != 0) {
        int nent = 0, npairs = 0;
        size_t nb = 0u;
        schur_counts(&ls, &nent, &npairs);
        *ntmp = schur_tmp_need(&ls, nent, npairs, &nb);
        /* never less than the whole matrix' analysis asks: a caller that measured without
         * the masks (its scratch too short for them) got that figure, and must find it exact */
        const size_t Tk = triplet_count(&ls);
        const size_t kkt = 2u * n + 1u + 3u * Tk + ls.be->tmp_ints(ls.n, (int)Tk);
        *ntmp = (kkt > *ntmp) ? kkt : *ntmp;
        if (ntmp_avail < *ntmp) { return HS_E_SIZE; }
        schur_pat sp;
        if (schur_pattern(&ls, tmp, ntmp_avail, &sp) != 0) { return HS_E_SIZE; }
        size_t ns = 0, nn = 0;
        const int bw = schur_bw(&sp, ls.nc);
        size_t nw = n;
        if (bw <= HS_LS_BAND_MAX) {
            /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
            nn = (size_t)band_len(ls.nc, bw);
            nw = n + (size_t)bw;
        } else {
            const int rc = ls.be->analyze(ls.nc, sp.Ap, sp.Ai, sp.kd, 1, sp.btmp, sp.nbtmp, NULL, 0, &ns, &nn);
            if (rc != 0) { return rc; }
        }
        *nsym = ns + schur_list_ints(&ls, &sp);
        /* work (n, + bw for a band) | num (nn) and its sink | A^-1's diagonal (nq) | G A^-1 (nent) */
        /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
        *nfac_reals = nw + nn + 1u + (size_t)ls.nq + (size_t)nent;
        *nfac_ints = 0;
        return HS_OK;
    }
    int *Ap, *Ai, *kd;
    const size_t T = triplet_count(&ls);
    const size_t pat = 2u * n + 1u + 3u * T;
    const size_t btmp = be->tmp_ints(ls.n, (int)T);
    *ntmp = pat + btmp;
    if (ntmp_avail < *ntmp) { return HS_E_SIZE; }
    const int nnz = build_pattern(&ls, tmp, pat, &Ap, &Ai, &kd);
    if (nnz < 0) { return HS_E_SIZE; }
    size_t ns = 0, nn = 0;
    hs_status rc = be->analyze(ls.n, Ap, Ai, kd, symmetric, tmp + pat, btmp, NULL, 0, &ns, &nn);
    if (rc != HS_OK) { return rc; }
    /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
    *nsym = ns + 3u * (size_t)(ls.nA + 2 * ls.nG + ls.nC) + nn;
    /* Ax has one slot more: the sink of the entries a mask leaves out of the pattern; so has
     * num, the sink of the slot maps */
    *nfac_reals = nn + 1u + (size_t)nnz + 1u + n;
    *nfac_ints = 0;
    return HS_OK;
}

/* Position of (i, j) in the CSC pattern (binary search in column j); -1 if absent. */
static int csc_find(const int *Ap, const int *Ai, int i, int j)
{
    int lo = Ap[j], hi = Ap[j + 1] - 1;
    while (lo <= hi) {
        const int mid = lo + (hi - lo) / 2;
        if (Ai[mid] == i) { return mid; }
        if (Ai[mid] < i) { lo = mid + 1; } else { hi = mid - 1; }
    }
    return -1;
}

hs_status hs_linsys_init(hs_linsys *ls, hs_ls_kind kind, const hs_ls_backend *be, const hs_blocks *b,
                   int nq, int nc, int sign, int reg, int symmetric, int *sym, size_t nsym,
                   int *tmp, size_t ntmp)
{
    return hs_linsys_init_masked(ls, kind, be, b, NULL, NULL, nq, nc, sign, reg, symmetric, sym, nsym, tmp, ntmp);
}

hs_status hs_linsys_init_masked(hs_linsys *ls, hs_ls_kind kind, const hs_ls_backend *be, const hs_blocks *b,
                          const int *qmask, const int *cmask, int nq, int nc, int sign, int reg, int symmetric,
                          int *sym, size_t nsym, int *tmp, size_t ntmp)
{
    if (ls == NULL || b == NULL) { return HS_E_NULL; }
    if (nq < 1 || nc < 0) { return HS_E_SIZE; }
    hs_linsys L;
    ls_setup(&L, kind, be, b, nq, nc, sign, reg, symmetric, qmask, cmask);
    if (kind == HS_LS_DENSE) {
        L.flops_factor = dense_factor_flops(L.n);
        L.flops_solve = 2L * L.n * L.n;
        *ls = L;
        return HS_OK;
    }
    if (kind != HS_LS_SPARSE || be == NULL) { return HS_E_SIZE; }
    if (tmp == NULL || sym == NULL) { return HS_E_NULL; }
    if (schur_eligible(&L) != 0) {
        return schur_init(ls, &L, sym, nsym, tmp, ntmp);
    }
    const size_t T = triplet_count(&L);
    const size_t pat = 2u * (size_t)L.n + 1u + 3u * T;
    const size_t btmp = be->tmp_ints(L.n, (int)T);
    if (ntmp < pat + btmp) { return HS_E_SIZE; }
    int *Ap, *Ai, *kd;
    const int nnz = build_pattern(&L, tmp, pat, &Ap, &Ai, &kd);
    if (nnz < 0) { return HS_E_SIZE; }
    size_t ns = 0, nn = 0;
    hs_status rc = be->analyze(L.n, Ap, Ai, kd, symmetric, tmp + pat, btmp, NULL, 0, &ns, &nn);
    if (rc != HS_OK) { return rc; }
    /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
    const size_t nmap = (size_t)(L.nA + 2 * L.nG + L.nC);
    if (nsym < ns + 3u * nmap + nn) { return HS_E_SIZE; }
    rc = be->analyze(L.n, Ap, Ai, kd, symmetric, tmp + pat, btmp, sym, ns, &ns, &nn);
    if (rc != HS_OK) { return rc; }
    L.nnz = nnz;
    L.sym = sym;
    L.mapA = sym + ns;
    L.mapG1 = L.mapA + L.nA;
    L.mapG2 = L.mapG1 + L.nG;
    L.mapC = L.mapG2 + L.nG;
    const hs_blocks *B = &L.b;
    int o = 0;
    for (int k = 0; k < B->nqq; ++k) {
        const int I = B->qq[2 * k], J = B->qq[2 * k + 1];
        for (int i = B->qb[I]; i < B->qb[I + 1]; ++i) {
            for (int j = B->qb[J]; j < B->qb[J + 1]; ++j) {
                const int pa = csc_find(Ap, Ai, i, j);
                L.mapA[o++] = (pa >= 0) ? pa : nnz; /* masked out: the sink */
            }
        }
    }
    o = 0;
    for (int k = 0; k < B->ncq; ++k) {
        const int I = B->cq[2 * k], J = B->cq[2 * k + 1];
        for (int i = B->cb[I]; i < B->cb[I + 1]; ++i) {
            for (int j = B->qb[J]; j < B->qb[J + 1]; ++j) {
                const int p1 = csc_find(Ap, Ai, j, nq + i); /* (j, nq+i): s G1^T */
                const int p2 = csc_find(Ap, Ai, nq + i, j);
                L.mapG1[o] = (p1 >= 0) ? p1 : nnz; /* masked out: the sink */
                L.mapG2[o] = (p2 >= 0) ? p2 : nnz;
                ++o;
            }
        }
    }
    o = 0;
    if (L.reg != 0) {
        for (int k = 0; k < B->ncb; ++k) {
            for (int i = B->cb[k]; i < B->cb[k + 1]; ++i) {
                for (int j = B->cb[k]; j < B->cb[k + 1]; ++j) {
                    L.mapC[o++] = csc_find(Ap, Ai, nq + i, nq + j);
                }
            }
        }
    }
    /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
    L.nnum = (int)nn;
    if ((be->slot != NULL) && (be->factor_slots != NULL) && (be->slot(sym, -1) > 0)) {
        /* the maps retargeted into num: assembly writes where the factor reads */
        const int nval = be->slot(sym, -1);
        if ((size_t)nval > nn) { return HS_E_SIZE; }
        int *mark = L.mapA + nmap; /* nn ints: marks, then the list of unwritten slots */
        for (int k = 0; k < nval; ++k) { mark[k] = 0; }
        for (size_t k = 0; k < nmap; ++k) {
            const int p = L.mapA[k];
            const int sl = ((p >= 0) && (p < nnz)) ? be->slot(sym, p) : -1;
            L.mapA[k] = (sl >= 0) ? sl : L.nnum;
            if (sl >= 0) { mark[sl] = 1; }
        }
        int nz = 0;
        for (int k = 0; k < nval; ++k) {
            if (mark[k] == 0) { mark[nz++] = k; }
        }
        L.slots = 1;
        L.nzero = nz;
        L.zlist = mark;
        /* the entries the factor reads, as (source, slot) pairs: the per-step assembly writes
         * these only, not the other triangle's copies nor the masked zeros */
        int *act = mark + nn;
        const int *lm[4] = {L.mapA, L.mapG1, L.mapG2, L.mapC};
        const int len[4] = {L.nA, L.nG, L.nG, L.nC};
        L.act = act;
        for (int l = 0; l < 4; ++l) {
            int na = 0;
            for (int k = 0; k < len[l]; ++k) {
                if (lm[l][k] < L.nnum) {
                    act[0] = k;
                    act[1] = lm[l][k];
                    act += 2;
                    ++na;
                }
            }
            L.nact[l] = na;
        }
    }
    be->ops(sym, &L.flops_factor, &L.flops_solve);
    L.qmask = NULL; /* the caller's scratch: read during init only */
    L.cmask = NULL;
    *ls = L;
    return HS_OK;
}

void hs_linsys_fac_bind(const hs_linsys *ls, hs_ls_fac *F, hs_real *reals, int *ints)
{
    if (ls->schur != 0) {
        /* reals: work (n, + bw for a band) | num (nnum) and the sink | A^-1's diagonal (nq) |
         * G A^-1 (nent) */
        F->work = reals;
        F->x = reals + ls->n + ((ls->sbw > 0) ? (ls->sbw - 1) : 0);
        F->x[ls->nnum] = HS_R(0.0);
        F->Ax = F->x + ls->nnum + 1;
        F->piv = NULL;
        (void)ints;
        for (int k = 0; k < ls->nq + ls->nent; ++k) { F->Ax[k] = HS_R(0.0); }
        return;
    }
    if (ls->kind == HS_LS_SPARSE) {
        /* reals: work (n) | Ax (nnz) | the backend's num, as hs_linsys_need counted them */
        /* reals: work (n) | Ax (nnz + the sink) | the backend's num */
        F->work = reals;
        F->Ax = reals + ls->n;
        F->x = reals + ls->n + ls->nnz + 1;
        if (ls->slots != 0) {
            /* the sink of the slot maps, past the backend's reals */
            F->x[ls->nnum] = HS_R(0.0);
        }
        F->piv = NULL;
        (void)ints;
        /* pattern entries no map writes (a mirror of an unlisted block, a multiplier diagonal
         * without C) are zero for good: factor then only writes the mapped ones */
        for (int p = 0; p <= ls->nnz; ++p) { F->Ax[p] = HS_R(0.0); }
        return;
    }
    F->x = reals;
    F->piv = ints;
    F->Ax = NULL;
    F->work = NULL;
}

/* Entry k of A = M - (c1 F1 + c2 F2), or M when F1 is NULL; written as the stepper always has
 * (M - (h cu fu + h^2 cq fq)) so the bits do not depend on the backend. */
#define A_ENTRY(k) (F1 ? M[k] - (c1 * F1[k] + c2 * F2[k]) : M[k])

/* L D L^T of S's band B in place (band_len reals: B[j (bw + 1) + r] = S(j + r, j), every entry
 * outside S zero, bw zero columns after S's) into B[j (bw + 1)] = 1 / D_j and
 * B[j (bw + 1) + r] = L(j + r, j). A pivot that is non-finite or not above nc eps times the
 * largest |diagonal| is replaced by 1 so the work stays fixed (HS_E_SINGULAR), as the
 * backend does. */
static inline int band_factor_k(hs_real *B, int nc, int bw)
{
    const int w = bw + 1;
    hs_real amax = HS_R(0.0);
    for (int j = 0; j < nc; ++j) {
        const hs_real a = hs_abs(B[j * w]);
        amax = (a > amax) ? a : amax;
    }
    const hs_real tiny = (hs_real)nc * HS_EPS * amax;
    hs_real v[HS_LS_BAND_MAX + 1];
    int bad = 0;
    for (int j = 0; j < nc; ++j) {
        hs_real *c = B + (j * w);
        const hs_real dj = c[0];
        hs_real di = HS_R(1.0);
        if ((hs_abs(dj) > tiny) && ((dj - dj) == HS_R(0.0))) {
            di = HS_R(1.0) / dj;
        } else {
            bad = 1;
        }
        c[0] = di;
        for (int r = 1; r <= bw; ++r) {
            v[r] = c[r];
            c[r] = c[r] * di;
        }
        for (int t = 1; t <= bw; ++t) {
            hs_real *ct = c + (t * w);
            const hs_real vt = v[t];
            for (int r = t; r <= bw; ++r) { ct[r - t] -= c[r] * vt; }
        }
    }
    return (bad != 0) ? HS_E_SINGULAR : HS_OK;
}

/* Solves with band_factor_k's B: y (nc, then bw zeros) overwritten by S^-1 y. */
static inline void band_solve_k(const hs_real *B, int nc, int bw, hs_real *y)
{
    const int w = bw + 1;
    for (int j = 0; j < nc; ++j) {
        const hs_real *c = B + (j * w);
        const hs_real yj = y[j];
        for (int r = 1; r <= bw; ++r) { y[j + r] -= c[r] * yj; }
        y[j] = yj * c[0];
    }
    for (int j = nc - 1; j >= 0; --j) {
        const hs_real *c = B + (j * w);
        hs_real s = y[j];
        for (int r = 1; r <= bw; ++r) { s -= c[r] * y[j + r]; }
        y[j] = s;
    }
}

/* One column j of band_factor3: *d0, *d1, *d2 hold column j's entries 0..2, *e0, *e1 column
 * j + 1's 0..1 and *f0 column j + 2's 0, each as updated by the columns before; afterwards
 * column j holds 1 / D and L, and the next column's roles are held by *e0, *e1, *d0 (its 0..2),
 * *f0, *d1 (j + 2's) and *d2 (j + 3's). Returns 1 for a pivot replaced by 1. */
static inline int band_fac3(hs_real *B, int j, hs_real tiny, hs_real *d0, hs_real *d1, hs_real *d2, hs_real *e0,
                            hs_real *e1, hs_real *f0)
{
    hs_real *c = B + (j * 4);
    const hs_real dj = *d0;
    hs_real di = HS_R(1.0);
    int bad = 0;
    if ((hs_abs(dj) > tiny) && ((dj - dj) == HS_R(0.0))) {
        di = HS_R(1.0) / dj;
    } else {
        bad = 1;
    }
    const hs_real v1 = *d1, v2 = *d2, v3 = c[3];
    const hs_real l1 = v1 * di, l2 = v2 * di, l3 = v3 * di;
    c[0] = di; c[1] = l1; c[2] = l2; c[3] = l3;
    *e0 = *e0 - (l1 * v1);
    *e1 = *e1 - (l2 * v1);
    *d0 = c[6] - (l3 * v1);
    *f0 = *f0 - (l2 * v2);
    *d1 = c[9] - (l3 * v2);
    *d2 = c[12] - (l3 * v3);
    return bad;
}

/* band_factor_k for a half bandwidth of 3 (a chain's joints of two rows): the same operations
 * in the same order, the entries the next columns' updates touch riding in registers from
 * column to column (each loaded once and stored once, as L's), four columns per pass so each
 * register comes back to its role without a move. */
static int band_factor3(hs_real *B, int nc)
{
    hs_real amax = HS_R(0.0);
    for (int j = 0; j < nc; ++j) {
        const hs_real a = hs_abs(B[j * 4]);
        amax = (a > amax) ? a : amax;
    }
    const hs_real tiny = (hs_real)nc * HS_EPS * amax;
    int bad = 0;
    hs_real x1 = B[0], x2 = B[1], x3 = B[2], x4 = B[4], x5 = B[5], x6 = B[8];
    int j = 0;
    for (; (j + 3) < nc; j += 4) {
        bad |= band_fac3(B, j, tiny, &x1, &x2, &x3, &x4, &x5, &x6);
        bad |= band_fac3(B, j + 1, tiny, &x4, &x5, &x1, &x6, &x2, &x3);
        bad |= band_fac3(B, j + 2, tiny, &x6, &x2, &x4, &x3, &x5, &x1);
        bad |= band_fac3(B, j + 3, tiny, &x3, &x5, &x6, &x1, &x2, &x4);
    }
    if (j < nc) {
        bad |= band_fac3(B, j, tiny, &x1, &x2, &x3, &x4, &x5, &x6);
    }
    if ((j + 1) < nc) {
        bad |= band_fac3(B, j + 1, tiny, &x4, &x5, &x1, &x6, &x2, &x3);
    }
    if ((j + 2) < nc) {
        bad |= band_fac3(B, j + 2, tiny, &x6, &x2, &x4, &x3, &x5, &x1);
    }
    return (bad != 0) ? HS_E_SINGULAR : HS_OK;
}

/* One column j of band_solve3's forward pass: *a, *b, *c hold y[j], y[j + 1], y[j + 2] as updated
 * so far; afterwards y[j] is final and *b, *c, *a hold y[j + 1 .. j + 3]. */
static inline void band_fwd3(const hs_real *B, hs_real *y, int j, hs_real *a, hs_real *b, hs_real *c)
{
    const hs_real *cj = B + (j * 4);
    const hs_real yj = *a;
    *b = *b - (cj[1] * yj);
    *c = *c - (cj[2] * yj);
    *a = y[j + 3] - (cj[3] * yj);
    y[j] = yj * cj[0];
}

/* One row j of band_solve3's backward pass: *p1, *p2, *p3 hold y[j + 1 .. j + 3]; afterwards
 * y[j] is final and *p3, *p1, *p2 hold y[j .. j + 2]. */
static inline void band_bwd3(const hs_real *B, hs_real *y, int j, const hs_real *p1, const hs_real *p2,
                             hs_real *p3)
{
    const hs_real *cj = B + (j * 4);
    *p3 = ((y[j] - (cj[1] * *p1)) - (cj[2] * *p2)) - (cj[3] * *p3);
    y[j] = *p3;
}

static void band_solve3(const hs_real *B, int nc, hs_real *y)
{
    /* the entries the next columns' updates touch ride in registers, three columns per pass so
     * each register comes back to its role without a move */
    hs_real u0 = y[0], u1 = y[1], u2 = y[2];
    int j = 0;
    for (; (j + 2) < nc; j += 3) {
        band_fwd3(B, y, j, &u0, &u1, &u2);
        band_fwd3(B, y, j + 1, &u1, &u2, &u0);
        band_fwd3(B, y, j + 2, &u2, &u0, &u1);
    }
    if (j < nc) {
        band_fwd3(B, y, j, &u0, &u1, &u2);
    }
    if ((j + 1) < nc) {
        band_fwd3(B, y, j + 1, &u1, &u2, &u0);
    }
    /* the padding past nc: zero before, and zero after (its band entries are zero) */
    hs_real p1 = y[nc], p2 = y[nc + 1], p3 = y[nc + 2];
    j = nc - 1;
    for (; j >= 2; j -= 3) {
        band_bwd3(B, y, j, &p1, &p2, &p3);
        band_bwd3(B, y, j - 1, &p3, &p1, &p2);
        band_bwd3(B, y, j - 2, &p2, &p3, &p1);
    }
    if (j >= 0) {
        band_bwd3(B, y, j, &p1, &p2, &p3);
    }
    if (j >= 1) {
        band_bwd3(B, y, j - 1, &p3, &p1, &p2);
    }
}

/* band_factor_k and band_solve_k with small half bandwidths as constants, so the compiler can
 * unroll their short inner loops (the same operations in the same order); 3 written out. */
static int band_factor(hs_real *B, int nc, int bw)
{
    int rc;
    if (bw == 3) {
        rc = band_factor3(B, nc);
    } else if (bw == 1) {
        rc = band_factor_k(B, nc, 1);
    } else if (bw == 2) {
        rc = band_factor_k(B, nc, 2);
    } else {
        rc = band_factor_k(B, nc, bw);
    }
    return rc;
}

static void band_solve(const hs_real *B, int nc, int bw, hs_real *y)
{
    if (bw == 3) {
        band_solve3(B, nc, y);
    } else if (bw == 1) {
        band_solve_k(B, nc, 1, y);
    } else if (bw == 2) {
        band_solve_k(B, nc, 2, y);
    } else {
        band_solve_k(B, nc, bw, y);
    }
}

/* hs_linsys_factor on the range-space path: A's diagonal inverted (a zero or non-finite entry
 * replaced by 1 and reported, the work unchanged), G A^-1 kept for the solves, S = G A^-1 G^T
 * + s C assembled into the backend's slots column by column of G, then factored. */
static int schur_factor(const hs_linsys *ls, hs_ls_fac *F, const hs_real *M, hs_real c1, const hs_real *F1,
                        hs_real c2, const hs_real *F2, const hs_real *G, const hs_real *C)
{
    hs_real *V = F->x, *d = F->Ax, *W = F->Ax + ls->nq;
    const int *sc = ls->scol, *se = ls->sent, *sp = ls->spair;
    int bad = 0;
    /* four at a time (a band of half bandwidth 3 has a multiple of four), then the rest */
    const int nz4 = ls->nzero - (ls->nzero % 4);
    for (int k = 0; k < nz4; k += 4) {
        V[k] = HS_R(0.0);
        V[k + 1] = HS_R(0.0);
        V[k + 2] = HS_R(0.0);
        V[k + 3] = HS_R(0.0);
    }
    for (int k = nz4; k < ls->nzero; ++k) { V[k] = HS_R(0.0); }
    for (int k = 0; k < ls->nq; ++k) {
        const int ia = ls->sdiag[k];
        const hs_real a = (F1 != NULL) ? M[ia] - (c1 * F1[ia] + c2 * F2[ia]) : M[ia];
        hs_real w = HS_R(1.0);
        /* a - a is 0 exactly for finite a only */
        if ((a != HS_R(0.0)) && ((a - a) == HS_R(0.0))) {
            w = HS_R(1.0) / a;
        } else {
            bad = 1;
        }
        d[k] = w;
        const int e0 = sc[k], e1 = sc[k + 1];
        if ((e1 - e0) == 2) {
            /* a column of two entries (a chain's body translation), written out */
            const hs_real g0 = G[se[e0]], g1 = G[se[e0 + 1]];
            const hs_real w0 = g0 * w, w1 = g1 * w;
            W[e0] = w0; W[e0 + 1] = w1;
            V[sp[0]] += w0 * g0;
            V[sp[1]] += w1 * g0;
            V[sp[2]] += w1 * g1;
            sp += 3;
        } else if ((e1 - e0) == 4) {
            /* four (its rotation): the loops below in the same order */
            const hs_real g0 = G[se[e0]], g1 = G[se[e0 + 1]], g2 = G[se[e0 + 2]], g3 = G[se[e0 + 3]];
            const hs_real w0 = g0 * w, w1 = g1 * w, w2 = g2 * w, w3 = g3 * w;
            W[e0] = w0; W[e0 + 1] = w1; W[e0 + 2] = w2; W[e0 + 3] = w3;
            V[sp[0]] += w0 * g0;
            V[sp[1]] += w1 * g0;
            V[sp[2]] += w1 * g1;
            V[sp[3]] += w2 * g0;
            V[sp[4]] += w2 * g1;
            V[sp[5]] += w2 * g2;
            V[sp[6]] += w3 * g0;
            V[sp[7]] += w3 * g1;
            V[sp[8]] += w3 * g2;
            V[sp[9]] += w3 * g3;
            sp += 10;
        } else {
            for (int e = e0; e < e1; ++e) {
                const hs_real ge = G[se[e]] * w;
                W[e] = ge;
                for (int f = e0; f <= e; ++f) {
                    V[*sp] += ge * G[se[f]];
                    ++sp;
                }
            }
        }
    }
    if (ls->nCp > 0) {
        const int *cp = ls->sCp;
        for (int k = 0; k < ls->nCp; ++k, cp += 2) {
            V[cp[1]] += (ls->sign < 0) ? -C[cp[0]] : C[cp[0]];
        }
    }
    const int rc = (ls->sbw > 0) ? band_factor(V, ls->nc, ls->sbw - 1) : ls->be->factor_slots(ls->sym, V);
    /* MISRA Ref 10.4.1 [int code vs the enumerator naming it] */
    return (bad != 0) ? HS_E_SINGULAR : rc;
}

/* s - sum_e W[e] y[r[e]] over the ne entries of one column, subtracted in index order;
 * columns of two and four entries written out (same bits as the loop). */
static inline hs_real gather_col(hs_real s, const hs_real *y, const int *r, const hs_real *W, int ne)
{
    hs_real t = s;
    if (ne == 2) {
        t = (t - (W[0] * y[r[0]])) - (W[1] * y[r[1]]);
    } else if (ne == 4) {
        t = (((t - (W[0] * y[r[0]])) - (W[1] * y[r[1]])) - (W[2] * y[r[2]])) - (W[3] * y[r[3]]);
    } else {
        for (int e = 0; e < ne; ++e) { t -= W[e] * y[r[e]]; }
    }
    return t;
}

/* y[r[e]] += W[e] b for the ne entries of one column; columns of two and four entries (a
 * chain's) written out, in the loop's order (same bits as the loop). */
static inline void scatter_col(hs_real *y, const int *r, const hs_real *W, hs_real b, int ne)
{
    if (ne == 2) {
        y[r[0]] += W[0] * b;
        y[r[1]] += W[1] * b;
    } else if (ne == 4) {
        y[r[0]] += W[0] * b;
        y[r[1]] += W[1] * b;
        y[r[2]] += W[2] * b;
        y[r[3]] += W[3] * b;
    } else {
        for (int e = 0; e < ne; ++e) { y[r[e]] += W[e] * b; }
    }
}

/* hs_linsys_solve on the range-space path, b (n) overwritten by x (zpos: b1 = 0):
 * y = S^-1 (G A^-1 b1 - b2), x1 = A^-1 b1 - (G A^-1)^T y, x2 = s y. */
static void schur_solve(const hs_linsys *ls, const hs_ls_fac *F, hs_real *b, int zpos, hs_real *xs)
{
    const int nq = ls->nq, nc = ls->nc;
    const hs_real *d = F->Ax, *W = F->Ax + nq;
    const int *sc = ls->scol, *sr = ls->srow;
    hs_real *y = b + nq;
    if (ls->sbw > 0) {
        /* the band's solve runs in work, padded with zeros past nc */
        y = F->work;
        for (int i = 0; i < nc; ++i) { y[i] = -b[nq + i]; }
        for (int i = nc; i < nc + ls->sbw - 1; ++i) { y[i] = HS_R(0.0); }
    } else {
        for (int i = 0; i < nc; ++i) { y[i] = -y[i]; }
    }
    if (zpos == 0) {
        for (int k = 0; k < nq; ++k) {
            const hs_real bk = b[k];
            const int e0 = sc[k], ne = sc[k + 1] - e0;
            const int *r = sr + e0;
            const hs_real *Wk = W + e0;
            scatter_col(y, r, Wk, bk, ne);
        }
    }
    if (ls->sbw > 0) {
        band_solve(F->x, nc, ls->sbw - 1, y);
    } else {
        ls->be->solve(ls->sym, F->x, y, F->work);
    }
    for (int k = 0; k < nq; ++k) {
        hs_real s = (zpos == 0) ? d[k] * b[k] : HS_R(0.0);
        const int e0 = sc[k], ne = sc[k + 1] - e0;
        const int *r = sr + e0;
        const hs_real *Wk = W + e0;
        s = gather_col(s, y, r, Wk, ne);
        if (xs != NULL) {
            xs[k] -= s;
        } else {
            b[k] = s;
        }
    }
    if (xs != NULL) {
        /* hs_linsys_solve_c_sub: x2 is not asked for */
    } else if (ls->sign < 0) {
        for (int i = 0; i < nc; ++i) { b[nq + i] = -y[i]; }
    } else if (ls->sbw > 0) {
        for (int i = 0; i < nc; ++i) { b[nq + i] = y[i]; }
    } else {
        /* y is b's own multiplier part */
    }
}

/* Sum from +0 of the ne products v[o[e]] * x[r[e]] in e's order; two and four terms (a chain's
 * columns and rows) written out. */
static inline hs_real list_dot(const hs_real *v, const hs_real *x, const int *o, const int *r, int ne)
{
    hs_real s = HS_R(0.0);
    if (ne == 2) {
        s = (s + (v[o[0]] * x[r[0]])) + (v[o[1]] * x[r[1]]);
    } else if (ne == 4) {
        s = (((s + (v[o[0]] * x[r[0]])) + (v[o[1]] * x[r[1]])) + (v[o[2]] * x[r[2]])) + (v[o[3]] * x[r[3]]);
    } else {
        for (int e = 0; e < ne; ++e) { s += v[o[e]] * x[r[e]]; }
    }
    return s;
}

void hs_linsys_g_mv(const hs_linsys *ls, const hs_real *G, const hs_real *x, hs_real *y)
{
    if (ls->schur == 0) {
        hs_blk_cq_mv(&ls->b, G, x, y);
        return;
    }
    const int *rp = ls->srp;
    int e0 = 0;
    for (int i = 0; i < ls->nc; ++i) {
        const int e1 = rp[i + 1];
        y[i] = list_dot(G, x, ls->sroff + e0, ls->srcol + e0, e1 - e0);
        e0 = e1;
    }
}

void hs_linsys_schur_residual(const hs_linsys *ls, const hs_real *M, const hs_real *G, const hs_real *f,
                              const hs_real *gam, const hs_real *x, const hs_real *l, hs_real *b)
{
    const int nq = ls->nq, nc = ls->nc;
    const int *sc = ls->scol, *dg = ls->sdiag;
    int e0 = 0;
    for (int k = 0; k < nq; ++k) {
        const int e1 = sc[k + 1];
        /* + 0 as the block product's sum starts: M x = -0 gives +0 there too */
        const hs_real mx = HS_R(0.0) + (M[dg[k]] * x[k]);
        b[k] = (f[k] - mx) + list_dot(G, l, ls->sent + e0, ls->srow + e0, e1 - e0);
        e0 = e1;
    }
    const int *rp = ls->srp;
    e0 = 0;
    for (int i = 0; i < nc; ++i) {
        const int e1 = rp[i + 1];
        b[nq + i] = -(list_dot(G, x, ls->sroff + e0, ls->srcol + e0, e1 - e0) + gam[i]);
        e0 = e1;
    }
}

int hs_linsys_schur_newton(const hs_linsys *ls, const hs_ls_fac *F, const hs_real *M, const hs_real *G,
                           const hs_real *f, const hs_real *gam, hs_real *x, hs_real *l, hs_real *b, hs_real *na)
{
    const int nq = ls->nq, nc = ls->nc;
    const int *sc = ls->scol, *se = ls->sent, *sr = ls->srow, *dg = ls->sdiag, *rp = ls->srp;
    const hs_real *d = F->Ax, *W = F->Ax + nq;
    /* S's right-hand side G A^-1 b1 - b2, in work (a band, padded with zeros) or in b's
     * multiplier part; -b2 = G x + gam exactly (two negations) */
    hs_real *y = (ls->sbw > 0) ? F->work : (b + nq);
    int e0 = 0;
    for (int i = 0; i < nc; ++i) {
        const int e1 = rp[i + 1];
        y[i] = list_dot(G, x, ls->sroff + e0, ls->srcol + e0, e1 - e0) + gam[i];
        e0 = e1;
    }
    if (ls->sbw > 0) {
        for (int i = nc; i < nc + ls->sbw - 1; ++i) { y[i] = HS_R(0.0); }
    }
    /* b1 column by column (hs_linsys_schur_residual's), each scattered into y at once */
    e0 = 0;
    for (int k = 0; k < nq; ++k) {
        const int e1 = sc[k + 1], ne = e1 - e0;
        const int *r = sr + e0;
        const hs_real *Wk = W + e0;
        const hs_real mx = HS_R(0.0) + (M[dg[k]] * x[k]);
        const hs_real bk = (f[k] - mx) + list_dot(G, l, se + e0, r, ne);
        b[k] = bk;
        scatter_col(y, r, Wk, bk, ne);
        e0 = e1;
    }
    if (ls->sbw > 0) {
        band_solve(F->x, nc, ls->sbw - 1, y);
    } else {
        ls->be->solve(ls->sym, F->x, y, F->work);
    }
    /* dx = A^-1 b1 - (G A^-1)^T y, applied */
    hs_real a1 = HS_R(0.0);
    e0 = 0;
    for (int k = 0; k < nq; ++k) {
        const int e1 = sc[k + 1], ne = e1 - e0;
        const int *r = sr + e0;
        const hs_real *Wk = W + e0;
        hs_real s = d[k] * b[k];
        s = gather_col(s, y, r, Wk, ne);
        x[k] += s;
        a1 += hs_abs(s);
        e0 = e1;
    }
    *na = a1;
    /* dl = s y; a NaN or Inf in it leaves a NaN in nf */
    hs_real nf = HS_R(0.0);
    for (int i = 0; i < nc; ++i) {
        const hs_real dl = (ls->sign < 0) ? -y[i] : y[i];
        l[i] += dl;
        nf += dl - dl;
    }
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    return (nf == HS_R(0.0)) ? 1 : 0;
}

/* The assembled dense K (n x n) factored: LU with pivots, or with ls->ldlt the L D L^T of
 * [[A, s G^T], [G, -s C]] in the unknowns (x1, s x2), symmetric for s = +1 and s = -1 alike:
 * its lower triangle is K's but for the C block, whose sign follows s. */
static int dense_finish(const hs_linsys *ls, hs_real *K, int *piv)
{
    const int n = ls->n, nq = ls->nq;
    if (ls->ldlt == 0) {
        return hs_lu_factor(K, piv, n);
    }
    if ((ls->sign < 0) && (ls->reg != 0)) {
        for (int i = nq; i < n; ++i) {
            for (int j = nq; j <= i; ++j) { K[i * n + j] = -K[i * n + j]; }
        }
    }
    return hs_ldlt_factor(K, n);
}

hs_status hs_linsys_factor(const hs_linsys *ls, hs_ls_fac *F, const hs_real *M, hs_real c1,
                     const hs_real *F1, hs_real c2, const hs_real *F2, const hs_real *G1,
                     const hs_real *G2, const hs_real *C)
{
    const hs_blocks *b = &ls->b;
    const int n = ls->n, nq = ls->nq, nc = ls->nc;
    if (ls->kind == HS_LS_DENSE) {
        hs_real *K = F->x;
        if ((ls->dense1 != 0) && (ls->ldlt != 0)) {
            /* L D L^T reads the lower triangle only (the upper one is its scratch): A's lower
             * triangle, G2 and C's, each loop without a test inside */
            if (F1 != NULL) {
                for (int i = 0; i < nq; ++i) {
                    for (int j = 0; j <= i; ++j) {
                        const int k = i * nq + j;
                        K[i * n + j] = M[k] - (c1 * F1[k] + c2 * F2[k]);
                    }
                }
            } else {
                for (int i = 0; i < nq; ++i) {
                    for (int j = 0; j <= i; ++j) { K[i * n + j] = M[i * nq + j]; }
                }
            }
            for (int i = 0; i < nc; ++i) {
                hs_real *Ki = K + (nq + i) * n;
                for (int j = 0; j < nq; ++j) { Ki[j] = G2[i * nq + j]; }
                if (ls->reg != 0) {
                    for (int j = 0; j <= i; ++j) { Ki[nq + j] = -C[i * nc + j]; }
                } else {
                    for (int j = 0; j <= i; ++j) { Ki[nq + j] = HS_R(0.0); }
                }
            }
            return dense_finish(ls, K, F->piv);
        }
        if (ls->dense1 != 0) {
            /* one block each way (every model without a block list): plain row-major copies */
            for (int i = 0; i < nq; ++i) {
                if (F1 != NULL) {
                    for (int j = 0; j < nq; ++j) {
                        const int k = i * nq + j;
                        K[i * n + j] = M[k] - (c1 * F1[k] + c2 * F2[k]);
                    }
                } else {
                    for (int j = 0; j < nq; ++j) { K[i * n + j] = M[i * nq + j]; }
                }
                if (ls->sign < 0) {
                    for (int j = 0; j < nc; ++j) { K[i * n + nq + j] = -G1[j * nq + i]; }
                } else {
                    for (int j = 0; j < nc; ++j) { K[i * n + nq + j] = G1[j * nq + i]; }
                }
            }
            for (int i = 0; i < nc; ++i) {
                for (int j = 0; j < nq; ++j) { K[(nq + i) * n + j] = G2[i * nq + j]; }
                if (ls->reg != 0) {
                    for (int j = 0; j < nc; ++j) { K[(nq + i) * n + nq + j] = -C[i * nc + j]; }
                } else {
                    for (int j = 0; j < nc; ++j) { K[(nq + i) * n + nq + j] = HS_R(0.0); }
                }
            }
            return dense_finish(ls, K, F->piv);
        }
        /* zero then scatter the listed blocks */
        for (int i = 0; i < n * n; ++i) { K[i] = HS_R(0.0); }
        int o = 0;
        for (int k = 0; k < b->nqq; ++k) {
            const int I = b->qq[2 * k], J = b->qq[2 * k + 1];
            for (int i = b->qb[I]; i < b->qb[I + 1]; ++i) {
                for (int j = b->qb[J]; j < b->qb[J + 1]; ++j, ++o) { K[i * n + j] = A_ENTRY(o); }
            }
        }
        const hs_real *g1 = G1, *g2 = G2;
        for (int k = 0; k < b->ncq; ++k) {
            const int I = b->cq[2 * k], J = b->cq[2 * k + 1];
            for (int i = b->cb[I]; i < b->cb[I + 1]; ++i) {
                for (int j = b->qb[J]; j < b->qb[J + 1]; ++j) {
                    const hs_real v1 = *g1++;
                    K[j * n + nq + i] = ls->sign < 0 ? -v1 : v1;
                    K[(nq + i) * n + j] = *g2++;
                }
            }
        }
        if (ls->reg != 0) {
            const hs_real *c = C;
            for (int k = 0; k < b->ncb; ++k) {
                for (int i = b->cb[k]; i < b->cb[k + 1]; ++i) {
                    for (int j = b->cb[k]; j < b->cb[k + 1]; ++j) { K[(nq + i) * n + nq + j] = -*c++; }
                }
            }
        }
        return dense_finish(ls, K, F->piv);
    }
    if (ls->schur != 0) {
        return schur_factor(ls, F, M, c1, F1, c2, F2, G2, C);
    }
    /* sparse: values into the fixed order of the analysis; with s = -1 the multiplier column
     * is negated (unknown -x2) so the backend always sees [[A, G1^T], [G2, s C]] */
    if (ls->slots != 0) {
        /* straight into the factor's slots (the entries it reads, each once) */
        hs_real *V = F->x;
        const int *zl = ls->zlist, *a = ls->act;
        for (int k = 0; k < ls->nzero; ++k) { V[zl[k]] = HS_R(0.0); }
        if (F1 != NULL) {
            for (int k = 0; k < ls->nact[0]; ++k, a += 2) {
                const int i = a[0];
                V[a[1]] = M[i] - (c1 * F1[i] + c2 * F2[i]);
            }
        } else {
            for (int k = 0; k < ls->nact[0]; ++k, a += 2) { V[a[1]] = M[a[0]]; }
        }
        for (int k = 0; k < ls->nact[1]; ++k, a += 2) { V[a[1]] = G1[a[0]]; }
        for (int k = 0; k < ls->nact[2]; ++k, a += 2) { V[a[1]] = G2[a[0]]; }
        for (int k = 0; k < ls->nact[3]; ++k, a += 2) { V[a[1]] = (ls->sign < 0) ? C[a[0]] : -C[a[0]]; }
        return ls->be->factor_slots(ls->sym, V);
    }
    hs_real *Ax = F->Ax;
    const int *mapA = ls->mapA;
    if (F1 != NULL) {
        for (int k = 0; k < ls->nA; ++k) { Ax[mapA[k]] = M[k] - (c1 * F1[k] + c2 * F2[k]); }
    } else {
        for (int k = 0; k < ls->nA; ++k) { Ax[mapA[k]] = M[k]; }
    }
    const int *mapG1 = ls->mapG1, *mapG2 = ls->mapG2;
    for (int k = 0; k < ls->nG; ++k) { Ax[mapG1[k]] = G1[k]; Ax[mapG2[k]] = G2[k]; }
    if (ls->reg != 0) {
        for (int k = 0; k < ls->nC; ++k) { Ax[ls->mapC[k]] = ls->sign < 0 ? C[k] : -C[k]; }
    }
    return ls->be->factor(ls->sym, Ax, F->x);
}

/* The solve of hs_linsys_solve (zpos = 0) and hs_linsys_solve_c (zpos = 1: b's position part
 * is zero, which the sparse backend's solve_c uses); one body, inlined into both. */
static inline void ls_solve(const hs_linsys *ls, const hs_ls_fac *F, hs_real *b, int zpos)
{
    if (ls->kind == HS_LS_DENSE) {
        if (ls->ldlt != 0) {
            hs_ldlt_solve(F->x, ls->n, b);
            if (ls->sign < 0) {
                for (int i = ls->nq; i < ls->n; ++i) { b[i] = -b[i]; }
            }
            return;
        }
        hs_lu_solve(F->x, F->piv, ls->n, b);
        return;
    }
    if (ls->schur != 0) {
        schur_solve(ls, F, b, zpos, NULL);
        return;
    }
    if ((zpos != 0) && (ls->be->solve_c != NULL)) {
        ls->be->solve_c(ls->sym, F->x, b, F->work);
    } else {
        ls->be->solve(ls->sym, F->x, b, F->work);
    }
    if (ls->sign < 0) {
        for (int i = ls->nq; i < ls->n; ++i) { b[i] = -b[i]; }
    }
}

void hs_linsys_solve(const hs_linsys *ls, const hs_ls_fac *F, hs_real *b)
{
    ls_solve(ls, F, b, 0);
}

void hs_linsys_solve_c(const hs_linsys *ls, const hs_ls_fac *F, hs_real *b)
{
    ls_solve(ls, F, b, 1);
}

void hs_linsys_solve_c_sub(const hs_linsys *ls, const hs_ls_fac *F, hs_real *b, hs_real *x)
{
    if (ls->schur != 0) {
        schur_solve(ls, F, b, 1, x);
        return;
    }
    for (int k = 0; k < ls->nq; ++k) { b[k] = HS_R(0.0); }
    ls_solve(ls, F, b, 1);
    for (int k = 0; k < ls->nq; ++k) { x[k] -= b[k]; }
}
