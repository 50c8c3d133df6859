/* hs_dvp.c - method dvp: the discrete variational stepper of Wendlandt & Marsden, "Mechanical
 * integrators derived from a discrete variational principle" (equations and fixed work:
 * hs_dvp.h), and its family row. */
#include "hs_dvp.h"
#include "hs_stage.h"

static int validate(const hs_stepper_def *def, const hs_model *m, unsigned fl)
{
    (void)m;
    (void)fl;
    /* it solves g(q_{n+1}) = 0 itself */
    if ((def->form != HS_FORM_INDEX2) || (def->stab != HS_STAB_NONE) || (def->reg_eps != HS_R(0.0))) {
        return HS_E_DEF_DVP;
    }
    return HS_OK;
}

/* Newton with Jacobian blocks (fq, fu, d(M w)/dq in Kg), and the [[M, G^T], [G, 0]] system
 * at q_{n+1} taking momenta back to velocities */
static void configure(const hs_stepper_def *def, const hs_model *m, hs_cfg *c)
{
    (void)def;
    (void)m;
    c->dvp = 1;
    c->use_jac = 1;
    c->have_p = 1;
    c->rigid = 1; /* the discrete Euler-Lagrange equations hold g(q_{n+1}) = 0 exactly */
}

static int plan(const hs_stepper *s, unsigned char *p)
{
    (void)s;
    p[0] = HS_STAGE_DVP;
    return 1;
}

/* Without lagrange() the model declares a constant M; a model whose M changes with q would
 * step with dT/dq missing and report ok (a pendulum in angle coordinates: 0.96 rad off).
 * Init probes M (hs_mass_probe) and refuses any change, naming the hook. */
static int setup(hs_stepper *s)
{
    if (s->model->type->lagrange != NULL) {
        return HS_OK;
    }
    const int rc = hs_mass_probe(s);
    return (rc == 1) ? (int)HS_E_DEF_HOOK_LAGRANGE : rc;
}

static int step(hs_stepper *s, hs_ctx *c)
{
    int rc = hs_dvp_stage(s, c->t, c->t1, c->h, c->in);
    for (int i = 1; (i < s->nplan) && (rc == (int)HS_OK); ++i) {
        rc = hs_tail_stage(s, c, s->plan[i], 0, 0);
    }
    return rc;
}

const hs_family hs_family_dvp = {validate, configure, plan, setup, step, NULL, NULL, 2, HS_R(0.083333333333333333)};

static hs_real max_abs(const hs_real *x, int n)
{
    hs_real m = HS_R(0.0);
    for (int i = 0; i < n; ++i) {
        const hs_real a = hs_abs(x[i]);
        m = a > m ? a : m;
    }
    return m;
}

/* F (nq) at (t, x, w) into out: the model's lagrange(), or force() for a constant M. */
static int eval_F(hs_stepper *s, hs_real t, const hs_real *x, const hs_real *w, const hs_real *in,
                  hs_real *out)
{
    const hs_model *m = s->model;
    const hs_model_type *T = m->type;
    s->stats.force_evals++;
    return hs_model_rc(T->lagrange ? T->lagrange(m, t, x, w, s->z, in, out, NULL, NULL, NULL)
                              : T->force(m, t, x, w, s->z, in, out));
}

/* F at (t, x, w) into s->f and its Jacobians: Fq into s->fq, Fu into s->fu, d(M w)/dq into
 * s->Kg (zero for a constant M). Analytic from lagrange() / force_jac(), or 2 nq forward
 * differences of F (def.jac = fd, or a model with neither). */
