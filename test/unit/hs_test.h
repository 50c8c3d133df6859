/* hs_test.h - the one harness of the C test suites (unit, multibody, plant, link, CAN, HIL,
 * tire, and the unit tests on the board). The core is freestanding: output goes through
 * hs_test_putc, which a board provides (UART) and hs_test.c provides itself on a hosted build.
 *
 * A suite is a table of tests, one row per test (HS_TEST_ROW), run by hs_test_run; the last
 * line, "NAME: N passed, N failed", is the one test/run_suites.sh and the suites' scripts add up. */
#ifndef HS_TEST_H
#define HS_TEST_H

#include <stddef.h>
#include <stdint.h>

/* Platform hook: writes one character of the report. */
void hs_test_putc(char c);

/* Writes a string. */
void hs_test_puts(const char *s);
/* Writes a signed integer. */
void hs_test_put_int(long long v);
/* Writes a real in scientific notation with 6 significant digits. */
void hs_test_put_real(double v);
/* Writes a 64-bit value as 0x + 16 hex digits. */
void hs_test_put_hex64(uint64_t v);

/* Records one check; on failure prints "  FAIL file:line: expr". */
void hs_test_check(int ok, const char *file, int line, const char *expr);
/* Records one check of lo <= v <= hi, printing v and the bounds on failure. */
void hs_test_check_range(double v, double lo, double hi, const char *file, int line, const char *expr);
/* Records one check named by a sentence and prints "  ok   what" or "  FAIL what" (the suites
 * whose checks read as a list of properties). Returns 1 on failure. */
int hs_test_named(int ok, const char *what);
/* The same, printing v after a failure: "  FAIL what (value v)"; no line when it passes. */
int hs_test_named_value(int ok, const char *what, double v);

#define CHECK(c) hs_test_check((c) ? 1 : 0, __FILE__, __LINE__, #c)
#define CHECK_RANGE(v, lo, hi) hs_test_check_range((double)(v), (lo), (hi), __FILE__, __LINE__, #v)
#define CHECK_NAMED(c, what) hs_test_named((c) ? 1 : 0, (what))
#define CHECK_VALUE(c, what, v) hs_test_named_value((c) ? 1 : 0, (what), (double)(v))

/* One test: a name and a function that makes checks. */
typedef struct hs_test_case {
    const char *name;
    void (*fn)(void);
} hs_test_case;

/* A suite's row: HS_TEST_ROW(fn) names the test after its function. */
#define HS_TEST_ROW(fn) { #fn, fn }
/* The number of rows of a suite's table. */
#define HS_TEST_COUNT(table) (sizeof (table) / sizeof (table)[0])

/* Nonzero when the run is quick (board) mode; tests skip their long runs then. */
extern int hs_test_quick;

/* Runs the n tests of t in order (quick as above), printing "ok   name (N checks)" or
 * "FAIL name (N checks)" after each, then the closing line "suite: N passed, N failed" (just
 * "N passed, N failed" when suite is NULL: the board's log reader wants it alone). Returns the
 * number of failed checks. */
long long hs_test_run(const char *suite, const hs_test_case *t, size_t n, int quick);

#endif
