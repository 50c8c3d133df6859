/* secoc_bench.c - build/hilstep-can-mac-bench: the per-frame cost of CAN protection, for
 * callgrind (make can-mac-bench). Binds DBC (argument 1) as the circular track's plant and its
 * ECU under one key, then the ECU encodes 1000 EcuCommand frames (hs_can_encode) and the plant
 * receives each (hs_can_receive_at); with "forged" (argument 2) the plant receives 1000 forged
 * frames instead (the MAC changed, the CRC right: the receive side's dearest path, two tags
 * for a SecOC message). Both ends start as after 1000 frames. The inclusive instruction counts per call are the cost per frame.
 * A DBC with a SecOC collection (a shipped one with inputs) is bound with its commands' signals
 * as the plant's inputs and the rest as outputs; 1000 cycles are sent (every command, then the
 * cryptographic message) and received: the counts over 1000 are the cost per cycle. "forged":
 * the cryptographic message's MAC altered; "off": the collection not checked (secoc_off: E2E
 * only, the cost without the MAC). */
#include "hs_apps.h"
#include "hs_can.h"
#include "hs_dbc_file.h"

#include <stdio.h>
#include <string.h>

static const char *const in_names[] = {"F_t"};
static const char *const out_names[] = {"speed", "radius", "x1", "x2"};

/* The collection bench: 1000 cycles of every command message and the cryptographic one. */
static int collection(const hs_can_db *db, const hs_mac *k, const char *mode)
{
    static const char *in[HS_CAN_MAX_SIGS], *out[HS_CAN_MAX_SIGS];
    static hs_can_link P, E;
    static hs_signal ps[HS_CAN_MAX_SIGS], es[HS_CAN_MAX_SIGS];
    static hs_signal_map pm, em;
    static hs_rx rx;
    static hs_tx tx;
    static hs_real y[HS_CAN_MAX_SIGS];
    hs_dbc_error err;
    uint8_t fr[HS_CAN_MAX_LEN];
    int nin = 0, nout = 0, c = -1;
    /* the first collection (the commands: a DBC authenticating both ways has two) */
    for (int m = db->nmsg - 1; m >= 0; --m)
        if (db->msg[m].secoc == HS_SECOC_CRYPTO && db->msg[m].secoc_by < 0 && db->msg[m].n > 0) c = m;
    for (int m = 0; m < db->nmsg; ++m) {
        for (int j = db->msg[m].first; j < db->msg[m].first + db->msg[m].n; ++j) {
            if (db->sig[j].e2e_role) continue;
            if (db->msg[m].secoc_by == c) in[nin++] = db->sig[j].name;
            else out[nout++] = db->sig[j].name;
        }
    }
    if (hs_can_bind(&P, db, in, nin, out, nout, 10000u, &err) != 0 || hs_can_map(&P, NULL, "plant", ps, HS_CAN_MAX_SIGS, &pm, &err) != 0 ||
        hs_can_bind(&E, db, out, nout, in, nin, 10000u, &err) != 0 || hs_can_map(&E, NULL, "ecu", es, HS_CAN_MAX_SIGS, &em, &err) != 0) {
        fprintf(stderr, "hilstep-can-mac-bench: %s\n", err.msg);
        return 2;
    }
    P.secoc_key = k;
    E.secoc_key = k;
    P.e2e_cadence_off = 1u;
    P.secoc_off = (uint8_t)!strcmp(mode, "off");
    E.secoc_off = P.secoc_off;
    P.secoc_rx[c] = 1000u;
    E.secoc_tx[c] = 1000u;
    hs_rx_init(&rx, &pm, HS_FRAME_KIND_TO_PLANT);
    hs_tx_init(&tx, &em, HS_FRAME_KIND_TO_PLANT, 1u);
    unsigned ncmd = 0;
    for (uint64_t n = 1; n <= 1000; ++n) {
        ncmd = 0;
        for (int m = 0; m < db->nmsg; ++m) {
            const hs_can_msg *M = &db->msg[m];
            if (E.dir[m] != HS_SIG_OUT) continue;
            const size_t len = hs_can_encode(&E, m, &tx, y, fr);
            if (m == c && !strcmp(mode, "forged")) fr[db->sig[M->secoc_mac].start / 8u] ^= 0x5Au;
            (void)hs_can_receive_at(&P, &rx, M->id, M->ext, M->fd, fr, len, n * 10000u);
            ncmd += (m != c);
        }
        (void)hs_rx_tick(&rx, NULL);
    }
    printf("can-mac-bench: %u command messages + %s per cycle: %llu verified, %llu commands applied, %llu refused\n",
           ncmd, db->msg[c].name, (unsigned long long)P.secoc_verified, (unsigned long long)P.rejected[HS_CAN_OK],
           (unsigned long long)P.rejected[HS_CAN_SECOC_UNVERIFIED]);
    const uint64_t want = 1000u * ncmd;
    if (!strcmp(mode, "forged")) return (P.rejected[HS_CAN_OK] == 0u && P.rejected[HS_CAN_SECOC_UNVERIFIED] == want) ? 0 : 1;
    return (P.rejected[HS_CAN_OK] == want) ? 0 : 1;
}

