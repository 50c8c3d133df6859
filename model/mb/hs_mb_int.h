/* hs_mb_int.h - internals shared by the multibody layer's files (bodies, joints, forces). */
#ifndef HS_MB_INT_H
#define HS_MB_INT_H

#include "hs_mb.h"

/* Constraint row kinds. */
enum {
    HS_MB_ROW_DOT = 0,   /* (r0 - r1) . (r2 - r3) - value - f(t) */
    HS_MB_ROW_ANGLE = 1, /* theta_a - theta_b - value - f(t) (planar bodies) */
    HS_MB_ROW_NORM = 2,  /* p . p - 1 (spatial body) */
    HS_MB_ROW_QUAD = 3   /* r^T A r + b . r + c (point o0 on a ground quadric) */
};

/* Kinematics of one operand point: r = position, J = dr/dq of its body (3 x nb), rt and rtt
 * the explicit time derivatives (moving ground points), v = J u + rt, ac = J' u + rtt. */
typedef struct mb_pk {
    int body, nb;
    /* J's shape, so that products skip its exact zeros (spatial bodies, nb = 7): jtr 1 when
     * J(0:3, 0:3) is the identity (a point; 0: a direction, zero), else that block is zero;
     * jrot 0 when J(:, 3:7) is zero (the body's origin, a zero vector). Other kinds: 0, 0. */
    int jtr, jrot;
    hs_real r[3], rt[3], v[3], ac[3];
    hs_real J[3][7];
} mb_pk;
/* Slots of the rows' kinematics cache: shared row operands kept per evaluation (hs_mb_joint.c;
 * a slot is a bit of a 32-bit mask; the cache is this many mb_pk on the stack). */
#define MB_KCACHE 16

/* f(t), f'(t), f''(t) of a time law (any output pointer may be NULL). */
void mb_fn_eval(const hs_mb_fn *f, hs_real t, hs_real *v, hs_real *d, hs_real *dd);

/* Point kinematics at (t, q) and, when u is not NULL, velocities and J' u. */
void mb_point_kin(const hs_mb_model *mb, const hs_mb_opnd *o, hs_real t, const hs_real *q,
                  const hs_real *u, mb_pk *k);
/* mb_point_kin's r and rt only (a constraint's values without its gradient): J, v, ac zero
 * except a planar or point body's J, which costs nothing to form. */
void mb_point_pos(const hs_mb_model *mb, const hs_mb_opnd *o, hs_real t, const hs_real *q, mb_pk *k);
/* H = d(J^T F)/dq of the point's body block (nb x nb, row-major 7 x 7) for fixed F (3). */
void mb_point_hess(const hs_mb_model *mb, const hs_mb_opnd *o, const hs_real *q,
                   const hs_real *F, hs_real H[7][7]);
/* D = d(J u)/dq of the point's body block (3 x nb). */
void mb_point_dju(const hs_mb_model *mb, const hs_mb_opnd *o, const hs_real *q,
                  const hs_real *u, hs_real D[3][7]);

/* d(R(p) s)/dp (3 x 4) of the quadratic rotation formula; linear in p. */
void mb_quat_rs_jac(const hs_real *p, const hs_real *s, hs_real L[3][4]);
/* E(p) (3 x 4): ground-frame angular velocity w = 2 E(p) p'. */
void mb_quat_E(const hs_real *p, hs_real E[3][4]);
/* G(p) (3 x 4): body-frame angular velocity w_b = 2 G(p) p'. */
void mb_quat_G(const hs_real *p, hs_real G[3][4]);

/* Matrix accumulation into the dense or packed nq x nq matrix A: A(bi:i, bj:j) += v. */
void mb_qq_add(const hs_mb_model *mb, hs_real *A, int bi, int i, int bj, int j, hs_real v);
/* A(body of L, body of R) += s J_L^T X J_R, X (3 x 3) or identity when X is NULL. */
void mb_add_jxj(const hs_mb_model *mb, hs_real *A, const mb_pk *L, hs_real (*X)[3],
                const mb_pk *R, hs_real s);
/* A(L, R) += s J_L^T J_R and A(R, L) += s J_R^T J_L (the same values as the two mb_add_jxj). */
void mb_add_jtj_pair(const hs_mb_model *mb, hs_real *A, const mb_pk *L, const mb_pk *R, hs_real s);
/* A(body of L, body of R) += s J_L^T X D, D (3 x nb of R's body). */
void mb_add_jxd(const hs_mb_model *mb, hs_real *A, const mb_pk *L, hs_real (*X)[3],
                const hs_real D[3][7], int body, int nb, hs_real s);
