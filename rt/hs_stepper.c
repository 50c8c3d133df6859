/* hs_stepper.c - the fixed-cost stepper's common part: validation, workspace, init, state,
 * commit. A step is a plan of named stages chosen once at init (MuJoCo's mj_step, Box2D's
 * solver stages); each method family states its equations and stages in its own file and
 * reaches this one through its row of the method table (rt/hs_methods.c, rt/hs_stage.h). */
#include "hs_stage.h"
#include "hs_sparse.h"
#include "hs_dense.h"
#include "hs_hash.h"
#include "hs_contact.h"

const char *hs_status_str(int status)
{
    switch (status) {
    case HS_OK: return "ok";
    case HS_E_DEF_H: return "step size h must be finite and > 0";
    case HS_E_DEF_METHOD: return "unknown method";
    case HS_E_DEF_FORM: return "unknown formulation, or GGL combined with a stabilization or a velocities-first method, or index-1 with jk/jkexact";
    case HS_E_DEF_STAB: return "unknown stabilization, or one the method does not take (spook, dvp and em run with none)";
    case HS_E_DEF_BAUMGARTE: return "Baumgarte parameters must be finite and >= 0 (0 = follow h) and stable for the method: index-2 needs h*alpha <= 2; index-1 positions-first needs h^2*beta < 2 h*alpha and h^2*beta > 4 h*alpha - 4, velocities-first h*alpha < 1 and h^2*beta < 4 (1 - h*alpha); galpha takes none";
    case HS_E_DEF_JAC: return "unknown Jacobian source, or analytic Jacobian requested of a model without one";
    case HS_E_DEF_FD: return "finite-difference increment must be finite and > 0";
    case HS_E_SIZE: return "model sizes exceed the workspace or are inconsistent";
    case HS_E_MODEL_PARAM: return "model parameter out of range or inconsistent";
    case HS_E_NULL: return "required pointer is NULL";
    case HS_E_INPUT: return "non-finite input signal";
    case HS_E_SINGULAR: return "singular matrix (zero, tiny or non-finite pivot)";
    case HS_E_NONFINITE: return "non-finite value in forces, constraints or new state";
    case HS_E_MODEL: return "model function reported a fault";
    case HS_E_STATE: return "non-finite initial state";
    case HS_E_NOT_INIT: return "stepper not initialized";
    case HS_E_UNKNOWN_PARAM: return "unknown parameter name";
    case HS_E_DEF_LINSYS: return "unknown linear-system backend, or sparse asked without a sparse backend";
    case HS_E_DEF_SPOOK: return "spook needs --form index2, --stab none, epsilon >= 0 and tau/h > 0; reg_eps must be >= 0";
    case HS_E_DEF_RHO: return "galpha needs rho_inf in [0, 1], sdirk sd_gamma in [1/4, 0.45] or [0.55, 1], both a form other than ggl";
    case HS_E_DEF_WATCHDOG: return "watchdog bounds and max_h_omega must be finite and >= 0 (0 = off); an energy bound needs a model with energy()";
    case HS_E_IMPLAUSIBLE: return "step refused by the plausibility watchdog (|u| or energy growth beyond the def's bounds)";
    case HS_E_DEF_DVP: return "dvp needs --form index2, --stab none (it solves g(q_{n+1}) = 0 itself) and reg_eps = 0";
    case HS_E_DEF_EM: return "em needs --form index2, --stab none (it solves g(q_{n+1}) = 0 itself) and reg_eps = 0";
    case HS_E_DEF_EM_MASS: return "em needs a mass matrix that does not depend on q (its energy balance is written for constant M); use dvp";
    case HS_E_DEF_COMPLIANCE: return "compliance and damping must be finite and >= 0, and the method must honour them: spook, sdirk, galpha and the Euler family with --form index2 do; index-1, dvp and em take rigid constraints only";
    case HS_E_EM_RESIDUAL: return "em: midpoint equations' residual not small after the fixed Newton iterations (step too large)";
    case HS_E_RANGE_INIT: return "refused before the first step: h times the model's motion bound omega (the fastest rate a body can turn, as the model bounds it) is beyond the method's range; take a smaller h";
    case HS_E_RANGE_DEGENERATE: return "refused before the first step: the model's constraints can become dependent (a closed loop folding flat), where the method's unregularized step matrix turns singular; use spook";
    case HS_E_RANGE: return "step beyond the method's range: its one Newton step per stage no longer converges (h too large for this motion, e.g. a body turning faster per step than the method's rotation range, or constraints close to dependent); the state is kept - take a smaller h, or spook for constraints that become dependent";
    case HS_E_DEF_HOOK_LAGRANGE: return "the method needs the model hook lagrange(): the mass matrix depends on q, and without lagrange() (F = f + M'(q)[u] u and its Jacobians) the discrete Euler-Lagrange equations would miss dT/dq";
    case HS_E_DVP_RESIDUAL: return "dvp: discrete Euler-Lagrange residual not small after the fixed Newton iterations (step too large)";
    case HS_E_USAGE: return "bad option or command line";
    case HS_E_SIGNAL_MAP: return "signal map refused";
    case HS_E_DBC: return "DBC file refused, or it does not match the application's signals";
    case HS_E_SETUP: return "socket, thread, transport or file could not be set up";
    case HS_E_WRITE: return "output could not be written";
    case HS_E_STEP: return "a step was refused";
    case HS_E_OVERRUN: return "a frame overran under policy stop";
    case HS_E_BUDGET: return "latency budget exceeded";
    case HS_E_LINK: return "link failed (frames with a bad MAC, or the peer fell silent)";
    case HS_E_INACCURATE: return "inaccurate: the run's error estimate exceeded --tol";
    case HS_E_LINK_REJECTED: return "link: frames from the peer were rejected";
    case HS_E_LINK_NO_PEER: return "link: the peer was never heard";
    case HS_E_LINK_FALLBACK: return "link: an input ran on its fallback after the link came up";
    case HS_E_OUTPUT_NONFINITE: return "a model output is NaN or Inf";
    case HS_E_OUTPUT_RANGE: return "a model output is outside its signal's range";
    default: return "unknown status";
    }
}

const char *hs_stepper_path(const hs_stepper *s)
{
    if ((s == NULL) || (s->ready == 0)) {
        return "?";
    }
    return (s->fb != 0) ? "free_body" : "generic";
}

int hs_stepper_err_order(const hs_stepper *s)
{
    if ((s == NULL) || (s->ready == 0) || (s->fam == NULL)) {
        return 0;
    }
    return ((const hs_family *)s->fam)->err_order;
}

hs_real hs_stepper_err_dist(const hs_stepper *s, const hs_real *a, const hs_real *b)
{
    if ((s == NULL) || (s->ready == 0) || (a == NULL)) {
        return HS_R(0.0);
    }
    hs_real m = HS_R(0.0);
    if (s->err_ngrp == 0) {
        for (int i = 0; i < s->nq; ++i) {
            const hs_real v = hs_abs((b != NULL) ? (a[i] - b[i]) : a[i]);
            m = (v > m) ? v : m;
        }
        return m;
    }
    for (int k = 0; k < s->err_ngrp; ++k) {
        const hs_err_group *g = &s->err_grp[k];
        /* (not per step: the body's differences padded with zeros, every entry written) */
        hs_real v[7];
        for (int i = 0; i < 7; ++i) {
            const int j = g->q0 + i;
            hs_real x = HS_R(0.0);
            if (i < (g->nx + g->nr)) {
                x = (b != NULL) ? (a[j] - b[j]) : a[j];
            }
            v[i] = x;
        }
        const hs_real e = ((g->nr == 0) && (g->nx >= 2)) ? hs_err_point(g, v) : hs_err_body(g, v, a);
        m = (e > m) ? e : m;
    }
    return m;
}

/* Init: the model's bodies of the error metric, checked to cover q once in order (a list that
 * does not is the model's fault: HS_E_MODEL, nothing bound). */
static hs_status err_groups_bind(hs_stepper *st, const hs_model *m)
{
    st->err_grp = NULL;
    st->err_ngrp = 0;
    if (m->type->err_groups == NULL) {
        return HS_OK;
    }
    const hs_err_group *g = NULL;
    const int n = m->type->err_groups(m, &g);
    if (n < 0) {
        return hs_model_rc(n);
    }
    int next = 0;
    for (int k = 0; k < n; ++k) {
        const int nx = g[k].nx, nr = g[k].nr;
        const int kinds_ok = (int)(((nx == 0) || (nx == 2) || (nx == 3)) && ((nr == 0) || (nr == 1) || (nr == 4)));
        if ((g[k].q0 != next) || (kinds_ok == 0) || ((nx + nr) == 0) || (hs_isfinite(g[k].w) == 0)
            || !(g[k].w >= HS_R(0.0)) || (g[k].np < 0) || ((g[k].np > 0) && (g[k].pts == NULL))) {
            return HS_E_MODEL;
        }
        next += nx + nr;
    }
    if ((n > 0) && ((g == NULL) || (next != st->nq))) {
        return HS_E_MODEL;
    }
    st->err_grp = (n > 0) ? g : NULL;
    st->err_ngrp = n;
    return HS_OK;
}

