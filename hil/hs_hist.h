/* hs_hist.h - fixed-bin histogram of durations (latency, execution time), the way cyclictest
 * keeps its -h histogram: equal bins from 0, an overflow count, min / max / sum kept exactly.
 * Recording is O(1) and never allocates, so the real-time side may call it every frame. */
#ifndef HS_HIST_H
#define HS_HIST_H

#include <stdint.h>

/* Overflow events whose cycle number is remembered (cyclictest prints the first ones too). */
#define HS_HIST_OVF_KEEP 32

/* A histogram over [0, nbins * bin_ns) ns; bins storage belongs to the caller. */
typedef struct hs_hist {
    uint32_t *bins;      /* (nbins) counts */
    uint32_t nbins;      /* number of bins */
    int64_t bin_ns;      /* bin width (ns), > 0 */
    uint64_t count;      /* samples recorded, overflows included */
    uint64_t overflow;   /* samples >= nbins * bin_ns */
    uint64_t underflow;  /* samples < 0 (counted in bin 0 as well) */
    int64_t min, max;    /* extreme samples (ns) */
    double sum;          /* sum of samples (ns), for the mean */
    uint64_t ovf_at[HS_HIST_OVF_KEEP]; /* cycle numbers of the first overflows */
} hs_hist;

/* Binds zeroed storage of nbins bins of bin_ns ns each. */
void hs_hist_init(hs_hist *h, uint32_t *bins, uint32_t nbins, int64_t bin_ns);

/* Records one sample x (ns) taken at cycle number cycle. */
void hs_hist_add(hs_hist *h, int64_t x, uint64_t cycle);

/* Quantile p in [0, 1] (ns): upper edge of the bin where the cumulative count reaches
 * p * count, or max when that falls among the overflows; 0 when empty. */
int64_t hs_hist_quantile(const hs_hist *h, double p);

/* Mean of the samples (ns); 0 when empty. */
double hs_hist_mean(const hs_hist *h);

#endif
