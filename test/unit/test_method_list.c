/* test_method_list.c - a method, a family and a stage are each written once, as a row of
 * rt/hs_methods.h; this test expands those lists here, independently of the library's own
 * expansions, and checks every place that must list the row: the hs_method enum (the row's
 * value, its place in the list), the method table (rt/hs_methods.c) and the name parser, the
 * family externs (rt/hs_stage.h), the hs_stage enum and hs_stage_name. A row added with a
 * value out of place, a name taken twice, a family no method reaches or a stage name taken
 * twice fails here. Runs in both real types and on the board. */
#include "hs_stage.h"
#include "hs_test.h"

static int ml_streq(const char *a, const char *b)
{
    while ((*a != '\0') && (*a == *b)) { ++a; ++b; }
    return *a == *b;
}

/* Each row once more, as this test reads it. */
typedef struct ml_row {
    hs_method id;
    int value;
    const char *name, *family, *summary, *hooks;
    const hs_family *row;
    unsigned flags;
} ml_row;

#define ML_ROW(id, value, name, family, row, summary, hooks, flags) \
    {id, value, name, family, summary, hooks, &row, flags},
static const ml_row ml_rows[] = {HS_METHOD_LIST(ML_ROW)};
#define ML_NROWS ((int)(sizeof ml_rows / sizeof ml_rows[0]))

#define ML_FAM(row) &row,
static const hs_family *const ml_fams[] = {HS_FAMILY_LIST(ML_FAM)};
#define ML_NFAMS ((int)(sizeof ml_fams / sizeof ml_fams[0]))

typedef struct ml_stage {
    hs_stage id;
    const char *name;
} ml_stage;
#define ML_STAGE(id, name) {id, name},
static const ml_stage ml_stages[] = {HS_STAGE_LIST(ML_STAGE)};
#define ML_NSTAGES ((int)(sizeof ml_stages / sizeof ml_stages[0]))

/* 1 when some method reaches family f: a row names it, or (sdirk's free-body path, which no
 * row names) another family's path() hands models to it. */
static int ml_reached(const hs_family *f)
{
    for (int i = 0; i < ML_NROWS; ++i) {
        if (ml_rows[i].row == f) return 1;
    }
    return f == &hs_family_fb && hs_family_sdirk.path != NULL;
}

static void method_rows(void)
{
    CHECK(ML_NROWS == HS_METHOD_COUNT);
    CHECK(sizeof hs_method_table / sizeof hs_method_table[0] == (size_t)ML_NROWS);
    for (int i = 0; i < ML_NROWS; ++i) {
        const ml_row *r = &ml_rows[i];
        const hs_method_info *t = hs_method_info_of(r->id);
        hs_method me = HS_METHOD_COUNT > 0 ? (hs_method)0 : HS_METHOD_EXPLICIT;
        /* the enumerator is the row's value and the value its place in the list */
        CHECK((int)r->id == r->value && r->value == i);
        /* the table's row is this row, field by field */
        CHECK(t == &hs_method_table[i] && t->id == r->id && ml_streq(t->name, r->name)
              && ml_streq(t->family, r->family) && ml_streq(t->summary, r->summary)
              && ml_streq(t->hooks, r->hooks) && t->flags == r->flags
              && (const hs_family *)t->fam == r->row && hs_method_family(r->id) == r->row
              && hs_method_flags(r->id) == r->flags);
        /* the name a tool takes is parsed back to this row and printed as it */
        CHECK(hs_method_parse(r->name, &me) == HS_OK && me == r->id && ml_streq(hs_method_name(r->id), r->name));
        /* its family is one of HS_FAMILY_LIST's rows */
        int fam = 0;
        for (int k = 0; k < ML_NFAMS; ++k) fam += ml_fams[k] == r->row;
        CHECK(fam == 1 && r->name[0] != '\0' && r->summary[0] != '\0' && r->family[0] != '\0');
        for (int j = 0; j < i; ++j) CHECK(!ml_streq(ml_rows[j].name, r->name));
    }
    /* a value past the last row is no method */
    CHECK(hs_method_info_of((hs_method)ML_NROWS) == NULL && ml_streq(hs_method_name((hs_method)ML_NROWS), "?"));
}

static void family_rows(void)
{
    for (int k = 0; k < ML_NFAMS; ++k) {
        const hs_family *f = ml_fams[k];
        CHECK(f->validate != NULL && f->configure != NULL && f->plan != NULL && f->step != NULL);
        CHECK(ml_reached(f));
        for (int j = 0; j < k; ++j) CHECK(ml_fams[j] != f);
    }
}

static void stage_rows(void)
{
    CHECK(ML_NSTAGES == (int)HS_STAGE_COUNT);
    for (int i = 0; i < ML_NSTAGES; ++i) {
        CHECK((int)ml_stages[i].id == i && ml_stages[i].name[0] != '\0'
              && ml_streq(hs_stage_name(ml_stages[i].id), ml_stages[i].name));
        for (int j = 0; j < i; ++j) CHECK(!ml_streq(ml_stages[j].name, ml_stages[i].name));
    }
    CHECK(ml_streq(hs_stage_name(HS_STAGE_COUNT), "?"));
    /* a plan holds at most HS_STEPPER_MAX_STAGES stages, each stored in an unsigned char */
    CHECK(HS_STAGE_COUNT <= 256);
}

void test_method_list(void)
{
    method_rows();
    family_rows();
    stage_rows();
}
