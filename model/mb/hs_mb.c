/* hs_mb.c - the functions of a compiled multibody model's type (hs_mb_compile.c points the
 * type at them), its outputs and joint reactions. */
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

int hs_mb_fn_check(const hs_model *m)
{
    return (m->desc && MB(m)->desc) ? HS_OK : HS_E_MODEL_PARAM;
}

void mb_initial_state(const hs_mb_model *mb, hs_real *q, hs_real *u)
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
    mb_initial_state(MB(m), q, u);
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
        /* the body's diagonal block looked up once (mb_qq_add's look-up, per entry) */
        int st = 0;
        hs_real *blk = mb_qq_block(mb, M, b, b, &st);
        if (blk == NULL) { continue; }
        for (int i = 0; i < nt; ++i) { blk[i * st + i] += B->mass; }
        if (B->kind == HS_MB_PLANAR) {
            blk[2 * st + 2] += B->inertia[2];
        } else if (B->kind == HS_MB_SPATIAL) {
            const hs_real *p = &q[mb->qoff[b] + 3];
            const hs_real kk = HS_R(4.0) * (B->inertia[0] + B->inertia[1] + B->inertia[2]) / HS_R(3.0);
            hs_real G[3][4];
            mb_quat_G(p, G);
            for (int i = 0; i < 4; ++i) {
                for (int j = 0; j < 4; ++j) {
                    hs_real a = HS_R(0.0);
                    for (int r = 0; r < 3; ++r) { a += G[r][i] * B->inertia[r] * G[r][j]; }
                    blk[(3 + i) * st + 3 + j] += HS_R(4.0) * a + kk * p[i] * p[j];
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

/* f with fq, fu in one pass over the elements (hs_model.h force_fj): a tire's evaluation with
 * partials gives its values too, so the factoring stage evaluates each wheel once, not twice.
 * Set for descriptions with element states (tires; hs_mb_compile.c), which take no fast path. */
int hs_mb_fn_force_fj(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                      const hs_real *z, const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu)
{
    return mb_forces_z(MB(m), t, q, u, z, in, f, fq, fu);
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
    if (rc == (int)HS_OK) { rc = mb_gamma(mb, t, q, u, gam); }
    if ((rc == (int)HS_OK) && (lambda != NULL) && (K != NULL)) { rc = mb_curvature(mb, t, q, lambda, K); }
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

int hs_mb_fn_blocks(const hs_model *m, hs_blocks *b, int *buf, int nbuf)
{
    (void)buf; (void)nbuf;
    *b = MB(m)->blocks; /* the pattern lives in the compiled model, not in the caller's buffer */
    return HS_OK;
}

/* 1 when the kind does not take point p (its key bit), or p is on body x or y. */
static int on_pair(const mb_joint_elem *el, uint32_t key, const hs_mb_point *p, int x, int y)
{
    if ((el->keys & key) == 0u) { return 1; }
    return ((p->body == x) || (p->body == y)) ? 1 : 0;
}

/* Whether joint j joins bodies x and y (both >= 0, of one kind) by rows of their relative pose
 * alone: its kind says so (mb_joint_elem.relative) and every point it takes is on x or y. */
static int joint_relative(const hs_mb_desc *D, int j, int x, int y)
{
    if ((j < 0) || (x < 0) || (y < 0) || (x == y) || (D->bodies[x].kind != D->bodies[y].kind)) { return 0; }
    const hs_mb_joint *J = &D->joints[j];
    const mb_joint_elem *el = mb_joint_elems[J->kind];
    if (el->relative != MB_YES) { return 0; }
    return on_pair(el, MB_J_A, &J->a, x, y) & on_pair(el, MB_J_B, &J->b, x, y) & on_pair(el, MB_J_C, &J->c, x, y)
           & on_pair(el, MB_J_D, &J->d, x, y);
}

/* The bodies constraint block c touches (mb->cqoff, -1 where absent): *x, *y (-1 for none;
 * *y = -3 for three or more). */
static void block_bodies(const hs_mb_model *mb, int c, int *x, int *y)
{
    *x = -1;
    *y = -1;
    for (int b = 0; b < mb->desc->nbodies; ++b) {
        if (mb->cqoff[c][b] < 0) { continue; }
        if (*x < 0) { *x = b; } else if (*y == -1) { *y = b; } else { *y = -3; }
    }
}

/* hs_model_type.leaf_rows: a body is a leaf of body p when every constraint block on it but
 * its quaternion norm joins it to p alone by joint_relative rows; those blocks get the leaf's
 * position block (its body index), the others -1. Two bodies leaves of each other: the larger
 * index. The rows then have full rank on the leaf's coordinates wherever G has (rt/hs_model.h). */
int hs_mb_fn_leaf_rows(const hs_model *m, int *leaf)
{
    const hs_mb_model *mb = MB(m);
    const hs_mb_desc *D = mb->desc;
    const hs_blocks *B = &mb->blocks;
    int par[HS_MB_MAX_BODIES]; /* -2 no row yet, -3 not a leaf, else the one other body */
    /* unpacked, the stepper's list is the dense one (one constraint block): nothing to say */
    if (mb->packed == 0) { return HS_OK; }
    if (D->nbodies > HS_MB_MAX_BODIES) { return HS_E_SIZE; }
    for (int b = 0; b < D->nbodies; ++b) { par[b] = -2; }
    for (int c = 0; c < B->ncb; ++c) {
        leaf[c] = -1;
        int x, y;
        block_bodies(mb, c, &x, &y);
        const int j = mb->rows[mb->cbfirst[c]].joint;
        if (x < 0) { continue; }
        if (y == -1) {
            /* a row on x alone: its own norm keeps it a leaf, a joint to ground does not */
            if ((j >= 0) || (D->bodies[x].kind != HS_MB_SPATIAL)) { par[x] = -3; }
        } else if ((y >= 0) && (joint_relative(D, j, x, y) != 0)) {
            par[x] = (par[x] == -2 || par[x] == y) ? y : -3;
            par[y] = (par[y] == -2 || par[y] == x) ? x : -3;
        } else {
            /* a row of ground, of three bodies or of another kind: none of them is a leaf */
            for (int k = 0; k < D->nbodies; ++k) {
                if (mb->cqoff[c][k] >= 0) { par[k] = -3; }
            }
        }
    }
    for (int c = 0; c < B->ncb; ++c) {
        int x, y;
        block_bodies(mb, c, &x, &y);
        if ((x < 0) || (y < 0)) { continue; }
        /* x < y (block_bodies walks the bodies in order): y wins when both are leaves */
        if (par[y] == x) { leaf[c] = y; } else if (par[x] == y) { leaf[c] = x; } else { leaf[c] = -1; }
    }
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
int mb_line_count(const hs_mb_model *mb, hs_mb_output_kind kind, int index)
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
        return k == HS_MB_SPATIAL ? 3 : hs_mb_body_nq(k);
    }
    case HS_MB_OUT_COORD: {
        const hs_mb_joint *J = &D->joints[index];
        return mb_joint_elems[J->kind]->coord_kind(D, J) >= 0 ? 1 : -1;
    }
    case HS_MB_OUT_ENERGY: return 1;
    case HS_MB_OUT_TIRE: return mb_force_elems[D->forces[index].kind]->tire == MB_YES ? 6 : -1;
    case HS_MB_OUT_VEHICLE: return D->bodies[index].kind == HS_MB_SPATIAL ? 7 : -1;
    case HS_MB_OUT_FORCE: {
        const mb_force_elem *el = mb_force_elems[D->forces[index].kind];
        return (el->values != NULL) ? el->nval : -1;
    }
    default: return -1;
    }
}

/* A tire holds 3 or 4 states (hs_mb_el_tire.c), so zoff / 3 is a slot per tire: at most this many
 * (at least one, for a build with HS_MB_MAX_NZ below 3). */
#define MB_TIRE_SLOTS (((HS_MB_MAX_NZ / 3) > 0) ? (HS_MB_MAX_NZ / 3) : 1)

/* The tires' values of one output call: each tire evaluated once at (t, q, u, z, in), however
 * many lines read it (car.hsm: 6 tire lines and 5 vehicle lines, each of which sums all 4
 * tires, were 26 evaluations per frame, now 4). key[s]: the element in slot s, -1 none yet;
 * vb: the body whose vehicle values vv holds (-1 none; car.hsm's 5 vehicle lines read one);
 * fe: the element whose force-line values fv holds (-1 none; car.hsm's kingpins have an angle
 * line and a torque line each, one evaluation). */
typedef struct mb_tire_cache {
    int key[MB_TIRE_SLOTS];
    hs_real val[MB_TIRE_SLOTS][HS_MB_TIRE_NVAL];
    int vb;
    hs_real vv[7];
    int fe;
    hs_real fv[MB_FORCE_NVAL];
} mb_tire_cache;

/* *val: tire element e's values (hs_mb_tire_probe) from the cache, evaluated on first use; an
 * element that is not a tire gets the probe's refusal, as before. */
static int tire_values(const hs_mb_model *mb, mb_tire_cache *C, int e, hs_real t, const hs_real *q,
                       const hs_real *u, const hs_real *z, const hs_real *in, const hs_real **val)
{
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    const int ok = ((e >= 0) && (e < mb->desc->nforces) && (mb->desc->forces[e].kind == HS_MB_TIRE)) ? 1 : 0;
    const int s = (ok != 0) ? (mb->zoff[e] / 3) : 0;
    if ((ok == 0) || (s >= MB_TIRE_SLOTS)) { return HS_E_MODEL; }
    if (C->key[s] != e) {
        const int rc = hs_mb_tire_probe(mb, e, t, q, u, z, in, C->val[s]);
        if (rc != (int)HS_OK) { return rc; }
        C->key[s] = e;
    }
    *val = C->val[s];
    return HS_OK;
}

/* vx, vy, yaw rate, ax, ay, beta, yaw of spatial body b (HS_MB_OUT_VEHICLE) into y (7 values). */
static int vehicle_values(const hs_mb_model *mb, mb_tire_cache *C, int b, hs_real t, const hs_real *q,
                          const hs_real *u, const hs_real *z, const hs_real *in, hs_real *y)
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
        if (mb_force_elems[D->forces[e].kind]->tire != MB_YES) { continue; }
        const hs_real *val = NULL;
        const int rc = tire_values(mb, C, e, t, q, u, z, in, &val);
        if (rc != (int)HS_OK) { return rc; }
        for (int i = 0; i < 3; ++i) { F[i] += val[HS_MB_TIRE_FG + i]; }
    }
    y[0] = mb_dot3(ex, v);
    y[1] = mb_dot3(ey, v);
    y[2] = HS_R(2.0) * (G[2][0] * v[3] + G[2][1] * v[4] + G[2][2] * v[5] + G[2][3] * v[6]) / n2;
    y[3] = mb_dot3(ex, F) / m;
    y[4] = mb_dot3(ey, F) / m;
    y[5] = (y[0] * y[0] + y[1] * y[1] > HS_R(0.01)) ? hs_atan2(y[1], y[0]) : HS_R(0.0);
    /* the heading of the body's x axis in the ground plane, in (-pi, pi] (no turn count) */
    y[6] = hs_atan2(ex[1], ex[0]);
    return HS_OK;
}

