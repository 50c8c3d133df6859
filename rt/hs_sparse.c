/* hs_sparse.c - static-order sparse L D U / L D L^T: analysis once, fixed-pattern numerics. */
#include "hs_sparse.h"
#include "hs_inline.h"

#ifdef HS_SPARSE_TALLY
long hs_sparse_tally;
#endif

/* Layout of the analysis array `sym`: a header, then the arrays in this order
 *   perm (n)        new position -> original unknown
 *   Ap (n + 1)      upper part of the permuted K by column
 *   Ui (nnz_a)      its rows (new positions), ascending
 *   Uax (nnz_a)     index in Ax of each upper entry K(Ui[p], k)
 *   Lax (nnz_a)     index in Ax of its mirror K(k, Ui[p]) (absent when symmetric)
 *   Dax (n)         index in Ax of each diagonal entry
 *   Lp (n + 1), Li (nnz_l)   L by column, rows ascending (U^T has the same pattern)
 *   Lio (nnz_l)     original unknown of each row of L (the solve works on b in place)
 *   Ps (nnz)        slot in num of each entry of Ax (hs_sparse_slot), -1 when the factor does
 *                   not read it (a symmetric K's lower triangle)
 *   Lv (n + 1)      count, then the columns the forward solve visits when b is zero in the
 *                   position unknowns (a multiplier's, or one such a column updates)
 *   Pg (nprog)      the right-looking updates, column i by column, entry a (row r_a) by entry
 *                   of it: the slots in column r_a of L of the rows r_b (b > a) of column i,
 *                   as one head int h and what it says: h >= 0 one contiguous run from slot h;
 *                   h = -1 the m = c - 1 - a slots one by one; h = -1 - s (s >= 2) s runs
 *                   (start, length) in b's order. Each is at most the m + 1 ints of a
 *                   per-update slot list, so nprog <= npair = sum of c (c + 1) / 2 over columns.
 * and of one numeric factor `num`: Lx (nnz_l), Ux (nnz_l, absent when symmetric: U = L^T),
 * Dinv (n), x (n), y (n, absent when symmetric) - x and y are work vectors (a column's values
 * before scaling). */
#define H_MAGIC 0 /* header slots */
#define H_N 1
#define H_NNZ 2
#define H_SYM 3
#define H_NNZA 4
#define H_NNZL 5
#define H_NB 6
#define H_NP 7  /* ints of the program Pg */
#define H_OFF 8 /* O_COUNT slots: the arrays' offsets, so a per-step view costs no arithmetic */
#define H_LEN 20
#define SP_MAGIC 0x53504c55 /* "SPLU" */

typedef struct sp_view {
    int n, nnz, sym, nnz_a, nnz_l, nprog;
    const int *perm, *Ap, *Ui, *Uax, *Lax, *Dax, *Lp, *Li, *Lio, *Ps, *Pg, *Lv;
} sp_view;

/* Offsets in `sym` of the arrays, in the order of the layout above. */
#define O_PERM 0
#define O_AP 1
#define O_UI 2
#define O_UAX 3
#define O_LAX 4
#define O_DAX 5
#define O_LP 6
#define O_LI 7
#define O_LIO 8
#define O_PS 9
#define O_LV 10
#define O_PG 11
#define O_COUNT 12

static void offsets(int n, int nnz, int sym, int nnz_a, int nnz_l, int *o)
{
    o[O_PERM] = H_LEN;
    o[O_AP] = o[O_PERM] + n;
    o[O_UI] = o[O_AP] + n + 1;
    o[O_UAX] = o[O_UI] + nnz_a;
    o[O_LAX] = sym ? o[O_UAX] : o[O_UAX] + nnz_a;
    o[O_DAX] = o[O_LAX] + nnz_a;
    o[O_LP] = o[O_DAX] + n;
    o[O_LI] = o[O_LP] + n + 1;
    o[O_LIO] = o[O_LI] + nnz_l;
    o[O_PS] = o[O_LIO] + nnz_l;
    o[O_LV] = o[O_PS] + nnz;
    o[O_PG] = o[O_LV] + n + 1;
}

static size_t sym_ints(int n, int nnz, int sym, int nnz_a, int nnz_l, int nprog)
{
    /* header, perm, Ap, Ui, Uax, Lax, Dax, Lp, Li, Lio, Ps, Lv, Pg */
    /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
    return (size_t)H_LEN + 2u * (size_t)n + 3u * (size_t)(n + 1) + (size_t)(sym ? 2 : 3) * (size_t)nnz_a
           + 2u * (size_t)nnz_l + (size_t)nnz + (size_t)nprog;
}

/* Reals of one numeric factor: L (and U), the pivots and the column work vectors. */
static size_t num_reals(int n, int sym, int nnz_l)
{
    /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
    return (size_t)(sym ? 1 : 2) * (size_t)nnz_l + (size_t)(sym ? 2 : 3) * (size_t)n;
}

static void view_of(const int *s, sp_view *v)
{
    v->n = s[H_N]; v->nnz = s[H_NNZ]; v->sym = s[H_SYM]; v->nnz_a = s[H_NNZA]; v->nnz_l = s[H_NNZL];
    v->nprog = s[H_NP];
    const int *o = s + H_OFF;
    v->perm = s + o[O_PERM]; v->Ap = s + o[O_AP]; v->Ui = s + o[O_UI]; v->Uax = s + o[O_UAX];
    v->Lax = s + o[O_LAX]; v->Dax = s + o[O_DAX]; v->Lp = s + o[O_LP]; v->Li = s + o[O_LI];
    v->Lio = s + o[O_LIO]; v->Ps = s + o[O_PS]; v->Lv = s + o[O_LV]; v->Pg = s + o[O_PG];
}

/* ---------------------------------------------------------------- analysis helpers */

/* Bitset rows are ints (the arena's type) read and written as unsigned words. */
static int bit_get(const int *row, int j)
{
    const unsigned u = (unsigned)j;
    /* MISRA Ref 10.8.2 [bit-set word between int storage and unsigned ops] */
    return (int)(((unsigned)row[u >> 5u] >> (u & 31u)) & 1u);
}

