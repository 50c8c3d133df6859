/* hs_apps.h - the static signal maps of the applications hilstep ships, and the telemetry
 * record the real-time side hands to its logger. OS-free, shared by board and Linux builds. */
#ifndef HS_APPS_H
#define HS_APPS_H

#include "hs_models.h"
#include "hs_signal.h"

/* Plant side of the circular track in HIL mode (external = 1): in F_t (N); out speed (m/s),
 * radius (m), x1 (m), x2 (m) - the model's outputs in its order. */
extern const hs_signal_map hs_map_circular_track_plant;

/* ECU side of the same link: in speed, radius, x1, x2 (the plant's outputs); out F_t (N). */
extern const hs_signal_map hs_map_circular_track_ecu;

/* Plant map of the model called name, or NULL when no map is declared for it. */
const hs_signal_map *hs_plant_map_find(const char *name);

/* One telemetry record per stepped frame (fixed size; unused tail entries are 0). */
typedef struct hs_tm_row {
    uint64_t tick;        /* index k of the frame on the time base (planned wake = start + k period) */
    int64_t planned_ns;   /* planned wake-up relative to the time base start (ns) */
    int64_t latency_ns;   /* actual minus planned wake-up (ns) */
    uint32_t exec_ns;     /* step + outputs + residual execution time (ns) */
    uint32_t frame_ns;    /* wake-up to end of the frame's work (ns) */
    double t;             /* simulated time of the committed state after the frame (s) */
    double q[HS_MODELS_MAX_NQ];    /* (nq) positions */
    double u[HS_MODELS_MAX_NQ];    /* (nq) velocities */
    double z[HS_MODELS_MAX_NZ];    /* (nz) auxiliary states */
    double in[HS_MODELS_MAX_NIN];  /* (nin) inputs handed to the model (engineering units) */
    double out[HS_MODELS_MAX_NOUT];/* (nout) outputs sent (engineering units) */
    double gmax;          /* max over i of |g_i| of this frame's committed state (model units) */
    uint32_t in_seq;      /* seq of the input frame in use (0 = none yet) */
    uint32_t flags;       /* HS_TMF_* */
    uint64_t missed;      /* missed ticks so far (cumulative) */
    uint64_t rejected;    /* rejected datagrams so far (cumulative) */
    uint64_t faults;      /* refused steps so far (cumulative) */
} hs_tm_row;

/* hs_tm_row.flags bits. */
#define HS_TMF_FRESH 0x1u  /* a fresh input frame was applied this tick */
#define HS_TMF_STALE 0x2u  /* at least one input is on its fallback */
#define HS_TMF_FAULT 0x4u  /* the step was refused; state and outputs held */

#endif
