/* hs_signal.c - signal map validation, receive validation and the outgoing frame. */
#include "hs_signal.h"

#include <string.h>

/* Appends s to the record's detail without stdio, so the board build links no printf. */
static void why_add(hs_error *err, const char *s)
{
    size_t k = strlen(err->detail);
    while (*s != '\0' && k + 1u < sizeof err->detail) {
        err->detail[k++] = *s++;
    }
    err->detail[k] = '\0';
}

/* Appends the decimal digits of v >= 0 (a signal count) to the record's detail. */
static void why_add_count(hs_error *err, int v)
{
    static const char digits[] = "0123456789";
    char d[12];
    int n = 0;
    unsigned u = (v > 0) ? (unsigned)v : 0u;
    do {
        d[n] = digits[u % 10u];
        ++n;
        u /= 10u;
    } while ((u != 0u) && (n < 11));
    char r[12];
    for (int i = 0; i < n; ++i) {
        r[i] = d[n - 1 - i];
    }
    r[n] = '\0';
    why_add(err, r);
}

/* Fills err (when not NULL) with the refusal of signal s (index i; NULL, -1 for the whole
 * map): msg the reason, field the signal's name, detail the one line a tool prints,
 * "signal map APP, signal NAME: reason". */
static hs_status why_fail(hs_error *err, const hs_signal_map *map, const hs_signal *s, int i, const char *msg)
{
    if (err == NULL) {
        return HS_E_SIGNAL_MAP;
    }
    err->status = HS_E_SIGNAL_MAP;
    err->line = 0;
    err->index = (s != NULL) ? i : -1;
    err->msg = msg;
    err->has_value = 0;
    err->value = 0.0;
    err->field[0] = '\0';
    if ((s != NULL) && (s->name != NULL)) {
        size_t k = 0u;
        /* MISRA Ref 10.4.2 [character code vs character constant] */
        while ((s->name[k] != '\0') && (k + 1u < sizeof err->field)) {
            err->field[k] = s->name[k];
            ++k;
        }
        err->field[k] = '\0';
    }
    err->detail[0] = '\0';
    why_add(err, "signal map ");
    why_add(err, map && map->app ? map->app : "?");
    if (s != NULL) {
        why_add(err, ", signal ");
        why_add(err, s->name ? s->name : "(unnamed)");
    }
    why_add(err, ": ");
    why_add(err, msg);
    return HS_E_SIGNAL_MAP;
}

/* why_fail for a count of the map (have) against the limit or the model's (want): the
 * detail names both, value holds have. */
static hs_status count_fail(hs_error *err, const hs_signal_map *map, const char *msg, int have, int want)
{
    (void)why_fail(err, map, NULL, -1, msg);
    if (err != NULL) {
        why_add(err, " (map ");
        why_add_count(err, have);
        why_add(err, ", ");
        why_add_count(err, want);
        why_add(err, ")");
        err->has_value = 1;
        err->value = (double)have;
    }
    return HS_E_SIGNAL_MAP;
}

/* x - x is 0 for finite x and NaN for NaN/Inf; avoids libm's isfinite. */
static int finite_d(double x) { return (x - x) == (x - x); }

int hs_signal_map_count(const hs_signal_map *map, hs_sig_dir dir)
{
    int c = 0;
    for (int i = 0; i < map->n; ++i) {
        c += (int)(map->sig[i].dir == dir);
    }
    return c;
}

