/* can_spoof.c - build/hilstep-can-spoof: the second sender of issue 31, a third node on a
 * SocketCAN bus that answers each frame of a protected message (hil/CAN.md, "Security") with
 * a forged one on the same id, carrying an attacker's value with a valid CRC:
 *   repeat  the genuine frame's counter (a replay of it, with the attacker's value)
 *   jump    the counter + 3..14 (a sender with a sequence of its own)
 *   crc     the next counter and a wrong CRC (a sender without the data id or layout)
 *   next    the next counter, sent at once (a second cadence; detected only when it falls more
 *           than half a cycle before the genuine sender's schedule)
 *   replay  the genuine frame again, unchanged (its value too)
 * On a SecOC message (hil/CAN.md, "Security") every changed frame also carries the next
 * freshness value and keeps the genuine frame's MAC (the attacker has no key): a forged frame
 * with the right CRC and a wrong MAC; a replay carries the genuine frame's old freshness.
 * A forgery goes out only within 2 ms of the genuine frame's arrival, so it never lands after
 * a silence (which would start a new sequence: the limit CAN.md names).
 *
 *   hilstep-can-spoof --can-if IF --dbc FILE --duration S --target MSG=SIGNAL:VALUE ...
 *                     [--modes repeat,jump,crc,next,replay] [--stats FILE]
 * Prints "hilstep-can-spoof: sent N ..." and writes spoof_sent=N, spoof_sent_MSG=N and one
 * spoof_mode_M=N per mode to --stats. Exit 0, 1 bad option, 2 setup failed. */
#define _GNU_SOURCE
#include "hs_dbc_file.h"

#include <errno.h>
#include <linux/can.h>
#include <linux/can/raw.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAXT 8
static hs_can_db db;
#define NMODES 5
static const char *const mode_names[NMODES] = {"repeat", "jump", "crc", "next", "replay"};

static uint64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

