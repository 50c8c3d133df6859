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
 * protected frame sent carries the next counter and the reference CRC. */
#include "hs_can.h"
#include "hs_transport.h"

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hs_dbc_error err;
    if (size < 1) return 0;
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
