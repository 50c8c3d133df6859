/* test/iftomm/ref.c - reference solutions of the IFToMM benchmarks A01 and A02 (N = 2) by an
 * independent method: both reduce to one coordinate theta (the link's, or every crank's:
 * the N-four-bar's cranks stay parallel), theta'' = -k cos(theta) with k = g / L (A01) or
 * k = 3.5 g / 3 (A02 with N = 2: T = 3/2 theta'^2, V = 3.5 g sin(theta)), integrated by the
 * classical Runge-Kutta method at h = 1e-5 s (STEP_PER_OUT substeps per output). Prints
 * "t x y" of the point (cos theta, sin theta) at NOUT + 1 equally spaced times over [0, T].
 * Usage: ref K THETA0 OMEGA0 T NOUT [SUB] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static double K;

static void rhs(const double y[2], double d[2])
{
    d[0] = y[1];
    d[1] = -K * cos(y[0]);
}

int main(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr, "usage: ref K THETA0 OMEGA0 T NOUT [SUBSTEPS_PER_OUTPUT]\n");
        return 2;
    }
    K = atof(argv[1]);
    double y[2] = {atof(argv[2]), atof(argv[3])};
    const double T = atof(argv[4]);
    const long nout = atol(argv[5]);
    const double dt_out = T / (double)nout;
    long sub = argc > 6 ? atol(argv[6]) : (long)ceil(dt_out / 1e-5);
    const double h = dt_out / (double)sub;
    printf("%.17g %.17g %.17g\n", 0.0, cos(y[0]), sin(y[0]));
    for (long k = 1; k <= nout; ++k) {
        for (long s = 0; s < sub; ++s) {
            double k1[2], k2[2], k3[2], k4[2], t[2];
            rhs(y, k1);
            t[0] = y[0] + 0.5 * h * k1[0]; t[1] = y[1] + 0.5 * h * k1[1]; rhs(t, k2);
            t[0] = y[0] + 0.5 * h * k2[0]; t[1] = y[1] + 0.5 * h * k2[1]; rhs(t, k3);
            t[0] = y[0] + h * k3[0]; t[1] = y[1] + h * k3[1]; rhs(t, k4);
            y[0] += h / 6.0 * (k1[0] + 2.0 * k2[0] + 2.0 * k3[0] + k4[0]);
            y[1] += h / 6.0 * (k1[1] + 2.0 * k2[1] + 2.0 * k3[1] + k4[1]);
        }
        printf("%.17g %.17g %.17g\n", (double)k * dt_out, cos(y[0]), sin(y[0]));
    }
    return 0;
}
