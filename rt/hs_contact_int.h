/* hs_contact_int.h - the row updates shared by the contact stage's two forms (rt/hs_contact.c
 * over q, rt/hs_contact_fb.c in body velocities): bounds, clamping and the projected
 * Gauss-Seidel update of a row or of a contact point's three rows, one definition for both. */
#ifndef HS_CONTACT_INT_H
#define HS_CONTACT_INT_H

#include "hs_contact.h"

struct hs_ctx;

/* The contact stage in body velocities (rt/hs_contact_fb.c), which hs_st_contact hands the step
 * to when hs_stepper.ctfb is set; c is the stage context of rt/hs_stage.h. */
hs_status hs_contact_fb_step(hs_stepper *s, const struct hs_ctx *c);

/* hs_contact_cq for the free-body form (s), in rt/hs_contact_cq.c so that rt/hs_contact_fb.c
 * calls nothing of rt/hs_contact.c: the same value as hs_contact_cq for every stepper s. */
hs_real hs_contact_cq_fb(const hs_stepper *s, hs_real h);

static inline hs_real clamp(hs_real x, hs_real lo, hs_real hi)
{
    hs_real y = (x < lo) ? lo : x;
    return (y > hi) ? hi : y;
}

/* How far a normal row's gap at the step's end (gap, m) lies below the depth its compliance
 * allows, 0 above it (m). The rest depth of its impulse lam (N s) is eps lam h / ERP (eps = REG
 * W_ii: REG W F h^2 / ERP); a load that comes at once overshoots a spring's rest depth up to
 * twice, so twice that plus HS_CT_SLOP is allowed. Deeper is a body sunk into another beyond
 * what its load explains, which the step's error estimate takes as a position error
 * (model/CONTACT.md "Passing through"). */
static inline hs_real ct_sunk(hs_real gap, hs_real eps, hs_real lam, hs_real h)
{
    const hs_real d = (-gap - HS_CT_SLOP) - ((HS_R(2.0) * ((eps * lam) * h)) / HS_CT_ERP);
    return (d > HS_R(0.0)) ? d : HS_R(0.0);
}

/* The hold anchors of this step (ctan, nk) from the committed ones (cta) and impulses (ctl):
 * per contact pair (consecutive points of T->ct_pts with the same bodies a, b: a contact's
 * slots), a += HS_CT_HOLDB (mean of the pair's normal impulses - a) on each of its normal
 * rows; 0 on every other row and on every row of a model without points (its targets then
 * take nothing back). The pair's mean, not a row's own impulse: with its own, the split
 * between a face's redundant corners has no pull left towards the unique one and tower20 at
 * 6.25 ms falls. Fixed work: two passes over the points; none at a step h (s) without hold
 * (h <= HS_CT_HREF, the 1 ms frame), whose targets read no anchor (hold_target). */
static inline void ct_anchor(hs_stepper *s, const hs_model_type *T, hs_real h)
{
    if (!(hs_contact_hold(h) > HS_R(0.0))) {
        return;
    }
    for (int i = 0; i < T->nk; ++i) {
        s->ctan[i] = HS_R(0.0);
    }
    const int np = (T->ct_pts != NULL) ? T->ct_npoints : 0;
    int k0 = 0;
    for (int k = 1; k <= np; ++k) {
        const hs_ct_point *P0 = &T->ct_pts[k0];
        if ((k == np) || (T->ct_pts[k].a != P0->a) || (T->ct_pts[k].b != P0->b)) {
            hs_real sum = HS_R(0.0);
            for (int j = k0; j < k; ++j) {
                sum += s->ctl[T->ct_pts[j].row];
            }
            const int cnt = k - k0;
            const hs_real mean = sum / (hs_real)cnt;
            for (int j = k0; j < k; ++j) {
                const int i = T->ct_pts[j].row;
                s->ctan[i] = s->cta[i] + (HS_CT_HOLDB * (mean - s->cta[i]));
            }
            k0 = k;
        }
    }
}

/* A touching normal row's target r (m/s) with hold (hs_contact_hold) of its compliance
 * velocity eps a (eps its compliance, 0 on an impact; a its hold anchor) taken back; gap d
 * (m) at v = 0. r itself when nothing is taken back, so the 1 ms frame keeps its bits. */
