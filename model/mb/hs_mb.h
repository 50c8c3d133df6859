/* hs_mb.h - the multibody layer: a static description (bodies, joints, force elements,
 * outputs) compiled into an hs_model whose functions evaluate it with analytic derivatives.
 *
 * Route: const hs_mb_desc (C tables with designated initializers, or parsed from a .hsm text
 * file by hs_mb_parse) -> hs_mb_compile into a caller-owned hs_mb_model (index tables, the
 * model type with the instance's exact sizes, signal names) -> hs_mb_model_init binds an
 * hs_model the stepper runs like any other. Freestanding C99, no allocation: every table has
 * a compile-time capacity HS_MB_MAX_* and compile refuses a description that exceeds one.
 *
 * Coordinates (q' = u for every body, so every method, form and stabilization of the stepper
 * applies unchanged):
 *   planar  (x, y, theta)            M = diag(m, m, Izz)
 *   point2  (x, y)                   M = m I2
 *   point3  (x, y, z)                M = m I3
 *   spatial (x, y, z, p0, p1, p2, p3) with p a quaternion and its 4 rates as velocities;
 *           M = diag(m I3, 4 G(p)^T J G(p) + k p p^T), k = 4 tr(J)/3, which is the kinetic
 *           energy 1/2 m v.v + 2 p'^T G^T J G p' plus k/2 (p.p')^2, a term that vanishes on the
 *           manifold p.p' = 0 and makes M positive definite; |p|^2 = 1 is a holonomic
 *           constraint of its own (one row per spatial body) that the stepper's projection
 *           keeps. f carries the Lagrangian's velocity terms -M'u + dT/dq =
 *           -8 G(p')^T J G(p) p' - k p |p'|^2 (the gyroscopic torque). See README "Multibody
 *           models" for why this rather than nq != nv.
 * The multiplier sign is +G^T lambda (hs_model.h). Units: SI (m, kg, s, rad, N, N m). */
#ifndef HS_MB_H
#define HS_MB_H

#include "hs_model.h"
#include "hs_mb_kinds.h"

/* Capacities (compile-time; every table below is sized by them). Each is a build setting:
 * -DHS_MB_MAX_BODIES=N (make HS_MB_MAX_BODIES=N) raises or lowers it for a whole build, and a
 * description over one is refused naming it, the description's need and this setting
 * (model/README.md "Sizes"). The defaults fit the host build's largest shipped descriptions
 * (81 planar bodies, 50 boxes and 300 contact points); the boards keep smaller ones
 * (port/cortex-m/cortex-m.mk, CM_MB_LIMITS) so their static memory and stack bound stay put. */
#ifndef HS_MB_MAX_BODIES
#define HS_MB_MAX_BODIES 96   /* bodies (ground excluded) */
#endif
#ifndef HS_MB_MAX_JOINTS
#define HS_MB_MAX_JOINTS 160  /* joints (constraint elements) */
#endif
#ifndef HS_MB_MAX_FORCES
#define HS_MB_MAX_FORCES 96   /* force elements */
#endif
#ifndef HS_MB_MAX_OUTPUTS
#define HS_MB_MAX_OUTPUTS 24  /* output lines (each gives 1..7 signals) */
#endif
#ifndef HS_MB_MAX_NQ
#define HS_MB_MAX_NQ 512      /* positions = velocities */
#endif
#ifndef HS_MB_MAX_NC
#define HS_MB_MAX_NC 512      /* constraint rows (joints plus one per spatial body) */
#endif
#ifndef HS_MB_MAX_NIN
#define HS_MB_MAX_NIN 24      /* input signals (the truck-trailer's 17; the boards keep 16, port/cortex-m/cortex-m.mk) */
#endif
#ifndef HS_MB_MAX_NZ
#define HS_MB_MAX_NZ 48       /* auxiliary (first-order) states of the force elements */
#endif
#ifndef HS_MB_MAX_NOUT
#define HS_MB_MAX_NOUT 64     /* output signals */
#endif
#define HS_MB_MAX_ROWS 6      /* rows of one joint */
#define HS_MB_MAX_EPTS (4 * HS_MB_MAX_BODIES) /* named points of the error metric; beyond, a
                                               * body's further points are read as a bound */
#define HS_MB_NAME 24         /* bytes of a name, terminator included */
#define HS_MB_UNIT 16         /* bytes of a signal's unit, terminator included */
#define HS_MB_MAX_TAB 32      /* breakpoints of one time table (an engine map: speeds x pedal levels values) */
#define HS_MB_MAX_PL 8        /* pedal levels of an engine map (hs_mb_table.p) */
#define HS_MB_MAX_QQ (HS_MB_MAX_BODIES * 8) /* nonzero body-pair blocks of M, fq, fu, K */
#define HS_MB_MAX_CQ (HS_MB_MAX_NC * 4)     /* nonzero (constraint block, body) blocks of G */

/* Body kinds and their coordinate counts. */
typedef enum hs_mb_body_kind {
    HS_MB_PLANAR = 0,  /* (x, y, theta) */
    HS_MB_SPATIAL = 1, /* (x, y, z, quaternion p0..p3) */
    HS_MB_POINT2 = 2,  /* (x, y) */
    HS_MB_POINT3 = 3   /* (x, y, z) */
} hs_mb_body_kind;

/* f(t) = a + b t + c sin(w t + phi): constant, ramp and harmonic laws of drivers, prescribed
 * points and joint set values (units of the driven quantity; t in s, w in rad/s). */
typedef struct hs_mb_fn {
    hs_real a, b, c, w, phi;
} hs_mb_fn;

/* A rigid body. Initial values are the description's; initial() returns them as given, so a
 * description must give a consistent state: the .hsm parser refuses one off its joints by more
 * than HS_MB_INIT_TOL (hs_mb_parse.h), the stepper's projection takes what is left. */
typedef struct hs_mb_body {
    char name[HS_MB_NAME];
    hs_mb_body_kind kind;
    hs_real mass;       /* kg, > 0 */
    hs_real inertia[3]; /* kg m^2: planar uses [2] = Izz; spatial the principal Jxx, Jyy, Jzz */
    hs_real pos[3];     /* initial centre of mass (m) */
    hs_real rot[4];     /* planar: rot[0] = theta (rad); spatial: unit quaternion (w, x, y, z) */
    hs_real vel[3];     /* initial velocity of the centre of mass (m/s) */
    hs_real omega[3];   /* initial angular velocity (rad/s): planar [2]; spatial body frame */
} hs_mb_body;

