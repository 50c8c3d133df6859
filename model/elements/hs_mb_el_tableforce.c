/* hs_mb_el_tableforce.c - force element "tableforce": force tab(t) * axis (N, unit ground axis) on point a, tab
 * piecewise linear in t and held at its ends. Its work is not in the energy. */
#include "hs_mb_int.h"

static uint32_t check(const hs_mb_desc *D, const hs_mb_force *E, const char **why)
{
    (void)D;
    if (E->a.body < 0) { *why = "must be a body (a load on ground does nothing)"; return MB_K_A; }
    if (mb_is_unit3(E->axis) == 0) { *why = "must be a unit vector"; return MB_K_AXIS; }
    if (E->tab == NULL || E->tab->n < 1 || E->tab->n > HS_MB_MAX_TAB) { *why = "a table needs t= and v= (1 to 32 values)"; return MB_K_T; }
    for (int i = 1; i < E->tab->n; ++i) {
        if (!(E->tab->t[i] > E->tab->t[i - 1])) { *why = "times must increase strictly"; return MB_K_T; }
    }
    return 0u;
}

static int eval(const hs_mb_model *mb, int e, hs_real t, const hs_real *q, const hs_real *u,
                const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu)
{
    (void)in; (void)fu;
    const hs_mb_force *E = &mb->desc->forces[e];
    const hs_mb_opnd oa = mb_op_point(&E->a);
    mb_pk ka;
    mb_point_kin(mb, &oa, t, q, u, &ka);
    const hs_real s = mb_table_eval(E->tab, t);
    hs_real F[3];
    for (int i = 0; i < 3; ++i) { F[i] = s * E->axis[i]; }
    mb_point_load(mb, &oa, &ka, q, F, f, fq);
    return HS_OK;
}

const mb_force_elem mb_el_tableforce = {
    "tableforce", "HS_MB_TABLEFORCE", MB_K_A | MB_K_AXIS | MB_K_T | MB_K_V, MB_K_A | MB_K_AXIS | MB_K_T | MB_K_V,
    check, NULL, eval, NULL,
    .passive = MB_NO, .spring = MB_NO, .hinge = MB_NO, .tire = MB_NO};
