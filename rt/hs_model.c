/* hs_model.c - model instances and their parameter tables. */
#include "hs_model.h"

static int str_eq(const char *a, const char *b)
{
    while (*a && *a == *b) { ++a; ++b; }
    return *a == *b;
}

static hs_real *param_slot(const hs_model *m, const hs_param_info *pi)
{
    return (hs_real *)(void *)((unsigned char *)m->p + pi->offset);
}

static const hs_param_info *param_find(const hs_model_type *T, const char *name)
{
    for (int i = 0; i < T->nparams; ++i)
        if (str_eq(T->params[i].name, name)) return &T->params[i];
    return NULL;
}

int hs_model_init(hs_model *m, const hs_model_type *type, void *param_block)
{
    if (!m || !type || (!param_block && type->nparams > 0)) return HS_E_NULL;
    m->type = type;
    m->p = param_block;
    for (int i = 0; i < type->nparams; ++i) *param_slot(m, &type->params[i]) = type->params[i].def;
    return HS_OK;
}

int hs_model_set_param(hs_model *m, const char *name, hs_real value)
{
    if (!m || !m->type || !name) return HS_E_NULL;
    const hs_param_info *pi = param_find(m->type, name);
    if (!pi) return HS_E_UNKNOWN_PARAM;
    if (!hs_isfinite(value) || value < pi->min || value > pi->max) return HS_E_MODEL_PARAM;
    *param_slot(m, pi) = value;
    return HS_OK;
}

int hs_model_get_param(const hs_model *m, const char *name, hs_real *value)
{
    if (!m || !m->type || !name || !value) return HS_E_NULL;
    const hs_param_info *pi = param_find(m->type, name);
    if (!pi) return HS_E_UNKNOWN_PARAM;
    *value = *param_slot(m, pi);
    return HS_OK;
}

int hs_model_check(const hs_model *m)
{
    if (!m || !m->type) return HS_E_NULL;
    const hs_model_type *T = m->type;
    for (int i = 0; i < T->nparams; ++i) {
        hs_real v = *param_slot(m, &T->params[i]);
        if (!hs_isfinite(v) || v < T->params[i].min || v > T->params[i].max) return HS_E_MODEL_PARAM;
    }
    return T->check ? T->check(m) : HS_OK;
}