/* Ground is body index -1. */
#define HS_MB_GROUND (-1)

/* A point on a body (or on ground), in the body frame (m). On ground the point may move:
 * moving = 1 adds (fx(t), fy(t), fz(t)); moving = 2 is the car axle's excitation: y = fy(t)
 * and x = sqrt(radius^2 - y^2) (a point on the circle of that radius about s). */
typedef struct hs_mb_point {
    int body;     /* body index, or HS_MB_GROUND */
    hs_real s[3]; /* body-frame offset (m) */
    int moving;   /* ground only: 0 fixed, 1 s + f(t), 2 circle: x = sx + sqrt(R^2 - y^2), y = sy + fy */
    hs_mb_fn f[3];
    hs_real radius; /* moving = 2 (m) */
} hs_mb_point;

/* Joint types: one enumerator per row of HS_MB_JOINT_LIST (model/mb/hs_mb_kinds.h), which
 * says the rows each adds; each kind is one file model/elements/hs_mb_jt_<name>.c. */
/* MISRA Ref 20.7.1 [X-macro parameter is an identifier] */
#define HS__MB_KIND(id, value, row) id = (value),
#define HS__MB_ONE(id, value, row) + 1
#define HS__MB_FKIND(id, value, row, st) HS__MB_KIND(id, value, row)
#define HS__MB_FONE(id, value, row, st) HS__MB_ONE(id, value, row)
typedef enum hs_mb_joint_kind {
    HS_MB_JOINT_LIST(HS__MB_KIND)
    HS_MB_JOINT_KINDS = (0 HS_MB_JOINT_LIST(HS__MB_ONE)) /* number of kinds (the joint table's length) */
} hs_mb_joint_kind;

/* Quadric of a CURVE joint in ground coordinates: r^T A r + b.r + c = 0, A symmetric given by
 * its 6 entries (xx, yy, zz, xy, xz, yz). */
typedef struct hs_mb_quadric {
    hs_real A[6], b[3], c;
} hs_mb_quadric;

typedef struct hs_mb_joint {
    char name[HS_MB_NAME];
    hs_mb_joint_kind kind;
    hs_mb_point a, b;   /* the two attachment points (body a is the "child") */
    hs_mb_point c, d;   /* PERPENDICULAR only */
    hs_real axis[3];    /* REVOLUTE (spatial), PRISMATIC: body-frame unit axis; DRIVER coord 1: ground axis */
    hs_real axis_b[3];  /* REVOLUTE (spatial): axis in body b frame (defaults to axis) */
    hs_real length;     /* DISTANCE (m) */
    int coord;          /* DRIVER: 0 angle, 1 translation along axis */
    hs_mb_fn f;         /* DRIVER, PERPENDICULAR: set value f(t) */
    hs_mb_quadric quad; /* CURVE */
    int has_comp;       /* 1: compliance and damping below are declared (else the stepper's) */
    hs_real compliance; /* every row's compliance (m/N; rad/(N m) for angle rows), >= 0 */
    hs_real damping;    /* every row's damping (N s/m; N m s/rad), >= 0 (model/COMPLIANCE.md) */
} hs_mb_joint;

/* Force elements: one enumerator per row of HS_MB_FORCE_LIST (model/mb/hs_mb_kinds.h), which
 * says what each applies; each kind is one file model/elements/hs_mb_el_<name>.c. */
typedef enum hs_mb_force_kind {
    HS_MB_FORCE_LIST(HS__MB_FKIND)
    HS_MB_FORCE_KINDS = (0 HS_MB_FORCE_LIST(HS__MB_FONE)) /* number of kinds (the element table's length) */
} hs_mb_force_kind;

/* A time table: n breakpoints t (s, strictly increasing) and values v (units of the element),
 * piecewise linear in between, held constant before t[0] and after t[n-1]. */
typedef struct hs_mb_table {
    int n;                     /* 1..HS_MB_MAX_TAB */
    hs_real t[HS_MB_MAX_TAB];
    hs_real v[HS_MB_MAX_TAB];
    int np;                    /* ENGINE: pedal levels p (0: a 1-D table); v then holds n x np
                                * values, speed-major: v[i np + j] at speed t[i], pedal p[j] */
    hs_real p[HS_MB_MAX_PL];   /* ENGINE: pedal levels (1, strictly increasing in [0, 1]) */
} hs_mb_table;

/* Spatial hinge angle (ROTSPRING, MOTOR and the COORD output of a spatial REVOLUTE): with
 * p_a, p_b the bodies' quaternions (ground: identity), w = conj(p_b) p_a conj(Q0) and n the
 * unit axis in b's frame, th = 2 atan2(n . vec(w), w_0): the twist of a relative to b about n
 * (swing-twist decomposition), the exact hinge angle when the hinge holds. Q0 is the shortest
 * rotation taking axis (a frame) onto axis_b (b frame), so th = 0 where the frames coincide up
 * to that; its sign is chosen at compile so that the initial th lies in (-pi, pi]. From there
 * th is continuous to +-2 pi (a turn either way); beyond, the quaternion's double cover wraps
 * it by 4 pi. */

