/* hs_veh.c - the car and the truck-trailer on TMeasy tires (hs_veh.h, model/TIRE.md).
 *
 * Per wheel: the contact frame turns with theta = psi + delta (delta the steering angle of a
 * steered wheel), the wheel centre's velocity in that frame gives the tire's vx, vy, the tire's
 * forces act at the wheel (force and aligning torque on the unit, -rd Fx + rolling resistance +
 * brake + drive on the spin). Jacobians are the chain rule through these few formulas with the
 * tire's exact partials (hs_tire_eval); the driver's delta(q) enters through d delta/dq. */
#include "hs_veh.h"
#include "hs_tire.h"
#include "hs_math.h"
#include "hs_inline.h"
#include <stddef.h>

#define P(m) ((const hs_veh_params *)(m)->p)
#define MAXW 8
#define MAXU 2
/* table constants written as expressions of the data, rounded once to hs_real */
#define VR(x) ((hs_real)(x))

typedef struct veh_wheel {
    int unit;         /* 0 car/truck, 1 trailer */
    hs_real a, b;     /* position in the unit frame (m): forward, left */
    int steer;        /* 1: turned by delta */
    hs_real Fz;       /* static load (N) at grade 0 */
    hs_real J;        /* spin inertia (kg m^2) */
    int truck;        /* tire data: 0 car, 1 truck */
} veh_wheel;

typedef struct veh_cfg {
    int nu, nw, coupling;       /* coupling: 0 none, 1 joint (DAE), 2 spring-damper */
    hs_real m[MAXU], Iz[MAXU];  /* kg, kg m^2 */
    hs_real hitch[MAXU][2];     /* hitch point in each unit's frame (m) */
    hs_real af;                 /* front axle ahead of unit 0's centre (m), the driver's reference */
    hs_real x0;                 /* initial X of unit 0 (m) */
    veh_wheel w[MAXW];
    hs_real kd;                 /* maneuver 2: drive torque per m/s of speed error on each of unit 0's rear wheels (N m s/m) */
    hs_real drv_k, drv_l;       /* driver gain (rad of steering per m of preview error), preview
                                 * distance ahead of the front axle (m); model/TIRE.md */
} veh_cfg;

/* Passenger car: 1500 kg, Iz 2500 kg m^2, a = 1.2 m, b = 1.5 m, track 1.5 m; static loads
 * m g b/(2 l) front, m g a/(2 l) rear. */
/* MISRA Ref 9.3.2 [car uses nw = 4 of the MAXW wheel entries] */
static const veh_cfg car_cfg = {
    1, 4, 0, {VR(1500.0), VR(0.0)}, {VR(2500.0), VR(0.0)}, {{VR(0.0), VR(0.0)}, {VR(0.0), VR(0.0)}}, VR(1.2), VR(-20.0),
    {{0, VR(1.2), VR(0.75), 1, VR(1500.0 * 9.81 * 1.5 / 5.4), VR(1.0), 0},
     {0, VR(1.2), VR(-0.75), 1, VR(1500.0 * 9.81 * 1.5 / 5.4), VR(1.0), 0},
     {0, VR(-1.5), VR(0.75), 0, VR(1500.0 * 9.81 * 1.2 / 5.4), VR(1.0), 0},
     {0, VR(-1.5), VR(-0.75), 0, VR(1500.0 * 9.81 * 1.2 / 5.4), VR(1.0), 0}}, VR(300.0), VR(0.06), VR(11.0)};

/* Truck (8 t, Iz 30 t m^2, front axle +1.5 m, rear -2.3 m, hitch -2.0 m) and trailer (20 t,
 * Iz 250 t m^2, kingpin +5.0 m, tandem axles -3.6/-4.9 m), track 2.0 m. Static loads: the
 * kingpin carries 20 t g 4.25/9.25 = 90.2 kN of the trailer onto the truck (the tandem's
 * centre is 4.25 m behind the trailer's centre of mass, the kingpin 5.0 m ahead); the truck's
 * axle loads follow from moments about its rear axle: front 54.6 kN, rear 114.1 kN. */
#define TT_G 9.81
#define TT_KP (20000.0 * TT_G * 4.25 / 9.25)
#define TT_FRONT ((8000.0 * TT_G * 2.3 + TT_KP * 0.3) / 3.8)
#define TT_REAR (8000.0 * TT_G + TT_KP - TT_FRONT)
#define TT_TRL (20000.0 * TT_G - TT_KP)
static const veh_cfg tt_cfg_base = {
    2, 8, 1, {VR(8000.0), VR(20000.0)}, {VR(30000.0), VR(250000.0)}, {{VR(-2.0), VR(0.0)}, {VR(5.0), VR(0.0)}}, VR(1.5), VR(-20.0),
    {{0, VR(1.5), VR(1.0), 1, VR(TT_FRONT / 2.0), VR(10.0), 1},
     {0, VR(1.5), VR(-1.0), 1, VR(TT_FRONT / 2.0), VR(10.0), 1},
     {0, VR(-2.3), VR(1.0), 0, VR(TT_REAR / 2.0), VR(10.0), 1},
     {0, VR(-2.3), VR(-1.0), 0, VR(TT_REAR / 2.0), VR(10.0), 1},
     {1, VR(-3.6), VR(1.0), 0, VR(TT_TRL / 4.0), VR(10.0), 1},
     {1, VR(-3.6), VR(-1.0), 0, VR(TT_TRL / 4.0), VR(10.0), 1},
     {1, VR(-4.9), VR(1.0), 0, VR(TT_TRL / 4.0), VR(10.0), 1},
     {1, VR(-4.9), VR(-1.0), 0, VR(TT_TRL / 4.0), VR(10.0), 1}}, VR(3000.0), VR(0.02), VR(12.0)};

