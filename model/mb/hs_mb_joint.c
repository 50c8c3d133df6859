/* hs_mb_joint.c - joints: every joint is built from four row kinds with analytic g, G, g_t,
 * gamma and curvature K = d(G^T lambda)/dq:
 *   DOT    (r0 - r1) . (r2 - r3) - c - f(t): coincidence (with a ground unit axis), distance
 *          (r0 = r2, r1 = r3), perpendicularity of body-fixed directions (orientation locks,
 *          hinge axes), travel along an axis (prismatic, translational drivers);
 *   ANGLE  theta_a - theta_b - c - f(t) for planar bodies;
 *   NORM   p . p - 1 of a quaternion body;
 *   QUAD   r^T A r + b . r + c, a point on a ground quadric (the bead on a wire). */
#include "hs_mb_int.h"

/* Where a row's gradient entries go: G (dense or packed), or one body's slice times w. */
typedef struct rsink {
    const hs_mb_model *mb;
    hs_real *G;
    int row;
    int only;   /* >= 0: accumulate only this body's entries into out */
    hs_real w;
    hs_real *out;
} rsink;

/* The kinematics of the row operands that rows share (mb->kslot), for one evaluation: each
 * computed at its first use (bit in done), the same values as computing it at every use. */
typedef struct kcache {
    mb_pk k[MB_KCACHE];
    uint32_t done;
    int pos; /* 1: values only (g without G): positions, no Jacobians (mb_point_pos) */
} kcache;

/* One operand's kinematics as the evaluation c needs them (c NULL: all of them). */
static void row_opnd_kin(const hs_mb_model *mb, const hs_mb_opnd *o, hs_real t, const hs_real *q,
                      const hs_real *u, const kcache *c, mb_pk *k)
{
    if (c != NULL && c->pos != 0) {
        mb_point_pos(mb, o, t, q, k);
    } else {
        mb_point_kin(mb, o, t, q, u, k);
    }
}

/* Operand i of row r at (t, q, u): from the cache c when it has a slot there, else into loc. */
static const mb_pk *row_kin(const hs_mb_model *mb, int r, int i, hs_real t, const hs_real *q,
                            const hs_real *u, kcache *c, mb_pk *loc)
{
    const int sl = (c != NULL) ? mb->kslot[r][i] : -1;
    const mb_pk *k = loc;
    if (sl < 0) {
        row_opnd_kin(mb, &mb->rows[r].o[i], t, q, u, c, loc);
    } else {
        const uint32_t bit = (uint32_t)1u << (uint32_t)sl;
        if ((c->done & bit) == 0u) {
            row_opnd_kin(mb, &mb->rows[r].o[i], t, q, u, c, &c->k[sl]);
            c->done |= bit;
        }
        k = &c->k[sl];
    }
    return k;
}

static int row_same_opnd(const hs_mb_opnd *a, const hs_mb_opnd *b)
{
    return a->used == b->used && a->body == b->body && a->dir == b->dir && a->pt == b->pt
           && a->s[0] == b->s[0] && a->s[1] == b->s[1] && a->s[2] == b->s[2];
}

/* Operands of row r that the kinematics cache covers: DOT rows' four, a QUAD row's one. */
static int row_nopnd(const hs_mb_row *R)
{
    return (R->kind == HS_MB_ROW_DOT) ? 4 : ((R->kind == HS_MB_ROW_QUAD) ? 1 : 0);
}

void mb_kslot_prepare(hs_mb_model *mb)
{
    for (int r = 0; r < HS_MB_MAX_NC; ++r) {
        for (int i = 0; i < 4; ++i) { mb->kslot[r][i] = -1; }
    }
    int n = 0;
    for (int r = 0; r < mb->nrow; ++r) {
        for (int i = 0; i < row_nopnd(&mb->rows[r]); ++i) {
            const hs_mb_opnd *o = &mb->rows[r].o[i];
            /* a slot for an operand used again later (rows, or this row's later operands),
             * while slots last; an operand used once is computed where it is used */
            int later = 0;
            for (int r2 = r; (mb->kslot[r][i] < 0) && (n < MB_KCACHE) && (r2 < mb->nrow); ++r2) {
                for (int i2 = (r2 == r) ? i + 1 : 0; i2 < row_nopnd(&mb->rows[r2]); ++i2) {
                    if (row_same_opnd(o, &mb->rows[r2].o[i2]) != 0) { mb->kslot[r2][i2] = n; later = 1; }
                }
            }
            if (later != 0) { mb->kslot[r][i] = n; ++n; }
        }
    }
}

