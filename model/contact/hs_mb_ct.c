/* hs_mb_ct.c - unilateral rows of a multibody description: contact geometry of the basic
 * shapes and joint end stops, written as rows J (nk x nq) and gaps phi for the contact stage
 * (rt/hs_contact.h; equations in model/CONTACT.md). Every pair has a fixed number of slots
 * and every slot is evaluated every step, touching or not: the work does not depend on the
 * configuration. */
#include "hs_mb_int.h"

/* A contact point: normal n (ground frame, from b to a), the points on a and b, the gap. */
typedef struct ct_pt {
    hs_real n[3], pa[3], pb[3], phi;
} ct_pt;

/* A shape's placement: centre c and axes A[i] (the body's i-th axis in the ground frame). */
typedef struct ct_frame {
    hs_real c[3];
    hs_real A[3][3];
} ct_frame;

/* Gap of an empty slot (m): far enough that no target ever binds. */
#define CT_FAR HS_R(1.0e3)

static void cross3(const hs_real *a, const hs_real *b, hs_real *o)
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

/* R(p) s for a unit quaternion p = (w, x, y, z); conj = 1 applies R(p)^T. */
static void quat_apply(const hs_real *p, int conj, const hs_real *s, hs_real *o)
{
    const hs_real sg = (conj != 0) ? HS_R(-1.0) : HS_R(1.0);
    const hs_real e[3] = {sg * p[1], sg * p[2], sg * p[3]};
    const hs_real a = p[0] * p[0] - mb_dot3(e, e), es = mb_dot3(e, s);
    hs_real x[3];
    cross3(e, s, x);
    for (int i = 0; i < 3; ++i) {
        o[i] = a * s[i] + HS_R(2.0) * e[i] * es + HS_R(2.0) * p[0] * x[i];
    }
}

static void body_frame(const hs_mb_model *mb, int body, const hs_real *q, ct_frame *F)
{
    for (int i = 0; i < 3; ++i) {
        F->c[i] = HS_R(0.0);
        for (int j = 0; j < 3; ++j) {
            F->A[i][j] = (i == j) ? HS_R(1.0) : HS_R(0.0);
        }
    }
    if (body < 0) {
        return;
    }
    const hs_real *x = &q[mb->qoff[body]];
    const hs_mb_body_kind k = mb->desc->bodies[body].kind;
    for (int i = 0; i < 3; ++i) {
        F->c[i] = x[i];
    }
    if (k == HS_MB_SPATIAL) {
        for (int i = 0; i < 3; ++i) {
            quat_apply(&x[3], 0, mb_ex[i], F->A[i]);
        }
    }
}

static void shape_frame(const hs_mb_model *mb, const hs_mb_shape *S, const hs_real *q, ct_frame *F)
{
    ct_frame B;
    body_frame(mb, S->body, q, &B);
    for (int i = 0; i < 3; ++i) {
        F->c[i] = B.c[i];
        for (int j = 0; j < 3; ++j) {
            F->A[i][j] = B.A[i][j];
            F->c[i] += B.A[j][i] * S->pos[j];
        }
    }
}

/* v in the frame's axes: A l */
static void frame_vec(const ct_frame *F, const hs_real *l, hs_real *o)
{
    for (int i = 0; i < 3; ++i) {
        o[i] = F->A[0][i] * l[0] + F->A[1][i] * l[1] + F->A[2][i] * l[2];
    }
}

static void pt_empty(ct_pt *P)
{
    for (int i = 0; i < 3; ++i) {
        P->n[i] = HS_R(0.0);
        P->pa[i] = HS_R(0.0);
        P->pb[i] = HS_R(0.0);
    }
    P->phi = CT_FAR;
}

/* point v of shape a against the plane (point pp, unit normal n) */
static void pt_plane(const hs_real *v, const hs_real *pp, const hs_real *n, hs_real r, ct_pt *P)
{
    hs_real d[3];
    for (int i = 0; i < 3; ++i) {
        d[i] = v[i] - pp[i];
    }
    const hs_real h = mb_dot3(d, n);
    for (int i = 0; i < 3; ++i) {
        P->n[i] = n[i];
        P->pa[i] = v[i] - r * n[i];
        P->pb[i] = v[i] - h * n[i];
    }
    P->phi = h - r;
}

static void plane_of(const hs_mb_shape *S, const ct_frame *F, hs_real *pp, hs_real *n)
{
    frame_vec(F, S->normal, n);
    for (int i = 0; i < 3; ++i) {
        pp[i] = F->c[i];
    }
}

/* The axis k of frame F whose face is turned most towards n (|A_k . n| largest, the first on a
 * tie) and the side *sg of that face that faces along -n (-1 or +1). */
static int ct_face_toward(const ct_frame *F, const hs_real *n, hs_real *sg)
{
    int k = 0;
    hs_real best = HS_R(-1.0);
    for (int i = 0; i < 3; ++i) {
        const hs_real c = hs_abs(mb_dot3(F->A[i], n));
        if (c > best) {
            best = c;
            k = i;
        }
    }
    *sg = (mb_dot3(F->A[k], n) > HS_R(0.0)) ? HS_R(-1.0) : HS_R(1.0);
    return k;
}

/* Corner c (0..3, around the face) of box (S, F)'s face k on side sg (+-1), in world
 * coordinates (m): box_plane, box_face and cyl_disc_box take their four points from it. */
static void face_corner(const hs_mb_shape *S, const ct_frame *F, int k, hs_real sg, int c, hs_real *v)
{
    static const hs_real s1[4] = {1, -1, -1, 1}, s2[4] = {1, 1, -1, -1};
    const int i1 = (k + 1) % 3, i2 = (k + 2) % 3;
    hs_real l[3];
    l[k] = sg * S->size[k];
    l[i1] = s1[c] * S->size[i1];
    l[i2] = s2[c] * S->size[i2];
    frame_vec(F, l, v);
    for (int i = 0; i < 3; ++i) {
        v[i] += F->c[i];
    }
}

/* box a on the plane (pp, n): the 4 corners of the face turned most towards the plane */
static void box_plane(const hs_mb_shape *A, const ct_frame *Fa, const hs_real *pp, const hs_real *n, ct_pt *P)
{
    hs_real sg;
    const int k = ct_face_toward(Fa, n, &sg);
    for (int m = 0; m < 4; ++m) {
        hs_real v[3];
        face_corner(A, Fa, k, sg, m, v);
        pt_plane(v, pp, n, HS_R(0.0), &P[m]);
    }
}

static void sphere_sphere(hs_real ra, const hs_real *ca, hs_real rb, const hs_real *cb, ct_pt *P)
{
    hs_real d[3];
    for (int i = 0; i < 3; ++i) {
        d[i] = ca[i] - cb[i];
    }
    const hs_real l = hs_sqrt(mb_dot3(d, d));
    const hs_real il = (l > HS_R(1e-12)) ? (HS_R(1.0) / l) : HS_R(0.0);
    for (int i = 0; i < 3; ++i) {
        P->n[i] = d[i] * il;
    }
    if (!(l > HS_R(1e-12))) {
        P->n[2] = HS_R(1.0); /* coincident centres: any direction; up */
    }
    for (int i = 0; i < 3; ++i) {
        P->pa[i] = ca[i] - ra * P->n[i];
        P->pb[i] = cb[i] + rb * P->n[i];
    }
    P->phi = l - ra - rb;
}

