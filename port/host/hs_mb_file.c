/* hs_mb_file.c - reads a .hsm file into memory and hands it to the freestanding parser. */
#include <stdio.h>

#include "hs_mb_file.h"

int hs_mb_load_file(const char *prog, const char *path, hs_mb_store *st, hs_mb_model *mb, int packed)
{
    static char buf[HS_MB_FILE_MAX + 1];
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: %s: cannot open the model file\n", prog, path);
        return 2;
    }
    size_t n = fread(buf, 1, sizeof buf, f);
    int rerr = ferror(f);
    fclose(f);
    if (rerr) {
        fprintf(stderr, "%s: %s: read error\n", prog, path);
        return 2;
    }
    if (n > HS_MB_FILE_MAX) {
        fprintf(stderr, "%s: %s: file larger than %d bytes\n", prog, path, HS_MB_FILE_MAX);
        return 2;
    }
    hs_mb_error err;
    int rc = hs_mb_parse_compile(buf, n, st, mb, packed, &err);
    if (rc) {
        fprintf(stderr, "%s: %s:%d: field '%s': %s\n", prog, path, err.line, err.field, err.msg);
        return 2;
    }
    return 0;
}
