/* fw_test.c - the QEMU test firmware: the board application under test switches.
 * Command line (semihosting, after the kernel name):
 *   run METHOD STAB STEPS  frame-driven run; prints hash, step cost, frame stats, stack
 *   inject                 slow frames at steps 100/200/300 (1.5/2.5/3.5 ms): 1+2+3 late ticks
 *   calib                  a loop of known instruction count timed with SysTick
 *   nan                    the model's force turns NaN from step 500 on
 *   infout                 the model's output 0 turns +Inf from step 500 on
 *   udf | hardfault | divzero   CPU faults inside the step
 * Exit status: see hs_board.h. */
#include "hs_app.h"
#include "hs_board.h"

#define REG(a) (*(volatile uint32_t *)(uintptr_t)(a))

static char cmd[160];
static const char *argv[8];
static int argc;

static void split(void)
{
    char *p = cmd;
    while (*p && argc < 8) {
        while (*p == ' ') *p++ = '\0';
        if (!*p) break;
        argv[argc++] = p;
        while (*p && *p != ' ') ++p;
    }
}

/* ---- injected overruns ---- */

static const uint32_t slow_step[3] = { 100, 200, 300 };
static const uint32_t slow_counts[3] = { 37500, 62500, 87500 }; /* 1.5, 2.5, 3.5 ms */
static uint32_t late_expected;

static void busy_for(uint32_t counts)
{
    /* Polls the time base rather than counting loop iterations, so the delay is the same
     * with and without icount; the ticks that arrive meanwhile preempt this loop. */
    uint64_t t0 = hs_tick_now();
    while (hs_tick_now() - t0 < counts) {
    }
}

static void hook_slow(uint32_t step)
{
    for (int i = 0; i < 3; ++i) {
        if (step != slow_step[i]) continue;
        uint32_t P = hs_tick_period();
        uint64_t t0 = hs_tick_now();
        busy_for(slow_counts[i]);
        uint64_t t1 = hs_tick_now();
        /* Tick instants are the multiples of P; count those in (t0, t1]. The frame's own
         * step still runs after this, but far inside the next period. */
        late_expected += (uint32_t)(t1 / P - t0 / P);
    }
}

/* ---- time-base calibration ---- */

#define CALIB_ITER 25000u
static uint32_t calib_counts;

/* 2 instructions per iteration (subs, bne) plus 1 (movw) plus the hs_tick_now() calls: the
 * count must come out as 2 x CALIB_ITER / 40 and a few counts. */
static void hook_calib(uint32_t step)
{
    if (step != 5) return;
    uint64_t t0 = hs_tick_now();
    __asm__ volatile("movw r0, %0\n1:\tsubs r0, r0, #1\n\tbne 1b" ::"i"(CALIB_ITER) : "r0", "cc");
    uint64_t t1 = hs_tick_now();
    calib_counts = (uint32_t)(t1 - t0);
}

/* ---- forced NaN ---- */

static hs_model_type nan_type;
static uint32_t nan_from = 500;
static volatile uint32_t committed;

static int nan_force(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                     const hs_real *z, const hs_real *in, hs_real *f)
{
    int rc = hs_car_axle_type.force(m, t, q, u, z, in, f);
    if (committed >= nan_from) {
        volatile hs_real zero = HS_R(0.0);
        /* cppcheck-suppress duplicateExpression ; 0/0 at run time is the point */
        f[0] = zero / zero;
    }
    return rc;
}

static void hook_count(uint32_t step) { committed = step; }

/* ---- forced non-finite output (issue 16): the step commits, its output 0 is +Inf ---- */

static int inf_output(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                      const hs_real *z, const hs_real *in, hs_real *y)
{
    int rc = hs_car_axle_type.output(m, t, q, u, z, in, y);
    if (committed >= nan_from) {
        volatile hs_real one = HS_R(1.0), zero = HS_R(0.0);
        y[0] = one / zero;
    }
    return rc;
}

/* ---- CPU faults ---- */

static volatile int fault_kind;
static volatile uint32_t divisor;
static volatile uint32_t sink;

static void hook_fault(uint32_t step)
{
    if (step != 10) return;
    if (fault_kind == 1) hs_trigger_udf();
    if (fault_kind == 2) {
        /* With UsageFault not enabled the same instruction escalates to HardFault. */
        REG(0xE000ED24u) &= ~(1u << 18);
        hs_trigger_udf();
    }
    if (fault_kind == 3) sink = 1000u / divisor;
}

