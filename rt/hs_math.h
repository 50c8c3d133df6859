/* hs_math.h - elementary functions implemented in rt/ so that the host and firmware builds
 * produce bit-identical trajectories (glibc's and newlib's sin/cos differ in the last bit).
 * Fixed cost: Cody-Waite reduction with a three-part pi/2 and fixed-degree polynomials; atan2
 * by fdlibm's reduction to |t| < 7/16 around atan(0.5), atan(1), atan(1.5), atan(inf). */
#ifndef HS_MATH_H
#define HS_MATH_H

#include "hs_types.h"

/* Largest |x| (rad) for which hs_sin/hs_cos keep close to 1 ulp; beyond it they return NaN
 * (a step then refuses with HS_E_NONFINITE instead of returning garbage). */
#define HS_TRIG_MAX HS_R(1.0e6)

/* sin(x) for |x| <= HS_TRIG_MAX (x in rad). */
hs_real hs_sin(hs_real x);
/* cos(x) for |x| <= HS_TRIG_MAX (x in rad). */
hs_real hs_cos(hs_real x);

/* sin(x) and cos(x) with one shared reduction; bit-identical to hs_sin/hs_cos. */
void hs_sincos(hs_real x, hs_real *s, hs_real *c);

/* atan2(y, x) in [-pi, pi] (rad) with C99 Annex F's signed zeros, infinities and NaN; at most
 * 1 ulp from libm in double, 2 float ulps from libm's double result in float
 * (test/unit/test_math.c). Fixed work, no tables beyond four breakpoints, no libm. */
hs_real hs_atan2(hs_real y, hs_real x);

#endif
