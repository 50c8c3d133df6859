/* hs_mb_fast.c - specialized evaluators for planar descriptions (every body planar or point2,
 * rows DOT or ANGLE, force elements springs): the same g, G, g_t, gamma, K, f, fq, fu and M as
 * the general evaluators in hs_mb_joint.c, hs_mb_force.c and hs_mb.c, computed without their
 * per-operand 3 x 7 Jacobians, per-entry block look-ups and per-operand sines.
 *
 * Why: the general path evaluates every row operand as a spatial point (zeroing and multiplying
 * a 3 x 7 Jacobian), finds every matrix entry through the block tables, and takes a sine and a
 * cosine per operand; a planar chain's hinge pays that four times per row. Here each operand's
 * kind and each G entry's index are fixed at compile (mb_fast_prepare), a call takes one sine
 * and cosine per planar body, and every loop count depends on the description only. */
#include "hs_mb_int.h"
#include "hs_inline.h"
#include "hs_math.h"

/* Operand kinds (hs_mb_fterm.kind, hs_mb_model.ffop). */
#define FOP_CONST 0   /* ground point or direction, or unused (the origin): r = s */
#define FOP_MOVE1 1   /* ground point s + f(t) */
#define FOP_MOVE2 2   /* ground point on a circle (hs_mb_point moving = 2) */
#define FOP_POINT 3   /* point2 body: r = tr x + s */
#define FOP_PLANAR 4  /* planar body: r = tr x + R(theta) s */
#define FOP_NONE (-1) /* not supported here: the description takes the general path */

/* Kinematics of one planar operand: r, its explicit time derivatives, velocity, J'u + r_tt, the
 * 2 x nb Jacobian, and R s (planar). */
typedef struct fpk {
    int body, nb;
    hs_real r[2], rt[2], v[2], ac[2], rs[2];
    hs_real J[2][3];
} fpk;

static int op_kind(const hs_mb_desc *D, const hs_mb_opnd *o)
{
    int k = FOP_NONE;
    if (o->used == 0 || o->body < 0) {
        if (o->used == 0 || o->pt == NULL || o->pt->moving == 0) {
            k = FOP_CONST;
        } else if (o->pt->moving == 1) {
            k = FOP_MOVE1;
        } else if (o->pt->moving == 2) {
            k = FOP_MOVE2;
        } else {
            k = FOP_NONE;
        }
    } else if (D->bodies[o->body].kind == HS_MB_PLANAR) {
        k = FOP_PLANAR;
    } else if (D->bodies[o->body].kind == HS_MB_POINT2) {
        k = FOP_POINT;
    } else {
        k = FOP_NONE;
    }
    return k;
}

/* Index of the (theta, theta) entry of planar body b in a dense or packed nq x nq matrix. */
static int k_index(const hs_mb_model *mb, int b)
{
    int ix;
    if (mb->packed != 0) {
        ix = mb->qqoff[b][b] + 2 * mb->bnq[b] + 2;
    } else {
        ix = (mb->qoff[b] + 2) * mb->nq + mb->qoff[b] + 2;
    }
    return ix;
}

static int same_opnd(const hs_mb_opnd *a, const hs_mb_opnd *b)
{
    return a->used == b->used && a->body == b->body && a->dir == b->dir && a->pt == b->pt
           && a->s[0] == b->s[0] && a->s[1] == b->s[1] && a->s[2] == b->s[2];
}

/* 1 when DOT row r is (a - b) . c with c = (cx, cy) exactly, a - b of point terms on bodies
 * (no moving ground point, no time law): the shape of a planar coincidence's rows. */
static int pair_row(const hs_mb_model *mb, int r, hs_real cx, hs_real cy)
{
    const hs_mb_row *R = &mb->rows[r];
    int ok = (int)((R->kind == HS_MB_ROW_DOT) && (mb->fbconst[r] != 0) && (mb->fsym[r] == 0) && (R->f == NULL)
             && (mb->fmov[r] == 0) && (mb->fcab[r][2] == cx) && (mb->fcab[r][3] == cy) && (mb->fnt[r] > 0));
    for (int i = 0; (ok != 0) && (i < mb->fnt[r]); ++i) {
        const hs_mb_fterm *T = &mb->fterm[r][i];
        if ((T->body < 0) || (T->gix < 0) || (T->tr != HS_R(1.0)) || (T->side != 0)) { ok = 0; }
    }
    return ok;
}

/* The coincidence pairs (fpair): row r along x, row r + 1 along y with row r's terms, and no
 * later row reading the terms they leave behind. */
static void mark_pairs(hs_mb_model *mb)
{
    for (int r = 0; r < mb->nrow; ++r) { mb->fpair[r] = 0; }
    for (int r = 0; r + 1 < mb->nrow; ++r) {
        if ((mb->fpair[r] == 0) && (mb->fshare[r] == 0) && (pair_row(mb, r, HS_R(1.0), HS_R(0.0)) != 0)
            && (pair_row(mb, r + 1, HS_R(0.0), HS_R(1.0)) != 0) && (mb->fshare[r + 1] != 0)
            && (mb->fnt[r + 1] == mb->fnt[r]) && ((r + 2 >= mb->nrow) || (mb->fshare[r + 2] == 0))) {
            mb->fpair[r] = 1;
            mb->fpair[r + 1] = 2;
        }
    }
    for (int r = 0; r < mb->nrow; ++r) {
        const hs_mb_row *R = &mb->rows[r];
        int ok = (int)((R->kind == HS_MB_ROW_DOT) && (mb->fsym[r] != 0) && (R->f == NULL) && (mb->fmov[r] == 0)
                 && (mb->fshare[r] == 0) && (mb->fna[r] > 0) && ((r + 1 >= mb->nrow) || (mb->fshare[r + 1] == 0)));
        for (int i = 0; (ok != 0) && (i < mb->fna[r]); ++i) {
            const hs_mb_fterm *T = &mb->fterm[r][i];
            if ((T->body < 0) || (T->gix < 0) || (T->tr != HS_R(1.0)) || (T->side != 0)) { ok = 0; }
        }
        if ((ok != 0) && (mb->fpair[r] == 0)) { mb->fpair[r] = 3; }
    }
}

