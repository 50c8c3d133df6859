/* hs_mb_parse.c - the .hsm description parser (reference: model/FORMAT.md).
 * One statement per line: a keyword, positional words, then key=value fields; '#' starts a
 * comment; vectors are comma-separated; every number may be an expression of params (+ - * /,
 * unary minus, parentheses). Freestanding: its own number reader (correctly rounded for up to
 * 19 significant digits and |exponent| <= 22, which covers hand-written values), no
 * allocation, every count checked against HS_MB_MAX_*. Force keys and kinds come from the
 * element table (hs_mb_elem.c). */
#include "hs_mb_int.h"
#include "hs_mb_parse.h"

#define MAXTOK 24
#define MAXDEPTH 32 /* parentheses and unary signs nested in one expression */

typedef struct tok { const char *s; int n; } tok;

static int tok_eq(tok t, const char *w)
{
    int i = 0;
    /* MISRA Ref 10.4.9 [signed/unsigned operands, values checked in range] */
    for (; i < t.n; ++i) { if (w[i] != t.s[i]) { return 0; } }
    return w[i] == '\0';
}

/* The output kind a coordinate word names: pos, vel, else acc (the caller checked it is one). */
static hs_mb_output_kind out_kind(tok t)
{
    if (tok_eq(t, "pos") != 0) { return HS_MB_OUT_POS; }
    if (tok_eq(t, "vel") != 0) { return HS_MB_OUT_VEL; }
    return HS_MB_OUT_ACC;
}

static void set_str(char *dst, int cap, tok t)
{
    const int n = t.n < cap - 1 ? t.n : cap - 1;
    for (int i = 0; i < n; ++i) { dst[i] = t.s[i]; }
    dst[n] = 0;
}

static hs_status fail(hs_mb_error *err, int line, tok field, const char *msg, hs_status rc)
{
    err->status = rc;
    err->line = line;
    set_str(err->field, (int)sizeof err->field, field);
    err->msg = msg;
    return rc;
}

/* A statement over its table's capacity: recorded in st (the text is written once the rest of
 * the buffer has been counted: cap_text). */
static hs_status fail_cap(hs_mb_store *st, hs_mb_error *err, int line, tok field, const char *what, const char *limit,
                          int cap)
{
    st->cap_what = what;
    st->cap_name = limit;
    st->cap = cap;
    return fail(err, line, field, what, HS_E_SIZE);
}

/* 1 when the line [i, e) of buf starts with the word kw. */
static int line_is(const char *buf, size_t i, size_t e, const char *kw)
{
    size_t k = i;
    while ((k < e) && ((buf[k] == ' ') || (buf[k] == '\t'))) { ++k; }
    int n = 0;
    while ((kw[n] != '\0') && (k < e) && (buf[k] == kw[n])) { ++k; ++n; }
    return (kw[n] == '\0') && (n > 0) && ((k == e) || (buf[k] == ' ') || (buf[k] == '\t') || (buf[k] == '\r'));
}

/* The capacity refusal's text: the statements of its keyword from the refused one to the end of
 * the buffer (from offset i on), on top of the capacity, are the description's need. */
static void cap_text(const hs_mb_store *st, const char *buf, size_t len, size_t i, hs_mb_error *err)
{
    int need = st->cap;
    size_t a = i;
    while (a < len) {
        size_t e = a;
        while ((e < len) && (buf[e] != '\n')) { ++e; }
        if (line_is(buf, a, e, err->field) != 0) { ++need; }
        a = e + 1u;
    }
    hs_mb_limit_msg(err, st->cap_what, need, 0, st->cap_name, st->cap, st->cap_name);
}

static tok lit(const char *s)
{
    tok t;
    t.s = s; t.n = 0;
    while (s[t.n] != '\0') { ++t.n; }
    return t;
}

/* Appends s to err->detail (cut at its capacity). */
static void detail_add(hs_mb_error *err, const char *s)
{
    int n = 0;
    /* MISRA Ref 10.4.2 [character code vs character constant] */
    while (n < (int)sizeof err->detail - 1 && err->detail[n] != '\0') { ++n; }
    for (int i = 0; s[i] != '\0' && n < (int)sizeof err->detail - 1; ++i) { err->detail[n] = s[i]; ++n; }
    err->detail[n] = 0;
}

/* A refused value: the reason the expression reader left in st, else msg. */
static hs_status fail_val(const hs_mb_store *st, hs_mb_error *err, int line, tok field, const char *msg)
{
    if (st->ewhy != NULL) {
        /* MISRA Ref 10.4.2 [character code vs character constant] */
        if (st->ename[0] != '\0') { detail_add(err, "parameter '"); detail_add(err, st->ename); detail_add(err, "'"); }
        return fail(err, line, field, st->ewhy, HS_E_MODEL_PARAM);
    }
    return fail(err, line, field, msg, HS_E_MODEL_PARAM);
}

/* Decimal number of exactly the token [s, s+n), in double. */
static int read_num_d(const char *s, int n, double *out)
{
    static const double p10[23] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                                   1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    int i = 0, neg = 0, digits = 0, ex = 0, sig = 0;
    uint64_t m = 0;
    if (i < n && (s[i] == '+' || s[i] == '-')) { neg = (int)(s[i++] == '-'); }
    for (; i < n && s[i] >= '0' && s[i] <= '9'; ++i, ++digits) {
        /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
        if (sig < 19) { m = m * 10u + (uint64_t)(s[i] - '0'); if (m != 0u) { ++sig; } } else { ++ex; }
    }
    if (i < n && s[i] == '.') {
        ++i;
        for (; i < n && s[i] >= '0' && s[i] <= '9'; ++i, ++digits) {
            /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
            if (sig < 19) { m = m * 10u + (uint64_t)(s[i] - '0'); if (m != 0u) { ++sig; } --ex; }
        }
    }
    if (digits == 0) { return 0; }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        int eneg = 0, e = 0, ed = 0;
        if (i < n && (s[i] == '+' || s[i] == '-')) { eneg = (int)(s[i++] == '-'); }
        for (; i < n && s[i] >= '0' && s[i] <= '9'; ++i, ++ed) { if (e < 10000) { e = e * 10 + (s[i] - '0'); } }
        if (ed == 0) { return 0; }
        ex += eneg ? -e : e;
    }
    if (i != n) { return 0; }
    double v = (double)m;
    if (m == 0u) { v = 0.0; }
    else if (ex >= -22 && ex <= 22 && m < (1ULL << 53)) { v = ex >= 0 ? v * p10[ex] : v / p10[-ex]; }
    else {
        if (ex > 330 || ex < -360) { return 0; }
        while (ex > 22) { v *= 1e22; ex -= 22; }
        while (ex < -22) { v /= 1e22; ex += 22; }
        v = ex >= 0 ? v * p10[ex] : v / p10[-ex];
    }
    if (neg != 0) { v = -v; }
    if (!((v - v) == (v - v))) { return 0; /* overflow to inf */ }
    *out = v;
    return 1;
}

/* ---- expressions: recursive descent over one token, depth-limited ---- */

typedef struct ex {
    hs_mb_store *st;
    const char *s;
    int n, i, depth;
} ex;

static int is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static int is_digit(char c) { return c >= '0' && c <= '9'; }

static int ex_fail(ex *x, const char *why)
{
    if (x->st->ewhy == NULL) { x->st->ewhy = why; }
    return 0;
}

static int ex_sum(ex *x, double *v);

/* Blanks inside a param statement's expression separate tokens only. */
static void ex_blank(ex *x)
{
    /* MISRA Ref 10.4.2 [character code vs character constant] */
    while (x->i < x->n && x->s[x->i] == ' ') { ++x->i; }
}

static int ex_primary(ex *x, double *v)
{
    ex_blank(x);
    if (x->i >= x->n) { return ex_fail(x, "expression ends early"); }
    const char c = x->s[x->i];
    if (c == '(') {
        if (++x->depth > MAXDEPTH) { return ex_fail(x, "expression nested too deeply"); }
        ++x->i;
        if (ex_sum(x, v) == 0) { return 0; }
        ex_blank(x);
        /* MISRA Ref 10.4.2 [character code vs character constant] */
        if (x->i >= x->n || x->s[x->i] != ')') { return ex_fail(x, "missing ')'"); }
        ++x->i;
        --x->depth;
        ex_blank(x);
        return 1;
    }
    if (is_digit(c) != 0 || c == '.') {
        const int a = x->i;
        /* MISRA Ref 10.4.2 [character code vs character constant] */
        while (x->i < x->n && (is_digit(x->s[x->i]) != 0 || x->s[x->i] == '.')) { ++x->i; }
        /* MISRA Ref 10.4.2 [character code vs character constant] */
        if (x->i < x->n && (x->s[x->i] == 'e' || x->s[x->i] == 'E')) {
            ++x->i;
            /* MISRA Ref 10.4.2 [character code vs character constant] */
            if (x->i < x->n && (x->s[x->i] == '+' || x->s[x->i] == '-')) { ++x->i; }
            while (x->i < x->n && is_digit(x->s[x->i]) != 0) { ++x->i; }
        }
        if (read_num_d(&x->s[a], x->i - a, v) == 0) { return ex_fail(x, "bad number"); }
        ex_blank(x);
        return 1;
    }
    if (is_alpha(c) != 0) {
        const int a = x->i;
        while (x->i < x->n && (is_alpha(x->s[x->i]) != 0 || is_digit(x->s[x->i]) != 0)) { ++x->i; }
        tok nm = {&x->s[a], x->i - a};
        for (int k = 0; k < x->st->nparams; ++k) {
            const char *pn = x->st->param_names[k];
            int j = 0;
            /* MISRA Ref 10.4.9 [signed/unsigned operands, values checked in range] */
            while (j < nm.n && pn[j] == nm.s[j]) { ++j; }
            if (j == nm.n && pn[j] == '\0') { *v = x->st->param_val[k]; ex_blank(x); return 1; }
        }
        if (x->st->ewhy == NULL) { set_str(x->st->ename, HS_MB_NAME, nm); }
        return ex_fail(x, "unknown parameter (declare it above with param NAME = VALUE)");
    }
    return ex_fail(x, "bad number or expression");
}

static int ex_unary(ex *x, double *v)
{
    ex_blank(x);
    /* MISRA Ref 10.4.2 [character code vs character constant] */
    if (x->i < x->n && (x->s[x->i] == '-' || x->s[x->i] == '+')) {
        /* MISRA Ref 10.4.2 [the sign character read from the expression vs '-'] */
        const int neg = (int)(x->s[x->i] == '-');
        if (++x->depth > MAXDEPTH) { return ex_fail(x, "expression nested too deeply"); }
        ++x->i;
        if (ex_unary(x, v) == 0) { return 0; }
        --x->depth;
        if (neg != 0) { *v = -*v; }
        return 1;
    }
    /* MISRA Ref 17.2.1 [host-only expression reader: recursion bounded by MAXDEPTH] */
    return ex_primary(x, v);
}

static int ex_product(ex *x, double *v)
{
    if (ex_unary(x, v) == 0) { return 0; }
    /* MISRA Ref 10.4.2 [character code vs character constant] */
    while (x->i < x->n && (x->s[x->i] == '*' || x->s[x->i] == '/')) {
        const char op = x->s[x->i];
        double r;
        ++x->i;
        if (ex_unary(x, &r) == 0) { return 0; }
        if (op == '*') { *v = *v * r; }
        else {
            if (r == 0.0) { return ex_fail(x, "division by zero"); }
            *v = *v / r;
        }
    }
    return 1;
}

static int ex_sum(ex *x, double *v)
{
    if (ex_product(x, v) == 0) { return 0; }
    /* MISRA Ref 10.4.2 [character code vs character constant] */
    while (x->i < x->n && (x->s[x->i] == '+' || x->s[x->i] == '-')) {
        const char op = x->s[x->i];
        double r;
        ++x->i;
        if (ex_product(x, &r) == 0) { return 0; }
        *v = op == '+' ? *v + r : *v - r;
    }
    return 1;
}

/* The value of the expression [s, s+n) in double (the generator's precision, so a float
 * build reads the same rounding of the same value): 1, or 0 with st->ewhy set. */
static int eval_d(hs_mb_store *st, const char *s, int n, double *out)
{
    ex x;
    x.st = st; x.s = s; x.n = n; x.i = 0; x.depth = 0;
    if (n == 0) { return ex_fail(&x, "empty value"); }
    double v = 0.0;
    if (ex_sum(&x, &v) == 0) { return 0; }
    if (x.i != n) { return ex_fail(&x, "unexpected character in expression"); }
    if (!((v - v) == (v - v))) { return ex_fail(&x, "value not finite"); }
    *out = v;
    return 1;
}

static int eval(hs_mb_store *st, const char *s, int n, hs_real *out)
{
    double v = 0.0;
    if (eval_d(st, s, n, &v) == 0) { return 0; }
    *out = (hs_real)v;
    if (hs_isfinite(*out) == 0) { if (st->ewhy == NULL) { st->ewhy = "value not finite"; } return 0; }
    return 1;
}

/* Comma-separated vector of 1..max expressions; returns the count, 0 on a bad value. */
static int read_vec(hs_mb_store *st, tok t, hs_real *out, int max)
{
    int k = 0, a = 0;
    for (int i = 0; i <= t.n; ++i) {
        /* MISRA Ref 10.4.2 [character code vs character constant] */
        if (i == t.n || t.s[i] == ',') {
            if (k >= max) { if (st->ewhy == NULL) { st->ewhy = "too many values"; } return 0; }
            if (eval(st, &t.s[a], i - a, &out[k]) == 0) { return 0; }
            ++k;
            a = i + 1;
        }
    }
    return k;
}

/* One expression that must be a whole number in [lo, hi]. */
static int read_int(hs_mb_store *st, tok t, int lo, int hi, int *out)
{
    hs_real v;
    if (read_vec(st, t, &v, 1) != 1) { return 0; }
    if (!(v >= (hs_real)lo && v <= (hs_real)hi && v == (hs_real)(int)v)) {
        if (st->ewhy == NULL) { st->ewhy = "not a whole number in range"; }
        return 0;
    }
    *out = (int)v;
    return 1;
}

