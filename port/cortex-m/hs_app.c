/* hs_app.c - the board's application shell around the plant application (see hs_app.h). */
#include "hs_app.h"
#include "hs_board.h"
#include "hs_transport.h"
#include "hs_mb.h"
#include "mb_gen.h"

#include <string.h>

#ifndef HS_BOARD_MODEL /* the test images run the car axle unless told otherwise */
#define HS_BOARD_MODEL "car_axle"
#endif

hs_app_state hs_app;
void (*hs_app_test_hook)(uint32_t step);

/* The arenas: the dense bound of the plant's sizes; a user's description image (hs_user_limits.h)
 * also names its exact need over every configuration (hilstep-mbgen --workspace: the sparse
 * analysis of a larger description, car.hsm's 44,682 ints, is beyond the dense bound). */
#define HS_APP_MAX(a, b) (((a) > (b)) ? (a) : (b))
#ifndef HS_PLANT_WS_REALS
#define HS_PLANT_WS_REALS 0u
#endif
#ifndef HS_PLANT_WS_INTS
#define HS_PLANT_WS_INTS 0u
#endif
/* The sizes of the dense bound. A description's image takes the registry models' (it can run
 * them too: HS_PLANT_REG_MAX_*, the other images' limits from port/cortex-m/cortex-m.mk), not
 * its own, whose dense bound is what does not fit: 8.4 MB beyond the board's 4 MiB RAM for a
 * 50-box tower (nq 350) whose exact need is 66k reals and 129k ints. */
#ifdef HS_BOARD_USER_MODEL
#define HS_APP_NQ HS_PLANT_REG_MAX_NQ
#define HS_APP_NC HS_PLANT_REG_MAX_NC
#define HS_APP_NZ HS_PLANT_REG_MAX_NZ
#else
#define HS_APP_NQ HS_PLANT_MAX_NQ
#define HS_APP_NC HS_PLANT_MAX_NC
#define HS_APP_NZ HS_PLANT_MAX_NZ
#endif
static hs_real R[HS_APP_MAX(HS_STEPPER_REALS(HS_APP_NQ, HS_APP_NC, HS_APP_NZ), (size_t)HS_PLANT_WS_REALS)];
static int I[HS_APP_MAX(HS_STEPPER_INTS(HS_APP_NQ, HS_APP_NC), (size_t)HS_PLANT_WS_INTS)];

hs_app_cfg hs_app_default_cfg(void)
{
    hs_app_cfg c;
    c.model = HS_BOARD_MODEL;
    c.type = NULL;
    const hs_stepper_def dd = hs_stepper_default_def(); /* the library's default configuration */
    c.method = dd.method;
    c.form = dd.form;
    c.stab = dd.stab;
    c.h_us = 1000u;
    c.nsteps = 3000;
    c.inputs = NULL;
    c.verdict = 0;
    c.has_expect = 0;
    c.expect_hash = 0;
    return c;
}

void hs_app_configure(const hs_app_cfg *cfg) { hs_app.cfg = *cfg; }

const hs_model_type *hs_app_find_model(const char *name)
{
    const hs_model_type *T = hs_model_find(name);
    for (int i = 0; T == NULL && i < HS_MB_GEN_COUNT; ++i) {
        if (hs_streq(name, hs_mb_gen_types[i]->name) != 0) {
            T = hs_mb_gen_types[i];
        }
    }
    return T;
}

int hs_app_parse_method(const char *name)
{
    for (int m = 0; m < HS_METHOD_COUNT; ++m)
        if (hs_streq(name, hs_method_name((hs_method)m))) return m;
    return -1;
}

int hs_app_parse_stab(const char *name)
{
    for (int s = HS_STAB_NONE; s <= HS_STAB_PROJECTION; ++s)
        if (hs_streq(name, hs_stab_name((hs_stab)s))) return s;
    return -1;
}

/* ---- the board's transport (hil/hs_transport.h) ----
 * "memory": the frame built is what would go on the wire; there is no ECU under QEMU, so
 * nothing is received and the inputs stay on their fallbacks, unless an input CSV is replayed
 * (cfg.inputs, hs_replay.h): then each frame receives the CSV's inputs at the state's time,
 * through the receive side an ECU's frames take (clamped and counted there). A board with a CAN controller or
 * a UART adds its transport as a file defining its ops and one row in board_transports; it
 * would bind a DBC table from hilstep-dbcgen with hs_can_bind like hilstep-rt binds the file. */
