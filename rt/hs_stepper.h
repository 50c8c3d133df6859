/* hs_stepper.h - the fixed-cost stepper: the methods of the method table (hs_method_table,
 * one family file each: rt/hs_euler.c, hs_spook.c, hs_galpha.c, hs_sdirk.c, hs_dvp.c, hs_em.c;
 * sdirk's free-body path rt/hs_fb.c), index-1,
 * index-2 and GGL formulations, Baumgarte stabilization and one-Newton-step projection
 * (rt/METHODS.md says which to pick).
 *
 * One step is a fixed sequence of stages chosen at init: evaluations of M, f, the Jacobian
 * blocks (analytic, or finite differences with a fixed count of force evaluations), a fixed
 * number of factorizations of the step matrix, and, with projection, one factorization of
 * the (nq+nc) projection matrix at q_{n+1} (kept for the next step's position projection).
 * No loop runs to a tolerance; loop counts depend on the model sizes only. The step is transactional: it works in scratch and commits the new
 * state only when every pivot and value is finite, otherwise it returns a fault and leaves
 * the stepper bit-for-bit unchanged.
 *
 * Memory: the caller provides two arenas sized by HS_STEPPER_REALS / HS_STEPPER_INTS from the
 * model's compile-time sizes; nothing is allocated. */
#ifndef HS_STEPPER_H
#define HS_STEPPER_H

#include "hs_linsys.h"
#include "hs_methods.h"

/* Integration method: one enumerator per row of HS_METHOD_LIST (rt/hs_methods.h), which says
 * what each does. */
/* MISRA Ref 20.7.1 [X-macro parameter is an identifier] */
#define HS__M_ENUM(id, value, name, family, row, summary, hooks, flags) id = (value),
typedef enum hs_method {
    HS_METHOD_LIST(HS__M_ENUM)
} hs_method;
#define HS__M_ONE(id, value, name, family, row, summary, hooks, flags) + 1
/* Number of methods (rows of HS_METHOD_LIST; hs_method values are 0 .. HS_METHOD_COUNT - 1). */
#define HS_METHOD_COUNT (0 HS_METHOD_LIST(HS__M_ONE))

/* Which constraint level determines the multipliers. */
typedef enum hs_form {
    HS_FORM_INDEX1 = 0, /* acceleration level G u' + gamma = 0 at t_n (5c) */
    HS_FORM_INDEX2 = 1, /* velocity level G u_{n+1} + g_t = 0 at t_{n+1} (eq. 6b) */
    HS_FORM_GGL = 2     /* Gear-Gupta-Leimkuhler (eq. 9, sec. 3.3): q* = q_n + h u_n projected by
                         * one Newton step of eq. 11, then eq. 6b at the projected q_{n+1};
                         * positions-first methods only, stabilization none (it is built in) */
} hs_form;

/* Constraint stabilization. */
typedef enum hs_stab {
    HS_STAB_NONE = 0,
    HS_STAB_BAUMGARTE = 1,  /* index-1: + 2 alpha g' + beta g; index-2: + alpha g (sec. 3.2) */
    HS_STAB_PROJECTION = 2  /* one Newton step on positions (eq. 11, M-norm), then velocities (sec. 3.4) */
} hs_stab;

/* Where the force Jacobian blocks fq, fu come from. */
typedef enum hs_jac {
    HS_JAC_AUTO = 0,     /* analytic when the model has force_jac, else finite differences */
    HS_JAC_ANALYTIC = 1, /* the model's force_jac; rejected when it has none */
    HS_JAC_FD = 2        /* forward differences: 2 nq force evaluations (1 for J3) */
} hs_jac;

/* sdirk's range: the largest h^2 |dA|_1 / (1 + |q0|_inf) one stage's Newton correction may
 * have (dimensionless); beyond it the step is refused with HS_E_RANGE (rt/METHODS.md). A
 * linear mode the stages solve exactly gives (h omega)^2 times its amplitude over the size:
 * 5e3 at h omega = 100 (test/unit/test_methods.c); the diverging runs of the method table
 * pass 1e4 one or two steps before their values overflow. */
#ifndef HS_SD_RANGE
#define HS_SD_RANGE HS_R(1.0e4)
#endif
/* sdirk's range at init (default of hs_stepper_def.max_h_omega): the largest h * omega of the
 * model's motion bound (hs_model_type.motion) it starts with (dimensionless). Calibrated on
 * the chain's former energy bound (n = 8 completed at h omega 0.35 and 0.43, was refused
 * mid-run from 0.52); the rods now declare their start's own rate and their rates are checked
 * at every step (HS_SD_MAX_HW, rt/METHODS.md "Where a method stops"). */
#define HS_SD_MAX_H_OMEGA HS_R(0.4)
/* The Euler family's range: the largest |dq|_1 / (1 + |q0|_inf) of the position projection
 * (dimensionless): a correction of the model's whole size means the step left the
 * constraint manifold, the start of the positions-first methods' growth to Inf. */
