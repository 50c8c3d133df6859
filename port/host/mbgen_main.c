/* mbgen_main.c - build/hilstep-mbgen: writes the C tables of a .hsm description, so firmware
 * links the same model the host loads with --model-file (same bits: every real is written as
 * a hexadecimal floating constant, the exact value the parser produced).
 *
 *   hilstep-mbgen FILE.hsm > model/gen/mb_NAME.c
 *   hilstep-mbgen --header FILE.hsm... > model/gen/mb_gen.h   sizes and declarations of them all
 *   hilstep-mbgen --list FILE.hsm... > model/gen/mb_gen.c     the list of them all (hs_mb_gen_types)
 *   hilstep-mbgen [--param NAME=VALUE]... --workspace FILE.hsm   the stepper arenas the description
 *       needs: the largest exact need (hs_stepper_workspace_tmp) over every method, form and
 *       stabilization the stepper accepts for it, as #defines HS_PLANT_WS_REALS / HS_PLANT_WS_INTS
 *       for a board image sized to it (port/cortex-m/cortex-m.mk, hs_user_limits.h)
 * (`make mb-gen` runs all three over every model/mech description; `make mb-test` checks the committed
 * files are what this writes.)
 *
 * The output defines `const hs_model_type hs_mb_NAME_type`, a plain model type (sizes fixed at
 * generation, names of the outputs) whose hooks are model/mb/hs_mb_tab.c's hs_mb_gen_* (one set for
 * every generated type, through .data): they compile the description into static tables on the
 * first check() (hs_stepper_init calls it) and forward every function to the multibody layer.
 * A description with a compiled plan (model/mb/hs_mb_plan.c) gets its own mass, force, force_jac
 * and row hooks instead: straight-line calls of the plan's kernels (model/mb/hs_mb_kern.h), one per
 * row group and element, on a const argument table its check() compares with the compiled plan.
 * --param NAME=VALUE (repeatable, before FILE) sets the description's params for this build.
 * Exit status: 0 ok, 2 (HS_EXIT_SETUP) bad file or --param, 3 write error. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hs_exit.h"
#include "hs_mb_file.h"
#include "hs_mb_int.h"
#include "hs_stepper.h"

static FILE *o;
static int first; /* no field written yet in the current braces */

/* Designated fields are written only when they are not zero, so the tables read like the
 * description; every real is a hexadecimal constant (exact). */
static void sep(void) { if (!first) fprintf(o, ", "); first = 0; }
static int zero(const hs_real *v, int n)
{
    for (int i = 0; i < n; ++i) if (v[i] != 0) return 0;
    return 1;
}
static void real(double v) { fprintf(o, "HS_R(%a)", v); }
static void freal(const char *key, hs_real v) { if (v != 0) { sep(); fprintf(o, ".%s = ", key); real((double)v); } }
static void fvec(const char *key, const hs_real *v, int n)
{
    if (zero(v, n)) return;
    sep();
    fprintf(o, ".%s = {", key);
    for (int i = 0; i < n; ++i) { if (i) fprintf(o, ", "); real((double)v[i]); }
    fprintf(o, "}");
}
static void fint(const char *key, int v) { if (v != 0) { sep(); fprintf(o, ".%s = %d", key, v); } }
static int fn_zero(const hs_mb_fn *f) { return f->a == 0 && f->b == 0 && f->c == 0 && f->w == 0 && f->phi == 0; }
static void fn_body(const hs_mb_fn *f)
{
    if (fn_zero(f)) { fprintf(o, "{0}"); return; }
    first = 1;
    fprintf(o, "{");
    freal("a", f->a); freal("b", f->b); freal("c", f->c); freal("w", f->w); freal("phi", f->phi);
    fprintf(o, "}");
}
static void ffn(const char *key, const hs_mb_fn *f)
{
    if (fn_zero(f)) return;
    sep();
    fprintf(o, ".%s = ", key);
    fn_body(f);
    first = 0;
}
static void point(const char *key, const hs_mb_point *p)
{
    sep();
    fprintf(o, ".%s = {", key);
    first = 1;
    sep(); fprintf(o, ".body = %d", p->body);
    fvec("s", p->s, 3);
    fint("moving", p->moving);
    if (!fn_zero(&p->f[0]) || !fn_zero(&p->f[1]) || !fn_zero(&p->f[2])) {
        sep();
        fprintf(o, ".f = {");
        for (int i = 0; i < 3; ++i) { if (i) fprintf(o, ", "); fn_body(&p->f[i]); }
        fprintf(o, "}");
    }
    first = 0;
    freal("radius", p->radius);
    fprintf(o, "}");
    first = 0;
}

/* One hs_mb_signal initializer (declared inputs, named outputs). */
static void signal_init(const hs_mb_signal *S)
{
    fprintf(o, "    {.name = \"%s\", .unit = \"%s\"", S->name, S->unit);
    first = 0;
    freal("min", S->min); freal("max", S->max); freal("fallback", S->fallback); fint("stale", S->stale);
    fprintf(o, "},\n");
}

static const char *const BODY_KIND[] = {"HS_MB_PLANAR", "HS_MB_SPATIAL", "HS_MB_POINT2", "HS_MB_POINT3"};
static const char *const OUT_KIND[] = {"HS_MB_OUT_POS", "HS_MB_OUT_VEL", "HS_MB_OUT_COORD", "HS_MB_OUT_ENERGY", "HS_MB_OUT_ACC",
                                       "HS_MB_OUT_TIRE", "HS_MB_OUT_VEHICLE", "HS_MB_OUT_FORCE"};

static int fail_write(void)
{
    fprintf(stderr, "hilstep-mbgen: write error\n");
    return 3;
}

