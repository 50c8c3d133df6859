/* hs_app.c - the car axle board application. */
#include "hs_app.h"
#include "hs_board.h"
#include "hs_hash.h"

hs_app_state hs_app;
void (*hs_app_test_hook)(uint32_t step);

static hs_real R[HS_STEPPER_REALS(HS_CAR_AXLE_NQ, HS_CAR_AXLE_NC, HS_CAR_AXLE_NZ)];
static int I[HS_STEPPER_INTS(HS_CAR_AXLE_NQ, HS_CAR_AXLE_NC)];

hs_app_cfg hs_app_default_cfg(void)
{
    hs_app_cfg c;
    c.type = &hs_car_axle_type;
    c.method = HS_METHOD_J2;
    c.form = HS_FORM_INDEX2;
    c.stab = HS_STAB_PROJECTION;
    c.nsteps = 3000;
    return c;
}

void hs_app_configure(const hs_app_cfg *cfg) { hs_app.cfg = *cfg; }

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

static void track_g(void)
{
    hs_real g[HS_CAR_AXLE_NC];
    if (hs_stepper_residual(&hs_app.s, g) != HS_OK) return;
    for (int i = 0; i < HS_CAR_AXLE_NC; ++i) {
        hs_real a = hs_abs(g[i]);
        if (!(a <= hs_app.max_g)) hs_app.max_g = a; /* a NaN residual also shows */
    }
}

static hs_stepper_def app_def;

static int app_start(void)
{
    int rc = hs_stepper_init(&hs_app.s, &app_def, &hs_app.model, HS_R(0.0), R,
                             sizeof R / sizeof R[0], I, sizeof I / sizeof I[0]);
    if (rc) {
        hs_con_puts("stepper init: ");
        hs_con_puts(hs_status_str(rc));
        hs_con_putc('\n');
        return rc;
    }
    hs_app.hash = HS_HASH_INIT;
    hs_app.max_g = HS_R(0.0);
    hs_app.cost_min = UINT32_MAX;
    hs_app.cost_max = 0;
    hs_app.cost_sum = 0;
    hs_app.steps = 0;
    hs_app.safe = 0;
    track_g();
    return HS_OK;
}

static int app_initialize(void)
{
    const hs_app_cfg *c = &hs_app.cfg;
    if (!c->type || c->type->nq != HS_CAR_AXLE_NQ || c->type->nc != HS_CAR_AXLE_NC
        || c->type->nz != HS_CAR_AXLE_NZ || c->type->nout > HS_MODELS_MAX_NOUT
        || c->type->param_size > sizeof hs_app.params)
        return HS_E_SIZE;
    int rc = hs_model_init(&hs_app.model, c->type, &hs_app.params);
    if (rc) return rc;
    app_def = hs_stepper_default_def();
    app_def.method = c->method;
    app_def.form = c->form;
    app_def.stab = c->stab;
    /* Exactly as hilstep-sim derives them from --h 1e-3: in double, then rounded once to
     * hs_real. Computing 1/h in float instead differs in the last bit and the float
     * trajectories would no longer match the host's. */
    app_def.h = (hs_real)1e-3;
    app_def.alpha = (hs_real)(1.0 / 1e-3);
    app_def.beta = (hs_real)(1.0 / (1e-3 * 1e-3));
    return app_start();
}

/* Two untimed steps in the frame's own context, then a fresh start, so the first timed frame
 * does not pay first-touch costs (QEMU translates code per CPU mode, so a warm-up in thread
 * mode would not do; on hardware: caches, flash wait states). The fresh start keeps the
 * trajectory, and its hash, identical to a run without warm-up. */
static void app_warmup(void)
{
    for (int k = 0; k < 2; ++k) (void)hs_stepper_step(&hs_app.s, NULL);
    track_g();
    (void)hs_stepper_hash(&hs_app.s, HS_HASH_INIT);
    (void)hs_frame_now();
    (void)app_start();
}

