/* test_mb_fast.c - the planar fast evaluators (model/mb/hs_mb_fast.c) against the general ones:
 * every shipped description, dense and in the layout hilstep-sim loads it with
 * (HS_MB_PACK_AUTO), at random states: g, G, g_t, gamma, K, f, fq, fu and M equal to 1e-12
 * (relative) with fast = 0; the twins of the hand-written models take every fast path. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hs_mb_file.h"
#include "mb_test.h"

/* the shipped descriptions' sizes: within the boards' capacities (port/cortex-m/cortex-m.mk); the
 * host's HS_MB_MAX_NQ, HS_MB_MAX_NC (512) would put megabytes of these arrays on the stack */
#define NQ 96
#define NC 96

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

static int bitwise_sym(const hs_mb_model *mb, const hs_real *A)
{
    /* entry (i, j) of a packed or dense nq x nq matrix against (j, i) */
    for (int bi = 0; bi < mb->nb; ++bi) {
        for (int bj = 0; bj < mb->nb; ++bj) {
            const int o1 = mb->packed ? mb->qqoff[bi][bj] : mb->qoff[bi] * mb->nq + mb->qoff[bj];
            const int o2 = mb->packed ? mb->qqoff[bj][bi] : mb->qoff[bj] * mb->nq + mb->qoff[bi];
            const int s1 = mb->packed ? mb->bnq[bj] : mb->nq, s2 = mb->packed ? mb->bnq[bi] : mb->nq;
            if ((o1 < 0) != (o2 < 0)) return 0;
            if (o1 < 0) continue;
            for (int i = 0; i < mb->bnq[bi]; ++i)
                for (int j = 0; j < mb->bnq[bj]; ++j)
                    if (memcmp(&A[o1 + i * s1 + j], &A[o2 + j * s2 + i], sizeof(hs_real)) != 0) return 0;
        }
    }
    return 1;
}

/* The hooks the fast path adds (constraint_all, masks, symmetric_jac) against the separate
 * evaluations e at one state: 0 when they hold, 1 (and a line) when not. */
static int check_hooks(const hs_mb_model *mb, double t, const hs_real *q, const hs_real *u, const hs_real *lam,
                       const evals *e, const char *name)
{
    static hs_real G[NC * NQ], gam[NC], K[NQ * NQ];
    static int qm[NQ * NQ + 1], cm[NC * NQ + 1];
    hs_model m;
    if (hs_mb_model_init(&m, mb)) return 1;
    const int nqq = mb->packed ? mb->qqsize : mb->nq * mb->nq, ncq = mb->packed ? mb->cqsize : mb->nc * mb->nq;
    const char *bad = NULL;
    if (mb->type.constraint_all != NULL) {
        if (mb->type.constraint_all(&m, (hs_real)t, q, u, lam, G, gam, K) != HS_OK) bad = "constraint_all failed";
        else if (memcmp(G, e->G, sizeof(hs_real) * ncq) || memcmp(gam, e->gam, sizeof(hs_real) * mb->nc)
                 || memcmp(K, e->K, sizeof(hs_real) * nqq))
            bad = "constraint_all differs from constraint, gamma, curvature";
    }
    if (bad == NULL && mb->type.masks != NULL) {
        for (int i = 0; i < nqq; ++i) qm[i] = 1;
        for (int i = 0; i < ncq; ++i) cm[i] = 1;
        if (mb->type.masks(&m, qm, mb->nc ? cm : NULL) != HS_OK) bad = "masks failed";
        for (int i = 0; bad == NULL && i < nqq; ++i)
            if (!qm[i] && (e->M[i] != 0 || e->fq[i] != 0 || e->fu[i] != 0 || (mb->nc && e->K[i] != 0)))
                bad = "a masked M, fq, fu or K entry is not zero";
        for (int i = 0; bad == NULL && i < ncq && mb->nc; ++i)
            if (!cm[i] && e->G[i] != 0) bad = "a masked G entry is not zero";
    }
    if (bad == NULL && mb->type.symmetric_jac != 0
        && (!bitwise_sym(mb, e->fq) || !bitwise_sym(mb, e->fu) || (mb->nc && !bitwise_sym(mb, e->K))))
        bad = "symmetric_jac but fq, fu or K not bitwise symmetric";
    if (bad != NULL) printf("  %s packed=%d: %s\n", name, mb->packed, bad);
    return bad != NULL;
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
    int fails = 0, nfast = 0, twins_fast = 1, hooks_fails = 0, nhooks = 0, nplan = 0;
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
            if (pk == 1 && (!strcmp(files[i], "car_axle") || !strcmp(files[i], "pendulum") || !strcmp(files[i], "chain"))
                && (mb.type.constraint_all == NULL || mb.type.masks == NULL || mb.type.symmetric_jac != 1
                    || mb.plan != 1 || !hs_mb_plan_hooked(&mb))) {
                twins_fast = 0;
            }
            nplan += mb.plan;
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
                if (mb.plan != 0) {
                    /* the fast path under the plan (plan off) against the general one too */
                    static hs_mb_model fast;
                    static evals c;
                    fast = mb;
                    fast.plan = 0;
                    bad |= eval_all(&fast, t, q, u, lam, &c);
                    const int nqq2 = mb.packed ? mb.qqsize : mb.nq * mb.nq, ncq2 = mb.packed ? mb.cqsize : mb.nc * mb.nq;
                    double y = diff(c.M, b.M, nqq2);
                    double z2;
                    z2 = diff(c.f, b.f, mb.nq); if (z2 > y) y = z2;
                    z2 = diff(c.fq, b.fq, nqq2); if (z2 > y) y = z2;
                    z2 = diff(c.fu, b.fu, nqq2); if (z2 > y) y = z2;
                    if (mb.nc > 0) {
                        z2 = diff(c.g, b.g, mb.nc); if (z2 > y) y = z2;
                        z2 = diff(c.gt, b.gt, mb.nc); if (z2 > y) y = z2;
                        z2 = diff(c.gam, b.gam, mb.nc); if (z2 > y) y = z2;
                        z2 = diff(c.G, b.G, ncq2); if (z2 > y) y = z2;
                        z2 = diff(c.K, b.K, nqq2); if (z2 > y) y = z2;
                    }
                    if (!(y <= 1e-12)) {
                        if (fails < 5) printf("  %s packed=%d: fast (plan off) vs general %.3g\n", files[i], mb.packed, y);
                        ++fails;
                    }
                    if (y > worst) worst = y;
                }
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
                hooks_fails += check_hooks(&mb, t, q, u, lam, &a, files[i]);
            }
            ++nhooks;
        }
    }
    mb_check(hooks_fails == 0 && nhooks >= 8, "fast path's hooks: constraint_all = constraint, gamma, curvature bitwise; "
             "every entry its masks call zero is 0.0 at every state; fq, fu, K bitwise symmetric where symmetric_jac says so");
    snprintf(what, sizeof what, "planar fast evaluators = general ones (g, G, g_t, gamma, K, f, fq, fu, M; %d description layouts "
             "on the fast path, 20 random states each, dense and as loaded): worst %.2g <= 1e-12", nfast, worst);
    mb_check(fails == 0 && nfast >= 8, what);
    snprintf(what, sizeof what, "compiled plans (model/mb/hs_mb_plan.c) = general evaluators and = the fast path they replace "
             "(%d description layouts with a plan)", nplan);
    mb_check(nplan >= 6, what);
    return mb_check(twins_fast, "car_axle.hsm, pendulum.hsm, chain.hsm take every fast path (rows, forces, mass) "
                    "with constraint_all, masks and symmetric_jac, and their compiled plan as the hooks");
}
