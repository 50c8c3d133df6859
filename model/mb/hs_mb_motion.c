/* hs_mb_motion.c - the multibody models' motion bound (hs_model_type.motion; rt/METHODS.md
 * "Where a method stops"), for passive mechanisms held to ground by rigid joints.
 *
 * Known only where every joint is rigid (its row's motion MB_MO_RIGID or MB_MO_ROD: revolute,
 * spherical, fixed, distance) with fixed ground points, every force element passive with a
 * potential >= 0 (its row's passive: spring, rotational spring, bushing, none with inputs) and
 * every body reached from ground through the joints:
 * then gravity's potential -m g.r has a floor. Along the unit gravity direction e, a body's
 * centre lies at most d_b = min over joints of (the other end's bound + the arms |s_a| + |s_b|
 * (+ the length of a distance joint)) beyond the ground points, found by nb relaxation passes
 * over the joints (fixed work at init, arrays of HS_MB_MAX_BODIES). So at most
 * E(q, u) - V_min, V_min = -sum m_b |g| d_b, turns into motion, and a body spins at most at
 * sqrt(2 (E - V_min) / I) (a planar body's I; a point body: its speed sqrt(2 (E - V_min) / m)
 * over its shortest arm; a spatial body's rate is left to the step's check of it, spin()). A driven mechanism with damped compliant
 * joints declares its dead-centre rate instead (dead_centre_rate below). Anything else: no
 * bound (omega 0, no check).
 * degenerate is 0: a description does not say whether its loops can fold flat. */
#include "hs_mb_int.h"
#include "hs_math.h"

#define MB(m) ((const hs_mb_model *)(m)->desc)

/* |s| of a point's body-frame offset (m). */
static hs_real arm(const hs_real *s)
{
    return hs_sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
}

/* 1 when the description is a passive mechanism of rigid joints with fixed ground points. */
static int passive_rigid(const hs_mb_desc *D)
{
    int ok = 1;
    if (D->nin != 0) {
        ok = 0;
    }
    for (int j = 0; j < D->njoints; ++j) {
        const hs_mb_joint *J = &D->joints[j];
        const int k = mb_joint_elems[J->kind]->motion;
        if (((k != MB_MO_RIGID) && (k != MB_MO_ROD)) || (J->a.moving != 0) || (J->b.moving != 0)) {
            ok = 0;
        }
    }
    for (int e = 0; e < D->nforces; ++e) {
        if (mb_force_elems[D->forces[e].kind]->passive != MB_YES) {
            ok = 0;
        }
    }
    return ok;
}

/* Driven mechanisms with compliant joints ([L1] sec. 3; model/COMPLIANCE.md): where a
 * loop passes a dead centre the rigid rows lose rank and the compliant rows carry the
 * mechanism, and the default's stages leave part of their stiff nonlinear remainder there.
 * Measured on the compliant slider crank (model/mech/slider_crank_singular.hsm; drive rate
 * w_d from pi/4 to 8 pi rad/s, c from 5e-8 to 2e-7 m/N, d from 1e3 to 4e4 N s/m; commands and
 * figures in rt/METHODS.md "Where a method stops"), the default with its two Newton steps per
 * stage first fails where (h w_d)(h w_c) reaches 22 .. 45 and completes every h below that,
 * w_c = max sqrt(1/(c m)) over the compliant joints (m the lighter body it joins): not h w_d
 * alone (that limit falls from 0.43 to 0.08 as the drive slows). So the hook returns
 * HS_MB_DC_HW sqrt(w_d w_c / HS_MB_DC_LIMIT), which the default's h omega <= 0.4 turns into
 * (h w_d)(h w_c) <= HS_MB_DC_LIMIT. Rows that relax in less than HS_MB_DC_TAU
 * (c d below it, undamped ones too) fail erratically (at 7 ms, not at 9 .. 12 ms, undamped):
 * no limit is known for them and nothing is declared. */
/* (h w_d)(h w_c) the default is allowed: below the 22 measured (-DHS_MB_DC_LIMIT=1e30 turns
 * the check off, to measure where the default fails) */
