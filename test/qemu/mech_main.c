/* mech_main.c - hilstep-mech.elf: one shipped mechanism on the board, its trajectory hash and
 * its instructions per step (issue 10: "instructions per step for each shipped mechanism, on
 * host and on the M7"). The model is a generated description (model/gen/mb_NAME.c, listed in
 * hs_mb_gen_types), a registry model (the hand-written car_axle, for reference) or one of the
 * vehicles on TMeasy tires (car, truck_trailer, truck_trailer_pen: model/vehicle/hs_veh.h), which
 * the boards' registry lists as the host's does (the plant image runs the car too).
 *
 * Command line (semihosting, after the kernel name):
 *   NAME CONFIG H_US STEPS [PERIOD_MS [CAP_REALS]]
 *     NAME       [hand:]MODEL[,KEY=VALUE...]: hand: takes the hand-written registry model even
 *                where a generated description has the same name (chain.hsm is `chain` too);
 *                KEY=VALUE sets a parameter as hilstep-sim --param does (VALUE a decimal of at
 *                most 15 digits, [-]D[.D], read as the double strtod gives), e.g.
 *                hand:chain,n=8,len=0.5 is the twin of chain.hsm
 *     CONFIG     default: hs_stepper_default_def()'s method, form and stabilization;
 *                or METHOD[/STAB]: a method name (j2, symplectic, ...) with index-2 and
 *                projection, or the stabilization named (none, baumgarte, projection)
 *     H_US       step size in microseconds (h = H_US / 1e6 s, the double nearest --h)
 *     STEPS      steps from t = 0 with zero inputs, as hilstep-sim --t STEPS*h --hash runs them
 *     PERIOD_MS  frame period (default 10): the step runs in the timer's frame context
 *                (hs_tick.h) and must finish inside one frame, so no tick preempts it
 *     CAP_REALS  test switch: pretend the real arena holds only this many (the refusal path)
 * Prints
 *   mech NAME nq=.. nc=.. nz=.. nin=.. h-us=.. config=METHOD/FORM/STAB
 *   arena reals=USED of CAP ints=USED of CAP
 *   trajectory-hash NAME METHOD STAB STEPS 0x<16 hex>      (hilstep-sim --hash's line)
 *   mech-cost NAME METHOD STAB steps=N min=.. max=.. mean=.. instructions
 *   arena-guard ok | arena-guard OVERWRITTEN
 *   stack used=N of SIZE bytes                  (painted high-water mark of the whole run)
 * Instructions come from SysTick counts x 40 under QEMU -icount shift=0 (hs_board.h), around
 * hs_stepper_step only. The arenas are one static pool sized for the largest model this image
 * links (HS_STEPPER_REALS of mb_gen.h's largest sizes); each run takes exactly what
 * hs_stepper_workspace_tmp says for its configuration, refuses to start when that does not fit,
 * and checks a guard band after the used part was never written.
 * Exit status: 0 ok, 1 usage, 2 setup (unknown model, arena too small, init refused),
 * 3 a step longer than the frame, 4 a refused step, 7 the guard band was written or a step count is off (hs_exit.h).
 * Not on the test harness (test/unit/hs_test.h): a measurement whose records (hash, cost,
 * arena) the scripts compare. */
#include "hs_board.h"
#include "hs_hash.h"
#include "hs_models.h"
#include "hs_stepper.h"
#include "hs_tick.h"
#include "hs_veh.h"

/* Largest sizes of any model this image can run: the generated ones and the library's. */
#define MECH_MAX(a, b) ((a) > (b) ? (a) : (b))
#define MECH_NQ MECH_MAX(MECH_MAX(HS_MB_GEN_MAX_NQ, HS_MODELS_MAX_NQ), HS_VEH_TT_NQ)
#define MECH_NC MECH_MAX(HS_MB_GEN_MAX_NC, HS_MODELS_MAX_NC)
#define MECH_NZ MECH_MAX(MECH_MAX(HS_MODELS_MAX_NZ, HS_VEH_TT_NZ), HS_MB_GEN_MAX_NZ)
#define MECH_NIN MECH_MAX(MECH_MAX(HS_MB_GEN_MAX_NIN, HS_MODELS_MAX_NIN), HS_VEH_TT_NIN)
/* sizing scratch (hs_stepper_workspace_tmp), static: chain.hsm on the sparse backend needs its
 * analysis' scratch, more than 2048 ints */
