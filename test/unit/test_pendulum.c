/* test_pendulum.c - the 2D pendulum of [L1] section 6.1 (unit mass, gravity 10, |x| - 1),
 * dropped from the horizontal. Conservation: semi-implicit Euler with projection keeps the
 * energy within O(h) of its start value; the linear-implicit J2 (like the linearly implicit
 * Euler of [L1], Fig. 6.5) dissipates it. */
#include "hs_test.h"
#include "tutil.h"

/* Energy after n steps, and the largest |E - E0| on the way. */
static int energy_run(hs_method me, double h, long n, double *e_end, double *e_dev)
{
    static tsim t;
    hs_real y[1];
    tsim_model(&t, &hs_pendulum_type);
    if (tsim_start(&t, me, HS_FORM_INDEX2, HS_STAB_PROJECTION, (hs_real)h) != HS_OK) return -1;
    hs_stepper_outputs(&t.s, 0, y);
    double e0 = (double)y[0], dev = 0.0;
    for (long k = 0; k < n; ++k) {
        if (hs_stepper_step(&t.s, 0) != HS_OK) return -1;
        hs_stepper_outputs(&t.s, 0, y);
        double d = tu_abs((double)y[0] - e0);
        dev = d > dev ? d : dev;
    }
    *e_end = (double)y[0] - e0;
    *e_dev = dev;
    return 0;
}

void test_pendulum(void)
{
    double e, dev, e2, dev2;
    /* Semi-implicit Euler + projection over 10 s: the energy error is O(h) (a first-order,
     * non-symplectic-after-projection method): it halves with h and stays a small fraction of
     * the 10 J swing (m g L). */
    CHECK(energy_run(HS_METHOD_SYMPLECTIC, 1e-3, 10000, &e, &dev) == 0);
    CHECK(energy_run(HS_METHOD_SYMPLECTIC, 5e-4, 20000, &e2, &dev2) == 0);
    hs_test_puts("  pendulum symplectic energy deviation h=1ms ");
    hs_test_put_real(dev);
    hs_test_puts(" h=0.5ms ");
    hs_test_put_real(dev2);
    hs_test_putc('\n');
    CHECK_RANGE(dev, 0.0, 1.0);
    CHECK_RANGE(dev / dev2, 1.6, 2.5);
    /* The pendulum's only stiffness is the constraint's curvature; J1-J3 take the applied
     * forces' Jacobian only (here zero), so they reduce to explicit Euler in q and the energy
     * grows, also at first order. */
    CHECK(energy_run(HS_METHOD_J2, 1e-3, 10000, &e, &dev) == 0);
    CHECK(energy_run(HS_METHOD_J2, 5e-4, 20000, &e2, &dev2) == 0);
    CHECK(e > 0.0 && e2 > 0.0);
    CHECK_RANGE(e / e2, 1.6, 2.5);
    /* At [L1]'s step h = 1/60 the semi-implicit Euler pendulum keeps swinging (energy
     * within 60 % after 10 s) while the explicit-in-q update gains energy without bound
     * and the single projection step can no longer hold the constraint. */
    CHECK(energy_run(HS_METHOD_SYMPLECTIC, 1.0 / 60.0, 600, &e, &dev) == 0);
    CHECK_RANGE(e, -6.0, 0.0);
    int rc = energy_run(HS_METHOD_J2, 1.0 / 60.0, 600, &e2, &dev2);
    CHECK(rc != 0 || dev2 > 100.0);
}
