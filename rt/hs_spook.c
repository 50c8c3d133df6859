/* hs_spook.c - method spook: Lacoursiere's regularized, stabilized, variational stepper
 * ("Regularized, stabilized, variational methods for multibodies", eq. 26-29).
 *
 * Equations. Constraints are the limit of stiff springs with compliance eps and relaxation
 * time tau; per constraint Sigma = 4 eps / (h^2 (1 + 4 tau/h)) and Ups = 1 / (1 + 4 tau/h).
 * In the unknowns (u_{n+1} - u_n, h lambda), with +G^T lambda, one step solves
 *     [[M, -G^T], [G, Sigma]] (du, h lambda) = (h f, -(4/h) Ups g - (1 - Ups) (G u_n + g_t))
 * at (t_n, q_n), then q_{n+1} = q_n + h u_{n+1} (velocities first). The matrix is symmetric
 * quasi-definite for eps > 0, so redundant constraints factor without pivoting.
 *
 * Fixed work per step: one M and f evaluation, one g, G, g_t evaluation, one factorization
 * and solve. Form index2 and stabilization none only (tau is its stabilization). */
#include "hs_stage.h"

static int validate(const hs_stepper_def *def, const hs_model *m, unsigned fl)
{
    (void)fl;
    /* eq. 29 is a velocity-level system with its own stabilization (tau) */
    if (def->form != HS_FORM_INDEX2) {
        return HS_E_DEF_FORM;
    }
    if (def->stab != HS_STAB_NONE) {
        return HS_E_DEF_STAB;
    }
    if ((hs_isfinite(def->spook_eps) == 0) || !(def->spook_eps >= HS_R(0.0))
        || (hs_isfinite(def->spook_tau_h) == 0) || !(def->spook_tau_h > HS_R(0.0))) {
        return HS_E_DEF_SPOOK;
    }
    for (int i = 0; i < m->d.nc; ++i) {
        if ((def->spook_eps_c != NULL)
            && ((hs_isfinite(def->spook_eps_c[i]) == 0) || !(def->spook_eps_c[i] >= HS_R(0.0)))) {
            return HS_E_DEF_SPOOK;
        }
        if ((def->spook_tau_h_c != NULL)
            && ((hs_isfinite(def->spook_tau_h_c[i]) == 0) || !(def->spook_tau_h_c[i] > HS_R(0.0)))) {
            return HS_E_DEF_SPOOK;
        }
    }
    return HS_OK;
}

static void configure(const hs_stepper_def *def, const hs_model *m, hs_cfg *c)
{
    (void)def;
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    c->spook = (m->d.nc > 0) ? 1 : 0;
    c->regK = c->spook;
}

static int plan(const hs_stepper *s, unsigned char *p)
{
    int n = 0;
    p[n++] = HS_STAGE_EVAL_FORCES;
    if (s->nc > 0) {
        p[n++] = HS_STAGE_CONSTRAINTS;
    }
    p[n++] = HS_STAGE_SPOOK_RHS;
    p[n++] = HS_STAGE_SOLVE;
    p[n++] = HS_STAGE_POSITIONS;
    return n;
}

/* Sigma_i on the diagonal of the multiplier block (stored as -Sigma: the layer's block is -C)
 * and Upsilon_i, fixed for the run since h, eps and tau are. */
static int setup(hs_stepper *s)
{
    if (s->spook == 0) {
        return HS_OK;
    }
    const hs_blocks *b = &s->blocks;
    const hs_real h = s->def.h;
    hs_real *C = s->creg;
    for (int k = 0; k < b->ncb; ++k) {
        for (int i = b->cb[k]; i < b->cb[k + 1]; ++i) {
            for (int j = b->cb[k]; j < b->cb[k + 1]; ++j) {
                /* a row's declared compliance c is SPOOK's epsilon and its c d SPOOK's tau
                 * ([L2] eq. 25: the same spring-damper); spook's own where none is declared */
                const hs_real epsd = (s->comp != 0) ? s->cmp[i] : s->def.spook_eps;
                const hs_real thd = ((s->comp != 0) && (s->cdt[i] > HS_R(0.0))) ? s->cdt[i] / h : s->def.spook_tau_h;
                const hs_real eps = (s->def.spook_eps_c != NULL) ? s->def.spook_eps_c[i] : epsd;
                const hs_real th = (s->def.spook_tau_h_c != NULL) ? s->def.spook_tau_h_c[i] : thd;
                const hs_real ups = HS_R(1.0) / (HS_R(1.0) + HS_R(4.0) * th);
                s->ups[i] = ups;
                *C = (i == j) ? -(HS_R(4.0) * eps * ups / (h * h)) : HS_R(0.0);
                C++;
            }
        }
    }
    return HS_OK;
}

