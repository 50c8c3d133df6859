/* hs_e2e.h - end-to-end protection of CAN messages in the style of AUTOSAR E2E Profiles 1/2
 * (hil/CAN.md, "Security"): an alive counter and a CRC-8 over a 16-bit data id and the payload,
 * written on send and checked on receive, with a cadence check that catches a second sender
 * on the same id. Freestanding C99; every function does a fixed amount of work per byte. */
#ifndef HS_E2E_H
#define HS_E2E_H

#include "hs_types.h"

#define HS_E2E_NONE 0u  /* message not protected */
#define HS_E2E_J1850 1u /* CRC-8 SAE J1850: poly 0x1D, init 0xFF, xor-out 0xFF (Profile 1's) */
#define HS_E2E_H2F 2u   /* CRC-8H2F: poly 0x2F, init 0xFF, xor-out 0xFF (Profile 2's) */

#define HS_E2E_ROLE_DATA 0u    /* an ordinary signal, bound to the application */
#define HS_E2E_ROLE_COUNTER 1u /* the alive counter: unsigned, 4..8 bits, modulo 2^bits */
#define HS_E2E_ROLE_CRC 2u     /* the CRC: 8 bits filling one payload byte */

/* Verdict of one received frame's protection, in the order they are tested. */
typedef enum hs_e2e_result {
    HS_E2E_OK = 0,       /* CRC right, counter = previous + 1, not before its cadence allows */
    HS_E2E_CRC = 1,      /* CRC wrong: corrupted, or a sender without the data id or layout */
    HS_E2E_REPEATED = 2, /* counter equal to the last accepted one: a replay or a second sender */
    HS_E2E_JUMP = 3,     /* counter neither previous + 1 nor a repeat: lost frames or a second sender */
    HS_E2E_EARLY = 4     /* next counter, but sooner than half a cycle before its schedule:
                            a second cadence on the id */
} hs_e2e_result;
#define HS_E2E_RESULTS 5

/* Receive state of one protected message. */
typedef struct hs_e2e_rx {
    uint8_t have;     /* 1 once a frame was accepted (and not timed out since) */
    uint8_t last;     /* counter of the last accepted frame */
    uint64_t last_us; /* arrival of the last accepted frame, us */
    uint64_t next_us; /* earliest schedule of the next frame seen so far, us */
} hs_e2e_rx;

/* CRC of n bytes with profile's polynomial (HS_E2E_J1850 or HS_E2E_H2F), init and xor-out
 * 0xFF, no reflection; 0 for another profile. Check values: "123456789" gives 0x4B (J1850),
 * 0xDF (8H2F). */
uint8_t hs_crc8(unsigned profile, const uint8_t *data, size_t n);

/* The E2E CRC of a payload (len bytes): over data_id's low byte, its high byte, then every
 * payload byte but crc_byte (the byte holding the CRC), in order. */
uint8_t hs_e2e_crc(unsigned profile, uint16_t data_id, const uint8_t *payload, size_t len,
                   unsigned crc_byte);

/* Judges counter ctr (modulo 2^bits) of a frame whose CRC was right, arrived at now_us, of a
 * message with cycle cycle_us (> 0) and stale limit stale_us: accepted when it is the first
 * (or the first after stale_us of silence: *restart = 1) or the previous counter + 1 and not
 * earlier than next schedule - cycle/2. Only an accepted frame changes s (a refused frame
 * leaves the live sender's state intact). now_us = HS_E2E_NO_TIME skips the cadence and the
 * silence checks; cycle_us = 0 the cadence check only. */
hs_e2e_result hs_e2e_check(hs_e2e_rx *s, unsigned ctr, unsigned bits, uint64_t now_us,
                           uint64_t cycle_us, uint64_t stale_us, int *restart);
#define HS_E2E_NO_TIME UINT64_MAX

/* Short name of a result ("ok", "crc", "counter_repeated", "counter_jump", "too_early"). */
const char *hs_e2e_result_name(int r);

#endif
