/* hs_tire.h - a handling tire: Rill's TMeasy (steady-state slip forces, combined slip, pneumatic
 * trail) with a vertical spring-damper that never pulls, rolling resistance, first-order tire
 * deflection dynamics for low speed and standstill, and a wheel brake that sticks.
 *
 * Why TMeasy and not Pacejka's Magic Formula: [BAE] §4.3 builds veDYNA "following the
 * approach of Rill [19]", and TMeasy is Rill's tire; it needs a dozen physical parameters per
 * direction (initial slope, maximum, sliding force and their slips at two loads) instead of a
 * 100-coefficient .tir file; its curves are rational functions and cubics (no sin/atan/exp), so
 * a step costs a few hundred flops on a Cortex-M7 and stays bit-identical across builds; and its
 * combined slip is built in (generalized slip), not a second set of weighting functions.
 * References and every formula with its equation: model/TIRE.md.
 *
 * Conventions (ISO-like contact frame C at the contact point: x along the wheel's heading in the
 * road plane, z the road normal up, y = z x x): forces are those the road exerts on the wheel,
 * torques are about C's axes. Units SI: m, s, N, N m, rad. Freestanding C99, no libc, fixed
 * work per call (no iteration): every branch is a closed-form formula. */
#ifndef HS_TIRE_H
#define HS_TIRE_H

#include "hs_types.h"

/* TMeasy curve data in one direction at one load: initial slope dF0 (N per unit slip), the
 * maximum FM (N) at slip sM, full sliding FS (N) from slip sS on (slips dimensionless). */
typedef struct hs_tire_curve {
    hs_real dF0, sM, FM, sS, FS;
} hs_tire_curve;

/* Tire parameters. Curve data are given at the nominal load FzN and at 2 FzN (Rill's way of
 * writing the degressive load influence). */
typedef struct hs_tire_par {
    hs_real r0;          /* unloaded radius (m), > 0 */
    hs_real cz;          /* vertical stiffness (N/m), > 0 */
    hs_real dz;          /* vertical damping (N s/m), >= 0 */
    hs_real FzN;         /* nominal load (N), > 0 */
    hs_tire_curve x[2];  /* longitudinal curve at FzN, 2 FzN */
    hs_tire_curve y[2];  /* lateral curve at FzN, 2 FzN */
    hs_real nL0[2];      /* (n/L)_0: pneumatic trail over contact length at sy = 0, at FzN, 2 FzN */
    hs_real sy0[2];      /* lateral slip where the trail changes sign, at FzN, 2 FzN */
    hs_real syE[2];      /* lateral slip from which the trail is zero, at FzN, 2 FzN */
    hs_real cx, dx;      /* longitudinal tread stiffness (N/m) and damping (N s/m), > 0 */
    hs_real cy, dy;      /* lateral tread stiffness (N/m) and damping (N s/m), > 0 */
    hs_real fr;          /* rolling resistance coefficient (dimensionless), >= 0 */
    hs_real vN;          /* fictitious slip velocity of Rill's modified slip (m/s), > 0 */
    hs_real sigma_b;     /* brake bristle stiffness of the Dahl model at rest (1/rad), > 0 */
    hs_real omega_b;     /* spin rate above which the bristle stiffness falls as 1/|Omega| (rad/s), > 0 */
    hs_real tau_b;       /* brake bristle damping time (s), >= 0, tau_b sigma_b omega_b <= 1 (the
                          * torque then never exceeds the rating) */
    hs_real mu;          /* road friction relative to the data's road (dimensionless), > 0: FM, FS,
                          * sM, sS scale with it, dF0 stays (Rill; model/TIRE.md "Road friction");
                          * 1 from hs_tire_par_car/_truck, set per wheel and evaluation by the caller */
    hs_real B;           /* contact patch width (m), > 0: the bore radius R_B = (L + B)/6 (Rill) */
    hs_real kgam;        /* camber force factor (dimensionless), >= 0: 1 Rill's camber slip, 0 none */
    hs_real kbore;       /* bore torque factor (dimensionless), >= 0: 1 Rill's bore torque, 0 none */
    hs_real cpsi, dpsi;  /* torsional tread stiffness (N m/rad) and damping (N m s/rad), > 0 */
} hs_tire_par;