void mb_fast_prepare(hs_mb_model *mb)
{
    const hs_mb_desc *D = mb->desc;
    int rows_ok = 1, forces_ok = 1;
    mb->fast = 0;
    mb->plan = 0;
    mb->fast_packed = mb->packed;
    /* contacts (unilateral rows) keep the general evaluators: not measured on this path */
    if (D->dim != 2 || mb->nk > 0) { return; }
    mb->nfplanar = 0;
    for (int b = 0; b < D->nbodies; ++b) {
        if (D->bodies[b].kind == HS_MB_PLANAR) { mb->fplanar[mb->nfplanar] = b; ++mb->nfplanar; }
    }
    for (int r = 0; r < mb->nrow; ++r) {
        const hs_mb_row *R = &mb->rows[r];
        mb->fshare[r] = 0;
        mb->fbconst[r] = 0;
        mb->fsym[r] = 0;
        mb->fna[r] = 0;
        mb->fmov[r] = 0;
        mb->fnt[r] = 0;
        if (R->kind == HS_MB_ROW_DOT) {
            if (r > 0 && mb->rows[r - 1].kind == HS_MB_ROW_DOT && same_opnd(&R->o[0], &mb->rows[r - 1].o[0]) != 0
                && same_opnd(&R->o[1], &mb->rows[r - 1].o[1]) != 0) {
                mb->fshare[r] = 1;
            }
            for (int i = 0; i < 4; ++i) { mb->fcab[r][i] = HS_R(0.0); }
            int nt = 0;
            for (int i = 0; i < 4; ++i) {
                const hs_mb_opnd *o = &R->o[i];
                const int k = op_kind(D, o);
                const int side = i / 2;
                const hs_real sign = ((i % 2) == 0) ? HS_R(1.0) : HS_R(-1.0);
                if (k == FOP_NONE) {
                    rows_ok = 0;
                } else if (k == FOP_CONST) {
                    mb->fcab[r][2 * side] += sign * o->s[0];
                    mb->fcab[r][2 * side + 1] += sign * o->s[1];
                } else {
                    hs_mb_fterm *T = &mb->fterm[r][nt];
                    T->kind = k; T->side = side; T->sign = sign;
                    T->body = o->body;
                    T->qo = (o->body >= 0) ? mb->qoff[o->body] : 0;
                    T->gix = (o->body >= 0) ? hs_mb_g_index(mb, r, o->body) : -1;
                    T->kix = (k == FOP_PLANAR) ? k_index(mb, o->body) : -1;
                    T->tr = (o->dir != 0) ? HS_R(0.0) : HS_R(1.0);
                    T->s[0] = o->s[0]; T->s[1] = o->s[1];
                    T->pt = o->pt;
                    ++nt;
                }
            }
            mb->fnt[r] = (signed char)nt;
            mb->fbconst[r] = 1;
            int na = 0, mov = 0;
            for (int i = 0; i < nt; ++i) {
                if (mb->fterm[r][i].side != 0) { mb->fbconst[r] = 0; } else { ++na; }
                if (mb->fterm[r][i].body < 0) { mov = 1; }
            }
            mb->fna[r] = (signed char)na;
            mb->fmov[r] = (signed char)mov;
            mb->fsym[r] = 0;
            if (same_opnd(&R->o[0], &R->o[2]) != 0 && same_opnd(&R->o[1], &R->o[3]) != 0) { mb->fsym[r] = 1; }
        } else if (R->kind == HS_MB_ROW_ANGLE) {
            mb->fgb[r][0] = hs_mb_g_index(mb, r, R->body);
            mb->fgb[r][1] = hs_mb_g_index(mb, r, R->body2);
        } else {
            rows_ok = 0;
        }
    }
    mark_pairs(mb);
    for (int e = 0; e < D->nforces; ++e) {
        const hs_mb_force *E = &D->forces[e];
        if (mb_force_elems[E->kind]->spring != MB_YES) {
            forces_ok = 0;
        } else {
            const hs_mb_opnd oa = mb_op_point(&E->a), ob = mb_op_point(&E->b);
            const int ka = op_kind(D, &oa), kb = op_kind(D, &ob);
            mb->ffop[e][0] = (signed char)ka;
            mb->ffop[e][1] = (signed char)kb;
            if (ka == FOP_NONE || kb == FOP_NONE) { forces_ok = 0; }
        }
    }
    mb->fast = HS_MB_FAST_MASS;
    if (rows_ok != 0) { mb->fast |= HS_MB_FAST_ROWS; }
    if (forces_ok != 0) { mb->fast |= HS_MB_FAST_FORCES; }
}

/* Sine and cosine of every planar body's angle (sc[2 b], sc[2 b + 1]). */
static void body_trig(const hs_mb_model *mb, const hs_real *q, hs_real *sc)
{
    for (int i = 0; i < mb->nfplanar; ++i) {
        const int b = mb->fplanar[i];
        hs_sincos(q[mb->qoff[b] + 2], &sc[2 * b], &sc[2 * b + 1]);
    }
}

/* Kinematics of operand o of kind kind at (t, q) and, with u, its velocity and J'u + r_tt. */
static inline void fkin(const hs_mb_model *mb, const hs_mb_opnd *o, int kind, hs_real t, const hs_real *q,
                 const hs_real *u, const hs_real *sc, fpk *k)
{
    k->body = HS_MB_GROUND;
    k->nb = 0;
    k->rt[0] = HS_R(0.0); k->rt[1] = HS_R(0.0);
    k->ac[0] = HS_R(0.0); k->ac[1] = HS_R(0.0);
    switch (kind) {
    case FOP_MOVE1:
        for (int i = 0; i < 2; ++i) {
            hs_real v, d, dd;
            mb_fn_eval(&o->pt->f[i], t, &v, &d, &dd);
            k->r[i] = o->s[i] + v; k->rt[i] = d; k->ac[i] = dd;
        }
        k->v[0] = k->rt[0]; k->v[1] = k->rt[1];
        break;
    case FOP_MOVE2: {
        /* y = fy(t) on the circle x^2 + y^2 = R^2 (the car axle's road point) */
        const hs_mb_point *pt = o->pt;
        hs_real y, y1, y2;
        mb_fn_eval(&pt->f[1], t, &y, &y1, &y2);
        const hs_real x = hs_sqrt(pt->radius * pt->radius - y * y);
        const hs_real x1 = -y * y1 / x;
        const hs_real x2 = -(y1 * y1 + y * y2 + x1 * x1) / x;
        k->r[0] = o->s[0] + x; k->r[1] = o->s[1] + y;
        k->rt[0] = x1; k->rt[1] = y1;
        k->ac[0] = x2; k->ac[1] = y2;
        k->v[0] = x1; k->v[1] = y1;
        break;
    }
    case FOP_POINT: {
        const hs_real *x = &q[mb->qoff[o->body]];
        const hs_real tr = (o->dir != 0) ? HS_R(0.0) : HS_R(1.0);
        k->body = o->body; k->nb = 2;
        k->r[0] = tr * x[0] + o->s[0]; k->r[1] = tr * x[1] + o->s[1];
        k->J[0][0] = tr; k->J[0][1] = HS_R(0.0);
        k->J[1][0] = HS_R(0.0); k->J[1][1] = tr;
        if (u != NULL) {
            const hs_real *ud = &u[mb->qoff[o->body]];
            k->v[0] = tr * ud[0]; k->v[1] = tr * ud[1];
        }
        break;
    }
    case FOP_PLANAR: {
        const hs_real *x = &q[mb->qoff[o->body]];
        const hs_real tr = (o->dir != 0) ? HS_R(0.0) : HS_R(1.0);
        const hs_real s = sc[2 * o->body], c = sc[2 * o->body + 1];
        const hs_real rs0 = c * o->s[0] - s * o->s[1], rs1 = s * o->s[0] + c * o->s[1];
        k->body = o->body; k->nb = 3;
        k->rs[0] = rs0; k->rs[1] = rs1;
        k->r[0] = tr * x[0] + rs0; k->r[1] = tr * x[1] + rs1;
        k->J[0][0] = tr; k->J[0][1] = HS_R(0.0); k->J[0][2] = -rs1;
        k->J[1][0] = HS_R(0.0); k->J[1][1] = tr; k->J[1][2] = rs0;
        if (u != NULL) {
            const hs_real *ud = &u[mb->qoff[o->body]];
            const hs_real w = ud[2];
            k->v[0] = tr * ud[0] - rs1 * w; k->v[1] = tr * ud[1] + rs0 * w;
            k->ac[0] = -w * w * rs0; k->ac[1] = -w * w * rs1;
        }
        break;
    }
    default: /* FOP_CONST */
        k->r[0] = o->s[0]; k->r[1] = o->s[1];
        k->v[0] = HS_R(0.0); k->v[1] = HS_R(0.0);
        break;
    }
}

