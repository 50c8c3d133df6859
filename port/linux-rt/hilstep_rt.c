/* hilstep_rt.c - build/hilstep-rt: the real-time plant process of a Linux HIL bench.
 *
 * One SCHED_FIFO thread wakes on absolute CLOCK_MONOTONIC deadlines start + k * period,
 * drains the UDP socket into hs_rx, steps the model once, sends the outputs and pushes one
 * telemetry record; a normal-priority logger thread writes the CSV and the live status line.
 * See hil/FRAME.md for the wire frame and `hilstep-rt --help` for the options. */
#define _GNU_SOURCE
#include "hs_apps.h"
#include "hs_hist.h"
#include "hs_linux.h"
#include "hs_models.h"
#include "hs_ring.h"
#include "hs_signal.h"
#include "hs_stepper.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Exit codes (documented in --help and hil/FRAME.md). */
#define EXIT_OK 0        /* run complete, or ended by SIGINT/SIGTERM */
#define EXIT_USAGE 1     /* bad option or configuration */
#define EXIT_SETUP 2     /* model, signal map, socket or thread could not be set up */
#define EXIT_OVERRUN 3   /* overrun with --policy stop: safe outputs were sent */

#define MAX_PARAMS 16
#define LAT_BINS 10000u      /* 1 us bins: 0..10 ms, like cyclictest -h 10000 */
#define EXEC_BINS 100000u    /* 10 ns bins: 0..1 ms */
#define RING_CAP 16384u      /* 16 s of telemetry at 1 kHz */

typedef struct options {
    const char *model;
    hs_method method;
    hs_form form;
    hs_stab stab;
    const char *pname[MAX_PARAMS];
    double pval[MAX_PARAMS];
    int nparams;
    int64_t period_ns;
    int prio;
    int cpu;
    const char *listen;
    const char *peer;
    double duration;      /* s; 0 = until a signal */
    int policy_stop;      /* 0 skip, 1 stop */
    const char *log;      /* CSV path, "" = none */
    const char *hist;     /* histogram file, NULL = stdout */
    const char *stats;    /* key=value stats file, NULL = none */
    int quiet;            /* no live status */
    int list_signals;     /* print the signal map and exit */
    int max_rx;           /* datagrams drained per frame at most */
    int64_t inject_tick;  /* test switch: frame that overruns on purpose, -1 = none */
    double inject_periods;/* ... by spinning until start + (tick + this) * period */
    int64_t fault_tick;   /* test switch: frame whose step gets a NaN input, -1 = none */
} options;

/* Shared between the RT thread, the logger and main. Written by the RT thread only, read by
 * the others after the run (or through the ring / relaxed atomics during it). */
typedef struct plant {
    options o;
    hs_model model;
    union { hs_real r[HS_MODELS_MAX_PARAM_BYTES / sizeof(hs_real) + 1]; double d; } pblock;
    hs_stepper st;
    const hs_signal_map *map;
    hs_rx rx;
    hs_tx tx;
    hs_udp udp;
    hs_ring ring;
    hs_hist lat, exec;
    hs_rt_report rtr;
    int nq, nz, nin, nout, nc;
    int64_t start_ns;       /* time base: frame k is planned at start_ns + k * period */
    uint64_t ticks_total;   /* 0 = unlimited */
    uint64_t frames;        /* frames stepped (stepping attempted) */
    uint64_t last_tick;     /* index of the last frame run */
    uint64_t overrun_frames;/* frames that ended after the next deadline */
    uint64_t missed_ticks;  /* ticks dropped by the skip policy (one per missed deadline) */
    uint64_t faults;        /* refused steps */
    int last_fault;
    uint64_t rx_cap_hits;   /* frames whose drain stopped at max_rx with datagrams left */
    uint64_t rx_sock_errors;/* recvmsg errors other than "queue empty" */
    double gmax;            /* max |g| over the run */
    hs_real y[HS_FRAME_MAX_VALUES]; /* outputs last sent (held while faulted) */
    hs_real in[HS_FRAME_MAX_VALUES];/* inputs handed to the model this frame */
    int exit_code;
    int rt_done;            /* set (release) when the RT thread has pushed its last record */
    uint64_t rows_written;  /* logger: CSV rows written */
    int log_error;          /* logger: errno of a failed write, 0 = none */
    FILE *csv;              /* telemetry CSV, NULL with --log none */
    hs_real v_ref;          /* status line target when the model has v_ref */
    int has_v_ref;
} plant;

static plant P;
static volatile sig_atomic_t g_stop;
static hs_real g_reals[HS_STEPPER_REALS(HS_MODELS_MAX_NQ, HS_MODELS_MAX_NC, HS_MODELS_MAX_NZ)];
static int g_ints[HS_STEPPER_INTS(HS_MODELS_MAX_NQ, HS_MODELS_MAX_NC)];
static uint32_t g_lat_bins[LAT_BINS];
static uint32_t g_exec_bins[EXEC_BINS];
static hs_tm_row g_ring_store[RING_CAP];
static hs_signal g_generic_sig[HS_MODELS_MAX_NIN + HS_MODELS_MAX_NOUT];
static hs_signal_map g_generic_map;

static void on_signal(int sig)
{
    (void)sig;
    g_stop = 1;
}

