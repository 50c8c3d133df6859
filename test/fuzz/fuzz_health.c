/* fuzz_health.c - libFuzzer harness of the link health verdict (hil/hs_health.c: hs_health_init,
 * hs_health_tick, hs_health_finish, hs_health_judge, hs_health_status, hs_health_line) fed by a
 * real receive side (hil/hs_signal.c: hs_rx_offer, hs_rx_tick) over a fuzzed run.
 *
 * Input: a 12-byte header, byte 0..1 max_fallback_ticks and max_rejected (255: no limit),
 * byte 2 bit 0 allow_no_peer, bit 1 tail_ok, bits 2..7 the line buffer's size, byte 3..4 the
 * period (us), byte 5 the number of inputs (0..4), byte 6..9 their stale limits (0..5 ticks),
 * byte 10 bit 7: the next 16 bytes are extra rejections per reason 1..16 added to the rx
 * statistics before the verdict (every cause reachable in the line); then one byte per tick
 * (at most 512): bit 0 a good frame (next seq), bit 1 a corrupted copy (byte bits 4..7 pick
 * it, before the good one), bit 2 a frame from another address, bit 3 the good frame twice.
 * Checked invariants (abort on violation) against an independent model of the record: the
 * tick a frame was fresh, the link-up tick, the fallback ticks per input after link up (and
 * the start-up ones before it), silences and the longest one, the tail forgiven; rejected +
 * accepted = datagrams; the class (enum order: rejected, no peer, fallback) and its exit
 * status; the cause table (one row per reason, FOREIGN and UNANSWERED not judged); the
 * line NUL-terminated inside its buffer, bytes past it untouched, a truncated line a prefix
 * of the whole one, which names the class's facts (peer, input, counts). */
