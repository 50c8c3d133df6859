/* hs_mb_parse.c - the .hsm description parser (format: README "Writing your own model").
 * One statement per line: a keyword, positional words, then key=value fields; '#' starts a
 * comment; vectors are comma-separated. Freestanding: its own number reader (correctly
 * rounded for up to 19 significant digits and |exponent| <= 22, which covers hand-written
 * values), no allocation, every count checked against HS_MB_MAX_*. */
#include "hs_mb_parse.h"

#define MAXTOK 24

typedef struct tok { const char *s; int n; } tok;

static int tok_eq(tok t, const char *w)
{
    int i = 0;
    /* MISRA Ref 10.4.9 [signed/unsigned operands, values checked in range] */
    for (; i < t.n; ++i) { if (w[i] != t.s[i]) { return 0; } }
    return w[i] == '\0';
}

static int fail(hs_mb_error *err, int line, tok field, const char *msg, int rc)
{
    err->line = line;
    int n = field.n < (int)sizeof err->field - 1 ? field.n : (int)sizeof err->field - 1;
    for (int i = 0; i < n; ++i) { err->field[i] = field.s[i]; }
    err->field[n] = 0;
    err->msg = msg;
    return rc;
}

/* Decimal number of exactly the token [s, s+n). */
static int read_num(const char *s, int n, hs_real *out)
{
    static const double p10[23] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                                   1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    int i = 0, neg = 0, digits = 0, ex = 0, sig = 0;
    uint64_t m = 0;
    /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
    if (i < n && (s[i] == '+' || s[i] == '-')) { neg = s[i++] == '-'; }
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
        /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
        if (i < n && (s[i] == '+' || s[i] == '-')) { eneg = s[i++] == '-'; }
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
    *out = (hs_real)v;
    return hs_isfinite(*out);
}

/* Comma-separated vector of 1..max numbers; returns the count, 0 on a bad number. */
static int read_vec(tok t, hs_real *out, int max)
{
    int k = 0, a = 0;
    for (int i = 0; i <= t.n; ++i) {
        /* MISRA Ref 10.4.2 [character code vs character constant] */
        if (i == t.n || t.s[i] == ',') {
            if (k >= max || read_num(&t.s[a], i - a, &out[k]) == 0) { return 0; }
            ++k;
            a = i + 1;
        }
    }
    return k;
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

static int find_joint(const hs_mb_store *st, tok t)
{
    for (int j = 0; j < st->desc.njoints; ++j) { if (name_is(st->joints[j].name, t) != 0) { return j; } }
    return -1;
}

/* A point reference: BODY, BODY@x,y[,z], ground, ground@x,y[,z], or a named ground point. */
static int read_point(const hs_mb_store *st, tok t, hs_mb_point *p)
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
            for (int k = 0; k < st->npoints; ++k) {
                if (name_is(st->point_names[k], nm) != 0) {
                    if (at < t.n) { return 0; }
                    *p = st->points[k];
                    return 1;
                }
            }
            return 0;
        }
        p->body = b;
    }
    if (at < t.n) {
        tok v = {&t.s[at + 1], t.n - at - 1};
        if (read_vec(v, p->s, 3) < 2) { return 0; }
    }
    return 1;
}

/* f(t) = a + b t + c sin(w t + phi) from "a,b,c,w,phi" (missing trailing values are 0). */
static int read_fn(tok t, hs_mb_fn *f)
{
    hs_real v[5] = {0, 0, 0, 0, 0};
    if (read_vec(t, v, 5) < 1) { return 0; }
    f->a = v[0]; f->b = v[1]; f->c = v[2]; f->w = v[3]; f->phi = v[4];
    return 1;
}

static tok lit(const char *s)
{
    tok t;
    t.s = s; t.n = 0;
    while (s[t.n] != '\0') { ++t.n; }
    return t;
}

static int is_unit(const hs_real *v)
{
    const hs_real n = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    return n > HS_R(1.0) - HS_R(1e-6) && n < HS_R(1.0) + HS_R(1e-6);
}