static void usage(FILE *f)
{
    fprintf(f,
"usage: hilstep-rt [options]\n"
"Real-time plant of a HIL bench: steps a hilstep model once per period on a SCHED_FIFO\n"
"thread and exchanges signals with an ECU over UDP (frame format: hil/FRAME.md).\n"
"\n"
"model and stepper\n"
"  --model NAME        model (default circular_track; external=1 is preset so the\n"
"                      tangential force comes from the ECU); others: test_eq, car_axle,\n"
"                      pendulum (generic signal map: inputs from the wire, +-1e9, stale 20)\n"
"  --param KEY=VALUE   set a model parameter (repeatable), e.g. --param v_ref=2\n"
"  --method M          explicit|symplectic|j1|j2|j3|jexact (default j2)\n"
"  --form F            index1|index2 (default index2)\n"
"  --stab S            none|baumgarte|projection (default projection)\n"
"timing\n"
"  --period-us N       frame period and step size h, microseconds (default 1000)\n"
"  --duration S        run S seconds of time base then stop; 0 = until SIGINT/SIGTERM\n"
"                      (default 10)\n"
"  --priority P        SCHED_FIFO priority 1..99 of the RT thread, 0 = normal (default 80)\n"
"  --cpu N             pin the RT thread to CPU N (default: not pinned)\n"
"  --policy skip|stop  on overrun (frame ends after the next deadline): skip = drop the\n"
"                      missed ticks, count each, stay on the time base start + k*period;\n"
"                      stop = send safe outputs (signal fallbacks, flag SAFE) and exit 3\n"
"                      (default skip). Missed steps are never run back to back.\n"
"network\n"
"  --listen A.B.C.D:P  address the plant binds to (default 127.0.0.1:47001)\n"
"  --peer A.B.C.D:P    the ECU: only datagrams from exactly this address are accepted,\n"
"                      outputs are sent there every frame (default 127.0.0.1:47002)\n"
"  --max-rx N          datagrams drained per frame at most (default 64); the rest wait\n"
"                      for the next frame, counted as rx_cap_hits\n"
"output\n"
"  --log FILE          telemetry CSV, one row per stepped frame (default\n"
"                      build/hilstep-rt.csv; 'none' = no CSV, rows still counted)\n"
"  --hist FILE         latency histogram in cyclictest -h format to FILE; the console then\n"
"                      shows only the non-empty bins (default: all bins to stdout)\n"
"  --stats FILE        all end-of-run counters as key=value lines (for scripts)\n"
"  --quiet             no live status line\n"
"  --signals           print the model's signal map (wire order, units, scale, offset,\n"
"                      range, fallback, stale limit) and exit\n"
"test switches\n"
"  --inject-overrun K:X  frame K busy-waits until start + (K + X) * period, so it\n"
"                      overruns and misses ceil(X) - 1 ticks (X > 1, e.g. 500:3.5)\n"
"  --inject-fault K    frame K hands the step a NaN input behind hs_rx's back, so the\n"
"                      step refuses: counted, state and outputs held, flag FAULT\n"
"  --help              this text\n"
"\n"
"exit status: 0 run complete or ended by SIGINT/SIGTERM (telemetry flushed, summary\n"
"printed); 1 bad option; 2 setup failed (model, map, socket, thread); 3 overrun with\n"
"--policy stop.\n"
"Without root, SCHED_FIFO or a PREEMPT_RT kernel the run goes on and says plainly that\n"
"it is not hard real-time.\n");
}

static int parse_enum(const char *s, const char *(*name)(int), int count, int *out)
{
    for (int i = 0; i < count; ++i)
        if (strcmp(s, name(i)) == 0) { *out = i; return 0; }
    return -1;
}
static const char *method_name_i(int i) { return hs_method_name((hs_method)i); }
static const char *form_name_i(int i) { return hs_form_name((hs_form)i); }
static const char *stab_name_i(int i) { return hs_stab_name((hs_stab)i); }

static int parse_double(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return (end == s || *end || errno || !isfinite(*v)) ? -1 : 0;
}

