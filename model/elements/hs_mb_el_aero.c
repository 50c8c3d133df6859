/* hs_mb_el_aero.c - force element "aero": aerodynamic drag and lift at point a (a vehicle's
 * centre of pressure) in still air. With v the point's ground-frame velocity and n the unit
 * lift axis (axis=, ground frame; default +y in 2-D, +z in 3-D):
 *   F = -1/2 rho CdA |v| v + 1/2 rho ClA |v|^2 n
 * CdA (cda=, m^2) is the drag area Cd A, ClA (cla=, m^2) the lift area (negative: downforce),
 * rho (rho=, kg/m^3) the air's density, 1.204 (dry air at 20 deg C, 1013 hPa) when not given.
 * dF/dv = -1/2 rho CdA (|v| I + v v^T / |v|) + rho ClA n v^T (the drag term's v v^T / |v| is
 * bounded by |v| and taken as 0 at rest). A dissipative force: no potential. */
#include "hs_mb_int.h"

/* Density of dry air at 20 deg C and 1013.25 hPa (kg/m^3), the default of rho=. */
#define AERO_RHO HS_R(1.204)

static uint32_t check(const hs_mb_desc *D, const hs_mb_force *E, const char **why)
{
    (void)D;
    if (E->a.body < 0) { *why = "must be a body (air on ground does nothing)"; return MB_K_A; }
    if (!(E->cda >= HS_R(0.0))) { *why = "drag area must be >= 0"; return MB_K_CDA; }
    if (!(E->rho >= HS_R(0.0))) { *why = "air density must be > 0"; return MB_K_RHO; }
    if ((mb_is_unit3(E->axis) == 0) && !((E->axis[0] == HS_R(0.0)) && (E->axis[1] == HS_R(0.0)) && (E->axis[2] == HS_R(0.0)))) {
        *why = "must be a unit vector"; return MB_K_AXIS;
    }
    return 0u;
}

static int eval(const hs_mb_model *mb, int e, hs_real t, const hs_real *q, const hs_real *u,
                const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu)
{
    (void)in;
    const hs_mb_force *E = &mb->desc->forces[e];
    const hs_mb_opnd oa = mb_op_point(&E->a), ob = mb_op_point(&E->b);
    mb_pk ka, kb;
    mb_point_kin(mb, &oa, t, q, u, &ka);
    mb_point_kin(mb, &ob, t, q, u, &kb);
    const hs_real rho = (E->rho > HS_R(0.0)) ? E->rho : AERO_RHO;
    const hs_real cd = HS_R(0.5) * rho * E->cda, cl = HS_R(0.5) * rho * E->cla;
    hs_real n[3] = {E->axis[0], E->axis[1], E->axis[2]};
    if ((n[0] == HS_R(0.0)) && (n[1] == HS_R(0.0)) && (n[2] == HS_R(0.0))) {
        n[(mb->desc->dim == 2) ? 1 : 2] = HS_R(1.0);
    }
    const hs_real *v = ka.v;
    const hs_real v2 = mb_dot3(v, v);
    const hs_real s = hs_sqrt(v2);
    /* v v^T / |v|: bounded by |v|, 0 at rest (where the drag and its derivative vanish) */
    const hs_real is = (s > HS_R(0.0)) ? (HS_R(1.0) / s) : HS_R(0.0);
    hs_real F[3], Fd[3][3], Fv[3][3];
    for (int i = 0; i < 3; ++i) {
        F[i] = (-cd * s * v[i]) + (cl * v2 * n[i]);
        for (int j = 0; j < 3; ++j) {
            Fd[i][j] = HS_R(0.0);
            Fv[i][j] = (-cd * (((i == j) ? s : HS_R(0.0)) + (v[i] * v[j] * is))) + (HS_R(2.0) * cl * n[i] * v[j]);
        }
    }
    mb_pair_force(mb, &oa, &ob, &ka, &kb, q, u, F, Fd, Fv, f, fq, fu);
    return HS_OK;
}

const mb_force_elem mb_el_aero = {
    "aero", "HS_MB_AERO", MB_K_A | MB_K_CDA | MB_K_CLA | MB_K_RHO | MB_K_AXIS, MB_K_A | MB_K_CDA, check, NULL, eval, NULL,
    .passive = MB_NO, .spring = MB_NO, .hinge = MB_NO, .tire = MB_NO};
