/* hs_rods.c - planar rods joined by revolute joints (see hs_rods.h). */
#include "hs_rods.h"
#include "hs_models.h"
#include "hs_math.h"

hs_status hs_rods_blocks(const hs_rods *r, hs_blocks *b, int *buf, int nbuf)
{
    if (r == NULL || b == NULL || buf == NULL) { return HS_E_NULL; }
    /* exactly the ints the pattern occupies: a caller may size buf from a previous call */
    int ncq_need = 0;
    for (int k = 0; k < r->nj; ++k) {
        hs_rod_joint j;
        r->joint(r->arg, k, &j);
        ncq_need += j.b >= 0 ? 2 : 1;
    }
    if (nbuf < r->nr + 1 + r->nj + 1 + 2 * r->nr + 2 * ncq_need) { return HS_E_SIZE; }
    int *qb = buf, *cb = qb + r->nr + 1, *qq = cb + r->nj + 1, *cq = qq + 2 * r->nr;
    for (int i = 0; i <= r->nr; ++i) { qb[i] = 3 * i; }
    for (int k = 0; k <= r->nj; ++k) { cb[k] = 2 * k; }
    for (int i = 0; i < r->nr; ++i) { qq[2 * i] = i; qq[2 * i + 1] = i; }
    int ncq = 0;
    for (int k = 0; k < r->nj; ++k) {
        hs_rod_joint j;
        r->joint(r->arg, k, &j);
        if (j.b >= 0) { cq[2 * ncq] = k; cq[2 * ncq + 1] = j.b; ++ncq; }
        cq[2 * ncq] = k; cq[2 * ncq + 1] = j.a; ++ncq;
    }
    b->nqb = r->nr; b->ncb = r->nj; b->nqq = r->nr; b->ncq = ncq;
    b->qb = qb; b->cb = cb; b->qq = qq; b->cq = cq;
    return HS_OK;
}

void hs_rods_mass(const hs_rods *r, hs_real *M)
{
    const hs_real I = r->m * r->len * r->len / HS_R(12.0);
    for (int i = 0; i < r->nr; ++i) {
        hs_real *B = M + 9 * i;
        B[0] = r->m; B[1] = HS_R(0.0); B[2] = HS_R(0.0);
        B[3] = HS_R(0.0); B[4] = r->m; B[5] = HS_R(0.0);
        B[6] = HS_R(0.0); B[7] = HS_R(0.0); B[8] = I;
    }
}

void hs_rods_force(const hs_rods *r, hs_real *f)
{
    for (int i = 0; i < r->nr; ++i) {
        f[3 * i] = HS_R(0.0);
        f[3 * i + 1] = -r->m * r->grav;
        f[3 * i + 2] = HS_R(0.0);
    }
}

void hs_rods_force_jac(const hs_rods *r, hs_real *fq, hs_real *fu)
{
    /* a rod's two blocks per pass, straight-line (the per-entry loop cost twice the stores) */
    for (int i = 0; i < r->nr; ++i) {
        hs_real *A = fq + 9 * i, *B = fu + 9 * i;
        A[0] = HS_R(0.0); A[1] = HS_R(0.0); A[2] = HS_R(0.0); A[3] = HS_R(0.0); A[4] = HS_R(0.0);
        A[5] = HS_R(0.0); A[6] = HS_R(0.0); A[7] = HS_R(0.0); A[8] = HS_R(0.0);
        B[0] = HS_R(0.0); B[1] = HS_R(0.0); B[2] = HS_R(0.0); B[3] = HS_R(0.0); B[4] = HS_R(0.0);
        B[5] = HS_R(0.0); B[6] = HS_R(0.0); B[7] = HS_R(0.0); B[8] = HS_R(0.0);
    }
}

/* (L/2) (cos theta, sin theta) of rod i into (*cx, *cy). */
static inline void half_dir(const hs_rods *r, const hs_real *q, int i, hs_real *cx, hs_real *cy)
{
    hs_real s, c;
    hs_sincos(q[3 * i + 2], &s, &c);
    const hs_real hl = HS_R(0.5) * r->len;
    *cx = hl * c;
    *cy = hl * s;
}

/* Four rods' half-directions, slot i & 3 for rod i (direct-mapped: one compare per lookup):
 * with joints listed so that the rods of nearby joints differ by less than four (the chain's
 * and the ladder's orders do this), every rod's sin/cos is computed once per call. Hits depend
 * on the joint indices only, not on values. */
