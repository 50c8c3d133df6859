/* method_bars.c - build/hilstep-method-bars: the measurements behind issue 8's bars, one process each,
 * arenas sized by hs_stepper_workspace_tmp (host tool, so malloc is fine here).
 *
 *   hilstep-method-bars soak MODEL STEPS [WINDOW_S] [opts]  default config, h = 1 ms: status, max |g|
 *                                             over the run, max |u| per window (1000 s unless given:
 *                                             first, last, growth)
 *   hilstep-method-bars chain NMAX [opts]          chain n = 1..NMAX, h = 1 ms, 10 s: refused steps and
 *                                             |E(10) - E(0)| / (m g L n^2 / 2)
 *   hilstep-method-bars accuracy [opts]            car axle max position error over [0, 3] against galpha
 *                                             (rho_inf = 1) at h = 1e-5 s, h = 4 ms ... 0.25 ms, slope
 *   hilstep-method-bars stiff [opts]               car axle eps = 1e-2 ... 3e-5 at h = 1 ms: peak |u| over [0, 3]
 *   hilstep-method-bars pendulum [opts]            pendulum h = 1/60, 100 s: refused steps, max |E - E0| /
 *                                             initial potential drop
 *   hilstep-method-bars energy MODEL T EVERY [opts]  CSV t,E of one run (model params via -p KEY=VAL)
 * opts: -m METHOD -f FORM -s STAB -r RHO_INF -g SD_GAMMA -h H -p KEY=VALUE (repeatable); omitted = library
 * default (hs_stepper_default_def). Every command exits 1 when its bar fails, 2 on bad usage. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hs_models.h"
#include "hs_stepper.h"

typedef struct run {
    hs_model m;
    union { hs_real r[64]; double a; } p;
    hs_stepper s;
    hs_real *R;
    int *I;
} run;

typedef struct opts {
    hs_stepper_def d;
    int have_h;
    const char *pk[16];
    double pv[16];
    int np;
} opts;

static int parse_opts(int argc, char **argv, int i, opts *o)
{
    o->d = hs_stepper_default_def();
    o->have_h = 0;
    o->np = 0;
    for (; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) return -1;
        ++i;
        if (!strcmp(a, "-m")) {
            int found = 0;
            for (int k = 0; k < HS_METHOD_COUNT; ++k)
                if (!strcmp(v, hs_method_name((hs_method)k))) { o->d.method = (hs_method)k; found = 1; }
            if (!found) return -1;
        } else if (!strcmp(a, "-f")) {
            if (!strcmp(v, "index1")) o->d.form = HS_FORM_INDEX1;
            else if (!strcmp(v, "index2")) o->d.form = HS_FORM_INDEX2;
            else if (!strcmp(v, "ggl")) o->d.form = HS_FORM_GGL;
            else return -1;
        } else if (!strcmp(a, "-s")) {
            if (!strcmp(v, "none")) o->d.stab = HS_STAB_NONE;
            else if (!strcmp(v, "baumgarte")) o->d.stab = HS_STAB_BAUMGARTE;
            else if (!strcmp(v, "projection")) o->d.stab = HS_STAB_PROJECTION;
            else return -1;
        } else if (!strcmp(a, "-r")) {
            o->d.rho_inf = (hs_real)atof(v);
        } else if (!strcmp(a, "-g")) {
            o->d.sd_gamma = (hs_real)atof(v);
        } else if (!strcmp(a, "-h")) {
            o->d.h = (hs_real)atof(v);
            o->have_h = 1;
        } else if (!strcmp(a, "-p")) {
            const char *eq = strchr(v, '=');
            if (!eq || o->np >= 16) return -1;
            static char keys[16][32];
            size_t kl = (size_t)(eq - v);
            if (kl >= 32) return -1;
            memcpy(keys[o->np], v, kl);
            keys[o->np][kl] = 0;
            o->pk[o->np] = keys[o->np];
            o->pv[o->np] = atof(eq + 1);
            o->np++;
        } else {
            return -1;
        }
    }
    return 0;
}

static void drop(run *x)
{
    free(x->R);
    free(x->I);
    x->R = NULL;
    x->I = NULL;
}

/* Model T with params, stepper with def d; HS_OK or the failing code (printed). */
static int start(run *x, const hs_model_type *T, const opts *o, const hs_stepper_def *d)
{
    x->R = NULL; x->I = NULL;
    int rc = hs_model_init(&x->m, T, &x->p);
    for (int k = 0; k < o->np && !rc; ++k) {
        rc = hs_model_set_param(&x->m, o->pk[k], (hs_real)o->pv[k]);
        if (rc == HS_E_UNKNOWN_PARAM) rc = HS_OK; /* options shared by several models */
    }
    if (rc) { fprintf(stderr, "model: %s\n", hs_status_str(rc)); return rc; }
    size_t nr = 0, ni = 0;
    /* sizing scratch for the sparse analysis of the larger models (the stack version's 2048
     * ints cover the block list and dense systems only) */
    static int sizing[1 << 22];
    rc = hs_stepper_workspace_tmp(d, &x->m, sizing, sizeof sizing / sizeof sizing[0], &nr, &ni);
    if (rc) { fprintf(stderr, "workspace: %s\n", hs_status_str(rc)); return rc; }
    x->R = malloc(nr * sizeof *x->R);
    x->I = malloc(ni * sizeof *x->I);
    if (!x->R || !x->I) { drop(x); return HS_E_SIZE; }
    rc = hs_stepper_init(&x->s, d, &x->m, HS_R(0.0), x->R, nr, x->I, ni);
    if (rc) { fprintf(stderr, "init: %s\n", hs_status_str(rc)); drop(x); }
    return rc;
}

