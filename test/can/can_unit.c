/* can_unit.c - build/hilstep-can-unit: host unit tests of the DBC parser (hil/hs_dbc.c), the
 * CAN codec and link (hil/hs_can.c) and their receive side in hs_rx (hil/hs_signal.c).
 * Known answers are derived by hand from the DBC bit numbering (Intel: LSB at the start bit,
 * upward; Motorola: MSB at the start bit, sawtooth); the randomized comparison against
 * python3-canmatrix is test/can/cross_check.py. Ends with "can-unit: N passed, N failed". */
#include "hs_apps.h"
#include "hs_can.h"
#include "hs_dbc_file.h"
#include "hs_test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static hs_can_db db;
static hs_dbc_error err;

static int parse(const char *t) { return hs_dbc_parse(t, strlen(t), &db, &err); }

/* A refused DBC: error on line `line` whose text contains `part`. */
static void refused(const char *text, unsigned line, const char *part, const char *what)
{
    char buf[400];
    const int rc = parse(text);
    const int ok = rc != 0 && (unsigned)err.line == line && strstr(err.msg, part) != NULL && db.nmsg == 0;
    snprintf(buf, sizeof buf, "%s -> line %u: %s", what, (unsigned)err.line, err.msg);
    CHECK_NAMED(ok, buf);
}

#define HEAD "VERSION \"\"\n\nNS_ :\n\tCM_\n\tBA_\n\nBS_:\n\nBU_: A B\n"
/* HEAD is 9 lines; the first statement after it is on line 10. */

static void test_parse(void)
{
    char m[256];
    int rc = hs_dbc_load_file("test/can/circular_track_plain.dbc", &db, m, sizeof m);
    CHECK_NAMED(rc == 0 && db.nmsg == 2 && db.nsig == 5, "test/can/circular_track_plain.dbc (the unprotected layout): 2 messages, 5 signals");
    const hs_can_msg *c = &db.msg[0], *p = &db.msg[1];
    CHECK_NAMED(c->id == 256 && c->len == 2 && c->cycle_ms == 10 && !c->ext && !c->fd && c->n == 1 &&
                p->id == 512 && p->len == 8 && p->cycle_ms == 10 && p->n == 4,
                "ids 256/512, 2/8 bytes, GenMsgCycleTime 10 ms each");
    const hs_can_sig *f = &db.sig[0], *r = &db.sig[2];
    CHECK_NAMED(!strcmp(f->name, "F_t") && f->start == 0 && f->len == 16 && f->intel && f->is_signed &&
                f->factor == 0.002 && f->min == -50 && f->max == 50 && !strcmp(f->unit, "N"),
                "F_t: 0|16@1- (0.002,0) [-50|50] \"N\"");
    CHECK_NAMED(!strcmp(r->name, "radius") && !r->is_signed && r->factor == 0.0001 && r->has_init &&
                r->init_raw == 10000, "radius: unsigned, factor 1e-4, GenSigStartValue 10000");

    rc = parse(HEAD "BO_ 2147484000 Ext: 64 A\n SG_ a : 7|16@0+ (1,0) [0|0] \"\" B\n"
               "BA_ \"VFrameFormat\" BO_ 2147484000 15;\nBA_ \"HilstepStaleCycles\" BO_ 2147484000 5;\n");
    CHECK_NAMED(rc == 0 && db.msg[0].ext && db.msg[0].id == 352 && db.msg[0].fd && db.msg[0].len == 64 &&
                db.msg[0].stale_cycles == 5, "29-bit id (bit 31), CAN FD 64 bytes, HilstepStaleCycles");
    rc = parse(HEAD "CM_ SG_ 1 a \"a comment; over\ntwo lines\";\nBO_ 1 M: 1 A\n SG_ a : 0|8@1+ (1,0) [0|0] \"\" B\n"
               "VAL_ 1 a 0 \"off\" 1 \"on\";\nBO_ 3221225472 VECTOR__INDEPENDENT_SIG_MSG: 0 Vector__XXX\n"
               " SG_ lonely : 0|8@1+ (1,0) [0|0] \"\" B\n");
    CHECK_NAMED(rc == 0 && db.nmsg == 1 && db.nsig == 1, "CM_ with ';' and a newline in its string, VAL_, "
                "VECTOR__INDEPENDENT_SIG_MSG: skipped");
    rc = parse(HEAD "BO_ 1 M: 8 A\n SG_ a : 0|8@1+ (1e-3,-1.5E+2) [-150|105] \"\" B\n");
    CHECK_NAMED(rc == 0 && db.sig[0].factor == 1e-3 && db.sig[0].offset == -150.0, "numbers with exponents");

    refused(HEAD "BO_ 1 M: 8 A\n SG_ a M : 0|8@1+ (1,0) [0|0] \"\" B\n", 11, "multiplexed", "multiplexor signal");
    refused(HEAD "BO_ 1 M: 8 A\n SG_ a m3 : 0|8@1+ (1,0) [0|0] \"\" B\n", 11, "multiplexed", "multiplexed signal");
    refused(HEAD "BO_ 1 M: 8 A\n SG_ a : 0|8@1+ (1,0) [0|0] \"\" B\n SG_ b : 4|8@1+ (1,0) [0|0] \"\" B\n",
            12, "signal b overlaps signal a at bit 4", "overlapping Intel signals");
    refused(HEAD "BO_ 1 M: 8 A\n SG_ a : 7|8@0+ (1,0) [0|0] \"\" B\n SG_ b : 0|1@1+ (1,0) [0|0] \"\" B\n",
            12, "overlaps signal a at bit 0", "Motorola byte 0 and an Intel bit 0 overlap");
    refused(HEAD "BO_ 1 M: 12 A\n SG_ a : 0|8@1+ (1,0) [0|0] \"\" B\n", 10,
            "classic CAN carries at most 8 bytes, this one has 12", "classic CAN message of 12 bytes");
    refused(HEAD "BO_ 1 M: 10 A\nBA_ \"VFrameFormat\" BO_ 1 14;\n", 10, "CAN FD payloads",
            "CAN FD message of 10 bytes");
    refused(HEAD "BO_ 1 M: 2 A\n SG_ a : 8|9@1+ (1,0) [0|0] \"\" B\n", 11, "bits outside the message's 2 bytes",
            "signal past the payload");
    refused(HEAD "BO_ 1 M: 2 A\n SG_ a : 0|10@0+ (1,0) [0|0] \"\" B\n", 11, "bits outside",
            "Motorola signal past the payload");
    refused(HEAD "BO_ 1 M: 8 A\nBO_ 1 N: 8 A\n", 11, "id already used", "duplicate id");
    refused(HEAD "BO_ 1 M: 8 A\n SG_ a : 0|8@1+ (1,0) [0|0] \"\" B\nBO_ 2 N: 8 A\n SG_ a : 0|8@1+ (1,0) [0|0] \"\" B\n",
            13, "name used twice", "duplicate signal name");
    refused(HEAD "BO_ 2048 M: 8 A\n", 10, "id out of range", "11-bit id over 2047");
    refused(HEAD "BO_ 1 M: 8 A\n SG_ a : 0|8@2+ (1,0) [0|0] \"\" B\n", 11, "byte order", "byte order @2");
    refused(HEAD "BO_ 1 M: 8 A\n SG_ a : 0|8@1+ (0,0) [0|0] \"\" B\n", 11, "factor", "factor 0");
    refused(HEAD "BO_ 1 M: 8 A\n SG_ a : 0|8@1+ (1,0) [5|1] \"\" B\n", 11, "min <= max", "min > max");
    refused(HEAD "BO_ 1 M: 8 A\n SG_ a : 0|8@1+ (x,0) [0|0] \"\" B\n", 11, "(factor,offset)", "factor not a number");
    refused(HEAD "BO_ 1 M: 8 A\n SG_ a : 0|0@1+ (1,0) [0|0] \"\" B\n", 11, "1..64", "length 0");
    refused(HEAD "BO_ 1 M: 8 A\nSIG_VALTYPE_ 1 a : 1;\n", 11, "float", "IEEE float signal");
    refused(HEAD "BO_ 1 M: 8 A\nSG_MUL_VAL_ 1 a b 0-0;\n", 11, "multiplexed", "SG_MUL_VAL_");
    refused(HEAD "BO_ 1 M: 8 A\nBA_ \"GenMsgCycleTime\" BO_ 9 10;\n", 11, "no message with this id",
            "attribute of an unknown message");
    refused(HEAD "BO_ 1 M: 8 A\nBA_ \"GenMsgCycleTime\" BO_ 1 -5;\n", 11, "whole number", "negative cycle time");
    refused(HEAD "BO_ 1 M: 8 A\nCM_ \"never closed;\n", 11, "closing", "unterminated comment");
    refused(HEAD "BO_ 1 M: 8 A\nFOO_ bar;\n", 11, "unknown statement 'FOO_'", "unknown statement");
    refused(HEAD, 0, "no message", "no BO_ at all");
    refused(HEAD " SG_ a : 0|8@1+ (1,0) [0|0] \"\" B\n", 10, "outside a message", "SG_ before any BO_");
    refused(HEAD "BO_ 1 M: 8 A\n SG_ a : 0|8@1+ (1,0) [0|0] \"\" B\nBA_ \"GenSigStartValue\" SG_ 1 zz 3;\n",
            12, "no signal zz", "GenSigStartValue of an unknown signal");

    /* the file loader names the file and the line */
    rc = hs_dbc_load_file("test/can/bad/overlap.dbc", &db, m, sizeof m);
    CHECK_NAMED(rc == 2 && strstr(m, "test/can/bad/overlap.dbc:13: signal x1 overlaps signal speed") != NULL, m);
    rc = hs_dbc_load_file("test/can/none.dbc", &db, m, sizeof m);
    CHECK_NAMED(rc == 2 && strstr(m, "test/can/none.dbc: cannot open") != NULL, m);
}

