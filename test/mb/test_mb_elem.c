/* test_mb_elem.c - the element tables (model/elements/hs_mb_elem.c) declare every property:
 * each row of both tables has its name, its functions and each of the properties the layer
 * reads instead of testing kinds (hs_mb_int.h) set explicitly, so a new kind cannot inherit
 * one silently (0 = not declared is refused); and the kind lists (model/mb/hs_mb_kinds.h),
 * the one place a kind is written down, agree with the enums, the tables and the files. */
#include <stdio.h>
#include <string.h>

#include "hs_mb_int.h"
#include "mb_test.h"

/* The description language's fuzz dictionary (make mb-test runs from the tree's root). */
#define MB_DICT "test/fuzz/mbfile.dict"

/* 1 when v is MB_NO or MB_YES. */
static int yes_no(int v) { return v == MB_NO || v == MB_YES; }

/* Appends "kind.field " to the report when ok is 0. */
static void note(int ok, const char *kind, const char *field, char *why, size_t cap, int *bad)
{
    if (ok) return;
    ++*bad;
    const size_t n = strlen(why);
    if (n + 1 < cap) snprintf(why + n, cap - n, "%s.%s ", kind, field);
}

/* One row of a kind list (model/mb/hs_mb_kinds.h) as this test expands it. */
typedef struct kind_row {
    int id, value;
    const char *cname; /* the enumerator's spelling */
    const void *row;   /* the element row the list names */
} kind_row;
#define KIND_ROW(id, value, row) {(int)(id), (value), #id, &(row)},
#define FKIND_ROW(id, value, row, st) KIND_ROW(id, value, row)
static const kind_row joint_rows[] = {HS_MB_JOINT_LIST(KIND_ROW)};
static const kind_row force_rows[] = {HS_MB_FORCE_LIST(FKIND_ROW)};

/* Checks one list against its table: the enumerator is the row's value, the value its place
 * (the table is indexed by it), the table's entry the row the list names, the row's cname
 * (which hilstep-mbgen writes into generated code) the enumerator, its keyword unique and
 * its file model/elements/<prefix><keyword>.c present. Returns the failures. */
static int kind_list(const char *what, const kind_row *r, int n, int nkinds, const void *const *table,
                     const char *const *names, const char *const *cnames, const char *prefix)
{
    char why[1024] = "";
    int bad = 0;
    note(n == nkinds, what, "count", why, sizeof why, &bad);
    for (int k = 0; k < n && k < nkinds; ++k) {
        const char *nm = names[k] != NULL ? names[k] : "?";
        note(r[k].id == k && r[k].value == k, nm, "value", why, sizeof why, &bad);
        note(table[k] == r[k].row, nm, "table", why, sizeof why, &bad);
        note(cnames[k] != NULL && strcmp(cnames[k], r[k].cname) == 0, nm, "cname", why, sizeof why, &bad);
        for (int j = 0; j < k; ++j) note(names[j] == NULL || strcmp(names[j], nm) != 0, nm, "unique", why, sizeof why, &bad);
        char path[128];
        snprintf(path, sizeof path, "model/elements/%s%s.c", prefix, nm);
        FILE *f = fopen(path, "r");
        note(f != NULL, nm, "file", why, sizeof why, &bad);
        if (f != NULL) fclose(f);
    }
    char msg[1200];
    snprintf(msg, sizeof msg, "%s: each of the %d rows at its kind number, in the table, its constant, its keyword and its file%s%s",
             what, n, bad ? "; wrong: " : "", why);
    mb_check(bad == 0, msg);
    return bad;
}

/* The kinds with states: a force row's st flag (1: the kind has auxiliary states) and the
 * side table agree: st = 1 rows point to their file's <row>_states, with at least one state
 * and both functions; st = 0 rows have no entry. The flags are read from the list itself. */
typedef struct states_row {
    int id, st;
} states_row;
#define STATES_ROW(id, value, row, st) {(int)(id), (st)},
static const states_row states_rows[] = {HS_MB_FORCE_LIST(STATES_ROW)};

