/* hs_contact_fb.c - the contact stage in body velocities, for models made of free bodies only
 * (hs_model.h free_bodies, ct_points): the equations of rt/hs_contact.h, in other coordinates.
 *
 * Body k (coordinates x, p from qoff, p a unit quaternion) moves with v = x' and the world
 * angular velocity w = 2 E(p) p' (model/mb/hs_mb_int.h mb_quat_E; E E^T = I, E p = 0). A point's
 * row with direction d (its normal n or a tangent t1, t2) between bodies a and b (b may be the
 * ground) at lever arms ra, rb has
 *     J u = d . ((v_a + w_a x ra) - (v_b + w_b x rb)),
 * and the response of the velocities to its unit impulse under the norm rows is
 *     dv_a = d / m_a,  dw_a = I_a^-1 (ra x d),  dv_b = -d / m_b,  dw_b = -I_b^-1 (rb x d),
 * I^-1 = R(p) diag(1 / I_1, 1 / I_2, 1 / I_3) R(p)^T the world inverse inertia. These are the
 * generic stage's M_c^-1 J^T (the description's M on p is 4 G^T I G with the norm row), so
 * W_ii, targets, impacts, compliance, bounds, warm start, sweeps and residual are those of
 * rt/hs_contact.c (the row updates are shared: rt/hs_contact_int.h) and the impulses agree to
 * rounding. p's rate along p (a drift of |p|, not a motion) stays as the method made it; the
 * generic rows read it as a point velocity 2 (p . p') r / |p|^2, which the targets take here.
 *
 * At entry u -> (v, w) per body; at exit u += du with dx' = dv, dp' = 1/2 E(p)^T dw, and
 * q += cq du (hs_contact_cq_fb, rt/hs_contact_cq.c). Fixed work: loop counts from the bodies, the points, the rows and
 * the sweeps only; no solve with the projection factor (one is made only when the method keeps
 * the factor for its next step and no projection stage made it). A sweep works one contact pair
 * at a time (fb_pair_sweep): per point one relative velocity (two cross products), its
 * projections on n, t1, t2 and the point's update, all from the same body velocities, so that
 * mirror points get mirror updates; then their change of the two bodies' velocities, scaled by
 * the step along them that minimises the sweeps' quadratic (model/CONTACT.md "Symmetry"). At
 * the end, the residual and how far a resting row sank beyond its compliance (ct_sunk, m: the
 * step's error estimate takes it; model/CONTACT.md "Passing through"). After the first
 * sweep, once, the pair correction (fb_pairs): the normal impulses of each contact pair along
 * three shapes, by the exact minimiser over all pairs of the sweeps' quadratic, which carries
 * a heavy body's load through a light one and a tower's corner split in one step, where the
 * sweeps alone corrected them by 1/1000 or 1/N^2 per sweep (model/CONTACT.md "Mass ratio"). */
#include "hs_contact.h"
#include "hs_contact_int.h"
#include "hs_inline.h"
#include "hs_stage.h"

/* A body's record in the workspace (reals from its start): */
#define FB_V 0     /* velocity (3, m/s, world) */
#define FB_W 3     /* angular velocity (3, rad/s, world) */
#define FB_V0 6    /* the same at the stage's entry */
#define FB_W0 9
#define FB_VN 12   /* the committed step's (t_n) velocity and angular velocity, for impacts */
#define FB_WN 15
#define FB_II 18   /* world inverse inertia (3 x 3, row-major, 1/(kg m^2)) */
#define FB_IM 27   /* 1 / mass (1/kg) */
#define FB_P 28    /* the quaternion at entry (4) */
#define FB_AL 32   /* radial rates (p . p') / (p . p) of u~ and of u_n (1/s): see rel_off */
#define FB_ALN 33
#define FB_FP 34   /* the first contact pair on this body (the pair correction's profile) */
#define FB_BODY 36 /* reals per body */
/* A point's record, what its sweeps read besides its geometry (reals from its start): */
#define PT_MA 0    /* body a's response to the rows' unit impulses, column j (row j) at PT_MA + 6 j:
                    * dv_a = d_j / m_a (3, m/s per N s), dw_a = I_a^-1 (ra x d_j) (3, rad/s per N s) */
#define PT_MB 18   /* body b's, the same with the sign of b: -d_j / m_b, -I_b^-1 (rb x d_j) */
#define PT_IW 36   /* per row: 1 / W_ii (as ctiw) */
#define PT_EPS 39  /* the normal's compliance (as cteps) */
#define PT_R 40    /* per row: target (as ctr) */
#define PT_C10 43  /* couplings J_1 B_0, J_2 B_0, J_2 B_1 (as ctv[i + 1], ctphi[i + 2], ctv[i + 2]) */
#define PT_C20 44
#define PT_C21 45
#define PT_HN 46   /* the normal's upper bound: 1e30, 0 for an empty slot */
#define PT_F1 47   /* friction row 1's bound hi = F1[0] + F1[1] lambda_n (bounds(), written out) */
#define PT_F2 49   /* the same for row 2 */
#define PT_D 52    /* per row: the point's update within its pair's sweep (N s; fb_pair_sweep) */
#define PT_VN 55   /* the normal's J u at the stage's entry, without its radial part (m/s) */
#define FB_PT 56   /* reals per point (HS_CT_FB_REALS in rt/hs_stepper.h counts HS_CT_PT + 56) */

static inline hs_real dot3(const hs_real *a, const hs_real *b)
{
    return ((a[0] * b[0]) + (a[1] * b[1])) + (a[2] * b[2]);
}

static inline void cross3(const hs_real *a, const hs_real *b, hs_real *o)
{
    o[0] = (a[1] * b[2]) - (a[2] * b[1]);
    o[1] = (a[2] * b[0]) - (a[0] * b[2]);
    o[2] = (a[0] * b[1]) - (a[1] * b[0]);
}

/* o = A x (A 3 x 3 row-major) */
static inline void mat3v(const hs_real *A, const hs_real *x, hs_real *o)
{
    o[0] = ((A[0] * x[0]) + (A[1] * x[1])) + (A[2] * x[2]);
    o[1] = ((A[3] * x[0]) + (A[4] * x[1])) + (A[5] * x[2]);
    o[2] = ((A[6] * x[0]) + (A[7] * x[1])) + (A[8] * x[2]);
}

/* w = 2 E(p) pd: the world angular velocity of quaternion rate pd */
static void quat_w(const hs_real *p, const hs_real *pd, hs_real *w)
{
    w[0] = HS_R(2.0) * ((((-p[1] * pd[0]) + (p[0] * pd[1])) - (p[3] * pd[2])) + (p[2] * pd[3]));
    w[1] = HS_R(2.0) * ((((-p[2] * pd[0]) + (p[3] * pd[1])) + (p[0] * pd[2])) - (p[1] * pd[3]));
    w[2] = HS_R(2.0) * ((((-p[3] * pd[0]) - (p[2] * pd[1])) + (p[1] * pd[2])) + (p[0] * pd[3]));
}

/* pd = 1/2 E(p)^T w: the quaternion rate of world angular velocity w (tangent to |p| = 1) */
static void quat_pd(const hs_real *p, const hs_real *w, hs_real *pd)
{
    pd[0] = HS_R(0.5) * (((-p[1] * w[0]) - (p[2] * w[1])) - (p[3] * w[2]));
    pd[1] = HS_R(0.5) * (((p[0] * w[0]) + (p[3] * w[1])) - (p[2] * w[2]));
    pd[2] = HS_R(0.5) * (((-p[3] * w[0]) + (p[0] * w[1])) + (p[1] * w[2]));
    pd[3] = HS_R(0.5) * (((p[2] * w[0]) - (p[1] * w[1])) + (p[0] * w[2]));
}

/* Workspace offsets: points' geometry, rows' responses, bodies' records. */
static inline hs_real *fb_geo(const hs_stepper *s) { return s->ctf; }
static inline hs_real *fb_pts(const hs_stepper *s) { return &s->ctf[s->model->type->ct_npoints * HS_CT_PT]; }
static inline hs_real *fb_bodies(const hs_stepper *s)
{
    return &s->ctf[s->model->type->ct_npoints * (HS_CT_PT + FB_PT)];
}

static size_t cg_reals(const hs_model_type *T, int nq);

