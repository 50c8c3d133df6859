/* hs_tp_can.c - transport "can": SocketCAN raw socket (classic CAN and CAN FD) with the
 * signal map of a DBC file (hil/CAN.md). Options: can-if=IF (e.g. vcan0), dbc=FILE,
 * can-filter=on|off (default on: the kernel passes only the DBC's ids, CAN_RAW_FILTER; off:
 * every frame reaches the codec, so frames with ids outside the DBC are counted too),
 * e2e-cadence=on|off (default on: an E2E frame more than half a cycle early is refused; off
 * under an emulator, whose scheduling gaps exceed the cycle), secoc-key=FILE (the key of the
 * DBC's SecOC messages; default the per-user link key of hil/FRAME.md, which must exist: the
 * first authenticated UDP run creates it). The application adds auth=off for --no-auth: the
 * DBC's SecOC is then neither checked nor written (no key read; a collection's authentic frames
 * applied at once, hil/CAN.md "Authentication of the shipped DBCs"). */
#define _GNU_SOURCE
#include "hs_dbc_file.h"
#include "hs_linux.h"
#include "hs_transports.h"

#include <errno.h>
#include <linux/can.h>
#include <linux/can/raw.h>
#include <net/if.h>
#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct can_state {
    int fd;
    int fd_any;                     /* 1 when a message of the DBC is CAN FD */
    hs_can_db db;
    hs_can_link link;
    hs_signal sig[2 * HS_FRAME_MAX_VALUES];
    hs_signal_map map;
    uint32_t kernel_drops;          /* frames the kernel dropped on a full queue (SO_RXQ_OVFL) */
    uint64_t tx_errors;             /* write() failures (ENOBUFS: the interface queue is full) */
    int last_tx_errno;
    uint64_t tx_written;            /* frames the kernel took */
    hs_mac secoc_key;               /* the key of the DBC's SecOC messages (hil/CAN.md, "Security") */
} can_state;

static can_state g_can;

/* Loads the key of the DBC's SecOC messages (when it has any, and the transport is opened for
 * more than its map) into s->secoc_key: the file of secoc-key=FILE, else the per-user link key
 * (read, never created here). HS_OK or HS_E_SETUP. */
static hs_status secoc_key(can_state *s, const hs_tp_cfg *cfg, hs_tp_error *err)
{
    char def[4096], why[768];
    const char *path = hs_tp_opt(cfg, "secoc-key", NULL);
    int any = 0;
    if (cfg->map_only) return HS_OK;
    for (int m = 0; m < s->db.nmsg; ++m) any |= s->db.msg[m].secoc != 0u;
    if (!any) return HS_OK;
    if (!strcmp(hs_tp_opt(cfg, "auth", "on"), "off")) {
        s->link.secoc_off = 1u; /* --no-auth: the verdict says so */
        return HS_OK;
    }
    if (!path) {
        if (hs_key_default_path(def, sizeof def, why, sizeof why) != 0)
            return hs_tp_fail(err, HS_E_SETUP, "secoc-key", "", 0, "SecOC key: %s", why);
        path = def;
    }
    if (hs_key_load(path, &s->secoc_key, why, sizeof why) < 0)
        return hs_tp_fail(err, HS_E_SETUP, "secoc-key", path, 0, "SecOC key of the DBC's authenticated "
                          "messages: %s (the first authenticated run of hilstep-rt over UDP creates the "
                          "per-user key; --transport-opt secoc-key=FILE names another)", why);
    s->link.secoc_key = &s->secoc_key;
    return HS_OK;
}

