/* fuzz_hist.c - libFuzzer harness of the duration histogram (hil/hs_hist.c).
 *
 * Input: byte 0 = bins (0..63), bytes 1..8 = bin width (raw int64: zero and negative widths
 * become 1 ns), then samples of 1..8 bytes (the first byte's low 3 bits give the length,
 * sign-extended: negative, huge and INT64 extremes reachable). Checked invariants (abort on
 * violation): count = samples; bins + overflow = count; underflow = negative samples; min/max
 * exact; the first overflows' cycle numbers kept in order; quantiles non-decreasing in p,
 * at most max, 0 when empty; the mean between min and max. */
#include "hs_hist.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void require(int ok)
{
    if (!ok) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint32_t bins[64];
    hs_hist h;
    int64_t w;
    if (size < 9u) return 0;
    const uint32_t nb = data[0] % 64u;
    memcpy(&w, data + 1, sizeof w);
    /* Widths that would make the bin edges overflow int64 are a caller's error; keep them sane. */
    if (w > ((int64_t)1 << 40)) w = (int64_t)1 << 40;
    hs_hist_init(&h, bins, nb, w);
    require(h.bin_ns >= 1 && h.count == 0u && hs_hist_quantile(&h, 0.5) == 0 && hs_hist_mean(&h) == 0.0);
    data += 9;
    size -= 9;
    uint64_t count = 0, neg = 0, ovf = 0;
    int64_t mn = INT64_MAX, mx = INT64_MIN;
    while (size > 0u) {
        const size_t len = 1u + (data[0] & 7u);
        const size_t k = len < size ? len : size;
        uint64_t raw = 0;
        for (size_t i = 0; i < k; ++i) raw |= (uint64_t)data[i] << (8u * i);
        raw >>= 3;
        if (k < 8u && (data[k - 1] & 0x80u)) raw |= ~(uint64_t)0 << (8u * k - 3u); /* sign-extend */
        int64_t x;
        memcpy(&x, &raw, sizeof x);
        if (data[0] == 0xffu) x = INT64_MIN;
        if (data[0] == 0xfeu) x = INT64_MAX;
        data += k;
        size -= k;
        const int64_t xs = x < 0 ? 0 : x;
        const int over = (uint64_t)(xs / h.bin_ns) >= nb;
        hs_hist_add(&h, x, count);
        if (over) {
            ovf++;
            if (ovf <= HS_HIST_OVF_KEEP) require(h.ovf_at[ovf - 1u] == count);
        }
        count++;
        neg += (x < 0);
        if (x < mn) mn = x;
        if (x > mx) mx = x;
    }
    uint64_t inbins = 0;
    for (uint32_t i = 0; i < nb; ++i) inbins += bins[i];
    require(h.count == count && h.overflow == ovf && h.underflow == neg && inbins + ovf == count);
    if (count == 0u) return 0;
    require(h.min == mn && h.max == mx);
    int64_t prev = INT64_MIN;
    for (int i = 0; i <= 20; ++i) {
        const int64_t q = hs_hist_quantile(&h, i / 20.0);
        require(q >= prev && q <= mx);
        prev = q;
    }
    const double m = hs_hist_mean(&h);
    const double big = (double)(mn < 0 ? -(mn + 1) : mn) > (double)(mx < 0 ? -(mx + 1) : mx)
                           ? (double)(mn < 0 ? -(mn + 1) : mn) : (double)(mx < 0 ? -(mx + 1) : mx);
    const double tol = 1e-15 * big * (double)count + 1.0; /* rounding of the double sum */
    require(m >= (double)mn - tol && m <= (double)mx + tol);
    return 0;
}