static inline hs_real hold_target(hs_real r, hs_real d, hs_real hold, hs_real eps, hs_real a)
{
    return ((hold > HS_R(0.0)) && (d < HS_CT_SLOP)) ? (r + ((hold * eps) * a)) : r;
}

/* An impact inside the step (model/CONTACT.md): from a normal row's velocity v0 at t_n (m/s),
 * v at the step's end without impulse (m/s), the gap phi (m), the step h (s) and restitution e,
 * the impact comes at tau = d0 / -v0 and the bounce -e v(tau) runs for h - tau: *vend is the
 * velocity the row ends with (the target, m/s), *gend the gap it ends at (m). One definition
 * for both forms of the stage, so their impacts agree to the bit. */
static inline void impact(hs_real phi, hs_real v0, hs_real v, hs_real h, hs_real e, hs_real *vend, hs_real *gend,
                          hs_real *taup)
{
    const hs_real a = (v - v0) / h;
    const hs_real d0 = phi - HS_R(0.5) * h * (v0 + v);
    hs_real tau = (v0 < HS_R(0.0)) ? (d0 / -v0) : HS_R(0.0);
    tau = clamp(tau, HS_R(0.0), h);
    const hs_real vi = v0 + a * tau, rest = h - tau;
    *vend = -e * vi + a * rest;
    *gend = -e * vi * rest + HS_R(0.5) * a * rest * rest;
    *taup = tau;
}

/* Whether a normal row (restitution e) approaching faster than HS_CT_VREST at the step's end
 * without impulse and inside at q~ takes the impact inside the step: a bouncing row always;
 * an inelastic one when the method moves positions with the mean of u_n and u_{n+1}
 * (0 < cq < h, s), the row approached at t_n too (v0, m/s) and carried no impulse in the
 * step before (lam0, N s: a contact that closes now, not one that rests). Such a method
 * carries a row whose approach is stopped by the end of the step h |v0| / 2 past the surface,
 * and its ERP then lifts it out at ERP |v0| / 2: a restitution of 0.1 where the description
 * says 0 (a ball dropped 1 m hopped 4 mm). A resting row keeps its compliance at any step: at
 * 1/20 s a settling stack's rows approach at up to g h = 0.49 m/s, and taken as impacts its
 * redundant corners lost their compliance and it collapsed. Velocities first (cq = h), a row
 * stopped at the end stops at the surface. */
static inline int impact_taken(hs_real e, hs_real cq, hs_real h, hs_real v0, hs_real lam0)
{
    return (int)((e > HS_R(0.0)) || ((cq > HS_R(0.0)) && (cq < h) && (v0 < -HS_CT_VREST) && (lam0 == HS_R(0.0))));
}

/* An inelastic impact at tau (s) in a step of h with position factor cq: its impulse has
 * acted from tau on, so the positions move by (h - tau) times its velocity change, cq of
 * which the method's update gives; the rest (s), applied with the solved impulses of the
 * point's rows (so redundant points, solved together, move the body once). */
static inline hs_real impact_lead(hs_real tau, hs_real h, hs_real cq)
{
    return (h - tau) - cq;
}

/* Bounds of row i for impulses lam (this sweep's) and lam0 (the previous step's). */
static inline void bounds(const hs_stepper *s, int i, const hs_real *lam, hs_real *lo, hs_real *hi)
{
    const hs_ct_row *R = &s->model->type->ct_rows[i];
    if (!(s->ctiw[i] > HS_R(0.0))) {
        *lo = HS_R(0.0);
        *hi = HS_R(0.0);
    } else if (R->kind == HS_CT_NORMAL) {
        *lo = HS_R(0.0);
        *hi = HS_R(1e30);
    } else if (R->ngroup == 1) {
        /* one normal (every contact point): the loop below with one term */
        /* cteps holds 1 when the previous step's impulse is the one (box friction on a contact
         * that carried load), else 0, set once per step: picked by arithmetic (exact, as one
         * term is zero), the same work either way */
        const hs_real sel = s->cteps[i];
        *hi = R->mu * ((sel * s->ctl[R->normal]) + ((HS_R(1.0) - sel) * lam[R->normal]));
        *lo = -*hi;
    } else {
        hs_real prev = HS_R(0.0), cur = HS_R(0.0);
        for (int k = 0; k < R->ngroup; ++k) {
            prev += s->ctl[R->normal + k * R->stride];
            cur += lam[R->normal + k * R->stride];
        }
        const hs_real nbar = (((R->box != 0) && (prev > HS_R(0.0))) ? prev : cur) / (hs_real)R->ngroup;
        *hi = R->mu * nbar;
        *lo = -*hi;
    }
}