#define HS_PP_RANGE HS_R(1.0)
/* galpha's default rho_inf (see README, issue 8: chosen from the measured bars). */
#define HS_GALPHA_RHO_DEFAULT HS_R(0.9)
/* sdirk's default diagonal: 1/4, the implicit midpoint rule twice (README "A stepper you can
 * leave running"); HS_SDIRK_GAMMA_ORDER3 = (3 + sqrt 3)/6 is the third-order A-stable member. */
#define HS_SDIRK_GAMMA_DEFAULT HS_R(0.25)
#define HS_SDIRK_GAMMA_ORDER3 HS_R(0.78867513459481288225)

/* Stepper configuration; fill with hs_stepper_default_def() then change fields. */
typedef struct hs_stepper_def {
    hs_method method;
    hs_form form;
    hs_stab stab;
    hs_jac jac;
    hs_real h;        /* step size (s), > 0 */
    hs_real alpha;    /* Baumgarte alpha (1/s), >= 0; 0 = follow h (1/h); index-2 needs h alpha <= 2 */
    hs_real beta;     /* Baumgarte beta (1/s^2), >= 0; 0 = follow h (1/h^2) (index-1) */
    hs_real fd_rel;   /* relative finite-difference increment (dimensionless), > 0 */
    hs_real spook_eps;            /* SPOOK compliance epsilon (m/N for a length constraint), >= 0;
                                   * default 1e-8 ([L2]) */
    hs_real spook_tau_h;          /* SPOOK relaxation tau / h (dimensionless), > 0; default 2 */
    const hs_real *spook_eps_c;   /* (nc) per-constraint epsilon, or NULL = spook_eps for all */
    const hs_real *spook_tau_h_c; /* (nc) per-constraint tau / h, or NULL = spook_tau_h for all */
    hs_real reg_eps;              /* compliance (m/N for a length constraint) of the multiplier
                                   * block for the other methods, >= 0; 0 = off (default): with
                                   * eps > 0 the index-2/GGL step matrix gets -eps/h^2 and the
                                   * projection matrix -eps/h^2 on the multiplier diagonal, so
                                   * redundant constraints do not make them singular */
    hs_real reg_damp;             /* damping (N s/m for a length constraint) in parallel with
                                   * reg_eps, >= 0; default 0. A compliant row (c > 0) is seed
                                   * 001's spring-damper: c lambda = -(g + tau G u), tau = c d
                                   * (model/COMPLIANCE.md); with c = 0 it has no effect */
    const hs_real *reg_eps_c;     /* (nc) per-constraint compliance, or NULL = the model's
                                   * compliance() where it declares one, else reg_eps */
    const hs_real *reg_damp_c;    /* (nc) per-constraint damping, or NULL (as reg_eps_c) */
    hs_ls_kind linsys;            /* linear-system backend: auto (default), dense, sparse */
    const hs_ls_backend *sparse;  /* the sparse backend auto/sparse may use; NULL = none */
    hs_real rho_inf;  /* galpha: spectral radius at h omega -> infinity, in [0, 1] (dimensionless) */
    hs_real sd_gamma; /* sdirk: diagonal of the Butcher table, in [1/4, 0.45] or [0.55, 1]
                       * (A-stable; 1/2 would put both stages at the midpoint); dimensionless */
    hs_real max_speed;      /* watchdog: largest admissible |u_i| (units of u); 0 = off */
    hs_real max_energy_gain;/* watchdog: largest admissible E(t) - E(t0) (J), models with
                             * energy() only; 0 = off */
    hs_real max_h_omega;    /* sdirk: range check at init, the largest h * omega of the model's
                             * motion bound (dimensionless; default HS_SD_MAX_H_OMEGA), and
                             * refuse a model whose constraints can become dependent; 0 = off
                             * (a benchmark of the step's cost past the range) */
} hs_stepper_def;

/* Defaults (rt/METHODS.md "The default"): sdirk with sd_gamma = 1/4, form index2, projection,
 * automatic Jacobian, h = 1 ms, Baumgarte alpha/beta following h (0), fd_rel = sqrt(eps),
 * linear-system backend auto, watchdog off. */
hs_stepper_def hs_stepper_default_def(void);

/* Checks def alone and against model m (sizes, Jacobian availability); HS_OK or a HS_E_DEF_* code. */
hs_status hs_stepper_def_validate(const hs_stepper_def *def, const hs_model *m);

