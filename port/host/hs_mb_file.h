/* hs_mb_file.h - loading a .hsm multibody description file on the host (hilstep-sim,
 * hilstep-rt, hilstep-mbgen, tests). Header-only so every program that compiles a host main
 * gets it without a build-rule change. */
#ifndef HS_MB_FILE_H
#define HS_MB_FILE_H
#include <stdio.h>

#include "hs_mb_parse.h"

/* Largest description file read (bytes). */
#define HS_MB_FILE_MAX (256 * 1024)

/* Reads, parses and compiles `path` into st and mb (packed: declare the block pattern). On a
 * bad file writes "PATH:LINE: field 'F': why" into msg (n bytes) and returns 2; 0 on success. */
static inline int hs_mb_load_file_msg(const char *path, hs_mb_store *st, hs_mb_model *mb, int packed,
                                      char *msg, size_t n)
{
    static char buf[HS_MB_FILE_MAX + 1];
    FILE *f = fopen(path, "rb");
    if (!f) { if (snprintf(msg, n, "%s: cannot open the model file", path) < 0) msg[0] = 0; return 2; }
    size_t len = fread(buf, 1, sizeof buf, f);
    int rerr = ferror(f);
    fclose(f);
    if (rerr) { if (snprintf(msg, n, "%s: read error", path) < 0) msg[0] = 0; return 2; }
    if (len > HS_MB_FILE_MAX) { if (snprintf(msg, n, "%s: file larger than %d bytes", path, HS_MB_FILE_MAX) < 0) msg[0] = 0; return 2; }
    hs_mb_error err;
    if (hs_mb_parse_compile(buf, len, st, mb, packed, &err)) {
        if (snprintf(msg, n, "%s:%d: field '%s': %s", path, err.line, err.field, err.msg) < 0) msg[0] = 0;
        return 2;
    }
    return 0;
}

/* As hs_mb_load_file_msg, printing "PROG: message" to stderr on a bad file. */
static inline int hs_mb_load_file(const char *prog, const char *path, hs_mb_store *st, hs_mb_model *mb,
                                  int packed)
{
    char msg[512];
    int rc = hs_mb_load_file_msg(path, st, mb, packed, msg, sizeof msg);
    if (rc) fprintf(stderr, "%s: %s\n", prog, msg);
    return rc;
}

#endif
