/* mb_run.h - one description loaded and stepped by the multibody suite: its store, compiled
 * model, instance, stepper and a workspace sized for the largest description (one nz). */
#ifndef MB_RUN_H
#define MB_RUN_H
#include "hs_mb_file.h"
#include "hs_stepper.h"

/* The shipped descriptions' sizes fit the boards' capacities (96 positions, 96 rows: port/cortex-m/
 * cortex-m.mk); the host's larger ones (model/mb/hs_mb.h) would make this dense bound 32 MB. */
#define MB_RUN_NQ 96
#define MB_RUN_NC 96
typedef struct run {
    hs_mb_store st;
    hs_mb_model mb;
    hs_model m;
    hs_stepper s;
    hs_real R[HS_STEPPER_REALS(MB_RUN_NQ, MB_RUN_NC, 1)];
    int I[HS_STEPPER_INTS(MB_RUN_NQ, MB_RUN_NC)];
} run;
#endif
