/* test_mb_deriv.c - every element's analytic derivatives against central finite differences
 * at random states: G = dg/dq, g_t = dg/dt, gamma = d/dt (G u + g_t) at u' = 0, the curvature
 * K = d(G^T lambda)/dq, fq = df/dq, fu = df/du; the quaternion body's velocity terms against
 * its Lagrangian (-M' u + dT/dq); the packed block storage against the dense one. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hs_mb.h"
#include "mb_fixtures.h"
#include "mb_test.h"
/* Random inputs drawn per trial: 16, as when HS_MB_MAX_NIN was 16 (no test description has more),
 * so that a larger capacity leaves every trial's state - one random stream - as it was. */
#define IN_DRAWS 16

static unsigned long long rs = 88172645463325252ULL;
static double rnd(void)
{
    rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17;
    return (double)(rs >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

#define NQ HS_MB_MAX_NQ
#define NC HS_MB_MAX_NC
static double worst;
static void cmp(const char *what, const char *model, double a, double fd, double tol, int *bad)
{
    double e = fabs(a - fd) / (1.0 + fabs(fd));
    if (e > worst) worst = e;
    if (!(e <= tol)) {
        if (*bad < 5) printf("  %s %s: analytic %.12g fd %.12g\n", model, what, a, fd);
        ++*bad;
    }
}

/* Inputs every trial reads instead of random ones when not NULL (elements whose inputs have a
 * domain: an engine's pedal in [0, 1], a gearbox's gear). */
static const hs_real *g_fixed_in;

static int deriv_model(const hs_mb_desc *D, int trials)
{
    static hs_mb_model mb, mbp;
    hs_model m, mp;
    int bad = 0;
    hs_error ce;
    if (hs_mb_compile(D, &mb, 0, &ce) || hs_mb_compile(D, &mbp, 1, &ce)) {
        printf("  %s: compile failed at %s %d: %s\n", D->name, ce.field, ce.index, ce.msg);
        return 1;
    }
    hs_mb_model_init(&m, &mb);
    hs_mb_model_init(&mp, &mbp);
    const hs_model_type *T = &mb.type;
    const int nq = mb.nq, nc = mb.nc;
    static hs_real G[NC * NQ], Gp[NC * NQ], K[NQ * NQ], fq[NQ * NQ], fu[NQ * NQ];
    static hs_real Mp[NQ * NQ], Kp[NQ * NQ], fqp[NQ * NQ], fup[NQ * NQ], M[NQ * NQ];
    for (int tr = 0; tr < trials; ++tr) {
        double t;
        hs_real q[NQ], u[NQ], in[HS_MB_MAX_NIN], lam[NC], g[NC], gt[NC], gam[NC], f[NQ];
        t = 0.5 + rnd();
        for (int i = 0; i < nq; ++i) { q[i] = (hs_real)rnd(); u[i] = (hs_real)(2.0 * rnd()); }
        for (int i = 0; i < HS_MB_MAX_NIN; ++i) in[i] = (i < IN_DRAWS) ? (hs_real)(3.0 * rnd()) : 0;
        if (g_fixed_in) memcpy(in, g_fixed_in, sizeof in);
        for (int i = 0; i < nc; ++i) lam[i] = (hs_real)rnd();
        T->constraint(&m, (hs_real)t, q, g, G, gt);
        T->gamma(&m, (hs_real)t, q, u, gam);
        T->curvature(&m, (hs_real)t, q, lam, K);
        T->force(&m, (hs_real)t, q, u, NULL, in, f);
        T->force_jac(&m, (hs_real)t, q, u, NULL, in, fq, fu);
        const double e = 1e-6;
        for (int j = 0; j < nq; ++j) {
            hs_real qp[NQ], qm[NQ], gp[NC], gm[NC], Gpp[NC * NQ], Gmm[NC * NQ], fp[NQ], fm[NQ];
            memcpy(qp, q, sizeof q); memcpy(qm, q, sizeof q);
            qp[j] += e; qm[j] -= e;
            T->constraint(&m, (hs_real)t, qp, gp, Gpp, NULL);
            T->constraint(&m, (hs_real)t, qm, gm, Gmm, NULL);
            for (int i = 0; i < nc; ++i) cmp("G", D->name, G[i * nq + j], (gp[i] - gm[i]) / (2 * e), 1e-6, &bad);
            for (int i = 0; i < nq; ++i) { /* K(i, j) = d/dq_j (G^T lam)_i */
                double a = 0, b = 0;
                for (int r = 0; r < nc; ++r) { a += Gpp[r * nq + i] * lam[r]; b += Gmm[r * nq + i] * lam[r]; }
                cmp("K", D->name, K[i * nq + j], (a - b) / (2 * e), 1e-6, &bad);
            }
            T->force(&m, (hs_real)t, qp, u, NULL, in, fp);
            T->force(&m, (hs_real)t, qm, u, NULL, in, fm);
            for (int i = 0; i < nq; ++i) cmp("fq", D->name, fq[i * nq + j], (fp[i] - fm[i]) / (2 * e), 1e-6, &bad);
            hs_real up[NQ], um[NQ];
            memcpy(up, u, sizeof u); memcpy(um, u, sizeof u);
            up[j] += e; um[j] -= e;
            T->force(&m, (hs_real)t, q, up, NULL, in, fp);
            T->force(&m, (hs_real)t, q, um, NULL, in, fm);
            for (int i = 0; i < nq; ++i) cmp("fu", D->name, fu[i * nq + j], (fp[i] - fm[i]) / (2 * e), 1e-6, &bad);
        }
        { /* g_t and gamma along (t + s, q + s u) */
            hs_real gp[NC], gm[NC], hp[NC], hm[NC], qp[NQ], qm[NQ], gtp[NC], gtm[NC];
            T->constraint(&m, (hs_real)(t + e), q, gp, NULL, NULL);
            T->constraint(&m, (hs_real)(t - e), q, gm, NULL, NULL);
            for (int i = 0; i < nc; ++i) cmp("g_t", D->name, gt[i], (gp[i] - gm[i]) / (2 * e), 1e-6, &bad);
            for (int i = 0; i < nq; ++i) { qp[i] = q[i] + (hs_real)e * u[i]; qm[i] = q[i] - (hs_real)e * u[i]; }
            T->constraint(&m, (hs_real)(t + e), qp, NULL, Gp, gtp);
            for (int i = 0; i < nc; ++i) { hp[i] = gtp[i]; for (int j = 0; j < nq; ++j) hp[i] += Gp[i * nq + j] * u[j]; }
            T->constraint(&m, (hs_real)(t - e), qm, NULL, Gp, gtm);
            for (int i = 0; i < nc; ++i) { hm[i] = gtm[i]; for (int j = 0; j < nq; ++j) hm[i] += Gp[i * nq + j] * u[j]; }
            for (int i = 0; i < nc; ++i) cmp("gamma", D->name, gam[i], (hp[i] - hm[i]) / (2 * e), 1e-6, &bad);
        }
        /* packed storage: the same numbers at the declared blocks, nothing outside them */
        T->mass(&m, (hs_real)t, q, M);
        mbp.type.mass(&mp, (hs_real)t, q, Mp);
        mbp.type.constraint(&mp, (hs_real)t, q, NULL, Gp, NULL);
        mbp.type.curvature(&mp, (hs_real)t, q, lam, Kp);
        mbp.type.force_jac(&mp, (hs_real)t, q, u, NULL, in, fqp, fup);
        hs_blocks b;
        int buf[8];
        mbp.type.blocks(&mp, &b, buf, 8);
        const hs_real *dense[4] = {M, K, fq, fu}, *pk[4] = {Mp, Kp, fqp, fup};
        for (int w = 0; w < 4; ++w) {
            static char mask[NQ * NQ];
            memset(mask, 0, sizeof mask);
            int off = 0, outside = 0;
            for (int k = 0; k < b.nqq; ++k) {
                const int bi = b.qq[2 * k], bj = b.qq[2 * k + 1];
                for (int i = b.qb[bi]; i < b.qb[bi + 1]; ++i)
                    for (int j = b.qb[bj]; j < b.qb[bj + 1]; ++j) {
                        if (pk[w][off++] != dense[w][i * nq + j]) ++bad;
                        mask[i * nq + j] = 1;
                    }
            }
            for (int i = 0; i < nq * nq; ++i) outside += !mask[i] && dense[w][i] != 0;
            if (outside) { printf("  %s: matrix %d has entries outside its blocks\n", D->name, w); ++bad; }
        }
        {
            static char mask[NC * NQ];
            memset(mask, 0, sizeof mask);
            int off = 0, outside = 0;
            for (int k = 0; k < b.ncq; ++k) {
                const int ci = b.cq[2 * k], bj = b.cq[2 * k + 1];
                for (int i = b.cb[ci]; i < b.cb[ci + 1]; ++i)
                    for (int j = b.qb[bj]; j < b.qb[bj + 1]; ++j) {
                        if (Gp[off++] != G[i * nq + j]) ++bad;
                        mask[i * nq + j] = 1;
                    }
            }
            for (int i = 0; i < nc * nq; ++i) outside += !mask[i] && G[i] != 0;
            if (outside) { printf("  %s: G has entries outside its blocks\n", D->name); ++bad; }
        }
    }
    return bad;
}

/* The quaternion body's f against its Lagrangian T = 1/2 u^T M(q) u (no other forces):
 * f = -M'(q)[u] u + dT/dq, both sides by differences of mass(). */
static int lagrangian_check(void)
{
    static const hs_mb_body b[] = {{.name = "rb", .kind = HS_MB_SPATIAL, .mass = 1, .inertia = {1, 2, 3}, .rot = {1, 0, 0, 0}}};
    static const hs_mb_desc D = {.name = "rb", .dim = 3, .bodies = b, .nbodies = 1};
    static hs_mb_model mb;
    hs_model m;
    int bad = 0;
    hs_mb_compile(&D, &mb, 0, NULL);
    hs_mb_model_init(&m, &mb);
    for (int tr = 0; tr < 20; ++tr) {
        hs_real q[7], u[7], f[7], Mp[49], Mm[49];
        for (int i = 0; i < 7; ++i) { q[i] = (hs_real)rnd(); u[i] = (hs_real)rnd(); }
        mb.type.force(&m, 0, q, u, NULL, NULL, f);
        const double e = 1e-6;
        double rhs[7] = {0};
        hs_real qp[7], qm[7];
        for (int i = 0; i < 7; ++i) { qp[i] = q[i] + (hs_real)e * u[i]; qm[i] = q[i] - (hs_real)e * u[i]; }
        mb.type.mass(&m, 0, qp, Mp);
        mb.type.mass(&m, 0, qm, Mm);
        for (int i = 0; i < 7; ++i)
            for (int j = 0; j < 7; ++j) rhs[i] -= (Mp[i * 7 + j] - Mm[i * 7 + j]) / (2 * e) * u[j];
        for (int k = 0; k < 7; ++k) {
            memcpy(qp, q, sizeof q); memcpy(qm, q, sizeof q);
            qp[k] += (hs_real)e; qm[k] -= (hs_real)e;
            mb.type.mass(&m, 0, qp, Mp);
            mb.type.mass(&m, 0, qm, Mm);
            double d = 0;
            for (int i = 0; i < 7; ++i)
                for (int j = 0; j < 7; ++j) d += 0.5 * u[i] * (Mp[i * 7 + j] - Mm[i * 7 + j]) / (2 * e) * u[j];
            rhs[k] += d;
        }
        for (int i = 0; i < 7; ++i) cmp("f = -M'u + dT/dq", "rb", f[i], rhs[i], 1e-6, &bad);
    }
    return bad;
}

/* At rest with zero inputs every force element is conservative: f = -dV/dq, with V the
 * potential the energy output reports (gravity, springs, bushings, hinge springs), so the
 * energy signal and the forces come from the same potential. (A damper whose ground end moves
 * pulls at rest: t = pi/4 is an instant where fixture2d's moving spring end stands still.) */
static int potential_check(const hs_mb_desc *D, int trials)
{
    static hs_mb_model mb;
    hs_model m;
    int bad = 0;
    if (hs_mb_compile(D, &mb, 0, NULL)) return 1;
    hs_mb_model_init(&m, &mb);
    const int nq = mb.nq;
    for (int tr = 0; tr < trials; ++tr) {
        hs_real q[NQ], u[NQ], in[HS_MB_MAX_NIN], f[NQ];
        const hs_real t = (hs_real)(0.7853981633974483); /* pi/4: fx2's moving spring end is at rest */
        for (int i = 0; i < nq; ++i) { q[i] = (hs_real)rnd(); u[i] = 0; }
        for (int i = 0; i < HS_MB_MAX_NIN; ++i) in[i] = 0;
        mb.type.force(&m, t, q, u, NULL, in, f);
        const double e = 1e-6;
        for (int j = 0; j < nq; ++j) {
            hs_real qp[NQ], qm[NQ], Ep, Em;
            memcpy(qp, q, sizeof q); memcpy(qm, q, sizeof q);
            qp[j] += (hs_real)e; qm[j] -= (hs_real)e;
            mb.type.energy(&m, t, qp, u, NULL, &Ep);
            mb.type.energy(&m, t, qm, u, NULL, &Em);
            cmp("f = -dV/dq", D->name, f[j], -(Ep - Em) / (2 * e), 1e-6, &bad);
        }
    }
    return bad;
}

/* lagrange() (method dvp's pieces) against differences of mass() and force(): Mq = d(M u)/dq,
 * F = f + M'(q)[u] u with M' u from M(q +- e u), Fq and Fu from differences of F itself; and on
 * a lone quaternion body F = dT/dq of T = 1/2 u^T M(q) u. Descriptions without a quaternion
 * body have none (their M is constant). */
static int lagrange_fd(const hs_mb_desc *D, int trials, int lone)
{
    static hs_mb_model mb;
    hs_model m;
    int bad = 0;
    if (hs_mb_compile(D, &mb, 0, NULL)) return 1;
    hs_mb_model_init(&m, &mb);
    const hs_model_type *T = &mb.type;
    if (!T->lagrange) return 1;
    const int nq = mb.nq;
    static hs_real Fq[NQ * NQ], Fu[NQ * NQ], Mq[NQ * NQ], Mp[NQ * NQ], Mm[NQ * NQ];
    for (int tr = 0; tr < trials; ++tr) {
        hs_real q[NQ], u[NQ], in[HS_MB_MAX_NIN], F[NQ], f[NQ], Fp[NQ], Fm[NQ], qp[NQ], qm[NQ];
        const double t = 0.5 + rnd(), e = 1e-6;
        for (int i = 0; i < nq; ++i) { q[i] = (hs_real)rnd(); u[i] = (hs_real)(2.0 * rnd()); }
        for (int i = 0; i < HS_MB_MAX_NIN; ++i) in[i] = (i < IN_DRAWS) ? (hs_real)(3.0 * rnd()) : 0;
        T->lagrange(&m, (hs_real)t, q, u, NULL, in, F, Fq, Fu, Mq);
        T->force(&m, (hs_real)t, q, u, NULL, in, f);
        /* F = f + M'(q)[u] u */
        for (int i = 0; i < nq; ++i) { qp[i] = q[i] + (hs_real)e * u[i]; qm[i] = q[i] - (hs_real)e * u[i]; }
        T->mass(&m, (hs_real)t, qp, Mp);
        T->mass(&m, (hs_real)t, qm, Mm);
        for (int i = 0; i < nq; ++i) {
            double r = f[i];
            for (int j = 0; j < nq; ++j) r += (Mp[i * nq + j] - Mm[i * nq + j]) / (2 * e) * u[j];
            cmp("F = f + M'u u", D->name, F[i], r, 1e-6, &bad);
        }
        for (int j = 0; j < nq; ++j) {
            memcpy(qp, q, sizeof q); memcpy(qm, q, sizeof q);
            qp[j] += (hs_real)e; qm[j] -= (hs_real)e;
            T->mass(&m, (hs_real)t, qp, Mp);
            T->mass(&m, (hs_real)t, qm, Mm);
            for (int i = 0; i < nq; ++i) {
                double a = 0;
                for (int k = 0; k < nq; ++k) a += (Mp[i * nq + k] - Mm[i * nq + k]) / (2 * e) * u[k];
                cmp("Mq = d(M u)/dq", D->name, Mq[i * nq + j], a, 1e-6, &bad);
            }
            if (lone) { /* F_j = dT/dq_j */
                double Tp = 0, Tm = 0;
                for (int i = 0; i < nq; ++i)
                    for (int k = 0; k < nq; ++k) { Tp += 0.5 * u[i] * Mp[i * nq + k] * u[k]; Tm += 0.5 * u[i] * Mm[i * nq + k] * u[k]; }
                cmp("F = dT/dq", D->name, F[j], (Tp - Tm) / (2 * e), 1e-6, &bad);
            }
            T->lagrange(&m, (hs_real)t, qp, u, NULL, in, Fp, NULL, NULL, NULL);
            T->lagrange(&m, (hs_real)t, qm, u, NULL, in, Fm, NULL, NULL, NULL);
            for (int i = 0; i < nq; ++i) cmp("Fq", D->name, Fq[i * nq + j], (Fp[i] - Fm[i]) / (2 * e), 1e-6, &bad);
            hs_real up[NQ], um[NQ];
            memcpy(up, u, sizeof u); memcpy(um, u, sizeof u);
            up[j] += (hs_real)e; um[j] -= (hs_real)e;
            T->lagrange(&m, (hs_real)t, q, up, NULL, in, Fp, NULL, NULL, NULL);
            T->lagrange(&m, (hs_real)t, q, um, NULL, in, Fm, NULL, NULL, NULL);
            for (int i = 0; i < nq; ++i) cmp("Fu", D->name, Fu[i * nq + j], (Fp[i] - Fm[i]) / (2 * e), 1e-6, &bad);
        }
    }
    return bad;
}

int mb_deriv_check(const hs_mb_desc *D, int trials) { return deriv_model(D, trials); }
int mb_deriv_check_in(const hs_mb_desc *D, int trials, const hs_real *in)
{
    g_fixed_in = in;
    const int bad = deriv_model(D, trials);
    g_fixed_in = NULL;
    return bad;
}
int mb_potential_check(const hs_mb_desc *D, int trials) { return potential_check(D, trials); }

int mb_test_deriv(void)
{
    int fails = 0;
    worst = 0;
    int b2 = deriv_model(&fx2, 25), b3 = deriv_model(&fx3, 25), bl = lagrangian_check();
    printf("  derivatives: fixture2d %d bad, fixture3d %d bad, quaternion Lagrangian %d bad; worst relative difference %.2e\n",
           b2, b3, bl, worst);
    fails += mb_check(b2 == 0, "2-D fixture: G, g_t, gamma, K, fq, fu match finite differences; packed = dense");
    fails += mb_check(b3 == 0, "3-D fixture: G, g_t, gamma, K, fq, fu match finite differences; packed = dense");
    fails += mb_check(bl == 0, "quaternion body: f = -M'u + dT/dq");
    {
        static const hs_mb_body b1[] = {{.name = "rb", .kind = HS_MB_SPATIAL, .mass = 1, .inertia = {1, 2, 3}, .rot = {1, 0, 0, 0}}};
        static const hs_mb_desc D1 = {.name = "rb", .dim = 3, .bodies = b1, .nbodies = 1};
        static hs_mb_model m2;
        const int l3 = lagrange_fd(&fx3, 25, 0), l1 = lagrange_fd(&D1, 20, 1);
        const int none2 = hs_mb_compile(&fx2, &m2, 0, NULL) == 0 && m2.type.lagrange == NULL;
        char what[200];
        snprintf(what, sizeof what, "method dvp's lagrange(): fixture3d %d bad, lone quaternion body %d bad (Mq, F = f + M'u u, F = dT/dq, Fq, Fu vs differences); 2-D fixture (constant M) has none", l3, l1);
        fails += mb_check(l3 == 0 && l1 == 0 && none2, what);
    }
    const int p2 = potential_check(&fx2, 10), p3 = potential_check(&fx3, 10);
    char what[200];
    snprintf(what, sizeof what, "at rest, zero inputs: f = -dV/dq of the energy output's potential (2-D %d bad, 3-D %d bad, incl. hinge springs and bushings)", p2, p3);
    fails += mb_check(p2 == 0 && p3 == 0, what);
    return fails;
}