static int parse_options(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->model = "circular_track";
    o->method = HS_METHOD_J2;
    o->form = HS_FORM_INDEX2;
    o->stab = HS_STAB_PROJECTION;
    o->period_ns = 1000000;
    o->prio = 80;
    o->cpu = -1;
    o->listen = "127.0.0.1:47001";
    o->peer = "127.0.0.1:47002";
    o->duration = 10.0;
    o->log = "build/hilstep-rt.csv";
    o->max_rx = 64;
    o->inject_tick = -1;
    o->fault_tick = -1;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        double d;
        int e;
#define NEED_ARG() do { if (!v) { fprintf(stderr, "hilstep-rt: %s needs a value\n", a); return -1; } ++i; } while (0)
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); exit(EXIT_OK); }
        else if (!strcmp(a, "--quiet")) o->quiet = 1;
        else if (!strcmp(a, "--signals")) o->list_signals = 1;
        else if (!strcmp(a, "--model")) { NEED_ARG(); o->model = v; }
        else if (!strcmp(a, "--method")) {
            NEED_ARG();
            if (parse_enum(v, method_name_i, HS_METHOD_COUNT, &e)) goto bad;
            o->method = (hs_method)e;
        } else if (!strcmp(a, "--form")) {
            NEED_ARG();
            if (parse_enum(v, form_name_i, 2, &e)) goto bad;
            o->form = (hs_form)e;
        } else if (!strcmp(a, "--stab")) {
            NEED_ARG();
            if (parse_enum(v, stab_name_i, 3, &e)) goto bad;
            o->stab = (hs_stab)e;
        } else if (!strcmp(a, "--param")) {
            NEED_ARG();
            const char *eq = strchr(v, '=');
            if (!eq || eq == v || o->nparams >= MAX_PARAMS || parse_double(eq + 1, &d)) goto bad;
            char *key = strndup(v, (size_t)(eq - v));
            if (!key) goto bad;
            o->pname[o->nparams] = key;
            o->pval[o->nparams++] = d;
        } else if (!strcmp(a, "--period-us")) {
            NEED_ARG();
            if (parse_double(v, &d) || d < 50 || d > 1e6) goto bad;
            o->period_ns = (int64_t)(d * 1000.0 + 0.5);
        } else if (!strcmp(a, "--duration")) {
            NEED_ARG();
            if (parse_double(v, &d) || d < 0 || d > 1e7) goto bad;
            o->duration = d;
        } else if (!strcmp(a, "--priority")) {
            NEED_ARG();
            if (parse_double(v, &d) || d < 0 || d > 99 || d != (int)d) goto bad;
            o->prio = (int)d;
        } else if (!strcmp(a, "--cpu")) {
            NEED_ARG();
            if (parse_double(v, &d) || d < 0 || d > 4095 || d != (int)d) goto bad;
            o->cpu = (int)d;
        } else if (!strcmp(a, "--policy")) {
            NEED_ARG();
            if (!strcmp(v, "skip")) o->policy_stop = 0;
            else if (!strcmp(v, "stop")) o->policy_stop = 1;
            else goto bad;
        } else if (!strcmp(a, "--listen")) { NEED_ARG(); o->listen = v; }
        else if (!strcmp(a, "--peer")) { NEED_ARG(); o->peer = v; }
        else if (!strcmp(a, "--log")) { NEED_ARG(); o->log = strcmp(v, "none") ? v : ""; }
        else if (!strcmp(a, "--hist")) { NEED_ARG(); o->hist = v; }
        else if (!strcmp(a, "--stats")) { NEED_ARG(); o->stats = v; }
        else if (!strcmp(a, "--max-rx")) {
            NEED_ARG();
            if (parse_double(v, &d) || d < 1 || d > 100000 || d != (int)d) goto bad;
            o->max_rx = (int)d;
        } else if (!strcmp(a, "--inject-overrun")) {
            NEED_ARG();
            const char *c = strchr(v, ':');
            double k;
            char kb[32];
            if (!c || (size_t)(c - v) >= sizeof kb) goto bad;
            memcpy(kb, v, (size_t)(c - v));
            kb[c - v] = '\0';
            if (parse_double(kb, &k) || k < 0 || k != (double)(int64_t)k) goto bad;
            if (parse_double(c + 1, &d) || d <= 1.0 || d > 1000) goto bad;
            o->inject_tick = (int64_t)k;
            o->inject_periods = d;
        } else if (!strcmp(a, "--inject-fault")) {
            NEED_ARG();
            if (parse_double(v, &d) || d < 0 || d != (double)(int64_t)d) goto bad;
            o->fault_tick = (int64_t)d;
        } else {
            fprintf(stderr, "hilstep-rt: unknown option '%s' (see --help)\n", a);
            return -1;
        }
        continue;
    bad:
        fprintf(stderr, "hilstep-rt: bad value '%s' for %s (see --help)\n", v ? v : "", a);
        return -1;
#undef NEED_ARG
    }
    return 0;
}

/* Splits a model signal label "name (unit)" into its two parts (unit "1" when absent). */
static void split_label(const char *label, char *name, char *unit, size_t cap)
{
    const char *open = label ? strchr(label, '(') : NULL;
    size_t n = open ? (size_t)(open - label) : (label ? strlen(label) : 0);
    while (n > 0 && label[n - 1] == ' ') --n;
    snprintf(name, cap, "%.*s", (int)n, label ? label : "");
    if (open) {
        const char *close = strchr(open, ')');
        size_t u = close ? (size_t)(close - open - 1) : strlen(open + 1);
        snprintf(unit, cap, "%.*s", (int)u, open + 1);
    } else {
        snprintf(unit, cap, "1");
    }
}

/* A map for models without a declared one: their own input/output names, wide limits. */
static const hs_signal_map *generic_map(const hs_model_type *T)
{
    static char names[HS_MODELS_MAX_NIN + HS_MODELS_MAX_NOUT][2][48];
    int k = 0;
    for (int i = 0; i < T->nin + T->nout && k < HS_MODELS_MAX_NIN + HS_MODELS_MAX_NOUT; ++i, ++k) {
        const int in = i < T->nin;
        const int j = in ? i : i - T->nin;
        const char *const *labels = in ? T->in_names : T->out_names;
        if (labels) split_label(labels[j], names[k][0], names[k][1], sizeof names[k][0]);
        if (!labels || !names[k][0][0])
            snprintf(names[k][0], sizeof names[k][0], "%s%d", in ? "in" : "out", j + 1);
        hs_signal s = {names[k][0], names[k][1], in ? HS_SIG_IN : HS_SIG_OUT, 1.0, 0.0,
                       -1e9, 1e9, 0.0, in ? 20u : 0u};
        if (!labels) s.unit = "1";
        g_generic_sig[k] = s;
    }
    g_generic_map.app = T->name;
    g_generic_map.sig = g_generic_sig;
    g_generic_map.n = k;
    return &g_generic_map;
}

/* ---------------------------------------------------------------- real-time thread ---- */

static void send_frame(plant *p, const hs_real *y, uint32_t flags)
{
    uint8_t buf[HS_FRAME_MAX_BYTES];
    size_t n = hs_tx_build(&p->tx, buf, sizeof buf, y, (uint64_t)hs_now_ns(), p->rx.used_seq, flags);
    if (n) (void)hs_udp_send(&p->udp, buf, n);
}