int hs_contact_fb_ok(const hs_model *m)
{
    const hs_model_type *T = m->type;
    if ((T->free_bodies == NULL) || (T->ct_points == NULL) || (T->ct_pts == NULL) || (T->ct_npoints < 1)
        || (T->nk < 1) || (T->ct_rows == NULL) || (T->nhol != 0)) {
        return 0;
    }
    hs_fb_info fb;
    if (hs_model_rc(T->free_bodies(m, &fb)) != HS_OK) {
        return 0;
    }
    if ((fb.nb < 1) || (fb.body == NULL) || (fb.nb != m->d.nc)) {
        return 0;
    }
    for (int k = 0; k < fb.nb; ++k) {
        const hs_fb_body *B = &fb.body[k];
        const int good = (int)((B->qoff >= 0) && ((B->qoff + 7) <= m->d.nq) && (B->mass > HS_R(0.0))
                         && (B->inertia[0] > HS_R(0.0)) && (B->inertia[1] > HS_R(0.0)) && (B->inertia[2] > HS_R(0.0)));
        if (good == 0) {
            return 0;
        }
    }
    /* the points cover the rows in order, each a normal alone or with its two tangent rows
     * (friction bounded by that normal alone: point_update's rows) */
    int next = 0;
    for (int k = 0; k < T->ct_npoints; ++k) {
        const hs_ct_point *P = &T->ct_pts[k];
        int good = (int)((P->row == next) && ((P->nrow == 1) || (P->nrow == 3)) && ((P->row + P->nrow) <= T->nk)
                   && (P->a >= -1) && (P->a < fb.nb) && (P->b >= -1) && (P->b < fb.nb) && (P->a != P->b));
        if (good != 0) {
            const hs_ct_row *R = &T->ct_rows[P->row];
            good = (int)((R[0].kind == HS_CT_NORMAL)
                   && ((P->nrow == 1)
                       || ((R[1].kind == HS_CT_FRICTION) && (R[2].kind == HS_CT_FRICTION) && (R[1].ngroup == 1)
                           && (R[2].ngroup == 1) && (R[1].normal == P->row) && (R[2].normal == P->row))));
        }
        if (good == 0) {
            return 0;
        }
        next += P->nrow;
    }
    return (next == T->nk) ? 1 : 0;
}

int hs_contact_fb_pairs(const hs_model *m)
{
    return ((hs_contact_fb_ok(m) != 0) && (cg_reals(m->type, m->d.nq) > 0u)) ? 1 : 0;
}

size_t hs_contact_fb_reals(const hs_model *m)
{
    const hs_model_type *T = m->type;
    hs_fb_info fb;
    if ((hs_contact_fb_ok(m) == 0) || (hs_model_rc(T->free_bodies(m, &fb)) != HS_OK)) {
        return 0u;
    }
    /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
    return ((size_t)T->ct_npoints * (size_t)(HS_CT_PT + FB_PT)) + ((size_t)(fb.nb + 1) * (size_t)FB_BODY)
           + cg_reals(T, m->d.nq);
}

/* The body records at entry: velocities of u~ (un) and of u_n (u), world inverse inertias. */
static void bodies_in(hs_stepper *s, const hs_fb_info *fb)
{
    hs_real *bd = fb_bodies(s);
    for (int k = 0; k < fb->nb; ++k) {
        const hs_fb_body *B = &fb->body[k];
        hs_real *r = &bd[(k + 1) * FB_BODY];
        const hs_real *p = &s->qn[B->qoff + 3];
        for (int i = 0; i < 4; ++i) {
            r[FB_P + i] = p[i];
        }
        hs_real *rv = &r[FB_V];
        for (int i = 0; i < 3; ++i) {
            rv[i] = s->un[B->qoff + i];
            r[FB_V0 + i] = s->un[B->qoff + i];
            r[FB_VN + i] = s->u[B->qoff + i];
        }
        quat_w(p, &s->un[B->qoff + 3], &r[FB_W]);
        quat_w(p, &s->u[B->qoff + 3], &r[FB_WN]);
        for (int i = 0; i < 3; ++i) {
            r[FB_W0 + i] = r[FB_W + i];
        }
        /* R(p) = a I + 2 e e^T + 2 p0 [e]x (the models' quadratic formula), then R D R^T */
        const hs_real a = (p[0] * p[0]) - (((p[1] * p[1]) + (p[2] * p[2])) + (p[3] * p[3]));
        const hs_real e0 = p[1], e1 = p[2], e2 = p[3], w0 = p[0];
        const hs_real R[9] = {a + (HS_R(2.0) * e0 * e0), (HS_R(2.0) * e0 * e1) - (HS_R(2.0) * w0 * e2),
                              (HS_R(2.0) * e0 * e2) + (HS_R(2.0) * w0 * e1), (HS_R(2.0) * e1 * e0) + (HS_R(2.0) * w0 * e2),
                              a + (HS_R(2.0) * e1 * e1), (HS_R(2.0) * e1 * e2) - (HS_R(2.0) * w0 * e0),
                              (HS_R(2.0) * e2 * e0) - (HS_R(2.0) * w0 * e1), (HS_R(2.0) * e2 * e1) + (HS_R(2.0) * w0 * e0),
                              a + (HS_R(2.0) * e2 * e2)};
        const hs_real d[3] = {HS_R(1.0) / B->inertia[0], HS_R(1.0) / B->inertia[1], HS_R(1.0) / B->inertia[2]};
        for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j) {
                r[FB_II + (3 * i) + j] = (((R[3 * i] * d[0]) * R[3 * j]) + ((R[(3 * i) + 1] * d[1]) * R[(3 * j) + 1]))
                                         + ((R[(3 * i) + 2] * d[2]) * R[(3 * j) + 2]);
            }
        }
        r[FB_IM] = HS_R(1.0) / B->mass;
        const hs_real pp = (((p[0] * p[0]) + (p[1] * p[1])) + (p[2] * p[2])) + (p[3] * p[3]);
        const hs_real *ud = &s->un[B->qoff + 3], *un0 = &s->u[B->qoff + 3];
        r[FB_AL] = ((((p[0] * ud[0]) + (p[1] * ud[1])) + (p[2] * ud[2])) + (p[3] * ud[3])) / pp;
        r[FB_ALN] = ((((p[0] * un0[0]) + (p[1] * un0[1])) + (p[2] * un0[2])) + (p[3] * un0[3])) / pp;
    }
    /* the ground: a record at rest with no response (zero inverse mass and inertia), so that
     * every point is worked the same way whether one side is the ground or not */
    hs_real *gr = bd;
    for (int i = 0; i < FB_BODY; ++i) {
        gr[i] = HS_R(0.0);
    }
}

/* The record of body k (hs_fb_info order), or the ground's (the first) for k = -1. */
static inline hs_real *body_rec(hs_real *bd, int k)
{
    return &bd[(k + 1) * FB_BODY];
}

/* body_rec, read only. */
static inline const hs_real *body_rc(const hs_real *bd, int k)
{
    return &bd[(k + 1) * FB_BODY];
}

/* The relative velocity (v_a + w_a x ra) - (v_b + w_b x rb) at point g between records A and
 * B (the ground's at rest), from their velocities at offset ov (FB_V or FB_VN). */
/* MISRA Ref 8.14.1 [separate workspace arrays] */
static inline void rel_vel(const hs_real *restrict A, const hs_real *restrict B, const hs_real *restrict g, int ov,
                           hs_real *vr)
{
    const hs_real *ra = &g[HS_CT_PT_RA], *rb = &g[HS_CT_PT_RB];
    const hs_real *va = &A[ov], *vb = &B[ov];
    vr[0] = (va[0] + ((va[4] * ra[2]) - (va[5] * ra[1]))) - (vb[0] + ((vb[4] * rb[2]) - (vb[5] * rb[1])));
    vr[1] = (va[1] + ((va[5] * ra[0]) - (va[3] * ra[2]))) - (vb[1] + ((vb[5] * rb[0]) - (vb[3] * rb[2])));
    vr[2] = (va[2] + ((va[3] * ra[1]) - (va[4] * ra[0]))) - (vb[2] + ((vb[3] * rb[1]) - (vb[4] * rb[0])));
}

/* rel_vel with b the ground (at rest): v_a + w_a x ra (the same values). */
/* MISRA Ref 8.14.1 [separate workspace arrays] */
static inline void rel_vel_a(const hs_real *restrict A, const hs_real *restrict g, hs_real *restrict vr)
{
    const hs_real *ra = &g[HS_CT_PT_RA];
    const hs_real *va = &A[FB_V], *wa = &A[FB_W];
    vr[0] = va[0] + ((wa[1] * ra[2]) - (wa[2] * ra[1]));
    vr[1] = va[1] + ((wa[2] * ra[0]) - (wa[0] * ra[2]));
    vr[2] = va[2] + ((wa[0] * ra[1]) - (wa[1] * ra[0]));
}

/* The part of J u the generic rows see in a quaternion's radial rate al = (p . p') / (p . p)
 * (a drift of |p|, not a motion: the quadratic R(p) grows along p, so its point moves by
 * 2 al r): 2 al_a ra - 2 al_b rb into o, from the records' rates at offset oa (FB_AL or
 * FB_ALN). The sweeps move only w, so it is constant over the stage: the targets take it,
 * and the impulses stay those of the generic stage even where a method leaves p . p' != 0. */
