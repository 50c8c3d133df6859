/* hs_stage.h - inside the stepper: what every method family file (rt/hs_euler.c, hs_spook.c,
 * hs_galpha.c, hs_sdirk.c, hs_dvp.c, hs_em.c, and sdirk's free-body path hs_fb.c) shares with
 * rt/hs_stepper.c. Not a public
 * header: ports and tools use hs_stepper.h.
 *
 * A family file states its equations and its fixed work first, then gives the stepper what
 * only it knows through its hs_family row: the checks of a def, the flags and optional arrays
 * of a configuration (workspace sizes follow from them), its stages in order (the plan), the
 * parameters fixed at init, the function that runs a plan, the multiplier-block entry of a
 * compliant row, and another path of its method where one applies. What a method is (its
 * stabilizations, its range check, ...) is its row's HS_MF_* bits in the method table
 * (rt/hs_methods.c): neither the stepper nor a family asks which method it runs. The shared
 * evaluations (M and f, the force Jacobians, the constraint curvature, the projection factor)
 * and the common tail of every plan (auxiliary states, projection, finiteness check,
 * watchdog; HS_TAIL_STAGE_CASES) are static inline here, so each family's step compiles into
 * one function with them inlined, as the single-file stepper did: splitting the families
 * costs one call per step, not one per stage. */
#ifndef HS_STAGE_H
#define HS_STAGE_H

#include "hs_stepper.h"

/* Stage functions are inlined into their family's step; a profiling build
 * (-DHS_STAGE_PROFILE, test/bench/stages.sh) keeps each one a function of its own, so
 * callgrind can report the instructions of every stage. */
#ifdef HS_STAGE_PROFILE
#define HS_STAGE_FN __attribute__((noinline))
#define HS_STAGE_INL static __attribute__((noinline, unused))
#else
#define HS_STAGE_FN
#define HS_STAGE_INL static inline
#endif

/* The step's context; a fault returns its code and the committed state is never written
 * before commit. */
typedef struct hs_ctx {
    const hs_real *in; /* inputs held over the step */
    hs_real t, t1, h;  /* t_n, t_{n+1}, step */
    int have_fq;       /* fq, fu hold this step's Jacobian blocks */
    hs_real a1, a2;    /* A = M - (a1 fu + a2 fq): h cu and h^2 cq */
} hs_ctx;

/* Flags of one configuration, derived from def and the model instance; they decide the
 * optional workspace arrays and the linear systems init analyses. */
typedef struct hs_cfg {
    int index2, ggl, velfirst, two_stage, keep_p, use_jac, analytic, has_blocks, spook;
    int curv, curv_fd, galpha, sdirk, have_p, dvp;
    int fb;         /* the free-body path (rt/hs_fb.c) in place of the method's plan */
    int consistent; /* start from the consistent acceleration (acc, wd hold stage values) */
    int nqa;        /* 1: acc, accn, wd, wdn are used */
    int nca;        /* 1: sl1, sl2 are used */
    int regK, regP; /* the step / projection matrix carries a multiplier block */
    int symK;       /* the step matrix' values are exactly symmetric (L D L^T) */
    int ldltK, ldltP; /* dense backend: L D L^T without pivoting for the step / projection system */
    int masks;      /* the sparse patterns leave out the entries the model's masks say are zero */
    int comp;       /* some constraint row may be compliant (reg_eps, reg_eps_c, the model's compliance()) */
    int rigid;      /* the family takes rigid rows only: init refuses a compliant one */
    unsigned mflags; /* the method's property bits (its table row, HS_MF_*) */
    hs_real cu, cq;
} hs_cfg;