static int copy_name(char *dst, tok t)
{
    if (t.n < 1 || t.n >= HS_MB_NAME) { return 0; }
    for (int i = 0; i < t.n; ++i) {
        const char c = t.s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-')) {
            return 0;
        }
        dst[i] = c;
    }
    dst[t.n] = 0;
    return 1;
}

static int name_is(const char *name, tok t)
{
    int i = 0;
    /* MISRA Ref 10.4.9 [signed/unsigned operands, values checked in range] */
    for (; i < t.n; ++i) { if (name[i] != t.s[i]) { return 0; } }
    return name[i] == '\0';
}

static int find_body(const hs_mb_store *st, tok t)
{
    for (int b = 0; b < st->desc.nbodies; ++b) { if (name_is(st->bodies[b].name, t) != 0) { return b; } }
    return -2;
}

static int find_point(const hs_mb_store *st, tok t)
{
    for (int k = 0; k < st->npoints; ++k) { if (name_is(st->point_names[k], t) != 0) { return k; } }
    return -1;
}

static int find_joint(const hs_mb_store *st, tok t)
{
    for (int j = 0; j < st->desc.njoints; ++j) { if (name_is(st->joints[j].name, t) != 0) { return j; } }
    return -1;
}

static int find_force(const hs_mb_store *st, tok t)
{
    for (int e = 0; e < st->desc.nforces; ++e) { if (name_is(st->forces[e].name, t) != 0) { return e; } }
    return -1;
}

static int find_input(const hs_mb_store *st, tok t)
{
    for (int i = 0; i < st->ninputs; ++i) { if (name_is(st->in_sig[i].name, t) != 0) { return i; } }
    return -1;
}

static int find_output_sig(const hs_mb_store *st, tok t)
{
    for (int o = 0; o < st->desc.noutputs; ++o) {
        if (st->outputs[o].sig != NULL && name_is(st->out_sig[o].name, t) != 0) { return o; }
    }
    return -1;
}

/* A point reference: BODY, BODY@x,y[,z], ground, ground@x,y[,z], or a named ground point. */
static int read_point(hs_mb_store *st, tok t, hs_mb_point *p)
{
    static const hs_mb_point zero = {0};
    *p = zero;
    int at = 0;
    /* MISRA Ref 10.4.2 [character code vs character constant] */
    while (at < t.n && t.s[at] != '@') { ++at; }
    tok nm = {t.s, at};
    if (tok_eq(nm, "ground") != 0) {
        p->body = HS_MB_GROUND;
    } else {
        int b = find_body(st, nm);
        if (b < 0) {
            const int k = find_point(st, nm);
            if (k < 0 || at < t.n) { return 0; }
            *p = st->points[k];
            return 1;
        }
        p->body = b;
    }
    if (at < t.n) {
        tok v = {&t.s[at + 1], t.n - at - 1};
        if (read_vec(st, v, p->s, 3) < 2) { return 0; }
    }
    return 1;
}

/* f(t) = a + b t + c sin(w t + phi) from "a,b,c,w,phi" (missing trailing values are 0). */
static int read_fn(hs_mb_store *st, tok t, hs_mb_fn *f)
{
    hs_real v[5] = {0, 0, 0, 0, 0};
    if (read_vec(st, t, v, 5) < 1) { return 0; }
    f->a = v[0]; f->b = v[1]; f->c = v[2]; f->w = v[3]; f->phi = v[4];
    return 1;
}

/* A unit: printable, no ',' '#' '=' or blanks, shorter than HS_MB_UNIT. */
static int copy_unit(char *dst, tok t)
{
    if (t.n < 1 || t.n >= HS_MB_UNIT) { return 0; }
    for (int i = 0; i < t.n; ++i) {
        /* MISRA Ref 10.4.2 [character code vs character constant] */
        if (t.s[i] == ',' || t.s[i] == '=' || t.s[i] == '"') { return 0; }
        dst[i] = t.s[i];
    }
    dst[t.n] = 0;
    return 1;
}

/* Names of a body, a point, ground: one namespace (point references look in all three). */
static int body_or_point_taken(const hs_mb_store *st, tok t)
{
    return find_body(st, t) >= 0 || find_point(st, t) >= 0 || tok_eq(t, "ground");
}

/* The signal keys of input and named output lines: unit, min, max, fallback, stale. */
static int signal_key(hs_mb_store *st, tok K, tok V, hs_mb_signal *S, int is_in, int *ok)
{
    if (tok_eq(K, "unit") != 0) { *ok = copy_unit(S->unit, V); if (*ok == 0 && st->ewhy == NULL) { st->ewhy = "1 to 15 characters, no ',' '=' '\"'"; } }
    else if (tok_eq(K, "min") != 0) { *ok = read_vec(st, V, &S->min, 1) == 1; }
    else if (tok_eq(K, "max") != 0) { *ok = read_vec(st, V, &S->max, 1) == 1; }
    else if (tok_eq(K, "fallback") != 0) { *ok = read_vec(st, V, &S->fallback, 1) == 1; }
    else if (is_in != 0 && tok_eq(K, "stale") != 0) { *ok = read_int(st, V, 1, 1000000, &S->stale); }
    else { return 0; }
    return 1;
}

static hs_status signal_range(const hs_mb_signal *S, int line, hs_mb_error *err)
{
    if (!(S->min <= S->max)) { return fail(err, line, lit("max"), "max must be >= min", HS_E_MODEL_PARAM); }
    if (!(S->fallback >= S->min && S->fallback <= S->max)) {
        return fail(err, line, lit("fallback"), "fallback must lie in [min, max]", HS_E_MODEL_PARAM);
    }
    return HS_OK;
}

/* src into dst (cap bytes, always terminated, cut at cap - 1). */
static void copy_cstr(char *dst, int cap, const char *src)
{
    int i = 0;
    while (i < cap - 1 && src[i] != '\0') { dst[i] = src[i]; ++i; }
    dst[i] = 0;
}

static void signal_default(hs_mb_signal *S, const char *unit, int is_in)
{
    static const hs_mb_signal zero = {0};
    *S = zero;
    copy_cstr(S->unit, HS_MB_UNIT, unit);
    S->min = HS_R(-1e9);
    S->max = HS_R(1e9);
    S->stale = is_in ? 20 : 0;
}

/* ---- force keys: one table, each element says which it takes (hs_mb_int.h MB_K_*) ---- */

static const struct { const char *key; uint32_t bit; } FKEYS[] = {
    {"a", MB_K_A}, {"b", MB_K_B}, {"joint", MB_K_JOINT}, {"k", MB_K_K}, {"c", MB_K_C},
    {"l0", MB_K_L0}, {"theta0", MB_K_THETA0}, {"kr", MB_K_KR}, {"cr", MB_K_CR},
    {"scale", MB_K_SCALE}, {"axis", MB_K_AXIS}, {"axis_b", MB_K_AXIS_B}, {"in", MB_K_IN},
    {"f", MB_K_F}, {"tau", MB_K_TAU}, {"t", MB_K_T}, {"v", MB_K_V}, {"steer", MB_K_STEER}, {"road", MB_K_ROAD}, {"mu", MB_K_MU}, {"normal", MB_K_NORMAL},
    {"cda", MB_K_CDA}, {"cla", MB_K_CLA}, {"rho", MB_K_RHO}, {"pedal", MB_K_PEDAL}, {"ratios", MB_K_RATIOS},
    {"out", MB_K_OUT}, {"left", MB_K_LEFT}, {"right", MB_K_RIGHT}, {"data", MB_K_DATA},
    {"camber", MB_K_CAMBER}, {"bore", MB_K_BORE}};
#define NFKEYS ((int)(sizeof FKEYS / sizeof FKEYS[0]))

static tok key_of_bit(uint32_t bit)
{
    /* MISRA Ref 10.8.1 [NFKEYS: the key table length, a compile-time constant] */
    for (int i = 0; i < NFKEYS; ++i) { if (FKEYS[i].bit == bit) { return lit(FKEYS[i].key); } }
    return lit("force");
}

/* The value V of key bit of force F (tb: F's table, *nt and *nv its t= and v= counts; *have
 * gets the keys a joint= sets): 1, or 0 for a bad value (*jwhy set when joint= names no
 * revolute joint declared above). */
static int force_value(hs_mb_store *st, hs_mb_force *F, uint32_t bit, tok V, hs_mb_table *tb, int *nt,
                       int *nv, uint32_t *have, const char **jwhy)
{
    const hs_mb_desc *D = &st->desc;
    int ok = 0;
    switch (bit) {
    case MB_K_A: ok = read_point(st, V, &F->a); break;
    case MB_K_B: ok = read_point(st, V, &F->b); break;
    case MB_K_K: ok = (int)(read_vec(st, V, &F->k, 1) == 1); break;
    case MB_K_C: ok = (int)(read_vec(st, V, &F->c, 1) == 1); break;
    case MB_K_L0:
    case MB_K_THETA0: ok = (int)(read_vec(st, V, &F->l0, 1) == 1); break;
    case MB_K_KR: ok = (int)(read_vec(st, V, &F->kr, 1) == 1); break;
    case MB_K_CR: ok = (int)(read_vec(st, V, &F->cr, 1) == 1); break;
    case MB_K_SCALE: ok = (int)(read_vec(st, V, &F->scale, 1) == 1); break;
    case MB_K_CDA: ok = (int)(read_vec(st, V, &F->cda, 1) == 1); break;
    case MB_K_CLA: ok = (int)(read_vec(st, V, &F->cla, 1) == 1); break;
    case MB_K_RHO: ok = (int)((read_vec(st, V, &F->rho, 1) == 1) && (F->rho > HS_R(0.0))); break;
    case MB_K_AXIS: ok = (int)(read_vec(st, V, F->axis, 3) == D->dim); break;
    case MB_K_AXIS_B: ok = (int)(read_vec(st, V, F->axis_b, 3) == D->dim); break;
    case MB_K_F: ok = (int)(read_vec(st, V, F->v, 3) == D->dim); break;
    case MB_K_TAU:
        if (D->dim == 2) { ok = (int)(read_vec(st, V, &F->v[2], 1) == 1); }
        else { ok = (int)(read_vec(st, V, F->v, 3) == 3); }
        break;
    case MB_K_T: *nt = read_vec(st, V, tb->t, HS_MB_MAX_TAB); ok = (int)(*nt > 0); break;
    case MB_K_NORMAL:
        ok = (int)((tok_eq(V, "profile") != 0) || (tok_eq(V, "vertical") != 0));
        /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
        F->tilt = (tok_eq(V, "profile") != 0) ? 1 : 0;
        break;
    case MB_K_DATA:
        ok = (int)((tok_eq(V, "truck") != 0) || (tok_eq(V, "car") != 0));
        /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
        F->tset = (tok_eq(V, "truck") != 0) ? 1 : 0;
        break;
    case MB_K_CAMBER:
    case MB_K_BORE: {
        ok = (int)((tok_eq(V, "on") != 0) || (tok_eq(V, "off") != 0));
        int *dst = (bit == MB_K_BORE) ? &F->bore : &F->camb;
        /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
        *dst = (tok_eq(V, "on") != 0) ? 1 : 0;
        break;
    }
    case MB_K_V:
    case MB_K_RATIOS: *nv = read_vec(st, V, tb->v, HS_MB_MAX_TAB); ok = (int)(*nv > 0); break;
    case MB_K_PEDAL: tb->np = read_vec(st, V, tb->p, HS_MB_MAX_PL); ok = (int)(tb->np > 0); break;
    case MB_K_OUT:
    case MB_K_LEFT:
    case MB_K_RIGHT: { /* a whole body (its spin), stored as 1 + index */
        hs_mb_point P;
        ok = read_point(st, V, &P);
        if (ok != 0 && P.body < 0) { st->ewhy = "must be a body (a shaft on ground does not turn)"; ok = 0; }
        if (ok != 0) { *((bit == MB_K_RIGHT) ? &F->bd : &F->bc) = 1 + P.body; }
        break;
    }
    case MB_K_STEER:
    case MB_K_ROAD:
    case MB_K_MU:
    case MB_K_IN: {
        int *dst = (bit == MB_K_IN) ? &F->in0 : ((bit == MB_K_STEER) ? &F->in1 : ((bit == MB_K_ROAD) ? &F->in2 : &F->in3));
        const int i = find_input(st, V);
        if (i >= 0) { *dst = i; ok = 1; }
        else if (V.n > 0 && is_alpha(V.s[0]) != 0) { st->ewhy = "unknown input (declare it above with input NAME ...)"; ok = 0; }
        else { ok = read_int(st, V, 0, HS_MB_MAX_NIN - 1, dst); }
        /* steer, road, mu: stored as 1 + index (0: none) */
        if (ok != 0 && bit != MB_K_IN) { *dst += 1; }
        break;
    }
    default: { /* MB_K_JOINT: the bodies and axes of a revolute joint declared above */
        const int j = find_joint(st, V);
        if (j < 0) { *jwhy = "unknown joint (declare the joint before the force)"; return 0; }
        const hs_mb_joint *J = &st->joints[j];
        if (J->kind != HS_MB_REVOLUTE) { *jwhy = "not a revolute joint"; return 0; }
        F->a = J->a; F->b = J->b;
        for (int i = 0; i < 3; ++i) { F->axis[i] = J->axis[i]; F->axis_b[i] = J->axis_b[i]; }
        *have |= MB_K_A;
        ok = 1;
        break;
    }
    }
    return ok;
}

/* After the keys of force F (element el; have the keys given, nt/nv the table's counts; kw the
 * line's keyword): the required keys, the table, the element's own check and its inputs. */
