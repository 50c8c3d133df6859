/* test_mb_pt.c - the powertrain elements (model/elements/hs_mb_el_engine.c, _gearbox.c,
 * _diff.c, _lockdiff.c, _clutch.c) against hand computations and closed forms:
 * - the engine map at points inside a segment, on breakpoints, below and above the speeds
 *   (bilinear by hand); the torque is read as power over speed, f . u / w, of the shaft body;
 * - a launch: engine (J_e = 0.2) -> gearbox (i = 3.5, coupling c = 50) -> wheel (J_w = 1.5),
 *   both on revolute joints, constant 100 N m: once the slip has settled the wheel accelerates
 *   at i T / (J_w + i^2 J_e) and the slip is (T - J_e i w_w') / c;
 * - the same rig on a falling map: the no-load speed where T(w_e) = 0, the wheel at w_e / i;
 * - gear changes: runs with and without a change are bitwise equal up to the step the input
 *   changes and differ at the next; the ratio read from the shafts' torques at a state is
 *   the listed one for inputs rounded to it, 0 in neutral; inputs outside refuse the step;
 * - open differential: carrier (J_c = 0.05) driven by 100 N m, wheels J_l = 1, J_r = 2:
 *   equal wheel torques T/2 with T = tau / (1 + J_c (1/J_l + 1/J_r) / 4), wheel speeds apart,
 *   carrier - mean = T / c; locking one (cr = 1e4): equal accelerations tau / (J_c + J_l + J_r)
 *   and the speed difference a / (2 cr);
 * - a dry clutch closing between two shafts: the slip phase's closed form, the lock at the
 *   momentum's speed, the energy it dissipates, open and out-of-range engagements;
 * - fq, fu against central differences (test_mb_deriv.c), refusals naming line and key. */
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

static int init_stepper(run *r)
{
    hs_stepper_def d = hs_stepper_default_def();
    d.h = (hs_real)1e-3;
    return hs_stepper_init(&r->s, &d, &r->m, 0, r->R, sizeof r->R / sizeof r->R[0], r->I, sizeof r->I / sizeof r->I[0]) != HS_OK;
}

/* Ground-frame angular velocity about y of spatial body b: w = 2 vec(p' conj(p)). */
static double wy(const run *r, const hs_real *q, const hs_real *u, int b)
{
    const int o = r->mb.qoff[b] + 3;
    const double p0 = q[o], p1 = q[o + 1], p2 = q[o + 2], p3 = q[o + 3];
    const double d0 = u[o], d1 = u[o + 1], d2 = u[o + 2], d3 = u[o + 3];
    /* y component of d conj(p): -d0 p2 + d2 p0 + (d3 p1 - d1 p3) */
    return 2.0 * (-d0 * p2 + d2 * p0 + d3 * p1 - d1 * p3);
}

/* The power f_b . u_b of body b's coordinates under the forces f. */
static double power(const run *r, const hs_real *f, const hs_real *u, int b)
{
    double P = 0;
    for (int i = r->mb.qoff[b]; i < r->mb.qoff[b + 1]; ++i) P += (double)f[i] * (double)u[i];
    return P;
}

/* The state of body 0 turned by th about y and spinning at w about y. */
static void spin_state(hs_real *q, hs_real *u, int nq, double th, double w)
{
    for (int i = 0; i < nq; ++i) { q[i] = 0; u[i] = 0; }
    q[3] = (hs_real)cos(th / 2); q[5] = (hs_real)sin(th / 2);
    u[3] = (hs_real)(-0.5 * w * sin(th / 2)); u[5] = (hs_real)(0.5 * w * cos(th / 2));
}

