/* ct_energy.c - build/hilstep-ctenergy: "the contact stage never adds energy" (issue 35).
 * Usage: hilstep-ctenergy H STEPS METHOD FILE.hsm...
 * For every description and every step: the state (t, q_n, u_n) is stepped twice, by the
 * description's stepper (the method, its projection, then the contact stage) and by a stepper
 * of the same type without unilateral rows (nk = 0: the same stages up to the contact stage,
 * nothing after it that moves q or u), set to the same state. The second gives (q~, u~), the
 * state the contact stage starts from; the first its result. The contact stage applies
 * impulses only, the applied forces did their work in the method's stages; but the stage also
 * moves positions (q_{n+1} = q~ + cq B lambda, model/CONTACT.md), and over that displacement
 * gravity (the scenes' only applied force, its potential part of E) does the work W = m g . dx
 * summed over the bodies. So the stage's check is
 *     dE = E(q_{n+1}, u_{n+1}) - E(q~, u~) <= |W| + tol,  tol = 1e-12 J + 1e-12 |E(q~, u~)|:
 * |W| because the method has already let gravity act over the step, and the stage's shift of q
 * by cq du undoes part of that (a resting box: the method lets it fall g h^2 / 2 and gain
 * m g^2 h^2 / 2 of kinetic energy, the stage stops it and lifts it back: dE = +W there); tol
 * is the rounding of E's sums (a few ulps of its terms, |E| up to 25 J: 2.5e-11 J), nothing a
 * real gain hides under (the crossed-edges launch was +77 J in one step). Prints per file the
 * worst margin dE - |W| - tol over the steps (<= 0 passes), its step, and the total dissipated.
 * Exit 0 when every file passes, 1 otherwise. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hs_mb_file.h"
#include "hs_stepper.h"

typedef struct erun {
    hs_model m;
    hs_stepper s;
    hs_real R[HS_STEPPER_REALS_CT(HS_MB_MAX_NQ, HS_MB_MAX_NC, HS_MB_MAX_NZ, HS_MB_MAX_CT)];
    int I[HS_STEPPER_INTS(HS_MB_MAX_NQ, HS_MB_MAX_NC) + 32768];
} erun;

static hs_mb_store st;
static hs_mb_model mb;
static hs_model_type T0;
static erun a, b;

static int energy(const hs_model *m, const hs_stepper *s, double *E)
{
    hs_real e = 0;
    const int rc = m->type->energy(m, s->t, s->q, s->u, s->z, &e);
    *E = (double)e;
    return rc == HS_OK && isfinite(*E);
}

static int one(const char *path, double h, int n, int meth)
{
    if (hs_mb_load_file("hilstep-ctenergy", path, &st, &mb, HS_MB_PACK_AUTO) != 0 || hs_mb_model_init(&a.m, &mb) != 0) {
        printf("FAIL %s: does not load\n", path);
        return 1;
    }
    if (a.m.type->nk <= 0 || a.m.type->energy == NULL) {
        printf("FAIL %s: no unilateral rows or no energy()\n", path);
        return 1;
    }
    T0 = mb.type;
    T0.nk = 0;
    T0.ct_rows = NULL;
    T0.unilateral = NULL;
    T0.ct_points = NULL;
    if (hs_model_init(&b.m, &T0, NULL) != 0) {
        printf("FAIL %s: the type without contacts does not init\n", path);
        return 1;
    }
    b.m.desc = &mb;
    hs_stepper_def d = hs_stepper_default_def();
    d.method = (hs_method)meth;
    d.h = (hs_real)h;
    d.alpha = (hs_real)(1.0 / h);
    d.beta = (hs_real)(1.0 / (h * h));
    if (hs_stepper_init(&a.s, &d, &a.m, 0, a.R, sizeof a.R / sizeof a.R[0], a.I, sizeof a.I / sizeof a.I[0]) != 0
        || hs_stepper_init(&b.s, &d, &b.m, 0, b.R, sizeof b.R / sizeof b.R[0], b.I, sizeof b.I / sizeof b.I[0]) != 0) {
        printf("FAIL %s: stepper init\n", path);
        return 1;
    }
    double worst = -INFINITY, lost = 0.0, Emax = 0.0;
    int kw = -1, k = 0, ok = 1;
    for (; ok && k < n; ++k) {
        double E1, E2;
        ok = hs_stepper_set_state(&b.s, a.s.t, a.s.q, a.s.u, a.s.z) == 0 && hs_stepper_step(&b.s, NULL) == 0
             && hs_stepper_step(&a.s, NULL) == 0 && energy(&b.m, &b.s, &E1) && energy(&a.m, &a.s, &E2);
        if (!ok) break;
        /* gravity's work over the stage's displacement q_{n+1} - q~ (constant generalized force) */
        double W = 0.0;
        for (int bd = 0; bd < mb.desc->nbodies; ++bd)
            for (int i = 0; i < mb.desc->dim; ++i)
                W += (double)(mb.desc->bodies[bd].mass * mb.desc->gravity[i])
                     * (double)(a.s.q[mb.qoff[bd] + i] - b.s.q[mb.qoff[bd] + i]);
        const double dE = E2 - E1, tol = fabs(W) + 1e-12 + 1e-12 * fabs(E1);
        if (dE - tol > worst) { worst = dE - tol; kw = k; }
        if (fabs(E1) > Emax) Emax = fabs(E1);
        lost -= dE;
    }
    const int pass = ok && k == n && worst <= 0.0;
    printf("%s %s, %s, %d steps of h = %g s: contact stage dE = E(after) - E(before) <= |W_gravity| + 1e-12 J + 1e-12 |E| "
           "(|E| <= %.3g J): worst margin %+.2e J (step %d), dissipated by the stage %.6g J in all\n",
           pass ? "ok  " : "FAIL", path, hs_method_name(d.method), k, h, Emax, worst, kw, lost);
    return pass ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: hilstep-ctenergy H STEPS METHOD FILE.hsm...\n");
        return 2;
    }
    const double h = atof(argv[1]);
    const int n = atoi(argv[2]);
    int meth = -1;
    for (int i = 0; i < HS_METHOD_COUNT; ++i)
        if (strcmp(hs_method_name((hs_method)i), argv[3]) == 0) meth = i;
    if (!(h > 0.0) || n < 1 || meth < 0) {
        fprintf(stderr, "hilstep-ctenergy: bad H, STEPS or METHOD '%s'\n", argv[3]);
        return 2;
    }
    int fails = 0;
    for (int i = 4; i < argc; ++i) fails += one(argv[i], h, n, meth);
    return fails ? 1 : 0;
}