typedef struct hs_mb_force {
    char name[HS_MB_NAME];
    hs_mb_force_kind kind;
    hs_mb_point a, b;
    hs_real k, c, l0;   /* stiffness (N/m or N m/rad), damping (N s/m or N m s/rad), rest length (m) or angle (rad) */
    hs_real kr, cr;     /* BUSHING rotational stiffness (N m/rad) and damping (N m s/rad) */
    int in0;            /* EXTFORCE, EXTTORQUE, MOTOR: first input index */
    hs_real axis[3];    /* EXTFORCE: unit direction (ground frame) of a one-input force, 0 = dim
                         * inputs; ROTSPRING, MOTOR (spatial): unit hinge axis in a's frame;
                         * KINGPIN: the unit axle in a's frame (and, read in b's, its zero steer) */
    hs_real scale;      /* input scale (N or N m per input unit) */
    hs_real axis_b[3];  /* ROTSPRING, MOTOR (spatial): unit hinge axis in b's frame (0 = axis);
                         * KINGPIN: the unit kingpin axis in b's frame, perpendicular to axis */
    hs_real v[3];       /* CONSTFORCE (N), CONSTTORQUE (N m): the constant load */
    const hs_mb_table *tab; /* TABLEFORCE, TABLETORQUE: the time table; TIRE: the road profile
                             * (t = ground x (m), v = height (m)); NULL otherwise */
    int in1, in2;       /* TIRE: 1 + the steering angle input (rad), 1 + the road height input (m); 0 none */
    int in3;            /* TIRE: 1 + the road friction input (mu=, relative; 0 in it: scale=); 0 none */
    int tilt;           /* TIRE: 1 = normal=profile (the road normal follows the profile's slope), 0 vertical */
    int tset;           /* TIRE: data set, 0 data=car (hs_tire_par_car), 1 data=truck (hs_tire_par_truck) */
    int camb, bore;     /* TIRE: 1 = camber=on (camber force), 1 = bore=on (bore torque, a 4th state); 0 off */
    hs_real cda, cla;   /* AERO: drag area Cd A and lift area Cl A (m^2; cla < 0: downforce) */
    hs_real rho;        /* AERO: air density (kg/m^3; 0: 1.204, dry air at 20 deg C) */
    int bc, bd;         /* GEARBOX: 1 + the output body (bc); DIFF, LOCKDIFF: 1 + the left (bc)
                         * and right (bd) wheel bodies; 0 none */
} hs_mb_force;

/* A named wire signal of the description (input or output line): its name, unit, admissible
 * range, fallback (inputs: while stale; outputs: the safe value) and staleness limit. */
typedef struct hs_mb_signal {
    char name[HS_MB_NAME];
    char unit[HS_MB_UNIT];
    hs_real min, max;   /* range (unit of the signal), min <= max */
    hs_real fallback;   /* inside [min, max] */
    int stale;          /* inputs: frames without a fresh value before the fallback, >= 1 */
} hs_mb_signal;

/* Outputs: each line gives several signals, named "<element>.<quantity> (<unit>)"; a named
 * output line (sig != NULL) gives one signal, component comp of the quantity, minus the same
 * component of body index2 - 1 when index2 > 0, minus offset. */
typedef enum hs_mb_output_kind {
    HS_MB_OUT_POS = 0,   /* body position (x, y[, z]) and orientation (theta | p0..p3) */
    HS_MB_OUT_VEL = 1,   /* body velocity (vx, vy[, vz]) and angular velocity (w | wx wy wz ground frame) */
    HS_MB_OUT_COORD = 2, /* joint coordinate: revolute angle (planar; spatial hinge: the hinge
                          * angle above, rad), prismatic travel, distance, driven value */
    HS_MB_OUT_ENERGY = 3, /* total energy (J) */
    HS_MB_OUT_ACC = 4,   /* body acceleration M_b^-1 f_b (m/s^2, rad/s^2) of a point or planar
                          * body no joint acts on (gravity, forces and inputs of this instant) */
    HS_MB_OUT_TIRE = 5,  /* tire element index: spin rate (rad/s), Fx, Fy, Fz (N, contact frame),
                          * slips sx, sy (1) */
    HS_MB_OUT_VEHICLE = 6, /* spatial body index (a vehicle's chassis), body frame: vx, vy (m/s), yaw
                          * rate (rad/s), ax, ay (m/s^2: the tires' force over the mass of all
                          * bodies, an accelerometer's specific force), body slip angle
                          * atan2(vy, vx) (rad; 0 below 0.1 m/s) */
    HS_MB_OUT_FORCE = 7  /* force element index: the values its kind's row names (kingpin: steer
                          * angle, set angle (rad), steering torque (N m), steer rate (rad/s)) */
} hs_mb_output_kind;

typedef struct hs_mb_output {
    hs_mb_output_kind kind;
    int index;  /* body or joint index */
    int comp;   /* named form: coordinate of the body (0 x, 1 y, 2 z or theta) */
    int index2; /* named form: 1 + the body subtracted, 0 none */
    hs_real offset;           /* named form: subtracted from the value */
    const hs_mb_signal *sig;  /* named form: name, unit, range; NULL: the generated names */
    hs_real at[3];            /* ACC: the point of the body (body frame, m; 0: its origin) */
    int axes;                 /* ACC: 0 ground axes, 1 the body's axes (planar, spatial) */
} hs_mb_output;

/* Largest nq + nc of a description whose acc outputs need the multipliers (a jointed or
 * spatial body, a point off the origin, body axes): output() solves that dense system. */
#define HS_MB_ACC_MAXN 64

/* Unilateral elements (model/CONTACT.md; rt/hs_contact.h solves them). A shape is a body's
 * geometry; a contact is a pair of shapes with fixed slots (sphere-plane 1, capsule-plane 2,
 * box-plane 4, cylinder-plane 4, sphere-sphere 1, sphere-box 1, sphere-capsule 1, box-box 4,
 * capsule-box 3, capsule-capsule 3, cylinder-box 4 points; model/CONTACT.md), each slot one
 * normal row plus two friction rows when mu > 0; an end stop bounds a joint's coordinate. */
#ifndef HS_MB_MAX_SHAPES
#define HS_MB_MAX_SHAPES 128  /* shapes */
#endif
#ifndef HS_MB_MAX_CONTACTS
#define HS_MB_MAX_CONTACTS 128 /* contact pairs */
#endif
#ifndef HS_MB_MAX_STOPS
#define HS_MB_MAX_STOPS 8     /* end stops */
#endif
#ifndef HS_MB_MAX_CT
#define HS_MB_MAX_CT 900      /* unilateral rows (slots x rows per slot): 300 points with friction */
#endif
/* 0: each contact stage's own count (rt/hs_contact.h HS_CT_SWEEPS_GEN 16, HS_CT_SWEEPS_FB for
 * the body-velocity stage; model/CONTACT.md "The sweep count"); `solver sweeps=N` sets both */
#define HS_MB_CT_SWEEPS 0     /* default projected Gauss-Seidel sweeps per step (0: the stage's) */

typedef enum hs_mb_shape_kind {
    HS_MB_SH_SPHERE = 0,  /* size[0] radius (m) */
    HS_MB_SH_BOX = 1,     /* size half extents along the body axes (m) */
    HS_MB_SH_CAPSULE = 2, /* size[0] radius, size[1] half length of its axis, the body z axis (m) */
    HS_MB_SH_PLANE = 3,   /* pos a point, normal the unit normal (body frame; ground: ground frame) */
    HS_MB_SH_CYLINDER = 4 /* size[0] radius, size[1] half length of its axis, the body z axis (m) */
} hs_mb_shape_kind;