static void sink_add(const rsink *s, int body, int j, hs_real v)
{
    const hs_mb_model *mb = s->mb;
    if (body < 0) { return; }
    if (s->out != NULL) {
        if (body == s->only) { s->out[j] += s->w * v; }
        return;
    }
    if (mb->packed != 0) {
        const int cb = mb->cbidx[s->row];
        const int off = mb->cqoff[cb][body];
        if (off >= 0) { s->G[off + (s->row - mb->cbfirst[cb]) * mb->bnq[body] + j] += v; }
    } else {
        s->G[s->row * mb->nq + mb->qoff[body] + j] += v;
    }
}

/* c^T J of point k into the sink, scaled by sg. */
static void sink_point(const rsink *s, const mb_pk *k, const hs_real *c, hs_real sg)
{
    const hs_mb_model *mb = s->mb;
    if (s->out == NULL && k->body >= 0) {
        /* into G: the row's block of k's body looked up once (sink_add's index, per entry) */
        hs_real *blk = NULL;
        if (mb->packed != 0) {
            const int cb = mb->cbidx[s->row];
            const int off = mb->cqoff[cb][k->body];
            if (off >= 0) { blk = &s->G[off + (s->row - mb->cbfirst[cb]) * mb->bnq[k->body]]; }
        } else {
            blk = &s->G[s->row * mb->nq + mb->qoff[k->body]];
        }
        if (blk != NULL && k->nb == 7) {
            /* a spatial point by its shape (mb_pk): c . J(:, j) is c_j where J(:, j) is the
             * unit e_j (its zero terms change no non-zero sum, a zero adds nothing to G) */
            for (int j = 0; (k->jtr != 0) && (j < 3); ++j) { blk[j] += sg * c[j]; }
            for (int j = 3; (k->jrot != 0) && (j < 7); ++j) {
                blk[j] += sg * (c[0] * k->J[0][j] + c[1] * k->J[1][j] + c[2] * k->J[2][j]);
            }
        } else if (blk != NULL) {
            for (int j = 0; j < k->nb; ++j) {
                blk[j] += sg * (c[0] * k->J[0][j] + c[1] * k->J[1][j] + c[2] * k->J[2][j]);
            }
        } else {
            /* the block is absent from the packed pattern */
        }
        return;
    }
    for (int j = 0; j < k->nb; ++j) {
        sink_add(s, k->body, j, sg * (c[0] * k->J[0][j] + c[1] * k->J[1][j] + c[2] * k->J[2][j]));
    }
}

static hs_real theta_of(const hs_mb_model *mb, const hs_real *q, int b)
{
    return b < 0 ? HS_R(0.0) : q[mb->qoff[b] + 2];
}

/* The quadric's symmetric matrix (3 x 3). */
static void quad_A(const hs_mb_quadric *Q, hs_real A[3][3])
{
    A[0][0] = Q->A[0]; A[1][1] = Q->A[1]; A[2][2] = Q->A[2];
    A[0][1] = Q->A[3]; A[1][0] = Q->A[3];
    A[0][2] = Q->A[4]; A[2][0] = Q->A[4];
    A[1][2] = Q->A[5]; A[2][1] = Q->A[5];
}