static hs_status mem_open(hs_transport *t, const hs_tp_cfg *cfg, hs_tp_error *err)
{
    (void)cfg;
    (void)err;
    t->map = NULL;
    return HS_OK;
}
static int mem_receive(hs_transport *t, hs_rx *rx, int max)
{
    (void)t;
    (void)max;
    if (hs_app.replay.ncol == 0) return 0;
    /* step k of the committed trajectory gets the inputs at t = k h (hilstep-sim's rule) */
    hs_replay_offer(&hs_app.replay, rx, hs_app.steps);
    return 1;
}
static void mem_send(hs_transport *t, const hs_tp_out *o)
{
    (void)t;
    if (!o->n) return;
    hs_app.last_len = o->n; /* the plant built it in hs_app.last_frame */
    hs_app.tx_frames++;
}
static int mem_wait(hs_transport *t, int64_t timeout_ns)
{
    (void)t;
    (void)timeout_ns;
    return 0;
}
static void mem_counters(const hs_transport *t, hs_tp_kv kv, void *ctx)
{
    (void)t;
    kv(ctx, "tx_frames", (double)hs_app.tx_frames, "");
}
static void mem_close(hs_transport *t) { (void)t; }

static const hs_transport_ops hs_tp_memory = {"memory", "(none: the frame stays in memory)", mem_open,
                                              mem_receive, mem_send, mem_wait, mem_counters, mem_close, 1};

/* The board's registration table: one line per transport. */
static const hs_transport_ops *const board_transports[] = {&hs_tp_memory, NULL};

static hs_transport app_tp;

/* The plant's clock: guest ns (one SysTick count is 40 ns). */
static int64_t board_ns(void) { return (int64_t)(hs_tick_now() * HS_INSN_PER_COUNT); }

static hs_plant_def app_def;

/* ---- the signal map of a generated description: its declared inputs and named outputs
 * (ranges, fallbacks, stale limits), as hilstep-rt builds it for --model-file
 * (port/host/hs_mb_map.h), so the board clamps, falls back and refuses outputs by the file's
 * declarations too; NULL (the plant's shipped or generic map) for any other model. ---- */
static hs_signal desc_sig[2 * HS_PLANT_MAX_SIG];
static char desc_label[2 * HS_PLANT_MAX_SIG][2][40];
static hs_signal_map desc_map;

static const hs_signal_map *desc_signal_map(const hs_model *m)
{
    const hs_model_type *T = m->type;
    if (T->check != hs_mb_gen_check || T->data == NULL || hs_model_check(m) != HS_OK) return NULL;
    const hs_mb_gen *g = (const hs_mb_gen *)T->data;
    const hs_mb_desc *d = g->desc;
    const hs_mb_model *mb = g->mb;
    int named = d->inputs != NULL && d->nin > 0;
    for (int o = 0; o < d->noutputs; ++o) {
        if (d->outputs[o].sig != NULL) named = 1;
    }
    if (named == 0 || m->d.nin > HS_PLANT_MAX_SIG || m->d.nout > HS_PLANT_MAX_SIG) return NULL;
    int k = 0;
    for (int i = 0; i < m->d.nin; ++i, ++k) {
        const hs_mb_signal *ds = (d->inputs != NULL && i < d->nin) ? &d->inputs[i] : NULL;
        hs_label_split(T->in_names != NULL ? T->in_names[i] : "", desc_label[k][0], sizeof desc_label[k][0],
                       desc_label[k][1], sizeof desc_label[k][1]);
        hs_signal s = {desc_label[k][0], desc_label[k][1], HS_SIG_IN, 1.0, 0.0,
                       ds ? (double)ds->min : -1e9, ds ? (double)ds->max : 1e9,
                       ds ? (double)ds->fallback : 0.0, ds ? (uint32_t)ds->stale : 20u};
        desc_sig[k] = s;
    }
    for (int o = 0; o < d->noutputs; ++o) {
        const hs_mb_signal *ds = d->outputs[o].sig;
        for (int y = mb->out_first[o]; y < mb->out_first[o + 1] && y < m->d.nout; ++y, ++k) {
            hs_label_split(T->out_names != NULL ? T->out_names[y] : "", desc_label[k][0], sizeof desc_label[k][0],
                           desc_label[k][1], sizeof desc_label[k][1]);
            hs_signal s = {desc_label[k][0], desc_label[k][1], HS_SIG_OUT, 1.0, 0.0,
                           ds ? (double)ds->min : -1e9, ds ? (double)ds->max : 1e9,
                           ds ? (double)ds->fallback : 0.0, 0u};
            desc_sig[k] = s;
        }
    }
    desc_map.app = T->name;
    desc_map.sig = desc_sig;
    desc_map.n = k;
    return &desc_map;
}

