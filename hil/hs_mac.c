/* hs_mac.c - SHA-256 (FIPS 180-4 section 6.2) and HMAC-SHA-256 (RFC 2104); see hs_mac.h. */
#include "hs_mac.h"

#include <string.h>

static uint32_t rotr(uint32_t x, unsigned n) { return (x >> n) | (x << (32u - n)); }

/* One compression of the 64-byte block b into h (FIPS 180-4 6.2.2); 64 fixed rounds. */
static void compress(uint32_t *h, const uint8_t *b)
{
    /* FIPS 180-4 section 4.2.2: the first 32 bits of the fractional parts of the cube roots of
     * the first 64 primes. */
    static const uint32_t K256[64] = {
        0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u,
        0xab1c5ed5u, 0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu,
        0x9bdc06a7u, 0xc19bf174u, 0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu,
        0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau, 0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u,
        0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u, 0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu,
        0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u, 0xa2bfe8a1u, 0xa81a664bu,
        0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u, 0x19a4c116u,
        0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
        0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u,
        0xc67178f2u};
    uint32_t w[64];
    uint32_t v[8];
    for (unsigned t = 0u; t < 16u; ++t) {
        const uint8_t *p = &b[4u * t];
        w[t] = ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) |
               (uint32_t)p[3];
    }
    for (unsigned t = 16u; t < 64u; ++t) {
        const uint32_t s0 = rotr(w[t - 15u], 7u) ^ rotr(w[t - 15u], 18u) ^ (w[t - 15u] >> 3);
        const uint32_t s1 = rotr(w[t - 2u], 17u) ^ rotr(w[t - 2u], 19u) ^ (w[t - 2u] >> 10);
        w[t] = w[t - 16u] + s0 + w[t - 7u] + s1;
    }
    for (unsigned i = 0u; i < 8u; ++i) {
        v[i] = h[i];
    }
    for (unsigned t = 0u; t < 64u; ++t) {
        const uint32_t S1 = rotr(v[4], 6u) ^ rotr(v[4], 11u) ^ rotr(v[4], 25u);
        const uint32_t ch = (v[4] & v[5]) ^ (~v[4] & v[6]);
        const uint32_t t1 = v[7] + S1 + ch + K256[t] + w[t];
        const uint32_t S0 = rotr(v[0], 2u) ^ rotr(v[0], 13u) ^ rotr(v[0], 22u);
        const uint32_t maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
        const uint32_t t2 = S0 + maj;
        v[7] = v[6];
        v[6] = v[5];
        v[5] = v[4];
        v[4] = v[3] + t1;
        v[3] = v[2];
        v[2] = v[1];
        v[1] = v[0];
        v[0] = t1 + t2;
    }
    for (unsigned i = 0u; i < 8u; ++i) {
        h[i] += v[i];
    }
}

void hs_sha256_init(hs_sha256 *s)
{
    /* FIPS 180-4 5.3.3: square roots of the first 8 primes. */
    static const uint32_t H0[8] = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
                                   0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u};
    (void)memcpy(s->h, H0, sizeof s->h);
    (void)memset(s->buf, 0, sizeof s->buf);
    s->bytes = 0u;
    s->fill = 0u;
}

void hs_sha256_update(hs_sha256 *s, const uint8_t *p, size_t n)
{
    for (size_t i = 0u; i < n; ++i) {
        s->buf[s->fill] = p[i];
        s->fill++;
        if (s->fill == HS_SHA256_BLOCK) {
            compress(s->h, s->buf);
            s->fill = 0u;
        }
    }
    s->bytes += (uint64_t)n;
}

void hs_sha256_final(hs_sha256 *s, uint8_t *out)
{
    const uint64_t bits = s->bytes * 8u;
    static const uint8_t one = 0x80u;
    static const uint8_t zero = 0u;
    uint8_t len[8];
    hs_sha256_update(s, &one, 1u);
    while (s->fill != (HS_SHA256_BLOCK - 8u)) {
        hs_sha256_update(s, &zero, 1u); /* at most 63 bytes: bounded by the block */
    }
    for (unsigned i = 0u; i < 8u; ++i) {
        const unsigned sh = 56u - (8u * i);
        len[i] = (uint8_t)(bits >> sh);
    }
    hs_sha256_update(s, len, 8u);
    for (unsigned i = 0u; i < 8u; ++i) {
        out[4u * i] = (uint8_t)(s->h[i] >> 24);
        out[(4u * i) + 1u] = (uint8_t)(s->h[i] >> 16);
        out[(4u * i) + 2u] = (uint8_t)(s->h[i] >> 8);
        out[(4u * i) + 3u] = (uint8_t)s->h[i];
    }
}

void hs_sha256_digest(const uint8_t *p, size_t n, uint8_t *out)
{
    hs_sha256 s;
    hs_sha256_init(&s);
    hs_sha256_update(&s, p, n);
    hs_sha256_final(&s, out);
}

void hs_mac_init(hs_mac *m, const uint8_t *key, size_t n)
{
    uint8_t k0[HS_SHA256_BLOCK];
    uint8_t pad[HS_SHA256_BLOCK];
    (void)memset(k0, 0, sizeof k0);
    if (n > HS_SHA256_BLOCK) {
        hs_sha256_digest(key, n, k0); /* RFC 2104: a long key is replaced by its hash */
    } else if (n > 0u) {
        (void)memcpy(k0, key, n);
    } else {
        /* empty key: K0 is all zeros */
    }
    for (unsigned i = 0u; i < HS_SHA256_BLOCK; ++i) {
        pad[i] = (uint8_t)(k0[i] ^ 0x36u);
    }
    hs_sha256_init(&m->inner);
    hs_sha256_update(&m->inner, pad, sizeof pad);
    for (unsigned i = 0u; i < HS_SHA256_BLOCK; ++i) {
        pad[i] = (uint8_t)(k0[i] ^ 0x5cu);
    }
    hs_sha256_init(&m->outer);
    hs_sha256_update(&m->outer, pad, sizeof pad);
    (void)memset(k0, 0, sizeof k0);
    (void)memset(pad, 0, sizeof pad);
}

void hs_mac_full(const hs_mac *m, const uint8_t *p, size_t n, uint8_t *out)
{
    hs_sha256 s;
    uint8_t ih[HS_SHA256_BYTES];
    s = m->inner; /* the precomputed ipad state: no key work per frame */
    hs_sha256_update(&s, p, n);
    hs_sha256_final(&s, ih);
    s = m->outer;
    hs_sha256_update(&s, ih, sizeof ih);
    hs_sha256_final(&s, out);
}

void hs_mac_tag(const hs_mac *m, const uint8_t *p, size_t n, uint8_t *tag)
{
    uint8_t full[HS_SHA256_BYTES];
    hs_mac_full(m, p, n, full);
    (void)memcpy(tag, full, HS_MAC_TAG_BYTES);
}

int hs_mac_check(const hs_mac *m, const uint8_t *p, size_t n, const uint8_t *tag)
{
    uint8_t want[HS_SHA256_BYTES];
    unsigned diff = 0u;
    hs_mac_full(m, p, n, want);
    for (unsigned i = 0u; i < HS_MAC_TAG_BYTES; ++i) {
        diff |= (unsigned)(want[i] ^ tag[i]);
    }
    return (diff == 0u) ? 1 : 0;
}