static void bit_set(int *row, int j)
{
    const unsigned u = (unsigned)j;
    /* MISRA Ref 10.8.2 [bit-set word between int storage and unsigned ops] */
    row[u >> 5u] = (int)((unsigned)row[u >> 5u] | (1u << (u & 31u)));
}

static void bit_clear(int *row, int j)
{
    const unsigned u = (unsigned)j;
    /* MISRA Ref 10.8.2 [bit-set word between int storage and unsigned ops] */
    row[u >> 5u] = (int)((unsigned)row[u >> 5u] & ~(1u << (u & 31u)));
}

/* Weighted degree: the scalar unknowns block v is coupled to in the elimination graph. */
static int blk_degree(const int *row, const int *bw, int nb)
{
    int d = 0;
    for (int j = 0; j < nb; ++j) {
        if (bit_get(row, j) != 0) { d += bw[j]; }
    }
    return d;
}

int hs_csc_find(const int *Ap, const int *Ai, int i, int j)
{
    int lo = Ap[j], hi = Ap[j + 1] - 1;
    while (lo <= hi) {
        const int mid = lo + (hi - lo) / 2;
        if (Ai[mid] == i) { return mid; }
        if (Ai[mid] < i) { lo = mid + 1; } else { hi = mid - 1; }
    }
    return -1;
}

size_t hs_sparse_tmp_ints(int n, int nnz)
{
    if (n < 1 || nnz < 0) { return 0; }
    /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
    return (size_t)n * (size_t)((n + 31) / 32) + 18u * (size_t)n + 3u * (size_t)nnz + 16u;
}

/* ---------------------------------------------------------------- analysis */

/* The analysis' input pattern (Ap, Ai: n columns, nnz entries, kind per unknown) and its
 * scratch (hs_sparse_tmp_ints), shared by the passes of hs_sparse_analyze. */
typedef struct sa_work {
    int n, nnz;
    const int *Ap, *Ai, *kind;
    int nb, W;          /* blocks, words of a block bitset row */
    int *blk;           /* (n) block of each unknown */
    int *bw;            /* (n) size of each block */
    int *bk;            /* (n) kind of each block */
    int *bfirst;        /* (n) first unknown of each block */
    int *deg;           /* (n) weighted degree */
    int *done;          /* (n) eliminated */
    int *order;         /* (n) block elimination order */
    int *start;         /* (n) first new position of each block */
    int *row;           /* (n >= W) neighbours of the block being eliminated */
    int *iperm;         /* (n) original unknown -> new position */
    int *perm;          /* (n) new position -> original unknown */
    int *parent;        /* (n) elimination tree */
    int *cnt;           /* (n) entries per column of L */
    int *mark;          /* (n) marks */
    int *nxt;           /* (n) fill pointers (in the order: each block's count of its leaf group's blocks) */
    int *UAp;           /* (n + 1) upper part of the permuted K by column */
    int *UUi;           /* (nnz) rows */
    int *UUx;           /* (nnz) index in Ax */
    int *adj;           /* (nb W) block graph bitset; nb <= n */
} sa_work;

/* The pattern as the contract states it: rows ascending and in range, diagonal present. */
static int sa_check(int n, const int *Ap, const int *Ai)
{
    for (int j = 0; j < n; ++j) {
        if (Ap[j + 1] < Ap[j] || hs_csc_find(Ap, Ai, j, j) < 0) { return HS_E_SIZE; }
        for (int p = Ap[j]; p < Ap[j + 1]; ++p) {
            if (Ai[p] < 0 || Ai[p] >= n || (p > Ap[j] && Ai[p] <= Ai[p - 1])) { return HS_E_SIZE; }
        }
    }
    return HS_OK;
}

/* w for the pattern (n, Ap, Ai, kind), its scratch laid out in tmp (hs_sparse_tmp_ints). */
static void sa_init(sa_work *w, int n, const int *Ap, const int *Ai, const int *kind, int *tmp)
{
    w->n = n;
    w->nnz = Ap[n];
    w->Ap = Ap;
    w->Ai = Ai;
    w->kind = kind;
    w->nb = 0;
    w->W = 0;
    w->blk = tmp;
    w->bw = w->blk + n;
    w->bk = w->bw + n;
    w->bfirst = w->bk + n;
    w->deg = w->bfirst + n;
    w->done = w->deg + n;
    w->order = w->done + n;
    w->start = w->order + n;
    w->row = w->start + n;
    w->iperm = w->row + n;
    w->perm = w->iperm + n;
    w->parent = w->perm + n;
    w->cnt = w->parent + n;
    w->mark = w->cnt + n;
    w->nxt = w->mark + n;
    w->UAp = w->nxt + n;
    w->UUi = w->UAp + n + 1;
    w->UUx = w->UUi + w->nnz;
    w->adj = w->UUx + w->nnz;
}

/* 1. blocks: runs of consecutive unknowns of one kind with identical columns (the diagonal is
 * present, so identical columns mean identical closed neighbourhoods); sets nb and W. */
static void sa_blocks(sa_work *w)
{
    const int n = w->n;
    const int *Ap = w->Ap, *Ai = w->Ai, *kind = w->kind;
    int *blk = w->blk, *bw = w->bw, *bk = w->bk, *bfirst = w->bfirst;
    int nb = 0;
    for (int j = 0; j < n; ++j) {
        int same = (int)(j > 0 && kind[j] == kind[j - 1] && Ap[j + 1] - Ap[j] == Ap[j] - Ap[j - 1]);
        for (int p = 0; same != 0 && p < Ap[j + 1] - Ap[j]; ++p) { same = (int)(Ai[Ap[j] + p] == Ai[Ap[j - 1] + p]); }
        if (same == 0) {
            bfirst[nb] = j; bw[nb] = 0; bk[nb] = 0;
            if (kind[j] > 0) { bk[nb] = 1; }
            ++nb;
        }
        blk[j] = nb - 1;
        bw[nb - 1]++;
    }
    w->nb = nb;
    w->W = (nb + 31) / 32;
}