static void zero(hs_real *A, int n)
{
    /* four at a time: the packed G and K of a chain are hundreds of entries per call */
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        A[i] = HS_R(0.0); A[i + 1] = HS_R(0.0); A[i + 2] = HS_R(0.0); A[i + 3] = HS_R(0.0);
    }
    for (; i < n; ++i) { A[i] = HS_R(0.0); }
}

static int qq_size(const hs_mb_model *mb) { return (mb->packed != 0) ? mb->qqsize : mb->nq * mb->nq; }

/* Values of one row term at (t, q) and, with u, its velocity and J'u + r_tt. */
typedef struct tv {
    hs_real r[2], rt[2], v[2], ac[2], rs[2];
} tv;

/* A moving ground point term (its time law: sine, square root). */
static void term_moving(const hs_mb_model *mb, const hs_mb_fterm *T, hs_real t, const hs_real *q,
                        const hs_real *u, const hs_real *sc, tv *o)
{
    hs_mb_opnd op;
    fpk k;
    op.used = 1; op.body = HS_MB_GROUND; op.dir = 0; op.pt = T->pt;
    op.s[0] = T->s[0]; op.s[1] = T->s[1]; op.s[2] = HS_R(0.0);
    fkin(mb, &op, T->kind, t, q, u, sc, &k);
    for (int i = 0; i < 2; ++i) { o->r[i] = k.r[i]; o->rt[i] = k.rt[i]; o->v[i] = k.v[i]; o->ac[i] = k.ac[i]; }
}

/* A term on a body (planar or point2): position, and with u its velocity and J'u. */
static inline void term_body(const hs_mb_fterm *T, const hs_real *q, const hs_real *u, const hs_real *sc, tv *o)
{
    const hs_real *x = &q[T->qo];
    if (T->kind == FOP_PLANAR) {
        const hs_real sn = sc[2 * T->body], cs = sc[2 * T->body + 1];
        const hs_real rs0 = cs * T->s[0] - sn * T->s[1], rs1 = sn * T->s[0] + cs * T->s[1];
        o->rs[0] = rs0; o->rs[1] = rs1;
        o->r[0] = T->tr * x[0] + rs0; o->r[1] = T->tr * x[1] + rs1;
        if (u != NULL) {
            const hs_real *ud = &u[T->qo];
            const hs_real w = ud[2];
            o->v[0] = T->tr * ud[0] - rs1 * w; o->v[1] = T->tr * ud[1] + rs0 * w;
            o->ac[0] = -w * w * rs0; o->ac[1] = -w * w * rs1;
        }
    } else {
        o->r[0] = T->tr * x[0] + T->s[0]; o->r[1] = T->tr * x[1] + T->s[1];
        if (u != NULL) {
            o->v[0] = T->tr * u[T->qo]; o->v[1] = T->tr * u[T->qo + 1];
            o->ac[0] = HS_R(0.0); o->ac[1] = HS_R(0.0);
        }
    }
}

static inline void term_eval(const hs_mb_model *mb, const hs_mb_fterm *T, hs_real t, const hs_real *q,
                             const hs_real *u, const hs_real *sc, tv *o)
{
    if (T->body >= 0) {
        term_body(T, q, u, sc, o);
    } else {
        term_moving(mb, T, t, q, u, sc, o);
    }
}

/* The row's a, b (and their rates) from its constant parts and its first n terms (n = all, or
 * those of a - b for a distance row, whose b is a). */
typedef struct rowv {
    hs_real a[2], b[2], at[2], bt[2], ad[2], bd[2], aa[2], ba[2];
} rowv;

static inline void row_sum(const hs_mb_model *mb, int r, int n, const tv *v, int with_u, rowv *o)
{
    const hs_mb_fterm *T = mb->fterm[r];
    o->a[0] = mb->fcab[r][0]; o->a[1] = mb->fcab[r][1];
    o->b[0] = mb->fcab[r][2]; o->b[1] = mb->fcab[r][3];
    for (int i = 0; i < 2; ++i) {
        o->at[i] = HS_R(0.0); o->bt[i] = HS_R(0.0); o->ad[i] = HS_R(0.0); o->bd[i] = HS_R(0.0);
        o->aa[i] = HS_R(0.0); o->ba[i] = HS_R(0.0);
    }
    for (int i = 0; i < n; ++i) {
        const hs_real sg = T[i].sign;
        const int sa = (int)(T[i].side == 0);
        hs_real *x = (sa != 0) ? o->a : o->b;
        x[0] += sg * v[i].r[0]; x[1] += sg * v[i].r[1];
        if (T[i].body < 0) {
            hs_real *xt = (sa != 0) ? o->at : o->bt;
            xt[0] += sg * v[i].rt[0]; xt[1] += sg * v[i].rt[1];
        }
        if (with_u != 0) {
            hs_real *xd = (sa != 0) ? o->ad : o->bd, *xa = (sa != 0) ? o->aa : o->ba;
            xd[0] += sg * v[i].v[0]; xd[1] += sg * v[i].v[1];
            xa[0] += sg * v[i].ac[0]; xa[1] += sg * v[i].ac[1];
        }
    }
}

/* Terms 0..n-1 of row r into v; the terms of a - b are row r - 1's when they are shared. */
static inline void row_terms(const hs_mb_model *mb, int r, int n, hs_real t, const hs_real *q, const hs_real *u,
                             const hs_real *sc, tv *v)
{
    const hs_mb_fterm *T = mb->fterm[r];
    const int from = (mb->fshare[r] != 0) ? mb->fna[r] : 0;
    for (int i = from; i < n; ++i) { term_eval(mb, &T[i], t, q, u, sc, &v[i]); }
}

/* Terms a DOT row evaluates: a distance row only those of a - b (its c - d is the same). */
static int row_nterms(const hs_mb_model *mb, int r) { return (mb->fsym[r] != 0) ? mb->fna[r] : mb->fnt[r]; }

/* G row r += scale sign_i c^T J_i for the terms i < n (c: b for terms of a - b, else a). */
static inline void row_grad(const hs_mb_model *mb, int r, int n, const tv *v, const hs_real *ca,
                            const hs_real *cb, hs_real scale, hs_real *G)
{
    const hs_mb_fterm *T = mb->fterm[r];
    for (int i = 0; i < n; ++i) {
        if (T[i].gix < 0) { continue; }
        const hs_real *c = (T[i].side == 0) ? cb : ca;
        const hs_real sg = scale * T[i].sign;
        const hs_real st = sg * T[i].tr;
        hs_real *Gr = &G[T[i].gix];
        Gr[0] += st * c[0];
        Gr[1] += st * c[1];
        if (T[i].kind == FOP_PLANAR) { Gr[2] += sg * (c[1] * v[i].rs[0] - c[0] * v[i].rs[1]); }
    }
}