typedef struct hs_mb_shape {
    char name[HS_MB_NAME];
    hs_mb_shape_kind kind;
    int body;           /* body index, or HS_MB_GROUND */
    hs_real pos[3];     /* centre (plane: a point) in the body frame (m) */
    hs_real size[3];    /* see hs_mb_shape_kind (m) */
    hs_real normal[3];  /* plane: unit normal */
} hs_mb_shape;

typedef struct hs_mb_contact {
    char name[HS_MB_NAME];
    int a, b;           /* shape indices; the normal points from b to a */
    hs_real mu;         /* friction coefficient (dimensionless, >= 0; 0: no friction rows) */
    hs_real e;          /* restitution in [0, 1] */
    int box;            /* friction model: 1 box ([L1] sec. 2.8), 0 pyramid */
} hs_mb_contact;

typedef struct hs_mb_stop {
    char name[HS_MB_NAME];
    int joint;          /* a revolute or prismatic joint */
    int has_min, has_max;
    hs_real min, max;   /* bounds of the joint's coord (rad or m), min < max */
    hs_real e;          /* restitution in [0, 1] */
} hs_mb_stop;

/* A whole description. Arrays are pointers so const C tables can be linked as they are. */
typedef struct hs_mb_desc {
    const char *name;          /* model name (CLI) */
    const hs_mb_body *bodies;  /* (nbodies) */
    int nbodies;
    const hs_mb_joint *joints; /* (njoints) */
    int njoints;
    const hs_mb_force *forces; /* (nforces) */
    int nforces;
    const hs_mb_output *outputs; /* (noutputs) */
    int noutputs;
    hs_real gravity[3];        /* m/s^2, ground frame */
    int nin;                   /* input signals the force elements read */
    const hs_mb_signal *inputs; /* (nin) the declared inputs, or NULL: names from the elements */
    int dim;                   /* 2 (planar bodies and point2 only) or 3 */
    const hs_mb_shape *shapes; /* (nshapes) */
    int nshapes;
    const hs_mb_contact *contacts; /* (ncontacts) */
    int ncontacts;
    const hs_mb_stop *stops;   /* (nstops) */
    int nstops;
    int ct_sweeps;             /* sweeps per step, 0 = HS_MB_CT_SWEEPS */
    const unsigned char *row_drop; /* (nrow_made) 1: the joint row built k-th is left out, a
                                    * redundant row the .hsm check removed (model/COMPLIANCE.md
                                    * "Redundant constraints"); NULL: none */
    int nrow_made;             /* entries of row_drop */
} hs_mb_desc;

/* One operand point of a constraint row (internal; exposed so hs_mb_model has a fixed size). */
typedef struct hs_mb_opnd {
    int used;                 /* 0: the ground origin (r = 0) */
    int body;                 /* body index, or HS_MB_GROUND */
    int dir;                  /* 1: body-fixed direction R s (no translation) */
    hs_real s[3];             /* body-frame offset or direction */
    const hs_mb_point *pt;    /* moving ground point, else NULL */
} hs_mb_opnd;

/* One constraint row of the compiled model (internal). */
typedef struct hs_mb_row {
    int kind;                 /* HS_MB_ROW_* (hs_mb_int.h) */
    int joint;                /* owning joint, or -1 for a quaternion norm row */
    int body, body2;          /* ANGLE: bodies a and b (b may be ground); NORM: the body */
    hs_mb_opnd o[4];          /* DOT: (o0 - o1) . (o2 - o3); QUAD: o0 */
    const hs_mb_fn *f;        /* set value f(t), or NULL */
    hs_real value;            /* constant set value (distance: length^2) */
    const hs_mb_quadric *quad;
} hs_mb_row;

/* One operand of a planar DOT row (a - b) . (c - d) that is not a constant (internal; see
 * model/mb/hs_mb_fast.c): a point or direction on a body, or a moving ground point. */
typedef struct hs_mb_fterm {
    int kind;                 /* operand kind (hs_mb_fast.c) */
    int side;                 /* 0: in a - b, 1: in c - d */
    int body;                 /* body index, or HS_MB_GROUND (moving ground point) */
    int qo;                   /* first coordinate of body */
    int gix;                  /* index in G of the row's entry for body's first coordinate, or -1 */
    int kix;                  /* index in K of body's (theta, theta) entry (planar), or -1 */
    hs_real sign;             /* +1 for a and c, -1 for b and d */
    hs_real tr;               /* 1: a point, 0: a direction (no translation) */
    hs_real s[2];             /* body-frame offset or direction (m) */
    const hs_mb_point *pt;    /* moving ground point, else NULL */
} hs_mb_fterm;

/* One kernel call of a description's compiled plan (internal; model/mb/hs_mb_plan.c): a row
 * group or a force element with every index, offset and constant fixed at compile. */
typedef struct hs_mb_kop {
    int kind;                 /* kernel (hs_mb_plan.c) */
    int r;                    /* first row, or force element index */
    int qa, qb;               /* first coordinate of body a, b (-1: ground) */
    int ba, bb;               /* body a, b (-1: ground) */
    int ga, gb, ga2, gb2;     /* G index of row r (ga, gb) and r + 1 (ga2, gb2) at a's, b's first coordinate */
    int kaa, kbb, kab, kba;   /* K (rows) or fq (springs) index: planar (theta, theta) of a, b, or
                               * the first entries of blocks (a, a), (b, b), (a, b), (b, a) of points */
    int sta, stb;             /* row strides of the blocks in a's, b's block row */
    hs_real sa[2], sb[2];     /* body-frame offsets of a's and b's points (m; ground b: the fixed point) */
    hs_real c[4];             /* constants: the row's a (0, 1), b (2, 3) parts or set values (m, m^2) */
    hs_real k, l0;            /* spring stiffness (N/m), rest length (m) */
    const hs_mb_point *pt;    /* moving ground point (moving = 2), else NULL */
    const hs_mb_fn *f;        /* row set value law, else NULL */
} hs_mb_kop;

#define HS_MB_MAX_KOP 48      /* kernel calls of a plan (rows and forces); more: no plan */
#define HS_MB_MAX_GZ 32       /* zero ranges of a plan's G; more: no plan */
#define HS_MB_MAX_MIMG 128    /* entries of M a plan keeps whole (larger: zeroed and its diagonal set) */