/* sphere a (radius r, centre c) against box b */
static void sphere_box(hs_real r, const hs_real *c, const hs_mb_shape *B, const ct_frame *Fb, ct_pt *P)
{
    hs_real d[3], l[3], lc[3], nl[3];
    for (int i = 0; i < 3; ++i) {
        d[i] = c[i] - Fb->c[i];
    }
    int inside = 1;
    for (int i = 0; i < 3; ++i) {
        l[i] = mb_dot3(Fb->A[i], d);
        const hs_real h = B->size[i];
        lc[i] = (l[i] > h) ? h : ((l[i] < -h) ? -h : l[i]);
        inside &= (hs_abs(l[i]) <= h) ? 1 : 0;
        nl[i] = l[i] - lc[i];
    }
    hs_real dist = hs_sqrt(mb_dot3(nl, nl));
    if ((inside != 0) || !(dist > HS_R(1e-12))) {
        /* centre inside: out through the nearest face */
        int k = 0;
        hs_real best = B->size[0] - hs_abs(l[0]);
        for (int i = 1; i < 3; ++i) {
            const hs_real dd = B->size[i] - hs_abs(l[i]);
            if (dd < best) {
                best = dd;
                k = i;
            }
        }
        for (int i = 0; i < 3; ++i) {
            nl[i] = HS_R(0.0);
        }
        nl[k] = (l[k] >= HS_R(0.0)) ? HS_R(1.0) : HS_R(-1.0);
        lc[k] = nl[k] * B->size[k];
        dist = -best;
    } else {
        for (int i = 0; i < 3; ++i) {
            nl[i] /= dist;
        }
    }
    frame_vec(Fb, nl, P->n);
    frame_vec(Fb, lc, P->pb);
    for (int i = 0; i < 3; ++i) {
        P->pb[i] += Fb->c[i];
        P->pa[i] = c[i] - r * P->n[i];
    }
    P->phi = dist - r;
}

static hs_real clampr(hs_real x, hs_real h)
{
    return (x > h) ? h : ((x < -h) ? -h : x);
}

/* The closest points of the segments p0 + s u (|s| <= L) and q0 + t v (|t| <= M), u and v
 * unit, into a and b: s on the lines' common perpendicular (0 for parallel lines), t for that
 * s, then s again for the clamped t (Ericson, Real-Time Collision Detection, 5.1.9): three
 * fixed steps, exact for segments. */
static void seg_seg(const hs_real *p0, const hs_real *u, hs_real L, const hs_real *q0, const hs_real *v, hs_real M,
                    hs_real *a, hs_real *b)
{
    hs_real w[3];
    for (int i = 0; i < 3; ++i) {
        w[i] = p0[i] - q0[i];
    }
    const hs_real c = mb_dot3(u, v), du = mb_dot3(u, w), dv = mb_dot3(v, w);
    const hs_real den = HS_R(1.0) - c * c;
    hs_real s = (den > HS_R(1e-9)) ? clampr((c * dv - du) / den, L) : HS_R(0.0);
    const hs_real t = clampr(dv + c * s, M);
    s = clampr(c * t - du, L);
    for (int i = 0; i < 3; ++i) {
        a[i] = p0[i] + s * u[i];
        b[i] = q0[i] + t * v[i];
    }
}

/* capsule a (radius size[0], half length size[1] along its z axis) against capsule b: three
 * points, the spheres at the closest points of the two axes (crossed capsules) and at each end
 * of a's axis against the nearest point of b's (parallel ones lie on a line, not a point) */
static void capsule_capsule(const hs_mb_shape *A, const ct_frame *Fa, const hs_mb_shape *B, const ct_frame *Fb,
                            ct_pt *P)
{
    hs_real a[3], b[3];
    seg_seg(Fa->c, Fa->A[2], A->size[1], Fb->c, Fb->A[2], B->size[1], a, b);
    sphere_sphere(A->size[0], a, B->size[0], b, &P[0]);
    for (int e = 0; e < 2; ++e) {
        hs_real w[3];
        const hs_real sg = (e == 0) ? HS_R(1.0) : HS_R(-1.0);
        for (int i = 0; i < 3; ++i) {
            a[i] = Fa->c[i] + sg * A->size[1] * Fa->A[2][i];
            w[i] = a[i] - Fb->c[i];
        }
        const hs_real t = clampr(mb_dot3(w, Fb->A[2]), B->size[1]);
        for (int i = 0; i < 3; ++i) {
            b[i] = Fb->c[i] + t * Fb->A[2][i];
        }
        sphere_sphere(A->size[0], a, B->size[0], b, &P[1 + e]);
    }
}

/* capsule a against box b: three points, the spheres at the two ends of a's axis and at the
 * axis point nearest the box (the axis point nearest b's centre, then the axis point nearest
 * the box point nearest that: two fixed projections), each as sphere-box */
static void capsule_box(const hs_mb_shape *A, const ct_frame *Fa, const hs_mb_shape *B, const ct_frame *Fb, ct_pt *P)
{
    const hs_real *ax = Fa->A[2];
    const hs_real L = A->size[1];
    for (int e = 0; e < 2; ++e) {
        hs_real v[3];
        const hs_real sg = (e == 0) ? HS_R(1.0) : HS_R(-1.0);
        for (int i = 0; i < 3; ++i) {
            v[i] = Fa->c[i] + sg * L * ax[i];
        }
        sphere_box(A->size[0], v, B, Fb, &P[e]);
    }
    hs_real d[3], x[3], y[3], l[3];
    for (int i = 0; i < 3; ++i) {
        d[i] = Fb->c[i] - Fa->c[i];
    }
    hs_real s = clampr(mb_dot3(ax, d), L);
    for (int i = 0; i < 3; ++i) {
        x[i] = Fa->c[i] + s * ax[i] - Fb->c[i];
    }
    for (int k = 0; k < 3; ++k) {
        l[k] = clampr(mb_dot3(Fb->A[k], x), B->size[k]);
    }
    frame_vec(Fb, l, y);
    for (int i = 0; i < 3; ++i) {
        y[i] += Fb->c[i] - Fa->c[i];
    }
    s = clampr(mb_dot3(ax, y), L);
    for (int i = 0; i < 3; ++i) {
        x[i] = Fa->c[i] + s * ax[i];
    }
    sphere_box(A->size[0], x, B, Fb, &P[2]);
}

/* sphere a (radius ra, centre c) against capsule b: the sphere at b's axis point nearest c */
static void sphere_capsule(hs_real ra, const hs_real *c, const hs_mb_shape *B, const ct_frame *Fb, ct_pt *P)
{
    hs_real w[3], p[3];
    for (int i = 0; i < 3; ++i) {
        w[i] = c[i] - Fb->c[i];
    }
    const hs_real t = clampr(mb_dot3(w, Fb->A[2]), B->size[1]);
    for (int i = 0; i < 3; ++i) {
        p[i] = Fb->c[i] + t * Fb->A[2][i];
    }
    sphere_sphere(ra, c, B->size[0], p, P);
}

/* The bias of a cylinder's lowest rim direction towards its frame's x axis (dimensionless):
 * a cylinder standing on its face (axis along n) has no lowest rim point, and without a rule
 * its rim points would turn with the rounding of its tilt. The bias acts only at tilts below
 * it (b - sin th along x for sin th < b, none above: a cylinder on its side or tilted further
 * takes its exact lowest points); there it moves the chosen point off the lowest one by at
 * most r b in height. The rounding of (a.n) a - n turns the direction by about eps / b: in
 * float (eps 6e-8) b = 1e-5 let a standing cylinder's rim points wander while it landed
 * (65 um sideways, 3.4e-4 m/s, over its first second), so float takes 1e-3. */
#ifdef HS_REAL_FLOAT
#define CT_CYL_BIAS HS_R(1e-3)
#else
#define CT_CYL_BIAS HS_R(1e-5)
#endif

/* The four points of cylinder (S, F) (radius r = size[0], half length l = size[1] along its
 * frame's z axis a) that can touch a surface of normal n (n pointing from that surface towards
 * the cylinder): with w the unit rim direction furthest along -n, w ~ -(n - (a.n) a) biased
 * along the frame's x axis below a tilt of CT_CYL_BIAS, and u = a x w,
 *     v0 = c + l a + r w,  v1 = c - l a + r w        (the rim points furthest along -n at each
 *                                                     end: the ends of the line a cylinder on its
 *                                                     side touches along)
 *     v2, v3 = c + s l a + r (-w/2 +- (sqrt 3 / 2) u) (on the end s = -sign(a.n) turned towards
 *                                                     the surface, 120 degrees from v_s: with it
 *                                                     the rim triangle a cylinder stands on)
 * v0 and v1 keep their ends whatever the tilt (a cylinder on its side is a tie of the ends). */
