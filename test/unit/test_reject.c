/* test_reject.c - every rejection path returns its code and leaves the stepper bit-for-bit
 * unchanged: invalid Def fields, workspace too small, a singular matrix, NaN/Inf inputs, a
 * force that turns NaN, a model fault, and invalid model parameters. */
#include "hs_test.h"
#include "tutil.h"

/* ---- a test-only model: a mass on the unit circle with the constraint given twice (rank
 * deficient G, so every KKT matrix is singular), and a force that turns NaN after t_nan ---- */
typedef struct twin_params { hs_real twin; hs_real t_nan; hs_real fault_at; } twin_params;
static const hs_param_info twin_pi[] = {
    {"twin", 0, 0, 0, 1, "1: repeat the constraint (singular)"},
    {"t_nan", sizeof(hs_real), 1e9, 0, 1e9, "time from which the force is NaN"},
    {"fault_at", 2 * sizeof(hs_real), 1e9, 0, 1e9, "time from which force() reports a fault"},
};
#define TP(m) ((const twin_params *)(m)->p)
static int twin_initial(const hs_model *m, hs_real t0, hs_real *q, hs_real *u, hs_real *z)
{
    (void)m; (void)t0; (void)z;
    q[0] = 1; q[1] = 0; u[0] = 0; u[1] = 1;
    return HS_OK;
}
static int twin_mass(const hs_model *m, hs_real t, const hs_real *q, hs_real *M)
{
    (void)m; (void)t; (void)q;
    M[0] = 1; M[1] = 0; M[2] = 0; M[3] = 1;
    return HS_OK;
}
static int twin_force(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                      const hs_real *z, const hs_real *in, hs_real *f)
{
    (void)q; (void)u; (void)z;
    if (t >= TP(m)->fault_at) return HS_E_MODEL;
    f[0] = in[0];
    f[1] = t >= TP(m)->t_nan ? (hs_real)__builtin_nan("") : HS_R(-1.0);
    return HS_OK;
}
static int twin_constraint(const hs_model *m, hs_real t, const hs_real *q, hs_real *g, hs_real *G,
                           hs_real *gt)
{
    (void)t;
    hs_real k = TP(m)->twin > HS_R(0.5) ? HS_R(2.0) : HS_R(0.0);
    if (g) { g[0] = q[0] * q[0] + q[1] * q[1] - 1; g[1] = k * g[0] + (k > 0 ? 0 : q[1]); }
    if (G) {
        G[0] = 2 * q[0]; G[1] = 2 * q[1];
        G[2] = k * G[0]; G[3] = k * G[1] + (k > 0 ? 0 : 1);
    }
    if (gt) { gt[0] = 0; gt[1] = 0; }
    return HS_OK;
}
static int twin_gamma(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, hs_real *gam)
{
    (void)t; (void)q;
    hs_real k = TP(m)->twin > HS_R(0.5) ? HS_R(2.0) : HS_R(0.0);
    gam[0] = 2 * (u[0] * u[0] + u[1] * u[1]);
    gam[1] = k * gam[0];
    return HS_OK;
}
static const hs_model_type twin_type = {
    .name = "twin", .doc = "test model", .nq = 2, .nc = 2, .nz = 0, .nin = 1, .nout = 0,
    .params = twin_pi, .nparams = 3, .param_size = sizeof(twin_params),
    .initial = twin_initial, .mass = twin_mass, .force = twin_force,
    .constraint = twin_constraint, .gamma = twin_gamma};

/* Byte image of everything a refused call must not change: the stepper struct minus its
 * statistics, and the committed state it points to. */
typedef struct snap { unsigned char b[sizeof(hs_stepper)]; hs_real st[64]; int n; } snap;

