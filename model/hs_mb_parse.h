/* hs_mb_parse.h - the .hsm text description format (README "Writing your own model"), parsed
 * from a memory buffer: freestanding, no allocation, every limit checked, so the parser links
 * into the firmware and into a fuzzer alike. File reading lives in port/host/hs_mb_file.c. */
#ifndef HS_MB_PARSE_H
#define HS_MB_PARSE_H

#include "hs_mb.h"

#define HS_MB_MAX_POINTS 16   /* named ground points */
#define HS_MB_MAX_LINE 512    /* bytes of one line */

/* Storage the parser fills; desc points into it. */
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
} hs_mb_store;

/* Where and why a description was refused. */
typedef struct hs_mb_error {
    int line;          /* 1-based line, 0 when the whole file is at fault */
    char field[32];    /* the offending keyword or key (may be empty) */
    const char *msg;   /* static English text */
} hs_mb_error;

/* Parses len bytes of buf into st (st->desc is the description). HS_OK, or HS_E_MODEL_PARAM /
 * HS_E_SIZE with *err filled. The buffer need not be NUL-terminated. */
int hs_mb_parse(const char *buf, size_t len, hs_mb_store *st, hs_mb_error *err);

/* Parses then compiles (dense storage unless packed); compile errors are reported with the
 * line of the offending element. */
int hs_mb_parse_compile(const char *buf, size_t len, hs_mb_store *st, hs_mb_model *mb, int packed,
                        hs_mb_error *err);

#endif
