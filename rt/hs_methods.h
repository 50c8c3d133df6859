/* hs_methods.h - the method table's rows: the one place a method, a method family or a stage
 * is written down (rt/METHODS.md "Adding a method"). Only lists, no declarations: each list
 * is expanded where its entity is declared or defined, so every declaration stays visible
 * once (MISRA 8.4, 8.5) and no name is repeated by hand:
 *   HS_METHOD_LIST  the hs_method enum (rt/hs_stepper.h) and hs_method_table (rt/hs_methods.c);
 *   HS_FAMILY_LIST  the externs of the family rows (rt/hs_stage.h);
 *   HS_STAGE_LIST   the hs_stage enum (rt/hs_stepper.h) and hs_stage_name (rt/hs_stepper.c).
 * test/unit/test_dvp.c (method_list) walks the expansions against each other. */
#ifndef HS_METHODS_H
#define HS_METHODS_H

/* The methods: M(id, value, name, family, family_row, summary, hooks, flags) per method.
 *   id, value   the hs_method enumerator and its number: a row's place in the list is its
 *               number (the table is indexed by it); numbers are stable, a new method is
 *               appended with the next one
 *   name        its CLI name (--method, the tools' --help, the scripts' method lists)
 *   family      the family's name, = its file rt/hs_<family>.c (the --methods table)
 *   family_row  the family's functions (hs_family, rt/hs_stage.h; a row of HS_FAMILY_LIST)
 *   summary     one line: what it does (the tools' --help)
 *   hooks       what it needs from a model beyond mass, force, initial (constraint and gamma
 *               when nc > 0), "" when nothing; init refuses a model without it, naming it
 *   flags       its property bits (HS_MF_*, rt/hs_stage.h): what the stepper asks of it
 * Positions-first methods set q_{n+1} = q_n + h u_n (eq. 3/6a); velocities-first ones set
 * q_{n+1} = q_n + h u_{n+1}. */
