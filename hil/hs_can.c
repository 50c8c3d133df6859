/* hs_can.c - the CAN codec: signal bits, scaling, binding to an application, receiving and
 * transmitting (see hs_can.h, hil/CAN.md). Every loop is bounded by the DBC table's fixed capacity. */
#include "hs_can.h"

#include <string.h>

const char *hs_can_reason_name(int reason)
{
    static const char *const names[HS_CAN_REASONS] = {"accepted", "unknown_id", "bad_length",
                                                      "bad_format", "out_of_range", "e2e_crc",
                                                      "e2e_counter_repeated", "e2e_counter_jump",
                                                      "e2e_too_early", "secoc_mac", "secoc_stale",
                                                      "secoc_unverified"};
    return ((reason >= 0) && (reason < HS_CAN_REASONS)) ? names[reason] : "unknown";
}

static hs_status fail(hs_dbc_error *e, uint32_t line, const char *a, const char *b, const char *c)
{
    const char *parts[3];
    size_t k = 0;
    parts[0] = a;
    parts[1] = b;
    parts[2] = c;
    e->status = HS_E_DBC;
    e->line = (int)line;
    e->index = -1;
    for (int p = 0; p < 3; ++p) {
        const char *t = parts[p];
        while ((*t != '\0') && (k + 1u < sizeof e->detail)) {
            e->detail[k] = *t;
            k++;
            t++;
        }
    }
    e->detail[k] = '\0';
    e->msg = e->detail;
    return HS_E_DBC;
}

int64_t hs_can_get_raw(const hs_can_sig *s, const uint8_t *data)
{
    uint16_t pos[64];
    uint64_t u = 0;
    (void)hs_can_sig_bits(s, HS_CAN_MAX_LEN, pos);
    for (unsigned i = 0; i < s->len; ++i) {
        const unsigned p = pos[i];
        u |= (uint64_t)((data[p / 8u] >> (p % 8u)) & 1u) << i;
    }
    if ((s->is_signed != 0u) && (s->len < 64u) && (((u >> (s->len - 1u)) & 1u) != 0u)) {
        u |= ~UINT64_C(0) << s->len; /* sign extension */
    }
    return (int64_t)u;
}

void hs_can_put_raw(const hs_can_sig *s, uint8_t *data, int64_t raw)
{
    uint16_t pos[64];
    const uint64_t u = (uint64_t)raw;
    (void)hs_can_sig_bits(s, HS_CAN_MAX_LEN, pos);
    for (unsigned i = 0; i < s->len; ++i) {
        const unsigned p = pos[i];
        const uint8_t bit = (uint8_t)(1u << (p % 8u));
        if (((u >> i) & 1u) != 0u) {
            data[p / 8u] = (uint8_t)(data[p / 8u] | bit);
        } else {
            data[p / 8u] = (uint8_t)(data[p / 8u] & (uint8_t)~bit);
        }
    }
}

/* Raw range of s as doubles (exact for up to 53 bits; 64-bit ends are rounded, then
 * clamped again in integers). */
static void raw_range(const hs_can_sig *s, double *lo, double *hi)
{
    const double span = (s->len >= 64u) ? 18446744073709551616.0 : (double)(UINT64_C(1) << s->len);
    if (s->is_signed != 0u) {
        *lo = -span / 2.0;
        *hi = span / 2.0 - 1.0;
    } else {
        *lo = 0.0;
        *hi = span - 1.0;
    }
}

int64_t hs_can_phys_to_raw(const hs_can_sig *s, double x, int *sat)
{
    double lo, hi;
    const double r = (x - s->offset) / s->factor;
    raw_range(s, &lo, &hi);
    *sat = 0;
    if (!(r == r)) {
        *sat = 1;
        return 0;
    }
    /* round half away from zero, without libm */
    const double q = (r >= 0.0) ? r + 0.5 : r - 0.5;
    if (q <= lo - 1.0) { /* r <= lo - 1/2: rounds below the range */
        *sat = 1;
        return (s->is_signed != 0u) ? (int64_t)lo : 0;
    }
    if (q >= hi + 1.0) {
        *sat = 1;
        if (s->is_signed != 0u) {
            /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
            return (int64_t)(((uint64_t)1 << (s->len - 1u)) - 1u);
        }
        return (int64_t)((s->len >= 64u) ? ~UINT64_C(0) : ((UINT64_C(1) << s->len) - 1u));
    }
    if ((s->is_signed == 0u) && (q >= 9223372036854775808.0)) {
        return (int64_t)(uint64_t)q; /* upper half of a 64-bit unsigned range */
    }
    return (int64_t)q; /* truncation of q = rounding of r */
}

