/* tire_mb.c - the multibody tire element (model/elements/hs_mb_el_tire.c) against hs_tire.c and against
 * differences: prints "tire-mb: N passed, N failed".
 *
 * 1. Forces: a wheel on the road at 400 states (yawed and cambered wheel bodies, steer and road
 *    inputs, a road profile): the element's generalized force on the wheel's position
 *    coordinates equals hs_tire_eval's (Fx x + Fy y + Fz n) at the arguments computed here
 *    independently (contact frame from the axle by cross products, penetration, slip
 *    velocities, spin), and its state rates equal hs_tire_eval's, to 1e-12 relative. At tread
 *    deflections where the tread is in steady state, the force equals hs_tire_steady's at the
 *    same slips (Rill's published characteristic) to 1e-12 relative.
 * 2. Derivatives: fq, fu of the whole description (wheel, carrier, tire) against central
 *    differences at 200 states in contact (1e-6 relative, as test/mb/test_mb_deriv.c), dense
 *    and packed storage alike.
 * 3. model/mech/vehicles/car.hsm, loaded as hilstep-sim loads it (HS_MB_PACK_AUTO) and from its
 *    generated tables (model/gen/mb_car_hsm.c): both run on the sparse backend with the default
 *    method, and give the same trajectory bits over 200 steps braking from 20 m/s. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hs_hash.h"
#include "hs_mb.h"
#include "hs_mb_file.h"
#include "hs_mb_parse.h"
#include "hs_stepper.h"
#include "hs_tire.h"
#include "mb_gen.h"
#include "hs_test.h"

/* Set by the first test; the ones on the description run only when it compiled. */
static int compiled;
/* 1 after description_tilted: the same wheel with normal=profile (the road normal follows the
 * profile's slope), the checks below run again on it with the tilted contact frame */
static int tilted;
/* 1 after description_cb: camber=on bore=on (the camber force, the bore torque and its 4th state) */
static int cb;
static double nrm[3] = {0, 0, 1};

