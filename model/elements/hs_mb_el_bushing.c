/* hs_mb_el_bushing.c - force element "bushing": translational (and rotational) spring-damper, F = -k (a - b) - c (a - b)'
 * on a; kr, cr: planar a rotational spring-damper, spatial the quaternion bushing (hs_mb_rot.c). */
#include "hs_mb_int.h"

static uint32_t check(const hs_mb_desc *D, const hs_mb_force *E, const char **why)
{
    const int a = E->a.body, b = E->b.body;
    if (a < 0 && b < 0) { *why = "a and b are both on ground"; return MB_K_B; }
    if (!(E->k >= HS_R(0.0))) { *why = "stiffness must be >= 0"; return MB_K_K; }
    if (!(E->c >= HS_R(0.0))) { *why = "damping must be >= 0"; return MB_K_C; }
    if (!(E->kr >= HS_R(0.0))) { *why = "rotational stiffness must be >= 0"; return MB_K_KR; }
    if (!(E->cr >= HS_R(0.0))) { *why = "rotational damping must be >= 0"; return MB_K_CR; }
    if (E->kr == HS_R(0.0) && E->cr == HS_R(0.0)) { return 0u; }
    if (D->dim == 2) {
        if (mb_planar_or_ground(D, a) == 0) { *why = "kr/cr need a planar body or ground"; return MB_K_A; }
        if (mb_planar_or_ground(D, b) == 0) { *why = "kr/cr need a planar body or ground"; return MB_K_B; }
        return 0u;
    }
    /* spatial: both carry a quaternion (ground: identity), in either order */
    if (a >= 0 && D->bodies[a].kind != HS_MB_SPATIAL) { *why = "kr/cr need a spatial body or ground"; return MB_K_A; }
    if (b >= 0 && D->bodies[b].kind != HS_MB_SPATIAL) { *why = "must be a spatial body or ground"; return MB_K_B; }
    if (a == b) { *why = "must differ from a"; return MB_K_B; }
    return 0u;
}

static int eval(const hs_mb_model *mb, int e, hs_real t, const hs_real *q, const hs_real *u,
                const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu)
{
    const hs_mb_force *E = &mb->desc->forces[e];
    const hs_mb_opnd oa = mb_op_point(&E->a), ob = mb_op_point(&E->b);
    mb_pk ka, kb;
    mb_point_kin(mb, &oa, t, q, u, &ka);
    mb_point_kin(mb, &ob, t, q, u, &kb);
    hs_real d[3], dv[3], F[3], Fd[3][3], Fv[3][3];
    for (int i = 0; i < 3; ++i) { d[i] = ka.r[i] - kb.r[i]; dv[i] = ka.v[i] - kb.v[i]; }
    for (int i = 0; i < 3; ++i) {
        F[i] = -E->k * d[i] - E->c * dv[i];
        for (int j = 0; j < 3; ++j) {
            Fd[i][j] = (i == j) ? -E->k : HS_R(0.0);
            Fv[i][j] = (i == j) ? -E->c : HS_R(0.0);
        }
    }
    mb_pair_force(mb, &oa, &ob, &ka, &kb, q, u, F, Fd, Fv, f, fq, fu);
    if (E->kr != HS_R(0.0) || E->cr != HS_R(0.0)) {
        if (mb->desc->dim == 2) {
            mb_rot_spring(mb, E->a.body, E->b.body, E->kr, E->cr, HS_R(0.0), q, u, f, fq, fu);
        } else {
            (void)mb_rot_force(mb, e, q, u, in, f, fq, fu); /* cannot fail for a bushing */
        }
    }
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
    hs_real W = V + HS_R(0.5) * E->k * mb_dot3(d, d);
    if (E->kr != HS_R(0.0)) {
        if (mb->desc->dim == 3) {
            W += mb_rot_potential(mb, e, q);
        } else {
            const hs_real th = (E->a.body >= 0 ? q[mb->qoff[E->a.body] + 2] : HS_R(0.0))
                             - (E->b.body >= 0 ? q[mb->qoff[E->b.body] + 2] : HS_R(0.0));
            W += HS_R(0.5) * E->kr * th * th;
        }
    }
    return W;
}

const mb_force_elem mb_el_bushing = {
    "bushing", "HS_MB_BUSHING", MB_K_A | MB_K_B | MB_K_K | MB_K_C | MB_K_KR | MB_K_CR, MB_K_A,
    check, NULL, eval, potential,
    .passive = MB_YES, .spring = MB_NO, .hinge = MB_NO, .tire = MB_NO};
