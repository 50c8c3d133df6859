/* hs_xcp_port.c - hilstep-rt's XCP on UDP/IP and its A2L writer (hs_xcp_port.h). */
#define _GNU_SOURCE
#include "hs_xcp_port.h"

#include "hs_linux.h"
#include "hs_mb_file.h"

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#define LIM 1e30 /* |limit| of an unbounded quantity in the A2L and in the checks */
#define TEXT_MAX 64

typedef struct slot {
    hs_mb_store st;
    hs_mb_model mb;
} slot;

typedef struct xport {
    hs_xcpp_cfg c;
    hs_xcp x;
    int fd;
    struct sockaddr_in local;
    int np;
    char pname[HS_XCPP_MAX_PARAMS][HS_MB_NAME];
    char punit[HS_XCPP_MAX_PARAMS][24];
    hs_real pval[HS_XCPP_MAX_PARAMS];  /* the param region: each param's value in use */
    hs_real lo[HS_XCPP_MAX_PARAMS], hi[HS_XCPP_MAX_PARAMS];
    char id[128];
    char evname[8];
    /* descriptions: the text, the recompile thread and its two slots */
    char *text;
    size_t len;
    slot *base;        /* the description as parsed at start (names, values) */
    slot *slots;       /* [2]: never the one in use */
    int calibrated[HS_XCPP_MAX_PARAMS]; /* 1 once a write to it was applied */
    int next;          /* slot the next recompile writes */
    pthread_t th;
    int th_started;
    sem_t go;
    int req_index;     /* the param being recompiled */
    hs_real req_value;
    int done;          /* atomic: 0 idle/working, 1 ok, -1 refused */
    int quit;
    char why[256];
    int64_t compile_ns_max; /* longest recompile (wall time, off the real-time thread) */
    int64_t apply_ns_max;   /* longest apply between two steps (wall time, in the frame) */
    uint64_t recompiles;
} xport;

static xport X;
static int g_active;

int hs_xcpp_active(void) { return g_active; }

int hs_xcpp_nparams(void) { return g_active ? X.np : -1; }

const char *hs_xcpp_param(int i, const char **unit)
{
    *unit = X.punit[i];
    return X.pname[i];
}

void hs_xcpp_values(double *v, uint64_t *applied)
{
    if (!g_active) return;
    for (int i = 0; i < X.np; ++i) v[i] = (double)X.pval[i];
    *applied = X.x.cal_writes;
}

/* ------------------------------------------------------------------ the params ---- */

/* "(unit)" at the end of s (a param's comment or doc), into u; "" when none. */
static void unit_of(const char *s, char *u, size_t cap)
{
    const char *open = NULL, *close = NULL;
    u[0] = '\0';
    for (const char *p = s; p && *p && *p != '\n'; ++p) {
        if (*p == '(') open = p;
        if (*p == ')' && open) close = p;
    }
    if (!open || !close) { /* "# m/s^2": a comment of one word is the unit */
        const char *b = s ? s + 1 : NULL;
        while (b && (*b == ' ' || *b == '\t')) ++b;
        size_t n = 0;
        while (b && b[n] && b[n] != '\n' && b[n] != ' ' && b[n] != '\t' && b[n] != '\r') ++n;
        const char *e = b ? b + n : NULL;
        while (e && (*e == ' ' || *e == '\t' || *e == '\r')) ++e;
        if (b && n > 0 && n < cap && (*e == '\0' || *e == '\n') && s[0] == '#') {
            memcpy(u, b, n);
            u[n] = '\0';
        }
        open = close = NULL;
    }
    if (!open || !close || close <= open + 1 || (size_t)(close - open) >= cap) return;
    memcpy(u, open + 1, (size_t)(close - open - 1));
    u[close - open - 1] = '\0';
    for (char *p = u; *p; ++p)
        if (*p == '"' || *p == '\\') { u[0] = '\0'; return; }
}

/* A description's calibration limits: the sign kept, within a factor 10 of the value at
 * start; [-1, 1] for 0 (the .hsm has no limits of its own: hil/XCP.md). */