int main(int argc, char **argv)
{
    static hs_can_db db;
    static hs_can_link P, E;
    static hs_signal ps[8], es[8];
    static hs_signal_map pm, em;
    static hs_rx rx;
    static hs_tx tx;
    hs_dbc_error err;
    char why[256];
    uint8_t key[32], fr[HS_CAN_MAX_LEN];
    hs_mac k;
    const int forged = argc > 2 && !strcmp(argv[2], "forged");
    if (argc < 2 || hs_dbc_load_file(argv[1], &db, why, sizeof why) != 0) {
        fprintf(stderr, "usage: hilstep-can-mac-bench DBC [forged] (%s)\n", argc < 2 ? "" : why);
        return 2;
    }
    for (unsigned i = 0; i < sizeof key; ++i) key[i] = (uint8_t)(i * 7u + 1u);
    hs_mac_init(&k, key, sizeof key);
    for (int j = 0; j < db.nmsg; ++j)
        if (db.msg[j].secoc == HS_SECOC_CRYPTO) return collection(&db, &k, argc > 2 ? argv[2] : "");
    if (hs_can_bind(&P, &db, in_names, 1, out_names, 4, 10000u, &err) != 0 ||
        hs_can_map(&P, &hs_map_circular_track_plant, "circular_track", ps, 8, &pm, &err) != 0 ||
        hs_can_bind(&E, &db, out_names, 4, in_names, 1, 10000u, &err) != 0 ||
        hs_can_map(&E, NULL, "ecu", es, 8, &em, &err) != 0) {
        fprintf(stderr, "hilstep-can-mac-bench: %s\n", err.msg);
        return 2;
    }
    P.secoc_key = &k;
    E.secoc_key = &k;
    P.e2e_cadence_off = 1u;
    hs_rx_init(&rx, &pm, HS_FRAME_KIND_TO_PLANT);
    hs_tx_init(&tx, &em, HS_FRAME_KIND_TO_PLANT, 1u);
    int m = -1;
    for (int j = 0; j < db.nmsg; ++j)
        if (!strcmp(db.msg[j].name, "EcuCommand")) m = j;
    if (m < 0) return 2;
    const hs_can_msg *M = &db.msg[m];
    /* as after 1000 frames: a refused frame's second try (one freshness window back) exists */
    P.secoc_rx[m] = 1000u;
    E.secoc_tx[m] = 1000u;
    hs_real y[1] = {2.0};
    unsigned ok = 0;
    for (uint64_t n = 1; n <= 1000; ++n) {
        const size_t len = hs_can_encode(&E, m, &tx, y, fr);
        if (forged && M->secoc) {
            const hs_can_sig *t = &db.sig[M->secoc_mac];
            fr[t->start / 8u] ^= 0x5Au;
            if (M->e2e) {
                const unsigned cb = db.sig[M->e2e_crc].start / 8u;
                fr[cb] = hs_e2e_crc(M->e2e, M->e2e_data_id, fr, len, cb);
            }
        }
        ok += hs_can_receive_at(&P, &rx, M->id, M->ext, M->fd, fr, len, n * 10000u) == HS_CAN_OK;
    }
    printf("can-mac-bench: %s: %u of 1000 EcuCommand frames accepted%s\n", argv[1], ok, forged ? " (forged)" : "");
    return (forged ? ok == 0u : ok == 1000u) ? 0 : 1;
}
