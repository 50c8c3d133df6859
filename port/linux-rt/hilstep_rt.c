/* hilstep_rt.c - build/hilstep-rt: the Linux shell around the plant application.
 *
 * The plant itself (model, stepper, signal map, frame receive and send side, policies,
 * telemetry record) is hil/hs_plant.c, the same code the Cortex-M images run. This file is
 * the timer and the transport: one SCHED_FIFO thread wakes on absolute CLOCK_MONOTONIC
 * deadlines start + k * period, hands the queued UDP datagrams to the plant, runs its step,
 * sends the frame and pushes the telemetry record; a normal-priority logger thread writes the
 * CSV (complete rows only, at least every 50 ms) and the live status line; main prints the
 * summary, the verdict against the latency budget and exits with the status of hil/hs_exit.h.
 * See hil/FRAME.md for the wire frame and `hilstep-rt --help` for the options. */
#define _GNU_SOURCE
#include "hs_apps.h"
#include "hs_health.h"
#include "hs_hist.h"
#include "hs_linux.h"
#include "hs_mdf.h"
#include "hs_transports.h"
#include "hs_mb_file.h"
#include "hs_mb_map.h"
#include "hs_models.h"
#include "hs_plant.h"
#include "hs_ring.h"
#include "hs_xcp_port.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_PARAMS 16
#define LAT_BINS 10000u      /* 1 us bins: 0..10 ms, like cyclictest -h 10000 */
#define EXEC_BINS 100000u    /* 10 ns bins: 0..1 ms */
#define RING_CAP 4096u       /* 4 s of telemetry at 1 kHz (the logger drains it every 5 ms) */
#define FLUSH_NS 50000000    /* the CSV reaches the file at least every 50 ms */
#define SILENCE_NS 1000000000 /* warn when no ECU frame was applied for 1 s */

typedef struct options {
    const char *model;
    const char *model_file; /* multibody description (.hsm), NULL = --model from the registry */
    hs_method method;
    hs_form form;
    hs_stab stab;
    int stab_given;       /* --stab was on the command line (else a self-stabilizing method gets none) */
    double compliance, damping;   /* --compliance (m/N), --damping (N s/m): rows without their own */
    double spook_eps, spook_tau;  /* --spook-eps, --spook-tau (s); < 0 = the library's default */
    char pname[MAX_PARAMS][64];
    double pval[MAX_PARAMS];
    int nparams;
    int64_t period_ns;
    int prio;
    int cpu;
    const char *listen;
    const char *peer;
    const char *transport; /* registered transport name (hs_transports.c), default "udp" */
    const char *can_if;   /* --can-if */
    const char *dbc;      /* --dbc */
    char tkey[HS_TP_MAX_OPTS][64];      /* --transport-opt KEY=VALUE: keys (fixed storage) */
    const char *tval[HS_TP_MAX_OPTS];   /* ... and values (into argv) */
    int ntopt;
    double duration;      /* s; 0 = until a signal */
    int policy_stop;      /* 0 skip, 1 stop */
    const char *log;      /* CSV path, "" = none */
    const char *mdf;      /* --log FILE.mf4: the MDF4 log (port/linux-rt/hs_mdf.h), NULL = none */
    int log_csv;          /* a CSV --log was given (a .mf4 alone then replaces the default CSV) */
    const char *hist;     /* histogram file, "-" = stdout, NULL = none */
    const char *stats;    /* key=value stats file, NULL = none */
    int quiet;            /* no live status */
    int verbose;          /* the full counter list in the console summary */
    int list_signals;     /* print the signal map and exit */
    int max_rx;           /* datagrams drained per frame at most */
    double budget_us;     /* latency budget (us), 0 = the period */
    int fault_hold;       /* refused steps in a row held before the plant stops */
    double linger_ms;     /* drain the socket this long after the FINAL frame */
    int64_t inject_tick;  /* test switch: frame that overruns on purpose, -1 = none */
    double inject_periods;/* ... by spinning until start + (tick + this) * period */
    int64_t fault_tick;   /* test switch: first frame whose step gets a NaN input, -1 = none */
    int fault_frames;     /* ... for this many frames */
    const char *key;      /* pre-shared key file (--key); NULL = the per-user default key */
    int no_auth;          /* --no-auth: version-1 frames, the verdict says so */
    double takeover_ms;   /* ECU silence before another stream may take over; < 0 = default */
    hs_health_limits link;/* --max-fallback-ticks, --max-rejected, --allow-no-ecu */
    int require_rt;       /* --require-rt: latency judged, and a run that is not hard real-time fails */
    int budget_given;     /* --budget-us was on the command line: latency judged everywhere */
    const char *xcp;      /* --xcp ADDR:PORT: the XCP slave (hil/XCP.md), NULL = none */
    const char *a2l;      /* --a2l FILE: the A2L of this build */
} options;

/* An output file checked on every write: opened before the run, errno kept. */
typedef struct outfile {
    const char *path;
    FILE *f;
    int err;              /* errno of the first failed write or close, 0 = none */
} outfile;

/* Shared between the RT thread, the logger and main. The RT thread writes the plant and the
 * timing fields; the logger reads records through the ring only; main reads everything after
 * both threads were joined. */
typedef struct app {
    options o;
    hs_model model;
    union { hs_real r[HS_MODELS_MAX_PARAM_BYTES / sizeof(hs_real) + 1]; double d; } pblock;
    hs_plant plant;
    hs_transport tp;        /* the bus (hil/hs_transport.h): UDP frame, SocketCAN, ... */
    hs_ring ring;
    hs_hist lat, exec;
    hs_rt_report rtr;
    hs_health health;       /* the ECU link's health over the run (hil/hs_health.h) */
    int64_t start_ns;       /* time base: frame k is planned at start_ns + k * period */
    uint64_t ticks_total;   /* 0 = unlimited */
    int64_t worst_frame_ns; /* max over frames of planned wake-up to end of the frame's work */
    uint64_t worst_frame_tick;
    uint64_t rx_after_final;/* datagrams drained after the FINAL frame (counted in rx too) */
    int rt_done;            /* set (release) when the RT thread has pushed its last record */
    /* logger */
    int csv_fd;             /* telemetry CSV, -1 with --log none */
    uint64_t rows_written;  /* complete rows confirmed in the file */
    uint64_t rows_lost;     /* rows not written because of a write error */
    int log_error;          /* errno of the failed CSV write, 0 = none */
    int mdf_on;             /* the MDF4 log (g_mdf) is open */
    int mdf_said;           /* its write error was reported */
    uint64_t silences;      /* 1 s periods without an applied ECU frame that were warned about */
    outfile stats, hist;
} app;

static app A;
static volatile sig_atomic_t g_stop;
static volatile sig_atomic_t g_signal;
static hs_real g_reals[HS_STEPPER_REALS(HS_PLANT_MAX_NQ, HS_PLANT_MAX_NC, HS_PLANT_MAX_NZ)];
/* The macro bounds the dense backend; block models on the sparse one also keep their analysis
 * here, so there is room for that (hs_stepper_workspace_tmp gives the exact need; the largest
 * shipped, vehicles/large/truck_trailer.hsm: 113,550 ints in all, hilstep-mbgen --workspace). */
static int g_ints[HS_STEPPER_INTS(HS_PLANT_MAX_NQ, HS_PLANT_MAX_NC) + (1 << 17)];
static uint32_t g_lat_bins[LAT_BINS];
static uint32_t g_exec_bins[EXEC_BINS];
/* One telemetry record: the plant's row and, with --xcp, the calibration its step ran with. */
typedef struct tm_rec {
    hs_tm_row r;
    uint64_t cal_n;                  /* calibration writes applied before this step */
    double cal[HS_XCPP_MAX_PARAMS];  /* (np) each calibratable param's value in this step */
} tm_rec;
static tm_rec g_ring_store[RING_CAP];

static void on_signal(int sig)
{
    g_signal = sig;
    g_stop = 1;
}

static void usage_exit(FILE *f);

/* --help: every option by group, then usage_exit. */
static void usage(FILE *f)
{
    fprintf(f,
"usage: hilstep-rt [options]\n"
"Real-time plant of a HIL bench: steps a hilstep model once per period on a SCHED_FIFO\n"
"thread and exchanges signals with an ECU over UDP (frame format: hil/FRAME.md) or over\n"
"SocketCAN with a DBC signal map (hil/CAN.md).\n"
"\n"
"model and stepper\n"
"  --model NAME        model from the registry (default circular_track); a model with an\n"
"                      `external` parameter gets external=1, its inputs come from the wire.\n"
"                      Each shipped model has a signal map (--signals); others get a generic\n"
"                      one from their input/output names (+-1e9, fallback 0, stale 20)\n"
"  --model-file FILE   a multibody description (.hsm, format: model/FORMAT.md) instead of\n"
"                      --model; its input and named output lines are the signal map (else\n"
"                      the generic one)\n"
"  --param KEY=VALUE   set a model parameter (repeatable), e.g. --param v_ref=2; with\n"
"                      --model-file a param of the description, e.g. --param m_s=350\n"
"  --method M          one of the methods listed at the end (default: the library's,\n"
"                      sdirk with sd_gamma 1/4; rt/METHODS.md says which to pick)\n"
"  --form F            index1|index2 (default index2)\n"
"  --stab S            none|baumgarte|projection (default projection; none for spook, dvp, em)\n"
"  --compliance C      every constraint row's compliance (m/N, >= 0; default 0 = rigid)\n"
"                      where the description declares none; --damping D (N s/m, >= 0) in\n"
"                      parallel (model/COMPLIANCE.md)\n"
"  --spook-eps E       spook's epsilon (default 1e-8) where neither the file nor --compliance\n"
"                      gives one; --spook-tau TAU its relaxation time (s, > 0; default 2\n"
"                      periods) where no damping is given\n"
"timing\n"
"  --period-us N       frame period and step size h, microseconds (default 1000)\n"
"  --duration S        run S seconds of time base then stop; 0 = until SIGINT/SIGTERM/SIGHUP\n"
"                      (default 10)\n"
"  --priority P        SCHED_FIFO priority 1..99 of the RT thread, 0 = normal (default 80)\n"
"  --cpu N             pin the RT thread to CPU N (default: not pinned)\n"
"  --policy skip|stop  on overrun (frame ends after the next deadline): skip = drop the\n"
"                      missed ticks, count each, stay on the time base start + k*period;\n"
"                      stop = send safe outputs (signal fallbacks, flag SAFE) and exit 3\n"
"                      (default skip). Missed steps are never run back to back.\n"
"  --budget-us N       latency budget: the verdict fails (exit 6) when a frame ends more\n"
"                      than N us after its planned wake-up (default: the period). Latency is\n"
"                      judged on a hard real-time run (PREEMPT_RT kernel, SCHED_FIFO and\n"
"                      mlockall granted) or when --budget-us or --require-rt is given;\n"
"                      elsewhere the verdict says 'latency not judged: <why>'\n"
"  --require-rt        judge the latency anywhere, and fail the run (exit 6) when it is\n"
"                      not hard real-time\n"
"  --fault-hold N      refused steps in a row that are held (outputs frozen, flag FAULT)\n"
"                      before the plant stops with safe outputs (default 10); any refused\n"
"                      step fails the run (exit 4). Outputs NaN/Inf or outside their signal's\n"
"                      range are refused the same way (nonfinite_output, output_range)\n"
"network\n");
    hs_transports_help(f);
    fprintf(f,
"  --can-if IF         CAN interface of --transport can, e.g. vcan0 or can0\n"
"  --dbc FILE          DBC of --transport can: binds the model's inputs and outputs by name\n"
"                      to CAN signals (shipped: hil/dbc/MODEL.dbc); errors name FILE:LINE\n"
"  --transport-opt K=V an option of the transport (repeatable), e.g. can-filter=off\n"
"  --listen A.B.C.D:P  address the plant binds to (default 127.0.0.1:47001)\n"
"  --peer A.B.C.D:P    the ECU: only datagrams from exactly this address are accepted,\n"
"                      outputs are sent there every frame (default 127.0.0.1:47002)\n"
"  --max-rx N          datagrams drained per frame at most (default 64); the rest wait\n"
"                      for the next frame, counted as rx_cap_hits\n"
"  --linger-ms N       after the FINAL frame keep draining the socket N ms so late\n"
"                      datagrams are counted too (default 50)\n"
"  --key FILE          authenticate every frame, both ways, with HMAC-SHA-256-128 under\n"
"                      the pre-shared key in FILE (hex, hil/FRAME.md \"Security\"); the ECU\n"
"                      needs the same file. Frames with a bad or missing MAC: exit 8.\n"
"                      Default: the per-user key $XDG_CONFIG_HOME/hilstep/link.key (else\n"
"                      ~/.config/hilstep/link.key), created mode 0600 on first use\n"
"  --no-auth           unauthenticated version-1 frames (an ECU without the MAC); on CAN\n"
"                      the DBC's SecOC is not checked; the verdict says \"link unauthenticated\"\n"
"  --takeover-ms N     a new ECU session (or a resynced one) takes the link over only after\n"
"                      the current one was silent longer than N ms (default: the largest\n"
"                      input stale limit of the map, 20 ms for the shipped maps)\n"
"link health (hil/hs_health.h; the verdict names the input and the cause)\n"
"  --allow-no-ecu      a run that never heard its ECU passes (default: exit 10)\n"
"  --max-fallback-ticks N  ticks any input may run on its fallback after the first ECU\n"
"                      frame (default 0: exit 11 beyond; the ticks before it are the\n"
"                      start-up allowance, counted apart)\n"
"  --max-rejected N    ECU datagrams that may be rejected (bad CRC, magic, version, short,\n"
"                      long, layout, NaN/Inf, sequence, session, MAC; default 0: exit 9\n"
"                      beyond; datagrams from another address are counted, not judged)\n"
"accuracy (rt/METHODS.md \"The error estimate\")\n"
"  --tol X | off       a run whose err_est (the largest local position error estimate of a\n"
"                      step, units of q: m or rad) exceeds X is inaccurate: exit 12\n"
"                      (default 0.05)\n"
"output\n"
"  --log FILE          telemetry CSV, one row per stepped frame (default\n"
"                      build/hilstep-rt.csv; 'none' = no CSV, rows still counted). Complete\n"
"                      rows reach the file at least every 50 ms. FILE.mf4: ASAM MDF 4.1\n"
"                      instead (same channels, names and units; hil/MDF.md); give --log\n"
"                      twice for both\n"
"  --hist FILE         latency histogram in cyclictest -h format, 1 us bins ('-' = stdout);\n"
"                      the console always gets the percentiles\n"
"  --stats FILE        all end-of-run counters as key=value lines (for scripts)\n"
"  --quiet             no live status line\n"
"  --verbose           every counter in the console summary (as --stats writes them)\n"
"  --signals           print the model's signal map (wire order, units, scale, offset,\n"
"                      range, fallback, stale limit) and exit\n"
"  --xcp ADDR:PORT     XCP slave (XCP 1.5 on UDP, hil/XCP.md): poll, DAQ, params calibrated\n"
"  --a2l FILE          write this build's A2L (ASAM MCD-2 MC 1.7); alone: then exit\n"
"test switches\n"
"  --inject-overrun K:X  frame K busy-waits until start + (K + X) * period, so it\n"
"                      overruns and misses ceil(X) - 1 ticks (X > 1, e.g. 500:3.5)\n"
"  --inject-fault K[:N]  frames K..K+N-1 (N default 1) hand the step a NaN input behind\n"
"                      hs_rx's back, so the step refuses\n"
"  --help              this text\n");
    usage_exit(f);
}

