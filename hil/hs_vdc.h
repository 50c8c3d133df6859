/* hs_vdc.h - the car's vehicle dynamics control laws and driver profiles (hil/VEHICLE.md):
 * ABS (per-wheel slip PI), ESC (yaw-rate control by single-wheel braking) and the driver of
 * the manoeuvres (sine with dwell of FMVSS 126 / UN R140, step steer, straight line with a
 * path and speed hold). OS-free and allocation-free, so hilstep-ecu runs them on its clock
 * over the link and hilstep-vdc runs the same code offline against the car model. Every call
 * does a fixed amount of work. Wheels are indexed fl, fr, rl, rr; SI units. */
#ifndef HS_VDC_H
#define HS_VDC_H

#include "hs_types.h"

#include <stdint.h>

/* The car's dynamic wheel radii at their static loads (model/vehicle/hs_veh.c, rd = r0 - Fz/(3 cz)):
 * front 0.3 - 4087/570000, rear 0.3 - 3270/570000 (m), [4]. */
extern const hs_real hs_vdc_rd[4];

/* ---- ABS ---- */

/* ABS settings (defaults from hs_abs_default). */
typedef struct hs_abs_cfg {
    hs_real demand;    /* driver's brake torque per wheel (N m) */
    hs_real slip_ref;  /* target longitudinal slip (1) */
    hs_real kp, ki;    /* N m per unit slip; N m per unit slip and second */
    hs_real vmin;      /* below this speed the demand passes unchanged (m/s) */
    hs_real rate;      /* fastest rise of a brake command (N m/s) */
    int select_low;    /* 1: the rear axle gets the smaller of its two wheels' torques (mu-split) */
} hs_abs_cfg;

/* ABS state: mode 1 slip control, 2 the demand with the rise limit only (locked reference). */
typedef struct hs_abs_state {
    hs_abs_cfg c;
    int mode;
    hs_real I[4];      /* integral part of each wheel's torque (N m) */
    hs_real T[4];      /* last command per wheel (N m) */
    hs_real slip_max;  /* largest |slip| of any wheel while controlling (1) */
    uint64_t ticks;    /* ticks the slip controller acted (v >= vmin) */
    uint64_t faults;   /* wheel-ticks left to the demand: a slip that is not a number */
} hs_abs_state;

/* The shipped ABS: demand 2500 N m, slip 0.1, kp 3000, ki 300000, vmin 3 m/s, rate 10 kN m/s. */
hs_abs_cfg hs_abs_default(void);

/* Resets a to cfg c in mode (1 abs, 2 brake); returns HS_E_PARAM for a mode or setting out of range. */
hs_status hs_abs_init(hs_abs_state *a, const hs_abs_cfg *c, int mode);

/* One tick of dt (s): vehicle speed v (m/s), wheel speeds om[4] (rad/s) in, brake torques T[4] (N m) out. */
void hs_abs_step(hs_abs_state *a, hs_real v, const hs_real om[4], hs_real dt, hs_real T[4]);

/* ---- ESC ---- */

/* ESC settings: the single-track reference's parameters and the brake intervention. */
typedef struct hs_esc_cfg {
    hs_real m, a, b;   /* mass (kg), CG to front and to rear axle (m) */
    hs_real kus;       /* understeer gradient (rad per m/s^2 of lateral acceleration) */
    hs_real mu;        /* road friction the yaw-rate limit assumes (1) */
    hs_real db;        /* yaw-rate deadband (rad/s) */
    hs_real kp;        /* brake torque per rad/s of yaw-rate error beyond the deadband (N m s) */
    hs_real tmax;      /* largest intervention torque (N m) */
    hs_real rate;      /* fastest rise of an intervention (N m/s) */
    hs_real vmin;      /* no intervention below this speed (m/s) */
} hs_esc_cfg;