static double max_abs_g(run *x)
{
    hs_real g[HS_CHAIN_NC_MAX + 8];
    if (x->s.nc == 0) return 0.0;
    if (hs_stepper_residual(&x->s, g)) return (double)INFINITY;
    double m = 0;
    for (int i = 0; i < x->s.nc; ++i) m = fmax(m, fabs((double)g[i]));
    return m;
}

static double max_abs_u(const run *x)
{
    double m = 0;
    for (int i = 0; i < x->s.nq; ++i) m = fmax(m, fabs((double)x->s.u[i]));
    return m;
}

static double energy(run *x)
{
    hs_real E = 0;
    if (!x->m.type->energy) return NAN;
    if (x->m.type->energy(&x->m, x->s.t, x->s.q, x->s.u, x->s.z, &E)) return NAN;
    return (double)E;
}

static void say_config(const hs_stepper_def *d)
{
    printf("config: method=%s form=%s stab=%s h=%g rho_inf=%g sd_gamma=%g\n", hs_method_name(d->method),
           hs_form_name(d->form), hs_stab_name(d->stab), (double)d->h, (double)d->rho_inf,
           (double)d->sd_gamma);
}

/* ---- soak: STEPS steps, max |g|, max |u| per 1000 s window ---- */
static int cmd_soak(const char *model, long long steps, double window_s, const opts *o)
{
    const hs_model_type *T = hs_model_find(model);
    if (!T) return 2;
    static run x;
    if (start(&x, T, o, &o->d)) return 1;
    say_config(&o->d);
    const long long win = (long long)llround(window_s / (double)o->d.h);
    double mg = max_abs_g(&x), wmax = 0, first = -1, last = -1, worst_growth = 0;
    hs_real in[8] = {0};
    int rc = HS_OK;
    long long k;
    for (k = 0; k < steps; ++k) {
        rc = hs_stepper_step(&x.s, in);
        if (rc) break;
        mg = fmax(mg, max_abs_g(&x));
        wmax = fmax(wmax, max_abs_u(&x));
        if ((k + 1) % win == 0) {
            if (first < 0) first = wmax;
            last = wmax;
            worst_growth = fmax(worst_growth, wmax / first - 1.0);
            wmax = 0;
        }
    }
    if (first < 0) first = last = wmax;
    const double growth = last / first - 1.0;
    const int ok = rc == HS_OK && mg <= 1e-8 && growth <= 0.10;
    printf("soak %s steps=%lld status=%s max_abs_g=%.3e window=%gs max_u_first_window=%.6g "
           "max_u_last_window=%.6g growth=%.3e worst_window_growth=%.3e %s\n", model, k,
           rc ? hs_status_str(rc) : "ok", mg, window_s, first, last, growth, worst_growth,
           ok ? "PASS" : "FAIL");
    drop(&x);
    return ok ? 0 : 1;
}