#ifndef HS_MB_DC_LIMIT
#define HS_MB_DC_LIMIT HS_R(20.0)
#endif
#define HS_MB_DC_HW HS_R(0.4)     /* the default's h omega limit (HS_SD_MAX_H_OMEGA) it maps to */
#define HS_MB_DC_TAU HS_R(1e-4)   /* s: the smallest relaxation time c d measured (d = 1e3) */

/* 1 and *w set when D is driven (angle drivers of rate w_d) and has compliant joints, all with
 * c d >= HS_MB_DC_TAU, *who the stiffest compliant joint (HS_WHO_JOINT); 0 otherwise (the
 * passive bound or nothing applies). */
static int dead_centre_rate(const hs_mb_desc *D, hs_real *w, int *who)
{
    hs_real wd = HS_R(0.0), wc = HS_R(0.0);
    int ok = 1;
    for (int j = 0; j < D->njoints; ++j) {
        const hs_mb_joint *J = &D->joints[j];
        if ((mb_joint_elems[J->kind]->drive == MB_YES) && (J->coord == 0)) {
            /* |f'(t)| <= |b| + |c w| for f = a + b t + c sin(w t + phi) */
            const hs_real r = hs_abs(J->f.b) + hs_abs(J->f.c * J->f.w);
            wd = (r > wd) ? r : wd;
        }
        if ((J->has_comp != 0) && (J->compliance > HS_R(0.0))) {
            const int A = J->a.body, B = J->b.body;
            hs_real mj = HS_R(1.0e30);
            if (A != HS_MB_GROUND) {
                mj = D->bodies[A].mass;
            }
            if ((B != HS_MB_GROUND) && (D->bodies[B].mass < mj)) {
                mj = D->bodies[B].mass;
            }
            const hs_real r = hs_sqrt(HS_R(1.0) / (J->compliance * mj));
            if (r > wc) {
                wc = r;
                *who = HS_WHO_JOINT(j);
            }
            if (!(J->compliance * J->damping >= HS_MB_DC_TAU)) {
                ok = 0;
            }
        }
    }
    if ((ok == 0) || !(wd > HS_R(0.0)) || !(wc > HS_R(0.0))) {
        return 0;
    }
    *w = HS_MB_DC_HW * hs_sqrt(wd * wc / HS_MB_DC_LIMIT);
    return 1;
}

/* The potential's floor of a passive mechanism of rigid joints (file comment): *vmin =
 * -sum m_b |g| d_b (J), d (HS_MB_MAX_BODIES) each body's reach d_b along gravity beyond the
 * ground points, shortest (HS_MB_MAX_BODIES) its shortest holding arm (m). 1 when known, 0 for
 * any other description (an active element or joint, or a body no joint holds to ground). */
static int potential_floor(const hs_mb_desc *D, hs_real *vmin, hs_real *d, hs_real *shortest)
{
    if ((passive_rigid(D) == 0) || (D->njoints < 1) || (D->nbodies > HS_MB_MAX_BODIES)) {
        return 0;
    }
    const hs_real gn = hs_sqrt(D->gravity[0] * D->gravity[0] + D->gravity[1] * D->gravity[1]
                               + D->gravity[2] * D->gravity[2]);
    hs_real e[3] = {HS_R(0.0), HS_R(0.0), HS_R(0.0)};
    for (int i = 0; i < 3; ++i) {
        e[i] = (gn > HS_R(0.0)) ? D->gravity[i] / gn : HS_R(0.0);
    }
    /* d[b]: bound on e . r_b; short[b]: the shortest arm holding the body; far = unreached */
    const hs_real far = HS_R(1.0e30);
    for (int b = 0; b < HS_MB_MAX_BODIES; ++b) {
        d[b] = far;
        shortest[b] = far;
    }
    for (int pass = 0; pass < D->nbodies; ++pass) {
        for (int j = 0; j < D->njoints; ++j) {
            const hs_mb_joint *J = &D->joints[j];
            const hs_real len = (mb_joint_elems[J->kind]->motion == MB_MO_ROD) ? J->length : HS_R(0.0);
            const hs_real sa = arm(J->a.s), sb = arm(J->b.s);
            const int A = J->a.body, B = J->b.body;
            /* each end from the other: a ground end is its point itself */
            hs_real from_b = far, from_a = far;
            if (B == HS_MB_GROUND) {
                from_b = e[0] * J->b.s[0] + e[1] * J->b.s[1] + e[2] * J->b.s[2] + len + sa;
            } else if (d[B] < far) {
                from_b = d[B] + sb + len + sa;
            } else {
                /* not reached yet */
            }
            if (A == HS_MB_GROUND) {
                from_a = e[0] * J->a.s[0] + e[1] * J->a.s[1] + e[2] * J->a.s[2] + len + sb;
            } else if (d[A] < far) {
                from_a = d[A] + sa + len + sb;
            } else {
                /* not reached yet */
            }
            if ((A != HS_MB_GROUND) && (from_b < d[A])) {
                d[A] = from_b;
            }
            if ((B != HS_MB_GROUND) && (from_a < d[B])) {
                d[B] = from_a;
            }
            if ((A != HS_MB_GROUND) && ((sa + len) > HS_R(0.0)) && ((sa + len) < shortest[A])) {
                shortest[A] = sa + len;
            }
            if ((B != HS_MB_GROUND) && ((sb + len) > HS_R(0.0)) && ((sb + len) < shortest[B])) {
                shortest[B] = sb + len;
            }
        }
    }
    *vmin = HS_R(0.0);
    for (int b = 0; b < D->nbodies; ++b) {
        if (!(d[b] < far)) {
            return 0; /* a body no joint holds to ground: it may fall without end */
        }
        *vmin -= D->bodies[b].mass * gn * d[b];
    }
    return 1;
}