static void test_bits(void)
{
    hs_can_sig s;
    uint8_t d[64];
    memset(&s, 0, sizeof s);
    s.factor = 1.0;
    /* Motorola, start 7 (MSB of byte 0), 12 bits: 0xABC -> AB C0 */
    s.start = 7; s.len = 12; s.intel = 0;
    memset(d, 0, sizeof d);
    hs_can_put_raw(&s, d, 0xABC);
    CHECK_NAMED(d[0] == 0xAB && d[1] == 0xC0 && hs_can_get_raw(&s, d) == 0xABC, "Motorola 7|12: 0xABC -> AB C0");
    /* Intel, start 4, 12 bits: 0xABC -> C0 AB */
    s.start = 4; s.intel = 1;
    memset(d, 0, sizeof d);
    hs_can_put_raw(&s, d, 0xABC);
    CHECK_NAMED(d[0] == 0xC0 && d[1] == 0xAB && hs_can_get_raw(&s, d) == 0xABC, "Intel 4|12: 0xABC -> C0 AB");
    /* Motorola, start 3, 8 bits: spans byte 0 bits 3..0 and byte 1 bits 7..4 */
    s.start = 3; s.len = 8; s.intel = 0;
    memset(d, 0, sizeof d);
    hs_can_put_raw(&s, d, 0x5A);
    CHECK_NAMED(d[0] == 0x05 && d[1] == 0xA0, "Motorola 3|8: 0x5A -> 05 A0");
    /* signed: -2 in 4 bits, sign-extended on the way back */
    s.start = 0; s.len = 4; s.intel = 1; s.is_signed = 1;
    memset(d, 0xFF, sizeof d);
    hs_can_put_raw(&s, d, -2);
    CHECK_NAMED(d[0] == 0xFE && hs_can_get_raw(&s, d) == -2, "signed 4-bit -2 -> 0xE, other bits kept");
    /* 64-bit unsigned, Intel */
    s.start = 0; s.len = 64; s.is_signed = 0;
    memset(d, 0, sizeof d);
    hs_can_put_raw(&s, d, (int64_t)UINT64_C(0x8877665544332211));
    CHECK_NAMED(d[0] == 0x11 && d[7] == 0x88 && (uint64_t)hs_can_get_raw(&s, d) == UINT64_C(0x8877665544332211),
                "Intel 0|64: every byte in place");
    /* scaling: round half away from zero, saturation counted */
    int sat;
    s.len = 8; s.is_signed = 1; s.factor = 0.5; s.offset = 0.0;
    CHECK_NAMED(hs_can_phys_to_raw(&s, 1.25, &sat) == 3 && !sat && hs_can_phys_to_raw(&s, -1.25, &sat) == -3 && !sat,
                "phys -> raw rounds half away from zero (1.25 / 0.5 = 2.5 -> 3)");
    CHECK_NAMED(hs_can_phys_to_raw(&s, 100.0, &sat) == 127 && sat && hs_can_phys_to_raw(&s, -64.2, &sat) == -128 && !sat &&
                hs_can_phys_to_raw(&s, -64.3, &sat) == -128 && sat, "saturation at the raw range, counted");
    CHECK_NAMED(hs_can_phys_to_raw(&s, NAN, &sat) == 0 && sat, "NaN -> raw 0, counted as saturated");
    s.is_signed = 0;
    CHECK_NAMED(hs_can_phys_to_raw(&s, -0.2, &sat) == 0 && !sat && hs_can_phys_to_raw(&s, -0.3, &sat) == 0 && sat,
                "unsigned: -0.4 raw rounds to 0, -0.6 saturates");
    CHECK_NAMED(hs_can_dlc_to_len(9) == 12 && hs_can_dlc_to_len(15) == 64 && hs_can_len_to_dlc(13) == 10 &&
                hs_can_len_to_dlc(65) == -1, "CAN FD DLC table");
}

static const char *const plant_in[] = {"F_t"};
static const char *const plant_out[] = {"speed", "radius", "x1", "x2"};

