/* test_mb_gen.c - the generated tables of every shipped description (model/gen/mb_NAME.c,
 * model/gen/mb_gen.h, model/gen/mb_gen.c, written by `make mb-gen`): each committed file is what the
 * generator writes from model/mech now (a stale one fails here), no generated file is left
 * without its description, and every generated model gives the parsed description's
 * trajectory bits on the host (the QEMU stage then compares the boards with the host). */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hs_hash.h"
#include "hs_mb_file.h"
#include "hs_models.h"
#include "hs_sparse.h"
#include "hs_stepper.h"
#include "mb_test.h"

#define MAXF 64
static char files[MAXF][256]; /* description files, sorted (the order mb_gen.sh uses) */
static char names[MAXF][HS_MB_NAME];
static int nfiles;

static int cmp_str(const void *a, const void *b) { return strcmp((const char *)a, (const char *)b); }

/* Whole output of a shell command into buf (n bytes); 0 when it ran and exited 0. */
static int run_cmd(const char *cmd, char *buf, size_t n)
{
    FILE *p = popen(cmd, "r");
    if (!p) return -1;
    size_t k = fread(buf, 1, n - 1, p);
    buf[k] = 0;
    return pclose(p);
}

/* Whole file into buf (n bytes); -1 when it cannot be read. */
static long slurp(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    size_t k = fread(buf, 1, n - 1, f);
    fclose(f);
    buf[k] = 0;
    return (long)k;
}

static int same_output(const char *cmd, const char *path)
{
    static char a[1 << 18], b[1 << 18];
    int rc = run_cmd(cmd, a, sizeof a);
    long k = slurp(path, b, sizeof b);
    return rc == 0 && k > 0 && strcmp(a, b) == 0;
}

/* The committed generated files against the generator's output now. */
static int up_to_date(const char *dir, const char *gen)
{
    static char cmd[1 << 15], all[1 << 14], what[512];
    int fails = 0, stale = 0;
    DIR *d = opendir(dir);
    if (!d) return mb_check(0, "mb-gen: the description directory opens");
    const struct dirent *e;
    nfiles = 0;
    /* the descriptions and the vehicles on tires beside them (dir/vehicles, MB_HSM in test/qemu/mech.mk) */
    char sub[300];
    snprintf(sub, sizeof sub, "%s/vehicles", dir);
    for (int pass = 0; pass < 2 && d != NULL; ++pass) {
        while ((e = readdir(d)) != NULL && nfiles < MAXF) {
            size_t L = strlen(e->d_name);
            if (L > 4 && strcmp(e->d_name + L - 4, ".hsm") == 0)
                snprintf(files[nfiles++], sizeof files[0], "%.120s/%.120s", pass ? sub : dir, e->d_name);
        }
        closedir(d);
        d = pass ? NULL : opendir(sub);
    }
    qsort(files, (size_t)nfiles, sizeof files[0], cmp_str);
    size_t n = 0;
    all[0] = 0;
    for (int i = 0; i < nfiles; ++i) {
        static hs_mb_store st;
        static hs_mb_model mb;
        names[i][0] = 0;
        if (hs_mb_load_file("hilstep-mbtest", files[i], &st, &mb, 0)) { ++stale; continue; }
        snprintf(names[i], sizeof names[i], "%s", st.name);
        char path[300];
        snprintf(path, sizeof path, "model/gen/mb_%s.c", st.name);
        snprintf(cmd, sizeof cmd, "%s %s", gen, files[i]);
        if (!same_output(cmd, path)) {
            printf("  %s is not what `%s` writes (run make mb-gen)\n", path, cmd);
            ++stale;
        }
        n += (size_t)snprintf(all + n, sizeof all - n, " %s", files[i]);
    }
    snprintf(what, sizeof what, "model/gen/mb_NAME.c of all %d descriptions = hilstep-mbgen FILE.hsm (make mb-gen; %d stale)",
             nfiles, stale);
    fails += mb_check(nfiles > 0 && stale == 0, what);
    snprintf(cmd, sizeof cmd, "%s --header%s", gen, all);
    int h = same_output(cmd, "model/gen/mb_gen.h");
    snprintf(cmd, sizeof cmd, "%s --list%s", gen, all);
    int l = same_output(cmd, "model/gen/mb_gen.c");
    snprintf(what, sizeof what, "model/gen/mb_gen.h and model/gen/mb_gen.c = hilstep-mbgen --header/--list of the %d descriptions (%s, %s); HS_MB_GEN_COUNT %d",
             nfiles, h ? "same" : "STALE", l ? "same" : "STALE", HS_MB_GEN_COUNT);
    fails += mb_check(h && l && HS_MB_GEN_COUNT == nfiles, what);
    /* No orphan: every model/gen/mb_*.c is a description's tables or the list. */
    int orphans = 0;
    d = opendir("model/gen");
    while (d && (e = readdir(d)) != NULL) {
        size_t L = strlen(e->d_name);
        if (strncmp(e->d_name, "mb_", 3) != 0 || L < 5 || strcmp(e->d_name + L - 2, ".c") != 0) continue;
        if (strcmp(e->d_name, "mb_gen.c") == 0) continue;
        int found = 0;
        for (int i = 0; i < nfiles; ++i)
            found |= strlen(names[i]) == L - 5 && strncmp(e->d_name + 3, names[i], L - 5) == 0;
        if (!found) { printf("  model/gen/%s has no description in %s\n", e->d_name, dir); ++orphans; }
    }
    if (d) closedir(d);
    fails += mb_check(d != NULL && orphans == 0, "every model/gen/mb_*.c comes from a description in model/mech (no orphan tables)");
    return fails;
}

