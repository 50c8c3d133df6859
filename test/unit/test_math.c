/* test_math.c - hs_sin/hs_cos against values from a correctly rounded libm (Python's math),
 * and the Pythagorean identity over the range the models use; hs_atan2 against the host's
 * libm atan2 over every quadrant, magnitude ratios from 1e-40 to 1e40 and the Annex F special
 * cases (hosted builds), against Python's math.atan2 values on the board. */
#include "hs_math.h"
#include "hs_test.h"
#include "tutil.h"
#if __STDC_HOSTED__
#include <math.h>
#endif

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

/* Error of got against the reference ref (double) in units in the last place of hs_real at
 * ref; ulps are the spacing of hs_real, so the float build is held to float's ulp. */
#if __STDC_HOSTED__
static double ulp_err(hs_real got, double ref)
{
#ifdef HS_REAL_FLOAT
    const float r = (float)fabs(ref);
    double u = (double)(nextafterf(r, INFINITY) - r);
#else
    double u = nextafter(fabs(ref), (double)INFINITY) - fabs(ref);
#endif
    return fabs((double)got - ref) / u;
}

/* Same value including the sign of zero, or both NaN. */
static int same_special(hs_real a, double b)
{
    if (isnan(b)) return isnan((double)a);
    return (double)a == b && signbit((double)a) == signbit(b);
}
#endif

void test_atan2(void)
{
    /* y, x, atan2(y, x) from Python's math.atan2 (glibc, correctly rounded here) */
    static const double ref[][3] = {
        {1, 1, 0.7853981633974483},
        {1, -1, 2.356194490192345},
        {-1, -1, -2.356194490192345},
        {-1, 1, -0.7853981633974483},
        {0.3, 2.0, 0.14888994760949725},
        {-2.0, 0.3, -1.4219063791853994},
        {5e-20, -3.0, 3.141592653589793},
        {7.0, 1e-12, 1.5707963267947538},
        {0.7, 0.7000001, 0.785398091968882},
        {-0.25, -0.4375, -2.62244653934327},
    };
#ifdef HS_REAL_FLOAT
    const double tol = 2.5e-7; /* 1 float ulp at pi */
#else
    const double tol = 4.5e-16; /* 1 double ulp at pi */
#endif
    for (unsigned i = 0; i < sizeof ref / sizeof ref[0]; ++i)
        CHECK_RANGE((double)hs_atan2((hs_real)ref[i][0], (hs_real)ref[i][1]) - ref[i][2], -tol, tol);
    CHECK(hs_atan2(HS_R(0.0), HS_R(1.0)) == HS_R(0.0));
    CHECK(hs_atan2(HS_R(0.0), -HS_R(1.0)) > HS_R(3.14159));
#if __STDC_HOSTED__
    /* The quadrant sweep: angles over (-pi, pi] at radii 1e-30..1e30, then pairs of independent
     * magnitudes (ratios 1e-40..1e40, over- and underflowing quotients), all four sign pairs. */
    double worst = 0.0, worst_y = 0.0, worst_x = 0.0;
    long n = 0;
    unsigned long long s = 0x9E3779B97F4A7C15ULL;
    for (int k = 0; k < 200000; ++k) {
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        const double u1 = (double)(s >> 11) / 9007199254740992.0;
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        const double u2 = (double)(s >> 11) / 9007199254740992.0;
        hs_real y, x;
        if (k % 2 == 0) {
            const double th = -3.141592653589793 + 6.283185307179586 * u1, r = pow(10.0, 60.0 * u2 - 30.0);
            y = (hs_real)(r * sin(th)); x = (hs_real)(r * cos(th));
        } else {
            y = (hs_real)((k & 2 ? -1 : 1) * pow(10.0, 40.0 * u1 - 20.0));
            x = (hs_real)((k & 4 ? -1 : 1) * pow(10.0, 40.0 * u2 - 20.0));
        }
        if ((double)x == 0.0 && (double)y == 0.0) continue;
        const double r = atan2((double)y, (double)x); /* the double result is the reference for float too */
        const double e = ulp_err(hs_atan2(y, x), r);
        ++n;
        if (e > worst) { worst = e; worst_y = (double)y; worst_x = (double)x; }
    }
    hs_test_puts("  hs_atan2 vs libm atan2: ");
    hs_test_put_int(n);
    hs_test_puts(" points, worst ");
    hs_test_put_real(worst);
    hs_test_puts(" ulp at y = ");
    hs_test_put_real(worst_y);
    hs_test_puts(", x = ");
    hs_test_put_real(worst_x);
    hs_test_puts("\n");
#ifdef HS_REAL_FLOAT
    CHECK_RANGE(worst, 0.0, 2.0);
#else
    CHECK_RANGE(worst, 0.0, 1.0);
#endif
    /* Annex F special cases: signed zeros, infinities, NaN, exactly as libm gives them
     * (bit-equal, sign of zero included; the float build compares with the double result
     * rounded, which is exact for these values up to pi's rounding) */
    const hs_real inf = (hs_real)INFINITY, nan_ = (hs_real)NAN, z = HS_R(0.0);
    const hs_real sp[][2] = {
        {z, z}, {-z, z}, {z, -z}, {-z, -z}, {z, HS_R(2.0)}, {-z, HS_R(2.0)}, {z, -HS_R(2.0)}, {-z, -HS_R(2.0)},
        {HS_R(2.0), z}, {HS_R(2.0), -z}, {-HS_R(2.0), z}, {-HS_R(2.0), -z},
        {inf, inf}, {inf, -inf}, {-inf, inf}, {-inf, -inf}, {HS_R(1.0), inf}, {-HS_R(1.0), inf},
        {HS_R(1.0), -inf}, {-HS_R(1.0), -inf}, {inf, HS_R(1.0)}, {-inf, -HS_R(1.0)}, {inf, z}, {-inf, -z},
        {nan_, HS_R(1.0)}, {HS_R(1.0), nan_}, {nan_, nan_}, {nan_, inf},
    };
    int bad = 0;
    for (unsigned i = 0; i < sizeof sp / sizeof sp[0]; ++i) {
        const double r = atan2((double)sp[i][0], (double)sp[i][1]);
        if (!same_special(hs_atan2(sp[i][0], sp[i][1]), (double)(hs_real)r)) {
            hs_test_puts("  atan2 special case ");
            hs_test_put_int((long long)i);
            hs_test_puts(" differs\n");
            ++bad;
        }
    }
    CHECK(bad == 0);
    /* odd in y, and continuous across the positive x axis */
    CHECK(hs_atan2(-HS_R(0.3), HS_R(0.7)) == -hs_atan2(HS_R(0.3), HS_R(0.7)));
#endif
}
