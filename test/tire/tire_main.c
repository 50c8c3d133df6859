/* tire_main.c - the tire element's suite (hosted): `hilstep-tiretest` runs the derivative,
 * lift-off and low-speed checks; `hilstep-tiretest curves` prints steady-state samples that
 * test/tire/tmeasy_ref.py compares with its independent implementation of Rill's formulas.
 *
 * The low-speed checks drive one wheel carrying a quarter of a car (375 kg) with the stepper's
 * scheme: linear-implicit Euler on the mechanics with the element's exact Jacobian, explicit
 * Euler on the tread and brake states, h = 1 ms. The numbers they check come from statics
 * (slope: m g sin(theta), deflections c x = F) and from the no-creep property of the element. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hs_tire.h"
#include "hs_veh.h"
#include "hs_test.h"


/* ---- steady-state samples for tmeasy_ref.py ---- */
static void curves(void)
{
    hs_tire_par p;
    hs_tire_par_car(&p);
    /* 0.25 .. 2 FzN (the data's range), then 2.5, 3 and 5 FzN (the extension beyond it) */
    static const double fz[] = {875.0, 1750.0, 3500.0, 5250.0, 7000.0, 8750.0, 10500.0, 17500.0};
    static const double sl[] = {-1.2, -0.6, -0.3, -0.15, -0.08, -0.03, -0.005, 0.0, 0.002,
                                0.01, 0.05, 0.1, 0.11, 0.18, 0.25, 0.45, 0.7, 0.9, 1.5};
    const int nf = (int)(sizeof fz / sizeof fz[0]), ns = (int)(sizeof sl / sizeof sl[0]);
    for (int i = 0; i < nf; ++i) {
        for (int a = 0; a < ns; ++a) {
            for (int b = 0; b < ns; ++b) {
                hs_real Fx, Fy, Mz;
                hs_tire_steady(&p, fz[i], sl[a], sl[b], &Fx, &Fy, &Mz);
                printf("tm %.17g %.17g %.17g %.17g %.17g %.17g\n", fz[i], sl[a], sl[b],
                       (double)Fx, (double)Fy, (double)Mz);
            }
        }
    }
    /* a road of friction 0.3 (tmu MU FZ SX SY FX FY MZ) */
    p.mu = 0.3;
    for (int i = 0; i < nf; ++i) {
        for (int a = 0; a < ns; ++a) {
            for (int b = 0; b < ns; b += 3) {
                hs_real Fx, Fy, Mz;
                hs_tire_steady(&p, fz[i], sl[a], sl[b], &Fx, &Fy, &Mz);
                printf("tmu %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", (double)p.mu, fz[i], sl[a], sl[b],
                       (double)Fx, (double)Fy, (double)Mz);
            }
        }
    }
    /* camber slip sg and bore slip sb (tmcb FZ SX SY SG SB FX FY MZ TBO), on the data's road */
    p.mu = 1.0;
    static const double sg[] = {-0.3, -0.05, 0.0, 0.02, 0.1, 0.4};
    static const double sb[] = {-4.0, -0.2, -0.01, 0.0, 0.03, 0.3, 1.5};
    const int ng = (int)(sizeof sg / sizeof sg[0]), nb = (int)(sizeof sb / sizeof sb[0]);
    for (int i = 0; i < nf; i += 2) {
        for (int a = 0; a < ns; a += 3) {
            for (int b = 0; b < ns; b += 3) {
                for (int g = 0; g < ng; ++g) {
                    for (int k = 0; k < nb; ++k) {
                        hs_real Fx, Fy, Mz, Tbo;
                        hs_tire_steady_cb(&p, fz[i], sl[a], sl[b], sg[g], sb[k], &Fx, &Fy, &Mz, &Tbo);
                        printf("tmcb %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", fz[i], sl[a], sl[b], sg[g],
                               sb[k], (double)Fx, (double)Fy, (double)Mz, (double)Tbo);
                    }
                }
            }
        }
    }
}

/* ---- derivatives against central differences ---- */
static unsigned long long rng = 88172645463325252ULL;
static double urand(double lo, double hi)
{
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return lo + (hi - lo) * (double)(rng >> 11) / 9007199254740992.0;
}