static void desc_limits(double v, hs_real *lo, hs_real *hi)
{
    if (v > 0) { *lo = (hs_real)(v / 10); *hi = (hs_real)(v * 10); }
    else if (v < 0) { *lo = (hs_real)(v * 10); *hi = (hs_real)(v / 10); }
    else { *lo = (hs_real)-1; *hi = (hs_real)1; }
}

/* The comment of "param NAME" in the description's text. */
static const char *param_comment(const char *name)
{
    const size_t n = strlen(name);
    for (const char *l = X.text; l && l < X.text + X.len; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
        const char *p = l;
        while (*p == ' ' || *p == '\t') ++p;
        if (strncmp(p, "param", 5) || (p[5] != ' ' && p[5] != '\t')) continue;
        p += 5;
        while (*p == ' ' || *p == '\t') ++p;
        if (strncmp(p, name, n) || (p[n] != ' ' && p[n] != '=' && p[n] != '\t')) continue;
        const char *h = p;
        while (*h && *h != '\n' && *h != '#') ++h;
        return *h == '#' ? h : NULL;
    }
    return NULL;
}

static int read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    X.text = malloc(HS_MB_FILE_MAX + 1);
    X.len = X.text ? fread(X.text, 1, HS_MB_FILE_MAX, f) : 0;
    fclose(f);
    if (!X.text) return -1;
    X.text[X.len] = '\0';
    return 0;
}

/* The params: a description's param statements (after the start's --param), or a C model's
 * table. */
static int params_init(void)
{
    const hs_xcpp_cfg *c = &X.c;
    if (c->model_file) {
        const hs_mb_store *st = &X.base->st;
        X.np = st->nparams < HS_XCPP_MAX_PARAMS ? st->nparams : HS_XCPP_MAX_PARAMS;
        for (int i = 0; i < X.np; ++i) {
            snprintf(X.pname[i], sizeof X.pname[i], "%s", st->param_names[i]);
            X.pval[i] = (hs_real)st->param_val[i];
            desc_limits(st->param_val[i], &X.lo[i], &X.hi[i]);
            unit_of(param_comment(st->param_names[i]), X.punit[i], sizeof X.punit[i]);
        }
        return 0;
    }
    const hs_model_type *T = c->model->type;
    X.np = T->nparams < HS_XCPP_MAX_PARAMS ? T->nparams : HS_XCPP_MAX_PARAMS;
    for (int i = 0; i < X.np; ++i) {
        const hs_param_info *pi = &T->params[i];
        snprintf(X.pname[i], sizeof X.pname[i], "%s", pi->name);
        (void)hs_model_get_param(c->model, pi->name, &X.pval[i]);
        X.lo[i] = (double)pi->min < -LIM ? (hs_real)-LIM : pi->min;
        X.hi[i] = (double)pi->max > LIM ? (hs_real)LIM : pi->max;
        unit_of(pi->doc, X.punit[i], sizeof X.punit[i]);
    }
    return 0;
}

/* ------------------------------------------------------------------ calibration ---- */

/* The overrides of a recompile: the start's --param, then every calibrated value. */
static int overrides(hs_mb_overrides *o, int index, hs_real v)
{
    const char *bad = "";
    memset(o, 0, sizeof *o);
    for (int i = 0; i < X.np; ++i) {
        const hs_real val = i == index ? v : X.pval[i];
        int given = i == index || X.calibrated[i];
        for (int k = 0; k < X.c.nparams; ++k) given |= !strcmp(X.c.pname[k], X.pname[i]);
        /* the rest is computed by the description from these (derived quantities) */
        if (!given) continue;
        if (hs_mb_override_add(o, X.pname[i], (double)val, &bad)) return -1;
    }
    return 0;
}

