/* fix_in.c - self-test input of test/misra/fix_required.py (misra.sh copies it to rt/ of a
 * scratch tree, runs the braces, bool and lits passes and compares with fix_expected.c;
 * a second run must change nothing, and gcc -O2 must give the same instructions for both).
 * Never compiled into anything. */
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
    if (n < 0) return -1;
    for (int i = 0; i < n; ++i) if (a[i] > m) m = a[i];
    for (int i = 0; i < n; ++i)
        a[i] = 0; /* a body on its own line keeps its comment */
    if (m)
        m = 1;
    else if (n) m = 2;
    else
        m = 3;
    while (n--) m++;
    do m++; while (m < 10);
    if (!a || !u) return 0;
    if (r && *s && (u & 3u)) m = 4;
    if (!(m & 2) && FLAG(m)) { m = 5; }
    if (!(a == NULL)) { m = 6; }
    if (!(m && !n)) { m = 7; }
    for (; *s; s++) m += 1;
    if ((m = n)) m = 8;
    if (p->name && p->name[0] == 0 && p->n + 1 > 3 && p->scale) m = 9;
    if (p->c) p->n += 2;
    return m + (int)(p->n ? p->n : 0);
}