double hs_can_raw_to_phys(const hs_can_sig *s, int64_t raw)
{
    double r;
    if ((s->is_signed == 0u) && (s->len >= 64u)) {
        r = (double)(uint64_t)raw;
    } else {
        r = (double)raw;
    }
    return r * s->factor + s->offset;
}

/* 1 when DBC signal name d names application signal a: equal, where a character of a that a
 * DBC identifier cannot hold (anything but letters, digits and '_') stands for '_' ("left.x"
 * is bound by the DBC signal left_x). */
static int name_eq(const char *d, const char *a)
{
    size_t k = 0;
    for (;;) {
        const char c = a[k];
        const int ident = (int)(((c >= 'a') && (c <= 'z')) || ((c >= 'A') && (c <= 'Z')) ||
                          ((c >= '0') && (c <= '9')) || (c == '_') || (c == '\0'));
        const char want = (ident != 0) ? c : '_';
        if (d[k] != want) {
            return 0;
        }
        if (c == '\0') {
            return 1;
        }
        k++;
    }
}

static int name_index(const char *const *names, int n, const char *name)
{
    for (int i = 0; i < n; ++i) {
        if ((names[i] != NULL) && (name_eq(name, names[i]) != 0)) {
            return i;
        }
    }
    return -1;
}

/* 1 when authentic message m of cryptographic message c is its first in DBC order (none before
 * it belongs to c): asked of a member, the answer needs no "none" case. */
static int first_auth(const hs_can_db *db, int c, int m)
{
    int first = 1;
    for (int k = 0; k < m; ++k) {
        if (db->msg[k].secoc_by == c) {
            first = 0;
        }
    }
    return first;
}

