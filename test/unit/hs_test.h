/* hs_test.h - freestanding unit-test harness: runs on the host and, cross-compiled, on the
 * board. No libc: output goes through hs_test_putc, which each platform provides. */
#ifndef HS_TEST_H
#define HS_TEST_H

#include "hs_types.h"

/* Platform hook: writes one character of the report (UART on the board, stdout on the host). */
void hs_test_putc(char c);

/* Runs every test (quick = 1 skips the long runs, for the board); prints one line per check
 * that fails, one line per test, and the closing "N passed, N failed[, N skipped]" line.
 * Returns the number of failed checks. */
int hs_test_main(int quick);

/* Writes a string. */
void hs_test_puts(const char *s);
/* Writes a signed integer. */
void hs_test_put_int(long long v);
/* Writes a real in scientific notation with 6 significant digits. */
void hs_test_put_real(double v);
/* Writes a 64-bit value as 0x + 16 hex digits. */
void hs_test_put_hex64(uint64_t v);

/* Records one check; on failure prints file:line, the expression and optional value. */
void hs_test_check(int ok, const char *file, int line, const char *expr);
/* Records one check of lo <= v <= hi, printing v and the bounds on failure. */
void hs_test_check_range(double v, double lo, double hi, const char *file, int line, const char *expr);

/* Nonzero when the current run is quick (board) mode. */
extern int hs_test_quick;

#define CHECK(c) hs_test_check((c) ? 1 : 0, __FILE__, __LINE__, #c)
#define CHECK_RANGE(v, lo, hi) hs_test_check_range((double)(v), (lo), (hi), __FILE__, __LINE__, #v)

/* Every test function: void test_NAME(void) for each HS_TEST(NAME) of hs_test_list.h. */
#define HS_TEST(name) void test_##name(void);
#include "hs_test_list.h"
#undef HS_TEST

#endif
