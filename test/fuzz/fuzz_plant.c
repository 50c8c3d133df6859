/* fuzz_plant.c - libFuzzer harness of the plant application (hil/hs_plant.c) as a port drives
 * it: initialize with a fuzzed model choice, stepper definition, signal map and policies, then
 * a fuzzed script of received datagrams, steps, overruns, model states forced into the
 * stepper, safe outputs, the final frame and terminate. Reaches hs_signal (rx/tx), hs_frame,
 * hs_apps (map lookup) and hs_exit (the exit table) on the way.
 *
 * Input: 8 setup bytes, then operations (one opcode byte each, operands after it):
 *   [0] model: registry name, a bogus name, or a .hsm description (some with > 10 outputs)
 *   [1] method (one past the last is invalid)   [2] form | stab << 2 | labels << 4
 *   [3] fault_hold (0..15) | overrun_stop << 4 | hash << 5 | clock << 6
 *   [4] inject_fault_tick (0xff = off)   [5] map: shipped/generic, a wrong one, or fuzzed;
 *       bit 6 keys the link (version-3 frames, HMAC under a 32-byte key; with [7] bit 0 also
 *       the run challenge of an authenticated plant, answered by op 1's frames unless its seq
 *       byte's bit 7 sends challenge 0 or bit 6 another run's), bit 7 makes a new session
 *       wait 0 ticks of silence instead of the default
 *   [6..7] session; [6] bits 6/7 also: no room for the parameter block / no block at all
 * Checked invariants (abort on violation): setup either succeeds or gives a reason; every
 * frame built decodes (so no NaN/Inf went out) with every value inside its signal's range;
 * FAULT in the frame iff the step was refused (or held); a stopped plant has sent SAFE|FINAL;
 * one FINAL at most; every datagram in exactly one receive counter; output refusals are
 * refused steps; the exit status is in hs_exit.h's table and has a text; with a run
 * challenge every frame sent carries it, and a frame answering another is refused as
 * old_run (challenge 0: unanswered) without reaching the inputs. */