static unsigned long long rs = 0x9e3779b97f4a7c15ULL;
static double rnd(void)
{
    rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17;
    return (double)(rs >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

/* wheel w (spatial, axle = body y), carrier c; inputs drive, brake, steer, road; a profile */
static const char text[] =
    "model tiremb dim=3\ngravity 0,0,-9.81\n"
    "input drive\ninput brake\ninput steer\ninput road\n"
    "body c spatial mass=300 inertia=50,80,100 pos=0,0,0.6\n"
    "body w spatial mass=20 inertia=0.6,1,0.6 pos=0,0,0.29\n"
    "force t tire a=w b=c axis=0,1,0 in=drive steer=steer road=road t=-1,0,1,2 v=0,0.01,-0.02,0.005\n";

static hs_mb_store st;
static hs_mb_model mb, mbp;
#define NQ 14

/* R(p) s for a unit quaternion (w, x, y, z) */
static void rot(const double *p, const double *s, double *o)
{
    const double w = p[0], x = p[1], y = p[2], z = p[3];
    const double R[3][3] = {{w * w + x * x - y * y - z * z, 2 * (x * y - w * z), 2 * (x * z + w * y)},
                            {2 * (x * y + w * z), w * w - x * x + y * y - z * z, 2 * (y * z - w * x)},
                            {2 * (x * z - w * y), 2 * (y * z + w * x), w * w - x * x - y * y + z * z}};
    for (int i = 0; i < 3; ++i) o[i] = R[i][0] * s[0] + R[i][1] * s[1] + R[i][2] * s[2];
}

static double road(double x, double *slope)
{
    static const double T[4] = {-1, 0, 1, 2}, V[4] = {0, 0.01, -0.02, 0.005};
    *slope = 0;
    if (x <= T[0]) return V[0];
    if (x >= T[3]) return V[3];
    for (int i = 1; i < 4; ++i)
        if (x < T[i]) { *slope = (V[i] - V[i - 1]) / (T[i] - T[i - 1]); return V[i - 1] + *slope * (x - T[i - 1]); }
    return V[3];
}

/* a random state of the wheel in contact: small yaw and camber, rolling at up to 30 m/s */
static void state(hs_real *q, hs_real *u, hs_real *z, hs_real *in, int rest)
{
    memset(q, 0, sizeof(hs_real) * NQ);
    memset(u, 0, sizeof(hs_real) * NQ);
    /* carrier: arbitrary orientation and motion */
    double pc[4] = {1, 0.1 * rnd(), 0.1 * rnd(), 0.3 * rnd()}, n = 0;
    for (int i = 0; i < 4; ++i) n += pc[i] * pc[i];
    q[0] = 0.2 * rnd(); q[1] = 0.2 * rnd(); q[2] = 0.6;
    for (int i = 0; i < 4; ++i) { q[3 + i] = (hs_real)(pc[i] / sqrt(n)); u[3 + i] = (hs_real)(0.3 * rnd()); }
    for (int i = 0; i < 3; ++i) u[i] = (hs_real)rnd();
    /* wheel: yaw up to 0.5 rad, camber up to 0.1 rad, spin angle anywhere */
    const double yaw = 0.5 * rnd(), cam = 0.1 * rnd(), spin = 3.0 * rnd();
    const double qy[4] = {cos(yaw / 2), 0, 0, sin(yaw / 2)};
    const double qx[4] = {cos(cam / 2), sin(cam / 2), 0, 0}, qs[4] = {cos(spin / 2), 0, sin(spin / 2), 0};
    double t1[4], p[4];
    { /* p = qy qx qs */
        const double *A = qy, *B = qx;
        t1[0] = A[0] * B[0] - A[1] * B[1] - A[2] * B[2] - A[3] * B[3];
        t1[1] = A[0] * B[1] + A[1] * B[0] + A[2] * B[3] - A[3] * B[2];
        t1[2] = A[0] * B[2] - A[1] * B[3] + A[2] * B[0] + A[3] * B[1];
        t1[3] = A[0] * B[3] + A[1] * B[2] - A[2] * B[1] + A[3] * B[0];
        A = t1; B = qs;
        p[0] = A[0] * B[0] - A[1] * B[1] - A[2] * B[2] - A[3] * B[3];
        p[1] = A[0] * B[1] + A[1] * B[0] + A[2] * B[3] - A[3] * B[2];
        p[2] = A[0] * B[2] - A[1] * B[3] + A[2] * B[0] + A[3] * B[1];
        p[3] = A[0] * B[3] + A[1] * B[2] - A[2] * B[1] + A[3] * B[0];
    }
    const double x = 2.5 * rnd();
    double slope;
    const double h = road(x, &slope);
    q[7] = (hs_real)x; q[8] = (hs_real)(0.3 * rnd());
    q[9] = (hs_real)(h + 0.3 - 0.005 - 0.03 * (0.5 + 0.5 * rnd()) + 0.01 * rnd());
    for (int i = 0; i < 4; ++i) q[10 + i] = (hs_real)p[i];
    const double v = rest ? 0.0 : 30.0 * (0.5 + 0.5 * rnd());
    u[7] = (hs_real)(v * cos(yaw) + (rest ? 1e-2 : 2.0) * rnd());
    u[8] = (hs_real)(v * sin(yaw) + (rest ? 1e-2 : 1.0) * rnd());
    u[9] = (hs_real)(0.1 * rnd());
    /* p' = 1/2 p (0, w_body): spin about the body y near rolling, small other rates */
    const double wb[3] = {0.3 * rnd(), (v / 0.29) * (1.0 + 0.2 * rnd()) + (rest ? 3e-2 : 1.0) * rnd(), 0.3 * rnd()};
    const double W[4] = {0, wb[0], wb[1], wb[2]};
    double pd[4];
    pd[0] = 0.5 * (p[0] * W[0] - p[1] * W[1] - p[2] * W[2] - p[3] * W[3]);
    pd[1] = 0.5 * (p[0] * W[1] + p[1] * W[0] + p[2] * W[3] - p[3] * W[2]);
    pd[2] = 0.5 * (p[0] * W[2] - p[1] * W[3] + p[2] * W[0] + p[3] * W[1]);
    pd[3] = 0.5 * (p[0] * W[3] + p[1] * W[2] - p[2] * W[1] + p[3] * W[0]);
    for (int i = 0; i < 4; ++i) u[10 + i] = (hs_real)pd[i];
    z[0] = (hs_real)(0.02 * rnd()); z[1] = (hs_real)(0.02 * rnd()); z[2] = (hs_real)rnd();
    z[3] = (hs_real)(0.02 * rnd());
    in[0] = (hs_real)(300 * rnd()); in[1] = (hs_real)(1000 * (0.5 + 0.5 * rnd()));
    in[2] = (hs_real)(0.3 * rnd()); in[3] = (hs_real)(0.01 * rnd());
}

/* The tire's arguments computed here from the state, as model/elements/hs_mb_el_tire.c documents them. */
static void args_of(const hs_real *q, const hs_real *u, const hs_real *z, const hs_real *in, double *arg,
                    double *xd, double *yd)
{
    const double p[4] = {q[10], q[11], q[12], q[13]}, pd[4] = {u[10], u[11], u[12], u[13]};
    const double ey[3] = {0, 1, 0};
    double e[3];
    rot(p, ey, e);
    double slope;
    const double h = in[3] + road(q[7], &slope);
    if (tilted) {
        /* n = (-h', 0, 1)/|.|: the profile segment's normal; x0 = e x n/|e x n|, turned about n by
         * the steering angle (Rodrigues: n x x0 the quarter turn), y = n x x; pen along n */
        const double c = 1.0 / sqrt(1.0 + slope * slope);
        const double n[3] = {-slope * c, 0, c};
        double x0[3] = {e[1] * n[2] - e[2] * n[1], e[2] * n[0] - e[0] * n[2], e[0] * n[1] - e[1] * n[0]};
        const double r = sqrt(x0[0] * x0[0] + x0[1] * x0[1] + x0[2] * x0[2]);
        for (int i = 0; i < 3; ++i) x0[i] /= r;
        const double m0[3] = {n[1] * x0[2] - n[2] * x0[1], n[2] * x0[0] - n[0] * x0[2], n[0] * x0[1] - n[1] * x0[0]};
        for (int i = 0; i < 3; ++i) xd[i] = cos(in[2]) * x0[i] + sin(in[2]) * m0[i];
        yd[0] = n[1] * xd[2] - n[2] * xd[1]; yd[1] = n[2] * xd[0] - n[0] * xd[2]; yd[2] = n[0] * xd[1] - n[1] * xd[0];
        for (int i = 0; i < 3; ++i) nrm[i] = n[i];
        arg[HS_TIRE_PEN] = 0.3 - (q[9] - h) * c;
        arg[HS_TIRE_PEND] = -(n[0] * u[7] + n[2] * u[9]);
        arg[HS_TIRE_VX] = xd[0] * u[7] + xd[1] * u[8] + xd[2] * u[9];
        arg[HS_TIRE_VY] = yd[0] * u[7] + yd[1] * u[8] + yd[2] * u[9];
    } else {
        /* x0 = e x n / |e x n|, n = z */
        nrm[0] = 0; nrm[1] = 0; nrm[2] = 1;
        double x0[3] = {e[1], -e[0], 0};
        const double r = hypot(x0[0], x0[1]);
        x0[0] /= r; x0[1] /= r;
        const double d = in[2];
        xd[0] = cos(d) * x0[0] - sin(d) * x0[1];
        xd[1] = cos(d) * x0[1] + sin(d) * x0[0];
        xd[2] = 0;
        yd[0] = -xd[1]; yd[1] = xd[0]; yd[2] = 0;
        arg[HS_TIRE_PEN] = 0.3 - (q[9] - h);
        arg[HS_TIRE_PEND] = -(u[9] - slope * u[7]);
        arg[HS_TIRE_VX] = xd[0] * u[7] + xd[1] * u[8];
        arg[HS_TIRE_VY] = yd[0] * u[7] + yd[1] * u[8];
    }
    /* body-frame angular velocity w = 2 conj(p) p' (vector part), its y */
    arg[HS_TIRE_OM] = 2 * (p[0] * pd[2] - p[2] * pd[0] - p[3] * pd[1] + p[1] * pd[3]);
    arg[HS_TIRE_XE] = z[0]; arg[HS_TIRE_YE] = z[1]; arg[HS_TIRE_ZB] = z[2];
    arg[HS_TIRE_OC] = 0;
    arg[HS_TIRE_WN] = 0;
    arg[HS_TIRE_PSI] = 0;
    if (cb) {
        /* camber spin Omega (e . n); the whole spin about n: n . R(p) w_body */
        const double wb[3] = {2 * (p[0] * pd[1] - p[1] * pd[0] - p[2] * pd[3] + p[3] * pd[2]), arg[HS_TIRE_OM],
                              2 * (p[0] * pd[3] - p[3] * pd[0] - p[1] * pd[2] + p[2] * pd[1])};
        double w[3];
        rot(p, wb, w);
        arg[HS_TIRE_OC] = arg[HS_TIRE_OM] * (e[0] * nrm[0] + e[1] * nrm[1] + e[2] * nrm[2]);
        arg[HS_TIRE_WN] = w[0] * nrm[0] + w[1] * nrm[1] + w[2] * nrm[2];
        arg[HS_TIRE_PSI] = z[3];
    }
}

static double rel(double a, double b) { return fabs(a - b) / (1.0 + fabs(b)); }

static void forces_vs_hs_tire(void)
{
    if (!compiled) return;
    hs_model m;
    hs_mb_model_init(&m, &mb);
    hs_tire_par tp;
    hs_tire_par_car(&tp);
    if (!cb) tp.kgam = tp.kbore = 0;
    double worst = 0, worst_s = 0, worst_r = 0;
    int n = 0;
    for (int k = 0; k < 400; ++k) {
        hs_real q[NQ], u[NQ], z[4], in[4], f[NQ], zd[4];
        state(q, u, z, in, k % 4 == 0);
        double arg[HS_TIRE_NARG], xd[3], yd[3];
        args_of(q, u, z, in, arg, xd, yd);
        hs_real a[HS_TIRE_NARG];
        for (int i = 0; i < HS_TIRE_NARG; ++i) a[i] = (hs_real)arg[i];
        hs_tire_out o;
        if (hs_tire_eval(&tp, a, in[1], &o) != HS_OK) { CHECK_NAMED(0, "hs_tire_eval"); return; }
        if (mb.type.force(&m, 0, q, u, z, in, f) != HS_OK || mb.type.zdot(&m, 0, q, u, z, in, zd) != HS_OK) {
            CHECK_NAMED(0, "element force/zdot evaluates");
            return;
        }
        /* gravity on the wheel's coordinates 7..9 plus the road's force */
        double F[3];
        for (int i = 0; i < 3; ++i) F[i] = o.y[HS_TIRE_FX] * xd[i] + o.y[HS_TIRE_FY] * yd[i] + o.y[HS_TIRE_FZ] * nrm[i];
        F[2] -= 20 * 9.81;
        const double scale = fabs(o.y[HS_TIRE_FZ]) + fabs(o.y[HS_TIRE_FX]) + fabs(o.y[HS_TIRE_FY]);
        /* off the road the tread force is cx xe + dx xe' = 0 up to the springs' rounding */
        for (int i = 0; i < 3; ++i) {
            const double e = fabs(f[7 + i] - F[i]) / (1.0 + scale + tp.cx * fabs(z[0]) + tp.cy * fabs(z[1]));
            if (e > worst) worst = e;
        }
        for (int i = 0; i < 3 + cb; ++i) {
            const double e = rel(zd[i], o.y[HS_TIRE_DXE + i]);
            if (e > worst_r) worst_r = e;
        }
        /* steady tread (xe' = 0 = ye'): the force is hs_tire_steady's at the same slips */
        if (!tilted && !cb && o.y[HS_TIRE_FZ] > 0 && k % 4 != 0) {
            hs_real z2[3] = {(hs_real)(o.Fxs / tp.cx), (hs_real)(o.Fys / tp.cy), z[2]};
            hs_real Fxs, Fys;
            hs_tire_steady(&tp, o.y[HS_TIRE_FZ], o.sx, o.sy, &Fxs, &Fys, NULL);
            /* with xe = Fxs/cx the rate is -(vc - v*) Fxs/(vc dx + bx) / ...: small but not 0; the
             * steady comparison uses the element's own value at xe' = 0 exactly: Fx = cx xe */
            mb.type.force(&m, 0, q, u, z2, in, f);
            hs_tire_out o2;
            hs_real a2[HS_TIRE_NARG];
            memcpy(a2, a, sizeof a2);
            a2[HS_TIRE_XE] = z2[0]; a2[HS_TIRE_YE] = z2[1];
            hs_tire_eval(&tp, a2, in[1], &o2);
            const double e1 = rel(o2.Fxs, Fxs) + rel(o2.Fys, Fys);
            /* the element's contact force minus the tread's rate term is the steady force */
            const double Fx_el = f[7] * xd[0] + f[8] * xd[1], Fy_el = f[7] * yd[0] + f[8] * yd[1];
            const double e2 = fabs(Fx_el - (Fxs + tp.dx * o2.y[HS_TIRE_DXE])) / (1.0 + fabs(Fxs))
                              + fabs(Fy_el - (Fys + tp.dy * o2.y[HS_TIRE_DYE])) / (1.0 + fabs(Fys));
            if (e1 + e2 > worst_s) worst_s = e1 + e2;
            ++n;
        }
    }
    char what[480];
    snprintf(what, sizeof what, "tire element%s%s = hs_tire_eval at 400 states (yaw, camber, steer, road input and profile): force on the wheel worst %.2e <= 1e-12 (relative to 1 N + |Fx| + |Fy| + |Fz| + the tread springs' cx|xe| + cy|ye|), state rates worst %.2e <= 1e-9",
             tilted ? " with normal=profile (Fz along the profile segment's normal, the contact frame tilted with it)" : "",
             cb ? " with camber=on bore=on (camber spin and spin about n computed here from the quaternion)" : "", worst, worst_r);
    CHECK_NAMED(worst <= 1e-12 && worst_r <= 1e-9, what);
    printf("  %s\n", what);
    if (tilted || cb) return;
    snprintf(what, sizeof what, "tire element at steady tread deflection = hs_tire_steady at the same slips (%d states), worst %.2e <= 1e-12", n, worst_s);
    CHECK_NAMED(n > 200 && worst_s <= 1e-12, what);
    printf("  %s\n", what);
}

static void derivatives(void)
{
    if (!compiled) return;
    hs_model m, mp;
    hs_mb_model_init(&m, &mb);
    hs_mb_model_init(&mp, &mbp);
    static hs_real fq[NQ * NQ], fu[NQ * NQ], fqp[NQ * NQ], fup[NQ * NQ];
    int bad = 0, nb = 0, live = 0, kinks = 0, fjbad = 0;
    double worst = 0;
    for (int k = 0; k < 200; ++k) {
        hs_real q[NQ], u[NQ], z[4], in[4], fp[NQ], fm[NQ];
        state(q, u, z, in, k % 4 == 0);
        mb.type.force_jac(&m, 0, q, u, z, in, fq, fu);
        mbp.type.force_jac(&mp, 0, q, u, z, in, fqp, fup);
        { /* force_fj (the gradient path's values) = force() (the values-only path), bit for bit */
            static hs_real f1[NQ], f2[NQ], q2[NQ * NQ], u2[NQ * NQ];
            const int r1 = mb.type.force(&m, 0, q, u, z, in, f1);
            const int r2 = (mb.type.force_fj != NULL) ? mb.type.force_fj(&m, 0, q, u, z, in, f2, q2, u2) : -1;
            fjbad += (r1 != HS_OK) || (r2 != HS_OK);
            for (int i = 0; i < NQ && r1 == HS_OK && r2 == HS_OK; ++i) fjbad += memcmp(&f1[i], &f2[i], sizeof f1[i]) != 0;
            for (int i = 0; i < NQ * NQ && r2 == HS_OK; ++i) fjbad += (q2[i] != fq[i]) + (u2[i] != fu[i]);
        }
        /* two steps, the better difference counts: 1e-5 and 1e-6 relative rolling (the forces
         * sum terms up to 1e5 N, so smaller steps drown in rounding), 1e-6 and 1e-7 at creeping
         * speed (|v| ~ vN = 1e-2 m/s, where the slip's fictitious velocity and the tread's
         * fading act) */
        const double e1 = (k % 4 == 0) ? 1e-6 : 1e-5;
        for (int j = 0; j < NQ; ++j) {
            for (int w = 0; w < 2; ++w) {
                double fd[2][NQ];
                for (int h = 0; h < 2; ++h) {
                    hs_real qp[NQ], qm[NQ], up[NQ], um[NQ];
                    memcpy(qp, q, sizeof qp); memcpy(qm, q, sizeof qm); memcpy(up, u, sizeof up); memcpy(um, u, sizeof um);
                    const double s = (h == 0 ? e1 : e1 / 10) * (1.0 + fabs(w == 0 ? q[j] : u[j]));
                    if (w == 0) { qp[j] += (hs_real)s; qm[j] -= (hs_real)s; } else { up[j] += (hs_real)s; um[j] -= (hs_real)s; }
                    mb.type.force(&m, 0, qp, up, z, in, fp);
                    mb.type.force(&m, 0, qm, um, z, in, fm);
                    for (int i = 0; i < NQ; ++i) fd[h][i] = (fp[i] - fm[i]) / (2 * s);
                }
                for (int i = 0; i < NQ; ++i) {
                    const double an = (w == 0 ? fq : fu)[i * NQ + j];
                    const double d0 = fabs(an - fd[0][i]), d1 = fabs(an - fd[1][i]);
                    const double err = fmin(d0, d1) / (1.0 + fabs(fd[0][i]));
                    live += fabs(an) > 1e-3;
                    /* the two steps disagree: a kink of the piecewise characteristic (C1 at sM,
                     * sS, sy0, syE) lies inside the step; counted, not compared */
                    if (fabs(fd[0][i] - fd[1][i]) > 1e-4 * (1.0 + fabs(fd[1][i]))) { ++kinks; continue; }
                    if (err > worst) worst = err;
                    if (!(err <= 1e-6)) { if (nb < 5) printf("  k=%d %s(%d,%d) analytic %.10g fd %.10g %.10g\n", k, w ? "fu" : "fq", i, j, an, fd[0][i], fd[1][i]); ++nb; ++bad; }
                }
            }
        }
        /* packed: the (c, c), (c, w), (w, c), (w, w) blocks in list order */
        hs_blocks b;
        int buf[8];
        mbp.type.blocks(&mp, &b, buf, 8);
        int off = 0;
        for (int kk = 0; kk < b.nqq; ++kk) {
            const int bi = b.qq[2 * kk], bj = b.qq[2 * kk + 1];
            for (int i = b.qb[bi]; i < b.qb[bi + 1]; ++i)
                for (int j = b.qb[bj]; j < b.qb[bj + 1]; ++j, ++off)
                    if (fqp[off] != fq[i * NQ + j] || fup[off] != fu[i * NQ + j]) ++bad;
        }
    }
    char what[300];
    snprintf(what, sizeof what, "tire element%s%s: fq, fu = central differences at 200 states in contact (%d entries above 1e-3; the better of two steps; %d on a kink of the curves), worst %.2e <= 1e-6; packed = dense (%d bad)", tilted ? " with normal=profile" : "", cb ? " with camber=on bore=on" : "", live, kinks, worst, bad);
    CHECK_NAMED(bad == 0 && live > 10000 && kinks < live / 100, what);
    printf("  %s\n", what);
    snprintf(what, sizeof what, "tire element%s%s: force_fj's f (the evaluation with partials) = force()'s (the values-only one) bit for bit, its fq, fu = force_jac's, at the same 200 states (%d differ)", tilted ? " with normal=profile" : "", cb ? " with camber=on bore=on" : "", fjbad);
    CHECK_NAMED(fjbad == 0, what);
}

/* Bad tire lines are refused at their line and key; a negative brake refuses the step. */
static void refusals(void)
{
    if (!compiled) return;
    static const struct { const char *text; int line; const char *field; } C[] = {
        {"model x dim=2\ninput d\ninput b\nbody w planar mass=1 inertia=1\nforce t tire a=w axis=0,1 in=d\n", 5, "a"},
        {"model x dim=3\ninput d\ninput b\nbody w spatial mass=1 inertia=1,1,1\nforce t tire a=w axis=0,2,0 in=d\n", 5, "axis"},
        {"model x dim=3\ninput d\ninput b\nbody w spatial mass=1 inertia=1,1,1\nforce t tire a=w axis=0,1,0 in=d steer=s\n", 5, "steer"},
        {"model x dim=3\ninput d\nbody w spatial mass=1 inertia=1,1,1\nforce t tire a=w axis=0,1,0 in=d\n", 4, "in"},
        {"model x dim=3\ninput d\ninput b\nbody w spatial mass=1 inertia=1,1,1\nforce t tire a=w axis=0,1,0 in=d k=-1\n", 5, "k"},
        {"model x dim=3\ninput d\ninput b\nbody w spatial mass=1 inertia=1,1,1\nforce t tire a=w axis=0,1,0 in=d t=0,1,1 v=0,0,0\n", 5, "t"},
        {"model x dim=3\ninput d\ninput b\nbody w spatial mass=1 inertia=1,1,1\nforce t tire a=w axis=0,1,0 in=d scale=0\n", 5, "scale"},
        {"model x dim=3\ninput d\ninput b\nbody w spatial mass=1 inertia=1,1,1\nforce t tire a=w axis=0,1,0 in=d normal=sideways\n", 5, "normal"},
        {"model x dim=3\ninput d\ninput b\nbody w spatial mass=1 inertia=1,1,1\nforce t tire a=w axis=0,1,0 in=d data=lorry\n", 5, "data"},
        {"model x dim=3\ninput d\ninput b\ninput m\nbody w spatial mass=1 inertia=1,1,1\nforce t tire a=w axis=0,1,0 in=d mu=nosuch\n", 6, "mu"},
        {"model x dim=3\nbody w spatial mass=1 inertia=1,1,1\nforce s spring a=w b=ground k=1\noutput o tire s.Fx\n", 4, "s.Fx"},
        {"model x dim=3\ninput d\ninput b\nbody w spatial mass=1 inertia=1,1,1\nforce t tire a=w axis=0,1,0 in=d\noutput o tire t.Mx\n", 6, "t.Mx"}};
    static hs_mb_store s2;
    static hs_mb_model m2;
    int ok = 1;
    for (size_t i = 0; i < sizeof C / sizeof C[0]; ++i) {
        hs_mb_error err;
        const int rc = hs_mb_parse_compile(C[i].text, strlen(C[i].text), &s2, &m2, 0, &err);
        if (rc == 0 || err.line != C[i].line || strcmp(err.field, C[i].field) != 0) {
            printf("  case %d: rc %d line %d field '%s' (%s), expected line %d field '%s'\n", (int)i, rc, err.line,
                   err.field, err.msg ? err.msg : "", C[i].line, C[i].field);
            ok = 0;
        }
    }
    CHECK_NAMED(ok, "tire lines refused at their line and key: 2-D body, axis not unit, unknown steer input, brake input "
              "missing, negative stiffness, road profile x not increasing, road friction scale= 0, normal= neither vertical nor profile, data= neither car nor truck, mu= an unknown input, tire output of a spring, unknown tire quantity");
    hs_model m;
    hs_mb_model_init(&m, &mb);
    hs_real q[NQ], u[NQ], z[3], in[4], f[NQ];
    state(q, u, z, in, 0);
    in[1] = -1;
    CHECK_NAMED(mb.type.force(&m, 0, q, u, z, in, f) == HS_E_INPUT, "a negative brake torque input refuses the evaluation (HS_E_INPUT)");
}

/* Two tires: each reads its own slice of z in the forces and in the output probe. */
static void two_tires(void)
{
    if (!compiled) return;
    static const char t2[] =
        "model two dim=3\ngravity 0,0,-9.81\ninput d1\ninput b1\ninput d2\ninput b2\n"
        "body c spatial mass=300 inertia=50,80,100 pos=0,0,0.6\n"
        "body w1 spatial mass=20 inertia=0.6,1,0.6 pos=0,0,0.28 vel=10,0,0 omega=0,30,0\n"
        "body w2 spatial mass=20 inertia=0.6,1,0.6 pos=2,0,0.28 vel=10,0,0 omega=0,36,0\n"
        "force t1 tire a=w1 b=c axis=0,1,0 in=d1\nforce t2 tire a=w2 b=c axis=0,1,0 in=d2\n"
        "output tire t1\noutput tire t2\n";
    static hs_mb_store s2;
    static hs_mb_model m2;
    hs_mb_error err;
    if (hs_mb_parse_compile(t2, strlen(t2), &s2, &m2, 0, &err)) { CHECK_NAMED(0, "two-tire description compiles"); return; }
    hs_model m;
    hs_mb_model_init(&m, &m2);
    hs_real q[21], u[21], z[6] = {0.004, -0.001, 0.3, -0.006, 0.002, -0.2}, in[4] = {0, 100, 0, 200}, f[21], y[12];
    m2.type.initial(&m, 0, q, u, NULL);
    m2.type.force(&m, 0, q, u, z, in, f);
    m2.type.output(&m, 0, q, u, z, in, y);
    double worst = 0;
    for (int e = 0; e < 2; ++e) {
        hs_real val[HS_MB_TIRE_NVAL];
        hs_mb_tire_probe(&m2, e, 0, q, u, z, in, val);
        for (int i = 0; i < 3; ++i) {
            const double fi = f[7 * (e + 1) + i] - (i == 2 ? -20 * 9.81 : 0);
            worst = fmax(worst, fabs(val[HS_MB_TIRE_FG + i] - fi) / (1 + fabs(fi)));
        }
        worst = fmax(worst, fabs(y[6 * e + 1] - val[HS_MB_TIRE_FX]) / (1 + fabs(val[HS_MB_TIRE_FX])));
    }
    char what[200];
    snprintf(what, sizeof what, "two tires: each one's output and probe = its force on its wheel (its own states), worst %.1e <= 1e-14", worst);
    CHECK_NAMED(m2.nz == 6 && worst <= 1e-14, what);
}

/* car.hsm file-loaded and generated: the sparse backend (nq + nc = 56), the same bits. */
/* (sized for the car, nq + nc = 56, within the boards' capacities 96, 96, 48; the host's are larger) */
static hs_real car_R[2][HS_STEPPER_REALS(96, 96, 48)];
/* HS_STEPPER_INTS bounds the dense layouts; the sparse factor's analysis comes on top (42446 in all) */
static int car_I[2][HS_STEPPER_INTS(96, 96) + 32768];
static hs_stepper car_s[2];
static hs_mb_store car_st;
static hs_mb_model car_mb;
static void car_sparse(void)
{
    static const char path[] = "model/mech/vehicles/car.hsm";
    static hs_mb_overrides ovr;
    const char *why = "";
    hs_model m[2];
    char msg[600];
    if (hs_mb_override_add(&ovr, "v0", 20.0, &why) || hs_mb_load_file_ovr(path, &car_st, &ovr, &car_mb, HS_MB_PACK_AUTO, msg, sizeof msg)
        || hs_mb_model_init(&m[0], &car_mb) || hs_model_init(&m[1], &hs_mb_car_hsm_type, NULL)) {
        printf("  %s\n", msg);
        CHECK_NAMED(0, "car.hsm loads and its generated type initializes");
        return;
    }
    hs_stepper_def d = hs_stepper_default_def();
    d.h = HS_R(1e-3);
    int rc[2], kind[2];
    uint64_t hash[2];
    for (int k = 0; k < 2; ++k) {
        rc[k] = hs_stepper_init(&car_s[k], &d, &m[k], HS_R(0.0), car_R[k], sizeof car_R[k] / sizeof car_R[k][0], car_I[k],
                                sizeof car_I[k] / sizeof car_I[k][0]);
        kind[k] = (int)car_s[k].lsK.kind;
    }
    /* the generated tables carry v0 = 0: both start from the file-loaded model's state at 20 m/s */
    static hs_real q0[HS_MB_MAX_NQ], u0[HS_MB_MAX_NQ], z0[HS_MB_MAX_NZ];
    for (int k = 0; k < 2 && rc[0] == HS_OK && rc[1] == HS_OK; ++k) {
        rc[k] = m[0].type->initial(&m[0], HS_R(0.0), q0, u0, z0);
        if (rc[k] == HS_OK) { rc[k] = hs_stepper_set_state(&car_s[k], HS_R(0.0), q0, u0, z0); }
    }
    hs_real in[HS_MB_MAX_NIN] = {0};
    for (int w = 0; w < 4; ++w) { in[2 + 2 * w] = HS_R(800.0); } /* brake 800 N m per wheel */
    for (int k = 0; k < 2; ++k) {
        hash[k] = HS_HASH_INIT;
        for (int n = 0; n < 200 && rc[k] == HS_OK; ++n) {
            rc[k] = hs_stepper_step(&car_s[k], in);
            hash[k] = hs_stepper_hash(&car_s[k], hash[k]);
        }
    }
    char what[300];
    snprintf(what, sizeof what, "car.hsm (nq %d, nc %d, nz %d) file-loaded and generated: both on the sparse backend (%d, %d), "
             "200 steps braking from 20 m/s all committed, same bits (0x%016llx, 0x%016llx)",
             car_mb.nq, car_mb.nc, car_mb.nz, kind[0], kind[1], (unsigned long long)hash[0], (unsigned long long)hash[1]);
    CHECK_NAMED(rc[0] == HS_OK && rc[1] == HS_OK && kind[0] == (int)HS_LS_SPARSE && kind[1] == (int)HS_LS_SPARSE && hash[0] == hash[1], what);
}

static void description(void)
{
    hs_mb_error err;
    if (hs_mb_parse_compile(text, strlen(text), &st, &mb, 0, &err) || hs_mb_compile(&st.desc, &mbp, 1, NULL)) {
        printf("  description refused: line %d field '%s': %s %s\n", err.line, err.field, err.msg, err.detail);
        CHECK_NAMED(0, "tire description compiles");
    } else {
        compiled = 1;
        CHECK_NAMED(mb.nq == NQ && mb.nz == 3 && mb.type.nz == 3 && mb.type.zdot != NULL && mb.nin == 4,
                    "tire description: nq 14, 3 auxiliary states with zdot, 4 inputs");
    }
}

/* The same wheel with normal=profile; the force and derivative checks again on it. */
static void description_tilted(void)
{
    static char tt[sizeof text + 32];
    snprintf(tt, sizeof tt, "%.*s normal=profile\n", (int)(strlen(text) - 1), text);
    hs_mb_error err;
    compiled = 0;
    if (hs_mb_parse_compile(tt, strlen(tt), &st, &mb, 0, &err) || hs_mb_compile(&st.desc, &mbp, 1, NULL)) {
        printf("  refused: line %d field '%s': %s\n", err.line, err.field, err.msg);
        CHECK_NAMED(0, "tire description with normal=profile compiles");
        return;
    }
    compiled = 1;
    tilted = 1;
    CHECK_NAMED(st.desc.forces[0].tilt == 1, "normal=profile is read into the element (tilt 1)");
}
static void forces_tilted(void) { forces_vs_hs_tire(); }
static void derivatives_tilted(void) { derivatives(); }

/* camber=on bore=on, flat (tilt 0) and then with normal=profile: the force, rate and derivative
 * checks again, the camber spin and the spin about n computed in args_of from the quaternion */
static void cb_compile(int tilt)
{
    static char tt[sizeof text + 64];
    snprintf(tt, sizeof tt, "%.*s%s camber=on bore=on\n", (int)(strlen(text) - 1), text, tilt ? " normal=profile" : "");
    hs_mb_error err;
    compiled = 0;
    if (hs_mb_parse_compile(tt, strlen(tt), &st, &mb, 0, &err) || hs_mb_compile(&st.desc, &mbp, 1, NULL)) {
        printf("  refused: line %d field '%s': %s\n", err.line, err.field, err.msg);
        CHECK_NAMED(0, "tire description with camber=on bore=on compiles");
        return;
    }
    compiled = 1;
    tilted = tilt;
    cb = 1;
    CHECK_NAMED(st.desc.forces[0].camb == 1 && st.desc.forces[0].bore == 1 && mb.nz == 4 && mb.type.nz == 4,
                "camber=on bore=on read into the element (camb 1, bore 1), 4 auxiliary states (psi the 4th)");
}
static void description_cb(void) { cb_compile(0); }

/* A cambered wheel rolling freely (Omega = v/rd) at zero slip angle, camber=on: after its tread
 * settles, Fy = the generalized curve at Rill's camber slip's equivalent lateral slip,
 * F_G(sg / (3 hy)), sg = -(L/2) Omega e.n / (rd Omega + vN), at Fz = FzN (the table's values),
 * toward the side the wheel's top leans to; 0 upright. */
static double camber_fy(double gam, double *expect, double *lin)
{
    static const char tc[] =
        "model cam dim=3\ninput drive\ninput brake\n"
        "body c spatial mass=300 inertia=50,80,100 pos=0,0,0.6\n"
        "body w spatial mass=20 inertia=0.6,1,0.6 pos=0,0,0.29\n"
        "force t tire a=w b=c axis=0,1,0 in=drive camber=on\n";
    static hs_mb_store cs;
    static hs_mb_model cm;
    hs_mb_error err;
    if (hs_mb_parse_compile(tc, strlen(tc), &cs, &cm, 0, &err)) return NAN;
    hs_tire_par tp;
    hs_tire_par_car(&tp);
    const double pen = 3500.0 / tp.cz, rd = tp.r0 - pen / 3.0, v = 20.0, Om = v / rd;
    hs_real q[NQ] = {0}, u[NQ] = {0}, z[3] = {0}, in[2] = {0}, zd[3], val[HS_MB_TIRE_NVAL];
    q[2] = 0.6; q[3] = 1;
    q[9] = (hs_real)(tp.r0 - pen);
    /* lean the top toward +y: a turn of -gam about x; spin Omega about the body y */
    const double p[4] = {cos(-gam / 2), sin(-gam / 2), 0, 0}, W[4] = {0, 0, Om, 0};
    for (int i = 0; i < 4; ++i) q[10 + i] = (hs_real)p[i];
    u[7] = (hs_real)v;
    u[10] = (hs_real)(0.5 * (p[0] * W[0] - p[1] * W[1] - p[2] * W[2] - p[3] * W[3]));
    u[11] = (hs_real)(0.5 * (p[0] * W[1] + p[1] * W[0] + p[2] * W[3] - p[3] * W[2]));
    u[12] = (hs_real)(0.5 * (p[0] * W[2] - p[1] * W[3] + p[2] * W[0] + p[3] * W[1]));
    u[13] = (hs_real)(0.5 * (p[0] * W[3] + p[1] * W[2] - p[2] * W[1] + p[3] * W[0]));
    hs_model m;
    hs_mb_model_init(&m, &cm);
    for (int k = 0; k < 20000; ++k) {
        if (cm.type.zdot(&m, 0, q, u, z, in, zd) != HS_OK) return NAN;
        for (int i = 0; i < 3; ++i) z[i] += (hs_real)(5e-5 * zd[i]);
    }
    if (hs_mb_tire_probe(&cm, 0, 0, q, u, z, in, val) != HS_OK) return NAN;
    /* the closed form at FzN */
    const hs_tire_curve *X = &tp.x[0], *Y = &tp.y[0];
    const double qx = X->FM / X->dF0, qy = Y->FM / Y->dF0;
    const double hy = Y->sM / (X->sM + Y->sM) + qy / (qx + qy);
    const double L = 2.0 * sqrt(tp.r0 * 3500.0 / tp.cz);
    const double sg = (L / 2.0) * Om * sin(gam) / (rd * Om + tp.vN); /* e.n = -sin(gam) */
    const double s = fabs(sg) / (3.0 * hy), dF0 = Y->dF0 * hy, sM = Y->sM / hy, sig = s / sM;
    *expect = (sg >= 0 ? 1.0 : -1.0) * dF0 * s / (1.0 + sig * (sig + dF0 * sM / Y->FM - 2.0));
    *lin = Y->dF0 * sg / 3.0;
    return val[HS_MB_TIRE_FY];
}

static void camber_closed_form(void)
{
    char what[400];
    double ex, lin;
    const double gams[3] = {0.02, -0.05, 0.1};
    for (int k = 0; k < 3; ++k) {
        const double fy = camber_fy(gams[k], &ex, &lin);
        snprintf(what, sizeof what, "camber %.2f rad, free rolling at 20 m/s, zero slip angle, Fz = FzN: Fy %.6f N = F_G(sg/(3 hy)) %.6f N "
                 "(1e-7; small-slip form dFy0 sg/3 = %.3f N), toward the leaning top", gams[k], fy, ex, lin);
        CHECK_NAMED(fabs(fy - ex) <= 1e-7 * fabs(ex) && fy * gams[k] > 0, what);
        printf("  %s\n", what);
    }
    const double f0 = camber_fy(0.0, &ex, &lin);
    snprintf(what, sizeof what, "camber 0, free rolling, camber=on: Fy = %.3e N (|Fy| < 1e-9 N)", f0);
    CHECK_NAMED(fabs(f0) < 1e-9, what);
}
static void description_cb_tilted(void) { cb_compile(1); }

static const hs_test_case tests[] = {
    HS_TEST_ROW(description),
    HS_TEST_ROW(forces_vs_hs_tire),
    HS_TEST_ROW(derivatives),
    HS_TEST_ROW(refusals),
    HS_TEST_ROW(two_tires),
    HS_TEST_ROW(car_sparse),
    HS_TEST_ROW(description_tilted),
    HS_TEST_ROW(forces_tilted),
    HS_TEST_ROW(derivatives_tilted),
    HS_TEST_ROW(description_cb),
    HS_TEST_ROW(forces_tilted),
    HS_TEST_ROW(derivatives_tilted),
    HS_TEST_ROW(camber_closed_form),
    HS_TEST_ROW(description_cb_tilted),
    HS_TEST_ROW(forces_tilted),
    HS_TEST_ROW(derivatives_tilted),
};

int main(void)
{
    return hs_test_run("tire-mb", tests, HS_TEST_COUNT(tests), 0) ? 1 : 0;
}