static int plant_start(void)
{
    char why[200]; /* "stepper init: " and a capacity's message (hs_mb_model_why, 160) */
    hs_status rc = hs_plant_initialize(&hs_app.plant, &app_def, &hs_app.model, R, sizeof R / sizeof R[0],
                                 I, sizeof I / sizeof I[0], why, sizeof why);
    if (rc) {
        hs_con_puts("plant initialize: ");
        hs_con_puts(why);
        hs_con_putc('\n');
        return hs_exit_of(HS_TOOL_PLANT, rc);
    }
    hs_app.steps = 0;
    hs_app.tx_frames = 0;
    hs_app.replay.offered = 0;
    hs_app.replay.refused = 0;
    return HS_EXIT_OK;
}

static int app_initialize(void)
{
    const hs_app_cfg *c = &hs_app.cfg;
    char why[160];
    hs_status rc;
    /* A shipped description is found by name too (the registry lists the library's models). */
    const hs_model_type *T = c->type != NULL ? c->type : hs_app_find_model(c->model);
    if (T != NULL) {
        rc = hs_plant_model_init(&hs_app.model, T, &hs_app.params, sizeof hs_app.params,
                                 why, sizeof why);
    } else {
        rc = hs_plant_model_by_name(&hs_app.model, &hs_app.params, sizeof hs_app.params,
                                    c->model, why, sizeof why);
    }
    if (rc != HS_OK) {
        hs_con_puts(why);
        hs_con_putc('\n');
        return hs_exit_of(HS_TOOL_PLANT, rc);
    }
    app_def = hs_plant_default_def();
    app_def.map = desc_signal_map(&hs_app.model);
    app_def.step.method = c->method;
    app_def.step.form = c->form;
    app_def.step.stab = c->stab;
    /* h as hilstep-sim derives it from --h: the double nearest h_us / 1e6, then alpha = 1/h and
     * beta = 1/h^2 in double, rounded once (same bits as the host). */
    const double h = (double)c->h_us / 1e6;
    app_def.step.h = (hs_real)h;
    app_def.step.alpha = (hs_real)(1.0 / h);
    app_def.step.beta = (hs_real)(1.0 / (h * h));
    rc = hs_replay_bind(&hs_app.replay, c->inputs, hs_app.model.type, hs_app.model.d.nin, h, why, sizeof why);
    if (rc != HS_OK) {
        hs_con_puts("inputs: ");
        hs_con_puts(why);
        hs_con_putc('\n');
        return HS_EXIT_USAGE;
    }
    app_def.overrun_stop = hs_tick_policy_stop;
    app_def.clock_ns = board_ns;
    app_def.hash = 1;
    app_def.session = 0xB0A4D001u;
    app_tp.ops = hs_transport_find(board_transports, "memory");
    hs_tp_cfg tc;
    memset(&tc, 0, sizeof tc);
    tc.prog = "board";
    tc.period_us = 1000u;
    hs_tp_error terr;
    const hs_status tst = app_tp.ops ? app_tp.ops->open(&app_tp, &tc, &terr) : HS_E_SETUP;
    if (tst != HS_OK) {
        hs_con_puts("transport: none\n");
        return hs_exit_of(HS_TOOL_PLANT, tst);
    }
    return plant_start();
}

/* Two untimed frames in the frame's own context, then a fresh start, so the first timed frame
 * does not pay first-touch costs (QEMU translates code per CPU mode, so a warm-up in thread
 * mode would not do; on hardware: caches, flash wait states). The fresh start keeps the
 * trajectory, and its hash, identical to a run without warm-up. */