static int finish_run(uint32_t nsteps)
{
    int fail = 0;
    hs_app_print_hash();
    hs_app_print_cost();
    hs_app_print_frame();
    hs_con_puts("stack used=");
    hs_con_u64(hs_stack_used());
    hs_con_puts(" of ");
    hs_con_u64(hs_stack_size());
    hs_con_puts(" bytes\n");
    if (hs_app.steps != nsteps) { hs_con_puts("check failed: committed steps\n"); fail = 1; }
    if (hs_tick.ticks != nsteps) { hs_con_puts("check failed: ticks != steps\n"); fail = 1; }
    if (hs_tick.overruns != 0) { hs_con_puts("check failed: overruns\n"); fail = 1; }
    return fail ? HS_EXIT_TEST : HS_EXIT_OK;
}

int main(void)
{
    if (hs_cmdline(cmd, (int)sizeof cmd) < 0) return HS_EXIT_USAGE;
    split();
    if (argc < 2) { hs_con_puts("usage: run|inject|nan|infout|udf|hardfault|divzero\n"); return HS_EXIT_USAGE; }
    const char *mode = argv[1];
    hs_app_cfg c = hs_app_default_cfg();
    uint32_t period = HS_SYSTICK_HZ / 1000u;

    if (hs_streq(mode, "run")) {
        if (argc != 5 && argc != 6) return HS_EXIT_USAGE;
        if (argc == 6) { /* run ... MODEL: a registry model of the car axle's sizes (car_axle_mb) */
            c.type = hs_model_find(argv[5]);
            if (!c.type) { hs_con_puts("unknown model\n"); return HS_EXIT_USAGE; }
        }
        int me = hs_app_parse_method(argv[2]), st = hs_app_parse_stab(argv[3]);
        long n = hs_parse_ulong(argv[4]);
        if (me < 0 || st < 0 || n <= 0) { hs_con_puts("bad run arguments\n"); return HS_EXIT_USAGE; }
        c.method = (hs_method)me;
        c.stab = (hs_stab)st;
        c.nsteps = (uint32_t)n;
        hs_app_configure(&c);
        int rc = hs_tick_run(&hs_app_frame, period);
        return rc ? rc : finish_run(c.nsteps);
    }
    if (hs_streq(mode, "inject")) {
        c.nsteps = 1000;
        hs_app_configure(&c);
        hs_app_test_hook = hook_slow;
        int rc = hs_tick_run(&hs_app_frame, period);
        if (rc) return rc;
        hs_con_puts("overrun-test injected-late-ticks=");
        hs_con_u64(late_expected);
        hs_con_puts(" counted=");
        hs_con_u64(hs_tick.overruns);
        hs_con_puts(" ticks=");
        hs_con_u64(hs_tick.ticks);
        hs_con_puts(" steps=");
        hs_con_u64(hs_tick.steps);
        hs_con_putc('\n');
        int ok = hs_tick.overruns == late_expected && late_expected == 6u
                 && hs_tick.ticks == hs_tick.steps + hs_tick.overruns
                 && hs_app.steps == c.nsteps;
        return ok ? HS_EXIT_OK : HS_EXIT_TEST;
    }
    if (hs_streq(mode, "calib")) {
        c.nsteps = 10;
        hs_app_configure(&c);
        hs_app_test_hook = hook_calib;
        int rc = hs_tick_run(&hs_app_frame, period);
        if (rc) return rc;
        hs_con_puts("calibration loop of ");
        hs_con_u64(2u * CALIB_ITER);
        hs_con_puts(" instructions took ");
        hs_con_u64(calib_counts);
        hs_con_puts(" SysTick counts\n");
        return HS_EXIT_OK;
    }
    if (hs_streq(mode, "nan")) {
        nan_type = hs_car_axle_type;
        nan_type.force = nan_force;
        /* Finite differences would also call force; the analytic Jacobian keeps the NaN to
         * the one evaluation the step commits on. */
        c.type = &nan_type;
        hs_app_configure(&c);
        hs_app_test_hook = hook_count;
        int rc = hs_tick_run(&hs_app_frame, period);
        hs_con_puts("nan-test: the step did not refuse\n");
        return rc ? rc : HS_EXIT_TEST;
    }
    if (hs_streq(mode, "infout")) {
        nan_type = hs_car_axle_type;
        nan_type.output = inf_output;
        c.type = &nan_type;
        hs_app_configure(&c);
        hs_app_test_hook = hook_count;
        int rc = hs_tick_run(&hs_app_frame, period);
        hs_con_puts("infout-test: the Inf output was not refused\n");
        return rc ? rc : HS_EXIT_TEST;
    }
    if (hs_streq(mode, "udf") || hs_streq(mode, "hardfault") || hs_streq(mode, "divzero")) {
        fault_kind = hs_streq(mode, "udf") ? 1 : hs_streq(mode, "hardfault") ? 2 : 3;
        hs_app_configure(&c);
        hs_app_test_hook = hook_fault;
        hs_tick_run(&hs_app_frame, period);
        hs_con_puts("fault-test: no fault was raised\n");
        return HS_EXIT_TEST;
    }
    hs_con_puts("unknown mode\n");
    return HS_EXIT_USAGE;
}
