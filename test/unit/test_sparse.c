/* test_sparse.c - the static-order sparse L D U / L D L^T (rt/hs_sparse) against the dense LU
 * with partial pivoting on random block-structured KKT and quasi-definite systems and on the
 * shipped models' step matrices; operation count fixed (counted); constraints ordered after
 * their positions; redundant constraints with and without regularization; bad values. */
#include "hs_dense.h"
#include "hs_models.h"
#include "hs_sparse.h"
#include "hs_test.h"
#include "tutil.h"

#include <string.h>

#include "tarena.h"

#define SP_MAXN 96
#define SP_MAXB 64
#define SP_SYM 50000
#define SP_NUM 20000

typedef struct sp_work {
    int bbuf[4096];
    int bufq[SP_MAXB + 1], bufc[SP_MAXB + 1], qq[2 * SP_MAXB * SP_MAXB], cq[2 * SP_MAXB * SP_MAXB];
    hs_real A[SP_MAXN * SP_MAXN], G[SP_MAXN * SP_MAXN], Gr[SP_MAXN * SP_MAXN];
    hs_real fu[SP_MAXN * SP_MAXN]; /* fq in LU (read before compare_once's dense LU), the boards' RAM */
    hs_real K[SP_MAXN * SP_MAXN], LU[SP_MAXN * SP_MAXN];
    hs_real b[SP_MAXN], xd[SP_MAXN], xs[SP_MAXN], r[SP_MAXN], work[SP_MAXN], work2[SP_MAXN];
    int piv[SP_MAXN];
    unsigned char S[SP_MAXN * SP_MAXN];
    int Ap[SP_MAXN + 1], Ai[SP_MAXN * SP_MAXN], kind[SP_MAXN];
    hs_real Ax[SP_MAXN * SP_MAXN];
    int sym[SP_SYM], tmp[SP_SYM];
    hs_real num[SP_NUM];
} sp_work;

hs_test_arena_u hs_test_arena;
typedef char sp_work_fits[(sizeof(sp_work) <= HS_TEST_ARENA_BYTES) ? 1 : -1];
#define W (*(sp_work *)(void *)hs_test_arena.b)

