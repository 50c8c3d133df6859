/* hs_transports.h - the transports of the Linux port (registered in hs_transports.c). */
#ifndef HS_TRANSPORTS_H
#define HS_TRANSPORTS_H

#include "hs_exit.h"
#include "hs_transport.h"

#include <stdio.h>

/* NULL-terminated list of every transport this port offers; the first is the default. */
extern const hs_transport_ops *const hs_transports[];

/* The --transport line of a tool's --help, from the table: every name (the first the default),
 * then each one's options (its usage line), so a new row is in every tool's help. */
void hs_transports_help(FILE *f);

/* Fills err (status st, option and value copied, truncated to fit; errno sys_errno, 0 = none;
 * msg from fmt) and returns st: the one way a transport's open() fails. */
hs_status hs_tp_fail(hs_tp_error *err, hs_status st, const char *option, const char *value,
                     int sys_errno, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* The known names after `lead` on f, each after a space (an unknown --transport's message). */
void hs_transports_names(FILE *f, const char *lead);

#endif