hs_status hs_signal_map_check(const hs_signal_map *map, int nin, int nout, hs_error *err)
{
    if (err != NULL) {
        err->status = HS_OK;
        err->line = 0;
        err->index = -1;
        err->field[0] = '\0';
        err->msg = "ok";
        err->detail[0] = '\0';
        err->has_value = 0;
        err->value = 0.0;
    }
    if (map == NULL || (map->n > 0 && map->sig == NULL) || map->n < 0) {
        return why_fail(err, map, NULL, -1, "missing table");
    }
    for (int i = 0; i < map->n; ++i) {
        const hs_signal *s = &map->sig[i];
        /* MISRA Ref 10.4.2 [character code vs character constant] */
        if (s->name == NULL || s->name[0] == '\0') {
            return why_fail(err, map, s, i, "empty name");
        }
        if (s->unit == NULL) {
            return why_fail(err, map, s, i, "unit is NULL (use \"1\" for none)");
        }
        for (int j = 0; j < i; ++j) {
            if (strcmp(map->sig[j].name, s->name) == 0) {
                return why_fail(err, map, s, i, "duplicate name");
            }
        }
        if (s->dir != HS_SIG_IN && s->dir != HS_SIG_OUT) {
            return why_fail(err, map, s, i, "direction is neither in nor out");
        }
        if (finite_d(s->scale) == 0 || s->scale == 0.0) {
            return why_fail(err, map, s, i, "scale must be finite and non-zero");
        }
        if (finite_d(s->offset) == 0) {
            return why_fail(err, map, s, i, "offset not finite");
        }
        if (finite_d(s->min) == 0 || finite_d(s->max) == 0 || !(s->min <= s->max)) {
            return why_fail(err, map, s, i, "range needs finite min <= max");
        }
        if (finite_d(s->fallback) == 0 || s->fallback < s->min || s->fallback > s->max) {
            return why_fail(err, map, s, i, "fallback outside [min, max]");
        }
        if (s->dir == HS_SIG_IN && s->stale_limit < 1u) {
            return why_fail(err, map, s, i, "input stale_limit must be >= 1 frame");
        }
    }
    int ci = hs_signal_map_count(map, HS_SIG_IN), co = hs_signal_map_count(map, HS_SIG_OUT);
    if (ci != nin) {
        return count_fail(err, map, "input count differs from the model's", ci, nin);
    }
    if (co != nout) {
        return count_fail(err, map, "output count differs from the model's", co, nout);
    }
    if (ci > (int)HS_FRAME_MAX_VALUES || co > (int)HS_FRAME_MAX_VALUES) {
        return count_fail(err, map, "more signals than one frame carries", (ci > co) ? ci : co,
                          (int)HS_FRAME_MAX_VALUES);
    }
    return HS_OK;
}

/* e clamped into s's [min, max], counted when it had to be. */
static double clamp_in(hs_rx *rx, const hs_signal *s, double e)
{
    double r = e;
    if (e < s->min) {
        r = s->min;
        rx->st.clamped++;
    } else if (e > s->max) {
        r = s->max;
        rx->st.clamped++;
    } else {
        /* in range: used as received */
    }
    return r;
}

static unsigned pick(const hs_signal_map *map, hs_sig_dir dir, const hs_signal **out)
{
    unsigned k = 0;
    for (int i = 0; i < map->n && k < HS_FRAME_MAX_VALUES; ++i) {
        if (map->sig[i].dir == dir) {
            out[k++] = &map->sig[i];
        }
    }
    return k;
}

hs_status hs_rx_init(hs_rx *rx, const hs_signal_map *map, unsigned kind)
{
    (void)memset(rx, 0, sizeof *rx);
    if (hs_signal_map_count(map, HS_SIG_IN) > (int)HS_FRAME_MAX_VALUES) {
        return HS_E_SIZE;
    }
    rx->n = pick(map, HS_SIG_IN, rx->sig);
    rx->kind = kind;
    rx->takeover_ticks = 1u;
    for (unsigned i = 0; i < rx->n; ++i) {
        rx->value[i] = (hs_real)rx->sig[i]->fallback;
        rx->age[i] = UINT32_MAX; /* never fresh: on fallback from the first tick */
        if (rx->sig[i]->stale_limit > rx->takeover_ticks) {
            rx->takeover_ticks = rx->sig[i]->stale_limit;
        }
    }
    return HS_OK;
}

/* One more frame of a stream outside the window; 1 when it confirms the stream (HS_RX_CONFIRM
 * consecutive frames, the current peer quiet), which then replaces the current one. */
static int candidate_confirms(hs_rx *rx, const hs_frame_hdr *h)
{
    const uint32_t step = h->seq - rx->cand_seq;
    if (rx->cand_n > 0u && h->session == rx->cand_session && step >= 1u && step <= HS_RX_SEQ_AHEAD) {
        rx->cand_n++;
    } else {
        rx->cand_n = 1u;
    }
    rx->cand_session = h->session;
    rx->cand_seq = h->seq;
    /* Never while the current stream is live: only once it was silent longer than the limit. */
    if ((rx->cand_n >= HS_RX_CONFIRM) && (rx->quiet > rx->takeover_ticks)) {
        rx->cand_n = 0u;
        return 1;
    }
    return 0;
}

/* Index of session among those the link left, or -1. */
static int old_index(const hs_rx *rx, uint32_t session)
{
    int at = -1;
    for (int i = 0; i < rx->n_old; ++i) {
        if ((at < 0) && (rx->old_session[i] == session)) {
            at = i;
        }
    }
    return at;
}

/* The current stream is left for a confirmed one: remembered newest first with its last seq
 * (entry `drop`, the returning stream's own, or the oldest, makes room). */