static void test_link(void)
{
    char m[256];
    hs_can_link L;
    hs_signal sig[8];
    hs_signal_map map;
    int rc = hs_dbc_load_file("test/can/circular_track_plain.dbc", &db, m, sizeof m);
    rc |= hs_can_bind(&L, &db, plant_in, 1, plant_out, 4, 1000u, &err);
    CHECK_NAMED(rc == 0 && L.dir[0] == HS_SIG_IN && L.dir[1] == HS_SIG_OUT && L.every[1] == 10 && L.stale[0] == 30,
                "plant at 1 ms: EcuCommand received (stale 30 periods), PlantState sent every 10 periods");
    rc = hs_can_map(&L, &hs_map_circular_track_plant, "circular_track", sig, 8, &map, &err);
    CHECK_NAMED(rc == 0 && map.n == 5 && !strcmp(map.sig[0].name, "F_t") && map.sig[0].stale_limit == 30 &&
                map.sig[2].fallback == 1.0 && map.sig[0].min == -50 && map.sig[1].min == -32,
                "map: DBC ranges within the shipped safety ranges, GenSigStartValue as fallback");
    CHECK_NAMED(hs_signal_map_check(&map, 1, 4, NULL) == 0, "the DBC map passes hs_signal_map_check");

    hs_dbc_error e;
    rc = hs_can_bind(&L, &db, plant_in, 1, plant_out, 4, 3000u, &e);
    CHECK_NAMED(rc != 0 && e.line == 16 && strstr(e.msg, "EcuCommand: GenMsgCycleTime is not a whole multiple"),
                "10 ms cycle at a 3 ms period: refused at the BO_ line");
    static const char *const car_out[] = {"xl", "yl", "xr", "yr", "F_left", "F_right"};
    static const char *const car_in[] = {"road_dy"};
    rc = hs_can_bind(&L, &db, car_in, 1, car_out, 6, 1000u, &e);
    CHECK_NAMED(rc != 0 && e.line == 17 && strstr(e.msg, "signal F_t: the model has no input or output"),
                "a signal the model lacks: refused at its SG_ line");
    static const char *const out5[] = {"speed", "radius", "x1", "x2", "extra"};
    rc = hs_can_bind(&L, &db, plant_in, 1, out5, 5, 1000u, &e);
    CHECK_NAMED(rc != 0 && strstr(e.msg, "model output extra has no signal in the DBC"), "a model output missing from the DBC");
    static const char *const mixed_in[] = {"F_t", "speed"};
    static const char *const mixed_out[] = {"radius", "x1", "x2"};
    rc = hs_can_bind(&L, &db, mixed_in, 2, mixed_out, 3, 1000u, &e);
    CHECK_NAMED(rc != 0 && e.line == 21 && strstr(e.msg, "signal radius: its message mixes model inputs and outputs"), "a message mixing directions");

    /* the receive side */
    rc = hs_can_bind(&L, &db, plant_in, 1, plant_out, 4, 1000u, &err);
    rc |= hs_can_map(&L, &hs_map_circular_track_plant, "circular_track", sig, 8, &map, &err);
    static hs_rx rx;
    hs_rx_init(&rx, &map, HS_FRAME_KIND_TO_PLANT);
    hs_real in[1];
    uint8_t d[64] = {0};
    d[0] = 0x10; d[1] = 0x27; /* raw 10000 * 0.002 = 20 N */
    CHECK_NAMED(hs_can_receive(&L, &rx, 0x123, 0, 0, d, 2) == HS_CAN_UNKNOWN_ID, "unknown id: counted");
    CHECK_NAMED(hs_can_receive(&L, &rx, 512, 0, 0, d, 8) == HS_CAN_UNKNOWN_ID, "our own output id from the bus: unknown id");
    CHECK_NAMED(hs_can_receive(&L, &rx, 256, 0, 0, d, 3) == HS_CAN_BAD_LEN, "wrong DLC: counted");
    CHECK_NAMED(hs_can_receive(&L, &rx, 256, 0, 1, d, 2) == HS_CAN_BAD_FORMAT, "CAN FD frame for a classic message: counted");
    CHECK_NAMED(hs_can_receive(&L, &rx, 256, 1, 0, d, 2) == HS_CAN_UNKNOWN_ID, "29-bit frame with an 11-bit id: unknown");
    uint8_t big[2] = {0x50, 0xC3}; /* raw 50000 -> signed -15536 * 0.002 = -31.07 N: in range */
    uint8_t over[2] = {0x00, 0x70}; /* raw 28672 * 0.002 = 57.3 N > 50: out of range */
    CHECK_NAMED(hs_can_receive(&L, &rx, 256, 0, 0, over, 2) == HS_CAN_RANGE, "out-of-range value: counted");
    (void)hs_rx_tick(&rx, in);
    CHECK_NAMED(in[0] == 0.0 && rx.st.datagrams == 0 && L.rx_frames == 6 && hs_can_rejected_total(&L) == 6,
                "nothing rejected was applied: F_t on its fallback 0 N, 6 frames = 6 rejections");
    CHECK_NAMED(hs_can_receive(&L, &rx, 256, 0, 0, big, 2) == HS_CAN_OK &&
                hs_can_receive(&L, &rx, 256, 0, 0, d, 2) == HS_CAN_OK, "two valid frames in one tick");
    int fresh = hs_rx_tick(&rx, in);
    CHECK_NAMED(fresh && fabs((double)in[0] - 20.0) < 1e-12 && rx.st.superseded == 1 && rx.st.used == 1 &&
                rx.used_seq == 2, "the newest applied (20 N), the first superseded, used_seq = CAN frame count");
    for (int k = 0; k < 30; ++k) (void)hs_rx_tick(&rx, in);
    CHECK_NAMED(in[0] == 20.0 && !rx.stale, "30 ticks without a frame: still fresh (limit 3 cycles = 30 periods)");
    (void)hs_rx_tick(&rx, in);
    CHECK_NAMED(in[0] == 0.0 && rx.stale, "tick 31: stale, back on the fallback");
    {
        const uint8_t sl[1] = {0};
        const double bad[1] = {NAN};
        const uint8_t oob[1] = {5};
        const double one[1] = {1.0};
        const uint64_t acc = rx.st.accepted;
        CHECK_NAMED(hs_rx_offer_values(&rx, sl, bad, 1, 99) == HS_RX_NONFINITE &&
                    hs_rx_offer_values(&rx, oob, one, 1, 99) == HS_RX_NONFINITE && rx.st.accepted == acc &&
                    rx.pending == 0, "hs_rx_offer_values refuses a NaN and a slot past the inputs, nothing pending");
    }
    CHECK_NAMED(rx.st.accepted == rx.st.used + rx.st.superseded + (uint64_t)rx.pending &&
                L.rx_frames == L.rejected[0] + hs_can_rejected_total(&L), "conservation: every frame in one counter");

    /* clamping to the bench's safety range: a DBC range wider than the shipped map's */
    rc = parse(HEAD "BO_ 256 Cmd: 2 A\n SG_ F_t : 0|16@1- (0.01,0) [-300|300] \"N\" B\n"
               "BO_ 512 St: 8 A\n SG_ speed : 0|16@1- (0.001,0) [0|0] \"m/s\" B\n"
               " SG_ radius : 16|16@1- (0.001,0) [0|0] \"m\" B\n SG_ x1 : 32|16@1- (0.001,0) [0|0] \"m\" B\n"
               " SG_ x2 : 48|16@1- (0.001,0) [0|0] \"m\" B\n");
    rc |= hs_can_bind(&L, &db, plant_in, 1, plant_out, 4, 1000u, &err);
    rc |= hs_can_map(&L, &hs_map_circular_track_plant, "circular_track", sig, 8, &map, &err);
    hs_rx_init(&rx, &map, HS_FRAME_KIND_TO_PLANT);
    d[0] = 0x10; d[1] = 0x27; /* 100 N */
    CHECK_NAMED(rc == 0 && map.sig[0].max == 50.0 && hs_can_receive(&L, &rx, 256, 0, 0, d, 2) == HS_CAN_OK,
                "no GenMsgCycleTime: every period; [-300|300] N meets the bench's +-50 N");
    (void)hs_rx_tick(&rx, in);
    CHECK_NAMED(in[0] == 50.0 && rx.st.clamped == 1, "100 N inside the DBC range is clamped to the bench's 50 N, counted");

    /* the send side: schedule and encoding */
    rc = hs_dbc_load_file("test/can/circular_track_plain.dbc", &db, m, sizeof m);
    rc |= hs_can_bind(&L, &db, plant_in, 1, plant_out, 4, 1000u, &err);
    rc |= hs_can_map(&L, &hs_map_circular_track_plant, "circular_track", sig, 8, &map, &err);
    static hs_tx tx;
    hs_tx_init(&tx, &map, HS_FRAME_KIND_FROM_PLANT, 1u);
    int due = 0;
    for (uint64_t k = 0; k < 100; ++k) due += hs_can_due(&L, 1, k);
    CHECK_NAMED(rc == 0 && due == 10 && hs_can_due(&L, 1, 0) && hs_can_due(&L, 1, 90) && !hs_can_due(&L, 1, 95) &&
                !hs_can_due(&L, 0, 0), "PlantState due at ticks 0, 10, ..., 90: 10 of 100; the input never");
    hs_real y[4] = {1.23449, 1.0, -0.5, 40.0};
    size_t n = hs_can_encode(&L, 1, &tx, y, d);
    CHECK_NAMED(n == 8 && L.tx_saturated == 1 && hs_can_get_raw(&db.sig[1], d) == 1234 &&
                hs_can_get_raw(&db.sig[2], d) == 10000 && hs_can_get_raw(&db.sig[3], d) == -5000 &&
                hs_can_get_raw(&db.sig[4], d) == 32767, "encode: 1.23449 m/s -> 1234, x2 = 40 m saturates at 32767 (counted)");
    n = hs_can_encode(&L, 1, &tx, NULL, d);
    CHECK_NAMED(n == 8 && hs_can_get_raw(&db.sig[2], d) == 10000 && hs_can_get_raw(&db.sig[3], d) == 10000 &&
                hs_can_get_raw(&db.sig[1], d) == 0, "safe values: the fallbacks (radius 1 m, x1 1 m, speed 0)");
    CHECK_NAMED(hs_can_encode(&L, 0, &tx, y, d) == 0, "an input message is never encoded");
    CHECK_NAMED(!strcmp(hs_can_reason_name(HS_CAN_RANGE), "out_of_range") && !strcmp(hs_can_reason_name(99), "unknown"),
                "reason names");
}