static int is_zero3(const hs_real *v) { return v[0] == HS_R(0.0) && v[1] == HS_R(0.0) && v[2] == HS_R(0.0); }

/* The checks hs_mb_compile repeats, made here so a bad value is reported by its field: inputs
 * below nin, and the bodies and axes of the rotational elements of spatial models. */
static int check_force(const hs_mb_store *st, const hs_mb_force *F, int line, hs_mb_error *err)
{
    const hs_mb_desc *D = &st->desc;
    const int E = HS_E_MODEL_PARAM;
    int width = 0;
    if (F->kind == HS_MB_MOTOR) { width = 1; }
    if (F->kind == HS_MB_EXTFORCE) { width = is_zero3(F->axis) ? D->dim : 1; }
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    if (F->kind == HS_MB_EXTTORQUE) { width = D->dim == 3 ? 3 : 1; }
    if (width > 0 && F->in0 + width > D->nin) {
        return fail(err, line, lit("in"), "input index (plus the element's width) not below the model's nin", E);
    }
    /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
    const int rot3 = D->dim == 3 && (F->kind == HS_MB_ROTSPRING || F->kind == HS_MB_MOTOR);
    /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
    const int bush3 = D->dim == 3 && F->kind == HS_MB_BUSHING && (F->kr != HS_R(0.0) || F->cr != HS_R(0.0));
    if (rot3 != 0 || bush3 != 0) {
        const int a = F->a.body, b = F->b.body;
        const int aok = a >= 0 ? D->bodies[a].kind == HS_MB_SPATIAL : bush3;
        /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
        const int bok = b >= 0 ? D->bodies[b].kind == HS_MB_SPATIAL : 1;
        if (aok == 0) { return fail(err, line, lit("a"), rot3 ? "must be a spatial body" : "kr/cr need a spatial body or ground", E); }
        if (bok == 0) { return fail(err, line, lit("b"), "must be a spatial body or ground", E); }
        if (a == b) { return fail(err, line, lit("b"), "must differ from a", E); }
    }
    if (rot3 != 0) {
        if (is_zero3(F->axis) != 0) { return fail(err, line, lit("axis"), "a spatial hinge element needs axis= (a's frame) or joint=HINGE", E); }
        if (is_unit(F->axis) == 0) { return fail(err, line, lit("axis"), "not a unit vector", E); }
        if (is_zero3(F->axis_b) == 0 && is_unit(F->axis_b) == 0) { return fail(err, line, lit("axis_b"), "not a unit vector", E); }
    }
    return HS_OK;
}

