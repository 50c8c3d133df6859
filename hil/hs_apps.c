/* hs_apps.c - signal maps of the shipped applications. Ranges are the bench's safety limits,
 * not the controller's working range: a clamp means the ECU asked for something the rig must
 * never see, and it is counted. */
#include "hs_apps.h"

#include <string.h>

/* The PI controller's largest command at start is kp * v_ref = 20 N; 50 N leaves room for the
 * overshoot of a retuned controller while still catching garbage. Stale after 20 frames
 * (20 ms at 1 kHz, 0.2 rad of the 10 rad/s loop's phase): then coast with zero force. */
static const hs_signal circular_track_plant[] = {
    {"F_t", "N", HS_SIG_IN, 1.0, 0.0, -50.0, 50.0, 0.0, 20},
    {"speed", "m/s", HS_SIG_OUT, 1.0, 0.0, -1.0e3, 1.0e3, 0.0, 0},
    {"radius", "m", HS_SIG_OUT, 1.0, 0.0, 0.0, 1.0e3, 1.0, 0},
    {"x1", "m", HS_SIG_OUT, 1.0, 0.0, -1.0e3, 1.0e3, 1.0, 0},
    {"x2", "m", HS_SIG_OUT, 1.0, 0.0, -1.0e3, 1.0e3, 0.0, 0},
};
const hs_signal_map hs_map_circular_track_plant = {
    "circular_track", circular_track_plant,
    /* MISRA Ref 10.8.1 [table length, compile-time constant] */
    (int)(sizeof circular_track_plant / sizeof circular_track_plant[0])};

static const hs_signal circular_track_ecu[] = {
    {"speed", "m/s", HS_SIG_IN, 1.0, 0.0, -1.0e3, 1.0e3, 0.0, 20},
    {"radius", "m", HS_SIG_IN, 1.0, 0.0, 0.0, 1.0e3, 1.0, 20},
    {"x1", "m", HS_SIG_IN, 1.0, 0.0, -1.0e3, 1.0e3, 1.0, 20},
    {"x2", "m", HS_SIG_IN, 1.0, 0.0, -1.0e3, 1.0e3, 0.0, 20},
    {"F_t", "N", HS_SIG_OUT, 1.0, 0.0, -50.0, 50.0, 0.0, 0},
};
const hs_signal_map hs_map_circular_track_ecu = {
    "circular_track_ecu", circular_track_ecu,
    /* MISRA Ref 10.8.1 [table length, compile-time constant] */
    (int)(sizeof circular_track_ecu / sizeof circular_track_ecu[0])};

/* Car axle (IVP test set units): the road input is an extra height under the right wheel's
 * spring, limited to the spring's rest length 0.5 so the spring never inverts; stale after 20
 * frames, then flat road. Safe outputs are the rest configuration (springs at rest, no force). */
static const hs_signal car_axle_plant[] = {
    {"road_dy", "m", HS_SIG_IN, 1.0, 0.0, -0.5, 0.5, 0.0, 20},
    {"xl", "m", HS_SIG_OUT, 1.0, 0.0, -1.0e3, 1.0e3, 0.0, 0},
    {"yl", "m", HS_SIG_OUT, 1.0, 0.0, -1.0e3, 1.0e3, 0.5, 0},
    {"xr", "m", HS_SIG_OUT, 1.0, 0.0, -1.0e3, 1.0e3, 1.0, 0},
    {"yr", "m", HS_SIG_OUT, 1.0, 0.0, -1.0e3, 1.0e3, 0.5, 0},
    {"F_left", "N", HS_SIG_OUT, 1.0, 0.0, -1.0e6, 1.0e6, 0.0, 0},
    {"F_right", "N", HS_SIG_OUT, 1.0, 0.0, -1.0e6, 1.0e6, 0.0, 0},
};
const hs_signal_map hs_map_car_axle_plant = {
    /* MISRA Ref 10.8.1 [table length, compile-time constant] */
    "car_axle", car_axle_plant, (int)(sizeof car_axle_plant / sizeof car_axle_plant[0])};

/* The vehicles on TMeasy tires (model/vehicle/hs_veh.h, external = 1). Inputs: steering angle at the
 * front wheels within the model's +-0.6 rad; drive torque +-3 kN m per wheel (a car's wheel
 * torque with first gear, with margin); brake torque 0..5 kN m per wheel, never negative (a
 * negative capacity is refused by the model). Stale after 20 frames: straight ahead, no drive,
 * no brake (a rig cuts the actuators). The car's road friction per wheel mu_fl..mu_rr (a rig's
 * friction actuator, relative to the tire data's road, 0..2; 0, also stale: the road's own,
 * --param mu / mu_l / mu_r). Outputs: the wheel speeds, yaw rate, body-frame
 * accelerations, body slip angle, speed, position and heading within what a road vehicle can
 * reach (a value outside is refused as output_range: the model left the road's physics). */
