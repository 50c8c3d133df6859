/* hs_vdc.c - ABS, ESC and the manoeuvre driver of hs_vdc.h (hil/VEHICLE.md says what each
 * law does and the figures it was tuned on). */
#include "hs_vdc.h"

#include "hs_math.h"

#define G_ACC HS_R(9.81)
#define TWO_PI HS_R(6.283185307179586)

const hs_real hs_vdc_rd[4] = {HS_R(0.29283), HS_R(0.29283), HS_R(0.29426), HS_R(0.29426)};

static hs_real clampr(hs_real x, hs_real lo, hs_real hi)
{
    return x < lo ? lo : (x > hi ? hi : x);
}

static hs_real sgn(hs_real x)
{
    return x > HS_R(0.0) ? HS_R(1.0) : (x < HS_R(0.0) ? HS_R(-1.0) : HS_R(0.0));
}

/* ---- ABS ---- */

hs_abs_cfg hs_abs_default(void)
{
    hs_abs_cfg c;
    c.demand = HS_R(2500.0);
    c.slip_ref = HS_R(0.1);
    c.kp = HS_R(3000.0);
    c.ki = HS_R(300000.0);
    c.vmin = HS_R(3.0);
    c.rate = HS_R(10000.0);
    c.select_low = 0;
    return c;
}

hs_status hs_abs_init(hs_abs_state *a, const hs_abs_cfg *c, int mode)
{
    const int ok = (int)(((mode == 1) || (mode == 2)) && c->demand >= HS_R(0.0) && c->slip_ref > HS_R(0.0) &&
                   c->slip_ref < HS_R(1.0) && c->kp >= HS_R(0.0) && c->ki >= HS_R(0.0) &&
                   c->vmin > HS_R(0.0) && c->rate > HS_R(0.0));
    if (ok == 0) { return HS_E_MODEL_PARAM; }
    a->c = *c;
    a->mode = mode;
    for (int w = 0; w < 4; ++w) {
        a->I[w] = HS_R(0.0);
        a->T[w] = HS_R(0.0);
    }
    a->slip_max = HS_R(0.0);
    a->ticks = 0u;
    a->faults = 0u;
    return HS_OK;
}

/* Slip lambda = (v - rd omega) / v (braking: positive, 1 = locked). Per wheel
 * T = clamp(I + kp (lambda_ref - lambda), 0, demand) with I' = ki (lambda_ref - lambda); every
 * command rises at most `rate` (the hydraulics' pressure build-up; falling is not limited), in
 * both modes, so the two differ only by the slip controller; after the limits I is set back
 * to T - kp (lambda_ref - lambda) (back-calculation: no wind-up while pressure builds). Below
 * vmin slip is not measurable and the demand passes unchanged (the car stops on locked
 * brakes, as a production ABS hands back at walking speed). Select-low on the rear axle (the
 * production answer to mu-split: the rear keeps its side force, the yaw moment comes from the
 * front alone) gives both rear wheels the smaller torque; the integrators follow the final
 * torques. */
void hs_abs_step(hs_abs_state *a, hs_real v, const hs_real om[4], hs_real dt, hs_real T[4])
{
    const int act = (int)((a->mode == 1) && (v >= a->c.vmin) && (v < HS_R(1.0e3)));
    hs_real err[4];
    for (int w = 0; w < 4; ++w) {
        hs_real t = a->c.demand;
        err[w] = HS_R(0.0);
        const hs_real lam = (act != 0) ? ((v - (hs_vdc_rd[w] * om[w])) / v) : HS_R(0.0);
        const hs_real e = a->c.slip_ref - lam;
        const hs_real tc = a->I[w] + a->c.ki * e * dt + a->c.kp * e;
        /* a wheel speed that is not a number, or one so far off that the PI overflows, leaves
         * its wheel to the demand (conventional braking, as an ABS falls back on a sensor
         * fault), counted */
        const int ok = (int)((hs_isfinite(tc) != 0) && (hs_isfinite(a->c.kp * e) != 0));
        if ((act != 0) && (ok == 0)) { a->faults++; }
        if ((act != 0) && (ok != 0)) {
            err[w] = e;
            t = tc;
            if (hs_abs(lam) > a->slip_max) { a->slip_max = hs_abs(lam); }
        }
        if (t > a->T[w] + a->c.rate * dt) { t = a->T[w] + a->c.rate * dt; }
        T[w] = clampr(t, HS_R(0.0), a->c.demand);
    }
    if ((act != 0) && (a->c.select_low != 0)) {
        const hs_real lo = T[2] < T[3] ? T[2] : T[3];
        T[2] = lo;
        T[3] = lo;
    }
    for (int w = 0; w < 4; ++w) {
        a->I[w] = T[w] - a->c.kp * err[w];
        a->T[w] = T[w];
    }
    if (act != 0) { a->ticks++; }
}

