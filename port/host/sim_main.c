/* sim_main.c - build/hilstep-sim, the offline simulator on the host's simulated clock.
 * Its command line, CSV header and summary line are a contract read by benchmarks and the
 * figure scripts (port/host/README.md).
 *
 * The argument parser (hs_sim_parse) and the setup that turns the arguments into a checked
 * model, stepper definition and step count (hs_sim_setup) never print and never exit, so the
 * CLI fuzz harness (test/fuzz/fuzz_cli.c, built with -DHS_SIM_NO_MAIN) calls them directly. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "hs_exit.h"
#include "hs_hash.h"
#include "hs_health.h"
#include "hs_mb_file.h"
#include "hs_mb_map.h"
#include "hs_models.h"
#include "hs_stepper.h"
#include "sim_args.h"

/* The method table (rt/hs_methods.c), one row per method through fmt (name, summary), so
 * no listing can omit a method; a method that needs model hooks says which. */
static void hs_methods_list(FILE *o, const char *fmt)
{
    for (int k = 0; k < HS_METHOD_COUNT; ++k) {
        const hs_method_info *r = &hs_method_table[k];
        char hooks[160];
        fprintf(o, fmt, r->name, r->summary);
        snprintf(hooks, sizeof hooks, "needs %s", r->hooks);
        if (r->hooks[0] != '\0') fprintf(o, fmt, "", hooks);
    }
}

/* --list-methods: one line per row of the table, its name and the stabilizations it takes,
 * the list scripts read instead of writing one (test/bench/bench.sh, test/qemu/run_tests.sh). */
static int list_methods(void)
{
    for (int k = 0; k < HS_METHOD_COUNT; ++k) {
        printf("%s", hs_method_table[k].name);
        for (int st = HS_STAB_NONE; st <= HS_STAB_PROJECTION; ++st)
            if (hs_method_takes_stab((hs_method)k, (hs_stab)st)) printf(" %s", hs_stab_name((hs_stab)st));
        printf("\n");
    }
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 3;
}

static void usage(FILE *o)
{
    const hs_stepper_def d = hs_stepper_default_def();
    fprintf(o,
        "usage: hilstep-sim --model NAME [--param KEY=VALUE ...] | --model-file FILE.hsm [--param NAME=VALUE ...]\n"
        "                   [--method M] (M: one of the methods below)\n"
        "                   [--form index1|index2|ggl] [--stab none|baumgarte|projection]\n"
        "                   [--alpha A] [--beta B] [--jac auto|analytic|fd] [--rho-inf R]\n"
        "                   [--sd-gamma G] [--compliance C] [--damping D]\n"
        "                   [--spook-eps E] [--spook-tau TAU]\n"
        "                   --h H --t T [--inputs FILE.csv [--interp linear|hold]]\n"
        "                   [--csv FILE] [--every N] [--hash] [--tol X|off] [--err-check N] [--glob-ref N]\n"
        "                   [--glob-check auto|on|off]\n"
        "       hilstep-sim --methods | --list-methods | --help   (the method table | one line per\n"
        "                   method: its name and the --stab values it takes | this text)\n\n"
        "  --method   (default %s; rt/METHODS.md says which to pick; --methods prints the table)\n",
        hs_method_name(d.method));
    hs_methods_list(o, "             %-11s %s\n");
    fprintf(o,
        "             auto        the long-run choice per model: em where the mass matrix is\n"
        "                         constant, else dvp where the model has lagrange(), else the\n"
        "                         default (em and dvp with --stab none); spook where h times the\n"
        "                         model's motion bound is beyond what em and dvp carry (stderr\n"
        "                         says so); the result line names it\n");
    fprintf(o,
        "  --form     index1 (acceleration-level multipliers) | index2 (velocity level,\n"
        "             G u = -g_t at the new step) | ggl (one-Newton-step position projection\n"
        "             inside the step, then the velocity level; with --stab none and a\n"
        "             positions-first method)\n"
        "  --stab     none | baumgarte (default alpha = 1/h, beta = 1/h^2) | projection\n"
        "             (one Newton step on positions in the mass-matrix norm, then velocities)\n"
        "             (without --stab: the default configuration's; none for spook, dvp, em)\n"
        "  --compliance  every constraint row's compliance C >= 0 (m/N; 0 = rigid, the\n"
        "             default) where the description declares none; --damping D >= 0 (N s/m)\n"
        "             in parallel: the row holds C lambda = -(g + C D G u) (model/COMPLIANCE.md)\n"
        "  --spook-eps, --spook-tau  spook's epsilon (default 1e-8) where neither the file nor\n"
        "             --compliance gives one, and its relaxation time tau (s, > 0; default 2 h)\n"
        "             where no damping is given\n"
        "  --jac      Jacobian blocks: auto (analytic if the model has them), analytic, fd\n"
        "  --h        step size (s);  --t end time (s), a whole number of steps: T/h must be\n"
        "             an integer (within 1e-6 of a step) and at most %.0e steps\n"
        "  --inputs   CSV file of the model's inputs over time: a header row 't,NAME,...' (a\n"
        "             column per input signal, named as listed below or in the description,\n"
        "             optionally with its unit: 'road_z [m]'), then rows of numbers with t (s)\n"
        "             strictly increasing; lines starting with # are comments. Inputs without a\n"
        "             column stay 0. Step k uses the inputs at its start, t = k h. Values\n"
        "             outside an input's [min, max] (the signal map hilstep-rt runs the model\n"
        "             on: a description's input lines, a shipped map) are clamped into it and\n"
        "             counted (clamped_inputs= in the summary line), as hilstep-rt does. At most\n"
        "             %u data rows, decimal numbers only (no hex floats, no NUL bytes)\n"
        "  --interp   between two rows of --inputs: linear (default) or hold (the earlier row);\n"
        "             before the first row and after the last, their values\n"
        "  --every N  CSV row every N steps\n"
        "  --csv      CSV file: t,q1..qN,u1..uN,g1..gM,z1..zK,lam1..lamM, then one column per\n"
        "             input and output signal, in_NAME[unit] and out_NAME[unit], then err_est\n"
        "  --tol X    a run whose err_est (the largest local position error estimate of a step,\n"
        "             m at a body's named points or rad of its turn, else units of q;\n"
        "             rt/METHODS.md \"The error estimate\") exceeds X ends\n"
        "             status=inaccurate, exit 4; default %g, 'off' never judges\n"
        "  --err-check N  also measure every step's true local error against N steps of h/N\n"
        "             from the same state: err_true=, err_true_sum=, err_ratio_min/max= (per step)\n"
        "  --glob-check auto|on|off  also run the same steps at h/2 and h/4 beside the run and\n"
        "             judge err_rich= (the run's largest distance, in err_est's metric, from the\n"
        "             two runs' extrapolation q_h/4 + c (q_h/4 - q_h/2), c = 1/(r - 1) within\n"
        "             [0, 1], r = rich_dh/rich_dh2 their observed ratio (rich_ratio=) but at\n"
        "             most 2^p, p the method's order; the h/2 factor when the h/4 run\n"
        "             refuses a step), over spans of 100 s; rt/METHODS.md \"For\n"
        "             first-order estimates\") against --tol, in place of err_glob; auto\n"
        "             (default): every method but sdirk when --tol is on (their err_glob\n"
        "             does not add up to the global error), and sdirk on a description with\n"
        "             contacts or stops (their compliance is an h^2 error no step estimates)\n"
        "  --glob-ref N  also run the default method at h/N beside the run from its initial state\n"
        "             (never restarted) and print err_ref=, the run's largest distance from it in\n"
        "             err_est's metric: the true global error err_rich estimates\n"
        "  --max-h-omega X  the default method's init range check: refuse h*omega > X, omega\n"
        "             the model's motion bound (default 0.4; 0 = off; rt/METHODS.md)\n"
        "  --hash     print 'trajectory-hash MODEL METHOD STAB STEPS 0x...' (FNV-1a of q,u,z\n"
        "             after every step)\n"
        "library default (hs_stepper_default_def), used for what is omitted: method %s form %s "
        "stab %s\n"
        "Prints one summary line of key=value pairs (steps, max_abs_g, ns_per_step, status, ...);\n"
        "path=free_body when the default method steps a model of free rigid bodies in body\n"
        "velocities (rt/METHODS.md), path=generic otherwise.\n"
        "ref_err_q/ref_err_u only for the car axle's published problem (default parameters, t = 3).\n"
        "Exit status: 0 ok, 1 the stepper refused a step (status names the fault) or a model output\n"
        "was NaN/Inf or outside its signal's [min, max] (status=nonfinite_output|output_range: the\n"
        "outputs hilstep-rt refuses; the run stops before writing them), 2 bad arguments or a\n"
        "description hilstep-rt refuses (its signal map: the same check), 3 an output (CSV or\n"
        "standard output) could not be written completely (status=write_error), 4 the run is\n"
        "inaccurate (status=inaccurate: err_est, err_glob (sdirk) or err_rich (--glob-check) above --tol, or\n"
        "the energy error above 10 %% of release= for a model that declares it; the result line\n"
        "has err_est=, err_sum=, err_glob=, rel_dE=; a contact row sunk beyond twice its rest\n"
        "depth enters err_est as max_sunk=).\n\n"
        "models:\n",
        HS_SIM_MAX_STEPS, (unsigned)HS_SIM_INPUTS_MAX_ROWS, HS_ERR_TOL_DEFAULT, hs_method_name(d.method), hs_form_name(d.form),
        hs_stab_name(d.stab));
    for (int i = 0; hs_model_registry[i]; ++i) {
        const hs_model_type *T = hs_model_registry[i];
        fprintf(o, "  %s: %s (nq=%d nc=%d nz=%d nin=%d)\n", T->name, T->doc, T->nq, T->nc, T->nz, T->nin);
        for (int j = 0; T->in_names && j < T->nin; ++j) fprintf(o, "      input %s\n", T->in_names[j]);
        for (int j = 0; j < T->nparams; ++j)
            fprintf(o, "      %-9s default %-8g [%g, %g]  %s\n", T->params[j].name,
                    (double)T->params[j].def, (double)T->params[j].min, (double)T->params[j].max,
                    T->params[j].doc);
    }
}

static int fail(hs_sim_err *e, const char *arg, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(hs_sim_err *e, const char *arg, const char *fmt, ...)
{
    va_list ap;
    snprintf(e->arg, sizeof e->arg, "%s", arg[0] ? arg : "(empty argument)");
    va_start(ap, fmt);
    vsnprintf(e->why, sizeof e->why, fmt, ap);
    va_end(ap);
    return HS_SIM_BAD;
}

static int parse_real(const char *s, double *out)
{
    char *end;
    if (hs_is_hex_float(s)) return 0;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v)) return 0;
    *out = v;
    return 1;
}

/* Options that take a value; anything else starting with "--" is unknown. */
static const char *const valued_opts[] = {"--model", "--model-file", "--param", "--method", "--form", "--stab",
                                          "--jac", "--alpha", "--beta", "--h", "--t", "--csv",
                                          "--inputs", "--interp", "--every", "--rho-inf",
                                          "--sd-gamma", "--compliance", "--damping", "--spook-eps",
                                          "--spook-tau", "--tol", "--err-check", "--glob-check", "--glob-ref", "--max-h-omega", NULL};

