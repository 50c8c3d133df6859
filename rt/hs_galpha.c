/* hs_galpha.c - method galpha: generalized-alpha for constrained mechanical systems (Arnold &
 * Bruls, "Convergence of the generalized-alpha scheme for constrained mechanical systems",
 * index 3; Chung & Hulbert's parameters), with one Newton iteration per step.
 *
 * Equations. Unknowns at t_{n+1}: q, u, udot (w), lambda and the pseudo-acceleration a with
 *   q = q_n + h u_n + h^2 ((1/2 - beta) a_n + beta a),   u = u_n + h ((1 - gamma) a_n + gamma a),
 *   (1 - am) a + am a_n = (1 - af) w + af w_n,   M w = f + G^T lambda,   g(t_{n+1}, q) = 0,
 * am = (2 rho - 1)/(rho + 1), af = rho/(rho + 1), gamma = 1/2 - am + af,
 * beta = (1 - am + af)^2 / 4 from rho_inf (second order, spectral radius rho_inf at
 * h omega -> infinity). Predictor w = w_n, lambda = lambda_n; one Newton step on q with the
 * iteration matrix S = beta' M - gamma' fu - (fq + K_g) (M's own q dependence left out:
 * constant in every shipped model), beta' = (1 - am)/(beta h^2 (1 - af)),
 * gamma' = gamma/(beta h); then u, w, a follow from dq.
 *
 * Fixed work per step: one M, f, fq, fu, K_g, g, G evaluation at the predictor, one
 * factorization and solve; the tail's projection (one more factorization) keeps g = 0. */
#include "hs_stage.h"

/* (Baumgarte: refused by the row, HS_MF_NOBAUM: index 3, its positions satisfy g = 0 up to
 * the Newton step already) */
static int validate(const hs_stepper_def *def, const hs_model *m, unsigned fl)
{
    (void)m;
    (void)fl;
    if ((hs_isfinite(def->rho_inf) == 0) || (def->rho_inf < HS_R(0.0)) || (def->rho_inf > HS_R(1.0))
        || (def->form == HS_FORM_GGL)) {
        return HS_E_DEF_RHO;
    }
    return HS_OK;
}

static void configure(const hs_stepper_def *def, const hs_model *m, hs_cfg *c)
{
    (void)def;
    (void)m;
    c->galpha = 1;
    c->consistent = 1;
    c->nqa = 1;
    c->have_p = 1; /* [[M, G^T], [G, 0]] at init for the consistent acceleration */
    c->regK = c->comp; /* compliant rows: c beta'/(1 + tau gamma') in the multiplier block */
}

/* a compliant row in the Newton step in dq: u += gamma' dq, lambda += beta' y (after setup) */
static hs_real reg_k(const hs_stepper *s, hs_real cc, hs_real tau)
{
    return -(cc * s->ga_bp / (HS_R(1.0) + tau * s->ga_gp));
}

static int plan(const hs_stepper *s, unsigned char *p)
{
    (void)s;
    p[0] = HS_STAGE_GA_PREDICT;
    p[1] = HS_STAGE_GA_EVAL;
    p[2] = HS_STAGE_GA_SOLVE;
    return 3;
}

/* Chung & Hulbert's parameters from rho_inf (Arnold & Bruls, eq. 8) */
static int setup(hs_stepper *s)
{
    const hs_real r = s->def.rho_inf, h = s->def.h;
    s->ga_am = (HS_R(2.0) * r - HS_R(1.0)) / (r + HS_R(1.0));
    s->ga_af = r / (r + HS_R(1.0));
    s->ga_gamma = HS_R(0.5) - s->ga_am + s->ga_af;
    const hs_real e = HS_R(1.0) - s->ga_am + s->ga_af;
    s->ga_beta = HS_R(0.25) * e * e;
    s->ga_bp = (HS_R(1.0) - s->ga_am) / (s->ga_beta * h * h * (HS_R(1.0) - s->ga_af));
    s->ga_gp = s->ga_gamma / (s->ga_beta * h);
    return HS_OK;
}

static int st_ga_predict(hs_stepper *s, const hs_ctx *c)
{
    const int nq = s->nq, nc = s->nc;
    const hs_real h = c->h, am = s->ga_am, ga = s->ga_gamma, be = s->ga_beta;
    for (int i = 0; i < nq; ++i) {
        const hs_real a0 = (s->wd[i] - am * s->acc[i]) / (HS_R(1.0) - am);
        s->accn[i] = a0;
        s->wdn[i] = s->wd[i];
        s->un[i] = s->u[i] + h * ((HS_R(1.0) - ga) * s->acc[i] + ga * a0);
        s->qn[i] = s->q[i] + h * s->u[i] + h * h * ((HS_R(0.5) - be) * s->acc[i] + be * a0);
    }
    for (int i = 0; i < nc; ++i) {
        s->lamn[i] = s->lambda[i];
    }
    return HS_OK;
}