static void *recompile_thread(void *arg)
{
    (void)arg;
    for (;;) {
        while (sem_wait(&X.go) != 0 && errno == EINTR) {
        }
        if (__atomic_load_n(&X.quit, __ATOMIC_ACQUIRE)) return NULL;
        const int64_t t0 = hs_now_ns();
        static hs_mb_overrides ovr;
        slot *s = &X.slots[X.next];
        hs_mb_error err;
        int ok = overrides(&ovr, X.req_index, X.req_value) == 0 &&
                 hs_mb_parse_compile_ovr(X.text, X.len, &s->st, &ovr, &s->mb, HS_MB_PACK_AUTO, &err) == HS_OK;
        if (!ok) snprintf(X.why, sizeof X.why, "line %d: field '%s': %s", err.line, err.field, err.msg);
        else if (s->mb.type.nq != X.c.model->type->nq || s->mb.type.nc != X.c.model->type->nc ||
                 s->mb.type.nz != X.c.model->type->nz) {
            ok = 0;
            snprintf(X.why, sizeof X.why, "the model's sizes would change");
        }
        const int64_t dt = hs_now_ns() - t0;
        if (dt > X.compile_ns_max) X.compile_ns_max = dt;
        ++X.recompiles;
        __atomic_store_n(&X.done, ok ? 1 : -1, __ATOMIC_RELEASE);
    }
}

/* After a calibration: the stepper's state set again to itself (hs_stepper_set_state), so
 * what it derived from the model at init or at the last set_state (the cached projection
 * factorization, which depends on M; the consistent start of sdirk and galpha; the energy
 * watchdog's E0) is the new model's. Bounded: one factorization and one solve of the fixed
 * pattern. 0, or -1 (the stepper unchanged). */
static int restate(void)
{
    static hs_real q[HS_PLANT_MAX_NQ], u[HS_PLANT_MAX_NQ], z[HS_PLANT_MAX_NZ];
    hs_stepper *st = &X.c.plant->st;
    memcpy(q, st->q, (size_t)st->nq * sizeof q[0]);
    memcpy(u, st->u, (size_t)st->nq * sizeof u[0]);
    if (st->nz > 0) memcpy(z, st->z, (size_t)st->nz * sizeof z[0]);
    return hs_stepper_set_state(st, st->t, q, u, z) == HS_OK ? 0 : -1;
}

/* The engine's hook: a value within the A2L's limits for param index. */
static int cal(void *ctx, uint32_t index, hs_real v)
{
    (void)ctx;
    if (X.c.model_file) {
        X.req_index = (int)index;
        X.req_value = v;
        __atomic_store_n(&X.done, 0, __ATOMIC_RELEASE);
        sem_post(&X.go);
        return HS_XCP_CAL_PENDING;
    }
    hs_model *m = X.c.model;
    const hs_dims d = m->d;
    const int64_t t0 = hs_now_ns();
    hs_real old;
    if (hs_model_get_param(m, X.pname[index], &old) != HS_OK) return HS_XCP_CAL_REFUSED;
    if (hs_model_set_param(m, X.pname[index], v) != HS_OK) return HS_XCP_CAL_REFUSED;
    if (memcmp(&d, &m->d, sizeof d) != 0 || hs_model_check(m) != HS_OK || restate() != 0) {
        (void)hs_model_set_param(m, X.pname[index], old); /* a size or a cross-check: refused */
        return HS_XCP_CAL_REFUSED;
    }
    X.pval[index] = v;
    X.calibrated[index] = 1;
    if (hs_now_ns() - t0 > X.apply_ns_max) X.apply_ns_max = hs_now_ns() - t0;
    return HS_XCP_CAL_APPLIED;
}

/* A finished recompile: the new tables in use from the next step. */
static void swap_in(void)
{
    const int r = __atomic_load_n(&X.done, __ATOMIC_ACQUIRE);
    if (!X.x.busy || r == 0) return;
    __atomic_store_n(&X.done, 0, __ATOMIC_RELAXED);
    const double t = (double)X.c.plant->st.t;
    const hs_model keep = *X.c.model;
    const int64_t t0 = hs_now_ns();
    int ok = r > 0;
    if (ok) {
        slot *s = &X.slots[X.next];
        X.c.model->type = &s->mb.type;
        X.c.model->desc = &s->mb;
        if (restate() != 0) {
            *X.c.model = keep; /* the stepper refused the new model at this state: nothing changed */
            ok = 0;
        }
    }
    if (ok) {
        slot *s = &X.slots[X.next];
        X.next ^= 1;
        X.calibrated[X.req_index] = 1;
        for (int i = 0; i < X.np && i < s->st.nparams; ++i) X.pval[i] = (hs_real)s->st.param_val[i];
    }
    if (hs_now_ns() - t0 > X.apply_ns_max) X.apply_ns_max = hs_now_ns() - t0;
    hs_xcp_cal_finish(&X.x, ok, t);
}

