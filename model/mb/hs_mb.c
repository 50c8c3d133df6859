/* hs_mb.c - compiling a multibody description into an hs_model type, the type's functions,
 * outputs and joint reactions. */
#include "hs_mb_int.h"
#include "hs_linsys.h"
#include "hs_math.h"

#define MB(m) ((const hs_mb_model *)(m)->desc)

/* ---- the model type's functions ---- */

/* Translational coordinates of a body kind. */
static int trans_count(hs_mb_body_kind k)
{
    int n = 3;
    if (k == HS_MB_POINT2 || k == HS_MB_PLANAR) { n = 2; }
    return n;
}

static int mb_check(const hs_model *m)
{
    return (m->desc && MB(m)->desc) ? HS_OK : HS_E_MODEL_PARAM;
}

static void initial_state(const hs_mb_model *mb, hs_real *q, hs_real *u)
{
    const hs_mb_desc *D = mb->desc;
    for (int b = 0; b < D->nbodies; ++b) {
        const hs_mb_body *B = &D->bodies[b];
        hs_real *x = &q[mb->qoff[b]], *v = &u[mb->qoff[b]];
        const int nt = trans_count(B->kind);
        for (int i = 0; i < nt; ++i) { x[i] = B->pos[i]; v[i] = B->vel[i]; }
        if (B->kind == HS_MB_PLANAR) {
            x[2] = B->rot[0];
            v[2] = B->omega[2];
        } else if (B->kind == HS_MB_SPATIAL) {
            /* p' = 1/2 p * (0, w_b) */
            const hs_real *p = B->rot, *w = B->omega;
            for (int i = 0; i < 4; ++i) { x[3 + i] = p[i]; }
            v[3] = -HS_R(0.5) * (p[1] * w[0] + p[2] * w[1] + p[3] * w[2]);
            v[4] = HS_R(0.5) * (p[0] * w[0] + p[2] * w[2] - p[3] * w[1]);
            v[5] = HS_R(0.5) * (p[0] * w[1] + p[3] * w[0] - p[1] * w[2]);
            v[6] = HS_R(0.5) * (p[0] * w[2] + p[1] * w[1] - p[2] * w[0]);
        } else {
            /* nothing else to do for the other kinds */
        }
    }
}

int hs_mb_fn_initial(const hs_model *m, hs_real t0, hs_real *q, hs_real *u, hs_real *z)
{
    (void)t0;
    initial_state(MB(m), q, u);
    /* the elements' states start at rest: tread undeflected, brake unloaded */
    for (int i = 0; (z != NULL) && i < MB(m)->nz; ++i) { z[i] = HS_R(0.0); }
    return HS_OK;
}

int hs_mb_fn_zdot(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, const hs_real *z,
                  const hs_real *in, hs_real *zd)
{
    return mb_zdot(MB(m), t, q, u, z, in, zd);
}

/* M of any description (the general path). */
static int mass_general(const hs_mb_model *mb, const hs_real *q, hs_real *M)
{
    const hs_mb_desc *D = mb->desc;
    mb_qq_zero(mb, M);
    for (int b = 0; b < D->nbodies; ++b) {
        const hs_mb_body *B = &D->bodies[b];
        const int nt = trans_count(B->kind);
        for (int i = 0; i < nt; ++i) { mb_qq_add(mb, M, b, i, b, i, B->mass); }
        if (B->kind == HS_MB_PLANAR) {
            mb_qq_add(mb, M, b, 2, b, 2, B->inertia[2]);
        } else if (B->kind == HS_MB_SPATIAL) {
            const hs_real *p = &q[mb->qoff[b] + 3];
            const hs_real kk = HS_R(4.0) * (B->inertia[0] + B->inertia[1] + B->inertia[2]) / HS_R(3.0);
            hs_real G[3][4];
            mb_quat_G(p, G);
            for (int i = 0; i < 4; ++i) {
                for (int j = 0; j < 4; ++j) {
                    hs_real a = HS_R(0.0);
                    for (int r = 0; r < 3; ++r) { a += G[r][i] * B->inertia[r] * G[r][j]; }
                    mb_qq_add(mb, M, b, 3 + i, b, 3 + j, HS_R(4.0) * a + kk * p[i] * p[j]);
                }
            }
        } else {
            /* nothing else to do for the other kinds */
        }
    }
    return HS_OK;
}

int hs_mb_fn_mass(const hs_model *m, hs_real t, const hs_real *q, hs_real *M)
{
    (void)t;
    const hs_mb_model *mb = MB(m);
    /* the fast path straight from the hook (the general one in its own function: no frame here) */
    if ((mb->fast & HS_MB_FAST_MASS) != 0) { return mb_fast_mass(mb, M); }
    return mass_general(mb, q, M);
}

int hs_mb_fn_force(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                    const hs_real *z, const hs_real *in, hs_real *f)
{
    const hs_mb_model *mb = MB(m);
    /* springs only: the planar path straight from the hook */
    if ((mb->fast & HS_MB_FAST_FORCES) != 0) { return mb_fast_forces(mb, t, q, u, f, NULL, NULL); }
    return mb_forces_z(mb, t, q, u, z, in, f, NULL, NULL);
}

int hs_mb_fn_force_jac(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                        const hs_real *z, const hs_real *in, hs_real *fq, hs_real *fu)
{
    const hs_mb_model *mb = MB(m);
    if ((mb->fast & HS_MB_FAST_FORCES) != 0) { return mb_fast_forces(mb, t, q, u, NULL, fq, fu); }
    return mb_forces_z(mb, t, q, u, z, in, NULL, fq, fu);
}

int hs_mb_fn_constraint(const hs_model *m, hs_real t, const hs_real *q, hs_real *g,
                            hs_real *G, hs_real *gt)
{
    const hs_mb_model *mb = MB(m);
    /* the planar path straight from the hook: one call less per evaluation */
    if ((mb->fast & HS_MB_FAST_ROWS) != 0 && mb->packed == mb->fast_packed) {
        return mb_fast_constraint(mb, t, q, g, G, gt);
    }
    return mb_constraint(mb, t, q, g, G, gt);
}