/* Whether multiplier block c waits for position block v: every one it touches, or for a leaf
 * group's rows (kind 2 + g, rt/hs_linsys.h) the group's (kind -(g + 1)) alone when it touches any. */
static int sa_waits(const sa_work *sw, const int *lg, int c, int v)
{
    const int kc = sw->kind[sw->bfirst[c]];
    return (kc < 2 || lg[c] == 0) ? 1 : ((sw->kind[sw->bfirst[v]] == -(kc - 1)) ? 1 : 0);
}

/* The position blocks of the original pattern each multiplier block waits for (sa_waits), into
 * qleft (nb; 0 for a position block); lg (nb) the count of its leaf group's blocks it touches
 * (0: no group, or none of its group's: then every one); mark (nb) is scratch. */
static void sa_qleft(const sa_work *sw, int *qleft, int *lg, int *mark)
{
    const int *Ap = sw->Ap, *Ai = sw->Ai, *blk = sw->blk, *bk = sw->bk, *bw = sw->bw, *bfirst = sw->bfirst;
    const int *kind = sw->kind;
    for (int v = 0; v < sw->nb; ++v) { qleft[v] = 0; lg[v] = 0; mark[v] = -1; }
    for (int v = 0; v < sw->nb; ++v) {
        if (bk[v] != 0) { continue; }
        for (int j = bfirst[v]; j < bfirst[v] + bw[v]; ++j) {
            for (int p = Ap[j]; p < Ap[j + 1]; ++p) {
                const int c = blk[Ai[p]];
                if (bk[c] != 0 && mark[c] != v) {
                    mark[c] = v;
                    const int kc = kind[bfirst[c]];
                    lg[c] += (kc >= 2 && kind[j] == -(kc - 1)) ? 1 : 0;
                }
            }
        }
    }
    for (int v = 0; v < sw->nb; ++v) { mark[v] = -1; }
    for (int v = 0; v < sw->nb; ++v) {
        if (bk[v] != 0) { continue; }
        for (int j = bfirst[v]; j < bfirst[v] + bw[v]; ++j) {
            for (int p = Ap[j]; p < Ap[j + 1]; ++p) {
                const int c = blk[Ai[p]];
                if (bk[c] != 0 && mark[c] != v && sa_waits(sw, lg, c, v) != 0) { mark[c] = v; qleft[c]++; }
            }
        }
    }
}

/* Position block v is eliminated: each multiplier block waiting for it in the original pattern
 * has one position block fewer left (mark: nb scratch, stamped v + nb). */
static void sa_qdone(const sa_work *sw, int v, int *qleft, const int *lg, int *mark)
{
    const int *Ap = sw->Ap, *Ai = sw->Ai, *blk = sw->blk, *bk = sw->bk;
    for (int j = sw->bfirst[v]; j < sw->bfirst[v] + sw->bw[v]; ++j) {
        for (int p = Ap[j]; p < Ap[j + 1]; ++p) {
            const int c = blk[Ai[p]];
            if (bk[c] != 0 && mark[c] != v + sw->nb && sa_waits(sw, lg, c, v) != 0) { mark[c] = v + sw->nb; qleft[c]--; }
        }
    }
}

/* 2. block graph and minimum degree into order; a multiplier block waits until every position
 * block of its own rows and columns (the original pattern's, not the fill's) is eliminated:
 * the unknowns eliminated before it are then positions first of a subsystem [[A_SS, G_S^T],
 * [G_S, 0]] holding all of its rows (a body's norm row right after the body, not after every
 * body the fill reaches). A leaf group's rows (kind 2 + g) wait for the group's positions only:
 * a wheel's suspension rows then follow the wheel, not the chassis, and the chassis' columns
 * meet none of them (the leaf's rows have full rank on its own positions: rt/hs_linsys.h). Ties
 * go to the lowest block: the order is reproducible. */
static void sa_order(const sa_work *sw)
{
    const int n = sw->n, nb = sw->nb, W = sw->W;
    const int *Ap = sw->Ap, *Ai = sw->Ai, *blk = sw->blk, *bw = sw->bw, *bk = sw->bk;
    int *adj = sw->adj, *deg = sw->deg, *done = sw->done, *order = sw->order, *row = sw->row;
    /* cnt and mark serve the order only here (the elimination tree sets them again) */
    int *qleft = sw->cnt, *qmark = sw->mark, *lg = sw->nxt;
    for (int i = 0; i < nb * W; ++i) { adj[i] = 0; }
    for (int j = 0; j < n; ++j) {
        for (int p = Ap[j]; p < Ap[j + 1]; ++p) {
            if (blk[Ai[p]] != blk[j]) {
                bit_set(adj + blk[j] * W, blk[Ai[p]]);
                bit_set(adj + blk[Ai[p]] * W, blk[j]);
            }
        }
    }
    sa_qleft(sw, qleft, lg, qmark);
    for (int v = 0; v < nb; ++v) { deg[v] = blk_degree(adj + v * W, bw, nb); done[v] = 0; }
    for (int s = 0; s < nb; ++s) {
        int best = -1;
        for (int v = 0; v < nb; ++v) {
            if (done[v] != 0 || (bk[v] != 0 && qleft[v] > 0)) { continue; }
            if (best < 0 || deg[v] < deg[best]) { best = v; }
        }
        order[s] = best;
        done[best] = 1;
        if (bk[best] == 0) { sa_qdone(sw, best, qleft, lg, qmark); }
        for (int w = 0; w < W; ++w) { row[w] = adj[best * W + w]; }
        for (int a = 0; a < nb; ++a) {
            if (bit_get(row, a) == 0) { continue; }
            int *ra = adj + a * W;
            /* MISRA Ref 10.8.2 [bit-set word between int storage and unsigned ops] */
            for (int w = 0; w < W; ++w) { ra[w] = (int)((unsigned)ra[w] | (unsigned)row[w]); }
            bit_clear(ra, a);
            bit_clear(ra, best);
            deg[a] = blk_degree(ra, bw, nb);
        }
    }
}

