/* hs_apps.h - the static signal maps of the models hilstep ships. OS-free, shared by the
 * board and Linux builds; a model without one here gets a generic map (hs_plant.c). */
#ifndef HS_APPS_H
#define HS_APPS_H

#include "hs_signal.h"

/* Plant side of the circular track in HIL mode (external = 1): in F_t (N); out speed (m/s),
 * radius (m), x1 (m), x2 (m) - the model's outputs in its order. */
extern const hs_signal_map hs_map_circular_track_plant;

/* ECU side of the same link: in speed, radius, x1, x2 (the plant's outputs); out F_t (N). */
extern const hs_signal_map hs_map_circular_track_ecu;

/* Plant side of the car axle in HIL mode (external = 1): in road_dy (m); out xl, yl, xr, yr
 * (m), F_left, F_right (N, spring compression). */
extern const hs_signal_map hs_map_car_axle_plant;

/* Plant side of the vehicles (model/vehicle/hs_veh.h, external = 1): in steer (rad), drive_* and
 * brake_* per wheel (N m); out omega_* per wheel (rad/s), yaw_rate (rad/s), a_x, a_y (m/s^2,
 * body frame), beta (rad), speed (m/s), X, Y (m), psi (rad); the truck-trailer adds
 * psi_trailer (rad), hitch_defect (m), the penalty coupling hitch_Fx, hitch_Fy (N). The
 * model's inputs and outputs in its order (hil/VEHICLE.md). */
extern const hs_signal_map hs_map_car_plant;
extern const hs_signal_map hs_map_truck_trailer_plant;
extern const hs_signal_map hs_map_truck_trailer_pen_plant;

/* Plant map of the model called name, or NULL when no map is declared for it. */
const hs_signal_map *hs_plant_map_find(const char *name);

#endif
