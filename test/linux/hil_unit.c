/* hil_unit.c - unit tests of hil/: frame codec against the golden bytes of hil/FRAME.md,
 * every rejection reason, sequence rules, clamping, staleness, signal map checks, the SPSC
 * ring and the histogram. No sockets, no clock: pure functions of their inputs. Built with
 * ASan/UBSan by linux-rt.mk. Prints "hil-unit: N passed, N failed". */
#include "hs_apps.h"
#include "hs_frame.h"
#include "hs_health.h"
#include "hs_models.h"
#include "hs_plant.h"
#include "hs_hist.h"
#include "hs_ring.h"
#include "hs_signal.h"
#include "hs_test.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>


static const hs_signal_map *plant_map(void) { return &hs_map_circular_track_plant; }

static size_t make(uint8_t *b, uint32_t session, uint32_t seq, double v)
{
    hs_frame_hdr h = {HS_FRAME_VERSION, HS_FRAME_KIND_TO_PLANT, 1, session, seq, 0, 0, 0};
    return hs_frame_encode(b, HS_FRAME_MAX_BYTES, &h, &v);
}

static void test_crc_and_golden(void)
{
    /* The standard CRC-32 check value. */
    CHECK(hs_crc32((const uint8_t *)"123456789", 9) == UINT32_C(0xCBF43926));
    /* The example frame of hil/FRAME.md, byte for byte. */
    static const uint8_t golden[44] = {
        0x48, 0x53, 0x46, 0x31, 0x01, 0x01, 0x01, 0x00, 0x04, 0x03, 0x02, 0x01,
        0x2a, 0x00, 0x00, 0x00, 0x00, 0xe1, 0xf5, 0x05, 0x00, 0x00, 0x00, 0x00,
        0x29, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x29, 0x40, 0x3f, 0x36, 0x2e, 0xec};
    uint8_t b[HS_FRAME_MAX_BYTES];
    hs_frame_hdr h = {HS_FRAME_VERSION, HS_FRAME_KIND_TO_PLANT, 1, 0x01020304u, 42,
                      100000000u, 41, 0};
    double v = 12.5;
    size_t n = hs_frame_encode(b, sizeof b, &h, &v);
    CHECK(n == 44);
    CHECK(memcmp(b, golden, 44) == 0);
    uint32_t crc = hs_crc32(b, 40);
    CHECK(hs_get_u32(b + 40) == crc);
    printf("  golden frame crc = 0x%08x (bytes %02x %02x %02x %02x)\n", crc, b[40], b[41], b[42], b[43]);
    hs_frame_hdr r;
    double rv;
    CHECK(hs_frame_parse(b, n, HS_FRAME_KIND_TO_PLANT, 1, &r, &rv) == HS_RX_OK);
    CHECK(r.session == 0x01020304u && r.seq == 42 && r.send_ns == 100000000u && r.ack_seq == 41);
    CHECK(rv == 12.5);
    CHECK(HS_FRAME_BYTES(4) == 68);
    CHECK(hs_frame_encode(b, 43, &h, &v) == 0); /* too small a buffer */
}

static void test_reasons(void)
{
    uint8_t b[HS_FRAME_MAX_BYTES + 8];
    hs_frame_hdr h;
    double v;
    size_t n = make(b, 7, 5, 1.0);
    CHECK(hs_frame_parse(b, n - 1, 1, 1, &h, &v) == HS_RX_SHORT);
    CHECK(hs_frame_parse(b, 0, 1, 1, &h, &v) == HS_RX_SHORT);
    CHECK(hs_frame_parse(b, n + 1, 1, 1, &h, &v) == HS_RX_LONG);
    b[0] ^= 1;
    CHECK(hs_frame_parse(b, n, 1, 1, &h, &v) == HS_RX_MAGIC);
    b[0] ^= 1;
    b[4] = 2;
    CHECK(hs_frame_parse(b, n, 1, 1, &h, &v) == HS_RX_VERSION);
    b[4] = 1;
    b[35] ^= 0x80;
    CHECK(hs_frame_parse(b, n, 1, 1, &h, &v) == HS_RX_CHECKSUM);
    b[35] ^= 0x80;
    CHECK(hs_frame_parse(b, n, 2, 1, &h, &v) == HS_RX_LAYOUT); /* wrong kind for this end */
    n = make(b, 7, 5, NAN);
    CHECK(hs_frame_parse(b, n, 1, 1, &h, &v) == HS_RX_NONFINITE);
    n = make(b, 7, 5, -INFINITY);
    CHECK(hs_frame_parse(b, n, 1, 1, &h, &v) == HS_RX_NONFINITE);
    for (int r = 0; r < HS_RX_REASONS; ++r) CHECK(strcmp(hs_rx_reason_name(r), "unknown") != 0);
}

