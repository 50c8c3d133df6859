/* hs_mb_file.h - loading a .hsm multibody description file on the host (hilstep-sim,
 * hilstep-rt, hilstep-mbgen). */
#ifndef HS_MB_FILE_H
#define HS_MB_FILE_H
#include "hs_mb_parse.h"

/* Largest description file read (bytes). */
#define HS_MB_FILE_MAX (256 * 1024)

/* Reads, parses and compiles `path` into st and mb (packed: declare the block pattern).
 * On a bad file prints "PROG: PATH:LINE: field 'F': why" to stderr and returns 2; 0 on success. */
int hs_mb_load_file(const char *prog, const char *path, hs_mb_store *st, hs_mb_model *mb, int packed);

#endif
