/* hs_mb_el_consttorque.c - force element "consttorque": a constant torque on body a: planar v[2] about z, spatial
 * v (N m, ground frame). Its work is not in the energy. */
#include "hs_mb_int.h"

static uint32_t check(const hs_mb_desc *D, const hs_mb_force *E, const char **why)
{
    const int a = E->a.body;
    if (a < 0 || (D->bodies[a].kind != HS_MB_PLANAR && D->bodies[a].kind != HS_MB_SPATIAL)) {
        *why = "must be a planar or spatial body";
        return MB_K_A;
    }
    return 0u;
}

static int eval(const hs_mb_model *mb, int e, hs_real t, const hs_real *q, const hs_real *u,
                const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu)
{
    (void)t; (void)u; (void)in; (void)fu;
    const hs_mb_force *E = &mb->desc->forces[e];
    mb_body_torque(mb, E->a.body, q, E->v, f, fq);
    return HS_OK;
}

const mb_force_elem mb_el_consttorque = {
    "consttorque", "HS_MB_CONSTTORQUE", MB_K_A | MB_K_TAU, MB_K_A | MB_K_TAU, check, NULL, eval, NULL,
    .passive = MB_NO, .spring = MB_NO, .hinge = MB_NO, .tire = MB_NO};
