/* stage_prof.c - the program test/bench/stages.sh runs under callgrind: one model (its registry
 * name, parameter n when > 0), the default method (or the one named), h = 1 ms, K steps from the
 * model's initial state inside hs_stage_steps (the only function callgrind counts), then the
 * hash of the final state (it shows that the profiling build steps the same bits as any other).
 * Usage: hilstep-stageprof MODEL N K [METHOD]
 * Not on the test harness (test/unit/hs_test.h): a profile run with no checks; stages.sh
 * tabulates callgrind's counts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hs_models.h"
#include "hs_stepper.h"

__attribute__((noinline)) int hs_stage_steps(hs_stepper *s, long k);

int hs_stage_steps(hs_stepper *s, long k)
{
    for (long i = 0; i < k; ++i) {
        if (hs_stepper_step(s, NULL) != HS_OK) return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 4) { fprintf(stderr, "usage: hilstep-stageprof MODEL N K [METHOD]\n"); return 2; }
    const hs_model_type *T = hs_model_find(argv[1]);
    const int n = atoi(argv[2]);
    const long k = atol(argv[3]);
    static union { hs_real r[64]; double a; } par;
    hs_model m;
    if (!T || hs_model_init(&m, T, &par) || (n > 0 && hs_model_set_param(&m, "n", (hs_real)n))) {
        fprintf(stderr, "hilstep-stageprof: bad model\n");
        return 2;
    }
    hs_stepper_def d = hs_stepper_default_def();
    if (argc > 4 && hs_method_parse(argv[4], &d.method) != HS_OK) { fprintf(stderr, "hilstep-stageprof: bad method\n"); return 2; }
    const size_t nt = (size_t)1 << 21;
    int *tmp = malloc(sizeof(int) * nt);
    size_t nr, ni;
    if (!tmp || hs_stepper_workspace_tmp(&d, &m, tmp, nt, &nr, &ni)) return 2;
    free(tmp);
    static hs_stepper s;
    hs_real *R = malloc(nr * sizeof *R);
    int *I = malloc(ni * sizeof *I);
    if (!R || !I || hs_stepper_init(&s, &d, &m, 0, R, nr, I, ni)) { fprintf(stderr, "hilstep-stageprof: init failed\n"); return 3; }
    if (hs_stage_steps(&s, k)) { fprintf(stderr, "hilstep-stageprof: a step was refused\n"); return 1; }
    uint64_t h = 1469598103934665603ull;
    printf("hash %016llx\n", (unsigned long long)hs_stepper_hash(&s, h));
    free(R);
    free(I);
    return 0;
}
