/* vdc_main.c - build/hilstep-vdc: the car's manoeuvres closed offline, the control laws of
 * hil/hs_vdc.h (the code hilstep-ecu runs over the link) against the car model (--model car
 * with external = 1, the plant's inputs) on the simulated clock, default method. The ECU's
 * one-frame loop delay is kept: the commands of tick k act on step k + 1, computed from the
 * outputs after step k - 1, as on the bench (port/linux-rt/hilstep_ecu.c: the command lands
 * mid-frame). Writes one CSV row per --every steps and a result line; the manoeuvre's numbers
 * (stop distance, yaw-rate ratios) are computed from the CSV by test/figures/vdc.py. */
#include "hs_models.h"
#include "hs_stepper.h"
#include "hs_vdc.h"
#include "hs_veh.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct vdc_opts {
    const char *maneuver, *control, *csv;
    double h, t, amp, path_k, demand, esc_mu, esc_kp, esc_db;
    int every;
    const char *pkey[16];
    double pval[16];
    int np;
} vdc_opts;

static void usage(void)
{
    printf(
"usage: hilstep-vdc [options]\n"
"The car (--model car, external = 1) under the control laws of hil/hs_vdc.h, closed offline.\n"
"  --maneuver M    stop: straight-line braking with the demand on every wheel (path hold with\n"
"                  --path-k); sine-dwell: FMVSS 126 / UN R140 sine with dwell, coasting;\n"
"                  step: a step steer; ramp: the slowly increasing steer (default stop)\n"
"  --control C     none, abs, brake (the demand, no ABS), esc, abs-select-low (default none)\n"
"  --amp X         steering amplitude at the wheels (rad; sine-dwell, step)\n"
"  --path-k X      stop: steering per m of previewed lateral offset (rad/m, default 0: hands off)\n"
"  --brake-demand X  stop: driver's brake torque per wheel (N m, default 2500)\n"
"  --esc-mu X, --esc-kp X, --esc-db X  the ESC's road friction, gain (N m s), deadband (rad/s)\n"
"  --param K=V     a car parameter (v0, mu, mu_l, mu_r, ...; external is 1)\n"
"  --h X --t X     step (s, default 1e-3) and duration (s, default 5)\n"
"  --csv FILE --every N  the run's rows, every N steps (default 10)\n"
"  --help          this text\n"
"Result line: steps=N status=ok|... abs_ticks (slip controller acting), slip_max, esc_ticks (a wheel\n"
"braked), esc_saturated (its torque clamped to 2500 N m), esc_t_max; exit 0 ok, 1 bad option,\n"
"4 refused step, 5 the CSV could not be written.\n");
}

static int num(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return (end == s || *end || errno) ? -1 : 0;
}

static int parse(int argc, char **argv, vdc_opts *o)
{
    o->maneuver = "stop";
    o->control = "none";
    o->h = 1e-3;
    o->t = 5.0;
    o->demand = 2500.0;
    o->esc_mu = -1.0;
    o->esc_kp = -1.0;
    o->esc_db = -1.0;
    o->every = 10;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        double d = 0.0;
        if (!strcmp(a, "--help")) { usage(); exit(0); }
        if (!v) { fprintf(stderr, "hilstep-vdc: %s needs a value\n", a); return -1; }
        ++i;
        if (!strcmp(a, "--maneuver")) o->maneuver = v;
        else if (!strcmp(a, "--control")) o->control = v;
        else if (!strcmp(a, "--csv")) o->csv = v;
        else if (!strcmp(a, "--param") && strchr(v, '=') && o->np < 16) {
            const char *eq = strchr(v, '=');
            static char keys[16][32];
            if ((size_t)(eq - v) >= sizeof keys[0] || num(eq + 1, &d)) goto bad;
            memcpy(keys[o->np], v, (size_t)(eq - v));
            keys[o->np][eq - v] = 0;
            o->pkey[o->np] = keys[o->np];
            o->pval[o->np++] = d;
        }
        else if (num(v, &d)) goto bad;
        else if (!strcmp(a, "--h") && d > 0 && d <= 0.01) o->h = d;
        else if (!strcmp(a, "--t") && d > 0 && d <= 600) o->t = d;
        else if (!strcmp(a, "--amp") && d >= -0.6 && d <= 0.6) o->amp = d;
        else if (!strcmp(a, "--path-k") && d >= 0) o->path_k = d;
        else if (!strcmp(a, "--brake-demand") && d >= 0 && d <= 5000) o->demand = d;
        else if (!strcmp(a, "--esc-mu") && d > 0) o->esc_mu = d;
        else if (!strcmp(a, "--esc-kp") && d >= 0) o->esc_kp = d;
        else if (!strcmp(a, "--esc-db") && d >= 0) o->esc_db = d;
        else if (!strcmp(a, "--every") && d >= 1 && d <= 1e6) o->every = (int)d;
        else goto bad;
        continue;
    bad:
        fprintf(stderr, "hilstep-vdc: bad option or value: %s %s (see --help)\n", a, v);
        return -1;
    }
    return 0;
}