/* 3. permutation: blocks in elimination order, unknowns in their original order. */
static void sa_permute(const sa_work *w)
{
    const int nb = w->nb;
    const int *order = w->order, *bw = w->bw, *bfirst = w->bfirst;
    int *start = w->start, *perm = w->perm, *iperm = w->iperm;
    int k = 0;
    for (int s = 0; s < nb; ++s) {
        const int v = order[s];
        start[v] = k;
        for (int t = 0; t < bw[v]; ++t) { perm[k] = bfirst[v] + t; iperm[bfirst[v] + t] = k; ++k; }
    }
}

/* 4. upper part of the permuted K, rows ascending per column, with the index in Ax; returns
 * its entries. */
static int sa_upper(const sa_work *w)
{
    const int n = w->n;
    const int *Ap = w->Ap, *Ai = w->Ai, *iperm = w->iperm;
    int *UAp = w->UAp, *UUi = w->UUi, *UUx = w->UUx, *nxt = w->nxt;
    for (int k = 0; k <= n; ++k) { UAp[k] = 0; }
    for (int j = 0; j < n; ++j) {
        for (int p = Ap[j]; p < Ap[j + 1]; ++p) {
            if (iperm[Ai[p]] < iperm[j]) { UAp[iperm[j] + 1]++; }
        }
    }
    for (int k = 0; k < n; ++k) { UAp[k + 1] += UAp[k]; nxt[k] = UAp[k]; }
    const int nnz_a = UAp[n];
    for (int j = 0; j < n; ++j) {
        for (int p = Ap[j]; p < Ap[j + 1]; ++p) {
            if (iperm[Ai[p]] < iperm[j]) {
                const int q = nxt[iperm[j]]++;
                UUi[q] = iperm[Ai[p]];
                UUx[q] = p;
            }
        }
    }
    for (int k = 0; k < n; ++k) {
        for (int p = UAp[k] + 1; p < UAp[k + 1]; ++p) {
            const int r = UUi[p], x = UUx[p];
            int q = p - 1;
            while (q >= UAp[k] && UUi[q] > r) { UUi[q + 1] = UUi[q]; UUx[q + 1] = UUx[q]; --q; }
            UUi[q + 1] = r;
            UUx[q + 1] = x;
        }
    }
    return nnz_a;
}

/* 5. elimination tree and column counts of L (QDLDL's etree). */
static void sa_etree(const sa_work *w)
{
    const int n = w->n;
    const int *UAp = w->UAp, *UUi = w->UUi;
    int *parent = w->parent, *cnt = w->cnt, *mark = w->mark;
    for (int i = 0; i < n; ++i) { parent[i] = -1; cnt[i] = 0; mark[i] = -1; }
    for (int k = 0; k < n; ++k) {
        mark[k] = k;
        for (int p = UAp[k]; p < UAp[k + 1]; ++p) {
            int i = UUi[p];
            while (mark[i] != k) {
                if (parent[i] == -1) { parent[i] = k; }
                cnt[i]++;
                mark[i] = k;
                i = parent[i];
            }
        }
    }
}

/* 6. the permutation, the diagonal's and the upper part's places in Ax, and for L D U the
 * mirror entries, into sym (offsets o). */
static int sa_write_upper(const sa_work *w, int sy, int *sym, const int *o)
{
    const int n = w->n;
    const int *Ap = w->Ap, *Ai = w->Ai, *perm = w->perm, *UAp = w->UAp, *UUi = w->UUi, *UUx = w->UUx;
    int *sperm = sym + o[O_PERM], *sAp = sym + o[O_AP], *sUi = sym + o[O_UI], *sUax = sym + o[O_UAX];
    int *sLax = sym + o[O_LAX], *sDax = sym + o[O_DAX];
    for (int k = 0; k < n; ++k) {
        sperm[k] = perm[k];
        sDax[k] = hs_csc_find(Ap, Ai, perm[k], perm[k]);
    }
    for (int k = 0; k <= n; ++k) { sAp[k] = UAp[k]; }
    for (int k = 0; k < n; ++k) {
        for (int p = UAp[k]; p < UAp[k + 1]; ++p) {
            sUi[p] = UUi[p];
            sUax[p] = UUx[p];
            /* mirror K(k, i) of K(i, k): present because the pattern is structurally symmetric */
            if (sy == 0) {
                const int m = hs_csc_find(Ap, Ai, perm[k], perm[UUi[p]]);
                if (m < 0) { return HS_E_SIZE; }
                sLax[p] = m;
            }
        }
    }
    return HS_OK;
}

/* 7. L by column (rows appended in increasing k, so ascending), L's rows in the original
 * order, and the columns a right-hand side zero in the positions reaches. */
static void sa_write_l(const sa_work *w, int *sym, const int *o)
{
    const int n = w->n;
    const int *kind = w->kind, *perm = w->perm, *UAp = w->UAp, *UUi = w->UUi, *cnt = w->cnt, *parent = w->parent;
    int *nxt = w->nxt, *mark = w->mark;
    int *sLp = sym + o[O_LP], *sLi = sym + o[O_LI];
    sLp[0] = 0;
    for (int i = 0; i < n; ++i) { sLp[i + 1] = sLp[i] + cnt[i]; nxt[i] = sLp[i]; mark[i] = -1; }
    for (int k = 0; k < n; ++k) {
        mark[k] = k;
        for (int p = UAp[k]; p < UAp[k + 1]; ++p) {
            int i = UUi[p];
            while (mark[i] != k) {
                mark[i] = k;
                sLi[nxt[i]++] = k;
                i = parent[i];
            }
        }
    }
    int *sLio = sym + o[O_LIO];
    for (int q = 0; q < sLp[n]; ++q) { sLio[q] = perm[sLi[q]]; }
    {
        /* the columns a right-hand side zero in the positions reaches: the others only
         * subtract products with a zero */
        int *sLv = sym + o[O_LV], nv = 0;
        /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
        for (int i = 0; i < n; ++i) { mark[i] = (kind[perm[i]] > 0) ? 1 : 0; }
        for (int i = 0; i < n; ++i) {
            if (mark[i] != 0) {
                sLv[1 + nv++] = i;
                for (int q = sLp[i]; q < sLp[i + 1]; ++q) { mark[sLi[q]] = 1; }
            }
        }
        sLv[0] = nv;
    }
}

