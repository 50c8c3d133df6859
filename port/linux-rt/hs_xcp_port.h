/* hs_xcp_port.h - hilstep-rt's XCP on UDP/IP (hil/hs_xcp.h over a socket) and its A2L writer.
 *
 * The slave itself is freestanding (hil/hs_xcp.c); this file owns the socket, the address map
 * of this build (hil/XCP.md "Addresses"), calibration (a C model's params through
 * hs_model_set_param between two steps; a description's params by recompiling the description
 * off the real-time thread, then swapping the compiled tables between two steps) and the A2L
 * (ASAM MCD-2 MC 1.7) that describes it. The real-time thread calls hs_xcpp_frame once per
 * frame after the step. */
#ifndef HS_XCP_PORT_H
#define HS_XCP_PORT_H

#include <stdio.h>

#include "hs_plant.h"
#include "hs_xcp.h"

#define HS_XCPP_DEFAULT "127.0.0.1:5555" /* the A2L's address when no --xcp is given */
#define HS_XCPP_MAX_PARAMS 64
#define HS_XCPP_RX_PER_FRAME 16          /* datagrams handled per frame at most */

/* What the XCP port needs of the run. */
typedef struct hs_xcpp_cfg {
    const char *addr;          /* "A.B.C.D:PORT" (--xcp), NULL = none (A2L only) */
    hs_plant *plant;           /* initialized */
    hs_model *model;           /* the instance the plant steps (its type and desc swap on calibration) */
    const char *model_file;    /* the description (.hsm), NULL for a C model */
    const char (*pname)[64];   /* the --param overrides given at start */
    const double *pval;
    int nparams;
    int64_t period_ns;
} hs_xcpp_cfg;

/* Builds the address map, the params and their limits; with cfg->addr binds the socket and,
 * for a description, starts the recompile thread. 0, or -1 after a "hilstep-rt: --xcp ..."
 * message on stderr. */
int hs_xcpp_open(const hs_xcpp_cfg *cfg);

/* Writes the A2L of this build to path. 0, or -1 after a message. */
int hs_xcpp_write_a2l(const char *path, const char *model_name);

/* Once per frame on the real-time thread, after the step: the DAQ of this frame, a finished
 * recompile swapped in, then the master's commands. No-op without --xcp. */
void hs_xcpp_frame(uint64_t tick);

/* After the run: the counters and every calibration record as key=value lines (the stats
 * file) or as console lines (pretty = 1). */
void hs_xcpp_report(FILE *f, int pretty);

/* Closes the socket and stops the recompile thread. */
void hs_xcpp_close(void);

/* 1 when --xcp is active. */
int hs_xcpp_active(void);

/* The calibratable params of the telemetry's cal_ columns: their count, or -1 without --xcp
 * (then the telemetry has no xcp_cal column either). */
int hs_xcpp_nparams(void);

/* Param i's name (as in the A2L) and, in *unit, its unit ("" when none); 0 <= i < nparams. */
const char *hs_xcpp_param(int i, const char **unit);

/* Real-time thread: each param's value in use, into v (nparams entries), and the calibration
 * writes applied so far, into *applied. No-op without --xcp. */
void hs_xcpp_values(double *v, uint64_t *applied);

#endif