int hs_mb_fn_gamma(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                       hs_real *gam)
{
    const hs_mb_model *mb = MB(m);
    if ((mb->fast & HS_MB_FAST_ROWS) != 0) { return mb_fast_gamma(mb, t, q, u, gam); }
    return mb_gamma(mb, t, q, u, gam);
}

int hs_mb_fn_curvature(const hs_model *m, hs_real t, const hs_real *q, const hs_real *lambda,
                           hs_real *K)
{
    const hs_mb_model *mb = MB(m);
    if ((mb->fast & HS_MB_FAST_ROWS) != 0) { return mb_fast_curvature(mb, t, q, lambda, K); }
    return mb_curvature(mb, t, q, lambda, K);
}

int hs_mb_fn_constraint_all(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                            const hs_real *lambda, hs_real *G, hs_real *gam, hs_real *K)
{
    const hs_mb_model *mb = MB(m);
    if ((mb->fast & HS_MB_FAST_ROWS) != 0 && mb->packed == mb->fast_packed) {
        return mb_fast_all(mb, t, q, u, lambda, G, gam, K);
    }
    int rc = mb_constraint(mb, t, q, NULL, G, NULL);
    /* MISRA Ref 10.4.1 [int code vs the enumerator naming it] */
    if (rc == HS_OK) { rc = mb_gamma(mb, t, q, u, gam); }
    /* MISRA Ref 10.4.1 [int code vs the enumerator naming it] */
    if ((rc == HS_OK) && (lambda != NULL) && (K != NULL)) { rc = mb_curvature(mb, t, q, lambda, K); }
    return rc;
}

int hs_mb_fn_masks(const hs_model *m, int *qq_mask, int *cq_mask)
{
    const hs_mb_model *mb = MB(m);
    const int all = HS_MB_FAST_ROWS | HS_MB_FAST_FORCES | HS_MB_FAST_MASS;
    /* only the fast path's entries are known; the hook is set only with it (else: all may be nonzero) */
    if ((mb->fast & all) == all) { mb_fast_masks(mb, qq_mask, cq_mask); }
    return HS_OK;
}

static int mb_blocks_fn(const hs_model *m, hs_blocks *b, int *buf, int nbuf)
{
    (void)buf; (void)nbuf;
    *b = MB(m)->blocks; /* the pattern lives in the compiled model, not in the caller's buffer */
    return HS_OK;
}

/* Each row's compliance and damping: its joint's where declared, -1 (the stepper's) elsewhere,
 * the quaternion norm rows included (they are rigid by construction). */
int hs_mb_fn_compliance(const hs_model *m, hs_real *c, hs_real *d)
{
    const hs_mb_model *mb = MB(m);
    for (int r = 0; r < mb->nc; ++r) {
        const int j = mb->rows[r].joint;
        c[r] = HS_R(-1.0);
        d[r] = HS_R(-1.0);
        if ((j >= 0) && (mb->desc->joints[j].has_comp != 0)) {
            c[r] = mb->desc->joints[j].compliance;
            d[r] = mb->desc->joints[j].damping;
        }
    }
    return HS_OK;
}

hs_real hs_mb_energy(const hs_mb_model *mb, const hs_real *q, const hs_real *u)
{
    const hs_mb_desc *D = mb->desc;
    hs_real T = HS_R(0.0);
    for (int b = 0; b < D->nbodies; ++b) {
        const hs_mb_body *B = &D->bodies[b];
        const hs_real *x = &q[mb->qoff[b]], *v = &u[mb->qoff[b]];
        const int nt = trans_count(B->kind);
        for (int i = 0; i < nt; ++i) { T += HS_R(0.5) * B->mass * v[i] * v[i]; }
        if (B->kind == HS_MB_PLANAR) {
            T += HS_R(0.5) * B->inertia[2] * v[2] * v[2];
        } else if (B->kind == HS_MB_SPATIAL) {
            /* 1/2 w_b^T J w_b with w_b = 2 G(p) p' (the augmentation vanishes on p.p' = 0) */
            hs_real G[3][4];
            mb_quat_G(&x[3], G);
            for (int r = 0; r < 3; ++r) {
                const hs_real w = HS_R(2.0) * (G[r][0] * v[3] + G[r][1] * v[4] + G[r][2] * v[5] + G[r][3] * v[6]);
                T += HS_R(0.5) * B->inertia[r] * w * w;
            }
        } else {
            /* nothing else to do for the other kinds */
        }
    }
    return T + mb_potential(mb, HS_R(0.0), q, NULL);
}

int hs_mb_fn_energy(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                        const hs_real *z, hs_real *E)
{
    (void)z;
    const hs_mb_model *mb = MB(m);
    *E = hs_mb_energy(mb, q, u) - mb_potential(mb, HS_R(0.0), q, NULL) + mb_potential(mb, t, q, NULL);
    return HS_OK;
}


/* Signals of one output line (names built at compile time in the same order). */
static int line_count(const hs_mb_model *mb, hs_mb_output_kind kind, int index)
{
    const hs_mb_desc *D = mb->desc;
    switch (kind) {
    case HS_MB_OUT_POS:
    case HS_MB_OUT_VEL: {
        const hs_mb_body_kind k = D->bodies[index].kind;
        if (k == HS_MB_SPATIAL) { return kind == HS_MB_OUT_POS ? 7 : 6; }
        return hs_mb_body_nq(k);
    }
    case HS_MB_OUT_ACC: {
        const hs_mb_body_kind k = D->bodies[index].kind;
        return k == HS_MB_SPATIAL ? -1 : hs_mb_body_nq(k);
    }
    case HS_MB_OUT_COORD: {
        const hs_mb_joint *J = &D->joints[index];
        return mb_joint_elems[J->kind]->coord_kind(D, J) >= 0 ? 1 : -1;
    }
    case HS_MB_OUT_ENERGY: return 1;
    case HS_MB_OUT_TIRE: return D->forces[index].kind == HS_MB_TIRE ? 6 : -1;
    case HS_MB_OUT_VEHICLE: return D->bodies[index].kind == HS_MB_SPATIAL ? 6 : -1;
    default: return -1;
    }
}