static const hs_signal car_plant[] = {
    {"steer", "rad", HS_SIG_IN, 1.0, 0.0, -0.6, 0.6, 0.0, 20},
    {"drive_fl", "N m", HS_SIG_IN, 1.0, 0.0, -3000.0, 3000.0, 0.0, 20},
    {"drive_fr", "N m", HS_SIG_IN, 1.0, 0.0, -3000.0, 3000.0, 0.0, 20},
    {"drive_rl", "N m", HS_SIG_IN, 1.0, 0.0, -3000.0, 3000.0, 0.0, 20},
    {"drive_rr", "N m", HS_SIG_IN, 1.0, 0.0, -3000.0, 3000.0, 0.0, 20},
    {"brake_fl", "N m", HS_SIG_IN, 1.0, 0.0, 0.0, 5000.0, 0.0, 20},
    {"brake_fr", "N m", HS_SIG_IN, 1.0, 0.0, 0.0, 5000.0, 0.0, 20},
    {"brake_rl", "N m", HS_SIG_IN, 1.0, 0.0, 0.0, 5000.0, 0.0, 20},
    {"brake_rr", "N m", HS_SIG_IN, 1.0, 0.0, 0.0, 5000.0, 0.0, 20},
    {"mu_fl", "1", HS_SIG_IN, 1.0, 0.0, 0.0, 2.0, 0.0, 20},
    {"mu_fr", "1", HS_SIG_IN, 1.0, 0.0, 0.0, 2.0, 0.0, 20},
    {"mu_rl", "1", HS_SIG_IN, 1.0, 0.0, 0.0, 2.0, 0.0, 20},
    {"mu_rr", "1", HS_SIG_IN, 1.0, 0.0, 0.0, 2.0, 0.0, 20},
    {"omega_fl", "rad/s", HS_SIG_OUT, 1.0, 0.0, -1000.0, 1000.0, 0.0, 0},
    {"omega_fr", "rad/s", HS_SIG_OUT, 1.0, 0.0, -1000.0, 1000.0, 0.0, 0},
    {"omega_rl", "rad/s", HS_SIG_OUT, 1.0, 0.0, -1000.0, 1000.0, 0.0, 0},
    {"omega_rr", "rad/s", HS_SIG_OUT, 1.0, 0.0, -1000.0, 1000.0, 0.0, 0},
    {"yaw_rate", "rad/s", HS_SIG_OUT, 1.0, 0.0, -20.0, 20.0, 0.0, 0},
    {"a_x", "m/s^2", HS_SIG_OUT, 1.0, 0.0, -200.0, 200.0, 0.0, 0},
    {"a_y", "m/s^2", HS_SIG_OUT, 1.0, 0.0, -200.0, 200.0, 0.0, 0},
    {"beta", "rad", HS_SIG_OUT, 1.0, 0.0, -3.1416, 3.1416, 0.0, 0},
    {"speed", "m/s", HS_SIG_OUT, 1.0, 0.0, 0.0, 100.0, 0.0, 0},
    {"X", "m", HS_SIG_OUT, 1.0, 0.0, -1.0e7, 1.0e7, 0.0, 0},
    {"Y", "m", HS_SIG_OUT, 1.0, 0.0, -1.0e7, 1.0e7, 0.0, 0},
    {"psi", "rad", HS_SIG_OUT, 1.0, 0.0, -1.0e4, 1.0e4, 0.0, 0},
};
const hs_signal_map hs_map_car_plant = {
    /* MISRA Ref 10.8.1 [table length, compile-time constant] */
    "car", car_plant, (int)(sizeof car_plant / sizeof car_plant[0])};

/* Truck (axles 1, 2) and trailer (axles 3, 4), l/r per axle; the hitch defect (m) and, for
 * the spring-damper coupling, the hitch force on the truck (N, ground frame) besides. */