const char *hs_method_name(hs_method m)
{
    const hs_method_info *r = hs_method_info_of(m);
    return (r != NULL) ? r->name : "?";
}

const char *hs_form_name(hs_form f)
{
    return f == HS_FORM_INDEX1 ? "index1" : f == HS_FORM_INDEX2 ? "index2" : f == HS_FORM_GGL ? "ggl" : "?";
}

const char *hs_stab_name(hs_stab st)
{
    return st == HS_STAB_NONE ? "none" : st == HS_STAB_BAUMGARTE ? "baumgarte"
         : st == HS_STAB_PROJECTION ? "projection" : "?";
}

const char *hs_stage_name(hs_stage st)
{
#define HS__ST_NAME(id, name) name,
    static const char *const names[HS_STAGE_COUNT] = {HS_STAGE_LIST(HS__ST_NAME)};
    return ((int)st >= 0 && (int)st < (int)HS_STAGE_COUNT) ? names[st] : "?";
}

hs_stepper_def hs_stepper_default_def(void)
{
    hs_stepper_def d;
    d.method = HS_METHOD_SDIRK;
    d.form = HS_FORM_INDEX2;
    d.stab = HS_STAB_PROJECTION;
    d.jac = HS_JAC_AUTO;
    d.h = HS_R(1.0e-3);
    /* 0: follow h (alpha = 1/h, beta = 1/h^2 at init, in hs_real; a float caller who needs
     * the simulator's bits passes (hs_real)(1.0 / h) computed in double, as hs_app does). */
    d.alpha = HS_R(0.0);
    d.beta = HS_R(0.0);
    /* sqrt(eps): balances truncation and rounding error of a forward difference. */
#ifdef HS_REAL_FLOAT
    d.fd_rel = HS_R(3.4526698e-4);
#else
    d.fd_rel = HS_R(1.4901161193847656e-08);
#endif
    /* [L2] sec. 6: "good defaults for a wide range of problems" */
    d.spook_eps = HS_R(1.0e-8);
    d.spook_tau_h = HS_R(2.0);
    d.spook_eps_c = NULL;
    d.spook_tau_h_c = NULL;
    d.reg_eps = HS_R(0.0);
    d.reg_damp = HS_R(0.0);
    d.reg_eps_c = NULL;
    d.reg_damp_c = NULL;
    d.linsys = HS_LS_AUTO;
    d.sparse = &hs_sparse_backend; /* used where hs_linsys_choose finds it cheaper */
    d.rho_inf = HS_GALPHA_RHO_DEFAULT;
    d.sd_gamma = HS_SDIRK_GAMMA_DEFAULT;
    d.max_speed = HS_R(0.0);
    d.max_energy_gain = HS_R(0.0);
    d.max_h_omega = HS_SD_MAX_H_OMEGA;
    return d;
}

/* Baumgarte parameters in use: the def's, or 1/h and 1/h^2 where it says 0. */
static void baumgarte_of(const hs_stepper_def *def, hs_real *alpha, hs_real *beta)
{
    *alpha = def->alpha > HS_R(0.0) ? def->alpha : HS_R(1.0) / def->h;
    *beta = def->beta > HS_R(0.0) ? def->beta : (HS_R(1.0) / def->h) * (HS_R(1.0) / def->h);
}

/* Every def is checked here in one order: generic enums and combinations first, then the
 * method family's own checks (its file), then the generic bounds and the model's hooks. */
hs_status hs_stepper_def_validate(const hs_stepper_def *def, const hs_model *m)
{
    if (def == NULL || m == NULL || m->type == NULL) { return HS_E_NULL; }
    if (hs_isfinite(def->h) == 0 || !(def->h > HS_R(0.0))) { return HS_E_DEF_H; }
    const hs_family *fam = hs_step_family(def, m);
    if (fam == NULL) {
        return HS_E_DEF_METHOD;
    }
    const unsigned fl = hs_method_flags(def->method);
    if (def->form != HS_FORM_INDEX1 && def->form != HS_FORM_INDEX2 && def->form != HS_FORM_GGL) {
        return HS_E_DEF_FORM;
    }
    /* GGL stabilizes positions itself and needs q_{n+1} before u_{n+1} */
    if (def->form == HS_FORM_GGL && (def->stab != HS_STAB_NONE || (fl & HS_MF_VELFIRST) != 0u)) {
        return HS_E_DEF_FORM;
    }
    if (def->stab != HS_STAB_NONE && def->stab != HS_STAB_BAUMGARTE && def->stab != HS_STAB_PROJECTION) {
        return HS_E_DEF_STAB;
    }
    if (hs_isfinite(def->reg_eps) == 0 || !(def->reg_eps >= HS_R(0.0))) { return HS_E_DEF_SPOOK; }
    if (hs_isfinite(def->reg_damp) == 0 || !(def->reg_damp >= HS_R(0.0))) { return HS_E_DEF_COMPLIANCE; }
    if (def->stab == HS_STAB_BAUMGARTE && (fl & HS_MF_NOBAUM) != 0u) { return HS_E_DEF_BAUMGARTE; }
    int rc = fam->validate(def, m, fl);
    if (rc != (int)HS_OK) {
        return rc;
    }
    if (def->stab == HS_STAB_BAUMGARTE) {
        if (hs_isfinite(def->alpha) == 0 || def->alpha < HS_R(0.0)) { return HS_E_DEF_BAUMGARTE; }
        if (def->form == HS_FORM_INDEX1 && (hs_isfinite(def->beta) == 0 || def->beta < HS_R(0.0))) {
            return HS_E_DEF_BAUMGARTE;
        }
        hs_real al, be;
        baumgarte_of(def, &al, &be);
        const hs_real a = def->h * al, b = def->h * def->h * be;
        /* index-2: g_{n+1} = (1 - h alpha) g_n + O(h^2) (sec. 3.2) amplifies for h alpha > 2. */
        if (def->form == HS_FORM_INDEX2 && a > HS_R(2.0)) { return HS_E_DEF_BAUMGARTE; }
        if (def->form == HS_FORM_INDEX1) {
            /* g'' = -2 alpha g' - beta g, its right side at t_n: positions first it is explicit
             * Euler on (g, g'), amplification [[1, h], [-h^2 beta/h, 1 - 2 h alpha]]; velocities
             * first the position update takes the new g', [[1 - 2a, -b], [1 - 2a, 1 - b]] in
             * (h g', g). Jury's conditions on trace and determinant give the bounds below;
             * the documented 1/h, 1/h^2 (a = b = 1) sits ON the velocities-first boundary
             * (determinant -1) and diverges in 49-81 steps on every shipped model. */
            const int vf = (int)((fl & HS_MF_VELFIRST) != 0u);
            /* MISRA Ref 10.3.2 [hs_real selected by ?:] */
            const hs_real det = vf ? HS_R(1.0) - HS_R(2.0) * a : HS_R(1.0) - HS_R(2.0) * a + b;
            /* MISRA Ref 10.3.2 [hs_real selected by ?:] */
            const hs_real tr = vf ? HS_R(2.0) - HS_R(2.0) * a - b : HS_R(2.0) - HS_R(2.0) * a;
            if (!(det < HS_R(1.0) && det > HS_R(-1.0) && hs_abs(tr) < HS_R(1.0) + det)) {
                return HS_E_DEF_BAUMGARTE;
            }
        }
    }
    if (hs_isfinite(def->max_speed) == 0 || def->max_speed < HS_R(0.0) || hs_isfinite(def->max_energy_gain) == 0
        || def->max_energy_gain < HS_R(0.0) || (def->max_energy_gain > HS_R(0.0) && m->type->energy == NULL)) {
        return HS_E_DEF_WATCHDOG;
    }
    if ((hs_isfinite(def->max_h_omega) == 0) || (def->max_h_omega < HS_R(0.0))) { return HS_E_DEF_WATCHDOG; }
    if (def->jac != HS_JAC_AUTO && def->jac != HS_JAC_ANALYTIC && def->jac != HS_JAC_FD) { return HS_E_DEF_JAC; }
    if (def->jac == HS_JAC_ANALYTIC && m->type->force_jac == NULL) { return HS_E_DEF_JAC; }
    if (hs_isfinite(def->fd_rel) == 0 || !(def->fd_rel > HS_R(0.0))) { return HS_E_DEF_FD; }
    if (def->linsys != HS_LS_AUTO && def->linsys != HS_LS_DENSE && def->linsys != HS_LS_SPARSE) {
        return HS_E_DEF_LINSYS;
    }
    if (def->linsys == HS_LS_SPARSE && def->sparse == NULL) { return HS_E_DEF_LINSYS; }
    const hs_model_type *T = m->type;
    const hs_dims *d = &m->d;
    /* more rows than coordinates are dependent: only a regularized (compliant) system factors */
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    const int may_comp = ((def->reg_eps > HS_R(0.0)) || (def->reg_eps_c != NULL) || (T->compliance != NULL)
                          || ((fl & HS_MF_COMPLIANT) != 0u)) ? 1 : 0;
    if (d->nq < 1 || d->nc < 0 || (d->nc >= d->nq + 1 && may_comp == 0) || d->nz < 0 || d->nin < 0 || d->nout < 0) {
        return HS_E_SIZE;
    }
    if (T->mass == NULL || T->force == NULL || T->initial == NULL) { return HS_E_NULL; }
    if (d->nc > 0 && (T->constraint == NULL || T->gamma == NULL)) { return HS_E_NULL; }
    if (d->nz > 0 && T->zdot == NULL) { return HS_E_NULL; }
    return HS_OK;
}



