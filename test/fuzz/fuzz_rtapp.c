/* fuzz_rtapp.c - libFuzzer harness of the whole of build/hilstep-rt without a socket, real
 * time or a blocking thread: port/linux-rt/hilstep_rt.c included with its main renamed
 * (#define main), inside the fake process of fz_app.h (virtual clock, threads that take
 * turns, fake UDP/CAN sockets, injected system-call failures). One input is one process run:
 * option parsing, model selection, the transport's open, the key (the per-user default key,
 * --key files good or refused, --no-auth), the output files, the logger and the real-time
 * thread over a fuzzed ECU (frames per tick: valid ones answering the plant's challenge,
 * corrupted, foreign, replayed, refused by ICMP, superseded, late wake-ups and signals), then
 * the stats, histogram, summary and verdict.
 *
 * Input: [0] flags (bit 0-1 the ECU after the script: silent, every tick, every 4th tick,
 * every tick with a corrupt one between; bit 2 a signal at tick 16 * [5], bit 3-4 which; bit 5
 * a fresh per-user key directory; bit 6 faults on; bit 7 wake-ups 300 us late instead of 20),
 * [1..3] and [6] the FA_F_* faults, [4] the pthread_create script, [5] the signal's tick, then the
 * arguments (NUL-separated, "@name" a file of the private directory) up to a 0xFF byte, then
 * one byte per tick for the ECU (op = low 3 bits, see peer_tick).
 * Checked invariants (abort on violation): the exit status is one of hil/hs_exit.h's; a run
 * that printed its verdict says PASS exactly when the status is 0 and "-> exit N (text)" with
 * the status and its hs_exit_text; every datagram the fake socket delivered is in exactly one
 * of the plant's counters (rx_datagrams = accepted + rejected, accepted = used + superseded +
 * unapplied); the last frame sent is a FINAL frame that decodes under the plant's key; a CSV
 * in the private directory has one header and exactly rows_written rows; a --stats file says
 * exit_code=N; nothing stays open, every thread was joined. */
#include "fz_app.h"

#define main hs_rt_main
#include "hilstep_rt.c"
#undef main

static struct {
    const uint8_t *s;  /* the per-tick script */
    size_t n, at;
    int mode;          /* after the script */
    uint32_t seq, session;
    int64_t stop_tick; /* signal at this tick, -1 none */
    int sig;
} P;

static hs_mac other_key; /* an attacker's key */
static const double vals[8] = {0.0, 1.0, -2.5, 40.0, 1e6, -1e6, 0.125, 3.0};

/* One ECU frame to the plant as its link expects it (the plant's challenge answered), with
 * challenge ch_mode 0 the plant's, 1 none, 2 another run's. */
static fa_msg *ecu_frame(double v, int ch_mode, int target)
{
    const hs_rx *rx = &A.plant.rx;
    if (rx->n == 0u || !A.tp.ops || !A.tp.ops->frame) return NULL;
    fa_msg *m = fa_push(target);
    if (!m) return NULL;
    double x[HS_FRAME_MAX_VALUES];
    for (unsigned i = 0; i < rx->n; ++i) x[i] = v;
    hs_frame_hdr h = {HS_FRAME_VERSION, HS_FRAME_KIND_TO_PLANT, (uint16_t)rx->n, P.session, ++P.seq,
                      (uint64_t)FA.now, 0u, 0u};
    const uint64_t ch = ch_mode == 0 ? rx->challenge : ch_mode == 1 ? 0u : rx->challenge ^ 0x5a5au;
    m->n = hs_frame_encode_auth(m->b, sizeof m->b, &h, x, rx->mac, ch);
    require(m->n > 0u);
    return m;
}

/* The ECU's part of one tick (called in the real-time thread's sleep). */
static void peer_tick(void)
{
    if (P.stop_tick >= 0 && (int64_t)FA.ticks == P.stop_tick) on_signal(P.sig); /* the handler main installed */
    /* a run the input would make long (duration 0 or 10 s, no signal) ends here, after 1.5 s */
    if (FA.ticks >= 1500u) g_stop = 1;
    if (!A.tp.ops) return;
    int op;
    unsigned arg;
    if (P.at < P.n) {
        op = P.s[P.at] & 7;
        arg = P.s[P.at] >> 3;
        P.at++;
    } else {
        static const int after[4] = {0, 1, 1, 1};
        op = after[P.mode];
        arg = 0;
        if (P.mode == 2 && FA.ticks % 4u) op = 0;
        if (P.mode == 3 && FA.ticks % 7u == 3u) op = 3;
    }
    fa_msg *m;
    switch (op) {
    case 0: break;
    case 1: (void)ecu_frame(vals[arg & 7u], 0, 0); break;
    case 2: /* a frame, then a late wake-up of arg * 100 us */
        (void)ecu_frame(vals[arg & 7u], 0, 0);
        FA.lat = arg < 16u ? (int64_t)arg * 100000 : (int64_t)(arg - 15u) * 5000000; /* up to 80 ms */
        break;
    case 3: /* a frame with one byte flipped, or a raw CAN frame */
        if (!A.tp.ops->frame) {
            m = fa_push(0);
            if (m) { /* the ECU's id (EcuCommand, 4 bytes: its E2E CRC seldom right) or another */
                struct canfd_frame fr;
                memset(&fr, 0, sizeof fr);
                fr.can_id = (arg & 2u) ? 256u : arg;
                fr.len = (arg & 8u) ? 8u : 4u;
                for (int i = 0; i < 4; ++i) fr.data[i] = (uint8_t)(arg * 37u + (unsigned)i * 11u);
                memcpy(m->b, &fr, sizeof fr);
                m->n = (arg & 1u) ? CAN_MTU : CANFD_MTU;
                m->ovfl = arg;
                m->ts_ns = (arg & 4u) ? FA.now : 0;
            }
        } else if ((m = ecu_frame(1.0, 0, 0)) != NULL) {
            m->b[arg % m->n] ^= 0x10u;
        }
        break;
    case 4: /* from another source: the catch-all, or the peer socket with another port */
        if ((m = ecu_frame(1.0, 0, arg & 1u)) != NULL) m->foreign = 1;
        break;
    case 5: /* a receive error: ICMP refused, or another errno */
        if ((m = fa_push(0)) != NULL) { m->err = (arg & 1u) ? ECONNREFUSED : EIO; }
        break;
    case 6: (void)ecu_frame(1.0, 1 + (int)(arg & 1u), 0); break; /* challenge 0 / another run's */
    default: /* two frames in one tick (one superseded), the kernel's drop count; a forged one */
        (void)ecu_frame(vals[arg & 7u], 0, 0);
        if ((m = ecu_frame(vals[(arg + 1u) & 7u], 0, 0)) != NULL) m->ovfl = arg;
        if ((arg & 8u) && A.plant.rx.mac) { /* under another key: bad_mac */
            const hs_mac *k = A.plant.rx.mac;
            A.plant.rx.mac = &other_key;
            (void)ecu_frame(1.0, 0, 0);
            A.plant.rx.mac = k;
        }
        break;
    }
}