/* vx, vy, yaw rate, ax, ay, beta of spatial body b (HS_MB_OUT_VEHICLE) into y. */
static int vehicle_values(const hs_mb_model *mb, int b, hs_real t, const hs_real *q, const hs_real *u,
                          const hs_real *z, const hs_real *in, hs_real *y)
{
    const hs_mb_desc *D = mb->desc;
    const hs_real *p = &q[mb->qoff[b] + 3], *v = &u[mb->qoff[b]];
    /* body axes in ground: R(p) e_x, R(p) e_y (|p| = 1 on the manifold); yaw rate = 2 G(p) p' . e_z */
    const hs_real n2 = p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3];
    const hs_real ex[3] = {(p[0] * p[0] + p[1] * p[1] - p[2] * p[2] - p[3] * p[3]) / n2,
                           HS_R(2.0) * (p[1] * p[2] + p[0] * p[3]) / n2, HS_R(2.0) * (p[1] * p[3] - p[0] * p[2]) / n2};
    const hs_real ey[3] = {HS_R(2.0) * (p[1] * p[2] - p[0] * p[3]) / n2,
                           (p[0] * p[0] - p[1] * p[1] + p[2] * p[2] - p[3] * p[3]) / n2, HS_R(2.0) * (p[2] * p[3] + p[0] * p[1]) / n2};
    hs_real G[3][4];
    mb_quat_G(p, G);
    hs_real F[3] = {HS_R(0.0), HS_R(0.0), HS_R(0.0)}, m = HS_R(0.0);
    for (int i = 0; i < D->nbodies; ++i) { m += D->bodies[i].mass; }
    for (int e = 0; e < D->nforces; ++e) {
        if (D->forces[e].kind != HS_MB_TIRE) { continue; }
        hs_real val[HS_MB_TIRE_NVAL];
        const int rc = hs_mb_tire_probe(mb, e, t, q, u, z, in, val);
        /* MISRA Ref 10.4.1 [int code vs the enumerator naming it] */
        if (rc != HS_OK) { return rc; }
        for (int i = 0; i < 3; ++i) { F[i] += val[HS_MB_TIRE_FG + i]; }
    }
    y[0] = mb_dot3(ex, v);
    y[1] = mb_dot3(ey, v);
    y[2] = HS_R(2.0) * (G[2][0] * v[3] + G[2][1] * v[4] + G[2][2] * v[5] + G[2][3] * v[6]) / n2;
    y[3] = mb_dot3(ex, F) / m;
    y[4] = mb_dot3(ey, F) / m;
    y[5] = (y[0] * y[0] + y[1] * y[1] > HS_R(0.01)) ? hs_atan2(y[1], y[0]) : HS_R(0.0);
    return HS_OK;
}

static int output_count(const hs_mb_model *mb, const hs_mb_output *o)
{
    const int n = line_count(mb, o->kind, o->index);
    if (o->sig == NULL || n < 0) { return n; }
    return (o->comp >= 0 && o->comp < n) ? 1 : -1;
}

/* 1 when an element's potential reads an input (the energy output then uses the inputs). */
static int input_potential(const hs_mb_desc *D)
{
    int any = 0;
    for (int e = 0; e < D->nforces; ++e) {
        const mb_force_elem *el = mb_force_elems[D->forces[e].kind];
        if (el->inputs != NULL && el->potential != NULL) { any = 1; }
    }
    return any;
}

/* The values of output line kind/index into v (up to 7); facc: the forces when ACC. */
static int line_values(const hs_model *m, hs_mb_output_kind kind, int index, hs_real t, const hs_real *q,
                       const hs_real *u, const hs_real *z, const hs_real *in, const hs_real *facc, hs_real *y)
{
    const hs_mb_model *mb = MB(m);
    const hs_mb_desc *D = mb->desc;
    int k = 0;
    switch (kind) {
    case HS_MB_OUT_POS: {
        const int b = index, n = line_count(mb, kind, index);
        for (int j = 0; j < n; ++j) { y[k] = q[mb->qoff[b] + j]; ++k; }
        break;
    }
    case HS_MB_OUT_VEL: {
        const int b = index;
        const hs_real *v = &u[mb->qoff[b]];
        if (D->bodies[b].kind == HS_MB_SPATIAL) {
            hs_real E[3][4];
            mb_quat_E(&q[mb->qoff[b] + 3], E);
            for (int j = 0; j < 3; ++j) { y[k] = v[j]; ++k; }
            for (int r = 0; r < 3; ++r)
                { y[k] = HS_R(2.0) * (E[r][0] * v[3] + E[r][1] * v[4] + E[r][2] * v[5] + E[r][3] * v[6]); ++k; }
        } else {
            for (int j = 0; j < mb->bnq[b]; ++j) { y[k] = v[j]; ++k; }
        }
        break;
    }
    case HS_MB_OUT_ACC: {
        /* M is diagonal for point and planar bodies: a = f / m, alpha = tau / Izz */
        const hs_mb_body *B = &D->bodies[index];
        const hs_real *fb = &facc[mb->qoff[index]];
        const int nt = trans_count(B->kind);
        for (int j = 0; j < nt; ++j) { y[k] = fb[j] / B->mass; ++k; }
        if (B->kind == HS_MB_PLANAR) { y[k] = fb[2] / B->inertia[2]; ++k; }
        break;
    }
    case HS_MB_OUT_COORD: {
        const int rc = mb_joint_elems[D->joints[index].kind]->coord(mb, index, t, q, &y[k]);
        /* MISRA Ref 10.4.1 [int code vs the enumerator naming it] */
        if (rc != HS_OK) { return rc; }
        ++k;
        break;
    }
    case HS_MB_OUT_ENERGY: {
        hs_real E = HS_R(0.0);
        const int rc = hs_mb_fn_energy(m, t, q, u, NULL, &E);
        /* MISRA Ref 10.4.1 [int code vs the enumerator naming it] */
        if (rc != HS_OK) { return rc; }
        /* the input-dependent potentials (road springs) at this instant's inputs */
        if (input_potential(D) != 0) { E = E - mb_potential(mb, t, q, NULL) + mb_potential(mb, t, q, in); }
        { y[k] = E; ++k; }
        break;
    }
    case HS_MB_OUT_TIRE: {
        hs_real val[HS_MB_TIRE_NVAL];
        const int rc = hs_mb_tire_probe(mb, index, t, q, u, z, in, val);
        /* MISRA Ref 10.4.1 [int code vs the enumerator naming it] */
        if (rc != HS_OK) { return rc; }
        for (int j = 0; j < 6; ++j) { y[k] = val[j]; ++k; }
        break;
    }
    case HS_MB_OUT_VEHICLE: {
        const int rc = vehicle_values(mb, index, t, q, u, z, in, y);
        /* MISRA Ref 10.4.1 [int code vs the enumerator naming it] */
        if (rc != HS_OK) { return rc; }
        k = 6;
        break;
    }
    default:
        break;
    }
    return k;
}

