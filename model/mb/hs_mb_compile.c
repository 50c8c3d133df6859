/* hs_mb_compile.c - compiling a multibody description into an hs_model type: one pass per
 * table (bodies, joints and their rows, force elements, outputs, inputs), the compile-time
 * preparation of the rows, the block pattern, then the model type with the contact tables,
 * the fast paths and the plan. It sits above every other file of the multibody layer; the
 * type's functions it points to are in hs_mb.c. A pass returns at the first fault, with
 * mb->bad_table (the table: 0 bodies, 1 joints, 2 forces, 3 outputs, 4 contacts) and
 * *bad_index (the entry) naming it; hs_mb_compile hands them to the caller in an hs_error. */
#include "hs_mb_int.h"
#include "hs_linsys.h"
#include "hs_math.h"

static void put_str(char *dst, int cap, const char *a, const char *b, const char *c)
{
    int n = 0;
    const char *parts[3] = {a, b, c};
    for (int p = 0; p < 3; ++p) {
        for (const char *s = parts[p]; s != NULL && *s != '\0' && n < cap - 1; ++s) { dst[n] = *s; ++n; }
    }
    dst[n] = 0;
}

static int name_ok(const char *s)
{
    int n = 0;
    while (n < HS_MB_NAME && s[n] != '\0') { ++n; }
    return n > 0 && n < HS_MB_NAME;
}

static int point_ok(const hs_mb_desc *D, const hs_mb_point *p)
{
    if (p->body < HS_MB_GROUND || p->body >= D->nbodies) { return 0; }
    if (p->moving < 0 || p->moving > 2 || (p->moving != 0 && p->body >= 0)) { return 0; }
    for (int i = 0; i < 3; ++i) { if (hs_isfinite(p->s[i]) == 0) { return 0; } }
    return 1;
}

/* 1 when constraint row R involves body b. */
static int row_touches(const hs_mb_row *R, int b)
{
    if (R->kind == HS_MB_ROW_ANGLE || R->kind == HS_MB_ROW_NORM) { return R->body == b || R->body2 == b; }
    for (int c = 0; c < 4; ++c) {
        if (R->o[c].used != 0 && R->o[c].body == b) { return 1; }
    }
    return 0;
}

/* Signal name suffix j of a position (pos = 1) or velocity output of a body kind. */
static const char *signal_suffix(int pos, hs_mb_body_kind k, int j)
{
    static const char *const POS_NAMES[4][7] = {
        {".x (m)", ".y (m)", ".theta (rad)", "", "", "", ""},
        {".x (m)", ".y (m)", ".z (m)", ".p0 (1)", ".p1 (1)", ".p2 (1)", ".p3 (1)"},
        {".x (m)", ".y (m)", "", "", "", "", ""},
        {".x (m)", ".y (m)", ".z (m)", "", "", "", ""}};
    static const char *const VEL_NAMES[4][6] = {
        {".vx (m/s)", ".vy (m/s)", ".w (rad/s)", "", "", ""},
        {".vx (m/s)", ".vy (m/s)", ".vz (m/s)", ".wx (rad/s)", ".wy (rad/s)", ".wz (rad/s)"},
        {".vx (m/s)", ".vy (m/s)", "", "", "", ""},
        {".vx (m/s)", ".vy (m/s)", ".vz (m/s)", "", "", ""}};
    return pos ? POS_NAMES[k][j] : VEL_NAMES[k][j];
}

/* Resets the results and checks the table sizes, the dimension and gravity. */
static int pass_sizes(const hs_mb_desc *D, hs_mb_model *mb, int packed)
{
    mb->bad_table = -1;
    mb->bad_why = NULL;
    mb->has_acc = 0;
    mb->acc_kkt = 0;
    mb->fast = 0; /* the general evaluators until the tables below are complete */
    mb->nz = 0;
    mb->lim_name = NULL;
    if (D->nbodies > HS_MB_MAX_BODIES) { mb->bad_table = 0; return mb_lim_fail(mb, "bodies", D->nbodies, 0, "HS_MB_MAX_BODIES", HS_MB_MAX_BODIES, "HS_MB_MAX_BODIES"); }
    if (D->njoints > HS_MB_MAX_JOINTS) { mb->bad_table = 1; return mb_lim_fail(mb, "joints", D->njoints, 0, "HS_MB_MAX_JOINTS", HS_MB_MAX_JOINTS, "HS_MB_MAX_JOINTS"); }
    if (D->nforces > HS_MB_MAX_FORCES) { mb->bad_table = 2; return mb_lim_fail(mb, "force elements", D->nforces, 0, "HS_MB_MAX_FORCES", HS_MB_MAX_FORCES, "HS_MB_MAX_FORCES"); }
    if (D->noutputs > HS_MB_MAX_OUTPUTS) { mb->bad_table = 3; return mb_lim_fail(mb, "outputs", D->noutputs, 0, "HS_MB_MAX_OUTPUTS", HS_MB_MAX_OUTPUTS, "HS_MB_MAX_OUTPUTS"); }
    if (D->nin > HS_MB_MAX_NIN) { return mb_lim_fail(mb, "inputs", D->nin, 0, "HS_MB_MAX_NIN", HS_MB_MAX_NIN, "HS_MB_MAX_NIN"); }
    if (D->nbodies < 1 || D->njoints < 0 || D->nforces < 0 || D->noutputs < 0 || D->nin < 0) {
        return HS_E_SIZE;
    }
    if (D->dim != 2 && D->dim != 3) { return HS_E_MODEL_PARAM; }
    for (int i = 0; i < 3; ++i) { if (hs_isfinite(D->gravity[i]) == 0) { return HS_E_MODEL_PARAM; } }
    mb->desc = D;
    /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
    mb->packed = (packed != 0) ? 1 : 0;
    mb->nb = D->nbodies;
    return HS_OK;
}

