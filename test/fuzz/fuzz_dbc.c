/* fuzz_dbc.c - libFuzzer harness of the DBC parser (hil/hs_dbc.c) and what follows a parse:
 * binding to an application (hs_can_bind), the map (hs_can_map), encoding every output message
 * and decoding it back (hil/hs_can.c).
 *
 * Input: DBC text. Checked invariants (abort on violation): a refused file has an error text and
 * an empty table; an accepted one has messages whose signals lie inside their payload and never
 * share a bit, lengths a classic or FD frame can carry, unique ids and names; binding its signals
 * (alternately as inputs and outputs, message by message) and encoding any value then decoding
 * gives back the raw value for every signal (bit placement is a bijection). */
#include "hs_can.h"

#include <stdlib.h>
#include <string.h>

static void require(int ok)
{
    if (!ok) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static hs_can_db db;
    hs_dbc_error err;
    if (hs_dbc_parse((const char *)data, size, &db, &err) != 0) {
        require(err.msg[0] != '\0' && db.nmsg == 0 && db.nsig == 0);
        return 0;
    }
    require(db.nmsg >= 1 && db.nmsg <= HS_CAN_MAX_MSGS && db.nsig <= HS_CAN_MAX_SIGS);
    uint16_t pos[64];
    for (int m = 0; m < db.nmsg; ++m) {
        const hs_can_msg *M = &db.msg[m];
        static uint8_t owner[HS_CAN_MAX_LEN * 8];
        memset(owner, 0, sizeof owner);
        require(M->fd ? hs_can_dlc_to_len((unsigned)hs_can_len_to_dlc(M->len)) == M->len : M->len <= 8);
        require(M->ext ? M->id <= 0x1FFFFFFFu : M->id <= 0x7FFu);
        for (int k = 0; k < m; ++k)
            require(!(db.msg[k].id == M->id && db.msg[k].ext == M->ext) && strcmp(db.msg[k].name, M->name));
        for (int j = M->first; j < M->first + M->n; ++j) {
            require(hs_can_sig_bits(&db.sig[j], M->len, pos) == 0);
            for (unsigned i = 0; i < db.sig[j].len; ++i) {
                require(pos[i] < M->len * 8u && owner[pos[i]] == 0);
                owner[pos[i]] = 1;
            }
        }
    }
    /* Bind to a made-up application; the input's length picks how (so seeds of chosen lengths
     * reach every refusal): 0 messages alternate between inputs and outputs; 1 every name an
     * output but the last missing; 2 signals alternate (a message mixes directions); 3 an
     * extra output or input the DBC lacks; 4 alternate, with a safety map of range [0, 1]; 5 alternate,
     * map storage of 1 entry; 6 alternate, names given with '.' for '_'. */
    /* room for every signal of the DBC (+ the extra name): binding more than the frame carries
     * must be refused by the binder, not overflow here */
    const char *in[HS_CAN_MAX_SIGS + 1], *out[HS_CAN_MAX_SIGS + 1];
    static char dotted[HS_CAN_MAX_SIGS][HS_CAN_NAME];
    int nin = 0, nout = 0, k = 0;
    const unsigned mode = (unsigned)(size % 7u);
    for (int m = 0; m < db.nmsg; ++m)
        for (int j = db.msg[m].first; j < db.msg[m].first + db.msg[m].n; ++j, ++k) {
            const char *nm = db.sig[j].name;
            if (mode == 6u) {
                memcpy(dotted[j], nm, HS_CAN_NAME);
                for (int c = 0; dotted[j][c]; ++c) if (dotted[j][c] == '_') dotted[j][c] = '.';
                nm = dotted[j];
            }
            const int as_in = mode == 1u ? 0 : mode == 2u ? (k % 2 == 0) : (m % 2 == 0);
            if (as_in) in[nin++] = nm;
            else out[nout++] = nm;
        }
    if (mode == 1u && nout > 0) nout--;
    if (mode == 3u) {
        if ((size / 21u) % 2u == 0u) out[nout++] = "extra";
        else in[nin++] = "extra";
    }
    static hs_can_link L;
    static hs_signal sig[2 * HS_CAN_MAX_SIGS + 2], safe_sig[2 * HS_CAN_MAX_SIGS + 2];
    hs_signal_map map, safety;
    const unsigned pm = (unsigned)(size / 7u % 3u);
    const uint32_t period = pm == 0u ? 1000u : pm == 1u ? 5000u : 7u;
    if (hs_can_bind(&L, &db, in, nin, out, nout, period, &err) != 0) {
        require(err.msg[0] != '\0');
        return 0;
    }
    for (int i = 0; i < nin + nout; ++i) {
        hs_signal g = {i < nin ? in[i] : out[i - nin], "1", i < nin ? HS_SIG_IN : HS_SIG_OUT, 1.0, 0.0, 0.0, 1.0, 0.5, 20u};
        safe_sig[i] = g;
    }
    safety.app = "safety";
    safety.sig = safe_sig;
    safety.n = nin + nout;
    if (hs_can_map(&L, mode == 4u ? &safety : NULL, "fuzz", sig, mode == 5u ? 1 : (int)(sizeof sig / sizeof sig[0]),
                   &map, &err) != 0) {
        require(err.msg[0] != '\0');
        return 0;
    }
    for (int i = 0; i < map.n; ++i) require(map.sig[i].min <= map.sig[i].fallback && map.sig[i].fallback <= map.sig[i].max);
    static hs_tx tx;
    (void)hs_tx_init(&tx, &map, HS_FRAME_KIND_FROM_PLANT, 1u);
    hs_real y[HS_FRAME_MAX_VALUES];
    for (int i = 0; i < nout; ++i) y[i] = (hs_real)((double)(i * 37 % 11) - 5.0) * (hs_real)1.5;
    uint8_t buf[HS_CAN_MAX_LEN];
    for (int m = 0; m < db.nmsg; ++m) {
        const size_t n = hs_can_encode(&L, m, &tx, (m % 4 == 1) ? NULL : y, buf);
        require(n == (L.dir[m] == HS_SIG_OUT ? db.msg[m].len : 0u));
        (void)hs_can_due(&L, m, (uint64_t)size);
        /* raw values survive a round trip through the payload */
        for (int j = db.msg[m].first; j < db.msg[m].first + db.msg[m].n; ++j) {
            const hs_can_sig *s = &db.sig[j];
            const int64_t raw = (int64_t)((uint64_t)0x5DEECE66DULL * (uint64_t)(j + 1)) >> (64 - s->len);
            const int64_t want = s->is_signed ? raw : (int64_t)((uint64_t)raw & (s->len >= 64 ? ~0ULL : ((1ULL << s->len) - 1u)));
            hs_can_put_raw(s, buf, want);
            require(hs_can_get_raw(s, buf) == want);
            int sat;
            (void)hs_can_phys_to_raw(s, hs_can_raw_to_phys(s, want), &sat);
        }
    }
    return 0;
}
