/* hs_transports.h - the transports of the Linux port (registered in hs_transports.c). */
#ifndef HS_TRANSPORTS_H
#define HS_TRANSPORTS_H

#include "hs_exit.h"
#include "hs_transport.h"

#include <stdio.h>

/* NULL-terminated list of every transport this port offers; the first is the default. */
extern const hs_transport_ops *const hs_transports[];

#endif