static const veh_cfg *cfg_of(const hs_model *m)
{
    return (const veh_cfg *)m->type->data;
}

static void tire_par(const veh_wheel *w, hs_tire_par *tp)
{
    if (w->truck != 0) {
        hs_tire_par_truck(tp);
    } else {
        hs_tire_par_car(tp);
    }
    /* the planar car's wheels stand upright on a flat road and carry no torsional tread state:
     * no camber, no bore torque (the multibody tire element has both, model/TIRE.md) */
    tp->kgam = HS_R(0.0);
    tp->kbore = HS_R(0.0);
}

/* ---- the lane change and the driver ---- */

hs_real hs_veh_iso3888_y(hs_real X, hs_real *slope)
{
    const hs_real off = HS_R(3.5);
    hs_real y = HS_R(0.0), d = HS_R(0.0);
    if (X > HS_R(15.0) && X < HS_R(45.0)) {
        const hs_real s = (X - HS_R(15.0)) / HS_R(30.0);
        y = off * s * s * (HS_R(3.0) - HS_R(2.0) * s);
        d = off * HS_R(6.0) * s * (HS_R(1.0) - s) / HS_R(30.0);
    } else if (X >= HS_R(45.0) && X <= HS_R(70.0)) {
        y = off;
    } else if (X > HS_R(70.0) && X < HS_R(95.0)) {
        const hs_real s = (X - HS_R(70.0)) / HS_R(25.0);
        y = off * (HS_R(1.0) - s * s * (HS_R(3.0) - HS_R(2.0) * s));
        d = -off * HS_R(6.0) * s * (HS_R(1.0) - s) / HS_R(25.0);
    } else {
        y = HS_R(0.0);
    }
    if (slope != NULL) {
        *slope = d;
    }
    return y;
}

/* Steering angle (rad) and its gradient with respect to unit 0's (X, Y, psi). */
static hs_real steering(const hs_model *m, const hs_real *q, const hs_real *in, hs_real dd[3])
{
    const hs_veh_params *p = P(m);
    dd[0] = HS_R(0.0);
    dd[1] = HS_R(0.0);
    dd[2] = HS_R(0.0);
    if (p->external == HS_R(1.0)) {
        return in[0];
    }
    if (p->maneuver == HS_R(0.0)) {
        return p->steer;
    }
    const veh_cfg *C = cfg_of(m);
    hs_real s, c;
    hs_sincos(q[2], &s, &c);
    const hs_real L = C->af + C->drv_l, K = C->drv_k;
    const hs_real Xp = q[0] + L * c, Yp = q[1] + L * s;
    hs_real dy;
    /* maneuver 2 repeats the course every 150 m (the soak); floor by a bounded count */
    hs_real Xc = Xp;
    if (p->maneuver == HS_R(2.0) && Xp > HS_R(0.0) && Xp < HS_R(1.0e9)) {
        const long n = (long)(Xp / HS_R(150.0));
        Xc = Xp - HS_R(150.0) * (hs_real)n;
    }
    const hs_real yr = hs_veh_iso3888_y(Xc, &dy);
    dd[0] = K * dy;
    dd[1] = -K;
    dd[2] = K * (dy * (-L * s) - L * c);
    return K * (yr - Yp);
}

/* ---- per-wheel forces ---- */

/* Index of unit k's first coordinate and of wheel i's spin. */
static int unit_q(const veh_cfg *C, int k)
{
    (void)C;
    return (k == 0) ? 0 : 7;
}

static int spin_q(const veh_cfg *C, int i)
{
    return (C->w[i].unit == 0) ? 3 + i : 7 + 3 + (i - 4);
}


/* Results of one wheel: generalized force on its unit (fX, fY, tau) and spin (fw), their
 * derivatives with respect to l = (psi, delta, Xd, Yd, psid, Om), and the state rates. */
typedef struct wheel_res {
    hs_real f[4];
    hs_real d[4][6];
    hs_real zd[3];
    hs_real Fx, Fy, rd;
} wheel_res;

/* The road's friction under a wheel at ground X (m) on side b (> 0 left): the patch, else the
 * side's mu_l / mu_r, else mu. Two comparisons, no table walk. Its dependence on X (a step at
 * the patch's edges) is left out of the Jacobian: piecewise constant, zero inside each piece. */
static hs_real road_mu(const hs_veh_params *p, hs_real b, hs_real X)
{
    if (p->patch_mu > HS_R(0.0) && X >= p->patch_x0 && X < p->patch_x1) {
        return p->patch_mu;
    }
    const hs_real side = (b > HS_R(0.0)) ? p->mu_l : p->mu_r;
    return (side > HS_R(0.0)) ? side : p->mu;
}

