/* hs_test.c - the harness: counting, formatting without libc, the test list. */
#include "hs_test.h"

int hs_test_quick;
static long long n_pass, n_fail;

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

typedef struct { const char *name; void (*fn)(void); } entry;
static const entry tests[] = {
#define HS_TEST(name) {#name, test_##name},
#include "hs_test_list.h"
#undef HS_TEST
};

int hs_test_main(int quick)
{
    hs_test_quick = quick;
    n_pass = n_fail = 0;
    for (unsigned i = 0; i < sizeof tests / sizeof tests[0]; ++i) {
        long long f0 = n_fail, p0 = n_pass;
        tests[i].fn();
        hs_test_puts(n_fail == f0 ? "ok   " : "FAIL ");
        hs_test_puts(tests[i].name);
        hs_test_puts(" (");
        hs_test_put_int(n_pass - p0 + n_fail - f0);
        hs_test_puts(" checks)\n");
    }
    hs_test_put_int(n_pass);
    hs_test_puts(" passed, ");
    hs_test_put_int(n_fail);
    hs_test_puts(" failed\n");
    return (int)n_fail;
}
