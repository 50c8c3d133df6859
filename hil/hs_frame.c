/* hs_frame.c - encoder, parser and CRC-32 of the HIL wire frame; see hil/FRAME.md. */
#include "hs_frame.h"

#include <string.h>

const char *hs_rx_reason_name(int reason)
{
    static const char *const names[HS_RX_REASONS] = {
        "accepted", "foreign_address", "short", "oversized", "bad_magic", "bad_version",
        "bad_checksum", "bad_layout", "seq_repeated", "seq_stale", "nonfinite", "seq_jump",
        "session_unconfirmed", "session_old", "bad_mac", "old_run", "unanswered"};
    if (reason < 0 || reason >= HS_RX_REASONS) { return "unknown"; }
    return names[reason];
}

/* Table-free bitwise CRC: 8 fixed iterations per byte keep the cost a pure function of the
 * length (64-value frames cost ~5 us on a Cortex-M7, negligible on a PC) and save 1 KiB of
 * flash on the board. */
uint32_t hs_crc32(const uint8_t *p, size_t n)
{
    /* MISRA Ref 7.2.1 [stdint.h constant macro, suffixed in its expansion] */
    uint32_t c = UINT32_C(0xFFFFFFFF);
    for (size_t i = 0; i < n; ++i) {
        c ^= (uint32_t)p[i];
        /* MISRA Ref 7.2.1 [stdint.h constant macro, suffixed in its expansion] */
        for (int k = 0; k < 8; ++k) { c = (c >> 1) ^ (UINT32_C(0xEDB88320) & (0u - (c & 1u))); }
    }
    /* MISRA Ref 7.2.1 [stdint.h constant macro, suffixed in its expansion] */
    return c ^ UINT32_C(0xFFFFFFFF);
}

void hs_put_u16(uint8_t *p, uint16_t x)
{
    p[0] = (uint8_t)(x & 0xFFu);
    p[1] = (uint8_t)(x >> 8);
}

void hs_put_u32(uint8_t *p, uint32_t x)
{
    for (unsigned i = 0u; i < 4u; ++i) {
        p[i] = (uint8_t)(x >> (8u * i)); /* the cast keeps the low byte */
    }
}

void hs_put_u64(uint8_t *p, uint64_t x)
{
    for (unsigned i = 0u; i < 8u; ++i) {
        const unsigned sh = 8u * i;
        p[i] = (uint8_t)(x >> sh); /* the cast keeps the low byte */
    }
}

/* Both supported targets store double and uint64_t with the same byte order, so copying the
 * bits through an integer gives the IEEE-754 pattern whatever the host's endianness. */
void hs_put_f64(uint8_t *p, double x)
{
    uint64_t b;
    /* MISRA Ref 21.15.1 [IEEE-754 bits of a double via memcpy] */
    (void)memcpy(&b, &x, sizeof b);
    hs_put_u64(p, b);
}

uint16_t hs_get_u16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }

uint32_t hs_get_u32(const uint8_t *p)
{
    uint32_t x = 0;
    for (int i = 3; i >= 0; --i) {
        x = (x << 8) | p[i];
    }
    return x;
}

uint64_t hs_get_u64(const uint8_t *p)
{
    uint64_t x = 0;
    for (int i = 7; i >= 0; --i) {
        x = (x << 8) | p[i];
    }
    return x;
}

double hs_get_f64(const uint8_t *p)
{
    uint64_t b = hs_get_u64(p);
    double x;
    /* MISRA Ref 21.15.1 [IEEE-754 bits of a double via memcpy] */
    (void)memcpy(&x, &b, sizeof x);
    return x;
}

size_t hs_frame_encode_auth(uint8_t *buf, size_t cap, const hs_frame_hdr *h, const double *v,
                            const hs_mac *mac, uint64_t challenge)
{
    if (h->count > HS_FRAME_MAX_VALUES) {
        return 0;
    }
    /* MISRA Ref 10.6.1 [unsigned size macro widened to size_t] */
    const unsigned tag = (mac != NULL) ? (HS_FRAME_CHALLENGE_BYTES + HS_MAC_TAG_BYTES) : 0u;
    const unsigned bytes = HS_FRAME_BYTES(h->count) + tag;
    const size_t n = (size_t)bytes;
    if (cap < n) {
        return 0;
    }
    hs_put_u32(buf, HS_FRAME_MAGIC);
    buf[4] = (mac != NULL) ? (uint8_t)HS_FRAME_VERSION_MAC : h->version;
    buf[5] = h->kind;
    hs_put_u16(buf + 6, h->count);
    hs_put_u32(buf + 8, h->session);
    hs_put_u32(buf + 12, h->seq);
    hs_put_u64(buf + 16, h->send_ns);
    hs_put_u32(buf + 24, h->ack_seq);
    hs_put_u32(buf + 28, h->flags);
    for (unsigned i = 0; i < h->count; ++i) {
        hs_put_f64(buf + HS_FRAME_HEADER_BYTES + 8u * i, v[i]);
    }
    const size_t values_end = HS_FRAME_HEADER_BYTES + 8u * (size_t)h->count;
    if (mac != NULL) {
        hs_put_u64(buf + values_end, challenge);
        const size_t signed_len = values_end + HS_FRAME_CHALLENGE_BYTES;
        hs_mac_tag(mac, buf, signed_len, buf + signed_len);
    }
    const size_t body = n - HS_FRAME_TRAILER_BYTES;
    hs_put_u32(buf + body, hs_crc32(buf, body));
    return n;
}

