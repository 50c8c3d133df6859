/* hs_mb_el_clutch.c - force element "clutch": a dry friction clutch between the engine shaft,
 * spatial body a, and the output shaft `out` (a gearbox's input shaft), both spinning against
 * the housing b (ground when left out) about the unit axis (each body's frame):
 *   e = the engagement input in [0, 1] (0 open, 1 closed: a clutch actuator's position),
 *   C = scale e  (the torque it can carry, N m: scale= is the capacity when closed),
 *   s = w_a - w_out  (the slip, rad/s),  z = c s / C,
 *   T = C z / sqrt(1 + z^2)  (c= > 0, N m s/rad: the lock-up stiffness of the slip),
 *   -T on a, +T on out (both reacting on b); e = 0: no coupling.
 * Why this law: a slipping dry clutch carries its capacity whatever the slip, |T| -> C (within
 * C / (2 z^2) once |z| >> 1), and a closed one holds the shafts together, T = c s for |z| << 1,
 * the stiff coupling the gearbox uses (hs_mb_el_gearbox.c says why a speed relation is not a
 * position row). The algebraic saturation is smooth, so the linear-implicit step sees the
 * exact Jacobian dT/ds = c / (1 + z^2)^(3/2) (a Coulomb kink would switch it between c and 0
 * within a step), and costs one square root: fixed work, no iteration. The power T s >= 0 is
 * lost, never made: an engagement dissipates J_a J_out / (J_a + J_out) s0^2 / 2 (make mb-test
 * checks it with the slip phase's closed form). An engagement outside [0, 1] or not a number
 * refuses the step (HS_E_INPUT): declare `input NAME min=0 max=1`, whose signal map clamps it
 * and counts the clamp (`clamped`). */
#include "hs_mb_int.h"

static uint32_t check(const hs_mb_desc *D, const hs_mb_force *E, const char **why)
{
    const int a = E->a.body, b = E->b.body, o = E->bc - 1;
    /* out= first: the shared shaft check names a wrong third body as a differential's left= */
    if (E->bc <= 0) { *why = "out= (the output shaft's body) is required"; return MB_K_OUT; }
    if ((o >= D->nbodies) || (D->bodies[o].kind != HS_MB_SPATIAL)) { *why = "must be a spatial body"; return MB_K_OUT; }
    if ((o == a) || (o == b)) { *why = "must differ from a and b"; return MB_K_OUT; }
    const uint32_t bad = mb_shaft_check(D, E, why);
    if (bad != 0u) { return bad; }
    if (!(E->c > HS_R(0.0))) { *why = "lock-up stiffness c= must be > 0 (N m s/rad)"; return MB_K_C; }
    if (!(E->scale > HS_R(0.0))) { *why = "the capacity scale= must be > 0 (N m at engagement 1)"; return MB_K_SCALE; }
    return 0u;
}

static int inputs(const hs_mb_desc *D, const hs_mb_force *E, const char *suffix[3])
{
    (void)D; (void)E;
    suffix[0] = ".engagement (1)";
    return 1;
}

static int eval(const hs_mb_model *mb, int e, hs_real t, const hs_real *q, const hs_real *u,
                const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu)
{
    (void)t;
    const hs_mb_force *E = &mb->desc->forces[e];
    const hs_real x = in[E->in0];
    if (!((x >= HS_R(0.0)) && (x <= HS_R(1.0)))) { return HS_E_INPUT; }
    const hs_real C = E->scale * x;
    if (!(C > HS_R(0.0))) { return HS_OK; } /* open: the shafts turn freely */
    mb_spin s[2];
    hs_status rc = mb_spin_eval(mb, E->a.body, E->b.body, E->axis, q, u, &s[0]);
    if (rc == HS_OK) { rc = mb_spin_eval(mb, E->bc - 1, E->b.body, E->axis, q, u, &s[1]); }
    if (rc != HS_OK) { return rc; }
    const hs_real z = (E->c * (s[0].w - s[1].w)) / C;
    const hs_real r = HS_R(1.0) / hs_sqrt(HS_R(1.0) + (z * z));
    const hs_real T = C * z * r;
    const hs_real k = E->c * r * r * r; /* dT/ds */
    const hs_real tau[2] = {-T, T};
    const mb_spin_jac D = {{{-k, k, 0}, {k, -k, 0}, {0, 0, 0}}};
    mb_spin_load(mb, s, 2, tau, &D, f, fq, fu);
    return HS_OK;
}

const mb_force_elem mb_el_clutch = {
    "clutch", "HS_MB_CLUTCH", MB_K_A | MB_K_B | MB_K_AXIS | MB_K_IN | MB_K_OUT | MB_K_C | MB_K_SCALE,
    MB_K_A | MB_K_AXIS | MB_K_IN | MB_K_OUT | MB_K_C | MB_K_SCALE, check, inputs, eval, NULL,
    .passive = MB_NO, .spring = MB_NO, .hinge = MB_NO, .tire = MB_NO};
