/* hs_dbc_file.h - loading a DBC file on the host (hilstep-rt, hilstep-ecu, hilstep-dbcgen,
 * tests). Header-only like hs_mb_file.h so every host main gets it without a build-rule change. */
#ifndef HS_DBC_FILE_H
#define HS_DBC_FILE_H
#include <stdio.h>

#include "hs_can.h"

/* Largest DBC file read (bytes). */
#define HS_DBC_FILE_MAX (1024 * 1024)

/* Reads and parses `path` into db. On a bad file writes "PATH:LINE: why" (or "PATH: why")
 * into msg (n bytes) and returns 2; 0 on success. */
static inline int hs_dbc_load_file(const char *path, hs_can_db *db, char *msg, size_t n)
{
    static char buf[HS_DBC_FILE_MAX + 1];
    FILE *f = fopen(path, "rb");
    if (!f) { if (snprintf(msg, n, "%s: cannot open the DBC file", path) < 0) msg[0] = 0; return 2; }
    size_t len = fread(buf, 1, sizeof buf, f);
    int rerr = ferror(f);
    fclose(f);
    if (rerr) { if (snprintf(msg, n, "%s: read error", path) < 0) msg[0] = 0; return 2; }
    if (len > HS_DBC_FILE_MAX) { if (snprintf(msg, n, "%s: file larger than %d bytes", path, HS_DBC_FILE_MAX) < 0) msg[0] = 0; return 2; }
    hs_dbc_error err;
    if (hs_dbc_parse(buf, len, db, &err) != 0) {
        int r = err.line ? snprintf(msg, n, "%s:%u: %s", path, (unsigned)err.line, err.msg)
                         : snprintf(msg, n, "%s: %s", path, err.msg);
        if (r < 0) msg[0] = 0;
        return 2;
    }
    return 0;
}

/* A binding or map error of db loaded from path, in the same "PATH:LINE: why" form. */
static inline void hs_dbc_error_msg(const char *path, const hs_dbc_error *err, char *msg, size_t n)
{
    int r = err->line ? snprintf(msg, n, "%s:%u: %s", path, (unsigned)err->line, err->msg)
                      : snprintf(msg, n, "%s: %s", path, err->msg);
    if (r < 0) msg[0] = 0;
}

#endif