static uint64_t rng_state;
/* uniform in [-1, 1) from a 64-bit LCG (Knuth's MMIX constants): reproducible everywhere */
static double rnd(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(rng_state >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

static int rnd_int(int k) { return (int)((rnd() + 1.0) * 0.5 * k) % k; }

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

/* Packed block list -> dense D (ld columns) at row/col offsets, optionally transposed. */
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

/* The scalar pattern the linear-system layer hands the backend: A's blocks and their mirrors,
 * G at both places, C's diagonal blocks when reg, every diagonal; CSC with rows ascending. */
static void pattern_from_blocks(const hs_blocks *bl, int nq, int nc, int reg)
{
    const int n = nq + nc;
    for (int i = 0; i < n * n; ++i) W.S[i] = 0;
    for (int k = 0; k < bl->nqq; ++k) {
        const int I = bl->qq[2 * k], J = bl->qq[2 * k + 1];
        for (int r = bl->qb[I]; r < bl->qb[I + 1]; ++r)
            for (int c = bl->qb[J]; c < bl->qb[J + 1]; ++c) { W.S[r * n + c] = 1; W.S[c * n + r] = 1; }
    }
    for (int k = 0; k < bl->ncq && nc > 0; ++k) {
        const int I = bl->cq[2 * k], J = bl->cq[2 * k + 1];
        for (int r = bl->cb[I]; r < bl->cb[I + 1]; ++r)
            for (int c = bl->qb[J]; c < bl->qb[J + 1]; ++c) { W.S[(nq + r) * n + c] = 1; W.S[c * n + nq + r] = 1; }
    }
    if (reg)
        for (int k = 0; k < bl->ncb; ++k)
            for (int r = bl->cb[k]; r < bl->cb[k + 1]; ++r)
                for (int c = bl->cb[k]; c < bl->cb[k + 1]; ++c) W.S[(nq + r) * n + nq + c] = 1;
    for (int i = 0; i < n; ++i) W.S[i * n + i] = 1;
    W.Ap[0] = 0;
    for (int j = 0; j < n; ++j) {
        int p = W.Ap[j];
        for (int i = 0; i < n; ++i)
            if (W.S[i * n + j]) W.Ai[p++] = i;
        W.Ap[j + 1] = p;
        W.kind[j] = j < nq ? 0 : 1;
    }
}

/* Query, then analysis into W.sym; HS_OK or the failing code. */
static int analyze(int n, int symmetric)
{
    size_t ns = 0, nn = 0;
    const size_t nt = sizeof W.tmp / sizeof W.tmp[0];
    int rc = hs_sparse_analyze(n, W.Ap, W.Ai, W.kind, symmetric, W.tmp, nt, NULL, 0, &ns, &nn);
    if (rc) return rc;
    if (ns > sizeof W.sym / sizeof W.sym[0] || nn > sizeof W.num / sizeof W.num[0]) return HS_E_SIZE;
    return hs_sparse_analyze(n, W.Ap, W.Ai, W.kind, symmetric, W.tmp, nt, W.sym, ns, &ns, &nn);
}

#ifdef HS_SPARSE_TALLY
/* inner multiply-add iterations one factorization runs, from the analysis' operation count */
static long inner_from_ops(int n, int symmetric)
{
    long f, s;
    int nl;
    hs_sparse_ops(W.sym, &f, &s);
    hs_sparse_info(W.sym, &nl, NULL, NULL);
    return symmetric ? (f - n - 3L * nl) / 2 : (f - n - 4L * nl) / 4;
}
#endif

/* Values of the dense W.K into Ax, factor sparse and dense, solve one right-hand side; the
 * relative difference of the two solutions (1e300 when a factorization fails). Also checks
 * that the sparse product K x reproduces W.K column by column. */
static double compare_once(int n, int refine)
{
    for (int j = 0; j < n; ++j)
        for (int p = W.Ap[j]; p < W.Ap[j + 1]; ++p) W.Ax[p] = W.K[W.Ai[p] * n + j];
    int same = 1;
    for (int j = 0; j < n; ++j) {
        for (int i = 0; i < n; ++i) W.r[i] = HS_R(0.0);
        W.r[j] = HS_R(1.0);
        hs_sparse_matvec(W.sym, W.Ax, W.r, W.work);
        for (int i = 0; i < n; ++i) same &= W.work[i] == W.K[i * n + j];
    }
    CHECK(same);
    for (int i = 0; i < n; ++i) { W.b[i] = (hs_real)rnd(); W.xd[i] = W.b[i]; W.xs[i] = W.b[i]; }
    if (hs_sparse_factor(W.sym, W.Ax, W.num) != HS_OK) return 1e300;
    if (refine) hs_sparse_solve_refined(W.sym, W.Ax, W.num, W.xs, W.work, W.work2);
    else hs_sparse_solve(W.sym, W.num, W.xs, W.work);
    for (int i = 0; i < n * n; ++i) W.LU[i] = W.K[i];
    if (hs_lu_factor(W.LU, W.piv, n) != HS_OK) return 1e300;
    hs_lu_solve(W.LU, W.piv, n, W.xd);
    return rel_diff(W.xs, W.xd, n);
}

/* The factor's bits against an independent dense L D U (L D L^T when sym) without pivoting of
 * the permuted W.K (n), right-looking, each entry updated once per column in ascending column
 * order: L_ri = a_r / D_i, U_ir = b_r / D_i, K_r1r2 -= L_r1i b_r2, K_r2r1 -= U_ir1 a_r2,
 * D_r -= L_ri b_r (a, b: the column's and row's values before scaling), then the column-wise
 * forward and the row-wise backward solve. The sparse factor skips the structural zeros only,
 * whose products change no value (x - 0 y = x for finite y, but for the sign of a zero), so
 * the two solutions are equal (==). 1 when they are, 0 otherwise. */
static int same_bits_as_dense(int n, int sym)
{
    /* the dense factor in W.LU: compare_once's LU is done with (a 96 x 96 array of its own
     * overflowed the boards' unit image) */
    hs_real *D = W.LU;
    static hs_real a[SP_MAXN], bb[SP_MAXN], y[SP_MAXN];
    const int *perm = hs_sparse_perm(W.sym);
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c) D[r * n + c] = W.K[perm[r] * n + perm[c]];
    if (sym)
        for (int r = 0; r < n; ++r)
            for (int c = 0; c < r; ++c) D[r * n + c] = D[c * n + r]; /* the upper triangle's values */
    for (int i = 0; i < n; ++i) {
        const hs_real di = HS_R(1.0) / D[i * n + i];
        D[i * n + i] = di;
        for (int r = i + 1; r < n; ++r) {
            a[r] = D[r * n + i];
            bb[r] = D[i * n + r];
            D[r * n + i] = a[r] * di;
            D[i * n + r] = bb[r] * di;
        }
        for (int r1 = i + 1; r1 < n; ++r1) {
            const hs_real l = D[r1 * n + i], u = D[i * n + r1];
            D[r1 * n + r1] -= l * (sym ? a[r1] : bb[r1]);
            for (int r2 = r1 + 1; r2 < n; ++r2) {
                if (sym) {
                    D[r2 * n + r1] -= l * a[r2];
                    D[r1 * n + r2] = D[r2 * n + r1];
                } else {
                    D[r1 * n + r2] -= l * bb[r2];
                    D[r2 * n + r1] -= u * a[r2];
                }
            }
        }
    }
    for (int i = 0; i < n; ++i) { W.b[i] = (hs_real)rnd(); W.xs[i] = W.b[i]; }
    for (int i = 0; i < n; ++i) y[i] = W.b[perm[i]];
    if (hs_sparse_factor(W.sym, W.Ax, W.num) != HS_OK) return 0;
    hs_sparse_solve(W.sym, W.num, W.xs, W.work);
    for (int i = 0; i < n; ++i)
        for (int r = i + 1; r < n; ++r) y[r] -= D[r * n + i] * y[i];
    for (int i = n - 1; i >= 0; --i) {
        hs_real s = y[i] * D[i * n + i];
        for (int r = i + 1; r < n; ++r) s -= (sym ? D[r * n + i] : D[i * n + r]) * y[r];
        y[i] = s;
    }
    int same = 1;
    for (int i = 0; i < n; ++i) same &= W.xs[perm[i]] == y[i];
    return same;
}

/* Random block pattern: nqb position blocks (1-3 coordinates), ncb <= nqb constraint blocks
 * (1-2 equations); constraint block c touches position block c (where random_values puts a
 * dominant entry per equation, so G has full row rank) and maybe one other; a few off-diagonal
 * A blocks, mirrored when sym. */
static void random_blocks(hs_blocks *bl, int nqb, int ncb, int ncoupling, int sym, int *nq, int *nc)
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
        for (int p = 0; p < nqq; ++p)
            dup |= (W.qq[2 * p] == i && W.qq[2 * p + 1] == j) || (W.qq[2 * p] == j && W.qq[2 * p + 1] == i);
        if (dup || i == j) continue;
        W.qq[2 * nqq] = i; W.qq[2 * nqq + 1] = j; ++nqq;
        if (sym) { W.qq[2 * nqq] = j; W.qq[2 * nqq + 1] = i; ++nqq; }
    }
    for (int c = 0; c < ncb; ++c) {
        const int j = rnd_int(nqb);
        W.cq[2 * ncq] = c; W.cq[2 * ncq + 1] = c; ++ncq;
        if (j != c) { W.cq[2 * ncq] = c; W.cq[2 * ncq + 1] = j; ++ncq; }
    }
    bl->nqb = nqb; bl->ncb = ncb; bl->nqq = nqq; bl->ncq = ncq;
    bl->qb = W.bufq; bl->cb = W.bufc; bl->qq = W.qq; bl->cq = W.cq;
    *nq = W.bufq[nqb];
    *nc = W.bufc[ncb];
}

