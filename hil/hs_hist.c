/* hs_hist.c - fixed-bin duration histogram. */
#include "hs_hist.h"

#include <string.h>

void hs_hist_init(hs_hist *h, uint32_t *bins, uint32_t nbins, int64_t bin_ns)
{
    (void)memset(h, 0, sizeof *h);
    (void)memset(bins, 0, (size_t)nbins * sizeof bins[0]);
    h->bins = bins;
    h->nbins = nbins;
    h->bin_ns = bin_ns > 0 ? bin_ns : 1;
    h->min = INT64_MAX;
    /* MISRA Ref 7.2.1 [stdint.h constant macro, suffixed in its expansion] */
    h->max = INT64_MIN;
}

void hs_hist_add(hs_hist *h, int64_t x, uint64_t cycle)
{
    int64_t xs = x; /* the sample as binned: negative ones go to bin 0 */
    if (x < h->min) {
        h->min = x;
    }
    if (x > h->max) {
        h->max = x;
    }
    h->sum += (double)x;
    if (x < 0) {
        /* A wake-up before the planned time would be a clock bug; keep it visible. */
        h->underflow++;
        xs = 0;
    }
    int64_t b = xs / h->bin_ns;
    if (b >= (int64_t)h->nbins) {
        if (h->overflow < (uint64_t)HS_HIST_OVF_KEEP) {
            h->ovf_at[h->overflow] = cycle;
        }
        h->overflow++;
    } else {
        h->bins[b]++;
    }
    h->count++;
}

int64_t hs_hist_quantile(const hs_hist *h, double p)
{
    if (h->count == 0u) {
        return 0;
    }
    double want = p * (double)h->count;
    uint64_t acc = 0;
    for (uint32_t i = 0; i < h->nbins; ++i) {
        acc += h->bins[i];
        if ((double)acc >= want && acc > 0u) {
            int64_t edge = ((int64_t)i + 1) * h->bin_ns;
            return edge < h->max ? edge : h->max;
        }
    }
    return h->max;
}

double hs_hist_mean(const hs_hist *h) { return (h->count != 0u) ? h->sum / (double)h->count : 0.0; }