typedef struct rcache {
    int rod[4];
    hs_real cx[4], cy[4];
} rcache;

static void rc_init(rcache *c)
{
    for (int k = 0; k < 4; ++k) { c->rod[k] = -1; }
}

static inline void rc_get(rcache *c, const hs_rods *r, const hs_real *q, int i, hs_real *cx, hs_real *cy)
{
    const int k = i & 3;
    if (c->rod[k] == i) { *cx = c->cx[k]; *cy = c->cy[k]; return; }
    half_dir(r, q, i, cx, cy);
    c->rod[k] = i; c->cx[k] = *cx; c->cy[k] = *cy;
}

void hs_rods_end(const hs_rods *r, const hs_real *q, int i, int s, hs_real *x, hs_real *y)
{
    hs_real cx, cy;
    half_dir(r, q, i, &cx, &cy);
    const hs_real sr = (hs_real)s;
    *x = q[3 * i] + sr * cx;
    *y = q[3 * i + 1] + sr * cy;
}

/* One 2x3 G block of end s of a rod with half-direction (cx, cy), times sign sg (+1 for
 * rod a, -1 for rod b): d(p)/d(x, y, theta) = [I, s (L/2) (-sin, cos)^T]. */
static void g_block(hs_real *B, hs_real sg, hs_real s, hs_real cx, hs_real cy)
{
    B[0] = sg; B[1] = HS_R(0.0); B[2] = -sg * s * cy;
    B[3] = HS_R(0.0); B[4] = sg; B[5] = sg * s * cx;
}

/* ---- the open chain (hs_rods.chain): joint k holds rod k's tail (s_a = -1) at rod k-1's head
 * (s_b = +1), rod b = -1 being the origin. The loops below are the generic ones' expressions
 * with those signs as constants (a product with +-1 is exact, so the values are the same bit
 * for bit); rod k's half-direction is computed once, at joint k, and kept in registers for
 * joint k + 1, where rod k is rod b: no joint() call, no cache lookups. ---- */

static int chain_constraint(const hs_rods *r, const hs_real *q, hs_real *g, hs_real *G, hs_real *gt)
{
    const hs_real sa = -HS_R(1.0), sb = HS_R(1.0);
    hs_real bx = HS_R(0.0), by = HS_R(0.0);
    int off = 0;
    for (int k = 0; k < r->nj; ++k) {
        hs_real ax, ay, px = HS_R(0.0), py = HS_R(0.0);
        if (k > 0) {
            px = q[3 * (k - 1)] + sb * bx;
            py = q[3 * (k - 1) + 1] + sb * by;
        }
        half_dir(r, q, k, &ax, &ay);
        if (g != NULL) {
            g[2 * k] = q[3 * k] + sa * ax - px;
            g[2 * k + 1] = q[3 * k + 1] + sa * ay - py;
        }
        if (G != NULL) {
            if (k > 0) {
                g_block(G + off, -HS_R(1.0), sb, bx, by);
                off += 6;
            }
            g_block(G + off, HS_R(1.0), sa, ax, ay);
            off += 6;
        }
        if (gt != NULL) {
            gt[2 * k] = HS_R(0.0);
            gt[2 * k + 1] = HS_R(0.0);
        }
        bx = ax;
        by = ay;
    }
    if ((g != NULL) && (hs_all_finite(g, 2 * r->nj) == 0)) {
        return HS_E_NONFINITE;
    }
    return HS_OK;
}

