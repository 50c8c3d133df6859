/* test_mb_fast.c - the planar fast evaluators (model/hs_mb_fast.c) against the general ones:
 * every shipped description, dense and in the layout hilstep-sim loads it with
 * (HS_MB_PACK_AUTO), at random states: g, G, g_t, gamma, K, f, fq, fu and M equal to 1e-12
 * (relative) with fast = 0; the twins of the hand-written models take every fast path. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hs_mb_file.h"
#include "mb_test.h"

#define NQ HS_MB_MAX_NQ
#define NC HS_MB_MAX_NC

static double rnd(void) { return (double)rand() / RAND_MAX - 0.5; }

typedef struct evals {
    hs_real g[NC], gt[NC], gam[NC], f[NQ];
    hs_real G[NC * NQ], K[NQ * NQ], fq[NQ * NQ], fu[NQ * NQ], M[NQ * NQ];
} evals;

static int eval_all(const hs_mb_model *mb, double t, const hs_real *q, const hs_real *u,
                    const hs_real *lam, evals *e)
{
    hs_model m;
    static const hs_real in[HS_MB_MAX_NIN] = {0};
    if (hs_mb_model_init(&m, mb)) return 1;
    const hs_model_type *T = &mb->type;
    int rc = T->mass(&m, (hs_real)t, q, e->M);
    rc |= T->force(&m, (hs_real)t, q, u, NULL, in, e->f);
    rc |= T->force_jac(&m, (hs_real)t, q, u, NULL, in, e->fq, e->fu);
    if (mb->nc > 0) {
        rc |= T->constraint(&m, (hs_real)t, q, e->g, e->G, e->gt);
        rc |= T->gamma(&m, (hs_real)t, q, u, e->gam);
        rc |= T->curvature(&m, (hs_real)t, q, lam, e->K);
    }
    return rc != 0;
}

static double diff(const hs_real *a, const hs_real *b, int n)
{
    double w = 0;
    for (int i = 0; i < n; ++i) {
        const double d = fabs((double)a[i] - (double)b[i]) / (1.0 + fabs((double)b[i]));
        if (!(d <= w)) w = d;
    }
    return w;
}

int mb_test_fast(const char *dir)
{
    static const char *const files[] = {"bead_wire", "bushing_pendulum", "car_axle", "cart_pendulum",
        "chain", "door", "double_spherical", "pendulum", "quarter_car", "rigid_body", "slider_crank",
        "slider_crank_singular"};
    static hs_mb_store st;
    static hs_mb_model mb, gen;
    static evals a, b;
    const int nf = (int)(sizeof files / sizeof files[0]);
    double worst = 0;
    int fails = 0, nfast = 0, twins_fast = 1;
    char path[512], what[300];
    srand(7);
    for (int i = 0; i < nf; ++i) {
        for (int pk = 0; pk < 2; ++pk) {
            snprintf(path, sizeof path, "%s/%s.hsm", dir, files[i]);
            if (hs_mb_load_file("hilstep-mbtest", path, &st, &mb, pk ? HS_MB_PACK_AUTO : 0)) { ++fails; continue; }
            const int full = HS_MB_FAST_ROWS | HS_MB_FAST_FORCES | HS_MB_FAST_MASS;
            if (pk == 1 && (!strcmp(files[i], "car_axle") || !strcmp(files[i], "pendulum") || !strcmp(files[i], "chain"))
                && mb.fast != full) {
                twins_fast = 0;
            }
            if (mb.fast == 0) continue;
            ++nfast;
            gen = mb;
            gen.fast = 0; /* the general evaluators on the same tables */
            for (int tr = 0; tr < 20; ++tr) {
                hs_real q[NQ], u[NQ], lam[NC];
                const double t = 0.3 + rnd();
                for (int k = 0; k < mb.nq; ++k) { q[k] = (hs_real)(0.2 + rnd()); u[k] = (hs_real)(2.0 * rnd()); }
                for (int k = 0; k < mb.nc; ++k) lam[k] = (hs_real)rnd();
                int bad = eval_all(&mb, t, q, u, lam, &a) | eval_all(&gen, t, q, u, lam, &b);
                const int nqq = mb.packed ? mb.qqsize : mb.nq * mb.nq, ncq = mb.packed ? mb.cqsize : mb.nc * mb.nq;
                double w = diff(a.M, b.M, nqq);
                double x;
                x = diff(a.f, b.f, mb.nq); if (x > w) w = x;
                x = diff(a.fq, b.fq, nqq); if (x > w) w = x;
                x = diff(a.fu, b.fu, nqq); if (x > w) w = x;
                if (mb.nc > 0) {
                    x = diff(a.g, b.g, mb.nc); if (x > w) w = x;
                    x = diff(a.gt, b.gt, mb.nc); if (x > w) w = x;
                    x = diff(a.gam, b.gam, mb.nc); if (x > w) w = x;
                    x = diff(a.G, b.G, ncq); if (x > w) w = x;
                    x = diff(a.K, b.K, nqq); if (x > w) w = x;
                }
                if (bad || !(w <= 1e-12)) {
                    if (fails < 5) printf("  %s packed=%d: fast vs general %.3g%s\n", files[i], mb.packed, w, bad ? " (an evaluation failed)" : "");
                    ++fails;
                }
                if (w > worst) worst = w;
            }
        }
    }
    snprintf(what, sizeof what, "planar fast evaluators = general ones (g, G, g_t, gamma, K, f, fq, fu, M; %d description layouts "
             "on the fast path, 20 random states each, dense and as loaded): worst %.2g <= 1e-12", nfast, worst);
    mb_check(fails == 0 && nfast >= 8, what);
    return mb_check(twins_fast, "car_axle.hsm, pendulum.hsm, chain.hsm take every fast path (rows, forces, mass)");
}