/* ---- workspace: ONE list, used for the struct fields, the runtime layout and the bounds ----
 * X(name, count, what) per array; counts are expressions of the sizes passed in:
 *   NQ, NC, NZ   instance sizes;  N = NQ + NC
 *   NA  reals of a packed nq x nq matrix (hs_blocks qq);  NG  reals of a packed G (cq)
 *   NAJ NA when the method uses force Jacobian blocks, else 0
 *   NFK reals of one numeric factor of the step system, NF1 of the second-stage (nq) system,
 *   NFP of the projection system (0 when the configuration has none)
 *   NQA NQ for galpha and sdirk (their accelerations), NAK NA and NGK NG with the curvature
 *   (jk, jkexact, galpha, sdirk; NGK only for the difference fallback), NIN0 the inputs
 *   (galpha, sdirk), NCA NC for sdirk (stage multipliers), else 0
 * Ints: NBLK the model's block list, NIK/NI1/NIP pivots of the factors, NSK/NS1/NSP the
 * sparse analyses, NTMP scratch used only by init (sparse analysis). */
#define HS_STEPPER_REAL_LIST(X, NQ, NC, NZ, N, NA, NG, NAJ, NFK, NF1, NFP, NCC, NUP, NQA, NAK, NGK, NIN0, NCA, NK, NKQ, NQK, NNK, NKF) /* MISRA Ref 20.7.1 [X-macro parameter is an identifier] */ \
    X(q, NQ, "committed positions") \
    X(u, NQ, "committed velocities") \
    X(up, NQ, "velocities of the step before (the error estimate's second difference)") \
    X(z, NZ, "committed auxiliary states") \
    X(lambda, NC, "multipliers of the last step (force units, +G^T lambda)") \
    X(qn, NQ, "new positions (swapped with q at commit)") \
    X(un, NQ, "new velocities") \
    X(zn, NZ, "new auxiliary states") \
    X(lamn, NC, "new multipliers") \
    X(acc, NQA, "galpha: committed pseudo-acceleration a_n; sdirk: stage-1 acceleration of the last step") \
    X(accn, NQA, "galpha: new pseudo-acceleration; sdirk: this step's stage-1 acceleration") \
    X(wd, NQA, "galpha: committed acceleration udot_n; sdirk: stage-2 acceleration of the last step") \
    X(wdn, NQA, "galpha: new acceleration; sdirk: this step's stage-2 acceleration") \
    X(sl1, NCA, "sdirk: stage-1 multipliers") \
    X(sl2, NCA, "sdirk: stage-2 multipliers") \
    X(P, NFP, "factor of the projection matrix at q (kept across steps)") \
    X(Pn, NFP, "factor of the projection matrix at q_{n+1} (swapped at commit)") \
    X(K, NFK, "factor of the step matrix") \
    X(K1, NF1, "factor of the second-stage matrix (index-1 with an implicit J)") \
    X(M, NA, "mass matrix, packed") \
    X(fq, NAJ, "df/dq, packed") \
    X(fu, NAJ, "df/du, packed") \
    X(Kg, NAK, "constraint curvature d(G^T lambda)/dq, packed (dvp: d(M(q) w)/dq)") \
    X(Gd, NGK, "G at a perturbed position (curvature differences)") \
    X(G, NG, "G(t_n, q_n), packed") \
    X(G2, NG, "G at the second position (q* or q_{n+1}), packed") \
    X(f, NQ, "forces") \
    X(f2, NQ, "forces at a perturbed point (finite differences)") \
    X(r, NQ, "right-hand side f + h fq u_n") \
    X(v1, NQ, "temporary") \
    X(v2, NQ, "temporary") \
    X(qs, NQ, "predicted or perturbed positions") \
    X(b, N, "right-hand side / solution of the step system") \
    X(b2, N, "right-hand side / solution of the projections") \
    X(g, NC, "residual g(t_n, q_n)") \
    X(gt, NC, "dg/dt") \
    X(gam, NC, "acceleration remainder") \
    X(c1, NC, "temporary") \
    X(c2, NC, "temporary") \
    X(c3, NC, "temporary") \
    X(dz, NZ, "auxiliary state derivative") \
    X(creg, NCC, "-Sigma (SPOOK, eq. 27) or the reg_eps blocks of K and P, packed by the constraint blocks' diagonal blocks") \
    X(ups, NUP, "SPOOK: Upsilon of eq. 27 per constraint") \
    X(cmp, NUP, "per-constraint compliance c_i in use (m/N for a length; 0 = rigid)") \
    X(cdt, NUP, "per-constraint relaxation time tau_i = c_i d_i (s)") \
    X(in0, NIN0, "zero inputs for the consistent initial acceleration (galpha)") \
    X(ctJ, NKQ, "contact rows J (nk x nq, dense)") \
    X(ctB, NKQ, "contact responses M_c^-1 J^T under the joints (nk x nq)") \
    X(ctphi, NK, "contact gaps at the method's q_{n+1}; in the sweeps J_i B_{i-2} of a point's third row") \
    X(ctv, NK, "contact row velocities J u before the contact stage; in the sweeps J_i B_{i-1} within a point") \
    X(ctr, NK, "contact targets: J u_{n+1} >= ctr (normals), = 0 (friction)") \
    X(ctiw, NK, "1 / W_ii of each contact row (0 for an empty slot)") \
    X(cteps, NK, "compliance of each normal row (HS_CT_REG W_ii); of a friction row: 1 when its bound uses the previous step's normal impulse, else 0") \
    X(ctl, NK, "committed contact impulses (N s; the next step's warm start)") \
    X(ctln, NK, "new contact impulses (swapped at commit)") \
    X(cta, NK, "committed hold anchors: per normal row of a contact point, its pair's mean normal impulse followed at HS_CT_HOLDB per step (N s; 0 on other rows)") \
    X(ctan, NK, "new hold anchors (swapped at commit)") \
    X(ctk, NK, "per row: how much longer than cq its impulse moves the positions (s; 0 but on the rows of a point whose normal takes an inelastic impact at tau: h - tau - cq)") \
    X(ctu, NQK, "velocities of the method's step, before the contact stage") \
    X(ctx, NNK, "scratch of the response solves (nq + nc)") \
    X(ctf, NKF, "free-body contact stage (rt/hs_contact_fb.c): point geometry, row responses, body velocities")

