/* hs_contact.c - the contact stage (rt/hs_contact.h): fixed solves, fixed sweeps, one residual
 * pass; loop counts depend on nq, nc, nk and the sweep count only. */
#include "hs_contact.h"
#include "hs_contact_int.h"
#include "hs_inline.h"
#include "hs_stage.h"

/* a . b (n): summed in index order, four terms per pass (the sweeps' inner loop) */
static inline hs_real dot(const hs_real *a, const hs_real *b, int n)
{
    hs_real d = HS_R(0.0);
    int i = 0;
    for (; (i + 4) <= n; i += 4) {
        d += a[i] * b[i];
        d += a[i + 1] * b[i + 1];
        d += a[i + 2] * b[i + 2];
        d += a[i + 3] * b[i + 3];
    }
    for (; i < n; ++i) {
        d += a[i] * b[i];
    }
    return d;
}

/* y (n) += a x (n), four entries per pass; y and x are separate workspace arrays (restrict:
 * the compiler may do two entries per instruction, each the same operations) */
/* MISRA Ref 8.14.1 [separate workspace arrays] */
static void axpy(hs_real *restrict y, hs_real a, const hs_real *restrict x, int n)
{
    int i = 0;
    for (; (i + 4) <= n; i += 4) {
        const hs_real x0 = x[i], x1 = x[i + 1], x2 = x[i + 2], x3 = x[i + 3];
        y[i] += x0 * a;
        y[i + 1] += x1 * a;
        y[i + 2] += x2 * a;
        y[i + 3] += x3 * a;
    }
    for (; i < n; ++i) {
        y[i] += x[i] * a;
    }
}

/* Row i's coordinate range [*q0, *q1): where its J and B may be nonzero (hs_ct_row.q0/q1,
 * the whole of q when the model leaves q1 at 0; hs_stepper_init refused any other range
 * not inside q). */
static inline void row_range(const hs_stepper *s, int i, int *q0, int *q1)
{
    const hs_ct_row *R = &s->model->type->ct_rows[i];
    *q0 = (R->q1 != 0) ? R->q0 : 0;
    *q1 = (R->q1 != 0) ? R->q1 : s->nq;
}

/* Rows i, i + 1, i + 2 over one range: 3 (a contact point's normal and tangents, or any three
 * rows so placed), else 1. Fixed by the model's ranges, so the sweeps' work is too. */
static inline int group_at(const hs_stepper *s, int i)
{
    const hs_ct_row *R = s->model->type->ct_rows;
    const int same = (int)(((i + 2) < s->model->type->nk) && (R[i + 1].q0 == R[i].q0) && (R[i + 1].q1 == R[i].q1)
                     && (R[i + 2].q0 == R[i].q0) && (R[i + 2].q1 == R[i].q1));
    return (same != 0) ? 3 : 1;
}

/* B_i = M_c^-1 J_i^T (ctB, over each row's range) by solves of row groups. M_c^-1 J_i^T is
 * zero outside row i's range, so rows with disjoint ranges share one solve: right-hand side
 * the sum of their J^T, each B_i read back over its own range. Rounds: from the first row not
 * yet solved, take every later row whose range starts at or after the end of the last one
 * taken (left to right); the ranges are fixed at compile, so the number of solves is too.
 * ctiw < 0 marks a row not yet solved (the caller sets ctiw afterwards). */
static void responses_by_rows(hs_stepper *s)
{
    const int nq = s->nq, nk = s->model->type->nk, n = s->nq + s->nc;
    for (int i = 0; i < nk; ++i) {
        s->ctiw[i] = HS_R(-1.0);
    }
    for (int first = 0; first < nk; ++first) {
        if (!(s->ctiw[first] < HS_R(0.0))) {
            continue;
        }
        for (int k = 0; k < n; ++k) {
            s->ctx[k] = HS_R(0.0);
        }
        int end = 0;
        for (int i = first; i < nk; ++i) {
            int a0, a1;
            row_range(s, i, &a0, &a1);
            if ((s->ctiw[i] < HS_R(0.0)) && ((a0 >= end) || (i == first))) {
                const hs_real *Ji = &s->ctJ[i * nq];
                for (int j = a0; j < a1; ++j) {
                    s->ctx[j] = Ji[j];
                }
                s->ctiw[i] = HS_R(-2.0);
                end = a1;
            }
        }
        hs_linsys_solve(&s->lsP, &s->fPn, s->ctx);
        for (int i = first; i < nk; ++i) {
            if (s->ctiw[i] < HS_R(-1.5)) {
                int a0, a1;
                row_range(s, i, &a0, &a1);
                hs_real *Bi = &s->ctB[i * nq];
                for (int j = a0; j < a1; ++j) {
                    Bi[j] = s->ctx[j];
                }
                s->ctiw[i] = HS_R(0.0);
            }
        }
    }
}