static int chain_all(const hs_rods *r, const hs_real *q, const hs_real *u, const hs_real *lambda,
                     hs_real *G, hs_real *gam, hs_real *K)
{
    const hs_real sa = -HS_R(1.0), sb = HS_R(1.0);
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    const int wantK = ((K != NULL) && (lambda != NULL)) ? 1 : 0;
    hs_real bx = HS_R(0.0), by = HS_R(0.0), wb = HS_R(0.0);
    int off = 0;
    int ok = 1;
    for (int k = 0; k < r->nj; ++k) {
        hs_real ax, ay, gx = HS_R(0.0), gy = HS_R(0.0);
        if (k > 0) {
            g_block(G + off, -HS_R(1.0), sb, bx, by);
            off += 6;
            const hs_real cb = sb * wb * wb;
            gx = cb * bx;
            gy = cb * by;
        }
        half_dir(r, q, k, &ax, &ay);
        g_block(G + off, HS_R(1.0), sa, ax, ay);
        off += 6;
        const hs_real wa = u[3 * k + 2], ca = -sa * wa * wa;
        gx += ca * ax;
        gy += ca * ay;
        gam[2 * k] = gx;
        gam[2 * k + 1] = gy;
        ok &= hs_isfinite(gx) & hs_isfinite(gy);
        if (wantK != 0) {
            /* rod k's entry: joint k's term (rod a), then joint k + 1's (rod b), both
             * starting from the zero the generic loop clears it to */
            hs_real *Kk = K + 9 * k;
            const hs_real lx = lambda[2 * k], ly = lambda[2 * k + 1];
            hs_real v = HS_R(0.0);
            v -= sa * (ax * lx + ay * ly);
            if (k + 1 < r->nj) {
                const hs_real mx = lambda[2 * k + 2], my = lambda[2 * k + 3];
                v += sb * (ax * mx + ay * my);
            }
            Kk[0] = HS_R(0.0); Kk[1] = HS_R(0.0); Kk[2] = HS_R(0.0);
            Kk[3] = HS_R(0.0); Kk[4] = HS_R(0.0); Kk[5] = HS_R(0.0);
            Kk[6] = HS_R(0.0); Kk[7] = HS_R(0.0); Kk[8] = v;
            ok &= hs_isfinite(v);
        }
        bx = ax;
        by = ay;
        wb = wa;
    }
    if ((K != NULL) && (wantK == 0)) {
        for (int e = 0; e < 9 * r->nr; ++e) { K[e] = HS_R(0.0); }
    }
    return (ok != 0) ? HS_OK : HS_E_NONFINITE;
}

hs_status hs_rods_constraint(const hs_rods *r, const hs_real *q, hs_real *g, hs_real *G, hs_real *gt)
{
    if (r->chain != 0) {
        return chain_constraint(r, q, g, G, gt);
    }
    int off = 0;
    rcache c;
    rc_init(&c);
    for (int k = 0; k < r->nj; ++k) {
        hs_rod_joint j;
        r->joint(r->arg, k, &j);
        const hs_real sa = (hs_real)j.sa, sb = (hs_real)j.sb;
        hs_real ax, ay, bx = HS_R(0.0), by = HS_R(0.0), px = HS_R(0.0), py = HS_R(0.0);
        if (j.b >= 0) {
            rc_get(&c, r, q, j.b, &bx, &by);
            px = q[3 * j.b] + sb * bx;
            py = q[3 * j.b + 1] + sb * by;
        }
        rc_get(&c, r, q, j.a, &ax, &ay);
        if (g != NULL) {
            g[2 * k] = q[3 * j.a] + sa * ax - px;
            g[2 * k + 1] = q[3 * j.a + 1] + sa * ay - py;
        }
        if (G != NULL) {
            if (j.b >= 0) { g_block(G + off, -HS_R(1.0), sb, bx, by); off += 6; }
            g_block(G + off, HS_R(1.0), sa, ax, ay);
            off += 6;
        }
        if (gt != NULL) { gt[2 * k] = HS_R(0.0); gt[2 * k + 1] = HS_R(0.0); }
    }
    if (g != NULL && hs_all_finite(g, 2 * r->nj) == 0) { return HS_E_NONFINITE; }
    return HS_OK;
}

hs_status hs_rods_gamma(const hs_rods *r, const hs_real *q, const hs_real *u, hs_real *gam)
{
    /* p'' = c'' + s (L/2) n theta'' - s (L/2) e theta'^2: the last term is the remainder */
    rcache c;
    rc_init(&c);
    for (int k = 0; k < r->nj; ++k) {
        hs_rod_joint j;
        r->joint(r->arg, k, &j);
        hs_real gx = HS_R(0.0), gy = HS_R(0.0);
        if (j.b >= 0) {
            hs_real bx, by;
            rc_get(&c, r, q, j.b, &bx, &by);
            const hs_real wb = u[3 * j.b + 2], cb = (hs_real)j.sb * wb * wb;
            gx = cb * bx;
            gy = cb * by;
        }
        hs_real ax, ay;
        rc_get(&c, r, q, j.a, &ax, &ay);
        const hs_real wa = u[3 * j.a + 2], ca = -(hs_real)j.sa * wa * wa;
        gx += ca * ax;
        gy += ca * ay;
        gam[2 * k] = gx;
        gam[2 * k + 1] = gy;
    }
    return hs_all_finite(gam, 2 * r->nj) ? HS_OK : HS_E_NONFINITE;
}