/* 8. the slot in num of every entry of Ax: the upper entry K(i, r) of L's entry (r, i) in L's
 * entries (symmetric) or U's (unsymmetric), the lower K(r, i) in L's (unsymmetric; -1
 * symmetric), the diagonal after them. Every entry of the pattern is one of these (L holds the
 * lower pattern of K). */
static int sa_write_slots(const sa_work *w, int sy, int nnz_l, int *sym, const int *o)
{
    const int n = w->n;
    const int *Ap = w->Ap, *Ai = w->Ai, *perm = w->perm;
    const int *sLp = sym + o[O_LP], *sLi = sym + o[O_LI], *sDax = sym + o[O_DAX];
    int *sPs = sym + o[O_PS];
    for (int p = 0; p < w->nnz; ++p) { sPs[p] = -1; }
    const int dbase = (sy != 0) ? nnz_l : 2 * nnz_l;
    for (int k = 0; k < n; ++k) { sPs[sDax[k]] = dbase + k; }
    for (int i = 0; i < n; ++i) {
        for (int q = sLp[i]; q < sLp[i + 1]; ++q) {
            const int pu = hs_csc_find(Ap, Ai, perm[i], perm[sLi[q]]);
            const int pl = hs_csc_find(Ap, Ai, perm[sLi[q]], perm[i]);
            /* fill: neither is in the pattern (structurally symmetric: both or none) */
            if ((pu >= 0) != (pl >= 0)) { return HS_E_SIZE; }
            if (pu >= 0) {
                sPs[pu] = (sy != 0) ? q : nnz_l + q;
                if (sy == 0) { sPs[pl] = q; }
            }
        }
    }
    return HS_OK;
}

/* The runs of the slots t (m) of one entry's updates: their count; with out != NULL also the
 * (start, length) of each, in order. */
static int prog_runs(const int *t, int m, int *out)
{
    int ns = 0;
    for (int b = 0; b < m; ++b) {
        if (b == 0 || t[b] != t[b - 1] + 1) {
            if (out != NULL) { out[2 * ns] = t[b]; out[2 * ns + 1] = 0; }
            ++ns;
        }
        if (out != NULL) { out[2 * ns - 1]++; }
    }
    return ns;
}

/* 9. the right-looking program (layout above): for column i and entry a, the slots in column
 * r_a of the rows r_b, b > a (present: the fill of eliminating i), as runs where they are
 * contiguous. t (n) is scratch. The ints written; -1 when a slot is missing or more than
 * npair ints would be written (neither can happen for an elimination-tree pattern). */
static int sa_write_program(const sa_work *w, int npair, int *sym, const int *o, int *t)
{
    const int n = w->n;
    const int *sLp = sym + o[O_LP], *sLi = sym + o[O_LI];
    int *pg = sym + o[O_PG];
    int u = 0;
    for (int i = 0; i < n; ++i) {
        const int q0 = sLp[i], c = sLp[i + 1] - q0;
        for (int a = 0; a < c; ++a) {
            const int j = sLi[q0 + a], m = c - 1 - a;
            for (int b = 0; b < m; ++b) {
                t[b] = hs_csc_find(sLp, sLi, sLi[q0 + a + 1 + b], j);
                if (t[b] < 0) { return -1; }
            }
            const int ns = prog_runs(t, m, NULL);
            const int need = (ns <= 1) ? 1 : ((2 * ns + 1 <= m + 1) ? 2 * ns + 1 : m + 1);
            if (u + need > npair) { return -1; }
            if (ns <= 1) {
                pg[u] = (m > 0) ? t[0] : 0;
            } else if (2 * ns + 1 <= m + 1) {
                pg[u] = -1 - ns;
                (void)prog_runs(t, m, pg + u + 1);
            } else {
                pg[u] = -1;
                for (int b = 0; b < m; ++b) { pg[u + 1 + b] = t[b]; }
            }
            u += need;
        }
    }
    return u;
}

hs_status hs_sparse_analyze(int n, const int *Ap, const int *Ai, const int *kind, int symmetric,
                      int *tmp, size_t ntmp, int *sym, size_t nsym, size_t *nsym_need,
                      size_t *nnum_need)
{
    if (Ap == NULL || Ai == NULL || kind == NULL || tmp == NULL || nsym_need == NULL || nnum_need == NULL) { return HS_E_NULL; }
    if (n < 1) { return HS_E_SIZE; }
    const int nnz = Ap[n];
    if (Ap[0] != 0 || nnz < n || ntmp < hs_sparse_tmp_ints(n, nnz)) { return HS_E_SIZE; }
    int rc = sa_check(n, Ap, Ai);
    if (rc != 0) { return rc; }
    const int sy = symmetric ? 1 : 0;
    sa_work w;
    sa_init(&w, n, Ap, Ai, kind, tmp);
    sa_blocks(&w);
    sa_order(&w);
    sa_permute(&w);
    const int nnz_a = sa_upper(&w);
    sa_etree(&w);
    long nl = 0;
    for (int i = 0; i < n; ++i) { nl += w.cnt[i]; }
    if (nl > 0x3fffffffL) { return HS_E_SIZE; }
    const int nnz_l = (int)nl;
    long np = 0;
    for (int i = 0; i < n; ++i) { np += (long)w.cnt[i] * (long)(w.cnt[i] + 1) / 2; }
    if (np > 0x3fffffffL) { return HS_E_SIZE; }
    const int npair = (int)np;

    /* sizes; a query stops here. The program's exact length needs L's pattern, so the query
     * answers its bound npair and the analysis the exact need (never more) */
    *nsym_need = sym_ints(n, nnz, sy, nnz_a, nnz_l, npair);
    *nnum_need = num_reals(n, sy, nnz_l);
    if (sym == NULL) { return HS_OK; }
    if (nsym < *nsym_need) { return HS_E_SIZE; }
    sym[H_MAGIC] = SP_MAGIC; sym[H_N] = n; sym[H_NNZ] = nnz; sym[H_SYM] = sy;
    sym[H_NNZA] = nnz_a; sym[H_NNZL] = nnz_l; sym[H_NB] = w.nb; sym[H_NP] = npair;
    offsets(n, nnz, sy, nnz_a, nnz_l, sym + H_OFF);
    int o[O_COUNT];
    offsets(n, nnz, sy, nnz_a, nnz_l, o);
    rc = sa_write_upper(&w, sy, sym, o);
    if (rc != 0) { return rc; }
    sa_write_l(&w, sym, o);
    rc = sa_write_slots(&w, sy, nnz_l, sym, o);
    if (rc != 0) { return rc; }
    /* the analysis' scratch is free now but for the pattern: its first n ints hold a column */
    const int nprog = sa_write_program(&w, npair, sym, o, tmp);
    if (nprog < 0) { return HS_E_SIZE; }
    sym[H_NP] = nprog;
    *nsym_need = sym_ints(n, nnz, sy, nnz_a, nnz_l, nprog);
    return HS_OK;
}