/* Bodies: each checked, its coordinates placed (qoff, bnq, nq). */
static int pass_bodies(const hs_mb_desc *D, hs_mb_model *mb, int *bad_index)
{
    int nq = 0;
    mb->bad_table = 0;
    for (int b = 0; b < D->nbodies; ++b) {
        const hs_mb_body *B = &D->bodies[b];
        *bad_index = b;
        const int n = hs_mb_body_nq(B->kind);
        if (n == 0 || name_ok(B->name) == 0) { return HS_E_MODEL_PARAM; }
        const int is2 = (int)(B->kind == HS_MB_PLANAR || B->kind == HS_MB_POINT2);
        if (is2 != (D->dim == 2)) { return HS_E_MODEL_PARAM; /* no 2-D bodies in 3-D models or back */ }
        if (!(B->mass > HS_R(0.0)) || hs_isfinite(B->mass) == 0) { return HS_E_MODEL_PARAM; }
        if (B->kind == HS_MB_PLANAR && !(B->inertia[2] > HS_R(0.0))) { return HS_E_MODEL_PARAM; }
        if (B->kind == HS_MB_SPATIAL) {
            for (int i = 0; i < 3; ++i) { if (!(B->inertia[i] > HS_R(0.0))) { return HS_E_MODEL_PARAM; } }
            const hs_real pn = B->rot[0] * B->rot[0] + B->rot[1] * B->rot[1] + B->rot[2] * B->rot[2] + B->rot[3] * B->rot[3];
            if (!(hs_abs(pn - HS_R(1.0)) < HS_R(1e-6))) { return HS_E_MODEL_PARAM; /* not a unit quaternion */ }
        }
        for (int i = 0; i < 3; ++i) {
            if (hs_isfinite(B->inertia[i]) == 0 || hs_isfinite(B->pos[i]) == 0 || hs_isfinite(B->vel[i]) == 0
                || hs_isfinite(B->omega[i]) == 0 || hs_isfinite(B->rot[i]) == 0 || hs_isfinite(B->rot[3]) == 0) {
                return HS_E_MODEL_PARAM;
            }
        }
        mb->qoff[b] = nq;
        mb->bnq[b] = n;
        nq += n;
        if (nq > HS_MB_MAX_NQ) {
            for (int r = b + 1; r < D->nbodies; ++r) { nq += hs_mb_body_nq(D->bodies[r].kind); }
            return mb_lim_fail(mb, "coordinates", nq, 0, "HS_MB_MAX_NQ", HS_MB_MAX_NQ, "HS_MB_MAX_NQ");
        }
    }
    mb->qoff[D->nbodies] = nq;
    mb->nq = nq;
    mb->nquat = 0;
    for (int b = 0; b < D->nbodies; ++b) {
        if (D->bodies[b].kind == HS_MB_SPATIAL) { mb->quat[mb->nquat] = mb->qoff[b] + 3; mb->nquat++; }
    }
    return HS_OK;
}

/* Joints: each checked by its kind's row of the joint table, then their rows built. */
static int pass_joints(const hs_mb_desc *D, hs_mb_model *mb, int packed, int *bad_index)
{
    mb->bad_table = 1;
    for (int j = 0; j < D->njoints; ++j) {
        const hs_mb_joint *J = &D->joints[j];
        *bad_index = j;
        if (name_ok(J->name) == 0 || point_ok(D, &J->a) == 0 || point_ok(D, &J->b) == 0) { return HS_E_MODEL_PARAM; }
        if (point_ok(D, &J->c) == 0 || point_ok(D, &J->d) == 0) { return HS_E_MODEL_PARAM; }
        if ((int)J->kind < 0 || (int)J->kind >= (int)HS_MB_JOINT_KINDS) { return HS_E_MODEL_PARAM; }
        const char *why = NULL;
        if (mb_joint_elems[J->kind]->check(D, J, &why) != 0u) { mb->bad_why = why; return HS_E_MODEL_PARAM; }
    }
    int rc = mb_build_rows(mb, bad_index);
    if (rc != 0) { return rc; }
    mb->nc = mb->nrow;
    if (packed == HS_MB_PACK_AUTO) {
        /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
        mb->packed = (mb->nq + mb->nc > HS_LS_DENSE_MAX) ? 1 : 0;
    }
    return HS_OK;
}

