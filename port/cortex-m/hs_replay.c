/* hs_replay.c - an input CSV replayed on the board (see hs_replay.h). */
#include "hs_replay.h"
#include "hs_board.h"

/* Appends s to why (cap bytes, kept terminated); returns the new length. */
static size_t put(char *why, size_t cap, size_t n, const char *s)
{
    while (*s != '\0' && n + 1u < cap) {
        why[n++] = *s++;
    }
    if (cap > 0u) {
        why[n] = '\0';
    }
    return n;
}

void hs_label_split(const char *s, char *name, size_t ncap, char *unit, size_t ucap)
{
    while (*s == ' ' || *s == '\t') ++s;
    size_t k = 0;
    while (*s != '\0' && *s != '[' && *s != '(' && k + 1u < ncap) name[k++] = *s++;
    while (k > 0u && (name[k - 1u] == ' ' || name[k - 1u] == '\t')) --k;
    name[k] = '\0';
    k = 0;
    if (*s == '[' || *s == '(') {
        const char close = *s == '[' ? ']' : ')';
        ++s;
        while (*s == ' ') ++s;
        while (*s != '\0' && *s != close && k + 1u < ucap) unit[k++] = *s++;
        while (k > 0u && unit[k - 1u] == ' ') --k;
    }
    unit[k] = '\0';
}

/* Input i's name and unit ("in<i+1>" without a unit when the model has no labels). */
static void input_label(const hs_model_type *T, int i, char *name, size_t ncap, char *unit, size_t ucap)
{
    if (T->in_names != NULL && T->in_names[i] != NULL) {
        hs_label_split(T->in_names[i], name, ncap, unit, ucap);
    } else {
        size_t k = put(name, ncap, 0, "in");
        char d[12];
        int nd = 0;
        for (unsigned v = (unsigned)i + 1u; v != 0u || nd == 0; v /= 10u) d[nd++] = (char)('0' + (int)(v % 10u));
        while (nd > 0 && k + 1u < ncap) name[k++] = d[--nd];
        name[k] = '\0';
        unit[0] = '\0';
    }
}

hs_status hs_replay_bind(hs_replay *r, const hs_replay_table *tab, const hs_model_type *T,
                         int nin, double h, char *why, size_t cap)
{
    char mn[64], mu[64];
    size_t n = 0;
    r->tab = tab;
    r->h = h;
    r->ncol = 0;
    r->offered = 0;
    r->refused = 0;
    if (tab == NULL || tab->rows == 0u) {
        return HS_OK;
    }
    if (tab->cols > HS_REPLAY_MAX_COLS || tab->rows > HS_REPLAY_MAX_ROWS) {
        n = put(why, cap, n, tab->file);
        (void)put(why, cap, n, ": more columns or rows than the board's replay holds");
        return HS_E_USAGE;
    }
    for (uint32_t j = 0; j < tab->cols; ++j) {
        int which = -1;
        for (int i = 0; i < nin && which < 0; ++i) {
            input_label(T, i, mn, sizeof mn, mu, sizeof mu);
            if (hs_streq(tab->name[j], mn) != 0) which = i;
        }
        if (which < 0) {
            n = put(why, cap, n, tab->file);
            n = put(why, cap, n, ": column '");
            n = put(why, cap, n, tab->name[j]);
            n = put(why, cap, n, "' is not an input of model ");
            n = put(why, cap, n, T->name);
            n = put(why, cap, n, " (inputs:");
            for (int i = 0; i < nin; ++i) {
                input_label(T, i, mn, sizeof mn, mu, sizeof mu);
                n = put(why, cap, n, i != 0 ? ", " : " ");
                n = put(why, cap, n, mn);
            }
            (void)put(why, cap, n, nin != 0 ? ")" : " none)");
            return HS_E_USAGE;
        }
        input_label(T, which, mn, sizeof mn, mu, sizeof mu);
        if (tab->unit[j][0] != '\0' && mu[0] != '\0' && hs_streq(tab->unit[j], mu) == 0) {
            n = put(why, cap, n, tab->file);
            n = put(why, cap, n, ": column '");
            n = put(why, cap, n, tab->name[j]);
            n = put(why, cap, n, "' is in ");
            n = put(why, cap, n, tab->unit[j]);
            n = put(why, cap, n, ", input ");
            n = put(why, cap, n, mn);
            n = put(why, cap, n, " is in ");
            (void)put(why, cap, n, mu);
            return HS_E_USAGE;
        }
        for (uint32_t k = 0; k < j; ++k) {
            if (r->slot[k] == (uint8_t)which) {
                n = put(why, cap, n, tab->file);
                n = put(why, cap, n, ": input ");
                n = put(why, cap, n, mn);
                (void)put(why, cap, n, " has two columns");
                return HS_E_USAGE;
            }
        }
        r->slot[j] = (uint8_t)which;
    }
    r->ncol = (int)tab->cols;
    return HS_OK;
}

void hs_replay_at(const hs_replay *r, double t, double *v)
{
    const hs_replay_table *tab = r->tab;
    const uint32_t rows = tab->rows, cols = tab->cols;
    /* lo: the last row with t[lo] <= t (a step time k h may round a hair below a row's t);
     * the same tolerance, bisection and arithmetic as hs_sim_inputs_at. */
    const double tq = t + 1e-9 * (r->h > 0 ? r->h : 0.0);
    uint32_t lo = 0, hi = rows;
    if (tq < tab->t[0]) {
        hi = 0;
    } else {
        /* a fixed number of halvings (every step the same work): 17 reach one row of the
         * HS_REPLAY_MAX_ROWS = 2^16 the table may hold; the extra ones change nothing */
        for (int it = 0; it < HS_REPLAY_BISECT; ++it) {
            if (hi - lo > 1u) {
                const uint32_t mid = lo + (hi - lo) / 2u;
                if (tab->t[mid] <= tq) lo = mid; else hi = mid;
            }
        }
        hi = lo + 1u;
    }
    for (uint32_t j = 0; j < cols; ++j) {
        if (hi == 0u) {
            v[j] = tab->v[j];
        } else if (hi >= rows || tab->hold != 0) {
            v[j] = tab->v[lo * cols + j];
        } else {
            const double t0 = tab->t[lo], t1 = tab->t[hi];
            const double v0 = tab->v[lo * cols + j];
            const double v1 = tab->v[hi * cols + j];
            const double w = (t - t0) / (t1 - t0);
            v[j] = w <= 0 ? v0 : (w >= 1 ? v1 : v0 + w * (v1 - v0));
        }
    }
}

void hs_replay_offer(hs_replay *r, hs_rx *rx, uint64_t k)
{
    double v[HS_REPLAY_MAX_COLS];
    if (r->tab == NULL || r->ncol == 0) {
        return;
    }
    /* t = k h in double, as hilstep-sim's loop computes it */
    hs_replay_at(r, (double)k * r->h, v);
    r->offered++;
    if (hs_rx_offer_values(rx, r->slot, v, (unsigned)r->ncol, (uint32_t)(k + 1u)) != HS_RX_OK) {
        r->refused++;
    }
}
