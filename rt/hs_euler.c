/* hs_euler.c - the Euler family: explicit, symplectic, j1, j2, j3, jexact, jk, jkexact
 * (partitioned linear-implicit Euler of Burgermeister, Arnold & Esterl, with its explicit and
 * semi-implicit baselines and the curvature variants).
 *
 * Equations. With A = M - h cu fu - h^2 cq (fq [+ K_g]) and r = f [+ h fq u_n] (the
 * linear-implicit methods' J q-column applied to u_n), one step solves
 *   index-2:  [[A, -G^T], [Gr, 0]] (u_{n+1} - u_n, h lambda) = (h r, -Gr u_n - g_t [- alpha g])
 *             Gr = G(q*) at t_{n+1} positions first (q* = q_n + h u_n, eq. 6b), G(q_n) with
 *             the constraint posed at t_n velocities first;
 *   index-1:  [[M, -G^T], [G, 0]] (u', lambda) = (f, -gamma [- 2 alpha g' - beta g]), then for an
 *             implicit J a second solve A u' = r + G^T lambda (two_stage, sec. 3.1);
 *   GGL:      q* projected by one Newton step of eq. 11 before the index-2 solve (eq. 9).
 * Positions first q_{n+1} = q* (explicit, j1, j2, j3, jk); velocities first
 * q_{n+1} = q_n + h u_{n+1} (symplectic, jexact, jkexact). jk/jkexact add the constraint
 * curvature K_g = d(G^T lambda_n)/dq to fq, so geometric stiffness (a chain under gravity)
 * is seen by A.
 *
 * Fixed work per step: one M and f evaluation; fq, fu analytic or 2 nq force evaluations
 * (j3 without analytic blocks: one directional difference); K_g analytic or nq + 1
 * constraint evaluations; g, G (and g at q*) once or twice; one factorization of the step
 * system (two for index-1 two_stage); the tail's projection adds one more factorization. */
#include "hs_stage.h"

static int validate(const hs_stepper_def *def, const hs_model *m, unsigned fl)
{
    (void)m;
    /* the curvature methods (jk, jkexact) linearize the velocity-level (index-2) step: in
     * index-1's two-stage step the multipliers come fresh from the acceleration level, and K_g
     * at the previous ones only adds drift (slider crank, 1 s unstabilized: max |g| 1.55) */
    if (((fl & HS_MF_CURV) != 0u) && (def->form == HS_FORM_INDEX1)) {
        return HS_E_DEF_FORM;
    }
    return HS_OK;
}

static void configure(const hs_stepper_def *def, const hs_model *m, hs_cfg *c)
{
    (void)def;
    const unsigned fl = c->mflags;
    const int nc = m->d.nc;
    /* a linear-implicit J without the full blocks (j3) takes fq u_n as one directional
     * difference, or from the model's analytic blocks where it has them */
    if (((fl & HS_MF_LINIMPL) != 0u) && ((fl & HS_MF_FULLJAC) == 0u) && (c->analytic != 0)) {
        c->use_jac = 1;
    }
    /* index-1 with a linear-implicit J takes the multipliers from the acceleration-level
     * system with M (sec. 3.1), then makes the step (3) with f + G^T lambda: two solves */
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    c->two_stage = ((c->index2 == 0) && (nc > 0) && ((fl & HS_MF_LINIMPL) != 0u)) ? 1 : 0;
    /* reg_eps: velocity-level multipliers only (index-1's are accelerations' and keep C = 0) */
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    c->regK = ((c->comp != 0) && (c->index2 != 0) && (nc > 0)) ? 1 : 0;
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    c->rigid = (c->index2 == 0) ? 1 : 0;
}

/* [L1]'s C and B of one compliant row for the velocity-level step: with
 * g_{n+1} ~ g_n + h G u_{n+1} the spring-damper c lambda = -(g + tau G u) becomes
 * G u_{n+1} + k (h lambda) + bt g_n = 0 with k = c / (h^2 (1 + tau/h)), bt = 1 / (h (1 + tau/h)). */
