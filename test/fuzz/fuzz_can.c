/* fuzz_can.c - libFuzzer harness of the CAN receive and send side (hil/hs_can.c: hs_can_receive,
 * hs_can_encode, hs_can_due; hil/hs_signal.c: hs_rx_offer_values, hs_rx_tick, hs_rx_finish) and
 * the transport seam's helpers (hil/hs_transport.c), over a fixed DBC with classic and CAN FD,
 * 11- and 29-bit, Intel and Motorola, signed and scaled signals.
 *
 * Input: byte 0 selects the application side (plant or ECU of the DBC) and the period; then
 * records: [flags][id selector][len][len bytes of payload]. flags bit 0: 29-bit id, bit 1: CAN
 * FD, bit 2: tick after this frame, bit 3: encode the outputs due (bit 4: the safe values; bit 5:
 * the payload read as doubles, else as int16 x 0.01) at this tick. Checked invariants (abort on violation): every frame in exactly one
 * counter; every accepted frame used, superseded or pending; applied inputs inside [min, max];
 * a frame whose values lie outside the DBC range never changes an input. */
#include "hs_can.h"
#include "hs_transport.h"

#include <stdlib.h>
#include <string.h>

static void require(int ok)
{
    if (!ok) abort();
}

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
    "BA_ \"HilstepStaleCycles\" BO_ 256 2;\nBA_ \"GenSigStartValue\" SG_ 512 pos 100000;\n";

static const char *const plant_in[] = {"force", "mode", "torque", "gain"};
static const char *const plant_out[] = {"speed", "pos", "flag", "energy", "count"};
static const uint32_t ids[] = {256, 0x105E000, 512, 513, 0x7FF, 0};

static hs_can_db db;
static hs_can_link L;
static hs_signal sig[18];
static hs_signal_map map;
static hs_rx rx;
static hs_tx tx;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hs_dbc_error err;
    if (size < 1) return 0;
    const int ecu = data[0] & 1;
    const uint32_t period = (data[0] & 2) ? 10000u : 1000u;
    static int parsed;
    if (!parsed) { /* the table is only read below: parse once */
        require(hs_dbc_parse(dbc_text, sizeof dbc_text - 1, &db, &err) == 0);
        parsed = 1;
    }
    if (ecu)
        require(hs_can_bind(&L, &db, plant_out, 5, plant_in, 4, period, &err) == 0);
    else
        require(hs_can_bind(&L, &db, plant_in, 4, plant_out, 5, period, &err) == 0);
    require(hs_can_map(&L, NULL, "fuzz", sig, 18, &map, &err) == 0);
    require(hs_rx_init(&rx, &map, HS_FRAME_KIND_TO_PLANT) == 0);
    require(hs_tx_init(&tx, &map, HS_FRAME_KIND_FROM_PLANT, 7u) == 0);

    /* refusals no DBC reaches: a zero period, more than a frame's signals */
    {
        hs_can_link L0;
        require(hs_can_bind(&L0, &db, plant_in, 4, plant_out, 5, 0u, &err) == HS_E_DBC && err.msg[0] != '\0');
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
        const uint32_t id = (sel < 0xF0u) ? ids[sel % 6u] : (uint32_t)sel * 0x1234u;
        static double pv[HS_FRAME_MAX_VALUES];
        static uint8_t pf[HS_FRAME_MAX_VALUES];
        memcpy(pv, rx.pending_v, sizeof pv);
        memcpy(pf, rx.pend, sizeof pf);
        const int pend_before = rx.pending;
        /* arrival: the fuzzer's flags step a clock (0..7 ms per frame), so the E2E cadence and
         * silence checks run too; flag 128 offers the frame without a time */
        now_us += (uint64_t)((flags >> 3) & 7u) * 1000u;
        const uint64_t e2e_before = hs_can_e2e_alarms(&L);
        const int r = (flags & 128u) ? hs_can_receive(&L, &rx, id, (flags & 1u) != 0u, (flags & 2u) != 0u, buf, len > 64 ? 64 : len)
                                     : hs_can_receive_at(&L, &rx, id, (flags & 1u) != 0u, (flags & 2u) != 0u, buf,
                                                         len > 64 ? 64 : len, now_us);
        require(r >= 0 && r < HS_CAN_REASONS);
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
                if (hs_can_due(&L, m, tick)) (void)hs_can_encode(&L, m, &tx, (flags & 16u) ? NULL : y, out);
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
