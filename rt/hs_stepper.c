/* hs_stepper.c - fixed-cost partitioned linear-implicit Euler stepper (seed 004), as a plan of
 * named stages chosen once at init (MuJoCo's mj_step, Box2D's solver stages). */
#include "hs_stepper.h"
#include "hs_sparse.h"
#include "hs_dense.h"
#include "hs_hash.h"
#include "hs_dvp.h"

const char *hs_status_str(int status)
{
    switch (status) {
    case HS_OK: return "ok";
    case HS_E_DEF_H: return "step size h must be finite and > 0";
    case HS_E_DEF_METHOD: return "unknown method";
    case HS_E_DEF_FORM: return "unknown formulation, or GGL combined with a stabilization or a velocities-first method, or index-1 with jk/jkexact";
    case HS_E_DEF_STAB: return "unknown stabilization";
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
    case HS_E_DEF_WATCHDOG: return "watchdog bounds must be finite and >= 0 (0 = off); an energy bound needs a model with energy()";
    case HS_E_IMPLAUSIBLE: return "step refused by the plausibility watchdog (|u| or energy growth beyond the def's bounds)";
    case HS_E_DEF_DVP: return "dvp needs --form index2, --stab none (it solves g(q_{n+1}) = 0 itself) and reg_eps = 0";
    case HS_E_DVP_RESIDUAL: return "dvp: discrete Euler-Lagrange residual not small after the fixed Newton iterations (step too large)";
    default: return "unknown status";
    }
}

const char *hs_method_name(hs_method m)
{
    static const char *const names[HS_METHOD_COUNT] = {"explicit", "symplectic", "j1", "j2", "j3", "jexact",
                                                           "spook", "jk", "jkexact", "galpha", "sdirk", "dvp"};
    return ((int)m >= 0 && (int)m < HS_METHOD_COUNT) ? names[m] : "?";
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
    static const char *const names[HS_STAGE_COUNT] = {
        "eval_forces", "jacobians", "rhs", "predict", "constraints", "assemble", "solve",
        "positions", "aux_states", "project_positions", "project_velocities", "ggl_factor",
        "curvature", "ga_predict", "ga_eval", "ga_solve", "check", "spook_rhs", "watchdog", "sd_stage1",
        "sd_stage2", "sd_combine", "dvp"};
    /* MISRA Ref 10.4.1 [int code vs the enumerator naming it] */
    return ((int)st >= 0 && (int)st < HS_STAGE_COUNT) ? names[st] : "?";
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
    /* seed 000 sec. 6: "good defaults for a wide range of problems" */
    d.spook_eps = HS_R(1.0e-8);
    d.spook_tau_h = HS_R(2.0);
    d.spook_eps_c = NULL;
    d.spook_tau_h_c = NULL;
    d.reg_eps = HS_R(0.0);
    d.linsys = HS_LS_AUTO;
    d.sparse = &hs_sparse_backend; /* used where hs_linsys_choose finds it cheaper */
    d.rho_inf = HS_GALPHA_RHO_DEFAULT;
    d.sd_gamma = HS_SDIRK_GAMMA_DEFAULT;
    d.max_speed = HS_R(0.0);
    d.max_energy_gain = HS_R(0.0);
    return d;
}

static int method_curvature(hs_method m)
{
    return m == HS_METHOD_JK || m == HS_METHOD_JKEXACT || m == HS_METHOD_GALPHA || m == HS_METHOD_SDIRK;
}

static int method_needs_full_jac(hs_method m)
{
    return m == HS_METHOD_J1 || m == HS_METHOD_J2 || m == HS_METHOD_JEXACT || method_curvature(m);
}

static int method_velocity_first(hs_method m)
{
    return m == HS_METHOD_SYMPLECTIC || m == HS_METHOD_JEXACT || m == HS_METHOD_JKEXACT
        || m == HS_METHOD_SPOOK;
}

static int method_linear_implicit(hs_method m)
{
    return m == HS_METHOD_J1 || m == HS_METHOD_J2 || m == HS_METHOD_J3 || m == HS_METHOD_JEXACT
        || m == HS_METHOD_JK || m == HS_METHOD_JKEXACT;
}

/* Baumgarte parameters in use: the def's, or 1/h and 1/h^2 where it says 0. */
static void baumgarte_of(const hs_stepper_def *def, hs_real *alpha, hs_real *beta)
{
    *alpha = def->alpha > HS_R(0.0) ? def->alpha : HS_R(1.0) / def->h;
    *beta = def->beta > HS_R(0.0) ? def->beta : (HS_R(1.0) / def->h) * (HS_R(1.0) / def->h);
}

int hs_stepper_def_validate(const hs_stepper_def *def, const hs_model *m)
{
    if (def == NULL || m == NULL || m->type == NULL) { return HS_E_NULL; }
    if (hs_isfinite(def->h) == 0 || !(def->h > HS_R(0.0))) { return HS_E_DEF_H; }
    if ((int)def->method < 0 || (int)def->method >= HS_METHOD_COUNT) { return HS_E_DEF_METHOD; }
    /* MISRA Ref 10.4.1 [int code vs the enumerator naming it] */
    if (hs_method_name(def->method)[0] == '?') { return HS_E_DEF_METHOD; /* a value not (yet) assigned */ }
    if (def->method == HS_METHOD_DVP
        && (def->form != HS_FORM_INDEX2 || def->stab != HS_STAB_NONE || def->reg_eps != HS_R(0.0))) {
        return HS_E_DEF_DVP;
    }
    if (def->form != HS_FORM_INDEX1 && def->form != HS_FORM_INDEX2 && def->form != HS_FORM_GGL) {
        return HS_E_DEF_FORM;
    }
    /* GGL stabilizes positions itself and needs q_{n+1} before u_{n+1} */
    if (def->form == HS_FORM_GGL && (def->stab != HS_STAB_NONE || method_velocity_first(def->method) != 0)) {
        return HS_E_DEF_FORM;
    }
    /* jk, jkexact linearize the velocity-level (index-2) step: in index-1's two-stage step the
     * multipliers come fresh from the acceleration level, and K_g at the previous ones only
     * adds drift (slider crank, 1 s unstabilized: max |g| 1.55) */
    if ((def->method == HS_METHOD_JK || def->method == HS_METHOD_JKEXACT) && def->form == HS_FORM_INDEX1) {
        return HS_E_DEF_FORM;
    }
    if (def->stab != HS_STAB_NONE && def->stab != HS_STAB_BAUMGARTE && def->stab != HS_STAB_PROJECTION) {
        return HS_E_DEF_STAB;
    }
    if (hs_isfinite(def->reg_eps) == 0 || !(def->reg_eps >= HS_R(0.0))) { return HS_E_DEF_SPOOK; }
    if (def->method == HS_METHOD_SPOOK) {
        /* eq. 29 is a velocity-level system with its own stabilization (tau) */
        if (def->form != HS_FORM_INDEX2) { return HS_E_DEF_FORM; }
        if (def->stab != HS_STAB_NONE) { return HS_E_DEF_STAB; }
        if (hs_isfinite(def->spook_eps) == 0 || !(def->spook_eps >= HS_R(0.0))
            || hs_isfinite(def->spook_tau_h) == 0 || !(def->spook_tau_h > HS_R(0.0))) {
            return HS_E_DEF_SPOOK;
        }
        for (int i = 0; i < m->d.nc; ++i) {
            if (def->spook_eps_c != NULL && (hs_isfinite(def->spook_eps_c[i]) == 0 || !(def->spook_eps_c[i] >= HS_R(0.0)))) {
                return HS_E_DEF_SPOOK;
            }
            if (def->spook_tau_h_c != NULL && (hs_isfinite(def->spook_tau_h_c[i]) == 0 || !(def->spook_tau_h_c[i] > HS_R(0.0)))) {
                return HS_E_DEF_SPOOK;
            }
        }
    }
    if (def->stab == HS_STAB_BAUMGARTE) {
        if (hs_isfinite(def->alpha) == 0 || def->alpha < HS_R(0.0)) { return HS_E_DEF_BAUMGARTE; }
        if (def->form == HS_FORM_INDEX1 && (hs_isfinite(def->beta) == 0 || def->beta < HS_R(0.0))) {
            return HS_E_DEF_BAUMGARTE;
        }
        /* galpha is index 3: its positions satisfy g = 0 up to the Newton step already;
         * sdirk's stages are acceleration-level and its drift is the projection's job */
        if (def->method == HS_METHOD_GALPHA || def->method == HS_METHOD_SDIRK) { return HS_E_DEF_BAUMGARTE; }
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
            const int vf = method_velocity_first(def->method);
            /* MISRA Ref 10.3.2 [hs_real selected by ?:] */
            const hs_real det = vf ? HS_R(1.0) - HS_R(2.0) * a : HS_R(1.0) - HS_R(2.0) * a + b;
            /* MISRA Ref 10.3.2 [hs_real selected by ?:] */
            const hs_real tr = vf ? HS_R(2.0) - HS_R(2.0) * a - b : HS_R(2.0) - HS_R(2.0) * a;
            if (!(det < HS_R(1.0) && det > HS_R(-1.0) && hs_abs(tr) < HS_R(1.0) + det)) {
                return HS_E_DEF_BAUMGARTE;
            }
        }
    }
    if (def->method == HS_METHOD_SDIRK
        && (hs_isfinite(def->sd_gamma) == 0 || def->sd_gamma < HS_R(0.25) || def->sd_gamma > HS_R(1.0)
            /* near 1/2 both stages sit at the midpoint and the predictors' lines degenerate */
            || hs_abs(HS_R(2.0) * def->sd_gamma - HS_R(1.0)) < HS_R(0.1) || def->form == HS_FORM_GGL)) {
        return HS_E_DEF_RHO;
    }
    if (def->method == HS_METHOD_GALPHA
        && (hs_isfinite(def->rho_inf) == 0 || def->rho_inf < HS_R(0.0) || def->rho_inf > HS_R(1.0)
            || def->form == HS_FORM_GGL)) {
        return HS_E_DEF_RHO;
    }
    if (hs_isfinite(def->max_speed) == 0 || def->max_speed < HS_R(0.0) || hs_isfinite(def->max_energy_gain) == 0
        || def->max_energy_gain < HS_R(0.0) || (def->max_energy_gain > HS_R(0.0) && m->type->energy == NULL)) {
        return HS_E_DEF_WATCHDOG;
    }
    if (def->jac != HS_JAC_AUTO && def->jac != HS_JAC_ANALYTIC && def->jac != HS_JAC_FD) { return HS_E_DEF_JAC; }
    if (def->jac == HS_JAC_ANALYTIC && m->type->force_jac == NULL) { return HS_E_DEF_JAC; }
    if (hs_isfinite(def->fd_rel) == 0 || !(def->fd_rel > HS_R(0.0))) { return HS_E_DEF_FD; }
    if (def->linsys != HS_LS_AUTO && def->linsys != HS_LS_DENSE && def->linsys != HS_LS_SPARSE) {
        return HS_E_DEF_LINSYS;
    }
    if (def->linsys == HS_LS_SPARSE && def->sparse == NULL) { return HS_E_DEF_LINSYS; }
    const hs_model_type *T = m->type;
    const hs_dims *d = &m->d;
    if (d->nq < 1 || d->nc < 0 || d->nc >= d->nq + 1 || d->nz < 0 || d->nin < 0 || d->nout < 0) {
        return HS_E_SIZE;
    }
    if (T->mass == NULL || T->force == NULL || T->initial == NULL) { return HS_E_NULL; }
    if (d->nc > 0 && (T->constraint == NULL || T->gamma == NULL)) { return HS_E_NULL; }
    if (d->nz > 0 && T->zdot == NULL) { return HS_E_NULL; }
    return HS_OK;
}