static inline void rel_off(const hs_real *A, const hs_real *B, const hs_real *g, int oa, hs_real *o)
{
    const hs_real sa = HS_R(2.0) * A[oa], sb = HS_R(2.0) * B[oa];
    const hs_real *ra = &g[HS_CT_PT_RA], *rb = &g[HS_CT_PT_RB];
    for (int i = 0; i < 3; ++i) {
        o[i] = (sa * ra[i]) - (sb * rb[i]);
    }
}

/* Impulses e0, e1, e2 of a point's rows into a body's velocity and angular velocity y (6,
 * contiguous in its record) through its response columns M (6 x 3, column j at M + 6 j): entry
 * by entry, the same operations whether the compiler does one entry per instruction or two. */
/* MISRA Ref 8.14.1 [separate workspace arrays] */
static inline void apply6(hs_real *restrict y, const hs_real *restrict M, hs_real e0, hs_real e1, hs_real e2)
{
    y[0] = ((y[0] + (M[0] * e0)) + (M[6] * e1)) + (M[12] * e2);
    y[1] = ((y[1] + (M[1] * e0)) + (M[7] * e1)) + (M[13] * e2);
    y[2] = ((y[2] + (M[2] * e0)) + (M[8] * e1)) + (M[14] * e2);
    y[3] = ((y[3] + (M[3] * e0)) + (M[9] * e1)) + (M[15] * e2);
    y[4] = ((y[4] + (M[4] * e0)) + (M[10] * e1)) + (M[16] * e2);
    y[5] = ((y[5] + (M[5] * e0)) + (M[11] * e1)) + (M[17] * e2);
}

/* Moves body B's positions in q by c (dv, 1/2 E(p)^T dw) (p: the record r's entry quaternion):
 * the position-only correction of an impact along a row's response. */
static void move_q(hs_real *q, const hs_fb_body *B, const hs_real *r, hs_real c, const hs_real *dv, const hs_real *dw)
{
    hs_real pd[4];
    quat_pd(&r[FB_P], dw, pd);
    for (int i = 0; i < 3; ++i) {
        q[B->qoff + i] += c * dv[i];
    }
    for (int i = 0; i < 4; ++i) {
        q[B->qoff + 3 + i] += c * pd[i];
    }
}

/* The velocity at t_n (m/s) of the row along direction d (3) of point geometry g between
 * records A and B, from their velocities of u_n. */
HS_INLINE hs_real point_v0(const hs_real *A, const hs_real *B, const hs_real *g, const hs_real *d)
{
    hs_real vrn[3], offn[3];
    rel_vel(A, B, g, FB_VN, vrn);
    rel_off(A, B, g, FB_ALN, offn);
    return dot3(d, vrn) + dot3(d, offn);
}

/* Normal row i's impact inside the step (rt/hs_contact.c's, with the row velocity of u_n):
 * from direction d (3), velocities v0 at t_n and v, gap phi and W = W_ii of point P between
 * records A and B (inverse masses ia, ib; dw responses ka, kb, 3 each) the target r raised to
 * the bounce, ctiw and cteps without the compliance, and qn moved along the row's response
 * by the position-only correction (inelastic: the target the stop, and ctk); the new target. Apart from the row so the two impact cases read
 * as one decision. */
HS_INLINE hs_real point_impact(hs_stepper *s, const hs_fb_info *fb, const hs_ct_point *P, const hs_real *A,
                               const hs_real *B, const hs_ct_row *R, int i, const hs_real *d,
                               const hs_real *ka, const hs_real *kb, hs_real ia, hs_real ib, hs_real W,
                               hs_real v0, hs_real v, hs_real phi, hs_real r, hs_real cq, hs_real h)
{
    hs_real vend, gend, tau;
    impact(phi, v0, v, h, R->e, &vend, &gend, &tau);
    s->cteps[i] = HS_R(0.0);
    s->ctiw[i] = (W > HS_R(1e-30)) ? (HS_R(1.0) / W) : HS_R(0.0);
    if (!(R->e > HS_R(0.0))) {
        /* inelastic: the impulses of the point's rows move q from tau on (fb_impact_lead) */
        s->ctk[i] = impact_lead(tau, h, cq);
        return vend;
    }
    const hs_real rn = (vend > r) ? vend : r;
    const hs_real mu = (gend - (phi + cq * (rn - v))) * s->ctiw[i];
    /* the position-only correction along the row's response, mu B_i */
    if (P->a >= 0) {
        const hs_real dva[3] = {ia * d[0], ia * d[1], ia * d[2]};
        move_q(s->qn, &fb->body[P->a], A, mu, dva, ka);
    }
    if (P->b >= 0) {
        const hs_real dvb[3] = {-ib * d[0], -ib * d[1], -ib * d[2]};
        const hs_real dwb[3] = {-kb[0], -kb[1], -kb[2]};
        move_q(s->qn, &fb->body[P->b], B, mu, dvb, dwb);
    }
    return rn;
}

/* Point P's couplings J_k B_m within the point (3 rows: n, t1, t2 of its geometry g) into
 * the stepper's row arrays (as the generic stage's ct_groups) and the record Rp, and the
 * friction rows' bounds written out: the sweeps then read one record per point. ca, cb
 * (3 x 3) are ra x d_j, rb x d_j; kaa, kbb (3 x 3) the dw responses of the rows. */
HS_INLINE void point_couplings(hs_stepper *s, const hs_model_type *T, const hs_real *g, hs_real *Rp, int i0,
                               hs_real ia, hs_real ib, hs_real ca[3][3], hs_real cb[3][3], hs_real kaa[3][3],
                               hs_real kbb[3][3])
{
    /* J_k B_m = (d_k . d_m)(1/m_a + 1/m_b) + (ra x d_k) . dw_a,m + (rb x d_k) . dw_b,m */
    const hs_real *n = &g[HS_CT_PT_N], *t1 = &g[HS_CT_PT_T1], *t2 = &g[HS_CT_PT_T2];
    s->ctv[i0 + 1] = (((dot3(t1, n) * ia) + dot3(ca[1], kaa[0])) + (dot3(t1, n) * ib)) + dot3(cb[1], kbb[0]);
    s->ctphi[i0 + 2] = (((dot3(t2, n) * ia) + dot3(ca[2], kaa[0])) + (dot3(t2, n) * ib)) + dot3(cb[2], kbb[0]);
    s->ctv[i0 + 2] = (((dot3(t2, t1) * ia) + dot3(ca[2], kaa[1])) + (dot3(t2, t1) * ib)) + dot3(cb[2], kbb[1]);
    Rp[PT_C10] = s->ctv[i0 + 1];
    Rp[PT_C20] = s->ctphi[i0 + 2];
    Rp[PT_C21] = s->ctv[i0 + 2];
    /* a friction row's bound mu ((sel lambda_n,prev) + (1 - sel) lambda_n) of bounds() with
     * sel (cteps) 0 or 1, as F[0] + F[1] lambda_n: (mu lambda_n,prev, 0) or (0, mu), the
     * same value; (0, 0) for an empty slot */
    for (int j = 1; j < 3; ++j) {
        const int i = i0 + j;
        const hs_real mu = T->ct_rows[i].mu;
        /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
        const int live = (s->ctiw[i] > HS_R(0.0)) ? 1 : 0;
        /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
        const int prev = (s->cteps[i] > HS_R(0.5)) ? 1 : 0;
        hs_real *F = &Rp[(j == 1) ? PT_F1 : PT_F2];
        F[0] = ((live != 0) && (prev != 0)) ? (mu * s->ctl[i0]) : HS_R(0.0);
        F[1] = ((live != 0) && (prev == 0)) ? mu : HS_R(0.0);
    }
}

/* The rows of point P (geometry g, record Rp): responses, W_ii, targets and the
 * couplings J_k B_m within the point, as the generic stage sets them (rt/hs_contact.c), into
 * the stepper's row arrays and the record. */
