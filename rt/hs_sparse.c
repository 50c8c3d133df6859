/* hs_sparse.c - static-order sparse LDU / LDL^T: analysis once, fixed-pattern numerics. */
#include "hs_sparse.h"

/* ---------------------------------------------------------------- analysis helpers */

static int bit_get(const int *row, int j)
{
    return (int)(((unsigned)row[j >> 5] >> (unsigned)(j & 31)) & 1u);
}

static void bit_set(int *row, int j)
{
    row[j >> 5] = (int)((unsigned)row[j >> 5] | (1u << (unsigned)(j & 31)));
}

static void bit_clear(int *row, int j)
{
    row[j >> 5] = (int)((unsigned)row[j >> 5] & ~(1u << (unsigned)(j & 31)));
}

/* Scalar size of block v: position blocks first, then constraint blocks. */
static int blk_w(const hs_blocks *b, int v)
{
    return v < b->nqb ? b->qb[v + 1] - b->qb[v] : b->cb[v - b->nqb + 1] - b->cb[v - b->nqb];
}

/* First original scalar index of block v. */
static int blk_first(const hs_blocks *b, int nq, int v)
{
    return v < b->nqb ? b->qb[v] : nq + b->cb[v - b->nqb];
}

/* Weighted degree of v in the elimination graph: the scalar unknowns it is coupled to. */
static int blk_degree(const hs_blocks *b, const int *row, int nb)
{
    int d = 0;
    for (int j = 0; j < nb; ++j)
        if (bit_get(row, j)) d += blk_w(b, j);
    return d;
}

/* Checks that b describes sizes nq, nc: increasing block bounds and list entries in range. */
static int blocks_valid(const hs_blocks *b, int nq, int nc)
{
    if (!b->qb || !b->qq || b->nqb < 1 || b->nqq < b->nqb || b->ncb < 0 || b->ncq < 0) return 0;
    if ((nc > 0) != (b->ncb > 0) || (b->ncb > 0 && (!b->cb || !b->cq || b->ncq < 1))) return 0;
    if (b->qb[0] != 0 || b->qb[b->nqb] != nq) return 0;
    for (int i = 0; i < b->nqb; ++i)
        if (b->qb[i + 1] <= b->qb[i]) return 0;
    if (b->ncb > 0) {
        if (b->cb[0] != 0 || b->cb[b->ncb] != nc) return 0;
        for (int i = 0; i < b->ncb; ++i)
            if (b->cb[i + 1] <= b->cb[i]) return 0;
    }
    for (int k = 0; k < b->nqq; ++k)
        if (b->qq[2 * k] < 0 || b->qq[2 * k] >= b->nqb || b->qq[2 * k + 1] < 0 || b->qq[2 * k + 1] >= b->nqb)
            return 0;
    for (int k = 0; k < b->ncq; ++k)
        if (b->cq[2 * k] < 0 || b->cq[2 * k] >= b->ncb || b->cq[2 * k + 1] < 0 || b->cq[2 * k + 1] >= b->nqb)
            return 0;
    return 1;
}

/* Slot in V of K(r, c), r and c in the new order; the pattern contains it by construction. */
static int slot_of(const hs_sparse *S, int r, int c)
{
    if (r == c) return r;
    const int lower = r > c;
    const int row = lower ? c : r, col = lower ? r : c;
    int lo = S->Ap[col], hi = S->Ap[col + 1] - 1;
    while (lo < hi) { /* rows ascending within a column */
        int mid = (lo + hi) / 2;
        if (S->Ai[mid] < row) lo = mid + 1; else hi = mid;
    }
    if (lower && S->sym) return S->n + S->nnz_a; /* the sink: sym keeps the upper triangle */
    return S->n + lo + (lower ? S->nnz_a : 0);
}

/* ---------------------------------------------------------------- analysis */

