/* hs_sparse.h - sparse LDU / LDL^T with a static pivot order for the block-structured KKT
 * matrices of the stepper, K = [[A, B], [Gr, -C]] (A nq x nq: M - h fu - h^2 fq (+ K_g);
 * B nq x nc: -G^T or G^T; Gr nc x nq: G at the same or another position; C nc x nc diagonal
 * regularization, may be zero).
 *
 * Three phases, as QDLDL has them (symbolic once, numeric per step, no allocation):
 *   analyze (init): a fill-reducing order of the model's block graph (minimum degree on blocks,
 *     with the rule "a constraint block is eliminated only after every position block it still
 *     touches"), the elimination tree, the patterns of L and U (U^T has L's pattern: the
 *     pattern is symmetrized), the maps from the model's packed blocks to the factor's
 *     storage, and the exact floating-point operation counts of factor and solve;
 *   load (per step): scatter packed block values through the maps;
 *   factor / solve (per step): loops over the fixed pattern only. No pivot is chosen from the
 *     values and no loop count depends on them, so every factorization does the same work.
 *
 * Why no pivoting is safe here. The order eliminates the position block first: A = M - h fu -
 * h^2 fq is M (SPD) plus O(h) terms, so its factorization without pivoting is stable while the
 * symmetric part of A stays positive definite. Then the constraints factor the Schur complement
 * -(Gr A^-1 B' + C) (B' = -B), which is negative definite for Gr = G and C >= 0 with G of full
 * rank, and stays so for rank-deficient (redundant) G when C > 0: a symmetric quasi-definite
 * matrix [[A, G^T], [G, -C]] (A, C positive definite) has an LDL^T for every symmetric order
 * (Vanderbei 1995). A pivot that is non-finite or below n eps max|K| is reported as
 * HS_E_SINGULAR (replaced by 1 so the work and the loop counts stay fixed).
 *
 * sym = 1 (symmetric values, e.g. SPOOK with G^T and -Sigma after flipping lambda's sign):
 * U = L^T is not formed and the factor costs about half. */
#ifndef HS_SPARSE_H
#define HS_SPARSE_H

#include "hs_model.h"

/* Bit slots of hs_sparse_load's `part`. */
#define HS_SP_QQ 0 /* the nq x nq block A, packed by the model's qq block list */
#define HS_SP_GT 1 /* the nq x nc block K(q, nq + c) = coef G(c, q), G packed by the cq list */
#define HS_SP_GR 2 /* the nc x nq block K(nq + c, q) = coef G(c, q), G packed by the cq list */

/* Analysis result and views into the caller's arenas; sizes in the comments. */
typedef struct hs_sparse {
    int n, nq, nc;   /* n = nq + nc */
    int sym;         /* 1: values symmetric, L D L^T; 0: L D U */
    int nb;          /* blocks of the block graph (position blocks + constraint blocks) */
    int nnz_a;       /* strictly upper entries of the (symmetrized, permuted) pattern of K */
    int nnz_l;       /* strictly lower entries of L (= strictly upper entries of U) */
    int nqq_vals;    /* reals of a packed nq x nq matrix */
    int ncq_vals;    /* reals of a packed G */
    int64_t ops_factor; /* floating-point operations of one hs_sparse_factor (+ - * /) */
    int64_t ops_solve;  /* floating-point operations of one hs_sparse_solve */
    int64_t tally;   /* inner-loop multiply-adds actually run (only with -DHS_SPARSE_TALLY) */
    size_t need_ints, need_reals, need_tmp; /* arena sizes the analysis asked for */
    int *perm;       /* (n) new index -> original index (original: q 0..nq-1, then nq + c) */
    int *iperm;      /* (n) original index -> new index */
    int *Ap, *Ai;    /* (n + 1), (nnz_a) upper pattern of the permuted K by column, rows ascending */
    int *Lp, *Li;    /* (n + 1), (nnz_l) L by column, rows ascending; U^T has the same pattern */
    int *Rp, *Ri;    /* (n + 1), (nnz_l) L by row, columns ascending */
    int *Rpos;       /* (nnz_l) position in Li of each row entry */
    int *map_qq;     /* (nqq_vals) slot in V of each packed nq x nq entry */
    int *map_gt;     /* (ncq_vals) slot in V of K(q, nq + c) for each packed G entry (c, q) */
    int *map_gr;     /* (ncq_vals) slot in V of K(nq + c, q) for each packed G entry (c, q) */
    hs_real *V;      /* (n + 2 nnz_a; n + nnz_a + 1 when sym) K: diagonal, upper by column,
                      * lower (mirror positions) by row; with sym the lower triangle goes to
                      * one sink slot at the end. Slots never loaded stay zero. */
    hs_real *Lx;     /* (nnz_l) L by column */
    hs_real *Ux;     /* (nnz_l) U^T by column (U by row); = Lx when sym */
    hs_real *Dinv;   /* (n) inverse pivots */
    hs_real *x, *y, *z; /* (n) each, work vectors (zero between calls: x, y) */
} hs_sparse;