/* One method family: what rt/hs_stepper.c asks of its file. */
typedef struct hs_family {
    /* The family's own checks of def against m, after the generic ones and those its row's
     * bits fl (HS_MF_*) ask for; HS_OK or HS_E_DEF_*. */
    int (*validate)(const hs_stepper_def *def, const hs_model *m, unsigned fl);
    /* Sets the family's flags in c (the generic ones are set already). */
    void (*configure)(const hs_stepper_def *def, const hs_model *m, hs_cfg *c);
    /* Writes the family's stages into plan (room for HS_STEPPER_MAX_STAGES); returns the count. */
    int (*plan)(const hs_stepper *s, unsigned char *plan);
    /* Init, after the arenas are bound: parameters fixed for the run (galpha's alpha_m ...,
     * SPOOK's Sigma) and checks that need the model evaluated (dvp's hook); NULL = none. */
    int (*setup)(hs_stepper *s);
    /* Runs s->plan[0 .. s->nplan) with c; HS_OK or the first stage's fault. */
    int (*step)(hs_stepper *s, hs_ctx *c);
    /* The step matrix' multiplier-block entry -k of a compliant row (compliance cc, relaxation
     * time tau), in the family's unknowns (model/COMPLIANCE.md), after setup; NULL for a family
     * that takes no compliant row into its step matrix. */
    hs_real (*reg_k)(const hs_stepper *s, hs_real cc, hs_real tau);
    /* The family that steps def on m in place of this one (sdirk's free-body path), or NULL
     * for this one; NULL = always this one. */
    const struct hs_family *(*path)(const hs_stepper_def *def, const hs_model *m);
    /* The family's error estimate (rt/METHODS.md "The error estimate"): the order p of its
     * position update (1 or 2) and the constant c of its local position error,
     * le = c h |u_{n+1} - u_n| (p = 1: c h^2 q'') or c h |u_{n+1} - 2 u_n + u_{n-1}|
     * (p = 2: c h^3 q'''), inf-norm over q; the stepper forms it after every step. */
    int err_order;
    hs_real err_c;
} hs_family;

/* The family rows, one per row of HS_FAMILY_LIST (rt/hs_methods.h), each defined in its file. */
/* MISRA Ref 20.7.1 [X-macro parameter is an identifier] */
#define HS__FAM_EXTERN(row) extern const hs_family row;
HS_FAMILY_LIST(HS__FAM_EXTERN)

/* 1 when sdirk's def and model m take the free-body path (rt/hs_fb.c): the default sd_gamma,
 * no compliance, and m's free_bodies() returns HS_OK; else 0 (sdirk's row asks: its path). */
int hs_fb_applies(const hs_stepper_def *def, const hs_model *m);

/* sdirk: the consistent acceleration acc = wd at (q, u) of init into the stages' body form on
 * the model's quaternions (rt/hs_sdirk.c "Quaternions"); HS_OK or the model's quats() fault. */
int hs_sd_quat_init(hs_stepper *s);

/* Method property bits of a table row (hs_method_info.flags). */
#define HS_MF_VELFIRST 1u   /* q_{n+1} = q_n + h u_{n+1} */
#define HS_MF_LINIMPL 2u    /* the right-hand side carries h fq u_n (linear-implicit J) */
#define HS_MF_FULLJAC 4u    /* fq and fu blocks are always formed */
#define HS_MF_CURV 8u       /* the constraint curvature K_g joins fq */
#define HS_MF_CU 16u        /* A has - h fu */
#define HS_MF_CQ 32u        /* A has - h^2 fq */
#define HS_MF_OWNSTAB 64u   /* stabilizes itself: runs with --stab none only; tools given no --stab pick it */
#define HS_MF_NOBAUM 128u   /* takes no Baumgarte stabilization (index 3, acceleration-level stages) */
#define HS_MF_RANGE 256u    /* init checks h omega <= max_h_omega and refuses dependent constraints */
#define HS_MF_COMPLIANT 512u /* every constraint row compliant (its own regularization): nc >= nq allowed */
#define HS_MF_MIDVEL 1024u  /* positions follow a mean of u_n and u_{n+1}: the contact stage's cq is h/2 */
/* Every bit a row may carry (test/unit/test_dvp.c walks the table against it). */
#define HS_MF_ALL 2047u