/* ---------------------------------------------------------------------------------------
 * Configuration: flags, sizes and the plan, all derived from def and the model instance. */

/* The generic flags, then the family's. */
static hs_cfg config_of(const hs_stepper_def *def, const hs_model *m)
{
    hs_cfg c;
    const unsigned fl = hs_method_flags(def->method);
    const int nc = m->d.nc;
    c.ggl = def->form == HS_FORM_GGL;
    c.index2 = def->form == HS_FORM_INDEX2 || c.ggl;
    c.velfirst = (fl & HS_MF_VELFIRST) != 0u;
    c.spook = 0;
    /* the factorization at q_n of eq. 11 is kept across steps by projection and GGL alike */
    c.keep_p = (def->stab == HS_STAB_PROJECTION || c.ggl) && nc > 0;
    c.regK = 0;
    c.symK = 0;
    c.ldltK = 0;
    c.ldltP = 0;
    c.masks = 0;
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    c.comp = ((nc > 0) && ((def->reg_eps > HS_R(0.0)) || (def->reg_eps_c != NULL)
                           || (m->type->compliance != NULL))) ? 1 : 0;
    c.regP = c.comp != 0 && c.keep_p;
    c.analytic = def->jac == HS_JAC_ANALYTIC || (def->jac == HS_JAC_AUTO && m->type->force_jac);
    /* 2: analytic, and the model gives f with its Jacobians in one call (force_fj, rt/hs_sdirk.c) */
    /* MISRA Ref 10.6.2 [*tool*: c ? 2 : 1 into an int] */
    c.analytic = (c.analytic != 0) ? ((m->type->force_fj != NULL) ? 2 : 1) : 0;
    c.use_jac = (fl & HS_MF_FULLJAC) != 0u;
    c.two_stage = 0;
    c.cu = (fl & HS_MF_CU) != 0u ? HS_R(1.0) : HS_R(0.0);
    c.cq = (fl & HS_MF_CQ) != 0u ? HS_R(1.0) : HS_R(0.0);
    c.has_blocks = m->type->blocks != NULL;
    c.galpha = 0;
    c.sdirk = 0;
    c.dvp = 0;
    c.consistent = 0;
    c.nqa = 0;
    c.nca = 0;
    c.curv = (fl & HS_MF_CURV) != 0u && nc > 0;
    c.curv_fd = c.curv && !m->type->curvature;
    c.have_p = c.keep_p;
    c.fb = 0;
    c.rigid = 0;
    c.mflags = fl;
    hs_step_family(def, m)->configure(def, m, &c);
    /* the contact stage solves with the projection matrix at q_{n+1} (rt/hs_contact.h) */
    if (m->type->nk > 0) {
        c.have_p = 1;
    }
    return c;
}

static int model_blocks(const hs_model *m, hs_blocks *b, int *buf, size_t nbuf, size_t *used)
{
    const int nb = nbuf > 0x7fffffffu ? 0x7fffffff : (int)nbuf;
    hs_status rc = HS_OK;
    if (m->type->blocks != NULL) { rc = hs_model_rc(m->type->blocks(m, b, buf, nb)); }
    else { rc = hs_blocks_dense(&m->d, b, buf, nb); }
    if (rc != HS_OK) { return rc; }
    const int nq = m->d.nq, nc = m->d.nc;
    if (b->nqb < 1 || b->qb[0] != 0 || b->qb[b->nqb] != nq || b->nqq < b->nqb) { return HS_E_SIZE; }
    if (nc > 0 && (b->ncb < 1 || b->cb[0] != 0 || b->cb[b->ncb] != nc)) { return HS_E_SIZE; }
    for (int k = 0; k < b->nqb; ++k) { if (b->qb[k + 1] <= b->qb[k]) { return HS_E_SIZE; } }
    for (int k = 0; k < b->ncb; ++k) { if (b->cb[k + 1] <= b->cb[k]) { return HS_E_SIZE; } }
    for (int k = 0; k < b->nqq; ++k) {
        if (b->qq[2 * k] < 0 || b->qq[2 * k] >= b->nqb || b->qq[2 * k + 1] < 0 || b->qq[2 * k + 1] >= b->nqb) {
            return HS_E_SIZE;
        }
    }
    for (int k = 0; k < b->ncq; ++k) {
        if (b->cq[2 * k] < 0 || b->cq[2 * k] >= b->ncb || b->cq[2 * k + 1] < 0 || b->cq[2 * k + 1] >= b->nqb) {
            return HS_E_SIZE;
        }
    }
    /* The ints the list occupies: the smallest buffer blocks() accepts (it may lay its arrays
     * out at fixed offsets), found by bisection at init; the final call rebuilds b in place. */
    int lo = 1, hi = nb;
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        hs_blocks t;
        hs_status r;
        if (m->type->blocks != NULL) { r = hs_model_rc(m->type->blocks(m, &t, buf, mid)); }
        else { r = hs_blocks_dense(&m->d, &t, buf, mid); }
        if (r == HS_OK) { hi = mid; } else { lo = mid + 1; }
    }
    if (m->type->blocks != NULL) { rc = hs_model_rc(m->type->blocks(m, b, buf, lo)); }
    else { rc = hs_blocks_dense(&m->d, b, buf, lo); }
    if (rc != HS_OK) { return rc; }
    *used = (size_t)lo;
    return HS_OK;
}

/* The model's zero masks (hs_model_type.masks) into tmp for the sparse backend: *qm (nA ints)
 * and *cm (nG ints) point into tmp, *used ints taken; both NULL and 0 taken without a masks
 * hook, with the dense backend or when the method does not use them (use = 0). */
static int model_masks(const hs_model *m, const hs_blocks *b, hs_ls_kind kind, int use, int *tmp, size_t ntmp,
                       const int **qm, const int **cm, size_t *used)
{
    *qm = NULL;
    *cm = NULL;
    *used = 0u;
    if ((use == 0) || (m->type->masks == NULL) || (kind != HS_LS_SPARSE)) { return HS_OK; }
    const int nA = hs_blocks_qq_size(b), nG = (m->d.nc > 0) ? hs_blocks_cq_size(b) : 0;
    const size_t need = (size_t)nA + (size_t)nG + 1u;
    if (ntmp < need) { return HS_E_SIZE; }
    for (size_t i = 0; i < need; ++i) { tmp[i] = 1; }
    const int rc = hs_model_rc(m->type->masks(m, tmp, (nG > 0) ? tmp + nA : tmp + nA + nG));
    if (rc != 0) { return rc; }
    *qm = tmp;
    *cm = (nG > 0) ? tmp + nA : NULL;
    *used = need;
    return HS_OK;
}

/* The projection system's zero mask of A = M (hs_model_type.mass_blockdiag): qm (or all ones)
 * in the diagonal blocks of qq, 0 in the others, into tmp (nA ints, *used); *qp = qm and nothing
 * taken when the model does not declare it, with the dense backend or without off-diagonal
 * blocks. HS_E_SIZE when tmp is short (*used is then the room it needs). */
static int proj_mask(const hs_model *m, const hs_blocks *b, hs_ls_kind kind, const int *qm, int *tmp, size_t ntmp,
                     const int **qp, size_t *used)
{
    *qp = qm;
    *used = 0u;
    if ((kind != HS_LS_SPARSE) || (m->type->mass_blockdiag == 0) || (m->d.nc == 0)) { return HS_OK; }
    int off = 0;
    for (int k = 0; k < b->nqq; ++k) { off |= (b->qq[2 * k] != b->qq[(2 * k) + 1]) ? 1 : 0; }
    if (off == 0) { return HS_OK; }
    *used = (size_t)hs_blocks_qq_size(b);
    if (ntmp < *used) { return HS_E_SIZE; }
    int p = 0;
    for (int k = 0; k < b->nqq; ++k) {
        const int bi = b->qq[2 * k], bj = b->qq[(2 * k) + 1];
        const int sz = (b->qb[bi + 1] - b->qb[bi]) * (b->qb[bj + 1] - b->qb[bj]);
        for (int e = 0; e < sz; ++e, ++p) { tmp[p] = (bi == bj) ? ((qm != NULL) ? qm[p] : 1) : 0; }
    }
    *qp = tmp;
    return HS_OK;
}

/* The model's leaf rows (hs_model_type.leaf_rows) into tmp (ncb ints, *used) for the sparse
 * backend; *leaf = NULL and nothing taken without the hook, constraints or the sparse backend.
 * HS_E_SIZE when tmp is short (*used is then the room it needs). */