static void leave_current(hs_rx *rx, int drop)
{
    int last = (drop >= 0) ? drop : (HS_RX_OLD_SESSIONS - 1);
    for (int i = last; i > 0; --i) {
        rx->old_session[i] = rx->old_session[i - 1];
        rx->old_seq[i] = rx->old_seq[i - 1];
    }
    rx->old_session[0] = rx->session;
    rx->old_seq[0] = rx->last_seq;
    if ((drop < 0) && (rx->n_old < HS_RX_OLD_SESSIONS)) {
        rx->n_old++;
    }
}

/* Sequence and session rules of an otherwise valid frame (hs_signal.h, FRAME.md). */
static int seq_policy(hs_rx *rx, const hs_frame_hdr *h)
{
    if (h->session == rx->session) {
        const uint32_t ahead = h->seq - rx->last_seq; /* serial arithmetic modulo 2^32 */
        const uint32_t behind = rx->last_seq - h->seq;
        if (ahead == 0u) {
            return HS_RX_SEQ_REPEATED;
        }
        if (ahead <= HS_RX_SEQ_AHEAD) {
            rx->st.seq_gaps += ahead - 1u;
            rx->cand_n = 0u; /* the live stream goes on: no takeover */
            return HS_RX_OK;
        }
        if (behind <= HS_RX_SEQ_BEHIND) {
            return HS_RX_SEQ_STALE;
        }
        if (candidate_confirms(rx, h) != 0) {
            rx->st.seq_resyncs++;
            return HS_RX_OK;
        }
        /* MISRA Ref 7.2.1 [stdint.h constant macro, suffixed in its expansion] */
        return ahead < UINT32_C(0x80000000) ? HS_RX_SEQ_JUMP : HS_RX_SEQ_STALE;
    }
    const int old = old_index(rx, h->session);
    if (old >= 0) {
        /* At or behind where the link left it: frames it saw already (or older), a replay. */
        const uint32_t ahead = h->seq - rx->old_seq[old];
        /* MISRA Ref 7.2.1 [stdint.h constant macro, suffixed in its expansion] */
        if ((ahead == 0u) || (ahead >= UINT32_C(0x80000000))) {
            return HS_RX_SESSION_OLD;
        }
    }
    if (candidate_confirms(rx, h) == 0) {
        return HS_RX_SESSION_NEW;
    }
    leave_current(rx, old);
    rx->st.peer_restarts++;
    if (old >= 0) {
        rx->st.peer_returns++;
    }
    return HS_RX_OK;
}

int hs_rx_offer(hs_rx *rx, const uint8_t *buf, size_t len, int from_peer)
{
    hs_frame_hdr h;
    double v[HS_FRAME_MAX_VALUES];
    uint64_t challenge = 0u;
    int r;
    rx->st.datagrams++;
    /* The source check comes first: nothing from a stranger is even parsed. */
    r = (from_peer != 0) ? hs_frame_parse_auth(buf, len, rx->kind, rx->n, rx->mac, &challenge, &h, v) : (int)HS_RX_FOREIGN;
    /* Authentic, but bound to another run's challenge: refused before it can touch any state. */
    if ((r == (int)HS_RX_OK) && (rx->mac != NULL) && (rx->challenge != 0u) && (challenge != rx->challenge)) {
        r = (challenge == 0u) ? HS_RX_UNANSWERED : HS_RX_OLD_RUN;
    }
    /* The first valid frame opens the link; later ones pass the sequence/session rules. */
    if ((r == (int)HS_RX_OK) && (rx->have_peer != 0)) {
        r = seq_policy(rx, &h);
    }
    if (r != (int)HS_RX_OK) {
        rx->st.rejected[r]++;
        return r;
    }
    rx->have_peer = 1;
    rx->session = h.session;
    rx->last_seq = h.seq;
    rx->st.accepted++;
    rx->st.rejected[HS_RX_OK]++;
    for (unsigned i = 0; i < rx->n; ++i) {
        const hs_signal *s = rx->sig[i];
        rx->pending_v[i] = clamp_in(rx, s, v[i] * s->scale + s->offset); /* Inf: clamped */
        rx->pend[i] = 1u;
    }
    /* The whole input set is replaced: every frame still pending is superseded. */
    rx->st.superseded += (uint64_t)rx->pending;
    rx->pending = 1;
    rx->pending_hdr = h;
    rx->pending_challenge = challenge;
    return HS_RX_OK;
}

