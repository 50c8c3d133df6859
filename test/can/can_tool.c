/* can_tool.c - build/hilstep-can-tool: hil/hs_can's codec on the command line, so tests can
 * hold it against another implementation of DBC semantics (python3-canmatrix) and write
 * synthetic bus logs.
 *
 *   hilstep-can-tool encode DBC   stdin: "MSG v1 .. vn" (physical values of the data signals,
 *                                 signal order; "r:N" = raw value N, for signals over 53 bits;
 *                                 an E2E message gets counter 0, 1, ... and its CRC)
 *                                 stdout: "MSG ID HEX" (HEX = the payload, DBC length)
 *   hilstep-can-tool decode DBC   stdin: "MSG HEX"; stdout: "MSG raw1 phys1 .. rawn physn"
 *                                 (raw as integers, phys as %.17g)
 *   hilstep-can-tool check DBC    parse only: prints "ok N messages M signals" or the error
 *   hilstep-can-tool receive DBC [KEY]  every message received (all data signals bound as
 *                                 inputs): stdin "MSG HEX"; stdout "MSG REASON" (hs_can_reason_name:
 *                                 accepted, e2e_crc, secoc_mac, secoc_stale, ...), no cadence check;
 *                                 an authentic message of a SecOC collection prints "held", its
 *                                 cryptographic message its verdict, then "applied MSG v1 .. vn"
 *                                 (%.17g) for each message of the cycle it applied
 * KEY (hex) is the key of SecOC messages (encode: freshness 1, 2, ... per message and the MAC;
 * a collection's cryptographic message: its MAC over the frames last encoded of its authentic
 * messages; receive: checked); without it their MAC is 0 and they are refused.
 * Exit status: 0 ok, 2 bad DBC (FILE:LINE: why on stderr), 1 bad input line. */
#include "hs_dbc_file.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static hs_can_db db;
static unsigned ctr[HS_CAN_MAX_MSGS]; /* encode: next alive counter of each E2E message */
static uint64_t fv[HS_CAN_MAX_MSGS];   /* encode: last freshness value of each SecOC message */
static uint8_t last[HS_CAN_MAX_MSGS][HS_CAN_MAX_LEN]; /* encode: last payload of each message */
static hs_mac key;
static int have_key;