/* CRC-8 against the check values of AUTOSAR's CRC library specification (SWS_CRCLibrary:
 * Crc_CalculateCRC8 of "123456789" = 0x4B, Crc_CalculateCRC8H2F = 0xDF; the same values as
 * the CRC catalogue's CRC-8/SAE-J1850 and CRC-8/AUTOSAR), and the counter / cadence rules. */
static void test_e2e(void)
{
    const uint8_t chk[9] = {'1', '2', '3', '4', '5', '6', '7', '8', '9'};
    CHECK_NAMED(hs_crc8(HS_E2E_J1850, chk, 9) == 0x4B, "CRC-8 SAE J1850 of \"123456789\" = 0x4B");
    CHECK_NAMED(hs_crc8(HS_E2E_H2F, chk, 9) == 0xDF, "CRC-8H2F of \"123456789\" = 0xDF");
    /* AUTOSAR's other J1850 check vectors: 00 00 00 00 -> 0x59, F2 01 83 -> 0x37 */
    const uint8_t z[4] = {0, 0, 0, 0}, v[3] = {0xF2, 0x01, 0x83};
    CHECK_NAMED(hs_crc8(HS_E2E_J1850, z, 4) == 0x59 && hs_crc8(HS_E2E_J1850, v, 3) == 0x37,
                "CRC-8 SAE J1850 of 00000000 = 0x59, of F20183 = 0x37");
    /* the E2E CRC skips its own byte and starts with the data id, low byte first */
    const uint8_t pay[4] = {0x10, 0x27, 0x05, 0xAA}, seq[5] = {0x00, 0x11, 0x10, 0x27, 0x05};
    CHECK_NAMED(hs_e2e_crc(HS_E2E_J1850, 0x1100, pay, 4, 3) == hs_crc8(HS_E2E_J1850, seq, 5),
                "E2E CRC = CRC of data id (low, high) then the payload without the CRC byte");

    hs_e2e_rx st;
    int rs;
    memset(&st, 0, sizeof st);
    /* cycle 10 ms, stale 30 ms, times in us */
    CHECK_NAMED(hs_e2e_check(&st, 5, 4, 1000000, 10000, 30000, &rs) == HS_E2E_OK && !rs, "first frame: accepted");
    CHECK_NAMED(hs_e2e_check(&st, 5, 4, 1010000, 10000, 30000, &rs) == HS_E2E_REPEATED, "same counter: repeated");
    CHECK_NAMED(hs_e2e_check(&st, 9, 4, 1010000, 10000, 30000, &rs) == HS_E2E_JUMP, "counter + 4: jump");
    CHECK_NAMED(hs_e2e_check(&st, 6, 4, 1001000, 10000, 30000, &rs) == HS_E2E_EARLY,
                "next counter 1 ms after the last (cycle 10 ms): too early, a second cadence");
    CHECK_NAMED(hs_e2e_check(&st, 6, 4, 1019000, 10000, 30000, &rs) == HS_E2E_OK && st.last == 6,
                "next counter 9 ms late (refused frames changed nothing): accepted");
    CHECK_NAMED(hs_e2e_check(&st, 7, 4, 1020500, 10000, 30000, &rs) == HS_E2E_OK,
                "the on-time frame after a late one (1.5 ms later): accepted, the schedule kept its phase");
    CHECK_NAMED(hs_e2e_check(&st, 8, 4, 1024000, 10000, 30000, &rs) == HS_E2E_EARLY,
                "4 ms after an on-time frame (6 ms before its schedule): more than half a cycle early");
    CHECK_NAMED(hs_e2e_check(&st, 8, 4, 1026000, 10000, 30000, &rs) == HS_E2E_OK,
                "6 ms after it (4 ms before its schedule, inside half a cycle): accepted");
    CHECK_NAMED(hs_e2e_check(&st, 15, 4, 1080000, 10000, 30000, &rs) == HS_E2E_OK && rs,
                "after 59.5 ms of silence (stale 30 ms) any counter restarts the sequence (no lock-out), counted");
    CHECK_NAMED(hs_e2e_check(&st, 0, 4, 1090000, 10000, 30000, &rs) == HS_E2E_OK, "counter wraps 15 -> 0 (4 bits)");
    CHECK_NAMED(hs_e2e_check(&st, 1, 4, 1090500, 0, 30000, &rs) == HS_E2E_OK &&
                hs_e2e_check(&st, 1, 4, 1091000, 0, 30000, &rs) == HS_E2E_REPEATED &&
                hs_e2e_check(&st, 2, 4, 1130000, 0, 30000, &rs) == HS_E2E_OK && rs,
                "cadence off (cycle 0): the next counter 0.5 ms later accepted, a repeat still refused, silence still restarts");
    CHECK_NAMED(!strcmp(hs_e2e_result_name(HS_E2E_EARLY), "too_early") &&
                !strcmp(hs_can_reason_name(HS_CAN_E2E_JUMP), "e2e_counter_jump"), "E2E result and reason names");

    /* The shipped circular-track DBC: its E2E layout, both ends of the link, a second sender. */
    char m[256];
    static hs_can_db pdb;
    int rc = hs_dbc_load_file("hil/dbc/circular_track.dbc", &pdb, m, sizeof m);
    CHECK_NAMED(rc == 0 && pdb.nmsg == 5 && pdb.msg[0].e2e == HS_E2E_J1850 && pdb.msg[0].e2e_data_id == 0x1100 &&
                pdb.msg[0].len == 4 && pdb.msg[0].e2e_ctr == 1 && pdb.msg[0].e2e_crc == 2 && pdb.msg[2].e2e &&
                pdb.msg[3].e2e && pdb.sig[1].e2e_role == HS_E2E_ROLE_COUNTER && pdb.sig[2].e2e_role == HS_E2E_ROLE_CRC &&
                pdb.msg[1].secoc == HS_SECOC_CRYPTO && pdb.msg[4].secoc == HS_SECOC_CRYPTO && pdb.msg[0].secoc_by == 1 &&
                pdb.msg[2].secoc_by == 4 && pdb.msg[3].secoc_by == 4 && !pdb.msg[1].e2e,
                "hil/dbc/circular_track.dbc: 3 data messages, each with an alive counter and a CRC-8 SAE J1850, "
                "and a SecOC collection each way (EcuCommandAuth over EcuCommand, PlantAuth over PlantState and PlantPosition)");
    hs_can_link P, E;
    hs_signal ps[8], es[8];
    hs_signal_map pm, em;
    static hs_rx prx, erx;
    static hs_tx etx;
    rc = hs_can_bind(&P, &pdb, plant_in, 1, plant_out, 4, 10000u, &err);
    rc |= hs_can_map(&P, &hs_map_circular_track_plant, "circular_track", ps, 8, &pm, &err);
    rc |= hs_can_bind(&E, &pdb, plant_out, 4, plant_in, 1, 10000u, &err);
    rc |= hs_can_map(&E, NULL, "ecu", es, 8, &em, &err);
    CHECK_NAMED(rc == 0 && pm.n == 5 && em.n == 5 && P.dir[1] == HS_SIG_IN && P.dir[4] == HS_SIG_OUT &&
                E.dir[1] == HS_SIG_OUT && E.dir[4] == HS_SIG_IN,
                "plant and ECU bind it at 10 ms (counter and CRC bind to neither; each collection goes its messages' way)");
    /* the E2E check alone here (the collection's MAC as under --no-auth: test_secoc_collection) */
    P.secoc_off = 1u;
    hs_rx_init(&prx, &pm, HS_FRAME_KIND_TO_PLANT);
    hs_tx_init(&etx, &em, HS_FRAME_KIND_TO_PLANT, 1u);
    (void)erx;
    uint8_t fr[64], spoof[64];
    hs_real cmd[1] = {2.0}, in[1];
    uint64_t t = 5000000;
    int acc = 0, det = 0, sent = 0;
    for (int k = 0; k < 20; ++k, t += 10000) {
        (void)hs_can_encode(&E, 0, &etx, cmd, fr);
        acc += hs_can_receive_at(&P, &prx, 256, 0, 0, fr, 4, t + (uint64_t)(k % 3) * 3000u) == HS_CAN_OK;
        (void)hs_rx_tick(&prx, in);
        /* the third node: +50 N with a valid CRC, right after each ECU frame: the same counter,
         * the next one, or one of its own */
        memcpy(spoof, fr, 4);
        const unsigned c = (unsigned)hs_can_get_raw(&pdb.sig[1], fr);
        const unsigned sc = (k % 3 == 0) ? c : (k % 3 == 1) ? c + 1u : c + 7u;
        hs_can_put_raw(&pdb.sig[0], spoof, 25000);
        hs_can_put_raw(&pdb.sig[1], spoof, (int64_t)(sc & 15u));
        spoof[3] = hs_e2e_crc(HS_E2E_J1850, 0x1100, spoof, 4, 3);
        sent++;
        det += hs_can_receive_at(&P, &prx, 256, 0, 0, spoof, 4, t + (uint64_t)(k % 3) * 3000u + 400u) != HS_CAN_OK;
        (void)hs_rx_tick(&prx, in);
        CHECK(in[0] == 2.0);
    }
    CHECK_NAMED(acc == 20 && det == 20 && sent == 20 && P.rejected[HS_CAN_E2E_REPEATED] == 7 &&
                P.rejected[HS_CAN_E2E_EARLY] == 7 && P.rejected[HS_CAN_E2E_JUMP] == 6 && hs_can_e2e_alarms(&P) == 20,
                "a second sender at +50 N (valid CRC) after each of 20 ECU frames (ECU jitter 0..6 ms): "
                "all 20 ECU frames applied, all 20 spoofs refused (7 repeated, 7 early, 6 jumps), every tick at 2 N");
    fr[2] ^= 0x01;
    CHECK_NAMED(hs_can_receive_at(&P, &prx, 256, 0, 0, fr, 4, t) == HS_CAN_E2E_CRC && P.e2e_count[0][HS_E2E_CRC] == 1,
                "one bit flipped: CRC refused, counted for the message");
}