/* ---------------------------------------------------------------------------------------
 * Configuration: flags, sizes and the plan, all derived from def and the model instance. */

typedef struct cfg {
    int index2, ggl, velfirst, two_stage, keep_p, use_jac, analytic, has_blocks, spook;
    int curv, curv_fd, galpha, sdirk, have_p, dvp;
    int regK, regP; /* the step / projection matrix carries a multiplier block */
    hs_real cu, cq;
} cfg;

static cfg config_of(const hs_stepper_def *def, const hs_model *m)
{
    cfg c;
    const hs_method meth = def->method;
    const int nc = m->d.nc;
    c.ggl = def->form == HS_FORM_GGL;
    c.index2 = def->form == HS_FORM_INDEX2 || c.ggl;
    c.velfirst = method_velocity_first(meth);
    c.spook = meth == HS_METHOD_SPOOK && nc > 0;
    /* the factorization at q_n of eq. 11 is kept across steps by projection and GGL alike */
    c.keep_p = (def->stab == HS_STAB_PROJECTION || c.ggl) && nc > 0;
    /* reg_eps: velocity-level multipliers only (index-1's are accelerations' and keep C = 0) */
    c.regK = c.spook || (def->reg_eps > HS_R(0.0) && c.index2 && nc > 0 && meth != HS_METHOD_GALPHA
                         && meth != HS_METHOD_SDIRK);
    c.regP = def->reg_eps > HS_R(0.0) && c.keep_p;
    c.analytic = def->jac == HS_JAC_ANALYTIC || (def->jac == HS_JAC_AUTO && m->type->force_jac);
    c.use_jac = method_needs_full_jac(meth) || (meth == HS_METHOD_J3 && c.analytic);
    /* index-1 with a linear-implicit J takes the multipliers from the acceleration-level
     * system with M (sec. 3.1), then makes the step (3) with f + G^T lambda: two solves */
    c.two_stage = !c.index2 && nc > 0 && meth != HS_METHOD_EXPLICIT && meth != HS_METHOD_SYMPLECTIC;
    c.cu = HS_R(0.0);
    c.cq = HS_R(0.0);
    if (meth == HS_METHOD_J1) { c.cu = HS_R(1.0); }
    if (meth == HS_METHOD_J2 || meth == HS_METHOD_JEXACT || meth == HS_METHOD_JK
        || meth == HS_METHOD_JKEXACT) { c.cu = HS_R(1.0); c.cq = HS_R(1.0); }
    c.has_blocks = m->type->blocks != NULL;
    c.galpha = meth == HS_METHOD_GALPHA;
    c.sdirk = meth == HS_METHOD_SDIRK;
    c.curv = method_curvature(meth) && nc > 0;
    c.curv_fd = c.curv && !m->type->curvature;
    if (c.galpha != 0 || c.sdirk != 0) { c.two_stage = 0; }
    /* dvp (rt/hs_dvp.c): Newton with Jacobian blocks (fq, fu, d(M w)/dq in Kg), and the
     * [[M, G^T], [G, 0]] system at q_{n+1} taking momenta back to velocities */
    c.dvp = meth == HS_METHOD_DVP;
    if (c.dvp != 0) { c.use_jac = 1; c.two_stage = 0; }
    /* galpha and sdirk also factor [[M, G^T], [G, 0]] at init for the consistent acceleration */
    c.have_p = c.keep_p || c.galpha || c.sdirk || c.dvp;
    return c;
}

/* The model's block list into b (pointing into buf, nbuf ints); *used = ints it occupies. */
static int model_blocks(const hs_model *m, hs_blocks *b, int *buf, size_t nbuf, size_t *used)
{
    const int nb = nbuf > 0x7fffffffu ? 0x7fffffff : (int)nbuf;
    int rc = m->type->blocks ? hs_model_rc(m->type->blocks(m, b, buf, nb)) : hs_blocks_dense(&m->d, b, buf, nb);
    if (rc != 0) { return rc; }
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
        const int r = m->type->blocks ? m->type->blocks(m, &t, buf, mid) : hs_blocks_dense(&m->d, &t, buf, mid);
        /* MISRA Ref 10.4.1 [int code vs the enumerator naming it] */
        if (r == HS_OK) { hi = mid; } else { lo = mid + 1; }
    }
    rc = m->type->blocks ? hs_model_rc(m->type->blocks(m, b, buf, lo)) : hs_blocks_dense(&m->d, b, buf, lo);
    if (rc != 0) { return rc; }
    *used = (size_t)lo;
    return HS_OK;
}

/* Sizes of every list entry for one configuration. */
typedef struct ws_sizes {
    size_t nq, nc, nz, n, nA, nG, nAJ, nFK, nF1, nFP, nCC, nUP, nQA, nAK, nGK, nIN0, nCA;
    size_t nBLK, nIK, nI1, nIP, nSK, nS1, nSP, nTMP;
    hs_ls_kind kind;
} ws_sizes;