/* One projected Gauss-Seidel update of row i whose J u is v: the new impulse into lam[i];
 * returns its change. */
static inline hs_real row_update(hs_stepper *s, int i, hs_real *lam, hs_real v)
{
    hs_real lo, hi;
    bounds(s, i, lam, &lo, &hi);
    /* a friction row's cteps is its bound's selector (bounds), its compliance is zero */
    const hs_real eps = (s->model->type->ct_rows[i].kind == HS_CT_NORMAL) ? s->cteps[i] : HS_R(0.0);
    const hs_real w = (v - s->ctr[i]) + (eps * lam[i]);
    const hs_real ln = clamp(lam[i] - (w * s->ctiw[i]), lo, hi);
    const hs_real dl = ln - lam[i];
    lam[i] = ln;
    return dl;
}

/* row_update of a contact point's three rows (point_at) with bounds() written out for them:
 * the same operations in the same order, so the same impulses to the bit, without the
 * per-row dispatch. v0 is J_i u, v1 and v2 the friction rows' J u at the point's start; the
 * couplings (ctv, ctphi, set before the sweeps) correct them for the earlier rows' changes. */
static inline void point_update(const hs_stepper *s, int i, hs_real *lam, hs_real v0, hs_real v1, hs_real v2,
                                hs_real *d0, hs_real *d1, hs_real *d2)
{
    const hs_ct_row *R = &s->model->type->ct_rows[i];
    const hs_real *iw = &s->ctiw[i], *ep = &s->cteps[i], *rr = &s->ctr[i];
    hs_real *l = &lam[i];
    /* the normal: [0, 1e30], or [0, 0] for an empty slot */
    const hs_real hn = (iw[0] > HS_R(0.0)) ? HS_R(1e30) : HS_R(0.0);
    const hs_real w0 = (v0 - rr[0]) + (ep[0] * l[0]);
    const hs_real n0 = clamp(l[0] - (w0 * iw[0]), HS_R(0.0), hn);
    const hs_real e0 = n0 - l[0];
    l[0] = n0;
    /* the friction rows: +-mu times the previous step's or this sweep's normal impulse
     * (ep is the selector), [0, 0] for an empty slot; no compliance */
    const hs_real ln = s->ctl[i];
    const hs_real s1 = ep[1];
    hs_real hi = R[1].mu * ((s1 * ln) + ((HS_R(1.0) - s1) * n0));
    hi = (iw[1] > HS_R(0.0)) ? hi : HS_R(0.0);
    const hs_real w1 = ((v1 + (s->ctv[i + 1] * e0)) - rr[1]) + (HS_R(0.0) * l[1]);
    const hs_real n1 = clamp(l[1] - (w1 * iw[1]), (iw[1] > HS_R(0.0)) ? -hi : HS_R(0.0), hi);
    const hs_real e1 = n1 - l[1];
    l[1] = n1;
    const hs_real s2 = ep[2];
    hi = R[2].mu * ((s2 * ln) + ((HS_R(1.0) - s2) * n0));
    hi = (iw[2] > HS_R(0.0)) ? hi : HS_R(0.0);
    const hs_real w2 = (((v2 + (s->ctphi[i + 2] * e0)) + (s->ctv[i + 2] * e1)) - rr[2]) + (HS_R(0.0) * l[2]);
    const hs_real n2 = clamp(l[2] - (w2 * iw[2]), (iw[2] > HS_R(0.0)) ? -hi : HS_R(0.0), hi);
    const hs_real e2 = n2 - l[2];
    l[2] = n2;
    *d0 = e0;
    *d1 = e1;
    *d2 = e2;
}

#endif