static void deriv_checks(void)
{
    hs_tire_par p;
    hs_tire_par_car(&p);
    /* camber and bore on (hs_tire_par_car: Rill's factors 1), so their columns are checked too */
    static const double scale[HS_TIRE_NARG] = {[HS_TIRE_PEN] = 1e-2, [HS_TIRE_PEND] = 1e-1, [HS_TIRE_VX] = 10,
        [HS_TIRE_VY] = 1, [HS_TIRE_OM] = 30, [HS_TIRE_OC] = 1, [HS_TIRE_WN] = 1, [HS_TIRE_XE] = 1e-2,
        [HS_TIRE_YE] = 1e-2, [HS_TIRE_ZB] = 1, [HS_TIRE_PSI] = 1e-2};
    int bad = 0, n = 0, vbad = 0;
    double worst = 0.0;
    for (int k = 0; k < 400; ++k) {
        hs_real a[HS_TIRE_NARG];
        a[HS_TIRE_PEN] = urand(0.005, 0.035);
        a[HS_TIRE_PEND] = urand(-0.2, 0.2);
        a[HS_TIRE_VX] = urand(-30.0, 30.0);
        a[HS_TIRE_VY] = urand(-4.0, 4.0);
        a[HS_TIRE_OM] = (k % 4 == 0) ? urand(-0.5, 0.5) : a[HS_TIRE_VX] / 0.297 * urand(0.5, 1.5);
        a[HS_TIRE_XE] = urand(-0.03, 0.03);
        a[HS_TIRE_YE] = urand(-0.03, 0.03);
        a[HS_TIRE_ZB] = urand(-1.0, 1.0);
        a[HS_TIRE_OC] = a[HS_TIRE_OM] * urand(-0.08, 0.08);
        a[HS_TIRE_WN] = a[HS_TIRE_OC] + urand(-2.0, 2.0);
        a[HS_TIRE_PSI] = urand(-0.02, 0.02);
        if (fabs(a[HS_TIRE_OM]) < 1e-3) continue;
        hs_tire_out o, op, om, ov;
        if (hs_tire_eval(&p, a, 1200.0, &o) != HS_OK) { ++bad; continue; }
        /* the values-only evaluation gives the same bits */
        if (hs_tire_eval_values(&p, a, 1200.0, &ov) != HS_OK || memcmp(ov.y, o.y, sizeof o.y) != 0) ++vbad;
        for (int j = 0; j < HS_TIRE_NARG; ++j) {
            const double h = 1e-7 * scale[j];
            hs_real ap[HS_TIRE_NARG], am[HS_TIRE_NARG];
            memcpy(ap, a, sizeof a); memcpy(am, a, sizeof a);
            ap[j] += h; am[j] -= h;
            hs_tire_eval(&p, ap, 1200.0, &op);
            hs_tire_eval(&p, am, 1200.0, &om);
            for (int r = 0; r < HS_TIRE_NRES; ++r) {
                const double fd = (op.y[r] - om.y[r]) / (2.0 * h);
                /* the scale of row r's change per unit of column j's range */
                double rs = 0.0;
                for (int c = 0; c < HS_TIRE_NARG; ++c) rs = fmax(rs, fabs(o.J[r][c]) * scale[c]);
                const double err = fabs(fd - o.J[r][j]) * scale[j] / fmax(rs, 1e-12);
                ++n;
                if (err > worst) worst = err;
                if (err > 1e-5) {
                    ++bad;
                    if (bad < 6) printf("  deriv row %d col %d: analytic %.9g fd %.9g\n", r, j, (double)o.J[r][j], fd);
                }
            }
        }
    }
    printf("tire derivatives: %d entries, worst scaled difference %.3g\n", n, worst);
    CHECK_VALUE(bad == 0 && n > 20000, "analytic Jacobian vs central differences (scaled 1e-5)", bad);
    CHECK_VALUE(vbad == 0, "hs_tire_eval_values = hs_tire_eval's values, bit for bit", vbad);
}

