/* tutil.c - shared test plumbing. */
#include "tutil.h"

void tsim_model(tsim *x, const hs_model_type *type)
{
    hs_model_init(&x->m, type, &x->p);
}

int tsim_start(tsim *x, hs_method me, hs_form fo, hs_stab st, hs_real h)
{
    hs_stepper_def d = hs_stepper_default_def();
    d.method = me;
    d.form = fo;
    d.stab = st;
    d.h = h;
    d.alpha = HS_R(1.0) / h;
    d.beta = d.alpha * d.alpha;
    return hs_stepper_init(&x->s, &d, &x->m, HS_R(0.0), x->R, sizeof x->R / sizeof x->R[0], x->I,
                           sizeof x->I / sizeof x->I[0]);
}

double tsim_abs_g(tsim *x)
{
    hs_real g[TU_NC];
    double m = 0.0;
    if (hs_stepper_residual(&x->s, g) != HS_OK) return 1e300;
    for (int i = 0; i < x->s.nc; ++i) m = tu_abs((double)g[i]) > m ? tu_abs((double)g[i]) : m;
    return m;
}

int tsim_run(tsim *x, long n, double *max_g)
{
    hs_real in[4] = {0, 0, 0, 0};
    double mg = max_g ? tsim_abs_g(x) : 0.0;
    for (long k = 0; k < n; ++k) {
        int rc = hs_stepper_step(&x->s, in);
        if (rc) return rc;
        if (max_g) {
            double g = tsim_abs_g(x);
            mg = g > mg ? g : mg;
        }
    }
    if (max_g) *max_g = mg;
    return HS_OK;
}

double tu_log(double x)
{
    if (!(x > 0)) return -1e300;
    int k = 0;
    while (x > 1.5) { x *= 0.5; ++k; }
    while (x < 0.75) { x *= 2.0; --k; }
    /* log x = 2 atanh((x-1)/(x+1)), |s| <= 1/5 so 30 terms are far past double precision */
    double s = (x - 1.0) / (x + 1.0), s2 = s * s, term = s, sum = 0.0;
    for (int i = 1; i < 60; i += 2) { sum += term / i; term *= s2; }
    return 2.0 * sum + k * 0.69314718055994530942;
}

double tu_loglog_slope(const double *x, const double *y, int n)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int i = 0; i < n; ++i) {
        double lx = tu_log(x[i]), ly = tu_log(y[i]);
        sx += lx; sy += ly; sxx += lx * lx; sxy += lx * ly;
    }
    return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}