static int parse_line(hs_mb_store *st, tok *w, int nw, int line, hs_mb_error *err)
{
    hs_mb_desc *D = &st->desc;
    const tok kw = w[0];
    const int E = HS_E_MODEL_PARAM;
    /* key=value fields after the positional words */
    int npos = 1;
    while (npos < nw) {
        int eq = 0;
        /* MISRA Ref 10.4.2 [character code vs character constant] */
        for (int i = 0; i < w[npos].n; ++i) { if (w[npos].s[i] == '=') { eq = 1; } }
        if (eq != 0) { break; }
        ++npos;
    }
    tok key[MAXTOK], val[MAXTOK];
    int nkv = 0;
    for (int i = npos; i < nw; ++i) {
        int e = 0;
        /* MISRA Ref 10.4.2 [character code vs character constant] */
        while (e < w[i].n && w[i].s[e] != '=') { ++e; }
        if (e == w[i].n || e == 0 || e == w[i].n - 1) { return fail(err, line, w[i], "expected KEY=VALUE", E); }
        key[nkv].s = w[i].s; key[nkv].n = e;
        val[nkv].s = &w[i].s[e + 1]; val[nkv].n = w[i].n - e - 1;
        ++nkv;
    }
    if (tok_eq(kw, "model") != 0) {
        if (npos != 2 || copy_name(st->name, w[1]) == 0) { return fail(err, line, kw, "expected: model NAME dim=2|3 [nin=N]", E); }
        for (int k = 0; k < nkv; ++k) {
            hs_real v;
            if (tok_eq(key[k], "dim") != 0 && read_num(val[k].s, val[k].n, &v) != 0 && (v == HS_R(2.0) || v == HS_R(3.0))) { D->dim = (int)v; }
            /* MISRA Ref 10.4.1 [int code vs the enumerator naming it] */
            else if (tok_eq(key[k], "nin") != 0 && read_num(val[k].s, val[k].n, &v) != 0 && v >= 0 && v <= HS_MB_MAX_NIN && v == (hs_real)(int)v) { D->nin = (int)v; }
            else { return fail(err, line, key[k], "unknown key or bad value (dim=2|3, nin=0..16)", E); }
        }
        return HS_OK;
    }
    if (D->dim == 0) { return fail(err, line, kw, "the first statement must be: model NAME dim=2|3", E); }
    if (tok_eq(kw, "gravity") != 0) {
        if (npos != 2 || read_vec(w[1], D->gravity, 3) != D->dim) { return fail(err, line, kw, "expected: gravity gx,gy[,gz] (dim values, m/s^2)", E); }
        return HS_OK;
    }
    if (tok_eq(kw, "point") != 0) {
        if (st->npoints >= HS_MB_MAX_POINTS) { return fail(err, line, kw, "too many points", HS_E_SIZE); }
        if (npos != 2 || copy_name(st->point_names[st->npoints], w[1]) == 0) { return fail(err, line, kw, "expected: point NAME at=x,y[,z] [fx=..] [fy=..] [fz=..] [circle=R]", E); }
        hs_mb_point *p = &st->points[st->npoints];
        static const hs_mb_point zero = {0};
        *p = zero;
        p->body = HS_MB_GROUND;
        for (int k = 0; k < nkv; ++k) {
            if (tok_eq(key[k], "at") != 0) { if (read_vec(val[k], p->s, 3) != D->dim) { return fail(err, line, key[k], "expected dim numbers", E); } }
            else if (tok_eq(key[k], "fx") != 0 || tok_eq(key[k], "fy") != 0 || tok_eq(key[k], "fz") != 0) {
                /* MISRA Ref 10.4.2 [character code vs character constant] */
                const int i = key[k].s[1] - 'x';
                if (i >= D->dim || read_fn(val[k], &p->f[i]) == 0) { return fail(err, line, key[k], "expected a,b,c,w,phi: a + b t + c sin(w t + phi)", E); }
                if (p->moving == 0) { p->moving = 1; }
            } else if (tok_eq(key[k], "circle") != 0) {
                if (read_num(val[k].s, val[k].n, &p->radius) == 0 || !(p->radius > HS_R(0.0))) { return fail(err, line, key[k], "expected a radius > 0", E); }
                p->moving = 2;
            } else { return fail(err, line, key[k], "unknown key", E); }
        }
        ++st->npoints;
        return HS_OK;
    }
    if (tok_eq(kw, "body") != 0) {
        const int b = D->nbodies;
        if (b >= HS_MB_MAX_BODIES) { return fail(err, line, kw, "too many bodies", HS_E_SIZE); }
        hs_mb_body *B = &st->bodies[b];
        static const hs_mb_body zero = {0};
        *B = zero;
        if (npos != 3 || copy_name(B->name, w[1]) == 0) { return fail(err, line, kw, "expected: body NAME planar|spatial|point2|point3 mass=M ...", E); }
        if (find_body(st, w[1]) >= 0 || tok_eq(w[1], "ground") != 0) { return fail(err, line, w[1], "name already used", E); }
        if (tok_eq(w[2], "planar") != 0) { B->kind = HS_MB_PLANAR; }
        else if (tok_eq(w[2], "spatial") != 0) { B->kind = HS_MB_SPATIAL; }
        else if (tok_eq(w[2], "point2") != 0) { B->kind = HS_MB_POINT2; }
        else if (tok_eq(w[2], "point3") != 0) { B->kind = HS_MB_POINT3; }
        else { return fail(err, line, w[2], "unknown body kind (planar|spatial|point2|point3)", E); }
        B->rot[0] = B->kind == HS_MB_SPATIAL ? HS_R(1.0) : HS_R(0.0);
        int nt = 3;
        if (B->kind == HS_MB_PLANAR || B->kind == HS_MB_POINT2) { nt = 2; }
        for (int k = 0; k < nkv; ++k) {
            int ok;
            /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
            if (tok_eq(key[k], "mass") != 0) { ok = read_vec(val[k], &B->mass, 1) == 1; }
            else if (tok_eq(key[k], "inertia") != 0) {
                /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
                if (B->kind == HS_MB_PLANAR) { ok = read_vec(val[k], &B->inertia[2], 1) == 1; }
                /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
                else { ok = B->kind == HS_MB_SPATIAL && read_vec(val[k], B->inertia, 3) == 3; }
            /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
            } else if (tok_eq(key[k], "pos") != 0) { ok = read_vec(val[k], B->pos, 3) == nt; }
            /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
            else if (tok_eq(key[k], "vel") != 0) { ok = read_vec(val[k], B->vel, 3) == nt; }
            /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
            else if (tok_eq(key[k], "angle") != 0) { ok = B->kind == HS_MB_PLANAR && read_vec(val[k], B->rot, 1) == 1; }
            /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
            else if (tok_eq(key[k], "quat") != 0) { ok = B->kind == HS_MB_SPATIAL && read_vec(val[k], B->rot, 4) == 4; }
            else if (tok_eq(key[k], "omega") != 0) {
                /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
                if (B->kind == HS_MB_PLANAR) { ok = read_vec(val[k], &B->omega[2], 1) == 1; }
                /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
                else { ok = B->kind == HS_MB_SPATIAL && read_vec(val[k], B->omega, 3) == 3; }
            } else { return fail(err, line, key[k], "unknown key (mass, inertia, pos, vel, angle, quat, omega)", E); }
            if (ok == 0) { return fail(err, line, key[k], "wrong count or bad number for this body kind", E); }
        }
        st->body_line[b] = line;
        D->nbodies = b + 1;
        return HS_OK;
    }
    if (tok_eq(kw, "joint") != 0) {
        static const char *const kinds[] = {"revolute", "spherical", "prismatic", "fixed", "distance",
                                            "curve", "driver", "perpendicular"};
        const int j = D->njoints;
        if (j >= HS_MB_MAX_JOINTS) { return fail(err, line, kw, "too many joints", HS_E_SIZE); }
        hs_mb_joint *J = &st->joints[j];
        static const hs_mb_joint zero = {0};
        *J = zero;
        if (npos != 3 || copy_name(J->name, w[1]) == 0) { return fail(err, line, kw, "expected: joint NAME KIND a=POINT ...", E); }
        if (find_joint(st, w[1]) >= 0) { return fail(err, line, w[1], "name already used", E); }
        int kind = -1;
        for (int k = 0; k < 8; ++k) { if (tok_eq(w[2], kinds[k]) != 0) { kind = k; } }
        if (kind < 0) { return fail(err, line, w[2], "unknown joint kind", E); }
        J->kind = (hs_mb_joint_kind)kind;
        J->a.body = HS_MB_GROUND; J->b.body = HS_MB_GROUND; J->c.body = HS_MB_GROUND; J->d.body = HS_MB_GROUND;
        int have_a = 0;
        for (int k = 0; k < nkv; ++k) {
            int ok;
            const tok K = key[k], V = val[k];
            if (tok_eq(K, "a") != 0) { have_a = read_point(st, V, &J->a); ok = have_a; }
            else if (tok_eq(K, "b") != 0) { ok = read_point(st, V, &J->b); }
            else if (tok_eq(K, "c") != 0) { ok = read_point(st, V, &J->c); }
            else if (tok_eq(K, "d") != 0) { ok = read_point(st, V, &J->d); }
            /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
            else if (tok_eq(K, "axis") != 0) { ok = read_vec(V, J->axis, 3) == D->dim; }
            /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
            else if (tok_eq(K, "axis_b") != 0) { ok = read_vec(V, J->axis_b, 3) == D->dim; }
            /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
            else if (tok_eq(K, "length") != 0) { ok = read_vec(V, &J->length, 1) == 1; }
            else if (tok_eq(K, "coord") != 0) {
                /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
                ok = tok_eq(V, "angle") || tok_eq(V, "travel");
                J->coord = tok_eq(V, "travel");
            } else if (tok_eq(K, "f") != 0) { ok = read_fn(V, &J->f); }
            else if (tok_eq(K, "circle") != 0) { /* cx,cy,R: (x-cx)^2 + (y-cy)^2 - R^2 */
                hs_real c[3];
                /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
                ok = read_vec(V, c, 3) == 3 && c[2] > HS_R(0.0);
                J->quad.A[0] = HS_R(1.0); J->quad.A[1] = HS_R(1.0);
                J->quad.b[0] = -HS_R(2.0) * c[0]; J->quad.b[1] = -HS_R(2.0) * c[1];
                J->quad.c = c[0] * c[0] + c[1] * c[1] - c[2] * c[2];
            /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
            } else if (tok_eq(K, "quadric") != 0) { ok = read_vec(V, J->quad.A, 6) == 6; }
            /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
            else if (tok_eq(K, "linear") != 0) { ok = read_vec(V, J->quad.b, 3) == D->dim; }
            /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
            else if (tok_eq(K, "const") != 0) { ok = read_vec(V, &J->quad.c, 1) == 1; }
            else { return fail(err, line, K, "unknown key (a, b, c, d, axis, axis_b, length, coord, f, circle, quadric, linear, const)", E); }
            if (ok == 0) { return fail(err, line, K, "bad value (unknown body or point, wrong count, bad number)", E); }
        }
        if (have_a == 0) { return fail(err, line, kw, "a=POINT is required", E); }
        st->joint_line[j] = line;
        D->njoints = j + 1;
        return HS_OK;
    }
    if (tok_eq(kw, "force") != 0) {
        static const char *const kinds[] = {"spring", "rotspring", "bushing", "extforce", "exttorque", "motor"};
        const int e = D->nforces;
        if (e >= HS_MB_MAX_FORCES) { return fail(err, line, kw, "too many force elements", HS_E_SIZE); }
        hs_mb_force *F = &st->forces[e];
        static const hs_mb_force zero = {0};
        *F = zero;
        if (npos != 3 || copy_name(F->name, w[1]) == 0) { return fail(err, line, kw, "expected: force NAME KIND a=POINT ...", E); }
        int kind = -1;
        for (int k = 0; k < 6; ++k) { if (tok_eq(w[2], kinds[k]) != 0) { kind = k; } }
        if (kind < 0) { return fail(err, line, w[2], "unknown force kind", E); }
        F->kind = (hs_mb_force_kind)kind;
        F->a.body = HS_MB_GROUND; F->b.body = HS_MB_GROUND;
        F->scale = HS_R(1.0);
        int have_a = 0;
        for (int k = 0; k < nkv; ++k) {
            int ok;
            const tok K = key[k], V = val[k];
            hs_real v;
            if (tok_eq(K, "a") != 0) { have_a = read_point(st, V, &F->a); ok = have_a; }
            else if (tok_eq(K, "b") != 0) { ok = read_point(st, V, &F->b); }
            /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
            else if (tok_eq(K, "k") != 0) { ok = read_vec(V, &F->k, 1) == 1; }
            /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
            else if (tok_eq(K, "c") != 0) { ok = read_vec(V, &F->c, 1) == 1; }
            /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
            else if (tok_eq(K, "l0") != 0 || tok_eq(K, "theta0") != 0) { ok = read_vec(V, &F->l0, 1) == 1; }
            /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
            else if (tok_eq(K, "kr") != 0) { ok = read_vec(V, &F->kr, 1) == 1; }
            /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
            else if (tok_eq(K, "cr") != 0) { ok = read_vec(V, &F->cr, 1) == 1; }
            /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
            else if (tok_eq(K, "scale") != 0) { ok = read_vec(V, &F->scale, 1) == 1; }
            /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
            else if (tok_eq(K, "axis") != 0) { ok = read_vec(V, F->axis, 3) == D->dim; }
            /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
            else if (tok_eq(K, "axis_b") != 0) { ok = read_vec(V, F->axis_b, 3) == D->dim; }
            else if (tok_eq(K, "joint") != 0) { /* the bodies and axes of a revolute joint declared above */
                const int j = find_joint(st, V);
                if (j < 0) { return fail(err, line, K, "unknown joint (declare the joint before the force)", E); }
                const hs_mb_joint *J = &st->joints[j];
                if (J->kind != HS_MB_REVOLUTE) { return fail(err, line, K, "not a revolute joint", E); }
                F->a = J->a; F->b = J->b;
                for (int i = 0; i < 3; ++i) { F->axis[i] = J->axis[i]; F->axis_b[i] = J->axis_b[i]; }
                have_a = 1;
                ok = 1;
            } else if (tok_eq(K, "in") != 0) {
                /* MISRA Ref 10.3.1 [truth value kept in an int flag] */
                ok = read_vec(V, &v, 1) == 1 && v >= 0 && v < HS_MB_MAX_NIN && v == (hs_real)(int)v;
                if (ok != 0) { F->in0 = (int)v; }
            } else { return fail(err, line, K, "unknown key (a, b, joint, k, c, l0, theta0, kr, cr, in, scale, axis, axis_b)", E); }
            if (ok == 0) { return fail(err, line, K, "bad value (unknown body or point, bad number)", E); }
        }
        if (have_a == 0) { return fail(err, line, kw, "a=POINT is required", E); }
        {
            const int rc = check_force(st, F, line, err);
            if (rc != 0) { return rc; }
        }
        st->force_line[e] = line;
        D->nforces = e + 1;
        return HS_OK;
    }
    if (tok_eq(kw, "output") != 0) {
        const int o = D->noutputs;
        if (o >= HS_MB_MAX_OUTPUTS) { return fail(err, line, kw, "too many outputs", HS_E_SIZE); }
        hs_mb_output *O = &st->outputs[o];
        if (npos == 2 && tok_eq(w[1], "energy") != 0) {
            O->kind = HS_MB_OUT_ENERGY; O->index = 0;
        } else if (npos == 3 && (tok_eq(w[1], "pos") != 0 || tok_eq(w[1], "vel") != 0)) {
            O->kind = tok_eq(w[1], "pos") ? HS_MB_OUT_POS : HS_MB_OUT_VEL;
            O->index = find_body(st, w[2]);
            if (O->index < 0) { return fail(err, line, w[2], "unknown body", E); }
        } else if (npos == 3 && tok_eq(w[1], "coord") != 0) {
            O->kind = HS_MB_OUT_COORD;
            O->index = find_joint(st, w[2]);
            if (O->index < 0) { return fail(err, line, w[2], "unknown joint", E); }
        } else {
            return fail(err, line, kw, "expected: output pos|vel BODY | output coord JOINT | output energy", E);
        }
        if (nkv != 0) { return fail(err, line, key[0], "output takes no keys", E); }
        st->output_line[o] = line;
        D->noutputs = o + 1;
        return HS_OK;
    }
    return fail(err, line, kw, "unknown statement (model, gravity, point, body, joint, force, output)", E);
}