static hs_real reg_k(const hs_stepper *s, hs_real cc, hs_real tau)
{
    const hs_real h = s->def.h;
    return -(cc / (h * h * (HS_R(1.0) + tau / h)));
}

static int plan(const hs_stepper *s, unsigned char *p)
{
    int n = 0;
    p[n++] = HS_STAGE_EVAL_FORCES;
    if (s->use_jac != 0) {
        p[n++] = HS_STAGE_JACOBIANS;
    }
    if (s->curv != 0) {
        p[n++] = HS_STAGE_CURVATURE;
    }
    if ((s->mflags & HS_MF_LINIMPL) != 0u) {
        p[n++] = HS_STAGE_RHS; /* explicit and symplectic take f itself */
    }
    p[n++] = HS_STAGE_PREDICT;
    if (s->nc > 0) {
        p[n++] = HS_STAGE_CONSTRAINTS;
    }
    p[n++] = HS_STAGE_ASSEMBLE;
    p[n++] = HS_STAGE_SOLVE;
    p[n++] = HS_STAGE_POSITIONS;
    return n;
}

/* out (nq) = fq u_n: from the blocks, or one directional difference. */
static int fq_times_u(hs_stepper *s, const hs_ctx *c, hs_real *out)
{
    const int nq = s->nq;
    if (c->have_fq != 0) {
        hs_blk_qq_mv(&s->blocks, s->fq, s->u, out);
        return HS_OK;
    }
    hs_real qn = HS_R(0.0), un = HS_R(0.0);
    for (int i = 0; i < nq; ++i) {
        hs_real a = hs_abs(s->q[i]), b = hs_abs(s->u[i]);
        qn = (a > qn) ? a : qn;
        un = (b > un) ? b : un;
    }
    /* Step of length fd_rel (1 + |q|) along u; u = 0 gives a zero product, as it must. */
    hs_real d = s->def.fd_rel * (HS_R(1.0) + qn) / ((un > HS_R(0.0)) ? un : HS_R(1.0));
    for (int i = 0; i < nq; ++i) {
        s->qs[i] = s->q[i] + d * s->u[i];
    }
    int rc = hs_model_rc(s->model->type->force(s->model, c->t, s->qs, s->u, s->z, c->in, s->f2));
    s->stats.force_evals++;
    if (rc != (int)HS_OK) {
        return rc;
    }
    for (int i = 0; i < nq; ++i) {
        out[i] = (s->f2[i] - s->f[i]) / d;
    }
    return HS_OK;
}

static int st_jacobians(hs_stepper *s, hs_ctx *c)
{
    int rc = hs_force_jacobians(s, c, c->t, s->q, s->u);
    if (rc != (int)HS_OK) {
        return rc;
    }
    c->have_fq = 1;
    return HS_OK;
}

/* r = f + h fq u_n for every linear-implicit J (the Jq u_n term of eq. 6b); the other
 * methods of the family use f as r (their plans have no rhs stage) */
static int st_rhs(hs_stepper *s, const hs_ctx *c)
{
    const int nq = s->nq;
    int rc = fq_times_u(s, c, s->v1);
    if (rc != (int)HS_OK) {
        return rc;
    }
    for (int i = 0; i < nq; ++i) {
        s->r[i] = s->f[i] + c->h * s->v1[i];
    }
    return HS_OK;
}

/* predicted positions q* = q_n + h u_n: q_{n+1} itself for positions-first methods */
static int st_predict(hs_stepper *s, const hs_ctx *c)
{
    const int nq = s->nq, nc = s->nc;
    for (int i = 0; i < nq; ++i) {
        s->qs[i] = s->q[i] + c->h * s->u[i];
    }
    if ((s->ggl != 0) && (nc > 0)) {
        /* eq. 9a with mu from one Newton step on g(t_{n+1}, q) = 0: the position projection */
        int rc = hs_model_rc(s->model->type->constraint(s->model, c->t1, s->qs, s->c1, NULL, NULL));
        if (rc != (int)HS_OK) {
            return rc;
        }
        for (int i = 0; i < nq; ++i) {
            s->b2[i] = HS_R(0.0);
        }
        for (int i = 0; i < nc; ++i) {
            s->b2[nq + i] = (s->comp != 0) ? s->c1[i] + s->cmp[i] * s->lambda[i] : s->c1[i];
        }
        hs_linsys_solve(&s->lsP, &s->fP, s->b2);
        for (int i = 0; i < nq; ++i) {
            s->qs[i] -= s->b2[i];
        }
    }
    return HS_OK;
}

