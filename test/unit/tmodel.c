/* tmodel.c - block-pattern helpers and the dense view (see tmodel.h). */
#include "tmodel.h"

int tm_blocks(const hs_model *m, hs_blocks *b, int *buf, int nbuf)
{
    if (m->type->blocks) return m->type->blocks(m, b, buf, nbuf);
    return hs_blocks_dense(&m->d, b, buf, nbuf);
}

static void unpack(int nb, const int *list, const int *rows, const int *cols, int ncols_total,
                   int nrows_total, const hs_real *packed, hs_real *D)
{
    for (int i = 0; i < nrows_total * ncols_total; ++i) D[i] = HS_R(0.0);
    int off = 0;
    for (int k = 0; k < nb; ++k) {
        const int bi = list[2 * k], bj = list[2 * k + 1];
        const int r0 = rows[bi], r1 = rows[bi + 1], c0 = cols[bj], c1 = cols[bj + 1];
        for (int i = r0; i < r1; ++i)
            for (int j = c0; j < c1; ++j) D[i * ncols_total + j] = packed[off++];
    }
}

void tm_unpack_qq(const hs_blocks *b, const hs_real *packed, hs_real *D)
{
    const int nq = b->qb[b->nqb];
    unpack(b->nqq, b->qq, b->qb, b->qb, nq, nq, packed, D);
}

void tm_unpack_cq(const hs_blocks *b, const hs_real *packed, hs_real *D)
{
    const int nq = b->qb[b->nqb], nc = b->ncb ? b->cb[b->ncb] : 0;
    unpack(b->ncq, b->cq, b->cb, b->qb, nq, nc, packed, D);
}

int tm_in_block(const hs_blocks *b, int cq, int i, int j)
{
    const int *list = cq ? b->cq : b->qq, *rows = cq ? b->cb : b->qb;
    const int nb = cq ? b->ncq : b->nqq;
    for (int k = 0; k < nb; ++k) {
        const int bi = list[2 * k], bj = list[2 * k + 1];
        if (i >= rows[bi] && i < rows[bi + 1] && j >= b->qb[bj] && j < b->qb[bj + 1]) return 1;
    }
    return 0;
}

static int has_qq(const hs_blocks *b, int i, int j)
{
    int n = 0;
    for (int k = 0; k < b->nqq; ++k) n += b->qq[2 * k] == i && b->qq[2 * k + 1] == j;
    return n;
}

int tm_blocks_check(const hs_blocks *b, int nq, int nc)
{
    if (b->nqb < 1 || b->qb[0] != 0 || b->qb[b->nqb] != nq) return 1;
    for (int i = 0; i < b->nqb; ++i)
        if (b->qb[i + 1] <= b->qb[i]) return 2;
    if (nc > 0 && (b->ncb < 1 || b->cb[0] != 0 || b->cb[b->ncb] != nc)) return 3;
    if (nc == 0 && b->ncb != 0) return 3;
    for (int i = 0; i < b->ncb; ++i)
        if (b->cb[i + 1] <= b->cb[i]) return 4;
    for (int k = 0; k < b->nqq; ++k) {
        const int i = b->qq[2 * k], j = b->qq[2 * k + 1];
        if (i < 0 || i >= b->nqb || j < 0 || j >= b->nqb) return 5;
        if (has_qq(b, i, j) != 1) return 6;  /* listed twice */
        if (has_qq(b, j, i) != 1) return 7;  /* pattern not symmetric */
    }
    for (int i = 0; i < b->nqb; ++i)
        if (has_qq(b, i, i) != 1) return 8;  /* diagonal block missing */
    for (int k = 0; k < b->ncq; ++k) {
        const int i = b->cq[2 * k], j = b->cq[2 * k + 1];
        if (i < 0 || i >= b->ncb || j < 0 || j >= b->nqb) return 9;
        for (int l = 0; l < k; ++l)
            if (b->cq[2 * l] == i && b->cq[2 * l + 1] == j) return 10;
    }
    return 0;
}

/* ---- dense view ---- */

#define VIEW(m) ((const tm_view *)(m)->desc)

static int v_initial(const hs_model *m, hs_real t0, hs_real *q0, hs_real *u0, hs_real *z0)
{
    const hs_model *in = VIEW(m)->inner;
    return in->type->initial(in, t0, q0, u0, z0);
}

