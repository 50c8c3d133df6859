/* hs_health.h - link health: what the receive side of a link (hs_rx) went through in a run,
 * and the verdict on it, the same on every port (hilstep-rt, hilstep-ecu, the boards).
 *
 * A run whose inputs came from nowhere is not a run that worked: the peer never heard, an
 * input on its fallback after the link came up, or frames from the peer rejected each fail
 * it with an exit status of its own (hil/hs_exit.h). The port feeds hs_health_tick once per
 * tick after hs_rx_tick; hs_health_judge gives the status and hs_health_line the one line a
 * CI log shows. No OS calls, no allocation, no stdio; every loop is bounded by the input
 * count or the cause table. */
#ifndef HS_HEALTH_H
#define HS_HEALTH_H

#include "hs_signal.h"

/* hilstep-sim's and hilstep-rt's --tol default (units of q: m or rad): a run whose err_est
 * (hs_stepper_stats.err_est) exceeds it is inaccurate; chosen in rt/METHODS.md "The error
 * estimate" from the calibration table (make err-test). */
#define HS_ERR_TOL_DEFAULT 5.0e-2

/* What a rejected datagram says about the link. One row per hs_rx_reason: a cause added to
 * the frame path (hs_frame.h) is one more row here; a reason without a row is judged. */
typedef struct hs_health_cause {
    int reason;      /* hs_rx_reason */
    int judged;      /* 1: counts against hs_health_limits.max_rejected; 0: reported only */
    const char *why; /* what it means for the link, for documents and --help */
} hs_health_cause;

/* The cause table (hs_health.c): one row per rejection reason, and its number of rows. */
extern const hs_health_cause hs_health_causes[HS_RX_REASONS - 1];
extern const int hs_health_ncauses;

/* 1 when datagrams rejected for reason count against the limit (no row: 1). */
int hs_health_judged(int reason);

/* The thresholds of the verdict; hs_health_strict() gives the strict defaults (all 0). */
typedef struct hs_health_limits {
    uint64_t max_fallback_ticks; /* ticks any one input may run on its fallback after the link
                                    came up (the start-up ticks before the first fresh frame
                                    are counted apart and never judged) */
    uint64_t max_rejected;       /* judged datagrams rejected over the run */
    int allow_no_peer;           /* 1: a peer never heard is reported, not judged */
    double tol;                  /* the accuracy verdict's bound on the stepper's err_est
                                    (units of q; hs_health_accuracy), <= 0 = off */
} hs_health_limits;

/* The strict limits: nothing on fallback after link up, nothing rejected, the peer heard;
 * tol = HS_ERR_TOL_DEFAULT. */
hs_health_limits hs_health_strict(void);

/* What the verdict found, in the order it is judged (the exit table's order). */
typedef enum hs_health_class {
    HS_HEALTH_OK = 0,
    HS_HEALTH_REJECTED = 1,  /* more judged rejections than max_rejected */
    HS_HEALTH_NO_PEER = 2,   /* no frame was ever applied to a link with inputs (not allowed) */
    HS_HEALTH_FALLBACK = 3   /* an input ran on its fallback after link up, beyond the limit */
} hs_health_class;

/* The health record of one link. */
typedef struct hs_health {
    hs_health_limits lim;
    unsigned n;                  /* inputs watched (hs_rx.n) */
    uint64_t ticks;              /* ticks observed */
    int up;                      /* 1 once a fresh frame was applied (the link came up) */
    uint64_t up_tick;            /* ticks before the first fresh frame: the start-up allowance */
    uint64_t fallback[HS_FRAME_MAX_VALUES]; /* (n) ticks on the fallback after link up */
    uint64_t stale[HS_FRAME_MAX_VALUES];    /* (n) ticks without a fresh value after link up */
    uint64_t startup_fallback[HS_FRAME_MAX_VALUES]; /* (n) ticks on the fallback before it */
    uint64_t run_fb[HS_FRAME_MAX_VALUES];   /* (n) current consecutive ticks on the fallback */
    uint64_t quiet;              /* current run of ticks without a fresh frame, after link up */
    uint64_t silence_max;        /* longest such run (ticks) */
    uint64_t silences;           /* runs that put an input on its fallback */
    int silence_fb;              /* 1 when the current run put an input on its fallback */
    uint64_t tail;               /* fallback ticks hs_health_finish forgave (tail_ok) */
} hs_health;

/* Starts the record for rx (its n inputs) under lim (NULL: hs_health_strict()). */
void hs_health_init(hs_health *h, const hs_rx *rx, const hs_health_limits *lim);

/* One tick, after hs_rx_tick returned fresh (1: a fresh frame was applied). */
void hs_health_tick(hs_health *h, const hs_rx *rx, int fresh);

/* The run ended. tail_ok = 1 when a silence at the end is the peer's normal end (a transport
 * without a FINAL frame: CAN): the fallback ticks of that last silence are then forgiven
 * (counted in tail). */
void hs_health_finish(hs_health *h, int tail_ok);

/* The input with the most fallback ticks after link up, -1 when none was on its fallback. */
int hs_health_worst_input(const hs_health *h);

/* Judged rejections of rx (the sum over the judged rows of the cause table). */
uint64_t hs_health_rejected(const hs_rx *rx);

/* The verdict: the first failing hs_health_class in enum order, or HS_HEALTH_OK. */
hs_health_class hs_health_judge(const hs_health *h, const hs_rx *rx);

/* The status of a class for hs_exit_of: HS_OK, HS_E_LINK_REJECTED, HS_E_LINK_NO_PEER or
 * HS_E_LINK_FALLBACK. */
hs_status hs_health_status(hs_health_class c);

/* The verdict as one line into buf (cap bytes, always terminated), starting "link: ", e.g.
 * "link: input F_t on fallback 30 ticks after link up (longest silence 30 ms, 1 silence)".
 * peer names the other end ("ECU", "plant"), period_us the tick (for the ms figures).
 * Returns the line's length. */
size_t hs_health_line(const hs_health *h, const hs_rx *rx, const char *peer, uint32_t period_us,
                      char *buf, size_t cap);

/* The accuracy verdict (rt/METHODS.md "The error estimate"): a run whose err_est (the largest
 * local position error estimate of a step, hs_stepper_stats.err_est, units of q: m or rad)
 * exceeds tol is inaccurate. HS_ERR_TOL_DEFAULT is hilstep-sim's and hilstep-rt's --tol
 * default, chosen in rt/METHODS.md from the table of ratios (test/err). */

/* HS_OK, or HS_E_INACCURATE when tol > 0 and err_est > tol or err_est is not a number;
 * tol <= 0 is off (HS_OK). */
hs_status hs_health_accuracy(double err_est, double tol);

#endif
