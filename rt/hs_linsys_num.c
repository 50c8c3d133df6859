/* hs_linsys_num.c - the linear-system layer's per-step work (rt/hs_linsys.h): assembly of
 * [[A, s G1^T], [G2, -C]] from the packed blocks and its factor (dense LU or L D L^T, the
 * sparse backend on the analyzed pattern, or the range-space path: S = G A^-1 G^T + s C
 * factored as a band or by the backend), the solves with a factor, and the residual and the
 * Newton step with the range-space path's lists. Fixed loops: every count comes from the
 * analysis (rt/hs_linsys_init.c, rt/hs_linsys_rs.c). */
#include "hs_linsys_int.h"
#include "hs_dense.h"
#include "hs_inline.h"

/* Entry k of A = M - (c1 F1 + c2 F2), or M when F1 is NULL; written as the stepper always has
 * (M - (h cu fu + h^2 cq fq)) so the bits do not depend on the backend. */
#define A_ENTRY(k) (F1 ? M[k] - (c1 * F1[k] + c2 * F2[k]) : M[k])

/* L D L^T of S's band B in place (band_len reals: B[j (bw + 1) + r] = S(j + r, j), every entry
 * outside S zero, bw zero columns after S's) into B[j (bw + 1)] = 1 / D_j and
 * B[j (bw + 1) + r] = L(j + r, j). A pivot that is non-finite or not above nc eps times the
 * largest |diagonal| is replaced by 1 so the work stays fixed (HS_E_SINGULAR), as the
 * backend does. */
static inline int band_factor_k(hs_real *B, int nc, int bw)
{
    const int w = bw + 1;
    hs_real amax = HS_R(0.0);
    for (int j = 0; j < nc; ++j) {
        const hs_real a = hs_abs(B[j * w]);
        amax = (a > amax) ? a : amax;
    }
    const hs_real tiny = (hs_real)nc * HS_EPS * amax;
    hs_real v[HS_LS_BAND_MAX + 1];
    int bad = 0;
    for (int j = 0; j < nc; ++j) {
        hs_real *c = B + (j * w);
        const hs_real dj = c[0];
        hs_real di = HS_R(1.0);
        if ((hs_abs(dj) > tiny) && ((dj - dj) == HS_R(0.0))) {
            di = HS_R(1.0) / dj;
        } else {
            bad = 1;
        }
        c[0] = di;
        for (int r = 1; r <= bw; ++r) {
            v[r] = c[r];
            c[r] = c[r] * di;
        }
        for (int t = 1; t <= bw; ++t) {
            hs_real *ct = c + (t * w);
            const hs_real vt = v[t];
            for (int r = t; r <= bw; ++r) { ct[r - t] -= c[r] * vt; }
        }
    }
    return (bad != 0) ? HS_E_SINGULAR : HS_OK;
}

/* Solves with band_factor_k's B: y (nc, then bw zeros) overwritten by S^-1 y. */
static inline void band_solve_k(const hs_real *B, int nc, int bw, hs_real *y)
{
    const int w = bw + 1;
    for (int j = 0; j < nc; ++j) {
        const hs_real *c = B + (j * w);
        const hs_real yj = y[j];
        for (int r = 1; r <= bw; ++r) { y[j + r] -= c[r] * yj; }
        y[j] = yj * c[0];
    }
    for (int j = nc - 1; j >= 0; --j) {
        const hs_real *c = B + (j * w);
        hs_real s = y[j];
        for (int r = 1; r <= bw; ++r) { s -= c[r] * y[j + r]; }
        y[j] = s;
    }
}

/* One column j of band_factor3: *d0, *d1, *d2 hold column j's entries 0..2, *e0, *e1 column
 * j + 1's 0..1 and *f0 column j + 2's 0, each as updated by the columns before; afterwards
 * column j holds 1 / D and L, and the next column's roles are held by *e0, *e1, *d0 (its 0..2),
 * *f0, *d1 (j + 2's) and *d2 (j + 3's). Returns 1 for a pivot replaced by 1. */