static void test_rx_sequence_and_clamp(void)
{
    hs_rx rx;
    hs_real in[1];
    uint8_t b[HS_FRAME_MAX_BYTES];
    CHECK(hs_rx_init(&rx, plant_map(), HS_FRAME_KIND_TO_PLANT) == 0);
    CHECK(rx.n == 1);
    CHECK(hs_rx_tick(&rx, in) == 0 && in[0] == 0.0 && rx.stale); /* fallback before any frame */

    size_t n = make(b, 9, 10, 3.0);
    CHECK(hs_rx_offer(&rx, b, n, 0) == HS_RX_FOREIGN);       /* stranger: not even parsed */
    CHECK(hs_rx_offer(&rx, b, n, 1) == HS_RX_OK);
    CHECK(hs_rx_offer(&rx, b, n, 1) == HS_RX_SEQ_REPEATED);
    n = make(b, 9, 9, 4.0);
    CHECK(hs_rx_offer(&rx, b, n, 1) == HS_RX_SEQ_STALE);
    n = make(b, 9, 13, 1.0e9);                                /* gap of 2, clamped to 50 */
    CHECK(hs_rx_offer(&rx, b, n, 1) == HS_RX_OK);
    CHECK(rx.st.seq_gaps == 2 && rx.st.clamped == 1 && rx.st.superseded == 1);
    CHECK(hs_rx_tick(&rx, in) == 1 && in[0] == 50.0 && !rx.stale && rx.used_seq == 13);
    n = make(b, 9, 14, -1.0e300);
    CHECK(hs_rx_offer(&rx, b, n, 1) == HS_RX_OK);
    CHECK(hs_rx_tick(&rx, in) == 1 && in[0] == -50.0);
    /* A far jump is refused (seq_jump) unless HS_RX_CONFIRM consecutive frames confirm it
     * while the link is quiet (FRAME.md, "Sessions and sequence numbers"). */
    n = make(b, 9, 0x7FFFFFF0u, 1.0);
    CHECK(hs_rx_offer(&rx, b, n, 1) == HS_RX_SEQ_JUMP);
    /* The peer goes quiet for longer than the takeover limit (the map's stale limit). */
    int woke = 0;
    for (uint32_t k = 0; k <= rx.takeover_ticks; ++k) woke += hs_rx_tick(&rx, in);
    CHECK(woke == 0);
    for (uint32_t k = 0; k < 3; ++k) {
        n = make(b, 9, 0xFFFFFF00u + k, 1.0); /* 270 behind: far, like a restarted counter */
        CHECK(hs_rx_offer(&rx, b, n, 1) == (k + 1 < HS_RX_CONFIRM ? HS_RX_SEQ_STALE : HS_RX_OK));
    }
    CHECK(rx.st.seq_resyncs == 1 && rx.last_seq == 0xFFFFFF02u);
    /* Serial arithmetic across the 2^32 wrap. */
    n = make(b, 9, 0x00000002u, 2.0);
    CHECK(hs_rx_offer(&rx, b, n, 1) == HS_RX_OK);
    n = make(b, 9, 0xFFFFFFF8u, 2.0);
    CHECK(hs_rx_offer(&rx, b, n, 1) == HS_RX_SEQ_STALE);
    /* A new session (peer restarted) starts the sequence afresh once confirmed. */
    CHECK(hs_rx_tick(&rx, in) == 1);
    for (uint32_t k = 0; k <= rx.takeover_ticks; ++k) woke += hs_rx_tick(&rx, in);
    CHECK(woke == 0);
    for (uint32_t k = 1; k <= 3; ++k) {
        n = make(b, 10, k, 5.0);
        CHECK(hs_rx_offer(&rx, b, n, 1) == (k < HS_RX_CONFIRM ? HS_RX_SESSION_NEW : HS_RX_OK));
    }
    CHECK(rx.st.peer_restarts == 1);
    CHECK(hs_rx_tick(&rx, in) == 1 && in[0] == 5.0);
    n = make(b, 9, 0x00000002u, 2.0); /* the old session's last accepted frame again: a replay */
    CHECK(hs_rx_offer(&rx, b, n, 1) == HS_RX_SESSION_OLD);
    /* Every datagram is in exactly one counter. */
    uint64_t sum = rx.st.accepted + hs_rx_rejected_total(&rx);
    CHECK(sum == rx.st.datagrams);
    CHECK(rx.st.accepted == rx.st.used + rx.st.superseded);
}