static hs_status force_finish(hs_mb_store *st, hs_mb_force *F, const mb_force_elem *el, uint32_t have, int nt,
                        int nv, hs_mb_table *tb, tok kw, int line, hs_mb_error *err)
{
    const hs_mb_desc *D = &st->desc;
    const hs_status E = HS_E_MODEL_PARAM;
    if ((el->need & ~have) != 0u) {
        const uint32_t miss = el->need & ~have;
        /* MISRA Ref 10.8.1 [NFKEYS: the key table length, a compile-time constant] */
        for (int i = 0; i < NFKEYS; ++i) {
            if ((miss & FKEYS[i].bit) != 0u) {
                detail_add(err, FKEYS[i].key);
                detail_add(err, "= is required");
                return fail(err, line, kw, "a required key is missing", E);
            }
        }
    }
    if ((el->keys & MB_K_PEDAL) != 0u) {
        /* an engine map: speeds t= by pedal levels pedal=, speed-major in v= */
        if (nt * tb->np != nv) { return fail(err, line, lit("v"), "v= needs (values of t=) x (values of pedal=) values, speed-major", E); }
        tb->n = nt;
        F->tab = tb;
    } else if ((el->keys & MB_K_T) != 0u) {
        if (nt != nv) { return fail(err, line, lit("v"), "t= and v= need the same number of values", E); }
        tb->n = nt;
        F->tab = tb;
    } else if ((el->keys & MB_K_RATIOS) != 0u) {
        tb->n = nv;
        F->tab = tb;
    } else {
        /* no table */
    }
    const char *why = "refused";
    const uint32_t bad = el->check(D, F, &why);
    if (bad != 0u) { return fail(err, line, key_of_bit(bad), why, E); }
    if (el->inputs != NULL) {
        const char *suf[3] = {NULL, NULL, NULL};
        const int width = el->inputs(D, F, suf);
        if (F->in0 + width > D->nin) {
            return fail(err, line, lit("in"), "input index (plus the element's width) not below the model's input count", E);
        }
    }
    if (F->in1 > D->nin || F->in2 > D->nin || F->in3 > D->nin) {
        return fail(err, line, lit(F->in1 > D->nin ? "steer" : (F->in2 > D->nin ? "road" : "mu")), "input index not below the model's input count", E);
    }
    return HS_OK;
}

static hs_status parse_force(hs_mb_store *st, const tok *w, int npos, const tok *key, const tok *val, int nkv,
                       int line, hs_mb_error *err)
{
    hs_mb_desc *D = &st->desc;
    const hs_status E = HS_E_MODEL_PARAM;
    const tok kw = w[0];
    const int e = D->nforces;
    if (e >= HS_MB_MAX_FORCES) { return fail_cap(st, err, line, kw, "force elements", "HS_MB_MAX_FORCES", HS_MB_MAX_FORCES); }
    hs_mb_force *F = &st->forces[e];
    static const hs_mb_force zero = {0};
    *F = zero;
    if (npos != 3 || copy_name(F->name, w[1]) == 0) { return fail(err, line, kw, "expected: force NAME KIND key=value ...", E); }
    if (find_force(st, w[1]) >= 0) { return fail(err, line, w[1], "force name already used", E); }
    int kind = -1;
    for (int k = 0; k < (int)HS_MB_FORCE_KINDS; ++k) { if (tok_eq(w[2], mb_force_elems[k]->name) != 0) { kind = k; } }
    if (kind < 0) { return fail(err, line, w[2], "unknown force kind (model/FORMAT.md lists them)", E); }
    const mb_force_elem *el = mb_force_elems[kind];
    F->kind = (hs_mb_force_kind)kind;
    F->a.body = HS_MB_GROUND; F->b.body = HS_MB_GROUND;
    F->scale = HS_R(1.0);
    hs_mb_table *tb = &st->tables[e];
    tb->n = 0;
    tb->np = 0;
    int nt = 0, nv = 0;
    uint32_t have = 0u;
    for (int k = 0; k < nkv; ++k) {
        const tok K = key[k], V = val[k];
        uint32_t bit = 0u;
        /* MISRA Ref 10.8.1 [NFKEYS: the key table length, a compile-time constant] */
        for (int i = 0; i < NFKEYS; ++i) { if (tok_eq(K, FKEYS[i].key) != 0) { bit = FKEYS[i].bit; } }
        if (bit == 0u) { return fail(err, line, K, "unknown key (model/FORMAT.md lists each kind's keys)", E); }
        if ((el->keys & bit) == 0u) { return fail(err, line, K, "key not taken by this force kind", E); }
        have |= bit;
        const char *jwhy = NULL;
        const int ok = force_value(st, F, bit, V, tb, &nt, &nv, &have, &jwhy);
        if (jwhy != NULL) { return fail(err, line, K, jwhy, E); }
        if (ok == 0) { return fail_val(st, err, line, K, "bad value (unknown body or point, wrong count, bad number)"); }
    }
    const hs_status rc = force_finish(st, F, el, have, nt, nv, tb, kw, line, err);
    if (rc != HS_OK) { return rc; }
    st->force_line[e] = line;
    D->nforces = e + 1;
    return HS_OK;
}

/* ---- joint keys: one table, each kind says which it takes (hs_mb_int.h MB_J_*) ---- */

static const struct { const char *key; uint32_t bit; } JKEYS[] = {
    {"a", MB_J_A}, {"b", MB_J_B}, {"c", MB_J_C}, {"d", MB_J_D}, {"axis", MB_J_AXIS},
    {"axis_b", MB_J_AXIS_B}, {"length", MB_J_LENGTH}, {"coord", MB_J_COORD}, {"f", MB_J_F},
    {"circle", MB_J_CIRCLE}, {"quadric", MB_J_QUADRIC}, {"linear", MB_J_LINEAR}, {"const", MB_J_CONST}};
#define NJKEYS ((int)(sizeof JKEYS / sizeof JKEYS[0]))

static tok jkey_of_bit(uint32_t bit)
{
    /* MISRA Ref 10.8.1 [NJKEYS: the key table length, a compile-time constant] */
    for (int i = 0; i < NJKEYS; ++i) { if (JKEYS[i].bit == bit) { return lit(JKEYS[i].key); } }
    return lit("joint");
}

static hs_status parse_joint(hs_mb_store *st, const tok *w, int npos, const tok *key, const tok *val, int nkv,
                       int line, hs_mb_error *err)
{
    hs_mb_desc *D = &st->desc;
    const hs_status E = HS_E_MODEL_PARAM;
    const tok kw = w[0];
    const int j = D->njoints;
    if (j >= HS_MB_MAX_JOINTS) { return fail_cap(st, err, line, kw, "joints", "HS_MB_MAX_JOINTS", HS_MB_MAX_JOINTS); }
    hs_mb_joint *J = &st->joints[j];
    static const hs_mb_joint zero = {0};
    *J = zero;
    if (npos != 3 || copy_name(J->name, w[1]) == 0) { return fail(err, line, kw, "expected: joint NAME KIND a=POINT ...", E); }
    if (find_joint(st, w[1]) >= 0) { return fail(err, line, w[1], "joint name already used", E); }
    int kind = -1;
    for (int k = 0; k < (int)HS_MB_JOINT_KINDS; ++k) { if (tok_eq(w[2], mb_joint_elems[k]->name) != 0) { kind = k; } }
    if (kind < 0) { return fail(err, line, w[2], "unknown joint kind (model/FORMAT.md lists them)", E); }
    const mb_joint_elem *el = mb_joint_elems[kind];
    J->kind = (hs_mb_joint_kind)kind;
    J->a.body = HS_MB_GROUND; J->b.body = HS_MB_GROUND; J->c.body = HS_MB_GROUND; J->d.body = HS_MB_GROUND;
    uint32_t have = 0u;
    for (int k = 0; k < nkv; ++k) {
        const tok K = key[k], V = val[k];
        /* compliance and damping: every kind, [L1]'s spring-damper on all the joint's rows */
        if ((tok_eq(K, "compliance") != 0) || (tok_eq(K, "damping") != 0)) {
            const int isc = tok_eq(K, "compliance");
            hs_real x = HS_R(-1.0);
            if (read_vec(st, V, &x, 1) != 1) { return fail_val(st, err, line, K, "bad value (expected one number)"); }
            if (!(x >= HS_R(0.0))) {
                err->has_value = 1; err->value = (double)x;
                return fail(err, line, K, (isc != 0) ? "compliance must be >= 0 (m/N, rad/(N m) for angles; 0 = rigid)"
                                                     : "damping must be >= 0 (N s/m, N m s/rad for angles)", E);
            }
            J->has_comp = 1;
            if (isc != 0) { J->compliance = x; } else { J->damping = x; }
            continue;
        }
        uint32_t bit = 0u;
        /* MISRA Ref 10.8.1 [NJKEYS: the key table length, a compile-time constant] */
        for (int i = 0; i < NJKEYS; ++i) { if (tok_eq(K, JKEYS[i].key) != 0) { bit = JKEYS[i].bit; } }
        if (bit == 0u) { return fail(err, line, K, "unknown key (model/FORMAT.md lists each kind's keys)", E); }
        if ((el->keys & bit) == 0u) { return fail(err, line, K, "key not taken by this joint kind", E); }
        have |= bit;
        int ok = 0;
        switch (bit) {
        case MB_J_A: ok = read_point(st, V, &J->a); break;
        case MB_J_B: ok = read_point(st, V, &J->b); break;
        case MB_J_C: ok = read_point(st, V, &J->c); break;
        case MB_J_D: ok = read_point(st, V, &J->d); break;
        case MB_J_AXIS: ok = (int)(read_vec(st, V, J->axis, 3) == D->dim); break;
        case MB_J_AXIS_B: ok = (int)(read_vec(st, V, J->axis_b, 3) == D->dim); break;
        case MB_J_LENGTH: ok = (int)(read_vec(st, V, &J->length, 1) == 1); break;
        case MB_J_COORD:
            ok = (int)(tok_eq(V, "angle") || tok_eq(V, "travel"));
            J->coord = tok_eq(V, "travel");
            break;
        case MB_J_F: ok = read_fn(st, V, &J->f); break;
        case MB_J_CIRCLE: { /* cx,cy,R: (x-cx)^2 + (y-cy)^2 - R^2 */
            hs_real c[3];
            ok = (int)(read_vec(st, V, c, 3) == 3 && c[2] > HS_R(0.0));
            J->quad.A[0] = HS_R(1.0); J->quad.A[1] = HS_R(1.0);
            J->quad.b[0] = -HS_R(2.0) * c[0]; J->quad.b[1] = -HS_R(2.0) * c[1];
            J->quad.c = c[0] * c[0] + c[1] * c[1] - c[2] * c[2];
            break;
        }
        case MB_J_QUADRIC: ok = (int)(read_vec(st, V, J->quad.A, 6) == 6); break;
        case MB_J_LINEAR: ok = (int)(read_vec(st, V, J->quad.b, 3) == D->dim); break;
        default: ok = (int)(read_vec(st, V, &J->quad.c, 1) == 1); break; /* MB_J_CONST */
        }
        if (ok == 0) { return fail_val(st, err, line, K, "bad value (unknown body or point, wrong count, bad number)"); }
    }
    if ((el->need & ~have) != 0u) {
        const uint32_t miss = el->need & ~have;
        /* MISRA Ref 10.8.1 [NJKEYS: the key table length, a compile-time constant] */
        for (int i = 0; i < NJKEYS; ++i) {
            if ((miss & JKEYS[i].bit) != 0u) {
                detail_add(err, JKEYS[i].key);
                detail_add(err, "= is required");
                return fail(err, line, kw, "a required key is missing", E);
            }
        }
    }
    const char *why = "refused";
    const uint32_t bad = el->check(D, J, &why);
    if (bad != 0u) { return fail(err, line, jkey_of_bit(bad), why, E); }
    st->joint_line[j] = line;
    D->njoints = j + 1;
    return HS_OK;
}

/* Component of a named output: "BODY.c" -> c's index in the output line (FORMAT.md). */
static int read_comp(const hs_mb_store *st, tok t, tok *body, int *comp)
{
    static const struct { const char *n; int i; } C[] = {
        {"x", 0}, {"y", 1}, {"z", 2}, {"theta", 2}, {"w", 2}, {"alpha", 2}, {"p0", 3}, {"p1", 4},
        {"p2", 5}, {"p3", 6}, {"wx", 3}, {"wy", 4}, {"wz", 5}};
    int dot = 0;
    /* MISRA Ref 10.4.2 [character code vs character constant] */
    while (dot < t.n && t.s[dot] != '.') { ++dot; }
    body->s = t.s; body->n = dot;
    if (dot >= t.n) { return 0; }
    tok c = {&t.s[dot + 1], t.n - dot - 1};
    /* MISRA Ref 10.8.1 [table length, compile-time constant] */
    for (int i = 0; i < (int)(sizeof C / sizeof C[0]); ++i) {
        if (tok_eq(c, C[i].n) != 0) {
            if (st->desc.dim == 2 && tok_eq(c, "z") != 0) { return 0; }
            *comp = C[i].i;
            return 1;
        }
    }
    return 0;
}

/* The unnamed output forms (output energy | pos|vel|acc BODY | coord JOINT | tire TIRE |
 * vehicle BODY) into O: no signal, no keys. */
