/* hs_mb_int.h - internals shared by the multibody layer's files (bodies, joints, forces). */
#ifndef HS_MB_INT_H
#define HS_MB_INT_H

#include "hs_mb.h"

/* Constraint row kinds. */
enum {
    HS_MB_ROW_DOT = 0,   /* (r0 - r1) . (r2 - r3) - value - f(t) */
    HS_MB_ROW_ANGLE = 1, /* theta_a - theta_b - value - f(t) (planar bodies) */
    HS_MB_ROW_NORM = 2,  /* p . p - 1 (spatial body) */
    HS_MB_ROW_QUAD = 3   /* r^T A r + b . r + c (point o0 on a ground quadric) */
};

/* Kinematics of one operand point: r = position, J = dr/dq of its body (3 x nb), rt and rtt
 * the explicit time derivatives (moving ground points), v = J u + rt, ac = J' u + rtt. */
typedef struct mb_pk {
    int body, nb;
    hs_real r[3], rt[3], v[3], ac[3];
    hs_real J[3][7];
} mb_pk;

/* f(t), f'(t), f''(t) of a time law (any output pointer may be NULL). */
void mb_fn_eval(const hs_mb_fn *f, hs_real t, hs_real *v, hs_real *d, hs_real *dd);

/* Point kinematics at (t, q) and, when u is not NULL, velocities and J' u. */
void mb_point_kin(const hs_mb_model *mb, const hs_mb_opnd *o, hs_real t, const hs_real *q,
                  const hs_real *u, mb_pk *k);
/* H = d(J^T F)/dq of the point's body block (nb x nb, row-major 7 x 7) for fixed F (3). */
void mb_point_hess(const hs_mb_model *mb, const hs_mb_opnd *o, const hs_real *q,
                   const hs_real *F, hs_real H[7][7]);
/* D = d(J u)/dq of the point's body block (3 x nb). */
void mb_point_dju(const hs_mb_model *mb, const hs_mb_opnd *o, const hs_real *q,
                  const hs_real *u, hs_real D[3][7]);

/* d(R(p) s)/dp (3 x 4) of the quadratic rotation formula; linear in p. */
void mb_quat_rs_jac(const hs_real *p, const hs_real *s, hs_real L[3][4]);
/* E(p) (3 x 4): ground-frame angular velocity w = 2 E(p) p'. */
void mb_quat_E(const hs_real *p, hs_real E[3][4]);
/* G(p) (3 x 4): body-frame angular velocity w_b = 2 G(p) p'. */
void mb_quat_G(const hs_real *p, hs_real G[3][4]);

/* Matrix accumulation into the dense or packed nq x nq matrix A: A(bi:i, bj:j) += v. */
void mb_qq_add(const hs_mb_model *mb, hs_real *A, int bi, int i, int bj, int j, hs_real v);
/* A(body of L, body of R) += s J_L^T X J_R, X (3 x 3) or identity when X is NULL. */
void mb_add_jxj(const hs_mb_model *mb, hs_real *A, const mb_pk *L, hs_real (*X)[3],
                const mb_pk *R, hs_real s);
/* A(body of L, body of R) += s J_L^T X D, D (3 x nb of R's body). */
void mb_add_jxd(const hs_mb_model *mb, hs_real *A, const mb_pk *L, hs_real (*X)[3],
                const hs_real D[3][7], int body, int nb, hs_real s);
/* A(body, body) += s H. */
void mb_add_h(const hs_mb_model *mb, hs_real *A, int body, int nb, const hs_real H[7][7], hs_real s);
/* Zeroes a dense or packed nq x nq matrix. */
void mb_qq_zero(const hs_mb_model *mb, hs_real *A);

/* Joints (hs_mb_joint.c). */
int mb_constraint(const hs_mb_model *mb, hs_real t, const hs_real *q, hs_real *g, hs_real *G,
                  hs_real *gt);
int mb_gamma(const hs_mb_model *mb, hs_real t, const hs_real *q, const hs_real *u, hs_real *gam);
int mb_curvature(const hs_mb_model *mb, hs_real t, const hs_real *q, const hs_real *lambda,
                 hs_real *K);
/* Row r's gradient restricted to `body` (nb values) times w, added into out. */
void mb_row_body_grad(const hs_mb_model *mb, int r, hs_real t, const hs_real *q, int body,
                      hs_real w, hs_real *out);
/* Builds the rows of every joint and spatial body into mb (compile). */
int mb_build_rows(hs_mb_model *mb, int *bad);

/* Forces (hs_mb_force.c): f (nq) and, when fq/fu are not NULL, their Jacobians. */
int mb_forces(const hs_mb_model *mb, hs_real t, const hs_real *q, const hs_real *u,
              const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu);
/* Potential energy of gravity and the springs (J). */
hs_real mb_potential(const hs_mb_model *mb, hs_real t, const hs_real *q);

/* Spatial rotation elements (hs_mb_rot.c). */
/* The hinge reference conj(Q0) (hs_mb.h "Spatial hinge angle") from the axes (a frame, b frame;
 * axis_b zero = axis) and the initial quaternions (pb0 NULL: ground). */
void mb_hinge_ref(const hs_real *axis, const hs_real *axis_b, const hs_real *pa0, const hs_real *pb0,
                  hs_real *c);
/* The hinge angle (rad) of bodies A (spatial) and B (spatial or ground) about n (b frame). */
int mb_hinge_angle(const hs_mb_model *mb, int A, int B, const hs_real *n, const hs_real *c,
                   const hs_real *q, hs_real *th);
/* f, fq, fu of force element e when it is a spatial ROTSPRING, MOTOR or the rotational part of
 * a spatial BUSHING (accumulated; fq, fu may be NULL, f may be NULL with fq given). */
int mb_rot_force(const hs_mb_model *mb, int e, const hs_real *q, const hs_real *u,
                 const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu);
/* Potential (J) of a spatial ROTSPRING or the rotational part of a spatial BUSHING. */
hs_real mb_rot_potential(const hs_mb_model *mb, int e, const hs_real *q);
/* The b-frame hinge axis of force e or joint j (axis_b, or axis when axis_b is zero). */
const hs_real *mb_axis_b(const hs_real *axis, const hs_real *axis_b);

static inline hs_real mb_dot3(const hs_real *a, const hs_real *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

#endif
