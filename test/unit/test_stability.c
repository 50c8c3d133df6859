/* test_stability.c - [BAE] section 2: stability of the partitioned linear-implicit Euler
 * method on q'' = -a q - b q', checked by running the stepper on a grid of x = h^2 a,
 * y = h b against the paper's analytic boundaries:
 *   J1: stable iff h b >= 0 and h^2 a <= 2 h b + 4
 *   J3: stable iff 0 <= h b <= 2 and h^2 a <= 4 - 2 h b
 *   J2, J_exact: stable for all a, b >= 0
 *   explicit Euler: unstable for b = 0, a > 0.
 * Grid points within 10 % of a boundary are skipped: there the growth factor is so close to
 * 1 that a finite run cannot tell the sides apart. */
#include "hs_test.h"
#include "tutil.h"

/* 1 when the run from (q, u) = (1, 0) stays bounded (|q| + h |u| <= 50 for nsteps steps),
 * 0 when it grows past that or the stepper refuses a step, -1 when it cannot start. */
static int bounded(hs_method me, double h, double x, double y, long nsteps)
{
    static tsim t;
    tsim_model(&t, &hs_test_eq_type);
    if (hs_model_set_param(&t.m, "a", (hs_real)(x / (h * h))) != HS_OK) return -1;
    if (hs_model_set_param(&t.m, "b", (hs_real)(y / h)) != HS_OK) return -1;
    if (tsim_start(&t, me, HS_FORM_INDEX2, HS_STAB_NONE, (hs_real)h) != HS_OK) return -1;
    for (long k = 0; k < nsteps; ++k) {
        if (hs_stepper_step(&t.s, 0) != HS_OK) return 0;
        double w = tu_abs((double)t.s.q[0]) + h * tu_abs((double)t.s.u[0]);
        if (!(w <= 50.0)) return 0;
    }
    return 1;
}

/* Paper's prediction: 1 stable, 0 unstable, -1 too close to a boundary to test. */
static int predicted(hs_method me, double x, double y)
{
    const double mrg = 0.1;
    switch (me) {
    case HS_METHOD_J1: {
        double bnd = 2.0 * y + 4.0;
        if (tu_abs(x - bnd) < mrg * bnd) return -1;
        return x <= bnd;
    }
    case HS_METHOD_SYMPLECTIC: /* same amplification polynomial as J3: det 1 - hb, trace 2 - hb - h^2 a */
    case HS_METHOD_J3: {
        if (tu_abs(y - 2.0) < mrg * 2.0) return -1;
        if (y > 2.0) return 0;
        double bnd = 4.0 - 2.0 * y;
        if (tu_abs(x - bnd) < mrg * 4.0) return -1;
        return x <= bnd;
    }
    case HS_METHOD_J2:
    case HS_METHOD_JEXACT:
        return 1;
    default:
        return -1;
    }
}

void test_stability(void)
{
    const hs_method meths[] = {HS_METHOD_J1, HS_METHOD_J2, HS_METHOD_J3, HS_METHOD_JEXACT, HS_METHOD_SYMPLECTIC};
    const double hs[] = {1e-3, 0.5};
    const double dx = hs_test_quick ? 1.0 : 0.25, dy = hs_test_quick ? 0.5 : 0.2;
    const long nsteps = hs_test_quick ? 200 : 400;
    for (unsigned mi = 0; mi < sizeof meths / sizeof meths[0]; ++mi) {
        long agree = 0, tested = 0, stable_seen = 0, unstable_seen = 0;
        for (unsigned hi = 0; hi < sizeof hs / sizeof hs[0]; ++hi)
            for (double x = dx; x <= 10.0 + 1e-9; x += dx)
                for (double y = 0.0; y <= 4.0 + 1e-9; y += dy) {
                    int p = predicted(meths[mi], x, y);
                    if (p < 0) continue;
                    int r = bounded(meths[mi], hs[hi], x, y, nsteps);
                    ++tested;
                    if (r == p) ++agree;
                    else {
                        hs_test_puts("  stability mismatch method ");
                        hs_test_puts(hs_method_name(meths[mi]));
                        hs_test_puts(" h^2a=");
                        hs_test_put_real(x);
                        hs_test_puts(" hb=");
                        hs_test_put_real(y);
                        hs_test_puts(r ? " bounded\n" : " grew\n");
                    }
                    stable_seen += p == 1;
                    unstable_seen += p == 0;
                }
        CHECK(tested > 50);
        CHECK(agree == tested);
        /* J1 and J3 have both sides on the grid; J2/J_exact only the stable one */
        if (meths[mi] != HS_METHOD_J2 && meths[mi] != HS_METHOD_JEXACT) CHECK(unstable_seen > 5 && stable_seen > 5);
    }
    /* J2 and J_exact stay stable far out: very stiff, undamped and heavily damped. */
    const double far[][2] = {{1e2, 0.0}, {1e4, 0.0}, {1e4, 50.0}, {1e6, 1e3}};
    for (unsigned i = 0; i < sizeof far / sizeof far[0]; ++i) {
        CHECK(bounded(HS_METHOD_J2, 1e-3, far[i][0], far[i][1], 300) == 1);
        CHECK(bounded(HS_METHOD_JEXACT, 1e-3, far[i][0], far[i][1], 300) == 1);
    }
    /* Explicit Euler: unstable for every a > 0 when b = 0 (|1 + h lambda| > 1 on the axis);
     * grows by sqrt(1 + h^2 a) a step, so run long enough for the smallest x. */
    for (double x = 0.25; x <= 10.0; x += 0.25)
        CHECK(bounded(HS_METHOD_EXPLICIT, 1e-3, x, 0.0, 4000) == 0);
    /* ...while J3 (its one-derivative repair) keeps the same undamped points bounded. */
    for (double x = 0.25; x <= 3.5; x += 0.25) CHECK(bounded(HS_METHOD_J3, 1e-3, x, 0.0, 4000) == 1);
}