static void cyl_rim(const hs_mb_shape *S, const ct_frame *F, const hs_real *n, hs_real (*v)[3])
{
    const hs_real *a = F->A[2];
    const hs_real an = mb_dot3(a, n), r = S->size[0], l = S->size[1];
    hs_real w[3], u[3];
    for (int i = 0; i < 3; ++i) {
        w[i] = an * a[i] - n[i];
    }
    const hs_real lp = hs_sqrt(mb_dot3(w, w));
    const hs_real b = (lp < CT_CYL_BIAS) ? (CT_CYL_BIAS - lp) : HS_R(0.0);
    for (int i = 0; i < 3; ++i) {
        w[i] += b * F->A[0][i];
    }
    const hs_real lw = hs_sqrt(mb_dot3(w, w));
    for (int i = 0; i < 3; ++i) {
        w[i] = (lw > HS_R(1e-30)) ? (w[i] / lw) : F->A[0][i];
    }
    /* u = a x w (written out: cppcheck's cross-unit check misreads cross3 on this w) */
    u[0] = a[1] * w[2] - a[2] * w[1];
    u[1] = a[2] * w[0] - a[0] * w[2];
    u[2] = a[0] * w[1] - a[1] * w[0];
    const hs_real s = (an > HS_R(0.0)) ? HS_R(-1.0) : HS_R(1.0);
    const hs_real c3 = HS_R(0.86602540378443865);
    for (int i = 0; i < 3; ++i) {
        const hs_real e = F->c[i] + s * l * a[i] - HS_R(0.5) * r * w[i];
        v[0][i] = F->c[i] + l * a[i] + r * w[i];
        v[1][i] = F->c[i] - l * a[i] + r * w[i];
        v[2][i] = e + c3 * r * u[i];
        v[3][i] = e - c3 * r * u[i];
    }
}

/* cylinder a on the plane (pp, n): its four rim points (cyl_rim), each against the plane */
static void cyl_plane(const hs_mb_shape *A, const ct_frame *Fa, const hs_real *pp, const hs_real *n, ct_pt *P)
{
    hs_real v[4][3];
    cyl_rim(A, Fa, n, v);
    for (int m = 0; m < 4; ++m) {
        pt_plane(v[m], pp, n, HS_R(0.0), &P[m]);
    }
}

/* Point q (ground frame, on b) against cylinder a (S, F): the cylinder's surface point nearest
 * q into P->pa, q into P->pb, the signed distance into P->phi (negative: q inside) and the
 * normal from q's body towards the cylinder into P->n. With t = (q - c) . a, the radial part rv = (q - c) - t a,
 * rho = |rv|: beside the side (|t| <= l) rho - r along -rv; beyond a face (rho <= r) |t| - l
 * along -sign(t) a; beyond the rim edge the distance to the rim point c + sign(t) l a + r rv /
 * rho; inside the larger (nearer) of rho - r and |t| - l. */
static void pt_cyl(const hs_real *q, const hs_mb_shape *S, const ct_frame *F, ct_pt *P)
{
    const hs_real *a = F->A[2];
    const hs_real r = S->size[0], l = S->size[1];
    hs_real d[3], rv[3], e[3], o[3];
    for (int i = 0; i < 3; ++i) {
        d[i] = q[i] - F->c[i];
    }
    const hs_real t = mb_dot3(d, a);
    for (int i = 0; i < 3; ++i) {
        rv[i] = d[i] - t * a[i];
    }
    const hs_real rho = hs_sqrt(mb_dot3(rv, rv)), st = (t >= HS_R(0.0)) ? HS_R(1.0) : HS_R(-1.0);
    const hs_real ir = (rho > HS_R(1e-12)) ? (HS_R(1.0) / rho) : HS_R(0.0);
    const hs_real dr = rho - r, da = (st * t) - l;
    /* o: the outward unit normal at the nearest surface point e */
    if ((dr > HS_R(0.0)) && (da > HS_R(0.0))) {
        for (int i = 0; i < 3; ++i) {
            e[i] = F->c[i] + st * l * a[i] + r * ir * rv[i];
            o[i] = q[i] - e[i];
        }
        const hs_real le = hs_sqrt(mb_dot3(o, o));
        for (int i = 0; i < 3; ++i) {
            o[i] /= le;
        }
        P->phi = le;
    } else if ((dr >= da) && (rho > HS_R(1e-12))) {
        for (int i = 0; i < 3; ++i) {
            o[i] = ir * rv[i];
            e[i] = F->c[i] + t * a[i] + r * o[i];
        }
        P->phi = dr;
    } else {
        for (int i = 0; i < 3; ++i) {
            o[i] = st * a[i];
            e[i] = q[i] - da * o[i];
        }
        P->phi = da;
    }
    for (int i = 0; i < 3; ++i) {
        P->n[i] = -o[i];
        P->pa[i] = e[i];
        P->pb[i] = q[i];
    }
}

/* How far (a fraction of the half length) a rim point beyond a box face is moved along the
 * axis into the cylinder before its projection is clamped to the face (cyl_box_face): a rim
 * point lies on its end's plane, so the edge point below it would be as near that end face as
 * the side, and pt_cyl would take the end face's normal for a cylinder whose side rolls over
 * an edge (measured: a cylinder rolling over a table edge lost its support there and sank
 * 0.22 mm into the edge). Moved in, the side is nearer unless the point lies well inside the
 * rim (an end over an edge). */
#define CT_CYL_IN HS_R(1e-3)

/* Cylinder a against box b with box b's face k (side sg) as the reference: the cylinder's
 * four rim points towards that face (cyl_rim); a point over the face's rectangle against the
 * face's plane (exact for a cylinder on its side or on its end on the face), a point beyond it
 * replaced by the face point nearest it (the point CT_CYL_IN l inside its end, projected and
 * clamped to the rectangle: on the edge) against the cylinder (pt_cyl), so a cylinder over an
 * edge pivots on it. */
static void cyl_box_face(const hs_mb_shape *A, const ct_frame *Fa, const hs_mb_shape *B, const ct_frame *Fb, int k,
                         hs_real sg, ct_pt *P)
{
    hs_real n[3], pp[3], v[4][3];
    for (int i = 0; i < 3; ++i) {
        n[i] = sg * Fb->A[k][i];
        pp[i] = Fb->c[i] + sg * B->size[k] * Fb->A[k][i];
    }
    cyl_rim(A, Fa, n, v);
    /* the end each point lies on: v0 at +l, v1 at -l, v2 and v3 on the end turned to the face */
    const hs_real se = (mb_dot3(Fa->A[2], n) > HS_R(0.0)) ? HS_R(-1.0) : HS_R(1.0);
    const hs_real es[4] = {HS_R(1.0), HS_R(-1.0), se, se};
    for (int m = 0; m < 4; ++m) {
        hs_real w[3], l[3];
        int over = 1;
        for (int i = 0; i < 3; ++i) {
            w[i] = v[m][i] - Fb->c[i];
        }
        for (int j = 0; j < 3; ++j) {
            over &= ((j == k) || (hs_abs(mb_dot3(Fb->A[j], w)) <= B->size[j])) ? 1 : 0;
        }
        for (int i = 0; i < 3; ++i) {
            w[i] -= es[m] * CT_CYL_IN * A->size[1] * Fa->A[2][i];
        }
        for (int j = 0; j < 3; ++j) {
            l[j] = (j == k) ? (sg * B->size[k]) : clampr(mb_dot3(Fb->A[j], w), B->size[j]);
        }
        if (over != 0) {
            pt_plane(v[m], pp, n, HS_R(0.0), &P[m]);
        } else {
            hs_real q[3];
            frame_vec(Fb, l, q);
            for (int i = 0; i < 3; ++i) {
                q[i] += Fb->c[i];
            }
            pt_cyl(q, A, Fa, &P[m]);
        }
    }
}

/* Cylinder a against box b with a's end face (the disc of centre cd, normal nr = s a towards
 * b) as the reference: the four corners of b's face turned most towards the disc, each moved
 * along the disc's plane into the disc (radially, when beyond its radius) and along b's face
 * so that it stays on b (box_face's clip with a circle for the rectangle). */
