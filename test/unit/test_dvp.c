/* test_dvp.c - method dvp (rt/hs_dvp.h) on the hand-written pendulum of [L1] sec. 6.1: a
 * constant-mass model without lagrange(), so dvp is SHAKE/RATTLE with midpoint forces ([WM]
 * eq. 4.8). Symplectic: the energy error is bounded and second order in h; the constraint is
 * solved, not stabilized, so |g| stays at the Newton residual; analytic and differenced
 * Jacobians give the same steps. Runs in both real types and on the board. */
#include "hs_sparse.h"
#include "hs_stage.h"
#include "hs_test.h"
#include "tutil.h"

/* Largest |E - E0| over n steps of h with Jacobians jac; max |g| into *g; the state into q. */
static int dvp_run(hs_jac jac, double h, long n, double *dev, double *g, hs_real q[2])
{
    static tsim t;
    tsim_model(&t, &hs_pendulum_type);
    hs_stepper_def d = hs_stepper_default_def();
    d.method = HS_METHOD_DVP; d.form = HS_FORM_INDEX2; d.stab = HS_STAB_NONE;
    d.jac = jac; d.h = (hs_real)h;
    if (hs_stepper_init(&t.s, &d, &t.m, HS_R(0.0), t.R, sizeof t.R / sizeof t.R[0], t.I,
                        sizeof t.I / sizeof t.I[0]) != HS_OK)
        return -1;
    hs_real y[1];
    hs_stepper_outputs(&t.s, 0, y);
    const double e0 = (double)y[0];
    double mg = 0.0, md = 0.0;
    for (long k = 0; k < n; ++k) {
        if (hs_stepper_step(&t.s, 0) != HS_OK) return -1;
        hs_stepper_outputs(&t.s, 0, y);
        const double a = tu_abs((double)y[0] - e0), b = tsim_abs_g(&t);
        md = a > md ? a : md;
        mg = b > mg ? b : mg;
    }
    *dev = md;
    *g = mg;
    q[0] = t.s.q[0];
    q[1] = t.s.q[1];
    return 0;
}

/* The chain of 4 rods (block pattern declared) with the sparse backend against the dense LU:
 * dvp's nonsymmetric Newton matrix (G(q_n) and G(q_{n+1}) borders) factors in both alike. */
#define DV_REALS 2000 /* measured need: 1652 dense, 1316 sparse */
#define DV_INTS 4000 /* 92 dense, 2675 sparse */
typedef struct dvsim {
    hs_model m;
    union { hs_real r[32]; double align; } p;
    hs_stepper s;
    hs_real R[DV_REALS];
    int I[DV_INTS];
} dvsim;
static dvsim dvA, dvB;

static int dv_start(dvsim *x, hs_ls_kind kind)
{
    static int tmp[DV_INTS];
    hs_model_init(&x->m, hs_model_find("chain"), &x->p);
    if (hs_model_set_param(&x->m, "n", HS_R(4.0)) != HS_OK) return HS_E_MODEL_PARAM;
    hs_stepper_def d = hs_stepper_default_def();
    d.method = HS_METHOD_DVP; d.form = HS_FORM_INDEX2; d.stab = HS_STAB_NONE; d.h = HS_R(1e-3);
    d.linsys = kind;
    size_t nr = 0, ni = 0;
    int rc = hs_stepper_workspace_tmp(&d, &x->m, tmp, DV_INTS, &nr, &ni);
    if (rc) return rc;
    if (nr > DV_REALS || ni > DV_INTS) return HS_E_SIZE;
    return hs_stepper_init(&x->s, &d, &x->m, HS_R(0.0), x->R, DV_REALS, x->I, DV_INTS);
}

/* A particle in polar coordinates q = (r, theta) on a radial spring: M = diag(m, m r^2) depends
 * on q, and the model has no lagrange() hook (force() carries the centrifugal and Coriolis
 * terms, as the other methods need). dvp would miss dT/dq and drift silently; init refuses. */