/* ---- vertical force: lift-off, never pulling ---- */
static void vertical_checks(void)
{
    hs_tire_par p;
    hs_tire_par_car(&p);
    hs_real a[HS_TIRE_NARG] = {0};
    hs_tire_out o;
    a[HS_TIRE_PEN] = -0.01; a[HS_TIRE_VX] = 10.0; a[HS_TIRE_OM] = 20.0; a[HS_TIRE_VY] = 1.0;
    hs_tire_eval(&p, a, 0.0, &o);
    CHECK_VALUE(o.y[HS_TIRE_FZ] == 0.0 && o.Fxs == 0.0 && o.Fys == 0.0, "off the road: no contact force", o.y[HS_TIRE_FZ]);
    a[HS_TIRE_PEN] = 0.01; a[HS_TIRE_PEND] = -10.0; /* rebounding faster than the damper allows */
    hs_tire_eval(&p, a, 0.0, &o);
    CHECK_VALUE(o.y[HS_TIRE_FZ] == 0.0, "rebound: the tire never pulls", o.y[HS_TIRE_FZ]);
    a[HS_TIRE_PEND] = 0.0;
    hs_tire_eval(&p, a, 0.0, &o);
    CHECK_VALUE(fabs(o.y[HS_TIRE_FZ] - p.cz * 0.01) < 1e-9 * p.cz, "Fz = cz pen in contact", o.y[HS_TIRE_FZ]);
    /* in the air the tread relaxes: e' = -c e / d, and the dynamic force is zero */
    a[HS_TIRE_PEN] = -0.01; a[HS_TIRE_XE] = 0.002;
    hs_tire_eval(&p, a, 0.0, &o);
    CHECK_VALUE(fabs(o.y[HS_TIRE_DXE] + p.cx / p.dx * 0.002) < 1e-9 && fabs(o.y[HS_TIRE_FX]) < 1e-9,
                "airborne tread relaxes without force", o.y[HS_TIRE_FX]);
}

/* ---- one wheel with a quarter car on a slope ---- */
typedef struct wheel_sim {
    hs_tire_par p;
    double m, J, theta, g;
    double x, v, om, xe, zb;  /* vehicle position/velocity, spin, tread and brake states */
    double Tb, Td;            /* brake capacity and drive torque (N m) */
    double pen;
} wheel_sim;

static void ws_init(wheel_sim *w, double slope, double v0)
{
    hs_tire_par_car(&w->p);
    w->m = 375.0; w->J = 1.0; w->g = 9.81;
    w->theta = atan(slope);
    w->pen = w->m * w->g * cos(w->theta) / w->p.cz; /* static deflection: no vertical motion */
    w->x = 0.0; w->v = v0; w->xe = 0.0; w->zb = 0.0; w->Tb = 0.0; w->Td = 0.0;
    w->om = v0 / (w->p.r0 - w->pen / 3.0);
}

/* one step: linear-implicit Euler on (v, om) with the exact Jacobian, explicit states */
static int ws_step(wheel_sim *w, double h)
{
    hs_real a[HS_TIRE_NARG] = {0};
    a[HS_TIRE_PEN] = w->pen; a[HS_TIRE_VX] = w->v; a[HS_TIRE_OM] = w->om;
    a[HS_TIRE_XE] = w->xe; a[HS_TIRE_ZB] = w->zb;
    hs_tire_out o;
    if (hs_tire_eval(&w->p, a, w->Tb, &o) != HS_OK) return -1;
    const double rd = o.rd;
    const double f0 = o.y[HS_TIRE_FX] - w->m * w->g * sin(w->theta);
    const double f1 = -rd * o.y[HS_TIRE_FX] + o.y[HS_TIRE_TY] + o.y[HS_TIRE_TB] + w->Td;
    /* (M - h fu) du = h f */
    const double A00 = w->m - h * o.J[HS_TIRE_FX][HS_TIRE_VX];
    const double A01 = -h * o.J[HS_TIRE_FX][HS_TIRE_OM];
    const double A10 = -h * (-rd * o.J[HS_TIRE_FX][HS_TIRE_VX] + o.J[HS_TIRE_TY][HS_TIRE_VX] + o.J[HS_TIRE_TB][HS_TIRE_VX]);
    const double A11 = w->J - h * (-rd * o.J[HS_TIRE_FX][HS_TIRE_OM] + o.J[HS_TIRE_TY][HS_TIRE_OM] + o.J[HS_TIRE_TB][HS_TIRE_OM]);
    const double det = A00 * A11 - A01 * A10;
    const double dv = h * (A11 * f0 - A01 * f1) / det, dom = h * (A00 * f1 - A10 * f0) / det;
    w->xe += h * o.y[HS_TIRE_DXE];
    w->zb += h * o.y[HS_TIRE_DZB];
    w->v += dv; w->om += dom;
    w->x += h * w->v;
    return 0;
}

