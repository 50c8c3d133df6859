/* bench.c - build/hilstep-bench: host cost and accuracy of every model x method.
 *   hilstep-bench table           median ns/step of 7 repeats in this process, per config
 *   hilstep-bench accuracy        car axle max position error over [0, 3] at h = 1 ms against
 *                                 a reference run at h = 1 us (semi-implicit Euler + projection)
 *   hilstep-bench stiff           car axle with stiffer springs at h = 1 ms: max |u| per method
 *   hilstep-bench one M METH STAB N   N steps of one config (for callgrind's instruction count) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hs_models.h"
#include "hs_stepper.h"

typedef struct sim {
    hs_model m;
    union { hs_real r[16]; double a; } p;
    hs_stepper s;
    hs_real R[HS_STEPPER_REALS(HS_MODELS_MAX_NQ, HS_MODELS_MAX_NC, HS_MODELS_MAX_NZ)];
    int I[HS_STEPPER_INTS(HS_MODELS_MAX_NQ, HS_MODELS_MAX_NC)];
} sim;

static int start(sim *x, const hs_model_type *T, hs_method me, hs_stab st, double h)
{
    hs_model_init(&x->m, T, &x->p);
    hs_stepper_def d = hs_stepper_default_def();
    d.method = me;
    d.form = HS_FORM_INDEX2;
    d.stab = T->nc ? st : HS_STAB_NONE;
    d.h = (hs_real)h;
    d.alpha = (hs_real)(1.0 / h);
    d.beta = d.alpha * d.alpha;
    return hs_stepper_init(&x->s, &d, &x->m, 0, x->R, sizeof x->R / sizeof x->R[0], x->I,
                           sizeof x->I / sizeof x->I[0]);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static const hs_stab STABS[] = {HS_STAB_NONE, HS_STAB_BAUMGARTE, HS_STAB_PROJECTION};

static void table(void)
{
    static sim x;
    hs_real in[4] = {0};
    printf("%-15s %-10s %-10s %10s %10s\n", "model", "method", "stab", "ns/step", "rel_j2");
    for (int mi = 0; hs_model_registry[mi]; ++mi) {
        const hs_model_type *T = hs_model_registry[mi];
        if (T->dims) continue; /* sized by a parameter (chain, ladder): not in these fixed arenas */
        for (int si = 0; si < 3; ++si) {
            if (T->nc == 0 && si > 0) continue;
            double base = 0;
            double res[HS_METHOD_COUNT];
            for (int me = 0; me < HS_METHOD_COUNT; ++me) {
                double r[7];
                int refused = 0;
                for (int rep = 0; rep < 7; ++rep) {
                    refused = start(&x, T, (hs_method)me, STABS[si], 1e-3) != HS_OK;
                    if (refused) { r[rep] = (double)NAN; continue; } /* e.g. galpha with Baumgarte */
                    double t0 = now();
                    for (int k = 0; k < 2000; ++k) hs_stepper_step(&x.s, in);
                    r[rep] = (now() - t0) / 2000.0;
                }
                qsort(r, 7, sizeof r[0], cmp);
                res[me] = refused ? (double)NAN : r[3];
                if (me == HS_METHOD_J2) base = r[3];
            }
            for (int me = 0; me < HS_METHOD_COUNT; ++me)
                printf("%-15s %-10s %-10s %10.1f %10.2f\n", T->name, hs_method_name((hs_method)me),
                       hs_stab_name(STABS[si]), res[me], res[me] / base);
        }
    }
}

