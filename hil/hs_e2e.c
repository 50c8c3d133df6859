/* hs_e2e.c - CRC-8 and the alive-counter / cadence check of hs_e2e.h (hil/CAN.md, "Security"). */
#include "hs_e2e.h"

static uint8_t crc_poly(unsigned profile)
{
    return (profile == HS_E2E_J1850) ? (uint8_t)0x1Du : (uint8_t)0x2Fu;
}

/* Bitwise (8 shifts per byte, no table): the same fixed work on every board. */
static uint8_t crc_feed(uint8_t crc, uint8_t poly, uint8_t byte)
{
    uint8_t c = (uint8_t)(crc ^ byte);
    for (unsigned b = 0; b < 8u; ++b) {
        const uint8_t top = (uint8_t)(c & 0x80u);
        c = (uint8_t)(c << 1u);
        if (top != 0u) {
            c = (uint8_t)(c ^ poly);
        }
    }
    return c;
}

uint8_t hs_crc8(unsigned profile, const uint8_t *data, size_t n)
{
    uint8_t c = 0xFFu;
    if ((profile != HS_E2E_J1850) && (profile != HS_E2E_H2F)) {
        return 0u;
    }
    for (size_t i = 0; i < n; ++i) {
        c = crc_feed(c, crc_poly(profile), data[i]);
    }
    return (uint8_t)(c ^ 0xFFu);
}

uint8_t hs_e2e_crc(unsigned profile, uint16_t data_id, const uint8_t *payload, size_t len,
                   unsigned crc_byte)
{
    const uint8_t poly = crc_poly(profile);
    uint8_t c = 0xFFu;
    if ((profile != HS_E2E_J1850) && (profile != HS_E2E_H2F)) {
        return 0u;
    }
    c = crc_feed(c, poly, (uint8_t)(data_id & 0xFFu));
    c = crc_feed(c, poly, (uint8_t)(data_id >> 8u));
    for (size_t i = 0; i < len; ++i) {
        if (i != (size_t)crc_byte) {
            c = crc_feed(c, poly, payload[i]);
        }
    }
    return (uint8_t)(c ^ 0xFFu);
}

hs_e2e_result hs_e2e_check(hs_e2e_rx *s, unsigned ctr, unsigned bits, uint64_t now_us,
                           uint64_t cycle_us, uint64_t stale_us, int *restart)
{
    const unsigned mask = (bits >= 8u) ? 0xFFu : ((1u << bits) - 1u);
    int timed = 0;
    if (now_us != HS_E2E_NO_TIME) {
        timed = 1;
    }
    *restart = 0;
    /* A silence past the stale limit ends the old sequence: whoever speaks next starts a new
     * one, so a sender that lost its place (a lost frame, a restart) is never locked out. */
    if ((s->have != 0u) && (timed != 0) && (now_us >= s->last_us) && (now_us - s->last_us > stale_us)) {
        s->have = 0u;
        *restart = 1;
    }
    if (s->have == 0u) {
        s->have = 1u;
        s->last = (uint8_t)(ctr & mask);
        s->last_us = (timed != 0) ? now_us : 0u;
        s->next_us = (timed != 0) ? now_us + cycle_us : 0u;
        return HS_E2E_OK;
    }
    const unsigned delta = (ctr - (unsigned)s->last) & mask;
    if (delta == 0u) {
        return HS_E2E_REPEATED;
    }
    if (delta != 1u) {
        return HS_E2E_JUMP;
    }
    if ((timed != 0) && (cycle_us != 0u)) {
        /* next_us keeps the earliest phase the sender ever showed: a late frame does not move
         * it, so the on-time frame after a late one is never early; a frame from a second
         * cadence is, when it falls in the first half of the cycle. */
        if (now_us + cycle_us / 2u < s->next_us) {
            return HS_E2E_EARLY;
        }
        s->next_us = ((now_us < s->next_us) ? now_us : s->next_us) + cycle_us;
    }
    if (timed != 0) {
        s->last_us = now_us;
    }
    s->last = (uint8_t)(ctr & mask);
    return HS_E2E_OK;
}

const char *hs_e2e_result_name(int r)
{
    static const char *const names[HS_E2E_RESULTS] = {"ok", "crc", "counter_repeated", "counter_jump",
                                                      "too_early"};
    return ((r >= 0) && (r < HS_E2E_RESULTS)) ? names[r] : "unknown";
}