hs_status hs_rods_curvature(const hs_rods *r, const hs_real *q, const hs_real *lambda, hs_real *K)
{
    for (int e = 0; e < 9 * r->nr; ++e) { K[e] = HS_R(0.0); }
    rcache c;
    rc_init(&c);
    for (int k = 0; k < r->nj; ++k) {
        hs_rod_joint j;
        r->joint(r->arg, k, &j);
        const hs_real lx = lambda[2 * k], ly = lambda[2 * k + 1];
        if (j.b >= 0) {
            hs_real bx, by;
            rc_get(&c, r, q, j.b, &bx, &by);
            K[9 * j.b + 8] += (hs_real)j.sb * (bx * lx + by * ly);
        }
        hs_real ax, ay;
        rc_get(&c, r, q, j.a, &ax, &ay);
        K[9 * j.a + 8] -= (hs_real)j.sa * (ax * lx + ay * ly);
    }
    int ok = 1;
    for (int i = 0; i < r->nr; ++i) { ok &= hs_isfinite(K[9 * i + 8]); /* the only entries written */ }
    return ok ? HS_OK : HS_E_NONFINITE;
}

hs_status hs_rods_constraint_all(const hs_rods *r, const hs_real *q, const hs_real *u, const hs_real *lambda,
                           hs_real *G, hs_real *gam, hs_real *K)
{
    if (r->chain != 0) {
        return chain_all(r, q, u, lambda, G, gam, K);
    }
    /* constraint()'s G, gamma()'s remainder and curvature()'s K, joint by joint in their order,
     * each rod's half-direction once */
    if (K != NULL) {
        for (int e = 0; e < 9 * r->nr; ++e) { K[e] = HS_R(0.0); }
    }
    int off = 0;
    rcache c;
    rc_init(&c);
    for (int k = 0; k < r->nj; ++k) {
        hs_rod_joint j;
        r->joint(r->arg, k, &j);
        const hs_real sa = (hs_real)j.sa, sb = (hs_real)j.sb;
        hs_real bx = HS_R(0.0), by = HS_R(0.0), ax, ay, gx = HS_R(0.0), gy = HS_R(0.0);
        if (j.b >= 0) {
            rc_get(&c, r, q, j.b, &bx, &by);
            g_block(G + off, -HS_R(1.0), sb, bx, by);
            off += 6;
            const hs_real wb = u[3 * j.b + 2], cb = sb * wb * wb;
            gx = cb * bx;
            gy = cb * by;
        }
        rc_get(&c, r, q, j.a, &ax, &ay);
        g_block(G + off, HS_R(1.0), sa, ax, ay);
        off += 6;
        const hs_real wa = u[3 * j.a + 2], ca = -sa * wa * wa;
        gx += ca * ax;
        gy += ca * ay;
        gam[2 * k] = gx;
        gam[2 * k + 1] = gy;
        if ((K != NULL) && (lambda != NULL)) {
            const hs_real lx = lambda[2 * k], ly = lambda[2 * k + 1];
            if (j.b >= 0) { K[9 * j.b + 8] += sb * (bx * lx + by * ly); }
            K[9 * j.a + 8] -= sa * (ax * lx + ay * ly);
        }
    }
    int ok = hs_all_finite(gam, 2 * r->nj);
    if (K != NULL) {
        for (int i = 0; i < r->nr; ++i) { ok &= hs_isfinite(K[9 * i + 8]); }
    }
    return ok ? HS_OK : HS_E_NONFINITE;
}

hs_real hs_rods_energy(const hs_rods *r, const hs_real *q, const hs_real *u)
{
    const hs_real I = r->m * r->len * r->len / HS_R(12.0);
    hs_real T = HS_R(0.0), V = HS_R(0.0);
    for (int i = 0; i < r->nr; ++i) {
        const hs_real *v = u + 3 * i;
        T += r->m * (v[0] * v[0] + v[1] * v[1]) + I * v[2] * v[2];
        V += q[3 * i + 1];
    }
    return HS_R(0.5) * T + r->m * r->grav * V;
}