/* k: the engine's speed over the shaft's (scale=): the shaft at w / k carries k T(w). */
static int engine_map(int k)
{
    char text[512];
    snprintf(text, sizeof text,
             "model emap dim=3\ngravity 0,0,0\ninput pedal\n"
             "body e spatial mass=1 inertia=0.3,0.2,0.3\n"
             "force en engine a=e axis=0,1,0 in=pedal t=100,200,400,600 pedal=0,0.5,1 v=-10,40,90,-15,60,150,-20,80,180,-30,50,160 scale=%d\n", k);
    static run r;
    if (compile(&r, text)) return mb_check(0, "engine map fixture compiles");
    /* speed, pedal, T by hand (bilinear in the cell; 150/0.25: corners -10 -15 40 60) */
    static const double pts[][3] = {
        {150, 0.25, 18.75}, {500, 0.75, 117.5}, {200, 1, 150}, {300, 0.9, 146},
        {50, 0.5, 40}, {-20, 0, -10}, {600, 0, -30}, {700, 1, 0}, {450, 0, -22.5}};
    const int n = (int)(sizeof pts / sizeof pts[0]);
    double e = 0;
    for (int j = 0; j < n; ++j) {
        hs_real q[7], u[7], f[7], in[1] = {(hs_real)pts[j][1]};
        const double ws = pts[j][0] / k; /* the shaft's speed */
        spin_state(q, u, 7, 0.3 + j, ws);
        if (r.mb.type.force(&r.m, 0.0, q, u, NULL, in, f) != HS_OK) return mb_check(0, "engine map evaluates");
        const double T = power(&r, f, u, 0) / ws / k;
        e = fmax(e, fabs(T - pts[j][2]));
        if (fabs(T - pts[j][2]) > 1e-9) printf("  w %g pedal %g: T %.12g, by hand %g\n", pts[j][0], pts[j][1], T, pts[j][2]);
    }
    int refused = 0;
    const hs_real badp[3] = {(hs_real)-0.01, (hs_real)1.01, (hs_real)NAN};
    for (int j = 0; j < 3; ++j) {
        hs_real q[7], u[7], f[7], in[1] = {badp[j]};
        spin_state(q, u, 7, 0.0, 100.0);
        refused += r.mb.type.force(&r.m, 0.0, q, u, NULL, in, f) == HS_E_INPUT;
    }
    char what[300];
    snprintf(what, sizeof what, "engine map (scale=%d: shaft at w/%d) T(w, pedal) = f.u/w_shaft/%d at %d points (cells, breakpoints, held below 100 rad/s, 0 above 600) = bilinear by hand within 1e-9 N m (%.1e); pedal -0.01, 1.01, NaN refused: %d of 3",
             k, k, k, n, e, refused);
    return mb_check(e <= 1e-9 && refused == 3, what);
}

static const char launch_text[] =
    "model launch dim=3\ngravity 0,0,0\ninput pedal\ninput gear\n"
    "body eng spatial mass=1 inertia=0.2,0.2,0.2\n"
    "body wh spatial mass=1 inertia=1.5,1.5,1.5 pos=1,0,0\n"
    "joint je revolute a=eng b=ground axis=0,1,0\n"
    "joint jw revolute a=wh b=ground@1,0,0 axis=0,1,0\n"
    "force en engine a=eng axis=0,1,0 in=pedal t=0,1000 pedal=0,1 v=0,100,0,100\n"
    "force gb gearbox a=eng out=wh axis=0,1,0 in=gear ratios=3.5,2 c=50\n";

static int launch(void)
{
    static run r;
    if (compile(&r, launch_text) || init_stepper(&r)) return mb_check(0, "launch rig compiles");
    const hs_real in[2] = {1, 1};
    int ok = 1;
    double w1 = 0, w2 = 0;
    for (int k = 0; ok && k < 1000; ++k) {
        ok = hs_stepper_step(&r.s, in) == HS_OK;
        if (k == 499) w1 = wy(&r, r.s.q, r.s.u, 1);
    }
    w2 = wy(&r, r.s.q, r.s.u, 1);
    const double we = wy(&r, r.s.q, r.s.u, 0);
    const double i = 3.5, T = 100, Je = 0.2, Jw = 1.5;
    const double acc = (w2 - w1) / 0.5, want = i * T / (Jw + i * i * Je);
    const double slip = we - i * w2, slip_want = (T - Je * i * want) / 50.0;
    char what[320];
    snprintf(what, sizeof what, "launch 100 N m through i = 3.5 (c = 50), 1 s at 1 ms, default method: wheel w' %.10f rad/s^2 = i T / (J_w + i^2 J_e) %.10f (%.1e rel), slip %.8f = (T - J_e i w')/c %.8f (%.1e)",
             acc, want, fabs(acc - want) / want, slip, slip_want, fabs(slip - slip_want));
    return mb_check(ok && fabs(acc - want) <= 1e-9 * want && fabs(slip - slip_want) <= 1e-7, what);
}

/* The same rig on a falling map T = 100 (1 - w_e / 50) N m (0 at and above 50 rad/s): with no
 * load the engine settles where its torque vanishes, w_e = 50 rad/s, the wheel at 50 / i with
 * no slip (time constants (J_e + J_w / i^2) / 2 = 0.16 s and the coupling's 1.5 ms; 4 s). */
static int steady_speed(void)
{
    static char text[sizeof launch_text + 64];
    snprintf(text, sizeof text, "%s", launch_text);
    char *m = strstr(text, "t=0,1000 pedal=0,1 v=0,100,0,100");
    if (!m) return mb_check(0, "steady-speed rig");
    memcpy(m, "t=0,50   pedal=0,1 v=0,100,0,0  ", strlen("t=0,1000 pedal=0,1 v=0,100,0,100"));
    static run r;
    if (compile(&r, text) || init_stepper(&r)) return mb_check(0, "steady-speed rig compiles");
    const hs_real in[2] = {1, 1};
    int ok = 1;
    for (int k = 0; ok && k < 4000; ++k) ok = hs_stepper_step(&r.s, in) == HS_OK;
    const double we = wy(&r, r.s.q, r.s.u, 0), ww = wy(&r, r.s.q, r.s.u, 1);
    char what[260];
    snprintf(what, sizeof what, "falling map 100 (1 - w/50) N m through i = 3.5, 4 s: engine %.9f rad/s = 50 (%.1e), wheel %.9f = 50/i (%.1e), within 1e-5",
             we, fabs(we - 50), ww, fabs(ww - 50 / 3.5));
    return mb_check(ok && fabs(we - 50) <= 1e-5 && fabs(ww - 50 / 3.5) <= 1e-5, what);
}