#define HS_STEPPER_INT_LIST(X, NBLK, NIK, NI1, NIP, NSK, NS1, NSP, NTMP) /* MISRA Ref 20.7.1 [X-macro parameter is an identifier] */ \
    X(blk, NBLK, "the model's block list (hs_blocks points into it)") \
    X(Kp, NIK, "pivots of K") \
    X(K1p, NI1, "pivots of K1") \
    X(Pp, NIP, "pivots of P") \
    X(Ppn, NIP, "pivots of Pn") \
    X(symK, NSK, "sparse analysis of the step system") \
    X(sym1, NS1, "sparse analysis of the second-stage system") \
    X(symP, NSP, "sparse analysis of the projection system") \
    X(tmp, NTMP, "init-time scratch of the analyses")

#define HS__WS_SUM(name, count, what) + (size_t)(count)
/* Reals of workspace for sizes nq, nc, nz: an upper bound for any model of those sizes with
 * the dense backend and any method (a compile-time constant expression, for static arenas).
 * hs_stepper_workspace_tmp gives the exact need of one configuration. */
#define HS_STEPPER_REALS(nq, nc, nz) \
    (0 HS_STEPPER_REAL_LIST(HS__WS_SUM, (nq), (nc), (nz), ((nq) + (nc)), (nq) * (nq), \
                            (nc) * (nq), (nq) * (nq), ((nq) + (nc)) * ((nq) + (nc)), \
                            (nq) * (nq), ((nq) + (nc)) * ((nq) + (nc)), 2 * (nc) * (nc), (nc), \
                            (nq), (nq) * (nq), (nc) * (nq), HS_STEPPER_MAX_NIN, (nc), 0, 0, 0, 0, 0))
/* Inputs the dense bound allows for (galpha's zero-input vector at init). */
#define HS_STEPPER_MAX_NIN 16
/* Ints of workspace for sizes nq, nc (upper bound as above, any block list the model declares). */
#define HS_STEPPER_INTS(nq, nc) \
    (0 HS_STEPPER_INT_LIST(HS__WS_SUM, 8 + ((nq) + 1) + ((nc) + 1) + 2 * (nq) * (nq) \
                           + 2 * (nc) * (nq), ((nq) + (nc)), (nq), ((nq) + (nc)), 0, 0, 0, 0))

/* Exact reals and ints hs_stepper_init needs for def and model instance m (its block list,
 * the backend def->linsys resolves to, the arrays the method uses), measured in the caller's
 * sizing scratch tmp (ntmp ints, used only during the call; the one sizing call, for every
 * model, parameter-sized ones included: chain n = 128, ladder n = 100). A scratch too small
 * returns HS_E_SIZE with *nints = the scratch to call again with (*nints > ntmp; exact once
 * the model's block list fitted, so at most two more calls), *nreals = 0; HS_E_SIZE with
 * *nints <= ntmp is the model's own fault. hs_stepper_sizing_ints(m) ints always suffice. */
hs_status hs_stepper_workspace_tmp(const hs_stepper_def *def, const hs_model *m, int *tmp, size_t ntmp,
                             size_t *nreals, size_t *nints);
/* Ints of sizing scratch that suffice for hs_stepper_workspace_tmp with any def, for a model
 * of nq positions and nc constraints declaring any block list (an upper bound, quadratic in
 * nq + nc: the block list, the scalar pattern of the largest system and the sparse analysis'
 * scratch, each at its densest). A compile-time constant expression for constant arguments. */
#define HS_STEPPER_SIZING_INTS(nq, nc) \
    (HS__SZ_BLK((size_t)(nq), (size_t)(nc)) + HS__SZ_MASK((size_t)(nq), (size_t)(nc)) \
     + HS__SZ_PAT((size_t)(nq), (size_t)(nc)) + HS__SZ_AN((size_t)(nq), (size_t)(nc)))
