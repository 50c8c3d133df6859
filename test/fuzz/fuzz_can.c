/* fuzz_can.c - libFuzzer harness of the CAN receive and send side (hil/hs_can.c: hs_can_receive,
 * hs_can_encode, hs_can_due; hil/hs_signal.c: hs_rx_offer_values, hs_rx_tick, hs_rx_finish) and
 * the transport seam's helpers (hil/hs_transport.c), over a fixed DBC with classic and CAN FD,
 * 11- and 29-bit, Intel and Motorola, signed and scaled signals.
 *
 * Input: byte 0 selects the application side (plant or ECU of the DBC) and the period; then
 * records: [flags][id selector][len][len bytes of payload]. flags bit 0: 29-bit id, bit 1: CAN
 * FD, bit 2: tick after this frame, bit 3: encode the outputs due (bit 4: the safe values; bit 5:
 * the payload read as doubles, else as int16 x 0.01) at this tick. Byte 0 bit 2 turns the
 * E2E cadence check off (an emulator's); record sel 0xE8..0xEF picks a protected id (even: 768,
 * J1850, the plant's input; odd: 769, 8H2F, the ECU's input), flag 64 then seals its CRC with
 * the harness's own CRC-8, flag 64|1 also writes the model's next counter (the frame then
 * standard). Checked invariants (abort on violation): every frame in exactly one
 * counter; every accepted frame used, superseded or pending; applied inputs inside [min, max];
 * a frame whose values lie outside the DBC range never changes an input; every protected
 * input frame's E2E verdict (CRC, repeated, jump, too early; a restart after a silence past
 * the stale limit) equals an independent model's (bitwise CRC-8 over data id and payload,
 * the counter and cadence rules of hs_e2e.h) and is counted once per message; every
 * protected frame sent carries the next counter and the reference CRC. Byte 0 bit 3: the
 * shipped quarter car's SecOC collection instead (below, above LLVMFuzzerTestOneInput). */
