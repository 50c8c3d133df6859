/* sim_main.c - build/hilstep-sim, the offline simulator on the host's simulated clock.
 * Its command line, CSV header and summary line are a contract read by benchmarks and the
 * figure scripts (README.md, "Offline simulator"). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hs_hash.h"
#include "hs_mb_file.h"
#include "hs_models.h"
#include "hs_stepper.h"

#define MAXP 32

static void usage(FILE *o)
{
    fprintf(o,
        "usage: hilstep-sim --model NAME [--param KEY=VALUE ...] | --model-file FILE.hsm\n"
        "                   --method explicit|symplectic|j1|j2|j3|jexact\n"
        "                   --form index1|index2|ggl --stab none|baumgarte|projection\n"
        "                   [--alpha A] [--beta B] [--jac auto|analytic|fd]\n"
        "                   --h H --t T [--csv FILE] [--every N] [--hash]\n\n"
        "  --method   explicit    explicit Euler (positions first)\n"
        "             symplectic  semi-implicit Euler, velocities first (seed 003, veDYNA)\n"
        "             j1          linear-implicit Euler, J1 = [0 0; fq fu]\n"
        "             j2          linear-implicit Euler, J2 = [0 0; fq fu + h fq]\n"
        "             j3          linear-implicit Euler, J3 = [0 0; fq 0] (one directional derivative)\n"
        "             jexact      linear-implicit Euler, exact J = [0 I; fq fu]\n"
        "  --form     index1 (acceleration-level multipliers) | index2 (eq. 6b, velocity level)\n"
        "             | ggl (eq. 9: one-Newton-step position projection inside the step, then\n"
        "             eq. 6b at q_{n+1}; with --stab none and a positions-first method)\n"
        "  --stab     none | baumgarte (default alpha = 1/h, beta = 1/h^2) | projection\n"
        "             (one Newton step on positions, eq. 11, then velocities)\n"
        "  --jac      Jacobian blocks: auto (analytic if the model has them), analytic, fd\n"
        "  --h        step size (s);  --t end time (s);  --every N: CSV row every N steps\n"
        "  --csv      CSV file: t,q1..qN,u1..uN,g1..gM,z1..zK,lam1..lamM\n"
        "  --hash     print 'trajectory-hash MODEL METHOD STAB STEPS 0x...' (FNV-1a of q,u,z\n"
        "             after every step)\n"
        "Prints one summary line of key=value pairs (steps, max_abs_g, ns_per_step, status, ...).\n"
        "Exit status: 0 ok, 1 the stepper refused a step (status names the fault), 2 bad arguments.\n\n"
        "models:\n");
    for (int i = 0; hs_model_registry[i]; ++i) {
        const hs_model_type *T = hs_model_registry[i];
        fprintf(o, "  %s: %s (nq=%d nc=%d nz=%d nin=%d)\n", T->name, T->doc, T->nq, T->nc, T->nz, T->nin);
        for (int j = 0; j < T->nparams; ++j)
            fprintf(o, "      %-9s default %-8g [%g, %g]  %s\n", T->params[j].name,
                    (double)T->params[j].def, (double)T->params[j].min, (double)T->params[j].max,
                    T->params[j].doc);
    }
}

static int bad(const char *arg, const char *why)
{
    fprintf(stderr, "hilstep-sim: %s: %s (see --help)\n", arg, why);
    return 2;
}

static int parse_real(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v)) return 0;
    *out = v;
    return 1;
}

static const char *status_token(int rc)
{
    switch (rc) {
    case HS_OK: return "ok";
    case HS_E_SINGULAR: return "singular";
    case HS_E_NONFINITE: return "nonfinite";
    case HS_E_MODEL: return "model_fault";
    case HS_E_INPUT: return "bad_input";
    default: return "fault";
    }
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    const char *model_name = NULL, *csv_path = NULL;
    const char *model_file = NULL; /* --model-file: a multibody description (README "Writing your own model") */
    const char *pkeys[MAXP];
    double pvals[MAXP];
    int np = 0, every = 1, want_hash = 0;
    int have_method = 0, have_h = 0, have_t = 0, have_alpha = 0, have_beta = 0;
    double T_end = 0.0, alpha = 0.0, beta = 0.0, h = 0.0;
    hs_stepper_def def = hs_stepper_default_def();

    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const char *v = (i + 1 < argc) ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); return 0; }
        if (!strcmp(a, "--hash")) { want_hash = 1; continue; }
        if (!v) return bad(a, "missing value");
        ++i;
        if (!strcmp(a, "--model")) {
            model_name = v;
        } else if (!strcmp(a, "--model-file")) {
            model_file = v;
        } else if (!strcmp(a, "--param")) {
            const char *eq = strchr(v, '=');
            if (!eq || eq == v) return bad("--param", "expected KEY=VALUE");
            if (np >= MAXP) return bad("--param", "too many parameters");
            static char keys[MAXP][64];
            size_t kl = (size_t)(eq - v);
            if (kl >= sizeof keys[0]) return bad("--param", "key too long");
            memcpy(keys[np], v, kl);
            keys[np][kl] = 0;
            if (!parse_real(eq + 1, &pvals[np])) return bad("--param", "value is not a finite number");
            pkeys[np] = keys[np];
            ++np;
        } else if (!strcmp(a, "--method")) {
            int found = 0;
            for (int k = 0; k < HS_METHOD_COUNT; ++k)
                if (!strcmp(v, hs_method_name((hs_method)k))) { def.method = (hs_method)k; found = 1; }
            if (!found) return bad("--method", "expected explicit|symplectic|j1|j2|j3|jexact");
            have_method = 1;
        } else if (!strcmp(a, "--form")) {
            if (!strcmp(v, "index1")) def.form = HS_FORM_INDEX1;
            else if (!strcmp(v, "index2")) def.form = HS_FORM_INDEX2;
            else if (!strcmp(v, "ggl")) def.form = HS_FORM_GGL;
            else return bad("--form", "expected index1|index2|ggl");
        } else if (!strcmp(a, "--stab")) {
            if (!strcmp(v, "none")) def.stab = HS_STAB_NONE;
            else if (!strcmp(v, "baumgarte")) def.stab = HS_STAB_BAUMGARTE;
            else if (!strcmp(v, "projection")) def.stab = HS_STAB_PROJECTION;
            else return bad("--stab", "expected none|baumgarte|projection");
        } else if (!strcmp(a, "--jac")) {
            if (!strcmp(v, "auto")) def.jac = HS_JAC_AUTO;
            else if (!strcmp(v, "analytic")) def.jac = HS_JAC_ANALYTIC;
            else if (!strcmp(v, "fd")) def.jac = HS_JAC_FD;
            else return bad("--jac", "expected auto|analytic|fd");
        } else if (!strcmp(a, "--alpha")) {
            if (!parse_real(v, &alpha)) return bad("--alpha", "not a finite number");
            have_alpha = 1;
        } else if (!strcmp(a, "--beta")) {
            if (!parse_real(v, &beta)) return bad("--beta", "not a finite number");
            have_beta = 1;
        } else if (!strcmp(a, "--h")) {
            if (!parse_real(v, &h) || h <= 0) return bad("--h", "must be a finite number > 0");
            have_h = 1;
        } else if (!strcmp(a, "--t")) {
            if (!parse_real(v, &T_end) || T_end < 0) return bad("--t", "must be a finite number >= 0");
            have_t = 1;
        } else if (!strcmp(a, "--csv")) {
            csv_path = v;
        } else if (!strcmp(a, "--every")) {
            char *end;
            long e = strtol(v, &end, 10);
            if (*end || end == v || e < 1 || e > 1000000000L) return bad("--every", "must be an integer >= 1");
            every = (int)e;
        } else {
            return bad(a, "unknown option");
        }
    }
    if (!model_name && !model_file) return bad("--model", "required");
    if (!have_method) return bad("--method", "required");
    if (!have_h) return bad("--h", "required");
    if (!have_t) return bad("--t", "required");
    const hs_model_type *type = model_file ? NULL : hs_model_find(model_name);
    static hs_mb_store mb_store;
    static hs_mb_model mb_model;
    if (model_file) {
        if (hs_mb_load_file("hilstep-sim", model_file, &mb_store, &mb_model, 0)) return 2;
        type = &mb_model.type;
    }
    if (!type) return bad("--model", "unknown model");

    static _Alignas(16) unsigned char pblock[HS_MODELS_MAX_PARAM_BYTES];
    hs_model model;
    if (type->param_size > sizeof pblock) return bad("--model", "parameter block too large");
    hs_model_init(&model, type, pblock);
    if (model_file) model.desc = &mb_model;
    for (int k = 0; k < np; ++k) {
        int rc = hs_model_set_param(&model, pkeys[k], (hs_real)pvals[k]);
        if (rc == HS_E_UNKNOWN_PARAM) {
            fprintf(stderr, "hilstep-sim: --param: model %s has no parameter '%s' (see --help)\n", type->name, pkeys[k]);
            return 2;
        }
        if (rc) {
            fprintf(stderr, "hilstep-sim: --param: %s=%g out of range (see --help)\n", pkeys[k], pvals[k]);
            return 2;
        }
    }
    int rc = hs_model_check(&model);
    if (rc) return bad("--param", hs_status_str(rc));
    def.h = (hs_real)h;
    def.alpha = have_alpha ? (hs_real)alpha : (hs_real)(1.0 / h);
    def.beta = have_beta ? (hs_real)beta : (hs_real)(1.0 / (h * h));
    rc = hs_stepper_def_validate(&def, &model);
    if (rc) {
        const char *arg = rc == HS_E_DEF_BAUMGARTE ? "--alpha/--beta" : rc == HS_E_DEF_H ? "--h"
                        : rc == HS_E_DEF_FORM ? "--form"
                        : rc == HS_E_DEF_JAC ? "--jac" : "--model";
        return bad(arg, hs_status_str(rc));
    }

    enum { NQ = HS_MB_MAX_NQ > HS_MODELS_MAX_NQ ? HS_MB_MAX_NQ : HS_MODELS_MAX_NQ,
           NC = HS_MB_MAX_NC > HS_MODELS_MAX_NC ? HS_MB_MAX_NC : HS_MODELS_MAX_NC, NZ = HS_MODELS_MAX_NZ };
    static hs_real reals[HS_STEPPER_REALS(NQ, NC, NZ)];
    static int ints[HS_STEPPER_INTS(NQ, NC)];
    hs_stepper st;
    rc = hs_stepper_init(&st, &def, &model, HS_R(0.0), reals, sizeof reals / sizeof reals[0], ints,
                         sizeof ints / sizeof ints[0]);
    if (rc) {
        fprintf(stderr, "hilstep-sim: init: %s\n", hs_status_str(rc));
        printf("steps=0 max_abs_g=nan ns_per_step=nan status=%s\n", status_token(rc));
        return 1;
    }

    FILE *csv = NULL;
    if (csv_path) {
        csv = fopen(csv_path, "w");
        if (!csv) { perror(csv_path); return bad("--csv", "cannot open file"); }
        fprintf(csv, "t");
        for (int i = 0; i < st.nq; ++i) fprintf(csv, ",q%d", i + 1);
        for (int i = 0; i < st.nq; ++i) fprintf(csv, ",u%d", i + 1);
        for (int i = 0; i < st.nc; ++i) fprintf(csv, ",g%d", i + 1);
        for (int i = 0; i < st.nz; ++i) fprintf(csv, ",z%d", i + 1);
        for (int i = 0; i < st.nc; ++i) fprintf(csv, ",lam%d", i + 1);
        fprintf(csv, "\n");
    }

    hs_real in[HS_MB_MAX_NIN > HS_MODELS_MAX_NIN ? HS_MB_MAX_NIN : HS_MODELS_MAX_NIN] = {0};
    hs_real g[NC];
    double max_g = 0.0;
    long nsteps = lround(T_end / h);
    uint64_t hash = HS_HASH_INIT;
    double ns_total = 0.0;
    long done = 0;
    rc = HS_OK;
    for (long k = 0;; ++k) {
        hs_stepper_residual(&st, g);
        for (int i = 0; i < st.nc; ++i) max_g = fmax(max_g, fabs((double)g[i]));
        if (csv && k % every == 0) {
            fprintf(csv, "%.17g", (double)st.t);
            for (int i = 0; i < st.nq; ++i) fprintf(csv, ",%.17g", (double)st.q[i]);
            for (int i = 0; i < st.nq; ++i) fprintf(csv, ",%.17g", (double)st.u[i]);
            for (int i = 0; i < st.nc; ++i) fprintf(csv, ",%.17g", (double)g[i]);
            for (int i = 0; i < st.nz; ++i) fprintf(csv, ",%.17g", (double)st.z[i]);
            for (int i = 0; i < st.nc; ++i) fprintf(csv, ",%.17g", (double)st.lambda[i]);
            fprintf(csv, "\n");
        }
        if (k == nsteps) break;
        double t0 = now_ns();
        rc = hs_stepper_step(&st, in);
        ns_total += now_ns() - t0;
        if (rc) break;
        ++done;
        hash = hs_stepper_hash(&st, hash);
    }
    if (csv) fclose(csv);
    if (want_hash)
        printf("trajectory-hash %s %s %s %ld 0x%016llx\n", type->name, hs_method_name(def.method),
               hs_stab_name(def.stab), done, (unsigned long long)hash);
    printf("steps=%ld t=%.17g max_abs_g=%.6e ns_per_step=%.1f status=%s model=%s method=%s form=%s "
           "stab=%s h=%g force_evals=%llu factorizations=%llu",
           done, (double)st.t, max_g, done ? ns_total / (double)done : 0.0, status_token(rc),
           type->name, hs_method_name(def.method), hs_form_name(def.form), hs_stab_name(def.stab), h,
           (unsigned long long)st.stats.force_evals, (unsigned long long)st.stats.factorizations);
    if (type == &hs_car_axle_type && fabs((double)st.t - 3.0) < 0.5 * h) {
        double eq = 0.0, eu = 0.0;
        for (int i = 0; i < 4; ++i) {
            eq = fmax(eq, fabs((double)st.q[i] - hs_car_axle_ref_t3[i]));
            eu = fmax(eu, fabs((double)st.u[i] - hs_car_axle_ref_t3[4 + i]));
        }
        printf(" ref_err_q=%.6e ref_err_u=%.6e", eq, eu);
    }
    for (int i = 0; i < st.nq; ++i) printf(" q%d=%.17g", i + 1, (double)st.q[i]);
    for (int i = 0; i < st.nq; ++i) printf(" u%d=%.17g", i + 1, (double)st.u[i]);
    printf("\n");
    if (rc) fprintf(stderr, "hilstep-sim: step %ld refused: %s\n", done + 1, hs_status_str(rc));
    return rc ? 1 : 0;
}
