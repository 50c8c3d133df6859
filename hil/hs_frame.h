/* hs_frame.h - the HIL wire frame (hil/FRAME.md): layout constants, encoder, parser, CRC-32.
 *
 * Pure C99 without OS calls so the board build can reuse it with a UART or memory transport.
 * Every multi-byte field is little-endian and is assembled byte by byte, so the code is
 * independent of the host's byte order; values travel as IEEE-754 binary64 on every target. */
#ifndef HS_FRAME_H
#define HS_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "hs_mac.h"

/* Magic number: the bytes 'H' 'S' 'F' '1' in wire order (0x31465348 read little-endian). */
#define HS_FRAME_MAGIC UINT32_C(0x31465348)
/* Frame format version of an unauthenticated link (byte-compatible with every version-1 peer). */
#define HS_FRAME_VERSION 1u
/* Version of an authenticated frame: the version-1 layout with the run's challenge
 * (HS_FRAME_CHALLENGE_BYTES) and an HMAC-SHA-256-128 tag of HS_MAC_TAG_BYTES over everything
 * before it, between the values and the CRC (hil/FRAME.md, "Security"). */
#define HS_FRAME_VERSION_MAC 3u
/* The retired authenticated version (tag without a challenge): refused as bad_version, since
 * its frames verify in every run under the same key. */
#define HS_FRAME_VERSION_MAC_V2 2u
/* Bytes of the challenge field of an authenticated frame (a 64-bit run nonce of the plant). */
#define HS_FRAME_CHALLENGE_BYTES 8u
/* Bytes before the first value. */
#define HS_FRAME_HEADER_BYTES 32u
/* Bytes of the trailing CRC-32. */
#define HS_FRAME_TRAILER_BYTES 4u
/* Most values one frame may carry (bounds every buffer and loop). */
#define HS_FRAME_MAX_VALUES 64u
/* Datagram size in bytes of a frame carrying n values. */
#define HS_FRAME_BYTES(n) (HS_FRAME_HEADER_BYTES + 8u * (unsigned)(n) + HS_FRAME_TRAILER_BYTES)
/* Datagram size in bytes of an authenticated (version 3) frame carrying n values. */
#define HS_FRAME_MAC_BYTES(n) (HS_FRAME_BYTES(n) + HS_FRAME_CHALLENGE_BYTES + HS_MAC_TAG_BYTES)
/* Largest frame in bytes; receive buffers are one byte larger to detect oversized datagrams. */
#define HS_FRAME_MAX_BYTES HS_FRAME_MAC_BYTES(HS_FRAME_MAX_VALUES)

/* Frame kinds: which way the frame travels. */
#define HS_FRAME_KIND_TO_PLANT 1u   /* ECU -> plant: the plant's inputs (actuator commands) */
#define HS_FRAME_KIND_FROM_PLANT 2u /* plant -> ECU: the plant's outputs (sensor values) */

/* Status flags (bit set = condition true at send time). */
#define HS_FLAG_FAULT 0x1u  /* plant: the last step was refused, outputs are held */
#define HS_FLAG_STALE 0x2u  /* sender: at least one of its inputs is on its fallback value */
#define HS_FLAG_SAFE 0x4u   /* sender: safe outputs, the run is stopping (policy stop) */
#define HS_FLAG_FINAL 0x8u  /* sender: last frame of the run */

/* Header fields of one frame, host representation. */
typedef struct hs_frame_hdr {
    uint8_t version;   /* HS_FRAME_VERSION */
    uint8_t kind;      /* HS_FRAME_KIND_* */
    uint16_t count;    /* number of values that follow the header */
    uint32_t session;  /* sender's run id, fixed for one run; a change restarts sequence checks */
    uint32_t seq;      /* sender's frame counter, +1 per frame sent, wraps modulo 2^32 */
    uint64_t send_ns;  /* sender's monotonic clock at send (ns); informational only */
    uint32_t ack_seq;  /* seq of the newest frame the sender used from its peer, 0 = none yet */
    uint32_t flags;    /* HS_FLAG_* */
} hs_frame_hdr;