/* The exit-status and methods part of --help (the table of hil/hs_exit.h, the method table). */
static void usage_exit(FILE *f)
{
    fprintf(f,
"\n"
"exit status (one table for every hilstep plant, hil/hs_exit.h):\n"
"  0 run complete or ended by SIGINT/SIGTERM/SIGHUP, verdict PASS (telemetry flushed,\n"
"    summary printed); 1 bad option; 2 setup failed (model, map, socket, thread, output\n"
"    file); 3 overrun with --policy stop; 4 refused steps; 5 output lost (a CSV, stats or\n"
"    histogram write failed, e.g. disk full); 6 latency budget exceeded (where judged); 8\n"
"    frames with a bad or missing MAC arrived (forged, or the ECU has another key), frames\n"
"    of an earlier run (old_run: a replay; the verdict says \"link attacked\"), or frames a\n"
"    transport refused as not from the ECU (CAN E2E: a second sender);\n"
"    9 ECU frames rejected (--max-rejected); 10 ECU never heard (--allow-no-ecu); 11 an\n"
"    input on its fallback after the link came up (--max-fallback-ticks); 12 the error\n"
"    estimate exceeded --tol (inaccurate).\n"
"Without root, SCHED_FIFO or a PREEMPT_RT kernel the run goes on, says plainly that it is\n"
"not hard real-time and does not judge the latency (unless --budget-us or --require-rt).\n"
"\nmethods (--method; the stepper's method table):\n");
    for (int k = 0; k < HS_METHOD_COUNT; ++k)
        fprintf(f, "  %-11s %s%s%s\n", hs_method_table[k].name, hs_method_table[k].summary,
                hs_method_table[k].hooks[0] ? "; needs " : "", hs_method_table[k].hooks);
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
    /* decimal only, as the .hsm parser: strtod would also read 0x1p3 */
    if (hs_is_hex_float(s)) return -1;
    errno = 0;
    *v = strtod(s, &end);
    return (end == s || *end || errno || !isfinite(*v)) ? -1 : 0;
}

/* The defaults of every option: the library's default configuration (the one measured to
 * survive a 1e8-step soak), the first transport of the table, a 1 ms period. */
static void default_options(options *o)
{
    memset(o, 0, sizeof *o);
    o->model = "circular_track";
    const hs_stepper_def dd = hs_stepper_default_def();
    o->method = dd.method;
    o->form = dd.form;
    o->stab = dd.stab;
    o->compliance = (double)dd.reg_eps;
    o->damping = (double)dd.reg_damp;
    o->spook_eps = (double)dd.spook_eps;
    o->spook_tau = -1.0;
    o->period_ns = 1000000;
    o->prio = 80;
    o->cpu = -1;
    o->listen = "127.0.0.1:47001";
    o->peer = "127.0.0.1:47002";
    o->transport = hs_transports[0]->name;
    o->duration = 10.0;
    o->log = "build/hilstep-rt.csv";
    o->max_rx = 64;
    o->fault_hold = 10;
    o->linger_ms = 50;
    o->inject_tick = -1;
    o->fault_tick = -1;
    o->fault_frames = 1;
    o->takeover_ms = -1;
    o->link = hs_health_strict();
}

/* --log FILE: FILE.mf4 (or .MF4) is the MDF4 log, anything else the CSV; "none" neither. Given
 * twice, one of each is written from the same rows. A .mf4 alone replaces the default CSV. */
static void log_option(options *o, const char *v)
{
    const size_t n = strlen(v);
    if (!strcmp(v, "none")) { o->log = ""; o->mdf = NULL; o->log_csv = 1; }
    else if (n > 4 && (!strcmp(v + n - 4, ".mf4") || !strcmp(v + n - 4, ".MF4"))) {
        o->mdf = v;
        if (!o->log_csv) o->log = "";
    } else { o->log = v; o->log_csv = 1; }
}

/* What an option group made of argument a (its value v, NULL when a is the last argument). */
#define OPT_NOT_MINE 0  /* not an option of the group */
#define OPT_FLAG 1      /* taken, without a value */
#define OPT_VALUE 2     /* taken with its value v */
#define OPT_BAD (-1)    /* its value v is not one it takes */
#define OPT_NEEDS (-2)  /* it takes a value and none followed */
#define NEED_ARG() do { if (!v) return OPT_NEEDS; } while (0)

/* The options without a value, and the names of files and the model. */
static int opt_names(const char *a, const char *v, options *o)
{
    if (!strcmp(a, "--quiet")) o->quiet = 1;
    else if (!strcmp(a, "--no-auth")) o->no_auth = 1;
    else if (!strcmp(a, "--verbose")) o->verbose = 1;
    else if (!strcmp(a, "--signals")) o->list_signals = 1;
    else if (!strcmp(a, "--allow-no-ecu")) o->link.allow_no_peer = 1;
    else if (!strcmp(a, "--require-rt")) o->require_rt = 1;
    else if (!strcmp(a, "--model")) { NEED_ARG(); o->model = v; return OPT_VALUE; }
    else if (!strcmp(a, "--model-file")) { NEED_ARG(); o->model_file = v; return OPT_VALUE; }
    else if (!strcmp(a, "--log")) { NEED_ARG(); log_option(o, v); return OPT_VALUE; }
    else if (!strcmp(a, "--hist")) { NEED_ARG(); o->hist = v; return OPT_VALUE; }
    else if (!strcmp(a, "--stats")) { NEED_ARG(); o->stats = v; return OPT_VALUE; }
    else if (!strcmp(a, "--key")) { NEED_ARG(); o->key = v; return OPT_VALUE; }
    else if (!strcmp(a, "--xcp")) { NEED_ARG(); o->xcp = v; return OPT_VALUE; }
    else if (!strcmp(a, "--a2l")) { NEED_ARG(); o->a2l = v; return OPT_VALUE; }
    else return OPT_NOT_MINE;
    return OPT_FLAG;
}

/* The stepper's options: method, formulation, stabilization, compliance, model parameters. */
static int opt_stepper(const char *a, const char *v, options *o)
{
    double d;
    int e;
    if (!strcmp(a, "--method")) {
        NEED_ARG();
        if (parse_enum(v, method_name_i, HS_METHOD_COUNT, &e)) return OPT_BAD;
        o->method = (hs_method)e;
    } else if (!strcmp(a, "--form")) {
        NEED_ARG();
        if (parse_enum(v, form_name_i, 2, &e)) return OPT_BAD;
        o->form = (hs_form)e;
    } else if (!strcmp(a, "--stab")) {
        NEED_ARG();
        o->stab_given = 1;
        if (parse_enum(v, stab_name_i, 3, &e)) return OPT_BAD;
        o->stab = (hs_stab)e;
    } else if (!strcmp(a, "--compliance") || !strcmp(a, "--damping") || !strcmp(a, "--spook-eps")) {
        NEED_ARG();
        if (parse_double(v, &d) || !(d >= 0) || !isfinite(d)) return OPT_BAD;
        if (!strcmp(a, "--compliance")) o->compliance = d;
        else if (!strcmp(a, "--damping")) o->damping = d;
        else o->spook_eps = d;
    } else if (!strcmp(a, "--spook-tau")) {
        NEED_ARG();
        if (parse_double(v, &d) || !(d > 0) || !isfinite(d)) return OPT_BAD;
        o->spook_tau = d;
    } else if (!strcmp(a, "--param")) {
        NEED_ARG();
        const char *eq = strchr(v, '=');
        if (!eq || eq == v || (size_t)(eq - v) >= sizeof o->pname[0] || o->nparams >= MAX_PARAMS ||
            parse_double(eq + 1, &d)) return OPT_BAD;
        memcpy(o->pname[o->nparams], v, (size_t)(eq - v));
        o->pname[o->nparams][eq - v] = '\0';
        o->pval[o->nparams++] = d;
    } else {
        return OPT_NOT_MINE;
    }
    return OPT_VALUE;
}

