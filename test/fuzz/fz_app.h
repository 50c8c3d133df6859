/* fz_app.h - the process around an application harness (fuzz_rtapp.c, fuzz_ecuapp.c): the
 * Linux port's sources (hs_linux.c, the transports, hs_transports.c, hs_key.c) included whole
 * with their system calls renamed to the fakes below, so that an application's main runs in
 * the fuzzer's process without a socket, without real time and without blocking:
 *
 * - a virtual CLOCK_MONOTONIC: clock_gettime advances it (by a step that doubles on each
 *   read without a sleep in between, so a busy wait ends in a few dozen reads), an absolute
 *   clock_nanosleep jumps to its deadline plus the wake-up latency the input chose, and calls
 *   the harness's tick hook (the peer's frames for that tick);
 * - threads that take turns (a baton): pthread_create starts a real thread that waits for its
 *   turn; pthread_join hands the turn to the workers until the joined one is done; a worker
 *   gives the turn away in its sleeps (the logger's nanosleep, the real-time thread's
 *   clock_nanosleep once the logger's wake-up is due). One thread runs at a time, so a run is
 *   a function of the input alone, as the order of a real run's threads would be;
 * - sockets (UDP and CAN): descriptors from FA_FD0, a queue of messages the hook fills,
 *   every send recorded; /proc/net/udp (with or without an intruder), /sys/kernel/realtime,
 *   /dev/cpu_dma_latency, mlockall, getrandom and /dev/urandom, read/write/link of the key
 *   file, pthread_create / setschedparam / setaffinity failures: each can fail on a bit of
 *   the input (FA_F_*), with the errno a kernel gives.
 * Files the input names by token (@csv, @stats, @key, @full, ...) live in a private temporary
 * directory (removed at exit). The application's stdout is captured per run (fa_run) so the
 * harness can check its verdict line against its exit status. */
#ifndef FZ_APP_H
#define FZ_APP_H
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
#include <semaphore.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* The headers first: members named open and close (hs_transport_ops) keep their names. */
#include "hs_apps.h"
#include "hs_can.h"
#include "hs_frame.h"
#include "hs_key.h"
#include "hs_linux.h"
#include "hs_transports.h"

#define require(c) \
    do { \
        if (!(c)) { \
            fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__, #c); \
            abort(); \
        } \
    } while (0)

/* ---- the faults an input may ask for (bit numbers of FA.fail) ---- */
enum {
    FA_F_SOCKET, FA_F_BIND, FA_F_CONNECT, FA_F_REUSE, FA_F_INTRUDER, FA_F_SEND, FA_F_SCHED, FA_F_AFFINITY, FA_F_MLOCK, FA_F_DMA,
    FA_F_RTKERNEL, FA_F_RANDOM, FA_F_URANDOM, FA_F_READ, FA_F_WRITE, FA_F_LINK, FA_F_IFINDEX,
    FA_F_IFDOWN, FA_F_FSTAT, FA_F_CANFILTER, FA_F_EINTR, FA_F_REUSE0, FA_F_KEYOPEN, FA_F_XDG,
    FA_F_FSIZE, FA_F_XCPBIND, FA_F_XCPTHREAD, FA_F_COUNT
};
#define FA_FD0 900
#define FA_NFD 8
#define FA_QUEUE 256
#define FA_XQUEUE 16

typedef struct fa_msg {
    int target;        /* 0 the first socket (peer / CAN), 1 the second (catch-all) */
    int err;           /* recvmsg fails with this errno instead */
    int foreign;       /* UDP: from another port than the peer's */
    uint32_t ovfl;     /* SO_RXQ_OVFL attached when nonzero */
    int64_t ts_ns;     /* SO_TIMESTAMPNS attached when nonzero (CAN) */
    size_t n;
    uint8_t b[HS_FRAME_MAX_BYTES + 80];
} fa_msg;

typedef struct fa_task {
    void *(*fn)(void *);
    void *arg;
    pthread_t th;
    int done, joined;
    int64_t wake;      /* the logger's next wake-up (virtual ns) */
} fa_task;