int hs_sparse_analyze(hs_sparse *S, const hs_blocks *b, int nq, int nc, int sym,
                      int *iw, size_t niw, hs_real *rw, size_t nrw, int *tmp, size_t ntmp)
{
    if (!S || !b) return HS_E_NULL;
    if (nq < 1 || nc < 0 || !blocks_valid(b, nq, nc)) return HS_E_SIZE;
    const int n = nq + nc, nqb = b->nqb, nb = b->nqb + b->ncb, W = (nb + 31) / 32;
    const int nlist = b->nqq + b->ncq;
    S->n = n; S->nq = nq; S->nc = nc; S->sym = sym ? 1 : 0; S->nb = nb;
    S->nqq_vals = hs_blocks_qq_size(b);
    S->ncq_vals = b->ncb > 0 ? hs_blocks_cq_size(b) : 0;
    S->need_tmp = (size_t)HS_SPARSE_TMP_INTS(nb, n, nlist);
    S->need_ints = 0; S->need_reals = 0;
    S->tally = 0;
    if (!tmp || ntmp < S->need_tmp) return HS_E_SIZE;

    /* scratch layout */
    int *adj = tmp;                  /* (nb W) elimination graph, one bitset row per block */
    int *deg = adj + nb * W;         /* (nb) weighted degree */
    int *done = deg + nb;            /* (nb) 1 once eliminated */
    int *order = done + nb;          /* (nb) elimination order of the blocks */
    int *start = order + nb;         /* (nb) first new scalar index of each block */
    int *adjp = start + nb;          /* (nb + 1) original adjacency, CSR */
    int *nbr = adjp + nb + 1;            /* (2 nlist) original neighbours */
    int *row = nbr + 2 * nlist;      /* (W) the eliminated block's neighbours; W <= nb */
    int *parent = row + nb;          /* (n) elimination tree */
    int *cnt = parent + n;           /* (n) entries per column of L */
    int *mark = cnt + n;             /* (n) marks */
    int *nxt = mark + n;             /* (n) fill pointers */

    /* 1. block graph */
    for (int i = 0; i < nb * W; ++i) adj[i] = 0;
    for (int k = 0; k < b->nqq; ++k) {
        const int i = b->qq[2 * k], j = b->qq[2 * k + 1];
        if (i != j) { bit_set(adj + i * W, j); bit_set(adj + j * W, i); }
    }
    for (int k = 0; k < b->ncq; ++k) {
        const int c = nqb + b->cq[2 * k], j = b->cq[2 * k + 1];
        bit_set(adj + c * W, j); bit_set(adj + j * W, c);
    }
    adjp[0] = 0;
    for (int v = 0; v < nb; ++v) {
        int c = 0;
        for (int j = 0; j < nb; ++j) c += bit_get(adj + v * W, j);
        adjp[v + 1] = adjp[v] + c;
        int p = adjp[v];
        for (int j = 0; j < nb; ++j)
            if (bit_get(adj + v * W, j)) nbr[p++] = j;
        deg[v] = blk_degree(b, adj + v * W, nb);
        done[v] = 0;
    }

    /* 2. minimum degree on the blocks; a constraint block waits until no position block is
     * left in its neighbourhood, so that the constraints factor the Schur complement of A
     * (see hs_sparse.h). Ties go to the lowest block number: the order is reproducible. */
    for (int s = 0; s < nb; ++s) {
        int best = -1;
        for (int v = 0; v < nb; ++v) {
            if (done[v]) continue;
            if (v >= nqb) {
                int touches_q = 0;
                for (int j = 0; j < nqb; ++j) touches_q |= bit_get(adj + v * W, j);
                if (touches_q) continue;
            }
            if (best < 0 || deg[v] < deg[best]) best = v;
        }
        order[s] = best;
        done[best] = 1;
        for (int w = 0; w < W; ++w) row[w] = adj[best * W + w];
        for (int a = 0; a < nb; ++a) {
            if (!bit_get(row, a)) continue;
            int *ra = adj + a * W;
            for (int w = 0; w < W; ++w) ra[w] = (int)((unsigned)ra[w] | (unsigned)row[w]);
            bit_clear(ra, a);
            bit_clear(ra, best);
            deg[a] = blk_degree(b, ra, nb);
        }
    }

    /* 3. scalar permutation: blocks in elimination order, coordinates in block order */
    {
        int k = 0;
        for (int s = 0; s < nb; ++s) { start[order[s]] = k; k += blk_w(b, order[s]); }
    }
    /* neighbour lists sorted by their place in the order, so column patterns come out sorted */
    for (int v = 0; v < nb; ++v)
        for (int p = adjp[v] + 1; p < adjp[v + 1]; ++p) {
            int x = nbr[p], q = p;
            while (q > adjp[v] && start[nbr[q - 1]] > start[x]) { nbr[q] = nbr[q - 1]; --q; }
            nbr[q] = x;
        }
    /* upper pattern size: column (block v, offset t) holds every earlier neighbour block and the
     * t earlier coordinates of v itself (diagonal blocks are dense) */
    int nnz_a = 0;
    for (int v = 0; v < nb; ++v) {
        int before = 0;
        for (int p = adjp[v]; p < adjp[v + 1]; ++p)
            if (start[nbr[p]] < start[v]) before += blk_w(b, nbr[p]);
        const int wv = blk_w(b, v);
        nnz_a += wv * before + wv * (wv - 1) / 2;
    }

    /* 4. elimination tree and column counts of L (QDLDL's etree on the upper pattern); the
     * pattern is generated column by column from the blocks, without storing it yet */
    for (int i = 0; i < n; ++i) { parent[i] = -1; cnt[i] = 0; mark[i] = -1; }
    for (int s = 0; s < nb; ++s) {
        const int v = order[s], wv = blk_w(b, v);
        for (int t = 0; t < wv; ++t) {
            const int j = start[v] + t;
            mark[j] = j;
            for (int p = adjp[v]; p <= adjp[v + 1]; ++p) {
                /* p == adjp[v + 1] stands for block v itself (its first t coordinates) */
                const int u = p < adjp[v + 1] ? nbr[p] : v;
                const int len = p < adjp[v + 1] ? (start[u] < start[v] ? blk_w(b, u) : 0) : t;
                for (int o = 0; o < len; ++o) {
                    int i = start[u] + o;
                    while (mark[i] != j) {
                        if (parent[i] == -1) parent[i] = j;
                        cnt[i]++;
                        mark[i] = j;
                        i = parent[i];
                    }
                }
            }
        }
    }
    int64_t nnz_l64 = 0;
    for (int i = 0; i < n; ++i) nnz_l64 += cnt[i];
    if (nnz_l64 > 0x3fffffff) return HS_E_SIZE;
    const int nnz_l = (int)nnz_l64;

    /* 5. arena sizes */
    const size_t ni = (size_t)(2 * n + 3 * (n + 1)) + (size_t)nnz_a + 3 * (size_t)nnz_l
                      + (size_t)S->nqq_vals + 2 * (size_t)S->ncq_vals;
    const size_t nr = (size_t)n + (sym ? (size_t)nnz_a + 1 : 2 * (size_t)nnz_a)
                      + (size_t)(sym ? 1 : 2) * (size_t)nnz_l + 4 * (size_t)n;
    S->need_ints = ni;
    S->need_reals = nr;
    S->nnz_a = nnz_a;
    S->nnz_l = nnz_l;
    if (!iw || !rw || niw < ni || nrw < nr) return HS_E_SIZE;

    int *ip = iw;
    S->perm = ip; ip += n;
    S->iperm = ip; ip += n;
    S->Ap = ip; ip += n + 1;
    S->Ai = ip; ip += nnz_a;
    S->Lp = ip; ip += n + 1;
    S->Li = ip; ip += nnz_l;
    S->Rp = ip; ip += n + 1;
    S->Ri = ip; ip += nnz_l;
    S->Rpos = ip; ip += nnz_l;
    S->map_qq = ip; ip += S->nqq_vals;
    S->map_gt = ip; ip += S->ncq_vals;
    S->map_gr = ip;
    hs_real *rp = rw;
    S->V = rp; rp += n + (sym ? nnz_a + 1 : 2 * nnz_a);
    S->Lx = rp; rp += nnz_l;
    if (sym) S->Ux = S->Lx;
    else { S->Ux = rp; rp += nnz_l; }
    S->Dinv = rp; rp += n;
    S->x = rp; rp += n;
    S->y = rp; rp += n;
    S->z = rp;
    for (size_t i = 0; i < nr; ++i) rw[i] = HS_R(0.0);

    /* 6. permutation and the upper pattern of the permuted K */
    for (int s = 0; s < nb; ++s) {
        const int v = order[s];
        for (int t = 0; t < blk_w(b, v); ++t) {
            S->perm[start[v] + t] = blk_first(b, nq, v) + t;
            S->iperm[blk_first(b, nq, v) + t] = start[v] + t;
        }
    }
    {
        int p = 0;
        for (int s = 0; s < nb; ++s) {
            const int v = order[s], wv = blk_w(b, v);
            for (int t = 0; t < wv; ++t) {
                S->Ap[start[v] + t] = p;
                for (int q = adjp[v]; q < adjp[v + 1]; ++q) {
                    const int u = nbr[q];
                    if (start[u] < start[v])
                        for (int o = 0; o < blk_w(b, u); ++o) S->Ai[p++] = start[u] + o;
                }
                for (int o = 0; o < t; ++o) S->Ai[p++] = start[v] + o;
            }
        }
        S->Ap[n] = p;
    }

    /* 7. L by column (rows appended in increasing k, so ascending), then by row */
    S->Lp[0] = 0;
    for (int i = 0; i < n; ++i) { S->Lp[i + 1] = S->Lp[i] + cnt[i]; nxt[i] = S->Lp[i]; mark[i] = -1; }
    for (int k = 0; k < n; ++k) {
        mark[k] = k;
        for (int p = S->Ap[k]; p < S->Ap[k + 1]; ++p) {
            int i = S->Ai[p];
            while (mark[i] != k) {
                mark[i] = k;
                S->Li[nxt[i]++] = k;
                i = parent[i];
            }
        }
    }
    for (int i = 0; i <= n; ++i) S->Rp[i] = 0;
    for (int q = 0; q < nnz_l; ++q) S->Rp[S->Li[q] + 1]++;
    for (int i = 0; i < n; ++i) { S->Rp[i + 1] += S->Rp[i]; nxt[i] = S->Rp[i]; }
    for (int i = 0; i < n; ++i)
        for (int q = S->Lp[i]; q < S->Lp[i + 1]; ++q) {
            const int r = S->Li[q];
            S->Ri[nxt[r]] = i;
            S->Rpos[nxt[r]++] = q;
        }

    /* 8. maps from the packed blocks to V */
    {
        int e = 0;
        for (int k = 0; k < b->nqq; ++k) {
            const int I = b->qq[2 * k], J = b->qq[2 * k + 1];
            for (int r = b->qb[I]; r < b->qb[I + 1]; ++r)
                for (int c = b->qb[J]; c < b->qb[J + 1]; ++c)
                    S->map_qq[e++] = slot_of(S, S->iperm[r], S->iperm[c]);
        }
        e = 0;
        for (int k = 0; k < b->ncq; ++k) {
            const int I = b->cq[2 * k], J = b->cq[2 * k + 1];
            for (int r = b->cb[I]; r < b->cb[I + 1]; ++r)
                for (int c = b->qb[J]; c < b->qb[J + 1]; ++c) {
                    S->map_gt[e] = slot_of(S, S->iperm[c], S->iperm[nq + r]);
                    S->map_gr[e] = slot_of(S, S->iperm[nq + r], S->iperm[c]);
                    ++e;
                }
        }
    }

    /* 9. exact operation counts of the numeric phase (+ - * / as the loops below run them) */
    {
        int64_t f = (int64_t)n; /* one division per pivot */
        for (int k = 0; k < n; ++k)
            for (int p = S->Rp[k]; p < S->Rp[k + 1]; ++p) {
                const int i = S->Ri[p];
                const int64_t len = (int64_t)(S->Rpos[p] - S->Lp[i]);
                f += sym ? 2 * len + 3 : 4 * len + 4;
            }
        S->ops_factor = f;
        S->ops_solve = 4 * (int64_t)nnz_l + (int64_t)n;
    }
    return HS_OK;
}