/* The family row of method me (NULL when me is not a method). */
const hs_family *hs_method_family(hs_method me);
/* The family that steps def on model m: the method's, or hs_family_fb where hs_fb_applies
 * (NULL when def->method is not a method). */
const hs_family *hs_step_family(const hs_stepper_def *def, const hs_model *m);
/* The property bits of method me (0 when unknown). */
unsigned hs_method_flags(hs_method me);

/* Factor of the projection matrix [[M, G^T], [G, 0]] at (t, q) into F; M and G are
 * scratch, gt (nc) receives dg/dt there when not NULL (the velocity projection needs it). */
static inline hs_status hs_projection_factor(hs_stepper *s, hs_real t, const hs_real *q, hs_real *M,
                                       hs_real *G, hs_real *gt, hs_ls_fac *F)
{
    const hs_model_type *T = s->model->type;
    hs_status rc = hs_model_rc(T->mass(s->model, t, q, M));
    if (rc != HS_OK) {
        return rc;
    }
    if (s->nc > 0) {
        rc = hs_model_rc(T->constraint(s->model, t, q, NULL, G, gt));
        if (rc != HS_OK) {
            return rc;
        }
    }
    s->stats.factorizations++;
    return hs_linsys_factor(&s->lsP, F, M, HS_R(0.0), NULL, HS_R(0.0), NULL, G, G, s->cregP);
}

/* M (s->M) and f (s->f) at (t, q, u): the evaluation every method's step starts from. */
static inline hs_status hs_mass_force(hs_stepper *s, const hs_ctx *c, hs_real t, const hs_real *q,
                                const hs_real *u)
{
    const hs_model *m = s->model;
    hs_status rc = hs_model_rc(m->type->mass(m, t, q, s->M));
    if (rc != HS_OK) {
        return rc;
    }
    rc = hs_model_rc(m->type->force(m, t, q, u, s->z, c->in, s->f));
    s->stats.force_evals++;
    return rc;
}

/* hs_mass_force with fq and fu at the same point from the model's force_fj (analytic Jacobians) */
static inline hs_status hs_mass_force_fj(hs_stepper *s, const hs_ctx *c, hs_real t, const hs_real *q,
                                   const hs_real *u)
{
    const hs_model *m = s->model;
    hs_status rc = hs_model_rc(m->type->mass(m, t, q, s->M));
    if (rc != HS_OK) {
        return rc;
    }
    rc = hs_model_rc(m->type->force_fj(m, t, q, u, s->z, c->in, s->f, s->fq, s->fu));
    s->stats.force_evals++;
    return rc;
}

/* hs_mass_force with every value checked finite (sdirk checks its Newton update instead) */
static inline hs_status hs_mass_force_finite(hs_stepper *s, const hs_ctx *c, hs_real t, const hs_real *q,
                                       const hs_real *u)
{
    hs_status rc = hs_mass_force(s, c, t, q, u);
    if (rc != HS_OK) {
        return rc;
    }
    if ((hs_all_finite(s->M, s->lsK.nA) == 0) || (hs_all_finite(s->f, s->nq) == 0)) {
        return HS_E_NONFINITE;
    }
    return HS_OK;
}

/* Forward-difference Jacobian J (packed nq x nq) = d f / d x at (t, q, u) where x = q
 * (wrt_u = 0) or u (wrt_u = 1), s->f holding f there; exactly nq force evaluations. */
static inline hs_status hs_fd_jacobian(hs_stepper *s, const hs_ctx *c, hs_real t, const hs_real *q,
                                 const hs_real *u, int wrt_u, hs_real *J)
{
    const hs_model_type *T = s->model->type;
    const int nq = s->nq;
    hs_real *x = s->qs;
    const hs_real *base = (wrt_u != 0) ? u : q;
    for (int i = 0; i < nq; ++i) {
        x[i] = base[i];
    }
    for (int j = 0; j < nq; ++j) {
        hs_real d = s->def.fd_rel * (HS_R(1.0) + hs_abs(base[j]));
        x[j] = base[j] + d;
        d = x[j] - base[j]; /* the increment actually represented */
        hs_status rc = hs_model_rc((wrt_u != 0) ? T->force(s->model, t, q, x, s->z, c->in, s->f2)
                                          : T->force(s->model, t, x, u, s->z, c->in, s->f2));
        s->stats.force_evals++;
        if (rc != HS_OK) {
            return rc;
        }
        hs_blk_qq_set_column(&s->blocks, J, j, s->f2, s->f, d);
        x[j] = base[j];
    }
    return HS_OK;
}

