/* hs_linsys_rs.c - the analysis of the range-space path (rt/hs_linsys.h), at init: whether a
 * system takes it (A diagonal by its mask, symmetric values, constraints, a backend with
 * slots), S = G A^-1 G^T + s C's pattern and its band or backend analysis, the lists the
 * per-step factor and solves walk (rt/hs_linsys_num.c), their sizes and operation counts;
 * and the CSC search both analyses use. Called by rt/hs_linsys_init.c only. */
#include "hs_linsys_int.h"

int hs_ls_rs_eligible(const hs_linsys *ls)
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
    int p = hs_csc_find(sp->Ap, sp->Ai, i, j);
    int sl = (p >= 0) ? be->slot(sym, p) : -1;
    if (sl < 0) {
        p = hs_csc_find(sp->Ap, sp->Ai, j, i);
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

/* The row lists of L (srp, sroff, srcol): G's kept entries in packed order, counted by
 * row from sp then placed. HS_OK, or HS_E_SIZE when the count disagrees with sp. */
static int rs_rows(hs_linsys *L, const schur_pat *sp)
{
    const hs_blocks *B = &L->b;
    int *rp = L->srp;
    for (int i = 0; i <= L->nc; ++i) { rp[i] = 0; }
    for (int e = 0; e < sp->nent; ++e) { rp[sp->er[e] + 1]++; }
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
    if (placed != sp->nent) { return HS_E_SIZE; }
    for (int i = L->nc; i > 0; --i) { rp[i] = rp[i - 1]; }
    rp[0] = 0;
    return HS_OK;
}

int hs_ls_rs_init(hs_linsys *ls, hs_linsys *L, int *sym, size_t nsym, int *tmp, size_t ntmp)
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
        nn = (size_t)nval;
        L->sbw = bw + 1;
    } else {
        int rc = be->analyze(L->nc, sp.Ap, sp.Ai, sp.kd, 1, sp.btmp, sp.nbtmp, NULL, 0, &ns, &nn);
        if (rc != 0) { return rc; }
        if (nsym < ns + schur_list_ints(L, &sp)) { return HS_E_SIZE; }
        rc = be->analyze(L->nc, sp.Ap, sp.Ai, sp.kd, 1, sp.btmp, sp.nbtmp, sym, ns, &ns, &nn);
        if (rc != 0) { return rc; }
        nval = be->slot(sym, -1);
        if ((nval <= 0) || ((size_t)nval > nn)) { return HS_E_SIZE; }
    }
    L->schur = 1;
    L->sym = sym;
    L->nnz = sp.nnz;
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
    if (rs_rows(L, &sp) != 0) { return HS_E_SIZE; }
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
    L->flops_factor = ff + 5L * nq + (long)sp.nent + 2L * sp.npairs + (long)nCp;
    /* G A^-1 b1 - b2 (2 per entry), S's solve, A^-1 b1 - (G A^-1)^T x2 (nq + 2 per entry) */
    L->flops_solve = fs + 4L * sp.nent + (long)nq;
    L->qmask = NULL; /* the caller's scratch: read during init only */
    L->cmask = NULL;
    *ls = *L;
    return HS_OK;
}

int hs_ls_rs_need(const hs_linsys *ls, int *tmp, size_t ntmp_avail, size_t ntmp_min, hs_linsys_size *need)
{
    const size_t n = (size_t)ls->n;
    int nent = 0, npairs = 0;
    size_t nb = 0u;
    schur_counts(ls, &nent, &npairs);
    need->ntmp = schur_tmp_need(ls, nent, npairs, &nb);
    need->ntmp = (ntmp_min > need->ntmp) ? ntmp_min : need->ntmp;
    if (ntmp_avail < need->ntmp) { return HS_E_SIZE; }
    schur_pat sp;
    if (schur_pattern(ls, tmp, ntmp_avail, &sp) != 0) { return HS_E_SIZE; }
    size_t ns = 0, nn = 0;
    const int bw = schur_bw(&sp, ls->nc);
    size_t nw = n;
    if (bw <= HS_LS_BAND_MAX) {
        nn = (size_t)band_len(ls->nc, bw);
        nw = n + (size_t)bw;
    } else {
        const int rc = ls->be->analyze(ls->nc, sp.Ap, sp.Ai, sp.kd, 1, sp.btmp, sp.nbtmp, NULL, 0, &ns, &nn);
        if (rc != 0) { return rc; }
    }
    need->nsym = ns + schur_list_ints(ls, &sp);
    /* work (n, + bw for a band) | num (nn) and its sink | A^-1's diagonal (nq) | G A^-1 (nent) */
    need->nfac_reals = nw + nn + 1u + (size_t)ls->nq + (size_t)nent;
    need->nfac_ints = 0;
    return HS_OK;
}