/* the zero masks ahead of the analyses: the step matrix's (|A| + |G| + 1), the projection's
 * M (|A|, hs_model_type.mass_blockdiag) and the leaf rows (ncb <= nc, hs_model_type.leaf_rows) */
#define HS__SZ_MASK(nq, nc) (2u * (nq) * (nq) + (nc) * (nq) + (nc) + 1u)
/* the block list (as in HS_STEPPER_INTS): qb, cb, 2 ints per qq and cq block, 8 spare */
#define HS__SZ_BLK(nq, nc) (8u + ((nq) + 1u) + ((nc) + 1u) + 2u * (nq) * (nq) + 2u * (nc) * (nq))
/* triplets of the largest system: 2 |A| + 2 |G| + |C| + n (rt/hs_linsys_init.c triplet_count) */
#define HS__SZ_T(nq, nc) (2u * (nq) * (nq) + 2u * (nc) * (nq) + (nc) * (nc) + (nq) + (nc))
/* its scalar pattern: Ap, kind and three triplet arrays */
#define HS__SZ_PAT(nq, nc) (2u * ((nq) + (nc)) + 1u + 3u * HS__SZ_T(nq, nc))
/* the sparse analysis' scratch, hs_sparse_tmp_ints(n, nnz <= triplets) */
#define HS__SZ_AN(nq, nc) (((nq) + (nc)) * (((nq) + (nc) + 31u) / 32u) + 18u * ((nq) + (nc)) \
                           + 3u * HS__SZ_T(nq, nc) + 16u)
/* HS_STEPPER_SIZING_INTS for model instance m's sizes (m->d); 0 for a NULL model. */
size_t hs_stepper_sizing_ints(const hs_model *m);

/* The range check of init for def and model m at the state (t, q (nq), u (nq)): *h_omega = h
 * times the model's motion bound (0 without the motion() hook), *degenerate as the hook says.
 * HS_OK when the method may start there, HS_E_RANGE_INIT when h * omega > def->max_h_omega,
 * HS_E_RANGE_DEGENERATE for constraints that can become dependent (methods whose row asks
 * for the check: sdirk; the others are not checked), or the model's fault. hs_stepper_init runs it on the initial
 * state; a tool calls it to print the figures of a refusal. */
hs_status hs_stepper_range(const hs_stepper_def *def, const hs_model *m, hs_real t, const hs_real *q,
                     const hs_real *u, hs_real *h_omega, int *degenerate);
/* hs_stepper_range, and *who what sets the bound (a body index >= 0, HS_WHO_JOINT(k), or
 * HS_WHO_NONE; hs_model_type.motion), for the refusal's message. */
hs_status hs_stepper_range_who(const hs_stepper_def *def, const hs_model *m, hs_real t, const hs_real *q,
                               const hs_real *u, hs_real *h_omega, int *degenerate, int *who);

/* Counters a HIL engineer reads after a run. */
/* The span (s) over which the global estimate err_glob adds local errors: one test's (a
 * manoeuvre, a coast-down), not an hours-long session's, whose phase error the sum would grow
 * without bound: a HIL run is judged by the worst span in it (rt/METHODS.md "The global
 * estimate"). */
#define HS_ERR_HORIZON HS_R(100.0)
/* Spans the window is kept in: it covers between (NBK - 1) / NBK and all of HS_ERR_HORIZON. */
#define HS_ERR_NBK 8

typedef struct hs_stepper_stats {
    uint64_t steps;          /* committed steps */
    uint64_t faults;         /* refused steps (state untouched) */
    int last_fault;          /* hs_status of the last refused step, 0 if none */
    uint64_t force_evals;    /* model force() calls, including finite differences */
    uint64_t factorizations; /* LU factorizations */
    hs_real dvp_residual;    /* dvp: largest final Newton correction of the steps that passed the
                              * residual check, as a fraction of the position scale
                              * (dimensionless); 0 for the other methods */
    hs_real sd_newton;       /* sdirk: largest h^2 |dA|_1 / size of a stage's Newton correction
                              * (dimensionless; size as in hs_stepper.sd_scale); the step is
                              * refused (HS_E_RANGE) beyond HS_SD_RANGE */
    hs_real ct_residual;     /* contact: complementarity residual of the last step (m/s or rad/s,
                              * rt/hs_contact.h); 0 without unilateral rows */
    hs_real ct_residual_max; /* contact: largest ct_residual since init/set_state */
    hs_real ct_sunk;         /* contact: largest depth of a normal row at the step's end beyond
                              * the one its compliance and load allow (m; rt/hs_contact_int.h
                              * ct_sunk); 0 without unilateral rows */
    hs_real ct_sunk_max;     /* contact: largest ct_sunk since init/set_state (m) */
    hs_real err_step;        /* error estimate of the last step: its local position error,
                              * |.|_inf over q (units of q: m, rad; rt/METHODS.md "The error
                              * estimate"); 0 for a second-order family's first step after
                              * init/set_state (no u_{n-1} yet) */
    hs_real err_est;         /* largest err_step since init/set_state: the run's err_est= */
    hs_real err_sum;         /* sum of err_step since init/set_state (units of q): the global
                              * position error the local ones add up to when none decays */
    hs_real err_glob;        /* the largest over the run of err_win (units of q): err_sum with
                              * each err_step scaled by the growth of the largest |u|_inf since
                              * it, over the last HS_ERR_HORIZON s at most (the global position
                              * error of the time shifts the local ones are, as the motion
                              * speeds up, over one test's span; rt/METHODS.md) */
    hs_real err_win;         /* that scaled sum over the last HS_ERR_HORIZON s (between 7/8 of
                              * it and all of it; units of q); err_glob equals it while the run
                              * is shorter */
    hs_real range_hw;        /* sdirk: h |w| (rad per step) of the last step refused by the
                              * in-step rotation check (model spin()), 0 if none */
    int range_body;          /* the body (model's index) whose rate set range_hw, -1 if none */
    hs_real range_lim;       /* sdirk: the bound range_hw passed (rad per step) */
} hs_stepper_stats;

