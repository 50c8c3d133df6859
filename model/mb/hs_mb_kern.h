/* hs_mb_kern.h - the kernels of a description's compiled plan (model/mb/hs_mb_plan.c): one call
 * per row group or force element, every index and constant read from its hs_mb_kop. The
 * file-loaded path runs them from the plan mb->kop; hilstep-mbgen writes them for a generated
 * description as direct calls on const hs_mb_kop tables, so the compiler folds the arguments
 * into constants and the generated hooks walk no table. Same kernels, same expressions: the
 * two give the same bits. Internal to the multibody layer and its generated files. */
#ifndef HS_MB_KERN_H
#define HS_MB_KERN_H

#include "hs_mb_int.h"
#include "hs_math.h"

/* Inlined where called (a hook asks for some outputs only: the others are constant NULLs). */
#define HS_MBK_INL static inline __attribute__((always_inline))

/* Kernels (hs_mb_kop.kind). Points are point2 bodies; "ground" a fixed ground point folded
 * into the constants; "moving" a ground point on the car axle's circle (moving = 2). */
#define HS_MBK_PAIR_PP 1 /* rows r, r + 1: planar a's point = planar b's point */
#define HS_MBK_PAIR_PG 2 /* rows r, r + 1: planar a's point = a ground point */
#define HS_MBK_DIST_QQ 3 /* row r: |a - b|^2 = L^2, points a, b */
#define HS_MBK_DIST_QG 4 /* row r: |a - g|^2 = L^2, point a, ground point g */
#define HS_MBK_DOT_QM 5 /* row r: (a + c01) . (m(t) + c23) = value + f(t), point a, moving m */
#define HS_MBK_SPR_QG 6 /* undamped spring, point a to a ground point */
#define HS_MBK_SPR_QM 7 /* undamped spring, point a to a moving ground point */
#define HS_MBK_SPR_QQ 8 /* undamped spring, point a to point b */

HS_MBK_INL void hs_mbk_zero(hs_real *A, int n)
{
    /* the n % 4 first, then four at a time (the packed K of a chain is hundreds of entries) */
    const int r = n % 4;
    for (int i = 0; i < r; ++i) { A[i] = HS_R(0.0); }
    for (int i = r; i < n; i += 4) {
        A[i] = HS_R(0.0); A[i + 1] = HS_R(0.0); A[i + 2] = HS_R(0.0); A[i + 3] = HS_R(0.0);
    }
}

/* The car axle's road point (moving = 2: y = fy(t), x = sqrt(R^2 - y^2) about s) at t into r;
 * with v not NULL its velocity v and acceleration a too (fkin's expressions). */
HS_MBK_INL void hs_mbk_move2(const hs_mb_point *pt, hs_real t, hs_real *r, hs_real *v, hs_real *a)
{
    /* f(t) = a + b t + c sin(w t + phi) of y inline (mb_fn_eval's expressions) */
    const hs_mb_fn *f = &pt->f[1];
    hs_real sn, cs;
    hs_sincos(f->w * t + f->phi, &sn, &cs);
    const hs_real y = f->a + f->b * t + f->c * sn;
    const hs_real x = hs_sqrt(pt->radius * pt->radius - y * y);
    r[0] = pt->s[0] + x;
    r[1] = pt->s[1] + y;
    if (v != NULL) {
        const hs_real y1 = f->b + f->c * f->w * cs;
        const hs_real y2 = -f->c * f->w * f->w * sn;
        const hs_real x1 = -y * y1 / x;
        const hs_real x2 = -(y1 * y1 + y * y2 + x1 * x1) / x;
        v[0] = x1; v[1] = y1;
        a[0] = x2; a[1] = y2;
    }
}

/* What a row hook asks for (any pointer NULL when not wanted). */
typedef struct hs_mbk_rq {
    hs_real t;
    const hs_real *q, *u, *lam;
    hs_real *g, *G, *gt, *gam, *K;
} hs_mbk_rq;

