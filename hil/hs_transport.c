/* hs_transport.c - lookup helpers of the transport seam (see hs_transport.h). */
#include "hs_transport.h"

#include <string.h>

const hs_transport_ops *hs_transport_find(const hs_transport_ops *const *table, const char *name)
{
    if ((table == NULL) || (name == NULL)) {
        return NULL;
    }
    for (int i = 0; table[i] != NULL; ++i) {
        if (strcmp(table[i]->name, name) == 0) {
            return table[i];
        }
    }
    return NULL;
}

const char *hs_tp_opt(const hs_tp_cfg *cfg, const char *key, const char *dflt)
{
    const char *v = dflt;
    for (int i = 0; i < cfg->nopt; ++i) {
        if (strcmp(cfg->key[i], key) == 0) {
            v = cfg->val[i];
            if (cfg->read != NULL) {
                *cfg->read |= (uint32_t)1u << (unsigned)i;
            }
        }
    }
    return v;
}

hs_status hs_tp_opt_add(hs_tp_cfg *cfg, const char *key, const char *val)
{
    if ((cfg->nopt < 0) || (cfg->nopt >= HS_TP_MAX_OPTS)) {
        return HS_E_SIZE;
    }
    cfg->key[cfg->nopt] = key;
    cfg->val[cfg->nopt] = val;
    cfg->nopt++;
    return HS_OK;
}

int hs_tp_opt_unread(const hs_tp_cfg *cfg, int from, uint32_t read)
{
    for (int i = (from > 0) ? from : 0; i < cfg->nopt; ++i) {
        if ((read & ((uint32_t)1u << (unsigned)i)) == 0u) {
            return i;
        }
    }
    return -1;
}
