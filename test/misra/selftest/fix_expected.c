/* fix_expected.c - what test/misra/fix_required.py's braces, bool and lits passes must make of
 * fix_in.c (the self-test in misra.sh compares from the #include on). Never compiled into
 * anything. */
#include <stddef.h>
#ifdef HS_REAL_FLOAT
typedef float hs_real;
#define HS_R(x) ((hs_real)(x##f))
#else
typedef double hs_real;
#define HS_R(x) ((hs_real)(x))
#endif
#define FLAG(x) ((x) & 4)
typedef struct { const char *name; size_t n; unsigned char c; double scale; } rec;

int fx_fixture(int *a, int n, unsigned u, hs_real r, const char *s, rec *p);
int fx_fixture(int *a, int n, unsigned u, hs_real r, const char *s, rec *p)
{
    int m = 0;
    if (n < 0) { return -1; }
    for (int i = 0; i < n; ++i) { if (a[i] > m) { m = a[i]; } }
    for (int i = 0; i < n; ++i) {
        a[i] = 0; /* a body on its own line keeps its comment */
    }
    if (m != 0) {
        m = 1;
    } else if (n != 0) { m = 2; }
    else {
        m = 3;
    }
    while (n-- != 0) { m++; }
    do { m++; } while (m < 10);
    if (a == NULL || u == 0u) { return 0; }
    if (r != HS_R(0.0) && *s != '\0' && (u & 3u) != 0u) { m = 4; }
    if ((m & 2) == 0 && FLAG(m) != 0) { m = 5; }
    if (!(a == NULL)) { m = 6; }
    if (!(m != 0 && n == 0)) { m = 7; }
    for (; *s != '\0'; s++) { m += 1; }
    if ((m = n) != 0) { m = 8; }
    if (p->name != NULL && p->name[0] == '\0' && p->n + 1u > 3u && p->scale != 0.0) { m = 9; }
    if (p->c != 0u) { p->n += 2u; }
    return m + (int)(p->n ? p->n : 0u);
}