/* ---- ESC ---- */

/* The car's understeer gradient, from its slowly increasing steer at 80 km/h (hilstep-vdc
 * --maneuver ramp, test/tire/vdc_test.py): the slope of the steering angle over the lateral
 * acceleration between 0.1 and 0.375 g, less l/v^2. TMeasy's initial cornering stiffness at the
 * static loads alone (122.6 and 104.6 kN/rad per axle) gives m (b/cf - a/cr)/l = 0.43e-3: the
 * aligning torque, the tread's lag and the degressive side force add the rest. */
#define KUS_CAR HS_R(1.0e-3)

hs_esc_cfg hs_esc_default(void)
{
    hs_esc_cfg c;
    c.m = HS_R(1500.0);
    c.a = HS_R(1.2);
    c.b = HS_R(1.5);
    c.kus = KUS_CAR;
    c.mu = HS_R(1.0);
    c.db = HS_R(0.05);
    c.kp = HS_R(20000.0);
    c.tmax = HS_R(2500.0);
    c.rate = HS_R(20000.0);
    c.vmin = HS_R(5.0);
    return c;
}

hs_status hs_esc_init(hs_esc_state *e, const hs_esc_cfg *c)
{
    const int ok = (int)(c->m > HS_R(0.0) && c->a > HS_R(0.0) && c->b > HS_R(0.0) && c->kus > HS_R(-0.01) &&
                   c->mu > HS_R(0.0) && c->db >= HS_R(0.0) && c->kp >= HS_R(0.0) &&
                   c->tmax >= HS_R(0.0) && c->rate > HS_R(0.0) && c->vmin > HS_R(0.0));
    if (ok == 0) { return HS_E_MODEL_PARAM; }
    e->c = *c;
    e->r_ref = HS_R(0.0);
    for (int w = 0; w < 4; ++w) { e->T[w] = HS_R(0.0); }
    e->ticks = 0u;
    e->saturated = 0u;
    e->faults = 0u;
    e->t_max = HS_R(0.0);
    return HS_OK;
}

/* The steady state of the linear single-track model, and the most yaw rate the road carries
 * in a steady turn: a_y = v r <= mu g. */
hs_real hs_esc_ref(const hs_esc_state *e, hs_real v, hs_real delta)
{
    const hs_real l = e->c.a + e->c.b;
    const hs_real r = v * delta / (l + e->c.kus * v * v);
    const hs_real lim = v > HS_R(0.1) ? e->c.mu * G_ACC / v : HS_R(1.0e3);
    return clampr(r, -lim, lim);
}

/* Yaw-rate error e = r - r_ref beyond the deadband brakes one wheel: e > 0 needs a negative
 * (clockwise) yaw moment, a right wheel, e < 0 a left one (a braked left wheel pulls the car
 * to the left). The front wheel when the car turns more than the reference in its own
 * direction (oversteer: the outer front, whose braking also takes side force off the front),
 * the rear otherwise (understeer: the inner rear). */
