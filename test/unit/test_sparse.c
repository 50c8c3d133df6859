/* test_sparse.c - the static-order sparse LDU/LDL^T against the dense LU (partial pivoting) on
 * random block-structured quasi-definite and KKT systems and on the shipped models' step
 * matrices; fixed operation count; singular detection; iterative refinement. */
#include "hs_dense.h"
#include "hs_models.h"
#include "hs_sparse.h"
#include "hs_test.h"
#include "tutil.h"

#define SP_MAXN 128
#define SP_MAXB 64

static struct {
    int bbuf[4096];
    hs_real fq[SP_MAXN * SP_MAXN], fu[SP_MAXN * SP_MAXN];
    int bufq[SP_MAXB + 1], bufc[SP_MAXB + 1], qq[2 * SP_MAXB * SP_MAXB], cq[2 * SP_MAXB * SP_MAXB];
    hs_real A[SP_MAXN * SP_MAXN], G[SP_MAXN * SP_MAXN], Gr[SP_MAXN * SP_MAXN], C[SP_MAXN];
    hs_real K[SP_MAXN * SP_MAXN], b[SP_MAXN], xd[SP_MAXN], xs[SP_MAXN], r[SP_MAXN];
    int piv[SP_MAXN];
    int iw[60000], tmp[20000];
    hs_real rw[60000];
} W;