/* Scratch ints the analysis needs for a block graph of nb blocks, n unknowns and nlist block
 * pairs (nqq + ncq) (compile-time expression). */
#define HS_SPARSE_TMP_INTS(nb, n, nlist) \
    ((nb) * (((nb) + 31) / 32) /* block adjacency bitset */ + 7 * (nb) + 1 \
     + 2 * (nlist) /* original block adjacency */ + 4 * (n) /* etree, counts, marks */)

/* Analysis of the KKT matrix of a model with sizes nq, nc and block pattern b (hs_model.h's
 * packed convention; a dense model passes hs_blocks_dense). The int and real arenas iw (niw)
 * and rw (nrw) receive the permanent arrays, tmp (ntmp, HS_SPARSE_TMP_INTS) is scratch for
 * the analysis only. HS_E_SIZE when an arena is too small: need_ints, need_reals and need_tmp
 * then say how much is needed (call with NULL arenas to ask). */
int hs_sparse_analyze(hs_sparse *S, const hs_blocks *b, int nq, int nc, int sym,
                      int *iw, size_t niw, hs_real *rw, size_t nrw, int *tmp, size_t ntmp);

/* Writes (add = 0) or adds (add = 1) coef * vals into part HS_SP_QQ (vals: packed nq x nq),
 * HS_SP_GT or HS_SP_GR (vals: packed G). With sym only the upper triangle is kept: the entries
 * of A below the diagonal and all of GR go to the sink (constraints follow their positions in
 * the order, so GT is the upper part). */
void hs_sparse_load(hs_sparse *S, int part, const hs_real *vals, hs_real coef, int add);

/* Writes the constraint diagonal K(nq + i, nq + i) = coef c[i] (nc); c = NULL writes zeros. */
void hs_sparse_load_cdiag(hs_sparse *S, const hs_real *c, hs_real coef);

/* Numeric factorization of the loaded K. HS_E_SINGULAR for a non-finite value or a pivot below
 * n eps max|K|; always does ops_factor operations. */
int hs_sparse_factor(hs_sparse *S);

/* Solves K x = b with the factors; b (n, original order) is overwritten by x. */
void hs_sparse_solve(hs_sparse *S, hs_real *b);

/* hs_sparse_solve plus one step of iterative refinement with the loaded K: x += K^-1 (b - K x).
 * Fixed cost: two solves and one product. */
void hs_sparse_solve_refined(hs_sparse *S, hs_real *b);

/* y (n) = K x (n) with the loaded values, original order. */
void hs_sparse_matvec(hs_sparse *S, const hs_real *x, hs_real *y);

/* Floating-point operations of one factorization and of one solve, fixed by the analysis. */
int64_t hs_sparse_ops_factor(const hs_sparse *S);
int64_t hs_sparse_ops_solve(const hs_sparse *S);

#endif
