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

hs_secoc_result hs_secoc_check(const hs_mac *key, const hs_secoc_layout *l, const uint8_t *payload,
                               unsigned fv_trunc, uint64_t *last)
{
    const uint64_t span = (uint64_t)1u << l->fv_bits;
    const uint64_t low = (uint64_t)fv_trunc & (span - 1u);
    uint64_t next = (*last & ~(span - 1u)) | low;
    if (key == NULL) {
        return HS_SECOC_BAD_MAC;
    }
    if (next <= *last) {
        next += span;
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