static void *rt_thread(void *arg)
{
    plant *p = (plant *)arg;
    const int64_t per = p->o.period_ns;
    uint8_t buf[HS_FRAME_MAX_BYTES + 1];
    hs_real ynew[HS_FRAME_MAX_VALUES], g[HS_MODELS_MAX_NC + 1];
    sigset_t ss;

    /* Signals go to main; this thread only polls the flag between frames. */
    sigemptyset(&ss);
    sigaddset(&ss, SIGINT);
    sigaddset(&ss, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &ss, NULL);
    hs_rt_prefault_stack(128 * 1024);

    /* Start on a period boundary two periods ahead: time to get scheduled, and frame 0 is
     * never late by construction. */
    p->start_ns = (hs_now_ns() / per + 2) * per;
    uint64_t k = 0;
    int final_sent = 0;
    double gnow = 0.0; /* max |g| of the committed state; kept across a refused step */
    while (!g_stop && (p->ticks_total == 0 || k < p->ticks_total)) {
        const int64_t planned = p->start_ns + (int64_t)k * per;
        hs_sleep_until_ns(planned);
        const int64_t woke = hs_now_ns();
        hs_hist_add(&p->lat, woke - planned, k);

        /* Inputs: drain what is queued (bounded), newest valid frame wins. */
        int nrx = 0;
        for (;;) {
            if (nrx >= p->o.max_rx) {
                int fp;
                /* Cap reached: one more recv tells whether datagrams are left behind for
                 * the next frame; it is classified like the others, so nothing is lost. */
                ssize_t n = hs_udp_recv(&p->udp, buf, sizeof buf, &fp);
                if (n >= 0) {
                    (void)hs_rx_offer(&p->rx, buf, (size_t)n, fp);
                    p->rx_cap_hits++;
                }
                break;
            }
            int from_peer;
            ssize_t n = hs_udp_recv(&p->udp, buf, sizeof buf, &from_peer);
            if (n == -1) break;
            if (n == -2) { p->rx_sock_errors++; break; }
            (void)hs_rx_offer(&p->rx, buf, (size_t)n, from_peer);
            ++nrx;
        }
        const int fresh = hs_rx_tick(&p->rx, p->in);

        /* The step: transactional, so a refusal leaves state and outputs as they were. */
        const int64_t t0 = hs_now_ns();
        int rc;
        if ((int64_t)k == p->o.fault_tick && p->nin > 0) {
            /* Test switch: what a model fault looks like, without touching hs_rx. */
            hs_real bad[HS_FRAME_MAX_VALUES];
            memcpy(bad, p->in, sizeof(hs_real) * (size_t)p->nin);
            bad[0] = (hs_real)NAN;
            rc = hs_stepper_step(&p->st, bad);
        } else {
            rc = hs_stepper_step(&p->st, p->in);
        }
        uint32_t flags = 0;
        if (rc == HS_OK) rc = hs_stepper_outputs(&p->st, p->in, ynew);
        if (rc == HS_OK) {
            memcpy(p->y, ynew, sizeof(hs_real) * (size_t)p->nout);
            if (p->nc > 0 && hs_stepper_residual(&p->st, g) == HS_OK) {
                double gm = 0.0;
                for (int i = 0; i < p->nc; ++i) {
                    double a = fabs((double)g[i]);
                    gm = a > gm ? a : gm;
                }
                gnow = gm;
                if (!(gm <= p->gmax)) p->gmax = gm; /* a NaN residual sticks: it must show */
            }
        } else {
            p->faults++;
            p->last_fault = rc;
            flags |= HS_FLAG_FAULT;
        }
        const int64_t t1 = hs_now_ns();
        hs_hist_add(&p->exec, t1 - t0, k);

        if ((int64_t)k == p->o.inject_tick) {
            /* Test switch: burn CPU to a fixed absolute instant so the overrun length does
             * not depend on when this frame happened to start. */
            const int64_t until = p->start_ns + (int64_t)((double)k * (double)per +
                                                          p->o.inject_periods * (double)per);
            while (hs_now_ns() < until) {
            }
        }

        if (p->rx.stale) flags |= HS_FLAG_STALE;
        const int last = (p->ticks_total != 0 && k + 1 >= p->ticks_total) || g_stop;
        send_frame(p, p->y, flags | (last ? HS_FLAG_FINAL : 0u));
        final_sent = last;

        hs_tm_row row;
        memset(&row, 0, sizeof row);
        row.tick = k;
        row.planned_ns = planned - p->start_ns;
        row.latency_ns = woke - planned;
        row.exec_ns = (uint32_t)(t1 - t0);
        row.t = (double)p->st.t;
        for (int i = 0; i < p->nq; ++i) { row.q[i] = (double)p->st.q[i]; row.u[i] = (double)p->st.u[i]; }
        for (int i = 0; i < p->nz; ++i) row.z[i] = (double)p->st.z[i];
        for (int i = 0; i < p->nin; ++i) row.in[i] = (double)p->in[i];
        for (int i = 0; i < p->nout; ++i) row.out[i] = (double)p->y[i];
        row.gmax = gnow;
        row.in_seq = p->rx.used_seq;
        row.flags = (fresh ? HS_TMF_FRESH : 0u) | (p->rx.stale ? HS_TMF_STALE : 0u) |
                    (rc != HS_OK ? HS_TMF_FAULT : 0u);
        row.missed = p->missed_ticks;
        row.rejected = hs_rx_rejected_total(&p->rx);
        row.faults = p->faults;
        p->frames++;
        p->last_tick = k;

        const int64_t end = hs_now_ns();
        row.frame_ns = (uint32_t)(end - woke);
        (void)hs_ring_push(&p->ring, &row); /* a full ring drops and counts; never waits */

        const int64_t next = planned + per;
        if (end > next) {
            /* Overrun: the frame ended after the next deadline. Count every deadline it
             * swallowed and rejoin the time base at the first one still ahead of us. */
            const uint64_t missed = (uint64_t)((end - next) / per) + 1u;
            p->overrun_frames++;
            p->missed_ticks += missed;
            if (p->o.policy_stop) {
                send_frame(p, NULL, HS_FLAG_SAFE | HS_FLAG_FINAL);
                final_sent = 1;
                p->exit_code = EXIT_OVERRUN;
                break;
            }
            k += 1u + missed;
        } else {
            k += 1u;
        }
    }
    /* The run ended between frames (an overrun jumped past the end, or a signal came after
     * the last send): the peer still gets its FINAL frame, with the held outputs. */
    if (!final_sent) send_frame(p, p->y, HS_FLAG_FINAL);
    __atomic_store_n(&p->rt_done, 1, __ATOMIC_RELEASE);
    return NULL;
}