static size_t count_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    size_t n = 0;
    int c;
    if (!f) return (size_t)-1;
    while ((c = getc(f)) != EOF) n += c == '\n';
    fclose(f);
    return n;
}

static void check_run(int rc, const char *out)
{
    static const int codes[] = {0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11};
    int known = 0;
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; ++i) known |= rc == codes[i];
    require(known);
    const char *v = strstr(out, "\nverdict: ");
    if (!v) return; /* no run: --help, --signals, a refused start */
    require(!strncmp(v + 10, rc == 0 ? "PASS " : "FAIL ", 5));
    char want[160];
    snprintf(want, sizeof want, "-> exit %d (%s)\n", rc, hs_exit_text(rc));
    require(strstr(v, want) != NULL);
    /* every datagram in one counter */
    const hs_rx_stats *s = &A.plant.rx.st;
    require(s->datagrams == s->accepted + hs_rx_rejected_total(&A.plant.rx));
    require(s->accepted == s->used + s->superseded + s->unapplied);
    if (A.tp.ops->frame && FA.sends > 0u && !fa_failing(FA_F_SEND)) {
        /* the last frame out is the FINAL one, under the plant's key and challenge */
        hs_frame_hdr h;
        double x[HS_FRAME_MAX_VALUES];
        uint64_t ch = 0;
        require(hs_frame_parse_auth(FA.last, FA.last_n, HS_FRAME_KIND_FROM_PLANT, A.plant.tx.n,
                                    A.plant.tx.mac, &ch, &h, x) == HS_RX_OK);
        require((h.flags & HS_FLAG_FINAL) && ch == A.plant.tx.challenge);
    }
    if (A.o.log[0] && !strncmp(A.o.log, fa_dir, strlen(fa_dir)) && !output_lost(&A))
        require(count_lines(A.o.log) == 1u + A.rows_written);
    if (A.o.stats && !strncmp(A.o.stats, fa_dir, strlen(fa_dir)) && rc != HS_EXIT_OUTPUT) {
        FILE *f = fopen(A.o.stats, "r");
        char line[256];
        int seen = 0;
        snprintf(want, sizeof want, "exit_code=%d\n", rc);
        require(f != NULL);
        while (fgets(line, sizeof line, f)) seen |= !strcmp(line, want);
        fclose(f);
        require(seen);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *argv[FA_MAXA + 3];
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
    /* the default --log (build/hilstep-rt.csv) would overwrite a real run's: the private
     * directory's, unless the input gives its own (a later --log wins) */
    int argc = fa_argv(args, nargs, "hilstep-rt", argv + 2);
    if (argc < 0) return 0;
    static char logopt[] = "--log", logval[300];
    snprintf(logval, sizeof logval, "%s/default.csv", fa_dir);
    argv[0] = (char *)"hilstep-rt";
    argv[1] = logopt;
    argv[2] = logval;
    argc += 2;
    memset(&P, 0, sizeof P);
    P.s = end ? end + 1 : NULL;
    P.n = end ? size - (size_t)(end + 1 - data) : 0u;
    P.mode = fl & 3;
    P.session = 0x5eed0001u;
    P.stop_tick = (fl & 4u) ? 16 * (int64_t)data[5] : -1;
    P.sig = ((fl >> 3) & 3u) == 0 ? SIGINT : ((fl >> 3) & 3u) == 1 ? SIGHUP : SIGTERM;
    if (fl & 0x20u) { /* no per-user key yet: created on first use */
        char p[400];
        snprintf(p, sizeof p, "%s/hilstep/%s", fa_dir, HS_KEY_DEFAULT_NAME);
        unlink(p);
    }
    fa_reset(fail, (uint32_t)data[4], (fl & 0x80u) ? 300000 : 20000);
    /* the process's zeroed statics */
    memset(&A, 0, sizeof A);
    g_stop = 0;
    g_signal = 0;
    g_mb_map = NULL;
    memset(&g_mb_ovr, 0, sizeof g_mb_ovr);
    fa_tick_hook = peer_tick;
    char *out = NULL;
    size_t outn = 0;
    const int rc = fa_run(hs_rt_main, argc, argv, &out, &outn);
    fa_tick_hook = NULL;
    check_run(rc, out);
    free(out);
    return 0;
}