static hs_status output_unnamed(hs_mb_store *st, const tok *w, int npos, const tok *key, int nkv, int line,
                          hs_mb_error *err, hs_mb_output *O)
{
    const hs_status E = HS_E_MODEL_PARAM;
    const tok kw = w[0];
    if (npos == 2 && tok_eq(w[1], "energy") != 0) {
        O->kind = HS_MB_OUT_ENERGY; O->index = 0;
    } else if (npos == 3 && (tok_eq(w[1], "pos") != 0 || tok_eq(w[1], "vel") != 0 || tok_eq(w[1], "acc") != 0)) {
        O->kind = out_kind(w[1]);
        O->index = find_body(st, w[2]);
        if (O->index < 0) { return fail(err, line, w[2], "unknown body", E); }
    } else if (npos == 3 && tok_eq(w[1], "coord") != 0) {
        O->kind = HS_MB_OUT_COORD;
        O->index = find_joint(st, w[2]);
        if (O->index < 0) { return fail(err, line, w[2], "unknown joint", E); }
    } else if (npos == 3 && tok_eq(w[1], "tire") != 0) {
        O->kind = HS_MB_OUT_TIRE;
        O->index = find_force(st, w[2]);
        if (O->index < 0 || st->forces[O->index].kind != HS_MB_TIRE) { return fail(err, line, w[2], "not a tire force element declared above", E); }
    } else if (npos == 3 && tok_eq(w[1], "vehicle") != 0) {
        O->kind = HS_MB_OUT_VEHICLE;
        O->index = find_body(st, w[2]);
        if (O->index < 0 || st->bodies[O->index].kind != HS_MB_SPATIAL) { return fail(err, line, w[2], "not a spatial body", E); }
    } else if (npos == 3 && tok_eq(w[1], "force") != 0) {
        O->kind = HS_MB_OUT_FORCE;
        O->index = find_force(st, w[2]);
        if (O->index < 0 || mb_force_elems[st->forces[O->index].kind]->values == NULL) { return fail(err, line, w[2], "not a force element with outputs (kingpin) declared above", E); }
    } else {
        return fail(err, line, kw, "expected: output pos|vel|acc BODY | output coord JOINT | output tire TIRE | output vehicle BODY | output force FORCE | output energy | output NAME QUANTITY ...", E);
    }
    if (nkv != 0) { return fail(err, line, key[0], "this output form takes no keys (name it: output NAME QUANTITY ...)", E); }
    return HS_OK;
}

/* output NAME coord JOINT: the joint's coordinate, in rad or m as the joint kind says. */
static hs_status output_coord(hs_mb_store *st, const tok *w, int npos, int line, hs_mb_error *err,
                        hs_mb_output *O, const char **unit)
{
    const hs_mb_desc *D = &st->desc;
    const hs_status E = HS_E_MODEL_PARAM;
    const tok kw = w[0];
    if (npos != 4) { return fail(err, line, kw, "expected: output NAME coord JOINT", E); }
    O->kind = HS_MB_OUT_COORD;
    O->index = find_joint(st, w[3]);
    if (O->index < 0) { return fail(err, line, w[3], "unknown joint", E); }
    const hs_mb_joint *J = &st->joints[O->index];
    const int ck = mb_joint_elems[J->kind]->coord_kind(D, J);
    if (ck < 0) { return fail(err, line, w[3], "this joint kind has no coordinate", E); }
    *unit = ck == 1 ? "rad" : "m";
    return HS_OK;
}

/* output NAME pos|vel|acc BODY.c [BODY2.c]: a component of a body's motion (relative to BODY2
 * when given), its unit from the component and the model's dimension. */
static hs_status output_motion(hs_mb_store *st, const tok *w, int npos, int line, hs_mb_error *err,
                         hs_mb_output *O, const char **unit)
{
    const hs_mb_desc *D = &st->desc;
    const hs_status E = HS_E_MODEL_PARAM;
    const tok kw = w[0];
    const tok q = w[2];
    O->kind = out_kind(q);
    if (npos != 4 && npos != 5) { return fail(err, line, kw, "expected: output NAME pos|vel|acc BODY.c [BODY2.c]", E); }
    tok b;
    if (read_comp(st, w[3], &b, &O->comp) == 0) { return fail(err, line, w[3], "expected BODY.c, c one of x y z theta p0..p3 (pos), w wx wy wz (vel), alpha (acc)", E); }
    O->index = find_body(st, b);
    if (O->index < 0) { return fail(err, line, w[3], "unknown body", E); }
    if (npos == 5) {
        int c2 = -1;
        if (read_comp(st, w[4], &b, &c2) == 0 || c2 != O->comp) { return fail(err, line, w[4], "expected BODY2 with the same component", E); }
        const int b2 = find_body(st, b);
        if (b2 < 0) { return fail(err, line, w[4], "unknown body", E); }
        O->index2 = b2 + 1;
    }
    const int ang = (int)(O->comp >= 2 && (D->dim == 2 || O->comp >= 3));
    if (O->kind == HS_MB_OUT_POS) { *unit = ang ? (D->dim == 2 ? "rad" : "1") : "m"; }
    else if (O->kind == HS_MB_OUT_VEL) { *unit = ang ? "rad/s" : "m/s"; }
    else { *unit = ang ? "rad/s^2" : "m/s^2"; }
    return HS_OK;
}

/* output NAME tire TIRE.c | output NAME vehicle BODY.c: a tire's or a vehicle body's quantity. */
static hs_status output_vehicle(hs_mb_store *st, const tok *w, int npos, int line, hs_mb_error *err,
                          hs_mb_output *O, const char **unit)
{
    const hs_status E = HS_E_MODEL_PARAM;
    const tok kw = w[0];
    const tok q = w[2];
    /* output NAME tire TIRE.c | output NAME vehicle BODY.c */
    static const char *const TC[6] = {"omega", "Fx", "Fy", "Fz", "sx", "sy"};
    static const char *const TU[6] = {"rad/s", "N", "N", "N", "1", "1"};
    static const char *const VC[7] = {"vx", "vy", "yaw_rate", "ax", "ay", "beta", "yaw"};
    static const char *const VU[7] = {"m/s", "m/s", "rad/s", "m/s^2", "m/s^2", "rad", "rad"};
    const int tire = (int)(tok_eq(q, "tire") != 0);
    if (npos != 4) { return fail(err, line, kw, "expected: output NAME tire TIRE.c | output NAME vehicle BODY.c", E); }
    int dot = 0;
    /* MISRA Ref 10.4.2 [character code vs character constant] */
    while (dot < w[3].n && w[3].s[dot] != '.') { ++dot; }
    const tok nm = {w[3].s, dot};
    const tok c = {&w[3].s[(dot < w[3].n) ? dot + 1 : dot], (dot < w[3].n) ? w[3].n - dot - 1 : 0};
    O->comp = -1;
    for (int i = 0; i < (tire ? 6 : 7); ++i) { if (tok_eq(c, tire ? TC[i] : VC[i]) != 0) { O->comp = i; } }
    if (O->comp < 0) { return fail(err, line, w[3], tire ? "expected TIRE.c, c one of omega Fx Fy Fz sx sy" : "expected BODY.c, c one of vx vy yaw_rate ax ay beta yaw", E); }
    if (tire != 0) {
        O->kind = HS_MB_OUT_TIRE;
        O->index = find_force(st, nm);
        if (O->index < 0 || st->forces[O->index].kind != HS_MB_TIRE) { return fail(err, line, w[3], "not a tire force element declared above", E); }
    } else {
        O->kind = HS_MB_OUT_VEHICLE;
        O->index = find_body(st, nm);
        if (O->index < 0 || st->bodies[O->index].kind != HS_MB_SPATIAL) { return fail(err, line, w[3], "not a spatial body", E); }
    }
    *unit = tire ? TU[O->comp] : VU[O->comp];
    return HS_OK;
}

/* output NAME force FORCE.c: value c of a force element whose kind names its values (a
 * kingpin's angle, set, torque, rate), its unit from the kind's row. */
static hs_status output_force(hs_mb_store *st, const tok *w, int npos, int line, hs_mb_error *err,
                              hs_mb_output *O, const char **unit)
{
    const hs_status E = HS_E_MODEL_PARAM;
    if (npos != 4) { return fail(err, line, w[0], "expected: output NAME force FORCE.c", E); }
    int dot = 0;
    /* MISRA Ref 10.4.2 [character code vs character constant] */
    while (dot < w[3].n && w[3].s[dot] != '.') { ++dot; }
    const tok nm = {w[3].s, dot};
    const tok c = {&w[3].s[(dot < w[3].n) ? dot + 1 : dot], (dot < w[3].n) ? w[3].n - dot - 1 : 0};
    O->kind = HS_MB_OUT_FORCE;
    O->index = find_force(st, nm);
    if (O->index < 0 || mb_force_elems[st->forces[O->index].kind]->values == NULL) { return fail(err, line, w[3], "not a force element with outputs (kingpin) declared above", E); }
    const mb_force_elem *el = mb_force_elems[st->forces[O->index].kind];
    O->comp = -1;
    for (int i = 0; i < el->nval; ++i) { if (tok_eq(c, el->val_name[i]) != 0) { O->comp = i; } }
    if (O->comp < 0) { return fail(err, line, w[3], "expected FORCE.c, c one of the kind's values (kingpin: angle set torque rate)", E); }
    *unit = el->val_unit[O->comp];
    return HS_OK;
}

/* at=x,y[,z] (the body-frame point, dim values) and axes=ground|body of a named acc output;
 * *ok 0 for a bad value. Refused: on another quantity, on a point body (no extent, no axes),
 * with a BODY2 (the difference of two bodies' points is not asked for). */
static hs_status acc_key(hs_mb_store *st, tok k, tok v, int line, hs_mb_error *err, hs_mb_output *O, int *ok)
{
    const hs_status E = HS_E_MODEL_PARAM;
    if (O->kind != HS_MB_OUT_ACC) { return fail(err, line, k, "at= and axes= belong to acc outputs", E); }
    const hs_mb_body_kind bk = st->bodies[O->index].kind;
    if (bk != HS_MB_PLANAR && bk != HS_MB_SPATIAL) { return fail(err, line, k, "a point body has no extent and no axes (at=, axes= need a planar or spatial body)", E); }
    if (O->index2 > 0) { return fail(err, line, k, "at= and axes= take one body (no BODY2)", E); }
    if (tok_eq(k, "at") != 0) {
        const int n = st->desc.dim;
        *ok = read_vec(st, v, O->at, n) == n;
        return HS_OK;
    }
    if (tok_eq(v, "body") != 0) { O->axes = 1; *ok = 1; }
    else if (tok_eq(v, "ground") != 0) { O->axes = 0; *ok = 1; }
    else { *ok = 0; }
    return HS_OK;
}

static hs_status parse_output(hs_mb_store *st, const tok *w, int npos, const tok *key, const tok *val, int nkv,
                        int line, hs_mb_error *err)
{
    hs_mb_desc *D = &st->desc;
    const hs_status E = HS_E_MODEL_PARAM;
    const tok kw = w[0];
    const int o = D->noutputs;
    if (o >= HS_MB_MAX_OUTPUTS) { return fail_cap(st, err, line, kw, "outputs", "HS_MB_MAX_OUTPUTS", HS_MB_MAX_OUTPUTS); }
    hs_mb_output *O = &st->outputs[o];
    static const hs_mb_output zero = {0};
    *O = zero;
    const int named = (int)(npos >= 2 && !tok_eq(w[1], "energy") && !tok_eq(w[1], "pos") && !tok_eq(w[1], "vel")
                      && !tok_eq(w[1], "acc") && !tok_eq(w[1], "coord") && !tok_eq(w[1], "tire") && !tok_eq(w[1], "vehicle")
                      && !tok_eq(w[1], "force"));
    if (named == 0) {
        const hs_status rc = output_unnamed(st, w, npos, key, nkv, line, err, O);
        if (rc != HS_OK) { return rc; }
        st->output_line[o] = line;
        D->noutputs = o + 1;
        return HS_OK;
    }
    /* output NAME QUANTITY [BODY.c [BODY2.c] | JOINT] [offset= unit= min= max= fallback=] */
    hs_mb_signal *S = &st->out_sig[o];
    signal_default(S, "1", 0);
    /* MISRA Ref 10.4.2 [character code vs character constant] */
    if (npos < 3 || copy_name(S->name, w[1]) == 0 || (w[1].s[0] >= '0' && w[1].s[0] <= '9')) {
        return fail(err, line, kw, "expected: output NAME pos|vel|acc BODY.c [BODY2.c] | output NAME coord JOINT | output NAME energy", E);
    }
    if (find_output_sig(st, w[1]) >= 0 || find_input(st, w[1]) >= 0) { return fail(err, line, w[1], "signal name already used", E); }
    const tok q = w[2];
    const char *unit = "1";
    hs_status rc = HS_OK;
    if (tok_eq(q, "energy") != 0) {
        if (npos != 3) { return fail(err, line, w[3], "energy takes no operand", E); }
        O->kind = HS_MB_OUT_ENERGY; unit = "J";
    } else if (tok_eq(q, "coord") != 0) {
        rc = output_coord(st, w, npos, line, err, O, &unit);
    } else if (tok_eq(q, "pos") != 0 || tok_eq(q, "vel") != 0 || tok_eq(q, "acc") != 0) {
        rc = output_motion(st, w, npos, line, err, O, &unit);
    } else if (tok_eq(q, "tire") != 0 || tok_eq(q, "vehicle") != 0) {
        rc = output_vehicle(st, w, npos, line, err, O, &unit);
    } else if (tok_eq(q, "force") != 0) {
        rc = output_force(st, w, npos, line, err, O, &unit);
    } else {
        return fail(err, line, q, "unknown quantity (pos, vel, acc, coord, energy, tire, vehicle, force)", E);
    }
    if (rc != HS_OK) { return rc; }
    copy_cstr(S->unit, HS_MB_UNIT, unit);
    for (int k = 0; k < nkv; ++k) {
        int ok = 0;
        if (tok_eq(key[k], "offset") != 0) { ok = (int)(read_vec(st, val[k], &O->offset, 1) == 1); }
        else if (tok_eq(key[k], "at") != 0 || tok_eq(key[k], "axes") != 0) {
            const hs_status arc = acc_key(st, key[k], val[k], line, err, O, &ok);
            if (arc != HS_OK) { return arc; }
        }
        else if (signal_key(st, key[k], val[k], S, 0, &ok) == 0) { return fail(err, line, key[k], "unknown key (offset, unit, min, max, fallback; acc: at, axes)", E); }
        if (ok == 0) { return fail_val(st, err, line, key[k], "bad value"); }
    }
    {
        const hs_status rrc = signal_range(S, line, err);
        if (rrc != HS_OK) { return rrc; }
    }
    O->sig = S;
    st->output_line[o] = line;
    D->noutputs = o + 1;
    return HS_OK;
}

