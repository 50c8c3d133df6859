/* mb_twins.c - build/hilstep-mbtwins: N steps of one model in the library's default stepper
 * configuration (h = 1 ms), for callgrind's instruction counts of a description against its
 * hand-written twin (test/bench/mb_twins.sh, part of make bench).
 *   hilstep-mbtwins hand NAME [KEY=VALUE] N    a registered model (e.g. chain n=8)
 *   hilstep-mbtwins gen NAME N                 a generated description (model/gen/mb_NAME.c)
 *   hilstep-mbtwins file PATH N                a description file, loaded as hilstep-sim does
 * With --stages before the kind, every model hook runs through a forwarder of its own
 * (stage_mass, stage_force, ...), so callgrind's inclusive cost per forwarder is the cost of
 * that stage; the forwarders add a call each, so totals come from runs without --stages.
 * Exit status 0 when every step was committed, 1 otherwise, 2 on bad arguments. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hs_models.h"
#include "hs_mb_file.h"
#include "hs_stepper.h"
#include "mb_gen.h"

static const hs_model_type *inner_type;

static int stage_mass(const hs_model *m, hs_real t, const hs_real *q, hs_real *M)
{
    return inner_type->mass(m, t, q, M);
}
static int stage_force(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                       const hs_real *z, const hs_real *in, hs_real *f)
{
    return inner_type->force(m, t, q, u, z, in, f);
}
static int stage_force_jac(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                           const hs_real *z, const hs_real *in, hs_real *fq, hs_real *fu)
{
    return inner_type->force_jac(m, t, q, u, z, in, fq, fu);
}
static int stage_force_fj(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                          const hs_real *z, const hs_real *in, hs_real *f, hs_real *fq, hs_real *fu)
{
    return inner_type->force_fj(m, t, q, u, z, in, f, fq, fu);
}
static int stage_zdot(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                      const hs_real *z, const hs_real *in, hs_real *zd)
{
    return inner_type->zdot(m, t, q, u, z, in, zd);
}
static int stage_constraint(const hs_model *m, hs_real t, const hs_real *q, hs_real *g, hs_real *G,
                            hs_real *gt)
{
    return inner_type->constraint(m, t, q, g, G, gt);
}
static int stage_gamma(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, hs_real *gam)
{
    return inner_type->gamma(m, t, q, u, gam);
}
static int stage_curvature(const hs_model *m, hs_real t, const hs_real *q, const hs_real *lam,
                           hs_real *K)
{
    return inner_type->curvature(m, t, q, lam, K);
}

static int stage_constraint_all(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,
                                const hs_real *lam, hs_real *G, hs_real *gam, hs_real *K)
{
    return inner_type->constraint_all(m, t, q, u, lam, G, gam, K);
}

static int usage(void)
{
    fprintf(stderr, "usage: hilstep-mbtwins [--stages] hand NAME [KEY=VALUE] N | gen NAME N | file PATH N\n");
    return 2;
}

int main(int argc, char **argv)
{
    static hs_mb_store st;
    static hs_mb_model mb;
    static hs_model m;
    static union { hs_real r[64]; double a; } pblock;
    static hs_stepper s;
    static hs_real R[HS_STEPPER_REALS(HS_MB_MAX_NQ * 4, HS_MB_MAX_NC * 4, 4)];
    static int I[HS_STEPPER_INTS(HS_MB_MAX_NQ * 4, HS_MB_MAX_NC * 4)];
    static hs_model_type wrapped;
    int a = 1, stages = 0;
    if (a < argc && strcmp(argv[a], "--stages") == 0) { stages = 1; ++a; }
    if (argc - a < 3) return usage();
    const char *kind = argv[a], *name = argv[a + 1];
    const char *kv = (argc - a == 4) ? argv[a + 2] : NULL;
    long n = atol(argv[argc - 1]);
    const hs_model_type *T = NULL;
    if (strcmp(kind, "hand") == 0) {
        T = hs_model_find(name);
    } else if (strcmp(kind, "gen") == 0) {
        for (int i = 0; i < HS_MB_GEN_COUNT; ++i)
            if (strcmp(hs_mb_gen_types[i]->name, name) == 0) T = hs_mb_gen_types[i];
    } else if (strcmp(kind, "file") == 0) {
        if (hs_mb_load_file("hilstep-mbtwins", name, &st, &mb, HS_MB_PACK_AUTO)) return 2;
        T = &mb.type;
    } else {
        return usage();
    }
    if (T == NULL || n < 1 || T->param_size > sizeof pblock) return usage();
    inner_type = T;
    if (stages) {
        wrapped = *T;
        wrapped.mass = stage_mass;
        wrapped.force = stage_force;
        if (T->force_jac) wrapped.force_jac = stage_force_jac;
        if (T->force_fj) wrapped.force_fj = stage_force_fj;
        if (T->zdot) wrapped.zdot = stage_zdot;
        if (T->constraint) wrapped.constraint = stage_constraint;
        if (T->gamma) wrapped.gamma = stage_gamma;
        if (T->curvature) wrapped.curvature = stage_curvature;
        if (T->constraint_all) wrapped.constraint_all = stage_constraint_all;
        T = &wrapped;
    }
    if (hs_model_init(&m, T, &pblock) != HS_OK) return usage();
    if (strcmp(kind, "file") == 0) m.desc = &mb;
    /* KEY=VALUE[,KEY=VALUE...]: the hand-written twin's parameters (as hilstep-sim --param) */
    for (const char *p = kv; p != NULL && *p != 0;) {
        const char *eq = strchr(p, '='), *end = strchr(p, ',');
        char key[32];
        if (eq == NULL || (end != NULL && eq > end) || (size_t)(eq - p) >= sizeof key) return usage();
        memcpy(key, p, (size_t)(eq - p));
        key[eq - p] = 0;
        if (hs_model_set_param(&m, key, (hs_real)atof(eq + 1)) != HS_OK) return usage();
        p = (end != NULL) ? end + 1 : NULL;
    }
    if (hs_model_check(&m) != HS_OK) return usage();
    hs_stepper_def d = hs_stepper_default_def();
    d.h = HS_R(1e-3);
    d.alpha = HS_R(1e3);
    d.beta = HS_R(1e6);
    int rc = hs_stepper_init(&s, &d, &m, 0, R, sizeof R / sizeof R[0], I, sizeof I / sizeof I[0]);
    if (rc != HS_OK) {
        fprintf(stderr, "hilstep-mbtwins: stepper init: %s\n", hs_status_str(rc));
        return 1;
    }
    static const hs_real in[HS_MB_MAX_NIN] = {0};
    long bad = 0;
    for (long k = 0; k < n; ++k) bad += hs_stepper_step(&s, in) != HS_OK;
    printf("steps=%ld refused=%ld\n", n, bad);
    return bad ? 1 : 0;
}