static int model_leaves(const hs_model *m, const hs_blocks *b, hs_ls_kind kind, int *tmp, size_t ntmp,
                        const int **leaf, size_t *used)
{
    *leaf = NULL;
    *used = 0u;
    if ((kind != HS_LS_SPARSE) || (m->type->leaf_rows == NULL) || (m->d.nc == 0) || (b->ncb < 1)) { return HS_OK; }
    *used = (size_t)b->ncb;
    if (ntmp < *used) { return HS_E_SIZE; }
    for (int k = 0; k < b->ncb; ++k) { tmp[k] = -1; }
    const int rc = hs_model_rc(m->type->leaf_rows(m, tmp));
    if (rc != 0) { return rc; }
    *leaf = tmp;
    return HS_OK;
}

/* What leads the analyses' scratch: the step matrix's zero masks (model_masks), the projection's
 * mask of M (proj_mask) and the leaf rows (model_leaves), one after the other. */
typedef struct sys_masks {
    const int *qm, *cm; /* the model's masks of A and G, or NULL */
    const int *qp;      /* the projection's mask of A = M, or qm */
    const int *lf;      /* the leaf rows (ncb), or NULL */
    size_t used;        /* ints of tmp they take (counted also where tmp was short) */
    int short_tmp;      /* measuring: tmp was short for one of them (measured without it) */
} sys_masks;

/* The part of tmp (ntmp ints) after its first used: the whole of it (0 left) when short. */
static int *tmp_after(int *tmp, size_t ntmp, size_t used) { return (used <= ntmp) ? &tmp[used] : tmp; }
static size_t ntmp_after(size_t ntmp, size_t used) { return (used <= ntmp) ? (ntmp - used) : 0u; }

/* sys_masks for model m and config c into tmp. measure = 1 (sizing): a tmp too short for one
 * of them leaves it out (NULL), counts its room and sets short_tmp; measure = 0 (init, the
 * measured room given): any failure is returned. */
static int masks_of(const hs_model *m, const hs_blocks *b, hs_ls_kind kind, const hs_cfg *c, int *tmp, size_t ntmp,
                    int measure, sys_masks *ms)
{
    ms->qm = NULL; ms->cm = NULL; ms->lf = NULL; ms->used = 0u; ms->short_tmp = 0;
    size_t n = 0u;
    int rc = model_masks(m, b, kind, c->masks, tmp, ntmp, &ms->qm, &ms->cm, &n);
    if ((measure != 0) && (rc == (int)HS_E_SIZE)) {
        ms->short_tmp = 1;
        n = (size_t)hs_blocks_qq_size(b) + ((m->d.nc > 0) ? (size_t)hs_blocks_cq_size(b) : 0u) + 1u;
        rc = HS_OK;
    }
    if (rc != 0) { return rc; }
    ms->used = n;
    ms->qp = ms->qm;
    if (c->have_p != 0) {
        rc = proj_mask(m, b, kind, ms->qm, tmp_after(tmp, ntmp, ms->used), ntmp_after(ntmp, ms->used), &ms->qp, &n);
        if ((measure != 0) && (rc == (int)HS_E_SIZE)) { ms->short_tmp = 1; ms->qp = ms->qm; rc = HS_OK; }
        if (rc != 0) { return rc; }
        ms->used += n;
    }
    rc = model_leaves(m, b, kind, tmp_after(tmp, ntmp, ms->used), ntmp_after(ntmp, ms->used), &ms->lf, &n);
    if ((measure != 0) && (rc == (int)HS_E_SIZE)) { ms->short_tmp = 1; ms->lf = NULL; rc = HS_OK; }
    if (rc != 0) { return rc; }
    ms->used += n;
    return HS_OK;
}

/* Sizes of every list entry for one configuration. */
typedef struct ws_sizes {
    size_t nq, nc, nz, n, nA, nG, nAJ, nFK, nF1, nFP, nCC, nUP, nQA, nAK, nGK, nIN0, nCA, nK, nKQ, nQK, nNK, nKF;
    size_t nBLK, nIK, nI1, nIP, nSK, nS1, nSP, nTMP;
    hs_ls_kind kind;
} ws_sizes;

/* hs_linsys_need's HS_E_SIZE for a scratch smaller than the need nt it reported: noted in
 * *short_tmp and passed over (the other sizes are still wanted); any other code as it is. */
static int ws_short(int rc, size_t nt, size_t ntmp, int *short_tmp)
{
    if ((rc == (int)HS_E_SIZE) && (nt > ntmp)) {
        *short_tmp = 1;
        return HS_OK;
    }
    return rc;
}

/* Everything about the sizes: blocks (into blk), backend choice and each system's needs. */
static int ws_measure(const hs_stepper_def *def, const hs_model *m, int *blk, size_t nblk,
                      int *tmp0, size_t ntmp0, hs_blocks *b, ws_sizes *z)
{
    const hs_cfg c = config_of(def, m);
    size_t used = 0;
    int rc = model_blocks(m, b, blk, nblk, &used);
    if (rc != 0) { return rc; }
    const int nq = m->d.nq, nc = m->d.nc;
    /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
    z->nq = (size_t)nq; z->nc = (size_t)nc; z->nz = (size_t)m->d.nz; z->n = (size_t)(nq + nc);
    z->nA = (size_t)hs_blocks_qq_size(b);
    z->nG = nc > 0 ? (size_t)hs_blocks_cq_size(b) : 0u;
    z->nAJ = c.use_jac ? z->nA : 0u;
    z->nQA = c.nqa ? z->nq : 0u;
    z->nCA = c.nca ? z->nc : 0u;
    z->nAK = (c.curv || c.dvp) ? z->nA : 0u;
    z->nGK = c.curv_fd ? z->nG : 0u;
    z->nIN0 = c.consistent ? (size_t)m->d.nin : 0u;
    z->nBLK = used;
    z->nK = m->type->nk > 0 ? (size_t)m->type->nk : 0u;
    z->nKQ = z->nK * z->nq;
    z->nQK = z->nK > 0u ? z->nq : 0u;
    z->nNK = z->nK > 0u ? z->n : 0u;
    z->nKF = 0u;
    if ((z->nK > 0u) && (hs_contact_fb_ok(m) != 0)) {
        /* body velocities: no rows over q, no solves (rt/hs_contact_fb.c) */
        z->nKQ = 0u;
        z->nQK = 0u;
        z->nNK = 0u;
        z->nKF = hs_contact_fb_reals(m);
    }
    z->kind = hs_linsys_choose(def->linsys, def->sparse, b, nq, nc, c.has_blocks);
    size_t tmax = 0;
    hs_linsys_size ls_need;
    /* SPOOK's step matrix [[M, -G^T], [G, Sigma]] is regularized and symmetric (L D L^T) */
    /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
    z->nCC = nc > 0 ? (size_t)((c.regK ? 1 : 0) + (c.regP ? 1 : 0)) * (size_t)hs_blocks_cc_size(b) : 0u;
    z->nUP = (c.spook || c.comp) ? (size_t)nc : 0u;
    /* a scratch too small for a system's analysis is not an error of the model: every
     * system's need is still measured, and nTMP reports the largest (HS_E_SIZE at the end) */
    int short_tmp = 0;
    const int symK = (int)((c.spook != 0) || (c.symK != 0));
    /* the model's zero masks lead the scratch; the analyses use the rest */
    sys_masks ms;
    rc = masks_of(m, b, z->kind, &c, tmp0, ntmp0, 1, &ms);
    if (rc != 0) { return rc; }
    if (ms.short_tmp != 0) { short_tmp = 1; }
    const size_t nmask = ms.used;
    const int *qm = ms.qm, *cm = ms.cm, *qp = ms.qp, *lf = ms.lf;
    int *const tmp = (nmask <= ntmp0) ? &tmp0[nmask] : tmp0;
    const size_t ntmp = (nmask <= ntmp0) ? (ntmp0 - nmask) : ntmp0;
    hs_linsys_def ld = hs_linsys_default_def();
    ld.kind = z->kind; ld.be = def->sparse; ld.b = b; ld.qmask = qm; ld.cmask = cm; ld.cleaf = lf;
    ld.nq = nq; ld.nc = nc; ld.sign = -1; ld.reg = c.regK; ld.symmetric = symK;
    rc = hs_linsys_need(&ld, tmp, ntmp, &ls_need);
    rc = ws_short(rc, ls_need.ntmp, ntmp, &short_tmp);
    if (rc != 0) { return rc; }
    z->nSK = ls_need.nsym; z->nFK = ls_need.nfac_reals; z->nIK = ls_need.nfac_ints; tmax = ls_need.ntmp;
    z->nS1 = z->nF1 = z->nI1 = 0;
    if (c.two_stage != 0) {
        ld.cmask = NULL; ld.nc = 0; ld.sign = 1; ld.reg = 0; ld.symmetric = 0;
        rc = hs_linsys_need(&ld, tmp, ntmp, &ls_need);
        rc = ws_short(rc, ls_need.ntmp, ntmp, &short_tmp);
        if (rc != 0) { return rc; }
        z->nS1 = ls_need.nsym; z->nF1 = ls_need.nfac_reals; z->nI1 = ls_need.nfac_ints;
        tmax = ls_need.ntmp > tmax ? ls_need.ntmp : tmax;
    }
    z->nSP = z->nFP = z->nIP = 0;
    if (c.have_p != 0) {
        ld.qmask = qp; ld.cmask = cm; ld.nc = nc; ld.sign = 1; ld.reg = c.regP; ld.symmetric = 1;
        rc = hs_linsys_need(&ld, tmp, ntmp, &ls_need);
        rc = ws_short(rc, ls_need.ntmp, ntmp, &short_tmp);
        if (rc != 0) { return rc; }
        z->nSP = ls_need.nsym; z->nFP = ls_need.nfac_reals; z->nIP = ls_need.nfac_ints;
        tmax = ls_need.ntmp > tmax ? ls_need.ntmp : tmax;
    }
    z->nTMP = tmax + nmask;
    return (short_tmp != 0) ? HS_E_SIZE : HS_OK;
}