/* Force elements: each checked by its kind's row of the element table, its states placed. */
static int pass_forces(const hs_mb_desc *D, hs_mb_model *mb, int *bad_index)
{
    mb->bad_table = 2;
    for (int e = 0; e < D->nforces; ++e) {
        const hs_mb_force *E = &D->forces[e];
        *bad_index = e;
        if (name_ok(E->name) == 0 || point_ok(D, &E->a) == 0 || point_ok(D, &E->b) == 0) { return HS_E_MODEL_PARAM; }
        if (hs_isfinite(E->k) == 0 || hs_isfinite(E->c) == 0 || hs_isfinite(E->l0) == 0 || hs_isfinite(E->kr) == 0
            || hs_isfinite(E->cr) == 0 || hs_isfinite(E->scale) == 0 || hs_isfinite(mb_dot3(E->v, E->v)) == 0) {
            return HS_E_MODEL_PARAM;
        }
        if ((int)E->kind < 0 || (int)E->kind >= (int)HS_MB_FORCE_KINDS) { return HS_E_MODEL_PARAM; }
        const mb_force_elem *el = mb_force_elems[E->kind];
        const char *why = NULL;
        if (el->check(D, E, &why) != 0u) { mb->bad_why = why; return HS_E_MODEL_PARAM; }
        if (el->inputs != NULL) {
            const char *suf[3] = {NULL, NULL, NULL};
            const int n = el->inputs(D, E, suf);
            if (E->in0 < 0 || E->in0 + n > D->nin) { mb->bad_why = "input index not below the model's input count"; return HS_E_MODEL_PARAM; }
        }
        if (E->in1 < 0 || E->in1 > D->nin || E->in2 < 0 || E->in2 > D->nin || E->in3 < 0 || E->in3 > D->nin) { mb->bad_why = "input index not below the model's input count"; return HS_E_MODEL_PARAM; }
        mb->zoff[e] = mb->nz;
        mb->nz += mb_force_nz(E);
        if (mb->nz > HS_MB_MAX_NZ) {
            int nz = mb->nz;
            for (int r = e + 1; r < D->nforces; ++r) {
                const int k = (int)D->forces[r].kind;
                if ((k >= 0) && (k < (int)HS_MB_FORCE_KINDS)) { nz += mb_force_nz(&D->forces[r]); }
            }
            return mb_lim_fail(mb, "auxiliary states", nz, 0, "HS_MB_MAX_NZ", HS_MB_MAX_NZ, "HS_MB_MAX_NZ");
        }
    }
    return HS_OK;
}

/* Output i: its index, its second body and its lines checked; *n its line count. */
static int output_check(const hs_mb_desc *D, hs_mb_model *mb, int i, int nout, int *n)
{
    const hs_mb_output *o = &D->outputs[i];
    const int lim = (o->kind == HS_MB_OUT_COORD) ? D->njoints
                    : (((o->kind == HS_MB_OUT_TIRE) || (o->kind == HS_MB_OUT_FORCE)) ? D->nforces : D->nbodies);
    if (o->kind != HS_MB_OUT_ENERGY && (o->index < 0 || o->index >= lim)) { return HS_E_MODEL_PARAM; }
    if (o->index2 < 0 || o->index2 > D->nbodies || (o->index2 > 0 && o->kind != HS_MB_OUT_POS
        && o->kind != HS_MB_OUT_VEL && o->kind != HS_MB_OUT_ACC)) { return HS_E_MODEL_PARAM; }
    if (o->sig != NULL && hs_isfinite(o->offset) == 0) { return HS_E_MODEL_PARAM; }
    mb->out_first[i] = nout;
    *n = mb_output_count(mb, o);
    if (*n < 0) { mb->bad_why = "no such quantity or component for this element"; return HS_E_MODEL_PARAM; }
    if (o->index2 > 0 && mb_line_count(mb, o->kind, o->index2 - 1) != mb_line_count(mb, o->kind, o->index)) {
        mb->bad_why = "the two bodies differ in kind";
        return HS_E_MODEL_PARAM;
    }
    if (o->kind == HS_MB_OUT_ACC) {
        /* a = M^-1 f (the old path, same bits) where no row acts, at the origin, ground axes;
         * anything else needs u' of the whole system (hs_mb_acc.c) */
        /* MISRA Ref 10.6.2 [*tool*: c ? 1 : 0 into an int] */
        int kkt = (o->axes != 0 || o->at[0] != HS_R(0.0) || o->at[1] != HS_R(0.0) || o->at[2] != HS_R(0.0)) ? 1 : 0;
        for (int r = 0; r < mb->nrow; ++r) {
            if (row_touches(&mb->rows[r], o->index) != 0 || (o->index2 > 0 && row_touches(&mb->rows[r], o->index2 - 1) != 0)) { kkt = 1; }
        }
        if (kkt != 0 && mb->nq + mb->nrow > HS_MB_ACC_MAXN) {
            mb->bad_why = "acc of a jointed or spatial body (or at a point, in body axes) needs nq + nc <= 64 (HS_MB_ACC_MAXN)";
            return HS_E_MODEL_PARAM;
        }
        if (kkt != 0) { mb->acc_kkt = 1; }
        mb->has_acc = 1;
    }
    return HS_OK;
}