/* ------------------------------------------------------------------ the socket ---- */

static void send_to(void *ctx, const uint8_t *p, size_t n, uint64_t to)
{
    (void)ctx;
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl((uint32_t)(to >> 16));
    a.sin_port = htons((uint16_t)(to & 0xFFFFu));
    (void)sendto(X.fd, p, n, MSG_DONTWAIT, (const struct sockaddr *)&a, sizeof a);
}

static int rnd(void *ctx, uint8_t *p, size_t n)
{
    (void)ctx;
    size_t got = 0;
    while (got < n) {
        const ssize_t r = getrandom(p + got, n - got, 0);
        if (r < 0 && errno != EINTR) return -1;
        if (r > 0) got += (size_t)r;
    }
    return 0;
}

static void regions(void)
{
    hs_plant *p = X.c.plant;
    const uint32_t rs = (uint32_t)sizeof(hs_real);
    (void)hs_xcp_region_add(&X.x, HS_XCP_ADDR_OUT, (uint32_t)p->d.nout, rs, p->y, 0);
    (void)hs_xcp_region_add(&X.x, HS_XCP_ADDR_IN, (uint32_t)p->d.nin, rs, p->in, 0);
    (void)hs_xcp_region_add(&X.x, HS_XCP_ADDR_Q, (uint32_t)p->d.nq, rs, p->st.q, 0);
    (void)hs_xcp_region_add(&X.x, HS_XCP_ADDR_U, (uint32_t)p->d.nq, rs, p->st.u, 0);
    (void)hs_xcp_region_add(&X.x, HS_XCP_ADDR_Z, (uint32_t)p->d.nz, rs, p->st.z, 0);
    (void)hs_xcp_region_add(&X.x, HS_XCP_ADDR_T, 1u, rs, &p->st.t, 0);
    (void)hs_xcp_region_add(&X.x, HS_XCP_ADDR_PARAM, (uint32_t)X.np, rs, X.pval, 1);
    (void)hs_xcp_region_add(&X.x, HS_XCP_ADDR_ID, (uint32_t)strlen(X.id), 1u, X.id, 0);
    (void)hs_xcp_region_add(&X.x, HS_XCP_ADDR_EVNAME, (uint32_t)strlen(X.evname), 1u, X.evname, 0);
}

int hs_xcpp_open(const hs_xcpp_cfg *cfg)
{
    char why[256];
    memset(&X, 0, sizeof X);
    X.c = *cfg;
    X.fd = -1;
    if (cfg->model_file) {
        static slot slots[3];
        static hs_mb_overrides ovr;
        hs_mb_error err;
        const char *bad = "";
        for (int i = 0; i < cfg->nparams; ++i)
            if (hs_mb_override_add(&ovr, cfg->pname[i], cfg->pval[i], &bad)) return -1;
        /* slots[0]: the start's params; the run's own tables stay where hilstep-rt
         * compiled them until the first calibration, which writes slots[1], then [2], ... */
        if (read_text(cfg->model_file) ||
            hs_mb_parse_ovr(X.text, X.len, &slots[0].st, &ovr, &err) != HS_OK) {
            fprintf(stderr, "hilstep-rt: --xcp: %s: cannot read the description again\n", cfg->model_file);
            return -1;
        }
        X.base = &slots[0];
        X.slots = &slots[1];
        X.next = 0;
    }
    (void)params_init();
    snprintf(X.id, sizeof X.id, "hilstep_%s", cfg->model->type->name);
    snprintf(X.evname, sizeof X.evname, "frame");
    hs_xcp_def d;
    memset(&d, 0, sizeof d);
    d.send = send_to;
    d.cal = cal;
    d.random = rnd;
    d.mac = cfg->plant->rx.mac;
    d.lo = X.lo;
    d.hi = X.hi;
    d.period_us = (uint32_t)(cfg->period_ns / 1000);
    d.id = X.id;
    hs_xcp_init(&X.x, &d);
    regions();
    if (!cfg->addr) return 0;
    if (hs_addr_parse(cfg->addr, &X.local, why, sizeof why)) {
        fprintf(stderr, "hilstep-rt: --xcp %s: %s\n", cfg->addr, why);
        return -1;
    }
    X.fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (X.fd < 0 || bind(X.fd, (const struct sockaddr *)&X.local, sizeof X.local) != 0) {
        fprintf(stderr, "hilstep-rt: --xcp %s: %s\n", cfg->addr, strerror(errno));
        if (X.fd >= 0) close(X.fd);
        X.fd = -1;
        return -1;
    }
    if (cfg->model_file) {
        sem_init(&X.go, 0, 0);
        if (pthread_create(&X.th, NULL, recompile_thread, NULL) != 0) {
            fprintf(stderr, "hilstep-rt: --xcp: cannot start the recompile thread\n");
            close(X.fd);
            return -1;
        }
        X.th_started = 1;
    }
    g_active = 1;
    printf("hilstep-rt: xcp: slave on UDP %s, %d params calibratable, %s\n", cfg->addr, X.np,
           d.mac ? "CAL and DAQ locked until SEED & KEY (HMAC-SHA-256 of the seed under the link key)"
                 : "unauthenticated (the link has no key)");
    return 0;
}

