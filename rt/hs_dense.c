/* hs_dense.c - dense LU with partial pivoting, fixed operation count. */
#include "hs_dense.h"

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

int hs_lu_factor(hs_real *A, int *piv, int n)
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
