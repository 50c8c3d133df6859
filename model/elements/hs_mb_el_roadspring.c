/* hs_mb_el_roadspring.c - force element "roadspring": a spring-damper along the unit ground axis n between point a
 * and the anchor b + z n whose offset z = scale * in0 is an input (a road height under a tire):
 * x = n.(a - b) - z - l0, F = -(k x + c n.(a - b)') n on a, the opposite on b. The input is
 * held over a step, so z' = 0; the potential 1/2 k x^2 counts in the energy output. */
#include "hs_mb_int.h"

static uint32_t check(const hs_mb_desc *D, const hs_mb_force *E, const char **why)
{
    (void)D;
    if (E->a.body < 0 && E->b.body < 0) { *why = "a and b are both on ground"; return MB_K_B; }
    if (mb_is_unit3(E->axis) == 0) { *why = "must be a unit vector"; return MB_K_AXIS; }
    if (!(E->k >= HS_R(0.0))) { *why = "stiffness must be >= 0"; return MB_K_K; }
    if (!(E->c >= HS_R(0.0))) { *why = "damping must be >= 0"; return MB_K_C; }
    return 0u;
}

static int inputs(const hs_mb_desc *D, const hs_mb_force *E, const char *suffix[3])
{
    (void)D; (void)E;
    suffix[0] = ".z (m)";
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
    const hs_real *n = E->axis;
    hs_real d[3], dv[3], F[3], Fd[3][3], Fv[3][3];
    for (int i = 0; i < 3; ++i) { d[i] = ka.r[i] - kb.r[i]; dv[i] = ka.v[i] - kb.v[i]; }
    const hs_real x = mb_dot3(n, d) - E->scale * in[E->in0] - E->l0;
    const hs_real s = E->k * x + E->c * mb_dot3(n, dv);
    for (int i = 0; i < 3; ++i) {
        F[i] = -s * n[i];
        for (int j = 0; j < 3; ++j) {
            Fd[i][j] = -E->k * n[i] * n[j];
            Fv[i][j] = -E->c * n[i] * n[j];
        }
    }
    mb_pair_force(mb, &oa, &ob, &ka, &kb, q, u, F, Fd, Fv, f, fq, fu);
    return HS_OK;
}

static hs_real potential(const hs_mb_model *mb, int e, hs_real t, const hs_real *q, const hs_real *in,
                         hs_real V)
{
    const hs_mb_force *E = &mb->desc->forces[e];
    const hs_mb_opnd oa = mb_op_point(&E->a), ob = mb_op_point(&E->b);
    mb_pk ka, kb;
    mb_point_kin(mb, &oa, t, q, NULL, &ka);
    mb_point_kin(mb, &ob, t, q, NULL, &kb);
    hs_real d[3];
    for (int i = 0; i < 3; ++i) { d[i] = ka.r[i] - kb.r[i]; }
    const hs_real z = in != NULL ? E->scale * in[E->in0] : HS_R(0.0);
    const hs_real x = mb_dot3(E->axis, d) - z - E->l0;
    return V + HS_R(0.5) * E->k * x * x;
}

const mb_force_elem mb_el_roadspring = {
    "roadspring", "HS_MB_ROADSPRING",
    MB_K_A | MB_K_B | MB_K_AXIS | MB_K_K | MB_K_C | MB_K_L0 | MB_K_IN | MB_K_SCALE, MB_K_A | MB_K_AXIS | MB_K_IN,
    check, inputs, eval, potential,
    .passive = MB_NO, .spring = MB_NO, .hinge = MB_NO, .tire = MB_NO};
