/* test_sparse_step.c - the stepper with the sparse backend against the same stepper with the
 * dense LU: every method x formulation x stabilization on the shipped block-structured models
 * (chain, ladder) gives the same step results to 1e-12 relative; the car axle keeps the dense
 * LU under auto. */
#include "hs_models.h"
#include "hs_sparse.h"
#include "hs_stepper.h"
#include "hs_test.h"
#include "tutil.h"

#include <string.h>

#include "tarena.h"

#define SS_REALS 24000
#define SS_INTS 48000

typedef struct ssim {
    hs_model m;
    union { hs_real r[32]; double align; } p;
    hs_stepper s;
    hs_real R[SS_REALS];
    int I[SS_INTS];
} ssim;

typedef struct ss_work {
    ssim a, b;
    int tmp[48000];
} ss_work;
typedef char ss_work_fits[(sizeof(ss_work) <= HS_TEST_ARENA_BYTES) ? 1 : -1];
#define SS (*(ss_work *)(void *)hs_test_arena.b)
#define A (SS.a)
#define B (SS.b)
#define sizing_tmp (SS.tmp)

static int ss_start(ssim *x, const hs_model_type *T, double nlinks, hs_method me, hs_form fo,
                    hs_stab st, hs_ls_kind kind)
{
    hs_model_init(&x->m, T, &x->p);
    if (nlinks > 0.0) hs_model_set_param(&x->m, "n", (hs_real)nlinks);
    hs_stepper_def d = hs_stepper_default_def();
    d.method = me; d.form = fo; d.stab = st; d.h = HS_R(1e-3);
    d.alpha = HS_R(1.0) / d.h;
    d.beta = d.alpha * d.alpha;
    d.linsys = kind;
    size_t nr = 0, ni = 0;
    int rc = hs_stepper_workspace_tmp(&d, &x->m, sizing_tmp, sizeof sizing_tmp / sizeof sizing_tmp[0], &nr, &ni);
    if (rc) return rc;
    if (nr > SS_REALS || ni > SS_INTS) return HS_E_SIZE;
    return hs_stepper_init(&x->s, &d, &x->m, HS_R(0.0), x->R, SS_REALS, x->I, SS_INTS);
}

/* max_i |a_i - b_i| / max_i |b_i| over q and u */
static double state_diff(const hs_stepper *a, const hs_stepper *b)
{
    double num = 0.0, den = 0.0;
    for (int i = 0; i < a->nq; ++i) {
        const double dq = tu_abs((double)a->q[i] - (double)b->q[i]), du = tu_abs((double)a->u[i] - (double)b->u[i]);
        num = dq > num ? dq : num;
        num = du > num ? du : num;
        den = tu_abs((double)b->q[i]) > den ? tu_abs((double)b->q[i]) : den;
        den = tu_abs((double)b->u[i]) > den ? tu_abs((double)b->u[i]) : den;
    }
    return den > 0.0 ? num / den : num;
}