/* Dense W.K = [[A, -G^T], [Gr, C]] (unsymmetric: A SPD-dominant plus a nonsymmetric part, Gr a
 * perturbed G) or [[A, G^T], [G, -C]] (sym: A symmetric), on the pattern of bl. */
static void random_values(const hs_blocks *bl, int nq, int nc, int sym, double creg, double gr_pert)
{
    const int n = nq + nc;
    for (int i = 0; i < n * n; ++i) W.K[i] = HS_R(0.0);
    for (int k = 0; k < bl->nqq; ++k) {
        const int I = bl->qq[2 * k], J = bl->qq[2 * k + 1];
        for (int r = bl->qb[I]; r < bl->qb[I + 1]; ++r)
            for (int c = bl->qb[J]; c < bl->qb[J + 1]; ++c) {
                if (sym && (I > J || (I == J && r > c))) continue; /* mirrored below */
                const hs_real v = (hs_real)((r == c ? 4.0 + rnd() : 0.0) + 0.3 * rnd());
                W.K[r * n + c] = v;
                if (sym) W.K[c * n + r] = v;
            }
    }
    for (int k = 0; k < bl->ncq; ++k) {
        const int I = bl->cq[2 * k], J = bl->cq[2 * k + 1];
        for (int r = bl->cb[I]; r < bl->cb[I + 1]; ++r)
            for (int c = bl->qb[J]; c < bl->qb[J + 1]; ++c) {
                const int dom = I == J && r - bl->cb[I] == c - bl->qb[J];
                const hs_real g = (hs_real)((dom ? 3.0 : 0.0) + rnd());
                W.K[c * n + nq + r] = sym ? g : -g;
                W.K[(nq + r) * n + c] = sym ? g : (hs_real)((double)g + gr_pert * rnd());
            }
    }
    for (int i = 0; i < nc; ++i) {
        const hs_real cr = (hs_real)(creg * (1.0 + 0.5 * rnd()));
        W.K[(nq + i) * n + nq + i] = sym ? -cr : cr;
    }
}

