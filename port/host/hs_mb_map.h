/* hs_mb_map.h - a description's own signal map (its input and named output lines, FORMAT.md
 * "Signals") as the hil/ signal map the plant uses instead of the generic one. Host only:
 * hilstep-rt builds it after loading the file. Header-only like hs_mb_file.h. */
#ifndef HS_MB_MAP_H
#define HS_MB_MAP_H
#include <string.h>

#include "hs_mb_parse.h"
#include "hs_signal.h"

/* Storage of one map: every input, then every output signal, in wire order. */
typedef struct hs_mb_sigmap {
    hs_signal sig[HS_MB_MAX_NIN + HS_MB_MAX_NOUT];
    char name[HS_MB_MAX_NIN + HS_MB_MAX_NOUT][40];
    char unit[HS_MB_MAX_NIN + HS_MB_MAX_NOUT][HS_MB_UNIT];
    hs_signal_map map;
} hs_mb_sigmap;

/* Splits a generated signal name "NAME (UNIT)" into its parts. */
static inline void hs_mb_map_split(const char *s, char *name, size_t nn, char *unit, size_t nu)
{
    const char *p = strstr(s, " (");
    size_t n = p ? (size_t)(p - s) : strlen(s);
    if (n >= nn) n = nn - 1;
    memcpy(name, s, n);
    name[n] = 0;
    unit[0] = 0;
    if (p) {
        size_t u = strlen(p + 2);
        if (u > 0 && p[2 + u - 1] == ')') --u;
        if (u >= nu) u = nu - 1;
        memcpy(unit, p + 2, u);
        unit[u] = 0;
    }
}

/* The map of a loaded description into m; NULL when the file declares no input and no named
 * output (the plant's generic map applies). Undeclared signals (inputs given by nin=, output
 * lines without a name) get the generic entry: range +-1e9, fallback 0, stale after 20 frames. */
static inline const hs_signal_map *hs_mb_signal_map(const hs_mb_store *st, const hs_mb_model *mb, hs_mb_sigmap *m)
{
    int named = st->ninputs > 0;
    for (int o = 0; o < st->desc.noutputs; ++o) if (st->outputs[o].sig) named = 1;
    if (!named) return NULL;
    int k = 0;
    for (int i = 0; i < mb->nin; ++i, ++k) {
        hs_signal *s = &m->sig[k];
        hs_mb_map_split(mb->in_names[i], m->name[k], sizeof m->name[k], m->unit[k], sizeof m->unit[k]);
        const hs_mb_signal *d = i < st->ninputs ? &st->in_sig[i] : NULL;
        s->name = m->name[k]; s->unit = m->unit[k]; s->dir = HS_SIG_IN; s->scale = 1.0; s->offset = 0.0;
        s->min = d ? (double)d->min : -1e9; s->max = d ? (double)d->max : 1e9;
        s->fallback = d ? (double)d->fallback : 0.0; s->stale_limit = d ? (uint32_t)d->stale : 20u;
    }
    for (int o = 0; o < st->desc.noutputs; ++o) {
        const hs_mb_signal *d = st->outputs[o].sig;
        for (int y = mb->out_first[o]; y < mb->out_first[o + 1]; ++y, ++k) {
            hs_signal *s = &m->sig[k];
            hs_mb_map_split(mb->out_names[y], m->name[k], sizeof m->name[k], m->unit[k], sizeof m->unit[k]);
            s->name = m->name[k]; s->unit = m->unit[k]; s->dir = HS_SIG_OUT; s->scale = 1.0; s->offset = 0.0;
            s->min = d ? (double)d->min : -1e9; s->max = d ? (double)d->max : 1e9;
            s->fallback = d ? (double)d->fallback : 0.0; s->stale_limit = 0u;
        }
    }
    m->map.app = st->name;
    m->map.sig = m->sig;
    m->map.n = k;
    return &m->map;
}

#endif