/* g, gradient (into sink when s != NULL) and g_t of row r. */
static void row_g(const hs_mb_model *mb, int r, hs_real t, const hs_real *q, hs_real *g,
                  const rsink *s, hs_real *gt, kcache *kc)
{
    const hs_mb_row *R = &mb->rows[r];
    hs_real fv = HS_R(0.0), fd = HS_R(0.0);
    if (R->f != NULL) { mb_fn_eval(R->f, t, &fv, &fd, NULL); }
    switch (R->kind) {
    case HS_MB_ROW_DOT: {
        mb_pk kl[4];
        const mb_pk *k[4];
        for (int i = 0; i < 4; ++i) { k[i] = row_kin(mb, r, i, t, q, NULL, kc, &kl[i]); }
        hs_real a[3], b[3], at[3], bt[3];
        for (int i = 0; i < 3; ++i) {
            a[i] = k[0]->r[i] - k[1]->r[i]; b[i] = k[2]->r[i] - k[3]->r[i];
            at[i] = k[0]->rt[i] - k[1]->rt[i]; bt[i] = k[2]->rt[i] - k[3]->rt[i];
        }
        if (g != NULL) { *g = mb_dot3(a, b) - R->value - fv; }
        if (s != NULL) {
            sink_point(s, k[0], b, HS_R(1.0)); sink_point(s, k[1], b, HS_R(-1.0));
            sink_point(s, k[2], a, HS_R(1.0)); sink_point(s, k[3], a, HS_R(-1.0));
        }
        if (gt != NULL) { *gt = mb_dot3(b, at) + mb_dot3(a, bt) - fd; }
        break;
    }
    case HS_MB_ROW_ANGLE:
        if (g != NULL) { *g = theta_of(mb, q, R->body) - theta_of(mb, q, R->body2) - R->value - fv; }
        if (s != NULL) { sink_add(s, R->body, 2, HS_R(1.0)); sink_add(s, R->body2, 2, HS_R(-1.0)); }
        if (gt != NULL) { *gt = -fd; }
        break;
    case HS_MB_ROW_NORM: {
        const hs_real *p = &q[mb->qoff[R->body] + 3];
        if (g != NULL) { *g = p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3] - HS_R(1.0); }
        if (s != NULL) { for (int j = 0; j < 4; ++j) { sink_add(s, R->body, 3 + j, HS_R(2.0) * p[j]); } }
        if (gt != NULL) { *gt = HS_R(0.0); }
        break;
    }
    case HS_MB_ROW_QUAD: {
        mb_pk kl;
        hs_real A[3][3], n[3];
        const mb_pk *kp = row_kin(mb, r, 0, t, q, NULL, kc, &kl);
        quad_A(R->quad, A);
        for (int i = 0; i < 3; ++i) { n[i] = HS_R(2.0) * mb_dot3(A[i], kp->r) + R->quad->b[i]; }
        if (g != NULL) {
            hs_real Ar[3];
            for (int i = 0; i < 3; ++i) { Ar[i] = mb_dot3(A[i], kp->r); }
            *g = mb_dot3(kp->r, Ar) + mb_dot3(R->quad->b, kp->r) + R->quad->c - R->value - fv;
        }
        if (s != NULL) { sink_point(s, kp, n, HS_R(1.0)); }
        if (gt != NULL) { *gt = mb_dot3(n, kp->rt) - fd; }
        break;
    }
    default:
        break;
    }
}

hs_status mb_constraint(const hs_mb_model *mb, hs_real t, const hs_real *q, hs_real *g, hs_real *G,
                  hs_real *gt)
{
    if ((mb->fast & HS_MB_FAST_ROWS) != 0 && mb->packed == mb->fast_packed) {
        return mb_fast_constraint(mb, t, q, g, G, gt);
    }
    if (G != NULL) {
        mb_zero(G, mb->packed ? mb->cqsize : mb->nc * mb->nq);
    }
    kcache kc;
    kc.done = 0u;
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    kc.pos = (G == NULL) ? 1 : 0;
    for (int r = 0; r < mb->nrow; ++r) {
        rsink s = {mb, G, r, -1, HS_R(0.0), NULL};
        row_g(mb, r, t, q, g ? &g[r] : NULL, G ? &s : NULL, gt ? &gt[r] : NULL, &kc);
    }
    return HS_OK;
}

