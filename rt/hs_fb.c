/* hs_fb.c - the default method's path for free-body models: a model made only of free rigid
 * bodies under uniform gravity (hs_model_type.free_bodies, hs_fb_info) steps in body
 * velocities, without the mass matrix, the force Jacobians or a factorization.
 *
 * Chosen at init in place of the generic sdirk plan when the method is sdirk with its default
 * sd_gamma = 1/4 (the undamped midpoint variant: this path does not damp either), no compliant
 * row, and the model's free_bodies() returns HS_OK. The state stays the generic one: per body
 * q = (x, p), u = (x', p') with p a unit quaternion (w, x, y, z) and p' = 1/2 G(p)^T w_b, so
 * outputs, hashes, the contact stage and every other reader see what they see after sdirk.
 *
 * Equations, per body (mass m, principal moments I = diag(I1, I2, I3), gravity g, step h):
 *   translation (the trapezoidal rule, exact for a constant force, and what sdirk's stages
 *   give under one: the contact stage's cq = h/2 stays right)
 *     v_{n+1} = v_n + h g,   x_{n+1} = x_n + h/2 (v_n + v_{n+1});
 *   rotation: the implicit midpoint rule on Euler's equations in body axes, torque free,
 *     I (w_{n+1} - w_n) = -h w_m x I w_m,   w_m = (w_n + w_{n+1})/2,   w_n = 2 G(p_n) p'_n,
 *   i.e. F(w_m) = 2 I (w_m - w_n) + h w_m x I w_m = 0, solved by HS_FB_NEWTON Newton steps
 *   from w_m = w_n, each with the 3 x 3 Jacobian 2 I + h ([w_m]x I - [I w_m]x) solved in
 *   closed form (adjugate over determinant); then the orientation by the Cayley map of the
 *   midpoint rate, p_{n+1} = p_n (x) (1, h w_m / 2) / |.|, and p'_{n+1} = 1/2 G(p_{n+1})^T w_{n+1}.
 * Solved exactly, the midpoint rule keeps every quadratic invariant of Euler's equations (the
 * energy 1/2 w.I w and |I w|), and with the Cayley map (not exp) I w_{n+1} is I w_n carried by
 * the same rotation the orientation makes, so the spatial angular momentum R I w is kept too
 * (Lie-Poisson midpoint; test/mb/test_mb_fb.c). Second order in h; |p| = 1 to rounding by the
 * normalization, not by a projection. The quaternion norm rows' multipliers are not formed:
 * lambda_{n+1} = 0 (no other force acts along p).
 *
 * Fixed work per step, per body: one G(p) p', HS_FB_NEWTON residuals and 3 x 3 solves (none for
 * a body with three equal moments, whose body rate is constant: fixed by the model), one
 * quaternion product, one square root and one division, one G^T w; no model call. The range:
 * h |w_n|_inf at most HS_FB_MAX_HW, else the step is refused (HS_E_RANGE, state kept). */
#include "hs_stage.h"

/* Newton steps on the midpoint equation (compile-time, fixed). One leaves an O(h^3) residual
 * per step that shows as a slow energy drift; two leave O(h^7), round-off over 10^5 steps. */
#ifndef HS_FB_NEWTON
#define HS_FB_NEWTON 2
#endif

/* The largest h |w|_inf (rad per step) this path starts a step from: beyond it the Newton steps
 * on the midpoint equation are no longer sure to contract (the Jacobian's off-diagonal part
 * h |w| (I_j - I_k) grows to the size of its diagonal 2 I). 0.5 is 500 rad/s at h = 1 ms. */
#ifndef HS_FB_MAX_HW
#define HS_FB_MAX_HW HS_R(0.5)
#endif

/* 1 when the free-body path runs for sdirk's def and m (their checks in fb_valid). */
int hs_fb_applies(const hs_stepper_def *def, const hs_model *m)
{
    const hs_model_type *T = m->type;
    hs_fb_info fb;
    if ((def->sd_gamma != HS_SDIRK_GAMMA_DEFAULT) || (T->free_bodies == NULL)) {
        return 0;
    }
    /* compliant rows are the generic path's (a quaternion norm made compliant is its business) */
    if ((def->reg_eps != HS_R(0.0)) || (def->reg_eps_c != NULL) || (T->compliance != NULL)) {
        return 0;
    }
    return (T->free_bodies(m, &fb) == (int)HS_OK) ? 1 : 0;
}

