/* hs_em.c - method em: the energy-momentum midpoint integrator for constrained systems with a
 * constant mass matrix, as Wendlandt & Marsden compare it with their discrete variational
 * method on the double spherical pendulum ("Mechanical integrators derived from a discrete
 * variational principle", sec. 5.2, after Gonzalez's discrete-gradient construction).
 *
 * Equations. Midpoint values q_m = (q_n + q_{n+1})/2, u_m = (u_n + u_{n+1})/2, t_m = t_n + h/2:
 *     q_{n+1} = q_n + h u_m
 *     M (u_{n+1} - u_n) = h f(t_m, q_m, u_m) + G(t_m, q_m)^T Lam        (Lam = h lambda)
 *     g(t_{n+1}, q_{n+1}) = 0
 * For quadratic constraints (distances: g = |q_1|^2 - l^2) G(q_m) is their discrete gradient,
 * g(q_{n+1}) - g(q_n) = G(q_m) (q_{n+1} - q_n), so the constraint force does no work over the
 * step; with forces from a quadratic potential (gravity, linear springs) f(q_m) is the discrete
 * gradient too, and the energy 1/2 u.M u + V(q) is conserved to the Newton residual, as is the
 * momentum of every symmetry of V and g (the pendulum's angular momentum about the vertical).
 * Other forces and constraints keep the midpoint rule: symmetric, second order.
 *
 * Fixed work: HS_EM_NEWTON Newton iterations on (u_{n+1}, Lam) with the Jacobian
 *     [[M - h/2 fu - h^2/4 (fq + K_g(q_m, Lam/h)), -G(q_m)^T], [G(q_{n+1}), 0]]
 * (the second row is the constraint scaled by 2/h) from the predictor u_{n+1} = u_n,
 * Lam = h lambda_n; then one more residual whose correction (solved with the last factor, not
 * applied) must stay below HS_DVP_TOL of the position scale, else the step is refused with
 * HS_E_EM_RESIDUAL and the state kept. Each iteration: one M, f, fq, fu evaluation at the
 * midpoint, g and G at the midpoint and at q_{n+1}, K_g, one factorization. */
#include "hs_dvp.h"
#include "hs_stage.h"

/* Newton iterations per step (the same count as dvp: the double spherical pendulum reaches
 * round-off corrections at h = 1e-1 with it, test/mb/test_mb_dvp.c). */
#ifndef HS_EM_NEWTON
#define HS_EM_NEWTON 4
#endif

static int validate(const hs_stepper_def *def, const hs_model *m, unsigned fl)
{
    (void)m;
    (void)fl;
    /* it solves g(q_{n+1}) = 0 itself, and a compliance would break the energy balance */
    if ((def->form != HS_FORM_INDEX2) || (def->stab != HS_STAB_NONE) || (def->reg_eps != HS_R(0.0))) {
        return HS_E_DEF_EM;
    }
    return HS_OK;
}

static void configure(const hs_stepper_def *def, const hs_model *m, hs_cfg *c)
{
    (void)def;
    c->use_jac = 1;
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    c->curv = (m->d.nc > 0) ? 1 : 0;
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    c->curv_fd = ((c->curv != 0) && (m->type->curvature == NULL)) ? 1 : 0;
    c->rigid = 1; /* a compliance would break the energy balance */
}

static int plan(const hs_stepper *s, unsigned char *p)
{
    (void)s;
    p[0] = HS_STAGE_EM;
    return 1;
}

/* The construction needs a constant M (the energy balance above uses M (u_{n+1} - u_n) . u_m
 * = the kinetic energy's change); init refuses a model whose M changes with q. */
static int setup(hs_stepper *s)
{
    const int rc = hs_mass_probe(s);
    if (rc == 1) {
        return HS_E_DEF_EM_MASS;
    }
    return rc;
}

static hs_real max_abs(const hs_real *x, int n)
{
    hs_real m = HS_R(0.0);
    for (int i = 0; i < n; ++i) {
        const hs_real a = hs_abs(x[i]);
        m = (a > m) ? a : m;
    }
    return m;
}

/* Residual at the current u_{n+1} (s->un), Lam (s->lamn): q_{n+1} into s->qn, q_m into s->b2,
 * u_m into s->r, M and f (with fq, fu and K_g when jac) at the midpoint, G(q_m) into s->G,
 * g, G at (t1, q_{n+1}) into s->c1, s->G2, and b = -(R1, (2/h) g_{n+1}),
 * R1 = M (u_{n+1} - u_n) - h f - G(q_m)^T Lam. */