static int gear_change(void)
{
    static run a, b;
    if (compile(&a, launch_text) || init_stepper(&a) || compile(&b, launch_text) || init_stepper(&b)) {
        return mb_check(0, "gear change rigs compile");
    }
    const int nq = a.mb.nq;
    int ok = 1, same_before = 1, differs_after = 0;
    for (int k = 0; ok && k < 301; ++k) {
        const hs_real ia[2] = {1, (hs_real)(k < 300 ? 1 : 2)}, ib[2] = {1, 1};
        ok = hs_stepper_step(&a.s, ia) == HS_OK && hs_stepper_step(&b.s, ib) == HS_OK;
        const int same = memcmp(a.s.q, b.s.q, sizeof(hs_real) * (size_t)nq) == 0 && memcmp(a.s.u, b.s.u, sizeof(hs_real) * (size_t)nq) == 0;
        if (k < 300) same_before &= same; else differs_after = !same;
    }
    /* the ratio from the shafts' torques at a state: -tau_out / tau_eng (pedal 0: no engine torque) */
    static const double gin[] = {1.0, 1.4, 1.6, 2.0, 2.49, 0.4, -0.4}, iwant[] = {3.5, 3.5, 2, 2, 2, 0, 0};
    double e = 0;
    for (int k = 0; k < 7; ++k) {
        hs_real f[32], in[2] = {0, (hs_real)gin[k]};
        if (a.mb.type.force(&a.m, 0.0, a.s.q, a.s.u, NULL, in, f) != HS_OK) { ok = 0; break; }
        const double we = wy(&a, a.s.q, a.s.u, 0), ww = wy(&a, a.s.q, a.s.u, 1);
        const double te = power(&a, f, a.s.u, 0) / we, tw = power(&a, f, a.s.u, 1) / ww;
        const double i = (iwant[k] == 0) ? (fabs(te) + fabs(tw)) : -tw / te;
        e = fmax(e, fabs(i - iwant[k]));
    }
    int refused = 0;
    static const double badg[] = {2.5, -0.51, 7};
    for (int k = 0; k < 3; ++k) {
        hs_real f[32], in[2] = {0, (hs_real)badg[k]};
        refused += a.mb.type.force(&a.m, 0.0, a.s.q, a.s.u, NULL, in, f) == HS_E_INPUT;
    }
    { hs_real f[32], in[2] = {0, (hs_real)NAN}; refused += a.mb.type.force(&a.m, 0.0, a.s.q, a.s.u, NULL, in, f) == HS_E_INPUT; }
    char what[360];
    snprintf(what, sizeof what, "gear 1 -> 2 in the inputs of step 301: states bitwise equal to a run without the change through step 300 (%s), differ after 301 (%s); ratio -tau_out/tau_eng at inputs 1, 1.4, 1.6, 2, 2.49 = 3.5, 3.5, 2, 2, 2 and 0 in neutral (0.4, -0.4) within 1e-12 (%.1e); 2.5, -0.51, 7, NaN refused: %d of 4",
             same_before ? "yes" : "NO", differs_after ? "yes" : "NO", e, refused);
    return mb_check(ok && same_before && differs_after && e <= 1e-12 && refused == 4, what);
}