void hs_xcpp_frame(uint64_t tick)
{
    if (!g_active) return;
    const double t = (double)X.c.plant->st.t;
    hs_xcp_event(&X.x, tick, t);
    swap_in();
    uint8_t buf[2048];
    for (int i = 0; i < HS_XCPP_RX_PER_FRAME; ++i) {
        struct sockaddr_in from;
        socklen_t fl = sizeof from;
        const ssize_t n = recvfrom(X.fd, buf, sizeof buf, MSG_DONTWAIT, (struct sockaddr *)&from, &fl);
        if (n < 0) break;
        const uint64_t who = ((uint64_t)ntohl(from.sin_addr.s_addr) << 16) | ntohs(from.sin_port);
        hs_xcp_rx(&X.x, buf, (size_t)n, who, t);
    }
}

void hs_xcpp_close(void)
{
    if (X.th_started) {
        __atomic_store_n(&X.quit, 1, __ATOMIC_RELEASE);
        sem_post(&X.go);
        pthread_join(X.th, NULL);
        X.th_started = 0;
    }
    if (X.fd >= 0) close(X.fd);
    X.fd = -1;
    free(X.text); /* the description's text, read again at open (after the recompile thread's end) */
    X.text = NULL;
    X.len = 0;
}

void hs_xcpp_report(FILE *f, int pretty)
{
    if (!g_active) return;
    const hs_xcp *x = &X.x;
    const struct { const char *k; uint64_t v; } kv[] = {
        {"xcp_commands", x->commands}, {"xcp_responses", x->responses}, {"xcp_errors", x->errors},
        {"xcp_unknown", x->unknown}, {"xcp_syntax", x->syntax}, {"xcp_foreign", x->foreign},
        {"xcp_refused_connects", x->refused_connects}, {"xcp_idle", x->idle},
        {"xcp_bad_header", x->bad_header}, {"xcp_dtos", x->dtos}, {"xcp_daq_frames", x->daq_frames},
        {"xcp_cal_writes", x->cal_writes}, {"xcp_cal_refused", x->cal_refused},
        {"xcp_cal_out_of_limits", x->cal_out_of_limits}, {"xcp_unlocks", x->unlocks},
        {"xcp_unlock_failed", x->unlock_failed}, {"xcp_cal_log_lost", x->log_lost},
        {"xcp_recompiles", X.recompiles}};
    if (pretty) {
        fprintf(f, "  xcp: %llu commands, %llu errors, %llu DTOs in %llu frames; calibration %llu "
                "applied, %llu refused (%llu outside the A2L's limits); %llu packets of another "
                "master ignored, %llu CONNECTs refused\n",
                (unsigned long long)x->commands, (unsigned long long)x->errors,
                (unsigned long long)x->dtos, (unsigned long long)x->daq_frames,
                (unsigned long long)x->cal_writes, (unsigned long long)x->cal_refused,
                (unsigned long long)x->cal_out_of_limits, (unsigned long long)x->foreign,
                (unsigned long long)x->refused_connects);
    } else {
        for (size_t i = 0; i < sizeof kv / sizeof kv[0]; ++i)
            fprintf(f, "%s=%llu\n", kv[i].k, (unsigned long long)kv[i].v);
        fprintf(f, "xcp_recompile_max_us=%.17g\n", (double)X.compile_ns_max / 1e3);
        fprintf(f, "xcp_apply_max_us=%.17g\n", (double)X.apply_ns_max / 1e3);
    }
    for (uint32_t i = x->log_tail, n = 1; i != x->log_head; ++i, ++n) {
        const hs_xcp_cal_rec *r = &x->log[i % HS_XCP_LOG];
        const char *nm = X.pname[r->index];
        if (pretty)
            fprintf(f, "  xcp calibration %u: t %.6f s  %s %.17g -> %.17g  %s\n", n, r->t, nm,
                    r->old_value, r->new_value, r->applied ? "applied" : "REFUSED");
        else
            fprintf(f, "xcp_cal_%u_t=%.17g\nxcp_cal_%u_old_%s=%.17g\nxcp_cal_%u_new_%s=%.17g\n"
                    "xcp_cal_%u_applied=%d\n", n, r->t, n, nm, r->old_value, n, nm, r->new_value,
                    n, r->applied);
    }
}