/* ---- unilateral elements: shape, contact, stop, solver (model/CONTACT.md) ---- */

static int find_shape(const hs_mb_store *st, tok t)
{
    for (int i = 0; i < st->desc.nshapes; ++i) { if (name_is(st->shapes[i].name, t) != 0) { return i; } }
    return -1;
}

static int find_contact(const hs_mb_store *st, tok t)
{
    for (int i = 0; i < st->desc.ncontacts; ++i) { if (name_is(st->contacts[i].name, t) != 0) { return i; } }
    return -1;
}

static int find_stop(const hs_mb_store *st, tok t)
{
    for (int i = 0; i < st->desc.nstops; ++i) { if (name_is(st->stops[i].name, t) != 0) { return i; } }
    return -1;
}

/* shape NAME sphere|box|capsule|cylinder|plane body=BODY|ground [at=x,y,z] [radius=R] [half=...] [normal=...] */
static hs_status parse_shape(hs_mb_store *st, const tok *w, int npos, const tok *key, const tok *val, int nkv,
                       int line, hs_mb_error *err)
{
    hs_mb_desc *D = &st->desc;
    const hs_status E = HS_E_MODEL_PARAM;
    const tok kw = w[0];
    const int i = D->nshapes;
    if (i >= HS_MB_MAX_SHAPES) { return fail_cap(st, err, line, kw, "shapes", "HS_MB_MAX_SHAPES", HS_MB_MAX_SHAPES); }
    hs_mb_shape *S = &st->shapes[i];
    static const hs_mb_shape zero = {0};
    *S = zero;
    if (npos != 3 || copy_name(S->name, w[1]) == 0) { return fail(err, line, kw, "expected: shape NAME sphere|box|capsule|cylinder|plane body=BODY ...", E); }
    if (find_shape(st, w[1]) >= 0) { return fail(err, line, w[1], "shape name already used", E); }
    if (D->dim != 3) { return fail(err, line, kw, "shapes and contacts need a 3-D model (dim=3)", E); }
    if (tok_eq(w[2], "sphere") != 0) { S->kind = HS_MB_SH_SPHERE; }
    else if (tok_eq(w[2], "box") != 0) { S->kind = HS_MB_SH_BOX; }
    else if (tok_eq(w[2], "capsule") != 0) { S->kind = HS_MB_SH_CAPSULE; }
    else if (tok_eq(w[2], "cylinder") != 0) { S->kind = HS_MB_SH_CYLINDER; }
    else if (tok_eq(w[2], "plane") != 0) { S->kind = HS_MB_SH_PLANE; }
    else { return fail(err, line, w[2], "unknown shape kind (sphere|box|capsule|cylinder|plane)", E); }
    S->normal[2] = HS_R(1.0);
    int have_body = 0, have_r = 0, have_half = 0;
    for (int k = 0; k < nkv; ++k) {
        if (tok_eq(key[k], "body") != 0) {
            have_body = 1;
            if (tok_eq(val[k], "ground") != 0) { S->body = HS_MB_GROUND; }
            else {
                S->body = find_body(st, val[k]);
                if (S->body < 0) { return fail(err, line, key[k], "no such body", E); }
                const hs_mb_body_kind bk = st->bodies[S->body].kind;
                if (bk != HS_MB_SPATIAL && bk != HS_MB_POINT3) { return fail(err, line, key[k], "a shape sits on a spatial or point3 body or on ground", E); }
            }
        } else if (tok_eq(key[k], "at") != 0) {
            if (read_vec(st, val[k], S->pos, 3) != 3) { return fail_val(st, err, line, key[k], "expected x,y,z (m, body frame)"); }
        } else if (tok_eq(key[k], "radius") != 0 && S->kind != HS_MB_SH_BOX && S->kind != HS_MB_SH_PLANE) {
            have_r = 1;
            if (read_vec(st, val[k], &S->size[0], 1) != 1 || !(S->size[0] > HS_R(0.0))) { return fail_val(st, err, line, key[k], "expected a radius > 0 (m)"); }
        } else if (tok_eq(key[k], "half") != 0 && S->kind == HS_MB_SH_BOX) {
            have_half = 1;
            if (read_vec(st, val[k], S->size, 3) != 3 || !(S->size[0] > HS_R(0.0) && S->size[1] > HS_R(0.0) && S->size[2] > HS_R(0.0))) {
                return fail_val(st, err, line, key[k], "expected half extents hx,hy,hz, each > 0 (m)");
            }
        } else if (tok_eq(key[k], "half") != 0 && S->kind == HS_MB_SH_CAPSULE) {
            have_half = 1;
            if (read_vec(st, val[k], &S->size[1], 1) != 1 || !(S->size[1] >= HS_R(0.0))) { return fail_val(st, err, line, key[k], "expected the half length of the axis >= 0 (m)"); }
        } else if (tok_eq(key[k], "half") != 0 && S->kind == HS_MB_SH_CYLINDER) {
            have_half = 1;
            if (read_vec(st, val[k], &S->size[1], 1) != 1 || !(S->size[1] > HS_R(0.0))) { return fail_val(st, err, line, key[k], "expected the half length of the axis > 0 (m)"); }
        } else if (tok_eq(key[k], "normal") != 0 && S->kind == HS_MB_SH_PLANE) {
            if (read_vec(st, val[k], S->normal, 3) != 3) { return fail_val(st, err, line, key[k], "expected nx,ny,nz"); }
            const hs_real n2 = S->normal[0] * S->normal[0] + S->normal[1] * S->normal[1] + S->normal[2] * S->normal[2];
            if (!(hs_abs(n2 - HS_R(1.0)) < HS_R(1e-9))) { return fail(err, line, key[k], "the normal must be a unit vector", E); }
        } else { return fail(err, line, key[k], "unknown key for this shape (body, at; sphere: radius; box: half=hx,hy,hz; capsule, cylinder: radius, half; plane: normal)", E); }
    }
    if (have_body == 0) { return fail(err, line, kw, "body=BODY|ground is required", E); }
    const int round = (int)(S->kind == HS_MB_SH_SPHERE || S->kind == HS_MB_SH_CAPSULE || S->kind == HS_MB_SH_CYLINDER);
    if (round != 0 && have_r == 0) { return fail(err, line, kw, "radius= is required", E); }
    if ((S->kind == HS_MB_SH_BOX || S->kind == HS_MB_SH_CAPSULE || S->kind == HS_MB_SH_CYLINDER) && have_half == 0) { return fail(err, line, kw, "half= is required", E); }
    st->shape_line[i] = line;
    D->nshapes = i + 1;
    return HS_OK;
}

/* contact NAME a=SHAPE b=SHAPE [mu=M] [e=E] [friction=box|pyramid] */
static hs_status parse_contact(hs_mb_store *st, const tok *w, int npos, const tok *key, const tok *val, int nkv,
                         int line, hs_mb_error *err)
{
    hs_mb_desc *D = &st->desc;
    const hs_status E = HS_E_MODEL_PARAM;
    const tok kw = w[0];
    const int i = D->ncontacts;
    if (i >= HS_MB_MAX_CONTACTS) { return fail_cap(st, err, line, kw, "contacts", "HS_MB_MAX_CONTACTS", HS_MB_MAX_CONTACTS); }
    hs_mb_contact *C = &st->contacts[i];
    static const hs_mb_contact zero = {0};
    *C = zero;
    C->a = -1; C->b = -1; C->box = 1;
    if (npos != 2 || copy_name(C->name, w[1]) == 0) { return fail(err, line, kw, "expected: contact NAME a=SHAPE b=SHAPE [mu=M] [e=E] [friction=box|pyramid]", E); }
    if (find_contact(st, w[1]) >= 0) { return fail(err, line, w[1], "contact name already used", E); }
    for (int k = 0; k < nkv; ++k) {
        if (tok_eq(key[k], "a") != 0 || tok_eq(key[k], "b") != 0) {
            const int sh = find_shape(st, val[k]);
            if (sh < 0) { return fail(err, line, key[k], "no such shape (declare it with a shape line above)", E); }
            /* MISRA Ref 10.4.2 [character code vs character constant] */
            if (key[k].s[0] == 'a') { C->a = sh; } else { C->b = sh; }
        } else if (tok_eq(key[k], "mu") != 0) {
            if (read_vec(st, val[k], &C->mu, 1) != 1 || !(C->mu >= HS_R(0.0))) { return fail_val(st, err, line, key[k], "expected a friction coefficient >= 0"); }
        } else if (tok_eq(key[k], "e") != 0) {
            if (read_vec(st, val[k], &C->e, 1) != 1 || !(C->e >= HS_R(0.0)) || !(C->e <= HS_R(1.0))) { return fail_val(st, err, line, key[k], "expected a restitution coefficient in [0, 1]"); }
        } else if (tok_eq(key[k], "friction") != 0) {
            if (tok_eq(val[k], "box") != 0) { C->box = 1; }
            else if (tok_eq(val[k], "pyramid") != 0) { C->box = 0; }
            else { return fail(err, line, key[k], "expected box or pyramid", E); }
        } else { return fail(err, line, key[k], "unknown key (a, b, mu, e, friction)", E); }
    }
    if (C->a < 0 || C->b < 0) { return fail(err, line, kw, "a=SHAPE and b=SHAPE are required", E); }
    const hs_mb_shape *A = &st->shapes[C->a], *B = &st->shapes[C->b];
    if (hs_mb_ct_pair_slots(A->kind, B->kind) == 0) {
        static const char *const SK[] = {"sphere", "box", "capsule", "plane", "cylinder"};
        detail_add(err, "a=");
        detail_add(err, SK[A->kind]);
        detail_add(err, " b=");
        detail_add(err, SK[B->kind]);
        return fail(err, line, kw, HS_MB_CT_PAIRS_MSG, E);
    }
    if ((A->body < 0 && B->body < 0) || A->body == B->body) { return fail(err, line, kw, "a contact needs two different bodies (one may be ground)", E); }
    st->contact_line[i] = line;
    D->ncontacts = i + 1;
    return HS_OK;
}

/* stop NAME joint=JOINT [min=V] [max=V] [e=E] */
static hs_status parse_stop(hs_mb_store *st, const tok *w, int npos, const tok *key, const tok *val, int nkv,
                      int line, hs_mb_error *err)
{
    hs_mb_desc *D = &st->desc;
    const hs_status E = HS_E_MODEL_PARAM;
    const tok kw = w[0];
    const int i = D->nstops;
    if (i >= HS_MB_MAX_STOPS) { return fail_cap(st, err, line, kw, "end stops", "HS_MB_MAX_STOPS", HS_MB_MAX_STOPS); }
    hs_mb_stop *S = &st->stops[i];
    static const hs_mb_stop zero = {0};
    *S = zero;
    S->joint = -1;
    if (npos != 2 || copy_name(S->name, w[1]) == 0) { return fail(err, line, kw, "expected: stop NAME joint=JOINT [min=V] [max=V] [e=E]", E); }
    if (find_stop(st, w[1]) >= 0) { return fail(err, line, w[1], "stop name already used", E); }
    for (int k = 0; k < nkv; ++k) {
        if (tok_eq(key[k], "joint") != 0) {
            S->joint = find_joint(st, val[k]);
            if (S->joint < 0) { return fail(err, line, key[k], "no such joint (declare it above)", E); }
            const hs_mb_joint_kind jk = st->joints[S->joint].kind;
            if (jk != HS_MB_REVOLUTE && jk != HS_MB_PRISMATIC) { return fail(err, line, key[k], "an end stop needs a revolute or prismatic joint", E); }
        } else if (tok_eq(key[k], "min") != 0) {
            S->has_min = 1;
            if (read_vec(st, val[k], &S->min, 1) != 1) { return fail_val(st, err, line, key[k], "expected a number (rad or m)"); }
        } else if (tok_eq(key[k], "max") != 0) {
            S->has_max = 1;
            if (read_vec(st, val[k], &S->max, 1) != 1) { return fail_val(st, err, line, key[k], "expected a number (rad or m)"); }
        } else if (tok_eq(key[k], "e") != 0) {
            if (read_vec(st, val[k], &S->e, 1) != 1 || !(S->e >= HS_R(0.0)) || !(S->e <= HS_R(1.0))) { return fail_val(st, err, line, key[k], "expected a restitution coefficient in [0, 1]"); }
        } else { return fail(err, line, key[k], "unknown key (joint, min, max, e)", E); }
    }
    if (S->joint < 0) { return fail(err, line, kw, "joint=JOINT is required", E); }
    if (S->has_min == 0 && S->has_max == 0) { return fail(err, line, kw, "min= and/or max= is required", E); }
    if (S->has_min != 0 && S->has_max != 0 && !(S->min < S->max)) { return fail(err, line, lit("max"), "min < max required", E); }
    st->stop_line[i] = line;
    D->nstops = i + 1;
    return HS_OK;
}

/* param NAME = EXPRESSION (blanks allowed), or NAME=EXPRESSION: evaluated now, in double; a
 * --param override of the name replaces the value. */