void test_sparse_step(void)
{
    memset(&SS, 0, sizeof SS);
    const double tol = sizeof(hs_real) == 8 ? 1e-12 : 1e-4;
    static const hs_method meths[] = {HS_METHOD_EXPLICIT, HS_METHOD_SYMPLECTIC, HS_METHOD_J1,
                                      HS_METHOD_J2, HS_METHOD_J3, HS_METHOD_JEXACT, HS_METHOD_SPOOK};
    static const hs_stab stabs[] = {HS_STAB_NONE, HS_STAB_BAUMGARTE, HS_STAB_PROJECTION};
    static const hs_form forms[] = {HS_FORM_INDEX1, HS_FORM_INDEX2, HS_FORM_GGL};
    const char *names[2] = {"chain", "ladder"};
    const double sizes[2] = {8.0, 3.0};
    const long nsteps = hs_test_quick ? 3 : 200;
    int ran = 0;
    for (int mi = 0; mi < 2; ++mi) {
        const hs_model_type *T = hs_model_find(names[mi]);
        CHECK(T != NULL);
        if (!T) continue;
        for (unsigned a = 0; a < sizeof meths / sizeof meths[0]; ++a)
            for (unsigned f = 0; f < sizeof forms / sizeof forms[0]; ++f)
                for (unsigned b = 0; b < sizeof stabs / sizeof stabs[0]; ++b) {
                    const int ra = ss_start(&A, T, sizes[mi], meths[a], forms[f], stabs[b], HS_LS_SPARSE);
                    const int rb = ss_start(&B, T, sizes[mi], meths[a], forms[f], stabs[b], HS_LS_DENSE);
                    CHECK(ra == rb);
                    /* only combinations the validation rejects may fail to start */
                    CHECK(ra == HS_OK || (ra <= HS_E_DEF_H && ra >= HS_E_DEF_FD) || ra == HS_E_DEF_SPOOK);
                    if (ra || rb) continue;
                    ++ran;
                    CHECK(A.s.lsK.kind == HS_LS_SPARSE && B.s.lsK.kind == HS_LS_DENSE);
                    double worst1 = 0.0;
                    int fa = 0, fb = 0;
                    for (long k = 0; k < nsteps; ++k) {
                        fa = hs_stepper_step(&A.s, NULL);
                        fb = hs_stepper_step(&B.s, NULL);
                        if (fa || fb) break;
                        const double d = state_diff(&A.s, &B.s);
                        if (k == 0) worst1 = d;
                    }
                    CHECK(fa == fb);
                    /* one step from the same state: the two solves agree to rounding */
                    CHECK_RANGE(worst1, 0.0, tol);
                    /* after nsteps the trajectories have not drifted apart either */
                    if (!fa && !fb) CHECK_RANGE(state_diff(&A.s, &B.s), 0.0, 1e3 * tol);
                }
    }
    /* 6 methods x (index-1: 2 stabs, index-2: 3, GGL: 4 positions-first methods) + SPOOK,
     * x 2 models */
    CHECK(ran >= 2 * (6 * 2 + 6 * 3 + 4 + 1));
    /* auto keeps the dense LU where it is cheaper (the car axle) and takes the sparse backend
     * for the block-structured chain */
    CHECK(ss_start(&A, &hs_car_axle_type, 0.0, HS_METHOD_J2, HS_FORM_INDEX2, HS_STAB_PROJECTION, HS_LS_AUTO) == HS_OK);
    CHECK(A.s.lsK.kind == HS_LS_DENSE);
    CHECK(ss_start(&A, hs_model_find("chain"), 32.0, HS_METHOD_J2, HS_FORM_INDEX2, HS_STAB_PROJECTION, HS_LS_AUTO) == HS_OK);
    CHECK(A.s.lsK.kind == HS_LS_SPARSE);
}

/* ---- a redundant constraint: three rods pinned in a chain whose last joint is doubled
 * (joint 3 repeats joint 2), so G (8 x 9) has rank 6 + ... one row pair too many: the
 * unregularized KKT matrix is singular; SPOOK's regularization must carry it ([L2]
 * theorem 5.1: "can process degenerate constraints"). With nrep = 0 it is the plain
 * three-rod chain, the reference. */
#include "hs_rods.h"

static void dj_joint(int nrep, int k, hs_rod_joint *j)
{
    const int kk = k < 3 ? k : 2; /* k = 3: the doubled joint */
    (void)nrep;
    j->a = kk; j->sa = -1; j->sb = 1;
    j->b = kk == 0 ? -1 : kk - 1;
}

static hs_rods dj_rods(const hs_model *m)
{
    const hs_rods r = {3, 3 + (int)((const hs_real *)m->p)[0], HS_R(1.0), HS_R(1.0), HS_R(9.81), dj_joint, 0, 0};
    return r;
}

static const hs_param_info dj_params[] = {
    {"rep", 0, HS_R(1.0), HS_R(0.0), HS_R(1.0), "1: joint 2 doubled, 0: plain chain"},
};

static int dj_dims(const hs_model *m, hs_dims *d)
{
    const hs_rods r = dj_rods(m);
    d->nq = 3 * r.nr; d->nc = 2 * r.nj; d->nz = 0; d->nin = 0; d->nout = 0;
    return HS_OK;
}
static int dj_initial(const hs_model *m, hs_real t0, hs_real *q, hs_real *u, hs_real *z)
{
    (void)m; (void)t0; (void)z;
    for (int i = 0; i < 3; ++i) {
        q[3 * i] = (hs_real)i + HS_R(0.5); q[3 * i + 1] = HS_R(0.0); q[3 * i + 2] = HS_R(0.0);
        u[3 * i] = u[3 * i + 1] = u[3 * i + 2] = HS_R(0.0);
    }
    return HS_OK;
}
static int dj_mass(const hs_model *m, hs_real t, const hs_real *q, hs_real *M)
{
    (void)t; (void)q;
    const hs_rods r = dj_rods(m);
    hs_rods_mass(&r, M);
    return HS_OK;
}
static int dj_force(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                    const hs_real *z, const hs_real *in, hs_real *f)
{
    (void)t; (void)q; (void)u; (void)z; (void)in;
    const hs_rods r = dj_rods(m);
    hs_rods_force(&r, f);
    return HS_OK;
}
static int dj_force_jac(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                        const hs_real *z, const hs_real *in, hs_real *fq, hs_real *fu)
{
    (void)t; (void)q; (void)u; (void)z; (void)in;
    const hs_rods r = dj_rods(m);
    hs_rods_force_jac(&r, fq, fu);
    return HS_OK;
}
static int dj_constraint(const hs_model *m, hs_real t, const hs_real *q, hs_real *g, hs_real *G, hs_real *gt)
{
    (void)t;
    const hs_rods r = dj_rods(m);
    return hs_rods_constraint(&r, q, g, G, gt);
}
static int dj_gamma(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, hs_real *gam)
{
    (void)t;
    const hs_rods r = dj_rods(m);
    return hs_rods_gamma(&r, q, u, gam);
}
static int dj_blocks(const hs_model *m, hs_blocks *b, int *buf, int nbuf)
{
    const hs_rods r = dj_rods(m);
    return hs_rods_blocks(&r, b, buf, nbuf);
}