#include "hs_apps.h"
#include "hs_exit.h"
#include "hs_frame.h"
#include "hs_mb_parse.h"
#include "hs_models.h"
#include "hs_plant.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <stdio.h>
#define require(c) \
    do { \
        if (!(c)) { \
            fprintf(stderr, "fuzz_plant.c:%d: invariant failed: %s\n", __LINE__, #c); \
            abort(); \
        } \
    } while (0)

/* Descriptions the plant gets through --model-file: inputs, > 10 outputs, a diverging body. */
static const char *const hsm[] = {
    "model pend dim=2\ngravity 0,-10\nbody bob point2 mass=1 pos=1,0\n"
    "joint rod distance a=bob b=ground length=1\noutput pos bob\noutput vel bob\noutput energy\n",
    "model fast dim=2\ngravity 0,-10\nbody bob point2 mass=1 pos=0,0 vel=1e300,1e300\noutput energy\n",
    "model cart dim=2 nin=1\ngravity 0,-9.81\nbody cart planar mass=1 inertia=0.01 pos=0,0\n"
    "body pole planar mass=0.5 inertia=0.015 pos=0,-0.3 angle=-1.5707963267948966\n"
    "joint guide prismatic a=cart b=ground axis=1,0\njoint hinge revolute a=pole@-0.3,0 b=cart@0,0\n"
    "force push extforce a=cart in=0 axis=1,0\nforce drag bushing a=cart b=ground k=0 c=0.5\n"
    "output vel cart\noutput coord hinge\n",
    "model many dim=2\ngravity 0,-10\nbody a point2 mass=1 pos=1,0\nbody b point2 mass=1 pos=2,0\n"
    "joint r1 distance a=a b=ground length=1\njoint r2 distance a=b b=a length=1\n"
    "output pos a\noutput vel a\noutput pos b\noutput vel b\noutput energy\noutput pos a\noutput vel b\n",
    "model wide dim=2\ngravity 0,-10\nbody a point2 mass=1 pos=1,0\nbody b point2 mass=1 pos=2,0\n"
    "output pos a\noutput vel a\noutput pos b\noutput vel b\noutput pos a\noutput vel a\n"
    "output pos b\noutput vel b\noutput energy\n",
};
#define NHSM (sizeof hsm / sizeof hsm[0])
/* Registry models (the chain and the ladder left out: their sparse analysis at every
 * initialize costs 100x a small model's under the fuzzer's comparison tracing, and they reach
 * no plant code the others do not). */
static const char *const names[] = {"circular_track", "car_axle", "pendulum", "test_eq", "car_axle_mb",
                                    "no_such_model"};
#define NNAMES (sizeof names / sizeof names[0])
/* Labels a model may carry: units, none, odd characters, empty. */
static const char *const labels[] = {"speed (m/s)", "x", "", "a b (N m)", "we(ird", "u)n(it", "F_t (N",
                                     "very_long_label_name_that_is_cut (kg)", "p.q/r^2 (m^2/s)"};
#define NLABELS (sizeof labels / sizeof labels[0])

/* The highest exit status of hs_exit.h's table (they are numbered without gaps). */
#ifdef HS_EXIT_LINK
#define HS_EXIT_LAST HS_EXIT_LINK
#else
#define HS_EXIT_LAST HS_EXIT_TEST
#endif

static int64_t g_clock;
static int64_t fake_clock(void) { return g_clock += 1000; }

static size_t take(const uint8_t **d, size_t *n, void *out, size_t want)
{
    size_t k = want < *n ? want : *n;
    memset(out, 0, want);
    memcpy(out, *d, k);
    *d += k;
    *n -= k;
    return k;
}

static uint8_t byte(const uint8_t **d, size_t *n)
{
    uint8_t b = 0;
    (void)take(d, n, &b, 1);
    return b;
}

/* A state value: a palette of the interesting ones, or raw IEEE-754 bits. */
static hs_real value(const uint8_t **d, size_t *n)
{
    static const double pal[] = {0.0, 1.0, -1.0, 0.5, 1e3, -1e3, 1e9, 1e300, -1e300, 2.0};
    const uint8_t sel = byte(d, n);
    if (sel < 200u) return (hs_real)pal[sel % (sizeof pal / sizeof pal[0])];
    double x;
    (void)take(d, n, &x, sizeof x);
    return (hs_real)x;
}

static hs_mb_store g_store;
static hs_mb_model g_mb;
static hs_model g_model;
static hs_model_type g_type; /* a copy of the chosen type with fuzzed labels */
static const char *g_in_names[HS_PLANT_MAX_SIG + 8], *g_out_names[HS_PLANT_MAX_SIG + 64];
static _Alignas(16) unsigned char g_pblock[4096];
static hs_real g_reals[HS_STEPPER_REALS(HS_PLANT_MAX_NQ, HS_PLANT_MAX_NC, HS_PLANT_MAX_NZ)];
static int g_ints[HS_STEPPER_INTS(HS_PLANT_MAX_NQ, HS_PLANT_MAX_NC) + (1 << 14)];
static hs_plant g_p;
static hs_mac g_mac;

/* Checks one frame the plant built (n bytes, 0 = nothing) against what it claims. */
static void check_frame(const hs_plant *p, const uint8_t *out, size_t n, int want_fault)
{
    hs_frame_hdr h;
    double v[HS_FRAME_MAX_VALUES];
    if (n == 0u) return;
    uint64_t ch = 0;
    require(hs_frame_parse_auth(out, n, HS_FRAME_KIND_FROM_PLANT, p->tx.n, p->tx.mac, &ch, &h, v) == HS_RX_OK);
    require(ch == (p->tx.mac ? p->tx.challenge : 0u));
    for (unsigned i = 0; i < p->tx.n; ++i) {
        const hs_signal *s = p->tx.sig[i];
        const double e = v[i] * s->scale + s->offset, tol = 1e-9 * (s->max - s->min) + 1e-300;
        require(e >= s->min - tol && e <= s->max + tol);
    }
    if (want_fault >= 0) require(((h.flags & HS_FLAG_FAULT) != 0u) == (want_fault != 0));
    if ((h.flags & HS_FLAG_SAFE) != 0u) require(p->safe == 1);
    if ((h.flags & HS_FLAG_FINAL) != 0u) require(p->final_built == 1);
}

/* The exit table answers for every number: each code of hs_exit.h with its own text, CPU
 * faults as such, anything else as unknown. */
static void fz_exit_table(void)
{
    for (int c = -2; c <= HS_EXIT_CPU_FAULT + 0x41; ++c) {
        const char *t = hs_exit_text(c);
        const int known = (c >= HS_EXIT_OK && c <= HS_EXIT_INACCURATE) ||
                          (c >= HS_EXIT_CPU_FAULT && c < HS_EXIT_CPU_FAULT + 0x40);
        require(t != NULL && (strcmp(t, "unknown exit status") != 0) == known);
    }
}

/* The model the seed s chooses, into g_model (why: cap bytes for a refusal); 0 when it is
 * refused (as it may be), 1 to go on. */
static int fz_model(const uint8_t *s, char *why, size_t cap)
{
    const unsigned mc = s[0] % (NNAMES + NHSM);
    int rc;
    if (mc + 1u < NNAMES && (s[6] & 0xc0u) != 0u) {
        /* A registry type with no room for its parameters (bit 6) or no block (bit 7). */
        const hs_model_type *T = hs_model_find(names[mc]);
        require(T != NULL);
        rc = hs_plant_model_init(&g_model, T, (s[6] & 0x80u) ? NULL : g_pblock,
                                 (s[6] & 0x40u) ? 0u : sizeof g_pblock, why, cap);
        require(rc == HS_OK || (hs_exit_of(HS_TOOL_PLANT, rc) == HS_EXIT_SETUP && why[0] != '\0'));
        require(hs_exit_of(HS_TOOL_PLANT, rc) == HS_EXIT_SETUP || T->nparams == 0);
        if (rc != HS_EXIT_OK) return 0;
    } else if (mc < NNAMES) {
        rc = hs_plant_model_by_name(&g_model, g_pblock, sizeof g_pblock, names[mc], why, cap);
        require(rc == HS_OK || (rc == HS_E_USAGE && mc == NNAMES - 1u && why[0] != '\0'));
        if (rc != HS_EXIT_OK) return 0;
    } else {
        const char *t = hsm[mc - NNAMES];
        hs_mb_error err;
        require(hs_mb_parse_compile(t, strlen(t), &g_store, &g_mb, (s[2] >> 6) & 1, &err) == HS_OK);
        /* s[6] bit 6: no room for the parameters; bit 7: no parameter block at all. */
        const size_t pcap = (s[6] & 0x40u) ? 0u : sizeof g_pblock;
        rc = hs_plant_model_init(&g_model, &g_mb.type, (s[6] & 0x80u) ? NULL : g_pblock, pcap, why, cap);
        require(rc == HS_OK || (hs_exit_of(HS_TOOL_PLANT, rc) == HS_EXIT_SETUP && why[0] != '\0' &&
                                     ((s[6] & 0x40u) || (s[6] & 0x80u))));
        if (rc != HS_EXIT_OK) return 0;
        g_model.desc = &g_mb;
    }
    return hs_model_check(&g_model) == HS_OK;
}

/* Labels: the type's own, none (numbered names), or fuzzed ones (generic map only). */
static void fz_labels(const uint8_t *s)
{
    const unsigned lab = (s[2] >> 4) & 3u;
    if (lab != 0u) {
        g_type = *g_model.type;
        for (int i = 0; i < g_model.d.nin && i < (int)(sizeof g_in_names / sizeof g_in_names[0]); ++i)
            g_in_names[i] = labels[(unsigned)(i + s[6]) % NLABELS];
        for (int i = 0; i < g_model.d.nout && i < (int)(sizeof g_out_names / sizeof g_out_names[0]); ++i)
            g_out_names[i] = labels[(unsigned)(i * 3 + s[6]) % NLABELS];
        g_type.in_names = lab == 1u ? NULL : g_in_names;
        g_type.out_names = lab == 1u ? NULL : g_out_names;
        g_model.type = &g_type;
    }
}

/* The signal map the seed s chooses, into def->map. */
static void fz_map(const uint8_t *s, hs_plant_def *def)
{
    static hs_signal fsig[2 * HS_PLANT_MAX_SIG + 1];
    static hs_signal_map fmap;
    switch (s[5] & 3u) {
    case 1: def->map = &hs_map_car_axle_plant; break;     /* right only for car_axle */
    case 2: def->map = &hs_map_circular_track_ecu; break; /* an ECU's map: directions swapped */
    case 3: {
        /* A map with the model's counts, fuzzed ranges: tight ones make outputs refuse. */
        int k = 0;
        for (int i = 0; i < g_model.d.nin && k < 2 * HS_PLANT_MAX_SIG; ++i, ++k) {
            hs_signal sg = {"in", "1", HS_SIG_IN, 1.0, 0.0, -1.0, 1.0, 0.0, 1u + (s[5] >> 4)};
            sg.name = labels[(unsigned)i % NLABELS][0] ? labels[(unsigned)i % NLABELS] : "e";
            fsig[k] = sg;
        }
        for (int i = 0; i < g_model.d.nout && k < 2 * HS_PLANT_MAX_SIG; ++i, ++k) {
            const double r = (s[5] & 4u) ? 1e-3 : ((s[5] & 8u) ? 1e12 : 2.0);
            hs_signal sg = {"out", "1", HS_SIG_OUT, (s[5] & 16u) ? 1e-300 : 0.5, 0.25, -r, r, 0.0, 0};
            sg.name = names[(unsigned)i % NNAMES];
            fsig[k] = sg;
        }
        fmap.app = "fuzz";
        fmap.sig = fsig;
        fmap.n = k;
        def->map = &fmap;
        break;
    }
    default: def->map = NULL; break;
    }
}

/* What a port does after initialize, as the seed s asks: keys, takeover; once, the
 * encoder's refusals. */
static void fz_port(hs_plant *p, const uint8_t *s)
{
    if ((s[5] & 0x40u) != 0u) {
        /* What a port does with --key: both directions keyed after initialize. */
        uint8_t key[32];
        for (unsigned i = 0; i < sizeof key; ++i) key[i] = (uint8_t)(i * 13u + s[7]);
        hs_mac_init(&g_mac, key, sizeof key);
        p->rx.mac = &g_mac;
        p->tx.mac = &g_mac;
        if (s[7] & 1u) { /* hs_link_setup's plant: a run nonce, echoed in every frame sent */
            p->rx.challenge = UINT64_C(0x5eed0000c0ffee01) ^ s[6];
            p->tx.challenge = p->rx.challenge;
        }
    }
    if ((s[5] & 0x80u) != 0u) p->rx.takeover_ticks = 0u;
    static int edges_done;
    if (!edges_done) {
        /* The encoder's refusals: more values than a frame carries, a buffer too small. */
        uint8_t b[HS_FRAME_MAX_BYTES];
        double v[HS_FRAME_MAX_VALUES + 1];
        memset(v, 0, sizeof v);
        hs_frame_hdr h = {HS_FRAME_VERSION, HS_FRAME_KIND_FROM_PLANT, HS_FRAME_MAX_VALUES + 1u, 1u, 1u, 0u, 0u, 0u};
        require(hs_frame_encode_mac(b, sizeof b, &h, v, NULL) == 0u);
        h.count = 1u;
        require(hs_frame_encode_mac(b, HS_FRAME_BYTES(1u), &h, v, &g_mac) == 0u);
        edges_done = 1;
    }
}

/* The script: operations from the fuzzer's bytes (*dp, *np) on the plant p until they run
 * out, the step budget is spent or the run ends; returns the datagrams offered. */
static uint64_t fz_script(hs_plant *p, const uint8_t **dp, size_t *np)
{
    const uint8_t *d = *dp;
    size_t n = *np;
    uint64_t tick = 0, offered = 0;
    int steps = 0, finals = 0, terminated = 0;
    uint8_t out[HS_FRAME_MAX_BYTES];
    /* Steps are fixed work, but a 93-coordinate ladder costs ~100x a pendulum's: fewer of them. */
    const int max_steps = p->d.nq > 16 ? 4 : 48;
    while (n > 0u && steps < max_steps && !terminated) {
        const uint8_t op = byte(&d, &n);
        switch ((op & 15u) % 9u) { /* the high nibble holds the operation's flags */
        case 0: { /* a raw datagram, CRC re-sealed on request */
            uint8_t buf[HS_FRAME_MAX_BYTES + 8];
            size_t len = byte(&d, &n);
            if (len > sizeof buf) len = sizeof buf;
            len = take(&d, &n, buf, len);
            if ((op & 0x10u) && len >= HS_FRAME_TRAILER_BYTES) {
                /* Re-sealed: re-tagged first on a keyed link, so the checks behind are reached. */
                if (p->rx.mac != NULL && len >= HS_FRAME_MAC_BYTES(0) && (len - HS_FRAME_MAC_BYTES(0)) % 8u == 0u) {
                    const size_t body = len - HS_FRAME_TRAILER_BYTES - HS_MAC_TAG_BYTES;
                    hs_mac_tag(p->rx.mac, buf, body, buf + body);
                }
                hs_put_u32(buf + len - HS_FRAME_TRAILER_BYTES, hs_crc32(buf, len - HS_FRAME_TRAILER_BYTES));
            }
            const int why_rx = hs_plant_receive(p, buf, len, !(op & 0x20u));
            require(why_rx >= 0 && why_rx < HS_RX_REASONS && hs_rx_reason_name(why_rx)[0] != '\0');
            offered++;
            break;
        }
        case 1: { /* a well-formed input frame with fuzzed session, seq, flags and values */
            uint8_t buf[HS_FRAME_MAX_BYTES];
            double v[HS_FRAME_MAX_VALUES];
            hs_frame_hdr h = {HS_FRAME_VERSION, HS_FRAME_KIND_TO_PLANT, (uint16_t)p->rx.n, 0u, 0u, 0u, 0u, 0u};
            uint8_t sq = byte(&d, &n);
            h.session = 1u + (uint32_t)((op >> 4) & 3u);
            h.seq = (uint32_t)sq + (uint32_t)((op >> 6) & 1u) * 0x80000000u;
            h.flags = (uint32_t)(op >> 7);
            for (unsigned i = 0; i < p->rx.n; ++i) v[i] = (double)value(&d, &n);
            const uint64_t run = p->rx.challenge;
            const uint64_t ch = (run == 0u) ? 0u : (sq & 0x80u) ? 0u : (sq & 0x40u) ? run ^ 0x100u : run;
            size_t len = hs_frame_encode_auth(buf, sizeof buf, &h, v, p->rx.mac, ch);
            require(len == (p->rx.mac ? HS_FRAME_MAC_BYTES(p->rx.n) : HS_FRAME_BYTES(p->rx.n)));
            const uint64_t acc = p->rx.st.accepted;
            const int rr = hs_plant_receive(p, buf, len, 1);
            require(rr >= 0 && rr < HS_RX_REASONS);
            /* a frame the decoder takes (values finite) but answering another challenge */
            hs_frame_hdr ph;
            double pv[HS_FRAME_MAX_VALUES];
            uint64_t pc = 0;
            const int pr = hs_frame_parse_auth(buf, len, HS_FRAME_KIND_TO_PLANT, p->rx.n, p->rx.mac, &pc, &ph, pv);
            if (pr != HS_RX_OK) require(rr == pr && p->rx.st.accepted == acc);
            else if (ch != run) require(pc == ch && rr == (ch == 0u ? HS_RX_UNANSWERED : HS_RX_OLD_RUN) && p->rx.st.accepted == acc);
            offered++;
            break;
        }
        case 2:
        case 3: { /* a step (the last one when asked) */
            hs_tm_row row;
            const uint64_t faults = p->faults;
            const int last = (op & 0x10u) != 0u;
            size_t len = hs_plant_step(p, tick, last, out, sizeof out, (op & 0x20u) ? NULL : &row);
            const int refused = p->faults != faults;
            require(len == (p->tx.mac ? HS_FRAME_MAC_BYTES(p->tx.n) : HS_FRAME_BYTES(p->tx.n)));
            check_frame(p, out, len, refused);
            if ((op & 0x20u) == 0u) {
                require(((row.flags & HS_TMF_FAULT) != 0u) == refused && row.tick == tick);
                for (unsigned i = 0; i < p->tx.n; ++i)
                    require(row.out[i] >= p->tx.sig[i]->min && row.out[i] <= p->tx.sig[i]->max);
            }
            finals += (p->final_built != 0);
            steps++;
            tick++;
            if (p->stop != 0 || last) {
                require(p->stop == 0 || (p->safe == 1 && p->final_built == 1));
                terminated = 1;
            }
            break;
        }
        case 4: { /* the port saw an overrun */
            const uint64_t missed = 1u + (op >> 4);
            const int was = p->stop;
            size_t len = hs_plant_overrun(p, missed, out, sizeof out);
            check_frame(p, out, len, -1);
            require(len == 0u || (p->stop == HS_PLANT_STOP_OVERRUN && was == 0));
            tick += missed;
            terminated = p->stop != 0;
            break;
        }
        case 5: { /* a model state forced into the stepper (a fault injector's view) */
            hs_real q[HS_PLANT_MAX_NQ], u[HS_PLANT_MAX_NQ], z[HS_PLANT_MAX_NZ + 1];
            for (int i = 0; i < p->d.nq; ++i) q[i] = (op & 0x10u) ? value(&d, &n) : p->st.q[i];
            for (int i = 0; i < p->d.nq; ++i) u[i] = value(&d, &n);
            for (int i = 0; i < p->d.nz; ++i) z[i] = value(&d, &n);
            (void)hs_stepper_set_state(&p->st, p->st.t, q, u, z);
            break;
        }
        case 6: { /* safe outputs on the port's request */
            size_t len = hs_plant_safe_outputs(p, out, sizeof out, (op & 0x10u) ? HS_FLAG_FINAL : 0u);
            check_frame(p, out, len, -1);
            break;
        }
        case 7: { /* the run ended between frames */
            const int had = p->final_built;
            size_t len = hs_plant_final(p, out, sizeof out);
            require((len == 0u) == (had != 0));
            check_frame(p, out, len, -1);
            terminated = (op & 0x10u) != 0u;
            break;
        }
        default: /* a tick without a step: nothing for the plant */
            tick++;
            break;
        }
    }
    (void)finals;
    *dp = d;
    *np = n;
    return offered;
}

/* The end of a run: the final frame, the counters' identities and the exit codes' ranks. */
static void fz_end(hs_plant *p, uint64_t offered)
{
    uint8_t out[HS_FRAME_MAX_BYTES];
    if (p->final_built == 0) check_frame(p, out, hs_plant_final(p, out, sizeof out), -1);
    require(hs_plant_final(p, out, sizeof out) == 0u);
    hs_plant_terminate(p);

    const hs_rx_stats *st = &p->rx.st;
    require(st->datagrams == offered);
    require(st->datagrams == st->accepted + hs_rx_rejected_total(&p->rx));
    require(st->accepted == st->used + st->superseded + st->unapplied);
    require(p->out_nonfinite + p->out_range <= p->faults);
    require(p->fault_run_max <= p->faults && (p->stop != HS_PLANT_STOP_FAULT || p->fault_run >= p->def.fault_hold));
    /* The plant's own stop outranks the port's outcome (hs_exit.h: the lowest code above 2);
     * a link verdict, where there is one, ranks below both. */
    const int own = hs_plant_exit_code(p, 0, 0);
    const int lost = hs_plant_exit_code(p, 1, 1), late = hs_plant_exit_code(p, 0, 1);
    require((own == HS_EXIT_STEP) == (p->faults > 0u && p->stop != HS_PLANT_STOP_OVERRUN));
    require((own == HS_EXIT_OVERRUN) == (p->stop == HS_PLANT_STOP_OVERRUN));
    if (own == HS_EXIT_STEP || own == HS_EXIT_OVERRUN) {
        require(lost == own && late == own);
    } else {
        require(own == HS_EXIT_OK || own == HS_EXIT_LAST);
        require(lost == HS_EXIT_OUTPUT && late == HS_EXIT_BUDGET);
    }
    require(strcmp(hs_rx_reason_name(HS_RX_REASONS), "unknown") == 0 &&
            strcmp(hs_rx_reason_name(-1), "unknown") == 0);
    require(hs_plant_fault_str(p->last_fault) != NULL);
}

/* Once per process: descriptions larger than this plant build (HS_PLANT_MAX_NQ positions,
 * HS_PLANT_MAX_SIG outputs; the description language allows more) are refused at setup with
 * the size named, and the map check refuses a missing model and too many signals. */
static void fz_oversize(void)
{
    static char t[4096];
    static int done;
    char why[160];
    if (done) return;
    done = 1;
    const int nb = HS_PLANT_MAX_NQ / 2 + 1; /* point2 bodies, two positions each */
    size_t k = (size_t)snprintf(t, sizeof t, "model big dim=2\ngravity 0,-10\n");
    for (int b = 0; b < nb && k < sizeof t; ++b) k += (size_t)snprintf(t + k, sizeof t - k, "body b%d point2 mass=1 pos=%d,0\n", b, b);
    k += (size_t)snprintf(t + k, sizeof t - k, "output pos b0\n");
    /* and one of 2 x (HS_PLANT_MAX_SIG / 2) + 1 output signals */
    static char w[2048];
    size_t kw = (size_t)snprintf(w, sizeof w, "model wide2 dim=2\nbody a point2 mass=1 pos=1,0\n");
    for (int o = 0; o < HS_PLANT_MAX_SIG / 2; ++o) kw += (size_t)snprintf(w + kw, sizeof w - kw, "output pos a\n");
    kw += (size_t)snprintf(w + kw, sizeof w - kw, "output energy\n");
    require(k < sizeof t && kw < sizeof w);
    const char *const text[2] = {t, w};
    const char *const what[2] = {"positions", "outputs"};
    hs_plant_def def = hs_plant_default_def();
    for (int i = 0; i < 2; ++i) {
        hs_mb_error err;
        require(hs_mb_parse_compile(text[i], strlen(text[i]), &g_store, &g_mb, 0, &err) == HS_OK);
        require(hs_plant_model_init(&g_model, &g_mb.type, g_pblock, sizeof g_pblock, why, sizeof why) == HS_OK);
        g_model.desc = &g_mb;
        require(i == 0 ? g_model.d.nq == 2 * nb : g_model.d.nout == HS_PLANT_MAX_SIG + 1);
        const hs_status rc = hs_plant_initialize(&g_p, &def, &g_model, g_reals, sizeof g_reals / sizeof g_reals[0], g_ints,
                                                 sizeof g_ints / sizeof g_ints[0], why, sizeof why);
        require(rc == HS_E_SIZE && strstr(why, "model larger than this plant build") && strstr(why, what[i]));
        const hs_signal_map *mp;
        const hs_status rm = hs_plant_signal_map(&g_model, NULL, &g_p.g, &mp, why, sizeof why);
        require(i == 0 ? rm == HS_OK : (rm == HS_E_SIZE && mp == NULL && strstr(why, "more signals than this plant build")));
    }
    const hs_signal_map *mp;
    require(hs_plant_signal_map(NULL, NULL, &g_p.g, &mp, why, sizeof why) == HS_E_NULL && mp == NULL && why[0] != '\0');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *d = data;
    size_t n = size;
    uint8_t s[8];
    char why[160];
    if (size < 8u) return 0;
    (void)take(&d, &n, s, sizeof s);
    fz_exit_table();
    fz_oversize();
    if (!fz_model(s, why, sizeof why)) return 0;
    fz_labels(s);

    /* Definition and map. */
    hs_plant_def def = hs_plant_default_def();
    def.step.method = (hs_method)(s[1] % (HS_METHOD_COUNT + 1));
    def.step.form = (hs_form)(s[2] & 3u);
    def.step.stab = (hs_stab)((s[2] >> 2) & 3u);
    def.fault_hold = s[3] & 15u;
    def.overrun_stop = (s[3] >> 4) & 1;
    def.hash = (s[3] >> 5) & 1;
    def.clock_ns = ((s[3] >> 6) & 1) ? fake_clock : NULL;
    def.inject_fault_tick = s[4] == 0xffu ? -1 : (int64_t)(s[4] & 31u);
    def.inject_fault_frames = 1u + (s[4] >> 5);
    def.session = (uint32_t)s[6] | (uint32_t)s[7] << 8;
    fz_map(s, &def);
    const hs_status rc = hs_plant_initialize(&g_p, &def, &g_model, g_reals, sizeof g_reals / sizeof g_reals[0], g_ints,
                             sizeof g_ints / sizeof g_ints[0], why, sizeof why);
    require(rc == HS_OK || hs_exit_of(HS_TOOL_PLANT, rc) == HS_EXIT_SETUP);
    require(memchr(why, '\0', sizeof why) != NULL);
    if (rc != HS_EXIT_OK) {
        require(why[0] != '\0');
        return 0;
    }
    hs_plant *p = &g_p;
    g_clock = 0;
    fz_port(p, s);
    fz_end(p, fz_script(p, &d, &n));
    return 0;
}
