/* test/iftomm/a04_ref.c - reference solution of IFToMM benchmark A04, Bricard's mechanism, by an
 * independent method (no code shared with hilstep): the rods AB, BC, CD, DE, EF as a serial
 * chain of the hinges A..E from the ground (joint angles th1..th5, rotation matrices by the
 * product of exponentials: a point x0 of rod k at th = 0 is at E1(E2(..Ek(x0))), Ei the turn
 * by th_i about hinge i's initial line); the sixth hinge F closes the loop with five equations
 * (EF's point F at (0,0,1), EF's x axis along ground x), one of which depends on the others on
 * the mechanism. One coordinate, alpha = th1 (hinge A): for each alpha the other four angles
 * solve the closure by Gauss-Newton (normal equations, to rounding), dth/dalpha from the
 * closure's Jacobian (least squares, consistent), and Lagrange's equation of the one
 * coordinate, m(a) a'' + m'(a) a'^2 / 2 + V'(a) = 0, with m(a) the generalized mass (rods:
 * 1 kg, inertia (L^2 + a^2)/12 about the cross axes and a^2/6 about their own, a = 0.1 m) and
 * V the potential (g = 9.81 along -y); m' by fourth-order central differences (step 1e-3 rad),
 * integrated by the classical Runge-Kutta method at H (default 1e-4 s) from rest at the
 * specification's cube position. Prints "t x y z E res" of point P3 (= C, rod BC's lower end),
 * E the mechanical energy (J) and res the largest closure residual (m) at NOUT + 1 equally
 * spaced times over [0, T]. With "thin" after H, thin rods instead (m L^2/12 about the cross
 * axes, none about their own: the reading of the section that some implementations take).
 * Usage: a04_ref T NOUT [H [thin]] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NB 5
static const double GRAV = 9.81, MASS = 1.0;
static double J_OWN = MASS * 0.01 / 6.0, J_CROSS = MASS * (1.0 + 0.01) / 12.0;  /* a = 0.1 m */
/* hinge lines at th = 0 (the specification's figure): A..F */
static const double P0[6][3] = {{0, 0, 0}, {1, 0, 0}, {1, -1, 0}, {1, -1, 1}, {0, -1, 1}, {0, 0, 1}};
static const double W0[6][3] = {{0, 1, 0}, {0, 0, 1}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 0}};
/* rods' centres at th = 0 and their own axis (0 x, 1 y, 2 z) */
static const double C0[NB][3] = {{0.5, 0, 0}, {1, -0.5, 0}, {1, -1, 0.5}, {0.5, -1, 1}, {0, -0.5, 1}};
static const int AX[NB] = {0, 1, 2, 0, 1};

typedef struct { double R[3][3]; double d[3]; } frame;    /* x = R x0 + d */
typedef struct {
    frame F[NB];            /* rod k's placement (after hinges 1..k+1) */
    double w[NB + 1][3];    /* current hinge axes A..F, points */
    double p[NB + 1][3];
} kin;

static void cross(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

static void apply(const frame *f, const double x[3], double y[3])
{
    for (int i = 0; i < 3; ++i) y[i] = f->R[i][0] * x[0] + f->R[i][1] * x[1] + f->R[i][2] * x[2] + f->d[i];
}

/* the turn by t about the line (w, p): Rodrigues */
static void turn(const double w[3], const double p[3], double t, frame *f)
{
    const double c = cos(t), s = sin(t), v = 1.0 - c;
    const double K[3][3] = {{0, -w[2], w[1]}, {w[2], 0, -w[0]}, {-w[1], w[0], 0}};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            double kk = 0.0;
            for (int l = 0; l < 3; ++l) kk += K[i][l] * K[l][j];
            f->R[i][j] = (i == j ? 1.0 : 0.0) + s * K[i][j] + v * kk;
        }
    for (int i = 0; i < 3; ++i) f->d[i] = p[i] - (f->R[i][0] * p[0] + f->R[i][1] * p[1] + f->R[i][2] * p[2]);
}

static void compose(const frame *a, const frame *b, frame *c)     /* c = a o b */
{
    frame t;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) t.R[i][j] = a->R[i][0] * b->R[0][j] + a->R[i][1] * b->R[1][j] + a->R[i][2] * b->R[2][j];
        t.d[i] = a->R[i][0] * b->d[0] + a->R[i][1] * b->d[1] + a->R[i][2] * b->d[2] + a->d[i];
    }
    *c = t;
}

