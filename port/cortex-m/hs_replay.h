/* hs_replay.h - an input CSV replayed on the board (`make qemu-run INPUTS=file.csv`).
 *
 * The host converts the CSV (the format hilstep-sim --inputs reads) into a constant table at
 * build time (port/cortex-m/inputs_table.py: rows of t and one value per column, the numbers
 * as hex literals, so the board holds the bits strtod gave the host). At start the board binds
 * the columns to the model's inputs by name and unit as hilstep-sim does, and before every
 * step offers the inputs at the state's time t = k h to the plant's receive side as one frame
 * of engineering values (hs_rx_offer_values): clamped into each signal's [min, max] and
 * counted there, as a frame from an ECU would be. The interpolation is hilstep-sim's
 * (hs_sim_inputs_at: linear or hold, the first and last rows outside them), in the same
 * double operations, so a run within the ranges gives hilstep-sim --inputs's trajectory bits.
 * Inputs without a column stay on their signal's fallback. Fixed work per step: the row
 * search is HS_REPLAY_BISECT halvings whatever the table, then one value per column. */
#ifndef HS_REPLAY_H
#define HS_REPLAY_H

#include "hs_signal.h"
#include "hs_model.h"

#define HS_REPLAY_MAX_COLS 16      /* input columns (the boards' HS_MB_MAX_NIN; hilstep-sim takes 24) */
#define HS_REPLAY_MAX_ROWS 65536   /* rows of one table (the converter refuses more) */
#define HS_REPLAY_BISECT 17        /* halvings of the row search: ceil(log2(MAX_ROWS)) + 1 */

/* One converted CSV (generated C, constant). */
typedef struct hs_replay_table {
    const char *file;          /* the CSV's name as given, for messages */
    uint32_t rows;             /* data rows, 0 = no table (the inputs stay on their fallbacks) */
    uint32_t cols;             /* input columns, <= HS_REPLAY_MAX_COLS */
    int hold;                  /* 1: hold the earlier row between rows; 0: linear */
    const char *const *name;   /* (cols) column names, "in_" and the unit taken off */
    const char *const *unit;   /* (cols) their units, "" when the header gives none */
    const double *t;           /* (rows) times (s), strictly increasing */
    const double *v;           /* (rows x cols) values, row-major */
} hs_replay_table;

/* A table bound to a model: which input each column drives, and the counters. */
typedef struct hs_replay {
    const hs_replay_table *tab;
    double h;                  /* step size (s), as the run's */
    int ncol;                  /* columns bound (tab->cols) */
    uint8_t slot[HS_REPLAY_MAX_COLS]; /* model input of column j */
    uint64_t offered;          /* frames offered (one per step) */
    uint64_t refused;          /* of them refused by the receive side (non-finite) */
} hs_replay;

/* "name [unit]" or "name (unit)" (a model's signal label) into name and unit, both trimmed
 * (ncap, ucap bytes): hilstep-sim's and the plant's reading of a label. */
void hs_label_split(const char *s, char *name, size_t ncap, char *unit, size_t ucap);

/* Binds tab's columns to the inputs of model type T (by name, then unit, as hilstep-sim's
 * --inputs header): HS_OK, or HS_E_USAGE with "FILE: column 'X' ..." in why (cap bytes). */
hs_status hs_replay_bind(hs_replay *r, const hs_replay_table *tab, const hs_model_type *T,
                         int nin, double h, char *why, size_t cap);

/* The column values at time t (s) into v (ncol doubles): hilstep-sim's interpolation. */
void hs_replay_at(const hs_replay *r, double t, double *v);

/* Offers the inputs of step k (t = k h) to rx as one frame (seq k + 1). */
void hs_replay_offer(hs_replay *r, hs_rx *rx, uint64_t k);

#endif