static hs_status can_open(hs_transport *t, const hs_tp_cfg *cfg, hs_tp_error *err)
{
    can_state *s = &g_can;
    const char *ifn = hs_tp_opt(cfg, "can-if", NULL);
    const char *dbc = hs_tp_opt(cfg, "dbc", NULL);
    const char *filt = hs_tp_opt(cfg, "can-filter", "on");
    const char *cad = hs_tp_opt(cfg, "e2e-cadence", "on");
    const char *in[HS_FRAME_MAX_VALUES], *out[HS_FRAME_MAX_VALUES];
    char why[sizeof err->msg];
    int nin = 0, nout = 0;
    hs_dbc_error derr;
    hs_status st;
    memset(s, 0, sizeof *s);
    s->fd = -1;
    t->state = s;
    t->map = NULL;
    if (!ifn || !dbc)
        return hs_tp_fail(err, HS_E_USAGE, ifn ? "dbc" : "can-if", "", 0,
                          "--transport can needs --can-if IF and --dbc FILE");
    const char *sw = (strcmp(filt, "on") && strcmp(filt, "off")) ? "can-filter"
                   : (strcmp(cad, "on") && strcmp(cad, "off")) ? "e2e-cadence" : NULL;
    const char *swv = (sw && sw[0] == 'c') ? filt : cad;
    if (sw) return hs_tp_fail(err, HS_E_USAGE, sw, swv, 0, "%s must be on or off, got '%s'", sw, swv);
    if (hs_dbc_load_file(dbc, &s->db, why, sizeof why) != 0)
        return hs_tp_fail(err, HS_E_DBC, "dbc", dbc, 0, "%s", why);
    for (int i = 0; i < cfg->map->n; ++i) {
        const hs_signal *g = &cfg->map->sig[i];
        if (g->dir == HS_SIG_IN && nin < (int)HS_FRAME_MAX_VALUES) in[nin++] = g->name;
        if (g->dir == HS_SIG_OUT && nout < (int)HS_FRAME_MAX_VALUES) out[nout++] = g->name;
    }
    if (hs_can_bind(&s->link, &s->db, in, nin, out, nout, cfg->period_us, &derr) != 0 ||
        hs_can_map(&s->link, cfg->map, cfg->map->app, s->sig, (int)(sizeof s->sig / sizeof s->sig[0]),
                   &s->map, &derr) != 0) {
        hs_dbc_error_msg(dbc, &derr, why, sizeof why);
        return hs_tp_fail(err, HS_E_DBC, "dbc", dbc, 0, "%s", why);
    }
    s->link.e2e_cadence_off = !strcmp(cad, "off");
    int nrx = 0, ntx = 0;
    for (int m = 0; m < s->db.nmsg; ++m) {
        s->fd_any |= s->db.msg[m].fd;
        if (s->link.dir[m] == HS_SIG_IN) nrx++; else ntx++;
    }
    t->map = &s->map;
    snprintf(t->desc, sizeof t->desc, "CAN %s, DBC %s (%d messages received, %d sent)", ifn, dbc,
             nrx, ntx);
    if ((st = secoc_key(s, cfg, err)) != HS_OK || cfg->map_only) return st;

    /* The interface: it must exist and be up, and carry CAN FD when the DBC needs it. */
    const unsigned ifindex = if_nametoindex(ifn);
    if (ifindex == 0)
        return hs_tp_fail(err, HS_E_SETUP, "can-if", ifn, errno, "CAN interface '%s': %s (a virtual "
                          "bus: ip link add dev %s type vcan && ip link set up %s)", ifn,
                          strerror(errno), ifn, ifn);
    s->fd = socket(PF_CAN, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, CAN_RAW);
    if (s->fd < 0)
        return hs_tp_fail(err, HS_E_SETUP, "can-if", ifn, errno, "CAN interface '%s': socket(PF_CAN): "
                          "%s (kernel module can-raw missing?)", ifn, strerror(errno));
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", ifn);
    if (ioctl(s->fd, SIOCGIFFLAGS, &ifr) == 0 && !(ifr.ifr_flags & IFF_UP)) {
        st = hs_tp_fail(err, HS_E_SETUP, "can-if", ifn, 0, "CAN interface '%s' is down (ip link set "
                        "up %s)", ifn, ifn);
        goto fail;
    }
    if (s->fd_any) {
        int one = 1;
        memset(&ifr, 0, sizeof ifr);
        snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", ifn);
        if (ioctl(s->fd, SIOCGIFMTU, &ifr) != 0 || ifr.ifr_mtu != (int)CANFD_MTU) {
            st = hs_tp_fail(err, HS_E_SETUP, "can-if", ifn, 0, "CAN interface '%s' does not carry "
                            "CAN FD (MTU %d, needs %d), but %s declares CAN FD messages", ifn,
                            ifr.ifr_mtu, (int)CANFD_MTU, dbc);
            goto fail;
        }
        if (setsockopt(s->fd, SOL_CAN_RAW, CAN_RAW_FD_FRAMES, &one, sizeof one) != 0) {
            st = hs_tp_fail(err, HS_E_SETUP, "can-if", ifn, errno, "CAN interface '%s': "
                            "CAN_RAW_FD_FRAMES: %s", ifn, strerror(errno));
            goto fail;
        }
    }
    if (!strcmp(filt, "on")) {
        /* Only the DBC's input ids reach this socket: foreign traffic costs the RT thread nothing. */
        struct can_filter f[HS_CAN_MAX_MSGS];
        int nf = 0;
        for (int m = 0; m < s->db.nmsg; ++m) {
            if (s->link.dir[m] != HS_SIG_IN) continue;
            const hs_can_msg *M = &s->db.msg[m];
            f[nf].can_id = M->ext ? (M->id | CAN_EFF_FLAG) : M->id;
            f[nf].can_mask = CAN_EFF_FLAG | CAN_RTR_FLAG | (M->ext ? CAN_EFF_MASK : CAN_SFF_MASK);
            nf++;
        }
        if (setsockopt(s->fd, SOL_CAN_RAW, CAN_RAW_FILTER, nf ? f : NULL,
                       (socklen_t)(sizeof f[0] * (size_t)nf)) != 0) {
            st = hs_tp_fail(err, HS_E_SETUP, "can-if", ifn, errno, "CAN interface '%s': "
                            "CAN_RAW_FILTER: %s", ifn, strerror(errno));
            goto fail;
        }
    }
    int one = 1;
    (void)setsockopt(s->fd, SOL_SOCKET, SO_RXQ_OVFL, &one, sizeof one);
    (void)setsockopt(s->fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one);
    if (cfg->rcvbuf > 0 && setsockopt(s->fd, SOL_SOCKET, SO_RCVBUFFORCE, &cfg->rcvbuf, sizeof cfg->rcvbuf) != 0)
        (void)setsockopt(s->fd, SOL_SOCKET, SO_RCVBUF, &cfg->rcvbuf, sizeof cfg->rcvbuf);
    struct sockaddr_can addr;
    memset(&addr, 0, sizeof addr);
    addr.can_family = AF_CAN;
    addr.can_ifindex = (int)ifindex;
    if (bind(s->fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
        st = hs_tp_fail(err, HS_E_SETUP, "can-if", ifn, errno, "CAN interface '%s': bind: %s", ifn,
                        strerror(errno));
        goto fail;
    }
    return HS_OK;
fail:
    close(s->fd);
    s->fd = -1;
    return st;
}

static int can_receive(hs_transport *t, hs_rx *rx, int max)
{
    can_state *s = (can_state *)t->state;
    int nrx = 0;
    for (;;) {
        struct canfd_frame fr;
        struct iovec iov = {&fr, sizeof fr};
        union { struct cmsghdr h; char b[CMSG_SPACE(sizeof(uint32_t)) + CMSG_SPACE(sizeof(struct timespec))]; } ctl;
        uint64_t at_us = HS_CAN_NO_TIME;
        struct msghdr mh;
        memset(&mh, 0, sizeof mh);
        mh.msg_iov = &iov;
        mh.msg_iovlen = 1;
        mh.msg_control = ctl.b;
        mh.msg_controllen = sizeof ctl.b;
        ssize_t n = recvmsg(s->fd, &mh, MSG_DONTWAIT);
        if (n < 0) {
            if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) t->rx_errors++;
            break;
        }
        for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
            if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SO_RXQ_OVFL)
                memcpy(&s->kernel_drops, CMSG_DATA(c), sizeof s->kernel_drops);
            if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SO_TIMESTAMPNS) {
                /* The kernel's arrival stamp, not the read time: frames read in one batch after
                 * a late tick keep their own spacing for the E2E cadence check. */
                struct timespec ts;
                memcpy(&ts, CMSG_DATA(c), sizeof ts);
                at_us = (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
            }
        }
        if (at_us == HS_CAN_NO_TIME) {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            at_us = (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
        }
        const int fd = n == (ssize_t)CANFD_MTU;
        if (!fd && n != (ssize_t)CAN_MTU) { t->rx_errors++; continue; }
        const int ext = (fr.can_id & CAN_EFF_FLAG) != 0;
        const uint32_t id = fr.can_id & (ext ? CAN_EFF_MASK : CAN_SFF_MASK);
        /* A remote request carries no data: it is classified (and counted) as an empty frame. */
        const size_t len = (fr.can_id & CAN_RTR_FLAG) ? 0u : fr.len;
        (void)hs_can_receive_at(&s->link, rx, id, ext, fd, fr.data, len > 64u ? 64u : len, at_us);
        t->link_alarms = hs_can_e2e_alarms(&s->link);
        if (++nrx > max) { t->rx_cap_hits++; break; }
    }
    return nrx;
}