static int differential(int lock)
{
    char text[1024];
    snprintf(text, sizeof text,
             "model dif dim=3\ngravity 0,0,0\ninput pedal\n"
             "body car spatial mass=1 inertia=0.05,0.05,0.05\n"
             "body wl spatial mass=1 inertia=1,1,1 pos=0,1,0\n"
             "body wr spatial mass=1 inertia=2,2,2 pos=0,-1,0\n"
             "joint jc revolute a=car b=ground axis=0,1,0\n"
             "joint jl revolute a=wl b=ground@0,1,0 axis=0,1,0\n"
             "joint jr revolute a=wr b=ground@0,-1,0 axis=0,1,0\n"
             "force en engine a=car axis=0,1,0 in=pedal t=0,1000 pedal=0,1 v=0,100,0,100\n"
             "%s\n", lock ? "force d lockdiff a=car left=wl right=wr axis=0,1,0 c=200 cr=10000"
                          : "force d diff a=car left=wl right=wr axis=0,1,0 c=200");
    static run r;
    if (compile(&r, text) || init_stepper(&r)) return mb_check(0, "differential rig compiles");
    const hs_real in[1] = {1};
    int ok = 1;
    double l1 = 0, r1 = 0;
    for (int k = 0; ok && k < 500; ++k) {
        ok = hs_stepper_step(&r.s, in) == HS_OK;
        if (k == 249) { l1 = wy(&r, r.s.q, r.s.u, 1); r1 = wy(&r, r.s.q, r.s.u, 2); }
    }
    const double wc = wy(&r, r.s.q, r.s.u, 0), wl = wy(&r, r.s.q, r.s.u, 1), wr = wy(&r, r.s.q, r.s.u, 2);
    const double al = (wl - l1) / 0.25, ar = (wr - r1) / 0.25;
    const double tau = 100, Jc = 0.05, Jl = 1, Jr = 2, c = 200, cr = 10000;
    char what[400];
    if (!lock) {
        const double T = tau / (1 + Jc * (1 / Jl + 1 / Jr) / 4);
        const double el = fabs(Jl * al - T / 2) / (T / 2), er = fabs(Jr * ar - T / 2) / (T / 2);
        const double sl = wc - (wl + wr) / 2 - T / c;
        snprintf(what, sizeof what, "open diff, 100 N m on the carrier, wheels 1 and 2 kg m^2, 0.5 s: wheel torques %.9f, %.9f N m = T/2 %.9f (%.1e, %.1e rel); speeds %.4f, %.4f rad/s apart; carrier - mean - T/c %.1e rad/s",
                 Jl * al, Jr * ar, T / 2, el, er, wl, wr, sl);
        return mb_check(ok && el <= 1e-9 && er <= 1e-9 && fabs(wl - 2 * wr) < 1e-3 * wl && fabs(sl) <= 1e-9, what);
    }
    const double a = tau / (Jc + Jl + Jr), dw = a / (2 * cr);
    const double el = fabs(al - a) / a, er = fabs(ar - a) / a, ed = fabs((wl - wr) - dw) / dw;
    snprintf(what, sizeof what, "locking diff (cr = 1e4), same rig: accelerations %.9f, %.9f rad/s^2 = tau/(J_c + J_l + J_r) %.9f (%.1e, %.1e rel); w_l - w_r %.6e = a/(2 cr) %.6e (%.1e rel)",
             al, ar, a, el, er, wl - wr, dw, ed);
    return mb_check(ok && el <= 1e-9 && er <= 1e-9 && ed <= 1e-6, what);
}

/* A dry clutch (hs_mb_el_clutch.c) closing between two shafts on revolute joints: the engine
 * J_a = 0.2 at s0 = 100 rad/s, the output J_o = 1.5 at rest, capacity C = 100 N m x engagement
 * e, lock-up c = 100 N m s/rad (c (1/J_a + 1/J_o) h = 0.57 at 1 ms). The momentum J_a w_a +
 * J_o w_o = J_a s0 holds (the torques are internal), so w_o = J_a (s0 - s) / (J_a + J_o), and
 * the slip obeys s' = -k T(s), k = 1/J_a + 1/J_o, T = C s / sqrt(a^2 + s^2), a = C / c:
 * separable, t(s) = (F(s0) - F(s)) / (k C) with F(x) = sqrt(a^2 + x^2) - a ln((a + sqrt(a^2 +
 * x^2)) / x); the test solves t(s) = 0.1 s for s by bisection. Then both run at J_a s0 / (J_a +
 * J_o), the clutch having dissipated J_a J_o s0^2 / (2 (J_a + J_o)) whatever its law.
 * e = 0 couples nothing; e outside [0, 1] refuses the step. */
static double clutch_F(double a, double x)
{
    const double r = sqrt(a * a + x * x);
    return r - a * log((a + r) / x);
}

/* The clutch rig: engine shaft at 100 rad/s, output at rest, each on a revolute joint. */
static const char clutch_text[] =
    "model clu dim=3\ngravity 0,0,0\ninput e\n"
    "body eng spatial mass=1 inertia=0.2,0.2,0.2 omega=0,100,0\n"
    "body out spatial mass=1 inertia=1.5,1.5,1.5 pos=1,0,0\n"
    "joint je revolute a=eng b=ground axis=0,1,0\n"
    "joint jo revolute a=out b=ground@1,0,0 axis=0,1,0\n"
    "force cl clutch a=eng out=out axis=0,1,0 in=e c=100 scale=100\n";

/* Runs the clutch rig 1 s at step h: the output speed at 0.1 s, the final speeds and the
 * momentum's largest drift. */