/* The free-body data of m checked: sizes 7 nb = nq, nb = nc, disjoint coordinate ranges,
 * positive finite mass and moments, finite gravity. HS_OK or HS_E_MODEL_PARAM. */
static int fb_valid(const hs_model *m, hs_fb_info *fb)
{
    int rc = hs_model_rc(m->type->free_bodies(m, fb));
    if (rc != (int)HS_OK) {
        return rc;
    }
    const int nb = fb->nb, nq = m->d.nq;
    if ((nb < 1) || (nb > nq) || (fb->body == NULL) || (m->d.nc != nb) || ((7 * nb) != nq)) {
        return HS_E_MODEL_PARAM;
    }
    for (int k = 0; k < 3; ++k) {
        if (hs_isfinite(fb->gravity[k]) == 0) {
            return HS_E_MODEL_PARAM;
        }
    }
    for (int i = 0; i < nb; ++i) {
        const hs_fb_body *b = &fb->body[i];
        if ((b->qoff < 0) || (b->qoff > (nq - 7)) || (hs_isfinite(b->mass) == 0) || !(b->mass > HS_R(0.0))) {
            return HS_E_MODEL_PARAM;
        }
        for (int k = 0; k < 3; ++k) {
            if ((hs_isfinite(b->inertia[k]) == 0) || !(b->inertia[k] > HS_R(0.0))) {
                return HS_E_MODEL_PARAM;
            }
        }
        /* nb ranges of 7 in nq = 7 nb coordinates: pairwise disjoint is covering */
        for (int j = 0; j < i; ++j) {
            const int d = b->qoff - fb->body[j].qoff;
            if ((d < 7) && (d > -7)) {
                return HS_E_MODEL_PARAM;
            }
        }
    }
    return HS_OK;
}

/* sdirk's checks of def (rt/hs_sdirk.c validate; Baumgarte: sdirk's row): this path stands
 * in for it */
static int validate(const hs_stepper_def *def, const hs_model *m, unsigned fl)
{
    (void)fl;
    if (def->form == HS_FORM_GGL) {
        return HS_E_DEF_RHO;
    }
    hs_fb_info fb;
    return fb_valid(m, &fb);
}

/* No mass matrix, Jacobian, curvature or step factorization; no projection (|p| = 1 by
 * construction); the sdirk flag stays set: the method is sdirk (contact stage's cq = h/2). */
static void configure(const hs_stepper_def *def, const hs_model *m, hs_cfg *c)
{
    (void)def;
    (void)m;
    c->fb = 1;
    c->sdirk = 1;
    c->keep_p = 0;
    c->have_p = 0;
    c->use_jac = 0;
    c->curv = 0;
    c->curv_fd = 0;
    c->consistent = 0;
    c->comp = 0;
    c->regP = 0;
}

static int plan(const hs_stepper *s, unsigned char *p)
{
    (void)s;
    p[0] = HS_STAGE_FREE_BODY;
    return 1;
}

static int setup(hs_stepper *s)
{
    return fb_valid(s->model, &s->fbi);
}

/* x = J^-1 r for the 3 x 3 J (row-major) by its adjugate; 0 when det is not a finite positive
 * number (J = 2 I + O(h |w|) inside the range: det near 8 I1 I2 I3 > 0). */
