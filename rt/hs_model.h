/* hs_model.h - the interface a multibody model offers to the stepper.
 *
 * A model is the constrained second-order system
 *     q' = u,   M(t,q) u' = f(t,q,u,z,in) + G(t,q)^T lambda,   0 = g(t,q)
 * plus nz first-order auxiliary states z' = fz(t,q,u,z,in) (controller integrators, actuator
 * lags) that the stepper advances explicitly, partitioned from the mechanics.
 * The multiplier sign is +G^T lambda (the car axle test set's convention). Matrices are
 * packed by the model's block pattern (hs_blocks; dense row-major for a model without one). Time-dependent (rheonomic) constraints are described by g_t = dg/dt at
 * fixed q and by gamma, the acceleration-level remainder: d2/dt2 g = G u' + gamma.
 *
 * A model type is const data (sizes, functions, parameter table); an instance binds a type
 * to one parameter block, so several instances with different parameters can coexist. */
#ifndef HS_MODEL_H
#define HS_MODEL_H

#include "hs_types.h"

struct hs_model;

/* One unilateral row of a model: a contact normal, an end stop or a friction direction
 * (rt/hs_contact.h solves them; model/CONTACT.md has the equations). */
typedef struct hs_ct_row {
    int kind;   /* HS_CT_NORMAL: impulse >= 0 against gap phi; HS_CT_FRICTION: bounded by mu and the normal's */
    int normal; /* HS_CT_FRICTION: index of the first normal row of its contact */
    int ngroup; /* HS_CT_FRICTION: normal rows of its contact: normal, normal + stride, ... */
    int stride; /* HS_CT_FRICTION: rows between them; the bound is mu times their mean impulse */
    int box;    /* HS_CT_FRICTION: 1 box (bound mu times the normal impulse of the previous step), 0 pyramid */
    hs_real mu; /* HS_CT_FRICTION: friction coefficient (dimensionless, >= 0) */
    hs_real e;  /* HS_CT_NORMAL: restitution coefficient in [0, 1] */
    int q0, q1; /* coordinates [q0, q1) outside which the row's J and its response M_c^-1 J^T
                 * under the joints are zero (its bodies and all joined to them); q1 = 0: all */
} hs_ct_row;
#define HS_CT_NORMAL 0
#define HS_CT_FRICTION 1

/* One free rigid body of a free-body model: coordinates (x, y, z, p0..p3) from qoff (p a unit
 * quaternion w, x, y, z; velocities their rates). */
typedef struct hs_fb_body {
    int qoff;           /* first of its 7 coordinates */
    hs_real mass;       /* kg, > 0 */
    hs_real inertia[3]; /* principal moments about the body axes, kg m^2, > 0 */
} hs_fb_body;

/* A model made only of free spatial bodies under uniform gravity: no joint and no force
 * element; its nc = nb constraints are the quaternion norms, row k for body k. */
typedef struct hs_fb_info {
    int nb;                 /* bodies */
    const hs_fb_body *body; /* (nb), owned by the model instance or its type */
    hs_real gravity[3];     /* m/s^2, world */
} hs_fb_info;

/* One contact point of a free-body model (hs_fb_info): which unilateral rows it carries and
 * between which bodies; ct_points() gives its geometry at q (HS_CT_PT reals, world axes). */
typedef struct hs_ct_point {
    int row;  /* its normal row; its tangent rows row + 1, row + 2 when nrow = 3 */
    int nrow; /* 1 (normal only) or 3 (normal, tangent t1, tangent t2) */
    int a, b; /* bodies (hs_fb_info order) the normal pushes apart, b -1 for the ground */
} hs_ct_point;
/* Reals per point of ct_points(), in this order: lever arms ra, rb (m, world: the contact
 * point on a minus a's centre, on b minus b's; rb 0 for the ground), unit normal n from b
 * to a, unit tangents t1, t2 (world; n, t1, t2 the directions of rows row, row + 1, row + 2,
 * so J u of a row is its direction dotted with (v_a + w_a x ra) - (v_b + w_b x rb)), gap phi
 * (m, negative: penetration). */
