/* hs_model.h - the interface a multibody model offers to the stepper.
 *
 * A model is the constrained second-order system
 *     q' = u,   M(t,q) u' = f(t,q,u,z,in) + G(t,q)^T lambda,   0 = g(t,q)
 * plus nz first-order auxiliary states z' = fz(t,q,u,z,in) (controller integrators, actuator
 * lags) that the stepper advances explicitly, partitioned from the mechanics.
 * The multiplier sign is +G^T lambda (the car axle test set's convention). All matrices are
 * dense, row-major. Time-dependent (rheonomic) constraints are described by g_t = dg/dt at
 * fixed q and by gamma, the acceleration-level remainder: d2/dt2 g = G u' + gamma.
 *
 * A model type is const data (sizes, functions, parameter table); an instance binds a type
 * to one parameter block, so several instances with different parameters can coexist. */
#ifndef HS_MODEL_H
#define HS_MODEL_H

#include "hs_types.h"

struct hs_model;

/* One tunable parameter: name, offset of its hs_real in the parameter block, bounds. */
typedef struct hs_param_info {
    const char *name;   /* key for --param KEY=VALUE */
    size_t offset;      /* byte offset of the hs_real in the parameter block */
    hs_real def;        /* default value */
    hs_real min, max;   /* inclusive admissible range */
    const char *doc;    /* one line: meaning and unit */
} hs_param_info;

/* The const description of one model. Functions return HS_OK or a negative hs_status. */
typedef struct hs_model_type {
    const char *name;          /* CLI name, e.g. "car_axle" */
    const char *doc;           /* one line description */
    int nq;                    /* positions = velocities */
    int nc;                    /* holonomic constraints (0 for an ODE) */
    int nz;                    /* first-order auxiliary states */
    int nin;                   /* input signals */
    int nout;                  /* output signals */
    const hs_param_info *params; /* (nparams) parameter table */
    int nparams;
    size_t param_size;         /* bytes of the parameter block */
    const char *const *in_names;  /* (nin) input names with units, or NULL */
    const char *const *out_names; /* (nout) output names with units, or NULL */

    /* Cross-checks parameters after they were set one by one (ranges are checked already). */
    int (*check)(const struct hs_model *m);
    /* Consistent initial state at t0: q0, u0 (nq), z0 (nz). */
    int (*initial)(const struct hs_model *m, hs_real t0, hs_real *q0, hs_real *u0, hs_real *z0);
    /* Mass matrix M (nq x nq), symmetric positive definite. */
    int (*mass)(const struct hs_model *m, hs_real t, const hs_real *q, hs_real *M);
    /* Applied forces f (nq); may depend on inputs in (nin) and auxiliary states z (nz). */
    int (*force)(const struct hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                 const hs_real *z, const hs_real *in, hs_real *f);
    /* Optional analytic force Jacobians fq = df/dq, fu = df/du (nq x nq each); NULL = use FD. */
    int (*force_jac)(const struct hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                     const hs_real *z, const hs_real *in, hs_real *fq, hs_real *fu);
    /* Constraints: g (nc), G = dg/dq (nc x nq), gt = dg/dt (nc); any output may be NULL.
     * Required when nc > 0. */
    int (*constraint)(const struct hs_model *m, hs_real t, const hs_real *q,
                      hs_real *g, hs_real *G, hs_real *gt);
    /* Acceleration remainder gamma (nc): d2/dt2 g(t,q(t)) = G u' + gamma. Required when nc > 0. */
    int (*gamma)(const struct hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                 hs_real *gamma);
    /* Auxiliary state derivative zdot (nz); NULL when nz == 0. */
    int (*zdot)(const struct hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                const hs_real *z, const hs_real *in, hs_real *zd);
    /* Outputs y (nout) for the HIL frame; NULL when nout == 0. */
    int (*output)(const struct hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                  const hs_real *z, const hs_real *in, hs_real *y);
} hs_model_type;

/* A model instance: a type and its parameter block (param_size bytes, owned by the caller). */
typedef struct hs_model {
    const hs_model_type *type;
    void *p;
} hs_model;

/* Binds type to the caller's parameter block and fills it with the defaults. */
int hs_model_init(hs_model *m, const hs_model_type *type, void *param_block);
/* Sets parameter `name` to `value` after its range check; unknown name or bad value leave it. */
int hs_model_set_param(hs_model *m, const char *name, hs_real value);
/* Reads parameter `name` into *value. */
int hs_model_get_param(const hs_model *m, const char *name, hs_real *value);
/* Runs every range check and the type's cross-check; HS_OK when the instance is usable. */
int hs_model_check(const hs_model *m);

#endif