static int st_constraints(hs_stepper *s, const hs_ctx *c)
{
    const hs_model *m = s->model;
    const int nc = s->nc;
    int rc = hs_model_rc(m->type->constraint(m, c->t, s->q, s->g, s->G, s->gt));
    if (rc != (int)HS_OK) {
        return rc;
    }
    if ((s->index2 != 0) && (s->velfirst == 0)) {
        /* eq. 6b: velocity constraint at t_{n+1} and q_{n+1} = q*, G^T at q_n */
        return hs_model_rc(m->type->constraint(m, c->t1, s->qs, s->c1, s->G2, s->c2));
    }
    if (s->index2 != 0) {
        /* Velocities first: q_{n+1} = q_n + h u_{n+1} is not known yet, so the velocity
         * constraint is posed at (t_n, q_n), where g(q_{n+1}) = g(q_n) + h (G u_{n+1} + g_t)
         * + O(h^2) makes it (and Baumgarte's alpha g) act on the step that follows. Posing it
         * at the predictor q_n + h u_n instead makes alpha = 1/h unstable. */
        for (int i = 0; i < nc; ++i) {
            s->c1[i] = s->g[i];
            s->c2[i] = s->gt[i];
        }
        return HS_OK;
    }
    return hs_model_rc(m->type->gamma(m, c->t, s->q, s->u, s->gam));
}

/* A = M - h cu fu - h^2 cq fq (A = M for the first stage of two_stage) and the right-hand
 * side: index-2 solves for (u_{n+1} - u_n, h lambda), index-1 for (u', lambda) */
static int st_assemble(hs_stepper *s, hs_ctx *c)
{
    const int nq = s->nq, nc = s->nc;
    const hs_real h = c->h;
    /* A = M - (h cu fu + h^2 cq fq) is formed by the linear-system layer while it assembles */
    c->a1 = h * s->cu;
    c->a2 = h * h * s->cq;
    if (nc > 0) {
        const hs_real *Gr = ((s->index2 != 0) && (s->velfirst == 0)) ? s->G2 : s->G;
        hs_blk_cq_mv(&s->blocks, Gr, s->u, s->c3);
        for (int i = 0; i < nc; ++i) {
            hs_real v;
            if (s->index2 != 0) {
                v = -s->c3[i] - s->c2[i];
                if ((s->comp != 0) && (s->cmp[i] > HS_R(0.0))) {
                    /* the regularized stepper's eq. 4.4: + B g with B = 1 / (h (1 + tau/h)) (the spring's pull) */
                    v -= s->c1[i] / (h * (HS_R(1.0) + s->cdt[i] / h));
                } else if (s->def.stab == HS_STAB_BAUMGARTE) {
                    v -= s->alpha * s->c1[i];
                } else {
                    /* a rigid row without stabilization: the velocity level alone */
                }
            } else {
                v = -s->gam[i];
                if (s->def.stab == HS_STAB_BAUMGARTE) {
                    v -= HS_R(2.0) * s->alpha * (s->c3[i] + s->gt[i]) + s->beta * s->g[i];
                }
            }
            s->b[nq + i] = v;
        }
    }
    const hs_real *r = ((s->mflags & HS_MF_LINIMPL) != 0u) ? s->r : s->f;
    for (int i = 0; i < nq; ++i) {
        s->b[i] = (s->index2 != 0) ? h * r[i] : ((s->two_stage != 0) ? s->f[i] : r[i]);
    }
    return HS_OK;
}

