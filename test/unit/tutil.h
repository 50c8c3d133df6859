/* tutil.h - a model instance plus stepper with static storage large enough for every model. */
#ifndef TUTIL_H
#define TUTIL_H

#include "hs_models.h"
#include "hs_stepper.h"

#define TU_NQ 4
#define TU_NC 3
#define TU_NZ 1

typedef struct tsim {
    hs_model m;
    union { hs_real r[16]; double align; } p; /* parameter block of any library model */
    hs_stepper s;
    hs_real R[HS_STEPPER_REALS(TU_NQ, TU_NC, TU_NZ)];
    int I[HS_STEPPER_INTS(TU_NQ, TU_NC)];
} tsim;

/* Binds type with default parameters (call before tsim_start to change parameters). */
void tsim_model(tsim *x, const hs_model_type *type);
/* Initializes the stepper with method/form/stab/h and Baumgarte alpha = 1/h, beta = 1/h^2. */
int tsim_start(tsim *x, hs_method me, hs_form fo, hs_stab st, hs_real h);
/* Steps n times with zero inputs; returns the first fault or HS_OK. Tracks max |g| (over
 * the whole run, including the initial state) in *max_g when not NULL. */
int tsim_run(tsim *x, long n, double *max_g);
/* max_i |g_i| of the committed state. */
double tsim_abs_g(tsim *x);
/* Slope of the least-squares line through (log x_i, log y_i), i < n. */
double tu_loglog_slope(const double *x, const double *y, int n);
/* Natural logarithm without libm (range reduction by 2 and a series; ~1e-15 relative). */
double tu_log(double x);
/* Absolute value. */
static inline double tu_abs(double x) { return x < 0 ? -x : x; }

#endif