/* ---------------------------------------------------------------- per step */

void hs_sparse_load(hs_sparse *S, int part, const hs_real *vals, hs_real coef, int add)
{
    const int *map = part == HS_SP_QQ ? S->map_qq : part == HS_SP_GT ? S->map_gt : S->map_gr;
    const int m = part == HS_SP_QQ ? S->nqq_vals : S->ncq_vals;
    hs_real *V = S->V;
    if (add)
        for (int e = 0; e < m; ++e) V[map[e]] += coef * vals[e];
    else
        for (int e = 0; e < m; ++e) V[map[e]] = coef * vals[e];
}

void hs_sparse_load_cdiag(hs_sparse *S, const hs_real *c, hs_real coef)
{
    for (int i = 0; i < S->nc; ++i) S->V[S->iperm[S->nq + i]] = c ? coef * c[i] : HS_R(0.0);
}

int hs_sparse_factor(hs_sparse *S)
{
    const int n = S->n, sym = S->sym;
    const hs_real *Vd = S->V, *Vu = S->V + n, *Vl = sym ? Vu : Vu + S->nnz_a;
    const int *Ap = S->Ap, *Ai = S->Ai, *Lp = S->Lp, *Li = S->Li;
    const int *Rp = S->Rp, *Ri = S->Ri, *Rpos = S->Rpos;
    hs_real *Lx = S->Lx, *Ux = S->Ux, *Dinv = S->Dinv, *x = S->x, *y = S->y;

    /* scale of the relative pivot threshold, and the finiteness of every value */
    const int nv = n + (sym ? 1 : 2) * S->nnz_a;
    hs_real amax = HS_R(0.0);
    int ok = 1;
    for (int i = 0; i < nv; ++i) {
        const hs_real a = hs_abs(S->V[i]);
        ok &= hs_isfinite(S->V[i]);
        amax = a > amax ? a : amax;
    }
    ok &= amax > HS_R(0.0);
    const hs_real tiny = (hs_real)n * HS_EPS * amax;

    /* up-looking: row k of L and column k of U from two sparse triangular solves whose
     * patterns (the row k reach in the elimination tree) were fixed by the analysis */
    for (int k = 0; k < n; ++k) {
        for (int p = Ap[k]; p < Ap[k + 1]; ++p) {
            x[Ai[p]] = Vu[p];
            if (!sym) y[Ai[p]] = Vl[p];
        }
        hs_real d = Vd[k];
        if (sym) {
            for (int p = Rp[k]; p < Rp[k + 1]; ++p) {
                const int i = Ri[p], e = Rpos[p];
                const hs_real xi = x[i]; /* (D L^T)_{ik}, final: every j < i has been applied */
                x[i] = HS_R(0.0);
                for (int q = Lp[i]; q < e; ++q) x[Li[q]] -= Lx[q] * xi;
#ifdef HS_SPARSE_TALLY
                S->tally += e - Lp[i];
#endif
                const hs_real l = xi * Dinv[i];
                Lx[e] = l;
                d -= l * xi;
            }
        } else {
            for (int p = Rp[k]; p < Rp[k + 1]; ++p) {
                const int i = Ri[p], e = Rpos[p];
                const hs_real xi = x[i], yi = y[i]; /* (D U)_{ik}, (L D)_{ki} */
                x[i] = HS_R(0.0);
                y[i] = HS_R(0.0);
                for (int q = Lp[i]; q < e; ++q) {
                    const int r = Li[q];
                    x[r] -= Lx[q] * xi;
                    y[r] -= Ux[q] * yi;
                }
#ifdef HS_SPARSE_TALLY
                S->tally += e - Lp[i];
#endif
                const hs_real l = yi * Dinv[i];
                Lx[e] = l;
                Ux[e] = xi * Dinv[i];
                d -= l * xi;
            }
        }
        const int good = (hs_abs(d) > tiny) & hs_isfinite(d);
        ok &= good;
        /* a failed pivot becomes 1 so the remaining work stays finite and fixed */
        Dinv[k] = HS_R(1.0) / (good ? d : HS_R(1.0));
    }
    return ok ? HS_OK : HS_E_SINGULAR;
}