/* The laws of one run, set up from the options. */
typedef struct vdc_laws {
    hs_abs_state abs;
    hs_esc_state esc;
    hs_drv_cfg drv;
    int use_abs, use_esc;
} vdc_laws;

static int laws_init(const vdc_opts *o, vdc_laws *L)
{
    hs_abs_cfg ac = hs_abs_default();
    hs_esc_cfg ec = hs_esc_default();
    const char *c = o->control, *m = o->maneuver;
    ac.demand = (hs_real)o->demand;
    ac.select_low = !strcmp(c, "abs-select-low");
    L->use_abs = !strcmp(c, "abs") || ac.select_low ? 1 : !strcmp(c, "brake") ? 2 : 0;
    L->use_esc = !strcmp(c, "esc");
    if (!L->use_abs && !L->use_esc && strcmp(c, "none")) {
        fprintf(stderr, "hilstep-vdc: --control %s: none, abs, abs-select-low, brake or esc\n", c);
        return -1;
    }
    if (o->esc_mu > 0) ec.mu = (hs_real)o->esc_mu;
    if (o->esc_kp >= 0) ec.kp = (hs_real)o->esc_kp;
    if (o->esc_db >= 0) ec.db = (hs_real)o->esc_db;
    if ((L->use_abs && hs_abs_init(&L->abs, &ac, L->use_abs) != HS_OK) || hs_esc_init(&L->esc, &ec) != HS_OK) {
        fprintf(stderr, "hilstep-vdc: a control setting is out of range\n");
        return -1;
    }
    hs_drv_kind k = !strcmp(m, "stop") ? HS_DRV_STRAIGHT : !strcmp(m, "sine-dwell") ? HS_DRV_SINE_DWELL
                  : !strcmp(m, "step") ? HS_DRV_STEP : !strcmp(m, "ramp") ? HS_DRV_RAMP : (hs_drv_kind)-1;
    if ((int)k < 0) {
        fprintf(stderr, "hilstep-vdc: --maneuver %s: stop, sine-dwell, step or ramp\n", m);
        return -1;
    }
    L->drv = hs_drv_default(k);
    L->drv.amp = (hs_real)o->amp;
    L->drv.path_k = (hs_real)o->path_k;
    if (k == HS_DRV_STRAIGHT) L->drv.t0 = HS_R(0.0);
    return 0;
}

/* Car inputs (steer, drive x 4, brake x 4, mu x 4) from the outputs y of the last step, at t. */
static void commands(vdc_laws *L, const vdc_opts *o, double t, const hs_real y[HS_VEH_CAR_NOUT], hs_real *in)
{
    hs_real drive = 0, Tb[4] = {0, 0, 0, 0}, Te[4] = {0, 0, 0, 0};
    /* cppcheck's whole-program pass sizes y with float but indexes it with double (both
     * HS_REAL configurations at once): y has HS_VEH_CAR_NOUT = 12 entries */
    /* cppcheck-suppress ctuArrayIndex */
    const hs_real steer = hs_drv_step(&L->drv, (hs_real)t, y[10], y[11], y[8], &drive);
    if (L->use_abs) hs_abs_step(&L->abs, y[8], y, (hs_real)o->h, Tb);
    if (L->use_esc) hs_esc_step(&L->esc, y[8], steer, y[4], (hs_real)o->h, Te);
    memset(in, 0, HS_VEH_CAR_NIN * sizeof *in);
    in[0] = steer;
    in[3] = in[4] = drive;
    for (int w = 0; w < 4; ++w) in[5 + w] = Tb[w] > Te[w] ? Tb[w] : Te[w];
}