static void test_staleness(void)
{
    hs_rx rx;
    hs_real in[1];
    uint8_t b[HS_FRAME_MAX_BYTES];
    hs_rx_init(&rx, plant_map(), HS_FRAME_KIND_TO_PLANT);
    const uint32_t lim = rx.sig[0]->stale_limit;
    size_t n = make(b, 1, 1, 7.0);
    hs_rx_offer(&rx, b, n, 1);
    CHECK(hs_rx_tick(&rx, in) == 1 && in[0] == 7.0);
    int held = 1;
    for (uint32_t k = 1; k <= lim; ++k) { hs_rx_tick(&rx, in); held &= in[0] == 7.0 && !rx.stale; }
    CHECK(held);                                   /* held for exactly stale_limit frames */
    hs_rx_tick(&rx, in);
    CHECK(in[0] == 0.0 && rx.stale);               /* then the declared fallback */
    n = make(b, 1, 2, 8.0);
    hs_rx_offer(&rx, b, n, 1);
    CHECK(hs_rx_tick(&rx, in) == 1 && in[0] == 8.0 && !rx.stale);
}

static void test_map_check(void)
{
    hs_error e;
    CHECK(hs_signal_map_check(&hs_map_circular_track_plant, 1, 4, &e) == 0 && e.status == HS_OK && e.index == -1);
    CHECK(hs_signal_map_check(&hs_map_circular_track_ecu, 4, 1, &e) == 0);
    CHECK(hs_signal_map_check(&hs_map_circular_track_plant, 2, 4, &e) == HS_E_SIGNAL_MAP);
    /* the map's count and the model's, named in the one line a tool prints */
    CHECK(strstr(e.detail, "input count") != NULL && strstr(e.detail, "(map 1, 2)") != NULL
          && e.has_value == 1 && e.value == 1.0 && e.index == -1 && e.field[0] == '\0'
          && strstr(e.detail, e.msg) != NULL && e.status == HS_E_SIGNAL_MAP);
    hs_signal bad[2] = {
        {"a", "N", HS_SIG_IN, 1.0, 0.0, -1.0, 1.0, 0.0, 5},
        {"a", "N", HS_SIG_OUT, 1.0, 0.0, -1.0, 1.0, 0.0, 0}};
    hs_signal_map m = {"t", bad, 2};
    /* the second signal is the duplicate: index 1, field its name, the map and the signal in the line */
    CHECK(hs_signal_map_check(&m, 1, 1, &e) == HS_E_SIGNAL_MAP && strstr(e.msg, "duplicate") && e.index == 1
          && strcmp(e.field, "a") == 0 && strcmp(e.detail, "signal map t, signal a: duplicate name") == 0);
    bad[1].name = "b";
    CHECK(hs_signal_map_check(&m, 1, 1, &e) == 0);
    bad[0].scale = 0.0;
    CHECK(hs_signal_map_check(&m, 1, 1, &e) == HS_E_SIGNAL_MAP && strstr(e.detail, "scale") && e.index == 0);
    bad[0].scale = 2.0;
    bad[0].fallback = 3.0;
    CHECK(hs_signal_map_check(&m, 1, 1, &e) == HS_E_SIGNAL_MAP && strstr(e.detail, "fallback"));
    bad[0].fallback = 0.0;
    bad[0].stale_limit = 0;
    CHECK(hs_signal_map_check(&m, 1, 1, &e) == HS_E_SIGNAL_MAP && strstr(e.detail, "stale"));
    bad[0].stale_limit = 3;
    bad[0].min = 2.0;
    CHECK(hs_signal_map_check(&m, 1, 1, &e) == HS_E_SIGNAL_MAP && strstr(e.detail, "min <= max"));
    CHECK(hs_signal_map_check(&m, 1, 1, NULL) == HS_E_SIGNAL_MAP);
    bad[0].min = -1.0;
    /* Scale and offset: engineering = wire * 2 + 0; wire 0.25 -> 0.5. Outputs invert it. */
    hs_rx rx;
    hs_tx tx;
    hs_real y[1] = {0.5}, in[1];
    uint8_t b[HS_FRAME_MAX_BYTES];
    hs_rx_init(&rx, &m, HS_FRAME_KIND_TO_PLANT);
    size_t n = make(b, 1, 1, 0.25);
    hs_rx_offer(&rx, b, n, 1);
    hs_rx_tick(&rx, in);
    CHECK(in[0] == 0.5);
    hs_tx_init(&tx, &m, HS_FRAME_KIND_FROM_PLANT, 3);
    n = hs_tx_build(&tx, b, sizeof b, y, 0, 0, 0);
    CHECK(n == HS_FRAME_BYTES(1) && hs_get_f64(b + 32) == 0.5 && hs_get_u32(b + 12) == 1);
    n = hs_tx_build(&tx, b, sizeof b, NULL, 0, 0, HS_FLAG_SAFE);
    CHECK(hs_get_u32(b + 12) == 2 && hs_get_f64(b + 32) == 0.0 && hs_get_u32(b + 28) == HS_FLAG_SAFE);
}

