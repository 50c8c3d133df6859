/* hs_sdirk.c - method sdirk (the default): a two-stage, singly diagonally implicit
 * Runge-Kutta method applied linearly implicitly to the index-1 (acceleration-level) system,
 * one Newton step per stage with one factorization per step.
 *
 * Equations. Butcher table [[g, 0], [1 - 2g, g]], b = (1/2, 1/2), c = (g, 1 - g), g = sd_gamma,
 * on q' = u, u' = A(t, q, u) with M A = f + G^T Lambda, G A = -gamma. Stage values
 * U_i = u_n + h sum_j a_ij A_j, Q_i = q_n + h c_i u_n + h^2 sum_j (a^2)_ij A_j; each stage's
 * (A_i, Lambda_i) gets ONE Newton step with S = [[M - h g fu - h^2 g^2 (fq + K_g), -G^T], [G, 0]]
 * factored once at stage 1's predicted point; u_{n+1} = u_n + h (A_1 + A_2)/2,
 * q_{n+1} = q_n + h u_n + h^2 ((1 - g) A_1 + g A_2)/2; then the tail's projection.
 *
 * Fixed work per step: two M, f, g, G, gamma evaluations, one fq, fu, K_g evaluation, one
 * factorization, two solves, plus the projection's factorization; a stage whose Newton
 * correction jumps with its predictor off the constraint rows (HS_SD_REFINE, HS_SD_REFINE_ROWS
 * below) takes at most two more, each refactored: a bound known
 * before the step, not an iteration to convergence. A model with compliant rows
 * (fixed at init) takes a second Newton step per stage, refactored at the corrected point:
 * four evaluations, four factorizations and four solves per step (a dead centre's stiff
 * nonlinear remainder is not damped by the midpoint-like stages; rt/METHODS.md "Where a
 * method stops"). */
#include "hs_stage.h"
#include "hs_math.h"

/* Newton steps per stage (compile-time; the method as shipped takes 1, with stage 1's factor,
 * and 2, each refactored, on models with compliant rows).
 * With more, every step refactors at the stage's point, so each stage is solved to round-off:
 * `make sdirk-drift` builds that variant to tell the energy drift of the single Newton step
 * from the method's own (rt/METHODS.md "Long runs: why the default drifts"). */
#ifndef HS_SD_NEWTON
#define HS_SD_NEWTON 1
#endif

/* The largest rotation per step h |w| (rad) of a body in a committed result (the in-step range
 * check of st_sd_combine, on the rate the model's spin() reports): 0.5, 500 rad/s at h = 1 ms,
 * for the rotating coordinates the stages move on straight lines (a jointed rod's theta'; the
 * free-body path's HS_FB_MAX_HW is the same bound on its start). */
/* The bounded refinement of a stage (rt/METHODS.md "Through a dependent position"): at most
 * HS_SD_REFINE more Newton steps, each refactored at the corrected point, while the last one
 * moved the positions (h^2 |dA|_1) by more than HS_SD_REFINE_K times the run's largest error
 * estimate, the previous step's first corrections and the positions' rounding (sd_floor: a
 * car at rest has corrections of 1e-20 m, rounding whose ratios are noise): the predictor
 * suddenly off by far more than the method's error and than it was a step before. One Newton step leaves a remainder of the order of the square of its correction
 * times the curvature of the stage equations; where a step nears a configuration in which the
 * joints become dependent (the N-four-bar's flat position) that curvature is unbounded and the
 * predictor is off by far more than the method's error, and the remainder stays in the
 * velocities (IFToMM A02 at 1 ms: 8.4e-3 J of energy in five steps, the point 3.4e-2 m off
 * after 7 s). The worst case is a step with 2 HS_SD_REFINE more factorizations, known before
 * the step. */
#ifndef HS_SD_REFINE
#define HS_SD_REFINE 2
#endif
#ifndef HS_SD_REFINE_K
#define HS_SD_REFINE_K HS_R(10.0)
#endif

/* The refinement's second condition (sd_refine): the constraint rows' residual at the stage's
 * start, h^2 |G A + gamma|_1, above HS_SD_REFINE_ROWS times the jump test's reference: the
 * predictor's miss comes from the rows' curvature, as near a dependent position, not from the
 * applied forces (rt/METHODS.md "Through a dependent position": A02's refined steps 0.005
 * and more of it, 0.29 at 1 ms; car.hsm's brake jumps 2e-10 to 3e-5). */
#ifndef HS_SD_REFINE_ROWS
#define HS_SD_REFINE_ROWS HS_R(1e-3)
#endif

