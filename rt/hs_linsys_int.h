/* hs_linsys_int.h - what the files of the linear-system layer share (not for users:
 * rt/hs_linsys.h is the public header). At init rt/hs_linsys_init.c calls rt/hs_linsys_rs.c,
 * never the reverse; per step rt/hs_linsys_num.c and rt/hs_linsys_blk.c share list_dot. */
#ifndef HS_LINSYS_INT_H
#define HS_LINSYS_INT_H

#include "hs_linsys.h"
#include "hs_sparse.h" /* hs_csc_find */

/* Sum from +0 of the ne products v[o[e]] * x[r[e]] in e's order; two and four terms (a chain's
 * columns and rows) written out. */
static inline hs_real list_dot(const hs_real *v, const hs_real *x, const int *o, const int *r, int ne)
{
    hs_real s = HS_R(0.0);
    if (ne == 2) {
        s = (s + (v[o[0]] * x[r[0]])) + (v[o[1]] * x[r[1]]);
    } else if (ne == 4) {
        s = (((s + (v[o[0]] * x[r[0]])) + (v[o[1]] * x[r[1]])) + (v[o[2]] * x[r[2]])) + (v[o[3]] * x[r[3]]);
    } else {
        for (int e = 0; e < ne; ++e) { s += v[o[e]] * x[r[e]]; }
    }
    return s;
}

/* 1 when ls (set up, masks attached) takes the range-space path: sparse backend with slots,
 * symmetric values, constraints, and every off-diagonal entry of A masked out; else 0. */
int hs_ls_rs_eligible(const hs_linsys *ls);

/* hs_linsys_need for ls on the range-space path (eligible): need->ntmp at least ntmp_min
 * (ints; the whole matrix' figure), HS_E_SIZE when tmp (ntmp_avail ints) is shorter. */
int hs_ls_rs_need(const hs_linsys *ls, int *tmp, size_t ntmp_avail, size_t ntmp_min, hs_linsys_size *need);

/* hs_linsys_init's range-space branch for L (set up, eligible): S's analysis, then the lists,
 * into sym (nsym ints), using tmp (ntmp ints); *ls = *L on success. */
int hs_ls_rs_init(hs_linsys *ls, hs_linsys *L, int *sym, size_t nsym, int *tmp, size_t ntmp);


#endif