static void lowspeed_checks(void)
{
    const double h = 1e-3;
    wheel_sim w;
    /* at rest on a flat road, no brake: nothing moves */
    ws_init(&w, 0.0, 0.0);
    double vmax = 0.0;
    for (int k = 0; k < 60000; ++k) { ws_step(&w, h); vmax = fmax(vmax, fabs(w.v)); }
    CHECK_VALUE(vmax < 1e-6, "at rest on flat road: |v| < 1e-6 m/s over 60 s", vmax);
    printf("tire rest flat: max |v| %.3g m/s over 60 s\n", vmax);

    /* 10 % slope, brake 1500 N m applied from the start: settles on the tread and brake
     * springs, then holds (no creep) */
    ws_init(&w, 0.10, 0.0);
    w.Tb = 1500.0;
    double x10 = 0.0;
    vmax = 0.0;
    for (int k = 0; k < 60000; ++k) {
        ws_step(&w, h);
        if (k == 9999) x10 = w.x;
        if (k >= 10000) vmax = fmax(vmax, fabs(w.v));
    }
    const double Fs = w.m * w.g * sin(w.theta);
    /* statics: tread spring cx xe = Fs (the road pushes up the slope), brake -zb Tb = rd Fs */
    const double rd = w.p.r0 - w.pen / 3.0;
    CHECK_VALUE(fabs(w.p.cx * w.xe - Fs) < 1e-3 * Fs, "slope: tread force = m g sin(theta)", w.p.cx * w.xe - Fs);
    CHECK_VALUE(fabs(w.zb * w.Tb + rd * Fs) < 1e-3 * rd * Fs, "slope: brake torque = rd m g sin(theta)", w.zb * w.Tb + rd * Fs);
    CHECK_VALUE(fabs(w.x - x10) < 1e-6, "slope with brakes: creep from 10 s to 60 s < 1e-6 m", w.x - x10);
    CHECK_VALUE(vmax < 1e-6, "slope with brakes: |v| < 1e-6 m/s after 10 s", vmax);
    printf("tire slope 10%%: x(10 s) %.6g m, x(60 s) - x(10 s) %.3g m, max |v| after 10 s %.3g m/s\n", x10, w.x - x10, vmax);

    /* braked from 20 m/s on a flat road with 800 N m (below the grip limit): stops at the
     * time the Coulomb brake gives, rocks back on the tread and brake springs once, then
     * stays */
    ws_init(&w, 0.0, 20.0);
    w.Tb = 800.0;
    double tstop = -1.0, xstop = 0.0, xlate = 0.0, dxmax = 0.0;
    vmax = 0.0;
    for (int k = 0; k < 30000; ++k) {
        ws_step(&w, h);
        const double t = (k + 1) * h;
        if (tstop < 0.0 && w.v <= 0.0) { tstop = t; xstop = w.x; } /* first reversal */
        if (tstop > 0.0) dxmax = fmax(dxmax, fabs(w.x - xstop));
        if (tstop > 0.0 && t > tstop + 5.0) {
            if (xlate == 0.0) xlate = w.x;
            vmax = fmax(vmax, fabs(w.v));
        }
    }
    /* deceleration (Tb/rd + fr m g)/m_eff, the wheel's inertia J/rd^2 added to the mass */
    const double adec = (800.0 / rd + w.p.fr * w.m * w.g) / (w.m + w.J / (rd * rd));
    const double tref = 20.0 / adec;
    CHECK_VALUE(tstop > 0.0 && fabs(tstop - tref) < 0.02 * tref, "braking from 20 m/s: stop time within 2 % of the Coulomb brake's", tstop);
    CHECK_VALUE(vmax < 1e-6, "5 s after stopping until 30 s: |v| < 1e-6 m/s", vmax);
    CHECK_VALUE(fabs(w.x - xlate) < 1e-6, "5 s after stopping until 30 s: moves < 1e-6 m", w.x - xlate);
    CHECK_VALUE(dxmax < 0.05, "rock-back after the stop < 5 cm", dxmax);
    printf("tire braking 20 m/s: stop at %.4g s (Coulomb brake %.4g s), rock-back %.3g m, max |v| from 5 s after %.3g m/s\n",
           tstop, tref, dxmax, vmax);

    /* start from rest with a drive torque: the wheel grips, a = Td/(rd m_eff) less rolling
     * resistance fr g */
    ws_init(&w, 0.0, 0.0);
    w.Td = 200.0;
    for (int k = 0; k < 5000; ++k) ws_step(&w, h);
    const double aref = (200.0 / rd - w.p.fr * w.m * w.g) / (w.m + w.J / (rd * rd));
    CHECK_VALUE(fabs(w.v - 5.0 * aref) < 0.02 * 5.0 * aref, "drive from rest: v(5 s) within 2 % of Td/(rd m_eff) t", w.v);
    printf("tire drive from rest: v(5 s) %.5g m/s, reference %.5g m/s\n", w.v, 5.0 * aref);
}