static void point_setup(hs_stepper *s, const hs_fb_info *fb, const hs_ct_point *P, const hs_real *g, hs_real *Rp,
                        hs_real cq, hs_real h, hs_real hold)
{
    const hs_model_type *T = s->model->type;
    hs_real *bd = fb_bodies(s);
    hs_real *A = body_rec(bd, P->a);
    hs_real *B = body_rec(bd, P->b);
    const int i0 = P->row, nr = P->nrow;
    const hs_real ia = A[FB_IM], ib = B[FB_IM];
    hs_real ca[3][3], cb[3][3], kaa[3][3], kbb[3][3];
    hs_real vr[3];
    hs_real off[3];
    rel_vel(A, B, g, FB_V, vr);
    rel_off(A, B, g, FB_AL, off);
    if (nr == 1) {
        /* a normal alone: no tangent rows (their responses, couplings and bounds 0) */
        for (int k = PT_MA; k < FB_PT; ++k) {
            Rp[k] = HS_R(0.0);
        }
    }
    for (int j = 0; j < nr; ++j) {
        const int i = i0 + j;
        /* the tangents move with their normal (set by the row before them) */
        s->ctk[i] = (j == 0) ? HS_R(0.0) : s->ctk[i0];
        const hs_real *d = &g[HS_CT_PT_N + (3 * j)];
        hs_real *ka = kaa[j];
        hs_real *kb = kbb[j];
        cross3(&g[HS_CT_PT_RA], d, ca[j]);
        cross3(&g[HS_CT_PT_RB], d, cb[j]);
        mat3v(&A[FB_II], ca[j], ka);
        mat3v(&B[FB_II], cb[j], kb);
        /* the response columns (PT_MA, PT_MB) */
        hs_real *ma = &Rp[PT_MA], *mb = &Rp[PT_MB];
        for (int q = 0; q < 3; ++q) {
            ma[(6 * j) + q] = d[q] * ia;
            ma[(6 * j) + 3 + q] = ka[q];
            mb[(6 * j) + q] = -(d[q] * ib);
            mb[(6 * j) + 3 + q] = -kb[q];
        }
        const hs_real dd = dot3(d, d);
        const hs_real W = (((dd * ia) + dot3(ca[j], ka)) + (dd * ib)) + dot3(cb[j], kb);
        const hs_ct_row *R = &T->ct_rows[i];
        const hs_real reg = (R->kind == HS_CT_NORMAL) ? HS_CT_REG : HS_R(0.0);
        s->ctiw[i] = (W > HS_R(1e-30)) ? (HS_R(1.0) / ((HS_R(1.0) + reg) * W)) : HS_R(0.0);
        s->cteps[i] = reg * W;
        if (R->kind != HS_CT_NORMAL) {
            const int prev = (int)((R->box != 0) && (s->ctl[R->normal] > HS_R(0.0)));
            s->cteps[i] = (prev != 0) ? HS_R(1.0) : HS_R(0.0);
        }
        const hs_real vo = dot3(d, off);
        const hs_real v = dot3(d, vr) + vo;
        s->ctv[i] = v;
        hs_real r = HS_R(0.0);
        if (R->kind == HS_CT_NORMAL) {
            const hs_real phi = g[HS_CT_PT_PHI];
            const hs_real dg = phi - cq * v;
            const hs_real ce = (cq > HS_R(0.0)) ? cq : h;
            r = (dg >= HS_CT_SLOP) ? (-dg / ce) : (-HS_CT_ERP * dg / h);
            if ((cq == HS_R(0.0)) && (R->e > HS_R(0.0)) && (v < -HS_CT_VREST) && (phi + h * v < HS_R(0.0))) {
                const hs_real rb = -R->e * v;
                r = (rb > r) ? rb : r;
                s->cteps[i] = HS_R(0.0);
                s->ctiw[i] = (W > HS_R(1e-30)) ? (HS_R(1.0) / W) : HS_R(0.0);
            } else if ((v < -HS_CT_VREST) && (phi < HS_R(0.0))) {
                /* the impact inside the step of rt/hs_contact.c, with the row velocity of u_n */
                const hs_real v0 = point_v0(A, B, g, d);
                if (impact_taken(R->e, cq, h, v0, s->ctl[i]) != 0) {
                    r = point_impact(s, fb, P, A, B, R, i, d, ka, kb, ia, ib, W, v0, v, phi, r, cq, h);
                }
            } else {
                /* no impact: the target above stands */
            }
            r = hold_target(r, dg, hold, s->cteps[i], s->ctan[i]);
        }
        /* the sweeps' J u leaves out the radial part vo: the target takes it instead */
        r -= vo;
        s->ctr[i] = r;
        Rp[PT_IW + j] = s->ctiw[i];
        Rp[PT_R + j] = r;
    }
    Rp[PT_EPS] = s->cteps[i0];
    Rp[PT_VN] = dot3(&g[HS_CT_PT_N], vr);
    /* the normal's bounds (bounds()): [0, 1e30], [0, 0] for an empty slot */
    Rp[PT_HN] = (s->ctiw[i0] > HS_R(0.0)) ? HS_R(1e30) : HS_R(0.0);
    if (nr == 3) {
        point_couplings(s, T, g, Rp, i0, ia, ib, ca, cb, kaa, kbb);
    }
}

/* The upper bound of row j of point record R with normal impulse ln (bounds() of
 * rt/hs_contact_int.h from the record: the lower is 0 for the normal, -hi for a tangent). */
static inline hs_real pt_hi(const hs_real *R, int j, hs_real ln)
{
    return (j == 0) ? R[PT_HN] : ((j == 1) ? (R[PT_F1] + (R[PT_F1 + 1] * ln)) : (R[PT_F2] + (R[PT_F2 + 1] * ln)));
}

/* One projected Gauss-Seidel update of a contact point's three rows from their J u (v0, v1,
 * v2) with the point's record R: point_update() of rt/hs_contact_int.h with the bounds and
 * couplings read from the record (the same values, so the same impulses); the impulses'
 * changes into e. */
/* MISRA Ref 8.14.1 [separate workspace arrays] */
static inline void point3(const hs_real *restrict R, hs_real *restrict l, hs_real v0, hs_real v1, hs_real v2,
                          hs_real *e)
{
    const hs_real w0 = (v0 - R[PT_R]) + (R[PT_EPS] * l[0]);
    const hs_real n0 = clamp(l[0] - (w0 * R[PT_IW]), HS_R(0.0), R[PT_HN]);
    const hs_real e0 = n0 - l[0];
    l[0] = n0;
    hs_real hi = R[PT_F1] + (R[PT_F1 + 1] * n0);
    const hs_real w1 = (v1 + (R[PT_C10] * e0)) - R[PT_R + 1];
    const hs_real n1 = clamp(l[1] - (w1 * R[PT_IW + 1]), -hi, hi);
    const hs_real e1 = n1 - l[1];
    l[1] = n1;
    hi = R[PT_F2] + (R[PT_F2 + 1] * n0);
    const hs_real w2 = ((v2 + (R[PT_C20] * e0)) + (R[PT_C21] * e1)) - R[PT_R + 2];
    const hs_real n2 = clamp(l[2] - (w2 * R[PT_IW + 2]), -hi, hi);
    e[0] = e0;
    e[1] = e1;
    e[2] = n2 - l[2];
    l[2] = n2;
}

/* The points' geometry (np x HS_CT_PT, geo) times 0, summed: 0 when every entry is finite,
 * NaN otherwise (two sums, any order gives 0 or NaN), a fixed-cost check before it is used. */
HS_INLINE hs_real fb_finite_sum(const hs_real *geo, int np)
{
    hs_real nf = HS_R(0.0), nf2 = HS_R(0.0);
    for (int k = 0; k < (np * HS_CT_PT); k += 2) {
        nf += geo[k] * HS_R(0.0);
        nf2 += geo[k + 1] * HS_R(0.0);
    }
    return nf + nf2;
}

/* Warm start: the previous step's impulses (ctl, nk), clamped to this step's bounds from the
 * points' records (pts, np x FB_PT), into lam (nk) and the body records (bd): the sweeps
 * start from last step's solution, which their fixed budget could not reach from zero. */
HS_INLINE void fb_warm(const hs_stepper *s, const hs_model_type *T, int np, const hs_real *pts, hs_real *bd,
                       hs_real *lam)
{
    for (int k = 0; k < np; ++k) {
        const hs_ct_point *P = &T->ct_pts[k];
        const hs_real *Rp = &pts[k * FB_PT];
        hs_real e[3] = {HS_R(0.0), HS_R(0.0), HS_R(0.0)};
        for (int j = 0; j < P->nrow; ++j) {
            const int i = P->row + j;
            const hs_real hi = pt_hi(Rp, j, e[0]);
            lam[i] = clamp(s->ctl[i], (j == 0) ? HS_R(0.0) : -hi, hi);
            e[j] = lam[i];
        }
        apply6(&body_rec(bd, P->a)[FB_V], &Rp[PT_MA], e[0], e[1], e[2]);
        if (P->b >= 0) {
            apply6(&body_rec(bd, P->b)[FB_V], &Rp[PT_MB], e[0], e[1], e[2]);
        }
    }
}

