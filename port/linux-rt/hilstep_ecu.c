/* hilstep_ecu.c - build/hilstep-ecu: a software ECU for any hilstep plant.
 *
 * It learns the plant's signal map the way the plant does (--model / --model-file: the same
 * registry, the same generic map for models without a shipped one) and mirrors it: the
 * plant's outputs are its inputs, the plant's inputs its commands. For the circular track it
 * runs the PI speed controller ([BAE] section 4.1) taken out of the model, on its own
 * clock, so the loop closes through the network as on a real bench:
 * F = -kp (v - v_ref) - ki * integral (v - v_ref) dt. For every other plant it commands each
 * input's fallback value (a loopback ECU: frames flow both ways, every counter runs). For the
 * car (model/vehicle/hs_veh.h) --control abs is an anti-lock brake: the driver's brake demand on every
 * wheel, each wheel's torque cut back by a PI controller on its longitudinal slip computed
 * from the wheel speeds and the vehicle speed (hil/VEHICLE.md); --control brake applies the
 * demand without it (the wheels lock: the reference an ABS is judged against); --control esc
 * drives the sine with dwell of FMVSS 126 (steer) and brakes single wheels on the yaw-rate
 * error (the laws are hil/hs_vdc.c's, which build/hilstep-vdc runs offline). It
 * speaks the frame of hil/FRAME.md through the same hil/ codec as the plant and ends with the
 * plant's run (its FINAL frame, or --timeout-ms of plant silence). */
#define _GNU_SOURCE
#include "hs_apps.h"
#include "hs_health.h"
#include "hs_linux.h"
#include "hs_mb_file.h"
#include "hs_mb_map.h"
#include "hs_models.h"
#include "hs_plant.h"
#include "hs_signal.h"
#include "hs_transports.h"
#include "hs_vdc.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Why the control loop ended. */
/* END_STOPPED: on a transport without a FINAL frame (CAN) the plant's silence after it was
 * heard is the normal end of its run. */
enum { END_NONE, END_FINAL, END_DURATION, END_SIGNAL, END_SILENT, END_STOPPED };