#ifndef HS_SD_MAX_HW
#define HS_SD_MAX_HW HS_R(0.5)
#endif
/* The same bound for a model whose rotating bodies are all unit quaternions moved on the
 * rotation group (quats(), "Quaternions" below): twice HS_SD_MAX_HW, 1 rad per step. The one
 * Newton step per stage stops contracting further out (measured, test/tire/spin_test.py: a
 * torque-driven wheel stays on omega = T t / J to 1e-9 up to h |w| = 1.6 at 1 ms; car.hsm's
 * launch with its wheel speeds declared to 1e9 keeps to the run at h/2 up to h |w| = 1.31 at
 * 1 ms, 1.44 on ice, 1.31 and 1.24 on ice at 0.5 and 0.25 ms, and diverges past). */
#ifndef HS_SD_MAX_HW_QUAT
#define HS_SD_MAX_HW_QUAT (HS_R(2.0) * HS_SD_MAX_HW)
#endif

/* (Baumgarte: refused by the row, HS_MF_NOBAUM: the stages are acceleration-level and the
 * drift is the projection's job) */
static int validate(const hs_stepper_def *def, const hs_model *m, unsigned fl)
{
    (void)m;
    (void)fl;
    if ((hs_isfinite(def->sd_gamma) == 0) || (def->sd_gamma < HS_R(0.25)) || (def->sd_gamma > HS_R(1.0))
        /* near 1/2 both stages sit at the midpoint and the predictors' lines degenerate */
        || (hs_abs(HS_R(2.0) * def->sd_gamma - HS_R(1.0)) < HS_R(0.1)) || (def->form == HS_FORM_GGL)) {
        return HS_E_DEF_RHO;
    }
    return HS_OK;
}

static void configure(const hs_stepper_def *def, const hs_model *m, hs_cfg *c)
{
    (void)def;
    c->sdirk = 1;
    /* S's position block M - h g fu - h^2 g^2 (fq + K_g) is symmetric when the model says its
     * Jacobians and curvature are (differences of them are not), and its constraint blocks
     * are G and -G^T of one G: the backend's L D L^T then gives L D U's values */
    c->symK = (m->type->symmetric_jac != 0) && (c->analytic != 0) && (c->curv_fd == 0) && (c->regK == 0);
    /* the dense backend factors the symmetric ones without pivoting too (positions first, as
     * the sparse backend does): a sixth of n^3 against the LU's third, no pivot search */
    c->ldltK = c->symK;
    c->ldltP = 1;
    /* the model's zero masks in the sparse patterns (another elimination order: the default
     * takes it; the other methods keep their trajectories bit for bit) */
    c->masks = 1;
    c->consistent = 1;
    c->nqa = 1;
    c->nca = 1;
    c->have_p = 1; /* [[M, G^T], [G, 0]] at init for the consistent acceleration */
    c->regK = c->comp; /* compliant rows: c/(h g (h g + tau)) in the multiplier block */
}

/* a compliant row in the stage map: Q = ... + (h g)^2 A, U = ... + h g A */
static hs_real reg_k(const hs_stepper *s, hs_real cc, hs_real tau)
{
    const hs_real hg = s->def.h * s->def.sd_gamma;
    return -(cc / (hg * (hg + tau)));
}

/* The stage Newton step's choices fixed for the run (read per call, they cost 50 instructions
 * a step: callgrind, car axle). */
static int setup(hs_stepper *s)
{
    const hs_model *m = s->model;
    /* G, gamma (and K_g with the factor) from constraint_all where the model offers it; a
     * compliant row needs g and g_t too, which it does not give; with the factor only where
     * K_g is not differenced from constraint() */
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    s->sd_all[0] = ((s->nc > 0) && (m->type->constraint_all != NULL) && (s->comp == 0)) ? 1 : 0;
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    s->sd_all[1] = ((s->sd_all[0] != 0) && (s->curv_fd == 0)) ? 1 : 0;
    /* the range-space path's residual, solve and update in one kernel (compliant rows carry a
     * C block: reg) */
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    s->sd_fused = ((s->lsK.schur != 0) && (s->lsK.reg == 0)) ? 1 : 0;
    /* one block each way: sd_residual's single pass over M and G */
    const hs_blocks *b = &s->blocks;
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    s->sd_dense = ((b->nqq == 1) && (b->nqb == 1) && ((s->nc == 0) || ((b->ncq == 1) && (b->ncb == 1)))) ? 1 : 0;
    return HS_OK;
}

/* A model of free rigid bodies under the default sd_gamma steps in body velocities (rt/hs_fb.c). */
static const hs_family *path(const hs_stepper_def *def, const hs_model *m)
{
    return (hs_fb_applies(def, m) != 0) ? &hs_family_fb : NULL;
}

static int plan(const hs_stepper *s, unsigned char *p)
{
    (void)s;
    p[0] = HS_STAGE_SD_STAGE1;
    p[1] = HS_STAGE_SD_STAGE2;
    p[2] = HS_STAGE_SD_COMBINE;
    return 3;
}

