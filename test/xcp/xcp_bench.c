/* xcp_bench.c - instructions per frame of the plant with and without an XCP DAQ (xcp-test,
 * `make xcp-bench`). Runs N frames of a description's plant (hs_plant_step, the frame function
 * every port calls) in frame(); with daq = 1 a master configured through hs_xcp_rx (the same
 * packets a master sends: FREE_DAQ, ALLOC_*, WRITE_DAQ of every output and t, SET_DAQ_LIST_MODE
 * with timestamps, START_STOP) has a list running, and frame() adds hs_xcp_event, which builds
 * and hands over the DTO. callgrind counts frame() alone (--toggle-collect=frame).
 * DAQ = 2: after the frames, one calibration of a description's param (the first --param-able
 * one, times 1.1) as hilstep-rt does it: recompile() parses and compiles the description with
 * the new value (off the real-time thread there), apply() swaps the tables in and sets the
 * stepper's state again (between two steps); callgrind counts each (--toggle-collect).
 * Usage: xcp_bench FILE.hsm N DAQ(0|1|2) */
#include "hs_mb_file.h"
#include "hs_mb_map.h"
#include "hs_plant.h"
#include "hs_xcp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static hs_real g_reals[HS_STEPPER_REALS(HS_PLANT_MAX_NQ, HS_PLANT_MAX_NC, HS_PLANT_MAX_NZ)];
static int g_ints[HS_STEPPER_INTS(HS_PLANT_MAX_NQ, HS_PLANT_MAX_NC) + (1 << 16)];
static hs_mb_store g_st;
static hs_mb_model g_mb;
static hs_plant g_p;
static hs_xcp g_x;
static uint64_t g_sent, g_bytes, g_errors;
static uint8_t g_out[HS_FRAME_MAX_BYTES];

static void sink(void *ctx, const uint8_t *p, size_t n, uint64_t to)
{
    (void)ctx;
    (void)to;
    if (n > 4 && p[4] == 0xFE) ++g_errors;
    ++g_sent;
    g_bytes += n;
}

static int no_cal(void *ctx, uint32_t i, hs_real v)
{
    (void)ctx; (void)i; (void)v;
    return HS_XCP_CAL_REFUSED;
}

/* One command from the master at address 1. */
static void cmd(const uint8_t *c, size_t n)
{
    uint8_t b[64];
    b[0] = (uint8_t)n; b[1] = 0; b[2] = 0; b[3] = 0;
    memcpy(b + 4, c, n);
    hs_xcp_rx(&g_x, b, n + 4, 1u, 0.0);
}

static void write_daq(uint32_t addr)
{
    const uint8_t c[8] = {HS_XCP_WRITE_DAQ, 0xFF, 8, 0, (uint8_t)addr, (uint8_t)(addr >> 8),
                          (uint8_t)(addr >> 16), (uint8_t)(addr >> 24)};
    cmd(c, 8);
}

__attribute__((noinline)) void frame(uint64_t k, int daq);
__attribute__((noinline)) void frame(uint64_t k, int daq)
{
    (void)hs_plant_step(&g_p, k, 0, g_out, sizeof g_out, NULL);
    if (daq) hs_xcp_event(&g_x, k, (double)g_p.st.t);
}

static char g_text[HS_MB_FILE_MAX + 1];
static size_t g_len;
static hs_mb_store g_st2;
static hs_mb_model g_mb2;
static hs_mb_overrides g_ovr;

__attribute__((noinline)) int recompile(void);
__attribute__((noinline)) int recompile(void)
{
    hs_mb_error err;
    return hs_mb_parse_compile_ovr(g_text, g_len, &g_st2, &g_ovr, &g_mb2, HS_MB_PACK_AUTO, &err) == HS_OK ? 0 : -1;
}

__attribute__((noinline)) int apply(hs_model *m);
__attribute__((noinline)) int apply(hs_model *m)
{
    static hs_real q[HS_PLANT_MAX_NQ], u[HS_PLANT_MAX_NQ], z[HS_PLANT_MAX_NZ];
    hs_stepper *st = &g_p.st;
    m->type = &g_mb2.type;
    m->desc = &g_mb2;
    memcpy(q, st->q, (size_t)st->nq * sizeof q[0]);
    memcpy(u, st->u, (size_t)st->nq * sizeof u[0]);
    if (st->nz > 0) memcpy(z, st->z, (size_t)st->nz * sizeof z[0]);
    return hs_stepper_set_state(st, st->t, q, u, z) == HS_OK ? 0 : -1;
}