/* The rows of J_L^T X (X NULL: the identity) of a point, formed once for several products:
 * ok[i] 0 where row i is zero (nb of them; JX (7 x 3) holds the others). */
typedef struct mb_jx {
    int ok[7];
    hs_real JX[7][3];
} mb_jx;
void mb_jx_rows(const mb_pk *L, hs_real (*X)[3], mb_jx *o);
/* mb_add_jxj and mb_add_jxd with J_L^T X of mb_jx_rows (the same values). */
void mb_add_jxj_rows(const hs_mb_model *mb, hs_real *A, const mb_pk *L, const mb_jx *LX,
                     const mb_pk *R, hs_real s);
void mb_add_jxd_rows(const hs_mb_model *mb, hs_real *A, const mb_pk *L, const mb_jx *LX,
                     const hs_real D[3][7], int body, int nb, hs_real s);
/* A(body, body) += s H. */
void mb_add_h(const hs_mb_model *mb, hs_real *A, int body, int nb, const hs_real H[7][7], hs_real s);
/* A(body of o, body of o) += s H[F] of point o (mb_point_hess), its non-zero block only. */
void mb_add_point_hess(const hs_mb_model *mb, hs_real *A, const hs_mb_opnd *o, const hs_real *q,
                       const hs_real *F, hs_real s);
/* The block (bi, bj) of a dense or packed nq x nq matrix A: its first entry, its row stride in
 * *stride; NULL when the block is absent or a body is the ground (mb_qq_add's look-up, once). */
hs_real *mb_qq_block(const hs_mb_model *mb, hs_real *A, int bi, int bj, int *stride);
/* Zeroes A[0..n). */
void mb_zero(hs_real *A, int n);
/* Zeroes a dense or packed nq x nq matrix. */
void mb_qq_zero(const hs_mb_model *mb, hs_real *A);

/* The compiled type's own hooks and the helpers compile shares with them (hs_mb.c). */
/* HS_OK when m carries a compiled description, else HS_E_MODEL_PARAM. */
int hs_mb_fn_check(const hs_model *m);
/* The block pattern of a packed model into *b (buf, nbuf unused: it lives in the model). */
int hs_mb_fn_blocks(const hs_model *m, hs_blocks *b, int *buf, int nbuf);
/* q, u (nq each) of the bodies' initial positions and velocities. */
void mb_initial_state(const hs_mb_model *mb, hs_real *q, hs_real *u);
/* Lines of the output quantity kind of entry index; -1 when that entry has none. */
int mb_line_count(const hs_mb_model *mb, hs_mb_output_kind kind, int index);
/* Lines of output o (1 for a single component); -1 when it has none. */
int mb_output_count(const hs_mb_model *mb, const hs_mb_output *o);

/* Joints (hs_mb_joint.c). */
hs_status mb_constraint(const hs_mb_model *mb, hs_real t, const hs_real *q, hs_real *g, hs_real *G,
                  hs_real *gt);
hs_status mb_gamma(const hs_mb_model *mb, hs_real t, const hs_real *q, const hs_real *u, hs_real *gam);
/* Accelerometer outputs (hs_mb_acc.c): u' of every coordinate at (t, q, u) with the forces f
 * (nq), solving [M G^T; G 0] for the rigid rows; HS_E_SIZE past HS_MB_ACC_MAXN, HS_E_SINGULAR. */
hs_status mb_acc_solve(const hs_mb_model *mb, hs_real t, const hs_real *q, const hs_real *u,
                       const hs_real *f, hs_real *udd);
/* The values of acc line o of body `body` (its point o->at, in o->axes) from u': count. */
int mb_acc_values(const hs_mb_model *mb, const hs_mb_output *o, int body, hs_real t, const hs_real *q,
                  const hs_real *u, const hs_real *udd, hs_real *y);
hs_status mb_curvature(const hs_mb_model *mb, hs_real t, const hs_real *q, const hs_real *lambda,
                 hs_real *K);
/* Row r's gradient restricted to `body` (nb values) times w, added into out. */
void mb_row_body_grad(const hs_mb_model *mb, int r, hs_real t, const hs_real *q, int body,
                      hs_real w, hs_real *out);
/* Builds the rows of every joint and spatial body into mb (compile). */
hs_status mb_build_rows(hs_mb_model *mb, int *bad);
/* mb->kslot: a cache slot for each row operand another row (or the same row) uses again, while
 * the MB_KCACHE slots last; -1 for the others (computed at each use). */