static struct {
    uint32_t fail;     /* FA_F_* bits */
    int used[FA_NFD], order[FA_NFD], nsock;
    struct sockaddr_in peer;
    fa_msg q[FA_QUEUE];
    int qh, qn;
    uint64_t sends, send_fail, writes;
    uint8_t last[HS_FRAME_MAX_BYTES + 80];
    size_t last_n;
    int dma_fd;
    /* clock */
    int64_t now, step;
    int64_t lat;       /* wake-up latency of the next clock_nanosleep (ns), then back to lat0 */
    int64_t lat0;
    uint64_t ticks;    /* clock_nanosleep calls of the worker (its frames) */
    int eintr;         /* the last clock_nanosleep returned EINTR (FA_F_EINTR: every other one) */
    /* threads */
    fa_task task[3];   /* 1, 2: created threads (0 unused: main) */
    int ntask;
    int creates;       /* pthread_create calls, failed ones included */
    uint32_t tscript;  /* 2 bits per pthread_create call: 0 ok, 1 EAGAIN, 2 EPERM, 3 ENOMEM */
    /* the XCP slave's socket (hs_xcp_port.c): the master's datagrams, the slave's packets */
    fa_msg xq[FA_XQUEUE];
    int xqh, xqn;
    uint64_t xsends;
    uint8_t xlast[HS_FRAME_MAX_BYTES + 80]; /* the last packet the slave sent (a response: seed) */
    size_t xlast_n;
    int xseed_n;                            /* bytes of the last seed seen, 0 none */
    uint16_t xctr;                          /* the CTR the slave's next packet to its master carries */
    uint8_t xseed[64];
} FA;
static char fa_dir[256];           /* the private directory */
static void (*fa_tick_hook)(void); /* the harness's peer, once per worker sleep */

static pthread_mutex_t fa_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t fa_cv = PTHREAD_COND_INITIALIZER;
static int fa_turn;                /* the task that runs: 0 main, 1 or 2 a created thread */
static __thread int fa_me;

static int fa_failing(int bit) { return (FA.fail >> bit) & 1u; }
static int fa_is(int fd) { return fd >= FA_FD0 && fd < FA_FD0 + FA_NFD && FA.used[fd - FA_FD0]; }
static int fa_open_count(void)
{
    int n = 0;
    for (int i = 0; i < FA_NFD; ++i) n += FA.used[i] && FA_FD0 + i != FA.dma_fd;
    return n;
}

/* ---- threads ---- */
static void fa_wait_turn(void)
{
    while (fa_turn != fa_me) pthread_cond_wait(&fa_cv, &fa_mu);
}
/* Another created thread that is not done, or -1. */
static int fa_other(int me)
{
    for (int i = 1; i <= FA.ntask; ++i)
        if (i != me && !FA.task[i].done) return i;
    return -1;
}
static void fa_give(int to)
{
    fa_turn = to;
    pthread_cond_broadcast(&fa_cv);
    fa_wait_turn();
}
static void *fa_body(void *p)
{
    fa_task *t = (fa_task *)p;
    pthread_mutex_lock(&fa_mu);
    fa_me = (int)(t - FA.task);
    fa_wait_turn();
    pthread_mutex_unlock(&fa_mu);
    void *r = t->fn(t->arg);
    pthread_mutex_lock(&fa_mu);
    t->done = 1;
    const int o = fa_other(fa_me);
    fa_turn = o > 0 ? o : 0;
    pthread_cond_broadcast(&fa_cv);
    pthread_mutex_unlock(&fa_mu);
    return r;
}
int fz_pthread_create(pthread_t *th, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
    (void)attr;
    static const int errs[4] = {0, EAGAIN, EPERM, ENOMEM};
    const int n = FA.creates++;
    /* call n fails as the kernel's limits make it fail: EAGAIN (RLIMIT_MEMLOCK under
     * MCL_FUTURE), EPERM (SCHED_FIFO refused), ENOMEM */
    const int e0 = n < 16 ? errs[(FA.tscript >> (2 * n)) & 3u] : 0;
    if (e0) return e0;
    require(FA.ntask < 2);
    fa_task *t = &FA.task[++FA.ntask];
    memset(t, 0, sizeof *t);
    t->fn = fn;
    t->arg = arg;
    t->wake = INT64_MIN;
    const int e = pthread_create(&t->th, NULL, fa_body, t);
    require(e == 0);
    *th = (pthread_t)FA.ntask;
    return 0;
}
int fz_pthread_join(pthread_t th, void **ret)
{
    const int i = (int)th;
    require(i >= 1 && i <= FA.ntask && !FA.task[i].joined && fa_me == 0);
    pthread_mutex_lock(&fa_mu);
    while (!FA.task[i].done) fa_give(fa_other(0)); /* i itself is one that is not done */
    pthread_mutex_unlock(&fa_mu);
    FA.task[i].joined = 1;
    return pthread_join(FA.task[i].th, ret);
}
int fz_pthread_setschedparam(pthread_t th, int policy, const struct sched_param *sp)
{
    (void)th; (void)policy; (void)sp;
    return fa_failing(FA_F_SCHED) ? EPERM : 0;
}
int fz_pthread_setaffinity_np(pthread_t th, size_t n, const cpu_set_t *cs)
{
    (void)th; (void)n; (void)cs;
    return fa_failing(FA_F_AFFINITY) ? EINVAL : 0;
}