/* ------------------------------------------------------------------ logger thread ---- */

static void csv_header(FILE *f, const plant *p)
{
    fprintf(f, "tick,t_s,planned_ns,latency_ns,exec_ns,frame_ns");
    for (int i = 0; i < p->nq; ++i) fprintf(f, ",q%d", i + 1);
    for (int i = 0; i < p->nq; ++i) fprintf(f, ",u%d", i + 1);
    for (int i = 0; i < p->nz; ++i) fprintf(f, ",z%d", i + 1);
    for (int i = 0; i < p->nin; ++i)
        fprintf(f, ",in_%s[%s]", p->rx.sig[i]->name, p->rx.sig[i]->unit);
    for (int i = 0; i < p->nout; ++i)
        fprintf(f, ",out_%s[%s]", p->tx.sig[i]->name, p->tx.sig[i]->unit);
    fprintf(f, ",gmax,in_seq,flags,missed,rejected,faults\n");
}

static void csv_row(FILE *f, const plant *p, const hs_tm_row *r)
{
    fprintf(f, "%llu,%.9f,%lld,%lld,%u,%u", (unsigned long long)r->tick, r->t,
            (long long)r->planned_ns, (long long)r->latency_ns, r->exec_ns, r->frame_ns);
    for (int i = 0; i < p->nq; ++i) fprintf(f, ",%.17g", r->q[i]);
    for (int i = 0; i < p->nq; ++i) fprintf(f, ",%.17g", r->u[i]);
    for (int i = 0; i < p->nz; ++i) fprintf(f, ",%.17g", r->z[i]);
    for (int i = 0; i < p->nin; ++i) fprintf(f, ",%.17g", r->in[i]);
    for (int i = 0; i < p->nout; ++i) fprintf(f, ",%.17g", r->out[i]);
    fprintf(f, ",%.3e,%u,%u,%llu,%llu,%llu\n", r->gmax, r->in_seq, r->flags,
            (unsigned long long)r->missed, (unsigned long long)r->rejected,
            (unsigned long long)r->faults);
}

static void *logger_thread(void *arg)
{
    plant *p = (plant *)arg;
    FILE *f = NULL;
    static char fbuf[1 << 16];
    hs_tm_row r, last;
    int have = 0;
    int64_t lat_max = 0;
    uint32_t exec_max = 0;
    double g_max = 0.0;
    sigset_t ss;
    sigemptyset(&ss);
    sigaddset(&ss, SIGINT);
    sigaddset(&ss, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &ss, NULL);

    f = p->csv; /* opened by main, so a bad path fails the start, not the run */
    if (f) {
        setvbuf(f, fbuf, _IOFBF, sizeof fbuf);
        csv_header(f, p);
    }
    int64_t next_status = hs_now_ns() + 1000000000;
    memset(&last, 0, sizeof last);
    for (;;) {
        /* Read the done flag before draining: if it was set, this drain sees every record. */
        int done = __atomic_load_n(&p->rt_done, __ATOMIC_ACQUIRE);
        while (hs_ring_pop(&p->ring, &r) == 0) {
            if (f) csv_row(f, p, &r);
            p->rows_written++;
            if (r.latency_ns > lat_max) lat_max = r.latency_ns;
            if (r.exec_ns > exec_max) exec_max = r.exec_ns;
            if (!(r.gmax <= g_max)) g_max = r.gmax;
            last = r;
            have = 1;
        }
        if (f && ferror(f) && !p->log_error) p->log_error = EIO;
        if (done) break;
        int64_t now = hs_now_ns();
        if (now >= next_status) {
            next_status += 1000000000;
            if (!p->o.quiet && have) {
                printf("t %7.3f s  frames %7llu  lat max %6.1f us  step max %6.1f us  overruns "
                       "%llu  rejected %llu  max|g| %.1e",
                       last.t, (unsigned long long)p->rows_written, (double)lat_max / 1e3,
                       (double)exec_max / 1e3, (unsigned long long)last.missed,
                       (unsigned long long)last.rejected, g_max);
                if (p->has_v_ref && p->nout > 0)
                    printf("  %s %.6f / %.6f %s", p->tx.sig[0]->name, last.out[0],
                           (double)p->v_ref, p->tx.sig[0]->unit);
                if (last.flags & HS_TMF_STALE) printf("  [inputs stale]");
                if (last.faults) printf("  [faults %llu]", (unsigned long long)last.faults);
                printf("\n");
                fflush(stdout);
            }
        }
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
    }
    if (f) {
        if (fclose(f) != 0 && !p->log_error) p->log_error = errno ? errno : EIO;
    }
    return NULL;
}

