/* hs_linsys.h - the linear-system layer under the stepper: assemble from blocks, analyze once
 * at init, factor and solve every step with an operation count fixed at init.
 *
 * The system has n = nq + nc unknowns (x1: nq position-like, x2: nc multiplier-like):
 *
 *     [ A      s G1^T ] [x1]   [b1]        A  (nq x nq)  packed by the blocks qq
 *     [ G2     -C     ] [x2] = [b2]        G1, G2 (nc x nq) packed by the blocks cq
 *                                          C  (nc x nc)  packed by the diagonal blocks of cb,
 *                                                         or absent (C = 0)
 * with s = +1 or -1 (the stepper's step matrix carries -G^T, its projection matrix +G^T). G1
 * and G2 may be the same array (symmetric systems) or not (the positions-first index-2 step:
 * G^T at q_n, G at q_{n+1}). "Packed" is the convention of rt/hs_model.h: the listed blocks one
 * after the other in list order, each dense row-major; a model without blocks is one block each
 * way and packed is plain dense row-major. A system with nc = 0 is A alone.
 *
 * Phases:
 *   0. hs_linsys_def    what the system is (pattern, sizes, sign, C, symmetry, masks)
 *   1. hs_linsys_need   sizes of the persistent arenas for one pattern and backend (init time)
 *   2. hs_linsys_init   analysis (init time): for the dense backend nothing but sizes; for the
 *                       sparse backend the scalar pattern of the whole matrix, the map from the
 *                       packed blocks into it, the backend's ordering, elimination tree, factor
 *                       pattern and its fixed operation count
 *   3. hs_linsys_factor / hs_linsys_solve   every step: fixed loops, no allocation, no pivot
 *                       choice that changes the amount of work
 *
 * Numeric factors live in hs_ls_fac objects separate from the analysis, so one analysis serves
 * several factors (the projection keeps the factor at q_n while it builds the one at q_{n+1}).
 *
 * Backends (fixed at init):
 *   HS_LS_DENSE   dense LU with partial pivoting and a fixed operation count (rt/hs_dense.h):
 *                 the general solver, and the cheapest one for tiny models (the car axle, n = 6)
 *   HS_LS_SPARSE  a structurally symmetric sparse factorization without pivoting (LDL^T for
 *                 symmetric values, L D U otherwise) through the hs_ls_backend table below,
 *                 implemented by rt/hs_sparse.[ch]
 *   HS_LS_AUTO    dense when the model declares no blocks, when no sparse backend is given,
 *                 or when n <= HS_LS_DENSE_MAX; sparse otherwise.
 *
 * Range-space path (sparse backend, chosen at init): when the masks leave A diagonal (a chain
 * of planar bodies in absolute coordinates with M constant and fq = fu = 0), the values are
 * symmetric and nc > 0, the positions are eliminated by hand: S = G A^-1 G^T + s C (nc x nc,
 * the pattern of G G^T) is assembled column by column of G and factored by the backend, the
 * solve is x2 = s S^-1 (G A^-1 b1 - b2), x1 = A^-1 (b1 - s G^T x2). The same elimination the
 * whole-matrix factor does with positions first, without its index traffic; other rounding.
 * S is factored as a band when its half bandwidth is at most HS_LS_BAND_MAX (a chain's joints
 * in order), else by the backend on S's pattern.
 *
 * Files: rt/hs_linsys_init.c (choice, def, sizes, the whole matrix' analysis and maps, factor
 * binding) on rt/hs_linsys_rs.c (the range-space path's analysis); rt/hs_linsys_num.c (per
 * step: assembly, factor, solves, the range-space residual and Newton step) and
 * rt/hs_linsys_blk.c (packed block products, hs_linsys_g_mv); rt/hs_linsys_int.h is what they
 * share. */
#ifndef HS_LINSYS_H
#define HS_LINSYS_H

#include "hs_model.h"

