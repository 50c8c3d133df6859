/* test_mb_acc.c - accelerometer outputs (`acc`, model/mb/hs_mb_acc.c) against closed forms, at
 * states where the answer is known without the code under test:
 * - a point pendulum (2-D, distance joint) released from rest at the horizontal: at release
 *   a = g = (0, -9.81) (the rod carries nothing yet); below the horizontal by alpha (the states
 *   it passes: omega^2 = 2 g sin(alpha) / L from energy) a = g_t - omega^2 L r_hat, i.e. the
 *   tangential g cos(alpha) and the centripetal 2 g sin(alpha) towards the pivot;
 * - a spatial rigid pendulum (revolute joint about y, pivot d behind the centre of mass) at a
 *   point s ahead of it, in body axes: alpha = m g d cos(theta) / (Iyy + m d^2),
 *   omega^2 = 2 m g d sin(theta) / (Iyy + m d^2), a_b = (-omega^2 (s + d), 0, -alpha (s + d));
 *   in ground axes R a_b;
 * - a free spatial body tumbling (no torque, gravity) at a point s, body axes:
 *   Euler's I w' = -w x I w, a_b = R^T g + w' x s + w x (w x s);
 * - a free point body: a = g (the old path, bit for bit as before: M^-1 f).
 * Tolerance 1e-12 relative to g: the solve is direct (LU of the index-1 system). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "mb_test.h"
#include "hs_mb_file.h"

static hs_mb_store st;
static hs_mb_model mb;

static int compile(const char *text, hs_model *m)
{
    hs_mb_error err;
    memset(&err, 0, sizeof err);
    if (hs_mb_parse_compile(text, strlen(text), &st, &mb, 0, &err)) {
        printf("  refused: line %d field '%s': %s %s\n", err.line, err.field, err.msg, err.detail);
        return 1;
    }
    hs_mb_model_init(m, &mb);
    return 0;
}

static int point_pendulum(void)
{
    static const char text[] =
        "model pend dim=2\ngravity 0,-9.81\n"
        "body bob point2 mass=2 pos=1.3,0\n"
        "joint rod distance a=bob b=ground length=1.3\n"
        "output ax acc bob.x\noutput ay acc bob.y\n";
    hs_model m;
    if (compile(text, &m)) return mb_check(0, "point pendulum compiles");
    const double g = 9.81, L = 1.3;
    static const double alphas[5] = {0.0, 0.2, 0.6, 1.1, 1.5707963267948966};
    double worst = 0.0;
    for (int i = 0; i < 5; ++i) {
        const double al = alphas[i], w = sqrt(2.0 * g * sin(al) / L);
        /* phi = -alpha, phi' = -w */
        const double c = cos(-al), s = sin(-al);
        const hs_real q[2] = {L * c, L * s}, u[2] = {-w * L * -s, -w * L * c};
        hs_real y[2];
        if (mb.type.output(&m, 0.0, q, u, NULL, NULL, y) != HS_OK) return mb_check(0, "point pendulum output");
        /* g_t = g - (g.r)r, centripetal -w^2 L r */
        const double gr = -g * s;
        const double ax = 0.0 - gr * c - w * w * L * c, ay = -g - gr * s - w * w * L * s;
        const double e = fmax(fabs(y[0] - ax), fabs(y[1] - ay));
        worst = fmax(worst, e);
        const double at = -y[0] * s + y[1] * c, ac = -(y[0] * c + y[1] * s);
        printf("  point pendulum, %.4f rad below the horizontal: a = (%.12f, %.12f) m/s^2, tangential %.9f (g cos = %.9f), centripetal %.9f (2 g sin = %.9f)\n",
               al, y[0], y[1], -at, g * cos(al), ac, 2.0 * g * sin(al));
        if (i == 0 && !(y[0] == 0.0 && fabs(y[1] + g) <= 1e-14)) worst = 1.0;
    }
    char what[200];
    snprintf(what, sizeof what, "acc of a jointed point pendulum = -g at release, g_t - w^2 L r_hat at 4 later states: worst %.2e m/s^2 <= 1e-12 g", worst);
    return mb_check(worst <= 1e-12 * g, what);
}