/* MISRA Ref 20.7.1 [X-macro parameter is an identifier] */
#define HS_METHOD_LIST(M) \
    /* explicit Euler: A = M, positions first */ \
    M(HS_METHOD_EXPLICIT, 0, "explicit", "euler", hs_family_euler, \
      "explicit Euler, positions first (baseline)", "", 0u) \
    /* semi-implicit Euler ([W], veDYNA order): A = M, velocities first */ \
    M(HS_METHOD_SYMPLECTIC, 1, "symplectic", "euler", hs_family_euler, \
      "semi-implicit (symplectic) Euler, velocities first", "", HS_MF_VELFIRST) \
    /* J1: A = M - h fu, rhs f + h fq u_n, positions first */ \
    M(HS_METHOD_J1, 2, "j1", "euler", hs_family_euler, \
      "linear-implicit Euler, J1 = [0 0; fq fu]", "", HS_MF_LINIMPL | HS_MF_FULLJAC | HS_MF_CU) \
    /* J2: A = M - h fu - h^2 fq, rhs f + h fq u_n, positions first */ \
    M(HS_METHOD_J2, 3, "j2", "euler", hs_family_euler, \
      "linear-implicit Euler, J2 = [0 0; fq fu + h fq]", "", \
      HS_MF_LINIMPL | HS_MF_FULLJAC | HS_MF_CU | HS_MF_CQ) \
    /* J3: A = M, rhs f + h (fq u_n) (one directional derivative) */ \
    M(HS_METHOD_J3, 4, "j3", "euler", hs_family_euler, \
      "linear-implicit Euler, J3 = [0 0; fq 0] (one directional derivative)", "", HS_MF_LINIMPL) \
    /* exact J: J2's matrix, velocities first (equivalent to eq. 3) */ \
    M(HS_METHOD_JEXACT, 5, "jexact", "euler", hs_family_euler, \
      "linear-implicit Euler, exact J = [0 I; fq fu], velocities first", "", \
      HS_MF_VELFIRST | HS_MF_LINIMPL | HS_MF_FULLJAC | HS_MF_CU | HS_MF_CQ) \
    /* SPOOK ([L2] eq. 26-29): regularized, stabilized constraints, velocities first, one \
     * symmetric quasi-definite solve; form index-2 and stab none only (its stabilization is \
     * built in) */ \
    M(HS_METHOD_SPOOK, 6, "spook", "spook", hs_family_spook, \
      "SPOOK: regularized, stabilized constraints, one symmetric solve; --form index2 --stab none", "", \
      HS_MF_VELFIRST | HS_MF_OWNSTAB | HS_MF_COMPLIANT) \
    /* Linearizing the whole constrained system: the force Jacobian plus the constraint \
     * curvature K_g = d(G^T lambda)/dq at the last multipliers (the model's curvature(), or \
     * nq differences of constraint()). Where the stiffness is geometric (a chain under \
     * gravity, fq = 0) J2 sees none of it and is explicit Euler; these see it. \
     * jk: J2 with fq + K_g: A = M - h fu - h^2 (fq + K_g), positions first */ \
    M(HS_METHOD_JK, 7, "jk", "euler", hs_family_euler, \
      "j2 plus the constraint curvature K_g = d(G^T lambda)/dq; index2 or ggl", "", \
      HS_MF_LINIMPL | HS_MF_FULLJAC | HS_MF_CURV | HS_MF_CU | HS_MF_CQ) \
    /* jkexact: jk's matrix, velocities first (exact J of the whole system) */ \
    M(HS_METHOD_JKEXACT, 8, "jkexact", "euler", hs_family_euler, \
      "jk's matrix, velocities first; index2", "", \
      HS_MF_VELFIRST | HS_MF_LINIMPL | HS_MF_FULLJAC | HS_MF_CURV | HS_MF_CU | HS_MF_CQ) \
    /* galpha: generalized-alpha (Arnold & Bruls 2007, index 3), one Newton iteration with \
     * M b' + C g' + K (incl. K_g), then the projection; second order; rho_inf sets the damping */ \
    M(HS_METHOD_GALPHA, 9, "galpha", "galpha", hs_family_galpha, \
      "generalized-alpha, one Newton step, second order; --rho-inf R in [0, 1] sets its damping", "", \
      HS_MF_FULLJAC | HS_MF_CURV | HS_MF_NOBAUM | HS_MF_MIDVEL) \
    /* sdirk: linearly implicit 2-stage SDIRK (diagonal sd_gamma) on the index-1 \
     * (acceleration-level) system, one Newton step per stage with ONE factorization of \
     * [[M - h g fu - h^2 g^2 (fq + K_g), -G^T], [G, 0]], then the projection. sd_gamma = 1/4 \
     * (default): two implicit-midpoint half steps, symplectic, order 2, no damping; \
     * (3 + sqrt 3)/6: order 3, A-stable, damps */ \
    M(HS_METHOD_SDIRK, 10, "sdirk", "sdirk", hs_family_sdirk, \
      "two-stage SDIRK, one factorization, one Newton step per stage; --sd-gamma 0.25: implicit " \
      "midpoint twice, no damping; 0.7887: third order, damps; on a model of free rigid bodies: " \
      "the free-body path (rt/hs_fb.c)", "", \
      HS_MF_FULLJAC | HS_MF_CURV | HS_MF_NOBAUM | HS_MF_RANGE | HS_MF_MIDVEL) \
    /* dvp: discrete variational ([WM] sec. 4, SHAKE/RATTLE for constant M) in \
     * position-momentum form, HS_DVP_NEWTON Newton iterations on the discrete Euler-Lagrange \
     * equations and g(q_{n+1}) = 0 (rt/hs_dvp.c); symplectic, momentum-conserving, second \
     * order; form index2, stab none */ \
    M(HS_METHOD_DVP, 11, "dvp", "dvp", hs_family_dvp, \
      "discrete variational (RATTLE for constant M), 4 Newton steps, conserves momenta; --form " \
      "index2 --stab none", "the lagrange() hook when M depends on q", HS_MF_OWNSTAB | HS_MF_MIDVEL) \
    /* em: energy-momentum midpoint for constant M (rt/hs_em.c) */ \
    M(HS_METHOD_EM, 12, "em", "em", hs_family_em, \
      "energy-momentum midpoint (discrete gradient) for constant M, 4 Newton steps; energy and " \
      "momenta exact for distance constraints and quadratic potentials; --form index2 --stab none", \
      "a mass matrix that does not depend on q", HS_MF_OWNSTAB | HS_MF_MIDVEL)

/* The method families: F(family_row) per file rt/hs_<family>.c (its hs_family row, which a
 * method row or another family's path names); sdirk's free-body path rt/hs_fb.c is one too. */
