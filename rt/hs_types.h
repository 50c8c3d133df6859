/* hs_types.h - the real type, status codes and freestanding numeric helpers of hilstep.
 *
 * Everything in rt/ is C99, freestanding (no libc, no I/O, no allocation). The real type is
 * double unless HS_REAL_FLOAT is defined at build time, which switches every rt/ and model/
 * computation to float (the Cortex-M4F build). */
#ifndef HS_TYPES_H
#define HS_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef HS_REAL_FLOAT
typedef float hs_real;
/* MISRA Ref 20.10.1 [suffix pasting keeps float constants out of double] */
#define HS_R(x) ((hs_real)(x##f))
/* Machine epsilon of hs_real (dimensionless). */
#define HS_EPS 1.1920928955078125e-07f
/* sqrt through one hook so no libm is needed: the FPU instruction with -fno-math-errno. */
#define hs_sqrt(x) __builtin_sqrtf(x)
#else
typedef double hs_real;
#define HS_R(x) ((hs_real)(x))
/* Machine epsilon of hs_real (dimensionless). */
#define HS_EPS 2.220446049250313e-16
/* sqrt through one hook so no libm is needed: the FPU instruction with -fno-math-errno. */
#define hs_sqrt(x) __builtin_sqrt(x)
#endif

/* The one status type: every fallible function of rt/, model/ and hil/ returns an hs_status
 * (HS_OK = 0, faults negative; a bool outcome, a count, an index or a receive reason is not a
 * status and stays int). The one exception is a model hook (the function pointers of
 * hs_model_type in rt/hs_model.h, and the element hooks of model/mb that feed them): hooks stay
 * int so a model may report a positive code of its own; the stepper takes each hook's value
 * through hs_model_rc(), which keeps HS_OK and negative codes and maps every positive one to
 * HS_E_MODEL. Codes are numbered in blocks so concurrent additions never collide: rt/ and
 * model/ from -1, hil/'s plant outputs from -64, hil/ and the tools from -100 (hil/hs_exit.h
 * maps each status to the exit status of every tool). */
typedef enum hs_status {
    HS_OK = 0,
    HS_E_DEF_H = -1,           /* h <= 0 or not finite */
    HS_E_DEF_METHOD = -2,      /* unknown method enum */
    HS_E_DEF_FORM = -3,        /* unknown formulation enum, GGL with stab != none or a velocities-first method, index-1 with jk/jkexact */
    HS_E_DEF_STAB = -4,        /* unknown stabilization enum */
    HS_E_DEF_BAUMGARTE = -5,   /* Baumgarte parameters negative, zero, non-finite, or h*alpha > 2 */
    HS_E_DEF_JAC = -6,         /* unknown Jacobian source, or analytic asked of a model without one */
    HS_E_DEF_FD = -7,          /* finite-difference increment <= 0 or not finite */
    HS_E_SIZE = -8,            /* model sizes exceed the workspace, or are inconsistent */
    HS_E_MODEL_PARAM = -9,     /* a model parameter is out of range or inconsistent */
    HS_E_NULL = -10,           /* a required pointer argument is NULL */
    HS_E_INPUT = -11,          /* a non-finite input signal */
    HS_E_SINGULAR = -12,       /* zero, tiny or non-finite pivot in a factorization */
    HS_E_NONFINITE = -13,      /* a force, constraint or new state value is NaN or Inf */
    HS_E_MODEL = -14,          /* a model function reported a fault (e.g. evaluation outside its domain) */
    HS_E_STATE = -15,          /* initial state not finite */
    HS_E_NOT_INIT = -16,       /* stepper used before a successful init */
    HS_E_UNKNOWN_PARAM = -17,  /* parameter name not in the model's table */
    HS_E_DEF_LINSYS = -18,     /* unknown linear-system backend, or sparse without a backend */
    HS_E_DEF_SPOOK = -19,      /* spook with another form or a stabilization, eps < 0 or tau/h <= 0 */
    HS_E_DEF_RHO = -20,        /* galpha rho_inf outside [0, 1], sdirk sd_gamma outside its range, or a combination not offered */
    HS_E_DEF_WATCHDOG = -21,   /* watchdog bound negative or not finite, or energy bound without energy() */
    HS_E_IMPLAUSIBLE = -22,    /* the new state breaks the def's plausibility bounds (|u|, energy growth) */
    /* method dvp (rt/hs_dvp.c); numbered apart from the list above so the two never collide */
    HS_E_DEF_DVP = -30,        /* dvp with a form other than index2, a stabilization or reg_eps */
    HS_E_DVP_RESIDUAL = -31,   /* dvp: the discrete Euler-Lagrange residual is not small after the fixed Newton iterations */
    HS_E_DEF_HOOK_LAGRANGE = -32, /* the method needs the model's lagrange() hook (dvp with a mass matrix that depends on q) */
    HS_E_RANGE = -33,          /* step beyond the method's range: its Newton correction is not small (h too large for the motion) */
    HS_E_DEF_EM = -34,         /* em with a form other than index2, a stabilization or reg_eps */
    HS_E_DEF_EM_MASS = -35,    /* em with a model whose mass matrix depends on q */
    HS_E_EM_RESIDUAL = -36,    /* em: the midpoint equations' residual is not small after the fixed Newton iterations */
    HS_E_RANGE_INIT = -37,     /* refused at init: h times the model's motion bound omega beyond the method's range */
    HS_E_RANGE_DEGENERATE = -38, /* refused at init: the model declares constraints that can become dependent, where the method's step matrix turns singular */
    /* per-constraint compliance (numbered apart so concurrent additions above never collide) */
    HS_E_DEF_COMPLIANCE = -40, /* a compliance or damping negative or not finite, or a method that cannot honour it */
    /* hil/: a plant's refused outputs (hil/hs_plant.h) */
    HS_E_OUTPUT_NONFINITE = -64, /* a model output is NaN/Inf, or its wire value overflows */
    HS_E_OUTPUT_RANGE = -65,   /* a model output is outside its signal's [min, max] */
    /* hil/ and the tools (port/); the exit status of each is hil/hs_exit.h's hs_exit_of */
    HS_E_USAGE = -100,         /* bad option or command line (nothing ran) */
    HS_E_SIGNAL_MAP = -101,    /* a signal map refused (names, ranges, counts against the model) */
    HS_E_DBC = -102,           /* a DBC file refused, or its binding to the application's signals */
    HS_E_SETUP = -103,         /* a socket, thread, transport or file could not be set up */
    HS_E_WRITE = -104,         /* output (telemetry, CSV, generated C, stats) could not be written */
    HS_E_STEP = -105,          /* the stepper refused during the run: a step (hilstep-sim: also its init) */
    HS_E_OVERRUN = -106,       /* a frame overran under policy stop (safe outputs were sent) */
    HS_E_BUDGET = -107,        /* the latency verdict failed (a frame beyond the budget, or missed ticks) */
    HS_E_LINK = -108,          /* the link failed: frames with a bad MAC, or (ECU) the plant fell silent */
    HS_E_INACCURATE = -109,    /* the run's error estimate exceeded its tolerance (--tol) */
    /* link health (hil/hs_health.h), a block of its own */
    HS_E_LINK_REJECTED = -120, /* frames from the peer were rejected (more than the limit) */
    HS_E_LINK_NO_PEER = -121,  /* the peer was never heard: no frame applied in the whole run */
    HS_E_LINK_FALLBACK = -122  /* an input ran on its fallback after the link came up */
} hs_status;