static int eval_F_jac(hs_stepper *s, hs_real t, const hs_real *x, const hs_real *w, const hs_real *in)
{
    const hs_model *m = s->model;
    const hs_model_type *T = m->type;
    const int nq = s->nq, nA = s->lsK.nA;
    const int an = (int)(s->def.jac != HS_JAC_FD && (T->lagrange || T->force_jac));
    int rc;
    if (T->lagrange != NULL) {
        s->stats.force_evals++;
        rc = hs_model_rc(T->lagrange(m, t, x, w, s->z, in, s->f, an ? s->fq : NULL, an ? s->fu : NULL, s->Kg));
        if (rc != 0 || an != 0) { return rc; }
    } else {
        for (int k = 0; k < nA; ++k) { s->Kg[k] = HS_R(0.0); }
        rc = eval_F(s, t, x, w, in, s->f);
        if (rc != 0) { return rc; }
        if (an != 0) { return hs_model_rc(T->force_jac(m, t, x, w, s->z, in, s->fq, s->fu)); }
    }
    /* forward differences, nq evaluations per argument (fixed count) */
    hs_real *y = s->v1;
    for (int pass = 0; pass < 2; ++pass) {
        const hs_real *base = pass == 0 ? x : w;
        for (int i = 0; i < nq; ++i) { y[i] = base[i]; }
        for (int j = 0; j < nq; ++j) {
            hs_real d = s->def.fd_rel * (HS_R(1.0) + hs_abs(base[j]));
            y[j] = base[j] + d;
            d = y[j] - base[j];
            rc = pass == 0 ? eval_F(s, t, y, w, in, s->f2) : eval_F(s, t, x, y, in, s->f2);
            if (rc != 0) { return rc; }
            hs_blk_qq_set_column(&s->blocks, pass == 0 ? s->fq : s->fu, j, s->f2, s->f, d);
            y[j] = base[j];
        }
    }
    return HS_OK;
}

/* Residual of the discrete Euler-Lagrange equations at the current w (s->un), Lam (s->lamn):
 * c = q_n + h/2 w into s->qs, q_{n+1} = q_n + h w into s->qn, M(c) into s->M, M(c) w into
 * s->v1, F(c, w) into s->f (with Jacobians when jac), g, G, g_t at (t1, q_{n+1}) into s->c1,
 * s->G2, s->c2, and b = -(R1, g/h) with R1 = M(c) w - p_n - h/2 F - G_n^T Lam. */
static int residual(hs_stepper *s, hs_real th, hs_real t1, hs_real h, const hs_real *in, int jac)
{
    const hs_model *m = s->model;
    const int nq = s->nq, nc = s->nc;
    const hs_real *q = s->q, *w = s->un, *p = s->r;
    for (int i = 0; i < nq; ++i) {
        s->qs[i] = q[i] + HS_R(0.5) * h * w[i];
        s->qn[i] = q[i] + h * w[i];
    }
    int rc = hs_model_rc(m->type->mass(m, th, s->qs, s->M));
    if (rc != 0) { return rc; }
    rc = jac ? eval_F_jac(s, th, s->qs, w, in) : eval_F(s, th, s->qs, w, in, s->f);
    if (rc != 0) { return rc; }
    if (hs_all_finite(s->M, s->lsK.nA) == 0 || hs_all_finite(s->f, nq) == 0) { return HS_E_NONFINITE; }
    hs_blk_qq_mv(&s->blocks, s->M, w, s->v1);
    for (int i = 0; i < nq; ++i) { s->b[i] = -(s->v1[i] - p[i] - HS_R(0.5) * h * s->f[i]); }
    if (nc > 0) {
        rc = hs_model_rc(m->type->constraint(m, t1, s->qn, s->c1, s->G2, s->c2));
        if (rc != 0) { return rc; }
        hs_blk_cq_mtv(&s->blocks, s->G, s->lamn, s->v2);
        for (int i = 0; i < nq; ++i) { s->b[i] += s->v2[i]; }
        for (int i = 0; i < nc; ++i) { s->b[nq + i] = -s->c1[i] / h; }
    }
    return HS_OK;
}

