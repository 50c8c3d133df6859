/* test_mb_lang.c - the .hsm language of issue 19 item 1: param arithmetic (precedence,
 * associativity, unary minus, parentheses) and its errors with line and field, --param
 * overrides, input/output declarations; the new force elements' analytic derivatives against
 * central differences and their potentials; the quarter car (model/mech/quarter_car.hsm)
 * against its linear 2-DOF closed forms: static deflections m g / k, the actuator's F / k_s,
 * the acceleration output at a known state and both undamped natural frequencies. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hs_mb_file.h"
#include "hs_stepper.h"
#include "mb_test.h"

#define PI 3.141592653589793

static hs_mb_store st;
static hs_mb_model mb;

static double param_of(const char *name)
{
    for (int i = 0; i < st.nparams; ++i) if (!strcmp(st.param_names[i], name)) return (double)st.param_val[i];
    return NAN;
}

static int arithmetic(void)
{
    static const char text[] =
        "model x dim=2\n"
        "param a = 2 + 3 * 4\n"          /* 14: * before + */
        "param b = (2 + 3) * 4\n"        /* 20 */
        "param c = 8 / 2 / 2\n"          /* 2: left to right */
        "param d = 10 - 4 - 3\n"         /* 3: left to right */
        "param e = -a + b * -0.5\n"      /* -24: unary minus binds tighter than * */
        "param f = -(a - b) / (1 + 1)\n" /* 3 */
        "param g=2e-3*1e3\n"             /* 2: exponents are part of numbers */
        "param h = --a\n"                /* 14 */
        "param m = 0.1 * 3\n"            /* 0.30000000000000004, the double product */
        "body bob point2 mass=a/7+m*0 pos=b-c*10,e+24\n";
    hs_mb_error err;
    memset(&err, 0, sizeof err);
    int rc = hs_mb_parse(text, strlen(text), &st, &err);
    const double want[] = {14, 20, 2, 3, -24, 3, 2, 14, 0.1 * 3};
    const char *names[] = {"a", "b", "c", "d", "e", "f", "g", "h", "m"};
    int bad = rc != 0;
    for (int i = 0; i < 9 && rc == 0; ++i)
        if (param_of(names[i]) != want[i]) { printf("  param %s = %.17g, want %.17g\n", names[i], param_of(names[i]), want[i]); ++bad; }
    if (rc == 0 && (st.bodies[0].mass != 2 || st.bodies[0].pos[0] != 0 || st.bodies[0].pos[1] != 0)) ++bad;
    /* plain numbers read through the expression reader keep their bits */
    static const char plain[] = "model x dim=2\nbody b point2 mass=0.0833333333333333 pos=3.141592653589793,-1e-300\n";
    rc = hs_mb_parse(plain, strlen(plain), &st, &err);
    if (rc || st.bodies[0].mass != 0.0833333333333333 || st.bodies[0].pos[0] != 3.141592653589793 || st.bodies[0].pos[1] != -1e-300) ++bad;
    return mb_check(bad == 0, "params: + - * / precedence, left associativity, unary minus, parentheses, params in fields; plain numbers keep their bits");
}

