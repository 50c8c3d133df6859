/* hs_mb_el_rotspring.c - force element "rotspring": rotational spring-damper, tau = -k (th - th0) - c th' on a, -tau
 * on b: planar th = th_a - th_b, spatial the hinge angle about axis (hs_mb_rot.c). */
#include "hs_mb_int.h"

uint32_t mb_hinge_check(const hs_mb_desc *D, const hs_mb_force *E, const char **why)
{
    const int a = E->a.body, b = E->b.body;
    if (D->dim == 2) {
        if (a < 0 || mb_planar_or_ground(D, a) == 0) { *why = "must be a planar body"; return MB_K_A; }
        if (mb_planar_or_ground(D, b) == 0) { *why = "must be a planar body or ground"; return MB_K_B; }
        if (a == b) { *why = "must differ from a"; return MB_K_B; }
        return 0u;
    }
    if (a < 0 || D->bodies[a].kind != HS_MB_SPATIAL) { *why = "must be a spatial body"; return MB_K_A; }
    if (b >= 0 && D->bodies[b].kind != HS_MB_SPATIAL) { *why = "must be a spatial body or ground"; return MB_K_B; }
    if (a == b) { *why = "must differ from a"; return MB_K_B; }
    if (mb_is_zero3(E->axis) != 0) { *why = "a spatial hinge element needs axis= (a's frame) or joint=HINGE"; return MB_K_AXIS; }
    if (mb_is_unit3(E->axis) == 0) { *why = "not a unit vector"; return MB_K_AXIS; }
    if (mb_is_zero3(E->axis_b) == 0 && mb_is_unit3(E->axis_b) == 0) { *why = "not a unit vector"; return MB_K_AXIS_B; }
    return 0u;
}

static uint32_t check(const hs_mb_desc *D, const hs_mb_force *E, const char **why)
{
    const uint32_t bad = mb_hinge_check(D, E, why);
    if (bad != 0u) { return bad; }
    if (!(E->k >= HS_R(0.0))) { *why = "stiffness must be >= 0"; return MB_K_K; }
    if (!(E->c >= HS_R(0.0))) { *why = "damping must be >= 0"; return MB_K_C; }
    return 0u;
}

static int eval(const hs_mb_model *mb, int e, hs_real t, const hs_real *q, const hs_real *u,
                const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu)
{
    (void)t;
    const hs_mb_force *E = &mb->desc->forces[e];
    if (mb->desc->dim == 3) { return mb_rot_force(mb, e, q, u, in, f, fq, fu); }
    mb_rot_spring(mb, E->a.body, E->b.body, E->k, E->c, E->l0, q, u, f, fq, fu);
    return HS_OK;
}

static hs_real potential(const hs_mb_model *mb, int e, hs_real t, const hs_real *q, const hs_real *in,
                         hs_real V)
{
    (void)t; (void)in;
    const hs_mb_force *E = &mb->desc->forces[e];
    if (mb->desc->dim == 3) { return V + mb_rot_potential(mb, e, q); }
    const hs_real th = q[mb->qoff[E->a.body] + 2] - (E->b.body >= 0 ? q[mb->qoff[E->b.body] + 2] : HS_R(0.0));
    return V + HS_R(0.5) * E->k * (th - E->l0) * (th - E->l0);
}

const mb_force_elem mb_el_rotspring = {
    "rotspring", "HS_MB_ROTSPRING",
    MB_K_A | MB_K_B | MB_K_JOINT | MB_K_K | MB_K_C | MB_K_THETA0 | MB_K_AXIS | MB_K_AXIS_B, MB_K_A,
    check, NULL, eval, potential,
    .passive = MB_YES, .spring = MB_NO, .hinge = MB_YES, .tire = MB_NO};
