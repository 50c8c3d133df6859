/* hs_mb_file.h - loading a .hsm multibody description file on the host (hilstep-sim,
 * hilstep-rt, hilstep-mbgen, tests). Header-only so every program that compiles a host main
 * gets it without a build-rule change. A bad description exits HS_MB_EXIT_BAD (= HS_EXIT_SETUP,
 * hil/hs_exit.h) from every tool. */
#ifndef HS_MB_FILE_H
#define HS_MB_FILE_H
#include <stdio.h>
#include <string.h>

#include "hs_mb_parse.h"

/* Largest description file read (bytes). */
#define HS_MB_FILE_MAX (256 * 1024)

/* A number written as a C hex float (0x1p3, -0X.8), which strtod reads but the .hsm parser
 * refuses: the tools' options and --inputs refuse it too, by name (one notation everywhere). */
static inline int hs_is_hex_float(const char *s)
{
    while (*s == ' ' || *s == '\t') ++s;
    if (*s == '+' || *s == '-') ++s;
    return s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
}

/* Exit status of every tool for a description it refuses (or cannot read): HS_EXIT_SETUP. */
#define HS_MB_EXIT_BAD 2

/* Adds NAME=VALUE (a --param argument; VALUE a plain number) to o. 0, or -1 with why set. */
static inline int hs_mb_override_add(hs_mb_overrides *o, const char *name, double value, const char **why)
{
    size_t n = strlen(name);
    if (o->n >= HS_MB_MAX_OVERRIDES) { *why = "too many --param values"; return -1; }
    if (n < 1 || n >= HS_MB_NAME) { *why = "parameter name empty or too long"; return -1; }
    memcpy(o->name[o->n], name, n + 1);
    o->value[o->n] = value;
    ++o->n;
    return 0;
}

/* Reads, parses and compiles `path` into st and mb (packed: declare the block pattern), with
 * the --param overrides ovr (may be NULL). On a bad file writes "PATH:LINE: field 'F': why
 * (detail)" into msg (n bytes) and returns HS_MB_EXIT_BAD; 0 on success, after printing
 * "PATH:LINE: warning: ..." to stderr for each redundant joint row the check removed. */
static inline int hs_mb_load_file_ovr(const char *path, hs_mb_store *st, const hs_mb_overrides *ovr,
                                      hs_mb_model *mb, int packed, char *msg, size_t n)
{
    static char buf[HS_MB_FILE_MAX + 1];
    FILE *f = fopen(path, "rb");
    if (!f) { if (snprintf(msg, n, "%s: cannot open the model file", path) < 0) msg[0] = 0; return HS_MB_EXIT_BAD; }
    size_t len = fread(buf, 1, sizeof buf, f);
    int rerr = ferror(f);
    fclose(f);
    if (rerr) { if (snprintf(msg, n, "%s: read error", path) < 0) msg[0] = 0; return HS_MB_EXIT_BAD; }
    if (len > HS_MB_FILE_MAX) { if (snprintf(msg, n, "%s: file larger than %d bytes", path, HS_MB_FILE_MAX) < 0) msg[0] = 0; return HS_MB_EXIT_BAD; }
    hs_mb_error err;
    if (hs_mb_parse_compile_ovr(buf, len, st, ovr, mb, packed, &err)) {
        char extra[200] = "";
        if (err.msg == err.detail) extra[0] = 0; /* the text is the detail (a capacity: hs_mb_limit_msg) */
        else if (err.detail[0] && err.has_value) snprintf(extra, sizeof extra, " (%s %.6g)", err.detail, err.value);
        else if (err.detail[0]) snprintf(extra, sizeof extra, " (%s)", err.detail);
        /* line 0: not a line of the file (a --param override): the path alone. */
        char at[24] = "";
        if (err.line > 0) snprintf(at, sizeof at, ":%d", err.line);
        /* the document that says what the field takes, not a tool's --help */
        if (snprintf(msg, n, "%s%s: field '%s': %s%s (%s)", path, at, err.field, err.msg, extra,
                     err.msg == err.detail ? "the capacities: model/README.md, Sizes" : "the format: model/FORMAT.md") < 0) msg[0] = 0;
        return HS_MB_EXIT_BAD;
    }
    /* redundant rows the check removed: the description runs, and stderr says which */
    for (int w = 0; w < st->nwarn && w < HS_MB_MAX_WARN; ++w)
        fprintf(stderr, "%s:%d: warning: %s\n", path, st->warn_line[w], st->warn[w]);
    if (st->nwarn > HS_MB_MAX_WARN)
        fprintf(stderr, "%s: warning: %d more redundant rows removed\n", path, st->nwarn - HS_MB_MAX_WARN);
    return 0;
}

/* As hs_mb_load_file_ovr without overrides. */
static inline int hs_mb_load_file_msg(const char *path, hs_mb_store *st, hs_mb_model *mb, int packed,
                                      char *msg, size_t n)
{
    return hs_mb_load_file_ovr(path, st, NULL, mb, packed, msg, n);
}

/* As hs_mb_load_file_msg, printing "PROG: message" to stderr on a bad file. */
static inline int hs_mb_load_file(const char *prog, const char *path, hs_mb_store *st, hs_mb_model *mb,
                                  int packed)
{
    char msg[600];
    int rc = hs_mb_load_file_msg(path, st, mb, packed, msg, sizeof msg);
    if (rc) fprintf(stderr, "%s: %s\n", prog, msg);
    return rc;
}

#endif