/* ------------------------------------------------------------------------ output ---- */

static void print_hist(FILE *f, const hs_hist *h, int compact)
{
    /* cyclictest -h layout: one "%06d %06d" line per 1 us bin, then the # footer. Bins are
     * printed up to the highest non-empty one (cyclictest prints up to -h; readers take
     * absent bins as zero); compact leaves out the empty ones, for the console. */
    uint32_t top = 0;
    for (uint32_t i = 0; i < h->nbins; ++i) if (h->bins[i]) top = i;
    fprintf(f, "# Histogram\n");
    for (uint32_t i = 0; i <= top; ++i)
        if (!compact || h->bins[i]) fprintf(f, "%06u %06u\n", i, h->bins[i]);
    fprintf(f, "# Total: %09llu\n", (unsigned long long)(h->count - h->overflow));
    fprintf(f, "# Min Latencies: %05lld\n", h->count ? (long long)(h->min / 1000) : 0LL);
    fprintf(f, "# Avg Latencies: %05lld\n", (long long)(hs_hist_mean(h) / 1000.0));
    fprintf(f, "# Max Latencies: %05lld\n", h->count ? (long long)(h->max / 1000) : 0LL);
    fprintf(f, "# Histogram Overflows: %05llu\n", (unsigned long long)h->overflow);
    fprintf(f, "# Histogram Overflow at cycle number:\n# Thread 0:");
    for (uint64_t i = 0; i < h->overflow && i < HS_HIST_OVF_KEEP; ++i)
        fprintf(f, " %05llu", (unsigned long long)h->ovf_at[i]);
    if (h->overflow > HS_HIST_OVF_KEEP)
        fprintf(f, " # %05llu others", (unsigned long long)(h->overflow - HS_HIST_OVF_KEEP));
    fprintf(f, "\n");
}

/* Every counter, one "key value" pair per call, to the summary (pretty) or stats file. */
typedef void (*kv_fn)(FILE *f, const char *key, double v, const char *unit);

static void kv_pretty(FILE *f, const char *key, double v, const char *unit)
{
    fprintf(f, "  %-26s %.10g%s%s\n", key, v, unit[0] ? " " : "", unit);
}
static void kv_plain(FILE *f, const char *key, double v, const char *unit)
{
    (void)unit;
    fprintf(f, "%s=%.17g\n", key, v);
}

static void report(FILE *f, kv_fn kv, const plant *p)
{
    const hs_rx_stats *s = &p->rx.st;
    char key[64];
    kv(f, "frames", (double)p->frames, "");
    kv(f, "ticks", (double)(p->frames ? p->last_tick + 1u : 0u), "");
    kv(f, "overrun_frames", (double)p->overrun_frames, "");
    kv(f, "missed_ticks", (double)p->missed_ticks, "");
    kv(f, "step_faults", (double)p->faults, "");
    kv(f, "sim_time", (double)p->st.t, "s");
    kv(f, "latency_min", (double)p->lat.min / 1e3, "us");
    kv(f, "latency_avg", hs_hist_mean(&p->lat) / 1e3, "us");
    kv(f, "latency_p50", (double)hs_hist_quantile(&p->lat, 0.5) / 1e3, "us");
    kv(f, "latency_p99", (double)hs_hist_quantile(&p->lat, 0.99) / 1e3, "us");
    kv(f, "latency_p999", (double)hs_hist_quantile(&p->lat, 0.999) / 1e3, "us");
    kv(f, "latency_max", (double)p->lat.max / 1e3, "us");
    kv(f, "latency_overflows", (double)p->lat.overflow, "(> 10 ms)");
    kv(f, "step_min", (double)p->exec.min / 1e3, "us");
    kv(f, "step_median", (double)hs_hist_quantile(&p->exec, 0.5) / 1e3, "us");
    kv(f, "step_p99", (double)hs_hist_quantile(&p->exec, 0.99) / 1e3, "us");
    kv(f, "step_p999", (double)hs_hist_quantile(&p->exec, 0.999) / 1e3, "us");
    kv(f, "step_max", (double)p->exec.max / 1e3, "us");
    kv(f, "step_p999_over_median",
       (double)hs_hist_quantile(&p->exec, 0.999) /
           (double)(hs_hist_quantile(&p->exec, 0.5) ? hs_hist_quantile(&p->exec, 0.5) : 1), "");
    kv(f, "rx_datagrams", (double)s->datagrams, "");
    kv(f, "rx_accepted", (double)s->accepted, "");
    kv(f, "rx_used", (double)s->used, "");
    kv(f, "rx_superseded", (double)s->superseded, "");
    for (int r = 1; r < HS_RX_REASONS; ++r) {
        snprintf(key, sizeof key, "rx_rej_%s", hs_rx_reason_name(r));
        kv(f, key, (double)s->rejected[r], "");
    }
    kv(f, "rx_rejected", (double)hs_rx_rejected_total(&p->rx), "");
    kv(f, "rx_clamped_values", (double)s->clamped, "");
    kv(f, "rx_seq_gaps", (double)s->seq_gaps, "");
    kv(f, "rx_peer_restarts", (double)s->peer_restarts, "");
    kv(f, "rx_stale_ticks", (double)s->stale_frames, "(inputs on fallback)");
    kv(f, "rx_kernel_drops", (double)p->udp.kernel_drops, "(socket queue full)");
    kv(f, "rx_foreign_kernel_drops", (double)p->udp.foreign_kernel_drops, "(other sources, queue full)");
    kv(f, "rx_peer_unreachable", (double)p->udp.peer_unreachable, "(ICMP: no ECU listening)");
    kv(f, "rx_seq_resyncs", (double)p->rx.st.seq_resyncs, "");
    kv(f, "rx_cap_hits", (double)p->rx_cap_hits, "");
    kv(f, "rx_socket_errors", (double)p->rx_sock_errors, "");
    kv(f, "tx_frames", (double)p->tx.frames, "");
    kv(f, "tx_send_errors", (double)p->udp.send_errors, "");
    kv(f, "telemetry_rows", (double)p->rows_written, "");
    kv(f, "telemetry_drops", (double)hs_ring_drops(&p->ring), "");
    kv(f, "max_abs_g", p->gmax, "");
    for (int i = 0; i < p->nout; ++i) {
        snprintf(key, sizeof key, "final_%s", p->tx.sig[i]->name);
        kv(f, key, (double)p->y[i], p->tx.sig[i]->unit);
    }
    kv(f, "hard_realtime", (double)hs_rt_is_hard(&p->rtr), "");
    kv(f, "exit_code", (double)p->exit_code, "");
}