static int is_valued(const char *a)
{
    for (int k = 0; valued_opts[k]; ++k)
        if (!strcmp(a, valued_opts[k])) return 1;
    return 0;
}

/* --err-check N, --glob-ref N: N, an integer in [2, 1024] (steps of h/N per step), else 0. */
static int parse_divisor(const char *v)
{
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    return errno || *end || end == v || n < 2 || n > 1024 ? 0 : (int)n;
}

/* One --param KEY=VALUE into c's next slot (keys unique, values finite decimals). */
static int parse_param(const char *v, hs_sim_cfg *c, hs_sim_err *e)
{
    const char *eq = strchr(v, '=');
    if (!eq || eq == v) return fail(e, "--param", "expected KEY=VALUE");
    if (c->np >= HS_SIM_MAXP) return fail(e, "--param", "too many parameters");
    size_t kl = (size_t)(eq - v);
    if (kl >= sizeof c->pkeys[0]) return fail(e, "--param", "key too long");
    memcpy(c->pkeys[c->np], v, kl);
    c->pkeys[c->np][kl] = 0;
    if (!parse_real(eq + 1, &c->pvals[c->np]))
        return fail(e, "--param", "%s: the value '%s' of parameter %s is %s", v, eq + 1,
                    c->pkeys[c->np], hs_is_hex_float(eq + 1)
                    ? "a hexadecimal float: decimal numbers only (as in .hsm files)"
                    : "not a finite number");
    for (int k = 0; k < c->np; ++k)
        if (!strcmp(c->pkeys[k], c->pkeys[c->np]))
            return fail(e, "--param", "the same key given twice (give each parameter once)");
    ++c->np;
    return HS_SIM_OK;
}

int hs_sim_parse(int argc, char *const *argv, hs_sim_cfg *c, hs_sim_err *e)
{
    memset(c, 0, sizeof *c);
    memset(e, 0, sizeof *e);
    c->every = 1;
    c->tol = HS_ERR_TOL_DEFAULT;
    c->def = hs_stepper_default_def();
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) return HS_SIM_HELP;
        if (!strcmp(a, "--hash")) { c->want_hash = 1; continue; }
        /* Unknown names are reported as such, also when they come last. */
        if (!is_valued(a)) return fail(e, a, "unknown option");
        if (i + 1 >= argc) return fail(e, a, "missing value");
        const char *v = argv[++i];
        if (!strcmp(a, "--model")) {
            c->model_name = v;
        } else if (!strcmp(a, "--model-file")) {
            c->model_file = v;
        } else if (!strcmp(a, "--param")) {
            int r = parse_param(v, c, e);
            if (r != HS_SIM_OK) return r;
        } else if (!strcmp(a, "--method")) {
            c->auto_method = !strcmp(v, "auto");
            if (!c->auto_method && hs_method_parse(v, &c->def.method) != HS_OK)
                return fail(e, "--method", "unknown method (hilstep-sim --methods lists them)");
        } else if (!strcmp(a, "--form")) {
            if (!strcmp(v, "index1")) c->def.form = HS_FORM_INDEX1;
            else if (!strcmp(v, "index2")) c->def.form = HS_FORM_INDEX2;
            else if (!strcmp(v, "ggl")) c->def.form = HS_FORM_GGL;
            else return fail(e, "--form", "expected index1|index2|ggl");
        } else if (!strcmp(a, "--stab")) {
            c->stab_given = 1;
            if (!strcmp(v, "none")) c->def.stab = HS_STAB_NONE;
            else if (!strcmp(v, "baumgarte")) c->def.stab = HS_STAB_BAUMGARTE;
            else if (!strcmp(v, "projection")) c->def.stab = HS_STAB_PROJECTION;
            else return fail(e, "--stab", "expected none|baumgarte|projection");
        } else if (!strcmp(a, "--jac")) {
            if (!strcmp(v, "auto")) c->def.jac = HS_JAC_AUTO;
            else if (!strcmp(v, "analytic")) c->def.jac = HS_JAC_ANALYTIC;
            else if (!strcmp(v, "fd")) c->def.jac = HS_JAC_FD;
            else return fail(e, "--jac", "expected auto|analytic|fd");
        } else if (!strcmp(a, "--alpha")) {
            if (!parse_real(v, &c->alpha)) return fail(e, "--alpha", "not a finite number");
            c->have_alpha = 1;
        } else if (!strcmp(a, "--beta")) {
            if (!parse_real(v, &c->beta)) return fail(e, "--beta", "not a finite number");
            c->have_beta = 1;
        } else if (!strcmp(a, "--rho-inf")) { /* galpha's high-frequency damping (stepper helper) */
            double r;
            if (!parse_real(v, &r) || r < 0 || r > 1) return fail(e, "--rho-inf", "must be a number in [0, 1]");
            c->def.rho_inf = (hs_real)r;
        } else if (!strcmp(a, "--sd-gamma")) { /* sdirk's diagonal: 1/4 midpoint pair, 0.7887 order 3 */
            double g;
            if (!parse_real(v, &g) || g < 0.25 || g > 1 || fabs(2 * g - 1) < 0.1)
                return fail(e, "--sd-gamma", "must be a number in [0.25, 0.45] or [0.55, 1]");
            c->def.sd_gamma = (hs_real)g;
        } else if (!strcmp(a, "--compliance") || !strcmp(a, "--damping") || !strcmp(a, "--spook-eps")) {
            double x;
            if (!parse_real(v, &x) || x < 0) return fail(e, a, "must be a finite number >= 0");
            if (!strcmp(a, "--compliance")) c->def.reg_eps = (hs_real)x;
            else if (!strcmp(a, "--damping")) c->def.reg_damp = (hs_real)x;
            else c->def.spook_eps = (hs_real)x;
        } else if (!strcmp(a, "--max-h-omega")) { /* the default's init range check; 0 = off */
            double x;
            if (!parse_real(v, &x) || x < 0) return fail(e, a, "must be a finite number >= 0 (0 = off)");
            c->def.max_h_omega = (hs_real)x;
        } else if (!strcmp(a, "--spook-tau")) {
            if (!parse_real(v, &c->spook_tau) || c->spook_tau <= 0) return fail(e, "--spook-tau", "must be a finite number > 0 (s)");
            c->have_spook_tau = 1;
        } else if (!strcmp(a, "--tol")) {
            if (!strcmp(v, "off")) c->tol = 0;
            else if (!parse_real(v, &c->tol) || c->tol <= 0)
                return fail(e, "--tol", "must be a finite number > 0 (m or rad, as q) or off");
        } else if (!strcmp(a, "--err-check") || !strcmp(a, "--glob-ref")) {
            const int n = parse_divisor(v);
            if (n == 0) return fail(e, a, "must be an integer in [2, 1024]");
            *(!strcmp(a, "--err-check") ? &c->err_check : &c->glob_ref) = n;
        } else if (!strcmp(a, "--glob-check")) {
            if (!strcmp(v, "auto")) c->glob_check = HS_SIM_GLOB_AUTO;
            else if (!strcmp(v, "on")) c->glob_check = HS_SIM_GLOB_ON;
            else if (!strcmp(v, "off")) c->glob_check = HS_SIM_GLOB_OFF;
            else return fail(e, "--glob-check", "must be auto, on or off");
        } else if (!strcmp(a, "--h")) {
            if (!parse_real(v, &c->h) || c->h <= 0) return fail(e, "--h", "must be a finite number > 0");
            c->have_h = 1;
        } else if (!strcmp(a, "--t")) {
            if (!parse_real(v, &c->T_end) || c->T_end < 0)
                return fail(e, "--t", "must be a finite number >= 0");
            c->have_t = 1;
        } else if (!strcmp(a, "--csv")) {
            c->csv_path = v;
        } else if (!strcmp(a, "--inputs")) {
            c->inputs_path = v;
        } else if (!strcmp(a, "--interp")) {
            if (!strcmp(v, "linear")) c->interp_hold = 0;
            else if (!strcmp(v, "hold")) c->interp_hold = 1;
            else return fail(e, "--interp", "expected linear|hold");
        } else { /* --every, the last of valued_opts */
            char *end;
            errno = 0;
            long ev = strtol(v, &end, 10);
            if (errno || *end || end == v || ev < 1 || ev > 1000000000L)
                return fail(e, "--every", "must be an integer >= 1");
            c->every = (int)ev;
        }
    }
    if (!c->model_name && !c->model_file) return fail(e, "--model", "required");
    if (!c->have_h) return fail(e, "--h", "required");
    if (!c->have_t) return fail(e, "--t", "required");
    if (!c->stab_given && !c->auto_method && hs_method_own_stab(c->def.method)) c->def.stab = HS_STAB_NONE;
    return HS_SIM_OK;
}

/* ---- --inputs: the model's inputs over time from a CSV file ---- */

/* Splits "name [unit]" or "name (unit)" (hilstep's CSV headers, the models' labels) into name
 * and unit (empty when none), both trimmed. */
static void split_label(const char *s, char *name, size_t ncap, char *unit, size_t ucap)
{
    while (*s == ' ' || *s == '\t') ++s;
    size_t k = 0;
    while (*s && *s != '[' && *s != '(' && k + 1 < ncap) name[k++] = *s++;
    while (k > 0 && (name[k - 1] == ' ' || name[k - 1] == '\t')) --k;
    name[k] = '\0';
    k = 0;
    if (*s == '[' || *s == '(') {
        const char close = *s == '[' ? ']' : ')';
        ++s;
        while (*s == ' ') ++s;
        while (*s && *s != close && k + 1 < ucap) unit[k++] = *s++;
        while (k > 0 && unit[k - 1] == ' ') --k;
    }
    unit[k] = '\0';
}

/* The name and unit of model input i ("in<i+1>" without a unit when the model has no labels). */
static void input_label(const hs_model *m, int i, char *name, size_t ncap, char *unit, size_t ucap)
{
    if (m->type->in_names && m->type->in_names[i]) {
        split_label(m->type->in_names[i], name, ncap, unit, ucap);
    } else {
        snprintf(name, ncap, "in%d", i + 1);
        unit[0] = '\0';
    }
}

static int load_fail(char *msg, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int load_fail(char *msg, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, cap, fmt, ap);
    va_end(ap);
    return 1;
}

/* The input table of the last load (t, and HS_SIM_MAX_NIN values per row): static storage
 * reused by the next load (the CLI fuzzer loads often), grown by doubling. */
static double *g_in_t, *g_in_v;
static size_t g_in_cap;

/* Splits line at commas in place into fld (at most HS_SIM_MAX_NIN + 1 fields) and *nf; 0, or
 * 1 with the reason in msg. */
