/* hs_linux.c - UDP transport, real-time setup and clocks for the Linux port. */
#define _GNU_SOURCE /* pthread_attr_setaffinity_np, CPU_SET */
#include "hs_linux.h"

#include <arpa/inet.h>
#include <linux/sock_diag.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int64_t hs_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void hs_sleep_until_ns(int64_t t_ns)
{
    struct timespec ts;
    ts.tv_sec = (time_t)(t_ns / 1000000000);
    ts.tv_nsec = (long)(t_ns % 1000000000);
    /* Absolute deadline: an interrupted sleep resumes toward the same instant, no drift. */
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {
    }
}

int hs_addr_parse(const char *s, struct sockaddr_in *a, char *why, size_t cap)
{
    char host[64];
    const char *colon = s ? strrchr(s, ':') : NULL;
    memset(a, 0, sizeof *a);
    if (!colon || colon == s || (size_t)(colon - s) >= sizeof host) {
        snprintf(why, cap, "address '%s' is not A.B.C.D:PORT", s ? s : "");
        return -1;
    }
    memcpy(host, s, (size_t)(colon - s));
    host[colon - s] = '\0';
    char *end;
    long port = strtol(colon + 1, &end, 10);
    if (*end || end == colon + 1 || port < 1 || port > 65535) {
        snprintf(why, cap, "port in '%s' is not 1..65535", s);
        return -1;
    }
    a->sin_family = AF_INET;
    a->sin_port = htons((uint16_t)port);
    if (inet_pton(AF_INET, host, &a->sin_addr) != 1) {
        snprintf(why, cap, "host in '%s' is not a dotted IPv4 address", s);
        return -1;
    }
    return 0;
}

const char *hs_addr_str(const struct sockaddr_in *a, char *buf, size_t cap)
{
    char ip[INET_ADDRSTRLEN];
    inet_ntop(AF_INET, &a->sin_addr, ip, sizeof ip);
    snprintf(buf, cap, "%s:%u", ip, (unsigned)ntohs(a->sin_port));
    return buf;
}

/* One datagram socket bound to local with SO_REUSEPORT (a second one may share the address),
 * when reuse is set, SO_RXQ_OVFL and rcvbuf bytes of queue (0 = default); the fd or -1 with a
 * reason. */
static int udp_socket(const struct sockaddr_in *local, int rcvbuf, int reuse, char *why, size_t cap)
{
    char ab[32];
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        snprintf(why, cap, "socket: %s", strerror(errno));
        return -1;
    }
    int one = 1;
    /* Ask the kernel to tell us how many datagrams it dropped on a full queue: those never
     * reach hs_rx, and a HIL tool must not lose frames without saying so. */
    (void)setsockopt(fd, SOL_SOCKET, SO_RXQ_OVFL, &one, sizeof one);
    if (reuse) (void)setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
    if (rcvbuf > 0) {
        if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof rcvbuf) != 0)
            (void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
    }
    if (bind(fd, (const struct sockaddr *)local, sizeof *local) != 0) {
        const int e = errno;
        snprintf(why, cap, "bind %s: %s", hs_addr_str(local, ab, sizeof ab), strerror(e));
        close(fd);
        errno = e; /* the caller records the bind's errno, not close's */
        return -1;
    }
    return fd;
}

/* Counts the IPv4 UDP sockets of this network namespace (/proc/net/udp) whose local address
 * collides with local (same port; same address or either one the wildcard) other than ours
 * (inodes ino[0..n)). -1 when the table cannot be read (a sandbox without /proc). */
static int udp_intruders(const struct sockaddr_in *local, const unsigned long *ino, int n)
{
    FILE *f = fopen("/proc/net/udp", "r");
    char line[512];
    int found = 0;
    if (!f) return -1;
    if (!fgets(line, sizeof line, f)) { fclose(f); return -1; } /* the column header */
    while (fgets(line, sizeof line, f)) {
        unsigned addr, port;
        unsigned long inode;
        /* "  sl  local_address rem_address st tx_queue:rx_queue tr:when retrnsmt uid timeout inode" */
        if (sscanf(line, " %*d: %8X:%4X %*8X:%*4X %*2X %*8X:%*8X %*2X:%*8X %*8X %*u %*d %lu",
                   &addr, &port, &inode) != 3) continue;
        if (port != ntohs(local->sin_port)) continue;
        /* /proc prints the address as the host-order value of the network-order word. */
        if (addr != 0u && local->sin_addr.s_addr != 0u && addr != (unsigned)local->sin_addr.s_addr)
            continue;
        int ours = 0;
        for (int i = 0; i < n; ++i) ours |= inode == ino[i];
        if (!ours) ++found;
    }
    fclose(f);
    return found;
}

