/* fuzz_xcp.c - the XCP slave (hil/hs_xcp.c) under libFuzzer: one input is a session of
 * datagrams. Each starts with a control byte: its low 5 bits are the datagram's length, bit 5
 * wraps it in a correct XCP-on-Ethernet header (LEN = its length, so the fuzzer reaches the
 * commands), bit 6 sends it from a second address, bit 7 runs a DAQ event before it. After
 * every datagram the slave's invariants hold or the harness aborts: DAQ pools within their
 * sizes, every entry inside a region, params within their limits (only an accepted DOWNLOAD
 * changes one), read-only outputs untouched, every packet sent well formed (the sink of
 * test/xcp/xcp_storm.c, whose slave setup this shares). */
#define main xcp_storm_main
#include "../xcp/xcp_storm.c"
#undef main

#include <stdlib.h>

static void fx_check(const hs_xcp *x)
{
    if (x->ndaq > HS_XCP_MAX_DAQ || x->nodt > HS_XCP_MAX_ODT || x->nentry > HS_XCP_MAX_ENTRY) abort();
    for (uint32_t e = 0; e < x->nentry; ++e) {
        const hs_xcp_odt_entry *en = &x->entry[e];
        if (en->size == 0) continue;
        const uint8_t *s = en->src;
        const int in = (s >= (const uint8_t *)g_out && s + en->size <= (const uint8_t *)g_out + sizeof g_out)
                       || (s >= (const uint8_t *)g_param && s + en->size <= (const uint8_t *)g_param + sizeof g_param)
                       || (s >= (const uint8_t *)g_state && s + en->size <= (const uint8_t *)g_state + sizeof g_state)
                       || (s >= (const uint8_t *)g_id && s + en->size <= (const uint8_t *)g_id + strlen(g_id));
        if (!in || en->size > HS_XCP_MAX_ENTRY_SIZE) abort();
    }
    for (int i = 0; i < 3; ++i)
        if (!(g_param[i] >= g_lo[i] && g_param[i] <= g_hi[i])) abort();
    if (memcmp(g_out, g_out0, sizeof g_out) != 0) abort();
    if (g_bad_packets != 0) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static hs_xcp x;
    hs_xcp_def def;
    memset(&def, 0, sizeof def);
    def.send = sink; def.cal = cal; def.random = rand_fill; def.lo = g_lo; def.hi = g_hi;
    def.period_us = 1000; def.id = g_id;
    hs_xcp_init(&x, &def);
    memcpy(g_out, g_out0, sizeof g_out);
    memset(g_state, 0, sizeof g_state);
    g_param[0] = 0.5; g_param[1] = 0; g_param[2] = 15;
    g_bad_packets = 0;
    const uint32_t rs = (uint32_t)sizeof(hs_real);
    if (hs_xcp_region_add(&x, HS_XCP_ADDR_OUT, 6, rs, g_out, 0) != 0) abort();
    if (hs_xcp_region_add(&x, HS_XCP_ADDR_Q, 8, rs, g_state, 0) != 0) abort();
    if (hs_xcp_region_add(&x, HS_XCP_ADDR_PARAM, 3, rs, g_param, 1) != 0) abort();
    if (hs_xcp_region_add(&x, HS_XCP_ADDR_ID, (uint32_t)strlen(g_id), 1, g_id, 0) != 0) abort();
    uint64_t tick = 0;
    size_t i = 0;
    while (i < size) {
        const uint8_t ctl = data[i++];
        size_t n = ctl & 0x1Fu;
        if (n > size - i) n = size - i;
        const uint64_t from = (ctl & 0x40u) ? 2u : 1u;
        const double t = (double)tick * 1e-3;
        if (ctl & 0x80u) hs_xcp_event(&x, tick++, t);
        if (ctl & 0x20u) {
            uint8_t d[4 + 0x20];
            d[0] = (uint8_t)n; d[1] = 0; d[2] = (uint8_t)tick; d[3] = 0;
            memcpy(d + 4, data + i, n);
            hs_xcp_rx(&x, d, n + 4, from, t);
        } else {
            hs_xcp_rx(&x, data + i, n, from, t);
        }
        i += n;
        fx_check(&x);
    }
    return 0;
}