static inline int band_fac3(hs_real *B, int j, hs_real tiny, hs_real *d0, hs_real *d1, hs_real *d2, hs_real *e0,
                            hs_real *e1, hs_real *f0)
{
    hs_real *c = B + (j * 4);
    const hs_real dj = *d0;
    hs_real di = HS_R(1.0);
    int bad = 0;
    if ((hs_abs(dj) > tiny) && ((dj - dj) == HS_R(0.0))) {
        di = HS_R(1.0) / dj;
    } else {
        bad = 1;
    }
    const hs_real v1 = *d1, v2 = *d2, v3 = c[3];
    const hs_real l1 = v1 * di, l2 = v2 * di, l3 = v3 * di;
    c[0] = di; c[1] = l1; c[2] = l2; c[3] = l3;
    *e0 = *e0 - (l1 * v1);
    *e1 = *e1 - (l2 * v1);
    *d0 = c[6] - (l3 * v1);
    *f0 = *f0 - (l2 * v2);
    *d1 = c[9] - (l3 * v2);
    *d2 = c[12] - (l3 * v3);
    return bad;
}

/* band_factor_k for a half bandwidth of 3 (a chain's joints of two rows): the same operations
 * in the same order, the entries the next columns' updates touch riding in registers from
 * column to column (each loaded once and stored once, as L's), four columns per pass so each
 * register comes back to its role without a move. */
static int band_factor3(hs_real *B, int nc)
{
    hs_real amax = HS_R(0.0);
    for (int j = 0; j < nc; ++j) {
        const hs_real a = hs_abs(B[j * 4]);
        amax = (a > amax) ? a : amax;
    }
    const hs_real tiny = (hs_real)nc * HS_EPS * amax;
    int bad = 0;
    hs_real x1 = B[0], x2 = B[1], x3 = B[2], x4 = B[4], x5 = B[5], x6 = B[8];
    int j = 0;
    for (; (j + 3) < nc; j += 4) {
        bad |= band_fac3(B, j, tiny, &x1, &x2, &x3, &x4, &x5, &x6);
        bad |= band_fac3(B, j + 1, tiny, &x4, &x5, &x1, &x6, &x2, &x3);
        bad |= band_fac3(B, j + 2, tiny, &x6, &x2, &x4, &x3, &x5, &x1);
        bad |= band_fac3(B, j + 3, tiny, &x3, &x5, &x6, &x1, &x2, &x4);
    }
    if (j < nc) {
        bad |= band_fac3(B, j, tiny, &x1, &x2, &x3, &x4, &x5, &x6);
    }
    if ((j + 1) < nc) {
        bad |= band_fac3(B, j + 1, tiny, &x4, &x5, &x1, &x6, &x2, &x3);
    }
    if ((j + 2) < nc) {
        bad |= band_fac3(B, j + 2, tiny, &x6, &x2, &x4, &x3, &x5, &x1);
    }
    return (bad != 0) ? HS_E_SINGULAR : HS_OK;
}

/* One column j of band_solve3's forward pass: *a, *b, *c hold y[j], y[j + 1], y[j + 2] as updated
 * so far; afterwards y[j] is final and *b, *c, *a hold y[j + 1 .. j + 3]. */
static inline void band_fwd3(const hs_real *B, hs_real *y, int j, hs_real *a, hs_real *b, hs_real *c)
{
    const hs_real *cj = B + (j * 4);
    const hs_real yj = *a;
    *b = *b - (cj[1] * yj);
    *c = *c - (cj[2] * yj);
    *a = y[j + 3] - (cj[3] * yj);
    y[j] = yj * cj[0];
}

/* One row j of band_solve3's backward pass: *p1, *p2, *p3 hold y[j + 1 .. j + 3]; afterwards
 * y[j] is final and *p3, *p1, *p2 hold y[j .. j + 2]. */
static inline void band_bwd3(const hs_real *B, hs_real *y, int j, const hs_real *p1, const hs_real *p2,
                             hs_real *p3)
{
    const hs_real *cj = B + (j * 4);
    *p3 = ((y[j] - (cj[1] * *p1)) - (cj[2] * *p2)) - (cj[3] * *p3);
    y[j] = *p3;
}

