/* hs_mb_kinds.h - the element kinds' rows: the one place a joint or force element kind is
 * written down next to its file (model/README.md "Adding an element kind"). Only lists, no
 * declarations: each is expanded where its entity is declared or defined, so every
 * declaration stays visible once (MISRA 8.4, 8.5) and no name is repeated by hand:
 *   the hs_mb_joint_kind / hs_mb_force_kind enums (model/mb/hs_mb.h), the externs of the rows
 *   (model/mb/hs_mb_int.h) and the tables indexed by kind (model/elements/hs_mb_elem.c),
 *   and the side table of the kinds with auxiliary states (mb_force_states_of).
 * K(id, value, row) per kind:
 *   id, value  the enumerator and its number, = the row's place in the list (the tables are
 *              indexed by it). Numbers are stable (generated code names the constants; the
 *              fuzz corpus and test/fuzz/mbfile.dict use the keywords): a new kind is appended
 *              with the next number
 *   row        its element row (mb_joint_elem / mb_force_elem), defined in its own file
 *              model/elements/hs_mb_jt_<name>.c / hs_mb_el_<name>.c; the row declares the
 *              keyword, the keys and every property the layer reads (hs_mb_int.h)
 * F(id, value, row, st) per force kind: id, value and row as for K, and
 *   st         1 when the kind has auxiliary first-order states: its file then also defines
 *              `const mb_force_states <row>_states` (state count, zdot, the evaluator with
 *              states), which the side table by kind points to; 0 for a kind without states
 *              (its side-table entry is NULL, so the force evaluation reads no row to skip it)
 * test/mb/test_mb_elem.c (kind lists) walks the expansions against each other. */
#ifndef HS_MB_KINDS_H
#define HS_MB_KINDS_H

/* Joint types; the rows each adds are listed (2-D models have no z rows). */
/* MISRA Ref 20.7.1 [X-macro parameter is an identifier] */
#define HS_MB_JOINT_LIST(K) \
    /* points a, b coincide (2 rows in 2-D); spatial hinge: 3 rows plus 2 rows keeping axis \
     * (body a frame) parallel to axis (body b frame) */ \
    K(HS_MB_REVOLUTE, 0, mb_jt_revolute) \
    /* points a, b coincide (3 rows; 2 in 2-D) */ \
    K(HS_MB_SPHERICAL, 1, mb_jt_spherical) \
    /* relative rotation locked and a - b moves along axis (body b frame): 2-D 2 rows, spatial 5 */ \
    K(HS_MB_PRISMATIC, 2, mb_jt_prismatic) \
    /* a and b coincide, rotation locked: 2-D 3 rows, spatial 6 */ \
    K(HS_MB_FIXED, 3, mb_jt_fixed) \
    /* |a - b|^2 = length^2 (massless rod): 1 row */ \
    K(HS_MB_DISTANCE, 4, mb_jt_distance) \
    /* point a on the ground quadric r^T A r + b.r + c = 0 (a circle, an ellipse, a parabola, a \
     * sphere, a plane): 1 row */ \
    K(HS_MB_CURVE, 5, mb_jt_curve) \
    /* prescribes a coordinate: coord = 0 angle theta_a - theta_b (planar), coord = 1 \
     * axis . (a - b) (axis in ground frame); = f(t): 1 row */ \
    K(HS_MB_DRIVER, 6, mb_jt_driver) \
    /* (a - b) . (c - d) = f(t): 1 row (the car axle's rheonomic row) */ \
    K(HS_MB_PERPENDICULAR, 7, mb_jt_perpendicular)

/* Force elements (parse keys, validation, forces with analytic Jacobians, potential, input
 * names, auxiliary states). */
