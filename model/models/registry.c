/* registry.c - the list of model types the CLI tools offer. */
#include "hs_models.h"

/* MISRA Ref 9.3.1 [every element listed] */
const hs_model_type *const hs_model_registry[] = {
    &hs_test_eq_type, &hs_car_axle_type, &hs_circular_track_type, &hs_pendulum_type,
    &hs_chain_type, &hs_ladder_type, &hs_mb_car_axle_mb_type,
#ifndef HS_NO_VEHICLES
    &hs_veh_car_type, &hs_veh_tt_dae_type, &hs_veh_tt_pen_type,
#endif
    /* last: test_models draws random points model by model, so a new model goes at the end */
    &hs_rolling_disk_type,
    NULL};

const hs_model_type *hs_model_find(const char *name)
{
    for (int i = 0; hs_model_registry[i] != NULL; ++i) {
        const char *a = hs_model_registry[i]->name, *b = name;
        while (*a != '\0' && *a == *b) { ++a; ++b; }
        if (*a == *b) { return hs_model_registry[i]; }
    }
    return NULL;
}