void mb_kslot_prepare(hs_mb_model *mb);

/* A kind's declared yes/no in the element tables below: 0 is "not declared", which mb-test's
 * walk of the tables refuses, so that a new kind states each property instead of inheriting
 * one from a test on kinds somewhere else. */
#define MB_NO 1
#define MB_YES 2
/* How the motion bound (hs_mb_motion.c) takes a joint kind: no bound with it; rigid, its
 * points coincide (a body lies within its arms of the other end); a rod, its points at the
 * joint's length (within the arms plus that length). */
#define MB_MO_NONE 1
#define MB_MO_RIGID 2
#define MB_MO_ROD 3

/* ---- the joint element table: one file model/elements/hs_mb_jt_<name>.c per kind, one row in
 * model/elements/hs_mb_elem.c. Each kind compiles to the row primitives above (DOT, ANGLE, QUAD; NORM
 * rows belong to spatial bodies); parser, compiler, outputs and generator read the table. ---- */

/* Keys of a joint line (bits of mb_joint_elem.keys / .need). */
#define MB_J_A 0x1u        /* a=POINT (the moving side) */
#define MB_J_B 0x2u        /* b=POINT */
#define MB_J_C 0x4u        /* c=POINT */
#define MB_J_D 0x8u        /* d=POINT */
#define MB_J_AXIS 0x10u    /* axis= unit vector */
#define MB_J_AXIS_B 0x20u  /* axis_b= unit vector */
#define MB_J_LENGTH 0x40u  /* length= > 0 */
#define MB_J_COORD 0x80u   /* coord=angle|travel */
#define MB_J_F 0x100u      /* f=a,b,c,w,phi set value */
#define MB_J_CIRCLE 0x200u /* circle=cx,cy,R */
#define MB_J_QUADRIC 0x400u /* quadric=Axx,Ayy,Azz,Axy,Axz,Ayz */
#define MB_J_LINEAR 0x800u /* linear=bx,by[,bz] */
#define MB_J_CONST 0x1000u /* const=c */

typedef struct mb_joint_elem {
    const char *name;   /* .hsm keyword: joint NAME <name> ... */
    const char *cname;  /* its hs_mb_joint_kind constant (generator) */
    uint32_t keys;      /* MB_J_* accepted */
    uint32_t need;      /* MB_J_* required */
    /* 0, or the MB_J_* bit of the offending key with *why set (parser and hs_mb_compile). */
    uint32_t (*check)(const hs_mb_desc *D, const hs_mb_joint *J, const char **why);
    /* Appends joint j's rows to mb->rows (HS_OK, HS_E_SIZE, HS_E_MODEL_PARAM). */
    int (*rows)(hs_mb_model *mb, int j);
    int init_value;     /* 1: the rows' set values are the initial relative configuration */
    /* The coord output: -1 none, 0 a travel (m), 1 an angle (rad). */
    int (*coord_kind)(const hs_mb_desc *D, const hs_mb_joint *J);
    /* Its value at (t, q) into *y. */
    int (*coord)(const hs_mb_model *mb, int j, hs_real t, const hs_real *q, hs_real *y);
    /* Compile-time preparation after the rows (hinge references), or NULL. */
    void (*prepare)(hs_mb_model *mb, int j);
    /* What the kind is to the rest of the layer (each declared, 0 is refused by mb-test): */
    int motion; /* MB_MO_*: what the passive motion bound takes it for */
    int drive;  /* MB_YES: with coord = 0 it prescribes a relative angle f(t), whose rate the
                 * motion bound's dead-centre rate reads */
    int stop;   /* MB_YES: an end stop may bound its coord (contact compile, parser) */
    int hinge;  /* MB_YES: a hinge (a, b, axis, axis_b) a force element's joint= may name (parser) */
    int relative; /* MB_YES: with every point it takes (keys) on its two bodies, its rows are
                   * functions of their relative pose (and t) alone, no ground reference: the
                   * rows of a leaf body (hs_mb_fn_leaf_rows) */
} mb_joint_elem;

/* The joint rows, one per row of HS_MB_JOINT_LIST (hs_mb_kinds.h), each defined in its file. */
#define MB_JT_EXTERN(id, value, row) extern const mb_joint_elem row;
HS_MB_JOINT_LIST(MB_JT_EXTERN)

/* The table, indexed by hs_mb_joint_kind (model/elements/hs_mb_elem.c). */
extern const mb_joint_elem *const mb_joint_elems[HS_MB_JOINT_KINDS];

