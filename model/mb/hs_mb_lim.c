/* hs_mb_lim.c - the capacity refusals of the multibody layer (model/README.md "Sizes"): their
 * record in a compiled model and their text. A leaf: it calls nothing of the layer, so the
 * passes that refuse (compile, joints, contacts, the parser, the plant) all may call it. */
#include "hs_mb_int.h"

/* Appends s to d (capacity n, terminated) from *k on. */
static void lim_put(char *d, size_t n, size_t *k, const char *s)
{
    size_t i = 0u;
    while ((s[i] != '\0') && ((*k + 1u) < n)) {
        d[*k] = s[i];
        ++*k;
        ++i;
    }
    d[*k] = '\0';
}

/* Appends the decimal digits of v (>= 0) to d. */
static void lim_int(char *d, size_t n, size_t *k, int v)
{
    char t[12];
    int m = 0;
    int x = (v < 0) ? 0 : v;
    do {
        t[m] = (char)('0' + (x % 10));
        ++m;
        x /= 10;
    } while ((x > 0) && (m < 11));
    char r[12];
    for (int i = 0; i < m; ++i) { r[i] = t[m - 1 - i]; }
    r[m] = '\0';
    lim_put(d, n, k, r);
}

void hs_mb_limit_msg(hs_error *err, const char *what, int need, int atleast, const char *limit, int cap,
                     const char *set)
{
    if ((err == NULL) || (what == NULL) || (limit == NULL) || (set == NULL)) { return; }
    const size_t n = sizeof err->detail;
    size_t k = 0u;
    err->detail[0] = '\0';
    if (atleast != 0) { lim_put(err->detail, n, &k, "at least "); }
    lim_int(err->detail, n, &k, need);
    lim_put(err->detail, n, &k, " ");
    lim_put(err->detail, n, &k, what);
    lim_put(err->detail, n, &k, " exceed ");
    lim_put(err->detail, n, &k, limit);
    lim_put(err->detail, n, &k, " = ");
    lim_int(err->detail, n, &k, cap);
    size_t same = 0u;
    while ((set[same] != '\0') && (set[same] == limit[same])) { ++same; }
    if ((set[same] == '\0') && (limit[same] == '\0')) {
        lim_put(err->detail, n, &k, "; build with -D");
        lim_put(err->detail, n, &k, set);
        lim_put(err->detail, n, &k, "=");
        lim_int(err->detail, n, &k, need);
        lim_put(err->detail, n, &k, " or more (make ");
        lim_put(err->detail, n, &k, set);
        lim_put(err->detail, n, &k, "=");
        lim_int(err->detail, n, &k, need);
        lim_put(err->detail, n, &k, ")");
    } else {
        lim_put(err->detail, n, &k, "; build with a larger ");
        lim_put(err->detail, n, &k, set);
        lim_put(err->detail, n, &k, " (make ");
        lim_put(err->detail, n, &k, set);
        lim_put(err->detail, n, &k, "=N)");
    }
    err->msg = err->detail;
}

int mb_lim_fail(hs_mb_model *mb, const char *what, int need, int atleast, const char *limit, int cap,
                    const char *set)
{
    mb->lim_name = limit;
    mb->lim_what = what;
    mb->lim_set = set;
    mb->lim_need = need;
    mb->lim_cap = cap;
    mb->lim_atleast = atleast;
    return HS_E_SIZE;
}