/* ---- the load range (issue 33 item 3) ---- */
/* At 0.5, 1, 2 and 3 FzN: the maxima FM at their slips sM and the initial slopes dF0 straight
 * from Rill's Table 3.3 and the documented load rule (the parabola through 0, FzN, 2 FzN;
 * beyond 2 FzN forces and slopes in proportion to the load, slips held: model/TIRE.md "Load
 * range"), pure slip, where the generalized slip reduces to the one-direction curve. Then no
 * sign reversal up to 6 FzN: cornering stiffness and Fx at sx = sy = 0.02 positive (with the
 * parabola extended, dF0y reached 0 at 16.3 kN and Fx was -3811 N at 19.2 kN). */
static void load_range_checks(void)
{
    hs_tire_par p;
    hs_tire_par_car(&p);
    static const double zs[] = {0.5, 1.0, 2.0, 3.0};
    double worst = 0.0;
    for (int i = 0; i < 4; ++i) {
        const double z = zs[i], fz = z * 3500.0;
        /* the table's value at load z: parabola to 2, proportional beyond; slips linear to 2, held */
        #define QL(a1, a2) ((z > 2.0) ? (a2) * z / 2.0 : z * (2.0 * (a1) - 0.5 * (a2) - ((a1) - 0.5 * (a2)) * z))
        #define LL(a1, a2) ((z > 2.0) ? (a2) : (a1) + ((a2) - (a1)) * (z - 1.0))
        const double FMx = QL(4400.0, 8700.0), sMx = LL(0.11, 0.10);
        const double FMy = QL(4200.0, 7500.0), sMy = LL(0.20, 0.22);
        const double dF0x = QL(120000.0, 200000.0), dF0y = QL(55000.0, 80000.0);
        hs_real Fx, Fy;
        hs_tire_steady(&p, fz, sMx, 0.0, &Fx, NULL, NULL);
        hs_tire_steady(&p, fz, 0.0, sMy, NULL, &Fy, NULL);
        worst = fmax(worst, fmax(fabs(Fx - FMx) / FMx, fabs(Fy - FMy) / FMy));
        CHECK_VALUE(fabs(Fx - FMx) < 1e-12 * FMx && fabs(Fy - FMy) < 1e-12 * FMy, "FM at sM = the table's at this load (x and y)", z);
        const double ds = 1e-7;
        hs_tire_steady(&p, fz, ds, 0.0, &Fx, NULL, NULL);
        hs_tire_steady(&p, fz, 0.0, ds, NULL, &Fy, NULL);
        CHECK_VALUE(fabs(Fx / ds - dF0x) < 1e-5 * dF0x && fabs(Fy / ds - dF0y) < 1e-5 * dF0y, "initial slopes dF0 = the table's at this load", z);
        printf("tire load %.1f FzN: FMx %.1f N at sMx %.3f, FMy %.1f N at sMy %.3f, dF0x %.0f, dF0y %.0f N\n", z, FMx, sMx, FMy, sMy, dF0x, dF0y);
        #undef QL
        #undef LL
    }
    int bad = 0;
    for (double fz = 500.0; fz <= 21000.0; fz += 500.0) {
        hs_real Fx, Fy;
        hs_tire_steady(&p, fz, 1e-6, 0.0, &Fx, NULL, NULL);
        hs_tire_steady(&p, fz, 0.0, 1e-6, NULL, &Fy, NULL);
        bad += (Fx > 0.0 && Fy > 0.0) ? 0 : 1;
        hs_tire_steady(&p, fz, 0.02, 0.02, &Fx, &Fy, NULL);
        bad += (Fx > 0.0 && Fy > 0.0) ? 0 : 1;
    }
    hs_real Fx19;
    hs_tire_steady(&p, 19200.0, 0.02, 0.02, &Fx19, NULL, NULL);
    CHECK_VALUE(bad == 0, "0.5 to 21 kN: positive slopes and Fx, Fy > 0 at sx = sy = 0.02 (no sign reversal)", bad);
    printf("tire load range: worst FM difference %.2e; at 19.2 kN, sx = sy = 0.02: Fx %.1f N\n", worst, (double)Fx19);
}

/* ---- the brake holds its rating, no more (issue 33 item 2) ---- */
/* A wheel in the air (no tire force, no rolling resistance) with a load torque L on its spin
 * and brake capacity Tb: Coulomb friction holds it (the spin settles to 0) for L < Tb and
 * lets it slip at (L - Tb)/J for L > Tb. Checked 1 % either side of the rating; the smoothed
 * |Omega| of the earlier brake held up to 7.5 % above it by creeping. Then the case:
 * the quarter car on a 10 % grade needs L = rd m g sin(theta) (107.5 N m here); a brake of
 * L/0.99 holds it, L/1.01 lets it roll (down the slope, against the rolling resistance). */
