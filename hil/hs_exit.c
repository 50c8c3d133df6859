/* hs_exit.c - the meaning of each exit status (hs_exit.h). */
#include "hs_exit.h"

const char *hs_exit_text(int code)
{
    switch (code) {
    case HS_EXIT_OK: return "run complete, verdict PASS";
    case HS_EXIT_USAGE: return "bad option or command line";
    case HS_EXIT_SETUP: return "setup failed (model, signal map, stepper, socket, thread or output file)";
    case HS_EXIT_OVERRUN: return "overrun with policy stop: safe outputs sent";
    case HS_EXIT_STEP: return "refused steps (stepper fault or non-finite/out-of-range outputs): run failed";
    case HS_EXIT_OUTPUT: return "output lost (telemetry, stats or histogram)";
    case HS_EXIT_BUDGET: return "latency budget exceeded";
    case HS_EXIT_TEST: return "a test check failed";
    case HS_EXIT_LINK: return "frames with a bad or missing MAC (forged, another key), replayed from an earlier run, or refused by CAN E2E (a second sender)";
    case HS_EXIT_LINK_REJECTED: return "link: frames from the peer were rejected";
    case HS_EXIT_LINK_NO_PEER: return "link: the peer was never heard";
    case HS_EXIT_LINK_FALLBACK: return "link: an input ran on its fallback after the link came up";
    case HS_EXIT_INACCURATE: return "inaccurate: the run's error estimate err_est exceeded --tol";
    default: break;
    }
    if (code >= HS_EXIT_CPU_FAULT && code < HS_EXIT_CPU_FAULT + 0x40) { return "CPU fault on the board"; }
    return "unknown exit status";
}