#define HS_CT_PT 16
#define HS_CT_PT_RA 0
#define HS_CT_PT_RB 3
#define HS_CT_PT_N 6
#define HS_CT_PT_T1 9
#define HS_CT_PT_T2 12
#define HS_CT_PT_PHI 15

/* One rigid body's coordinates for the error metric (rt/METHODS.md "At the points a
 * description names"): nx translations (m) from q0, then nr rotation coordinates (1: a planar
 * angle, rad; 4: a unit quaternion w, x, y, z), and the points on it the description names. A
 * difference dq moves a named point s by dx + dth x (R s) to first order (m; dth the turn,
 * 2 E(p) dp for a quaternion); the body reads the largest of those, |dx|_2, |dx|_2 + w |dth|
 * (the points of its shapes, within w of the centre) and, for a planar angle or a body with
 * nothing named, |dth| (rad), for points on one line its turn about that line (rad). */
typedef struct hs_err_group {
    int q0;    /* first coordinate of the body (0 .. nq - 1) */
    int nx;    /* translations: 0, 2 or 3 */
    int nr;    /* rotation coordinates after them: 0, 1 or 4 */
    hs_real w; /* m: the farthest extent of the body's shapes (and of named points beyond
                * pts) from its centre, read as a bound; >= 0 */
    int np;    /* named points in pts */
    const hs_real *pts; /* (3 np) their body-frame offsets (m; a planar body's z is 0) */
    hs_real axis[3];    /* a quaternion body whose named points lie on one line through its
                         * centre: that line's body-frame unit direction, whose turn no point
                         * shows and which is read in rad; 0, 0, 0: none */
} hs_err_group;

/* Sizes of one model instance. A type's nq..nout are its capacities (compile-time maxima);
 * a type whose sizes follow its parameters (a chain's link count, a multibody description)
 * reports the instance's sizes through dims(). */
typedef struct hs_dims {
    int nq;   /* positions = velocities (q' = u; quaternion bodies embed, see model/mb/hs_mb.h) */
    int nc;   /* holonomic constraints */
    int nz;   /* first-order auxiliary states */
    int nin;  /* input signals */
    int nout; /* output signals */
} hs_dims;

/* Block sparsity of a model's matrices. q is split into nqb consecutive blocks (a body's
 * coordinates, say) and the constraints into ncb consecutive blocks (a joint's equations).
 * The nq x nq matrices M, fq, fu and the curvature K all use the block list qq; G uses cq.
 * A model that declares blocks writes every matrix "packed": the listed blocks one after the
 * other in list order, each dense row-major. A model without blocks is one block each way,
 * and packed is then plain dense row-major, so both kinds share one convention. */
typedef struct hs_blocks {
    int nqb;       /* number of position blocks, >= 1 */
    int ncb;       /* number of constraint blocks, >= 1 when nc > 0, else 0 */
    int nqq;       /* nonzero blocks of the nq x nq matrices, every diagonal block included */
    int ncq;       /* nonzero blocks of G (nc x nq) */
    const int *qb; /* (nqb + 1) first position of each block; qb[nqb] = nq */
    const int *cb; /* (ncb + 1) first constraint of each block; cb[ncb] = nc */
    const int *qq; /* (2 nqq) (row block, column block) of each nonzero nq x nq block */
    const int *cq; /* (2 ncq) (constraint block, position block) of each nonzero G block */
} hs_blocks;

/* One tunable parameter: name, offset of its hs_real in the parameter block, bounds. */
typedef struct hs_param_info {
    const char *name;   /* key for --param KEY=VALUE */
    size_t offset;      /* byte offset of the hs_real in the parameter block */
    hs_real def;        /* default value */
    hs_real min, max;   /* inclusive admissible range */
    const char *doc;    /* one line: meaning and unit */
} hs_param_info;

/* What sets a motion bound (hs_model_type.motion's *who): nothing, or joint k (k >= 0) encoded
 * below -1 so that body indices keep >= 0; HS_WHO_JOINT_OF inverts it. */