/* Row primitives and helpers the joint files share (hs_mb_row.c, a leaf below the table). */
hs_mb_opnd mb_op_point(const hs_mb_point *p);                 /* a point of a body or ground */
hs_mb_opnd mb_op_dir(int body, const hs_real *v);             /* a body-fixed direction */
hs_mb_opnd mb_op_none(void);                                  /* the ground origin */
/* A DOT row (a - b) . (c - d) - value - f(t) of joint j; the row or NULL when full. */
hs_mb_row *mb_add_dot(hs_mb_model *mb, int j, hs_mb_opnd a, hs_mb_opnd b, hs_mb_opnd c, hs_mb_opnd d);
/* An ANGLE row theta_A - theta_B - f(t). */
hs_status mb_angle_row(hs_mb_model *mb, int j, int A, int B, const hs_mb_fn *f);
/* A QUAD row: point a of joint j on the quadric q. */
hs_status mb_quad_row(hs_mb_model *mb, int j, const hs_mb_point *a, const hs_mb_quadric *q);
/* The NORM row of spatial body b (HS_OK, HS_E_SIZE when the rows are full). */
int mb_norm_row(hs_mb_model *mb, int b);
/* dim rows: points a and b of J coincide. */
hs_status mb_coincide(hs_mb_model *mb, int j, const hs_mb_joint *J);
/* Three rows locking the relative rotation of spatial bodies A and B (B may be ground). */
hs_status mb_lock3(hs_mb_model *mb, int j, int A, int B);
/* Two unit vectors perpendicular to unit a. */
void mb_perp_pair(const hs_real *a, hs_real *u1, hs_real *u2);
/* 1 when body b (or ground) carries an orientation rotation rows can use. */
int mb_rotates(const hs_mb_desc *D, int b);
/* Unit vectors along x, y, z. */
extern const hs_real mb_ex[3][3];
/* Travel (a - b) . axis of the joint's last DOT row (axis: that row's c operand, or s when
 * not NULL, in the frame of the row's c body). */
hs_real mb_row_travel(const hs_mb_model *mb, int r, const hs_real *s, hs_real t, const hs_real *q);
/* theta_A - theta_B of planar bodies (B may be ground). */
hs_real mb_angle_diff(const hs_mb_model *mb, int A, int B, const hs_real *q);

/* Forces (hs_mb_force.c): f (nq) and, when fq/fu are not NULL, their Jacobians. */
hs_status mb_forces(const hs_mb_model *mb, hs_real t, const hs_real *q, const hs_real *u,
              const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu);
/* mb_forces with the elements' auxiliary states z (nz; NULL reads them as 0). */
hs_status mb_forces_z(const hs_mb_model *mb, hs_real t, const hs_real *q, const hs_real *u, const hs_real *z,
                const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu);
/* The elements' state rates zd (nz). */
hs_status mb_zdot(const hs_mb_model *mb, hs_real t, const hs_real *q, const hs_real *u, const hs_real *z,
            const hs_real *in, hs_real *zd);
/* Potential energy of gravity and the conservative elements (J); in NULL reads inputs as 0. */
hs_real mb_potential(const hs_mb_model *mb, hs_real t, const hs_real *q, const hs_real *in);

/* ---- the force element table: one file model/elements/hs_mb_el_<name>.c per kind, one line in
 * model/elements/hs_mb_elem.c. Parser, compiler, evaluator and generator read the table only. ---- */

