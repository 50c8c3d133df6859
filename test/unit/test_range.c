/* test_range.c - the default's range check at init (rt/METHODS.md "Where a method stops"):
 * the motion bounds the models declare against their closed forms, and the refusals they
 * give. Chain of n rods (m = 1 kg, L = 1 m, g = 9.81, released horizontal at rest, E = 0):
 * its rods' rates are checked at every step (spin()), so init bounds only the start's own
 * rate (0 at rest; a tip rod started at 100 rad/s: h omega = 0.5 at 5 ms, refused, naming
 * rod n - 1), and release() is the energy gravity can release, m g L n^2/2 = 313.92 J for
 * n = 8 (the scale hilstep-sim judges the energy error by). The generated chain.hsm (8 rods
 * of 0.5 m, 1 kg, I = m L^2/12 = 1/48 kg m^2): the centres lie at most 0.25 + 0.5 k below
 * the pin, V_min = -9.81 * 16 J, omega = sqrt(2 * 156.96 * 48) = 122.75 rad/s (body 0 the
 * first of the equal bodies), release() 156.96 J at rest; pendulum.hsm's m g L = 10 J; no
 * release() where the potential has no known floor. The ladder's loops can fold flat: degenerate. */
#include "hs_test.h"
#include "hs_stepper.h"
#include "hs_models.h"
#include "mb_gen.h"

static union { hs_real r[512]; double d; } rg_p;
static hs_real rg_q[1024], rg_u[1024], rg_z[8];

static int rg_who;

/* h omega and degenerate of model m at h (its initial state, rod n_spin - 1 of a rod model
 * turning at 100 rad/s when n_spin > 0), the status of the check; rg_who what set it */
static int rg_at_spin(const hs_model *m, double h, hs_real *how, int *dg, int n_spin)
{
    hs_stepper_def d = hs_stepper_default_def();
    d.h = (hs_real)h;
    if (m->type->check != NULL && m->type->check(m) != HS_OK) return HS_E_MODEL;
    if (m->type->initial(m, HS_R(0.0), rg_q, rg_u, rg_z) != HS_OK) return HS_E_MODEL;
    if (n_spin > 0) rg_u[3 * (n_spin - 1) + 2] = HS_R(100.0);
    return hs_stepper_range_who(&d, m, HS_R(0.0), rg_q, rg_u, how, dg, &rg_who);
}

static int rg_at(const hs_model *m, double h, hs_real *how, int *dg)
{
    return rg_at_spin(m, h, how, dg, 0);
}

void test_range(void)
{
    hs_model m;
    hs_real how = 0;
    int dg = -1;
    /* hand-written chain, n = 8 */
    CHECK(hs_model_init(&m, hs_model_find("chain"), &rg_p) == HS_OK);
    CHECK(hs_model_set_param(&m, "n", HS_R(8.0)) == HS_OK);
    CHECK(rg_at(&m, 1.0 / 60.0, &how, &dg) == HS_OK && dg == 0 && how == 0); /* at rest */
    {
        hs_real R = 0, w = 0;
        int body = -1;
        CHECK(m.type->release != NULL && m.type->release(&m, HS_R(0.0), rg_q, rg_u, &R) == HS_OK);
        CHECK_RANGE(R, 313.919, 313.921);                            /* 9.81 * 64 / 2 */
        rg_u[3 * 5 + 2] = HS_R(-30.0);
        CHECK(m.type->spin(&m, rg_q, rg_u, &w, &body) == HS_OK && w == 30 && body == 5);
    }
    CHECK(rg_at_spin(&m, 0.005, &how, &dg, 8) == HS_E_RANGE_INIT && rg_who == 7); /* 0.5 */
    CHECK_RANGE(how, 0.4999, 0.5001);
    CHECK(rg_at_spin(&m, 0.0039, &how, &dg, 8) == HS_OK);         /* 0.39 */
    /* the ladder: loops that fold flat, refused at any h */
    CHECK(hs_model_init(&m, hs_model_find("ladder"), &rg_p) == HS_OK);
    CHECK(rg_at(&m, 1e-4, &how, &dg) == HS_E_RANGE_DEGENERATE && dg == 1);
    /* the generated chain description */
    CHECK(hs_model_init(&m, &hs_mb_chain_type, &rg_p) == HS_OK);
    CHECK(rg_at(&m, 1e-3, &how, &dg) == HS_OK && dg == 0);
    CHECK_RANGE(how / 1e-3, 122.74, 122.76);
    CHECK(rg_at(&m, 0.01, &how, &dg) == HS_E_RANGE_INIT && rg_who == 0);
    {   /* its release(): E - V_min = 0 + 9.81 * sum_k (0.25 + 0.5 k) = 9.81 * 16 at rest */
        hs_real R = 0;
        CHECK(m.type->release != NULL && m.type->release(&m, HS_R(0.0), rg_q, rg_u, &R) == HS_OK);
        CHECK_RANGE(R, 156.959, 156.961);
        rg_u[0] = HS_R(2.0); /* plus the kinetic energy: body 0's x' = 2 m/s, 1/2 m v^2 = 2 J */
        CHECK(m.type->release(&m, HS_R(0.0), rg_q, rg_u, &R) == HS_OK);
        CHECK_RANGE(R, 158.959, 158.961);
    }
    /* pendulum.hsm (1 kg on a 1 m rod, g = 10, from the pin's height at rest): m g L = 10 J */
    {
        hs_real R = 0;
        CHECK(hs_model_init(&m, &hs_mb_pendulum_mb_type, &rg_p) == HS_OK);
        CHECK(rg_at(&m, 1e-3, &how, &dg) == HS_OK);
        CHECK(m.type->release != NULL && m.type->release(&m, HS_R(0.0), rg_q, rg_u, &R) == HS_OK);
        CHECK_RANGE(R, 9.999999, 10.000001);
    }
    /* no potential floor known (a driver, a free body): no release() */
    CHECK(hs_mb_slider_crank_type.release == NULL && hs_mb_rigid_body_type.release == NULL);
    CHECK(hs_mb_car_hsm_type.release == NULL && hs_mb_stack_type.release == NULL);
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