static void cyl_disc_box(const hs_mb_shape *A, const ct_frame *Fa, hs_real s, const hs_mb_shape *B, const ct_frame *Fb,
                         ct_pt *P)
{
    hs_real nr[3], cd[3];
    for (int i = 0; i < 3; ++i) {
        nr[i] = s * Fa->A[2][i];
        cd[i] = Fa->c[i] + s * A->size[1] * Fa->A[2][i];
    }
    hs_real si;
    const int m = ct_face_toward(Fb, nr, &si);
    for (int c = 0; c < 4; ++c) {
        hs_real v[3], w[3], wt[3], sh[3], ni[3];
        face_corner(B, Fb, m, si, c, v);
        for (int i = 0; i < 3; ++i) {
            w[i] = v[i] - cd[i];
        }
        const hs_real h = mb_dot3(w, nr);
        for (int i = 0; i < 3; ++i) {
            wt[i] = w[i] - h * nr[i];
            ni[i] = si * Fb->A[m][i];
        }
        const hs_real rho = hs_sqrt(mb_dot3(wt, wt));
        const hs_real f = (rho > A->size[0]) ? ((A->size[0] / rho) - HS_R(1.0)) : HS_R(0.0);
        for (int i = 0; i < 3; ++i) {
            sh[i] = f * wt[i];
        }
        /* |nr . ni| >= 1/sqrt(3): m is b's face most turned towards nr */
        const hs_real al = (-mb_dot3(sh, ni)) / mb_dot3(nr, ni);
        for (int i = 0; i < 3; ++i) {
            P[c].n[i] = -nr[i];
            P[c].pa[i] = cd[i] + wt[i] + sh[i];
            P[c].pb[i] = v[i] + sh[i] + (al * nr[i]);
        }
        P[c].phi = h + al;
    }
}

/* The support of cylinder (S, F) along unit u: r sqrt(1 - (a.u)^2) + l |a.u| (m). */
static hs_real cyl_support(const hs_mb_shape *S, const ct_frame *F, const hs_real *u)
{
    const hs_real c = mb_dot3(F->A[2], u);
    const hs_real s2 = HS_R(1.0) - c * c;
    return S->size[0] * hs_sqrt((s2 > HS_R(0.0)) ? s2 : HS_R(0.0)) + S->size[1] * hs_abs(c);
}

/* cylinder a against box b by a separating-axis test over b's three face axes and a's axis:
 * the axis of largest separation gives the reference face (b's face: cyl_box_face; a's end:
 * cyl_disc_box); on a near tie (within 1e-3 of the two shapes' summed sizes: a cylinder
 * standing on a face, a box on an end) the larger of the two faces is the reference, so the
 * smaller one's points (its rim, its corners) are the ones that touch. */
static void cyl_box(const hs_mb_shape *A, const ct_frame *Fa, const hs_mb_shape *B, const ct_frame *Fb, ct_pt *P)
{
    hs_real d[3];
    for (int i = 0; i < 3; ++i) {
        d[i] = Fa->c[i] - Fb->c[i];
    }
    int kb = 0;
    hs_real sb = HS_R(-1e30);
    for (int k = 0; k < 3; ++k) {
        const hs_real x = (hs_abs(mb_dot3(d, Fb->A[k])) - B->size[k]) - cyl_support(A, Fa, Fb->A[k]);
        if (x > sb) {
            sb = x;
            kb = k;
        }
    }
    const hs_real *ax = Fa->A[2];
    const hs_real bs = ((B->size[0] * hs_abs(mb_dot3(Fb->A[0], ax))) + (B->size[1] * hs_abs(mb_dot3(Fb->A[1], ax))))
                       + (B->size[2] * hs_abs(mb_dot3(Fb->A[2], ax)));
    const hs_real da = mb_dot3(d, ax);
    const hs_real sa = (hs_abs(da) - A->size[1]) - bs;
    const hs_real tie = HS_R(1e-3) * (((B->size[0] + B->size[1]) + B->size[2]) + (A->size[0] + A->size[1]));
    const hs_real disc = HS_R(3.14159265358979324) * A->size[0] * A->size[0];
    const hs_real face = HS_R(4.0) * B->size[(kb + 1) % 3] * B->size[(kb + 2) % 3];
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    const int on_disc = ((sa > sb + tie) || ((sa > sb - tie) && (disc > face))) ? 1 : 0;
    if (on_disc != 0) {
        cyl_disc_box(A, Fa, (da >= HS_R(0.0)) ? HS_R(-1.0) : HS_R(1.0), B, Fb, P);
    } else {
        const hs_real sg = (mb_dot3(d, Fb->A[kb]) >= HS_R(0.0)) ? HS_R(1.0) : HS_R(-1.0);
        cyl_box_face(A, Fa, B, Fb, kb, sg, P);
    }
}

/* separations of boxes a and b along each box's face axes (negative: overlap): sa[k] along
 * a's axis k, sb[k] along b's; the axes' products C_kj = A_k . B_j once for all six */
static void box_seps(const hs_mb_shape *A, const ct_frame *Fa, const hs_mb_shape *B, const ct_frame *Fb, hs_real *sa,
                     hs_real *sb)
{
    hs_real d[3], C[3][3];
    for (int i = 0; i < 3; ++i) {
        d[i] = Fa->c[i] - Fb->c[i];
    }
    for (int k = 0; k < 3; ++k) {
        for (int j = 0; j < 3; ++j) {
            C[k][j] = hs_abs(mb_dot3(Fa->A[k], Fb->A[j]));
        }
    }
    for (int k = 0; k < 3; ++k) {
        /* along a's axis k: a's extent is its half size there, b's its projection */
        sa[k] = ((hs_abs(mb_dot3(d, Fa->A[k])) - A->size[k])
                 - (((B->size[0] * C[k][0]) + (B->size[1] * C[k][1])) + (B->size[2] * C[k][2])));
        sb[k] = ((hs_abs(mb_dot3(d, Fb->A[k]))
                  - (((A->size[0] * C[0][k]) + (A->size[1] * C[1][k])) + (A->size[2] * C[2][k])))
                 - B->size[k]);
    }
}

/* An incident corner beyond the reference face by at most this (m) stays where it is: rounding
 * of coincident edges (1e-17 m on 0.1 m boxes), far below any contact's rest depth. */
#define CT_OVERHANG HS_R(1e-12)

/* box I's incident face against reference box R's face k: 4 points; flip = 1 when R is shape a */
static void box_face(const hs_mb_shape *R, const ct_frame *Fr, int k, const hs_mb_shape *I, const ct_frame *Fi,
                     int flip, ct_pt *P)
{
    hs_real d[3], nr[3];
    for (int i = 0; i < 3; ++i) {
        d[i] = Fi->c[i] - Fr->c[i];
    }
    const hs_real sr = (mb_dot3(d, Fr->A[k]) >= HS_R(0.0)) ? HS_R(1.0) : HS_R(-1.0);
    for (int i = 0; i < 3; ++i) {
        nr[i] = sr * Fr->A[k][i];
    }
    hs_real si;
    const int m = ct_face_toward(Fi, nr, &si);
    for (int c = 0; c < 4; ++c) {
        hs_real v[3], w[3], lr[3], pr[3];
        face_corner(I, Fi, m, si, c, v);
        for (int i = 0; i < 3; ++i) {
            w[i] = v[i] - Fr->c[i];
        }
        /* the vertex on the reference face, clipped to its rectangle; a vertex outside it (an
         * incident face that overhangs) moves with it along the reference face, staying on the
         * incident face's plane (ni), so the point acts on both bodies at one place: a corner
         * beyond the reference face would otherwise stand on that face's plane extended */
        hs_real sh[3] = {HS_R(0.0), HS_R(0.0), HS_R(0.0)}, ni[3];
        for (int i = 0; i < 3; ++i) {
            const hs_real x = mb_dot3(Fr->A[i], w), h = R->size[i];
            lr[i] = (x > h) ? h : ((x < -h) ? -h : x);
            /* (a rounding overhang, below CT_OVERHANG, does not move it: mirror corners of a
             * centred stack stay mirror points to the bit) */
            const hs_real t = ((i == k) || (hs_abs(lr[i] - x) <= CT_OVERHANG)) ? HS_R(0.0) : (lr[i] - x);
            for (int j = 0; j < 3; ++j) {
                sh[j] += t * Fr->A[i][j];
            }
            ni[i] = si * Fi->A[m][i];
        }
        /* |nr . ni| >= 1/sqrt(3): m is I's face most turned towards nr */
        const hs_real al = (-mb_dot3(sh, ni)) / mb_dot3(nr, ni);
        for (int i = 0; i < 3; ++i) {
            v[i] += sh[i] + (al * nr[i]);
        }
        lr[k] = sr * R->size[k];
        frame_vec(Fr, lr, pr);
        for (int i = 0; i < 3; ++i) {
            pr[i] += Fr->c[i];
        }
        const hs_real phi = (mb_dot3(w, nr) - R->size[k]) + al;
        const hs_real sg = (flip != 0) ? HS_R(-1.0) : HS_R(1.0);
        for (int i = 0; i < 3; ++i) {
            P[c].n[i] = sg * nr[i];
            P[c].pa[i] = (flip != 0) ? pr[i] : v[i];
            P[c].pb[i] = (flip != 0) ? v[i] : pr[i];
        }
        P[c].phi = phi;
    }
}

