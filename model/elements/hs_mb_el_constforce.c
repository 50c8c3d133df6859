/* hs_mb_el_constforce.c - force element "constforce": a constant force v (N, ground frame) on point a; its potential
 * -v . r_a counts in the energy. */
#include "hs_mb_int.h"

static uint32_t check(const hs_mb_desc *D, const hs_mb_force *E, const char **why)
{
    (void)D;
    if (E->a.body < 0) { *why = "must be a body (a load on ground does nothing)"; return MB_K_A; }
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
    mb_point_load(mb, &oa, &ka, q, E->v, f, fq);
    return HS_OK;
}

static hs_real potential(const hs_mb_model *mb, int e, hs_real t, const hs_real *q, const hs_real *in,
                         hs_real V)
{
    (void)in;
    const hs_mb_force *E = &mb->desc->forces[e];
    const hs_mb_opnd oa = mb_op_point(&E->a);
    mb_pk ka;
    mb_point_kin(mb, &oa, t, q, NULL, &ka);
    return V - mb_dot3(E->v, ka.r);
}

const mb_force_elem mb_el_constforce = {
    "constforce", "HS_MB_CONSTFORCE", MB_K_A | MB_K_F, MB_K_A | MB_K_F, check, NULL, eval, potential,
    .passive = MB_NO, .spring = MB_NO, .hinge = MB_NO, .tire = MB_NO};