/* The name of line j of output o (with its unit) into dst (cap chars). */
static void output_name(const hs_mb_desc *D, const hs_mb_output *o, int j, char *dst, int cap)
{
    static const char *const ACC_NAMES[4][3] = {{".ax (m/s^2)", ".ay (m/s^2)", ".alpha (rad/s^2)"},
        {".ax (m/s^2)", ".ay (m/s^2)", ".az (m/s^2)"}, {".ax (m/s^2)", ".ay (m/s^2)", ""}, {".ax (m/s^2)", ".ay (m/s^2)", ".az (m/s^2)"}};
    if (o->sig != NULL) {
        put_str(dst, cap, o->sig->name, " (", o->sig->unit);
        put_str(dst, cap, dst, ")", NULL);
    } else {
        switch (o->kind) {
        case HS_MB_OUT_POS: put_str(dst, cap, D->bodies[o->index].name, signal_suffix(1, D->bodies[o->index].kind, j), NULL); break;
        case HS_MB_OUT_VEL: put_str(dst, cap, D->bodies[o->index].name, signal_suffix(0, D->bodies[o->index].kind, j), NULL); break;
        case HS_MB_OUT_ACC: put_str(dst, cap, D->bodies[o->index].name, ACC_NAMES[D->bodies[o->index].kind][j], NULL); break;
        case HS_MB_OUT_COORD: {
            const hs_mb_joint *J = &D->joints[o->index];
            const int ang = (int)(mb_joint_elems[J->kind]->coord_kind(D, J) == 1);
            put_str(dst, cap, J->name, ang ? ".angle (rad)" : ".travel (m)", NULL);
            break;
        }
        case HS_MB_OUT_TIRE: {
            static const char *const TIRE_NAMES[6] = {".omega (rad/s)", ".Fx (N)", ".Fy (N)", ".Fz (N)", ".sx (1)", ".sy (1)"};
            put_str(dst, cap, D->forces[o->index].name, TIRE_NAMES[j], NULL);
            break;
        }
        case HS_MB_OUT_VEHICLE: {
            static const char *const VEH_NAMES[7] = {".vx (m/s)", ".vy (m/s)", ".yaw_rate (rad/s)", ".ax (m/s^2)", ".ay (m/s^2)", ".beta (rad)", ".yaw (rad)"};
            put_str(dst, cap, D->bodies[o->index].name, VEH_NAMES[j], NULL);
            break;
        }
        case HS_MB_OUT_FORCE: {
            const mb_force_elem *el = mb_force_elems[D->forces[o->index].kind];
            char s[40];
            put_str(s, (int)sizeof s, ".", el->val_name[j], " (");
            put_str(s, (int)sizeof s, s, el->val_unit[j], ")");
            put_str(dst, cap, D->forces[o->index].name, s, NULL);
            break;
        }
        default: put_str(dst, cap, "energy (J)", NULL, NULL); break;
        }
    }
}

/* Outputs: each checked and its lines named. */
static int pass_outputs(const hs_mb_desc *D, hs_mb_model *mb, int *bad_index)
{
    int nout = 0;
    mb->bad_table = 3;
    for (int i = 0; i < D->noutputs; ++i) {
        *bad_index = i;
        int n = 0;
        const int rc = output_check(D, mb, i, nout, &n);
        if (rc != (int)HS_OK) { return rc; }
        if (nout + n > HS_MB_MAX_NOUT) { return mb_lim_fail(mb, "output signals", nout + n, 1, "HS_MB_MAX_NOUT", HS_MB_MAX_NOUT, "HS_MB_MAX_NOUT"); }
        for (int j = 0; j < n; ++j) {
            char *dst = mb->out_buf[nout + j];
            output_name(D, &D->outputs[i], j, dst, (int)sizeof mb->out_buf[0]);
            mb->out_names[nout + j] = dst;
        }
        nout += n;
    }
    mb->out_first[D->noutputs] = nout;
    mb->nout = nout;
    return HS_OK;
}

