/* hilstep_ecu.c - build/hilstep-ecu: a software ECU for the circular-track bench.
 *
 * The circular track's PI speed controller (seed 004 section 4.1) taken out of the model and
 * run as a separate process on its own clock, so the loop closes through the network as on a
 * real bench: F = -kp (v - v_ref) - ki * integral (v - v_ref) dt. It speaks the frame of
 * hil/FRAME.md through the same hil/ codec as the plant. */
#define _GNU_SOURCE
#include "hs_apps.h"
#include "hs_linux.h"
#include "hs_signal.h"
#include "hs_transports.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct ecu {
    /* options */
    const char *listen, *peer, *stats;
    const char *transport, *can_if, *dbc;   /* as hilstep-rt's options of the same names */
    const char *tkey[HS_TP_MAX_OPTS], *tval[HS_TP_MAX_OPTS];
    int ntopt;
    int64_t period_ns;
    int64_t phase_ns;        /* offset of the ECU's ticks from the period grid (ns) */
    double kp, ki, v_ref, f_max, duration;
    int prio, cpu, quiet;
    int wait_plant;          /* send nothing before the first plant frame (--wait-plant) */
    /* run */
    hs_transport tp;
    hs_rx rx;
    hs_tx tx;
    hs_rt_report rtr;
    double integ;            /* integral of (v - v_ref) dt (m) */
    double F;                /* last command (N) */
    double v;                /* last measured speed (m/s) */
    uint64_t ticks, missed, fresh, waiting, saturated, held;
    int saw_final;
} ecu;

static ecu E;
static volatile sig_atomic_t g_stop;

static void on_signal(int s)
{
    (void)s;
    g_stop = 1;
}

static void usage(void)
{
    printf(
"usage: hilstep-ecu [options]\n"
"Software ECU for the circular-track HIL bench: PI speed controller on its own clock,\n"
"F = -kp (v - v_ref) - ki * integral(v - v_ref) dt, over the UDP frame of hil/FRAME.md\n"
"or over SocketCAN with a DBC (hil/CAN.md).\n"
"  --transport T       udp (default) or can\n"
"  --can-if IF         CAN interface of --transport can (e.g. vcan0)\n"
"  --dbc FILE          DBC of --transport can (e.g. hil/dbc/circular_track.dbc): the ECU\n"
"                      receives speed, radius, x1, x2 and sends F_t, bound by name\n"
"  --transport-opt K=V an option of the transport (repeatable), e.g. can-filter=off\n"
"  --listen A.B.C.D:P  address the ECU binds to (default 127.0.0.1:47002)\n"
"  --peer A.B.C.D:P    the plant (default 127.0.0.1:47001)\n"
"  --period-us N       controller period, microseconds (default 1000)\n"
"  --phase-us N        offset of the ECU's ticks from the CLOCK_MONOTONIC period grid the\n"
"                      plant also starts on (default: half a period, so on one machine the\n"
"                      command lands mid-frame: exactly one frame of loop delay, no races)\n"
"  --kp X              proportional gain, N s/m (default 20)\n"
"  --ki X              integral gain, N/m (default 100)\n"
"  --v-ref X           target speed, m/s (default 1)\n"
"  --f-max X           command limit, N (default 50; the integrator holds while limited)\n"
"  --duration S        stop after S seconds; 0 = when the plant sends its final frame or\n"
"                      on SIGINT/SIGTERM (default 0; CAN has no final frame: give S)\n"
"  --priority P        SCHED_FIFO priority of the control thread, 0 = normal (default 0)\n"
"  --cpu N             pin the control thread to CPU N\n"
"  --stats FILE        end-of-run counters as key=value lines\n"
"  --quiet             no summary\n"
"  --wait-plant        send nothing until the first plant frame arrived (counted as\n"
"                      held_ticks): then every frame sent finds the plant listening\n"
"While no plant frame has arrived, or the plant's outputs are stale, the ECU sends 0 N and\n"
"holds its integrator.\n");
}

static int num(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = s ? strtod(s, &end) : 0.0;
    return (!s || end == s || *end || errno || !isfinite(*v)) ? -1 : 0;
}

