/* hs_dense.h - dense LU with partial pivoting and a fixed operation count.
 *
 * The pivot search always scans the whole column and the row swap is always done (a row may
 * swap with itself), so the number of floating-point operations depends on n only. This is
 * the general (unsymmetric, indefinite) solver the index-2 step matrix of eq. 6b needs. */
#ifndef HS_DENSE_H
#define HS_DENSE_H

#include "hs_types.h"

/* Factors A (n x n, row-major) in place into L\U with row pivots piv (n).
 * HS_E_SINGULAR when a pivot is zero, non-finite, or below n*eps times the largest entry of A. */
hs_status hs_lu_factor(hs_real *A, int *piv, int n);

/* Solves A x = b with the factors of hs_lu_factor; b (n) is overwritten by x. */
void hs_lu_solve(const hs_real *LU, const int *piv, int n, hs_real *b);

/* Factors the symmetric A (n x n, row-major, its lower triangle read) in place into L D L^T
 * without pivoting: unit L in the strict lower triangle, D^-1 on the diagonal, the strict upper
 * triangle scratch. For the quasi-definite step and projection matrices of rt/hs_linsys.h with
 * the positions first (M positive definite plus O(h), G of full rank: the sparse backend's
 * argument, rt/hs_sparse.h), at a sixth of n^3 operations against the LU's third and no
 * pivot search. HS_E_SINGULAR as hs_lu_factor (the work stays fixed). */
hs_status hs_ldlt_factor(hs_real *A, int n);

/* Solves A x = b with the factor of hs_ldlt_factor; b (n) is overwritten by x. */
void hs_ldlt_solve(const hs_real *LD, int n, hs_real *b);

/* y (m) = A (m x n) x (n). */
void hs_matvec(const hs_real *A, int m, int n, const hs_real *x, hs_real *y);

/* y (n) = A^T x for A (m x n), x (m). */
void hs_matvec_t(const hs_real *A, int m, int n, const hs_real *x, hs_real *y);

#endif