/* The timing and policy options: period, duration, scheduling, overrun and fault policies. */
static int opt_timing(const char *a, const char *v, options *o)
{
    double d;
    if (!strcmp(a, "--period-us")) {
        NEED_ARG();
        if (parse_double(v, &d) || d < 50 || d > 1e6) return OPT_BAD;
        o->period_ns = (int64_t)(d * 1000.0 + 0.5);
    } else if (!strcmp(a, "--duration")) {
        NEED_ARG();
        if (parse_double(v, &d) || d < 0 || d > 1e7) return OPT_BAD;
        o->duration = d;
    } else if (!strcmp(a, "--priority")) {
        NEED_ARG();
        if (parse_double(v, &d) || d < 0 || d > 99 || d != (int)d) return OPT_BAD;
        o->prio = (int)d;
    } else if (!strcmp(a, "--cpu")) {
        NEED_ARG();
        if (parse_double(v, &d) || d < 0 || d > 4095 || d != (int)d) return OPT_BAD;
        o->cpu = (int)d;
    } else if (!strcmp(a, "--policy")) {
        NEED_ARG();
        if (!strcmp(v, "skip")) o->policy_stop = 0;
        else if (!strcmp(v, "stop")) o->policy_stop = 1;
        else return OPT_BAD;
    } else if (!strcmp(a, "--budget-us")) {
        NEED_ARG();
        if (parse_double(v, &d) || d <= 0 || d > 1e9) return OPT_BAD;
        o->budget_us = d;
        o->budget_given = 1;
    } else if (!strcmp(a, "--fault-hold")) {
        NEED_ARG();
        if (parse_double(v, &d) || d < 1 || d > 1e9 || d != (int)d) return OPT_BAD;
        o->fault_hold = (int)d;
    } else {
        return OPT_NOT_MINE;
    }
    return OPT_VALUE;
}

/* The network options: addresses, the transport and its options, receive bounds, takeover. */
static int opt_network(const char *a, const char *v, options *o)
{
    double d;
    if (!strcmp(a, "--listen")) { NEED_ARG(); o->listen = v; }
    else if (!strcmp(a, "--peer")) { NEED_ARG(); o->peer = v; }
    else if (!strcmp(a, "--transport")) { NEED_ARG(); o->transport = v; }
    else if (!strcmp(a, "--can-if")) { NEED_ARG(); o->can_if = v; }
    else if (!strcmp(a, "--dbc")) { NEED_ARG(); o->dbc = v; }
    else if (!strcmp(a, "--transport-opt")) {
        NEED_ARG();
        const char *eq = strchr(v, '=');
        if (!eq || eq == v || (size_t)(eq - v) >= sizeof o->tkey[0] || o->ntopt >= HS_TP_MAX_OPTS - 6)
            return OPT_BAD;
        memcpy(o->tkey[o->ntopt], v, (size_t)(eq - v));
        o->tkey[o->ntopt][eq - v] = '\0';
        o->tval[o->ntopt++] = eq + 1;
    } else if (!strcmp(a, "--max-rx")) {
        NEED_ARG();
        if (parse_double(v, &d) || d < 1 || d > 100000 || d != (int)d) return OPT_BAD;
        o->max_rx = (int)d;
    } else if (!strcmp(a, "--takeover-ms")) {
        NEED_ARG();
        if (parse_double(v, &d) || d < 0 || d > 1e6) return OPT_BAD;
        o->takeover_ms = d;
    } else if (!strcmp(a, "--max-fallback-ticks") || !strcmp(a, "--max-rejected")) {
        NEED_ARG();
        if (parse_double(v, &d) || d < 0 || d > 1e15 || d != (double)(int64_t)d) return OPT_BAD;
        if (!strcmp(a, "--max-rejected")) o->link.max_rejected = (uint64_t)d;
        else o->link.max_fallback_ticks = (uint64_t)d;
    } else if (!strcmp(a, "--tol")) {
        NEED_ARG();
        if (!strcmp(v, "off")) o->link.tol = 0;
        else if (parse_double(v, &d) || !(d > 0) || !isfinite(d)) return OPT_BAD;
        else o->link.tol = d;
    } else if (!strcmp(a, "--linger-ms")) {
        NEED_ARG();
        if (parse_double(v, &d) || d < 0 || d > 10000) return OPT_BAD;
        o->linger_ms = d;
    } else {
        return OPT_NOT_MINE;
    }
    return OPT_VALUE;
}

/* The test switches: an overrun and refused steps on purpose. */
static int opt_inject(const char *a, const char *v, options *o)
{
    double d;
    const char *c;
    char kb[32];
    if (!strcmp(a, "--inject-overrun")) {
        NEED_ARG();
        c = strchr(v, ':');
        double k;
        if (!c || (size_t)(c - v) >= sizeof kb) return OPT_BAD;
        memcpy(kb, v, (size_t)(c - v));
        kb[c - v] = '\0';
        if (parse_double(kb, &k) || k < 0 || k > 1e15 || k != (double)(int64_t)k) return OPT_BAD;
        if (parse_double(c + 1, &d) || d <= 1.0 || d > 1000) return OPT_BAD;
        o->inject_tick = (int64_t)k;
        o->inject_periods = d;
    } else if (!strcmp(a, "--inject-fault")) {
        NEED_ARG();
        c = strchr(v, ':');
        size_t kl = c ? (size_t)(c - v) : strlen(v);
        if (kl >= sizeof kb) return OPT_BAD;
        memcpy(kb, v, kl);
        kb[kl] = '\0';
        if (parse_double(kb, &d) || d < 0 || d > 1e15 || d != (double)(int64_t)d) return OPT_BAD;
        o->fault_tick = (int64_t)d;
        if (c) {
            if (parse_double(c + 1, &d) || d < 1 || d > 1e9 || d != (int)d) return OPT_BAD;
            o->fault_frames = (int)d;
        }
    } else {
        return OPT_NOT_MINE;
    }
    return OPT_VALUE;
}
#undef NEED_ARG

/* The command line into o, without printing or exiting (the CLI fuzz harness calls it):
 * 0, 1 for --help, or -1 with the message in why (cap bytes). Each option group is asked in
 * turn; the first that knows the option takes it. */
static int parse_options(int argc, char **argv, options *o, char *why, size_t cap)
{
    static int (*const groups[])(const char *, const char *, options *) = {
        opt_names, opt_stepper, opt_timing, opt_network, opt_inject};
    default_options(o);
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) return 1;
        int r = OPT_NOT_MINE;
        for (size_t g = 0; r == OPT_NOT_MINE && g < sizeof groups / sizeof groups[0]; ++g)
            r = groups[g](a, v, o);
        if (r == OPT_NOT_MINE) {
            snprintf(why, cap, "hilstep-rt: unknown option '%s' (see --help)", a);
            return -1;
        }
        if (r == OPT_NEEDS) {
            snprintf(why, cap, "hilstep-rt: %s needs a value", a);
            return -1;
        }
        if (r == OPT_BAD && !strcmp(a, "--param")) {
            /* which part of KEY=VALUE is wrong, naming the parameter and the text */
            const char *eq = strchr(v, '=');
            if (!eq || eq == v)
                snprintf(why, cap, "hilstep-rt: --param %s: expected KEY=VALUE", v);
            else if ((size_t)(eq - v) >= sizeof o->pname[0])
                snprintf(why, cap, "hilstep-rt: --param %s: the name has %d characters, at most %zu",
                         v, (int)(eq - v), sizeof o->pname[0] - 1);
            else if (o->nparams >= MAX_PARAMS)
                snprintf(why, cap, "hilstep-rt: --param %s: more than %d --param", v, MAX_PARAMS);
            else
                snprintf(why, cap, "hilstep-rt: --param %s: the value '%s' of parameter %.*s is %s", v,
                         eq + 1, (int)(eq - v), v, hs_is_hex_float(eq + 1)
                         ? "a hexadecimal float: decimal numbers only (as in .hsm files)"
                         : "not a finite number");
            return -1;
        }
        if (r == OPT_BAD) {
            snprintf(why, cap, "hilstep-rt: bad value '%s' for %s (see --help)", v ? v : "", a);
            return -1;
        }
        if (r == OPT_VALUE) ++i;
    }
    /* The last of two --param NAME=... used to win silently; a bench states each value once. */
    for (int k = 1; k < o->nparams; ++k)
        for (int j = 0; j < k; ++j)
            if (!strcmp(o->pname[j], o->pname[k])) {
                snprintf(why, cap, "hilstep-rt: --param %s given twice (%g and %g): give each "
                         "parameter once", o->pname[k], o->pval[j], o->pval[k]);
                return -1;
            }
    return 0;
}


/* ---------------------------------------------------------------- real-time thread ---- */

/* One frame's outputs to the transport (n = 0: nothing was built, nothing goes out); extra
 * = 1 for the frames outside tick k's own (overrun stop, FINAL after the loop). */
static void send_out(app *a, uint64_t k, int extra, const uint8_t *buf, size_t n)
{
    const hs_plant *p = &a->plant;
    hs_tp_out o = {k, extra, &p->tx, p->safe ? NULL : p->y, buf, n};
    if (n) a->tp.ops->send(&a->tp, &o);
}

/* Hands queued messages to the plant's receive side: at most max (then one more that tells
 * whether any were left behind; it is classified like the others, so nothing is lost). */
static int drain(app *a, int max)
{
    return a->tp.ops->receive(&a->tp, &a->plant.rx, max);
}

static void *rt_thread(void *arg)
{
    app *a = (app *)arg;
    hs_plant *p = &a->plant;
    const int64_t per = a->o.period_ns;
    uint8_t out[HS_FRAME_MAX_BYTES];
    sigset_t ss;

    /* Signals go to main; this thread only polls the flag between frames. */
    sigemptyset(&ss);
    sigaddset(&ss, SIGINT);
    sigaddset(&ss, SIGTERM);
    sigaddset(&ss, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &ss, NULL);
    hs_rt_prefault_stack(128 * 1024);

    /* Start on a period boundary two periods ahead: time to get scheduled, and frame 0 is
     * never late by construction. */
    a->start_ns = (hs_now_ns() / per + 2) * per;
    uint64_t k = 0;
    while (!g_stop && !p->stop && (a->ticks_total == 0 || k < a->ticks_total)) {
        const int64_t planned = a->start_ns + (int64_t)k * per;
        hs_sleep_until_ns(planned);
        const int64_t woke = hs_now_ns();
        hs_hist_add(&a->lat, woke - planned, k);

        (void)drain(a, a->o.max_rx);
        const int last = (a->ticks_total != 0 && k + 1 >= a->ticks_total) || g_stop;
        tm_rec rec;
        hs_tm_row *const row = &rec.r;
        size_t n = hs_plant_step(p, k, last, out, sizeof out, row);
        hs_health_tick(&a->health, &p->rx, (row->flags & HS_TMF_FRESH) != 0u);
        hs_hist_add(&a->exec, (int64_t)row->exec_ns, k);

        if ((int64_t)k == a->o.inject_tick) {
            /* Test switch: burn CPU to a fixed absolute instant so the overrun length does
             * not depend on when this frame happened to start. */
            const int64_t until = a->start_ns + (int64_t)((double)k * (double)per +
                                                          a->o.inject_periods * (double)per);
            while (hs_now_ns() < until) {
            }
        }
        send_out(a, k, 0, out, n);
        hs_xcpp_values(rec.cal, &rec.cal_n); /* the params this step ran with */
        hs_xcpp_frame(k); /* XCP: this frame's DAQ, then the master's commands (hil/XCP.md) */

        const int64_t end = hs_now_ns();
        row->planned_ns = planned - a->start_ns;
        row->latency_ns = woke - planned;
        row->frame_ns = (uint32_t)(end - woke);
        if (end - planned > a->worst_frame_ns) {
            a->worst_frame_ns = end - planned;
            a->worst_frame_tick = k;
        }
        (void)hs_ring_push(&a->ring, &rec); /* a full ring drops and counts; never waits */

        const int64_t next = planned + per;
        if (end > next) {
            /* Overrun: the frame ended after the next deadline. Count every deadline it
             * swallowed and rejoin the time base at the first one still ahead of us. */
            const uint64_t missed = (uint64_t)((end - next) / per) + 1u;
            send_out(a, k, 1, out, hs_plant_overrun(p, missed, out, sizeof out));
            k += 1u + missed;
        } else {
            k += 1u;
        }
    }
    /* The run ended between frames (an overrun jumped past the end, or a signal came after
     * the last send): the peer still gets its FINAL frame, with the held outputs. */
    send_out(a, k, 1, out, hs_plant_final(p, out, sizeof out));
    /* Datagrams that arrive after the last frame's receive are counted as well: keep
     * draining for the linger time (bounded), then hand the plant its terminate. */
    const uint64_t before = p->rx.st.datagrams;
    const int64_t until = hs_now_ns() + (int64_t)(a->o.linger_ms * 1e6);
    for (;;) {
        (void)drain(a, 1 << 20);
        const int64_t now = hs_now_ns();
        if (now >= until) break;
        (void)a->tp.ops->wait(&a->tp, until - now);
    }
    a->rx_after_final = p->rx.st.datagrams - before;
    hs_plant_terminate(p);
    /* The plant ends the run: an ECU silent before its FINAL frame is a link that failed. */
    hs_health_finish(&a->health, 0);
    __atomic_store_n(&a->rt_done, 1, __ATOMIC_RELEASE);
    return NULL;
}

