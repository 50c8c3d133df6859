/* dbcgen_main.c - build/hilstep-dbcgen: writes a DBC file as a C table (hs_can_db, hil/hs_can.h)
 * for boards, which have no file system: the firmware binds it with hs_can_bind like the host
 * binds the parsed file, so both run the same map. Every real is a hexadecimal floating
 * constant, the exact value the parser produced.
 *
 *   hilstep-dbcgen FILE.dbc NAME > NAME_dbc.c     defines `const hs_can_db hs_can_db_NAME`
 * Exit status (hil/hs_exit.h's hs_exit_of): 0 ok, 1 bad command line, 2 bad file (FILE:LINE:
 * why), 3 write error. */
#include <stdio.h>
#include <string.h>

#include "hs_dbc_file.h"
#include "hs_exit.h"

static hs_can_db db;

/* A C string literal of s (names and units: printable ASCII from the DBC). */
static void str(const char *s)
{
    putchar('"');
    for (; *s; ++s) {
        if (*s == '"' || *s == '\\') putchar('\\');
        if (*s >= 32 && *s < 127) putchar(*s);
        else printf("\\%03o", (unsigned char)*s);
    }
    putchar('"');
}

int main(int argc, char **argv)
{
    char msg[512];
    if (argc != 3) {
        fprintf(stderr, "usage: hilstep-dbcgen FILE.dbc NAME > NAME_dbc.c\n");
        return hs_exit_of(HS_TOOL_DBCGEN, HS_E_USAGE);
    }
    for (const char *p = argv[2]; *p; ++p)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_')) {
            fprintf(stderr, "hilstep-dbcgen: NAME must be a C identifier, got '%s'\n", argv[2]);
            return hs_exit_of(HS_TOOL_DBCGEN, HS_E_USAGE);
        }
    if (hs_dbc_load_file(argv[1], &db, msg, sizeof msg) != 0) {
        fprintf(stderr, "hilstep-dbcgen: %s\n", msg);
        return hs_exit_of(HS_TOOL_DBCGEN, HS_E_DBC);
    }
    printf("/* %s_dbc.c - written by hilstep-dbcgen from %s; do not edit (regenerate). */\n",
           argv[2], argv[1]);
    printf("#include \"hs_can.h\"\n\n/* The signal map of %s, as hs_dbc_parse reads it. */\n", argv[1]);
    printf("const hs_can_db hs_can_db_%s = {\n    .msg = {\n", argv[2]);
    for (int m = 0; m < db.nmsg; ++m) {
        const hs_can_msg *M = &db.msg[m];
        printf("        {.name = ");
        str(M->name);
        printf(", .id = 0x%lXu, .ext = %u, .fd = %u, .len = %u, .cycle_ms = %lu, .stale_cycles = %lu, "
               ".first = %d, .n = %d, .line = %lu},\n", (unsigned long)M->id, M->ext, M->fd, M->len,
               (unsigned long)M->cycle_ms, (unsigned long)M->stale_cycles, M->first, M->n,
               (unsigned long)M->line);
    }
    printf("    },\n    .nmsg = %d,\n    .sig = {\n", db.nmsg);
    for (int j = 0; j < db.nsig; ++j) {
        const hs_can_sig *s = &db.sig[j];
        printf("        {.name = ");
        str(s->name);
        printf(", .unit = ");
        str(s->unit);
        printf(", .start = %u, .len = %u, .intel = %u, .is_signed = %u, .has_init = %u, .factor = %a, "
               ".offset = %a, .min = %a, .max = %a, .init_raw = %a, .line = %lu},\n", s->start, s->len,
               s->intel, s->is_signed, s->has_init, s->factor, s->offset, s->min, s->max, s->init_raw,
               (unsigned long)s->line);
    }
    printf("    },\n    .nsig = %d,\n};\n", db.nsig);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "hilstep-dbcgen: write error\n");
        return hs_exit_of(HS_TOOL_DBCGEN, HS_E_WRITE);
    }
    return hs_exit_of(HS_TOOL_DBCGEN, HS_OK);
}