static unsigned long sock_inode(int fd)
{
    struct stat st;
    return (fd >= 0 && fstat(fd, &st) == 0) ? (unsigned long)st.st_ino : 0ul;
}

int hs_udp_open(hs_udp *u, const struct sockaddr_in *local, const struct sockaddr_in *peer,
                int rcvbuf, char *why, size_t cap)
{
    char ab[32];
    int zero = 0, one = 1;
    memset(u, 0, sizeof *u);
    u->local = *local;
    u->peer = *peer;
    u->fd_foreign = -1;
    /* The peer socket binds exclusively (no SO_REUSEADDR/SO_REUSEPORT): an address someone
     * holds fails with "address in use", and nobody can bind beside it afterwards. */
    u->fd = udp_socket(local, rcvbuf, 0, why, cap);
    if (u->fd < 0) {
        u->open_errno = errno;
        return -1;
    }
    socklen_t sl = sizeof u->local;
    (void)getsockname(u->fd, (struct sockaddr *)&u->local, &sl);
    /* The catch-all shares the address: SO_REUSEPORT is set on both for the instant of its
     * bind and cleared right after, so the pair is closed to every later socket (root's
     * included: a bind needs SO_REUSEPORT on the sockets already there). The kernel routes
     * by score, not by the reuseport group: the connected socket wins the peer's 4-tuple,
     * the catch-all gets every other source. Without the catch-all (refused) foreign
     * datagrams are dropped by the kernel uncounted; the link works the same. */
    if (setsockopt(u->fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one) == 0) {
        u->fd_foreign = udp_socket(&u->local, 64 * 1024, 1, ab, sizeof ab);
        (void)setsockopt(u->fd, SOL_SOCKET, SO_REUSEPORT, &zero, sizeof zero);
        if (u->fd_foreign >= 0 &&
            setsockopt(u->fd_foreign, SOL_SOCKET, SO_REUSEPORT, &zero, sizeof zero) != 0) {
            close(u->fd_foreign); /* a catch-all left open to others would be a door */
            u->fd_foreign = -1;
        }
    }
    /* The kernel filters the peer socket to the configured peer from here on. */
    if (connect(u->fd, (const struct sockaddr *)peer, sizeof *peer) != 0) {
        u->open_errno = errno;
        u->open_peer = 1;
        snprintf(why, cap, "connect %s: %s", hs_addr_str(peer, ab, sizeof ab), strerror(errno));
        hs_udp_close(u);
        return -1;
    }
    /* Someone who slipped in during the microseconds the pair was open would stay in it. */
    const unsigned long ino[2] = {sock_inode(u->fd), sock_inode(u->fd_foreign)};
    const int intruders = udp_intruders(&u->local, ino, u->fd_foreign >= 0 ? 2 : 1);
    if (intruders > 0) {
        snprintf(why, cap, "bind %s: %d other socket(s) joined the address while it opened; "
                 "refusing to run a link others can read", hs_addr_str(&u->local, ab, sizeof ab),
                 intruders);
        hs_udp_close(u);
        return -1;
    }
    return 0;
}

/* One recvmsg on fd; returns its length, -1 empty, -2 error, -3 ICMP refused (retry). */
static ssize_t recv_one(hs_udp *u, int fd, uint32_t *drops, uint8_t *buf, size_t cap,
                        int *from_peer)
{
    struct sockaddr_in src;
    struct iovec iov = {buf, cap};
    union {
        struct cmsghdr h;
        char b[CMSG_SPACE(sizeof(uint32_t))];
    } ctl;
    struct msghdr mh;
    memset(&mh, 0, sizeof mh);
    mh.msg_name = &src;
    mh.msg_namelen = sizeof src;
    mh.msg_iov = &iov;
    mh.msg_iovlen = 1;
    mh.msg_control = ctl.b;
    mh.msg_controllen = sizeof ctl.b;
    /* MSG_TRUNC: the return value is the datagram's real length even when it did not fit. */
    ssize_t n = recvmsg(fd, &mh, MSG_TRUNC | MSG_DONTWAIT);
    if (n < 0) {
        if (errno == ECONNREFUSED) return -3;
        return (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) ? -1 : -2;
    }
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SO_RXQ_OVFL) {
            uint32_t d;
            memcpy(&d, CMSG_DATA(c), sizeof d);
            *drops = d;
        }
    }
    *from_peer = mh.msg_namelen >= sizeof src && src.sin_family == AF_INET &&
                 src.sin_addr.s_addr == u->peer.sin_addr.s_addr &&
                 src.sin_port == u->peer.sin_port;
    return n;
}

/* The socket's drop counter now (SO_MEMINFO). SO_RXQ_OVFL stamps each datagram with the
 * count at its enqueue, so drops after the last datagram queued would go unreported. */