int hs_mb_fn_output(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                        const hs_real *z, const hs_real *in, hs_real *y)
{
    const hs_mb_model *mb = MB(m);
    const hs_mb_desc *D = mb->desc;
    static const hs_real zero_in[HS_MB_MAX_NIN] = {0};
    static const hs_real zero_z[HS_MB_MAX_NZ] = {0};
    const hs_real *inp = in != NULL ? in : zero_in;
    const hs_real *zz = z != NULL ? z : zero_z;
    hs_real facc[HS_MB_MAX_NQ];
    if (mb->has_acc != 0) {
        const int rc = mb_forces_z(mb, t, q, u, z, inp, facc, NULL, NULL);
        /* MISRA Ref 10.4.1 [int code vs the enumerator naming it] */
        if (rc != HS_OK) { return rc; }
    }
    int k = 0;
    for (int i = 0; i < D->noutputs; ++i) {
        const hs_mb_output *o = &D->outputs[i];
        if (o->sig == NULL) {
            const int n = line_values(m, o->kind, o->index, t, q, u, zz, inp, facc, &y[k]);
            if (n < 0) { return n; }
            k += n;
        } else {
            hs_real a[7];
            const int n = line_values(m, o->kind, o->index, t, q, u, zz, inp, facc, a);
            if (n < 0) { return n; }
            hs_real v = a[o->comp];
            if (o->index2 > 0) {
                hs_real b[7];
                const int n2 = line_values(m, o->kind, o->index2 - 1, t, q, u, zz, inp, facc, b);
                if (n2 < 0) { return n2; }
                v -= b[o->comp];
            }
            y[k] = v - o->offset;
            ++k;
        }
    }
    return HS_OK;
}

/* ---- reactions ---- */

static int reaction_width(const hs_mb_model *mb, int j)
{
    const hs_mb_desc *D = mb->desc;
    const int b = D->joints[j].a.body;
    if (b < 0) { return 0; }
    switch (D->bodies[b].kind) {
    case HS_MB_PLANAR: return 3;
    case HS_MB_SPATIAL: return 6;
    case HS_MB_POINT2: return 2;
    default: return 3;
    }
}

int hs_mb_reaction_count(const hs_mb_model *mb)
{
    int n = 0;
    for (int j = 0; j < mb->desc->njoints; ++j) { n += reaction_width(mb, j); }
    return n;
}

hs_status hs_mb_reactions(const hs_mb_model *mb, hs_real t, const hs_real *q, const hs_real *lambda,
                    hs_real *out)
{
    if (mb == NULL || q == NULL || lambda == NULL || out == NULL) { return HS_E_NULL; }
    const hs_mb_desc *D = mb->desc;
    int k = 0;
    for (int j = 0; j < D->njoints; ++j) {
        const int b = D->joints[j].a.body, w = reaction_width(mb, j);
        if (w == 0) { continue; }
        hs_real Q[7] = {0, 0, 0, 0, 0, 0, 0};
        for (int r = mb->jrow[j]; r < mb->jrow[j + 1]; ++r) { mb_row_body_grad(mb, r, t, q, b, lambda[r], Q); }
        if (D->bodies[b].kind == HS_MB_SPATIAL) {
            /* a ground-frame torque tau gives Q_p = 2 E(p)^T tau, and E E^T = I on |p| = 1 */
            hs_real E[3][4];
            mb_quat_E(&q[mb->qoff[b] + 3], E);
            for (int i = 0; i < 3; ++i) { out[k] = Q[i]; ++k; }
            for (int r = 0; r < 3; ++r)
                { out[k] = HS_R(0.5) * (E[r][0] * Q[3] + E[r][1] * Q[4] + E[r][2] * Q[5] + E[r][3] * Q[6]); ++k; }
        } else {
            for (int i = 0; i < w; ++i) { out[k] = Q[i]; ++k; }
        }
    }
    return HS_OK;
}

/* ---- compile ---- */

static void put_str(char *dst, int cap, const char *a, const char *b, const char *c)
{
    int n = 0;
    const char *parts[3] = {a, b, c};
    for (int p = 0; p < 3; ++p) {
        for (const char *s = parts[p]; s != NULL && *s != '\0' && n < cap - 1; ++s) { dst[n] = *s; ++n; }
    }
    dst[n] = 0;
}

static int name_ok(const char *s)
{
    int n = 0;
    while (n < HS_MB_NAME && s[n] != '\0') { ++n; }
    return n > 0 && n < HS_MB_NAME;
}

static int point_ok(const hs_mb_desc *D, const hs_mb_point *p)
{
    if (p->body < HS_MB_GROUND || p->body >= D->nbodies) { return 0; }
    if (p->moving < 0 || p->moving > 2 || (p->moving != 0 && p->body >= 0)) { return 0; }
    for (int i = 0; i < 3; ++i) { if (hs_isfinite(p->s[i]) == 0) { return 0; } }
    return 1;
}



/* Signal name suffix j of a position (pos = 1) or velocity output of a body kind. */
/* 1 when constraint row R involves body b. */
static int row_touches(const hs_mb_row *R, int b)
{
    if (R->kind == HS_MB_ROW_ANGLE || R->kind == HS_MB_ROW_NORM) { return R->body == b || R->body2 == b; }
    for (int c = 0; c < 4; ++c) {
        if (R->o[c].used != 0 && R->o[c].body == b) { return 1; }
    }
    return 0;
}