/* 1 when nothing in D dissipates energy: no end stops or contacts (their impacts are
 * inelastic), no declared joint compliance (its damping), no element damping (c, cr: the
 * damping of every passive kind). hilstep-sim reads an energy change as the method's error
 * only then: on the stop pendulum the energy its stops take would read as 40 false alarms. */
static int conservative(const hs_mb_desc *D)
{
    int ok = (int)((D->nstops == 0) && (D->ncontacts == 0));
    for (int j = 0; j < D->njoints; ++j) {
        if (D->joints[j].has_comp != 0) {
            ok = 0;
        }
    }
    for (int e = 0; e < D->nforces; ++e) {
        if ((D->forces[e].c != HS_R(0.0)) || (D->forces[e].cr != HS_R(0.0))) {
            ok = 0;
        }
    }
    return ok;
}

/* 1 and *vmin when D declares release() (conservative, its potential's floor known), else 0. */
static int release_floor(const hs_mb_desc *D, hs_real *vmin)
{
    hs_real d[HS_MB_MAX_BODIES], shortest[HS_MB_MAX_BODIES];
    return (int)((conservative(D) != 0) && (potential_floor(D, vmin, d, shortest) != 0));
}

int hs_mb_has_release(const hs_mb_desc *D)
{
    hs_real vmin = HS_R(0.0);
    return release_floor(D, &vmin);
}

int hs_mb_fn_release(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, hs_real *E)
{
    if ((m == NULL) || (q == NULL) || (u == NULL) || (E == NULL)) {
        return HS_E_NULL;
    }
    const hs_mb_model *mb = MB(m);
    hs_real vmin = HS_R(0.0);
    if (release_floor(mb->desc, &vmin) == 0) {
        return HS_E_MODEL; /* set only where known (hs_mb_compile.c) */
    }
    hs_real En = HS_R(0.0);
    const int rc = hs_mb_fn_energy(m, t, q, u, NULL, &En);
    if (rc != (int)HS_OK) {
        return rc;
    }
    *E = En - vmin;
    return HS_OK;
}