static void random_suite(int sym, double creg, double gr_pert, double tol)
{
    for (int trial = 0; trial < (hs_test_quick ? 8 : 40); ++trial) {
        hs_blocks bl;
        int nq, nc;
        const int nqb = 2 + rnd_int(hs_test_quick ? 10 : 30), ncb = 1 + rnd_int(nqb);
        random_blocks(&bl, nqb, ncb, rnd_int(nqb), sym, &nq, &nc);
        const int n = nq + nc;
        if (n > SP_MAXN) continue;
        pattern_from_blocks(&bl, nq, nc, creg > 0.0);
        const int rc = analyze(n, sym);
        CHECK(rc == HS_OK);
        if (rc) return;
        /* every constraint comes after the positions it touches */
        int where[SP_MAXN];
        const int *perm = hs_sparse_perm(W.sym);
        for (int k = 0; k < n; ++k) where[perm[k]] = k;
        int qfirst = 1;
        for (int j = 0; j < nq; ++j)
            for (int p = W.Ap[j]; p < W.Ap[j + 1]; ++p)
                if (W.Ai[p] >= nq) qfirst &= where[j] < where[W.Ai[p]];
        CHECK(qfirst);
        for (int rep = 0; rep < 3; ++rep) {
            random_values(&bl, nq, nc, sym, creg, gr_pert);
#ifdef HS_SPARSE_TALLY
            const long t0 = hs_sparse_tally;
#endif
            CHECK_RANGE(compare_once(n, 0), 0.0, tol);
#ifdef HS_SPARSE_TALLY
            CHECK(hs_sparse_tally - t0 == inner_from_ops(n, sym));
#endif
            if (rep == 0) CHECK(same_bits_as_dense(n, sym));
        }
    }
}

/* The step matrix of eq. 6b of a shipped model at its initial state: A = M - h fu - h^2 fq
 * (analytic Jacobian when there is one), -G^T at q0, G2 = G at a perturbed q (positions-first
 * index-2 uses G(q*) in the rows); the model's own block pattern; nlinks sets the parameter
 * "n" of the parameter-sized models. */
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
    pattern_from_blocks(&bl, nq, nc, 0);
    CHECK(analyze(n, 0) == HS_OK);
    const hs_real h = HS_R(1e-3);
    static hs_real q[SP_MAXN], u[SP_MAXN], z[SP_MAXN], in[SP_MAXN], qs[SP_MAXN];
    for (int i = 0; i < SP_MAXN; ++i) in[i] = HS_R(0.0);
    CHECK(T->initial(&m, HS_R(0.0), q, u, z) == HS_OK);
    CHECK(T->mass(&m, HS_R(0.0), q, W.A) == HS_OK);
    const int nA = hs_blocks_qq_size(&bl);
    for (int i = 0; i < nA; ++i) { W.LU[i] = HS_R(0.0); W.fu[i] = HS_R(0.0); }
    if (T->force_jac) CHECK(T->force_jac(&m, HS_R(0.0), q, u, z, in, W.LU, W.fu) == HS_OK);
    for (int i = 0; i < nA; ++i) W.A[i] = W.A[i] - h * W.fu[i] - h * h * W.LU[i];
    if (nc > 0) {
        CHECK(T->constraint(&m, HS_R(0.0), q, NULL, W.G, NULL) == HS_OK);
        for (int i = 0; i < nq; ++i) qs[i] = q[i] + h * u[i] + HS_R(0.01) * (hs_real)rnd();
        CHECK(T->constraint(&m, h, qs, NULL, W.Gr, NULL) == HS_OK);
    }
    for (int i = 0; i < n * n; ++i) W.K[i] = HS_R(0.0);
    unpack(bl.qq, bl.nqq, bl.qb, bl.qb, W.A, HS_R(1.0), W.K, n, 0, 0, 0);
    if (nc > 0) {
        unpack(bl.cq, bl.ncq, bl.cb, bl.qb, W.G, HS_R(-1.0), W.K, n, nq, 0, 1);
        unpack(bl.cq, bl.ncq, bl.cb, bl.qb, W.Gr, HS_R(1.0), W.K, n, nq, 0, 0);
    }
    CHECK_RANGE(compare_once(n, 0), 0.0, tol);
}

