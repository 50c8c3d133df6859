/* sim_args.h - hilstep-sim's command line as data: the parser and the setup behind
 * build/hilstep-sim, callable without printing or exiting (the CLI fuzz harness uses them). */
#ifndef HS_SIM_ARGS_H
#define HS_SIM_ARGS_H

#include <stdint.h>

#include "hs_models.h"
#include "hs_plant.h"
#include "hs_stepper.h"

#define HS_SIM_MAXP 32              /* --param options at most */
#define HS_SIM_MAX_STEPS 1e10       /* bound on T/h: ~8 h of host time for the car axle */
#define HS_SIM_INPUTS_MAX_ROWS 262144u /* data rows of --inputs (36 MiB of table at most) */
#define HS_SIM_MAX_NIN 24           /* input signals a --inputs file can drive (HS_MB_MAX_NIN) */

/* Results of hs_sim_parse / hs_sim_setup. */
#define HS_SIM_OK 0
#define HS_SIM_HELP 1               /* --help or -h: print the usage, exit 0 */
#define HS_SIM_BAD 2                /* bad arguments: hs_sim_err says which and why, exit 2 */

/* The parsed command line; strings point into argv. */
typedef struct hs_sim_cfg {
    const char *model_name;         /* --model */
    const char *model_file;         /* --model-file FILE.hsm: a multibody description (model/lang/hs_mb_parse.h) */
    const char *csv_path;           /* --csv, NULL = none */
    const char *inputs_path;        /* --inputs FILE.csv: input signals over time, NULL = all 0 */
    int interp_hold;                /* --interp hold (1) or linear (0, the default) */
    char pkeys[HS_SIM_MAXP][64];    /* (np) --param keys */
    double pvals[HS_SIM_MAXP];      /* (np) --param values */
    int np;
    int every;                      /* CSV row every N steps, >= 1 */
    int want_hash;                  /* --hash */
    int have_h, have_t, have_alpha, have_beta;
    double T_end, h, alpha, beta;   /* s, s, 1/s, 1/s^2 */
    int have_spook_tau;
    double spook_tau;               /* --spook-tau (s): def.spook_tau_h = spook_tau / h at setup */
    hs_stepper_def def;             /* hs_stepper_default_def() with the options applied */
    int stab_given;                 /* --stab was given (else a self-stabilizing method runs with none) */
    int auto_method;                /* --method auto: em, else dvp, else def; spook beyond their h*omega (rt/METHODS.md "Long runs") */
    double tol;                     /* --tol X (units of q: m, rad): err_est > X is status=inaccurate;
                                     * default HS_ERR_TOL_DEFAULT (hil/hs_health.h), 0 = off */
    int err_check;                  /* --err-check N: every step's true local error against N
                                     * steps of h/N from the same state (err_true=); 0 = off */
    int glob_check;                 /* --glob-check: the same run at h/2 beside it (err_rich=):
                                     * HS_SIM_GLOB_AUTO (every method but sdirk, --tol on), _ON, _OFF */
    int glob_ref;                   /* --glob-ref N: the default method at h/N beside the run from its
                                     * initial state (err_ref=, the true global error); 0 = off */
} hs_sim_cfg;

/* --glob-check's values (hs_sim_cfg.glob_check; a zeroed cfg is auto) */
#define HS_SIM_GLOB_AUTO 0
#define HS_SIM_GLOB_ON 1
#define HS_SIM_GLOB_OFF 2

/* What hs_sim_setup derived: the model instance and the exact step count. */
typedef struct hs_sim_run {
    const hs_model_type *type;
    hs_model model;
    _Alignas(16) unsigned char pblock[HS_MODELS_MAX_PARAM_BYTES]; /* the model's parameters */
    uint64_t nsteps;                /* T/h, exactly, <= HS_SIM_MAX_STEPS */
    int has_ref;                    /* 1: car axle with default parameters ending at t = 3 */
    /* --inputs: nrows samples at times in_t (s, strictly increasing) of ncol columns each
     * (in_v, row-major); in_col[i] = the column of model input i, -1 = not in the file (0). */
    const double *in_t, *in_v;
    size_t in_rows;
    int in_ncol;
    int in_col[HS_SIM_MAX_NIN];
    /* The signal map hilstep-rt's plant would run the model on (hs_plant_signal_map): inputs
     * are clamped into their [min, max] and outputs checked against theirs, as on the rig.
     * NULL for a registry model whose map that plant build refuses (too many signals): then
     * inputs are not clamped and outputs only checked for NaN/Inf. */
    const hs_signal_map *map;
    const hs_signal *in_sig[HS_PLANT_MAX_SIG];  /* (nin) the map's inputs, wire order */
    const hs_signal *out_sig[HS_PLANT_MAX_SIG]; /* (nout) its outputs */
    hs_plant_gmap gmap;                         /* storage of a generic map */
} hs_sim_run;

/* Model inputs in (nin) at time t (s) from r's --inputs table: the last sample at or before t
 * (hold) or the straight line between the two around t (linear); before the first sample and
 * after the last, their values. Inputs the file lacks are 0. */
void hs_sim_inputs_at(const hs_sim_cfg *c, const hs_sim_run *r, double t, hs_real *in, int nin);

/* The argument a failure is about (e.g. "--h") and a one-line reason. */
typedef struct hs_sim_err {
    char arg[64];
    char why[512];
} hs_sim_err;

/* Parses argv (argc entries, argv[0] ignored) into c; HS_SIM_OK, HS_SIM_HELP or HS_SIM_BAD. */
int hs_sim_parse(int argc, char *const *argv, hs_sim_cfg *c, hs_sim_err *e);

/* Builds the model of c into r, applies and checks the parameters, checks the signal map as
 * hilstep-rt does (a description it refuses is refused here), completes c->def (h, alpha,
 * beta) and validates it, and derives the step count; HS_SIM_OK or HS_SIM_BAD. */
int hs_sim_setup(hs_sim_cfg *c, hs_sim_run *r, hs_sim_err *e);

#endif