/* Everything about the sizes: blocks (into blk), backend choice and each system's needs. */
static int ws_measure(const hs_stepper_def *def, const hs_model *m, int *blk, size_t nblk,
                      int *tmp, size_t ntmp, hs_blocks *b, ws_sizes *z)
{
    const cfg c = config_of(def, m);
    size_t used = 0;
    int rc = model_blocks(m, b, blk, nblk, &used);
    if (rc != 0) { return rc; }
    const int nq = m->d.nq, nc = m->d.nc;
    /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
    z->nq = (size_t)nq; z->nc = (size_t)nc; z->nz = (size_t)m->d.nz; z->n = (size_t)(nq + nc);
    z->nA = (size_t)hs_blocks_qq_size(b);
    z->nG = nc > 0 ? (size_t)hs_blocks_cq_size(b) : 0u;
    z->nAJ = c.use_jac ? z->nA : 0u;
    z->nQA = (c.galpha || c.sdirk) ? z->nq : 0u;
    z->nCA = c.sdirk ? z->nc : 0u;
    z->nAK = (c.curv || c.dvp) ? z->nA : 0u;
    z->nGK = c.curv_fd ? z->nG : 0u;
    z->nIN0 = (c.galpha || c.sdirk) ? (size_t)m->d.nin : 0u;
    z->nBLK = used;
    z->kind = hs_linsys_choose(def->linsys, def->sparse, b, nq, nc, c.has_blocks);
    size_t ns, nr, ni, nt, tmax = 0;
    /* SPOOK's step matrix [[M, -G^T], [G, Sigma]] is regularized and symmetric (L D L^T) */
    /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
    z->nCC = nc > 0 ? (size_t)((c.regK ? 1 : 0) + (c.regP ? 1 : 0)) * (size_t)hs_blocks_cc_size(b) : 0u;
    z->nUP = c.spook ? (size_t)nc : 0u;
    rc = hs_linsys_need(z->kind, def->sparse, b, nq, nc, -1, c.regK, c.spook, tmp, ntmp, &ns, &nr, &ni, &nt);
    if (rc != 0) { return rc; }
    z->nSK = ns; z->nFK = nr; z->nIK = ni; tmax = nt;
    z->nS1 = z->nF1 = z->nI1 = 0;
    if (c.two_stage != 0) {
        rc = hs_linsys_need(z->kind, def->sparse, b, nq, 0, 1, 0, 0, tmp, ntmp, &ns, &nr, &ni, &nt);
        if (rc != 0) { return rc; }
        z->nS1 = ns; z->nF1 = nr; z->nI1 = ni; tmax = nt > tmax ? nt : tmax;
    }
    z->nSP = z->nFP = z->nIP = 0;
    if (c.have_p != 0) {
        rc = hs_linsys_need(z->kind, def->sparse, b, nq, nc, 1, c.regP, 1, tmp, ntmp, &ns, &nr, &ni, &nt);
        if (rc != 0) { return rc; }
        z->nSP = ns; z->nFP = nr; z->nIP = ni; tmax = nt > tmax ? nt : tmax;
    }
    z->nTMP = tmax;
    return HS_OK;
}

#define WS_REAL_ARGS(z) (z).nq, (z).nc, (z).nz, (z).n, (z).nA, (z).nG, (z).nAJ, (z).nFK, (z).nF1, \
    (z).nFP, (z).nCC, (z).nUP, (z).nQA, (z).nAK, (z).nGK, (z).nIN0, (z).nCA
#define WS_INT_ARGS(z) (z).nBLK, (z).nIK, (z).nI1, (z).nIP, (z).nSK, (z).nS1, (z).nSP, (z).nTMP
/* one level of indirection so the size lists are expanded into arguments first */
#define WS_REAL_LIST(X, ...) HS_STEPPER_REAL_LIST(X, __VA_ARGS__)
#define WS_INT_LIST(X, ...) HS_STEPPER_INT_LIST(X, __VA_ARGS__)

static void ws_totals(const ws_sizes *z, size_t *nreals, size_t *nints)
{
    *nreals = 0u WS_REAL_LIST(HS__WS_SUM, WS_REAL_ARGS(*z));
    *nints = 0u WS_INT_LIST(HS__WS_SUM, WS_INT_ARGS(*z));
}

int hs_stepper_workspace_tmp(const hs_stepper_def *def, const hs_model *m, int *tmp, size_t ntmp,
                             size_t *nreals, size_t *nints)
{
    if (def == NULL || m == NULL || m->type == NULL || nreals == NULL || nints == NULL || tmp == NULL) { return HS_E_NULL; }
    int rc = hs_stepper_def_validate(def, m);
    if (rc != 0) { return rc; }
    /* the block list takes the front of the scratch, the analyses' size queries the rest */
    hs_blocks b;
    ws_sizes z;
    size_t used = 0;
    rc = model_blocks(m, &b, tmp, ntmp, &used);
    if (rc != 0) { return rc; }
    rc = ws_measure(def, m, tmp, ntmp, tmp + used, ntmp - used, &b, &z);
    if (rc != 0) { return rc; }
    ws_totals(&z, nreals, nints);
    return HS_OK;
}

int hs_stepper_workspace(const hs_stepper_def *def, const hs_model *m, size_t *nreals, size_t *nints)
{
    int tmp[HS_STEPPER_SIZING_INTS];
    return hs_stepper_workspace_tmp(def, m, tmp, HS_STEPPER_SIZING_INTS, nreals, nints);
}

/* ---------------------------------------------------------------------------------------
 * Stages. Each takes the step's context; a fault returns its code and the stepper's
 * committed state is never written before commit. */

typedef struct ctx {
    const hs_real *in; /* inputs held over the step */
    hs_real t, t1, h;  /* t_n, t_{n+1}, step */
    int have_fq;       /* fq, fu hold this step's Jacobian blocks */
    hs_real a1, a2;    /* A = M - (a1 fu + a2 fq): h cu and h^2 cq */
} ctx;

/* Factor of the projection matrix [[M, G^T], [G, 0]] at (t, q) into F; M and G are
 * scratch, gt (nc) receives dg/dt there when not NULL (the velocity projection needs it). */
static int projection_factor(hs_stepper *s, hs_real t, const hs_real *q, hs_real *M, hs_real *G,
                             hs_real *gt, hs_ls_fac *F)
{
    const hs_model_type *T = s->model->type;
    int rc = hs_model_rc(T->mass(s->model, t, q, M));
    if (rc != 0) { return rc; }
    if (s->nc > 0) {
        rc = hs_model_rc(T->constraint(s->model, t, q, NULL, G, gt));
        if (rc != 0) { return rc; }
    }
    s->stats.factorizations++;
    return hs_linsys_factor(&s->lsP, F, M, HS_R(0.0), NULL, HS_R(0.0), NULL, G, G, s->cregP);
}

/* M (s->M) and f (s->f) at (t, q, u): the evaluation every method's step starts from. */
static inline int mass_force(hs_stepper *s, const ctx *c, hs_real t, const hs_real *q, const hs_real *u)
{
    const hs_model *m = s->model;
    int rc = hs_model_rc(m->type->mass(m, t, q, s->M));
    if (rc != 0) { return rc; }
    rc = hs_model_rc(m->type->force(m, t, q, u, s->z, c->in, s->f));
    s->stats.force_evals++;
    return rc;
}

/* mass_force with every value checked finite (sdirk checks its Newton update instead) */
static int mass_force_finite(hs_stepper *s, const ctx *c, hs_real t, const hs_real *q, const hs_real *u)
{
    int rc = mass_force(s, c, t, q, u);
    if (rc != 0) { return rc; }
    if (hs_all_finite(s->M, s->lsK.nA) == 0 || hs_all_finite(s->f, s->nq) == 0) { return HS_E_NONFINITE; }
    return HS_OK;
}

static int st_eval_forces(hs_stepper *s, ctx *c)
{
    return mass_force_finite(s, c, c->t, s->q, s->u);
}

/* Forward-difference Jacobian J (packed nq x nq) = d f / d x at (t, q, u) where x = q
 * (wrt_u = 0) or u (wrt_u = 1), s->f holding f there; exactly nq force evaluations. */
static int fd_jacobian(hs_stepper *s, ctx *c, hs_real t, const hs_real *q, const hs_real *u,
                       int wrt_u, hs_real *J)
{
    const hs_model_type *T = s->model->type;
    const int nq = s->nq;
    hs_real *x = s->qs;
    const hs_real *base = wrt_u ? u : q;
    for (int i = 0; i < nq; ++i) { x[i] = base[i]; }
    for (int j = 0; j < nq; ++j) {
        hs_real d = s->def.fd_rel * (HS_R(1.0) + hs_abs(base[j]));
        x[j] = base[j] + d;
        d = x[j] - base[j]; /* the increment actually represented */
        int rc = hs_model_rc(wrt_u ? T->force(s->model, t, q, x, s->z, c->in, s->f2)
                                : T->force(s->model, t, x, u, s->z, c->in, s->f2));
        s->stats.force_evals++;
        if (rc != 0) { return rc; }
        hs_blk_qq_set_column(&s->blocks, J, j, s->f2, s->f, d);
        x[j] = base[j];
    }
    return HS_OK;
}

/* fq and fu at (t, q, u): the model's, or differences. */
static int force_jacobians(hs_stepper *s, ctx *c, hs_real t, const hs_real *q, const hs_real *u)
{
    int rc;
    if (s->analytic != 0) { return hs_model_rc(s->model->type->force_jac(s->model, t, q, u, s->z, c->in, s->fq, s->fu)); }
    rc = fd_jacobian(s, c, t, q, u, 0, s->fq);
    if (rc != 0) { return rc; }
    return fd_jacobian(s, c, t, q, u, 1, s->fu);
}

/* Constraint curvature K_g = d(G(t, q)^T lam)/dq (packed) added into fq: the model's
 * curvature(), or nq + 1 evaluations of G differenced (fixed count). */