/* Keys of a force line (bits of mb_force_elem.keys / .need). */
#define MB_K_A 0x1u        /* a=POINT */
#define MB_K_B 0x2u        /* b=POINT */
#define MB_K_JOINT 0x4u    /* joint=HINGE: a, b, axis, axis_b of a revolute joint */
#define MB_K_K 0x8u        /* k= stiffness (>= 0) */
#define MB_K_C 0x10u       /* c= damping (>= 0) */
#define MB_K_L0 0x20u      /* l0= rest length (>= 0) */
#define MB_K_THETA0 0x40u  /* theta0= rest angle (stored in l0) */
#define MB_K_KR 0x80u      /* kr= rotational stiffness (>= 0) */
#define MB_K_CR 0x100u     /* cr= rotational damping (>= 0) */
#define MB_K_SCALE 0x200u  /* scale= input scale */
#define MB_K_AXIS 0x400u   /* axis= unit vector */
#define MB_K_AXIS_B 0x800u /* axis_b= unit vector */
#define MB_K_IN 0x1000u    /* in=INPUT (name or index) */
#define MB_K_F 0x2000u     /* f=fx,fy[,fz] constant force (stored in v) */
#define MB_K_TAU 0x4000u   /* tau=t | tx,ty,tz constant torque (stored in v) */
#define MB_K_T 0x8000u     /* t=t0,t1,.. table breakpoints */
#define MB_K_V 0x10000u    /* v=v0,v1,.. table values */
#define MB_K_STEER 0x20000u /* steer=INPUT (stored 1 + index in in1) */
#define MB_K_ROAD 0x40000u  /* road=INPUT (stored 1 + index in in2) */
#define MB_K_MU 0x80000u    /* mu=INPUT (stored 1 + index in in3) */
#define MB_K_NORMAL 0x100000u /* normal=vertical|profile (stored in tilt) */
#define MB_K_CDA 0x200000u  /* cda= drag area (m^2, >= 0) */
#define MB_K_CLA 0x400000u  /* cla= lift area (m^2) */
#define MB_K_RHO 0x800000u  /* rho= air density (kg/m^3, > 0) */
#define MB_K_PEDAL 0x1000000u  /* pedal=p0,p1,.. an engine map's pedal levels (table p) */
#define MB_K_RATIOS 0x2000000u /* ratios=i1,i2,.. a gearbox's ratios (table v, n of them) */
#define MB_K_OUT 0x4000000u    /* out=BODY a gearbox's output shaft (stored 1 + index in bc) */
#define MB_K_LEFT 0x8000000u   /* left=BODY a differential's left wheel (1 + index in bc) */
#define MB_K_RIGHT 0x10000000u /* right=BODY its right wheel (1 + index in bd) */
#define MB_K_DATA 0x20000000u  /* data=car|truck a tire's data set (stored in tset) */
#define MB_K_CAMBER 0x40000000u /* camber=on|off a tire's camber force (stored in camb) */
#define MB_K_BORE 0x80000000u   /* bore=on|off a tire's bore torque and its state (stored in bore) */

/* One force element kind. check() returns 0, or the MB_K_* bit of the offending key with *why
 * set (static text); it runs in the parser (file:line errors) and in hs_mb_compile (tables). */
/* The most values a kind's force output line has (the output call's buffers, hs_mb.c). */
#define MB_FORCE_NVAL 7

typedef struct mb_force_elem {
    const char *name;   /* .hsm keyword: force NAME <name> ... */
    const char *cname;  /* its hs_mb_force_kind constant (generator) */
    uint32_t keys;      /* MB_K_* accepted */
    uint32_t need;      /* MB_K_* required (MB_K_A is satisfied by joint= too) */
    uint32_t (*check)(const hs_mb_desc *D, const hs_mb_force *E, const char **why);
    /* Inputs read from E->in0 on (1..3) with their name suffixes ("NAME<suffix>") into suffix. */
    int (*inputs)(const hs_mb_desc *D, const hs_mb_force *E, const char *suffix[3]);
    /* Accumulates f and, when fq is not NULL, fq and fu (f may be NULL then). */
    int (*eval)(const hs_mb_model *mb, int e, hs_real t, const hs_real *q, const hs_real *u,
                const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu);
    /* V plus the potential (J) of a conservative element at (t, q, in; in NULL = inputs 0),
     * added term by term; NULL for elements without one. */
    hs_real (*potential)(const hs_mb_model *mb, int e, hs_real t, const hs_real *q, const hs_real *in,
                         hs_real V);
    /* What the kind is to the rest of the layer (each declared, 0 is refused by mb-test): */
    int passive; /* MB_YES: passive with a potential >= 0 and no inputs (the motion bound) */
    int spring;  /* MB_YES: the law -(k (l - l0) + c l') along a - b of HS_MB_SPRING, which the
                  * fast path (hs_mb_fast.c) and the plan (hs_mb_plan.c) evaluate themselves */
    int hinge;   /* MB_YES: in 3-D it turns about a spatial hinge (axis, axis_b) whose reference
                  * conj(Q0) compile sets (mb->hinge_c) */
    int tire;    /* MB_YES: a tire: its HS_MB_OUT_TIRE lines and the vehicle output's force
                  * sum read hs_mb_tire_probe */
    /* Its HS_MB_OUT_FORCE lines (output force NAME): nval (<= MB_FORCE_NVAL) values named
     * ".<val_name> (<val_unit>)", written by values() at (t, q, u, in); nval 0 and NULLs: the
     * kind has none. */
    int nval;
    const char *const *val_name;
    const char *const *val_unit;
    int (*values)(const hs_mb_model *mb, int e, hs_real t, const hs_real *q, const hs_real *u,
                  const hs_real *in, hs_real *y);
} mb_force_elem;