static void send_msg(can_state *s, int m, const hs_tp_out *o)
{
    struct canfd_frame fr;
    memset(&fr, 0, sizeof fr);
    const hs_can_msg *M = &s->db.msg[m];
    size_t len = hs_can_encode(&s->link, m, o->tx, o->y, fr.data);
    fr.can_id = M->ext ? (M->id | CAN_EFF_FLAG) : M->id;
    fr.len = (uint8_t)len;
    const size_t mtu = M->fd ? CANFD_MTU : CAN_MTU;
    ssize_t w = write(s->fd, &fr, mtu);
    if (w != (ssize_t)mtu) {
        s->tx_errors++;
        s->last_tx_errno = w < 0 ? errno : EMSGSIZE;
    } else {
        s->tx_written++;
    }
}

static void can_send(hs_transport *t, const hs_tp_out *o)
{
    can_state *s = (can_state *)t->state;
    /* Safe values (y == NULL) go out on every output message at once; otherwise each message
     * at its own cycle, on the frame of its tick only. */
    for (int m = 0; m < s->db.nmsg; ++m) {
        if (s->link.dir[m] != HS_SIG_OUT) continue;
        if (o->y == NULL || (!o->extra && hs_can_due(&s->link, m, o->tick))) send_msg(s, m, o);
    }
}

