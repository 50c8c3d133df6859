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
 * one byte per tick for the ECU (op = low 3 bits, see peer_tick); with --xcp each tick takes a
 * second byte, the XCP master's (see xcp_tick).
 * Checked invariants (abort on violation): the exit status is one of hil/hs_exit.h's; a run
 * that printed its verdict says PASS exactly when the status is 0 and "-> exit N (text)" with
 * the status and its hs_exit_text; every datagram the fake socket delivered is in exactly one
 * of the plant's counters (rx_datagrams = accepted + rejected, accepted = used + superseded +
 * unapplied); the last frame sent is a FINAL frame that decodes under the plant's key; a CSV
 * in the private directory has one header and exactly rows_written rows; a --stats file says
 * exit_code=N; with --xcp, every packet of the slave has its length in LEN and in CTR the count
 * of its packets to the connected master, 0 in a refusal to another (fz_app.h); nothing stays
 * open, every thread was joined. */
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

/* One XCP packet (LEN, CTR 0, the command) appended to the datagram m. */
static void xcp_put(fa_msg *m, const uint8_t *c, size_t n)
{
    if (m->n + 4u + n > sizeof m->b) return;
    m->b[m->n] = (uint8_t)n;
    m->b[m->n + 1] = (uint8_t)(n >> 8);
    m->b[m->n + 2] = 0u;
    m->b[m->n + 3] = 0u;
    memcpy(m->b + m->n + 4, c, n);
    m->n += 4u + n;
}

/* The XCP master's part of one tick (hil/XCP.md), one byte b: action b & 7, argument b >> 3.
 * The slave answers in its frame (hs_xcpp_frame); a seed it sent is in FA.xseed. */
