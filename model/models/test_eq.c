/* test_eq.c - the linear test equation q'' = -a q - b q' of [BAE] section 2. */
#include "hs_models.h"
#include <stddef.h>

#define P(m) ((const hs_test_eq_params *)(m)->p)

static const hs_param_info params[] = {
    {"a", offsetof(hs_test_eq_params, a), HS_R(1.0), HS_R(0.0), HS_R(1e12), "stiffness a >= 0 (1/s^2)"},
    {"b", offsetof(hs_test_eq_params, b), HS_R(0.0), HS_R(0.0), HS_R(1e12), "damping b >= 0 (1/s)"},
    {"q0", offsetof(hs_test_eq_params, q0), HS_R(1.0), HS_R(-1e12), HS_R(1e12), "initial position"},
    {"u0", offsetof(hs_test_eq_params, u0), HS_R(0.0), HS_R(-1e12), HS_R(1e12), "initial velocity"},
};

static int initial(const hs_model *m, hs_real t0, hs_real *q, hs_real *u, hs_real *z)
{
    (void)t0; (void)z;
    q[0] = P(m)->q0;
    u[0] = P(m)->u0;
    return HS_OK;
}

static int mass(const hs_model *m, hs_real t, const hs_real *q, hs_real *M)
{
    (void)m; (void)t; (void)q;
    M[0] = HS_R(1.0);
    return HS_OK;
}

static int force(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                 const hs_real *z, const hs_real *in, hs_real *f)
{
    (void)t; (void)z; (void)in;
    f[0] = -P(m)->a * q[0] - P(m)->b * u[0];
    return HS_OK;
}

static int force_jac(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                     const hs_real *z, const hs_real *in, hs_real *fq, hs_real *fu)
{
    (void)t; (void)q; (void)u; (void)z; (void)in;
    fq[0] = -P(m)->a;
    fu[0] = -P(m)->b;
    return HS_OK;
}

/* E = (u^2 + a q^2) / 2 (unit mass); conserved when b = 0, decays at rate b u^2 otherwise. */
static int energy(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                  const hs_real *z, hs_real *E)
{
    (void)t; (void)z;
    *E = HS_R(0.5) * (u[0] * u[0] + P(m)->a * q[0] * q[0]);
    return HS_OK;
}

const hs_model_type hs_test_eq_type = {
    .name = "test_eq",
    .doc = "scalar test equation q'' = -a q - b q' (Burgermeister, Arnold, Esterl sec. 2)",
    .nq = HS_TEST_EQ_NQ,
    .nc = HS_TEST_EQ_NC,
    .nz = HS_TEST_EQ_NZ,
    .nin = 0,
    .nout = 0,
    .params = params,
    /* MISRA Ref 10.8.1 [table length, compile-time constant] */
    .nparams = (int)(sizeof params / sizeof params[0]),
    .param_size = sizeof(hs_test_eq_params),
    .initial = initial,
    .mass = mass,
    .force = force,
    .force_jac = force_jac,
    .energy = energy,
};