static int add_curvature(hs_stepper *s, hs_real t, const hs_real *q, const hs_real *lam)
{
    const hs_model *m = s->model;
    const int nq = s->nq, nA = s->lsK.nA;
    int rc;
    if (s->curv_fd == 0) {
        rc = hs_model_rc(m->type->curvature(m, t, q, lam, s->Kg));
        if (rc != 0) { return rc; }
    } else {
        rc = hs_model_rc(m->type->constraint(m, t, q, NULL, s->Gd, NULL));
        if (rc != 0) { return rc; }
        hs_blk_cq_mtv(&s->blocks, s->Gd, lam, s->v2);
        hs_real *x = s->qs;
        for (int i = 0; i < nq; ++i) { x[i] = q[i]; }
        for (int j = 0; j < nq; ++j) {
            hs_real d = s->def.fd_rel * (HS_R(1.0) + hs_abs(q[j]));
            x[j] = q[j] + d;
            d = x[j] - q[j];
            rc = hs_model_rc(m->type->constraint(m, t, x, NULL, s->Gd, NULL));
            if (rc != 0) { return rc; }
            hs_blk_cq_mtv(&s->blocks, s->Gd, lam, s->f2);
            hs_blk_qq_set_column(&s->blocks, s->Kg, j, s->f2, s->v2, d);
            x[j] = q[j];
        }
    }
    for (int k = 0; k < nA; ++k) { s->fq[k] += s->Kg[k]; }
    return HS_OK;
}

static int st_jacobians(hs_stepper *s, ctx *c)
{
    int rc = force_jacobians(s, c, c->t, s->q, s->u);
    if (rc != 0) { return rc; }
    c->have_fq = 1;
    return HS_OK;
}

/* jk, jkexact: the constraint forces' stiffness at the last multipliers joins fq, so A and
 * the h fq u_n term of the right-hand side both see it. */
static int st_curvature(hs_stepper *s, ctx *c)
{
    return add_curvature(s, c->t, s->q, s->lambda);
}

/* ---- generalized-alpha (Arnold & Bruls 2007, index 3), one Newton iteration ----
 * Unknowns at t_{n+1}: q, u, udot (w), lambda and the pseudo-acceleration a with
 *   q = q_n + h u_n + h^2 ((1/2 - beta) a_n + beta a),   u = u_n + h ((1 - gamma) a_n + gamma a),
 *   (1 - am) a + am a_n = (1 - af) w + af w_n,   M w = f + G^T lambda,   g(t_{n+1}, q) = 0.
 * Predictor w = w_n, lambda = lambda_n; one Newton step on q with the iteration matrix
 * S = beta' M - gamma' fu - (fq + K_g) (M's own q dependence left out: constant in every
 * shipped model), then u, w, a follow from dq (u += gamma' dq, w += beta' dq, a += dq/(beta h^2)). */
static int st_ga_predict(hs_stepper *s, ctx *c)
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
    for (int i = 0; i < nc; ++i) { s->lamn[i] = s->lambda[i]; }
    return HS_OK;
}

static int st_ga_eval(hs_stepper *s, ctx *c)
{
    const hs_model *m = s->model;
    int rc = mass_force_finite(s, c, c->t1, s->qn, s->un);
    if (rc != 0) { return rc; }
    rc = force_jacobians(s, c, c->t1, s->qn, s->un);
    if (rc != 0) { return rc; }
    if (s->nc == 0) { return HS_OK; }
    rc = add_curvature(s, c->t1, s->qn, s->lamn);
    if (rc != 0) { return rc; }
    /* g and G at the predictor: the constraint row of the Newton step */
    return hs_model_rc(m->type->constraint(m, c->t1, s->qn, s->c1, s->G, NULL));
}

static int st_ga_solve(hs_stepper *s, ctx *c)
{
    const int nq = s->nq, nc = s->nc;
    const hs_real bp = s->ga_bp, gp = s->ga_gp, ih2 = HS_R(1.0) / (s->ga_beta * c->h * c->h);
    /* residual r = M w - f - G^T lambda; row 1 of the Newton system divided by beta' */
    hs_blk_qq_mv(&s->blocks, s->M, s->wdn, s->v1);
    if (nc > 0) { hs_blk_cq_mtv(&s->blocks, s->G, s->lamn, s->v2); }
    for (int i = 0; i < nq; ++i) {
        const hs_real r = s->v1[i] - s->f[i] - (nc > 0 ? s->v2[i] : HS_R(0.0));
        s->b[i] = -r / bp;
    }
    for (int i = 0; i < nc; ++i) { s->b[nq + i] = -s->c1[i]; }
    s->stats.factorizations++;
    int rc = hs_linsys_factor(&s->lsK, &s->fK, s->M, gp / bp, s->fu, HS_R(1.0) / bp, s->fq, s->G,
                              s->G, NULL);
    if (rc != 0) { return rc; }
    hs_linsys_solve(&s->lsK, &s->fK, s->b);
    for (int i = 0; i < nq; ++i) {
        const hs_real dq = s->b[i];
        s->qn[i] += dq;
        s->un[i] += gp * dq;
        s->wdn[i] += bp * dq;
        s->accn[i] += ih2 * dq;
    }
    for (int i = 0; i < nc; ++i) { s->lamn[i] += bp * s->b[nq + i]; }
    return HS_OK;
}

/* ---- sdirk: two-stage SDIRK, linearly implicit ----
 * Butcher table [[g, 0], [1 - 2g, g]], b = (1/2, 1/2), c = (g, 1 - g), g = def.sd_gamma:
 * order 2 for every g, A-stable for g >= 1/4. g = 1/4 is the implicit midpoint rule applied
 * twice with h/2 (symplectic, |R(i w h)| = 1: no numerical damping, relative period error
 * (h w)^2/48); g = (3 + sqrt 3)/6 is third order with |R(inf)| = 0.73. Applied to the
 * underlying ODE q' = u, u' = A(t, q, u), where M A = f + G^T Lambda and G A = -gamma (index 1),
 * the stage values are U_i = u_n + h sum_j a_ij A_j and Q_i = q_n + h c_i u_n + h^2 sum_j (a^2)_ij A_j.
 * Each stage's (A_i, Lambda_i) gets ONE Newton step from an extrapolated predictor with the
 * matrix S = [[M - h g fu - h^2 g^2 (fq + K_g), -G^T], [G, 0]] factored once at stage 1's
 * predicted point: S differs from the stage Jacobian by O(h) and the predictors err by O(h^2),
 * so the stage accelerations err by O(h^3) and the order is kept. Why two stages: every
 * A-stable linear multistep method (generalized-alpha is one) has error constant >= 1/12
 * (Dahlquist); on the car axle's road-excited spring that phase error is twice semi-implicit
 * Euler's. Two half steps quarter it at the price of one more force evaluation and
 * back-substitution, not another factorization. */

/* b = (f + G^T Lam - M A, -(G A + gamma)): the stage residual with the signs of the step
 * system. Dense models (one block each way) in one pass over M and G: these are the small
 * systems where the calls and index work of the block products would be most of the cost. */
static void sd_residual(hs_stepper *s, const hs_real *A, const hs_real *Lam)
{
    const int nq = s->nq, nc = s->nc;
    const hs_blocks *b = &s->blocks;
    if (b->nqq == 1 && b->nqb == 1 && (nc == 0 || (b->ncq == 1 && b->ncb == 1))) {
        for (int i = 0; i < nq; ++i) {
            hs_real r = s->f[i];
            const hs_real *Mi = s->M + i * nq;
            for (int j = 0; j < nq; ++j) { r -= Mi[j] * A[j]; }
            s->b[i] = r;
        }
        /* one pass over G for both G A and G^T Lam */
        for (int k = 0; k < nc; ++k) {
            hs_real r = s->gam[k];
            const hs_real *Gk = s->G + k * nq, lk = Lam[k];
            for (int j = 0; j < nq; ++j) {
                r += Gk[j] * A[j];
                s->b[j] += Gk[j] * lk;
            }
            s->b[nq + k] = -r;
        }
        return;
    }
    hs_blk_qq_mv(b, s->M, A, s->v1);
    if (nc > 0) { hs_blk_cq_mv_mtv(b, s->G, A, Lam, s->c3, s->v2); }
    for (int i = 0; i < nq; ++i) { s->b[i] = s->f[i] - s->v1[i] + (nc > 0 ? s->v2[i] : HS_R(0.0)); }
    for (int i = 0; i < nc; ++i) { s->b[nq + i] = -(s->c3[i] + s->gam[i]); }
}

/* Newton step on stage (A, Lam) at (t, Q, U) held in qn, un: residuals r = M A - f - G^T Lam,
 * c = G A + gamma; S x = (-r, -c) with the factor fK; A += dx, Lam += dLam. */
