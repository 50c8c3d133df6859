/* hs_contact.h - the contact stage: unilateral rows (contacts, end stops, dry friction) solved
 * at a fixed cost after any method's step (model/CONTACT.md has the equations and figures).
 *
 * A model with nk > 0 unilateral slots (hs_model_type.nk, .ct_rows, .unilateral) gets the
 * stage HS_STAGE_CONTACT at the end of its plan, after the method and its projection. With
 * (q~, u~) the method's result, J and phi the rows and gaps at q~, and B = M_c^-1 J^T the
 * response of the velocities to a unit impulse under the joints (columns of the projection
 * matrix [[M, G^T], [G, 0]] solved at q~, so a contact impulse never pulls a joint apart):
 *     u_{n+1} = u~ + B lambda,   q_{n+1} = q~ + h B lambda,
 * normal rows  0 <= lambda_i  perp  J_i u_{n+1} - r_i >= 0,
 *              r_i = -d/h (d >= 0, speculative: the gap closes within the step, no sooner)
 *                    -HS_CT_ERP d/h (d < 0, a fraction of a penetration is removed per step)
 *                    raised to -e J_i u~ when the row hits within the step faster than HS_CT_VREST,
 *                    and, touching at a step above HS_CT_HREF, by hold eps_i a_i (a_i its pair's
 *                    slowly followed load: the rest depth of the 1 ms step, hs_contact_hold),
 *              d = phi_i - h J_i u~ the gap at the start of the step;
 * friction rows  J_i u_{n+1} = 0 while |lambda_i| < mu nbar, else |lambda_i| = mu nbar opposing
 *              the slip: nbar = the normal's impulse in this sweep (pyramid) or of the previous
 *              step (box, [L1] sec. 2.8; a contact new in this step uses the current one).
 * The work is fixed at init: solves with the factor (one per coordinate of a body when the
 * bodies are not joined to each other, else one per group of rows with disjoint ranges), then
 * hs_model_type.ct_sweeps (0: HS_CT_SWEEPS_GEN, HS_CT_SWEEPS_FB in body velocities) projected
 * Gauss-Seidel sweeps over all nk slots warm-started from
 * the previous step's impulses, then one residual pass. Empty slots (J_i = 0) cost the same. A short budget is not refused: the
 * step commits with the impulses the sweeps reached, and stats.ct_residual reports
 * max_i w_i |lambda_i - clamp(lambda_i - (J_i u_{n+1} - r_i + eps_i lambda_i) / w_i, lo_i, hi_i)| (m/s or rad/s,
 * w_i = 1 / ctiw_i), the velocity error that remains against the rows' own equations (a resting
 * compliant row reads 0); h times it enters the step's error estimate (err_step); each sweep only lowers the energy of the LCP's quadratic, so an
 * unconverged step dissipates more, it never adds energy (the residual shows how far).
 * A model of free bodies that gives its contact points (hs_model.h free_bodies, ct_points)
 * gets the same stage in body velocities (rt/hs_contact_fb.c): the same rows, targets,
 * bounds, sweeps and residual, the responses n/m and I^-1 (r x n) in place of the solves,
 * and after the first sweep a pair-level correction of the normal impulses (that form's
 * alone: model/CONTACT.md "Mass ratio"). */
#ifndef HS_CONTACT_H
#define HS_CONTACT_H

#include "hs_stepper.h"

/* Fraction of a penetration removed per step (dimensionless, 0 < ERP <= 1). */
#define HS_CT_ERP HS_R(0.2)
/* Compliance of every normal row relative to its W_ii (dimensionless): the rows of four
 * corners on one face are redundant, and without it the sweeps leave a different split of
 * the load every step, which rocks a stack (model/CONTACT.md). */
#define HS_CT_REG HS_R(1e-2)
/* The step (s) up to which a resting normal row sits REG W_ii F h^2 / ERP inside the surface
 * (F its force). At a longer step its target takes back the compliance velocity of its
 * pair's load (hs_contact_hold), so the rest depth stays the one of this step,
 * REG W_ii F HREF^2 / ERP, up to 2 ms (HS_CT_HOLDMAX), while the sweeps keep the compliance
 * REG W_ii that makes the redundant corners' split unique (model/CONTACT.md, "The rest depth
 * at long steps"). */