static void accuracy(void)
{
    static sim ref, x;
    enum { N = 3000, SUB = 1000 };
    static double qref[N + 1][4];
    start(&ref, &hs_car_axle_type, HS_METHOD_SYMPLECTIC, HS_STAB_PROJECTION, 1e-3 / SUB);
    for (int i = 0; i < 4; ++i) qref[0][i] = (double)ref.s.q[i];
    for (int k = 1; k <= N; ++k) {
        for (int j = 0; j < SUB; ++j) hs_stepper_step(&ref.s, 0);
        for (int i = 0; i < 4; ++i) qref[k][i] = (double)ref.s.q[i];
    }
    double eref = 0;
    for (int i = 0; i < 4; ++i) eref = fmax(eref, fabs(qref[N][i] - hs_car_axle_ref_t3[i]));
    printf("reference: semi-implicit Euler + projection at h = 1 us; its error at t = 3 against "
           "the published solution: %.2e\n", eref);
    printf("%-10s %-10s %14s %14s %12s\n", "method", "stab", "max_err_q", "err_q_t3", "max_abs_g");
    for (int me = 0; me < HS_METHOD_COUNT; ++me)
        for (int si = 0; si < 3; ++si) {
            if (start(&x, &hs_car_axle_type, (hs_method)me, STABS[si], 1e-3) != HS_OK) continue;
            double e = 0, et = 0, mg = 0;
            int rc = 0;
            for (int k = 1; k <= N && !rc; ++k) {
                rc = hs_stepper_step(&x.s, 0);
                hs_real g[2];
                hs_stepper_residual(&x.s, g);
                mg = fmax(mg, fmax(fabs((double)g[0]), fabs((double)g[1])));
                for (int i = 0; i < 4; ++i) e = fmax(e, fabs((double)x.s.q[i] - qref[k][i]));
            }
            for (int i = 0; i < 4; ++i) et = fmax(et, fabs((double)x.s.q[i] - hs_car_axle_ref_t3[i]));
            printf("%-10s %-10s %14.3e %14.3e %12.3e%s\n", hs_method_name((hs_method)me),
                   hs_stab_name(STABS[si]), e, et, mg, rc ? "  (refused a step)" : "");
        }
}

/* Stiffness sweep: the car axle with smaller eps (K = M eps^2/2, spring omega = 1/sqrt(K)) at
 * h = 1 ms; which methods stay bounded (max |u| over [0, 3]) as h omega passes 2. */
static void stiff(void)
{
    static sim x;
    const double eps[] = {1e-2, 1e-3, 3e-4, 2e-4, 1e-4, 3e-5};
    printf("%-8s %-8s", "eps", "h*omega");
    for (int me = 0; me < HS_METHOD_COUNT; ++me) printf(" %11s", hs_method_name((hs_method)me));
    printf("\n");
    for (unsigned i = 0; i < sizeof eps / sizeof eps[0]; ++i) {
        printf("%-8g %-8.3f", eps[i], 1e-3 / sqrt(10.0 * eps[i] * eps[i] / 2.0));
        for (int me = 0; me < HS_METHOD_COUNT; ++me) {
            hs_model_init(&x.m, &hs_car_axle_type, &x.p);
            hs_model_set_param(&x.m, "eps", (hs_real)eps[i]);
            hs_stepper_def d = hs_stepper_default_def();
            d.method = (hs_method)me;
            int rc = hs_stepper_init(&x.s, &d, &x.m, 0, x.R, sizeof x.R / sizeof x.R[0], x.I,
                                     sizeof x.I / sizeof x.I[0]);
            double mu = 0;
            for (int k = 0; k < 3000 && !rc; ++k) {
                rc = hs_stepper_step(&x.s, 0);
                for (int j = 0; j < 4; ++j) mu = fmax(mu, fabs((double)x.s.u[j]));
            }
            if (rc || mu > 1e3) printf(" %11s", "diverged");
            else printf(" %11.3f", mu);
        }
        printf("\n");
    }
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "table")) { table(); return 0; }
    if (argc >= 2 && !strcmp(argv[1], "accuracy")) { accuracy(); return 0; }
    if (argc >= 2 && !strcmp(argv[1], "stiff")) { stiff(); return 0; }
    if (argc == 6 && !strcmp(argv[1], "one")) {
        static sim x;
        const hs_model_type *T = hs_model_find(argv[2]);
        int me = -1, st = -1;
        for (int k = 0; k < HS_METHOD_COUNT; ++k) if (!strcmp(argv[3], hs_method_name((hs_method)k))) me = k;
        for (int k = 0; k < 3; ++k) if (!strcmp(argv[4], hs_stab_name(STABS[k]))) st = k;
        long n = atol(argv[5]);
        if (!T || me < 0 || st < 0 || n < 0) { fprintf(stderr, "hilstep-bench: bad arguments\n"); return 2; }
        if (start(&x, T, (hs_method)me, STABS[st], 1e-3)) return 1;
        hs_real in[4] = {0};
        for (long k = 0; k < n; ++k) hs_stepper_step(&x.s, in);
        return 0;
    }
    fprintf(stderr, "usage: hilstep-bench table | accuracy | stiff | one MODEL METHOD STAB N\n");
    return 2;
}
