/* test_mb_fbstep.c - the default method's free-body path (rt/hs_fb.c) against analytic
 * answers: free fall (x(t) = x0 + v0 t + g t^2/2), the torque-free symmetric top (the symmetry
 * axis precesses about L at |L|/I1; the whole orientation in closed form), second order (error
 * ratio 4 when h halves), energy and spatial angular momentum of the asymmetric body of
 * model/mech/rigid_body.hsm over 100 s, |p| = 1 without a projection, the range refusal with
 * the state kept, and which models and defs take the path. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hs_mb_file.h"
#include "hs_stepper.h"
#include "mb_run.h"
#include "mb_test.h"

#define NQ HS_MB_MAX_NQ
#define NC HS_MB_MAX_NC
#define TWO_PI 6.283185307179586


static const char *fdir;
static char what[400];

static int load(run *r, const char *file)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", fdir, file);
    if (hs_mb_load_file("hilstep-mbtest", path, &r->st, &r->mb, 0)) return -1;
    return hs_mb_model_init(&r->m, &r->mb);
}

/* one spatial body: mass 2 kg, moments J, at pos with velocity vel, quaternion rot, body rate w */
static int one_body(run *r, const double *J, const double *g, const double *pos, const double *vel,
                    const double *rot, const double *w)
{
    static hs_mb_body b;
    static hs_mb_desc d;
    memset(&b, 0, sizeof b);
    memset(&d, 0, sizeof d);
    strcpy(b.name, "top");
    b.kind = HS_MB_SPATIAL;
    b.mass = 2.0;
    for (int i = 0; i < 3; ++i) {
        b.inertia[i] = J[i]; b.pos[i] = pos[i]; b.vel[i] = vel[i]; b.omega[i] = w[i];
        d.gravity[i] = g[i];
    }
    for (int i = 0; i < 4; ++i) b.rot[i] = rot[i];
    d.name = "fbtest"; d.dim = 3; d.bodies = &b; d.nbodies = 1;
    if (hs_mb_compile(&d, &r->mb, 0, NULL)) return -1;
    return hs_mb_model_init(&r->m, &r->mb);
}

static int start(run *r, hs_stepper_def d)
{
    return hs_stepper_init(&r->s, &d, &r->m, 0, r->R, sizeof r->R / sizeof r->R[0], r->I,
                           sizeof r->I / sizeof r->I[0]);
}

static hs_stepper_def def_h(double h)
{
    hs_stepper_def d = hs_stepper_default_def();
    d.h = (hs_real)h;
    return d;
}