/* ------------------------------------------------------------------- the A2L ---- */

/* An ASAM identifier from s: letters, digits, '_' and '.'; anything else becomes '_'. */
static const char *ident(const char *s, char *buf, size_t cap)
{
    size_t i = 0;
    for (; s[i] && i + 1 < cap; ++i) {
        const char ch = s[i];
        buf[i] = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                 ch == '_' || ch == '.' ? ch : '_';
    }
    buf[i] = '\0';
    if (buf[0] >= '0' && buf[0] <= '9') buf[0] = '_';
    return buf;
}

static const char *cm_name(const char *unit, char *buf, size_t cap)
{
    char id[48];
    snprintf(buf, cap, "CM_%s", unit[0] ? ident(unit, id, sizeof id) : "none");
    for (char *p = buf; *p; ++p)
        if (*p == '.') *p = '_';
    return buf;
}

/* The units used, one COMPU_METHOD each (IDENTICAL: the values are in engineering units). */
static void a2l_compu(FILE *f, const char *const *units, int n)
{
    for (int i = 0; i < n; ++i) {
        int seen = 0;
        for (int j = 0; j < i; ++j) {
            char a[64], b[64];
            seen |= !strcmp(cm_name(units[i], a, sizeof a), cm_name(units[j], b, sizeof b));
        }
        if (seen) continue;
        char cm[64];
        fprintf(f, "    /begin COMPU_METHOD %s \"engineering units\" IDENTICAL \"%%.15g\" \"%s\"\n"
                "    /end COMPU_METHOD\n", cm_name(units[i], cm, sizeof cm), units[i]);
    }
}

static void a2l_meas(FILE *f, const char *name, const char *what, const char *unit, double lo,
                     double hi, uint32_t addr, const char *type)
{
    char id[96], cm[64];
    fprintf(f, "    /begin MEASUREMENT %s \"%s\" %s %s 0 0 %.17g %.17g\n"
            "      ECU_ADDRESS 0x%08X\n      PHYS_UNIT \"%s\"\n    /end MEASUREMENT\n",
            ident(name, id, sizeof id), what, type, cm_name(unit, cm, sizeof cm), lo, hi, addr, unit);
}

/* The names of the states: body.coordinate for a description, q0.. for a C model. */
static void state_name(int i, char *buf, size_t cap)
{
    static const char *const coord[4][7] = {{"x", "y", "theta"}, {"x", "y", "z", "p0", "p1", "p2", "p3"},
                                            {"x", "y"}, {"x", "y", "z"}};
    const hs_mb_model *mb = X.c.model_file ? (const hs_mb_model *)X.c.model->desc : NULL;
    if (mb) {
        for (int b = 0; b < mb->nb; ++b)
            if (i >= mb->qoff[b] && i < mb->qoff[b + 1]) {
                const hs_mb_body *bd = &mb->desc->bodies[b];
                snprintf(buf, cap, "%s.%s", bd->name, coord[bd->kind][i - mb->qoff[b]]);
                return;
            }
    }
    snprintf(buf, cap, "%d", i);
}