static int po_mass(const hs_model *m, hs_real t, const hs_real *q, hs_real *M)
{
    (void)m; (void)t;
    M[0] = HS_R(1.0); M[1] = HS_R(0.0); M[2] = HS_R(0.0); M[3] = q[0] * q[0];
    return HS_OK;
}
static int po_force(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                    const hs_real *z, const hs_real *in, hs_real *f)
{
    (void)m; (void)t; (void)z; (void)in;
    f[0] = q[0] * u[1] * u[1] - HS_R(10.0) * (q[0] - HS_R(1.0));
    f[1] = -HS_R(2.0) * q[0] * u[0] * u[1];
    return HS_OK;
}
static int po_initial(const hs_model *m, hs_real t0, hs_real *q0, hs_real *u0, hs_real *z0)
{
    (void)m; (void)t0; (void)z0;
    q0[0] = HS_R(1.2); q0[1] = HS_R(0.0); u0[0] = HS_R(0.0); u0[1] = HS_R(1.0);
    return HS_OK;
}
static const hs_model_type po_type = {
    .name = "polar_particle", .doc = "particle on a radial spring, polar coordinates",
    .nq = 2, .mass = po_mass, .force = po_force, .initial = po_initial};

/* 1 when needle occurs in hay (freestanding: the tests run on the boards too) */
static int tu_contains(const char *hay, const char *needle)
{
    for (; *hay != '\0'; ++hay) {
        const char *a = hay, *b = needle;
        while (*b != '\0' && *a == *b) { ++a; ++b; }
        if (*b == '\0') return 1;
    }
    return 0;
}

static void dvp_needs_lagrange(void)
{
    static tsim t;
    tsim_model(&t, &po_type);
    hs_stepper_def d = hs_stepper_default_def();
    d.method = HS_METHOD_DVP; d.form = HS_FORM_INDEX2; d.stab = HS_STAB_NONE; d.h = HS_R(1e-2);
    const int rc = hs_stepper_init(&t.s, &d, &t.m, HS_R(0.0), t.R, sizeof t.R / sizeof t.R[0], t.I,
                                   sizeof t.I / sizeof t.I[0]);
    CHECK(rc == HS_E_DEF_HOOK_LAGRANGE);
    CHECK(tu_contains(hs_status_str(rc), "lagrange()"));
    CHECK(tu_contains(hs_method_info_of(HS_METHOD_DVP)->hooks, "lagrange()"));
    /* the other methods take the same model (force() has the velocity terms) */
    d.method = HS_METHOD_SDIRK; d.stab = HS_STAB_PROJECTION;
    CHECK(hs_stepper_init(&t.s, &d, &t.m, HS_R(0.0), t.R, sizeof t.R / sizeof t.R[0], t.I,
                          sizeof t.I / sizeof t.I[0]) == HS_OK);
    CHECK(hs_stepper_step(&t.s, 0) == HS_OK);
}

/* The method table is the one list: row i is method i, names unique and parsed back, every
 * row with a summary, known property bits only, the stabilizations its bits say and a family
 * with the four functions the stepper calls, named alike by the rows it serves; an unknown
 * name is refused. */
static void method_table(void)
{
    for (int i = 0; i < HS_METHOD_COUNT; ++i) {
        const hs_method_info *r = hs_method_info_of((hs_method)i);
        const hs_family *f = (r != NULL) ? (const hs_family *)r->fam : NULL;
        hs_method me = HS_METHOD_COUNT > 0 ? (hs_method)0 : HS_METHOD_EXPLICIT;
        CHECK(r != NULL && (int)r->id == i && f != NULL && r->family[0] != '\0' && r->summary[0] != '\0'
              && (r->flags & ~(unsigned)HS_MF_ALL) == 0u && f->validate != NULL && f->configure != NULL
              && f->plan != NULL && f->step != NULL && hs_method_takes_stab((hs_method)i, HS_STAB_NONE) == 1
              && hs_method_takes_stab((hs_method)i, HS_STAB_PROJECTION) == (((r->flags & HS_MF_OWNSTAB) == 0u) ? 1 : 0)
              && hs_method_takes_stab((hs_method)i, HS_STAB_BAUMGARTE)
                     == (((r->flags & (HS_MF_OWNSTAB | HS_MF_NOBAUM)) == 0u) ? 1 : 0));
        CHECK(r != NULL && hs_method_parse(r->name, &me) == HS_OK && (int)me == i);
        for (int j = 0; j < i; ++j) {
            const hs_method_info *q = &hs_method_table[j];
            const int same_family = tu_contains(q->family, r->family) && tu_contains(r->family, q->family);
            CHECK((!tu_contains(q->name, r->name) || !tu_contains(r->name, q->name))
                  && ((q->fam == r->fam) == (same_family != 0)));
        }
    }
    hs_method me = HS_METHOD_SDIRK;
    CHECK(hs_method_parse("sdirkx", &me) == HS_E_DEF_METHOD && me == HS_METHOD_SDIRK);
    CHECK(hs_method_parse("sdir", &me) == HS_E_DEF_METHOD && hs_method_info_of((hs_method)HS_METHOD_COUNT) == NULL
          && hs_method_takes_stab((hs_method)HS_METHOD_COUNT, HS_STAB_NONE) == 0);
}

