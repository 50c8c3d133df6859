/* test/iftomm/a03_ref.c - reference solution of IFToMM benchmark A03, Andrews' squeezing
 * mechanism, by an independent method: the Test Set for IVP Solvers' formulation in the seven
 * relative angles q = (beta, theta, gamma, phi, delta, omega, epsilon) (E. Hairer, G. Wanner:
 * Solving ODE II, sec. VII.7), M(q) q'' = f(q, q') - G^T lambda with the six loop-closure rows
 * g(q) = 0 held at the acceleration level (G q'' = -(G q')' q'), integrated by the classical
 * Runge-Kutta method at 1e-6 s. Prints "t beta theta gamma phi delta omega epsilon" at NOUT + 1
 * equally spaced times over [0, T]; with --check, the largest difference at t = 0.03 s from
 * the test set's published solution (PSIDE at tolerance 1e-14) and exit 1 above 1e-8 rad (its 16 digits: 1.4e-9).
 * Usage: a03_ref T NOUT [SUBSTEPS_PER_OUTPUT] | a03_ref --check */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double m1 = .04325, m2 = .00365, m3 = .02373, m4 = .00706, m5 = .07050,
                    m6 = .00706, m7 = .05498, xa = -.06934, ya = -.00227, xb = -0.03635,
                    yb = .03273, xc = .014, yc = .072, c0 = 4530, i1 = 2.194e-6, i2 = 4.410e-7,
                    i3 = 5.255e-6, i4 = 5.667e-7, i5 = 1.169e-5, i6 = 5.667e-7, i7 = 1.912e-5,
                    d = 28e-3, da = 115e-4, e = 2e-2, ea = 1421e-5, rr = 7e-3, ra = 92e-5,
                    l0 = 7785e-5, ss = 35e-3, sa = 1874e-5, sb = 1043e-5, sc = 18e-3,
                    sd = 2e-2, ta = 2308e-5, tb = 916e-5, u = 4e-2, ua = 1228e-5,
                    ub = 449e-5, zf = 2e-2, zt = 4e-2, fa = 1421e-5, mom = 33e-3;

/* a constraint row is a sum of terms c trig(a . q): trig cos (s = 0) or sin (s = 1) */
typedef struct { double c; int s; double a[7]; } term;
typedef struct { int n; term t[5]; } row;
#define T_(c, s, a0, a1, a2, a3, a4, a5, a6) {c, s, {a0, a1, a2, a3, a4, a5, a6}}
/* the test set's g1..g6 (the point E reached through K3, K4 and K6) without their constants */
static const row G_ROWS[6] = {
    {3, {T_(rr, 0, 1, 0, 0, 0, 0, 0, 0), T_(-d, 0, 1, 1, 0, 0, 0, 0, 0), T_(-ss, 1, 0, 0, 1, 0, 0, 0, 0)}},
    {3, {T_(rr, 1, 1, 0, 0, 0, 0, 0, 0), T_(-d, 1, 1, 1, 0, 0, 0, 0, 0), T_(ss, 0, 0, 0, 1, 0, 0, 0, 0)}},
    {4, {T_(rr, 0, 1, 0, 0, 0, 0, 0, 0), T_(-d, 0, 1, 1, 0, 0, 0, 0, 0), T_(-e, 1, 0, 0, 0, 1, 1, 0, 0),
         T_(-zt, 0, 0, 0, 0, 0, 1, 0, 0)}},
    {4, {T_(rr, 1, 1, 0, 0, 0, 0, 0, 0), T_(-d, 1, 1, 1, 0, 0, 0, 0, 0), T_(e, 0, 0, 0, 0, 1, 1, 0, 0),
         T_(-zt, 1, 0, 0, 0, 0, 1, 0, 0)}},
    {4, {T_(rr, 0, 1, 0, 0, 0, 0, 0, 0), T_(-d, 0, 1, 1, 0, 0, 0, 0, 0), T_(-zf, 0, 0, 0, 0, 0, 0, 1, 1),
         T_(-u, 1, 0, 0, 0, 0, 0, 0, 1)}},
    {4, {T_(rr, 1, 1, 0, 0, 0, 0, 0, 0), T_(-d, 1, 1, 1, 0, 0, 0, 0, 0), T_(-zf, 1, 0, 0, 0, 0, 0, 1, 1),
         T_(u, 0, 0, 0, 0, 0, 0, 0, 1)}},
};