/* The auxiliary first-order states of an element kind (the stepper advances them explicitly,
 * hs_model.h): a side table by kind (its force row's st = 1 in HS_MB_FORCE_LIST), so kinds
 * without states (every kind but the tire) need no entry. */
typedef struct mb_force_states {
    int nz; /* states per element, >= 1 */
    /* Their rates zd = z' (z, zd: the element's own slices). */
    int (*zdot)(const hs_mb_model *mb, int e, hs_real t, const hs_real *q, const hs_real *u,
                const hs_real *z, const hs_real *in, hs_real *zd);
    /* eval with the element's states (z: its own slice), used instead of mb_force_elem.eval. */
    int (*eval_z)(const hs_mb_model *mb, int e, hs_real t, const hs_real *q, const hs_real *u,
                  const hs_real *z, const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu);
    /* The states of element E when they depend on its keys (>= 1), NULL: nz. */
    int (*nz_of)(const hs_mb_force *E);
} mb_force_states;
/* Auxiliary states of force element E (0 without any). */
int mb_force_nz(const hs_mb_force *E);

/* The states of kinds whose row says st = 1 (hs_mb_kinds.h), each <row>_states in its file. */
/* MISRA Ref 20.10.1 [the st flag of a kind row selects its declaration] */
#define MB_ST_EXTERN(id, value, row, st) MB_ST_DECL_##st(row)
#define MB_ST_DECL_0(row)
/* MISRA Ref 20.7.1 [X-macro parameter is an identifier] */
#define MB_ST_DECL_1(row) extern const mb_force_states row##_states;
HS_MB_FORCE_LIST(MB_ST_EXTERN)
/* By hs_mb_force_kind; NULL for a kind without states (model/elements/hs_mb_elem.c). */
extern const mb_force_states *const mb_force_states_of[HS_MB_FORCE_KINDS];


/* The force rows, one per row of HS_MB_FORCE_LIST (hs_mb_kinds.h), each defined in its file. */
#define MB_EL_EXTERN(id, value, row, st) extern const mb_force_elem row;
HS_MB_FORCE_LIST(MB_EL_EXTERN)

/* The table, indexed by hs_mb_force_kind (model/elements/hs_mb_elem.c). */
extern const mb_force_elem *const mb_force_elems[HS_MB_FORCE_KINDS];
/* The bodies and axes of a hinge element (rotspring, motor): 0 or the bad key's MB_K_* bit. */
uint32_t mb_hinge_check(const hs_mb_desc *D, const hs_mb_force *E, const char **why);

/* Helpers the elements share (hs_mb_load.c, a leaf below the table). */
/* f += s J^T F of point k (no-op for ground or f = NULL). */
void mb_add_jtf(const hs_mb_model *mb, const mb_pk *k, const hs_real *F, hs_real s, hs_real *f);
/* A force F(d, d') on point a and -F on b with dF/dd = Fd, dF/dd' = Fv (3 x 3): f, fq, fu. */
void mb_pair_force(const hs_mb_model *mb, const hs_mb_opnd *oa, const hs_mb_opnd *ob,
                   const mb_pk *ka, const mb_pk *kb, const hs_real *q, const hs_real *u,
                   const hs_real *F, hs_real (*Fd)[3], hs_real (*Fv)[3],
                   hs_real *f, hs_real *fq, hs_real *fu);
/* A force F independent of q and u on point a: f += J^T F, fq += d(J^T F)/dq. */
void mb_point_load(const hs_mb_model *mb, const hs_mb_opnd *oa, const mb_pk *ka, const hs_real *q,
                   const hs_real *F, hs_real *f, hs_real *fq);
/* A ground-frame torque tau (3; planar: tau[2]) on body b with its fq (spatial: 2 E(p)^T tau). */
void mb_body_torque(const hs_mb_model *mb, int b, const hs_real *q, const hs_real *tau,
                    hs_real *f, hs_real *fq);
/* Planar torque about z on body b (ground ignored). */
void mb_add_torque(const hs_mb_model *mb, int b, hs_real tau, hs_real *f);
/* Planar relative rotation spring-damper between bodies A and B (B may be ground). */
void mb_rot_spring(const hs_mb_model *mb, int A, int B, hs_real k, hs_real c, hs_real th0,
                   const hs_real *q, const hs_real *u, hs_real *f, hs_real *fq, hs_real *fu);