/* ------------------------------------------------------------------ logger thread ---- */

/* Where the ECU is, for messages: its UDP address or the CAN interface. */
static const char *peer_name(const app *a)
{
    return a->tp.ops->frame ? a->o.peer : a->o.can_if ? a->o.can_if : a->tp.desc;
}

/* The CSV buffer holds complete rows only; a flush writes them all or, on a short write (disk
 * full), cuts the file back to the last complete row. So the file never ends in half a row,
 * and rows_written counts exactly the rows in it. */
typedef struct csvbuf {
    char b[1 << 16];
    size_t len;
    uint64_t rows;     /* complete rows in b */
    off_t off;         /* file offset of the end of the last complete row written */
} csvbuf;

static void csv_flush(app *a, csvbuf *c)
{
    if (a->csv_fd < 0 || c->len == 0) return;
    if (a->log_error) { a->rows_lost += c->rows; c->len = 0; c->rows = 0; return; }
    size_t done = 0;
    while (done < c->len) {
        ssize_t w = write(a->csv_fd, c->b + done, c->len - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            a->log_error = w < 0 ? errno : EIO;
            break;
        }
        done += (size_t)w;
    }
    if (done == c->len) {
        a->rows_written += c->rows;
        c->off += (off_t)c->len;
    } else {
        /* Count the rows that made it whole, cut the partial one off. */
        uint64_t whole = 0;
        size_t end = 0;
        for (size_t i = 0; i < done; ++i)
            if (c->b[i] == '\n') { ++whole; end = i + 1; }
        a->rows_written += whole;
        a->rows_lost += c->rows - whole;
        c->off += (off_t)end;
        if (ftruncate(a->csv_fd, c->off) != 0) { /* /dev/full and pipes: nothing to cut */ }
        fprintf(stderr, "hilstep-rt: telemetry CSV %s: %s; %llu rows written, later rows lost\n",
                a->o.log, strerror(a->log_error), (unsigned long long)a->rows_written);
    }
    c->len = 0;
    c->rows = 0;
}

static void csv_add(app *a, csvbuf *c, const char *s, size_t n, int row_end)
{
    if (c->len + n > sizeof c->b) csv_flush(a, c);
    if (n > sizeof c->b) return;
    memcpy(c->b + c->len, s, n);
    c->len += n;
    c->rows += (uint64_t)row_end;
}

static void csv_header(app *a, csvbuf *c)
{
    const hs_plant *p = &a->plant;
    char line[8192];
    size_t k = 0;
#define ADD(...) do { int r_ = snprintf(line + k, sizeof line - k, __VA_ARGS__); \
        if (r_ > 0) k += (size_t)r_ < sizeof line - k ? (size_t)r_ : sizeof line - k - 1; } while (0)
    ADD("tick,t_s,planned_ns,latency_ns,exec_ns,frame_ns");
    for (int i = 0; i < p->d.nq; ++i) ADD(",q%d", i + 1);
    for (int i = 0; i < p->d.nq; ++i) ADD(",u%d", i + 1);
    for (int i = 0; i < p->d.nz; ++i) ADD(",z%d", i + 1);
    for (int i = 0; i < p->d.nin; ++i) ADD(",in_%s[%s]", p->rx.sig[i]->name, p->rx.sig[i]->unit);
    for (int i = 0; i < p->d.nout; ++i) ADD(",out_%s[%s]", p->tx.sig[i]->name, p->tx.sig[i]->unit);
    /* fresh/stale/fault: this tick's events as named 0/1 columns (the telemetry's own bits are
     * not the wire's); tx_flags: the output frame's wire flags (hil/FRAME.md). */
    ADD(",gmax,in_seq,fresh,stale,fault,missed,rejected,faults,tx_seq,tx_flags,err_est");
    /* With --xcp: calibration writes applied before the row's step, and each param's value in
     * that step (hil/XCP.md "Calibration"). */
    if (hs_xcpp_nparams() >= 0) ADD(",xcp_cal");
    for (int i = 0; i < hs_xcpp_nparams(); ++i) {
        const char *unit = "";
        const char *nm = hs_xcpp_param(i, &unit);
        ADD(",cal_%s[%s]", nm, unit);
    }
    ADD("\n");
    csv_add(a, c, line, k, 0);
}

static void csv_row(app *a, csvbuf *c, const tm_rec *rec)
{
    const hs_tm_row *r = &rec->r;
    const hs_plant *p = &a->plant;
    char line[8192];
    size_t k = 0;
    ADD("%llu,%.9f,%lld,%lld,%u,%u", (unsigned long long)r->tick, r->t,
        (long long)r->planned_ns, (long long)r->latency_ns, r->exec_ns, r->frame_ns);
    for (int i = 0; i < p->d.nq; ++i) ADD(",%.17g", r->q[i]);
    for (int i = 0; i < p->d.nq; ++i) ADD(",%.17g", r->u[i]);
    for (int i = 0; i < p->d.nz; ++i) ADD(",%.17g", r->z[i]);
    for (int i = 0; i < p->d.nin; ++i) ADD(",%.17g", r->in[i]);
    for (int i = 0; i < p->d.nout; ++i) ADD(",%.17g", r->out[i]);
    ADD(",%.3e,%u,%d,%d,%d,%llu,%llu,%llu,%u,%u,%.3e", r->gmax, r->in_seq, (r->flags & HS_TMF_FRESH) != 0u,
        (r->flags & HS_TMF_STALE) != 0u, (r->flags & HS_TMF_FAULT) != 0u,
        (unsigned long long)r->missed, (unsigned long long)r->rejected,
        (unsigned long long)r->faults, r->tx_seq, r->tx_flags, r->err_est);
    if (hs_xcpp_nparams() >= 0) ADD(",%llu", (unsigned long long)rec->cal_n);
    for (int i = 0; i < hs_xcpp_nparams(); ++i) ADD(",%.17g", rec->cal[i]);
    ADD("\n");
#undef ADD
    csv_add(a, c, line, k, 1);
}

/* ------------------------------------------------------------------- MDF4 log ---- */

static hs_mdf g_mdf;
static hs_mdf_channel g_mdf_ch[HS_MDF_MAX_CHANNELS];
static char g_mdf_name[HS_MDF_MAX_CHANNELS][96];

static void mdf_chan(int *n, const char *name, const char *unit, unsigned type, unsigned bytes)
{
    if (*n >= HS_MDF_MAX_CHANNELS) return;
    snprintf(g_mdf_name[*n], sizeof g_mdf_name[*n], "%s", name);
    g_mdf_ch[*n] = (hs_mdf_channel){g_mdf_name[*n], unit, type, bytes, !strcmp(name, "t_s")};
    ++*n;
}

/* The CSV's columns as channels, in its order, with its names; units: the CSV's (a name's
 * [unit], s for t_s, ns for *_ns), none elsewhere (q, u, z are in model units). */
static int mdf_columns(const app *a)
{
    const hs_plant *p = &a->plant;
    char nm[96];
    int n = 0;
    mdf_chan(&n, "tick", "", HS_MDF_U, 8);
    mdf_chan(&n, "t_s", "s", HS_MDF_F, 8);
    mdf_chan(&n, "planned_ns", "ns", HS_MDF_I, 8);
    mdf_chan(&n, "latency_ns", "ns", HS_MDF_I, 8);
    mdf_chan(&n, "exec_ns", "ns", HS_MDF_U, 4);
    mdf_chan(&n, "frame_ns", "ns", HS_MDF_U, 4);
    for (int i = 0; i < p->d.nq; ++i) { snprintf(nm, sizeof nm, "q%d", i + 1); mdf_chan(&n, nm, "", HS_MDF_F, 8); }
    for (int i = 0; i < p->d.nq; ++i) { snprintf(nm, sizeof nm, "u%d", i + 1); mdf_chan(&n, nm, "", HS_MDF_F, 8); }
    for (int i = 0; i < p->d.nz; ++i) { snprintf(nm, sizeof nm, "z%d", i + 1); mdf_chan(&n, nm, "", HS_MDF_F, 8); }
    for (int i = 0; i < p->d.nin; ++i) {
        snprintf(nm, sizeof nm, "in_%s[%s]", p->rx.sig[i]->name, p->rx.sig[i]->unit);
        mdf_chan(&n, nm, p->rx.sig[i]->unit, HS_MDF_F, 8);
    }
    for (int i = 0; i < p->d.nout; ++i) {
        snprintf(nm, sizeof nm, "out_%s[%s]", p->tx.sig[i]->name, p->tx.sig[i]->unit);
        mdf_chan(&n, nm, p->tx.sig[i]->unit, HS_MDF_F, 8);
    }
    mdf_chan(&n, "gmax", "", HS_MDF_F, 8);
    mdf_chan(&n, "in_seq", "", HS_MDF_U, 4);
    mdf_chan(&n, "fresh", "", HS_MDF_U, 1);
    mdf_chan(&n, "stale", "", HS_MDF_U, 1);
    mdf_chan(&n, "fault", "", HS_MDF_U, 1);
    mdf_chan(&n, "missed", "", HS_MDF_U, 8);
    mdf_chan(&n, "rejected", "", HS_MDF_U, 8);
    mdf_chan(&n, "faults", "", HS_MDF_U, 8);
    mdf_chan(&n, "tx_seq", "", HS_MDF_U, 4);
    mdf_chan(&n, "tx_flags", "", HS_MDF_U, 4);
    mdf_chan(&n, "err_est", "", HS_MDF_F, 8);
    if (hs_xcpp_nparams() >= 0) mdf_chan(&n, "xcp_cal", "", HS_MDF_U, 8);
    for (int i = 0; i < hs_xcpp_nparams(); ++i) {
        const char *unit = "";
        const char *pn = hs_xcpp_param(i, &unit);
        snprintf(nm, sizeof nm, "cal_%s[%s]", pn, unit);
        mdf_chan(&n, nm, unit, HS_MDF_F, 8);
    }
    return n;
}