/* fq and fu at (t, q, u): the model's, or differences. */
static inline hs_status hs_force_jacobians(hs_stepper *s, const hs_ctx *c, hs_real t, const hs_real *q,
                                     const hs_real *u)
{
    if (s->analytic != 0) {
        return hs_model_rc(s->model->type->force_jac(s->model, t, q, u, s->z, c->in, s->fq, s->fu));
    }
    hs_status rc = hs_fd_jacobian(s, c, t, q, u, 0, s->fq);
    if (rc != HS_OK) {
        return rc;
    }
    return hs_fd_jacobian(s, c, t, q, u, 1, s->fu);
}

/* Constraint curvature K_g = d(G(t, q)^T lam)/dq (packed) added into fq: the model's
 * curvature(), or nq + 1 evaluations of G differenced (fixed count). */
static inline hs_status hs_add_curvature(hs_stepper *s, hs_real t, const hs_real *q, const hs_real *lam)
{
    const hs_model *m = s->model;
    const int nq = s->nq, nA = s->lsK.nA;
    hs_status rc;
    if (s->curv_fd == 0) {
        rc = hs_model_rc(m->type->curvature(m, t, q, lam, s->Kg));
        if (rc != HS_OK) {
            return rc;
        }
    } else {
        rc = hs_model_rc(m->type->constraint(m, t, q, NULL, s->Gd, NULL));
        if (rc != HS_OK) {
            return rc;
        }
        hs_blk_cq_mtv(&s->blocks, s->Gd, lam, s->v2);
        hs_real *x = s->qs;
        for (int i = 0; i < nq; ++i) {
            x[i] = q[i];
        }
        for (int j = 0; j < nq; ++j) {
            hs_real d = s->def.fd_rel * (HS_R(1.0) + hs_abs(q[j]));
            x[j] = q[j] + d;
            d = x[j] - q[j];
            rc = hs_model_rc(m->type->constraint(m, t, x, NULL, s->Gd, NULL));
            if (rc != HS_OK) {
                return rc;
            }
            hs_blk_cq_mtv(&s->blocks, s->Gd, lam, s->f2);
            hs_blk_qq_set_column(&s->blocks, s->Kg, j, s->f2, s->v2, d);
            x[j] = q[j];
        }
    }
    for (int k = 0; k < nA; ++k) {
        s->fq[k] += s->Kg[k];
    }
    return HS_OK;
}

/* ---- the common tail of every plan ---- */

/* auxiliary states, explicit Euler from t_n (partitioned from the mechanics) */
HS_STAGE_INL hs_status hs_st_aux_states(hs_stepper *s, const hs_ctx *c)
{
    hs_status rc = hs_model_rc(s->model->type->zdot(s->model, c->t, s->q, s->u, s->z, c->in, s->dz));
    if (rc != HS_OK) {
        return rc;
    }
    for (int i = 0; i < s->nz; ++i) {
        s->zn[i] = s->z[i] + c->h * s->dz[i];
    }
    return HS_OK;
}

/* A quaternion body's part of the metric: its named points' displacement dx + dth x (R s)
 * with R = R(p) and the world turn dth = 2 E(p) dp at p = qref's (to first order), |dx|_2,
 * the shapes' bound |dx|_2 + w |dth| and, with nothing named, |dth| (rad). */