/* A compiled model: tables derived from a description and the model type with its sizes. */
typedef struct hs_mb_model {
    const hs_mb_desc *desc;
    hs_model_type type;                 /* exact sizes, names, the multibody functions */
    int nq, nc, nin, nout;
    int nb;                             /* bodies */
    int qoff[HS_MB_MAX_BODIES + 1];     /* first coordinate of each body; qoff[nb] = nq */
    int nrow;
    hs_mb_row rows[HS_MB_MAX_NC];
    int nmade;                          /* rows built so far, the left-out ones included (desc->row_drop's index) */
    hs_mb_row row_sink;                 /* where a left-out row is built: written, never read */
    int jrow[HS_MB_MAX_JOINTS + 1];     /* first row of each joint; norm rows follow */
    int kslot[HS_MB_MAX_NC][4];         /* each row operand's slot in the rows' kinematics cache
                                         * (operands rows share, hs_mb_joint.c), -1 none */
    /* block pattern: position blocks = bodies, constraint blocks = joints then norm rows */
    int packed;                         /* 1: matrices written packed by the blocks below */
    int ncb;
    int cbidx[HS_MB_MAX_NC];            /* constraint block of each row */
    int cbfirst[HS_MB_MAX_NC + 1];      /* first row of each constraint block */
    int bnq[HS_MB_MAX_BODIES];          /* coordinates of each body */
    int blkbuf[2 * HS_MB_MAX_BODIES + 2 * HS_MB_MAX_NC + 2 * HS_MB_MAX_QQ + 2 * HS_MB_MAX_CQ + 4];
    hs_blocks blocks;
    int qqoff[HS_MB_MAX_BODIES][HS_MB_MAX_BODIES]; /* packed offset of block (i, j), -1 absent */
    int cqoff[HS_MB_MAX_NC][HS_MB_MAX_BODIES];     /* packed offset of G block (cb, body), -1 absent */
    int qqsize, cqsize;
    const char *out_names[HS_MB_MAX_NOUT];
    int out_first[HS_MB_MAX_OUTPUTS + 1]; /* first signal of each output line; [noutputs] = nout */
    char out_buf[HS_MB_MAX_NOUT][40];
    const char *in_names[HS_MB_MAX_NIN];
    char in_buf[HS_MB_MAX_NIN][40];
    hs_real scratch[2 * HS_MB_MAX_NQ + HS_MB_MAX_NC]; /* compile's initial state and residuals (off the stack) */
    hs_real hinge_c[HS_MB_MAX_FORCES + HS_MB_MAX_JOINTS][4]; /* conj(Q0) of each spatial hinge angle:
                                        * forces, then joints (unit quaternions) */
    int bad_table;                      /* after a refused compile: 0 bodies, 1 joints, 2 forces, 3 outputs, -1 whole */
    const char *bad_why;                /* after a refused compile: why (static text), or NULL */
    const char *lim_name;               /* after a refused compile over a capacity: its name (HS_MB_MAX_*), else NULL */
    const char *lim_what;               /* what it counts ("coordinates", ...) */
    const char *lim_set;                /* the build setting that raises it (itself, or the one it derives from) */
    int lim_need, lim_cap, lim_atleast; /* the description's need (a lower bound when lim_atleast), the capacity */
    int has_acc;                        /* an ACC output: output() evaluates the forces */
    int acc_kkt;                        /* an ACC output that needs u' of the whole system */
    /* Specialized evaluators (model/mb/hs_mb_fast.c) chosen at compile; 0 = the general ones. */
    int fast;                           /* HS_MB_FAST_* bits */
    int fast_packed;                    /* packed when fgb was computed (checks toggle packed) */
    hs_mb_fterm fterm[HS_MB_MAX_NC][4]; /* DOT row r: its operands that are not constant */
    signed char fnt[HS_MB_MAX_NC];      /* how many */
    hs_real fcab[HS_MB_MAX_NC][4];      /* DOT row r: constant parts of a (0, 1) and b (2, 3) */
    int fgb[HS_MB_MAX_NC][2];           /* ANGLE row r: index in G of body's and body2's first
                                         * coordinate; -1 ground */
    signed char ffop[HS_MB_MAX_FORCES][2]; /* operand kind of each spring's points a, b */
    signed char fshare[HS_MB_MAX_NC];   /* 1: DOT row r's a - b is row r - 1's (a joint's rows) */
    signed char fbconst[HS_MB_MAX_NC];  /* 1: DOT row r's c - d is constant (coincidence, travel) */
    signed char fsym[HS_MB_MAX_NC];     /* 1: DOT row r is (a - b) . (a - b) (a distance) */
    signed char fna[HS_MB_MAX_NC];      /* DOT row r: terms of a - b (they come first) */
    signed char fmov[HS_MB_MAX_NC];     /* 1: DOT row r has a moving ground point (g_t, r_tt) */
    signed char fpair[HS_MB_MAX_NC];    /* 1: rows r, r + 1 are a planar coincidence (a - b) . x,
                                         * (a - b) . y of body points, no time law: one kernel;
                                         * 2: row r is the second of such a pair;
                                         * 3: row r is a distance |a - b|^2 of body points,
                                         * no time law: its own kernel */
    int fplanar[HS_MB_MAX_BODIES];      /* the planar bodies (their sines and cosines per call) */
    int nfplanar;
    /* The compiled plan (model/mb/hs_mb_plan.c): set at compile when every row and force element
     * has a kernel; the hooks then run the kernels in order instead of the fast path's walks. */
    int plan;                           /* 1: the plan below runs mass, force, rows */
    int plan_packed;                    /* the layout its indices are for */
    int nkr, nkf;                       /* row kernels kop[0..nkr), force kernels kop[nkr..nkr+nkf) */
    hs_mb_kop kop[HS_MB_MAX_KOP];
    hs_real fgrav[HS_MB_MAX_NQ];        /* gravity's generalized force (N): f before the elements */
    int nmd;                            /* nonzero entries of M (its diagonal) */
    int mdix[HS_MB_MAX_NQ];             /* their indices in M (dense or packed) */
    hs_real mdv[HS_MB_MAX_NQ];          /* their values (kg, kg m^2) */
    int nmimg;                          /* entries of mimg: M whole when it fits, else 0 */
    hs_real mimg[HS_MB_MAX_MIMG];       /* M (dense or packed; kg, kg m^2) */
    int ngz;                            /* ranges of G no kernel writes (dense G: zeroed per call) */
    int gz[HS_MB_MAX_GZ][2];            /* (first index, count) */
    int plan_nqq;                       /* entries of M, fq, fu and K (nq * nq, or packed) */
    int plan_nqq8, plan_nq8;            /* plan_nqq, nq rounded down to a multiple of 8 */
    int nk;                             /* unilateral rows */
    hs_ct_row ct_rows[HS_MB_MAX_CT];    /* their kinds (the model type points here) */
    int ct_first[HS_MB_MAX_CONTACTS + HS_MB_MAX_STOPS + 1]; /* first row of each contact, then stop */
    int ct_slots[HS_MB_MAX_CONTACTS];   /* slots of each contact */
    int ct_npts;                        /* contact slots as points (ct_points(); stops are none) */
    hs_ct_point ct_pts[HS_MB_MAX_CT];   /* their rows and bodies (the model type points here) */
    int nz;                             /* auxiliary states of the force elements */
    int zoff[HS_MB_MAX_FORCES];         /* first state of each force element */
    int nfb;                            /* free bodies (hs_fb_info) when the description is only
                                         * free spatial bodies under gravity, else 0 */
    hs_fb_body fb[HS_MB_MAX_BODIES];    /* their coordinates, masses, inertias (free_bodies()) */
    int nquat;                          /* spatial bodies */
    int quat[HS_MB_MAX_BODIES];         /* first quaternion coordinate of each (quats()) */
    int negrp;                          /* bodies of the error metric (err_groups()): all */
    hs_err_group egrp[HS_MB_MAX_BODIES]; /* each body's coordinates and named points */
    hs_real epts[HS_MB_MAX_EPTS][3];    /* the named points, body by body (body frame, m) */
} hs_mb_model;