hs_status hs_can_bind(hs_can_link *L, const hs_can_db *db, const char *const *in_names, int nin,
                const char *const *out_names, int nout, uint32_t period_us, hs_dbc_error *err)
{
    uint8_t seen_in[HS_FRAME_MAX_VALUES], seen_out[HS_FRAME_MAX_VALUES];
    (void)memset(L, 0, sizeof *L);
    (void)memset(err, 0, sizeof *err);
    (void)memset(seen_in, 0, sizeof seen_in);
    (void)memset(seen_out, 0, sizeof seen_out);
    if ((nin < 0) || (nout < 0) || (nin > (int)HS_FRAME_MAX_VALUES) ||
        (nout > (int)HS_FRAME_MAX_VALUES) || (period_us == 0u) || (db->nmsg > HS_CAN_MAX_MSGS) ||
        (db->nsig > HS_CAN_MAX_SIGS)) {
        return fail(err, 0u, "CAN link: bad sizes or period", "", "");
    }
    L->db = db;
    L->nin = nin;
    L->nout = nout;
    L->period_us = period_us;
    for (int m = 0; m < db->nmsg; ++m) {
        const hs_can_msg *M = &db->msg[m];
        int dir = -1;
        for (int j = M->first; j < M->first + M->n; ++j) {
            const hs_can_sig *s = &db->sig[j];
            if (s->e2e_role != HS_E2E_ROLE_DATA) {
                continue; /* the counter and CRC belong to the link, not to the application */
            }
            const int ki = name_index(in_names, nin, s->name);
            const int ko = name_index(out_names, nout, s->name);
            const int d = (ki >= 0) ? (int)HS_SIG_IN : (int)HS_SIG_OUT;
            if ((ki < 0) && (ko < 0)) {
                return fail(err, s->line, "signal ", s->name,
                            ": the model has no input or output of this name");
            }
            if ((dir >= 0) && (d != dir)) {
                return fail(err, s->line, "signal ", s->name,
                            ": its message mixes model inputs and outputs; one message goes one way");
            }
            dir = d;
            L->slot[j] = (uint8_t)((ki >= 0) ? ki : ko);
            if (ki >= 0) {
                seen_in[ki] = 1u;
            } else {
                seen_out[ko] = 1u;
            }
        }
        L->dir[m] = (uint8_t)((dir < 0) ? (int)HS_SIG_IN : dir);
        /* cycle time as a whole number of periods */
        const uint64_t cyc_us = (uint64_t)M->cycle_ms * 1000u;
        if ((cyc_us != 0u) && (((cyc_us % period_us) != 0u) || (cyc_us / period_us > UINT32_MAX / 64u))) {
            return fail(err, M->line, "message ", M->name,
                        ": GenMsgCycleTime is not a whole multiple of the period");
        }
        L->every[m] = (cyc_us == 0u) ? 1u : (uint32_t)(cyc_us / period_us);
        L->stale[m] = L->every[m] * ((M->stale_cycles != 0u) ? M->stale_cycles : HS_CAN_STALE_CYCLES);
        if ((L->stale[m] / L->every[m] != ((M->stale_cycles != 0u) ? M->stale_cycles : HS_CAN_STALE_CYCLES)) ||
            ((uint64_t)L->stale[m] * period_us > (uint64_t)HS_CAN_MAX_STALE_MS * 1000u)) {
            return fail(err, M->line, "message ", M->name,
                        ": stale limit over the 10000 ms bound at this period (HilstepStaleCycles)");
        }
    }
    /* A cryptographic message goes the way of its authentic messages, all one way. */
    for (int m = 0; m < db->nmsg; ++m) {
        const int c = db->msg[m].secoc_by;
        if ((c < 0) || (c >= db->nmsg)) {
            continue;
        }
        if (first_auth(db, c, m) != 0) {
            L->dir[c] = L->dir[m];
        } else if (L->dir[c] != L->dir[m]) {
            return fail(err, db->msg[m].line, "message ", db->msg[m].name,
                        ": its SecOC collection mixes received and sent messages");
        } else {
            /* one more of the same way */
        }
    }
    for (int i = 0; i < nin; ++i) {
        if (seen_in[i] == 0u) {
            return fail(err, 0u, "model input ", (in_names[i] != NULL) ? in_names[i] : "?",
                        " has no signal in the DBC");
        }
    }
    for (int i = 0; i < nout; ++i) {
        if (seen_out[i] == 0u) {
            return fail(err, 0u, "model output ", (out_names[i] != NULL) ? out_names[i] : "?",
                        " has no signal in the DBC");
        }
    }
    return HS_OK;
}

/* The DBC range of s; [0|0] means the raw range. */
static void phys_range(const hs_can_sig *s, double *lo, double *hi)
{
    if ((s->min == 0.0) && (s->max == 0.0)) {
        double rl, rh;
        raw_range(s, &rl, &rh);
        const double a = rl * s->factor + s->offset, b = rh * s->factor + s->offset;
        *lo = (a < b) ? a : b;
        *hi = (a < b) ? b : a;
    } else {
        *lo = s->min;
        *hi = s->max;
    }
}

/* The slot-th signal of direction d in safety (the application's own map, whose names were
 * bound), or NULL. */
static const hs_signal *safety_sig(const hs_signal_map *safety, unsigned slot, hs_sig_dir d)
{
    unsigned k = 0;
    if (safety == NULL) {
        return NULL;
    }
    for (int i = 0; i < safety->n; ++i) {
        if (safety->sig[i].dir == d) {
            if (k == slot) {
                return &safety->sig[i];
            }
            k++;
        }
    }
    return NULL;
}