static void a2l_if_data(FILE *f, const char *addr)
{
    char host[32] = "127.0.0.1";
    unsigned port = 5555;
    const char *colon = strrchr(addr, ':');
    if (colon && (size_t)(colon - addr) < sizeof host) {
        memcpy(host, addr, (size_t)(colon - addr));
        host[colon - addr] = '\0';
        port = (unsigned)strtoul(colon + 1, NULL, 10);
    }
    const unsigned us = (unsigned)(X.c.period_ns / 1000);
    fprintf(f,
            "    /begin IF_DATA XCP\n"
            "      /begin PROTOCOL_LAYER 0x0105 2000 2000 0 0 0 0 0 %u %u BYTE_ORDER_MSB_LAST\n"
            "        ADDRESS_GRANULARITY_BYTE\n"
            "        OPTIONAL_CMD GET_COMM_MODE_INFO\n        OPTIONAL_CMD GET_ID\n"
            "        OPTIONAL_CMD GET_SEED\n        OPTIONAL_CMD UNLOCK\n"
            "        OPTIONAL_CMD SHORT_UPLOAD\n        OPTIONAL_CMD GET_DAQ_PROCESSOR_INFO\n"
            "        OPTIONAL_CMD GET_DAQ_RESOLUTION_INFO\n        OPTIONAL_CMD GET_DAQ_EVENT_INFO\n"
            "        OPTIONAL_CMD GET_DAQ_CLOCK\n        OPTIONAL_CMD FREE_DAQ\n"
            "        OPTIONAL_CMD ALLOC_DAQ\n        OPTIONAL_CMD ALLOC_ODT\n"
            "        OPTIONAL_CMD ALLOC_ODT_ENTRY\n"
            "      /end PROTOCOL_LAYER\n"
            "      /begin DAQ DYNAMIC %u 1 0 OPTIMISATION_TYPE_DEFAULT ADDRESS_EXTENSION_FREE\n"
            "        IDENTIFICATION_FIELD_TYPE_ABSOLUTE GRANULARITY_ODT_ENTRY_SIZE_DAQ_BYTE %u\n"
            "        NO_OVERLOAD_INDICATION\n"
            "        /begin TIMESTAMP_SUPPORTED 0x1 SIZE_DWORD UNIT_1US TIMESTAMP_FIXED\n"
            "        /end TIMESTAMP_SUPPORTED\n"
            "        /begin EVENT \"frame\" \"frame\" 0x0 DAQ 0xFF %u %u 0x0\n"
            "        /end EVENT\n"
            "      /end DAQ\n"
            "      /begin XCP_ON_UDP_IP 0x0104 %u ADDRESS \"%s\"\n"
            "      /end XCP_ON_UDP_IP\n"
            "    /end IF_DATA\n",
            HS_XCP_MAX_CTO, HS_XCP_MAX_DTO, HS_XCP_MAX_DAQ, HS_XCP_MAX_ENTRY_SIZE,
            us % 1000u == 0u ? us / 1000u : us, us % 1000u == 0u ? 6u : 3u, port, host);
}

