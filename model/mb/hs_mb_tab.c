/* hs_mb_tab.c - the hooks of every description compiled into C tables (hilstep-mbgen): the
 * generated file holds only tables and an hs_mb_gen; these forward to the hs_mb_fn_* functions
 * with the instance bound to the compiled tables. */
#include "hs_mb.h"

static const hs_mb_gen *gen_of(const hs_model *m) { return (const hs_mb_gen *)m->type->data; }

/* The instance bound to the compiled tables, or NULL before the first check()/initial(). */
static const hs_model *bound(const hs_model *m)
{
    const hs_mb_gen *g = gen_of(m);
    return g->inner->type != NULL ? g->inner : NULL;
}

/* Compiles the tables once (index maps and rows live in RAM) and binds the instance to them. */
static int bind(const hs_model *m)
{
    const hs_mb_gen *g = gen_of(m);
    if (g->inner->type != NULL) { return HS_OK; }
    hs_mb_model *ram = g->mb; /* the tables compile into RAM the const type points to */
    if (hs_mb_compile(g->desc, ram, HS_MB_PACK_AUTO, NULL) != HS_OK) { return HS_E_MODEL_PARAM; }
    const hs_mb_model *mb = g->mb;
    /* the auxiliary states against the type's (the generator wrote mb->nz there) */
    if (mb->nq != g->nq || mb->nc != g->nc || mb->nin != g->nin || mb->nout != g->nout || mb->nz != m->type->nz) { return HS_E_SIZE; }
    hs_model *in = g->inner;
    in->p = NULL;
    in->desc = g->mb;
    in->d.nq = mb->nq; in->d.nc = mb->nc; in->d.nz = mb->nz; in->d.nin = mb->nin; in->d.nout = mb->nout;
    in->type = &g->mb->type; /* last: a non-NULL type means bound (hs_mb_model_init without dims()) */
    return HS_OK;
}

int hs_mb_gen_check(const hs_model *m) { return bind(m); }

int hs_mb_model_why(const hs_model *m, char *why, size_t cap)
{
    if ((why == NULL) || (cap == 0u)) { return 0; }
    why[0] = '\0';
    /* only a generated description's tables can be refused by this build's capacities */
    if ((m == NULL) || (m->type == NULL) || (m->type->check != hs_mb_gen_check)) { return 0; }
    const hs_mb_gen *g = gen_of(m);
    if (g->inner->type != NULL) { return 0; }
    hs_error err;
    /* the failure path only: the same compile again, now with its error (which names a
     * capacity HS_MB_MAX_* and the description's need: hs_mb_limit_msg) */
    hs_mb_model *ram = g->mb; /* the RAM bind() compiles into */
    const hs_status rc = hs_mb_compile(g->desc, ram, HS_MB_PACK_AUTO, &err);
    const char *msg = err.msg;
    if (rc == HS_OK) { msg = "its compiled sizes differ from the generator's (regenerate it)"; }
    size_t k = 0u;
    while ((msg != NULL) && (msg[k] != '\0') && (k + 1u < cap)) {
        why[k] = msg[k];
        ++k;
    }
    why[k] = '\0';
    return 1;
}

int hs_mb_gen_blocks(const hs_model *m, hs_blocks *b, int *buf, int nbuf)
{
    /* the stepper asks for the pattern while sizing, before any check(): compile here too */
    if (bind(m) != (int)HS_OK) { return HS_E_MODEL; }
    const hs_model *in = bound(m);
    const hs_mb_model *mb = (const hs_mb_model *)in->desc;
    if (mb->packed != 0) {
        *b = mb->blocks;
        return HS_OK;
    }
    return hs_blocks_dense(&in->d, b, buf, nbuf);
}

int hs_mb_gen_initial(const hs_model *m, hs_real t0, hs_real *q, hs_real *u, hs_real *z)
{
    return bind(m) != (int)HS_OK ? (int)HS_E_MODEL : hs_mb_fn_initial(bound(m), t0, q, u, z);
}

int hs_mb_gen_mass(const hs_model *m, hs_real t, const hs_real *q, hs_real *M)
{
    const hs_model *b = bound(m);
    /* a description without a plan straight to its evaluators (no plan check per call) */
    if (b == NULL) { return HS_E_MODEL; }
    return (((const hs_mb_model *)b->desc)->plan != 0) ? hs_mb_plan_mass(b, t, q, M) : hs_mb_fn_mass(b, t, q, M);
}

int hs_mb_gen_force(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, const hs_real *z,
                    const hs_real *in, hs_real *f)
{
    const hs_model *b = bound(m);
    /* a description without a plan straight to its evaluators (no plan check per call) */
    if (b == NULL) { return HS_E_MODEL; }
    return (((const hs_mb_model *)b->desc)->plan != 0) ? hs_mb_plan_force(b, t, q, u, z, in, f) : hs_mb_fn_force(b, t, q, u, z, in, f);
}

int hs_mb_gen_force_jac(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                        const hs_real *z, const hs_real *in, hs_real *fq, hs_real *fu)
{
    const hs_model *b = bound(m);
    /* a description without a plan straight to its evaluators (no plan check per call) */
    if (b == NULL) { return HS_E_MODEL; }
    return (((const hs_mb_model *)b->desc)->plan != 0) ? hs_mb_plan_force_jac(b, t, q, u, z, in, fq, fu) : hs_mb_fn_force_jac(b, t, q, u, z, in, fq, fu);
}

