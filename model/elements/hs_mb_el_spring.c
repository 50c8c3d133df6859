/* hs_mb_el_spring.c - force element "spring": point-to-point spring-damper along the line of its points,
 * F = -(k (l - l0) + c l') e on a, +F on b (hs_mb.h HS_MB_SPRING). */
#include "hs_mb_int.h"

static uint32_t check(const hs_mb_desc *D, const hs_mb_force *E, const char **why)
{
    (void)D;
    if (E->a.body < 0 && E->b.body < 0) { *why = "a and b are both on ground"; return MB_K_B; }
    if (!(E->k >= HS_R(0.0))) { *why = "stiffness must be >= 0"; return MB_K_K; }
    if (!(E->c >= HS_R(0.0))) { *why = "damping must be >= 0"; return MB_K_C; }
    if (!(E->l0 >= HS_R(0.0))) { *why = "rest length must be >= 0"; return MB_K_L0; }
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
    hs_real d[3], dv[3], F[3], Fd[3][3], Fv[3][3];
    for (int i = 0; i < 3; ++i) { d[i] = ka.r[i] - kb.r[i]; dv[i] = ka.v[i] - kb.v[i]; }
    const hs_real l = hs_sqrt(mb_dot3(d, d));
    if (!(l > HS_R(0.0))) { return HS_E_MODEL; } /* direction undefined at zero length */
    hs_real e3[3], pv[3];
    for (int i = 0; i < 3; ++i) { e3[i] = d[i] / l; }
    const hs_real ld = mb_dot3(e3, dv);
    const hs_real s = E->k * (l - E->l0) + E->c * ld;
    for (int i = 0; i < 3; ++i) {
        F[i] = -s * e3[i];
        pv[i] = (dv[i] - ld * e3[i]) / l; /* dl'/dd = (I - e e^T) d' / l */
    }
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            const hs_real P = ((i == j) ? HS_R(1.0) : HS_R(0.0)) - e3[i] * e3[j];
            Fd[i][j] = -e3[i] * (E->k * e3[j] + E->c * pv[j]) - s * P / l;
            Fv[i][j] = -E->c * e3[i] * e3[j];
        }
    }
    mb_pair_force(mb, &oa, &ob, &ka, &kb, q, u, F, Fd, Fv, f, fq, fu);
    return HS_OK;
}

static hs_real potential(const hs_mb_model *mb, int e, hs_real t, const hs_real *q, const hs_real *in,
                         hs_real V)
{
    (void)in;
    const hs_mb_force *E = &mb->desc->forces[e];
    const hs_mb_opnd oa = mb_op_point(&E->a), ob = mb_op_point(&E->b);
    mb_pk ka, kb;
    mb_point_kin(mb, &oa, t, q, NULL, &ka);
    mb_point_kin(mb, &ob, t, q, NULL, &kb);
    hs_real d[3];
    for (int i = 0; i < 3; ++i) { d[i] = ka.r[i] - kb.r[i]; }
    const hs_real x = hs_sqrt(mb_dot3(d, d)) - E->l0;
    return V + HS_R(0.5) * E->k * x * x;
}

const mb_force_elem mb_el_spring = {
    "spring", "HS_MB_SPRING", MB_K_A | MB_K_B | MB_K_K | MB_K_C | MB_K_L0, MB_K_A,
    check, NULL, eval, potential,
    .passive = MB_YES, .spring = MB_YES, .hinge = MB_NO, .tire = MB_NO};