static uint64_t rng_state;
/* uniform in [-1, 1) from a 64-bit LCG (Knuth's MMIX constants): reproducible everywhere */
static double rnd(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(rng_state >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

static int rnd_int(int k) { return (int)((rnd() + 1.0) * 0.5 * k) % k; }

/* Packed entry (r, c) of a block list -> dense write into D (ld columns), row/col offsets. */
static void unpack(const int *list, int nl, const int *rb, const int *cbnd, const hs_real *vals,
                   hs_real coef, hs_real *D, int ld, int roff, int coff, int transpose)
{
    int e = 0;
    for (int k = 0; k < nl; ++k) {
        const int I = list[2 * k], J = list[2 * k + 1];
        for (int r = rb[I]; r < rb[I + 1]; ++r)
            for (int c = cbnd[J]; c < cbnd[J + 1]; ++c) {
                const hs_real v = coef * vals[e++];
                if (transpose) D[(coff + c) * ld + roff + r] = v;
                else D[(roff + r) * ld + coff + c] = v;
            }
    }
}

/* sqrt by Newton from a power-of-two start (the M4F has no double sqrt instruction) */
static double t_sqrt(double v)
{
    if (!(v > 0.0)) return 0.0;
    double r = 1.0;
    while (r * r < v) r *= 2.0;
    while (r * r > 4.0 * v) r *= 0.5;
    for (int i = 0; i < 8; ++i) r = 0.5 * (r + v / r);
    return r;
}

static double rel_diff(const hs_real *a, const hs_real *b, int n)
{
    double num = 0.0, den = 0.0;
    for (int i = 0; i < n; ++i) {
        const double d = (double)a[i] - (double)b[i];
        num += d * d;
        den += (double)b[i] * (double)b[i];
    }
    return den > 0.0 ? t_sqrt(num / den) : t_sqrt(num);
}

#ifdef HS_SPARSE_TALLY
/* inner multiply-add iterations one factorization runs, from the analysis' operation count */
static int64_t inner_from_ops(const hs_sparse *S)
{
    return S->sym ? (S->ops_factor - S->n - 3 * (int64_t)S->nnz_l) / 2
                  : (S->ops_factor - S->n - 4 * (int64_t)S->nnz_l) / 4;
}
#endif

/* Random block pattern: nqb position blocks (1-3 coordinates), ncb <= nqb constraint blocks
 * (1-2 equations); constraint block c touches position block c (where random_values puts a
 * dominant entry per equation, so G has full row rank) and maybe one other; a few off-diagonal
 * A blocks. */
static void random_blocks(hs_blocks *bl, int nqb, int ncb, int ncoupling, int *nq, int *nc)
{
    W.bufq[0] = 0;
    for (int i = 0; i < nqb; ++i) W.bufq[i + 1] = W.bufq[i] + 1 + rnd_int(3);
    W.bufc[0] = 0;
    for (int i = 0; i < ncb; ++i) {
        const int w = 1 + rnd_int(2), wq = W.bufq[i + 1] - W.bufq[i];
        W.bufc[i + 1] = W.bufc[i] + (w < wq ? w : wq);
    }
    int nqq = 0, ncq = 0;
    for (int i = 0; i < nqb; ++i) { W.qq[2 * nqq] = i; W.qq[2 * nqq + 1] = i; ++nqq; }
    for (int k = 0; k < ncoupling; ++k) {
        const int i = rnd_int(nqb), j = rnd_int(nqb);
        int dup = 0;
        for (int p = 0; p < nqq; ++p) dup |= W.qq[2 * p] == i && W.qq[2 * p + 1] == j;
        if (dup) continue;
        W.qq[2 * nqq] = i; W.qq[2 * nqq + 1] = j; ++nqq;
    }
    for (int c = 0; c < ncb; ++c) {
        const int i = c, j = rnd_int(nqb);
        W.cq[2 * ncq] = c; W.cq[2 * ncq + 1] = i; ++ncq;
        if (j != i) { W.cq[2 * ncq] = c; W.cq[2 * ncq + 1] = j; ++ncq; }
    }
    bl->nqb = nqb; bl->ncb = ncb; bl->nqq = nqq; bl->ncq = ncq;
    bl->qb = W.bufq; bl->cb = W.bufc; bl->qq = W.qq; bl->cq = W.cq;
    *nq = W.bufq[nqb];
    *nc = W.bufc[ncb];
}

/* Fills packed A (SPD dominant plus a nonsymmetric O(h) part unless sym), G, Gr, C and the
 * dense K = [[A, -G^T], [Gr, C]] (or [[A, G^T], [G, -C]] when sym). */
static void random_values(const hs_blocks *bl, int nq, int nc, int sym, double creg, double gr_pert)
{
    const int n = nq + nc;
    const int nA = hs_blocks_qq_size(bl), nG = hs_blocks_cq_size(bl);
    int e = 0;
    for (int k = 0; k < bl->nqq; ++k) {
        const int I = bl->qq[2 * k], J = bl->qq[2 * k + 1];
        for (int r = bl->qb[I]; r < bl->qb[I + 1]; ++r)
            for (int c = bl->qb[J]; c < bl->qb[J + 1]; ++c)
                W.A[e++] = (hs_real)((r == c ? 4.0 + rnd() : 0.0) + 0.3 * rnd());
    }
    (void)nA;
    e = 0;
    for (int k = 0; k < bl->ncq; ++k) {
        const int I = bl->cq[2 * k], J = bl->cq[2 * k + 1];
        for (int r = bl->cb[I]; r < bl->cb[I + 1]; ++r)
            for (int c = bl->qb[J]; c < bl->qb[J + 1]; ++c) {
                const int dom = I == J && r - bl->cb[I] == c - bl->qb[J];
                W.G[e] = (hs_real)((dom ? 3.0 : 0.0) + rnd());
                W.Gr[e] = sym ? W.G[e] : (hs_real)((double)W.G[e] + gr_pert * rnd());
                ++e;
            }
    }
    (void)nG;
    for (int i = 0; i < nc; ++i) W.C[i] = (hs_real)(creg * (1.0 + 0.5 * rnd()));
    for (int i = 0; i < n * n; ++i) W.K[i] = HS_R(0.0);
    unpack(bl->qq, bl->nqq, bl->qb, bl->qb, W.A, HS_R(1.0), W.K, n, 0, 0, 0);
    if (sym) {
        /* symmetrize A from its upper triangle as the sym factor reads it */
        for (int r = 0; r < nq; ++r)
            for (int c = r + 1; c < nq; ++c) W.K[c * n + r] = W.K[r * n + c];
    }
    if (nc > 0) {
        unpack(bl->cq, bl->ncq, bl->cb, bl->qb, W.G, HS_R(sym ? 1.0 : -1.0), W.K, n, nq, 0, 1);
        unpack(bl->cq, bl->ncq, bl->cb, bl->qb, W.Gr, HS_R(1.0), W.K, n, nq, 0, 0);
        for (int i = 0; i < nc; ++i) W.K[(nq + i) * n + nq + i] = sym ? -W.C[i] : W.C[i];
    }
}

/* Loads the same values into S, factors sparse and dense, solves one right-hand side;
 * returns the relative difference of the two solutions (1e300 on a failed factorization). */
static double compare_once(hs_sparse *S, int sym, int refine)
{
    const int n = S->n;
    if (sym) {
        /* A from its upper triangle: the entries below go to the sink */
        hs_sparse_load(S, HS_SP_QQ, W.A, HS_R(1.0), 0);
        hs_sparse_load(S, HS_SP_GT, W.G, HS_R(1.0), 0);
        hs_sparse_load_cdiag(S, W.C, HS_R(-1.0));
    } else {
        hs_sparse_load(S, HS_SP_QQ, W.A, HS_R(1.0), 0);
        hs_sparse_load(S, HS_SP_GT, W.G, HS_R(-1.0), 0);
        hs_sparse_load(S, HS_SP_GR, W.Gr, HS_R(1.0), 0);
        hs_sparse_load_cdiag(S, W.C, HS_R(1.0));
    }
    for (int i = 0; i < n; ++i) { W.b[i] = (hs_real)rnd(); W.xd[i] = W.b[i]; W.xs[i] = W.b[i]; }
    /* the loaded sparse K equals the dense one: K e_j column by column through matvec */
    int same = 1;
    for (int j = 0; j < n; ++j) {
        for (int i = 0; i < n; ++i) W.r[i] = HS_R(0.0);
        W.r[j] = HS_R(1.0);
        hs_real col[SP_MAXN];
        hs_sparse_matvec(S, W.r, col);
        for (int i = 0; i < n; ++i) same &= col[i] == W.K[i * n + j];
    }
    CHECK(same);
    if (hs_sparse_factor(S) != HS_OK) return 1e300;
    if (refine) hs_sparse_solve_refined(S, W.xs);
    else hs_sparse_solve(S, W.xs);
    if (hs_lu_factor(W.K, W.piv, n) != HS_OK) return 1e300;
    hs_lu_solve(W.K, W.piv, n, W.xd);
    return rel_diff(W.xs, W.xd, n);
}

static void random_suite(int sym, double creg, double gr_pert, double tol)
{
    for (int trial = 0; trial < (hs_test_quick ? 8 : 40); ++trial) {
        hs_blocks bl;
        int nq, nc;
        const int nqb = 2 + rnd_int(hs_test_quick ? 10 : 30), ncb = 1 + rnd_int(nqb);
        random_blocks(&bl, nqb, ncb, sym ? 0 : rnd_int(nqb), &nq, &nc);
        if (sym) {
            /* a symmetric pattern: mirror every A block */
            int nqq = bl.nqq;
            for (int k = 0; k < bl.nqq; ++k)
                if (W.qq[2 * k] != W.qq[2 * k + 1]) {
                    W.qq[2 * nqq] = W.qq[2 * k + 1]; W.qq[2 * nqq + 1] = W.qq[2 * k]; ++nqq;
                }
            bl.nqq = nqq;
        }
        if (nq + nc > SP_MAXN) continue;
        hs_sparse S;
        const int rc = hs_sparse_analyze(&S, &bl, nq, nc, sym, W.iw, sizeof W.iw / sizeof W.iw[0],
                                         W.rw, sizeof W.rw / sizeof W.rw[0], W.tmp,
                                         sizeof W.tmp / sizeof W.tmp[0]);
        CHECK(rc == HS_OK);
        if (rc) return;
        /* every constraint comes after the positions it touches */
        int qfirst = 1;
        for (int k = 0; k < bl.ncq; ++k)
            for (int r = bl.cb[bl.cq[2 * k]]; r < bl.cb[bl.cq[2 * k] + 1]; ++r)
                for (int c = bl.qb[bl.cq[2 * k + 1]]; c < bl.qb[bl.cq[2 * k + 1] + 1]; ++c)
                    qfirst &= S.iperm[c] < S.iperm[nq + r];
        CHECK(qfirst);
        for (int rep = 0; rep < 3; ++rep) {
            random_values(&bl, nq, nc, sym, creg, gr_pert);
            const int64_t t0 = S.tally;
            const double d = compare_once(&S, sym, 0);
            CHECK_RANGE(d, 0.0, tol);
#ifdef HS_SPARSE_TALLY
            CHECK(S.tally - t0 == inner_from_ops(&S));
#else
            (void)t0;
#endif
        }
    }
}

/* The step matrix of eq. 6b of a shipped model at its initial state: A = M - h fu - h^2 fq
 * (analytic Jacobian when there is one), -G^T at q0, Gr = G at a perturbed q (as positions-
 * first index-2 uses G(q*) in the rows); the model's own block pattern, nlinks sets the
 * parameter "n" of the parameter-sized models. */
static void model_suite(const hs_model_type *T, double nlinks, double tol)
{
    hs_model m;
    union { hs_real r[32]; double align; } P;
    CHECK(hs_model_init(&m, T, &P) == HS_OK);
    if (nlinks > 0.0) CHECK(hs_model_set_param(&m, "n", (hs_real)nlinks) == HS_OK);
    const int nq = m.d.nq, nc = m.d.nc, n = nq + nc;
    if (n > SP_MAXN || m.d.nz > SP_MAXN || m.d.nin > SP_MAXN) { CHECK(0); return; }
    hs_blocks bl;
    CHECK((T->blocks ? T->blocks(&m, &bl, W.bbuf, (int)(sizeof W.bbuf / sizeof W.bbuf[0]))
                     : hs_blocks_dense(&m.d, &bl, W.bbuf, 8)) == HS_OK);
    hs_sparse S;
    CHECK(hs_sparse_analyze(&S, &bl, nq, nc, 0, W.iw, sizeof W.iw / sizeof W.iw[0], W.rw,
                            sizeof W.rw / sizeof W.rw[0], W.tmp, sizeof W.tmp / sizeof W.tmp[0]) == HS_OK);
    const hs_real h = HS_R(1e-3);
    static hs_real q[SP_MAXN], u[SP_MAXN], z[SP_MAXN], in[SP_MAXN], qs[SP_MAXN];
    for (int i = 0; i < SP_MAXN; ++i) in[i] = HS_R(0.0);
    CHECK(T->initial(&m, HS_R(0.0), q, u, z) == HS_OK);
    CHECK(T->mass(&m, HS_R(0.0), q, W.A) == HS_OK);
    const int nA = hs_blocks_qq_size(&bl);
    for (int i = 0; i < nA; ++i) { W.fq[i] = HS_R(0.0); W.fu[i] = HS_R(0.0); }
    if (T->force_jac) CHECK(T->force_jac(&m, HS_R(0.0), q, u, z, in, W.fq, W.fu) == HS_OK);
    for (int i = 0; i < nA; ++i) W.A[i] = W.A[i] - h * W.fu[i] - h * h * W.fq[i];
    if (nc > 0) {
        CHECK(T->constraint(&m, HS_R(0.0), q, NULL, W.G, NULL) == HS_OK);
        for (int i = 0; i < nq; ++i) qs[i] = q[i] + h * u[i] + HS_R(0.01) * (hs_real)rnd();
        CHECK(T->constraint(&m, h, qs, NULL, W.Gr, NULL) == HS_OK);
    }
    for (int i = 0; i < nc; ++i) W.C[i] = HS_R(0.0);
    for (int i = 0; i < n * n; ++i) W.K[i] = HS_R(0.0);
    unpack(bl.qq, bl.nqq, bl.qb, bl.qb, W.A, HS_R(1.0), W.K, n, 0, 0, 0);
    if (nc > 0) {
        unpack(bl.cq, bl.ncq, bl.cb, bl.qb, W.G, HS_R(-1.0), W.K, n, nq, 0, 1);
        unpack(bl.cq, bl.ncq, bl.cb, bl.qb, W.Gr, HS_R(1.0), W.K, n, nq, 0, 0);
    }
    CHECK_RANGE(compare_once(&S, 0, 0), 0.0, tol);
}

void test_sparse(void)
{
    const double tol = sizeof(hs_real) == 8 ? 1e-12 : 1e-4;
    rng_state = 12345u;
    /* nonsymmetric A and Gr != G (index-2 positions first), no regularization */
    random_suite(0, 0.0, 0.05, tol);
    /* nonsymmetric with a regularized multiplier block */
    random_suite(0, 1e-3, 0.05, tol);
    /* symmetric quasi-definite (SPOOK): LDL^T */
    random_suite(1, 1e-2, 0.0, tol);

    /* redundant constraints: a doubled constraint block (identical rows) is singular without
     * regularization and factors with it; the solution then agrees with the dense LU's */
    {
        hs_blocks bl;
        int nq, nc;
        random_blocks(&bl, 6, 3, 0, &nq, &nc);
        /* make constraint block 2 a copy of block 1 (same size, same position blocks) */
        W.bufc[1] = 1; W.bufc[2] = 2; W.bufc[3] = 3;
        nc = 3;
        int ncq = 0;
        for (int c = 0; c < 3; ++c) {
            W.cq[2 * ncq] = c; W.cq[2 * ncq + 1] = c == 0 ? 0 : 2; ++ncq;
            W.cq[2 * ncq] = c; W.cq[2 * ncq + 1] = c == 0 ? 1 : 3; ++ncq;
        }
        bl.ncq = ncq;
        hs_sparse S;
        CHECK(hs_sparse_analyze(&S, &bl, nq, nc, 1, W.iw, sizeof W.iw / sizeof W.iw[0], W.rw,
                                sizeof W.rw / sizeof W.rw[0], W.tmp, sizeof W.tmp / sizeof W.tmp[0]) == HS_OK);
        random_values(&bl, nq, nc, 1, 0.0, 0.0);
        /* rows of constraint 2 := rows of constraint 1 (the packed G of c = 1 and c = 2 have
         * the same block list, so copy their entries) */
        const int w2 = (W.bufq[3] - W.bufq[2]), w3 = (W.bufq[4] - W.bufq[3]);
        const int base1 = (W.bufq[1] - W.bufq[0]) + (W.bufq[2] - W.bufq[1]);
        for (int e = 0; e < w2 + w3; ++e) W.G[base1 + w2 + w3 + e] = W.G[base1 + e];
        hs_sparse_load(&S, HS_SP_QQ, W.A, HS_R(1.0), 0);
        hs_sparse_load(&S, HS_SP_GT, W.G, HS_R(1.0), 0);
        hs_sparse_load_cdiag(&S, NULL, HS_R(0.0));
        CHECK(hs_sparse_factor(&S) == HS_E_SINGULAR);
        /* above the singular threshold n eps max|K| of the real type */
        for (int i = 0; i < nc; ++i) W.C[i] = sizeof(hs_real) == 8 ? HS_R(1e-6) : HS_R(1e-2);
        hs_sparse_load_cdiag(&S, W.C, HS_R(-1.0));
        CHECK(hs_sparse_factor(&S) == HS_OK);
        /* the solution satisfies K x = b to the rounding of its size */
        for (int i = 0; i < nq + nc; ++i) { W.b[i] = (hs_real)rnd(); W.xs[i] = W.b[i]; }
        hs_sparse_solve_refined(&S, W.xs);
        hs_sparse_matvec(&S, W.xs, W.r);
        CHECK_RANGE(rel_diff(W.r, W.b, nq + nc), 0.0, sizeof(hs_real) == 8 ? 1e-10 : 1e-3);
    }

    /* a NaN value is refused, the work vectors stay clean for the next factorization */
    {
        hs_blocks bl;
        int nq, nc;
        random_blocks(&bl, 5, 3, 2, &nq, &nc);
        hs_sparse S;
        CHECK(hs_sparse_analyze(&S, &bl, nq, nc, 0, W.iw, sizeof W.iw / sizeof W.iw[0], W.rw,
                                sizeof W.rw / sizeof W.rw[0], W.tmp, sizeof W.tmp / sizeof W.tmp[0]) == HS_OK);
        random_values(&bl, nq, nc, 0, 0.0, 0.05);
        const hs_real a0 = W.A[0];
        W.A[0] = W.A[0] * (hs_real)__builtin_nan("");
        hs_sparse_load(&S, HS_SP_QQ, W.A, HS_R(1.0), 0);
        CHECK(hs_sparse_factor(&S) == HS_E_SINGULAR);
        W.A[0] = a0;
        CHECK_RANGE(compare_once(&S, 0, 0), 0.0, tol);
    }

    /* arenas: a query with NULL arenas reports the sizes, a short arena is refused */
    {
        hs_blocks bl;
        int nq, nc;
        random_blocks(&bl, 8, 5, 3, &nq, &nc);
        hs_sparse S;
        CHECK(hs_sparse_analyze(&S, &bl, nq, nc, 0, NULL, 0, NULL, 0, W.tmp, sizeof W.tmp / sizeof W.tmp[0]) == HS_E_SIZE);
        CHECK(S.need_ints > 0 && S.need_reals > 0);
        CHECK(hs_sparse_analyze(&S, &bl, nq, nc, 0, W.iw, S.need_ints - 1, W.rw, S.need_reals, W.tmp,
                                sizeof W.tmp / sizeof W.tmp[0]) == HS_E_SIZE);
        CHECK(hs_sparse_analyze(&S, &bl, nq, nc, 0, W.iw, S.need_ints, W.rw, S.need_reals, W.tmp,
                                S.need_tmp) == HS_OK);
        CHECK(hs_sparse_analyze(&S, &bl, nq, nc, 0, W.iw, S.need_ints, W.rw, S.need_reals, W.tmp,
                                S.need_tmp - 1) == HS_E_SIZE);
    }

    /* the shipped models' step matrices (the parameter-sized ones at sizes the dense
     * reference holds) */
    for (int mi = 0; hs_model_registry[mi]; ++mi) {
        const hs_model_type *T = hs_model_registry[mi];
        hs_real nl;
        hs_model probe;
        union { hs_real r[32]; double align; } P;
        hs_model_init(&probe, T, &P);
        const int sized = hs_model_get_param(&probe, "n", &nl) == HS_OK;
        if (!sized) model_suite(T, 0.0, tol);
        else
            for (int k = 1; k <= 3; ++k) {
                /* 3, 6, 9 rods for the chain; 1, 2, 3 links for the ladder */
                const int ladder = T->name[0] == 'l'; /* "ladder" vs "chain" */
                const double nn = ladder ? (double)k : (double)(3 * k);
                model_suite(T, nn, tol);
            }
    }
}
