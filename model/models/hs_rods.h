/* hs_rods.h - planar uniform rods in maximal coordinates joined by revolute joints: the shared
 * evaluation behind the chain and ladder models (model-internal, not part of the public API).
 *
 * Rod i has q = (x_i, y_i, theta_i) (centre of mass in m, angle from +x in rad) at q[3i..3i+2].
 * Its ends are p = c + s (L/2) (cos theta, sin theta), s = +1 the head, s = -1 the tail.
 * Joint k is two equations g_k = p_a(s_a) - p_b(s_b) (m), or p_a(s_a) when b = -1 (the origin).
 * Gravity acts in -y. Block pattern: one 3-position block per rod, one 2-equation block per
 * joint; the nq x nq matrices (M, fq, fu, K) have only the rod-diagonal blocks because K of a
 * revolute joint in these coordinates touches each rod's own theta only:
 *   d/dtheta_a of the theta_a-row of G^T lambda = -s_a (L/2) e(theta_a) . lambda,
 * and +s_b (L/2) e(theta_b) . lambda for rod b, with e = (cos, sin). Every loop count depends
 * on the rod and joint counts only (fixed cost per instance). */
#ifndef HS_RODS_H
#define HS_RODS_H

#include "hs_model.h"

/* One joint: end s_a (+1 head, -1 tail) of rod a at end s_b of rod b; b = -1: the origin.
 * Always b < a, so a joint's G blocks are listed (k, b) then (k, a). */
typedef struct hs_rod_joint {
    int a, sa, b, sb;
} hs_rod_joint;

/* A system of nr identical rods and nj joints enumerated by joint(arg, k, &j). */
typedef struct hs_rods {
    int nr;        /* rods */
    int nj;        /* joints (2 equations each) */
    hs_real m;     /* mass of each rod (kg) */
    hs_real len;   /* length of each rod (m) */
    hs_real grav;  /* gravity magnitude (m/s^2), acting in -y */
    void (*joint)(int arg, int k, hs_rod_joint *j);
    int arg;       /* passed to joint(): the model's link count */
    int chain;     /* 1: nj = nr and joint k is rod k's tail at rod k-1's head (the origin for
                    * k = 0), so the evaluations walk the rods once without joint() (same
                    * values bit for bit); 0: any joint list */
} hs_rods;

/* An upper bound of the ints hs_rods_blocks needs for nr rods and nj joints (it needs
 * exactly 3 nr + nj + 2 + 2 ncq, a joint to the origin having one G block, others two). */
#define HS_RODS_BLOCK_INTS(nr, nj) ((nr) + 1 + (nj) + 1 + 2 * (nr) + 4 * (nj))

/* Block pattern into b (pointing into buf, nbuf ints). */
hs_status hs_rods_blocks(const hs_rods *r, hs_blocks *b, int *buf, int nbuf);
/* Packed mass matrix: per rod diag(m, m, m L^2 / 12) (9 reals per rod). */
void hs_rods_mass(const hs_rods *r, hs_real *M);
/* Gravity forces f (3 nr). */
void hs_rods_force(const hs_rods *r, hs_real *f);
/* Packed fq = fu = 0 (gravity is constant). */
void hs_rods_force_jac(const hs_rods *r, hs_real *fq, hs_real *fu);
/* g (2 nj), packed G, gt = 0 (2 nj); any may be NULL. HS_E_NONFINITE on an angle beyond
 * hs_sin's range. */
hs_status hs_rods_constraint(const hs_rods *r, const hs_real *q, hs_real *g, hs_real *G, hs_real *gt);
/* gamma (2 nj): d2/dt2 g = G u' + gamma. */
hs_status hs_rods_gamma(const hs_rods *r, const hs_real *q, const hs_real *u, hs_real *gam);
/* Packed curvature K = d(G^T lambda)/dq (rod-diagonal blocks, only the theta-theta entries). */
hs_status hs_rods_curvature(const hs_rods *r, const hs_real *q, const hs_real *lambda, hs_real *K);
/* Packed G, gamma (2 nj) and, when K and lambda are not NULL, the packed curvature in one pass:
 * the values of hs_rods_constraint, hs_rods_gamma and hs_rods_curvature. */
