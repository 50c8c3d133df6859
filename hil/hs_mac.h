/* hs_mac.h - SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104) for frame authentication.
 *
 * Freestanding C99: no OS calls, no allocation, no libc beyond memcpy/memset, so the board
 * build authenticates frames with the same code. Cost is a pure function of the message
 * length (one compression per 64-byte block, 64 fixed rounds each): the frame of a link has a
 * fixed length, so its MAC costs the same every frame. hs_mac_init hashes the key's ipad and
 * opad blocks once; each tag then costs ceil((len + 9) / 64) + 1 compressions. */
#ifndef HS_MAC_H
#define HS_MAC_H

#include <stddef.h>
#include <stdint.h>

/* Digest and block sizes of SHA-256 (bytes). */
#define HS_SHA256_BYTES 32u
#define HS_SHA256_BLOCK 64u

/* Bytes of the HMAC-SHA-256 tag a frame carries: the leftmost 128 bits (RFC 4868 2.6). */
#define HS_MAC_TAG_BYTES 16u
/* Key length the key file must give (bytes): at least the tag length (RFC 2104 section 3 and
 * RFC 4868 2.1.1 ask for a key no shorter than the output it protects), at most one block. */
#define HS_MAC_KEY_MIN 16u
#define HS_MAC_KEY_MAX 64u

/* Running SHA-256 state. */
typedef struct hs_sha256 {
    uint32_t h[8];                /* chaining value */
    uint8_t buf[HS_SHA256_BLOCK]; /* bytes of the current, incomplete block */
    uint64_t bytes;               /* message bytes absorbed so far */
    uint32_t fill;                /* bytes in buf, 0..63 */
} hs_sha256;

/* Starts a digest (the FIPS 180-4 initial hash value). */
void hs_sha256_init(hs_sha256 *s);

/* Absorbs n bytes of p (n may be 0). */
void hs_sha256_update(hs_sha256 *s, const uint8_t *p, size_t n);

/* Pads, writes the 32-byte digest into out; s is spent afterwards. */
void hs_sha256_final(hs_sha256 *s, uint8_t *out);

/* One-shot digest of n bytes of p into out (32 bytes). */
void hs_sha256_digest(const uint8_t *p, size_t n, uint8_t *out);

/* A keyed HMAC-SHA-256: the states after absorbing key ^ ipad and key ^ opad (RFC 2104). */
typedef struct hs_mac {
    hs_sha256 inner; /* after the ipad block */
    hs_sha256 outer; /* after the opad block */
} hs_mac;

/* Precomputes m for a key of n bytes (any length; keys longer than a block are hashed first,
 * RFC 2104 section 2). */
void hs_mac_init(hs_mac *m, const uint8_t *key, size_t n);

/* HMAC-SHA-256 of n bytes of p under m into out (32 bytes); m is not changed. */
void hs_mac_full(const hs_mac *m, const uint8_t *p, size_t n, uint8_t *out);

/* The frame tag: the first HS_MAC_TAG_BYTES bytes of hs_mac_full, into tag. */
void hs_mac_tag(const hs_mac *m, const uint8_t *p, size_t n, uint8_t *tag);

/* 1 when the HS_MAC_TAG_BYTES bytes at tag are the tag of p[0..n) under m, else 0. The
 * comparison takes the same time whichever byte differs (no early exit to time). */
int hs_mac_check(const hs_mac *m, const uint8_t *p, size_t n, const uint8_t *tag);

#endif
