/* hs_mb_el_motor.c - force element "motor": joint motor, scale * in0 on body a and the opposite on b: planar about z,
 * spatial about the hinge axis (hs_mb_rot.c). */
#include "hs_mb_int.h"

static int inputs(const hs_mb_desc *D, const hs_mb_force *E, const char *suffix[3])
{
    (void)D; (void)E;
    suffix[0] = ".tau (N m)";
    return 1;
}

static int eval(const hs_mb_model *mb, int e, hs_real t, const hs_real *q, const hs_real *u,
                const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu)
{
    (void)t;
    const hs_mb_force *E = &mb->desc->forces[e];
    if (mb->desc->dim == 3) { return mb_rot_force(mb, e, q, u, in, f, fq, fu); }
    const hs_real tau = E->scale * in[E->in0];
    mb_add_torque(mb, E->a.body, tau, f);
    mb_add_torque(mb, E->b.body, -tau, f);
    return HS_OK;
}

const mb_force_elem mb_el_motor = {
    "motor", "HS_MB_MOTOR", MB_K_A | MB_K_B | MB_K_JOINT | MB_K_IN | MB_K_SCALE | MB_K_AXIS | MB_K_AXIS_B,
    MB_K_A | MB_K_IN, mb_hinge_check, inputs, eval, NULL,
    .passive = MB_NO, .spring = MB_NO, .hinge = MB_YES, .tire = MB_NO};