static int sd_newton(hs_stepper *s, ctx *c, hs_real t, hs_real *A, hs_real *Lam, int factor)
{
    const hs_model *m = s->model;
    const int nq = s->nq, nc = s->nc;
    int rc = mass_force(s, c, t, s->qn, s->un);
    if (rc != 0) { return rc; }
    if (factor != 0) {
        rc = force_jacobians(s, c, t, s->qn, s->un);
        if (rc != 0) { return rc; }
        if (nc > 0) {
            rc = add_curvature(s, t, s->qn, Lam);
            if (rc != 0) { return rc; }
        }
    }
    if (nc > 0) {
        rc = hs_model_rc(m->type->constraint(m, t, s->qn, NULL, s->G, NULL));
        if (rc != 0) { return rc; }
        rc = hs_model_rc(m->type->gamma(m, t, s->qn, s->un, s->gam));
        if (rc != 0) { return rc; }
    }
    sd_residual(s, A, Lam);
    if (factor != 0) {
        const hs_real hg = c->h * s->def.sd_gamma;
        s->stats.factorizations++;
        rc = hs_linsys_factor(&s->lsK, &s->fK, s->M, hg, s->fu, hg * hg, s->fq, s->G, s->G, NULL);
        if (rc != 0) { return rc; }
    }
    hs_linsys_solve(&s->lsK, &s->fK, s->b);
    /* A non-finite M, f, G or gamma reaches the residual (x * NaN is NaN, 0 * Inf is NaN) and
     * from there the Newton step: checked in the update loops (x - x is 0 exactly for finite
     * x), so a model's NaN is refused here as non-finite, before the next stage evaluates
     * the model at a NaN state. */
    hs_real nf = HS_R(0.0);
    for (int i = 0; i < nq; ++i) { A[i] += s->b[i]; nf += s->b[i] - s->b[i]; }
    for (int i = 0; i < nc; ++i) { Lam[i] += s->b[nq + i]; nf += s->b[nq + i] - s->b[nq + i]; }
    return nf == HS_R(0.0) ? HS_OK : HS_E_NONFINITE;
}

/* Stage 1 at t_n + g h. Predictor: the line through the last step's stage accelerations
 * (at t_n + (g - 1) h and t_n - g h) extrapolated to g; multipliers lambda_n. */
static int st_sd_stage1(hs_stepper *s, ctx *c)
{
    const int nq = s->nq, nc = s->nc;
    const hs_real g = s->def.sd_gamma, h = c->h, x = HS_R(1.0) / (HS_R(2.0) * g - HS_R(1.0));
    const hs_real hg = h * g;
    for (int i = 0; i < nq; ++i) {
        const hs_real a1 = s->acc[i] + x * (s->acc[i] - s->wd[i]);
        s->accn[i] = a1;
        s->un[i] = s->u[i] + hg * a1;
        s->qn[i] = s->q[i] + hg * s->u[i] + hg * hg * a1;
    }
    for (int i = 0; i < nc; ++i) { s->sl1[i] = s->lambda[i]; }
    return sd_newton(s, c, c->t + g * h, s->accn, s->sl1, 1);
}

/* Stage 2 at t_n + (1 - g) h. Predictor: the line through the last step's stage-1 acceleration
 * and this one's, at 1 - g; multipliers on the line through lambda_n and Lambda_1. */
static int st_sd_stage2(hs_stepper *s, ctx *c)
{
    const int nq = s->nq, nc = s->nc;
    const hs_real g = s->def.sd_gamma, h = c->h, a21 = HS_R(1.0) - HS_R(2.0) * g;
    const hs_real xa = HS_R(2.0) - HS_R(2.0) * g, xl = (HS_R(1.0) - g) / g;
    for (int i = 0; i < nc; ++i) { s->sl2[i] = s->lambda[i] + xl * (s->sl1[i] - s->lambda[i]); }
    /* U_2 = u_n + h (a21 A_1 + g A_2); Q_2 = q_n + (1 - g) h u_n + h^2 (2 g a21 A_1 + g^2 A_2) */
    const hs_real c2h = (HS_R(1.0) - g) * h, q1 = h * h * HS_R(2.0) * g * a21, q2 = h * h * g * g;
    for (int i = 0; i < nq; ++i) {
        const hs_real a1 = s->accn[i], a2 = s->acc[i] + xa * (a1 - s->acc[i]);
        s->wdn[i] = a2;
        s->un[i] = s->u[i] + h * (a21 * a1 + g * a2);
        s->qn[i] = s->q[i] + c2h * s->u[i] + (q1 * a1 + q2 * a2);
    }
    return sd_newton(s, c, c->t + (HS_R(1.0) - g) * h, s->wdn, s->sl2, 0);
}

/* u_{n+1} = u_n + h (A_1 + A_2)/2, q_{n+1} = q_n + h (U_1 + U_2)/2 = q_n + h u_n
 * + h^2 ((1 - g) A_1 + g A_2)/2; lambda_{n+1} on the line through the stage multipliers. */
static int st_sd_combine(hs_stepper *s, ctx *c)
{
    const int nq = s->nq, nc = s->nc;
    const hs_real g = s->def.sd_gamma, h = c->h, xl = (HS_R(1.0) - g) / (HS_R(2.0) * g - HS_R(1.0));
    const hs_real hh = HS_R(0.5) * h, c1 = hh * h * (HS_R(1.0) - g), c2 = hh * h * g;
    for (int i = 0; i < nq; ++i) {
        const hs_real a1 = s->accn[i], a2 = s->wdn[i];
        s->un[i] = s->u[i] + hh * (a1 + a2);
        s->qn[i] = s->q[i] + h * s->u[i] + (c1 * a1 + c2 * a2);
    }
    for (int i = 0; i < nc; ++i) { s->lamn[i] = s->sl1[i] + xl * (s->sl1[i] - s->sl2[i]); }
    return HS_OK;
}

/* out (nq) = fq u_n: from the blocks, or one directional difference. */
static int fq_times_u(hs_stepper *s, ctx *c, hs_real *out)
{
    const int nq = s->nq;
    if (c->have_fq != 0) {
        hs_blk_qq_mv(&s->blocks, s->fq, s->u, out);
        return HS_OK;
    }
    hs_real qn = HS_R(0.0), un = HS_R(0.0);
    for (int i = 0; i < nq; ++i) {
        hs_real a = hs_abs(s->q[i]), b = hs_abs(s->u[i]);
        qn = a > qn ? a : qn;
        un = b > un ? b : un;
    }
    /* Step of length fd_rel (1 + |q|) along u; u = 0 gives a zero product, as it must. */
    hs_real d = s->def.fd_rel * (HS_R(1.0) + qn) / (un > HS_R(0.0) ? un : HS_R(1.0));
    for (int i = 0; i < nq; ++i) { s->qs[i] = s->q[i] + d * s->u[i]; }
    int rc = hs_model_rc(s->model->type->force(s->model, c->t, s->qs, s->u, s->z, c->in, s->f2));
    s->stats.force_evals++;
    if (rc != 0) { return rc; }
    for (int i = 0; i < nq; ++i) { out[i] = (s->f2[i] - s->f[i]) / d; }
    return HS_OK;
}

/* r = f + h fq u_n for every linear-implicit J (the Jq u_n term of eq. 6b) */
static int st_rhs(hs_stepper *s, ctx *c)
{
    const int nq = s->nq;
    for (int i = 0; i < nq; ++i) { s->r[i] = s->f[i]; }
    if (method_linear_implicit(s->def.method) != 0) {
        int rc = fq_times_u(s, c, s->v1);
        if (rc != 0) { return rc; }
        for (int i = 0; i < nq; ++i) { s->r[i] += c->h * s->v1[i]; }
    }
    return HS_OK;
}

/* predicted positions q* = q_n + h u_n: q_{n+1} itself for positions-first methods */
static int st_predict(hs_stepper *s, ctx *c)
{
    const int nq = s->nq, nc = s->nc;
    for (int i = 0; i < nq; ++i) { s->qs[i] = s->q[i] + c->h * s->u[i]; }
    if (s->ggl != 0 && nc > 0) {
        /* eq. 9a with mu from one Newton step on g(t_{n+1}, q) = 0: the position projection */
        int rc = hs_model_rc(s->model->type->constraint(s->model, c->t1, s->qs, s->c1, NULL, NULL));
        if (rc != 0) { return rc; }
        for (int i = 0; i < nq; ++i) { s->b2[i] = HS_R(0.0); }
        for (int i = 0; i < nc; ++i) { s->b2[nq + i] = s->c1[i]; }
        hs_linsys_solve(&s->lsP, &s->fP, s->b2);
        for (int i = 0; i < nq; ++i) { s->qs[i] -= s->b2[i]; }
    }
    return HS_OK;
}

static int st_constraints(hs_stepper *s, ctx *c)
{
    const hs_model *m = s->model;
    const int nc = s->nc;
    int rc = hs_model_rc(m->type->constraint(m, c->t, s->q, s->g, s->G, s->gt));
    if (rc != 0) { return rc; }
    if (s->index2 != 0 && s->velfirst == 0) {
        /* eq. 6b: velocity constraint at t_{n+1} and q_{n+1} = q*, G^T at q_n */
        return hs_model_rc(m->type->constraint(m, c->t1, s->qs, s->c1, s->G2, s->c2));
    }
    if (s->index2 != 0) {
        /* Velocities first: q_{n+1} = q_n + h u_{n+1} is not known yet, so the velocity
         * constraint is posed at (t_n, q_n), where g(q_{n+1}) = g(q_n) + h (G u_{n+1} + g_t)
         * + O(h^2) makes it (and Baumgarte's alpha g) act on the step that follows. Posing it
         * at the predictor q_n + h u_n instead makes alpha = 1/h unstable. */
        for (int i = 0; i < nc; ++i) { s->c1[i] = s->g[i]; s->c2[i] = s->gt[i]; }
        return HS_OK;
    }
    return hs_model_rc(m->type->gamma(m, c->t, s->q, s->u, s->gam));
}