#define MECH_SIZING_INTS 16384
#define MECH_GUARD 64 /* reals and ints after the used part that must stay untouched */
#define GUARD_REAL HS_R(-1.25e30)
#define GUARD_INT (-0x2152411)

static hs_real R[HS_STEPPER_REALS_CT(MECH_NQ, MECH_NC, MECH_NZ, HS_MB_GEN_MAX_NK) + MECH_GUARD];
/* HS_STEPPER_INTS bounds the dense layouts; a description on the sparse backend (chain.hsm
 * 5476 ints, fourbar_spatial.hsm 34655 with the factors' update programs, vehicles/car.hsm
 * 42446 of which 4337 the dense bound) also keeps the factor's analysis, hence the extra room */
#define MECH_SPARSE_INTS 40960
static int I[HS_STEPPER_INTS(MECH_NQ, MECH_NC) + MECH_SPARSE_INTS + MECH_GUARD];
static union { hs_real r[HS_MODELS_MAX_PARAM_BYTES / sizeof(hs_real) + 1]; double d; } params;
static const hs_real zero_in[MECH_NIN + 1];

static char cmd[160];
static char *argv[8];
static int argc;

static hs_model model;
static hs_stepper st;
static hs_stepper_def def;
static size_t nreals, nints;
static size_t cap_reals = sizeof R / sizeof R[0] - MECH_GUARD;
static uint32_t nsteps, done;
static uint64_t hash, cost_sum;
static uint32_t cost_min = UINT32_MAX, cost_max;

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

static const hs_model_type *find(const char *name)
{
    static const hs_model_type *const veh[] = {&hs_veh_car_type, &hs_veh_tt_dae_type, &hs_veh_tt_pen_type};
    if (name[0] == 'h' && name[1] == 'a' && name[2] == 'n' && name[3] == 'd' && name[4] == ':')
        return hs_model_find(name + 5);
    for (int i = 0; i < HS_MB_GEN_COUNT; ++i)
        if (hs_streq(hs_mb_gen_types[i]->name, name)) return hs_mb_gen_types[i];
    for (unsigned i = 0; i < sizeof veh / sizeof veh[0]; ++i)
        if (hs_streq(veh[i]->name, name)) return veh[i];
    return hs_model_find(name);
}

/* [-]D[.D] with at most 15 digits into *v, as strtod reads it: the digits form an integer
 * below 2^53 and 10^k (k <= 15) is exact, so the one division rounds once, as strtod does. */
static int parse_dec(const char *s, double *v)
{
    int neg = 0, digits = 0, frac = 0, dot = 0;
    uint64_t mant = 0;
    if (*s == '-') { neg = 1; ++s; }
    for (; *s; ++s) {
        if (*s == '.' && !dot) { dot = 1; continue; }
        if (*s < '0' || *s > '9' || ++digits > 15) return -1;
        mant = mant * 10u + (uint64_t)(*s - '0');
        frac += dot;
    }
    if (digits == 0) return -1;
    double p = 1.0;
    for (int k = 0; k < frac; ++k) p *= 10.0;
    *v = (double)mant / p;
    if (neg) *v = -*v;
    return 0;
}

/* The KEY=VALUE list after NAME's first comma (commas and '=' are overwritten with NULs). */
static int set_params(char *list)
{
    while (list != NULL && *list) {
        char *key = list, *eq = list, *end;
        double v;
        while (*eq && *eq != '=' && *eq != ',') ++eq;
        if (*eq != '=') return -1;
        *eq = '\0';
        end = eq + 1;
        while (*end && *end != ',') ++end;
        list = *end ? end + 1 : NULL;
        *end = '\0';
        if (parse_dec(eq + 1, &v) != 0 || hs_model_set_param(&model, key, (hs_real)v) != HS_OK) {
            hs_con_puts("bad parameter ");
            hs_con_puts(key);
            hs_con_putc('\n');
            return -1;
        }
    }
    return 0;
}

static void put_kv(const char *k, uint64_t v)
{
    hs_con_puts(k);
    hs_con_u64(v);
}

