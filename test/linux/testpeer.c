/* testpeer.c - build/hilstep-testpeer: a scripted ECU for the linux-test suite.
 *
 *   hilstep-testpeer storm --plant A:P --listen A:P --foreign A:P --cycles N --expect FILE
 *                          --values FILE
 *     Per cycle: a burst of invalid datagrams of every kind, then one valid frame, then waits
 *     (bounded) until the plant acknowledges that valid frame through ack_seq. Waiting for
 *     the acknowledgement makes the outcome independent of scheduling: every valid frame is
 *     alone in its tick (none superseded), the socket queue never holds more than one burst,
 *     and every invalid datagram meets a known "last accepted seq". Writes the exact counter
 *     values the plant must report (FILE, key=value) and, per valid seq, the engineering value
 *     the model must have received (--values, "seq value" lines).
 *
 *   hilstep-testpeer sink --listen A:P --plant A:P --timeout S
 *     Receives plant frames until one carries HS_FLAG_FINAL, the plant falls silent for 0.5 s
 *     after talking, or the timeout, and prints the last frame's seq, flags and values as
 *     key=value lines.
 *
 *   hilstep-testpeer late --listen A:P --plant A:P --timeout S --count N
 *     Sends nothing until the plant's FINAL frame, then N valid frames and N short datagrams
 *     at once: they all arrive after the plant's last receive. Prints what it sent.
 *
 *   hilstep-testpeer ecu --listen A:P --plant A:P --timeout S [--defect none|crc|nan|short]
 *                        [--value V] [--silence-at MS --silence-ms MS]
 *     A scripted ECU on its own 1 ms clock (half a period off the plant's grid, as hilstep-ecu):
 *     one frame of F_t = V per tick, each with the defect asked for (crc: last CRC byte
 *     flipped; nan: the value NaN, resealed; short: the first 20 bytes only), and no frame at
 *     all from tick MS for MS ticks (a silence mid-run). Ends on the plant's FINAL frame or the
 *     timeout; prints what it sent (sent=, silent_ticks=) as key=value lines.
 *
 * Every loop is bounded in count and in time; exit status 0 = script completed. */
#define _GNU_SOURCE
#include "hs_frame.h"
#include "hs_linux.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_IN 1u   /* circular track plant: F_t */
#define N_OUT 4u  /* speed, radius, x1, x2 */
#define F_MIN (-50.0)
#define F_MAX 50.0

static const char *arg(int argc, char **argv, const char *key, const char *def)
{
    for (int i = 1; i + 1 < argc; ++i)
        if (!strcmp(argv[i], key)) return argv[i + 1];
    return def;
}

static int open_ep(hs_udp *u, const char *local, const char *peer)
{
    struct sockaddr_in la, pa;
    char why[200];
    if (hs_addr_parse(local, &la, why, sizeof why) || hs_addr_parse(peer, &pa, why, sizeof why) ||
        hs_udp_open(u, &la, &pa, 1 << 20, why, sizeof why)) {
        fprintf(stderr, "testpeer: %s\n", why);
        return -1;
    }
    return 0;
}

/* Reads every queued plant frame; returns the highest ack_seq seen (or prev). */
static uint32_t drain_plant(hs_udp *u, uint32_t prev, uint64_t *frames, uint32_t *flags,
                            double *vals, uint32_t *seq)
{
    uint8_t buf[HS_FRAME_MAX_BYTES + 1];
    hs_frame_hdr h;
    double v[N_OUT];
    for (int i = 0; i < 4096; ++i) {
        int fp;
        ssize_t n = hs_udp_recv(u, buf, sizeof buf, &fp);
        if (n < 0) break;
        if (!fp || (size_t)n > sizeof buf) continue;
        if (hs_frame_parse(buf, (size_t)n, HS_FRAME_KIND_FROM_PLANT, N_OUT, &h, v) != HS_RX_OK)
            continue;
        ++*frames;
        if (flags) *flags = h.flags;
        if (vals) memcpy(vals, v, sizeof v);
        if (seq) *seq = h.seq;
        if (h.ack_seq == prev || (uint32_t)(h.ack_seq - prev) < 0x80000000u) prev = h.ack_seq;
    }
    return prev;
}

static size_t frame(uint8_t *buf, uint32_t session, uint32_t seq, double v)
{
    hs_frame_hdr h;
    memset(&h, 0, sizeof h);
    h.version = HS_FRAME_VERSION;
    h.kind = HS_FRAME_KIND_TO_PLANT;
    h.count = N_IN;
    h.session = session;
    h.seq = seq;
    h.send_ns = (uint64_t)hs_now_ns();
    return hs_frame_encode(buf, HS_FRAME_MAX_BYTES, &h, &v);
}