static int wheel_eval(const hs_model *m, int i, const hs_real *q, const hs_real *u, const hs_real *z,
                      hs_real delta, hs_real Tb, hs_real Td, hs_real mu_in, hs_real cosg, int jac, wheel_res *r)
{
    const veh_cfg *C = cfg_of(m);
    const veh_wheel *W = &C->w[i];
    const int qo = unit_q(C, W->unit), wo = spin_q(C, i);
    hs_tire_par tp;
    tire_par(W, &tp);
    const hs_real psi = q[qo + 2];
    hs_real sp, cp, st, ct;
    hs_sincos(psi, &sp, &cp);
    const hs_real th = psi + (W->steer != 0 ? delta : HS_R(0.0));
    hs_sincos(th, &st, &ct);
    const hs_real rx = cp * W->a - sp * W->b, ry = sp * W->a + cp * W->b; /* R(psi) s */
    tp.mu = (mu_in > HS_R(0.0)) ? mu_in : road_mu(P(m), W->b, q[qo] + rx);
    const hs_real Xd = u[qo], Yd = u[qo + 1], pd = u[qo + 2], Om = u[wo];
    const hs_real vX = Xd - pd * ry, vY = Yd + pd * rx;
    const hs_real vx = ct * vX + st * vY, vy = -st * vX + ct * vY;
    const hs_real sd = (W->steer != 0) ? HS_R(1.0) : HS_R(0.0);
    /* d(vx, vy)/dl, l = (psi, delta, Xd, Yd, psid, Om) */
    const hs_real dvx[6] = {vy + ct * (-pd * rx) + st * (-pd * ry), sd * vy, ct, st, -ct * ry + st * rx, HS_R(0.0)};
    const hs_real dvy[6] = {-vx + pd * (st * rx - ct * ry), -sd * vx, -st, ct, st * ry + ct * rx, HS_R(0.0)};
    hs_real arg[HS_TIRE_NARG];
    arg[HS_TIRE_PEN] = W->Fz * cosg / tp.cz;
    arg[HS_TIRE_PEND] = HS_R(0.0);
    arg[HS_TIRE_VX] = vx;
    arg[HS_TIRE_VY] = vy;
    arg[HS_TIRE_OM] = Om;
    arg[HS_TIRE_OC] = HS_R(0.0);
    arg[HS_TIRE_WN] = HS_R(0.0);
    arg[HS_TIRE_XE] = z[3 * i];
    arg[HS_TIRE_YE] = z[3 * i + 1];
    arg[HS_TIRE_ZB] = z[3 * i + 2];
    arg[HS_TIRE_PSI] = HS_R(0.0);
    hs_tire_out o;
    const int rc = (jac != 0) ? hs_tire_eval_vel(&tp, arg, Tb, &o) : hs_tire_eval_values(&tp, arg, Tb, &o);
    if (rc != (int)HS_OK) {
        return rc;
    }
    const hs_real Fx = o.y[HS_TIRE_FX], Fy = o.y[HS_TIRE_FY], Mz = o.y[HS_TIRE_MZ];
    const hs_real Fgx = ct * Fx - st * Fy, Fgy = st * Fx + ct * Fy;
    r->f[0] = Fgx;
    r->f[1] = Fgy;
    r->f[2] = rx * Fgy - ry * Fgx + Mz;
    r->f[3] = -o.rd * Fx + o.y[HS_TIRE_TY] + o.y[HS_TIRE_TB] + Td;
    for (int l = 0; l < ((jac != 0) ? 6 : 0); ++l) {
        hs_real dres[HS_TIRE_NRES];
        /* the rows read below (FX .. TB; no bore torque here) */
        for (int k = 0; k <= (int)HS_TIRE_TB; ++k) {
            dres[k] = o.J[k][HS_TIRE_VX] * dvx[l] + o.J[k][HS_TIRE_VY] * dvy[l] +
                      ((l == 5) ? o.J[k][HS_TIRE_OM] : HS_R(0.0));
        }
        const hs_real dth = (l == 0) ? HS_R(1.0) : ((l == 1) ? sd : HS_R(0.0));
        const hs_real dgx = ct * dres[HS_TIRE_FX] - st * dres[HS_TIRE_FY] - dth * Fgy;
        const hs_real dgy = st * dres[HS_TIRE_FX] + ct * dres[HS_TIRE_FY] + dth * Fgx;
        hs_real dt = rx * dgy - ry * dgx + dres[HS_TIRE_MZ];
        if (l == 0) {
            dt += -ry * Fgy - rx * Fgx; /* d(R s)/dpsi = (-ry, rx) */
        }
        r->d[0][l] = dgx;
        r->d[1][l] = dgy;
        r->d[2][l] = dt;
        r->d[3][l] = -o.rd * dres[HS_TIRE_FX] + dres[HS_TIRE_TY] + dres[HS_TIRE_TB];
    }
    r->zd[0] = o.y[HS_TIRE_DXE];
    r->zd[1] = o.y[HS_TIRE_DYE];
    r->zd[2] = o.y[HS_TIRE_DZB];
    r->Fx = Fx;
    r->Fy = Fy;
    r->rd = o.rd;
    return HS_OK;
}

static void grade_sc(const hs_veh_params *p, hs_real *sg, hs_real *cg)
{
    const hs_real n = hs_sqrt(HS_R(1.0) + p->grade * p->grade);
    *sg = p->grade / n;
    *cg = HS_R(1.0) / n;
}

/* The friction actuator's coefficient under wheel i (the car's inputs mu_fl..mu_rr, after its
 * steer, drive and brake inputs; read with external = 1, as those are): 0 (or a type without them) leaves the road's
 * friction (road_mu: --param mu, mu_l, mu_r, the patch); (0, HS_VEH_MU_MAX] replaces it for
 * that wheel. HS_E_INPUT for a value outside [0, HS_VEH_MU_MAX] or not a number: the signal
 * map clamps into that range and counts it, so only a caller without the map gets there. */
static int wheel_mu(const hs_model *m, int i, const hs_real *in, hs_real *mu)
{
    const veh_cfg *C = cfg_of(m);
    const int k = 1 + 2 * C->nw + i;
    *mu = HS_R(0.0);
    if (P(m)->external != HS_R(1.0) || k >= m->d.nin) {
        return HS_OK;
    }
    *mu = in[k];
    return (*mu >= HS_R(0.0) && *mu <= HS_VEH_MU_MAX) ? HS_OK : HS_E_INPUT;
}

/* Wheel i's brake capacity and drive torque (N m); dTd gets dTd/d(psi, Xd, Yd) of unit 0 (the
 * speed controller of maneuver 2 on unit 0's rear wheels: Td = kd (v0 - heading speed)).
 * HS_E_INPUT for a negative brake input (a capacity; the step is refused, not clamped). */
