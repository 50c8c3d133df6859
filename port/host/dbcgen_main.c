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

/* A C string literal of s: '"', '\\' and '?' (no trigraph can form) escaped, every byte
 * outside printable ASCII as a three-digit octal escape. */
static void str(const char *s)
{
    putchar('"');
    for (; *s; ++s) {
        if (*s == '"' || *s == '\\' || *s == '?') putchar('\\');
        if (*s >= 32 && *s < 127) putchar(*s);
        else printf("\\%03o", (unsigned char)*s);
    }
    putchar('"');
}

/* Text inside a C comment (the DBC's path): printable ASCII only, every other byte (and '\\')
 * as \xNN, and neither "*" "/" nor "/" "*" in a row, so nothing the text holds can end the
 * comment, open another or end the line. */
static void comment_text(const char *s)
{
    for (; *s; ++s) {
        const unsigned char c = (unsigned char)*s;
        if (c < 32 || c >= 127 || c == '\\') printf("\\x%02X", c);
        else if (c == '*' && s[1] == '/') fputs("*\\x2F", stdout), ++s;
        else if (c == '/' && s[1] == '*') fputs("/\\x2A", stdout), ++s;
        else putchar(c);
    }
}

/* 1 when x is finite ("%a" of an infinity or a NaN is not a C constant). */
static int finite(double x) { return x - x == 0.0; }

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
    for (int j = 0; j < db.nsig; ++j) {
        const hs_can_sig *s = &db.sig[j];
        if (!finite(s->factor) || !finite(s->offset) || !finite(s->min) || !finite(s->max) ||
            !finite(s->init_raw)) {
            fprintf(stderr, "hilstep-dbcgen: %s:%lu: signal %s: a value that is not finite has no C "
                    "constant\n", argv[1], (unsigned long)s->line, s->name);
            return hs_exit_of(HS_TOOL_DBCGEN, HS_E_DBC);
        }
    }
    printf("/* %s_dbc.c - written by hilstep-dbcgen from ", argv[2]);
    comment_text(argv[1]);
    printf("; do not edit (regenerate). */\n");
    printf("#include \"hs_can.h\"\n\n/* The signal map of ");
    comment_text(argv[1]);
    printf(", as hs_dbc_parse reads it. */\n");
    printf("const hs_can_db hs_can_db_%s = {\n    .msg = {\n", argv[2]);
    for (int m = 0; m < db.nmsg; ++m) {
        const hs_can_msg *M = &db.msg[m];
        printf("        {.name = ");
        str(M->name);
        printf(", .id = 0x%lXu, .ext = %u, .fd = %u, .len = %u, .cycle_ms = %lu, .stale_cycles = %lu, "
               ".first = %d, .n = %d, .line = %lu, .e2e = %u, .e2e_data_id = %u, .e2e_ctr = %d, "
               ".e2e_crc = %d, .secoc = %u, .secoc_fv = %d, .secoc_mac = %d, .secoc_by = %d},\n", (unsigned long)M->id, M->ext, M->fd, M->len,
               (unsigned long)M->cycle_ms, (unsigned long)M->stale_cycles, M->first, M->n,
               (unsigned long)M->line, M->e2e, M->e2e_data_id, M->e2e_ctr, M->e2e_crc,
               M->secoc, M->secoc_fv, M->secoc_mac, M->secoc_by);
    }
    printf("    },\n    .nmsg = %d,\n    .sig = {\n", db.nmsg);
    for (int j = 0; j < db.nsig; ++j) {
        const hs_can_sig *s = &db.sig[j];
        printf("        {.name = ");
        str(s->name);
        printf(", .unit = ");
        str(s->unit);
        printf(", .start = %u, .len = %u, .intel = %u, .is_signed = %u, .has_init = %u, .factor = %a, "
               ".offset = %a, .min = %a, .max = %a, .init_raw = %a, .line = %lu, .e2e_role = %u},\n",
               s->start, s->len, s->intel, s->is_signed, s->has_init, s->factor, s->offset, s->min,
               s->max, s->init_raw, (unsigned long)s->line, s->e2e_role);
    }
    printf("    },\n    .nsig = %d,\n};\n", db.nsig);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "hilstep-dbcgen: write error\n");
        return hs_exit_of(HS_TOOL_DBCGEN, HS_E_WRITE);
    }
    return hs_exit_of(HS_TOOL_DBCGEN, HS_OK);
}
