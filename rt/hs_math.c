/* hs_math.c - sin/cos shared by every build (see hs_math.h for why they are not libm's).
 * Kernels: the minimax polynomials of FreeBSD msun's __kernel_sin/__kernel_cos on
 * [-pi/4, pi/4]; reduction: Cody-Waite with pi/2 split into parts whose products with the
 * quadrant number are exact over the admitted range. */
#include "hs_math.h"

#ifdef HS_REAL_FLOAT
/* pi/2 in three float parts with 8, 11 and 24 significant bits (Cephes sinf split, doubled). */
#define P1 HS_R(1.5703125)
#define P2 HS_R(4.837512969970703125e-4)
#define P3 HS_R(7.54978995489188216e-8)
#define ROUND_MAGIC HS_R(12582912.0) /* 1.5 * 2^23 */
#define TRIG_MAX HS_R(8192.0)
#else
/* pi/2 in three double parts of 33 significant bits each (msun pio2_1, pio2_2, pio2_3). */
#define P1 HS_R(1.57079632673412561417e+00)
#define P2 HS_R(6.07710050630396597660e-11)
#define P3 HS_R(2.02226624871116645580e-21)
#define ROUND_MAGIC HS_R(6755399441055744.0) /* 1.5 * 2^52 */
#define TRIG_MAX HS_TRIG_MAX
#endif
#define INV_PIO2 HS_R(6.36619772367581382433e-01)

static inline hs_real ksin(hs_real x)
{
    const hs_real S1 = HS_R(-1.66666666666666324348e-01), S2 = HS_R(8.33333333332248946124e-03),
                  S3 = HS_R(-1.98412698298579493134e-04), S4 = HS_R(2.75573137070700676789e-06),
                  S5 = HS_R(-2.50507602534068634195e-08), S6 = HS_R(1.58969099521155010221e-10);
    hs_real z = x * x, w = z * z;
    hs_real r = S2 + z * (S3 + z * S4) + z * w * (S5 + z * S6);
    return x + z * x * (S1 + z * r);
}

static inline hs_real kcos(hs_real x)
{
    const hs_real C1 = HS_R(4.16666666666666019037e-02), C2 = HS_R(-1.38888888888741095749e-03),
                  C3 = HS_R(2.48015872894767294178e-05), C4 = HS_R(-2.75573143513906633035e-07),
                  C5 = HS_R(2.08757232129817482790e-09), C6 = HS_R(-1.13596475577881948265e-11);
    hs_real z = x * x, w = z * z;
    hs_real r = z * (C1 + z * (C2 + z * C3)) + w * w * (C4 + z * (C5 + z * C6));
    hs_real hz = HS_R(0.5) * z;
    hs_real one_m = HS_R(1.0) - hz;
    return one_m + (((HS_R(1.0) - one_m) - hz) + z * r);
}

/* Reduces x to y in [-pi/4, pi/4] and returns the quadrant (0..3); fixed work. */
static int reduce(hs_real x, hs_real *y)
{
    hs_real fn = (x * INV_PIO2 + ROUND_MAGIC) - ROUND_MAGIC;
    *y = ((x - fn * P1) - fn * P2) - fn * P3;
    long n = (long)fn;
    return (int)(n & 3);
}

static hs_real trig(hs_real x, int cosine)
{
    if (!(hs_abs(x) <= TRIG_MAX)) { return (hs_real)__builtin_nan(""); }
    hs_real y;
    int q = (reduce(x, &y) + cosine) & 3;
    hs_real s = ksin(y), c = kcos(y);
    switch (q) {
    case 0: return s;
    case 1: return c;
    case 2: return -s;
    default: return -c;
    }
}

void hs_sincos(hs_real x, hs_real *s, hs_real *c)
{
    if (!(hs_abs(x) <= TRIG_MAX)) {
        /* MISRA Ref 13.4.1 [both outputs get the same fault value] */
        *s = *c = (hs_real)__builtin_nan("");
        return;
    }
    hs_real y;
    int q = reduce(x, &y);
    hs_real ks = ksin(y), kc = kcos(y);
    /* quadrant q: sin = (s, c, -s, -c)[q], cos = (c, -s, -c, s)[q] */
    /* MISRA Ref 10.3.2 [hs_real selected by ?:] */
    hs_real a = (q & 1) ? kc : ks, b = (q & 1) ? ks : kc;
    *s = (q & 2) ? -a : a;
    *c = ((q + 1) & 2) ? -b : b;
}

hs_real hs_sin(hs_real x) { return trig(x, 0); }
hs_real hs_cos(hs_real x) { return trig(x, 1); }

/* ---- atan2: fdlibm's s_atan.c/e_atan2.c, without bit access (comparisons and signbit) ---- */