/* A(bi, bj) += s Ji^T X Jj for 2 x nbi Ji, 2 x nbj Jj, X (2 x 2) or the identity when NULL. */
static void add_jxj2(const hs_mb_model *mb, hs_real *A, int bi, int nbi, hs_real (*Ji)[3],
                     hs_real (*X)[2], int bj, int nbj, hs_real (*Jj)[3], hs_real s)
{
    int st;
    hs_real *Ab = &A[hs_mb_qq_base(mb, bi, bj, &st)];
    for (int i = 0; i < nbi; ++i) {
        hs_real jx0 = Ji[0][i], jx1 = Ji[1][i];
        if (X != NULL) {
            jx0 = Ji[0][i] * X[0][0] + Ji[1][i] * X[1][0];
            jx1 = Ji[0][i] * X[0][1] + Ji[1][i] * X[1][1];
        }
        for (int j = 0; j < nbj; ++j) { Ab[i * st + j] += s * (jx0 * Jj[0][j] + jx1 * Jj[1][j]); }
    }
}

/* The 2 x nb Jacobian of a body term. */
static int term_J(const hs_mb_fterm *T, const tv *v, hs_real J[2][3])
{
    J[0][0] = T->tr; J[0][1] = HS_R(0.0); J[0][2] = HS_R(0.0);
    J[1][0] = HS_R(0.0); J[1][1] = T->tr; J[1][2] = HS_R(0.0);
    if (T->kind == FOP_PLANAR) { J[0][2] = -v->rs[1]; J[1][2] = v->rs[0]; }
    return (T->kind == FOP_PLANAR) ? 3 : 2;
}

/* A(b, b)[2][2] += v for a planar body b (the only nonzero of a planar point's Hessian). */
static void add_theta(const hs_mb_model *mb, hs_real *A, int b, hs_real v)
{
    int st;
    const int ix = hs_mb_qq_base(mb, b, b, &st);
    A[ix + 2 * st + 2] += v;
}

/* A term's point in the world axes: s turned by its body's angle (sc: sin, cos per body) for a
 * planar term, s as it is for a point; (rs0, rs1) in m. */
static void term_point(const hs_mb_fterm *Ti, const hs_real *sc, hs_real *rs0, hs_real *rs1)
{
    if (Ti->kind == FOP_PLANAR) {
        const hs_real sn = sc[2 * Ti->body], cs = sc[2 * Ti->body + 1];
        *rs0 = cs * Ti->s[0] - sn * Ti->s[1];
        *rs1 = sn * Ti->s[0] + cs * Ti->s[1];
    } else {
        *rs0 = Ti->s[0];
        *rs1 = Ti->s[1];
    }
}

/* Rows r, r + 1 of a coincidence pair (fpair): what the general fbconst branch of fast_rows
 * computes for c = (1, 0) and (0, 1), without the products by 0 and 1 (they are exact: the
 * same values) and with the terms' kinematics once for both rows. */
static void pair_rows(const hs_mb_model *mb, int r, const hs_real *q, const hs_real *u, const hs_real *sc,
                      hs_real *g, hs_real *G, hs_real *gt, hs_real *gam, const hs_real *lambda, hs_real *K)
{
    const hs_mb_fterm *T = mb->fterm[r];
    hs_real a0 = mb->fcab[r][0], a1 = mb->fcab[r + 1][1], aa0 = HS_R(0.0), aa1 = HS_R(0.0);
    hs_real rs[4][2];
    for (int i = 0; i < mb->fnt[r]; ++i) {
        const hs_mb_fterm *Ti = &T[i];
        const hs_real *x = &q[Ti->qo];
        const hs_real sg = Ti->sign;
        hs_real rs0, rs1;
        term_point(Ti, sc, &rs0, &rs1);
        rs[i][0] = rs0; rs[i][1] = rs1;
        a0 += sg * (x[0] + rs0);
        a1 += sg * (x[1] + rs1);
        if (G != NULL) {
            hs_real *Gr = &G[Ti->gix], *Gs = &G[mb->fterm[r + 1][i].gix];
            Gr[0] += sg;
            Gs[1] += sg;
            if (Ti->kind == FOP_PLANAR) { Gr[2] += sg * -rs1; Gs[2] += sg * rs0; }
        }
        if ((gam != NULL) && (Ti->kind == FOP_PLANAR)) {
            const hs_real w = u[Ti->qo + 2];
            aa0 += sg * (-w * w * rs0);
            aa1 += sg * (-w * w * rs1);
        }
    }
    if (g != NULL) {
        g[r] = a0 - mb->rows[r].value;
        g[r + 1] = a1 - mb->rows[r + 1].value;
    }
    if (gt != NULL) { gt[r] = HS_R(0.0); gt[r + 1] = HS_R(0.0); }
    if (gam != NULL) { gam[r] = aa0; gam[r + 1] = aa1; }
    if (K != NULL) {
        for (int k = 0; k < 2; ++k) {
            const hs_real lam = lambda[r + k];
            for (int i = 0; i < mb->fnt[r]; ++i) {
                if (T[i].kind == FOP_PLANAR) { K[T[i].kix] += lam * T[i].sign * -rs[i][k]; }
            }
        }
    }
}

/* Row r, a distance (fpair 3): what the general fsym branch of fast_rows computes for body
 * points without a time law, with the terms' kinematics in one loop (same expressions: the
 * translations' factor 1 and the absent time law's 0 leave the values as they are). */
static void dist_row(const hs_mb_model *mb, int r, const hs_real *q, const hs_real *u, const hs_real *sc,
                     hs_real *g, hs_real *G, hs_real *gt, hs_real *gam, const hs_real *lambda, hs_real *K)
{
    const hs_mb_fterm *T = mb->fterm[r];
    const int n = mb->fna[r];
    hs_real a0 = mb->fcab[r][0], a1 = mb->fcab[r][1];
    hs_real ad0 = HS_R(0.0), ad1 = HS_R(0.0), aa0 = HS_R(0.0), aa1 = HS_R(0.0);
    tv v[4];
    for (int i = 0; i < n; ++i) {
        const hs_mb_fterm *Ti = &T[i];
        const hs_real *x = &q[Ti->qo];
        const hs_real sg = Ti->sign;
        hs_real rs0, rs1;
        term_point(Ti, sc, &rs0, &rs1);
        v[i].rs[0] = rs0; v[i].rs[1] = rs1;
        a0 += sg * (x[0] + rs0);
        a1 += sg * (x[1] + rs1);
        if (gam != NULL) {
            const hs_real *ud = &u[Ti->qo];
            if (Ti->kind == FOP_PLANAR) {
                const hs_real w = ud[2];
                ad0 += sg * (ud[0] - rs1 * w); ad1 += sg * (ud[1] + rs0 * w);
                aa0 += sg * (-w * w * rs0); aa1 += sg * (-w * w * rs1);
            } else {
                ad0 += sg * ud[0]; ad1 += sg * ud[1];
            }
        }
    }
    if (g != NULL) { g[r] = a0 * a0 + a1 * a1 - mb->rows[r].value; }
    if (gt != NULL) { gt[r] = HS_R(0.0); }
    if (gam != NULL) { gam[r] = HS_R(2.0) * (ad0 * ad0 + ad1 * ad1) + HS_R(2.0) * (a0 * aa0 + a1 * aa1); }
    if (G != NULL) {
        for (int i = 0; i < n; ++i) {
            const hs_real sg = HS_R(2.0) * T[i].sign;
            hs_real *Gr = &G[T[i].gix];
            Gr[0] += sg * a0;
            Gr[1] += sg * a1;
            if (T[i].kind == FOP_PLANAR) { Gr[2] += sg * (a1 * v[i].rs[0] - a0 * v[i].rs[1]); }
        }
    }
    if (K == NULL) { return; }
    /* lam |a|^2: each term's own Hessian against a, then J_i^T J_j of every ordered pair, twice */
    const hs_real lam = lambda[r];
    for (int i = 0; i < n; ++i) {
        if (T[i].kind == FOP_PLANAR) { K[T[i].kix] += HS_R(2.0) * lam * T[i].sign * -(a0 * v[i].rs[0] + a1 * v[i].rs[1]); }
    }
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
            const hs_real sg = HS_R(2.0) * lam * T[i].sign * T[j].sign;
            if ((T[i].kind == FOP_POINT) && (T[j].kind == FOP_POINT)) {
                /* two points: J_i^T J_j = I; the general product adds sg (1 + 0) = sg on the
                 * diagonal and sg 0 (no change) off it */
                int st;
                const int ix = hs_mb_qq_base(mb, T[i].body, T[j].body, &st);
                K[ix] += sg;
                K[ix + st + 1] += sg;
                continue;
            }
            hs_real Ji[2][3], Jj[2][3];
            const int ni = term_J(&T[i], &v[i], Ji), nj = term_J(&T[j], &v[j], Jj);
            add_jxj2(mb, K, T[i].body, ni, Ji, NULL, T[j].body, nj, Jj, sg);
        }
    }
}