static void csv_row(FILE *f, double t, const hs_real *in, const hs_real *y, const vdc_laws *L)
{
    fprintf(f, "%.6g", t);
    for (int i = 0; i < 9; ++i) fprintf(f, ",%.9g", (double)in[i]);
    for (int i = 0; i < HS_VEH_CAR_NOUT; ++i) fprintf(f, ",%.9g", (double)y[i]);
    fprintf(f, ",%.9g\n", (double)L->esc.r_ref);
}

int main(int argc, char **argv)
{
    static vdc_opts o;
    static vdc_laws L;
    static hs_real pblock[HS_MODELS_MAX_PARAM_BYTES / sizeof(hs_real) + 1];
    static hs_real reals[HS_STEPPER_REALS(HS_VEH_CAR_NQ, 0, HS_VEH_CAR_NZ)];
    static int ints[HS_STEPPER_INTS(HS_VEH_CAR_NQ, 0)];
    static hs_stepper st;
    hs_model m;
    if (parse(argc, argv, &o) || laws_init(&o, &L)) return 1;
    if (hs_model_init(&m, &hs_veh_car_type, pblock) != HS_OK) return 1;
    for (int k = 0; k < o.np; ++k) {
        if (hs_model_set_param(&m, o.pkey[k], (hs_real)o.pval[k]) != HS_OK) {
            fprintf(stderr, "hilstep-vdc: --param %s=%g refused by the car\n", o.pkey[k], o.pval[k]);
            return 1;
        }
    }
    (void)hs_model_set_param(&m, "external", HS_R(1.0));
    hs_stepper_def def = hs_stepper_default_def();
    def.h = (hs_real)o.h;
    hs_status rc = hs_stepper_init(&st, &def, &m, HS_R(0.0), reals, sizeof reals / sizeof reals[0], ints,
                                   sizeof ints / sizeof ints[0]);
    FILE *f = o.csv ? fopen(o.csv, "w") : NULL;
    if (o.csv && !f) { fprintf(stderr, "hilstep-vdc: --csv %s: %s\n", o.csv, strerror(errno)); return 1; }
    if (f) fprintf(f, "t,steer,drive_fl,drive_fr,drive_rl,drive_rr,brake_fl,brake_fr,brake_rl,brake_rr,"
                      "omega_fl,omega_fr,omega_rl,omega_rr,yaw_rate,a_x,a_y,beta,speed,X,Y,psi,r_ref\n");
    const long n = (long)(o.t / o.h + 0.5);
    static hs_real in[HS_VEH_CAR_NIN], next[HS_VEH_CAR_NIN], y[HS_VEH_CAR_NOUT];
    long k = 0;
    if (rc == HS_OK) rc = hs_stepper_outputs(&st, in, y);
    for (; rc == HS_OK && k <= n; ++k) {
        const double t = (double)k * o.h;
        commands(&L, &o, t, y, next); /* from the outputs of step k - 1: one frame of delay */
        if (f && k % o.every == 0) csv_row(f, t, in, y, &L);
        if (k == n) break;
        rc = hs_stepper_step(&st, in);
        if (rc == HS_OK) rc = hs_stepper_outputs(&st, in, y);
        memcpy(in, next, sizeof in);
    }
    if (f && fclose(f) != 0) { fprintf(stderr, "hilstep-vdc: --csv %s: write failed\n", o.csv); return 5; }
    printf("steps=%ld status=%s abs_ticks=%llu slip_max=%.4f esc_ticks=%llu esc_saturated=%llu esc_t_max=%.1f\n", k,
           rc == HS_OK ? "ok" : hs_status_str(rc), (unsigned long long)L.abs.ticks, (double)L.abs.slip_max,
           (unsigned long long)L.esc.ticks, (unsigned long long)L.esc.saturated, (double)L.esc.t_max);
    return rc == HS_OK ? 0 : 4;
}