/* The edge-edge axes of the separating-axis test: L = A_i x B_j for the 9 pairs of edge
 * directions, the separation (|d . L| - ra - rb) / |L| along each (ra, rb the boxes' projected
 * half extents), the largest returned with its pair (*ei, *ej). With R_kj = A_k . B_j and
 * t_k = d . A_k (right-handed axes): A_{i+1} . L = -R_{i+2,j}, A_{i+2} . L = R_{i+1,j},
 * B_{j+1} . L = R_{i,j+2}, B_{j+2} . L = -R_{i,j+1}, |L|^2 = 1 - R_ij^2 (Gottschalk's OBB
 * test). Pairs of edges within 1e-3 rad of parallel have no axis of their own (a face axis
 * covers them) and are skipped: 9 evaluations every step whatever the configuration. */
static hs_real box_edge_sep(const hs_mb_shape *A, const ct_frame *Fa, const hs_mb_shape *B, const ct_frame *Fb,
                            int *ei, int *ej)
{
    hs_real d[3], t[3], R[3][3];
    for (int i = 0; i < 3; ++i) {
        d[i] = Fa->c[i] - Fb->c[i];
    }
    for (int k = 0; k < 3; ++k) {
        t[k] = mb_dot3(d, Fa->A[k]);
        for (int j = 0; j < 3; ++j) {
            R[k][j] = mb_dot3(Fa->A[k], Fb->A[j]);
        }
    }
    hs_real best = HS_R(-1e30);
    *ei = -1;
    *ej = -1;
    for (int i = 0; i < 3; ++i) {
        const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
        for (int j = 0; j < 3; ++j) {
            const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
            const hs_real l2 = HS_R(1.0) - R[i][j] * R[i][j];
            if (!(l2 > HS_R(1e-6))) {
                continue;
            }
            const hs_real ra = A->size[i1] * hs_abs(R[i2][j]) + A->size[i2] * hs_abs(R[i1][j]);
            const hs_real rb = B->size[j1] * hs_abs(R[i][j2]) + B->size[j2] * hs_abs(R[i][j1]);
            const hs_real dl = t[i2] * R[i1][j] - t[i1] * R[i2][j];
            const hs_real s = (hs_abs(dl) - ra - rb) / hs_sqrt(l2);
            if (s > best) {
                best = s;
                *ei = i;
                *ej = j;
            }
        }
    }
    return best;
}

/* The midpoint of the edge of box (S, F) along axis e that lies furthest along sg n (sg = -1:
 * the edge turned against n); a tie (an axis perpendicular to n) takes the + side. */
static void box_edge_mid(const hs_mb_shape *S, const ct_frame *F, int e, const hs_real *n, hs_real sg, hs_real *o)
{
    hs_real l[3];
    for (int k = 0; k < 3; ++k) {
        const hs_real c = sg * mb_dot3(F->A[k], n);
        l[k] = (k == e) ? HS_R(0.0) : ((c >= HS_R(0.0)) ? S->size[k] : -S->size[k]);
    }
    frame_vec(F, l, o);
    for (int i = 0; i < 3; ++i) {
        o[i] += F->c[i];
    }
}

/* Edge-edge contact along L = A_i x B_j: one point, the closest points of a's edge along A_i
 * turned towards b and b's edge along B_j turned towards a (each clamped to its edge), the
 * normal L from b to a, the gap their distance along it; the other slots stay empty. */
static void box_edge(const hs_mb_shape *A, const ct_frame *Fa, const hs_mb_shape *B, const ct_frame *Fb, int i, int j,
                     ct_pt *P)
{
    hs_real n[3], d[3], pa[3], pb[3], w[3];
    cross3(Fa->A[i], Fb->A[j], n);
    for (int k = 0; k < 3; ++k) {
        d[k] = Fa->c[k] - Fb->c[k];
    }
    const hs_real sg = (mb_dot3(d, n) >= HS_R(0.0)) ? HS_R(1.0) : HS_R(-1.0);
    const hs_real il = sg / hs_sqrt(mb_dot3(n, n));
    for (int k = 0; k < 3; ++k) {
        n[k] *= il;
    }
    box_edge_mid(A, Fa, i, n, HS_R(-1.0), pa);
    box_edge_mid(B, Fb, j, n, HS_R(1.0), pb);
    const hs_real *u = Fa->A[i], *v = Fb->A[j];
    for (int k = 0; k < 3; ++k) {
        w[k] = pa[k] - pb[k];
    }
    /* lines pa + s u, pb + t v: (u.u = v.v = 1) 1 - b^2 >= 1e-6 (box_edge_sep's cut) */
    const hs_real b = mb_dot3(u, v), du = mb_dot3(u, w), dv = mb_dot3(v, w);
    const hs_real den = HS_R(1.0) - b * b;
    hs_real s = (b * dv - du) / den, t = (dv - b * du) / den;
    s = (s > A->size[i]) ? A->size[i] : ((s < -A->size[i]) ? -A->size[i] : s);
    t = (t > B->size[j]) ? B->size[j] : ((t < -B->size[j]) ? -B->size[j] : t);
    for (int k = 0; k < 3; ++k) {
        P[0].pa[k] = pa[k] + s * u[k];
        P[0].pb[k] = pb[k] + t * v[k];
        w[k] = P[0].pa[k] - P[0].pb[k];
        P[0].n[k] = n[k];
    }
    P[0].phi = mb_dot3(w, n);
}

/* box-box by the complete separating-axis test (6 face axes, 9 edge-edge axes): the axis of
 * least overlap (largest separation) decides. A face axis gives a reference face (b's on a
 * near tie, so a stack keeps its faces from step to step) and the other box's face 4 points;
 * an edge axis one edge-edge point, chosen only when it separates by more than a face axis
 * plus 1e-4 of the boxes' summed half extents (rounding never flips a face contact to an edge). */
static void box_box(const hs_mb_shape *A, const ct_frame *Fa, const hs_mb_shape *B, const ct_frame *Fb, ct_pt *P)
{
    int ka = 0, kb = 0;
    hs_real sa = HS_R(-1e30), sb = HS_R(-1e30);
    hs_real xs[3], ys[3];
    box_seps(A, Fa, B, Fb, xs, ys);
    for (int i = 0; i < 3; ++i) {
        const hs_real x = xs[i];
        const hs_real y = ys[i];
        if (x > sa) {
            sa = x;
            ka = i;
        }
        if (y > sb) {
            sb = y;
            kb = i;
        }
    }
    int ei, ej;
    const hs_real se = box_edge_sep(A, Fa, B, Fb, &ei, &ej);
    const hs_real sz = (B->size[0] + B->size[1] + B->size[2]);
    const hs_real tie = HS_R(1e-3) * sz;
    const hs_real etie = HS_R(1e-4) * (sz + (A->size[0] + A->size[1] + A->size[2]));
    const hs_real sf = (sa > sb) ? sa : sb;
    if ((ei >= 0) && (se > sf + etie)) {
        box_edge(A, Fa, B, Fb, ei, ej, P);
    } else if (sa > sb + tie) {
        box_face(A, Fa, ka, B, Fb, 1, P);
    } else {
        box_face(B, Fb, kb, A, Fa, 0, P);
    }
}

