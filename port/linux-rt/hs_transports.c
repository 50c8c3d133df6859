/* hs_transports.c - registration table of the Linux port's transports (hil/hs_transport.h).
 * A new transport NAME is its own file port/linux-rt/hs_tp_NAME.c defining
 * `const hs_transport_ops hs_tp_NAME` (the build compiles every hs_tp_*.c) and one line
 * X(NAME) below; its options reach it through --transport-opt KEY=VALUE. */
#include "hs_transports.h"

#include <stdarg.h>

#define HS_TRANSPORT_LIST(X) \
    X(udp) /* the frame of hil/FRAME.md: the default */ \
    X(can) /* SocketCAN with a DBC: hil/CAN.md */ \
    /* end of the list: one X(NAME) \ line per transport above */

#define HS_TP_DECLARE(name) extern const hs_transport_ops hs_tp_##name;
HS_TRANSPORT_LIST(HS_TP_DECLARE)

#define HS_TP_ROW(name) &hs_tp_##name,
const hs_transport_ops *const hs_transports[] = {HS_TRANSPORT_LIST(HS_TP_ROW) NULL};

void hs_transports_help(FILE *f)
{
    fprintf(f, "  --transport T      ");
    for (int i = 0; hs_transports[i]; ++i)
        fprintf(f, "%s %s%s", i ? (hs_transports[i + 1] ? "," : " or") : "", hs_transports[i]->name,
                i ? "" : " (default)");
    fprintf(f, "; the options each one reads:\n");
    for (int i = 0; hs_transports[i]; ++i)
        fprintf(f, "                        %s: %s\n", hs_transports[i]->name, hs_transports[i]->usage);
}

void hs_transports_names(FILE *f, const char *lead)
{
    fprintf(f, "%s", lead);
    for (int i = 0; hs_transports[i]; ++i) fprintf(f, " %s", hs_transports[i]->name);
}

hs_status hs_tp_fail(hs_tp_error *err, hs_status st, const char *option, const char *value,
                     int sys_errno, const char *fmt, ...)
{
    va_list ap;
    err->status = st;
    snprintf(err->option, sizeof err->option, "%s", option ? option : "");
    snprintf(err->value, sizeof err->value, "%s", value ? value : "");
    err->sys_errno = sys_errno;
    va_start(ap, fmt);
    if (vsnprintf(err->msg, sizeof err->msg, fmt, ap) < 0) err->msg[0] = '\0';
    va_end(ap);
    return st;
}