/* Value of a time table at t (piecewise linear, held at the ends; a fixed scan of all rows). */
hs_real mb_table_eval(const hs_mb_table *tb, hs_real t);
/* Checks shared by the elements (1 = fine). */
int mb_is_unit3(const hs_real *v);
int mb_is_zero3(const hs_real *v);
int mb_planar_or_ground(const hs_mb_desc *D, int b);
int mb_spatial_pair(const hs_mb_desc *D, int a, int b);

/* Spatial rotation elements (hs_mb_rot.c). */
/* The hinge reference conj(Q0) (hs_mb.h "Spatial hinge angle") from the axes (a frame, b frame;
 * axis_b zero = axis) and the initial quaternions (pb0 NULL: ground). */
void mb_hinge_ref(const hs_real *axis, const hs_real *axis_b, const hs_real *pa0, const hs_real *pb0,
                  hs_real *c);
/* The hinge angle (rad) of bodies A (spatial) and B (spatial or ground) about n (b frame). */
int mb_hinge_angle(const hs_mb_model *mb, int A, int B, const hs_real *n, const hs_real *c,
                   const hs_real *q, hs_real *th);
/* The spin of a spatial body A against B (spatial or ground, B < 0) about the unit axis n
 * (both frames; the bodies' frames aligned up to a turn about n): the twist angle th of
 * w = conj(p_B) p_A (hs_mb_rot.c rq_angle, identity reference), its rate w = g . v' (rad/s),
 * g = d th / d v, H = d2 th / d v2 and wv = d w / d v = H v' over v = (p_A, p_B) (8 each). */
typedef struct mb_spin {
    int A, B;
    hs_real w;
    hs_real g[8], wv[8];
    hs_real H[8][8];
} mb_spin;
/* Fills *s at (q, u); HS_E_MODEL where the twist is undefined (a half turn off the axis). */
hs_status mb_spin_eval(const hs_mb_model *mb, int A, int B, const hs_real *n, const hs_real *q,
                       const hs_real *u, mb_spin *s);
/* d tau_k / d w_m of up to 3 spins (N m s/rad), d[k][m]; a struct so a filled one passes as const. */
typedef struct mb_spin_jac {
    hs_real d[3][3];
} mb_spin_jac;
/* Generalized torques tau[k] (N m) on the ns <= 3 spins s[k] with D->d[k][m] = d tau_k / d w_m
 * (rad/s): f += sum tau_k g_k, fq += tau_k H_k + D_km g_k wv_m^T, fu += D_km g_k g_m^T
 * (fq, fu may be NULL; f may be NULL with fq given). */
void mb_spin_load(const hs_mb_model *mb, const mb_spin *s, int ns, const hs_real *tau,
                  const mb_spin_jac *D, hs_real *f, hs_real *fq, hs_real *fu);
/* A driveline element's shafts (engine, gearbox, differentials): 0, or the MB_K_* bit of the
 * bad key with *why set; the bodies a (and bc, bd when given) spatial, b spatial or ground,
 * all distinct, axis a unit vector (hs_mb_el_engine.c). */
uint32_t mb_shaft_check(const hs_mb_desc *D, const hs_mb_force *E, const char **why);
/* The differential's torques (hs_mb_el_diff.c): carrier a against housing b, wheels bc, bd;
 * c the carrier coupling, cr the lock damping (0: open). */
hs_status mb_diff_eval(const hs_mb_model *mb, int e, hs_real cr, const hs_real *q, const hs_real *u,
                       hs_real *f, hs_real *fq, hs_real *fu);

/* f, fq, fu of force element e when it is a spatial ROTSPRING, MOTOR, KINGPIN or the rotational part of
 * a spatial BUSHING (accumulated; fq, fu may be NULL, f may be NULL with fq given). */
hs_status mb_rot_force(const hs_mb_model *mb, int e, const hs_real *q, const hs_real *u,
                 const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu);
/* Potential (J) of a spatial ROTSPRING or the rotational part of a spatial BUSHING. */
hs_real mb_rot_potential(const hs_mb_model *mb, int e, const hs_real *q);
/* A KINGPIN's set angle theta0 + scale * in[in0] (rad; in NULL: theta0). */
hs_real mb_kingpin_set(const hs_mb_model *mb, int e, const hs_real *in);
/* A KINGPIN's steer angle th (rad) of a's axle about b's kingpin and its rate thd (rad/s; 0 with
 * u NULL); HS_E_MODEL when the axle lies along the kingpin. */