static int split_fields(char *line, char **fld, int *nf, const char *path, long ln, char *msg, size_t cap)
{
    *nf = 0;
    for (char *s = line;;) {
        if (*nf == HS_SIM_MAX_NIN + 1)
            return load_fail(msg, cap, "%s:%ld: more than %d columns (t and one per input)", path, ln, HS_SIM_MAX_NIN + 1);
        fld[(*nf)++] = s;
        char *comma = strchr(s, ',');
        if (!comma) break;
        *comma = '\0';
        s = comma + 1;
    }
    return 0;
}

/* The header row: t first, then one column per input, bound by name (and unit) into r->in_col. */
static int parse_header(char **fld, int nf, const hs_model *m, hs_sim_run *r, const char *path, long ln,
                        char *msg, size_t cap)
{
    const int nin = m->d.nin;
    char name[64], unit[64];
    split_label(fld[0], name, sizeof name, unit, sizeof unit);
    if (!((!strcmp(name, "t") && (!unit[0] || !strcmp(unit, "s"))) || !strcmp(name, "t_s")))
        return load_fail(msg, cap, "%s:%ld: the first column must be the time 't' (s), not '%s'", path, ln, fld[0]);
    for (int j = 1; j < nf; ++j) {
        /* in_NAME[unit]: a column of a hilstep CSV (sim or telemetry) replays as is */
        split_label(strncmp(fld[j], "in_", 3) ? fld[j] : fld[j] + 3, name, sizeof name, unit, sizeof unit);
        int which = -1;
        char mn[64], mu[64];
        for (int i = 0; i < nin; ++i) {
            input_label(m, i, mn, sizeof mn, mu, sizeof mu);
            if (!strcmp(name, mn)) { which = i; break; }
        }
        if (which < 0) {
            char known[200] = "";
            for (int i = 0; i < nin; ++i) {
                input_label(m, i, mn, sizeof mn, mu, sizeof mu);
                size_t k = strlen(known);
                snprintf(known + k, sizeof known - k, "%s%s%s%s%s", i ? ", " : "", mn, mu[0] ? " [" : "", mu, mu[0] ? "]" : "");
            }
            return load_fail(msg, cap, "%s:%ld: column '%s' is not an input of model %s (inputs: %s)", path, ln, fld[j], m->type->name, nin ? known : "none");
        }
        input_label(m, which, mn, sizeof mn, mu, sizeof mu);
        if (unit[0] && mu[0] && strcmp(unit, mu))
            return load_fail(msg, cap, "%s:%ld: column '%s' is in %s, input %s is in %s", path, ln, fld[j], unit, mn, mu);
        if (r->in_col[which] >= 0)
            return load_fail(msg, cap, "%s:%ld: input %s has two columns", path, ln, mn);
        r->in_col[which] = j - 1;
    }
    return 0;
}

/* One data row (nf fields, as many as the header's) into row `rows` of the table: finite
 * numbers, t increasing. 0, or 1 with the reason in msg. */
static int parse_row(char **fld, int nf, size_t rows, const char *path, long ln, char *msg, size_t cap)
{
    if (rows >= HS_SIM_INPUTS_MAX_ROWS)
        return load_fail(msg, cap, "%s:%ld: more than %u data rows (the --inputs limit; interpolation needs no row per step)",
                         path, ln, (unsigned)HS_SIM_INPUTS_MAX_ROWS);
    if (rows == g_in_cap) {
        size_t n = g_in_cap ? 2 * g_in_cap : 1024;
        double *t2 = realloc(g_in_t, n * sizeof *t2);
        if (t2) g_in_t = t2;
        double *v2 = t2 ? realloc(g_in_v, n * (size_t)HS_SIM_MAX_NIN * sizeof *v2) : NULL;
        if (v2) g_in_v = v2;
        if (!t2 || !v2) return load_fail(msg, cap, "%s:%ld: out of memory", path, ln);
        g_in_cap = n;
    }
    for (int j = 0; j < nf; ++j) {
        double v;
        char *q = fld[j];
        while (*q == ' ' || *q == '\t') ++q;
        size_t l = strlen(q);
        while (l > 0 && (q[l - 1] == ' ' || q[l - 1] == '\t')) q[--l] = '\0';
        if (hs_is_hex_float(q))
            return load_fail(msg, cap, "%s:%ld: field %d ('%s') is a hexadecimal float: decimal numbers only (as in .hsm files)", path, ln, j + 1, q);
        if (!parse_real(q, &v))
            return load_fail(msg, cap, "%s:%ld: field %d ('%s') is not a finite number", path, ln, j + 1, q);
        if (j == 0) {
            if (rows > 0 && !(v > g_in_t[rows - 1]))
                return load_fail(msg, cap, "%s:%ld: t = %.17g is not after the previous row's %.17g", path, ln, v, g_in_t[rows - 1]);
            g_in_t[rows] = v;
        } else {
            g_in_v[rows * (size_t)HS_SIM_MAX_NIN + (size_t)(j - 1)] = v;
        }
    }
    return 0;
}

/* Reads path into r (in_t, in_v, in_rows, in_ncol, in_col); 0, or 1 with "FILE:LINE: why" in
 * msg: the header row, then the data rows; blank lines and # comments are skipped. */
static int load_inputs(const char *path, const hs_model *m, hs_sim_run *r, char *msg, size_t cap)
{
    const int nin = m->d.nin;
    if (nin > HS_SIM_MAX_NIN) return load_fail(msg, cap, "%s: the model has %d inputs, at most %d can be driven", path, nin, HS_SIM_MAX_NIN);
    FILE *f = fopen(path, "r");
    if (!f) return load_fail(msg, cap, "cannot open %s: %s", path, strerror(errno));
    char line[4096];
    long ln = 0;
    int ncol = 0, rc = 0;
    size_t rows = 0;
    for (int i = 0; i < HS_SIM_MAX_NIN; ++i) r->in_col[i] = -1;
    long at = ftell(f);
    while (!rc && fgets(line, sizeof line, f)) {
        ++ln;
        size_t len = strlen(line);
        /* A NUL byte ends the string early: the bytes read tell (a pipe has no position: then
         * only a line cut short before its newline does). */
        const long now = ftell(f);
        if ((at >= 0 && now >= 0 && (size_t)(now - at) != len) ||
            (at < 0 && len < sizeof line - 1 && (len == 0 || line[len - 1] != '\n') && !feof(f))) {
            rc = load_fail(msg, cap, "%s:%ld: a NUL byte at column %zu (the file is not text)", path, ln, len + 1);
            break;
        }
        at = now;
        if (len == sizeof line - 1 && line[len - 1] != '\n' && !feof(f)) {
            rc = load_fail(msg, cap, "%s:%ld: line longer than %zu characters", path, ln, sizeof line - 2);
            break;
        }
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = '\0';
        const char *p = line;
        while (*p == ' ' || *p == '\t') ++p;
        if (*p == '\0' || *p == '#') continue;
        char *fld[HS_SIM_MAX_NIN + 2];
        int nf = 0;
        rc = split_fields(line, fld, &nf, path, ln, msg, cap);
        if (rc) break;
        if (ncol == 0) { /* the header */
            rc = parse_header(fld, nf, m, r, path, ln, msg, cap);
            ncol = nf;
            continue;
        }
        if (nf != ncol) {
            rc = load_fail(msg, cap, "%s:%ld: %d fields, the header has %d", path, ln, nf, ncol);
            break;
        }
        rc = parse_row(fld, nf, rows, path, ln, msg, cap);
        if (!rc) ++rows;
    }
    if (!rc && ferror(f)) rc = load_fail(msg, cap, "%s:%ld: read error", path, ln);
    fclose(f);
    if (!rc && ncol == 0) rc = load_fail(msg, cap, "%s:%ld: no header row 't,NAME,...'", path, ln);
    if (!rc && rows == 0) rc = load_fail(msg, cap, "%s:%ld: no data rows after the header", path, ln);
    if (rc) return 1;
    r->in_t = g_in_t;
    r->in_v = g_in_v;
    r->in_rows = rows;
    r->in_ncol = ncol - 1;
    return 0;
}

void hs_sim_inputs_at(const hs_sim_cfg *c, const hs_sim_run *r, double t, hs_real *in, int nin)
{
    for (int i = 0; i < nin; ++i) in[i] = HS_R(0.0);
    if (r->in_rows == 0) return;
    /* k: the last row with in_t[k] <= t (a step time k h may round a hair below a row's t) */
    const double tq = t + 1e-9 * (c->h > 0 ? c->h : 0.0);
    size_t lo = 0, hi = r->in_rows;
    if (tq < r->in_t[0]) {
        hi = 0;
    } else {
        while (hi - lo > 1) {
            size_t mid = lo + (hi - lo) / 2;
            if (r->in_t[mid] <= tq) lo = mid; else hi = mid;
        }
        hi = lo + 1;
    }
    for (int i = 0; i < nin && i < HS_SIM_MAX_NIN; ++i) {
        const int col = r->in_col[i];
        if (col < 0) continue;
        double v;
        if (hi == 0) {
            v = r->in_v[col];
        } else if (hi >= r->in_rows || c->interp_hold) {
            v = r->in_v[lo * (size_t)HS_SIM_MAX_NIN + (size_t)col];
        } else {
            const double t0 = r->in_t[lo], t1 = r->in_t[hi];
            const double v0 = r->in_v[lo * (size_t)HS_SIM_MAX_NIN + (size_t)col];
            const double v1 = r->in_v[hi * (size_t)HS_SIM_MAX_NIN + (size_t)col];
            const double w = (t - t0) / (t1 - t0);
            v = w <= 0 ? v0 : (w >= 1 ? v1 : v0 + w * (v1 - v0));
        }
        in[i] = (hs_real)v;
    }
}

/* 1 when every parameter of m has its default value: the problem the published reference
 * solution (hs_car_axle_ref_t3) was computed for. */
static int params_are_defaults(const hs_model *m)
{
    const hs_model_type *T = m->type;
    for (int j = 0; j < T->nparams; ++j) {
        hs_real v;
        if (hs_model_get_param(m, T->params[j].name, &v) != HS_OK || v != T->params[j].def) return 0;
    }
    return 1;
}