/* ---- sdirk: two-stage SDIRK, linearly implicit ----
 * Butcher table [[g, 0], [1 - 2g, g]], b = (1/2, 1/2), c = (g, 1 - g), g = def.sd_gamma:
 * order 2 for every g, A-stable for g >= 1/4. g = 1/4 is the implicit midpoint rule applied
 * twice with h/2 (symplectic, |R(i w h)| = 1: no numerical damping, relative period error
 * (h w)^2/48); g = (3 + sqrt 3)/6 is third order with |R(inf)| = 0.73. Applied to the
 * underlying ODE q' = u, u' = A(t, q, u), where M A = f + G^T Lambda and G A = -gamma (index 1),
 * the stage values are U_i = u_n + h sum_j a_ij A_j and Q_i = q_n + h c_i u_n + h^2 sum_j (a^2)_ij A_j.
 * Each stage's (A_i, Lambda_i) gets ONE Newton step from an extrapolated predictor with the
 * matrix S = [[M - h g fu - h^2 g^2 (fq + K_g), -G^T], [G, 0]] factored once at stage 1's
 * predicted point: S differs from the stage Jacobian by O(h) and the predictors err by O(h^2),
 * so the stage accelerations err by O(h^3) and the order is kept. Why two stages: every
 * A-stable linear multistep method (generalized-alpha is one) has error constant >= 1/12
 * (Dahlquist); on the car axle's road-excited spring that phase error is twice semi-implicit
 * Euler's. Two half steps quarter it at the price of one more force evaluation and
 * back-substitution, not another factorization. */

/* b = (f + G^T Lam - M A, -(G A + gamma)): the stage residual with the signs of the step
 * system. Dense models (one block each way) in one pass over M and G: these are the small
 * systems where the calls and index work of the block products would be most of the cost. */
static void sd_residual(hs_stepper *s, const hs_real *A, const hs_real *Lam)
{
    const int nq = s->nq, nc = s->nc;
    const hs_blocks *b = &s->blocks;
    if (s->sd_dense != 0) {
        for (int i = 0; i < nq; ++i) {
            hs_real r = s->f[i];
            const hs_real *Mi = s->M + i * nq;
            for (int j = 0; j < nq; ++j) {
                r -= Mi[j] * A[j];
            }
            s->b[i] = r;
        }
        /* one pass over G for both G A and G^T Lam */
        for (int k = 0; k < nc; ++k) {
            hs_real r = s->gam[k];
            const hs_real *Gk = s->G + k * nq, lk = Lam[k];
            for (int j = 0; j < nq; ++j) {
                r += Gk[j] * A[j];
                s->b[j] += Gk[j] * lk;
            }
            s->b[nq + k] = -r;
        }
        return;
    }
    if (s->lsK.schur != 0) {
        /* the range-space path's lists: the entries the masks keep, the same sums */
        hs_linsys_schur_residual(&s->lsK, s->M, s->G, s->f, s->gam, A, Lam, s->b);
        return;
    }
    hs_blk_qq_mv(b, s->M, A, s->v1);
    if (nc > 0) {
        hs_blk_cq_mv_mtv(b, s->G, A, Lam, s->c3, s->v2);
    }
    for (int i = 0; i < nq; ++i) {
        s->b[i] = s->f[i] - s->v1[i] + (nc > 0 ? s->v2[i] : HS_R(0.0));
    }
    for (int i = 0; i < nc; ++i) {
        s->b[nq + i] = -(s->c3[i] + s->gam[i]);
    }
}

/* A compliant row ([L1] eq. 3.6) holds c Lam + g(Q) + tau (G U + g_t) = 0 at the stage
 * instead of G A + gamma = 0; Q and U move by (h g)^2 dA and h g dA, so its Newton row divided
 * by k = h g (h g + tau) is G dA + (c/k) dLam = -residual/k: that right-hand side into b.
 * nq, nc are s's sizes, passed as sd_newton holds them (read again here, the step costs 9
 * instructions more: callgrind, car axle). */
static void sd_compliant_rows(hs_stepper *s, const hs_ctx *c, const hs_real *Lam, int nq, int nc)
{
    const hs_real hg = c->h * s->def.sd_gamma;
    hs_linsys_g_mv(&s->lsK, s->G, s->un, s->c3);
    for (int i = 0; i < nc; ++i) {
        const hs_real cc = s->cmp[i], tau = s->cdt[i];
        if (cc > HS_R(0.0)) {
            s->b[nq + i] = -(cc * Lam[i] + s->c1[i] + tau * (s->c3[i] + s->c2[i])) / (hg * (hg + tau));
        }
    }
}

/* M, f at (t, qn, un), and fq, fu with the factor: f with its Jacobians in one model call where
 * the model offers it (force_fj: one tire evaluation per wheel in the factoring stage instead of
 * a values-only one plus one with partials at the same point; the same bits). */
static int sd_forces(hs_stepper *s, const hs_ctx *c, hs_real t, int factor)
{
    const int fj = (int)((factor != 0) && (s->analytic == 2)); /* 2: force_fj (hs_stepper.c) */
    if (fj != 0) {
        return hs_mass_force_fj(s, c, t, s->qn, s->un);
    }
    int rc = hs_mass_force(s, c, t, s->qn, s->un);
    if ((rc == (int)HS_OK) && (factor != 0)) {
        rc = hs_force_jacobians(s, c, t, s->qn, s->un);
    }
    return rc;
}