/* ---- The pair-level correction (model/CONTACT.md "Mass ratio"): Gauss-Seidel corrects the
 * normal load a light body passes on from a heavy one by about 1/(1 + m_light / m_heavy) of its
 * error per sweep, too slow for a step's budget, and the load it leaves unconverged acts like an
 * explicit spring (a 100 kg box fell through a 1 kg one without friction). Between sweeps the
 * normal impulses of each contact pair (the consecutive points with the same two bodies) are
 * corrected along three shapes, uniform and linear in the point's offset along the pair's
 * tangents, by the exact minimiser of the sweeps' quadratic over those shapes: one symmetric
 * system over all pairs, factored by Cholesky in its profile (pairs couple only through a body
 * they share; the profile comes from the declaration, fixed), then clamped to lambda >= 0. ---- */
#define CG_WA 0    /* per pair and shape: the shape's wrench on body a (6: force, moment), */
#define CG_WB 6    /* on body b, */
#define CG_RA 12   /* the velocity response of a (6: dv, dw per unit shape amplitude), */
#define CG_RB 18   /* of b */
#define CG_DOF 24  /* reals per pair and shape */
/* A pivot below this fraction of its diagonal: the shape repeats the others (dimensionless; a
 * dependent shape's pivot is rounding, about 1e-16 of it in double, 1e-7 in float). */
#ifdef HS_REAL_FLOAT
#define CG_PIV HS_R(1e-3)
#else
#define CG_PIV HS_R(1e-6)
#endif

/* The point after the last of the contact pair that starts at point k0 (of np): a pair is the
 * run of consecutive points with the same two bodies, as ct_anchor's (one contact's slots). */
static int pair_end(const hs_model_type *T, int k0, int np)
{
    int k = k0 + 1;
    while ((k < np) && (T->ct_pts[k].a == T->ct_pts[k0].a) && (T->ct_pts[k].b == T->ct_pts[k0].b)) {
        ++k;
    }
    return k;
}

/* Whether the pairs of points A and B share a moving body (the ground couples nothing). */
static int pairs_meet(const hs_ct_point *A, const hs_ct_point *B)
{
    return (int)(((A->a >= 0) && ((A->a == B->a) || (A->a == B->b))) || ((A->b >= 0) && ((A->b == B->a) || (A->b == B->b))));
}

/* The correction's plan for T's np points: its pair count *npair, and per pair (fp, npair) the
 * first pair that meets it (the start of its rows' profile, when fp is given); returns the
 * reals of the profile of the factor (3 shapes a pair). Work O(npair^2), the same every step. */
static size_t cg_plan(const hs_model_type *T, int np, int *npair, hs_real *fp)
{
    size_t lsz = 0u;
    int p = 0;
    for (int k0 = 0; k0 < np; k0 = pair_end(T, k0, np)) {
        int q = 0, f = p;
        for (int j0 = 0; (j0 < k0) && (f == p); j0 = pair_end(T, j0, np)) {
            f = (pairs_meet(&T->ct_pts[k0], &T->ct_pts[j0]) != 0) ? q : f;
            ++q;
        }
        if (fp != NULL) {
            fp[p] = (hs_real)f;
        }
        /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
        lsz += (size_t)(3 * (p - f)) * 3u + 6u;
        ++p;
    }
    *npair = p;
    return lsz;
}

/* Reals of the correction for model type T (nq positions): per point its shapes (3), per pair
 * its first meeting pair and first point, 3 CG_DOF records and per shape its right-hand side,
 * inverse pivot and row offset, and the profile; 0 (no correction) where it would take more than the room the rows over q leave
 * (2 nk nq, which HS_STEPPER_REALS_CT counts and the body-velocity form does not use). */
static size_t cg_reals(const hs_model_type *T, int nq)
{
    int npair = 0;
    const size_t lsz = cg_plan(T, T->ct_npoints, &npair, NULL);
    const size_t n = (3u * (size_t)T->ct_npoints) + ((size_t)npair * (3u * (size_t)CG_DOF + 11u)) + lsz;
    return (n <= (2u * (size_t)T->nk * (size_t)nq)) ? n : 0u;
}

/* The correction's workspace (after the body records; cg_reals): */
typedef struct cg_ws {
    hs_real *x;   /* per point: its shapes' values phi_0 (1 when it carries load), phi_1, phi_2 */
    hs_real *dr;  /* per pair and shape: CG_DOF reals */
    hs_real *fp;  /* per pair: the first pair that meets it */
    hs_real *pk;  /* per pair: its first point */
    hs_real *rh;  /* per shape: minus the sweeps' gradient, then the correction */
    hs_real *iv;  /* per shape: 1 / its pivot, 0 for a dependent shape */
    hs_real *of;  /* per shape: its row's offset in the profile */
    hs_real *l;   /* the profile of the factor, row by row from column 3 fp */
    int npair;
} cg_ws;

/* The views of w into the workspace at base for np points and npair pairs (cg_reals' layout). */
static void cg_map(hs_real *base, int np, int npair, cg_ws *w)
{
    w->x = base;
    w->dr = &base[3 * np];
    w->fp = &w->dr[npair * 3 * CG_DOF];
    w->pk = &w->fp[npair];
    w->rh = &w->pk[npair];
    w->iv = &w->rh[3 * npair];
    w->of = &w->iv[3 * npair];
    w->l = &w->of[3 * npair];
    w->npair = npair;
}

/* The shapes of the pair of points k0 .. k1 - 1 (geometry geo, records pts, impulses lam):
 * which points carry load, their offsets along the first point's tangents from the loaded
 * points' centre (lever arms on a), and per shape its wrenches and responses, into w at pair p. */
static void cg_pair(const hs_model_type *T, int k0, int k1, int p, const hs_real *geo, const hs_real *pts,
                    const hs_real *bd, const hs_real *lam, cg_ws *w)
{
    hs_real c[3] = {HS_R(0.0), HS_R(0.0), HS_R(0.0)}, cnt = HS_R(0.0);
    for (int k = k0; k < k1; ++k) {
        const hs_real on = ((pts[(k * FB_PT) + PT_IW] > HS_R(0.0)) && (lam[T->ct_pts[k].row] > HS_R(0.0))) ? HS_R(1.0) : HS_R(0.0);
        w->x[3 * k] = on;
        const hs_real *gk = &geo[k * HS_CT_PT], *ra = &gk[HS_CT_PT_RA]; /* its lever arm on a */
        for (int j = 0; j < 3; ++j) {
            c[j] += on * ra[j];
        }
        cnt += on;
    }
    const hs_real ic = (cnt > HS_R(0.0)) ? (HS_R(1.0) / cnt) : HS_R(0.0);
    const hs_real *t1 = &geo[(k0 * HS_CT_PT) + HS_CT_PT_T1], *t2 = &geo[(k0 * HS_CT_PT) + HS_CT_PT_T2];
    hs_real *D = &w->dr[p * 3 * CG_DOF];
    for (int j = 0; j < 3 * CG_DOF; ++j) {
        D[j] = HS_R(0.0);
    }
    for (int k = k0; k < k1; ++k) {
        const hs_real *g = &geo[k * HS_CT_PT];
        const hs_real on = w->x[3 * k];
        const hs_real *ra = &g[HS_CT_PT_RA];
        const hs_real dc[3] = {ra[0] - (ic * c[0]), ra[1] - (ic * c[1]), ra[2] - (ic * c[2])};
        w->x[(3 * k) + 1] = on * dot3(dc, t1);
        w->x[(3 * k) + 2] = on * dot3(dc, t2);
        hs_real ma[3], mb[3];
        cross3(&g[HS_CT_PT_RA], &g[HS_CT_PT_N], ma);
        cross3(&g[HS_CT_PT_RB], &g[HS_CT_PT_N], mb);
        for (int d = 0; d < 3; ++d) {
            const hs_real ph = w->x[(3 * k) + d];
            hs_real *Dd = &D[d * CG_DOF];
            hs_real *wa = &Dd[CG_WA];
            for (int j = 0; j < 3; ++j) {
                wa[j] += ph * g[HS_CT_PT_N + j];
                wa[3 + j] += ph * ma[j];
                Dd[CG_WB + j] -= ph * g[HS_CT_PT_N + j];
                Dd[CG_WB + 3 + j] -= ph * mb[j];
            }
        }
    }
    /* the responses from the wrenches: dv = f / m, dw = I^-1 m per body (the ground's 0) */
    const hs_ct_point *P = &T->ct_pts[k0];
    const hs_real *A = body_rc(bd, P->a), *B = body_rc(bd, P->b);
    for (int d = 0; d < 3; ++d) {
        hs_real *Dd = &D[d * CG_DOF];
        const hs_real *wa = &Dd[CG_WA];
        for (int j = 0; j < 3; ++j) {
            Dd[CG_RA + j] = A[FB_IM] * wa[j];
            Dd[CG_RB + j] = B[FB_IM] * Dd[CG_WB + j];
        }
        mat3v(&A[FB_II], &wa[3], &Dd[CG_RA + 3]);
        mat3v(&B[FB_II], &Dd[CG_WB + 3], &Dd[CG_RB + 3]);
    }
}