hs_status hs_can_map(const hs_can_link *L, const hs_signal_map *safety, const char *app,
               hs_signal *sig, int cap, hs_signal_map *map, hs_dbc_error *err)
{
    const hs_can_db *db = L->db;
    (void)memset(err, 0, sizeof *err);
    if (L->nin + L->nout > cap) {
        return fail(err, 0u, "CAN map: more signals than the map storage holds", "", "");
    }
    for (int m = 0; m < db->nmsg; ++m) {
        const hs_can_msg *M = &db->msg[m];
        for (int j = M->first; j < M->first + M->n; ++j) {
            const hs_can_sig *c = &db->sig[j];
            if (c->e2e_role != HS_E2E_ROLE_DATA) {
                continue;
            }
            const hs_sig_dir d = (L->dir[m] == (uint8_t)HS_SIG_IN) ? HS_SIG_IN : HS_SIG_OUT;
            hs_signal *s = &sig[(d == HS_SIG_IN) ? (int)L->slot[j] : L->nin + (int)L->slot[j]];
            const hs_signal *b = safety_sig(safety, L->slot[j], d);
            double lo, hi;
            phys_range(c, &lo, &hi);
            if (b != NULL) {
                lo = (b->min > lo) ? b->min : lo;
                hi = (b->max < hi) ? b->max : hi;
            }
            if (!(lo <= hi)) {
                return fail(err, c->line, "signal ", c->name,
                            ": its DBC range and the bench's safety range do not overlap");
            }
            double fb = 0.0;
            if (c->has_init != 0u) {
                fb = c->init_raw * c->factor + c->offset;
            } else if (b != NULL) {
                fb = b->fallback;
            } else {
                /* 0 unless outside the range */
            }
            fb = (fb < lo) ? lo : ((fb > hi) ? hi : fb);
            s->name = c->name;
            s->unit = c->unit;
            s->dir = d;
            s->scale = 1.0;
            s->offset = 0.0;
            s->min = lo;
            s->max = hi;
            s->fallback = fb;
            s->stale_limit = (d == HS_SIG_IN) ? L->stale[m] : 0u;
        }
    }
    map->app = app;
    map->sig = sig;
    map->n = L->nin + L->nout;
    return HS_OK;
}

/* The SecOC layout of message M (hs_secoc.h): its MAC's bytes, the E2E CRC's byte kept out. */
static hs_secoc_layout secoc_layout(const hs_can_db *db, const hs_can_msg *M)
{
    hs_secoc_layout l;
    const hs_can_sig *ms = &db->sig[M->secoc_mac];
    l.data_id = M->e2e_data_id;
    l.len = M->len;
    l.mac_byte = (unsigned)ms->start / 8u;
    l.mac_len = (unsigned)ms->len / 8u;
    l.skip_byte = (M->e2e != 0u) ? ((unsigned)db->sig[M->e2e_crc].start / 8u) : (unsigned)M->len;
    l.fv_bits = db->sig[M->secoc_fv].len;
    return l;
}

/* The verdict of a frame of protected input message m (length checked): the E2E CRC, then the
 * SecOC MAC and freshness (before the counter, so a forged frame never moves the sequence on),
 * then the E2E counter and cadence; E2E results counted per message. HS_CAN_OK or the
 * HS_CAN_E2E_* / HS_CAN_SECOC_* reason. */
static int e2e_receive(hs_can_link *L, int m, const uint8_t *data, uint64_t now_us)
{
    const hs_can_msg *M = &L->db->msg[m];
    hs_e2e_result e = HS_E2E_OK;
    int restart = 0;
    if (M->e2e != 0u) {
        const unsigned crc_byte = (unsigned)L->db->sig[M->e2e_crc].start / 8u;
        if (data[crc_byte] != hs_e2e_crc(M->e2e, M->e2e_data_id, data, (size_t)M->len, crc_byte)) {
            e = HS_E2E_CRC;
        }
    }
    if ((e == HS_E2E_OK) && (M->secoc != 0u)) {
        const hs_secoc_layout l = secoc_layout(L->db, M);
        const hs_secoc_result sr = hs_secoc_check(L->secoc_key, &l, data,
                                                  (unsigned)hs_can_get_raw(&L->db->sig[M->secoc_fv], data),
                                                  &L->secoc_rx[m]);
        if (sr != HS_SECOC_OK) {
            return (sr == HS_SECOC_STALE) ? (int)HS_CAN_SECOC_STALE : (int)HS_CAN_SECOC_MAC;
        }
    }
    if ((e == HS_E2E_OK) && (M->e2e != 0u)) {
        const hs_can_sig *ks = &L->db->sig[M->e2e_ctr];
        const uint64_t cyc = (L->e2e_cadence_off != 0u) ? 0u : (uint64_t)L->every[m] * L->period_us;
        const uint64_t stl = (uint64_t)L->stale[m] * L->period_us;
        e = hs_e2e_check(&L->e2e_rx[m], (unsigned)hs_can_get_raw(ks, data), ks->len, now_us, cyc, stl,
                         &restart);
    }
    if (M->e2e != 0u) {
        L->e2e_count[m][e]++;
        L->e2e_timeouts[m] += (uint64_t)restart;
    }
    return (e == HS_E2E_OK) ? (int)HS_CAN_OK : (int)HS_CAN_E2E_CRC + ((int)e - (int)HS_E2E_CRC);
}

