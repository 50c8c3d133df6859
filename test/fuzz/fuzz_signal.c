/* fuzz_signal.c - libFuzzer harness of the signal-map validation (hil/hs_signal.c:
 * hs_signal_map_check) and of what a map that passes it promises: hs_rx_init/hs_tx_init
 * succeed, a frame built from the outputs' fallbacks decodes, and received values are
 * clamped into [min, max].
 *
 * Input: byte 0 = number of signals (0..12), byte 1/2 = expected inputs/outputs, then per
 * signal 47 bytes: name selector, unit selector, direction, stale limit (4), scale, offset,
 * min, max, fallback (8 each, raw IEEE-754 bits: NaN, Inf, subnormals all reachable). */
#include "hs_frame.h"
#include "hs_signal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAXS 12
#define PER 47

static void require(int ok)
{
    if (!ok) abort();
}

static double rd(const uint8_t *p)
{
    double d;
    memcpy(&d, p, sizeof d);
    return d;
}

/* The API's edges: no map, a count without a table, a reason buffer
 * of 0 bytes, and maps of more signals than a frame carries, which hs_signal_map_check refuses
 * and which hs_rx_init / hs_tx_init refuse on their own too. */
static void edges(void)
{
    static hs_signal big[HS_FRAME_MAX_VALUES + 1];
    static char bname[HS_FRAME_MAX_VALUES + 1][8];
    static hs_rx rx;
    static hs_tx tx;
    hs_error why;
    require(hs_signal_map_check(NULL, 0, 0, &why) == HS_E_SIGNAL_MAP && why.detail[0] != '\0');
    require(hs_signal_map_check(NULL, 0, 0, NULL) == HS_E_SIGNAL_MAP);
    const hs_signal_map none = {"none", NULL, 1};
    require(hs_signal_map_check(&none, 1, 0, &why) == HS_E_SIGNAL_MAP && why.detail[0] != '\0');
    for (int dir = 0; dir < 2; ++dir) {
        for (unsigned i = 0; i <= HS_FRAME_MAX_VALUES; ++i) {
            bname[i][0] = 's';
            bname[i][1] = (char)('0' + i / 10u);
            bname[i][2] = (char)('0' + i % 10u);
            bname[i][3] = '\0';
            hs_signal sg = {bname[i], "1", (hs_sig_dir)dir, 1.0, 0.0, -1.0, 1.0, 0.0, 1u};
            big[i] = sg;
        }
        const hs_signal_map m = {"big", big, (int)HS_FRAME_MAX_VALUES + 1};
        const int nin = dir == 0 ? (int)HS_FRAME_MAX_VALUES + 1 : 0;
        require(hs_signal_map_check(&m, nin, (int)HS_FRAME_MAX_VALUES + 1 - nin, &why) == HS_E_SIGNAL_MAP);
        require(why.detail[0] != '\0' && why.has_value == 1 && why.value == (double)HS_FRAME_MAX_VALUES + 1.0);
        require(dir == 0 ? hs_rx_init(&rx, &m, HS_FRAME_KIND_TO_PLANT) == HS_E_SIZE
                         : hs_tx_init(&tx, &m, HS_FRAME_KIND_FROM_PLANT, 1u) == HS_E_SIZE);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int edges_done;
    if (!edges_done) { /* once per process: they do not depend on the input */
        edges();
        edges_done = 1;
    }
    static const char *const names[] = {"F_t", "speed", "radius", "x1", "x2", "", "a", "F_t ", NULL};
    static const char *const units[] = {"N", "m/s", "1", NULL, ""};
    if (size < 3) return 0;
    int n = data[0] % (MAXS + 1);
    const int nin = data[1] % 8, nout = data[2] % 8;
    data += 3;
    size -= 3;
    if (size < (size_t)n * PER) n = (int)(size / PER);
    hs_signal sig[MAXS];
    for (int i = 0; i < n; ++i) {
        const uint8_t *p = data + (size_t)i * PER;
        sig[i].name = names[p[0] % 9];
        sig[i].unit = units[p[1] % 5];
        sig[i].dir = (hs_sig_dir)(p[2] % 3);
        uint32_t sl;
        memcpy(&sl, p + 3, 4);
        sig[i].stale_limit = sl % 64u;
        sig[i].scale = rd(p + 7);
        sig[i].offset = rd(p + 15);
        sig[i].min = rd(p + 23);
        sig[i].max = rd(p + 31);
        sig[i].fallback = rd(p + 39);
    }
    hs_signal_map map = {"fuzz", n ? sig : NULL, n};
    hs_error why;
    memset(&why, 'X', sizeof why);
    int rc = hs_signal_map_check(&map, nin, nout, &why);
    require(rc == HS_OK || rc == HS_E_SIGNAL_MAP);
    require(memchr(why.detail, '\0', sizeof why.detail) != NULL);   /* reason always terminated */
    require(memchr(why.field, '\0', sizeof why.field) != NULL);
    require(why.status == rc && why.msg != NULL);
    require(rc != 0 || why.detail[0] == '\0');
    require(rc == 0 || why.detail[0] != '\0');
    require(rc == 0 || why.index < n);
    if (rc != 0) return 0;

    /* A valid map keeps its promises. */
    static hs_rx rx;
    static hs_tx tx;
    require(hs_rx_init(&rx, &map, HS_FRAME_KIND_TO_PLANT) == 0 && rx.n == (unsigned)nin);
    require(hs_tx_init(&tx, &map, HS_FRAME_KIND_FROM_PLANT, 7u) == 0 && tx.n == (unsigned)nout);
    uint8_t buf[HS_FRAME_MAX_BYTES];
    size_t len = hs_tx_build(&tx, buf, sizeof buf, NULL, 0u, 0u, HS_FLAG_SAFE);
    require(len == HS_FRAME_BYTES(nout));
    hs_frame_hdr h;
    double v[HS_FRAME_MAX_VALUES];
    int pr = hs_frame_parse(buf, len, HS_FRAME_KIND_FROM_PLANT, (unsigned)nout, &h, v);
    /* (fallback - offset) / scale can overflow to Inf for extreme maps: then it is refused. */
    require(pr == HS_RX_OK || pr == HS_RX_NONFINITE);
    /* Inputs: a frame of wire values taken from the fallbacks' bytes is clamped in range. */
    double w[HS_FRAME_MAX_VALUES];
    for (int i = 0; i < nin; ++i) w[i] = rx.sig[i]->fallback * 3.0 - 1.0;
    hs_frame_hdr hi = {HS_FRAME_VERSION, HS_FRAME_KIND_TO_PLANT, (uint16_t)nin, 1u, 1u, 0u, 0u, 0u};
    len = hs_frame_encode(buf, sizeof buf, &hi, w);
    if (hs_rx_offer(&rx, buf, len, 1) == HS_RX_OK) {
        hs_real in[HS_FRAME_MAX_VALUES];
        require(hs_rx_tick(&rx, in) == 1);
        for (int i = 0; i < nin; ++i)
            require((double)in[i] >= rx.sig[i]->min && (double)in[i] <= rx.sig[i]->max);
    }
    return 0;
}