void test_sparse(void)
{
    memset(&W, 0, sizeof W);
    const double tol = sizeof(hs_real) == 8 ? 1e-12 : 1e-4;
    rng_state = 12345u;
    /* nonsymmetric A and G2 != G1 (index-2 positions first), no regularization */
    random_suite(0, 0.0, 0.05, tol);
    /* nonsymmetric with a regularized multiplier block */
    random_suite(0, 1e-3, 0.05, tol);
    /* symmetric quasi-definite (SPOOK): L D L^T */
    random_suite(1, 1e-2, 0.0, tol);

    /* redundant constraints: constraint 2 doubles constraint 1. Singular without
     * regularization; with C > 0 (symmetric quasi-definite) it factors and K x = b holds */
    {
        hs_blocks bl;
        int nq, nc;
        random_blocks(&bl, 6, 3, 0, 1, &nq, &nc);
        W.bufc[1] = 1; W.bufc[2] = 2; W.bufc[3] = 3;
        nc = 3;
        int ncq = 0;
        for (int c = 0; c < 3; ++c) {
            W.cq[2 * ncq] = c; W.cq[2 * ncq + 1] = c == 0 ? 0 : 2; ++ncq;
            W.cq[2 * ncq] = c; W.cq[2 * ncq + 1] = c == 0 ? 1 : 3; ++ncq;
        }
        bl.ncq = ncq;
        const int n = nq + nc;
        pattern_from_blocks(&bl, nq, nc, 1);
        CHECK(analyze(n, 1) == HS_OK);
        random_values(&bl, nq, nc, 1, 0.0, 0.0);
        for (int j = 0; j < nq; ++j) { /* row and column of constraint 2 := those of 1 */
            W.K[(nq + 2) * n + j] = W.K[(nq + 1) * n + j];
            W.K[j * n + nq + 2] = W.K[j * n + nq + 1];
        }
        for (int j = 0; j < n; ++j)
            for (int p = W.Ap[j]; p < W.Ap[j + 1]; ++p) W.Ax[p] = W.K[W.Ai[p] * n + j];
        CHECK(hs_sparse_factor(W.sym, W.Ax, W.num) == HS_E_SINGULAR);
        /* above the singular threshold n eps max|K| of the real type */
        const hs_real c = sizeof(hs_real) == 8 ? HS_R(1e-6) : HS_R(1e-2);
        for (int i = 0; i < nc; ++i) W.K[(nq + i) * n + nq + i] = -c;
        for (int j = 0; j < n; ++j)
            for (int p = W.Ap[j]; p < W.Ap[j + 1]; ++p) W.Ax[p] = W.K[W.Ai[p] * n + j];
        CHECK(hs_sparse_factor(W.sym, W.Ax, W.num) == HS_OK);
        for (int i = 0; i < n; ++i) { W.b[i] = (hs_real)rnd(); W.xs[i] = W.b[i]; }
        hs_sparse_solve_refined(W.sym, W.Ax, W.num, W.xs, W.work, W.work2);
        hs_sparse_matvec(W.sym, W.Ax, W.xs, W.r);
        CHECK_RANGE(rel_diff(W.r, W.b, n), 0.0, sizeof(hs_real) == 8 ? 1e-10 : 1e-3);
    }

    /* a NaN value is refused; the work vectors stay clean for the next factorization */
    {
        hs_blocks bl;
        int nq, nc;
        random_blocks(&bl, 5, 3, 2, 0, &nq, &nc);
        const int n = nq + nc;
        pattern_from_blocks(&bl, nq, nc, 0);
        CHECK(analyze(n, 0) == HS_OK);
        random_values(&bl, nq, nc, 0, 0.0, 0.05);
        for (int j = 0; j < n; ++j)
            for (int p = W.Ap[j]; p < W.Ap[j + 1]; ++p) W.Ax[p] = W.K[W.Ai[p] * n + j];
        W.Ax[0] = W.Ax[0] * (hs_real)__builtin_nan("");
        CHECK(hs_sparse_factor(W.sym, W.Ax, W.num) == HS_E_SINGULAR);
        CHECK_RANGE(compare_once(n, 0), 0.0, tol);
    }

    /* arenas: the query's sizes suffice (the analysis reports its exact need, never more); a
     * short one is refused; a bad pattern too */
    {
        hs_blocks bl;
        int nq, nc;
        random_blocks(&bl, 8, 5, 3, 0, &nq, &nc);
        const int n = nq + nc;
        pattern_from_blocks(&bl, nq, nc, 0);
        size_t ns = 0, nn = 0;
        const size_t nt = hs_sparse_tmp_ints(n, W.Ap[n]);
        CHECK(hs_sparse_analyze(n, W.Ap, W.Ai, W.kind, 0, W.tmp, nt, NULL, 0, &ns, &nn) == HS_OK);
        CHECK(hs_sparse_analyze(n, W.Ap, W.Ai, W.kind, 0, W.tmp, nt - 1, NULL, 0, &ns, &nn) == HS_E_SIZE);
        CHECK(hs_sparse_analyze(n, W.Ap, W.Ai, W.kind, 0, W.tmp, nt, W.sym, ns - 1, &ns, &nn) == HS_E_SIZE);
        const size_t nq_sym = ns;
        CHECK(hs_sparse_analyze(n, W.Ap, W.Ai, W.kind, 0, W.tmp, nt, W.sym, ns, &ns, &nn) == HS_OK);
        CHECK(ns <= nq_sym);
        const int a1 = W.Ai[1];
        W.Ai[1] = W.Ai[0]; /* rows not ascending */
        CHECK(hs_sparse_analyze(n, W.Ap, W.Ai, W.kind, 0, W.tmp, nt, W.sym, ns, &ns, &nn) == HS_E_SIZE);
        W.Ai[1] = a1;
    }

    /* the shipped models' step matrices (the parameter-sized ones at sizes the dense
     * reference holds: 3, 6, 9 rods of the chain, 1, 2, 3 links of the ladder) */
    for (int mi = 0; hs_model_registry[mi]; ++mi) {
        const hs_model_type *T = hs_model_registry[mi];
        hs_real nl;
        hs_model probe;
        union { hs_real r[32]; double align; } P;
        hs_model_init(&probe, T, &P);
        if (hs_model_get_param(&probe, "n", &nl) != HS_OK) model_suite(T, 0.0, tol);
        else
            for (int k = 1; k <= 3; ++k) model_suite(T, T->name[0] == 'l' ? (double)k : (double)(3 * k), tol);
    }
}