/* The largest position block when every block is its own component of the projection matrix
 * (no off-diagonal block of M, no constraint block across two position blocks: free bodies),
 * so that M_c^-1 e_j is zero outside the block of coordinate j; 0 when blocks are coupled.
 * The pattern is the model's, fixed: so is the loop count. */
static int separate_blocks(const hs_blocks *b)
{
    for (int e = 0; e < b->nqq; ++e) {
        if (b->qq[2 * e] != b->qq[(2 * e) + 1]) {
            return 0;
        }
    }
    for (int e = 0; e < b->ncq; ++e) {
        for (int f = e + 1; f < b->ncq; ++f) {
            if ((b->cq[2 * e] == b->cq[2 * f]) && (b->cq[(2 * e) + 1] != b->cq[(2 * f) + 1])) {
                return 0;
            }
        }
    }
    int w = 0;
    for (int p = 0; p < b->nqb; ++p) {
        const int d = b->qb[p + 1] - b->qb[p];
        w = (d > w) ? d : w;
    }
    return w;
}

/* Rows B, B + ld, B + 2 ld (n entries) += c0 x, c1 x, c2 x: entry by entry, two per pass;
 * the responses and the solve's scratch are separate workspace arrays (restrict). */
/* MISRA Ref 8.14.1 [separate workspace arrays] */
static inline void col3(hs_real *restrict B, int ld, const hs_real *restrict x, int n, hs_real c0, hs_real c1,
                        hs_real c2)
{
    /* MISRA Ref 8.14.1 [separate workspace arrays] */
    hs_real *restrict B0 = B;
    /* MISRA Ref 8.14.1 [separate workspace arrays] */
    hs_real *restrict B1 = B + ld;
    /* MISRA Ref 8.14.1 [separate workspace arrays] */
    hs_real *restrict B2 = B + (2 * ld);
    int k = 0;
    for (; (k + 2) <= n; k += 2) {
        const hs_real xa = x[k], xb = x[k + 1];
        B0[k] += c0 * xa;
        B0[k + 1] += c0 * xb;
        B1[k] += c1 * xa;
        B1[k + 1] += c1 * xb;
        B2[k] += c2 * xa;
        B2[k + 1] += c2 * xb;
    }
    if (k < n) {
        B0[k] += c0 * x[k];
        B1[k] += c1 * x[k];
        B2[k] += c2 * x[k];
    }
}

/* B_i = M_c^-1 J_i^T (ctB, over each row's range) for separate blocks of at most wb
 * coordinates: solve t (0 <= t < wb) has a unit right-hand side at the t-th coordinate of
 * every block at once and gives the columns X_j = M_c^-1 e_j of those coordinates, each
 * nonzero only in its own block; B_i = sum_j J_ij X_j over the blocks row i overlaps. wb
 * solves (7 for free bodies), whatever nk is. */