static void a2l_body(FILE *f)
{
    const hs_plant *p = X.c.plant;
    const char *rtype = sizeof(hs_real) == 8 ? "FLOAT64_IEEE" : "FLOAT32_IEEE";
    const uint32_t rs = (uint32_t)sizeof(hs_real);
    const char *units[2 * HS_PLANT_MAX_SIG + HS_XCPP_MAX_PARAMS + 4];
    int nu = 0;
    for (int i = 0; i < p->d.nout; ++i) units[nu++] = p->tx.sig[i]->unit;
    for (int i = 0; i < p->d.nin; ++i) units[nu++] = p->rx.sig[i]->unit;
    for (int i = 0; i < X.np; ++i) units[nu++] = X.punit[i];
    units[nu++] = "s";
    units[nu++] = "";
    a2l_compu(f, units, nu);
    fprintf(f, "    /begin RECORD_LAYOUT RL_VALUE FNC_VALUES 1 %s COLUMN_DIR DIRECT\n"
            "    /end RECORD_LAYOUT\n", rtype);
    char nm[96];
    for (int i = 0; i < p->d.nout; ++i) {
        const hs_signal *s = p->tx.sig[i];
        snprintf(nm, sizeof nm, "out.%s", s->name);
        a2l_meas(f, nm, "output", s->unit, s->min, s->max, HS_XCP_ADDR_OUT + (uint32_t)i * rs, rtype);
    }
    for (int i = 0; i < p->d.nin; ++i) {
        const hs_signal *s = p->rx.sig[i];
        snprintf(nm, sizeof nm, "in.%s", s->name);
        a2l_meas(f, nm, "input", s->unit, s->min, s->max, HS_XCP_ADDR_IN + (uint32_t)i * rs, rtype);
    }
    for (int i = 0; i < p->d.nq; ++i) {
        char sn[64], full[96];
        state_name(i, sn, sizeof sn);
        snprintf(full, sizeof full, "q.%s", sn);
        a2l_meas(f, full, "position coordinate", "", -LIM, LIM, HS_XCP_ADDR_Q + (uint32_t)i * rs, rtype);
        snprintf(full, sizeof full, "u.%s", sn);
        a2l_meas(f, full, "velocity coordinate", "", -LIM, LIM, HS_XCP_ADDR_U + (uint32_t)i * rs, rtype);
    }
    for (int i = 0; i < p->d.nz; ++i) {
        snprintf(nm, sizeof nm, "z.%d", i);
        a2l_meas(f, nm, "auxiliary state", "", -LIM, LIM, HS_XCP_ADDR_Z + (uint32_t)i * rs, rtype);
    }
    a2l_meas(f, "t", "simulated time of the committed state", "s", 0, LIM, HS_XCP_ADDR_T, rtype);
    for (int i = 0; i < X.np; ++i) {
        char id[64], cm[64];
        fprintf(f, "    /begin CHARACTERISTIC %s \"param\" VALUE 0x%08X RL_VALUE 0 %s %.17g %.17g\n"
                "      PHYS_UNIT \"%s\"\n    /end CHARACTERISTIC\n", ident(X.pname[i], id, sizeof id),
                HS_XCP_ADDR_PARAM + (uint32_t)i * rs, cm_name(X.punit[i], cm, sizeof cm),
                (double)X.lo[i], (double)X.hi[i], X.punit[i]);
    }
}

int hs_xcpp_write_a2l(const char *path, const char *model_name)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "hilstep-rt: --a2l %s: %s\n", path, strerror(errno));
        return -1;
    }
    char id[64];
    fprintf(f, "/* written by hilstep-rt --a2l: the XCP slave of this build (hil/XCP.md) */\n"
            "ASAP2_VERSION 1 71\n"
            "/begin PROJECT hilstep \"hilstep plant\"\n"
            "  /begin MODULE %s \"%s\"\n"
            "    /begin MOD_COMMON \"\" BYTE_ORDER MSB_LAST ALIGNMENT_BYTE 1 ALIGNMENT_WORD 1\n"
            "      ALIGNMENT_LONG 1 ALIGNMENT_FLOAT32_IEEE 1 ALIGNMENT_FLOAT64_IEEE 1\n"
            "    /end MOD_COMMON\n"
            "    /begin MOD_PAR \"\"\n      ADDR_EPK 0x%08X\n      EPK \"%s\"\n"
            "      ECU \"hilstep-rt\"\n      CPU_TYPE \"%s\"\n    /end MOD_PAR\n",
            ident(model_name, id, sizeof id), model_name, HS_XCP_ADDR_ID, X.id,
            sizeof(hs_real) == 8 ? "host, double" : "host, float");
    a2l_if_data(f, X.c.addr ? X.c.addr : HS_XCPP_DEFAULT);
    a2l_body(f);
    fprintf(f, "  /end MODULE\n/end PROJECT\n");
    if (ferror(f) | fclose(f)) {
        fprintf(stderr, "hilstep-rt: --a2l %s: write error\n", path);
        return -1;
    }
    return 0;
}