static int lang_errors(void)
{
    static const struct { const char *text; int line; const char *field; } cases[] = {
        {"model x dim=2\nparam a = 1 +\n", 2, "a"},
        {"model x dim=2\nparam a = (1 + 2\n", 2, "a"},
        {"model x dim=2\nparam a = 1 / (2 - 2)\n", 2, "a"},
        {"model x dim=2\nparam a = 1\nparam a = 2\n", 3, "a"},
        {"model x dim=2\nbody b point2 mass=nosuch*2\n", 2, "mass"},
        {"model x dim=2\nparam a = 1 2\n", 2, "a"},               /* two numbers, no operator */
        {"param a = 1\nmodel x dim=2\n", 1, "param"},
        {"model x dim=2\nbody b point2 mass=1\ninput u\ninput u\n", 4, "u"},
        {"model x dim=2\ninput u min=1 max=0\n", 2, "max"},
        {"model x dim=2\ninput u min=-1 max=1 fallback=2\n", 2, "fallback"},
        {"model x dim=2\ninput u stale=0\n", 2, "stale"},
        {"model x dim=2 nin=1\ninput u\n", 2, "input"},
        {"model x dim=2\nbody b point2 mass=1\nforce f extforce a=b in=nosuch axis=1,0\n", 3, "in"},
        {"model x dim=2\nbody b point2 mass=1\nforce f spring a=b in=0\n", 3, "in"},  /* key not taken by a spring */
        {"model x dim=2\nbody b point2 mass=1\nforce f tableforce a=b axis=1,0 t=0,1 v=1\n", 3, "v"},
        {"model x dim=2\nbody b point2 mass=1\nforce f tableforce a=b axis=1,0 t=1,0 v=1,2\n", 3, "t"},
        {"model x dim=2\nbody b point2 mass=1\nforce f tableforce a=b t=0,1 v=1,2\n", 3, "force"},
        {"model x dim=2\nbody b point2 mass=1\nforce f roadspring a=b axis=0,2 k=1 in=0\n", 3, "axis"},
        {"model x dim=2\nbody b point2 mass=1\nforce f roadspring a=b axis=0,1 k=-1 in=0\n", 3, "k"},
        {"model x dim=2\nbody b point2 mass=1\noutput y acc b.q\n", 3, "b.q"},
        {"model x dim=2\nbody b point2 mass=1\noutput y pos b.y unit=m\noutput y vel b.y\n", 4, "y"},
        /* acc of a jointed body is taken now (test_mb_acc.c); a point given by one value is not */
        {"model x dim=2\nbody b planar mass=1 inertia=1\njoint j distance a=b b=ground@-1,0 length=1\noutput y acc b.y at=1\n", 4, "at"},
    };
    int bad = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        hs_mb_error err;
        memset(&err, 0, sizeof err);
        int rc = hs_mb_parse_compile(cases[i].text, strlen(cases[i].text), &st, &mb, 0, &err);
        if (rc == 0 || err.line != cases[i].line || strcmp(err.field, cases[i].field)) {
            printf("  case %zu: rc %d line %d field '%s' (%s)\n", i, rc, err.line, err.field, err.msg);
            ++bad;
        }
    }
    char what[160];
    snprintf(what, sizeof what, "language errors refused with line and field (%zu cases: expressions, params, signals, element keys, tables, outputs)",
             sizeof cases / sizeof cases[0]);
    return mb_check(bad == 0, what);
}

/* --param overrides: replace the value, feed the expressions below, unknown names refused. */
static int overrides(void)
{
    static const char text[] = "model x dim=2\nparam m = 2\nparam w = m * 3\nbody b point2 mass=w\n";
    hs_mb_overrides o;
    memset(&o, 0, sizeof o);
    const char *why = "";
    hs_mb_override_add(&o, "m", 5, &why);
    hs_mb_error err;
    int rc = hs_mb_parse_ovr(text, strlen(text), &st, &o, &err);
    int ok = rc == 0 && st.bodies[0].mass == 15;
    hs_mb_override_add(&o, "nosuch", 1, &why);
    rc = hs_mb_parse_ovr(text, strlen(text), &st, &o, &err);
    ok = ok && rc != 0 && !strcmp(err.field, "nosuch");
    return mb_check(ok, "--param NAME=VALUE replaces a param (mass = m*3 = 15 with m=5); a name the file lacks is refused");
}