/* The ring under a real producer/consumer pair: order preserved, drops counted exactly. */
typedef struct { hs_ring *r; uint32_t n; uint32_t ok; } prod_arg;
static void *producer(void *a)
{
    prod_arg *p = (prod_arg *)a;
    for (uint32_t i = 0; i < p->n; ++i)
        if (hs_ring_push(p->r, &i) == 0) __atomic_store_n(&p->ok, p->ok + 1u, __ATOMIC_RELAXED);
    return NULL;
}

static void test_ring(void)
{
    static uint32_t store[64];
    hs_ring r;
    uint32_t x;
    CHECK(hs_ring_init(&r, store, 63, 4) == HS_E_SIZE);
    CHECK(hs_ring_init(&r, store, 64, 4) == 0);
    CHECK(hs_ring_pop(&r, &x) == -1);
    for (uint32_t i = 0; i < 64; ++i) hs_ring_push(&r, &i);
    x = 99;
    CHECK(hs_ring_push(&r, &x) == -1 && hs_ring_drops(&r) == 1 && hs_ring_pushed(&r) == 64);
    int order = 1;
    for (uint32_t i = 0; i < 64; ++i) order &= hs_ring_pop(&r, &x) == 0 && x == i;
    CHECK(order);

    hs_ring_init(&r, store, 64, 4);
    prod_arg pa = {&r, 200000, 0};
    pthread_t th;
    pthread_create(&th, NULL, producer, &pa);
    uint32_t got = 0, last = 0, mono = 1;
    for (long spin = 0; spin < 100000000L; ++spin) {
        if (hs_ring_pop(&r, &x) == 0) {
            mono &= got == 0 || x > last;
            last = x;
            ++got;
        } else if (__atomic_load_n(&pa.ok, __ATOMIC_RELAXED) + hs_ring_drops(&r) == pa.n &&
                   got == hs_ring_pushed(&r)) {
            break;
        }
    }
    pthread_join(th, NULL);
    while (hs_ring_pop(&r, &x) == 0) { mono &= x > last; last = x; ++got; }
    CHECK(mono);
    CHECK(got == pa.ok && got + hs_ring_drops(&r) == pa.n);
}