static void xcp_tick(uint8_t b)
{
    const unsigned a = b >> 3;
    fa_msg *m = fa_xpush();
    if (!m) return;
    switch (b & 7u) {
    case 0: { /* CONNECT (from another master's port when a & 1: refused while one is connected) */
        const uint8_t c[2] = {HS_XCP_CONNECT, 0};
        xcp_put(m, c, 2);
        m->foreign = (int)(a & 1u);
        break;
    }
    case 1: { /* GET_SEED for CAL or DAQ */
        const uint8_t c[3] = {HS_XCP_GET_SEED, 0, (a & 1u) ? HS_XCP_RES_DAQ : HS_XCP_RES_CAL};
        xcp_put(m, c, 3);
        break;
    }
    case 2: { /* UNLOCK with the HMAC of the last seed under the plant's key (a & 1: a wrong one) */
        uint8_t c[2 + HS_SHA256_BYTES] = {HS_XCP_UNLOCK, HS_SHA256_BYTES};
        if (A.plant.rx.mac) hs_mac_full(A.plant.rx.mac, FA.xseed, HS_XCP_SEED_BYTES, c + 2);
        if (a & 1u) c[2] ^= 1u;
        xcp_put(m, c, sizeof c);
        break;
    }
    case 3: { /* SET_MTA to param a % 8, DOWNLOAD of its value scaled (in and out of limits, NaN) */
        static const double scale[4] = {1.5, 0.5, 100.0, NAN}; /* within a factor 10, outside, NaN */
        const unsigned i = a % 8u;
        const uint32_t ad = HS_XCP_ADDR_PARAM + i * (uint32_t)sizeof(hs_real);
        const uint8_t mta[8] = {HS_XCP_SET_MTA, 0, 0, 0, (uint8_t)ad, (uint8_t)(ad >> 8), (uint8_t)(ad >> 16), 0};
        const int np = hs_xcpp_nparams();
        const double v0 = np > 0 ? (double)X.pval[(int)i % np] : 1.0;
        const hs_real v = (hs_real)(v0 * scale[a >> 3]);
        uint8_t dl[2 + sizeof(hs_real)] = {HS_XCP_DOWNLOAD, (uint8_t)sizeof(hs_real)};
        memcpy(dl + 2, &v, sizeof v);
        xcp_put(m, mta, 8);
        xcp_put(m, dl, sizeof dl);
        break;
    }
    case 4: { /* a DAQ list: outputs and the time, timestamped, started (as test/xcp/xcp_storm.c) */
        const uint8_t fr[1] = {HS_XCP_FREE_DAQ}, ad[4] = {HS_XCP_ALLOC_DAQ, 0, 1, 0};
        const uint8_t ao[5] = {HS_XCP_ALLOC_ODT, 0, 0, 0, 1}, ae[6] = {HS_XCP_ALLOC_ODT_ENTRY, 0, 0, 0, 0, 2};
        const uint8_t p0[6] = {HS_XCP_SET_DAQ_PTR, 0, 0, 0, 0, 0};
        const uint32_t t = HS_XCP_ADDR_T, o = HS_XCP_ADDR_OUT;
        const uint8_t w0[8] = {HS_XCP_WRITE_DAQ, 0xFF, 8, 0, (uint8_t)t, (uint8_t)(t >> 8), (uint8_t)(t >> 16), 0};
        const uint8_t w1[8] = {HS_XCP_WRITE_DAQ, 0xFF, 8, 0, (uint8_t)o, (uint8_t)(o >> 8), (uint8_t)(o >> 16), 0};
        const uint8_t mode[8] = {HS_XCP_SET_DAQ_LIST_MODE, 0x10, 0, 0, 0, 0, 1, 0};
        const uint8_t sel[4] = {HS_XCP_START_STOP_DAQ_LIST, 2, 0, 0}, go[2] = {HS_XCP_START_STOP_SYNCH, 1};
        xcp_put(m, fr, 1); xcp_put(m, ad, 4); xcp_put(m, ao, 5); xcp_put(m, ae, 6); xcp_put(m, p0, 6);
        xcp_put(m, w0, 8); xcp_put(m, w1, 8); xcp_put(m, mode, 8); xcp_put(m, sel, 4); xcp_put(m, go, 2);
        break;
    }
    case 5: { /* the polled and informational commands */
        static const uint8_t one[][2] = {{HS_XCP_GET_STATUS, 0}, {HS_XCP_GET_COMM_MODE_INFO, 0},
                                         {HS_XCP_GET_DAQ_CLOCK, 0}, {HS_XCP_GET_DAQ_PROCESSOR_INFO, 0},
                                         {HS_XCP_GET_DAQ_RESOLUTION_INFO, 0}, {HS_XCP_SYNCH, 0},
                                         {HS_XCP_GET_ID, 1}, {HS_XCP_DISCONNECT, 0}};
        const uint8_t ev[4] = {HS_XCP_GET_DAQ_EVENT_INFO, 0, 0, 0};
        const uint32_t pa = HS_XCP_ADDR_PARAM + (a & 3u) * (uint32_t)sizeof(hs_real);
        const uint8_t up[8] = {HS_XCP_SHORT_UPLOAD, 8, 0, 0, (uint8_t)pa, (uint8_t)(pa >> 8), (uint8_t)(pa >> 16), 0};
        xcp_put(m, one[a & 7u], (a & 7u) == 6u ? 2u : 1u);
        const uint8_t gm[4] = {HS_XCP_GET_DAQ_LIST_MODE, 0, (uint8_t)(a >> 4), 0};
        if (a & 8u) xcp_put(m, ev, 4);
        if (a & 16u) xcp_put(m, up, 8);
        if ((a & 3u) == 3u) xcp_put(m, gm, 4); /* of list 0 (a & 16: of list 1, none) */
        const uint8_t gid[2] = {HS_XCP_GET_ID, 7}; /* an identification type the slave has not */
        if ((a & 7u) == 6u && (a & 8u)) xcp_put(m, gid, 2);
        break;
    }
    case 6: /* a receive error, or a datagram with a broken header */
        if (a & 1u) m->err = EIO;
        else { m->b[0] = 9u; m->n = 5u; }
        break;
    default: { /* the ECU's frame sent to the XCP port: not XCP, a bad header or an unknown command */
        const uint8_t c[2] = {(uint8_t)(0xC0u + a), 0};
        xcp_put(m, c, 2);
        break;
    }
    }
}

/* A genuine ECU CAN frame: the plant's first received message of the DBC encoded as an ECU
 * would send it (its E2E counter and CRC, its SecOC freshness and MAC under the plant's key
 * when the DBC declares them): hs_can_encode over a copy of the plant's link with the
 * directions swapped, so the ECU's counters start at the first such frame of the run. arg & 1:
 * the previous frame again (a replay: SecOC stale, E2E repeated); arg & 2: one MAC bit (or
 * data bit) flipped and the CRC sealed again (a forgery E2E passes); arg & 4: encoded but
 * lost on the way (the next one jumps). */