/* The largest |v_i| of v (m); a NaN is never taken. Four running maxima: a quarter of the
 * loop overhead on these short arrays (the maximum does not depend on the order). */
static hs_real amax_of(const hs_real *v, int m)
{
    hs_real m0 = HS_R(0.0), m1 = HS_R(0.0), m2 = HS_R(0.0), m3 = HS_R(0.0);
    int i4 = 0;
    for (; i4 + 4 <= m; i4 += 4) {
        const hs_real a0 = hs_abs(v[i4]), a1 = hs_abs(v[i4 + 1]);
        const hs_real a2 = hs_abs(v[i4 + 2]), a3 = hs_abs(v[i4 + 3]);
        m0 = (a0 > m0) ? a0 : m0;
        m1 = (a1 > m1) ? a1 : m1;
        m2 = (a2 > m2) ? a2 : m2;
        m3 = (a3 > m3) ? a3 : m3;
    }
    for (; i4 < m; ++i4) {
        const hs_real a = hs_abs(v[i4]);
        m0 = (a > m0) ? a : m0;
    }
    m0 = (m1 > m0) ? m1 : m0;
    m2 = (m3 > m2) ? m3 : m2;
    return (m2 > m0) ? m2 : m0;
}

int hs_sparse_slot(const int *sym, int p)
{
    sp_view v;
    view_of(sym, &v);
    if (p == -1) { return ((v.sym != 0) ? 1 : 2) * v.nnz_l + v.n; }
    if (p < 0 || p >= v.nnz) { return -1; }
    return v.Ps[p];
}

/* The pivot d checked and inverted: a failed one (not above tiny, or not finite) becomes 1 so
 * the remaining work stays finite and fixed, and clears *ok. */
static hs_real pivot_inv(hs_real d, hs_real tiny, int *ok)
{
    const int good = (hs_abs(d) > tiny) & hs_isfinite(d);
    *ok &= good;
    return HS_R(1.0) / ((good != 0) ? d : HS_R(1.0));
}

/* x[b] -= l w[b] for b < m: a contiguous run of updates, four at a time (each entry's one
 * product and subtraction as in the loop: the same bits). */
HS_INLINE void run1(hs_real *x, hs_real l, const hs_real *w, int m)
{
    int b = 0;
    for (; (b + 4) <= m; b += 4) {
        const hs_real p0 = l * w[b], p1 = l * w[b + 1], p2 = l * w[b + 2], p3 = l * w[b + 3];
        x[b] -= p0;
        x[b + 1] -= p1;
        x[b + 2] -= p2;
        x[b + 3] -= p3;
    }
    for (; b < m; ++b) { x[b] -= l * w[b]; }
}

/* run1 on both factors of L D U: y[b] -= lu wu[b], x[b] -= ll wl[b]. */
HS_INLINE void run2(hs_real *x, hs_real *y, hs_real ll, hs_real lu, const hs_real *wl, const hs_real *wu, int m)
{
    int b = 0;
    for (; (b + 2) <= m; b += 2) {
        const hs_real u0 = lu * wu[b], u1 = lu * wu[b + 1];
        const hs_real l0 = ll * wl[b], l1 = ll * wl[b + 1];
        y[b] -= u0;
        y[b + 1] -= u1;
        x[b] -= l0;
        x[b + 1] -= l1;
    }
    for (; b < m; ++b) {
        y[b] -= lu * wu[b];
        x[b] -= ll * wl[b];
    }
}

/* Lx[t_b] -= l w[b] for the m updates of one entry, through its program at pg (layout above);
 * returns the program past it. */
HS_INLINE const int *upd1(const int *pg, hs_real *Lx, hs_real l, const hs_real *w, int m)
{
    const int h = pg[0];
    if (h >= 0) {
        run1(Lx + h, l, w, m);
        return pg + 1;
    }
    if (h == -1) {
        for (int b = 0; b < m; ++b) { Lx[pg[1 + b]] -= l * w[b]; }
        return pg + 1 + m;
    }
    const int ns = -1 - h;
    const int *r = pg + 1;
    const hs_real *ws = w;
    for (int k = 0; k < ns; ++k, r += 2) {
        run1(Lx + r[0], l, ws, r[1]);
        ws += r[1];
    }
    return pg + 1 + 2 * ns;
}

