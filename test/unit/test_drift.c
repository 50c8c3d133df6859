/* test_drift.c - [BAE] Fig. 6: maximum drift max |g| over [0, 3] on the car axle against h.
 * Expected orders (sections 3.1-3.4): unstabilized O(h), Baumgarte with alpha = 1/h,
 * beta = 1/h^2 O(h^2), one-Newton-step projection O(h^3). */
#include "hs_test.h"
#include "tutil.h"

static double max_drift(hs_method me, hs_form fo, hs_stab st, double h)
{
    static tsim t;
    double mg = 1e300;
    tsim_model(&t, &hs_car_axle_type);
    if (tsim_start(&t, me, fo, st, (hs_real)h) != HS_OK) return 1e300;
    if (tsim_run(&t, (long)(3.0 / h + 0.5), &mg) != HS_OK) return 1e300;
    return mg;
}

static void slope_case(hs_method me, hs_form fo, hs_stab st, const double *hh, int nh, double lo,
                       double hi)
{
    double g[8];
    for (int i = 0; i < nh; ++i) g[i] = max_drift(me, fo, st, hh[i]);
    double sl = tu_loglog_slope(hh, g, nh);
    hs_test_puts("  drift slope ");
    hs_test_puts(hs_method_name(me));
    hs_test_putc(' ');
    hs_test_puts(hs_form_name(fo));
    hs_test_putc(' ');
    hs_test_puts(hs_stab_name(st));
    hs_test_puts(" = ");
    hs_test_put_real(sl);
    hs_test_putc('\n');
    CHECK_RANGE(sl, lo, hi);
}

void test_drift(void)
{
#ifdef HS_REAL_FLOAT
    /* float resolves residuals only down to ~1e-7: the O(h^3) slope is below that floor */
    const double hh[] = {8e-3, 4e-3, 2e-3};
    slope_case(HS_METHOD_J2, HS_FORM_INDEX2, HS_STAB_NONE, hh, 3, 0.8, 1.2);
    slope_case(HS_METHOD_J2, HS_FORM_INDEX2, HS_STAB_BAUMGARTE, hh, 3, 1.7, 2.3);
#else
    const double hh[] = {4e-3, 2e-3, 1e-3, 5e-4, 2.5e-4};
    const int nh = hs_test_quick ? 3 : 5;
    const hs_method ms[] = {HS_METHOD_J1, HS_METHOD_J2, HS_METHOD_J3};
    for (int mi = 0; mi < 3; ++mi) {
        slope_case(ms[mi], HS_FORM_INDEX2, HS_STAB_NONE, hh, nh, 0.8, 1.2);
        slope_case(ms[mi], HS_FORM_INDEX2, HS_STAB_BAUMGARTE, hh, nh, 1.7, 2.3);
        slope_case(ms[mi], HS_FORM_INDEX2, HS_STAB_PROJECTION, hh, nh, 2.6, 3.4);
        slope_case(ms[mi], HS_FORM_INDEX1, HS_STAB_BAUMGARTE, hh, nh, 1.7, 2.3);
        slope_case(ms[mi], HS_FORM_INDEX1, HS_STAB_PROJECTION, hh, nh, 2.6, 3.4);
        /* GGL: its built-in one-Newton-step position projection is eq. 11, so O(h^3) too */
        slope_case(ms[mi], HS_FORM_GGL, HS_STAB_NONE, hh, nh, 2.6, 3.4);
    }
    /* index-1 unstabilized: O(h) once h is small enough that the first-step transient no
     * longer dominates (see the note in README, "Drift orders") */
    const double hs1[] = {2e-4, 1e-4, 5e-5};
    if (!hs_test_quick) slope_case(HS_METHOD_J2, HS_FORM_INDEX1, HS_STAB_NONE, hs1, 3, 0.8, 1.2);
#endif
}