static void take(const hs_stepper *s, snap *o)
{
    hs_stepper c = *s;
    const unsigned char *p = (const unsigned char *)&c;
    c.stats.faults = 0; c.stats.last_fault = 0; c.stats.force_evals = 0; c.stats.factorizations = 0;
    for (unsigned i = 0; i < sizeof c; ++i) o->b[i] = p[i];
    o->n = 0;
    for (int i = 0; i < s->nq; ++i) { o->st[o->n++] = s->q[i]; o->st[o->n++] = s->u[i]; }
    for (int i = 0; i < s->nz; ++i) o->st[o->n++] = s->z[i];
    for (int i = 0; i < s->nc; ++i) o->st[o->n++] = s->lambda[i];
    /* the projection factor at q_n is committed state when the configuration keeps one */
    for (int i = 0; s->keep_p && i < s->n * s->n && o->n < 64; ++i) o->st[o->n++] = s->P[i];
}

static int same(const snap *a, const snap *b)
{
    /* padding bytes of the struct copy are copied too, so a byte compare is exact */
    int eq = a->n == b->n;
    for (unsigned i = 0; i < sizeof a->b; ++i) eq &= a->b[i] == b->b[i];
    const unsigned char *x = (const unsigned char *)a->st, *y = (const unsigned char *)b->st;
    for (unsigned i = 0; i < (unsigned)a->n * sizeof(hs_real); ++i) eq &= x[i] == y[i];
    return eq;
}

static void def_rejects(void)
{
    static tsim t;
    tsim_model(&t, &hs_circular_track_type);
    CHECK(tsim_start(&t, HS_METHOD_J2, HS_FORM_INDEX2, HS_STAB_PROJECTION, HS_R(1e-3)) == HS_OK);
    CHECK(tsim_run(&t, 10, 0) == HS_OK);
    static snap a, b;
    take(&t.s, &a);
    struct { hs_stepper_def d; int code; } cases[20];
    int n = 0;
    hs_stepper_def d0 = hs_stepper_default_def();
#define CASE(field, val, c) do { cases[n].d = d0; cases[n].d.field = val; cases[n].code = c; ++n; } while (0)
    CASE(h, HS_R(0.0), HS_E_DEF_H);
    CASE(h, HS_R(-1e-3), HS_E_DEF_H);
    CASE(h, (hs_real)__builtin_nan(""), HS_E_DEF_H);
    CASE(h, (hs_real)__builtin_inf(), HS_E_DEF_H);
    CASE(method, (hs_method)99, HS_E_DEF_METHOD);
    CASE(form, (hs_form)7, HS_E_DEF_FORM);
    CASE(stab, (hs_stab)9, HS_E_DEF_STAB);
    CASE(form, HS_FORM_GGL, HS_E_DEF_FORM); /* GGL with the default projection: stabilized twice */
    cases[n].d = d0; cases[n].d.form = HS_FORM_GGL; cases[n].d.stab = HS_STAB_NONE;
    cases[n].d.method = HS_METHOD_SYMPLECTIC; cases[n].code = HS_E_DEF_FORM; ++n;
    CASE(jac, HS_JAC_ANALYTIC, HS_E_DEF_JAC); /* circular_track has no analytic Jacobian */
    CASE(jac, (hs_jac)5, HS_E_DEF_JAC);
    CASE(fd_rel, HS_R(0.0), HS_E_DEF_FD);
    cases[n].d = d0; cases[n].d.stab = HS_STAB_BAUMGARTE; cases[n].d.alpha = HS_R(-1.0);
    cases[n].code = HS_E_DEF_BAUMGARTE; ++n;
    cases[n].d = d0; cases[n].d.stab = HS_STAB_BAUMGARTE; cases[n].d.form = HS_FORM_INDEX1;
    cases[n].d.beta = HS_R(-5.0); cases[n].code = HS_E_DEF_BAUMGARTE; ++n;
    cases[n].d = d0; cases[n].d.stab = HS_STAB_BAUMGARTE; cases[n].d.alpha = HS_R(3.0) / d0.h;
    cases[n].code = HS_E_DEF_BAUMGARTE; ++n; /* index-2: h alpha > 2 amplifies the drift */
    for (int i = 0; i < n; ++i) {
        CHECK(hs_stepper_def_validate(&cases[i].d, &t.m) == cases[i].code);
        CHECK(hs_stepper_init(&t.s, &cases[i].d, &t.m, 0, t.R, sizeof t.R / sizeof t.R[0], t.I,
                              sizeof t.I / sizeof t.I[0]) == cases[i].code);
        take(&t.s, &b);
        CHECK(same(&a, &b));
    }
    /* workspace too small by one real, and by one int, of the exact need */
    size_t nr = 0, ni = 0;
    static int sz[256];
    CHECK(hs_stepper_workspace_tmp(&d0, &t.m, sz, 256, &nr, &ni) == HS_OK);
    CHECK(nr <= (size_t)HS_STEPPER_REALS(2, 1, 1) && ni <= (size_t)HS_STEPPER_INTS(2, 1));
    CHECK(hs_stepper_init(&t.s, &d0, &t.m, 0, t.R, nr - 1, t.I, sizeof t.I / sizeof t.I[0]) == HS_E_SIZE);
    CHECK(hs_stepper_init(&t.s, &d0, &t.m, 0, t.R, sizeof t.R / sizeof t.R[0], t.I, ni - 1) == HS_E_SIZE);
    CHECK(hs_stepper_init(&t.s, &d0, &t.m, 0, t.R, nr, t.I, ni) == HS_OK); /* exactly enough is enough */
    /* the dense bound is enough for every method and form of these sizes */
    for (int me = 0; me < HS_METHOD_COUNT; ++me)
        for (int fo = 0; fo < 2; ++fo) {
            hs_stepper_def d = d0;
            d.method = (hs_method)me;
            d.form = (hs_form)fo;
            if (d.method == HS_METHOD_SPOOK) { /* velocity level, its own stabilization */
                if (d.form != HS_FORM_INDEX2) continue;
                d.stab = HS_STAB_NONE;
            }
            if (hs_stepper_def_validate(&d, &t.m) != HS_OK) {
                CHECK(hs_stepper_workspace_tmp(&d, &t.m, sz, 256, &nr, &ni) == hs_stepper_def_validate(&d, &t.m));
                continue; /* e.g. jk with index-1: refused, and so is its sizing */
            }
            CHECK(hs_stepper_workspace_tmp(&d, &t.m, sz, 256, &nr, &ni) == HS_OK);
            CHECK(nr <= (size_t)HS_STEPPER_REALS(2, 1, 1) && ni <= (size_t)HS_STEPPER_INTS(2, 1));
        }
}