static int st_solve(hs_stepper *s, const hs_ctx *c)
{
    const int nq = s->nq, nc = s->nc;
    const hs_real h = c->h;
    const hs_real *Gr = ((s->index2 != 0) && (s->velfirst == 0)) ? s->G2 : s->G;
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    const int implicit_a = ((c->have_fq != 0) && (s->two_stage == 0)) ? 1 : 0;
    s->stats.factorizations++;
    int rc = hs_linsys_factor(&s->lsK, &s->fK, s->M, c->a1, (implicit_a != 0) ? s->fu : NULL, c->a2,
                              s->fq, s->G, Gr, (s->lsK.reg != 0) ? s->creg : NULL);
    if (rc != (int)HS_OK) {
        return rc;
    }
    hs_linsys_solve(&s->lsK, &s->fK, s->b);
    for (int i = 0; i < nc; ++i) {
        s->lamn[i] = (s->index2 != 0) ? s->b[nq + i] / h : s->b[nq + i];
    }
    if (s->two_stage != 0) {
        /* (M - h Ju - ...) u' = f + G^T lambda + h Jq u_n */
        hs_blk_cq_mtv(&s->blocks, s->G, s->lamn, s->v2);
        for (int i = 0; i < nq; ++i) {
            s->b[i] = s->r[i] + s->v2[i];
        }
        s->stats.factorizations++;
        rc = hs_linsys_factor(&s->ls1, &s->f1, s->M, c->a1, (c->have_fq != 0) ? s->fu : NULL, c->a2,
                              s->fq, NULL, NULL, NULL);
        if (rc != (int)HS_OK) {
            return rc;
        }
        hs_linsys_solve(&s->ls1, &s->f1, s->b);
    }
    for (int i = 0; i < nq; ++i) {
        s->un[i] = s->u[i] + ((s->index2 != 0) ? s->b[i] : h * s->b[i]);
    }
    return HS_OK;
}

/* positions: explicit in u_n (eq. 3/6a) or with the new velocity (semi-implicit) */
static int st_positions(hs_stepper *s, const hs_ctx *c)
{
    const int nq = s->nq;
    if (s->velfirst != 0) {
        for (int i = 0; i < nq; ++i) {
            s->qn[i] = s->q[i] + c->h * s->un[i];
        }
    } else {
        for (int i = 0; i < nq; ++i) {
            s->qn[i] = s->qs[i];
        }
    }
    return HS_OK;
}

/* One stage of the plan. A switch rather than a table of pointers: each stage has one call
 * site, so the compiler inlines it and the plan costs a jump per stage, not a call. */
static int run_stage(hs_stepper *s, hs_ctx *c, int st)
{
    switch (st) {
    case HS_STAGE_EVAL_FORCES: return hs_mass_force_finite(s, c, c->t, s->q, s->u);
    case HS_STAGE_JACOBIANS: return st_jacobians(s, c);
    case HS_STAGE_CURVATURE: return hs_add_curvature(s, c->t, s->q, s->lambda);
    case HS_STAGE_RHS: return st_rhs(s, c);
    case HS_STAGE_PREDICT: return st_predict(s, c);
    case HS_STAGE_CONSTRAINTS: return st_constraints(s, c);
    case HS_STAGE_ASSEMBLE: return st_assemble(s, c);
    case HS_STAGE_SOLVE: return st_solve(s, c);
    case HS_STAGE_POSITIONS: return st_positions(s, c);
    /* the tail; its projection: positions-first index-2 evaluated g(t_{n+1}, q*) with
     * q* = q_{n+1} already, and the guard stops this family's growth towards Inf */
    HS_TAIL_STAGE_CASES(s, c, ((s->index2 != 0) && (s->ggl == 0) && (s->velfirst == 0)) ? 1 : 0, 1,
                        HS_GGL_FACTOR_CASE(s, c));
    default: return HS_E_NOT_INIT;
    }
}

static int step(hs_stepper *s, hs_ctx *c)
{
    return hs_run_plan(s, c, run_stage);
}

const hs_family hs_family_euler = {validate, configure, plan, NULL, step, reg_k, NULL, 1, HS_R(0.5)};