/* Newton step on stage (A, Lam) at (t, Q, U) held in qn, un: residuals r = M A - f - G^T Lam,
 * c = G A + gamma; S x = (-r, -c) with the factor fK (factor 1: S formed and factored here
 * first; 0: stage 1's factor reused); A += dx, Lam += dLam. */
static int sd_newton(hs_stepper *s, hs_ctx *c, hs_real t, hs_real *A, hs_real *Lam, int factor)
{
    const hs_model *m = s->model;
    const int nq = s->nq, nc = s->nc;
    int rc = sd_forces(s, c, t, factor);
    if (rc != (int)HS_OK) {
        return rc;
    }
    /* G, gamma (and K_g with the factor) in one model call when the model offers it (setup) */
    const int all = s->sd_all[(factor != 0) ? 1 : 0];
    if ((factor != 0) && (nc > 0) && (all == 0)) {
        rc = hs_add_curvature(s, t, s->qn, Lam);
        if (rc != (int)HS_OK) {
            return rc;
        }
    }
    if (all != 0) {
        rc = hs_model_rc(m->type->constraint_all(m, t, s->qn, s->un, (factor != 0) ? Lam : NULL, s->G, s->gam,
                                                 (factor != 0) ? s->Kg : NULL));
        if (rc != (int)HS_OK) {
            return rc;
        }
        if (factor != 0) {
            if (s->lsK.schur != 0) {
                /* as hs_add_curvature folds it, on the entries the range-space factor reads
                 * (A's diagonal; the others are masked zeros it never reads) */
                const int *dg = s->lsK.sdiag;
                for (int k = 0; k < nq; ++k) {
                    s->fq[dg[k]] += s->Kg[dg[k]];
                }
            } else {
                /* as hs_add_curvature folds it */
                for (int k = 0; k < s->lsK.nA; ++k) {
                    s->fq[k] += s->Kg[k];
                }
            }
        }
    } else if (nc > 0) {
        rc = hs_model_rc(m->type->constraint(m, t, s->qn, (s->comp != 0) ? s->c1 : NULL, s->G,
                                             (s->comp != 0) ? s->c2 : NULL));
        if (rc != (int)HS_OK) {
            return rc;
        }
        rc = hs_model_rc(m->type->gamma(m, t, s->qn, s->un, s->gam));
        if (rc != (int)HS_OK) {
            return rc;
        }
    } else {
        /* no constraints: nothing to evaluate */
    }
    const int fused = s->sd_fused;
    if (fused == 0) {
        sd_residual(s, A, Lam);
    }
    if (s->comp != 0) {
        sd_compliant_rows(s, c, Lam, nq, nc);
    }
    if (factor != 0) {
        const hs_real hg = c->h * s->def.sd_gamma;
        s->stats.factorizations++;
        rc = hs_linsys_factor(&s->lsK, &s->fK, s->M, hg, s->fu, hg * hg, s->fq, s->G, s->G,
                              (s->lsK.reg != 0) ? s->creg : NULL);
        if (rc != (int)HS_OK) {
            return rc;
        }
    }
    /* A non-finite M, f, G or gamma reaches the residual (x * NaN is NaN, 0 * Inf is NaN) and
     * from there the Newton step: checked in the update loops (x - x is 0 exactly for finite
     * x), so a model's NaN is refused here as non-finite, before the next stage evaluates
     * the model at a NaN state. */
    hs_real na = HS_R(0.0), nf = HS_R(0.0), nr = HS_R(0.0);
    if (fused != 0) {
        /* the range-space path: residual, solve and update in one kernel, the same bits */
        hs_real nk = HS_R(0.0); /* (na's address not taken: the other path keeps it in a register) */
        hs_real rk = HS_R(0.0);
        if (hs_linsys_schur_newton(&s->lsK, &s->fK, s->M, s->G, s->f, s->gam, A, Lam, s->b, &nk, &rk) == 0) {
            nf = HS_R(1.0);
        }
        na = nk;
        nr = rk;
    } else {
        const hs_real *x = s->b;
        for (int i = 0; i < nc; ++i) { nr += hs_abs(s->b[nq + i]); }
        hs_linsys_solve(&s->lsK, &s->fK, s->b);
        for (int i = 0; i < nq; ++i) { A[i] += x[i]; na += hs_abs(x[i]); }
        for (int i = 0; i < nc; ++i) { Lam[i] += x[nq + i]; nf += x[nq + i] - x[nq + i]; }
    }
    if (!(nf == HS_R(0.0)) || !(na - na == HS_R(0.0))) {
        return HS_E_NONFINITE;
    }
    /* The method's range: h^2 |dA|_1 is the correction's effect on the positions. Past
     * HS_SD_RANGE model sizes it cannot come from a mode the stages resolve: the one Newton
     * step has diverged (a chain's whip at h omega ~ 0.5 with the Jacobian of the last
     * multipliers, a mechanism near a configuration where its constraints become
     * dependent), and the next steps would amplify it to Inf: refused, state kept. */
    if (!(na <= s->sd_lim)) {
        return HS_E_RANGE;
    }
    s->sd_dq = na * c->h * c->h;
    s->sd_dc = nr * c->h * c->h;
    if (na > s->sd_na) {
        s->sd_na = na;
        s->stats.sd_newton = na * s->sd_scale;
    }
    return HS_OK;
}