static void responses_by_block(hs_stepper *s, int wb)
{
    const int nq = s->nq, nk = s->model->type->nk, n = s->nq + s->nc;
    const hs_blocks *b = &s->blocks;
    for (int i = 0; i < nk; ++i) {
        int a0, a1;
        row_range(s, i, &a0, &a1);
        hs_real *Bi = &s->ctB[i * nq];
        for (int j = a0; j < a1; ++j) {
            Bi[j] = HS_R(0.0);
        }
    }
    for (int t = 0; t < wb; ++t) {
        for (int k = 0; k < n; ++k) {
            s->ctx[k] = HS_R(0.0);
        }
        for (int p = 0; p < b->nqb; ++p) {
            if ((b->qb[p] + t) < b->qb[p + 1]) {
                s->ctx[b->qb[p] + t] = HS_R(1.0);
            }
        }
        hs_linsys_solve(&s->lsP, &s->fPn, s->ctx);
        /* rows in groups of one range (group_at): one pass over the block per group */
        int ir = 0;
        while (ir < nk) {
            const int i = ir;
            const int g = group_at(s, i);
            ir += g;
            int a0, a1;
            row_range(s, i, &a0, &a1);
            /* the blocks overlapping [a0, a1): blocks are in coordinate order */
            int p = 0;
            while ((p < b->nqb) && (b->qb[p + 1] <= a0)) {
                ++p;
            }
            for (; (p < b->nqb) && (b->qb[p] < a1); ++p) {
                /* coordinate j = qb[p] + t, its J_ij (zero outside the range), its column
                 * over the block's part of the range */
                const int j = b->qb[p] + t;
                const int lo = (b->qb[p] > a0) ? b->qb[p] : a0;
                const int hi = (b->qb[p + 1] < a1) ? b->qb[p + 1] : a1;
                if ((j < b->qb[p + 1]) && (j >= a0) && (j < a1)) {
                    const hs_real *x = s->ctx;
                    hs_real *B0 = &s->ctB[i * nq];
                    const hs_real c0 = s->ctJ[(i * nq) + j];
                    if (g == 3) {
                        const hs_real c1 = s->ctJ[((i + 1) * nq) + j], c2 = s->ctJ[((i + 2) * nq) + j];
                        col3(&B0[lo], nq, &x[lo], hi - lo, c0, c1, c2);
                    } else {
                        for (int k = lo; k < hi; ++k) {
                            B0[k] += c0 * x[k];
                        }
                    }
                }
            }
        }
    }
}

/* Rows i, i + 1, i + 2 are one contact point: a normal and two friction rows bounded by it
 * alone (every box-box, box-plane or sphere slot with mu > 0); 1 if so, else 0. */
static inline int point_at(const hs_stepper *s, int i)
{
    const hs_ct_row *R = &s->model->type->ct_rows[i];
    const int pt = (int)((R[0].kind == HS_CT_NORMAL) && (R[1].kind == HS_CT_FRICTION) && (R[2].kind == HS_CT_FRICTION)
                   && (R[1].ngroup == 1) && (R[2].ngroup == 1) && (R[1].normal == i) && (R[2].normal == i));
    return (pt != 0) ? 1 : 0;
}

/* A point's three products J_k u (rows J, J + ld, J + 2 ld over na entries), each summed in
 * index order, into *v0, *v1, *v2. */
static inline void point_dots(const hs_real *J, int ld, const hs_real *u, int na, hs_real *v0, hs_real *v1,
                              hs_real *v2)
{
    const hs_real *J0 = J, *J1 = J + ld, *J2 = J + (2 * ld);
    hs_real a = HS_R(0.0), b = HS_R(0.0), c = HS_R(0.0);
    int j = 0;
    for (; (j + 2) <= na; j += 2) {
        const hs_real ua = u[j], ub = u[j + 1];
        a += J0[j] * ua;
        b += J1[j] * ua;
        c += J2[j] * ua;
        a += J0[j + 1] * ub;
        b += J1[j + 1] * ub;
        c += J2[j + 1] * ub;
    }
    if (j < na) {
        a += J0[j] * u[j];
        b += J1[j] * u[j];
        c += J2[j] * u[j];
    }
    *v0 = a;
    *v1 = b;
    *v2 = c;
}

/* u (na) += B_0 d0 + B_1 d1 + B_2 d2 (rows B, B + ld, B + 2 ld), entry by entry in that order.
 * u and the responses never overlap (separate workspace arrays), which restrict states so
 * that the compiler may do two entries per instruction where the target has such; each entry
 * gets the same operations either way. */