int hs_can_receive(hs_can_link *L, hs_rx *rx, uint32_t id, int ext, int fd, const uint8_t *data,
                   size_t len)
{
    return hs_can_receive_at(L, rx, id, ext, fd, data, len, HS_CAN_NO_TIME);
}

/* The data signals of message m decoded from data into slot / v (nv entries): HS_CAN_OK, or
 * HS_CAN_RANGE when one lies outside its DBC range. */
static int decode_msg(const hs_can_link *L, int m, const uint8_t *data, uint8_t *slot, double *v,
                      unsigned *nv)
{
    const hs_can_msg *M = &L->db->msg[m];
    int r = HS_CAN_OK;
    *nv = 0u;
    for (int j = 0; (r == (int)HS_CAN_OK) && (j < M->n); ++j) {
        const hs_can_sig *s = &L->db->sig[M->first + j];
        double lo, hi;
        if (s->e2e_role != HS_E2E_ROLE_DATA) {
            continue;
        }
        v[*nv] = hs_can_raw_to_phys(s, hs_can_get_raw(s, data));
        slot[*nv] = L->slot[M->first + j];
        phys_range(s, &lo, &hi);
        if ((v[*nv] < lo) || (v[*nv] > hi)) {
            r = HS_CAN_RANGE;
        }
        (*nv)++;
    }
    return r;
}

/* The collection of cryptographic message c: its authentic messages in DBC order as the MAC
 * reads them (payloads from L->hold) into part; returns how many, *all = 1 when each is held. */
static unsigned coll_parts(const hs_can_link *L, int c, hs_secoc_part *part, int *all)
{
    const hs_can_db *db = L->db;
    unsigned n = 0u;
    *all = 1;
    for (int k = 0; k < db->nmsg; ++k) {
        const hs_can_msg *A = &db->msg[k];
        if (A->secoc_by != c) {
            continue;
        }
        const int dlc = hs_can_len_to_dlc(A->len);
        part[n].id = A->id | ((A->ext != 0u) ? 0x80000000u : 0u);
        part[n].dlc = (dlc < 0) ? 15u : (unsigned)dlc;
        part[n].len = A->len;
        part[n].data = L->hold[k];
        *all = (L->held[k] != 0u) ? *all : 0;
        n++;
    }
    return n;
}

/* A frame of cryptographic message c (length checked): verifies the held cycle of its
 * collection, then applies it (each held frame counted accepted and offered, DBC order) or
 * refuses it (each counted HS_CAN_SECOC_UNVERIFIED); the cycle is let go either way. A cycle
 * that lacks one of its messages cannot verify. Returns HS_CAN_OK or the frame's SecOC reason. */