static void test_hist(void)
{
    static uint32_t bins[100];
    hs_hist h;
    hs_hist_init(&h, bins, 100, 1000);
    for (int i = 0; i < 1000; ++i) hs_hist_add(&h, 5500, (uint64_t)i);
    for (int i = 0; i < 10; ++i) hs_hist_add(&h, 50500, (uint64_t)(1000 + i));
    hs_hist_add(&h, 200000, 7777);
    CHECK(h.count == 1011 && h.overflow == 1 && h.ovf_at[0] == 7777);
    CHECK(bins[5] == 1000 && bins[50] == 10);
    CHECK(hs_hist_quantile(&h, 0.5) == 6000);
    CHECK(hs_hist_quantile(&h, 0.995) == 51000);
    CHECK(hs_hist_quantile(&h, 1.0) == 200000);
    CHECK(h.min == 5500 && h.max == 200000);
}

/* The plant application without any OS: frames, the fault-hold policy, overrun stop, late
 * frames counted at terminate, the exit table's order. */
static void test_plant(void)
{
    static hs_real R[HS_STEPPER_REALS(HS_PLANT_MAX_NQ, HS_PLANT_MAX_NC, HS_PLANT_MAX_NZ)];
    static int I[HS_STEPPER_INTS(HS_PLANT_MAX_NQ, HS_PLANT_MAX_NC) + 4096];
    static hs_plant p;
    static union { hs_real r[HS_MODELS_MAX_PARAM_BYTES / sizeof(hs_real) + 1]; double d; } pb;
    hs_model m;
    char why[200];
    uint8_t out[HS_FRAME_MAX_BYTES], in[HS_FRAME_MAX_BYTES];
    hs_frame_hdr h;
    double v[8];
    hs_tm_row row;

    CHECK(hs_plant_model_by_name(&m, &pb, sizeof pb, "nosuch", why, sizeof why) == HS_E_USAGE);
    CHECK(strstr(why, "known: ") != NULL && strstr(why, "car_axle") != NULL);
    CHECK(hs_plant_model_by_name(&m, &pb, sizeof pb, "circular_track", why, sizeof why) == HS_EXIT_OK);
    hs_real ext;
    CHECK(hs_model_get_param(&m, "external", &ext) == HS_OK && ext == 1.0); /* inputs from the wire */
    hs_plant_def d = hs_plant_default_def();
    d.inject_fault_tick = 5;
    d.inject_fault_frames = 100;
    d.fault_hold = 3;
    CHECK(hs_plant_initialize(&p, &d, &m, R, sizeof R / sizeof R[0], I, sizeof I / sizeof I[0], why,
                              sizeof why) == HS_EXIT_OK);
    CHECK(p.map == &hs_map_circular_track_plant && p.d.nin == 1 && p.d.nout == 4);
    /* A valid ECU frame is applied at the next step and acknowledged in the plant's frame. */
    size_t n = make(in, 77, 1, 12.5);
    CHECK(hs_plant_receive(&p, in, n, 1) == HS_RX_OK);
    n = hs_plant_step(&p, 0, 0, out, sizeof out, &row);
    CHECK(n == HS_FRAME_BYTES(4));
    CHECK(hs_frame_parse(out, n, HS_FRAME_KIND_FROM_PLANT, 4, &h, v) == HS_RX_OK);
    CHECK(h.ack_seq == 1 && h.seq == 1 && row.in[0] == 12.5 && row.tx_seq == 1 && (row.flags & HS_TMF_FRESH));
    CHECK(v[0] == row.out[0] && v[1] == row.out[1]); /* the wire carries what the row says */
    for (uint64_t k = 1; k < 5; ++k) (void)hs_plant_step(&p, k, 0, out, sizeof out, &row);
    const double held = row.out[2];
    /* Ticks 5, 6 refused and held (FAULT), tick 7 exhausts the hold: safe frame, stop. */
    n = hs_plant_step(&p, 5, 0, out, sizeof out, &row);
    CHECK(hs_frame_parse(out, n, 2, 4, &h, v) == HS_RX_OK && (h.flags & HS_FLAG_FAULT) && !(h.flags & HS_FLAG_SAFE));
    CHECK(v[2] == held && row.out[2] == held && (row.flags & HS_TMF_FAULT) && !p.stop);
    (void)hs_plant_step(&p, 6, 0, out, sizeof out, &row);
    CHECK(!p.stop && p.fault_run == 2);
    n = hs_plant_step(&p, 7, 0, out, sizeof out, &row);
    CHECK(p.stop == HS_PLANT_STOP_FAULT && p.faults == 3);
    CHECK(hs_frame_parse(out, n, 2, 4, &h, v) == HS_RX_OK);
    CHECK((h.flags & (HS_FLAG_SAFE | HS_FLAG_FINAL)) == (HS_FLAG_SAFE | HS_FLAG_FINAL));
    CHECK(v[0] == 0.0 && v[1] == 1.0 && v[2] == 1.0 && v[3] == 0.0); /* the declared fallbacks */
    CHECK(hs_plant_final(&p, out, sizeof out) == 0);                /* FINAL already built */
    /* Two frames after the last step: one superseded, one unapplied; counters add up. */
    n = make(in, 77, 2, 1.0);
    hs_plant_receive(&p, in, n, 1);
    n = make(in, 77, 3, 1.0);
    hs_plant_receive(&p, in, n, 1);
    hs_plant_terminate(&p);
    CHECK(p.rx.st.unapplied == 1 && p.rx.st.superseded == 1);
    CHECK(p.rx.st.accepted == p.rx.st.used + p.rx.st.superseded + p.rx.st.unapplied);
    /* One exit table, in order of precedence. */
    CHECK(hs_plant_exit_code(&p, 1, 1) == HS_EXIT_STEP);
    p.stop = HS_PLANT_STOP_OVERRUN;
    CHECK(hs_plant_exit_code(&p, 1, 1) == HS_EXIT_OVERRUN);
    p.stop = 0;
    p.faults = 0;
    CHECK(hs_plant_exit_code(&p, 1, 1) == HS_EXIT_OUTPUT && hs_plant_exit_code(&p, 0, 1) == HS_EXIT_BUDGET);
    CHECK(hs_plant_exit_code(&p, 0, 0) == HS_EXIT_OK);
    CHECK(strcmp(hs_exit_text(HS_EXIT_STEP), "unknown exit status") != 0);
    /* Overrun under policy stop: the safe frame, once. */
    d = hs_plant_default_def();
    d.overrun_stop = 1;
    CHECK(hs_plant_initialize(&p, &d, &m, R, sizeof R / sizeof R[0], I, sizeof I / sizeof I[0], why,
                              sizeof why) == HS_EXIT_OK);
    (void)hs_plant_step(&p, 0, 0, out, sizeof out, NULL);
    n = hs_plant_overrun(&p, 2, out, sizeof out);
    CHECK(n > 0 && p.stop == HS_PLANT_STOP_OVERRUN && p.missed_ticks == 2 && p.overrun_frames == 1);
    CHECK(hs_plant_overrun(&p, 1, out, sizeof out) == 0 && p.missed_ticks == 3);
    /* Car axle: the shipped map, road input in, six outputs; generic map for the pendulum. */
    CHECK(hs_plant_model_by_name(&m, &pb, sizeof pb, "car_axle", why, sizeof why) == HS_EXIT_OK);
    d = hs_plant_default_def();
    CHECK(hs_plant_initialize(&p, &d, &m, R, sizeof R / sizeof R[0], I, sizeof I / sizeof I[0], why,
                              sizeof why) == HS_EXIT_OK);
    CHECK(p.map == &hs_map_car_axle_plant && p.d.nin == 1 && p.d.nout == 6);
    CHECK(p.y[1] == 0.5 && p.y[2] == 1.0 && p.y[4] == 0.0); /* initial state: springs at rest */
    CHECK(hs_plant_model_by_name(&m, &pb, sizeof pb, "pendulum", why, sizeof why) == HS_EXIT_OK);
    CHECK(hs_plant_initialize(&p, &d, &m, R, sizeof R / sizeof R[0], I, sizeof I / sizeof I[0], why,
                              sizeof why) == HS_EXIT_OK);
    CHECK(p.map == &p.g.map && p.d.nout == 1 && p.g.map.n == 1);
}