/* ---- the type functions chain and ladder share; the family is the type's data ---- */

#define FAM(m) ((const hs_rods_family *)(m)->type->data)
#define RP(m) ((const hs_rods_params *)(m)->p)

int hs_rods_links(const hs_model *m)
{
    const hs_real v = RP(m)->n;
    if (!(v >= HS_R(1.0) && v <= (hs_real)FAM(m)->n_max)) { return 0; }
    const int n = (int)v;
    return (hs_real)n == v ? n : 0;
}

hs_rods hs_rods_of(const hs_model *m)
{
    const hs_rods_family *f = FAM(m);
    const int n = hs_rods_links(m);
    hs_rods r;
    r.nr = f->rods_per_link * n + f->rods_extra;
    r.nj = f->joints_per_link * n + f->joints_extra;
    r.m = RP(m)->m; r.len = RP(m)->len; r.grav = RP(m)->grav;
    r.joint = f->joint; r.arg = n;
    r.chain = f->chain;
    return r;
}

int hs_rods_fn_check(const hs_model *m) { return hs_rods_links(m) ? HS_OK : HS_E_MODEL_PARAM; }

int hs_rods_fn_dims(const hs_model *m, hs_dims *d)
{
    if (hs_rods_links(m) == 0) { return HS_E_MODEL_PARAM; }
    const hs_rods r = hs_rods_of(m);
    d->nq = 3 * r.nr; d->nc = 2 * r.nj; d->nz = 0; d->nin = 0; d->nout = HS_RODS_NOUT;
    return HS_OK;
}

int hs_rods_fn_blocks(const hs_model *m, hs_blocks *b, int *buf, int nbuf)
{
    const hs_rods r = hs_rods_of(m);
    return hs_rods_blocks(&r, b, buf, nbuf);
}

int hs_rods_fn_masks(const hs_model *m, int *qq_mask, int *cq_mask)
{
    const hs_rods r = hs_rods_of(m);
    /* M = diag(m, m, I) per rod, fq = fu = 0, K on the theta diagonal only */
    for (int i = 0; i < r.nr; ++i) {
        for (int e = 0; e < 9; ++e) {
            /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
            qq_mask[9 * i + e] = (e % 4 == 0) ? 1 : 0;
        }
    }
    /* each G block [[1, 0, *], [0, 1, *]] up to sign (g_block) */
    int nb = 0;
    for (int k = 0; k < r.nj; ++k) {
        hs_rod_joint j;
        r.joint(r.arg, k, &j);
        nb += (j.b >= 0) ? 2 : 1;
    }
    for (int k = 0; k < nb; ++k) {
        int *B = cq_mask + 6 * k;
        B[0] = 1; B[1] = 0; B[2] = 1;
        B[3] = 0; B[4] = 1; B[5] = 1;
    }
    return HS_OK;
}

int hs_rods_fn_mass(const hs_model *m, hs_real t, const hs_real *q, hs_real *M)
{
    (void)t; (void)q;
    const hs_rods r = hs_rods_of(m);
    hs_rods_mass(&r, M);
    return HS_OK;
}

int hs_rods_fn_force(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                     const hs_real *z, const hs_real *in, hs_real *f)
{
    (void)t; (void)q; (void)u; (void)z; (void)in;
    const hs_rods r = hs_rods_of(m);
    hs_rods_force(&r, f);
    return HS_OK;
}

int hs_rods_fn_force_jac(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                         const hs_real *z, const hs_real *in, hs_real *fq, hs_real *fu)
{
    (void)t; (void)q; (void)u; (void)z; (void)in;
    const hs_rods r = hs_rods_of(m);
    hs_rods_force_jac(&r, fq, fu);
    return HS_OK;
}

int hs_rods_fn_constraint(const hs_model *m, hs_real t, const hs_real *q, hs_real *g,
                          hs_real *G, hs_real *gt)
{
    (void)t;
    const hs_rods r = hs_rods_of(m);
    return hs_rods_constraint(&r, q, g, G, gt);
}

int hs_rods_fn_gamma(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                     hs_real *gam)
{
    (void)t;
    const hs_rods r = hs_rods_of(m);
    return hs_rods_gamma(&r, q, u, gam);
}