/* Backend choice. */
typedef enum hs_ls_kind {
    HS_LS_AUTO = 0,   /* dense for tiny or unstructured systems, else sparse (see above) */
    HS_LS_DENSE = 1,  /* dense LU with partial pivoting */
    HS_LS_SPARSE = 2  /* the sparse backend given to hs_linsys_init */
} hs_ls_kind;

/* Largest n = nq + nc for which HS_LS_AUTO keeps the dense LU: below it the dense LU's
 * (2/3) n^3 flops cost no more than a sparse factor's index traffic (measured on the chain). */
#define HS_LS_DENSE_MAX 24

/* Largest half bandwidth of S (in the constraints' own order) the range-space path factors
 * as a band L D L^T, without the backend's index lists: a chain's S has 3. */
#define HS_LS_BAND_MAX 8

/* ---------------------------------------------------------------------------------------
 * The contract a sparse backend fulfils (rt/hs_sparse.c provides one such table).
 *
 * The layer hands the backend the SCALAR pattern of the whole n x n matrix in compressed
 * sparse column form, both triangles, structurally symmetric (entry (i,j) present iff (j,i)
 * present), every diagonal entry present (a multiplier row's diagonal is a structural entry
 * even when C = 0: its value is then 0), row indices ascending within each column:
 *     Ap (n + 1): column starts, Ap[0] = 0, Ap[n] = nnz
 *     Ai (nnz):   row index of each entry
 * and a kind per row/column, kind[i] = 0 for a position-like unknown (i < nq: its diagonal
 * block of A is positive definite for every method the stepper offers) and 1 for a
 * multiplier-like unknown (i >= nq: its diagonal is -C_ii, zero without regularization).
 * Leaf groups refine it: a position of leaf group g has kind -(g + 1), and a multiplier whose
 * rows restricted to group g's positions have full row rank together with the group's own rows
 * (a leaf body's joint rows to its one other body) has kind 2 + g; the backend may then
 * eliminate it once group g's positions are, before its other positions (the layer sets
 * them from hs_linsys_def.cleaf; 0 and 1 alone are always valid).
 *
 * Without regularization (C = 0) the matrix is not quasi-definite, so a fixed elimination
 * order must be admissible: no multiplier unknown may be eliminated before at least one
 * position unknown it couples to (Baraff's rule; eliminating every position unknown first is
 * always admissible for M positive definite and G of full row rank). With regularization
 * (C positive definite, s = +1, symmetric values) every symmetric order is admissible.
 * The backend chooses its fill-reducing order under that rule.
 *
 * Values arrive every step in one array Ax (nnz) in exactly the order of Ai. When the
 * analysis was told symmetric = 1 the layer guarantees Ax is exactly symmetric (the backend
 * may read one triangle and factor L D L^T); with symmetric = 0 it must factor L D U on the
 * same pattern (U's pattern is L's transpose). No pivoting: a zero, tiny (below n eps times
 * the largest |Ax|) or non-finite pivot is replaced by 1 so the work stays fixed, and
 * factor returns HS_E_SINGULAR at the end.
 *
 * All the backend's state lives in two arenas the layer gives it: `sym` (ints, written by
 * analyze, read-only afterwards, shared by every numeric factor of that analysis) and `num`
 * (reals, one per numeric factor, written by factor, read by solve). No static state, no
 * allocation; every per-step loop count depends on the analysis only. */
