/* hs_mb_el_tabletorque.c - force element "tabletorque": torque tab(t) on body a: planar about z, spatial about the
 * unit ground axis; tab piecewise linear in t, held at its ends. Its work is not in the energy. */
#include "hs_mb_int.h"

static uint32_t check(const hs_mb_desc *D, const hs_mb_force *E, const char **why)
{
    const int a = E->a.body;
    if (a < 0 || (D->bodies[a].kind != HS_MB_PLANAR && D->bodies[a].kind != HS_MB_SPATIAL)) {
        *why = "must be a planar or spatial body";
        return MB_K_A;
    }
    if (D->bodies[a].kind == HS_MB_SPATIAL && mb_is_unit3(E->axis) == 0) { *why = "a spatial body needs a unit axis="; return MB_K_AXIS; }
    if (E->tab == NULL || E->tab->n < 1 || E->tab->n > HS_MB_MAX_TAB) { *why = "a table needs t= and v= (1 to 32 values)"; return MB_K_T; }
    for (int i = 1; i < E->tab->n; ++i) {
        if (!(E->tab->t[i] > E->tab->t[i - 1])) { *why = "times must increase strictly"; return MB_K_T; }
    }
    return 0u;
}

static int eval(const hs_mb_model *mb, int e, hs_real t, const hs_real *q, const hs_real *u,
                const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu)
{
    (void)u; (void)in; (void)fu;
    const hs_mb_force *E = &mb->desc->forces[e];
    const hs_real s = mb_table_eval(E->tab, t);
    hs_real tau[3] = {0, 0, 0};
    if (mb->desc->bodies[E->a.body].kind == HS_MB_PLANAR) {
        tau[2] = s;
    } else {
        for (int i = 0; i < 3; ++i) { tau[i] = s * E->axis[i]; }
    }
    mb_body_torque(mb, E->a.body, q, tau, f, fq);
    return HS_OK;
}

const mb_force_elem mb_el_tabletorque = {
    "tabletorque", "HS_MB_TABLETORQUE", MB_K_A | MB_K_AXIS | MB_K_T | MB_K_V, MB_K_A | MB_K_T | MB_K_V,
    check, NULL, eval, NULL,
    .passive = MB_NO, .spring = MB_NO, .hinge = MB_NO, .tire = MB_NO};