int mb_kingpin_angle(const hs_mb_model *mb, int e, const hs_real *q, const hs_real *u, hs_real *th, hs_real *thd);
/* The b-frame hinge axis of force e or joint j (axis_b, or axis when axis_b is zero). */
const hs_real *mb_axis_b(const hs_real *axis, const hs_real *axis_b);

/* Specialized evaluators (hs_mb_fast.c): mb_fast_prepare sets mb->fast and its index tables
 * at the end of compile; the others are what mb_constraint, mb_gamma, mb_curvature, mb_forces
 * and the mass run when the matching HS_MB_FAST_* bit is set. */
void mb_fast_prepare(hs_mb_model *mb);
hs_status mb_fast_constraint(const hs_mb_model *mb, hs_real t, const hs_real *q, hs_real *g, hs_real *G,
                       hs_real *gt);
hs_status mb_fast_gamma(const hs_mb_model *mb, hs_real t, const hs_real *q, const hs_real *u, hs_real *gam);
hs_status mb_fast_curvature(const hs_mb_model *mb, hs_real t, const hs_real *q, const hs_real *lambda,
                      hs_real *K);
/* G (packed), gamma and, when lambda is not NULL, K at one point: exactly the values of
 * mb_fast_constraint, mb_fast_gamma and mb_fast_curvature (constraint_all() of hs_model.h). */
hs_status mb_fast_all(const hs_mb_model *mb, hs_real t, const hs_real *q, const hs_real *u, const hs_real *lambda,
                hs_real *G, hs_real *gam, hs_real *K);
/* The zero masks of the fast path's matrices (masks() of hs_model.h): qq_mask (packed like M)
 * 0 where M, fq, fu and K are zero at every point, cq_mask (packed like G) 0 where G is. */
void mb_fast_masks(const hs_mb_model *mb, int *qq_mask, int *cq_mask);
/* 1 when the fast path's fq, fu and K are bitwise symmetric at every point (hs_model.h
 * symmetric_jac): undamped springs between two bodies, rows whose terms sit on distinct bodies. */
int mb_fast_symmetric(const hs_mb_model *mb);
hs_status mb_fast_forces(const hs_mb_model *mb, hs_real t, const hs_real *q, const hs_real *u,
                   hs_real *f, hs_real *fq, hs_real *fu);
hs_status mb_fast_mass(const hs_mb_model *mb, hs_real *M);

/* The compiled plan (hs_mb_plan.c): mb_plan_prepare sets mb->plan and its kernels; compile
 * calls it after mb_fast_prepare when that took the fast path (mb->fast != 0; it calls
 * hs_mb.c's hooks, which call the fast path, so it sits above both). The hs_mb_plan_* hooks
 * (hs_mb.h) run it while mb_plan_on(mb). */
void mb_plan_prepare(hs_mb_model *mb);
/* The plan's hooks into T (mass, force, force_jac and, nc > 0, the row hooks): the hs_mb_plan_*
 * of hs_mb.h, or their twins for a plan whose kernels call no function. */
void mb_plan_hooks(const hs_mb_model *mb, hs_model_type *T);

static inline hs_real mb_dot3(const hs_real *a, const hs_real *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Start and row stride of block (bi, bj) of a dense or packed nq x nq matrix (entries). */
static inline int hs_mb_qq_base(const hs_mb_model *mb, int bi, int bj, int *stride)
{
    int ix;
    if (mb->packed != 0) {
        ix = mb->qqoff[bi][bj];
        *stride = mb->bnq[bj];
    } else {
        ix = mb->qoff[bi] * mb->nq + mb->qoff[bj];
        *stride = mb->nq;
    }
    return ix;
}

/* Index of G entry (row r, first coordinate of body b) in dense or packed storage; -1 for the ground (b < 0). */
static inline int hs_mb_g_index(const hs_mb_model *mb, int r, int b)
{
    int ix = -1;
    if (b >= 0) {
        if (mb->packed != 0) {
            const int cb = mb->cbidx[r];
            ix = mb->cqoff[cb][b] + (r - mb->cbfirst[cb]) * mb->bnq[b];
        } else {
            ix = r * mb->nq + mb->qoff[b];
        }
    }
    return ix;
}


/* Records a capacity refusal in mb (hs_mb_compile's record then names it: hs_mb_limit_msg) and
 * returns HS_E_SIZE. */
int mb_lim_fail(hs_mb_model *mb, const char *what, int need, int atleast, const char *limit, int cap,
                const char *set);

#endif