/* Rill's passenger car tire 205/50 R15 (FzN = 3.5 kN), "Road Vehicle Dynamics" (2012) Table
 * 3.3, with hilstep's tread dynamics, rolling resistance and brake values (model/TIRE.md). */
void hs_tire_par_car(hs_tire_par *p);
/* A truck tire 385/65 R22.5 (FzN = 35 kN) scaled from the same source (model/TIRE.md). */
void hs_tire_par_truck(hs_tire_par *p);
/* HS_OK or HS_E_MODEL_PARAM when a parameter is out of range or a curve inconsistent
 * (0 < sM < sS, FM > 0, FS > 0, dF0 > 0; 0 < sy0 <= syE). */
hs_status hs_tire_par_check(const hs_tire_par *p);

/* TMeasy's generalized force curve F(s) for s >= 0 with the curve data c: rational from 0 to sM,
 * cubic Hermite to sS, constant after (model/TIRE.md). *F (N), *fos = F/s (N; dF0 at s = 0). */
void hs_tire_curve_eval(const hs_tire_curve *c, hs_real s, hs_real *F, hs_real *fos);

/* Curve data at load Fz (N) on a road of relative friction mu: dF0, FM, FS quadratic in Fz
 * through 0, FzN, 2 FzN; sM, sS linear; FM, FS, sM, sS times mu (model/TIRE.md). */
void hs_tire_load(const hs_tire_curve c[2], hs_real FzN, hs_real Fz, hs_real mu, hs_tire_curve *out);

/* Steady-state forces of the published model at load Fz (N) and slips sx, sy (Rill's modified
 * slips, dimensionless): Fx, Fy (N) by the generalized slip (combined), Mz = -n Fy (N m) with
 * the pneumatic trail n = (n/L)(sy) L, L = 2 sqrt(r0 Fz / cz). Any output may be NULL. */
void hs_tire_steady(const hs_tire_par *p, hs_real Fz, hs_real sx, hs_real sy,
                    hs_real *Fx, hs_real *Fy, hs_real *Mz);
/* hs_tire_steady with Rill's camber slip sg = -(L/2) Omega sin(gamma)/(rd |Omega| + vN) and bore
 * slip sb = -R_B w_n/(rd |Omega| + vN) (dimensionless): Fy (N) takes the camber's equivalent
 * lateral slip kgam sg/3, the generalized slip takes sb (when kbore > 0), Mz (N m) the trail
 * of the slip sy's share, Tbo = kbore R_B F(s)/s sb (N m) the bore torque. Outputs may be NULL. */
void hs_tire_steady_cb(const hs_tire_par *p, hs_real Fz, hs_real sx, hs_real sy, hs_real sg, hs_real sb,
                       hs_real *Fx, hs_real *Fy, hs_real *Mz, hs_real *Tbo);