hs_status hs_rods_constraint_all(const hs_rods *r, const hs_real *q, const hs_real *u, const hs_real *lambda,
                           hs_real *G, hs_real *gam, hs_real *K);
/* Kinetic plus gravitational energy (J), zero potential at y = 0. */
hs_real hs_rods_energy(const hs_rods *r, const hs_real *q, const hs_real *u);
/* Position (m) of end s of rod i. */
void hs_rods_end(const hs_rods *r, const hs_real *q, int i, int s, hs_real *x, hs_real *y);

/* A family of rod models, the hs_model_type.data of chain and ladder: the largest link count,
 * rods = rods_per_link n + rods_extra, joints likewise, and the joint list. */
typedef struct hs_rods_family {
    int n_max;
    int rods_per_link, rods_extra;
    int joints_per_link, joints_extra;
    void (*joint)(int n, int k, hs_rod_joint *j);
    int chain; /* 1: the joints form hs_rods.chain's open chain */
} hs_rods_family;

/* Outputs of every rod model: energy (J), x and y (m) of the last rod's head. */
#define HS_RODS_NOUT 3

/* The link count of a rod model instance (params hs_rods_params, type data hs_rods_family),
 * or 0 when n is not an integer in 1 .. n_max. */
int hs_rods_links(const hs_model *m);
/* The rod system of a rod model instance. */
hs_rods hs_rods_of(const hs_model *m);
/* hs_model_type functions shared by the rod models (signatures as in hs_model.h). */
int hs_rods_fn_check(const hs_model *m);
int hs_rods_fn_dims(const hs_model *m, hs_dims *d);
int hs_rods_fn_blocks(const hs_model *m, hs_blocks *b, int *buf, int nbuf);
int hs_rods_fn_mass(const hs_model *m, hs_real t, const hs_real *q, hs_real *M);
/* The zero masks of the packed M (rod-diagonal entries only) and G (a joint block's identity
 * part and its theta column), hs_model_type.masks. */
int hs_rods_fn_masks(const hs_model *m, int *qq_mask, int *cq_mask);
int hs_rods_fn_force(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                     const hs_real *z, const hs_real *in, hs_real *f);
int hs_rods_fn_force_jac(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                         const hs_real *z, const hs_real *in, hs_real *fq, hs_real *fu);
int hs_rods_fn_constraint(const hs_model *m, hs_real t, const hs_real *q, hs_real *g,
                          hs_real *G, hs_real *gt);
int hs_rods_fn_gamma(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                     hs_real *gam);
int hs_rods_fn_curvature(const hs_model *m, hs_real t, const hs_real *q, const hs_real *lambda,
                         hs_real *K);
int hs_rods_fn_energy(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                      const hs_real *z, hs_real *E);
int hs_rods_fn_constraint_all(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                              const hs_real *lambda, hs_real *G, hs_real *gam, hs_real *K);
/* motion(): omega = the fastest rod's rate at (q, u) and *who that rod (spin()): the rods'
 * rates are checked at every step (spin()), so init refuses only a start already past the
 * range; the energy bound (hs_rods_release) is not, as it lets the whole chain's potential
 * spin one rod (rt/METHODS.md). Degenerate when there are more joints than rods (a closed
 * loop: the ladder's cells fold flat). */
int hs_rods_fn_motion(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                      hs_real *omega, int *degenerate, int *who);
/* The energy gravity can release from (q, u), E - V_min (J): every rod's centre lies within
 * (d - 1/2) L of the origin, d its rods on the shortest joint path to it, V_min = -m g L
 * sum (d_i - 1/2) (chain of n rods from rest horizontal: m g L n^2/2); into *E. */
int hs_rods_fn_release(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, hs_real *E);
/* spin(): the fastest rod's rate max |theta_i'| (rad/s) at u and *body that rod's index (0 = the
 * one at the origin): each joint's direction turns with its rods, and the default method's one
 * Newton step per stage stops resolving that turn past h |theta'| ~ 0.5 (rt/METHODS.md). */
int hs_rods_fn_spin(const hs_model *m, const hs_real *q, const hs_real *u, hs_real *w, int *body);
int hs_rods_fn_output(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                      const hs_real *z, const hs_real *in, hs_real *y);

#endif
