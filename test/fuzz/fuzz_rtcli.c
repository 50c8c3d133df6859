/* fuzz_rtcli.c - libFuzzer harness of hilstep-rt's command line: port/linux-rt/hilstep_rt.c
 * included whole with -DHS_RT_NO_MAIN (its option table and model selection are file-static;
 * including the file keeps them so instead of moving them into a header), then
 * parse_options, select_model and hs_plant_initialize with the options applied as main does.
 *
 * Input: the arguments, separated by NUL bytes (at most 40). Checked invariants (abort on
 * violation): the result is OK, help or bad; bad always carries a terminated message naming
 * hilstep-rt; OK means every value is inside its documented range (period 50 us .. 1 s,
 * duration 0 .. 1e7 s, priority 0..99, fault hold >= 1, max-rx >= 1, at most 16 terminated
 * --param keys), and model selection either succeeds (then the plant initializes or gives a
 * reason) or names why. Nothing prints, nothing exits; --model-file is not opened (its parser
 * has its own harness). */
#define HS_RT_NO_MAIN
#include "hilstep_rt.c"

#define MAXA 40

static void require(int ok)
{
    if (!ok) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char buf[4096 + 1];
    char *argv[MAXA + 1];
    char why[512];
    app *a = &A;
    if (size > 4096) size = 4096;
    memcpy(buf, data, size);
    buf[size] = '\0';
    int argc = 0;
    argv[argc++] = (char *)"hilstep-rt";
    for (size_t i = 0; i < size && argc < MAXA;) {
        argv[argc++] = buf + i;
        i += strlen(buf + i) + 1;
    }
    argv[argc] = NULL;
    memset(why, 'X', sizeof why);
    why[sizeof why - 1] = '\0';
    const int rc = parse_options(argc, argv, &a->o, why, sizeof why);
    require(rc == 0 || rc == 1 || rc == -1);
    if (rc == -1) require(strncmp(why, "hilstep-rt: ", 12) == 0);
    if (rc != 0) return 0;
    const options *o = &a->o;
    require(o->period_ns >= 50000 && o->period_ns <= 1000000000);
    require(o->duration >= 0.0 && o->duration <= 1e7 && o->prio >= 0 && o->prio <= 99);
    require(o->fault_hold >= 1 && o->max_rx >= 1 && o->nparams >= 0 && o->nparams <= MAX_PARAMS);
    require(o->fault_frames >= 1 && o->linger_ms >= 0.0 && o->cpu >= -1 && o->log != NULL);
    for (int i = 0; i < o->nparams; ++i)
        require(memchr(o->pname[i], '\0', sizeof o->pname[i]) != NULL && o->pname[i][0] != '\0');
    if (o->model_file) return 0;
    int r = select_model(a, why, sizeof why);
    require(r == HS_EXIT_OK || r == HS_EXIT_USAGE || r == HS_EXIT_SETUP);
    if (r != HS_EXIT_OK) {
        require(why[0] != '\0');
        return 0;
    }
    hs_plant_def def = hs_plant_default_def();
    def.step.method = o->method;
    def.step.form = o->form;
    def.step.stab = o->stab;
    def.step.h = (hs_real)((double)o->period_ns * 1e-9);
    def.step.alpha = HS_R(1.0) / def.step.h;
    def.step.beta = def.step.alpha * def.step.alpha;
    def.fault_hold = (uint32_t)o->fault_hold;
    def.overrun_stop = o->policy_stop;
    r = hs_plant_initialize(&a->plant, &def, &a->model, g_reals, sizeof g_reals / sizeof g_reals[0],
                            g_ints, sizeof g_ints / sizeof g_ints[0], why, sizeof why);
    require(r == HS_OK || (hs_exit_of(HS_TOOL_PLANT, r) == HS_EXIT_SETUP && why[0] != '\0'));
    return 0;
}
