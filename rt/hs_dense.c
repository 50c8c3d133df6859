/* hs_dense.c - dense LU with partial pivoting, fixed operation count. */
#include "hs_dense.h"

/* Full unrolling of the short loops of the small L D L^T (n a constant from the dispatcher):
 * the same operations in the same order, without the loop and index work that dominates at
 * n <= 8 (the car axle's step and projection systems). */
#if defined(__GNUC__) || defined(__clang__)
#define HS_UNROLL _Pragma("GCC unroll 8")
#else
#define HS_UNROLL
#endif

/* The body of hs_lu_factor; n is a constant where the dispatcher below gives one, so the
 * compiler unrolls the short loops of the small systems (the same operations in the same order:
 * the same bits as with n a variable). */
static inline int lu_factor_n(hs_real *A, int *piv, const int n)
{
    /* Scale for the relative pivot threshold: a pivot below n*eps*max|A| means the matrix is
     * singular to working precision (e.g. a rank-deficient constraint Jacobian). */
    hs_real amax = HS_R(0.0);
    /* x - x is +0 for every finite x and NaN for +-Inf and NaN, so the sum is 0 exactly when
     * every entry is finite: two operations per entry instead of a compare per entry. */
    hs_real nf = HS_R(0.0);
    for (int i = 0; i < n * n; ++i) {
        hs_real a = hs_abs(A[i]);
        nf += A[i] - A[i];
        amax = a > amax ? a : amax;
    }
    if (!(nf == HS_R(0.0)) || amax == HS_R(0.0)) { return HS_E_SINGULAR; }
    const hs_real tiny = (hs_real)n * HS_EPS * amax;
    int ok = 1;
    for (int k = 0; k < n; ++k) {
        int p = k;
        hs_real best = hs_abs(A[k * n + k]);
        for (int i = k + 1; i < n; ++i) {
            hs_real a = hs_abs(A[i * n + k]);
            if (a > best) { best = a; p = i; }
        }
        piv[k] = p;
        /* Always swap (p may equal k) so the work does not depend on the data. */
        for (int j = 0; j < n; ++j) {
            hs_real tmp = A[k * n + j];
            A[k * n + j] = A[p * n + j];
            A[p * n + j] = tmp;
        }
        hs_real d = A[k * n + k];
        ok &= (hs_abs(d) > tiny) & hs_isfinite(d);
        /* A failed pivot is replaced by 1 so the remaining work stays finite and fixed; the
         * fault is reported at the end. */
        /* MISRA Ref 10.3.2 [hs_real selected by ?:] */
        hs_real dinv = HS_R(1.0) / (ok ? d : HS_R(1.0));
        for (int i = k + 1; i < n; ++i) {
            hs_real l = A[i * n + k] * dinv;
            A[i * n + k] = l;
            for (int j = k + 1; j < n; ++j) { A[i * n + j] -= l * A[k * n + j]; }
        }
    }
    return ok ? HS_OK : HS_E_SINGULAR;
}

hs_status hs_lu_factor(hs_real *A, int *piv, int n)
{
    switch (n) {
    case 3: return lu_factor_n(A, piv, 3);
    case 4: return lu_factor_n(A, piv, 4);
    case 5: return lu_factor_n(A, piv, 5);
    case 6: return lu_factor_n(A, piv, 6);
    case 7: return lu_factor_n(A, piv, 7);
    case 8: return lu_factor_n(A, piv, 8);
    default: return lu_factor_n(A, piv, n);
    }
}

static inline void lu_solve_n(const hs_real *LU, const int *piv, const int n, hs_real *b)
{
    for (int k = 0; k < n; ++k) {
        hs_real tmp = b[k];
        b[k] = b[piv[k]];
        b[piv[k]] = tmp;
    }
    for (int i = 1; i < n; ++i) {
        hs_real s = b[i];
        for (int j = 0; j < i; ++j) { s -= LU[i * n + j] * b[j]; }
        b[i] = s;
    }
    for (int i = n - 1; i >= 0; --i) {
        hs_real s = b[i];
        for (int j = i + 1; j < n; ++j) { s -= LU[i * n + j] * b[j]; }
        b[i] = s / LU[i * n + i];
    }
}

void hs_lu_solve(const hs_real *LU, const int *piv, int n, hs_real *b)
{
    switch (n) {
    case 3: lu_solve_n(LU, piv, 3, b); break;
    case 4: lu_solve_n(LU, piv, 4, b); break;
    case 5: lu_solve_n(LU, piv, 5, b); break;
    case 6: lu_solve_n(LU, piv, 6, b); break;
    case 7: lu_solve_n(LU, piv, 7, b); break;
    case 8: lu_solve_n(LU, piv, 8, b); break;
    default: lu_solve_n(LU, piv, n, b); break;
    }
}

