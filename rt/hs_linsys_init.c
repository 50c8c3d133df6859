/* hs_linsys_init.c - the linear-system layer's init time (rt/hs_linsys.h): the backend
 * choice, the def's defaults, the sizes of the arenas (hs_linsys_need), the whole matrix'
 * scalar pattern, its analysis by the backend and the maps from the packed blocks into it
 * (hs_linsys_init), and the binding of a numeric factor to its arena. A system that takes
 * the range-space path is analyzed by rt/hs_linsys_rs.c. */
#include "hs_linsys_int.h"


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
    /* leaf groups (rt/hs_linsys.h): the leaf body's positions -(L + 1), its rows 2 + L */
    for (int k = 0; (ls->cleaf != NULL) && (k < b->ncb); ++k) {
        const int L = ls->cleaf[k];
        if ((L < 0) || (L >= b->nqb)) { continue; }
        for (int j = b->qb[L]; j < b->qb[L + 1]; ++j) { kind[j] = -(L + 1); }
        for (int i = b->cb[k]; i < b->cb[k + 1]; ++i) { kind[nq + i] = 2 + L; }
    }
    /* move Ai next to kind so the free space after it is contiguous */
    int *Ai2 = ri;
    for (int p = 0; p < nnz; ++p) { Ai2[p] = Ai[p]; }
    *Ap_o = Ap; *Ai_o = Ai2; *kind_o = kind;
    return nnz;
}