static const char *signal_suffix(int pos, hs_mb_body_kind k, int j)
{
    static const char *const POS_NAMES[4][7] = {
        {".x (m)", ".y (m)", ".theta (rad)", "", "", "", ""},
        {".x (m)", ".y (m)", ".z (m)", ".p0 (1)", ".p1 (1)", ".p2 (1)", ".p3 (1)"},
        {".x (m)", ".y (m)", "", "", "", "", ""},
        {".x (m)", ".y (m)", ".z (m)", "", "", "", ""}};
    static const char *const VEL_NAMES[4][6] = {
        {".vx (m/s)", ".vy (m/s)", ".w (rad/s)", "", "", ""},
        {".vx (m/s)", ".vy (m/s)", ".vz (m/s)", ".wx (rad/s)", ".wy (rad/s)", ".wz (rad/s)"},
        {".vx (m/s)", ".vy (m/s)", "", "", "", ""},
        {".vx (m/s)", ".vy (m/s)", ".vz (m/s)", "", "", ""}};
    return pos ? POS_NAMES[k][j] : VEL_NAMES[k][j];
}

hs_status hs_mb_compile(const hs_mb_desc *D, hs_mb_model *mb, int packed, int *bad_index)
{
    int dummy;
    if (bad_index == NULL) { bad_index = &dummy; }
    *bad_index = -1;
    if (D == NULL || mb == NULL) { return HS_E_NULL; }
    mb->bad_table = -1;
    mb->bad_why = NULL;
    mb->has_acc = 0;
    mb->fast = 0; /* the general evaluators until the tables below are complete */
    mb->nz = 0;
    if (D->nbodies < 1 || D->nbodies > HS_MB_MAX_BODIES || D->njoints < 0 || D->njoints > HS_MB_MAX_JOINTS
        || D->nforces < 0 || D->nforces > HS_MB_MAX_FORCES || D->noutputs < 0
        || D->noutputs > HS_MB_MAX_OUTPUTS || D->nin < 0 || D->nin > HS_MB_MAX_NIN) {
        return HS_E_SIZE;
    }
    if (D->dim != 2 && D->dim != 3) { return HS_E_MODEL_PARAM; }
    for (int i = 0; i < 3; ++i) { if (hs_isfinite(D->gravity[i]) == 0) { return HS_E_MODEL_PARAM; } }
    mb->desc = D;
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    mb->packed = (packed != 0) ? 1 : 0;
    mb->nb = D->nbodies;
    int nq = 0;
    mb->bad_table = 0;
    for (int b = 0; b < D->nbodies; ++b) {
        const hs_mb_body *B = &D->bodies[b];
        *bad_index = b;
        const int n = hs_mb_body_nq(B->kind);
        if (n == 0 || name_ok(B->name) == 0) { return HS_E_MODEL_PARAM; }
        /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
        const int is2 = B->kind == HS_MB_PLANAR || B->kind == HS_MB_POINT2;
        if (is2 != (D->dim == 2)) { return HS_E_MODEL_PARAM; /* no 2-D bodies in 3-D models or back */ }
        if (!(B->mass > HS_R(0.0)) || hs_isfinite(B->mass) == 0) { return HS_E_MODEL_PARAM; }
        if (B->kind == HS_MB_PLANAR && !(B->inertia[2] > HS_R(0.0))) { return HS_E_MODEL_PARAM; }
        if (B->kind == HS_MB_SPATIAL) {
            for (int i = 0; i < 3; ++i) { if (!(B->inertia[i] > HS_R(0.0))) { return HS_E_MODEL_PARAM; } }
            const hs_real pn = B->rot[0] * B->rot[0] + B->rot[1] * B->rot[1] + B->rot[2] * B->rot[2] + B->rot[3] * B->rot[3];
            if (!(hs_abs(pn - HS_R(1.0)) < HS_R(1e-6))) { return HS_E_MODEL_PARAM; /* not a unit quaternion */ }
        }
        for (int i = 0; i < 3; ++i) {
            if (hs_isfinite(B->inertia[i]) == 0 || hs_isfinite(B->pos[i]) == 0 || hs_isfinite(B->vel[i]) == 0
                || hs_isfinite(B->omega[i]) == 0 || hs_isfinite(B->rot[i]) == 0 || hs_isfinite(B->rot[3]) == 0) {
                return HS_E_MODEL_PARAM;
            }
        }
        mb->qoff[b] = nq;
        mb->bnq[b] = n;
        nq += n;
        if (nq > HS_MB_MAX_NQ) { return HS_E_SIZE; }
    }
    mb->qoff[D->nbodies] = nq;
    mb->nq = nq;
    mb->bad_table = 1;
    for (int j = 0; j < D->njoints; ++j) {
        const hs_mb_joint *J = &D->joints[j];
        *bad_index = j;
        if (name_ok(J->name) == 0 || point_ok(D, &J->a) == 0 || point_ok(D, &J->b) == 0) { return HS_E_MODEL_PARAM; }
        if (point_ok(D, &J->c) == 0 || point_ok(D, &J->d) == 0) { return HS_E_MODEL_PARAM; }
        if ((int)J->kind < 0 || (int)J->kind >= (int)HS_MB_JOINT_KINDS) { return HS_E_MODEL_PARAM; }
        const char *why = NULL;
        if (mb_joint_elems[J->kind]->check(D, J, &why) != 0u) { mb->bad_why = why; return HS_E_MODEL_PARAM; }
    }
    hs_status rc = mb_build_rows(mb, bad_index);
    if (rc != HS_OK) { return rc; }
    mb->nc = mb->nrow;
    if (packed == HS_MB_PACK_AUTO) {
        /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
        mb->packed = (mb->nq + mb->nc > HS_LS_DENSE_MAX) ? 1 : 0;
    }
    mb->bad_table = 2;
    for (int e = 0; e < D->nforces; ++e) {
        const hs_mb_force *E = &D->forces[e];
        *bad_index = e;
        if (name_ok(E->name) == 0 || point_ok(D, &E->a) == 0 || point_ok(D, &E->b) == 0) { return HS_E_MODEL_PARAM; }
        if (hs_isfinite(E->k) == 0 || hs_isfinite(E->c) == 0 || hs_isfinite(E->l0) == 0 || hs_isfinite(E->kr) == 0
            || hs_isfinite(E->cr) == 0 || hs_isfinite(E->scale) == 0 || hs_isfinite(mb_dot3(E->v, E->v)) == 0) {
            return HS_E_MODEL_PARAM;
        }
        if ((int)E->kind < 0 || (int)E->kind >= (int)HS_MB_FORCE_KINDS) { return HS_E_MODEL_PARAM; }
        const mb_force_elem *el = mb_force_elems[E->kind];
        const char *why = NULL;
        if (el->check(D, E, &why) != 0u) { mb->bad_why = why; return HS_E_MODEL_PARAM; }
        if (el->inputs != NULL) {
            const char *suf[3] = {NULL, NULL, NULL};
            const int n = el->inputs(D, E, suf);
            if (E->in0 < 0 || E->in0 + n > D->nin) { mb->bad_why = "input index not below the model's input count"; return HS_E_MODEL_PARAM; }
        }
        if (E->in1 < 0 || E->in1 > D->nin || E->in2 < 0 || E->in2 > D->nin) { mb->bad_why = "input index not below the model's input count"; return HS_E_MODEL_PARAM; }
        mb->zoff[e] = mb->nz;
        mb->nz += (mb_force_states_of[E->kind] != NULL) ? mb_force_states_of[E->kind]->nz : 0;
        if (mb->nz > HS_MB_MAX_NZ) { return HS_E_SIZE; }
    }
    /* outputs and their names */
    int nout = 0;
    mb->bad_table = 3;
    for (int i = 0; i < D->noutputs; ++i) {
        const hs_mb_output *o = &D->outputs[i];
        *bad_index = i;
        const int lim = (o->kind == HS_MB_OUT_COORD) ? D->njoints : ((o->kind == HS_MB_OUT_TIRE) ? D->nforces : D->nbodies);
        if (o->kind != HS_MB_OUT_ENERGY && (o->index < 0 || o->index >= lim)) { return HS_E_MODEL_PARAM; }
        if (o->index2 < 0 || o->index2 > D->nbodies || (o->index2 > 0 && o->kind != HS_MB_OUT_POS
            && o->kind != HS_MB_OUT_VEL && o->kind != HS_MB_OUT_ACC)) { return HS_E_MODEL_PARAM; }
        if (o->sig != NULL && hs_isfinite(o->offset) == 0) { return HS_E_MODEL_PARAM; }
        mb->out_first[i] = nout;
        const int n = output_count(mb, o);
        if (n < 0) { mb->bad_why = "no such quantity or component for this element"; return HS_E_MODEL_PARAM; }
        if (o->index2 > 0 && line_count(mb, o->kind, o->index2 - 1) != line_count(mb, o->kind, o->index)) {
            mb->bad_why = "the two bodies differ in kind";
            return HS_E_MODEL_PARAM;
        }
        if (o->kind == HS_MB_OUT_ACC) {
            /* a = M^-1 f holds only where no joint's multipliers act */
            for (int r = 0; r < mb->nrow; ++r) {
                if (row_touches(&mb->rows[r], o->index) != 0 || (o->index2 > 0 && row_touches(&mb->rows[r], o->index2 - 1) != 0)) {
                    mb->bad_why = "acceleration of a body a joint acts on (needs the multipliers)";
                    return HS_E_MODEL_PARAM;
                }
            }
            mb->has_acc = 1;
        }
        if (nout + n > HS_MB_MAX_NOUT) { return HS_E_SIZE; }
        for (int j = 0; j < n; ++j) {
            char *dst = mb->out_buf[nout + j];
            const int cap = (int)sizeof mb->out_buf[0];
            static const char *const ACC_NAMES[4][3] = {{".ax (m/s^2)", ".ay (m/s^2)", ".alpha (rad/s^2)"},
                {"", "", ""}, {".ax (m/s^2)", ".ay (m/s^2)", ""}, {".ax (m/s^2)", ".ay (m/s^2)", ".az (m/s^2)"}};
            if (o->sig != NULL) {
                put_str(dst, cap, o->sig->name, " (", o->sig->unit);
                put_str(dst, cap, dst, ")", NULL);
            } else {
                switch (o->kind) {
                case HS_MB_OUT_POS: put_str(dst, cap, D->bodies[o->index].name, signal_suffix(1, D->bodies[o->index].kind, j), NULL); break;
                case HS_MB_OUT_VEL: put_str(dst, cap, D->bodies[o->index].name, signal_suffix(0, D->bodies[o->index].kind, j), NULL); break;
                case HS_MB_OUT_ACC: put_str(dst, cap, D->bodies[o->index].name, ACC_NAMES[D->bodies[o->index].kind][j], NULL); break;
                case HS_MB_OUT_COORD: {
                    const hs_mb_joint *J = &D->joints[o->index];
                    /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
                    const int ang = mb_joint_elems[J->kind]->coord_kind(D, J) == 1;
                    put_str(dst, cap, J->name, ang ? ".angle (rad)" : ".travel (m)", NULL);
                    break;
                }
                case HS_MB_OUT_TIRE: {
                    static const char *const TIRE_NAMES[6] = {".omega (rad/s)", ".Fx (N)", ".Fy (N)", ".Fz (N)", ".sx (1)", ".sy (1)"};
                    put_str(dst, cap, D->forces[o->index].name, TIRE_NAMES[j], NULL);
                    break;
                }
                case HS_MB_OUT_VEHICLE: {
                    static const char *const VEH_NAMES[6] = {".vx (m/s)", ".vy (m/s)", ".yaw_rate (rad/s)", ".ax (m/s^2)", ".ay (m/s^2)", ".beta (rad)"};
                    put_str(dst, cap, D->bodies[o->index].name, VEH_NAMES[j], NULL);
                    break;
                }
                default: put_str(dst, cap, "energy (J)", NULL, NULL); break;
                }
            }
            mb->out_names[nout + j] = dst;
        }
        nout += n;
    }
    mb->out_first[D->noutputs] = nout;
    mb->nout = nout;
    mb->nin = D->nin;
    mb->bad_table = -1;
    *bad_index = -1;
    for (int i = 0; i < D->nin; ++i) {
        char num[4] = {(char)('0' + i / 10), (char)('0' + i % 10), 0, 0};
        put_str(mb->in_buf[i], (int)sizeof mb->in_buf[0], "in", num, " (1)");
        mb->in_names[i] = mb->in_buf[i];
    }
    /* inputs: the declared names and units, else named after the element that reads them */
    for (int e = 0; e < D->nforces && D->inputs == NULL; ++e) {
        const hs_mb_force *E = &D->forces[e];
        const mb_force_elem *el = mb_force_elems[E->kind];
        const char *suf[3] = {NULL, NULL, NULL};
        const int n = el->inputs != NULL ? el->inputs(D, E, suf) : 0;
        for (int i = 0; i < n; ++i) { put_str(mb->in_buf[E->in0 + i], (int)sizeof mb->in_buf[0], E->name, suf[i], NULL); }
    }
    for (int i = 0; i < D->nin && D->inputs != NULL; ++i) {
        char *dst = mb->in_buf[i];
        put_str(dst, (int)sizeof mb->in_buf[0], D->inputs[i].name, " (", D->inputs[i].unit);
        put_str(dst, (int)sizeof mb->in_buf[0], dst, ")", NULL);
    }
    /* spatial hinge references: zero angle where axis meets axis_b, initial angle in (-pi, pi] */
    for (int e = 0; e < D->nforces; ++e) {
        const hs_mb_force *E = &D->forces[e];
        if (D->dim == 3 && (E->kind == HS_MB_ROTSPRING || E->kind == HS_MB_MOTOR)) {
            mb_hinge_ref(E->axis, E->axis_b, D->bodies[E->a.body].rot,
                         E->b.body >= 0 ? D->bodies[E->b.body].rot : NULL, mb->hinge_c[e]);
        }
    }
    for (int j = 0; j < D->njoints; ++j) {
        const mb_joint_elem *el = mb_joint_elems[D->joints[j].kind];
        if (el->prepare != NULL) { el->prepare(mb, j); }
    }
    /* set values of prismatic and fixed joints: the initial relative configuration */
    {
        hs_real *q0 = mb->scratch, *u0 = &mb->scratch[HS_MB_MAX_NQ], *g = &mb->scratch[2 * HS_MB_MAX_NQ];
        initial_state(mb, q0, u0);
        const int keep = mb->packed;
        mb->packed = 0;
        (void)mb_constraint(mb, HS_R(0.0), q0, g, NULL, NULL);
        mb->packed = keep;
        for (int r = 0; r < mb->nrow; ++r) {
            const int j = mb->rows[r].joint;
            if (j >= 0 && mb_joint_elems[D->joints[j].kind]->init_value != 0) {
                mb->rows[r].value = g[r];
            }
        }
    }
    /* block pattern: position blocks = bodies; constraint blocks = joints, then norm rows */
    {
        int wo = 0; /* next free int of blkbuf */
        int ncb = 0;
        int *qb = &mb->blkbuf[wo];
        wo += D->nbodies + 1;
        for (int b = 0; b <= D->nbodies; ++b) { qb[b] = mb->qoff[b]; }
        int *cb = &mb->blkbuf[wo];
        for (int j = 0; j < D->njoints; ++j) {
            if (mb->jrow[j + 1] > mb->jrow[j]) { cb[ncb] = mb->jrow[j]; ++ncb; }
        }
        for (int r = mb->jrow[D->njoints]; r < mb->nrow; ++r) { cb[ncb] = r; ++ncb; }
        cb[ncb] = mb->nrow;
        wo += ncb + 1;
        mb->ncb = ncb;
        for (int c = 0; c < ncb; ++c) {
            mb->cbfirst[c] = cb[c];
            for (int r = cb[c]; r < cb[c + 1]; ++r) { mb->cbidx[r] = c; }
        }
        mb->cbfirst[ncb] = mb->nrow;
        /* coupling of bodies: diagonal, rows touching two bodies, two-body forces */
        static const int none = -1;
        for (int i = 0; i < D->nbodies; ++i) {
            for (int j = 0; j < D->nbodies; ++j) { mb->qqoff[i][j] = (i == j) ? 0 : none; }
        }
        for (int c = 0; c < ncb; ++c) {
            for (int b = 0; b < D->nbodies; ++b) { mb->cqoff[c][b] = none; }
        }
        for (int r = 0; r < mb->nrow; ++r) {
            const hs_mb_row *R = &mb->rows[r];
            int bs[4], nbs = 0;
            if (R->kind == HS_MB_ROW_ANGLE || R->kind == HS_MB_ROW_NORM) {
                { bs[nbs] = R->body; ++nbs; } { bs[nbs] = R->body2; ++nbs; }
            } else {
                for (int i = 0; i < 4; ++i) { bs[nbs] = R->o[i].used ? R->o[i].body : -1; ++nbs; }
            }
            for (int i = 0; i < nbs; ++i) {
                if (bs[i] < 0) { continue; }
                mb->cqoff[mb->cbidx[r]][bs[i]] = 0;
                for (int j = 0; j < nbs; ++j) {
                    /* K = d(G^T lambda)/dq of a DOT row (o0 - o1) . (o2 - o3) couples an operand
                     * of the first difference only with one of the second (the rest are each
                     * point's own Hessian, a diagonal block): a hinge to ground or a chain link
                     * adds no off-diagonal block, which keeps the sparse factor thin; ANGLE rows
                     * are linear, NORM and QUAD rows touch one body */
                    /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
                    const int cross = (R->kind == HS_MB_ROW_DOT) ? ((i < 2) != (j < 2)) : (i == j);
                    if (bs[j] >= 0 && cross != 0) { mb->qqoff[bs[i]][bs[j]] = 0; }
                }
            }
        }
        for (int e = 0; e < D->nforces; ++e) {
            const int a = D->forces[e].a.body, b = D->forces[e].b.body;
            if (a >= 0 && b >= 0) { mb->qqoff[a][b] = 0; mb->qqoff[b][a] = 0; }
        }
        int nqq = 0, off = 0;
        int *qq = &mb->blkbuf[wo];
        for (int i = 0; i < D->nbodies; ++i) {
            for (int j = 0; j < D->nbodies; ++j) {
                if (mb->qqoff[i][j] < 0) { continue; }
                if (nqq >= HS_MB_MAX_QQ) { return HS_E_SIZE; }
                qq[2 * nqq] = i; qq[2 * nqq + 1] = j; ++nqq;
                mb->qqoff[i][j] = off;
                off += mb->bnq[i] * mb->bnq[j];
            }
        }
        mb->qqsize = off;
        wo += 2 * nqq;
        int ncq = 0;
        int *cq = &mb->blkbuf[wo];
        off = 0;
        for (int c = 0; c < ncb; ++c) {
            for (int b = 0; b < D->nbodies; ++b) {
                if (mb->cqoff[c][b] < 0) { continue; }
                if (ncq >= HS_MB_MAX_CQ) { return HS_E_SIZE; }
                cq[2 * ncq] = c; cq[2 * ncq + 1] = b; ++ncq;
                mb->cqoff[c][b] = off;
                off += (cb[c + 1] - cb[c]) * mb->bnq[b];
            }
        }
        mb->cqsize = off;
        mb->blocks.nqb = D->nbodies; mb->blocks.ncb = ncb;
        mb->blocks.nqq = nqq; mb->blocks.ncq = ncq;
        mb->blocks.qb = qb; mb->blocks.cb = cb; mb->blocks.qq = qq; mb->blocks.cq = cq;
    }
    /* the model type, with this instance's exact sizes */
    hs_model_type *T = &mb->type;
    static const hs_model_type zero_type = {0};
    *T = zero_type;
    T->name = D->name ? D->name : "mb";
    T->doc = "multibody description (model/mb/hs_mb.h)";
    T->nq = mb->nq; T->nc = mb->nc; T->nz = mb->nz; T->nin = mb->nin; T->nout = mb->nout;
    T->params = NULL; T->nparams = 0; T->param_size = 0;
    T->in_names = mb->nin ? mb->in_names : NULL;
    T->out_names = mb->nout ? mb->out_names : NULL;
    T->check = mb_check;
    T->initial = hs_mb_fn_initial;
    T->mass = hs_mb_fn_mass;
    T->force = hs_mb_fn_force;
    T->force_jac = hs_mb_fn_force_jac;
    T->constraint = mb->nc ? hs_mb_fn_constraint : NULL;
    T->gamma = mb->nc ? hs_mb_fn_gamma : NULL;
    T->zdot = mb->nz ? hs_mb_fn_zdot : NULL;
    T->output = mb->nout ? hs_mb_fn_output : NULL;
    T->dims = NULL;
    T->blocks = mb->packed ? mb_blocks_fn : NULL;
    T->curvature = mb->nc ? hs_mb_fn_curvature : NULL;
    T->energy = hs_mb_fn_energy;
    T->motion = hs_mb_fn_motion;
    T->lagrange = hs_mb_has_spatial(mb) ? hs_mb_fn_lagrange : NULL; /* else M is constant */
    {
        int bad = -1;
        const int crc = hs_mb_ct_compile(mb, &bad);
        /* MISRA Ref 10.4.1 [int code vs the enumerator naming it] */
        if (crc != HS_OK) {
            mb->bad_table = 4;
            *bad_index = bad;
            return crc;
        }
    }
    T->nk = mb->nk;
    T->ct_rows = (mb->nk > 0) ? mb->ct_rows : NULL;
    T->unilateral = (mb->nk > 0) ? hs_mb_fn_unilateral : NULL;
    T->ct_sweeps = (D->ct_sweeps > 0) ? D->ct_sweeps : HS_MB_CT_SWEEPS;
    T->compliance = NULL; /* only a description that declares compliance carries the hook */
    for (int j = 0; j < D->njoints; ++j) {
        if (D->joints[j].has_comp != 0) { T->compliance = hs_mb_fn_compliance; }
    }
    mb_fast_prepare(mb); /* last: after the contact tables, which may add to the pattern */
    /* the fast path's shortcuts for the stepper: G, gamma and K in one pass, the zero entries
     * of its matrices (the sparse pattern), and whether its Jacobians are symmetric */
    if (((mb->fast & HS_MB_FAST_ROWS) != 0) && (mb->nc > 0)) { T->constraint_all = hs_mb_fn_constraint_all; }
    if ((mb->fast & (HS_MB_FAST_ROWS | HS_MB_FAST_FORCES | HS_MB_FAST_MASS))
        == (HS_MB_FAST_ROWS | HS_MB_FAST_FORCES | HS_MB_FAST_MASS)) {
        T->masks = hs_mb_fn_masks;
    }
    if (mb->plan != 0) {
        /* the plan's kernels straight from the hooks (they fall back to the ones above) */
        mb_plan_hooks(mb, T);
    }
    T->symmetric_jac = mb_fast_symmetric(mb);
    hs_mb_fb_compile(mb);
    T->free_bodies = (mb->nfb > 0) ? hs_mb_fn_free_bodies : NULL;
    /* free bodies in contact (no stops: those need joints): the points in body velocities */
    if ((mb->nfb > 0) && (mb->nk > 0) && (D->nstops == 0)) {
        T->ct_npoints = mb->ct_npts;
        T->ct_pts = mb->ct_pts;
        T->ct_points = hs_mb_fn_ct_points;
    }
    *bad_index = -1;
    return HS_OK;
}

hs_status hs_mb_model_init(hs_model *m, const hs_mb_model *mb)
{
    if (m == NULL || mb == NULL) { return HS_E_NULL; }
    hs_status rc = hs_model_init(m, &mb->type, NULL);
    m->desc = mb;
    return rc;
}
