/* hs_exit.h - the one exit-status table of every hilstep plant (hilstep-rt on Linux, the
 * Cortex-M images under QEMU). A CI job can act on the number alone; the summary names it.
 * When several apply, the lowest non-zero code above 2 wins (the plant stopped itself before
 * it lost output, which it noticed before judging the latency). */
#ifndef HS_EXIT_H
#define HS_EXIT_H

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
#define HS_EXIT_LINK 8      /* authenticated link: frames with a bad or missing MAC arrived
                               (forged, or the peer holds another key); counted as bad_mac */
#define HS_EXIT_CPU_FAULT 0x40 /* + exception number: a CPU fault on the board (0x43 HardFault,
                                  0x44 MemManage, 0x45 BusFault, 0x46 UsageFault, 0x50+ IRQ) */

/* One line: what exit status code means (never NULL). */
const char *hs_exit_text(int code);

#endif
