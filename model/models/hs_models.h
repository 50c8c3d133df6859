/* hs_models.h - the model library: sizes as compile-time constants, parameter blocks and types.
 * Each model lives in its own file; the registry lists them for the CLI tools. */
#ifndef HS_MODELS_H
#define HS_MODELS_H

#include "hs_model.h"
#include "mb_gen.h" /* the generated multibody models (hs_mb_NAME_type) */
#include "hs_veh.h" /* car, truck_trailer, truck_trailer_pen on TMeasy tires */

/* ---- test_eq: scalar q'' = -a q - b q' ([BAE] section 2) ---- */
#define HS_TEST_EQ_NQ 1
#define HS_TEST_EQ_NC 0
#define HS_TEST_EQ_NZ 0
typedef struct hs_test_eq_params {
    hs_real a;  /* stiffness a >= 0 (1/s^2) */
    hs_real b;  /* damping b >= 0 (1/s) */
    hs_real q0; /* initial position */
    hs_real u0; /* initial velocity */
} hs_test_eq_params;
extern const hs_model_type hs_test_eq_type;

/* ---- car_axle: IVP test set caraxis (shared/problems/car_axle.md) ---- */
#define HS_CAR_AXLE_NQ 4
#define HS_CAR_AXLE_NC 2
#define HS_CAR_AXLE_NZ 0
typedef struct hs_car_axle_params {
    hs_real eps;   /* epsilon; K = M eps^2 / 2 */
    hs_real M;     /* mass parameter */
    hs_real L;     /* axle length */
    hs_real L0;    /* spring rest length */
    hs_real r;     /* road bump amplitude */
    hs_real w;     /* road bump angular frequency (rad/time) */
    hs_real g;     /* gravity */
    hs_real external; /* 0: the published problem; 1: input 0 = extra road height (m, HIL) */
} hs_car_axle_params;
extern const hs_model_type hs_car_axle_type;
/* Published reference solution at t = 3 (test set soln): xl yl xr yr xl' yl' xr' yr' lam1 lam2. */
extern const double hs_car_axle_ref_t3[10];

/* ---- circular_track: point mass on the unit circle, PI speed control ([BAE] section 4.1) ---- */
#define HS_CIRCULAR_TRACK_NQ 2
#define HS_CIRCULAR_TRACK_NC 1
#define HS_CIRCULAR_TRACK_NZ 1   /* integral of the speed error (m) */
#define HS_CIRCULAR_TRACK_NIN 1  /* in[0]: tangential force command (N), used when external = 1 */
#define HS_CIRCULAR_TRACK_NOUT 4 /* speed (m/s), radius (m), x1 (m), x2 (m) */
typedef struct hs_circular_track_params {
    hs_real m;        /* mass (kg) */
    hs_real v_ref;    /* target tangential speed (m/s) */
    hs_real kp;       /* PI proportional gain (N s/m) */
    hs_real ki;       /* PI integral gain (N/m) */
    hs_real f_radial; /* outward radial force (N) */
    hs_real v0;       /* initial tangential speed (m/s) */
    hs_real external; /* 0: PI inside the model; 1: tangential force from input 0 (HIL) */
} hs_circular_track_params;
extern const hs_model_type hs_circular_track_type;

/* ---- pendulum: 2D unit pendulum of [L1] section 6.1; output 0: total energy (J) ---- */
#define HS_PENDULUM_NOUT 1
#define HS_PENDULUM_NQ 2
#define HS_PENDULUM_NC 1
#define HS_PENDULUM_NZ 0
typedef struct hs_pendulum_params {
    hs_real m;      /* mass (kg) */
    hs_real grav;   /* gravity magnitude (m/s^2), acting in -y */
    hs_real len;    /* rod length (m); constraint |x| - len */
    hs_real theta0; /* initial angle from the +x axis (rad); 0 = horizontal */
} hs_pendulum_params;
extern const hs_model_type hs_pendulum_type;

/* ---- rolling_disk: vertical disk rolling without slip (nonholonomic); outputs slip x, y
 * (m/s) and energy (J) ---- */
#define HS_ROLLING_DISK_NQ 4
#define HS_ROLLING_DISK_NC 2
typedef struct hs_rolling_disk_params {
    hs_real m;     /* mass (kg) */
    hs_real R;     /* radius (m) */
    hs_real spin0; /* initial rolling rate theta' (rad/s) */
    hs_real turn0; /* initial heading rate phi' (rad/s) */
} hs_rolling_disk_params;
extern const hs_model_type hs_rolling_disk_type;

