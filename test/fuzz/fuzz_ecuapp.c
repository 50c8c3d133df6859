/* fuzz_ecuapp.c - libFuzzer harness of the whole of build/hilstep-ecu without a socket, real
 * time or a blocking thread: port/linux-rt/hilstep_ecu.c included with its main renamed and
 * its exit (after --help) turned into a return to the harness, inside the fake process of
 * fz_app.h. One input is one ECU run: options, the map learnt from the plant's model (or
 * .hsm file), the transport's open (UDP, CAN with a DBC), the link and its key, the control
 * thread over a fuzzed plant (frames per tick: valid ones carrying the plant's challenge with
 * fuzzed values, FINAL, corrupted, foreign, receive errors, late wake-ups, a signal), the PI,
 * hold, ABS, brake and ESC controls, the summary, the verdict and --stats.
 *
 * Input: as fuzz_rtapp.c ([0] flags: bit 0-1 the plant after the script: silent, every tick,
 * every tick then FINAL at tick 40, every 3rd tick; bit 2 a signal at tick 16 * [5]; bit 5 a
 * fresh per-user key; bit 6 faults on; bit 7 wake-ups 300 us late; [1..3] and [6] faults, [4] the
 * pthread_create script), then the arguments up to 0xFF, then one byte per tick for the plant.
 * Checked invariants (abort on violation): the exit status is one of hil/hs_exit.h's; a PASS
 * verdict line only with status 0, and with status 0 and no --quiet after a run there is one;
 * every datagram delivered is in one of the ECU's counters (accepted + rejected, accepted =
 * used + superseded + unapplied); the last frame sent decodes as a frame to the plant under
 * the ECU's key with the challenge it answers, its PI command within +-f_max; a CAN write is
 * one whole frame; nothing stays open, the control thread was joined. */
#include "fz_app.h"

static jmp_buf fz_exit_jmp;
static int fz_exit_code;
static void fz_exit(int code)
{
    fz_exit_code = code;
    longjmp(fz_exit_jmp, 1);
}

#define main hs_ecu_main
#define exit fz_exit
#include "hilstep_ecu.c"
#undef exit
#undef main

static struct {
    const uint8_t *s;
    size_t n, at;
    int mode;
    uint32_t seq;
    int64_t stop_tick;
} P;

static const double vals[8] = {0.0, 1.0, -2.5, 22.2, 1e6, 0.97, 0.125, 3.0};
static hs_mac other_key; /* an attacker's key */
#define PLANT_CHALLENGE UINT64_C(0x1122334455667788)

/* One plant frame as the ECU's link expects it: every value v (speeds near the wheel speed
 * of a rolling car when v is 22.2), flags, the plant's challenge. */
static fa_msg *plant_frame(double v, uint32_t flags, int target)
{
    const hs_rx *rx = &E.rx;
    if (rx->n == 0u || !E.tp.ops || !E.tp.ops->frame) return NULL;
    fa_msg *m = fa_push(target);
    if (!m) return NULL;
    double x[HS_FRAME_MAX_VALUES];
    for (unsigned i = 0; i < rx->n; ++i) x[i] = (v == 22.2 && i < 4) ? v / 0.29 * (1.0 - 0.02 * i) : v;
    hs_frame_hdr h = {HS_FRAME_VERSION, HS_FRAME_KIND_FROM_PLANT, (uint16_t)rx->n, 0x9a170001u, ++P.seq,
                      (uint64_t)FA.now, 0u, flags};
    m->n = hs_frame_encode_auth(m->b, sizeof m->b, &h, x, rx->mac, rx->mac ? PLANT_CHALLENGE : 0u);
    require(m->n > 0u);
    return m;
}