int hs_mb_fn_motion(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                    hs_real *omega, int *degenerate, int *who)
{
    if ((m == NULL) || (q == NULL) || (u == NULL) || (omega == NULL) || (degenerate == NULL)
        || (who == NULL)) {
        return HS_E_NULL;
    }
    const hs_mb_model *mb = MB(m);
    const hs_mb_desc *D = mb->desc;
    *omega = HS_R(0.0);
    *degenerate = 0;
    *who = HS_WHO_NONE;
    hs_real wdc = HS_R(0.0);
    if ((D->nbodies <= HS_MB_MAX_BODIES) && (dead_centre_rate(D, &wdc, who) != 0)) {
        *omega = wdc;
        return HS_OK;
    }
    const hs_real far = HS_R(1.0e30);
    hs_real vmin = HS_R(0.0), d[HS_MB_MAX_BODIES], shortest[HS_MB_MAX_BODIES];
    if (potential_floor(D, &vmin, d, shortest) == 0) {
        return HS_OK;
    }
    hs_real E = HS_R(0.0);
    const int rc = hs_mb_fn_energy(m, t, q, u, NULL, &E);
    if (rc != (int)HS_OK) {
        return rc;
    }
    const hs_real release = E - vmin;
    hs_real w = HS_R(0.0);
    if (!(release > HS_R(0.0))) {
        return HS_OK; /* nothing to release: nothing turns faster than it does now */
    }
    for (int b = 0; b < D->nbodies; ++b) {
        const hs_mb_body *Bd = &D->bodies[b];
        hs_real I = HS_R(0.0);
        if (Bd->kind == HS_MB_PLANAR) {
            I = Bd->inertia[2];
        } else if (Bd->kind == HS_MB_SPATIAL) {
            /* its rate is checked at every step (spin(), HS_SD_MAX_HW_QUAT): the energy bound, on
             * its smallest moment, bounded a spin about an axis its hinges may forbid (the
             * hinged four-bar's axial I = 0.01: refused at 4 ms, a run within 4.8e-7 m and
             * rad of the one at 1 ms, rt/METHODS.md's grid) */
            continue;
        } else {
            /* point bodies: no rotation of their own */
        }
        hs_real wb = HS_R(0.0);
        if (I > HS_R(0.0)) {
            wb = hs_sqrt(HS_R(2.0) * release / I);
        } else if (shortest[b] < far) {
            wb = hs_sqrt(HS_R(2.0) * release / Bd->mass) / shortest[b];
        } else {
            /* a point body held at zero arm does not turn anything */
        }
        if (wb > w) {
            w = wb;
            *who = b;
        }
    }
    *omega = w;
    return HS_OK;
}

int hs_mb_gen_motion(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                     hs_real *omega, int *degenerate, int *who)
{
    const hs_mb_gen *g = (m != NULL) ? (const hs_mb_gen *)m->type->data : NULL;
    /* bound once check()/initial() compiled the tables (hs_mb_tab.c) */
    if ((g == NULL) || (g->inner == NULL) || (g->inner->type == NULL)) {
        return HS_E_MODEL;
    }
    return hs_mb_fn_motion(g->inner, t, q, u, omega, degenerate, who);
}

int hs_mb_gen_release(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, hs_real *E)
{
    const hs_mb_gen *g = (m != NULL) ? (const hs_mb_gen *)m->type->data : NULL;
    if ((g == NULL) || (g->inner == NULL) || (g->inner->type == NULL)) {
        return HS_E_MODEL;
    }
    return hs_mb_fn_release(g->inner, t, q, u, E);
}

/* spin(): the fastest body rate at (q, u), |w| = |2 G(p) p'| over the quaternion bodies (the
 * body-frame rate of a unit p; a planar body's theta' is a coordinate the stepper resolves
 * exactly as it resolves x', so only the quaternion bodies are reported). Fixed work: one
 * 3 x 4 product per spatial body. */
int hs_mb_fn_spin(const hs_model *m, const hs_real *q, const hs_real *u, hs_real *w, int *body)
{
    if ((m == NULL) || (q == NULL) || (u == NULL) || (w == NULL) || (body == NULL)) {
        return HS_E_NULL;
    }
    const hs_mb_model *mb = MB(m);
    const hs_mb_desc *D = mb->desc;
    hs_real w2max = HS_R(0.0);
    *body = -1;
    for (int b = 0; b < D->nbodies; ++b) {
        if (D->bodies[b].kind == HS_MB_SPATIAL) {
            hs_real G[3][4];
            const hs_real *p = &q[mb->qoff[b] + 3], *pd = &u[mb->qoff[b] + 3];
            mb_quat_G(p, G);
            hs_real w2 = HS_R(0.0);
            for (int i = 0; i < 3; ++i) {
                const hs_real wi = HS_R(2.0) * ((G[i][0] * pd[0]) + (G[i][1] * pd[1]) + (G[i][2] * pd[2]) + (G[i][3] * pd[3]));
                w2 += wi * wi;
            }
            if ((w2 > w2max) || (*body < 0)) {
                w2max = w2;
                *body = b;
            }
        }
    }
    *w = hs_sqrt(w2max);
    return HS_OK;
}