/* Beyond the method's range the step is refused, never non-finite: the chain of 4 rods
 * released horizontal under sdirk at h = 1/20 s whips faster than one Newton step per stage
 * resolves (it used to return HS_E_NONFINITE at step 60 after states of |u| ~ 1e6); now a
 * step is refused with HS_E_RANGE, the committed state finite and unchanged. */
static void range_refusal(void)
{
    static int tmp[DV_INTS];
    dvsim *x = &dvA;
    hs_model_init(&x->m, hs_model_find("chain"), &x->p);
    CHECK(hs_model_set_param(&x->m, "n", HS_R(4.0)) == HS_OK);
    hs_stepper_def d = hs_stepper_default_def();
    d.h = HS_R(0.05);
    d.linsys = HS_LS_DENSE;
    size_t nr = 0, ni = 0;
    CHECK(hs_stepper_workspace_tmp(&d, &x->m, tmp, DV_INTS, &nr, &ni) == HS_OK && nr <= DV_REALS && ni <= DV_INTS);
    /* the chain starts at rest: the init check (its rods' rate now, 0) admits it, and the
     * in-step range checks refuse the divergence (rt/METHODS.md "Where a method stops") */
    {
        hs_real how = 1, q0[12], u0[12], z0[1];
        int dg = 1;
        CHECK(x->m.type->initial(&x->m, HS_R(0.0), q0, u0, z0) == HS_OK);
        CHECK(hs_stepper_range(&d, &x->m, HS_R(0.0), q0, u0, &how, &dg) == HS_OK && dg == 0 && how == 0);
    }
    CHECK(hs_stepper_init(&x->s, &d, &x->m, HS_R(0.0), x->R, DV_REALS, x->I, DV_INTS) == HS_OK);
    static hs_real q[64], u[64];
    int rc = HS_OK, k;
    for (k = 0; k < 200 && rc == HS_OK; ++k) {
        for (int i = 0; i < x->s.nq; ++i) { q[i] = x->s.q[i]; u[i] = x->s.u[i]; }
        rc = hs_stepper_step(&x->s, 0);
    }
    CHECK(rc == HS_E_RANGE && k > 10);
    int same = 1;
    for (int i = 0; i < x->s.nq; ++i) same &= x->s.q[i] == q[i] && x->s.u[i] == u[i];
    CHECK(same && hs_all_finite(x->s.q, x->s.nq) && hs_all_finite(x->s.u, x->s.nq));
    CHECK(x->s.stats.last_fault == HS_E_RANGE && x->s.stats.sd_newton > HS_R(0.0));
    /* the rotation check names the rod it refuses for (h |theta'| > 0.5), else none */
    CHECK(x->s.stats.range_body == -1 || (x->s.stats.range_body >= 0 && x->s.stats.range_body < 4
                                          && x->s.stats.range_hw > HS_R(0.5)));
}