/* Re-seals a hand-edited frame of n bytes so only the intended defect remains. */
static void reseal(uint8_t *buf, size_t n)
{
    hs_put_u32(buf + n - 4, hs_crc32(buf, n - 4));
}

enum { K_FOREIGN, K_SHORT, K_LONG, K_MAGIC, K_VERSION, K_CRC, K_LAYOUT, K_REPEAT, K_STALE,
       K_NONFINITE, K_KINDS };
static const char *const kkey[K_KINDS] = {
    "rx_rej_foreign_address", "rx_rej_short", "rx_rej_oversized", "rx_rej_bad_magic",
    "rx_rej_bad_version", "rx_rej_bad_checksum", "rx_rej_bad_layout", "rx_rej_seq_repeated",
    "rx_rej_seq_stale", "rx_rej_nonfinite"};

/* One invalid datagram of kind k (the kindpos-th of the storm) for the plant: from foreign for
 * K_FOREIGN, else from ecu; seq is the last valid frame's, last_valid (last_len bytes) that
 * frame, b (cap bytes) the buffer it is built in. */
static void send_bad(hs_udp *ecu, hs_udp *foreign, int k, long kindpos, uint32_t session, uint32_t seq,
                     const uint8_t *last_valid, size_t last_len, uint8_t *b, size_t cap)
{
    size_t n;
    switch (k) {
    case K_FOREIGN: /* a perfect frame with the next seq, but from a stranger */
        n = frame(b, session, seq + 1u, 1.0);
        hs_udp_send(foreign, b, n);
        break;
    case K_SHORT: { /* lengths 0 .. frame size - 1, cycling */
        static const size_t lens[] = {0, 1, 4, 31, 32, 43};
        n = frame(b, session, seq + 1u, 1.0);
        hs_udp_send(ecu, b, lens[(kindpos / K_KINDS) % 6]);
        break;
    }
    case K_LONG: { /* one byte too many up to far beyond the receive buffer */
        static const size_t lens[] = {45, 52, 200, 4000};
        n = frame(b, session, seq + 1u, 1.0);
        memset(b + n, 0xA5, cap - n);
        hs_udp_send(ecu, b, lens[(kindpos / K_KINDS) % 4]);
        break;
    }
    case K_MAGIC:
        n = frame(b, session, seq + 1u, 1.0);
        b[0] = 'X';
        reseal(b, n);
        hs_udp_send(ecu, b, n);
        break;
    case K_VERSION:
        n = frame(b, session, seq + 1u, 1.0);
        b[4] = (uint8_t)(HS_FRAME_VERSION + 1u);
        reseal(b, n);
        hs_udp_send(ecu, b, n);
        break;
    case K_CRC: /* one flipped bit in the value */
        n = frame(b, session, seq + 1u, 1.0);
        b[HS_FRAME_HEADER_BYTES + 3] ^= 0x10;
        hs_udp_send(ecu, b, n);
        break;
    case K_LAYOUT: /* right length, wrong kind or wrong count, valid CRC */
        n = frame(b, session, seq + 1u, 1.0);
        if ((kindpos / K_KINDS) % 2) b[5] = HS_FRAME_KIND_FROM_PLANT;
        else hs_put_u16(b + 6, 2);
        reseal(b, n);
        hs_udp_send(ecu, b, n);
        break;
    case K_REPEAT: /* the last accepted frame again, byte for byte */
        hs_udp_send(ecu, last_valid, last_len);
        break;
    case K_STALE: /* an older seq, re-sealed so only the seq is wrong */
        n = frame(b, session, seq - 1u - (uint32_t)(kindpos / K_KINDS % 50), 2.0);
        hs_udp_send(ecu, b, n);
        break;
    default: { /* NaN, +Inf, -Inf carrying the very seq the next valid frame uses */
        static const double bad[] = {NAN, INFINITY, -INFINITY};
        n = frame(b, session, seq + 1u, bad[(kindpos / K_KINDS) % 3]);
        hs_udp_send(ecu, b, n);
        break;
    }
    }
    (void)n;
}

