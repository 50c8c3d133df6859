/* hs_methods.c - the method table: one row per method, the single list the stepper, the
 * tools' --help, the scripts' method lists and rt/METHODS.md's method listing come from
 * (hilstep-sim --methods prints it, --list-methods the names and stabilizations). A row owns the method's properties (HS_MF_* bits, rt/hs_stage.h): the stepper asks
 * them here, never which method it is. A new method is a row here and its enum value in
 * hs_stepper.h; a new family adds its file, its extern (rt/hs_stage.h) and the stages it
 * names (hs_stage in hs_stepper.h, hs_stage_name in hs_stepper.c). */
#include "hs_stage.h"

const hs_method_info hs_method_table[HS_METHOD_COUNT] = {
    {HS_METHOD_EXPLICIT, "explicit", "euler",
     "explicit Euler, positions first (baseline)", "", 0u, &hs_family_euler},
    {HS_METHOD_SYMPLECTIC, "symplectic", "euler",
     "semi-implicit (symplectic) Euler, velocities first", "", HS_MF_VELFIRST, &hs_family_euler},
    {HS_METHOD_J1, "j1", "euler",
     "linear-implicit Euler, J1 = [0 0; fq fu]", "", HS_MF_LINIMPL | HS_MF_FULLJAC | HS_MF_CU,
     &hs_family_euler},
    {HS_METHOD_J2, "j2", "euler",
     "linear-implicit Euler, J2 = [0 0; fq fu + h fq]", "",
     HS_MF_LINIMPL | HS_MF_FULLJAC | HS_MF_CU | HS_MF_CQ, &hs_family_euler},
    {HS_METHOD_J3, "j3", "euler",
     "linear-implicit Euler, J3 = [0 0; fq 0] (one directional derivative)", "", HS_MF_LINIMPL,
     &hs_family_euler},
    {HS_METHOD_JEXACT, "jexact", "euler",
     "linear-implicit Euler, exact J = [0 I; fq fu], velocities first", "",
     HS_MF_VELFIRST | HS_MF_LINIMPL | HS_MF_FULLJAC | HS_MF_CU | HS_MF_CQ, &hs_family_euler},
    {HS_METHOD_SPOOK, "spook", "spook",
     "SPOOK: regularized, stabilized constraints, one symmetric solve; --form index2 --stab none", "",
     HS_MF_VELFIRST | HS_MF_OWNSTAB | HS_MF_COMPLIANT, &hs_family_spook},
    {HS_METHOD_JK, "jk", "euler",
     "j2 plus the constraint curvature K_g = d(G^T lambda)/dq; index2 or ggl", "",
     HS_MF_LINIMPL | HS_MF_FULLJAC | HS_MF_CURV | HS_MF_CU | HS_MF_CQ, &hs_family_euler},
    {HS_METHOD_JKEXACT, "jkexact", "euler",
     "jk's matrix, velocities first; index2", "",
     HS_MF_VELFIRST | HS_MF_LINIMPL | HS_MF_FULLJAC | HS_MF_CURV | HS_MF_CU | HS_MF_CQ, &hs_family_euler},
    {HS_METHOD_GALPHA, "galpha", "galpha",
     "generalized-alpha, one Newton step, second order; --rho-inf R in [0, 1] sets its damping", "",
     HS_MF_FULLJAC | HS_MF_CURV | HS_MF_NOBAUM | HS_MF_MIDVEL, &hs_family_galpha},
    {HS_METHOD_SDIRK, "sdirk", "sdirk",
     "two-stage SDIRK, one factorization, one Newton step per stage; --sd-gamma 0.25: implicit "
     "midpoint twice, no damping; 0.7887: third order, damps; on a model of free rigid bodies: "
     "the free-body path (rt/hs_fb.c)", "",
     HS_MF_FULLJAC | HS_MF_CURV | HS_MF_NOBAUM | HS_MF_RANGE | HS_MF_MIDVEL, &hs_family_sdirk},
    {HS_METHOD_DVP, "dvp", "dvp",
     "discrete variational (RATTLE for constant M), 4 Newton steps, conserves momenta; --form "
     "index2 --stab none", "the lagrange() hook when M depends on q", HS_MF_OWNSTAB | HS_MF_MIDVEL,
     &hs_family_dvp},
    {HS_METHOD_EM, "em", "em",
     "energy-momentum midpoint (discrete gradient) for constant M, 4 Newton steps; energy and "
     "momenta exact for distance constraints and quadratic potentials; --form index2 --stab none",
     "a mass matrix that does not depend on q", HS_MF_OWNSTAB | HS_MF_MIDVEL, &hs_family_em},
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
