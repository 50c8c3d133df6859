/* hs_mb_el_exttorque.c - force element "exttorque": torque on body a from the inputs: planar scale * in0 about z,
 * spatial scale * in0..in0+2 (ground frame). */
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

static int inputs(const hs_mb_desc *D, const hs_mb_force *E, const char *suffix[3])
{
    if (E->a.body >= 0 && D->bodies[E->a.body].kind == HS_MB_PLANAR) {
        suffix[0] = ".tau (N m)";
        return 1;
    }
    suffix[0] = ".tx (N m)"; suffix[1] = ".ty (N m)"; suffix[2] = ".tz (N m)";
    return 3;
}

static int eval(const hs_mb_model *mb, int e, hs_real t, const hs_real *q, const hs_real *u,
                const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu)
{
    (void)t; (void)u; (void)fu;
    const hs_mb_force *E = &mb->desc->forces[e];
    hs_real tau[3] = {0, 0, 0};
    if (mb->desc->bodies[E->a.body].kind == HS_MB_PLANAR) {
        tau[2] = E->scale * in[E->in0];
    } else {
        for (int i = 0; i < 3; ++i) { tau[i] = E->scale * in[E->in0 + i]; }
    }
    mb_body_torque(mb, E->a.body, q, tau, f, fq);
    return HS_OK;
}

const mb_force_elem mb_el_exttorque = {
    "exttorque", "HS_MB_EXTTORQUE", MB_K_A | MB_K_IN | MB_K_SCALE, MB_K_A, check, inputs, eval, NULL,
    .passive = MB_NO, .spring = MB_NO, .hinge = MB_NO, .tire = MB_NO};