/* MISRA Ref 8.14.1 [separate workspace arrays] */
static inline void point_apply(hs_real *restrict u, const hs_real *restrict B, int ld, int na, hs_real d0,
                               hs_real d1, hs_real d2)
{
    /* MISRA Ref 8.14.1 [separate workspace arrays] */
    const hs_real *restrict B0 = B;
    /* MISRA Ref 8.14.1 [separate workspace arrays] */
    const hs_real *restrict B1 = B + ld;
    /* MISRA Ref 8.14.1 [separate workspace arrays] */
    const hs_real *restrict B2 = B + (2 * ld);
    int j = 0;
    for (; (j + 2) <= na; j += 2) {
        u[j] = ((u[j] + (B0[j] * d0)) + (B1[j] * d1)) + (B2[j] * d2);
        u[j + 1] = ((u[j + 1] + (B0[j + 1] * d0)) + (B1[j + 1] * d1)) + (B2[j + 1] * d2);
    }
    if (j < na) {
        u[j] = ((u[j] + (B0[j] * d0)) + (B1[j] * d1)) + (B2[j] * d2);
    }
}

hs_real hs_contact_cq(const hs_stepper *s, hs_real h)
{
    if (s->velfirst != 0) {
        return h;
    }
    /* positions from a mean of u_n and u_{n+1}: the method's row says so (HS_MF_MIDVEL) */
    return ((s->mflags & HS_MF_MIDVEL) != 0u) ? (HS_R(0.5) * h) : HS_R(0.0);
}

/* J (nk x nq, ctJ) over the rows' ranges (J is zero outside, read there only) and phi (nk,
 * ctphi) times 0, summed: 0 when all are finite, NaN otherwise (x * 0 is 0 for a finite x; two
 * sums, any order gives 0 or NaN), a fixed-cost check before the rows are used. */
HS_INLINE hs_real ct_finite_sum(const hs_stepper *s, int nq, int nk)
{
    hs_real nf = HS_R(0.0), nf2 = HS_R(0.0);
    for (int i = 0; i < nk; ++i) {
        int a0, a1;
        row_range(s, i, &a0, &a1);
        const hs_real *Ji = &s->ctJ[i * nq];
        int j = a0;
        for (; (j + 2) <= a1; j += 2) {
            nf += Ji[j] * HS_R(0.0);
            nf2 += Ji[j + 1] * HS_R(0.0);
        }
        if (j < a1) {
            nf += Ji[j] * HS_R(0.0);
        }
        nf += s->ctphi[i] * HS_R(0.0);
    }
    return nf + nf2;
}

/* Per row i of the nk: 1 / W_ii (ctiw, nk), compliance or the friction bound's selector
 * (cteps, nk), the velocity J_i u~ (ctv, nk) and the target (ctr, nk); an impact's position
 * correction moves qn (nq) along B_i. Every sweep reads these, so they are set once. */
