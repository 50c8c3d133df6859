/* test/iftomm/a05_ref.c - reference solution of IFToMM benchmark A05, the stiff flyball
 * governor (model/mech/iftomm/a05_flyball.hsm has the data and where they come from), in its
 * four generalized coordinates, independent of hilstep: the shaft's angle phi, the slider's
 * height s, and each rod's angle th_i below the horizontal, in the shaft's turning plane.
 *
 * In the frame turning with the shaft, rod i's hinge is at (sg 0.05, 0, 1), sg = +1, -1; a point
 * at distance r along the rod is at (sg (0.05 + r cos th), 0, 1 - r sin th). The kinetic energy
 * T = 1/2 (M_pp phi'^2 + m_sl s'^2 + J (th_1'^2 + th_2'^2)) has a diagonal mass matrix:
 *   M_pp = Jz_shaft + J_sl + sum_i [I_perp cos^2 th_i + I_long sin^2 th_i + m_r X_r^2 + m_p X_p^2]
 *   X_r = 0.05 + 0.5 cos th, X_p = 0.05 + cos th,  J = I_perp + m_r / 4 + m_p
 * (the rod's angular velocity is phi' e_z + th' e_y; its CM moves with 0.5 th' in the plane and
 * phi' X_r across it). V = g (m_sl s + sum_i [m_r (1 - 0.5 sin th_i) + m_p (1 - sin th_i)]).
 * Spring i joins the slider's anchor (sg 0.05, 0, s) to the rod's midpoint:
 *   d_i = sqrt((0.5 cos th_i)^2 + (1 - 0.5 sin th_i - s)^2),  F_i = K (d_i - l0) + C d_i'
 * acting through the generalized forces -F_i dd_i/dq. Lagrange's equations:
 *   (M_pp phi')' = 0
 *   m_sl s''   = -m_sl g - sum_i F_i dd_i/ds
 *   J th_i''   = 1/2 dM_pp/dth_i phi'^2 + g cos th_i (m_r / 2 + m_p) - F_i dd_i/dth_i
 * integrated by the classical Runge-Kutta method at a fixed step (default 1e-5 s; the dampers'
 * rate on the slider, 2 C (dd/ds)^2 / m_sl = 6.7e3 1/s with dd/ds = -0.5 at the start, needs h
 * below 2.8 / 6.7e3 = 4e-4 s for RK4's stability).
 *
 * usage: a05_ref T NOUT [H]   prints NOUT + 1 rows "t s phi th1 th2 Lz" at t = k T / NOUT
 *        (Lz = M_pp phi', the angular momentum about the shaft, which the equations conserve)
 *        a05_ref --check T NOUT  the same rows (at 1e-5 s), then one line: their distance from the
 *        solution at 2e-5 s (s, phi) and how well Lz is kept; exit 1 if above 1e-9 m, rad, 1e-12 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double G = 9.81, RHO = 3000.0, MP = 5.0, K = 8e5, CD = 4e4, L0 = 0.5;
#define MBAR (RHO * 1.0 * 0.01 * 0.01)
#define MSL (RHO * 0.1 * 0.1 * 0.1)
#define ILONG (MBAR / 12.0 * (0.01 * 0.01 + 0.01 * 0.01))
#define IPERP (MBAR / 12.0 * (1.0 + 0.01 * 0.01))
#define ISL (MSL / 12.0 * (0.1 * 0.1 + 0.1 * 0.1))
#define JROD (IPERP + MBAR / 4.0 + MP)

/* y = phi, s, th1, th2, phi', s', th1', th2' */
static double mpp(const double *y, double *dm)
{
    double m = ILONG + ISL; /* the shaft about its axis, the slider about it */
    for (int i = 0; i < 2; i++) {
        double th = y[2 + i], c = cos(th), sn = sin(th), xr = 0.05 + 0.5 * c, xp = 0.05 + c;
        m += IPERP * c * c + ILONG * sn * sn + MBAR * xr * xr + MP * xp * xp;
        dm[i] = 2.0 * (ILONG - IPERP) * sn * c - MBAR * xr * sn - 2.0 * MP * xp * sn;
    }
    return m;
}