/* Rows r, r + 1: planar a's point minus (planar b's point | the constants). */
HS_MBK_INL void hs_mbk_pair(const hs_mb_kop *op, int two, const hs_real *sc, const hs_mbk_rq *x)
{
    const int r = op->r;
    const hs_real *xa = &x->q[op->qa];
    const hs_real sn = sc[2 * op->ba], cs = sc[2 * op->ba + 1];
    const hs_real ra0 = cs * op->sa[0] - sn * op->sa[1], ra1 = sn * op->sa[0] + cs * op->sa[1];
    hs_real rb0 = HS_R(0.0), rb1 = HS_R(0.0);
    hs_real p0 = op->c[0] + (xa[0] + ra0), p1 = op->c[1] + (xa[1] + ra1);
    if (two != 0) {
        const hs_real *xb = &x->q[op->qb];
        const hs_real sb = sc[2 * op->bb], cb = sc[2 * op->bb + 1];
        rb0 = cb * op->sb[0] - sb * op->sb[1];
        rb1 = sb * op->sb[0] + cb * op->sb[1];
        p0 -= xb[0] + rb0;
        p1 -= xb[1] + rb1;
    }
    if (x->g != NULL) { x->g[r] = p0 - op->c[2]; x->g[r + 1] = p1 - op->c[3]; }
    if (x->G != NULL) {
        hs_real *A = &x->G[op->ga], *A2 = &x->G[op->ga2];
        A[0] = HS_R(1.0); A[1] = HS_R(0.0); A[2] = -ra1;
        A2[0] = HS_R(0.0); A2[1] = HS_R(1.0); A2[2] = ra0;
        if (two != 0) {
            hs_real *B = &x->G[op->gb], *B2 = &x->G[op->gb2];
            B[0] = HS_R(-1.0); B[1] = HS_R(0.0); B[2] = rb1;
            B2[0] = HS_R(0.0); B2[1] = HS_R(-1.0); B2[2] = -rb0;
        }
    }
    if (x->gt != NULL) { x->gt[r] = HS_R(0.0); x->gt[r + 1] = HS_R(0.0); }
    if (x->gam != NULL) {
        const hs_real wa = x->u[op->qa + 2];
        hs_real a0 = -wa * wa * ra0, a1 = -wa * wa * ra1;
        if (two != 0) {
            const hs_real wb = x->u[op->qb + 2];
            a0 -= -wb * wb * rb0;
            a1 -= -wb * wb * rb1;
        }
        x->gam[r] = a0;
        x->gam[r + 1] = a1;
    }
    if (x->K != NULL) {
        const hs_real l0 = x->lam[r], l1 = x->lam[r + 1];
        x->K[op->kaa] -= l0 * ra0 + l1 * ra1;
        if (two != 0) { x->K[op->kbb] += l0 * rb0 + l1 * rb1; }
    }
}

/* Row r: |a - b|^2 - L^2 of points a and (b | the constants). */
HS_MBK_INL void hs_mbk_dist(const hs_mb_kop *op, int two, const hs_mbk_rq *x)
{
    const int r = op->r;
    const hs_real *xa = &x->q[op->qa];
    hs_real a0 = op->c[0] + (xa[0] + op->sa[0]), a1 = op->c[1] + (xa[1] + op->sa[1]);
    if (two != 0) {
        const hs_real *xb = &x->q[op->qb];
        a0 -= xb[0] + op->sb[0];
        a1 -= xb[1] + op->sb[1];
    }
    if (x->g != NULL) { x->g[r] = a0 * a0 + a1 * a1 - op->c[2]; }
    if (x->G != NULL) {
        const hs_real d0 = HS_R(2.0) * a0, d1 = HS_R(2.0) * a1;
        x->G[op->ga] = d0; x->G[op->ga + 1] = d1;
        if (two != 0) { x->G[op->gb] = -d0; x->G[op->gb + 1] = -d1; }
    }
    if (x->gt != NULL) { x->gt[r] = HS_R(0.0); }
    if (x->gam != NULL) {
        hs_real v0 = x->u[op->qa], v1 = x->u[op->qa + 1];
        if (two != 0) { v0 -= x->u[op->qb]; v1 -= x->u[op->qb + 1]; }
        x->gam[r] = HS_R(2.0) * (v0 * v0 + v1 * v1);
    }
    if (x->K != NULL) {
        /* lam |a - b|^2: 2 lam [[I, -I], [-I, I]] */
        const hs_real c = HS_R(2.0) * x->lam[r];
        hs_real *K = x->K;
        K[op->kaa] += c; K[op->kaa + op->sta + 1] += c;
        if (two != 0) {
            K[op->kbb] += c; K[op->kbb + op->stb + 1] += c;
            K[op->kab] -= c; K[op->kab + op->sta + 1] -= c;
            K[op->kba] -= c; K[op->kba + op->stb + 1] -= c;
        }
    }
}