/* ---- Quaternions ----
 * A model's unit quaternions (quats(): 4 coordinates p whose velocities are p') are not moved
 * along the stages' straight lines in R^4: p turns at half its body rate w = 2 G(p) p', so a
 * line's chord of h |w| / 2 rad cuts inside the sphere by (h |w|)^2 / 8 and the stage sees
 * the centripetal part of p'' = 1/2 G(p)^T w' - |p'|^2 p through the one Newton step; a wheel
 * spun up by a constant torque gained 3.7 % at h |w| = 0.78 and overflowed past 1.25. Here,
 * with the same Butcher table, each stage's body rate and orientation are
 *     W_i = w_n + h sum_j a_ij w'_j,   P_i = p_n (x) exp(h sum_j a_ij W_j),   U_i = 1/2 G(P_i)^T W_i,
 *     w_{n+1} = w_n + h sum b_j w'_j,  p_{n+1} = p_n (x) exp(h sum b_j W_j),  u_{n+1} = 1/2 G^T w_{n+1}
 * (exp(phi) = (cos |phi|/2, sin(|phi|/2) phi/|phi|): Munthe-Kaas with dexp^-1 = 1, order 2,
 * exact for a spin about a fixed axis at any rate linear in t), the stage acceleration's body
 * form B = (P.A, G(P) A) = (-|U|^2, w'/2) (P^T and G(P) are the rows of an orthogonal matrix)
 * and A = B_0 P + G(P)^T B_v back. acc, accn, wd, wdn hold B on these coordinates: it does
 * not turn with p, so the predictors' lines through the last step's stages stay right at any
 * rate, where p'' turns by h |w| / 2 per step. The step matrix is unchanged: on the sphere's
 * tangent both maps move Q and U by (h g)^2 and h g times a change of A. */

/* y = G(p) x (3): the body-frame rows of p (w = 2 G(p) p'). */
static void qg(const hs_real *p, const hs_real *x, hs_real *y)
{
    y[0] = -p[1] * x[0] + p[0] * x[1] + p[3] * x[2] - p[2] * x[3];
    y[1] = -p[2] * x[0] - p[3] * x[1] + p[0] * x[2] + p[1] * x[3];
    y[2] = -p[3] * x[0] + p[2] * x[1] - p[1] * x[2] + p[0] * x[3];
}

/* y = r0 p + G(p)^T rv (4), i.e. the product p (x) (r0, rv). */
static void qgt(const hs_real *p, hs_real r0, const hs_real *v, hs_real *y)
{
    y[0] = r0 * p[0] - p[1] * v[0] - p[2] * v[1] - p[3] * v[2];
    y[1] = r0 * p[1] + p[0] * v[0] - p[3] * v[1] + p[2] * v[2];
    y[2] = r0 * p[2] + p[3] * v[0] + p[0] * v[1] - p[1] * v[2];
    y[3] = r0 * p[3] - p[2] * v[0] + p[1] * v[1] + p[0] * v[2];
}

/* The model's quaternion list into *off; their count, or a negative status (an entry outside
 * q is the model's fault). */
static int sd_quats(const hs_stepper *s, const int **off)
{
    const hs_model *m = s->model;
    if (m->type->quats == NULL) {
        return 0;
    }
    const int n = m->type->quats(m, off);
    for (int k = 0; k < n; ++k) {
        if (((*off)[k] < 0) || ((*off)[k] > s->nq - 4)) {
            return HS_E_MODEL;
        }
    }
    return n;
}

/* One quaternion's stage or result: P = p (x) exp(phi), U = 1/2 G(P)^T W, and with A != NULL
 * its body form B (4) into A's p-form at P: A = -|U|^2 P + G(P)^T B_v. */
