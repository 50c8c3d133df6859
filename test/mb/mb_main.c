/* mb_main.c - build/hilstep-mbtest: the multibody suite.
 * Usage: hilstep-mbtest [MECH_DIR [SIM [MBGEN [RT]]]]; a test that needs an argument that is
 * not given is left out (it makes no check), as `make mb-test` gives all four. With
 * HS_MB_QUICK set (make check's mb-check) the dvp test is left out: its 3e5-step references
 * are two thirds of the suite's time; make mb-test, in make test, runs everything. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include "mb_test.h"

static int g_argc;
static char **g_argv;

/* The i-th argument, or NULL when it is not given. */
static const char *arg(int i) { return g_argc > i ? g_argv[i] : NULL; }

static void deriv(void) { mb_test_deriv(); }
static void elem(void) { mb_test_elem(); }
static void mech(void) { if (arg(1)) mb_test_mech(arg(1), arg(2), arg(3), arg(4)); }
static void dvp(void)
{
    if (getenv("HS_MB_QUICK") != NULL) { puts("  dvp left out (HS_MB_QUICK: make mb-test runs it)"); return; }
    if (arg(1)) mb_test_dvp(arg(1));
}
static void fast(void) { if (arg(1)) mb_test_fast(arg(1)); }
static void lang(void) { if (arg(1)) mb_test_lang(arg(1)); }
static void fb(void) { if (arg(1)) mb_test_fb(arg(1)); }
static void fbstep(void) { if (arg(1)) mb_test_fbstep(arg(1)); }
static void gen(void) { if (arg(3)) mb_test_gen(arg(1), arg(3)); }
static void acc(void) { mb_test_acc(); }
static void aero(void) { mb_test_aero(); }
static void pt(void) { mb_test_pt(arg(1)); }

static const hs_test_case tests[] = {
    HS_TEST_ROW(deriv),
    HS_TEST_ROW(elem),
    HS_TEST_ROW(mech),
    HS_TEST_ROW(dvp),
    HS_TEST_ROW(fast),
    HS_TEST_ROW(lang),
    HS_TEST_ROW(fb),
    HS_TEST_ROW(fbstep),
    HS_TEST_ROW(gen),
    HS_TEST_ROW(acc),
    HS_TEST_ROW(aero),
    HS_TEST_ROW(pt),
};

int main(int argc, char **argv)
{
    g_argc = argc;
    g_argv = argv;
    return hs_test_run("mb", tests, HS_TEST_COUNT(tests), 0) ? 1 : 0;
}