/* ---- the range-space path of rt/hs_linsys (A diagonal by its mask, symmetric values):
 * random diagonal A, random G on random block patterns (chains and wider couplings, so S's
 * half bandwidth falls on both sides of HS_LS_BAND_MAX), with and without C, both signs of
 * the G^T block; the solution against the dense LU of the same matrix. */
void test_sparse_schur(void)
{
    memset(&W, 0, sizeof W);
    rng_state = 0x5eed5c40u;
    const double tol = sizeof(hs_real) == 8 ? 1e-10 : 1e-3;
    /* packed blocks: at most 30 blocks of 3 x 3 (A), 2 x 2 (C), 2 blocks of 2 x 3 per row block (G) */
    static hs_real M[1024], G[1024], C[1024];
    static int qmask[1024];
    int band = 0, back = 0, other = 0;
    for (int trial = 0; trial < (hs_test_quick ? 24 : 80); ++trial) {
        hs_blocks bl;
        int nq, nc;
        const int nqb = 2 + rnd_int(30), ncb = 1 + rnd_int(nqb);
        random_blocks(&bl, nqb, ncb, 0, 1, &nq, &nc);
        const int n = nq + nc;
        if (n > SP_MAXN) continue;
        if (hs_blocks_qq_size(&bl) > 1024 || hs_blocks_cq_size(&bl) > 1024) { CHECK(0); continue; }
        const int reg = trial % 3 == 2, sign = (trial % 2 == 0) ? -1 : 1;
        random_values(&bl, nq, nc, 1, reg ? 0.5 : 0.0, 0.0);
        /* A diagonal: its mask says so, its values are */
        int o = 0;
        for (int k = 0; k < bl.nqq; ++k) {
            const int I = bl.qq[2 * k], J = bl.qq[2 * k + 1];
            for (int r = bl.qb[I]; r < bl.qb[I + 1]; ++r)
                for (int c = bl.qb[J]; c < bl.qb[J + 1]; ++c, ++o) {
                    if (r != c) W.K[r * n + c] = HS_R(0.0);
                    qmask[o] = r == c;
                    M[o] = W.K[r * n + c];
                }
        }
        o = 0;
        for (int k = 0; k < bl.ncq; ++k) {
            const int I = bl.cq[2 * k], J = bl.cq[2 * k + 1];
            for (int r = bl.cb[I]; r < bl.cb[I + 1]; ++r)
                for (int c = bl.qb[J]; c < bl.qb[J + 1]; ++c, ++o) {
                    G[o] = W.K[(nq + r) * n + c];
                    if (sign < 0) W.K[c * n + nq + r] = -G[o];
                }
        }
        o = 0;
        for (int k = 0; k < bl.ncb; ++k)
            for (int r = bl.cb[k]; r < bl.cb[k + 1]; ++r)
                for (int c = bl.cb[k]; c < bl.cb[k + 1]; ++c, ++o) C[o] = -W.K[(nq + r) * n + nq + c];
        const size_t ntmp = sizeof W.tmp / sizeof W.tmp[0];
        hs_linsys_def d = hs_linsys_default_def();
        d.kind = HS_LS_SPARSE; d.be = &hs_sparse_backend; d.b = &bl; d.qmask = qmask;
        d.nq = nq; d.nc = nc; d.sign = sign; d.reg = reg; d.symmetric = 1;
        hs_linsys_size need;
        CHECK(hs_linsys_need(&d, W.tmp, ntmp, &need) == HS_OK);
        const size_t ns = need.nsym, nr = need.nfac_reals;
        if (ns > sizeof W.sym / sizeof W.sym[0] || nr > sizeof W.num / sizeof W.num[0]) { CHECK(0); continue; }
        hs_linsys ls;
        CHECK(hs_linsys_init(&ls, &d, W.sym, ns, W.tmp, ntmp) == HS_OK);
        band += ls.schur == 1 && ls.sbw > 0;
        back += ls.schur == 1 && ls.sbw == 0;
        other += ls.schur == 0;
        hs_ls_fac F;
        hs_linsys_fac_bind(&ls, &F, W.num, NULL);
        CHECK(hs_linsys_factor(&ls, &F, M, HS_R(0.0), NULL, HS_R(0.0), NULL, G, G, reg ? C : NULL) == HS_OK);
        for (int i = 0; i < n; ++i) { W.b[i] = (hs_real)rnd(); W.xd[i] = W.b[i]; W.xs[i] = W.b[i]; }
        /* a right-hand side zero in the positions, as the projections pass it */
        const int zpos = trial % 4 == 1;
        if (zpos) for (int i = 0; i < nq; ++i) { W.b[i] = W.xd[i] = W.xs[i] = HS_R(0.0); }
        if (zpos) hs_linsys_solve_c(&ls, &F, W.xs);
        else hs_linsys_solve(&ls, &F, W.xs);
        for (int i = 0; i < n * n; ++i) W.LU[i] = W.K[i];
        CHECK(hs_lu_factor(W.LU, W.piv, n) == HS_OK);
        hs_lu_solve(W.LU, W.piv, n, W.xd);
        CHECK_RANGE(rel_diff(W.xs, W.xd, n), 0.0, tol);
        /* a zero on A's diagonal is reported */
        M[0] = HS_R(0.0);
        CHECK(hs_linsys_factor(&ls, &F, M, HS_R(0.0), NULL, HS_R(0.0), NULL, G, G, reg ? C : NULL) == HS_E_SINGULAR);
    }
    /* both ways of factoring S were taken, and nothing fell back to the whole matrix */
    CHECK(band > 0 && back > 0 && other == 0);
}

