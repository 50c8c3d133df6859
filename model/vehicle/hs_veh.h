/* hs_veh.h - road vehicles on TMeasy tires (model/vehicle/hs_tire.h): a passenger car and a truck with
 * a trailer coupled at the hitch either by a joint (2 constraint rows: the DAE coupling of
 * [BAE] §4.3) or by a stiff spring-damper (the penalty coupling it compares against).
 *
 * Each unit (car, truck, trailer) is a rigid body in the road plane, coordinates (X, Y, psi)
 * (m, m, rad), with one spin coordinate per wheel (rad): q' = u, M constant. Wheel loads are the
 * static axle loads (no suspension travel: model/TIRE.md says what this leaves out). The tread
 * and brake states of every wheel are the auxiliary states z (xe, ye, zb per wheel, hs_tire.h).
 *
 * With external = 0 the model drives itself (the figure and test runs): a preview steering
 * driver follows the ISO 3888-1 double lane change centre line (maneuver = 1) or holds the
 * steering angle `steer` (maneuver = 0), and every wheel gets the brake capacity `brake`. With
 * external = 1 the ECU's inputs are used instead (names below). Units SI. */
#ifndef HS_VEH_H
#define HS_VEH_H

#include "hs_model.h"

/* Parameters shared by the three types (hs_param_info tables in hs_veh.c). */
typedef struct hs_veh_params {
    hs_real v0;       /* initial speed (m/s) */
    hs_real grade;    /* road grade along X (rise over run; 0.1 = 10 %) */
    hs_real brake;    /* brake capacity on every wheel when external = 0 (N m) */
    hs_real external; /* 1: steering, drive and brake torques from the inputs */
    hs_real maneuver; /* external = 0: 0 constant steer, 1 ISO 3888-1 double lane change driver,
                       * 2 that course every 150 m with a speed controller to v0 (the soak) */
    hs_real steer;    /* constant steering angle of maneuver 0 (rad) */
    hs_real k_hitch;  /* penalty coupling stiffness (N/m) */
    hs_real c_hitch;  /* penalty coupling damping (N s/m) */
    hs_real mu;       /* road friction relative to the tire data's road (1: Rill's dry road) */
    hs_real mu_l;     /* friction under the left wheels (0: mu), the mu-split's one side */
    hs_real mu_r;     /* friction under the right wheels (0: mu) */
    hs_real patch_x0; /* a road patch from X = patch_x0 (m, ground) ... */
    hs_real patch_x1; /* ... to patch_x1 (m; a step in mu: patch_x1 beyond the course) */
    hs_real patch_mu; /* friction on the patch, both sides (0: no patch) */
} hs_veh_params;

/* Sizes: car 3 + 4 spins, truck-trailer 2 x (3 + 4); three tread/brake states per wheel;
 * inputs steer + drive and brake torque per wheel; the car adds a road friction input per
 * wheel (mu_fl, mu_fr, mu_rl, mu_rr: a rig's friction actuator; 0 = the road's, hs_veh.c). */
#define HS_VEH_CAR_NQ 7
#define HS_VEH_CAR_NZ 12
#define HS_VEH_CAR_NIN 13 /* steer, drive x 4, brake x 4, the friction actuators mu_fl..mu_rr */
/* Largest friction an input mu_fl..mu_rr may set (relative to the tire data's road, as --param mu) */
#define HS_VEH_MU_MAX HS_R(2.0)
#define HS_VEH_CAR_NOUT 12
#define HS_VEH_TT_NQ 14
#define HS_VEH_TT_NZ 24
#define HS_VEH_TT_NIN 17
#define HS_VEH_TT_NOUT_DAE 18 /* the joint's force is the stepper's multiplier, not an output */
#define HS_VEH_TT_NOUT_PEN 20

extern const hs_model_type hs_veh_car_type;     /* "car" */
extern const hs_model_type hs_veh_tt_dae_type;  /* "truck_trailer": hitch as a joint (nc = 2, rows in mm,
                                                  * multipliers in kN on the truck) */
extern const hs_model_type hs_veh_tt_pen_type;  /* "truck_trailer_pen": hitch as a spring-damper */

/* ISO 3888-1 double lane change centre line used by the driver: lateral offset (m) at X (m),
 * and its slope dy/dX. Sections: entry 15 m, change 30 m, side lane 25 m, change back 25 m,
 * exit 15 m, from X = 0; offset 3.5 m; smoothstep blends in the two change sections. */
hs_real hs_veh_iso3888_y(hs_real X, hs_real *slope);

/* Hitch position defect |r_truck - r_trailer| (m) at q of a truck_trailer type; 0 for the car. */
hs_real hs_veh_hitch_defect(const hs_model *m, const hs_real *q);

#endif