/* One run: n steps from t = 0, hash of q, u, z after every step (hilstep-sim --hash). */
typedef struct run {
    hs_model m;
    hs_stepper s;
    /* the generated descriptions fit the boards' capacities (96, 96, 48: port/cortex-m/cortex-m.mk) */
    hs_real R[HS_STEPPER_REALS(96, 96, HS_MB_MAX_NZ)];
    /* HS_STEPPER_INTS bounds the dense layouts; the sparse factor's analysis comes on top
     * (vehicles/car.hsm: 42446 ints in all) */
    int I[HS_STEPPER_INTS(96, 96) + 32768];
} run;

static int hash_run(run *r, int j2, double h, int n, uint64_t *hash)
{
    hs_stepper_def d = hs_stepper_default_def();
    if (j2) { d.method = HS_METHOD_J2; d.form = HS_FORM_INDEX2; d.stab = HS_STAB_PROJECTION; }
    d.h = (hs_real)h;
    d.alpha = (hs_real)(1.0 / h); /* as hilstep-sim sets them */
    d.beta = (hs_real)(1.0 / (h * h));
    int rc = hs_stepper_init(&r->s, &d, &r->m, 0, r->R, sizeof r->R / sizeof r->R[0], r->I, sizeof r->I / sizeof r->I[0]);
    hs_real in[HS_MB_MAX_NIN] = {0};
    *hash = HS_HASH_INIT;
    for (int k = 0; k < n && !rc; ++k) {
        rc = hs_stepper_step(&r->s, in);
        if (!rc) *hash = hs_stepper_hash(&r->s, *hash);
    }
    return rc;
}

