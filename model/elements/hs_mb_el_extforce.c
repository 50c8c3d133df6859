/* hs_mb_el_extforce.c - force element "extforce": force on point a from the inputs (ground frame): scale * in0..
 * (dim inputs), or scale * in0 * axis (one input) when axis is set. */
#include "hs_mb_int.h"

static uint32_t check(const hs_mb_desc *D, const hs_mb_force *E, const char **why)
{
    (void)D;
    if (E->a.body < 0) { *why = "must be a body (a load on ground does nothing)"; return MB_K_A; }
    if (hs_isfinite(mb_dot3(E->axis, E->axis)) == 0) { *why = "not a finite vector"; return MB_K_AXIS; }
    return 0u;
}

static int inputs(const hs_mb_desc *D, const hs_mb_force *E, const char *suffix[3])
{
    if (mb_is_zero3(E->axis) == 0) {
        suffix[0] = ".f (N)";
        return 1;
    }
    suffix[0] = ".fx (N)"; suffix[1] = ".fy (N)"; suffix[2] = ".fz (N)";
    return D->dim;
}

static int eval(const hs_mb_model *mb, int e, hs_real t, const hs_real *q, const hs_real *u,
                const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu)
{
    (void)fu;
    const hs_mb_force *E = &mb->desc->forces[e];
    const hs_mb_opnd oa = mb_op_point(&E->a);
    mb_pk ka;
    mb_point_kin(mb, &oa, t, q, u, &ka);
    const int one = (int)(!mb_is_zero3(E->axis));
    hs_real F[3];
    for (int i = 0; i < 3; ++i) {
        if (one != 0) { F[i] = E->scale * in[E->in0] * E->axis[i]; }
        else { F[i] = i < mb->desc->dim ? E->scale * in[E->in0 + i] : HS_R(0.0); }
    }
    mb_point_load(mb, &oa, &ka, q, F, f, fq);
    return HS_OK;
}

const mb_force_elem mb_el_extforce = {
    "extforce", "HS_MB_EXTFORCE", MB_K_A | MB_K_IN | MB_K_SCALE | MB_K_AXIS, MB_K_A,
    check, inputs, eval, NULL,
    .passive = MB_NO, .spring = MB_NO, .hinge = MB_NO, .tire = MB_NO};