static void sd_quat_place(const hs_real *p, const hs_real *phi, const hs_real *W, hs_real *P, hs_real *U, hs_real *A)
{
    const hs_real t2 = phi[0] * phi[0] + phi[1] * phi[1] + phi[2] * phi[2];
    const hs_real t = hs_sqrt(t2);
    hs_real sn, cs;
    hs_sincos(HS_R(0.5) * t, &sn, &cs);
    /* sin(t/2)/t, its series below 1e-4 rad (error t^4/7680 there: below the rounding) */
    const hs_real k = (t < HS_R(1e-4)) ? (HS_R(0.5) - t2 / HS_R(48.0)) : (sn / t);
    const hs_real v[3] = {k * phi[0], k * phi[1], k * phi[2]};
    qgt(p, cs, v, P);
    const hs_real hw[3] = {HS_R(0.5) * W[0], HS_R(0.5) * W[1], HS_R(0.5) * W[2]};
    qgt(P, HS_R(0.0), hw, U);
    if (A != NULL) {
        const hs_real b[3] = {A[1], A[2], A[3]};
        const hs_real u2 = U[0] * U[0] + U[1] * U[1] + U[2] * U[2] + U[3] * U[3];
        qgt(P, -u2, b, A);
    }
}

/* A (p-form at P) into its body form B = (P.A, G(P) A), in place. */
static void sd_quat_body(const hs_real *P, hs_real *A)
{
    hs_real y[3];
    qg(P, A, y);
    A[0] = P[0] * A[0] + P[1] * A[1] + P[2] * A[2] + P[3] * A[3];
    A[1] = y[0];
    A[2] = y[1];
    A[3] = y[2];
}

/* The quaternions' stage values (stage 1: st = 1, 2: st = 2) or result (st = 3) in qn, un from
 * q, u and the body forms in accn (stage 1) and wdn (stage 2); a stage's A into its p-form.
 * The list is the one init checked and bound (sd_qoff, sd_nquat); the stages call this only
 * on a model that has one. */
static void sd_quat_stage(hs_stepper *s, hs_real h, int st)
{
    const int *off = s->sd_qoff;
    const int n = s->sd_nquat;
    const hs_real g = s->def.sd_gamma, a21 = HS_R(1.0) - HS_R(2.0) * g;
    for (int k = 0; k < n; ++k) {
        const int o = off[k];
        hs_real w[3], W1[3], W2[3], phi[3];
        qg(&s->q[o], &s->u[o], w);
        const hs_real *b1 = &s->accn[o + 1], *b2 = &s->wdn[o + 1];
        for (int i = 0; i < 3; ++i) {
            w[i] *= HS_R(2.0);
            /* w' = 2 B_v */
            W1[i] = w[i] + HS_R(2.0) * h * g * b1[i];
            W2[i] = w[i] + HS_R(2.0) * h * (a21 * b1[i] + g * b2[i]);
        }
        if (st == 1) {
            for (int i = 0; i < 3; ++i) { phi[i] = h * g * W1[i]; }
            sd_quat_place(&s->q[o], phi, W1, &s->qn[o], &s->un[o], &s->accn[o]);
        } else if (st == 2) {
            for (int i = 0; i < 3; ++i) { phi[i] = h * (a21 * W1[i] + g * W2[i]); }
            sd_quat_place(&s->q[o], phi, W2, &s->qn[o], &s->un[o], &s->wdn[o]);
        } else {
            hs_real wn[3];
            for (int i = 0; i < 3; ++i) {
                phi[i] = HS_R(0.5) * h * (W1[i] + W2[i]);
                wn[i] = w[i] + h * (b1[i] + b2[i]);
            }
            sd_quat_place(&s->q[o], phi, wn, &s->qn[o], &s->un[o], NULL);
        }
    }
}

/* A stage's solved A (p-form at qn) back into body form on the quaternions (as sd_quat_stage). */
static void sd_quat_solved(hs_stepper *s, hs_real *A)
{
    const int *off = s->sd_qoff;
    for (int k = 0; k < s->sd_nquat; ++k) {
        sd_quat_body(&s->qn[off[k]], &A[off[k]]);
    }
}

/* The model's list checked and bound for the run (a fixed count: the stages skip the
 * rotation-group update on a model without quaternions, 5 calls a step), and the consistent
 * acceleration into body form on it. */
int hs_sd_quat_init(hs_stepper *s)
{
    const int *off = NULL;
    const int n = sd_quats(s, &off);
    s->sd_qoff = (n > 0) ? off : NULL;
    s->sd_nquat = (n > 0) ? n : 0;
    for (int k = 0; k < n; ++k) {
        sd_quat_body(&s->q[off[k]], &s->acc[off[k]]);
        sd_quat_body(&s->q[off[k]], &s->wd[off[k]]);
    }
    return (n < 0) ? n : (int)HS_OK;
}
/* 1 when a stage takes Newton step it + 2 (it = 0, 1, ...): the first extra one always on a
 * model with compliant rows; the refinement's while the last correction exceeds
 * HS_SD_REFINE_K times the run's largest estimate, the previous step's first corrections and
 * the positions' rounding sd_floor (a jump, not a level: none in the first two steps after
 * init/set_state) */