static int start(void)
{
    int rc = hs_stepper_init(&st, &def, &model, HS_R(0.0), R, nreals, I, nints);
    hash = HS_HASH_INIT;
    done = 0;
    return rc;
}

static int mech_initialize(void)
{
    /* static: the sparse chain.hsm's analysis needs more sizing scratch than the stack should hold */
    static int sizing[MECH_SIZING_INTS];
    int rc = hs_stepper_workspace_tmp(&def, &model, sizing, MECH_SIZING_INTS, &nreals, &nints);
    if (rc) {
        hs_con_puts("workspace: ");
        hs_con_puts(hs_status_str(rc));
        hs_con_putc('\n');
        return rc;
    }
    const size_t capr = cap_reals, capi = sizeof I / sizeof I[0] - MECH_GUARD;
    put_kv("arena reals=", nreals);
    put_kv(" of ", capr);
    put_kv(" ints=", nints);
    put_kv(" of ", capi);
    hs_con_putc('\n');
    if (nreals > capr || nints > capi) {
        hs_con_puts("arena too small for this model and configuration: refused\n");
        return HS_E_SIZE;
    }
    for (size_t i = nreals; i < nreals + MECH_GUARD; ++i) R[i] = GUARD_REAL;
    for (size_t i = nints; i < nints + MECH_GUARD; ++i) I[i] = GUARD_INT;
    rc = start();
    if (rc) {
        hs_con_puts("init: ");
        hs_con_puts(hs_status_str(rc));
        hs_con_putc('\n');
    }
    return rc;
}

/* Two untimed steps in the frame's context, then a fresh start (hs_app.c says why). */
static void mech_warmup(void)
{
    (void)hs_stepper_step(&st, zero_in);
    (void)hs_stepper_step(&st, zero_in);
    (void)start();
}

static int mech_step(void)
{
    const uint64_t t0 = hs_tick_now();
    const int rc = hs_stepper_step(&st, zero_in);
    const uint64_t t1 = hs_tick_now();
    if (rc) return rc < 0 ? rc : -1;
    const uint32_t c = (uint32_t)(t1 - t0) * HS_INSN_PER_COUNT;
    if (c < cost_min) cost_min = c;
    if (c > cost_max) cost_max = c;
    cost_sum += c;
    hash = hs_stepper_hash(&st, hash);
    ++done;
    return done >= nsteps ? 1 : 0;
}

static void mech_terminate(void) {}
static int mech_overrun(void) { return 1; } /* a step longer than the frame: stop, no number */

static void print_head(const char *tag)
{
    hs_con_puts(tag);
    hs_con_putc(' ');
    hs_con_puts(model.type->name);
    hs_con_putc(' ');
    hs_con_puts(hs_method_name(def.method));
    hs_con_putc(' ');
    hs_con_puts(hs_stab_name(def.stab));
}

static void mech_safe_state(void)
{
    put_kv("mech: stopped after ", done);
    hs_con_puts(" committed steps, last fault ");
    hs_con_puts(hs_status_str(st.stats.last_fault));
    hs_con_putc('\n');
}

static const hs_tick_app app = {
    mech_initialize, mech_warmup, mech_step, mech_terminate, mech_overrun, mech_safe_state, NULL, 0u
};

static int guard_intact(void)
{
    int ok = 1;
    for (size_t i = nreals; i < nreals + MECH_GUARD; ++i) ok &= R[i] == GUARD_REAL;
    for (size_t i = nints; i < nints + MECH_GUARD; ++i) ok &= I[i] == GUARD_INT;
    return ok;
}

