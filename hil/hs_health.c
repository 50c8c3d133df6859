/* hs_health.c - link health and its verdict (hs_health.h). */
#include "hs_health.h"

#include <string.h>

/* Every rejection is counted and named in the summary; a datagram from another address never
 * reached the parser (the link obeys only its peer, and a stranger's flood is not the peer's
 * fault), so it alone is reported without failing the run. */
const hs_health_cause hs_health_causes[HS_RX_REASONS - 1] = {
    {HS_RX_FOREIGN, 0, "datagram from another address than the peer: dropped unread"},
    {HS_RX_SHORT, 1, "shorter than the link's frame: truncated, or another map"},
    {HS_RX_LONG, 1, "longer than the link's frame: another map"},
    {HS_RX_MAGIC, 1, "not a hilstep frame"},
    {HS_RX_VERSION, 1, "another frame version"},
    {HS_RX_CHECKSUM, 1, "CRC-32 wrong: corrupted on the way"},
    {HS_RX_LAYOUT, 1, "kind or value count of another map"},
    {HS_RX_SEQ_REPEATED, 1, "the same frame twice"},
    {HS_RX_SEQ_STALE, 1, "older than a frame already accepted"},
    {HS_RX_NONFINITE, 1, "a value NaN or Inf"},
    {HS_RX_SEQ_JUMP, 1, "sequence number far ahead, not confirmed"},
    {HS_RX_SESSION_NEW, 1, "a new session while the current one was live"},
    {HS_RX_SESSION_OLD, 1, "a session the link already left: a replay"},
    {HS_RX_MAC, 1, "bad or missing MAC: forged, or another key"},
    {HS_RX_OLD_RUN, 1, "authentic, but answering an earlier run's challenge: a replay"},
    /* a peer's frames before it heard this run's challenge are its start-up probes: counted,
     * harmless (hil/FRAME.md, "Sessions") */
    {HS_RX_UNANSWERED, 0, "authentic, sent before the peer heard this run's challenge"},
};
/* MISRA Ref 10.8.1 [table length, compile-time constant] */
const int hs_health_ncauses = (int)(sizeof hs_health_causes / sizeof hs_health_causes[0]);

int hs_health_judged(int reason)
{
    int j = 1;
    for (int i = 0; i < hs_health_ncauses; ++i) {
        if (hs_health_causes[i].reason == reason) {
            j = hs_health_causes[i].judged;
        }
    }
    return j;
}

hs_health_limits hs_health_strict(void)
{
    hs_health_limits l;
    l.max_fallback_ticks = 0u;
    l.max_rejected = 0u;
    l.allow_no_peer = 0;
    l.tol = HS_ERR_TOL_DEFAULT;
    return l;
}

void hs_health_init(hs_health *h, const hs_rx *rx, const hs_health_limits *lim)
{
    (void)memset(h, 0, sizeof *h);
    h->lim = (lim != NULL) ? *lim : hs_health_strict();
    h->n = rx->n;
}

/* A value is on its fallback when it is older than its stale limit: hs_rx_tick's own test. */
static int on_fallback(const hs_rx *rx, unsigned i)
{
    return (rx->age[i] > rx->sig[i]->stale_limit) ? 1 : 0;
}

void hs_health_tick(hs_health *h, const hs_rx *rx, int fresh)
{
    h->ticks++;
    if ((fresh != 0) && (h->up == 0)) {
        h->up = 1;
        h->up_tick = h->ticks - 1u;
    }
    if (h->up == 0) {
        for (unsigned i = 0; i < h->n; ++i) {
            h->startup_fallback[i] += (uint64_t)on_fallback(rx, i);
        }
        return;
    }
    if (fresh != 0) {
        h->quiet = 0u;
        h->silence_fb = 0;
    } else {
        h->quiet++;
        if (h->quiet > h->silence_max) {
            h->silence_max = h->quiet;
        }
    }
    for (unsigned i = 0; i < h->n; ++i) {
        if (rx->age[i] != 0u) {
            h->stale[i]++;
        }
        if (on_fallback(rx, i) != 0) {
            h->fallback[i]++;
            h->run_fb[i]++;
            if (h->silence_fb == 0) {
                h->silence_fb = 1;
                h->silences++;
            }
        } else {
            h->run_fb[i] = 0u;
        }
    }
}

void hs_health_finish(hs_health *h, int tail_ok)
{
    if (tail_ok == 0) {
        return;
    }
    for (unsigned i = 0; i < h->n; ++i) {
        h->fallback[i] -= h->run_fb[i];
        h->tail += h->run_fb[i];
        h->run_fb[i] = 0u;
    }
    if (h->silence_fb != 0) {
        h->silences--;
        h->silence_fb = 0;
    }
}

int hs_health_worst_input(const hs_health *h)
{
    int w = -1;
    uint64_t most = 0u;
    for (unsigned i = 0; i < h->n; ++i) {
        if (h->fallback[i] > most) {
            most = h->fallback[i];
            w = (int)i;
        }
    }
    return w;
}

uint64_t hs_health_rejected(const hs_rx *rx)
{
    uint64_t t = 0u;
    for (int r = 1; r < HS_RX_REASONS; ++r) {
        if (hs_health_judged(r) != 0) {
            t += rx->st.rejected[r];
        }
    }
    return t;
}