typedef struct ecu {
    /* options */
    const char *listen, *peer, *stats;
    const char *model, *model_file; /* the plant's model: its signal map is the link's */
    const char *key;         /* pre-shared key file, NULL = the per-user default key */
    int no_auth;             /* --no-auth: version-1 frames */
    const char *transport, *can_if, *dbc;   /* as hilstep-rt's options of the same names */
    const char *tkey[HS_TP_MAX_OPTS], *tval[HS_TP_MAX_OPTS];
    int ntopt;
    int64_t period_ns;
    int64_t phase_ns;        /* offset of the ECU's ticks from the period grid (ns) */
    double kp, ki, v_ref, f_max, duration;
    double takeover_ms;      /* plant silence before another plant session may win, < 0 default */
    double timeout_ms;       /* plant silence (or no plant yet) that ends the run (ms) */
    int prio, cpu, quiet;
    int wait_plant;          /* send nothing before the first plant frame (--wait-plant) */
    /* run */
    hs_transport tp;         /* the bus (hil/hs_transport.h): UDP frame or SocketCAN */
    hs_rx rx;
    hs_tx tx;
    hs_mac mac;
    hs_health_limits link;   /* --max-fallback-ticks, --max-rejected */
    hs_health health;        /* the plant link's health over the run (hil/hs_health.h) */
    hs_rt_report rtr;
    const hs_signal_map *map; /* the ECU's side of the link */
    int pi;                  /* 1: PI from plant output 0 to plant input 0; 0: fallback commands */
    const char *control;     /* --control: "pi", "hold", "abs", "brake"; NULL = pi for the
                                circular track, hold otherwise */
    /* --control abs / brake (the car): the driver's demand and the slip controller */
    int abs;                 /* 1 abs, 2 brake (demand only), 3 esc, 0 none of them */
    int i_om[4], i_v;        /* rx slots: omega_fl, _fr, _rl, _rr; speed */
    int i_r;                 /* rx slot of yaw_rate (esc) */
    int o_br[4], o_steer;    /* tx slots: brake_fl, _fr, _rl, _rr; steer */
    hs_abs_cfg abs_cfg;      /* --brake-demand, --slip-ref, --abs-kp, --abs-ki, --abs-vmin, --brake-rate */
    hs_abs_state abs_st;     /* the slip controller (hil/hs_vdc.h) */
    hs_esc_state esc;        /* --control esc: the yaw-rate controller */
    hs_drv_cfg drv;          /* --control esc: the sine with dwell (--steer-amp) */
    double steer_amp;        /* rad at the wheels */
    double esc_time;         /* s since the first trustworthy plant frame (the driver's clock) */
    hs_real hold[HS_FRAME_MAX_VALUES]; /* commands of the loopback ECU (the plant inputs' fallbacks) */
    int end;                 /* END_* */
    double integ;            /* integral of (v - v_ref) dt (m) */
    double F;                /* last command (N) */
    double v;                /* last measured speed (m/s) */
    double v_min, v_max;     /* smallest, largest speed the PI acted on (m/s): a forged
                                measurement that was applied shows here (test/can/spoof.sh) */
    uint64_t pi_ticks;       /* ticks the PI acted on a measurement */
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
"Software ECU for a hilstep plant over the UDP frame of hil/FRAME.md or over SocketCAN with\n"
"a DBC (hil/CAN.md). It learns the plant's\n"
"signal map from the plant's model; for the circular track it runs a PI speed controller on\n"
"its own clock, F = -kp (v - v_ref) - ki * integral(v - v_ref) dt; for any other plant it\n"
"commands each input's fallback value (a loopback ECU).\n"
"  --model NAME        the plant's model, as given to hilstep-rt (default circular_track)\n"
"  --model-file FILE   the plant's multibody description (.hsm), as given to hilstep-rt\n"
"  --control MODE      pi: the PI below from the plant's output 0 to its input 0 (the\n"
"                      other inputs held at their fallbacks); hold: every input at its\n"
"                      fallback; abs (--model car): anti-lock braking, each wheel's brake\n"
"                      torque min(demand, PI on its slip); brake (--model car): the demand\n"
"                      on every wheel, no ABS; esc (--model car): the sine with dwell of\n"
"                      FMVSS 126 on the steering from the first plant frame, coasting, and\n"
"                      yaw-rate control by braking single wheels (hil/VEHICLE.md). Default:\n"
"                      pi for the circular track, hold otherwise\n"
"  --steer-amp X       esc: the sine with dwell's amplitude at the wheels, rad (default 0.1415:\n"
"                      6.5 times the car's 0.3 g steer at 80 km/h)\n"
"  --brake-demand X    abs/brake: the driver's brake torque per wheel, N m (default 2500,\n"
"                      twice what the tires transmit: locks the wheels without ABS)\n"
"  --slip-ref X        abs: target longitudinal slip (default 0.1, near the tires' maximum)\n"
"  --abs-kp X          abs: N m per unit slip (default 3000)\n"
"  --abs-ki X          abs: N m per unit slip and second (default 300000)\n"
"  --abs-vmin X        abs: below this speed (m/s) the demand passes unchanged (default 3)\n"
"  --brake-rate X      abs/brake: fastest rise of a brake command, N m/s (default 10000:\n"
"                      the demand in 0.25 s, as brake hydraulics build pressure)\n"
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
"  --duration S        stop after S seconds (at most 1e7); 0 = when the plant sends its final\n"
"                      frame or on SIGINT/SIGTERM (default 0; CAN has no final frame: give S)\n"
    );
    hs_transports_help(stdout);
    printf(
"  --can-if IF         CAN interface of --transport can (e.g. vcan0)\n"
"  --dbc FILE          DBC of --transport can (e.g. hil/dbc/circular_track.dbc), bound by\n"
"                      name to the ECU's side of the map (it receives the plant's outputs)\n"
"  --transport-opt K=V an option of the transport (repeatable), e.g. can-filter=off\n"
"  --wait-plant        send nothing until the first plant frame arrived (counted as\n"
"                      held_ticks): then every frame sent finds the plant listening\n"
"  --max-fallback-ticks N  ticks any input (a plant output) may run on its fallback after\n"
"                      the first plant frame (default 0: exit 11 beyond)\n"
"  --max-rejected N    plant datagrams that may be rejected (default 0: exit 9 beyond;\n"
"                      datagrams from another address are counted, not judged)\n"
"  --timeout-ms N      end the run when no plant frame was accepted for N ms, before the\n"
"                      first one as well (default 10000; 1000 on CAN, where this silence\n"
"                      after plant frames is the normal end of the plant's run, exit 0)\n"
"  --key FILE          authenticate frames with the plant's pre-shared key (hil/FRAME.md\n"
"                      \"Security\"); default: the per-user key, as hilstep-rt\n"
"  --no-auth           unauthenticated version-1 frames (a plant run with --no-auth); on\n"
"                      CAN the DBC's SecOC is neither written nor checked\n"
"  --takeover-ms N     a new plant session takes over only after the current one was silent\n"
"                      longer than N ms (default: the largest stale limit of the ECU's inputs)\n"
"  --priority P        SCHED_FIFO priority of the control thread, 0 = normal (default 0)\n"
"  --cpu N             pin the control thread to CPU N\n"
"  --stats FILE        end-of-run counters as key=value lines\n"
"  --quiet             no summary\n"
"  --help              this text\n"
"While no plant frame has arrived, or the plant's outputs are stale, the ECU sends 0 N and\n"
"holds its integrator.\n"
"exit status: 0 the plant finished (FINAL frame), --duration reached or a signal, with plant\n"
"  frames accepted; 1 bad option or unknown --model; 2 setup failed (bad --model-file,\n"
"  signal map, key file, socket, thread), as hilstep-rt;\n"
"  8 link failed: no plant frame accepted (wrong --model, wrong --key, no plant), frames\n"
"  with a bad MAC, or the plant fell silent for --timeout-ms without a FINAL frame;\n"
"  9 plant frames rejected (--max-rejected); 11 an input on its fallback after the first\n"
"  plant frame (--max-fallback-ticks; on CAN the silence at the end of the plant's run is\n"
"  its normal end, not counted);\n"
"  5 the --stats file could not be written.\n");
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
    e->model = "circular_track";
    e->takeover_ms = -1.0;
    e->timeout_ms = -1.0; /* the transport's default: 10 s with a FINAL frame, 1 s without */
    e->abs_cfg = hs_abs_default();
    e->steer_amp = 0.1415;
    e->link = hs_health_strict();
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        double d = 0.0;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(); exit(0); }
        if (!strcmp(a, "--quiet")) { e->quiet = 1; continue; }
        if (!strcmp(a, "--wait-plant")) { e->wait_plant = 1; continue; }
        if (!strcmp(a, "--no-auth")) { e->no_auth = 1; continue; }
        if (!v) { fprintf(stderr, "hilstep-ecu: %s needs a value (see --help)\n", a); return -1; }
        ++i;
        if (!strcmp(a, "--listen")) e->listen = v;
        else if (!strcmp(a, "--peer")) e->peer = v;
        else if (!strcmp(a, "--transport")) e->transport = v;
        else if (!strcmp(a, "--can-if")) e->can_if = v;
        else if (!strcmp(a, "--dbc")) e->dbc = v;
        else if (!strcmp(a, "--transport-opt")) {
            const char *eq = strchr(v, '=');
            char *tk = eq && eq != v && e->ntopt < HS_TP_MAX_OPTS - 6 ? strndup(v, (size_t)(eq - v)) : NULL;
            if (!tk) goto bad;
            e->tkey[e->ntopt] = tk;
            e->tval[e->ntopt++] = eq + 1;
        }
        else if (!strcmp(a, "--stats")) e->stats = v;
        else if (!strcmp(a, "--model")) e->model = v;
        else if (!strcmp(a, "--model-file")) e->model_file = v;
        else if (!strcmp(a, "--key")) e->key = v;
        else if (!strcmp(a, "--control") && (!strcmp(v, "pi") || !strcmp(v, "hold") ||
                                              !strcmp(v, "abs") || !strcmp(v, "brake") || !strcmp(v, "esc"))) e->control = v;
        else if (num(v, &d)) goto bad;
        else if (!strcmp(a, "--period-us") && d >= 50 && d <= 1e6) e->period_ns = (int64_t)(d * 1e3 + 0.5);
        else if (!strcmp(a, "--phase-us") && d >= 0 && d <= 1e6) e->phase_ns = (int64_t)(d * 1e3 + 0.5);
        else if (!strcmp(a, "--kp") && d >= 0) e->kp = d;
        else if (!strcmp(a, "--ki") && d >= 0) e->ki = d;
        else if (!strcmp(a, "--v-ref")) e->v_ref = d;
        else if (!strcmp(a, "--f-max") && d > 0) e->f_max = d;
        /* bounded as hilstep-rt's: duration / period must fit the tick count (1e7 s at 50 us
         * is 2e11 ticks; fuzz_ecuapp found 8.9e98 ticks cast to uint64_t) */
        else if (!strcmp(a, "--duration") && d >= 0 && d <= 1e7) e->duration = d;
        else if (!strcmp(a, "--brake-demand") && d >= 0 && d <= 5000) e->abs_cfg.demand = (hs_real)d;
        else if (!strcmp(a, "--slip-ref") && d > 0 && d < 1) e->abs_cfg.slip_ref = (hs_real)d;
        else if (!strcmp(a, "--abs-kp") && d >= 0) e->abs_cfg.kp = (hs_real)d;
        else if (!strcmp(a, "--abs-ki") && d >= 0) e->abs_cfg.ki = (hs_real)d;
        else if (!strcmp(a, "--abs-vmin") && d > 0) e->abs_cfg.vmin = (hs_real)d;
        else if (!strcmp(a, "--brake-rate") && d > 0) e->abs_cfg.rate = (hs_real)d;
        else if (!strcmp(a, "--steer-amp") && d >= 0 && d <= 0.6) e->steer_amp = d;
        else if (!strcmp(a, "--takeover-ms") && d >= 0 && d <= 1e6) e->takeover_ms = d;
        else if (!strcmp(a, "--timeout-ms") && d >= 1 && d <= 1e7) e->timeout_ms = d;
        else if (!strcmp(a, "--max-fallback-ticks") && d >= 0 && d <= 1e15 && d == (double)(int64_t)d)
            e->link.max_fallback_ticks = (uint64_t)d;
        else if (!strcmp(a, "--max-rejected") && d >= 0 && d <= 1e15 && d == (double)(int64_t)d)
            e->link.max_rejected = (uint64_t)d;
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