/* The DBC's safety limits (hil/CAN.md, "Limits"): each refused at its line, the field named. */
static void test_limits(void)
{
#define MSG1 "BO_ 1 M: 8 A\n SG_ a : 0|16@1- (0.01,0) [-50|50] \"N\" B\n"
    refused(HEAD MSG1 "BA_ \"HilstepStaleCycles\" BO_ 1 429496729;\n", 12, "HilstepStaleCycles must be 1..1000",
            "stale limit of 429,496,729 cycles (50 days at 1 ms)");
    refused(HEAD MSG1 "BA_ \"HilstepStaleCycles\" BO_ 1 0;\n", 12, "HilstepStaleCycles must be 1..1000", "stale limit 0");
    refused(HEAD MSG1 "BA_ \"GenMsgCycleTime\" BO_ 1 67108;\n", 12, "GenMsgCycleTime over the 1000 ms bound",
            "cycle time 67,108 ms");
    refused(HEAD MSG1 "BA_ \"GenMsgCycleTime\" BO_ 1 1000;\nBA_ \"HilstepStaleCycles\" BO_ 1 11;\n", 10,
            "over the 10000 ms bound", "1000 ms x 11 cycles = 11 s stale limit");
    refused(HEAD MSG1 "BA_ \"GenSigStartValue\" SG_ 1 a 1e400;\n", 12, "GenSigStartValue is not a finite number",
            "start value 1e400");
    refused(HEAD MSG1 "BA_ \"GenSigStartValue\" SG_ 1 a 6000;\n", 12, "lies outside [min|max]",
            "start value 60 N outside [-50|50]");
    refused(HEAD MSG1 "BA_ \"GenSigStartValue\" SG_ 1 a 40000;\n", 12, "inside the signal's raw range",
            "start value outside the 16-bit raw range");
    refused(HEAD MSG1 "BA_ \"GenSigStartValue\" SG_ 1 a 2.5;\n", 12, "whole raw value", "start value 2.5 raw");
    refused(HEAD "BO_ 1 M: 8 A\n SG_ a : 0|16@1- (1e-320,0) [0|0] \"N\" B\n", 11, "|factor| must be 1e-12..1e12",
            "factor 1e-320");
    refused(HEAD "BO_ 1 M: 8 A\n SG_ a : 0|16@1- (1e13,0) [0|0] \"N\" B\n", 11, "|factor| must be", "factor 1e13");
    refused(HEAD "BO_ 1 M: 8 A\n SG_ a : 0|16@1- (1,1e16) [0|0] \"N\" B\n", 11, "|offset| must be", "offset 1e16");
    CHECK_NAMED(parse(HEAD "BO_ 1 M: 8 A\n SG_ a : 0|16@1- (1,0) [0|0] \"\xC2\xB5m/s\xC2\xB2 per \xE2\x84\x83 x\" B\n") == 0 &&
                !strcmp(db.sig[0].unit, "\xC2\xB5m/s\xC2\xB2 per \xE2\x84\x83"), "a unit of 17 bytes: its first 15 (whole characters) kept");
    CHECK_NAMED(parse(HEAD "BO_ 1 M: 8 A\n SG_ a : 0|16@1- (1,0) [0|0] \"abcdefghijklm\xE2\x84\x83\" B\n") == 0 &&
                !strcmp(db.sig[0].unit, "abcdefghijklm"), "a 3-byte character at bytes 14-16 of a unit: left out whole, not cut");
    CHECK_NAMED(parse(HEAD "BO_ 1 M: 8 A\n SG_ a : 0|16@1- (1,0) [0|0] \"abcdefghijklmn\xC2\xB5\" B\n") == 0 &&
                !strcmp(db.sig[0].unit, "abcdefghijklmn"), "a 2-byte character at bytes 15-16: left out whole");
#define E2E1 "BO_ 1 M: 4 A\n SG_ a : 0|16@1- (1,0) [0|0] \"\" B\n SG_ c : 16|4@1+ (1,0) [0|15] \"\" B\n SG_ k : 24|8@1+ (1,0) [0|255] \"\" B\n"
    CHECK_NAMED(parse(HEAD E2E1 "BA_ \"HsE2EProfile\" BO_ 1 2;\nBA_ \"HsE2ESignal\" SG_ 1 c 1;\nBA_ \"HsE2ESignal\" SG_ 1 k 2;\n") == 0 &&
                db.msg[0].e2e == HS_E2E_H2F && db.msg[0].e2e_data_id == 1 && db.msg[0].e2e_ctr == 1 && db.msg[0].e2e_crc == 2,
                "E2E profile 2, default data id = the CAN id");
    refused(HEAD E2E1 "BA_ \"HsE2EProfile\" BO_ 1 3;\n", 14, "HsE2EProfile must be 1", "profile 3");
    refused(HEAD E2E1 "BA_ \"HsE2EProfile\" BO_ 1 1;\nBA_ \"HsE2ESignal\" SG_ 1 c 1;\n", 10, "needs one counter and one CRC",
            "E2E without its CRC signal");
    refused(HEAD E2E1 "BA_ \"HsE2ESignal\" SG_ 1 c 1;\n", 12, "without BA_ \"HsE2EProfile\"", "a counter on an unprotected message");
    refused(HEAD E2E1 "BA_ \"HsE2EProfile\" BO_ 1 1;\nBA_ \"HsE2ESignal\" SG_ 1 c 2;\nBA_ \"HsE2ESignal\" SG_ 1 k 1;\n", 12,
            "fills one whole byte", "a 4-bit CRC");
    refused(HEAD E2E1 "BA_ \"HsE2EProfile\" BO_ 1 1;\nBA_ \"HsE2ESignal\" SG_ 1 a 1;\nBA_ \"HsE2ESignal\" SG_ 1 k 2;\n", 11,
            "unsigned, factor 1", "a signed counter");
    refused(HEAD E2E1 "BA_ \"HsE2EDataId\" BO_ 1 65536;\n", 14, "HsE2EDataId must be 0..65535", "data id 65536");
}

/* SecOC (hs_secoc.h): the tag's layout, the freshness window, and at the plant a forged frame
 * (right CRC and counter, wrong MAC), replays of old frames (right MAC, old freshness) and a
 * frame without the key, each refused while the live ECU keeps the link. */