/* A general row's values from its sums w: (a - b) . (a - b) (fsym: g = |a|^2, G = 2 a^T J_a,
 * g_t = 2 a . a_t) or (a - b) . (c - d); row r, R, n terms T with values v; outputs as
 * angle_row's. */
HS_INLINE void gen_row(const hs_mb_model *mb, int r, const hs_mb_row *R, int n, const tv *v, const rowv *w,
                       hs_real fv, hs_real fd, hs_real fdd, hs_real *g, hs_real *G, hs_real *gt, hs_real *gam)
{
    if (mb->fsym[r] != 0) {
        /* (a - b) . (a - b): g = |a|^2, G = 2 a^T J_a, g_t = 2 a . a_t */
        if (g != NULL) { g[r] = w->a[0] * w->a[0] + w->a[1] * w->a[1] - R->value - fv; }
        if (G != NULL) { row_grad(mb, r, n, v, w->a, w->a, HS_R(2.0), G); }
        if (gt != NULL) {
            gt[r] = ((mb->fmov[r] != 0) ? HS_R(2.0) * (w->a[0] * w->at[0] + w->a[1] * w->at[1]) : HS_R(0.0)) - fd;
        }
        if (gam != NULL) {
            gam[r] = (HS_R(2.0) * (w->ad[0] * w->ad[0] + w->ad[1] * w->ad[1]) + HS_R(2.0) * (w->a[0] * w->aa[0] + w->a[1] * w->aa[1]))
                     - fdd;
        }
    } else {
        if (g != NULL) { g[r] = w->a[0] * w->b[0] + w->a[1] * w->b[1] - R->value - fv; }
        if (G != NULL) { row_grad(mb, r, n, v, w->a, w->b, HS_R(1.0), G); }
        if (gt != NULL) {
            const hs_real x = (mb->fmov[r] != 0)
                ? w->b[0] * w->at[0] + w->b[1] * w->at[1] + w->a[0] * w->bt[0] + w->a[1] * w->bt[1] : HS_R(0.0);
            gt[r] = x - fd;
        }
        if (gam != NULL) {
            gam[r] = (HS_R(2.0) * (w->ad[0] * w->bd[0] + w->ad[1] * w->bd[1]) + (w->b[0] * w->aa[0] + w->b[1] * w->aa[1])
                      + (w->a[0] * w->ba[0] + w->a[1] * w->ba[1])) - fdd;
        }
    }
}

/* A general row's part of K (packed qq) = d/dq of lam (Ja^T b + Jb^T a): each term's own
 * Hessian, then J_i^T J_j across the two differences (a distance row (a - b) . (a - b) is
 * lam |a|^2: every ordered pair of its a - b terms, twice); row r, n terms T with values v,
 * sums w. */
HS_INLINE void gen_row_k(const hs_mb_model *mb, int r, const hs_mb_fterm *T, int n, const tv *v, const rowv *w,
                         hs_real lam, hs_real *K)
{
    const hs_real sy = (mb->fsym[r] != 0) ? HS_R(2.0) : HS_R(1.0);
    const hs_real *wb = (mb->fsym[r] != 0) ? w->a : w->b;
    for (int i = 0; i < n; ++i) {
        if (T[i].kind == FOP_PLANAR) {
            const hs_real *F = (T[i].side == 0) ? wb : w->a;
            add_theta(mb, K, T[i].body, sy * lam * T[i].sign * -(F[0] * v[i].rs[0] + F[1] * v[i].rs[1]));
        }
    }
    for (int i = 0; i < n; ++i) {
        if (T[i].side != 0 || T[i].body < 0) { continue; }
        for (int j = 0; j < n; ++j) {
            const int jside = (mb->fsym[r] != 0) ? 1 : T[j].side;
            if (jside == 0 || T[j].body < 0) { continue; }
            hs_real Ji[2][3], Jj[2][3];
            const int ni = term_J(&T[i], &v[i], Ji), nj = term_J(&T[j], &v[j], Jj);
            const hs_real sg = sy * lam * T[i].sign * T[j].sign;
            add_jxj2(mb, K, T[i].body, ni, Ji, NULL, T[j].body, nj, Jj, sg);
            if (mb->fsym[r] == 0) { add_jxj2(mb, K, T[j].body, nj, Jj, NULL, T[i].body, ni, Ji, sg); }
        }
    }
}

/* One pass over the rows: g, G, g_t (u not needed), gamma (u) and K (lambda), each output NULL
 * when not wanted. constraint(), gamma(), curvature() and constraint_all() all run this, so the
 * fused call gives exactly the values of the separate ones: every output is computed by the
 * same expressions from the same term values (a term's position does not depend on u). */