static void band_solve3(const hs_real *B, int nc, hs_real *y)
{
    /* the entries the next columns' updates touch ride in registers, three columns per pass so
     * each register comes back to its role without a move */
    hs_real u0 = y[0], u1 = y[1], u2 = y[2];
    int j = 0;
    for (; (j + 2) < nc; j += 3) {
        band_fwd3(B, y, j, &u0, &u1, &u2);
        band_fwd3(B, y, j + 1, &u1, &u2, &u0);
        band_fwd3(B, y, j + 2, &u2, &u0, &u1);
    }
    if (j < nc) {
        band_fwd3(B, y, j, &u0, &u1, &u2);
    }
    if ((j + 1) < nc) {
        band_fwd3(B, y, j + 1, &u1, &u2, &u0);
    }
    /* the padding past nc: zero before, and zero after (its band entries are zero) */
    hs_real p1 = y[nc], p2 = y[nc + 1], p3 = y[nc + 2];
    j = nc - 1;
    for (; j >= 2; j -= 3) {
        band_bwd3(B, y, j, &p1, &p2, &p3);
        band_bwd3(B, y, j - 1, &p3, &p1, &p2);
        band_bwd3(B, y, j - 2, &p2, &p3, &p1);
    }
    if (j >= 0) {
        band_bwd3(B, y, j, &p1, &p2, &p3);
    }
    if (j >= 1) {
        band_bwd3(B, y, j - 1, &p3, &p1, &p2);
    }
}

/* band_factor_k and band_solve_k with small half bandwidths as constants, so the compiler can
 * unroll their short inner loops (the same operations in the same order); 3 written out. */
static int band_factor(hs_real *B, int nc, int bw)
{
    int rc;
    if (bw == 3) {
        rc = band_factor3(B, nc);
    } else if (bw == 1) {
        rc = band_factor_k(B, nc, 1);
    } else if (bw == 2) {
        rc = band_factor_k(B, nc, 2);
    } else {
        rc = band_factor_k(B, nc, bw);
    }
    return rc;
}

static void band_solve(const hs_real *B, int nc, int bw, hs_real *y)
{
    if (bw == 3) {
        band_solve3(B, nc, y);
    } else if (bw == 1) {
        band_solve_k(B, nc, 1, y);
    } else if (bw == 2) {
        band_solve_k(B, nc, 2, y);
    } else {
        band_solve_k(B, nc, bw, y);
    }
}

/* hs_linsys_factor on the range-space path: A's diagonal inverted (a zero or non-finite entry
 * replaced by 1 and reported, the work unchanged), G A^-1 kept for the solves, S = G A^-1 G^T
 * + s C assembled into the backend's slots column by column of G, then factored. */
static int schur_factor(const hs_linsys *ls, hs_ls_fac *F, const hs_real *M, hs_real c1, const hs_real *F1,
                        hs_real c2, const hs_real *F2, const hs_real *G, const hs_real *C)
{
    hs_real *V = F->x, *d = F->Ax, *W = F->Ax + ls->nq;
    const int *sc = ls->scol, *se = ls->sent, *sp = ls->spair;
    int bad = 0;
    /* four at a time (a band of half bandwidth 3 has a multiple of four), then the rest */
    const int nz4 = ls->nzero - (ls->nzero % 4);
    for (int k = 0; k < nz4; k += 4) {
        V[k] = HS_R(0.0);
        V[k + 1] = HS_R(0.0);
        V[k + 2] = HS_R(0.0);
        V[k + 3] = HS_R(0.0);
    }
    for (int k = nz4; k < ls->nzero; ++k) { V[k] = HS_R(0.0); }
    for (int k = 0; k < ls->nq; ++k) {
        const int ia = ls->sdiag[k];
        const hs_real a = (F1 != NULL) ? M[ia] - (c1 * F1[ia] + c2 * F2[ia]) : M[ia];
        hs_real w = HS_R(1.0);
        /* a - a is 0 exactly for finite a only */
        if ((a != HS_R(0.0)) && ((a - a) == HS_R(0.0))) {
            w = HS_R(1.0) / a;
        } else {
            bad = 1;
        }
        d[k] = w;
        const int e0 = sc[k], e1 = sc[k + 1];
        if ((e1 - e0) == 2) {
            /* a column of two entries (a chain's body translation), written out */
            const hs_real g0 = G[se[e0]], g1 = G[se[e0 + 1]];
            const hs_real w0 = g0 * w, w1 = g1 * w;
            W[e0] = w0; W[e0 + 1] = w1;
            V[sp[0]] += w0 * g0;
            V[sp[1]] += w1 * g0;
            V[sp[2]] += w1 * g1;
            sp += 3;
        } else if ((e1 - e0) == 4) {
            /* four (its rotation): the loops below in the same order */
            const hs_real g0 = G[se[e0]], g1 = G[se[e0 + 1]], g2 = G[se[e0 + 2]], g3 = G[se[e0 + 3]];
            const hs_real w0 = g0 * w, w1 = g1 * w, w2 = g2 * w, w3 = g3 * w;
            W[e0] = w0; W[e0 + 1] = w1; W[e0 + 2] = w2; W[e0 + 3] = w3;
            V[sp[0]] += w0 * g0;
            V[sp[1]] += w1 * g0;
            V[sp[2]] += w1 * g1;
            V[sp[3]] += w2 * g0;
            V[sp[4]] += w2 * g1;
            V[sp[5]] += w2 * g2;
            V[sp[6]] += w3 * g0;
            V[sp[7]] += w3 * g1;
            V[sp[8]] += w3 * g2;
            V[sp[9]] += w3 * g3;
            sp += 10;
        } else {
            for (int e = e0; e < e1; ++e) {
                const hs_real ge = G[se[e]] * w;
                W[e] = ge;
                for (int f = e0; f <= e; ++f) {
                    V[*sp] += ge * G[se[f]];
                    ++sp;
                }
            }
        }
    }
    if (ls->nCp > 0) {
        const int *cp = ls->sCp;
        for (int k = 0; k < ls->nCp; ++k, cp += 2) {
            V[cp[1]] += (ls->sign < 0) ? -C[cp[0]] : C[cp[0]];
        }
    }
    const int rc = (ls->sbw > 0) ? band_factor(V, ls->nc, ls->sbw - 1) : ls->be->factor_slots(ls->sym, V);
    return (bad != 0) ? (int)HS_E_SINGULAR : rc;
}