static void app_warmup(void)
{
    for (uint64_t k = 0; k < 2; ++k) (void)hs_plant_step(&hs_app.plant, k, 0, hs_app.last_frame,
                                                         sizeof hs_app.last_frame, NULL);
    (void)hs_tick_now();
    (void)plant_start();
}

/* One frame's outputs (n bytes built in hs_app.last_frame) to the transport. */
static void transport_send(size_t n, int extra)
{
    const hs_plant *p = &hs_app.plant;
    hs_tp_out o = {p->frames, extra, &p->tx, p->safe ? NULL : p->y, hs_app.last_frame, n};
    app_tp.ops->send(&app_tp, &o);
}

static int app_step(void)
{
    hs_plant *p = &hs_app.plant;
    if (hs_app_test_hook) hs_app_test_hook(hs_app.steps);
    const uint64_t faults = p->faults;
    const int last = hs_app.cfg.nsteps != 0 && hs_app.steps + 1u >= hs_app.cfg.nsteps;
    (void)app_tp.ops->receive(&app_tp, &p->rx, 16);
    transport_send(hs_plant_step(p, p->frames, last, hs_app.last_frame, sizeof hs_app.last_frame, NULL), 0);
    if (p->faults == faults) hs_app.steps++;
    if (p->stop) return p->last_fault < 0 ? p->last_fault : -1; /* fault hold exhausted */
    return last && p->faults == faults;
}

static void app_terminate(void)
{
    hs_plant_terminate(&hs_app.plant);
    app_tp.ops->close(&app_tp);
}

static int app_overrun(void)
{
    hs_plant *p = &hs_app.plant;
    transport_send(hs_plant_overrun(p, 1u, hs_app.last_frame, sizeof hs_app.last_frame), 1);
    return p->stop != 0;
}

static void app_safe_state(void)
{
    /* The outputs go to their declared safe values (the signal map's fallbacks) in a SAFE
     * frame, unless the plant sent it already; the committed state is kept for diagnosis
     * (the stepper never commits a refused step). */
    hs_plant *p = &hs_app.plant;
    if (!p->safe) transport_send(hs_plant_safe_outputs(p, hs_app.last_frame, sizeof hs_app.last_frame,
                                                       HS_FLAG_FINAL), 1);
    hs_con_puts("safe-state: outputs to their fallbacks after ");
    hs_con_u64(hs_app.steps);
    hs_con_puts(" committed steps, stepper faults=");
    hs_con_u64(p->faults);
    hs_con_puts(" last=");
    hs_con_i64(p->last_fault);
    hs_con_puts(" (");
    hs_con_puts(hs_plant_fault_str(p->last_fault));
    hs_con_puts(")\n");
    if (hs_app.cfg.verdict != 0) (void)hs_app_print_verdict();
}

static void app_status(void)
{
    const hs_plant *p = &hs_app.plant;
    hs_con_puts("status t=");
    hs_con_sci((double)p->st.t);
    hs_con_puts(" s ticks=");
    hs_con_u64(hs_tick.ticks);
    hs_con_puts(" steps=");
    hs_con_u64(hs_app.steps);
    hs_con_puts(" late-ticks=");
    hs_con_u64(hs_tick.overruns);
    hs_con_puts(" worst-step=");
    hs_con_u64((uint64_t)(p->step_max_ns > 0 ? p->step_max_ns : 0));
    hs_con_puts(" ns worst-frame=");
    hs_con_u64((uint64_t)hs_tick.exec_max * HS_INSN_PER_COUNT);
    hs_con_puts(" ns max|g|=");
    hs_con_sci(p->gmax);
    hs_con_putc('\n');
}

const hs_tick_app hs_app_frame = {
    app_initialize, app_warmup, app_step, app_terminate, app_overrun, app_safe_state, app_status, 1000u
};

/* "<tag> <model> <method> <stab>": the head both contract lines share. */
static void print_head(const char *tag)
{
    hs_con_puts(tag);
    hs_con_putc(' ');
    hs_con_puts(hs_app.model.type->name);
    hs_con_putc(' ');
    hs_con_puts(hs_method_name(hs_app.cfg.method));
    hs_con_putc(' ');
    hs_con_puts(hs_stab_name(hs_app.cfg.stab));
}

void hs_app_print_hash(void)
{
    print_head("trajectory-hash");
    hs_con_putc(' ');
    hs_con_u64(hs_app.plant.hashed_steps);
    hs_con_puts(" 0x");
    hs_con_hex(hs_app.plant.hash, 16);
    hs_con_putc('\n');
}