int hs_mb_ct_pair_slots(hs_mb_shape_kind ka, hs_mb_shape_kind kb)
{
    const hs_mb_shape_kind lo = (ka < kb) ? ka : kb, hi = (ka < kb) ? kb : ka;
    if (ka == HS_MB_SH_PLANE || kb == HS_MB_SH_PLANE) {
        const hs_mb_shape_kind o = (ka == HS_MB_SH_PLANE) ? kb : ka;
        return (o == HS_MB_SH_SPHERE) ? 1 : ((o == HS_MB_SH_CAPSULE) ? 2 : (((o == HS_MB_SH_BOX) || (o == HS_MB_SH_CYLINDER)) ? 4 : 0));
    }
    if ((lo == HS_MB_SH_SPHERE) && (hi == HS_MB_SH_CAPSULE)) {
        return 1;
    }
    if ((lo == HS_MB_SH_BOX) && (hi == HS_MB_SH_CYLINDER)) {
        return 4;
    }
    if ((lo == HS_MB_SH_SPHERE) && (hi == HS_MB_SH_SPHERE)) {
        return 1;
    }
    if ((lo == HS_MB_SH_SPHERE) && (hi == HS_MB_SH_BOX)) {
        return 1;
    }
    if ((lo == HS_MB_SH_BOX) && (hi == HS_MB_SH_BOX)) {
        return 4;
    }
    if (((lo == HS_MB_SH_BOX) && (hi == HS_MB_SH_CAPSULE)) || ((lo == HS_MB_SH_CAPSULE) && (hi == HS_MB_SH_BOX))) {
        return 3;
    }
    if ((lo == HS_MB_SH_CAPSULE) && (hi == HS_MB_SH_CAPSULE)) {
        return 3;
    }
    return 0;
}

/* The points of contact c at q (ns of them), normals from b to a. */
static void contact_points(const hs_mb_model *mb, int c, const hs_real *q, ct_pt *P)
{
    const hs_mb_desc *D = mb->desc;
    const hs_mb_contact *C = &D->contacts[c];
    const hs_mb_shape *A = &D->shapes[C->a], *B = &D->shapes[C->b];
    int flip = 0;
    /* canonical order: the plane second, a sphere, capsule or cylinder before a box, a sphere
     * before a capsule */
    if ((A->kind == HS_MB_SH_PLANE)
        || ((A->kind == HS_MB_SH_BOX)
            && ((B->kind == HS_MB_SH_SPHERE) || (B->kind == HS_MB_SH_CAPSULE) || (B->kind == HS_MB_SH_CYLINDER)))
        || ((A->kind == HS_MB_SH_CAPSULE) && (B->kind == HS_MB_SH_SPHERE))) {
        const hs_mb_shape *t = A;
        A = B;
        B = t;
        flip = 1;
    }
    ct_frame Fa, Fb;
    shape_frame(mb, A, q, &Fa);
    shape_frame(mb, B, q, &Fb);
    const int ns = mb->ct_slots[c];
    for (int i = 0; i < ns; ++i) {
        pt_empty(&P[i]);
    }
    if (B->kind == HS_MB_SH_PLANE) {
        hs_real pp[3], n[3];
        plane_of(B, &Fb, pp, n);
        if (A->kind == HS_MB_SH_SPHERE) {
            pt_plane(Fa.c, pp, n, A->size[0], &P[0]);
        } else if (A->kind == HS_MB_SH_BOX) {
            box_plane(A, &Fa, pp, n, P);
        } else if (A->kind == HS_MB_SH_CYLINDER) {
            cyl_plane(A, &Fa, pp, n, P);
        } else {
            for (int e = 0; e < 2; ++e) {
                hs_real v[3];
                const hs_real sg = (e == 0) ? HS_R(1.0) : HS_R(-1.0);
                for (int i = 0; i < 3; ++i) {
                    v[i] = Fa.c[i] + sg * A->size[1] * Fa.A[2][i];
                }
                pt_plane(v, pp, n, A->size[0], &P[e]);
            }
        }
    } else if ((A->kind == HS_MB_SH_SPHERE) && (B->kind == HS_MB_SH_SPHERE)) {
        sphere_sphere(A->size[0], Fa.c, B->size[0], Fb.c, &P[0]);
    } else if ((A->kind == HS_MB_SH_SPHERE) && (B->kind == HS_MB_SH_BOX)) {
        sphere_box(A->size[0], Fa.c, B, &Fb, &P[0]);
    } else if (A->kind == HS_MB_SH_SPHERE) {
        sphere_capsule(A->size[0], Fa.c, B, &Fb, &P[0]);
    } else if (A->kind == HS_MB_SH_CYLINDER) {
        cyl_box(A, &Fa, B, &Fb, P);
    } else if ((A->kind == HS_MB_SH_CAPSULE) && (B->kind == HS_MB_SH_BOX)) {
        capsule_box(A, &Fa, B, &Fb, P);
    } else if (A->kind == HS_MB_SH_CAPSULE) {
        capsule_capsule(A, &Fa, B, &Fb, P);
    } else {
        box_box(A, &Fa, B, &Fb, P);
    }
    if (flip != 0) {
        for (int k = 0; k < ns; ++k) {
            for (int i = 0; i < 3; ++i) {
                const hs_real t = P[k].pa[i];
                P[k].pa[i] = P[k].pb[i];
                P[k].pb[i] = t;
                P[k].n[i] = -P[k].n[i];
            }
        }
    }
}

/* rows r (0 <= r < nd) of J (nq wide) += sg d[r]^T dr/dq of the body point at ground position p:
 * the point's Jacobian is made once and projected on the nd directions (normal, tangents) */
static void row_point(const hs_mb_model *mb, int body, const hs_real *p, const hs_real (*d)[3], int nd,
                      hs_real sg, const hs_real *q, hs_real *J, int nq)
{
    if (body < 0) {
        return;
    }
    hs_mb_opnd o;
    o.used = 1;
    o.body = body;
    o.dir = 0;
    o.pt = NULL;
    const hs_real *x = &q[mb->qoff[body]];
    hs_real w[3];
    for (int i = 0; i < 3; ++i) {
        w[i] = p[i] - x[i];
        o.s[i] = HS_R(0.0);
    }
    if (mb->desc->bodies[body].kind == HS_MB_SPATIAL) {
        quat_apply(&x[3], 1, w, o.s);
    } else {
        for (int i = 0; i < 3; ++i) {
            o.s[i] = w[i];
        }
    }
    mb_pk k;
    if (mb->desc->bodies[body].kind == HS_MB_SPATIAL) {
        /* a free body's point Jacobian [I, d(R s)/dp] directly (mb_point_kin's spatial case
         * without the position, velocity and acceleration the rows do not need); the identity
         * part projects to sg d itself (the sum below with two zero terms, which leaves the
         * value as it is on a zeroed row) */
        hs_real L[3][4];
        mb_quat_rs_jac(&x[3], o.s, L);
        const int c0 = mb->qoff[body];
        for (int r = 0; r < nd; ++r) {
            hs_real *row = &J[r * nq + c0];
            for (int j = 0; j < 3; ++j) {
                row[j] += sg * d[r][j];
            }
            for (int j = 0; j < 4; ++j) {
                row[3 + j] += sg * (d[r][0] * L[0][j] + d[r][1] * L[1][j] + d[r][2] * L[2][j]);
            }
        }
        return;
    }
    mb_point_kin(mb, &o, HS_R(0.0), q, NULL, &k);
    for (int r = 0; r < nd; ++r) {
        hs_real *row = &J[r * nq + mb->qoff[body]];
        for (int j = 0; j < k.nb; ++j) {
            row[j] += sg * (d[r][0] * k.J[0][j] + d[r][1] * k.J[1][j] + d[r][2] * k.J[2][j]);
        }
    }
}

/* two unit tangents of unit n, chosen by a fixed rule (x first, y when n is near x) */
static void tangents(const hs_real *n, hs_real *t1, hs_real *t2)
{
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    const int ax = (hs_abs(n[0]) < HS_R(0.57)) ? 0 : 1;
    for (int i = 0; i < 3; ++i) {
        t1[i] = mb_ex[ax][i] - n[ax] * n[i];
    }
    const hs_real l = hs_sqrt(mb_dot3(t1, t1));
    const hs_real il = (l > HS_R(1e-12)) ? (HS_R(1.0) / l) : HS_R(0.0);
    for (int i = 0; i < 3; ++i) {
        t1[i] *= il;
    }
    cross3(n, t1, t2);
}

/* The directions of a slot's rows: its normal and, with friction (per = 3), the tangents; the
 * one rule for unilateral() and ct_points(), so that the two forms cannot disagree. */
static void slot_dirs(const ct_pt *P, int per, hs_real (*dirs)[3])
{
    for (int i = 0; i < 3; ++i) {
        dirs[0][i] = P->n[i];
        dirs[1][i] = HS_R(0.0);
        dirs[2][i] = HS_R(0.0);
    }
    if (per == 3) {
        tangents(P->n, dirs[1], dirs[2]);
    }
}