/* upd1 for both factors of L D U: Ux[t_b] -= lu wu[b] and Lx[t_b] -= ll wl[b]. */
HS_INLINE const int *upd2(const int *pg, hs_real *Lx, hs_real *Ux, hs_real ll, hs_real lu, const hs_real *wl,
                       const hs_real *wu, int m)
{
    const int h = pg[0];
    if (h >= 0) {
        run2(Lx + h, Ux + h, ll, lu, wl, wu, m);
        return pg + 1;
    }
    if (h == -1) {
        for (int b = 0; b < m; ++b) {
            const int t = pg[1 + b];
            Ux[t] -= lu * wu[b];
            Lx[t] -= ll * wl[b];
        }
        return pg + 1 + m;
    }
    const int ns = -1 - h;
    const int *r = pg + 1;
    int o = 0;
    for (int k = 0; k < ns; ++k, r += 2) {
        run2(Lx + r[0], Ux + r[0], ll, lu, wl + o, wu + o, r[1]);
        o += r[1];
    }
    return pg + 1 + 2 * ns;
}

/* The symmetric factor's elimination on values already in place (L's entries in Lx, the
 * diagonal in Dinv), right-looking: column i's values kept in w, the column scaled by its
 * pivot, then its outer product subtracted from the columns to its right through the program.
 * Every entry gets the products of the up-looking order (L_ri t_ki with t_ki = D_i L_ki, in
 * ascending i, one per column), so the bits are those of an up-looking factor. */
static int sym_eliminate(const sp_view *v, hs_real *num, hs_real tiny, int ok_in)
{
    const int n = v->n;
    const int *Lp = v->Lp, *Li = v->Li, *pg = v->Pg;
    hs_real *Lx = num, *Dinv = num + v->nnz_l, *w = Dinv + n;
    int ok = ok_in;
    for (int i = 0; i < n; ++i) {
        const hs_real di = pivot_inv(Dinv[i], tiny, &ok);
        Dinv[i] = di;
        const int q0 = Lp[i], c = Lp[i + 1] - q0;
        hs_real *L = Lx + q0;
        for (int a = 0; a < c; ++a) {
            w[a] = L[a]; /* (D L^T)_{i,row}: every column j < i applied */
            L[a] = w[a] * di;
        }
        for (int a = 0; a < c; ++a) {
            const hs_real l = L[a];
            /* the diagonal of row a lives in Dinv until its column comes */
            Dinv[Li[q0 + a]] -= l * w[a];
            pg = upd1(pg, Lx, l, w + a + 1, c - 1 - a);
#ifdef HS_SPARSE_TALLY
            hs_sparse_tally += (long)c - 1L - (long)a;
#endif
        }
    }
    return (ok != 0) ? HS_OK : HS_E_SINGULAR;
}

/* The L D U elimination on values in place (K's strictly lower entries in Lx, the upper ones
 * in Ux at the same slots, the diagonal in Dinv), as sym_eliminate: column i's unscaled lower
 * and upper values in wl, wu, then L_ri = wl_r / D_i, U_ir = wu_r / D_i and, for each pair of
 * rows a < b of the column, U(r_a, r_b) -= L(r_a, i) wu_b, L(r_b, r_a) -= U(i, r_a) wl_b, and
 * D_r -= L(r, i) wu_r: the products of the up-looking L D U in ascending i, the same bits. */
static int ldu_eliminate(const sp_view *v, hs_real *num, hs_real tiny, int ok_in)
{
    const int n = v->n;
    const int *Lp = v->Lp, *Li = v->Li, *pg = v->Pg;
    hs_real *Lx = num, *Ux = num + v->nnz_l, *Dinv = Ux + v->nnz_l, *wl = Dinv + n, *wu = wl + n;
    int ok = ok_in;
    for (int i = 0; i < n; ++i) {
        const hs_real di = pivot_inv(Dinv[i], tiny, &ok);
        Dinv[i] = di;
        const int q0 = Lp[i], c = Lp[i + 1] - q0;
        hs_real *L = Lx + q0, *U = Ux + q0;
        for (int a = 0; a < c; ++a) {
            wl[a] = L[a]; /* (L D)_{row,i} */
            wu[a] = U[a]; /* (D U)_{i,row} */
            L[a] = wl[a] * di;
            U[a] = wu[a] * di;
        }
        for (int a = 0; a < c; ++a) {
            const hs_real l = L[a];
            Dinv[Li[q0 + a]] -= l * wu[a];
            pg = upd2(pg, Lx, Ux, U[a], l, wl + a + 1, wu + a + 1, c - 1 - a);
#ifdef HS_SPARSE_TALLY
            hs_sparse_tally += (long)c - 1L - (long)a;
#endif
        }
    }
    return (ok != 0) ? HS_OK : HS_E_SINGULAR;
}

hs_status hs_sparse_factor_slots(const int *sym, hs_real *num)
{
    sp_view v;
    view_of(sym, &v);
    /* every value of K is in exactly one slot (a symmetric K's other triangle repeats them),
     * the others hold zeros: the same maximum as over all of K */
    const int nval = ((v.sym != 0) ? 1 : 2) * v.nnz_l + v.n;
    const hs_real amax = amax_of(num, nval);
    const int ok = (int)(amax > HS_R(0.0));
    const hs_real tiny = (hs_real)v.n * HS_EPS * amax;
    return (v.sym != 0) ? sym_eliminate(&v, num, tiny, ok) : ldu_eliminate(&v, num, tiny, ok);
}

/* ---------------------------------------------------------------- per step */

hs_status hs_sparse_factor(const int *sym, const hs_real *Ax, hs_real *num)
{
    sp_view v;
    view_of(sym, &v);
    /* scale of the relative pivot threshold. Finiteness needs no pass of its own: every value
     * of row/column k reaches pivot k through d -= l x_i (0 * NaN is NaN, Inf - Inf is NaN),
     * so a NaN or Inf anywhere makes some pivot non-finite, which the pivot check reports. */
    const hs_real amax = amax_of(Ax, v.nnz);
    const int ok = (int)(amax > HS_R(0.0));
    const hs_real tiny = (hs_real)v.n * HS_EPS * amax;
    /* the values into their slots, the fill zero */
    const int nval = ((v.sym != 0) ? 1 : 2) * v.nnz_l + v.n;
    for (int q = 0; q < nval; ++q) { num[q] = HS_R(0.0); }
    for (int p = 0; p < v.nnz; ++p) {
        const int t = v.Ps[p];
        if (t >= 0) { num[t] = Ax[p]; }
    }
    return (v.sym != 0) ? sym_eliminate(&v, num, tiny, ok) : ldu_eliminate(&v, num, tiny, ok);
}