/* File name without its directories. */
/* The description's name under model/mech/ (vehicles/car.hsm keeps its folder), else its base name. */
static const char *base_name(const char *path)
{
    const char *m = strstr(path, "model/mech/");
    if (m) {
        const char *n;
        while ((n = strstr(m + 1, "model/mech/")) != NULL) m = n;
        return m + strlen("model/mech/");
    }
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

/* --header / --list: one file over every description given (the same order both times). The
 * header declares every generated type (each generated file includes it, so its definition
 * has a visible declaration) with its sizes, and the largest sizes over them all: a board
 * sizes one static arena for any of them with HS_STEPPER_REALS(HS_MB_GEN_MAX_NQ, ...). */
static int index_files(int header, int n, char **files)
{
    static hs_mb_store st;
    static hs_mb_model mb;
    int mq = 0, mc = 0, mi = 0, mo = 0, mk = 0, mz = 0;
    o = stdout;
    if (header)
        fprintf(o, "/* mb_gen.h - generated by hilstep-mbgen --header from the model/mech descriptions; do not edit (make mb-gen\n"
                   " * regenerates, make mb-test checks). The multibody descriptions shipped as generated C tables\n"
                   " * (model/gen/mb_NAME.c): their model types, sizes, and the largest sizes over them all. */\n"
                   "#ifndef HS_MB_GEN_H\n#define HS_MB_GEN_H\n\n#include \"hs_model.h\"\n\n"
                   "/* Generated model types (entries of hs_mb_gen_types). */\n#define HS_MB_GEN_COUNT %d\n\n", n);
    else
        fprintf(o, "/* mb_gen.c - generated by hilstep-mbgen --list from the model/mech descriptions; do not edit (make mb-gen\n"
                   " * regenerates, make mb-test checks). The list of the generated multibody model types. */\n"
                   "#include \"mb_gen.h\"\n\n"
                   "/* MISRA Ref 9.3.1 [every element listed] */\n"
                   "const hs_model_type *const hs_mb_gen_types[HS_MB_GEN_COUNT] = {\n");
    for (int i = 0; i < n; ++i) {
        if (hs_mb_load_file("hilstep-mbgen", files[i], &st, &mb, 0)) return 2;
        if (header) {
            char up[HS_MB_NAME];
            size_t k = 0;
            for (; st.name[k] && k + 1 < sizeof up; ++k)
                up[k] = (char)((st.name[k] >= 'a' && st.name[k] <= 'z') ? st.name[k] - 'a' + 'A'
                               : (st.name[k] >= '0' && st.name[k] <= '9') || (st.name[k] >= 'A' && st.name[k] <= 'Z') ? st.name[k] : '_');
            up[k] = 0;
            fprintf(o, "/* %s: model/mech/%s, generated into model/gen/mb_%s.c */\n", st.name, base_name(files[i]), st.name);
            fprintf(o, "extern const hs_model_type hs_mb_%s_type;\n", st.name);
            fprintf(o, "#define HS_MB_GEN_%s_NQ %d\n#define HS_MB_GEN_%s_NC %d\n", up, mb.nq, up, mb.nc);
            fprintf(o, "#define HS_MB_GEN_%s_NIN %d\n#define HS_MB_GEN_%s_NOUT %d\n", up, mb.nin, up, mb.nout);
            /* auxiliary states (tire treads): only where there are any, so the others read as before */
            if (mb.nz > 0) fprintf(o, "#define HS_MB_GEN_%s_NZ %d\n", up, mb.nz);
            fputc('\n', o);
        } else {
            fprintf(o, "    &hs_mb_%s_type,\n", st.name);
        }
        if (mb.nq > mq) mq = mb.nq;
        if (mb.nc > mc) mc = mb.nc;
        if (mb.nin > mi) mi = mb.nin;
        if (mb.nout > mo) mo = mb.nout;
        if (mb.nk > mk) mk = mb.nk;
        if (mb.nz > mz) mz = mb.nz;
    }
    if (header) {
        fprintf(o, "/* Largest sizes over the generated models (static arenas: HS_STEPPER_REALS(MAX_NQ, MAX_NC, 0)). */\n"
                   "#define HS_MB_GEN_MAX_NQ %d\n#define HS_MB_GEN_MAX_NC %d\n#define HS_MB_GEN_MAX_NIN %d\n"
                   "#define HS_MB_GEN_MAX_NOUT %d\n"
                   "/* Unilateral rows (contacts, stops): arenas of HS_STEPPER_REALS_CT(MAX_NQ, MAX_NC, 0, MAX_NK). */\n"
                   "#define HS_MB_GEN_MAX_NK %d\n"
                   "/* Auxiliary states (tire treads): arenas of HS_STEPPER_REALS(MAX_NQ, MAX_NC, MAX_NZ). */\n"
                   "#define HS_MB_GEN_MAX_NZ %d\n\n", mq, mc, mi, mo, mk, mz);
        fprintf(o, "/* Every generated model type, in the order of the description files (model/mech, by name). */\n"
                   "extern const hs_model_type *const hs_mb_gen_types[HS_MB_GEN_COUNT];\n\n#endif\n");
    } else {
        fprintf(o, "};\n");
    }
    return (fflush(o) != 0 || ferror(o)) ? fail_write() : 0;
}


/* ---- the compiled plan as straight-line calls (model/mb/hs_mb_kern.h, model/mb/hs_mb_plan.c) ---- */

/* The table entry a plan pointer points into, as C ("&joints[0].c"), or NULL. */
static const char *ptr_name(const hs_mb_desc *D, const void *p, char *buf, size_t n)
{
    if (p == NULL) { snprintf(buf, n, "NULL"); return buf; }
    for (int j = 0; j < D->njoints; ++j) {
        const hs_mb_joint *J = &D->joints[j];
        const void *cand[5] = {&J->a, &J->b, &J->c, &J->d, &J->f};
        static const char *const key[5] = {"a", "b", "c", "d", "f"};
        for (int i = 0; i < 5; ++i) if (p == cand[i]) { snprintf(buf, n, "&joints[%d].%s", j, key[i]); return buf; }
    }
    for (int e = 0; e < D->nforces; ++e) {
        const hs_mb_force *F = &D->forces[e];
        if (p == (const void *)&F->a) { snprintf(buf, n, "&forces[%d].a", e); return buf; }
        if (p == (const void *)&F->b) { snprintf(buf, n, "&forces[%d].b", e); return buf; }
    }
    return NULL;
}

static const char *const KNAME[9] = {"", "HS_MBK_PAIR_PP", "HS_MBK_PAIR_PG", "HS_MBK_DIST_QQ", "HS_MBK_DIST_QG",
                                     "HS_MBK_DOT_QM", "HS_MBK_SPR_QG", "HS_MBK_SPR_QM", "HS_MBK_SPR_QQ"};

/* The rows' pass with the outputs a hook asks for (the others NULL: inlined away). */
static void emit_rows(const hs_mb_model *P)
{
    fprintf(o, "\n/* every row kernel in order, the outputs not asked for NULL (each hook inlines its own) */\n"
               "HS_MBK_INL int gen_rows(hs_real t, const hs_real *q, const hs_real *u, const hs_real *lam, hs_real *g,\n"
               "                        hs_real *G, hs_real *gt, hs_real *gam, hs_real *K)\n{\n"
               "    hs_mbk_rq x;\n");
    if (P->nfplanar > 0) fprintf(o, "    hs_real sc[%d];\n", 2 * P->nb);
    fprintf(o, "    x.t = t; x.q = q; x.u = u; x.lam = lam;\n    x.g = g; x.G = G; x.gt = gt; x.gam = gam; x.K = K;\n");
    for (int i = 0; i < P->nfplanar; ++i) {
        const int b = P->fplanar[i];
        fprintf(o, "    hs_sincos(q[%d], &sc[%d], &sc[%d]);\n", P->qoff[b] + 2, 2 * b, 2 * b + 1);
    }
    if (P->ngz > 0) {
        fprintf(o, "    if (G != NULL) {\n");
        for (int i = 0; i < P->ngz; ++i) fprintf(o, "        hs_mbk_zero(&G[%d], %d);\n", P->gz[i][0], P->gz[i][1]);
        fprintf(o, "    }\n");
    }
    fprintf(o, "    if (K != NULL) { hs_mbk_zero(K, %d); }\n", P->packed ? P->qqsize : P->nq * P->nq);
    for (int k = 0; k < P->nkr; ++k) {
        const int kd = P->kop[k].kind;
        if (kd == 1 || kd == 2) fprintf(o, "    hs_mbk_pair(&kop[%d], %d, %s, &x);\n", k, kd == 1, P->nfplanar > 0 ? "sc" : "NULL");
        else if (kd == 3 || kd == 4) fprintf(o, "    hs_mbk_dist(&kop[%d], %d, &x);\n", k, kd == 3);
        else fprintf(o, "    hs_mbk_dot_qm(&kop[%d], &x);\n", k);
    }
    fprintf(o, "    return hs_mbk_rows_done(g, gam, %d);\n}\n", P->nc);
}

/* The plan's hooks of a generated type: each checks that the first check() compiled the plan
 * written here (else the forwarders of model/mb/hs_mb_tab.c), then calls the kernels directly. */
static int emit_plan(const hs_mb_desc *D, const hs_mb_model *P)
{
    char b1[64], b2[64];
    const int nk = P->nkr + P->nkf, nqq = P->packed ? P->qqsize : P->nq * P->nq;
    for (int k = 0; k < nk; ++k)
        if (!ptr_name(D, P->kop[k].pt, b1, sizeof b1) || !ptr_name(D, P->kop[k].f, b2, sizeof b2)) return 0;
    fprintf(o, "\n/* The compiled plan (model/mb/hs_mb_plan.c) as direct kernel calls (model/mb/hs_mb_kern.h): the\n"
               " * arguments below are those the first check() compiles from the tables above; gen_check()\n"
               " * compares them, and while they differ the hooks take the forwarders' path. */\n");
    fprintf(o, "static const hs_mb_kop kop[%d] = {\n", nk);
    for (int k = 0; k < nk; ++k) {
        const hs_mb_kop *K = &P->kop[k];
        fprintf(o, "    {.kind = %s, .r = %d, .qa = %d, .qb = %d, .ba = %d, .bb = %d, .ga = %d, .gb = %d, .ga2 = %d, .gb2 = %d,\n"
                   "     .kaa = %d, .kbb = %d, .kab = %d, .kba = %d, .sta = %d, .stb = %d,\n     .sa = {",
                KNAME[K->kind], K->r, K->qa, K->qb, K->ba, K->bb, K->ga, K->gb, K->ga2, K->gb2, K->kaa, K->kbb, K->kab,
                K->kba, K->sta, K->stb);
        real((double)K->sa[0]); fprintf(o, ", "); real((double)K->sa[1]); fprintf(o, "}, .sb = {");
        real((double)K->sb[0]); fprintf(o, ", "); real((double)K->sb[1]); fprintf(o, "}, .c = {");
        for (int i = 0; i < 4; ++i) { if (i) fprintf(o, ", "); real((double)K->c[i]); }
        fprintf(o, "},\n     .k = "); real((double)K->k); fprintf(o, ", .l0 = "); real((double)K->l0);
        fprintf(o, ", .pt = %s, .f = %s},\n", ptr_name(D, K->pt, b1, sizeof b1), ptr_name(D, K->f, b2, sizeof b2));
    }
    fprintf(o, "};\nstatic int plan_same; /* 1: the compiled plan is kop (set by gen_check; RAM) */\n\n");
    fprintf(o, "static int gen_check(const hs_model *m)\n{\n    const int rc = hs_mb_gen_check(m);\n    plan_same = 0;\n"
               "    if ((rc == (int)HS_OK) && (mb.plan != 0) && (mb.packed == %d) && (mb.nkr == %d) && (mb.nkf == %d) && (mb.ngz == %d)\n"
               "        && (mb.nmimg == %d)) {\n        plan_same = 1;\n", P->packed, P->nkr, P->nkf, P->ngz, P->nmimg);
    fprintf(o, "        for (int k = 0; k < %d; ++k) {\n            if (hs_mb_kop_same(&mb.kop[k], &kop[k]) == 0) { plan_same = 0; }\n        }\n", nk);
    for (int i = 0; i < P->ngz; ++i)
        fprintf(o, "        if ((mb.gz[%d][0] != %d) || (mb.gz[%d][1] != %d)) { plan_same = 0; }\n", i, P->gz[i][0], i, P->gz[i][1]);
    /* gen_force writes gravity's zero entries as constants */
    for (int i = 0; i < P->nq; ++i)
        if (P->fgrav[i] == 0) fprintf(o, "        if (mb.fgrav[%d] != HS_R(0.0)) { plan_same = 0; }\n", i);
    fprintf(o, "    }\n    return rc;\n}\n\n");
    fprintf(o, "/* 1 when the hooks below run the plan (checked, and no test turned the fast paths off) */\n"
               "static int plan_on(void)\n{\n"
               "    return (plan_same != 0) && (hs_mbk_on(&mb) != 0);\n}\n\n");
    /* mass: M whole from the compiled copy (constant bound), or zero and the diagonal */
    fprintf(o, "static int gen_mass(const hs_model *m, hs_real t, const hs_real *q, hs_real *M)\n{\n"
               "    if (plan_on() == 0) { return hs_mb_gen_mass(m, t, q, M); }\n");
    if (P->nmimg == nqq) {
        /* straight-line: the zeros as constants, the diagonal from the compiled copy */
        for (int i = 0; i < nqq; ++i) {
            if (P->mimg[i] == 0) fprintf(o, "    M[%d] = HS_R(0.0);\n", i);
            else fprintf(o, "    M[%d] = mb.mimg[%d];\n", i, i);
        }
    } else {
        fprintf(o, "    hs_mbk_zero(M, %d);\n", nqq);
        for (int i = 0; i < P->nmd; ++i) fprintf(o, "    M[%d] = mb.mdv[%d];\n", P->mdix[i], i);
    }
    fprintf(o, "    return HS_OK;\n}\n\n");
    fprintf(o, "static int gen_force(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, const hs_real *z,\n"
               "                     const hs_real *in, hs_real *f)\n{\n"
               "    if (plan_on() == 0) { return hs_mb_gen_force(m, t, q, u, z, in, f); }\n");
    if (P->nkf > 0) fprintf(o, "    int rc = HS_OK;\n");
    /* gravity straight-line: the zeros as constants, the others from the compiled plan */
    for (int i = 0; i < P->nq; ++i) {
        if (P->fgrav[i] == 0) fprintf(o, "    f[%d] = HS_R(0.0);\n", i);
        else fprintf(o, "    f[%d] = mb.fgrav[%d];\n", i, i);
    }
    for (int k = P->nkr; k < nk; ++k) fprintf(o, "    rc |= hs_mbk_spring_f(&kop[%d], t, q, f);\n", k);
    fprintf(o, "    return hs_mbk_forces_done(%s, f, %d);\n}\n\n", P->nkf > 0 ? "rc" : "HS_OK", P->nq);
    fprintf(o, "static int gen_force_jac(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, const hs_real *z,\n"
               "                         const hs_real *in, hs_real *fq, hs_real *fu)\n{\n"
               "    if (plan_on() == 0) { return hs_mb_gen_force_jac(m, t, q, u, z, in, fq, fu); }\n");
    if (P->nkf > 0) fprintf(o, "    int rc = HS_OK;\n");
    fprintf(o, "    hs_mbk_zero(fq, %d);\n    hs_mbk_zero(fu, %d);\n", nqq, nqq);
    for (int k = P->nkr; k < nk; ++k) fprintf(o, "    rc |= hs_mbk_spring_j(&kop[%d], t, q, fq);\n", k);
    if (P->nkf > 0)
        fprintf(o, "    return (rc != (int)HS_OK) ? HS_E_MODEL : HS_OK;\n}\n");
    else
        fprintf(o, "    return HS_OK;\n}\n");
    if (P->nc > 0) {
        emit_rows(P);
        fprintf(o, "\nstatic int gen_constraint(const hs_model *m, hs_real t, const hs_real *q, hs_real *g, hs_real *G, hs_real *gt)\n{\n"
                   "    if (plan_on() == 0) { return hs_mb_gen_constraint(m, t, q, g, G, gt); }\n"
                   "    return gen_rows(t, q, NULL, NULL, g, G, gt, NULL, NULL);\n}\n\n"
                   "static int gen_gamma(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u, hs_real *gam)\n{\n"
                   "    if (plan_on() == 0) { return hs_mb_gen_gamma(m, t, q, u, gam); }\n"
                   "    return gen_rows(t, q, u, NULL, NULL, NULL, NULL, gam, NULL);\n}\n\n"
                   "static int gen_curvature(const hs_model *m, hs_real t, const hs_real *q, const hs_real *lambda, hs_real *K)\n{\n"
                   "    if (plan_on() == 0) { return hs_mb_gen_curvature(m, t, q, lambda, K); }\n"
                   "    return gen_rows(t, q, NULL, lambda, NULL, NULL, NULL, NULL, K);\n}\n\n"
                   "static int gen_constraint_all(const hs_model *m, hs_real t, const hs_real *q, const hs_real *u,\n"
                   "                              const hs_real *lambda, hs_real *G, hs_real *gam, hs_real *K)\n{\n"
                   "    if (plan_on() == 0) { return hs_mb_gen_constraint_all(m, t, q, u, lambda, G, gam, K); }\n"
                   "    return gen_rows(t, q, u, lambda, NULL, G, NULL, gam, (lambda != NULL) ? K : NULL);\n}\n");
    }
    return 1;
}

/* --param NAME=VALUE... FILE.hsm: the overrides into ovr and the file into *file; HS_OK, or
 * HS_E_USAGE after the message. */
static hs_status parse_args(int argc, char **argv, hs_mb_overrides *ovr, const char **file)
{
    int ai = 1;
    while (ai + 1 < argc && !strcmp(argv[ai], "--param")) {
        const char *v = argv[ai + 1], *eq = strchr(v, '='), *why = "";
        char name[HS_MB_NAME], *end = NULL;
        double d = eq ? strtod(eq + 1, &end) : 0.0;
        if (!eq || eq == v || (size_t)(eq - v) >= sizeof name) {
            fprintf(stderr, "hilstep-mbgen: --param %s: expected NAME=NUMBER (a name of at most %zu characters)\n",
                    v, sizeof name - 1);
            return HS_E_USAGE;
        }
        if (!end || *end || end == eq + 1 || !isfinite(d)) {
            fprintf(stderr, "hilstep-mbgen: --param %s: the value '%s' of parameter %.*s is not a finite number\n",
                    v, eq + 1, (int)(eq - v), v);
            return HS_E_USAGE;
        }
        memcpy(name, v, (size_t)(eq - v));
        name[eq - v] = 0;
        if (hs_mb_override_add(ovr, name, d, &why)) { fprintf(stderr, "hilstep-mbgen: --param %s: %s\n", v, why); return HS_E_USAGE; }
        ai += 2;
    }
    if (argc - (ai - 1) != 2 || argv[ai][0] == '-') {
        fprintf(stderr, "usage: hilstep-mbgen [--param NAME=VALUE]... FILE.hsm > model/gen/mb_NAME.c\n"
                        "       hilstep-mbgen --header FILE.hsm... > model/gen/mb_gen.h\n"
                        "       hilstep-mbgen --list FILE.hsm... > model/gen/mb_gen.c\n"
                        "       hilstep-mbgen [--param NAME=VALUE]... --workspace FILE.hsm\n");
        return HS_E_USAGE;
    }
    *file = argv[ai];
    return HS_OK;
}

/* The description's bodies and joints as tables. */
static void emit_bodies_joints(const hs_mb_desc *D)
{
    fprintf(o, "static const hs_mb_body bodies[%d] = {\n", D->nbodies);
    for (int b = 0; b < D->nbodies; ++b) {
        const hs_mb_body *B = &D->bodies[b];
        fprintf(o, "    {.name = \"%s\", .kind = %s", B->name, BODY_KIND[B->kind]);
        first = 0;
        freal("mass", B->mass); fvec("inertia", B->inertia, 3); fvec("pos", B->pos, 3);
        fvec("rot", B->rot, 4); fvec("vel", B->vel, 3); fvec("omega", B->omega, 3);
        fprintf(o, "},\n");
    }
    fprintf(o, "};\n");
    if (D->njoints) {
        fprintf(o, "static const hs_mb_joint joints[%d] = {\n", D->njoints);
        for (int j = 0; j < D->njoints; ++j) {
            const hs_mb_joint *J = &D->joints[j];
            fprintf(o, "    {.name = \"%s\", .kind = %s,\n     ", J->name, mb_joint_elems[J->kind]->cname);
            first = 1;
            point("a", &J->a); point("b", &J->b);
            if (J->kind == HS_MB_PERPENDICULAR) { point("c", &J->c); point("d", &J->d); }
            fvec("axis", J->axis, 3); fvec("axis_b", J->axis_b, 3); freal("length", J->length);
            fint("coord", J->coord); ffn("f", &J->f);
            fint("has_comp", J->has_comp); freal("compliance", J->compliance); freal("damping", J->damping);
            if (!zero(J->quad.A, 6) || !zero(J->quad.b, 3) || J->quad.c != 0) {
                sep();
                fprintf(o, ".quad = {");
                first = 1;
                fvec("A", J->quad.A, 6); fvec("b", J->quad.b, 3); freal("c", J->quad.c);
                fprintf(o, "}");
            }
            fprintf(o, "},\n");
        }
        fprintf(o, "};\n");
    }
}

/* The force elements (and the tables they read) as tables. */
static void emit_forces(const hs_mb_desc *D)
{
    for (int e = 0; e < D->nforces; ++e) {
        const hs_mb_table *tb = D->forces[e].tab;
        /* an empty table (a tire without a road profile) reads as none: no empty initializer */
        if (!tb || tb->n == 0) continue;
        fprintf(o, "static const hs_mb_table tab_%d = {.n = %d, .t = {", e, tb->n);
        for (int i = 0; i < tb->n; ++i) { if (i) fprintf(o, ", "); real((double)tb->t[i]); }
        fprintf(o, "}, .v = {");
        /* an engine map holds n x np values and its pedal levels */
        const int nv = (tb->np > 0) ? tb->n * tb->np : tb->n;
        for (int i = 0; i < nv; ++i) { if (i) fprintf(o, ", "); real((double)tb->v[i]); }
        if (tb->np > 0) {
            fprintf(o, "}, .np = %d, .p = {", tb->np);
            for (int i = 0; i < tb->np; ++i) { if (i) fprintf(o, ", "); real((double)tb->p[i]); }
        }
        fprintf(o, "}};\n");
    }
    if (D->nforces) {
        fprintf(o, "static const hs_mb_force forces[%d] = {\n", D->nforces);
        for (int e = 0; e < D->nforces; ++e) {
            const hs_mb_force *F = &D->forces[e];
            fprintf(o, "    {.name = \"%s\", .kind = %s,\n     ", F->name, mb_force_elems[F->kind]->cname);
            first = 1;
            point("a", &F->a); point("b", &F->b);
            freal("k", F->k); freal("c", F->c); freal("l0", F->l0); freal("kr", F->kr); freal("cr", F->cr);
            fint("in0", F->in0); fint("in1", F->in1); fint("in2", F->in2); fint("in3", F->in3); fint("tilt", F->tilt); fint("tset", F->tset); fint("camb", F->camb); fint("bore", F->bore); freal("scale", F->scale); fvec("axis", F->axis, 3); fvec("axis_b", F->axis_b, 3);
            fvec("v", F->v, 3);
            freal("cda", F->cda); freal("cla", F->cla); freal("rho", F->rho);
            fint("bc", F->bc); fint("bd", F->bd);
            if (F->tab && F->tab->n > 0) { sep(); fprintf(o, ".tab = &tab_%d", e); }
            fprintf(o, "},\n");
        }
        fprintf(o, "};\n");
    }
}

/* The signals and outputs as tables. */
static void emit_outputs(const hs_mb_desc *D)
{
    int nsig = 0;
    for (int i = 0; i < D->noutputs; ++i) if (D->outputs[i].sig) ++nsig;
    if (nsig) {
        fprintf(o, "static const hs_mb_signal out_sig[%d] = {\n", nsig);
        for (int i = 0; i < D->noutputs; ++i) if (D->outputs[i].sig) signal_init(D->outputs[i].sig);
        fprintf(o, "};\n");
    }
    if (D->inputs) {
        fprintf(o, "static const hs_mb_signal inputs[%d] = {\n", D->nin);
        for (int i = 0; i < D->nin; ++i) signal_init(&D->inputs[i]);
        fprintf(o, "};\n");
    }
    if (D->noutputs) {
        fprintf(o, "static const hs_mb_output outputs[%d] = {\n", D->noutputs);
        int k = 0;
        for (int i = 0; i < D->noutputs; ++i) {
            const hs_mb_output *O = &D->outputs[i];
            fprintf(o, "    {.kind = %s, .index = %d", OUT_KIND[O->kind], O->index);
            first = 0;
            fint("comp", O->comp); fint("index2", O->index2); freal("offset", O->offset);
            fvec("at", O->at, 3); fint("axes", O->axes);
            if (O->sig) { fprintf(o, ", .sig = &out_sig[%d]", k); ++k; }
            fprintf(o, "},\n");
        }
        fprintf(o, "};\n");
    }
}

/* The names of the inputs and outputs the compiled model reports. */
static void emit_names(const hs_mb_model *M)
{
    if (M->nout) {
        fprintf(o, "static const char *const out_names[%d] = {\n", M->nout);
        for (int i = 0; i < M->nout; ++i) fprintf(o, "    \"%s\",\n", M->out_names[i]);
        fprintf(o, "};\n");
    }
    if (M->nin) {
        fprintf(o, "static const char *const in_names[%d] = {\n", M->nin);
        for (int i = 0; i < M->nin; ++i) fprintf(o, "    \"%s\",\n", M->in_names[i]);
        fprintf(o, "};\n");
    }
}

/* The unilateral elements (model/CONTACT.md): shapes, contacts, stops and the rows compiled
 * from them. */
static void emit_contacts(const hs_mb_desc *D, const hs_mb_model *M)
{
    /* unilateral elements (model/CONTACT.md) */
    if (D->nshapes) {
        static const char *const SK[] = {"HS_MB_SH_SPHERE", "HS_MB_SH_BOX", "HS_MB_SH_CAPSULE", "HS_MB_SH_PLANE", "HS_MB_SH_CYLINDER"};
        fprintf(o, "static const hs_mb_shape shapes[%d] = {\n", D->nshapes);
        for (int i = 0; i < D->nshapes; ++i) {
            const hs_mb_shape *S = &D->shapes[i];
            fprintf(o, "    {.name = \"%s\", .kind = %s, .body = %d", S->name, SK[S->kind], S->body);
            first = 0;
            fvec("pos", S->pos, 3); fvec("size", S->size, 3); fvec("normal", S->normal, 3);
            fprintf(o, "},\n");
        }
        fprintf(o, "};\n");
    }
    if (D->ncontacts) {
        fprintf(o, "static const hs_mb_contact contacts[%d] = {\n", D->ncontacts);
        for (int i = 0; i < D->ncontacts; ++i) {
            const hs_mb_contact *C = &D->contacts[i];
            fprintf(o, "    {.name = \"%s\", .a = %d, .b = %d", C->name, C->a, C->b);
            first = 0;
            freal("mu", C->mu); freal("e", C->e); fint("box", C->box);
            fprintf(o, "},\n");
        }
        fprintf(o, "};\n");
    }
    if (D->nstops) {
        fprintf(o, "static const hs_mb_stop stops[%d] = {\n", D->nstops);
        for (int i = 0; i < D->nstops; ++i) {
            const hs_mb_stop *S = &D->stops[i];
            fprintf(o, "    {.name = \"%s\", .joint = %d", S->name, S->joint);
            first = 0;
            fint("has_min", S->has_min); fint("has_max", S->has_max);
            freal("min", S->min); freal("max", S->max); freal("e", S->e);
            fprintf(o, "},\n");
        }
        fprintf(o, "};\n");
    }
    if (M->nk) {
        fprintf(o, "static const hs_ct_row ct_rows[%d] = {\n", M->nk);
        for (int i = 0; i < M->nk; ++i) {
            const hs_ct_row *R = &M->ct_rows[i];
            fprintf(o, "    {.kind = %d, .normal = %d, .ngroup = %d, .stride = %d", R->kind, R->normal, R->ngroup, R->stride);
            first = 0;
            fint("box", R->box); freal("mu", R->mu); freal("e", R->e); fint("q0", R->q0); fint("q1", R->q1);
            fprintf(o, "},\n");
        }
        fprintf(o, "};\n");
    }
    /* free bodies in contact: the rows as points (rows and bodies) for the body-velocity stage */
    if (M->nk && M->type.ct_points) {
        fprintf(o, "static const hs_ct_point ct_pts[%d] = {\n", M->ct_npts);
        for (int i = 0; i < M->ct_npts; ++i) {
            const hs_ct_point *P = &M->ct_pts[i];
            fprintf(o, "    {.row = %d, .nrow = %d, .a = %d, .b = %d},\n", P->row, P->nrow, P->a, P->b);
        }
        fprintf(o, "};\n");
    }
}

/* The description itself and the instance state of the generated type. */
static void emit_desc(const hs_mb_desc *D, const hs_mb_model *M, const char *N)
{
    fprintf(o, "static const hs_mb_desc desc = {\n    .name = \"%s\", .dim = %d, .nin = %d", N, D->dim, D->nin);
    first = 0;
    fvec("gravity", D->gravity, 3);
    if (D->inputs) fprintf(o, ", .inputs = inputs");
    fprintf(o, ",\n    .bodies = bodies, .nbodies = %d,\n", D->nbodies);
    fprintf(o, "    .joints = %s, .njoints = %d,\n", D->njoints ? "joints" : "NULL", D->njoints);
    fprintf(o, "    .forces = %s, .nforces = %d,\n", D->nforces ? "forces" : "NULL", D->nforces);
    fprintf(o, "    .outputs = %s, .noutputs = %d,\n", D->noutputs ? "outputs" : "NULL", D->noutputs);
    if (D->nshapes) fprintf(o, "    .shapes = shapes, .nshapes = %d,\n", D->nshapes);
    if (D->ncontacts) fprintf(o, "    .contacts = contacts, .ncontacts = %d,\n", D->ncontacts);
    if (D->nstops) fprintf(o, "    .stops = stops, .nstops = %d,\n", D->nstops);
    if (D->ct_sweeps) fprintf(o, "    .ct_sweeps = %d,\n", D->ct_sweeps);
    fprintf(o, "};\n");
    fprintf(o,
        "\n/* compiled by the first check() (index maps, rows) and the instance bound to it: RAM */\n"
        "static hs_mb_model mb;\n"
        "static hs_model inner;\n"
        "static const hs_mb_gen gen = {.desc = &desc, .mb = &mb, .inner = &inner,\n"
        "                              .nq = %d, .nc = %d, .nin = %d, .nout = %d};\n",
        M->nq, M->nc, M->nin, M->nout);
}

/* The model type: the plan's hooks when the description compiles to a plan, else the shared
 * hs_mb_gen_* ones. */
static void emit_type(const hs_mb_desc *D, const hs_mb_model *M, const char *N, const char *base)
{
    /* the plan, compiled in the layout the first check() compiles the tables in */
    static hs_mb_model pm;
    int planned = 0;
    if (hs_mb_compile(D, &pm, HS_MB_PACK_AUTO, NULL) == HS_OK && pm.plan) planned = emit_plan(D, &pm);
    const char *pfx = planned ? "gen" : "hs_mb_gen";
    fprintf(o,
        "\nconst hs_model_type hs_mb_%s_type = {\n"
        "    .name = \"%s\",\n"
        "    .doc = \"multibody description model/mech/%s (generated tables)\",\n"
        "    .nq = %d,\n    .nc = %d,\n    .nz = %d,\n    .nin = %d,\n    .nout = %d,\n"
        "    .in_names = %s,\n    .out_names = %s,\n"
        "    .check = %s_check,\n    .initial = hs_mb_gen_initial,\n    .mass = %s_mass,\n"
        "    .force = %s_force,\n    .force_jac = %s_force_jac,\n",
        N, N, base, M->nq, M->nc, M->nz, M->nin, M->nout, M->nin ? "in_names" : "NULL", M->nout ? "out_names" : "NULL",
        pfx, pfx, pfx, pfx);
    if (M->nc)
        fprintf(o, "    .constraint = %s_constraint,\n    .gamma = %s_gamma,\n"
                   "    .curvature = %s_curvature,\n", pfx, pfx, pfx);
    /* the planar fast path's shortcuts, as hs_mb_compile sets them for a loaded file */
    if (M->type.constraint_all) fprintf(o, "    .constraint_all = %s_constraint_all,\n", pfx);
    if (M->type.masks) fprintf(o, "    .masks = hs_mb_gen_masks,\n");
    if (M->type.symmetric_jac) fprintf(o, "    .symmetric_jac = 1,\n");
    if (M->type.mass_blockdiag) fprintf(o, "    .mass_blockdiag = 1,\n");
    /* the bound model is compiled packed or not at run time (hs_mb_gen_blocks): the hook says which */
    if (M->nc) fprintf(o, "    .leaf_rows = hs_mb_gen_leaf_rows,\n");
    /* auxiliary states (tire treads): the stepper advances them from zdot */
    if (M->nz) fprintf(o, "    .force_fj = hs_mb_gen_force_fj,\n    .zdot = hs_mb_gen_zdot,\n");
    if (M->nout) fprintf(o, "    .output = hs_mb_gen_output,\n");
    /* quaternion bodies: M depends on q (method dvp needs this) */
    if (hs_mb_has_spatial(M)) fprintf(o, "    .lagrange = hs_mb_gen_lagrange,\n");
    fprintf(o, "    .blocks = hs_mb_gen_blocks,\n");
    if (M->nk)
        fprintf(o, "    .nk = %d,\n    .ct_rows = ct_rows,\n    .unilateral = hs_mb_gen_unilateral,\n    .ct_sweeps = %d,\n",
                M->nk, M->type.ct_sweeps);
    /* joints declared compliant: the stepper reads their rows' compliance through the hook */
    if (M->type.compliance) fprintf(o, "    .compliance = hs_mb_gen_compliance,\n");
    /* only free spatial bodies under gravity: the body-velocity form (hs_fb_info) */
    if (M->type.free_bodies) fprintf(o, "    .free_bodies = hs_mb_gen_free_bodies,\n");
    /* spatial bodies: the in-step range check's rate and the rotation update (rt/hs_sdirk.c) */
    if (M->type.spin) fprintf(o, "    .spin = hs_mb_gen_spin,\n    .quats = hs_mb_gen_quats,\n");
    fprintf(o, "    .err_groups = hs_mb_gen_err_groups,\n");
    if (M->nk && M->type.ct_points)
        fprintf(o, "    .ct_npoints = %d,\n    .ct_pts = ct_pts,\n    .ct_points = hs_mb_gen_ct_points,\n", M->ct_npts);
    /* a potential with a floor: the energy the model can release, the energy error's scale */
    if (M->type.release) fprintf(o, "    .release = hs_mb_gen_release,\n");
    fprintf(o, "    .energy = hs_mb_gen_energy,\n    .motion = hs_mb_gen_motion,\n    .data = &gen,\n};\n");
}

/* The tables of D (bodies to outputs), indented into place by the caller: written to memory
 * first. HS_OK, or HS_E_WRITE when no memory stream could be made or closed. */
static hs_status emit_tables(const hs_mb_desc *D, char **tbuf, size_t *tlen)
{
    FILE *out = o;
    o = open_memstream(tbuf, tlen);
    if (!o) { o = out; fprintf(stderr, "hilstep-mbgen: out of memory\n"); return HS_E_WRITE; }
    emit_bodies_joints(D);
    emit_forces(D);
    emit_outputs(D);
    const int closed = fclose(o);
    o = out;
    if (closed != 0) { fprintf(stderr, "hilstep-mbgen: out of memory\n"); return HS_E_WRITE; }
    return HS_OK;
}

/* One description FILE.hsm to the C tables of model/gen/mb_NAME.c on standard output. */
static hs_status generate(const char *file, const hs_mb_overrides *ovr)
{
    static hs_mb_store st;
    static hs_mb_model mb;
    {
        char msg[600];
        if (hs_mb_load_file_ovr(file, &st, ovr, &mb, 0, msg, sizeof msg)) {
            fprintf(stderr, "hilstep-mbgen: %s\n", msg);
            return HS_E_MODEL_PARAM;
        }
    }
    const hs_mb_desc *D = &st.desc;
    const char *N = st.name;
    const char *base = base_name(file);
    o = stdout;
    fprintf(o, "/* mb_%s.c - generated by hilstep-mbgen from model/mech/%s; do not edit (make mb-test\n"
               " * checks that regenerating gives this file). The multibody description as C tables:\n"
               " * hs_mb_%s_type runs on the board with the host's --model-file trajectory bits. */\n",
            N, base, N);
    fprintf(o, "#include \"hs_mb.h\"\n#include \"hs_mb_kern.h\"\n#include \"mb_gen.h\"\n\n");
    /* The tables go inside bind(), their only user (MISRA 8.9). */
    char *tbuf = NULL;
    size_t tlen = 0;
    if (emit_tables(D, &tbuf, &tlen) != HS_OK) return HS_E_WRITE;
    emit_names(&mb);
    /* the tables at file scope; the hooks are model/mb/hs_mb_tab.c's, shared by every generated type */
    fputc('\n', o);
    if (tbuf) fputs(tbuf, o);
    free(tbuf);
    emit_contacts(D, &mb);
    emit_desc(D, &mb, N);
    emit_type(D, &mb, N, base);
    if (fflush(o) != 0 || ferror(o)) {
        fprintf(stderr, "hilstep-mbgen: write error\n");
        return HS_E_WRITE;
    }
    return HS_OK;
}

/* --workspace: the largest exact arena need of FILE over every configuration the stepper
 * accepts (h = 1 ms; the sizes do not depend on h), loaded as the board's generated type
 * compiles it (HS_MB_PACK_AUTO, model/mb/hs_mb_tab.c). */
static hs_status workspace(const char *file, const hs_mb_overrides *ovr)
{
    static hs_mb_store st;
    static hs_mb_model mb;
    static int tmp[1 << 20];
    char msg[600];
    if (hs_mb_load_file_ovr(file, &st, ovr, &mb, HS_MB_PACK_AUTO, msg, sizeof msg)) {
        fprintf(stderr, "hilstep-mbgen: %s\n", msg);
        return HS_E_MODEL_PARAM;
    }
    hs_model m;
    if (hs_mb_model_init(&m, &mb) != HS_OK || hs_model_check(&m) != HS_OK) {
        fprintf(stderr, "hilstep-mbgen: --workspace %s: the description does not bind as a model\n", file);
        return HS_E_MODEL_PARAM;
    }
    size_t rmax = 0, imax = 0;
    int ok = 0;
    for (int me = 0; me < HS_METHOD_COUNT; ++me)
        for (int fo = HS_FORM_INDEX1; fo <= HS_FORM_GGL; ++fo)
            for (int sb = HS_STAB_NONE; sb <= HS_STAB_PROJECTION; ++sb) {
                hs_stepper_def d = hs_stepper_default_def();
                d.method = (hs_method)me;
                d.form = (hs_form)fo;
                d.stab = (hs_stab)sb;
                d.h = HS_R(1e-3);
                d.alpha = HS_R(1e3);
                d.beta = HS_R(1e6);
                size_t nr = 0, ni = 0;
                if (hs_stepper_workspace_tmp(&d, &m, tmp, sizeof tmp / sizeof tmp[0], &nr, &ni) != HS_OK) continue;
                ok = 1;
                if (nr > rmax) rmax = nr;
                if (ni > imax) imax = ni;
            }
    if (!ok) {
        fprintf(stderr, "hilstep-mbgen: --workspace %s: no stepper configuration accepts the description\n", file);
        return HS_E_MODEL_PARAM;
    }
    printf("/* the stepper arenas of %s: the largest exact need (hs_stepper_workspace_tmp) over every\n"
           " * method, form and stabilization the stepper accepts for it (hilstep-mbgen --workspace) */\n"
           "#define HS_PLANT_WS_REALS %zu\n#define HS_PLANT_WS_INTS %zu\n", file, rmax, imax);
    if (fflush(stdout) != 0 || ferror(stdout)) return HS_E_WRITE;
    return HS_OK;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && (!strcmp(argv[1], "--header") || !strcmp(argv[1], "--list")))
        return index_files(!strcmp(argv[1], "--header"), argc - 2, argv + 2);
    static hs_mb_overrides ovr; /* --param NAME=VALUE: the description's params for this build */
    const char *file = NULL;
    int ws = 0;
    for (int i = 1; i < argc; ++i)
        if (!strcmp(argv[i], "--workspace")) { /* drop it from the arguments parse_args reads */
            ws = 1;
            for (int j = i; j + 1 < argc; ++j) argv[j] = argv[j + 1];
            --argc;
            break;
        }
    hs_status rc = parse_args(argc, argv, &ovr, &file);
    if (rc == HS_OK) rc = ws ? workspace(file, &ovr) : generate(file, &ovr);
    return hs_exit_of(HS_TOOL_MBGEN, rc);
}
