/* test_workspace.c - the sizing call sizes every shipped model: each hand-written model and
 * each generated description at its defaults, the parameter-sized chain and ladder up to the
 * largest n they admit, with every method whose def the model accepts. The query is followed
 * from a tiny scratch as a caller would (each HS_E_SIZE must name a larger scratch), the
 * scratch it finally names is exact (one int less is refused), the arenas it names are exact
 * (init takes them, one real or int less is refused) and the bound hs_stepper_sizing_ints is
 * enough. (The stack-scratch sizing call this replaces failed from chain n = 6 on.) */
#include "hs_test.h"
#include "hs_stepper.h"
#include "hs_models.h"
#include "mb_gen.h"

#if __STDC_HOSTED__
#define WS_TMP (1 << 21)
#define WS_REALS (1 << 21)
#define WS_INTS (1 << 21)
#define WS_LARGE 1
#else
/* the board's unit image: the instances that fit these arenas (the large ones need megabytes,
 * sized on the host) */
#define WS_TMP 8192
#define WS_REALS 16384
#define WS_INTS 8192
#define WS_LARGE 0
#endif
static int ws_tmp[WS_TMP];
static hs_real ws_R[WS_REALS];
static int ws_I[WS_INTS];
static hs_stepper ws_s;
static union { hs_real r[512]; double d; } ws_p; /* any model's parameter block (checked) */

/* The caller's protocol from a 16-int scratch; returns the status, *calls the calls made and
 * *exact the scratch the last HS_E_SIZE named (0 when none). */
static int ws_query(const hs_stepper_def *d, const hs_model *m, size_t *nr, size_t *ni, int *calls,
                    size_t *exact)
{
    size_t ntmp = 16;
    int rc = HS_E_SIZE;
    *calls = 0;
    *exact = 0;
    while (rc == HS_E_SIZE && *calls < 16) {
        rc = hs_stepper_workspace_tmp(d, m, ws_tmp, ntmp, nr, ni);
        ++*calls;
        if (rc != HS_E_SIZE) break;
        if (!(*ni > ntmp)) return HS_E_SIZE;        /* no progress */
        if (*ni > (size_t)WS_TMP) return HS_E_SIZE - 1000; /* too big for this test's scratch */
        *exact = *ni;
        ntmp = *ni;
    }
    return rc;
}

static int ws_sized, ws_failed, ws_skipped;
/* Set while a tire vehicle (auxiliary states) is checked in the float build: car.hsm's step
 * matrix at rest has a pivot below n*eps*max|A| in single precision (n = 56, eps = 1.2e-7), so
 * init refuses it as singular, named; the vehicle descriptions are double-only (model/TIRE.md).
 * Its sizes are still checked like every other model's. */
static int ws_float_vehicle;

