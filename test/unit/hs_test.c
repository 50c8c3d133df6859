/* hs_test.c - the harness: counting, formatting without libc, running a suite's table. */
#include "hs_test.h"

int hs_test_quick;
static long long n_pass, n_fail;

#if defined(__STDC_HOSTED__) && __STDC_HOSTED__
/* A hosted build (every suite but the board's) prints through stdio, line-buffered so the
 * report interleaves with what the tests' child processes print. */
#include <stdio.h>
void hs_test_putc(char c) { putchar(c); }
static void start_output(void) { setvbuf(stdout, NULL, _IOLBF, 0); }
#else
static void start_output(void) {}
#endif

void hs_test_puts(const char *s)
{
    while (*s) hs_test_putc(*s++);
}

void hs_test_put_int(long long v)
{
    char buf[24];
    int i = 0;
    unsigned long long u = v < 0 ? (unsigned long long)(-(v + 1)) + 1u : (unsigned long long)v;
    if (v < 0) hs_test_putc('-');
    do { buf[i++] = (char)('0' + (int)(u % 10u)); u /= 10u; } while (u && i < 23);
    while (i) hs_test_putc(buf[--i]);
}

void hs_test_put_hex64(uint64_t v)
{
    hs_test_puts("0x");
    for (int s = 60; s >= 0; s -= 4) hs_test_putc("0123456789abcdef"[(v >> s) & 15u]);
}

void hs_test_put_real(double v)
{
    if (v != v) { hs_test_puts("nan"); return; }
    if (v < 0) { hs_test_putc('-'); v = -v; }
    if (v > 1.7e308) { hs_test_puts("inf"); return; }
    int e = 0;
    if (v != 0.0) {
        while (v >= 10.0) { v /= 10.0; ++e; }
        while (v < 1.0) { v *= 10.0; --e; }
    }
    long long m = (long long)(v * 100000.0 + 0.5); /* 6 significant digits */
    if (m >= 1000000) { m /= 10; ++e; }
    hs_test_putc((char)('0' + (int)(m / 100000)));
    hs_test_putc('.');
    for (long long d = 10000; d >= 1; d /= 10) hs_test_putc((char)('0' + (int)((m / d) % 10)));
    hs_test_putc('e');
    hs_test_put_int(e);
}

/* Counts a failure and prints "  FAIL file:line: expr" without the line end. */
static void fail_head(const char *file, int line, const char *expr)
{
    ++n_fail;
    hs_test_puts("  FAIL ");
    hs_test_puts(file);
    hs_test_putc(':');
    hs_test_put_int(line);
    hs_test_puts(": ");
    hs_test_puts(expr);
}

void hs_test_check(int ok, const char *file, int line, const char *expr)
{
    if (ok) { ++n_pass; return; }
    fail_head(file, line, expr);
    hs_test_putc('\n');
}

void hs_test_check_range(double v, double lo, double hi, const char *file, int line, const char *expr)
{
    if (v >= lo && v <= hi) { ++n_pass; return; }
    fail_head(file, line, expr);
    hs_test_puts(" = ");
    hs_test_put_real(v);
    hs_test_puts(" not in [");
    hs_test_put_real(lo);
    hs_test_puts(", ");
    hs_test_put_real(hi);
    hs_test_puts("]\n");
}

int hs_test_named(int ok, const char *what)
{
    if (ok) ++n_pass; else ++n_fail;
    hs_test_puts(ok ? "  ok   " : "  FAIL ");
    hs_test_puts(what);
    hs_test_putc('\n');
    return ok ? 0 : 1;
}

int hs_test_named_value(int ok, const char *what, double v)
{
    if (ok) { ++n_pass; return 0; }
    ++n_fail;
    hs_test_puts("  FAIL ");
    hs_test_puts(what);
    hs_test_puts(" (value ");
    hs_test_put_real(v);
    hs_test_puts(")\n");
    return 1;
}

long long hs_test_run(const char *suite, const hs_test_case *t, size_t n, int quick)
{
    start_output();
    hs_test_quick = quick;
    for (size_t i = 0; i < n; ++i) {
        long long f0 = n_fail, p0 = n_pass;
        t[i].fn();
        hs_test_puts(n_fail == f0 ? "ok   " : "FAIL ");
        hs_test_puts(t[i].name);
        hs_test_puts(" (");
        hs_test_put_int(n_pass - p0 + n_fail - f0);
        hs_test_puts(" checks)\n");
    }
    if (suite) {
        hs_test_puts(suite);
        hs_test_puts(": ");
    }
    hs_test_put_int(n_pass);
    hs_test_puts(" passed, ");
    hs_test_put_int(n_fail);
    hs_test_puts(" failed\n");
    return n_fail;
}