typedef struct hs_ls_backend {
    const char *name; /* short name printed by tools, e.g. "ldlt" */

    /* Ints of temporary scratch analyze needs for order n and nnz entries (closed form, so
     * the layer can size its init-time scratch before calling analyze). */
    size_t (*tmp_ints)(int n, int nnz);

    /* Analysis of the pattern (Ap, Ai, kind) above with symmetric = 0/1, using tmp (ntmp ints,
     * contents undefined afterwards). With sym == NULL it only computes *nsym (ints of sym)
     * and *nnum (reals of one numeric factor, including any work vectors factor/solve need);
     * otherwise it also writes the analysis into sym (nsym ints, >= *nsym or HS_E_SIZE).
     * HS_OK, HS_E_SIZE (tmp or sym too small) or HS_E_SINGULAR (no admissible order). */
    int (*analyze)(int n, const int *Ap, const int *Ai, const int *kind, int symmetric,
                   int *tmp, size_t ntmp, int *sym, size_t nsym, size_t *nsym_need,
                   size_t *nnum_need);

    /* Numeric factorization of the values Ax (nnz, order of Ai) into num (the *nnum reals
     * analyze reported). Fixed work; HS_OK or HS_E_SINGULAR (see above). */
    int (*factor)(const int *sym, const hs_real *Ax, hs_real *num);

    /* Solves the factored system for b (n, overwritten by x). work (n reals) is scratch. */
    void (*solve)(const int *sym, const hs_real *num, hs_real *b, hs_real *work);

    /* Floating-point operations of one factor and of one solve (fixed by the analysis). */
    void (*ops)(const int *sym, long *factor_flops, long *solve_flops);

    /* Optional (both NULL, or both given): where factor reads entry p (0 <= p < nnz) of the
     * pattern inside num, or -1 when it reads it nowhere, and for p = -1 the count c of value
     * slots num[0 .. c) (0: no slots for this analysis) (init time); and factor on the values
     * written straight into num at those slots, every value slot no entry lands on holding
     * zero. The layer then assembles into num: no Ax copy, no gather. */
    int (*slot)(const int *sym, int p);
    int (*factor_slots)(const int *sym, hs_real *num);

    /* Optional: solve for a b zero in the position unknowns (kind 0), as solve. */
    void (*solve_c)(const int *sym, const hs_real *num, hs_real *b, hs_real *work);
} hs_ls_backend;

/* ------------------------------------------------------------------------------------- */

/* One analyzed pattern. Fields are read-only for users (shapes in comments). */
typedef struct hs_linsys {
    hs_ls_kind kind;        /* HS_LS_DENSE or HS_LS_SPARSE after init (never AUTO) */
    int nq, nc, n;          /* unknowns: n = nq + nc */
    int sign;               /* s: +1 or -1, sign of the G1^T block */
    int reg;                /* 1 when the -C block is assembled */
    int symmetric;          /* 1 when A is symmetric and G1 = G2 (told at init) */
    int dense1;             /* dense backend and one block each way: plain row-major copies */
    int ldlt;               /* dense backend: L D L^T without pivoting (hs_ldlt_factor) instead of
                             * the LU, for a system its user knows symmetric (set after init) */
    hs_blocks b;            /* pattern of A (qq), G (cq) and C (cb diagonal blocks) */
    int nA, nG, nC;         /* reals of packed A, G, C */
    const hs_ls_backend *be;/* sparse backend, NULL for dense */
    int nnz;                /* sparse: entries of the scalar pattern */
    int *sym;               /* sparse: the backend's analysis (nsym ints) */
    int *mapA, *mapG1, *mapG2, *mapC; /* sparse: position in Ax of each packed entry (nA, nG, nG, nC);
                             * nnz (a sink slot) for an entry its mask leaves out; with slots,
                             * its index in the factor's num (nnum, a sink, when not read) */
    int slots;              /* sparse: the maps point into num (the backend's factor_slots) */
    int nnum;               /* sparse: reals of one numeric factor (the sink of the slot maps) */
    int nzero;              /* slots: entries of zlist */
    int *zlist;             /* slots: (nzero) slots of num no map writes, zeroed before a factor */
    int *act;               /* slots: (source, slot) pairs of the map entries the factor reads,
                             * A's, G1's, G2's and C's lists one after the other */
    int nact[4];            /* slots: pairs in each of those lists */
    const int *qmask, *cmask; /* init only: (nA), (nG) 0 where the entry is always zero, or NULL */
    const int *cleaf;       /* init only: (ncb) leaf position block of each constraint block, or NULL */
    int schur;              /* sparse, range-space path: A diagonal (by qmask), symmetric values;
                             * the backend factors S = G A^-1 G^T + s C (nc x nc) instead of the
                             * whole matrix, sym then holding S's analysis and the lists below */
    int nent;               /* schur: G entries the mask keeps (by column) */
    int *sdiag;             /* schur: (nq) offset in packed A of each diagonal entry */
    int *scol;              /* schur: (nq + 1) first entry of each column of G in sent, srow */
    int *sent, *srow;       /* schur: (nent) offset in packed G and row of each entry */
    int *spair;             /* schur: slot in num of S(r_e, r_f) for each pair f <= e of a column */
    int *srp;               /* schur: (nc + 1) first entry of each row of G in sroff, srcol */
    int *sroff, *srcol;     /* schur: (nent) offset in packed G and column of each entry, by row,
                             * each row's in packed order (that of hs_blk_cq_mv's sums) */
    int sbw;                /* schur: S's half bandwidth + 1 when S is factored as a band
                             * (half bandwidth <= HS_LS_BAND_MAX), 0 when by the backend */
    int nCp;                /* schur, reg: (packed C offset, slot) pairs in sCp */
    int *sCp;               /* schur, reg: (2 nCp) the C entries S's factor reads */
    long flops_factor;      /* operations of one factor (fixed at init) */
    long flops_solve;       /* operations of one solve (fixed at init) */
} hs_linsys;

