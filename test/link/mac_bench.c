/* mac_bench.c - build/hilstep-mac-bench: the per-frame cost of frame authentication, for
 * callgrind (make mac-bench). Builds and checks 1000 frames of each size the circular track
 * sends (argument: values per frame; 1 ECU -> plant, 4 plant -> ECU) under one key; the
 * instruction counts of hs_mac_tag (encode) and hs_mac_check (parse) per call are the cost of
 * a tag on that frame. */
#include "hs_frame.h"
#include "hs_mac.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    const unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 1u; /* values per frame, 1..64 */
    uint8_t key[32], b[HS_FRAME_MAX_BYTES];
    double v[4] = {1.0, 2.0, 3.0, 4.0}, w[4];
    hs_mac m;
    unsigned ok = 0;
    for (unsigned i = 0; i < sizeof key; ++i) key[i] = (uint8_t)i;
    hs_mac_init(&m, key, sizeof key);
    double vv[HS_FRAME_MAX_VALUES], ww[HS_FRAME_MAX_VALUES];
    if (n < 1u || n > HS_FRAME_MAX_VALUES) return 2;
    for (unsigned i = 0; i < n; ++i) vv[i] = v[i % 4u];
    for (uint32_t k = 1; k <= 1000; ++k) {
        hs_frame_hdr h = {HS_FRAME_VERSION, HS_FRAME_KIND_TO_PLANT, (uint16_t)n, 7, k, 0, 0, 0};
        hs_frame_hdr r;
        size_t len = hs_frame_encode_mac(b, sizeof b, &h, vv, &m);
        ok += hs_frame_parse_mac(b, len, HS_FRAME_KIND_TO_PLANT, n, &m, &r, ww) == HS_RX_OK;
    }
    (void)w;
    printf("mac-bench: %u of 1000 frames of %u values tagged and verified\n", ok, n);
    return ok == 1000u ? 0 : 1;
}