HS_INLINE void ct_targets(hs_stepper *s, const hs_model_type *T, int nq, int nk, hs_real cq, hs_real h)
{
    const hs_real hold = hs_contact_hold(h);
    s->stats.ct_sunk = HS_R(0.0);
    for (int i = 0; i < nk; ++i) {
        const hs_real *Ji = &s->ctJ[i * nq];
        const hs_real *Bi = &s->ctB[i * nq];
        int a0, a1;
        row_range(s, i, &a0, &a1);
        const int na = a1 - a0;
        const hs_real W = dot(&Ji[a0], &Bi[a0], na);
        const hs_real reg = (T->ct_rows[i].kind == HS_CT_NORMAL) ? HS_CT_REG : HS_R(0.0);
        s->ctiw[i] = (W > HS_R(1e-30)) ? (HS_R(1.0) / ((HS_R(1.0) + reg) * W)) : HS_R(0.0);
        /* a compliance of HS_CT_REG W_ii on every row: it makes the solution unique where the
         * rows are redundant (four corners on a face, their friction), so the warm start
         * cannot wander in the null space from step to step */
        s->cteps[i] = reg * W;
        if (T->ct_rows[i].kind != HS_CT_NORMAL) {
            /* friction: no compliance; cteps selects the bound's normal impulse (bounds) */
            const int prev = (int)((T->ct_rows[i].box != 0) && (s->ctl[T->ct_rows[i].normal] > HS_R(0.0)));
            s->cteps[i] = (prev != 0) ? HS_R(1.0) : HS_R(0.0);
        }
        const hs_real v = dot(&Ji[a0], &s->ctu[a0], na);
        s->ctv[i] = v;
        const hs_ct_row *R = &T->ct_rows[i];
        hs_real r = HS_R(0.0), mu = HS_R(0.0);
        /* a friction row of one normal moves with it (the rows before it are set) */
        s->ctk[i] = ((R->kind != HS_CT_NORMAL) && (R->ngroup == 1)) ? s->ctk[R->normal] : HS_R(0.0);
        if (R->kind == HS_CT_NORMAL) {
            /* d: the gap the step would end with at v = 0; a positive one may close within the
             * step (cq > 0) or the next (cq = 0), a negative one opens by ERP per step */
            const hs_real d = s->ctphi[i] - cq * v;
            const hs_real ce = (cq > HS_R(0.0)) ? cq : h;
            r = (d >= HS_CT_SLOP) ? (-d / ce) : (-HS_CT_ERP * d / h);
            /* positions-first methods (cq = 0) cannot move q_{n+1}: their impact is the one the
             * next position update would make, and it bounces from where it is */
            if ((cq == HS_R(0.0)) && (R->e > HS_R(0.0)) && (v < -HS_CT_VREST) && (s->ctphi[i] + h * v < HS_R(0.0))) {
                const hs_real rb = -R->e * v;
                r = (rb > r) ? rb : r;
                s->cteps[i] = HS_R(0.0);
                s->ctiw[i] = (W > HS_R(1e-30)) ? (HS_R(1.0) / W) : HS_R(0.0);
            } else if ((v < -HS_CT_VREST) && (s->ctphi[i] < HS_R(0.0))) {
                /* an impact inside the step: with v0 the row velocity at t_n and a the row's
                 * acceleration over the step, the impact comes at tau = d / -v0; the bounce
                 * -e v(tau) then runs for h - tau: both the end velocity (the target) and the
                 * end gap follow that motion, a bounce's by a position-only correction along
                 * B_i, an inelastic stop's by its impulse moving q from tau on (ctk) */
                const hs_real v0 = dot(&Ji[a0], &s->u[a0], na);
                if (impact_taken(R->e, cq, h, v0, s->ctl[i]) != 0) {
                    hs_real vend, gend, tau;
                    impact(s->ctphi[i], v0, v, h, R->e, &vend, &gend, &tau);
                    /* an impact is solved without the compliance, which would absorb the bounce */
                    s->cteps[i] = HS_R(0.0);
                    s->ctiw[i] = (W > HS_R(1e-30)) ? (HS_R(1.0) / W) : HS_R(0.0);
                    if (R->e > HS_R(0.0)) {
                        r = (vend > r) ? vend : r;
                        mu = (gend - (s->ctphi[i] + cq * (r - v))) * s->ctiw[i];
                    } else {
                        r = vend;
                        s->ctk[i] = impact_lead(tau, h, cq);
                    }
                }
            } else {
                /* no impact: the target above stands */
            }
            r = hold_target(r, d, hold, s->cteps[i], s->ctan[i]);
            /* how far a resting row starts the step sunk beyond its compliance under the
             * impulse that held it (ctl): the gap d the step starts from (the row sweeps' ctphi
             * is reused by ct_groups, so the end gap of the body-velocity form is not at hand);
             * an impact's row (no compliance) is judged at the next step */
            const hs_real sk = (s->cteps[i] > HS_R(0.0)) ? ct_sunk(d, s->cteps[i], s->ctl[i], h) : HS_R(0.0);
            s->stats.ct_sunk = (sk > s->stats.ct_sunk) ? sk : s->stats.ct_sunk;
        }
        axpy(&s->qn[a0], mu, &Bi[a0], a1 - a0);
        s->ctr[i] = r;
    }
}

/* The positions an inelastic impact's impulses (lam, nk) move beyond cq: qn (nq) by
 * ctk_i lam_i B_i on the rows that took one (model/CONTACT.md). */
HS_INLINE void ct_impact_lead(hs_stepper *s, int nq, int nk, const hs_real *lam)
{
    for (int i = 0; i < nk; ++i) {
        if (s->ctk[i] != HS_R(0.0)) {
            int a0, a1;
            row_range(s, i, &a0, &a1);
            axpy(&s->qn[a0], s->ctk[i] * lam[i], &s->ctB[(i * nq) + a0], a1 - a0);
        }
    }
}