hs_status hs_dvp_stage(hs_stepper *s, hs_real t, hs_real t1, hs_real h, const hs_real *in)
{
    const hs_model *m = s->model;
    const int nq = s->nq, nc = s->nc, nA = s->lsK.nA;
    const hs_real th = t + HS_R(0.5) * (t1 - t); /* the forces' time: the step's midpoint */
    /* momentum p_n = M(q_n) u_n (s->r) and G(q_n) (s->G), the constraint force's direction */
    hs_status rc = hs_model_rc(m->type->mass(m, t, s->q, s->M));
    if (rc != HS_OK) { return rc; }
    hs_blk_qq_mv(&s->blocks, s->M, s->u, s->r);
    if (nc > 0) {
        rc = hs_model_rc(m->type->constraint(m, t, s->q, NULL, s->G, NULL));
        if (rc != HS_OK) { return rc; }
    }
    /* predictor: the velocity and impulse of the last step. Lam is the impulse of the step's
     * first half (RATTLE: p_{n+1/2} = p_n + h/2 F + G_n^T Lam, Lam = h/2 lambda), so the
     * multiplier reported below is 2 Lam / h and the predictor h/2 lambda (the same bits as
     * before the factor 2 was put right: both scalings are by powers of two) */
    for (int i = 0; i < nq; ++i) { s->un[i] = s->u[i]; }
    for (int i = 0; i < nc; ++i) { s->lamn[i] = (HS_R(0.5) * h) * s->lambda[i]; }
    for (int it = 0; it < HS_DVP_NEWTON; ++it) {
        rc = residual(s, th, t1, h, in, 1);
        if (rc != HS_OK) { return rc; }
        /* A = M + h/2 Mq - h/2 Fu - h^2/4 Fq = M - (h/2 Fu + h^2/4 (Fq - (2/h) Mq)) */
        for (int k = 0; k < nA; ++k) { s->fq[k] -= (HS_R(2.0) / h) * s->Kg[k]; }
        s->stats.factorizations++;
        rc = hs_linsys_factor(&s->lsK, &s->fK, s->M, HS_R(0.5) * h, s->fu, HS_R(0.25) * h * h, s->fq,
                              s->G, s->G2, NULL);
        if (rc != HS_OK) { return rc; }
        hs_linsys_solve(&s->lsK, &s->fK, s->b);
        for (int i = 0; i < nq; ++i) { s->un[i] += s->b[i]; }
        for (int i = 0; i < nc; ++i) { s->lamn[i] += s->b[nq + i]; }
    }
    /* the residual left: its correction with the last factor, in position units */
    rc = residual(s, th, t1, h, in, 0);
    if (rc != HS_OK) { return rc; }
    hs_linsys_solve(&s->lsK, &s->fK, s->b);
    const hs_real scale = max_abs(s->q, nq) + h * max_abs(s->un, nq);
    const hs_real res = scale > HS_R(0.0) ? h * max_abs(s->b, nq) / scale : h * max_abs(s->b, nq);
    if (!(res <= HS_DVP_TOL)) { return HS_E_DVP_RESIDUAL; }
    /* p_{n+1} = M(c) w + h/2 F(c, w), to velocities on the tangent space at q_{n+1}:
     * [[M, G^T], [G, 0]] (u, mu) = (p_{n+1}, -g_t) */
    for (int i = 0; i < nq; ++i) { s->b2[i] = s->v1[i] + HS_R(0.5) * h * s->f[i]; }
    for (int i = 0; i < nc; ++i) { s->b2[nq + i] = -s->c2[i]; }
    rc = hs_model_rc(m->type->mass(m, t1, s->qn, s->M));
    if (rc != HS_OK) { return rc; }
    s->stats.factorizations++;
    rc = hs_linsys_factor(&s->lsP, &s->fPn, s->M, HS_R(0.0), NULL, HS_R(0.0), NULL, s->G2, s->G2, NULL);
    if (rc != HS_OK) { return rc; }
    hs_linsys_solve(&s->lsP, &s->fPn, s->b2);
    for (int i = 0; i < nq; ++i) { s->un[i] = s->b2[i]; }
    /* the force of the first half's impulse: lambda = Lam / (h/2), the scale of every other
     * method's multiplier (it was Lam / h, half the joint force: issue 33 item 8) */
    for (int i = 0; i < nc; ++i) { s->lamn[i] = HS_R(2.0) * (s->lamn[i] / h); }
    if (res > s->stats.dvp_residual) { s->stats.dvp_residual = res; }
    return HS_OK;
}