/* ---- the clock ---- */
int fz_clock_gettime(clockid_t c, struct timespec *ts)
{
    (void)c;
    FA.now += FA.step;
    if (FA.step < 100000000) FA.step *= 2; /* a busy wait reaches its instant in few reads */
    ts->tv_sec = (time_t)(FA.now / 1000000000);
    ts->tv_nsec = (long)(FA.now % 1000000000);
    return 0;
}
/* The worker's sleep to an absolute deadline: the peer's frames for it, the logger's turn. */
int fz_clock_nanosleep(clockid_t c, int flags, const struct timespec *req, struct timespec *rem)
{
    (void)c; (void)flags; (void)rem;
    if (fa_failing(FA_F_EINTR) && !FA.eintr) { FA.eintr = 1; return EINTR; } /* a signal came */
    FA.eintr = 0;
    const int64_t t = (int64_t)req->tv_sec * 1000000000 + req->tv_nsec;
    if (t > FA.now) FA.now = t;
    FA.now += FA.lat;
    FA.lat = FA.lat0;
    FA.step = 1000;
    FA.ticks++;
    if (fa_tick_hook) fa_tick_hook();
    const int o = fa_other(fa_me);
    if (fa_me > 0 && o > 0 && FA.task[o].wake <= FA.now) {
        pthread_mutex_lock(&fa_mu);
        fa_give(o);
        pthread_mutex_unlock(&fa_mu);
    }
    return 0;
}
/* The logger's relative sleep: its wake-up noted, the turn to the worker (if any). */
int fz_nanosleep(const struct timespec *req, struct timespec *rem)
{
    (void)rem;
    const int64_t d = (int64_t)req->tv_sec * 1000000000 + req->tv_nsec;
    FA.task[fa_me].wake = FA.now + d;
    FA.step = 1000;
    const int o = fa_other(fa_me);
    if (fa_me > 0 && o > 0) {
        pthread_mutex_lock(&fa_mu);
        fa_give(o);
        pthread_mutex_unlock(&fa_mu);
    }
    if (FA.now < FA.task[fa_me].wake) FA.now = FA.task[fa_me].wake;
    return 0;
}