/* Warm start: the previous step's impulses (ctl, nk), clamped to this step's bounds, into lam
 * (nk) and applied to un (nq): the sweeps start from last step's solution, which the fixed
 * sweep budget could not reach from zero on a resting stack. */
HS_INLINE void ct_warm(hs_stepper *s, int nq, int nk, hs_real *lam)
{
    for (int i = 0; i < nk; ++i) {
        hs_real lo, hi;
        lam[i] = HS_R(0.0);
        bounds(s, i, lam, &lo, &hi);
        lam[i] = clamp(s->ctl[i], lo, hi);
        const hs_real *Bi = &s->ctB[i * nq];
        int a0, a1;
        row_range(s, i, &a0, &a1);
        axpy(&s->un[a0], lam[i], &Bi[a0], a1 - a0);
    }
}

/* The row groups of the sweeps, fixed for the step. Three consecutive rows over one range (a
 * contact point's normal and tangents) are one pass over u: their three products J u at
 * the pass's start, each later row's corrected by the couplings J_k B_m (m < k) for the
 * earlier rows' changes, then one update of u by the three; the same sweep as row by
 * row (the same updates in the same order), with one read and one write of u per point.
 * The couplings go into ctv[i + 1], ctphi[i + 2], ctv[i + 2] (nk each), read no more as
 * velocities or gaps. */
HS_INLINE void ct_groups(hs_stepper *s, int nq, int nk)
{
    int ig = 0;
    while (ig < nk) {
        const int i = ig;
        const int g = group_at(s, i);
        ig += g;
        if (g == 3) {
            int a0, a1;
            row_range(s, i, &a0, &a1);
            const int na = a1 - a0;
            const hs_real *B0 = &s->ctB[(i * nq) + a0];
            s->ctv[i + 1] = dot(&s->ctJ[((i + 1) * nq) + a0], B0, na);
            s->ctphi[i + 2] = dot(&s->ctJ[((i + 2) * nq) + a0], B0, na);
            s->ctv[i + 2] = dot(&s->ctJ[((i + 2) * nq) + a0], &s->ctB[((i + 1) * nq) + a0], na);
        }
        /* the group's kind for the sweeps, in its first row's gap (read no more): 0 one row,
         * 1 three rows over one range, 2 a contact point (point_at) */
        s->ctphi[i] = (g == 3) ? ((point_at(s, i) != 0) ? HS_R(2.0) : HS_R(1.0)) : HS_R(0.0);
    }
}

/* The fixed sweeps (s->ctns: ct_sweeps or HS_CT_SWEEPS_GEN), Gauss-Seidel in row order over the groups ct_groups
 * marked: impulses lam (nk) and velocities un (nq) updated in place. The budget, not a
 * tolerance, ends them: the stage's cost is fixed. */
HS_INLINE void ct_sweeps(hs_stepper *s, int nq, int nk, hs_real *lam)
{
    const int ns = s->ctns;
    for (int k = 0; k < ns; ++k) {
        int ir = 0;
        while (ir < nk) {
            const int i = ir;
            int a0, a1;
            row_range(s, i, &a0, &a1);
            const int na = a1 - a0;
            hs_real *u = &s->un[a0];
            const hs_real kind = s->ctphi[i];
            /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
            const int g = (kind > HS_R(0.5)) ? 3 : 1;
            ir += g;
            if (g == 3) {
                hs_real d0, d1, d2;
                point_dots(&s->ctJ[(i * nq) + a0], nq, u, na, &d0, &d1, &d2);
                if (kind > HS_R(1.5)) {
                    point_update(s, i, lam, d0, d1, d2, &d0, &d1, &d2);
                } else {
                    const hs_real v1 = d1, v2 = d2;
                    d0 = row_update(s, i, lam, d0);
                    d1 = row_update(s, i + 1, lam, v1 + (s->ctv[i + 1] * d0));
                    d2 = row_update(s, i + 2, lam, (v2 + (s->ctphi[i + 2] * d0)) + (s->ctv[i + 2] * d1));
                }
                point_apply(u, &s->ctB[(i * nq) + a0], nq, na, d0, d1, d2);
            } else {
                const hs_real dl = row_update(s, i, lam, dot(&s->ctJ[(i * nq) + a0], u, na));
                axpy(u, dl, &s->ctB[(i * nq) + a0], na);
            }
        }
    }
}