/* Generated tables against the parsed description, default configuration and J2. */
static int same_bits(void)
{
    static hs_mb_store st;
    static hs_mb_model mb;
    static run a, b;
    int fails = 0;
    for (int i = 0; i < HS_MB_GEN_COUNT; ++i) {
        const hs_model_type *T = hs_mb_gen_types[i];
        int f = -1;
        for (int k = 0; k < nfiles; ++k)
            if (strcmp(names[k], T->name) == 0) f = k;
        char what[300];
        if (f < 0 || hs_mb_load_file("hilstep-mbtest", files[f], &st, &mb, HS_MB_PACK_AUTO) || hs_mb_model_init(&b.m, &mb)
            || hs_model_init(&a.m, T, NULL)) {
            snprintf(what, sizeof what, "generated %s: its description loads", T->name);
            fails += mb_check(0, what);
            continue;
        }
        /* The equal-length slider crank is singular at t = 0.25 + 0.5 k: h = 1 ms lands on it. */
        const double h = strcmp(T->name, "slider_crank_eq") == 0 ? 1.1e-3 : 1e-3;
        uint64_t ha[2], hb[2];
        int rc[4];
        for (int j2 = 0; j2 < 2; ++j2) {
            rc[2 * j2] = hash_run(&a, j2, h, 1000, &ha[j2]);
            rc[2 * j2 + 1] = hash_run(&b, j2, h, 1000, &hb[j2]);
        }
        snprintf(what, sizeof what, "generated %s (nq %d, nc %d) = %s parsed: 1000 steps of h = %g s all committed, default 0x%016llx, j2 0x%016llx",
                 T->name, T->nq, T->nc, files[f], h, (unsigned long long)ha[0], (unsigned long long)ha[1]);
        fails += mb_check(!rc[0] && !rc[1] && !rc[2] && !rc[3] && ha[0] == hb[0] && ha[1] == hb[1], what);
    }
    return fails;
}

/* The twins' generated types run the plan's straight-line hooks, not the forwarders. */
static int own_hooks(void)
{
    static const char *const twins[] = {"car_axle_mb", "pendulum_mb", "chain"};
    int n = 0;
    for (int i = 0; i < HS_MB_GEN_COUNT; ++i) {
        const hs_model_type *T = hs_mb_gen_types[i];
        for (int k = 0; k < 3; ++k)
            if (strcmp(T->name, twins[k]) == 0 && T->mass != hs_mb_gen_mass && T->force != hs_mb_gen_force
                && T->force_jac != hs_mb_gen_force_jac && T->constraint != hs_mb_gen_constraint
                && T->constraint_all != NULL && T->constraint_all != hs_mb_gen_constraint_all && T->check != hs_mb_gen_check)
                ++n;
    }
    return mb_check(n == 3, "generated car_axle_mb, pendulum_mb, chain: straight-line plan hooks (gen_mass, gen_force, "
                            "gen_force_jac, gen_constraint, gen_constraint_all, gen_check), not the forwarders");
}

/* M block-diagonal (hs_model_type.mass_blockdiag) as every generated type declares: its off-diagonal
 * blocks exactly 0 at the state after 200 steps (the quaternion blocks depend on q); and car_hsm
 * with the declaration against a copy without it: the projection's factor smaller, the
 * trajectory the same within rounding (the left-out entries are exact zeros; the elimination
 * order may differ). */