/* g, G, g_t at (t_n, q_n) into g, G, gt */
static int st_constraints(hs_stepper *s, const hs_ctx *c)
{
    return hs_model_rc(s->model->type->constraint(s->model, c->t, s->q, s->g, s->G, s->gt));
}

/* The right-hand side of eq. 29 in the unknowns (du, h lambda):
 *   M du - G^T (h lambda) = h f
 *   G du + Sigma (h lambda) = -(4/h) Ups g - (1 - Ups) (G u_n + g_t)
 * (the second row is eq. 29's t minus G u_n; with g_t = 0 for scleronomic constraints). */
static int st_spook_rhs(hs_stepper *s, const hs_ctx *c)
{
    const int nq = s->nq, nc = s->nc;
    const hs_real h = c->h;
    if (nc > 0) {
        hs_blk_cq_mv(&s->blocks, s->G, s->u, s->c3);
    }
    for (int i = 0; i < nc; ++i) {
        s->b[nq + i] = -(HS_R(4.0) / h) * s->ups[i] * s->g[i] - (HS_R(1.0) - s->ups[i]) * (s->c3[i] + s->gt[i]);
    }
    for (int i = 0; i < nq; ++i) {
        s->b[i] = h * s->f[i];
    }
    return HS_OK;
}

static int st_solve(hs_stepper *s, const hs_ctx *c)
{
    const int nq = s->nq, nc = s->nc;
    const hs_real h = c->h;
    s->stats.factorizations++;
    int rc = hs_linsys_factor(&s->lsK, &s->fK, s->M, HS_R(0.0), NULL, HS_R(0.0), s->fq, s->G, s->G,
                              (s->lsK.reg != 0) ? s->creg : NULL);
    if (rc != (int)HS_OK) {
        return rc;
    }
    hs_linsys_solve(&s->lsK, &s->fK, s->b);
    for (int i = 0; i < nc; ++i) {
        s->lamn[i] = s->b[nq + i] / h;
    }
    for (int i = 0; i < nq; ++i) {
        s->un[i] = s->u[i] + s->b[i];
    }
    return HS_OK;
}

/* velocities first: q_{n+1} = q_n + h u_{n+1} */
static int st_positions(hs_stepper *s, const hs_ctx *c)
{
    for (int i = 0; i < s->nq; ++i) {
        s->qn[i] = s->q[i] + c->h * s->un[i];
    }
    return HS_OK;
}

static int run_stage(hs_stepper *s, hs_ctx *c, int st)
{
    switch (st) {
    case HS_STAGE_EVAL_FORCES: return hs_mass_force_finite(s, c, c->t, s->q, s->u);
    case HS_STAGE_CONSTRAINTS: return st_constraints(s, c);
    case HS_STAGE_SPOOK_RHS: return st_spook_rhs(s, c);
    case HS_STAGE_SOLVE: return st_solve(s, c);
    case HS_STAGE_POSITIONS: return st_positions(s, c);
    HS_TAIL_STAGE_CASES(s, c, 0, 0, HS_NO_CASE);
    default: return HS_E_NOT_INIT;
    }
}

static int step(hs_stepper *s, hs_ctx *c)
{
    return hs_run_plan(s, c, run_stage);
}

const hs_family hs_family_spook = {validate, configure, plan, setup, step, NULL, NULL, 1, HS_R(0.5)};
