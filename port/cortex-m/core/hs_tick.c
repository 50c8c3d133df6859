/* hs_tick.c - SysTick timer shell with overrun detection (see hs_tick.h). */
#include "hs_tick.h"
#include "hs_board.h"
#include "hs_port.h"

hs_tick_stats hs_tick;
#ifdef HS_OVERRUN_POLICY_STOP
const int hs_tick_policy_stop = 1;
#else
const int hs_tick_policy_stop = 0;
#endif

static const hs_tick_app *g_app;
static uint32_t g_period;
static volatile int g_busy;
static volatile int g_running;
static volatile int g_done;
static volatile int g_warmup;

uint32_t hs_tick_period(void) { return g_period; }
int hs_tick_busy(void) { return g_busy; }

uint64_t hs_tick_now(void)
{
    uint32_t pm = hs_port_irq_save();
    uint32_t t = hs_tick.ticks;
    uint32_t v = HS_SYST_CVR;
    /* A reload that happened before the tick handler could count it: take the post-reload
     * value and count the tick here. */
    if (HS_SCB_ICSR & HS_ICSR_PENDSTSET) {
        v = HS_SYST_CVR;
        ++t;
    }
    hs_port_irq_restore(pm);
    /* The counter reaches 0 at the tick (that is when the interrupt pends), holds 0 for one
     * count, then reloads RVR = period - 1 and counts down to 1: so 0 is the first count of a
     * period, not the last. QEMU models this exactly. */
    return (uint64_t)t * g_period + (v ? g_period - v : 0u);
}

static void timer_stop(void)
{
    HS_SYST_CSR = 0;
    /* Disabling the counter does not withdraw a tick that is already pending. */
    HS_SCB_ICSR = HS_ICSR_PENDSTCLR;
    g_running = 0;
}

static void record(uint32_t dt)
{
    if (dt < hs_tick.exec_min) hs_tick.exec_min = dt;
    if (dt > hs_tick.exec_max) hs_tick.exec_max = dt;
    hs_tick.exec_sum += dt;
    if (dt > g_period) hs_tick.over++;
    int bin = 0;
    while (bin < HS_TICK_HIST_BINS - 1 && (dt >> (bin + 1)) != 0u) ++bin;
    hs_tick.hist[bin]++;
}

void hs_systick_handler(void);
void hs_systick_handler(void)
{
    hs_tick.ticks++;
    if (!g_running) return;
    if (g_busy) {
        hs_tick.overruns++;
        if (g_app->overrun && g_app->overrun()) {
            timer_stop();
            g_app->safe_state();
            hs_con_puts("\noverrun: stop policy, tick ");
            hs_con_u64(hs_tick.ticks);
            hs_con_puts(" steps ");
            hs_con_u64(hs_tick.steps);
            hs_con_puts(", outputs safe, exit 3\n");
            hs_exit(HS_EXIT_OVERRUN);
        }
        return;
    }
    HS_SCB_ICSR = HS_ICSR_PENDSVSET;
}

/* The rt_OneStep of this port. */
static void hs_tick_one_step(void)
{
    g_busy = 1;
    uint64_t t0 = hs_tick_now();
    int rc = g_app->step();
    uint64_t t1 = hs_tick_now();
    record((uint32_t)(t1 - t0));
    hs_tick.steps++;
    if (rc < 0) {
        timer_stop();
        g_app->safe_state();
        hs_con_puts("\nstep fault: code ");
        hs_con_i64(rc);
        hs_con_puts(" at frame ");
        hs_con_u64(hs_tick.steps);
        hs_con_puts(", outputs safe, exit 4\n");
        hs_exit(HS_EXIT_STEP);
    }
    if (rc > 0) {
        timer_stop();
        g_done = 1;
    }
    g_busy = 0;
}

void hs_pendsv_handler(void);
void hs_pendsv_handler(void)
{
    if (g_warmup) {
        g_app->warmup();
        g_warmup = 0;
        return;
    }
    hs_tick_one_step();
}

int hs_tick_run(const hs_tick_app *app, uint32_t period)
{
    g_app = app;
    g_period = period;
    hs_tick.exec_min = UINT32_MAX;
    if (app->initialize() != 0) {
        hs_con_puts("initialize failed\n");
        return HS_EXIT_SETUP;
    }
    /* SysTick above PendSV so a tick can preempt a running step: that is how an overrun is
     * seen while it happens. */
    HS_SCB_SHPR3 = (HS_SCB_SHPR3 & 0x0000ffffu) | (0x40u << 24) | (0xffu << 16);
    if (app->warmup) {
        g_warmup = 1;
        HS_SCB_ICSR = HS_ICSR_PENDSVSET;
        __asm__ volatile("dsb\n\tisb" ::: "memory");
        while (g_warmup) {
        }
    }
    g_running = 1;
    HS_SYST_RVR = period - 1u;
    HS_SYST_CVR = 0;
    HS_SYST_CSR = HS_SYST_ENABLE | HS_SYST_TICKINT | HS_SYST_CLKSOURCE;
    uint32_t next_status = app->status_period;
    for (;;) {
        /* Masked check-then-sleep: a finish between the test and WFI would otherwise sleep
         * forever on a stopped timer. WFI still wakes on the pending interrupt. */
        __asm__ volatile("cpsid i" ::: "memory");
        if (g_done) break;
        __asm__ volatile("wfi\n\tcpsie i\n\tisb" ::: "memory");
        if (app->status && hs_tick.ticks >= next_status) {
            next_status += app->status_period;
            app->status();
        }
    }
    __asm__ volatile("cpsie i" ::: "memory");
    app->terminate();
    return HS_EXIT_OK;
}
