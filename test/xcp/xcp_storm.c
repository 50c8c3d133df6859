/* xcp_storm.c - hs_xcp_rx under bad input (xcp-test, ASan+UBSan): 300,000 datagrams of random
 * bytes, truncated and concatenated packets, random command codes with random payloads, from
 * the master and from a second address, with DAQ events between them. Checks after each one
 * that the slave's state stays within its declared bounds (lists, ODTs, entries within the
 * pools, every resolved entry inside a region, every packet it sent a well-formed XCP on
 * Ethernet packet of at most MAX_CTO / MAX_DTO bytes, the read-only regions unchanged) and
 * that a param is never changed by anything but an accepted DOWNLOAD within its limits.
 * Prints "N passed, N failed". */
#include "hs_xcp.h"

#include <stdio.h>
#include <string.h>

static uint64_t g_rng = 0x9E3779B97F4A7C15u;
static uint32_t rnd(void)
{
    g_rng ^= g_rng << 13; g_rng ^= g_rng >> 7; g_rng ^= g_rng << 17;
    return (uint32_t)(g_rng >> 16);
}

static hs_real g_out[6], g_state[8], g_param[3];
static hs_real g_lo[3] = {0, -1, 10}, g_hi[3] = {1, 1, 20};
static const hs_real g_out0[6] = {1, 2, 3, 4, 5, 6};
static uint64_t g_bad_packets, g_sent, g_cal_ok;
static char g_id[] = "storm";

static void sink(void *ctx, const uint8_t *p, size_t n, uint64_t to)
{
    (void)ctx; (void)to;
    ++g_sent;
    const size_t len = (size_t)p[0] | ((size_t)p[1] << 8);
    const size_t cap = p[4] >= 0xFCu ? HS_XCP_MAX_CTO : HS_XCP_MAX_DTO;
    if (n < 5 || len + 4 != n || len > cap) ++g_bad_packets;
}

static int cal(void *ctx, uint32_t i, hs_real v)
{
    (void)ctx;
    if (i >= 3 || !(v >= g_lo[i] && v <= g_hi[i])) { ++g_bad_packets; return HS_XCP_CAL_REFUSED; }
    g_param[i] = v;
    ++g_cal_ok;
    return HS_XCP_CAL_APPLIED;
}

static int rand_fill(void *ctx, uint8_t *p, size_t n)
{
    (void)ctx;
    for (size_t i = 0; i < n; ++i) p[i] = (uint8_t)rnd();
    return 0;
}

static const uint8_t codes[] = {0xFF, 0xFE, 0xFD, 0xFC, 0xFB, 0xFA, 0xF8, 0xF7, 0xF6, 0xF5, 0xF4, 0xF0,
                                0xE3, 0xE2, 0xE1, 0xE0, 0xDF, 0xDE, 0xDD, 0xDC, 0xDA, 0xD9, 0xD7, 0xD6,
                                0xD5, 0xD4, 0xD3, 0xC0, 0x00, 0xF9};

static size_t packet(uint8_t *d, size_t cap)
{
    const size_t n = 1u + rnd() % 12u;
    if (n + 4 > cap) return 0;
    d[4] = codes[rnd() % sizeof codes];
    for (size_t i = 1; i < n; ++i) {
        const uint32_t r = rnd() % 4u;
        /* small numbers, addresses of the map, or anything */
        d[4 + i] = r == 0 ? (uint8_t)(rnd() % 4u) : r == 1 ? (uint8_t)(rnd() % 16u) : (uint8_t)rnd();
    }
    if (d[4] == 0xF6 || d[4] == 0xF4 || d[4] == 0xE1) { /* an address in or near the map */
        const uint32_t a = (rnd() % 2u ? HS_XCP_ADDR_OUT : HS_XCP_ADDR_PARAM) + rnd() % 64u;
        if (n >= 8) { d[8] = (uint8_t)a; d[9] = (uint8_t)(a >> 8); d[10] = (uint8_t)(a >> 16); d[11] = 0; }
    }
    const size_t len = rnd() % 16u == 0 ? (size_t)(rnd() % 300u) : n; /* a LEN that lies */
    d[0] = (uint8_t)len; d[1] = (uint8_t)(len >> 8);
    d[2] = (uint8_t)rnd(); d[3] = (uint8_t)rnd();
    return n + 4;
}