static inline hs_real hs_err_quat(const hs_err_group *g, const hs_real *dx, const hs_real *dp, const hs_real *p)
{
    const hs_real w = p[0], x = p[1], y = p[2], z = p[3];
    const hs_real th[3] = {
        HS_R(2.0) * ((-x * dp[0]) + (w * dp[1]) - (z * dp[2]) + (y * dp[3])),
        HS_R(2.0) * ((-y * dp[0]) + (z * dp[1]) + (w * dp[2]) - (x * dp[3])),
        HS_R(2.0) * ((-z * dp[0]) - (y * dp[1]) + (x * dp[2]) + (w * dp[3]))};
    const hs_real R[3][3] = {
        {HS_R(1.0) - (HS_R(2.0) * ((y * y) + (z * z))), HS_R(2.0) * ((x * y) - (w * z)), HS_R(2.0) * ((x * z) + (w * y))},
        {HS_R(2.0) * ((x * y) + (w * z)), HS_R(1.0) - (HS_R(2.0) * ((x * x) + (z * z))), HS_R(2.0) * ((y * z) - (w * x))},
        {HS_R(2.0) * ((x * z) - (w * y)), HS_R(2.0) * ((y * z) + (w * x)), HS_R(1.0) - (HS_R(2.0) * ((x * x) + (y * y)))}};
    const hs_real nx = hs_sqrt((dx[0] * dx[0]) + (dx[1] * dx[1]) + (dx[2] * dx[2]));
    const hs_real nt = hs_sqrt((th[0] * th[0]) + (th[1] * th[1]) + (th[2] * th[2]));
    hs_real e2 = nx * nx;
    for (int k = 0; k < g->np; ++k) {
        const hs_real *sp = &g->pts[3 * k];
        hs_real r[3];
        for (int i = 0; i < 3; ++i) { r[i] = (R[i][0] * sp[0]) + (R[i][1] * sp[1]) + (R[i][2] * sp[2]); }
        const hs_real d0 = dx[0] + ((th[1] * r[2]) - (th[2] * r[1]));
        const hs_real d1 = dx[1] + ((th[2] * r[0]) - (th[0] * r[2]));
        const hs_real d2 = dx[2] + ((th[0] * r[1]) - (th[1] * r[0]));
        const hs_real q2 = (d0 * d0) + (d1 * d1) + (d2 * d2);
        e2 = (q2 > e2) ? q2 : e2;
    }
    hs_real e = hs_sqrt(e2);
    const hs_real ext = nx + (g->w * nt);
    e = (ext > e) ? ext : e;
    /* points on one line through the centre do not show the turn about it: read in rad */
    const hs_real *ax = g->axis;
    const hs_real tw = hs_abs((th[0] * ((R[0][0] * ax[0]) + (R[0][1] * ax[1]) + (R[0][2] * ax[2])))
                              + (th[1] * ((R[1][0] * ax[0]) + (R[1][1] * ax[1]) + (R[1][2] * ax[2])))
                              + (th[2] * ((R[2][0] * ax[0]) + (R[2][1] * ax[1]) + (R[2][2] * ax[2]))));
    e = (tw > e) ? tw : e;
    return ((g->np == 0) && (g->w == HS_R(0.0)) && (nt > e)) ? nt : e;
}

/* A planar body's part: the bound |dx| + w |dth| of its points' displacement dx + dth z x (R s)
 * (|s| <= w; the description's points fold into w) and its angle's |dth| (rad, as the
 * coordinate reads). */
static inline hs_real hs_err_planar(const hs_err_group *g, const hs_real *dx, hs_real dth)
{
    const hs_real at = hs_abs(dth);
    const hs_real ext = hs_sqrt((dx[0] * dx[0]) + (dx[1] * dx[1])) + (g->w * at);
    return (at > ext) ? at : ext;
}

/* One body's part of the metric from the differences v of its nx + nr coordinates (from q0)
 * at the configuration qref, for a body that turns (a point's is hs_err_metric's own). A
 * planar body and a quaternion body after its translations (a description's kinds) read v in
 * place; any other kind the stepper accepts reads v padded with zeros to 7, as the metric has
 * always read it. Written out, not zeroed by an initializer: the board's compiler called
 * memset for the 7 reals, 56 bytes in a byte loop, about 170 instructions per body and call
 * (test/qemu, -d exec). */