static void refresh_drops(int fd, uint32_t *drops)
{
    uint32_t mi[SK_MEMINFO_VARS];
    socklen_t l = sizeof mi;
    if (fd >= 0 && getsockopt(fd, SOL_SOCKET, SO_MEMINFO, mi, &l) == 0 &&
        l > SK_MEMINFO_DROPS * sizeof mi[0])
        *drops = mi[SK_MEMINFO_DROPS];
}

ssize_t hs_udp_recv(hs_udp *u, uint8_t *buf, size_t cap, int *from_peer)
{
    ssize_t n = recv_one(u, u->fd, &u->kernel_drops, buf, cap, from_peer);
    if (n == -3) {
        /* A connected UDP socket reports the peer's ICMP port unreachable once (our outputs
         * reached no listener); counted, then the queue is read on. */
        u->peer_unreachable++;
        n = recv_one(u, u->fd, &u->kernel_drops, buf, cap, from_peer);
        if (n == -3) n = -1;
    }
    if (n != -1) return n;
    if (u->fd_foreign >= 0) {
        n = recv_one(u, u->fd_foreign, &u->foreign_kernel_drops, buf, cap, from_peer);
        if (n == -3) n = -1;
        if (n != -1) return n;
    }
    /* Both queues empty: bring the drop counters up to date (one call each). */
    refresh_drops(u->fd, &u->kernel_drops);
    refresh_drops(u->fd_foreign, &u->foreign_kernel_drops);
    return -1;
}

int hs_udp_wait(hs_udp *u, int64_t timeout_ns)
{
    struct pollfd p[2] = {{u->fd, POLLIN, 0}, {u->fd_foreign, POLLIN, 0}};
    int ms = (int)((timeout_ns + 999999) / 1000000);
    return poll(p, u->fd_foreign >= 0 ? 2u : 1u, ms) > 0;
}

int hs_udp_send(hs_udp *u, const uint8_t *buf, size_t n)
{
    ssize_t r = sendto(u->fd, buf, n, MSG_DONTWAIT, (const struct sockaddr *)&u->peer,
                       sizeof u->peer);
    if (r != (ssize_t)n) {
        u->send_errors++;
        u->last_send_errno = r < 0 ? errno : EMSGSIZE;
        return -1;
    }
    return 0;
}

void hs_udp_close(hs_udp *u)
{
    if (u->fd >= 0) close(u->fd);
    if (u->fd_foreign >= 0) close(u->fd_foreign);
    u->fd = -1;
    u->fd_foreign = -1;
}

int hs_rt_kernel_is_rt(void)
{
    FILE *f = fopen("/sys/kernel/realtime", "r");
    int v = 0;
    if (!f) return 0;
    if (fscanf(f, "%d", &v) != 1) v = 0;
    fclose(f);
    return v == 1;
}

void hs_rt_lock_memory(hs_rt_report *r)
{
    r->kernel_rt = hs_rt_kernel_is_rt();
    r->mlock_ok = mlockall(MCL_CURRENT | MCL_FUTURE) == 0;
    r->mlock_errno = r->mlock_ok ? 0 : errno;
    /* Keep the CPU out of deep C-states while we run, as cyclictest does; the fd stays open
     * for the life of the process (closing it releases the request). */
    int fd = open("/dev/cpu_dma_latency", O_WRONLY | O_CLOEXEC);
    if (fd >= 0) {
        int32_t zero = 0;
        r->dma_ok = write(fd, &zero, sizeof zero) == (ssize_t)sizeof zero;
        if (!r->dma_ok) close(fd);
    }
}

void hs_rt_prefault_stack(size_t bytes)
{
    /* volatile keeps the compiler from eliding the touches; one write per page suffices. */
    unsigned char buf[256 * 1024];
    volatile unsigned char *p = buf;
    if (bytes > sizeof buf) bytes = sizeof buf;
    for (size_t i = 0; i < bytes; i += 4096) p[i] = 0;
}

/* With memory locked (MCL_FUTURE) every new thread stack must fit under RLIMIT_MEMLOCK;
 * unprivileged users often have 8 MiB, less than a default stack. Then we give the lock up,
 * say so in the report, and keep running rather than refuse to start. */
static int unlock_after_eagain(hs_rt_report *r)
{
    if (!r->mlock_ok) return 0;
    munlockall();
    r->mlock_ok = 0;
    r->mlock_errno = ENOMEM;
    r->mlock_undone = 1;
    return 1;
}

int hs_thread_start(pthread_t *th, void *(*fn)(void *), void *arg, size_t stack, hs_rt_report *r)
{
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setstacksize(&a, stack);
    int e = pthread_create(th, &a, fn, arg);
    if (e == EAGAIN && unlock_after_eagain(r)) e = pthread_create(th, &a, fn, arg);
    pthread_attr_destroy(&a);
    return e;
}