#define WS_REAL_ARGS(z) (z).nq, (z).nc, (z).nz, (z).n, (z).nA, (z).nG, (z).nAJ, (z).nFK, (z).nF1, \
    (z).nFP, (z).nCC, (z).nUP, (z).nQA, (z).nAK, (z).nGK, (z).nIN0, (z).nCA, (z).nK, (z).nKQ, (z).nQK, (z).nNK, (z).nKF
#define WS_INT_ARGS(z) (z).nBLK, (z).nIK, (z).nI1, (z).nIP, (z).nSK, (z).nS1, (z).nSP, (z).nTMP
/* one level of indirection so the size lists are expanded into arguments first */
#define WS_REAL_LIST(X, ...) HS_STEPPER_REAL_LIST(X, __VA_ARGS__)
#define WS_INT_LIST(X, ...) HS_STEPPER_INT_LIST(X, __VA_ARGS__)

static void ws_totals(const ws_sizes *z, size_t *nreals, size_t *nints)
{
    *nreals = 0u WS_REAL_LIST(HS__WS_SUM, WS_REAL_ARGS(*z));
    *nints = 0u WS_INT_LIST(HS__WS_SUM, WS_INT_ARGS(*z));
}

hs_status hs_stepper_workspace_tmp(const hs_stepper_def *def, const hs_model *m, int *tmp, size_t ntmp,
                             size_t *nreals, size_t *nints)
{
    if (def == NULL || m == NULL || m->type == NULL || nreals == NULL || nints == NULL || tmp == NULL) { return HS_E_NULL; }
    hs_status rc = hs_stepper_def_validate(def, m);
    if (rc != HS_OK) { return rc; }
    *nreals = 0u;
    *nints = 0u;
    /* the block list takes the front of the scratch, the analyses' size queries the rest */
    hs_blocks b;
    static const ws_sizes zero_sizes;
    ws_sizes z = zero_sizes;
    size_t used = 0;
    const size_t blk_max = hs_stepper_sizing_ints(m);
    rc = model_blocks(m, &b, tmp, ntmp, &used);
    if ((rc == HS_E_SIZE) && (ntmp < blk_max)) {
        /* the block list did not fit: a larger scratch to try (the bound at most) */
        const size_t grow = (ntmp < 256u) ? 1024u : 4u * ntmp;
        *nints = (grow < blk_max) ? grow : blk_max;
        return HS_E_SIZE;
    }
    if (rc != HS_OK) { return rc; }
    rc = ws_measure(def, m, tmp, ntmp, tmp + used, ntmp - used, &b, &z);
    if ((rc == HS_E_SIZE) && (z.nTMP > ntmp - used)) {
        /* the exact scratch this configuration needs: the block list and the largest analysis */
        *nints = used + z.nTMP;
        return HS_E_SIZE;
    }
    if (rc != HS_OK) { return rc; }
    ws_totals(&z, nreals, nints);
    return HS_OK;
}

size_t hs_stepper_sizing_ints(const hs_model *m)
{
    if ((m == NULL) || (m->d.nq < 1) || (m->d.nc < 0)) {
        return 0u;
    }
    return HS_STEPPER_SIZING_INTS(m->d.nq, m->d.nc);
}

/* Per-constraint compliance c_i and relaxation time tau_i = c_i d_i into cmp, cdt: the def's
 * arrays, else the model's declaration (compliance(), negative = none), else the def's global
 * values (spook: its own epsilon when reg_eps is 0; its tau stays spook_tau_h where no damping
 * is declared).
 * HS_E_DEF_COMPLIANCE for a negative or non-finite value, or a compliant row in a family
 * configured for rigid rows only (index-1 Euler, dvp, em: hs_cfg.rigid). */
static int comp_params(hs_stepper *s, int rigid)
{
    const int nc = s->nc;
    const hs_stepper_def *d = &s->def;
    const hs_model *m = s->model;
    for (int i = 0; i < nc; ++i) {
        s->cmp[i] = HS_R(-1.0);
        s->cdt[i] = HS_R(-1.0);
    }
    if (m->type->compliance != NULL) {
        int rc = hs_model_rc(m->type->compliance(m, s->cmp, s->cdt));
        if (rc != (int)HS_OK) {
            return rc;
        }
    }
    /* spook: a global compliance given replaces its epsilon too, else its own default */
    const hs_real c0 = ((s->spook != 0) && !(d->reg_eps > HS_R(0.0))) ? d->spook_eps : d->reg_eps;
    int any = 0;
    for (int i = 0; i < nc; ++i) {
        hs_real c = (d->reg_eps_c != NULL) ? d->reg_eps_c[i] : s->cmp[i];
        hs_real b = (d->reg_damp_c != NULL) ? d->reg_damp_c[i] : s->cdt[i];
        /* NaN fails both tests below and is refused with the negatives */
        if (!(c >= HS_R(0.0)) && (d->reg_eps_c == NULL) && (hs_isfinite(c) != 0)) {
            c = c0;
        }
        if (!(b >= HS_R(0.0)) && (d->reg_damp_c == NULL) && (hs_isfinite(b) != 0)) {
            b = d->reg_damp;
        }
        if ((hs_isfinite(c) == 0) || !(c >= HS_R(0.0)) || (hs_isfinite(b) == 0) || !(b >= HS_R(0.0))
            || (hs_isfinite(c * b) == 0)) {
            return HS_E_DEF_COMPLIANCE;
        }
        s->cmp[i] = c;
        s->cdt[i] = c * b;
        if (c > HS_R(0.0)) {
            any = 1;
        }
    }
    if ((any != 0) && (s->spook == 0) && (rigid != 0)) {
        return HS_E_DEF_COMPLIANCE;
    }
    return HS_OK;
}

/* The multiplier blocks of the step matrix (K: -k_i, the row reads G x + k_i y = rhs in each
 * family's unknowns, k_i from its stage map: the family's reg_k, model/COMPLIANCE.md) and of
 * the projection matrix (P: +c_i/h^2, the same weight in the M-norm projection). Both make the
 * matrices quasi-definite, so redundant constraints factor. */
static void reg_params(hs_stepper *s, const hs_family *fam, int regK, int regP)
{
    const hs_blocks *b = &s->blocks;
    const hs_real h = s->def.h;
    hs_real *C = s->creg;
    for (int pass = 0; pass < 2; ++pass) {
        if ((pass == 0 ? regK : regP) == 0) { continue; }
        if (pass == 1) { s->cregP = C; }
        for (int k = 0; k < b->ncb; ++k) {
            for (int i = b->cb[k]; i < b->cb[k + 1]; ++i) {
                const hs_real c = s->cmp[i], tau = s->cdt[i];
                hs_real v;
                if (pass == 1) {
                    v = c / (h * h);
                } else if (fam->reg_k != NULL) {
                    v = fam->reg_k(s, c, tau);
                } else {
                    /* no family without reg_k asks for regK (hs_cfg.regK) */
                    v = HS_R(0.0);
                }
                for (int j = b->cb[k]; j < b->cb[k + 1]; ++j) { *C++ = i == j ? v : HS_R(0.0); }
            }
        }
    }
}

/* The common tail of every plan after the family's stages. */
int hs_plan_tail(const hs_stepper *s, unsigned char *plan, int n)
{
    const int nc = s->nc;
    if (s->nz > 0) {
        plan[n++] = HS_STAGE_AUX_STATES;
    }
    /* the free-body path keeps |p| = 1 itself: nothing to project */
    if ((s->def.stab == HS_STAB_PROJECTION) && (nc > 0) && (s->fb == 0)) {
        plan[n++] = HS_STAGE_PROJECT_POSITIONS;
        plan[n++] = HS_STAGE_PROJECT_VELOCITIES;
    }
    if (s->model->type->nk > 0) {
        plan[n++] = HS_STAGE_CONTACT;
    }
    if ((s->ggl != 0) && (nc > 0)) {
        plan[n++] = HS_STAGE_GGL_FACTOR;
    }
    plan[n++] = HS_STAGE_CHECK;
    if ((s->def.max_speed > HS_R(0.0)) || (s->def.max_energy_gain > HS_R(0.0))) {
        plan[n++] = HS_STAGE_WATCHDOG;
    }
    return n;
}

/* ---------------------------------------------------------------------------------------
 * Init, state, step. */