/* x (n, new order): L D U x = x. */
static void solve_perm(const hs_sparse *S, hs_real *x)
{
    const int n = S->n;
    const int *Lp = S->Lp, *Li = S->Li;
    const hs_real *Lx = S->Lx, *Ux = S->Ux, *Dinv = S->Dinv;
    for (int i = 0; i < n; ++i) {
        const hs_real xi = x[i];
        for (int q = Lp[i]; q < Lp[i + 1]; ++q) x[Li[q]] -= Lx[q] * xi;
    }
    for (int i = 0; i < n; ++i) x[i] *= Dinv[i];
    for (int i = n - 1; i >= 0; --i) {
        hs_real s = x[i];
        for (int q = Lp[i]; q < Lp[i + 1]; ++q) s -= Ux[q] * x[Li[q]];
        x[i] = s;
    }
}

void hs_sparse_solve(hs_sparse *S, hs_real *b)
{
    const int n = S->n;
    hs_real *x = S->x;
    for (int k = 0; k < n; ++k) x[k] = b[S->perm[k]];
    solve_perm(S, x);
    for (int k = 0; k < n; ++k) { b[S->perm[k]] = x[k]; x[k] = HS_R(0.0); }
}

/* y = K x, both in the new order. */
static void matvec_perm(const hs_sparse *S, const hs_real *x, hs_real *y)
{
    const int n = S->n;
    const hs_real *Vd = S->V, *Vu = S->V + n, *Vl = S->sym ? Vu : Vu + S->nnz_a;
    for (int k = 0; k < n; ++k) y[k] = Vd[k] * x[k];
    for (int k = 0; k < n; ++k)
        for (int p = S->Ap[k]; p < S->Ap[k + 1]; ++p) {
            const int i = S->Ai[p];
            y[i] += Vu[p] * x[k];
            y[k] += Vl[p] * x[i];
        }
}