int hs_rt_thread_start(pthread_t *th, void *(*fn)(void *), void *arg, int prio, int cpu,
                       hs_rt_report *r)
{
    pthread_attr_t a;
    int e;
    r->prio = prio;
    r->cpu = cpu;
    r->fifo_wanted = prio > 0;
    pthread_attr_init(&a);
    pthread_attr_setstacksize(&a, HS_RT_STACK);
    if (prio > 0) {
        struct sched_param sp;
        memset(&sp, 0, sizeof sp);
        sp.sched_priority = prio;
        pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED);
        pthread_attr_setschedpolicy(&a, SCHED_FIFO);
        pthread_attr_setschedparam(&a, &sp);
    }
    if (cpu >= 0) {
        cpu_set_t cs;
        CPU_ZERO(&cs);
        CPU_SET((size_t)cpu, &cs);
        pthread_attr_setaffinity_np(&a, sizeof cs, &cs);
    }
    e = pthread_create(th, &a, fn, arg);
    if (e == EAGAIN && unlock_after_eagain(r)) e = pthread_create(th, &a, fn, arg);
    if (e == 0) {
        r->fifo_ok = prio > 0;
        r->affinity_ok = cpu >= 0;
    } else if (e == EPERM || e == EINVAL) {
        /* Refused privilege (no root / no rtprio limit, or an offline CPU): try each alone
         * and run with whatever is granted. */
        pthread_attr_destroy(&a);
        pthread_attr_init(&a);
        pthread_attr_setstacksize(&a, HS_RT_STACK);
        e = pthread_create(th, &a, fn, arg);
        if (e == EAGAIN && unlock_after_eagain(r)) e = pthread_create(th, &a, fn, arg);
        if (e != 0) {
            pthread_attr_destroy(&a);
            return e;
        }
        if (prio > 0) {
            struct sched_param sp;
            memset(&sp, 0, sizeof sp);
            sp.sched_priority = prio;
            int e2 = pthread_setschedparam(*th, SCHED_FIFO, &sp);
            r->fifo_ok = e2 == 0;
            r->fifo_errno = e2;
        }
        if (cpu >= 0) {
            cpu_set_t cs;
            CPU_ZERO(&cs);
            CPU_SET((size_t)cpu, &cs);
            int e3 = pthread_setaffinity_np(*th, sizeof cs, &cs);
            r->affinity_ok = e3 == 0;
            r->affinity_errno = e3;
        }
    } else {
        pthread_attr_destroy(&a);
        return e;
    }
    pthread_attr_destroy(&a);
    return 0;
}

void hs_rt_why(const hs_rt_report *r, char *why, size_t cap)
{
    snprintf(why, cap, "%s%s%s%s", !r->kernel_rt ? ", no PREEMPT_RT kernel" : "",
             !r->mlock_ok ? ", memory not locked" : "", !r->fifo_ok ? ", no SCHED_FIFO" : "",
             r->cpu >= 0 && !r->affinity_ok ? ", not pinned" : "");
    if (why[0]) memmove(why, why + 2, strlen(why + 2) + 1);
}

int hs_rt_is_hard(const hs_rt_report *r)
{
    return r->kernel_rt && r->mlock_ok && r->fifo_ok && (r->cpu < 0 || r->affinity_ok);
}

void hs_rt_print(const hs_rt_report *r, FILE *f)
{
    fprintf(f, "rt: kernel PREEMPT_RT: %s\n",
            r->kernel_rt ? "yes" : "no (/sys/kernel/realtime absent or 0)");
    if (r->mlock_undone)
        fprintf(f, "rt: mlockall: granted, then undone: RLIMIT_MEMLOCK (ulimit -l) too small "
                   "for the thread stacks\n");
    else
        fprintf(f, "rt: mlockall: %s\n", r->mlock_ok ? "granted" : strerror(r->mlock_errno));
    if (r->fifo_wanted)
        fprintf(f, "rt: SCHED_FIFO priority %d: %s\n", r->prio,
                r->fifo_ok ? "granted" : strerror(r->fifo_errno ? r->fifo_errno : EPERM));
    else
        fprintf(f, "rt: SCHED_FIFO: not asked (--priority 0), normal scheduling\n");
    if (r->cpu >= 0)
        fprintf(f, "rt: CPU affinity %d: %s\n", r->cpu,
                r->affinity_ok ? "granted" : strerror(r->affinity_errno ? r->affinity_errno : EINVAL));
    fprintf(f, "rt: /dev/cpu_dma_latency 0 us: %s\n", r->dma_ok ? "held" : "not available");
    if (hs_rt_is_hard(r))
        fprintf(f, "rt: verdict: hard real-time run\n");
    else {
        char why[160];
        hs_rt_why(r, why, sizeof why);
        fprintf(f, "rt: verdict: NOT hard real-time (%s) - running anyway; latency figures "
                   "are best effort\n", why);
    }
}