/* Storage of one numeric factor: dense n x n LU and n pivots, or the sparse backend's num
 * array plus the assembled values Ax (nnz) and a solve work vector (n); on the range-space
 * path Ax holds A^-1's diagonal (nq) and then G A^-1 (nent, the order of sent). */
typedef struct hs_ls_fac {
    hs_real *x;             /* dense: (n x n) L\U; sparse: (nnum) factor */
    int *piv;               /* dense: (n) row pivots; sparse: unused */
    hs_real *Ax;            /* sparse: (nnz) assembled values; dense: unused */
    hs_real *work;          /* sparse: (n) solve scratch; dense: unused */
} hs_ls_fac;

/* What one linear system is, for hs_linsys_need and hs_linsys_init: start from
 * hs_linsys_default_def() and set the fields that differ, e.g.
 *     hs_linsys_def d = hs_linsys_default_def();
 *     d.kind = HS_LS_SPARSE; d.be = &hs_sparse_backend; d.b = &blocks; d.nq = nq; d.nc = nc;
 * The masks hold 0 for an entry that is exactly zero at every point (M, the force Jacobians
 * and the curvature for qmask; G for cmask) and nonzero for one that may not be; the sparse
 * backend leaves the zeros out of the pattern, so neither they nor the fill they would cause
 * cost any work. The values are those of the unmasked system (the terms left out are exact
 * zeros). NULL: every entry may be nonzero; the dense backend ignores them. */
typedef struct hs_linsys_def {
    hs_ls_kind kind;          /* HS_LS_DENSE or HS_LS_SPARSE (resolve AUTO with hs_linsys_choose) */
    const hs_ls_backend *be;  /* the sparse backend; NULL (the default) for the dense one */
    const hs_blocks *b;       /* pattern of A (qq), G (cq) and C (cb); must outlive the hs_linsys */
    const int *qmask;         /* (nA ints, packed like A) zero mask of A, or NULL (the default) */
    const int *cmask;         /* (nG ints, packed like G) zero mask of G, or NULL (the default) */
    const int *cleaf;         /* (ncb ints) per constraint block the position block of the leaf
                               * body its rows may follow alone (hs_model_type.leaf_rows), -1 for
                               * none; NULL (the default): none */
    int nq, nc;               /* unknowns: nq >= 1 position-like, nc >= 0 multiplier-like */
    int sign;                 /* s: +1 (the default) or -1, sign of the G1^T block */
    int reg;                  /* 1: the -C block is assembled; 0 (the default): C = 0 */
    int symmetric;            /* 1: A symmetric and G1 = G2; 0 (the default): L D U */
} hs_linsys_def;