static int wheel_torques(const hs_model *m, int i, const hs_real *q, const hs_real *u, const hs_real *in,
                          hs_real *Tb, hs_real *Td, hs_real dTd[3])
{
    const veh_cfg *C = cfg_of(m);
    dTd[0] = HS_R(0.0);
    dTd[1] = HS_R(0.0);
    dTd[2] = HS_R(0.0);
    if (P(m)->external == HS_R(0.0) && P(m)->maneuver == HS_R(2.0) && C->w[i].unit == 0 && C->w[i].steer == 0) {
        hs_real s, c;
        hs_sincos(q[2], &s, &c);
        const hs_real v = c * u[0] + s * u[1];
        *Td = C->kd * (P(m)->v0 - v);
        *Tb = P(m)->brake;
        dTd[0] = -C->kd * (-s * u[0] + c * u[1]);
        dTd[1] = -C->kd * c;
        dTd[2] = -C->kd * s;
        return HS_OK;
    }
    if (P(m)->external == HS_R(1.0)) {
        *Td = in[1 + i];
        *Tb = in[1 + C->nw + i];
        if (!(*Tb >= HS_R(0.0))) {
            return HS_E_INPUT;
        }
    } else {
        *Td = HS_R(0.0);
        *Tb = P(m)->brake;
    }
    return HS_OK;
}

/* Hitch points of both units, their velocities and R s of each (ground frame). */
typedef struct hitch_kin {
    hs_real r[2][2], v[2][2], rs[2][2];
} hitch_kin;

static void hitch(const veh_cfg *C, const hs_real *q, const hs_real *u, hitch_kin *h)
{
    for (int k = 0; k < 2; ++k) {
        const int o = unit_q(C, k);
        hs_real s, c;
        hs_sincos(q[o + 2], &s, &c);
        h->rs[k][0] = c * C->hitch[k][0] - s * C->hitch[k][1];
        h->rs[k][1] = s * C->hitch[k][0] + c * C->hitch[k][1];
        h->r[k][0] = q[o] + h->rs[k][0];
        h->r[k][1] = q[o + 1] + h->rs[k][1];
        if (u != NULL) {
            h->v[k][0] = u[o] - u[o + 2] * h->rs[k][1];
            h->v[k][1] = u[o + 1] + u[o + 2] * h->rs[k][0];
        }
    }
}

/* The hitch spring-damper's partials into fq, fu (nq x nq): F = -k (r0 - r1) - c (v0 - v1)
 * acts on both units through their hitch points h (hitch()), so each unit's rows depend on
 * both units' coordinates. Apart from the forces because only the implicit methods ask. */
HS_INLINE void hitch_jac(const veh_cfg *C, const hitch_kin *hp, const hs_real *u, hs_real k, hs_real c, int nq,
                         hs_real *fq, hs_real *fu)
{
    /* positions of the hitch point of unit s: dr/d(X, Y, psi) = [1 0 -rs_y; 0 1 rs_x];
     * velocity dv/dq: only d/dpsi = (-psid rs_x, -psid rs_y); dv/du = same as dr/dq */
    hs_real Jr[2][2][3], Dv[2][2][3];
    for (int s = 0; s < 2; ++s) {
        const int o = unit_q(C, s);
        const hs_real pd = u[o + 2];
        Jr[s][0][0] = HS_R(1.0); Jr[s][0][1] = HS_R(0.0); Jr[s][0][2] = -hp->rs[s][1];
        Jr[s][1][0] = HS_R(0.0); Jr[s][1][1] = HS_R(1.0); Jr[s][1][2] = hp->rs[s][0];
        Dv[s][0][0] = HS_R(0.0); Dv[s][0][1] = HS_R(0.0); Dv[s][0][2] = -pd * hp->rs[s][0];
        Dv[s][1][0] = HS_R(0.0); Dv[s][1][1] = HS_R(0.0); Dv[s][1][2] = -pd * hp->rs[s][1];
    }
    hs_real Fv[2];
    for (int j = 0; j < 2; ++j) {
        Fv[j] = -k * (hp->r[0][j] - hp->r[1][j]) - c * (hp->v[0][j] - hp->v[1][j]);
    }
    /* generalized force on unit s: sgn_s Jr_s^T F; F depends on both units */
    for (int s = 0; s < 2; ++s) {
        const int os = unit_q(C, s);
        const hs_real ss = (s == 0) ? HS_R(1.0) : HS_R(-1.0);
        for (int t = 0; t < 2; ++t) {
            const int ot = unit_q(C, t);
            const hs_real st = (t == 0) ? HS_R(1.0) : HS_R(-1.0);
            for (int a = 0; a < 3; ++a) {
                for (int b = 0; b < 3; ++b) {
                    hs_real vq = HS_R(0.0), vu = HS_R(0.0);
                    for (int j = 0; j < 2; ++j) {
                        /* dF_j/dq_t = -st (k Jr_t + c Dv_t), dF_j/du_t = -st c Jr_t */
                        vq += Jr[s][j][a] * (-st) * (k * Jr[t][j][b] + c * Dv[t][j][b]);
                        vu += Jr[s][j][a] * (-st) * c * Jr[t][j][b];
                    }
                    fq[(os + a) * nq + ot + b] += ss * vq;
                    fu[(os + a) * nq + ot + b] += ss * vu;
                }
            }
        }
        /* d(Jr_s^T)/dpsi_s F: the torque row's lever turns with psi */
        fq[(os + 2) * nq + os + 2] += ss * (-hp->rs[s][0] * Fv[0] - hp->rs[s][1] * Fv[1]);
    }
}

