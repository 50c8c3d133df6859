/* hs_plant.h - the plant application of a HIL bench, the same on every port.
 *
 * In the style of a Simulink Embedded Coder (ERT) model: initialize / step / terminate plus a
 * safe-output function, and an overrun flag around the step (rt_OneStep). The plant owns the
 * model instance's stepper, the signal map, the frame's receive side (hs_rx: every datagram
 * validated and counted) and send side (hs_tx), the refused-step and overrun policies and the
 * per-frame telemetry record. A port is only a timer and a transport around it:
 *
 *     hs_plant_initialize(&p, &def, &model, reals, nreals, ints, nints, why, cap);
 *     every period k:  for each datagram: hs_plant_receive(&p, buf, len, from_peer);
 *                      n = hs_plant_step(&p, k, last, frame, cap, &row);  send frame[0..n)
 *                      if the frame ended after the next deadline:
 *                          n = hs_plant_overrun(&p, missed, frame, cap);  send when n > 0
 *                      stop when p.stop != 0
 *     end:             n = hs_plant_final(&p, frame, cap); send; hs_plant_terminate(&p)
 *
 * No OS calls, no allocation; every loop is bounded by the frame's signal count or the model
 * sizes. Policies (hil/FRAME.md "Policies"):
 *   refused step: the step is transactional, so state and outputs are held and the frame is
 *     flagged FAULT; after fault_hold refused steps in a row the plant stops with safe
 *     outputs (SAFE|FINAL). Any refused step makes the run fail (HS_EXIT_STEP).
 *   refused outputs: a committed step whose outputs are NaN/Inf (HS_PLANT_E_OUTPUT_NONFINITE)
 *     or outside their signal's [min, max] (HS_PLANT_E_OUTPUT_RANGE) counts as a refused
 *     step: the state has advanced, but the outputs sent are the held ones, flagged FAULT,
 *     and the same fault hold applies. Refused, not clamped: a non-finite or out-of-range
 *     value never reaches the wire.
 *   overrun: skip (count the missed ticks, stay on the time base) or stop (safe outputs,
 *     HS_EXIT_OVERRUN). */
#ifndef HS_PLANT_H
#define HS_PLANT_H

#include "hs_exit.h"
#include "hs_signal.h"
#include "hs_stepper.h"

/* Largest instance a plant build handles (the default ladder of 10 cells: nq 93, nc 82); the
 * telemetry record is sized from these. A port may define smaller ones (the board build does). */
#ifndef HS_PLANT_MAX_NQ
#define HS_PLANT_MAX_NQ 96
#endif
#ifndef HS_PLANT_MAX_NC
#define HS_PLANT_MAX_NC 96
#endif
#ifndef HS_PLANT_MAX_NZ
#define HS_PLANT_MAX_NZ 24 /* the truck-trailer's tread and brake states (model/vehicle/hs_veh.h); car.hsm's 12 */
#endif
/* Most signals of one direction (a frame carries at most HS_FRAME_MAX_VALUES); 20: the
 * truck-trailer's outputs. */
#ifndef HS_PLANT_MAX_SIG
#define HS_PLANT_MAX_SIG 20
#endif

/* One telemetry record per stepped frame (fixed size; unused tail entries are 0). The plant
 * fills the state and counters; the port fills the timing fields it measured. */
typedef struct hs_tm_row {
    uint64_t tick;        /* index k of the frame on the time base (planned wake = start + k period) */
    int64_t planned_ns;   /* port: planned wake-up relative to the time base start (ns) */
    int64_t latency_ns;   /* port: actual minus planned wake-up (ns) */
    uint32_t exec_ns;     /* step + outputs + residual execution time (ns, plant clock) */
    uint32_t frame_ns;    /* port: wake-up to end of the frame's work (ns) */
    double t;             /* simulated time of the committed state after the frame (s) */
    double q[HS_PLANT_MAX_NQ];    /* (nq) positions */
    double u[HS_PLANT_MAX_NQ];    /* (nq) velocities */
    double z[HS_PLANT_MAX_NZ];    /* (nz) auxiliary states */
    double in[HS_PLANT_MAX_SIG];  /* (nin) inputs handed to the model (engineering units) */
    double out[HS_PLANT_MAX_SIG]; /* (nout) outputs sent (engineering units) */
    double gmax;          /* max over i of |g_i| of this frame's committed state (model units) */
    uint32_t in_seq;      /* seq of the input frame in use (0 = none yet) */
    uint32_t flags;       /* HS_TMF_* */
    uint64_t missed;      /* missed ticks so far (cumulative) */
    uint64_t rejected;    /* rejected datagrams so far (cumulative) */
    uint64_t faults;      /* refused steps so far (cumulative) */
    uint32_t tx_seq;      /* seq of the output frame sent for this frame (the wire's seq) */
    uint32_t tx_flags;    /* flags of that output frame (HS_FLAG_*) */
    double err_est;       /* the stepper's err_est so far (units of q; rt/METHODS.md) */
} hs_tm_row;