static void brake_hold_checks(void)
{
    const double h = 1e-3, L = 100.0;
    wheel_sim w;
    for (int side = 0; side < 2; ++side) {
        const double Tb = (side == 0) ? L * 1.01 : L * 0.99;
        ws_init(&w, 0.0, 0.0);
        w.pen = -0.01; /* airborne */
        w.Td = L;
        w.Tb = Tb;
        double om5 = 0.0, ommax = 0.0;
        for (int k = 0; k < 10000; ++k) {
            ws_step(&w, h);
            if (k == 4999) om5 = w.om;
            if (k >= 5000) ommax = fmax(ommax, fabs(w.om));
        }
        if (side == 0) {
            CHECK_VALUE(ommax < 1e-6, "brake 1 % above the load torque holds the wheel (|spin| < 1e-6 rad/s from 5 s to 10 s)", ommax);
            printf("brake %.1f N m against %.1f N m: holds, max |spin| from 5 s %.3g rad/s\n", Tb, L, ommax);
        } else {
            /* from 5 s to 10 s the slip accelerates at exactly (L - Tb)/J (zb = 1) */
            const double aref = (L - Tb) / w.J, a = (w.om - om5) / 5.0;
            CHECK_VALUE(fabs(a - aref) < 1e-3 * aref, "brake 1 % below the load torque slips at (L - Tb)/J (0.1 %)", a);
            printf("brake %.1f N m against %.1f N m: slips at %.6g rad/s^2 (reference %.6g)\n", Tb, L, a, aref);
        }
    }
    for (int side = 0; side < 2; ++side) {
        ws_init(&w, 0.10, 0.0);
        const double rd = w.p.r0 - w.pen / 3.0, Lg = rd * w.m * w.g * sin(w.theta);
        w.Tb = (side == 0) ? Lg * 1.01 : Lg * 0.99;
        double x10 = 0.0;
        for (int k = 0; k < 90000; ++k) {
            ws_step(&w, h);
            if (k == 59999) x10 = w.x;
        }
        const double dx = w.x - x10;
        if (side == 0) {
            CHECK_VALUE(fabs(dx) < 1e-6, "10 % grade, brake 1 % above rd m g sin(theta): holds (< 1e-6 m from 60 s to 90 s)", dx);
        } else {
            CHECK_VALUE(dx < -1e-3, "10 % grade, brake 1 % below rd m g sin(theta): rolls down (> 1 mm from 60 s to 90 s)", dx);
        }
        printf("grade 10 %%: needs %.2f N m, brake %.2f N m: moved %.3g m from 60 s to 90 s\n", Lg, w.Tb, dx);
    }
}