static void ls_setup(hs_linsys *ls, const hs_linsys_def *d)
{
    const int nq = d->nq, nc = d->nc;
    ls->qmask = d->qmask;
    ls->cmask = (nc > 0) ? d->cmask : NULL;
    ls->cleaf = (nc > 0) ? d->cleaf : NULL;
    ls->kind = d->kind;
    ls->nq = nq; ls->nc = nc; ls->n = nq + nc;
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    ls->sign = d->sign < 0 ? -1 : 1;
    ls->reg = d->reg && nc > 0;
    ls->symmetric = d->symmetric;
    ls->b = *d->b;
    if (nc == 0) { ls->b.ncb = 0; ls->b.ncq = 0; }
    ls->nA = hs_blocks_qq_size(&ls->b);
    ls->nG = nc > 0 ? hs_blocks_cq_size(&ls->b) : 0;
    ls->nC = ls->reg ? hs_blocks_cc_size(&ls->b) : 0;
    ls->be = d->kind == HS_LS_SPARSE ? d->be : NULL;
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

static long dense_factor_flops(int n)
{
    long f = 0;
    /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
    for (int k = 0; k < n; ++k) { f += (long)(n - k - 1) * (1 + 2 * (long)(n - k - 1)) + 1; }
    return f;
}

hs_linsys_def hs_linsys_default_def(void)
{
    hs_linsys_def d;
    d.kind = HS_LS_DENSE;
    d.be = NULL;
    d.b = NULL;
    d.qmask = NULL;
    d.cmask = NULL;
    d.cleaf = NULL;
    d.nq = 0;
    d.nc = 0;
    d.sign = 1;
    d.reg = 0;
    d.symmetric = 0;
    return d;
}

hs_status hs_linsys_need(const hs_linsys_def *d, int *tmp, size_t ntmp_avail, hs_linsys_size *need)
{
    if (d == NULL || d->b == NULL || need == NULL) { return HS_E_NULL; }
    need->nsym = 0u; need->nfac_reals = 0u; need->nfac_ints = 0u; need->ntmp = 0u;
    if (d->nq < 1 || d->nc < 0) { return HS_E_SIZE; }
    const hs_ls_kind kind = d->kind;
    const hs_ls_backend *const be = d->be;
    size_t *const nsym = &need->nsym, *const nfac_reals = &need->nfac_reals;
    size_t *const nfac_ints = &need->nfac_ints, *const ntmp = &need->ntmp;
    hs_linsys ls;
    ls_setup(&ls, d);
    const size_t n = (size_t)ls.n;
    if (kind == HS_LS_DENSE) {
        *nsym = 0; *nfac_reals = n * n; *nfac_ints = n; *ntmp = 0;
        return HS_OK;
    }
    if (kind != HS_LS_SPARSE || be == NULL) { return HS_E_SIZE; }
    if (tmp == NULL) { return HS_E_NULL; }
    if (hs_ls_rs_eligible(&ls) != 0) {
        /* never less than the whole matrix' analysis asks: a caller that measured without
         * the masks (its scratch too short for them) got that figure, and must find it exact */
        const size_t Tk = triplet_count(&ls);
        const size_t kkt = 2u * n + 1u + 3u * Tk + ls.be->tmp_ints(ls.n, (int)Tk);
        return hs_ls_rs_need(&ls, tmp, ntmp_avail, kkt, need);
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
    int rc = be->analyze(ls.n, Ap, Ai, kd, d->symmetric, tmp + pat, btmp, NULL, 0, &ns, &nn);
    if (rc != 0) { return rc; }
    /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
    *nsym = ns + 3u * (size_t)(ls.nA + 2 * ls.nG + ls.nC) + nn;
    /* Ax has one slot more: the sink of the entries a mask leaves out of the pattern; so has
     * num, the sink of the slot maps */
    *nfac_reals = nn + 1u + (size_t)nnz + 1u + n;
    *nfac_ints = 0;
    return HS_OK;
}

/* The maps from the packed blocks into the pattern (Ap, Ai: nnz entries) of L: each entry's
 * position, nnz (the sink) for one its mask leaves out. */
static void ls_maps(hs_linsys *L, const int *Ap, const int *Ai, int nnz)
{
    const hs_blocks *B = &L->b;
    int o = 0;
    for (int k = 0; k < B->nqq; ++k) {
        const int I = B->qq[2 * k], J = B->qq[2 * k + 1];
        for (int i = B->qb[I]; i < B->qb[I + 1]; ++i) {
            for (int j = B->qb[J]; j < B->qb[J + 1]; ++j) {
                const int pa = hs_csc_find(Ap, Ai, i, j);
                L->mapA[o++] = (pa >= 0) ? pa : nnz; /* masked out: the sink */
            }
        }
    }
    o = 0;
    for (int k = 0; k < B->ncq; ++k) {
        const int I = B->cq[2 * k], J = B->cq[2 * k + 1];
        for (int i = B->cb[I]; i < B->cb[I + 1]; ++i) {
            for (int j = B->qb[J]; j < B->qb[J + 1]; ++j) {
                const int p1 = hs_csc_find(Ap, Ai, j, L->nq + i); /* (j, nq+i): s G1^T */
                const int p2 = hs_csc_find(Ap, Ai, L->nq + i, j);
                L->mapG1[o] = (p1 >= 0) ? p1 : nnz; /* masked out: the sink */
                L->mapG2[o] = (p2 >= 0) ? p2 : nnz;
                ++o;
            }
        }
    }
    o = 0;
    if (L->reg != 0) {
        for (int k = 0; k < B->ncb; ++k) {
            for (int i = B->cb[k]; i < B->cb[k + 1]; ++i) {
                for (int j = B->cb[k]; j < B->cb[k + 1]; ++j) {
                    L->mapC[o++] = hs_csc_find(Ap, Ai, L->nq + i, L->nq + j);
                }
            }
        }
    }
}

/* The maps of L (nmap entries, nn reals of num) retargeted into the backend's num: assembly
 * writes where the factor reads; the unwritten slots (zlist) and the (source, slot) pairs of
 * the entries the factor reads (act) after the maps in sym. HS_OK or HS_E_SIZE. */
static int ls_slots(hs_linsys *L, const int *sym, size_t nmap, size_t nn)
{
    const hs_ls_backend *be = L->be;
    const int nnz = L->nnz;
    const int nval = be->slot(sym, -1);
    if ((size_t)nval > nn) { return HS_E_SIZE; }
    int *mark = L->mapA + nmap; /* nn ints: marks, then the list of unwritten slots */
    for (int k = 0; k < nval; ++k) { mark[k] = 0; }
    for (size_t k = 0; k < nmap; ++k) {
        const int p = L->mapA[k];
        const int sl = ((p >= 0) && (p < nnz)) ? be->slot(sym, p) : -1;
        L->mapA[k] = (sl >= 0) ? sl : L->nnum;
        if (sl >= 0) { mark[sl] = 1; }
    }
    int nz = 0;
    for (int k = 0; k < nval; ++k) {
        if (mark[k] == 0) { mark[nz++] = k; }
    }
    L->slots = 1;
    L->nzero = nz;
    L->zlist = mark;
    /* the entries the factor reads, as (source, slot) pairs: the per-step assembly writes
     * these only, not the other triangle's copies nor the masked zeros */
    int *act = mark + nn;
    const int *lm[4] = {L->mapA, L->mapG1, L->mapG2, L->mapC};
    const int len[4] = {L->nA, L->nG, L->nG, L->nC};
    L->act = act;
    for (int l = 0; l < 4; ++l) {
        int na = 0;
        for (int k = 0; k < len[l]; ++k) {
            if (lm[l][k] < L->nnum) {
                act[0] = k;
                act[1] = lm[l][k];
                act += 2;
                ++na;
            }
        }
        L->nact[l] = na;
    }
    return HS_OK;
}

hs_status hs_linsys_init(hs_linsys *ls, const hs_linsys_def *d, int *sym, size_t nsym, int *tmp, size_t ntmp)
{
    if (ls == NULL || d == NULL || d->b == NULL) { return HS_E_NULL; }
    const int nq = d->nq, symmetric = d->symmetric;
    if (nq < 1 || d->nc < 0) { return HS_E_SIZE; }
    const hs_ls_kind kind = d->kind;
    const hs_ls_backend *const be = d->be;
    hs_linsys L;
    ls_setup(&L, d);
    if (kind == HS_LS_DENSE) {
        L.flops_factor = dense_factor_flops(L.n);
        L.flops_solve = 2L * L.n * L.n;
        *ls = L;
        return HS_OK;
    }
    if (kind != HS_LS_SPARSE || be == NULL) { return HS_E_SIZE; }
    if (tmp == NULL || sym == NULL) { return HS_E_NULL; }
    if (hs_ls_rs_eligible(&L) != 0) {
        return hs_ls_rs_init(ls, &L, sym, nsym, tmp, ntmp);
    }
    const size_t T = triplet_count(&L);
    const size_t pat = 2u * (size_t)L.n + 1u + 3u * T;
    const size_t btmp = be->tmp_ints(L.n, (int)T);
    if (ntmp < pat + btmp) { return HS_E_SIZE; }
    int *Ap, *Ai, *kd;
    const int nnz = build_pattern(&L, tmp, pat, &Ap, &Ai, &kd);
    if (nnz < 0) { return HS_E_SIZE; }
    size_t ns = 0, nn = 0;
    int rc = be->analyze(L.n, Ap, Ai, kd, symmetric, tmp + pat, btmp, NULL, 0, &ns, &nn);
    if (rc != 0) { return rc; }
    /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
    const size_t nmap = (size_t)(L.nA + 2 * L.nG + L.nC);
    if (nsym < ns + 3u * nmap + nn) { return HS_E_SIZE; }
    rc = be->analyze(L.n, Ap, Ai, kd, symmetric, tmp + pat, btmp, sym, ns, &ns, &nn);
    if (rc != 0) { return rc; }
    L.nnz = nnz;
    L.sym = sym;
    L.mapA = sym + ns;
    L.mapG1 = L.mapA + L.nA;
    L.mapG2 = L.mapG1 + L.nG;
    L.mapC = L.mapG2 + L.nG;
    ls_maps(&L, Ap, Ai, nnz);
    L.nnum = (int)nn;
    if ((be->slot != NULL) && (be->factor_slots != NULL) && (be->slot(sym, -1) > 0)) {
        /* the maps retargeted into num: assembly writes where the factor reads */
        rc = ls_slots(&L, sym, nmap, nn);
        if (rc != 0) { return rc; }
    }
    be->ops(sym, &L.flops_factor, &L.flops_solve);
    L.qmask = NULL; /* the caller's scratch: read during init only */
    L.cmask = NULL;
    L.cleaf = NULL;
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