int hs_mb_parse(const char *buf, size_t len, hs_mb_store *st, hs_mb_error *err)
{
    static const hs_mb_desc zero_desc = {0};
    static const tok none = {"", 0};
    if (buf == NULL || st == NULL || err == NULL) { return HS_E_NULL; }
    err->line = 0; err->field[0] = 0; err->msg = "";
    st->name[0] = 0;
    st->npoints = 0;
    st->desc = zero_desc;
    st->desc.bodies = st->bodies; st->desc.joints = st->joints;
    st->desc.forces = st->forces; st->desc.outputs = st->outputs;
    size_t i = 0;
    int line = 0;
    while (i < len) {
        ++line;
        size_t e = i;
        while (e < len && buf[e] != '\n') { ++e; }
        /* MISRA Ref 10.4.1 [int code vs the enumerator naming it] */
        if (e - i > HS_MB_MAX_LINE) { return fail(err, line, none, "line too long", HS_E_SIZE); }
        tok w[MAXTOK];
        int nw = 0;
        size_t k = i;
        while (k < e) {
            const char c = buf[k];
            if (c == '#') { break; }
            if (c == ' ' || c == '\t' || c == '\r') { ++k; continue; }
            /* MISRA Ref 10.4.1 [int code vs the enumerator naming it] */
            if ((unsigned char)c < 32 || (unsigned char)c > 126) { return fail(err, line, none, "character outside printable ASCII", HS_E_MODEL_PARAM); }
            size_t a = k;
            while (k < e && buf[k] != ' ' && buf[k] != '\t' && buf[k] != '\r' && buf[k] != '#') {
                /* MISRA Ref 10.4.1 [int code vs the enumerator naming it] */
                if ((unsigned char)buf[k] < 32 || (unsigned char)buf[k] > 126) { return fail(err, line, none, "character outside printable ASCII", HS_E_MODEL_PARAM); }
                ++k;
            }
            if (nw >= MAXTOK) { return fail(err, line, none, "too many words on one line", HS_E_SIZE); }
            /* MISRA Ref 10.8.3 [composite count widened after its bounds check] */
            w[nw].s = &buf[a]; w[nw].n = (int)(k - a);
            ++nw;
        }
        if (nw > 0) {
            int rc = parse_line(st, w, nw, line, err);
            if (rc != 0) { return rc; }
        }
        i = e + 1u;
    }
    if (st->desc.dim == 0) { return fail(err, line, none, "no 'model NAME dim=2|3' statement", HS_E_MODEL_PARAM); }
    if (st->desc.nbodies == 0) { return fail(err, line, none, "no bodies", HS_E_MODEL_PARAM); }
    st->desc.name = st->name;
    return HS_OK;
}

