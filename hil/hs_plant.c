/* hs_plant.c - the port-independent plant application (see hs_plant.h). */
#include "hs_plant.h"
#include "hs_apps.h"
#include "hs_hash.h"
#include "hs_models.h"
#include "hs_mb.h" /* hs_mb_limit_msg: the capacity messages */

#include <string.h>

hs_plant_def hs_plant_default_def(void)
{
    hs_plant_def d;
    (void)memset(&d, 0, sizeof d);
    d.step = hs_stepper_default_def();
    d.step.h = (hs_real)1e-3;
    /* In double, then rounded once: the simulator derives them the same way, so the float
     * builds follow hilstep-sim's trajectory to the bit. */
    d.step.alpha = (hs_real)(1.0 / 1e-3);
    d.step.beta = (hs_real)(1.0 / (1e-3 * 1e-3));
    d.map = NULL;
    d.fault_hold = 10u;
    d.overrun_stop = 0;
    d.session = 1u;
    d.clock_ns = NULL;
    d.hash = 0;
    d.inject_fault_tick = -1;
    d.inject_fault_frames = 1u;
    return d;
}

static void why_set(char *why, size_t cap, const char *a, const char *b)
{
    size_t k = 0;
    if (why == NULL || cap == 0u) { return; }
    while (a != NULL && *a != '\0' && k + 1u < cap) { why[k++] = *a++; }
    while (b != NULL && *b != '\0' && k + 1u < cap) { why[k++] = *b++; }
    why[k] = '\0';
}

/* The first capacity of this plant build that sizes d exceed, as why: "NAME: model larger than
 * this plant build: N positions exceed HS_PLANT_MAX_NQ = 96; build with ..." (hs_mb_limit_msg). */
static void plant_over(const hs_dims *d, const char *name, char *why, size_t cap)
{
    static const char *const what[5] = {"positions", "constraint rows", "auxiliary states", "inputs", "outputs"};
    static const char *const lim[5] = {"HS_PLANT_MAX_NQ", "HS_PLANT_MAX_NC", "HS_PLANT_MAX_NZ", "HS_PLANT_MAX_SIG",
                                       "HS_PLANT_MAX_SIG"};
    const int need[5] = {d->nq, d->nc, d->nz, d->nin, d->nout};
    const int have[5] = {HS_PLANT_MAX_NQ, HS_PLANT_MAX_NC, HS_PLANT_MAX_NZ, HS_PLANT_MAX_SIG, HS_PLANT_MAX_SIG};
    hs_error e;
    e.detail[0] = '\0';
    for (int i = 0; i < 5; ++i) {
        if (need[i] > have[i]) {
            hs_mb_limit_msg(&e, what[i], need[i], 0, lim[i], have[i], lim[i]);
            break;
        }
    }
    char text[208]; /* the prefix below and e.detail (160) */
    why_set(text, sizeof text, ": model larger than this plant build: ", e.detail);
    why_set(why, cap, name, text);
}

/* Copies n chars without trailing blanks; other characters than letters, digits, '.', '_' and
 * '/' become '_' so a name is one token in the CSV header, the console and Wireshark. */