/* Bits of hs_mb_model.fast: which evaluations take the specialized planar paths (all bodies
 * planar or point2, rows DOT/ANGLE, force elements springs). Same functions, fewer operations:
 * no per-operand table walk, one sine and cosine per body per call, G and K written at indices
 * computed at compile. */
#define HS_MB_FAST_ROWS 1    /* g, G, g_t, gamma, K */
#define HS_MB_FAST_FORCES 2  /* f, fq, fu */
#define HS_MB_FAST_MASS 4    /* M */

/* hs_mb_compile's packed argument: declare the block pattern exactly when the stepper's
 * linear-system layer would pick its sparse backend for it (nq + nc > HS_LS_DENSE_MAX), so small
 * descriptions keep the dense LU's plain copies and large ones get the sparse factorization. */
#define HS_MB_PACK_AUTO 2

/* Checks desc against the capacities and its own consistency (indices, masses, kinds) and
 * compiles it into *mb. packed = 1 declares the block pattern (bodies x joints) to the stepper
 * and writes M, fq, fu, K, G packed; 0 writes them dense; HS_MB_PACK_AUTO picks by size. HS_OK, HS_E_SIZE (a capacity
 * exceeded), HS_E_MODEL_PARAM (inconsistent) or HS_E_NULL; *err (may be NULL) is filled
 * either way: status, index = the offending entry within its table (-1 when none), field =
 * the table ("body", "joint", "force", "output", "contact", "stop"; empty for the whole
 * description), msg = why (the pass's reason, else the table's), line 0 (a description has
 * no lines: hs_mb_parse_compile maps the index to its line). */
hs_status hs_mb_compile(const hs_mb_desc *desc, hs_mb_model *mb, int packed, hs_error *err);

/* A capacity's refusal as err's text (err->detail, err->msg pointing at it): "NEED WHAT exceed
 * LIMIT = CAP; build with -DSET=NEED or more (make SET=NEED)" ("at least NEED" when atleast;
 * "build with a larger SET" when SET is not LIMIT, a capacity derived from SET). */
void hs_mb_limit_msg(hs_error *err, const char *what, int need, int atleast, const char *limit, int cap,
                     const char *set);

/* Binds m to the compiled model (hs_model_init plus the description pointer). */
hs_status hs_mb_model_init(hs_model *m, const hs_mb_model *mb);

/* Joint reactions from multipliers lambda (nc, the stepper's s->lambda) at (t, q): for every
 * joint, the generalized constraint force G_j^T lambda_j on its body a expressed as a force
 * (ground frame, 2 or 3 N) and a torque about the body's centre of mass (planar: 1 N m; spatial:
 * 3 N m, ground frame; point: none). out gets hs_mb_reaction_count(mb) reals, joint after joint. */
hs_status hs_mb_reactions(const hs_mb_model *mb, hs_real t, const hs_real *q, const hs_real *lambda,
                    hs_real *out);
/* Number of reals hs_mb_reactions writes. */
int hs_mb_reaction_count(const hs_mb_model *mb);

/* Total energy (J) of the description's conservative part: kinetic, gravity, springs. */
hs_real hs_mb_energy(const hs_mb_model *mb, const hs_real *q, const hs_real *u);

/* The model type's functions (hs_model.h signatures; m->desc is the hs_mb_model), exported so
 * the generated types' hooks (hs_mb_tab.c) call them directly: one indirect call per model hook,
 * which keeps the firmware's static stack analysis linear. */
int hs_mb_fn_initial(const hs_model *m, hs_real t0, hs_real *q, hs_real *u, hs_real *z);
int hs_mb_fn_mass(const hs_model *m, hs_real t, const hs_real *q, hs_real *M);
int hs_mb_fn_force(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, const hs_real *z,
                   const hs_real *in, hs_real *f);
int hs_mb_fn_force_jac(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                       const hs_real *z, const hs_real *in, hs_real *fq, hs_real *fu);
/* force_fj(): f (nq), fq, fu (nq x nq) in one call, the bits of force() and force_jac(). */
int hs_mb_fn_force_fj(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                      const hs_real *z, const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu);
int hs_mb_fn_constraint(const hs_model *m, hs_real t, const hs_real *q, hs_real *g, hs_real *G,
                        hs_real *gt);
int hs_mb_fn_gamma(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, hs_real *gam);
int hs_mb_fn_curvature(const hs_model *m, hs_real t, const hs_real *q, const hs_real *lambda,
                       hs_real *K);