/* All forces; fq, fu dense nq x nq (NULL: not wanted); zd the state rates (NULL: not wanted). */
static int eval_all(const hs_model *m, const hs_real *q, const hs_real *u, const hs_real *z,
                    const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu, hs_real *zd)
{
    const veh_cfg *C = cfg_of(m);
    const hs_veh_params *p = P(m);
    const int nq = m->d.nq;
    hs_real sg, cg;
    grade_sc(p, &sg, &cg);
    for (int i = 0; i < nq; ++i) {
        f[i] = HS_R(0.0);
    }
    if (fq != NULL) {
        for (int i = 0; i < nq * nq; ++i) {
            fq[i] = HS_R(0.0);
            fu[i] = HS_R(0.0);
        }
    }
    for (int k = 0; k < C->nu; ++k) {
        f[unit_q(C, k)] += -C->m[k] * HS_R(9.81) * sg; /* the road rises along X */
    }
    hs_real dd[3];
    const hs_real delta = steering(m, q, in, dd);
    for (int i = 0; i < C->nw; ++i) {
        hs_real Tb, Td, dTd[3];
        if (wheel_torques(m, i, q, u, in, &Tb, &Td, dTd) != (int)HS_OK) {
            return HS_E_INPUT;
        }
        hs_real mu_in;
        if (wheel_mu(m, i, in, &mu_in) != (int)HS_OK) {
            return HS_E_INPUT;
        }
        wheel_res r;
        const int rc = wheel_eval(m, i, q, u, z, delta, Tb, Td, mu_in, cg, (fq != NULL) ? 1 : 0, &r);
        if (rc != (int)HS_OK) {
            return rc;
        }
        const int o = unit_q(C, C->w[i].unit), w = spin_q(C, i);
        const int row[4] = {o, o + 1, o + 2, w};
        for (int a = 0; a < 4; ++a) {
            f[row[a]] += r.f[a];
        }
        if (zd != NULL) {
            zd[3 * i] = r.zd[0];
            zd[3 * i + 1] = r.zd[1];
            zd[3 * i + 2] = r.zd[2];
        }
        if (fq != NULL) {
            for (int a = 0; a < 4; ++a) {
                hs_real *Fq = &fq[row[a] * nq], *Fu = &fu[row[a] * nq];
                Fq[o + 2] += r.d[a][0];
                if (C->w[i].steer != 0) {
                    /* delta(q) of unit 0 (the steered unit) */
                    Fq[0] += r.d[a][1] * dd[0];
                    Fq[1] += r.d[a][1] * dd[1];
                    Fq[2] += r.d[a][1] * dd[2];
                }
                Fu[o] += r.d[a][2];
                Fu[o + 1] += r.d[a][3];
                Fu[o + 2] += r.d[a][4];
                Fu[w] += r.d[a][5];
            }
            /* the drive torque's dependence on unit 0's heading and velocity (spin row) */
            fq[w * nq + 2] += dTd[0];
            fu[w * nq] += dTd[1];
            fu[w * nq + 1] += dTd[2];
        }
    }
    if (C->coupling == 2) {
        /* F = -k (r0 - r1) - c (v0 - v1) on the truck's hitch, -F on the trailer's */
        hitch_kin h;
        hitch(C, q, u, &h);
        const hs_real k = p->k_hitch, c = p->c_hitch;
        for (int j = 0; j < 2; ++j) {
            const hs_real F = -k * (h.r[0][j] - h.r[1][j]) - c * (h.v[0][j] - h.v[1][j]);
            for (int s = 0; s < 2; ++s) {
                const int o = unit_q(C, s);
                const hs_real sgn = (s == 0) ? HS_R(1.0) : HS_R(-1.0);
                f[o + j] += sgn * F;
                /* torque of force component j at R s: (j = 0) -rs_y F, (j = 1) rs_x F */
                f[o + 2] += sgn * ((j == 0) ? -h.rs[s][1] : h.rs[s][0]) * F;
            }
        }
        if (fq != NULL) {
            hitch_jac(C, &h, u, k, c, nq, fq, fu);
        }
    }
    return HS_OK;
}

/* ---- the model interface ---- */

static const hs_param_info params[] = {
    {"v0", offsetof(hs_veh_params, v0), HS_R(22.2222222222222222), HS_R(-70.0), HS_R(70.0), "initial speed (m/s; 80 km/h default)"},
    {"grade", offsetof(hs_veh_params, grade), HS_R(0.0), HS_R(-0.5), HS_R(0.5), "road grade along X (0.1 = 10 %)"},
    {"brake", offsetof(hs_veh_params, brake), HS_R(0.0), HS_R(0.0), HS_R(50000.0), "brake capacity per wheel, external = 0 (N m)"},
    {"external", offsetof(hs_veh_params, external), HS_R(0.0), HS_R(0.0), HS_R(1.0), "1: steer, drive, brake from the inputs (HIL ECU)"},
    {"maneuver", offsetof(hs_veh_params, maneuver), HS_R(1.0), HS_R(0.0), HS_R(2.0), "external = 0: 0 constant steer, 1 ISO 3888-1 lane change, 2 the lane change every 150 m at speed v0 (soak)"},
    {"steer", offsetof(hs_veh_params, steer), HS_R(0.0), HS_R(-0.6), HS_R(0.6), "constant steering angle of maneuver 0 (rad)"},
    {"k_hitch", offsetof(hs_veh_params, k_hitch), HS_R(1.0e6), HS_R(0.0), HS_R(1.0e12), "penalty hitch stiffness (N/m)"},
    {"c_hitch", offsetof(hs_veh_params, c_hitch), HS_R(2.0e4), HS_R(0.0), HS_R(1.0e10), "penalty hitch damping (N s/m)"},
    {"mu", offsetof(hs_veh_params, mu), HS_R(1.0), HS_R(0.05), HS_R(2.0), "road friction relative to the tire data's road (1: dry)"},
    {"mu_l", offsetof(hs_veh_params, mu_l), HS_R(0.0), HS_R(0.0), HS_R(2.0), "road friction under the left wheels (0: mu)"},
    {"mu_r", offsetof(hs_veh_params, mu_r), HS_R(0.0), HS_R(0.0), HS_R(2.0), "road friction under the right wheels (0: mu)"},
    {"patch_x0", offsetof(hs_veh_params, patch_x0), HS_R(0.0), HS_R(-1.0e7), HS_R(1.0e7), "road patch from ground X (m)"},
    {"patch_x1", offsetof(hs_veh_params, patch_x1), HS_R(0.0), HS_R(-1.0e7), HS_R(1.0e7), "road patch to ground X (m)"},
    {"patch_mu", offsetof(hs_veh_params, patch_mu), HS_R(0.0), HS_R(0.0), HS_R(2.0), "road friction on the patch, both sides (0: no patch)"},
};