/* The new elements: derivatives against differences, potentials against the forces. */
static int new_elements(void)
{
    static const char d2[] =
        "model fx_new2 dim=2\ngravity 0,-9.81\n"
        "input u1 unit=N\ninput z unit=m\ninput u2\n"
        "body p planar mass=2 inertia=0.3 pos=0,0\n"
        "body q planar mass=1.5 inertia=0.2 pos=1,0.5 angle=0.4\n"
        "body r point2 mass=0.7 pos=-1,2\n"
        "joint j distance a=r b=ground@-1,1 length=1\n"
        "force c1 constforce a=q@0.3,-0.2 f=1.5,-2\n"
        "force c2 consttorque a=p tau=0.7\n"
        "force t1 tableforce a=p@0.1,0.4 axis=0.6,0.8 t=0,0.5,1,2 v=0,2,-1,3\n"
        "force t2 tabletorque a=q t=0,1,2 v=1,-2,0.5\n"
        "force i1 inforce a=p@0.2,-0.1 b=r in=u1 scale=2\n"
        "force i2 inforce a=q b=ground@3,1 in=u2\n"
        "force rs roadspring a=r b=q@0.2,0 axis=0,1 k=40 c=3 l0=0.2 in=z scale=0.5\n"
        "force ae aero a=q@0.2,0.1 cda=0.6 cla=-0.3\n";
    static const char d3[] =
        "model fx_new3 dim=3\ngravity 0,0,-9.81\n"
        "input u1\ninput z\n"
        "body s spatial mass=2 inertia=1,2,2.5 pos=0,0,0 quat=0.9,0.1,0.3,0.3\n"
        "body p point3 mass=1 pos=1,1,1\n"
        "joint j distance a=p b=ground@1,1,0 length=1\n"
        "force c1 constforce a=s@0.3,-0.2,0.1 f=1.5,-2,0.5\n"
        "force c2 consttorque a=s tau=0.7,-0.2,0.4\n"
        "force t1 tableforce a=s@0,0.1,0.4 axis=0,0.6,0.8 t=0,0.5,1,2 v=0,2,-1,3\n"
        "force t2 tabletorque a=s axis=0,0,1 t=0,1,2 v=1,-2,0.5\n"
        "force i1 inforce a=s@0.2,-0.1,0 b=p in=u1 scale=2\n"
        "force rs roadspring a=p b=s@0.2,0,0.1 axis=0,0,1 k=40 c=3 l0=0.2 in=z\n"
        "force ae aero a=s@0.3,0.1,-0.2 cda=0.6 cla=0.25 rho=1.1 axis=0,0.6,0.8\n";
    static const char cons[] =
        "model fx_cons dim=2\ngravity 0,-9.81\ninput z\ninput u\n"
        "body p planar mass=2 inertia=0.3 pos=0,0\n"
        "body r point2 mass=0.7 pos=-1,2\n"
        "joint j distance a=p@0.2,0.1 b=ground@0.2,1.1 length=1\n"
        "force c1 constforce a=p@0.3,-0.2 f=1.5,-2\n"
        "force rs roadspring a=r b=p@0.2,0 axis=0,1 k=40 l0=0.2 in=z\n"
        "force i1 inforce a=p b=r in=u\n";
    static hs_mb_store s2;
    static hs_mb_model m2;
    const char *texts[3] = {d2, d3, cons};
    int bad[3] = {0, 0, 0};
    for (int i = 0; i < 3; ++i) {
        hs_mb_error err;
        if (hs_mb_parse_compile(texts[i], strlen(texts[i]), &s2, &m2, 0, &err)) {
            printf("  fixture %d refused: line %d field '%s': %s %s\n", i, err.line, err.field, err.msg, err.detail);
            bad[i] = 1;
            continue;
        }
        bad[i] = i < 2 ? mb_deriv_check(&s2.desc, 20) : mb_potential_check(&s2.desc, 10);
    }
    char what[300];
    snprintf(what, sizeof what, "constforce, consttorque, tableforce, tabletorque, inforce, roadspring, aero: fq, fu = central differences (2-D %d bad, 3-D %d bad, packed = dense); f = -dV/dq at rest (%d bad)",
             bad[0], bad[1], bad[2]);
    return mb_check(bad[0] == 0 && bad[1] == 0 && bad[2] == 0, what);
}