/* Arena needs of one system with one backend (hs_linsys_need). */
typedef struct hs_linsys_size {
    size_t nsym;              /* persistent ints of the analysis */
    size_t nfac_reals;        /* reals of one numeric factor */
    size_t nfac_ints;         /* ints of one numeric factor */
    size_t ntmp;              /* temporary ints hs_linsys_init needs as scratch */
} hs_linsys_size;

/* The defaults of hs_linsys_def: dense, no backend, no pattern, no masks, nq = nc = 0 (to be
 * set), s = +1, C = 0, not symmetric. */
hs_linsys_def hs_linsys_default_def(void);

/* Arena needs of the system d into *need (zeroed first). d->kind must be DENSE or SPARSE
 * (resolve AUTO with hs_linsys_choose first). tmp (ntmp_avail ints) is scratch for the sparse
 * analysis' size query and may be NULL for the dense backend; HS_E_SIZE with need->ntmp set
 * when it is shorter than need->ntmp. */
hs_status hs_linsys_need(const hs_linsys_def *d, int *tmp, size_t ntmp_avail, hs_linsys_size *need);

/* The backend HS_LS_AUTO resolves to for this pattern (DENSE or SPARSE). */
hs_ls_kind hs_linsys_choose(hs_ls_kind kind, const hs_ls_backend *be, const hs_blocks *b,
                            int nq, int nc, int model_has_blocks);

/* Analysis: binds ls to the system d (d->b must outlive ls; the masks are read during the
 * call only), writes the analysis into sym (nsym ints), using tmp (ntmp ints) as scratch. */
hs_status hs_linsys_init(hs_linsys *ls, const hs_linsys_def *d, int *sym, size_t nsym, int *tmp, size_t ntmp);

/* Binds the numeric factor F to reals (nfac_reals) and ints (nfac_ints) as sized by need. */
void hs_linsys_fac_bind(const hs_linsys *ls, hs_ls_fac *F, hs_real *reals, int *ints);

/* Assembles [[A, s G1^T], [G2, -C]] from the packed blocks, A = M - (c1 F1 + c2 F2) (A = M
 * when F1 is NULL; F1 and F2 are both given or both NULL; C is read only when reg), and factors
 * it into F. The A formula is evaluated while assembling, so no packed A is stored and every
 * backend computes the same bits. HS_OK or HS_E_SINGULAR (F's contents are then unusable). */
hs_status hs_linsys_factor(const hs_linsys *ls, hs_ls_fac *F, const hs_real *M, hs_real c1,
                     const hs_real *F1, hs_real c2, const hs_real *F2, const hs_real *G1,
                     const hs_real *G2, const hs_real *C);

/* Solves with the factor F: b (n) is overwritten by x. */
void hs_linsys_solve(const hs_linsys *ls, const hs_ls_fac *F, hs_real *b);

/* hs_linsys_solve for a b (n) whose first nq entries are zero (a projection's right-hand
 * side): the same x, with the work the zeros need not. */
void hs_linsys_solve_c(const hs_linsys *ls, const hs_ls_fac *F, hs_real *b);

/* x (nq) -= x1 of the solution (x1, x2) for the right-hand side (0, r): a projection's
 * correction applied in place, the same bits as hs_linsys_solve_c and a subtraction. b (n) is
 * scratch holding r in its last nc entries on entry (its first nq need not be set). */
void hs_linsys_solve_c_sub(const hs_linsys *ls, const hs_ls_fac *F, hs_real *b, hs_real *x);

/* ---- products with the system's own blocks, the masked zeros left out ----
 * On the range-space path (ls->schur) these walk the entries the masks keep, in the order of
 * the block products below: every sum is the same bits as theirs for finite operands (a sum
 * started at +0 is never -0, and adding a product that is +-0 leaves it unchanged); otherwise
 * they are the block products themselves. */