static void kinematics(const double th[NB], kin *k)
{
    frame acc = {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {0, 0, 0}};
    for (int i = 0; i <= NB; ++i) {
        for (int r = 0; r < 3; ++r) k->w[i][r] = acc.R[r][0] * W0[i][0] + acc.R[r][1] * W0[i][1] + acc.R[r][2] * W0[i][2];
        apply(&acc, P0[i], k->p[i]);
        if (i == NB) break;
        frame e;
        turn(W0[i], P0[i], th[i], &e);
        compose(&acc, &e, &acc);
        k->F[i] = acc;
    }
}

/* the closure (5 rows) and its Jacobian (5 x 5) at th */
static void closure(const double th[NB], double g[5], double G[5][NB])
{
    kin k;
    kinematics(th, &k);
    double xf[3], ax[3];
    apply(&k.F[NB - 1], P0[5], xf);
    for (int r = 0; r < 3; ++r) ax[r] = k.F[NB - 1].R[r][0];      /* EF's image of ground x */
    for (int r = 0; r < 3; ++r) g[r] = xf[r] - P0[5][r];
    g[3] = ax[1];
    g[4] = ax[2];
    for (int i = 0; i < NB; ++i) {
        double rel[3], dv[3], da[3];
        for (int r = 0; r < 3; ++r) rel[r] = xf[r] - k.p[i][r];
        cross(k.w[i], rel, dv);
        cross(k.w[i], ax, da);
        for (int r = 0; r < 3; ++r) G[r][i] = dv[r];
        G[3][i] = da[1];
        G[4][i] = da[2];
    }
}

/* solves the 4 x 4 normal equations N x = b (Gauss with partial pivoting) */
static void solve4(double N[4][4], double b[4])
{
    for (int c = 0; c < 4; ++c) {
        int piv = c;
        for (int r = c + 1; r < 4; ++r) if (fabs(N[r][c]) > fabs(N[piv][c])) piv = r;
        for (int j = 0; j < 4; ++j) { double t = N[c][j]; N[c][j] = N[piv][j]; N[piv][j] = t; }
        double t = b[c]; b[c] = b[piv]; b[piv] = t;
        for (int r = c + 1; r < 4; ++r) {
            const double f = N[r][c] / N[c][c];
            for (int j = c; j < 4; ++j) N[r][j] -= f * N[c][j];
            b[r] -= f * b[c];
        }
    }
    for (int c = 3; c >= 0; --c) {
        for (int j = c + 1; j < 4; ++j) b[c] -= N[c][j] * b[j];
        b[c] /= N[c][c];
    }
}

/* least squares G[:,1..4] x = rhs (5 rows, consistent) */
static void lsq(double G[5][NB], const double rhs[5], double x[4])
{
    double N[4][4], b[4];
    for (int i = 0; i < 4; ++i) {
        b[i] = 0.0;
        for (int r = 0; r < 5; ++r) b[i] += G[r][i + 1] * rhs[r];
        for (int j = 0; j < 4; ++j) {
            N[i][j] = 0.0;
            for (int r = 0; r < 5; ++r) N[i][j] += G[r][i + 1] * G[r][j + 1];
        }
    }
    solve4(N, b);
    for (int i = 0; i < 4; ++i) x[i] = b[i];
}

static double maxabs5(const double g[5])
{
    double m = 0.0;
    for (int r = 0; r < 5; ++r) if (fabs(g[r]) > m) m = fabs(g[r]);
    return m;
}

/* th[1..4] onto the closure for th[0] = a (warm start in th); returns the residual */
static double assemble(double a, double th[NB])
{
    double g[5], G[5][NB], dx[4];
    th[0] = a;
    for (int it = 0; it < 30; ++it) {
        closure(th, g, G);
        if (maxabs5(g) < 1e-15) break;
        for (int r = 0; r < 5; ++r) g[r] = -g[r];
        lsq(G, g, dx);
        for (int i = 0; i < 4; ++i) th[i + 1] += dx[i];
    }
    closure(th, g, G);
    return maxabs5(g);
}