static inline int sd_refine(const hs_stepper *s, int it)
{
#if HS_SD_NEWTON > 1
    /* a build solving each stage to round-off: HS_SD_NEWTON - 1 more steps, always */
    (void)s;
    return (it < (HS_SD_NEWTON - 1)) ? 1 : 0;
#else
    const hs_real r0 = (s->sd_prev > s->err_qmax) ? s->sd_prev : s->err_qmax;
    /* (at least the positions' rounding: below it the corrections and estimates are the
     * rounding of the forces, and their ratio is noise; car.hsm at rest fired on 325 of 1000
     * steps: rt/METHODS.md "Through a dependent position") */
    const hs_real ref = (r0 > s->sd_floor) ? r0 : s->sd_floor;
    /* (joints only: a model without constraint rows has no configuration to become dependent in;
     * its jumps are the inputs', which the stages' one step follows: the quarter car's road) */
    /* (and the predictor off its constraint rows by a fair part of that reference: a jump of
     * the applied forces, car.hsm's brakes going from sliding to holding, leaves the rows'
     * residual at 2e-10 to 3e-5 of it and one Newton step follows it; A02's flat position: 0.005
     * and more) */
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    const int big = ((s->nc > 0) && (s->sd_prev > HS_R(0.0)) && (s->err_qmax > HS_R(0.0))
                     && (s->sd_dq > HS_SD_REFINE_K * ref) && (s->sd_dc > HS_SD_REFINE_ROWS * ref)) ? 1 : 0;
    return (((it == 0) && (s->comp != 0)) || ((it < HS_SD_REFINE) && (big != 0))) ? 1 : 0;
#endif
}


/* Stage 1 at t_n + g h. Predictor: the line through the last step's stage accelerations
 * (at t_n + (g - 1) h and t_n - g h) extrapolated to g; multipliers lambda_n. */
static HS_STAGE_FN int st_sd_stage1(hs_stepper *s, hs_ctx *c)
{
    const int nq = s->nq, nc = s->nc;
    const hs_real g = s->def.sd_gamma, h = c->h, x = HS_R(1.0) / (HS_R(2.0) * g - HS_R(1.0));
    const hs_real hg = h * g;
    for (int i = 0; i < nq; ++i) {
        const hs_real a1 = s->acc[i] + x * (s->acc[i] - s->wd[i]);
        s->accn[i] = a1;
        s->un[i] = s->u[i] + hg * a1;
        s->qn[i] = s->q[i] + hg * s->u[i] + hg * hg * a1;
    }
    for (int i = 0; i < nc; ++i) {
        s->sl1[i] = s->lambda[i];
    }
    /* (the quaternions' predictor is their body form: placed on the group, A into p-form) */
    if (s->sd_nquat > 0) {
        sd_quat_stage(s, h, 1);
    }
    int rc = sd_newton(s, c, c->t + g * h, s->accn, s->sl1, 1);
    if ((rc == (int)HS_OK) && (s->sd_nquat > 0)) {
        sd_quat_solved(s, s->accn);
    }
    s->sd_prev = s->sd_first;
    s->sd_first = s->sd_dq;
    /* Compliant rows: a second Newton step, refactored at the corrected point (why: the
     * header; rt/METHODS.md "Where a method stops"), fixed per model, known at init; the
     * bounded refinement (HS_SD_REFINE) near dependent joints */
    for (int it = 0; (rc == (int)HS_OK) && (sd_refine(s, it) != 0); ++it) {
        for (int i = 0; i < nq; ++i) {
            s->un[i] = s->u[i] + hg * s->accn[i];
            s->qn[i] = s->q[i] + hg * s->u[i] + hg * hg * s->accn[i];
        }
        if (s->sd_nquat > 0) {
            sd_quat_stage(s, h, 1);
        }
        rc = sd_newton(s, c, c->t + g * h, s->accn, s->sl1, 1);
        if ((rc == (int)HS_OK) && (s->sd_nquat > 0)) {
            sd_quat_solved(s, s->accn);
        }
    }
    return rc;
}

/* Stage 2 at t_n + (1 - g) h. Predictor: the line through the last step's stage-1 acceleration
 * and this one's, at 1 - g; multipliers on the line through lambda_n and Lambda_1. */