/* -------------------------------------------------------------------------- main ---- */

int main(int argc, char **argv)
{
    plant *p = &P;
    char why[256];
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (parse_options(argc, argv, &p->o) != 0) return EXIT_USAGE;

    const hs_model_type *T = hs_model_find(p->o.model);
    if (!T) {
        fprintf(stderr, "hilstep-rt: unknown model '%s'; known:", p->o.model);
        for (int i = 0; hs_model_registry[i]; ++i) fprintf(stderr, " %s", hs_model_registry[i]->name);
        fprintf(stderr, "\n");
        return EXIT_USAGE;
    }
    if (T->param_size > sizeof p->pblock) {
        fprintf(stderr, "hilstep-rt: model %s parameter block too large\n", T->name);
        return EXIT_SETUP;
    }
    int rc = hs_model_init(&p->model, T, &p->pblock);
    if (rc == HS_OK && strcmp(T->name, "circular_track") == 0)
        rc = hs_model_set_param(&p->model, "external", HS_R(1.0));
    for (int i = 0; rc == HS_OK && i < p->o.nparams; ++i) {
        rc = hs_model_set_param(&p->model, p->o.pname[i], (hs_real)p->o.pval[i]);
        if (rc != HS_OK)
            fprintf(stderr, "hilstep-rt: --param %s=%g: %s\n", p->o.pname[i], p->o.pval[i],
                    hs_status_str(rc));
    }
    if (rc == HS_OK) rc = hs_model_check(&p->model);
    if (rc != HS_OK) {
        fprintf(stderr, "hilstep-rt: model %s: %s\n", T->name, hs_status_str(rc));
        return EXIT_USAGE;
    }
    hs_real vr;
    if (hs_model_get_param(&p->model, "v_ref", &vr) == HS_OK) { p->has_v_ref = 1; p->v_ref = vr; }

    hs_stepper_def d = hs_stepper_default_def();
    d.method = p->o.method;
    d.form = p->o.form;
    d.stab = p->o.stab;
    d.h = (hs_real)((double)p->o.period_ns * 1e-9);
    d.alpha = HS_R(1.0) / d.h;
    d.beta = d.alpha * d.alpha;
    rc = hs_stepper_init(&p->st, &d, &p->model, HS_R(0.0), g_reals,
                         sizeof g_reals / sizeof g_reals[0], g_ints, sizeof g_ints / sizeof g_ints[0]);
    if (rc != HS_OK) {
        fprintf(stderr, "hilstep-rt: stepper init (%s/%s/%s, h=%g s): %s\n",
                hs_method_name(d.method), hs_form_name(d.form), hs_stab_name(d.stab),
                (double)d.h, hs_status_str(rc));
        return EXIT_SETUP;
    }
    p->nq = T->nq; p->nz = T->nz; p->nin = T->nin; p->nout = T->nout; p->nc = T->nc;
    if (p->nq > HS_MODELS_MAX_NQ || p->nz > HS_MODELS_MAX_NZ || p->nin > HS_MODELS_MAX_NIN ||
        p->nout > HS_MODELS_MAX_NOUT || p->nc > HS_MODELS_MAX_NC) {
        fprintf(stderr, "hilstep-rt: model %s exceeds the telemetry record sizes\n", T->name);
        return EXIT_SETUP;
    }

    p->map = hs_plant_map_find(T->name);
    if (!p->map) p->map = generic_map(T);
    if (hs_signal_map_check(p->map, p->nin, p->nout, why, sizeof why) != 0) {
        fprintf(stderr, "hilstep-rt: %s\n", why);
        return EXIT_SETUP;
    }
    if (p->o.list_signals) {
        printf("signal map %s (engineering = wire * scale + offset; frame: hil/FRAME.md)\n",
               p->map->app);
        printf("%-4s %-3s %-16s %-6s %8s %8s %10s %10s %9s %6s\n", "dir", "#", "name", "unit",
               "scale", "offset", "min", "max", "fallback", "stale");
        for (int dir = 0; dir < 2; ++dir) {
            int idx = 0;
            for (int i = 0; i < p->map->n; ++i) {
                const hs_signal *sg = &p->map->sig[i];
                if ((int)sg->dir != dir) continue;
                printf("%-4s %-3d %-16s %-6s %8g %8g %10g %10g %9g ", dir ? "out" : "in", idx++,
                       sg->name, sg->unit, sg->scale, sg->offset, sg->min, sg->max, sg->fallback);
                if (dir == 0) printf("%6u\n", sg->stale_limit); else printf("%6s\n", "-");
            }
        }
        return EXIT_OK;
    }
    hs_rx_init(&p->rx, p->map, HS_FRAME_KIND_TO_PLANT);
    hs_tx_init(&p->tx, p->map, HS_FRAME_KIND_FROM_PLANT,
               (uint32_t)((uint64_t)hs_now_ns() ^ ((uint64_t)getpid() << 16)));
    /* Outputs before the first step are the initial state's, so the ECU starts on truth. */
    for (int i = 0; i < p->nin; ++i) p->in[i] = p->rx.value[i];
    if (p->nout > 0 && hs_stepper_outputs(&p->st, p->in, p->y) != HS_OK)
        for (int i = 0; i < p->nout; ++i) p->y[i] = (hs_real)p->tx.sig[i]->fallback;

    struct sockaddr_in la, pa;
    if (hs_addr_parse(p->o.listen, &la, why, sizeof why) ||
        hs_addr_parse(p->o.peer, &pa, why, sizeof why)) {
        fprintf(stderr, "hilstep-rt: %s\n", why);
        return EXIT_USAGE;
    }
    if (hs_udp_open(&p->udp, &la, &pa, 1 << 20, why, sizeof why) != 0) {
        fprintf(stderr, "hilstep-rt: %s\n", why);
        return EXIT_SETUP;
    }
    if (p->o.log[0]) {
        p->csv = fopen(p->o.log, "w");
        if (!p->csv) {
            fprintf(stderr, "hilstep-rt: --log %s: %s\n", p->o.log, strerror(errno));
            return EXIT_SETUP;
        }
    }
    hs_ring_init(&p->ring, g_ring_store, RING_CAP, (uint32_t)sizeof(hs_tm_row));
    hs_hist_init(&p->lat, g_lat_bins, LAT_BINS, 1000);
    hs_hist_init(&p->exec, g_exec_bins, EXEC_BINS, 10);
    p->ticks_total = p->o.duration > 0
        ? (uint64_t)(p->o.duration * 1e9 / (double)p->o.period_ns + 0.5) : 0u;

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    /* Lock before the threads exist so their stacks and our static arrays are resident. */
    hs_rt_lock_memory(&p->rtr);
    char ab1[32], ab2[32];
    printf("hilstep-rt: model %s (%s), %s/%s/%s, period %.1f us, %s -> peer %s, duration %s\n",
           T->name, p->map->app, hs_method_name(d.method), hs_form_name(d.form),
           hs_stab_name(d.stab), (double)p->o.period_ns / 1e3,
           hs_addr_str(&p->udp.local, ab1, sizeof ab1), hs_addr_str(&pa, ab2, sizeof ab2),
           p->o.duration > 0 ? "set" : "until signal");
    if (p->o.duration > 0) printf("hilstep-rt: %llu frames (%.3f s)\n",
                                  (unsigned long long)p->ticks_total, p->o.duration);
    if (p->o.log[0]) printf("hilstep-rt: telemetry CSV %s\n", p->o.log);

    pthread_t rt, lg;
    int e = hs_thread_start(&lg, logger_thread, p, 256u * 1024u, &p->rtr);
    if (e) {
        fprintf(stderr, "hilstep-rt: logger thread: %s\n", strerror(e));
        return EXIT_SETUP;
    }
    e = hs_rt_thread_start(&rt, rt_thread, p, p->o.prio, p->o.cpu, &p->rtr);
    if (e) {
        fprintf(stderr, "hilstep-rt: real-time thread: %s\n", strerror(e));
        __atomic_store_n(&p->rt_done, 1, __ATOMIC_RELEASE);
        pthread_join(lg, NULL);
        return EXIT_SETUP;
    }
    hs_rt_print(&p->rtr, stdout);
    pthread_join(rt, NULL);
    pthread_join(lg, NULL);
    hs_udp_close(&p->udp);

    printf("summary (%s)%s\n", g_stop ? "stopped by signal" : p->exit_code ? "stopped by overrun policy" : "complete",
           hs_rt_is_hard(&p->rtr) ? "" : " - NOT hard real-time, see rt: lines above");
    report(stdout, kv_pretty, p);
    if (p->faults) printf("  last step fault: %s\n", hs_status_str(p->last_fault));
    if (p->log_error) printf("  telemetry CSV error: %s\n", strerror(p->log_error));
    if (p->o.stats) {
        FILE *f = fopen(p->o.stats, "w");
        if (f) {
            report(f, kv_plain, p);
            fclose(f);
        } else {
            fprintf(stderr, "hilstep-rt: --stats %s: %s\n", p->o.stats, strerror(errno));
        }
    }
    if (p->o.hist) {
        FILE *f = fopen(p->o.hist, "w");
        if (f) {
            print_hist(f, &p->lat, 0);
            fclose(f);
            if (!p->o.quiet) {
                printf("latency histogram, non-empty 1 us bins (cyclictest -h format):\n");
                print_hist(stdout, &p->lat, 1);
            }
            printf("latency histogram file (cyclictest -h format, all bins): %s\n", p->o.hist);
        } else {
            fprintf(stderr, "hilstep-rt: --hist %s: %s\n", p->o.hist, strerror(errno));
        }
    } else {
        print_hist(stdout, &p->lat, 0);
    }
    if (p->o.log[0]) printf("telemetry CSV: %s (%llu rows, %u dropped)\n", p->o.log,
                            (unsigned long long)p->rows_written, hs_ring_drops(&p->ring));
    return p->exit_code;
}