/* G = dg/dq and gam = (d/dt G) q' of the rows at (q, v) */
static void rows(const double q[7], const double v[7], double G[6][7], double gam[6])
{
    for (int i = 0; i < 6; ++i) {
        gam[i] = 0.0;
        for (int j = 0; j < 7; ++j) G[i][j] = 0.0;
        for (int k = 0; k < G_ROWS[i].n; ++k) {
            const term *t = &G_ROWS[i].t[k];
            double ph = 0.0, w = 0.0;
            for (int j = 0; j < 7; ++j) { ph += t->a[j] * q[j]; w += t->a[j] * v[j]; }
            const double dg = t->s ? t->c * cos(ph) : -t->c * sin(ph);    /* d/dph */
            const double d2 = t->s ? -t->c * sin(ph) : -t->c * cos(ph);   /* d2/dph2 */
            for (int j = 0; j < 7; ++j) G[i][j] += dg * t->a[j];
            gam[i] += d2 * w * w;
        }
    }
}

/* the largest loop-closure residual |g_i(q)| (m): the drift of the acceleration-level rows */
static double drift(const double q[7])
{
    static const double off[6] = {xb, yb, xa, ya, xa, ya};
    double worst = 0.0;
    for (int i = 0; i < 6; ++i) {
        double g = -off[i];
        for (int k = 0; k < G_ROWS[i].n; ++k) {
            const term *t = &G_ROWS[i].t[k];
            double ph = 0.0;
            for (int j = 0; j < 7; ++j) ph += t->a[j] * q[j];
            g += t->c * (t->s ? sin(ph) : cos(ph));
        }
        worst = fmax(worst, fabs(g));
    }
    return worst;
}

/* the test set's mass matrix and forces */
static void mass_force(const double q[7], const double v[7], double M[7][7], double f[7])
{
    memset(M, 0, sizeof(double) * 49);
    const double sith = sin(q[1]), coth = cos(q[1]), siph = sin(q[3]), coph = cos(q[3]);
    const double siom = sin(q[5]), coom = cos(q[5]), siga = sin(q[2]), coga = cos(q[2]);
    M[0][0] = m1 * ra * ra + m2 * (rr * rr - 2 * da * rr * coth + da * da) + i1 + i2;
    M[1][0] = M[0][1] = m2 * (da * da - da * rr * coth) + i2;
    M[1][1] = m2 * da * da + i2;
    M[2][2] = m3 * (sa * sa + sb * sb) + i3;
    M[3][3] = m4 * (e - ea) * (e - ea) + i4;
    M[4][3] = M[3][4] = m4 * ((e - ea) * (e - ea) + zt * (e - ea) * siph) + i4;
    M[4][4] = m4 * (zt * zt + 2 * zt * (e - ea) * siph + (e - ea) * (e - ea)) + m5 * (ta * ta + tb * tb) + i4 + i5;
    M[5][5] = m6 * (zf - fa) * (zf - fa) + i6;
    M[6][5] = M[5][6] = m6 * ((zf - fa) * (zf - fa) - u * (zf - fa) * siom) + i6;
    M[6][6] = m6 * ((zf - fa) * (zf - fa) - 2 * u * (zf - fa) * siom + u * u) + m7 * (ua * ua + ub * ub) + i6 + i7;
    const double xd = sd * coga + sc * siga + xb, yd = sd * siga - sc * coga + yb;
    const double lang = sqrt((xd - xc) * (xd - xc) + (yd - yc) * (yd - yc));
    const double force = -c0 * (lang - l0) / lang, fx = force * (xd - xc), fy = force * (yd - yc);
    f[0] = mom - m2 * da * rr * v[1] * (v[1] + 2 * v[0]) * sith;
    f[1] = m2 * da * rr * v[0] * v[0] * sith;
    f[2] = fx * (sc * coga - sd * siga) + fy * (sd * coga + sc * siga);
    f[3] = m4 * zt * (e - ea) * v[4] * v[4] * coph;
    f[4] = -m4 * zt * (e - ea) * v[3] * (v[3] + 2 * v[4]) * coph;
    f[5] = -m6 * u * (zf - fa) * v[6] * v[6] * coom;
    f[6] = m6 * u * (zf - fa) * v[5] * (v[5] + 2 * v[6]) * coom;
}

