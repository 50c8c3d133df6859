/* hs_app.h - the board's application shell: the plant application (hil/hs_plant.h) bound to
 * the SysTick timer of hs_tick.h. The plant does the frame (inputs, step, outputs, policies);
 * this shell adds what only the board has: the model chosen at build time or by the test
 * image, the console lines the QEMU tests read (trajectory hash, step cost, frame statistics)
 * and a memory transport (no ECU is attached under QEMU: inputs stay on their fallbacks, the
 * frames built are counted). Nothing is allocated; the stepper arenas are sized from the
 * board's plant limits (HS_PLANT_MAX_*, set in cortex-m.mk). */
#ifndef HS_APP_H
#define HS_APP_H

#include "hs_models.h"
#include "hs_plant.h"
#include "hs_replay.h"
#include "hs_tick.h"

typedef struct hs_app_cfg {
    const char *model;         /* model name: a registry model or a shipped description */
    const hs_model_type *type; /* a type outside the registry (tests wrap one); NULL = by name */
    hs_method method;
    hs_form form;
    hs_stab stab;
    uint32_t h_us;             /* step size = frame period, microseconds (1000 = 1 ms) */
    uint32_t nsteps;           /* committed steps to run, 0 = until stopped */
    const hs_replay_table *inputs; /* input CSV replayed (INPUTS=file.csv), NULL = none */
    int verdict;               /* 1: a refused-step stop prints the verdict line too (demo) */
    int has_expect;            /* 1: the trajectory hash must equal expect_hash */
    uint64_t expect_hash;
} hs_app_cfg;

/* Application state, readable by the mains after hs_tick_run returns. */
typedef struct hs_app_state {
    hs_app_cfg cfg;
    hs_model model;
    union { hs_real r[HS_MODELS_MAX_PARAM_BYTES / sizeof(hs_real) + 1]; double d; } params;
    hs_plant plant;
    uint32_t steps;       /* committed steps */
    uint64_t tx_frames;   /* frames handed to the (memory) transport */
    uint8_t last_frame[HS_FRAME_MAX_BYTES]; /* the last one, as it would go on the wire */
    size_t last_len;
    hs_replay replay;     /* the input table bound to the model (cfg.inputs) */
} hs_app_state;

extern hs_app_state hs_app;
extern const hs_tick_app hs_app_frame;

/* Test switch: when set, called at the start of every frame with the number of committed
 * steps; used to make a step artificially slow or to fault on purpose. NULL in the demo. */
extern void (*hs_app_test_hook)(uint32_t step);

/* Defaults: car_axle (the demo main sets the build's model), the library's default method, form and
 * stabilization, h = 1 ms, 3000 steps. */
hs_app_cfg hs_app_default_cfg(void);
/* Stores cfg for the next hs_tick_run(&hs_app_frame, ...). */
void hs_app_configure(const hs_app_cfg *cfg);

/* Parses a method / stabilization name as the host CLI spells it; -1 when unknown. */
int hs_app_parse_method(const char *name);
int hs_app_parse_stab(const char *name);

/* Prints "trajectory-hash <model> <method> <stab> <steps> 0x<16 hex>". */
void hs_app_print_hash(void);
/* Prints "step-cost <model> <method> <stab> min=<n> max=<n> instructions" (counts x 40). */
void hs_app_print_cost(void);
/* The model type a name stands for: a registry model or a shipped description (model/mech,
 * generated into model/gen/mb_NAME.c); NULL when neither. */
const hs_model_type *hs_app_find_model(const char *name);
/* Prints "verdict: PASS|FAIL hash=0x.. steps= refused= overruns= late-ticks= inputs=..
 * replayed= clamped= exit=N" and returns that exit status (hil/hs_exit.h): HS_EXIT_OVERRUN
 * when a frame's execution exceeded the period, else HS_EXIT_STEP when a step was refused,
 * else HS_EXIT_TEST when the hash differs from cfg.expect_hash (cfg.has_expect) or a replayed
 * input frame was refused; else PASS, HS_EXIT_OK. Late ticks (QEMU descheduled by the host
 * under sleep=on: guest time jumps while it waits) are shown, not judged. */
int hs_app_print_verdict(void);
/* Prints the frame statistics: ticks, steps, overruns, frame time min/max/mean in ns of guest
 * time (one count = 40 ns; under -icount shift=0 one ns is one instruction), histogram. */
void hs_app_print_frame(void);

#endif