/* Named stages of one step, chosen once at init into the stepper's plan: one enumerator per
 * row of HS_STAGE_LIST (rt/hs_methods.h), which says what each does (see hs_stage_name). */
#define HS__ST_ENUM(id, name) id,
typedef enum hs_stage {
    HS_STAGE_LIST(HS__ST_ENUM)
    HS_STAGE_COUNT
} hs_stage;
#define HS_STEPPER_MAX_STAGES 16
/* Reals of workspace for sizes nq, nc, nz and nk unilateral rows (HS_STEPPER_REALS plus the
 * contact stage's arrays). */
#define HS_STEPPER_REALS_CT(nq, nc, nz, nk) \
    (HS_STEPPER_REALS((nq), (nc), (nz)) + 2u * (size_t)(nk) * (size_t)(nq) + 9u * (size_t)(nk) \
     + 2u * (size_t)(nq) + (size_t)(nc) + HS_CT_FB_REALS((nk), (nq)))
/* Reals of the free-body contact stage for nk rows and nq positions (an upper bound: a point's
 * geometry and its sweep record per row, a body's velocities and inertia per 7 positions,
 * and the ground's record). Its pair correction's workspace is not counted here: it is taken
 * only where it fits in the 2 nk nq that HS_STEPPER_REALS_CT counts for the rows over q, which
 * the free-body stage does not use (rt/hs_contact.h hs_contact_fb_pairs). */
#define HS_CT_FB_REALS(nk, nq) ((size_t)(HS_CT_PT + 56) * (size_t)(nk) + 6u * (size_t)(nq) + 36u)

/* The stepper: configuration, committed state and views into the caller's arenas. The arrays
 * (q, u, z, lambda, P, ... see HS_STEPPER_REAL_LIST) are fields named as in the list. */
