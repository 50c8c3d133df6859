/* hs_secoc.c - the truncated MAC and freshness check of hs_secoc.h (hil/CAN.md, "Security"). */
#include "hs_secoc.h"

void hs_secoc_tag(const hs_mac *key, const hs_secoc_layout *l, const uint8_t *payload, uint64_t fv,
                  uint8_t *out)
{
    uint8_t buf[2u + 64u + 8u];
    uint8_t full[HS_SHA256_BYTES];
    size_t n = 0;
    buf[n] = (uint8_t)(l->data_id & 0xFFu);
    n++;
    buf[n] = (uint8_t)(l->data_id >> 8u);
    n++;
    for (unsigned i = 0; (i < l->len) && (i < 64u); ++i) {
        if (((i < l->mac_byte) || (i >= l->mac_byte + l->mac_len)) && (i != l->skip_byte)) {
            buf[n] = payload[i];
            n++;
        }
    }
    uint64_t f = fv;
    for (unsigned b = 0; b < 8u; ++b) {
        buf[n] = (uint8_t)(f & 0xFFu);
        f >>= 8u;
        n++;
    }
    hs_mac_full(key, buf, n, full);
    for (unsigned i = 0; (i < l->mac_len) && (i < HS_SECOC_MAC_MAX); ++i) {
        out[i] = full[i];
    }
}

/* 1 when the frame's MAC is the tag for fv; every byte compared (no early exit). */
static int tag_ok(const hs_mac *key, const hs_secoc_layout *l, const uint8_t *payload, uint64_t fv)
{
    uint8_t t[HS_SECOC_MAC_MAX];
    unsigned diff = 0u;
    hs_secoc_tag(key, l, payload, fv, t);
    for (unsigned i = 0; (i < l->mac_len) && (i < HS_SECOC_MAC_MAX); ++i) {
        diff |= (unsigned)(t[i] ^ payload[l->mac_byte + i]);
    }
    return (diff == 0u) ? 1 : 0;
}

/* The full freshness value a truncated one (its low fv_bits bits) names: the first value above
 * the last accepted one with those low bits (both checks' window). */
static uint64_t fv_next(uint64_t last, unsigned fv_bits, unsigned fv_trunc)
{
    const uint64_t span = (uint64_t)1u << fv_bits;
    const uint64_t next = (last & ~(span - 1u)) | ((uint64_t)fv_trunc & (span - 1u));
    return (next <= last) ? (next + span) : next;
}

hs_secoc_result hs_secoc_check(const hs_mac *key, const hs_secoc_layout *l, const uint8_t *payload,
                               unsigned fv_trunc, uint64_t *last)
{
    const uint64_t span = (uint64_t)1u << l->fv_bits;
    const uint64_t next = fv_next(*last, l->fv_bits, fv_trunc);
    if (key == NULL) {
        return HS_SECOC_BAD_MAC;
    }
    if (tag_ok(key, l, payload, next) != 0) {
        *last = next;
        return HS_SECOC_OK;
    }
    /* The same low bits one span back: at most *last, so a frame that verifies there carries a
     * freshness value already used (or skipped): a replay. 0 is never sent (freshness starts
     * at 1), so it is not tried. */
    if ((next > span) && (tag_ok(key, l, payload, next - span) != 0)) {
        return HS_SECOC_STALE;
    }
    return HS_SECOC_BAD_MAC;
}

void hs_secoc_coll_tag(const hs_mac *key, const hs_secoc_part *part, unsigned n, uint64_t fv,
                       unsigned mac_len, uint8_t *out)
{
    uint8_t b[8];
    uint8_t ih[HS_SHA256_BYTES];
    uint8_t full[HS_SHA256_BYTES];
    /* HMAC streamed (hs_mac_full's two passes): a collection's input (up to 32 x 69 bytes) is
     * hashed where it lies, never copied into one buffer. */
    hs_sha256 s;
    s = key->inner;
    uint64_t f = fv;
    for (unsigned i = 0; i < 8u; ++i) {
        b[i] = (uint8_t)(f & 0xFFu);
        f >>= 8u;
    }
    hs_sha256_update(&s, b, 8u);
    for (unsigned k = 0; k < n; ++k) {
        const uint32_t id = part[k].id;
        b[0] = (uint8_t)(id & 0xFFu);
        b[1] = (uint8_t)((id >> 8u) & 0xFFu);
        b[2] = (uint8_t)((id >> 16u) & 0xFFu);
        b[3] = (uint8_t)(id >> 24u);
        b[4] = (uint8_t)(part[k].dlc & 0xFFu);
        hs_sha256_update(&s, b, 5u);
        hs_sha256_update(&s, part[k].data, (part[k].len < 64u) ? (size_t)part[k].len : 64u);
    }
    hs_sha256_final(&s, ih);
    s = key->outer;
    hs_sha256_update(&s, ih, sizeof ih);
    hs_sha256_final(&s, full);
    for (unsigned i = 0; (i < mac_len) && (i < HS_SECOC_MAC_MAX); ++i) {
        out[i] = full[i];
    }
}

/* 1 when mac is the collection's tag for fv; every byte compared (no early exit). */
static int coll_ok(const hs_mac *key, const hs_secoc_part *part, unsigned n, uint64_t fv,
                   const uint8_t *mac, unsigned mac_len)
{
    uint8_t t[HS_SECOC_MAC_MAX];
    unsigned diff = 0u;
    hs_secoc_coll_tag(key, part, n, fv, mac_len, t);
    for (unsigned i = 0; (i < mac_len) && (i < HS_SECOC_MAC_MAX); ++i) {
        diff |= (unsigned)(t[i] ^ mac[i]);
    }
    return (diff == 0u) ? 1 : 0;
}

hs_secoc_result hs_secoc_coll_check(const hs_mac *key, const hs_secoc_part *part, unsigned n,
                                    unsigned fv_bits, unsigned fv_trunc, const uint8_t *mac,
                                    unsigned mac_len, uint64_t *last)
{
    const uint64_t span = (uint64_t)1u << fv_bits;
    const uint64_t next = fv_next(*last, fv_bits, fv_trunc);
    if (key == NULL) {
        return HS_SECOC_BAD_MAC;
    }
    if (coll_ok(key, part, n, next, mac, mac_len) != 0) {
        *last = next;
        return HS_SECOC_OK;
    }
    /* one span back: a freshness value already used (hs_secoc_check's window) */
    if ((next > span) && (coll_ok(key, part, n, next - span, mac, mac_len) != 0)) {
        return HS_SECOC_STALE;
    }
    return HS_SECOC_BAD_MAC;
}
