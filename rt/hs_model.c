/* hs_model.c - model instances and their parameter tables. */
#include "hs_model.h"

static int str_eq(const char *a, const char *b)
{
    while (*a != '\0' && *a == *b) { ++a; ++b; }
    return *a == *b;
}

static hs_real *param_slot(const hs_model *m, const hs_param_info *pi)
{
    return (hs_real *)(void *)((unsigned char *)m->p + pi->offset);
}

static const hs_param_info *param_find(const hs_model_type *T, const char *name)
{
    for (int i = 0; i < T->nparams; ++i) {
        if (str_eq(T->params[i].name, name) != 0) { return &T->params[i]; }
    }
    return NULL;
}

/* The instance's sizes into *d: the type's, or its dims() checked against the capacities. */
static int model_dims(const hs_model *m, hs_dims *d)
{
    const hs_model_type *T = m->type;
    if (T->dims == NULL) {
        d->nq = T->nq; d->nc = T->nc; d->nz = T->nz; d->nin = T->nin; d->nout = T->nout;
        return HS_OK;
    }
    int rc = T->dims(m, d);
    if (rc != 0) { return rc < 0 ? rc : (int)HS_E_MODEL; }
    if (d->nq < 1 || d->nq > T->nq || d->nc < 0 || d->nc > T->nc || d->nz < 0 || d->nz > T->nz
        || d->nin < 0 || d->nin > T->nin || d->nout < 0 || d->nout > T->nout) {
        return HS_E_SIZE;
    }
    return HS_OK;
}

hs_status hs_model_init(hs_model *m, const hs_model_type *type, void *param_block)
{
    if (m == NULL || type == NULL || (param_block == NULL && type->nparams > 0)) { return HS_E_NULL; }
    m->type = type;
    m->p = param_block;
    m->desc = NULL;
    for (int i = 0; i < type->nparams; ++i) { *param_slot(m, &type->params[i]) = type->params[i].def; }
    return model_dims(m, &m->d);
}

hs_status hs_model_set_param(hs_model *m, const char *name, hs_real value)
{
    if (m == NULL || m->type == NULL || name == NULL) { return HS_E_NULL; }
    const hs_param_info *pi = param_find(m->type, name);
    if (pi == NULL) { return HS_E_UNKNOWN_PARAM; }
    if (hs_isfinite(value) == 0 || value < pi->min || value > pi->max) { return HS_E_MODEL_PARAM; }
    hs_real *slot = param_slot(m, pi);
    const hs_real old = *slot;
    *slot = value;
    hs_dims d;
    hs_status rc = model_dims(m, &d);
    if (rc != HS_OK) { *slot = old; return rc; }
    m->d = d;
    return HS_OK;
}

hs_status hs_model_get_param(const hs_model *m, const char *name, hs_real *value)
{
    if (m == NULL || m->type == NULL || name == NULL || value == NULL) { return HS_E_NULL; }
    const hs_param_info *pi = param_find(m->type, name);
    if (pi == NULL) { return HS_E_UNKNOWN_PARAM; }
    *value = *param_slot(m, pi);
    return HS_OK;
}

hs_status hs_model_check(const hs_model *m)
{
    if (m == NULL || m->type == NULL) { return HS_E_NULL; }
    const hs_model_type *T = m->type;
    for (int i = 0; i < T->nparams; ++i) {
        hs_real v = *param_slot(m, &T->params[i]);
        if (hs_isfinite(v) == 0 || v < T->params[i].min || v > T->params[i].max) { return HS_E_MODEL_PARAM; }
    }
    hs_dims d;
    hs_status rc = model_dims(m, &d);
    if (rc != HS_OK) { return rc; }
    if (d.nq != m->d.nq || d.nc != m->d.nc || d.nz != m->d.nz || d.nin != m->d.nin
        || d.nout != m->d.nout) {
        return HS_E_SIZE; /* parameters changed behind set_param's back */
    }
    /* MISRA Ref 10.4.4 [the model's check hook returns int by the model interface; HS_OK without one] */
    return T->check ? T->check(m) : HS_OK;
}

static int blocks_size(int nb, const int *list, const int *rows, const int *cols)
{
    int s = 0;
    for (int k = 0; k < nb; ++k) {
        const int i = list[2 * k], j = list[2 * k + 1];
        s += (rows[i + 1] - rows[i]) * (cols[j + 1] - cols[j]);
    }
    return s;
}

int hs_blocks_qq_size(const hs_blocks *b) { return blocks_size(b->nqq, b->qq, b->qb, b->qb); }

int hs_blocks_cq_size(const hs_blocks *b) { return blocks_size(b->ncq, b->cq, b->cb, b->qb); }

hs_status hs_blocks_dense(const hs_dims *d, hs_blocks *b, int *buf, int nbuf)
{
    if (d == NULL || b == NULL || buf == NULL) { return HS_E_NULL; }
    if (nbuf < 8) { return HS_E_SIZE; }
    buf[0] = 0; buf[1] = d->nq;          /* qb */
    buf[2] = 0; buf[3] = d->nc;          /* cb */
    buf[4] = 0; buf[5] = 0;              /* qq: (0,0) */
    buf[6] = 0; buf[7] = 0;              /* cq: (0,0) */
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    b->nqb = 1; b->ncb = d->nc > 0 ? 1 : 0;
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    b->nqq = 1; b->ncq = d->nc > 0 ? 1 : 0;
    b->qb = buf; b->cb = buf + 2; b->qq = buf + 4; b->cq = buf + 6;
    return HS_OK;
}