static inline hs_real hs_err_body(const hs_err_group *g, const hs_real *v, const hs_real *qref)
{
    const int nx = g->nx, nr = g->nr;
    hs_real e;
    if ((nr == 1) && (nx >= 2)) {
        e = hs_err_planar(g, v, v[nx]);
    } else if ((nr == 4) && (nx == 3)) {
        e = hs_err_quat(g, v, &v[3], &qref[g->q0 + 3]);
    } else {
        hs_real w[7];
        for (int i = 0; i < 7; ++i) {
            w[i] = (i < (nx + nr)) ? v[i] : HS_R(0.0);
        }
        if (nr == 4) {
            e = hs_err_quat(g, w, &w[nx], &qref[g->q0 + nx]);
        } else if (nr == 1) {
            e = hs_err_planar(g, w, w[nx]);
        } else {
            e = hs_sqrt((w[0] * w[0]) + (w[1] * w[1]) + (w[2] * w[2]));
        }
    }
    return e;
}

/* A point body's part (2 or 3 translations, nothing turns): |dx|_2, the same bits as the
 * zero-padded sum of squares (an absent third component added 0). */
static inline hs_real hs_err_point(const hs_err_group *g, const hs_real *x)
{
    hs_real n2 = (x[0] * x[0]) + (x[1] * x[1]);
    if (g->nx == 3) {
        n2 += x[2] * x[2];
    }
    return hs_sqrt(n2);
}

/* The error metric of a difference v (nq) of positions at the configuration qref
 * (hs_stepper_err_dist): the largest over the model's bodies (err_ngrp > 0) of the
 * displacement of the points the description names on them (m; a rotation by th moves a
 * point at rho by rho th, while a quaternion's components move by th / 2) and a planar
 * angle's own (rad); a point body's |dx|_2 inline, the others' through hs_err_body (on the
 * host a call per point body cost 17 instructions and the spills around it). A fixed number
 * of operations per body and named point: a fixed cost. */
static inline hs_real hs_err_metric(const hs_stepper *s, const hs_real *v, const hs_real *qref)
{
    hs_real m = HS_R(0.0);
    for (int k = 0; k < s->err_ngrp; ++k) {
        const hs_err_group *g = &s->err_grp[k];
        const hs_real *x = &v[g->q0];
        const hs_real e = ((g->nr == 0) && (g->nx >= 2)) ? hs_err_point(g, x) : hs_err_body(g, x, qref);
        m = (e > m) ? e : m;
    }
    return m;
}

/* one Newton step of the position projection (eq. 11 with the matrix at q_n, kept from the
 * previous step); reuse_g: c1 holds g(t_{n+1}, q_{n+1}) already (positions-first index-2);
 * guard: refuse the step (HS_E_RANGE) when the correction |dq|_1 exceeds s->pp_lim - the
 * step left the constraint manifold by a sizable fraction of the model's size, which a
 * method inside its range never does (the Euler family's growth towards Inf) */
