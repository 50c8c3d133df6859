/* hs_app.h - the car axle plant as a board application (initialize / step / terminate),
 * driven by the SysTick frame of hs_frame.h. One stepper, statically sized from the model's
 * compile-time sizes; nothing is allocated. */
#ifndef HS_APP_H
#define HS_APP_H

#include "hs_frame.h"
#include "hs_models.h"
#include "hs_stepper.h"

typedef struct hs_app_cfg {
    const hs_model_type *type; /* a model with the car axle's sizes (tests wrap it) */
    hs_method method;
    hs_form form;
    hs_stab stab;
    uint32_t nsteps;           /* committed steps to run, 0 = until stopped */
} hs_app_cfg;

/* Application state, readable by the mains after hs_frame_run returns. */
typedef struct hs_app_state {
    hs_app_cfg cfg;
    hs_model model;
    hs_car_axle_params params;
    hs_stepper s;
    uint64_t hash;        /* trajectory hash over every committed step */
    hs_real max_g;        /* max |g_i| over the committed states, initial one included */
    uint32_t cost_min, cost_max; /* hs_stepper_step alone, in SysTick counts */
    uint64_t cost_sum;
    uint32_t steps;       /* committed steps */
    int safe;             /* 1 once the outputs went to their safe values */
    hs_real y[HS_MODELS_MAX_NOUT];
} hs_app_state;

extern hs_app_state hs_app;
extern const hs_frame_app hs_app_frame;

/* Test switch: when set, called at the start of every frame with the number of committed
 * steps; used to make a step artificially slow or to fault on purpose. NULL in the demo. */
extern void (*hs_app_test_hook)(uint32_t step);

/* Defaults: car axle, J2, index-2, projection, 3000 steps. */
hs_app_cfg hs_app_default_cfg(void);
/* Stores cfg for the next hs_frame_run(&hs_app_frame, ...). */
void hs_app_configure(const hs_app_cfg *cfg);

/* Parses a method / stabilization name as the host CLI spells it; -1 when unknown. */
int hs_app_parse_method(const char *name);
int hs_app_parse_stab(const char *name);

/* Prints "trajectory-hash car_axle <method> <stab> <steps> 0x<16 hex>". */
void hs_app_print_hash(void);
/* Prints "step-cost car_axle <method> <stab> min=<n> max=<n> instructions" (counts x 40). */
void hs_app_print_cost(void);
/* Prints the frame statistics: ticks, steps, overruns, frame time min/max/mean in ns of guest
 * time (one count = 40 ns; under -icount shift=0 one ns is one instruction), histogram. */
void hs_app_print_frame(void);

#endif