/* MISRA Ref 20.7.1 [X-macro parameter is an identifier] */
#define HS_FAMILY_LIST(F) \
    F(hs_family_euler) \
    F(hs_family_spook) \
    F(hs_family_galpha) \
    F(hs_family_sdirk) \
    F(hs_family_dvp) \
    F(hs_family_em) \
    F(hs_family_fb)

/* The named stages of one step: S(id, name) per stage, numbered in list order from 0
 * (hs_stage_name gives name; test/bench/stages.sh prints the instructions of each). The
 * common ones first; a family's own stages (ga_*, sd_*, dvp, em, free_body) are appended. */
/* MISRA Ref 20.7.1 [X-macro parameter is an identifier] */
#define HS_STAGE_LIST(S) \
    S(HS_STAGE_EVAL_FORCES, "eval_forces")     /* M, f at (t_n, q_n, u_n) */ \
    S(HS_STAGE_JACOBIANS, "jacobians")         /* fq, fu: analytic or finite differences */ \
    S(HS_STAGE_RHS, "rhs")                     /* r = f (+ h fq u_n for the linear-implicit J) */ \
    S(HS_STAGE_PREDICT, "predict")             /* q* = q_n + h u_n (GGL: one Newton step of eq. 11) */ \
    S(HS_STAGE_CONSTRAINTS, "constraints")     /* g, G, g_t at q_n; at q* (index-2) or gamma (index-1) */ \
    S(HS_STAGE_ASSEMBLE, "assemble")           /* A and the right-hand side of the step system */ \
    S(HS_STAGE_SOLVE, "solve")                 /* factor + solve: new velocities and multipliers */ \
    S(HS_STAGE_POSITIONS, "positions")         /* q_{n+1} from u_n (positions first) or u_{n+1} */ \
    S(HS_STAGE_AUX_STATES, "aux_states")       /* z_{n+1}, explicit Euler */ \
    S(HS_STAGE_PROJECT_POSITIONS, "project_positions")   /* one Newton step of eq. 11 with the factor at q_n */ \
    S(HS_STAGE_PROJECT_VELOCITIES, "project_velocities") /* factor at q_{n+1}, velocity projection */ \
    S(HS_STAGE_GGL_FACTOR, "ggl_factor")       /* GGL: factor at q_{n+1} for the next step */ \
    S(HS_STAGE_CURVATURE, "curvature")         /* K_g at (t_n, q_n, lambda_n), folded into fq */ \
    S(HS_STAGE_GA_PREDICT, "ga_predict")       /* galpha predictor: a, u, q, udot at t_{n+1} */ \
    S(HS_STAGE_GA_EVAL, "ga_eval")             /* galpha: M, f, fq, fu, K_g, g, G at the predictor */ \
    S(HS_STAGE_GA_SOLVE, "ga_solve")           /* galpha: one Newton iteration with the full Jacobian */ \
    S(HS_STAGE_CHECK, "check")                 /* every new value finite */ \
    S(HS_STAGE_SPOOK_RHS, "spook_rhs")         /* SPOOK: the constraint rows of eq. 29 (t = -4/h Ups g + Ups G v) */ \
    S(HS_STAGE_WATCHDOG, "watchdog")           /* |u| and energy growth within the def's bounds */ \
    S(HS_STAGE_SD_STAGE1, "sd_stage1")         /* sdirk stage 1: predictor, M f fq fu K_g G gamma there, factor, Newton step */ \
    S(HS_STAGE_SD_STAGE2, "sd_stage2")         /* sdirk stage 2: predictor, M f G gamma there, Newton step (same factor) */ \
    S(HS_STAGE_SD_COMBINE, "sd_combine")       /* sdirk: q, u, lambda at t_{n+1} from the stages */ \
    S(HS_STAGE_DVP, "dvp")                     /* dvp: Newton on the discrete Euler-Lagrange equations, then momentum -> u */ \
    S(HS_STAGE_EM, "em")                       /* em: Newton on the energy-momentum midpoint equations */ \
    S(HS_STAGE_CONTACT, "contact")             /* unilateral rows: fixed projected Gauss-Seidel sweeps (rt/hs_contact.h) */ \
    S(HS_STAGE_FREE_BODY, "free_body")         /* sdirk on a free-body model: every body in body velocities (rt/hs_fb.c) */

#endif