int hs_rx_offer_values(hs_rx *rx, const uint8_t *slot, const double *v, unsigned n, uint32_t seq)
{
    int overlap = 0;
    rx->st.datagrams++;
    for (unsigned k = 0; k < n; ++k) {
        if ((slot[k] >= rx->n) || (finite_d(v[k]) == 0)) {
            rx->st.rejected[HS_RX_NONFINITE]++;
            return HS_RX_NONFINITE;
        }
    }
    rx->have_peer = 1;
    rx->st.accepted++;
    rx->st.rejected[HS_RX_OK]++;
    for (unsigned k = 0; k < n; ++k) {
        const unsigned i = slot[k];
        if (rx->pend[i] != 0u) {
            overlap = 1;
        }
        rx->pending_v[i] = clamp_in(rx, rx->sig[i], v[k]);
        rx->pend[i] = 1u;
    }
    /* A message's signal set is its own (names are unique in a DBC): an overlap is the same
     * message again, which replaces the pending one. */
    if ((overlap != 0) && (rx->pending > 0)) {
        rx->st.superseded++;
    } else {
        rx->pending++;
    }
    (void)memset(&rx->pending_hdr, 0, sizeof rx->pending_hdr);
    rx->pending_challenge = 0u;
    rx->pending_hdr.seq = seq;
    return HS_RX_OK;
}

int hs_rx_tick(hs_rx *rx, hs_real *in)
{
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    int fresh = (rx->pending > 0) ? 1 : 0;
    if (fresh != 0) {
        for (unsigned i = 0; i < rx->n; ++i) {
            if (rx->pend[i] != 0u) {
                rx->value[i] = (hs_real)rx->pending_v[i];
                rx->age[i] = 0;
                rx->pend[i] = 0u;
            } else if (rx->age[i] != UINT32_MAX) {
                rx->age[i]++;
            } else {
                /* never fresh: stays on its fallback */
            }
        }
        rx->st.used += (uint64_t)rx->pending;
        rx->pending = 0;
        rx->st.fresh_ticks++;
        rx->used_seq = rx->pending_hdr.seq;
        rx->peer_ack = rx->pending_hdr.ack_seq;
        rx->peer_flags = rx->pending_hdr.flags;
        rx->peer_send_ns = rx->pending_hdr.send_ns;
        rx->peer_challenge = rx->pending_challenge;
        rx->quiet = 0u;
    } else {
        if (rx->quiet < UINT32_MAX) {
            rx->quiet++;
        }
        for (unsigned i = 0; i < rx->n; ++i) {
            if (rx->age[i] != UINT32_MAX) {
                rx->age[i]++;
            }
        }
    }
    rx->stale = 0;
    for (unsigned i = 0; i < rx->n; ++i) {
        if (rx->age[i] > rx->sig[i]->stale_limit) {
            rx->value[i] = (hs_real)rx->sig[i]->fallback;
            rx->stale = 1;
        }
        if (in != NULL) {
            in[i] = rx->value[i];
        }
    }
    if (rx->stale != 0) {
        rx->st.stale_frames++;
    }
    return fresh;
}

void hs_rx_finish(hs_rx *rx)
{
    rx->st.unapplied += (uint64_t)rx->pending;
    rx->pending = 0;
    (void)memset(rx->pend, 0, sizeof rx->pend);
}

uint64_t hs_rx_rejected_total(const hs_rx *rx)
{
    uint64_t t = 0;
    for (int r = 1; r < HS_RX_REASONS; ++r) {
        t += rx->st.rejected[r];
    }
    return t;
}

hs_status hs_tx_init(hs_tx *tx, const hs_signal_map *map, unsigned kind, uint32_t session)
{
    (void)memset(tx, 0, sizeof *tx);
    if (hs_signal_map_count(map, HS_SIG_OUT) > (int)HS_FRAME_MAX_VALUES) {
        return HS_E_SIZE;
    }
    tx->n = pick(map, HS_SIG_OUT, tx->sig);
    tx->kind = kind;
    tx->session = session;
    return HS_OK;
}

size_t hs_tx_build(hs_tx *tx, uint8_t *buf, size_t cap, const hs_real *y, uint64_t send_ns,
                   uint32_t ack_seq, uint32_t flags)
{
    double v[HS_FRAME_MAX_VALUES];
    hs_frame_hdr h;
    for (unsigned i = 0; i < tx->n; ++i) {
        const hs_signal *s = tx->sig[i];
        double e = (y != NULL) ? (double)y[i] : s->fallback;
        v[i] = (e - s->offset) / s->scale;
    }
    h.version = HS_FRAME_VERSION;
    h.kind = (uint8_t)tx->kind;
    h.count = (uint16_t)tx->n;
    h.session = tx->session;
    h.seq = tx->seq + 1u;
    h.send_ns = send_ns;
    h.ack_seq = ack_seq;
    h.flags = flags;
    size_t n = hs_frame_encode_auth(buf, cap, &h, v, tx->mac, tx->challenge);
    if (n != 0u) {
        tx->seq = h.seq;
        tx->frames++;
    }
    return n;
}
