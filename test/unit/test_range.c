/* test_range.c - the default's range check at init (rt/METHODS.md "Where a method stops"):
 * the motion bounds the models declare against their closed forms, and the refusals they
 * give. Chain of n rods (m = 1 kg, L = 1 m, g = 9.81, released horizontal at rest, E = 0):
 * gravity can release m g L n^2/2, so omega = sqrt(2 (m g L n^2/2) / (m L^2/12)) = 86.80 rad/s
 * for n = 8. The generated chain.hsm (8 rods of 0.5 m, 1 kg, I = m L^2/12 = 1/48 kg m^2):
 * the centres lie at most 0.25 + 0.5 k below the pin, V_min = -9.81 * 16 J, omega =
 * sqrt(2 * 156.96 * 48) = 122.75 rad/s. The ladder's loops can fold flat: degenerate. */
#include "hs_test.h"
#include "hs_stepper.h"
#include "hs_models.h"
#include "mb_gen.h"

static union { hs_real r[512]; double d; } rg_p;
static hs_real rg_q[1024], rg_u[1024], rg_z[8];

/* h omega and degenerate of model m at h, and the status of the check */
static int rg_at(const hs_model *m, double h, hs_real *how, int *dg)
{
    hs_stepper_def d = hs_stepper_default_def();
    d.h = (hs_real)h;
    if (m->type->check != NULL && m->type->check(m) != HS_OK) return HS_E_MODEL;
    if (m->type->initial(m, HS_R(0.0), rg_q, rg_u, rg_z) != HS_OK) return HS_E_MODEL;
    return hs_stepper_range(&d, m, HS_R(0.0), rg_q, rg_u, how, dg);
}

void test_range(void)
{
    hs_model m;
    hs_real how = 0;
    int dg = -1;
    /* hand-written chain, n = 8 */
    CHECK(hs_model_init(&m, hs_model_find("chain"), &rg_p) == HS_OK);
    CHECK(hs_model_set_param(&m, "n", HS_R(8.0)) == HS_OK);
    CHECK(rg_at(&m, 1e-3, &how, &dg) == HS_OK && dg == 0);
    CHECK_RANGE(how / 1e-3, 86.79, 86.81);
    CHECK(rg_at(&m, 0.005, &how, &dg) == HS_E_RANGE_INIT);       /* 0.434 */
    CHECK(rg_at(&m, 0.004, &how, &dg) == HS_OK);                 /* 0.347 */
    CHECK(rg_at(&m, 1.0 / 60.0, &how, &dg) == HS_E_RANGE_INIT);  /* 1.45 */
    /* the ladder: loops that fold flat, refused at any h */
    CHECK(hs_model_init(&m, hs_model_find("ladder"), &rg_p) == HS_OK);
    CHECK(rg_at(&m, 1e-4, &how, &dg) == HS_E_RANGE_DEGENERATE && dg == 1);
    /* the generated chain description */
    CHECK(hs_model_init(&m, &hs_mb_chain_type, &rg_p) == HS_OK);
    CHECK(rg_at(&m, 1e-3, &how, &dg) == HS_OK && dg == 0);
    CHECK_RANGE(how / 1e-3, 122.74, 122.76);
    CHECK(rg_at(&m, 0.01, &how, &dg) == HS_E_RANGE_INIT);
    /* no bound declared or known: not checked (a driven mechanism, a body held by no joint) */
    CHECK(hs_model_init(&m, hs_model_find("car_axle"), &rg_p) == HS_OK);
    CHECK(rg_at(&m, 0.05, &how, &dg) == HS_OK && how == 0);
    CHECK(hs_model_init(&m, &hs_mb_slider_crank_type, &rg_p) == HS_OK);
    CHECK(rg_at(&m, 0.05, &how, &dg) == HS_OK && how == 0);
    CHECK(hs_model_init(&m, &hs_mb_rigid_body_type, &rg_p) == HS_OK);
    CHECK(rg_at(&m, 0.05, &how, &dg) == HS_OK && how == 0);
    /* only the default checks; 0 turns the check off */
    {
        hs_stepper_def d = hs_stepper_default_def();
        CHECK(hs_model_init(&m, hs_model_find("ladder"), &rg_p) == HS_OK);
        CHECK(m.type->initial(&m, HS_R(0.0), rg_q, rg_u, rg_z) == HS_OK);
        d.method = HS_METHOD_SPOOK;
        d.stab = HS_STAB_NONE;
        CHECK(hs_stepper_range(&d, &m, HS_R(0.0), rg_q, rg_u, &how, &dg) == HS_OK && dg == 1);
        d = hs_stepper_default_def();
        d.max_h_omega = HS_R(0.0);
        CHECK(hs_stepper_range(&d, &m, HS_R(0.0), rg_q, rg_u, &how, &dg) == HS_OK);
        d.max_h_omega = HS_R(-1.0);
        CHECK(hs_stepper_def_validate(&d, &m) == HS_E_DEF_WATCHDOG);
    }
}
