/* hs_dvp.h - method dvp: the discrete variational stepper of [WM] (Wendlandt & Marsden
 * 1997, sec. 4), written in position-momentum form so that it steps the stepper's (q, u).
 *
 * With the midpoint discrete Lagrangian L_d(q_n, q_{n+1}) = h L(c, w), c = (q_n + q_{n+1})/2,
 * w = (q_{n+1} - q_n)/h (eq. 4.1), and the applied forces taken at (c, w) (discrete
 * Lagrange-d'Alembert), one step solves for w and the constraint impulse Lam (= h lambda)
 *     M(c) w - p_n - h/2 F(c, w) - G(q_n)^T Lam = 0,    g(t_{n+1}, q_n + h w) = 0
 * where p_n = M(q_n) u_n and F = f + M'(q)[w] w (the applied forces plus dT/dq: the model's
 * lagrange(), or force() when M is constant; then it is SHAKE with midpoint forces, eq. 4.8).
 * Then q_{n+1} = q_n + h w, p_{n+1} = M(c) w + h/2 F(c, w) and u_{n+1} is p_{n+1} taken back
 * to velocities on the constraint's tangent space (RATTLE's velocity step): [[M, G^T], [G, 0]]
 * at q_{n+1} applied to (p_{n+1}, -g_t). Eliminating p gives eq. 4.5 between q_{n-1}, q_n,
 * q_{n+1}; so the method is symplectic and conserves the momentum of every symmetry of L and g
 * (the rigid body's spatial angular momentum, the pendulum's about the vertical) to round-off.
 *
 * Fixed work: HS_DVP_NEWTON Newton iterations with the exact Jacobian
 *     [[M(c) + h/2 d(M w)/dq - h/2 Fu - h^2/4 Fq, -G(q_n)^T], [G(q_{n+1}), 0]]
 * from the predictor w = u_n, Lam = h lambda_n, then one more residual evaluation whose
 * correction (solved with the last factor, not applied) must stay below HS_DVP_TOL of the
 * position scale, else the step is refused with HS_E_DVP_RESIDUAL and the state kept. */
#ifndef HS_DVP_H
#define HS_DVP_H

#include "hs_stepper.h"

/* Newton iterations per step. 4: from the predictor w = u_n the [WM] cases reach
 * round-off (final correction <= 3e-16) at every h up to 0.1 s; with 3 the rigid body at
 * h = 0.1 s (h |w_b| = 0.5) keeps 1e-11 and its momentum drifts 2e-9, with 2 it refuses the
 * first step there (2 suffice at h <= 1e-3). Measured with -DHS_DVP_NEWTON=N, README. */
#ifndef HS_DVP_NEWTON /* overridable only for the iteration-count experiment in README */
#define HS_DVP_NEWTON 4
#endif

/* Largest final correction h |dw|_inf / (|q_n|_inf + h |w|_inf) a committed step may leave
 * (dimensionless); measured round-off is 1e-16 .. 1e-15 in double. */
#ifdef HS_REAL_FLOAT
#define HS_DVP_TOL HS_R(1.0e-4)
#else
#define HS_DVP_TOL HS_R(1.0e-10)
#endif

/* The dvp stage: advances (q, u, lambda) of s from t to t1 = t + h with inputs in into the
 * stepper's new-state buffers (qn, un, lamn); HS_OK or a fault code, committed state untouched. */
hs_status hs_dvp_stage(hs_stepper *s, hs_real t, hs_real t1, hs_real h, const hs_real *in);

#endif