static int find(const char *name)
{
    for (int m = 0; m < db.nmsg; ++m)
        if (!strcmp(db.msg[m].name, name)) return m;
    return -1;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

int main(int argc, char **argv)
{
    char msg[512], line[8192];
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: hilstep-can-tool encode|decode|check|receive DBC [KEY]\n");
        return 1;
    }
    if (argc == 4) {
        uint8_t kb[HS_MAC_KEY_MAX];
        size_t kn = strlen(argv[3]) / 2;
        if (kn < 1 || kn > sizeof kb) { fprintf(stderr, "hilstep-can-tool: KEY: 1..64 bytes of hex\n"); return 1; }
        for (size_t i = 0; i < kn; ++i) {
            int a = hexval(argv[3][2 * i]), b = hexval(argv[3][2 * i + 1]);
            if (a < 0 || b < 0) { fprintf(stderr, "hilstep-can-tool: KEY: bad hex\n"); return 1; }
            kb[i] = (uint8_t)(a * 16 + b);
        }
        hs_mac_init(&key, kb, kn);
        have_key = 1;
    }
    if (hs_dbc_load_file(argv[2], &db, msg, sizeof msg) != 0) {
        fprintf(stderr, "hilstep-can-tool: %s\n", msg);
        return 2;
    }
    if (!strcmp(argv[1], "check")) {
        printf("ok %d messages %d signals\n", db.nmsg, db.nsig);
        return 0;
    }
    const int enc = !strcmp(argv[1], "encode"), rcv = !strcmp(argv[1], "receive");
    static hs_can_link L;
    static hs_signal sig[HS_CAN_MAX_SIGS];
    static hs_signal_map map;
    static hs_rx rx;
    if (rcv) {
        static const char *names[HS_CAN_MAX_SIGS];
        int n = 0;
        hs_dbc_error e;
        for (int j = 0; j < db.nsig; ++j)
            if (!db.sig[j].e2e_role) names[n++] = db.sig[j].name;
        if (hs_can_bind(&L, &db, names, n, NULL, 0, 10000u, &e) != 0 ||
            hs_can_map(&L, NULL, "receive", sig, HS_CAN_MAX_SIGS, &map, &e) != 0) {
            fprintf(stderr, "hilstep-can-tool: receive: %s\n", e.msg);
            return 2;
        }
        L.secoc_key = have_key ? &key : NULL;
        hs_rx_init(&rx, &map, HS_FRAME_KIND_TO_PLANT);
    }
    while (fgets(line, sizeof line, stdin)) {
        char *save = NULL, *tok = strtok_r(line, " \t\n", &save);
        if (!tok) continue;
        const int m = find(tok);
        if (m < 0) { fprintf(stderr, "hilstep-can-tool: no message %s\n", tok); return 1; }
        const hs_can_msg *M = &db.msg[m];
        uint8_t data[HS_CAN_MAX_LEN];
        memset(data, 0, sizeof data);
        if (enc) {
            for (int j = 0; j < M->n; ++j) {
                const hs_can_sig *s = &db.sig[M->first + j];
                if (s->e2e_role) continue; /* written below */
                char *v = strtok_r(NULL, " \t\n", &save);
                if (!v) { fprintf(stderr, "hilstep-can-tool: %s: a value for each of its data signals needed\n", M->name); return 1; }
                int sat;
                /* "r:N" is a raw value: signals over 53 bits have raw values no double holds */
                if (!strncmp(v, "r:", 2))
                    hs_can_put_raw(s, data, s->is_signed ? (int64_t)strtoll(v + 2, NULL, 10)
                                                         : (int64_t)strtoull(v + 2, NULL, 10));
                else
                    hs_can_put_raw(s, data, hs_can_phys_to_raw(s, strtod(v, NULL), &sat));
            }
            if (M->e2e) {
                /* E2E: the message's own running counter (0, 1, ... per message), then the CRC */
                const hs_can_sig *k = &db.sig[M->e2e_ctr];
                const unsigned cb = db.sig[M->e2e_crc].start / 8u;
                hs_can_put_raw(k, data, (int64_t)(ctr[m]++ & ((1u << k->len) - 1u)));
                (void)cb;
            }
            if (M->secoc == HS_SECOC_CRYPTO) {
                /* a collection's cryptographic message: freshness, then the MAC over the last
                 * frame of each of its authentic messages, in DBC order */
                hs_secoc_part part[HS_CAN_MAX_MSGS];
                unsigned np = 0;
                const hs_can_sig *f = &db.sig[M->secoc_fv], *t = &db.sig[M->secoc_mac];
                for (int k = 0; k < db.nmsg; ++k) {
                    if (db.msg[k].secoc_by != m) continue;
                    part[np].id = db.msg[k].id | (db.msg[k].ext ? 0x80000000u : 0u);
                    part[np].dlc = (unsigned)hs_can_len_to_dlc(db.msg[k].len);
                    part[np].len = db.msg[k].len;
                    part[np].data = last[k];
                    np++;
                }
                hs_can_put_raw(f, data, (int64_t)(++fv[m] & ((1ull << f->len) - 1u)));
                if (have_key) hs_secoc_coll_tag(&key, part, np, fv[m], t->len / 8u, &data[t->start / 8u]);
            } else if (M->secoc) {
                /* SecOC: the next freshness value (1, 2, ...), the MAC over it, before the CRC */
                const hs_can_sig *f = &db.sig[M->secoc_fv], *t = &db.sig[M->secoc_mac];
                const hs_secoc_layout l = {M->e2e_data_id, M->len, t->start / 8u, t->len / 8u,
                                           M->e2e ? db.sig[M->e2e_crc].start / 8u : M->len, f->len};
                hs_can_put_raw(f, data, (int64_t)(++fv[m] & ((1ull << f->len) - 1u)));
                if (have_key) hs_secoc_tag(&key, &l, data, fv[m], &data[l.mac_byte]);
            }
            if (M->e2e) {
                const unsigned cb = db.sig[M->e2e_crc].start / 8u;
                data[cb] = hs_e2e_crc(M->e2e, M->e2e_data_id, data, M->len, cb);
            }
            memcpy(last[m], data, M->len);
            printf("%s %" PRIu32 " ", M->name, M->id);
            for (unsigned i = 0; i < M->len; ++i) printf("%02X", data[i]);
            printf("\n");
        } else {
            char *h = strtok_r(NULL, " \t\n", &save);
            size_t n = h ? strlen(h) : 0;
            if (n != 2u * M->len) { fprintf(stderr, "hilstep-can-tool: %s: %u bytes of hex needed\n", M->name, M->len); return 1; }
            for (size_t i = 0; i < M->len; ++i) {
                int a = hexval(h[2 * i]), b = hexval(h[2 * i + 1]);
                if (a < 0 || b < 0) { fprintf(stderr, "hilstep-can-tool: bad hex\n"); return 1; }
                data[i] = (uint8_t)(a * 16 + b);
            }
            if (rcv) {
                const uint32_t seq0 = L.accepted_seq;
                const int r = hs_can_receive(&L, &rx, M->id, M->ext, M->fd, data, M->len);
                printf("%s %s\n", M->name, (r == HS_CAN_OK && M->secoc_by >= 0 && L.held[m]) ? "held" : hs_can_reason_name(r));
                if (M->secoc == HS_SECOC_CRYPTO && L.accepted_seq != seq0) {
                    /* the cycle applied: each of its messages' values as the receive side holds them */
                    for (int k = 0; k < db.nmsg; ++k) {
                        if (db.msg[k].secoc_by != m) continue;
                        printf("applied %s", db.msg[k].name);
                        for (int j = db.msg[k].first; j < db.msg[k].first + db.msg[k].n; ++j)
                            if (!db.sig[j].e2e_role) printf(" %.17g", rx.pending_v[L.slot[j]]);
                        printf("\n");
                    }
                }
                continue;
            }
            printf("%s", M->name);
            for (int j = 0; j < M->n; ++j) {
                const hs_can_sig *s = &db.sig[M->first + j];
                const int64_t raw = hs_can_get_raw(s, data);
                if (!s->is_signed && s->len == 64) printf(" %" PRIu64, (uint64_t)raw);
                else printf(" %" PRId64, raw);
                printf(" %.17g", hs_can_raw_to_phys(s, raw));
            }
            printf("\n");
        }
    }
    return 0;
}