/* s - sum_e W[e] y[r[e]] over the ne entries of one column, subtracted in index order;
 * columns of two and four entries written out (same bits as the loop). */
static inline hs_real gather_col(hs_real s, const hs_real *y, const int *r, const hs_real *W, int ne)
{
    hs_real t = s;
    if (ne == 2) {
        t = (t - (W[0] * y[r[0]])) - (W[1] * y[r[1]]);
    } else if (ne == 4) {
        t = (((t - (W[0] * y[r[0]])) - (W[1] * y[r[1]])) - (W[2] * y[r[2]])) - (W[3] * y[r[3]]);
    } else {
        for (int e = 0; e < ne; ++e) { t -= W[e] * y[r[e]]; }
    }
    return t;
}

/* y[r[e]] += W[e] b for the ne entries of one column; columns of two and four entries (a
 * chain's) written out, in the loop's order (same bits as the loop). */
static inline void scatter_col(hs_real *y, const int *r, const hs_real *W, hs_real b, int ne)
{
    if (ne == 2) {
        y[r[0]] += W[0] * b;
        y[r[1]] += W[1] * b;
    } else if (ne == 4) {
        y[r[0]] += W[0] * b;
        y[r[1]] += W[1] * b;
        y[r[2]] += W[2] * b;
        y[r[3]] += W[3] * b;
    } else {
        for (int e = 0; e < ne; ++e) { y[r[e]] += W[e] * b; }
    }
}

/* hs_linsys_solve on the range-space path, b (n) overwritten by x (zpos: b1 = 0):
 * y = S^-1 (G A^-1 b1 - b2), x1 = A^-1 b1 - (G A^-1)^T y, x2 = s y. */
