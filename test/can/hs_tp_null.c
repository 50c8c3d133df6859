/* hs_tp_null.c - a third transport for the seam test (test/can/run_tests.sh): "null" receives
 * nothing and drops every frame it is given, counting them. It is built into a copy of
 * hilstep-rt together with a registration table that differs from port/linux-rt/hs_transports.c
 * by one line, to show that a new transport needs nothing else: no option parsing, no change
 * to the plant or to hilstep_rt.c. Its option: null-note=TEXT (echoed in the description). */
#include "hs_transports.h"

#include <stdio.h>

static uint64_t g_sent, g_bytes;

static hs_status null_open(hs_transport *t, const hs_tp_cfg *cfg, hs_tp_error *err)
{
    (void)err;
    t->map = NULL;
    snprintf(t->desc, sizeof t->desc, "null transport (%s)", hs_tp_opt(cfg, "null-note", "no note"));
    return HS_OK;
}
static int null_receive(hs_transport *t, hs_rx *rx, int max) { (void)t; (void)rx; (void)max; return 0; }
static void null_send(hs_transport *t, const hs_tp_out *o)
{
    (void)t;
    g_sent++;
    g_bytes += o->n;
}
static int null_wait(hs_transport *t, int64_t timeout_ns) { (void)t; (void)timeout_ns; return 0; }
static void null_counters(const hs_transport *t, hs_tp_kv kv, void *ctx)
{
    (void)t;
    kv(ctx, "null_frames", (double)g_sent, "(dropped)");
    kv(ctx, "null_bytes", (double)g_bytes, "");
}
static void null_close(hs_transport *t) { (void)t; }

const hs_transport_ops hs_tp_null = {"null", "(test) drops every frame", null_open, null_receive,
                                     null_send, null_wait, null_counters, null_close, 0};