hs_status hs_stepper_set_state(hs_stepper *s, hs_real t, const hs_real *q, const hs_real *u,
                         const hs_real *z)
{
    if (s == NULL || s->model == NULL || q == NULL || u == NULL || (s->nz > 0 && z == NULL)) { return HS_E_NULL; }
    if (hs_isfinite(t) == 0 || hs_all_finite(q, s->nq) == 0 || hs_all_finite(u, s->nq) == 0
        || (s->nz > 0 && hs_all_finite(z, s->nz) == 0)) {
        return HS_E_STATE;
    }
    /* Build the cached factorization into the "new" buffers first: a failure leaves the
     * stepper as it was. */
    if (s->keep_p != 0 || s->consistent != 0) {
        hs_status rc = hs_projection_factor(s, t, q, s->M, s->G, NULL, &s->fPn);
        if (rc != HS_OK) { return rc; }
        if (s->consistent != 0) {
            /* consistent acceleration and multipliers at (t, q, u), zero inputs:
             * [[M, G^T], [G, 0]] (w, -lambda) = (f, -gamma) */
            const int nq = s->nq, nc = s->nc;
            for (int i = 0; i < s->nin; ++i) { s->in0[i] = HS_R(0.0); }
            rc = hs_model_rc(s->model->type->force(s->model, t, q, u, z, s->in0, s->f));
            if (rc != HS_OK) { return rc; }
            if (nc > 0) {
                rc = hs_model_rc(s->model->type->gamma(s->model, t, q, u, s->gam));
                if (rc != HS_OK) { return rc; }
            }
            for (int i = 0; i < nq; ++i) { s->b2[i] = s->f[i]; }
            for (int i = 0; i < nc; ++i) { s->b2[nq + i] = -s->gam[i]; }
            hs_linsys_solve(&s->lsP, &s->fPn, s->b2);
            if (hs_all_finite(s->b2, s->n) == 0) { return HS_E_NONFINITE; }
        }
        if (s->keep_p != 0) {
            hs_ls_fac tf = s->fP; s->fP = s->fPn; s->fPn = tf;
            hs_real *tp = s->P; s->P = s->Pn; s->Pn = tp;
            int *ti = s->Pp; s->Pp = s->Ppn; s->Ppn = ti;
        }
    }
    hs_real E0 = HS_R(0.0);
    if (s->def.max_energy_gain > HS_R(0.0)) {
        hs_status rc = hs_model_rc(s->model->type->energy(s->model, t, q, u, z, &E0));
        if (rc != HS_OK) { return rc; }
    }
    for (int i = 0; i < s->nq; ++i) { s->q[i] = q[i]; s->u[i] = u[i]; }
    for (int i = 0; i < s->nz; ++i) { s->z[i] = z[i]; }
    /* a new state has no contact history: the warm start starts from zero impulses */
    for (int i = 0; i < s->model->type->nk; ++i) { s->ctl[i] = HS_R(0.0); s->cta[i] = HS_R(0.0); }
    s->stats.ct_residual = HS_R(0.0);
    s->stats.ct_residual_max = HS_R(0.0);
    s->stats.ct_sunk = HS_R(0.0);
    s->stats.ct_sunk_max = HS_R(0.0);
    s->stats.err_step = HS_R(0.0);
    s->stats.err_est = HS_R(0.0);
    s->err_qmax = HS_R(0.0);
    s->stats.err_sum = HS_R(0.0);
    s->stats.err_glob = HS_R(0.0);
    s->stats.err_win = HS_R(0.0);
    for (int i = 0; i < HS_ERR_NBK; ++i) { s->err_bk[i] = HS_R(0.0); }
    s->err_bi = 0;
    s->err_bn = 0;
    {
        const hs_real nb = HS_ERR_HORIZON / ((hs_real)HS_ERR_NBK * s->def.h);
        s->err_bsteps = (nb >= HS_R(1.0)) ? (long)nb : 1L;
    }
    for (int i = 0; i < s->nq; ++i) { s->up[i] = u[i]; }
    const int consistent = s->consistent;
    for (int i = 0; i < s->nc; ++i) { s->lambda[i] = consistent ? -s->b2[s->nq + i] : HS_R(0.0); }
    if (consistent != 0) {
        for (int i = 0; i < s->nq; ++i) { s->wd[i] = s->b2[i]; s->acc[i] = s->b2[i]; }
        if (s->sdirk != 0) {
            const hs_status qrc = hs_model_rc(hs_sd_quat_init(s));
            if (qrc != HS_OK) { return qrc; }
        }
    }
    s->E0 = E0;
    {
        /* the methods' range checks measure corrections against the model's size */
        hs_real qm = HS_R(0.0);
        for (int i = 0; i < s->nq; ++i) {
            qm = (hs_abs(q[i]) > qm) ? hs_abs(q[i]) : qm;
        }
        s->sd_scale = s->def.h * s->def.h / (HS_R(1.0) + qm);
        s->sd_lim = HS_SD_RANGE / s->sd_scale;
        s->sd_floor = HS_EPS * (HS_R(1.0) + qm);
        s->sd_na = HS_R(0.0);
        s->sd_dq = HS_R(0.0);
        s->sd_first = HS_R(0.0);
        s->sd_prev = HS_R(0.0);
        s->sd_dc = HS_R(0.0);
        s->err_umax = HS_R(0.0);
        s->pp_lim = HS_PP_RANGE * (HS_R(1.0) + qm);
    }
    s->t = t;
    s->t0 = t;
    s->k = 0;
    return HS_OK;
}

/* The unilateral rows a model declares (rt/hs_contact.h): hook, sweeps, and every index the
 * stage reads in range, so a bad table is refused here and not read out of bounds later. */
static int contact_rows_check(const hs_model_type *T, int nq)
{
    if (T->nk <= 0) { return (T->nk == 0) ? HS_OK : HS_E_MODEL_PARAM; }
    if (T->unilateral == NULL || T->ct_rows == NULL || T->ct_sweeps < 0) { return HS_E_MODEL_PARAM; }
    for (int i = 0; i < T->nk; ++i) {
        const hs_ct_row *R = &T->ct_rows[i];
        /* a range is all of q (q1 = 0) or inside it: the stage reads it without checks */
        if (R->q1 != 0 && (R->q0 < 0 || R->q0 >= R->q1 || R->q1 > nq)) { return HS_E_MODEL_PARAM; }
        if (R->kind == HS_CT_FRICTION) {
            const int last = R->normal + (R->ngroup - 1) * R->stride;
            if (R->normal < 0 || R->ngroup < 1 || R->stride < 1 || last >= T->nk
                || !(R->mu >= HS_R(0.0))) { return HS_E_MODEL_PARAM; }
        } else if (R->kind != HS_CT_NORMAL || !(R->e >= HS_R(0.0)) || !(R->e <= HS_R(1.0))) {
            return HS_E_MODEL_PARAM;
        } else {
            /* a valid normal row */
        }
    }
    return HS_OK;
}

/* The motion bound at the state (t, q, u) against the def's range, for a method whose row
 * asks for it (HS_MF_RANGE: sdirk, whose one Newton step per stage is what diverges past it,
 * rt/METHODS.md "Where a method stops"). */
static int range_at(const hs_stepper_def *def, const hs_model *m, hs_real t, const hs_real *q,
                    const hs_real *u, hs_real *h_omega, int *degenerate, int *who)
{
    hs_real w = HS_R(0.0);
    int dg = 0;
    *h_omega = HS_R(0.0);
    *degenerate = 0;
    *who = HS_WHO_NONE;
    if (m->type->motion != NULL) {
        const int rc = hs_model_rc(m->type->motion(m, t, q, u, &w, &dg, who));
        if (rc != 0) {
            return rc;
        }
        if ((hs_isfinite(w) == 0) || (w < HS_R(0.0))) {
            return HS_E_MODEL;
        }
        *h_omega = def->h * w;
        if (dg != 0) {
            *degenerate = 1;
        }
    }
    if (((hs_method_flags(def->method) & HS_MF_RANGE) == 0u) || !(def->max_h_omega > HS_R(0.0))) {
        return HS_OK;
    }
    if (*degenerate != 0) {
        return HS_E_RANGE_DEGENERATE;
    }
    return (*h_omega > def->max_h_omega) ? HS_E_RANGE_INIT : HS_OK;
}

hs_status hs_stepper_range_who(const hs_stepper_def *def, const hs_model *m, hs_real t, const hs_real *q,
                               const hs_real *u, hs_real *h_omega, int *degenerate, int *who)
{
    if ((def == NULL) || (m == NULL) || (m->type == NULL) || (q == NULL) || (u == NULL)
        || (h_omega == NULL) || (degenerate == NULL) || (who == NULL)) {
        return HS_E_NULL;
    }
    const int rc = hs_stepper_def_validate(def, m);
    if (rc != 0) {
        return rc;
    }
    return range_at(def, m, t, q, u, h_omega, degenerate, who);
}

hs_status hs_stepper_range(const hs_stepper_def *def, const hs_model *m, hs_real t, const hs_real *q,
                     const hs_real *u, hs_real *h_omega, int *degenerate)
{
    int who = HS_WHO_NONE;
    return hs_stepper_range_who(def, m, t, q, u, h_omega, degenerate, &who);
}