/* Inputs: their names, declared or after the elements that read them. */
static void pass_inputs(const hs_mb_desc *D, hs_mb_model *mb, int *bad_index)
{
    mb->nin = D->nin;
    mb->bad_table = -1;
    *bad_index = -1;
    for (int i = 0; i < D->nin; ++i) {
        char num[4] = {(char)('0' + i / 10), (char)('0' + i % 10), 0, 0};
        put_str(mb->in_buf[i], (int)sizeof mb->in_buf[0], "in", num, " (1)");
        mb->in_names[i] = mb->in_buf[i];
    }
    /* inputs: the declared names and units, else named after the element that reads them */
    for (int e = 0; e < D->nforces && D->inputs == NULL; ++e) {
        const hs_mb_force *E = &D->forces[e];
        const mb_force_elem *el = mb_force_elems[E->kind];
        const char *suf[3] = {NULL, NULL, NULL};
        const int n = el->inputs != NULL ? el->inputs(D, E, suf) : 0;
        for (int i = 0; i < n; ++i) { put_str(mb->in_buf[E->in0 + i], (int)sizeof mb->in_buf[0], E->name, suf[i], NULL); }
    }
    for (int i = 0; i < D->nin && D->inputs != NULL; ++i) {
        char *dst = mb->in_buf[i];
        put_str(dst, (int)sizeof mb->in_buf[0], D->inputs[i].name, " (", D->inputs[i].unit);
        put_str(dst, (int)sizeof mb->in_buf[0], dst, ")", NULL);
    }
}

/* Compile-time preparation of the elements and rows: hinge references, the joints' own
 * preparation, the set values taken from the initial configuration. */
static void pass_prepare(const hs_mb_desc *D, hs_mb_model *mb)
{
    /* spatial hinge references: zero angle where axis meets axis_b, initial angle in (-pi, pi] */
    for (int e = 0; e < D->nforces; ++e) {
        const hs_mb_force *E = &D->forces[e];
        if (D->dim == 3 && mb_force_elems[E->kind]->hinge == MB_YES) {
            mb_hinge_ref(E->axis, E->axis_b, D->bodies[E->a.body].rot,
                         E->b.body >= 0 ? D->bodies[E->b.body].rot : NULL, mb->hinge_c[e]);
        }
    }
    for (int j = 0; j < D->njoints; ++j) {
        const mb_joint_elem *el = mb_joint_elems[D->joints[j].kind];
        if (el->prepare != NULL) { el->prepare(mb, j); }
    }
    /* set values of prismatic and fixed joints: the initial relative configuration */
    hs_real *q0 = mb->scratch, *u0 = &mb->scratch[HS_MB_MAX_NQ], *g = &mb->scratch[2 * HS_MB_MAX_NQ];
    mb_initial_state(mb, q0, u0);
    const int keep = mb->packed;
    mb->packed = 0;
    (void)mb_constraint(mb, HS_R(0.0), q0, g, NULL, NULL);
    mb->packed = keep;
    for (int r = 0; r < mb->nrow; ++r) {
        const int j = mb->rows[r].joint;
        if (j >= 0 && mb_joint_elems[D->joints[j].kind]->init_value != 0) {
            mb->rows[r].value = g[r];
        }
    }
}

/* Marks the coupled blocks (qqoff, cqoff 0; -1 elsewhere): the diagonal, rows touching two
 * bodies, two-body forces. */
