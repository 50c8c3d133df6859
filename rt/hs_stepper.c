/* hs_stepper.c - fixed-cost partitioned linear-implicit Euler stepper (seed 004). */
#include "hs_stepper.h"
#include "hs_dense.h"
#include "hs_hash.h"

/* Views of the scratch arena for one step; recomputed from sizes, so the layout costs nothing. */
typedef struct scratch {
    hs_real *K;      /* (n x n) step matrix, then its LU */
    hs_real *M;      /* (nq x nq) mass matrix; reused at q_{n+1} for the velocity projection */
    hs_real *fq;     /* (nq x nq) df/dq */
    hs_real *fu;     /* (nq x nq) df/du */
    hs_real *G;      /* (nc x nq) G(t_n, q_n) */
    hs_real *G2;     /* (nc x nq) G at the second position (q* or q_{n+1}) */
    hs_real *f;      /* (nq) forces */
    hs_real *f2;     /* (nq) forces at a perturbed point (finite differences) */
    hs_real *r;      /* (nq) right-hand side f + h fq u */
    hs_real *v1;     /* (nq) temporary */
    hs_real *v2;     /* (nq) temporary */
    hs_real *qs;     /* (nq) perturbed or predicted positions */
    hs_real *b;      /* (n) linear system right-hand side / solution */
    hs_real *b2;     /* (n) second right-hand side */
    hs_real *x3;     /* (n) spare */
    hs_real *x4;     /* (n) spare */
    hs_real *g;      /* (nc) residual */
    hs_real *gt;     /* (nc) dg/dt */
    hs_real *gam;    /* (nc) acceleration remainder */
    hs_real *c1;     /* (nc) temporary */
    hs_real *c2;     /* (nc) temporary */
    hs_real *c3;     /* (nc) temporary */
    hs_real *dz;     /* (nz) auxiliary state derivative */
    int *Kp;         /* (n) pivots of K */
} scratch;

static void scratch_bind(const hs_stepper *s, scratch *sc)
{
    const int nq = s->nq, nc = s->nc, n = s->n;
    hs_real *w = s->w;
    sc->K = w; w += n * n;
    sc->M = w; w += nq * nq;
    sc->fq = w; w += nq * nq;
    sc->fu = w; w += nq * nq;
    sc->G = w; w += nc * nq;
    sc->G2 = w; w += nc * nq;
    sc->f = w; w += nq;
    sc->f2 = w; w += nq;
    sc->r = w; w += nq;
    sc->v1 = w; w += nq;
    sc->v2 = w; w += nq;
    sc->qs = w; w += nq;
    sc->b = w; w += n;
    sc->b2 = w; w += n;
    sc->x3 = w; w += n;
    sc->x4 = w; w += n;
    sc->g = w; w += nc;
    sc->gt = w; w += nc;
    sc->gam = w; w += nc;
    sc->c1 = w; w += nc;
    sc->c2 = w; w += nc;
    sc->c3 = w; w += nc;
    sc->dz = w;
    sc->Kp = s->wi;
}

const char *hs_status_str(int status)
{
    switch (status) {
    case HS_OK: return "ok";
    case HS_E_DEF_H: return "step size h must be finite and > 0";
    case HS_E_DEF_METHOD: return "unknown method";
    case HS_E_DEF_FORM: return "unknown formulation, or GGL combined with a stabilization or a velocities-first method";
    case HS_E_DEF_STAB: return "unknown stabilization";
    case HS_E_DEF_BAUMGARTE: return "Baumgarte parameters must be finite and > 0 (index-2: h*alpha <= 2)";
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
    default: return "unknown status";
    }
}

