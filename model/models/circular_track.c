/* circular_track.c - point mass on the unit circle ([BAE] section 4.1, Fig. 2).
 *
 * A tangential force F_PI from a PI speed controller holds the tangential speed at v_ref and a
 * constant outward radial force f_radial pushes the mass off the track on top of the
 * centrifugal force, so the constraint force is never zero and drift shows. The PI integrator
 * is the auxiliary state z = integral (v - v_ref) dt. Gains kp = 20 N s/m, ki = 100 N/m with
 * m = 1 kg give the speed-error loop m e'' + kp e' + ki e = 0, i.e. (s + 10)^2: critically
 * damped at 10 rad/s, settled to 1e-3 of a step in about 1 s. With external = 1 the PI lives in
 * the ECU across the wire and the tangential force is input 0. */
#include "hs_models.h"
#include <stddef.h>

#define P(m) ((const hs_circular_track_params *)(m)->p)

static const hs_param_info params[] = {
    {"m", offsetof(hs_circular_track_params, m), HS_R(1.0), HS_R(1e-6), HS_R(1e6), "mass (kg)"},
    {"v_ref", offsetof(hs_circular_track_params, v_ref), HS_R(1.0), HS_R(-1e3), HS_R(1e3), "target tangential speed (m/s)"},
    {"kp", offsetof(hs_circular_track_params, kp), HS_R(20.0), HS_R(0.0), HS_R(1e6), "PI proportional gain (N s/m)"},
    {"ki", offsetof(hs_circular_track_params, ki), HS_R(100.0), HS_R(0.0), HS_R(1e6), "PI integral gain (N/m)"},
    {"f_radial", offsetof(hs_circular_track_params, f_radial), HS_R(1.0), HS_R(-1e6), HS_R(1e6), "outward radial force (N)"},
    {"v0", offsetof(hs_circular_track_params, v0), HS_R(0.0), HS_R(-1e3), HS_R(1e3), "initial tangential speed (m/s)"},
    {"external", offsetof(hs_circular_track_params, external), HS_R(0.0), HS_R(0.0), HS_R(1.0), "1: tangential force from input 0 (HIL ECU)"},
};

/* MISRA Ref 9.2.1 [braced array of string pointers] */
static const char *const in_names[] = {"F_tangential (N)"};
static const char *const out_names[] = {"speed (m/s)", "radius (m)", "x1 (m)", "x2 (m)"};

static int check(const hs_model *m)
{
    hs_real e = P(m)->external;
    return (e == HS_R(0.0) || e == HS_R(1.0)) ? HS_OK : HS_E_MODEL_PARAM;
}

static int initial(const hs_model *m, hs_real t0, hs_real *q, hs_real *u, hs_real *z)
{
    (void)t0;
    q[0] = HS_R(1.0); q[1] = HS_R(0.0);
    u[0] = HS_R(0.0); u[1] = P(m)->v0;
    z[0] = HS_R(0.0);
    return HS_OK;
}

static int mass(const hs_model *m, hs_real t, const hs_real *q, hs_real *M)
{
    (void)t; (void)q;
    M[0] = P(m)->m; M[1] = HS_R(0.0); M[2] = HS_R(0.0); M[3] = P(m)->m;
    return HS_OK;
}

/* Tangential speed v = t.u with the unit tangent t = (-x2, x1)/|x|. */
static hs_real speed(const hs_real *q, const hs_real *u, hs_real r)
{
    return (-q[1] * u[0] + q[0] * u[1]) / r;
}

static int force(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                 const hs_real *z, const hs_real *in, hs_real *f)
{
    (void)t;
    const hs_circular_track_params *p = P(m);
    hs_real r = hs_sqrt(q[0] * q[0] + q[1] * q[1]);
    if (!(r > HS_R(0.0))) { return HS_E_MODEL; }
    hs_real v = speed(q, u, r);
    hs_real ft = p->external == HS_R(1.0) ? in[0] : -p->kp * (v - p->v_ref) - p->ki * z[0];
    f[0] = (-q[1] * ft + q[0] * p->f_radial) / r;
    f[1] = (q[0] * ft + q[1] * p->f_radial) / r;
    return HS_OK;
}