/* Init's copy of the configuration c (of def and m, for family fam, sizes z) into st. */
static void init_config(hs_stepper *st, const hs_stepper_def *def, const hs_model *m, const hs_cfg *c,
                        const hs_family *fam, const ws_sizes *z)
{
    st->def = *def;
    st->model = m;
    st->nq = m->d.nq; st->nc = m->d.nc; st->nz = m->d.nz; st->nin = m->d.nin; st->n = st->nq + st->nc;
    st->ready = 0;
    st->index2 = c->index2; st->ggl = c->ggl; st->velfirst = c->velfirst; st->two_stage = c->two_stage;
    st->keep_p = c->keep_p; st->use_jac = c->use_jac; st->analytic = c->analytic;
    st->cu = c->cu; st->cq = c->cq;
    st->spook = c->spook;
    st->curv = c->curv; st->curv_fd = c->curv_fd; st->galpha = c->galpha; st->sdirk = c->sdirk;
    st->fb = c->fb;
    st->consistent = c->consistent;
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    st->ctfb = (z->nKF > 0u) ? 1 : 0;
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    st->ctcg = ((st->ctfb != 0) && (hs_contact_fb_pairs(m) != 0)) ? 1 : 0;
    st->ctpo = 0;
    /* ct_sweeps 0: the stage's own count (its order and correction set what it needs) */
    st->ctns = (m->type->ct_sweeps > 0) ? m->type->ct_sweeps
                                        : ((st->ctfb != 0) ? HS_CT_SWEEPS_FB : HS_CT_SWEEPS_GEN);
    st->mflags = c->mflags;
    st->fam = fam;
    baumgarte_of(def, &st->alpha, &st->beta);
    st->E0 = HS_R(0.0);
    st->sd_qoff = NULL;
    st->sd_nquat = 0;
}

/* Init's binding of the arrays of the list to the arenas (need_r reals, need_i ints, sizes z),
 * cleared first except the block list at ints[0..nBLK); HS_E_SIZE when the layout and the
 * totals disagree. */
static hs_status init_arenas(hs_stepper *st, const ws_sizes *z, hs_real *reals, size_t need_r, int *ints,
                             size_t need_i)
{
    for (size_t i = 0; i < need_r; ++i) { reals[i] = HS_R(0.0); }
    for (size_t i = z->nBLK; i < need_i; ++i) { ints[i] = 0; }
    hs_real *w = reals;
    int *wi = ints;
/* MISRA Ref 20.7.1 [X-macro parameter is an identifier] */
#define HS__WS_RBIND(name, count, what) st->name = w; w += (count);
/* MISRA Ref 20.7.1 [X-macro parameter is an identifier] */
#define HS__WS_IBIND(name, count, what) st->name = wi; wi += (count);
    WS_REAL_LIST(HS__WS_RBIND, WS_REAL_ARGS(*z))
    WS_INT_LIST(HS__WS_IBIND, WS_INT_ARGS(*z))
#undef HS__WS_RBIND
#undef HS__WS_IBIND
    /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
    if ((size_t)(w - reals) != need_r || (size_t)(wi - ints) != need_i) { return HS_E_SIZE; }
    return HS_OK;
}

/* Init's last part: counters cleared, the model's initial state at t0 set (through the
 * new-state buffers, so set_state copies it in) and the method's range checked there. */
static hs_status init_state(hs_stepper *st, hs_real t0)
{
    const hs_model *m = st->model;
    st->stats.steps = 0; st->stats.faults = 0; st->stats.last_fault = 0;
    st->stats.force_evals = 0; st->stats.factorizations = 0;
    st->stats.range_hw = HS_R(0.0); st->stats.range_body = -1;
    st->t = t0; st->t0 = t0; st->k = 0;
    hs_status rc = hs_model_rc(m->type->initial(m, t0, st->qn, st->un, st->zn));
    if (rc != HS_OK) { return rc; }
    /* after initial(): a generated type's hook reads the tables check() or initial() bound */
    rc = err_groups_bind(st, m);
    if (rc != HS_OK) { return rc; }
    rc = hs_stepper_set_state(st, t0, st->qn, st->un, st->zn);
    if (rc != HS_OK) { return rc; }
    /* before the first step: a motion the method cannot follow is refused here, with its
     * reason, instead of turning into a refused step (or worse) mid-run */
    hs_real how = HS_R(0.0);
    int dg = 0, who = HS_WHO_NONE;
    return range_at(&st->def, m, t0, st->q, st->u, &how, &dg, &who);
}

hs_status hs_stepper_init(hs_stepper *s, const hs_stepper_def *def, const hs_model *m, hs_real t0,
                    hs_real *reals, size_t nreals, int *ints, size_t nints)
{
    if (s == NULL || def == NULL || m == NULL || reals == NULL || ints == NULL) { return HS_E_NULL; }
    hs_status rc = hs_stepper_def_validate(def, m);
    if (rc != HS_OK) { return rc; }
    rc = hs_model_check(m);
    if (rc != HS_OK) { return rc; }
    rc = contact_rows_check(m->type, m->d.nq);
    if (rc != HS_OK) { return rc; }
    /* Measure in the caller's int arena: the block list lands at the front, where the layout
     * puts it (blk is the first int array); the analyses' size queries use the rest. */
    hs_blocks b;
    ws_sizes z;
    size_t used = 0;
    rc = model_blocks(m, &b, ints, nints, &used);
    if (rc != HS_OK) { return rc; }
    /* blocks() may ask for more room than the list it writes (hs_rods' bound): offer it the
     * whole arena again; it writes ints[0..used) before the size queries use the rest */
    rc = ws_measure(def, m, ints, nints, ints + used, nints - used, &b, &z);
    if (rc != HS_OK) { return rc; }
    size_t need_r, need_i;
    ws_totals(&z, &need_r, &need_i);
    if (nreals < need_r || nints < need_i) { return HS_E_SIZE; }

    static const hs_stepper zero_stepper;
    hs_stepper st = zero_stepper;
    const hs_cfg c = config_of(def, m);
    const hs_family *fam = hs_step_family(def, m);
    init_config(&st, def, m, &c, fam, &z);
    rc = init_arenas(&st, &z, reals, need_r, ints, need_i);
    if (rc != HS_OK) { return rc; }
    st.blocks = b; /* points into ints[0..nBLK) = st.blk */
    const int symK = (int)((c.spook != 0) || (c.symK != 0));
    sys_masks ms;
    rc = masks_of(m, &st.blocks, z.kind, &c, st.tmp, z.nTMP, 0, &ms);
    if (rc != HS_OK) { return rc; }
    const size_t nmask = ms.used;
    const int *qm = ms.qm, *cm = ms.cm, *qp = ms.qp, *lf = ms.lf;
    int *const tmp1 = st.tmp + nmask;
    const size_t ntmp1 = z.nTMP - nmask;
    hs_linsys_def ld = hs_linsys_default_def();
    ld.kind = z.kind; ld.be = def->sparse; ld.b = &st.blocks; ld.qmask = qm; ld.cmask = cm; ld.cleaf = lf;
    ld.nq = st.nq; ld.nc = st.nc; ld.sign = -1; ld.reg = c.regK; ld.symmetric = symK;
    rc = hs_linsys_init(&st.lsK, &ld, st.symK, z.nSK, tmp1, ntmp1);
    if (rc != HS_OK) { return rc; }
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    st.lsK.ldlt = ((z.kind == HS_LS_DENSE) && (c.ldltK != 0)) ? 1 : 0;
    hs_linsys_fac_bind(&st.lsK, &st.fK, st.K, st.Kp);
    st.comp = c.comp;
    if (c.comp != 0) {
        rc = comp_params(&st, c.rigid);
        if (rc != HS_OK) {
            return rc;
        }
    }
    if (c.two_stage != 0) {
        ld.cmask = NULL; ld.nc = 0; ld.sign = 1; ld.reg = 0; ld.symmetric = 0;
        rc = hs_linsys_init(&st.ls1, &ld, st.sym1, z.nS1, tmp1, ntmp1);
        if (rc != HS_OK) { return rc; }
        hs_linsys_fac_bind(&st.ls1, &st.f1, st.K1, st.K1p);
    } else {
        st.ls1 = st.lsK;
        st.f1 = st.fK;
    }
    if (c.have_p != 0) {
        ld.qmask = qp; ld.cmask = cm; ld.nc = st.nc; ld.sign = 1; ld.reg = c.regP; ld.symmetric = 1;
        rc = hs_linsys_init(&st.lsP, &ld, st.symP, z.nSP, tmp1, ntmp1);
        if (rc != HS_OK) { return rc; }
        /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
        st.lsP.ldlt = ((z.kind == HS_LS_DENSE) && (c.ldltP != 0)) ? 1 : 0;
        hs_linsys_fac_bind(&st.lsP, &st.fP, st.P, st.Pp);
        hs_linsys_fac_bind(&st.lsP, &st.fPn, st.Pn, st.Ppn);
    } else {
        st.lsP = st.lsK;
        st.fP = st.fPn = st.fK;
    }
    st.t = t0; st.t0 = t0; st.k = 0;
    if (fam->setup != NULL) {
        rc = fam->setup(&st);
        if (rc != HS_OK) {
            return rc;
        }
    }
    if (c.spook == 0 && (c.regK != 0 || c.regP != 0)) { reg_params(&st, fam, c.regK, c.regP); }
    st.nplan = hs_plan_tail(&st, st.plan, fam->plan(&st, st.plan));
    rc = init_state(&st, t0);
    if (rc != HS_OK) { return rc; }
    st.ready = 1;
    *s = st;
    return HS_OK;
}