/* MISRA Ref 20.7.1 [X-macro parameter is an identifier] */
#define HS_MB_FORCE_LIST(F) \
    /* point to point spring-damper: F = -(k (l - l0) + c l') e on a, +F on b */ \
    F(HS_MB_SPRING, 0, mb_el_spring, 0) \
    /* tau = -k (th - th0) - c th' on a, -tau on b; planar th = th_a - th_b; spatial th = the \
     * hinge angle about axis (a frame) / axis_b (b frame), see "Spatial hinge angle" in hs_mb.h */ \
    F(HS_MB_ROTSPRING, 1, mb_el_rotspring, 0) \
    /* F = -k (a - b) - c (a - b)' on a; rotation kr, cr: planar like ROTSPRING with th0 = 0; \
     * spatial V = 1/2 kr |phi|^2, D = 1/2 cr |phi'|^2 with phi = 2 vec(conj(p_b) p_a) (frames \
     * aligned at rest) */ \
    F(HS_MB_BUSHING, 2, mb_el_bushing, 0) \
    /* force (ground frame) on point a = scale * inputs in0.. (dim of the model), or \
     * scale * in0 * axis with one input when axis is set */ \
    F(HS_MB_EXTFORCE, 3, mb_el_extforce, 0) \
    /* torque on body a: planar scale * in0 about z; spatial 3 inputs, ground frame */ \
    F(HS_MB_EXTTORQUE, 4, mb_el_exttorque, 0) \
    /* joint motor: scale * in0 on body a, the opposite on b: planar about z, spatial about the \
     * hinge axis (generalized force tau d(th)/dq) */ \
    F(HS_MB_MOTOR, 5, mb_el_motor, 0) \
    /* constant force v (N, ground frame) on point a */ \
    F(HS_MB_CONSTFORCE, 6, mb_el_constforce, 0) \
    /* constant torque on body a: planar v[2] about z, spatial v (N m, ground frame) */ \
    F(HS_MB_CONSTTORQUE, 7, mb_el_consttorque, 0) \
    /* force tab(t) * axis (N, ground frame unit axis) on point a; tab piecewise linear in t, \
     * held at its ends */ \
    F(HS_MB_TABLEFORCE, 8, mb_el_tableforce, 0) \
    /* torque tab(t) on body a: planar about z, spatial about the unit ground axis */ \
    F(HS_MB_TABLETORQUE, 9, mb_el_tabletorque, 0) \
    /* scale * in0 (N) along e = (a - b)/|a - b| on a, -that on b: positive pushes the points \
     * apart (an actuator between two bodies) */ \
    F(HS_MB_INFORCE, 10, mb_el_inforce, 0) \
    /* spring-damper along the unit ground axis n between point a and the anchor b + z n, \
     * z = scale * in0 (a road height input, held over the step, so z' = 0): \
     * F = -(k (n.(a - b) - z - l0) + c n.(a - b)') n on a */ \
    F(HS_MB_ROADSPRING, 11, mb_el_roadspring, 0) \
    /* TMeasy tire of spatial wheel body a on the road (model/TIRE.md): inputs in0, in0 + 1 \
     * drive and brake torque (N m), in1, in2 steering angle and road height; brake and drive \
     * react on body b; 3 auxiliary states */ \
    F(HS_MB_TIRE, 12, mb_el_tire, 1) \
    /* aerodynamic drag -1/2 rho CdA |v| v and lift 1/2 rho ClA |v|^2 n at point a in still \
     * air (v its ground-frame velocity, n the unit lift axis) */ \
    F(HS_MB_AERO, 13, mb_el_aero, 0) \
    /* engine torque map T(w, p) bilinear over speeds x pedal levels on the spin w of body a \
     * against b (pedal input p in [0, 1]; held below the speeds, 0 above them) */ \
    F(HS_MB_ENGINE, 14, mb_el_engine, 0) \
    /* gear input -> ratio i (0 neutral); T = c (w_a - i w_out): -T on a, +i T on out */ \
    F(HS_MB_GEARBOX, 15, mb_el_gearbox, 0) \
    /* open differential: T = c (w_a - (w_l + w_r)/2): -T on the carrier a, +T/2 per wheel */ \
    F(HS_MB_DIFF, 16, mb_el_diff, 0) \
    /* locking differential: the open one plus T_L = cr (w_l - w_r) from left to right */ \
    F(HS_MB_LOCKDIFF, 17, mb_el_lockdiff, 0) \
    /* dry clutch: capacity C = scale e (engagement input e in [0, 1]), slip s = w_a - w_out, \
     * T = C z / sqrt(1 + z^2) with z = c s / C: -T on a, +T on out (both against b) */ \
    F(HS_MB_CLUTCH, 18, mb_el_clutch, 0) \
    /* steering spring-damper of a wheel a on its carrier b about the kingpin axis_b (b frame): \
     * tau = -k (th - th0 - scale in0) - c th', th the heading of a's axle (axis) about the \
     * kingpin from the same components in b's frame (a's spin about its axle not seen) */ \
    F(HS_MB_KINGPIN, 19, mb_el_kingpin, 0)


#endif