static int calibrate(const char *path, hs_model *m)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    g_len = fread(g_text, 1, HS_MB_FILE_MAX, f);
    fclose(f);
    const char *bad = "";
    if (g_st.nparams < 1 || hs_mb_override_add(&g_ovr, g_st.param_names[0], g_st.param_val[0] * 1.1, &bad)) return -1;
    if (recompile() != 0 || apply(m) != 0) return -1;
    printf("xcp_bench: calibrated %s = %.17g: recompiled and applied\n", g_st.param_names[0], g_st.param_val[0] * 1.1);
    return 0;
}

int main(int argc, char **argv)
{
    char why[512];
    if (argc != 4) { fprintf(stderr, "usage: xcp_bench FILE.hsm N DAQ\n"); return 2; }
    const long n = atol(argv[2]);
    const int daq = atoi(argv[3]);
    static hs_model m;
    if (hs_mb_load_file_msg(argv[1], &g_st, &g_mb, HS_MB_PACK_AUTO, why, sizeof why)) { fprintf(stderr, "%s\n", why); return 2; }
    if (hs_mb_model_init(&m, &g_mb) != HS_OK) return 2;
    const hs_signal_map *map = NULL;
    static hs_mb_sigmap sm;
    map = hs_mb_signal_map(&g_st, &g_mb, &sm);
    hs_plant_def def = hs_plant_default_def();
    def.map = map;
    if (hs_plant_initialize(&g_p, &def, &m, g_reals, sizeof g_reals / sizeof g_reals[0], g_ints,
                            sizeof g_ints / sizeof g_ints[0], why, sizeof why) != HS_OK) {
        fprintf(stderr, "%s\n", why);
        return 2;
    }
    hs_xcp_def xd;
    memset(&xd, 0, sizeof xd);
    static hs_real lo[1], hi[1];
    xd.send = sink;
    xd.cal = no_cal;
    xd.lo = lo;
    xd.hi = hi;
    xd.period_us = 1000;
    xd.id = "bench";
    hs_xcp_init(&g_x, &xd);
    const uint32_t rs = (uint32_t)sizeof(hs_real);
    (void)hs_xcp_region_add(&g_x, HS_XCP_ADDR_OUT, (uint32_t)g_p.d.nout, rs, g_p.y, 0);
    (void)hs_xcp_region_add(&g_x, HS_XCP_ADDR_T, 1u, rs, &g_p.st.t, 0);
    const uint8_t con[2] = {HS_XCP_CONNECT, 0}, fr[1] = {HS_XCP_FREE_DAQ};
    const uint8_t ad[4] = {HS_XCP_ALLOC_DAQ, 0, 1, 0}, ao[5] = {HS_XCP_ALLOC_ODT, 0, 0, 0, 1};
    const uint8_t ae[6] = {HS_XCP_ALLOC_ODT_ENTRY, 0, 0, 0, 0, (uint8_t)(g_p.d.nout + 1)};
    const uint8_t ptr[6] = {HS_XCP_SET_DAQ_PTR, 0, 0, 0, 0, 0};
    const uint8_t mode[8] = {HS_XCP_SET_DAQ_LIST_MODE, 0x10, 0, 0, 0, 0, 1, 0};
    const uint8_t sel[4] = {HS_XCP_START_STOP_DAQ_LIST, 2, 0, 0}, go[2] = {HS_XCP_START_STOP_SYNCH, 1};
    cmd(con, 2); cmd(fr, 1); cmd(ad, 4); cmd(ao, 5); cmd(ae, 6); cmd(ptr, 6);
    for (int i = 0; i < g_p.d.nout; ++i) write_daq(HS_XCP_ADDR_OUT + (uint32_t)i * rs);
    write_daq(HS_XCP_ADDR_T);
    cmd(mode, 8); cmd(sel, 4); cmd(go, 2);
    if (g_errors) { fprintf(stderr, "xcp_bench: the DAQ setup was refused\n"); return 1; }
    const uint64_t before = g_sent, bytes0 = g_bytes;
    for (long k = 0; k < n; ++k) frame((uint64_t)k, daq == 1);
    if (daq == 2 && calibrate(argv[1], &m) != 0) { fprintf(stderr, "xcp_bench: the calibration failed\n"); return 1; }
    if (daq == 2) for (long k = 0; k < 10; ++k) frame((uint64_t)(n + k), 0);
    printf("xcp_bench: model %s, %ld frames, daq %d: %llu DTOs of %llu bytes, %d values each, faults %llu\n",
           g_mb.type.name, n, daq, (unsigned long long)(g_sent - before),
           (unsigned long long)(g_sent > before ? (g_bytes - bytes0) / (g_sent - before) : 0), g_p.d.nout + 1,
           (unsigned long long)g_p.faults);
    return g_p.faults ? 1 : 0;
}