int main(void)
{
    if (hs_cmdline(cmd, (int)sizeof cmd) < 0) return HS_EXIT_USAGE;
    split();
    if (argc < 5 || argc > 7) {
        hs_con_puts("usage: [hand:]NAME[,KEY=VALUE...] default|METHOD H_US STEPS [PERIOD_MS [CAP_REALS]]\n");
        return HS_EXIT_USAGE;
    }
    char *plist = argv[1];
    while (*plist && *plist != ',') ++plist;
    if (*plist == ',') *plist++ = '\0';
    else plist = NULL;
    const hs_model_type *T = find(argv[1]);
    const long h_us = hs_parse_ulong(argv[3]), n = hs_parse_ulong(argv[4]);
    const long period_ms = argc >= 6 ? hs_parse_ulong(argv[5]) : 10;
    const long cap = argc == 7 ? hs_parse_ulong(argv[6]) : -1;
    if (argc == 7 && cap >= 0 && (size_t)cap < cap_reals) cap_reals = (size_t)cap;
    /* SysTick's reload register has 24 bits: at most 671 ms per frame. */
    if (h_us <= 0 || n <= 0 || period_ms <= 0 || period_ms > 600 || (argc == 7 && cap < 0)) {
        hs_con_puts("bad H_US, STEPS, PERIOD_MS or CAP_REALS\n");
        return HS_EXIT_USAGE;
    }
    if (!T || hs_model_init(&model, T, &params) != HS_OK) {
        hs_con_puts("unknown model\n");
        return HS_EXIT_SETUP;
    }
    if (set_params(plist) != 0) return HS_EXIT_USAGE;
    if (hs_model_check(&model) != HS_OK) {
        hs_con_puts("model check failed\n");
        return HS_EXIT_SETUP;
    }
    def = hs_stepper_default_def();
    if (!hs_streq(argv[2], "default")) {
        /* METHOD[/STAB]: split at the slash in the command-line buffer */
        char *slash = argv[2];
        while (*slash && *slash != '/') ++slash;
        const char *stab = "projection";
        if (*slash == '/') { *slash = '\0'; stab = slash + 1; }
        int me = -1, sb = -1;
        for (int m = 0; m < HS_METHOD_COUNT; ++m)
            if (hs_streq(argv[2], hs_method_name((hs_method)m))) me = m;
        for (int b = HS_STAB_NONE; b <= HS_STAB_PROJECTION; ++b)
            if (hs_streq(stab, hs_stab_name((hs_stab)b))) sb = b;
        if (me < 0 || sb < 0) { hs_con_puts("unknown method or stabilization\n"); return HS_EXIT_USAGE; }
        def.method = (hs_method)me;
        def.form = HS_FORM_INDEX2;
        def.stab = (hs_stab)sb;
    }
    /* As hilstep-sim sets them from --h (the Baumgarte values are unused with projection but
     * kept identical, so any configuration gives the host's bits). */
    const double h = (double)h_us / 1e6;
    def.h = (hs_real)h;
    def.alpha = (hs_real)(1.0 / h);
    def.beta = (hs_real)(1.0 / (h * h));
    nsteps = (uint32_t)n;
    hs_con_puts("mech ");
    hs_con_puts(T->name);
    put_kv(" nq=", (uint64_t)model.d.nq);
    put_kv(" nc=", (uint64_t)model.d.nc);
    put_kv(" nz=", (uint64_t)model.d.nz);
    put_kv(" nin=", (uint64_t)model.d.nin);
    put_kv(" h-us=", (uint64_t)h_us);
    hs_con_puts(" config=");
    hs_con_puts(hs_method_name(def.method));
    hs_con_putc('/');
    hs_con_puts(hs_form_name(def.form));
    hs_con_putc('/');
    hs_con_puts(hs_stab_name(def.stab));
    hs_con_putc('\n');

    int rc = hs_tick_run(&app, (uint32_t)period_ms * (HS_SYSTICK_HZ / 1000u));
    if (rc) return rc;
    print_head("trajectory-hash");
    put_kv(" ", done);
    hs_con_puts(" 0x");
    hs_con_hex(hash, 16);
    hs_con_putc('\n');
    print_head("mech-cost");
    put_kv(" steps=", done);
    put_kv(" min=", cost_min);
    put_kv(" max=", cost_max);
    put_kv(" mean=", done ? cost_sum / done : 0u);
    hs_con_puts(" instructions\n");
    const int guard = guard_intact();
    hs_con_puts(guard ? "arena-guard ok\n" : "arena-guard OVERWRITTEN\n");
    put_kv("stack used=", hs_stack_used());
    put_kv(" of ", hs_stack_size());
    hs_con_puts(" bytes\n");
    if (!guard || done != nsteps || hs_tick.overruns != 0u) return HS_EXIT_TEST;
    return HS_EXIT_OK;
}