static int rigid_pendulum(void)
{
    static const char text[] =
        "model rp dim=3\ngravity 0,0,-9.81\n"
        "body rod spatial mass=3 inertia=0.05,0.4,0.42 pos=0.5,0,0\n"
        "joint hinge revolute a=rod@-0.5,0,0 b=ground axis=0,1,0\n"
        "output bx acc rod.x at=0.3,0,0 axes=body\n"
        "output by acc rod.y at=0.3,0,0 axes=body\n"
        "output bz acc rod.z at=0.3,0,0 axes=body\n"
        "output gx acc rod.x at=0.3,0,0\n"
        "output gz acc rod.z at=0.3,0,0 axes=ground\n";
    hs_model m;
    if (compile(text, &m)) return mb_check(0, "rigid pendulum compiles");
    const double g = 9.81, M = 3.0, d = 0.5, sp = 0.3, IO = 0.4 + M * d * d;
    static const double ths[5] = {0.0, 0.3, 0.8, 1.3, 1.5707963267948966};
    double worst = 0.0;
    for (int i = 0; i < 5; ++i) {
        const double th = ths[i], c = cos(th), s = sin(th);
        const double w = sqrt(2.0 * M * g * d * s / IO), al = M * g * d * c / IO;
        const hs_real q[7] = {d * c, 0.0, -d * s, cos(th / 2), 0.0, sin(th / 2), 0.0};
        const hs_real u[7] = {-w * d * s, 0.0, -w * d * c, -0.5 * w * sin(th / 2), 0.0, 0.5 * w * cos(th / 2), 0.0};
        hs_real y[5];
        if (mb.type.output(&m, 0.0, q, u, NULL, NULL, y) != HS_OK) return mb_check(0, "rigid pendulum output");
        const double bx = -w * w * (sp + d), bz = -al * (sp + d);
        /* ground: R_y(theta) a_b */
        const double gx = c * bx + s * bz, gz = -s * bx + c * bz;
        const double e = fmax(fmax(fabs(y[0] - bx), fabs(y[1])), fmax(fabs(y[2] - bz), fmax(fabs(y[3] - gx), fabs(y[4] - gz))));
        worst = fmax(worst, e);
        printf("  rigid pendulum at theta %.4f: body axes (%.12f, %.3g, %.12f) m/s^2 against (%.12f, 0, %.12f)\n", th, y[0], y[1], y[2], bx, bz);
    }
    char what[200];
    snprintf(what, sizeof what, "acc of a hinged spatial body at a point, body and ground axes = alpha x r + w x (w x r) at 5 states: worst %.2e m/s^2 <= 1e-12 g", worst);
    return mb_check(worst <= 1e-12 * g, what);
}