static int solve3(const hs_real *J, const hs_real *r, hs_real *x)
{
    const hs_real c00 = (J[4] * J[8]) - (J[5] * J[7]);
    const hs_real c01 = (J[5] * J[6]) - (J[3] * J[8]);
    const hs_real c02 = (J[3] * J[7]) - (J[4] * J[6]);
    const hs_real det = (J[0] * c00) + (J[1] * c01) + (J[2] * c02);
    if (!(det > HS_R(0.0)) || (hs_isfinite(det) == 0)) {
        return 0;
    }
    const hs_real id = HS_R(1.0) / det;
    const hs_real c10 = (J[2] * J[7]) - (J[1] * J[8]);
    const hs_real c11 = (J[0] * J[8]) - (J[2] * J[6]);
    const hs_real c12 = (J[1] * J[6]) - (J[0] * J[7]);
    const hs_real c20 = (J[1] * J[5]) - (J[2] * J[4]);
    const hs_real c21 = (J[2] * J[3]) - (J[0] * J[5]);
    const hs_real c22 = (J[0] * J[4]) - (J[1] * J[3]);
    /* adj(J) = cofactor matrix transposed */
    x[0] = ((c00 * r[0]) + (c10 * r[1]) + (c20 * r[2])) * id;
    x[1] = ((c01 * r[0]) + (c11 * r[1]) + (c21 * r[2])) * id;
    x[2] = ((c02 * r[0]) + (c12 * r[1]) + (c22 * r[2])) * id;
    return 1;
}