void hs_esc_step(hs_esc_state *e, hs_real v, hs_real delta, hs_real r, hs_real dt, hs_real T[4])
{
    e->r_ref = hs_esc_ref(e, v, delta);
    const hs_real err = r - e->r_ref;
    const hs_real over = hs_abs(err) - e->c.db;
    hs_real want[4] = {HS_R(0.0), HS_R(0.0), HS_R(0.0), HS_R(0.0)};
    /* a measurement that is not a number brakes nothing (over is then not > 0), counted */
    if (hs_isfinite(err) == 0 || hs_isfinite(v) == 0) { e->faults++; }
    if (v >= e->c.vmin && v < HS_R(1.0e3) && over > HS_R(0.0)) {
        /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
        const int right = (err > HS_R(0.0)) ? 1 : 0;
        /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
        const int front = (sgn(err) == sgn(r)) ? 1 : 0;
        want[((front != 0) ? 0 : 2) + right] = clampr(e->c.kp * over, HS_R(0.0), e->c.tmax);
        e->ticks++;
        if (e->c.kp * over > e->c.tmax) { e->saturated++; }
    }
    for (int w = 0; w < 4; ++w) {
        hs_real t = want[w];
        if (t > e->T[w] + e->c.rate * dt) { t = e->T[w] + e->c.rate * dt; }
        e->T[w] = t;
        T[w] = t;
        if (t > e->t_max) { e->t_max = t; }
    }
}

/* ---- driver ---- */

hs_drv_cfg hs_drv_default(hs_drv_kind k)
{
    hs_drv_cfg d;
    d.kind = k;
    d.t0 = HS_R(0.5);
    d.amp = HS_R(0.0);
    d.freq = HS_R(0.7);
    d.dwell = HS_R(0.5);
    /* the step: 0.3 rad/s at the wheels (ISO 7401's 200 deg/s at the hand wheel over a
     * steering ratio of 16 is 0.22); the ramp: FMVSS 126's 13.5 deg/s at the hand wheel
     * over the same ratio, 0.844 deg/s */
    d.rate = k == HS_DRV_RAMP ? HS_R(0.0147262156) : HS_R(0.3);
    d.path_k = HS_R(0.0);
    d.preview = HS_R(10.0);
    d.v_ref = HS_R(0.0);
    d.kd = HS_R(300.0);
    return d;
}

hs_real hs_drv_cos(const hs_drv_cfg *d)
{
    return HS_R(1.0) / d->freq + d->dwell;
}

static hs_real sine_dwell(const hs_drv_cfg *d, hs_real t)
{
    const hs_real t1 = HS_R(0.75) / d->freq; /* the second peak: -amp */
    if (t < HS_R(0.0)) { return HS_R(0.0); }
    if (t < t1) { return d->amp * hs_sin(TWO_PI * d->freq * t); }
    if (t < t1 + d->dwell) { return -d->amp; }
    if (t < hs_drv_cos(d)) { return d->amp * hs_sin(TWO_PI * d->freq * (t - d->dwell)); }
    return HS_R(0.0);
}

hs_real hs_drv_step(const hs_drv_cfg *d, hs_real t, hs_real Y, hs_real psi, hs_real v, hs_real *drive)
{
    const hs_real tm = t - d->t0;
    hs_real st = HS_R(0.0);
    *drive = HS_R(0.0);
    if (d->v_ref > HS_R(0.0) && tm < HS_R(0.0) && hs_isfinite(v) != 0) {
        *drive = clampr(d->kd * (d->v_ref - v), HS_R(-3000.0), HS_R(3000.0));
    }
    switch (d->kind) {
    case HS_DRV_SINE_DWELL:
        st = sine_dwell(d, tm);
        break;
    case HS_DRV_STEP:
        st = (tm <= HS_R(0.0)) ? HS_R(0.0) : (sgn(d->amp) * clampr(d->rate * tm, HS_R(0.0), hs_abs(d->amp)));
        break;
    case HS_DRV_RAMP:
        st = (tm <= HS_R(0.0)) ? HS_R(0.0) : (d->rate * tm);
        break;
    case HS_DRV_STRAIGHT:
    default:
        st = -d->path_k * (Y + d->preview * hs_sin(psi));
        break;
    }
    /* within the car's steering range (hs_apps.c: +-0.6 rad), where a rig's rack ends; an
     * input that is not a number (time, pose; sin of a huge heading) steers straight ahead */
    return (hs_isfinite(st) != 0) ? clampr(st, HS_R(-0.6), HS_R(0.6)) : HS_R(0.0);
}
