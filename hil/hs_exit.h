/* hs_exit.h - the one exit-status table of every hilstep plant (hilstep-rt on Linux, the
 * Cortex-M images under QEMU). A CI job can act on the number alone; the summary names it.
 * When several apply, the lowest non-zero code above 2 wins (the plant stopped itself before
 * it lost output, which it noticed before judging the latency). */
#ifndef HS_EXIT_H
#define HS_EXIT_H

#include "hs_types.h"

#define HS_EXIT_OK 0        /* run complete (or ended by SIGINT/SIGTERM/SIGHUP), verdict PASS */
#define HS_EXIT_USAGE 1     /* bad option or command line: nothing ran */
#define HS_EXIT_SETUP 2     /* model (a refused .hsm description in every tool), signal map, stepper, socket, thread or output file could
                               not be set up: nothing ran */
#define HS_EXIT_OVERRUN 3   /* overrun with policy stop: safe outputs (SAFE|FINAL) were sent */
#define HS_EXIT_STEP 4      /* refused steps (the stepper's, or outputs NaN/Inf or outside
                               their range): held, then (fault hold exhausted) stopped with
                               safe outputs; a run with any refused step fails */
#define HS_EXIT_OUTPUT 5    /* telemetry, stats or histogram output was lost (ENOSPC, or EFBIG
                               past a file-size limit: SIGXFSZ is ignored, the write fails) */
#define HS_EXIT_BUDGET 6    /* verdict FAIL: a frame exceeded the latency budget (or missed ticks) */
#define HS_EXIT_TEST 7      /* a check of a test image failed (Cortex-M test firmware) */
#define HS_EXIT_LINK 8      /* link attacked: frames with a bad or missing MAC (forged, or the
                               peer holds another key: bad_mac), authentic frames of an earlier
                               run (old_run), or frames CAN E2E refused (a second sender) */
#define HS_EXIT_LINK_REJECTED 9 /* link health (hil/hs_health.h): frames from the peer were
                                   rejected, more than --max-rejected (default 0) */
#define HS_EXIT_LINK_NO_PEER 10 /* the peer was never heard: no frame applied in the whole run
                                   (hilstep-ecu: 8, its code for it before this row) */
#define HS_EXIT_LINK_FALLBACK 11 /* an input ran on its fallback after the link came up, more
                                    ticks than --max-fallback-ticks (default 0) */
#define HS_EXIT_INACCURATE 12 /* the run's error estimate err_est exceeded --tol (default
                                 HS_ERR_TOL_DEFAULT, hil/hs_health.h; rt/METHODS.md "The error
                                 estimate"): status=inaccurate */
#define HS_EXIT_CPU_FAULT 0x40 /* + exception number: a CPU fault on the board (0x43 HardFault,
                                  0x44 MemManage, 0x45 BusFault, 0x46 UsageFault, 0x50+ IRQ) */

/* One line: what exit status code means (never NULL). */
const char *hs_exit_text(int code);

/* The tools whose exit status hs_exit_of chooses: the plants keep the table above; the
 * offline host tools have kept their own numbers since before it (README, each --help). */
typedef enum hs_tool {
    HS_TOOL_PLANT = 0, /* hilstep-rt (and the Cortex-M plants): the table above */
    HS_TOOL_ECU,       /* hilstep-ecu: the table above (8 also for a plant that fell silent) */
    HS_TOOL_SIM,       /* hilstep-sim: 0 ok, 1 refused step, 2 bad option or setup, 3 write failed,
                          4 inaccurate (err_est > --tol) */
    HS_TOOL_MBGEN,     /* hilstep-mbgen: 0 ok, 2 bad option, file or --param, 3 write failed */
    HS_TOOL_DBCGEN,    /* hilstep-dbcgen: 0 ok, 1 bad option, 2 refused DBC, 3 write failed */
    HS_TOOL_COUNT
} hs_tool;

/* The exit status of tool for a run that ended with st: HS_OK 0; a status without a row of
 * its own failed the setup (2 in every tool). The one place a tool's exit number is chosen;
 * inline, so the host tools that link no hil/ object share it. */
/* One row of hs_exit_of's table: a status a tool ends with on purpose, its exit per hs_tool. */
typedef struct hs_exit_row {
    hs_status st;              /* the status the run ended with */
    int code[HS_TOOL_COUNT];   /* the exit status of each tool, in hs_tool order */
} hs_exit_row;

static inline int hs_exit_of(hs_tool tool, hs_status st)
{
    static const hs_exit_row rows[] = {
        /*               plant            ecu              sim mbgen dbcgen */
        {HS_OK,        {HS_EXIT_OK,      HS_EXIT_OK,      0,  0,    0}},
        {HS_E_USAGE,   {HS_EXIT_USAGE,   HS_EXIT_USAGE,   2,  2,    1}},
        {HS_E_OVERRUN, {HS_EXIT_OVERRUN, HS_EXIT_OVERRUN, 2,  2,    2}},
        {HS_E_STEP,    {HS_EXIT_STEP,    HS_EXIT_STEP,    1,  2,    2}},
        {HS_E_WRITE,   {HS_EXIT_OUTPUT,  HS_EXIT_OUTPUT,  3,  3,    3}},
        {HS_E_BUDGET,  {HS_EXIT_BUDGET,  HS_EXIT_BUDGET,  2,  2,    2}},
        {HS_E_LINK,    {HS_EXIT_LINK,    HS_EXIT_LINK,    2,  2,    2}},
        {HS_E_LINK_REJECTED, {HS_EXIT_LINK_REJECTED, HS_EXIT_LINK_REJECTED, 2, 2, 2}},
        {HS_E_LINK_NO_PEER,  {HS_EXIT_LINK_NO_PEER,  HS_EXIT_LINK,          2, 2, 2}},
        {HS_E_LINK_FALLBACK, {HS_EXIT_LINK_FALLBACK, HS_EXIT_LINK_FALLBACK, 2, 2, 2}},
        {HS_E_INACCURATE,    {HS_EXIT_INACCURATE,    HS_EXIT_INACCURATE,    4, 2, 2}},
    };
    int code = HS_EXIT_SETUP;
    /* tool is one of hs_tool's enumerators, none negative (compilers differ on the signedness
     * of an enum without negative values, so >= 0 is not tested) */
    if (tool < HS_TOOL_COUNT) {
        for (size_t i = 0; i < (sizeof rows / sizeof rows[0]); ++i) {
            if (rows[i].st == st) {
                code = rows[i].code[tool];
            }
        }
    }
    return code;
}

#endif
