/* fuzz_tp.c - libFuzzer harness of the Linux port's transports without a socket: the UDP
 * endpoint (port/linux-rt/hs_linux.c: address parsing, hs_udp_open/recv/send/wait/close), the
 * "udp" and "can" transports (hs_tp_udp.c, hs_tp_can.c: open with its options, receive,
 * send, wait, counters, close), their registration table (hs_transports.c) and the DBC file
 * reader (port/host/hs_dbc_file.h). The sources are included whole, after every system
 * header they use, with each system call renamed (#define socket fz_socket, ...) to a fake
 * below: a fake socket layer the input drives, so no production code changes for the harness
 * and no socket is ever opened.
 *
 * Input: [0] transport and options, [1..2] a mask of the fake calls that fail, [3] the errno
 * they fail with, [4] DBC choice, [5] the fake /proc/net/udp (intruders) and a receive limit,
 * then records [op][a][b][len][len bytes]: queue a datagram or CAN frame (with flags: from a
 * foreign source, extended id, FD, RTR, a kernel drop count, a wrong length), queue a receive
 * error, receive, send, wait, counters. A DBC chosen as "fuzzed" is the bytes after the
 * first 0xFF 0xFE pair.
 * Checked invariants (abort on violation): open returns HS_OK, HS_E_USAGE, HS_E_DBC or
 * HS_E_SETUP with err filled (status, terminated non-empty message, the fake's errno when a
 * failed call caused it) and exit 1 or 2 through hs_exit_of; a failed open leaves no fake
 * descriptor open, a refused required call (socket, bind, connect, interface lookup, bind of
 * the CAN socket, its filter) never gives HS_OK, an intruder in /proc/net/udp never does;
 * receive hands at most max + 1 messages, every one to the codec (hs_rx / hs_can counters
 * grow by exactly the messages handed), counts exactly the injected hard errors and bad
 * lengths, and reports the kernel's last drop count; every send is one fake write with the
 * frame's bytes (UDP) or a DBC message's id and length (CAN), failures counted, never
 * retried; close leaves no descriptor open and is safe twice. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/can.h>
#include <linux/can/raw.h>
#include <linux/sock_diag.h>
#include <math.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* The headers first: a member named close (hs_transport_ops) must keep its name. */
#include "hs_apps.h"
#include "hs_can.h"
#include "hs_linux.h"
#include "hs_transports.h"

/* ---- the fake system calls ---- */
enum {
    F_SOCKET, F_BIND, F_CONNECT, F_SETSOCKOPT, F_GETSOCKOPT, F_GETSOCKNAME, F_IFINDEX,
    F_IOCTL_FLAGS, F_IOCTL_MTU, F_SENDTO, F_WRITE, F_POLL, F_PROC, F_FSTAT, F_REUSE_OFF, F_DOWN,
    F_COUNT
};
#define FZ_FD0 900
#define FZ_NFD 8
#define FZ_QUEUE 64

typedef struct fz_msg {
    int target;           /* 0: the first socket (peer / CAN), 1: the second (catch-all) */
    int err;              /* 0: a message; else recvmsg fails with this errno */
    int foreign;          /* UDP: from another source than the peer */
    int has_ovfl;         /* attach SO_RXQ_OVFL with ovfl */
    uint32_t ovfl;
    size_t n;             /* bytes returned (CAN: CAN_MTU, CANFD_MTU or something else) */
    uint8_t b[1200];
} fz_msg;

static struct {
    unsigned fail;              /* bit F_*: that call fails with err */
    int err;
    int used[FZ_NFD];           /* fake descriptors open */
    int nsock;                  /* sockets created (0 = peer/CAN, 1 = catch-all) */
    int order[FZ_NFD];          /* creation index of each descriptor */
    struct sockaddr_in peer;    /* where the first socket connected */
    fz_msg q[FZ_QUEUE];
    int qh, qn;
    uint32_t meminfo_drops;     /* SO_MEMINFO's drop count */
    int proc;                   /* /proc/net/udp: 0 ours only, 1 an intruder, 2 unreadable, 3 garbage */
    int mtu;                    /* SIOCGIFMTU answer */
    uint64_t writes, write_fail, sends, send_fail;
    uint8_t last[1200];
    size_t last_n;
    int dma_fd;                 /* the /dev/cpu_dma_latency descriptor (held for the process) */
    int mlock_fail, dma_fail;   /* op 6: mlockall refused, the latency device absent */
    const char *realtime;       /* /sys/kernel/realtime's text, NULL = absent */
    const char *dbc;            /* text of fz.dbc */
    size_t dbc_n;
} FZ;