int hs_sim_setup(hs_sim_cfg *c, hs_sim_run *r, hs_sim_err *e)
{
    memset(e, 0, sizeof *e);
    static hs_mb_store mb_store; /* --model-file: the description and its compiled tables */
    static hs_mb_model mb_model;
    if (c->model_file) {
        char msg[600];
        static hs_mb_overrides ovr; /* --param NAME=VALUE replace the description's params */
        ovr.n = 0;
        for (int k = 0; k < c->np; ++k) {
            const char *why = "";
            if (hs_mb_override_add(&ovr, c->pkeys[k], c->pvals[k], &why)) return fail(e, "--param", "%s", why);
        }
        if (hs_mb_load_file_ovr(c->model_file, &mb_store, &ovr, &mb_model, HS_MB_PACK_AUTO, msg, sizeof msg))
            return fail(e, "--model-file", "%s", msg);
        r->type = &mb_model.type;
    } else {
        r->type = hs_model_find(c->model_name);
    }
    if (!r->type) return fail(e, "--model", "unknown model");
    if (r->type->param_size > sizeof r->pblock) return fail(e, "--model", "parameter block too large");
    int rc = hs_model_init(&r->model, r->type, r->pblock);
    if (c->model_file) r->model.desc = &mb_model;
    if (rc) return fail(e, "--model", "%s", hs_status_str(rc));
    for (int k = 0; k < c->np && !c->model_file; ++k) {
        rc = hs_model_set_param(&r->model, c->pkeys[k], (hs_real)c->pvals[k]);
        if (rc == HS_E_UNKNOWN_PARAM)
            return fail(e, "--param", "model %s has no parameter '%s'", r->type->name, c->pkeys[k]);
        if (rc) return fail(e, "--param", "%s=%g out of range", c->pkeys[k], c->pvals[k]);
    }
    rc = hs_model_check(&r->model);
    if (rc) return fail(e, "--param", "%s", hs_status_str(rc));
    {
        /* The signal map and its check are hilstep-rt's own (hs_plant_signal_map): a
         * description the rig refuses (e.g. two outputs of one name) is refused here too. */
        static hs_mb_sigmap sigmap;
        char why[300];
        const hs_signal_map *own = c->model_file ? hs_mb_signal_map(&mb_store, &mb_model, &sigmap) : NULL;
        r->map = NULL;
        if (hs_plant_signal_map(&r->model, own, &r->gmap, &r->map, why, sizeof why) != HS_OK) {
            if (c->model_file)
                return fail(e, "--model-file", "%s: %s (the format: model/FORMAT.md, \"Signals\")", c->model_file, why);
            r->map = NULL; /* a registry model beyond the plant build's signal count */
        }
        int ki = 0, ko = 0;
        for (int i = 0; r->map && i < r->map->n; ++i) {
            const hs_signal *sg = &r->map->sig[i];
            if (sg->dir == HS_SIG_IN) r->in_sig[ki++] = sg;
            else r->out_sig[ko++] = sg;
        }
    }

    hs_stepper_def *d = &c->def;
    d->h = (hs_real)c->h;
    d->alpha = c->have_alpha ? (hs_real)c->alpha : (hs_real)(1.0 / c->h);
    d->beta = c->have_beta ? (hs_real)c->beta : (hs_real)(1.0 / (c->h * c->h));
    if (c->have_spook_tau) d->spook_tau_h = (hs_real)(c->spook_tau / c->h);
    rc = hs_stepper_def_validate(d, &r->model);
    if (rc == HS_E_DEF_BAUMGARTE) {
        /* Blame what the user typed: a default derived from --h that is not a usable number
         * (1/h^2 overflows for h below ~1e-154) is the step size's fault, not --alpha/--beta's. */
        const int alpha_bad = !(isfinite((double)d->alpha) && d->alpha > 0);
        const int beta_bad = d->form == HS_FORM_INDEX1 && !(isfinite((double)d->beta) && d->beta > 0);
        if ((alpha_bad && !c->have_alpha) || (beta_bad && !c->have_beta))
            return fail(e, "--h", "step size %g s makes the default Baumgarte %s not a finite "
                        "positive number (%g); give --alpha/--beta or a larger --h", c->h,
                        (alpha_bad && !c->have_alpha) ? "alpha = 1/h" : "beta = 1/h^2",
                        (alpha_bad && !c->have_alpha) ? (double)d->alpha : (double)d->beta);
        return fail(e, "--alpha/--beta", "%s", hs_status_str(rc));
    }
    if (rc) {
        const char *arg = rc == HS_E_DEF_H ? "--h" : rc == HS_E_DEF_FORM ? "--form"
                        : rc == HS_E_DEF_RHO ? (c->def.method == HS_METHOD_SDIRK ? "--sd-gamma" : "--rho-inf")
                        : rc == HS_E_DEF_JAC ? "--jac"
                        : rc == HS_E_DEF_STAB ? "--stab"
                        : rc == HS_E_DEF_COMPLIANCE ? "--compliance/--damping"
                        : rc == HS_E_DEF_SPOOK ? "--spook-eps/--spook-tau" : "--model";
        return fail(e, arg, "%s", hs_status_str(rc));
    }

    /* The step count: bounded, and exactly T/h. A fixed-step integrator cannot end between
     * two steps, so an end time that is not a whole number of steps is refused rather than
     * silently cut short (or run past). */
    const double ratio = c->T_end / c->h;
    if (!(ratio <= HS_SIM_MAX_STEPS))
        return fail(e, "--t", "T/h = %.6g steps exceeds the bound of %.0e steps", ratio,
                    HS_SIM_MAX_STEPS);
    const double n = floor(ratio + 0.5);
    /* ratio carries the rounding of T and h: ~1 ulp of ratio, far below 1e-6 steps. */
    if (fabs(ratio - n) > 1e-6)
        return fail(e, "--t", "%.12g s is not a whole number of steps of --h %.12g s (T/h = %.9g);"
                    " use --t %.12g or %.12g", c->T_end, c->h, ratio, floor(ratio) * c->h,
                    ceil(ratio) * c->h);
    r->nsteps = (uint64_t)n;
    r->in_t = r->in_v = NULL;
    r->in_rows = 0;
    r->in_ncol = 0;
    if (c->inputs_path) {
        char msg[400];
        if (load_inputs(c->inputs_path, &r->model, r, msg, sizeof msg))
            return fail(e, "--inputs", "%s", msg);
    }
    r->has_ref = r->type == &hs_car_axle_type && params_are_defaults(&r->model) &&
                 fabs((double)r->nsteps * c->h - 3.0) < 0.5 * c->h;
    return HS_SIM_OK;
}

