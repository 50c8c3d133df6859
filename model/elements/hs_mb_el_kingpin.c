/* hs_mb_el_kingpin.c - force element "kingpin": a steering system's compliance between a steered
 * wheel a and its carrier b (the knuckle folded into the wheel body: the wheel's suspension rows
 * leave it the turn about the kingpin, as car.hsm's front rows do).
 *
 *   e = R_a axis          the axle (axis: a's frame)
 *   r = R_b axis          the zero-steer axle (the same components in b's frame)
 *   n = R_b axis_b        the kingpin axis (b's frame, perpendicular to axis)
 *   th = atan2((n x r) . e, r . e)                                 steer angle (rad)
 *   th_s = theta0 + scale * in0                                    set angle (the actuator)
 *   tau = -k (th - th_s) - c th'    on a about n, -tau on b        (generalized: tau d th / d q)
 *   V = 1/2 k (th - th_s)^2
 *
 * x = r . e and y = (n x r) . e are quadratic forms of w = conj(p_b) p_a (hs_mb_rot.c
 * rq_heading), so th is exact at any steer angle, smooth off the unit quaternions and blind to
 * a's spin about e (R_b^T R_a axis does not change when a turns about axis): a rotspring's
 * twist angle about n would fold the wheel's spin in. k is the steering's stiffness at the
 * wheel (torsion bar, rack and tie rod), c the steering gear's damping against the carrier
 * (on th', the set angle being held over a step). The torque the wheel puts on the steering,
 * k (th - th_s) (N m about n; the output force NAME.torque), is the steering torque an EPS
 * reads: the tire's aligning and bore torque about the kingpin in a quasi-steady state. */
#include "hs_mb_int.h"

static uint32_t check(const hs_mb_desc *D, const hs_mb_force *E, const char **why)
{
    const int a = E->a.body, b = E->b.body;
    if (D->dim != 3) { *why = "a kingpin needs dim=3"; return MB_K_A; }
    if (a < 0 || D->bodies[a].kind != HS_MB_SPATIAL) { *why = "must be a spatial body"; return MB_K_A; }
    if (b >= 0 && D->bodies[b].kind != HS_MB_SPATIAL) { *why = "must be a spatial body or ground"; return MB_K_B; }
    if (a == b) { *why = "must differ from a"; return MB_K_B; }
    if (mb_is_unit3(E->axis) == 0) { *why = "the axle (a's frame) must be a unit vector"; return MB_K_AXIS; }
    if (mb_is_unit3(E->axis_b) == 0) { *why = "the kingpin axis (b's frame) must be a unit vector"; return MB_K_AXIS_B; }
    if (!(hs_abs(mb_dot3(E->axis, E->axis_b)) <= HS_R(1e-9))) { *why = "the kingpin axis must be perpendicular to the axle"; return MB_K_AXIS_B; }
    if (!(E->k >= HS_R(0.0))) { *why = "stiffness must be >= 0"; return MB_K_K; }
    if (!(E->c >= HS_R(0.0))) { *why = "damping must be >= 0"; return MB_K_C; }
    return 0u;
}

static int inputs(const hs_mb_desc *D, const hs_mb_force *E, const char *suffix[3])
{
    (void)D; (void)E;
    suffix[0] = ".steer (rad)";
    return 1;
}

static int eval(const hs_mb_model *mb, int e, hs_real t, const hs_real *q, const hs_real *u,
                const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu)
{
    (void)t;
    return mb_rot_force(mb, e, q, u, in, f, fq, fu);
}

static hs_real potential(const hs_mb_model *mb, int e, hs_real t, const hs_real *q, const hs_real *in,
                         hs_real V)
{
    (void)t;
    hs_real th = HS_R(0.0), thd = HS_R(0.0);
    if (mb_kingpin_angle(mb, e, q, NULL, &th, &thd) != 0) { return V; }
    const hs_real d = th - mb_kingpin_set(mb, e, in);
    return V + HS_R(0.5) * mb->desc->forces[e].k * d * d;
}

/* The output force NAME: angle th, set th_s (rad), steering torque k (th - th_s) (N m, the
 * wheel's on the steering about n), rate th' (rad/s). */
static int values(const hs_mb_model *mb, int e, hs_real t, const hs_real *q, const hs_real *u,
                  const hs_real *in, hs_real *y)
{
    (void)t;
    hs_real th = HS_R(0.0), thd = HS_R(0.0);
    const int rc = mb_kingpin_angle(mb, e, q, u, &th, &thd);
    if (rc != 0) { return rc; }
    const hs_real ts = mb_kingpin_set(mb, e, in);
    y[0] = th;
    y[1] = ts;
    y[2] = mb->desc->forces[e].k * (th - ts);
    y[3] = thd;
    return HS_OK;
}

static const char *const VAL_NAME[4] = {"angle", "set", "torque", "rate"};
static const char *const VAL_UNIT[4] = {"rad", "rad", "N*m", "rad/s"};

const mb_force_elem mb_el_kingpin = {
    "kingpin", "HS_MB_KINGPIN",
    MB_K_A | MB_K_B | MB_K_K | MB_K_C | MB_K_THETA0 | MB_K_SCALE | MB_K_AXIS | MB_K_AXIS_B | MB_K_IN,
    MB_K_A | MB_K_AXIS | MB_K_AXIS_B | MB_K_IN, check, inputs, eval, potential,
    .passive = MB_NO, .spring = MB_NO, .hinge = MB_NO, .tire = MB_NO,
    .nval = 4, .val_name = VAL_NAME, .val_unit = VAL_UNIT, .values = values};