/* ---- the car's ECU inputs (external = 1) ---- */
static void input_checks(void)
{
    static hs_veh_params pb;
    hs_model m;
    CHECK_VALUE(hs_model_init(&m, &hs_veh_car_type, &pb) == HS_OK, "car init", 0);
    CHECK_VALUE(hs_model_set_param(&m, "external", 1.0) == HS_OK, "car external = 1", 0);
    hs_real q[HS_VEH_CAR_NQ], u[HS_VEH_CAR_NQ], z[HS_VEH_CAR_NZ], f0[HS_VEH_CAR_NQ], f1[HS_VEH_CAR_NQ];
    hs_real in[HS_VEH_CAR_NIN] = {0};
    CHECK_VALUE(hs_veh_car_type.initial(&m, 0.0, q, u, z) == HS_OK, "car initial", 0);
    CHECK_VALUE(hs_veh_car_type.force(&m, 0.0, q, u, z, in, f0) == HS_OK, "car force, inputs 0", 0);
    /* a drive torque on the rear left wheel adds exactly itself to that spin's force */
    in[3] = 250.0;
    hs_veh_car_type.force(&m, 0.0, q, u, z, in, f1);
    CHECK_VALUE(f1[5] - f0[5] == 250.0 && f1[3] == f0[3] && f1[0] == f0[0], "drive_rl adds 250 N m to spin rl only", f1[5] - f0[5]);
    in[3] = 0.0;
    /* a negative brake capacity is refused, not clamped */
    in[6] = -1.0;
    CHECK_VALUE(hs_veh_car_type.force(&m, 0.0, q, u, z, in, f1) == HS_E_INPUT, "negative brake input refused (HS_E_INPUT)", 0);
    in[6] = 0.0;
    /* the friction actuators mu_fl..mu_rr (inputs 9..12): outside [0, 2] or NaN refused; 0 is
     * the road's own; a value equal to --param mu gives the same forces, bit for bit, and
     * a lower one on a sliding (braked, locked) wheel lowers its force in proportion (the
     * locked tire at sx = -1 slides at mu FS, model/TIRE.md "Road friction") */
    in[9] = -0.1;
    CHECK_VALUE(hs_veh_car_type.force(&m, 0.0, q, u, z, in, f1) == HS_E_INPUT, "mu_fl input -0.1 refused (HS_E_INPUT)", 0);
    in[9] = 2.5;
    CHECK_VALUE(hs_veh_car_type.force(&m, 0.0, q, u, z, in, f1) == HS_E_INPUT, "mu_fl input 2.5 refused (above 2)", 0);
    in[9] = (hs_real)NAN;
    CHECK_VALUE(hs_veh_car_type.force(&m, 0.0, q, u, z, in, f1) == HS_E_INPUT, "mu_fl input NaN refused", 0);
    in[9] = 1.0;
    CHECK_VALUE(hs_veh_car_type.force(&m, 0.0, q, u, z, in, f1) == HS_OK && memcmp(f0, f1, sizeof f0) == 0,
                "mu_fl input 1 = the road's mu 1: the same forces bit for bit", 0);
    {
        /* locked front left wheel (spin 0, speed 20 m/s), tread state at its sliding steady
         * deflection: Fx at mu 0.3 / Fx at mu 1 = 0.3 */
        hs_real ql[HS_VEH_CAR_NQ], ul[HS_VEH_CAR_NQ], zl[HS_VEH_CAR_NZ], fa[HS_VEH_CAR_NQ], fb[HS_VEH_CAR_NQ];
        hs_real fx[2];
        for (int c = 0; c < 2; ++c) {
            hs_veh_car_type.initial(&m, 0.0, ql, ul, zl);
            ul[3] = 0.0;
            in[9] = (c == 0) ? 1.0 : 0.3;
            for (int k = 0; k < 20000; ++k) {
                hs_real zd[HS_VEH_CAR_NZ];
                hs_veh_car_type.zdot(&m, 0.0, ql, ul, zl, in, zd);
                for (int i = 0; i < 3; ++i) zl[i] += 1e-5 * zd[i];
            }
            hs_veh_car_type.force(&m, 0.0, ql, ul, zl, in, (c == 0) ? fa : fb);
            /* the spin row carries -rd Fx of that wheel (plus rolling resistance, 0 at rest) */
            fx[c] = (c == 0) ? fa[3] : fb[3];
        }
        CHECK_VALUE(fabs(fx[1] / fx[0] - 0.3) < 1e-6, "locked wheel: spin torque at mu_fl 0.3 / at mu_fl 1 = 0.3", fx[1] / fx[0]);
        printf("locked front left wheel at 20 m/s: spin torque %.3f N m at mu_fl 1, %.3f at 0.3 (ratio %.6f)\n", fx[0], fx[1], fx[1] / fx[0]);
    }
    in[9] = 0.0;
    /* steering left at speed, with the tread states at the steady forces: positive lateral
     * force and yaw torque (ISO: y left, z up) */
    in[0] = 0.02;
    for (int k = 0; k < 3000; ++k) {
        hs_real zd[HS_VEH_CAR_NZ];
        hs_veh_car_type.zdot(&m, 0.0, q, u, z, in, zd);
        for (int i = 0; i < HS_VEH_CAR_NZ; ++i) z[i] += 1e-4 * zd[i];
    }
    hs_veh_car_type.force(&m, 0.0, q, u, z, in, f1);
    CHECK_VALUE(f1[1] > 100.0 && f1[2] > 100.0, "steer left: lateral force and yaw torque positive", f1[2]);
    hs_real y[HS_VEH_CAR_NOUT];
    CHECK_VALUE(hs_veh_car_type.output(&m, 0.0, q, u, z, in, y) == HS_OK && y[6] > 0.0, "a_y output positive when steering left", y[6]);
}