static void model_param_rejects(void)
{
    static tsim t;
    hs_real v;
    tsim_model(&t, &hs_car_axle_type);
    CHECK(hs_model_set_param(&t.m, "eps", HS_R(-1.0)) == HS_E_MODEL_PARAM);
    CHECK(hs_model_set_param(&t.m, "eps", (hs_real)__builtin_nan("")) == HS_E_MODEL_PARAM);
    CHECK(hs_model_set_param(&t.m, "nope", HS_R(1.0)) == HS_E_UNKNOWN_PARAM);
    CHECK(hs_model_get_param(&t.m, "eps", &v) == HS_OK && v == HS_R(1e-2)); /* left intact */
    /* in range alone but inconsistent together: the bump leaves the circle of radius L */
    CHECK(hs_model_set_param(&t.m, "r", HS_R(2.0)) == HS_OK);
    CHECK(hs_model_check(&t.m) == HS_E_MODEL_PARAM);
    CHECK(tsim_start(&t, HS_METHOD_J2, HS_FORM_INDEX2, HS_STAB_NONE, HS_R(1e-3)) == HS_E_MODEL_PARAM);
    tsim_model(&t, &hs_circular_track_type);
    CHECK(hs_model_set_param(&t.m, "external", HS_R(0.5)) == HS_OK);
    CHECK(hs_model_check(&t.m) == HS_E_MODEL_PARAM);
}