/* A = M - h cu fu - h^2 cq fq (A = M for the first stage of two_stage) and the right-hand
 * side: index-2 solves for (u_{n+1} - u_n, h lambda), index-1 for (u', lambda) */
static int st_assemble(hs_stepper *s, ctx *c)
{
    const int nq = s->nq, nc = s->nc;
    const hs_real h = c->h;
    /* A = M - (h cu fu + h^2 cq fq) is formed by the linear-system layer while it assembles */
    c->a1 = h * s->cu;
    c->a2 = h * h * s->cq;
    if (nc > 0) {
        const hs_real *Gr = (s->index2 && !s->velfirst) ? s->G2 : s->G;
        hs_blk_cq_mv(&s->blocks, Gr, s->u, s->c3);
        for (int i = 0; i < nc; ++i) {
            hs_real v;
            if (s->index2 != 0) {
                v = -s->c3[i] - s->c2[i];
                if (s->def.stab == HS_STAB_BAUMGARTE) { v -= s->alpha * s->c1[i]; }
            } else {
                v = -s->gam[i];
                if (s->def.stab == HS_STAB_BAUMGARTE) {
                    v -= HS_R(2.0) * s->alpha * (s->c3[i] + s->gt[i]) + s->beta * s->g[i];
                }
            }
            s->b[nq + i] = v;
        }
    }
    for (int i = 0; i < nq; ++i) { s->b[i] = s->index2 ? h * s->r[i] : s->two_stage ? s->f[i] : s->r[i]; }
    return HS_OK;
}

static int st_solve(hs_stepper *s, ctx *c)
{
    const int nq = s->nq, nc = s->nc;
    const hs_real h = c->h;
    const hs_real *Gr = (s->index2 && !s->velfirst) ? s->G2 : s->G;
    /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
    const int implicit_a = c->have_fq && !s->two_stage;
    s->stats.factorizations++;
    int rc = hs_linsys_factor(&s->lsK, &s->fK, s->M, c->a1, implicit_a ? s->fu : NULL, c->a2,
                              s->fq, s->G, Gr, s->lsK.reg ? s->creg : NULL);
    if (rc != 0) { return rc; }
    hs_linsys_solve(&s->lsK, &s->fK, s->b);
    for (int i = 0; i < nc; ++i) { s->lamn[i] = s->index2 ? s->b[nq + i] / h : s->b[nq + i]; }
    if (s->two_stage != 0) {
        /* (M - h Ju - ...) u' = f + G^T lambda + h Jq u_n */
        hs_blk_cq_mtv(&s->blocks, s->G, s->lamn, s->v2);
        for (int i = 0; i < nq; ++i) { s->b[i] = s->r[i] + s->v2[i]; }
        s->stats.factorizations++;
        rc = hs_linsys_factor(&s->ls1, &s->f1, s->M, c->a1, c->have_fq ? s->fu : NULL, c->a2,
                              s->fq, NULL, NULL, NULL);
        if (rc != 0) { return rc; }
        hs_linsys_solve(&s->ls1, &s->f1, s->b);
    }
    for (int i = 0; i < nq; ++i) { s->un[i] = s->u[i] + (s->index2 ? s->b[i] : h * s->b[i]); }
    return HS_OK;
}

/* positions: explicit in u_n (eq. 3/6a) or with the new velocity (semi-implicit) */
static int st_positions(hs_stepper *s, ctx *c)
{
    const int nq = s->nq;
    if (s->velfirst != 0) {
        for (int i = 0; i < nq; ++i) { s->qn[i] = s->q[i] + c->h * s->un[i]; }
    } else {
        for (int i = 0; i < nq; ++i) { s->qn[i] = s->qs[i]; }
    }
    return HS_OK;
}

/* auxiliary states, explicit Euler from t_n (partitioned from the mechanics) */
static int st_aux_states(hs_stepper *s, ctx *c)
{
    int rc = hs_model_rc(s->model->type->zdot(s->model, c->t, s->q, s->u, s->z, c->in, s->dz));
    if (rc != 0) { return rc; }
    for (int i = 0; i < s->nz; ++i) { s->zn[i] = s->z[i] + c->h * s->dz[i]; }
    return HS_OK;
}

/* one Newton step of the position projection (eq. 11 with the matrix at q_n, kept from the
 * previous step) */
static int st_project_positions(hs_stepper *s, ctx *c)
{
    const int nq = s->nq, nc = s->nc;
    /* positions-first index-2 evaluated g(t_{n+1}, q*) with q* = q_{n+1} already */
    if (!(s->index2 != 0 && s->ggl == 0 && s->velfirst == 0) || s->galpha != 0 || s->sdirk != 0) {
        int rc = hs_model_rc(s->model->type->constraint(s->model, c->t1, s->qn, s->c1, NULL, NULL));
        if (rc != 0) { return rc; }
    }
    for (int i = 0; i < nq; ++i) { s->b2[i] = HS_R(0.0); }
    for (int i = 0; i < nc; ++i) { s->b2[nq + i] = s->c1[i]; }
    hs_linsys_solve(&s->lsP, &s->fP, s->b2);
    for (int i = 0; i < nq; ++i) { s->qn[i] -= s->b2[i]; }
    return HS_OK;
}

/* factor the matrix at q_{n+1}: velocity projection now, position projection next step */
static int st_project_velocities(hs_stepper *s, ctx *c)
{
    const int nq = s->nq, nc = s->nc;
    int rc = projection_factor(s, c->t1, s->qn, s->M, s->G2, s->c2, &s->fPn);
    if (rc != 0) { return rc; }
    hs_blk_cq_mv(&s->blocks, s->G2, s->un, s->c3);
    for (int i = 0; i < nq; ++i) { s->b2[i] = HS_R(0.0); }
    for (int i = 0; i < nc; ++i) { s->b2[nq + i] = s->c3[i] + s->c2[i]; }
    hs_linsys_solve(&s->lsP, &s->fPn, s->b2);
    for (int i = 0; i < nq; ++i) { s->un[i] -= s->b2[i]; }
    return HS_OK;
}

/* GGL: the next step's eq. 11 needs the matrix at q_{n+1} */
static int st_ggl_factor(hs_stepper *s, ctx *c)
{
    return projection_factor(s, c->t1, s->qn, s->M, s->G2, NULL, &s->fPn);
}

static int st_check(hs_stepper *s, ctx *c)
{
    (void)c;
    if (hs_all_finite(s->qn, s->nq) == 0 || hs_all_finite(s->un, s->nq) == 0 || hs_all_finite(s->zn, s->nz) == 0
        || hs_all_finite(s->lamn, s->nc) == 0) {
        return HS_E_NONFINITE;
    }
    return HS_OK;
}

/* SPOOK (seed 000 eq. 27): Sigma_i = 4 eps_i / (h^2 (1 + 4 tau_i/h)) on the diagonal of the
 * multiplier block (stored as -Sigma: the layer's block is -C) and Upsilon_i = 1 / (1 + 4 tau_i/h),
 * fixed for the run since h, eps and tau are. */
static void spook_params(hs_stepper *s)
{
    const hs_blocks *b = &s->blocks;
    const hs_real h = s->def.h;
    hs_real *C = s->creg;
    for (int k = 0; k < b->ncb; ++k) {
        for (int i = b->cb[k]; i < b->cb[k + 1]; ++i) {
            for (int j = b->cb[k]; j < b->cb[k + 1]; ++j) {
                const hs_real eps = s->def.spook_eps_c ? s->def.spook_eps_c[i] : s->def.spook_eps;
                const hs_real th = s->def.spook_tau_h_c ? s->def.spook_tau_h_c[i] : s->def.spook_tau_h;
                const hs_real ups = HS_R(1.0) / (HS_R(1.0) + HS_R(4.0) * th);
                s->ups[i] = ups;
                *C++ = i == j ? -(HS_R(4.0) * eps * ups / (h * h)) : HS_R(0.0);
            }
        }
    }
}

/* reg_eps for the other methods: the step matrix [[A, -G^T], [Gr, -C]] in the unknowns
 * (du, h lambda) gets C = -eps/h^2 (its constraint row becomes Gr u_{n+1} + g_t + (eps/h) lambda
 * = 0: g_{n+1} = -eps lambda at velocity level, a compliance), the projection matrix
 * [[M, G^T], [G, -C]] C = +eps/h^2 (the same weight in the M-norm projection). Both make the
 * matrices quasi-definite, so redundant constraints factor. */
static void reg_params(hs_stepper *s, int regK, int regP)
{
    const hs_blocks *b = &s->blocks;
    const hs_real c = s->def.reg_eps / (s->def.h * s->def.h);
    hs_real *C = s->creg;
    for (int pass = 0; pass < 2; ++pass) {
        if ((pass == 0 ? regK : regP) == 0) { continue; }
        if (pass == 1) { s->cregP = C; }
        for (int k = 0; k < b->ncb; ++k) {
            for (int i = b->cb[k]; i < b->cb[k + 1]; ++i) {
                for (int j = b->cb[k]; j < b->cb[k + 1]; ++j) { *C++ = i == j ? (pass == 0 ? -c : c) : HS_R(0.0); }
            }
        }
    }
}

