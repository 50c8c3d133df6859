/* flood.c - build/hilstep-flood: a foreign-traffic flood for the link test (issue 11 item 6).
 *
 *   hilstep-flood --from A.B.C.D:P --to A.B.C.D:P --rate N --seconds S
 *
 * Sends N datagrams per second (in batches every millisecond, sendmmsg, paced on absolute
 * CLOCK_MONOTONIC deadlines) from its own port to the plant for S seconds. Each datagram is a
 * CRC-valid 44-byte ECU frame with a plausible seq, so only the source check can refuse it.
 * Prints "flood_sent=K" (datagrams the kernel accepted from us) and "flood_rate=R" (per s). */
#define _GNU_SOURCE
#include "hs_frame.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static int parse(const char *s, struct sockaddr_in *a)
{
    char host[64];
    const char *c = strrchr(s, ':');
    if (!c || (size_t)(c - s) >= sizeof host) return -1;
    memcpy(host, s, (size_t)(c - s));
    host[c - s] = 0;
    memset(a, 0, sizeof *a);
    a->sin_family = AF_INET;
    a->sin_port = htons((uint16_t)atoi(c + 1));
    return inet_pton(AF_INET, host, &a->sin_addr) == 1 ? 0 : -1;
}

static const char *arg(int argc, char **argv, const char *k, const char *d)
{
    for (int i = 1; i + 1 < argc; ++i)
        if (!strcmp(argv[i], k)) return argv[i + 1];
    return d;
}

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
    struct sockaddr_in from, to;
    if (parse(arg(argc, argv, "--from", "127.0.0.1:47203"), &from) ||
        parse(arg(argc, argv, "--to", "127.0.0.1:47201"), &to)) {
        fprintf(stderr, "hilstep-flood: bad address\n");
        return 2;
    }
    const double rate = atof(arg(argc, argv, "--rate", "100000"));
    const double secs = atof(arg(argc, argv, "--seconds", "2"));
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    int sz = 4 << 20;
    (void)setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof sz);
    if (fd < 0 || bind(fd, (struct sockaddr *)&from, sizeof from) != 0) {
        fprintf(stderr, "hilstep-flood: bind: %s\n", strerror(errno));
        return 2;
    }
    enum { BATCH = 1000 };
    static uint8_t buf[BATCH][HS_FRAME_MAX_BYTES];
    static struct mmsghdr mm[BATCH];
    static struct iovec iov[BATCH];
    const int64_t per_ms = (int64_t)(rate / 1000.0 + 0.5);
    if (per_ms < 1 || per_ms > BATCH) { fprintf(stderr, "hilstep-flood: rate out of range\n"); return 2; }
    uint64_t sent = 0, seq = 1;
    const int64_t t0 = now_ns(), ms = (int64_t)(secs * 1000.0);
    for (int64_t k = 0; k < ms; ++k) {
        /* A loaded machine cannot keep every 1 ms batch: stop at the stated duration in wall
         * time, so the count printed below always arrives before the caller's timeout. */
        if (now_ns() - t0 >= ms * 1000000) break;
        for (int64_t i = 0; i < per_ms; ++i) {
            hs_frame_hdr h = {HS_FRAME_VERSION, HS_FRAME_KIND_TO_PLANT, 1, 0x0EC00001u, (uint32_t)seq++, 0, 0, 0};
            double v = 50.0;
            size_t n = hs_frame_encode(buf[i], sizeof buf[i], &h, &v);
            iov[i].iov_base = buf[i];
            iov[i].iov_len = n;
            memset(&mm[i], 0, sizeof mm[i]);
            mm[i].msg_hdr.msg_name = &to;
            mm[i].msg_hdr.msg_namelen = sizeof to;
            mm[i].msg_hdr.msg_iov = &iov[i];
            mm[i].msg_hdr.msg_iovlen = 1;
        }
        int done = 0;
        while (done < per_ms) {
            int r = sendmmsg(fd, mm + done, (unsigned)(per_ms - done), 0);
            if (r <= 0) break; /* ECONNREFUSED etc.: count only what went out */
            done += r;
        }
        sent += (uint64_t)done;
        const int64_t next = t0 + (k + 1) * 1000000;
        struct timespec ts = {(time_t)(next / 1000000000), (long)(next % 1000000000)};
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {
        }
    }
    const double el = (double)(now_ns() - t0) * 1e-9;
    printf("flood_sent=%llu\nflood_rate=%.0f\n", (unsigned long long)sent, (double)sent / el);
    close(fd);
    return 0;
}
