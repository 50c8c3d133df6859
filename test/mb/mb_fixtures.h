/* mb_fixtures.h - two descriptions that use every body kind, joint and force element of the
 * multibody layer (model/mb/hs_mb.h), written as the C-struct route with designated initializers.
 * The configurations are generic (not consistent): the derivative checks only need smooth
 * functions at random states. */
#ifndef MB_FIXTURES_H
#define MB_FIXTURES_H
#include "hs_mb.h"

static const hs_mb_body fx2_bodies[] = {
    {.name = "crank", .kind = HS_MB_PLANAR, .mass = 1.5, .inertia = {0, 0, 0.2}, .pos = {0.3, 0.1}, .rot = {0.4}},
    {.name = "rod", .kind = HS_MB_PLANAR, .mass = 2.0, .inertia = {0, 0, 0.5}, .pos = {1.2, -0.3}, .rot = {-0.2}},
    {.name = "bead", .kind = HS_MB_POINT2, .mass = 0.7, .pos = {0.9, 0.5}},
    {.name = "slider", .kind = HS_MB_PLANAR, .mass = 1.1, .inertia = {0, 0, 0.1}, .pos = {2.0, 0.05}, .rot = {0.1}},
};
static const hs_mb_joint fx2_joints[] = {
    {.name = "pin", .kind = HS_MB_REVOLUTE, .a = {.body = 0, .s = {-0.3, 0.02}}, .b = {.body = HS_MB_GROUND, .s = {0.01, 0.0}}},
    {.name = "pin2", .kind = HS_MB_REVOLUTE, .a = {.body = 1, .s = {-0.5, 0.1}}, .b = {.body = 0, .s = {0.3, -0.05}}},
    {.name = "slide", .kind = HS_MB_PRISMATIC, .a = {.body = 3}, .b = {.body = HS_MB_GROUND}, .axis = {0.6, 0.8}},
    {.name = "rod2", .kind = HS_MB_DISTANCE, .a = {.body = 2}, .b = {.body = 1, .s = {0.4, 0.2}}, .length = 0.8},
    {.name = "wire", .kind = HS_MB_CURVE, .a = {.body = 2}, .b = {.body = HS_MB_GROUND},
     .quad = {.A = {0.5, 2.0, 0, 0.3}, .b = {0.1, -1.0}, .c = -0.2}},
    {.name = "drive", .kind = HS_MB_DRIVER, .coord = 0, .a = {.body = 1}, .b = {.body = 0}, .f = {.a = 0.1, .b = 0.7, .c = 0.2, .w = 3.0, .phi = 0.4}},
    {.name = "drivex", .kind = HS_MB_DRIVER, .coord = 1, .a = {.body = 3, .s = {0.1, 0.2}}, .b = {.body = HS_MB_GROUND}, .axis = {1, 0}, .f = {.a = 2.0, .c = 0.3, .w = 2.0}},
    {.name = "perp", .kind = HS_MB_PERPENDICULAR, .a = {.body = 2}, .b = {.body = HS_MB_GROUND},
     .c = {.body = HS_MB_GROUND, .moving = 2, .radius = 1.0, .f = {{0}, {.c = 0.1, .w = 10.0}}},
     .d = {.body = 1, .s = {0.1, -0.3}}, .f = {.a = 0.05, .b = 0.1}},
    {.name = "weld", .kind = HS_MB_FIXED, .a = {.body = 3, .s = {0.1, 0}}, .b = {.body = 1, .s = {0.2, 0.1}}},
    {.name = "sph", .kind = HS_MB_SPHERICAL, .a = {.body = 2}, .b = {.body = HS_MB_GROUND, .moving = 1, .f = {{.a = 0.1, .c = 0.2, .w = 1.5}, {.b = 0.3}}}},
};
static const hs_mb_force fx2_forces[] = {
    {.name = "spring", .kind = HS_MB_SPRING, .a = {.body = 0, .s = {0.2, 0.1}}, .b = {.body = 1, .s = {-0.1, 0.3}}, .k = 30, .c = 2, .l0 = 0.3},
    {.name = "spring2", .kind = HS_MB_SPRING, .a = {.body = 2}, .b = {.body = HS_MB_GROUND, .moving = 1, .f = {{.c = 0.2, .w = 2.0}, {.a = 1.0}}}, .k = 10, .c = 1, .l0 = 0.2},
    {.name = "rot", .kind = HS_MB_ROTSPRING, .a = {.body = 1}, .b = {.body = 0}, .k = 5, .c = 0.3, .l0 = 0.2},
    {.name = "bush", .kind = HS_MB_BUSHING, .a = {.body = 3, .s = {0.1, 0.1}}, .b = {.body = 1, .s = {0.3, 0}}, .k = 100, .c = 3, .kr = 4, .cr = 0.5},
    {.name = "push", .kind = HS_MB_EXTFORCE, .a = {.body = 1, .s = {0.2, -0.1}}, .in0 = 0, .scale = 1.5},
    {.name = "twist", .kind = HS_MB_EXTTORQUE, .a = {.body = 3}, .in0 = 2, .scale = 0.5},
    {.name = "motor", .kind = HS_MB_MOTOR, .a = {.body = 0}, .b = {.body = HS_MB_GROUND}, .in0 = 3, .scale = 2.0},
    {.name = "shove", .kind = HS_MB_EXTFORCE, .a = {.body = 0, .s = {0.1, 0.3}}, .in0 = 1, .scale = 0.7, .axis = {0.6, -0.8}},
};
static const hs_mb_output fx2_outputs[] = {
    {.kind = HS_MB_OUT_POS, .index = 0}, {.kind = HS_MB_OUT_VEL, .index = 2},
    {.kind = HS_MB_OUT_COORD, .index = 1}, {.kind = HS_MB_OUT_COORD, .index = 2},
    {.kind = HS_MB_OUT_COORD, .index = 3}, {.kind = HS_MB_OUT_ENERGY},
};
static const hs_mb_desc fx2 = {
    .name = "fixture2d", .dim = 2, .gravity = {0.3, -9.81, 0}, .nin = 4,
    .bodies = fx2_bodies, .nbodies = 4, .joints = fx2_joints, .njoints = 10,
    .forces = fx2_forces, .nforces = 8, .outputs = fx2_outputs, .noutputs = 6,
};

