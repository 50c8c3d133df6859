/* hs_mb_elem.c - the force element table: one row per hs_mb_force_kind, in enum order. The
 * parser, the compiler, the evaluator and the generator read these tables; test/fuzz/mbfile.dict
 * lists their keywords. A new element: its file model/elements/hs_mb_el_<name>.c (force) or
 * model/elements/hs_mb_jt_<name>.c (joint), its declaration in hs_mb_int.h, one row here. Its
 * row in its own file declares every property the layer reads (hs_mb_int.h; mb-test refuses a
 * row that leaves one undeclared). */
#include "hs_mb_int.h"

/* MISRA Ref 9.3.1 [every element listed] */
const mb_force_elem *const mb_force_elems[HS_MB_FORCE_KINDS] = {
    &mb_el_spring, &mb_el_rotspring, &mb_el_bushing, &mb_el_extforce, &mb_el_exttorque, &mb_el_motor,
    &mb_el_constforce, &mb_el_consttorque, &mb_el_tableforce, &mb_el_tabletorque, &mb_el_inforce,
    &mb_el_roadspring, &mb_el_tire};

/* only the kinds with states, by designated initializers (the others stay NULL) */
const mb_force_states *const mb_force_states_of[HS_MB_FORCE_KINDS] = {[HS_MB_TIRE] = &mb_st_tire};

/* MISRA Ref 9.3.1 [every element listed] */
const mb_joint_elem *const mb_joint_elems[HS_MB_JOINT_KINDS] = {
    &mb_jt_revolute, &mb_jt_spherical, &mb_jt_prismatic, &mb_jt_fixed, &mb_jt_distance, &mb_jt_curve,
    &mb_jt_driver, &mb_jt_perpendicular};