/* a . b over 6 entries (a wrench and a response: force with velocity, moment with rate). */
static inline hs_real dot6(const hs_real *a, const hs_real *b)
{
    return dot3(a, b) + dot3(&a[3], &b[3]);
}

/* Entry (shape i of pair p, shape j of pair q) of the pair system: the wrench of one on each
 * moving body the pairs share dotted with the other's response there; Pp, Pq their first points. */
static hs_real cg_entry(const cg_ws *w, const hs_ct_point *Pp, const hs_ct_point *Pq, int p, int i, int q, int j)
{
    const hs_real *Di = &w->dr[((p * 3) + i) * CG_DOF], *Dj = &w->dr[((q * 3) + j) * CG_DOF];
    hs_real v = HS_R(0.0);
    if (Pp->a >= 0) {
        v += (Pp->a == Pq->a) ? dot6(&Di[CG_WA], &Dj[CG_RA]) : HS_R(0.0);
        v += (Pp->a == Pq->b) ? dot6(&Di[CG_WA], &Dj[CG_RB]) : HS_R(0.0);
    }
    if (Pp->b >= 0) {
        v += (Pp->b == Pq->a) ? dot6(&Di[CG_WB], &Dj[CG_RA]) : HS_R(0.0);
        v += (Pp->b == Pq->b) ? dot6(&Di[CG_WB], &Dj[CG_RB]) : HS_R(0.0);
    }
    return v;
}

/* The pair system in its profile (w->l, rows 3 p + i from column 3 fp(p)): the entries, and on
 * a pair's own block the compliance sum of eps phi_i phi_j over its points. */
static void cg_assemble(const hs_model_type *T, int np, const hs_real *pts, cg_ws *w)
{
    int off = 0;
    for (int p = 0; p < w->npair; ++p) {
        const int k0 = (int)w->pk[p], k1 = pair_end(T, k0, np), f = (int)w->fp[p];
        const hs_ct_point *Pp = &T->ct_pts[k0];
        for (int i = 0; i < 3; ++i) {
            w->of[(3 * p) + i] = (hs_real)off;
            for (int q = f; q <= p; ++q) {
                const hs_ct_point *Pq = &T->ct_pts[(int)w->pk[q]];
                for (int j = 0; j < 3; ++j) {
                    if (((3 * q) + j) <= ((3 * p) + i)) {
                        hs_real v = cg_entry(w, Pp, Pq, p, i, q, j);
                        for (int k = k0; (q == p) && (k < k1); ++k) {
                            v += (pts[(k * FB_PT) + PT_EPS] * w->x[(3 * k) + i]) * w->x[(3 * k) + j];
                        }
                        w->l[off] = v;
                        ++off;
                    }
                }
            }
        }
    }
}

/* Cholesky L L^T of the profile in place. A pivot below CG_PIV of its diagonal (a shape that
 * repeats others: two points on a line, one point, no load) gets no correction (its inverse
 * pivot 0). */
static void cg_factor(cg_ws *w)
{
    const int n = 3 * w->npair;
    for (int r = 0; r < n; ++r) {
        const int fr = 3 * (int)w->fp[r / 3], orr = (int)w->of[r];
        for (int c = fr; c <= r; ++c) {
            const int fc = 3 * (int)w->fp[c / 3], oc = (int)w->of[c];
            const int k0 = (fr > fc) ? fr : fc;
            const hs_real a = w->l[orr + (c - fr)];
            hs_real v = a;
            for (int k = k0; k < c; ++k) {
                v -= w->l[orr + (k - fr)] * w->l[oc + (k - fc)];
            }
            if (c < r) {
                w->l[orr + (c - fr)] = v * w->iv[c];
            } else {
                const int live = (int)((v > (CG_PIV * a)) && (v > HS_R(0.0)));
                const hs_real d = (live != 0) ? hs_sqrt(v) : HS_R(1.0);
                w->l[orr + (c - fr)] = d;
                w->iv[r] = (live != 0) ? (HS_R(1.0) / d) : HS_R(0.0);
            }
        }
    }
}

/* w->rh := (L L^T)^-1 w->rh with the factor of cg_factor. */
static void cg_subst(cg_ws *w)
{
    const int n = 3 * w->npair;
    for (int r = 0; r < n; ++r) {
        const int fr = 3 * (int)w->fp[r / 3], orr = (int)w->of[r];
        hs_real v = w->rh[r];
        for (int k = fr; k < r; ++k) {
            v -= w->l[orr + (k - fr)] * w->rh[k];
        }
        w->rh[r] = v * w->iv[r];
    }
    for (int r = n - 1; r >= 0; --r) {
        const int fr = 3 * (int)w->fp[r / 3], orr = (int)w->of[r];
        const hs_real v = w->rh[r] * w->iv[r];
        w->rh[r] = v;
        for (int k = fr; k < r; ++k) {
            w->rh[k] -= w->l[orr + (k - fr)] * v;
        }
    }
}

/* The correction into the impulses (lam) and the bodies' velocities (bd), then each normal
 * clamped to >= 0 with its velocity change through the point's response columns. */
static void cg_apply(const hs_model_type *T, int np, const hs_real *pts, hs_real *bd, hs_real *lam, const cg_ws *w)
{
    for (int p = 0; p < w->npair; ++p) {
        const int k0 = (int)w->pk[p], k1 = pair_end(T, k0, np);
        const hs_ct_point *P = &T->ct_pts[k0];
        const hs_real *x = &w->rh[3 * p];
        hs_real *A = body_rec(bd, P->a), *B = body_rec(bd, P->b);
        hs_real *va = &A[FB_V], *vb = &B[FB_V]; /* the bodies' velocities (6 each) */
        for (int d = 0; d < 3; ++d) {
            const hs_real *D = &w->dr[((3 * p) + d) * CG_DOF];
            for (int j = 0; j < 6; ++j) {
                va[j] += x[d] * D[CG_RA + j];
            }
            for (int j = 0; (P->b >= 0) && (j < 6); ++j) {
                vb[j] += x[d] * D[CG_RB + j];
            }
        }
        for (int k = k0; k < k1; ++k) {
            const hs_real *X = &w->x[3 * k];
            const int i = T->ct_pts[k].row;
            const hs_real ln = lam[i] + (((X[0] * x[0]) + (X[1] * x[1])) + (X[2] * x[2]));
            const hs_real e = (ln < HS_R(0.0)) ? -ln : HS_R(0.0);
            lam[i] = ln + e;
            const hs_real *R = &pts[k * FB_PT]; /* the point's records: a's response at PT_MA */
            apply6(va, &R[PT_MA], e, HS_R(0.0), HS_R(0.0));
            if (P->b >= 0) {
                apply6(vb, &R[PT_MB], e, HS_R(0.0), HS_R(0.0));
            }
        }
    }
}

/* Per pair its first point (w->pk) and the first pair that meets it (w->fp: cg_plan's, from the
 * first pair of each of its bodies, kept in the body records' FB_FP; nb bodies), O(np + nb). */
static void cg_first(const hs_model_type *T, int np, int nb, hs_real *bd, cg_ws *w)
{
    for (int k = 0; k < nb; ++k) {
        body_rec(bd, k)[FB_FP] = HS_R(-1.0);
    }
    int p = 0;
    for (int k0 = 0; k0 < np; k0 = pair_end(T, k0, np)) {
        const hs_ct_point *P = &T->ct_pts[k0];
        hs_real f = (hs_real)p;
        if (P->a >= 0) {
            hs_real *r = body_rec(bd, P->a);
            r[FB_FP] = (r[FB_FP] < HS_R(0.0)) ? (hs_real)p : r[FB_FP];
            f = (r[FB_FP] < f) ? r[FB_FP] : f;
        }
        if (P->b >= 0) {
            hs_real *r = body_rec(bd, P->b);
            r[FB_FP] = (r[FB_FP] < HS_R(0.0)) ? (hs_real)p : r[FB_FP];
            f = (r[FB_FP] < f) ? r[FB_FP] : f;
        }
        w->pk[p] = (hs_real)k0;
        w->fp[p] = f;
        ++p;
    }
}

/* Minus the gradient of the sweeps' quadratic along each shape (the sum over the pair's points
 * of phi times the normal row's residual J u - r + eps lambda) into w->rh. */