static int clutch_run(double e, double h, double *wo1, double *wa, double *wo, double *dL)
{
    static run r;
    if (compile(&r, clutch_text)) return 0;
    hs_stepper_def d = hs_stepper_default_def();
    d.h = (hs_real)h;
    if (hs_stepper_init(&r.s, &d, &r.m, 0, r.R, sizeof r.R / sizeof r.R[0], r.I, sizeof r.I / sizeof r.I[0]) != HS_OK) return 0;
    const hs_real in[1] = {(hs_real)e};
    const double L0 = 0.2 * 100;
    const int n = (int)(1.0 / h + 0.5), n1 = (int)(0.1 / h + 0.5);
    int ok = 1;
    *dL = 0;
    for (int k = 0; ok && k < n; ++k) {
        ok = hs_stepper_step(&r.s, in) == HS_OK;
        const double L = 0.2 * wy(&r, r.s.q, r.s.u, 0) + 1.5 * wy(&r, r.s.q, r.s.u, 1);
        if (fabs(L - L0) > *dL) *dL = fabs(L - L0);
        if (k == n1 - 1) *wo1 = wy(&r, r.s.q, r.s.u, 1);
    }
    *wa = wy(&r, r.s.q, r.s.u, 0);
    *wo = wy(&r, r.s.q, r.s.u, 1);
    return ok;
}

static int clutch(double e)
{
    const double Ja = 0.2, Jo = 1.5, s0 = 100, C = 100 * e, L0 = Ja * s0;
    double wo1 = 0, wa = 0, wo = 0, dL = 0, x1, x2, x3, dL2 = 0;
    const int ok = clutch_run(e, 1e-3, &wo1, &wa, &wo, &dL) && (e != 1 || clutch_run(e, 5e-4, &x1, &x2, &x3, &dL2));
    char what[440];
    if (e == 0) {
        snprintf(what, sizeof what, "clutch open (e = 0), 1 s: shafts at %.12f and %.12f rad/s (100 and 0 kept)", wa, wo);
        return mb_check(ok && fabs(wa - s0) <= 1e-9 * s0 && fabs(wo) <= 1e-9, what);
    }
    const double k = 1 / Ja + 1 / Jo, a = C / 100.0;
    double lo = 1e-12, hi = s0; /* t(s) falls with s: t(lo) > 0.1 > t(s0) = 0 */
    for (int it = 0; it < 200; ++it) {
        const double mid = 0.5 * (lo + hi);
        if ((clutch_F(a, s0) - clutch_F(a, mid)) / (k * C) > 0.1) lo = mid; else hi = mid;
    }
    const double s1 = 0.5 * (lo + hi), want1 = Ja * (s0 - s1) / (Ja + Jo), wl = L0 / (Ja + Jo);
    const double lost = 0.5 * Ja * s0 * s0 - 0.5 * (Ja * wa * wa + Jo * wo * wo), lost_want = Ja * Jo * s0 * s0 / (2 * (Ja + Jo));
    /* The momentum is bilinear in the state (the spin from the quaternion and its rate), not a
     * linear invariant the step keeps: it drifts at the method's order while the slip changes
     * the speeds fast, so the lock holds to that drift, which falls faster than h^2 (7.9x at h/2). */
    snprintf(what, sizeof what, "clutch e = %.2f (capacity %.0f N m), 1 s at 1 ms, default method: output at 0.1 s %.8f rad/s = the slip's closed form %.8f (%.1e rel); locked at %.9f, %.9f (slip %.1e) = J_a s0/(J_a + J_o) %.9f within the momentum's drift %.1e (%.2f x at h/2); dissipated %.6f J = %.6f J",
             e, C, wo1, want1, fabs(wo1 - want1) / want1, wa, wo, wa - wo, wl, dL, dL2 > 0 ? dL / dL2 : 0.0, lost, lost_want);
    return mb_check(ok && fabs(wo1 - want1) <= 1e-5 * want1 && fabs(wa - wo) <= 1e-9 * wl &&
                    fabs(wa - wl) <= 1.01 * dL / (Ja + Jo) && dL <= 2e-5 * L0 && (e != 1 || dL / dL2 > 3.5) &&
                    fabs(lost - lost_want) <= 3 * dL * wl + 1e-9 * lost_want, what);
}

/* Engagement outside [0, 1] (or NaN) refuses the step and keeps the state. */
static int clutch_refusal(void)
{
    static run r;
    if (compile(&r, clutch_text) || init_stepper(&r)) return mb_check(0, "clutch rig compiles");
    const hs_real bad[3] = {(hs_real)1.01, (hs_real)-0.01, (hs_real)NAN};
    int refused = 0;
    for (int i = 0; i < 3; ++i) {
        const hs_real q0 = r.s.q[4];
        refused += hs_stepper_step(&r.s, &bad[i]) != HS_OK && r.s.q[4] == q0;
    }
    return mb_check(refused == 3, "clutch engagement 1.01, -0.01, NaN: each step refused, state kept");
}