static void secoc_layout_checks(void)
{
    static const uint8_t key[32] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                                    17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32};
    hs_mac k;
    hs_mac_init(&k, key, sizeof key);
    const hs_secoc_layout l = {0x1100u, 8u, 5u, 3u, 3u, 8u};
    const uint8_t pay[8] = {0x10, 0x27, 0x05, 0xAA, 0x07, 0xEE, 0xEE, 0xEE};
    /* by hand: id low, id high, bytes 0, 1, 2, 4 (not the CRC at 3, not the MAC at 5..7), fv 7 low first */
    const uint8_t msg[14] = {0x00, 0x11, 0x10, 0x27, 0x05, 0x07, 7, 0, 0, 0, 0, 0, 0, 0};
    uint8_t want[32], got[8];
    hs_mac_full(&k, msg, sizeof msg, want);
    hs_secoc_tag(&k, &l, pay, 7u, got);
    CHECK_NAMED(!memcmp(got, want, 3), "SecOC tag = HMAC-SHA-256 of data id, payload without CRC and MAC bytes, 8-byte freshness; first 3 bytes");
    uint8_t fr[8];
    memcpy(fr, pay, 8);
    uint64_t last = 0x1FFu;
    hs_secoc_tag(&k, &l, fr, 0x200u, &fr[5]);
    CHECK_NAMED(hs_secoc_check(&k, &l, fr, 0x00u, &last) == HS_SECOC_OK && last == 0x200u,
                "freshness 0x1FF -> frame with low byte 0x00: rebuilt as 0x200 across the wrap, accepted");
    CHECK_NAMED(hs_secoc_check(&k, &l, fr, 0x00u, &last) == HS_SECOC_STALE && last == 0x200u,
                "the same frame again: verifies only with the freshness already used: stale, state kept");
    hs_secoc_tag(&k, &l, fr, 0x2FFu, &fr[5]);
    CHECK_NAMED(hs_secoc_check(&k, &l, fr, 0xFFu, &last) == HS_SECOC_OK && last == 0x2FFu,
                "255 frames lost: the next still inside the 8-bit window, accepted");
    CHECK_NAMED(hs_secoc_check(NULL, &l, fr, 0xFFu, &last) == HS_SECOC_BAD_MAC, "no key: refused as a bad MAC");
    fr[0] ^= 1u;
    last = 0x2FEu;
    CHECK_NAMED(hs_secoc_check(&k, &l, fr, 0xFFu, &last) == HS_SECOC_BAD_MAC && last == 0x2FEu,
                "one data bit changed: bad MAC, state kept");
}