static int fz_fails(int call, int *res)
{
    if (FZ.fail & (1u << call)) {
        errno = FZ.err;
        *res = -1;
        return 1;
    }
    return 0;
}
static int fz_is(int fd) { return fd >= FZ_FD0 && fd < FZ_FD0 + FZ_NFD && FZ.used[fd - FZ_FD0]; }
static int fz_open_count(void)
{
    int n = 0;
    for (int i = 0; i < FZ_NFD; ++i) n += FZ.used[i] && FZ_FD0 + i != FZ.dma_fd;
    return n;
}

int fz_socket(int domain, int type, int protocol)
{
    int r;
    (void)domain; (void)type; (void)protocol;
    if (fz_fails(F_SOCKET, &r)) return r;
    for (int i = 0; i < FZ_NFD; ++i)
        if (!FZ.used[i]) {
            FZ.used[i] = 1;
            FZ.order[i] = FZ.nsock++;
            return FZ_FD0 + i;
        }
    errno = EMFILE;
    return -1;
}
int fz_close(int fd)
{
    if (!fz_is(fd)) return close(fd);
    FZ.used[fd - FZ_FD0] = 0;
    return 0;
}
int fz_bind(int fd, const struct sockaddr *a, socklen_t l)
{
    int r;
    (void)a; (void)l;
    if (!fz_is(fd)) abort(); /* the transports bind only sockets they made */
    /* the catch-all's bind fails when SO_REUSEPORT was refused (F_REUSE_OFF) */
    if (FZ.order[fd - FZ_FD0] == 1 && (FZ.fail & (1u << F_REUSE_OFF))) { errno = EADDRINUSE; return -1; }
    if (FZ.order[fd - FZ_FD0] == 0 && fz_fails(F_BIND, &r)) return r;
    return 0;
}
int fz_connect(int fd, const struct sockaddr *a, socklen_t l)
{
    int r;
    if (!fz_is(fd)) abort();
    if (fz_fails(F_CONNECT, &r)) return r;
    if (l >= sizeof FZ.peer) memcpy(&FZ.peer, a, sizeof FZ.peer);
    return 0;
}
int fz_setsockopt(int fd, int level, int name, const void *v, socklen_t l)
{
    int r;
    (void)v; (void)l;
    if (!fz_is(fd)) abort();
    if (level == SOL_SOCKET && name == SO_REUSEPORT && (FZ.fail & (1u << F_REUSE_OFF))) { errno = EPERM; return -1; }
    if (level == SOL_SOCKET && (name == SO_RCVBUFFORCE) && FZ.err == EPERM) { errno = EPERM; return -1; }
    if (level == SOL_CAN_RAW || name == SO_RCVBUF) { if (fz_fails(F_SETSOCKOPT, &r)) return r; }
    return 0;
}
int fz_getsockopt(int fd, int level, int name, void *v, socklen_t *l)
{
    int r;
    if (!fz_is(fd)) abort();
    if (fz_fails(F_GETSOCKOPT, &r)) return r;
    if (level == SOL_SOCKET && name == SO_MEMINFO && *l >= SK_MEMINFO_VARS * sizeof(uint32_t)) {
        uint32_t mi[SK_MEMINFO_VARS];
        memset(mi, 0, sizeof mi);
        mi[SK_MEMINFO_DROPS] = FZ.meminfo_drops;
        memcpy(v, mi, sizeof mi);
        *l = sizeof mi;
        return 0;
    }
    errno = ENOPROTOOPT;
    return -1;
}
int fz_getsockname(int fd, struct sockaddr *a, socklen_t *l)
{
    int r;
    if (!fz_is(fd)) abort();
    (void)a; (void)l;
    return fz_fails(F_GETSOCKNAME, &r) ? r : 0; /* the address asked stays the bound one */
}
unsigned fz_if_nametoindex(const char *n)
{
    if (FZ.fail & (1u << F_IFINDEX)) { errno = ENODEV; return 0u; }
    if (strlen(n) >= IFNAMSIZ) { errno = ENODEV; return 0u; } /* as the kernel answers */
    return 7u;
}
int fz_ioctl(int fd, unsigned long req, ...)
{
    int r;
    va_list ap;
    va_start(ap, req);
    struct ifreq *ifr = va_arg(ap, struct ifreq *);
    va_end(ap);
    if (!fz_is(fd)) abort();
    if (req == SIOCGIFFLAGS) {
        if (fz_fails(F_IOCTL_FLAGS, &r)) return r;
        ifr->ifr_flags = (short)((FZ.fail & (1u << F_DOWN)) ? 0 : IFF_UP);
        return 0;
    }
    if (req == SIOCGIFMTU) {
        if (fz_fails(F_IOCTL_MTU, &r)) return r;
        ifr->ifr_mtu = FZ.mtu;
        return 0;
    }
    errno = EINVAL;
    return -1;
}
ssize_t fz_recvmsg(int fd, struct msghdr *mh, int flags)
{
    (void)flags;
    if (!fz_is(fd)) abort();
    const int target = FZ.order[fd - FZ_FD0];
    if (FZ.qn == 0 || FZ.q[FZ.qh].target != target) { errno = EAGAIN; return -1; }
    const fz_msg *m = &FZ.q[FZ.qh];
    FZ.qh = (FZ.qh + 1) % FZ_QUEUE;
    FZ.qn--;
    if (m->err) { errno = m->err; return -1; }
    const size_t cap = mh->msg_iov[0].iov_len;
    memcpy(mh->msg_iov[0].iov_base, m->b, m->n < cap ? m->n : cap);
    if (mh->msg_name) {
        struct sockaddr_in src = FZ.peer;
        if (m->foreign) src.sin_port = htons((uint16_t)(ntohs(src.sin_port) ^ 1u));
        memcpy(mh->msg_name, &src, sizeof src);
        mh->msg_namelen = sizeof src;
    }
    if (m->has_ovfl && mh->msg_controllen >= CMSG_SPACE(sizeof(uint32_t))) {
        struct cmsghdr *c = (struct cmsghdr *)mh->msg_control;
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SO_RXQ_OVFL;
        c->cmsg_len = CMSG_LEN(sizeof(uint32_t));
        memcpy(CMSG_DATA(c), &m->ovfl, sizeof m->ovfl);
        mh->msg_controllen = CMSG_SPACE(sizeof(uint32_t));
    } else {
        mh->msg_controllen = 0;
    }
    return (ssize_t)m->n;
}
ssize_t fz_sendto(int fd, const void *b, size_t n, int flags, const struct sockaddr *a, socklen_t l)
{
    int r;
    (void)flags; (void)a; (void)l;
    if (!fz_is(fd)) abort();
    FZ.sends++;
    if (fz_fails(F_SENDTO, &r)) { FZ.send_fail++; return r; }
    FZ.last_n = n < sizeof FZ.last ? n : sizeof FZ.last;
    memcpy(FZ.last, b, FZ.last_n);
    return (ssize_t)n;
}
ssize_t fz_write(int fd, const void *b, size_t n)
{
    int r;
    if (!fz_is(fd)) return write(fd, b, n);
    FZ.writes++;
    if (fz_fails(F_WRITE, &r)) { FZ.write_fail++; return r; }
    FZ.last_n = n < sizeof FZ.last ? n : sizeof FZ.last;
    memcpy(FZ.last, b, FZ.last_n);
    /* a short write (the kernel took less than a frame) counts as a failure too */
    if (FZ.err == EMSGSIZE) { FZ.write_fail++; return (ssize_t)(n / 2); }
    return (ssize_t)n;
}
int fz_poll(struct pollfd *p, nfds_t n, int ms)
{
    int r;
    (void)ms;
    for (nfds_t i = 0; i < n; ++i) if (!fz_is(p[i].fd)) abort();
    if (fz_fails(F_POLL, &r)) return r;
    return FZ.qn > 0 ? 1 : 0;
}
int fz_fstat(int fd, struct stat *st)
{
    int r;
    if (!fz_is(fd)) return fstat(fd, st);
    if (fz_fails(F_FSTAT, &r)) return r;
    memset(st, 0, sizeof *st);
    st->st_ino = (ino_t)(1000 + FZ.order[fd - FZ_FD0]);
    return 0;
}
int fz_mlockall(int flags)
{
    (void)flags;
    if (FZ.mlock_fail) { errno = ENOMEM; return -1; }
    return 0;
}
int fz_open(const char *path, int flags, ...)
{
    if (strcmp(path, "/dev/cpu_dma_latency") != 0) abort(); /* the only file hs_linux.c opens so */
    (void)flags;
    if (FZ.dma_fail) { errno = ENOENT; return -1; }
    FZ.dma_fd = fz_socket(0, 0, 0);
    return FZ.dma_fd;
}
static char proc_text[512];
FILE *fz_fopen(const char *path, const char *mode)
{
    if (!strcmp(path, "/proc/net/udp")) {
        if (FZ.proc == 2) { errno = ENOENT; return NULL; }
        /* our two sockets (inodes 1000, 1001) on the port asked, then maybe one more */
        const unsigned port = ntohs(FZ.peer.sin_port) ? 0u : 0u; /* filled below */
        (void)port;
        return fmemopen(proc_text, strlen(proc_text), "r");
    }
    if (!strcmp(path, "/sys/kernel/realtime")) {
        if (FZ.realtime == NULL) { errno = ENOENT; return NULL; }
        return fmemopen((void *)FZ.realtime, strlen(FZ.realtime) + 1, "r");
    }
    if (!strcmp(path, "fz.dbc")) {
        if (FZ.dbc == NULL) { errno = ENOENT; return NULL; }
        return FZ.dbc_n ? fmemopen((void *)FZ.dbc, FZ.dbc_n, "r") : fopen("/dev/null", mode);
    }
    return fopen(path, mode);
}