static void block_coupling(const hs_mb_desc *D, hs_mb_model *mb, int ncb)
{
    static const int none = -1;
    for (int i = 0; i < D->nbodies; ++i) {
        for (int j = 0; j < D->nbodies; ++j) { mb->qqoff[i][j] = (i == j) ? 0 : none; }
    }
    for (int c = 0; c < ncb; ++c) {
        for (int b = 0; b < D->nbodies; ++b) { mb->cqoff[c][b] = none; }
    }
    for (int r = 0; r < mb->nrow; ++r) {
        const hs_mb_row *R = &mb->rows[r];
        int bs[4], nbs = 0;
        if (R->kind == HS_MB_ROW_ANGLE || R->kind == HS_MB_ROW_NORM) {
            { bs[nbs] = R->body; ++nbs; } { bs[nbs] = R->body2; ++nbs; }
        } else {
            for (int i = 0; i < 4; ++i) { bs[nbs] = R->o[i].used ? R->o[i].body : -1; ++nbs; }
        }
        for (int i = 0; i < nbs; ++i) {
            if (bs[i] < 0) { continue; }
            mb->cqoff[mb->cbidx[r]][bs[i]] = 0;
            for (int j = 0; j < nbs; ++j) {
                /* K = d(G^T lambda)/dq of a DOT row (o0 - o1) . (o2 - o3) couples an operand
                 * of the first difference only with one of the second (the rest are each
                 * point's own Hessian, a diagonal block): a hinge to ground or a chain link
                 * adds no off-diagonal block, which keeps the sparse factor thin; ANGLE rows
                 * are linear, NORM and QUAD rows touch one body */
                int cross = (int)(i == j);
                if (R->kind == HS_MB_ROW_DOT) { cross = (int)((i < 2) != (j < 2)); }
                if (bs[j] >= 0 && cross != 0) { mb->qqoff[bs[i]][bs[j]] = 0; }
            }
        }
    }
    for (int e = 0; e < D->nforces; ++e) {
        /* every pair of the element's bodies: a, b and a driveline element's shafts bc, bd */
        const hs_mb_force *E = &D->forces[e];
        const int bs[4] = {E->a.body, E->b.body, E->bc - 1, E->bd - 1};
        for (int i = 0; i < 4; ++i) {
            for (int j = 0; j < 4; ++j) {
                if ((bs[i] >= 0) && (bs[j] >= 0) && (bs[i] < D->nbodies) && (bs[j] < D->nbodies)) { mb->qqoff[bs[i]][bs[j]] = 0; }
            }
        }
    }
}

/* The block pattern: position blocks = bodies; constraint blocks = joints, then norm rows. */
static int pass_blocks(const hs_mb_desc *D, hs_mb_model *mb)
{
    int wo = 0; /* next free int of blkbuf */
    int ncb = 0;
    int *qb = &mb->blkbuf[wo];
    wo += D->nbodies + 1;
    for (int b = 0; b <= D->nbodies; ++b) { qb[b] = mb->qoff[b]; }
    int *cb = &mb->blkbuf[wo];
    for (int j = 0; j < D->njoints; ++j) {
        if (mb->jrow[j + 1] > mb->jrow[j]) { cb[ncb] = mb->jrow[j]; ++ncb; }
    }
    for (int r = mb->jrow[D->njoints]; r < mb->nrow; ++r) { cb[ncb] = r; ++ncb; }
    cb[ncb] = mb->nrow;
    wo += ncb + 1;
    mb->ncb = ncb;
    for (int c = 0; c < ncb; ++c) {
        mb->cbfirst[c] = cb[c];
        for (int r = cb[c]; r < cb[c + 1]; ++r) { mb->cbidx[r] = c; }
    }
    mb->cbfirst[ncb] = mb->nrow;
    block_coupling(D, mb, ncb);
    int nqq = 0, off = 0;
    int *qq = &mb->blkbuf[wo];
    for (int i = 0; i < D->nbodies; ++i) {
        for (int j = 0; j < D->nbodies; ++j) {
            if (mb->qqoff[i][j] < 0) { continue; }
            if (nqq >= HS_MB_MAX_QQ) { return mb_lim_fail(mb, "coupled body pairs", nqq + 1, 1, "HS_MB_MAX_QQ", HS_MB_MAX_QQ, "HS_MB_MAX_BODIES"); }
            qq[2 * nqq] = i; qq[2 * nqq + 1] = j; ++nqq;
            mb->qqoff[i][j] = off;
            off += mb->bnq[i] * mb->bnq[j];
        }
    }
    mb->qqsize = off;
    wo += 2 * nqq;
    int ncq = 0;
    int *cq = &mb->blkbuf[wo];
    off = 0;
    for (int c = 0; c < ncb; ++c) {
        for (int b = 0; b < D->nbodies; ++b) {
            if (mb->cqoff[c][b] < 0) { continue; }
            if (ncq >= HS_MB_MAX_CQ) { return mb_lim_fail(mb, "(constraint block, body) pairs", ncq + 1, 1, "HS_MB_MAX_CQ", HS_MB_MAX_CQ, "HS_MB_MAX_NC"); }
            cq[2 * ncq] = c; cq[2 * ncq + 1] = b; ++ncq;
            mb->cqoff[c][b] = off;
            off += (cb[c + 1] - cb[c]) * mb->bnq[b];
        }
    }
    mb->cqsize = off;
    mb->blocks.nqb = D->nbodies; mb->blocks.ncb = ncb;
    mb->blocks.nqq = nqq; mb->blocks.ncq = ncq;
    mb->blocks.qb = qb; mb->blocks.cb = cb; mb->blocks.qq = qq; mb->blocks.cq = cq;
    return HS_OK;
}