int main(int argc, char **argv)
{
    const char *ifn = NULL, *dbc = NULL, *stats = NULL, *modes = "repeat,jump,crc";
    double dur = 0;
    int tm[MAXT], ts[MAXT], nt = 0, use[NMODES] = {0}, nuse = 0;
    double tv[MAXT];
    uint64_t sent[MAXT] = {0}, by_mode[NMODES] = {0}, total = 0, skipped = 0;
    char msg[512];
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) { fprintf(stderr, "hilstep-can-spoof: %s needs a value\n", a); return 1; }
        ++i;
        if (!strcmp(a, "--can-if")) ifn = v;
        else if (!strcmp(a, "--dbc")) dbc = v;
        else if (!strcmp(a, "--stats")) stats = v;
        else if (!strcmp(a, "--modes")) modes = v;
        else if (!strcmp(a, "--duration")) dur = strtod(v, NULL);
        else if (!strcmp(a, "--target") && nt < MAXT) {
            char m[64], s[64];
            if (sscanf(v, "%63[^=]=%63[^:]:%lf", m, s, &tv[nt]) != 3) {
                fprintf(stderr, "hilstep-can-spoof: --target MSG=SIGNAL:VALUE, got '%s'\n", v);
                return 1;
            }
            tm[nt] = -1;
            ts[nt] = -1;
            nt++;
        } else { fprintf(stderr, "hilstep-can-spoof: unknown option %s\n", a); return 1; }
    }
    if (!ifn || !dbc || dur <= 0 || nt == 0) {
        fprintf(stderr, "usage: hilstep-can-spoof --can-if IF --dbc FILE --duration S --target MSG=SIGNAL:VALUE ...\n");
        return 1;
    }
    for (int k = 0; k < NMODES; ++k) if (strstr(modes, mode_names[k])) use[nuse++] = k;
    if (!nuse) { fprintf(stderr, "hilstep-can-spoof: --modes names none of repeat,jump,crc,next,replay\n"); return 1; }
    if (hs_dbc_load_file(dbc, &db, msg, sizeof msg)) { fprintf(stderr, "hilstep-can-spoof: %s\n", msg); return 2; }
    int t = 0;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--target") || i + 1 >= argc) continue;
        char m[64], s[64];
        double x;
        (void)sscanf(argv[++i], "%63[^=]=%63[^:]:%lf", m, s, &x);
        for (int k = 0; k < db.nmsg; ++k)
            if (!strcmp(db.msg[k].name, m)) tm[t] = k;
        if (tm[t] >= 0)
            for (int j = db.msg[tm[t]].first; j < db.msg[tm[t]].first + db.msg[tm[t]].n; ++j)
                if (!strcmp(db.sig[j].name, s)) ts[t] = j;
        if (tm[t] < 0 || ts[t] < 0 || !db.msg[tm[t]].e2e) {
            fprintf(stderr, "hilstep-can-spoof: %s: no E2E message %s with a signal %s\n", dbc, m, s);
            return 1;
        }
        t++;
    }
    int fd = socket(PF_CAN, SOCK_RAW, CAN_RAW), one = 1;
    struct sockaddr_can addr;
    memset(&addr, 0, sizeof addr);
    addr.can_family = AF_CAN;
    addr.can_ifindex = (int)if_nametoindex(ifn);
    if (fd < 0 || addr.can_ifindex == 0 || setsockopt(fd, SOL_CAN_RAW, CAN_RAW_FD_FRAMES, &one, sizeof one) ||
        setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one) ||
        bind(fd, (struct sockaddr *)&addr, sizeof addr)) {
        fprintf(stderr, "hilstep-can-spoof: CAN interface '%s': %s\n", ifn, strerror(errno));
        return 2;
    }
    const uint64_t end = now_us() + (uint64_t)(dur * 1e6);
    uint64_t n = 0;
    while (now_us() < end) {
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, 50) <= 0) continue;
        struct canfd_frame fr;
        struct iovec iov = {&fr, sizeof fr};
        union { struct cmsghdr h; char b[CMSG_SPACE(sizeof(struct timespec))]; } ctl;
        struct msghdr mh;
        memset(&mh, 0, sizeof mh);
        mh.msg_iov = &iov;
        mh.msg_iovlen = 1;
        mh.msg_control = ctl.b;
        mh.msg_controllen = sizeof ctl.b;
        const ssize_t r = recvmsg(fd, &mh, 0);
        if (r <= 0) continue;
        uint64_t at = now_us();
        for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c))
            if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SO_TIMESTAMPNS) {
                struct timespec st;
                memcpy(&st, CMSG_DATA(c), sizeof st);
                at = (uint64_t)st.tv_sec * 1000000u + (uint64_t)st.tv_nsec / 1000u;
            }
        const int ext = (fr.can_id & CAN_EFF_FLAG) != 0;
        const uint32_t id = fr.can_id & (ext ? CAN_EFF_MASK : CAN_SFF_MASK);
        for (int k = 0; k < nt; ++k) {
            const hs_can_msg *M = &db.msg[tm[k]];
            if (M->id != id || (int)M->ext != ext || fr.len != M->len) continue;
            if (now_us() > at + 2000u) { skipped++; break; }
            const hs_can_sig *ks = &db.sig[M->e2e_ctr];
            const unsigned mask = (1u << ks->len) - 1u, cb = db.sig[M->e2e_crc].start / 8u;
            const unsigned c = (unsigned)hs_can_get_raw(ks, fr.data);
            const int mode = use[n % (uint64_t)nuse];
            int sat;
            struct canfd_frame f2 = fr;
            hs_can_put_raw(&db.sig[ts[k]], f2.data, hs_can_phys_to_raw(&db.sig[ts[k]], tv[k], &sat));
            const unsigned sc = mode == 0 ? c : mode == 1 ? c + 3u + (unsigned)(n % 12u) : c + 1u;
            hs_can_put_raw(ks, f2.data, (int64_t)(sc & mask));
            if (M->secoc) {
                const hs_can_sig *fs = &db.sig[M->secoc_fv];
                hs_can_put_raw(fs, f2.data, (hs_can_get_raw(fs, fr.data) + 1) & (int64_t)((1ull << fs->len) - 1u));
            }
            f2.data[cb] = hs_e2e_crc(M->e2e, M->e2e_data_id, f2.data, M->len, cb);
            if (mode == 2) f2.data[cb] ^= 0x5Au;
            if (mode == 4) f2 = fr;
            const size_t mtu = M->fd ? CANFD_MTU : CAN_MTU;
            if (write(fd, &f2, mtu) == (ssize_t)mtu) {
                sent[k]++;
                by_mode[mode]++;
                total++;
                n++;
            }
            break;
        }
    }
    printf("hilstep-can-spoof: sent %llu forged frames (%llu genuine frames let pass: seen over 2 ms late)",
           (unsigned long long)total, (unsigned long long)skipped);
    for (int k = 0; k < nt; ++k) printf(", %s %llu", db.msg[tm[k]].name, (unsigned long long)sent[k]);
    printf("\n");
    if (stats) {
        FILE *f = fopen(stats, "w");
        if (!f) { fprintf(stderr, "hilstep-can-spoof: --stats %s: %s\n", stats, strerror(errno)); return 2; }
        fprintf(f, "spoof_sent=%llu\nspoof_skipped=%llu\n", (unsigned long long)total, (unsigned long long)skipped);
        for (int k = 0; k < nt; ++k) fprintf(f, "spoof_sent_%s=%llu\n", db.msg[tm[k]].name, (unsigned long long)sent[k]);
        for (int m = 0; m < NMODES; ++m) fprintf(f, "spoof_mode_%s=%llu\n", mode_names[m], (unsigned long long)by_mode[m]);
        if (fclose(f)) { fprintf(stderr, "hilstep-can-spoof: --stats %s: write failed\n", stats); return 2; }
    }
    close(fd);
    return 0;
}
