/* peers_ida.c - `hilstep-peers --car-axle`: the car axle (model/models/car_axle.c, the same model
 * functions) in hilstep's default method and in SUNDIALS IDA 6.4 (Debian
 * libsundials-dev: variable-order BDF, dense direct solver, difference Jacobian) at EQUAL
 * maximum position error over [0, 3], and the CPU time of each in the same process.
 *
 * IDA integrates the index-1 (acceleration-level) form of the model, 10 unknowns (q, u, lambda):
 *     q' = u,   M u' = f + G^T lambda,   0 = G u' + gamma
 * (IDA is built for index 1; its index-2 and GGL forms failed in the corrector at the first
 * step here), with lambda algebraic (excluded from the error test, IDASetSuppressAlg), the
 * consistent initial values from IDACalcIC, output every 1 ms (IDA_NORMAL: it steps past and
 * interpolates, as a HIL frame would read it).
 * Reference: IDA itself at rtol = atol = 1e-11, checked against the published solution at
 * t = 3 (hs_car_axle_ref_t3). Error = max over the 1-ms grid of max_i |q_i - q_ref,i|.
 * IDA's tolerance: the loosest of 1e-3, 5e-4, ... 1e-7 whose error is <= the bar (1e-4), the bar
 * hilstep's step: the fewest steps of 3000, 3200, ... 6000 over [0, 3] that meet it. CPU: CLOCK_PROCESS_CPUTIME_ID, each whole run (init and
 * 3000 outputs), median of 7, the two solvers interleaved.
 * Lines printed (the README's figures come from them):
 *   car-axle error hilstep <err> ida <err> (ida rtol=atol=<tol>, bar 1e-4)
 *   car-axle cpu-us hilstep <us> ida <us> ratio <hilstep/ida>
 * Not on the test harness (test/unit/hs_test.h): a benchmark printing the README's figures; its
 * one verdict (both solvers reach the bar) is its exit status. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include "hs_models.h"
#include "hs_stepper.h"

int hs_peers_car_axle(const char *mode);

#define CA_T 3.0
#define CA_H 1e-3
#define CA_NOUT 3000
#define CA_BAR 1e-4

typedef struct ca {
    hs_model m;
    hs_car_axle_params p;
} ca;

static void ca_init(ca *c)
{
    hs_model_init(&c->m, &hs_car_axle_type, &c->p);
}

/* ---- hilstep: default method, h = 3 s / nstep; q at every step into out (nstep x 4) or NULL ---- */
static int run_hilstep(int nstep, double *out)
{
    static ca c;
    static hs_stepper s;
    static hs_real R[HS_STEPPER_REALS(4, 2, 0)];
    static int I[HS_STEPPER_INTS(4, 2)];
    ca_init(&c);
    hs_stepper_def d = hs_stepper_default_def();
    d.h = (hs_real)(CA_T / nstep);
    if (hs_stepper_init(&s, &d, &c.m, 0, R, sizeof R / sizeof R[0], I, sizeof I / sizeof I[0])) return 1;
    for (int k = 0; k < nstep; ++k) {
        if (hs_stepper_step(&s, NULL)) return 1;
        if (out)
            for (int i = 0; i < 4; ++i) out[4 * k + i] = (double)s.q[i];
    }
    return 0;
}

/* ---- IDA on the GGL form ---- */
typedef struct ida_ud {
    ca c;
} ida_ud;

static int ca_res(realtype t, N_Vector yy, N_Vector yp, N_Vector rr, void *ud)
{
    const hs_model *m = &((ida_ud *)ud)->c.m;
    const double *y = N_VGetArrayPointer(yy), *d = N_VGetArrayPointer(yp);
    double *r = N_VGetArrayPointer(rr);
    const double *q = y, *u = y + 4, *lam = y + 8;
    hs_real M[16], f[4], G[8], gam[2];
    if (m->type->mass(m, t, q, M) || m->type->force(m, t, q, u, NULL, NULL, f)
        || m->type->constraint(m, t, q, NULL, G, NULL) || m->type->gamma(m, t, q, u, gam))
        return 1;
    for (int i = 0; i < 4; ++i) {
        double a = 0, gl = 0;
        for (int j = 0; j < 4; ++j) a += M[4 * i + j] * d[4 + j];
        for (int k = 0; k < 2; ++k) gl += G[4 * k + i] * lam[k];
        r[i] = d[i] - u[i];
        r[4 + i] = a - f[i] - gl;
    }
    for (int k = 0; k < 2; ++k) {
        double ga = gam[k];
        for (int j = 0; j < 4; ++j) ga += G[4 * k + j] * d[4 + j];
        r[8 + k] = ga;
    }
    return 0;
}

/* One IDA run at rtol = atol = tol from the model's initial state to t = 3; q at each of the
 * nout outputs every 3 s / nout into out (or NULL). Returns 0, or 1 when IDA failed. */