static int coll_receive(hs_can_link *L, hs_rx *rx, int c, const uint8_t *data)
{
    const hs_can_db *db = L->db;
    const hs_can_msg *M = &db->msg[c];
    hs_secoc_part part[HS_CAN_MAX_MSGS];
    uint8_t slot[HS_CAN_MAX_SIGS];
    double v[HS_CAN_MAX_SIGS];
    int all;
    hs_secoc_result sr = HS_SECOC_BAD_MAC;
    if (L->secoc_off != 0u) {
        L->secoc_unchecked++;
        return HS_CAN_OK;
    }
    const unsigned n = coll_parts(L, c, part, &all);
    if (all != 0) {
        const hs_can_sig *fs = &db->sig[M->secoc_fv];
        const hs_can_sig *ms = &db->sig[M->secoc_mac];
        sr = hs_secoc_coll_check(L->secoc_key, part, n, fs->len, (unsigned)hs_can_get_raw(fs, data),
                                 &data[(unsigned)ms->start / 8u], (unsigned)ms->len / 8u, &L->secoc_rx[c]);
    }
    for (int k = 0; k < db->nmsg; ++k) {
        unsigned nv;
        if ((db->msg[k].secoc_by != c) || (L->held[k] == 0u)) {
            continue;
        }
        L->held[k] = 0u;
        if (sr != HS_SECOC_OK) {
            L->rejected[HS_CAN_SECOC_UNVERIFIED]++;
            continue;
        }
        (void)decode_msg(L, k, L->hold[k], slot, v, &nv); /* its range was checked when held */
        L->rejected[HS_CAN_OK]++;
        L->accepted_seq++;
        (void)hs_rx_offer_values(rx, slot, v, nv, L->accepted_seq);
    }
    if (sr == HS_SECOC_OK) {
        L->secoc_verified++;
        return HS_CAN_OK;
    }
    const int r = (sr == HS_SECOC_STALE) ? (int)HS_CAN_SECOC_STALE : (int)HS_CAN_SECOC_MAC;
    L->rejected[r]++;
    L->secoc_refused++;
    return r;
}

int hs_can_receive_at(hs_can_link *L, hs_rx *rx, uint32_t id, int ext, int fd, const uint8_t *data,
                      size_t len, uint64_t now_us)
{
    const hs_can_db *db = L->db;
    uint8_t slot[HS_CAN_MAX_SIGS];
    double v[HS_CAN_MAX_SIGS];
    unsigned nv = 0;
    int m = -1, r = HS_CAN_OK;
    L->rx_frames++;
    for (int k = 0; k < db->nmsg; ++k) {
        if ((db->msg[k].id == id) && ((int)db->msg[k].ext == ((ext != 0) ? 1 : 0)) &&
            (L->dir[k] == (uint8_t)HS_SIG_IN)) {
            m = k;
        }
    }
    if (m < 0) {
        r = HS_CAN_UNKNOWN_ID;
    } else if ((int)db->msg[m].fd != ((fd != 0) ? 1 : 0)) {
        r = HS_CAN_BAD_FORMAT;
    } else if (len != (size_t)db->msg[m].len) {
        r = HS_CAN_BAD_LEN;
    } else if (db->msg[m].secoc == (uint8_t)HS_SECOC_CRYPTO) {
        return coll_receive(L, rx, m, data);
    } else {
        const hs_can_msg *M = &db->msg[m];
        /* E2E first: a protected frame that passes it moves the sequence on even when its values
         * are then refused, so the sender's next frame is not taken for a second sender. */
        if ((M->e2e != 0u) || (M->secoc != 0u)) {
            r = e2e_receive(L, m, data, now_us);
        }
        if (r == (int)HS_CAN_OK) {
            r = decode_msg(L, m, data, slot, v, &nv);
        }
        if ((r == (int)HS_CAN_OK) && (M->secoc_by >= 0) && (L->secoc_off == 0u)) {
            /* held for its cycle's cryptographic message; a frame still held from an earlier
             * cycle was never verified and is refused */
            L->rejected[HS_CAN_SECOC_UNVERIFIED] += (uint64_t)L->held[m];
            (void)memcpy(L->hold[m], data, (size_t)M->len);
            L->held[m] = 1u;
            return HS_CAN_OK;
        }
    }
    L->rejected[r]++;
    if (r == (int)HS_CAN_OK) {
        L->accepted_seq++;
        (void)hs_rx_offer_values(rx, slot, v, nv, L->accepted_seq);
    }
    return r;
}

unsigned hs_can_held(const hs_can_link *L)
{
    unsigned n = 0u;
    for (int m = 0; (L->db != NULL) && (m < L->db->nmsg); ++m) {
        n += (unsigned)L->held[m];
    }
    return n;
}

uint64_t hs_can_e2e_alarms(const hs_can_link *L)
{
    uint64_t t = 0;
    for (int r = (int)HS_CAN_E2E_CRC; r <= (int)HS_CAN_SECOC_UNVERIFIED; ++r) {
        t += L->rejected[r];
    }
    return t;
}

int hs_can_due(const hs_can_link *L, int m, uint64_t tick)
{
    if ((m < 0) || (m >= L->db->nmsg) || (L->dir[m] != (uint8_t)HS_SIG_OUT)) {
        return 0;
    }
    return ((tick % L->every[m]) == 0u) ? 1 : 0;
}