static HS_STAGE_FN int st_sd_stage2(hs_stepper *s, hs_ctx *c)
{
    const int nq = s->nq, nc = s->nc;
    const hs_real g = s->def.sd_gamma, h = c->h, a21 = HS_R(1.0) - HS_R(2.0) * g;
    const hs_real xa = HS_R(2.0) - HS_R(2.0) * g, xl = (HS_R(1.0) - g) / g;
    for (int i = 0; i < nc; ++i) {
        s->sl2[i] = s->lambda[i] + xl * (s->sl1[i] - s->lambda[i]);
    }
    /* U_2 = u_n + h (a21 A_1 + g A_2); Q_2 = q_n + (1 - g) h u_n + h^2 (2 g a21 A_1 + g^2 A_2) */
    const hs_real c2h = (HS_R(1.0) - g) * h, q1 = h * h * HS_R(2.0) * g * a21, q2 = h * h * g * g;
    for (int i = 0; i < nq; ++i) {
        const hs_real a1 = s->accn[i], a2 = s->acc[i] + xa * (a1 - s->acc[i]);
        s->wdn[i] = a2;
        s->un[i] = s->u[i] + h * (a21 * a1 + g * a2);
        s->qn[i] = s->q[i] + c2h * s->u[i] + (q1 * a1 + q2 * a2);
    }
    if (s->sd_nquat > 0) {
        sd_quat_stage(s, h, 2);
    }
    int rc = sd_newton(s, c, c->t + (HS_R(1.0) - g) * h, s->wdn, s->sl2, (HS_SD_NEWTON > 1) ? 1 : 0);
    if ((rc == (int)HS_OK) && (s->sd_nquat > 0)) {
        sd_quat_solved(s, s->wdn);
    }
    s->sd_first = (s->sd_dq > s->sd_first) ? s->sd_dq : s->sd_first;
    /* compliant rows: as stage 1, one more Newton step refactored at the corrected point;
     * the bounded refinement as stage 1's */
    for (int it = 0; (rc == (int)HS_OK) && (sd_refine(s, it) != 0); ++it) {
        for (int i = 0; i < nq; ++i) {
            s->un[i] = s->u[i] + h * (a21 * s->accn[i] + g * s->wdn[i]);
            s->qn[i] = s->q[i] + c2h * s->u[i] + (q1 * s->accn[i] + q2 * s->wdn[i]);
        }
        if (s->sd_nquat > 0) {
            sd_quat_stage(s, h, 2);
        }
        rc = sd_newton(s, c, c->t + (HS_R(1.0) - g) * h, s->wdn, s->sl2, 1);
        if ((rc == (int)HS_OK) && (s->sd_nquat > 0)) {
            sd_quat_solved(s, s->wdn);
        }
    }
    return rc;
}

/* u_{n+1} = u_n + h (A_1 + A_2)/2, q_{n+1} = q_n + h (U_1 + U_2)/2 = q_n + h u_n
 * + h^2 ((1 - g) A_1 + g A_2)/2; lambda_{n+1} on the line through the stage multipliers. */
static HS_STAGE_FN int st_sd_combine(hs_stepper *s, hs_ctx *c)
{
    const int nq = s->nq, nc = s->nc;
    const hs_real g = s->def.sd_gamma, h = c->h, xl = (HS_R(1.0) - g) / (HS_R(2.0) * g - HS_R(1.0));
    const hs_real hh = HS_R(0.5) * h, c1 = hh * h * (HS_R(1.0) - g), c2 = hh * h * g;
    for (int i = 0; i < nq; ++i) {
        const hs_real a1 = s->accn[i], a2 = s->wdn[i];
        s->un[i] = s->u[i] + hh * (a1 + a2);
        s->qn[i] = s->q[i] + h * s->u[i] + (c1 * a1 + c2 * a2);
    }
    for (int i = 0; i < nc; ++i) {
        s->lamn[i] = s->sl1[i] + xl * (s->sl1[i] - s->sl2[i]);
    }
    if (s->sd_nquat > 0) {
        sd_quat_stage(s, h, 3);
    }
    /* The rotation range: past it the stages' one Newton step no longer contracts (a rod's
     * whip; a quaternion body past HS_SD_MAX_HW_QUAT: rt/METHODS.md "Where a method stops").
     * A result past it is refused before commit (state kept), as the free-body path refuses
     * its start. */
    if (s->model->type->spin != NULL) {
        const hs_real lim = (s->model->type->quats != NULL) ? HS_SD_MAX_HW_QUAT : HS_SD_MAX_HW;
        hs_real w = HS_R(0.0);
        int body = -1;
        const hs_status rc = hs_model_rc(s->model->type->spin(s->model, s->qn, s->un, &w, &body));
        if (rc != HS_OK) {
            return rc;
        }
        if (!(h * w <= lim)) {
            /* the refusal names its body (a tool prints it); only the stats change */
            s->stats.range_hw = h * w;
            s->stats.range_body = body;
            s->stats.range_lim = lim;
            return HS_E_RANGE;
        }
    }
    return HS_OK;
}

static int run_stage(hs_stepper *s, hs_ctx *c, int st)
{
    switch (st) {
    case HS_STAGE_SD_STAGE1: return st_sd_stage1(s, c);
    case HS_STAGE_SD_STAGE2: return st_sd_stage2(s, c);
    case HS_STAGE_SD_COMBINE: return st_sd_combine(s, c);
    HS_TAIL_STAGE_CASES(s, c, 0, 0, HS_NO_CASE);
    default: return HS_E_NOT_INIT;
    }
}

static int step(hs_stepper *s, hs_ctx *c)
{
    return hs_run_plan(s, c, run_stage);
}

const hs_family hs_family_sdirk = {validate, configure, plan, setup, step, reg_k, path, 2, HS_R(0.020833333333333333)};