static int residual(hs_stepper *s, const hs_ctx *c, int jac)
{
    const hs_model *m = s->model;
    const int nq = s->nq, nc = s->nc;
    const hs_real h = c->h, tm = c->t + HS_R(0.5) * (c->t1 - c->t);
    hs_real *qm = s->b2, *um = s->r;
    for (int i = 0; i < nq; ++i) {
        um[i] = HS_R(0.5) * (s->u[i] + s->un[i]);
        s->qn[i] = s->q[i] + h * um[i];
        qm[i] = s->q[i] + HS_R(0.5) * h * um[i];
    }
    int rc = hs_mass_force_finite(s, c, tm, qm, um);
    if (rc != (int)HS_OK) {
        return rc;
    }
    if (jac != 0) {
        rc = hs_force_jacobians(s, c, tm, qm, um);
        if (rc != (int)HS_OK) {
            return rc;
        }
    }
    for (int i = 0; i < nq; ++i) {
        s->v1[i] = s->un[i] - s->u[i];
    }
    hs_blk_qq_mv(&s->blocks, s->M, s->v1, s->f2);
    for (int i = 0; i < nq; ++i) {
        s->b[i] = -(s->f2[i] - h * s->f[i]);
    }
    if (nc > 0) {
        rc = hs_model_rc(m->type->constraint(m, tm, qm, NULL, s->G, NULL));
        if (rc != (int)HS_OK) {
            return rc;
        }
        rc = hs_model_rc(m->type->constraint(m, c->t1, s->qn, s->c1, s->G2, NULL));
        if (rc != (int)HS_OK) {
            return rc;
        }
        if (jac != 0) {
            /* K_g at the midpoint with lambda = Lam / h, into fq */
            for (int i = 0; i < nc; ++i) {
                s->c3[i] = s->lamn[i] / h;
            }
            rc = hs_add_curvature(s, tm, qm, s->c3);
            if (rc != (int)HS_OK) {
                return rc;
            }
        }
        hs_blk_cq_mtv(&s->blocks, s->G, s->lamn, s->v2);
        for (int i = 0; i < nq; ++i) {
            s->b[i] += s->v2[i];
        }
        for (int i = 0; i < nc; ++i) {
            s->b[nq + i] = -(HS_R(2.0) / h) * s->c1[i];
        }
    }
    return HS_OK;
}

static int em_stage(hs_stepper *s, const hs_ctx *c)
{
    const int nq = s->nq, nc = s->nc;
    const hs_real h = c->h;
    for (int i = 0; i < nq; ++i) {
        s->un[i] = s->u[i];
    }
    for (int i = 0; i < nc; ++i) {
        s->lamn[i] = h * s->lambda[i];
    }
    int rc;
    for (int it = 0; it < HS_EM_NEWTON; ++it) {
        rc = residual(s, c, 1);
        if (rc != (int)HS_OK) {
            return rc;
        }
        s->stats.factorizations++;
        rc = hs_linsys_factor(&s->lsK, &s->fK, s->M, HS_R(0.5) * h, s->fu, HS_R(0.25) * h * h, s->fq,
                              s->G, s->G2, NULL);
        if (rc != (int)HS_OK) {
            return rc;
        }
        hs_linsys_solve(&s->lsK, &s->fK, s->b);
        for (int i = 0; i < nq; ++i) {
            s->un[i] += s->b[i];
        }
        for (int i = 0; i < nc; ++i) {
            s->lamn[i] += s->b[nq + i];
        }
    }
    /* the residual left: its correction with the last factor, in position units (h/2 du) */
    rc = residual(s, c, 0);
    if (rc != (int)HS_OK) {
        return rc;
    }
    hs_linsys_solve(&s->lsK, &s->fK, s->b);
    const hs_real scale = max_abs(s->q, nq) + h * max_abs(s->un, nq);
    const hs_real dq = HS_R(0.5) * h * max_abs(s->b, nq);
    const hs_real res = (scale > HS_R(0.0)) ? dq / scale : dq;
    if (!(res <= HS_DVP_TOL)) {
        return HS_E_EM_RESIDUAL;
    }
    for (int i = 0; i < nc; ++i) {
        s->lamn[i] /= h;
    }
    if (res > s->stats.dvp_residual) {
        s->stats.dvp_residual = res;
    }
    return HS_OK;
}

static int step(hs_stepper *s, hs_ctx *c)
{
    int rc = em_stage(s, c);
    for (int i = 1; (i < s->nplan) && (rc == (int)HS_OK); ++i) {
        rc = hs_tail_stage(s, c, s->plan[i], 0, 0);
    }
    return rc;
}

const hs_family hs_family_em = {validate, configure, plan, setup, step, NULL, NULL, 2, HS_R(0.083333333333333333)};
