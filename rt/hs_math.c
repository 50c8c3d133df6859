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

static hs_real ksin(hs_real x)
{
    const hs_real S1 = HS_R(-1.66666666666666324348e-01), S2 = HS_R(8.33333333332248946124e-03),
                  S3 = HS_R(-1.98412698298579493134e-04), S4 = HS_R(2.75573137070700676789e-06),
                  S5 = HS_R(-2.50507602534068634195e-08), S6 = HS_R(1.58969099521155010221e-10);
    hs_real z = x * x, w = z * z;
    hs_real r = S2 + z * (S3 + z * S4) + z * w * (S5 + z * S6);
    return x + z * x * (S1 + z * r);
}

static hs_real kcos(hs_real x)
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
    if (!(hs_abs(x) <= TRIG_MAX)) return (hs_real)__builtin_nan("");
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
    hs_real a = (q & 1) ? kc : ks, b = (q & 1) ? ks : kc;
    *s = (q & 2) ? -a : a;
    *c = ((q + 1) & 2) ? -b : b;
}

hs_real hs_sin(hs_real x) { return trig(x, 0); }
hs_real hs_cos(hs_real x) { return trig(x, 1); }