/* The one error record: where and why a call failed, filled at the point of failure and read
 * by whoever reports it (a tool prints "FILE:LINE: field 'F': msg"). The parser of .hsm
 * descriptions (hs_mb_error) and the DBC reader and binder (hs_dbc_error) fill it. */
typedef struct hs_error {
    hs_status status;  /* the status returned with it */
    int line;          /* 1-based line of the text at fault, 0 when the whole input is */
    int index;         /* the offending element's index within its table, -1 when none */
    char field[32];    /* the offending keyword, key or name (may be empty) */
    const char *msg;   /* English text: static, or detail (never NULL once filled) */
    char detail[160];  /* names involved (e.g. the joints of a redundant set), may be empty */
    int has_value;     /* 1: value below is the measured quantity of msg (e.g. a residual) */
    double value;      /* the measured quantity, when has_value */
} hs_error;

/* Short English text for a status code; never NULL. */
const char *hs_status_str(int status);

/* 1 when x is neither NaN nor +-Inf; freestanding replacement for isfinite(). */
static inline int hs_isfinite(hs_real x) { return (x - x) == (x - x); }

/* |x| without libm: the FPU's abs instruction (exact, branch-free). */
#ifdef HS_REAL_FLOAT
static inline hs_real hs_abs(hs_real x) { return __builtin_fabsf(x); }
#else
static inline hs_real hs_abs(hs_real x) { return __builtin_fabs(x); }
#endif

/* 1 when all n entries of v are finite; the loop always visits all n entries (fixed cost). */
static inline int hs_all_finite(const hs_real *v, int n)
{
    /* x - x is +0 for finite x and NaN otherwise, and a NaN stays in a sum: one compare at
     * the end; two sums, so pairs of entries can share an instruction */
    hs_real z0 = HS_R(0.0), z1 = HS_R(0.0);
    int i = 0;
    for (; (i + 1) < n; i += 2) {
        z0 += v[i] - v[i];
        z1 += v[i + 1] - v[i + 1];
    }
    if (i < n) {
        z0 += v[i] - v[i];
    }
    return ((z0 + z1) == HS_R(0.0)) ? 1 : 0;
}

#endif