static int states_list(void)
{
    char why[512] = "";
    int bad = 0, with = 0;
    const int n = (int)(sizeof states_rows / sizeof states_rows[0]);
    note(n == HS_MB_FORCE_KINDS, "HS_MB_FORCE_LIST", "count", why, sizeof why, &bad);
    for (int i = 0; i < n; ++i) {
        const int k = states_rows[i].id;
        if (k < 0 || k >= HS_MB_FORCE_KINDS) {
            note(0, "?", "kind", why, sizeof why, &bad);
            continue;
        }
        const char *nm = mb_force_elems[k]->name;
        const mb_force_states *st = mb_force_states_of[k];
        with += states_rows[i].st;
        note((states_rows[i].st == 1) == (st != NULL), nm, "states", why, sizeof why, &bad);
        if (st != NULL)
            note(st->nz >= 1 && st->zdot != NULL && st->eval_z != NULL, nm, "functions", why, sizeof why, &bad);
    }
    char msg[700];
    snprintf(msg, sizeof msg, "HS_MB_FORCE_LIST: the %d kinds with st = 1 and only they have side-table entries%s%s", with,
             bad ? "; wrong: " : "", why);
    mb_check(bad == 0 && with >= 1, msg);
    return bad;
}

/* hs_mb_compile's record names the refused entry: a body of mass 0 at index 1 is "body" 1
 * with the pass's reason, status and index; a NULL description is HS_E_NULL, no entry. */
static int compile_record(void)
{
    static const hs_mb_body b[2] = {
        {.name = "a", .kind = HS_MB_PLANAR, .mass = 1, .inertia = {0, 0, 1}},
        {.name = "b", .kind = HS_MB_PLANAR, .mass = 0, .inertia = {0, 0, 1}}};
    static const hs_mb_desc D = {.name = "rec", .dim = 2, .bodies = b, .nbodies = 2};
    static hs_mb_model mb;
    hs_error e, en;
    const hs_status rc = hs_mb_compile(&D, &mb, 0, &e);
    const hs_status rn = hs_mb_compile(NULL, &mb, 0, &en);
    const int ok = rc == HS_E_MODEL_PARAM && e.status == rc && e.index == 1 && strcmp(e.field, "body") == 0
                   && e.msg != NULL && e.msg[0] != '\0' && e.line == 0
                   && rn == HS_E_NULL && en.status == HS_E_NULL && en.index == -1 && en.field[0] == '\0'
                   && en.msg != NULL && hs_mb_compile(&D, &mb, 0, NULL) == HS_E_MODEL_PARAM;
    char msg[600];
    snprintf(msg, sizeof msg, "hs_mb_compile's hs_error: a massless body 1 is rc %d, field '%s', index %d (%s); NULL: rc %d, index %d",
             (int)rc, e.field, e.index, e.msg != NULL ? e.msg : "no msg", (int)rn, en.index);
    mb_check(ok, msg);
    return ok ? 0 : 1;
}

/* Both kind lists against the enums, the tables and the element files. */
static int kind_lists(void)
{
    const void *jt[HS_MB_JOINT_KINDS], *ft[HS_MB_FORCE_KINDS];
    const char *jn[HS_MB_JOINT_KINDS], *jc[HS_MB_JOINT_KINDS], *fn[HS_MB_FORCE_KINDS], *fc[HS_MB_FORCE_KINDS];
    for (int k = 0; k < HS_MB_JOINT_KINDS; ++k) {
        jt[k] = mb_joint_elems[k];
        jn[k] = mb_joint_elems[k] != NULL ? mb_joint_elems[k]->name : NULL;
        jc[k] = mb_joint_elems[k] != NULL ? mb_joint_elems[k]->cname : NULL;
    }
    for (int k = 0; k < HS_MB_FORCE_KINDS; ++k) {
        ft[k] = mb_force_elems[k];
        fn[k] = mb_force_elems[k] != NULL ? mb_force_elems[k]->name : NULL;
        fc[k] = mb_force_elems[k] != NULL ? mb_force_elems[k]->cname : NULL;
    }
    return kind_list("HS_MB_JOINT_LIST", joint_rows, (int)(sizeof joint_rows / sizeof joint_rows[0]),
                     HS_MB_JOINT_KINDS, jt, jn, jc, "hs_mb_jt_")
           + kind_list("HS_MB_FORCE_LIST", force_rows, (int)(sizeof force_rows / sizeof force_rows[0]),
                       HS_MB_FORCE_KINDS, ft, fn, fc, "hs_mb_el_")
           + states_list() + compile_record();
}