/* One telemetry row as a record, in mdf_columns' order (logger thread; no allocation). */
static void mdf_row(const app *a, const tm_rec *rec)
{
    const hs_tm_row *r = &rec->r;
    const hs_plant *p = &a->plant;
    uint8_t buf[HS_MDF_MAX_RECORD], *w = buf;
    w = hs_mdf_put_u(w, r->tick, 8);
    w = hs_mdf_put_f64(w, r->t);
    w = hs_mdf_put_u(w, (uint64_t)r->planned_ns, 8);
    w = hs_mdf_put_u(w, (uint64_t)r->latency_ns, 8);
    w = hs_mdf_put_u(w, r->exec_ns, 4);
    w = hs_mdf_put_u(w, r->frame_ns, 4);
    for (int i = 0; i < p->d.nq; ++i) w = hs_mdf_put_f64(w, r->q[i]);
    for (int i = 0; i < p->d.nq; ++i) w = hs_mdf_put_f64(w, r->u[i]);
    for (int i = 0; i < p->d.nz; ++i) w = hs_mdf_put_f64(w, r->z[i]);
    for (int i = 0; i < p->d.nin; ++i) w = hs_mdf_put_f64(w, r->in[i]);
    for (int i = 0; i < p->d.nout; ++i) w = hs_mdf_put_f64(w, r->out[i]);
    w = hs_mdf_put_f64(w, r->gmax);
    w = hs_mdf_put_u(w, r->in_seq, 4);
    w = hs_mdf_put_u(w, (r->flags & HS_TMF_FRESH) != 0u, 1);
    w = hs_mdf_put_u(w, (r->flags & HS_TMF_STALE) != 0u, 1);
    w = hs_mdf_put_u(w, (r->flags & HS_TMF_FAULT) != 0u, 1);
    w = hs_mdf_put_u(w, r->missed, 8);
    w = hs_mdf_put_u(w, r->rejected, 8);
    w = hs_mdf_put_u(w, r->faults, 8);
    w = hs_mdf_put_u(w, r->tx_seq, 4);
    w = hs_mdf_put_u(w, r->tx_flags, 4);
    w = hs_mdf_put_f64(w, r->err_est);
    if (hs_xcpp_nparams() >= 0) w = hs_mdf_put_u(w, rec->cal_n, 8);
    for (int i = 0; i < hs_xcpp_nparams(); ++i) w = hs_mdf_put_f64(w, rec->cal[i]);
    (void)w;
    hs_mdf_add(&g_mdf, buf);
}

/* A write error of the MDF log, said once (like the CSV's). */
static void mdf_said(app *a)
{
    if (!g_mdf.err || a->mdf_said) return;
    a->mdf_said = 1;
    fprintf(stderr, "hilstep-rt: telemetry MDF %s: %s; %llu records written, later records lost\n",
            a->o.mdf, strerror(g_mdf.err), (unsigned long long)g_mdf.records);
}

static void mdf_flush(app *a)
{
    if (!a->mdf_on) return;
    (void)hs_mdf_flush(&g_mdf);
    mdf_said(a);
}

/* Opens the MDF log with the CSV's channels (before the threads start). 0, or -1 after a message. */
static int mdf_open(app *a)
{
    char group[64];
    struct timespec now;
    if (!a->o.mdf) return 0;
    clock_gettime(CLOCK_REALTIME, &now);
    snprintf(group, sizeof group, "hilstep-rt frames, period %.1f us", (double)a->o.period_ns / 1e3);
    const int e = hs_mdf_open(&g_mdf, a->o.mdf, g_mdf_ch, mdf_columns(a),
                              (int64_t)now.tv_sec * 1000000000 + now.tv_nsec, "hilstep-rt", group);
    if (e) {
        fprintf(stderr, "hilstep-rt: --log %s: %s\n", a->o.mdf,
                e == EOVERFLOW ? "the model's channels exceed the MDF writer's limits (hs_mdf.h)" : strerror(e));
        return -1;
    }
    a->mdf_on = 1;
    mdf_said(a);
    return 0;
}