static int check(const hs_model *m)
{
    const hs_veh_params *p = P(m);
    const int ok = (int)((p->external == HS_R(0.0) || p->external == HS_R(1.0)) &&
                   (p->maneuver == HS_R(0.0) || p->maneuver == HS_R(1.0) || p->maneuver == HS_R(2.0)));
    return (ok != 0) ? HS_OK : HS_E_MODEL_PARAM;
}

static int initial(const hs_model *m, hs_real t0, hs_real *q, hs_real *u, hs_real *z)
{
    (void)t0;
    const veh_cfg *C = cfg_of(m);
    const hs_veh_params *p = P(m);
    hs_real sg, cg;
    grade_sc(p, &sg, &cg);
    for (int i = 0; i < m->d.nq; ++i) {
        q[i] = HS_R(0.0);
        u[i] = HS_R(0.0);
    }
    q[0] = C->x0;
    u[0] = p->v0;
    if (C->nu == 2) {
        /* trailer behind, hitch points coinciding */
        q[7] = C->x0 + C->hitch[0][0] - C->hitch[1][0];
        u[7] = p->v0;
    }
    for (int i = 0; i < C->nw; ++i) {
        hs_tire_par tp;
        tire_par(&C->w[i], &tp);
        const hs_real rd = tp.r0 - C->w[i].Fz * cg / tp.cz / HS_R(3.0);
        u[spin_q(C, i)] = p->v0 / rd;
        z[3 * i] = HS_R(0.0);
        z[3 * i + 1] = HS_R(0.0);
        z[3 * i + 2] = HS_R(0.0);
    }
    return HS_OK;
}

static int mass(const hs_model *m, hs_real t, const hs_real *q, hs_real *M)
{
    (void)t; (void)q;
    const veh_cfg *C = cfg_of(m);
    const int nq = m->d.nq;
    for (int i = 0; i < nq * nq; ++i) {
        M[i] = HS_R(0.0);
    }
    for (int k = 0; k < C->nu; ++k) {
        const int o = unit_q(C, k);
        M[o * nq + o] = C->m[k];
        M[(o + 1) * nq + o + 1] = C->m[k];
        M[(o + 2) * nq + o + 2] = C->Iz[k];
    }
    for (int i = 0; i < C->nw; ++i) {
        const int w = spin_q(C, i);
        M[w * nq + w] = C->w[i].J;
    }
    return HS_OK;
}

static int force(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                 const hs_real *z, const hs_real *in, hs_real *f)
{
    (void)t;
    return eval_all(m, q, u, z, in, f, NULL, NULL, NULL);
}

static int force_jac(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                     const hs_real *z, const hs_real *in, hs_real *fq, hs_real *fu)
{
    (void)t;
    hs_real f[HS_VEH_TT_NQ];
    return eval_all(m, q, u, z, in, f, fq, fu, NULL);
}

/* f, fq, fu from one evaluation (each tire once, with its partials): the stepper's factoring
 * stage (rt/hs_sdirk.c); f has the bits of force() (hs_tire_values.c is hs_tire.c's source
 * without the partials: the same operations on the values) */
static int force_fj(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                    const hs_real *z, const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu)
{
    (void)t;
    return eval_all(m, q, u, z, in, f, fq, fu, NULL);
}

static int zdot(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                const hs_real *z, const hs_real *in, hs_real *zd)
{
    (void)t;
    hs_real f[HS_VEH_TT_NQ];
    return eval_all(m, q, u, z, in, f, NULL, NULL, zd);
}

/* The hitch joint: g = KAPPA (r_truck - r_trailer) (ground frame, 2 rows) in millimetres, so the
 * multipliers are in kN. The row scale keeps the step matrix of a 28 t train well scaled: in
 * metres its constraint pivots (about 1/m ~ 1e-4) sit below the float build's relative pivot
 * threshold n eps max|A| (max|A| = the trailer's 2.5e5 kg m^2). */
#define KAPPA HS_R(1000.0)

static int constraint(const hs_model *m, hs_real t, const hs_real *q, hs_real *g, hs_real *G,
                      hs_real *gt)
{
    (void)t;
    const veh_cfg *C = cfg_of(m);
    const int nq = m->d.nq;
    hitch_kin h;
    hitch(C, q, NULL, &h);
    if (g != NULL) {
        g[0] = KAPPA * (h.r[0][0] - h.r[1][0]);
        g[1] = KAPPA * (h.r[0][1] - h.r[1][1]);
    }
    if (G != NULL) {
        for (int i = 0; i < 2 * nq; ++i) {
            G[i] = HS_R(0.0);
        }
        for (int s = 0; s < 2; ++s) {
            const int o = unit_q(C, s);
            const hs_real sgn = (s == 0) ? KAPPA : -KAPPA;
            G[o] = sgn;
            G[o + 2] = -sgn * h.rs[s][1];
            G[nq + o + 1] = sgn;
            G[nq + o + 2] = sgn * h.rs[s][0];
        }
    }
    if (gt != NULL) {
        gt[0] = HS_R(0.0);
        gt[1] = HS_R(0.0);
    }
    return HS_OK;
}