int hs_mb_parse_compile(const char *buf, size_t len, hs_mb_store *st, hs_mb_model *mb, int packed,
                        hs_mb_error *err)
{
    int rc = hs_mb_parse(buf, len, st, err);
    if (rc != 0) { return rc; }
    int bad = -1;
    rc = hs_mb_compile(&st->desc, mb, packed, &bad);
    if (rc != 0) {
        static const char *const tables[4] = {"body", "joint", "force", "output"};
        static const char *const why[4] = {
            "body refused: mass/inertia not > 0, quaternion not unit, or a 2-D kind in a 3-D model (or back)",
            "joint refused: kind does not fit its bodies, axis not unit, length not > 0, or too many rows",
            "force refused: kind does not fit its bodies, or its input index is not below nin",
            "output refused: no such coordinate for this joint kind, or too many signals"};
        const int t = mb->bad_table;
        const int *lines[4] = {st->body_line, st->joint_line, st->force_line, st->output_line};
        err->line = (t >= 0 && t < 4 && bad >= 0) ? lines[t][bad] : 0;
        int n = 0;
        for (const char *s = (t >= 0 && t < 4) ? tables[t] : ""; *s != '\0'; ++s) { err->field[n] = *s; ++n; }
        err->field[n] = 0;
        err->msg = (t >= 0 && t < 4) ? why[t]
                 /* MISRA Ref 10.4.1 [int code vs the enumerator naming it] */
                 : (rc == HS_E_SIZE ? "a capacity HS_MB_MAX_* exceeded" : "description refused");
        /* MISRA Ref 10.4.1 [int code vs the enumerator naming it] */
        if (rc == HS_E_SIZE && t >= 0) { err->msg = "a capacity HS_MB_MAX_* exceeded here"; }
        return rc;
    }
    return HS_OK;
}