static void schur_solve(const hs_linsys *ls, const hs_ls_fac *F, hs_real *b, int zpos, hs_real *xs)
{
    const int nq = ls->nq, nc = ls->nc;
    const hs_real *d = F->Ax, *W = F->Ax + nq;
    const int *sc = ls->scol, *sr = ls->srow;
    hs_real *y = b + nq;
    if (ls->sbw > 0) {
        /* the band's solve runs in work, padded with zeros past nc */
        y = F->work;
        for (int i = 0; i < nc; ++i) { y[i] = -b[nq + i]; }
        for (int i = nc; i < nc + ls->sbw - 1; ++i) { y[i] = HS_R(0.0); }
    } else {
        for (int i = 0; i < nc; ++i) { y[i] = -y[i]; }
    }
    if (zpos == 0) {
        for (int k = 0; k < nq; ++k) {
            const hs_real bk = b[k];
            const int e0 = sc[k], ne = sc[k + 1] - e0;
            const int *r = sr + e0;
            const hs_real *Wk = W + e0;
            scatter_col(y, r, Wk, bk, ne);
        }
    }
    if (ls->sbw > 0) {
        band_solve(F->x, nc, ls->sbw - 1, y);
    } else {
        ls->be->solve(ls->sym, F->x, y, F->work);
    }
    for (int k = 0; k < nq; ++k) {
        hs_real s = (zpos == 0) ? d[k] * b[k] : HS_R(0.0);
        const int e0 = sc[k], ne = sc[k + 1] - e0;
        const int *r = sr + e0;
        const hs_real *Wk = W + e0;
        s = gather_col(s, y, r, Wk, ne);
        if (xs != NULL) {
            xs[k] -= s;
        } else {
            b[k] = s;
        }
    }
    if (xs != NULL) {
        /* hs_linsys_solve_c_sub: x2 is not asked for */
    } else if (ls->sign < 0) {
        for (int i = 0; i < nc; ++i) { b[nq + i] = -y[i]; }
    } else if (ls->sbw > 0) {
        for (int i = 0; i < nc; ++i) { b[nq + i] = y[i]; }
    } else {
        /* y is b's own multiplier part */
    }
}

void hs_linsys_schur_residual(const hs_linsys *ls, const hs_real *M, const hs_real *G, const hs_real *f,
                              const hs_real *gam, const hs_real *x, const hs_real *l, hs_real *b)
{
    const int nq = ls->nq, nc = ls->nc;
    const int *sc = ls->scol, *dg = ls->sdiag;
    int e0 = 0;
    for (int k = 0; k < nq; ++k) {
        const int e1 = sc[k + 1];
        /* + 0 as the block product's sum starts: M x = -0 gives +0 there too */
        const hs_real mx = HS_R(0.0) + (M[dg[k]] * x[k]);
        b[k] = (f[k] - mx) + list_dot(G, l, ls->sent + e0, ls->srow + e0, e1 - e0);
        e0 = e1;
    }
    const int *rp = ls->srp;
    e0 = 0;
    for (int i = 0; i < nc; ++i) {
        const int e1 = rp[i + 1];
        b[nq + i] = -(list_dot(G, x, ls->sroff + e0, ls->srcol + e0, e1 - e0) + gam[i]);
        e0 = e1;
    }
}

int hs_linsys_schur_newton(const hs_linsys *ls, const hs_ls_fac *F, const hs_real *M, const hs_real *G,
                           const hs_real *f, const hs_real *gam, hs_real *x, hs_real *l, hs_real *b, hs_real *na,
                           hs_real *nr)
{
    const int nq = ls->nq, nc = ls->nc;
    const int *sc = ls->scol, *se = ls->sent, *sr = ls->srow, *dg = ls->sdiag, *rp = ls->srp;
    const hs_real *d = F->Ax, *W = F->Ax + nq;
    /* S's right-hand side G A^-1 b1 - b2, in work (a band, padded with zeros) or in b's
     * multiplier part; -b2 = G x + gam exactly (two negations) */
    hs_real *y = (ls->sbw > 0) ? F->work : (b + nq);
    int e0 = 0;
    hs_real r1 = HS_R(0.0);
    for (int i = 0; i < nc; ++i) {
        const int e1 = rp[i + 1];
        y[i] = list_dot(G, x, ls->sroff + e0, ls->srcol + e0, e1 - e0) + gam[i];
        r1 += hs_abs(y[i]);
        e0 = e1;
    }
    *nr = r1;
    if (ls->sbw > 0) {
        for (int i = nc; i < nc + ls->sbw - 1; ++i) { y[i] = HS_R(0.0); }
    }
    /* b1 column by column (hs_linsys_schur_residual's), each scattered into y at once */
    e0 = 0;
    for (int k = 0; k < nq; ++k) {
        const int e1 = sc[k + 1], ne = e1 - e0;
        const int *r = sr + e0;
        const hs_real *Wk = W + e0;
        const hs_real mx = HS_R(0.0) + (M[dg[k]] * x[k]);
        const hs_real bk = (f[k] - mx) + list_dot(G, l, se + e0, r, ne);
        b[k] = bk;
        scatter_col(y, r, Wk, bk, ne);
        e0 = e1;
    }
    if (ls->sbw > 0) {
        band_solve(F->x, nc, ls->sbw - 1, y);
    } else {
        ls->be->solve(ls->sym, F->x, y, F->work);
    }
    /* dx = A^-1 b1 - (G A^-1)^T y, applied */
    hs_real a1 = HS_R(0.0);
    e0 = 0;
    for (int k = 0; k < nq; ++k) {
        const int e1 = sc[k + 1], ne = e1 - e0;
        const int *r = sr + e0;
        const hs_real *Wk = W + e0;
        hs_real s = d[k] * b[k];
        s = gather_col(s, y, r, Wk, ne);
        x[k] += s;
        a1 += hs_abs(s);
        e0 = e1;
    }
    *na = a1;
    /* dl = s y; a NaN or Inf in it leaves a NaN in nf */
    hs_real nf = HS_R(0.0);
    for (int i = 0; i < nc; ++i) {
        const hs_real dl = (ls->sign < 0) ? -y[i] : y[i];
        l[i] += dl;
        nf += dl - dl;
    }
    return (nf == HS_R(0.0)) ? 1 : 0;
}