/* One body's step from (q, u) at offset o into (qn, un); HS_OK, HS_E_RANGE or HS_E_SINGULAR. */
static int body_step(const hs_fb_body *B, const hs_real *g, hs_real h, const hs_real *q,
                     const hs_real *u, hs_real *qn, hs_real *un)
{
    const int o = B->qoff;
    const hs_real *p = &q[o + 3], *pd = &u[o + 3];
    const hs_real *I = B->inertia;
    /* translation */
    for (int k = 0; k < 3; ++k) {
        const hs_real v1 = u[o + k] + (h * g[k]);
        qn[o + k] = q[o + k] + ((HS_R(0.5) * h) * (u[o + k] + v1));
        un[o + k] = v1;
    }
    /* w_n = 2 G(p) p' (model/mb/hs_mb_kin.c mb_quat_G) */
    hs_real w0[3];
    w0[0] = HS_R(2.0) * ((-p[1] * pd[0]) + (p[0] * pd[1]) + (p[3] * pd[2]) - (p[2] * pd[3]));
    w0[1] = HS_R(2.0) * ((-p[2] * pd[0]) - (p[3] * pd[1]) + (p[0] * pd[2]) + (p[1] * pd[3]));
    w0[2] = HS_R(2.0) * ((-p[3] * pd[0]) + (p[2] * pd[1]) - (p[1] * pd[2]) + (p[0] * pd[3]));
    hs_real wn = HS_R(0.0);
    for (int k = 0; k < 3; ++k) {
        const hs_real a = hs_abs(w0[k]);
        wn = (a > wn) ? a : wn;
    }
    const hs_real hw = h * wn;
    if (!(hw <= HS_FB_MAX_HW)) {
        /* a NaN rate is non-finite, a large finite one out of range */
        return (hw - hw == HS_R(0.0)) ? HS_E_RANGE : HS_E_NONFINITE;
    }
    /* Newton on F(w) = 2 I (w - w_n) + h w x I w from w = w_n; with three equal moments (a
     * cube, a sphere: fixed by the model) w x I w = 0 and w_n is the solution already */
    hs_real w[3] = {w0[0], w0[1], w0[2]};
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    const int newton = ((I[0] != I[1]) || (I[1] != I[2])) ? HS_FB_NEWTON : 0;
    for (int it = 0; it < newton; ++it) {
        const hs_real L[3] = {I[0] * w[0], I[1] * w[1], I[2] * w[2]};
        hs_real r[3];
        r[0] = -((HS_R(2.0) * I[0] * (w[0] - w0[0])) + (h * ((w[1] * L[2]) - (w[2] * L[1]))));
        r[1] = -((HS_R(2.0) * I[1] * (w[1] - w0[1])) + (h * ((w[2] * L[0]) - (w[0] * L[2]))));
        r[2] = -((HS_R(2.0) * I[2] * (w[2] - w0[2])) + (h * ((w[0] * L[1]) - (w[1] * L[0]))));
        /* dF/dw = 2 I + h ([w]x I - [L]x), [a]x b = a x b */
        hs_real J[9];
        J[0] = HS_R(2.0) * I[0];
        J[1] = h * ((-w[2] * I[1]) + L[2]);
        J[2] = h * ((w[1] * I[2]) - L[1]);
        J[3] = h * ((w[2] * I[0]) - L[2]);
        J[4] = HS_R(2.0) * I[1];
        J[5] = h * ((-w[0] * I[2]) + L[0]);
        J[6] = h * ((-w[1] * I[0]) + L[1]);
        J[7] = h * ((w[0] * I[1]) - L[0]);
        J[8] = HS_R(2.0) * I[2];
        hs_real d[3];
        if (solve3(J, r, d) == 0) {
            return HS_E_SINGULAR;
        }
        for (int k = 0; k < 3; ++k) {
            w[k] += d[k];
        }
    }
    /* p_{n+1} = p (x) (1, a), a = h w_m / 2, normalized */
    const hs_real a0 = HS_R(0.5) * h * w[0], a1 = HS_R(0.5) * h * w[1], a2 = HS_R(0.5) * h * w[2];
    hs_real p1[4];
    p1[0] = p[0] - ((p[1] * a0) + (p[2] * a1) + (p[3] * a2));
    p1[1] = p[1] + (p[0] * a0) + ((p[2] * a2) - (p[3] * a1));
    p1[2] = p[2] + (p[0] * a1) + ((p[3] * a0) - (p[1] * a2));
    p1[3] = p[3] + (p[0] * a2) + ((p[1] * a1) - (p[2] * a0));
    const hs_real nn = (p1[0] * p1[0]) + (p1[1] * p1[1]) + (p1[2] * p1[2]) + (p1[3] * p1[3]);
    const hs_real inv = HS_R(1.0) / hs_sqrt(nn);
    for (int k = 0; k < 4; ++k) {
        p1[k] *= inv;
        qn[o + 3 + k] = p1[k];
    }
    /* w_{n+1} = 2 w_m - w_n; p'_{n+1} = 1/2 G(p_{n+1})^T w_{n+1} = 1/2 p_{n+1} (x) (0, w_{n+1}) */
    const hs_real w1[3] = {(HS_R(2.0) * w[0]) - w0[0], (HS_R(2.0) * w[1]) - w0[1], (HS_R(2.0) * w[2]) - w0[2]};
    un[o + 3] = HS_R(-0.5) * ((p1[1] * w1[0]) + (p1[2] * w1[1]) + (p1[3] * w1[2]));
    un[o + 4] = HS_R(0.5) * ((p1[0] * w1[0]) + ((p1[2] * w1[2]) - (p1[3] * w1[1])));
    un[o + 5] = HS_R(0.5) * ((p1[0] * w1[1]) + ((p1[3] * w1[0]) - (p1[1] * w1[2])));
    un[o + 6] = HS_R(0.5) * ((p1[0] * w1[2]) + ((p1[1] * w1[1]) - (p1[2] * w1[0])));
    return HS_OK;
}

/* The stage: every body, then zero multipliers for the norm rows. */
static HS_STAGE_FN int st_free_body(hs_stepper *s, const hs_ctx *c)
{
    const hs_fb_info *fb = &s->fbi;
    for (int i = 0; i < fb->nb; ++i) {
        const int rc = body_step(&fb->body[i], fb->gravity, c->h, s->q, s->u, s->qn, s->un);
        if (rc != (int)HS_OK) {
            return rc;
        }
    }
    for (int i = 0; i < s->nc; ++i) {
        s->lamn[i] = HS_R(0.0);
    }
    return HS_OK;
}

static int run_stage(hs_stepper *s, hs_ctx *c, int st)
{
    if (st == (int)HS_STAGE_FREE_BODY) {
        return st_free_body(s, c);
    }
    return hs_tail_stage(s, c, st, 0, 0);
}

static int step(hs_stepper *s, hs_ctx *c)
{
    return hs_run_plan(s, c, run_stage);
}

const hs_family hs_family_fb = {validate, configure, plan, setup, step, NULL, NULL, 2, HS_R(0.020833333333333333)};
