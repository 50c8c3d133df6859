/* hs_tp_udp.c - transport "udp": the frame of hil/FRAME.md over the UDP endpoint of
 * hs_linux.c (one configured peer). Options: listen=A.B.C.D:P, peer=A.B.C.D:P. */
#define _GNU_SOURCE
#include "hs_linux.h"
#include "hs_transports.h"

#include <stdio.h>
#include <string.h>

typedef struct udp_state {
    hs_udp udp;
    int open;
} udp_state;

static udp_state g_udp;

static hs_status udp_open(hs_transport *t, const hs_tp_cfg *cfg, hs_tp_error *err)
{
    struct sockaddr_in la, pa;
    char why[256];
    udp_state *s = &g_udp;
    memset(s, 0, sizeof *s);
    t->state = s;
    t->map = NULL;
    const char *listen = hs_tp_opt(cfg, "listen", "");
    const char *peer = hs_tp_opt(cfg, "peer", "");
    if (hs_addr_parse(listen, &la, why, sizeof why) != 0)
        return hs_tp_fail(err, HS_E_USAGE, "listen", listen, 0, "%s", why);
    if (hs_addr_parse(peer, &pa, why, sizeof why) != 0)
        return hs_tp_fail(err, HS_E_USAGE, "peer", peer, 0, "%s", why);
    if (cfg->map_only) return HS_OK;
    if (hs_udp_open(&s->udp, &la, &pa, cfg->rcvbuf, why, sizeof why) != 0)
        return hs_tp_fail(err, HS_E_SETUP, s->udp.open_peer ? "peer" : "listen",
                          s->udp.open_peer ? peer : listen, s->udp.open_errno, "%s", why);
    s->open = 1;
    char ab1[32], ab2[32];
    snprintf(t->desc, sizeof t->desc, "%s -> peer %s", hs_addr_str(&s->udp.local, ab1, sizeof ab1),
             hs_addr_str(&pa, ab2, sizeof ab2));
    return HS_OK;
}

static int udp_receive(hs_transport *t, hs_rx *rx, int max)
{
    udp_state *s = (udp_state *)t->state;
    uint8_t buf[HS_FRAME_MAX_BYTES + 1];
    int nrx = 0;
    for (;;) {
        int from_peer;
        ssize_t n = hs_udp_recv(&s->udp, buf, sizeof buf, &from_peer);
        if (n == -1) break;
        if (n == -2) { t->rx_errors++; break; }
        (void)hs_rx_offer(rx, buf, (size_t)n, from_peer);
        if (++nrx > max) { t->rx_cap_hits++; break; }
    }
    return nrx;
}

static void udp_send(hs_transport *t, const hs_tp_out *o)
{
    udp_state *s = (udp_state *)t->state;
    if (o->n) (void)hs_udp_send(&s->udp, o->frame, o->n);
}

static int udp_wait(hs_transport *t, int64_t timeout_ns)
{
    return hs_udp_wait(&((udp_state *)t->state)->udp, timeout_ns);
}

static void udp_counters(const hs_transport *t, hs_tp_kv kv, void *ctx)
{
    const udp_state *s = (const udp_state *)t->state;
    kv(ctx, "rx_kernel_drops", (double)s->udp.kernel_drops, "(socket queue full)");
    kv(ctx, "rx_foreign_kernel_drops", (double)s->udp.foreign_kernel_drops, "(other sources, queue full)");
    kv(ctx, "rx_peer_unreachable", (double)s->udp.peer_unreachable, "(ICMP: no ECU listening)");
    kv(ctx, "rx_cap_hits", (double)t->rx_cap_hits, "");
    kv(ctx, "rx_socket_errors", (double)t->rx_errors, "");
    kv(ctx, "tx_send_errors", (double)s->udp.send_errors, "");
}

static void udp_close(hs_transport *t)
{
    udp_state *s = (udp_state *)t->state;
    if (s && s->open) hs_udp_close(&s->udp);
    if (s) s->open = 0;
}

const hs_transport_ops hs_tp_udp = {
    "udp", "--listen A.B.C.D:P --peer A.B.C.D:P (frame of hil/FRAME.md)",
    udp_open, udp_receive, udp_send, udp_wait, udp_counters, udp_close, 1};