/* The lever arm o = p - x of ground point p about body's centre x (0 for the ground). */
static void lever(const hs_mb_model *mb, int body, const hs_real *p, const hs_real *q, hs_real *o)
{
    for (int i = 0; i < 3; ++i) {
        o[i] = (body >= 0) ? (p[i] - q[mb->qoff[body] + i]) : HS_R(0.0);
    }
}

int hs_mb_fn_ct_points(const hs_model *m, hs_real t, const hs_real *q, hs_real *geo)
{
    const hs_mb_model *mb = (const hs_mb_model *)m->desc;
    const hs_mb_desc *D = mb->desc;
    (void)t;
    int np = 0;
    for (int c = 0; c < D->ncontacts; ++c) {
        ct_pt P[4];
        contact_points(mb, c, q, P);
        const hs_mb_contact *C = &D->contacts[c];
        const int ba = D->shapes[C->a].body, bb = D->shapes[C->b].body;
        /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
        const int per = (C->mu > HS_R(0.0)) ? 3 : 1;
        for (int k = 0; k < mb->ct_slots[c]; ++k) {
            hs_real dirs[3][3];
            hs_real *g = &geo[np * HS_CT_PT];
            slot_dirs(&P[k], per, dirs);
            lever(mb, ba, P[k].pa, q, &g[HS_CT_PT_RA]);
            lever(mb, bb, P[k].pb, q, &g[HS_CT_PT_RB]);
            for (int i = 0; i < 3; ++i) {
                g[HS_CT_PT_N + i] = dirs[0][i];
                g[HS_CT_PT_T1 + i] = dirs[1][i];
                g[HS_CT_PT_T2 + i] = dirs[2][i];
            }
            g[HS_CT_PT_PHI] = P[k].phi;
            ++np;
        }
    }
    return HS_OK;
}

int hs_mb_fn_unilateral(const hs_model *m, hs_real t, const hs_real *q, hs_real *J, hs_real *phi)
{
    const hs_mb_model *mb = (const hs_mb_model *)m->desc;
    const hs_mb_desc *D = mb->desc;
    const int nq = mb->nq;
    /* each row over its range only: the contact stage reads nothing outside it (hs_model.h) */
    for (int r = 0; r < mb->nk; ++r) {
        const int q0 = (mb->ct_rows[r].q1 != 0) ? mb->ct_rows[r].q0 : 0;
        const int q1 = (mb->ct_rows[r].q1 != 0) ? mb->ct_rows[r].q1 : nq;
        for (int i = (r * nq) + q0; i < (r * nq) + q1; ++i) {
            J[i] = HS_R(0.0);
        }
    }
    for (int c = 0; c < D->ncontacts; ++c) {
        ct_pt P[4];
        contact_points(mb, c, q, P);
        const hs_mb_contact *C = &D->contacts[c];
        const int ba = D->shapes[C->a].body, bb = D->shapes[C->b].body;
        /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
        const int per = (C->mu > HS_R(0.0)) ? 3 : 1;
        for (int k = 0; k < mb->ct_slots[c]; ++k) {
            const int r0 = mb->ct_first[c] + per * k;
            hs_real dirs[3][3];
            slot_dirs(&P[k], per, dirs);
            row_point(mb, ba, P[k].pa, dirs, per, HS_R(1.0), q, &J[r0 * nq], nq);
            row_point(mb, bb, P[k].pb, dirs, per, HS_R(-1.0), q, &J[r0 * nq], nq);
            phi[r0] = P[k].phi;
            if (per == 3) {
                phi[r0 + 1] = HS_R(0.0);
                phi[r0 + 2] = HS_R(0.0);
            }
        }
    }
    /* end stops: the joint's coord and its gradient by central differences over the
     * coordinates of its two bodies (a fixed count of coord evaluations) */
    hs_real x[HS_MB_MAX_NQ];
    for (int i = 0; i < nq; ++i) {
        x[i] = q[i];
    }
    for (int s = 0; s < D->nstops; ++s) {
        const hs_mb_stop *S = &D->stops[s];
        const hs_mb_joint *Jt = &D->joints[S->joint];
        const mb_joint_elem *el = mb_joint_elems[Jt->kind];
        hs_real y = HS_R(0.0);
        int rc = el->coord(mb, S->joint, t, q, &y);
        if (rc != (int)HS_OK) {
            return rc;
        }
        const int r0 = mb->ct_first[D->ncontacts + s];
        hs_real *g = &J[r0 * nq];
        const int bods[2] = {Jt->a.body, Jt->b.body};
        for (int e = 0; e < 2; ++e) {
            const int b = bods[e];
            if ((b < 0) || ((e == 1) && (b == bods[0]))) {
                continue;
            }
            for (int j = mb->qoff[b]; j < mb->qoff[b] + mb->bnq[b]; ++j) {
                const hs_real dq = HS_R(1e-6) * (HS_R(1.0) + hs_abs(q[j]));
                hs_real yp = HS_R(0.0), ym = HS_R(0.0);
                x[j] = q[j] + dq;
                rc = el->coord(mb, S->joint, t, x, &yp);
                x[j] = q[j] - dq;
                rc |= el->coord(mb, S->joint, t, x, &ym);
                x[j] = q[j];
                if (rc != (int)HS_OK) {
                    return HS_E_MODEL;
                }
                g[j] = (yp - ym) / (HS_R(2.0) * dq);
            }
        }
        int r = r0;
        if (S->has_min != 0) {
            phi[r] = y - S->min;
            ++r;
        }
        if (S->has_max != 0) {
            hs_real *gm = &J[r * nq];
            const int q0 = (mb->ct_rows[r].q1 != 0) ? mb->ct_rows[r].q0 : 0;
            const int q1 = (mb->ct_rows[r].q1 != 0) ? mb->ct_rows[r].q1 : nq;
            for (int j = q0; j < q1; ++j) {
                gm[j] = -g[j];
            }
            phi[r] = S->max - y;
        }
    }
    return HS_OK;
}

/* comp[b]: the smallest body index joined to body b by joints (directly or through others) */
static void components(const hs_mb_desc *D, int *comp)
{
    for (int b = 0; b < D->nbodies; ++b) {
        comp[b] = b;
    }
    /* relax to a fixed point: at most nbodies passes (init only) */
    for (int pass = 0; pass < D->nbodies; ++pass) {
        for (int j = 0; j < D->njoints; ++j) {
            const hs_mb_joint *J = &D->joints[j];
            /* every point the kind takes joins its body in */
            const uint32_t keys = mb_joint_elems[J->kind]->keys;
            int bs[4] = {J->a.body, J->b.body, -1, -1};
            if ((keys & MB_J_C) != 0u) {
                bs[2] = J->c.body;
            }
            if ((keys & MB_J_D) != 0u) {
                bs[3] = J->d.body;
            }
            int m = HS_MB_MAX_BODIES;
            for (int k = 0; k < 4; ++k) {
                if ((bs[k] >= 0) && (comp[bs[k]] < m)) {
                    m = comp[bs[k]];
                }
            }
            for (int k = 0; k < 4; ++k) {
                if (bs[k] >= 0) {
                    comp[bs[k]] = m;
                }
            }
        }
    }
}

/* the coordinate range of every body in the components of bodies a and b (either may be ground) */
static void row_span(const hs_mb_model *mb, const int *comp, int a, int b, int *q0, int *q1)
{
    int lo = mb->nq, hi = 0;
    for (int k = 0; k < mb->nb; ++k) {
        const int in = (int)(((a >= 0) && (comp[k] == comp[a])) || ((b >= 0) && (comp[k] == comp[b])));
        if (in != 0) {
            lo = (mb->qoff[k] < lo) ? mb->qoff[k] : lo;
            hi = (mb->qoff[k + 1] > hi) ? mb->qoff[k + 1] : hi;
        }
    }
    *q0 = (hi > lo) ? lo : 0;
    *q1 = (hi > lo) ? hi : 0;
}

/* The unilateral rows over HS_MB_MAX_CT: need counts the rows so far with the one that did not fit;
 * the later contacts (from c0, valid shape pairs) and stops (from s0) add theirs. */