static int fast_rows(const hs_mb_model *mb, hs_real t, const hs_real *q, const hs_real *u,
                     const hs_real *lambda, hs_real *g, hs_real *G, hs_real *gt, hs_real *gam, hs_real *K)
{
    hs_real sc[2 * HS_MB_MAX_BODIES];
    if (mb->nfplanar > 0) { body_trig(mb, q, sc); }
    if (G != NULL) { zero(G, (mb->packed != 0) ? mb->cqsize : mb->nc * mb->nq); }
    if (K != NULL) { zero(K, qq_size(mb)); }
    const int pos = (int)((g != NULL) || (gt != NULL));
    const hs_real *uu = (gam != NULL) ? u : NULL;
    const int same_layout = (int)(mb->packed == mb->fast_packed);
    tv v[4];
    for (int r = 0; r < mb->nrow; ++r) {
        const hs_mb_row *R = &mb->rows[r];
        hs_real fv = HS_R(0.0), fd = HS_R(0.0), fdd = HS_R(0.0);
        if ((R->f != NULL) && ((pos != 0) || (gam != NULL))) {
            mb_fn_eval(R->f, t, (pos != 0) ? &fv : NULL, (pos != 0) ? &fd : NULL, (gam != NULL) ? &fdd : NULL);
        }
        if (R->kind == HS_MB_ROW_ANGLE) {
            /* linear: no gamma but -f'', no curvature */
            const hs_real ta = q[mb->qoff[R->body] + 2];
            const hs_real tb = (R->body2 >= 0) ? q[mb->qoff[R->body2] + 2] : HS_R(0.0);
            if (g != NULL) { g[r] = ta - tb - R->value - fv; }
            if (G != NULL) {
                G[mb->fgb[r][0] + 2] += HS_R(1.0);
                if (mb->fgb[r][1] >= 0) { G[mb->fgb[r][1] + 2] += HS_R(-1.0); }
            }
            if (gt != NULL) { gt[r] = -fd; }
            if (gam != NULL) { gam[r] = HS_R(0.0) - fdd; }
            continue;
        }
        if (mb->fpair[r] == 2) { continue; /* done with row r - 1 */ }
        if ((mb->fpair[r] == 1) && (same_layout != 0)) {
            pair_rows(mb, r, q, uu, sc, g, G, gt, gam, (K != NULL) ? lambda : NULL, K);
            continue;
        }
        if ((mb->fpair[r] == 3) && (same_layout != 0)) {
            dist_row(mb, r, q, uu, sc, g, G, gt, gam, (K != NULL) ? lambda : NULL, K);
            continue;
        }
        const hs_mb_fterm *T = mb->fterm[r];
        const hs_real lam = (K != NULL) ? lambda[r] : HS_R(0.0);
        const int n = row_nterms(mb, r);
        if (mb->fbconst[r] != 0) {
            /* (a - b) . c with c constant: a hinge's or a slider's row */
            const hs_real *cb = &mb->fcab[r][2];
            hs_real a0 = mb->fcab[r][0], a1 = mb->fcab[r][1], at0 = HS_R(0.0), at1 = HS_R(0.0);
            hs_real aa0 = HS_R(0.0), aa1 = HS_R(0.0);
            for (int i = 0; i < mb->fnt[r]; ++i) {
                if (mb->fshare[r] == 0) { term_eval(mb, &T[i], t, q, uu, sc, &v[i]); }
                if (gam != NULL) { aa0 += T[i].sign * v[i].ac[0]; aa1 += T[i].sign * v[i].ac[1]; }
            }
            for (int i = 0; (pos != 0) && (i < n); ++i) {
                a0 += T[i].sign * v[i].r[0]; a1 += T[i].sign * v[i].r[1];
                if (T[i].body < 0) { at0 += T[i].sign * v[i].rt[0]; at1 += T[i].sign * v[i].rt[1]; }
            }
            if (g != NULL) { g[r] = a0 * cb[0] + a1 * cb[1] - R->value - fv; }
            if (G != NULL) { row_grad(mb, r, n, v, cb, cb, HS_R(1.0), G); }
            if (gt != NULL) { gt[r] = cb[0] * at0 + cb[1] * at1 - fd; }
            if (gam != NULL) { gam[r] = (cb[0] * aa0 + cb[1] * aa1) - fdd; }
            /* c constant: each term's own Hessian only (at the index prepared for the layout) */
            for (int i = 0; i < ((K != NULL) ? n : 0); ++i) {
                if (T[i].kind == FOP_PLANAR) {
                    const hs_real x = lam * T[i].sign * -(cb[0] * v[i].rs[0] + cb[1] * v[i].rs[1]);
                    if (same_layout != 0) { K[T[i].kix] += x; } else { add_theta(mb, K, T[i].body, x); }
                }
            }
            continue;
        }
        rowv w;
        row_terms(mb, r, n, t, q, uu, sc, v);
        row_sum(mb, r, n, v, gam != NULL, &w);
        gen_row(mb, r, R, n, v, &w, fv, fd, fdd, g, G, gt, gam);
        if (K == NULL) { continue; }
        gen_row_k(mb, r, T, n, v, &w, lam, K);
    }
    return HS_OK;
}

hs_status mb_fast_constraint(const hs_mb_model *mb, hs_real t, const hs_real *q, hs_real *g, hs_real *G,
                       hs_real *gt)
{
    return fast_rows(mb, t, q, NULL, NULL, g, G, gt, NULL, NULL);
}

hs_status mb_fast_gamma(const hs_mb_model *mb, hs_real t, const hs_real *q, const hs_real *u, hs_real *gam)
{
    return fast_rows(mb, t, q, u, NULL, NULL, NULL, NULL, gam, NULL);
}

hs_status mb_fast_curvature(const hs_mb_model *mb, hs_real t, const hs_real *q, const hs_real *lambda,
                      hs_real *K)
{
    return fast_rows(mb, t, q, NULL, lambda, NULL, NULL, NULL, NULL, K);
}

hs_status mb_fast_all(const hs_mb_model *mb, hs_real t, const hs_real *q, const hs_real *u, const hs_real *lambda,
                hs_real *G, hs_real *gam, hs_real *K)
{
    return fast_rows(mb, t, q, u, lambda, NULL, G, NULL, gam, (lambda != NULL) ? K : NULL);
}


/* A(bi, bj) += s Ji^T X Jj and A(bj, bi) += its transpose, bitwise (X symmetric); bi = bj:
 * the block's upper triangle, mirrored. */
static void add_jxj2_sym(const hs_mb_model *mb, hs_real *A, const fpk *ki, hs_real (*X)[2], const fpk *kj,
                         hs_real s)
{
    int st, st2;
    hs_real *Ab = &A[hs_mb_qq_base(mb, ki->body, kj->body, &st)];
    hs_real *At = &A[hs_mb_qq_base(mb, kj->body, ki->body, &st2)];
    const int diag = (int)(ki->body == kj->body);
    for (int i = 0; i < ki->nb; ++i) {
        const hs_real jx0 = ki->J[0][i] * X[0][0] + ki->J[1][i] * X[1][0];
        const hs_real jx1 = ki->J[0][i] * X[0][1] + ki->J[1][i] * X[1][1];
        for (int j = (diag != 0) ? i : 0; j < kj->nb; ++j) {
            const hs_real c = s * (jx0 * kj->J[0][j] + jx1 * kj->J[1][j]);
            Ab[i * st + j] += c;
            if ((diag == 0) || (j != i)) { At[j * st2 + i] += c; }
        }
    }
}

/* fkin's position, velocity, R s and Jacobian of a spring's end point p of kind kind (the
 * spring reads no more): bodies and fixed ground points directly (a point's translation factor
 * is 1: the same values), moving ground points through fkin. */
