/* fuzz_cli.c - libFuzzer harness of hilstep-sim's command line (port/host/sim_main.c built
 * with -DHS_SIM_NO_MAIN): hs_sim_parse, then hs_sim_setup when parsing succeeded.
 *
 * Input: the arguments, separated by NUL bytes (at most 40). Checked invariants (abort on
 * violation): the result is one of OK/HELP/BAD; BAD always names an argument and a reason,
 * both terminated; OK means a model was found, the definition validates, the step count is
 * at most HS_SIM_MAX_STEPS and T is a whole number of steps. Nothing prints, nothing exits. */
#include "sim_args.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAXA 40

static void require(int ok)
{
    if (!ok) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char buf[4096 + 1];
    static hs_sim_cfg cfg;
    static hs_sim_run run;
    char *argv[MAXA + 1];
    hs_sim_err err;
    if (size > 4096) size = 4096;
    memcpy(buf, data, size);
    buf[size] = '\0';
    int argc = 0;
    argv[argc++] = (char *)"hilstep-sim";
    for (size_t i = 0; i <= size && argc < MAXA;) {
        argv[argc++] = buf + i;
        size_t l = strlen(buf + i);
        i += l + 1;
    }
    argv[argc] = NULL;
    int rc = hs_sim_parse(argc, argv, &cfg, &err);
    require(rc == HS_SIM_OK || rc == HS_SIM_HELP || rc == HS_SIM_BAD);
    /* --model-file opens a path: fuzz-made names could block (/dev/stdin) or read anything.
     * The description parser has its own harness (fuzz_mbfile.c) on the buffer entry point. */
    if (rc == HS_SIM_OK && (cfg.model_file || cfg.inputs_path)) return 0; /* --inputs too */
    if (rc == HS_SIM_OK) rc = hs_sim_setup(&cfg, &run, &err);
    require(rc == HS_SIM_OK || rc == HS_SIM_HELP || rc == HS_SIM_BAD);
    if (rc == HS_SIM_BAD) {
        require(memchr(err.arg, '\0', sizeof err.arg) && memchr(err.why, '\0', sizeof err.why));
        require(err.arg[0] != '\0' && err.why[0] != '\0');
    }
    if (rc == HS_SIM_OK) {
        require(run.type != NULL);
        require(hs_stepper_def_validate(&cfg.def, &run.model) == HS_OK);
        require((double)run.nsteps <= HS_SIM_MAX_STEPS);
        require(fabs((double)run.nsteps * cfg.h - cfg.T_end) <= 1e-5 * cfg.h + 1e-9 * cfg.T_end);
        require(cfg.every >= 1);
    }
    return 0;
}