size_t hs_frame_encode_mac(uint8_t *buf, size_t cap, const hs_frame_hdr *h, const double *v,
                           const hs_mac *mac)
{
    return hs_frame_encode_auth(buf, cap, h, v, mac, 0u);
}

size_t hs_frame_encode(uint8_t *buf, size_t cap, const hs_frame_hdr *h, const double *v)
{
    return hs_frame_encode_mac(buf, cap, h, v, NULL);
}

/* Finiteness without libm: NaN and Inf are exactly the all-ones exponent. */
static int f64_bits_finite(const uint8_t *p)
{
    uint64_t b = hs_get_u64(p);
    return ((b >> 52) & 0x7FFu) != 0x7FFu;
}

int hs_frame_parse_auth(const uint8_t *buf, size_t len, unsigned kind, unsigned count,
                        const hs_mac *mac, uint64_t *challenge, hs_frame_hdr *h, double *v)
{
    *challenge = 0u;
    /* MISRA Ref 10.6.1 [unsigned size macro widened to size_t] */
    const size_t plain = HS_FRAME_BYTES(count);
    const size_t want = (mac != NULL) ? HS_FRAME_MAC_BYTES(count) : plain;
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    const unsigned version = (mac != NULL) ? HS_FRAME_VERSION_MAC : HS_FRAME_VERSION;
    /* A keyed link names an untagged version-1 frame for what it is: a missing MAC. */
    if ((mac != NULL) && (len == plain) && (hs_get_u32(buf) == HS_FRAME_MAGIC) &&
        (buf[4] == HS_FRAME_VERSION)) {
        return HS_RX_MAC;
    }
    /* ... and a frame of the retired version 2 for what it is: an old peer (or an old capture). */
    if ((mac != NULL) && (len == (plain + HS_MAC_TAG_BYTES)) && (hs_get_u32(buf) == HS_FRAME_MAGIC) &&
        (buf[4] == HS_FRAME_VERSION_MAC_V2)) {
        return HS_RX_VERSION;
    }
    if (len < want) {
        return HS_RX_SHORT;
    }
    if (len > want) {
        return HS_RX_LONG;
    }
    if (hs_get_u32(buf) != HS_FRAME_MAGIC) {
        return HS_RX_MAGIC;
    }
    if (buf[4] != version) {
        return HS_RX_VERSION;
    }
    const size_t body = want - HS_FRAME_TRAILER_BYTES;
    if (hs_get_u32(buf + body) != hs_crc32(buf, body)) {
        return HS_RX_CHECKSUM;
    }
    const size_t values_end = HS_FRAME_HEADER_BYTES + 8u * (size_t)count;
    const size_t signed_len = values_end + HS_FRAME_CHALLENGE_BYTES;
    if ((mac != NULL) && (hs_mac_check(mac, buf, signed_len, buf + signed_len) == 0)) {
        return HS_RX_MAC;
    }
    if (mac != NULL) {
        *challenge = hs_get_u64(buf + values_end);
    }
    h->version = buf[4];
    h->kind = buf[5];
    h->count = hs_get_u16(buf + 6);
    if ((h->kind != kind) || (h->count != count)) {
        return HS_RX_LAYOUT;
    }
    h->session = hs_get_u32(buf + 8);
    h->seq = hs_get_u32(buf + 12);
    h->send_ns = hs_get_u64(buf + 16);
    h->ack_seq = hs_get_u32(buf + 24);
    h->flags = hs_get_u32(buf + 28);
    int finite = 1;
    for (unsigned i = 0; i < count; ++i) {
        const uint8_t *p = buf + HS_FRAME_HEADER_BYTES + 8u * i;
        finite &= f64_bits_finite(p);
        v[i] = hs_get_f64(p);
    }
    return (finite != 0) ? HS_RX_OK : HS_RX_NONFINITE;
}

int hs_frame_parse_mac(const uint8_t *buf, size_t len, unsigned kind, unsigned count,
                       const hs_mac *mac, hs_frame_hdr *h, double *v)
{
    uint64_t challenge;
    return hs_frame_parse_auth(buf, len, kind, count, mac, &challenge, h, v);
}

int hs_frame_parse(const uint8_t *buf, size_t len, unsigned kind, unsigned count,
                   hs_frame_hdr *h, double *v)
{
    return hs_frame_parse_mac(buf, len, kind, count, NULL, h, v);
}