static int st_ga_eval(hs_stepper *s, const hs_ctx *c)
{
    const hs_model *m = s->model;
    int rc = hs_mass_force_finite(s, c, c->t1, s->qn, s->un);
    if (rc != (int)HS_OK) {
        return rc;
    }
    rc = hs_force_jacobians(s, c, c->t1, s->qn, s->un);
    if (rc != (int)HS_OK) {
        return rc;
    }
    if (s->nc == 0) {
        return HS_OK;
    }
    rc = hs_add_curvature(s, c->t1, s->qn, s->lamn);
    if (rc != (int)HS_OK) {
        return rc;
    }
    /* g and G at the predictor: the constraint row of the Newton step */
    return hs_model_rc(m->type->constraint(m, c->t1, s->qn, s->c1, s->G, (s->comp != 0) ? s->c2 : NULL));
}

static int st_ga_solve(hs_stepper *s, const hs_ctx *c)
{
    const int nq = s->nq, nc = s->nc;
    const hs_real bp = s->ga_bp, gp = s->ga_gp, ih2 = HS_R(1.0) / (s->ga_beta * c->h * c->h);
    /* residual r = M w - f - G^T lambda; row 1 of the Newton system divided by beta' */
    hs_blk_qq_mv(&s->blocks, s->M, s->wdn, s->v1);
    if (nc > 0) {
        hs_blk_cq_mtv(&s->blocks, s->G, s->lamn, s->v2);
    }
    for (int i = 0; i < nq; ++i) {
        const hs_real r = s->v1[i] - s->f[i] - ((nc > 0) ? s->v2[i] : HS_R(0.0));
        s->b[i] = -r / bp;
    }
    for (int i = 0; i < nc; ++i) {
        s->b[nq + i] = -s->c1[i];
    }
    if (s->comp != 0) {
        /* A compliant row ([L1] eq. 3.6) holds c lambda + g + tau (G u + g_t) = 0 at t_{n+1};
         * with u += gamma' dq, lambda += beta' y its Newton row divided by 1 + tau gamma' is
         * G dq + (c beta'/(1 + tau gamma')) y = -residual/(1 + tau gamma'). */
        hs_blk_cq_mv(&s->blocks, s->G, s->un, s->c3);
        for (int i = 0; i < nc; ++i) {
            const hs_real cc = s->cmp[i], tau = s->cdt[i];
            if (cc > HS_R(0.0)) {
                s->b[nq + i] = -(cc * s->lamn[i] + s->c1[i] + tau * (s->c3[i] + s->c2[i])) / (HS_R(1.0) + tau * gp);
            }
        }
    }
    s->stats.factorizations++;
    int rc = hs_linsys_factor(&s->lsK, &s->fK, s->M, gp / bp, s->fu, HS_R(1.0) / bp, s->fq, s->G,
                              s->G, (s->lsK.reg != 0) ? s->creg : NULL);
    if (rc != (int)HS_OK) {
        return rc;
    }
    hs_linsys_solve(&s->lsK, &s->fK, s->b);
    hs_real nd = HS_R(0.0);
    for (int i = 0; i < nq; ++i) {
        const hs_real dq = s->b[i];
        nd += hs_abs(dq);
        s->qn[i] += dq;
        s->un[i] += gp * dq;
        s->wdn[i] += bp * dq;
        s->accn[i] += ih2 * dq;
    }
    for (int i = 0; i < nc; ++i) {
        s->lamn[i] += bp * s->b[nq + i];
    }
    /* The method's range, as sdirk's: a Newton correction moving the positions by more than
     * HS_SD_RANGE model sizes cannot come from a motion the step resolves; the run has
     * diverged and the next steps would reach Inf: refused, state kept. */
    if (!(nd * s->sd_scale <= HS_SD_RANGE * c->h * c->h)) {
        return (nd - nd == HS_R(0.0)) ? HS_E_RANGE : HS_E_NONFINITE;
    }
    return HS_OK;
}

static int run_stage(hs_stepper *s, hs_ctx *c, int st)
{
    switch (st) {
    case HS_STAGE_GA_PREDICT: return st_ga_predict(s, c);
    case HS_STAGE_GA_EVAL: return st_ga_eval(s, c);
    case HS_STAGE_GA_SOLVE: return st_ga_solve(s, c);
    HS_TAIL_STAGE_CASES(s, c, 0, 0, HS_NO_CASE);
    default: return HS_E_NOT_INIT;
    }
}

static int step(hs_stepper *s, hs_ctx *c)
{
    return hs_run_plan(s, c, run_stage);
}

const hs_family hs_family_galpha = {validate, configure, plan, setup, step, reg_k, NULL, 2, HS_R(0.083333333333333333)};