#include "hs_can.h"
#include "hs_dbc_file.h"
#include "hs_transport.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define require(c) \
    do { \
        if (!(c)) { \
            fprintf(stderr, "fuzz_can.c:%d: invariant failed: %s\n", __LINE__, #c); \
            abort(); \
        } \
    } while (0)

static const char dbc_text[] =
    "VERSION \"\"\n\nNS_ :\n\tBA_\n\nBS_:\n\nBU_: ECU PLANT\n\n"
    "BO_ 256 Cmd: 4 ECU\n"
    " SG_ force : 0|16@1- (0.01,0) [-100|100] \"N\" PLANT\n"
    " SG_ mode : 23|8@0+ (1,0) [0|3] \"\" PLANT\n"
    "BO_ 2148532224 CmdExt: 12 ECU\n"
    " SG_ torque : 7|20@0- (0.001,-5) [-300|300] \"N m\" PLANT\n"
    " SG_ gain : 40|32@1+ (1e-4,0) [0|0] \"\" PLANT\n"
    "BO_ 512 State: 8 PLANT\n"
    " SG_ speed : 0|16@1- (0.001,0) [-32|32] \"m/s\" ECU\n"
    " SG_ pos : 16|32@1- (1e-5,0) [0|0] \"m\" ECU\n"
    " SG_ flag : 48|1@1+ (1,0) [0|1] \"\" ECU\n"
    "BO_ 513 StateFd: 64 PLANT\n"
    " SG_ energy : 7|64@0- (1e-6,0) [0|0] \"J\" ECU\n"
    " SG_ count : 64|64@1+ (1,0) [0|0] \"\" ECU\n"
    "BA_ \"GenMsgCycleTime\" BO_ 256 10;\nBA_ \"GenMsgCycleTime\" BO_ 512 20;\n"
    "BA_ \"VFrameFormat\" BO_ 2148532224 15;\nBA_ \"VFrameFormat\" BO_ 513 14;\n"
    "BA_ \"HilstepStaleCycles\" BO_ 256 2;\nBA_ \"GenSigStartValue\" SG_ 512 pos 100000;\n"
    /* E2E (hs_e2e.h): one protected message each way, one per CRC profile */
    "BO_ 768 Prot: 8 ECU\n"
    " SG_ brake : 0|16@1+ (0.1,0) [0|1000] \"bar\" PLANT\n"
    " SG_ Prot_Counter : 16|4@1+ (1,0) [0|15] \"\" PLANT\n"
    " SG_ Prot_CRC : 56|8@1+ (1,0) [0|255] \"\" PLANT\n"
    "BO_ 769 ProtOut: 8 PLANT\n"
    " SG_ slip : 24|16@1- (0.001,0) [-1|1] \"\" ECU\n"
    " SG_ ProtOut_Counter : 16|8@1+ (1,0) [0|255] \"\" ECU\n"
    " SG_ ProtOut_CRC : 8|8@1+ (1,0) [0|255] \"\" ECU\n"
    "BA_ \"GenMsgCycleTime\" BO_ 768 10;\nBA_ \"GenMsgCycleTime\" BO_ 769 20;\n"
    "BA_ \"HsE2EProfile\" BO_ 768 1;\nBA_ \"HsE2EDataId\" BO_ 768 4660;\n"
    "BA_ \"HsE2ESignal\" SG_ 768 Prot_Counter 1;\nBA_ \"HsE2ESignal\" SG_ 768 Prot_CRC 2;\n"
    "BA_ \"HsE2EProfile\" BO_ 769 2;\n"
    "BA_ \"HsE2ESignal\" SG_ 769 ProtOut_Counter 1;\nBA_ \"HsE2ESignal\" SG_ 769 ProtOut_CRC 2;\n";

static const char *const plant_in[] = {"force", "mode", "torque", "gain", "brake"};
static const char *const plant_out[] = {"speed", "pos", "flag", "energy", "count", "slip"};
static const uint32_t ids[] = {256, 0x105E000, 512, 513, 0x7FF, 0};

static hs_can_db db;
static hs_can_link L;
static hs_signal sig[18];
static hs_signal_map map;
static hs_rx rx;
static hs_tx tx;


/* The E2E rules read independently (hs_e2e.h, hil/CAN.md "Security"): a bitwise CRC-8 (init
 * and xor-out 0xFF, no reflection) over the data id (low byte, high byte) and the payload but
 * the CRC byte; the counter is the previous + 1, a repeat or a jump refused, a frame earlier
 * than half a cycle before the schedule refused, a silence past the stale limit restarting. */
static uint8_t ref_crc8(unsigned poly, const uint8_t *d, size_t n, int skip, uint16_t did)
{
    unsigned c = 0xFFu;
    for (size_t i = 0; i < n + 2; ++i) {
        if ((int)i - 2 == skip) continue;
        c ^= (i == 0) ? (did & 0xFFu) : (i == 1) ? (unsigned)(did >> 8) : d[i - 2];
        for (int b = 0; b < 8; ++b) c = (c & 0x80u) ? ((c << 1) ^ poly) & 0xFFu : (c << 1) & 0xFFu;
    }
    return (uint8_t)(c ^ 0xFFu);
}

/* the two protected messages: id, CRC polynomial, data id, CRC byte, counter bits (at bit 16) */
static const struct prot {
    uint32_t id;
    unsigned poly;
    uint16_t did;
    int crc_byte;
    unsigned bits;
} prot[2] = {{768, 0x1Du, 4660, 7, 4}, {769, 0x2Fu, 769, 1, 8}};

typedef struct e2e_model {
    int have;
    unsigned last;
    uint64_t last_us, next_us;
} e2e_model;

static int ref_check(e2e_model *s, unsigned ctr, unsigned mask, uint64_t now, int timed, uint64_t cyc, uint64_t stale)
{
    if (s->have && timed && now >= s->last_us && now - s->last_us > stale) s->have = 0;
    if (!s->have) {
        s->have = 1;
        s->last = ctr & mask;
        s->last_us = timed ? now : 0;
        s->next_us = timed ? now + cyc : 0;
        return HS_E2E_OK;
    }
    const unsigned d = (ctr - s->last) & mask;
    if (d == 0) return HS_E2E_REPEATED;
    if (d != 1) return HS_E2E_JUMP;
    if (timed && cyc) {
        if (now + cyc / 2 < s->next_us) return HS_E2E_EARLY;
        s->next_us = (now < s->next_us ? now : s->next_us) + cyc;
    }
    if (timed) s->last_us = now;
    s->last = ctr & mask;
    return HS_E2E_OK;
}

static int msg_of(uint32_t id)
{
    for (int m = 0; m < db.nmsg; ++m)
        if (db.msg[m].id == id && !db.msg[m].ext) return m;
    return -1;
}

static void e2e_once(void)
{
    static const uint8_t check[] = "123456789";
    require(hs_crc8(HS_E2E_J1850, check, 9) == 0x4B && hs_crc8(HS_E2E_H2F, check, 9) == 0xDF);
    require(hs_crc8(HS_E2E_NONE, check, 9) == 0 && hs_e2e_crc(7u, 1u, check, 9, 0) == 0);
    require(ref_crc8(0x1Du, check, 9, -1, 0) != 0); /* (the reference adds the data id) */
    require(hs_e2e_crc(HS_E2E_J1850, 0x1234u, check, 9, 3) == ref_crc8(0x1Du, check, 9, 3, 0x1234u));
    for (int r = -1; r <= HS_E2E_RESULTS; ++r)
        require(strcmp(hs_e2e_result_name(r), r == 0 ? "ok" : r == 1 ? "crc" : r == 2 ? "counter_repeated" :
                       r == 3 ? "counter_jump" : r == 4 ? "too_early" : "unknown") == 0);
    for (int k = 0; k < 2; ++k) {
        const int m = msg_of(prot[k].id);
        require(m >= 0 && db.msg[m].e2e == (k ? HS_E2E_H2F : HS_E2E_J1850) && db.msg[m].e2e_data_id == prot[k].did);
    }
}

/* ---- The secured PDU collection of the shipped quarter car (hil/CAN.md, "Authentication of
 * the shipped DBCs"): byte 0 bit 3 selects this mode. The harness is the ECU (a link bound the
 * other way, its key) and judges every frame the plant's link receives against an independent
 * model: the E2E rules above, the DBC ranges, held frames, and the collection's promise: an
 * EcuCommandAuth verifies only as one the ECU sent, over exactly the frames it sent in that
 * cycle, at that cycle's freshness (the next value above the last verified with its low bits:
 * applied; one window back: stale); anything else, or no key, is secoc_mac. The ECU's MAC is
 * recomputed with hs_mac_full over the input CAN.md defines (freshness, then id, DLC and
 * payload of each authentic message in DBC order) for the first QC_REF cycles of a run. A
 * verified cycle's values are applied bit for bit at the next tick; a refused one changes no
 * pending value; every frame lands in the counter the model names. Byte 0: bit 0 the plant
 * has no key, bit 1 --no-auth (not checked), bit 4 both ends start near a freshness wrap
 * (byte 1: how near, which wrap; a run that verified that many cycles). Then at most QC_RECS
 * records [op][a][b], one cycle each (op & 7): 0 genuine, 1 its commands lost, 2 its
 * EcuCommandAuth lost, 3 all lost, 4 a cycle of the last QC_RING sent (a back) replayed (op & 8:
 * its EcuCommandAuth alone), 5 a command forged (bit b flipped; op & 8: its CRC sealed again),
 * 6 the EcuCommandAuth forged (op & 8: tagged under another key, else bit b flipped), 7 the
 * sender's freshness moved on by (a << 8 | b) + 1 without frames (authenticators lost in
 * bulk); op & 32: commands without an arrival time. The clock advances one cycle per record
 * and the plant ticks once. A cycle costs two to three HMACs (about 30 us each under the
 * sanitizers), hence the bounds. FZ_CAN_SHOW=1 prints a run's counters. */
#define QC_DBC "hil/dbc/mech/quarter_car.dbc"
#define QC_RING 32
#define QC_RECS 16
#define QC_REF 4

static struct {
    hs_can_db db;
    const char *in[HS_FRAME_MAX_VALUES], *out[HS_FRAME_MAX_VALUES];
    int nin, nout, c, auth[HS_CAN_MAX_MSGS], nauth;
    hs_mac key, key2;
} Q;
static hs_can_link QP, QE;
static hs_signal qps[2 * HS_FRAME_MAX_VALUES], qes[2 * HS_FRAME_MAX_VALUES];
static hs_signal_map qpm, qem;
static hs_rx qrx;
static hs_tx qtx;

/* The last QC_RING cycles the ECU sent (nring of them so far): frames, EcuCommandAuth and its
 * full freshness, for replays and for the model's verdict. */
static uint8_t ring[QC_RING][HS_CAN_MAX_MSGS][HS_CAN_MAX_LEN], ring_auth[QC_RING][HS_CAN_MAX_LEN];
static uint64_t ring_fv[QC_RING];
static unsigned nring;

/* The model's receive state: held frames, E2E sequences, the freshness last verified, counts. */
static struct {
    uint8_t held[HS_CAN_MAX_MSGS], hold[HS_CAN_MAX_MSGS][HS_CAN_MAX_LEN];
    e2e_model em[HS_CAN_MAX_MSGS];
    uint64_t last, verified, unverified, mac, stale, unchecked, ok;
    uint8_t fresh[HS_FRAME_MAX_VALUES]; /* applied since the last tick: the next tick's input is want */
    double want[HS_FRAME_MAX_VALUES];
} R;

/* The collection's MAC as CAN.md defines it, under key k for freshness fv over the payloads p
 * (the authentic messages' in DBC order), into out (its first mac_len bytes). */
static void ref_coll_tag(const hs_mac *k, uint64_t fv, uint8_t (*p)[HS_CAN_MAX_LEN], uint8_t *out, unsigned mac_len)
{
    static uint8_t buf[8 + HS_CAN_MAX_MSGS * (5 + HS_CAN_MAX_LEN)];
    uint8_t full[HS_SHA256_BYTES];
    size_t n = 0;
    for (int b = 0; b < 8; ++b) buf[n++] = (uint8_t)(fv >> (8 * b));
    for (int j = 0; j < Q.nauth; ++j) {
        const hs_can_msg *A = &Q.db.msg[Q.auth[j]];
        const uint32_t id = A->id | (A->ext ? 0x80000000u : 0u);
        for (int b = 0; b < 4; ++b) buf[n++] = (uint8_t)(id >> (8 * b));
        buf[n++] = (uint8_t)hs_can_len_to_dlc(A->len);
        memcpy(buf + n, p[Q.auth[j]], A->len);
        n += A->len;
    }
    hs_mac_full(k, buf, n, full);
    memcpy(out, full, mac_len);
}

/* The smallest value above last whose low bits are trunc (hs_secoc.h's window). */
static uint64_t ref_next(uint64_t last, unsigned bits, uint64_t trunc)
{
    const uint64_t span = (uint64_t)1 << bits;
    return last + 1u + ((trunc - (last + 1u)) & (span - 1u));
}

static void coll_once(void)
{
    char msg[300];
    if (hs_dbc_load_file(QC_DBC, &Q.db, msg, sizeof msg) != 0) { fprintf(stderr, "%s\n", msg); abort(); }
    Q.c = -1;
    for (int m = 0; m < Q.db.nmsg; ++m)
        if (Q.c < 0 && Q.db.msg[m].secoc == HS_SECOC_CRYPTO) Q.c = m;
    require(Q.c >= 0);
    for (int m = 0; m < Q.db.nmsg; ++m) {
        const hs_can_msg *M = &Q.db.msg[m];
        if (M->secoc_by == Q.c) Q.auth[Q.nauth++] = m;
        for (int j = M->first; j < M->first + M->n; ++j)
            if (Q.db.sig[j].e2e_role == HS_E2E_ROLE_DATA) {
                if (M->secoc_by == Q.c) Q.in[Q.nin++] = Q.db.sig[j].name;
                else Q.out[Q.nout++] = Q.db.sig[j].name;
            }
    }
    require(Q.nauth > 0 && Q.nin > 0);
    static const uint8_t k1[32] = {0x5A, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                                   16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
    uint8_t k2[32];
    memcpy(k2, k1, sizeof k2);
    k2[31] ^= 0x80u;
    hs_mac_init(&Q.key, k1, sizeof k1);
    hs_mac_init(&Q.key2, k2, sizeof k2);
}

/* Refusals and branches no run of the shipped DBC reaches, each with its expected outcome. */
static void coll_refusals(void)
{
    hs_dbc_error err;
    static hs_can_db d;
    static hs_can_link l;
    /* a collection whose authentic messages go both ways: refused at bind, naming the second */
    static const char mixed[] =
        "BO_ 256 A1: 8 ECU\n SG_ a : 0|8@1+ (1,0) [0|255] \"\" PLANT\n"
        "BO_ 257 A2: 8 PLANT\n SG_ b : 0|8@1+ (1,0) [0|255] \"\" ECU\n"
        "BO_ 258 Auth: 8 ECU\n SG_ Auth_Freshness : 0|16@1+ (1,0) [0|65535] \"\" PLANT\n"
        " SG_ Auth_MAC : 16|48@1+ (1,0) [0|0] \"\" PLANT\n"
        "BA_ \"GenMsgCycleTime\" BO_ 256 10;\nBA_ \"GenMsgCycleTime\" BO_ 257 10;\nBA_ \"GenMsgCycleTime\" BO_ 258 10;\n"
        "BA_ \"HsSecOCCollection\" BO_ 258 1;\nBA_ \"HsSecOCCryptoPdu\" BO_ 256 258;\nBA_ \"HsSecOCCryptoPdu\" BO_ 257 258;\n"
        "BA_ \"HsSecOCSignal\" SG_ 258 Auth_Freshness 1;\nBA_ \"HsSecOCSignal\" SG_ 258 Auth_MAC 2;\n";
    static const char *const a[] = {"a"}, *const b[] = {"b"};
    if (hs_dbc_parse(mixed, sizeof mixed - 1, &d, &err) != 0) { fprintf(stderr, "mixed: %s\n", err.msg); abort(); }
    require(d.nmsg == 3 && d.msg[1].line == 3u);
    require(hs_can_bind(&l, &d, a, 1, b, 1, 10000u, &err) == HS_E_DBC && err.line == 3u &&
            strstr(err.msg, "A2") != NULL && strstr(err.msg, "mixes received and sent") != NULL);
    require(hs_can_bind(&l, &d, b, 1, a, 1, 10000u, &err) == HS_E_DBC && err.line == 3u);
    /* a message without a cycle time is due every period: 1000 stale cycles are 10 s at 10 ms,
     * 20 s at 20 ms, over the bound only the bind can judge */
    static const char slow[] = "BO_ 300 S: 1 ECU\n SG_ s : 0|8@1+ (1,0) [0|255] \"\" PLANT\n"
                               "BA_ \"HilstepStaleCycles\" BO_ 300 1000;\n";
    static const char *const s[] = {"s"};
    if (hs_dbc_parse(slow, sizeof slow - 1, &d, &err) != 0) { fprintf(stderr, "slow: %s\n", err.msg); abort(); }
    require(hs_can_bind(&l, &d, s, 1, NULL, 0, 10000u, &err) == 0 && l.stale[0] == 1000u);
    require(hs_can_bind(&l, &d, s, 1, NULL, 0, 20000u, &err) == HS_E_DBC && err.line == 1u &&
            strstr(err.msg, "stale limit over the 10000 ms") != NULL);
    /* a safety map with fewer inputs than the link: the inputs it lacks keep the DBC's range */
    require(hs_can_bind(&l, &Q.db, Q.in, Q.nin, Q.out, Q.nout, 10000u, &err) == 0);
    const hs_signal one = {"first", "", HS_SIG_IN, 1.0, 0.0, -1e-3, 1e-3, 0.0, 5u};
    const hs_signal_map safety = {"safety", &one, 1};
    hs_signal sg[2 * HS_FRAME_MAX_VALUES];
    hs_signal_map mp;
    require(hs_can_map(&l, &safety, "q", sg, 2 * HS_FRAME_MAX_VALUES, &mp, &err) == 0 && mp.n == Q.nin + Q.nout);
    for (int m = 0; m < Q.db.nmsg; ++m)
        for (int j = Q.db.msg[m].first; j < Q.db.msg[m].first + Q.db.msg[m].n; ++j) {
            const hs_can_sig *c = &Q.db.sig[j];
            if (c->e2e_role != HS_E2E_ROLE_DATA || l.dir[m] != HS_SIG_IN || (c->min == 0.0 && c->max == 0.0)) continue;
            const hs_signal *g = &sg[l.slot[j]];
            if (l.slot[j] == 0) require(g->min == (c->min > -1e-3 ? c->min : -1e-3) && g->max == (c->max < 1e-3 ? c->max : 1e-3));
            else require(g->min == c->min && g->max == c->max);
        }
    /* values offered to the receive side for a slot it lacks, or not a number: refused whole,
     * counted, nothing pending */
    static hs_rx r1;
    require(hs_rx_init(&r1, &mp, HS_FRAME_KIND_TO_PLANT) == 0);
    const uint8_t sl[2] = {0u, (uint8_t)r1.n};
    const double vv[2] = {0.0, NAN};
    require(hs_rx_offer_values(&r1, sl, vv, 2, 1u) == HS_RX_NONFINITE && hs_rx_offer_values(&r1, sl, vv + 1, 1, 2u) == HS_RX_NONFINITE);
    require(r1.st.datagrams == 2u && r1.st.rejected[HS_RX_NONFINITE] == 2u && r1.st.accepted == 0u && r1.pending == 0 && !r1.pend[0]);
    /* the in-message check (hs_secoc_check) without a key refuses and keeps its freshness;
     * with one, a frame across the 8-bit wrap verifies and is stale when it comes again */
    hs_secoc_layout ly = {0x1234u, 8u, 4u, 4u, 8u, 8u};
    uint8_t pl[8] = {1, 2, 3, 4, 0, 0, 0, 0};
    uint64_t last = 0xFDu;
    hs_secoc_tag(&Q.key, &ly, pl, 0x102u, pl + 4);
    require(hs_secoc_check(NULL, &ly, pl, 0x02u, &last) == HS_SECOC_BAD_MAC && last == 0xFDu);
    require(hs_secoc_check(&Q.key, &ly, pl, 0x02u, &last) == HS_SECOC_OK && last == 0x102u);
    require(hs_secoc_check(&Q.key, &ly, pl, 0x02u, &last) == HS_SECOC_STALE && last == 0x102u);
    require(hs_secoc_check(&Q.key2, &ly, pl, 0x03u, &last) == HS_SECOC_BAD_MAC && last == 0x102u);
}

/* The DBC range of s ([0|0]: every raw value) holds v. */
static int in_range(const hs_can_sig *s, double v)
{
    return (s->min == 0.0 && s->max == 0.0) || (v >= s->min && v <= s->max);
}

/* Delivers authentic message m's frame p to the plant and checks the verdict the model gives. */
static void coll_cmd(int m, const uint8_t *p, uint64_t now, int timed)
{
    const hs_can_msg *M = &Q.db.msg[m];
    int want = HS_CAN_OK;
    if (M->e2e) {
        const unsigned cb = (unsigned)Q.db.sig[M->e2e_crc].start / 8u;
        const hs_can_sig *ks = &Q.db.sig[M->e2e_ctr];
        const unsigned mask = (1u << ks->len) - 1u;
        if (p[cb] != ref_crc8(M->e2e == HS_E2E_J1850 ? 0x1Du : 0x2Fu, p, M->len, (int)cb, M->e2e_data_id)) {
            want = HS_CAN_E2E_CRC;
        } else {
            const int e = ref_check(&R.em[m], (unsigned)hs_can_get_raw(ks, p), mask, now, timed,
                                    (uint64_t)QP.every[m] * QP.period_us, (uint64_t)QP.stale[m] * QP.period_us);
            want = (e == HS_E2E_OK) ? HS_CAN_OK : HS_CAN_E2E_CRC + e - HS_E2E_CRC;
        }
    }
    for (int j = M->first; want == HS_CAN_OK && j < M->first + M->n; ++j)
        if (Q.db.sig[j].e2e_role == HS_E2E_ROLE_DATA && !in_range(&Q.db.sig[j], hs_can_raw_to_phys(&Q.db.sig[j], hs_can_get_raw(&Q.db.sig[j], p))))
            want = HS_CAN_RANGE;
    const int pend = qrx.pending;
    const int r = timed ? hs_can_receive_at(&QP, &qrx, M->id, M->ext, M->fd, p, M->len, now)
                        : hs_can_receive(&QP, &qrx, M->id, M->ext, M->fd, p, M->len);
    require(r == want);
    if (r != HS_CAN_OK) return;
    if (QP.secoc_off) { /* not authenticated: applied at once, bit for bit */
        R.ok++;
        for (int k = M->first; k < M->first + M->n; ++k)
            if (Q.db.sig[k].e2e_role == HS_E2E_ROLE_DATA) {
                R.want[QP.slot[k]] = hs_can_raw_to_phys(&Q.db.sig[k], hs_can_get_raw(&Q.db.sig[k], p));
                R.fresh[QP.slot[k]] = 1u;
                require(qrx.pend[QP.slot[k]] && qrx.pending_v[QP.slot[k]] == R.want[QP.slot[k]]);
            }
        return;
    }
    R.unverified += R.held[m];
    R.held[m] = 1u;
    memcpy(R.hold[m], p, M->len);
    require(qrx.pending == pend); /* held, not offered */
}

/* Delivers the EcuCommandAuth frame p and checks its verdict and what it applies. */
static void coll_auth(const uint8_t *p)
{
    const hs_can_msg *C = &Q.db.msg[Q.c];
    const hs_can_sig *fs = &Q.db.sig[C->secoc_fv];
    const uint64_t span = (uint64_t)1 << fs->len;
    int want = HS_CAN_OK, all = 1, nheld = 0;
    for (int j = 0; j < Q.nauth; ++j) {
        all &= R.held[Q.auth[j]];
        nheld += R.held[Q.auth[j]];
    }
    if (QP.secoc_off) {
        R.unchecked++;
    } else if (!all || QP.secoc_key == NULL) {
        want = HS_CAN_SECOC_MAC;
    } else {
        /* The MAC binds the freshness and the frames (the sender's MAC is checked against
         * CAN.md's definition where it is encoded): this authenticator verifies only as one the
         * ECU sent, over exactly the frames it sent then (a forgery without the key matches one
         * in 2^48), at that cycle's freshness: the next value (verified) or one window back
         * (a replay). */
        int j = -1;
        for (unsigned k = 0; k < nring && k < QC_RING; ++k)
            if (!memcmp(ring_auth[k], p, C->len)) j = (int)k;
        for (int a = 0; j >= 0 && a < Q.nauth; ++a)
            if (memcmp(R.hold[Q.auth[a]], ring[j][Q.auth[a]], Q.db.msg[Q.auth[a]].len)) j = -1;
        const uint64_t next = ref_next(R.last, fs->len, (uint64_t)hs_can_get_raw(fs, p));
        want = HS_CAN_SECOC_MAC;
        if (j >= 0 && ring_fv[j] == next) {
            want = HS_CAN_OK;
            R.last = next;
        } else if (j >= 0 && next > span && ring_fv[j] == next - span) {
            want = HS_CAN_SECOC_STALE;
        }
    }
    static double pv[HS_FRAME_MAX_VALUES];
    memcpy(pv, qrx.pending_v, sizeof pv);
    const int pend = qrx.pending;
    const int r = hs_can_receive(&QP, &qrx, C->id, C->ext, C->fd, p, C->len);
    require(r == want);
    if (QP.secoc_off) {
        require(qrx.pending == pend && !memcmp(pv, qrx.pending_v, sizeof pv));
        return;
    }
    for (int j = 0; j < Q.nauth; ++j) {
        const int m = Q.auth[j];
        if (!R.held[m]) continue;
        R.held[m] = 0u;
        if (r != HS_CAN_OK) continue;
        for (int k = Q.db.msg[m].first; k < Q.db.msg[m].first + Q.db.msg[m].n; ++k) {
            const hs_can_sig *s = &Q.db.sig[k];
            if (s->e2e_role != HS_E2E_ROLE_DATA) continue;
            R.want[QP.slot[k]] = hs_can_raw_to_phys(s, hs_can_get_raw(s, R.hold[m]));
            R.fresh[QP.slot[k]] = 1u;
            /* applied bit for bit: the covered frame's value, offered for the next tick */
            require(qrx.pend[QP.slot[k]] && qrx.pending_v[QP.slot[k]] == R.want[QP.slot[k]]);
        }
    }
    if (r == HS_CAN_OK) {
        R.verified++;
        R.ok += (uint64_t)nheld;
    } else {
        R.unverified += (uint64_t)nheld;
        R.mac += (r == HS_CAN_SECOC_MAC);
        R.stale += (r == HS_CAN_SECOC_STALE);
        require(qrx.pending == pend && !memcmp(pv, qrx.pending_v, sizeof pv)); /* nothing applied */
    }
}

static int coll_run(const uint8_t *data, size_t size)
{
    hs_dbc_error err;
    static int ready;
    if (!ready) {
        coll_once();
        coll_refusals();
        ready = 1;
    }
    const hs_can_msg *C = &Q.db.msg[Q.c];
    const hs_can_sig *fs = &Q.db.sig[C->secoc_fv], *ms = &Q.db.sig[C->secoc_mac];
    const unsigned ml = ms->len / 8u;
    const uint64_t span = (uint64_t)1 << fs->len;
    const uint32_t period = (C->cycle_ms ? C->cycle_ms : 10u) * 1000u; /* one cycle per tick */
    require(hs_can_bind(&QP, &Q.db, Q.in, Q.nin, Q.out, Q.nout, period, &err) == 0);
    require(hs_can_bind(&QE, &Q.db, Q.out, Q.nout, Q.in, Q.nin, period, &err) == 0);
    require(QP.dir[Q.c] == HS_SIG_IN && QE.dir[Q.c] == HS_SIG_OUT);
    require(hs_can_map(&QP, NULL, "plant", qps, 2 * HS_FRAME_MAX_VALUES, &qpm, &err) == 0);
    require(hs_can_map(&QE, NULL, "ecu", qes, 2 * HS_FRAME_MAX_VALUES, &qem, &err) == 0);
    require(hs_rx_init(&qrx, &qpm, HS_FRAME_KIND_TO_PLANT) == 0);
    require(hs_tx_init(&qtx, &qem, HS_FRAME_KIND_TO_PLANT, 1u) == 0);
    memset(&R, 0, sizeof R);
    QP.secoc_key = (data[0] & 1u) ? NULL : &Q.key;
    QP.secoc_off = (uint8_t)((data[0] >> 1) & 1u);
    QE.secoc_key = &Q.key;
    size_t i = 1;
    if ((data[0] & 0x10u) && size >= 2) { /* a run that verified this many cycles: near a wrap */
        R.last = span * (1u + (data[1] & 3u)) - 1u - (data[1] >> 2);
        QP.secoc_rx[Q.c] = R.last;
        QE.secoc_tx[Q.c] = R.last;
        i = 2;
    }
    uint64_t sent = QE.secoc_tx[Q.c]; /* the ECU's freshness as the harness counts it */
    static uint8_t cyc[HS_CAN_MAX_MSGS][HS_CAN_MAX_LEN];
    uint8_t au[HS_CAN_MAX_LEN], t[HS_SECOC_MAC_MAX];
    nring = 0u;
    uint64_t now = 1000000u;
    for (int nrec = 0; i + 3 <= size && nrec < QC_RECS; ++nrec, i += 3) {
        const unsigned op = data[i], a = data[i + 1], b = data[i + 2], kind = op & 7u;
        const int timed = !(op & 32u);
        now += period;
        if (kind == 7u) { /* authenticators lost in bulk: only the sender's freshness moves */
            const uint64_t n = ((uint64_t)a << 8 | b) + 1u;
            QE.secoc_tx[Q.c] += n;
            sent += n;
        } else if (kind == 4u) {
            if (nring == 0u) continue;
            const unsigned back = a % (nring < QC_RING ? nring : QC_RING), k = (nring - 1u - back) % QC_RING;
            if (!(op & 8u))
                for (int j = 0; j < Q.nauth; ++j) coll_cmd(Q.auth[j], ring[k][Q.auth[j]], now, timed);
            coll_auth(ring_auth[k]);
        } else {
            /* a cycle the ECU sends: each command from (a, b) across its range, then its MAC */
            hs_real y[HS_FRAME_MAX_VALUES];
            for (unsigned k = 0; k < qtx.n; ++k) {
                const double u = (double)((a << 8 | b) ^ (k * 0x9E37u)) / 65535.0;
                y[k] = (hs_real)(qtx.sig[k]->min + (qtx.sig[k]->max - qtx.sig[k]->min) * u);
            }
            for (int j = 0; j < Q.nauth; ++j)
                require(hs_can_encode(&QE, Q.auth[j], &qtx, y, cyc[Q.auth[j]]) == Q.db.msg[Q.auth[j]].len);
            require(hs_can_encode(&QE, Q.c, &qtx, y, au) == C->len);
            sent++;
            /* the sender: the next freshness's low bits, and (the first QC_REF cycles of a run:
             * a tag costs 30 us under the sanitizers) the MAC over exactly those frames */
            require((uint64_t)hs_can_get_raw(fs, au) == (sent & (span - 1u)));
            if (nring < QC_REF) {
                ref_coll_tag(&Q.key, sent, cyc, t, ml);
                require(!memcmp(t, au + ms->start / 8u, ml));
            }
            const unsigned k = nring % QC_RING;
            memcpy(ring[k], cyc, sizeof cyc);
            memcpy(ring_auth[k], au, sizeof au);
            ring_fv[k] = sent;
            nring++;
            if (kind == 5u) { /* a command forged by a node without the key */
                const int m = Q.auth[a % (unsigned)Q.nauth];
                const hs_can_msg *M = &Q.db.msg[m];
                cyc[m][(b / 8u) % M->len] ^= (uint8_t)(1u << (b % 8u));
                if ((op & 8u) && M->e2e) {
                    const unsigned cb = (unsigned)Q.db.sig[M->e2e_crc].start / 8u;
                    cyc[m][cb] = ref_crc8(M->e2e == HS_E2E_J1850 ? 0x1Du : 0x2Fu, cyc[m], M->len, (int)cb, M->e2e_data_id);
                }
            }
            if (kind == 6u) { /* an authenticator forged: another key, or bits flipped */
                if (op & 8u) ref_coll_tag(&Q.key2, sent, cyc, au + ms->start / 8u, ml);
                else au[(b / 8u) % C->len] ^= (uint8_t)(1u << (b % 8u));
            }
            if (kind != 1u && kind != 3u)
                for (int j = 0; j < Q.nauth; ++j) coll_cmd(Q.auth[j], cyc[Q.auth[j]], now, timed);
            if (kind != 2u && kind != 3u) coll_auth(au);
        }
        hs_real in[HS_FRAME_MAX_VALUES];
        (void)hs_rx_tick(&qrx, in);
        for (unsigned k = 0; k < qrx.n; ++k) {
            require((double)in[k] >= qrx.sig[k]->min && (double)in[k] <= qrx.sig[k]->max);
            if (R.fresh[k]) require(in[k] == (hs_real)R.want[k]);
        }
        memset(R.fresh, 0, sizeof R.fresh);
        /* every frame in one counter, as the model counted it */
        require(QP.rejected[HS_CAN_SECOC_UNVERIFIED] == R.unverified && QP.rejected[HS_CAN_SECOC_MAC] == R.mac &&
                QP.rejected[HS_CAN_SECOC_STALE] == R.stale && QP.secoc_verified == R.verified &&
                QP.secoc_unchecked == R.unchecked && QP.rejected[HS_CAN_OK] == R.ok);
        unsigned held = 0;
        for (int j = 0; j < Q.nauth; ++j) held += R.held[Q.auth[j]];
        require(hs_can_held(&QP) == held && QP.secoc_rx[Q.c] == R.last);
        require(QP.rx_frames == QP.rejected[HS_CAN_OK] + hs_can_rejected_total(&QP) + QP.secoc_verified +
                                    QP.secoc_unchecked + hs_can_held(&QP));
    }
    require(qrx.st.datagrams == QP.rejected[HS_CAN_OK]);
    if (getenv("FZ_CAN_SHOW")) /* what a seed reached */
        printf("collection: frames %llu accepted %llu verified %llu secoc_mac %llu secoc_stale %llu unverified %llu "
               "unchecked %llu e2e %llu range %llu held %u freshness %llu\n",
               (unsigned long long)QP.rx_frames, (unsigned long long)QP.rejected[HS_CAN_OK],
               (unsigned long long)QP.secoc_verified, (unsigned long long)QP.rejected[HS_CAN_SECOC_MAC],
               (unsigned long long)QP.rejected[HS_CAN_SECOC_STALE], (unsigned long long)QP.rejected[HS_CAN_SECOC_UNVERIFIED],
               (unsigned long long)QP.secoc_unchecked,
               (unsigned long long)(hs_can_e2e_alarms(&QP) - QP.rejected[HS_CAN_SECOC_MAC] - QP.rejected[HS_CAN_SECOC_STALE] -
                                    QP.rejected[HS_CAN_SECOC_UNVERIFIED]),
               (unsigned long long)QP.rejected[HS_CAN_RANGE], hs_can_held(&QP), (unsigned long long)QP.secoc_rx[Q.c]);
    hs_rx_finish(&qrx);
    require(qrx.st.accepted == qrx.st.used + qrx.st.superseded + qrx.st.unapplied);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hs_dbc_error err;
    if (size < 1) return 0;
    if (data[0] & 8u) return coll_run(data, size);
    const int ecu = data[0] & 1;
    const uint32_t period = (data[0] & 2) ? 10000u : 1000u;
    static int parsed;
    if (!parsed) { /* the table is only read below: parse once */
        if (hs_dbc_parse(dbc_text, sizeof dbc_text - 1, &db, &err) != 0) { fprintf(stderr, "dbc: %s\n", err.msg); abort(); }
        parsed = 1;
        e2e_once();
    }
    if (ecu)
        require(hs_can_bind(&L, &db, plant_out, 6, plant_in, 5, period, &err) == 0);
    else
        require(hs_can_bind(&L, &db, plant_in, 5, plant_out, 6, period, &err) == 0);
    require(hs_can_map(&L, NULL, "fuzz", sig, 18, &map, &err) == 0);
    require(hs_rx_init(&rx, &map, HS_FRAME_KIND_TO_PLANT) == 0);
    require(hs_tx_init(&tx, &map, HS_FRAME_KIND_FROM_PLANT, 7u) == 0);
    L.e2e_cadence_off = (uint8_t)((data[0] >> 2) & 1u); /* an emulator's: no cadence check */
    e2e_model em[2];
    memset(em, 0, sizeof em);
    unsigned txc[2] = {0, 0};

    /* refusals no DBC reaches: a zero period, more than a frame's signals */
    {
        hs_can_link L0;
        require(hs_can_bind(&L0, &db, plant_in, 5, plant_out, 6, 0u, &err) == HS_E_DBC && err.msg[0] != '\0');
        require(hs_can_len_to_dlc(65u) == -1 && hs_can_dlc_to_len(16u) == 64u);
    }
    /* the seam's helpers */
    hs_tp_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    for (int i = 0; i < HS_TP_MAX_OPTS; ++i) require(hs_tp_opt_add(&cfg, "k", "v") == 0);
    require(hs_tp_opt_add(&cfg, "k", "w") == HS_E_SIZE);
    require(hs_tp_opt(&cfg, "k", NULL)[0] == 'v' && hs_tp_opt(&cfg, "none", "d")[0] == 'd');
    uint32_t rd = 0;
    require(hs_tp_opt_unread(&cfg, 0, rd) == 0 && hs_tp_opt_unread(&cfg, 3, 0x7u) == 3);
    cfg.read = &rd;
    (void)hs_tp_opt(&cfg, "none", NULL);
    require(rd == 0u);
    (void)hs_tp_opt(&cfg, "k", NULL);
    require(rd == 0xFFFFu && hs_tp_opt_unread(&cfg, -1, rd) == -1);
    cfg.read = NULL;
    static const hs_transport_ops a = {"a", "", NULL, NULL, NULL, NULL, NULL, NULL, 0};
    static const hs_transport_ops *const table[] = {&a, NULL};
    require(hs_transport_find(table, "a") == &a && hs_transport_find(table, "b") == NULL &&
            hs_transport_find(NULL, "a") == NULL);

    uint64_t offered = 0, tick = 0, ticks_fresh = 0;
    size_t i = 1;
    /* At most 256 frames per input: a longer stream adds nothing the counters do not see in
     * 256, and keeps make fuzz-test's executions quick. */
    uint64_t now_us = 1000000u;
    for (int nrec = 0; i + 3 <= size && nrec < 256; ++nrec) {
        const unsigned flags = data[i], sel = data[i + 1];
        size_t len = data[i + 2];
        i += 3;
        if (len > size - i) len = size - i;
        uint8_t buf[256];
        memcpy(buf, data + i, len);
        i += len;
        uint32_t id = (sel < 0xF0u) ? ids[sel % 6u] : (uint32_t)sel * 0x1234u;
        unsigned fl = flags;
        /* sel 0xE8..0xEF: a protected id; flag 64 seals the frame with the reference CRC, with
         * flag 1 (the frame then standard) after writing the model's next counter into it */
        int pk = -1;
        if (sel >= 0xE8u && sel < 0xF0u) {
            pk = sel & 1u;
            id = prot[pk].id;
            if ((flags & 64u) && len >= 8) {
                const unsigned mask = (1u << prot[pk].bits) - 1u;
                if (flags & 1u) {
                    buf[2] = (uint8_t)((buf[2] & ~mask) | ((em[pk].last + 1u) & mask));
                    fl &= ~1u;
                }
                buf[prot[pk].crc_byte] = ref_crc8(prot[pk].poly, buf, 8, prot[pk].crc_byte, prot[pk].did);
            }
        }
        const int pm = (pk >= 0) ? msg_of(id) : -1;
        static double pv[HS_FRAME_MAX_VALUES];
        static uint8_t pf[HS_FRAME_MAX_VALUES];
        memcpy(pv, rx.pending_v, sizeof pv);
        memcpy(pf, rx.pend, sizeof pf);
        const int pend_before = rx.pending;
        /* arrival: the fuzzer's flags step a clock (0..7 ms per frame), so the E2E cadence and
         * silence checks run too; flag 128 offers the frame without a time */
        now_us += (uint64_t)((flags >> 3) & 7u) * 1000u;
        const uint64_t e2e_before = hs_can_e2e_alarms(&L);
        /* the model's verdict on a protected input frame that reaches the E2E check */
        int want = -1;
        uint64_t cnt_before = 0;
        if (pm >= 0 && L.dir[pm] == HS_SIG_IN && !(fl & 3u) && len == 8) {
            const unsigned mask = (1u << prot[pk].bits) - 1u;
            const uint64_t cyc = L.e2e_cadence_off ? 0u : (uint64_t)L.every[pm] * L.period_us;
            if (buf[prot[pk].crc_byte] != ref_crc8(prot[pk].poly, buf, 8, prot[pk].crc_byte, prot[pk].did))
                want = HS_E2E_CRC;
            else
                want = ref_check(&em[pk], buf[2] & mask, mask, now_us, !(flags & 128u), cyc,
                                 (uint64_t)L.stale[pm] * L.period_us);
            cnt_before = L.e2e_count[pm][want];
        }
        const int r = (flags & 128u) ? hs_can_receive(&L, &rx, id, (fl & 1u) != 0u, (fl & 2u) != 0u, buf, len > 64 ? 64 : len)
                                     : hs_can_receive_at(&L, &rx, id, (fl & 1u) != 0u, (fl & 2u) != 0u, buf,
                                                         len > 64 ? 64 : len, now_us);
        require(r >= 0 && r < HS_CAN_REASONS);
        if (want >= 0) {
            require(want == HS_E2E_OK ? (r == HS_CAN_OK || r == HS_CAN_RANGE) : r == HS_CAN_E2E_CRC + want - HS_E2E_CRC);
            require(L.e2e_count[pm][want] == cnt_before + 1u);
        }
        /* an E2E refusal is counted as an alarm, exactly once */
        require(hs_can_e2e_alarms(&L) == e2e_before + (uint64_t)(r >= HS_CAN_E2E_CRC));
        if (r != HS_CAN_OK) /* a refused frame leaves the receive side as it was */
            require(rx.pending == pend_before && !memcmp(pv, rx.pending_v, sizeof pv) && !memcmp(pf, rx.pend, sizeof pf));
        ++offered;
        if (flags & 4u) {
            hs_real in[HS_FRAME_MAX_VALUES];
            ticks_fresh += (uint64_t)hs_rx_tick(&rx, in);
            for (unsigned k = 0; k < rx.n; ++k)
                require((double)in[k] >= rx.sig[k]->min && (double)in[k] <= rx.sig[k]->max);
            ++tick;
        }
        if (flags & 8u) {
            hs_real y[HS_FRAME_MAX_VALUES];
            uint8_t out[HS_CAN_MAX_LEN];
            for (unsigned k = 0; k < tx.n; ++k) {
                /* flag 32: the payload's bytes as doubles (NaN, Inf, huge); else small values */
                double v = 0.0;
                if ((flags & 32u) && len >= 8 * (k + 1)) memcpy(&v, buf + 8 * k, sizeof v);
                else if (len > 2 * k + 1) v = (double)(int16_t)(buf[2 * k] | buf[2 * k + 1] << 8) * 0.01;
                y[k] = (hs_real)v;
            }
            for (int m = 0; m < db.nmsg; ++m)
                if (hs_can_due(&L, m, tick)) {
                    const size_t n = hs_can_encode(&L, m, &tx, (flags & 16u) ? NULL : y, out);
                    for (int k = 0; k < 2; ++k) /* a protected output: the next counter, the right CRC */
                        if (db.msg[m].id == prot[k].id && !db.msg[m].ext) {
                            const unsigned mask = (1u << prot[k].bits) - 1u;
                            require(n == 8 && (out[2] & mask) == txc[k]);
                            require(out[prot[k].crc_byte] == ref_crc8(prot[k].poly, out, 8, prot[k].crc_byte, prot[k].did));
                            txc[k] = (txc[k] + 1u) & mask;
                        }
                }
        }
    }
    require(L.rx_frames == offered);
    require(L.rx_frames == L.rejected[HS_CAN_OK] + hs_can_rejected_total(&L));
    require(rx.st.datagrams == L.rejected[HS_CAN_OK]);
    require(rx.st.accepted == rx.st.used + rx.st.superseded + (uint64_t)rx.pending);
    hs_rx_finish(&rx);
    require(rx.st.accepted == rx.st.used + rx.st.superseded + rx.st.unapplied);
    (void)hs_can_reason_name(data[0]);
    return 0;
}