static int constraint(const hs_model *m, hs_real t, const hs_real *q, hs_real *g, hs_real *G,
                      hs_real *gt)
{
    (void)m; (void)t;
    if (g != NULL) { g[0] = q[0] * q[0] + q[1] * q[1] - HS_R(1.0); }
    if (G != NULL) { G[0] = HS_R(2.0) * q[0]; G[1] = HS_R(2.0) * q[1]; }
    if (gt != NULL) { gt[0] = HS_R(0.0); }
    return HS_OK;
}

static int gamma_fn(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, hs_real *gam)
{
    (void)m; (void)t; (void)q;
    gam[0] = HS_R(2.0) * (u[0] * u[0] + u[1] * u[1]);
    return HS_OK;
}

/* K = d(2 lambda q)/dq = 2 lambda I. */
static int curvature(const hs_model *m, hs_real t, const hs_real *q, const hs_real *lambda,
                     hs_real *K)
{
    (void)m; (void)t; (void)q;
    K[0] = HS_R(2.0) * lambda[0]; K[1] = HS_R(0.0);
    K[2] = HS_R(0.0); K[3] = HS_R(2.0) * lambda[0];
    return HS_OK;
}

/* Kinetic energy plus the potential -f_radial |x| of the constant outward radial force. Left
 * out: the tangential force's work (the PI controller's, or the ECU's through input 0), which
 * is not conservative; with kp = ki = 0 (and external = 0) E is conserved. z is the
 * controller's integrator and carries no energy. */
static int energy(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                  const hs_real *z, hs_real *E)
{
    (void)t; (void)z;
    hs_real r = hs_sqrt(q[0] * q[0] + q[1] * q[1]);
    *E = HS_R(0.5) * P(m)->m * (u[0] * u[0] + u[1] * u[1]) - P(m)->f_radial * r;
    return HS_OK;
}

static int zdot(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                const hs_real *z, const hs_real *in, hs_real *zd)
{
    (void)t; (void)z; (void)in;
    hs_real r = hs_sqrt(q[0] * q[0] + q[1] * q[1]);
    if (!(r > HS_R(0.0))) { return HS_E_MODEL; }
    /* with the PI in the ECU the integrator lives there; z then stays 0 */
    zd[0] = P(m)->external == HS_R(1.0) ? HS_R(0.0) : speed(q, u, r) - P(m)->v_ref;
    return HS_OK;
}

static int output(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                  const hs_real *z, const hs_real *in, hs_real *y)
{
    (void)m; (void)t; (void)z; (void)in;
    hs_real r = hs_sqrt(q[0] * q[0] + q[1] * q[1]);
    if (!(r > HS_R(0.0))) { return HS_E_MODEL; }
    y[0] = speed(q, u, r);
    y[1] = r;
    y[2] = q[0];
    y[3] = q[1];
    return HS_OK;
}

const hs_model_type hs_circular_track_type = {
    .name = "circular_track",
    .doc = "point mass on the unit circle, PI speed control, radial push (Burgermeister, Arnold, Esterl sec. 4.1)",
    .nq = HS_CIRCULAR_TRACK_NQ,
    .nc = HS_CIRCULAR_TRACK_NC,
    .nz = HS_CIRCULAR_TRACK_NZ,
    .nin = HS_CIRCULAR_TRACK_NIN,
    .nout = HS_CIRCULAR_TRACK_NOUT,
    .params = params,
    /* MISRA Ref 10.8.1 [table length, compile-time constant] */
    .nparams = (int)(sizeof params / sizeof params[0]),
    .param_size = sizeof(hs_circular_track_params),
    .in_names = in_names,
    .out_names = out_names,
    .check = check,
    .initial = initial,
    .mass = mass,
    .force = force,
    .constraint = constraint,
    .gamma = gamma_fn,
    .zdot = zdot,
    .output = output,
    .curvature = curvature,
    .energy = energy,
};