/* d2/dt2 (R(psi) s) = -psid^2 R s: gamma = KAPPA (-psid0^2 rs0 + psid1^2 rs1). */
static int gamma_fn(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, hs_real *gam)
{
    (void)t;
    const veh_cfg *C = cfg_of(m);
    hitch_kin h;
    hitch(C, q, NULL, &h);
    const hs_real w0 = u[unit_q(C, 0) + 2], w1 = u[unit_q(C, 1) + 2];
    gam[0] = KAPPA * (-w0 * w0 * h.rs[0][0] + w1 * w1 * h.rs[1][0]);
    gam[1] = KAPPA * (-w0 * w0 * h.rs[0][1] + w1 * w1 * h.rs[1][1]);
    return HS_OK;
}

/* K = d(G^T lambda)/dq: only the psi-psi entries, +-KAPPA (-rs_x l0 - rs_y l1). */
static int curvature(const hs_model *m, hs_real t, const hs_real *q, const hs_real *lambda,
                     hs_real *K)
{
    (void)t;
    const veh_cfg *C = cfg_of(m);
    const int nq = m->d.nq;
    hitch_kin h;
    hitch(C, q, NULL, &h);
    for (int i = 0; i < nq * nq; ++i) {
        K[i] = HS_R(0.0);
    }
    for (int s = 0; s < 2; ++s) {
        const int o = unit_q(C, s) + 2;
        const hs_real sgn = (s == 0) ? KAPPA : -KAPPA;
        K[o * nq + o] = sgn * (-h.rs[s][0] * lambda[0] - h.rs[s][1] * lambda[1]);
    }
    return HS_OK;
}

/* Kinetic energy, the grade's potential and the penalty spring's; the tires' and brakes' work
 * is dissipative and left out. */
static int energy(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                  const hs_real *z, hs_real *E)
{
    (void)t; (void)z;
    const veh_cfg *C = cfg_of(m);
    hs_real sg, cg;
    grade_sc(P(m), &sg, &cg);
    hs_real e = HS_R(0.0);
    for (int k = 0; k < C->nu; ++k) {
        const int o = unit_q(C, k);
        e += HS_R(0.5) * C->m[k] * (u[o] * u[o] + u[o + 1] * u[o + 1]) +
             HS_R(0.5) * C->Iz[k] * u[o + 2] * u[o + 2] + C->m[k] * HS_R(9.81) * sg * q[o];
    }
    for (int i = 0; i < C->nw; ++i) {
        const int w = spin_q(C, i);
        e += HS_R(0.5) * C->w[i].J * u[w] * u[w];
    }
    if (C->coupling == 2) {
        hitch_kin h;
        hitch(C, q, NULL, &h);
        const hs_real dx = h.r[0][0] - h.r[1][0], dy = h.r[0][1] - h.r[1][1];
        e += HS_R(0.5) * P(m)->k_hitch * (dx * dx + dy * dy);
    }
    *E = e;
    return HS_OK;
}

hs_real hs_veh_hitch_defect(const hs_model *m, const hs_real *q)
{
    const veh_cfg *C = cfg_of(m);
    if (C->nu < 2) {
        return HS_R(0.0);
    }
    hitch_kin h;
    hitch(C, q, NULL, &h);
    const hs_real dx = h.r[0][0] - h.r[1][0], dy = h.r[0][1] - h.r[1][1];
    return hs_sqrt(dx * dx + dy * dy);
}

/* Outputs: wheel speeds, then unit 0's yaw rate, body-frame accelerations (tire, grade and
 * penalty forces over the mass; the joint's force is not included), body slip angle, speed,
 * X, Y, psi; the truck-trailer adds the trailer's psi and the hitch defect, the penalty type
 * the hitch force on the truck (ground frame). */
static int output(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                  const hs_real *z, const hs_real *in, hs_real *y)
{
    (void)t;
    const veh_cfg *C = cfg_of(m);
    hs_real f[HS_VEH_TT_NQ];
    const int rc = eval_all(m, q, u, z, in, f, NULL, NULL, NULL);
    if (rc != (int)HS_OK) {
        return rc;
    }
    int k = 0;
    for (int i = 0; i < C->nw; ++i) {
        y[k] = u[spin_q(C, i)];
        ++k;
    }
    hs_real s, c;
    hs_sincos(q[2], &s, &c);
    const hs_real ax = f[0] / C->m[0], ay = f[1] / C->m[0];
    const hs_real vxb = c * u[0] + s * u[1], vyb = -s * u[0] + c * u[1];
    y[k] = u[2];
    y[k + 1] = c * ax + s * ay;
    y[k + 2] = -s * ax + c * ay;
    y[k + 3] = hs_atan2(vyb, vxb);
    y[k + 4] = hs_sqrt(u[0] * u[0] + u[1] * u[1]);
    y[k + 5] = q[0];
    y[k + 6] = q[1];
    y[k + 7] = q[2];
    k += 8;
    if (C->nu == 2) {
        y[k] = q[9];
        y[k + 1] = hs_veh_hitch_defect(m, q);
        k += 2;
        if (C->coupling == 2) {
            hitch_kin h;
            hitch(C, q, u, &h);
            for (int j = 0; j < 2; ++j) {
                y[k + j] = -P(m)->k_hitch * (h.r[0][j] - h.r[1][j]) - P(m)->c_hitch * (h.v[0][j] - h.v[1][j]);
            }
        }
    }
    return HS_OK;
}

static const char *const car_in[HS_VEH_CAR_NIN] = {
    "steer (rad)", "drive_fl (N m)", "drive_fr (N m)", "drive_rl (N m)", "drive_rr (N m)",
    "brake_fl (N m)", "brake_fr (N m)", "brake_rl (N m)", "brake_rr (N m)",
    "mu_fl (1)", "mu_fr (1)", "mu_rl (1)", "mu_rr (1)"};
