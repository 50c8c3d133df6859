/* hs_mb_parse.h - the .hsm text description format (README "Writing your own model"), parsed
 * from a memory buffer (format reference: model/FORMAT.md): freestanding, no allocation, every
 * limit checked, so the parser links into host tools and a fuzzer alike. File reading and
 * messages live in port/host/hs_mb_file.h. */
#ifndef HS_MB_PARSE_H
#define HS_MB_PARSE_H

#include "hs_mb.h"

#ifndef HS_MB_MAX_POINTS
#define HS_MB_MAX_POINTS 16   /* named ground points */
#endif
#define HS_MB_MAX_LINE 512    /* bytes of one line */
#ifndef HS_MB_MAX_PARAMS
#define HS_MB_MAX_PARAMS 48   /* param statements */
#endif
#define HS_MB_MAX_OVERRIDES 16 /* --param NAME=VALUE overrides of one load */
#define HS_MB_INIT_TOL 1e-6   /* initial state: |g_i| <= tol (1 + |set value|), |G u + g_t|_i <= tol (1 + |G_i| |u|) */

/* Values given on a command line (--param NAME=VALUE) that replace a description's param
 * statements of the same name; every one must name a param of the file. */
typedef struct hs_mb_overrides {
    int n;
    char name[HS_MB_MAX_OVERRIDES][HS_MB_NAME];
    double value[HS_MB_MAX_OVERRIDES];
} hs_mb_overrides;

/* Storage the parser fills; desc points into it. */
/* Warnings a description's store keeps (redundant rows removed); more are counted. */
#define HS_MB_MAX_WARN 8

typedef struct hs_mb_store {
    char name[HS_MB_NAME];
    hs_mb_body bodies[HS_MB_MAX_BODIES];
    hs_mb_joint joints[HS_MB_MAX_JOINTS];
    hs_mb_force forces[HS_MB_MAX_FORCES];
    hs_mb_output outputs[HS_MB_MAX_OUTPUTS];
    hs_mb_point points[HS_MB_MAX_POINTS];
    char point_names[HS_MB_MAX_POINTS][HS_MB_NAME];
    int npoints;
    int body_line[HS_MB_MAX_BODIES], joint_line[HS_MB_MAX_JOINTS]; /* source lines, for errors */
    int force_line[HS_MB_MAX_FORCES], output_line[HS_MB_MAX_OUTPUTS];
    hs_mb_desc desc;
    hs_mb_shape shapes[HS_MB_MAX_SHAPES];
    hs_mb_contact contacts[HS_MB_MAX_CONTACTS];
    hs_mb_stop stops[HS_MB_MAX_STOPS];
    int shape_line[HS_MB_MAX_SHAPES], contact_line[HS_MB_MAX_CONTACTS], stop_line[HS_MB_MAX_STOPS];
    /* param statements (after overrides) */
    int nparams;
    char param_names[HS_MB_MAX_PARAMS][HS_MB_NAME];
    double param_val[HS_MB_MAX_PARAMS]; /* double in every build: expressions are evaluated in double */
    int param_line[HS_MB_MAX_PARAMS];
    /* the description's signal map: declared inputs, named outputs */
    int ninputs;
    hs_mb_signal in_sig[HS_MB_MAX_NIN];
    int in_line[HS_MB_MAX_NIN];
    hs_mb_signal out_sig[HS_MB_MAX_OUTPUTS];
    hs_mb_table tables[HS_MB_MAX_FORCES]; /* of the table elements */
    const hs_mb_overrides *ovr;           /* NULL: none */
    int ovr_used[HS_MB_MAX_OVERRIDES];
    const char *ewhy;                     /* why the last value was refused (static text) */
    char ename[HS_MB_NAME];               /* the unknown parameter it named, if any */
    const char *cap_name, *cap_what;      /* a statement over its capacity: its name (NULL: none), what it counts */
    int cap;                              /* and its value */
    /* scratch of the joint checks (initial state, redundancy): G, orthonormal rows, coefficients */
    hs_real chk_q[HS_MB_MAX_NQ], chk_u[HS_MB_MAX_NQ], chk_g[HS_MB_MAX_NC], chk_gt[HS_MB_MAX_NC];
    hs_real chk_G[HS_MB_MAX_NC * HS_MB_MAX_NQ];
    hs_real chk_B[HS_MB_MAX_NC * HS_MB_MAX_NQ];
    hs_real chk_C[HS_MB_MAX_NC * HS_MB_MAX_NC];
    /* redundant joint rows the check removed (desc.row_drop points here), and its warnings */
    unsigned char row_drop[HS_MB_MAX_NC];
    unsigned char chk_dep[HS_MB_MAX_NC], chk_dep2[HS_MB_MAX_NC]; /* rows dependent at q0, at q1 */
    int chk_take[HS_MB_MAX_NC];           /* the rows a pass leaves out */
    int nwarn;                            /* warnings given (more than HS_MB_MAX_WARN: counted only) */
    int warn_line[HS_MB_MAX_WARN];        /* (min(nwarn, HS_MB_MAX_WARN)) their source lines */
    char warn[HS_MB_MAX_WARN][400];       /* and texts */
    int warn_joint[HS_MB_MAX_WARN];       /* the joint each is about, */
    int warn_rows[HS_MB_MAX_WARN];        /* the rows removed from it, */
    char warn_deps[HS_MB_MAX_WARN][160];  /* and the joints they depend on (space-led names) */
} hs_mb_store;

/* Where and why a description was refused: the error record (rt/hs_types.h); field is the
 * offending keyword or key, msg static text. */
typedef hs_error hs_mb_error;

/* Parses len bytes of buf into st (st->desc is the description). HS_OK, or HS_E_MODEL_PARAM /
 * HS_E_SIZE with *err filled. The buffer need not be NUL-terminated. */
hs_status hs_mb_parse(const char *buf, size_t len, hs_mb_store *st, hs_mb_error *err);

/* As hs_mb_parse with --param overrides (ovr may be NULL); an override naming no param of the
 * file is refused. */
hs_status hs_mb_parse_ovr(const char *buf, size_t len, hs_mb_store *st, const hs_mb_overrides *ovr,
                    hs_mb_error *err);

/* Parses then compiles (dense storage unless packed); compile errors are reported with the
 * line of the offending element. */
hs_status hs_mb_parse_compile(const char *buf, size_t len, hs_mb_store *st, hs_mb_model *mb, int packed,
                        hs_mb_error *err);

/* As hs_mb_parse_compile with overrides; then checks the description against its joints: the
 * initial positions and velocities within HS_MB_INIT_TOL (refused, not projected: the file's
 * numbers are the user's, and a silent correction would differ from the generated tables),
 * and no joint whose rows depend on earlier ones at the initial and at a perturbed
 * configuration (a redundant or over-determined set; a singular initial configuration alone
 * is accepted). */
hs_status hs_mb_parse_compile_ovr(const char *buf, size_t len, hs_mb_store *st, const hs_mb_overrides *ovr,
                            hs_mb_model *mb, int packed, hs_mb_error *err);

#endif