static int derivatives(void)
{
    static const char text[] =
        "model fx_pt dim=3\ngravity 0,0,-9.81\ninput pedal\ninput gear\n"
        "body h spatial mass=3 inertia=1,2,2.5 quat=0.9,0.1,0.3,0.3\n"
        "body e spatial mass=1 inertia=0.2,0.3,0.4 quat=0.9,0.1,0.3,0.3\n"
        "body c spatial mass=1 inertia=0.2,0.3,0.4 pos=1,0,0 quat=0.9,0.1,0.3,0.3\n"
        "body l spatial mass=1 inertia=0.5,0.6,0.7 pos=0,1,0 quat=0.9,0.1,0.3,0.3\n"
        "body r spatial mass=1 inertia=0.5,0.6,0.7 pos=0,-1,0 quat=0.9,0.1,0.3,0.3\n"
        "force en engine a=e b=h axis=0,1,0 in=pedal t=-100,100 pedal=0,0.5,1 v=-0.5,2,6,-1.5,4,9 scale=2\n"
        "force gb gearbox a=e b=h out=c axis=0,0.6,0.8 in=gear ratios=3.5,-2 c=5\n"
        "force d diff a=c b=h left=l right=r axis=0,1,0 c=2\n"
        "force d2 lockdiff a=c b=h left=l right=r axis=1,0,0 c=2 cr=3\n"
        "force cl clutch a=l b=h out=r axis=0,0.6,0.8 in=pedal c=5 scale=0.3\n";
    static run r;
    if (compile(&r, text)) return mb_check(0, "powertrain derivative fixture compiles");
    hs_real in[HS_MB_MAX_NIN] = {0};
    int bad[2];
    in[0] = (hs_real)0.37; in[1] = (hs_real)1.2;
    bad[0] = mb_deriv_check_in(&r.st.desc, 10, in);
    in[1] = (hs_real)2.0;
    bad[1] = mb_deriv_check_in(&r.st.desc, 10, in);
    char what[260];
    snprintf(what, sizeof what, "engine, gearbox (gear 1 and reverse), diff, lockdiff, clutch (slipping) between tilted shafts: fq, fu = central differences, packed = dense (%d, %d bad)", bad[0], bad[1]);
    return mb_check(bad[0] == 0 && bad[1] == 0, what);
}

static int refusals(void)
{
    static const char head[] =
        "model x dim=3\ninput p\nbody e spatial mass=1 inertia=1,1,1\nbody w spatial mass=1 inertia=1,1,1\n"
        "body t spatial mass=1 inertia=1,1,1 quat=0.8,0.6,0,0\n";
    static const struct { const char *line; const char *field; } bad[] = {
        {"force g engine a=e axis=0,1,0 in=p t=0,100 pedal=0,1 v=1,2,3\n", "v"},
        {"force g engine a=e axis=0,1,0 in=p t=100,0 pedal=0,1 v=1,2,3,4\n", "t"},
        {"force g engine a=e axis=0,1,0 in=p t=0,100 pedal=0,0.9 v=1,2,3,4\n", "pedal"},
        {"force g engine a=e axis=0,1,0 in=p t=0,100 pedal=0,1\n", "v"},
        {"force g engine a=e axis=0,2,0 in=p t=0,100 pedal=0,1 v=1,2,3,4\n", "axis"},
        {"force g gearbox a=e out=w axis=0,1,0 in=p ratios=3,0 c=10\n", "ratios"},
        {"force g gearbox a=e out=w axis=0,1,0 in=p ratios=3 c=0\n", "c"},
        {"force g gearbox a=e out=e axis=0,1,0 in=p ratios=3 c=1\n", "out"},
        {"force g gearbox a=e out=ground axis=0,1,0 in=p ratios=3 c=1\n", "out"},
        {"force g diff a=e left=w right=w axis=0,1,0 c=1\n", "right"},
        {"force g diff a=e left=w axis=0,1,0 c=1\n", "right"},
        {"force g lockdiff a=e left=w right=e axis=0,1,0 c=1 cr=1\n", "right"},
        {"force g lockdiff a=e b=w left=w right=e axis=0,1,0 c=1\n", "cr"},
        {"force g engine a=t axis=0,1,0 in=p t=0,100 pedal=0,1 v=1,2,3,4\n", "axis"},
        {"force g clutch a=e out=w axis=0,1,0 in=p c=1 scale=0\n", "scale"},
        {"force g clutch a=e out=w axis=0,1,0 in=p c=0 scale=5\n", "c"},
        {"force g clutch a=e out=e axis=0,1,0 in=p c=1 scale=5\n", "out"},
        {"force g clutch a=e axis=0,1,0 in=p c=1 scale=5\n", "out"},
    };
    const int n = (int)(sizeof bad / sizeof bad[0]);
    static run r;
    int good = 0;
    for (int i = 0; i < n; ++i) {
        char text[512];
        snprintf(text, sizeof text, "%s%s", head, bad[i].line);
        hs_mb_error err;
        memset(&err, 0, sizeof err);
        const int rc = hs_mb_parse_compile(text, strlen(text), &r.st, &r.mb, 0, &err);
        char key[16];
        snprintf(key, sizeof key, "%s=", bad[i].field);
        if (rc != 0 && err.line == 6 && (strcmp(err.field, bad[i].field) == 0 || strstr(err.detail, key) != NULL)) good++;
        else printf("  case %d: rc %d line %d field '%s': %s %s\n", i, rc, err.line, err.field, err.msg, err.detail);
    }
    char what[200];
    snprintf(what, sizeof what, "powertrain refusals at line 6 naming the key (map counts, order, pedal range, axis, ratio 0, c, shafts, a shaft tilted off the axis): %d of %d", good, n);
    return mb_check(good == n, what);
}