static const hs_model_type dj_type = {
    .name = "doubled_joint",
    .doc = "three rods pinned in a chain, the last joint doubled (redundant constraint)",
    .nq = 9, .nc = 8, .nz = 0, .nin = 0, .nout = 0,
    .params = dj_params, .nparams = 1, .param_size = sizeof(hs_real),
    .initial = dj_initial, .mass = dj_mass, .force = dj_force, .force_jac = dj_force_jac,
    .constraint = dj_constraint, .gamma = dj_gamma, .dims = dj_dims, .blocks = dj_blocks,
};

static int dj_start_reg(ssim *x, double rep, hs_method me, hs_stab st, double h, hs_ls_kind kind, double reg)
{
    hs_model_init(&x->m, &dj_type, &x->p);
    hs_model_set_param(&x->m, "rep", (hs_real)rep);
    hs_stepper_def d = hs_stepper_default_def();
    d.method = me; d.form = HS_FORM_INDEX2; d.stab = st; d.h = (hs_real)h;
    d.linsys = kind;
    d.reg_eps = (hs_real)reg;
    return hs_stepper_init(&x->s, &d, &x->m, HS_R(0.0), x->R, SS_REALS, x->I, SS_INTS);
}

static int dj_start(ssim *x, double rep, hs_method me, hs_stab st, double h, hs_ls_kind kind)
{
    return dj_start_reg(x, rep, me, st, h, kind, 0.0);
}

void test_redundant(void)
{
    memset(&SS, 0, sizeof SS);
    const hs_ls_kind kinds[2] = {HS_LS_DENSE, HS_LS_SPARSE};
    const double hs[2] = {1e-3, 1.0 / 60.0};
    for (int k = 0; k < 2; ++k) {
        double gm[2] = {0.0, 0.0};
        for (int hi = 0; hi < 2; ++hi) {
            /* SPOOK steps through the doubled joint and follows the plain chain: the doubled
             * joint is the same joint with half the compliance */
            CHECK(dj_start(&A, 1.0, HS_METHOD_SPOOK, HS_STAB_NONE, hs[hi], kinds[k]) == HS_OK);
            CHECK(dj_start(&B, 0.0, HS_METHOD_SPOOK, HS_STAB_NONE, hs[hi], kinds[k]) == HS_OK);
            const long n = (long)(2.0 / hs[hi] + 0.5);
            int fa = HS_OK, fb = HS_OK;
            double gmax = 0.0;
            hs_real g[8];
            for (long i = 0; i < n && !fa && !fb; ++i) {
                fa = hs_stepper_step(&A.s, NULL);
                fb = hs_stepper_step(&B.s, NULL);
                hs_stepper_residual(&A.s, g);
                for (int c = 0; c < 8; ++c) gmax = tu_abs((double)g[c]) > gmax ? tu_abs((double)g[c]) : gmax;
            }
            CHECK(fa == HS_OK && fb == HS_OK);
            CHECK(A.s.stats.faults == 0);
            gm[hi] = gmax;
            double d = 0.0;
            for (int i = 0; i < 9; ++i) d = tu_abs((double)A.s.q[i] - (double)B.s.q[i]) > d ? tu_abs((double)A.s.q[i] - (double)B.s.q[i]) : d;
            CHECK_RANGE(d, 0.0, 1e-4);
        }
        /* the constraint error is O(h^2) ([L2] sec. 6, Fig. 6): slope over h = 1 ms .. 1/60 */
        const double slope = tu_log(gm[1] / gm[0]) / tu_log(hs[1] / hs[0]);
        CHECK_RANGE(slope, 1.7, 2.3);
    }
    /* the default configuration (J2, index-2, projection) with the regularized multiplier
     * block (reg_eps = 1e-8) steps through the doubled joint too and follows the plain chain */
    for (int k = 0; k < 2; ++k) {
        /* unregularized, the projection matrix at q0 is already singular: init refuses */
        CHECK(dj_start(&A, 1.0, HS_METHOD_J2, HS_STAB_PROJECTION, 1e-3, kinds[k]) == HS_E_SINGULAR);
        CHECK(dj_start_reg(&A, 1.0, HS_METHOD_J2, HS_STAB_PROJECTION, 1e-3, kinds[k], 1e-8) == HS_OK);
        /* the reference: the plain chain with the same regularization */
        CHECK(dj_start_reg(&B, 0.0, HS_METHOD_J2, HS_STAB_PROJECTION, 1e-3, kinds[k], 1e-8) == HS_OK);
        int fa = HS_OK, fb = HS_OK;
        for (long i = 0; i < 2000 && !fa && !fb; ++i) {
            fa = hs_stepper_step(&A.s, NULL);
            fb = hs_stepper_step(&B.s, NULL);
        }
        CHECK(fa == HS_OK && fb == HS_OK);
        double d2 = 0.0;
        for (int i = 0; i < 9; ++i) d2 = tu_abs((double)A.s.q[i] - (double)B.s.q[i]) > d2 ? tu_abs((double)A.s.q[i] - (double)B.s.q[i]) : d2;
        CHECK_RANGE(d2, 0.0, 1e-3);
    }
    /* without regularization the same model makes the step matrix singular: the fault is
     * reported and the state is untouched */
    CHECK(dj_start(&A, 1.0, HS_METHOD_J2, HS_STAB_NONE, 1e-3, HS_LS_SPARSE) == HS_OK);
    hs_real q0 = A.s.q[4];
    CHECK(hs_stepper_step(&A.s, NULL) == HS_E_SINGULAR);
    CHECK(A.s.q[4] == q0 && A.s.stats.faults == 1);
}