hs_health_class hs_health_judge(const hs_health *h, const hs_rx *rx)
{
    const int w = hs_health_worst_input(h);
    hs_health_class c = HS_HEALTH_OK;
    if (hs_health_rejected(rx) > h->lim.max_rejected) {
        c = HS_HEALTH_REJECTED;
    } else if ((h->up == 0) && (h->n > 0u) && (h->lim.allow_no_peer == 0)) {
        c = HS_HEALTH_NO_PEER;
    } else if ((w >= 0) && (h->fallback[w] > h->lim.max_fallback_ticks)) {
        c = HS_HEALTH_FALLBACK;
    } else {
        c = HS_HEALTH_OK;
    }
    return c;
}

hs_status hs_health_status(hs_health_class c)
{
    hs_status st = HS_OK;
    if (c == HS_HEALTH_REJECTED) {
        st = HS_E_LINK_REJECTED;
    } else if (c == HS_HEALTH_NO_PEER) {
        st = HS_E_LINK_NO_PEER;
    } else if (c == HS_HEALTH_FALLBACK) {
        st = HS_E_LINK_FALLBACK;
    } else {
        st = HS_OK;
    }
    return st;
}

/* A line builder without stdio (the board links no printf): text and unsigned decimals. */
typedef struct line {
    char *b;
    size_t cap, len;
} line;

static void put(line *l, const char *s)
{
    const char *c = s;
    while ((c != NULL) && (*c != '\0') && ((l->len + 1u) < l->cap)) {
        l->b[l->len] = *c;
        l->len++;
        c++;
    }
    l->b[l->len] = '\0';
}

static void put_u(line *l, uint64_t v)
{
    char d[21];
    int k = 0;
    uint64_t x = v;
    do {
        static const char digit[] = "0123456789";
        d[k] = digit[x % 10u];
        k++;
        x /= 10u;
    } while ((x != 0u) && (k < 20));
    char s[2] = {'\0', '\0'};
    while (k > 0) {
        k--;
        s[0] = d[k];
        put(l, s);
    }
}

/* ticks as milliseconds at period_us, rounded to the nearest ms */
static void put_ms(line *l, uint64_t ticks, uint32_t period_us)
{
    put_u(l, (ticks * (uint64_t)period_us + 500u) / 1000u);
    put(l, " ms");
}

/* " (bad_checksum 662, short 3; limit 0)": every judged cause that occurred, and the limit */
static void put_causes(line *l, const hs_rx *rx, uint64_t limit)
{
    const char *sep = " (";
    for (int r = 1; r < HS_RX_REASONS; ++r) {
        if ((hs_health_judged(r) != 0) && (rx->st.rejected[r] != 0u)) {
            put(l, sep);
            put(l, hs_rx_reason_name(r));
            put(l, " ");
            put_u(l, rx->st.rejected[r]);
            sep = ", ";
        }
    }
    put(l, "; limit ");
    put_u(l, limit);
    put(l, ")");
}

static void put_silence(line *l, const hs_health *h, uint32_t period_us)
{
    put(l, "longest silence ");
    put_ms(l, h->silence_max, period_us);
    put(l, ", ");
    put_u(l, h->silences);
    put(l, (h->silences == 1u) ? " silence" : " silences");
    put(l, " that put inputs on their fallbacks");
}

size_t hs_health_line(const hs_health *h, const hs_rx *rx, const char *peer, uint32_t period_us,
                      char *buf, size_t cap)
{
    line l = {buf, cap, 0u};
    if ((buf == NULL) || (cap == 0u)) {
        return 0u;
    }
    buf[0] = '\0';
    const hs_health_class c = hs_health_judge(h, rx);
    const int w = hs_health_worst_input(h);
    put(&l, "link: ");
    if (c == HS_HEALTH_REJECTED) {
        put_u(&l, hs_health_rejected(rx));
        put(&l, " frames from the ");
        put(&l, peer);
        put(&l, " rejected");
        put_causes(&l, rx, h->lim.max_rejected);
        if (h->up == 0) {
            put(&l, ", none applied: ");
            put(&l, peer);
            put(&l, " never heard");
        }
    } else if (c == HS_HEALTH_NO_PEER) {
        put(&l, peer);
        put(&l, " never heard: no frame applied in ");
        put_u(&l, h->ticks);
        put(&l, " ticks, every input on its fallback");
    } else if (c == HS_HEALTH_FALLBACK) {
        put(&l, "input ");
        put(&l, rx->sig[w]->name);
        put(&l, " on fallback ");
        put_u(&l, h->fallback[w]);
        put(&l, " ticks after link up (limit ");
        put_u(&l, h->lim.max_fallback_ticks);
        put(&l, "; ");
        put_silence(&l, h, period_us);
        put(&l, ")");
    } else if (h->up == 0) {
        put(&l, "not judged: ");
        put(&l, peer);
        put(&l, (h->n > 0u) ? " never heard (allowed)" : " never heard, the link carries no inputs");
    } else {
        put(&l, "ok, first frame at tick ");
        put_u(&l, h->up_tick);
        put(&l, ", ");
        put_silence(&l, h, period_us);
    }
    return l.len;
}

hs_status hs_health_accuracy(double err_est, double tol)
{
    hs_status st = HS_OK;
    if ((tol > 0.0) && !(err_est <= tol)) {
        st = HS_E_INACCURATE;
    }
    return st;
}
