/* hs_linux.h - the Linux side of the HIL frame: UDP transport, real-time setup, clocks.
 * Everything here is OS-specific on purpose; hil/ stays free of it. */
#ifndef HS_LINUX_H
#define HS_LINUX_H

#include <netinet/in.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "hs_key.h"
#include "hs_mac.h"
#include "hs_signal.h"

/* Monotonic clock (CLOCK_MONOTONIC) in ns. */
int64_t hs_now_ns(void);

/* Sleeps until absolute CLOCK_MONOTONIC time t_ns; resumes after signals, so it returns only
 * at or after t_ns. */
void hs_sleep_until_ns(int64_t t_ns);

/* Parses "A.B.C.D:PORT" into a; 0, or -1 with a reason in why (cap bytes). */
int hs_addr_parse(const char *s, struct sockaddr_in *a, char *why, size_t cap);

/* Formats a as "A.B.C.D:PORT" into buf (cap >= 22); returns buf. */
const char *hs_addr_str(const struct sockaddr_in *a, char *buf, size_t cap);

/* One non-blocking UDP endpoint talking to one configured peer. Two sockets share the local
 * address and nobody else can: fd is connect()ed to the peer, so the kernel queues only the
 * peer's datagrams there and a flood from anywhere else cannot fill that queue; fd_foreign
 * catches everything else (the kernel prefers the connected socket for the peer's 4-tuple),
 * so foreign traffic is still counted: read ones by hs_rx (foreign_address), the rest in
 * foreign_kernel_drops. SO_REUSEPORT is on only while the pair binds, then off on both, so a
 * third socket (any user, root too) gets "address in use" instead of the ECU's frames. */
typedef struct hs_udp {
    int fd;                    /* peer socket (connected), -1 when closed */
    int fd_foreign;            /* catch-all socket for other sources, -1 when unavailable */
    struct sockaddr_in local;  /* bound address */
    struct sockaddr_in peer;   /* the only accepted source, and the destination of sends */
    uint32_t kernel_drops;     /* peer datagrams the kernel dropped on a full queue (SO_RXQ_OVFL) */
    uint32_t foreign_kernel_drops; /* foreign datagrams dropped on the catch-all's full queue */
    uint64_t peer_unreachable; /* ICMP port unreachable from the peer (nobody listening there) */
    uint64_t send_errors;      /* sendto() failures (the frame is lost, never retried) */
    int last_send_errno;       /* errno of the last failed send */
    int open_errno;            /* hs_udp_open refused: errno of the failed call, 0 = none (intruders) */
    int open_peer;             /* hs_udp_open refused at the peer (connect), not the local address */
} hs_udp;

/* Opens, binds to local and sets non-blocking; rcvbuf bytes of receive buffer (0 = default).
 * Refuses (-1) an address another socket holds or joined while the pair opened (checked in
 * /proc/net/udp). 0, or -1 with a reason in why. */
int hs_udp_open(hs_udp *u, const struct sockaddr_in *local, const struct sockaddr_in *peer,
                int rcvbuf, char *why, size_t cap);

/* Takes one datagram if any is queued, never blocks: the peer socket first, then the
 * catch-all. Returns its true length (larger than cap when it was truncated, so oversized
 * datagrams are detected), -1 when both queues are empty, -2 on a socket error.
 * *from_peer = 1 when the source equals the configured peer. */
ssize_t hs_udp_recv(hs_udp *u, uint8_t *buf, size_t cap, int *from_peer);

/* Waits up to timeout_ns for a datagram to be queued; 1 ready, 0 timeout. For non-RT tools. */
int hs_udp_wait(hs_udp *u, int64_t timeout_ns);

/* Sends one frame to the peer; 0, or -1 (counted in send_errors). */
int hs_udp_send(hs_udp *u, const uint8_t *buf, size_t n);

/* Closes the socket. */
void hs_udp_close(hs_udp *u);

/* The key file and the link options (hs_key_load, hs_link_setup) are in hs_key.h. */

/* What the process asked of the system and what it got. */
typedef struct hs_rt_report {
    int kernel_rt;       /* 1 when /sys/kernel/realtime reads 1 (PREEMPT_RT) */
    int mlock_ok;        /* mlockall(MCL_CURRENT | MCL_FUTURE) succeeded */
    int mlock_errno;     /* its errno when it failed */
    int mlock_undone;    /* granted, then released because a thread stack did not fit the limit */
    int fifo_wanted;     /* priority > 0 was asked */
    int fifo_ok;         /* the real-time thread runs SCHED_FIFO */
    int fifo_errno;      /* errno of the refused request */
    int prio;            /* SCHED_FIFO priority asked (1..99), 0 = none */
    int cpu;             /* CPU asked, -1 = none */
    int affinity_ok;     /* pinned to cpu */
    int affinity_errno;  /* errno of the refused request */
    int dma_ok;          /* /dev/cpu_dma_latency held at 0 us (as cyclictest does) */
} hs_rt_report;

/* Reads /sys/kernel/realtime; 1 for a PREEMPT_RT kernel, else 0. */
int hs_rt_kernel_is_rt(void);

/* Locks memory and holds /dev/cpu_dma_latency at 0 us; fills the matching report fields. */
void hs_rt_lock_memory(hs_rt_report *r);

/* Touches bytes of stack so the real-time thread never page-faults on it later. */
void hs_rt_prefault_stack(size_t bytes);

/* Stack of the real-time threads (bytes); hs_rt_prefault_stack touches 128 KiB of it. */
#define HS_RT_STACK (512u * 1024u)

/* Starts fn(arg) on a normal thread with a stack of stack bytes; when locked memory leaves no
 * room for it, unlocks (reported in r) and retries. 0 or an errno. */
int hs_thread_start(pthread_t *th, void *(*fn)(void *), void *arg, size_t stack, hs_rt_report *r);

/* Starts fn(arg) on a thread with SCHED_FIFO priority prio (0 = normal policy) pinned to cpu
 * (-1 = any). A refused privilege is reported in r and the thread runs without it; returns 0,
 * or an errno when no thread could be started at all. */
int hs_rt_thread_start(pthread_t *th, void *(*fn)(void *), void *arg, int prio, int cpu,
                       hs_rt_report *r);

/* 1 when every asked-for privilege was granted on a PREEMPT_RT kernel. */
int hs_rt_is_hard(const hs_rt_report *r);

/* Why the run is not hard real-time, e.g. "no PREEMPT_RT kernel, no SCHED_FIFO", into why
 * (cap bytes); "" when it is. */
void hs_rt_why(const hs_rt_report *r, char *why, size_t cap);

/* Prints the report as a few "rt: ..." lines, ending with a plain verdict. */
void hs_rt_print(const hs_rt_report *r, FILE *f);

#endif