static int app_step(void)
{
    if (hs_app_test_hook) hs_app_test_hook(hs_app.steps);
    uint64_t t0 = hs_frame_now();
    int rc = hs_stepper_step(&hs_app.s, NULL);
    uint64_t t1 = hs_frame_now();
    if (rc != HS_OK) return rc;
    uint32_t dt = (uint32_t)(t1 - t0);
    if (dt < hs_app.cost_min) hs_app.cost_min = dt;
    if (dt > hs_app.cost_max) hs_app.cost_max = dt;
    hs_app.cost_sum += dt;
    hs_app.hash = hs_stepper_hash(&hs_app.s, hs_app.hash);
    hs_app.steps++;
    track_g();
    if (hs_app.model.type->nout > 0) hs_stepper_outputs(&hs_app.s, NULL, hs_app.y);
    return hs_app.cfg.nsteps != 0 && hs_app.steps >= hs_app.cfg.nsteps;
}

static void app_terminate(void) {}

static void app_safe_state(void)
{
    /* The plant's outputs go to zero and stay there; the committed state is kept for
     * diagnosis (the stepper never commits a refused step). */
    for (int i = 0; i < HS_MODELS_MAX_NOUT; ++i) hs_app.y[i] = HS_R(0.0);
    hs_app.safe = 1;
    hs_con_puts("safe-state: outputs zeroed after ");
    hs_con_u64(hs_app.steps);
    hs_con_puts(" committed steps, stepper faults=");
    hs_con_u64(hs_app.s.stats.faults);
    hs_con_puts(" last=");
    hs_con_i64(hs_app.s.stats.last_fault);
    hs_con_puts(" (");
    hs_con_puts(hs_status_str(hs_app.s.stats.last_fault));
    hs_con_puts(")\n");
}

static void app_status(void)
{
    hs_con_puts("status t=");
    hs_con_sci((double)hs_app.s.t);
    hs_con_puts(" ticks=");
    hs_con_u64(hs_frame.ticks);
    hs_con_puts(" steps=");
    hs_con_u64(hs_app.steps);
    hs_con_puts(" overruns=");
    hs_con_u64(hs_frame.overruns);
    hs_con_puts(" worst-step=");
    hs_con_u64((uint64_t)hs_app.cost_max * 40u);
    hs_con_puts(" ns worst-frame=");
    hs_con_u64((uint64_t)hs_frame.exec_max * 40u);
    hs_con_puts(" ns max|g|=");
    hs_con_sci((double)hs_app.max_g);
    hs_con_putc('\n');
}

const hs_frame_app hs_app_frame = {
    app_initialize, app_warmup, app_step, app_terminate, app_safe_state, app_status, 1000u
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
    hs_con_u64(hs_app.steps);
    hs_con_puts(" 0x");
    hs_con_hex(hs_app.hash, 16);
    hs_con_putc('\n');
}

void hs_app_print_cost(void)
{
    print_head("step-cost");
    hs_con_puts(" min=");
    hs_con_u64((uint64_t)hs_app.cost_min * HS_INSN_PER_COUNT);
    hs_con_puts(" max=");
    hs_con_u64((uint64_t)hs_app.cost_max * HS_INSN_PER_COUNT);
    hs_con_puts(" instructions\n");
}

void hs_app_print_frame(void)
{
    hs_con_puts("frame ticks=");
    hs_con_u64(hs_frame.ticks);
    hs_con_puts(" steps=");
    hs_con_u64(hs_frame.steps);
    hs_con_puts(" overruns=");
    hs_con_u64(hs_frame.overruns);
    hs_con_puts(" exec-min=");
    hs_con_u64((uint64_t)hs_frame.exec_min * HS_INSN_PER_COUNT);
    hs_con_puts(" exec-max=");
    hs_con_u64((uint64_t)hs_frame.exec_max * HS_INSN_PER_COUNT);
    hs_con_puts(" exec-mean=");
    hs_con_u64(hs_frame.steps ? hs_frame.exec_sum * HS_INSN_PER_COUNT / hs_frame.steps : 0u);
    hs_con_puts(" ns max|g|=");
    hs_con_sci((double)hs_app.max_g);
    hs_con_puts("\nframe histogram (SysTick counts, bin k = [2^k, 2^(k+1)), first from 0):");
    for (int k = 0; k < HS_FRAME_HIST_BINS; ++k) {
        if (!hs_frame.hist[k]) continue;
        hs_con_puts(" [");
        hs_con_u64(k ? (uint64_t)1u << k : 0u);
        hs_con_puts(",");
        if (k < HS_FRAME_HIST_BINS - 1) hs_con_u64((uint64_t)1u << (k + 1));
        hs_con_puts(")=");
        hs_con_u64(hs_frame.hist[k]);
    }
    hs_con_putc('\n');
}