int mb_output_count(const hs_mb_model *mb, const hs_mb_output *o)
{
    const int n = mb_line_count(mb, o->kind, o->index);
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

/* The values of output line kind/index into v (up to 7); facc: the forces when ACC; C the
 * call's tire values. */
static int line_values(const hs_model *m, mb_tire_cache *C, hs_mb_output_kind kind, int index, hs_real t,
                       const hs_real *q, const hs_real *u, const hs_real *z, const hs_real *in,
                       const hs_real *facc, hs_real *y)
{
    const hs_mb_model *mb = MB(m);
    const hs_mb_desc *D = mb->desc;
    int k = 0;
    switch (kind) {
    case HS_MB_OUT_POS: {
        const int b = index, n = mb_line_count(mb, kind, index);
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
        if (rc != (int)HS_OK) { return rc; }
        ++k;
        break;
    }
    case HS_MB_OUT_ENERGY: {
        hs_real E = HS_R(0.0);
        const int rc = hs_mb_fn_energy(m, t, q, u, NULL, &E);
        if (rc != (int)HS_OK) { return rc; }
        /* the input-dependent potentials (road springs) at this instant's inputs */
        if (input_potential(D) != 0) { E = E - mb_potential(mb, t, q, NULL) + mb_potential(mb, t, q, in); }
        { y[k] = E; ++k; }
        break;
    }
    case HS_MB_OUT_TIRE: {
        const hs_real *val = NULL;
        const int rc = tire_values(mb, C, index, t, q, u, z, in, &val);
        if (rc != (int)HS_OK) { return rc; }
        for (int j = 0; j < 6; ++j) { y[k] = val[j]; ++k; }
        break;
    }
    case HS_MB_OUT_VEHICLE: {
        if (C->vb != index) {
            const int rc = vehicle_values(mb, C, index, t, q, u, z, in, C->vv);
            if (rc != (int)HS_OK) { return rc; }
            C->vb = index;
        }
        for (int j = 0; j < 7; ++j) { y[j] = C->vv[j]; }
        k = 7;
        break;
    }
    case HS_MB_OUT_FORCE: {
        const mb_force_elem *el = mb_force_elems[D->forces[index].kind];
        if (C->fe != index) {
            const int rc = el->values(mb, index, t, q, u, in, C->fv);
            if (rc != (int)HS_OK) { return rc; }
            C->fe = index;
        }
        for (int j = 0; j < el->nval; ++j) { y[j] = C->fv[j]; }
        k = el->nval;
        break;
    }
    default:
        break;
    }
    return k;
}

/* One acc line from u' (every acc line takes this path once one needs it): its values, or the
 * named form's component (minus BODY2's, minus offset); the count of values written. */
static int acc_line(const hs_mb_model *mb, const hs_mb_output *o, hs_real t, const hs_real *q,
                    const hs_real *u, const hs_real *udd, hs_real *y)
{
    hs_real a[4];
    const int n = mb_acc_values(mb, o, o->index, t, q, u, udd, a);
    if (o->sig == NULL) {
        for (int j = 0; j < n; ++j) { y[j] = a[j]; }
        return n;
    }
    hs_real v = a[o->comp];
    if (o->index2 > 0) {
        hs_real b[4];
        (void)mb_acc_values(mb, o, o->index2 - 1, t, q, u, udd, b);
        v -= b[o->comp];
    }
    y[0] = v - o->offset;
    return 1;
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
    hs_real udd[HS_MB_MAX_NQ];
    if (mb->has_acc != 0) {
        int rc = mb_forces_z(mb, t, q, u, z, inp, facc, NULL, NULL);
        if (rc != (int)HS_OK) { return rc; }
        if (mb->acc_kkt != 0) {
            rc = mb_acc_solve(mb, t, q, u, facc, udd);
            if (rc != (int)HS_OK) { return rc; }
        }
    }
    mb_tire_cache C;
    for (int i = 0; i < MB_TIRE_SLOTS; ++i) { C.key[i] = -1; }
    C.vb = -1;
    C.fe = -1;
    int k = 0;
    for (int i = 0; i < D->noutputs; ++i) {
        const hs_mb_output *o = &D->outputs[i];
        if (o->kind == HS_MB_OUT_ACC && mb->acc_kkt != 0) {
            k += acc_line(mb, o, t, q, u, udd, &y[k]);
        } else if (o->sig == NULL) {
            const int n = line_values(m, &C, o->kind, o->index, t, q, u, zz, inp, facc, &y[k]);
            if (n < 0) { return n; }
            k += n;
        } else {
            hs_real a[7];
            const int n = line_values(m, &C, o->kind, o->index, t, q, u, zz, inp, facc, a);
            if (n < 0) { return n; }
            hs_real v = a[o->comp];
            if (o->index2 > 0) {
                hs_real b[7];
                const int n2 = line_values(m, &C, o->kind, o->index2 - 1, t, q, u, zz, inp, facc, b);
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

hs_status hs_mb_model_init(hs_model *m, const hs_mb_model *mb)
{
    if (m == NULL || mb == NULL) { return HS_E_NULL; }
    hs_status rc = hs_model_init(m, &mb->type, NULL);
    m->desc = mb;
    return rc;
}