/* ---- chain n = 1..NMAX ---- */
static int cmd_chain(int nmax, const opts *o)
{
    const hs_model_type *T = hs_model_find("chain");
    if (!T) return 2;
    say_config(&o->d);
    int bad = 0;
    double worst = 0;
    for (int n = 1; n <= nmax; ++n) {
        opts oc = *o;
        char nv[16];
        snprintf(nv, sizeof nv, "%d", n);
        oc.pk[oc.np] = "n"; oc.pv[oc.np] = n; oc.np++;
        static run x;
        if (start(&x, T, &oc, &o->d)) return 1;
        hs_real m = 1, g = 9.81, L = 1;
        hs_model_get_param(&x.m, "m", &m);
        hs_model_get_param(&x.m, "grav", &g);
        hs_model_get_param(&x.m, "len", &L);
        const double yard = (double)m * (double)g * (double)L * n * n / 2.0;
        const double E0 = energy(&x);
        const long steps = lround(10.0 / (double)o->d.h);
        int rc = HS_OK;
        long k;
        double mg = 0;
        for (k = 0; k < steps && !rc; ++k) {
            rc = hs_stepper_step(&x.s, NULL);
            if (!rc) mg = fmax(mg, max_abs_g(&x)); /* every step: the figure is a maximum */
        }
        const double rel = fabs(energy(&x) - E0) / yard;
        const int ok = rc == HS_OK && rel <= 0.01;
        bad += !ok;
        worst = fmax(worst, rc ? (double)INFINITY : rel);
        printf("chain n=%2d steps=%ld status=%s |E(10)-E(0)|=%.4g J = %.3f %% of m g L n^2/2 max|g|=%.1e %s\n",
               n, k - (rc ? 1 : 0), rc ? hs_status_str(rc) : "ok", fabs(energy(&x) - E0), 100 * rel, mg,
               ok ? "PASS" : "FAIL");
        drop(&x);
    }
    printf("chain n=1..%d: %d failed, worst %.3f %%\n", nmax, bad, 100 * worst);
    return bad ? 1 : 0;
}

/* ---- accuracy: max position error over [0, 3], reference galpha rho 1 at h = 1e-5 ---- */
#define ACC_SAMPLES 12001 /* every 0.25 ms over [0, 3] */
static double ref_q[ACC_SAMPLES][4];

static int accuracy_ref(const opts *o)
{
    hs_stepper_def d = hs_stepper_default_def();
    d.method = HS_METHOD_GALPHA;
    d.rho_inf = HS_R(1.0);
    d.stab = HS_STAB_PROJECTION;
    d.h = HS_R(1e-5);
    static run x;
    if (start(&x, &hs_car_axle_type, o, &d)) return 1;
    for (int i = 0; i < 4; ++i) ref_q[0][i] = (double)x.s.q[i];
    for (long k = 1; k <= 300000; ++k) {
        if (hs_stepper_step(&x.s, NULL)) { drop(&x); return 1; }
        if (k % 25 == 0)
            for (int i = 0; i < 4; ++i) ref_q[k / 25][i] = (double)x.s.q[i];
    }
    drop(&x);
    return 0;
}

static double max_err(const opts *o, double h, long *refused)
{
    hs_stepper_def d = o->d;
    d.h = (hs_real)h;
    static run x;
    *refused = 0;
    if (start(&x, &hs_car_axle_type, o, &d)) return (double)INFINITY;
    const long steps = lround(3.0 / h), every = lround(h / 2.5e-4);
    double e = 0;
    for (long k = 1; k <= steps; ++k) {
        if (hs_stepper_step(&x.s, NULL)) { *refused = 1; drop(&x); return (double)INFINITY; }
        for (int i = 0; i < 4; ++i) e = fmax(e, fabs((double)x.s.q[i] - ref_q[k * every][i]));
    }
    drop(&x);
    return e;
}