/* Cryptographic message c: the next freshness value and the MAC over the last frame encoded
 * of each of its authentic messages (sent before it, on the same ticks: hs_dbc.c checks both);
 * a zero MAC without a key or with secoc_off. */
static void encode_crypto(hs_can_link *L, int c, uint8_t *data)
{
    const hs_can_db *db = L->db;
    const hs_can_msg *M = &db->msg[c];
    const hs_can_sig *fs = &db->sig[M->secoc_fv];
    const hs_can_sig *ms = &db->sig[M->secoc_mac];
    hs_secoc_part part[HS_CAN_MAX_MSGS];
    int all;
    L->secoc_tx[c]++;
    const uint64_t trunc = L->secoc_tx[c] & (((uint64_t)1u << fs->len) - 1u);
    hs_can_put_raw(fs, data, (int64_t)trunc);
    const unsigned n = coll_parts(L, c, part, &all);
    if ((L->secoc_key != NULL) && (L->secoc_off == 0u)) {
        hs_secoc_coll_tag(L->secoc_key, part, n, L->secoc_tx[c], (unsigned)ms->len / 8u,
                          &data[(unsigned)ms->start / 8u]);
    }
}

size_t hs_can_encode(hs_can_link *L, int m, const hs_tx *tx, const hs_real *y, uint8_t *data)
{
    const hs_can_db *db = L->db;
    (void)memset(data, 0, HS_CAN_MAX_LEN);
    if ((m < 0) || (m >= db->nmsg) || (L->dir[m] != (uint8_t)HS_SIG_OUT)) {
        return 0u;
    }
    const hs_can_msg *M = &db->msg[m];
    for (int j = M->first; j < M->first + M->n; ++j) {
        const unsigned k = L->slot[j];
        int sat;
        if (db->sig[j].e2e_role != HS_E2E_ROLE_DATA) {
            continue;
        }
        const double x = (y != NULL) ? (double)y[k] : tx->sig[k]->fallback;
        hs_can_put_raw(&db->sig[j], data, hs_can_phys_to_raw(&db->sig[j], x, &sat));
        L->tx_saturated += (uint64_t)sat;
    }
    if (M->e2e != 0u) {
        const hs_can_sig *ks = &db->sig[M->e2e_ctr];
        const unsigned mask = (ks->len >= 8u) ? 0xFFu : ((1u << ks->len) - 1u);
        hs_can_put_raw(ks, data, (int64_t)L->e2e_tx[m]);
        L->e2e_tx[m] = (uint8_t)(((unsigned)L->e2e_tx[m] + 1u) & mask);
    }
    if (M->secoc == (uint8_t)HS_SECOC_CRYPTO) {
        encode_crypto(L, m, data);
    } else if (M->secoc != 0u) {
        const hs_secoc_layout l = secoc_layout(db, M);
        const hs_can_sig *fs = &db->sig[M->secoc_fv];
        L->secoc_tx[m]++;
        const uint64_t trunc = L->secoc_tx[m] & (((uint64_t)1u << fs->len) - 1u);
        hs_can_put_raw(fs, data, (int64_t)trunc);
        if (L->secoc_key != NULL) {
            hs_secoc_tag(L->secoc_key, &l, data, L->secoc_tx[m], &data[l.mac_byte]);
        }
    } else {
        /* a message without SecOC: no freshness, no MAC */
    }
    if (M->e2e != 0u) {
        const unsigned crc_byte = (unsigned)db->sig[M->e2e_crc].start / 8u;
        data[crc_byte] = hs_e2e_crc(M->e2e, M->e2e_data_id, data, (size_t)M->len, crc_byte);
    }
    if (M->secoc_by >= 0) {
        (void)memcpy(L->hold[m], data, (size_t)M->len); /* what its cryptographic message covers */
    }
    L->tx_frames++;
    return (size_t)M->len;
}

uint64_t hs_can_rejected_total(const hs_can_link *L)
{
    uint64_t t = 0;
    for (int r = 1; r < HS_CAN_REASONS; ++r) {
        t += L->rejected[r];
    }
    return t;
}