int hs_rods_fn_curvature(const hs_model *m, hs_real t, const hs_real *q, const hs_real *lambda,
                         hs_real *K)
{
    (void)t;
    const hs_rods r = hs_rods_of(m);
    return hs_rods_curvature(&r, q, lambda, K);
}

int hs_rods_fn_constraint_all(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                              const hs_real *lambda, hs_real *G, hs_real *gam, hs_real *K)
{
    (void)t;
    const hs_rods r = hs_rods_of(m);
    return hs_rods_constraint_all(&r, q, u, lambda, G, gam, K);
}

int hs_rods_fn_energy(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                      const hs_real *z, hs_real *E)
{
    (void)t; (void)z;
    const hs_rods r = hs_rods_of(m);
    *E = hs_rods_energy(&r, q, u);
    return hs_isfinite(*E) ? HS_OK : HS_E_NONFINITE;
}

int hs_rods_fn_output(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                      const hs_real *z, const hs_real *in, hs_real *y)
{
    (void)t; (void)z; (void)in;
    const hs_rods r = hs_rods_of(m);
    y[0] = hs_rods_energy(&r, q, u);
    hs_rods_end(&r, q, r.nr - 1, 1, &y[1], &y[2]);
    return HS_OK;
}

int hs_rods_fn_release(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, hs_real *E)
{
    if ((m == NULL) || (q == NULL) || (u == NULL) || (E == NULL)) {
        return HS_E_NULL;
    }
    const hs_rods r = hs_rods_of(m);
    /* Rod i's depth d_i (rods on a joint path to the origin, its own included) is at most
     * i + 1: joints list rod a with a lower rod b < a or the origin (hs_rod_joint), so by
     * induction d_a <= d_b + 1 <= a + 1; a joint to the origin gives 1. A rod no joint holds
     * could fall without end: it gets nr + 1 (the shipped families hold every rod). */
    hs_real depth = HS_R(0.0);
    for (int i = 0; i < r.nr; ++i) {
        int d = r.nr + 1;
        for (int k = 0; k < r.nj; ++k) {
            hs_rod_joint j;
            r.joint(r.arg, k, &j);
            if (j.a == i) {
                const int dj = (j.b < 0) ? 1 : (j.b + 2);
                d = (dj < d) ? dj : d;
            }
        }
        depth += (hs_real)d - HS_R(0.5);
    }
    hs_real E0 = HS_R(0.0);
    const int rc = hs_rods_fn_energy(m, t, q, u, NULL, &E0);
    if (rc != (int)HS_OK) {
        return rc;
    }
    /* gravity's potential is zero at y = 0 (hs_rods_energy); its floor -m g L sum (d_i - 1/2) */
    *E = E0 + r.m * r.grav * r.len * depth;
    return HS_OK;
}

int hs_rods_fn_motion(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                      hs_real *omega, int *degenerate, int *who)
{
    (void)t;
    if ((m == NULL) || (q == NULL) || (u == NULL) || (omega == NULL) || (degenerate == NULL)
        || (who == NULL)) {
        return HS_E_NULL;
    }
    const hs_rods r = hs_rods_of(m);
    const int rc = hs_rods_fn_spin(m, q, u, omega, who);
    if (rc != (int)HS_OK) {
        return rc;
    }
    *degenerate = 0;
    if (r.nj > r.nr) {
        *degenerate = 1; /* more joints than rods: a closed loop that can fold flat */
    }
    if (!(*omega > HS_R(0.0))) {
        *who = HS_WHO_NONE; /* at rest no rod sets anything */
    }
    return HS_OK;
}

int hs_rods_fn_spin(const hs_model *m, const hs_real *q, const hs_real *u, hs_real *w, int *body)
{
    if ((m == NULL) || (q == NULL) || (u == NULL) || (w == NULL) || (body == NULL)) {
        return HS_E_NULL;
    }
    (void)q;
    const hs_rods r = hs_rods_of(m);
    hs_real wmax = HS_R(0.0);
    *body = -1;
    for (int i = 0; i < r.nr; ++i) {
        const hs_real wi = hs_abs(u[(3 * i) + 2]);
        /* a NaN rate is kept (and refused by the caller's !(h w <= limit)) */
        if ((*body < 0) || (wi > wmax) || (hs_isfinite(wi) == 0)) {
            wmax = wi;
            *body = i;
        }
    }
    *w = wmax;
    return HS_OK;
}