void mb_row_body_grad(const hs_mb_model *mb, int r, hs_real t, const hs_real *q, int body,
                      hs_real w, hs_real *out)
{
    rsink s = {mb, NULL, r, body, w, out};
    row_g(mb, r, t, q, NULL, &s, NULL, NULL);
}

hs_status mb_gamma(const hs_mb_model *mb, hs_real t, const hs_real *q, const hs_real *u, hs_real *gam)
{
    if ((mb->fast & HS_MB_FAST_ROWS) != 0) { return mb_fast_gamma(mb, t, q, u, gam); }
    kcache kc;
    kc.done = 0u;
    kc.pos = 0;
    for (int r = 0; r < mb->nrow; ++r) {
        const hs_mb_row *R = &mb->rows[r];
        hs_real fdd = HS_R(0.0);
        if (R->f != NULL) { mb_fn_eval(R->f, t, NULL, NULL, &fdd); }
        hs_real v = HS_R(0.0);
        switch (R->kind) {
        case HS_MB_ROW_DOT: {
            mb_pk kl[4];
            const mb_pk *k[4];
            for (int i = 0; i < 4; ++i) { k[i] = row_kin(mb, r, i, t, q, u, &kc, &kl[i]); }
            hs_real a[3], b[3], ad[3], bd[3], aa[3], ba[3];
            for (int i = 0; i < 3; ++i) {
                a[i] = k[0]->r[i] - k[1]->r[i]; b[i] = k[2]->r[i] - k[3]->r[i];
                ad[i] = k[0]->v[i] - k[1]->v[i]; bd[i] = k[2]->v[i] - k[3]->v[i];
                aa[i] = k[0]->ac[i] - k[1]->ac[i]; ba[i] = k[2]->ac[i] - k[3]->ac[i];
            }
            v = HS_R(2.0) * mb_dot3(ad, bd) + mb_dot3(b, aa) + mb_dot3(a, ba);
            break;
        }
        case HS_MB_ROW_ANGLE:
            break;
        case HS_MB_ROW_NORM: {
            const hs_real *pd = &u[mb->qoff[R->body] + 3];
            v = HS_R(2.0) * (pd[0] * pd[0] + pd[1] * pd[1] + pd[2] * pd[2] + pd[3] * pd[3]);
            break;
        }
        case HS_MB_ROW_QUAD: {
            mb_pk kl;
            hs_real A[3][3], n[3], Av[3];
            const mb_pk *kp = row_kin(mb, r, 0, t, q, u, &kc, &kl);
            quad_A(R->quad, A);
            for (int i = 0; i < 3; ++i) {
                n[i] = HS_R(2.0) * mb_dot3(A[i], kp->r) + R->quad->b[i];
                Av[i] = mb_dot3(A[i], kp->v);
            }
            v = HS_R(2.0) * mb_dot3(kp->v, Av) + mb_dot3(n, kp->ac);
            break;
        }
        default:
            break;
        }
        gam[r] = v - fdd;
    }
    return HS_OK;
}