static void cg_grad(const hs_stepper *s, const hs_model_type *T, int np, const hs_real *geo, const hs_real *pts,
                    hs_real *bd, const hs_real *lam, cg_ws *w)
{
    for (int p = 0; p < w->npair; ++p) {
        const int k0 = (int)w->pk[p], k1 = pair_end(T, k0, np);
        const hs_ct_point *P = &T->ct_pts[k0];
        const hs_real *A = body_rec(bd, P->a), *B = body_rec(bd, P->b);
        hs_real r0 = HS_R(0.0), r1 = HS_R(0.0), r2 = HS_R(0.0);
        for (int k = k0; k < k1; ++k) {
            const hs_real *g = &geo[k * HS_CT_PT];
            const int i = T->ct_pts[k].row;
            hs_real vr[3];
            rel_vel(A, B, g, FB_V, vr);
            const hs_real res = (dot3(&g[HS_CT_PT_N], vr) - s->ctr[i]) + (pts[(k * FB_PT) + PT_EPS] * lam[i]);
            r0 -= w->x[3 * k] * res;
            r1 -= w->x[(3 * k) + 1] * res;
            r2 -= w->x[(3 * k) + 2] * res;
        }
        w->rh[3 * p] = r0;
        w->rh[(3 * p) + 1] = r1;
        w->rh[(3 * p) + 2] = r2;
    }
}

/* The pair-level correction of the sweeps' impulses (lam) and bodies (bd), base its workspace
 * (nb bodies): the shapes from the points that carry load now, the system over them, its
 * factor, and the exact minimiser along them of the sweeps' quadratic, clamped to lambda >= 0.
 * Run once a step, after the first sweep (which sets which points carry load): on ratio.hsm
 * and tower50.hsm that rests as well as three corrections, after sweeps 5, 10 and 15, and
 * better than one after sweep 10 (model/CONTACT.md "Mass ratio"). */
static void fb_pairs(const hs_stepper *s, const hs_model_type *T, int np, int nb, const hs_real *geo,
                     const hs_real *pts, hs_real *bd, hs_real *lam, hs_real *base)
{
    int npair = 0;
    cg_ws w;
    for (int k0 = 0; k0 < np; k0 = pair_end(T, k0, np)) {
        ++npair;
    }
    cg_map(base, np, npair, &w);
    cg_first(T, np, nb, bd, &w);
    int p = 0;
    for (int k0 = 0; k0 < np; k0 = pair_end(T, k0, np)) {
        cg_pair(T, k0, pair_end(T, k0, np), p, geo, pts, bd, lam, &w);
        ++p;
    }
    cg_assemble(T, np, pts, &w);
    cg_factor(&w);
    cg_grad(s, T, np, geo, pts, bd, lam, &w);
    cg_subst(&w);
    cg_apply(T, np, pts, bd, lam, &w);
}

/* Point k's update (record R, impulses l of its nr rows) from its rows' J u (v, 3) into R's
 * PT_D, the impulses left as they were; returns the update's inner product with the rows'
 * residuals J u - r + eps lambda (the sweeps' quadratic's gradient; N s m/s). */
static inline hs_real point_try(hs_real *R, const hs_real *l, int nr, const hs_real *v)
{
    hs_real *e = &R[PT_D];
    hs_real gd;
    if (nr == 3) {
        hs_real lt[3] = {l[0], l[1], l[2]};
        point3(R, lt, v[0], v[1], v[2], e);
        gd = (((v[0] - R[PT_R]) + (R[PT_EPS] * l[0])) * e[0]) + (((v[1] - R[PT_R + 1]) * e[1]) + ((v[2] - R[PT_R + 2]) * e[2]));
    } else {
        /* a normal alone: row_update's, bounds [0, PT_HN] */
        const hs_real w0 = (v[0] - R[PT_R]) + (R[PT_EPS] * l[0]);
        e[0] = clamp(l[0] - (w0 * R[PT_IW]), HS_R(0.0), R[PT_HN]) - l[0];
        e[1] = HS_R(0.0);
        e[2] = HS_R(0.0);
        gd = w0 * e[0];
    }
    return gd;
}

/* The rows' J u (3: n, t1, t2) at point geometry g from velocity records A and B (6 each at
 * offset ov); B NULL for the ground. */
static inline void point_ju(const hs_real *A, const hs_real *B, const hs_real *g, int ov, hs_real *v)
{
    hs_real vr[3];
    if (B != NULL) {
        rel_vel(A, B, g, ov, vr);
    } else {
        rel_vel_a(A, g, vr);
    }
    v[0] = dot3(&g[HS_CT_PT_N], vr);
    v[1] = dot3(&g[HS_CT_PT_T1], vr);
    v[2] = dot3(&g[HS_CT_PT_T2], vr);
}

/* One sweep over the contact pair of points k0 .. k1 - 1 (bodies' records A, B; B NULL for the
 * ground): every point's update from the same velocities (Jacobi within the pair, so points
 * that mirror each other get mirror updates: a symmetric scene stays symmetric, where
 * Gauss-Seidel in point order seeded a tilt; model/CONTACT.md "Symmetry"), then all of them
 * scaled by the step alpha in [0, 1] that minimises the sweeps' quadratic along them (the
 * updates' sum overshoots: four corners of a face move it by up to 2.5 times one corner's). */
static void fb_pair_sweep(const hs_model_type *T, int k0, int k1, const hs_real *geo, hs_real *pts, hs_real *A,
                          hs_real *B, hs_real *lam)
{
    hs_real da[6] = {HS_R(0.0), HS_R(0.0), HS_R(0.0), HS_R(0.0), HS_R(0.0), HS_R(0.0)};
    hs_real db[6] = {HS_R(0.0), HS_R(0.0), HS_R(0.0), HS_R(0.0), HS_R(0.0), HS_R(0.0)};
    hs_real gd = HS_R(0.0), dwd = HS_R(0.0);
    for (int k = k0; k < k1; ++k) {
        const hs_ct_point *P = &T->ct_pts[k];
        hs_real *R = &pts[k * FB_PT];
        hs_real v[3];
        point_ju(&A[FB_V], (B != NULL) ? &B[FB_V] : NULL, &geo[k * HS_CT_PT], 0, v);
        gd += point_try(R, &lam[P->row], P->nrow, v);
        apply6(da, &R[PT_MA], R[PT_D], R[PT_D + 1], R[PT_D + 2]);
        apply6(db, &R[PT_MB], R[PT_D], R[PT_D + 1], R[PT_D + 2]);
    }
    /* e^T (W + E) e: the updates' velocity change at each point, dotted with the update */
    for (int k = k0; k < k1; ++k) {
        const hs_real *R = &pts[k * FB_PT];
        hs_real v[3];
        point_ju(da, (B != NULL) ? db : NULL, &geo[k * HS_CT_PT], 0, v);
        dwd += ((((v[0] + (R[PT_EPS] * R[PT_D])) * R[PT_D]) + (v[1] * R[PT_D + 1])) + (v[2] * R[PT_D + 2]));
    }
    hs_real al = HS_R(1.0);
    if ((dwd > HS_R(0.0)) && (-gd < dwd)) {
        al = (gd < HS_R(0.0)) ? (-gd / dwd) : HS_R(1.0);
    }
    for (int k = k0; k < k1; ++k) {
        const hs_ct_point *P = &T->ct_pts[k];
        const hs_real *R = &pts[k * FB_PT];
        for (int j = 0; j < P->nrow; ++j) {
            lam[P->row + j] += al * R[PT_D + j];
        }
    }
    hs_real *va = &A[FB_V]; /* the bodies' velocities (6 each) */
    for (int j = 0; j < 6; ++j) {
        va[j] += al * da[j];
    }
    if (B != NULL) {
        hs_real *vb = &B[FB_V];
        for (int j = 0; j < 6; ++j) {
            vb[j] += al * db[j];
        }
    }
}

/* One sweep Gauss-Seidel in point order (s->ctpo: the generic stage's order, for the two forms'
 * agreement check): per point its relative velocity, the rows' J u its projections, the
 * point's update, then both bodies' records (bd); impulses lam (nk) in place. */
static void fb_sweep_points(hs_stepper *s, const hs_model_type *T, int np, const hs_real *geo, const hs_real *pts,
                            hs_real *bd, hs_real *lam)
{
    for (int k = 0; k < np; ++k) {
        const hs_ct_point *P = &T->ct_pts[k];
        const hs_real *R = &pts[k * FB_PT];
        hs_real *A = body_rec(bd, P->a);
        hs_real *B = body_rec(bd, P->b);
        hs_real v[3], e[3];
        point_ju(&A[FB_V], (P->b >= 0) ? &B[FB_V] : NULL, &geo[k * HS_CT_PT], 0, v);
        const int i = P->row;
        if (P->nrow == 3) {
            point3(R, &lam[i], v[0], v[1], v[2], e);
        } else {
            e[0] = row_update(s, i, lam, v[0]);
            e[1] = HS_R(0.0);
            e[2] = HS_R(0.0);
        }
        apply6(&A[FB_V], &R[PT_MA], e[0], e[1], e[2]);
        if (P->b >= 0) {
            apply6(&B[FB_V], &R[PT_MB], e[0], e[1], e[2]);
        }
    }
}

