/* hs_mb_el_inforce.c - force element "inforce": an actuator between two points: scale * in0 (N) along
 * e = (a - b)/|a - b| on a and the opposite on b (positive pushes them apart), with
 * dF/dd = s (I - e e^T)/|a - b|. Its work is not in the energy. */
#include "hs_mb_int.h"

static uint32_t check(const hs_mb_desc *D, const hs_mb_force *E, const char **why)
{
    (void)D;
    if (E->a.body < 0 && E->b.body < 0) { *why = "a and b are both on ground"; return MB_K_B; }
    return 0u;
}

static int inputs(const hs_mb_desc *D, const hs_mb_force *E, const char *suffix[3])
{
    (void)D; (void)E;
    suffix[0] = ".f (N)";
    return 1;
}

static int eval(const hs_mb_model *mb, int e, hs_real t, const hs_real *q, const hs_real *u,
                const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu)
{
    const hs_mb_force *E = &mb->desc->forces[e];
    const hs_mb_opnd oa = mb_op_point(&E->a), ob = mb_op_point(&E->b);
    mb_pk ka, kb;
    mb_point_kin(mb, &oa, t, q, u, &ka);
    mb_point_kin(mb, &ob, t, q, u, &kb);
    hs_real d[3], F[3], Fd[3][3], Fv[3][3];
    for (int i = 0; i < 3; ++i) { d[i] = ka.r[i] - kb.r[i]; }
    const hs_real l = hs_sqrt(mb_dot3(d, d));
    if (!(l > HS_R(0.0))) { return HS_E_MODEL; } /* direction undefined where the points meet */
    const hs_real s = E->scale * in[E->in0];
    hs_real e3[3];
    for (int i = 0; i < 3; ++i) { e3[i] = d[i] / l; F[i] = s * e3[i]; }
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            const hs_real P = ((i == j) ? HS_R(1.0) : HS_R(0.0)) - e3[i] * e3[j];
            Fd[i][j] = s * P / l;
            Fv[i][j] = HS_R(0.0);
        }
    }
    mb_pair_force(mb, &oa, &ob, &ka, &kb, q, u, F, Fd, Fv, f, fq, fu);
    return HS_OK;
}

const mb_force_elem mb_el_inforce = {
    "inforce", "HS_MB_INFORCE", MB_K_A | MB_K_B | MB_K_IN | MB_K_SCALE, MB_K_A | MB_K_B | MB_K_IN,
    check, inputs, eval, NULL,
    .passive = MB_NO, .spring = MB_NO, .hinge = MB_NO, .tire = MB_NO};