/* Leaf groups (rt/hs_linsys.h): a chassis (6 positions) and four wheels (4 each) coupled to it
 * through A, each wheel with 2 rows to the chassis (kind 2 + its group) and a row on itself
 * alone (a norm row, kind 1). With the groups each wheel's rows follow the wheel, before the
 * chassis; the factor has less fill and fewer operations than with kinds 0 and 1, and its
 * solution is the dense LU's, symmetric and not. */
static int leaf_pattern(int groups, int sym, long *flops, int *nnz_l)
{
    hs_blocks bl;
    W.bufq[0] = 0; W.bufq[1] = 6;
    for (int w = 1; w <= 4; ++w) W.bufq[w + 1] = W.bufq[w] + 4;
    W.bufc[0] = 0;
    for (int c = 0; c < 8; ++c) W.bufc[c + 1] = W.bufc[c] + (c < 4 ? 2 : 1);
    int nqq = 0, ncq = 0;
    for (int i = 0; i < 5; ++i) { W.qq[2 * nqq] = i; W.qq[2 * nqq + 1] = i; ++nqq; }
    for (int w = 1; w <= 4; ++w) {
        W.qq[2 * nqq] = 0; W.qq[2 * nqq + 1] = w; ++nqq;
        W.qq[2 * nqq] = w; W.qq[2 * nqq + 1] = 0; ++nqq;
        W.cq[2 * ncq] = w - 1; W.cq[2 * ncq + 1] = w; ++ncq;
        W.cq[2 * ncq] = w - 1; W.cq[2 * ncq + 1] = 0; ++ncq;
        W.cq[2 * ncq] = 3 + w; W.cq[2 * ncq + 1] = w; ++ncq;
    }
    bl.nqb = 5; bl.ncb = 8; bl.nqq = nqq; bl.ncq = ncq;
    bl.qb = W.bufq; bl.cb = W.bufc; bl.qq = W.qq; bl.cq = W.cq;
    const int nq = W.bufq[5], nc = W.bufc[8], n = nq + nc;
    pattern_from_blocks(&bl, nq, nc, 0);
    for (int w = 1; groups && w <= 4; ++w) {
        for (int j = W.bufq[w]; j < W.bufq[w + 1]; ++j) W.kind[j] = -(w + 1);
        for (int i = W.bufc[w - 1]; i < W.bufc[w]; ++i) W.kind[nq + i] = 2 + w;
    }
    if (analyze(n, sym) != HS_OK) return 0;
    long s;
    hs_sparse_ops(W.sym, flops, &s);
    hs_sparse_info(W.sym, nnz_l, NULL, NULL);
    /* values: A SPD-dominant (symmetric when sym), each row dominant on a wheel position of
     * its own (full row rank on the wheel: the leaf's rows), random elsewhere */
    for (int i = 0; i < n * n; ++i) W.K[i] = HS_R(0.0);
    for (int k = 0; k < nqq; ++k) {
        const int I = W.qq[2 * k], J = W.qq[2 * k + 1];
        for (int r = W.bufq[I]; r < W.bufq[I + 1]; ++r)
            for (int c = W.bufq[J]; c < W.bufq[J + 1]; ++c) {
                if (sym && r > c) continue;
                const hs_real v = (hs_real)((r == c ? 4.0 + rnd() : 0.0) + 0.3 * rnd());
                W.K[r * n + c] = v;
                W.K[c * n + r] = sym ? v : (hs_real)((double)v + 0.1 * rnd());
            }
    }
    for (int k = 0; k < ncq; ++k) {
        const int I = W.cq[2 * k], J = W.cq[2 * k + 1];
        for (int r = W.bufc[I]; r < W.bufc[I + 1]; ++r)
            for (int c = W.bufq[J]; c < W.bufq[J + 1]; ++c) {
                const int dom = J > 0 && c - W.bufq[J] == (I < 4 ? r - W.bufc[I] : 3);
                const hs_real g = (hs_real)((dom ? 3.0 : 0.0) + rnd());
                W.K[c * n + nq + r] = sym ? g : -g;
                W.K[(nq + r) * n + c] = g;
            }
    }
    if (groups) {
        /* each wheel's rows after its positions, and before the chassis' when the wheel is
         * (minimum degree takes the chassis once it is as cheap as the last wheel) */
        int where[SP_MAXN];
        const int *perm = hs_sparse_perm(W.sym);
        for (int k = 0; k < n; ++k) where[perm[k]] = k;
        int before = 1, early = 0;
        for (int w = 1; w <= 4; ++w) {
            const int first = where[W.bufq[w]] < where[0];
            early += first;
            for (int i = W.bufc[w - 1]; i < W.bufc[w]; ++i) {
                for (int j = W.bufq[w]; j < W.bufq[w + 1]; ++j) before &= where[j] < where[nq + i];
                for (int j = 0; j < 6 && first; ++j) before &= where[nq + i] < where[j];
            }
        }
        CHECK(before);
        CHECK(early >= 3);
    }
    const double tol = sizeof(hs_real) == 8 ? 1e-12 : 1e-4;
    CHECK_RANGE(compare_once(n, 0), 0.0, tol);
    return 1;
}

void test_sparse_leaf(void)
{
    memset(&W, 0, sizeof W);
    rng_state = 4242u;
    for (int sym = 0; sym < 2; ++sym) {
        long f0 = 0, f1 = 0;
        int l0 = 0, l1 = 0;
        CHECK(leaf_pattern(0, sym, &f0, &l0));
        CHECK(leaf_pattern(1, sym, &f1, &l1));
        /* the chassis last: its 6 x 6 block alone, no rows in its fill */
        CHECK(l1 < l0);
        CHECK(f1 < f0);
    }
}
