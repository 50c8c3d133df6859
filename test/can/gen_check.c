/* gen_check.c - the C table hilstep-dbcgen writes (linked in as hs_can_db_gen) equals, field by
 * field and bit for bit, what the parser reads from the same file (argv[1]); then both bind to
 * the circular track's plant the same way. Prints "can-gen: N passed, N failed". */
#include "hs_dbc_file.h"
#include "hs_test.h"

#include <stdio.h>
#include <string.h>

extern const hs_can_db hs_can_db_gen;
static hs_can_db db;
static const char *dbc_path; /* argv[1] */
static int loaded;           /* 1 when the parser read dbc_path */

/* The generated table equals the parsed file, field by field and bit for bit. */
static void generated_table(void)
{
    if (!loaded) return;
    const hs_can_db *g = &hs_can_db_gen;
    int bad = g->nmsg != db.nmsg || g->nsig != db.nsig;
    for (int m = 0; m < db.nmsg; ++m) {
        const hs_can_msg *a = &db.msg[m], *b = &g->msg[m];
        bad += strcmp(a->name, b->name) || a->id != b->id || a->ext != b->ext || a->fd != b->fd ||
               a->len != b->len || a->cycle_ms != b->cycle_ms || a->stale_cycles != b->stale_cycles ||
               a->first != b->first || a->n != b->n || a->line != b->line || a->e2e != b->e2e ||
               a->e2e_data_id != b->e2e_data_id || a->e2e_ctr != b->e2e_ctr || a->e2e_crc != b->e2e_crc;
    }
    for (int j = 0; j < db.nsig; ++j) {
        const hs_can_sig *a = &db.sig[j], *b = &g->sig[j];
        bad += strcmp(a->name, b->name) || strcmp(a->unit, b->unit) || a->start != b->start ||
               a->len != b->len || a->intel != b->intel || a->is_signed != b->is_signed ||
               a->has_init != b->has_init || memcmp(&a->factor, &b->factor, sizeof a->factor) ||
               memcmp(&a->offset, &b->offset, sizeof a->offset) || memcmp(&a->min, &b->min, sizeof a->min) ||
               memcmp(&a->max, &b->max, sizeof a->max) || memcmp(&a->init_raw, &b->init_raw, sizeof a->init_raw) ||
               a->e2e_role != b->e2e_role;
    }
    char what[160];
    snprintf(what, sizeof what, "generated table = parsed file: %d messages, %d signals, every field bit-identical",
             db.nmsg, db.nsig);
    CHECK_NAMED(bad == 0, what);
}

/* Both bind to the circular track's plant alike. */
static void bind_alike(void)
{
    if (!loaded) return;
    static const char *const in[] = {"F_t"}, *const out[] = {"speed", "radius", "x1", "x2"};
    hs_can_link L1, L2;
    hs_dbc_error e1, e2;
    int r1 = hs_can_bind(&L1, &db, in, 1, out, 4, 1000u, &e1);
    int r2 = hs_can_bind(&L2, &hs_can_db_gen, in, 1, out, 4, 1000u, &e2);
    int same = r1 == 0 && r2 == 0 && !memcmp(L1.dir, L2.dir, sizeof L1.dir) && !memcmp(L1.every, L2.every, sizeof L1.every) &&
               !memcmp(L1.stale, L2.stale, sizeof L1.stale) && !memcmp(L1.slot, L2.slot, sizeof L1.slot);
    CHECK_NAMED(same, "both bind to the circular track's plant alike (directions, cycles, staleness, slots)");
}

/* The file itself: a load failure is the one failed check (the other tests need it). */
static void load(void)
{
    char msg[512];
    loaded = dbc_path != NULL && hs_dbc_load_file(dbc_path, &db, msg, sizeof msg) == 0;
    if (!loaded) CHECK_NAMED(0, "load");
}

static const hs_test_case tests[] = {
    HS_TEST_ROW(load),
    HS_TEST_ROW(generated_table),
    HS_TEST_ROW(bind_alike),
};

int main(int argc, char **argv)
{
    dbc_path = argc == 2 ? argv[1] : NULL;
    return hs_test_run("can-gen", tests, HS_TEST_COUNT(tests), 0) != 0;
}