static void rhs(const double *y, double *f)
{
    double dm[2], m = mpp(y, dm), fs = -MSL * G;
    for (int i = 0; i < 4; i++) f[i] = y[4 + i];
    f[6] = f[7] = 0.0;
    for (int i = 0; i < 2; i++) {
        double th = y[2 + i], c = cos(th), sn = sin(th), a = 0.5 * c, b = 1.0 - 0.5 * sn - y[1];
        double d = sqrt(a * a + b * b), dd_th = (-0.5 * sn * a - 0.5 * c * b) / d, dd_s = -b / d;
        double F = K * (d - L0) + CD * (dd_th * y[6 + i] + dd_s * y[5]);
        fs -= F * dd_s;
        f[6 + i] = (0.5 * dm[i] * y[4] * y[4] + G * c * (0.5 * MBAR + MP) - F * dd_th) / JROD;
    }
    f[5] = fs / MSL;
    /* (M_pp phi')' = 0: M_pp phi'' = -dM_pp/dt phi' */
    f[4] = -(dm[0] * y[6] + dm[1] * y[7]) * y[4] / m;
}

static void rk4(double *y, double h)
{
    double k1[8], k2[8], k3[8], k4[8], t[8];
    rhs(y, k1);
    for (int i = 0; i < 8; i++) t[i] = y[i] + 0.5 * h * k1[i];
    rhs(t, k2);
    for (int i = 0; i < 8; i++) t[i] = y[i] + 0.5 * h * k2[i];
    rhs(t, k3);
    for (int i = 0; i < 8; i++) t[i] = y[i] + h * k3[i];
    rhs(t, k4);
    for (int i = 0; i < 8; i++) y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
}

static void init(double *y)
{
    const double a = 30.0 * 3.14159265358979323846 / 180.0;
    double v[8] = {0.0, 0.5, a, a, 2.0 * 3.14159265358979323846, 0.0, 0.0, 0.0};
    memcpy(y, v, sizeof v);
}

static double lz(const double *y)
{
    double dm[2];
    return mpp(y, dm) * y[4];
}

/* the solution at t = k T / nout, k = 0..nout, into out[k][0..7] (out may be NULL: print) */
static void solve(double T, int nout, double h, double (*out)[8])
{
    double y[8];
    long n = lround(T / nout / h);
    init(y);
    for (int k = 0; k <= nout; k++) {
        if (k > 0)
            for (long j = 0; j < n; j++) rk4(y, T / nout / (double)n);
        if (out) memcpy(out[k], y, sizeof y);
        else printf("%.9g %.17g %.17g %.17g %.17g %.17g\n", k * T / nout, y[1], y[0], y[2], y[3], lz(y));
    }
}

int main(int argc, char **argv)
{
    static double a[100001][8], b[100001][8];
    if (argc == 4 && strcmp(argv[1], "--check") == 0) {
        double T = atof(argv[2]), es = 0.0, ep = 0.0, el = 0.0, l0, y[8];
        int nout = atoi(argv[3]);
        if (nout < 1 || nout > 100000) return 2;
        solve(T, nout, 1e-5, a);
        solve(T, nout, 2e-5, b);
        init(y);
        l0 = lz(y);
        for (int k = 0; k <= nout; k++) {
            printf("%.9g %.17g %.17g %.17g %.17g %.17g\n", k * T / nout, a[k][1], a[k][0], a[k][2], a[k][3], lz(a[k]));
            es = fmax(es, fabs(a[k][1] - b[k][1]));
            ep = fmax(ep, fabs(a[k][0] - b[k][0]));
            el = fmax(el, fabs(lz(a[k]) - l0) / l0);
        }
        printf("a05_ref: RK4 at 1e-5 s against 2e-5 s over %g s at %d outputs: s %.2e m, phi %.2e rad apart; "
               "Lz kept to %.1e relative\n", T, nout, es, ep, el);
        return (es < 1e-9 && ep < 1e-9 && el < 1e-12) ? 0 : 1;
    }
    if (argc < 3) {
        fprintf(stderr, "usage: a05_ref T NOUT [H] | --check T NOUT\n");
        return 2;
    }
    solve(atof(argv[1]), atoi(argv[2]), argc > 3 ? atof(argv[3]) : 1e-5, NULL);
    return 0;
}
