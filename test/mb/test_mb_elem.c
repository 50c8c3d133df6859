/* test_mb_elem.c - the element tables (model/elements/hs_mb_elem.c) declare every property:
 * each row of both tables has its name, its functions and each of the properties the layer
 * reads instead of testing kinds (hs_mb_int.h) set explicitly, so a new kind cannot inherit
 * one silently (0 = not declared is refused). */
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
    }
    char what[1200];
    snprintf(what, sizeof what, "joint table: each of the %d rows declares name, functions, keys, init_value, motion, drive, stop, hinge%s%s",
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
        const mb_force_states *st = mb_force_states_of[k];
        note(st == NULL || (st->nz >= 1 && st->zdot != NULL && st->eval_z != NULL), n, "states", why, sizeof why, &bad);
    }
    snprintf(what, sizeof what, "force table: each of the %d rows declares name, functions, keys, passive, spring, hinge, tire (and its states when it has any)%s%s",
             (int)HS_MB_FORCE_KINDS, bad ? "; missing: " : "", why);
    mb_check(bad == 0, what);
    fails += bad;
    /* The fuzzer's dictionary of the description language names every kind of both tables
     * (a dictionary kept by hand is checked against the tables, not trusted). */
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
        snprintf(q, sizeof q, "\"%s\"\n", n);
        note(strstr(dict, q) != NULL, n, "dict", why, sizeof why, &bad);
    }
    snprintf(what, sizeof what, "%s names all %d joint and force kinds of the tables%s%s", MB_DICT,
             (int)(HS_MB_JOINT_KINDS + HS_MB_FORCE_KINDS), bad ? "; missing: " : "", why);
    mb_check(nd > 0u && bad == 0, what);
    return fails + bad;
}