HS_STAGE_INL hs_status hs_st_project_positions(hs_stepper *s, const hs_ctx *c, int reuse_g, int guard)
{
    const int nq = s->nq, nc = s->nc;
    if (reuse_g == 0) {
        hs_status rc = hs_model_rc(s->model->type->constraint(s->model, c->t1, s->qn, s->c1, NULL, NULL));
        if (rc != HS_OK) {
            return rc;
        }
    }
    for (int i = 0; i < nc; ++i) {
        /* a compliant row is a spring the step integrated ([L1] eq. 3.2), not a target
         * g = 0: the projection keeps it where the step put it */
        s->b2[nq + i] = ((s->comp != 0) && (s->cmp[i] > HS_R(0.0))) ? HS_R(0.0) : s->c1[i];
    }
    for (int i = 0; i < nq; ++i) {
        s->b2[i] = HS_R(0.0);
    }
    hs_linsys_solve_c(&s->lsP, &s->fP, s->b2);
    hs_real nd = HS_R(0.0);
    hs_real dm = HS_R(0.0);
    for (int i = 0; i < nq; ++i) {
        s->qn[i] -= s->b2[i];
        const hs_real a = hs_abs(s->b2[i]);
        nd += a;
        dm = (a > dm) ? a : dm;
    }
    s->err_proj_q = dm;
    s->err_proj = (s->err_ngrp > 0) ? hs_err_metric(s, s->b2, s->qn) : dm;
    if (guard == 0) {
        return HS_OK;
    }
    if (!(nd <= s->pp_lim)) {
        return (nd - nd == HS_R(0.0)) ? HS_E_RANGE : HS_E_NONFINITE;
    }
    return HS_OK;
}

/* factor the matrix at q_{n+1}: velocity projection now, position projection next step */
HS_STAGE_INL hs_status hs_st_project_velocities(hs_stepper *s, const hs_ctx *c)
{
    const int nq = s->nq, nc = s->nc;
    hs_status rc = hs_projection_factor(s, c->t1, s->qn, s->M, s->G2, s->c2, &s->fPn);
    if (rc != HS_OK) {
        return rc;
    }
    if (s->lsP.schur != 0) {
        hs_linsys_g_mv(&s->lsP, s->G2, s->un, s->c3);
    } else {
        hs_blk_cq_mv(&s->blocks, s->G2, s->un, s->c3);
    }
    for (int i = 0; i < nc; ++i) {
        /* a compliant row does not constrain the velocity: its rate is the step's */
        s->b2[nq + i] = ((s->comp != 0) && (s->cmp[i] > HS_R(0.0))) ? HS_R(0.0) : s->c3[i] + s->c2[i];
    }
    hs_linsys_solve_c_sub(&s->lsP, &s->fPn, s->b2, s->un);
    return HS_OK;
}

HS_STAGE_INL hs_status hs_st_check(const hs_stepper *s)
{
    if ((hs_all_finite(s->qn, s->nq) == 0) || (hs_all_finite(s->un, s->nq) == 0)
        || (hs_all_finite(s->zn, s->nz) == 0) || (hs_all_finite(s->lamn, s->nc) == 0)) {
        return HS_E_NONFINITE;
    }
    return HS_OK;
}

/* The plausibility watchdog: a state past the def's bounds is refused like a singular one. */
HS_STAGE_INL hs_status hs_st_watchdog(const hs_stepper *s, const hs_ctx *c)
{
    int ok = 1;
    if (s->def.max_speed > HS_R(0.0)) {
        for (int i = 0; i < s->nq; ++i) {
            ok &= (hs_abs(s->un[i]) <= s->def.max_speed) ? 1 : 0;
        }
    }
    if (s->def.max_energy_gain > HS_R(0.0)) {
        hs_real E;
        hs_status rc = hs_model_rc(s->model->type->energy(s->model, c->t1, s->qn, s->un, s->zn, &E));
        if (rc != HS_OK) {
            return rc;
        }
        ok &= ((E - s->E0) <= s->def.max_energy_gain) ? 1 : 0;
    }
    return (ok != 0) ? HS_OK : HS_E_IMPLAUSIBLE;
}

/* The contact stage (rt/hs_contact.c): unilateral rows on (qn, un) after the method's step. */
hs_status hs_st_contact(hs_stepper *s, const hs_ctx *c);

/* The tail stages every plan may end with (hs_plan_tail), written once for every family
 * (reuse_g and guard as in hs_st_project_positions): the case labels of a family's stage
 * switch, placed after its own stages and followed by its default, so each step keeps one
 * jump per stage. (A family's default calling hs_tail_stage's switch instead costs a second
 * dispatch per tail stage: 33 instructions per step of sdirk, 46 of j2 on the car axle,
 * callgrind.) ggl is HS_GGL_FACTOR_CASE for a family whose plans may end with GGL's factor at
 * q_{n+1} (positions-first index-2 only: the Euler family), HS_NO_CASE for the others: a case
 * more in their switches costs 4 instructions per step, one elsewhere in the list 2-3. */
