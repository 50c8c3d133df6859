/* test_sparse_step.c - the stepper with the sparse backend against the same stepper with the
 * dense LU: every method x formulation x stabilization on the shipped block-structured models
 * (chain, ladder) gives the same step results to 1e-12 relative; the car axle keeps the dense
 * LU under auto. */
#include "hs_models.h"
#include "hs_sparse.h"
#include "hs_stepper.h"
#include "hs_test.h"
#include "tutil.h"

#define SS_REALS 400000
#define SS_INTS 400000

typedef struct ssim {
    hs_model m;
    union { hs_real r[32]; double align; } p;
    hs_stepper s;
    hs_real R[SS_REALS];
    int I[SS_INTS];
} ssim;

static ssim A, B;
static int sizing_tmp[200000];

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
    const double tol = sizeof(hs_real) == 8 ? 1e-12 : 1e-4;
    static const hs_method meths[] = {HS_METHOD_EXPLICIT, HS_METHOD_SYMPLECTIC, HS_METHOD_J1,
                                      HS_METHOD_J2, HS_METHOD_J3, HS_METHOD_JEXACT, HS_METHOD_SPOOK};
    static const hs_stab stabs[] = {HS_STAB_NONE, HS_STAB_BAUMGARTE, HS_STAB_PROJECTION};
    static const hs_form forms[] = {HS_FORM_INDEX1, HS_FORM_INDEX2, HS_FORM_GGL};
    const char *names[2] = {"chain", "ladder"};
    const double sizes[2] = {8.0, 3.0};
    const long nsteps = hs_test_quick ? 20 : 200;
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