static void one(hs_xcp *x, const uint8_t *c, size_t n)
{
    uint8_t d[64];
    d[0] = (uint8_t)n; d[1] = 0; d[2] = 0; d[3] = 0;
    memcpy(d + 4, c, n);
    hs_xcp_rx(x, d, n + 4, 1u, 0.0);
}

/* A valid DAQ setup of random entries and a DOWNLOAD of a random value: the storm then hits a
 * running list and the calibration path too. */
static void script(hs_xcp *x)
{
    const uint8_t con[2] = {0xFF, 0}, fr[1] = {0xD6}, ad[4] = {0xD5, 0, 1, 0}, ao[5] = {0xD4, 0, 0, 0, 2};
    const uint8_t e0[6] = {0xD3, 0, 0, 0, 0, 3}, e1[6] = {0xD3, 0, 0, 0, 1, 2}, p0[6] = {0xE2, 0, 0, 0, 0, 0};
    const uint8_t mode[8] = {0xE0, 0x10, 0, 0, 0, 0, 1, 0}, sel[4] = {0xDE, 2, 0, 0}, go[2] = {0xDD, 1};
    one(x, con, 2); one(x, fr, 1); one(x, ad, 4); one(x, ao, 5); one(x, e0, 6); one(x, e1, 6); one(x, p0, 6);
    for (int i = 0; i < 5; ++i) {
        const uint32_t a = (rnd() % 2u ? HS_XCP_ADDR_OUT : HS_XCP_ADDR_PARAM) + 8u * (rnd() % 4u);
        const uint8_t w[8] = {0xE1, 0xFF, (uint8_t)(1u + rnd() % 8u), 0, (uint8_t)a, (uint8_t)(a >> 8), (uint8_t)(a >> 16), 0};
        if (i == 3) { const uint8_t p1[6] = {0xE2, 0, 0, 0, 1, 0}; one(x, p1, 6); }
        one(x, w, 8);
    }
    one(x, mode, 8); one(x, sel, 4); one(x, go, 2);
    const uint32_t a = HS_XCP_ADDR_PARAM + 8u * (rnd() % 3u);
    const uint8_t mta[8] = {0xF6, 0, 0, 0, (uint8_t)a, (uint8_t)(a >> 8), (uint8_t)(a >> 16), 0};
    const hs_real v = (hs_real)((double)(rnd() % 6000u) / 100.0 - 30.0);
    uint8_t dl[2 + sizeof(hs_real)] = {0xF0, (uint8_t)sizeof(hs_real)};
    memcpy(dl + 2, &v, sizeof v);
    one(x, mta, 8); one(x, dl, sizeof dl);
}