/* One tick of --control abs / brake / esc from the measurements meas into the commands cmd
 * (hil/hs_vdc.c): abs and brake the driver's demand under the slip controller or not; esc
 * the sine with dwell's steering, started by the first trustworthy plant frame, and the
 * yaw-rate controller's single-wheel brakes. */
static void abs_tick(ecu *e, const hs_real *meas, hs_real *cmd, double dt)
{
    const hs_real v = meas[e->i_v];
    hs_real om[4], T[4];
    for (int w = 0; w < 4; ++w) om[w] = meas[e->i_om[w]];
    if (e->abs == 3) {
        hs_real drive;
        /* dt covers the ticks this process missed: the profile follows real time */
        const hs_real steer = hs_drv_step(&e->drv, (hs_real)e->esc_time, 0, 0, v, &drive);
        e->esc_time += dt;
        hs_esc_step(&e->esc, v, steer, meas[e->i_r], (hs_real)dt, T);
        cmd[e->o_steer] = steer;
    } else {
        hs_abs_step(&e->abs_st, v, om, (hs_real)dt, T);
    }
    for (int w = 0; w < 4; ++w) cmd[e->o_br[w]] = T[w];
}

static void *control(void *arg)
{
    ecu *e = (ecu *)arg;
    const int64_t per = e->period_ns;
    const double dt0 = (double)per * 1e-9;
    uint8_t buf[HS_FRAME_MAX_BYTES + 1];
    hs_real meas[HS_FRAME_MAX_VALUES], cmd[HS_FRAME_MAX_VALUES];
    sigset_t ss;
    sigemptyset(&ss);
    sigaddset(&ss, SIGINT);
    sigaddset(&ss, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &ss, NULL);

    const int64_t start = (hs_now_ns() / per + 1) * per + e->phase_ns;
    const uint64_t total = e->duration > 0 ? (uint64_t)(e->duration / dt0 + 0.5) : 0u;
    /* Plant silence that ends the run, in ticks (the plant's FINAL frame is the normal end). */
    const uint64_t silent_max = (uint64_t)ceil(e->timeout_ms * 1e6 / (double)per);
    uint64_t k = 0, skipped = 0, last_heard = 0;
    while (e->end == END_NONE) {
        hs_sleep_until_ns(start + (int64_t)k * per);
        (void)e->tp.ops->receive(&e->tp, &e->rx, 64);
        int fresh = hs_rx_tick(&e->rx, meas);
        hs_health_tick(&e->health, &e->rx, fresh);
        e->fresh += (uint64_t)fresh;
        if (fresh) last_heard = k;
        if (fresh) e->tx.challenge = e->rx.peer_challenge; /* answer the plant's run */
        /* a plant silent for 10 takeover limits (200 ms by default: longer than any stall of
         * a live plant, shorter than a restart) is gone: a new one would count its challenge
         * as a replay (old_run), challenge 0 only as unanswered */
        if (e->rx.quiet / 10u > e->rx.takeover_ticks) e->tx.challenge = 0;
        /* Sample-and-hold: integrate over the real time since the last tick, including
         * ticks this process missed, so the integral stays a time integral. */
        const double dt = dt0 * (double)(1u + skipped);
        if (!e->rx.have_peer || e->rx.stale) {
            e->F = 0.0; /* no trustworthy measurement: no push, integrator held */
            e->waiting++;
        } else if (e->abs) {
            /* below, after the hold values are copied */
        } else if (e->pi) {
            e->v = (double)meas[0];
            if (e->pi_ticks == 0u || e->v < e->v_min) e->v_min = e->v;
            if (e->pi_ticks == 0u || e->v > e->v_max) e->v_max = e->v;
            e->pi_ticks++;
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
        memcpy(cmd, e->hold, sizeof cmd); /* commands other than the PI's: their fallbacks */
        if (e->pi) cmd[0] = (hs_real)e->F;
        /* ABS: without a trustworthy measurement the brakes get the fallback (released) */
        if (e->abs && e->rx.have_peer && !e->rx.stale) abs_tick(e, meas, cmd, dt);
        /* --wait-plant: before the plant spoke there may be no socket to send to. */
        const int hold = e->wait_plant && !e->rx.have_peer;
        e->held += (uint64_t)hold;
        /* Without the plant's challenge a frame is only a probe (the plant counts it as
         * unanswered; under a wrong key as bad_mac): one in 10 ticks is enough to show it. */
        const int probe_only = e->tx.mac && !e->tx.challenge && k % 10u != 0u;
        size_t n = hold || probe_only ? 0u : hs_tx_build(&e->tx, buf, sizeof buf, cmd, (uint64_t)hs_now_ns(),
                                           e->rx.used_seq, e->rx.stale ? HS_FLAG_STALE : 0u);
        if (n) {
            hs_tp_out o = {k, 0, &e->tx, cmd, buf, n};
            e->tp.ops->send(&e->tp, &o);
        }
        e->ticks++;
        if (fresh && (e->rx.peer_flags & HS_FLAG_FINAL)) {
            e->saw_final = 1;
            e->end = END_FINAL;
        } else if (g_stop) {
            e->end = END_SIGNAL;
        } else if (total != 0 && k + 1u >= total) {
            e->end = END_DURATION;
        } else if (k - last_heard >= silent_max) {
            e->end = (!e->tp.ops->frame && e->rx.have_peer) ? END_STOPPED : END_SILENT;
        }
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
    if (pretty) fprintf(f, "  %-22s %.*f %s\n", key, digits, v, unit);
    else fprintf(f, "%s=%.17g\n", key, v);
}

typedef struct kv_ctx { FILE *f; int pretty; } kv_ctx;
static void tp_kv(void *ctx, const char *key, double v, const char *note)
{
    const kv_ctx *c = (const kv_ctx *)ctx;
    (void)note;
    kv(c->f, c->pretty, key, v, "", 0);
}

static void report(FILE *f, const ecu *e, int pretty, int code)
{
    char key[48];
    kv(f, pretty, "ticks", (double)e->ticks, "", 0);
    kv(f, pretty, "missed_ticks", (double)e->missed, "", 0);
    kv(f, pretty, "fresh_ticks", (double)e->fresh, "(a new plant frame)", 0);
    kv(f, pretty, "waiting_ticks", (double)e->waiting, "(no or stale plant frame: fallback commands, 0 N)", 0);
    kv(f, pretty, "saturated_ticks", (double)e->saturated, "(command at the limit)", 0);
    kv(f, pretty, "rx_datagrams", (double)e->rx.st.datagrams, "", 0);
    kv(f, pretty, "rx_accepted", (double)e->rx.st.accepted, "", 0);
    kv(f, pretty, "rx_rejected", (double)hs_rx_rejected_total(&e->rx), "", 0);
    for (int r = 1; r < HS_RX_REASONS; ++r) {
        if (pretty && e->rx.st.rejected[r] == 0) continue; /* the console names only what happened */
        snprintf(key, sizeof key, "rx_rej_%s", hs_rx_reason_name(r));
        kv(f, pretty, key, (double)e->rx.st.rejected[r], "", 0);
    }
    kv(f, pretty, "rx_seq_gaps", (double)e->rx.st.seq_gaps, "", 0);
    kv(f, pretty, "rx_peer_restarts", (double)e->rx.st.peer_restarts, "", 0);
    kv(f, pretty, "rx_peer_returns", (double)e->rx.st.peer_returns, "", 0);
    kv(f, pretty, "tx_frames", (double)e->tx.frames, "", 0);
    kv(f, pretty, "held_ticks", (double)e->held, "(--wait-plant: nothing sent, no plant frame yet)", 0);
    {
        /* The transport's counters (udp: rx_kernel_drops, tx_send_errors, ...; can: per reason). */
        kv_ctx c = {f, pretty};
        e->tp.ops->counters(&e->tp, tp_kv, &c);
    }
    if (e->abs && e->abs < 3) {
        kv(f, pretty, "brake_demand", (double)e->abs_cfg.demand, "N m", 1);
        kv(f, pretty, "abs_ticks", (double)e->abs_st.ticks, "(slip controller acting)", 0);
        kv(f, pretty, "slip_max", (double)e->abs_st.slip_max, "(largest |slip| while acting)", 4);
        for (int w = 0; w < 4; ++w) {
            char k2[24];
            snprintf(k2, sizeof k2, "brake_%d", w);
            kv(f, pretty, k2, (double)e->abs_st.T[w], "N m (last command)", 1);
        }
    }
    if (e->abs == 3) {
        kv(f, pretty, "esc_ticks", (double)e->esc.ticks, "(a wheel braked on the yaw-rate error)", 0);
        kv(f, pretty, "esc_brake_max", (double)e->esc.t_max, "N m (largest intervention)", 1);
        kv(f, pretty, "esc_saturated", (double)e->esc.saturated, "(ticks the intervention was clamped to its limit)", 0);
    }
    if (e->pi) {
        kv(f, pretty, "speed", e->v, "m/s", 6);
        kv(f, pretty, "speed_error", e->v - e->v_ref, "m/s", 9);
        kv(f, pretty, "pi_ticks", (double)e->pi_ticks, "(ticks the PI acted on a plant speed)", 0);
        kv(f, pretty, "speed_min", e->v_min, "m/s (smallest speed acted on, 0 without pi_ticks)", 6);
        kv(f, pretty, "speed_max", e->v_max, "m/s (largest speed acted on, 0 without pi_ticks)", 6);
        kv(f, pretty, "command", e->F, "N", 4);
        kv(f, pretty, "integral", e->integ, "m", 9);
    }
    kv(f, pretty, "link_class", (double)hs_health_judge(&e->health, &e->rx), "(0 ok, 1 rejected, 2 plant never heard, 3 input on fallback)", 0);
    kv(f, pretty, "link_rejected_judged", (double)hs_health_rejected(&e->rx), "", 0);
    kv(f, pretty, "link_silence_max_ticks", (double)e->health.silence_max, "(longest run without a plant frame after the first)", 0);
    kv(f, pretty, "link_silences", (double)e->health.silences, "(silences that put an input on its fallback)", 0);
    for (unsigned i = 0; i < e->health.n; ++i) {
        snprintf(key, sizeof key, "fallback_ticks_%s", e->rx.sig[i]->name);
        kv(f, pretty, key, (double)e->health.fallback[i], "(on its fallback after the first plant frame)", 0);
    }
    kv(f, pretty, "saw_final", (double)e->saw_final, "", 0);
    kv(f, pretty, "exit_status", (double)code, "", 0);
}

/* The plant's model, as hilstep-rt selects it, and its signal map (shipped or generic): the
 * plant itself is initialized here only to get exactly the map it will use. */
static int learn_map(ecu *e, char *why, size_t cap)
{
    static hs_mb_store mb_store;
    static hs_mb_model mb_model;
    static hs_model model;
    static union { hs_real r[HS_MODELS_MAX_PARAM_BYTES / sizeof(hs_real) + 1]; double d; } pblock;
    static hs_real reals[HS_STEPPER_REALS(HS_PLANT_MAX_NQ, HS_PLANT_MAX_NC, HS_PLANT_MAX_NZ)];
    static int ints[HS_STEPPER_INTS(HS_PLANT_MAX_NQ, HS_PLANT_MAX_NC) + (1 << 17)]; /* hilstep-rt's g_ints */
    static hs_plant plant;
    static hs_signal mirror[2 * HS_PLANT_MAX_SIG];
    static hs_signal_map mmap;
    static hs_mb_sigmap sigmap;
    static char mname[64];
    hs_status rc;
    hs_plant_def def = hs_plant_default_def();
    if (e->model_file) {
        /* The model and its map are chosen exactly as hilstep-rt chooses them (the file's own
         * signal map when it declares one), with its exit statuses. */
        if (hs_mb_load_file_msg(e->model_file, &mb_store, &mb_model, HS_MB_PACK_AUTO, why, cap)) return HS_MB_EXIT_BAD;
        def.map = hs_mb_signal_map(&mb_store, &mb_model, &sigmap);
        rc = hs_plant_model_init(&model, &mb_model.type, &pblock, sizeof pblock, why, cap);
        model.desc = &mb_model;
    } else {
        rc = hs_plant_model_by_name(&model, &pblock, sizeof pblock, e->model, why, cap);
    }
    if (rc != HS_OK) return hs_exit_of(HS_TOOL_ECU, rc);
    rc = hs_plant_initialize(&plant, &def, &model, reals, sizeof reals / sizeof reals[0], ints,
                             sizeof ints / sizeof ints[0], why, cap);
    if (rc != HS_OK) return hs_exit_of(HS_TOOL_ECU, rc);
    if (plant.map == &hs_map_circular_track_plant) {
        e->map = &hs_map_circular_track_ecu;
        e->pi = 1;
    } else {
        /* The mirror image: plant outputs in (stale after 20 frames), plant inputs out. */
        int n = 0, nout = 0;
        for (int i = 0; i < plant.map->n && n < 2 * HS_PLANT_MAX_SIG; ++i) {
            hs_signal sg = plant.map->sig[i];
            if (sg.dir == HS_SIG_IN) {
                if (nout < (int)HS_FRAME_MAX_VALUES) e->hold[nout++] = (hs_real)sg.fallback;
                sg.dir = HS_SIG_OUT;
                sg.stale_limit = 0;
            } else {
                sg.dir = HS_SIG_IN;
                sg.stale_limit = 20u;
            }
            mirror[n++] = sg;
        }
        snprintf(mname, sizeof mname, "%s_ecu", plant.map->app);
        mmap.app = mname;
        mmap.sig = mirror;
        mmap.n = n;
        e->map = &mmap;
    }
    hs_error se;
    if (hs_signal_map_check(e->map, plant.d.nout, plant.d.nin, &se) != HS_OK) {
        snprintf(why, cap, "%s", se.detail);
        return 2;
    }
    if (e->control) e->pi = !strcmp(e->control, "pi");
    if (e->control && (!strcmp(e->control, "abs") || !strcmp(e->control, "brake") || !strcmp(e->control, "esc"))) {
        e->abs = !strcmp(e->control, "abs") ? 1 : !strcmp(e->control, "brake") ? 2 : 3;
        hs_esc_cfg ec = hs_esc_default();
        e->drv = hs_drv_default(HS_DRV_SINE_DWELL);
        e->drv.amp = (hs_real)e->steer_amp;
        if ((e->abs < 3 && hs_abs_init(&e->abs_st, &e->abs_cfg, e->abs) != HS_OK) || hs_esc_init(&e->esc, &ec) != HS_OK) {
            snprintf(why, cap, "--control %s: a setting out of range", e->control);
            return 1;
        }
        if (strcmp(plant.map->app, "car") != 0) {
            snprintf(why, cap, "--control %s needs the car (--model car); %s is another plant",
                     e->control, plant.map->app);
            return 2;
        }
    }
    if (e->pi && (plant.d.nin < 1 || plant.d.nout < 1)) {
        snprintf(why, cap, "--control pi needs a plant with an input and an output; %s has %d "
                 "and %d (use --control hold)", plant.map->app, plant.d.nin, plant.d.nout);
        return 2;
    }
    return 0;
}

/* --control abs / brake: the wheel speeds and speed in, the brakes out, found by name in the
 * ECU's final map (after a transport's own, e.g. a DBC's, replaced the learned one). */
static int abs_bind(ecu *e, char *why, size_t cap)
{
    static const char *const om[4] = {"omega_fl", "omega_fr", "omega_rl", "omega_rr"};
    static const char *const br[4] = {"brake_fl", "brake_fr", "brake_rl", "brake_rr"};
    e->i_r = e->o_steer = -1;
    int nin = 0, nout = 0;
    {
        e->i_v = -1;
        for (int w = 0; w < 4; ++w) e->i_om[w] = e->o_br[w] = -1;
        for (int i = 0; i < e->map->n; ++i) {
            const hs_signal *sg = &e->map->sig[i];
            const int slot = sg->dir == HS_SIG_IN ? nin++ : nout++;
            for (int w = 0; w < 4; ++w) {
                if (sg->dir == HS_SIG_IN && !strcmp(sg->name, om[w])) e->i_om[w] = slot;
                if (sg->dir == HS_SIG_OUT && !strcmp(sg->name, br[w])) e->o_br[w] = slot;
            }
            if (sg->dir == HS_SIG_IN && !strcmp(sg->name, "speed")) e->i_v = slot;
            if (sg->dir == HS_SIG_IN && !strcmp(sg->name, "yaw_rate")) e->i_r = slot;
            if (sg->dir == HS_SIG_OUT && !strcmp(sg->name, "steer")) e->o_steer = slot;
        }
        int found = e->i_v >= 0 && (e->abs < 3 || (e->i_r >= 0 && e->o_steer >= 0));
        for (int w = 0; w < 4; ++w) found &= e->i_om[w] >= 0 && e->o_br[w] >= 0;
        if (!found) {
            snprintf(why, cap, "--control %s: map %s lacks omega_fl..rr, speed or yaw_rate (in) "
                     "or brake_fl..rr, steer (out)", e->control, e->map->app);
            return 2;
        }
    }
    return 0;
}

/* The transport named by --transport, opened with the run's and the user's options (every
 * option the user gave must be read by it); CAN brings the DBC's map. HS_OK, HS_E_USAGE, HS_E_DBC or
 * HS_E_SETUP after the message; nothing is left open on a refusal. */
static hs_status open_transport(ecu *e)
{
    e->tp.ops = hs_transport_find(hs_transports, e->transport);
    if (!e->tp.ops) {
        fprintf(stderr, "hilstep-ecu: unknown transport '%s'\n", e->transport);
        return HS_E_USAGE;
    }
    if (e->timeout_ms < 0.0) e->timeout_ms = e->tp.ops->frame ? 10000.0 : 1000.0;
    if (!e->tp.ops->frame && e->key) {
        fprintf(stderr, "hilstep-ecu: --key authenticates the frame of hil/FRAME.md; transport %s "
                "does not carry it\n", e->tp.ops->name);
        return HS_E_USAGE;
    }
    hs_tp_cfg tc;
    memset(&tc, 0, sizeof tc);
    tc.prog = "hilstep-ecu";
    tc.period_us = (uint32_t)(e->period_ns / 1000);
    tc.rx_kind = HS_FRAME_KIND_FROM_PLANT;
    tc.tx_kind = HS_FRAME_KIND_TO_PLANT;
    tc.map = e->map;
    tc.rcvbuf = 1 << 18;
    (void)hs_tp_opt_add(&tc, "listen", e->listen);
    (void)hs_tp_opt_add(&tc, "peer", e->peer);
    (void)hs_tp_opt_add(&tc, "auth", e->no_auth ? "off" : "on"); /* CAN: the DBC's SecOC written and checked or not */
    /* listen and peer are every run's (UDP's defaults); what the user gave for the transport
     * from here on must be read by it, else it is a mistake (e.g. --dbc with udp). */
    uint32_t tp_read = 0;
    const int tp_user = tc.nopt;
    tc.read = &tp_read;
    if (e->can_if) (void)hs_tp_opt_add(&tc, "can-if", e->can_if);
    if (e->dbc) (void)hs_tp_opt_add(&tc, "dbc", e->dbc);
    for (int i = 0; i < e->ntopt; ++i) (void)hs_tp_opt_add(&tc, e->tkey[i], e->tval[i]);
    /* open() names what failed in terr; main maps the status to the exit (hs_exit_of) */
    hs_tp_error terr;
    const hs_status rc = e->tp.ops->open(&e->tp, &tc, &terr);
    if (rc != HS_OK) {
        fprintf(stderr, "hilstep-ecu: %s\n", terr.msg);
        return rc;
    }
    const int unread = hs_tp_opt_unread(&tc, tp_user, tp_read);
    if (unread >= 0) {
        fprintf(stderr, "hilstep-ecu: transport %s has no option %s (its options: %s)\n",
                e->tp.ops->name, tc.key[unread], e->tp.ops->usage);
        e->tp.ops->close(&e->tp);
        return HS_E_USAGE;
    }
    return HS_OK;
}

/* The ECU's final map (the transport's own when it brought one), the ABS signals, the receive
 * and send sides and the link. HS_OK, or the refusal after the message (transport closed). */
static hs_status bind_link(ecu *e, char *why, size_t cap)
{
    if (e->tp.map) {
        const int nin = hs_signal_map_count(e->map, HS_SIG_IN), nout = hs_signal_map_count(e->map, HS_SIG_OUT);
        e->map = e->tp.map;
        hs_error se;
        if (hs_signal_map_check(e->map, nin, nout, &se) != HS_OK) {
            snprintf(why, cap, "%s", se.detail);
            fprintf(stderr, "hilstep-ecu: %s\n", why);
            e->tp.ops->close(&e->tp);
            return HS_E_SIGNAL_MAP;
        }
    }
    if (e->abs && abs_bind(e, why, cap) != 0) {
        fprintf(stderr, "hilstep-ecu: %s\n", why);
        e->tp.ops->close(&e->tp);
        return HS_E_SIGNAL_MAP;
    }
    hs_rx_init(&e->rx, e->map, HS_FRAME_KIND_FROM_PLANT);
    hs_health_init(&e->health, &e->rx, &e->link);
    hs_tx_init(&e->tx, e->map, HS_FRAME_KIND_TO_PLANT,
               (uint32_t)((uint64_t)hs_now_ns() ^ ((uint64_t)getpid() << 16)));
    if (e->tp.ops->frame && hs_link_setup(&e->rx, &e->tx, &e->mac,
                                          e->no_auth ? HS_AUTH_NONE : e->key ? HS_AUTH_FILE : HS_AUTH_DEFAULT, e->key, e->takeover_ms,
                                          e->period_ns, "hilstep-ecu", "plant") != 0) {
        e->tp.ops->close(&e->tp);
        return HS_E_SETUP;
    }
    return HS_OK;
}

/* The start line: the map and what the control does with it. */
static void print_start(const ecu *e)
{
    if (e->quiet) return;
    if (e->pi)
        printf("hilstep-ecu: map %s: PI %s -> %s, kp %g N s/m, ki %g N/m, v_ref %g m/s, "
               "period %.1f us, %s\n", e->map->app, e->rx.sig[0]->name,
               e->tx.sig[0]->name, e->kp, e->ki, e->v_ref, (double)e->period_ns / 1e3,
               e->tp.desc);
    else if (e->abs == 1)
        printf("hilstep-ecu: map %s: ABS, demand %g N m per wheel, slip target %g, kp %g N m, "
               "ki %g N m/s, off below %g m/s, period %.1f us, %s\n", e->map->app,
               (double)e->abs_cfg.demand, (double)e->abs_cfg.slip_ref, (double)e->abs_cfg.kp,
               (double)e->abs_cfg.ki, (double)e->abs_cfg.vmin, (double)e->period_ns / 1e3, e->tp.desc);
    else if (e->abs == 2)
        printf("hilstep-ecu: map %s: brake demand %g N m on every wheel, no ABS, period %.1f us, "
               "%s\n", e->map->app, (double)e->abs_cfg.demand, (double)e->period_ns / 1e3, e->tp.desc);
    else if (e->abs == 3)
        printf("hilstep-ecu: map %s: ESC on the sine with dwell (FMVSS 126), amplitude %g rad at the "
               "wheels, 0.7 Hz, 0.5 s dwell, from the first plant frame; period %.1f us, %s\n", e->map->app,
               e->steer_amp, (double)e->period_ns / 1e3, e->tp.desc);
    else
        printf("hilstep-ecu: map %s (%u in, %u out): each command held at its fallback, "
               "period %.1f us, %s\n", e->map->app, e->rx.n, e->tx.n,
               (double)e->period_ns / 1e3, e->tp.desc);
}

/* The link's outcome: HS_OK, or HS_E_LINK: no plant frame accepted, frames with a bad MAC, a
 * plant that fell silent without its FINAL frame; else the health verdict's. */
static hs_status link_status(const ecu *e)
{
    const int link_failed = e->rx.st.accepted == 0 || e->rx.st.rejected[HS_RX_MAC] > 0 ||
                            e->end == END_SILENT || e->tp.link_alarms > 0;
    /* The failures the ECU has named with exit 8 since before the health verdict keep it;
     * the health verdict (rejections, inputs on fallback) judges the rest. */
    return link_failed ? HS_E_LINK : hs_health_status(hs_health_judge(&e->health, &e->rx));
}

/* The summary and the reasons of a failed link (to stderr even with --quiet: it is the one
 * line to act on), the verdict naming st, the run's outcome (the link's, else lost --stats). */
static void end_report(const ecu *e, hs_status st)
{
    const uint64_t bad_mac = e->rx.st.rejected[HS_RX_MAC];
    const int code = hs_exit_of(HS_TOOL_ECU, st);
    if (!e->quiet) {
        printf("hilstep-ecu summary (%s)\n", e->end == END_FINAL ? "plant finished"
               : e->end == END_SIGNAL ? "stopped by signal" : e->end == END_DURATION
               ? "duration reached" : e->end == END_STOPPED
               ? "plant stopped sending: the end of its run on a transport without a FINAL frame"
               : "plant silent");
        report(stdout, e, 1, code);
    }
    if (e->rx.st.accepted == 0 && e->rx.st.datagrams > 0 &&
        e->rx.st.rejected[HS_RX_LAYOUT] + e->rx.st.rejected[HS_RX_SHORT] + e->rx.st.rejected[HS_RX_LONG] > 0)
        fprintf(stderr, "hilstep-ecu: none of %llu plant datagrams fits the map %s (%u values): "
                "give the plant's --model or --model-file (and --key if it has one)\n",
                (unsigned long long)e->rx.st.datagrams, e->map->app, e->rx.n);
    if (bad_mac > 0)
        fprintf(stderr, "hilstep-ecu: %llu plant frames with a bad or missing MAC (forged, or "
                "another key)\n", (unsigned long long)bad_mac);
    if (e->tp.link_alarms > 0)
        fprintf(stderr, "hilstep-ecu: link: %llu plant frames refused by the E2E check (a second "
                "sender on the plant's ids, a replay or corruption), never applied\n",
                (unsigned long long)e->tp.link_alarms);
    if (e->end == END_SILENT)
        fprintf(stderr, "hilstep-ecu: %s for %.0f ms: run ended without the plant's FINAL frame\n",
                e->rx.have_peer ? "plant silent" : "no plant frame accepted", e->timeout_ms);
    else if (e->rx.st.accepted == 0)
        fprintf(stderr, "hilstep-ecu: no plant frame accepted\n");
    {
        char line[320];
        hs_health_line(&e->health, &e->rx, "plant", (uint32_t)(e->period_ns / 1000), line, sizeof line);
        /* the one line a CI log shows: to stderr when it failed, even with --quiet */
        const char *na = (!e->tp.ops->frame && e->no_auth) ? "; link unauthenticated (--no-auth: the DBC's SecOC "
                         "neither written nor checked)" : "";
        if (st != HS_OK) fprintf(stderr, "hilstep-ecu: verdict: FAIL %s%s -> exit %d (%s)\n", line, na, code, hs_exit_text(code));
        else if (!e->quiet) printf("hilstep-ecu: verdict: PASS %s%s -> exit 0\n", line, na);
    }
}

/* --stats FILE: every counter; HS_OK, or HS_E_WRITE when it could not be written. */
static hs_status write_stats(const ecu *e, int code)
{
    if (!e->stats) return HS_OK;
    FILE *f = fopen(e->stats, "w");
    if (!f) {
        fprintf(stderr, "hilstep-ecu: --stats %s: %s\n", e->stats, strerror(errno));
        return HS_E_WRITE;
    }
    report(f, e, 0, code);
    /* A write that failed while report() filled the buffer leaves only the error flag. */
    int werr = ferror(f);
    if (fclose(f) != 0 || werr) {
        fprintf(stderr, "hilstep-ecu: --stats %s: %s\n", e->stats, strerror(errno));
        return HS_E_WRITE;
    }
    return HS_OK;
}

int main(int argc, char **argv)
{
    ecu *e = &E;
    char why[512];
    setvbuf(stdout, NULL, _IOLBF, 0);
    /* A file-size limit (ulimit -f) fails the --stats write with EFBIG (exit 5, said), as in
     * hilstep-rt, instead of killing the ECU without a word. */
    signal(SIGXFSZ, SIG_IGN);
    if (parse(argc, argv, e)) return hs_exit_of(HS_TOOL_ECU, HS_E_USAGE);
    const int learned = learn_map(e, why, sizeof why);
    if (learned != 0) {
        fprintf(stderr, "hilstep-ecu: %s\n", why);
        return learned;
    }
    hs_status st = open_transport(e);
    if (st == HS_OK) st = bind_link(e, why, sizeof why);
    if (st != HS_OK) return hs_exit_of(HS_TOOL_ECU, st);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    if (e->prio > 0) hs_rt_lock_memory(&e->rtr);
    print_start(e);
    pthread_t th;
    int err = hs_rt_thread_start(&th, control, e, e->prio, e->cpu, &e->rtr);
    if (err) {
        fprintf(stderr, "hilstep-ecu: control thread: %s\n", strerror(err));
        e->tp.ops->close(&e->tp); /* as on every other refusal: nothing left open */
        return hs_exit_of(HS_TOOL_ECU, HS_E_SETUP);
    }
    pthread_join(th, NULL);
    e->tp.ops->close(&e->tp);
    hs_rx_finish(&e->rx);
    /* Without a FINAL frame (CAN) the silence at the end is the plant's normal end; a signal
     * ends the ECU while the plant may already have stopped. */
    hs_health_finish(&e->health, !e->tp.ops->frame || e->end == END_STOPPED || e->end == END_SIGNAL);
    const hs_status link = link_status(e);
    /* a failed link (8) outranks lost stats (5): the ECU's exit names the link first; the
     * stats are written before the verdict, so that a lost --stats is in it (exit 5) */
    const hs_status out = write_stats(e, hs_exit_of(HS_TOOL_ECU, link));
    const hs_status run = link != HS_OK ? link : out;
    end_report(e, run);
    return hs_exit_of(HS_TOOL_ECU, run);
}