/* Row r: (a + c01) . (m(t) + c23) - value - f(t), point a, moving ground point m (linear in
 * q: no K). */
HS_MBK_INL void hs_mbk_dot_qm(const hs_mb_kop *op, const hs_mbk_rq *x)
{
    const int r = op->r;
    const hs_real *xa = &x->q[op->qa];
    const int rates = (int)((x->gt != NULL) || (x->gam != NULL));
    hs_real m[2], mv[2] = {HS_R(0.0), HS_R(0.0)}, ma[2] = {HS_R(0.0), HS_R(0.0)};
    hs_mbk_move2(op->pt, x->t, m, (rates != 0) ? mv : NULL, ma);
    hs_real fv = HS_R(0.0), fd = HS_R(0.0), fdd = HS_R(0.0);
    if (op->f != NULL) { mb_fn_eval(op->f, x->t, &fv, &fd, &fdd); }
    const hs_real a0 = op->c[0] + (xa[0] + op->sa[0]), a1 = op->c[1] + (xa[1] + op->sa[1]);
    const hs_real b0 = op->c[2] + m[0], b1 = op->c[3] + m[1];
    if (x->g != NULL) { x->g[r] = a0 * b0 + a1 * b1 - op->k - fv; }
    if (x->G != NULL) { x->G[op->ga] = b0; x->G[op->ga + 1] = b1; }
    if (x->gt != NULL) { x->gt[r] = a0 * mv[0] + a1 * mv[1] - fd; }
    if (x->gam != NULL) {
        const hs_real *ud = &x->u[op->qa];
        x->gam[r] = (HS_R(2.0) * (ud[0] * mv[0] + ud[1] * mv[1]) + (a0 * ma[0] + a1 * ma[1])) - fdd;
    }
}

/* An undamped spring's end b (m): point b, the moving ground point at t, or the fixed point
 * (kind: op's, given apart so that a caller that knows it folds the tests away). */
HS_MBK_INL void hs_mbk_spring_b(const hs_mb_kop *op, int kind, hs_real t, const hs_real *q, hs_real *rb)
{
    if (kind == HS_MBK_SPR_QQ) {
        rb[0] = q[op->qb] + op->sb[0];
        rb[1] = q[op->qb + 1] + op->sb[1];
    } else if (kind == HS_MBK_SPR_QM) {
        hs_mbk_move2(op->pt, t, rb, NULL, NULL);
    } else {
        rb[0] = op->sb[0];
        rb[1] = op->sb[1];
    }
}

/* An undamped spring's force F = -k (l - l0) e on a and -F on b, added into f (the fast
 * path's expressions with c = 0); kind = op->kind. */
HS_MBK_INL int hs_mbk_spring_fk(const hs_mb_kop *op, int kind, hs_real t, const hs_real *q, hs_real *f)
{
    hs_real rb[2];
    hs_mbk_spring_b(op, kind, t, q, rb);
    const hs_real d0 = (q[op->qa] + op->sa[0]) - rb[0], d1 = (q[op->qa + 1] + op->sa[1]) - rb[1];
    const hs_real l = hs_sqrt(d0 * d0 + d1 * d1);
    if (!(l > HS_R(0.0))) { return HS_E_MODEL; } /* direction undefined at zero length */
    const hs_real s = op->k * (l - op->l0);
    const hs_real F0 = -s * (d0 / l), F1 = -s * (d1 / l);
    f[op->qa] += F0; f[op->qa + 1] += F1;
    if (kind == HS_MBK_SPR_QQ) { f[op->qb] -= F0; f[op->qb + 1] -= F1; }
    return HS_OK;
}