#define HS_WHO_NONE (-1)
#define HS_WHO_JOINT(k) (-(k) - 2)
#define HS_WHO_JOINT_OF(w) (-(w) - 2)

/* The const description of one model. Functions return HS_OK or a negative hs_status. */
typedef struct hs_model_type {
    const char *name;          /* CLI name, e.g. "car_axle" */
    const char *doc;           /* one line description */
    int nq;                    /* positions = velocities (capacity when dims is set) */
    int nc;                    /* holonomic constraints (0 for an ODE; capacity when dims is set) */
    int nz;                    /* first-order auxiliary states (capacity when dims is set) */
    int nin;                   /* input signals (capacity when dims is set) */
    int nout;                  /* output signals (capacity when dims is set) */
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
    /* Optional: f, fq and fu at one point in one call (nq, nq x nq, nq x nq), the same bits as
     * force() and force_jac() there; for a model whose force evaluation carries its partials
     * anyway (a tire's forward mode: one evaluation per wheel instead of two). NULL = force()
     * then force_jac(). */
    int (*force_fj)(const struct hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                    const hs_real *z, const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu);
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

    /* ---- optional (NULL = not provided) ---- */
    /* Instance sizes from the parameters; each must stay within the type's capacities. */
    int (*dims)(const struct hs_model *m, hs_dims *d);
    /* Block sparsity into b, pointing into buf (nbuf ints, the caller's); HS_E_SIZE when nbuf
     * is too small. NULL = dense (one block). */
    int (*blocks)(const struct hs_model *m, hs_blocks *b, int *buf, int nbuf);
    /* Constraint curvature (geometric stiffness) K = d(G(t,q)^T lambda)/dq (nq x nq, packed)
     * for multipliers lambda (nc, force units, +G^T lambda); NULL = the stepper differences
     * constraint() a fixed number of times. */
    int (*curvature)(const struct hs_model *m, hs_real t, const hs_real *q,
                     const hs_real *lambda, hs_real *K);
    /* Total energy E (J): kinetic plus the potentials of the conservative forces (the model's
     * doc says what is left out, e.g. a controller's work); NULL where none is defined. */
    int (*energy)(const struct hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                  const hs_real *z, hs_real *E);
    /* Constant data shared by the type's functions, so one set of functions can serve a family
     * of types (the rod models); NULL when none. */
    const void *data;
    /* Pieces of the discrete Euler-Lagrange equations for a mass matrix that depends on q
     * (method dvp, [WM] sec. 4): at (t, q, u) F = f + M'(q)[u] u (nq; the applied forces
     * plus dT/dq, i.e. force() without its -M'(q)[u] u), Fq = dF/dq and Fu = dF/du (packed
     * nq x nq, both NULL or both set) and Mq = d(M(q) u)/dq (packed nq x nq); F and Mq may be
     * NULL. NULL function = M does not depend on q (then F = f, Fq = fq, Fu = fu, Mq = 0). */
    int (*lagrange)(const struct hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                    const hs_real *z, const hs_real *in, hs_real *F, hs_real *Fq, hs_real *Fu,
                    hs_real *Mq);
    /* 1 when force_jac's fq and fu and curvature()'s K are exactly (bitwise) symmetric at every
     * point, e.g. constant forces or a Hessian with only diagonal entries: a step matrix built
     * from them and M is then symmetric and the sparse backend factors it as L D L^T, with the
     * same values as L D U at half the work. 0 (the default) = not known. */
    int symmetric_jac;
    /* 1 when M is exactly zero in every off-diagonal block of the list qq at every point (the
     * bodies of a description in absolute coordinates: no inertia couples two of them): the
     * projection system [[M, G^T], [G, 0]] then leaves those blocks, which only the step
     * matrix's fq, fu and K fill, out of its sparse pattern. 0 (the default) = not known. */
    int mass_blockdiag;
    /* Optional: leaf (ncb ints, the constraint blocks of blocks()) the position block of the
     * leaf body whose rows a constraint block holds, or -1: a body whose every row but its own
     * (a quaternion norm) joins it to one other body, by joints of the two alone (no ground
     * reference), so those rows have full rank on the leaf's coordinates wherever G has. The
     * sparse backend may then eliminate them after the leaf, before the other body (a wheel's
     * suspension rows before the chassis: less fill). NULL = none known. */
    int (*leaf_rows)(const struct hs_model *m, int *leaf);
    /* Optional: the entries of the packed block matrices that are exactly zero at every point:
     * qq_mask (nA ints, packed like M) 0 where M, fq, fu, the curvature and lagrange()'s Fq, Fu
     * and Mq are all zero, cq_mask
     * (nG ints, packed like G) 0 where G is; 1 elsewhere (a planar body's diagonal mass block,
     * a joint's G block with its identity part). The sparse backend then leaves them out of
     * the pattern (rt/hs_linsys.h hs_linsys_def qmask, cmask). NULL = every entry may be nonzero. */
    int (*masks)(const struct hs_model *m, int *qq_mask, int *cq_mask);
    /* Optional: G (packed), gamma (nc) and, when lambda (nc) and K are not NULL, the curvature
     * K = d(G^T lambda)/dq (packed) at one point in one call, with exactly the values of
     * constraint(), gamma() and curvature() (a model computes what they share once: a rod's
     * sin and cos). NULL = the stepper calls them one by one. */
    int (*constraint_all)(const struct hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                          const hs_real *lambda, hs_real *G, hs_real *gam, hs_real *K);
    /* Unilateral rows (contacts, end stops, friction): nk fixed slots, ct_rows (nk) their
     * kinds, unilateral() their Jacobians J (nk x nq, dense row-major, velocity units per
     * impulse: J u is the row's relative velocity) and gaps phi (nk, m or rad; friction rows
     * 0) at (t, q); only the entries of J inside each row's range [q0, q1) (hs_ct_row) need
     * be written, the stage reads nothing outside it. nk = 0: none (rt/hs_contact.h). */
    int nk;
    const hs_ct_row *ct_rows;
    int (*unilateral)(const struct hs_model *m, hs_real t, const hs_real *q, hs_real *J, hs_real *phi);
    int ct_sweeps; /* projected Gauss-Seidel sweeps per step (fixed), >= 0; 0: the stage's own (rt/hs_contact.h HS_CT_SWEEPS_FB, _GEN) */
    /* Per-constraint compliance c (nc; m/N for a length row, rad/(N m) for an angle) and
     * damping d (nc; N s/m, N m s/rad) the model declares; a negative entry = not declared
     * (the stepper's reg_eps / reg_damp apply). NULL = nothing declared (model/COMPLIANCE.md). */
    int (*compliance)(const struct hs_model *m, hs_real *c, hs_real *d);
    /* The last nhol constraint rows are velocity-level (nonholonomic, Pfaffian J(q) u + j_t = 0):
     * g returns 0 for them, G holds J, g_t holds j_t and gamma = dJ/dt u + dj_t/dt, so the
     * stepper's velocity rows, projections and curvature treat them like any row. 0 = none. */
    int nhol;
    /* A bound on the free motion from the state (t, q, u), for the default method's range
     * check at init (rt/METHODS.md "Where a method stops"): *omega (rad/s) at least the fastest
     * rate at which a body, and with it a constraint direction, can turn with all the energy
     * the model can release, or for bodies whose rate spin() reports (checked at every step)
     * their rate at the state; *degenerate = 1 when its constraints can become dependent on the
     * way (a closed loop that can fold flat), else 0. NULL: nothing known, no check. (A
     * driven description with compliant joints gives its dead-centre rate: model/mb/hs_mb_motion.c.)
     * *who names what sets omega: a body index >= 0, HS_WHO_JOINT(k) for joint k, HS_WHO_NONE. */
    int (*motion)(const struct hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                  hs_real *omega, int *degenerate, int *who);
    /* Optional: fills fb and returns HS_OK when the model is a free-body model (hs_fb_info);
     * NULL or any other return: the generic path. */
    int (*free_bodies)(const struct hs_model *m, hs_fb_info *fb);
    /* Optional, with free_bodies: the nk unilateral rows as ct_npoints contact points, ct_pts
     * (ct_npoints) their rows and bodies in row order (together every row once), and
     * ct_points() their geometry at (t, q) into geo (HS_CT_PT x ct_npoints), the same points,
     * directions and gaps as unilateral() (rt/hs_contact_fb.c then works in body velocities). */
    int ct_npoints;
    const hs_ct_point *ct_pts;
    int (*ct_points)(const struct hs_model *m, hs_real t, const hs_real *q, hs_real *geo);
    /* Optional: *w (rad/s) the fastest rotation rate of any body at (q, u) (a quaternion body's
     * |2 G(p) p'|, a jointed rod's theta'), and *body the index of the body that has it (-1: none),
     * for the default method's in-step range check on its result (rt/METHODS.md "Where a method
     * stops"). NULL: no rotating coordinates or directions the stepper cannot see. */
    int (*spin)(const struct hs_model *m, const hs_real *q, const hs_real *u, hs_real *w, int *body);
    /* Optional: *E (J) the energy the model can release from (t, q, u), E - V_min with V_min
     * its potential's floor: the scale hilstep-sim judges the energy error by (a run off by
     * more than 10 % of it is inaccurate; rt/METHODS.md "Where a method stops"). NULL: none. */
    int (*release)(const struct hs_model *m, hs_real t, const hs_real *q, const hs_real *u, hs_real *E);
    /* Optional: the model's unit quaternions (w, x, y, z) among q, each 4 consecutive
     * coordinates whose velocities are their rates: returns how many and points *off at their
     * first indices (the model's own list). The default method moves them on the rotation
     * group by their body rates w = 2 G(p) p' instead of along straight lines in R^4
     * (rt/hs_sdirk.c "Quaternions"). NULL: none. */
    int (*quats)(const struct hs_model *m, const int **off);
    /* Optional: the bodies of the error metric (hs_err_group), which together cover every
     * coordinate once, in order: returns how many and points *g at them (the model's own list).
     * The stepper's err_est and hs_stepper_err_dist then measure a body's position error at its
     * points and its turn, not coordinate by coordinate. NULL: every coordinate on its own. */
    int (*err_groups)(const struct hs_model *m, const hs_err_group **g);
} hs_model_type;