static int parse(int argc, char **argv, ecu *e)
{
    e->listen = "127.0.0.1:47002";
    e->peer = "127.0.0.1:47001";
    e->transport = hs_transports[0]->name;
    e->period_ns = 1000000;
    e->phase_ns = -1;
    e->kp = 20.0;
    e->ki = 100.0;
    e->v_ref = 1.0;
    e->f_max = 50.0;
    e->cpu = -1;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        double d = 0.0;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(); exit(0); }
        if (!strcmp(a, "--quiet")) { e->quiet = 1; continue; }
        if (!strcmp(a, "--wait-plant")) { e->wait_plant = 1; continue; }
        if (!v) { fprintf(stderr, "hilstep-ecu: %s needs a value (see --help)\n", a); return -1; }
        ++i;
        if (!strcmp(a, "--listen")) e->listen = v;
        else if (!strcmp(a, "--peer")) e->peer = v;
        else if (!strcmp(a, "--transport")) e->transport = v;
        else if (!strcmp(a, "--can-if")) e->can_if = v;
        else if (!strcmp(a, "--dbc")) e->dbc = v;
        else if (!strcmp(a, "--transport-opt")) {
            const char *eq = strchr(v, '=');
            char *key = eq && eq != v && e->ntopt < HS_TP_MAX_OPTS - 6 ? strndup(v, (size_t)(eq - v)) : NULL;
            if (!key) goto bad;
            e->tkey[e->ntopt] = key;
            e->tval[e->ntopt++] = eq + 1;
        }
        else if (!strcmp(a, "--stats")) e->stats = v;
        else if (num(v, &d)) goto bad;
        else if (!strcmp(a, "--period-us") && d >= 50 && d <= 1e6) e->period_ns = (int64_t)(d * 1e3 + 0.5);
        else if (!strcmp(a, "--phase-us") && d >= 0 && d <= 1e6) e->phase_ns = (int64_t)(d * 1e3 + 0.5);
        else if (!strcmp(a, "--kp") && d >= 0) e->kp = d;
        else if (!strcmp(a, "--ki") && d >= 0) e->ki = d;
        else if (!strcmp(a, "--v-ref")) e->v_ref = d;
        else if (!strcmp(a, "--f-max") && d > 0) e->f_max = d;
        else if (!strcmp(a, "--duration") && d >= 0) e->duration = d;
        else if (!strcmp(a, "--priority") && d >= 0 && d <= 99) e->prio = (int)d;
        else if (!strcmp(a, "--cpu") && d >= 0) e->cpu = (int)d;
        else goto bad;
        continue;
    bad:
        fprintf(stderr, "hilstep-ecu: bad option or value: %s %s (see --help)\n", a, v);
        return -1;
    }
    if (e->phase_ns < 0) e->phase_ns = e->period_ns / 2;
    e->phase_ns %= e->period_ns;
    return 0;
}

static void *control(void *arg)
{
    ecu *e = (ecu *)arg;
    const int64_t per = e->period_ns;
    const double dt0 = (double)per * 1e-9;
    uint8_t buf[HS_FRAME_MAX_BYTES];
    hs_real meas[HS_FRAME_MAX_VALUES], cmd[1];
    sigset_t ss;
    sigemptyset(&ss);
    sigaddset(&ss, SIGINT);
    sigaddset(&ss, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &ss, NULL);

    const int64_t start = (hs_now_ns() / per + 1) * per + e->phase_ns;
    const uint64_t total = e->duration > 0 ? (uint64_t)(e->duration / dt0 + 0.5) : 0u;
    uint64_t k = 0, skipped = 0;
    while (!g_stop && !e->saw_final && (total == 0 || k < total)) {
        hs_sleep_until_ns(start + (int64_t)k * per);
        (void)e->tp.ops->receive(&e->tp, &e->rx, 64);
        int fresh = hs_rx_tick(&e->rx, meas);
        e->fresh += (uint64_t)fresh;
        /* Sample-and-hold: integrate over the real time since the last tick, including
         * ticks this process missed, so the integral stays a time integral. */
        const double dt = dt0 * (double)(1u + skipped);
        if (!e->rx.have_peer || e->rx.stale) {
            e->F = 0.0; /* no trustworthy measurement: no push, integrator held */
            e->waiting++;
        } else {
            e->v = (double)meas[0];
            const double err = e->v - e->v_ref;
            const double I = e->integ + err * dt;
            double F = -e->kp * err - e->ki * I;
            if (F > e->f_max || F < -e->f_max) {
                F = F > 0 ? e->f_max : -e->f_max; /* conditional integration: no wind-up */
                e->saturated++;
            } else {
                e->integ = I;
            }
            e->F = F;
        }
        cmd[0] = (hs_real)e->F;
        /* --wait-plant: before the plant spoke there may be no socket to send to. */
        const int hold = e->wait_plant && !e->rx.have_peer;
        e->held += (uint64_t)hold;
        size_t n = hold ? 0u : hs_tx_build(&e->tx, buf, sizeof buf, cmd, (uint64_t)hs_now_ns(),
                               e->rx.used_seq, e->rx.stale ? HS_FLAG_STALE : 0u);
        if (n) {
            hs_tp_out o = {k, 0, &e->tx, cmd, buf, n};
            e->tp.ops->send(&e->tp, &o);
        }
        if (fresh && (e->rx.peer_flags & HS_FLAG_FINAL)) e->saw_final = 1;
        e->ticks++;
        const int64_t next = start + (int64_t)(k + 1u) * per, now = hs_now_ns();
        skipped = now > next ? (uint64_t)((now - next) / per) + 1u : 0u;
        e->missed += skipped;
        k += 1u + skipped;
    }
    return NULL;
}

/* One counter: "key=value" for scripts, or aligned with its unit and a sensible precision. */
static void kv(FILE *f, int pretty, const char *key, double v, const char *unit, int digits)
{
    if (pretty) fprintf(f, "  %-18s %.*f %s\n", key, digits, v, unit);
    else fprintf(f, "%s=%.17g\n", key, v);
}