/* SPOOK's right-hand side, eq. 29 in the unknowns (u_{n+1} - u_n, h lambda) with +G^T lambda:
 *   M du - G^T (h lambda) = h f
 *   G du + Sigma (h lambda) = -(4/h) Ups g - (1 - Ups) (G u_n + g_t)
 * (the second row is eq. 29's t minus G u_n; with g_t = 0 for scleronomic constraints). The
 * constraint stage left g, g_t and G at (t_n, q_n) in c1, c2 and G. */
static int st_spook_rhs(hs_stepper *s, ctx *c)
{
    const int nq = s->nq, nc = s->nc;
    const hs_real h = c->h;
    c->a1 = HS_R(0.0);
    c->a2 = HS_R(0.0);
    hs_blk_cq_mv(&s->blocks, s->G, s->u, s->c3);
    for (int i = 0; i < nc; ++i) {
        s->b[nq + i] = -(HS_R(4.0) / h) * s->ups[i] * s->c1[i] - (HS_R(1.0) - s->ups[i]) * (s->c3[i] + s->c2[i]);
    }
    for (int i = 0; i < nq; ++i) { s->b[i] = h * s->r[i]; }
    return HS_OK;
}

/* The plausibility watchdog: a state past the def's bounds is refused like a singular one. */
static int st_watchdog(hs_stepper *s, ctx *c)
{
    int ok = 1;
    if (s->def.max_speed > HS_R(0.0)) {
        /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
        for (int i = 0; i < s->nq; ++i) { ok &= hs_abs(s->un[i]) <= s->def.max_speed; }
    }
    if (s->def.max_energy_gain > HS_R(0.0)) {
        hs_real E;
        int rc = hs_model_rc(s->model->type->energy(s->model, c->t1, s->qn, s->un, s->zn, &E));
        if (rc != 0) { return rc; }
        /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
        ok &= (E - s->E0) <= s->def.max_energy_gain;
    }
    return ok ? HS_OK : HS_E_IMPLAUSIBLE;
}

/* One stage of the plan. A switch rather than a table of pointers: each stage has one call
 * site, so the compiler inlines it and the plan costs a jump per stage, not a call. */
static int run_stage(hs_stepper *s, ctx *c, int st)
{
    switch (st) {
    case HS_STAGE_EVAL_FORCES: return st_eval_forces(s, c);
    case HS_STAGE_JACOBIANS: return st_jacobians(s, c);
    case HS_STAGE_RHS: return st_rhs(s, c);
    case HS_STAGE_PREDICT: return st_predict(s, c);
    case HS_STAGE_CONSTRAINTS: return st_constraints(s, c);
    case HS_STAGE_ASSEMBLE: return st_assemble(s, c);
    case HS_STAGE_SOLVE: return st_solve(s, c);
    case HS_STAGE_POSITIONS: return st_positions(s, c);
    case HS_STAGE_AUX_STATES: return st_aux_states(s, c);
    case HS_STAGE_PROJECT_POSITIONS: return st_project_positions(s, c);
    case HS_STAGE_PROJECT_VELOCITIES: return st_project_velocities(s, c);
    case HS_STAGE_GGL_FACTOR: return st_ggl_factor(s, c);
    case HS_STAGE_CURVATURE: return st_curvature(s, c);
    case HS_STAGE_GA_PREDICT: return st_ga_predict(s, c);
    case HS_STAGE_GA_EVAL: return st_ga_eval(s, c);
    case HS_STAGE_GA_SOLVE: return st_ga_solve(s, c);
    case HS_STAGE_CHECK: return st_check(s, c);
    case HS_STAGE_SPOOK_RHS: return st_spook_rhs(s, c);
    case HS_STAGE_WATCHDOG: return st_watchdog(s, c);
    case HS_STAGE_SD_STAGE1: return st_sd_stage1(s, c);
    case HS_STAGE_SD_STAGE2: return st_sd_stage2(s, c);
    case HS_STAGE_SD_COMBINE: return st_sd_combine(s, c);
    case HS_STAGE_DVP: return hs_dvp_stage(s, c->t, c->t1, c->h, c->in);
    default: return HS_E_NOT_INIT;
    }
}

/* The plan of one configuration: the stages it runs, in order. */
static void plan_build(hs_stepper *s)
{
    int n = 0;
    const int nc = s->nc;
    if (s->def.method == HS_METHOD_DVP) {
        s->plan[n++] = HS_STAGE_DVP;
    } else if (s->galpha != 0) {
        s->plan[n++] = HS_STAGE_GA_PREDICT;
        s->plan[n++] = HS_STAGE_GA_EVAL;
        s->plan[n++] = HS_STAGE_GA_SOLVE;
    } else if (s->sdirk != 0) {
        s->plan[n++] = HS_STAGE_SD_STAGE1;
        s->plan[n++] = HS_STAGE_SD_STAGE2;
        s->plan[n++] = HS_STAGE_SD_COMBINE;
    } else {
        s->plan[n++] = HS_STAGE_EVAL_FORCES;
        if (s->use_jac != 0) { s->plan[n++] = HS_STAGE_JACOBIANS; }
        if (s->curv != 0) { s->plan[n++] = HS_STAGE_CURVATURE; }
        s->plan[n++] = HS_STAGE_RHS;
        if (s->spook == 0) { s->plan[n++] = HS_STAGE_PREDICT; /* SPOOK is velocities first: no q* */ }
        if (nc > 0) { s->plan[n++] = HS_STAGE_CONSTRAINTS; }
        s->plan[n++] = s->spook ? HS_STAGE_SPOOK_RHS : HS_STAGE_ASSEMBLE;
        s->plan[n++] = HS_STAGE_SOLVE;
        s->plan[n++] = HS_STAGE_POSITIONS;
    }
    if (s->nz > 0) { s->plan[n++] = HS_STAGE_AUX_STATES; }
    if (s->def.stab == HS_STAB_PROJECTION && nc > 0) {
        s->plan[n++] = HS_STAGE_PROJECT_POSITIONS;
        s->plan[n++] = HS_STAGE_PROJECT_VELOCITIES;
    }
    if (s->ggl != 0 && nc > 0) { s->plan[n++] = HS_STAGE_GGL_FACTOR; }
    s->plan[n++] = HS_STAGE_CHECK;
    if (s->def.max_speed > HS_R(0.0) || s->def.max_energy_gain > HS_R(0.0)) { s->plan[n++] = HS_STAGE_WATCHDOG; }
    s->nplan = n;
}

/* ---------------------------------------------------------------------------------------
 * Init, state, step. */