int hs_mb_fn_quats(const hs_model *m, const int **off)
{
    if ((m == NULL) || (off == NULL)) {
        return HS_E_NULL;
    }
    const hs_mb_model *mb = MB(m);
    *off = mb->quat;
    return mb->nquat;
}

int hs_mb_gen_spin(const hs_model *m, const hs_real *q, const hs_real *u, hs_real *w, int *body)
{
    const hs_mb_gen *g = (m != NULL) ? (const hs_mb_gen *)m->type->data : NULL;
    /* bound once check()/initial() compiled the tables (hs_mb_tab.c) */
    if ((g == NULL) || (g->inner == NULL) || (g->inner->type == NULL)) {
        return HS_E_MODEL;
    }
    return hs_mb_fn_spin(g->inner, q, u, w, body);
}

int hs_mb_gen_quats(const hs_model *m, const int **off)
{
    const hs_mb_gen *g = (m != NULL) ? (const hs_mb_gen *)m->type->data : NULL;
    if ((g == NULL) || (g->inner == NULL) || (g->inner->type == NULL)) {
        return HS_E_MODEL;
    }
    return hs_mb_fn_quats(g->inner, off);
}

/* One named point s of body b into its list (egrp[b], building at the end of epts): a new
 * one is kept while there is room, one already listed is not repeated, and beyond the room its
 * distance widens the body's bound w instead. */
static void err_point_at(hs_mb_model *mb, int *used, int b, const hs_real *s)
{
    hs_err_group *g = &mb->egrp[b];
    hs_real *pts = &mb->epts[0][0];
    /* the list's first slot: the one g->pts names (a search, not a pointer difference) */
    int first = *used;
    for (int i = 0; (g->pts != NULL) && (i < *used); ++i) {
        if (&mb->epts[i][0] == g->pts) { first = i; }
    }
    for (int k = 0; k < g->np; ++k) {
        const hs_real *p = &pts[3 * (first + k)];
        if ((p[0] == s[0]) && (p[1] == s[1]) && (p[2] == s[2])) { return; }
    }
    if ((*used < HS_MB_MAX_EPTS) && ((first + g->np) == *used)) {
        hs_real *p = &pts[3 * *used];
        p[0] = s[0]; p[1] = s[1]; p[2] = s[2];
        if (g->np == 0) { g->pts = p; }
        g->np++;
        (*used)++;
    } else {
        const hs_real r = arm(s);
        g->w = (r > g->w) ? r : g->w;
    }
}

static void err_point(hs_mb_model *mb, int *used, int b, const hs_mb_point *p)
{
    if (p->body == b) { err_point_at(mb, used, b, p->s); }
}

/* Body b's named points: its joints' and force elements' attachment points and its acc
 * outputs' points (a body's points stay together in epts); its shapes' extents into w. */
static void err_body(const hs_mb_desc *D, hs_mb_model *mb, int *used, int b)
{
    for (int j = 0; j < D->njoints; ++j) {
        const hs_mb_joint *J = &D->joints[j];
        err_point(mb, used, b, &J->a); err_point(mb, used, b, &J->b);
        err_point(mb, used, b, &J->c); err_point(mb, used, b, &J->d);
    }
    for (int f = 0; f < D->nforces; ++f) {
        err_point(mb, used, b, &D->forces[f].a); err_point(mb, used, b, &D->forces[f].b);
    }
    for (int o = 0; o < D->noutputs; ++o) {
        const hs_mb_output *O = &D->outputs[o];
        if ((O->kind == HS_MB_OUT_ACC) && (O->index == b)) { err_point_at(mb, used, b, O->at); }
    }
    for (int k = 0; k < D->nshapes; ++k) {
        const hs_mb_shape *S = &D->shapes[k];
        /* a plane on a body has no farthest point: its named points are the others' */
        if ((S->body != b) || (S->kind == HS_MB_SH_PLANE)) { continue; }
        /* a cylinder's farthest point is a rim point: sqrt(r^2 + l^2) from its centre */
        const hs_real cyl[3] = {S->size[0], S->size[1], HS_R(0.0)};
        const hs_real ext = (S->kind == HS_MB_SH_BOX) ? arm(S->size)
                            : (S->kind == HS_MB_SH_CAPSULE) ? (S->size[0] + S->size[1])
                            : (S->kind == HS_MB_SH_CYLINDER) ? arm(cyl) : S->size[0];
        const hs_real r = arm(S->pos) + ext;
        mb->egrp[b].w = (r > mb->egrp[b].w) ? r : mb->egrp[b].w;
    }
}