/* hs_mbk_spring_fk with op's own kind (a generated file's call: op is a constant there). */
HS_MBK_INL int hs_mbk_spring_f(const hs_mb_kop *op, hs_real t, const hs_real *q, hs_real *f)
{
    return hs_mbk_spring_fk(op, op->kind, t, q, f);
}

/* Its Jacobian Fd = dF/dd (symmetric: one off-diagonal value on both sides) added into fq;
 * kind = op->kind. */
HS_MBK_INL int hs_mbk_spring_jk(const hs_mb_kop *op, int kind, hs_real t, const hs_real *q, hs_real *fq)
{
    hs_real rb[2];
    hs_mbk_spring_b(op, kind, t, q, rb);
    const hs_real d0 = (q[op->qa] + op->sa[0]) - rb[0], d1 = (q[op->qa + 1] + op->sa[1]) - rb[1];
    const hs_real l = hs_sqrt(d0 * d0 + d1 * d1);
    if (!(l > HS_R(0.0))) { return HS_E_MODEL; }
    const hs_real e0 = d0 / l, e1 = d1 / l;
    const hs_real sl = op->k * (l - op->l0) / l;
    const hs_real f00 = -e0 * (op->k * e0) - sl * (HS_R(1.0) - e0 * e0);
    const hs_real f01 = -e0 * (op->k * e1) - sl * (HS_R(0.0) - e0 * e1);
    const hs_real f11 = -e1 * (op->k * e1) - sl * (HS_R(1.0) - e1 * e1);
    hs_real *A = &fq[op->kaa];
    A[0] += f00; A[1] += f01; A[op->sta] += f01; A[op->sta + 1] += f11;
    if (kind == HS_MBK_SPR_QQ) {
        hs_real *B = &fq[op->kbb], *C = &fq[op->kab], *E = &fq[op->kba];
        B[0] += f00; B[1] += f01; B[op->stb] += f01; B[op->stb + 1] += f11;
        C[0] -= f00; C[1] -= f01; C[op->sta] -= f01; C[op->sta + 1] -= f11;
        E[0] -= f00; E[1] -= f01; E[op->stb] -= f01; E[op->stb + 1] -= f11;
    }
    return HS_OK;
}

/* hs_mbk_spring_jk with op's own kind (a generated file's call). */
HS_MBK_INL int hs_mbk_spring_j(const hs_mb_kop *op, hs_real t, const hs_real *q, hs_real *fq)
{
    return hs_mbk_spring_jk(op, op->kind, t, q, fq);
}

/* 1 when the plan runs the hooks: compiled, every fast path on (a test turns them off to reach
 * the general evaluators) and the layout it was compiled for. */
static inline int hs_mbk_on(const hs_mb_model *mb)
{
    return (mb->plan != 0) && (mb->fast == (HS_MB_FAST_ROWS | HS_MB_FAST_FORCES | HS_MB_FAST_MASS))
           && (mb->packed == mb->plan_packed);
}

/* The end of a row pass: HS_OK when g and gamma (those asked for, nc each) are finite. */
HS_MBK_INL int hs_mbk_rows_done(const hs_real *g, const hs_real *gam, int nc)
{
    int ok = 1;
    if (g != NULL) { ok &= hs_all_finite(g, nc); }
    if (gam != NULL) { ok &= hs_all_finite(gam, nc); }
    return (ok != 0) ? HS_OK : HS_E_NONFINITE;
}

/* The end of a force pass: HS_OK when every spring had a direction (rc) and f (nq) is finite. */
HS_MBK_INL int hs_mbk_forces_done(int rc, const hs_real *f, int nq)
{
    return ((rc != (int)HS_OK) || (hs_all_finite(f, nq) == 0)) ? HS_E_MODEL : HS_OK;
}

#endif