#include "hs_exit.h"
#include "hs_frame.h"
#include "hs_health.h"
#include "hs_signal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define require(c) \
    do { \
        if (!(c)) { \
            fprintf(stderr, "fuzz_health.c:%d: invariant failed: %s\n", __LINE__, #c); \
            abort(); \
        } \
    } while (0)

#define HDR 11
#define MAXN 4
#define MAXT 512

static const char *const names[MAXN] = {"in0", "in1", "in2", "in3"};

/* the cause table read independently: every reason 1..16 judged but these two */
static int ref_judged(int r)
{
    return (r == HS_RX_FOREIGN || r == HS_RX_UNANSWERED) ? 0 : 1;
}

static void table(void)
{
    require(hs_health_ncauses == HS_RX_REASONS - 1);
    for (int r = -1; r <= HS_RX_REASONS + 1; ++r) {
        int rows = 0;
        for (int i = 0; i < hs_health_ncauses; ++i)
            if (hs_health_causes[i].reason == r) {
                ++rows;
                require(hs_health_causes[i].why != NULL && hs_health_causes[i].why[0] != '\0');
            }
        require(rows == ((r >= 1 && r < HS_RX_REASONS) ? 1 : 0));
        require(hs_health_judged(r) == ((r >= 1 && r < HS_RX_REASONS) ? ref_judged(r) : 1));
    }
    const hs_health_limits s = hs_health_strict();
    require(s.max_fallback_ticks == 0u && s.max_rejected == 0u && s.allow_no_peer == 0);
    require(hs_health_status(HS_HEALTH_OK) == HS_OK && hs_health_status(HS_HEALTH_REJECTED) == HS_E_LINK_REJECTED &&
            hs_health_status(HS_HEALTH_NO_PEER) == HS_E_LINK_NO_PEER &&
            hs_health_status(HS_HEALTH_FALLBACK) == HS_E_LINK_FALLBACK);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int table_done;
    if (!table_done) {
        table();
        table_done = 1;
    }
    if (size < HDR) return 0;
    hs_health_limits lim;
    lim.max_fallback_ticks = data[0] == 255 ? UINT64_MAX : data[0];
    lim.max_rejected = data[1] == 255 ? UINT64_MAX : data[1];
    lim.allow_no_peer = data[2] & 1;
    const int tail_ok = (data[2] >> 1) & 1;
    const size_t cap = (size_t)(data[2] >> 2) * 5u; /* 0..315 bytes */
    const uint32_t period_us = (uint32_t)(data[3] | data[4] << 8);
    const unsigned n = data[5] % (MAXN + 1);
    hs_signal sig[MAXN];
    for (unsigned i = 0; i < n; ++i) {
        hs_signal s = {names[i], "1", HS_SIG_IN, 1.0, 0.0, -10.0, 10.0, 0.5, (uint32_t)(data[6 + i] % 6u)};
        sig[i] = s;
    }
    const hs_signal_map map = {"health", n ? sig : NULL, (int)n};
    static hs_rx rx;
    require(hs_rx_init(&rx, &map, HS_FRAME_KIND_TO_PLANT) == HS_OK && rx.n == n);
    static hs_health h;
    hs_health_init(&h, &rx, (data[0] == 0 && data[1] == 0 && data[2] == 0) ? NULL : &lim);
    if (data[0] == 0 && data[1] == 0 && data[2] == 0) lim = hs_health_strict();
    size_t p = HDR;
    uint64_t extra[HS_RX_REASONS] = {0};
    if ((data[10] & 0x80u) && size >= p + (HS_RX_REASONS - 1)) {
        for (int r = 1; r < HS_RX_REASONS; ++r) extra[r] = data[p++];
    }

    /* the model */
    int up = 0;
    uint64_t ticks = 0, up_tick = 0, quiet = 0, silence_max = 0, silences = 0, tail = 0, offers = 0;
    int silence_fb = 0;
    uint64_t fb[MAXN] = {0}, st[MAXN] = {0}, sfb[MAXN] = {0}, run[MAXN] = {0};
    uint32_t seq = 0;
    uint8_t good[HS_FRAME_MAX_BYTES], bad[HS_FRAME_MAX_BYTES];
    for (int t = 0; p < size && t < MAXT; ++t, ++p) {
        const unsigned op = data[p];
        double v[MAXN];
        for (unsigned i = 0; i < n; ++i) v[i] = (double)((op + i) % 16u) - 8.0;
        hs_frame_hdr fh = {HS_FRAME_VERSION, HS_FRAME_KIND_TO_PLANT, (uint16_t)n, 1u, seq + 1u, (uint64_t)t * 1000u, 0u, 0u};
        const size_t len = hs_frame_encode(good, sizeof good, &fh, v);
        require(len == HS_FRAME_BYTES(n));
        if (op & 2u) { /* a corrupted copy: one byte changed, the CRC-32 sees it */
            memcpy(bad, good, len);
            bad[(op >> 4) % len] ^= (uint8_t)(0x5Au | 1u);
            require(hs_rx_offer(&rx, bad, len, 1) != HS_RX_OK);
            ++offers;
        }
        if (op & 4u) {
            require(hs_rx_offer(&rx, good, len, 0) == HS_RX_FOREIGN);
            ++offers;
        }
        int fresh_want = 0;
        if (op & 1u) {
            require(hs_rx_offer(&rx, good, len, 1) == HS_RX_OK);
            ++seq;
            ++offers;
            fresh_want = 1;
            if (op & 8u) {
                require(hs_rx_offer(&rx, good, len, 1) == HS_RX_SEQ_REPEATED);
                ++offers;
            }
        }
        hs_real in[MAXN + 1];
        const int fresh = hs_rx_tick(&rx, in);
        require(fresh == fresh_want);
        hs_health_tick(&h, &rx, fresh);
        /* the model's tick: an input is on its fallback when older than its stale limit */
        ++ticks;
        if (fresh && !up) {
            up = 1;
            up_tick = ticks - 1;
        }
        for (unsigned i = 0; i < n; ++i) {
            const int onfb = rx.age[i] > sig[i].stale_limit;
            if (fresh) require(rx.age[i] == 0u && !onfb && in[i] == (hs_real)v[i]);
            if (onfb) require(in[i] == (hs_real)sig[i].fallback);
            if (!up) {
                sfb[i] += (uint64_t)onfb;
                continue;
            }
            st[i] += rx.age[i] != 0u;
            if (onfb) {
                fb[i]++;
                run[i]++;
            } else {
                run[i] = 0;
            }
        }
        if (up) {
            if (fresh) {
                quiet = 0;
                silence_fb = 0;
            } else if (++quiet > silence_max) {
                silence_max = quiet;
            }
            int any = 0;
            for (unsigned i = 0; i < n; ++i) any |= rx.age[i] > sig[i].stale_limit;
            if (any && !silence_fb) {
                silence_fb = 1;
                ++silences;
            }
        }
    }
    hs_health_finish(&h, tail_ok);
    if (tail_ok) {
        for (unsigned i = 0; i < n; ++i) {
            fb[i] -= run[i];
            tail += run[i];
        }
        if (silence_fb) --silences;
    }
    /* the record against the model */
    require(h.n == n && h.ticks == ticks && h.up == up && h.up_tick == up_tick && h.tail == tail);
    require(h.silence_max == silence_max && h.silences == silences);
    int worst = -1;
    for (unsigned i = 0; i < n; ++i) {
        require(h.fallback[i] == fb[i] && h.stale[i] == st[i] && h.startup_fallback[i] == sfb[i]);
        require(fb[i] <= st[i] && st[i] + sfb[i] <= ticks);
        if (fb[i] > (worst < 0 ? 0u : fb[worst])) worst = (int)i;
    }
    require(hs_health_worst_input(&h) == worst);
    /* the receive side's counts add up */
    uint64_t judged = 0;
    for (int r = 1; r < HS_RX_REASONS; ++r) {
        rx.st.rejected[r] += extra[r];
        if (ref_judged(r)) judged += rx.st.rejected[r];
    }
    require(rx.st.datagrams == offers && rx.st.accepted == seq);
    {
        uint64_t real = 0;
        for (int r = 1; r < HS_RX_REASONS; ++r) real += rx.st.rejected[r] - extra[r];
        require(real + rx.st.accepted == rx.st.datagrams);
    }
    require(hs_health_rejected(&rx) == judged);
    /* the verdict, in enum order */
    hs_health_class want = HS_HEALTH_OK;
    if (judged > lim.max_rejected) want = HS_HEALTH_REJECTED;
    else if (!up && n > 0 && !lim.allow_no_peer) want = HS_HEALTH_NO_PEER;
    else if (worst >= 0 && fb[worst] > lim.max_fallback_ticks) want = HS_HEALTH_FALLBACK;
    const hs_health_class c = hs_health_judge(&h, &rx);
    require(c == want);
    const hs_status s = hs_health_status(c);
    require((c == HS_HEALTH_OK) == (s == HS_OK));

    /* the line: whole, then into the fuzzed buffer with a canary behind it */
    const char *peer = (data[10] & 1u) ? "ECU" : "plant";
    char full[1024], buf[400], need[160];
    const size_t fl = hs_health_line(&h, &rx, peer, period_us, full, sizeof full);
    require(fl == strlen(full) && fl + 1 < sizeof full && strncmp(full, "link: ", 6) == 0);
    memset(buf, 'X', sizeof buf);
    const size_t bl = hs_health_line(&h, &rx, peer, period_us, buf, cap);
    if (cap == 0) {
        require(bl == 0 && buf[0] == 'X');
    } else {
        require(bl < cap && buf[bl] == '\0' && strlen(buf) == bl);
        require(bl == (fl < cap - 1 ? fl : cap - 1) && memcmp(buf, full, bl) == 0);
    }
    for (size_t i = cap; i < sizeof buf; ++i) require(buf[i] == 'X');
    require(hs_health_line(&h, &rx, peer, period_us, NULL, 10) == 0);
    switch (c) {
    case HS_HEALTH_REJECTED:
        snprintf(need, sizeof need, "link: %llu frames from the %s rejected", (unsigned long long)judged, peer);
        require(strncmp(full, need, strlen(need)) == 0);
        for (int r = 1; r < HS_RX_REASONS; ++r) {
            snprintf(need, sizeof need, "%s %llu", hs_rx_reason_name(r), (unsigned long long)rx.st.rejected[r]);
            if (ref_judged(r) && rx.st.rejected[r] != 0u) require(strstr(full, need) != NULL);
        }
        require((strstr(full, "never heard") != NULL) == !up);
        break;
    case HS_HEALTH_NO_PEER:
        snprintf(need, sizeof need, "link: %s never heard: no frame applied in %llu ticks", peer, (unsigned long long)ticks);
        require(strncmp(full, need, strlen(need)) == 0);
        break;
    case HS_HEALTH_FALLBACK:
        snprintf(need, sizeof need, "link: input %s on fallback %llu ticks after link up", names[worst],
                 (unsigned long long)fb[worst]);
        require(strncmp(full, need, strlen(need)) == 0);
        snprintf(need, sizeof need, "longest silence %llu ms, %llu silence",
                 (unsigned long long)((silence_max * period_us + 500u) / 1000u), (unsigned long long)silences);
        require(strstr(full, need) != NULL);
        break;
    default:
        if (!up) {
            require(strncmp(full, "link: not judged: ", 18) == 0);
        } else {
            snprintf(need, sizeof need, "link: ok, first frame at tick %llu, longest silence", (unsigned long long)up_tick);
            require(strncmp(full, need, strlen(need)) == 0);
        }
        break;
    }
    return 0;
}