/* A quaternion body's named points all on one line through its centre (the centre itself
 * counts as on it): that line's unit direction into axis (the turn about it moves none of
 * them); points off every such line, or none at all, leave axis 0. */
static void err_axis(hs_err_group *g)
{
    g->axis[0] = HS_R(0.0);
    g->axis[1] = HS_R(0.0);
    g->axis[2] = HS_R(0.0);
    const hs_real *a = NULL;
    hs_real na = HS_R(0.0);
    for (int i = 0; i < g->np; ++i) {
        const hs_real *p = &g->pts[3 * i];
        const hs_real r = arm(p);
        if (r > na) { na = r; a = p; }
    }
    if ((a == NULL) || !(na > HS_R(0.0))) { return; }
    for (int i = 0; i < g->np; ++i) {
        const hs_real *p = &g->pts[3 * i];
        const hs_real c[3] = {(a[1] * p[2]) - (a[2] * p[1]), (a[2] * p[0]) - (a[0] * p[2]), (a[0] * p[1]) - (a[1] * p[0])};
        /* off the line by more than 1e-9 of its length squared: the points see every turn */
        if (arm(c) > (HS_R(1e-9) * na * na)) { return; }
    }
    for (int i = 0; i < 3; ++i) { g->axis[i] = a[i] / na; }
}

void hs_mb_err_groups_build(const hs_mb_desc *D, hs_mb_model *mb)
{
    int used = 0;
    mb->negrp = D->nbodies;
    for (int b = 0; b < D->nbodies; ++b) {
        hs_err_group *g = &mb->egrp[b];
        const hs_mb_body_kind k = D->bodies[b].kind;
        g->q0 = mb->qoff[b];
        /* MISRA Ref 10.6.2 [*tool*: c ? 2 : 3 into an int] */
        g->nx = ((k == HS_MB_PLANAR) || (k == HS_MB_POINT2)) ? 2 : 3;
        /* MISRA Ref 10.6.2 [*tool*: c ? 4 : c ? 1 : 0 into an int] */
        g->nr = (k == HS_MB_SPATIAL) ? 4 : ((k == HS_MB_PLANAR) ? 1 : 0);
        g->w = HS_R(0.0);
        g->np = 0;
        g->pts = NULL;
        /* a point body is its centre: nothing turns */
        if (g->nr > 0) { err_body(D, mb, &used, b); }
        if (k == HS_MB_SPATIAL) { err_axis(g); }
        if (k == HS_MB_PLANAR) {
            /* in the plane the bound |dx| + rho |dth| is read (no sine and cosine per step):
             * the points fold into w and leave the list */
            for (int i = 0; i < g->np; ++i) {
                const hs_real r = arm(&g->pts[3 * i]);
                g->w = (r > g->w) ? r : g->w;
            }
            used -= g->np;
            g->np = 0;
            g->pts = NULL;
        }
    }
}

int hs_mb_fn_err_groups(const hs_model *m, const hs_err_group **g)
{
    if ((m == NULL) || (g == NULL)) {
        return HS_E_NULL;
    }
    const hs_mb_model *mb = MB(m);
    *g = mb->egrp;
    return mb->negrp;
}

int hs_mb_gen_err_groups(const hs_model *m, const hs_err_group **g)
{
    const hs_mb_gen *gn = (m != NULL) ? (const hs_mb_gen *)m->type->data : NULL;
    if ((gn == NULL) || (gn->inner == NULL) || (gn->inner->type == NULL)) {
        return HS_E_MODEL;
    }
    return hs_mb_fn_err_groups(gn->inner, g);
}