/* The fixed sweeps (s->ctns: T->ct_sweeps or HS_CT_SWEEPS_FB), Gauss-Seidel over the contact pairs in their order, each
 * pair's points together (fb_pair_sweep); impulses lam (nk) in place, the bodies' records bd.
 * The budget, not a tolerance, ends them. */
HS_INLINE void fb_sweeps(hs_stepper *s, const hs_model_type *T, int np, int nb, const hs_real *geo,
                         hs_real *pts, hs_real *bd, hs_real *lam, hs_real *cgw)
{
    const int ns = s->ctns;
    for (int sw = 0; sw < ns; ++sw) {
        if ((cgw != NULL) && (sw == 1)) {
            fb_pairs(s, T, np, nb, geo, pts, bd, lam, cgw);
        }
        int k1 = 0; /* (the pair's end found once per pair: the loop steps to it) */
        for (int k0 = 0; (s->ctpo == 0) && (k0 < np); k0 = k1) {
            const hs_ct_point *P = &T->ct_pts[k0];
            k1 = pair_end(T, k0, np);
            fb_pair_sweep(T, k0, k1, geo, pts, body_rec(bd, P->a), (P->b >= 0) ? body_rec(bd, P->b) : NULL, lam);
        }
        if (s->ctpo != 0) {
            fb_sweep_points(s, T, np, geo, pts, bd, lam);
        }
    }
}

/* The positions an inelastic impact's impulses (lam, nk) move beyond cq (rt/hs_contact.c's
 * ct_impact_lead): each body of such a point by ctk times the impulses through the point's
 * response columns (pts, np x FB_PT), from the bodies' entry quaternions (bd). */
HS_INLINE void fb_impact_lead(hs_stepper *s, const hs_fb_info *fb, const hs_model_type *T, int np,
                              const hs_real *pts, hs_real *bd, const hs_real *lam)
{
    for (int k = 0; k < np; ++k) {
        const hs_ct_point *P = &T->ct_pts[k];
        const hs_real c = s->ctk[P->row];
        if (c != HS_R(0.0)) {
            const hs_real *Rp = &pts[k * FB_PT];
            for (int j = 0; j < P->nrow; ++j) {
                /* the response columns as point_setup writes them (PT_MA, PT_MB; 6 per row) */
                const hs_real *ma = &Rp[PT_MA], *mb = &Rp[PT_MB];
                const hs_real dl = c * lam[P->row + j];
                move_q(s->qn, &fb->body[P->a], body_rec(bd, P->a), dl, &ma[6 * j], &ma[(6 * j) + 3]);
                if (P->b >= 0) {
                    move_q(s->qn, &fb->body[P->b], body_rec(bd, P->b), dl, &mb[6 * j], &mb[(6 * j) + 3]);
                }
            }
        }
    }
}

/* The body records (bd) back into u and q (un, qn: nq): x' = v, p' += 1/2 E(p)^T (w - w0),
 * q += cq du, so the method's state sees the impulses as a change of its own velocities. */
HS_INLINE void fb_out(hs_stepper *s, const hs_fb_info *fb, hs_real *bd, hs_real cq)
{
    for (int k = 0; k < fb->nb; ++k) {
        const hs_fb_body *B = &fb->body[k];
        const hs_real *r = body_rec(bd, k);
        hs_real dw[3], pd[4];
        const hs_real *rv = &r[FB_V];
        for (int i = 0; i < 3; ++i) {
            const hs_real dv = rv[i] - r[FB_V0 + i];
            s->un[B->qoff + i] = rv[i];
            s->qn[B->qoff + i] += cq * dv;
            dw[i] = r[FB_W + i] - r[FB_W0 + i];
        }
        quat_pd(&r[FB_P], dw, pd);
        for (int i = 0; i < 4; ++i) {
            s->un[B->qoff + 3 + i] += pd[i];
            s->qn[B->qoff + 3 + i] += cq * pd[i];
        }
    }
}

hs_status hs_contact_fb_step(hs_stepper *s, const hs_ctx *c)
{
    const hs_model *m = s->model;
    const hs_model_type *T = m->type;
    const int np = T->ct_npoints;
    const hs_real h = c->h;
    const hs_real cq = hs_contact_cq_fb(s, h);
    hs_status rc;
    /* a method that keeps the projection factor for its next step gets it as before */
    if ((s->keep_p != 0) && !((s->def.stab == HS_STAB_PROJECTION) && (s->nc > 0))) {
        rc = hs_projection_factor(s, c->t1, s->qn, s->M, s->G2, NULL, &s->fPn);
        if (rc != HS_OK) {
            return rc;
        }
    }
    hs_fb_info fb;
    rc = hs_model_rc(T->free_bodies(m, &fb));
    if (rc != HS_OK) {
        return rc;
    }
    hs_real *geo = fb_geo(s);
    rc = hs_model_rc(T->ct_points(m, c->t1, s->qn, geo));
    if (rc != HS_OK) {
        return rc;
    }
    if (!(fb_finite_sum(geo, np) == HS_R(0.0))) {
        return HS_E_NONFINITE;
    }
    bodies_in(s, &fb);
    hs_real *pts = fb_pts(s);
    ct_anchor(s, T, h);
    const hs_real hold = hs_contact_hold(h);
    for (int k = 0; k < np; ++k) {
        point_setup(s, &fb, &T->ct_pts[k], &geo[k * HS_CT_PT], &pts[k * FB_PT], cq, h, hold);
    }
    hs_real *bd = fb_bodies(s);
    hs_real *lam = s->ctln;
    fb_warm(s, T, np, pts, bd, lam);
    hs_real *cgw = (s->ctcg != 0) ? &bd[(fb.nb + 1) * FB_BODY] : NULL;
    fb_sweeps(s, T, np, fb.nb, geo, pts, bd, lam, cgw);
    /* the residual the budget left (velocity units), and how far a row sinks at the step's
     * end beyond its compliance (m): its gap at q~ moved by cq times its J du */
    hs_real res = HS_R(0.0), sunk = HS_R(0.0);
    for (int k = 0; k < np; ++k) {
        const hs_ct_point *P = &T->ct_pts[k];
        const hs_real *g = &geo[k * HS_CT_PT];
        hs_real vr[3];
        rel_vel(body_rec(bd, P->a), body_rec(bd, P->b), g, FB_V, vr);
        const hs_real *Rk = &pts[k * FB_PT];
        const hs_real dk = ct_sunk(g[HS_CT_PT_PHI] + (cq * (dot3(&g[HS_CT_PT_N], vr) - Rk[PT_VN])), Rk[PT_EPS],
                                   lam[P->row], h);
        /* a row that takes an impact this step (no compliance: its gap at q~ is the impact's,
         * which fb_impact_lead or point_impact corrects) is judged at the next step */
        sunk = ((Rk[PT_EPS] > HS_R(0.0)) && (dk > sunk)) ? dk : sunk;
        for (int j = 0; j < P->nrow; ++j) {
            const int i = P->row + j;
            const hs_real hi = pt_hi(&pts[k * FB_PT], j, lam[P->row]);
            /* with the normal's compliance (PT_EPS), as the sweeps' update: see rt/hs_contact.c */
            const hs_real eps = (j == 0) ? pts[(k * FB_PT) + PT_EPS] : HS_R(0.0);
            const hs_real w = (dot3(&g[HS_CT_PT_N + (3 * j)], vr) - s->ctr[i]) + (eps * lam[i]);
            const hs_real pr = clamp(lam[i] - w * s->ctiw[i], (j == 0) ? HS_R(0.0) : -hi, hi);
            const hs_real ri = (s->ctiw[i] > HS_R(0.0)) ? (hs_abs(lam[i] - pr) / s->ctiw[i]) : HS_R(0.0);
            res = (ri > res) ? ri : res;
        }
    }
    fb_impact_lead(s, &fb, T, np, pts, bd, lam);
    fb_out(s, &fb, bd, cq);
    s->stats.ct_residual = res;
    s->stats.ct_residual_max = (res > s->stats.ct_residual_max) ? res : s->stats.ct_residual_max;
    s->stats.ct_sunk = sunk;
    s->stats.ct_sunk_max = (sunk > s->stats.ct_sunk_max) ? sunk : s->stats.ct_sunk_max;
    return HS_OK;
}