void test_dvp(void)
{
    range_refusal();
    method_table();
    dvp_needs_lagrange();
    {
        CHECK(dv_start(&dvA, HS_LS_DENSE) == HS_OK && dv_start(&dvB, HS_LS_SPARSE) == HS_OK);
        CHECK(dvA.s.lsK.kind == HS_LS_DENSE && dvB.s.lsK.kind == HS_LS_SPARSE);
        double dq = 0.0;
        int rc = HS_OK;
        for (int k = 0; k < 300 && rc == HS_OK; ++k) {
            rc = hs_stepper_step(&dvA.s, 0);
            if (rc == HS_OK) rc = hs_stepper_step(&dvB.s, 0);
            for (int i = 0; i < dvA.s.nq; ++i) {
                const double e = tu_abs((double)(dvA.s.q[i] - dvB.s.q[i]));
                dq = e > dq ? e : dq;
            }
        }
        CHECK(rc == HS_OK);
#ifdef HS_REAL_FLOAT
        CHECK_RANGE(dq, 0.0, 1e-4);
#else
        CHECK_RANGE(dq, 0.0, 1e-12);
#endif
    }
    double d1, d2, g1, g2, dfd, gfd;
    hs_real q1[2], q2[2], qfd[2];
#ifdef HS_REAL_FLOAT
    const double gtol = 1e-5, qtol = 1e-4;
#else
    const double gtol = 1e-13, qtol = 1e-9;
#endif
    CHECK(hs_method_name(HS_METHOD_DVP)[0] == 'd' && hs_method_name(HS_METHOD_DVP)[1] == 'v');
    /* second order, bounded: 10 s at 8 ms and 4 ms (large enough that float round-off stays
     * below the truncation error); the deviation falls 4x per halving */
    CHECK(dvp_run(HS_JAC_AUTO, 8e-3, 1250, &d1, &g1, q1) == 0);
    CHECK(dvp_run(HS_JAC_AUTO, 4e-3, 2500, &d2, &g2, q2) == 0);
    hs_test_puts("  pendulum dvp max |E - E0| h=8ms ");
    hs_test_put_real(d1);
    hs_test_puts(" h=4ms ");
    hs_test_put_real(d2);
    hs_test_puts(" max|g| ");
    hs_test_put_real(g1 > g2 ? g1 : g2);
    hs_test_putc('\n');
    CHECK_RANGE(d1 / d2, 3.5, 4.5);
    CHECK_RANGE(d1, 0.0, 1e-2); /* of the 10 J swing m g L */
    CHECK_RANGE(g1 > g2 ? g1 : g2, 0.0, gtol);
    /* differenced Jacobians: same Newton limit */
    CHECK(dvp_run(HS_JAC_FD, 8e-3, 1250, &dfd, &gfd, qfd) == 0);
    CHECK_RANGE(tu_abs((double)(qfd[0] - q1[0])) + tu_abs((double)(qfd[1] - q1[1])), 0.0, qtol);
    /* [L1]'s h = 1/60, where J2 + projection diverges (test_pendulum): dvp keeps swinging,
     * energy within 1 % of m g L after 10 s */
    CHECK(dvp_run(HS_JAC_AUTO, 1.0 / 60.0, 600, &d1, &g1, q1) == 0);
    CHECK_RANGE(d1, 0.0, 0.1);
    CHECK_RANGE(g1, 0.0, gtol);
    /* the test equation ([BAE] sec. 2): dvp is the implicit midpoint rule there, so with
     * b = 0 it keeps the energy 1/2 u^2 + 1/2 a q^2 = a/2 at any h^2 a (here 1e4) */
    {
        static tsim t;
        tsim_model(&t, &hs_test_eq_type);
        CHECK(hs_model_set_param(&t.m, "a", HS_R(1e8)) == HS_OK);
        CHECK(tsim_start(&t, HS_METHOD_DVP, HS_FORM_INDEX2, HS_STAB_NONE, HS_R(1e-2)) == HS_OK);
        CHECK(tsim_run(&t, 1000, 0) == HS_OK);
        const double q = (double)t.s.q[0], u = (double)t.s.u[0];
        CHECK_RANGE((0.5 * u * u + 0.5 * 1e8 * q * q) / (0.5 * 1e8), 1.0 - 100 * qtol, 1.0 + 100 * qtol);
    }
}