/* MISRA Ref 20.7.1 [X-macro parameter is an identifier] */
#define HS_TAIL_STAGE_CASES(s, c, st_reuse_g, st_guard, ggl) \
    case HS_STAGE_AUX_STATES: return hs_st_aux_states((s), (c)); \
    case HS_STAGE_PROJECT_POSITIONS: return hs_st_project_positions((s), (c), (st_reuse_g), (st_guard)); \
    case HS_STAGE_PROJECT_VELOCITIES: return hs_st_project_velocities((s), (c)); \
    ggl \
    case HS_STAGE_CONTACT: return hs_st_contact((s), (c)); \
    case HS_STAGE_CHECK: return hs_st_check(s); \
    case HS_STAGE_WATCHDOG: return hs_st_watchdog((s), (c))
#define HS_GGL_FACTOR_CASE(s, c) \
    case HS_STAGE_GGL_FACTOR: return hs_projection_factor((s), (c)->t1, (s)->qn, (s)->M, (s)->G2, NULL, &(s)->fPn);
#define HS_NO_CASE

/* The tail stage st alone, for a family whose plan has one stage of its own before the tail. */
static inline hs_status hs_tail_stage(hs_stepper *s, const hs_ctx *c, int st, int reuse_g, int guard)
{
    switch (st) {
    HS_TAIL_STAGE_CASES(s, c, reuse_g, guard, HS_GGL_FACTOR_CASE(s, c));
    default: return HS_E_NOT_INIT;
    }
}

/* 1 when the model's M changes with q, 0 when not, or a fault code: M at the initial state
 * against q moved by 1 % (+ 0.01) in each coordinate in turn (nq + 1 mass evaluations, init
 * only; the initial state lands in qn, un, zn, M and Kg are scratch). */
static inline int hs_mass_probe(hs_stepper *s)
{
    const hs_model *m = s->model;
    const int nq = s->nq, nA = s->lsK.nA;
    int rc = hs_model_rc(m->type->initial(m, s->t0, s->qn, s->un, s->zn));
    if (rc != (int)HS_OK) {
        return rc;
    }
    rc = hs_model_rc(m->type->mass(m, s->t0, s->qn, s->M));
    if (rc != (int)HS_OK) {
        return rc;
    }
    for (int j = 0; j < nq; ++j) {
        for (int i = 0; i < nq; ++i) {
            s->qs[i] = s->qn[i];
        }
        s->qs[j] = s->qn[j] + HS_R(0.01) * (HS_R(1.0) + hs_abs(s->qn[j]));
        rc = hs_model_rc(m->type->mass(m, s->t0, s->qs, s->Kg));
        if (rc != (int)HS_OK) {
            return rc;
        }
        int same = 1;
        for (int k = 0; k < nA; ++k) {
            same &= (s->Kg[k] == s->M[k]) ? 1 : 0;
        }
        if (same == 0) {
            return 1;
        }
    }
    return 0;
}

/* A family's step: runs the plan of s stage by stage through the family's dispatcher run,
 * stopping at the first refusal (its status is the step's). Inline, so run stays a direct call. */
static inline hs_status hs_run_plan(hs_stepper *s, hs_ctx *c, int (*run)(hs_stepper *, hs_ctx *, int))
{
    /* the count in a local: stages write through pointers that could alias s->nplan */
    const int np = s->nplan;
    hs_status rc = HS_OK;
    for (int i = 0; (i < np) && (rc == HS_OK); ++i) {
        rc = run(s, c, (int)s->plan[i]);
    }
    return rc;
}

/* Appends the common tail to plan[0 .. n) of s; returns the new count. */
int hs_plan_tail(const hs_stepper *s, unsigned char *plan, int n);

#endif