/* The assembled dense K (n x n) factored: LU with pivots, or with ls->ldlt the L D L^T of
 * [[A, s G^T], [G, -s C]] in the unknowns (x1, s x2), symmetric for s = +1 and s = -1 alike:
 * its lower triangle is K's but for the C block, whose sign follows s. */
static int dense_finish(const hs_linsys *ls, hs_real *K, int *piv)
{
    const int n = ls->n, nq = ls->nq;
    if (ls->ldlt == 0) {
        return hs_lu_factor(K, piv, n);
    }
    if ((ls->sign < 0) && (ls->reg != 0)) {
        for (int i = nq; i < n; ++i) {
            for (int j = nq; j <= i; ++j) { K[i * n + j] = -K[i * n + j]; }
        }
    }
    return hs_ldlt_factor(K, n);
}

/* Dense K (n x n, row-major) for L D L^T with one block each way: the lower triangle only
 * (the upper one is the factor's scratch), A = M - (c1 F1 + c2 F2) (nq x nq; M alone when F1
 * is NULL), G2 (nc x nq) and -C (nc x nc) or 0 without a multiplier block, each loop without
 * a test inside. */
HS_INLINE void dense_lower(const hs_linsys *ls, int n, int nq, int nc, hs_real *K, const hs_real *M, hs_real c1, const hs_real *F1,
                           hs_real c2, const hs_real *F2, const hs_real *G2, const hs_real *C)
{
    if (F1 != NULL) {
        for (int i = 0; i < nq; ++i) {
            for (int j = 0; j <= i; ++j) {
                const int k = i * nq + j;
                K[i * n + j] = M[k] - (c1 * F1[k] + c2 * F2[k]);
            }
        }
    } else {
        for (int i = 0; i < nq; ++i) {
            for (int j = 0; j <= i; ++j) { K[i * n + j] = M[i * nq + j]; }
        }
    }
    for (int i = 0; i < nc; ++i) {
        hs_real *Ki = K + (nq + i) * n;
        for (int j = 0; j < nq; ++j) { Ki[j] = G2[i * nq + j]; }
        if (ls->reg != 0) {
            for (int j = 0; j <= i; ++j) { Ki[nq + j] = -C[i * nc + j]; }
        } else {
            for (int j = 0; j <= i; ++j) { Ki[nq + j] = HS_R(0.0); }
        }
    }
}

/* Dense K (n x n) whole with one block each way (every model without a block list): plain
 * row-major copies of A (nq x nq, as dense_lower), s G1^T (G1 nc x nq), G2 (nc x nq) and -C
 * (nc x nc) or 0, for LU. */
HS_INLINE void dense_rowmajor(const hs_linsys *ls, int n, int nq, int nc, hs_real *K, const hs_real *M, hs_real c1, const hs_real *F1,
                              hs_real c2, const hs_real *F2, const hs_real *G1, const hs_real *G2,
                              const hs_real *C)
{
    for (int i = 0; i < nq; ++i) {
        if (F1 != NULL) {
            for (int j = 0; j < nq; ++j) {
                const int k = i * nq + j;
                K[i * n + j] = M[k] - (c1 * F1[k] + c2 * F2[k]);
            }
        } else {
            for (int j = 0; j < nq; ++j) { K[i * n + j] = M[i * nq + j]; }
        }
        if (ls->sign < 0) {
            for (int j = 0; j < nc; ++j) { K[i * n + nq + j] = -G1[j * nq + i]; }
        } else {
            for (int j = 0; j < nc; ++j) { K[i * n + nq + j] = G1[j * nq + i]; }
        }
    }
    for (int i = 0; i < nc; ++i) {
        for (int j = 0; j < nq; ++j) { K[(nq + i) * n + j] = G2[i * nq + j]; }
        if (ls->reg != 0) {
            for (int j = 0; j < nc; ++j) { K[(nq + i) * n + nq + j] = -C[i * nc + j]; }
        } else {
            for (int j = 0; j < nc; ++j) { K[(nq + i) * n + nq + j] = HS_R(0.0); }
        }
    }
}