static int can_wait(hs_transport *t, int64_t timeout_ns)
{
    struct pollfd p = {((can_state *)t->state)->fd, POLLIN, 0};
    return poll(&p, 1, (int)((timeout_ns + 999999) / 1000000)) > 0;
}

static void can_counters(const hs_transport *t, hs_tp_kv kv, void *ctx)
{
    const can_state *s = (const can_state *)t->state;
    char key[96];
    kv(ctx, "can_rx_frames", (double)s->link.rx_frames, "(frames read from the socket)");
    kv(ctx, "can_rx_accepted", (double)s->link.rejected[HS_CAN_OK], "");
    for (int r = 1; r < HS_CAN_REASONS; ++r) {
        snprintf(key, sizeof key, "can_rej_%s", hs_can_reason_name(r));
        kv(ctx, key, (double)s->link.rejected[r], "");
    }
    kv(ctx, "can_rx_secoc_verified", (double)s->link.secoc_verified,
       "(cryptographic frames that verified: their cycle applied)");
    kv(ctx, "can_rx_secoc_refused", (double)s->link.secoc_refused,
       "(cryptographic frames that did not verify: their cycle refused; also in can_rej_secoc_*)");
    kv(ctx, "can_rx_secoc_unchecked", (double)s->link.secoc_unchecked, "(cryptographic frames not judged: --no-auth)");
    kv(ctx, "can_rx_held", (double)hs_can_held(&s->link), "(authentic frames held at the end, awaiting their MAC)");
    kv(ctx, "can_rx_kernel_drops", (double)s->kernel_drops, "(socket queue full)");
    kv(ctx, "can_e2e_cadence", s->link.e2e_cadence_off ? 0.0 : 1.0, "(1: too-early frames refused)");
    kv(ctx, "can_e2e_alarms", (double)hs_can_e2e_alarms(&s->link),
       "(E2E: CRC, counter or cadence wrong; SecOC: bad MAC, stale freshness or a held frame "
       "not verified: a second sender, a forgery, a replay or corruption)");
    /* Per protected input message: can_e2e_<message>_<crc|counter_repeated|counter_jump|too_early|timeout>. */
    for (int m = 0; m < s->db.nmsg; ++m) {
        if (!s->db.msg[m].e2e || s->link.dir[m] != HS_SIG_IN) continue;
        for (int r = 1; r < HS_E2E_RESULTS; ++r) {
            snprintf(key, sizeof key, "can_e2e_%s_%s", s->db.msg[m].name, hs_e2e_result_name(r));
            kv(ctx, key, (double)s->link.e2e_count[m][r], "");
        }
        snprintf(key, sizeof key, "can_e2e_%s_timeout", s->db.msg[m].name);
        kv(ctx, key, (double)s->link.e2e_timeouts[m], "(silence past the stale limit: sequence restarted)");
    }
    kv(ctx, "can_tx_frames", (double)s->tx_written, "(frames the kernel took)");
    kv(ctx, "can_tx_encoded", (double)s->link.tx_frames, "");
    kv(ctx, "can_tx_saturated", (double)s->link.tx_saturated, "(values outside the raw range)");
    kv(ctx, "can_tx_errors", (double)s->tx_errors, "(write failed, frame lost)");
    kv(ctx, "rx_cap_hits", (double)t->rx_cap_hits, "");
    kv(ctx, "rx_socket_errors", (double)t->rx_errors, "");
}

static void can_close(hs_transport *t)
{
    can_state *s = (can_state *)t->state;
    if (s && s->fd >= 0) close(s->fd);
    if (s) s->fd = -1;
}

const hs_transport_ops hs_tp_can = {
    "can", "--can-if IF --dbc FILE [--transport-opt can-filter=off] [--transport-opt e2e-cadence=off] [--transport-opt secoc-key=FILE] (SocketCAN, hil/CAN.md)",
    can_open, can_receive, can_send, can_wait, can_counters, can_close, 0};