/* The loads' values: a table piecewise linear and held at its ends, constant force and torque,
 * an input force along the line of its points, a road spring's anchor moved by its input. */
static int load_values(void)
{
    static const char text[] =
        "model loads dim=2\ninput u\ninput z\n"
        "body p planar mass=2 inertia=0.5 pos=0,0\n"
        "body r point2 mass=1 pos=3,4\n"
        "force t1 tableforce a=p axis=0,1 t=0,0.5,1 v=0,2,-1\n"
        "force c1 constforce a=p f=1.5,-2\n"
        "force c2 consttorque a=p tau=0.25\n"
        "force i1 inforce a=r b=ground in=u scale=2\n"
        "force rs roadspring a=r axis=0,1 k=10 l0=1 in=z\n";
    static hs_mb_store s2;
    static hs_mb_model m2;
    hs_mb_error err;
    if (hs_mb_parse_compile(text, strlen(text), &s2, &m2, 0, &err)) return mb_check(0, "loads fixture compiles");
    hs_model m;
    hs_mb_model_init(&m, &m2);
    static const double ts[5] = {-1, 0.25, 0.75, 1, 7}, tab[5] = {0, 1, 0.5, -1, -1};
    const hs_real q[5] = {0, 0, 0, 3, 4}, u[5] = {0, 0, 0, 0, 0}, in[2] = {0.5, 0.25};
    hs_real f[5];
    int bad = 0;
    for (int i = 0; i < 5; ++i) {
        m2.type.force(&m, (hs_real)ts[i], q, u, NULL, in, f);
        /* body p: table along y plus the constant force and torque */
        if (f[0] != 1.5 || fabs(f[1] - (tab[i] - 2)) > 1e-15 || f[2] != 0.25) ++bad;
        /* body r: 2 * 0.5 = 1 N along (3,4)/5, road spring -(10 (4 - 0.25 - 1)) = -27.5 N in y */
        if (fabs(f[3] - 0.6) > 1e-15 || fabs(f[4] - (0.8 - 27.5)) > 1e-13) ++bad;
    }
    return mb_check(bad == 0, "tableforce piecewise linear in t, held before t0 and after tn (5 times); constforce, consttorque, inforce (2 x 0.5 N along (3,4)/5), roadspring anchor at the input z: exact values");
}

/* ---- the quarter car ---- */

typedef struct qrun {
    hs_mb_store st;
    hs_mb_model mb;
    hs_model m;
    hs_stepper s;
    hs_real R[HS_STEPPER_REALS(8, 1, 0)];
    int I[HS_STEPPER_INTS(8, 1)];
} qrun;

static char qpath[512];

static int qload(qrun *r, int n, const char *const *names, const double *values)
{
    hs_mb_overrides o;
    memset(&o, 0, sizeof o);
    const char *why = "";
    for (int i = 0; i < n; ++i) hs_mb_override_add(&o, names[i], values[i], &why);
    char msg[600];
    if (hs_mb_load_file_ovr(qpath, &r->st, &o, &r->mb, 0, msg, sizeof msg)) { printf("  %s\n", msg); return -1; }
    if (hs_mb_model_init(&r->m, &r->mb)) return -1;
    hs_stepper_def d = hs_stepper_default_def();
    d.h = HS_R(1e-3);
    d.alpha = HS_R(1e3); d.beta = HS_R(1e6);
    return hs_stepper_init(&r->s, &d, &r->m, 0, r->R, sizeof r->R / sizeof r->R[0], r->I, sizeof r->I / sizeof r->I[0]);
}

static double qparam(const qrun *r, const char *name)
{
    for (int i = 0; i < r->st.nparams; ++i) if (!strcmp(r->st.param_names[i], name)) return (double)r->st.param_val[i];
    return NAN;
}

