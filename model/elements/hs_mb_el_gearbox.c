/* hs_mb_el_gearbox.c - force element "gearbox": the engine shaft, spatial body a against its
 * housing b (ground when left out), drives the output shaft `out` (against the same housing)
 * through the ratio i of the gear input, all spins about the unit axis (each body's frame):
 *   gear k = the input rounded to the nearest whole number (k = floor(g + 1/2)), i = ratios[k - 1]
 *   for k = 1 .. n (a negative ratio: reverse), k = 0 neutral (i = 0: no coupling);
 *   s = w_a - i w_out (the coupling's slip, rad/s),  T = c s  (c= > 0, N m s/rad),
 *   -T on the engine shaft a, +i T on the output (both reacting on b), 0 in neutral.
 * Why a coupling and not the kinematic w_a = i w_out: the layer's joints are position rows of
 * fixed geometry (hs_mb_int.h row primitives), and i changes with the input, so the speed
 * relation is not a row; reflecting the engine inertia into the output (J_out + i^2 J_e)
 * would need the mass matrix to follow an input. A stiff viscous coupling (a locked-up
 * clutch) keeps both shafts as bodies with their own inertia, fixed work per step, and is
 * dissipative: the power T s >= 0 is lost, never made. With c large the slip is small
 * (s = T / c); under a constant engine torque T_e the slip settles (time constant
 * 1 / (c (1/J_e + i^2/J_out))) and the output then accelerates as without slip,
 *   w_out' = i T_e / (J_out + i^2 J_e)                                    (make mb-test checks it).
 * A gear change is taken at the step whose inputs carry it (inputs are held over a step); the
 * slip then closes through T as a clutch would. The Jacobian D = -c [1 -i; -i i^2] in (w_a,
 * w_out) is exact (mb_spin_load). A gear input outside [-1/2, n + 1/2) or not a number refuses
 * the step (HS_E_INPUT): declare `input gear min=0 max=n`, whose signal map clamps it and
 * counts the clamp (`clamped`). */
#include "hs_mb_int.h"

static uint32_t check(const hs_mb_desc *D, const hs_mb_force *E, const char **why)
{
    const uint32_t bad = mb_shaft_check(D, E, why);
    if (bad != 0u) { return bad; }
    if (E->bc <= 0) { *why = "out= (the output shaft's body) is required"; return MB_K_OUT; }
    if ((E->tab == NULL) || (E->tab->n < 1) || (E->tab->n > HS_MB_MAX_TAB)) { *why = "1 to 32 ratios"; return MB_K_RATIOS; }
    for (int k = 0; k < E->tab->n; ++k) {
        if (!(hs_abs(E->tab->v[k]) > HS_R(0.0))) { *why = "a ratio must not be 0 (neutral is gear 0)"; return MB_K_RATIOS; }
    }
    if (!(E->c > HS_R(0.0))) { *why = "coupling c= must be > 0 (N m s/rad)"; return MB_K_C; }
    return 0u;
}

static int inputs(const hs_mb_desc *D, const hs_mb_force *E, const char *suffix[3])
{
    (void)D; (void)E;
    suffix[0] = ".gear (1)";
    return 1;
}

static int eval(const hs_mb_model *mb, int e, hs_real t, const hs_real *q, const hs_real *u,
                const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu)
{
    (void)t;
    const hs_mb_force *E = &mb->desc->forces[e];
    const int n = E->tab->n;
    const hs_real g = in[E->in0];
    if (!((g >= HS_R(-0.5)) && (g < ((hs_real)n + HS_R(0.5))))) { return HS_E_INPUT; }
    const int k = (int)(g + HS_R(0.5)); /* g + 1/2 >= 0: truncation is floor */
    if (k == 0) { return HS_OK; }        /* neutral: the shafts turn freely */
    const hs_real i = E->tab->v[k - 1], c = E->c;
    mb_spin s[2];
    hs_status rc = mb_spin_eval(mb, E->a.body, E->b.body, E->axis, q, u, &s[0]);
    if (rc == HS_OK) { rc = mb_spin_eval(mb, E->bc - 1, E->b.body, E->axis, q, u, &s[1]); }
    if (rc != HS_OK) { return rc; }
    const hs_real T = c * (s[0].w - (i * s[1].w));
    const hs_real tau[2] = {-T, i * T};
    const mb_spin_jac D = {{{-c, c * i, 0}, {c * i, -c * i * i, 0}, {0, 0, 0}}};
    mb_spin_load(mb, s, 2, tau, &D, f, fq, fu);
    return HS_OK;
}

const mb_force_elem mb_el_gearbox = {
    "gearbox", "HS_MB_GEARBOX", MB_K_A | MB_K_B | MB_K_AXIS | MB_K_IN | MB_K_OUT | MB_K_RATIOS | MB_K_C,
    MB_K_A | MB_K_AXIS | MB_K_IN | MB_K_OUT | MB_K_RATIOS | MB_K_C, check, inputs, eval, NULL,
    .passive = MB_NO, .spring = MB_NO, .hinge = MB_NO, .tire = MB_NO};