void hs_sparse_matvec(hs_sparse *S, const hs_real *xin, hs_real *yout)
{
    const int n = S->n;
    for (int k = 0; k < n; ++k) S->x[k] = xin[S->perm[k]];
    matvec_perm(S, S->x, S->y);
    for (int k = 0; k < n; ++k) {
        yout[S->perm[k]] = S->y[k];
        S->x[k] = HS_R(0.0);
        S->y[k] = HS_R(0.0);
    }
}

void hs_sparse_solve_refined(hs_sparse *S, hs_real *b)
{
    const int n = S->n;
    hs_real *x = S->x, *y = S->y, *z = S->z;
    for (int k = 0; k < n; ++k) { z[k] = b[S->perm[k]]; x[k] = z[k]; }
    solve_perm(S, x);                  /* x0 */
    matvec_perm(S, x, y);              /* K x0 */
    for (int k = 0; k < n; ++k) { z[k] -= y[k]; y[k] = HS_R(0.0); }
    solve_perm(S, z);                  /* correction */
    for (int k = 0; k < n; ++k) { b[S->perm[k]] = x[k] + z[k]; x[k] = HS_R(0.0); }
}

int64_t hs_sparse_ops_factor(const hs_sparse *S) { return S->ops_factor; }

int64_t hs_sparse_ops_solve(const hs_sparse *S) { return S->ops_solve; }