static void test_secoc(void)
{
    secoc_layout_checks();
    char m[256];
    static hs_can_db sdb;
    int rc = hs_dbc_load_file("test/can/circular_track_secoc.dbc", &sdb, m, sizeof m);
    CHECK_NAMED(rc == 0 && sdb.msg[0].secoc == HS_SECOC_HMAC && sdb.msg[0].len == 8 && sdb.msg[0].secoc_fv == 3 &&
                sdb.msg[0].secoc_mac == 4 && sdb.sig[3].e2e_role == HS_SECOC_ROLE_FV && sdb.sig[4].e2e_role == HS_SECOC_ROLE_MAC &&
                sdb.msg[1].secoc == 0u && sdb.msg[0].e2e == HS_E2E_J1850, m);
    static const uint8_t key[32] = {0x5A, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                                    16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
    static const uint8_t other[32] = {0x77};
    hs_mac k, k2;
    hs_mac_init(&k, key, sizeof key);
    hs_mac_init(&k2, other, sizeof other);
    hs_can_link P, E, X;
    hs_signal ps[8], es[8];
    hs_signal_map pm, em;
    static hs_rx prx;
    static hs_tx etx;
    rc = hs_can_bind(&P, &sdb, plant_in, 1, plant_out, 4, 10000u, &err);
    rc |= hs_can_map(&P, &hs_map_circular_track_plant, "circular_track", ps, 8, &pm, &err);
    rc |= hs_can_bind(&E, &sdb, plant_out, 4, plant_in, 1, 10000u, &err);
    rc |= hs_can_map(&E, NULL, "ecu", es, 8, &em, &err);
    rc |= hs_can_bind(&X, &sdb, plant_out, 4, plant_in, 1, 10000u, &err);
    CHECK_NAMED(rc == 0, "plant and ECU bind the SecOC DBC (freshness and MAC bind to neither)");
    P.secoc_key = &k;
    E.secoc_key = &k;
    X.secoc_key = &k2; /* a node with another key */
    hs_rx_init(&prx, &pm, HS_FRAME_KIND_TO_PLANT);
    hs_tx_init(&etx, &em, HS_FRAME_KIND_TO_PLANT, 1u);
    uint8_t fr[64], old[64], forged[64];
    hs_real cmd[1] = {2.0}, in[1], atk[1] = {50.0};
    uint64_t t = 5000000;
    int acc = 0, forged_n = 0, replay_n = 0, other_n = 0, nref = 0;
    for (int k2i = 0; k2i < 300; ++k2i, t += 10000) {
        (void)hs_can_encode(&E, 0, &etx, cmd, fr);
        if (k2i == 3) memcpy(old, fr, 8);
        acc += hs_can_receive_at(&P, &prx, 256, 0, 0, fr, 8, t) == HS_CAN_OK;
        (void)hs_rx_tick(&prx, in);
        if (k2i % 10 != 5) continue;
        /* forged: +50 N, the next counter and freshness, the CRC right, the MAC of the last frame */
        memcpy(forged, fr, 8);
        hs_can_put_raw(&sdb.sig[0], forged, 25000);
        hs_can_put_raw(&sdb.sig[1], forged, (hs_can_get_raw(&sdb.sig[1], fr) + 1) & 15);
        hs_can_put_raw(&sdb.sig[3], forged, (hs_can_get_raw(&sdb.sig[3], fr) + 1) & 255);
        forged[3] = hs_e2e_crc(HS_E2E_J1850, 0x1100, forged, 8, 3);
        forged_n++;
        nref += hs_can_receive_at(&P, &prx, 256, 0, 0, forged, 8, t + 5000u) == HS_CAN_SECOC_MAC;
        /* replays: the frame just accepted, and the one captured at frame 3 */
        replay_n += 2;
        nref += hs_can_receive_at(&P, &prx, 256, 0, 0, fr, 8, t + 5000u) == HS_CAN_SECOC_STALE;
        nref += hs_can_receive_at(&P, &prx, 256, 0, 0, old, 8, t + 5000u) != HS_CAN_OK;
        /* a node with another key, sending +50 N as the ECU's next frame would be */
        uint8_t xf[64];
        X.e2e_tx[0] = E.e2e_tx[0];
        X.secoc_tx[0] = E.secoc_tx[0];
        (void)hs_can_encode(&X, 0, &etx, atk, xf);
        other_n++;
        nref += hs_can_receive_at(&P, &prx, 256, 0, 0, xf, 8, t + 5000u) == HS_CAN_SECOC_MAC;
        (void)hs_rx_tick(&prx, in);
        CHECK(in[0] == 2.0);
    }
    char buf[320];
    snprintf(buf, sizeof buf, "300 ECU frames (freshness wraps 8 bits past 255): %d applied; %d forged (right CRC and counter, "
             "wrong MAC), %d replays (the last frame, frame 3), %d from another key: %d refused (secoc_mac %llu, "
             "secoc_stale %llu); every tick at 2 N", acc, forged_n, replay_n, other_n, nref,
             (unsigned long long)P.rejected[HS_CAN_SECOC_MAC], (unsigned long long)P.rejected[HS_CAN_SECOC_STALE]);
    /* stale: the 30 repeats of the last frame, and frame 3 (freshness 4) while it lies within one
     * 8-bit window of the last (freshness <= 259: 26 of 30); older, it verifies with no value the
     * window holds: a bad MAC like the 30 forged and the 30 of another key (64) */
    CHECK_NAMED(acc == 300 && nref == forged_n + replay_n + other_n && P.rejected[HS_CAN_SECOC_MAC] == 64 &&
                P.rejected[HS_CAN_SECOC_STALE] == 56 && hs_can_e2e_alarms(&P) == 120 && P.e2e_count[0][HS_E2E_REPEATED] == 0 &&
                !strcmp(hs_can_reason_name(HS_CAN_SECOC_STALE), "secoc_stale"), buf);
    P.secoc_key = NULL;
    (void)hs_can_encode(&E, 0, &etx, cmd, fr);
    CHECK_NAMED(hs_can_receive_at(&P, &prx, 256, 0, 0, fr, 8, t) == HS_CAN_SECOC_MAC, "a plant without the key refuses every SecOC frame");
#define SEC1 "BO_ 1 M: 8 A\n SG_ a : 0|16@1- (1,0) [0|0] \"\" B\n SG_ f : 16|8@1+ (1,0) [0|255] \"\" B\n SG_ t : 32|24@1+ (1,0) [0|0] \"\" B\n"
    CHECK_NAMED(parse(HEAD SEC1 "BA_ \"HsSecOCProfile\" BO_ 1 1;\nBA_ \"HsSecOCSignal\" SG_ 1 f 1;\nBA_ \"HsSecOCSignal\" SG_ 1 t 2;\n") == 0 &&
                db.msg[0].secoc == HS_SECOC_HMAC && db.msg[0].secoc_fv == 1 && db.msg[0].secoc_mac == 2 && db.msg[0].e2e == 0u,
                "SecOC without E2E: freshness 8 bits, MAC 3 bytes");
    refused(HEAD SEC1 "BA_ \"HsSecOCProfile\" BO_ 1 2;\n", 14, "HsSecOCProfile must be 1", "SecOC profile 2");
    refused(HEAD SEC1 "BA_ \"HsSecOCProfile\" BO_ 1 1;\nBA_ \"HsSecOCSignal\" SG_ 1 f 1;\n", 10, "needs one freshness and one MAC",
            "SecOC without its MAC");
    refused(HEAD SEC1 "BA_ \"HsSecOCSignal\" SG_ 1 t 2;\n", 13, "without BA_ \"HsSecOCProfile\"", "a MAC on an unauthenticated message");
    refused(HEAD SEC1 "BA_ \"HsSecOCSignal\" SG_ 1 t 3;\n", 14, "HsSecOCSignal must be 1", "role 3");
    refused(HEAD "BO_ 1 M: 8 A\n SG_ f : 0|8@1+ (1,0) [0|0] \"\" B\n SG_ t : 12|24@1+ (1,0) [0|0] \"\" B\n"
            "BA_ \"HsSecOCProfile\" BO_ 1 1;\nBA_ \"HsSecOCSignal\" SG_ 1 f 1;\nBA_ \"HsSecOCSignal\" SG_ 1 t 2;\n", 12,
            "2..8 whole bytes, Intel, starting on a byte", "a MAC not on a byte boundary");
    refused(HEAD "BO_ 1 M: 8 A\n SG_ f : 0|3@1+ (1,0) [0|0] \"\" B\n SG_ t : 8|24@1+ (1,0) [0|0] \"\" B\n"
            "BA_ \"HsSecOCProfile\" BO_ 1 1;\nBA_ \"HsSecOCSignal\" SG_ 1 f 1;\nBA_ \"HsSecOCSignal\" SG_ 1 t 2;\n", 11,
            "freshness value has 4..32 bits", "a 3-bit freshness value");
#define COL "BO_ 1 A: 8 E\n SG_ a : 0|16@1- (1,0) [0|0] \"\" P\nBO_ 2 S: 8 E\n SG_ f : 0|16@1+ (1,0) [0|0] \"\" P\n SG_ t : 16|48@1+ (1,0) [0|0] \"\" P\n"
#define COLSIG "BA_ \"HsSecOCSignal\" SG_ 2 f 1;\nBA_ \"HsSecOCSignal\" SG_ 2 t 2;\n"
    CHECK_NAMED(parse(HEAD COL "BA_ \"HsSecOCCollection\" BO_ 2 1;\nBA_ \"HsSecOCCryptoPdu\" BO_ 1 2;\n" COLSIG) == 0 &&
                db.msg[1].secoc == HS_SECOC_CRYPTO && db.msg[0].secoc_by == 1 && db.msg[1].secoc_mac == 2,
                "a collection: message 1 authenticated by cryptographic message 2");
    refused(HEAD COL "BA_ \"HsSecOCCollection\" BO_ 2 1;\n" COLSIG, 12, "authenticates at least one message",
            "a cryptographic message without an authentic one");
    refused(HEAD COL "BA_ \"HsSecOCProfile\" BO_ 2 1;\nBA_ \"HsSecOCCryptoPdu\" BO_ 1 2;\n" COLSIG, 10,
            "names a message without BA_ \"HsSecOCCollection\"",
            "HsSecOCCryptoPdu naming a message that is not one");
    refused(HEAD COL "BA_ \"HsSecOCCollection\" BO_ 2 1;\nBA_ \"HsSecOCCryptoPdu\" BO_ 1 9;\n" COLSIG, 16,
            "HsSecOCCryptoPdu names no other message", "HsSecOCCryptoPdu naming no message");
    refused(HEAD COL "BA_ \"HsSecOCCollection\" BO_ 2 2;\n", 15, "HsSecOCCollection must be 1", "collection profile 2");
    refused(HEAD COL "BA_ \"HsSecOCCollection\" BO_ 2 1;\nBA_ \"HsSecOCCryptoPdu\" BO_ 1 2;\n"
            "BA_ \"GenMsgCycleTime\" BO_ 1 10;\n" COLSIG, 10, "its cryptographic message's GenMsgCycleTime",
            "an authentic message on another cycle");
    refused(HEAD "BO_ 2 S: 8 E\n SG_ f : 0|16@1+ (1,0) [0|0] \"\" P\n SG_ t : 16|48@1+ (1,0) [0|0] \"\" P\n"
            "BO_ 1 A: 8 E\n SG_ a : 0|16@1- (1,0) [0|0] \"\" P\n"
            "BA_ \"HsSecOCCollection\" BO_ 2 1;\nBA_ \"HsSecOCCryptoPdu\" BO_ 1 2;\n" COLSIG, 13, "must come after it",
            "a cryptographic message before its authentic one");
}


/* One cycle of the quarter car's collection from ECU E: EcuCommand1 (road_z, F_act) into cmd,
 * EcuCommandAuth into au (hil/dbc/mech/quarter_car.dbc: messages 0 and 1). */
static void qc_cycle(hs_can_link *E, hs_tx *tx, double z, double F, uint8_t *cmd, uint8_t *au)
{
    hs_real y[2];
    y[0] = (hs_real)z;
    y[1] = (hs_real)F;
    (void)hs_can_encode(E, 0, tx, y, cmd);
    (void)hs_can_encode(E, 1, tx, y, au);
}

/* Delivers one cycle (either frame may be NULL: lost) to plant link P and ticks its receive side. */
static void qc_deliver(hs_can_link *P, hs_rx *rx, const uint8_t *cmd, const uint8_t *au, hs_real *in)
{
    if (cmd != NULL) (void)hs_can_receive(P, rx, 256u, 0, 0, cmd, 8u);
    if (au != NULL) (void)hs_can_receive(P, rx, 257u, 0, 0, au, 8u);
    (void)hs_rx_tick(rx, in);
}

/* The shipped DBCs' secured PDU collection (hil/CAN.md, "Authentication of the shipped DBCs"):
 * the quarter car's EcuCommand1 applied only when its cycle's EcuCommandAuth verifies. Each
 * attack also goes to a plant with the collection off (secoc_off: the E2E-only behaviour of
 * before), which applies it: the check fails on the old behaviour. */
static void test_secoc_collection(void)
{
    static const char *const qin[] = {"road_z", "F_act"};
    static const char *const qout[] = {"body_acc", "susp_travel"};
    static hs_can_db q;
    static hs_can_link P, O, E;
    static hs_rx prx, orx;
    static hs_tx etx;
    hs_signal ps[4], os[4], es[4];
    hs_signal_map pm, om, em;
    char m[256];
    int rc = hs_dbc_load_file("hil/dbc/mech/quarter_car.dbc", &q, m, sizeof m);
    CHECK_NAMED(rc == 0 && q.nmsg == 4 && q.msg[1].secoc == HS_SECOC_CRYPTO && q.msg[0].secoc_by == 1 &&
                q.sig[q.msg[1].secoc_fv].len == 16 && q.sig[q.msg[1].secoc_mac].len == 48,
                "quarter_car.dbc: EcuCommandAuth (16-bit freshness, 48-bit MAC) authenticates EcuCommand1");
    CHECK_NAMED(rc == 0 && q.msg[3].secoc == HS_SECOC_CRYPTO && q.msg[2].secoc_by == 3 &&
                q.sig[q.msg[3].secoc_fv].len == 16 && q.sig[q.msg[3].secoc_mac].len == 48,
                "quarter_car.dbc: PlantStateAuth (16-bit freshness, 48-bit MAC) authenticates PlantState1");
    static const uint8_t key[32] = {0x31, 0xA7, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                                    16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
    hs_mac k;
    hs_mac_init(&k, key, sizeof key);
    rc = hs_can_bind(&P, &q, qin, 2, qout, 2, 10000u, &err) | hs_can_map(&P, NULL, "qc", ps, 4, &pm, &err);
    rc |= hs_can_bind(&O, &q, qin, 2, qout, 2, 10000u, &err) | hs_can_map(&O, NULL, "qc", os, 4, &om, &err);
    rc |= hs_can_bind(&E, &q, qout, 2, qin, 2, 10000u, &err) | hs_can_map(&E, NULL, "ecu", es, 4, &em, &err);
    CHECK_NAMED(rc == 0 && P.dir[1] == (uint8_t)HS_SIG_IN && E.dir[1] == (uint8_t)HS_SIG_OUT,
                "plant and ECU bind it; EcuCommandAuth goes the commands' way");
    P.secoc_key = &k;
    E.secoc_key = &k;
    O.secoc_off = 1u; /* before: E2E only */
    hs_rx_init(&prx, &pm, HS_FRAME_KIND_TO_PLANT);
    hs_rx_init(&orx, &om, HS_FRAME_KIND_TO_PLANT);
    hs_tx_init(&etx, &em, HS_FRAME_KIND_TO_PLANT, 1u);
    uint8_t cmd[64], au[64], rec_cmd[64], rec_au[64], forged[64];
    hs_real in[2], oin[2];
    int exact = 0, forged_applied_old = 0, forged_applied = 0, replay_applied_old = 0, replay_applied = 0;
    double last_z = 0.0;
    for (int c = 0; c < 60; ++c) {
        const double z = 1e-3 * (double)(c % 7) - 2.5e-3, F = 37.5 * (double)c - 900.0;
        qc_cycle(&E, &etx, z, F, cmd, au);
        if (c == 15) { memcpy(rec_cmd, cmd, 8); memcpy(rec_au, au, 8); }
        if (c == 10) {
            /* the genuine command lost; a forger (no key) sends F_act = 4999 N with the genuine's
             * counter and a right CRC, before the genuine EcuCommandAuth */
            memcpy(forged, cmd, 8);
            hs_can_put_raw(&q.sig[1], forged, hs_can_phys_to_raw(&q.sig[1], 4999.0, &rc));
            forged[7] = hs_e2e_crc(HS_E2E_J1850, q.msg[0].e2e_data_id, forged, 8, 7);
            qc_deliver(&P, &prx, forged, au, in);
            qc_deliver(&O, &orx, forged, au, oin);
            forged_applied += in[1] == 4999.0;
            forged_applied_old += oin[1] == 4999.0;
            exact += in[0] == last_z; /* the last good value holds */
            continue;
        }
        if (c == 31) {
            /* the genuine cycle lost; cycle 15 replayed whole (its 4-bit counter is this cycle's) */
            qc_deliver(&P, &prx, rec_cmd, rec_au, in);
            qc_deliver(&O, &orx, rec_cmd, rec_au, oin);
            replay_applied += in[1] == 37.5 * 15.0 - 900.0;
            replay_applied_old += oin[1] == 37.5 * 15.0 - 900.0;
            exact += in[0] == last_z;
            continue;
        }
        qc_deliver(&P, &prx, cmd, (c == 40) ? NULL : au, in); /* cycle 40: its EcuCommandAuth lost */
        qc_deliver(&O, &orx, cmd, au, oin);
        /* applied bit for bit: the decoded raw value of what the ECU encoded (the codec's
         * rounding, within factor / 2 of the value sent) */
        const double wz = hs_can_raw_to_phys(&q.sig[0], hs_can_phys_to_raw(&q.sig[0], z, &rc));
        const double wf = hs_can_raw_to_phys(&q.sig[1], hs_can_phys_to_raw(&q.sig[1], F, &rc));
        if (c == 40) {
            exact += (in[0] == last_z) ? 1 : 0;
            continue;
        }
        exact += (in[0] == wz && in[1] == wf && fabs(wf - F) <= 1e-4 && fabs(wz - z) <= 1e-8) ? 1 : 0;
        last_z = wz;
    }
    hs_rx_finish(&prx);
    char buf[400];
    snprintf(buf, sizeof buf, "60 cycles: %d applied bit for bit or held at the last good value; forged F_act (lost genuine, "
             "right counter and CRC, no key) applied %d (E2E only: %d); cycle 15 replayed at 31 applied %d (E2E only: %d); "
             "unverified %llu, secoc_mac %llu, secoc_stale %llu, alarms %llu, verified %llu, held %u",
             exact, forged_applied, forged_applied_old, replay_applied, replay_applied_old,
             (unsigned long long)P.rejected[HS_CAN_SECOC_UNVERIFIED], (unsigned long long)P.rejected[HS_CAN_SECOC_MAC],
             (unsigned long long)P.rejected[HS_CAN_SECOC_STALE], (unsigned long long)hs_can_e2e_alarms(&P),
             (unsigned long long)P.secoc_verified, hs_can_held(&P));
    /* refused: the forged frame (10), the replayed frame (31), cycle 40's command (its MAC lost,
     * let go when cycle 41's arrives); the genuine EcuCommandAuth of 10 fails (its MAC covers the
     * genuine command, not the forged one held: secoc_mac), the replayed one of 15 is stale. */
    CHECK_NAMED(exact == 60 && forged_applied == 0 && forged_applied_old == 1 && replay_applied == 0 &&
                replay_applied_old == 1 && P.rejected[HS_CAN_SECOC_UNVERIFIED] == 3 &&
                P.rejected[HS_CAN_SECOC_MAC] == 1 && P.rejected[HS_CAN_SECOC_STALE] == 1 && hs_can_e2e_alarms(&P) == 5 &&
                P.secoc_verified == 57 && P.secoc_refused == 2u && P.rejected[HS_CAN_OK] == 57 && hs_can_held(&P) == 0u &&
                P.rx_frames == P.rejected[HS_CAN_OK] + P.secoc_verified + hs_can_rejected_total(&P) + hs_can_held(&P) &&
                hs_can_e2e_alarms(&O) == 0u && !strcmp(hs_can_reason_name(HS_CAN_SECOC_UNVERIFIED), "secoc_unverified"),
                buf);
    /* a plant without the key refuses every cycle; its inputs stay on their fallbacks */
    P.secoc_key = NULL;
    qc_cycle(&E, &etx, 1e-3, 100.0, cmd, au);
    qc_deliver(&P, &prx, cmd, au, in);
    CHECK_NAMED(P.rejected[HS_CAN_SECOC_MAC] == 2 && P.rejected[HS_CAN_SECOC_UNVERIFIED] == 4 && in[1] != 100.0 &&
                P.secoc_refused == 3u,
                "without the key: the cycle refused (secoc_mac, secoc_unverified), nothing applied");
}

/* The DBC parser; signal bits and scaling; the link: binding, receive, staleness, send; E2E
 * and the DBC's limits. */
static const hs_test_case tests[] = {
    HS_TEST_ROW(test_parse),
    HS_TEST_ROW(test_bits),
    HS_TEST_ROW(test_link),
    HS_TEST_ROW(test_e2e),
    HS_TEST_ROW(test_limits),
    HS_TEST_ROW(test_secoc),
    HS_TEST_ROW(test_secoc_collection),
};

int main(void)
{
    return hs_test_run("can-unit", tests, HS_TEST_COUNT(tests), 0) != 0;
}