/* Arguments of the full element, in this order in the Jacobian's columns. */
enum hs_tire_arg {
    HS_TIRE_PEN = 0,   /* penetration of the undeformed wheel into the road along z (m) */
    HS_TIRE_PEND = 1,  /* its rate (m/s) */
    HS_TIRE_VX = 2,    /* wheel centre velocity along x of C (m/s) */
    HS_TIRE_VY = 3,    /* wheel centre velocity along y of C (m/s) */
    HS_TIRE_OM = 4,    /* wheel spin rate about the axle (rad/s), positive rolling forward */
    HS_TIRE_OC = 5,    /* camber spin Omega sin(gamma) = Omega e.n about the road normal (rad/s) */
    HS_TIRE_WN = 6,    /* the wheel's whole angular velocity about the road normal (rad/s) */
    HS_TIRE_XE = 7,    /* longitudinal tread deflection state (m) */
    HS_TIRE_YE = 8,    /* lateral tread deflection state (m) */
    HS_TIRE_ZB = 9,    /* brake Dahl state (dimensionless, in [-1, 1]) */
    HS_TIRE_PSI = 10,  /* torsional tread deflection state of the bore torque (rad) */
    HS_TIRE_NARG = 11
};
/* Results, in this order in the Jacobian's rows. */
enum hs_tire_res {
    HS_TIRE_FZ = 0,    /* vertical force (N), >= 0 */
    HS_TIRE_FX = 1,    /* longitudinal force (N), dynamic: cx xe + dx xe' */
    HS_TIRE_FY = 2,    /* lateral force (N), dynamic: cy ye + dy ye' */
    HS_TIRE_MZ = 3,    /* aligning torque about z (N m): -n Fy */
    HS_TIRE_TY = 4,    /* rolling resistance torque on the spin (N m) */
    HS_TIRE_TB = 5,    /* brake torque on the spin (N m) */
    HS_TIRE_TBO = 6,   /* bore torque about the road normal (N m): cpsi psi + dpsi psi' */
    HS_TIRE_DXE = 7,   /* xe' (m/s) */
    HS_TIRE_DYE = 8,   /* ye' (m/s) */
    HS_TIRE_DZB = 9,   /* zb' (1/s) */
    HS_TIRE_DPSI = 10, /* psi' (1/s) */
    HS_TIRE_NRES = 11
};

/* One evaluation of the element. */
typedef struct hs_tire_out {
    hs_real y[HS_TIRE_NRES];                  /* results (enum above) */
    hs_real J[HS_TIRE_NRES][HS_TIRE_NARG];    /* d y / d arg, exact (forward-mode derivatives
                                               * of the closed forms; no differences) */
    hs_real rd;                               /* dynamic rolling radius (m) */
    hs_real sx, sy;                           /* Rill's modified slips (dimensionless) */
    hs_real Fxs, Fys;                         /* steady-state forces (N) the tread relaxes to */
} hs_tire_out;

/* Evaluates the tire at arg (HS_TIRE_NARG) with brake torque capacity Tb (N m, >= 0; the ECU's
 * brake demand). The tread states xe, ye relax towards the steady forces (Rill's first-order
 * tire dynamics) so that at standstill the tire is a spring-damper (no creep on a slope) and
 * the brake is a Dahl element (sticks at rest). The forces act on the wheel at the contact
 * point; the spin gets -rd Fx + Ty + Tb (plus the drive torque, which is not the tire's).
 * Returns HS_OK or HS_E_NONFINITE. */
hs_status hs_tire_eval(const hs_tire_par *p, const hs_real *arg, hs_real Tb, hs_tire_out *o);
/* hs_tire_eval with only the Jacobian's columns HS_TIRE_VX, HS_TIRE_VY, HS_TIRE_OM written (the
 * others left as they were): what a vehicle with a rigid wheel load and explicit tread and
 * brake states needs, in one pass instead of three. Same values and entries, bit for bit. */
hs_status hs_tire_eval_vel(const hs_tire_par *p, const hs_real *arg, hs_real Tb, hs_tire_out *o);
/* hs_tire_eval with only the Jacobian's columns 0 .. HS_TIRE_OM written, and HS_TIRE_OC when
 * p->kgam > 0, HS_TIRE_WN when p->kbore > 0 (the wheel's penetration, its rate, its velocities;
 * the states' columns, and any other written in the same pass, as they come): what the
 * multibody element's fq, fu need, in two passes (three with the bore torque). Same values and
 * entries, bit for bit. */
hs_status hs_tire_eval_mech(const hs_tire_par *p, const hs_real *arg, hs_real Tb, hs_tire_out *o);
/* hs_tire_eval without the Jacobian (o->J not written): the same values, bit for bit, at about
 * a sixth of the work (force and state-rate evaluations). */
hs_status hs_tire_eval_values(const hs_tire_par *p, const hs_real *arg, hs_real Tb, hs_tire_out *o);

#endif