/* A refusal through the file loader: the message names FILE:LINE: field 'KEY'. */
static int file_refusal(void)
{
    static const char path[] = "build/mb_pt_bad.hsm";
    FILE *f = fopen(path, "w");
    if (!f) return mb_check(0, "powertrain refusal file opens");
    fputs("model x dim=3\ninput g\nbody e spatial mass=1 inertia=1,1,1\nbody w spatial mass=1 inertia=1,1,1\n"
          "force gb gearbox a=e out=w axis=0,1,0 in=g ratios=3,0,1 c=10\n", f);
    fclose(f);
    static hs_mb_store st;
    static hs_mb_model mb;
    char msg[512] = "";
    const int rc = hs_mb_load_file_msg(path, &st, &mb, 0, msg, sizeof msg);
    char want[128];
    snprintf(want, sizeof want, "%s:5: field 'ratios'", path);
    char what[700];
    snprintf(what, sizeof what, "a gearbox with a ratio 0 refused by the loader as \"%s\" (%s)", want, msg);
    return mb_check(rc != 0 && strncmp(msg, want, strlen(want)) == 0, what);
}

typedef struct carrun {
    hs_mb_store st;
    hs_mb_model mb;
    hs_model m;
    hs_stepper s;
    /* car_pt.hsm with its clutch shaft: nq + nc = 95 */
    hs_real R[HS_STEPPER_REALS(128, 128, HS_MB_MAX_NZ)];
    int I[HS_STEPPER_INTS(128, 128) + 65536];
} carrun;

/* Loads car_pt.hsm from the descriptions' folder dir into r and starts the default method at
 * 1 ms; 0, or 1 after recording the failed check. */
static int car_pt_open(const char *dir, carrun *q)
{
    char path[300], msg[512] = "";
    snprintf(path, sizeof path, "%s/vehicles/powertrain/car_pt.hsm", dir);
    if (hs_mb_load_file_msg(path, &q->st, &q->mb, 1, msg, sizeof msg) || hs_mb_model_init(&q->m, &q->mb) != HS_OK) {
        printf("  %s\n", msg);
        return mb_check(0, "car_pt.hsm loads");
    }
    hs_stepper_def d = hs_stepper_default_def();
    d.h = (hs_real)1e-3;
    if (hs_stepper_init(&q->s, &d, &q->m, 0, q->R, sizeof q->R / sizeof q->R[0], q->I, sizeof q->I / sizeof q->I[0]) != HS_OK) {
        return mb_check(0, "car_pt.hsm: stepper init");
    }
    return 0;
}

/* car_pt.hsm launched from rest at full pedal in first gear, 0.5 s with the default method at
 * 1 ms: every step ok, the front (driven) wheels equal (a symmetric car on an open
 * differential), ahead of the rear ones, the car moving forward. */
static int car_launch(const char *dir)
{
    static carrun r;
    if (car_pt_open(dir, &r) != 0) {
        return 1;
    }
    const hs_mb_desc *D = &r.st.desc;
    hs_real in[HS_MB_MAX_NIN] = {0};
    int found = 0;
    for (int i = 0; i < D->nin && D->inputs; ++i) {
        if (!strcmp(D->inputs[i].name, "pedal")) { in[i] = 1; found++; }
        if (!strcmp(D->inputs[i].name, "gear")) { in[i] = 1; found++; }
        /* the clutch closed throughout (its signal's fallback) */
        if (!strcmp(D->inputs[i].name, "clutch")) { in[i] = 1; found++; }
    }
    int ok = found == 3, steps = 0;
    for (; ok && steps < 500; ++steps) ok = hs_stepper_step(&r.s, in) == HS_OK;
    int wb[4] = {-1, -1, -1, -1};
    static const char *wn[4] = {"w_fl", "w_fr", "w_rl", "w_rr"};
    for (int b = 0; b < D->nbodies; ++b)
        for (int k = 0; k < 4; ++k) if (!strcmp(D->bodies[b].name, wn[k])) wb[k] = b;
    double w[4] = {0, 0, 0, 0};
    for (int k = 0; k < 4 && wb[k] >= 0; ++k) {
        const int o = r.mb.qoff[wb[k]] + 3;
        const hs_real *q = r.s.q, *u = r.s.u;
        w[k] = 2.0 * (-u[o] * q[o + 2] + u[o + 2] * q[o] + u[o + 3] * q[o + 1] - u[o + 1] * q[o + 3]);
    }
    const double vx = (double)r.s.u[0];
    char what[400];
    snprintf(what, sizeof what, "car_pt.hsm: 0.5 s from rest, pedal 1, gear 1, default method at 1 ms: %d steps ok; front wheels %.6f, %.6f rad/s (equal within 1e-9 rel) ahead of the rear %.6f; vx %.4f m/s",
             steps, w[0], w[1], w[2], vx);
    return mb_check(ok && steps == 500 && fabs(w[0] - w[1]) <= 1e-9 * fabs(w[0]) && w[0] > w[2] && w[2] > 0 && vx > 0, what);
}