/* The model type's sizes, names and general hooks (hs_mb.c), with this instance's exact sizes. */
static void pass_type(const hs_mb_desc *D, hs_mb_model *mb)
{
    hs_model_type *T = &mb->type;
    static const hs_model_type zero_type = {0};
    *T = zero_type;
    T->name = D->name ? D->name : "mb";
    T->doc = "multibody description (model/mb/hs_mb.h)";
    T->nq = mb->nq; T->nc = mb->nc; T->nz = mb->nz; T->nin = mb->nin; T->nout = mb->nout;
    T->params = NULL; T->nparams = 0; T->param_size = 0;
    T->in_names = mb->nin ? mb->in_names : NULL;
    T->out_names = mb->nout ? mb->out_names : NULL;
    T->check = hs_mb_fn_check;
    T->initial = hs_mb_fn_initial;
    T->mass = hs_mb_fn_mass;
    T->mass_blockdiag = 1; /* one block per body, no inertia across bodies (mass_general) */
    T->leaf_rows = (mb->packed && mb->nc) ? hs_mb_fn_leaf_rows : NULL; /* a wheel's rows before the chassis */
    T->force = hs_mb_fn_force;
    T->force_jac = hs_mb_fn_force_jac;
    T->force_fj = mb->nz ? hs_mb_fn_force_fj : NULL; /* one tire evaluation per factoring stage */
    T->constraint = mb->nc ? hs_mb_fn_constraint : NULL;
    T->gamma = mb->nc ? hs_mb_fn_gamma : NULL;
    T->zdot = mb->nz ? hs_mb_fn_zdot : NULL;
    T->output = mb->nout ? hs_mb_fn_output : NULL;
    T->dims = NULL;
    T->blocks = mb->packed ? hs_mb_fn_blocks : NULL;
    T->curvature = mb->nc ? hs_mb_fn_curvature : NULL;
    T->energy = hs_mb_fn_energy;
    T->motion = hs_mb_fn_motion;
    T->release = hs_mb_has_release(D) ? hs_mb_fn_release : NULL; /* the energy error's scale */
    T->lagrange = hs_mb_has_spatial(mb) ? hs_mb_fn_lagrange : NULL; /* else M is constant */
    T->spin = hs_mb_has_spatial(mb) ? hs_mb_fn_spin : NULL; /* the in-step range check's rate */
    T->quats = hs_mb_has_spatial(mb) ? hs_mb_fn_quats : NULL; /* rotated by their body rates */
    hs_mb_err_groups_build(D, mb);
    T->err_groups = hs_mb_fn_err_groups; /* err_est at the bodies' named points */
}

/* The contact tables (mb->nk rows) and the type's contact and compliance hooks. */
static int pass_contact(const hs_mb_desc *D, hs_mb_model *mb, int *bad_index)
{
    hs_model_type *T = &mb->type;
    int bad = -1;
    const int crc = hs_mb_ct_compile(mb, &bad);
    if (crc != (int)HS_OK) {
        mb->bad_table = 4;
        *bad_index = bad;
        return crc;
    }
    T->nk = mb->nk;
    T->ct_rows = (mb->nk > 0) ? mb->ct_rows : NULL;
    T->unilateral = (mb->nk > 0) ? hs_mb_fn_unilateral : NULL;
    T->ct_sweeps = (D->ct_sweeps > 0) ? D->ct_sweeps : HS_MB_CT_SWEEPS;
    T->compliance = NULL; /* only a description that declares compliance carries the hook */
    for (int j = 0; j < D->njoints; ++j) {
        if (D->joints[j].has_comp != 0) { T->compliance = hs_mb_fn_compliance; }
    }
    return HS_OK;
}

/* The fast paths, the plan and the free-body form, with the hooks they offer the stepper. */
static void pass_fast(const hs_mb_desc *D, hs_mb_model *mb)
{
    hs_model_type *T = &mb->type;
    mb_kslot_prepare(mb);
    mb_fast_prepare(mb); /* last: after the contact tables, which may add to the pattern */
    if (mb->fast != 0) { mb_plan_prepare(mb); }
    /* the fast path's shortcuts for the stepper: G, gamma and K in one pass, the zero entries
     * of its matrices (the sparse pattern), and whether its Jacobians are symmetric */
    if (((mb->fast & HS_MB_FAST_ROWS) != 0) && (mb->nc > 0)) { T->constraint_all = hs_mb_fn_constraint_all; }
    if ((mb->fast & (HS_MB_FAST_ROWS | HS_MB_FAST_FORCES | HS_MB_FAST_MASS))
        == (HS_MB_FAST_ROWS | HS_MB_FAST_FORCES | HS_MB_FAST_MASS)) {
        T->masks = hs_mb_fn_masks;
    }
    if (mb->plan != 0) {
        /* the plan's kernels straight from the hooks (they fall back to the ones above) */
        mb_plan_hooks(mb, T);
    }
    T->symmetric_jac = mb_fast_symmetric(mb);
    hs_mb_fb_compile(mb);
    T->free_bodies = (mb->nfb > 0) ? hs_mb_fn_free_bodies : NULL;
    /* free bodies in contact (no stops: those need joints): the points in body velocities */
    if ((mb->nfb > 0) && (mb->nk > 0) && (D->nstops == 0)) {
        T->ct_npoints = mb->ct_npts;
        T->ct_pts = mb->ct_pts;
        T->ct_points = hs_mb_fn_ct_points;
    }
}

