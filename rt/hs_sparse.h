/* hs_sparse.h - the sparse backend of rt/hs_linsys: static-order L D U / L D L^T for the
 * structurally symmetric KKT matrices [[A, G1^T], [G2, -C]] of the stepper, QDLDL-style:
 * analysis once at init, numeric factor and solve per step, no allocation.
 *
 * Analysis (init): the scalar pattern (CSC, both triangles, every diagonal present) is
 * compressed to its blocks (runs of consecutive unknowns with identical columns: a body's
 * coordinates, a joint's equations), a minimum-degree order of the block graph is computed
 * under the rule "a multiplier block is eliminated only once every position block its own rows
 * touch is eliminated" (its rows in the original pattern, not the fill's: a body's norm row
 * goes right after its body), then the elimination tree, the pattern of L (U^T has L's), the
 * slot of every entry and the right-looking program of the updates (contiguous runs of slots
 * where L's pattern has them), and the exact operation counts. The per-step loops run over
 * these fixed arrays only: no pivot is chosen from the values and no loop count depends on
 * them, so every factorization does the same work (test_sparse checks it by counting).
 *
 * Why no pivoting is safe here. The positions come first: A = M - h fu - h^2 fq (+ h^2 K_g)
 * is M (symmetric positive definite) plus O(h) terms, so it factors stably without pivoting
 * while its symmetric part stays positive definite. The multipliers then factor the Schur
 * complement -(G2 A^-1 G1^T + C), negative definite for G1 = G2 of full rank, and for rank-
 * deficient (redundant) G as soon as C > 0: a symmetric quasi-definite matrix [[A, G^T],
 * [G, -C]] (A, C positive definite) has an L D L^T for every symmetric order (Vanderbei 1995),
 * and eliminating the positions first keeps the multipliers' pivots at the size of
 * G A^-1 G^T + C instead of C alone. The order's rule is that argument applied to the leading
 * subsystem at each multiplier: the positions eliminated before it include all its rows touch,
 * so its pivot is one of G_S A_SS^-1 G_S^T over full rows of G. A pivot that is non-finite or not above n eps max|K| is
 * replaced by 1 so the work stays fixed, and the factorization reports HS_E_SINGULAR.
 *
 * Arenas: `sym` (ints, analysis, read-only afterwards) and `num` (reals, one numeric factor);
 * their sizes come from the analysis' query (see hs_sparse_analyze). */
#ifndef HS_SPARSE_H
#define HS_SPARSE_H

#include "hs_linsys.h"

/* Position of (i, j) in the CSC pattern Ap (n + 1 column starts), Ai (rows ascending per
 * column), by binary search in column j; -1 if absent. The analysis and the linear-system
 * layer's maps both use it (init only). */
int hs_csc_find(const int *Ap, const int *Ai, int i, int j);

/* Scratch ints hs_sparse_analyze needs for order n and at most nnz pattern entries (closed
 * form): a block-graph bitset (n blocks at most), the pattern's upper part and index arrays. */
size_t hs_sparse_tmp_ints(int n, int nnz);

/* Analysis of the n x n pattern Ap (n + 1), Ai (Ap[n], rows ascending per column, both
 * triangles, structurally symmetric, every diagonal present), kind (n: 0 position-like,
 * 1 multiplier-like; -(g + 1) a position of leaf group g, 2 + g a multiplier that may follow
 * group g's positions alone: rt/hs_linsys.h), symmetric = 1 when the values will be exactly symmetric (L D L^T, about
 * half the work). tmp (ntmp >= hs_sparse_tmp_ints) is scratch. With sym == NULL only the sizes
 * *nsym_need (ints of sym: a bound, the update program counted at its largest, sum over L's
 * columns of c (c + 1) / 2 ints) and *nnum_need (reals of one numeric factor) are computed;
 * otherwise the analysis is written into sym (nsym ints, at least the query's) and
 * *nsym_need is set to the ints it used (never more than the query's). HS_OK, HS_E_SIZE (an
 * arena too small or an invalid pattern), HS_E_NULL. */
hs_status hs_sparse_analyze(int n, const int *Ap, const int *Ai, const int *kind, int symmetric,
                      int *tmp, size_t ntmp, int *sym, size_t nsym, size_t *nsym_need,
                      size_t *nnum_need);

/* Numeric factorization of the values Ax (Ap[n] of the analyzed pattern, its order) into num.
 * HS_OK, or HS_E_SINGULAR for a non-finite value or a pivot not above n eps max|Ax|; the work
 * is the same either way. */
hs_status hs_sparse_factor(const int *sym, const hs_real *Ax, hs_real *num);

/* Where the factor wants the entry p (0 <= p < Ap[n]) of the analyzed pattern: its index in
 * num (an entry of L, of U when unsymmetric, or a diagonal), or -1 when the factor does not
 * read it (a symmetric analysis' other triangle); p = -1 gives the count of such slots (they
 * are num[0 .. count): nnz(L) + n symmetric, 2 nnz(L) + n unsymmetric). A table look-up. */
int hs_sparse_slot(const int *sym, int p);

/* hs_sparse_factor with the values already written into num at the slots hs_sparse_slot gives
 * (every other slot of L's (and U's) entries and the diagonal zero): the same factor, without
 * the copy. */
hs_status hs_sparse_factor_slots(const int *sym, hs_real *num);

/* Solves K x = b with the factor num: b (n) is overwritten by x; work (n) is scratch. */
void hs_sparse_solve(const int *sym, const hs_real *num, hs_real *b, hs_real *work);

/* hs_sparse_solve for a b (n) whose position unknowns (kind 0) are zero: the forward pass
 * skips the columns such a b does not reach. */
void hs_sparse_solve_c(const int *sym, const hs_real *num, hs_real *b, hs_real *work);

/* y (n) = K x (n) with the values Ax (for residuals and iterative refinement). */
void hs_sparse_matvec(const int *sym, const hs_real *Ax, const hs_real *x, hs_real *y);

/* hs_sparse_solve plus one step of iterative refinement, x += K^-1 (b - K x): fixed cost (two
 * solves, one product). b (n) is overwritten by x; work, r (n each) are scratch. */
void hs_sparse_solve_refined(const int *sym, const hs_real *Ax, const hs_real *num, hs_real *b,
                             hs_real *work, hs_real *r);

/* Floating-point operations (+ - * /) of one factorization and one solve, fixed at analysis. */
void hs_sparse_ops(const int *sym, long *factor_flops, long *solve_flops);

/* Sizes found by the analysis: strictly lower entries of L (*nnz_l), blocks of the block graph
 * (*nblocks), strictly upper entries of K (*nnz_a); any pointer may be NULL. */
void hs_sparse_info(const int *sym, int *nnz_l, int *nblocks, int *nnz_a);

/* New position -> original unknown of the elimination order (n ints inside sym). */
const int *hs_sparse_perm(const int *sym);

/* The backend table hs_linsys uses (name "ldlt"): the functions above. */
extern const hs_ls_backend hs_sparse_backend;

#ifdef HS_SPARSE_TALLY
/* Inner multiply-add iterations of every factorization run so far (test builds only). */
extern long hs_sparse_tally;
#endif

#endif