/* The global estimate's window: le (units of q) into the running sum err_win and its span's
 * part; when the span is full the oldest span's part leaves the sum (O(1) per step). err_glob
 * keeps the largest sum of the run: the plain scaled sum while the run is shorter than
 * HS_ERR_HORIZON (the same additions in the same order). */
static void err_window(hs_stepper *s, hs_real le)
{
    s->stats.err_win += le;
    s->err_bk[s->err_bi] += le;
    s->err_bn += 1L;
    s->stats.err_glob = (s->stats.err_win > s->stats.err_glob) ? s->stats.err_win : s->stats.err_glob;
    if (s->err_bn >= s->err_bsteps) {
        s->err_bn = 0L;
        s->err_bi = (s->err_bi + 1) % HS_ERR_NBK;
        /* the span about to be reused is the oldest: its part leaves the window */
        const hs_real w = s->stats.err_win - s->err_bk[s->err_bi];
        s->stats.err_win = (w > HS_R(0.0)) ? w : HS_R(0.0);
        s->err_bk[s->err_bi] = HS_R(0.0);
    }
}

/* The step's error estimate (rt/METHODS.md "The error estimate"): the local position error
 * of the family's order p and constant c from the velocities the step leaves, at a fixed
 * cost of 2 nq (p = 1) or 3 nq (p = 2) subtractions and one pass over q; no model call; the
 * larger of that and the position projection's |dq|_inf (s->err_proj, 0 without one); and
 * the global estimate err_glob from |u_{n+1}|_inf of the same pass. */
static void error_estimate(hs_stepper *s, const hs_family *fam, hs_real h)
{
    hs_real d = HS_R(0.0);
    hs_real um = HS_R(0.0); /* |u_{n+1}|_inf, in the same pass: the global estimate's speed */
    hs_real *dv = s->v1;    /* the signed difference, for the metric (v1: the step's scratch) */
    if (fam->err_order == 1) {
        for (int i = 0; i < s->nq; ++i) {
            const hs_real v = s->un[i] - s->u[i];
            const hs_real a = hs_abs(v), b = hs_abs(s->un[i]);
            dv[i] = v;
            d = (a > d) ? a : d;
            um = (b > um) ? b : um;
        }
    } else if (s->k > 0u) {
        for (int i = 0; i < s->nq; ++i) {
            const hs_real v = (s->un[i] - s->u[i]) - (s->u[i] - s->up[i]);
            const hs_real a = hs_abs(v), b = hs_abs(s->un[i]);
            dv[i] = v;
            d = (a > d) ? a : d;
            um = (b > um) ? b : um;
        }
    } else {
        /* no u_{n-1} after init/set_state: the first step of a second-order family adds 0 */
        for (int i = 0; i < s->nq; ++i) {
            const hs_real b = hs_abs(s->un[i]);
            um = (b > um) ? b : um;
        }
    }
    /* the same difference in the error metric: a body's position error at its points */
    hs_real dm = d;
    if ((s->err_ngrp > 0) && ((fam->err_order == 1) || (s->k > 0u))) {
        dm = hs_err_metric(s, dv, s->qn);
    }
    hs_real le = fam->err_c * h * dm;
    hs_real lq = fam->err_c * h * d;
    /* the projection's correction is the step's measured drift off the joints, a part of its
     * local error the velocities do not show (a step too long for the motion: Andrews' mechanism) */
    le = (s->err_proj > le) ? s->err_proj : le;
    lq = (s->err_proj_q > lq) ? s->err_proj_q : lq;
    /* the contact stage's residual (0 without one) is a velocity its sweeps left unresolved
     * on a row; over the step it moves the row h times that (model/CONTACT.md "When the
     * budget is short") */
    const hs_real lc = h * s->stats.ct_residual;
    le = (lc > le) ? lc : le;
    lq = (lc > lq) ? lc : lq;
    /* and a body sunk into another beyond its rows' compliance is a position error of that
     * depth (m): a stage that lets one box pass through another is not accurate, whatever its
     * residual says (model/CONTACT.md "Passing through") */
    le = (s->stats.ct_sunk > le) ? s->stats.ct_sunk : le;
    lq = (s->stats.ct_sunk > lq) ? s->stats.ct_sunk : lq;
    s->err_qmax = (lq > s->err_qmax) ? lq : s->err_qmax;
    s->stats.err_step = le;
    s->stats.err_sum += le;
    s->stats.err_est = (le > s->stats.err_est) ? le : s->stats.err_est;
    /* the global estimate: a local error along the motion is a time shift le / |u|, which
     * the motion shows later at its speed then; the running largest speed scales the sum of
     * the earlier ones up as the motion speeds up (Andrews' mechanism: from rest to 1400
     * rad/s in 0.03 s) and leaves it the plain sum on a motion that keeps its speed */
    if (um > s->err_umax) {
        if (s->err_umax > HS_R(0.0)) {
            const hs_real f = um / s->err_umax;
            s->stats.err_win *= f;
            for (int i = 0; i < HS_ERR_NBK; ++i) { s->err_bk[i] *= f; }
        }
        s->err_umax = um;
    }
    err_window(s, le);
}

static void commit(hs_stepper *s, hs_real t1)
{
    /* swap the new buffers in (O(1), the step is transactional up to here) */
    hs_real *tp;
    tp = s->q; s->q = s->qn; s->qn = tp;
    /* u_{n-1} <- u_n <- u_{n+1}; the oldest buffer becomes the next step's scratch */
    tp = s->up; s->up = s->u; s->u = s->un; s->un = tp;
    tp = s->z; s->z = s->zn; s->zn = tp;
    tp = s->lambda; s->lambda = s->lamn; s->lamn = tp;
    tp = s->ctl; s->ctl = s->ctln; s->ctln = tp;
    tp = s->cta; s->cta = s->ctan; s->ctan = tp;
    if (s->consistent != 0) {
        tp = s->acc; s->acc = s->accn; s->accn = tp;
        tp = s->wd; s->wd = s->wdn; s->wdn = tp;
    }
    if (s->keep_p != 0) {
        hs_ls_fac tf = s->fP; s->fP = s->fPn; s->fPn = tf;
        tp = s->P; s->P = s->Pn; s->Pn = tp;
        int *ti = s->Pp; s->Pp = s->Ppn; s->Ppn = ti;
    }
    s->k++;
    s->t = t1;
}

hs_status hs_stepper_step(hs_stepper *s, const hs_real *in)
{
    if (s == NULL) { return HS_E_NULL; }
    if (s->ready == 0) { return HS_E_NOT_INIT; }
    hs_status rc = HS_OK;
    if (s->nin > 0 && in == NULL) { rc = HS_E_NULL; }
    else if (s->nin > 0 && hs_all_finite(in, s->nin) == 0) { rc = HS_E_INPUT; }
    else {
        hs_ctx c;
        c.in = in;
        c.h = s->def.h;
        c.t = s->t;
        /* the step count below 2^32 through 32 bits: the same value converted (the same
         * bits), where the boards have an instruction for it; a 64-bit count's conversion is
         * a libgcc call there (the M7: __aeabi_ul2d, __floatdidf, __adddf3, 41 instructions
         * a step) */
        const uint64_t k1 = s->k + 1u;
        const hs_real kr = (k1 <= (uint64_t)UINT32_MAX) ? (hs_real)(uint32_t)k1 : (hs_real)k1;
        c.t1 = s->t0 + kr * c.h;
        c.have_fq = 0;
        c.a1 = c.a2 = HS_R(0.0);
        const hs_family *fam = (const hs_family *)s->fam;
        s->err_proj = HS_R(0.0);
        s->err_proj_q = HS_R(0.0);
        rc = fam->step(s, &c);
        if (rc == HS_OK) {
            error_estimate(s, fam, c.h);
            commit(s, c.t1);
        }
    }
    if (rc != HS_OK) {
        s->stats.faults++;
        s->stats.last_fault = rc;
        return rc;
    }
    s->stats.steps++;
    return HS_OK;
}

hs_status hs_stepper_residual(const hs_stepper *s, hs_real *g)
{
    if (s == NULL || g == NULL) { return HS_E_NULL; }
    if (s->ready == 0) { return HS_E_NOT_INIT; }
    if (s->nc == 0) { return HS_OK; }
    return hs_model_rc(s->model->type->constraint(s->model, s->t, s->q, g, NULL, NULL));
}

hs_status hs_stepper_outputs(const hs_stepper *s, const hs_real *in, hs_real *y)
{
    if (s == NULL || y == NULL) { return HS_E_NULL; }
    if (s->ready == 0) { return HS_E_NOT_INIT; }
    if (s->model->type->output == NULL) { return HS_OK; }
    return hs_model_rc(s->model->type->output(s->model, s->t, s->q, s->u, s->z, in, y));
}

uint64_t hs_stepper_hash(const hs_stepper *s, uint64_t h)
{
    h = hs_hash_reals(h, s->q, s->nq);
    h = hs_hash_reals(h, s->u, s->nq);
    return hs_hash_reals(h, s->z, s->nz);
}