void hs_matvec(const hs_real *A, int m, int n, const hs_real *x, hs_real *y)
{
    for (int i = 0; i < m; ++i) {
        hs_real s = HS_R(0.0);
        for (int j = 0; j < n; ++j) { s += A[i * n + j] * x[j]; }
        y[i] = s;
    }
}

void hs_matvec_t(const hs_real *A, int m, int n, const hs_real *x, hs_real *y)
{
    for (int j = 0; j < n; ++j) { y[j] = HS_R(0.0); }
    for (int i = 0; i < m; ++i) {
        for (int j = 0; j < n; ++j) { y[j] += A[i * n + j] * x[i]; }
    }
}

/* The body of hs_ldlt_factor (n a constant where the dispatcher gives one). Right-looking on
 * the lower triangle; row k's upper part keeps column k before scaling (t_i = d_k L_ik), so
 * the update L_ik d_k L_jk costs one multiplication. */
static inline int ldlt_factor_n(hs_real *A, const int n)
{
    hs_real amax = HS_R(0.0), nf = HS_R(0.0);
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j <= i; ++j) {
            const hs_real v = A[i * n + j];
            const hs_real a = hs_abs(v);
            nf += v - v;
            amax = (a > amax) ? a : amax;
        }
    }
    if (!(nf == HS_R(0.0)) || (amax == HS_R(0.0))) { return HS_E_SINGULAR; }
    const hs_real tiny = (hs_real)n * HS_EPS * amax;
    int ok = 1;
    HS_UNROLL
    for (int k = 0; k < n; ++k) {
        const hs_real d = A[k * n + k];
        const int good = (hs_abs(d) > tiny) & hs_isfinite(d);
        ok &= good;
        /* a failed pivot becomes 1 so the remaining work stays finite and fixed */
        const hs_real di = HS_R(1.0) / ((good != 0) ? d : HS_R(1.0));
        A[k * n + k] = di;
        HS_UNROLL
        for (int i = k + 1; i < n; ++i) {
            const hs_real t = A[i * n + k];
            A[k * n + i] = t;
            A[i * n + k] = t * di;
        }
        HS_UNROLL
        for (int i = k + 1; i < n; ++i) {
            const hs_real l = A[i * n + k];
            HS_UNROLL
            for (int j = k + 1; j <= i; ++j) { A[i * n + j] -= l * A[k * n + j]; }
        }
    }
    return (ok != 0) ? HS_OK : HS_E_SINGULAR;
}

hs_status hs_ldlt_factor(hs_real *A, int n)
{
    switch (n) {
    case 3: return ldlt_factor_n(A, 3);
    case 4: return ldlt_factor_n(A, 4);
    case 5: return ldlt_factor_n(A, 5);
    case 6: return ldlt_factor_n(A, 6);
    case 7: return ldlt_factor_n(A, 7);
    case 8: return ldlt_factor_n(A, 8);
    default: return ldlt_factor_n(A, n);
    }
}

static inline void ldlt_solve_n(const hs_real *LD, const int n, hs_real *b)
{
    HS_UNROLL
    for (int i = 1; i < n; ++i) {
        hs_real s = b[i];
        HS_UNROLL
        for (int j = 0; j < i; ++j) { s -= LD[i * n + j] * b[j]; }
        b[i] = s;
    }
    /* D^-1 (on the diagonal) folded into the backward pass with L^T read by columns */
    HS_UNROLL
    for (int i = n - 1; i >= 0; --i) {
        hs_real s = b[i] * LD[i * n + i];
        HS_UNROLL
        for (int j = i + 1; j < n; ++j) { s -= LD[j * n + i] * b[j]; }
        b[i] = s;
    }
}

void hs_ldlt_solve(const hs_real *LD, int n, hs_real *b)
{
    switch (n) {
    case 3: ldlt_solve_n(LD, 3, b); break;
    case 4: ldlt_solve_n(LD, 4, b); break;
    case 5: ldlt_solve_n(LD, 5, b); break;
    case 6: ldlt_solve_n(LD, 6, b); break;
    case 7: ldlt_solve_n(LD, 7, b); break;
    case 8: ldlt_solve_n(LD, 8, b); break;
    default: ldlt_solve_n(LD, n, b); break;
    }
}
