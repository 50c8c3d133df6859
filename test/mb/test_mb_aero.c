/* test_mb_aero.c - the aero element (model/elements/hs_mb_el_aero.c) against closed forms:
 * - a coast-down: a 1500 kg car (spatial body on a prismatic joint along x) at 30 m/s with
 *   drag area 0.7 m^2 and no other force: m v' = -c v^2, c = 1/2 rho CdA, so
 *   v(t) = v0 / (1 + c v0 t / m) and x(t) = (m / c) ln(1 + c v0 t / m), stepped 10 s at 1 ms
 *   with the default method (second order: within 1e-9 relative);
 * - the force itself at a state (f of the point body, free): drag -c |v| v along the velocity,
 *   lift 1/2 rho ClA |v|^2 along the lift axis, rho's default 1.204 kg/m^3 and a given rho;
 * - fq, fu by central differences are in test_mb_lang.c's derivative fixtures.
 * The lift's constraint force on the joint is not checked here (its rows are the joint's). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "mb_test.h"
#include "mb_run.h"

static int compile(run *r, const char *text)
{
    hs_mb_error err;
    memset(&err, 0, sizeof err);
    if (hs_mb_parse_compile(text, strlen(text), &r->st, &r->mb, 0, &err)) {
        printf("  refused: line %d field '%s': %s %s\n", err.line, err.field, err.msg, err.detail);
        return 1;
    }
    return hs_mb_model_init(&r->m, &r->mb) != HS_OK;
}

static int coast_down(void)
{
    static const char text[] =
        "model coast dim=3\ngravity 0,0,-9.81\n"
        "body car spatial mass=1500 inertia=500,2000,2200 pos=0,0,0 vel=30,0,0 quat=1,0,0,0\n"
        "joint road prismatic a=car b=ground axis=1,0,0\n"
        "force drag aero a=car cda=0.7 cla=-0.3\n";
    static run r;
    if (compile(&r, text)) return mb_check(0, "coast-down compiles");
    hs_stepper_def d = hs_stepper_default_def();
    d.h = (hs_real)1e-3;
    if (hs_stepper_init(&r.s, &d, &r.m, 0, r.R, sizeof r.R / sizeof r.R[0], r.I, sizeof r.I / sizeof r.I[0]) != HS_OK) {
        return mb_check(0, "coast-down: stepper init");
    }
    int ok = 1;
    for (int k = 0; ok && k < 10000; ++k) ok = hs_stepper_step(&r.s, NULL) == HS_OK;
    const double m = 1500.0, v0 = 30.0, c = 0.5 * 1.204 * 0.7, t = (double)r.s.t;
    const double v = v0 / (1.0 + c * v0 * t / m), x = m / c * log(1.0 + c * v0 * t / m);
    const double ev = fabs((double)r.s.u[0] - v) / v, ex = fabs((double)r.s.q[0] - x) / x;
    char what[240];
    snprintf(what, sizeof what, "aero coast-down 30 m/s, CdA 0.7 m^2, 1500 kg, 10 s at 1 ms: v %.9f (closed form %.9f, %.1e), x %.6f (%.6f, %.1e) within 1e-9",
             (double)r.s.u[0], v, ev, (double)r.s.q[0], x, ex);
    return mb_check(ok && fabs(t - 10.0) < 1e-9 && ev <= 1e-9 && ex <= 1e-9, what);
}

static int force_at_state(void)
{
    static const char text[] =
        "model air dim=3\ngravity 0,0,0\n"
        "body p point3 mass=2 pos=0,0,0 vel=3,-4,12\n"
        "force a1 aero a=p cda=0.5 cla=-0.2\n"
        "force a2 aero a=p cda=0.1 cla=0.4 rho=1.1 axis=0,1,0\n";
    static run r;
    if (compile(&r, text)) return mb_check(0, "aero force fixture compiles");
    const hs_real q[3] = {0, 0, 0}, u[3] = {3, -4, 12};
    hs_real f[3] = {0, 0, 0};
    if (r.mb.type.force == NULL || r.mb.type.force(&r.m, 0.0, q, u, NULL, NULL, f) != HS_OK) return mb_check(0, "aero force evaluates");
    /* |v| = 13 */
    const double s = 13.0, v[3] = {3, -4, 12};
    const double c1 = 0.5 * 1.204 * 0.5, l1 = 0.5 * 1.204 * -0.2, c2 = 0.5 * 1.1 * 0.1, l2 = 0.5 * 1.1 * 0.4;
    double want[3], e = 0.0;
    for (int i = 0; i < 3; ++i) want[i] = -(c1 + c2) * s * v[i];
    want[2] += l1 * s * s;
    want[1] += l2 * s * s;
    for (int i = 0; i < 3; ++i) e = fmax(e, fabs((double)f[i] - want[i]));
    char what[240];
    snprintf(what, sizeof what, "aero force at v = (3, -4, 12): (%.9f, %.9f, %.9f) N, closed form (%.9f, %.9f, %.9f): %.1e <= 1e-12 N",
             (double)f[0], (double)f[1], (double)f[2], want[0], want[1], want[2], e);
    return mb_check(e <= 1e-12, what);
}

static int refusals(void)
{
    static const struct { const char *text; const char *field; } bad[] = {
        {"model x dim=3\nbody p point3 mass=1\nforce a aero a=p cda=-1\n", "cda"},
        {"model x dim=3\nbody p point3 mass=1\nforce a aero a=p cda=1 rho=0\n", "rho"},
        {"model x dim=3\nbody p point3 mass=1\nforce a aero a=p cda=1 axis=0,0,2\n", "axis"},
        {"model x dim=3\nbody p point3 mass=1\nforce a aero a=ground cda=1\n", "a"},
        {"model x dim=3\nbody p point3 mass=1\nforce a aero a=p\n", "cda"},
    };
    static run r;
    int good = 0;
    for (int i = 0; i < 5; ++i) {
        hs_mb_error err;
        memset(&err, 0, sizeof err);
        const int rc = hs_mb_parse_compile(bad[i].text, strlen(bad[i].text), &r.st, &r.mb, 0, &err);
        char key[16];
        snprintf(key, sizeof key, "%s=", bad[i].field);
        /* the bad key is the field; a missing one is named in the detail ("cda= is required") */
        if (rc != 0 && err.line == 3 && (strcmp(err.field, bad[i].field) == 0 || strstr(err.detail, key) != NULL)) good++;
        else printf("  case %d: rc %d line %d field '%s': %s\n", i, rc, err.line, err.field, err.msg);
    }
    char what[160];
    snprintf(what, sizeof what, "aero refusals at line 3 naming the key (cda < 0, rho = 0, axis not unit, on ground, cda missing): %d of 5", good);
    return mb_check(good == 5, what);
}

int mb_test_aero(void)
{
    int bad = 0;
    bad += coast_down();
    bad += force_at_state();
    bad += refusals();
    return bad;
}
