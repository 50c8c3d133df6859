/* hs_secoc.h - authenticated CAN messages in the style of AUTOSAR SecOC (hil/CAN.md,
 * "Security"): a truncated HMAC-SHA-256 (hs_mac.h, the link's key) over the data id, the
 * payload and a 64-bit freshness value of which the frame carries the low bits. The receiver
 * rebuilds the full value from the last one it accepted, so a replayed frame (an old
 * freshness) and a forged one (no key) never verify. Freestanding C99; at most two tags per
 * received frame, one per sent frame, each of a fixed length per message. */
#ifndef HS_SECOC_H
#define HS_SECOC_H

#include "hs_mac.h"
#include "hs_types.h"

#define HS_SECOC_NONE 0u /* message not authenticated */
#define HS_SECOC_HMAC 1u /* HsSecOCProfile 1: HMAC-SHA-256, truncated to the MAC signal's bytes */
#define HS_SECOC_CRYPTO 2u /* HsSecOCCollection 1: the cryptographic message of a secured PDU
                            * collection, HMAC-SHA-256 over its authentic messages (hs_secoc_coll_tag) */

/* Signal roles (hs_can_sig.e2e_role, beside hs_e2e.h's 0..2), from BA_ "HsSecOCSignal" 1 / 2. */
#define HS_SECOC_ROLE_FV 3u  /* the truncated freshness value: unsigned, 4..32 bits */
#define HS_SECOC_ROLE_MAC 4u /* the truncated MAC: 2..8 whole bytes, byte-aligned, Intel */
#define HS_SECOC_MAC_MIN 2u
#define HS_SECOC_MAC_MAX 8u
#define HS_SECOC_FV_MIN 4u
#define HS_SECOC_FV_MAX 32u

/* Where the protection sits in one message's payload. */
typedef struct hs_secoc_layout {
    uint16_t data_id;   /* fed to the MAC first (the message's HsE2EDataId) */
    unsigned len;       /* payload bytes */
    unsigned mac_byte;  /* first byte of the MAC */
    unsigned mac_len;   /* MAC bytes, HS_SECOC_MAC_MIN..HS_SECOC_MAC_MAX */
    unsigned skip_byte; /* a byte outside the MAC (the E2E CRC, written after it), len = none */
    unsigned fv_bits;   /* freshness bits the frame carries */
} hs_secoc_layout;

typedef enum hs_secoc_result {
    HS_SECOC_OK = 0,      /* verified with the next freshness value */
    HS_SECOC_BAD_MAC = 1, /* verifies with no freshness value near the last: forged, another key */
    HS_SECOC_STALE = 2    /* verifies with an old freshness value: a replay */
} hs_secoc_result;

/* The truncated MAC of payload under key: HMAC-SHA-256 of data id (low byte, high byte), every
 * payload byte outside the MAC and skip_byte in order, then fv as 8 bytes, low byte first; its
 * first mac_len bytes into out. */
void hs_secoc_tag(const hs_mac *key, const hs_secoc_layout *l, const uint8_t *payload, uint64_t fv,
                  uint8_t *out);

/* Judges a received payload whose truncated freshness is fv_trunc against *last (the full
 * freshness of the last accepted frame, 0 before any): the candidate is the smallest value
 * above *last with those low bits; its tag verified -> HS_SECOC_OK and *last = it. Else the
 * largest value <= *last with those bits, when there is one, is tried: verified -> a replay,
 * HS_SECOC_STALE. Else HS_SECOC_BAD_MAC. Only an accepted frame changes *last. key NULL: no
 * key, HS_SECOC_BAD_MAC. Tags compared in time independent of where they differ. */
hs_secoc_result hs_secoc_check(const hs_mac *key, const hs_secoc_layout *l, const uint8_t *payload,
                               unsigned fv_trunc, uint64_t *last);

/* One authentic message of a secured PDU collection as its MAC reads it. */
typedef struct hs_secoc_part {
    uint32_t id;         /* the DBC's id: bit 31 set for a 29-bit id */
    unsigned dlc;        /* the frame's DLC code (0..15; = len for classic CAN) */
    unsigned len;        /* payload bytes, 0..64 */
    const uint8_t *data; /* the payload as received (or sent) */
} hs_secoc_part;

/* The truncated MAC of a collection's cycle under key: HMAC-SHA-256 of fv (8 bytes, low byte
 * first), then for each of the n parts in DBC order its id (4 bytes, low first), its DLC (1 byte)
 * and its len payload bytes; the first mac_len (<= HS_SECOC_MAC_MAX) bytes into out. */
void hs_secoc_coll_tag(const hs_mac *key, const hs_secoc_part *part, unsigned n, uint64_t fv,
                       unsigned mac_len, uint8_t *out);

/* hs_secoc_check for a collection's cryptographic message: fv_trunc its fv_bits freshness bits,
 * mac its mac_len MAC bytes, part the held cycle; the same window, verdicts and *last update. */
hs_secoc_result hs_secoc_coll_check(const hs_mac *key, const hs_secoc_part *part, unsigned n,
                                    unsigned fv_bits, unsigned fv_trunc, const uint8_t *mac,
                                    unsigned mac_len, uint64_t *last);

#endif
