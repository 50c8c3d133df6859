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

const hs_signal_map *hs_plant_map_find(const char *name)
{
    /* MISRA Ref 9.3.1 [every element listed] */
    static const hs_signal_map *const maps[] = {&hs_map_circular_track_plant,
                                                &hs_map_car_axle_plant};
    for (size_t i = 0; name != NULL && i < sizeof maps / sizeof maps[0]; ++i) {
        if (strcmp(name, maps[i]->app) == 0) { return maps[i]; }
    }
    return NULL;
}
