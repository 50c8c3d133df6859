/* hs_methods.c - the method table: one row per method, the single list the stepper, the
 * tools' --help, the scripts' method lists and rt/METHODS.md's method listing come from
 * (hilstep-sim --methods prints it, --list-methods the names and stabilizations). A row owns
 * the method's properties (HS_MF_* bits, rt/hs_stage.h): the stepper asks them here, never
 * which method it is. The rows are written once, in HS_METHOD_LIST (rt/hs_methods.h), which
 * also gives the hs_method enum; a new method is a row there (a new family also its file and
 * its HS_FAMILY_LIST and HS_STAGE_LIST rows; rt/METHODS.md "Adding a method"). */
#include "hs_stage.h"

/* MISRA Ref 20.7.1 [X-macro parameter is an identifier] */
#define HS__M_ROW(id, value, name, family, row, summary, hooks, flags) \
    {id, name, family, summary, hooks, flags, &row},
const hs_method_info hs_method_table[HS_METHOD_COUNT] = {
    HS_METHOD_LIST(HS__M_ROW)
};

const hs_method_info *hs_method_info_of(hs_method m)
{
    const int i = (int)m;
    if ((i < 0) || (i >= HS_METHOD_COUNT) || (hs_method_table[i].id != m)) {
        return NULL;
    }
    return &hs_method_table[i];
}

int hs_method_own_stab(hs_method m)
{
    const hs_method_info *info = hs_method_info_of(m);
    int own = 0;
    if ((info != NULL) && ((info->flags & HS_MF_OWNSTAB) != 0u)) {
        own = 1;
    }
    return own;
}

int hs_method_takes_stab(hs_method m, hs_stab st)
{
    const hs_method_info *info = hs_method_info_of(m);
    if ((info == NULL) || ((st != HS_STAB_NONE) && (st != HS_STAB_BAUMGARTE) && (st != HS_STAB_PROJECTION))) {
        return 0;
    }
    if ((info->flags & HS_MF_OWNSTAB) != 0u) {
        return (st == HS_STAB_NONE) ? 1 : 0;
    }
    return ((st == HS_STAB_BAUMGARTE) && ((info->flags & HS_MF_NOBAUM) != 0u)) ? 0 : 1;
}

const hs_family *hs_method_family(hs_method me)
{
    const hs_method_info *r = hs_method_info_of(me);
    return (r != NULL) ? (const hs_family *)r->fam : NULL;
}

const hs_family *hs_step_family(const hs_stepper_def *def, const hs_model *m)
{
    const hs_family *fam = hs_method_family(def->method);
    /* a family may hand a model to another path of its method (sdirk: free rigid bodies) */
    if ((fam != NULL) && (fam->path != NULL)) {
        const hs_family *alt = fam->path(def, m);
        if (alt != NULL) {
            return alt;
        }
    }
    return fam;
}

unsigned hs_method_flags(hs_method me)
{
    const hs_method_info *r = hs_method_info_of(me);
    return (r != NULL) ? r->flags : 0u;
}

hs_status hs_method_parse(const char *name, hs_method *m)
{
    if ((name == NULL) || (m == NULL)) {
        return HS_E_NULL;
    }
    for (int i = 0; i < HS_METHOD_COUNT; ++i) {
        const char *a = name, *b = hs_method_table[i].name;
        while ((*a != '\0') && (*a == *b)) {
            ++a;
            ++b;
        }
        if ((*a == '\0') && (*b == '\0')) {
            *m = hs_method_table[i].id;
            return HS_OK;
        }
    }
    return HS_E_DEF_METHOD;
}