/* One model instance with every method it accepts. */
static void ws_model(const hs_model *m, const char *what, int check_bound, int all_methods)
{
    for (int me = 0; me < HS_METHOD_COUNT; ++me) {
        if (all_methods == 0 && (hs_method)me != hs_stepper_default_def().method) continue;
        hs_stepper_def d = hs_stepper_default_def();
        d.method = (hs_method)me;
        d.max_h_omega = HS_R(0.0); /* sizes do not depend on it; the large chains are past it */
        if (d.method == HS_METHOD_SPOOK || d.method == HS_METHOD_DVP || d.method == HS_METHOD_EM)
            d.stab = HS_STAB_NONE;
        if (hs_stepper_def_validate(&d, m) != HS_OK) continue;
        size_t nr = 0, ni = 0, exact = 0;
        int calls = 0;
        const int rc = ws_query(&d, m, &nr, &ni, &calls, &exact);
        if (WS_LARGE == 0 && (rc == HS_E_SIZE - 1000 || (rc == HS_OK && (nr > (size_t)WS_REALS || ni > (size_t)WS_INTS)))) {
            ++ws_skipped; /* the board: an instance larger than its arenas */
            continue;
        }
        const int ok = rc == HS_OK && nr <= (size_t)WS_REALS && ni <= (size_t)WS_INTS;
        CHECK(ok);
        if (!ok) {
            hs_test_puts("  workspace: ");
            hs_test_puts(what);
            hs_test_puts(" ");
            hs_test_puts(hs_method_name(d.method));
            hs_test_puts(": ");
            hs_test_puts(hs_status_str(rc));
            hs_test_puts("\n");
            ++ws_failed;
            continue;
        }
        CHECK(calls <= 8);
        if (exact > 0) {
            /* the scratch the query named is the exact need: one int less is refused */
            size_t a = 0, b = 0;
            CHECK(hs_stepper_workspace_tmp(&d, m, ws_tmp, exact, &a, &b) == HS_OK && a == nr && b == ni);
            CHECK(hs_stepper_workspace_tmp(&d, m, ws_tmp, exact - 1, &a, &b) == HS_E_SIZE);
        }
        /* the arenas it names are exactly enough */
        const int irc = hs_stepper_init(&ws_s, &d, m, HS_R(0.0), ws_R, nr, ws_I, ni);
        /* init's refusals of a model property, named: em learns there that M depends on q, a
         * method that cannot honour the model's declared compliance is refused there */
        CHECK(irc == HS_OK || (d.method == HS_METHOD_EM && irc == HS_E_DEF_EM_MASS) || irc == HS_E_DEF_COMPLIANCE
              || (ws_float_vehicle != 0 && irc == HS_E_SINGULAR));
        if (ws_float_vehicle != 0 && irc == HS_E_SINGULAR) {
            ++ws_sized; /* sized; init refuses it by name (see ws_float_vehicle) */
            continue;
        }
        if (irc == HS_E_DEF_EM_MASS || irc == HS_E_DEF_COMPLIANCE) {
            ++ws_sized;
            continue;
        }
        if (irc != HS_OK) {
            hs_test_puts("  init: ");
            hs_test_puts(what);
            hs_test_puts(" ");
            hs_test_puts(hs_method_name(d.method));
            hs_test_puts(": ");
            hs_test_puts(hs_status_str(irc));
            hs_test_puts("\n");
        }
        CHECK(hs_stepper_init(&ws_s, &d, m, HS_R(0.0), ws_R, nr - 1, ws_I, ni) == HS_E_SIZE);
        CHECK(hs_stepper_init(&ws_s, &d, m, HS_R(0.0), ws_R, nr, ws_I, ni - 1) == HS_E_SIZE);
        if (check_bound && (WS_LARGE != 0 || hs_stepper_sizing_ints(m) <= (size_t)WS_TMP)) {
            const size_t bound = hs_stepper_sizing_ints(m);
            size_t a = 0, b = 0;
            CHECK(bound <= (size_t)WS_TMP
                  && hs_stepper_workspace_tmp(&d, m, ws_tmp, bound, &a, &b) == HS_OK && a == nr && b == ni);
        }
        ++ws_sized;
    }
}

void test_workspace(void)
{
    hs_model m;
    ws_sized = ws_failed = ws_skipped = 0;
    for (int i = 0; hs_model_registry[i] != NULL; ++i) {
        CHECK(hs_model_registry[i]->param_size <= sizeof ws_p);
        CHECK(hs_model_init(&m, hs_model_registry[i], &ws_p) == HS_OK);
        ws_model(&m, hs_model_registry[i]->name, 1, 1);
    }
    for (int i = 0; i < HS_MB_GEN_COUNT; ++i) {
#ifdef HS_NO_VEHICLES
        /* the vehicles on tires (auxiliary states): their element is not in this build */
        if (hs_mb_gen_types[i]->nz > 0) { continue; }
#endif
        CHECK(hs_mb_gen_types[i]->param_size <= sizeof ws_p);
        CHECK(hs_model_init(&m, hs_mb_gen_types[i], &ws_p) == HS_OK);
#ifdef HS_REAL_FLOAT
        ws_float_vehicle = hs_mb_gen_types[i]->nz > 0;
#endif
        ws_model(&m, hs_mb_gen_types[i]->name, 1, 1);
        ws_float_vehicle = 0;
    }
    /* the parameter-sized models: from the size that failed before to the largest admitted
     * (the bound, quadratic in the sizes, is checked where it fits this test's scratch; the
     * largest with the default method only: a dense method's init factors n = 1705 there) */
    static const struct { const char *model; hs_real n; int bound; } sized[] = {
        {"chain", HS_R(6.0), 1}, {"chain", HS_R(32.0), 1}, {"chain", HS_R(128.0), 0},
        {"ladder", HS_R(10.0), 1}, {"ladder", HS_R(100.0), 0}};
    for (size_t k = 0; k < sizeof sized / sizeof sized[0]; ++k) {
        if (WS_LARGE == 0 || (hs_test_quick && sized[k].n > HS_R(10.0))) continue;
        const hs_model_type *T = hs_model_find(sized[k].model);
        CHECK(T != NULL);
        if (T == NULL) continue;
        CHECK(hs_model_init(&m, T, &ws_p) == HS_OK);
        CHECK(hs_model_set_param(&m, "n", sized[k].n) == HS_OK);
        ws_model(&m, sized[k].model, sized[k].bound, sized[k].n <= HS_R(32.0));
    }
    hs_test_puts("  workspace: ");
    hs_test_put_int(ws_sized);
    hs_test_puts(" model x method configurations sized, ");
    hs_test_put_int(ws_failed);
    hs_test_puts(" not, ");
    hs_test_put_int(ws_skipped);
    hs_test_puts(" larger than this image's arenas\n");
}