static int storm(int argc, char **argv)
{
    hs_udp ecu, foreign;
    const char *plant = arg(argc, argv, "--plant", "127.0.0.1:47101");
    if (open_ep(&ecu, arg(argc, argv, "--listen", "127.0.0.1:47102"), plant)) return 2;
    if (open_ep(&foreign, arg(argc, argv, "--foreign", "127.0.0.1:47103"), plant)) return 2;
    const long cycles = strtol(arg(argc, argv, "--cycles", "1000"), NULL, 10);
    const int per_cycle = 11;
    FILE *ef = fopen(arg(argc, argv, "--expect", "/dev/null"), "w");
    FILE *vf = fopen(arg(argc, argv, "--values", "/dev/null"), "w");
    if (!ef || !vf) { fprintf(stderr, "testpeer: cannot write output files\n"); return 2; }

    uint64_t sent[K_KINDS] = {0}, clamped = 0, valid = 0, plant_frames = 0, timeouts = 0;
    const uint32_t session = 0x5EED0004u;
    uint32_t seq = 100, ack = 0;
    uint8_t last_valid[HS_FRAME_MAX_BYTES];
    size_t last_len = 0;
    uint8_t b[8192];

    /* The plant is up once it talks to us (bounded: 5 s). */
    for (int i = 0; i < 500 && plant_frames == 0; ++i) {
        hs_udp_wait(&ecu, 10000000);
        ack = drain_plant(&ecu, ack, &plant_frames, NULL, NULL, NULL);
    }
    if (plant_frames == 0) { fprintf(stderr, "testpeer: plant silent for 5 s\n"); return 3; }

    long kindpos = 0;
    for (long c = 0; c < cycles; ++c) {
        for (int j = 0; j < per_cycle; ++j, ++kindpos) {
            int k = (int)(kindpos % K_KINDS);
            if ((k == K_REPEAT || k == K_STALE) && last_len == 0) k = K_CRC; /* nothing yet */
            send_bad(&ecu, &foreign, k, kindpos, session, seq, last_valid, last_len, b, sizeof b);
            sent[k]++;
        }
        /* The valid frame: mostly in range, every 7th far out of range (must be clamped). */
        double v = 10.0 * sin(0.05 * (double)c);
        if (c % 7 == 3) v = (c % 2) ? 1.0e6 : -3.0e3;
        double e = v < F_MIN ? F_MIN : v > F_MAX ? F_MAX : v;
        clamped += e != v;
        seq += 1u;
        last_len = frame(last_valid, session, seq, v);
        hs_udp_send(&ecu, last_valid, last_len);
        valid++;
        fprintf(vf, "%u %.17g\n", seq, e);
        /* Bounded wait for the plant to use it (1 s; the plant's tick is 1 ms). */
        int got = 0;
        for (int w = 0; w < 1000 && !got; ++w) {
            ack = drain_plant(&ecu, ack, &plant_frames, NULL, NULL, NULL);
            got = ack == seq;
            if (!got) hs_udp_wait(&ecu, 1000000);
        }
        if (!got) timeouts++;
    }
    for (int k = 0; k < K_KINDS; ++k) fprintf(ef, "%s=%llu\n", kkey[k], (unsigned long long)sent[k]);
    uint64_t bad = 0;
    for (int k = 0; k < K_KINDS; ++k) bad += sent[k];
    fprintf(ef, "rx_rejected=%llu\n", (unsigned long long)bad);
    fprintf(ef, "rx_accepted=%llu\n", (unsigned long long)valid);
    fprintf(ef, "rx_used=%llu\n", (unsigned long long)valid);
    fprintf(ef, "rx_superseded=0\n");
    fprintf(ef, "rx_clamped_values=%llu\n", (unsigned long long)clamped);
    fprintf(ef, "rx_kernel_drops=0\n");
    fprintf(ef, "rx_seq_gaps=0\n");
    fprintf(ef, "rx_peer_restarts=0\n");
    fclose(ef);
    fclose(vf);
    printf("testpeer: %llu invalid + %llu valid datagrams, %llu ack timeouts, %llu plant frames\n",
           (unsigned long long)bad, (unsigned long long)valid, (unsigned long long)timeouts,
           (unsigned long long)plant_frames);
    return timeouts ? 4 : 0;
}

static int sink(int argc, char **argv)
{
    hs_udp u;
    if (open_ep(&u, arg(argc, argv, "--listen", "127.0.0.1:47102"),
                arg(argc, argv, "--plant", "127.0.0.1:47101"))) return 2;
    const double tmo = atof(arg(argc, argv, "--timeout", "10"));
    const int64_t until = hs_now_ns() + (int64_t)(tmo * 1e9);
    uint64_t frames = 0, seen = 0;
    uint32_t flags = 0, seq = 0;
    double v[N_OUT] = {0};
    int64_t last_rx = hs_now_ns();
    while (hs_now_ns() < until && !(flags & HS_FLAG_FINAL)) {
        hs_udp_wait(&u, 10000000);
        (void)drain_plant(&u, 0, &frames, &flags, v, &seq);
        if (frames != seen) { seen = frames; last_rx = hs_now_ns(); }
        else if (frames && hs_now_ns() - last_rx > 500000000) break; /* the plant died */
    }
    printf("frames=%llu\nflags=%u\nseq=%u\n", (unsigned long long)frames, flags, seq);
    for (unsigned i = 0; i < N_OUT; ++i) printf("value%u=%.17g\n", i, v[i]);
    return (flags & HS_FLAG_FINAL) ? 0 : 3;
}