/* Dense K (n x n) from the listed blocks (ls->b): zeroed, then A's packed blocks (A_ENTRY),
 * G1's and G2's packed blocks (s G1^T above, G2 below) and -C's diagonal blocks scattered:
 * the packed arrays are read in the order the block list gives. */
HS_INLINE void dense_blocks(const hs_linsys *ls, int n, int nq, hs_real *K, const hs_real *M, hs_real c1, const hs_real *F1,
                            hs_real c2, const hs_real *F2, const hs_real *G1, const hs_real *G2,
                            const hs_real *C)
{
    const hs_blocks *b = &ls->b;
    for (int i = 0; i < n * n; ++i) { K[i] = HS_R(0.0); }
    int o = 0;
    for (int k = 0; k < b->nqq; ++k) {
        const int I = b->qq[2 * k], J = b->qq[2 * k + 1];
        for (int i = b->qb[I]; i < b->qb[I + 1]; ++i) {
            for (int j = b->qb[J]; j < b->qb[J + 1]; ++j, ++o) { K[i * n + j] = A_ENTRY(o); }
        }
    }
    const hs_real *g1 = G1, *g2 = G2;
    for (int k = 0; k < b->ncq; ++k) {
        const int I = b->cq[2 * k], J = b->cq[2 * k + 1];
        for (int i = b->cb[I]; i < b->cb[I + 1]; ++i) {
            for (int j = b->qb[J]; j < b->qb[J + 1]; ++j) {
                const hs_real v1 = *g1++;
                K[j * n + nq + i] = ls->sign < 0 ? -v1 : v1;
                K[(nq + i) * n + j] = *g2++;
            }
        }
    }
    if (ls->reg != 0) {
        const hs_real *c = C;
        for (int k = 0; k < b->ncb; ++k) {
            for (int i = b->cb[k]; i < b->cb[k + 1]; ++i) {
                for (int j = b->cb[k]; j < b->cb[k + 1]; ++j) { K[(nq + i) * n + nq + j] = -*c++; }
            }
        }
    }
}

/* The sparse factor's values V (its slots) straight from the packed blocks, each entry it
 * reads once through the analysis' lists (zlist: slots zeroed; act: pairs source, slot of A,
 * G1, G2 and C in turn), with the multiplier column negated for s = -1. */
HS_INLINE void sparse_slots(const hs_linsys *ls, hs_real *V, const hs_real *M, hs_real c1, const hs_real *F1,
                            hs_real c2, const hs_real *F2, const hs_real *G1, const hs_real *G2,
                            const hs_real *C)
{
    const int *zl = ls->zlist, *a = ls->act;
    for (int k = 0; k < ls->nzero; ++k) { V[zl[k]] = HS_R(0.0); }
    if (F1 != NULL) {
        for (int k = 0; k < ls->nact[0]; ++k, a += 2) {
            const int i = a[0];
            V[a[1]] = M[i] - (c1 * F1[i] + c2 * F2[i]);
        }
    } else {
        for (int k = 0; k < ls->nact[0]; ++k, a += 2) { V[a[1]] = M[a[0]]; }
    }
    for (int k = 0; k < ls->nact[1]; ++k, a += 2) { V[a[1]] = G1[a[0]]; }
    for (int k = 0; k < ls->nact[2]; ++k, a += 2) { V[a[1]] = G2[a[0]]; }
    for (int k = 0; k < ls->nact[3]; ++k, a += 2) { V[a[1]] = (ls->sign < 0) ? C[a[0]] : -C[a[0]]; }
}