static inline void spring_end(const hs_mb_model *mb, const hs_mb_point *p, int kind, hs_real t, const hs_real *q,
                              const hs_real *u, const hs_real *sc, fpk *k)
{
    if (kind == FOP_PLANAR) {
        const hs_real *x = &q[mb->qoff[p->body]];
        const hs_real sn = sc[2 * p->body], cs = sc[2 * p->body + 1];
        const hs_real rs0 = cs * p->s[0] - sn * p->s[1], rs1 = sn * p->s[0] + cs * p->s[1];
        k->body = p->body; k->nb = 3;
        k->rs[0] = rs0; k->rs[1] = rs1;
        k->r[0] = x[0] + rs0; k->r[1] = x[1] + rs1;
        k->J[0][0] = HS_R(1.0); k->J[0][1] = HS_R(0.0); k->J[0][2] = -rs1;
        k->J[1][0] = HS_R(0.0); k->J[1][1] = HS_R(1.0); k->J[1][2] = rs0;
        if (u != NULL) {
            const hs_real *ud = &u[mb->qoff[p->body]];
            k->v[0] = ud[0] - rs1 * ud[2]; k->v[1] = ud[1] + rs0 * ud[2];
        }
    } else if (kind == FOP_POINT) {
        const hs_real *x = &q[mb->qoff[p->body]];
        k->body = p->body; k->nb = 2;
        k->r[0] = x[0] + p->s[0]; k->r[1] = x[1] + p->s[1];
        k->J[0][0] = HS_R(1.0); k->J[0][1] = HS_R(0.0);
        k->J[1][0] = HS_R(0.0); k->J[1][1] = HS_R(1.0);
        if (u != NULL) { k->v[0] = u[mb->qoff[p->body]]; k->v[1] = u[mb->qoff[p->body] + 1]; }
    } else if (kind == FOP_CONST) {
        k->body = HS_MB_GROUND; k->nb = 0;
        k->r[0] = p->s[0]; k->r[1] = p->s[1];
        k->v[0] = HS_R(0.0); k->v[1] = HS_R(0.0);
    } else {
        const hs_mb_opnd o = mb_op_point(p);
        fkin(mb, &o, kind, t, q, u, sc, k);
    }
}

hs_status mb_fast_forces(const hs_mb_model *mb, hs_real t, const hs_real *q, const hs_real *u,
                   hs_real *f, hs_real *fq, hs_real *fu)
{
    const hs_mb_desc *D = mb->desc;
    hs_real sc[2 * HS_MB_MAX_BODIES];
    if (f != NULL) {
        zero(f, mb->nq);
        for (int b = 0; b < D->nbodies; ++b) {
            for (int i = 0; i < 2; ++i) { f[mb->qoff[b] + i] += D->bodies[b].mass * D->gravity[i]; }
        }
    }
    if (fq != NULL) { zero(fq, qq_size(mb)); zero(fu, qq_size(mb)); }
    if (D->nforces > 0) { body_trig(mb, q, sc); }
    for (int e = 0; e < D->nforces; ++e) {
        const hs_mb_force *E = &D->forces[e];
        fpk k[2];
        spring_end(mb, &E->a, mb->ffop[e][0], t, q, u, sc, &k[0]);
        spring_end(mb, &E->b, mb->ffop[e][1], t, q, u, sc, &k[1]);
        const hs_real d[2] = {k[0].r[0] - k[1].r[0], k[0].r[1] - k[1].r[1]};
        const hs_real dv[2] = {k[0].v[0] - k[1].v[0], k[0].v[1] - k[1].v[1]};
        const hs_real l = hs_sqrt(d[0] * d[0] + d[1] * d[1]);
        if (!(l > HS_R(0.0))) { return HS_E_MODEL; } /* direction undefined at zero length */
        const hs_real e2[2] = {d[0] / l, d[1] / l};
        const hs_real ld = e2[0] * dv[0] + e2[1] * dv[1];
        const hs_real s = E->k * (l - E->l0) + E->c * ld;
        const hs_real F[2] = {-s * e2[0], -s * e2[1]};
        for (int i = 0; i < 2; ++i) {
            if (f != NULL && k[i].nb > 0) {
                const hs_real sg = (i == 0) ? HS_R(1.0) : HS_R(-1.0);
                hs_real *fb = &f[mb->qoff[k[i].body]];
                for (int j = 0; j < k[i].nb; ++j) { fb[j] += sg * (k[i].J[0][j] * F[0] + k[i].J[1][j] * F[1]); }
            }
        }
        if (fq == NULL) { continue; }
        hs_real Fd[2][2], Fv[2][2], pv[2];
        for (int i = 0; i < 2; ++i) { pv[i] = (dv[i] - ld * e2[i]) / l; /* dl'/dd = (I - e e^T) d' / l */ }
        for (int i = 0; i < 2; ++i) {
            for (int j = 0; j < 2; ++j) {
                const hs_real P = ((i == j) ? HS_R(1.0) : HS_R(0.0)) - e2[i] * e2[j];
                Fd[i][j] = -e2[i] * (E->k * e2[j] + E->c * pv[j]) - s * P / l;
                Fv[i][j] = -E->c * e2[i] * e2[j];
            }
        }
        /* fq += Jd^T (Fd Jd + Fv Dd) + Ha[F] - Hb[F], fu += Jd^T Fv Jd (Jd = Ja - Jb); Fv = 0
         * without damping, and those terms are then left out */
        const int damped = (int)(E->c != HS_R(0.0));
        hs_real Dd[2][2][3];
        for (int i = 0; i < 2 && damped != 0; ++i) {
            for (int j = 0; j < 3; ++j) { Dd[i][0][j] = HS_R(0.0); Dd[i][1][j] = HS_R(0.0); }
            if (k[i].nb == 3) {
                const hs_real w = u[mb->qoff[k[i].body] + 2];
                Dd[i][0][2] = -w * k[i].rs[0];
                Dd[i][1][2] = -w * k[i].rs[1];
            }
        }
        if ((damped == 0) && (k[0].body != k[1].body)) {
            /* undamped, between two bodies: Fd is symmetric and so is fq, written bitwise so
             * (each block once, with its transpose) for the symmetric step matrix */
            Fd[1][0] = Fd[0][1];
            for (int i = 0; i < 2; ++i) {
                for (int j = i; j < 2; ++j) {
                    if (k[i].nb == 0 || k[j].nb == 0) { continue; }
                    add_jxj2_sym(mb, fq, &k[i], Fd, &k[j], (i == j) ? HS_R(1.0) : HS_R(-1.0));
                }
            }
        }
        for (int i = 0; (i < 2) && ((damped != 0) || (k[0].body == k[1].body)); ++i) {
            for (int j = 0; j < 2; ++j) {
                const hs_real sg = (i == j) ? HS_R(1.0) : HS_R(-1.0);
                if (k[i].nb == 0 || k[j].nb == 0) { continue; }
                add_jxj2(mb, fq, k[i].body, k[i].nb, k[i].J, Fd, k[j].body, k[j].nb, k[j].J, sg);
                if (damped != 0) {
                    add_jxj2(mb, fq, k[i].body, k[i].nb, k[i].J, Fv, k[j].body, k[j].nb, Dd[j], sg);
                    add_jxj2(mb, fu, k[i].body, k[i].nb, k[i].J, Fv, k[j].body, k[j].nb, k[j].J, sg);
                }
            }
        }
        for (int i = 0; i < 2; ++i) {
            if (k[i].nb == 3) {
                const hs_real h = -(F[0] * k[i].rs[0] + F[1] * k[i].rs[1]);
                add_theta(mb, fq, k[i].body, (i == 0) ? h : -h);
            }
        }
    }
    return (f == NULL || hs_all_finite(f, mb->nq) != 0) ? HS_OK : HS_E_MODEL;
}

