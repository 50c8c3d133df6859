/* hs_mb_rot.c - rotational force elements between quaternion bodies (or a body and ground):
 * the hinge spring-damper and joint motor about a spatial hinge axis, the kingpin's steering
 * spring-damper about the heading of an axle, and the rotational part of a spatial bushing,
 * with analytic f, fq and fu.
 *
 * The kingpin's heading th = atan2(y, x), x = r^T R(w) e_a, y = (n x r)^T R(w) e_a (axle e_a
 * in a's frame, reference r = e_a and kingpin n in b's): each a quadratic form w^T Q w, so its
 * gradient is 2 (Q w)^T dw and its Hessian 2 dw^T Q dw + (2 Q w) . d2w, exact like the rest.
 *
 * Both measures are built on w = conj(p_b) p_a c (c a constant unit quaternion), which is
 * bilinear in the two bodies' quaternion coordinates v = (p_a, p_b): its gradient is linear
 * in v and its Hessian is the constant mixed block W[l][k] = conj(e_l) e_k c, so every second
 * derivative the Jacobians need is exact and cheap. The measures are homogeneous of degree 0
 * (angle) or 2 (bushing) in |p|, so they stay smooth off the unit sphere, where the stepper's
 * iterates and the finite-difference test's random states live. */
#include "hs_mb_int.h"
#include "hs_math.h"