/* The residual the budget left (velocity units): the largest change one more projected
 * update would make to a row's impulse lam (nk), scaled by W_ii; reported, never iterated on. */
HS_INLINE hs_real ct_residual(const hs_stepper *s, int nq, int nk, const hs_real *lam)
{
    hs_real res = HS_R(0.0);
    for (int i = 0; i < nk; ++i) {
        hs_real lo, hi;
        bounds(s, i, lam, &lo, &hi);
        int a0, a1;
        row_range(s, i, &a0, &a1);
        /* the row's own equation, with its compliance: a resting row carrying F holds
         * J u - r = -eps lambda, which is converged, not a budget left over */
        const hs_real eps = (s->model->type->ct_rows[i].kind == HS_CT_NORMAL) ? s->cteps[i] : HS_R(0.0);
        const hs_real w = (dot(&s->ctJ[i * nq + a0], &s->un[a0], a1 - a0) - s->ctr[i]) + (eps * lam[i]);
        const hs_real pr = clamp(lam[i] - w * s->ctiw[i], lo, hi);
        const hs_real ri = (s->ctiw[i] > HS_R(0.0)) ? (hs_abs(lam[i] - pr) / s->ctiw[i]) : HS_R(0.0);
        res = (ri > res) ? ri : res;
    }
    return res;
}

hs_status hs_st_contact(hs_stepper *s, const hs_ctx *c)
{
    /* free bodies with contact points: the same stage in body velocities */
    if (s->ctfb != 0) {
        return hs_contact_fb_step(s, c);
    }
    const hs_model *m = s->model;
    const hs_model_type *T = m->type;
    const int nq = s->nq, nc = s->nc, nk = T->nk;
    const hs_real h = c->h;
    /* how far the method moved positions per unit of velocity change at the step's end: an
     * impulse changes q_{n+1} by cq B lambda, as the method itself would have moved them */
    const hs_real cq = hs_contact_cq(s, h);
    hs_status rc;
    /* the projection stage factored [[M, G^T], [G, 0]] at q~ already (not on the free-body path,
     * which has none); otherwise factor it here */
    if (!((s->def.stab == HS_STAB_PROJECTION) && (nc > 0) && (s->fb == 0))) {
        rc = hs_projection_factor(s, c->t1, s->qn, s->M, s->G2, NULL, &s->fPn);
        if (rc != HS_OK) {
            return rc;
        }
    }
    rc = hs_model_rc(T->unilateral(m, c->t1, s->qn, s->ctJ, s->ctphi));
    if (rc != HS_OK) {
        return rc;
    }
    if (!(ct_finite_sum(s, nq, nk) == HS_R(0.0))) {
        return HS_E_NONFINITE;
    }
    for (int j = 0; j < nq; ++j) {
        s->ctu[j] = s->un[j];
    }
    /* responses B_i = M_c^-1 J_i^T under the joints */
    const int wb = separate_blocks(&s->blocks);
    if ((wb > 0) && (wb < nk)) {
        responses_by_block(s, wb);
    } else {
        responses_by_rows(s);
    }
    ct_anchor(s, T, h);
    ct_targets(s, T, nq, nk, cq, h);
    hs_real *lam = s->ctln;
    ct_warm(s, nq, nk, lam);
    ct_groups(s, nq, nk);
    ct_sweeps(s, nq, nk, lam);
    const hs_real res = ct_residual(s, nq, nk, lam);
    ct_impact_lead(s, nq, nk, lam);
    for (int j = 0; j < nq; ++j) {
        s->qn[j] += cq * (s->un[j] - s->ctu[j]);
    }
    s->stats.ct_residual = res;
    s->stats.ct_residual_max = (res > s->stats.ct_residual_max) ? res : s->stats.ct_residual_max;
    s->stats.ct_sunk_max = (s->stats.ct_sunk > s->stats.ct_sunk_max) ? s->stats.ct_sunk : s->stats.ct_sunk_max;
    return HS_OK;
}