static const hs_signal tt_plant[] = {
    {"steer", "rad", HS_SIG_IN, 1.0, 0.0, -0.6, 0.6, 0.0, 20},
    {"drive_1l", "N m", HS_SIG_IN, 1.0, 0.0, -3000.0, 3000.0, 0.0, 20},
    {"drive_1r", "N m", HS_SIG_IN, 1.0, 0.0, -3000.0, 3000.0, 0.0, 20},
    {"drive_2l", "N m", HS_SIG_IN, 1.0, 0.0, -3000.0, 3000.0, 0.0, 20},
    {"drive_2r", "N m", HS_SIG_IN, 1.0, 0.0, -3000.0, 3000.0, 0.0, 20},
    {"drive_3l", "N m", HS_SIG_IN, 1.0, 0.0, -3000.0, 3000.0, 0.0, 20},
    {"drive_3r", "N m", HS_SIG_IN, 1.0, 0.0, -3000.0, 3000.0, 0.0, 20},
    {"drive_4l", "N m", HS_SIG_IN, 1.0, 0.0, -3000.0, 3000.0, 0.0, 20},
    {"drive_4r", "N m", HS_SIG_IN, 1.0, 0.0, -3000.0, 3000.0, 0.0, 20},
    {"brake_1l", "N m", HS_SIG_IN, 1.0, 0.0, 0.0, 5000.0, 0.0, 20},
    {"brake_1r", "N m", HS_SIG_IN, 1.0, 0.0, 0.0, 5000.0, 0.0, 20},
    {"brake_2l", "N m", HS_SIG_IN, 1.0, 0.0, 0.0, 5000.0, 0.0, 20},
    {"brake_2r", "N m", HS_SIG_IN, 1.0, 0.0, 0.0, 5000.0, 0.0, 20},
    {"brake_3l", "N m", HS_SIG_IN, 1.0, 0.0, 0.0, 5000.0, 0.0, 20},
    {"brake_3r", "N m", HS_SIG_IN, 1.0, 0.0, 0.0, 5000.0, 0.0, 20},
    {"brake_4l", "N m", HS_SIG_IN, 1.0, 0.0, 0.0, 5000.0, 0.0, 20},
    {"brake_4r", "N m", HS_SIG_IN, 1.0, 0.0, 0.0, 5000.0, 0.0, 20},
    {"omega_1l", "rad/s", HS_SIG_OUT, 1.0, 0.0, -1000.0, 1000.0, 0.0, 0},
    {"omega_1r", "rad/s", HS_SIG_OUT, 1.0, 0.0, -1000.0, 1000.0, 0.0, 0},
    {"omega_2l", "rad/s", HS_SIG_OUT, 1.0, 0.0, -1000.0, 1000.0, 0.0, 0},
    {"omega_2r", "rad/s", HS_SIG_OUT, 1.0, 0.0, -1000.0, 1000.0, 0.0, 0},
    {"omega_3l", "rad/s", HS_SIG_OUT, 1.0, 0.0, -1000.0, 1000.0, 0.0, 0},
    {"omega_3r", "rad/s", HS_SIG_OUT, 1.0, 0.0, -1000.0, 1000.0, 0.0, 0},
    {"omega_4l", "rad/s", HS_SIG_OUT, 1.0, 0.0, -1000.0, 1000.0, 0.0, 0},
    {"omega_4r", "rad/s", HS_SIG_OUT, 1.0, 0.0, -1000.0, 1000.0, 0.0, 0},
    {"yaw_rate", "rad/s", HS_SIG_OUT, 1.0, 0.0, -20.0, 20.0, 0.0, 0},
    {"a_x", "m/s^2", HS_SIG_OUT, 1.0, 0.0, -200.0, 200.0, 0.0, 0},
    {"a_y", "m/s^2", HS_SIG_OUT, 1.0, 0.0, -200.0, 200.0, 0.0, 0},
    {"beta", "rad", HS_SIG_OUT, 1.0, 0.0, -3.1416, 3.1416, 0.0, 0},
    {"speed", "m/s", HS_SIG_OUT, 1.0, 0.0, 0.0, 100.0, 0.0, 0},
    {"X", "m", HS_SIG_OUT, 1.0, 0.0, -1.0e7, 1.0e7, 0.0, 0},
    {"Y", "m", HS_SIG_OUT, 1.0, 0.0, -1.0e7, 1.0e7, 0.0, 0},
    {"psi", "rad", HS_SIG_OUT, 1.0, 0.0, -1.0e4, 1.0e4, 0.0, 0},
    {"psi_trailer", "rad", HS_SIG_OUT, 1.0, 0.0, -1.0e4, 1.0e4, 0.0, 0},
    {"hitch_defect", "m", HS_SIG_OUT, 1.0, 0.0, 0.0, 10.0, 0.0, 0},
    {"hitch_Fx", "N", HS_SIG_OUT, 1.0, 0.0, -1.0e7, 1.0e7, 0.0, 0},
    {"hitch_Fy", "N", HS_SIG_OUT, 1.0, 0.0, -1.0e7, 1.0e7, 0.0, 0},
};
/* The joint coupling has no hitch force: its map is the same list without the last two. */
const hs_signal_map hs_map_truck_trailer_plant = {
    /* MISRA Ref 10.8.1 [table length, compile-time constant] */
    "truck_trailer", tt_plant, (int)(sizeof tt_plant / sizeof tt_plant[0]) - 2};
const hs_signal_map hs_map_truck_trailer_pen_plant = {
    /* MISRA Ref 10.8.1 [table length, compile-time constant] */
    "truck_trailer_pen", tt_plant, (int)(sizeof tt_plant / sizeof tt_plant[0])};

const hs_signal_map *hs_plant_map_find(const char *name)
{
    /* MISRA Ref 9.3.1 [every element listed] */
    static const hs_signal_map *const maps[] = {&hs_map_circular_track_plant,
                                                &hs_map_car_axle_plant, &hs_map_car_plant,
                                                &hs_map_truck_trailer_plant,
                                                &hs_map_truck_trailer_pen_plant};
    for (size_t i = 0; name != NULL && i < sizeof maps / sizeof maps[0]; ++i) {
        if (strcmp(name, maps[i]->app) == 0) { return maps[i]; }
    }
    return NULL;
}