/* y = (q, v): y' = (v, q'') from [M G^T; G 0] [q''; lambda] = [f; -gam] */
static void rhs(const double y[14], double dy[14])
{
    double M[7][7], f[7], G[6][7], gam[6], A[13][14];
    mass_force(y, y + 7, M, f);
    rows(y, y + 7, G, gam);
    memset(A, 0, sizeof A);
    for (int i = 0; i < 7; ++i) {
        for (int j = 0; j < 7; ++j) A[i][j] = M[i][j];
        for (int k = 0; k < 6; ++k) { A[i][7 + k] = G[k][i]; A[7 + k][i] = G[k][i]; }
        A[i][13] = f[i];
    }
    for (int k = 0; k < 6; ++k) A[7 + k][13] = -gam[k];
    for (int c = 0; c < 13; ++c) {                      /* Gaussian elimination, partial pivoting */
        int p = c;
        for (int r = c + 1; r < 13; ++r) if (fabs(A[r][c]) > fabs(A[p][c])) p = r;
        for (int j = 0; j < 14; ++j) { double t = A[c][j]; A[c][j] = A[p][j]; A[p][j] = t; }
        for (int r = c + 1; r < 13; ++r) {
            const double l = A[r][c] / A[c][c];
            for (int j = c; j < 14; ++j) A[r][j] -= l * A[c][j];
        }
    }
    double x[13];
    for (int r = 12; r >= 0; --r) {
        double s = A[r][13];
        for (int j = r + 1; j < 13; ++j) s -= A[r][j] * x[j];
        x[r] = s / A[r][r];
    }
    for (int i = 0; i < 7; ++i) { dy[i] = y[7 + i]; dy[7 + i] = x[i]; }
}

static void rk4(double y[14], double h)
{
    double k1[14], k2[14], k3[14], k4[14], t[14];
    rhs(y, k1);
    for (int i = 0; i < 14; ++i) t[i] = y[i] + 0.5 * h * k1[i];
    rhs(t, k2);
    for (int i = 0; i < 14; ++i) t[i] = y[i] + 0.5 * h * k2[i];
    rhs(t, k3);
    for (int i = 0; i < 14; ++i) t[i] = y[i] + h * k3[i];
    rhs(t, k4);
    for (int i = 0; i < 14; ++i) y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
}

int main(int argc, char **argv)
{
    double y[14] = {-0.0617138900142764496358948458001, 0.0, 0.455279819163070380255912382449,
                    0.222668390165885884674473185609, 0.487364979543842550225598953530,
                    -0.222668390165885884674473185609, 1.23054744454982119249735015568};
    const int check = argc > 1 && strcmp(argv[1], "--check") == 0;
    if (argc < 3 && !check) {
        fprintf(stderr, "usage: a03_ref T NOUT [SUBSTEPS_PER_OUTPUT] | a03_ref --check\n");
        return 2;
    }
    const double T = check ? 0.03 : atof(argv[1]);
    const long nout = check ? 1 : atol(argv[2]);
    const double dt_out = T / (double)nout;
    const long sub = argc > 3 ? atol(argv[3]) : (long)ceil(dt_out / 1e-6 - 1e-9);
    const double h = dt_out / (double)sub;
    for (long k = 0; k <= nout; ++k) {
        if (k > 0) for (long s = 0; s < sub; ++s) rk4(y, h);
        if (!check) {
            printf("%.17g", (double)k * dt_out);
            for (int i = 0; i < 7; ++i) printf(" %.17g", y[i]);
            printf("\n");
        }
    }
    if (check) {
        /* the test set's solution at t = 0.03 (andrews.f, SOLN: PSIDE, rtol = atol = 1e-14) */
        static const double ref[7] = {0.1581077119629904e+2, -0.1575637105984298e+2,
                                      0.4082224013073101e-1, -0.5347301163226948e+0,
                                      0.5244099658805304e+0, 0.5347301163226948e+0,
                                      0.1048080741042263e+1};
        double worst = 0.0;
        for (int i = 0; i < 7; ++i) worst = fmax(worst, fabs(y[i] - ref[i]));
        printf("a03 reference at t = 0.03 s: largest angle difference from the test set %.3e rad, "
               "loop closure %.1e m\n", worst, drift(y));
        return worst <= 1e-8 ? 0 : 1;
    }
    return 0;
}
