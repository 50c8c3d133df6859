/* test_math.c - hs_sin/hs_cos against values from a correctly rounded libm (Python's math),
 * and the Pythagorean identity over the range the models use. */
#include "hs_math.h"
#include "hs_test.h"
#include "tutil.h"

void test_math(void)
{
    static const double ref[][3] = {
        {1.0, 0.8414709848078965, 0.5403023058681398},
        {30.0, -0.9880316240928618, 0.15425144988758405},
        {-2.5, -0.5984721441039565, -0.8011436155469337},
        {0.5, 0.479425538604203, 0.8775825618903728},
        {3.0, 0.1411200080598672, -0.9899924966004454},
        {100.0, -0.5063656411097588, 0.8623188722876839},
        {7.0, 0.6569865987187891, 0.7539022543433046},
    };
#ifdef HS_REAL_FLOAT
    const double tol = 3e-7;
#else
    const double tol = 4e-16;
#endif
    for (unsigned i = 0; i < sizeof ref / sizeof ref[0]; ++i) {
        double s = (double)hs_sin((hs_real)ref[i][0]), c = (double)hs_cos((hs_real)ref[i][0]);
        CHECK_RANGE(s - ref[i][1], -tol, tol);
        CHECK_RANGE(c - ref[i][2], -tol, tol);
    }
#ifndef HS_REAL_FLOAT
    CHECK_RANGE((double)hs_sin(HS_R(1e5)) - 0.03574879797201651, -1e-15, 1e-15);
#endif
    double worst = 0.0;
    for (int k = -400; k <= 400; ++k) {
        hs_real x = (hs_real)k * HS_R(0.0791);
        hs_real s = hs_sin(x), c = hs_cos(x);
        double e = tu_abs((double)(s * s + c * c) - 1.0);
        worst = e > worst ? e : worst;
    }
    CHECK_RANGE(worst, 0.0, 4.0 * (double)HS_EPS);
    CHECK(hs_sin(HS_R(0.0)) == HS_R(0.0));
    CHECK(!hs_isfinite(hs_sin(HS_R(2.0) * HS_TRIG_MAX * HS_R(8.0))));
}