static void *logger_thread(void *arg)
{
    app *a = (app *)arg;
    const hs_plant *p = &a->plant;
    static csvbuf c;
    static tm_rec rec;
    hs_tm_row r, last;
    int have = 0;
    int64_t lat_max = 0;
    uint32_t exec_max = 0;
    double g_max = 0.0;
    uint64_t last_fresh_tick = 0, warned_at = UINT64_MAX;
    const uint64_t silence_ticks = (uint64_t)(SILENCE_NS / a->o.period_ns);
    sigset_t ss;
    sigemptyset(&ss);
    sigaddset(&ss, SIGINT);
    sigaddset(&ss, SIGTERM);
    sigaddset(&ss, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &ss, NULL);

    if (a->csv_fd >= 0) {
        csv_header(a, &c);
        csv_flush(a, &c);
    }
    int64_t next_status = hs_now_ns() + 1000000000, next_flush = hs_now_ns() + FLUSH_NS;
    memset(&last, 0, sizeof last);
    for (;;) {
        /* Read the done flag before draining: if it was set, this drain sees every record. */
        int done = __atomic_load_n(&a->rt_done, __ATOMIC_ACQUIRE);
        while (hs_ring_pop(&a->ring, &rec) == 0) {
            r = rec.r;
            if (a->csv_fd >= 0) csv_row(a, &c, &rec);
            else a->rows_written++;
            if (a->mdf_on) mdf_row(a, &rec);
            if (r.latency_ns > lat_max) lat_max = r.latency_ns;
            if (r.exec_ns > exec_max) exec_max = r.exec_ns;
            if (!(r.gmax <= g_max)) g_max = r.gmax;
            if (r.flags & HS_TMF_FRESH) last_fresh_tick = r.tick;
            /* An ECU that never spoke, or fell silent, for a second: say so once per silence. */
            if (!(r.flags & HS_TMF_FRESH) && r.tick - last_fresh_tick >= silence_ticks &&
                warned_at != last_fresh_tick && p->d.nin > 0) {
                warned_at = last_fresh_tick;
                a->silences++;
                fprintf(stderr, "hilstep-rt: warning: no frame from the ECU at %s applied for "
                        "%.1f s (t = %.3f s): inputs on their fallbacks (%s = %g %s)\n",
                        peer_name(a),
                        (double)(r.tick - last_fresh_tick) * (double)a->o.period_ns * 1e-9,
                        r.t, p->rx.sig[0]->name, p->rx.sig[0]->fallback, p->rx.sig[0]->unit);
            }
            last = r;
            have = 1;
        }
        int64_t now = hs_now_ns();
        if (done || now >= next_flush) {
            csv_flush(a, &c);
            mdf_flush(a);
            next_flush = now + FLUSH_NS;
        }
        if (done) break;
        if (now >= next_status) {
            next_status += 1000000000;
            if (!a->o.quiet && have) {
                printf("t %7.3f s  frames %7llu  missed ticks %llu  overrun frames %llu  "
                       "latency max %.1f us  step max %.1f us  rejected %llu  max|g| %.1e",
                       last.t, (unsigned long long)(last.tick + 1u - last.missed),
                       (unsigned long long)last.missed,
                       (unsigned long long)__atomic_load_n(&p->overrun_frames, __ATOMIC_RELAXED),
                       (double)lat_max / 1e3, (double)exec_max / 1e3,
                       (unsigned long long)last.rejected, g_max);
                for (int i = 0; i < p->d.nout && i < 2; ++i)
                    printf("  %s %.6g %s", p->tx.sig[i]->name, last.out[i], p->tx.sig[i]->unit);
                if (last.flags & HS_TMF_STALE) printf("  [inputs stale]");
                if (last.faults) printf("  [refused steps %llu]", (unsigned long long)last.faults);
                printf("\n");
                fflush(stdout);
            }
        }
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
    }
    if (a->csv_fd >= 0) {
        if (fsync(a->csv_fd) != 0 && errno != EINVAL && errno != EROFS && !a->log_error) a->log_error = errno;
        if (close(a->csv_fd) != 0 && !a->log_error) a->log_error = errno;
        a->csv_fd = -1;
    }
    if (a->mdf_on) {
        (void)hs_mdf_close(&g_mdf);
        mdf_said(a);
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

static double budget_ns(const app *a)
{
    return a->o.budget_us > 0 ? a->o.budget_us * 1e3 : (double)a->o.period_ns;
}

/* Latency means something on a hard real-time run (PREEMPT_RT kernel, SCHED_FIFO and mlockall
 * granted) or where the user asked for a judgement (--budget-us, --require-rt); elsewhere the
 * worst frame measures the machine, not the loop, and is reported unjudged. 1 when judged,
 * else 0 with the reason in why (cap bytes; why may be NULL). */
static int latency_judged(const app *a, char *why, size_t cap)
{
    if (why && cap) why[0] = '\0';
    if (a->o.budget_given || a->o.require_rt || hs_rt_is_hard(&a->rtr)) return 1;
    if (why) hs_rt_why(&a->rtr, why, cap);
    return 0;
}

static int budget_failed(const app *a)
{
    if (!latency_judged(a, NULL, 0)) return 0;
    if (a->o.require_rt && !hs_rt_is_hard(&a->rtr)) return 1; /* asked for, not granted */
    return a->plant.frames > 0 && (double)a->worst_frame_ns > budget_ns(a);
}

static int output_lost(const app *a)
{
    return a->log_error != 0 || a->rows_lost > 0 || hs_ring_drops(&a->ring) > 0 ||
           (a->mdf_on && (g_mdf.err != 0 || g_mdf.lost > 0)) ||
           a->stats.err != 0 || a->hist.err != 0;
}

/* hs_tp_kv onto a kv_fn and its file. */
typedef struct tp_ctx { FILE *f; kv_fn kv; } tp_ctx;
static void tp_kv(void *ctx, const char *key, double v, const char *note)
{
    const tp_ctx *c = (const tp_ctx *)ctx;
    c->kv(c->f, key, v, note);
}

/* One "key value, " item of the console summary's transport line. */
static void tp_kv_short(void *ctx, const char *key, double v, const char *note)
{
    (void)note;
    printf("%s%s %.0f", *(int *)ctx ? ", " : "", key, v);
    *(int *)ctx = 1;
}

static void report(FILE *f, kv_fn kv, const app *a, int exit_code)
{
    const hs_plant *p = &a->plant;
    const hs_rx_stats *s = &p->rx.st;
    char key[64];
    const uint64_t ticks = p->frames ? p->last_tick + 1u : 0u;
    kv(f, "frames", (double)p->frames, "");
    kv(f, "ticks", (double)ticks, "");
    kv(f, "overrun_frames", (double)p->overrun_frames, "(frames that ended after the next deadline)");
    kv(f, "missed_ticks", (double)p->missed_ticks, "(deadlines that got no frame)");
    kv(f, "step_faults", (double)p->faults, "(refused steps)");
    kv(f, "step_fault_run_max", (double)p->fault_run_max, "(longest run of refused steps)");
    kv(f, "step_faults_output", (double)(p->out_nonfinite + p->out_range), "(of those: outputs NaN/Inf or out of range)");
    kv(f, "sim_time", (double)p->st.t, "s");
    kv(f, "time_base", (double)ticks * (double)a->o.period_ns * 1e-9, "s");
    kv(f, "latency_min", (double)a->lat.min / 1e3, "us");
    kv(f, "latency_avg", hs_hist_mean(&a->lat) / 1e3, "us");
    kv(f, "latency_p50", (double)hs_hist_quantile(&a->lat, 0.5) / 1e3, "us");
    kv(f, "latency_p99", (double)hs_hist_quantile(&a->lat, 0.99) / 1e3, "us");
    kv(f, "latency_p999", (double)hs_hist_quantile(&a->lat, 0.999) / 1e3, "us");
    kv(f, "latency_max", (double)a->lat.max / 1e3, "us");
    kv(f, "latency_overflows", (double)a->lat.overflow, "(> 10 ms)");
    kv(f, "frame_latency_max", (double)a->worst_frame_ns / 1e3, "us (planned wake-up to outputs sent)");
    kv(f, "budget", budget_ns(a) / 1e3, "us");
    kv(f, "step_min", (double)a->exec.min / 1e3, "us");
    kv(f, "step_median", (double)hs_hist_quantile(&a->exec, 0.5) / 1e3, "us");
    kv(f, "step_p99", (double)hs_hist_quantile(&a->exec, 0.99) / 1e3, "us");
    kv(f, "step_p999", (double)hs_hist_quantile(&a->exec, 0.999) / 1e3, "us");
    kv(f, "step_max", (double)a->exec.max / 1e3, "us");
    kv(f, "step_p999_over_median",
       (double)hs_hist_quantile(&a->exec, 0.999) /
           (double)(hs_hist_quantile(&a->exec, 0.5) ? hs_hist_quantile(&a->exec, 0.5) : 1), "");
    kv(f, "rx_datagrams", (double)s->datagrams, "");
    kv(f, "rx_accepted", (double)s->accepted, "");
    kv(f, "rx_used", (double)s->used, "");
    kv(f, "rx_superseded", (double)s->superseded, "");
    kv(f, "rx_unapplied", (double)s->unapplied, "(accepted after the last frame)");
    for (int r = 1; r < HS_RX_REASONS; ++r) {
        snprintf(key, sizeof key, "rx_rej_%s", hs_rx_reason_name(r));
        kv(f, key, (double)s->rejected[r], "");
    }
    kv(f, "rx_rejected", (double)hs_rx_rejected_total(&p->rx), "");
    kv(f, "rx_after_final", (double)a->rx_after_final, "(drained after the FINAL frame, counted above)");
    kv(f, "rx_clamped_values", (double)s->clamped, "");
    kv(f, "rx_seq_gaps", (double)s->seq_gaps, "");
    kv(f, "rx_peer_restarts", (double)s->peer_restarts, "");
    kv(f, "rx_peer_returns", (double)s->peer_returns, "(a left stream came back)");
    kv(f, "rx_stale_ticks", (double)s->stale_frames, "(inputs on fallback)");
    kv(f, "rx_silence_warnings", (double)a->silences, "(1 s without an ECU frame)");
    kv(f, "rx_seq_resyncs", (double)s->seq_resyncs, "");
    kv(f, "tx_frames", (double)p->tx.frames, "(frames of FRAME.md built)");
    {
        /* The transport's own counters (udp: kernel drops, send errors; can: per-reason). */
        tp_ctx c = {f, kv};
        a->tp.ops->counters(&a->tp, tp_kv, &c);
    }
    kv(f, "telemetry_rows", (double)a->rows_written, "(complete rows in the CSV)");
    kv(f, "telemetry_lost", (double)a->rows_lost, "(rows a write error lost)");
    kv(f, "telemetry_drops", (double)hs_ring_drops(&a->ring), "(ring full)");
    if (a->mdf_on) {
        kv(f, "telemetry_mdf_records", (double)g_mdf.records, "(complete records in the MDF log)");
        kv(f, "telemetry_mdf_lost", (double)g_mdf.lost, "(records a write error lost)");
    }
    kv(f, "max_abs_g", p->gmax, "");
    for (int i = 0; i < p->d.nout; ++i) {
        snprintf(key, sizeof key, "final_%s", p->tx.sig[i]->name);
        kv(f, key, p->safe ? p->tx.sig[i]->fallback : (double)p->y[i], p->tx.sig[i]->unit);
    }
    {
        /* the link's health (hil/hs_health.h): the verdict's class, then per input */
        const hs_health *h = &a->health;
        kv(f, "link_class", (double)hs_health_judge(h, &p->rx), "(0 ok, 1 rejected, 2 ECU never heard, 3 input on fallback)");
        kv(f, "link_up", (double)h->up, "(1 once an ECU frame was applied)");
        kv(f, "link_startup_ticks", (double)h->up_tick, "(ticks before the first ECU frame: the start-up allowance)");
        kv(f, "link_rejected_judged", (double)hs_health_rejected(&p->rx), "(rejections that count against --max-rejected)");
        kv(f, "link_silence_max_ticks", (double)h->silence_max, "(longest run of ticks without an ECU frame after link up)");
        kv(f, "link_silences", (double)h->silences, "(silences that put an input on its fallback)");
        for (unsigned i = 0; i < h->n; ++i) {
            snprintf(key, sizeof key, "fallback_ticks_%s", p->rx.sig[i]->name);
            kv(f, key, (double)h->fallback[i], "(on its fallback after link up)");
            snprintf(key, sizeof key, "stale_ticks_%s", p->rx.sig[i]->name);
            kv(f, key, (double)h->stale[i], "(no fresh value after link up)");
            snprintf(key, sizeof key, "startup_fallback_ticks_%s", p->rx.sig[i]->name);
            kv(f, key, (double)h->startup_fallback[i], "(on its fallback before the first ECU frame)");
        }
    }
    kv(f, "hard_realtime", (double)hs_rt_is_hard(&a->rtr), "");
    kv(f, "latency_judged", (double)latency_judged(a, NULL, 0), "(hard real-time, --budget-us or --require-rt)");
    kv(f, "budget_ok", (double)!budget_failed(a), "");
    kv(f, "exit_code", (double)exit_code, "");
}

/* The console summary: a dozen lines named after the stats keys (--stats has every one). */
static void summary(const app *a)
{
    const hs_plant *p = &a->plant;
    const hs_rx_stats *s = &p->rx.st;
    const uint64_t ticks = p->frames ? p->last_tick + 1u : 0u;
    printf("  frames %llu stepped of %llu ticks: missed_ticks %llu, overrun_frames %llu; sim_time "
           "%.3f s, time_base %.3f s\n", (unsigned long long)p->frames, (unsigned long long)ticks,
           (unsigned long long)p->missed_ticks, (unsigned long long)p->overrun_frames,
           (double)p->st.t, (double)ticks * (double)a->o.period_ns * 1e-9);
    printf("  step time: median %.2f us, p99.9 %.2f us, max %.2f us; step_faults %llu (refused "
           "steps); max_abs_g %.2e\n", (double)hs_hist_quantile(&a->exec, 0.5) / 1e3,
           (double)hs_hist_quantile(&a->exec, 0.999) / 1e3, (double)a->exec.max / 1e3,
           (unsigned long long)p->faults, p->gmax);
    printf("  ECU link: rx_datagrams %llu = rx_accepted %llu (used %llu, superseded %llu, "
           "unapplied %llu) + rx_rejected %llu\n", (unsigned long long)s->datagrams,
           (unsigned long long)s->accepted, (unsigned long long)s->used,
           (unsigned long long)s->superseded, (unsigned long long)s->unapplied,
           (unsigned long long)hs_rx_rejected_total(&p->rx));
    if (hs_rx_rejected_total(&p->rx)) {
        printf("    rejected:");
        for (int r = 1; r < HS_RX_REASONS; ++r)
            if (s->rejected[r]) printf(" %s %llu", hs_rx_reason_name(r), (unsigned long long)s->rejected[r]);
        printf("\n");
    }
    {
        const hs_health *h = &a->health;
        if (h->up) printf("    per input after link up (first ECU frame at tick %llu): ", (unsigned long long)h->up_tick);
        else printf("    per input: no ECU frame applied, link never up: ");
        for (unsigned i = 0; i < h->n; ++i)
            printf("%s%s fallback %llu, stale %llu", i ? "; " : "", p->rx.sig[i]->name,
                   (unsigned long long)h->fallback[i], (unsigned long long)h->stale[i]);
        printf("%s; longest silence %llu ticks\n", h->n ? "" : "no inputs", (unsigned long long)h->silence_max);
    }
    printf("    clamped values %llu, stale ticks %llu, seq gaps %llu, peer restarts %llu; "
           "tx_frames %llu\n", (unsigned long long)s->clamped,
           (unsigned long long)s->stale_frames, (unsigned long long)s->seq_gaps,
           (unsigned long long)s->peer_restarts, (unsigned long long)p->tx.frames);
    {
        int any = 0;
        printf("    transport %s: ", a->tp.ops->name);
        a->tp.ops->counters(&a->tp, tp_kv_short, &any);
        printf("\n");
    }
    printf("  telemetry_rows %llu (lost %llu, ring drops %u)\n", (unsigned long long)a->rows_written,
           (unsigned long long)a->rows_lost, hs_ring_drops(&a->ring));
    printf("  outputs at the end:");
    for (int i = 0; i < p->d.nout; ++i)
        printf(" %s %.6g %s%s", p->tx.sig[i]->name,
               p->safe ? p->tx.sig[i]->fallback : (double)p->y[i], p->tx.sig[i]->unit,
               i + 1 < p->d.nout ? "," : "");
    printf("%s\n", p->safe ? " (safe values)" : "");
    printf("  every counter: %s\n", a->o.stats ? a->o.stats : "--stats FILE, or --verbose");
}

/* Writes the stats or histogram file opened at start; every write checked. */
static void outfile_finish(outfile *o)
{
    if (!o->f) return;
    if ((ferror(o->f) || fflush(o->f) != 0) && !o->err) o->err = errno ? errno : EIO;
    if (fclose(o->f) != 0 && !o->err) o->err = errno ? errno : EIO;
    o->f = NULL;
}

static int outfile_open(outfile *o, const char *path, const char *opt)
{
    o->path = path;
    o->err = 0;
    o->f = NULL;
    if (!path) return 0;
    o->f = strcmp(path, "-") ? fopen(path, "w") : stdout;
    if (!o->f) {
        fprintf(stderr, "hilstep-rt: %s %s: %s\n", opt, path, strerror(errno));
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------- model ---- */

/* Model selection: by name from the registry (hs_plant_model_by_name), then the --param
 * values. The plant takes any initialized hs_model, so a model built from a description file
 * plugs in here as well. */
/* The signal map of a --model-file that declares its signals, else NULL (generic map). */
static const hs_signal_map *g_mb_map;
/* --param NAME=VALUE replace the description's params (at file scope with g_mb_map: the
 * application fuzz harness, test/fuzz/fuzz_rtapp.c, starts each run with both zeroed). */
static hs_mb_overrides g_mb_ovr;

static int select_model(app *a, char *why, size_t cap)
{
    static hs_mb_store mb_store; /* --model-file: the description and its compiled tables */
    static hs_mb_model mb_model;
    hs_status rc;
    if (a->o.model_file) {
        static hs_mb_sigmap sigmap;
        for (int i = 0; i < a->o.nparams; ++i) {
            const char *bad = "";
            if (hs_mb_override_add(&g_mb_ovr, a->o.pname[i], a->o.pval[i], &bad)) {
                snprintf(why, cap, "--param %s: %s", a->o.pname[i], bad);
                return HS_MB_EXIT_BAD;
            }
        }
        if (hs_mb_load_file_ovr(a->o.model_file, &mb_store, &g_mb_ovr, &mb_model, HS_MB_PACK_AUTO, why, cap))
            return HS_MB_EXIT_BAD; /* HS_EXIT_SETUP, as from hilstep-sim and hilstep-mbgen */
        g_mb_map = hs_mb_signal_map(&mb_store, &mb_model, &sigmap); /* the file's own signal map */
        rc = hs_plant_model_init(&a->model, &mb_model.type, &a->pblock, sizeof a->pblock, why, cap);
        a->model.desc = &mb_model;
    } else {
        rc = hs_plant_model_by_name(&a->model, &a->pblock, sizeof a->pblock, a->o.model, why, cap);
    }
    if (rc != HS_OK) return hs_exit_of(HS_TOOL_PLANT, rc);
    for (int i = 0; i < a->o.nparams && !a->o.model_file; ++i) {
        int r = hs_model_set_param(&a->model, a->o.pname[i], (hs_real)a->o.pval[i]);
        if (r != HS_OK) {
            snprintf(why, cap, "--param %s=%g: %s", a->o.pname[i], a->o.pval[i], hs_status_str(r));
            return HS_EXIT_USAGE;
        }
    }
    int r = hs_model_check(&a->model);
    if (r != HS_OK) {
        snprintf(why, cap, "model %s: %s", a->model.type->name, hs_status_str(r));
        return HS_EXIT_USAGE;
    }
    return HS_EXIT_OK;
}

/* bus_map: the transport brought the map (a DBC's), so its scaling is the DBC's. */
static void print_signals(const hs_signal_map *map, const options *o, int bus_map)
{
    if (bus_map)
        printf("signal map %s from %s (CAN: raw * factor + offset as the DBC says, hil/CAN.md; "
               "stale in periods)\n", map->app, o->dbc);
    else
        printf("signal map %s (engineering = wire * scale + offset; frame: hil/FRAME.md)\n", map->app);
    printf("%-4s %-3s %-16s %-6s %8s %8s %10s %10s %9s %6s\n", "dir", "#", "name", "unit",
           "scale", "offset", "min", "max", "fallback", "stale");
    for (int dir = 0; dir < 2; ++dir) {
        int idx = 0;
        for (int i = 0; i < map->n; ++i) {
            const hs_signal *sg = &map->sig[i];
            if ((int)sg->dir != dir) continue;
            printf("%-4s %-3d %-16s %-6s %8g %8g %10g %10g %9g ", dir ? "out" : "in", idx++,
                   sg->name, sg->unit, sg->scale, sg->offset, sg->min, sg->max, sg->fallback);
            if (dir == 0) printf("%6u\n", sg->stale_limit); else printf("%6s\n", "-");
        }
    }
}

static int64_t clock_ns(void) { return hs_now_ns(); }

/* -------------------------------------------------------------------------- main ---- */

/* Built with -DHS_RT_NO_MAIN, the file is the CLI fuzz harness' library (test/fuzz/fuzz_rtcli.c
 * includes it): parse_options and select_model without a process around them. */
#ifndef HS_RT_NO_MAIN
/* The plant's definition from the options: the stepper (h the period), the fault and
 * overrun policies, a fresh session, the test switches, the description's own map. */
static hs_plant_def plant_def(const app *a)
{
    hs_plant_def def = hs_plant_default_def();
    def.step.method = a->o.method;
    def.step.form = a->o.form;
    def.step.stab = ((a->o.stab_given == 0) && (hs_method_own_stab(a->o.method) != 0)) ? HS_STAB_NONE : a->o.stab;
    def.step.h = (hs_real)((double)a->o.period_ns * 1e-9);
    def.step.alpha = HS_R(1.0) / def.step.h;
    def.step.beta = def.step.alpha * def.step.alpha;
    def.step.reg_eps = (hs_real)a->o.compliance;
    def.step.reg_damp = (hs_real)a->o.damping;
    def.step.spook_eps = (hs_real)a->o.spook_eps;
    if (a->o.spook_tau > 0) def.step.spook_tau_h = (hs_real)(a->o.spook_tau / ((double)a->o.period_ns * 1e-9));
    def.fault_hold = (uint32_t)a->o.fault_hold;
    def.overrun_stop = a->o.policy_stop;
    def.session = (uint32_t)((uint64_t)hs_now_ns() ^ ((uint64_t)getpid() << 16));
    def.clock_ns = clock_ns;
    def.inject_fault_tick = a->o.fault_tick;
    def.inject_fault_frames = (uint32_t)a->o.fault_frames;
    if (g_mb_map != NULL) def.map = g_mb_map;
    return def;
}

/* The transport named by --transport, opened with the run's and the user's options (every
 * option the user gave must be read by it). HS_OK, HS_E_USAGE, HS_E_DBC or HS_E_SETUP after the
 * message; nothing is left open on a refusal. */
static hs_status open_transport(app *a)
{
    a->tp.ops = hs_transport_find(hs_transports, a->o.transport);
    if (!a->tp.ops) {
        fprintf(stderr, "hilstep-rt: unknown transport '%s';", a->o.transport);
        hs_transports_names(stderr, " known:");
        fprintf(stderr, "\n");
        return HS_E_USAGE;
    }
    if (!a->tp.ops->frame && a->o.key) {
        fprintf(stderr, "hilstep-rt: --key authenticates the frame of hil/FRAME.md; transport %s "
                "does not carry it\n", a->tp.ops->name);
        return HS_E_USAGE;
    }
    hs_tp_cfg tc;
    memset(&tc, 0, sizeof tc);
    tc.prog = "hilstep-rt";
    tc.period_us = (uint32_t)(a->o.period_ns / 1000);
    tc.rx_kind = HS_FRAME_KIND_TO_PLANT;
    tc.tx_kind = HS_FRAME_KIND_FROM_PLANT;
    tc.map = a->plant.map;
    tc.rcvbuf = 1 << 20;
    tc.map_only = a->o.list_signals;
    (void)hs_tp_opt_add(&tc, "listen", a->o.listen);
    (void)hs_tp_opt_add(&tc, "peer", a->o.peer);
    (void)hs_tp_opt_add(&tc, "auth", a->o.no_auth ? "off" : "on"); /* CAN: the DBC's SecOC checked or not */
    /* listen and peer are every run's (UDP's defaults); what the user gave for the transport
     * from here on must be read by it, else it is a mistake (e.g. --dbc with udp). */
    uint32_t tp_read = 0;
    const int tp_user = tc.nopt;
    tc.read = &tp_read;
    if (a->o.can_if) (void)hs_tp_opt_add(&tc, "can-if", a->o.can_if);
    if (a->o.dbc) (void)hs_tp_opt_add(&tc, "dbc", a->o.dbc);
    for (int i = 0; i < a->o.ntopt; ++i) (void)hs_tp_opt_add(&tc, a->o.tkey[i], a->o.tval[i]);
    if (a->o.period_ns % 1000 != 0 && !a->tp.ops->frame) { /* cfg.period_us carries the period */
        fprintf(stderr, "hilstep-rt: --transport %s needs a whole number of microseconds as period\n",
                a->tp.ops->name);
        return HS_E_USAGE;
    }
    /* open() names what failed in terr; main maps the status to the exit (hs_exit_of) */
    hs_tp_error terr;
    const hs_status rc = a->tp.ops->open(&a->tp, &tc, &terr);
    if (rc != HS_OK) {
        fprintf(stderr, "hilstep-rt: %s\n", terr.msg);
        return rc;
    }
    const int unread = hs_tp_opt_unread(&tc, tp_user, tp_read);
    if (unread >= 0) {
        fprintf(stderr, "hilstep-rt: transport %s has no option %s (its options: %s)\n",
                a->tp.ops->name, tc.key[unread], a->tp.ops->usage);
        a->tp.ops->close(&a->tp);
        return HS_E_USAGE;
    }
    return HS_OK;
}

/* The plant on the model, then (when the transport brought its own map, CAN: the DBC's bound
 * to the names of the map just checked) again on that map. HS_OK, or the plant's refusal
 * after the message (the transport closed). */
static hs_status start_plant(app *a, hs_plant_def *def, char *why, size_t cap)
{
    hs_plant *p = &a->plant;
    hs_status rc = hs_plant_initialize(p, def, &a->model, g_reals, sizeof g_reals / sizeof g_reals[0],
                                       g_ints, sizeof g_ints / sizeof g_ints[0], why, cap);
    if (rc != HS_OK) {
        fprintf(stderr, "hilstep-rt: model %s (%s/%s/%s, h = %g s): %s\n", a->model.type->name,
                hs_method_name(def->step.method), hs_form_name(def->step.form),
                hs_stab_name(def->step.stab), (double)def->step.h, why);
        return rc;
    }
    rc = open_transport(a);
    if (rc != HS_OK || !a->tp.map) return rc;
    def->map = a->tp.map;
    rc = hs_plant_initialize(p, def, &a->model, g_reals, sizeof g_reals / sizeof g_reals[0],
                             g_ints, sizeof g_ints / sizeof g_ints[0], why, cap);
    if (rc != HS_OK) {
        fprintf(stderr, "hilstep-rt: model %s with the map of transport %s: %s\n",
                a->model.type->name, a->tp.ops->name, why);
        a->tp.ops->close(&a->tp);
    }
    return rc;
}

static hs_auth link_auth(const options *o)
{
    return o->no_auth ? HS_AUTH_NONE : o->key ? HS_AUTH_FILE : HS_AUTH_DEFAULT;
}

/* The link (sessions, sequence numbers and the MAC belong to the frame of FRAME.md: only a
 * transport that carries it takes --key; a CAN frame has no room for a MAC), then every output
 * file: a bad path or a directory fails the start. HS_OK, or HS_E_SETUP (transport closed). */
static hs_status open_outputs(app *a)
{
    hs_plant *p = &a->plant;
    static hs_mac mac;
    if (a->tp.ops->frame && hs_link_setup(&p->rx, &p->tx, &mac, link_auth(&a->o), a->o.key, a->o.takeover_ms,
                                          a->o.period_ns, "hilstep-rt", "ECU") != 0) {
        a->tp.ops->close(&a->tp);
        return HS_E_SETUP;
    }
    if (a->o.log[0]) {
        a->csv_fd = open(a->o.log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (a->csv_fd < 0) {
            fprintf(stderr, "hilstep-rt: --log %s: %s\n", a->o.log, strerror(errno));
            a->tp.ops->close(&a->tp);
            return HS_E_SETUP;
        }
    }
    if (outfile_open(&a->stats, a->o.stats, "--stats") || outfile_open(&a->hist, a->o.hist, "--hist")) {
        a->tp.ops->close(&a->tp);
        return HS_E_SETUP;
    }
    return HS_OK;
}

/* The run: ring and histograms, signal handlers, memory locked, the start lines, then the
 * logger and the real-time thread until both are done. HS_OK, or HS_E_SETUP when a thread
 * could not start. */
static hs_status run_threads(app *a, const hs_plant_def *def)
{
    hs_plant *p = &a->plant;
    /* a record is the row plus the params XCP calibrates (none without --xcp): the real-time
     * thread copies only what the logger reads */
    const int npar = hs_xcpp_nparams();
    hs_ring_init(&a->ring, g_ring_store, RING_CAP,
                 (uint32_t)(offsetof(tm_rec, cal) + (size_t)(npar > 0 ? npar : 0) * sizeof(double)));
    hs_health_init(&a->health, &p->rx, &a->o.link);
    hs_hist_init(&a->lat, g_lat_bins, LAT_BINS, 1000);
    hs_hist_init(&a->exec, g_exec_bins, EXEC_BINS, 10);
    a->ticks_total = a->o.duration > 0
        ? (uint64_t)(a->o.duration * 1e9 / (double)a->o.period_ns + 0.5) : 0u;

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);

    /* Lock before the threads exist so their stacks and our static arrays are resident. */
    hs_rt_lock_memory(&a->rtr);
    printf("hilstep-rt: model %s (signal map %s: %d in, %d out), %s/%s/%s (path %s), period %.1f us, "
           "%s\n", a->model.type->name, p->map->app, p->d.nin, p->d.nout,
           hs_method_name(def->step.method), hs_form_name(def->step.form),
           hs_stab_name(def->step.stab), hs_stepper_path(&p->st), (double)a->o.period_ns / 1e3, a->tp.desc);
    if (a->o.duration > 0)
        printf("hilstep-rt: %llu frames (%.3f s), latency budget %.1f us\n",
               (unsigned long long)a->ticks_total, a->o.duration, budget_ns(a) / 1e3);
    else
        printf("hilstep-rt: until SIGINT/SIGTERM/SIGHUP, latency budget %.1f us\n", budget_ns(a) / 1e3);
    if (a->o.log[0]) printf("hilstep-rt: telemetry CSV %s\n", a->o.log);
    if (a->mdf_on) printf("hilstep-rt: telemetry MDF %s (ASAM MDF 4.1)\n", a->o.mdf);

    pthread_t rt, lg;
    int e = hs_thread_start(&lg, logger_thread, a, 256u * 1024u, &a->rtr);
    if (e) {
        fprintf(stderr, "hilstep-rt: logger thread: %s\n", strerror(e));
        a->tp.ops->close(&a->tp);
        return HS_E_SETUP;
    }
    e = hs_rt_thread_start(&rt, rt_thread, a, a->o.prio, a->o.cpu, &a->rtr);
    if (e) {
        fprintf(stderr, "hilstep-rt: real-time thread: %s\n", strerror(e));
        __atomic_store_n(&a->rt_done, 1, __ATOMIC_RELEASE);
        pthread_join(lg, NULL);
        a->tp.ops->close(&a->tp); /* as on every other refusal: nothing left open */
        return HS_E_SETUP;
    }
    hs_rt_print(&a->rtr, stdout);
    pthread_join(rt, NULL);
    pthread_join(lg, NULL);
    a->tp.ops->close(&a->tp);
    return HS_OK;
}

/* --xcp and --a2l: the XCP slave over the plant (port/linux-rt/hs_xcp_port.h) and its A2L. */
static hs_status start_xcp(app *a)
{
    const hs_xcpp_cfg c = {a->o.xcp, &a->plant, &a->model, a->o.model_file,
                           (const char (*)[64])a->o.pname, a->o.pval, a->o.nparams, a->o.period_ns};
    if (hs_xcpp_open(&c) != 0 || (a->o.a2l && hs_xcpp_write_a2l(a->o.a2l, a->model.type->name) != 0)) {
        hs_xcpp_close();
        a->tp.ops->close(&a->tp);
        return HS_E_SETUP;
    }
    return HS_OK;
}

/* The run's exit status: the plant's own outcome (its codes 3..8 come first), then the ECU
 * link's health (9..11, hil/hs_health.h). */
static int exit_code(const app *a, int lost)
{
    const int code = hs_plant_exit_code(&a->plant, lost, budget_failed(a));
    if (code != HS_EXIT_OK) return code;
    /* a transport that refused frames as not from the link's peer (CAN E2E, hil/CAN.md
     * "Security") fails the link as a forged frame does */
    if (a->tp.link_alarms) return hs_exit_of(HS_TOOL_PLANT, HS_E_LINK);
    const int link = hs_exit_of(HS_TOOL_PLANT, hs_health_status(hs_health_judge(&a->health, &a->plant.rx)));
    if (link != HS_EXIT_OK) return link;
    return hs_exit_of(HS_TOOL_PLANT, hs_health_accuracy((double)a->plant.st.stats.err_est, a->o.link.tol));
}

/* After the run: histogram first (its errors belong in the stats), then stats; the exit
 * status of the run (hil/hs_exit.h) as the plant and the port's outputs decide it. */
static int write_files(app *a)
{
    if (a->hist.f) {
        print_hist(a->hist.f, &a->lat, 0);
        if (a->hist.f == stdout) { fflush(stdout); a->hist.f = NULL; }
        else outfile_finish(&a->hist);
    }
    int code = exit_code(a, output_lost(a));
    if (a->stats.f) {
        report(a->stats.f, kv_plain, a, code);
        hs_xcpp_report(a->stats.f, 0);
        outfile_finish(&a->stats);
        if (a->stats.err) code = exit_code(a, 1);
    }
    return code;
}

/* The verdict's word on the link: unauthenticated, or the attacks its MAC and challenge refused. */
static const char *link_note(const app *a, char *buf, size_t cap)
{
    const hs_rx_stats *s = &a->plant.rx.st;
    buf[0] = '\0';
    if (a->tp.ops->frame && !a->plant.rx.mac)
        snprintf(buf, cap, "; link unauthenticated (--no-auth)");
    else if (!a->tp.ops->frame && a->o.no_auth)
        snprintf(buf, cap, "; link unauthenticated (--no-auth: the DBC's SecOC not checked, a forged command is applied)");
    else if (s->rejected[HS_RX_MAC] || s->rejected[HS_RX_OLD_RUN])
        snprintf(buf, cap, "; link attacked: %llu forged or wrong-key frames (bad_mac), %llu "
                 "replayed from an earlier run (old_run), all refused",
                 (unsigned long long)s->rejected[HS_RX_MAC],
                 (unsigned long long)s->rejected[HS_RX_OLD_RUN]);
    return buf;
}

/* The console summary, ending with the verdict: one line a person and a CI job can act on. */
static void print_end(const app *a, int code)
{
    char note[256];
    const hs_plant *p = &a->plant;
    const char *how = g_stop ? (g_signal == SIGHUP ? "stopped by SIGHUP" : g_signal == SIGINT
                                ? "stopped by SIGINT" : "stopped by signal")
                    : p->stop == HS_PLANT_STOP_OVERRUN ? "stopped by overrun policy"
                    : p->stop == HS_PLANT_STOP_FAULT ? "stopped: refused steps, fault hold exhausted"
                    : "complete";
    printf("summary (%s)%s\n", how,
           hs_rt_is_hard(&a->rtr) ? "" : " - NOT hard real-time, see rt: lines above");
    if (a->o.verbose) report(stdout, kv_pretty, a, code);
    else summary(a);
    hs_xcpp_report(stdout, 1);
    if (p->missed_ticks)
        printf("  note: sim_time trails time_base by the %llu missed ticks (never stepped back "
               "to back)\n", (unsigned long long)p->missed_ticks);
    if (p->faults) printf("  last step fault: %s\n", hs_plant_fault_str(p->last_fault));
    if (a->tp.link_alarms)
        fprintf(stderr, "hilstep-rt: link: %llu frames refused by the E2E check (a second sender on "
                "the ECU's ids, a replay or corruption; can_e2e_* counters), never applied\n",
                (unsigned long long)a->tp.link_alarms);
    if (a->log_error) printf("  telemetry CSV error: %s\n", strerror(a->log_error));
    if (a->stats.err) fprintf(stderr, "hilstep-rt: --stats %s: %s\n", a->stats.path, strerror(a->stats.err));
    if (a->hist.err) fprintf(stderr, "hilstep-rt: --hist %s: %s\n", a->hist.path, strerror(a->hist.err));
    printf("latency (wake-up minus plan): min %.1f  p50 %.0f  p99 %.0f  p99.9 %.0f  max %.1f us",
           (double)a->lat.min / 1e3, (double)hs_hist_quantile(&a->lat, 0.5) / 1e3,
           (double)hs_hist_quantile(&a->lat, 0.99) / 1e3,
           (double)hs_hist_quantile(&a->lat, 0.999) / 1e3, (double)a->lat.max / 1e3);
    if (a->o.hist && strcmp(a->o.hist, "-")) printf("; 1 us bins (cyclictest -h format): %s", a->o.hist);
    else if (!a->o.hist) printf("; --hist FILE for the 1 us bins");
    printf("\n");
    if (a->o.log[0]) printf("telemetry CSV: %s (%llu rows, %llu lost, %u dropped)\n", a->o.log,
                            (unsigned long long)a->rows_written, (unsigned long long)a->rows_lost,
                            hs_ring_drops(&a->ring));
    if (a->mdf_on) printf("telemetry MDF: %s (%llu records, %llu lost%s%s)\n", a->o.mdf,
                          (unsigned long long)g_mdf.records, (unsigned long long)g_mdf.lost,
                          g_mdf.err ? ": " : "", g_mdf.err ? strerror(g_mdf.err) : "");
    char link[320], notj[160];
    hs_health_line(&a->health, &p->rx, "ECU", (uint32_t)(a->o.period_ns / 1000), link, sizeof link);
    printf("verdict: %s %s; ", code == HS_EXIT_OK ? "PASS" : "FAIL", link);
    if (!latency_judged(a, notj, sizeof notj))
        printf("latency not judged: %s (worst frame %.1f us at tick %llu, budget %.1f us; "
               "--budget-us or --require-rt judges it)", notj, (double)a->worst_frame_ns / 1e3,
               (unsigned long long)a->worst_frame_tick, budget_ns(a) / 1e3);
    else if (a->o.require_rt && !hs_rt_is_hard(&a->rtr)) {
        hs_rt_why(&a->rtr, notj, sizeof notj);
        printf("--require-rt: not hard real-time (%s), worst frame %.1f us", notj,
               (double)a->worst_frame_ns / 1e3);
    } else
        printf("worst frame %.1f us (tick %llu, planned wake-up to outputs sent) %s budget %.1f us",
               (double)a->worst_frame_ns / 1e3, (unsigned long long)a->worst_frame_tick,
               budget_failed(a) ? ">" : "<=", budget_ns(a) / 1e3);
    char tol[32];
    if (a->o.link.tol > 0) snprintf(tol, sizeof tol, "%.3g", a->o.link.tol);
    else snprintf(tol, sizeof tol, "off");
    printf("; %llu missed ticks; %llu refused steps; err_est %.2e %s --tol %s; output %s%s -> exit %d (%s)\n",
           (unsigned long long)p->missed_ticks, (unsigned long long)p->faults,
           (double)p->st.stats.err_est, hs_health_accuracy((double)p->st.stats.err_est, a->o.link.tol)
           == HS_OK ? "<=" : ">", tol,
           output_lost(a) ? "LOST" : "complete", link_note(a, note, sizeof note), code,
           hs_exit_text(code));
}

int main(int argc, char **argv)
{
    app *a = &A;
    char why[512];
    setvbuf(stdout, NULL, _IOLBF, 0);
    /* A file-size limit (ulimit -f) fails the write with EFBIG, handled like a full disk
     * (rows cut back, summary, exit 5), instead of killing the run without either. */
    signal(SIGXFSZ, SIG_IGN);
    a->csv_fd = -1;
    const int parsed = parse_options(argc, argv, &a->o, why, sizeof why);
    if (parsed != 0) {
        if (parsed > 0) usage(stdout);
        else fprintf(stderr, "%s\n", why);
        return hs_exit_of(HS_TOOL_PLANT, parsed > 0 ? HS_OK : HS_E_USAGE);
    }
    const int chosen = select_model(a, why, sizeof why);
    if (chosen != HS_EXIT_OK) {
        fprintf(stderr, "hilstep-rt: %s\n", why);
        return chosen;
    }
    hs_plant_def def = plant_def(a);
    hs_status rc = start_plant(a, &def, why, sizeof why);
    if (rc != HS_OK) return hs_exit_of(HS_TOOL_PLANT, rc);
    if (a->o.list_signals) {
        print_signals(a->plant.map, &a->o, a->tp.map != NULL);
        a->tp.ops->close(&a->tp);
        return hs_exit_of(HS_TOOL_PLANT, HS_OK);
    }
    if (a->o.a2l && !a->o.xcp) { /* --a2l alone: the file, then exit (no key, no output files) */
        rc = start_xcp(a);
        if (rc == HS_OK) a->tp.ops->close(&a->tp);
        hs_xcpp_close(); /* the description's text it read again (start_xcp closes a refused one) */
        return hs_exit_of(HS_TOOL_PLANT, rc);
    }
    rc = open_outputs(a);
    if (rc == HS_OK && a->o.xcp) rc = start_xcp(a);
    /* the MDF log's channels include the XCP params' (cal_*), so it opens after the slave */
    if (rc == HS_OK && mdf_open(a) != 0) {
        a->tp.ops->close(&a->tp);
        rc = HS_E_SETUP;
    }
    if (rc == HS_OK) rc = run_threads(a, &def);
    hs_xcpp_close();
    if (rc != HS_OK) return hs_exit_of(HS_TOOL_PLANT, rc);
    const int code = write_files(a);
    print_end(a, code);
    return code;
}
#endif