#ifndef HS_SIM_NO_MAIN
static const char *status_token(int rc)
{
    switch (rc) {
    case HS_OK: return "ok";
    case HS_E_OUTPUT_NONFINITE: return "nonfinite_output";
    case HS_E_OUTPUT_RANGE: return "output_range";
    case HS_E_SINGULAR: return "singular";
    case HS_E_NONFINITE: return "nonfinite";
    case HS_E_MODEL: return "model_fault";
    case HS_E_INPUT: return "bad_input";
    case HS_E_RANGE: return "range";
    case HS_E_RANGE_INIT: return "range_init";
    case HS_E_RANGE_DEGENERATE: return "degenerate";
    default: return "fault";
    }
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* First write error of the CSV (errno value), 0 while every write succeeded. */
static int g_csv_err;

static void wchk(int printed)
{
    if (printed < 0 && !g_csv_err) g_csv_err = errno ? errno : EIO;
}

/* One CSV column per signal: PREFIX_NAME[unit] (hilstep-rt's telemetry convention) from the
 * model's labels "NAME (unit)"; PREFIX<i> when the model has none. */
static void csv_signal_header(FILE *csv, const char *const *labels, int n, const char *prefix)
{
    for (int i = 0; i < n; ++i) {
        char name[64], unit[64];
        if (labels && labels[i]) {
            split_label(labels[i], name, sizeof name, unit, sizeof unit);
            for (char *p = name; *p; ++p)
                if (*p == ' ' || *p == ',') *p = '_';
        } else {
            snprintf(name, sizeof name, "%d", i + 1);
            unit[0] = '\0';
        }
        wchk(fprintf(csv, ",%s%s%s%s%s", prefix, labels && labels[i] ? "_" : "", name, unit[0] ? "[" : "",
                     unit[0] ? unit : ""));
        if (unit[0]) wchk(fprintf(csv, "]"));
    }
}

/* After a failed write (disk full, file-size limit) stdio may have left half a row: cut the
 * file back to its last complete row, read backwards in blocks. 0, or -1 when it could not. */
static int csv_cut_to_last_row(const char *path)
{
    char blk[4096];
    struct stat sb;
    const int fd = open(path, O_RDWR);
    if (fd < 0) return -1;
    off_t end = fstat(fd, &sb) == 0 ? sb.st_size : -1, keep = end < 0 ? -1 : 0;
    while (end > 0) {
        const size_t n = end > (off_t)sizeof blk ? sizeof blk : (size_t)end;
        if (pread(fd, blk, n, end - (off_t)n) != (ssize_t)n) { keep = -1; break; }
        size_t i = n;
        while (i > 0 && blk[i - 1] != '\n') --i;
        if (i > 0) { keep = end - (off_t)n + (off_t)i; break; }
        end -= (off_t)n;
    }
    const int rc = (keep < 0 || (keep < sb.st_size && ftruncate(fd, keep) != 0)) ? -1 : 0;
    return close(fd) == 0 ? rc : -1;
}

/* --glob-check: the extrapolation weights c = 1 / (r - 1) at which the run's distance from
 * q_{h/4} + c (q_{h/4} - q_{h/2}) is kept, r the observed ratio of the errors at h/2 and h/4:
 * r = 2^p for p = infinity, 4, 3, 2, 1 (c = 0 is the run at h/4 itself; c = 1, first order, the
 * bound: rt/METHODS.md "For first-order estimates"). */
#define SIM_RICH_NC 5
static const double sim_rich_c[SIM_RICH_NC] = {0.0, 1.0 / 15.0, 1.0 / 7.0, 1.0 / 3.0, 1.0};

/* One run of the tool: the stepper, its arenas, the CSV and what the summary reports. */
typedef struct sim_state {
    hs_stepper_def def;  /* the def the stepper runs (--method auto: the one that was taken) */
    hs_stepper st;
    hs_real *reals;
    int *ints;
    size_t nreals, nints;
    FILE *csv;           /* --csv, NULL without */
    hs_real *g;          /* (nc) residual, sized with the arenas */
    double max_g;
    double max_dE, E0;   /* max over every step of |E - E(0)| for a model with energy() */
    double release;      /* the energy the model can release from its initial state (J; its
                          * release() hook), the scale of max_dE; 0 when unknown */
    uint64_t hash;
    double ns_total;     /* host ns inside hs_stepper_step */
    uint64_t done;       /* steps taken */
    uint64_t clamped;    /* input values clamped into their signal's [min, max] (per step) */
    struct sim_state *ref; /* --err-check: the stepper at h/N restarted from every step's state */
    double err_true;     /* --err-check: largest true local position error of a step (units of q) */
    double err_true_sum; /* --err-check: their sum */
    double ratio_lo, ratio_hi; /* --err-check: extremes of err_step / true local error over the
                                * steps whose true error is above the rounding floor */
    struct sim_state *half; /* --glob-check: the same run at h/2, restarted from the run's state
                             * every HS_ERR_HORIZON s; NULL without */
    struct sim_state *quarter; /* --glob-check: the same run at h/4 beside the one at h/2 (the
                                * observed order), restarted with it; NULL without or once it refused */
    double err_rich;     /* --glob-check: the run's largest distance from the companions' extrapolation
                          * (rich_estimate; units of q; infinite once the run at h/2 refused a step) */
    double rich_dh;      /* --glob-check: the largest |q_h - q_{h/2}| over the run (hs_stepper_err_dist) */
    double rich_dh2;     /* --glob-check: the largest |q_{h/2} - q_{h/4}| over the run, same metric */
    double rich_m[SIM_RICH_NC]; /* --glob-check: the largest |q_h - (q_{h/4} + c (q_{h/4} - q_{h/2}))|
                                 * over the run at each c of sim_rich_c (same metric) */
    hs_real *rich_x;     /* --glob-check: (nq) scratch for the extrapolated positions */
    uint64_t half_span;  /* --glob-check: steps of h per restart of the companion, >= 1 */
    struct sim_state *gref; /* --glob-ref N: the default method at h/N from the initial state,
                             * never restarted; NULL without or once it refused a step */
    double err_ref;      /* --glob-ref: the largest distance of the run from it (err_est's metric;
                          * infinite once it refused a step) */
} sim_state;

/* --methods: the method table as the markdown rows rt/METHODS.md carries (make methods-doc). */
static int print_methods(void)
{
    printf("| method | family (file) | what it does | needs from the model |\n|---|---|---|---|\n");
    for (int k = 0; k < HS_METHOD_COUNT; ++k) {
        const hs_method_info *r = &hs_method_table[k];
        printf("| `%s`%s | %s (`rt/hs_%s.c`) | %s | %s |\n", r->name,
               r->id == hs_stepper_default_def().method ? " (default)" : "", r->family,
               r->family, r->summary, r->hooks[0] ? r->hooks : "-");
    }
    return hs_exit_of(HS_TOOL_SIM, fflush(stdout) == 0 && !ferror(stdout) ? HS_OK : HS_E_WRITE);
}

/* Arenas sized by the stepper's own query, once, before the first step (a host tool may
 * allocate at init; the step itself never does), then the init. Parameter-sized models (chain
 * n = 128, ladder n = 100) outgrow any fixed sizing scratch: the query names the scratch to
 * call it again with (at most twice more). */
static int arenas_and_init(sim_state *S, const hs_sim_run *run)
{
    free(S->reals);
    free(S->ints);
    S->reals = NULL;
    S->ints = NULL;
    int rc = HS_E_SIZE;
    for (size_t ntmp = 4096; rc == HS_E_SIZE;) {
        int *tmp = malloc(ntmp * sizeof *tmp);
        if (!tmp) break;
        rc = hs_stepper_workspace_tmp(&S->def, &run->model, tmp, ntmp, &S->nreals, &S->nints);
        free(tmp);
        if (rc != HS_E_SIZE || S->nints <= ntmp) break;
        ntmp = S->nints;
    }
    S->reals = rc ? NULL : calloc(S->nreals ? S->nreals : 1, sizeof *S->reals);
    S->ints = rc ? NULL : calloc(S->nints ? S->nints : 1, sizeof *S->ints);
    if (!rc && (!S->reals || !S->ints)) rc = HS_E_SIZE;
    if (!rc)
        rc = hs_stepper_init(&S->st, &S->def, &run->model, HS_R(0.0), S->reals, S->nreals, S->ints, S->nints);
    return rc;
}

/* Starts X, a copy of the run stepped beside it with def at step h (s); 0, or 1 after saying
 * on stderr that `what` could not start. */
static int start_beside(sim_state *X, const hs_stepper_def *def, double h, const hs_sim_run *run, const char *what)
{
    X->def = *def;
    X->def.h = (hs_real)h;
    if (arenas_and_init(X, run) != HS_OK) {
        fprintf(stderr, "hilstep-sim: %s could not start\n", what);
        return 1;
    }
    return 0;
}

/* The stepper refused the model at init: why, the figures of a range refusal (the estimate
 * and the limit), and the summary line of a run without steps. */
static void report_init_refusal(const sim_state *S, const hs_sim_run *run, int rc)
{
    fprintf(stderr, "hilstep-sim: init: %s\n", hs_status_str(rc));
    if (rc == HS_E_RANGE_INIT || rc == HS_E_RANGE_DEGENERATE) {
        const int nq = run->model.d.nq, nz = run->model.d.nz;
        hs_real *q0 = calloc((size_t)(2 * nq + nz + 1), sizeof *q0);
        hs_real how = 0;
        int dg = 0, who = HS_WHO_NONE;
        char by[64] = "";
        if (q0 && run->type->initial(&run->model, HS_R(0.0), q0, q0 + nq, q0 + 2 * nq) == HS_OK)
            (void)hs_stepper_range_who(&S->def, &run->model, HS_R(0.0), q0, q0 + nq, &how, &dg, &who);
        free(q0);
        if (who >= 0) snprintf(by, sizeof by, ", set by body %d", who);
        else if (who != HS_WHO_NONE) snprintf(by, sizeof by, ", set by joint %d", HS_WHO_JOINT_OF(who));
        fprintf(stderr, "hilstep-sim: init: h*omega = %.3g (omega = %.4g rad/s, the model's motion bound at "
                "the initial state%s), the method's range h*omega <= %.3g; constraints that can become "
                "dependent: %s\n", (double)how, (double)(how / S->def.h), by, (double)S->def.max_h_omega,
                dg ? "yes" : "no");
    }
    printf("steps=0 max_abs_g=nan ns_per_step=nan status=%s\n", status_token(rc));
}

/* --method auto's range rule (rt/METHODS.md "Long runs"): the largest h*omega (the model's
 * motion bound at the initial state, hs_stepper_range) at which em and dvp carried every
 * measured run of the chain and the ladder over 10 s; above it their fixed Newton iterations
 * were refused mid-run, so auto takes spook instead, decided before the first step. A model
 * whose loops can fold flat (degenerate) has a looser bound: em carried the ladder to 5.28 and
 * failed from 6.09, the chains (chain n = 2..16, chain.hsm) to 1.23 and failed from 1.45;
 * dvp carried the chain to 1.08 (n = 2; 0.723 at n = 4) and failed from 0.868. */
#define SIM_AUTO_EM_HW 1.25
#define SIM_AUTO_EM_HW_LOOPS 5.5
#define SIM_AUTO_DVP_HW 0.5

/* sqrt(2 E / min_i M_ii) (rad/s or 1/s): the rate the energy the model can release (release())
 * gives its lightest coordinate at (0, q0, u0 = q0 + nq); 0 without release() or mass(). M is
 * packed by the model's blocks (hs_model.h): the diagonal entries of its diagonal blocks. */
static double release_rate(const hs_sim_run *run, const hs_real *q0)
{
    const hs_model_type *ty = run->type;
    const int nq = run->model.d.nq;
    hs_real E = 0;
    if (!ty->release || !ty->mass || nq <= 0 ||
        ty->release(&run->model, HS_R(0.0), q0, q0 + nq, &E) != HS_OK || !(E > 0)) return 0.0;
    static int buf[4096];
    hs_blocks b;
    const int brc = ty->blocks ? ty->blocks(&run->model, &b, buf, (int)(sizeof buf / sizeof buf[0]))
                               : (int)hs_blocks_dense(&run->model.d, &b, buf, (int)(sizeof buf / sizeof buf[0]));
    if (brc != HS_OK) return 0.0;
    hs_real *M = calloc((size_t)hs_blocks_qq_size(&b) + 1u, sizeof *M);
    double mmin = -1.0;
    if (M && ty->mass(&run->model, HS_R(0.0), q0, M) == HS_OK) {
        size_t off = 0;
        for (int k = 0; k < b.nqq; ++k) {
            const int r = b.qq[2 * k], c = b.qq[2 * k + 1];
            const int nr = b.qb[r + 1] - b.qb[r], ncol = b.qb[c + 1] - b.qb[c];
            for (int i = 0; r == c && i < nr; ++i) {
                const double mii = (double)M[off + (size_t)i * (size_t)ncol + (size_t)i];
                if (mii > 0 && (mmin < 0 || mii < mmin)) mmin = mii;
            }
            off += (size_t)nr * (size_t)ncol;
        }
    }
    free(M);
    return mmin > 0 ? sqrt(2.0 * (double)E / mmin) : 0.0;
}

/* h*omega and the degenerate flag of the model at its initial state for def (0, 0 without a
 * motion bound or when the initial state cannot be had: the rule then keeps em and dvp). */
static void auto_range(const hs_stepper_def *def, const hs_sim_run *run, double *how, int *dg)
{
    const int nq = run->model.d.nq, nz = run->model.d.nz;
    hs_real *q0 = calloc((size_t)(2 * nq + nz + 1), sizeof *q0);
    hs_real r = 0;
    int rc = HS_E_NULL;
    *dg = 0;
    const int have0 = q0 && run->type->initial(&run->model, HS_R(0.0), q0, q0 + nq, q0 + 2 * nq) == HS_OK;
    if (have0) rc = hs_stepper_range(def, &run->model, HS_R(0.0), q0, q0 + nq, &r, dg);
    /* the def's own range refusal still gives h*omega; any other failure gives none */
    if (rc != HS_OK && rc != HS_E_RANGE_INIT && rc != HS_E_RANGE_DEGENERATE) {
        r = 0;
        *dg = 0;
    }
    *how = (double)r;
    /* A model whose motion bound is its bodies' rates now (the rods: checked in-step, 0 at
     * rest) still tells what em's Newton iterations face through the energy it can release: the
     * rate that energy gives the lightest coordinate, sqrt(2 E / min_i M_ii), the bound the
     * rule's limits were measured with (the rods' init bound before it became in-step). */
    const double wE = have0 ? release_rate(run, q0) : 0.0;
    if (wE * (double)def->h > *how) *how = wE * (double)def->h;
    const hs_model_type *ty = run->type;
    if (wE > 0 && ty->motion) { /* its flag of loops that can fold flat */
        hs_real w = 0;
        int dgn = 0, who = 0;
        if (ty->motion(&run->model, HS_R(0.0), q0, q0 + nq, &w, &dgn, &who) == HS_OK) *dg = dgn;
    }
    free(q0);
}

/* The stepper of the run: --method auto tries em, dvp, then the def as given, the first whose
 * init accepts the model (em refuses a q-dependent M, dvp one without lagrange(), both a model
 * with declared compliance) and whose range rule above admits h*omega; where the rule skipped
 * em or dvp the last candidate is spook, and stderr says so. HS_OK, or HS_E_STEP after the
 * refusal is reported (hilstep-sim exits 1 for a refused init as for a refused step). */
static hs_status start_stepper(sim_state *S, const hs_sim_cfg *cfg, const hs_sim_run *run)
{
    int rc = HS_OK, skipped = 0, dg = 0;
    double how = 0;
    if (cfg->auto_method) auto_range(&cfg->def, run, &how, &dg);
    const double lim[2] = { dg ? SIM_AUTO_EM_HW_LOOPS : SIM_AUTO_EM_HW, SIM_AUTO_DVP_HW };
    for (int cand = cfg->auto_method ? 0 : 2; cand < 3; ++cand) {
        S->def = cfg->def;
        if (cand < 2) {
            S->def.method = cand == 0 ? HS_METHOD_EM : HS_METHOD_DVP;
            S->def.form = HS_FORM_INDEX2;
            S->def.stab = HS_STAB_NONE;
        } else if (skipped) {
            S->def.method = HS_METHOD_SPOOK;
            S->def.form = HS_FORM_INDEX2;
            S->def.stab = HS_STAB_NONE;
            fprintf(stderr, "hilstep-sim: --method auto: spook, since h*omega = %.3g (the model's motion "
                    "bound at the initial state) is beyond em's %.3g%s and dvp's %.3g (rt/METHODS.md "
                    "\"Long runs\")\n", how, lim[0], dg ? " (loops that can fold)" : "", lim[1]);
        }
        rc = arenas_and_init(S, run);
        /* only a candidate that takes the model is judged by the rule: a model em and dvp
         * refuse keeps the def as given, as before */
        if (cand < 2 && rc == HS_OK && how > lim[cand]) {
            skipped = 1;
            continue;
        }
        if (rc != HS_E_DEF_EM_MASS && rc != HS_E_DEF_HOOK_LAGRANGE && rc != HS_E_DEF_COMPLIANCE) break;
    }
    if (rc) {
        report_init_refusal(S, run, rc);
        return HS_E_STEP;
    }
    return HS_OK;
}

/* --csv: opens the file and writes the header; HS_E_SETUP when it cannot be opened. */
static hs_status open_csv(sim_state *S, const hs_sim_cfg *cfg, const hs_sim_run *run)
{
    const hs_model_type *type = run->type;
    const hs_stepper *st = &S->st;
    if (!cfg->csv_path) return HS_OK;
    FILE *csv = S->csv = fopen(cfg->csv_path, "w");
    if (!csv) {
        fprintf(stderr, "hilstep-sim: --csv: cannot open %s: %s (see --help)\n", cfg->csv_path,
                strerror(errno));
        return HS_E_SETUP;
    }
    errno = 0;
    wchk(fprintf(csv, "t"));
    for (int i = 0; i < st->nq; ++i) wchk(fprintf(csv, ",q%d", i + 1));
    for (int i = 0; i < st->nq; ++i) wchk(fprintf(csv, ",u%d", i + 1));
    for (int i = 0; i < st->nc; ++i) wchk(fprintf(csv, ",g%d", i + 1));
    for (int i = 0; i < st->nz; ++i) wchk(fprintf(csv, ",z%d", i + 1));
    for (int i = 0; i < st->nc; ++i) wchk(fprintf(csv, ",lam%d", i + 1));
    /* unilateral rows: impulses of the last step (N s) and its complementarity residual */
    for (int i = 0; i < type->nk; ++i) wchk(fprintf(csv, ",ct%d", i + 1));
    if (type->nk > 0) wchk(fprintf(csv, ",compl"));
    csv_signal_header(csv, type->in_names, run->model.d.nin, "in");
    csv_signal_header(csv, type->out_names, run->model.d.nout, "out");
    wchk(fprintf(csv, ",err_est\n")); /* the stepper's err_est so far (rt/METHODS.md) */
    return HS_OK;
}

/* One CSV row of the committed state with the inputs in (nin) and its outputs (y: scratch). */
static void csv_row(sim_state *S, const hs_sim_run *run, const hs_real *in, hs_real *y)
{
    FILE *csv = S->csv;
    const hs_stepper *st = &S->st;
    const int nin = run->model.d.nin, nout = run->model.d.nout, nk = run->type->nk;
    errno = 0;
    wchk(fprintf(csv, "%.17g", (double)st->t));
    for (int i = 0; i < st->nq; ++i) wchk(fprintf(csv, ",%.17g", (double)st->q[i]));
    for (int i = 0; i < st->nq; ++i) wchk(fprintf(csv, ",%.17g", (double)st->u[i]));
    for (int i = 0; i < st->nc; ++i) wchk(fprintf(csv, ",%.17g", (double)S->g[i]));
    for (int i = 0; i < st->nz; ++i) wchk(fprintf(csv, ",%.17g", (double)st->z[i]));
    for (int i = 0; i < st->nc; ++i) wchk(fprintf(csv, ",%.17g", (double)st->lambda[i]));
    for (int i = 0; i < nk; ++i) wchk(fprintf(csv, ",%.17g", (double)st->ctl[i]));
    if (nk > 0) wchk(fprintf(csv, ",%.17g", (double)st->stats.ct_residual));
    for (int i = 0; i < nin; ++i) wchk(fprintf(csv, ",%.17g", (double)in[i]));
    if (nout > 0 && hs_stepper_outputs(st, in, y) != HS_OK)
        for (int i = 0; i < nout; ++i) y[i] = (hs_real)NAN;
    for (int i = 0; i < nout; ++i) wchk(fprintf(csv, ",%.17g", (double)y[i]));
    wchk(fprintf(csv, ",%.6e\n", (double)st->stats.err_est));
}

/* The residual and energy drift of the committed state at step k into the run's maxima. */
static void track(sim_state *S, const hs_sim_run *run, uint64_t k)
{
    const hs_stepper *st = &S->st;
    hs_stepper_residual(st, S->g);
    for (int i = 0; i < st->nc; ++i) S->max_g = fmax(S->max_g, fabs((double)S->g[i]));
    if (run->type->energy != NULL) {
        hs_real E = HS_R(0.0);
        if (run->type->energy(&run->model, st->t, st->q, st->u, st->z, &E) != HS_OK) E = (hs_real)NAN;
        if (k == 0) S->E0 = (double)E;
        hs_real R = HS_R(0.0);
        if (k == 0 && run->type->release != NULL
            && run->type->release(&run->model, st->t, st->q, st->u, &R) == HS_OK && R > HS_R(0.0))
            S->release = (double)R;
        const double dE = fabs((double)E - S->E0);
        if (isnan(dE) || isnan(S->max_dE)) S->max_dE = (double)NAN; /* a NaN energy stays visible */
        else if (dE > S->max_dE) S->max_dE = dE;
    }
}

/* Inputs into their signals' [min, max], each clamp counted: what hilstep-rt does to an ECU's
 * value (hs_rx), so an offline run sees the values the rig would apply. */
static void clamp_inputs(sim_state *S, const hs_sim_run *run, hs_real *in, int nin, int counted)
{
    for (int i = 0; run->map && i < nin; ++i) {
        const hs_signal *sg = run->in_sig[i];
        const int lo = (double)in[i] < sg->min, hi = (double)in[i] > sg->max;
        if (lo) in[i] = (hs_real)sg->min;
        if (hi) in[i] = (hs_real)sg->max;
        S->clamped += (uint64_t)((lo || hi) && counted);
    }
}

/* The plant's verdict on the outputs of the committed state with the inputs in (y: scratch):
 * HS_OK, HS_E_OUTPUT_NONFINITE or HS_E_OUTPUT_RANGE (hs_plant_check_outputs; without a map,
 * NaN/Inf only). */
static int outputs_ok(const sim_state *S, const hs_sim_run *run, const hs_real *in, hs_real *y)
{
    const int nout = run->model.d.nout;
    if (nout == 0) return HS_OK;
    if (hs_stepper_outputs(&S->st, in, y) != HS_OK) return HS_E_OUTPUT_NONFINITE;
    if (run->map) return hs_plant_check_outputs(run->out_sig, nout, y);
    for (int i = 0; i < nout; ++i)
        if (!isfinite((double)y[i])) return HS_E_OUTPUT_NONFINITE;
    return HS_OK;
}

/* --err-check N: the reference of the next step, N steps of h/N from the committed state with
 * the same inputs (held over the step, as the step holds them); its refusal ends the run. */
static int ref_step(sim_state *S, const hs_sim_cfg *cfg, const hs_real *in)
{
    const hs_stepper *st = &S->st;
    hs_stepper *r = &S->ref->st;
    int rc = hs_stepper_set_state(r, st->t, st->q, st->u, st->z);
    for (int i = 0; !rc && i < cfg->err_check; ++i) rc = hs_stepper_step(r, in);
    if (rc) fprintf(stderr, "hilstep-sim: --err-check: the reference (h/%d) refused step %llu: %s\n",
                    cfg->err_check, (unsigned long long)S->done + 1u, hs_status_str(rc));
    return rc;
}

/* --err-check: the step's true local position error |q_{n+1} - q_ref|_inf against the
 * estimate of the same step. Steps whose true error is under the rounding floor (1e-13 of
 * the size, 1 + |q|_inf) or whose estimate is 0 (a second-order family's first step) do not
 * enter the ratio's extremes; a second-order family's first step after init, which has no
 * estimate, is left out of err_true too. */
static void ref_compare(sim_state *S)
{
    const hs_stepper *st = &S->st, *r = &S->ref->st;
    double qm = 0.0;
    for (int i = 0; i < st->nq; ++i) qm = fmax(qm, fabs((double)st->q[i]));
    /* in err_est's metric (a body's error at its named points and its turn; rt/METHODS.md "At
     * the points a description names"), so the two are compared in one unit */
    const double e = (double)hs_stepper_err_dist(st, st->q, r->q);
    const double le = (double)st->stats.err_step;
    /* the estimate covers every step but a second-order family's first (k = 1, err_step 0):
     * err_true covers the same steps */
    if (st->k == 1u && le == 0.0) return;
    S->err_true = fmax(S->err_true, e);
    S->err_true_sum += e;
    if (e > 1e-13 * (1.0 + qm) && le > 0.0) {
        const double q = le / e;
        if (S->ratio_lo == 0.0 || q < S->ratio_lo) S->ratio_lo = q;
        if (q > S->ratio_hi) S->ratio_hi = q;
    }
}

/* --glob-check: the observed ratio r = e(h/2) / e(h/4) of the errors, read from the two
 * distances the three runs give, rich_dh / rich_dh2 (e(h) - e(h/2) = (1 - 1/r) e(h): the two
 * distances shrink by r as the errors do; r = 2^p in the asymptotic range of a method of order p). */
static double rich_ratio(const sim_state *S)
{
    return S->rich_dh2 > 0.0 ? S->rich_dh / S->rich_dh2 : (double)INFINITY;
}

/* --glob-check: the run's global error, its largest distance from the extrapolation of the two
 * companions with the observed order, q* = q_{h/4} + c (q_{h/4} - q_{h/2}), c = 1 / (r - 1): the
 * runs at h/2 and h/4 estimate the exact positions to the order past the method's, and the run
 * is measured against them, not its difference from one of them scaled. c is bounded to
 * [0, 1] (r >= 2): every method of the table converges at least at first order, and a smaller
 * ratio of the distances is the runs' not being in the asymptotic range (the car axle under em
 * at 1e-2 s: the distances' ratio 1.58, the errors' 3.45), where a larger c over-reads 2 to 10
 * times; between the kept weights the distance, the largest over the run of a norm affine in c, is
 * convex in c, so the straight line between them bounds it from above. r is also bounded by 2^p
 * (p the nominal order), the ratio the runs tend to: from either side 1/(r - 1) then bounds the
 * error left at h/4 from above (rt/METHODS.md "For first-order estimates"). Without the run at h/4
 * (it refused a step), Richardson's 2^p / (2^p - 1) times rich_dh, p the nominal order. */
static double rich_estimate(const sim_state *S)
{
    const double rp = hs_stepper_err_order(&S->st) == 1 ? 2.0 : 4.0; /* 2^p */
    if (!S->quarter) return rp / (rp - 1.0) * S->rich_dh;
    /* the observed ratio, but never past 2^p: a ratio above it is the runs' being short of the
     * asymptotic range from the fast side, where the finer runs' ratios fall towards 2^p and
     * the error left at h/4 exceeds 1/(r - 1) of their distance (spook on double_spherical.hsm
     * at 1e-2 s: r = 2.77, 1/(r - 1) read 0.95 of the true error) */
    const double r = fmin(rich_ratio(S), rp);
    const double c = r > 2.0 ? 1.0 / (r - 1.0) : sim_rich_c[SIM_RICH_NC - 1];
    int j = 1;
    while (j < SIM_RICH_NC - 1 && sim_rich_c[j] < c) ++j;
    const double w = (c - sim_rich_c[j - 1]) / (sim_rich_c[j] - sim_rich_c[j - 1]);
    return (1.0 - w) * S->rich_m[j - 1] + w * S->rich_m[j];
}

/* --glob-check: the run at h/4's four steps over the run's step, its distance from the run at
 * h/2, and the run's from their extrapolation at each kept weight. A step it refuses leaves the
 * order unmeasured: rich_estimate falls back to the nominal order's factor. */
static void quarter_step(sim_state *S, const hs_real *in)
{
    hs_stepper *r = &S->quarter->st;
    const hs_real *q2 = S->half->st.q;
    int rc = HS_OK;
    for (int k = 0; k < 4 && rc == HS_OK; ++k) rc = hs_stepper_step(r, in);
    if (rc) {
        fprintf(stderr, "hilstep-sim: --glob-check: the same run at h/4 refused a step in step %llu: %s; "
                "err_rich takes the nominal order's factor\n", (unsigned long long)S->done + 1u, hs_status_str(rc));
        S->quarter = NULL;
        return;
    }
    const double d = (double)hs_stepper_err_dist(&S->st, q2, r->q);
    S->rich_dh2 = d == d ? fmax(S->rich_dh2, d) : (double)INFINITY;
    for (int j = 0; j < SIM_RICH_NC; ++j) {
        const hs_real c = (hs_real)sim_rich_c[j];
        for (int i = 0; i < S->st.nq; ++i) S->rich_x[i] = r->q[i] + c * (r->q[i] - q2[i]);
        const double m = (double)hs_stepper_err_dist(&S->st, S->st.q, S->rich_x);
        S->rich_m[j] = m == m ? fmax(S->rich_m[j], m) : (double)INFINITY;
    }
}

/* --glob-check: the companions' steps over the run's step (two of h/2, four of h/4), with the
 * inputs the step held, then the estimate of the run's global error, rich_factor times the
 * largest distance of the positions at h and h/2 so far. The companions restart from the run's
 * state every half_span steps, so the estimate is the error gathered over one test's span
 * (HS_ERR_HORIZON, err_glob's window). A step the run at h/2 refuses leaves the run's error
 * unknown: err_rich is then infinite (judged inaccurate). */
static void half_step(sim_state *S, const hs_real *in)
{
    const hs_stepper *st = &S->st;
    hs_stepper *r = &S->half->st;
    if (isinf(S->err_rich)) return;
    int rc = hs_stepper_step(r, in);
    if (!rc) rc = hs_stepper_step(r, in);
    if (rc) {
        fprintf(stderr, "hilstep-sim: --glob-check: the same run at h/2 refused a step in step %llu: %s; "
                "the run's global error is not known\n", (unsigned long long)S->done + 1u, hs_status_str(rc));
        S->err_rich = (double)INFINITY;
        return;
    }
    if (S->quarter) quarter_step(S, in);
    /* the distance in err_est's metric: the bodies' named points and turns, not q's components */
    const double d = (double)hs_stepper_err_dist(st, st->q, r->q);
    S->rich_dh = d == d ? fmax(S->rich_dh, d) : (double)INFINITY;
    /* a NaN distance is no estimate: it judges as the refusal does */
    S->err_rich = isinf(S->rich_dh) || isinf(S->rich_dh2) ? (double)INFINITY : rich_estimate(S);
    if ((S->done + 1u) % S->half_span != 0u) return;
    if (hs_stepper_set_state(r, st->t, st->q, st->u, st->z) != HS_OK) S->err_rich = (double)INFINITY;
    if (S->quarter && hs_stepper_set_state(&S->quarter->st, st->t, st->q, st->u, st->z) != HS_OK)
        S->quarter = NULL;
}

/* --glob-ref N: the reference's N steps of h/N over the run's step, with the inputs the step
 * held, and the run's distance from it, the run's true global error to the reference's. */
static void gref_step(sim_state *S, const hs_sim_cfg *cfg, const hs_real *in)
{
    hs_stepper *r = &S->gref->st;
    int rc = HS_OK;
    for (int k = 0; k < cfg->glob_ref && rc == HS_OK; ++k) rc = hs_stepper_step(r, in);
    if (rc) {
        fprintf(stderr, "hilstep-sim: --glob-ref: the reference at h/%d refused a step in step %llu: %s\n",
                cfg->glob_ref, (unsigned long long)S->done + 1u, hs_status_str(rc));
        S->err_ref = (double)INFINITY;
        S->gref = NULL;
        return;
    }
    const double d = (double)hs_stepper_err_dist(&S->st, S->st.q, r->q);
    S->err_ref = d == d ? fmax(S->err_ref, d) : (double)INFINITY;
}

/* The steps: inputs, bookkeeping and CSV row of each committed state, then the step; stops
 * at the last step, a refused step (its status returned), outputs the rig would refuse (NaN,
 * Inf or outside their range: never written) or a failed CSV write. */
static int run_steps(sim_state *S, const hs_sim_cfg *cfg, const hs_sim_run *run)
{
    hs_real in[HS_MB_MAX_NIN > HS_MODELS_MAX_NIN ? HS_MB_MAX_NIN : HS_MODELS_MAX_NIN] = {0};
    hs_real y[HS_MB_MAX_NOUT > HS_MODELS_MAX_NOUT ? HS_MB_MAX_NOUT : HS_MODELS_MAX_NOUT] = {0};
    const int nin = run->model.d.nin;
    int rc = HS_OK;
    S->hash = HS_HASH_INIT;
    for (uint64_t k = 0; !g_csv_err; ++k) {
        hs_sim_inputs_at(cfg, run, (double)k * cfg->h, in, nin);
        clamp_inputs(S, run, in, nin, k < run->nsteps); /* counted per step that uses them */
        /* the initial state's outputs with the first inputs; later ones are checked right
         * after their step, with that step's inputs, as the plant checks them */
        if (k == 0) rc = outputs_ok(S, run, in, y);
        if (rc) break;
        track(S, run, k);
        if (S->csv && k % (uint64_t)cfg->every == 0) csv_row(S, run, in, y);
        if (k == run->nsteps) break;
        if (S->ref) rc = ref_step(S, cfg, in);
        if (rc) break;
        double t0 = now_ns();
        rc = hs_stepper_step(&S->st, in);
        S->ns_total += now_ns() - t0;
        if (rc) break;
        if (S->ref) ref_compare(S);
        if (S->half) half_step(S, in);
        if (S->gref) gref_step(S, cfg, in);
        ++S->done;
        S->hash = hs_stepper_hash(&S->st, S->hash);
        rc = outputs_ok(S, run, in, y);
        if (rc) break;
    }
    return rc;
}

/* The data is out only when the flush and the close succeed (NFS reports at close). */
static void close_csv(sim_state *S)
{
    if (!S->csv) return;
    errno = 0;
    if (fflush(S->csv) != 0 && !g_csv_err) g_csv_err = errno ? errno : EIO;
    if (ferror(S->csv) && !g_csv_err) g_csv_err = EIO;
    errno = 0;
    if (fclose(S->csv) != 0 && !g_csv_err) g_csv_err = errno ? errno : EIO;
    S->csv = NULL;
}

/* 1 when the run's error estimate exceeds --tol (not with --tol off). */
/* An energy error above this fraction of the energy the model can release is a poor run
 * (rt/METHODS.md "Where a method stops": chain of 8 at 4 ms, 13.6 %). */
#define SIM_MAX_REL_DE 0.1

/* 1 when the run's energy error is beyond SIM_MAX_REL_DE of its release (models with release()). */
static int energy_poor(const sim_state *S, const hs_sim_cfg *cfg)
{
    return cfg->tol > 0 && S->release > 0 && !(S->max_dE <= SIM_MAX_REL_DE * S->release);
}

/* 1 when the run's global estimate err_glob exceeds --tol: the local errors of a run of known
 * length adding up (rt/METHODS.md "The global estimate"; hilstep-sim only: a hilstep-rt
 * session has no end to sum to). Second-order estimates only: the first-order one, h^2/2 q'',
 * bounds a step's distance from the trapezoidal update and does not add up (spook on A01 at
 * 1 ms: err_glob 0.12, the point 2.1e-3 m off). */
static int glob_poor(const sim_state *S, const hs_sim_cfg *cfg)
{
    /* with the run at h/2 beside it the error is measured (err_rich), not summed */
    return !S->half && hs_stepper_err_order(&S->st) == 2 && hs_health_accuracy((double)S->st.stats.err_glob, cfg->tol) != HS_OK;
}

/* 1 when --glob-check's estimate err_rich exceeds --tol (or is not known). */
static int rich_poor(const sim_state *S, const hs_sim_cfg *cfg)
{
    return S->half && cfg->tol > 0 && !(S->err_rich <= cfg->tol);
}

static int inaccurate(const sim_state *S, const hs_sim_cfg *cfg)
{
    return hs_health_accuracy((double)S->st.stats.err_est, cfg->tol) != HS_OK || energy_poor(S, cfg)
           || glob_poor(S, cfg) || rich_poor(S, cfg);
}

/* The hash line (--hash) and the summary line: the contract read by benchmarks and scripts. */
static void print_summary(const sim_state *S, const hs_sim_cfg *cfg, const hs_sim_run *run, int rc)
{
    const hs_model_type *type = run->type;
    const hs_stepper *st = &S->st;
    const hs_stepper_def *def = &S->def;
    const uint64_t done = S->done;
    const char *status = g_csv_err ? "write_error" : status_token(rc);
    if (!g_csv_err && rc == HS_OK && inaccurate(S, cfg)) status = "inaccurate";
    if (cfg->want_hash)
        printf("trajectory-hash %s %s %s %llu 0x%016llx\n", type->name, hs_method_name(def->method),
               hs_stab_name(def->stab), (unsigned long long)done, (unsigned long long)S->hash);
    printf("steps=%llu t=%.17g max_abs_g=%.6e ns_per_step=%.1f status=%s model=%s method=%s form=%s "
           "stab=%s h=%g force_evals=%llu factorizations=%llu path=%s",
           (unsigned long long)done, (double)st->t, S->max_g, done ? S->ns_total / (double)done : 0.0,
           status, type->name, hs_method_name(def->method), hs_form_name(def->form),
           hs_stab_name(def->stab), cfg->h, (unsigned long long)st->stats.force_evals,
           (unsigned long long)st->stats.factorizations, hs_stepper_path(st));
    printf(" clamped_inputs=%llu", (unsigned long long)S->clamped);
    printf(" err_est=%.6e err_sum=%.6e tol=%.6g", (double)st->stats.err_est, (double)st->stats.err_sum,
           cfg->tol);
    printf(" err_glob=%.6e", (double)st->stats.err_glob);
    if (S->half)
        printf(" err_rich=%.6e rich_dh=%.6e rich_dh2=%.6e rich_ratio=%.4g", S->err_rich, S->rich_dh, S->rich_dh2,
               S->quarter ? rich_ratio(S) : 0.0);
    if (cfg->glob_ref) printf(" err_ref=%.6e", S->err_ref);
    if (S->ref)
        printf(" err_true=%.6e err_true_sum=%.6e err_ratio_min=%.4g err_ratio_max=%.4g", S->err_true,
               S->err_true_sum, S->ratio_lo, S->ratio_hi);
    if (type->energy != NULL) printf(" max_abs_dE=%.6e", S->max_dE);
    if (S->release > 0) printf(" release=%.6e rel_dE=%.6e", S->release, S->max_dE / S->release);
    if (type->nk > 0) printf(" max_compl=%.6e max_sunk=%.6e", (double)st->stats.ct_residual_max, (double)st->stats.ct_sunk_max);
    if (run->has_ref && done == run->nsteps) {
        double eq = 0.0, eu = 0.0;
        for (int i = 0; i < 4; ++i) {
            eq = fmax(eq, fabs((double)st->q[i] - hs_car_axle_ref_t3[i]));
            eu = fmax(eu, fabs((double)st->u[i] - hs_car_axle_ref_t3[4 + i]));
        }
        printf(" ref_err_q=%.6e ref_err_u=%.6e", eq, eu);
    }
    for (int i = 0; i < st->nq; ++i) printf(" q%d=%.17g", i + 1, (double)st->q[i]);
    for (int i = 0; i < st->nq; ++i) printf(" u%d=%.17g", i + 1, (double)st->u[i]);
    printf("\n");
}

/* The run's end: what failed, then its status (a lost write outranks a refused step). */
static hs_status finish(const sim_state *S, const hs_sim_cfg *cfg, int rc)
{
    if (g_csv_err)
        fprintf(stderr, "hilstep-sim: --csv %s: write failed after %llu steps: %s; the file is "
                "incomplete%s\n", cfg->csv_path, (unsigned long long)S->done, strerror(g_csv_err),
                csv_cut_to_last_row(cfg->csv_path) == 0 ? ", cut back to its last complete row" : "");
    if ((rc == HS_E_OUTPUT_NONFINITE || rc == HS_E_OUTPUT_RANGE) && S->done == 0)
        fprintf(stderr, "hilstep-sim: outputs of the initial state refused, as hilstep-rt refuses "
                "them: %s\n", hs_plant_fault_str(rc));
    else if (rc == HS_E_OUTPUT_NONFINITE || rc == HS_E_OUTPUT_RANGE)
        fprintf(stderr, "hilstep-sim: outputs after step %llu refused, as hilstep-rt refuses them: %s\n",
                (unsigned long long)S->done, hs_plant_fault_str(rc));
    else if (rc) fprintf(stderr, "hilstep-sim: step %llu refused: %s\n", (unsigned long long)S->done + 1u,
                    hs_status_str(rc));
    if (rc == HS_E_RANGE && S->st.stats.range_body >= 0)
        fprintf(stderr, "hilstep-sim: body %d (0-based, the model's order) turns at h*|w| = %.3g rad per "
                "step, the method's range h*|w| <= %.3g\n", S->st.stats.range_body, (double)S->st.stats.range_hw,
                (double)S->st.stats.range_lim);
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "hilstep-sim: standard output: write failed: %s\n",
                strerror(errno ? errno : EIO));
        return HS_E_WRITE;
    }
    if (g_csv_err) return HS_E_WRITE;
    if (rc) return HS_E_STEP;
    if (energy_poor(S, cfg)) {
        fprintf(stderr, "hilstep-sim: inaccurate: max |E - E(0)| = %.3e J is %.3g %% of the %.4g J the "
                "model can release (above %g %%; rt/METHODS.md \"Where a method stops\")\n", S->max_dE,
                100.0 * S->max_dE / S->release, S->release, 100.0 * SIM_MAX_REL_DE);
        return HS_E_INACCURATE;
    }
    if (hs_health_accuracy((double)S->st.stats.err_est, cfg->tol) != HS_OK) {
        fprintf(stderr, "hilstep-sim: inaccurate: err_est %.3e exceeds --tol %.3g (the largest local "
                "position error estimate of a step, units of q; rt/METHODS.md \"The error estimate\")\n",
                (double)S->st.stats.err_est, cfg->tol);
        return HS_E_INACCURATE;
    }
    if (glob_poor(S, cfg)) {
        fprintf(stderr, "hilstep-sim: inaccurate: err_glob %.3e exceeds --tol %.3g (the run's global "
                "position error estimate, units of q; rt/METHODS.md \"The global estimate\")\n",
                (double)S->st.stats.err_glob, cfg->tol);
        return HS_E_INACCURATE;
    }
    if (rich_poor(S, cfg)) {
        fprintf(stderr, "hilstep-sim: inaccurate: err_rich %.3e exceeds --tol %.3g (the run's global "
                "position error from the same run at h/2, units of q; rt/METHODS.md \"The global "
                "estimate\")\n", S->err_rich, cfg->tol);
        return HS_E_INACCURATE;
    }
    return HS_OK;
}