hs_status mb_fast_mass(const hs_mb_model *mb, hs_real *M)
{
    const hs_mb_desc *D = mb->desc;
    zero(M, qq_size(mb));
    for (int b = 0; b < D->nbodies; ++b) {
        const hs_mb_body *B = &D->bodies[b];
        int st;
        const int ix = hs_mb_qq_base(mb, b, b, &st);
        M[ix] = B->mass;
        M[ix + st + 1] = B->mass;
        if (B->kind == HS_MB_PLANAR) { M[ix + 2 * st + 2] = B->inertia[2]; }
    }
    return HS_OK;
}

/* The 2 x 3 pattern of a term's (or a spring point's) Jacobian: a point [[t, 0], [0, t]], a
 * planar body [[t, 0, 1], [0, t, 1]] (t = 0 for a direction: no translation). */
static int j_pattern(int kind, hs_real tr, int P[2][3])
{
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    const int t = (tr != HS_R(0.0)) ? 1 : 0;
    P[0][0] = t; P[0][1] = 0; P[0][2] = 0;
    P[1][0] = 0; P[1][1] = t; P[1][2] = 0;
    if (kind == FOP_PLANAR) { P[0][2] = 1; P[1][2] = 1; }
    return (kind == FOP_PLANAR) ? 3 : 2;
}

/* mask(bi, bj) |= Pi^T X Pj (boolean; X full when full = 1, else the identity). */
static void mask_jxj(const hs_mb_model *mb, int *mask, int bi, int (*Pi)[3], int ni, int bj, int (*Pj)[3],
                     int nj, int full)
{
    int st;
    int *Mb = &mask[hs_mb_qq_base(mb, bi, bj, &st)];
    for (int i = 0; i < ni; ++i) {
        for (int j = 0; j < nj; ++j) {
            int nz = 0;
            for (int r = 0; r < 2; ++r) {
                for (int c = 0; c < 2; ++c) {
                    if ((Pi[r][i] != 0) && (Pj[c][j] != 0) && ((full != 0) || (r == c))) { nz = 1; }
                }
            }
            if (nz != 0) { Mb[i * st + j] = 1; }
        }
    }
}

static void mask_theta(const hs_mb_model *mb, int *mask, int b)
{
    int st;
    const int ix = hs_mb_qq_base(mb, b, b, &st);
    mask[ix + 2 * st + 2] = 1;
}

void mb_fast_masks(const hs_mb_model *mb, int *qq_mask, int *cq_mask)
{
    const hs_mb_desc *D = mb->desc;
    /* what the fast evaluators can write: M's diagonal, the springs' blocks, the rows' K */
    for (int i = 0; i < qq_size(mb); ++i) { qq_mask[i] = 0; }
    for (int b = 0; b < D->nbodies; ++b) {
        int st;
        const int ix = hs_mb_qq_base(mb, b, b, &st);
        for (int i = 0; i < mb->bnq[b]; ++i) { qq_mask[ix + i * st + i] = 1; }
    }
    for (int e = 0; e < D->nforces; ++e) {
        const int ba[2] = {D->forces[e].a.body, D->forces[e].b.body};
        int P[2][2][3], n[2];
        for (int i = 0; i < 2; ++i) {
            n[i] = (ba[i] >= 0) ? j_pattern(mb->ffop[e][i], HS_R(1.0), P[i]) : 0;
        }
        for (int i = 0; i < 2; ++i) {
            for (int j = 0; j < 2; ++j) {
                if ((n[i] > 0) && (n[j] > 0)) { mask_jxj(mb, qq_mask, ba[i], P[i], n[i], ba[j], P[j], n[j], 1); }
            }
            if (n[i] == 3) { mask_theta(mb, qq_mask, ba[i]); }
        }
    }
    const int nG = (mb->packed != 0) ? mb->cqsize : mb->nc * mb->nq;
    for (int i = 0; (cq_mask != NULL) && (i < nG); ++i) { cq_mask[i] = 0; }
    for (int r = 0; r < mb->nrow; ++r) {
        const hs_mb_row *R = &mb->rows[r];
        if (R->kind == HS_MB_ROW_ANGLE) {
            for (int i = 0; (cq_mask != NULL) && (i < 2); ++i) {
                if (mb->fgb[r][i] >= 0) { cq_mask[mb->fgb[r][i] + 2] = 1; }
            }
            continue;
        }
        const hs_mb_fterm *T = mb->fterm[r];
        const int n = row_nterms(mb, r);
        for (int i = 0; (cq_mask != NULL) && (i < n); ++i) {
            if (T[i].gix < 0) { continue; }
            /* a constant c (fbconst) leaves out the translations it is perpendicular to */
            const hs_real *c = &mb->fcab[r][2];
            for (int k = 0; k < 2; ++k) {
                if ((T[i].tr != HS_R(0.0)) && ((mb->fbconst[r] == 0) || (c[k] != HS_R(0.0)))) { cq_mask[T[i].gix + k] = 1; }
            }
            if (T[i].kind == FOP_PLANAR) { cq_mask[T[i].gix + 2] = 1; }
        }
        for (int i = 0; i < n; ++i) {
            if ((T[i].kind == FOP_PLANAR) && (T[i].body >= 0)) { mask_theta(mb, qq_mask, T[i].body); }
        }
        if (mb->fbconst[r] != 0) { continue; }
        for (int i = 0; i < n; ++i) {
            if (T[i].side != 0 || T[i].body < 0) { continue; }
            for (int j = 0; j < n; ++j) {
                const int jside = (mb->fsym[r] != 0) ? 1 : T[j].side;
                if (jside == 0 || T[j].body < 0) { continue; }
                int Pi[2][3], Pj[2][3];
                const int ni = j_pattern(T[i].kind, T[i].tr, Pi), nj = j_pattern(T[j].kind, T[j].tr, Pj);
                mask_jxj(mb, qq_mask, T[i].body, Pi, ni, T[j].body, Pj, nj, 0);
                mask_jxj(mb, qq_mask, T[j].body, Pj, nj, T[i].body, Pi, ni, 0);
            }
        }
    }
}

int mb_fast_symmetric(const hs_mb_model *mb)
{
    const hs_mb_desc *D = mb->desc;
    const int all = HS_MB_FAST_ROWS | HS_MB_FAST_FORCES | HS_MB_FAST_MASS;
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    int sym = ((mb->fast & all) == all) ? 1 : 0;
    /* a damped spring's fq is not symmetric; one between two points of a body is summed in
     * another order on the two sides of the diagonal */
    for (int e = 0; e < D->nforces; ++e) {
        const hs_mb_force *E = &D->forces[e];
        if ((E->c != HS_R(0.0)) || ((E->a.body == E->b.body) && (E->a.body >= 0))) { sym = 0; }
    }
    /* K of a row is added once per entry and mirror when its terms sit on distinct bodies */
    for (int r = 0; r < mb->nrow; ++r) {
        const int n = (mb->rows[r].kind == HS_MB_ROW_DOT) ? row_nterms(mb, r) : 0;
        for (int i = 0; (mb->fbconst[r] == 0) && (i < n); ++i) {
            for (int j = i + 1; j < n; ++j) {
                if ((mb->fterm[r][i].body >= 0) && (mb->fterm[r][i].body == mb->fterm[r][j].body)) { sym = 0; }
            }
        }
    }
    return sym;
}