/* ---- bore torque at standstill: closed forms (model/TIRE.md "Camber and bore torque") ---- */
static void bore_checks(void)
{
    hs_tire_par p;
    hs_tire_par_car(&p);
    hs_real a[HS_TIRE_NARG] = {0};
    hs_tire_out o;
    a[HS_TIRE_PEN] = 3500.0 / p.cz; /* Fz = FzN: the table's own values */
    /* turned about the vertical at 5 rad/s at standstill (Omega = 0): the bore slip
     * sb = -R_B w / vN is far beyond sS, F(s) = FS of the 45 degree direction (no sx, sy), so
     * the steady torque is T* = -R_B FS v* / vc with v* = vN, vc = vN (g + 1e-6),
     * g = vb^2 / (vb^2 + vN^2), vb = R_B w: relaxed here by explicit Euler on psi */
    const double w = 5.0, L = 2.0 * sqrt(p.r0 * 3500.0 / p.cz), rb = (L + p.B) / 6.0, vb = rb * w;
    const double g = vb * vb / (vb * vb + p.vN * p.vN);
    const double FS = sqrt(0.5 * (p.x[0].FS * p.x[0].FS + p.y[0].FS * p.y[0].FS));
    const double FM = sqrt(0.5 * (p.x[0].FM * p.x[0].FM + p.y[0].FM * p.y[0].FM));
    const double Tst = -rb * FS / (g + 1e-6);
    a[HS_TIRE_WN] = w;
    for (int k = 0; k < 20000; ++k) {
        hs_tire_eval_values(&p, a, 0.0, &o);
        a[HS_TIRE_PSI] += 1e-3 * o.y[HS_TIRE_DPSI];
    }
    hs_tire_eval_values(&p, a, 0.0, &o);
    const double T = o.y[HS_TIRE_TBO];
    char what[400];
    snprintf(what, sizeof what, "bore torque, turning at %.0f rad/s at standstill: %.6f N m = -R_B FS/(g + 1e-6) = %.6f N m "
             "(1e-9), resisting the turn, |T| / (R_B FS) = %.6f (R_B = %.5f m, R_B FS %.3f N m, R_B FM %.3f N m)",
             w, T, Tst, fabs(T) / (rb * FS), rb, rb * FS, rb * FM);
    CHECK_NAMED(fabs(T - Tst) <= 1e-9 * fabs(Tst) && T * w < 0.0 && fabs(T) <= rb * FM, what);
    printf("  %s\n", what);
    /* at rest, twisted by psi: a torsional spring cpsi psi that holds (no creep): psi' = -vc cpsi
     * psi / (vc dpsi + kf) with vc = 1e-6 vN (w2 = 0) */
    a[HS_TIRE_WN] = 0.0;
    a[HS_TIRE_PSI] = -0.1;
    hs_tire_eval_values(&p, a, 0.0, &o);
    snprintf(what, sizeof what, "bore torque at rest twisted by psi = -0.1 rad: %.6f N m = cpsi psi = %.6f N m, creeping at "
             "%.2e rad/s (< 1e-7 rad/s)", (double)o.y[HS_TIRE_TBO], -0.1 * p.cpsi, (double)o.y[HS_TIRE_DPSI]);
    CHECK_NAMED(fabs(o.y[HS_TIRE_TBO] + 0.1 * p.cpsi) <= 1e-6 * 0.1 * p.cpsi && fabs(o.y[HS_TIRE_DPSI]) < 1e-7, what);
    printf("  %s\n", what);
    /* bore off (kbore = 0): exactly no torque and no rate, whatever the spin about n */
    p.kbore = 0.0;
    a[HS_TIRE_WN] = 3.0;
    hs_tire_eval_values(&p, a, 0.0, &o);
    CHECK_NAMED(o.y[HS_TIRE_TBO] == 0.0 && o.y[HS_TIRE_DPSI] == 0.0, "kbore = 0: bore torque and psi' exactly 0");
}

static void par_checks(void)
{
    hs_tire_par p;
    hs_tire_par_car(&p);
    CHECK_VALUE(hs_tire_par_check(&p) == HS_OK, "car parameters valid", 0);
    hs_tire_par_truck(&p);
    CHECK_VALUE(hs_tire_par_check(&p) == HS_OK, "truck parameters valid", 0);
    p.y[0].sS = p.y[0].sM;
    CHECK_VALUE(hs_tire_par_check(&p) == HS_E_MODEL_PARAM, "sS <= sM refused", 0);
}

static const hs_test_case tests[] = {
    HS_TEST_ROW(par_checks),
    HS_TEST_ROW(deriv_checks),
    HS_TEST_ROW(vertical_checks),
    HS_TEST_ROW(lowspeed_checks),
    HS_TEST_ROW(brake_hold_checks),
    HS_TEST_ROW(load_range_checks),
    HS_TEST_ROW(input_checks),
    HS_TEST_ROW(bore_checks),
};

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc > 1 && strcmp(argv[1], "curves") == 0) {
        curves();
        return 0;
    }
    return hs_test_run("tire-element", tests, HS_TEST_COUNT(tests), 0) ? 1 : 0;
}