/* The backward pass of both solves, with D^-1 folded in: x[i] is scaled just before its row is
 * applied, the entries it reads (rows below i) are final already, so the values are those of
 * two passes. Ux, Dinv: the factor's upper part and inverted pivots; b (n) in place. */
static void backward_inplace(const sp_view *v, const hs_real *Ux, const hs_real *Dinv, hs_real *b)
{
    const int *Lp = v->Lp, *Lio = v->Lio, *perm = v->perm;
    for (int i = v->n - 1; i >= 0; --i) {
        const int pi = perm[i];
        hs_real s = b[pi] * Dinv[i];
        for (int q = Lp[i]; q < Lp[i + 1]; ++q) { s -= Ux[q] * b[Lio[q]]; }
        b[pi] = s;
    }
}

/* b (n, original order) := K^-1 b with the factors, in place: the rows of L carry their
 * original unknowns (Lio), so no permuted copy in and out; the same operations in the same
 * order as on a permuted copy. */
static void solve_inplace(const sp_view *v, const hs_real *num, hs_real *b)
{
    const int n = v->n;
    const int *Lp = v->Lp, *Lio = v->Lio, *perm = v->perm;
    const hs_real *Lx = num, *Ux = v->sym ? num : num + v->nnz_l, *Dinv = Ux + v->nnz_l;
    for (int i = 0; i < n; ++i) {
        const hs_real xi = b[perm[i]];
        for (int q = Lp[i]; q < Lp[i + 1]; ++q) { b[Lio[q]] -= Lx[q] * xi; }
    }
    backward_inplace(v, Ux, Dinv, b);
}

void hs_sparse_solve_c(const int *sym, const hs_real *num, hs_real *b, hs_real *work)
{
    sp_view v;
    view_of(sym, &v);
    (void)work;
    const int nv = v.Lv[0];
    const int *Lp = v.Lp, *Lio = v.Lio, *perm = v.perm, *Lv = v.Lv + 1;
    const hs_real *Lx = num, *Ux = v.sym ? num : num + v.nnz_l, *Dinv = Ux + v.nnz_l;
    /* the forward pass over the columns b reaches; a column left out would subtract L x_i
     * with x_i = 0, which leaves every entry as it is (but for the sign of a zero) */
    for (int t = 0; t < nv; ++t) {
        const int i = Lv[t];
        const hs_real xi = b[perm[i]];
        for (int q = Lp[i]; q < Lp[i + 1]; ++q) { b[Lio[q]] -= Lx[q] * xi; }
    }
    backward_inplace(&v, Ux, Dinv, b);
}

void hs_sparse_solve(const int *sym, const hs_real *num, hs_real *b, hs_real *work)
{
    sp_view v;
    view_of(sym, &v);
    (void)work;
    solve_inplace(&v, num, b);
}

void hs_sparse_matvec(const int *sym, const hs_real *Ax, const hs_real *x, hs_real *y)
{
    sp_view v;
    view_of(sym, &v);
    const int *perm = v.perm;
    for (int k = 0; k < v.n; ++k) { y[perm[k]] = Ax[v.Dax[k]] * x[perm[k]]; }
    for (int k = 0; k < v.n; ++k) {
        for (int p = v.Ap[k]; p < v.Ap[k + 1]; ++p) {
            const int i = perm[v.Ui[p]], j = perm[k];
            y[i] += Ax[v.Uax[p]] * x[j];
            y[j] += Ax[v.Lax[p]] * x[i];
        }
    }
}

void hs_sparse_solve_refined(const int *sym, const hs_real *Ax, const hs_real *num, hs_real *b,
                             hs_real *work, hs_real *r)
{
    const int n = sym[H_N];
    for (int i = 0; i < n; ++i) { r[i] = b[i]; }
    hs_sparse_solve(sym, num, b, work);       /* x0 */
    hs_sparse_matvec(sym, Ax, b, work);       /* K x0 */
    for (int i = 0; i < n; ++i) { r[i] -= work[i]; }
    hs_sparse_solve(sym, num, r, work);       /* correction */
    for (int i = 0; i < n; ++i) { b[i] += r[i]; }
}

void hs_sparse_ops(const int *sym, long *factor_flops, long *solve_flops)
{
    sp_view v;
    view_of(sym, &v);
    /* as the loops of the factor run: entry a of a column (a earlier entries in it) pairs
     * with each of those in one update of 2 (4 unsymmetric) flops, and costs 3 (4) for its
     * scaling and its diagonal's update; one division per pivot */
    long f = v.n;
    for (int i = 0; i < v.n; ++i) {
        const int c = v.Lp[i + 1] - v.Lp[i];
        for (int a = 0; a < c; ++a) { f += v.sym ? 2L * a + 3 : 4L * a + 4; }
    }
    if (factor_flops != NULL) { *factor_flops = f; }
    if (solve_flops != NULL) { *solve_flops = 4L * v.nnz_l + v.n; }
}

void hs_sparse_info(const int *sym, int *nnz_l, int *nblocks, int *nnz_a)
{
    if (nnz_l != NULL) { *nnz_l = sym[H_NNZL]; }
    if (nblocks != NULL) { *nblocks = sym[H_NB]; }
    if (nnz_a != NULL) { *nnz_a = sym[H_NNZA]; }
}

const int *hs_sparse_perm(const int *sym) { return sym + H_LEN; }

const hs_ls_backend hs_sparse_backend = {
    "ldlt", hs_sparse_tmp_ints, hs_sparse_analyze, hs_sparse_factor, hs_sparse_solve, hs_sparse_ops,
    hs_sparse_slot, hs_sparse_factor_slots, hs_sparse_solve_c,
};