#ifdef HS_REAL_FLOAT
/* atan of the breakpoints 0.5, 1, 1.5, inf as float hi + lo (lo = atan - hi, rounded) */
#define ATAN_HI0 HS_R(4.6364760398864746e-01)
#define ATAN_LO0 HS_R(5.01215868808913e-09)
#define ATAN_HI1 HS_R(7.8539818525314331e-01)
#define ATAN_LO1 HS_R(-2.1855694143368964e-08)
#define ATAN_HI2 HS_R(9.8279374837875366e-01)
#define ATAN_LO2 HS_R(-2.5131424052915463e-08)
#define ATAN_HI3 HS_R(1.5707963705062866e+00)
#define ATAN_LO3 HS_R(-4.371138828673793e-08)
#define PI_HI HS_R(3.1415927410125732e+00)
#define PI_LO HS_R(-8.742277657347586e-08)
#define ATAN_BIG HS_R(1.8014398509481984e16) /* 2^54: atan(t) = pi/2 in float beyond */
#define ATAN_TINY HS_R(1.52587890625e-05)    /* 2^-16: atan(t) = t in float below */
#define PIO4 HS_R(7.8539818525314331e-01)
#define THREE_PIO4 HS_R(2.3561944961547852e+00)
#define SIGNBIT(x) __builtin_signbitf(x)
#else
#define ATAN_HI0 HS_R(4.63647609000806093515e-01)
#define ATAN_LO0 HS_R(2.26987774529616870924e-17)
#define ATAN_HI1 HS_R(7.85398163397448278999e-01)
#define ATAN_LO1 HS_R(3.06161699786838301793e-17)
#define ATAN_HI2 HS_R(9.82793723247329054082e-01)
#define ATAN_LO2 HS_R(1.39033110312309984516e-17)
#define ATAN_HI3 HS_R(1.57079632679489655800e+00)
#define ATAN_LO3 HS_R(6.12323399573676603587e-17)
#define PI_HI HS_R(3.14159265358979311600e+00)
#define PI_LO HS_R(1.22464679914735317720e-16)
#define ATAN_BIG HS_R(7.3786976294838206464e19) /* 2^66 */
#define ATAN_TINY HS_R(7.450580596923828125e-09) /* 2^-27 */
#define PIO4 HS_R(7.85398163397448278999e-01)
#define THREE_PIO4 HS_R(2.35619449019234483700e+00)
#define SIGNBIT(x) __builtin_signbit(x)
#endif

/* atan(a) for a >= 0 (a may be +inf): reduction to |t| < 7/16 plus fdlibm's degree-11
 * odd minimax polynomial (double coefficients; in float they are rounded, which the test's
 * 2 ulp bound covers). */
static hs_real atan_pos(hs_real a)
{
    static const hs_real T0 = HS_R(3.33333333333329318027e-01), T1 = HS_R(-1.99999999998764832476e-01),
                         T2 = HS_R(1.42857142725034663711e-01), T3 = HS_R(-1.11111104054623557880e-01),
                         T4 = HS_R(9.09088713343650656196e-02), T5 = HS_R(-7.69187620504482999495e-02),
                         T6 = HS_R(6.66107313738753120669e-02), T7 = HS_R(-5.83357013379057348645e-02),
                         T8 = HS_R(4.97687799461593236017e-02), T9 = HS_R(-3.65315727442169155270e-02),
                         T10 = HS_R(1.62858201153657823623e-02);
    if (a >= ATAN_BIG) { return ATAN_HI3 + ATAN_LO3; /* also a = +inf */ }
    if (a < ATAN_TINY) { return a; }
    hs_real t, hi, lo;
    int reduced = 1;
    if (a < HS_R(0.4375)) {
        t = a; hi = HS_R(0.0); lo = HS_R(0.0); reduced = 0;
    } else if (a < HS_R(0.6875)) {
        t = (HS_R(2.0) * a - HS_R(1.0)) / (HS_R(2.0) + a); hi = ATAN_HI0; lo = ATAN_LO0;
    } else if (a < HS_R(1.1875)) {
        t = (a - HS_R(1.0)) / (a + HS_R(1.0)); hi = ATAN_HI1; lo = ATAN_LO1;
    } else if (a < HS_R(2.4375)) {
        t = (a - HS_R(1.5)) / (HS_R(1.0) + HS_R(1.5) * a); hi = ATAN_HI2; lo = ATAN_LO2;
    } else {
        t = -HS_R(1.0) / a; hi = ATAN_HI3; lo = ATAN_LO3;
    }
    const hs_real z = t * t, w = z * z;
    const hs_real s1 = z * (T0 + w * (T2 + w * (T4 + w * (T6 + w * (T8 + w * T10)))));
    const hs_real s2 = w * (T1 + w * (T3 + w * (T5 + w * (T7 + w * T9))));
    if (reduced == 0) { return t - t * (s1 + s2); }
    return hi - ((t * (s1 + s2) - lo) - t);
}

hs_real hs_atan2(hs_real y, hs_real x)
{
    if (!(x == x) || !(y == y)) { return x + y; /* NaN in, NaN out */ }
    const int xneg = SIGNBIT(x) ? 1 : 0;
    const hs_real ay = hs_abs(y), ax = hs_abs(x);
    hs_real z; /* the angle for |y|, in [0, pi] */
    if (ay == HS_R(0.0)) {
        /* MISRA Ref 10.3.2 [hs_real selected by ?:] */
        z = xneg ? PI_HI : HS_R(0.0); /* atan2(+-0, -0) = +-pi, atan2(+-0, +0) = +-0 */
    } else if (ax == HS_R(0.0) || (hs_isfinite(ay) == 0 && hs_isfinite(ax) != 0)) {
        z = ATAN_HI3 + ATAN_LO3;
    } else if (hs_isfinite(ax) == 0) {
        /* MISRA Ref 10.3.2 [hs_real selected by ?:] */
        if (hs_isfinite(ay) == 0) { z = xneg ? THREE_PIO4 : PIO4; }
        /* MISRA Ref 10.3.2 [hs_real selected by ?:] */
        else { z = xneg ? PI_HI : HS_R(0.0); }
    } else {
        const hs_real a = atan_pos(ay / ax); /* the quotient may round to 0 or +inf: still right */
        /* MISRA Ref 10.3.2 [hs_real selected by ?:] */
        z = xneg ? PI_HI - (a - PI_LO) : a;
    }
    return SIGNBIT(y) ? -z : z;
}