#define HS_CT_HREF HS_R(1e-3)
/* Per step, the fraction by which a contact pair's hold anchor follows the pair's mean normal
 * impulse (dimensionless): slow, so the step's own dynamics see the plain compliance (with the
 * whole load taken back at 1/60 s, a follow of 1 or 0.1 per step collapses the stack; 0.05 and
 * 0.02 let it stand). */
#define HS_CT_HOLDB HS_R(0.02)
/* The most of a row's compliance velocity its target takes back (dimensionless): above
 * HS_CT_HREF / sqrt(1 - HOLDMAX) = 2 ms the rest depth is (1 - HOLDMAX) REG W_ii F h^2 / ERP.
 * A stiffer rest at such steps needs more sweeps: at 1/20 s the stack collapses with 0.99, and
 * with 0.95 it stands but at 1/60 s no longer with 16 sweeps, which 0.75 keeps (model/CONTACT.md). */
#define HS_CT_HOLDMAX HS_R(0.75)
/* The sweeps per step of the body-velocity stage (rt/hs_contact_fb.c) when the model's
 * ct_sweeps is 0 (count): pair by pair with the pair correction it converges within a few
 * (model/CONTACT.md "The sweep count"); -D overrides it for a measuring build. */
#ifndef HS_CT_SWEEPS_FB
#define HS_CT_SWEEPS_FB 10
#endif
/* The sweeps per step of the generic stage (rt/hs_contact.c: joints, stops) when ct_sweeps is 0
 * (count): in point order without the pair correction, below 16 it and the body-velocity stage
 * part on the stack at 1/60 s (make mb-test, fb); -D overrides it for a measuring build. */
#ifndef HS_CT_SWEEPS_GEN
#define HS_CT_SWEEPS_GEN 16
#endif
/* Gaps below this count as touching (m or rad): closed at ERP per step, not speculatively. */
#define HS_CT_SLOP HS_R(1e-5)
/* Impact speed below which a normal row does not bounce (m/s or rad/s): resting contacts
 * approach at g h per step and must not hop. */
#define HS_CT_VREST HS_R(0.05)

/* The position factor cq of the stepper's method (s): q_{n+1} moves by cq times an impulse's
 * velocity change, as the method moves positions with its end velocity: h (velocities
 * first), h/2 (sdirk, galpha, dvp, em: trapezoidal in the end velocity), 0 (positions first). */
hs_real hs_contact_cq(const hs_stepper *s, hs_real h);

/* The fraction of a resting normal row's compliance velocity eps_i a_i (a_i its pair's hold
 * anchor) that its target takes back at step h (s, > 0; dimensionless): 1 - (HS_CT_HREF / h)^2
 * above HS_CT_HREF, so the rest depth is REG W_ii F HREF^2 / ERP, at most HS_CT_HOLDMAX; 0 at
 * and below HS_CT_HREF (the 1 ms frame's rows are unchanged to the bit). */
static inline hs_real hs_contact_hold(hs_real h)
{
    const hs_real x = HS_CT_HREF / h;
    const hs_real hh = (x < HS_R(1.0)) ? (HS_R(1.0) - (x * x)) : HS_R(0.0);
    return (hh < HS_CT_HOLDMAX) ? hh : HS_CT_HOLDMAX;
}

/* 1 when model m's contact stage can work in body velocities (rt/hs_contact_fb.c): it offers
 * free_bodies() and ct_points() and they are consistent with its sizes and rows; else 0. */
int hs_contact_fb_ok(const hs_model *m);
/* 1 when model m's free-body stage runs the pair-level correction (its workspace fits in the
 * room HS_STEPPER_REALS_CT counts for the rows over q, 2 nk nq); else 0. */
int hs_contact_fb_pairs(const hs_model *m);
/* Reals of the free-body stage's workspace (the stepper's ctf) for model m (hs_contact_fb_ok). */
size_t hs_contact_fb_reals(const hs_model *m);

#endif