void hs_app_print_cost(void)
{
    /* The plant's clock is guest ns = 40 x SysTick counts; under -icount shift=0 one ns is one
     * instruction. */
    print_head("step-cost");
    hs_con_puts(" min=");
    hs_con_u64((uint64_t)hs_app.plant.step_min_ns);
    hs_con_puts(" max=");
    hs_con_u64((uint64_t)hs_app.plant.step_max_ns);
    hs_con_puts(" instructions\n");
}

void hs_app_print_frame(void)
{
    hs_con_puts("frame ticks=");
    hs_con_u64(hs_tick.ticks);
    hs_con_puts(" steps=");
    hs_con_u64(hs_tick.steps);
    hs_con_puts(" overruns=");
    hs_con_u64(hs_tick.overruns);
    hs_con_puts(" exec-min=");
    hs_con_u64((uint64_t)hs_tick.exec_min * HS_INSN_PER_COUNT);
    hs_con_puts(" exec-max=");
    hs_con_u64((uint64_t)hs_tick.exec_max * HS_INSN_PER_COUNT);
    hs_con_puts(" exec-mean=");
    hs_con_u64(hs_tick.steps ? hs_tick.exec_sum * HS_INSN_PER_COUNT / hs_tick.steps : 0u);
    hs_con_puts(" ns max|g|=");
    hs_con_sci(hs_app.plant.gmax);
    hs_con_puts(" tx-frames=");
    hs_con_u64(hs_app.tx_frames);
    hs_con_puts("\nframe histogram (SysTick counts, bin k = [2^k, 2^(k+1)), first from 0):");
    for (int k = 0; k < HS_TICK_HIST_BINS; ++k) {
        if (!hs_tick.hist[k]) continue;
        hs_con_puts(" [");
        hs_con_u64(k ? (uint64_t)1u << k : 0u);
        hs_con_puts(",");
        if (k < HS_TICK_HIST_BINS - 1) hs_con_u64((uint64_t)1u << (k + 1));
        hs_con_puts(")=");
        hs_con_u64(hs_tick.hist[k]);
    }
    hs_con_putc('\n');
}

int hs_app_print_verdict(void)
{
    const int has_expect = hs_app.cfg.has_expect;
    const uint64_t expect_hash = hs_app.cfg.expect_hash;
    const hs_plant *p = &hs_app.plant;
    const int hash_bad = has_expect != 0 && p->hash != expect_hash;
    int code = HS_EXIT_OK;
    if (hash_bad || hs_app.replay.refused != 0u) code = HS_EXIT_TEST;
    if (p->faults != 0u) code = HS_EXIT_STEP;
    if (hs_tick.over != 0u) code = HS_EXIT_OVERRUN; /* the lowest code above 2 wins */
    hs_con_puts(code == HS_EXIT_OK ? "verdict: PASS" : "verdict: FAIL");
    hs_con_puts(" hash=0x");
    hs_con_hex(p->hash, 16);
    if (has_expect != 0) {
        hs_con_puts(hash_bad ? " (expected 0x" : " (= expected 0x");
        hs_con_hex(expect_hash, 16);
        hs_con_putc(')');
    }
    hs_con_puts(" steps=");
    hs_con_u64(hs_app.steps);
    hs_con_puts(" refused=");
    hs_con_u64(p->faults);
    hs_con_puts(" overruns=");
    hs_con_u64(hs_tick.over);
    hs_con_puts(" late-ticks=");
    hs_con_u64(hs_tick.overruns);
    if (hs_app.replay.ncol != 0) {
        hs_con_puts(" inputs=");
        hs_con_puts(hs_app.replay.tab->file);
        hs_con_puts(" replayed=");
        hs_con_u64(hs_app.replay.offered - hs_app.replay.refused);
        hs_con_puts(" refused-frames=");
        hs_con_u64(hs_app.replay.refused);
    } else {
        hs_con_puts(" inputs=fallbacks");
    }
    hs_con_puts(" clamped=");
    hs_con_u64(p->rx.st.clamped);
    hs_con_puts(" exit=");
    hs_con_u64((uint64_t)code);
    hs_con_putc('\n');
    return code;
}