/* The passes in order; *bad_index names the refused entry of table mb->bad_table. */
static hs_status compile_passes(const hs_mb_desc *D, hs_mb_model *mb, int packed, int *bad_index)
{
    *bad_index = -1;
    if (D == NULL || mb == NULL) { return HS_E_NULL; }
    int rc = pass_sizes(D, mb, packed);
    if (rc == (int)HS_OK) { rc = pass_bodies(D, mb, bad_index); }
    if (rc == (int)HS_OK) { rc = pass_joints(D, mb, packed, bad_index); }
    if (rc == (int)HS_OK) { rc = pass_forces(D, mb, bad_index); }
    if (rc == (int)HS_OK) { rc = pass_outputs(D, mb, bad_index); }
    if (rc != (int)HS_OK) { return rc; }
    pass_inputs(D, mb, bad_index);
    pass_prepare(D, mb);
    rc = pass_blocks(D, mb);
    if (rc != (int)HS_OK) { return rc; }
    pass_type(D, mb);
    rc = pass_contact(D, mb, bad_index);
    if (rc != (int)HS_OK) { return rc; }
    pass_fast(D, mb);
    *bad_index = -1;
    return HS_OK;
}

/* The record of a compile that returned rc with entry bad of table mb->bad_table refused: the
 * table's name as the field, the pass's reason (mb->bad_why) or the table's, the index. */
static void compile_error(const hs_mb_model *mb, hs_status rc, int bad, hs_error *err)
{
    static const char *const tables[4] = {"body", "joint", "force", "output"};
    static const char *const why[4] = {
        "body refused: mass/inertia not > 0, quaternion not unit, or a 2-D kind in a 3-D model (or back)",
        "joint refused: kind does not fit its bodies, axis not unit, length not > 0, or too many rows",
        "force refused: kind does not fit its bodies, or its input index is not below nin",
        "output refused: no such coordinate for this joint kind, or too many signals"};
    /* a NULL argument stops before the passes: mb's record is not this call's */
    const hs_mb_model *rec = NULL;
    if ((mb != NULL) && (rc != HS_OK) && (rc != HS_E_NULL)) { rec = mb; }
    const int t = (rec != NULL) ? rec->bad_table : -1;
    const char *bad_why = (rec != NULL) ? rec->bad_why : NULL;
    const char *field = "";
    err->status = rc;
    err->line = 0;
    err->index = (rc != HS_OK) ? bad : -1;
    err->detail[0] = '\0';
    err->has_value = 0;
    err->value = 0.0;
    if (rc == HS_OK) {
        err->msg = hs_status_str(rc);
    } else if (t == 4) { /* contacts, then stops from index 100 */
        field = (bad >= 100) ? "stop" : "contact";
        err->msg = (bad_why != NULL) ? bad_why : "a capacity HS_MB_MAX_* exceeded (contacts, stops, unilateral rows)";
    } else if ((t >= 0) && (t < 4)) {
        field = tables[t];
        err->msg = (bad_why != NULL) ? bad_why : why[t];
        if (rc == HS_E_SIZE) { err->msg = "a capacity HS_MB_MAX_* exceeded here"; }
    } else {
        err->msg = (rc == HS_E_SIZE) ? "a capacity HS_MB_MAX_* exceeded"
                 : ((rc == HS_E_NULL) ? hs_status_str(rc) : "description refused");
    }
    if ((rec != NULL) && (rc == HS_E_SIZE) && (rec->lim_name != NULL)) {
        hs_mb_limit_msg(err, rec->lim_what, rec->lim_need, rec->lim_atleast, rec->lim_name, rec->lim_cap, rec->lim_set);
    }
    size_t n = 0u;
    while ((field[n] != '\0') && (n + 1u < sizeof err->field)) {
        err->field[n] = field[n];
        ++n;
    }
    err->field[n] = '\0';
}

hs_status hs_mb_compile(const hs_mb_desc *D, hs_mb_model *mb, int packed, hs_error *err)
{
    int bad = -1;
    const hs_status rc = compile_passes(D, mb, packed, &bad);
    if (err != NULL) { compile_error(mb, rc, bad, err); }
    return rc;
}