int hs_mb_gen_constraint(const hs_model *m, hs_real t, const hs_real *q, hs_real *g, hs_real *G,
                         hs_real *gt)
{
    const hs_model *b = bound(m);
    /* a description without a plan straight to its evaluators (no plan check per call) */
    if (b == NULL) { return HS_E_MODEL; }
    return (((const hs_mb_model *)b->desc)->plan != 0) ? hs_mb_plan_constraint(b, t, q, g, G, gt) : hs_mb_fn_constraint(b, t, q, g, G, gt);
}

int hs_mb_gen_gamma(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, hs_real *gam)
{
    const hs_model *b = bound(m);
    /* a description without a plan straight to its evaluators (no plan check per call) */
    if (b == NULL) { return HS_E_MODEL; }
    return (((const hs_mb_model *)b->desc)->plan != 0) ? hs_mb_plan_gamma(b, t, q, u, gam) : hs_mb_fn_gamma(b, t, q, u, gam);
}

int hs_mb_gen_curvature(const hs_model *m, hs_real t, const hs_real *q, const hs_real *lambda,
                        hs_real *K)
{
    const hs_model *b = bound(m);
    /* a description without a plan straight to its evaluators (no plan check per call) */
    if (b == NULL) { return HS_E_MODEL; }
    return (((const hs_mb_model *)b->desc)->plan != 0) ? hs_mb_plan_curvature(b, t, q, lambda, K) : hs_mb_fn_curvature(b, t, q, lambda, K);
}

int hs_mb_gen_constraint_all(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                             const hs_real *lambda, hs_real *G, hs_real *gam, hs_real *K)
{
    const hs_model *b = bound(m);
    /* a description without a plan straight to its evaluators (no plan check per call) */
    if (b == NULL) { return HS_E_MODEL; }
    return (((const hs_mb_model *)b->desc)->plan != 0) ? hs_mb_plan_constraint_all(b, t, q, u, lambda, G, gam, K) : hs_mb_fn_constraint_all(b, t, q, u, lambda, G, gam, K);
}

int hs_mb_gen_masks(const hs_model *m, int *qq_mask, int *cq_mask)
{
    /* the stepper asks while sizing, as for blocks(): compile here too */
    if (bind(m) != (int)HS_OK) { return HS_E_MODEL; }
    return hs_mb_fn_masks(bound(m), qq_mask, cq_mask);
}

int hs_mb_gen_leaf_rows(const hs_model *m, int *leaf)
{
    /* asked while sizing, as masks() */
    if (bind(m) != (int)HS_OK) { return HS_E_MODEL; }
    return hs_mb_fn_leaf_rows(bound(m), leaf);
}

int hs_mb_gen_output(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                     const hs_real *z, const hs_real *in, hs_real *y)
{
    const hs_model *b = bound(m);
    return b ? hs_mb_fn_output(b, t, q, u, z, in, y) : (int)HS_E_MODEL;
}

int hs_mb_gen_force_fj(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                       const hs_real *z, const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu)
{
    const hs_model *b = bound(m);
    return (b != NULL) ? hs_mb_fn_force_fj(b, t, q, u, z, in, f, fq, fu) : (int)HS_E_MODEL;
}

int hs_mb_gen_zdot(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                   const hs_real *z, const hs_real *in, hs_real *zd)
{
    const hs_model *b = bound(m);
    return (b != NULL) ? hs_mb_fn_zdot(b, t, q, u, z, in, zd) : (int)HS_E_MODEL;
}

int hs_mb_gen_energy(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                     const hs_real *z, hs_real *E)
{
    const hs_model *b = bound(m);
    return b ? hs_mb_fn_energy(b, t, q, u, z, E) : (int)HS_E_MODEL;
}

int hs_mb_gen_lagrange(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                       const hs_real *z, const hs_real *in, hs_real *F, hs_real *Fq, hs_real *Fu,
                       hs_real *Mq)
{
    const hs_model *b = bound(m);
    return b ? hs_mb_fn_lagrange(b, t, q, u, z, in, F, Fq, Fu, Mq) : (int)HS_E_MODEL;
}

int hs_mb_gen_unilateral(const hs_model *m, hs_real t, const hs_real *q, hs_real *J, hs_real *phi)
{
    const hs_model *b = bound(m);
    return (b != NULL) ? hs_mb_fn_unilateral(b, t, q, J, phi) : (int)HS_E_MODEL;
}

int hs_mb_gen_compliance(const hs_model *m, hs_real *c, hs_real *d)
{
    const hs_model *b = bound(m);
    return b ? hs_mb_fn_compliance(b, c, d) : (int)HS_E_MODEL;
}

int hs_mb_gen_free_bodies(const hs_model *m, hs_fb_info *fb)
{
    const hs_model *b = bound(m);
    return (b != NULL) ? hs_mb_fn_free_bodies(b, fb) : (int)HS_E_MODEL;
}

int hs_mb_gen_ct_points(const hs_model *m, hs_real t, const hs_real *q, hs_real *geo)
{
    const hs_model *b = bound(m);
    return (b != NULL) ? hs_mb_fn_ct_points(b, t, q, geo) : (int)HS_E_MODEL;
}