int hs_stepper_set_state(hs_stepper *s, hs_real t, const hs_real *q, const hs_real *u,
                         const hs_real *z)
{
    if (s == NULL || s->model == NULL || q == NULL || u == NULL || (s->nz > 0 && z == NULL)) { return HS_E_NULL; }
    if (hs_isfinite(t) == 0 || hs_all_finite(q, s->nq) == 0 || hs_all_finite(u, s->nq) == 0
        || (s->nz > 0 && hs_all_finite(z, s->nz) == 0)) {
        return HS_E_STATE;
    }
    /* Build the cached factorization into the "new" buffers first: a failure leaves the
     * stepper as it was. */
    if (s->keep_p != 0 || s->galpha != 0 || s->sdirk != 0) {
        int rc = projection_factor(s, t, q, s->M, s->G, NULL, &s->fPn);
        if (rc != 0) { return rc; }
        if (s->galpha != 0 || s->sdirk != 0) {
            /* consistent acceleration and multipliers at (t, q, u), zero inputs:
             * [[M, G^T], [G, 0]] (w, -lambda) = (f, -gamma) */
            const int nq = s->nq, nc = s->nc;
            for (int i = 0; i < s->nin; ++i) { s->in0[i] = HS_R(0.0); }
            rc = hs_model_rc(s->model->type->force(s->model, t, q, u, z, s->in0, s->f));
            if (rc != 0) { return rc; }
            if (nc > 0) {
                rc = hs_model_rc(s->model->type->gamma(s->model, t, q, u, s->gam));
                if (rc != 0) { return rc; }
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
        int rc = hs_model_rc(s->model->type->energy(s->model, t, q, u, z, &E0));
        if (rc != 0) { return rc; }
    }
    for (int i = 0; i < s->nq; ++i) { s->q[i] = q[i]; s->u[i] = u[i]; }
    for (int i = 0; i < s->nz; ++i) { s->z[i] = z[i]; }
    /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
    const int consistent = s->galpha || s->sdirk;
    for (int i = 0; i < s->nc; ++i) { s->lambda[i] = consistent ? -s->b2[s->nq + i] : HS_R(0.0); }
    if (consistent != 0) {
        for (int i = 0; i < s->nq; ++i) { s->wd[i] = s->b2[i]; s->acc[i] = s->b2[i]; }
    }
    s->E0 = E0;
    s->t = t;
    s->t0 = t;
    s->k = 0;
    return HS_OK;
}

int hs_stepper_init(hs_stepper *s, const hs_stepper_def *def, const hs_model *m, hs_real t0,
                    hs_real *reals, size_t nreals, int *ints, size_t nints)
{
    if (s == NULL || def == NULL || m == NULL || reals == NULL || ints == NULL) { return HS_E_NULL; }
    int rc = hs_stepper_def_validate(def, m);
    if (rc != 0) { return rc; }
    rc = hs_model_check(m);
    if (rc != 0) { return rc; }
    /* Measure in the caller's int arena: the block list lands at the front, where the layout
     * puts it (blk is the first int array); the analyses' size queries use the rest. */
    hs_blocks b;
    ws_sizes z;
    size_t used = 0;
    rc = model_blocks(m, &b, ints, nints, &used);
    if (rc != 0) { return rc; }
    /* blocks() may ask for more room than the list it writes (hs_rods' bound): offer it the
     * whole arena again; it writes ints[0..used) before the size queries use the rest */
    rc = ws_measure(def, m, ints, nints, ints + used, nints - used, &b, &z);
    if (rc != 0) { return rc; }
    size_t need_r, need_i;
    ws_totals(&z, &need_r, &need_i);
    if (nreals < need_r || nints < need_i) { return HS_E_SIZE; }

    static const hs_stepper zero_stepper;
    hs_stepper st = zero_stepper;
    const cfg c = config_of(def, m);
    st.def = *def;
    st.model = m;
    st.nq = m->d.nq; st.nc = m->d.nc; st.nz = m->d.nz; st.nin = m->d.nin; st.n = st.nq + st.nc;
    st.ready = 0;
    st.index2 = c.index2; st.ggl = c.ggl; st.velfirst = c.velfirst; st.two_stage = c.two_stage;
    st.keep_p = c.keep_p; st.use_jac = c.use_jac; st.analytic = c.analytic;
    st.cu = c.cu; st.cq = c.cq;
    st.spook = c.spook;
    st.curv = c.curv; st.curv_fd = c.curv_fd; st.galpha = c.galpha; st.sdirk = c.sdirk;
    baumgarte_of(def, &st.alpha, &st.beta);
    st.E0 = HS_R(0.0);
    if (c.galpha != 0) {
        /* Chung & Hulbert's parameters from rho_inf (Arnold & Bruls 2007, eq. 8): second
         * order, unconditionally stable, spectral radius rho_inf at h omega -> infinity */
        const hs_real r = def->rho_inf, h = def->h;
        st.ga_am = (HS_R(2.0) * r - HS_R(1.0)) / (r + HS_R(1.0));
        st.ga_af = r / (r + HS_R(1.0));
        st.ga_gamma = HS_R(0.5) - st.ga_am + st.ga_af;
        const hs_real e = HS_R(1.0) - st.ga_am + st.ga_af;
        st.ga_beta = HS_R(0.25) * e * e;
        st.ga_bp = (HS_R(1.0) - st.ga_am) / (st.ga_beta * h * h * (HS_R(1.0) - st.ga_af));
        st.ga_gp = st.ga_gamma / (st.ga_beta * h);
    }
    for (size_t i = 0; i < need_r; ++i) { reals[i] = HS_R(0.0); }
    /* the block list already sits at ints[0..nBLK); clear the rest */
    for (size_t i = z.nBLK; i < need_i; ++i) { ints[i] = 0; }
    hs_real *w = reals;
    int *wi = ints;
/* MISRA Ref 20.7.1 [X-macro parameter is an identifier] */
#define HS__WS_RBIND(name, count, what) st.name = w; w += (count);
/* MISRA Ref 20.7.1 [X-macro parameter is an identifier] */
#define HS__WS_IBIND(name, count, what) st.name = wi; wi += (count);
    WS_REAL_LIST(HS__WS_RBIND, WS_REAL_ARGS(z))
    WS_INT_LIST(HS__WS_IBIND, WS_INT_ARGS(z))
#undef HS__WS_RBIND
#undef HS__WS_IBIND
    /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
    if ((size_t)(w - reals) != need_r || (size_t)(wi - ints) != need_i) { return HS_E_SIZE; }
    st.blocks = b; /* points into ints[0..nBLK) = st.blk */
    rc = hs_linsys_init(&st.lsK, z.kind, def->sparse, &st.blocks, st.nq, st.nc, -1, c.regK, c.spook,
                        st.symK, z.nSK, st.tmp, z.nTMP);
    if (rc != 0) { return rc; }
    hs_linsys_fac_bind(&st.lsK, &st.fK, st.K, st.Kp);
    if (c.spook != 0) { spook_params(&st); }
    else if (c.regK != 0 || c.regP != 0) { reg_params(&st, c.regK, c.regP); }
    if (c.two_stage != 0) {
        rc = hs_linsys_init(&st.ls1, z.kind, def->sparse, &st.blocks, st.nq, 0, 1, 0, 0,
                            st.sym1, z.nS1, st.tmp, z.nTMP);
        if (rc != 0) { return rc; }
        hs_linsys_fac_bind(&st.ls1, &st.f1, st.K1, st.K1p);
    } else {
        st.ls1 = st.lsK;
        st.f1 = st.fK;
    }
    if (c.have_p != 0) {
        rc = hs_linsys_init(&st.lsP, z.kind, def->sparse, &st.blocks, st.nq, st.nc, 1, c.regP, 1,
                            st.symP, z.nSP, st.tmp, z.nTMP);
        if (rc != 0) { return rc; }
        hs_linsys_fac_bind(&st.lsP, &st.fP, st.P, st.Pp);
        hs_linsys_fac_bind(&st.lsP, &st.fPn, st.Pn, st.Ppn);
    } else {
        st.lsP = st.lsK;
        st.fP = st.fPn = st.fK;
    }
    plan_build(&st);
    st.stats.steps = 0; st.stats.faults = 0; st.stats.last_fault = 0;
    st.stats.force_evals = 0; st.stats.factorizations = 0;
    st.t = t0; st.t0 = t0; st.k = 0;
    /* q0/u0/z0 go through the new-state buffers so set_state copies them in. */
    rc = hs_model_rc(m->type->initial(m, t0, st.qn, st.un, st.zn));
    if (rc != 0) { return rc; }
    rc = hs_stepper_set_state(&st, t0, st.qn, st.un, st.zn);
    if (rc != 0) { return rc; }
    st.ready = 1;
    *s = st;
    return HS_OK;
}

static void commit(hs_stepper *s, const ctx *c)
{
    /* swap the new buffers in (O(1), the step is transactional up to here) */
    hs_real *tp;
    tp = s->q; s->q = s->qn; s->qn = tp;
    tp = s->u; s->u = s->un; s->un = tp;
    tp = s->z; s->z = s->zn; s->zn = tp;
    tp = s->lambda; s->lambda = s->lamn; s->lamn = tp;
    if (s->galpha != 0 || s->sdirk != 0) {
        tp = s->acc; s->acc = s->accn; s->accn = tp;
        tp = s->wd; s->wd = s->wdn; s->wdn = tp;
    }
    if (s->keep_p != 0) {
        hs_ls_fac tf = s->fP; s->fP = s->fPn; s->fPn = tf;
        tp = s->P; s->P = s->Pn; s->Pn = tp;
        int *ti = s->Pp; s->Pp = s->Ppn; s->Ppn = ti;
    }
    s->k++;
    s->t = c->t1;
}

int hs_stepper_step(hs_stepper *s, const hs_real *in)
{
    if (s == NULL) { return HS_E_NULL; }
    if (s->ready == 0) { return HS_E_NOT_INIT; }
    int rc = HS_OK;
    if (s->nin > 0 && in == NULL) { rc = HS_E_NULL; }
    else if (s->nin > 0 && hs_all_finite(in, s->nin) == 0) { rc = HS_E_INPUT; }
    else {
        ctx c;
        c.in = in;
        c.h = s->def.h;
        c.t = s->t;
        /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
        c.t1 = s->t0 + (hs_real)(s->k + 1u) * c.h;
        c.have_fq = 0;
        c.a1 = c.a2 = HS_R(0.0);
        /* MISRA Ref 10.4.1 [int code vs the enumerator naming it] */
        for (int i = 0; i < s->nplan && rc == HS_OK; ++i) { rc = run_stage(s, &c, s->plan[i]); }
        /* MISRA Ref 10.4.1 [int code vs the enumerator naming it] */
        if (rc == HS_OK) { commit(s, &c); }
    }
    if (rc != 0) {
        s->stats.faults++;
        s->stats.last_fault = rc;
        return rc;
    }
    s->stats.steps++;
    return HS_OK;
}

int hs_stepper_residual(const hs_stepper *s, hs_real *g)
{
    if (s == NULL || g == NULL) { return HS_E_NULL; }
    if (s->ready == 0) { return HS_E_NOT_INIT; }
    if (s->nc == 0) { return HS_OK; }
    return hs_model_rc(s->model->type->constraint(s->model, s->t, s->q, g, NULL, NULL));
}

int hs_stepper_outputs(const hs_stepper *s, const hs_real *in, hs_real *y)
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