static int cmd_accuracy(const opts *o)
{
    say_config(&o->d);
    if (accuracy_ref(o)) { fprintf(stderr, "reference run failed\n"); return 1; }
    const double hs[] = {4e-3, 2e-3, 1e-3, 5e-4, 2.5e-4};
    double e[5], sx = 0, sy = 0, sxx = 0, sxy = 0;
    long ref;
    for (int i = 0; i < 5; ++i) {
        e[i] = max_err(o, hs[i], &ref);
        printf("accuracy car_axle h=%g max_pos_err=%.4e%s\n", hs[i], e[i], ref ? " (refused step)" : "");
        double lx = log(hs[i]), ly = log(e[i]);
        sx += lx; sy += ly; sxx += lx * lx; sxy += lx * ly;
    }
    const double slope = (5 * sxy - sx * sy) / (5 * sxx - sx * sx);
    const int ok = e[2] <= 2.6e-4 && slope >= 1.8;
    printf("accuracy car_axle h=1e-3 max_pos_err=%.4e (bar 2.6e-4) order=%.3f (bar 1.8) %s\n", e[2], slope,
           ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}

/* ---- stiffness sweep ---- */
static int cmd_stiff(const opts *o)
{
    say_config(&o->d);
    const double eps[] = {1e-2, 3e-3, 1e-3, 3e-4, 1e-4, 3e-5};
    int bad = 0;
    for (int i = 0; i < 6; ++i) {
        opts oc = *o;
        oc.pk[oc.np] = "eps"; oc.pv[oc.np] = eps[i]; oc.np++;
        static run x;
        if (start(&x, &hs_car_axle_type, &oc, &o->d)) { ++bad; continue; }
        double pk = max_abs_u(&x);
        int rc = HS_OK;
        const long steps = lround(3.0 / (double)o->d.h);
        for (long k = 0; k < steps && !rc; ++k) {
            rc = hs_stepper_step(&x.s, NULL);
            if (!rc) pk = fmax(pk, max_abs_u(&x));
        }
        const double K = 10.0 * eps[i] * eps[i] / 2.0, homega = (double)o->d.h / sqrt(K);
        const int ok = rc == HS_OK && fabs(pk / 2.1 - 1.0) <= 0.10;
        bad += !ok;
        printf("stiff eps=%g h*omega=%.2f status=%s peak|u|=%.4f (true 2.1) %s\n", eps[i], homega,
               rc ? hs_status_str(rc) : "ok", pk, ok ? "PASS" : "FAIL");
        drop(&x);
    }
    return bad ? 1 : 0;
}

/* ---- pendulum h = 1/60, 100 s ---- */
static int cmd_pendulum(const opts *o)
{
    hs_stepper_def d = o->d;
    if (!o->have_h) d.h = (hs_real)(1.0 / 60.0);
    say_config(&d);
    static run x;
    if (start(&x, &hs_pendulum_type, o, &d)) return 1;
    hs_real m = 1, g = 10, L = 1;
    hs_model_get_param(&x.m, "m", &m);
    hs_model_get_param(&x.m, "grav", &g);
    hs_model_get_param(&x.m, "len", &L);
    const double drop0 = (double)m * (double)g * ((double)x.s.q[1] + (double)L); /* to the bottom */
    const double E0 = energy(&x);
    double de = 0;
    int rc = HS_OK;
    const long steps = lround(100.0 / (double)d.h);
    long k;
    for (k = 0; k < steps && !rc; ++k) {
        rc = hs_stepper_step(&x.s, NULL);
        if (!rc) de = fmax(de, fabs(energy(&x) - E0));
    }
    const int ok = rc == HS_OK && de <= 0.01 * drop0;
    printf("pendulum h=1/60 T=100 steps=%ld status=%s max|E-E0|=%.4g J = %.3f %% of the potential drop %.4g J %s\n",
           k - (rc ? 1 : 0), rc ? hs_status_str(rc) : "ok", de, 100 * de / drop0, drop0, ok ? "PASS" : "FAIL");
    drop(&x);
    return ok ? 0 : 1;
}

/* ---- energy CSV ---- */
static int cmd_energy(const char *model, double T_end, long every, const opts *o)
{
    const hs_model_type *T = hs_model_find(model);
    if (!T || every < 1) return 2;
    static run x;
    if (start(&x, T, o, &o->d)) {
        printf("t,E\n# init refused\n");
        return 1;
    }
    printf("t,E\n%.9g,%.12g\n", 0.0, energy(&x));
    const long steps = lround(T_end / (double)o->d.h);
    hs_real in[8] = {0};
    int rc = HS_OK;
    for (long k = 1; k <= steps && !rc; ++k) {
        rc = hs_stepper_step(&x.s, in);
        if (!rc && k % every == 0) printf("%.9g,%.12g\n", (double)x.s.t, energy(&x));
    }
    if (rc) printf("# refused at t=%.9g: %s\n", (double)x.s.t, hs_status_str(rc));
    drop(&x);
    return rc ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) goto usage;
    opts o;
    const char *c = argv[1];
    if (!strcmp(c, "soak") && argc >= 4) {
        /* optional 4th word: window length in s (default 1000 s, the issue's) */
        int i = 4;
        double win = 1000.0;
        if (argc > 4 && argv[4][0] != '-') { win = atof(argv[4]); i = 5; }
        if (!(win > 0) || parse_opts(argc, argv, i, &o)) goto usage;
        return cmd_soak(argv[2], atoll(argv[3]), win, &o);
    }
    if (!strcmp(c, "chain") && argc >= 3) {
        if (parse_opts(argc, argv, 3, &o)) goto usage;
        return cmd_chain(atoi(argv[2]), &o);
    }
    if (!strcmp(c, "accuracy")) {
        if (parse_opts(argc, argv, 2, &o)) goto usage;
        return cmd_accuracy(&o);
    }
    if (!strcmp(c, "stiff")) {
        if (parse_opts(argc, argv, 2, &o)) goto usage;
        return cmd_stiff(&o);
    }
    if (!strcmp(c, "pendulum")) {
        if (parse_opts(argc, argv, 2, &o)) goto usage;
        return cmd_pendulum(&o);
    }
    if (!strcmp(c, "energy") && argc >= 5) {
        if (parse_opts(argc, argv, 5, &o)) goto usage;
        return cmd_energy(argv[2], atof(argv[3]), atol(argv[4]), &o);
    }
usage:
    fprintf(stderr, "usage: hilstep-method-bars soak MODEL STEPS | chain NMAX | accuracy | stiff | pendulum |"
                    " energy MODEL T EVERY  [-m METHOD -f FORM -s STAB -r RHO -g SD_GAMMA -h H -p KEY=VAL]\n");
    return 2;
}