static const char *const car_out[HS_VEH_CAR_NOUT] = {
    "omega_fl (rad/s)", "omega_fr (rad/s)", "omega_rl (rad/s)", "omega_rr (rad/s)",
    "yaw_rate (rad/s)", "a_x (m/s^2)", "a_y (m/s^2)", "beta (rad)", "speed (m/s)",
    "X (m)", "Y (m)", "psi (rad)"};
static const char *const tt_in[HS_VEH_TT_NIN] = {
    "steer (rad)", "drive_1l (N m)", "drive_1r (N m)", "drive_2l (N m)", "drive_2r (N m)",
    "drive_3l (N m)", "drive_3r (N m)", "drive_4l (N m)", "drive_4r (N m)",
    "brake_1l (N m)", "brake_1r (N m)", "brake_2l (N m)", "brake_2r (N m)",
    "brake_3l (N m)", "brake_3r (N m)", "brake_4l (N m)", "brake_4r (N m)"};
static const char *const tt_out[HS_VEH_TT_NOUT_PEN] = {
    "omega_1l (rad/s)", "omega_1r (rad/s)", "omega_2l (rad/s)", "omega_2r (rad/s)",
    "omega_3l (rad/s)", "omega_3r (rad/s)", "omega_4l (rad/s)", "omega_4r (rad/s)",
    "yaw_rate (rad/s)", "a_x (m/s^2)", "a_y (m/s^2)", "beta (rad)", "speed (m/s)",
    "X (m)", "Y (m)", "psi (rad)", "psi_trailer (rad)", "hitch_defect (m)",
    "hitch_Fx (N)", "hitch_Fy (N)"};

static const veh_cfg tt_cfg_pen = {
    2, 8, 2, {VR(8000.0), VR(20000.0)}, {VR(30000.0), VR(250000.0)}, {{VR(-2.0), VR(0.0)}, {VR(5.0), VR(0.0)}}, VR(1.5), VR(-20.0),
    {{0, VR(1.5), VR(1.0), 1, VR(TT_FRONT / 2.0), VR(10.0), 1},
     {0, VR(1.5), VR(-1.0), 1, VR(TT_FRONT / 2.0), VR(10.0), 1},
     {0, VR(-2.3), VR(1.0), 0, VR(TT_REAR / 2.0), VR(10.0), 1},
     {0, VR(-2.3), VR(-1.0), 0, VR(TT_REAR / 2.0), VR(10.0), 1},
     {1, VR(-3.6), VR(1.0), 0, VR(TT_TRL / 4.0), VR(10.0), 1},
     {1, VR(-3.6), VR(-1.0), 0, VR(TT_TRL / 4.0), VR(10.0), 1},
     {1, VR(-4.9), VR(1.0), 0, VR(TT_TRL / 4.0), VR(10.0), 1},
     {1, VR(-4.9), VR(-1.0), 0, VR(TT_TRL / 4.0), VR(10.0), 1}}, VR(3000.0), VR(0.02), VR(12.0)};

const hs_model_type hs_veh_car_type = {
    .name = "car",
    .doc = "passenger car on four TMeasy tires, ISO 3888-1 lane change driver",
    .nq = HS_VEH_CAR_NQ, .nc = 0, .nz = HS_VEH_CAR_NZ, .nin = HS_VEH_CAR_NIN, .nout = HS_VEH_CAR_NOUT,
    /* MISRA Ref 10.8.1 [table length, compile-time constant] */
    .params = params, .nparams = (int)(sizeof params / sizeof params[0]),
    .param_size = sizeof(hs_veh_params), .in_names = car_in, .out_names = car_out,
    .check = check, .initial = initial, .mass = mass, .force = force, .force_jac = force_jac, .force_fj = force_fj,
    .zdot = zdot, .output = output, .energy = energy, .data = &car_cfg,
};

const hs_model_type hs_veh_tt_dae_type = {
    .name = "truck_trailer",
    .doc = "truck and trailer on TMeasy tires, hitch as a joint (DAE, Burgermeister, Arnold, Esterl sec. 4.3)",
    .nq = HS_VEH_TT_NQ, .nc = 2, .nz = HS_VEH_TT_NZ, .nin = HS_VEH_TT_NIN, .nout = HS_VEH_TT_NOUT_DAE,
    /* MISRA Ref 10.8.1 [table length, compile-time constant] */
    .params = params, .nparams = (int)(sizeof params / sizeof params[0]),
    .param_size = sizeof(hs_veh_params), .in_names = tt_in, .out_names = tt_out,
    .check = check, .initial = initial, .mass = mass, .force = force, .force_jac = force_jac, .force_fj = force_fj,
    .constraint = constraint, .gamma = gamma_fn, .curvature = curvature,
    .zdot = zdot, .output = output, .energy = energy, .data = &tt_cfg_base,
};

const hs_model_type hs_veh_tt_pen_type = {
    .name = "truck_trailer_pen",
    .doc = "truck and trailer on TMeasy tires, hitch as a stiff spring-damper (penalty)",
    .nq = HS_VEH_TT_NQ, .nc = 0, .nz = HS_VEH_TT_NZ, .nin = HS_VEH_TT_NIN, .nout = HS_VEH_TT_NOUT_PEN,
    /* MISRA Ref 10.8.1 [table length, compile-time constant] */
    .params = params, .nparams = (int)(sizeof params / sizeof params[0]),
    .param_size = sizeof(hs_veh_params), .in_names = tt_in, .out_names = tt_out,
    .check = check, .initial = initial, .mass = mass, .force = force, .force_jac = force_jac, .force_fj = force_fj,
    .zdot = zdot, .output = output, .energy = energy, .data = &tt_cfg_pen,
};