/* at alpha (th assembled): dth/dalpha, the generalized mass m and the potential's slope V' */
static void mass_force(const double th[NB], double *m, double *dV, double *V)
{
    double g[5], G[5][NB], J[NB], rhs[5], x[4];
    closure(th, g, G);
    for (int r = 0; r < 5; ++r) rhs[r] = -G[r][0];
    lsq(G, rhs, x);
    J[0] = 1.0;
    for (int i = 0; i < 4; ++i) J[i + 1] = x[i];
    kin k;
    kinematics(th, &k);
    double om[3] = {0, 0, 0};
    *m = 0.0; *dV = 0.0; *V = 0.0;
    for (int b = 0; b < NB; ++b) {
        double c[3], v[3] = {0, 0, 0};
        for (int r = 0; r < 3; ++r) om[r] += k.w[b][r] * J[b];
        apply(&k.F[b], C0[b], c);
        for (int i = 0; i <= b; ++i) {
            double rel[3], t[3];
            for (int r = 0; r < 3; ++r) rel[r] = c[r] - k.p[i][r];
            cross(k.w[i], rel, t);
            for (int r = 0; r < 3; ++r) v[r] += t[r] * J[i];
        }
        /* body-frame angular velocity R^T om; principal inertia along the initial axes */
        double ob[3];
        for (int r = 0; r < 3; ++r) ob[r] = k.F[b].R[0][r] * om[0] + k.F[b].R[1][r] * om[1] + k.F[b].R[2][r] * om[2];
        double rot = 0.0;
        for (int r = 0; r < 3; ++r) {
            const double In = (r == AX[b]) ? J_OWN : J_CROSS;
            rot += In * ob[r] * ob[r];
        }
        *m += MASS * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + rot;
        *dV += MASS * GRAV * v[1];
        *V += MASS * GRAV * c[1];
    }
}

static double TH[NB];       /* the last assembly (warm start) */

static double gen_mass(double a)
{
    double th[NB], m, dV, V;
    for (int i = 0; i < NB; ++i) th[i] = TH[i];
    (void)assemble(a, th);
    mass_force(th, &m, &dV, &V);
    return m;
}

/* y = (alpha, alpha'): y' */
static void rhs(const double y[2], double d[2])
{
    double m, dV, V;
    (void)assemble(y[0], TH);
    mass_force(TH, &m, &dV, &V);
    const double e = 1e-3;
    const double dm = (gen_mass(y[0] - 2 * e) - 8 * gen_mass(y[0] - e) + 8 * gen_mass(y[0] + e) - gen_mass(y[0] + 2 * e)) / (12 * e);
    d[0] = y[1];
    d[1] = -(0.5 * dm * y[1] * y[1] + dV) / m;
}

static void report(double t, const double y[2])
{
    double m, dV, V, P3[3];
    const double res = assemble(y[0], TH);
    mass_force(TH, &m, &dV, &V);
    kin k;
    kinematics(TH, &k);
    apply(&k.F[1], P0[2], P3);
    printf("%.17g %.17g %.17g %.17g %.17g %.3g\n", t, P3[0], P3[1], P3[2], 0.5 * m * y[1] * y[1] + V, res);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: a04_ref T NOUT [H]\n");
        return 2;
    }
    const double T = atof(argv[1]);
    const long nout = atol(argv[2]);
    const double hmax = argc > 3 ? atof(argv[3]) : 1e-4;
    if (argc > 4 && strcmp(argv[4], "thin") == 0) { J_OWN = 0.0; J_CROSS = MASS / 12.0; }
    const double dt_out = T / (double)nout;
    const long sub = (long)ceil(dt_out / hmax - 1e-9);
    const double h = dt_out / (double)sub;
    double y[2] = {0.0, 0.0};
    for (int i = 0; i < NB; ++i) TH[i] = 0.0;
    report(0.0, y);
    for (long o = 1; o <= nout; ++o) {
        for (long s = 0; s < sub; ++s) {
            double k1[2], k2[2], k3[2], k4[2], t[2];
            rhs(y, k1);
            t[0] = y[0] + 0.5 * h * k1[0]; t[1] = y[1] + 0.5 * h * k1[1]; rhs(t, k2);
            t[0] = y[0] + 0.5 * h * k2[0]; t[1] = y[1] + 0.5 * h * k2[1]; rhs(t, k3);
            t[0] = y[0] + h * k3[0]; t[1] = y[1] + h * k3[1]; rhs(t, k4);
            y[0] += h / 6.0 * (k1[0] + 2.0 * k2[0] + 2.0 * k3[0] + k4[0]);
            y[1] += h / 6.0 * (k1[1] + 2.0 * k2[1] + 2.0 * k3[1] + k4[1]);
        }
        report((double)o * dt_out, y);
    }
    return 0;
}