/* quaternion product r = a b (w, x, y, z) */
static void qmul(const double *a, const double *b, double *r)
{
    r[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
    r[1] = a[0] * b[1] + b[0] * a[1] + a[2] * b[3] - a[3] * b[2];
    r[2] = a[0] * b[2] + b[0] * a[2] + a[3] * b[1] - a[1] * b[3];
    r[3] = a[0] * b[3] + b[0] * a[3] + a[1] * b[2] - a[2] * b[1];
}

static void cross(const double *a, const double *b, double *r)
{
    r[0] = a[1] * b[2] - a[2] * b[1];
    r[1] = a[2] * b[0] - a[0] * b[2];
    r[2] = a[0] * b[1] - a[1] * b[0];
}

static int free_body(void)
{
    static const char text[] =
        "model fb dim=3\ngravity 0,0,-9.81\n"
        "body b spatial mass=2 inertia=0.1,0.2,0.25 pos=0,0,1\n"
        "body p point3 mass=1 pos=0,0,0\n"
        "output bx acc b.x at=0.2,-0.1,0.05 axes=body\n"
        "output by acc b.y at=0.2,-0.1,0.05 axes=body\n"
        "output bz acc b.z at=0.2,-0.1,0.05 axes=body\n"
        "output acc p\n";
    hs_model m;
    if (compile(text, &m)) return mb_check(0, "free body compiles");
    const double I[3] = {0.1, 0.2, 0.25}, sv[3] = {0.2, -0.1, 0.05}, gv[3] = {0.0, 0.0, -9.81};
    double p[4] = {0.8, 0.2, -0.4, 0.4}, n = 0.0;
    for (int i = 0; i < 4; ++i) n += p[i] * p[i];
    for (int i = 0; i < 4; ++i) p[i] /= sqrt(n);
    const double w[3] = {1.5, -2.0, 3.0};
    const double w4[4] = {0.0, w[0], w[1], w[2]};
    double pd[4];
    qmul(p, w4, pd);
    for (int i = 0; i < 4; ++i) pd[i] *= 0.5;
    const hs_real q[10] = {0.1, 0.2, 1.0, p[0], p[1], p[2], p[3], 0, 0, 0};
    const hs_real u[10] = {0.3, -0.2, 0.1, pd[0], pd[1], pd[2], pd[3], 1, 2, 3};
    hs_real y[6];
    if (mb.type.output(&m, 0.0, q, u, NULL, NULL, y) != HS_OK) return mb_check(0, "free body output");
    /* Euler: I w' = -w x I w; R^T g by the conjugate rotation */
    double Iw[3] = {I[0] * w[0], I[1] * w[1], I[2] * w[2]}, wIw[3], wd[3];
    cross(w, Iw, wIw);
    for (int i = 0; i < 3; ++i) wd[i] = -wIw[i] / I[i];
    const double pc[4] = {p[0], -p[1], -p[2], -p[3]}, g4[4] = {0.0, gv[0], gv[1], gv[2]};
    double t1[4], gb[4];
    qmul(pc, g4, t1);
    qmul(t1, p, gb);
    double a1[3], ws[3], a2[3], want[3];
    cross(wd, sv, a1);
    cross(w, sv, ws);
    cross(w, ws, a2);
    double worst = 0.0;
    for (int i = 0; i < 3; ++i) {
        want[i] = gb[1 + i] + a1[i] + a2[i];
        worst = fmax(worst, fabs(y[i] - want[i]));
    }
    printf("  tumbling free body at (0.2, -0.1, 0.05), body axes: (%.12f, %.12f, %.12f) against (%.12f, %.12f, %.12f) m/s^2\n",
           y[0], y[1], y[2], want[0], want[1], want[2]);
    const int pt_ok = y[3] == 0.0 && y[4] == 0.0 && y[5] == -9.81;
    char what[220];
    snprintf(what, sizeof what, "acc of a free tumbling spatial body at a point in body axes = R^T g + w' x s + w x (w x s) (Euler's w'): worst %.2e m/s^2; a free point body reads g exactly (%s)",
             worst, pt_ok ? "yes" : "no");
    return mb_check(worst <= 1e-12 * 9.81 && pt_ok, what);
}

static int refusals(void)
{
    static const struct { const char *text; int line; const char *field; } cases[] = {
        {"model x dim=2\nbody b point2 mass=1\noutput y acc b.y at=0.1,0\n", 3, "at"},
        {"model x dim=2\nbody b planar mass=1 inertia=1\noutput y acc b.y axes=sideways\n", 3, "axes"},
        {"model x dim=2\nbody b planar mass=1 inertia=1\noutput y pos b.y at=0.1,0\n", 3, "at"},
        {"model x dim=2\nbody b planar mass=1 inertia=1\nbody c planar mass=1 inertia=1\noutput y acc b.y c.y axes=body\n", 4, "axes"},
    };
    int bad = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        hs_mb_error err;
        memset(&err, 0, sizeof err);
        const int rc = hs_mb_parse_compile(cases[i].text, strlen(cases[i].text), &st, &mb, 0, &err);
        if (rc == 0 || err.line != cases[i].line || strcmp(err.field, cases[i].field)) {
            printf("  case %zu: rc %d line %d field '%s' (%s)\n", i, rc, err.line, err.field, err.msg);
            ++bad;
        }
    }
    return mb_check(bad == 0, "acc at=/axes= refused at line and key: on a point body, a bad axes value, on a pos output, with BODY2");
}

int mb_test_acc(void)
{
    int bad = 0;
    bad += point_pendulum();
    bad += rigid_pendulum();
    bad += free_body();
    bad += refusals();
    return bad;
}