static hs_status parse_param(hs_mb_store *st, const tok *w, int nw, int line, hs_mb_error *err)
{
    const hs_mb_desc *D = &st->desc;
    const tok kw = w[0];
    const hs_status E = HS_E_MODEL_PARAM;
    if (D->dim == 0) { return fail(err, line, kw, "the first statement must be: model NAME dim=2|3", E); }
    if (st->nparams >= HS_MB_MAX_PARAMS) { return fail_cap(st, err, line, kw, "params", "HS_MB_MAX_PARAMS", HS_MB_MAX_PARAMS); }
    static char expr[HS_MB_MAX_LINE];
    int n = 0;
    for (int i = 1; i < nw; ++i) {
        for (int j = 0; j < w[i].n; ++j) { expr[n] = w[i].s[j]; ++n; }
        if (i + 1 < nw) { expr[n] = ' '; ++n; }
    }
    int eq = 0;
    while (eq < n && expr[eq] != '=') { ++eq; }
    int ne = eq;
    while (ne > 0 && expr[ne - 1] == ' ') { --ne; }
    tok nm = {expr, ne};
    const int k = st->nparams;
    if (eq >= n || copy_name(st->param_names[k], nm) == 0 || is_alpha(expr[0]) == 0) {
        return fail(err, line, kw, "expected: param NAME = VALUE (NAME: a letter or '_' first)", E);
    }
    for (int i = 0; i < nm.n; ++i) {
        if (expr[i] == '-') { return fail(err, line, kw, "a param name has no '-'", E); }
    }
    if (ne == 0) { return fail(err, line, kw, "expected: param NAME = VALUE", E); }
    for (int i = 0; i < k; ++i) {
        if (name_is(st->param_names[i], nm) != 0) { return fail(err, line, nm, "param already defined", E); }
    }
    double v = 0.0;
    st->ewhy = NULL; st->ename[0] = 0;
    if (eval_d(st, &expr[eq + 1], n - eq - 1, &v) == 0) { return fail_val(st, err, line, nm, "bad value"); }
    for (int i = 0; st->ovr != NULL && i < st->ovr->n; ++i) {
        if (name_is(st->ovr->name[i], nm) != 0) { v = st->ovr->value[i]; st->ovr_used[i] = 1; }
    }
    st->param_val[k] = v;
    st->param_line[k] = line;
    st->nparams = k + 1;
    return HS_OK;
}

/* The key=value fields after the positional words of w: *npos positional words (the keyword
 * included), *nkv pairs into key and val, each key once. */
static hs_status split_keys(const tok *w, int nw, int *npos_out, tok *key, tok *val, int *nkv_out, int line,
                      hs_mb_error *err)
{
    const hs_status E = HS_E_MODEL_PARAM;
    int npos = 1;
    while (npos < nw) {
        int eq = 0;
        /* MISRA Ref 10.4.2 [character code vs character constant] */
        for (int i = 0; i < w[npos].n; ++i) { if (w[npos].s[i] == '=') { eq = 1; } }
        if (eq != 0) { break; }
        ++npos;
    }
    int nkv = 0;
    for (int i = npos; i < nw; ++i) {
        int eq = 0;
        /* MISRA Ref 10.4.2 [character code vs character constant] */
        while (eq < w[i].n && w[i].s[eq] != '=') { ++eq; }
        if (eq == w[i].n || eq == 0) { return fail(err, line, w[i], "expected key=value", E); }
        key[nkv].s = w[i].s; key[nkv].n = eq;
        val[nkv].s = &w[i].s[eq + 1]; val[nkv].n = w[i].n - eq - 1;
        for (int j = 0; j < nkv; ++j) {
            int same = (int)(key[j].n == eq);
            for (int c = 0; same != 0 && c < eq; ++c) { if (key[j].s[c] != key[nkv].s[c]) { same = 0; } }
            if (same != 0) { return fail(err, line, key[nkv], "key given twice", E); }
        }
        ++nkv;
    }
    *npos_out = npos;
    *nkv_out = nkv;
    return HS_OK;
}

/* model NAME dim=2|3 [nin=N]: the first statement. */
static hs_status parse_model(hs_mb_store *st, const tok *w, int npos, const tok *key, const tok *val, int nkv,
                       int line, hs_mb_error *err)
{
    hs_mb_desc *D = &st->desc;
    const tok kw = w[0];
    const hs_status E = HS_E_MODEL_PARAM;
    if (D->dim != 0) { return fail(err, line, kw, "second model statement", E); }
    if (npos != 2 || copy_name(st->name, w[1]) == 0) { return fail(err, line, kw, "expected: model NAME dim=2|3", E); }
    for (int k = 0; k < nkv; ++k) {
        int v = 0;
        if (tok_eq(key[k], "dim") != 0 && read_int(st, val[k], 2, 3, &v) != 0) { D->dim = v; }
        else if (tok_eq(key[k], "nin") != 0 && read_int(st, val[k], 0, HS_MB_MAX_NIN, &v) != 0) { D->nin = v; }
        else { return fail(err, line, key[k], "unknown key or bad value (dim=2|3, nin=0..16)", E); }
    }
    if (D->dim == 0) { return fail(err, line, kw, "dim=2|3 is required", E); }
    return HS_OK;
}

/* gravity gx,gy[,gz] (m/s^2). */
static hs_status parse_gravity(hs_mb_store *st, const tok *w, int npos, const tok *key, const tok *val, int nkv,
                         int line, hs_mb_error *err)
{
    hs_mb_desc *D = &st->desc;
    const tok kw = w[0];
    (void)key; (void)val;
    if (npos != 2 || nkv != 0 || read_vec(st, w[1], D->gravity, 3) != D->dim) { return fail_val(st, err, line, kw, "expected: gravity gx,gy[,gz] (dim values, m/s^2)"); }
    return HS_OK;
}

/* input NAME [unit=U] [min=..] [max=..] [fallback=..] [stale=N]: a declared input signal. */
static hs_status parse_input(hs_mb_store *st, const tok *w, int npos, const tok *key, const tok *val, int nkv,
                       int line, hs_mb_error *err)
{
    hs_mb_desc *D = &st->desc;
    const tok kw = w[0];
    const hs_status E = HS_E_MODEL_PARAM;
    const int i = st->ninputs;
    if (i >= HS_MB_MAX_NIN) { return fail_cap(st, err, line, kw, "inputs", "HS_MB_MAX_NIN", HS_MB_MAX_NIN); }
    if (D->nin > st->ninputs) { return fail(err, line, kw, "the model line's nin= and input lines exclude each other", E); }
    hs_mb_signal *S = &st->in_sig[i];
    signal_default(S, "1", 1);
    if (npos != 2 || copy_name(S->name, w[1]) == 0) { return fail(err, line, kw, "expected: input NAME [unit=U] [min=V] [max=V] [fallback=V] [stale=FRAMES]", E); }
    if (find_input(st, w[1]) >= 0 || find_output_sig(st, w[1]) >= 0) { return fail(err, line, w[1], "signal name already used", E); }
    for (int k = 0; k < nkv; ++k) {
        int ok = 0;
        if (signal_key(st, key[k], val[k], S, 1, &ok) == 0) { return fail(err, line, key[k], "unknown key (unit, min, max, fallback, stale)", E); }
        if (ok == 0) { return fail_val(st, err, line, key[k], "bad value"); }
    }
    {
        const hs_status rc = signal_range(S, line, err);
        if (rc != HS_OK) { return rc; }
    }
    st->in_line[i] = line;
    st->ninputs = i + 1;
    D->nin = st->ninputs;
    D->inputs = st->in_sig;
    return HS_OK;
}

/* point NAME at=x,y[,z] [fx=..] [fy=..] [fz=..] [circle=R]: a named ground point, fixed or moving. */
static hs_status parse_point(hs_mb_store *st, const tok *w, int npos, const tok *key, const tok *val, int nkv,
                       int line, hs_mb_error *err)
{
    hs_mb_desc *D = &st->desc;
    const tok kw = w[0];
    const hs_status E = HS_E_MODEL_PARAM;
    if (st->npoints >= HS_MB_MAX_POINTS) { return fail_cap(st, err, line, kw, "named points", "HS_MB_MAX_POINTS", HS_MB_MAX_POINTS); }
    if (npos != 2 || copy_name(st->point_names[st->npoints], w[1]) == 0) { return fail(err, line, kw, "expected: point NAME at=x,y[,z] [fx=..] [fy=..] [fz=..] [circle=R]", E); }
    if (body_or_point_taken(st, w[1]) != 0) { return fail(err, line, w[1], "name already used by a body or point", E); }
    hs_mb_point *p = &st->points[st->npoints];
    static const hs_mb_point zero = {0};
    *p = zero;
    p->body = HS_MB_GROUND;
    for (int k = 0; k < nkv; ++k) {
        if (tok_eq(key[k], "at") != 0) { if (read_vec(st, val[k], p->s, 3) != D->dim) { return fail_val(st, err, line, key[k], "expected dim numbers"); } }
        else if (tok_eq(key[k], "fx") != 0 || tok_eq(key[k], "fy") != 0 || tok_eq(key[k], "fz") != 0) {
            /* MISRA Ref 10.4.2 [character code vs character constant] */
            const int i = key[k].s[1] - 'x';
            if (i >= D->dim || read_fn(st, val[k], &p->f[i]) == 0) { return fail_val(st, err, line, key[k], "expected a,b,c,w,phi: a + b t + c sin(w t + phi)"); }
            if (p->moving == 0) { p->moving = 1; }
        } else if (tok_eq(key[k], "circle") != 0) {
            if (read_vec(st, val[k], &p->radius, 1) != 1 || !(p->radius > HS_R(0.0))) { return fail_val(st, err, line, key[k], "expected a radius > 0"); }
            p->moving = 2;
        } else { return fail(err, line, key[k], "unknown key", E); }
    }
    ++st->npoints;
    return HS_OK;
}

/* The values a body must have to be physically possible, each refusal named by its key. */
static hs_status body_check(const hs_mb_body *B, int have_mass, int have_inertia, tok kw, int line, hs_mb_error *err)
{
    const hs_status E = HS_E_MODEL_PARAM;
    /* physically possible values, named by their key */
    if (have_mass == 0 || !(B->mass > HS_R(0.0))) { return fail(err, line, have_mass ? lit("mass") : kw, "mass must be given and > 0 (kg)", E); }
    if (B->kind == HS_MB_PLANAR && (have_inertia == 0 || !(B->inertia[2] > HS_R(0.0)))) {
        return fail(err, line, have_inertia ? lit("inertia") : kw, "a planar body needs inertia=Izz > 0 (kg m^2)", E);
    }
    if (B->kind == HS_MB_SPATIAL) {
        const hs_real *J = B->inertia;
        if (have_inertia == 0 || !(J[0] > HS_R(0.0) && J[1] > HS_R(0.0) && J[2] > HS_R(0.0))) {
            return fail(err, line, have_inertia ? lit("inertia") : kw, "a spatial body needs inertia=Jxx,Jyy,Jzz, each > 0 (positive definite)", E);
        }
        /* principal moments of a real mass distribution obey the triangle inequality */
        const hs_real slack = HS_R(1e-9) * (J[0] + J[1] + J[2]);
        if (J[0] + J[1] < J[2] - slack || J[1] + J[2] < J[0] - slack || J[0] + J[2] < J[1] - slack) {
            return fail(err, line, lit("inertia"), "principal moments violate Jxx + Jyy >= Jzz (and its permutations)", E);
        }
        const hs_real pn = B->rot[0] * B->rot[0] + B->rot[1] * B->rot[1] + B->rot[2] * B->rot[2] + B->rot[3] * B->rot[3];
        if (!(hs_abs(pn - HS_R(1.0)) < HS_R(1e-6))) { return fail(err, line, lit("quat"), "not a unit quaternion (|p|^2 within 1e-6 of 1)", E); }
    }
    return HS_OK;
}

/* body NAME planar|spatial|point2|point3 mass=M ...: a rigid body and its initial state. */
static hs_status parse_body(hs_mb_store *st, const tok *w, int npos, const tok *key, const tok *val, int nkv,
                      int line, hs_mb_error *err)
{
    hs_mb_desc *D = &st->desc;
    const tok kw = w[0];
    const hs_status E = HS_E_MODEL_PARAM;
    const int b = D->nbodies;
    if (b >= HS_MB_MAX_BODIES) { return fail_cap(st, err, line, kw, "bodies", "HS_MB_MAX_BODIES", HS_MB_MAX_BODIES); }
    hs_mb_body *B = &st->bodies[b];
    static const hs_mb_body zero = {0};
    *B = zero;
    if (npos != 3 || copy_name(B->name, w[1]) == 0) { return fail(err, line, kw, "expected: body NAME planar|spatial|point2|point3 mass=M ...", E); }
    if (body_or_point_taken(st, w[1]) != 0) { return fail(err, line, w[1], "name already used", E); }
    if (tok_eq(w[2], "planar") != 0) { B->kind = HS_MB_PLANAR; }
    else if (tok_eq(w[2], "spatial") != 0) { B->kind = HS_MB_SPATIAL; }
    else if (tok_eq(w[2], "point2") != 0) { B->kind = HS_MB_POINT2; }
    else if (tok_eq(w[2], "point3") != 0) { B->kind = HS_MB_POINT3; }
    else { return fail(err, line, w[2], "unknown body kind (planar|spatial|point2|point3)", E); }
    B->rot[0] = B->kind == HS_MB_SPATIAL ? HS_R(1.0) : HS_R(0.0);
    int nt = 3;
    if (B->kind == HS_MB_PLANAR || B->kind == HS_MB_POINT2) { nt = 2; }
    int have_mass = 0, have_inertia = 0;
    for (int k = 0; k < nkv; ++k) {
        int ok;
        if (tok_eq(key[k], "mass") != 0) { ok = (int)(read_vec(st, val[k], &B->mass, 1) == 1); have_mass = 1; }
        else if (tok_eq(key[k], "inertia") != 0) {
            have_inertia = 1;
            if (B->kind == HS_MB_PLANAR) { ok = (int)(read_vec(st, val[k], &B->inertia[2], 1) == 1); }
            else { ok = (int)(B->kind == HS_MB_SPATIAL && read_vec(st, val[k], B->inertia, 3) == 3); }
        } else if (tok_eq(key[k], "pos") != 0) { ok = (int)(read_vec(st, val[k], B->pos, 3) == nt); }
        else if (tok_eq(key[k], "vel") != 0) { ok = (int)(read_vec(st, val[k], B->vel, 3) == nt); }
        else if (tok_eq(key[k], "angle") != 0) { ok = (int)(B->kind == HS_MB_PLANAR && read_vec(st, val[k], B->rot, 1) == 1); }
        else if (tok_eq(key[k], "quat") != 0) { ok = (int)(B->kind == HS_MB_SPATIAL && read_vec(st, val[k], B->rot, 4) == 4); }
        else if (tok_eq(key[k], "omega") != 0) {
            if (B->kind == HS_MB_PLANAR) { ok = (int)(read_vec(st, val[k], &B->omega[2], 1) == 1); }
            else { ok = (int)(B->kind == HS_MB_SPATIAL && read_vec(st, val[k], B->omega, 3) == 3); }
        } else { return fail(err, line, key[k], "unknown key (mass, inertia, pos, vel, angle, quat, omega)", E); }
        if (ok == 0) { return fail_val(st, err, line, key[k], "wrong count or bad number for this body kind"); }
    }
    {
        const hs_status rc = body_check(B, have_mass, have_inertia, kw, line, err);
        if (rc != HS_OK) { return rc; }
    }
    st->body_line[b] = line;
    D->nbodies = b + 1;
    return HS_OK;
}

