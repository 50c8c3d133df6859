/* hs_stepper.h - the fixed-cost stepper: partitioned linear-implicit Euler (seed 004) and its
 * explicit / semi-implicit Euler baselines, index-1 and index-2 formulations, Baumgarte
 * stabilization and one-Newton-step projection.
 *
 * One step is a fixed sequence: one mass-matrix and force evaluation, the Jacobian blocks
 * (analytic, or finite differences with a fixed count of force evaluations), one LU
 * factorization of the (nq+nc) step matrix, and, with projection, one LU factorization of the
 * (nq+nc) projection matrix at q_{n+1} (kept for the next step's position projection, which
 * the paper's eq. 11 evaluates at q_n). No loop runs to a tolerance; loop counts depend on
 * the model sizes only. The step is transactional: it works in scratch and commits the new
 * state only when every pivot and value is finite, otherwise it returns a fault and leaves
 * the stepper bit-for-bit unchanged.
 *
 * Memory: the caller provides two arenas sized by HS_STEPPER_REALS / HS_STEPPER_INTS from the
 * model's compile-time sizes; nothing is allocated. */
#ifndef HS_STEPPER_H
#define HS_STEPPER_H

#include "hs_model.h"

/* Integration method. Positions-first methods set q_{n+1} = q_n + h u_n (eq. 3/6a);
 * velocities-first ones set q_{n+1} = q_n + h u_{n+1}. */
typedef enum hs_method {
    HS_METHOD_EXPLICIT = 0,   /* explicit Euler: A = M, positions first */
    HS_METHOD_SYMPLECTIC = 1, /* semi-implicit Euler (seed 003, veDYNA order): A = M, velocities first */
    HS_METHOD_J1 = 2,         /* J1: A = M - h fu, rhs f + h fq u_n, positions first */
    HS_METHOD_J2 = 3,         /* J2: A = M - h fu - h^2 fq, rhs f + h fq u_n, positions first */
    HS_METHOD_J3 = 4,         /* J3: A = M, rhs f + h (fq u_n) (one directional derivative) */
    HS_METHOD_JEXACT = 5      /* exact J: J2's matrix, velocities first (equivalent to eq. 3) */
} hs_method;
#define HS_METHOD_COUNT 6

/* Which constraint level determines the multipliers. */
typedef enum hs_form {
    HS_FORM_INDEX1 = 0, /* acceleration level G u' + gamma = 0 at t_n (5c) */
    HS_FORM_INDEX2 = 1, /* velocity level G u_{n+1} + g_t = 0 at t_{n+1} (eq. 6b) */
    HS_FORM_GGL = 2     /* Gear-Gupta-Leimkuhler (eq. 9, sec. 3.3): q* = q_n + h u_n projected by
                         * one Newton step of eq. 11, then eq. 6b at the projected q_{n+1};
                         * positions-first methods only, stabilization none (it is built in) */
} hs_form;

/* Constraint stabilization. */
typedef enum hs_stab {
    HS_STAB_NONE = 0,
    HS_STAB_BAUMGARTE = 1,  /* index-1: + 2 alpha g' + beta g; index-2: + alpha g (sec. 3.2) */
    HS_STAB_PROJECTION = 2  /* one Newton step on positions (eq. 11, M-norm), then velocities (sec. 3.4) */
} hs_stab;

/* Where the force Jacobian blocks fq, fu come from. */
typedef enum hs_jac {
    HS_JAC_AUTO = 0,     /* analytic when the model has force_jac, else finite differences */
    HS_JAC_ANALYTIC = 1, /* the model's force_jac; rejected when it has none */
    HS_JAC_FD = 2        /* forward differences: 2 nq force evaluations (1 for J3) */
} hs_jac;

/* Stepper configuration; fill with hs_stepper_default_def() then change fields. */
typedef struct hs_stepper_def {
    hs_method method;
    hs_form form;
    hs_stab stab;
    hs_jac jac;
    hs_real h;        /* step size (s), > 0 */
    hs_real alpha;    /* Baumgarte alpha (1/s), > 0 with HS_STAB_BAUMGARTE; index-2 needs h alpha <= 2 */
    hs_real beta;     /* Baumgarte beta (1/s^2), > 0 with HS_STAB_BAUMGARTE and index-1 */
    hs_real fd_rel;   /* relative finite-difference increment (dimensionless), > 0 */
} hs_stepper_def;

/* Defaults: J2, index-2, projection, automatic Jacobian, h = 1 ms, alpha = 1/h, beta = 1/h^2,
 * fd_rel = sqrt(eps). */