const char *hs_method_name(hs_method m)
{
    static const char *const names[HS_METHOD_COUNT] = {"explicit", "symplectic", "j1", "j2", "j3", "jexact"};
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

hs_stepper_def hs_stepper_default_def(void)
{
    hs_stepper_def d;
    d.method = HS_METHOD_J2;
    d.form = HS_FORM_INDEX2;
    d.stab = HS_STAB_PROJECTION;
    d.jac = HS_JAC_AUTO;
    d.h = HS_R(1.0e-3);
    /* 1/h and 1/h^2 in double, rounded once: the float build then gets the same values as
     * hilstep-sim derives from --h (1000 and 1e6 exactly, not 1/0.001f). */
    d.alpha = (hs_real)(1.0 / 1.0e-3);
    d.beta = (hs_real)(1.0 / (1.0e-3 * 1.0e-3));
    /* sqrt(eps): balances truncation and rounding error of a forward difference. */
#ifdef HS_REAL_FLOAT
    d.fd_rel = HS_R(3.4526698e-4);
#else
    d.fd_rel = HS_R(1.4901161193847656e-08);
#endif
    return d;
}

static int method_needs_full_jac(hs_method m)
{
    return m == HS_METHOD_J1 || m == HS_METHOD_J2 || m == HS_METHOD_JEXACT;
}

static int method_velocity_first(hs_method m)
{
    return m == HS_METHOD_SYMPLECTIC || m == HS_METHOD_JEXACT;
}

int hs_stepper_def_validate(const hs_stepper_def *def, const hs_model *m)
{
    if (!def || !m || !m->type) return HS_E_NULL;
    if (!hs_isfinite(def->h) || !(def->h > HS_R(0.0))) return HS_E_DEF_H;
    if ((int)def->method < 0 || (int)def->method >= HS_METHOD_COUNT) return HS_E_DEF_METHOD;
    if (def->form != HS_FORM_INDEX1 && def->form != HS_FORM_INDEX2 && def->form != HS_FORM_GGL)
        return HS_E_DEF_FORM;
    /* GGL stabilizes positions itself and needs q_{n+1} before u_{n+1} */
    if (def->form == HS_FORM_GGL && (def->stab != HS_STAB_NONE || method_velocity_first(def->method)))
        return HS_E_DEF_FORM;
    if (def->stab != HS_STAB_NONE && def->stab != HS_STAB_BAUMGARTE && def->stab != HS_STAB_PROJECTION)
        return HS_E_DEF_STAB;
    if (def->stab == HS_STAB_BAUMGARTE) {
        if (!hs_isfinite(def->alpha) || !(def->alpha > HS_R(0.0))) return HS_E_DEF_BAUMGARTE;
        if (def->form == HS_FORM_INDEX1 && (!hs_isfinite(def->beta) || !(def->beta > HS_R(0.0))))
            return HS_E_DEF_BAUMGARTE;
        /* index-2: g_{n+1} = (1 - h alpha) g_n + O(h^2) (sec. 3.2) amplifies for h alpha > 2. */
        if (def->form == HS_FORM_INDEX2 && def->h * def->alpha > HS_R(2.0)) return HS_E_DEF_BAUMGARTE;
    }
    if (def->jac != HS_JAC_AUTO && def->jac != HS_JAC_ANALYTIC && def->jac != HS_JAC_FD) return HS_E_DEF_JAC;
    if (def->jac == HS_JAC_ANALYTIC && !m->type->force_jac) return HS_E_DEF_JAC;
    if (!hs_isfinite(def->fd_rel) || !(def->fd_rel > HS_R(0.0))) return HS_E_DEF_FD;
    const hs_model_type *T = m->type;
    if (T->nq < 1 || T->nc < 0 || T->nc >= T->nq + 1 || T->nz < 0 || T->nin < 0 || T->nout < 0)
        return HS_E_SIZE;
    if (!T->mass || !T->force || !T->initial) return HS_E_NULL;
    if (T->nc > 0 && (!T->constraint || !T->gamma)) return HS_E_NULL;
    if (T->nz > 0 && !T->zdot) return HS_E_NULL;
    return HS_OK;
}

static int model_rc(int rc) { return rc == HS_OK ? HS_OK : (rc < 0 ? rc : HS_E_MODEL); }

static int use_analytic(const hs_stepper *s)
{
    return s->def.jac == HS_JAC_ANALYTIC || (s->def.jac == HS_JAC_AUTO && s->model->type->force_jac);
}

/* LU of the projection matrix [[M, G^T], [G, 0]] at (t, q) into LU/piv; M and G are scratch,
 * gt (nc) receives dg/dt there when not NULL (the velocity projection needs it). */
static int projection_factor(hs_stepper *s, hs_real t, const hs_real *q, hs_real *M, hs_real *G,
                             hs_real *gt, hs_real *LU, int *piv)
{
    const hs_model_type *T = s->model->type;
    const int nq = s->nq, nc = s->nc, n = s->n;
    int rc = model_rc(T->mass(s->model, t, q, M));
    if (rc) return rc;
    rc = model_rc(T->constraint(s->model, t, q, NULL, G, gt));
    if (rc) return rc;
    for (int i = 0; i < nq; ++i) {
        for (int j = 0; j < nq; ++j) LU[i * n + j] = M[i * nq + j];
        for (int j = 0; j < nc; ++j) LU[i * n + nq + j] = G[j * nq + i];
    }
    for (int i = 0; i < nc; ++i) {
        for (int j = 0; j < nq; ++j) LU[(nq + i) * n + j] = G[i * nq + j];
        for (int j = 0; j < nc; ++j) LU[(nq + i) * n + nq + j] = HS_R(0.0);
    }
    s->stats.factorizations++;
    return hs_lu_factor(LU, piv, n);
}

int hs_stepper_set_state(hs_stepper *s, hs_real t, const hs_real *q, const hs_real *u,
                         const hs_real *z)
{
    if (!s || !s->model || !q || !u || (s->nz > 0 && !z)) return HS_E_NULL;
    if (!hs_isfinite(t) || !hs_all_finite(q, s->nq) || !hs_all_finite(u, s->nq)
        || (s->nz > 0 && !hs_all_finite(z, s->nz)))
        return HS_E_STATE;
    /* Build the cached factorization into the "new" buffers first: a failure leaves the
     * stepper as it was. */
    if ((s->def.stab == HS_STAB_PROJECTION || s->def.form == HS_FORM_GGL) && s->nc > 0) {
        scratch sc;
        scratch_bind(s, &sc);
        int rc = projection_factor(s, t, q, sc.M, sc.G, NULL, s->Pn, s->Ppn);
        if (rc) return rc;
        hs_real *tp = s->P; s->P = s->Pn; s->Pn = tp;
        int *ti = s->Pp; s->Pp = s->Ppn; s->Ppn = ti;
    }
    for (int i = 0; i < s->nq; ++i) { s->q[i] = q[i]; s->u[i] = u[i]; }
    for (int i = 0; i < s->nz; ++i) s->z[i] = z[i];
    for (int i = 0; i < s->nc; ++i) s->lambda[i] = HS_R(0.0);
    s->t = t;
    s->t0 = t;
    s->k = 0;
    return HS_OK;
}

int hs_stepper_init(hs_stepper *s, const hs_stepper_def *def, const hs_model *m, hs_real t0,
                    hs_real *reals, size_t nreals, int *ints, size_t nints)
{
    if (!s || !def || !m || !reals || !ints) return HS_E_NULL;
    int rc = hs_stepper_def_validate(def, m);
    if (rc) return rc;
    rc = hs_model_check(m);
    if (rc) return rc;
    const hs_model_type *T = m->type;
    const int nq = T->nq, nc = T->nc, nz = T->nz, n = nq + nc;
    if (nreals < (size_t)HS_STEPPER_REALS(nq, nc, nz) || nints < (size_t)HS_STEPPER_INTS(nq, nc))
        return HS_E_SIZE;
    hs_stepper st;
    st.def = *def;
    st.model = m;
    st.nq = nq; st.nc = nc; st.nz = nz; st.nin = m->d.nin; st.n = n;
    st.ready = 0;
    hs_real *w = reals;
    st.q = w; w += nq;
    st.u = w; w += nq;
    st.z = w; w += nz;
    st.lambda = w; w += nc;
    st.qn = w; w += nq;
    st.un = w; w += nq;
    st.zn = w; w += nz;
    st.lamn = w; w += nc;
    st.P = w; w += n * n;
    st.Pn = w; w += n * n;
    st.w = w;
    st.Pp = ints;
    st.Ppn = ints + n;
    st.wi = ints + 2 * n;
    st.stats.steps = 0; st.stats.faults = 0; st.stats.last_fault = 0;
    st.stats.force_evals = 0; st.stats.factorizations = 0;
    st.t = t0; st.t0 = t0; st.k = 0;
    for (int i = 0; i < 2 * (2 * nq + nz + nc) + 2 * n * n; ++i) reals[i] = HS_R(0.0);
    for (int i = 0; i < HS_STEPPER_INTS(nq, nc); ++i) ints[i] = 0;
    scratch sc;
    scratch_bind(&st, &sc);
    /* q0/u0/z0 go through the new-state buffers so set_state copies them in. */
    rc = model_rc(T->initial(m, t0, st.qn, st.un, st.zn));
    if (rc) return rc;
    rc = hs_stepper_set_state(&st, t0, st.qn, st.un, st.zn);
    if (rc) return rc;
    st.ready = 1;
    *s = st;
    return HS_OK;
}

/* Forward-difference Jacobian column block: J (nq x nq) = d f / d x where x = q (wrt_u = 0)
 * or u (wrt_u = 1); exactly nq force evaluations. */
static int fd_jacobian(hs_stepper *s, scratch *sc, hs_real t, const hs_real *in, int wrt_u,
                       hs_real *J)
{
    const hs_model_type *T = s->model->type;
    const int nq = s->nq;
    hs_real *x = sc->qs;
    const hs_real *base = wrt_u ? s->u : s->q;
    for (int i = 0; i < nq; ++i) x[i] = base[i];
    for (int j = 0; j < nq; ++j) {
        hs_real d = s->def.fd_rel * (HS_R(1.0) + hs_abs(base[j]));
        x[j] = base[j] + d;
        d = x[j] - base[j]; /* the increment actually represented */
        int rc = model_rc(wrt_u ? T->force(s->model, t, s->q, x, s->z, in, sc->f2)
                                : T->force(s->model, t, x, s->u, s->z, in, sc->f2));
        s->stats.force_evals++;
        if (rc) return rc;
        for (int i = 0; i < nq; ++i) J[i * nq + j] = (sc->f2[i] - sc->f[i]) / d;
        x[j] = base[j];
    }
    return HS_OK;
}

/* out (nq) = fq u_n: analytic from the full block, or one directional difference. */
static int fq_times_u(hs_stepper *s, scratch *sc, hs_real t, const hs_real *in, int have_fq,
                      hs_real *out)
{
    const int nq = s->nq;
    if (have_fq) {
        hs_matvec(sc->fq, nq, nq, s->u, out);
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
    for (int i = 0; i < nq; ++i) sc->qs[i] = s->q[i] + d * s->u[i];
    int rc = model_rc(s->model->type->force(s->model, t, sc->qs, s->u, s->z, in, sc->f2));
    s->stats.force_evals++;
    if (rc) return rc;
    for (int i = 0; i < nq; ++i) out[i] = (sc->f2[i] - sc->f[i]) / d;
    return HS_OK;
}

static int step_core(hs_stepper *s, const hs_real *in)
{
    const hs_model *m = s->model;
    const hs_model_type *T = m->type;
    const int nq = s->nq, nc = s->nc, nz = s->nz, n = s->n;
    const hs_real h = s->def.h;
    const hs_real t = s->t;
    const hs_real t1 = s->t0 + (hs_real)(s->k + 1) * h;
    const hs_method meth = s->def.method;
    const int ggl = s->def.form == HS_FORM_GGL;
    const int index2 = s->def.form == HS_FORM_INDEX2 || ggl;
    /* the factorization at q_n of eq. 11 is kept across steps by projection and GGL alike */
    const int keep_p = (s->def.stab == HS_STAB_PROJECTION || ggl) && nc > 0;
    const int stab = (int)s->def.stab;
    scratch sc;
    scratch_bind(s, &sc);
    int rc;

    /* 1. mass matrix and forces at (t_n, q_n, u_n) */
    rc = model_rc(T->mass(m, t, s->q, sc.M));
    if (rc) return rc;
    rc = model_rc(T->force(m, t, s->q, s->u, s->z, in, sc.f));
    s->stats.force_evals++;
    if (rc) return rc;
    if (!hs_all_finite(sc.M, nq * nq) || !hs_all_finite(sc.f, nq)) return HS_E_NONFINITE;

    /* 2. Jacobian blocks of the chosen J (section 2) */
    hs_real cu = HS_R(0.0), cq = HS_R(0.0);
    int have_fq = 0;
    if (method_needs_full_jac(meth) || (meth == HS_METHOD_J3 && use_analytic(s))) {
        if (use_analytic(s)) {
            rc = model_rc(T->force_jac(m, t, s->q, s->u, s->z, in, sc.fq, sc.fu));
            if (rc) return rc;
        } else {
            rc = fd_jacobian(s, &sc, t, in, 0, sc.fq);
            if (rc) return rc;
            rc = fd_jacobian(s, &sc, t, in, 1, sc.fu);
            if (rc) return rc;
        }
        have_fq = 1;
    }
    if (meth == HS_METHOD_J1) cu = HS_R(1.0);
    if (meth == HS_METHOD_J2 || meth == HS_METHOD_JEXACT) { cu = HS_R(1.0); cq = HS_R(1.0); }

    /* r = f + h fq u_n for every linear-implicit J (the Jq u_n term of eq. 6b) */
    for (int i = 0; i < nq; ++i) sc.r[i] = sc.f[i];
    if (meth == HS_METHOD_J1 || meth == HS_METHOD_J2 || meth == HS_METHOD_J3 || meth == HS_METHOD_JEXACT) {
        rc = fq_times_u(s, &sc, t, in, have_fq, sc.v1);
        if (rc) return rc;
        for (int i = 0; i < nq; ++i) sc.r[i] += h * sc.v1[i];
    }

    /* index-1 with a linear-implicit J takes the multipliers from the acceleration-level
     * system with M (sec. 3.1), then makes the step (3) with f + G^T lambda: two solves */
    const int two_stage = !index2 && nc > 0 && meth != HS_METHOD_EXPLICIT && meth != HS_METHOD_SYMPLECTIC;

    /* 3. step matrix K = [[A, -G^T], [Gr, 0]] with A = M - h cu fu - h^2 cq fq (A = M for
     * the first stage of two_stage) */
    for (int i = 0; i < nq; ++i)
        for (int j = 0; j < nq; ++j) {
            hs_real a = sc.M[i * nq + j];
            if (have_fq && !two_stage) a -= h * cu * sc.fu[i * nq + j] + h * h * cq * sc.fq[i * nq + j];
            sc.K[i * n + j] = a;
        }
    /* predicted positions q* = q_n + h u_n: q_{n+1} itself for positions-first methods */
    for (int i = 0; i < nq; ++i) sc.qs[i] = s->q[i] + h * s->u[i];
    if (ggl && nc > 0) {
        /* eq. 9a with mu from one Newton step on g(t_{n+1}, q) = 0: the position projection */
        rc = model_rc(T->constraint(m, t1, sc.qs, sc.c1, NULL, NULL));
        if (rc) return rc;
        for (int i = 0; i < nq; ++i) sc.b2[i] = HS_R(0.0);
        for (int i = 0; i < nc; ++i) sc.b2[nq + i] = sc.c1[i];
        hs_lu_solve(s->P, s->Pp, n, sc.b2);
        for (int i = 0; i < nq; ++i) sc.qs[i] -= sc.b2[i];
    }
    if (nc > 0) {
        rc = model_rc(T->constraint(m, t, s->q, sc.g, sc.G, sc.gt));
        if (rc) return rc;
        const hs_real *Gr = sc.G;
        if (index2 && !method_velocity_first(meth)) {
            /* eq. 6b: velocity constraint at t_{n+1} and q_{n+1} = q*, G^T at q_n */
            rc = model_rc(T->constraint(m, t1, sc.qs, sc.c1, sc.G2, sc.c2));
            if (rc) return rc;
            Gr = sc.G2;
        } else if (index2) {
            /* Velocities first: q_{n+1} = q_n + h u_{n+1} is not known yet, so the velocity
             * constraint is posed at (t_n, q_n), where g(q_{n+1}) = g(q_n) + h (G u_{n+1} + g_t)
             * + O(h^2) makes it (and Baumgarte's alpha g) act on the step that follows. Posing it
             * at the predictor q_n + h u_n instead makes alpha = 1/h unstable. */
            for (int i = 0; i < nc; ++i) { sc.c1[i] = sc.g[i]; sc.c2[i] = sc.gt[i]; }
        } else {
            rc = model_rc(T->gamma(m, t, s->q, s->u, sc.gam));
            if (rc) return rc;
        }
        for (int i = 0; i < nq; ++i)
            for (int j = 0; j < nc; ++j) sc.K[i * n + nq + j] = -sc.G[j * nq + i];
        for (int i = 0; i < nc; ++i) {
            for (int j = 0; j < nq; ++j) sc.K[(nq + i) * n + j] = Gr[i * nq + j];
            for (int j = 0; j < nc; ++j) sc.K[(nq + i) * n + nq + j] = HS_R(0.0);
        }
        /* constraint rows of the right-hand side */
        hs_matvec(Gr, nc, nq, s->u, sc.c3);
        for (int i = 0; i < nc; ++i) {
            hs_real c;
            if (index2) {
                c = -sc.c3[i] - sc.c2[i];
                if (stab == HS_STAB_BAUMGARTE) c -= s->def.alpha * sc.c1[i];
            } else {
                c = -sc.gam[i];
                if (stab == HS_STAB_BAUMGARTE)
                    c -= HS_R(2.0) * s->def.alpha * (sc.c3[i] + sc.gt[i]) + s->def.beta * sc.g[i];
            }
            sc.b[nq + i] = c;
        }
    }
    /* index-2 solves for (u_{n+1} - u_n, h lambda); index-1 for (u', lambda) */
    for (int i = 0; i < nq; ++i) sc.b[i] = index2 ? h * sc.r[i] : two_stage ? sc.f[i] : sc.r[i];
    s->stats.factorizations++;
    rc = hs_lu_factor(sc.K, sc.Kp, n);
    if (rc) return rc;
    hs_lu_solve(sc.K, sc.Kp, n, sc.b);
    for (int i = 0; i < nc; ++i) s->lamn[i] = index2 ? sc.b[nq + i] / h : sc.b[nq + i];
    if (two_stage) {
        /* (M - h Ju - ...) u' = f + G^T lambda + h Jq u_n, factored in K's storage (nq x nq) */
        for (int i = 0; i < nq; ++i)
            for (int j = 0; j < nq; ++j) {
                hs_real a = sc.M[i * nq + j];
                if (have_fq) a -= h * cu * sc.fu[i * nq + j] + h * h * cq * sc.fq[i * nq + j];
                sc.K[i * nq + j] = a;
            }
        hs_matvec_t(sc.G, nc, nq, s->lamn, sc.v2);
        for (int i = 0; i < nq; ++i) sc.b[i] = sc.r[i] + sc.v2[i];
        s->stats.factorizations++;
        rc = hs_lu_factor(sc.K, sc.Kp, nq);
        if (rc) return rc;
        hs_lu_solve(sc.K, sc.Kp, nq, sc.b);
    }
    for (int i = 0; i < nq; ++i) s->un[i] = s->u[i] + (index2 ? sc.b[i] : h * sc.b[i]);

    /* 4. positions: explicit in u_n (eq. 3/6a) or with the new velocity (semi-implicit) */
    if (method_velocity_first(meth))
        for (int i = 0; i < nq; ++i) s->qn[i] = s->q[i] + h * s->un[i];
    else
        for (int i = 0; i < nq; ++i) s->qn[i] = sc.qs[i];

    /* 5. auxiliary states, explicit Euler from t_n (partitioned from the mechanics) */
    if (nz > 0) {
        rc = model_rc(T->zdot(m, t, s->q, s->u, s->z, in, sc.dz));
        if (rc) return rc;
        for (int i = 0; i < nz; ++i) s->zn[i] = s->z[i] + h * sc.dz[i];
    }

    /* 6. one Newton step of the position projection (eq. 11 with the matrix at q_n, kept from
     * the previous step), then the velocity projection at q_{n+1} (sec. 3.3-3.4) */
    if (stab == HS_STAB_PROJECTION && nc > 0) {
        /* positions-first index-2 evaluated g(t_{n+1}, q*) with q* = q_{n+1} already */
        if (!(index2 && !ggl && !method_velocity_first(meth))) {
            rc = model_rc(T->constraint(m, t1, s->qn, sc.c1, NULL, NULL));
            if (rc) return rc;
        }
        for (int i = 0; i < nq; ++i) sc.b2[i] = HS_R(0.0);
        for (int i = 0; i < nc; ++i) sc.b2[nq + i] = sc.c1[i];
        hs_lu_solve(s->P, s->Pp, n, sc.b2);
        for (int i = 0; i < nq; ++i) s->qn[i] -= sc.b2[i];
        /* factor the matrix at q_{n+1}: velocity projection now, position projection next step */
        rc = projection_factor(s, t1, s->qn, sc.M, sc.G2, sc.c2, s->Pn, s->Ppn);
        if (rc) return rc;
        hs_matvec(sc.G2, nc, nq, s->un, sc.c3);
        for (int i = 0; i < nq; ++i) sc.b2[i] = HS_R(0.0);
        for (int i = 0; i < nc; ++i) sc.b2[nq + i] = sc.c3[i] + sc.c2[i];
        hs_lu_solve(s->Pn, s->Ppn, n, sc.b2);
        for (int i = 0; i < nq; ++i) s->un[i] -= sc.b2[i];
    }

    if (ggl && nc > 0) {
        /* the next step's eq. 11 needs the matrix at q_{n+1} */
        rc = projection_factor(s, t1, s->qn, sc.M, sc.G2, NULL, s->Pn, s->Ppn);
        if (rc) return rc;
    }

    if (!hs_all_finite(s->qn, nq) || !hs_all_finite(s->un, nq) || !hs_all_finite(s->zn, nz)
        || !hs_all_finite(s->lamn, nc))
        return HS_E_NONFINITE;

    /* 7. commit: swap the new buffers in (O(1), the step is transactional up to here) */
    hs_real *tp;
    tp = s->q; s->q = s->qn; s->qn = tp;
    tp = s->u; s->u = s->un; s->un = tp;
    tp = s->z; s->z = s->zn; s->zn = tp;
    tp = s->lambda; s->lambda = s->lamn; s->lamn = tp;
    if (keep_p) {
        tp = s->P; s->P = s->Pn; s->Pn = tp;
        int *ti = s->Pp; s->Pp = s->Ppn; s->Ppn = ti;
    }
    s->k++;
    s->t = t1;
    return HS_OK;
}

int hs_stepper_step(hs_stepper *s, const hs_real *in)
{
    if (!s) return HS_E_NULL;
    if (!s->ready) return HS_E_NOT_INIT;
    int rc = HS_OK;
    if (s->nin > 0 && !in) rc = HS_E_NULL;
    else if (s->nin > 0 && !hs_all_finite(in, s->nin)) rc = HS_E_INPUT;
    else rc = step_core(s, in);
    if (rc) {
        s->stats.faults++;
        s->stats.last_fault = rc;
        return rc;
    }
    s->stats.steps++;
    return HS_OK;
}

int hs_stepper_residual(const hs_stepper *s, hs_real *g)
{
    if (!s || !g) return HS_E_NULL;
    if (!s->ready) return HS_E_NOT_INIT;
    if (s->nc == 0) return HS_OK;
    return model_rc(s->model->type->constraint(s->model, s->t, s->q, g, NULL, NULL));
}

int hs_stepper_outputs(const hs_stepper *s, const hs_real *in, hs_real *y)
{
    if (!s || !y) return HS_E_NULL;
    if (!s->ready) return HS_E_NOT_INIT;
    if (!s->model->type->output) return HS_OK;
    return model_rc(s->model->type->output(s->model, s->t, s->q, s->u, s->z, in, y));
}

uint64_t hs_stepper_hash(const hs_stepper *s, uint64_t h)
{
    h = hs_hash_reals(h, s->q, s->nq);
    h = hs_hash_reals(h, s->u, s->nq);
    return hs_hash_reals(h, s->z, s->nz);
}