/* solver sweeps=N: projected Gauss-Seidel sweeps per step of the contact stage. */
static hs_status parse_solver(hs_mb_store *st, const tok *w, int npos, const tok *key, const tok *val, int nkv,
                        int line, hs_mb_error *err)
{
    hs_mb_desc *D = &st->desc;
    const tok kw = w[0];
    const hs_status E = HS_E_MODEL_PARAM;
    (void)w; (void)val;
    /* A second solver line used to win silently; the description states its solver once. */
    if (D->ct_sweeps != 0) {
        return fail(err, line, kw, "a second solver line: give the solver once per description", E);
    }
    if (npos != 1 || nkv != 1 || tok_eq(key[0], "sweeps") == 0 || read_int(st, val[0], 1, 1000, &D->ct_sweeps) == 0) {
        return fail(err, line, kw, "expected: solver sweeps=N (1..1000 projected Gauss-Seidel sweeps per step)", E);
    }
    return HS_OK;
}

/* The pass that reads one kind of statement after the model line. */
typedef hs_status (*stmt_fn)(hs_mb_store *st, const tok *w, int npos, const tok *key, const tok *val,
                             int nkv, int line, hs_mb_error *err);

/* One statement of nw words: param (its own syntax), else keyword, positional words and
 * key=value pairs, read by the statement's pass. */
static hs_status parse_line(hs_mb_store *st, tok *w, int nw, int line, hs_mb_error *err)
{
    /* every statement after the model line: its keyword and its pass */
    static const struct { const char *kw; stmt_fn fn; } STATEMENTS[] = {
        {"gravity", parse_gravity}, {"input", parse_input}, {"point", parse_point}, {"body", parse_body},
        {"joint", parse_joint}, {"force", parse_force}, {"output", parse_output}, {"shape", parse_shape},
        {"contact", parse_contact}, {"stop", parse_stop}, {"solver", parse_solver}};
    const hs_mb_desc *D = &st->desc;
    const tok kw = w[0];
    const hs_status E = HS_E_MODEL_PARAM;
    if (tok_eq(kw, "param") != 0) { return parse_param(st, w, nw, line, err); }
    tok key[MAXTOK], val[MAXTOK];
    int npos = 1, nkv = 0;
    {
        const hs_status rc = split_keys(w, nw, &npos, key, val, &nkv, line, err);
        if (rc != HS_OK) { return rc; }
    }
    st->ewhy = NULL; st->ename[0] = 0;
    if (tok_eq(kw, "model") != 0) { return parse_model(st, w, npos, key, val, nkv, line, err); }
    if (D->dim == 0) { return fail(err, line, kw, "the first statement must be: model NAME dim=2|3", E); }
    /* MISRA Ref 10.8.1 [table length, compile-time constant] */
    for (int i = 0; i < (int)(sizeof STATEMENTS / sizeof STATEMENTS[0]); ++i) {
        if (tok_eq(kw, STATEMENTS[i].kw) != 0) { return STATEMENTS[i].fn(st, w, npos, key, val, nkv, line, err); }
    }
    return fail(err, line, kw, "unknown statement (model, param, gravity, input, point, body, joint, force, output, shape, contact, stop, solver)", E);
}

hs_status hs_mb_parse_ovr(const char *buf, size_t len, hs_mb_store *st, const hs_mb_overrides *ovr,
                    hs_mb_error *err)
{
    static const hs_mb_desc zero_desc = {0};
    static const tok none = {"", 0};
    if (buf == NULL || st == NULL || err == NULL) { return HS_E_NULL; }
    err->status = HS_OK; err->index = -1;
    err->line = 0; err->field[0] = 0; err->msg = ""; err->detail[0] = 0; err->has_value = 0; err->value = 0.0;
    st->name[0] = 0;
    st->npoints = 0;
    st->nparams = 0;
    st->ninputs = 0;
    st->ovr = ovr;
    st->ewhy = NULL;
    st->ename[0] = 0;
    st->cap_name = NULL;
    st->nwarn = 0;
    if (ovr != NULL && (ovr->n < 0 || ovr->n > HS_MB_MAX_OVERRIDES)) { return fail(err, 0, lit("--param"), "too many overrides", HS_E_SIZE); }
    for (int i = 0; i < HS_MB_MAX_OVERRIDES; ++i) { st->ovr_used[i] = 0; }
    st->desc = zero_desc;
    st->desc.bodies = st->bodies; st->desc.joints = st->joints;
    st->desc.forces = st->forces; st->desc.outputs = st->outputs;
    st->desc.shapes = st->shapes; st->desc.contacts = st->contacts; st->desc.stops = st->stops;
    size_t i = 0;
    int line = 0;
    while (i < len) {
        ++line;
        size_t e = i;
        while (e < len && buf[e] != '\n') { ++e; }
        if (e - i > (size_t)HS_MB_MAX_LINE) { return fail(err, line, none, "line too long", HS_E_SIZE); }
        tok w[MAXTOK];
        int nw = 0;
        size_t k = i;
        while (k < e) {
            const char c = buf[k];
            if (c == '#') { break; }
            if (c == ' ' || c == '\t' || c == '\r') { ++k; continue; }
            if ((unsigned char)c < 32u || (unsigned char)c > 126u) { return fail(err, line, none, "character outside printable ASCII", HS_E_MODEL_PARAM); }
            size_t a = k;
            while (k < e && buf[k] != ' ' && buf[k] != '\t' && buf[k] != '\r' && buf[k] != '#') {
                if ((unsigned char)buf[k] < 32u || (unsigned char)buf[k] > 126u) { return fail(err, line, none, "character outside printable ASCII", HS_E_MODEL_PARAM); }
                ++k;
            }
            if (nw >= MAXTOK) { return fail(err, line, none, "too many words on one line", HS_E_SIZE); }
            /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
            w[nw].s = &buf[a]; w[nw].n = (int)(k - a);
            ++nw;
        }
        if (nw > 0) {
            hs_status rc = parse_line(st, w, nw, line, err);
            if ((rc != HS_OK) && (st->cap_name != NULL)) { cap_text(st, buf, len, i, err); }
            if (rc != HS_OK) { return rc; }
        }
        i = e + 1u;
    }
    if (st->desc.dim == 0) { return fail(err, line, none, "no 'model NAME dim=2|3' statement", HS_E_MODEL_PARAM); }
    if (st->desc.nbodies == 0) { return fail(err, line, none, "no bodies", HS_E_MODEL_PARAM); }
    for (int k = 0; ovr != NULL && k < ovr->n; ++k) {
        if (st->ovr_used[k] == 0) {
            err->line = 0;
            int n = 0;
            /* MISRA Ref 10.4.2 [a --param name's character vs its terminator '\0'] */
            for (; ovr->name[k][n] != '\0' && n < (int)sizeof err->field - 1 && n < HS_MB_NAME - 1; ++n) { err->field[n] = ovr->name[k][n]; }
            err->field[n] = 0;
            err->msg = "--param names no param of this description";
            return HS_E_MODEL_PARAM;
        }
    }
    st->desc.name = st->name;
    return HS_OK;
}

hs_status hs_mb_parse(const char *buf, size_t len, hs_mb_store *st, hs_mb_error *err)
{
    return hs_mb_parse_ovr(buf, len, st, NULL, err);
}

/* ---- checks against the joints (host: the store holds the scratch) ---- */

/* The source line and name of constraint row r's element (a joint, or a spatial body's norm row). */
static void row_owner(const hs_mb_store *st, const hs_mb_model *mb, int r, int *line, const char **name)
{
    const int j = mb->rows[r].joint;
    if (j >= 0) { *line = st->joint_line[j]; *name = st->joints[j].name; }
    else { *line = st->body_line[mb->rows[r].body]; *name = st->bodies[mb->rows[r].body].name; }
}

static hs_status fail_row(const hs_mb_store *st, const hs_mb_model *mb, int r, hs_mb_error *err, const char *msg)
{
    int line = 0;
    const char *name = "";
    row_owner(st, mb, r, &line, &name);
    return fail(err, line, lit(name), msg, HS_E_MODEL_PARAM);
}

/* 1 when row r belongs to a joint declared compliant (compliance > 0). */
static int row_compliant(const hs_mb_store *st, const hs_mb_model *mb, int r)
{
    const int j = mb->rows[r].joint;
    return (j >= 0) && (st->joints[j].has_comp != 0) && (st->joints[j].compliance > HS_R(0.0));
}

/* First row of G (nc x nq, dense) that depends on the rows before it (modified Gram-Schmidt
 * with the combination tracked in C), or -1; coef gets its combination (nc). A dependency
 * whose combination includes a compliant row is carried by the regularization (the step
 * matrix stays nonsingular, [L1] eq. 3.7): that row is skipped and the search goes on. */
static int dependent_row(hs_mb_store *st, const hs_mb_model *mb, int nc, int nq, hs_real **coef, int *nbasis, int from)
{
    hs_real *G = st->chk_G, *B = st->chk_B, *C = st->chk_C;
    /* from > 0 goes on with the basis of the rows before it (*nbasis vectors) */
    int nb = (from > 0) ? *nbasis : 0;
    for (int r = from; r < nc; ++r) {
        hs_real *v = &B[nb * nq], *c = &C[nb * nc];
        hs_real n0 = HS_R(0.0);
        for (int j = 0; j < nq; ++j) { v[j] = G[r * nq + j]; n0 += v[j] * v[j]; }
        for (int i = 0; i < nc; ++i) { c[i] = i == r ? HS_R(1.0) : HS_R(0.0); }
        for (int k = 0; k < nb; ++k) {
            const hs_real *bk = &B[k * nq], *ck = &C[k * nc];
            hs_real d = HS_R(0.0);
            for (int j = 0; j < nq; ++j) { d += v[j] * bk[j]; }
            for (int j = 0; j < nq; ++j) { v[j] -= d * bk[j]; }
            for (int i = 0; i < nc; ++i) { c[i] -= d * ck[i]; }
        }
        hs_real n1 = HS_R(0.0);
        for (int j = 0; j < nq; ++j) { n1 += v[j] * v[j]; }
        if (!(n1 > HS_R(1e-18) * n0) || !(n0 > HS_R(0.0))) {
            /* G_r = sum of the earlier rows with weights -c (c[r] = 1) */
            hs_real big = HS_R(0.0);
            for (int i = 0; i <= r; ++i) { if (hs_abs(c[i]) > big) { big = hs_abs(c[i]); } }
            int carried = 0;
            for (int i = 0; i <= r; ++i) {
                if ((hs_abs(c[i]) > HS_R(1e-6) * big) && (row_compliant(st, mb, i) != 0)) { carried = 1; }
            }
            if ((carried != 0) || (coef == NULL)) { continue; }
            *coef = c;
            *nbasis = nb;
            return r;
        }
        const hs_real s = HS_R(1.0) / hs_sqrt(n1);
        for (int j = 0; j < nq; ++j) { v[j] *= s; }
        for (int i = 0; i < nc; ++i) { c[i] *= s; }
        ++nb;
    }
    *nbasis = nb;
    return -1;
}

/* st->chk_q (at q0, G there in st->chk_G) moved along the mechanism: a step t = 0.05 times a
 * pseudo-random direction projected onto the tangent space (G t = 0), then Gauss-Newton steps
 * back onto g = 0 on the rows' orthonormal basis B = C G (dependent rows skipped: on the
 * manifold they hold with the others), dq = -B^T C g; at most 20. HS_OK when g is within the
 * initial check's tolerance and two more steps are taken (quadratic convergence: from 1e-6 to
 * rounding), so a dependency that holds on the manifold only, not near it (Bricard's loop,
 * model/mech/iftomm/a04_bricard.hsm), shows at rounding level as it does at q0; st->chk_G is
 * then G there. */
static hs_status move_on_manifold(hs_mb_store *st, hs_mb_model *mb)
{
    const int nq = mb->nq, nc = mb->nc;
    hs_real *B = st->chk_B, *C = st->chk_C, *q = st->chk_q, *t = st->chk_u, *g = st->chk_g;
    int nb = 0;
    (void)dependent_row(st, mb, nc, nq, NULL, &nb, 0);
    uint32_t x = 2463534242u;
    for (int j = 0; j < nq; ++j) {
        x ^= x << 13; x ^= x >> 17; x ^= x << 5;
        /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
        t[j] = HS_R(0.05) * ((hs_real)(x % 2001u) / HS_R(1000.0) - HS_R(1.0));
    }
    for (int b = 0; b < nb; ++b) {
        hs_real d = HS_R(0.0);
        for (int j = 0; j < nq; ++j) { d += B[b * nq + j] * t[j]; }
        for (int j = 0; j < nq; ++j) { t[j] -= d * B[b * nq + j]; }
    }
    for (int j = 0; j < nq; ++j) { q[j] += t[j]; }
    int polish = 0;
    for (int it = 0; it < 20; ++it) {
        if (mb_constraint(mb, HS_R(0.0), q, g, st->chk_G, NULL) != HS_OK) { return HS_E_MODEL_PARAM; }
        int ok = 1;
        for (int r = 0; r < nc; ++r) {
            if (!(hs_abs(g[r]) <= (hs_real)HS_MB_INIT_TOL * (HS_R(1.0) + hs_abs(mb->rows[r].value)))) { ok = 0; }
        }
        polish = (ok != 0) ? polish + 1 : 0;
        if (polish > 2) { return HS_OK; }
        (void)dependent_row(st, mb, nc, nq, NULL, &nb, 0);
        for (int b = 0; b < nb; ++b) {
            hs_real a = HS_R(0.0);
            for (int i = 0; i < nc; ++i) { a -= C[b * nc + i] * g[i]; }
            for (int j = 0; j < nq; ++j) { q[j] += a * B[b * nq + j]; }
        }
    }
    return HS_E_MODEL_PARAM;
}