/* ---- chain: planar chain of n uniform rods, maximal coordinates (issues 8, 9) ----
 * Sizes follow the parameter n (dims()); the macros give an instance's sizes and the type's
 * capacities (n = HS_CHAIN_N_MAX). Outputs: energy (J), tip x, tip y (m). */
#define HS_CHAIN_N_MAX 128
#define HS_CHAIN_NQ(n) (3 * (n))
#define HS_CHAIN_NC(n) (2 * (n))
#define HS_CHAIN_NOUT 3
#define HS_CHAIN_NQ_MAX HS_CHAIN_NQ(HS_CHAIN_N_MAX)
#define HS_CHAIN_NC_MAX HS_CHAIN_NC(HS_CHAIN_N_MAX)
/* Ints blocks() needs (exactly), reals of a packed nq x nq matrix (M, fq, fu, K) and of a
 * packed G. */
#define HS_CHAIN_BLOCK_INTS(n) (8 * (n))
#define HS_CHAIN_QQ_REALS(n) (9 * (n))
#define HS_CHAIN_CQ_REALS(n) (12 * (n) - 6)
/* Parameters of the rod models (chain, ladder): one layout, so their functions are shared. */
typedef struct hs_rods_params {
    hs_real n;    /* chain: rods, ladder: links; integer in 1 .. the model's N_MAX */
    hs_real m;    /* mass of each rod (kg) */
    hs_real len;  /* length of each rod (m) */
    hs_real grav; /* gravity magnitude (m/s^2), acting in -y */
} hs_rods_params;
typedef hs_rods_params hs_chain_params;
extern const hs_model_type hs_chain_type;

/* ---- ladder: [L2] Fig. 2 ladder of rods, planar, maximal coordinates (issue 9) ----
 * n links: 3n + 1 rods, 4n + 1 revolute joints, n closed loops. Outputs: energy (J), far
 * corner x, y (m). */
#define HS_LADDER_N_MAX 100
#define HS_LADDER_RODS(n) (3 * (n) + 1)
#define HS_LADDER_JOINTS(n) (4 * (n) + 1)
#define HS_LADDER_NQ(n) (3 * HS_LADDER_RODS(n))
#define HS_LADDER_NC(n) (2 * HS_LADDER_JOINTS(n))
#define HS_LADDER_NOUT 3
#define HS_LADDER_NQ_MAX HS_LADDER_NQ(HS_LADDER_N_MAX)
#define HS_LADDER_NC_MAX HS_LADDER_NC(HS_LADDER_N_MAX)
/* Ints blocks() needs (exactly), reals of a packed nq x nq matrix and of a packed G. */
#define HS_LADDER_BLOCK_INTS(n) (29 * (n) + 6)
#define HS_LADDER_QQ_REALS(n) (9 * HS_LADDER_RODS(n))
#define HS_LADDER_CQ_REALS(n) (48 * (n))
typedef hs_rods_params hs_ladder_params; /* n links; the paper's m = 10, len = 1 */
extern const hs_model_type hs_ladder_type;

/* ---- the multibody descriptions of model/mech as generated tables (make mb-gen, same bits as
 * --model-file): mb_gen.h (included above) declares every one and their sizes; car_axle_mb
 * (model/mech/car_axle.hsm) is in the registry ---- */

/* Largest sizes over the library, for statically sized workspaces of the CLI tools.
 * The chain and ladder are left out on purpose: their sizes follow a parameter and reach
 * nq = 903, which no static arena of the boards' tools should be sized for; those use the
 * per-model macros above (HS_CHAIN_NQ_MAX, HS_LADDER_NQ_MAX) or a runtime workspace query. */
#ifndef HS_NO_VEHICLES
#define HS_MODELS_MAX_NQ HS_VEH_TT_NQ   /* the truck-trailer (model/vehicle/hs_veh.h) */
#define HS_MODELS_MAX_NC 2
#define HS_MODELS_MAX_NZ HS_VEH_TT_NZ
#define HS_MODELS_MAX_NIN HS_VEH_TT_NIN
#define HS_MODELS_MAX_NOUT HS_VEH_TT_NOUT_PEN
#else /* a build with -DHS_NO_VEHICLES (none of the shipped ones): the registry without the vehicles */
#define HS_MODELS_MAX_NQ 4
#define HS_MODELS_MAX_NC 2
#define HS_MODELS_MAX_NZ 1
#define HS_MODELS_MAX_NIN 1
#define HS_MODELS_MAX_NOUT 6
#endif
#define HS_MODELS_MAX_PARAM_BYTES 128

/* NULL-terminated list of every model type. */
extern const hs_model_type *const hs_model_registry[];
/* The type called `name`, or NULL. */
const hs_model_type *hs_model_find(const char *name);

#endif