/* ---- sockets ---- */
int fz_socket(int domain, int type, int protocol)
{
    (void)domain; (void)type; (void)protocol;
    if (fa_failing(FA_F_SOCKET)) { errno = EMFILE; return -1; }
    for (int i = 0; i < FA_NFD; ++i)
        if (!FA.used[i]) {
            FA.used[i] = 1;
            FA.order[i] = FA.nsock++;
            return FA_FD0 + i;
        }
    errno = EMFILE;
    return -1;
}
int fz_close(int fd)
{
    if (!fa_is(fd)) return close(fd);
    FA.used[fd - FA_FD0] = 0;
    return 0;
}
int fz_bind(int fd, const struct sockaddr *a, socklen_t l)
{
    (void)a; (void)l;
    require(fa_is(fd));
    if (FA.order[fd - FA_FD0] == 0 && fa_failing(FA_F_BIND)) { errno = EADDRINUSE; return -1; }
    return 0;
}
int fz_connect(int fd, const struct sockaddr *a, socklen_t l)
{
    require(fa_is(fd));
    if (fa_failing(FA_F_CONNECT)) { errno = ENETUNREACH; return -1; }
    if (l >= sizeof FA.peer) memcpy(&FA.peer, a, sizeof FA.peer);
    return 0;
}
int fz_setsockopt(int fd, int level, int name, const void *v, socklen_t l)
{
    (void)l;
    require(fa_is(fd));
    if (level == SOL_SOCKET && name == SO_REUSEPORT && fa_failing(FA_F_REUSE)) { errno = EPERM; return -1; }
    /* clearing SO_REUSEPORT on the catch-all refused: it must not stay open */
    if (level == SOL_SOCKET && name == SO_REUSEPORT && fa_failing(FA_F_REUSE0) && FA.order[fd - FA_FD0] == 1 &&
        *(const int *)v == 0) { errno = EINVAL; return -1; }
    if (level == SOL_SOCKET && name == SO_RCVBUFFORCE) { errno = EPERM; return -1; } /* not root */
    if (level == SOL_CAN_RAW && fa_failing(FA_F_CANFILTER)) { errno = ENOPROTOOPT; return -1; }
    return 0;
}
int fz_getsockopt(int fd, int level, int name, void *v, socklen_t *l)
{
    require(fa_is(fd));
    if (level == SOL_SOCKET && name == SO_MEMINFO && *l >= SK_MEMINFO_VARS * sizeof(uint32_t)) {
        uint32_t mi[SK_MEMINFO_VARS];
        memset(mi, 0, sizeof mi);
        mi[SK_MEMINFO_DROPS] = (uint32_t)(FA.sends / 64u);
        memcpy(v, mi, sizeof mi);
        *l = sizeof mi;
        return 0;
    }
    errno = ENOPROTOOPT;
    return -1;
}
int fz_getsockname(int fd, struct sockaddr *a, socklen_t *l)
{
    (void)a; (void)l;
    require(fa_is(fd));
    return 0;
}
unsigned fz_if_nametoindex(const char *n)
{
    if (fa_failing(FA_F_IFINDEX) || strlen(n) >= IFNAMSIZ) { errno = ENODEV; return 0u; }
    return 7u;
}
int fz_ioctl(int fd, unsigned long req, ...)
{
    va_list ap;
    va_start(ap, req);
    struct ifreq *ifr = va_arg(ap, struct ifreq *);
    va_end(ap);
    require(fa_is(fd));
    if (req == SIOCGIFFLAGS) { ifr->ifr_flags = (short)(fa_failing(FA_F_IFDOWN) ? 0 : IFF_UP); return 0; }
    if (req == SIOCGIFMTU) { ifr->ifr_mtu = (int)CANFD_MTU; return 0; }
    errno = EINVAL;
    return -1;
}
/* A message into the fake queue (the hook's side). */
static fa_msg *fa_push(int target)
{
    if (FA.qn == FA_QUEUE) return NULL;
    fa_msg *m = &FA.q[(FA.qh + FA.qn++) % FA_QUEUE];
    memset(m, 0, sizeof *m);
    m->target = target;
    return m;
}
ssize_t fz_recvmsg(int fd, struct msghdr *mh, int flags)
{
    (void)flags;
    require(fa_is(fd));
    const int target = FA.order[fd - FA_FD0] == 1 ? 1 : 0;
    if (FA.qn == 0 || FA.q[FA.qh].target != target) { errno = EAGAIN; return -1; }
    const fa_msg *m = &FA.q[FA.qh];
    FA.qh = (FA.qh + 1) % FA_QUEUE;
    FA.qn--;
    if (m->err) { errno = m->err; return -1; }
    const size_t cap = mh->msg_iov[0].iov_len;
    memcpy(mh->msg_iov[0].iov_base, m->b, m->n < cap ? m->n : cap);
    if (mh->msg_name) {
        struct sockaddr_in src = FA.peer;
        if (m->foreign) src.sin_port = htons((uint16_t)(ntohs(src.sin_port) ^ 1u));
        memcpy(mh->msg_name, &src, sizeof src);
        mh->msg_namelen = sizeof src;
    }
    /* the control messages the kernel attaches, as far as the buffer holds them */
    size_t used = 0;
    const size_t room = mh->msg_controllen;
    if (m->ovfl && used + CMSG_SPACE(sizeof(uint32_t)) <= room) {
        struct cmsghdr *c = (struct cmsghdr *)((char *)mh->msg_control + used);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SO_RXQ_OVFL;
        c->cmsg_len = CMSG_LEN(sizeof(uint32_t));
        memcpy(CMSG_DATA(c), &m->ovfl, sizeof m->ovfl);
        used += CMSG_SPACE(sizeof(uint32_t));
    }
    if (m->ts_ns && used + CMSG_SPACE(sizeof(struct timespec)) <= room) {
        struct cmsghdr *c = (struct cmsghdr *)((char *)mh->msg_control + used);
        struct timespec ts = {(time_t)(m->ts_ns / 1000000000), (long)(m->ts_ns % 1000000000)};
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SO_TIMESTAMPNS;
        c->cmsg_len = CMSG_LEN(sizeof ts);
        memcpy(CMSG_DATA(c), &ts, sizeof ts);
        used += CMSG_SPACE(sizeof ts);
    }
    mh->msg_controllen = used;
    return (ssize_t)m->n;
}
ssize_t fz_sendto(int fd, const void *b, size_t n, int flags, const struct sockaddr *a, socklen_t l)
{
    (void)flags; (void)a; (void)l;
    require(fa_is(fd));
    FA.sends++;
    if (fa_failing(FA_F_SEND) && FA.sends % 3u == 0u) { FA.send_fail++; errno = ENOBUFS; return -1; }
    FA.last_n = n < sizeof FA.last ? n : sizeof FA.last;
    memcpy(FA.last, b, FA.last_n);
    return (ssize_t)n;
}
ssize_t fz_write(int fd, const void *b, size_t n)
{
    if (!fa_is(fd)) {
        if (fa_failing(FA_F_WRITE)) { errno = ENOSPC; return -1; } /* a full disk (key file) */
        return write(fd, b, n);
    }
    FA.writes++;
    if (fd == FA.dma_fd) return fa_failing(FA_F_DMA) ? -1 : (ssize_t)n;
    FA.sends++;
    if (fa_failing(FA_F_SEND) && FA.sends % 3u == 0u) { FA.send_fail++; errno = ENOBUFS; return -1; }
    FA.last_n = n < sizeof FA.last ? n : sizeof FA.last;
    memcpy(FA.last, b, FA.last_n);
    return (ssize_t)n;
}
ssize_t fz_read(int fd, void *b, size_t n)
{
    if (fa_failing(FA_F_READ)) { errno = EIO; return -1; }
    return read(fd, b, n);
}
int fz_poll(struct pollfd *p, nfds_t n, int ms)
{
    for (nfds_t i = 0; i < n; ++i) require(fa_is(p[i].fd));
    if (FA.qn > 0) return 1;
    FA.now += (int64_t)ms * 1000000; /* nothing came for the whole timeout */
    return 0;
}
int fz_fstat(int fd, struct stat *st)
{
    if (!fa_is(fd)) {
        if (fa_failing(FA_F_FSTAT)) { errno = EIO; return -1; }
        return fstat(fd, st);
    }
    memset(st, 0, sizeof *st);
    st->st_ino = (ino_t)(1000 + FA.order[fd - FA_FD0]);
    return 0;
}
int fz_mlockall(int flags)
{
    (void)flags;
    if (fa_failing(FA_F_MLOCK)) { errno = EPERM; return -1; }
    return 0;
}
int fz_munlockall(void) { return 0; }
int fz_open(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    const mode_t mode = (mode_t)va_arg(ap, int);
    va_end(ap);
    if (!strcmp(path, "/dev/cpu_dma_latency")) {
        if (fa_failing(FA_F_DMA) && fa_failing(FA_F_MLOCK)) { errno = ENOENT; return -1; }
        FA.dma_fd = fz_socket(0, 0, 0);
        return FA.dma_fd;
    }
    if (!strcmp(path, "/dev/urandom") && fa_failing(FA_F_URANDOM)) { errno = ENOENT; return -1; }
    if (strstr(path, ".new.") && fa_failing(FA_F_KEYOPEN)) { errno = EACCES; return -1; } /* hs_key_create's */
    return open(path, flags, mode);
}
ssize_t fz_getrandom(void *b, size_t n, unsigned f)
{
    if (fa_failing(FA_F_RANDOM)) { errno = ENOSYS; return -1; }
    return getrandom(b, n, f);
}
int fz_link(const char *a, const char *b)
{
    if (fa_failing(FA_F_LINK)) { errno = EACCES; return -1; }
    return link(a, b);
}
static char fa_proc[512];
FILE *fz_fopen(const char *path, const char *mode)
{
    if (!strcmp(path, "/proc/net/udp")) {
        /* the column header, then a socket of someone else on our port when asked */
        int k = snprintf(fa_proc, sizeof fa_proc, "  sl  local_address rem_address   st tx_queue "
                         "rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
                         "  8: 0200007F:%04X 00000000:0000 07 00000000:00000000 00:00000000 00000000  "
                         "1001        0 77776 2 0000\n", 47001u); /* a neighbour: 127.0.0.2, same port */
        if (fa_failing(FA_F_INTRUDER))
            snprintf(fa_proc + k, sizeof fa_proc - (size_t)k, "  9: 00000000:%04X 00000000:0000 07 "
                     "00000000:00000000 00:00000000 00000000  1001        0 77777 2 0000\n", 47001u);
        return fmemopen(fa_proc, strlen(fa_proc), "r");
    }
    if (!strcmp(path, "/sys/kernel/realtime"))
        return fa_failing(FA_F_RTKERNEL) ? fmemopen((void *)"1\n", 2, "r") : NULL;
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
#define read fz_read
#define poll fz_poll
#define fstat fz_fstat
#define fopen fz_fopen
#define mlockall fz_mlockall
#define munlockall fz_munlockall
#define getrandom fz_getrandom
#define link fz_link
#define open(...) fz_open(__VA_ARGS__)
#define pthread_create fz_pthread_create
#define pthread_setschedparam fz_pthread_setschedparam
#define pthread_setaffinity_np fz_pthread_setaffinity_np
#define clock_gettime fz_clock_gettime
#define clock_nanosleep fz_clock_nanosleep
#include "hs_linux.c"
#include "hs_tp_udp.c"
#include "hs_tp_can.c"
#include "hs_transports.c"
#include "hs_key.c"
/* The XCP slave's socket (hs_xcp_port.c): its own queue (FA.xq, the harness's master fills
 * it), its packets recorded apart from the link's frames (FA.xlast), its bind and its
 * recompile thread failing on their own bits. The recompile thread is a real thread outside
 * the baton: a sem_post that hands it a calibration waits until it has answered (X.done), so
 * the real-time thread finds the result at the next frame, as a run whose recompile takes
 * less than a frame does, and the run stays a function of its input. */
static fa_msg *fa_xpush(void)
{
    if (FA.xqn == FA_XQUEUE) return NULL;
    fa_msg *m = &FA.xq[(FA.xqh + FA.xqn++) % FA_XQUEUE];
    memset(m, 0, sizeof *m);
    m->target = 2;
    return m;
}
static ssize_t fz_recvfrom(int fd, void *b, size_t n, int flags, struct sockaddr *a, socklen_t *l)
{
    (void)flags;
    require(fa_is(fd));
    if (FA.xqn == 0) { errno = EAGAIN; return -1; }
    const fa_msg *m = &FA.xq[FA.xqh];
    FA.xqh = (FA.xqh + 1) % FA_XQUEUE;
    FA.xqn--;
    if (m->err) { errno = m->err; return -1; }
    struct sockaddr_in src;
    memset(&src, 0, sizeof src);
    src.sin_family = AF_INET;
    src.sin_addr.s_addr = htonl(0x7F000001u);
    src.sin_port = htons((uint16_t)(m->foreign ? 40001 : 40000)); /* another master: another port */
    if (a && l && *l >= sizeof src) { memcpy(a, &src, sizeof src); *l = sizeof src; }
    memcpy(b, m->b, m->n < n ? m->n : n);
    return (ssize_t)(m->n < n ? m->n : n);
}
static int fz_xcp_master_port(void);
static ssize_t fz_xcp_sendto(int fd, const void *b, size_t n, int flags, const struct sockaddr *a, socklen_t l)
{
    (void)flags;
    require(fa_is(fd) && l == sizeof(struct sockaddr_in));
    FA.xsends++;
    /* XCP on Ethernet (hil/hs_xcp.h): LEN is the packet's bytes after the 4-byte header; CTR
     * counts the packets to the connected master (0, 1, 2, ...), a refusal to another master
     * carries 0 and leaves the count */
    const uint8_t *h = (const uint8_t *)b;
    const unsigned port = ntohs(((const struct sockaddr_in *)a)->sin_port);
    require(n >= 5u && (size_t)(h[0] | h[1] << 8) == n - 4u);
    const unsigned ctr = (unsigned)(h[2] | h[3] << 8);
    if (fz_xcp_master_port() >= 0 && port != (unsigned)fz_xcp_master_port()) require(ctr == 0u);
    else require(ctr == FA.xctr++);
    FA.xlast_n = n < sizeof FA.xlast ? n : sizeof FA.xlast;
    memcpy(FA.xlast, b, FA.xlast_n);
    /* a positive GET_SEED response (LEN CTR 0xFF length seed): kept for the master's UNLOCK */
    const uint8_t *p = (const uint8_t *)b;
    if (n >= 6u + 32u && p[4] == 0xFFu && p[5] == 32u && (size_t)(p[0] | p[1] << 8) == 2u + 32u) {
        FA.xseed_n = 32;
        memcpy(FA.xseed, p + 6, 32);
    }
    return (ssize_t)n;
}
static int fz_xcp_bind(int fd, const struct sockaddr *a, socklen_t l)
{
    (void)a; (void)l;
    require(fa_is(fd));
    if (fa_failing(FA_F_XCPBIND)) { errno = EADDRINUSE; return -1; }
    return 0;
}
static int fz_xcp_sem_post(sem_t *s);
#undef pthread_create
/* (after the #undef: the real pthread_create) */
static int fz_xcp_pthread_create(pthread_t *th, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
    if (fa_failing(FA_F_XCPTHREAD)) return EAGAIN;
    return pthread_create(th, attr, fn, arg);
}
#define recvfrom fz_recvfrom
#undef sendto
#define sendto fz_xcp_sendto
#undef bind
#define bind fz_xcp_bind
#define pthread_create fz_xcp_pthread_create
#define sem_post fz_xcp_sem_post
#include "hs_xcp_port.c"
#undef sem_post
#undef pthread_create
#define pthread_create fz_pthread_create
#undef bind
#define bind fz_bind
#undef sendto
#define sendto fz_sendto
#undef recvfrom
/* The port of the master the slave is connected to, -1 when none. */
static int fz_xcp_master_port(void) { return X.x.connected ? (int)(X.x.master & 0xFFFFu) : -1; }
static int fz_xcp_sem_post(sem_t *s)
{
    const int r = sem_post(s);
    if (!__atomic_load_n(&X.quit, __ATOMIC_ACQUIRE))
        while (__atomic_load_n(&X.done, __ATOMIC_ACQUIRE) == 0) sched_yield();
    return r;
}
/* The application itself keeps its own file I/O (the CSV, stats, histogram): real files. */
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
#undef read
#undef poll
#undef fstat
#undef fopen
#undef mlockall
#undef munlockall
#undef getrandom
#undef link
#undef open
#undef pthread_create
#undef pthread_setschedparam
#undef pthread_setaffinity_np
/* The MDF4 log writer (hs_mdf.c) writes real files, as the CSV does. */
#include "hs_mdf.c"
#define pthread_join fz_pthread_join
#define nanosleep fz_nanosleep

/* ---- the private directory, the argument tokens, the per-run state ---- */
static void fa_cleanup(void)
{
    char cmd[400];
    if (fa_dir[0] == '\0') return;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", fa_dir);
    if (system(cmd) != 0) fprintf(stderr, "fz_app: could not remove %s\n", fa_dir);
}
static void fa_write_file(const char *name, const char *text, mode_t mode)
{
    char p[400];
    snprintf(p, sizeof p, "%s/%s", fa_dir, name);
    FILE *f = fopen(p, "w");
    require(f != NULL && fputs(text, f) >= 0 && fclose(f) == 0 && chmod(p, mode) == 0);
}
/* Once per process: the directory (TMPDIR or /tmp), a valid key, a readable-by-others one,
 * an all-zero one, the per-user key directory (XDG_CONFIG_HOME). */
static void fa_init(void)
{
    if (fa_dir[0]) return;
    const char *tmp = getenv("TMPDIR");
    snprintf(fa_dir, sizeof fa_dir, "%s/fz_app.XXXXXX", (tmp && tmp[0] == '/') ? tmp : "/tmp");
    require(mkdtemp(fa_dir) != NULL);
    atexit(fa_cleanup);
    fa_write_file("good.key", "# fuzz\n00112233445566778899aabbccddeeff0123456789abcdef\n", 0600);
    fa_write_file("loose.key", "00112233445566778899aabbccddeeff\n", 0644);
    fa_write_file("zero.key", "00000000000000000000000000000000\n", 0600);
    fa_write_file("plain", "a file where the key directory goes\n", 0600);
    /* fuzz_rtapp's XCP description (@xcp.hsm): units as one-word comments, a param at 0, one
     * without a comment, a mass that half of r makes 0 (a recompile the description refuses) */
    fa_write_file("xcp.hsm",
              "# fuzz_rtapp's XCP description: one-word unit comments, a param at 0, one without a comment, a mass a smaller r makes 0\n"
              "model fz_xcp dim=2\n"
              "param g = 9.81   # m/s^2\n"
              "param r = 1      # kg\n"
              "param c = 0\n"
              "param k = 400\n"
              "param m = r - 0.5   # the mass (kg)\n"
              "gravity 0,-g\n"
              "input F unit=N min=-100 max=100 fallback=0 stale=20\n"
              "body mass point2 mass=m pos=0,-1\n"
              "force spring spring a=mass b=ground@0,0 k=k c=c l0=1\n"
              "force pull inforce a=mass b=ground@0,0 in=F\n"
              "output y pos mass.y unit=m min=-10 max=10\n", 0600);
    {
        static char big[HS_KEY_FILE_MAX + 64];
        memset(big, '#', sizeof big - 1);
        fa_write_file("big.key", big, 0600);
    }
    require(setenv("XDG_CONFIG_HOME", fa_dir, 1) == 0);
}
/* argv from the input: NUL-separated words; "@NAME" is a file of the private directory
 * ("@full" /dev/full, "@dir" the directory itself), and so is the value of "KEY=@NAME",
 * "@@..." a word starting with '@'; any
 * other value of --log, --stats, --hist or --a2l a file of the private directory too. */
#define FA_MAXA 48
static char fa_words[FA_MAXA][400];
static int fa_argv(const uint8_t *d, size_t n, const char *prog, char **argv)
{
    int argc = 0;
    argv[argc++] = (char *)prog;
    size_t i = 0;
    while (i < n && argc < FA_MAXA - 1) {
        const char *w = (const char *)d + i;
        const size_t l = strnlen(w, n - i);
        char *o = fa_words[argc];
        if (l >= 200) return -1;
        /* the value of an output option stays in the private directory: the application
         * writes only there ('/' becomes '_'); hilstep-rt's --log none and --stats/--hist -
         * (stdout) stay as they are */
        const char *prev = argv[argc - 1];
        const int outopt = argc > 1 && (!strcmp(prev, "--log") || !strcmp(prev, "--stats") || !strcmp(prev, "--hist") ||
                                         !strcmp(prev, "--a2l"));
        if (w[0] == '@' && l > 1 && w[1] != '@') {
            if (l == 5 && !strncmp(w, "@full", 5)) snprintf(o, 400, "/dev/full");
            else if (l == 4 && !strncmp(w, "@dir", 4)) snprintf(o, 400, "%s", fa_dir);
            else {
                int k = snprintf(o, 400, "%s/", fa_dir);
                for (size_t j = 1; j < l && k < 399; ++j) o[k++] = w[j] == '/' ? '_' : w[j];
                o[k] = '\0';
            }
        } else if (outopt && !(l == 4 && !memcmp(w, "none", 4) && !strcmp(prev, "--log")) &&
                   !(l == 1 && w[0] == '-' && strcmp(prev, "--log") && strcmp(prev, "--a2l") && !strcmp(prog, "hilstep-rt"))) {
            int k = snprintf(o, 400, "%s/out_", fa_dir);
            for (size_t j = 0; j < l && k < 399; ++j) o[k++] = w[j] == '/' ? '_' : w[j];
            o[k] = '\0';
        } else if (w[0] != '@' && memchr(w, '=', l) && ((const char *)memchr(w, '=', l))[1] == '@') {
            /* KEY=@NAME (--transport-opt secoc-key=@good.key): the value a file of the directory */
            const size_t eq = (size_t)((const char *)memchr(w, '=', l) - w);
            snprintf(o, 400, "%.*s%s/%.*s", (int)(eq + 1), w, fa_dir, (int)(l - eq - 2), w + eq + 2);
        } else {
            snprintf(o, 400, "%.*s", (int)l, w[0] == '@' ? w + 1 : w);
        }
        argv[argc++] = o;
        i += l + 1;
    }
    argv[argc] = NULL;
    return argc;
}
/* Resets the fakes for a run: faults, clock, sockets, threads. */
static void fa_reset(uint32_t fail, uint32_t tscript, int64_t lat0)
{
    for (int i = 1; i <= FA.ntask; ++i) require(FA.task[i].joined);
    memset(&FA, 0, sizeof FA);
    FA.fail = fail;
    FA.tscript = tscript;
    FA.now = 1000000000000LL; /* 1000 s after boot */
    FA.step = 1000;
    FA.lat0 = FA.lat = lat0;
    g_active = 0; /* hs_xcp_port.c's: a process runs its slave once, the harness many times */
    fa_turn = 0;
    fa_me = 0;
}

/* Runs fn(argc, argv) with stdout into a memory file: its text in *out (malloc'd, NUL-ended),
 * the signal dispositions the application changed restored afterwards. */
static int fa_run(int (*fn)(int, char **), int argc, char **argv, char **out, size_t *outn)
{
    struct sigaction old[4];
    struct rlimit fsz;
    char xdg[300];
    require(getrlimit(RLIMIT_FSIZE, &fsz) == 0);
    if (fa_failing(FA_F_FSIZE)) { /* a small ulimit -f: writes cut short, then EFBIG */
        struct rlimit small = {3000, fsz.rlim_max};
        require(setrlimit(RLIMIT_FSIZE, &small) == 0);
    }
    snprintf(xdg, sizeof xdg, "%s/plain", fa_dir); /* a file where the key directory goes */
    if (fa_failing(FA_F_XDG)) require(setenv("XDG_CONFIG_HOME", xdg, 1) == 0);
    static const int sigs[4] = {SIGINT, SIGTERM, SIGHUP, SIGXFSZ};
    for (int i = 0; i < 4; ++i) sigaction(sigs[i], NULL, &old[i]);
    fflush(stdout);
    const int saved = dup(1);
    const int mfd = memfd_create("fz_app_stdout", MFD_CLOEXEC);
    require(saved >= 0 && mfd >= 0 && dup2(mfd, 1) == 1);
    const int rc = fn(argc, argv);
    fflush(stdout);
    require(dup2(saved, 1) == 1);
    close(saved);
    const off_t len = lseek(mfd, 0, SEEK_END);
    require(len >= 0);
    *out = malloc((size_t)len + 1);
    require(*out != NULL);
    require(pread(mfd, *out, (size_t)len, 0) == (ssize_t)len);
    (*out)[len] = '\0';
    *outn = (size_t)len;
    close(mfd);
    require(setrlimit(RLIMIT_FSIZE, &fsz) == 0 && setenv("XDG_CONFIG_HOME", fa_dir, 1) == 0);
    if (getenv("FZ_APP_SHOW")) fprintf(stderr, "%s[exit %d]\n", *out, rc); /* to look at a run */
    for (int i = 0; i < 4; ++i) sigaction(sigs[i], &old[i], NULL);
    for (int i = 1; i <= FA.ntask; ++i) require(FA.task[i].done && FA.task[i].joined);
    require(fa_open_count() == 0); /* every socket closed at the end */
    return rc;
}
#endif