/* A model instance: a type, its parameter block (param_size bytes, owned by the caller), an
 * optional description the type's functions read (multibody tables; NULL for hand-written
 * models) and the instance's sizes, kept current by init and set_param. */
/* A model function's return as a stepper status: HS_OK, its own negative hs_status, or
 * HS_E_MODEL for a positive (model-specific) code. */
/* MISRA Ref 10.4.5 [a model hook's int code: HS_OK, its own negative hs_status, or HS_E_MODEL] */
static inline hs_status hs_model_rc(int rc) { return rc == (int)HS_OK ? HS_OK : (rc < 0 ? rc : HS_E_MODEL); }

typedef struct hs_model {
    const hs_model_type *type;
    void *p;
    const void *desc;
    hs_dims d;
} hs_model;

/* Binds type to the caller's parameter block and fills it with the defaults. */
hs_status hs_model_init(hs_model *m, const hs_model_type *type, void *param_block);
/* Sets parameter `name` to `value` after its range check and the sizes it implies (dims);
 * unknown name or bad value leave the instance as it was. */
hs_status hs_model_set_param(hs_model *m, const char *name, hs_real value);
/* Reads parameter `name` into *value. */
hs_status hs_model_get_param(const hs_model *m, const char *name, hs_real *value);
/* Runs every range check and the type's cross-check; HS_OK when the instance is usable. */
hs_status hs_model_check(const hs_model *m);

/* Sizes of the blocks listed in b: reals of a packed nq x nq matrix, of a packed G. */
int hs_blocks_qq_size(const hs_blocks *b);
int hs_blocks_cq_size(const hs_blocks *b);
/* The one-block pattern of a dense model of sizes d into b, pointing into buf (>= 8 ints). */
hs_status hs_blocks_dense(const hs_dims *d, hs_blocks *b, int *buf, int nbuf);

#endif