static int late(int argc, char **argv)
{
    hs_udp u;
    if (open_ep(&u, arg(argc, argv, "--listen", "127.0.0.1:47102"),
                arg(argc, argv, "--plant", "127.0.0.1:47101"))) return 2;
    const double tmo = atof(arg(argc, argv, "--timeout", "10"));
    const long count = strtol(arg(argc, argv, "--count", "20"), NULL, 10);
    const int64_t until = hs_now_ns() + (int64_t)(tmo * 1e9);
    uint64_t frames = 0;
    uint32_t flags = 0;
    while (hs_now_ns() < until && !(flags & HS_FLAG_FINAL)) {
        hs_udp_wait(&u, 1000000);
        (void)drain_plant(&u, 0, &frames, &flags, NULL, NULL);
    }
    if (!(flags & HS_FLAG_FINAL)) return 3;
    uint8_t b[HS_FRAME_MAX_BYTES];
    long sent_valid = 0, sent_short = 0;
    for (long i = 0; i < count; ++i) {
        size_t n = frame(b, 0x1A7E0001u, (uint32_t)(i + 1), 1.0);
        sent_valid += hs_udp_send(&u, b, n) == 0;
        sent_short += hs_udp_send(&u, b, 10) == 0;
    }
    printf("late_valid=%ld\nlate_short=%ld\nplant_frames=%llu\n", sent_valid, sent_short,
           (unsigned long long)frames);
    return 0;
}

static int ecu(int argc, char **argv)
{
    hs_udp u;
    if (open_ep(&u, arg(argc, argv, "--listen", "127.0.0.1:47102"),
                arg(argc, argv, "--plant", "127.0.0.1:47101"))) return 2;
    const double tmo = atof(arg(argc, argv, "--timeout", "10"));
    const char *defect = arg(argc, argv, "--defect", "none");
    const double val = atof(arg(argc, argv, "--value", "1"));
    const long sil_at = strtol(arg(argc, argv, "--silence-at", "-1"), NULL, 10);
    const long sil_ms = strtol(arg(argc, argv, "--silence-ms", "0"), NULL, 10);
    if (strcmp(defect, "none") && strcmp(defect, "crc") && strcmp(defect, "nan") && strcmp(defect, "short")) {
        fprintf(stderr, "testpeer ecu: --defect none|crc|nan|short, not '%s'\n", defect);
        return 1;
    }
    const int64_t per = 1000000, start = (hs_now_ns() / per + 1) * per + per / 2;
    const uint64_t ticks = (uint64_t)(tmo * 1e3);
    uint64_t frames = 0, sent = 0, silent = 0;
    uint32_t flags = 0;
    uint8_t b[HS_FRAME_MAX_BYTES];
    for (uint64_t k = 0; k < ticks && !(flags & HS_FLAG_FINAL); ++k) {
        hs_sleep_until_ns(start + (int64_t)k * per);
        (void)drain_plant(&u, 0, &frames, &flags, NULL, NULL);
        if (sil_at >= 0 && (long)k >= sil_at && (long)k < sil_at + sil_ms) { ++silent; continue; }
        size_t n = frame(b, 0xEC0u, (uint32_t)(k + 1u), !strcmp(defect, "nan") ? (double)NAN : val);
        if (!strcmp(defect, "nan")) reseal(b, n);
        if (!strcmp(defect, "crc")) b[n - 1] ^= 0xFFu;
        if (!strcmp(defect, "short")) n = 20;
        sent += hs_udp_send(&u, b, n) == 0;
    }
    printf("sent=%llu\nsilent_ticks=%llu\nplant_frames=%llu\nfinal=%d\n", (unsigned long long)sent,
           (unsigned long long)silent, (unsigned long long)frames, (flags & HS_FLAG_FINAL) != 0);
    return (flags & HS_FLAG_FINAL) ? 0 : 3;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "ecu")) return ecu(argc, argv);
    if (argc > 1 && !strcmp(argv[1], "storm")) return storm(argc, argv);
    if (argc > 1 && !strcmp(argv[1], "sink")) return sink(argc, argv);
    if (argc > 1 && !strcmp(argv[1], "late")) return late(argc, argv);
    fprintf(stderr, "usage: hilstep-testpeer storm|sink|late|ecu [options] (see the source header)\n");
    return 1;
}