/* constraint_all() and masks() (hs_model.h) of a description on the planar fast path. */
int hs_mb_fn_constraint_all(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                            const hs_real *lambda, hs_real *G, hs_real *gam, hs_real *K);
int hs_mb_fn_masks(const hs_model *m, int *qq_mask, int *cq_mask);
int hs_mb_fn_output(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                    const hs_real *z, const hs_real *in, hs_real *y);
int hs_mb_fn_energy(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                    const hs_real *z, hs_real *E);
/* motion(): the motion bound of a passive mechanism of rigid joints, *who the body it comes
 * from (or the dead-centre rate's compliant joint; model/mb/hs_mb_motion.c); omega 0 (no check)
 * for any other description. */
int hs_mb_fn_motion(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                    hs_real *omega, int *degenerate, int *who);
/* 1 when the description is conservative (no stops, contacts, joint compliance or element
 * damping) and its potential has a floor (a passive mechanism of rigid joints held to ground;
 * model/mb/hs_mb_motion.c), so release() is known: hs_mb_compile sets it then. */
int hs_mb_has_release(const hs_mb_desc *D);
/* release(): *E (J) the energy the description can release from (t, q, u), E - V_min with V_min
 * the floor of its potential (hs_model.h; hilstep-sim judges the energy error by it). */
int hs_mb_fn_release(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, hs_real *E);
/* spin(): the fastest quaternion body's rate |2 G(p) p'| (rad/s) at (q, u), *body
 * its index (model/mb/hs_mb_motion.c); set for descriptions with a spatial body. */
int hs_mb_fn_spin(const hs_model *m, const hs_real *q, const hs_real *u, hs_real *w, int *body);
/* quats(): the spatial bodies' quaternion coordinates (rt/hs_model.h); set with spin(). */
int hs_mb_fn_quats(const hs_model *m, const int **off);
/* err_groups() (rt/hs_model.h): every body's coordinates and the distance of its farthest
 * named point (model/mb/hs_mb_motion.c); set for every description. */
int hs_mb_fn_err_groups(const hs_model *m, const hs_err_group **g);
/* Compile: mb->egrp from the description's joints, elements, acc outputs and shapes (m). */
void hs_mb_err_groups_build(const hs_mb_desc *D, hs_mb_model *mb);
/* The force elements' state rates (nz; set when a description has states, e.g. tires). */
int hs_mb_fn_zdot(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, const hs_real *z,
                  const hs_real *in, hs_real *zd);
/* lagrange() (hs_model.h; model/mb/hs_mb_dvp.c): set for descriptions with a quaternion body. */
int hs_mb_fn_lagrange(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                      const hs_real *z, const hs_real *in, hs_real *F, hs_real *Fq, hs_real *Fu,
                      hs_real *Mq);
/* The hooks of a description compiled into a plan of kernels (model/mb/hs_mb_plan.c): the model
 * type's mass, force, force_jac, constraint, gamma, curvature and constraint_all when its
 * mb->plan is set; each runs the hs_mb_fn_* above while the plan is off (fast paths turned
 * off, another layout). Values: the fast path's within rounding; constraint_all exactly those
 * of constraint, gamma and curvature. */
int hs_mb_plan_mass(const hs_model *m, hs_real t, const hs_real *q, hs_real *M);
int hs_mb_plan_force(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, const hs_real *z,
                     const hs_real *in, hs_real *f);
int hs_mb_plan_force_jac(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, const hs_real *z,
                         const hs_real *in, hs_real *fq, hs_real *fu);
int hs_mb_plan_constraint(const hs_model *m, hs_real t, const hs_real *q, hs_real *g, hs_real *G, hs_real *gt);
int hs_mb_plan_gamma(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, hs_real *gam);
int hs_mb_plan_curvature(const hs_model *m, hs_real t, const hs_real *q, const hs_real *lambda, hs_real *K);
int hs_mb_plan_constraint_all(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                              const hs_real *lambda, hs_real *G, hs_real *gam, hs_real *K);
/* 1 when mb's model type runs its compiled plan: its mass, force, force_jac and row hooks are
 * the plan's (hs_mb_plan_* above, or their twins for a plan whose kernels call no function). */
int hs_mb_plan_hooked(const hs_mb_model *mb);
/* 1 when kernel calls a and b are the same (every field; a generated file's plan against the
 * one its check() compiled). */
int hs_mb_kop_same(const hs_mb_kop *a, const hs_mb_kop *b);
/* 1 when the compiled description has a quaternion (spatial) body: its M depends on q. */
int hs_mb_has_spatial(const hs_mb_model *mb);

/* A description compiled into C tables (hilstep-mbgen): the type's hs_model_type.data points to
 * one of these, and the hs_mb_gen_* functions below are that type's hooks for every generated
 * description (one set of forwarders, not one per file). */
typedef struct hs_mb_gen {
    const hs_mb_desc *desc; /* the description tables (const) */
    hs_mb_model *mb;        /* compiled by the first check()/initial() (RAM) */
    hs_model *inner;        /* the instance bound to *mb; inner->type != NULL once compiled (RAM) */
    int nq, nc, nin, nout;  /* sizes the generator saw: a compiled description must match them */
} hs_mb_gen;

/* Hooks of a generated type (hs_model.h signatures); m->type->data is its hs_mb_gen. check()
 * and initial() compile the tables once; the others refuse (HS_E_MODEL) before that. */
int hs_mb_gen_check(const hs_model *m);
/* 1 and why (cap chars) what refused m when m is a generated description whose tables this
 * build could not compile (e.g. "50 bodies exceed HS_MB_MAX_BODIES = 24; build with ..."); 0
 * (why "") for any other model or one that compiled. Init-time use only: it compiles again. */
int hs_mb_model_why(const hs_model *m, char *why, size_t cap);
int hs_mb_gen_initial(const hs_model *m, hs_real t0, hs_real *q, hs_real *u, hs_real *z);
int hs_mb_gen_mass(const hs_model *m, hs_real t, const hs_real *q, hs_real *M);
int hs_mb_gen_force(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, const hs_real *z,
                    const hs_real *in, hs_real *f);
int hs_mb_gen_force_jac(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                        const hs_real *z, const hs_real *in, hs_real *fq, hs_real *fu);
int hs_mb_gen_constraint(const hs_model *m, hs_real t, const hs_real *q, hs_real *g, hs_real *G,
                         hs_real *gt);