/* y (nc) = G x for G (nc x nq) packed like the system's G, x (nq): hs_blk_cq_mv's sums. */
void hs_linsys_g_mv(const hs_linsys *ls, const hs_real *G, const hs_real *x, hs_real *y);

/* The residual of the system [[M, -G^T], [G, 0]] (x, l) = (f, -gam) with the signs of a
 * Newton step, for ls->schur only: b (nq + nc) = (f - M x + G^T l, -(G x + gam)), M (nq x nq)
 * packed like A and diagonal by the mask, G (nc x nq) packed like G, f, x (nq), l, gam (nc);
 * the same bits as hs_blk_qq_mv and hs_blk_cq_mv_mtv's sums combined that way. */
void hs_linsys_schur_residual(const hs_linsys *ls, const hs_real *M, const hs_real *G, const hs_real *f,
                              const hs_real *gam, const hs_real *x, const hs_real *l, hs_real *b);

/* One Newton step on the range-space path (ls->schur, no C block) with the factor F of the
 * system [[A, s G^T], [G, 0]]: the residual (b1, b2) of hs_linsys_schur_residual at (x, l),
 * its solution (dx, dl) as hs_linsys_solve gives it, and x += dx (nq), l += dl (nc), in three
 * passes over G's lists instead of six; the same bits. b (n) is scratch; *na = sum |dx_i| in
 * i's order; *nr = sum |G x + gam|_i, the constraint rows' residual at the start (units of
 * the rows' second derivatives). Returns 1 when every dl is finite, else 0. */
int hs_linsys_schur_newton(const hs_linsys *ls, const hs_ls_fac *F, const hs_real *M, const hs_real *G,
                           const hs_real *f, const hs_real *gam, hs_real *x, hs_real *l, hs_real *b, hs_real *na,
                           hs_real *nr);

/* ---- blockwise products on packed matrices (the stepper never forms a dense nq x nq) ---- */

/* y (nq) = A x for A (nq x nq) packed by b->qq, x (nq). */
void hs_blk_qq_mv(const hs_blocks *b, const hs_real *A, const hs_real *x, hs_real *y);
/* y (nc) = G x for G (nc x nq) packed by b->cq, x (nq). */
void hs_blk_cq_mv(const hs_blocks *b, const hs_real *G, const hs_real *x, hs_real *y);
/* y (nq) = G^T x for G (nc x nq) packed by b->cq, x (nc). */
void hs_blk_cq_mtv(const hs_blocks *b, const hs_real *G, const hs_real *x, hs_real *y);
/* yc (nc) = G x and yq (nq) = G^T l in one pass over the packed G (nc x nq); x (nq), l (nc):
 * the same sums in the same order as hs_blk_cq_mv and hs_blk_cq_mtv. */
void hs_blk_cq_mv_mtv(const hs_blocks *b, const hs_real *G, const hs_real *x, const hs_real *l,
                      hs_real *yc, hs_real *yq);
/* Column j (0 <= j < nq) of every listed block of packed A (nq x nq) that holds it, set to
 * (y - y0) / d with y, y0 (nq): a forward-difference column of a Jacobian. */
void hs_blk_qq_set_column(const hs_blocks *b, hs_real *A, int j, const hs_real *y, const hs_real *y0,
                          hs_real d);
/* Offset in packed qq storage of the entry (i, j), or -1 when (i, j) lies in no listed block. */
int hs_blk_qq_index(const hs_blocks *b, int i, int j);
/* Offset in packed cq storage of the entry (i, j) of G, or -1 when it lies in no listed block. */
int hs_blk_cq_index(const hs_blocks *b, int i, int j);
/* Reals of C packed by the diagonal blocks of b->cb (sum of squared constraint block sizes). */
int hs_blocks_cc_size(const hs_blocks *b);

#endif