typedef struct hs_stepper {
    hs_stepper_def def;
    const hs_model *model;
    int nq, nc, nz, nin, n; /* instance sizes (model->d); n = nq + nc */
    int ready;              /* 1 after a successful init */
    hs_real t;              /* time of the committed state (s) */
    hs_real t0;             /* time of the last init/set_state (s); t = t0 + k h avoids summing h */
    uint64_t k;             /* steps since the last init/set_state */
/* MISRA Ref 20.7.1 [X-macro parameter is an identifier] */
#define HS__WS_RFIELD(name, count, what) hs_real *name; /* what */
    HS_STEPPER_REAL_LIST(HS__WS_RFIELD, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
#undef HS__WS_RFIELD
/* MISRA Ref 20.7.1 [X-macro parameter is an identifier] */
#define HS__WS_IFIELD(name, count, what) int *name;
    HS_STEPPER_INT_LIST(HS__WS_IFIELD, 0, 0, 0, 0, 0, 0, 0, 0)
#undef HS__WS_IFIELD
    hs_blocks blocks;       /* the model's block pattern (dense one-block when it declares none) */
    hs_linsys lsK;          /* step system: [[A, -G^T], [Gr, 0]] (n), or [[M, -G^T], [G, 0]] */
    hs_linsys ls1;          /* second-stage system A (nq), index-1 with an implicit J */
    hs_linsys lsP;          /* projection system [[M, G^T], [G, 0]] (n) */
    hs_ls_fac fK, f1, fP, fPn; /* numeric factors bound to K, K1, P, Pn */
    unsigned char plan[HS_STEPPER_MAX_STAGES]; /* hs_stage of each stage, in order */
    int nplan;              /* stages in the plan */
    /* configuration flags derived once at init */
    int index2, ggl, velfirst, two_stage, keep_p, use_jac, analytic, spook;
    int consistent;         /* starts from the consistent acceleration (galpha, sdirk) */
    int comp;               /* 1 when some constraint row is compliant (cmp, cdt hold the rows) */
    unsigned mflags;        /* the method's property bits (its table row) */
    const void *fam;        /* the method's family functions (rt/hs_stage.h) */
    hs_real *cregP;         /* the projection matrix' regularization block (in creg), or NULL */
    hs_real cu, cq;         /* coefficients of h fu and h^2 fq in A */
    int curv, curv_fd;      /* K_g used; from differences of constraint() */
    int ctfb;               /* 1: the contact stage works in body velocities (rt/hs_contact_fb.c) */
    int ctcg;               /* 1: and corrects its normal impulses per contact pair (hs_contact_fb_pairs) */
    int ctpo;               /* 1: its sweeps run Gauss-Seidel in point order, as the generic stage's
                             * (test/mb's agreement of the two forms); 0 (init): pair by pair */
    int ctns;               /* the contact stage's sweeps per step: ct_sweeps, or its stage's default */
    int galpha;             /* the generalized-alpha plan */
    int sdirk;              /* method sdirk: its generic plan, or the free-body path (fb) */
    int fb;                 /* the free-body path (rt/hs_fb.c) runs this model's steps */
    hs_fb_info fbi;         /* fb: the model's bodies and gravity (hs_model_type.free_bodies) */
    hs_real ga_am, ga_af, ga_beta, ga_gamma; /* galpha alpha_m, alpha_f, beta, gamma */
    hs_real ga_bp, ga_gp;   /* beta' = (1 - am) / (beta h^2 (1 - af)), gamma' = gamma / (beta h) */
    hs_real sd_scale;       /* sdirk: h^2 / size, size = 1 + |q|_inf at init/set_state (1/(m/s^2) units of q) */
    hs_real sd_lim;         /* sdirk: HS_SD_RANGE / sd_scale, the largest |dA|_1 of a stage's Newton step */
    hs_real sd_na;          /* sdirk: largest |dA|_1 of the committed stages so far */
    hs_real sd_dq;          /* sdirk: h^2 |dA|_1 of the last stage Newton step (units of q): its effect on the positions */
    hs_real sd_first;       /* sdirk: the larger sd_dq of this step's two first Newton steps (units of q) */
    hs_real sd_prev;        /* sdirk: sd_first of the previous step, 0 after init/set_state */
    hs_real sd_dc;          /* sdirk: h^2 |G A + gamma|_1 at the start of the last stage Newton step: the constraint rows' share of its correction (units of q) */
    hs_real sd_floor;       /* sdirk: HS_EPS * size, the positions' rounding, the least reference of the refinement's jump test (units of q) */
    const int *sd_qoff;     /* sdirk: the model's quaternions' first coordinates (quats()), bound at init/set_state */
    int sd_nquat;           /* sdirk: their count (0: none, the stages skip the rotation-group update) */
    int sd_all[2];          /* sdirk: 1 where a stage's Newton step takes G, gamma from constraint_all: [0] alone, [1] with K_g and the factor */
    int sd_fused;           /* sdirk: 1 where it runs the range-space kernel (residual, solve, update in one) */
    int sd_dense;           /* sdirk: 1 where M and G are one block each (the residual in one pass over them) */
    hs_real err_umax;       /* largest |u_{n+1}|_inf since init/set_state (the global estimate's speed) */
    hs_real err_bk[HS_ERR_NBK]; /* the global estimate's window: its part from each of the last
                                 * HS_ERR_NBK spans of HS_ERR_HORIZON / HS_ERR_NBK (units of q) */
    int err_bi;             /* the span err_bk[err_bi] now adds to (0 .. HS_ERR_NBK - 1) */
    long err_bn;            /* steps added to it so far */
    long err_bsteps;        /* steps per span: HS_ERR_HORIZON / (HS_ERR_NBK h), at least 1 */
    hs_real err_proj;       /* the error metric of the last step's position projection (units of q): the step's drift off the joints */
    hs_real err_proj_q;     /* |dq|_inf of that correction (units of q): err_qmax's part */
    hs_real err_qmax;       /* largest step estimate in |.|_inf of q (units of q): sdirk's refinement
                             * trigger, which predates the metric (trajectories unchanged) */
    const hs_err_group *err_grp; /* the model's bodies of the error metric (err_groups()), NULL: none */
    int err_ngrp;           /* their count, 0: every coordinate on its own */
    hs_real pp_lim;         /* euler family: HS_PP_RANGE * size, the largest |dq|_1 of the position projection */
    hs_real alpha, beta;    /* Baumgarte parameters in use (def's, or 1/h, 1/h^2) */
    hs_real E0;             /* energy at init/set_state (watchdog), 0 without energy() */
    hs_stepper_stats stats;
} hs_stepper;

/* Short name of a stage ("eval_forces", "jacobians", ...); "?" for an unknown one. */
const char *hs_stage_name(hs_stage st);

/* The path the stepper's steps take: "free_body" (the default method on a model made of free
 * rigid bodies, rt/hs_fb.c) or "generic" (the method's plan); "?" before init. */
const char *hs_stepper_path(const hs_stepper *s);

/* The order p of the stepper's error estimate (rt/METHODS.md "The error estimate"): 1 or 2;
 * 0 before init. err_glob adds up to the global error for p = 2 only ("The global estimate"). */
int hs_stepper_err_order(const hs_stepper *s);

/* The error metric of positions a - b (nq each; b NULL: of a), at a's configuration, in units
 * of q: the norm of err_est, err_glob and hilstep-sim's err_rich and err_true (rt/METHODS.md
 * "At the points a description names"): the largest over the model's bodies (err_groups()) of
 * the displacement of the points the description names on them (m) and a planar angle's (rad);
 * without bodies |a - b|_inf. 0 before init. */
hs_real hs_stepper_err_dist(const hs_stepper *s, const hs_real *a, const hs_real *b);

/* Validates def and model, binds the arenas (reals and ints as hs_stepper_workspace_tmp says; the
 * HS_STEPPER_REALS/INTS bounds are always enough for dense models), analyzes the linear
 * systems, chooses the plan of stages and sets the state from the model's initial values at t0. */
hs_status hs_stepper_init(hs_stepper *s, const hs_stepper_def *def, const hs_model *m, hs_real t0,
                    hs_real *reals, size_t nreals, int *ints, size_t nints);

/* Replaces the state (t, q (nq), u (nq), z (nz), may be NULL when nz = 0) and refreshes the
 * cached projection factorization; on any fault the stepper is unchanged. */
hs_status hs_stepper_set_state(hs_stepper *s, hs_real t, const hs_real *q, const hs_real *u,
                         const hs_real *z);

/* Advances one step of size def.h with inputs in (nin; NULL allowed when nin = 0) held over
 * the step. HS_OK, or a fault code with the stepper unchanged except stats.faults/last_fault
 * (and range_hw/range_body for the rotation check's refusal). */
hs_status hs_stepper_step(hs_stepper *s, const hs_real *in);

/* Constraint residuals g(t,q) (nc) of the committed state. */
hs_status hs_stepper_residual(const hs_stepper *s, hs_real *g);

/* Model outputs (nout) of the committed state with inputs in (nin). */
hs_status hs_stepper_outputs(const hs_stepper *s, const hs_real *in, hs_real *y);

/* Folds the committed state's bits (q, u, z in that order) into the FNV-1a hash h; called
 * after every step it gives the pinned trajectory hash `trajectory-hash ...`. */
uint64_t hs_stepper_hash(const hs_stepper *s, uint64_t h);

/* One row of the method table (rt/hs_methods.c): the one list of methods that names, the
 * tools' --help and rt/METHODS.md's listing are generated from. */
typedef struct hs_method_info {
    hs_method id;
    const char *name;    /* CLI name ("sdirk") */
    const char *family;  /* the family, = its file rt/hs_<family>.c */
    const char *summary; /* one line: what it does (the tools' --help) */
    const char *hooks;   /* what it needs from a model beyond mass, force, initial (constraint
                          * and gamma when nc > 0), "" when nothing; init refuses a model
                          * without it, naming it */
    unsigned flags;      /* method property bits (rt/hs_stage.h HS_MF_*) */
    const void *fam;     /* the family's functions (rt/hs_stage.h hs_family) */
} hs_method_info;
/* (HS_METHOD_COUNT) the table, row i describing method i. */
extern const hs_method_info hs_method_table[HS_METHOD_COUNT];
/* The row of m, or NULL for a value that is not a method. */
const hs_method_info *hs_method_info_of(hs_method m);
/* 1 when method m stabilizes itself and runs with HS_STAB_NONE only (spook, dvp, em): a tool
 * whose user gave no stabilization uses none for it; 0 otherwise and for an unknown m. */
int hs_method_own_stab(hs_method m);
/* 1 when method m's row lets it run with stabilization st (a self-stabilizing method with
 * none only, galpha and sdirk without Baumgarte; hilstep-sim --list-methods prints them), 0
 * otherwise and for an unknown m or st. */
int hs_method_takes_stab(hs_method m, hs_stab st);
/* The method named name into *m: HS_OK, or HS_E_DEF_METHOD (m untouched) for an unknown name. */
hs_status hs_method_parse(const char *name, hs_method *m);
/* Short name used by the CLI ("sdirk"), from the table; "?" for a value that is not a method. */
const char *hs_method_name(hs_method m);
/* "index1", "index2", "ggl". */
const char *hs_form_name(hs_form f);
/* "none", "baumgarte", "projection". */
const char *hs_stab_name(hs_stab s);

#endif
