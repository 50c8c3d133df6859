/* hs_tick.h - the core's timer: the SysTick shell around the plant application
 * (hil/hs_plant.h), in the style of Simulink Embedded Coder's bare-metal rt_OneStep. (Named
 * hs_tick so it no longer shares a name with hil/hs_frame.h, the wire frame.)
 *
 * SysTick fires every period (1 ms) at high priority and only does bookkeeping: it counts the
 * tick and, when no step is running, pends PendSV. PendSV runs at the lowest priority and
 * calls the application's step through hs_tick_one_step(), which sets the overrun flag on
 * entry and clears it on exit. A tick that finds the flag set arrived while the previous step
 * still ran: that is an overrun, counted once per late tick and handled by the build-time
 * policy (HS_OVERRUN_POLICY_STOP defined: stop; otherwise skip). Because the tick preempts the
 * step, detection does not depend on the step ever finishing.
 *
 *   skip: the late tick is counted and gets no step of its own; the frame continues, so after
 *         T ticks exactly T - overruns steps have run.
 *   stop: the application's safe_state() runs from the tick interrupt, a line
 *         "overrun: stop policy ..." is printed, and the program exits with HS_EXIT_OVERRUN (3).
 * The application learns of each late tick through its overrun() callback (the plant counts
 * it) and decides there; hs_tick_policy_stop tells it which policy this image was built with.
 * Exit statuses: hil/hs_exit.h, the table every hilstep plant shares.
 */
#ifndef HS_TICK_H
#define HS_TICK_H

#include <stdint.h>

#define HS_TICK_HIST_BINS 16

/* 1 in images built with HS_OVERRUN_POLICY_STOP, else 0. */
extern const int hs_tick_policy_stop;

/* The application, Embedded Coder style. */
typedef struct hs_tick_app {
    /* Runs once before the first tick; nonzero = refuse to start (exit HS_EXIT_SETUP). */
    int (*initialize)(void);
    /* Optional: runs once in the frame's context (PendSV) before the first tick, to take
     * first-execution costs out of the first timed frame. */
    void (*warmup)(void);
    /* One frame. 0: continue; 1: finished (the frame stops, terminate runs); negative: a
     * fault: safe_state runs and the program exits with HS_EXIT_STEP. */
    int (*step)(void);
    /* Runs once after the last frame, in thread mode. */
    void (*terminate)(void);
    /* Optional: called from the tick interrupt for each tick that arrived while a step ran;
     * nonzero = the application stops (policy stop): safe_state runs, exit HS_EXIT_OVERRUN. */
    int (*overrun)(void);
    /* Drives the outputs to their safe values; called on a fault or a `stop` overrun, possibly
     * from the tick interrupt. Must be short and must not fail. */
    void (*safe_state)(void);
    /* Optional: called in thread mode about every `status_period` ticks while running. */
    void (*status)(void);
    uint32_t status_period;
} hs_tick_app;

/* Frame statistics; times in SysTick counts (HS_INSN_PER_COUNT instructions each under
 * -icount shift=0). */
typedef struct hs_tick_stats {
    volatile uint32_t ticks;    /* tick interrupts since start */
    volatile uint32_t steps;    /* frames executed */
    volatile uint32_t overruns; /* ticks that arrived while a step was running */
    uint32_t over;              /* frames whose execution exceeded the period (counted in
                                   guest instructions: under sleep=on the host cannot add to it) */
    uint32_t exec_min, exec_max;  /* execution time of one frame */
    uint64_t exec_sum;
    uint32_t hist[HS_TICK_HIST_BINS]; /* bin k: exec in [2^k, 2^(k+1)) counts; last bin open */
} hs_tick_stats;

extern hs_tick_stats hs_tick;

/* Runs app: initialize, SysTick at `period` counts (25000 = 1 ms), frames until step reports
 * finished or a fault/stop ends the program, then terminate. Returns HS_EXIT_OK after a
 * normal finish; other outcomes exit from inside. */
int hs_tick_run(const hs_tick_app *app, uint32_t period);

/* Monotonic time since hs_tick_run started the timer, in counts; callable from any
 * priority. Correct across reloads even while the tick is pending. */
uint64_t hs_tick_now(void);

/* SysTick reload value + 1 (counts per frame). */
uint32_t hs_tick_period(void);

/* 1 while a step is running (the overrun flag). */
int hs_tick_busy(void);

#endif