static int v_mass(const hs_model *m, hs_real t, const hs_real *q, hs_real *M)
{
    const tm_view *v = VIEW(m);
    int rc = v->inner->type->mass(v->inner, t, q, v->pk);
    if (!rc) tm_unpack_qq(&v->b, v->pk, M);
    return rc;
}

static int v_force(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                   const hs_real *z, const hs_real *in, hs_real *f)
{
    const hs_model *x = VIEW(m)->inner;
    return x->type->force(x, t, q, u, z, in, f);
}

static int v_force_jac(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                       const hs_real *z, const hs_real *in, hs_real *fq, hs_real *fu)
{
    const tm_view *v = VIEW(m);
    const int s = hs_blocks_qq_size(&v->b);
    int rc = v->inner->type->force_jac(v->inner, t, q, u, z, in, v->pk, v->pk + s);
    if (!rc) { tm_unpack_qq(&v->b, v->pk, fq); tm_unpack_qq(&v->b, v->pk + s, fu); }
    return rc;
}

static int v_constraint(const hs_model *m, hs_real t, const hs_real *q, hs_real *g, hs_real *G,
                        hs_real *gt)
{
    const tm_view *v = VIEW(m);
    hs_real *Gp = v->pk + 2 * hs_blocks_qq_size(&v->b);
    int rc = v->inner->type->constraint(v->inner, t, q, g, G ? Gp : NULL, gt);
    if (!rc && G) tm_unpack_cq(&v->b, Gp, G);
    return rc;
}

static int v_gamma(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, hs_real *gam)
{
    const hs_model *x = VIEW(m)->inner;
    return x->type->gamma(x, t, q, u, gam);
}

static int v_zdot(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                  const hs_real *z, const hs_real *in, hs_real *zd)
{
    const hs_model *x = VIEW(m)->inner;
    return x->type->zdot(x, t, q, u, z, in, zd);
}

static int v_output(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                    const hs_real *z, const hs_real *in, hs_real *y)
{
    const hs_model *x = VIEW(m)->inner;
    return x->type->output(x, t, q, u, z, in, y);
}

static int v_curvature(const hs_model *m, hs_real t, const hs_real *q, const hs_real *lambda,
                       hs_real *K)
{
    const tm_view *v = VIEW(m);
    int rc = v->inner->type->curvature(v->inner, t, q, lambda, v->pk);
    if (!rc) tm_unpack_qq(&v->b, v->pk, K);
    return rc;
}

static int v_energy(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                    const hs_real *z, hs_real *E)
{
    const hs_model *x = VIEW(m)->inner;
    return x->type->energy(x, t, q, u, z, E);
}

int tm_view_scratch(const hs_blocks *b)
{
    return 2 * hs_blocks_qq_size(b) + hs_blocks_cq_size(b);
}

int tm_view_init(tm_view *v, const hs_model *inner, int *bbuf, int nbuf, hs_real *scratch,
                 int nscratch)
{
    const hs_model_type *I = inner->type;
    int rc = tm_blocks(inner, &v->b, bbuf, nbuf);
    if (rc) return rc;
    if (nscratch < tm_view_scratch(&v->b)) return HS_E_SIZE;
    v->inner = inner;
    v->pk = scratch;
    v->T = *I;
    v->T.nq = inner->d.nq; v->T.nc = inner->d.nc; v->T.nz = inner->d.nz;
    v->T.nin = inner->d.nin; v->T.nout = inner->d.nout;
    v->T.check = NULL;
    v->T.dims = NULL;
    v->T.blocks = NULL;
    v->T.initial = v_initial;
    v->T.mass = v_mass;
    v->T.force = v_force;
    v->T.force_jac = I->force_jac ? v_force_jac : NULL;
    v->T.constraint = I->constraint ? v_constraint : NULL;
    v->T.gamma = I->gamma ? v_gamma : NULL;
    v->T.zdot = I->zdot ? v_zdot : NULL;
    v->T.output = I->output ? v_output : NULL;
    v->T.curvature = I->curvature ? v_curvature : NULL;
    v->T.energy = I->energy ? v_energy : NULL;
    v->m.type = &v->T;
    v->m.p = inner->p;
    v->m.desc = v;
    v->m.d = inner->d;
    return HS_OK;
}