int hs_mb_gen_gamma(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, hs_real *gam);
int hs_mb_gen_curvature(const hs_model *m, hs_real t, const hs_real *q, const hs_real *lambda,
                        hs_real *K);
/* constraint_all() and masks() of a generated type (set when its description has them). */
int hs_mb_gen_constraint_all(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                             const hs_real *lambda, hs_real *G, hs_real *gam, hs_real *K);
int hs_mb_gen_masks(const hs_model *m, int *qq_mask, int *cq_mask);
/* hs_mb_fn_leaf_rows of the bound description (compiled first, as masks). */
int hs_mb_gen_leaf_rows(const hs_model *m, int *leaf);
int hs_mb_gen_output(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                     const hs_real *z, const hs_real *in, hs_real *y);
/* zdot of a generated type with auxiliary states (nz: the tire treads, model/TIRE.md). */
/* force_fj() of a generated type with element states (tires; as hs_mb_compile sets it). */
int hs_mb_gen_force_fj(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                       const hs_real *z, const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu);
int hs_mb_gen_zdot(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                   const hs_real *z, const hs_real *in, hs_real *zd);
int hs_mb_gen_energy(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                     const hs_real *z, hs_real *E);
/* blocks() of a generated type: the compiled description's pattern (dense when not packed). */
int hs_mb_gen_blocks(const hs_model *m, hs_blocks *b, int *buf, int nbuf);
int hs_mb_gen_motion(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                     hs_real *omega, int *degenerate, int *who);
/* release() of a generated type whose description has a potential floor: the compiled one's. */
int hs_mb_gen_release(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, hs_real *E);
/* spin() and quats() of a generated type with a spatial body: the compiled description's. */
int hs_mb_gen_spin(const hs_model *m, const hs_real *q, const hs_real *u, hs_real *w, int *body);
int hs_mb_gen_quats(const hs_model *m, const int **off);
/* err_groups() of a generated type: the compiled description's. */
int hs_mb_gen_err_groups(const hs_model *m, const hs_err_group **g);
int hs_mb_gen_lagrange(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                       const hs_real *z, const hs_real *in, hs_real *F, hs_real *Fq, hs_real *Fu,
                       hs_real *Mq);
/* Each constraint row's declared compliance c and damping d (nc each; -1 = none declared):
 * the model type's compliance() hook, for compiled (fn) and generated (gen) descriptions. */
int hs_mb_fn_compliance(const hs_model *m, hs_real *c, hs_real *d);
/* hs_model_type.leaf_rows: per constraint block (ncb) the leaf body it joins to its one other body, or -1. */
int hs_mb_fn_leaf_rows(const hs_model *m, int *leaf);
int hs_mb_gen_compliance(const hs_model *m, hs_real *c, hs_real *d);

/* Unilateral rows of a compiled description at (t, q): J (nk x nq, dense), phi (nk)
 * (model/contact/hs_mb_ct.c; the unilateral() hook of hs_model.h). */
int hs_mb_fn_unilateral(const hs_model *m, hs_real t, const hs_real *q, hs_real *J, hs_real *phi);
/* Compiles the description's contacts and stops into mb's unilateral rows (hs_mb_compile);
 * HS_OK, HS_E_SIZE or HS_E_MODEL_PARAM with *bad = the offending contact (or 100 + stop). */
hs_status hs_mb_ct_compile(hs_mb_model *mb, int *bad);
/* Slots of a contact between shape kinds ka and kb (either order), 0 when the pair is not supported. */
int hs_mb_ct_pair_slots(hs_mb_shape_kind ka, hs_mb_shape_kind kb);
/* The refusal of a pair hs_mb_ct_pair_slots does not support: the supported ones. */
#define HS_MB_CT_PAIRS_MSG                                                                               \
    "shape pair not supported (supported: sphere, box, capsule or cylinder on a plane; sphere-sphere; " \
    "sphere-box; sphere-capsule; box-box; capsule-box; capsule-capsule; cylinder-box)"

/* Fills mb's free-body table (mb->nfb, mb->fb) when the compiled description is made only of
 * spatial bodies under gravity (dim 3, no joint, no force element, one norm row per body in
 * body order), else sets mb->nfb = 0 (hs_mb_compile, after the rows). */
void hs_mb_fb_compile(hs_mb_model *mb);
/* free_bodies() of hs_model.h for a compiled description (HS_E_MODEL when it is not one). */
int hs_mb_fn_free_bodies(const hs_model *m, hs_fb_info *fb);
/* free_bodies() of a generated type. */
int hs_mb_gen_free_bodies(const hs_model *m, hs_fb_info *fb);

/* ct_points() of hs_model.h for a compiled description: every contact slot's lever arms,
 * normal, tangents and gap at q (model/contact/hs_mb_ct.c, the geometry of unilateral()). */
int hs_mb_fn_ct_points(const hs_model *m, hs_real t, const hs_real *q, hs_real *geo);
/* ct_points() of a generated type. */
int hs_mb_gen_ct_points(const hs_model *m, hs_real t, const hs_real *q, hs_real *geo);

/* unilateral() of a generated type (the rows it names are the generated ct_rows table). */
int hs_mb_gen_unilateral(const hs_model *m, hs_real t, const hs_real *q, hs_real *J, hs_real *phi);
/* Quantities of a tire element at (t, q, u, z, in) (hs_mb_tire_probe; the tire output line):
 * spin rate (rad/s), Fx, Fy (N, contact frame), Fz (N), slips sx, sy, the road's force on the
 * wheel in the ground frame (3, N). */
enum { HS_MB_TIRE_OMEGA = 0, HS_MB_TIRE_FX = 1, HS_MB_TIRE_FY = 2, HS_MB_TIRE_FZ = 3, HS_MB_TIRE_SX = 4,
       HS_MB_TIRE_SY = 5, HS_MB_TIRE_FG = 6, HS_MB_TIRE_NVAL = 9 };
/* Fills val (HS_MB_TIRE_NVAL) for tire element e; z the model's states (nz). HS_OK, HS_E_INPUT
 * (negative brake input), HS_E_NONFINITE, HS_E_MODEL (not a tire, or a build without tires). */
hs_status hs_mb_tire_probe(const hs_mb_model *mb, int e, hs_real t, const hs_real *q, const hs_real *u,
                     const hs_real *z, const hs_real *in, hs_real *val);

/* Coordinate count of a body kind. */
int hs_mb_body_nq(hs_mb_body_kind k);

#endif