/* ---- quaternions (w, x, y, z), Hamilton product: R(a b) = R(a) R(b) ---- */
static void qmul(const double *a, const double *b, double *c)
{
    c[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
    c[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
    c[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
    c[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
}
/* rotation by angle th about the unit axis n */
static void qaxis(const double *n, double th, double *q)
{
    q[0] = cos(0.5 * th);
    for (int i = 0; i < 3; ++i) q[i + 1] = sin(0.5 * th) * n[i];
}
/* R(p) v */
static void qrot(const double *p, const double *v, double *out)
{
    const double pv[4] = {0, v[0], v[1], v[2]}, pc[4] = {p[0], -p[1], -p[2], -p[3]};
    double t[4], o[4];
    qmul(p, pv, t);
    qmul(t, pc, o);
    for (int i = 0; i < 3; ++i) out[i] = o[i + 1];
}
/* angle (rad) of the rotation taking a to b */
static double qangle(const double *a, const double *b)
{
    const double ac[4] = {a[0], -a[1], -a[2], -a[3]};
    double e[4];
    qmul(ac, b, e);
    return 2.0 * atan2(sqrt(e[1] * e[1] + e[2] * e[2] + e[3] * e[3]), fabs(e[0]));
}
/* body rate w_b = 2 G(p) p' and spatial angular momentum R(p) J w_b of body b (offset o) */
static void body_rate(const hs_stepper *s, int o, const double *J, double *w, double *Ls)
{
    const double p[4] = {s->q[o + 3], s->q[o + 4], s->q[o + 5], s->q[o + 6]};
    const double pd[4] = {s->u[o + 3], s->u[o + 4], s->u[o + 5], s->u[o + 6]};
    const double pc[4] = {p[0], -p[1], -p[2], -p[3]};
    double e[4];
    qmul(pc, pd, e);
    for (int i = 0; i < 3; ++i) w[i] = 2.0 * e[i + 1];
    const double Lb[3] = {J[0] * w[0], J[1] * w[1], J[2] * w[2]};
    qrot(p, Lb, Ls);
}

/* a free_bodies() that claims two bodies of a one-body model */
static int two_of_one(const hs_model *m, hs_fb_info *fb)
{
    static const hs_fb_body b[2] = {{0, 1.0, {1.0, 1.0, 1.0}}, {0, 1.0, {1.0, 1.0, 1.0}}};
    (void)m;
    fb->nb = 2;
    fb->body = b;
    fb->gravity[0] = fb->gravity[1] = fb->gravity[2] = 0.0;
    return HS_OK;
}

/* ---- which models and defs take the path ---- */
static int selection(void)
{
    static run r;
    int fails = 0;
    hs_stepper_def d = def_h(1e-3);
    int ok = load(&r, "rigid_body.hsm") == 0 && start(&r, d) == 0 && strcmp(hs_stepper_path(&r.s), "free_body") == 0;
    for (int k = 0; ok && k < 10; ++k) ok = hs_stepper_step(&r.s, NULL) == HS_OK;
    ok = ok && r.s.stats.force_evals == 0 && r.s.stats.factorizations == 0;
    fails += mb_check(ok, "rigid_body.hsm, default def: path free_body, 10 steps with no force() call and no factorization");
    /* the damped sdirk variant, another method, a model with a joint: the generic path */
    d.sd_gamma = HS_SDIRK_GAMMA_ORDER3;
    ok = start(&r, d) == 0 && strcmp(hs_stepper_path(&r.s), "generic") == 0;
    d = def_h(1e-3);
    d.method = HS_METHOD_GALPHA;
    ok = ok && start(&r, d) == 0 && strcmp(hs_stepper_path(&r.s), "generic") == 0;
    d = def_h(1e-3);
    d.reg_eps = HS_R(1e-6);
    ok = ok && start(&r, d) == 0 && strcmp(hs_stepper_path(&r.s), "generic") == 0;
    d = def_h(1e-3);
    ok = ok && load(&r, "double_spherical.hsm") == 0 && start(&r, d) == 0
         && strcmp(hs_stepper_path(&r.s), "generic") == 0;
    fails += mb_check(ok, "generic path for sdirk --sd-gamma 0.7887, galpha, a compliance, and double_spherical.hsm (joints)");
    d = def_h(1e-3);
    d.stab = HS_STAB_BAUMGARTE;
    ok = load(&r, "rigid_body.hsm") == 0 && start(&r, d) == HS_E_DEF_BAUMGARTE;
    fails += mb_check(ok, "free-body path refuses Baumgarte at init as sdirk does (HS_E_DEF_BAUMGARTE)");
    /* a model whose free_bodies() disagrees with its sizes is refused, not stepped */
    ok = load(&r, "rigid_body.hsm") == 0;
    r.mb.type.free_bodies = two_of_one;
    const int rc = start(&r, def_h(1e-3));
    fails += mb_check(ok && r.m.type == &r.mb.type && rc == HS_E_MODEL_PARAM,
                      "free_bodies() claiming 2 bodies of a 1-body model: init refuses with HS_E_MODEL_PARAM");
    return fails;
}

/* ---- free fall: exact ---- */
static int free_fall(void)
{
    static run r;
    const double J[3] = {0.1, 0.2, 0.3}, g[3] = {0.3, -0.4, -9.81}, x0[3] = {1.0, 2.0, 3.0},
                 v0[3] = {0.5, -0.2, 3.0}, p0[4] = {1, 0, 0, 0}, w0[3] = {0, 0, 0};
    int ok = one_body(&r, J, g, x0, v0, p0, w0) == 0 && start(&r, def_h(1e-3)) == 0
             && strcmp(hs_stepper_path(&r.s), "free_body") == 0;
    double ex = 0.0, ev = 0.0;
    for (int k = 1; ok && k <= 2000; ++k) {
        ok = hs_stepper_step(&r.s, NULL) == HS_OK;
        const double t = 1e-3 * k;
        for (int i = 0; i < 3; ++i) {
            ex = fmax(ex, fabs((double)r.s.q[i] - (x0[i] + v0[i] * t + 0.5 * g[i] * t * t)));
            ev = fmax(ev, fabs((double)r.s.u[i] - (v0[i] + g[i] * t)));
        }
    }
    snprintf(what, sizeof what, "free fall 2 s at h = 1 ms: max |x - (x0 + v0 t + g t^2/2)| %.1e m <= 1e-12, "
             "max |v - (v0 + g t)| %.1e m/s <= 1e-12 (trapezoidal: exact for a constant force)", ex, ev);
    return mb_check(ok && ex <= 1e-12 && ev <= 1e-12, what);
}

/* ---- three equal moments: constant body rate, the orientation turns about the fixed axis
 * w^ by the Cayley map's 2 atan(h |w| / 2) per step ---- */
static int spinning_cube(void)
{
    static run r;
    const double J[3] = {0.1, 0.1, 0.1}, zero[3] = {0, 0, 0}, w0[3] = {1.0, -2.0, 3.0};
    const double p0[4] = {0.5, 0.5, -0.5, 0.5};
    int ok = one_body(&r, J, zero, zero, zero, p0, w0) == 0 && start(&r, def_h(1e-3)) == 0
             && strcmp(hs_stepper_path(&r.s), "free_body") == 0;
    const double wn = sqrt(w0[0] * w0[0] + w0[1] * w0[1] + w0[2] * w0[2]), step = 2.0 * atan(0.5e-3 * wn);
    const double n[3] = {w0[0] / wn, w0[1] / wn, w0[2] / wn};
    double ew = 0.0, ep = 0.0;
    for (int k = 1; ok && k <= 2000; ++k) {
        ok = hs_stepper_step(&r.s, NULL) == HS_OK;
        double w[3], L[3], q[4], rq[4];
        body_rate(&r.s, 0, J, w, L);
        for (int i = 0; i < 3; ++i) ew = fmax(ew, fabs(w[i] - w0[i]));
        /* body-axis rotation: p(t) = p0 (x) rot(w^, k step) */
        qaxis(n, k * step, rq);
        qmul(p0, rq, q);
        const double p[4] = {r.s.q[3], r.s.q[4], r.s.q[5], r.s.q[6]};
        ep = fmax(ep, qangle(q, p));
    }
    snprintf(what, sizeof what, "cube J = 0.1 (x3), w = (1, -2, 3), 2 s at h = 1 ms: body rate constant to %.1e <= 1e-12 rad/s, "
             "orientation p0 (x) rot(w^, 2 k atan(h |w|/2)) to %.1e <= 1e-12 rad (the Cayley map, exactly)", ew, ep);
    return mb_check(ok && ew <= 1e-12 && ep <= 1e-12, what);
}

/* ---- the torque-free symmetric top ---- */
/* J1 = J2: L_b = J w, Omega_b = L3 (1/J3 - 1/J1); R(t) = Rot(L^, |L| t / J1) R0 Rot(e3, Omega_b t) */
static const double TJ[3] = {0.5, 0.5, 1.0}, TW[3] = {2.0, 0.5, 5.0};
static const double TP[4] = {0.9238795325112867, 0.0, 0.3826834323650898, 0.0}; /* 45 deg about y */

static void top_exact(double t, double *q)
{
    const double Lb[3] = {TJ[0] * TW[0], TJ[1] * TW[1], TJ[2] * TW[2]};
    double Ls[3], n[3], a[4], b[4], ab[4];
    qrot(TP, Lb, Ls);
    const double L = sqrt(Ls[0] * Ls[0] + Ls[1] * Ls[1] + Ls[2] * Ls[2]);
    for (int i = 0; i < 3; ++i) n[i] = Ls[i] / L;
    const double e3[3] = {0, 0, 1}, ob = Lb[2] * (1.0 / TJ[2] - 1.0 / TJ[0]);
    qaxis(n, L * t / TJ[0], a);
    qaxis(e3, ob * t, b);
    qmul(a, TP, ab);
    qmul(ab, b, q);
}

/* orientation error (rad) at t = T against top_exact, stepping at h */
static double top_error(run *r, double h, double T, int *ok)
{
    const double zero[3] = {0, 0, 0};
    *ok = *ok && one_body(r, TJ, zero, zero, zero, TP, TW) == 0 && start(r, def_h(h)) == 0
          && strcmp(hs_stepper_path(&r->s), "free_body") == 0;
    const long n = lround(T / h);
    for (long k = 0; *ok && k < n; ++k) *ok = hs_stepper_step(&r->s, NULL) == HS_OK;
    double q[4];
    top_exact(T, q);
    const double p[4] = {r->s.q[3], r->s.q[4], r->s.q[5], r->s.q[6]};
    return qangle(q, p);
}

static int symmetric_top(void)
{
    static run r;
    int fails = 0, ok = 1;
    const double zero[3] = {0, 0, 0};
    ok = one_body(&r, TJ, zero, zero, zero, TP, TW) == 0 && start(&r, def_h(1e-3)) == 0;
    /* the precession angle of the symmetry axis about L^, unwrapped, against |L| t / J1 */
    const double Lb[3] = {TJ[0] * TW[0], TJ[1] * TW[1], TJ[2] * TW[2]}, e3[3] = {0, 0, 1};
    double Ls[3], n[3], a0[3], a1[3], ax[3];
    qrot(TP, Lb, Ls);
    const double L = sqrt(Ls[0] * Ls[0] + Ls[1] * Ls[1] + Ls[2] * Ls[2]);
    for (int i = 0; i < 3; ++i) n[i] = Ls[i] / L;
    qrot(TP, e3, ax);
    /* a basis of the plane normal to L^: a0 = the axis' part in it, a1 = n x a0 */
    const double an = ax[0] * n[0] + ax[1] * n[1] + ax[2] * n[2];
    for (int i = 0; i < 3; ++i) a0[i] = ax[i] - an * n[i];
    const double a0n = sqrt(a0[0] * a0[0] + a0[1] * a0[1] + a0[2] * a0[2]);
    for (int i = 0; i < 3; ++i) a0[i] /= a0n;
    a1[0] = n[1] * a0[2] - n[2] * a0[1]; a1[1] = n[2] * a0[0] - n[0] * a0[2]; a1[2] = n[0] * a0[1] - n[1] * a0[0];
    const double T = 10.0;
    double phi = 0.0, prev = 0.0, nut = 0.0;
    for (int k = 1; ok && k <= 10000; ++k) {
        ok = hs_stepper_step(&r.s, NULL) == HS_OK;
        const double p[4] = {r.s.q[3], r.s.q[4], r.s.q[5], r.s.q[6]};
        double e[3];
        qrot(p, e3, e);
        const double c = e[0] * a0[0] + e[1] * a0[1] + e[2] * a0[2], s = e[0] * a1[0] + e[1] * a1[1] + e[2] * a1[2];
        const double ang = atan2(s, c);
        double d = ang - prev;
        d -= TWO_PI * floor(d / (TWO_PI) + 0.5);
        phi += d;
        prev = ang;
        /* the nutation angle (between the axis and L) is constant */
        nut = fmax(nut, fabs((e[0] * n[0] + e[1] * n[1] + e[2] * n[2]) - an));
    }
    /* the bar: twice the Cayley map's relative angle error per step, (h |w|)^2 / 12 (its angle is
     * 2 atan(h |w| / 2) where the exact rotation turns h |w|) */
    const double wn = sqrt(TW[0] * TW[0] + TW[1] * TW[1] + TW[2] * TW[2]), bar = (1e-3 * wn) * (1e-3 * wn) / 6.0;
    const double rate = phi / T, exact = L / TJ[0], rel = fabs(rate - exact) / exact;
    snprintf(what, sizeof what, "symmetric top J = (0.5, 0.5, 1), w = (2, 0.5, 5), 10 s at h = 1 ms: precession "
             "rate %.9f rad/s against |L|/J1 = %.9f (rel. %.2e <= (h |w|)^2/6 = %.2e), axis-L cosine constant to %.1e <= 1e-12",
             rate, exact, rel, bar, nut);
    fails += mb_check(ok && rel <= bar && nut <= 1e-12, what);
    /* the whole orientation against the closed form, and the order */
    const double e4 = top_error(&r, 4e-3, 2.0, &ok), e2 = top_error(&r, 2e-3, 2.0, &ok), e1 = top_error(&r, 1e-3, 2.0, &ok);
    const double r1 = e4 / e2, r2 = e2 / e1;
    snprintf(what, sizeof what, "symmetric top orientation at t = 2 s against the closed form: error %.2e, %.2e, %.2e rad "
             "at h = 4, 2, 1 ms; ratios %.3f, %.3f in [3.8, 4.2] (second order), error at 1 ms <= 1e-4 rad",
             e4, e2, e1, r1, r2);
    fails += mb_check(ok && r1 >= 3.8 && r1 <= 4.2 && r2 >= 3.8 && r2 <= 4.2 && e1 <= 1e-4, what);
    return fails;
}

/* ---- the asymmetric body of [WM] sec. 5.1 (model/mech/rigid_body.hsm) over 100 s ---- */
static int asymmetric_body(void)
{
    static run r;
    const double J[3] = {1.0, 2.0, 3.0};
    int ok = load(&r, "rigid_body.hsm") == 0 && start(&r, def_h(1e-3)) == 0
             && strcmp(hs_stepper_path(&r.s), "free_body") == 0;
    double w[3], L0[3], L[3];
    body_rate(&r.s, 0, J, w, L0);
    const double E0 = 0.5 * (J[0] * w[0] * w[0] + J[1] * w[1] * w[1] + J[2] * w[2] * w[2]);
    const double L0n = sqrt(L0[0] * L0[0] + L0[1] * L0[1] + L0[2] * L0[2]);
    double dE = 0.0, dL = 0.0, dEm = 0.0, g = 0.0;
    hs_real gr[NC];
    for (int k = 1; ok && k <= 100000; ++k) {
        ok = hs_stepper_step(&r.s, NULL) == HS_OK;
        body_rate(&r.s, 0, J, w, L);
        const double E = 0.5 * (J[0] * w[0] * w[0] + J[1] * w[1] * w[1] + J[2] * w[2] * w[2]);
        dE = fmax(dE, fabs(E - E0) / E0);
        dL = fmax(dL, sqrt((L[0] - L0[0]) * (L[0] - L0[0]) + (L[1] - L0[1]) * (L[1] - L0[1])
                           + (L[2] - L0[2]) * (L[2] - L0[2])) / L0n);
        hs_real Em = 0;
        if (r.m.type->energy(&r.m, r.s.t, r.s.q, r.s.u, r.s.z, &Em) == HS_OK) dEm = fmax(dEm, fabs((double)Em - 33.0));
        else ok = 0;
        hs_stepper_residual(&r.s, gr);
        g = fmax(g, fabs((double)gr[0]));
    }
    snprintf(what, sizeof what, "rigid_body.hsm (J = 1, 2, 3; w = 0, 3, 4), 100 s at h = 1 ms: max |E - E0|/E0 %.1e <= 1e-12 "
             "(the model's energy() %.1e J off 33 J), max |L - L0|/|L0| %.1e <= 1e-12 (spatial R J w), max |g| (norm row) "
             "%.1e <= 1e-14 without a projection", dE, dEm, dL, g);
    return mb_check(ok && dE <= 1e-12 && dL <= 1e-12 && dEm <= 33.0 * 1e-12 && g <= 1e-14, what);
}

/* ---- a step past the range is refused, the state kept bit for bit ---- */
static int range_refusal(void)
{
    static run r;
    const double J[3] = {1.0, 2.0, 3.0}, zero[3] = {0, 0, 0}, p0[4] = {1, 0, 0, 0}, w[3] = {0, 300, 400};
    /* h |w|_inf = 1e-3 * 400 = 0.4: runs; then h = 2 ms: 0.8 > 0.5 */
    int ok = one_body(&r, J, zero, zero, zero, p0, w) == 0 && start(&r, def_h(1e-3)) == 0
             && hs_stepper_step(&r.s, NULL) == HS_OK;
    const hs_stepper_def d2 = def_h(2e-3);
    ok = ok && start(&r, d2) == 0;
    const uint64_t h0 = hs_stepper_hash(&r.s, 1469598103934665603ull);
    const double t0 = (double)r.s.t;
    const int rc = ok ? hs_stepper_step(&r.s, NULL) : -1;
    ok = ok && rc == HS_E_RANGE && hs_stepper_hash(&r.s, 1469598103934665603ull) == h0 && (double)r.s.t == t0
         && r.s.stats.faults == 1 && r.s.stats.last_fault == HS_E_RANGE && r.s.stats.steps == 0;
    snprintf(what, sizeof what, "body at |w| = 500 rad/s: h = 1 ms steps, h = 2 ms (h |w|_inf = 0.8 > 0.5) refused with "
             "HS_E_RANGE (got %d), state bit for bit, fault counted", rc);
    return mb_check(ok, what);
}

int mb_test_fbstep(const char *dir)
{
    fdir = dir;
    int fails = 0;
    fails += selection();
    fails += free_fall();
    fails += spinning_cube();
    fails += symmetric_top();
    fails += asymmetric_body();
    fails += range_refusal();
    return fails;
}