static struct { hs_can_link L; int ready, m, c; uint8_t last[64], clast[64]; size_t n, cn; } E;

/* Pushes a CAN frame of message M with n payload bytes. */
static void can_push(const hs_can_msg *M, const uint8_t *data, size_t n)
{
    fa_msg *m = fa_push(0);
    if (!m) return;
    struct canfd_frame fr;
    memset(&fr, 0, sizeof fr);
    fr.can_id = M->id | (M->ext ? CAN_EFF_FLAG : 0u);
    fr.len = (uint8_t)n;
    memcpy(fr.data, data, n);
    memcpy(m->b, &fr, sizeof fr);
    m->n = M->fd ? CANFD_MTU : CAN_MTU;
}
static void can_genuine(unsigned arg)
{
    if (!E.ready) {
        E.ready = 1;
        E.L = g_can.fz_link; /* the member `link` (fz_app.h renames link) */
        E.m = -1;
        E.c = -1;
        for (int m = 0; m < g_can.db.nmsg; ++m) {
            if (E.m < 0 && E.L.dir[m] == (uint8_t)HS_SIG_IN && g_can.db.msg[m].secoc != (uint8_t)HS_SECOC_CRYPTO) E.m = m;
            E.L.dir[m] = E.L.dir[m] == (uint8_t)HS_SIG_IN ? (uint8_t)HS_SIG_OUT : (uint8_t)HS_SIG_IN;
        }
        memset(E.L.e2e_tx, 0, sizeof E.L.e2e_tx);
        memset(E.L.secoc_tx, 0, sizeof E.L.secoc_tx);
    }
    if (E.m < 0) return;
    const hs_can_msg *M = &g_can.db.msg[E.m];
    /* a secured PDU collection: its cryptographic message, sent after the authentic one */
    if (E.c < 0 && M->secoc_by >= 0) E.c = M->secoc_by;
    /* arg & 5 == 5 (a replay that is lost, else nothing): the last cryptographic frame alone
     * again, a replayed authenticator (SecOC stale) */
    if ((arg & 5u) == 5u) {
        if (E.c >= 0 && E.cn > 0u) can_push(&g_can.db.msg[E.c], E.clast, E.cn);
        return;
    }
    if (!(arg & 1u) || E.n == 0u) {
        hs_real y[2 * HS_FRAME_MAX_VALUES];
        for (size_t i = 0; i < sizeof y / sizeof y[0]; ++i) y[i] = (hs_real)vals[(arg >> 3) & 3u];
        E.n = hs_can_encode(&E.L, E.m, NULL, y, E.last);
        require(E.n == M->len);
        if (E.c >= 0) E.cn = hs_can_encode(&E.L, E.c, NULL, y, E.clast);
    }
    if (arg & 4u) return;
    fa_msg *m = fa_push(0);
    if (!m) return;
    struct canfd_frame fr;
    memset(&fr, 0, sizeof fr);
    fr.can_id = M->id | (M->ext ? CAN_EFF_FLAG : 0u);
    fr.len = (uint8_t)E.n;
    memcpy(fr.data, E.last, E.n);
    if (arg & 2u) {
        const unsigned byte = M->secoc ? (unsigned)g_can.db.sig[M->secoc_mac].start / 8u : 0u;
        fr.data[byte] ^= 0x01u;
        if (M->e2e) {
            const unsigned cb = (unsigned)g_can.db.sig[M->e2e_crc].start / 8u;
            fr.data[cb] = hs_e2e_crc(M->e2e, M->e2e_data_id, fr.data, (size_t)M->len, cb);
        }
    }
    memcpy(m->b, &fr, sizeof fr);
    m->n = M->fd ? CANFD_MTU : CAN_MTU;
    if (E.c >= 0 && E.cn > 0u) can_push(&g_can.db.msg[E.c], E.clast, E.cn);
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
        if (hs_xcpp_active() && P.at < P.n) xcp_tick(P.s[P.at++]);
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
    case 3: /* a frame with one byte flipped, or a raw CAN frame (arg >= 16: a genuine one) */
        if (!A.tp.ops->frame && arg >= 16u) {
            can_genuine(arg - 16u);
        } else if (!A.tp.ops->frame) {
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
    memset(&E, 0, sizeof E);
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