hs_stepper_def hs_stepper_default_def(void);

/* Checks def alone and against model m (sizes, Jacobian availability); HS_OK or a HS_E_DEF_* code. */
int hs_stepper_def_validate(const hs_stepper_def *def, const hs_model *m);

/* Reals of workspace for sizes nq, nc, nz (compile-time constant expression). */
#define HS_STEPPER_REALS(nq, nc, nz) \
    (4 * (nq) + 2 * (nz) + 2 * (nc) /* q,u,z,lambda committed + new */ \
     + 3 * ((nq) + (nc)) * ((nq) + (nc)) /* step matrix, projection factor committed + new */ \
     + 3 * (nq) * (nq) /* M, fq, fu */ \
     + 2 * (nc) * (nq) /* G at two positions */ \
     + 6 * (nq) + 4 * ((nq) + (nc)) + 6 * (nc) + (nz) /* vectors */)
/* Ints of workspace (pivot permutations) for sizes nq, nc. */
#define HS_STEPPER_INTS(nq, nc) (3 * ((nq) + (nc)))

/* Counters a HIL engineer reads after a run. */
typedef struct hs_stepper_stats {
    uint64_t steps;          /* committed steps */
    uint64_t faults;         /* refused steps (state untouched) */
    int last_fault;          /* hs_status of the last refused step, 0 if none */
    uint64_t force_evals;    /* model force() calls, including finite differences */
    uint64_t factorizations; /* LU factorizations */
} hs_stepper_stats;

/* The stepper: configuration, committed state and views into the caller's arenas. */
typedef struct hs_stepper {
    hs_stepper_def def;
    const hs_model *model;
    int nq, nc, nz, nin, n; /* n = nq + nc */
    int ready;              /* 1 after a successful init */
    hs_real t;              /* time of the committed state (s) */
    hs_real t0;             /* time of the last init/set_state (s); t = t0 + k h avoids summing h */
    uint64_t k;             /* steps since the last init/set_state */
    hs_real *q, *u;         /* (nq) committed positions, velocities */
    hs_real *z;             /* (nz) committed auxiliary states */
    hs_real *lambda;        /* (nc) multipliers of the last step (force units, +G^T lambda) */
    hs_real *P;             /* (n x n) LU of the projection matrix at q (valid when stab = projection) */
    int *Pp;                /* (n) its pivots */
    hs_real *qn, *un, *zn, *lamn, *Pn; /* new state being computed; swapped with the committed one */
    int *Ppn;
    hs_real *w;             /* scratch reals */
    int *wi;                /* scratch ints */
    hs_stepper_stats stats;
} hs_stepper;

/* Validates def and model, binds the arenas (reals: HS_STEPPER_REALS, ints: HS_STEPPER_INTS),
 * and sets the state from the model's initial values at t0. */
int hs_stepper_init(hs_stepper *s, const hs_stepper_def *def, const hs_model *m, hs_real t0,
                    hs_real *reals, size_t nreals, int *ints, size_t nints);

/* Replaces the state (t, q (nq), u (nq), z (nz), may be NULL when nz = 0) and refreshes the
 * cached projection factorization; on any fault the stepper is unchanged. */
int hs_stepper_set_state(hs_stepper *s, hs_real t, const hs_real *q, const hs_real *u,
                         const hs_real *z);

/* Advances one step of size def.h with inputs in (nin; NULL allowed when nin = 0) held over
 * the step. HS_OK, or a fault code with the stepper unchanged except stats.faults/last_fault. */
int hs_stepper_step(hs_stepper *s, const hs_real *in);

/* Constraint residuals g(t,q) (nc) of the committed state. */
int hs_stepper_residual(const hs_stepper *s, hs_real *g);

/* Model outputs (nout) of the committed state with inputs in (nin). */
int hs_stepper_outputs(const hs_stepper *s, const hs_real *in, hs_real *y);

/* Folds the committed state's bits (q, u, z in that order) into the FNV-1a hash h; called
 * after every step it gives the pinned trajectory hash `trajectory-hash ...`. */
uint64_t hs_stepper_hash(const hs_stepper *s, uint64_t h);

/* Short names used by the CLI: "explicit", "symplectic", "j1", "j2", "j3", "jexact". */
const char *hs_method_name(hs_method m);
/* "index1", "index2", "ggl". */
const char *hs_form_name(hs_form f);
/* "none", "baumgarte", "projection". */
const char *hs_stab_name(hs_stab s);

#endif