/* ESC state. */
typedef struct hs_esc_state {
    hs_esc_cfg c;
    hs_real r_ref;     /* last yaw-rate reference (rad/s) */
    hs_real T[4];      /* last intervention per wheel (N m) */
    uint64_t ticks;    /* ticks with an intervention */
    uint64_t saturated; /* ticks whose intervention was clamped to tmax */
    uint64_t faults;   /* ticks with a speed or yaw-rate error that is not a number (no braking) */
    hs_real t_max;     /* largest torque commanded (N m) */
} hs_esc_state;

/* The car of model/vehicle/hs_veh.c: 1500 kg, a 1.2, b 1.5 m, understeer gradient 1.0e-3 rad
 * s^2/m (its slowly increasing steer, hil/VEHICLE.md), mu 1, deadband 0.05 rad/s, kp 20000 N m s,
 * 2500 N m, 20 kN m/s. */
hs_esc_cfg hs_esc_default(void);

/* Resets e to cfg c; HS_E_PARAM for a setting out of range. */
hs_status hs_esc_init(hs_esc_state *e, const hs_esc_cfg *c);

/* Yaw-rate reference (rad/s) of the single-track model at speed v (m/s) and front steer delta
 * (rad): v delta / (l + kus v^2), limited to mu g / v. */
hs_real hs_esc_ref(const hs_esc_state *e, hs_real v, hs_real delta);

/* One tick: speed v (m/s), steer delta (rad), yaw rate r (rad/s) in; the intervention per
 * wheel T[4] (N m, added to the driver's brakes by the caller: max of the two) out. */
void hs_esc_step(hs_esc_state *e, hs_real v, hs_real delta, hs_real r, hs_real dt, hs_real T[4]);

/* ---- driver ---- */

/* Steering profiles of the driver. */
typedef enum hs_drv_kind {
    HS_DRV_STRAIGHT = 0, /* path hold on Y = 0 (gain path_k on the previewed lateral offset) */
    HS_DRV_SINE_DWELL,   /* FMVSS 126 / UN R140: amp sin(2 pi f t), 0.5 s dwell at the second peak */
    HS_DRV_STEP,         /* a step to amp, reached with the steering rate `rate` */
    HS_DRV_RAMP          /* slowly increasing steer: rate (rad/s) from t0 */
} hs_drv_kind;

/* Driver settings. */
typedef struct hs_drv_cfg {
    hs_drv_kind kind;
    hs_real t0;        /* start of the manoeuvre (s) */
    hs_real amp;       /* steering amplitude at the wheels (rad) */
    hs_real freq;      /* sine with dwell: 0.7 Hz */
    hs_real dwell;     /* sine with dwell: 0.5 s */
    hs_real rate;      /* step: steering rate to amp; ramp: the ramp (rad/s) */
    hs_real path_k;    /* straight: rad of steer per m of previewed offset (0: hands off) */
    hs_real preview;   /* straight: preview distance ahead of the CG (m) */
    hs_real v_ref;     /* speed hold to v_ref before t0 (m/s; 0: coast throughout) */
    hs_real kd;        /* speed hold: drive torque per m/s on each rear wheel (N m s/m) */
} hs_drv_cfg;

/* Defaults of kind k: t0 0.5 s, amp 0, 0.7 Hz, 0.5 s dwell, rate 0.5 rad/s, path_k 0, preview 10 m, coast. */
hs_drv_cfg hs_drv_default(hs_drv_kind k);

/* End of the sine with dwell's steering, completion of steer (s after t0): 1/f + dwell. */
hs_real hs_drv_cos(const hs_drv_cfg *d);

/* Steering angle (rad) at time t (s) for pose Y (m), psi (rad); drive torque per rear wheel
 * (N m) at speed v (m/s) into *drive; the steer within +-0.6 rad, 0 (straight) when it is not a
 * number (NaN time or pose, the sine of a huge heading), the drive 0 without a speed. */
hs_real hs_drv_step(const hs_drv_cfg *d, hs_real t, hs_real Y, hs_real psi, hs_real v, hs_real *drive);

#endif