/* Link health: each class from ticks whose outcome follows from hs_rx_tick's rule (a value is
 * on its fallback while its age exceeds the stale limit L), so every count is a formula of the
 * script: a silence of Q ticks after link up is Q - L fallback ticks. */
static void test_health(void)
{
    hs_rx rx;
    hs_health h;
    uint8_t b[HS_FRAME_MAX_BYTES];
    char line[320];
    uint32_t seq = 0;
    CHECK(hs_rx_init(&rx, plant_map(), HS_FRAME_KIND_TO_PLANT) == HS_OK);
    const uint64_t L = rx.sig[0]->stale_limit, Q = 30;
    hs_health_init(&h, &rx, NULL);
    /* 5 ticks before any frame: the start-up allowance, never judged as fallback */
    for (int k = 0; k < 5; ++k) hs_health_tick(&h, &rx, hs_rx_tick(&rx, NULL));
    CHECK(h.up == 0 && h.startup_fallback[0] == 5 && h.fallback[0] == 0);
    CHECK(hs_health_judge(&h, &rx) == HS_HEALTH_NO_PEER);
    CHECK(hs_exit_of(HS_TOOL_PLANT, hs_health_status(HS_HEALTH_NO_PEER)) == HS_EXIT_LINK_NO_PEER);
    CHECK(hs_exit_of(HS_TOOL_ECU, hs_health_status(HS_HEALTH_NO_PEER)) == HS_EXIT_LINK);
    hs_health_line(&h, &rx, "ECU", 1000, line, sizeof line);
    CHECK(strcmp(line, "link: ECU never heard: no frame applied in 5 ticks, every input on its fallback") == 0);
    h.lim.allow_no_peer = 1;
    CHECK(hs_health_judge(&h, &rx) == HS_HEALTH_OK);
    h.lim.allow_no_peer = 0;
    /* 100 ticks with a frame each: up at tick 5, nothing stale, ok */
    for (int k = 0; k < 100; ++k) {
        size_t n = make(b, 7, ++seq, 1.0);
        CHECK(hs_rx_offer(&rx, b, n, 1) == HS_RX_OK);
        hs_health_tick(&h, &rx, hs_rx_tick(&rx, NULL));
    }
    CHECK(h.up == 1 && h.up_tick == 5 && h.fallback[0] == 0 && h.stale[0] == 0 && h.silence_max == 0);
    CHECK(hs_health_judge(&h, &rx) == HS_HEALTH_OK && hs_health_status(HS_HEALTH_OK) == HS_OK);
    /* a silence of Q ticks mid-run: Q ticks stale, Q - L on the fallback, one silence */
    for (uint64_t k = 0; k < Q; ++k) hs_health_tick(&h, &rx, hs_rx_tick(&rx, NULL));
    size_t n = make(b, 7, ++seq, 1.0);
    CHECK(hs_rx_offer(&rx, b, n, 1) == HS_RX_OK);
    hs_health_tick(&h, &rx, hs_rx_tick(&rx, NULL));
    CHECK(h.stale[0] == Q && h.fallback[0] == Q - L && h.silence_max == Q && h.silences == 1);
    CHECK(hs_health_worst_input(&h) == 0 && hs_health_judge(&h, &rx) == HS_HEALTH_FALLBACK);
    CHECK(hs_exit_of(HS_TOOL_PLANT, hs_health_status(HS_HEALTH_FALLBACK)) == HS_EXIT_LINK_FALLBACK);
    hs_health_line(&h, &rx, "ECU", 1000, line, sizeof line);
    CHECK(strcmp(line, "link: input F_t on fallback 10 ticks after link up (limit 0; longest silence "
                       "30 ms, 1 silence that put inputs on their fallbacks)") == 0);
    h.lim.max_fallback_ticks = Q - L;
    CHECK(hs_health_judge(&h, &rx) == HS_HEALTH_OK);
    h.lim.max_fallback_ticks = Q - L - 1;
    CHECK(hs_health_judge(&h, &rx) == HS_HEALTH_FALLBACK);
    /* a silence at the end: counted, unless the caller says it is the peer's normal end */
    for (uint64_t k = 0; k < L + 5; ++k) hs_health_tick(&h, &rx, hs_rx_tick(&rx, NULL));
    CHECK(h.fallback[0] == Q - L + 5 && h.silences == 2);
    hs_health_finish(&h, 1);
    CHECK(h.fallback[0] == Q - L && h.tail == 5 && h.silences == 1);
    /* rejections: judged ones outrank the fallback; a stranger's datagram is counted only */
    n = make(b, 7, ++seq, 1.0);
    CHECK(hs_rx_offer(&rx, b, n, 0) == HS_RX_FOREIGN && hs_health_rejected(&rx) == 0);
    b[n - 1] ^= 0xFFu;
    CHECK(hs_rx_offer(&rx, b, n, 1) == HS_RX_CHECKSUM && hs_health_rejected(&rx) == 1);
    CHECK(hs_health_judge(&h, &rx) == HS_HEALTH_REJECTED);
    CHECK(hs_exit_of(HS_TOOL_PLANT, hs_health_status(HS_HEALTH_REJECTED)) == HS_EXIT_LINK_REJECTED);
    hs_health_line(&h, &rx, "ECU", 1000, line, sizeof line);
    CHECK(strcmp(line, "link: 1 frames from the ECU rejected (bad_checksum 1; limit 0)") == 0);
    h.lim.max_rejected = 1;
    CHECK(hs_health_judge(&h, &rx) == HS_HEALTH_FALLBACK);
    /* the cause table has one row per reason: a new cause of the frame path needs its row */
    for (int r = 1; r < HS_RX_REASONS; ++r) {
        int rows = 0;
        for (int i = 0; i < hs_health_ncauses; ++i) rows += hs_health_causes[i].reason == r;
        CHECK(rows == 1);
    }
    CHECK(hs_health_ncauses == HS_RX_REASONS - 1 && hs_health_judged(HS_RX_FOREIGN) == 0);
    /* the line never overruns its buffer */
    CHECK(hs_health_line(&h, &rx, "ECU", 1000, line, 8) == 7 && strlen(line) == 7);
    /* no inputs: nothing to hear, never-heard is not judged */
    hs_health_init(&h, &rx, NULL);
    h.n = 0;
    hs_health_tick(&h, &rx, 0);
    CHECK(hs_health_judge(&h, &rx) == HS_HEALTH_REJECTED); /* the bad CRC above still counts */
    rx.st.rejected[HS_RX_CHECKSUM] = 0;
    CHECK(hs_health_judge(&h, &rx) == HS_HEALTH_OK);
}

static const hs_test_case tests[] = {
    HS_TEST_ROW(test_health),
    HS_TEST_ROW(test_crc_and_golden),
    HS_TEST_ROW(test_reasons),
    HS_TEST_ROW(test_rx_sequence_and_clamp),
    HS_TEST_ROW(test_staleness),
    HS_TEST_ROW(test_map_check),
    HS_TEST_ROW(test_ring),
    HS_TEST_ROW(test_hist),
    HS_TEST_ROW(test_plant),
};

int main(void)
{
    return hs_test_run("hil-unit", tests, HS_TEST_COUNT(tests), 0) != 0;
}
