/* mb_run.h - one description loaded and stepped by the multibody suite: its store, compiled
 * model, instance, stepper and a workspace sized for the largest description (one nz). */
#ifndef MB_RUN_H
#define MB_RUN_H
#include "hs_mb_file.h"
#include "hs_stepper.h"

typedef struct run {
    hs_mb_store st;
    hs_mb_model mb;
    hs_model m;
    hs_stepper s;
    hs_real R[HS_STEPPER_REALS(HS_MB_MAX_NQ, HS_MB_MAX_NC, 1)];
    int I[HS_STEPPER_INTS(HS_MB_MAX_NQ, HS_MB_MAX_NC)];
} run;
#endif