static const hs_mb_body fx3_bodies[] = {
    {.name = "box", .kind = HS_MB_SPATIAL, .mass = 2.0, .inertia = {0.3, 0.5, 0.7}, .pos = {0.1, 0.2, 0.3},
     .rot = {0.5, 0.5, 0.5, 0.5}, .omega = {1, 2, 3}},
    {.name = "arm", .kind = HS_MB_SPATIAL, .mass = 1.0, .inertia = {0.1, 0.4, 0.2}, .pos = {1.0, -0.2, 0.4},
     .rot = {1, 0, 0, 0}},
    {.name = "ball", .kind = HS_MB_POINT3, .mass = 0.5, .pos = {0.2, 1.0, -0.5}},
    {.name = "lid", .kind = HS_MB_SPATIAL, .mass = 0.8, .inertia = {0.2, 0.2, 0.3}, .pos = {-0.5, 0.3, 0.1},
     .rot = {0.8, 0.6, 0, 0}},
};
static const hs_mb_joint fx3_joints[] = {
    {.name = "hinge", .kind = HS_MB_REVOLUTE, .a = {.body = 1, .s = {-0.4, 0.1, 0}}, .b = {.body = 0, .s = {0.3, 0, 0.1}}, .axis = {0, 0.6, 0.8}, .axis_b = {0, 0, 1}},
    {.name = "ghinge", .kind = HS_MB_REVOLUTE, .a = {.body = 0, .s = {-0.2, 0, 0}}, .b = {.body = HS_MB_GROUND}, .axis = {1, 0, 0}},
    {.name = "ballj", .kind = HS_MB_SPHERICAL, .a = {.body = 2, .s = {0.05, 0, 0}}, .b = {.body = 1, .s = {0.2, 0.3, 0.1}}},
    {.name = "slide", .kind = HS_MB_PRISMATIC, .a = {.body = 3, .s = {0.1, 0, 0}}, .b = {.body = 0, .s = {0, 0.2, 0}}, .axis = {0, 0, 1}},
    {.name = "weld", .kind = HS_MB_FIXED, .a = {.body = 3}, .b = {.body = HS_MB_GROUND}},
    {.name = "rod", .kind = HS_MB_DISTANCE, .a = {.body = 2}, .b = {.body = 3, .s = {0.1, 0.2, 0.3}}, .length = 1.1},
    {.name = "shell", .kind = HS_MB_CURVE, .a = {.body = 1, .s = {0.1, 0.1, 0.1}}, .quad = {.A = {1, 1, 2, 0.1, 0.2, 0.3}, .b = {0, 0, 0.5}, .c = -1}},
    {.name = "lift", .kind = HS_MB_DRIVER, .coord = 1, .a = {.body = 1, .s = {0.2, 0, 0}}, .b = {.body = HS_MB_GROUND}, .axis = {0, 0, 1}, .f = {.a = 0.4, .c = 0.1, .w = 4}},
    {.name = "perp", .kind = HS_MB_PERPENDICULAR, .a = {.body = 0, .s = {0.1, 0, 0}}, .b = {.body = 2},
     .c = {.body = 3, .s = {0, 0.1, 0}}, .d = {.body = HS_MB_GROUND, .moving = 1, .f = {{.c = 0.2, .w = 3}, {0}, {.b = 0.1}}}},
};
static const hs_mb_force fx3_forces[] = {
    {.name = "spring", .kind = HS_MB_SPRING, .a = {.body = 0, .s = {0.2, 0.1, -0.1}}, .b = {.body = 1, .s = {-0.1, 0.3, 0.2}}, .k = 30, .c = 2, .l0 = 0.3},
    {.name = "bush", .kind = HS_MB_BUSHING, .a = {.body = 3, .s = {0.1, 0.1, 0}}, .b = {.body = 2}, .k = 100, .c = 3},
    {.name = "push", .kind = HS_MB_EXTFORCE, .a = {.body = 1, .s = {0.2, -0.1, 0.3}}, .in0 = 0, .scale = 1.5},
    {.name = "twist", .kind = HS_MB_EXTTORQUE, .a = {.body = 0}, .in0 = 3, .scale = 0.5},
    /* the rotational elements of quaternion bodies: hinge springs and motors about tilted and
     * ground axes, bushings with rotational stiffness between two bodies and from ground */
    {.name = "hspring", .kind = HS_MB_ROTSPRING, .a = {.body = 1}, .b = {.body = 0}, .k = 7, .c = 0.4, .l0 = 0.3,
     .axis = {0, 0.6, 0.8}, .axis_b = {0, 0, 1}},
    {.name = "gspring", .kind = HS_MB_ROTSPRING, .a = {.body = 0}, .b = {.body = HS_MB_GROUND}, .k = 3, .c = 0.2, .l0 = -0.1,
     .axis = {1, 0, 0}},
    {.name = "hmotor", .kind = HS_MB_MOTOR, .a = {.body = 1}, .b = {.body = 0}, .in0 = 6, .scale = 2.0,
     .axis = {0, 0.6, 0.8}, .axis_b = {0, 0, 1}},
    {.name = "gmotor", .kind = HS_MB_MOTOR, .a = {.body = 3}, .b = {.body = HS_MB_GROUND}, .in0 = 7, .scale = 0.8,
     .axis = {0, 1, 0}, .axis_b = {0.6, 0, -0.8}},
    {.name = "rbush", .kind = HS_MB_BUSHING, .a = {.body = 3, .s = {0.1, 0, 0.2}}, .b = {.body = 0, .s = {0, 0.1, 0}},
     .k = 50, .c = 1, .kr = 6, .cr = 0.7},
    {.name = "gbush", .kind = HS_MB_BUSHING, .a = {.body = HS_MB_GROUND, .s = {0.1, 0, 0}}, .b = {.body = 1},
     .k = 20, .kr = 2, .cr = 0.3},
    /* kingpins: an axle's heading about a tilted kingpin of another body, and about a ground axis */
    {.name = "kp", .kind = HS_MB_KINGPIN, .a = {.body = 1}, .b = {.body = 0}, .k = 9, .c = 0.5, .l0 = 0.1, .in0 = 6,
     .scale = 0.7, .axis = {1, 0, 0}, .axis_b = {0, 0.6, 0.8}},
    {.name = "gkp", .kind = HS_MB_KINGPIN, .a = {.body = 3}, .b = {.body = HS_MB_GROUND}, .k = 4, .c = 0.3, .in0 = 7,
     .scale = 1.0, .axis = {0, 1, 0}, .axis_b = {0.6, 0, -0.8}},
};
static const hs_mb_output fx3_outputs[] = {
    {.kind = HS_MB_OUT_POS, .index = 0}, {.kind = HS_MB_OUT_VEL, .index = 0},
    {.kind = HS_MB_OUT_COORD, .index = 5}, {.kind = HS_MB_OUT_ENERGY},
    {.kind = HS_MB_OUT_COORD, .index = 0}, {.kind = HS_MB_OUT_COORD, .index = 1},
    {.kind = HS_MB_OUT_FORCE, .index = 10},
};
static const hs_mb_desc fx3 = {
    .name = "fixture3d", .dim = 3, .gravity = {0, 0.5, -9.81}, .nin = 8,
    .bodies = fx3_bodies, .nbodies = 4, .joints = fx3_joints, .njoints = 9,
    .forces = fx3_forces, .nforces = 12, .outputs = fx3_outputs, .noutputs = 7,
};

#endif