/* ---- zero masks: the chain declares which entries of its blocks are always zero (a rod's
 * mass block is diagonal, a joint's G block has an identity part); the sparse backend leaves
 * them out of the pattern. The default method's steps must agree with the unmasked pattern's
 * (the same type without the masks hook) to round-off, the masked factor must cost fewer
 * operations, and its symmetric step matrix must be factored as L D L^T. */
void test_sparse_masks(void)
{
    memset(&SS, 0, sizeof SS);
    const double tol = sizeof(hs_real) == 8 ? 1e-12 : 1e-4;
    static hs_model_type nomask;
    nomask = hs_chain_type;
    nomask.masks = NULL;
    const hs_method me = hs_stepper_default_def().method;
    CHECK(ss_start(&A, &hs_chain_type, 8.0, me, HS_FORM_INDEX2, HS_STAB_PROJECTION, HS_LS_SPARSE) == HS_OK);
    CHECK(ss_start(&B, &nomask, 8.0, me, HS_FORM_INDEX2, HS_STAB_PROJECTION, HS_LS_SPARSE) == HS_OK);
    CHECK(A.s.lsK.flops_factor < B.s.lsK.flops_factor && A.s.lsP.flops_factor < B.s.lsP.flops_factor);
    CHECK(A.s.lsK.flops_solve < B.s.lsK.flops_solve);
    CHECK(A.s.lsK.symmetric == 1 && B.s.lsK.symmetric == 1);
    /* the masks leave A diagonal: both systems take the range-space path, S a band of half
     * width 3 (a joint's two rows couple to the next joint's); without masks the whole matrix */
    CHECK(A.s.lsK.schur == 1 && A.s.lsP.schur == 1 && A.s.lsK.sbw == 4 && A.s.lsP.sbw == 4);
    CHECK(B.s.lsK.schur == 0 && B.s.lsP.schur == 0);
    const long nsteps = hs_test_quick ? 10 : 500;
    int fails = 0;
    double worst = 0.0;
    for (long k = 0; k < nsteps; ++k) {
        fails += hs_stepper_step(&A.s, NULL) != HS_OK;
        fails += hs_stepper_step(&B.s, NULL) != HS_OK;
        const double d = state_diff(&A.s, &B.s);
        worst = d > worst ? d : worst;
    }
    CHECK(fails == 0);
    CHECK_RANGE(worst, 0.0, tol);
    /* a model without the symmetry promise keeps L D U */
    nomask.symmetric_jac = 0;
    CHECK(ss_start(&B, &nomask, 8.0, me, HS_FORM_INDEX2, HS_STAB_PROJECTION, HS_LS_SPARSE) == HS_OK);
    CHECK(B.s.lsK.symmetric == 0);
    /* nor the range-space path, whose S is factored as L D L^T: masks with unsymmetric values */
    nomask.masks = hs_chain_type.masks;
    CHECK(ss_start(&B, &nomask, 8.0, me, HS_FORM_INDEX2, HS_STAB_PROJECTION, HS_LS_SPARSE) == HS_OK);
    CHECK(B.s.lsK.schur == 0 && B.s.lsK.symmetric == 0 && B.s.lsP.schur == 1);
}