typedef struct kv_ctx { FILE *f; int pretty; } kv_ctx;
static void tp_kv(void *ctx, const char *key, double v, const char *note)
{
    const kv_ctx *c = (const kv_ctx *)ctx;
    (void)note;
    kv(c->f, c->pretty, key, v, "", 0);
}

static void report(FILE *f, const ecu *e, int pretty)
{
    kv(f, pretty, "ticks", (double)e->ticks, "", 0);
    kv(f, pretty, "missed_ticks", (double)e->missed, "", 0);
    kv(f, pretty, "fresh_ticks", (double)e->fresh, "(a new plant frame)", 0);
    kv(f, pretty, "waiting_ticks", (double)e->waiting, "(no or stale plant frame: 0 N sent)", 0);
    kv(f, pretty, "held_ticks", (double)e->held, "(--wait-plant: nothing sent, no plant frame yet)", 0);
    kv(f, pretty, "saturated_ticks", (double)e->saturated, "(command at the limit)", 0);
    kv(f, pretty, "rx_accepted", (double)e->rx.st.accepted, "", 0);
    kv(f, pretty, "rx_rejected", (double)hs_rx_rejected_total(&e->rx), "", 0);
    kv(f, pretty, "rx_seq_gaps", (double)e->rx.st.seq_gaps, "", 0);
    kv(f, pretty, "tx_frames", (double)e->tx.frames, "", 0);
    {
        kv_ctx c = {f, pretty};
        e->tp.ops->counters(&e->tp, tp_kv, &c);
    }
    kv(f, pretty, "speed", e->v, "m/s", 6);
    kv(f, pretty, "speed_error", e->v - e->v_ref, "m/s", 9);
    kv(f, pretty, "command", e->F, "N", 4);
    kv(f, pretty, "integral", e->integ, "m", 9);
    kv(f, pretty, "saw_final", (double)e->saw_final, "", 0);
}

int main(int argc, char **argv)
{
    ecu *e = &E;
    char why[256];
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (parse(argc, argv, e)) return 1;
    const hs_signal_map *map = &hs_map_circular_track_ecu;
    e->tp.ops = hs_transport_find(hs_transports, e->transport);
    if (!e->tp.ops) {
        fprintf(stderr, "hilstep-ecu: unknown transport '%s'\n", e->transport);
        return 1;
    }
    hs_tp_cfg tc;
    memset(&tc, 0, sizeof tc);
    tc.prog = "hilstep-ecu";
    tc.period_us = (uint32_t)(e->period_ns / 1000);
    tc.rx_kind = HS_FRAME_KIND_FROM_PLANT;
    tc.tx_kind = HS_FRAME_KIND_TO_PLANT;
    tc.map = map;
    tc.rcvbuf = 1 << 18;
    (void)hs_tp_opt_add(&tc, "listen", e->listen);
    (void)hs_tp_opt_add(&tc, "peer", e->peer);
    if (e->can_if) (void)hs_tp_opt_add(&tc, "can-if", e->can_if);
    if (e->dbc) (void)hs_tp_opt_add(&tc, "dbc", e->dbc);
    for (int i = 0; i < e->ntopt; ++i) (void)hs_tp_opt_add(&tc, e->tkey[i], e->tval[i]);
    int rc = e->tp.ops->open(&e->tp, &tc, why, sizeof why);
    if (rc != HS_EXIT_OK) {
        fprintf(stderr, "hilstep-ecu: %s\n", why);
        return rc;
    }
    if (e->tp.map) map = e->tp.map; /* CAN: the DBC's ranges and staleness */
    if (hs_signal_map_check(map, 4, 1, why, sizeof why)) {
        fprintf(stderr, "hilstep-ecu: %s\n", why);
        e->tp.ops->close(&e->tp);
        return 2;
    }
    hs_rx_init(&e->rx, map, HS_FRAME_KIND_FROM_PLANT);
    hs_tx_init(&e->tx, map, HS_FRAME_KIND_TO_PLANT,
               (uint32_t)((uint64_t)hs_now_ns() ^ ((uint64_t)getpid() << 16)));
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    if (e->prio > 0) hs_rt_lock_memory(&e->rtr);
    if (!e->quiet)
        printf("hilstep-ecu: PI kp %g N s/m, ki %g N/m, v_ref %g m/s, period %.1f us, %s\n",
               e->kp, e->ki, e->v_ref, (double)e->period_ns / 1e3, e->tp.desc);
    pthread_t th;
    int err = hs_rt_thread_start(&th, control, e, e->prio, e->cpu, &e->rtr);
    if (err) {
        fprintf(stderr, "hilstep-ecu: control thread: %s\n", strerror(err));
        return 2;
    }
    pthread_join(th, NULL);
    e->tp.ops->close(&e->tp);
    if (!e->quiet) {
        printf("hilstep-ecu summary (%s)\n", g_stop ? "stopped by signal" : e->saw_final ? "plant finished" : "duration reached");
        report(stdout, e, 1);
    }
    if (e->stats) {
        FILE *f = fopen(e->stats, "w");
        if (f) { report(f, e, 0); fclose(f); }
    }
    return 0;
}