static int ct_over(hs_mb_model *mb, int need, int c0, int s0)
{
    const hs_mb_desc *D = mb->desc;
    int n = need;
    for (int c = c0; c < D->ncontacts; ++c) {
        const hs_mb_contact *C = &D->contacts[c];
        if ((C->a < 0) || (C->a >= D->nshapes) || (C->b < 0) || (C->b >= D->nshapes)) { continue; }
        /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
        const int per = (C->mu > HS_R(0.0)) ? 3 : 1;
        n += per * hs_mb_ct_pair_slots(D->shapes[C->a].kind, D->shapes[C->b].kind);
    }
    for (int s = s0; s < D->nstops; ++s) {
        if (D->stops[s].has_min != 0) { ++n; }
        if (D->stops[s].has_max != 0) { ++n; }
    }
    return mb_lim_fail(mb, "unilateral rows (contact points x rows per point)", n, 0, "HS_MB_MAX_CT", HS_MB_MAX_CT, "HS_MB_MAX_CT");
}

/* Contact c's checks and rows (a normal row per slot, two friction rows each when mu > 0),
 * from row *nk on. */
static int ct_contact(hs_mb_model *mb, int c, int *nk)
{
    const hs_mb_desc *D = mb->desc;
    const hs_mb_contact *C = &D->contacts[c];
    if ((C->a < 0) || (C->a >= D->nshapes) || (C->b < 0) || (C->b >= D->nshapes)) {
        mb->bad_why = "no such shape";
        return HS_E_MODEL_PARAM;
    }
    const hs_mb_shape *A = &D->shapes[C->a], *B = &D->shapes[C->b];
    const int ns = hs_mb_ct_pair_slots(A->kind, B->kind);
    if (ns == 0) {
        mb->bad_why = HS_MB_CT_PAIRS_MSG;
        return HS_E_MODEL_PARAM;
    }
    if (((A->body < 0) && (B->body < 0)) || (A->body == B->body)) {
        mb->bad_why = "a contact needs two different bodies (one may be ground)";
        return HS_E_MODEL_PARAM;
    }
    if (!(C->mu >= HS_R(0.0)) || !(C->e >= HS_R(0.0)) || !(C->e <= HS_R(1.0))) {
        mb->bad_why = "mu >= 0 and e in [0, 1] required";
        return HS_E_MODEL_PARAM;
    }
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    const int per = (C->mu > HS_R(0.0)) ? 3 : 1;
    if (*nk + ns * per > HS_MB_MAX_CT) {
        return ct_over(mb, *nk + ns * per, c + 1, 0);
    }
    mb->ct_first[c] = *nk;
    mb->ct_slots[c] = ns;
    for (int k = 0; k < ns; ++k) {
        /* the slot as a contact point (ct_points(); rows in the same order) */
        hs_ct_point *Pt = &mb->ct_pts[mb->ct_npts];
        Pt->row = *nk;
        Pt->nrow = per;
        Pt->a = A->body;
        Pt->b = B->body;
        ++mb->ct_npts;
        hs_ct_row *R = &mb->ct_rows[*nk];
        R->kind = HS_CT_NORMAL;
        R->normal = *nk;
        R->ngroup = 1;
        R->stride = 1;
        R->box = 0;
        R->mu = HS_R(0.0);
        R->e = C->e;
        const int n0 = *nk;
        ++*nk;
        for (int f = 1; f < per; ++f) {
            R = &mb->ct_rows[*nk];
            R->kind = HS_CT_FRICTION;
            R->normal = n0;
            R->ngroup = 1;
            R->stride = per;
            R->box = C->box;
            R->mu = C->mu;
            R->e = HS_R(0.0);
            ++*nk;
        }
    }
    return HS_OK;
}

/* End stop s's checks and rows (one normal row per bound), from row *nk on. */
static int ct_stop(hs_mb_model *mb, int s, int *nk)
{
    const hs_mb_desc *D = mb->desc;
    const hs_mb_stop *S = &D->stops[s];
    if ((S->joint < 0) || (S->joint >= D->njoints)) {
        mb->bad_why = "no such joint";
        return HS_E_MODEL_PARAM;
    }
    if (mb_joint_elems[D->joints[S->joint].kind]->stop != MB_YES) {
        mb->bad_why = "an end stop needs a revolute or prismatic joint";
        return HS_E_MODEL_PARAM;
    }
    if (((S->has_min == 0) && (S->has_max == 0)) || ((S->has_min != 0) && (S->has_max != 0) && !(S->min < S->max))
        || !(S->e >= HS_R(0.0)) || !(S->e <= HS_R(1.0))) {
        mb->bad_why = "an end stop needs min= and/or max= (min < max) and e in [0, 1]";
        return HS_E_MODEL_PARAM;
    }
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    const int n = ((S->has_min != 0) ? 1 : 0) + ((S->has_max != 0) ? 1 : 0);
    if (*nk + n > HS_MB_MAX_CT) {
        return ct_over(mb, *nk + n, D->ncontacts, s + 1);
    }
    mb->ct_first[D->ncontacts + s] = *nk;
    for (int i = 0; i < n; ++i) {
        hs_ct_row *R = &mb->ct_rows[*nk];
        R->kind = HS_CT_NORMAL;
        R->normal = *nk;
        R->ngroup = 1;
        R->stride = 1;
        R->box = 0;
        R->mu = HS_R(0.0);
        R->e = S->e;
        ++*nk;
    }
    return HS_OK;
}

/* Each contact's and stop's rows' coordinate span (q0, q1): the bodies it joins with the
 * bodies joints tie to them. */
static void ct_spans(hs_mb_model *mb)
{
    const hs_mb_desc *D = mb->desc;
    int comp[HS_MB_MAX_BODIES];
    components(D, comp);
    for (int e = 0; e < D->ncontacts + D->nstops; ++e) {
        int a, b;
        if (e < D->ncontacts) {
            a = D->shapes[D->contacts[e].a].body;
            b = D->shapes[D->contacts[e].b].body;
        } else {
            const hs_mb_joint *J = &D->joints[D->stops[e - D->ncontacts].joint];
            a = J->a.body;
            b = J->b.body;
        }
        int q0, q1;
        row_span(mb, comp, a, b, &q0, &q1);
        for (int r = mb->ct_first[e]; r < mb->ct_first[e + 1]; ++r) {
            mb->ct_rows[r].q0 = q0;
            mb->ct_rows[r].q1 = q1;
        }
    }
}

hs_status hs_mb_ct_compile(hs_mb_model *mb, int *bad)
{
    const hs_mb_desc *D = mb->desc;
    int nk = 0;
    mb->nk = 0;
    mb->ct_npts = 0;
    if (D->ncontacts > HS_MB_MAX_CONTACTS) {
        return mb_lim_fail(mb, "contacts", D->ncontacts, 0, "HS_MB_MAX_CONTACTS", HS_MB_MAX_CONTACTS, "HS_MB_MAX_CONTACTS");
    }
    if (D->nstops > HS_MB_MAX_STOPS) {
        return mb_lim_fail(mb, "end stops", D->nstops, 0, "HS_MB_MAX_STOPS", HS_MB_MAX_STOPS, "HS_MB_MAX_STOPS");
    }
    if (D->nshapes > HS_MB_MAX_SHAPES) {
        return mb_lim_fail(mb, "shapes", D->nshapes, 0, "HS_MB_MAX_SHAPES", HS_MB_MAX_SHAPES, "HS_MB_MAX_SHAPES");
    }
    if ((D->ncontacts < 0) || (D->nstops < 0) || (D->nshapes < 0)) {
        return HS_E_SIZE;
    }
    if ((D->ncontacts > 0) && (D->dim != 3)) {
        *bad = 0;
        mb->bad_why = "contacts need a 3-D model (dim=3)";
        return HS_E_MODEL_PARAM;
    }
    for (int c = 0; c < D->ncontacts; ++c) {
        *bad = c;
        const int rc = ct_contact(mb, c, &nk);
        if (rc != (int)HS_OK) { return rc; }
    }
    for (int s = 0; s < D->nstops; ++s) {
        *bad = 100 + s;
        const int rc = ct_stop(mb, s, &nk);
        if (rc != (int)HS_OK) { return rc; }
    }
    mb->ct_first[D->ncontacts + D->nstops] = nk;
    mb->nk = nk;
    ct_spans(mb);
    *bad = -1;
    return HS_OK;
}
