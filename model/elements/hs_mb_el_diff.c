/* hs_mb_el_diff.c - force element "diff": an open differential. The carrier (spatial body a,
 * driven e.g. by a gearbox's out=) and the wheels left=, right= all spin against the housing
 * b (ground when left out) about the unit axis (each body's frame); the open differential's
 * kinematics w_a = (w_l + w_r) / 2 is kept by a stiff viscous coupling of its slip, for the
 * reason the gearbox gives (hs_mb_el_gearbox.c: a speed relation is not a position row):
 *   s = w_a - (w_l + w_r) / 2,  T = c s  (c= > 0, N m s/rad),
 *   -T on the carrier, +T/2 on each wheel (the equal split of an open differential: its
 *   virtual work T (dth_l + dth_r) / 2), all reacting on b.
 * So the wheels' torques are equal at every instant and their speeds free: one wheel may
 * turn faster than the other (a curve, a mu-split) while the carrier runs at their mean plus
 * the slip T / c. The Jacobian D = -c a a^T, a = (1, -1/2, -1/2), is exact (mb_spin_load).
 * mb_diff_eval also serves "lockdiff" (hs_mb_el_lockdiff.c) with its lock damping cr. */
#include "hs_mb_int.h"

static uint32_t check(const hs_mb_desc *D, const hs_mb_force *E, const char **why)
{
    const uint32_t bad = mb_shaft_check(D, E, why);
    if (bad != 0u) { return bad; }
    if (E->bc <= 0) { *why = "left= (the left wheel's body) is required"; return MB_K_LEFT; }
    if (E->bd <= 0) { *why = "right= (the right wheel's body) is required"; return MB_K_RIGHT; }
    if (!(E->c > HS_R(0.0))) { *why = "coupling c= must be > 0 (N m s/rad)"; return MB_K_C; }
    return 0u;
}

hs_status mb_diff_eval(const hs_mb_model *mb, int e, hs_real cr, const hs_real *q, const hs_real *u,
                       hs_real *f, hs_real *fq, hs_real *fu)
{
    const hs_mb_force *E = &mb->desc->forces[e];
    mb_spin s[3];
    const int body[3] = {E->a.body, E->bc - 1, E->bd - 1};
    for (int k = 0; k < 3; ++k) {
        const hs_status rc = mb_spin_eval(mb, body[k], E->b.body, E->axis, q, u, &s[k]);
        if (rc != HS_OK) { return rc; }
    }
    static const hs_real a[3] = {HS_R(1.0), HS_R(-0.5), HS_R(-0.5)};
    const hs_real c = E->c;
    const hs_real T = c * ((a[0] * s[0].w) + (a[1] * s[1].w) + (a[2] * s[2].w));
    /* the lock: T_L = cr (w_l - w_r) from the left wheel to the right one */
    const hs_real TL = cr * (s[1].w - s[2].w);
    hs_real tau[3];
    mb_spin_jac D;
    for (int k = 0; k < 3; ++k) {
        tau[k] = -a[k] * T;
        for (int m = 0; m < 3; ++m) { D.d[k][m] = -c * a[k] * a[m]; }
    }
    tau[1] -= TL; tau[2] += TL;
    D.d[1][1] -= cr; D.d[1][2] += cr; D.d[2][1] += cr; D.d[2][2] -= cr;
    mb_spin_load(mb, s, 3, tau, &D, f, fq, fu);
    return HS_OK;
}

static int eval(const hs_mb_model *mb, int e, hs_real t, const hs_real *q, const hs_real *u,
                const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu)
{
    (void)t; (void)in;
    return mb_diff_eval(mb, e, HS_R(0.0), q, u, f, fq, fu);
}

const mb_force_elem mb_el_diff = {
    "diff", "HS_MB_DIFF", MB_K_A | MB_K_B | MB_K_AXIS | MB_K_LEFT | MB_K_RIGHT | MB_K_C,
    MB_K_A | MB_K_AXIS | MB_K_LEFT | MB_K_RIGHT | MB_K_C, check, NULL, eval, NULL,
    .passive = MB_NO, .spring = MB_NO, .hinge = MB_NO, .tire = MB_NO};