static void step_rejects(void)
{
    static tsim t;
    static snap a, b;
    hs_real in[1];

    /* singular: the repeated constraint makes the KKT matrix rank deficient */
    tsim_model(&t, &twin_type);
    CHECK(hs_model_set_param(&t.m, "twin", 1) == HS_OK);
    CHECK(tsim_start(&t, HS_METHOD_J2, HS_FORM_INDEX2, HS_STAB_PROJECTION, HS_R(1e-3)) == HS_E_SINGULAR);
    in[0] = 0;
    for (int fo = 0; fo < 2; ++fo) {
        /* the configuration is fixed at init (the plan): one stepper per formulation */
        hs_stepper_stats keep = t.s.stats;
        CHECK(tsim_start(&t, HS_METHOD_J2, (hs_form)fo, HS_STAB_NONE, HS_R(1e-3)) == HS_OK);
        if (fo) t.s.stats = keep;
        take(&t.s, &a);
        CHECK(hs_stepper_step(&t.s, in) == HS_E_SINGULAR);
        take(&t.s, &b);
        CHECK(same(&a, &b));
    }
    CHECK(t.s.stats.faults == 2 && t.s.stats.last_fault == HS_E_SINGULAR && t.s.stats.steps == 0);

    /* NaN and Inf inputs; then a NaN force; then a model fault: each refused, state intact */
    tsim_model(&t, &twin_type);
    CHECK(hs_model_set_param(&t.m, "t_nan", HS_R(0.0105)) == HS_OK);
    CHECK(tsim_start(&t, HS_METHOD_J2, HS_FORM_INDEX2, HS_STAB_PROJECTION, HS_R(1e-3)) == HS_OK);
    in[0] = 0;
    for (int k = 0; k < 5; ++k) CHECK(hs_stepper_step(&t.s, in) == HS_OK);
    take(&t.s, &a);
    in[0] = (hs_real)__builtin_nan("");
    CHECK(hs_stepper_step(&t.s, in) == HS_E_INPUT);
    in[0] = (hs_real)__builtin_inf();
    CHECK(hs_stepper_step(&t.s, in) == HS_E_INPUT);
    in[0] = -(hs_real)__builtin_inf();
    CHECK(hs_stepper_step(&t.s, in) == HS_E_INPUT);
    CHECK(hs_stepper_step(&t.s, 0) == HS_E_NULL);
    take(&t.s, &b);
    CHECK(same(&a, &b));
    in[0] = 0;
    for (int k = 0; k < 6; ++k) CHECK(hs_stepper_step(&t.s, in) == HS_OK); /* recovers: t = 0.011 */
    take(&t.s, &a);
    CHECK(hs_stepper_step(&t.s, in) == HS_E_NONFINITE);
    take(&t.s, &b);
    CHECK(same(&a, &b));

    tsim_model(&t, &twin_type);
    CHECK(hs_model_set_param(&t.m, "fault_at", HS_R(0.0025)) == HS_OK);
    CHECK(tsim_start(&t, HS_METHOD_J1, HS_FORM_INDEX1, HS_STAB_NONE, HS_R(1e-3)) == HS_OK);
    CHECK(tsim_run(&t, 3, 0) == HS_OK);
    take(&t.s, &a);
    CHECK(hs_stepper_step(&t.s, in) == HS_E_MODEL);
    take(&t.s, &b);
    CHECK(same(&a, &b));

    /* set_state with a non-finite state is refused; a finite one is taken */
    tsim_model(&t, &hs_pendulum_type);
    CHECK(tsim_start(&t, HS_METHOD_J2, HS_FORM_INDEX2, HS_STAB_PROJECTION, HS_R(1e-3)) == HS_OK);
    take(&t.s, &a);
    hs_real q[2] = {1, (hs_real)__builtin_nan("")}, u[2] = {0, 0};
    CHECK(hs_stepper_set_state(&t.s, 0, q, u, 0) == HS_E_STATE);
    hs_real q0[2] = {0, 0}; /* the pendulum constraint is undefined at the pivot: model fault */
    CHECK(hs_stepper_set_state(&t.s, 0, q0, u, 0) == HS_E_MODEL);
    take(&t.s, &b);
    CHECK(same(&a, &b));
    hs_real q1[2] = {0, -1};
    CHECK(hs_stepper_set_state(&t.s, 0, q1, u, 0) == HS_OK);
    CHECK(t.s.q[1] == HS_R(-1.0));

    /* an uninitialized stepper refuses to step */
    static hs_stepper z;
    CHECK(hs_stepper_step(&z, 0) == HS_E_NOT_INIT);
}

void test_reject(void)
{
    def_rejects();
    model_param_rejects();
    step_rejects();
}