/* The initial state against the joints: positions g within tol (1 + |set value|), velocities
 * G u + g_t within tol (1 + |G_r| |u|); G (dense) at q0 is left in st->chk_G. */
static hs_status check_initial(hs_mb_store *st, hs_mb_model *mb, hs_mb_error *err)
{
    const int nq = mb->nq, nc = mb->nc;
    hs_model m;
    if (hs_mb_model_init(&m, mb) != HS_OK) { return HS_OK; /* compile's own error stands */ }
    (void)mb->type.initial(&m, HS_R(0.0), st->chk_q, st->chk_u, NULL);
    hs_status rc = mb_constraint(mb, HS_R(0.0), st->chk_q, st->chk_g, st->chk_G, st->chk_gt);
    if (rc != HS_OK) { return fail(err, 0, lit("joint"), "constraints not evaluable at the initial state", HS_E_MODEL_PARAM); }
    for (int r = 0; r < nc; ++r) {
        const hs_real tol = (hs_real)HS_MB_INIT_TOL * (HS_R(1.0) + hs_abs(mb->rows[r].value));
        if (!(hs_abs(st->chk_g[r]) <= tol)) {
            err->has_value = 1; err->value = (double)st->chk_g[r];
            detail_add(err, "constraint residual g =");
            return fail_row(st, mb, r, err, "the initial positions violate this joint (refused, not projected: put the bodies' pos/angle/quat on it)");
        }
    }
    for (int r = 0; r < nc; ++r) {
        hs_real s = st->chk_gt[r], a = HS_R(0.0);
        for (int j = 0; j < nq; ++j) { s += st->chk_G[r * nq + j] * st->chk_u[j]; a += hs_abs(st->chk_G[r * nq + j] * st->chk_u[j]); }
        if (!(hs_abs(s) <= (hs_real)HS_MB_INIT_TOL * (HS_R(1.0) + a))) {
            err->has_value = 1; err->value = (double)s;
            detail_add(err, "velocity residual G u + g_t =");
            return fail_row(st, mb, r, err, "the initial velocities violate this joint (refused, not projected: make vel/omega tangent to it)");
        }
    }
    return HS_OK;
}

/* The joints of row dep's dependency (coef), one name each, space-separated, into out (cap). */
static void dependency_names(const hs_mb_store *st, const hs_mb_model *mb, int dep, const hs_real *coef, char *out, int cap)
{
    hs_real big = HS_R(0.0);
    int n = 0;
    out[0] = 0;
    for (int i = 0; i < dep; ++i) { if (hs_abs(coef[i]) > big) { big = hs_abs(coef[i]); } }
    for (int i = 0; i < dep; ++i) {
        if (!(hs_abs(coef[i]) > HS_R(1e-6) * big)) { continue; }
        int line = 0;
        const char *name = "";
        row_owner(st, mb, i, &line, &name);
        int dup = 0; /* one name per joint */
        for (int k = 0; k < i; ++k) {
            if (!(hs_abs(coef[k]) > HS_R(1e-6) * big)) { continue; }
            int l2 = 0;
            const char *n2 = "";
            row_owner(st, mb, k, &l2, &n2);
            if (n2 == name) { dup = 1; }
        }
        if (dup != 0) { continue; }
        if (n < cap - 1) { out[n] = ' '; ++n; }
        for (int c = 0; name[c] != '\0' && n < cap - 1; ++c) { out[n] = name[c]; ++n; }
        out[n] = 0;
    }
}

/* Row dep's index among the rows built (desc->row_drop's index): the kept ones counted, the
 * left-out ones skipped; -1 past the mask. */
static int made_index(const hs_mb_store *st, int dep)
{
    int kept = -1;
    for (int k = 0; k < HS_MB_MAX_NC; ++k) {
        if ((k < st->desc.nrow_made) && (st->row_drop[k] != 0u)) { continue; }
        ++kept;
        if (kept == dep) { return k; }
    }
    return -1;
}

/* Appends text t to o (cap bytes, *n used), cut at the end. */
static void txt_add(char *o, int cap, int *n, const char *t)
{
    for (int c = 0; t[c] != '\0' && *n < cap - 1; ++c) { o[*n] = t[c]; ++*n; }
    o[*n] = 0;
}

/* Adds to the space-led name list d (cap bytes) each name of the list add it lacks. */
static void deps_union(char *d, int cap, const char *add)
{
    int n = 0;
    while (d[n] != '\0') { ++n; }
    int i = 0;
    while (add[i] != '\0') {
        int e = i + 1;
        while ((add[e] != '\0') && (add[e] != ' ')) { ++e; }
        int have = 0; /* " name" at a name's start in d, ending at a space or the end */
        for (int k = 0; (k < n) && (have == 0); ++k) {
            int m = 0;
            while ((i + m < e) && (k + m < n) && (d[k + m] == add[i + m])) { ++m; }
            if ((i + m == e) && ((k + m == n) || (d[k + m] == ' ')) && (d[k] == ' ')) { have = 1; }
        }
        for (int c = i; (have == 0) && (c < e) && (n < cap - 1); ++c) { d[n] = add[c]; ++n; }
        d[n] = 0;
        i = e;
    }
}

/* Records the removal of row dep (its joint, the joints it depends on) as a warning: one per
 * joint and dependency, counting its rows. */
static void warn_removed(hs_mb_store *st, const hs_mb_model *mb, int dep, const char *names)
{
    const int j = mb->rows[dep].joint;
    int w = st->nwarn - 1;
    const int same = (int)((w >= 0) && (w < HS_MB_MAX_WARN) && (st->warn_joint[w] == j));
    if (same != 0) { deps_union(st->warn_deps[w], (int)sizeof st->warn_deps[w], names); }
    else {
        w = st->nwarn;
        ++st->nwarn;
        if (w >= HS_MB_MAX_WARN) { return; /* counted: the loader says how many more */ }
        st->warn_joint[w] = j;
        st->warn_rows[w] = 0;
        st->warn_line[w] = st->joint_line[j];
        int nd = 0;
        st->warn_deps[w][0] = 0;
        txt_add(st->warn_deps[w], (int)sizeof st->warn_deps[w], &nd, names);
    }
    ++st->warn_rows[w];
    const int one = (int)(st->warn_rows[w] == 1);
    static const char dig[] = "0123456789";
    char num[4] = {0, 0, 0, 0};
    /* at most HS_MB_MAX_ROWS rows of one joint: two digits */
    num[0] = dig[(st->warn_rows[w] / 10) % 10];
    num[1] = dig[st->warn_rows[w] % 10];
    const char *digits = (st->warn_rows[w] < 10) ? &num[1] : num;
    int n = 0;
    char *o = st->warn[w];
    const int cap = (int)sizeof st->warn[w];
    o[0] = 0;
    txt_add(o, cap, &n, "joint '");
    txt_add(o, cap, &n, st->joints[j].name);
    txt_add(o, cap, &n, "': ");
    txt_add(o, cap, &n, digits);
    txt_add(o, cap, &n, (one != 0) ? " redundant row removed (it depends on:" : " redundant rows removed (they depend on:");
    txt_add(o, cap, &n, st->warn_deps[w]);
    txt_add(o, cap, &n, (one != 0) ? "; the rows kept take its reaction; compliance= on one of these joints keeps it, regularized)"
                                   : "; the rows kept take their reaction; compliance= on one of these joints keeps them, regularized)");
}

/* The joint row a dependency found at row r (combination c) is blamed on: r itself, or when
 * r is a quaternion norm row, the last joint row in the combination; -1 none. */
static int blamed_row(const hs_mb_model *mb, int r, const hs_real *c)
{
    if (mb->rows[r].joint >= 0) { return r; }
    hs_real top = HS_R(0.0);
    for (int i = 0; i < r; ++i) { if (hs_abs(c[i]) > top) { top = hs_abs(c[i]); } }
    int last = -1;
    for (int i = 0; i < r; ++i) {
        if ((mb->rows[i].joint >= 0) && (hs_abs(c[i]) > HS_R(1e-6) * top)) { last = i; }
    }
    return last;
}

/* One pass of the redundancy search over G in st->chk_G: every row that depends on the rows
 * before it and on no compliant one is marked in mark (its blamed joint row); with names != 0
 * (the second pass) a row marked in both passes (st->chk_dep) is taken: a driven one refuses
 * the description (HS_E_MODEL_PARAM, err filled), any other is left out with a warning. *ntaken
 * counts the rows taken. */
static hs_status redundancy_pass(hs_mb_store *st, hs_mb_model *mb, unsigned char *mark, int second, int *ntaken,
                                 hs_mb_error *err)
{
    const int nq = mb->nq, nc = mb->nc;
    int from = 0, nb = 0;
    hs_real *coef = NULL;
    for (int r = 0; r < nc; ++r) { mark[r] = 0u; }
    while (from < nc) {
        const int dep = dependent_row(st, mb, nc, nq, &coef, &nb, from);
        if (dep < 0) { break; }
        from = dep + 1;
        const int b = blamed_row(mb, dep, coef);
        if (b < 0) { continue; }
        mark[b] = 1u;
        if ((second == 0) || (st->chk_dep[b] == 0u)) { continue; }
        char names[160];
        dependency_names(st, mb, dep, coef, names, (int)sizeof names);
        if (mb->rows[b].f != NULL) {
            detail_add(err, "depends on:");
            detail_add(err, (names[0] != '\0') ? names : " nothing (the joint constrains no coordinate)");
            return fail_row(st, mb, b, err, "over-determined joint set: this joint's driven rows depend on the joints before it (compliance= on one of them regularizes it)");
        }
        if (made_index(st, b) < 0) { continue; }
        warn_removed(st, mb, b, names);
        st->chk_take[*ntaken] = b;
        ++*ntaken;
    }
    /* the rows built: their indices under this compile's mask, then the mask grows */
    for (int i = 0; i < *ntaken; ++i) { st->chk_take[i] = made_index(st, st->chk_take[i]); }
    for (int i = 0; i < *ntaken; ++i) {
        const int k = st->chk_take[i];
        while (st->desc.nrow_made <= k) { st->row_drop[st->desc.nrow_made] = 0u; ++st->desc.nrow_made; }
        st->row_drop[k] = 1u;
    }
    return HS_OK;
}

/* The joints against the initial state, then redundancy: the rows that depend on the rows
 * before them (and on no compliant one) at q0 and at another configuration of the mechanism
 * are left out with a warning, in one compile; a driven one is refused (over-determined). At
 * most HS_MB_REDUNDANT_ROUNDS rounds, each a fixed number of passes over G; a dependency left
 * after them is refused. */
#define HS_MB_REDUNDANT_ROUNDS 4
static hs_status check_joints(hs_mb_store *st, hs_mb_model *mb, int packed, hs_mb_error *err)
{
    for (int round = 0; round < HS_MB_REDUNDANT_ROUNDS; ++round) {
        if (mb->nc == 0) { return HS_OK; }
        const int keep = mb->packed;
        mb->packed = 0; /* dense G for the checks */
        int taken = 0;
        hs_status rc = check_initial(st, mb, err);
        if (rc == HS_OK) { rc = redundancy_pass(st, mb, st->chk_dep, 0, &taken, err); }
        int any = 0;
        for (int r = 0; r < mb->nc; ++r) { any |= (int)st->chk_dep[r]; }
        /* at q0 alone a dependency may be the configuration's (a four-bar starting flat): it
         * counts when it holds at another configuration of the mechanism too */
        if ((rc == HS_OK) && (any != 0) && (move_on_manifold(st, mb) == HS_OK)) {
            rc = redundancy_pass(st, mb, st->chk_dep2, 1, &taken, err);
        }
        mb->packed = keep;
        if ((rc != HS_OK) || (taken == 0)) { return rc; }
        st->desc.row_drop = st->row_drop;
        rc = hs_mb_compile(&st->desc, mb, packed, err);
        if (rc != HS_OK) { return rc; }
    }
    return fail(err, 0, lit("joint"), "redundant joint set: rows still depend on each other after removing the redundant ones", HS_E_MODEL_PARAM);
}

hs_status hs_mb_parse_compile_ovr(const char *buf, size_t len, hs_mb_store *st, const hs_mb_overrides *ovr,
                            hs_mb_model *mb, int packed, hs_mb_error *err)
{
    hs_status rc = hs_mb_parse_ovr(buf, len, st, ovr, err);
    if (rc != HS_OK) { return rc; }
    rc = hs_mb_compile(&st->desc, mb, packed, err);
    if (rc != HS_OK) {
        /* the record names the table and the entry; the entry's line is the parser's */
        const int t = mb->bad_table, bad = err->index;
        const int *lines[4] = {st->body_line, st->joint_line, st->force_line, st->output_line};
        err->line = (t >= 0 && t < 4 && bad >= 0) ? lines[t][bad] : 0;
        if (t == 4) { /* contacts, then stops from 100 */
            err->line = (bad >= 100 && bad - 100 < st->desc.nstops) ? st->stop_line[bad - 100]
                      : ((bad >= 0 && bad < st->desc.ncontacts) ? st->contact_line[bad] : 0);
            if (rc != HS_E_SIZE) { err->field[0] = 0; } /* a capacity keeps its table's name */
        }
        return rc;
    }
    return check_joints(st, mb, packed, err);
}

hs_status hs_mb_parse_compile(const char *buf, size_t len, hs_mb_store *st, hs_mb_model *mb, int packed,
                        hs_mb_error *err)
{
    return hs_mb_parse_compile_ovr(buf, len, st, NULL, mb, packed, err);
}