static int quarter_car(const char *dir)
{
    static qrun r;
    int fails = 0;
    snprintf(qpath, sizeof qpath, "%s/quarter_car.hsm", dir);
    /* the contract other tools use: names, units, directions */
    if (qload(&r, 0, NULL, NULL)) return mb_check(0, "quarter_car.hsm loads");
    const hs_model_type *T = &r.mb.type;
    fails += mb_check(T->nin == 2 && T->nout == 2 && !strcmp(T->in_names[0], "road_z (m)") && !strcmp(T->in_names[1], "F_act (N)")
                      && !strcmp(T->out_names[0], "body_acc (m/s^2)") && !strcmp(T->out_names[1], "susp_travel (m)"),
                      "quarter_car.hsm: inputs road_z (m), F_act (N); outputs body_acc (m/s^2), susp_travel (m)");
    const double g = qparam(&r, "g"), ms = qparam(&r, "m_s"), mu = qparam(&r, "m_u"), ks = qparam(&r, "k_s");
    const double kt = qparam(&r, "k_t"), ls = qparam(&r, "l_s"), lt = qparam(&r, "l_t");

    /* 1. unloaded start (settle = 0), inputs 0: the damped system comes to rest at the static
     * deflections: tire (m_s + m_u) g / k_t, suspension m_s g / k_s; the outputs go to 0 */
    {
        static const char *const n[1] = {"settle"};
        static const double v[1] = {0};
        if (qload(&r, 1, n, v)) return fails + mb_check(0, "quarter car loads with --param settle=0");
        hs_real in[2] = {0, 0}, y[2];
        r.mb.type.output(&r.m, 0, r.s.q, r.s.u, NULL, in, y);
        const double acc0 = (double)y[0];
        int rc = 0;
        for (int k = 0; k < 40000 && rc == 0; ++k) rc = hs_stepper_step(&r.s, in);
        r.mb.type.output(&r.m, 0, r.s.q, r.s.u, NULL, in, y);
        const double dt = lt - (double)r.s.q[3], dsus = ls - ((double)r.s.q[1] - (double)r.s.q[3]);
        const double et = fabs(dt - (ms + mu) * g / kt), es = fabs(dsus - ms * g / ks);
        char what[400];
        snprintf(what, sizeof what, "quarter car from unloaded, 40 s: tire deflection %.9f m = (m_s+m_u) g/k_t %.9f (err %.1e), suspension %.9f m = m_s g/k_s %.9f (err %.1e) <= 1e-9; body_acc at start %.6f = -g, at rest %.1e; susp_travel %.1e",
                 dt, (ms + mu) * g / kt, et, dsus, ms * g / ks, es, acc0, (double)y[0], (double)y[1]);
        fails += mb_check(rc == 0 && et <= 1e-9 && es <= 1e-9 && fabs(acc0 + g) <= 1e-12 && fabs((double)y[0]) <= 1e-6
                          && fabs((double)y[1]) <= 1e-9, what);
    }
    /* 2. the actuator force between the masses: static travel F / k_s, the body's acceleration
     * jumps by F / m_s; a road step raises both masses by the step */
    {
        if (qload(&r, 0, NULL, NULL)) return fails + 1;
        const double F = 1000, z = 0.02;
        hs_real in[2] = {0, (hs_real)F}, y[2];
        r.mb.type.output(&r.m, 0, r.s.q, r.s.u, NULL, in, y);
        const double acc0 = (double)y[0];
        const double yb0 = (double)r.s.q[1], yw0 = (double)r.s.q[3];
        in[0] = (hs_real)z;
        int rc = 0;
        for (int k = 0; k < 40000 && rc == 0; ++k) rc = hs_stepper_step(&r.s, in);
        r.mb.type.output(&r.m, 0, r.s.q, r.s.u, NULL, in, y);
        const double ew = fabs((double)r.s.q[3] - yw0 - z), et = fabs((double)y[1] - F / ks);
        char what[300];
        snprintf(what, sizeof what, "quarter car, F_act = 1000 N, road_z = 0.02 m: body_acc at once %.9f = F/m_s %.9f; at rest susp_travel %.9f = F/k_s %.9f (err %.1e), wheel up by the road step (err %.1e), body by step + F/k_s",
                 acc0, F / ms, (double)y[1], F / ks, et, ew);
        fails += mb_check(rc == 0 && fabs(acc0 - F / ms) <= 1e-9 && et <= 1e-9 && ew <= 1e-9
                          && fabs((double)r.s.q[1] - yb0 - z - F / ks) <= 1e-9, what);
    }
    /* 3. undamped natural frequencies: det(K - w^2 M) = 0 with M = diag(m_s, m_u),
     * K = [k_s, -k_s; -k_s, k_s + k_t]; started in a mode shape the body moves as A cos(w t) */
    {
        const double a = ms * mu, b = -(ks * mu + (ks + kt) * ms), c = ks * kt;
        const double disc = sqrt(b * b - 4 * a * c);
        const double w2[2] = {(-b - disc) / (2 * a), (-b + disc) / (2 * a)};
        for (int mode = 0; mode < 2; ++mode) {
            const double w = sqrt(w2[mode]), ratio = (ks - w2[mode] * ms) / ks;
            const double A = 0.005 / (fabs(ratio) > 1 ? fabs(ratio) : 1.0); /* the larger amplitude 5 mm */
            static const char *const n[3] = {"c_s", "dz_body", "dz_wheel"};
            const double v[3] = {0, A, A * ratio};
            if (qload(&r, 3, n, v)) return fails + 1;
            hs_stepper_def d = r.s.def;
            d.h = HS_R(1e-4);
            hs_stepper_init(&r.s, &d, &r.m, 0, r.R, sizeof r.R / sizeof r.R[0], r.I, sizeof r.I / sizeof r.I[0]);
            const double yb_eq = (double)r.s.q[1] - A, h = 1e-4, Tp = 2 * PI / w;
            const long n_steps = (long)(10 * Tp / h);
            hs_real in[2] = {0, 0};
            double prev = A, first = -1, last = -1;
            int crossings = 0, rc = 0;
            for (long k = 1; k <= n_steps && rc == 0; ++k) {
                rc = hs_stepper_step(&r.s, in);
                const double x = (double)r.s.q[1] - yb_eq;
                if (prev < 0 && x >= 0) { /* upward zero crossing, linear interpolation */
                    const double tc = (double)(k - 1) * h + h * (-prev) / (x - prev);
                    if (first < 0) first = tc;
                    last = tc;
                    ++crossings;
                }
                prev = x;
            }
            const double Tm = crossings > 1 ? (last - first) / (crossings - 1) : 0;
            char what[300];
            snprintf(what, sizeof what, "quarter car undamped, %s mode: period %.7f s = 2 pi / w, w^2 root of m_s m_u w^4 - (k_s m_u + (k_s+k_t) m_s) w^2 + k_s k_t: %.7f s (rel err %.1e <= 1e-5, %d periods, sdirk h = 1e-4)",
                     mode ? "wheel-hop" : "body", Tm, Tp, fabs(Tm - Tp) / Tp, crossings - 1);
            if (rc != 0) printf("  step refused: %s\n", hs_status_str(rc));
            fails += mb_check(rc == 0 && crossings >= 9 && fabs(Tm - Tp) / Tp <= 1e-5, what);
        }
    }
    return fails;
}

int mb_test_lang(const char *dir)
{
    int fails = arithmetic();
    fails += lang_errors();
    fails += overrides();
    fails += new_elements();
    fails += load_values();
    fails += quarter_car(dir);
    return fails;
}