hs_status hs_linsys_factor(const hs_linsys *ls, hs_ls_fac *F, const hs_real *M, hs_real c1,
                     const hs_real *F1, hs_real c2, const hs_real *F2, const hs_real *G1,
                     const hs_real *G2, const hs_real *C)
{
    const int n = ls->n, nq = ls->nq, nc = ls->nc;
    if (ls->kind == HS_LS_DENSE) {
        hs_real *K = F->x;
        if ((ls->dense1 != 0) && (ls->ldlt != 0)) {
            dense_lower(ls, n, nq, nc, K, M, c1, F1, c2, F2, G2, C);
            return dense_finish(ls, K, F->piv);
        }
        if (ls->dense1 != 0) {
            dense_rowmajor(ls, n, nq, nc, K, M, c1, F1, c2, F2, G1, G2, C);
            return dense_finish(ls, K, F->piv);
        }
        dense_blocks(ls, n, nq, K, M, c1, F1, c2, F2, G1, G2, C);
        return dense_finish(ls, K, F->piv);
    }
    if (ls->schur != 0) {
        return schur_factor(ls, F, M, c1, F1, c2, F2, G2, C);
    }
    /* sparse: values into the fixed order of the analysis; with s = -1 the multiplier column
     * is negated (unknown -x2) so the backend always sees [[A, G1^T], [G2, s C]] */
    if (ls->slots != 0) {
        hs_real *V = F->x;
        sparse_slots(ls, V, M, c1, F1, c2, F2, G1, G2, C);
        return ls->be->factor_slots(ls->sym, V);
    }
    hs_real *Ax = F->Ax;
    const int *mapA = ls->mapA;
    if (F1 != NULL) {
        for (int k = 0; k < ls->nA; ++k) { Ax[mapA[k]] = M[k] - (c1 * F1[k] + c2 * F2[k]); }
    } else {
        for (int k = 0; k < ls->nA; ++k) { Ax[mapA[k]] = M[k]; }
    }
    const int *mapG1 = ls->mapG1, *mapG2 = ls->mapG2;
    for (int k = 0; k < ls->nG; ++k) { Ax[mapG1[k]] = G1[k]; Ax[mapG2[k]] = G2[k]; }
    if (ls->reg != 0) {
        for (int k = 0; k < ls->nC; ++k) { Ax[ls->mapC[k]] = ls->sign < 0 ? C[k] : -C[k]; }
    }
    return ls->be->factor(ls->sym, Ax, F->x);
}

/* The solve of hs_linsys_solve (zpos = 0) and hs_linsys_solve_c (zpos = 1: b's position part
 * is zero, which the sparse backend's solve_c uses); one body, inlined into both. */
static inline void ls_solve(const hs_linsys *ls, const hs_ls_fac *F, hs_real *b, int zpos)
{
    if (ls->kind == HS_LS_DENSE) {
        if (ls->ldlt != 0) {
            hs_ldlt_solve(F->x, ls->n, b);
            if (ls->sign < 0) {
                for (int i = ls->nq; i < ls->n; ++i) { b[i] = -b[i]; }
            }
            return;
        }
        hs_lu_solve(F->x, F->piv, ls->n, b);
        return;
    }
    if (ls->schur != 0) {
        schur_solve(ls, F, b, zpos, NULL);
        return;
    }
    if ((zpos != 0) && (ls->be->solve_c != NULL)) {
        ls->be->solve_c(ls->sym, F->x, b, F->work);
    } else {
        ls->be->solve(ls->sym, F->x, b, F->work);
    }
    if (ls->sign < 0) {
        for (int i = ls->nq; i < ls->n; ++i) { b[i] = -b[i]; }
    }
}

void hs_linsys_solve(const hs_linsys *ls, const hs_ls_fac *F, hs_real *b)
{
    ls_solve(ls, F, b, 0);
}

void hs_linsys_solve_c(const hs_linsys *ls, const hs_ls_fac *F, hs_real *b)
{
    ls_solve(ls, F, b, 1);
}

void hs_linsys_solve_c_sub(const hs_linsys *ls, const hs_ls_fac *F, hs_real *b, hs_real *x)
{
    if (ls->schur != 0) {
        schur_solve(ls, F, b, 1, x);
        return;
    }
    for (int k = 0; k < ls->nq; ++k) { b[k] = HS_R(0.0); }
    ls_solve(ls, F, b, 1);
    for (int k = 0; k < ls->nq; ++k) { x[k] -= b[k]; }
}
