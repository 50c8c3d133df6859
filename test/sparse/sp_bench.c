/* sp_bench.c - build/hilstep-spbench: cost and [L2] figure data of the sparse path.
 *
 *   hilstep-spbench one MODEL N CONFIG STEPS [dense|sparse]
 *       STEPS steps of MODEL (chain | ladder) with parameter n = N; CONFIG = default (the
 *       library's default def), galpha (the default with method galpha) or spook ([L2]: eps 1e-8, tau/h 2); for callgrind
 *   hilstep-spbench hash MODEL N CONFIG STEPS    "trajectory-hash MODEL-nN CONFIG STEPS 0x..." as the
 *       board firmware (test/sparse/sp_fw.c) prints it, h = 1 ms
 *   hilstep-spbench ns MODEL N CONFIG            host ns/step, median of 7 runs, one process
 *   hilstep-spbench analysis MODEL N CONFIG      the step system's sizes and operation counts
 *   hilstep-spbench run MODEL N CONFIG H T EVERY   CSV series t, E, rms|g|, max|g| every EVERY
 *       steps (to stdout); last line "# status ..." with the run's summary
 *   hilstep-spbench meang MODEL N CONFIG H T     time average of the RMS |g| and of max |g|
 *
 * Exit status 1 when a step was refused or an argument is bad. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hs_hash.h"
#include "hs_models.h"
#include "hs_stepper.h"

typedef struct bsim {
    hs_model m;
    union { hs_real r[32]; double align; } p;
    hs_stepper s;
    hs_real *R;
    int *I;
} bsim;

static int start(bsim *x, const char *model, double n, const char *config, double h, hs_ls_kind kind)
{
    const hs_model_type *T = hs_model_find(model);
    if (!T) { fprintf(stderr, "unknown model %s\n", model); return HS_E_NULL; }
    int rc = hs_model_init(&x->m, T, &x->p);
    if (rc) return rc;
    if (n > 0) {
        rc = hs_model_set_param(&x->m, "n", (hs_real)n);
        if (rc) { fprintf(stderr, "n=%g: %s\n", n, hs_status_str(rc)); return rc; }
    }
    hs_stepper_def d = hs_stepper_default_def();
    d.h = (hs_real)h;
    /* the cost of the step, also past the default's range check at init (which refuses the
     * ladder, whose cells fold flat, and the long chains at this h) */
    d.max_h_omega = HS_R(0.0);
    d.alpha = (hs_real)(1.0 / h);
    d.beta = (hs_real)(1.0 / (h * h));
    if (!strcmp(config, "spook")) {
        d.method = HS_METHOD_SPOOK;
        d.form = HS_FORM_INDEX2;
        d.stab = HS_STAB_NONE;
    } else if (!strcmp(config, "galpha")) {
        d.method = HS_METHOD_GALPHA;
    } else if (strcmp(config, "default")) {
        fprintf(stderr, "unknown config %s (default | galpha | spook)\n", config);
        return HS_E_NULL;
    }
    d.linsys = kind;
    static int tmp[1 << 22];
    size_t nr = 0, ni = 0;
    rc = hs_stepper_workspace_tmp(&d, &x->m, tmp, sizeof tmp / sizeof tmp[0], &nr, &ni);
    if (rc) { fprintf(stderr, "workspace: %s\n", hs_status_str(rc)); return rc; }
    x->R = malloc(nr * sizeof *x->R);
    x->I = malloc(ni * sizeof *x->I);
    if (!x->R || !x->I) return HS_E_SIZE;
    rc = hs_stepper_init(&x->s, &d, &x->m, HS_R(0.0), x->R, nr, x->I, ni);
    if (rc) fprintf(stderr, "init: %s\n", hs_status_str(rc));
    return rc;
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_d(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* RMS and max of |g| of the committed state; E from the model's energy(). */
static int measure(bsim *x, hs_real *g, double *rms, double *mx, double *E)
{
    int rc = hs_stepper_residual(&x->s, g);
    if (rc) return rc;
    double s2 = 0.0, m = 0.0;
    for (int i = 0; i < x->s.nc; ++i) {
        const double a = g[i] < 0 ? -(double)g[i] : (double)g[i];
        s2 += a * a;
        m = a > m ? a : m;
    }
    *rms = x->s.nc ? __builtin_sqrt(s2 / x->s.nc) : 0.0;
    *mx = m;
    hs_real e = HS_R(0.0);
    if (x->m.type->energy) x->m.type->energy(&x->m, x->s.t, x->s.q, x->s.u, x->s.z, &e);
    *E = (double)e;
    return HS_OK;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: hilstep-spbench one|ns|analysis|run|meang MODEL N CONFIG ...\n");
        return 1;
    }
    const char *mode = argv[1], *model = argv[2], *config = argv[4];
    const double n = atof(argv[3]);
    bsim x;
    if (!strcmp(mode, "one") && argc >= 6) {
        hs_ls_kind kind = argc > 6 ? (!strcmp(argv[6], "dense") ? HS_LS_DENSE : HS_LS_SPARSE) : HS_LS_AUTO;
        if (start(&x, model, n, config, 1e-3, kind)) return 1;
        const long steps = atol(argv[5]);
        for (long k = 0; k < steps; ++k)
            if (hs_stepper_step(&x.s, NULL)) { fprintf(stderr, "step %ld refused\n", k); return 1; }
        return 0;
    }
    if (!strcmp(mode, "hash") && argc >= 6) {
        if (start(&x, model, n, config, 1e-3, HS_LS_AUTO)) return 1;
        const long steps = atol(argv[5]);
        uint64_t hash = HS_HASH_INIT;
        for (long k = 0; k < steps; ++k) {
            if (hs_stepper_step(&x.s, NULL)) { fprintf(stderr, "step %ld refused\n", k); return 1; }
            hash = hs_stepper_hash(&x.s, hash);
        }
        printf("trajectory-hash %s-n%g %s %ld 0x%016llx\n", model, n, config, steps, (unsigned long long)hash);
        return 0;
    }
    if (!strcmp(mode, "ns")) {
        if (start(&x, model, n, config, 1e-3, HS_LS_AUTO)) return 1;
        const int steps = 2000;
        double t[7];
        for (int r = 0; r < 7; ++r) {
            const double t0 = now_ns();
            for (int k = 0; k < steps; ++k)
                if (hs_stepper_step(&x.s, NULL)) { fprintf(stderr, "refused\n"); return 1; }
            t[r] = (now_ns() - t0) / steps;
        }
        qsort(t, 7, sizeof t[0], cmp_d);
        printf("%.1f\n", t[3]);
        return 0;
    }
    if (!strcmp(mode, "analysis")) {
        if (start(&x, model, n, config, 1e-3, HS_LS_AUTO)) return 1;
        const hs_linsys *L = &x.s.lsK;
        printf("model=%s n=%g config=%s nq=%d nc=%d backend=%s nnz=%d flops_factor=%ld flops_solve=%ld",
               model, n, config, x.s.nq, x.s.nc, L->kind == HS_LS_SPARSE ? L->be->name : "dense-lu",
               L->nnz, L->flops_factor, L->flops_solve);
        if (x.s.keep_p) printf(" proj_flops_factor=%ld", x.s.lsP.flops_factor);
        printf("\n");
        return 0;
    }
    if ((!strcmp(mode, "run") && argc >= 8) || (!strcmp(mode, "meang") && argc >= 7)) {
        const double h = atof(argv[5]), T = atof(argv[6]);
        const long every = !strcmp(mode, "run") ? atol(argv[7]) : 1;
        if (!(h > 0) || !(T > 0) || every < 1) { fprintf(stderr, "bad H/T/EVERY\n"); return 1; }
        if (start(&x, model, n, config, h, HS_LS_AUTO)) return 1;
        const long steps = (long)(T / h + 0.5);
        hs_real *g = malloc((size_t)(x.s.nc > 0 ? x.s.nc : 1) * sizeof *g);
        double rms, mx, E, E0;
        measure(&x, g, &rms, &mx, &E0);
        const int csv = !strcmp(mode, "run");
        if (csv) printf("t,E,rms_g,max_g\n%.9g,%.12g,%.6e,%.6e\n", 0.0, E0, rms, mx);
        double sum_rms = 0.0, max_g = 0.0, Emax = E0, Emin = E0;
        int rc = HS_OK;
        long k;
        for (k = 1; k <= steps; ++k) {
            rc = hs_stepper_step(&x.s, NULL);
            if (rc) break;
            measure(&x, g, &rms, &mx, &E);
            sum_rms += rms;
            max_g = mx > max_g ? mx : max_g;
            Emax = E > Emax ? E : Emax;
            Emin = E < Emin ? E : Emin;
            if (csv && k % every == 0) printf("%.9g,%.12g,%.6e,%.6e\n", (double)x.s.t, E, rms, mx);
        }
        printf("%sstatus=%s steps=%ld h=%.9g mean_rms_g=%.6e max_g=%.6e E0=%.9g Emin=%.9g Emax=%.9g Eend=%.9g\n",
               csv ? "# " : "", rc ? hs_status_str(rc) : "ok", k - 1, h, sum_rms / (double)(k > 1 ? k - 1 : 1),
               max_g, E0, Emin, Emax, E);
        return rc ? 1 : 0;
    }
    fprintf(stderr, "bad mode or arguments\n");
    return 1;
}