/* --glob-check: on, or auto in a judged run of any method but sdirk, the one whose err_glob
 * is calibrated against the true global error (rt/METHODS.md "For first-order estimates"): a
 * first-order estimate does not add up, and galpha's, dvp's and em's sums missed runs that were
 * wrong (galpha on the rolling disk: 6.7 cm off its circle, err_glob 1.5e-5). Also sdirk on a
 * description with unilateral rows: their compliance (rest depth REG W F h^2 / ERP) is a
 * modelling error of order h^2 that no step's estimate holds, and where the compliant model is
 * unstable it is the run's whole error (a frictionless heavy box 1 mm off centre on a light
 * one: the light box squeezed out, err_glob 1.1e-2 at 3 s, ok; model/CONTACT.md "Symmetry"). */
static int glob_wanted(const sim_state *S, const hs_sim_cfg *cfg)
{
    if (cfg->glob_check == HS_SIM_GLOB_ON) return 1;
    return cfg->glob_check == HS_SIM_GLOB_AUTO && cfg->tol > 0
           && (hs_stepper_err_order(&S->st) == 1 || S->def.method != HS_METHOD_SDIRK || S->st.model->type->nk > 0);
}

int main(int argc, char **argv)
{
    static hs_sim_cfg cfg;
    static hs_sim_run run;
    static sim_state S;
    hs_sim_err err;
    if (argc == 2 && !strcmp(argv[1], "--list-methods")) return list_methods();
    if (argc == 2 && !strcmp(argv[1], "--methods")) return print_methods();
    /* A file-size limit (ulimit -f) fails the write with EFBIG (exit 3, rows cut back) instead
     * of killing the run without its summary line. */
    signal(SIGXFSZ, SIG_IGN);
    int rc = hs_sim_parse(argc, argv, &cfg, &err);
    if (rc == HS_SIM_HELP) {
        usage(stdout);
        return hs_exit_of(HS_TOOL_SIM, fflush(stdout) == 0 && !ferror(stdout) ? HS_OK : HS_E_WRITE);
    }
    if (rc == HS_SIM_OK) rc = hs_sim_setup(&cfg, &run, &err);
    if (rc != HS_SIM_OK) {
        /* a refused description points to its format (in err.why), anything else to --help */
        fprintf(stderr, "hilstep-sim: %s: %s%s\n", err.arg, err.why,
                strstr(err.why, "model/FORMAT.md") ? "" : " (see --help)");
        return hs_exit_of(HS_TOOL_SIM, HS_E_USAGE);
    }
    hs_status st = start_stepper(&S, &cfg, &run);
    static sim_state R;
    if (st == HS_OK && cfg.err_check) {
        hs_sim_cfg rc2 = cfg;
        rc2.def = S.def;
        rc2.def.h = (hs_real)(cfg.h / cfg.err_check);
        rc2.auto_method = 0;
        R.def = rc2.def;
        if (arenas_and_init(&R, &run) != HS_OK) {
            fprintf(stderr, "hilstep-sim: --err-check: the reference at h/%d could not start\n", cfg.err_check);
            return hs_exit_of(HS_TOOL_SIM, HS_E_STEP);
        }
        S.ref = &R;
    }
    static sim_state H;
    if (st == HS_OK && glob_wanted(&S, &cfg)) {
        static sim_state Q;
        if (start_beside(&H, &S.def, cfg.h / 2.0, &run, "--glob-check: the same run at h/2") != 0
            || start_beside(&Q, &S.def, cfg.h / 4.0, &run, "--glob-check: the same run at h/4") != 0) {
            return hs_exit_of(HS_TOOL_SIM, HS_E_STEP);
        }
        S.half = &H;
        S.quarter = &Q;
        S.rich_x = calloc((size_t)S.st.nq + 1, sizeof *S.rich_x);
        if (!S.rich_x) {
            fprintf(stderr, "hilstep-sim: --glob-check: out of memory (nq = %d)\n", S.st.nq);
            return hs_exit_of(HS_TOOL_SIM, HS_E_STEP);
        }
        const double span = floor((double)HS_ERR_HORIZON / cfg.h);
        S.half_span = span >= 1.0 ? (uint64_t)span : 1u;
    }
    static sim_state G;
    if (st == HS_OK && cfg.glob_ref) {
        const hs_stepper_def dd = hs_stepper_default_def();
        hs_stepper_def gd = S.def;
        gd.method = dd.method;
        gd.form = dd.form;
        gd.stab = dd.stab;
        char what[64];
        snprintf(what, sizeof what, "--glob-ref: the reference at h/%d", cfg.glob_ref);
        if (start_beside(&G, &gd, cfg.h / cfg.glob_ref, &run, what) != 0) {
            return hs_exit_of(HS_TOOL_SIM, HS_E_STEP);
        }
        S.gref = &G;
    }
    if (st == HS_OK) st = open_csv(&S, &cfg, &run);
    if (st != HS_OK) return hs_exit_of(HS_TOOL_SIM, st);
    S.g = calloc((size_t)S.st.nc + 1, sizeof *S.g);
    if (!S.g) {
        fprintf(stderr, "hilstep-sim: out of memory for the residual (nc = %d)\n", S.st.nc);
        return hs_exit_of(HS_TOOL_SIM, HS_E_STEP); /* exit 1, as a refused start */
    }
    rc = run_steps(&S, &cfg, &run);
    close_csv(&S);
    print_summary(&S, &cfg, &run, rc);
    return hs_exit_of(HS_TOOL_SIM, finish(&S, &cfg, rc));
}
#endif