static int run_ida(double tol, int nout, double *out, long *nsteps)
{
    static ida_ud ud;
    ca_init(&ud.c);
    SUNContext ctx;
    if (SUNContext_Create(NULL, &ctx)) return 1;
    N_Vector yy = N_VNew_Serial(10, ctx), yp = N_VNew_Serial(10, ctx), id = N_VNew_Serial(10, ctx);
    double *y = N_VGetArrayPointer(yy), *d = N_VGetArrayPointer(yp), *iv = N_VGetArrayPointer(id);
    hs_real q0[4], u0[4];
    hs_car_axle_type.initial(&ud.c.m, 0, q0, u0, NULL);
    for (int i = 0; i < 10; ++i) { y[i] = 0; d[i] = 0; iv[i] = i < 8 ? 1.0 : 0.0; }
    for (int i = 0; i < 4; ++i) { y[i] = q0[i]; y[4 + i] = u0[i]; d[i] = u0[i]; }
    void *mem = IDACreate(ctx);
    SUNMatrix A = SUNDenseMatrix(10, 10, ctx);
    SUNLinearSolver LS = SUNLinSol_Dense(yy, A, ctx);
    int rc = !mem || !A || !LS || IDAInit(mem, ca_res, 0.0, yy, yp) || IDASetUserData(mem, &ud)
             || IDASStolerances(mem, tol, tol) || IDASetLinearSolver(mem, LS, A) || IDASetId(mem, id)
             || IDASetSuppressAlg(mem, SUNTRUE) || IDASetMaxNumSteps(mem, 1000000)
             || IDASetStopTime(mem, CA_T) || IDACalcIC(mem, IDA_YA_YDP_INIT, CA_H);
    if (!rc) rc = IDAGetConsistentIC(mem, yy, yp) != 0;
    for (int k = 0; k < nout && !rc; ++k) {
        realtype tret;
        const int f = IDASolve(mem, (realtype)(k + 1) * (CA_T / nout), &tret, yy, yp, IDA_NORMAL);
        if (f < 0) rc = 1;
        else if (out)
            for (int i = 0; i < 4; ++i) out[4 * k + i] = y[i];
    }
    if (!rc && nsteps) IDAGetNumSteps(mem, nsteps);
    IDAFree(&mem);
    SUNLinSolFree(LS);
    SUNMatDestroy(A);
    N_VDestroy(yy); N_VDestroy(yp); N_VDestroy(id);
    SUNContext_Free(&ctx);
    return rc;
}

static double max_err(const double *a, const double *b, int nout)
{
    double e = 0;
    for (int k = 0; k < 4 * nout; ++k) e = fmax(e, fabs(a[k] - b[k]));
    return e;
}

static double cpu_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* mode "ir-hilstep=N" / "ir-ida=TOL": one run of one solver, for callgrind; NULL: the comparison */
int hs_peers_car_axle(const char *mode)
{
    if (mode && !strncmp(mode, "ir-hilstep=", 11)) return run_hilstep(atoi(mode + 11), NULL);
    if (mode && !strncmp(mode, "ir-ida=", 7)) return run_ida(atof(mode + 7), CA_NOUT, NULL, NULL);
    /* hilstep's step counts tried (h = 3 s / N): the fewest whose error meets the bar */
    static const int steps[] = {3000, 3200, 3400, 3600, 4000, 4500, 5000, 6000};
    enum { NMAX = 6000 };
    static double ref[4 * NMAX], hs[4 * NMAX], ida[4 * NMAX];
    if (run_ida(1e-11, CA_NOUT, ref, NULL)) { fprintf(stderr, "hilstep-peers: IDA reference run failed\n"); return 1; }
    double eref = 0;
    for (int i = 0; i < 4; ++i) eref = fmax(eref, fabs(ref[4 * (CA_NOUT - 1) + i] - hs_car_axle_ref_t3[i]));
    printf("car axle over [0, %g]: reference IDA rtol = atol = 1e-11, |q(3) - published| = %.2e; "
           "error = max over the outputs of max_i |q_i - q_ref,i|, bar %g\n", CA_T, eref, CA_BAR);
    int nhs = -1;
    double ehs = -1;
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; ++i) {
        static double rf[4 * NMAX];
        if (run_hilstep(steps[i], hs) || run_ida(1e-11, steps[i], rf, NULL)) continue;
        const double e = max_err(hs, rf, steps[i]);
        printf("  hilstep default h = 3/%d s: max position error %.2e\n", steps[i], e);
        if (e <= CA_BAR) { nhs = steps[i]; ehs = e; break; }
    }
    static const double tols[] = {1e-3, 5e-4, 2e-4, 1e-4, 5e-5, 2e-5, 1e-5, 7e-6, 5e-6, 4e-6, 3e-6, 2e-6, 1e-6, 3e-7, 1e-7};
    double tol = -1, eida = -1;
    long nst = 0;
    for (size_t i = 0; i < sizeof tols / sizeof tols[0]; ++i) {
        if (run_ida(tols[i], CA_NOUT, ida, &nst)) continue;
        const double e = max_err(ida, ref, CA_NOUT);
        printf("  ida rtol = atol = %-6g (output every %g s): max position error %.2e, %ld steps\n", tols[i],
               CA_H, e, nst);
        if (e <= CA_BAR) { tol = tols[i]; eida = e; break; }
    }
    if (tol < 0 || nhs < 0) { fprintf(stderr, "hilstep-peers: a solver did not reach the bar\n"); return 1; }
    printf("car-axle error hilstep %.2e (h = 3/%d s) ida %.2e (rtol=atol=%g, %ld steps); bar %g\n", ehs, nhs, eida,
           tol, nst, CA_BAR);
    double th[7], ti[7];
    for (int r = 0; r < 7; ++r) {
        double t0 = cpu_us();
        if (run_hilstep(nhs, NULL)) return 1;
        th[r] = cpu_us() - t0;
        t0 = cpu_us();
        if (run_ida(tol, CA_NOUT, NULL, NULL)) return 1;
        ti[r] = cpu_us() - t0;
    }
    qsort(th, 7, sizeof th[0], cmpd);
    qsort(ti, 7, sizeof ti[0], cmpd);
    printf("car-axle cpu-us hilstep %.0f ida %.0f ratio %.2f (median of 7, interleaved, same process)\n", th[3],
           ti[3], th[3] / ti[3]);
    return 0;
}