/* The spin rate about y of spatial body b (2 G(p) p', its y). */
static double spin_y(const carrun *r, int b)
{
    const int o = r->mb.qoff[b] + 3;
    const hs_real *q = r->s.q, *u = r->s.u;
    return 2.0 * (-u[o] * q[o + 2] + u[o + 2] * q[o] + u[o + 3] * q[o + 1] - u[o + 1] * q[o + 3]);
}

/* car_pt.hsm launched from rest through its clutch (test/mb/pt/clutch_launch.csv's schedule):
 * gear 1, the clutch open while the pedal rises 0.25 -> 0.5 over 0.8 s, then closing linearly
 * to 1 at 2.3 s. Open, the engine revs while the car stands (the clutch carries nothing); closed,
 * the slip is the lock-up's T / c_c <= 165 / 100 = 1.65 rad/s at the engine and the car pulls
 * away. Engine speed = k_e = 5 times the crank body's spin (the clutch disc's likewise). */
static int car_clutch_launch(const char *dir)
{
    static carrun r;
    if (car_pt_open(dir, &r) != 0) {
        return 1;
    }
    const hs_mb_desc *D = &r.st.desc;
    int ip = -1, ig = -1, ic = -1, bc = -1, bg = -1;
    for (int i = 0; i < D->nin && D->inputs; ++i) {
        if (!strcmp(D->inputs[i].name, "pedal")) ip = i;
        if (!strcmp(D->inputs[i].name, "gear")) ig = i;
        if (!strcmp(D->inputs[i].name, "clutch")) ic = i;
    }
    for (int b = 0; b < D->nbodies; ++b) {
        if (!strcmp(D->bodies[b].name, "crank")) bc = b;
        if (!strcmp(D->bodies[b].name, "gbin")) bg = b;
    }
    if (ip < 0 || ig < 0 || ic < 0 || bc < 0 || bg < 0) return mb_check(0, "car_pt.hsm: inputs pedal, gear, clutch, bodies crank, gbin");
    hs_real in[HS_MB_MAX_NIN] = {0};
    int ok = 1, steps = 0;
    double we_open = 0, vx_open = 0, vmax_open = 0;
    for (; ok && steps < 4000; ++steps) {
        const double t = steps * 1e-3;
        in[ip] = (hs_real)(t < 0.8 ? 0.25 + 0.25 * t / 0.8 : 0.5);
        in[ig] = 1;
        in[ic] = (hs_real)(t < 0.8 ? 0.0 : (t < 2.3 ? (t - 0.8) / 1.5 : 1.0));
        ok = hs_stepper_step(&r.s, in) == HS_OK;
        if (steps + 1 <= 800) vmax_open = fmax(vmax_open, fabs((double)r.s.u[0]));
        if (steps + 1 == 800) { we_open = 5.0 * spin_y(&r, bc); vx_open = (double)r.s.u[0]; }
    }
    const double we = 5.0 * spin_y(&r, bc), wg = 5.0 * spin_y(&r, bg), vx = (double)r.s.u[0];
    char what[500];
    snprintf(what, sizeof what, "car_pt.hsm through its clutch: open 0..0.8 s, the engine revs to %.2f rad/s while the car stands "
             "(|vx| <= %.2e m/s, < 2e-3); closed at 2.3 s, at 4 s engine %.3f rad/s, clutch disc %.3f (slip %.4f <= 1.65 = "
             "165 N m / c_c), vx %.4f m/s (> 4: pulled away); %d steps ok", we_open, vmax_open, we, wg, we - wg, vx, steps);
    return mb_check(ok && steps == 4000 && we_open > 100 && vmax_open < 2e-3 && fabs(vx_open) < 2e-3 && fabs(we - wg) <= 1.65 &&
                    fabs(we - wg) < 0.01 * we && vx > 4.0, what);
}

int mb_test_pt(const char *dir)
{
    int bad = 0;
    bad += engine_map(1);
    bad += engine_map(5);
    bad += launch();
    bad += steady_speed();
    bad += gear_change();
    bad += differential(0);
    bad += differential(1);
    bad += clutch(1.0);
    bad += clutch(0.5);
    bad += clutch(0.0);
    bad += clutch_refusal();
    bad += derivatives();
    bad += refusals();
    bad += file_refusal();
    if (dir) bad += car_launch(dir);
    if (dir) bad += car_clutch_launch(dir);
    return bad;
}