#define socket fz_socket
#define close fz_close
#define bind fz_bind
#define connect fz_connect
#define setsockopt fz_setsockopt
#define getsockopt fz_getsockopt
#define getsockname fz_getsockname
#define if_nametoindex fz_if_nametoindex
#define ioctl fz_ioctl
#define recvmsg fz_recvmsg
#define sendto fz_sendto
#define write fz_write
#define poll fz_poll
#define fstat fz_fstat
#define fopen fz_fopen
#define mlockall fz_mlockall
#define open(...) fz_open(__VA_ARGS__)
#include "hs_linux.c"
#include "hs_tp_udp.c"
#include "hs_tp_can.c"
#include "hs_transports.c"
#undef socket
#undef close
#undef bind
#undef connect
#undef setsockopt
#undef getsockopt
#undef getsockname
#undef if_nametoindex
#undef ioctl
#undef recvmsg
#undef sendto
#undef write
#undef poll
#undef fstat
#undef fopen
#undef mlockall
#undef open

/* The failed invariant on stderr, then abort (libFuzzer keeps the input). */
#define require(c) \
    do { \
        if (!(c)) { \
            fprintf(stderr, "fuzz_tp.c:%d: invariant failed: %s\n", __LINE__, #c); \
            abort(); \
        } \
    } while (0)

static char dbc_ct[8192], dbc_fd[8192];
static size_t dbc_ct_n, dbc_fd_n;
static char dbc_big[HS_DBC_FILE_MAX + 2];

static size_t slurp(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    require(f != NULL);
    size_t n = fread(buf, 1, cap - 1, f);
    fclose(f);
    buf[n] = '\0';
    return n;
}

static void kv_check(void *ctx, const char *key, double v, const char *note)
{
    require(key[0] != '\0' && note != NULL && v >= 0.0 && v == v);
    ++*(int *)ctx;
}

static const char *const listen_opts[] = {"127.0.0.1:47001", "0.0.0.0:47002", "nohost",
                                          "1.2.3:9", "127.0.0.1:0", "127.0.0.1:65536", "", ":5"};
static const char *const peer_opts[] = {"127.0.0.1:47101", "10.0.0.2:1", "127.0.0.1:x", "a:b:c"};
static const char *const if_opts[] = {"vcan0", NULL, "an-interface-name-too-long"};
static const char *const filt_opts[] = {"on", "off", "maybe"};
static const char *const dbc_opts[] = {"fz.dbc", NULL};
static const int errnos[] = {EADDRINUSE, EACCES, ENODEV, ENOBUFS, EAGAIN, EPERM, EMSGSIZE, EIO};

/* What one receive(max) must do with the fake queue, simulated independently of the
 * transports' loops from the contract (hil/hs_transport.h) and hs_linux.h's hs_udp_recv. */
typedef struct predict {
    uint64_t handed, errors, cap_hit, unreachable;
    int qh, qn, empty;
    uint32_t ovfl[2];
    int ovfl_set[2];
} predict;

/* One recvmsg on socket target of the fake: 1 a message (popped into *m), 0 EAGAIN (not
 * popped when the head is for the other socket), or -errno (popped). */
static int sim_recv(predict *p, int target, const fz_msg **m)
{
    if (p->qn == 0 || FZ.q[p->qh].target != target) return 0;
    *m = &FZ.q[p->qh];
    p->qh = (p->qh + 1) % FZ_QUEUE;
    p->qn--;
    if ((*m)->err) return -(*m)->err;
    if ((*m)->has_ovfl) { p->ovfl[target] = (*m)->ovfl; p->ovfl_set[target] = 1; }
    return 1;
}

static predict predict_receive(int can, int foreign_sock, int max)
{
    predict p;
    memset(&p, 0, sizeof p);
    p.qh = FZ.qh;
    p.qn = FZ.qn;
    for (;;) {
        const fz_msg *m = NULL;
        if (can) {
            int r = sim_recv(&p, 0, &m);
            if (r == 0) break;
            if (r < 0) { if (r != -EAGAIN && r != -EINTR) p.errors++; break; }
            if (m->n != CAN_MTU && m->n != CANFD_MTU) { p.errors++; continue; }
        } else {
            /* hs_udp_recv: the peer socket (an ICMP refusal counted and read once more), then
             * the catch-all (a refusal there is "empty"), then empty */
            int r = sim_recv(&p, 0, &m);
            if (r == -ECONNREFUSED) {
                p.unreachable++;
                r = sim_recv(&p, 0, &m);
                if (r == -ECONNREFUSED) r = 0;
            }
            if (r == -EAGAIN || r == -EINTR) r = 0;
            if (r == 0 && foreign_sock) {
                r = sim_recv(&p, 1, &m);
                if (r == -ECONNREFUSED || r == -EAGAIN || r == -EINTR) r = 0;
            }
            if (r == 0) { p.empty = 1; break; }
            if (r < 0) { p.errors++; break; }
        }
        p.handed++;
        if ((int)p.handed > max) { p.cap_hit = 1; break; }
    }
    return p;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int init;
    if (!init) {
        dbc_ct_n = slurp("hil/dbc/circular_track.dbc", dbc_ct, sizeof dbc_ct);
        dbc_fd_n = slurp("test/can/circular_track_fd.dbc", dbc_fd, sizeof dbc_fd);
        memset(dbc_big, ' ', sizeof dbc_big);
        init = 1;
    }
    if (size < 6) return 0;
    memset(&FZ, 0, sizeof FZ);
    const int can = data[0] & 1, ecu = (data[0] >> 1) & 1;
    FZ.fail = (unsigned)(data[1] | data[2] << 8) & ((1u << F_COUNT) - 1u);
    /* most inputs keep most calls working, so the run paths are reached as often as refusals */
    if (data[0] & 0x80u) FZ.fail = 0;
    FZ.err = errnos[data[3] % 8u];
    FZ.mtu = (data[3] & 0x80u) ? (int)CAN_MTU : (int)CANFD_MTU;
    const char *fuzz_dbc = NULL;
    size_t fuzz_dbc_n = 0;
    for (size_t i = 6; i + 1 < size; ++i)
        if (data[i] == 0xFF && data[i + 1] == 0xFE) {
            fuzz_dbc = (const char *)data + i + 2;
            fuzz_dbc_n = size - i - 2;
            size = i;
            break;
        }
    switch (data[4] % 6u) {
    case 0: FZ.dbc = dbc_ct; FZ.dbc_n = dbc_ct_n; break;
    case 1: FZ.dbc = dbc_fd; FZ.dbc_n = dbc_fd_n; break;
    case 2: FZ.dbc = fuzz_dbc ? fuzz_dbc : ""; FZ.dbc_n = fuzz_dbc_n; break;
    case 3: FZ.dbc = NULL; break;
    case 4: FZ.dbc = dbc_big; FZ.dbc_n = sizeof dbc_big; break;
    default: FZ.dbc = dbc_ct; FZ.dbc_n = dbc_ct_n; break;
    }
    FZ.proc = data[5] & 3;
    const int maxrx = 1 + (data[5] >> 4);
    const char *lo = listen_opts[(data[0] >> 2) % 8u], *pe = peer_opts[(data[0] >> 5) & 3u];
    const char *ifn = if_opts[(data[4] >> 3) % 3u], *filt = filt_opts[(data[4] >> 5) % 3u];
    const char *dbcp = dbc_opts[(data[4] >> 7) & 1u];

    /* /proc/net/udp as the kernel prints it: header, our sockets, maybe a third on our port */
    {
        struct sockaddr_in la;
        char why[128];
        unsigned port = 0;
        if (hs_addr_parse(lo, &la, why, sizeof why) == 0) port = ntohs(la.sin_port);
        int k = snprintf(proc_text, sizeof proc_text, "  sl  local_address rem_address   st tx_queue "
                         "rx_queue tr tm->when retrnsmt   uid  timeout inode\n");
        for (int s = 0; s < (FZ.proc == 1 ? 3 : 2); ++s)
            k += snprintf(proc_text + k, sizeof proc_text - (size_t)k, "  %d: 0100007F:%04X 00000000:0000 "
                          "07 00000000:00000000 00:00000000 00000000  1000        0 %d 2 0000\n",
                          s, port, 1000 + s + (s == 2 ? 50 : 0));
        if (FZ.proc == 3) snprintf(proc_text + k, sizeof proc_text - (size_t)k, "garbage line\n");
        if (FZ.proc == 2) proc_text[0] = '\0';
    }

    hs_transport tp;
    memset(&tp, 0, sizeof tp);
    tp.ops = hs_transport_find(hs_transports, can ? "can" : "udp");
    require(tp.ops != NULL && tp.ops->frame == !can);
    hs_tp_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.prog = "fuzz";
    cfg.period_us = (data[3] & 0x40u) ? 10000u : 1000u;
    cfg.rx_kind = ecu ? HS_FRAME_KIND_FROM_PLANT : HS_FRAME_KIND_TO_PLANT;
    cfg.tx_kind = ecu ? HS_FRAME_KIND_TO_PLANT : HS_FRAME_KIND_FROM_PLANT;
    cfg.map = ecu ? &hs_map_circular_track_ecu : &hs_map_circular_track_plant;
    cfg.rcvbuf = (data[3] & 0x20u) ? 1 << 18 : 0;
    cfg.map_only = (data[5] & 0x0Cu) == 0x0Cu;
    uint32_t rd = 0;
    cfg.read = &rd;
    require(hs_tp_opt_add(&cfg, "listen", lo) == HS_OK && hs_tp_opt_add(&cfg, "peer", pe) == HS_OK);
    if (can) {
        if (ifn) (void)hs_tp_opt_add(&cfg, "can-if", ifn);
        if (dbcp) (void)hs_tp_opt_add(&cfg, "dbc", dbcp);
        (void)hs_tp_opt_add(&cfg, "can-filter", filt);
    }
    hs_tp_error err;
    memset(&err, 'X', sizeof err);
    const hs_status st = tp.ops->open(&tp, &cfg, &err);
    require(st == HS_OK || st == HS_E_USAGE || st == HS_E_SETUP || st == HS_E_DBC);
    if (st != HS_OK) {
        require(err.status == st && memchr(err.msg, '\0', sizeof err.msg) && err.msg[0] != '\0');
        require(memchr(err.option, '\0', sizeof err.option) && memchr(err.value, '\0', sizeof err.value));
        require(hs_exit_of(HS_TOOL_PLANT, st) == (st == HS_E_USAGE ? 1 : 2));
        require(err.sys_errno == 0 || err.sys_errno == FZ.err || err.sys_errno == ENODEV ||
                err.sys_errno == EADDRINUSE || err.sys_errno == EMFILE);
        require(fz_open_count() == 0); /* nothing left open */
        tp.ops->close(&tp);
        return 0;
    }
    /* what must have refused the open */
    if (!cfg.map_only) {
        require(!(FZ.fail & ((1u << F_SOCKET) | (1u << F_BIND))));
        if (!can) require(!(FZ.fail & (1u << F_CONNECT)) && FZ.proc != 1);
        /* an interface reported down refuses; an unanswered SIOCGIFFLAGS is not taken for down */
        if (can) require(!(FZ.fail & (1u << F_IFINDEX)) && strlen(ifn) < IFNAMSIZ &&
                         (FZ.fail & ((1u << F_DOWN) | (1u << F_IOCTL_FLAGS))) != (1u << F_DOWN));
    }
    /* the console line: CAN names its bus and DBC even for --signals, UDP once it is open */
    require(memchr(tp.desc, '\0', sizeof tp.desc) && (tp.desc[0] != '\0' || (!can && cfg.map_only)));
    require(can ? tp.map != NULL : tp.map == NULL);
    if (cfg.map_only) {
        require(fz_open_count() == 0);
        tp.ops->close(&tp);
        return 0;
    }
    const hs_signal_map *map = tp.map ? tp.map : cfg.map;
    static hs_rx rx;
    static hs_tx tx;
    require(hs_rx_init(&rx, map, cfg.rx_kind) == HS_OK);
    require(hs_tx_init(&tx, map, cfg.tx_kind, 0x1234u) == HS_OK);
    can_state *cs = can ? (can_state *)tp.state : NULL;
    udp_state *us = can ? NULL : (udp_state *)tp.state;
    uint64_t tick = 0;

    size_t i = 6;
    for (int nrec = 0; i + 4 <= size && nrec < 128; ++nrec) {
        const unsigned op = data[i] % 7u, a = data[i + 1], b = data[i + 2];
        size_t len = data[i + 3];
        i += 4;
        if (len > size - i) len = size - i;
        const uint8_t *p = data + i;
        i += len;
        if (op == 0 && FZ.qn < FZ_QUEUE) { /* a message queued by the "kernel" */
            fz_msg *m = &FZ.q[(FZ.qh + FZ.qn++) % FZ_QUEUE];
            memset(m, 0, sizeof *m);
            m->target = can ? 0 : (a & 1) && us->udp.fd_foreign >= 0;
            m->foreign = (a & 2) != 0;
            m->has_ovfl = (a & 8) != 0;
            m->ovfl = b * 3u;
            if (can) {
                struct canfd_frame fr;
                memset(&fr, 0, sizeof fr);
                static const uint32_t ids[] = {256, 512, 0x7FF, 0x1ABCDEF | CAN_EFF_FLAG};
                fr.can_id = ids[b & 3u] | ((a & 4) ? CAN_RTR_FLAG : 0u);
                fr.len = (uint8_t)(len > 64 ? 64 : len);
                memcpy(fr.data, p, fr.len);
                memcpy(m->b, &fr, sizeof fr);
                m->n = (a & 16) ? CANFD_MTU : (a & 32) ? 7u : CAN_MTU;
            } else {
                m->n = len;
                memcpy(m->b, p, len);
                if (a & 16) m->n = sizeof m->b; /* oversized: longer than any frame */
            }
        } else if (op == 1 && FZ.qn < FZ_QUEUE) { /* a receive error */
            fz_msg *m = &FZ.q[(FZ.qh + FZ.qn++) % FZ_QUEUE];
            memset(m, 0, sizeof *m);
            static const int rerr[] = {EAGAIN, EINTR, ECONNREFUSED, EIO};
            m->target = can ? 0 : (a & 1) && us->udp.fd_foreign >= 0;
            m->err = rerr[b & 3u];
        } else if (op == 2) { /* receive */
            const uint64_t before_rx = can ? cs->link.rx_frames : rx.st.datagrams;
            const uint64_t before_err = tp.rx_errors, before_cap = tp.rx_cap_hits;
            const uint64_t before_unr = can ? 0 : us->udp.peer_unreachable;
            const int max = (int)(a % 8u) + ((a & 8) ? maxrx : 0);
            FZ.meminfo_drops = b;
            predict p = predict_receive(can, !can && us->udp.fd_foreign >= 0, max);
            const int n = tp.ops->receive(&tp, &rx, max);
            require(n >= 0 && n <= max + 1 && (uint64_t)n == p.handed);
            require((can ? cs->link.rx_frames : rx.st.datagrams) - before_rx == (uint64_t)n);
            require(tp.rx_cap_hits - before_cap == p.cap_hit);
            require(tp.rx_errors - before_err == p.errors);
            require(FZ.qh == p.qh && FZ.qn == p.qn); /* consumed exactly what the model says */
            if (can) {
                if (p.ovfl_set[0]) require(cs->kernel_drops == p.ovfl[0]);
            } else {
                require(us->udp.peer_unreachable - before_unr == p.unreachable);
                if (p.empty && !(FZ.fail & (1u << F_GETSOCKOPT))) {
                    require(us->udp.kernel_drops == FZ.meminfo_drops);
                    if (us->udp.fd_foreign >= 0) require(us->udp.foreign_kernel_drops == FZ.meminfo_drops);
                } else if (p.ovfl_set[0]) {
                    require(us->udp.kernel_drops == p.ovfl[0]);
                }
            }
            hs_real in[HS_FRAME_MAX_VALUES];
            (void)hs_rx_tick(&rx, in);
            for (unsigned k = 0; k < rx.n; ++k)
                require((double)in[k] >= rx.sig[k]->min && (double)in[k] <= rx.sig[k]->max);
        } else if (op == 3) { /* send */
            hs_real y[HS_FRAME_MAX_VALUES];
            for (unsigned k = 0; k < tx.n; ++k) y[k] = (hs_real)((int8_t)(k < len ? p[k] : 0)) * 0.1;
            uint8_t frame[HS_FRAME_MAX_BYTES];
            size_t fn = (a & 1) ? 0 : hs_tx_build(&tx, frame, sizeof frame, (a & 2) ? NULL : y, tick, 0u, 0u);
            hs_tp_out o = {tick, (a & 4) != 0, &tx, (a & 2) ? NULL : y, frame, fn};
            const uint64_t w0 = FZ.writes, wf0 = FZ.write_fail, s0 = FZ.sends, sf0 = FZ.send_fail;
            const uint64_t tx0 = can ? cs->tx_written : 0, te0 = can ? cs->tx_errors : us->udp.send_errors;
            tp.ops->send(&tp, &o);
            if (can) {
                require(cs->tx_written - tx0 + cs->tx_errors - te0 == FZ.writes - w0);
                require(cs->tx_errors - te0 == FZ.write_fail - wf0);
                if (FZ.writes > w0 && FZ.write_fail == wf0) {
                    struct canfd_frame fr;
                    memcpy(&fr, FZ.last, sizeof fr < FZ.last_n ? sizeof fr : FZ.last_n);
                    int known = 0;
                    for (int m = 0; m < cs->db.nmsg; ++m) {
                        const hs_can_msg *M = &cs->db.msg[m];
                        if (cs->link.dir[m] == HS_SIG_OUT &&
                            fr.can_id == (M->ext ? (M->id | CAN_EFF_FLAG) : M->id) &&
                            FZ.last_n == (M->fd ? CANFD_MTU : CAN_MTU))
                            known = 1;
                    }
                    require(known);
                }
                /* safe values: every output message at once; else each one due at this tick */
                uint64_t due = 0;
                for (int m = 0; m < cs->db.nmsg; ++m)
                    if (cs->link.dir[m] == HS_SIG_OUT &&
                        (o.y == NULL || (!o.extra && hs_can_due(&cs->link, m, o.tick))))
                        ++due;
                require(FZ.writes - w0 == due);
            } else {
                require(FZ.sends - s0 == (fn ? 1u : 0u));
                require(us->udp.send_errors - te0 == FZ.send_fail - sf0);
                if (fn && FZ.send_fail == sf0) require(FZ.last_n == fn && !memcmp(FZ.last, frame, fn));
            }
            ++tick;
        } else if (op == 4) { /* wait */
            const int r = tp.ops->wait(&tp, (int64_t)b * 1000000);
            require(r == 0 || r == 1);
            if (!(FZ.fail & (1u << F_POLL))) require(r == (FZ.qn > 0));
        } else if (op == 6) { /* the real-time report, and the transports' help */
            static const char *const rtx[] = {"1\n", "0\n", "x", NULL};
            FZ.realtime = rtx[b & 3u];
            FZ.mlock_fail = (a & 1) != 0;
            FZ.dma_fail = (a & 2) != 0;
            hs_rt_report r;
            memset(&r, 0, sizeof r);
            if (FZ.dma_fd) { (void)fz_close(FZ.dma_fd); FZ.dma_fd = 0; }
            hs_rt_lock_memory(&r);
            require(r.kernel_rt == ((b & 3u) == 0) && r.mlock_ok == !(a & 1));
            require(r.mlock_errno == (a & 1 ? ENOMEM : 0));
            require(r.dma_ok == (!(a & 2) && !(FZ.fail & (1u << F_WRITE)) && FZ.err != EMSGSIZE));
            r.mlock_undone = (a & 4) != 0;
            r.fifo_wanted = (a & 8) != 0;
            r.fifo_ok = (a & 16) != 0;
            r.fifo_errno = (a & 32) ? EPERM : 0;
            r.prio = b;
            r.cpu = (a & 64) ? (int)(b & 3u) : -1;
            r.affinity_ok = (a & 128) != 0;
            r.affinity_errno = (b & 4) ? EINVAL : 0;
            const int hard = r.kernel_rt && r.mlock_ok && r.fifo_ok && (r.cpu < 0 || r.affinity_ok);
            require(hs_rt_is_hard(&r) == hard);
            char *txt = NULL;
            size_t tn = 0;
            FILE *mf = open_memstream(&txt, &tn);
            require(mf != NULL);
            hs_rt_print(&r, mf);
            hs_transports_help(mf);
            hs_transports_names(mf, "known:");
            fclose(mf);
            require(strstr(txt, hard ? "rt: verdict: hard real-time run\n" : "rt: verdict: NOT hard") != NULL);
            for (int t = 0; hs_transports[t]; ++t) require(strstr(txt, hs_transports[t]->usage) != NULL);
            require(strstr(txt, "known: udp can") != NULL);
            free(txt);
        } else { /* counters */
            int nkv = 0;
            tp.ops->counters(&tp, kv_check, &nkv);
            require(nkv >= 6);
        }
    }
    if (FZ.dma_fd) (void)fz_close(FZ.dma_fd);
    tp.ops->close(&tp);
    require(fz_open_count() == 0);
    tp.ops->close(&tp); /* safe twice */
    require(fz_open_count() == 0);
    return 0;
}