hs_status mb_curvature(const hs_mb_model *mb, hs_real t, const hs_real *q, const hs_real *lambda,
                 hs_real *K)
{
    if ((mb->fast & HS_MB_FAST_ROWS) != 0) { return mb_fast_curvature(mb, t, q, lambda, K); }
    mb_qq_zero(mb, K);
    kcache kc;
    kc.done = 0u;
    kc.pos = 0;
    for (int r = 0; r < mb->nrow; ++r) {
        const hs_mb_row *R = &mb->rows[r];
        const hs_real lam = lambda[r];
        switch (R->kind) {
        case HS_MB_ROW_DOT: {
            mb_pk kl[4];
            const mb_pk *k[4];
            for (int i = 0; i < 4; ++i) { k[i] = row_kin(mb, r, i, t, q, NULL, &kc, &kl[i]); }
            hs_real a[3], b[3];
            for (int i = 0; i < 3; ++i) {
                a[i] = k[0]->r[i] - k[1]->r[i]; b[i] = k[2]->r[i] - k[3]->r[i];
            }
            /* d/dq of lam (Ja^T b + Jb^T a) with Ja = J0 - J1, Jb = J2 - J3 */
            for (int i = 0; i < 2; ++i) {
                for (int j = 2; j < 4; ++j) {
                    const hs_real sg = lam * ((i == 0) == (j == 2) ? HS_R(1.0) : HS_R(-1.0));
                    mb_add_jtj_pair(mb, K, k[i], k[j], sg);
                }
            }
            for (int i = 0; i < 4; ++i) {
                mb_add_point_hess(mb, K, &R->o[i], q, i < 2 ? b : a, (i % 2 == 0) ? lam : -lam);
            }
            break;
        }
        case HS_MB_ROW_NORM:
            for (int j = 0; j < 4; ++j) { mb_qq_add(mb, K, R->body, 3 + j, R->body, 3 + j, HS_R(2.0) * lam); }
            break;
        case HS_MB_ROW_QUAD: {
            mb_pk kl;
            hs_real A[3][3], n[3];
            const mb_pk *k = row_kin(mb, r, 0, t, q, NULL, &kc, &kl);
            quad_A(R->quad, A);
            for (int i = 0; i < 3; ++i) { n[i] = HS_R(2.0) * mb_dot3(A[i], k->r) + R->quad->b[i]; }
            mb_add_jxj(mb, K, k, A, k, HS_R(2.0) * lam);
            mb_add_point_hess(mb, K, &R->o[0], q, n, lam);
            break;
        }
        default: /* ANGLE rows are linear */
            break;
        }
    }
    return HS_OK;
}


/* The constraint rows over HS_MB_MAX_NC: a lower bound of the need (one row more than fitted,
 * a row for each of the later joints and a norm row for each spatial body from body b0 on). */
static int rows_over(hs_mb_model *mb, int later_joints, int b0)
{
    const hs_mb_desc *D = mb->desc;
    int need = HS_MB_MAX_NC + 1 + later_joints;
    for (int b = b0; b < D->nbodies; ++b) {
        if (D->bodies[b].kind == HS_MB_SPATIAL) { ++need; }
    }
    return mb_lim_fail(mb, "constraint rows", need, 1, "HS_MB_MAX_NC", HS_MB_MAX_NC, "HS_MB_MAX_NC");
}

hs_status mb_build_rows(hs_mb_model *mb, int *bad)
{
    const hs_mb_desc *D = mb->desc;
    mb->nrow = 0;
    mb->nmade = 0;
    /* no cache slots until mb_kslot_prepare assigns them: rows evaluated while compiling (a
     * fixed joint's set values) must not read one another's operands from slot 0 */
    mb_kslot_prepare(mb);
    for (int j = 0; j < D->njoints; ++j) {
        const int kind = (int)D->joints[j].kind;
        *bad = j;
        mb->jrow[j] = mb->nrow;
        if (kind < 0 || kind >= (int)HS_MB_JOINT_KINDS) { return HS_E_MODEL_PARAM; }
        const int rc = mb_joint_elems[kind]->rows(mb, j);
        if ((rc == (int)HS_E_SIZE) && (mb->nrow >= (int)HS_MB_MAX_NC)) { return rows_over(mb, D->njoints - j - 1, 0); }
        if (rc != 0) { return rc; }
        if (mb->nrow - mb->jrow[j] > HS_MB_MAX_ROWS) {
            return mb_lim_fail(mb, "rows of one joint", mb->nrow - mb->jrow[j], 0, "HS_MB_MAX_ROWS", HS_MB_MAX_ROWS, "HS_MB_MAX_ROWS");
        }
    }
    mb->jrow[D->njoints] = mb->nrow;
    *bad = -1;
    for (int b = 0; b < D->nbodies; ++b) {
        if (D->bodies[b].kind != HS_MB_SPATIAL) { continue; }
        const int rc = mb_norm_row(mb, b);
        if (rc != (int)HS_OK) { return rows_over(mb, 0, b + 1); }
    }
    return HS_OK;
}