static void peer_tick(void)
{
    if (P.stop_tick >= 0 && (int64_t)FA.ticks == P.stop_tick) on_signal(SIGINT); /* main's handler */
    if (FA.ticks >= 1500u) g_stop = 1; /* as a signal after 1.5 s: the plant's silence ends a run only after 10 s */
    if (!E.tp.ops) return;
    int op;
    unsigned arg;
    if (P.at < P.n) {
        op = P.s[P.at] & 7;
        arg = P.s[P.at] >> 3;
        P.at++;
    } else {
        op = P.mode == 0 ? 0 : 1;
        arg = 1;
        if (P.mode == 2 && FA.ticks == 40u) op = 6;
        if (P.mode == 3 && FA.ticks % 3u) op = 0;
    }
    fa_msg *m;
    switch (op) {
    case 0: break;
    case 1: (void)plant_frame(vals[arg & 7u], 0u, 0); break;
    case 2:
        (void)plant_frame(vals[arg & 7u], 0u, 0);
        FA.lat = arg < 16u ? (int64_t)arg * 100000 : (int64_t)(arg - 15u) * 5000000; /* up to 80 ms */
        break;
    case 3: /* one byte flipped, or a raw CAN frame with a DBC's id */
        if (!E.tp.ops->frame) {
            if ((m = fa_push(0)) != NULL) {
                struct canfd_frame fr;
                memset(&fr, 0, sizeof fr);
                fr.can_id = (arg & 16u) ? 0x200u + (arg & 15u) : 0x100u + (arg & 15u);
                fr.len = (arg & 8u) ? 8u : 6u; /* PlantState / PlantPosition are 6 bytes */
                for (int i = 0; i < 6; ++i) fr.data[i] = (uint8_t)(arg * 37u + (unsigned)i * 11u);
                m->n = (arg & 1u) ? CAN_MTU : CANFD_MTU;
                memcpy(m->b, &fr, sizeof fr);
                m->ovfl = arg & 2u;
                m->ts_ns = (arg & 4u) ? FA.now : 0;
            }
        } else if ((m = plant_frame(1.0, 0u, 0)) != NULL) {
            m->b[arg % m->n] ^= 0x20u;
        }
        break;
    case 4:
        if ((m = plant_frame(1.0, 0u, arg & 1u)) != NULL) m->foreign = 1;
        break;
    case 5:
        if ((m = fa_push(0)) != NULL) m->err = (arg & 1u) ? ECONNREFUSED : EIO;
        break;
    case 6: (void)plant_frame(vals[arg & 7u], HS_FLAG_FINAL, 0); break;
    default: /* flags; under another key (bad_mac); a plant of another map (wrong count) */
        if ((arg & 3u) == 1u && E.rx.mac) {
            const hs_mac *k = E.rx.mac;
            E.rx.mac = &other_key;
            (void)plant_frame(1.0, 0u, 0);
            E.rx.mac = k;
        } else if ((arg & 3u) == 2u && (m = plant_frame(1.0, 0u, 0)) != NULL) {
            double x[HS_FRAME_MAX_VALUES + 1] = {0};
            hs_frame_hdr h = {HS_FRAME_VERSION, HS_FRAME_KIND_FROM_PLANT, (uint16_t)(E.rx.n + 1u), 0x9a170001u,
                              ++P.seq, 0u, 0u, 0u};
            m->n = hs_frame_encode_auth(m->b, sizeof m->b, &h, x, E.rx.mac, E.rx.mac ? PLANT_CHALLENGE : 0u);
        } else {
            (void)plant_frame(vals[arg & 7u], HS_FLAG_STALE | HS_FLAG_FAULT, 0);
        }
        break;
    }
}

static int run_main(int argc, char **argv)
{
    if (setjmp(fz_exit_jmp)) return fz_exit_code;
    return hs_ecu_main(argc, argv);
}

static void check_run(int rc, const char *out)
{
    static const int codes[] = {0, 1, 2, 5, 8, 9, 10, 11};
    int known = 0;
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; ++i) known |= rc == codes[i];
    require(known);
    const int pass = strstr(out, "hilstep-ecu: verdict: PASS ") != NULL;
    require(!pass || rc == 0);
    if (E.end == END_NONE) return; /* no run */
    if (rc == 0 && !E.quiet) require(pass);
    const hs_rx_stats *s = &E.rx.st;
    require(s->datagrams == s->accepted + hs_rx_rejected_total(&E.rx));
    require(s->accepted == s->used + s->superseded + s->unapplied);
    if (E.tp.ops->frame && E.tx.frames > 0u && !fa_failing(FA_F_SEND)) {
        hs_frame_hdr h;
        double x[HS_FRAME_MAX_VALUES];
        uint64_t ch = 1;
        require(hs_frame_parse_auth(FA.last, FA.last_n, HS_FRAME_KIND_TO_PLANT, E.tx.n, E.tx.mac, &ch, &h, x) ==
                HS_RX_OK);
        require(ch == (E.tx.mac ? E.tx.challenge : 0u));
        if (E.pi) require(fabs(x[0]) <= E.f_max);
    }
    /* CAN: every write one whole frame of the interface's kind */
    if (!E.tp.ops->frame && FA.writes > 0u) require(FA.last_n == CAN_MTU || FA.last_n == CANFD_MTU);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *argv[FA_MAXA + 1];
    if (size < 7 || size > 4096) return 0;
    fa_init();
    static int other_ready;
    if (!other_ready++) {
        static const uint8_t k[32] = {0x77, 0x66, 0x55};
        hs_mac_init(&other_key, k, sizeof k);
    }
    const uint8_t fl = data[0];
    const uint32_t fail = (fl & 0x40u) ? ((uint32_t)data[1] | (uint32_t)data[2] << 8 | (uint32_t)data[3] << 16 |
                                          (uint32_t)data[6] << 24) &
                                         ((1u << FA_F_COUNT) - 1u) : 0u;
    const uint8_t *args = data + 7, *end = memchr(args, 0xFF, size - 7);
    const size_t nargs = end ? (size_t)(end - args) : size - 7;
    const int argc = fa_argv(args, nargs, "hilstep-ecu", argv);
    if (argc < 0) return 0;
    memset(&P, 0, sizeof P);
    P.s = end ? end + 1 : NULL;
    P.n = end ? size - (size_t)(end + 1 - data) : 0u;
    P.mode = fl & 3;
    P.stop_tick = (fl & 4u) ? 16 * (int64_t)data[5] : -1;
    if (fl & 0x20u) {
        char p[400];
        snprintf(p, sizeof p, "%s/hilstep/%s", fa_dir, HS_KEY_DEFAULT_NAME);
        unlink(p);
    }
    fa_reset(fail, (uint32_t)data[4], (fl & 0x80u) ? 300000 : 20000);
    memset(&E, 0, sizeof E);
    g_stop = 0;
    fa_tick_hook = peer_tick;
    char *out = NULL;
    size_t outn = 0;
    const int rc = fa_run(run_main, argc, argv, &out, &outn);
    fa_tick_hook = NULL;
    check_run(rc, out);
    for (int i = 0; i < E.ntopt; ++i) free((void *)E.tkey[i]); /* the process's, freed at its exit */
    free(out);
    return 0;
}