static int mass_blocks(void)
{
    static run a, b;
    static hs_real M[96 * 96];
    int fails = 0, declared = 0, bad = 0;
    for (int i = 0; i < HS_MB_GEN_COUNT; ++i) {
        const hs_model_type *T = hs_mb_gen_types[i];
        declared += T->mass_blockdiag != 0;
        uint64_t h;
        if (!T->mass_blockdiag || hs_model_init(&a.m, T, NULL) || hash_run(&a, 0, 1e-3, 200, &h)) continue;
        const hs_blocks *B = &a.s.blocks;
        if (T->mass(&a.m, 0, a.s.q, M)) { ++bad; continue; }
        int p = 0;
        for (int k = 0; k < B->nqq; ++k) {
            const int bi = B->qq[2 * k], bj = B->qq[2 * k + 1];
            const int sz = (B->qb[bi + 1] - B->qb[bi]) * (B->qb[bj + 1] - B->qb[bj]);
            for (int e = 0; e < sz; ++e, ++p)
                if (bi != bj && M[p] != 0) { printf("  %s: M block (%d, %d) entry %d = %g\n", T->name, bi, bj, e, (double)M[p]); ++bad; }
        }
    }
    char what[300];
    snprintf(what, sizeof what, "M block-diagonal as declared: %d of %d generated types declare it, their off-diagonal blocks exactly 0 after 200 steps (%d not)",
             declared, HS_MB_GEN_COUNT, bad);
    fails += mb_check(declared == HS_MB_GEN_COUNT && bad == 0, what);
    const hs_model_type *C = NULL;
    for (int i = 0; i < HS_MB_GEN_COUNT; ++i)
        if (strcmp(hs_mb_gen_types[i]->name, "car_hsm") == 0) C = hs_mb_gen_types[i];
    static hs_model_type plain;
    uint64_t ha = 0, hb = 0;
    int ok = C != NULL;
    if (ok) {
        plain = *C;
        plain.mass_blockdiag = 0;
        ok = !hs_model_init(&a.m, C, NULL) && !hs_model_init(&b.m, &plain, NULL) && !hash_run(&a, 0, 1e-3, 1000, &ha)
             && !hash_run(&b, 0, 1e-3, 1000, &hb) && a.s.lsP.kind == HS_LS_SPARSE && b.s.lsP.kind == HS_LS_SPARSE
             && !a.s.lsP.schur && !b.s.lsP.schur;
    }
    int la = 0, lb = 0;
    double dq = 0, qmax = 0;
    if (ok) {
        hs_sparse_info(a.s.lsP.sym, &la, NULL, NULL);
        hs_sparse_info(b.s.lsP.sym, &lb, NULL, NULL);
        for (int j = 0; j < C->nq; ++j) {
            const double d = fabs((double)a.s.q[j] - (double)b.s.q[j]);
            dq = d > dq ? d : dq;
            qmax = fabs((double)a.s.q[j]) > qmax ? fabs((double)a.s.q[j]) : qmax;
        }
    }
    snprintf(what, sizeof what, "car_hsm: the projection's factor without M's off-diagonal blocks %d entries of L, %d with them; "
             "1000 steps: max |q - q_with| = %.3g (|q| <= %.3g; hashes 0x%016llx, 0x%016llx)", la, lb, dq, qmax,
             (unsigned long long)ha, (unsigned long long)hb);
    fails += mb_check(ok && la > 0 && la < lb && dq <= 1e-12 * (1 + qmax), what);
    /* the operation counts of both factors as shipped, without the leaf rows, and without
     * either (the order before them): model/TIRE.md and rt/README.md quote these */
    long fk[3] = {0, 0, 0}, fp[3] = {0, 0, 0}, sv;
    uint64_t hc = 0;
    if (ok) {
        hs_sparse_ops(a.s.lsK.sym, &fk[0], &sv);
        hs_sparse_ops(a.s.lsP.sym, &fp[0], &sv);
        plain = *C;
        plain.leaf_rows = NULL;
        ok = !hs_model_init(&b.m, &plain, NULL) && !hash_run(&b, 0, 1e-3, 1, &hc);
        if (ok) { hs_sparse_ops(b.s.lsK.sym, &fk[1], &sv); hs_sparse_ops(b.s.lsP.sym, &fp[1], &sv); }
        plain.mass_blockdiag = 0;
        ok = ok && !hs_model_init(&b.m, &plain, NULL) && !hash_run(&b, 0, 1e-3, 1, &hc);
        if (ok) { hs_sparse_ops(b.s.lsK.sym, &fk[2], &sv); hs_sparse_ops(b.s.lsP.sym, &fp[2], &sv); }
    }
    snprintf(what, sizeof what, "car_hsm: factor flops, step / projection: %ld / %ld as shipped, %ld / %ld without the leaf rows, "
             "%ld / %ld without them and M's block pattern", fk[0], fp[0], fk[1], fp[1], fk[2], fp[2]);
    fails += mb_check(ok && fk[0] < fk[1] && fp[0] < fp[1] && fp[1] < fp[2] && fk[1] == fk[2], what);
    return fails;
}

int mb_test_gen(const char *dir, const char *gen)
{
    int fails = up_to_date(dir, gen) + own_hooks();
    return fails + same_bits() + mass_blocks();
}
