/* hs_mb_el_lockdiff.c - force element "lockdiff": a locking (viscous limited-slip)
 * differential, the open one of hs_mb_el_diff.c (carrier a, housing b, wheels left=, right=,
 * carrier coupling c=) plus a lock torque between the wheels:
 *   T_L = cr (w_l - w_r)  (cr= > 0, N m s/rad),  -T_L on the left wheel, +T_L on the right.
 * A viscous coupling (a Ferguson unit); a large cr locks it: under torques that differ by
 * dT the wheels' speeds differ by dT / (2 cr) and their accelerations equal (make mb-test).
 * A friction (Coulomb) lock would need a switching law the implicit stepper's Newton
 * iteration cannot differentiate across; it is left out. D gains -cr [1 -1; -1 1] in
 * (w_l, w_r). */
#include "hs_mb_int.h"

static uint32_t check(const hs_mb_desc *D, const hs_mb_force *E, const char **why)
{
    const uint32_t bad = mb_shaft_check(D, E, why);
    if (bad != 0u) { return bad; }
    if (E->bc <= 0) { *why = "left= (the left wheel's body) is required"; return MB_K_LEFT; }
    if (E->bd <= 0) { *why = "right= (the right wheel's body) is required"; return MB_K_RIGHT; }
    if (!(E->c > HS_R(0.0))) { *why = "coupling c= must be > 0 (N m s/rad)"; return MB_K_C; }
    if (!(E->cr > HS_R(0.0))) { *why = "lock damping cr= must be > 0 (N m s/rad)"; return MB_K_CR; }
    return 0u;
}

static int eval(const hs_mb_model *mb, int e, hs_real t, const hs_real *q, const hs_real *u,
                const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu)
{
    (void)t; (void)in;
    return mb_diff_eval(mb, e, mb->desc->forces[e].cr, q, u, f, fq, fu);
}

const mb_force_elem mb_el_lockdiff = {
    "lockdiff", "HS_MB_LOCKDIFF", MB_K_A | MB_K_B | MB_K_AXIS | MB_K_LEFT | MB_K_RIGHT | MB_K_C | MB_K_CR,
    MB_K_A | MB_K_AXIS | MB_K_LEFT | MB_K_RIGHT | MB_K_C | MB_K_CR, check, NULL, eval, NULL,
    .passive = MB_NO, .spring = MB_NO, .hinge = MB_NO, .tire = MB_NO};