static void copy_trim(char *dst, size_t cap, const char *src, size_t n)
{
    size_t k = 0;
    while (n > 0u && src[n - 1u] == ' ') { --n; }
    while (k < n && k + 1u < cap) {
        const char c = src[k];
        const int ok = (int)((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '.' || c == '_' || c == '/' || c == '^');
        dst[k++] = ok ? c : '_';
    }
    dst[k] = '\0';
}

/* "name (unit)" -> name, unit ("1" when absent); "" name when label is NULL or empty. */
static void split_label(const char *label, char *name, char *unit, size_t cap)
{
    const char *open = NULL, *close = NULL;
    size_t n = 0;
    name[0] = '\0';
    unit[0] = '1';
    unit[1] = '\0';
    if (label == NULL) { return; }
    while (label[n] != '\0') {
        if (label[n] == '(' && open == NULL) { open = label + n; }
        if (label[n] == ')' && open != NULL && close == NULL) { close = label + n; }
        ++n;
    }
    /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
    copy_trim(name, cap, label, open ? (size_t)(open - label) : n);
    if (open != NULL) { copy_trim(unit, cap, open + 1, close ? (size_t)(close - open - 1) : strlen(open + 1)); }
}

static void number_name(char *dst, const char *prefix, int j)
{
    size_t k = 0;
    while (prefix[k] != '\0') { dst[k] = prefix[k]; ++k; }
    if (j >= 10) { dst[k++] = (char)('0' + (j / 10) % 10); }
    dst[k++] = (char)('0' + j % 10);
    dst[k] = '\0';
}

/* Generic map of a model without a shipped one: its own input/output labels, scale 1,
 * range +-1e9, fallback 0, inputs stale after 20 frames. */
static const hs_signal_map *generic_map(const hs_model *m, hs_signal *gsig, char (*gname)[2][24],
                                        hs_signal_map *gmap)
{
    const hs_model_type *T = m->type;
    int k = 0;
    for (int i = 0; i < m->d.nin + m->d.nout && k < 2 * HS_PLANT_MAX_SIG; ++i, ++k) {
        const int in = (int)(i < m->d.nin);
        const int j = in ? i : i - m->d.nin;
        const char *const *labels = in ? T->in_names : T->out_names;
        split_label(labels ? labels[j] : NULL, gname[k][0], gname[k][1], sizeof gname[k][0]);
        if (gname[k][0][0] == '\0') { number_name(gname[k][0], in ? "in" : "out", j + 1); }
        hs_signal s = {gname[k][0], gname[k][1], in ? HS_SIG_IN : HS_SIG_OUT, 1.0, 0.0,
                       -1e9, 1e9, 0.0, in ? 20u : 0u};
        gsig[k] = s;
    }
    gmap->app = T->name;
    gmap->sig = gsig;
    gmap->n = k;
    return gmap;
}

hs_status hs_plant_signal_map(const hs_model *m, const hs_signal_map *map, hs_plant_gmap *g,
                              const hs_signal_map **out, char *why, size_t cap)
{
    const hs_signal_map *use = map;
    *out = NULL;
    if ((m == NULL) || (m->type == NULL)) {
        why_set(why, cap, "plant: no model", "");
        return HS_E_NULL;
    }
    if ((m->d.nin > HS_PLANT_MAX_SIG) || (m->d.nout > HS_PLANT_MAX_SIG)) {
        why_set(why, cap, m->type->name, ": more signals than this plant build takes (HS_PLANT_MAX_SIG)");
        return HS_E_SIZE;
    }
    if (use == NULL) { use = hs_plant_map_find(m->type->name); }
    if (use == NULL) { use = generic_map(m, g->sig, g->name, &g->map); }
    hs_error se;
    const hs_status rc = hs_signal_map_check(use, m->d.nin, m->d.nout, &se);
    if (rc != HS_OK) {
        why_set(why, cap, se.detail, "");
        return rc;
    }
    *out = use;
    return HS_OK;
}

static double max_abs_g(const hs_plant *p, int *ok)
{
    hs_real g[HS_PLANT_MAX_NC + 1];
    double gm = 0.0;
    *ok = 0;
    if (p->d.nc <= 0 || hs_stepper_residual(&p->st, g) != HS_OK) { return 0.0; }
    for (int i = 0; i < p->d.nc; ++i) {
        double a = (double)g[i];
        a = a < 0.0 ? -a : a;
        if (!(a <= gm)) { gm = a; /* a NaN residual sticks: it must show */ }
    }
    *ok = 1;
    return gm;
}

/* Outputs the wire must never carry: NaN or Inf in engineering units or as a wire value (an
 * extreme scale can overflow), or a value outside the signal's [min, max], the bench's limits.
 * Refused rather than clamped: a clamped output would show the ECU a plausible value the plant
 * does not have, and the ECU would close its loop on it. A NaN/Inf anywhere outranks a range
 * violation elsewhere. Bounded by the output count. */
int hs_plant_check_outputs(const hs_signal *const *sig, int nout, const hs_real *y)
{
    int rc = HS_OK;
    for (int i = 0; i < nout; ++i) {
        const hs_signal *s = sig[i];
        const double e = (double)y[i];
        const double w = (e - s->offset) / s->scale;
        if (((e - e) != (e - e)) || ((w - w) != (w - w))) {
            rc = HS_PLANT_E_OUTPUT_NONFINITE;
        } else if ((rc == (int)HS_OK) && ((e < s->min) || (e > s->max))) {
            rc = HS_PLANT_E_OUTPUT_RANGE;
        } else {
            /* in range, or a range fault already noted */
        }
    }
    return rc;
}

static int check_outputs(const hs_plant *p, const hs_real *y)
{
    return hs_plant_check_outputs(p->tx.sig, p->d.nout, y);
}

const char *hs_plant_fault_str(int status)
{
    if (status == (int)HS_PLANT_E_OUTPUT_NONFINITE) {
        return "nonfinite_output: a model output is NaN or Inf (or overflows its wire value)";
    }
    if (status == (int)HS_PLANT_E_OUTPUT_RANGE) {
        return "output_range: a model output is outside its signal's [min, max]";
    }
    return hs_status_str(status);
}

hs_status hs_plant_initialize(hs_plant *p, const hs_plant_def *def, const hs_model *m,
                        hs_real *reals, size_t nreals, int *ints, size_t nints,
                        char *why, size_t cap)
{
    (void)memset(p, 0, sizeof *p);
    why_set(why, cap, "", "");
    if (def == NULL || m == NULL || m->type == NULL) { why_set(why, cap, "plant: no model", ""); return HS_E_NULL; }
    p->def = *def;
    p->model = m;
    p->d = m->d;
    if (p->d.nq > HS_PLANT_MAX_NQ || p->d.nc > HS_PLANT_MAX_NC || p->d.nz > HS_PLANT_MAX_NZ ||
        p->d.nin > HS_PLANT_MAX_SIG || p->d.nout > HS_PLANT_MAX_SIG) {
        plant_over(&p->d, m->type->name, why, cap);
        return HS_E_SIZE;
    }
    if (p->def.fault_hold < 1u) { p->def.fault_hold = 1u; }
    hs_status rc = hs_stepper_init(&p->st, &p->def.step, m, HS_R(0.0), reals, nreals, ints, nints);
    if (rc != HS_OK) {
        char mw[160];
        /* a description this build's capacities refuse says which capacity and its need */
        if (hs_mb_model_why(m, mw, sizeof mw) != 0) { why_set(why, cap, "stepper init: ", mw); }
        else { why_set(why, cap, "stepper init: ", hs_status_str(rc)); }
        return rc;
    }
    /* the one map check, shared with the offline simulator (hs_plant_signal_map) */
    rc = hs_plant_signal_map(m, def->map, &p->g, &p->map, why, cap);
    if (rc != HS_OK) { return rc; }
    if (hs_rx_init(&p->rx, p->map, HS_FRAME_KIND_TO_PLANT) != HS_OK ||
        hs_tx_init(&p->tx, p->map, HS_FRAME_KIND_FROM_PLANT, def->session) != HS_OK) {
        why_set(why, cap, "signal map: too many signals", "");
        return HS_E_SIZE;
    }
    /* Outputs before the first step are the initial state's, so the ECU starts on truth. */
    for (int i = 0; i < p->d.nin; ++i) { p->in[i] = p->rx.value[i]; }
    /* Initial outputs the wire must not carry are replaced by the fallbacks: they only go out
     * when the first step is refused, and then flagged FAULT. */
    if ((p->d.nout > 0) && ((hs_stepper_outputs(&p->st, p->in, p->y) != HS_OK) ||
                            (check_outputs(p, p->y) != (int)HS_OK))) {
        for (int i = 0; i < p->d.nout; ++i) {
            p->y[i] = (hs_real)p->tx.sig[i]->fallback;
        }
    }
    int ok;
    p->gnow = max_abs_g(p, &ok);
    p->gmax = p->gnow;
    /* MISRA Ref 7.2.1 [stdint.h constant macro, suffixed in its expansion] */
    p->hash = HS_HASH_INIT;
    p->step_min_ns = INT64_MAX;
    return HS_OK;
}

int hs_plant_receive(hs_plant *p, const uint8_t *buf, size_t len, int from_peer)
{
    return hs_rx_offer(&p->rx, buf, len, from_peer);
}

static size_t build(hs_plant *p, uint8_t *out, size_t cap, const hs_real *y, uint32_t flags)
{
    const uint64_t now = p->def.clock_ns ? (uint64_t)p->def.clock_ns() : 0u;
    size_t n = hs_tx_build(&p->tx, out, cap, y, now, p->rx.used_seq, flags);
    if (n != 0u && (flags & HS_FLAG_FINAL) != 0u) { p->final_built = 1; }
    return n;
}

size_t hs_plant_safe_outputs(hs_plant *p, uint8_t *out, size_t cap, uint32_t extra_flags)
{
    p->safe = 1;
    return build(p, out, cap, NULL, HS_FLAG_SAFE | extra_flags);
}

size_t hs_plant_step(hs_plant *p, uint64_t tick, int last, uint8_t *out, size_t cap,
                     hs_tm_row *row)
{
    hs_real ynew[HS_FRAME_MAX_VALUES];
    p->busy = 1;
    const int fresh = hs_rx_tick(&p->rx, p->in);

    /* The step: transactional, so a refusal leaves state and outputs as they were. */
    const int64_t t0 = p->def.clock_ns ? p->def.clock_ns() : 0;
    int rc;
    if (p->def.inject_fault_tick >= 0 && (int64_t)tick >= p->def.inject_fault_tick &&
        tick - (uint64_t)p->def.inject_fault_tick < p->def.inject_fault_frames && p->d.nin > 0) {
        /* Test switch: what a model fault looks like, without touching hs_rx. 0/0 at run time
         * (volatile) is a NaN without libm. */
        hs_real bad[HS_FRAME_MAX_VALUES];
        volatile hs_real zero = HS_R(0.0);
        (void)memcpy(bad, p->in, sizeof(hs_real) * (size_t)p->d.nin);
        bad[0] = zero / zero;
        rc = hs_stepper_step(&p->st, bad);
    } else {
        rc = hs_stepper_step(&p->st, p->in);
    }
    const int64_t t1 = p->def.clock_ns ? p->def.clock_ns() : 0;
    uint32_t flags = 0;
    if (rc == (int)HS_OK) {
        /* The stepper committed the step: its state is the trajectory from here on, whether
         * or not its outputs may go out. */
        int ok;
        double gm = max_abs_g(p, &ok);
        if (ok != 0) {
            p->gnow = gm;
            if (!(gm <= p->gmax)) {
                p->gmax = gm;
            }
        }
        if (p->def.hash != 0) {
            p->hash = hs_stepper_hash(&p->st, p->hash);
            p->hashed_steps++;
        }
        if ((t1 - t0) < p->step_min_ns) {
            p->step_min_ns = t1 - t0;
        }
        if ((t1 - t0) > p->step_max_ns) {
            p->step_max_ns = t1 - t0;
        }
        if (p->d.nout > 0) {
            rc = hs_stepper_outputs(&p->st, p->in, ynew);
        }
        if (rc == (int)HS_OK) {
            rc = check_outputs(p, ynew);
        }
        if (rc == (int)HS_PLANT_E_OUTPUT_NONFINITE) {
            p->out_nonfinite++;
        }
        if (rc == (int)HS_PLANT_E_OUTPUT_RANGE) {
            p->out_range++;
        }
    }
    if (rc == (int)HS_OK) {
        if (p->d.nout > 0) {
            (void)memcpy(p->y, ynew, sizeof(hs_real) * (size_t)p->d.nout);
        }
        p->fault_run = 0;
    } else {
        p->faults++;
        p->last_fault = rc;
        p->fault_run++;
        if (p->fault_run > p->fault_run_max) {
            p->fault_run_max = p->fault_run;
        }
        flags |= HS_FLAG_FAULT;
    }
    if (p->rx.stale != 0) { flags |= HS_FLAG_STALE; }
    size_t n;
    if (p->fault_run >= p->def.fault_hold) {
        /* Held as long as the policy allows: a plant that cannot step stops, and the rig
         * gets the declared safe values rather than a frozen state. */
        p->stop = HS_PLANT_STOP_FAULT;
        n = hs_plant_safe_outputs(p, out, cap, HS_FLAG_FINAL | flags);
    } else {
        n = build(p, out, cap, p->y, flags | (last ? HS_FLAG_FINAL : 0u));
    }
    p->frames++;
    p->last_tick = tick;

    if (row != NULL) {
        (void)memset(row, 0, sizeof *row);
        row->tick = tick;
        /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
        row->exec_ns = (uint32_t)(t1 - t0);
        row->t = (double)p->st.t;
        for (int i = 0; i < p->d.nq; ++i) {
            row->q[i] = (double)p->st.q[i];
            row->u[i] = (double)p->st.u[i];
        }
        for (int i = 0; i < p->d.nz; ++i) { row->z[i] = (double)p->st.z[i]; }
        for (int i = 0; i < p->d.nin; ++i) { row->in[i] = (double)p->in[i]; }
        for (int i = 0; i < p->d.nout; ++i) {
            row->out[i] = p->safe ? p->tx.sig[i]->fallback : (double)p->y[i];
        }
        row->gmax = p->gnow;
        row->err_est = (double)p->st.stats.err_est;
        row->in_seq = p->rx.used_seq;
        row->flags = (fresh ? HS_TMF_FRESH : 0u) | (p->rx.stale ? HS_TMF_STALE : 0u) |
                     (rc != (int)HS_OK ? HS_TMF_FAULT : 0u);
        row->missed = p->missed_ticks;
        row->rejected = hs_rx_rejected_total(&p->rx);
        row->faults = p->faults;
        row->tx_seq = n ? p->tx.seq : 0u;
        row->tx_flags = n ? hs_get_u32(out + 28) : 0u;
    }
    p->busy = 0;
    return n;
}

size_t hs_plant_overrun(hs_plant *p, uint64_t missed, uint8_t *out, size_t cap)
{
    p->overrun_frames++;
    p->missed_ticks += missed;
    if (p->def.overrun_stop == 0 || p->stop != 0) { return 0; }
    p->stop = HS_PLANT_STOP_OVERRUN;
    return hs_plant_safe_outputs(p, out, cap, HS_FLAG_FINAL);
}

size_t hs_plant_final(hs_plant *p, uint8_t *out, size_t cap)
{
    if (p->final_built != 0) { return 0; }
    return build(p, out, cap, p->safe ? NULL : p->y, (p->safe ? HS_FLAG_SAFE : 0u) | HS_FLAG_FINAL);
}

void hs_plant_terminate(hs_plant *p) { hs_rx_finish(&p->rx); }

int hs_plant_exit_code(const hs_plant *p, int output_lost, int budget_failed)
{
    hs_status st = HS_OK;
    if (p->stop == HS_PLANT_STOP_OVERRUN) { st = HS_E_OVERRUN; }
    else if (p->stop == HS_PLANT_STOP_FAULT || p->faults > 0u) { st = HS_E_STEP; }
    else if (output_lost != 0) { st = HS_E_WRITE; }
    else if (budget_failed != 0) { st = HS_E_BUDGET; }
    else if ((p->rx.st.rejected[HS_RX_MAC] + p->rx.st.rejected[HS_RX_OLD_RUN]) > 0u) { st = HS_E_LINK; }
    else { st = HS_OK; }
    return hs_exit_of(HS_TOOL_PLANT, st);
}

hs_status hs_plant_model_init(hs_model *m, const hs_model_type *T, void *pblock, size_t pcap,
                        char *why, size_t cap)
{
    if (T->param_size > pcap) {
        why_set(why, cap, T->name, ": parameter block larger than this plant build's");
        return HS_E_SIZE;
    }
    hs_status rc = hs_model_init(m, T, pblock);
    hs_real ext;
    /* The convention of the shipped models: `external` = 1 takes the inputs from the wire. */
    if (rc == HS_OK && hs_model_get_param(m, "external", &ext) == HS_OK) {
        rc = hs_model_set_param(m, "external", HS_R(1.0));
    }
    if (rc != HS_OK) {
        why_set(why, cap, "model init: ", hs_status_str(rc));
        return rc;
    }
    return HS_OK;
}

hs_status hs_plant_model_by_name(hs_model *m, void *pblock, size_t pcap, const char *name,
                           char *why, size_t cap)
{
    const hs_model_type *T = name ? hs_model_find(name) : NULL;
    if (T == NULL) {
        size_t k = 0;
        why_set(why, cap, "unknown model '", name ? name : "");
        k = strlen(why);
        why_set(why + k, cap - k, "'; known:", "");
        for (int i = 0; hs_model_registry[i] != NULL; ++i) {
            k = strlen(why);
            why_set(why + k, cap - k, " ", hs_model_registry[i]->name);
        }
        return HS_E_USAGE;
    }
    return hs_plant_model_init(m, T, pblock, pcap, why, cap);
}