/* hs_tm_row.flags bits. */
#define HS_TMF_FRESH 0x1u  /* a fresh input frame was applied this tick */
#define HS_TMF_STALE 0x2u  /* at least one input is on its fallback */
#define HS_TMF_FAULT 0x4u  /* the step was refused; state and outputs held */

/* Configuration of one plant; hs_plant_default_def() fills every field. */
typedef struct hs_plant_def {
    hs_stepper_def step;       /* method, form, stab, h = the frame period (s), Baumgarte */
    const hs_signal_map *map;  /* NULL: the map shipped for the model (hs_plant_map_find), else
                                  a generic one from the model's input/output labels */
    uint32_t fault_hold;       /* refused steps in a row held before the plant stops, >= 1 */
    int overrun_stop;          /* 0: skip missed ticks; 1: stop with safe outputs */
    uint32_t session;          /* session id of the outgoing frames (differ between runs) */
    int64_t (*clock_ns)(void); /* monotonic clock for the step's execution time; NULL = none */
    int hash;                  /* 1: fold every committed step into the trajectory hash */
    int64_t inject_fault_tick; /* test switch: from this tick the step gets a NaN input, -1 off */
    uint32_t inject_fault_frames; /* ... for this many frames */
} hs_plant_def;

/* Defaults: sdirk / projection (the library's) at h = 1 ms, alpha = 1/h, beta = 1/h^2, shipped or
 * generic map, fault_hold 10 (10 ms at 1 kHz, half an input's stale limit), overrun skip. */
hs_plant_def hs_plant_default_def(void);

/* Plant-level refusals (hs_plant.last_fault), numbered apart from the stepper's hs_status. */
#define HS_PLANT_E_OUTPUT_NONFINITE HS_E_OUTPUT_NONFINITE /* an output is NaN/Inf, or its wire value overflows */
#define HS_PLANT_E_OUTPUT_RANGE HS_E_OUTPUT_RANGE         /* an output is outside its signal's [min, max] */

/* Short English text of a refused step's status (hs_status or HS_PLANT_E_*); never NULL. */
const char *hs_plant_fault_str(int status);

/* Why the plant stopped itself (hs_plant.stop). */
#define HS_PLANT_STOP_OVERRUN 1 /* overrun under policy stop */
#define HS_PLANT_STOP_FAULT 2   /* fault_hold refused steps in a row */

/* Storage of a generic signal map (a model without a shipped map or a description's own). */
typedef struct hs_plant_gmap {
    hs_signal sig[2 * HS_PLANT_MAX_SIG];  /* inputs, then outputs */
    char name[2 * HS_PLANT_MAX_SIG][2][24]; /* each signal's name and unit */
    hs_signal_map map;
} hs_plant_gmap;

typedef struct hs_plant {
    hs_plant_def def;
    const hs_model *model;
    hs_dims d;                 /* the instance's sizes */
    hs_stepper st;
    const hs_signal_map *map;  /* the map in use (checked) */
    hs_rx rx;
    hs_tx tx;
    hs_real in[HS_FRAME_MAX_VALUES]; /* (nin) inputs handed to the model this frame */
    hs_real y[HS_FRAME_MAX_VALUES];  /* (nout) outputs last sent (held while faulted) */
    volatile int busy;         /* the overrun flag: 1 while hs_plant_step runs */
    uint64_t frames;           /* frames stepped (stepping attempted) */
    uint64_t last_tick;        /* tick of the last frame stepped */
    uint64_t overrun_frames;   /* frames that ended after the next deadline */
    uint64_t missed_ticks;     /* deadlines that got no frame of their own */
    uint64_t faults;           /* refused steps */
    uint32_t fault_run;        /* refused steps in a row, now */
    uint32_t fault_run_max;    /* longest such run */
    int last_fault;            /* hs_status or HS_PLANT_E_* of the last refused step */
    uint64_t out_nonfinite;    /* refused steps whose outputs were NaN/Inf (in faults too) */
    uint64_t out_range;        /* refused steps whose outputs left [min, max] (in faults too) */
    double gnow;               /* max |g_i| of the committed state (model units) */
    double gmax;               /* its maximum over the run */
    uint64_t hash;             /* trajectory hash over the committed steps (def.hash) */
    uint32_t hashed_steps;     /* committed steps folded into it */
    int64_t step_min_ns, step_max_ns; /* hs_stepper_step alone (def.clock_ns) */
    int stop;                  /* 0 running, else HS_PLANT_STOP_*: safe outputs were built */
    int safe;                  /* 1 once the safe outputs went out */
    int final_built;           /* 1 once a FINAL frame was built */
    hs_plant_gmap g;           /* generic map storage (models without a shipped map) */
} hs_plant;