/* a b (Hamilton product, w first). */
static void qmul(const hs_real *a, const hs_real *b, hs_real *o)
{
    o[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
    o[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
    o[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
    o[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
}

/* The relative rotation w = conj(p_b) p_a c of one element at q (and its rate at u). */
typedef struct rq {
    int A, B;            /* bodies (B may be ground) */
    hs_real W[4][4][4];  /* W[l][k][i] = d2 w_i / (d p_b,l d p_a,k) (constant) */
    hs_real w[4];
    hs_real dw[4][8];    /* d w_i / d v_j, v = (p_a, p_b) */
    hs_real ud[8];       /* v' (zero for ground) */
} rq;

static void rq_eval(const hs_mb_model *mb, int A, int B, const hs_real *c, const hs_real *q,
                    const hs_real *u, rq *r)
{
    static const hs_real one[4] = {1, 0, 0, 0};
    const hs_real *pa = &q[mb->qoff[A] + 3];
    const hs_real *pb = B >= 0 ? &q[mb->qoff[B] + 3] : one;
    hs_real ec[4][4];
    r->A = A; r->B = B;
    for (int k = 0; k < 4; ++k) {
        hs_real e[4] = {0, 0, 0, 0};
        e[k] = HS_R(1.0);
        qmul(e, c, ec[k]);
    }
    for (int l = 0; l < 4; ++l) {
        hs_real e[4] = {0, 0, 0, 0};
        e[l] = l == 0 ? HS_R(1.0) : -HS_R(1.0); /* conj(e_l) */
        for (int k = 0; k < 4; ++k) { qmul(e, ec[k], r->W[l][k]); }
    }
    for (int i = 0; i < 4; ++i) {
        for (int k = 0; k < 4; ++k) {
            hs_real da = HS_R(0.0), db = HS_R(0.0);
            for (int l = 0; l < 4; ++l) {
                da += pb[l] * r->W[l][k][i];
                db += pa[l] * r->W[k][l][i];
            }
            r->dw[i][k] = da;
            r->dw[i][4 + k] = db;
        }
        r->w[i] = r->dw[i][0] * pa[0] + r->dw[i][1] * pa[1] + r->dw[i][2] * pa[2] + r->dw[i][3] * pa[3];
    }
    for (int j = 0; j < 8; ++j) { r->ud[j] = HS_R(0.0); }
    if (u != NULL) {
        for (int k = 0; k < 4; ++k) { r->ud[k] = u[mb->qoff[A] + 3 + k]; }
        if (B >= 0) { for (int k = 0; k < 4; ++k) { r->ud[4 + k] = u[mb->qoff[B] + 3 + k]; } }
    }
}

/* d2 w_i / (d v_j d v_m): only the mixed (p_a, p_b) blocks are nonzero. */
static hs_real rq_h(const rq *r, int i, int j, int m)
{
    if (j < 4 && m >= 4) { return r->W[m - 4][j][i]; }
    if (j >= 4 && m < 4) { return r->W[j - 4][m][i]; }
    return HS_R(0.0);
}

/* Scatters v into the (j, m) entry of the nq x nq matrix A (bodies' quaternion columns). */
static void rq_add(const hs_mb_model *mb, hs_real *A, const rq *r, int j, int m, hs_real v)
{
    mb_qq_add(mb, A, j < 4 ? r->A : r->B, 3 + (j & 3), m < 4 ? r->A : r->B, 3 + (m & 3), v);
}

/* f += s g (g over v). */
static void rq_addf(const hs_mb_model *mb, hs_real *f, const rq *r, const hs_real *g, hs_real s)
{
    if (f == NULL) { return; }
    for (int k = 0; k < 4; ++k) { f[mb->qoff[r->A] + 3 + k] += s * g[k]; }
    if (r->B >= 0) { for (int k = 0; k < 4; ++k) { f[mb->qoff[r->B] + 3 + k] += s * g[4 + k]; } }
}

/* th = 2 atan2(n . vec w, w_0), its gradient g (8) and Hessian H (8 x 8) when not NULL. */
static int rq_angle(const rq *r, const hs_real *n, hs_real *th, hs_real *g, hs_real (*H)[8])
{
    const hs_real x = r->w[0], y = n[0] * r->w[1] + n[1] * r->w[2] + n[2] * r->w[3];
    const hs_real r2 = x * x + y * y;
    if (!(r2 > HS_R(0.0))) { return HS_E_MODEL; /* twist undefined: a turned half over off the axis */ }
    *th = HS_R(2.0) * hs_atan2(y, x);
    if (g == NULL) { return HS_OK; }
    hs_real dx[8], dy[8], N[8];
    for (int j = 0; j < 8; ++j) {
        dx[j] = r->dw[0][j];
        dy[j] = n[0] * r->dw[1][j] + n[1] * r->dw[2][j] + n[2] * r->dw[3][j];
        N[j] = x * dy[j] - y * dx[j];
        g[j] = HS_R(2.0) * N[j] / r2;
    }
    if (H == NULL) { return HS_OK; }
    for (int j = 0; j < 8; ++j) {
        for (int m = 0; m < 8; ++m) {
            const hs_real hx = rq_h(r, 0, j, m);
            const hs_real hy = n[0] * rq_h(r, 1, j, m) + n[1] * rq_h(r, 2, j, m) + n[2] * rq_h(r, 3, j, m);
            const hs_real dN = dx[m] * dy[j] + x * hy - dy[m] * dx[j] - y * hx;
            H[j][m] = HS_R(2.0) * (dN / r2 - N[j] * HS_R(2.0) * (x * dx[m] + y * dy[m]) / (r2 * r2));
        }
    }
    return HS_OK;
}

/* Q with a^T R(w) b = w^T Q w for a quaternion w = (w0, v) (R(w) = |w|^2 times the rotation):
 * (w0^2 - |v|^2) a.b + 2 (a.v)(b.v) + 2 w0 v.(b x a), so Q00 = a.b, Q0k = (b x a)_k,
 * Qkl = a_k b_l + a_l b_k - a.b delta_kl (symmetric). */
static void bilin_q(const hs_real *a, const hs_real *b, hs_real Q[4][4])
{
    const hs_real ab = mb_dot3(a, b);
    const hs_real bxa[3] = {b[1] * a[2] - b[2] * a[1], b[2] * a[0] - b[0] * a[2], b[0] * a[1] - b[1] * a[0]};
    Q[0][0] = ab;
    for (int k = 0; k < 3; ++k) {
        Q[0][1 + k] = bxa[k];
        Q[1 + k][0] = bxa[k];
        for (int l = 0; l < 3; ++l) {
            Q[1 + k][1 + l] = a[k] * b[l] + a[l] * b[k] - ((k == l) ? ab : HS_R(0.0));
        }
    }
}

/* s = w^T Q w over v = (p_a, p_b): its gradient d (8) and, when H is not NULL, its Hessian
 * 2 dw^T Q dw + (2 Q w) . d2w (the mixed blocks of rq_h). */
static hs_real rq_form(const rq *r, const hs_real Q[4][4], hs_real *d, hs_real (*H)[8])
{
    hs_real Qw[4], Qd[4][8], s = HS_R(0.0);
    for (int i = 0; i < 4; ++i) {
        Qw[i] = Q[i][0] * r->w[0] + Q[i][1] * r->w[1] + Q[i][2] * r->w[2] + Q[i][3] * r->w[3];
        s += r->w[i] * Qw[i];
        for (int j = 0; j < 8; ++j) {
            Qd[i][j] = Q[i][0] * r->dw[0][j] + Q[i][1] * r->dw[1][j] + Q[i][2] * r->dw[2][j] + Q[i][3] * r->dw[3][j];
        }
    }
    for (int j = 0; j < 8; ++j) {
        d[j] = HS_R(2.0) * (Qw[0] * r->dw[0][j] + Qw[1] * r->dw[1][j] + Qw[2] * r->dw[2][j] + Qw[3] * r->dw[3][j]);
    }
    if (H != NULL) {
        for (int j = 0; j < 8; ++j) {
            for (int m = 0; m < 8; ++m) {
                hs_real h = HS_R(0.0);
                for (int i = 0; i < 4; ++i) { h += r->dw[i][j] * Qd[i][m] + Qw[i] * rq_h(r, i, j, m); }
                H[j][m] = HS_R(2.0) * h;
            }
        }
    }
    return s;
}

/* The steer angle th = atan2(y, x) of a's axle e (axis, a frame) about b's kingpin n (axis_b,
 * b frame) from b's reference r (the components of axis in b's frame): x = r . e,
 * y = (n x r) . e, both quadratic forms of w = conj(p_b) p_a, so th does not see a's spin about
 * e; its gradient g (8) and Hessian H (8 x 8) when not NULL. */
static int rq_heading(const rq *r, const hs_real *ax, const hs_real *kp, hs_real *th, hs_real *g,
                      hs_real (*H)[8])
{
    const hs_real t[3] = {kp[1] * ax[2] - kp[2] * ax[1], kp[2] * ax[0] - kp[0] * ax[2], kp[0] * ax[1] - kp[1] * ax[0]};
    hs_real Qx[4][4], Qy[4][4], dx[8], dy[8], hx[8][8], hy[8][8];
    bilin_q(ax, ax, Qx);
    bilin_q(t, ax, Qy);
    const hs_real x = rq_form(r, Qx, dx, (H != NULL) ? hx : NULL);
    const hs_real y = rq_form(r, Qy, dy, (H != NULL) ? hy : NULL);
    const hs_real r2 = x * x + y * y;
    if (!(r2 > HS_R(0.0))) { return HS_E_MODEL; /* the axle along the kingpin: no heading */ }
    *th = hs_atan2(y, x);
    if (g == NULL) { return HS_OK; }
    hs_real N[8];
    for (int j = 0; j < 8; ++j) {
        N[j] = x * dy[j] - y * dx[j];
        g[j] = N[j] / r2;
    }
    if (H == NULL) { return HS_OK; }
    for (int j = 0; j < 8; ++j) {
        for (int m = 0; m < 8; ++m) {
            const hs_real dN = dx[m] * dy[j] + x * hy[j][m] - dy[m] * dx[j] - y * hx[j][m];
            H[j][m] = dN / r2 - N[j] * HS_R(2.0) * (x * dx[m] + y * dy[m]) / (r2 * r2);
        }
    }
    return HS_OK;
}

const hs_real *mb_axis_b(const hs_real *axis, const hs_real *axis_b)
{
    const int set = (int)(axis_b[0] != HS_R(0.0) || axis_b[1] != HS_R(0.0) || axis_b[2] != HS_R(0.0));
    return set ? axis_b : axis;
}

void mb_hinge_ref(const hs_real *axis, const hs_real *axis_b, const hs_real *pa0, const hs_real *pb0,
                  hs_real *c)
{
    static const hs_real one[4] = {1, 0, 0, 0};
    const hs_real *a = axis, *b = mb_axis_b(axis, axis_b);
    /* Q0 = (1 + a.b, a x b) / norm takes a onto b; antiparallel axes: a half turn about a
     * direction perpendicular to a */
    hs_real q0[4];
    q0[0] = HS_R(1.0) + mb_dot3(a, b);
    q0[1] = a[1] * b[2] - a[2] * b[1];
    q0[2] = a[2] * b[0] - a[0] * b[2];
    q0[3] = a[0] * b[1] - a[1] * b[0];
    if (!(q0[0] > HS_R(1e-6))) {
        const hs_real ax = hs_abs(a[0]), ay = hs_abs(a[1]), az = hs_abs(a[2]);
        hs_real e[3] = {0, 0, 0};
        e[(ax <= ay && ax <= az) ? 0 : (ay <= az ? 1 : 2)] = HS_R(1.0);
        q0[0] = HS_R(0.0);
        q0[1] = a[1] * e[2] - a[2] * e[1];
        q0[2] = a[2] * e[0] - a[0] * e[2];
        q0[3] = a[0] * e[1] - a[1] * e[0];
    }
    const hs_real nn = hs_sqrt(q0[0] * q0[0] + q0[1] * q0[1] + q0[2] * q0[2] + q0[3] * q0[3]);
    c[0] = q0[0] / nn;
    for (int i = 1; i < 4; ++i) { c[i] = -q0[i] / nn; }
    /* sign: w_0 >= 0 at the initial state, so the initial angle is in (-pi, pi] */
    const hs_real *pb = pb0 ? pb0 : one;
    hs_real cb[4] = {pb[0], -pb[1], -pb[2], -pb[3]}, t[4], w[4];
    qmul(cb, pa0, t);
    qmul(t, c, w);
    if (w[0] < HS_R(0.0)) {
        for (int i = 0; i < 4; ++i) { c[i] = -c[i]; }
    }
}

int mb_hinge_angle(const hs_mb_model *mb, int A, int B, const hs_real *n, const hs_real *c,
                   const hs_real *q, hs_real *th)
{
    rq r;
    rq_eval(mb, A, B, c, q, NULL, &r);
    return rq_angle(&r, n, th, NULL, NULL);
}

hs_status mb_spin_eval(const hs_mb_model *mb, int A, int B, const hs_real *n, const hs_real *q,
                       const hs_real *u, mb_spin *s)
{
    static const hs_real ident[4] = {1, 0, 0, 0};
    rq r;
    hs_real th;
    rq_eval(mb, A, B, ident, q, u, &r);
    const int rc = rq_angle(&r, n, &th, s->g, s->H);
    if (rc != 0) { return HS_E_MODEL; }
    s->A = A; s->B = B;
    s->w = HS_R(0.0);
    for (int j = 0; j < 8; ++j) {
        s->w += s->g[j] * r.ud[j];
        hs_real hu = HS_R(0.0);
        for (int m = 0; m < 8; ++m) { hu += s->H[j][m] * r.ud[m]; }
        s->wv[j] = hu; /* H is symmetric: d(g . v')/dv_j = (H v')_j */
    }
    return HS_OK;
}

/* Entry (j, m) of spin k's and spin l's coordinates (j over k's v, m over l's) into A. */
static void spin_add(const hs_mb_model *mb, hs_real *A, const mb_spin *k, int j, const mb_spin *l, int m, hs_real v)
{
    const int bj = (j < 4) ? k->A : k->B, bm = (m < 4) ? l->A : l->B;
    if ((bj >= 0) && (bm >= 0)) { mb_qq_add(mb, A, bj, 3 + (j & 3), bm, 3 + (m & 3), v); }
}

void mb_spin_load(const hs_mb_model *mb, const mb_spin *s, int ns, const hs_real *tau,
                  const mb_spin_jac *D, hs_real *f, hs_real *fq, hs_real *fu)
{
    const int nf = (f != NULL) ? ns : 0;
    for (int k = 0; k < nf; ++k) {
        for (int j = 0; j < 4; ++j) { f[mb->qoff[s[k].A] + 3 + j] += tau[k] * s[k].g[j]; }
        if (s[k].B >= 0) { for (int j = 0; j < 4; ++j) { f[mb->qoff[s[k].B] + 3 + j] += tau[k] * s[k].g[4 + j]; } }
    }
    if (fq == NULL) { return; }
    for (int k = 0; k < ns; ++k) {
        for (int j = 0; j < 8; ++j) {
            for (int m = 0; m < 8; ++m) { spin_add(mb, fq, &s[k], j, &s[k], m, tau[k] * s[k].H[j][m]); }
        }
        for (int l = 0; l < ns; ++l) {
            if (D->d[k][l] == HS_R(0.0)) { continue; }
            for (int j = 0; j < 8; ++j) {
                for (int m = 0; m < 8; ++m) {
                    spin_add(mb, fq, &s[k], j, &s[l], m, D->d[k][l] * s[k].g[j] * s[l].wv[m]);
                    if (fu != NULL) { spin_add(mb, fu, &s[k], j, &s[l], m, D->d[k][l] * s[k].g[j] * s[l].g[m]); }
                }
            }
        }
    }
}

/* Hinge spring-damper (k, c, th0) plus a motor torque tau_in: f = tau g with
 * tau = -k (th - th0) - c th' + tau_in, th' = g . v'; fq = g (dtau/dv)^T + tau H with
 * dtau/dv = -k g - c H v'; fu = -c g g^T. */
static int hinge_force(const hs_mb_model *mb, const hs_mb_force *E, const hs_real *cq, hs_real k,
                       hs_real cd, hs_real th0, hs_real tau_in, const hs_real *q, const hs_real *u,
                       hs_real *f, hs_real *fq, hs_real *fu)
{
    rq r;
    hs_real th, g[8], H[8][8];
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    const int kp = (E->kind == HS_MB_KINGPIN) ? 1 : 0;
    rq_eval(mb, E->a.body, E->b.body, cq, q, u, &r);
    const int rc = (kp != 0) ? rq_heading(&r, E->axis, E->axis_b, &th, g, fq ? H : NULL)
                             : rq_angle(&r, mb_axis_b(E->axis, E->axis_b), &th, g, fq ? H : NULL);
    if (rc != 0) { return rc; }
    hs_real thd = HS_R(0.0);
    for (int j = 0; j < 8; ++j) { thd += g[j] * r.ud[j]; }
    const hs_real tau = -k * (th - th0) - cd * thd + tau_in;
    rq_addf(mb, f, &r, g, tau);
    if (fq == NULL) { return HS_OK; }
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    const int nv = r.B >= 0 ? 8 : 4; /* ground has no coordinates to fill */
    for (int m = 0; m < nv; ++m) {
        hs_real Hu = HS_R(0.0);
        for (int j = 0; j < 8; ++j) { Hu += H[m][j] * r.ud[j]; }
        const hs_real dtau = -k * g[m] - cd * Hu;
        for (int j = 0; j < nv; ++j) {
            rq_add(mb, fq, &r, j, m, g[j] * dtau + tau * H[j][m]);
            if (cd != HS_R(0.0)) { rq_add(mb, fu, &r, j, m, -cd * g[j] * g[m]); }
        }
    }
    return HS_OK;
}

/* Bushing rotation: phi = 2 vec(w) with c = identity (frames aligned at rest), V = 1/2 kr
 * |phi|^2 = kr (1 - cos th) for a relative rotation th (the same for p and -p, no branch),
 * D = 1/2 cr |phi'|^2; f = -J^T (kr phi + cr phi'), J = d phi/dv. */
static void bushing_rot(const hs_mb_model *mb, const hs_mb_force *E, const hs_real *q, const hs_real *u,
                        hs_real *f, hs_real *fq, hs_real *fu)
{
    static const hs_real ident[4] = {1, 0, 0, 0};
    rq r;
    /* a on ground: measure b against ground instead; V and D are even in the relative rotation */
    if (E->a.body >= 0) { rq_eval(mb, E->a.body, E->b.body, ident, q, u, &r); }
    else { rq_eval(mb, E->b.body, E->a.body, ident, q, u, &r); }
    hs_real phi[3], phid[3], g[8];
    for (int i = 0; i < 3; ++i) {
        phi[i] = HS_R(2.0) * r.w[1 + i];
        phid[i] = HS_R(0.0);
        for (int j = 0; j < 8; ++j) { phid[i] += HS_R(2.0) * r.dw[1 + i][j] * r.ud[j]; }
    }
    for (int j = 0; j < 8; ++j) {
        g[j] = HS_R(0.0);
        for (int i = 0; i < 3; ++i) { g[j] -= HS_R(2.0) * r.dw[1 + i][j] * (E->kr * phi[i] + E->cr * phid[i]); }
    }
    rq_addf(mb, f, &r, g, HS_R(1.0));
    if (fq == NULL) { return; }
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    const int nv = r.B >= 0 ? 8 : 4; /* ground has no coordinates to fill */
    hs_real Hu[3][8];                /* d phi'_i / d v_m = (H_i v')_m */
    for (int i = 0; i < 3; ++i) {
        for (int m = 0; m < 8; ++m) {
            hs_real s = HS_R(0.0);
            for (int n = 0; n < 8; ++n) { s += HS_R(2.0) * rq_h(&r, 1 + i, m, n) * r.ud[n]; }
            Hu[i][m] = s;
        }
    }
    for (int j = 0; j < nv; ++j) {
        for (int m = 0; m < nv; ++m) {
            hs_real a = HS_R(0.0), b = HS_R(0.0);
            for (int i = 0; i < 3; ++i) {
                const hs_real Jj = HS_R(2.0) * r.dw[1 + i][j], Jm = HS_R(2.0) * r.dw[1 + i][m];
                const hs_real Hjm = HS_R(2.0) * rq_h(&r, 1 + i, j, m);
                a += E->kr * (Jj * Jm + phi[i] * Hjm) + E->cr * (Hjm * phid[i] + Jj * Hu[i][m]);
                b += E->cr * Jj * Jm;
            }
            rq_add(mb, fq, &r, j, m, -a);
            rq_add(mb, fu, &r, j, m, -b);
        }
    }
}

hs_status mb_rot_force(const hs_mb_model *mb, int e, const hs_real *q, const hs_real *u,
                 const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu)
{
    static const hs_real quat_ident[4] = {1, 0, 0, 0};
    const hs_mb_force *E = &mb->desc->forces[e];
    switch (E->kind) {
    case HS_MB_ROTSPRING:
        return hinge_force(mb, E, mb->hinge_c[e], E->k, E->c, E->l0, HS_R(0.0), q, u, f, fq, fu);
    case HS_MB_MOTOR:
        return hinge_force(mb, E, mb->hinge_c[e], HS_R(0.0), HS_R(0.0), HS_R(0.0), E->scale * in[E->in0],
                           q, u, f, fq, fu);
    case HS_MB_KINGPIN:
        /* the heading's forms take w = conj(p_b) p_a itself (no reference turn) */
        return hinge_force(mb, E, quat_ident, E->k, E->c, mb_kingpin_set(mb, e, in), HS_R(0.0), q, u, f, fq, fu);
    case HS_MB_BUSHING:
        bushing_rot(mb, E, q, u, f, fq, fu);
        return HS_OK;
    default:
        return HS_E_MODEL;
    }
}

hs_real mb_rot_potential(const hs_mb_model *mb, int e, const hs_real *q)
{
    static const hs_real ident[4] = {1, 0, 0, 0};
    const hs_mb_force *E = &mb->desc->forces[e];
    if (E->kind == HS_MB_ROTSPRING) {
        hs_real th = HS_R(0.0);
        if (mb_hinge_angle(mb, E->a.body, E->b.body, mb_axis_b(E->axis, E->axis_b), mb->hinge_c[e], q, &th) != 0) {
            return HS_R(0.0);
        }
        return HS_R(0.5) * E->k * (th - E->l0) * (th - E->l0);
    }
    rq r;
    if (E->a.body >= 0) { rq_eval(mb, E->a.body, E->b.body, ident, q, NULL, &r); }
    else { rq_eval(mb, E->b.body, E->a.body, ident, q, NULL, &r); }
    return HS_R(2.0) * E->kr * (r.w[1] * r.w[1] + r.w[2] * r.w[2] + r.w[3] * r.w[3]);
}

hs_real mb_kingpin_set(const hs_mb_model *mb, int e, const hs_real *in)
{
    const hs_mb_force *E = &mb->desc->forces[e];
    return E->l0 + ((in != NULL) ? E->scale * in[E->in0] : HS_R(0.0));
}

int mb_kingpin_angle(const hs_mb_model *mb, int e, const hs_real *q, const hs_real *u, hs_real *th, hs_real *thd)
{
    static const hs_real ident[4] = {1, 0, 0, 0};
    const hs_mb_force *E = &mb->desc->forces[e];
    rq r;
    hs_real g[8];
    rq_eval(mb, E->a.body, E->b.body, ident, q, u, &r);
    *thd = HS_R(0.0);
    const int rc = rq_heading(&r, E->axis, E->axis_b, th, g, NULL);
    if (rc != 0) { return rc; }
    for (int j = 0; j < 8; ++j) { *thd += g[j] * r.ud[j]; }
    return HS_OK;
}