/* Why a datagram was not accepted; HS_RX_OK means it was. Each has its own counter. */
typedef enum hs_rx_reason {
    HS_RX_OK = 0,
    HS_RX_FOREIGN = 1,      /* datagram from an address other than the configured peer */
    HS_RX_SHORT = 2,        /* fewer bytes than this link's frame size */
    HS_RX_LONG = 3,         /* more bytes than this link's frame size */
    HS_RX_MAGIC = 4,        /* first four bytes are not HS_FRAME_MAGIC */
    HS_RX_VERSION = 5,      /* version byte is not HS_FRAME_VERSION */
    HS_RX_CHECKSUM = 6,     /* CRC-32 does not match */
    HS_RX_LAYOUT = 7,       /* kind or value count differ from this link's signal map */
    HS_RX_SEQ_REPEATED = 8, /* seq equals that of the last accepted frame */
    HS_RX_SEQ_STALE = 9,    /* seq is older than that of the last accepted frame */
    HS_RX_NONFINITE = 10,   /* a value is NaN or Inf: whole frame rejected */
    HS_RX_SEQ_JUMP = 11,    /* seq more than HS_RX_SEQ_AHEAD ahead, not (yet) confirmed */
    HS_RX_SESSION_NEW = 12, /* a new session, not (yet) confirmed (hil/FRAME.md, "Sessions") */
    HS_RX_SESSION_OLD = 13, /* a session this link already left: a replay */
    HS_RX_MAC = 14,         /* authenticated link: the tag is wrong, or missing (a version-1 frame) */
    HS_RX_OLD_RUN = 15,     /* authenticated, but answering another run's challenge: a replay
                               of an earlier run */
    HS_RX_UNANSWERED = 16   /* authenticated, challenge 0: sent before its sender heard this
                               plant (an ECU's first frames); harmless, counted */
} hs_rx_reason;
/* Number of hs_rx_reason values, HS_RX_OK included. */
#define HS_RX_REASONS 17

/* Short identifier of a reason (e.g. "bad_checksum"), used in summaries; never NULL. */
const char *hs_rx_reason_name(int reason);

/* CRC-32 (IEEE 802.3: reflected polynomial 0xEDB88320, init and final xor 0xFFFFFFFF) of n bytes. */
uint32_t hs_crc32(const uint8_t *p, size_t n);

/* Writes the frame (header h, h->count values v) into buf of cap bytes; returns the frame
 * size in bytes, or 0 when cap is too small or count exceeds HS_FRAME_MAX_VALUES. */
size_t hs_frame_encode(uint8_t *buf, size_t cap, const hs_frame_hdr *h, const double *v);

/* hs_frame_encode with authentication: mac != NULL writes a version-3 frame (version byte 3
 * whatever h->version says): challenge (the plant's 64-bit run nonce; the plant's frames carry
 * its own, the ECU's the one it answers) at 32+8n, then the tag of bytes 0 .. 39+8n, then the
 * CRC; mac == NULL is hs_frame_encode. Returns the frame size in bytes or 0. */
size_t hs_frame_encode_auth(uint8_t *buf, size_t cap, const hs_frame_hdr *h, const double *v,
                            const hs_mac *mac, uint64_t challenge);

/* hs_frame_encode_auth with challenge 0. */
size_t hs_frame_encode_mac(uint8_t *buf, size_t cap, const hs_frame_hdr *h, const double *v,
                           const hs_mac *mac);

/* Checks a received datagram of len bytes against this link (kind, count values) in the order
 * of FRAME.md: size, magic, version, checksum, layout, then finiteness of every value. Fills
 * h and v (count values) and returns HS_RX_OK, or the first failing hs_rx_reason. Sequence
 * numbers are the receiver's business (hs_rx in hs_signal.h). */
int hs_frame_parse(const uint8_t *buf, size_t len, unsigned kind, unsigned count,
                   hs_frame_hdr *h, double *v);

/* hs_frame_parse for a link keyed with mac (NULL = hs_frame_parse): only version-3 frames of
 * HS_FRAME_MAC_BYTES(count) bytes whose tag checks pass; the tag is checked after the CRC and
 * before anything else is decoded (whether the challenge is this run's is the receiver's
 * business: hs_frame_parse_auth returns it). A well-formed version-1 frame is HS_RX_MAC (no tag), a version-2
 * frame of its size HS_RX_VERSION (retired: no challenge). */
int hs_frame_parse_mac(const uint8_t *buf, size_t len, unsigned kind, unsigned count,
                       const hs_mac *mac, hs_frame_hdr *h, double *v);

/* hs_frame_parse_mac that also returns the frame's challenge in *challenge (0 unkeyed). */
int hs_frame_parse_auth(const uint8_t *buf, size_t len, unsigned kind, unsigned count,
                        const hs_mac *mac, uint64_t *challenge, hs_frame_hdr *h, double *v);

/* Little-endian helpers shared with tests and tools: store/load 16, 32, 64 bits and binary64. */
void hs_put_u16(uint8_t *p, uint16_t x);
void hs_put_u32(uint8_t *p, uint32_t x);
void hs_put_u64(uint8_t *p, uint64_t x);
void hs_put_f64(uint8_t *p, double x);
uint16_t hs_get_u16(const uint8_t *p);
uint32_t hs_get_u32(const uint8_t *p);
uint64_t hs_get_u64(const uint8_t *p);
double hs_get_f64(const uint8_t *p);

#endif