/* The signal map a plant of model m runs on, and the one check of it, shared by every tool
 * that runs a model (hilstep-rt, hilstep-ecu, hilstep-sim): map when not NULL (a description's
 * own), else the map shipped for the model's name, else the generic one built into g; then
 * hs_signal_map_check against the model's sizes (names unique, ranges, counts). HS_OK with
 * *out set, or HS_E_SIGNAL_MAP / HS_E_SIZE / HS_E_NULL with a one-line reason in why. */
hs_status hs_plant_signal_map(const hs_model *m, const hs_signal_map *map, hs_plant_gmap *g,
                              const hs_signal_map **out, char *why, size_t cap);

/* The plant's verdict on nout engineering outputs y against their signals sig[0..nout) (wire
 * order): HS_OK, HS_PLANT_E_OUTPUT_NONFINITE (NaN/Inf, or the wire value overflows) or
 * HS_PLANT_E_OUTPUT_RANGE (outside [min, max]); a NaN/Inf anywhere outranks a range fault. */
int hs_plant_check_outputs(const hs_signal *const *sig, int nout, const hs_real *y);

/* Binds the model instance m (initialized, parameters set and checked; owned by the caller)
 * and the stepper arenas (HS_STEPPER_REALS / HS_STEPPER_INTS of the model's sizes), checks the
 * map against the model, and computes the outputs of the initial state (the first frame sends
 * truth). Returns HS_OK, or the refusing status (the stepper's, HS_E_SIGNAL_MAP, HS_E_SIZE,
 * HS_E_NULL) with a one-line reason in why (cap bytes). */
hs_status hs_plant_initialize(hs_plant *p, const hs_plant_def *def, const hs_model *m,
                        hs_real *reals, size_t nreals, int *ints, size_t nints,
                        char *why, size_t cap);

/* Transport: one received datagram of len bytes; from_peer = 0 when its source is not the
 * configured peer. Counted in exactly one receive counter (hs_rx). Returns the hs_rx_reason. */
int hs_plant_receive(hs_plant *p, const uint8_t *buf, size_t len, int from_peer);

/* One frame at tick: newest valid input frame (or fallbacks), one step, outputs, and the
 * outgoing frame into out (cap >= HS_FRAME_MAX_BYTES); last = 1 flags it FINAL. Fills row when
 * not NULL (timing fields left to the port). Returns the frame's size in bytes. When the
 * fault hold is exhausted the frame built is the safe one (SAFE|FINAL) and p->stop is set. */
size_t hs_plant_step(hs_plant *p, uint64_t tick, int last, uint8_t *out, size_t cap,
                     hs_tm_row *row);

/* The port saw the frame end after the next deadline, missing `missed` ticks (>= 1): counts
 * them. Under policy stop builds the safe frame (SAFE|FINAL) into out, sets p->stop and
 * returns its size; otherwise 0 (nothing to send). */
size_t hs_plant_overrun(hs_plant *p, uint64_t missed, uint8_t *out, size_t cap);

/* Safe outputs: every output signal's fallback value, flags SAFE | extra. Returns its size. */
size_t hs_plant_safe_outputs(hs_plant *p, uint8_t *out, size_t cap, uint32_t extra_flags);

/* The run ended between frames (a signal, or an overrun jumped past the end): the FINAL frame
 * with the held outputs, unless one was built already (then 0). */
size_t hs_plant_final(hs_plant *p, uint8_t *out, size_t cap);

/* After the last frame and the transport's last drain: accepted frames never applied are
 * counted (rx unapplied), so every datagram is in exactly one counter. */
void hs_plant_terminate(hs_plant *p);

/* The run's exit status from the plant's own outcome and the port's: output_lost (1 when a
 * telemetry/stats/histogram write failed) and budget_failed (1 when the latency verdict
 * failed). One table for every port: hs_exit.h. */
int hs_plant_exit_code(const hs_plant *p, int output_lost, int budget_failed);

/* Model instance of type T into m with parameter block pblock (pcap bytes): defaults, then
 * `external` = 1 when the model has that parameter (inputs come from the wire). A model built
 * from a description sets m->desc afterwards. HS_OK, or HS_E_SIZE / the model's status with why. */
hs_status hs_plant_model_init(hs_model *m, const hs_model_type *T, void *pblock, size_t pcap,
                        char *why, size_t cap);

/* Model selection by name from the registry into m with parameter block pblock (pcap bytes):
 * sets the model's `external` parameter to 1 when it has one (inputs come from the wire).
 * HS_OK, HS_E_USAGE with the reason (and the known names) in why, or hs_plant_model_init's. */
hs_status hs_plant_model_by_name(hs_model *m, void *pblock, size_t pcap, const char *name,
                           char *why, size_t cap);

#endif