int main(void)
{
    int pass = 0, fail = 0;
    static hs_xcp x;
    hs_xcp_def def;
    memset(&def, 0, sizeof def);
    def.send = sink; def.cal = cal; def.random = rand_fill; def.lo = g_lo; def.hi = g_hi;
    def.period_us = 1000; def.id = g_id;
    hs_xcp_init(&x, &def);
    memcpy(g_out, g_out0, sizeof g_out);
    g_param[0] = 0.5; g_param[1] = 0; g_param[2] = 15;
    const uint32_t rs = (uint32_t)sizeof(hs_real);
    (void)hs_xcp_region_add(&x, HS_XCP_ADDR_OUT, 6, rs, g_out, 0);
    (void)hs_xcp_region_add(&x, HS_XCP_ADDR_Q, 8, rs, g_state, 0);
    (void)hs_xcp_region_add(&x, HS_XCP_ADDR_PARAM, 3, rs, g_param, 1);
    (void)hs_xcp_region_add(&x, HS_XCP_ADDR_ID, (uint32_t)strlen(g_id), 1, g_id, 0);
    const int overlap = hs_xcp_region_add(&x, HS_XCP_ADDR_OUT + 8, 2, rs, g_out, 0);
    if (overlap == -1) { ++pass; printf("  ok   an overlapping region is refused\n"); }
    else { ++fail; printf("  FAIL an overlapping region was accepted\n"); }
    uint64_t bad_state = 0;
    for (long it = 0; it < 300000; ++it) {
        uint8_t d[512];
        size_t n = 0;
        const int k = 1 + (int)(rnd() % 3u);
        for (int j = 0; j < k; ++j) n += packet(d + n, sizeof d - n);
        if (rnd() % 8u == 0 && n > 1) n = 1 + rnd() % (uint32_t)(n - 1); /* cut short */
        const uint64_t from = rnd() % 10u == 0 ? 2u : 1u;
        if (rnd() % 50u == 0) { const uint8_t c[6] = {2, 0, 0, 0, 0xFF, 0}; hs_xcp_rx(&x, c, 6, 1u, 0.0); }
        if (it % 500 == 0) script(&x);
        hs_xcp_rx(&x, d, n, from, (double)it * 1e-3);
        if (rnd() % 4u == 0) hs_xcp_event(&x, (uint64_t)it, (double)it * 1e-3);
        if (x.ndaq > HS_XCP_MAX_DAQ || x.nodt > HS_XCP_MAX_ODT || x.nentry > HS_XCP_MAX_ENTRY) ++bad_state;
        for (uint32_t e = 0; e < x.nentry; ++e) {
            const hs_xcp_odt_entry *en = &x.entry[e];
            if (en->size == 0) continue;
            const uint8_t *lo = (const uint8_t *)g_out, *hi = lo + sizeof g_out;
            const uint8_t *lo2 = (const uint8_t *)g_param, *hi2 = lo2 + sizeof g_param;
            const int in = (en->src >= lo && en->src + en->size <= hi) || (en->src >= lo2 && en->src + en->size <= hi2) ||
                           (en->src >= (const uint8_t *)g_state && en->src + en->size <= (const uint8_t *)g_state + sizeof g_state) ||
                           (en->src >= (const uint8_t *)g_id && en->src + en->size <= (const uint8_t *)g_id + strlen(g_id));
            if (!in || en->size > HS_XCP_MAX_ENTRY_SIZE) ++bad_state;
        }
        for (int i = 0; i < 3; ++i)
            if (!(g_param[i] >= g_lo[i] && g_param[i] <= g_hi[i])) ++bad_state;
        if (memcmp(g_out, g_out0, sizeof g_out) != 0) ++bad_state;
    }
    printf("  info %llu packets sent, %llu commands, %llu errors, %llu bad headers, %llu foreign, %llu DTOs, %llu calibrations\n",
           (unsigned long long)g_sent, (unsigned long long)x.commands, (unsigned long long)x.errors,
           (unsigned long long)x.bad_header, (unsigned long long)x.foreign, (unsigned long long)x.dtos,
           (unsigned long long)g_cal_ok);
    if (bad_state == 0) { ++pass; printf("  ok   300000 datagrams: DAQ pools, entries, params within bounds, outputs untouched\n"); }
    else { ++fail; printf("  FAIL %llu states out of bounds\n", (unsigned long long)bad_state); }
    if (g_bad_packets == 0 && g_sent > 0) { ++pass; printf("  ok   every packet sent is well formed (LEN, at most MAX_CTO/MAX_DTO)\n"); }
    else { ++fail; printf("  FAIL %llu malformed packets or refused hook calls\n", (unsigned long long)g_bad_packets); }
    if (x.dtos > 0 && g_cal_ok > 0 && x.cal_out_of_limits > 0) { ++pass; printf("  ok   DTOs sent, calibrations applied and refused on the way\n"); }
    else { ++fail; printf("  FAIL the storm reached no running list or calibration\n"); }
    if (x.unknown > 0 && x.syntax > 0 && x.bad_header > 0 && x.foreign > 0) { ++pass; printf("  ok   unknown codes, short commands, lying LENs and foreign packets were all met and counted\n"); }
    else { ++fail; printf("  FAIL the storm did not reach every refusal\n"); }
    printf("%d passed, %d failed\n", pass, fail);
    return fail != 0;
}
