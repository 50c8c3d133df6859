/* fuzz_frame.c - libFuzzer harness of the HIL frame decoder and the receive validation
 * (hil/hs_frame.c, hil/hs_signal.c: hs_frame_parse, hs_rx_offer, hs_rx_tick).
 *
 * Input: byte 0 picks the link (value count 0..64 for the bare decoder), byte 1 holds mode
 * bits; the rest is a list of datagrams, each as one length byte then that many bytes. With
 * mode bit 0 the harness re-seals each datagram's CRC so the fuzzer reaches the checks behind
 * it (layout, finiteness, session and sequence rules) instead of stopping at the checksum.
 * Mode bit 4 runs both parts on an authenticated link (hil/hs_mac.c: version-2 frames under a
 * fixed key); with bit 0 the harness then re-tags before re-sealing, so the fuzzer gets past
 * the MAC as well. Mode bit 5 (with bit 4) gives the link a run challenge (an authenticated
 * plant's): then only frames answering it are accepted, challenge 0 is unanswered and any
 * other an old run's.
 * Checked invariants (abort on violation): every datagram lands in exactly one counter,
 * accepted = used + superseded + pending, a decoded frame re-encodes to the same bytes, and
 * applied inputs stay inside their signal's [min, max]; with a challenge, a frame the decoder
 * accepts but that answers another challenge is refused as old_run / unanswered (predicted
 * from the decoder's challenge), and a refused datagram leaves the pending values as they
 * were. */
#include "hs_apps.h"
#include "hs_frame.h"
#include "hs_signal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void require(int ok)
{
    if (!ok) abort();
}

/* A fixed key longer than a SHA-256 block (hashed first, RFC 2104) for the keyed mode. */
static const hs_mac *fuzz_key(void)
{
    static hs_mac m;
    static int ready;
    if (!ready) {
        uint8_t k[70];
        for (unsigned i = 0; i < sizeof k; ++i) k[i] = (uint8_t)(i * 7u + 1u);
        hs_mac_init(&m, k, sizeof k);
        ready = 1;
    }
    return &m;
}

/* Keyed mode with re-sealing: a datagram of a version-2 length gets its tag recomputed. */
static void retag(uint8_t *buf, size_t len, const hs_mac *mac)
{
    if (mac == NULL || len < HS_FRAME_MAC_BYTES(0) || (len - HS_FRAME_MAC_BYTES(0)) % 8u != 0) return;
    const size_t body = len - HS_FRAME_TRAILER_BYTES - HS_MAC_TAG_BYTES;
    hs_mac_tag(mac, buf, body, buf + body);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    const unsigned count = data[0] % (HS_FRAME_MAX_VALUES + 1u);
    const unsigned mode = data[1];
    data += 2;
    size -= 2;
    const hs_mac *mac = (mode & 0x10u) ? fuzz_key() : NULL;

    /* 1. The bare decoder on the whole rest, for a link of `count` values. */
    {
        hs_frame_hdr h;
        double v[HS_FRAME_MAX_VALUES];
        uint8_t again[HS_FRAME_MAX_BYTES];
        const unsigned kind = (mode & 2u) ? HS_FRAME_KIND_FROM_PLANT : HS_FRAME_KIND_TO_PLANT;
        int r = hs_frame_parse_mac(data, size, kind, count, mac, &h, v);
        require(r >= 0 && r < HS_RX_REASONS && r != HS_RX_FOREIGN);
        if (r == HS_RX_OK) {
            require(size == (mac ? HS_FRAME_MAC_BYTES(count) : HS_FRAME_BYTES(count)) &&
                    h.count == count && h.kind == kind);
            size_t n = hs_frame_encode_mac(again, sizeof again, &h, v, mac);
            require(n == size && memcmp(again, data, n) == 0);
        }
    }

    /* 2. The plant's receive side of the circular track, datagram by datagram. */
    static hs_rx rx;
    const hs_signal_map *map = &hs_map_circular_track_plant;
    require(hs_rx_init(&rx, map, HS_FRAME_KIND_TO_PLANT) == 0);
    rx.mac = mac;
    const uint64_t run = UINT64_C(0x0123456789ABCDEF);
    if (mac && (mode & 0x20u)) rx.challenge = run;
    uint64_t offered = 0, ticks_fresh = 0;
    size_t i = 0;
    while (i < size) {
        size_t len = data[i++];
        if (len > size - i) len = size - i;
        uint8_t buf[256 + 8];
        memcpy(buf, data + i, len);
        i += len;
        if (mode & 1u) retag(buf, len, mac);
        if ((mode & 1u) && len >= HS_FRAME_TRAILER_BYTES)
            hs_put_u32(buf + len - HS_FRAME_TRAILER_BYTES, hs_crc32(buf, len - HS_FRAME_TRAILER_BYTES));
        const int from_peer = !((mode & 4u) && len > 0 && (buf[0] & 1u));
        /* the decoder's own reading, for the prediction */
        hs_frame_hdr ph;
        double pv[HS_FRAME_MAX_VALUES];
        uint64_t pc = 0;
        const int pr = hs_frame_parse_auth(buf, len, HS_FRAME_KIND_TO_PLANT, rx.n, mac, &pc, &ph, pv);
        static double before_v[HS_FRAME_MAX_VALUES];
        static uint8_t before_p[HS_FRAME_MAX_VALUES];
        memcpy(before_v, rx.pending_v, sizeof before_v);
        memcpy(before_p, rx.pend, sizeof before_p);
        const int before_pending = rx.pending;
        int r = hs_rx_offer(&rx, buf, len, from_peer);
        require(r >= 0 && r < HS_RX_REASONS);
        if (!from_peer) require(r == HS_RX_FOREIGN);
        else if (pr != HS_RX_OK) require(r == pr);
        else if (rx.challenge != 0u && pc != rx.challenge) require(r == (pc == 0u ? HS_RX_UNANSWERED : HS_RX_OLD_RUN));
        if (r != HS_RX_OK)
            require(rx.pending == before_pending && !memcmp(before_v, rx.pending_v, sizeof before_v) &&
                    !memcmp(before_p, rx.pend, sizeof before_p));
        ++offered;
        if ((mode & 8u) || (len > 0 && (buf[len - 1] & 0x10u))) {
            hs_real in[HS_FRAME_MAX_VALUES];
            ticks_fresh += (uint64_t)hs_rx_tick(&rx, in);
            for (unsigned k = 0; k < rx.n; ++k)
                require((double)in[k] >= rx.sig[k]->min && (double)in[k] <= rx.sig[k]->max);
        }
    }
    const hs_rx_stats *s = &rx.st;
    require(s->datagrams == offered);
    require(s->datagrams == s->accepted + hs_rx_rejected_total(&rx));
    require(s->accepted == s->used + s->superseded + (uint64_t)rx.pending);
    require(s->used == ticks_fresh);
    return 0;
}