int mb_test_elem(void)
{
    char why[1024] = "";
    int bad = 0;
    for (int k = 0; k < HS_MB_JOINT_KINDS; ++k) {
        const mb_joint_elem *el = mb_joint_elems[k];
        if (el == NULL) { note(0, "joint", "row", why, sizeof why, &bad); continue; }
        const char *n = el->name != NULL ? el->name : "?";
        note(el->name != NULL && el->cname != NULL, n, "name", why, sizeof why, &bad);
        note(el->check != NULL && el->rows != NULL && el->coord_kind != NULL && el->coord != NULL, n, "functions", why, sizeof why, &bad);
        note((el->need & ~el->keys) == 0u, n, "need", why, sizeof why, &bad);
        note(el->init_value == 0 || el->init_value == 1, n, "init_value", why, sizeof why, &bad);
        note(el->motion == MB_MO_NONE || el->motion == MB_MO_RIGID || el->motion == MB_MO_ROD, n, "motion", why, sizeof why, &bad);
        note(yes_no(el->drive), n, "drive", why, sizeof why, &bad);
        note(yes_no(el->stop), n, "stop", why, sizeof why, &bad);
        note(yes_no(el->hinge), n, "hinge", why, sizeof why, &bad);
        note(yes_no(el->relative), n, "relative", why, sizeof why, &bad);
    }
    char what[1200];
    snprintf(what, sizeof what, "joint table: each of the %d rows declares name, functions, keys, init_value, motion, drive, stop, hinge, relative%s%s",
             (int)HS_MB_JOINT_KINDS, bad ? "; missing: " : "", why);
    mb_check(bad == 0, what);
    int fails = bad;
    why[0] = 0;
    bad = 0;
    for (int k = 0; k < HS_MB_FORCE_KINDS; ++k) {
        const mb_force_elem *el = mb_force_elems[k];
        if (el == NULL) { note(0, "force", "row", why, sizeof why, &bad); continue; }
        const char *n = el->name != NULL ? el->name : "?";
        note(el->name != NULL && el->cname != NULL, n, "name", why, sizeof why, &bad);
        note(el->check != NULL && el->eval != NULL, n, "functions", why, sizeof why, &bad);
        note((el->need & ~el->keys) == 0u, n, "need", why, sizeof why, &bad);
        note(yes_no(el->passive), n, "passive", why, sizeof why, &bad);
        note(yes_no(el->spring), n, "spring", why, sizeof why, &bad);
        note(yes_no(el->hinge), n, "hinge", why, sizeof why, &bad);
        note(yes_no(el->tire), n, "tire", why, sizeof why, &bad);
        note(el->nval >= 0 && el->nval <= MB_FORCE_NVAL && (el->nval == 0) == (el->values == NULL), n, "nval", why, sizeof why, &bad);
        const mb_force_states *st = mb_force_states_of[k];
        note(st == NULL || (st->nz >= 1 && st->zdot != NULL && st->eval_z != NULL), n, "states", why, sizeof why, &bad);
    }
    snprintf(what, sizeof what, "force table: each of the %d rows declares name, functions, keys, passive, spring, hinge, tire (and its states when it has any)%s%s",
             (int)HS_MB_FORCE_KINDS, bad ? "; missing: " : "", why);
    mb_check(bad == 0, what);
    fails += bad;
    /* The fuzzer's dictionary: test/fuzz/run_fuzz.sh adds each kind's keyword from its file's
     * name (kind_lists checks keyword = file name), so the hand-kept part must not list kinds
     * a second time: a kind word there is a list kept by hand. */
    static char dict[1 << 14];
    FILE *df = fopen(MB_DICT, "r");
    const size_t nd = df != NULL ? fread(dict, 1, sizeof dict - 1, df) : 0u;
    if (df != NULL) fclose(df);
    dict[nd] = 0;
    why[0] = 0;
    bad = 0;
    for (int k = 0; k < HS_MB_JOINT_KINDS + HS_MB_FORCE_KINDS; ++k) {
        const char *n = k < HS_MB_JOINT_KINDS ? mb_joint_elems[k]->name : mb_force_elems[k - HS_MB_JOINT_KINDS]->name;
        char q[64];
        snprintf(q, sizeof q, "\n\"%s\"\n", n);
        note(strstr(dict, q) == NULL, n, "dict", why, sizeof why, &bad);
    }
    snprintf(what, sizeof what, "%s lists none of the %d joint and force kinds (run_fuzz.sh adds them from model/elements/)%s%s",
             MB_DICT, (int)(HS_MB_JOINT_KINDS + HS_MB_FORCE_KINDS), bad ? "; listed by hand: " : "", why);
    mb_check(nd > 0u && bad == 0, what);
    fails += bad;
    return fails + kind_lists();
}
