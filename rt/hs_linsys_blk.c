/* hs_linsys_blk.c - products and indexes of packed block matrices (rt/hs_linsys.h, the
 * convention of rt/hs_model.h): the stepper's A x, G x, G^T l without forming a dense
 * matrix, a Jacobian's difference column, and where an entry lies in the packed storage; and
 * a system's G x (hs_linsys_g_mv: the block product, or the range-space path's row lists). */
#include "hs_linsys_int.h"
#include "hs_dense.h"

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
            for (int i = r0; i < r1; ++i) {
                hs_real s = y[i];
                s += A[0] * x0;
                s += A[1] * x1;
                s += A[2] * x2;
                y[i] = s;
                A = &A[3];
            }
            continue;
        }
        /* the block's rows one after the other: A walks the packed block once */
        for (int i = r0; i < r1; ++i) {
            hs_real s = y[i];
            for (int j = 0; j < w; ++j) { s += A[j] * xs[j]; }
            y[i] = s;
            A = &A[w];
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
        for (int i = r0; i < r1; ++i) {
            hs_real s = y[i];
            for (int j = 0; j < w; ++j) { s += G[j] * xs[j]; }
            y[i] = s;
            G = &G[w];
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
        for (int i = r0; i < r1; ++i) {
            const hs_real xi = x[i];
            for (int j = 0; j < w; ++j) { ys[j] += G[j] * xi; }
            G = &G[w];
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
            for (int i = r0; i < r1; ++i) {
                const hs_real li = l[i];
                hs_real s = yc[i];
                s += G[0] * x0;
                s += G[1] * x1;
                s += G[2] * x2;
                yc[i] = s;
                s0 += G[0] * li;
                s1 += G[1] * li;
                s2 += G[2] * li;
                G = &G[3];
            }
            ys[0] = s0;
            ys[1] = s1;
            ys[2] = s2;
            continue;
        }
        for (int i = r0; i < r1; ++i) {
            hs_real s = yc[i];
            const hs_real li = l[i];
            for (int j = 0; j < w; ++j) {
                s += G[j] * xs[j];
                ys[j] += G[j] * li;
            }
            yc[i] = s;
            G = &G[w];
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
