/* hs_transport.h - the seam between an application (the plant, or a test ECU) and its bus.
 *
 * A transport is one table of functions (hs_transport_ops): open, receive into the signal
 * map's receive side (hs_rx), send the outputs, wait, counters, close. The plant and the ECU
 * call only these; which transport runs is a name looked up in the port's registration
 * table (port/linux-rt/hs_transports.c: "udp" = the frame of hil/FRAME.md, the default, and
 * "can" = SocketCAN with a DBC, hil/CAN.md; port/cortex-m/hs_app.c: "memory"). A new
 * transport is one new file defining its ops and one line in that table; its options reach it
 * as key=value pairs (hs_tp_opt), so no command line changes either.
 * Freestanding: no OS calls here; the implementations live in the ports. */
#ifndef HS_TRANSPORT_H
#define HS_TRANSPORT_H

#include "hs_signal.h"

/* Most key=value options one transport gets. */
#define HS_TP_MAX_OPTS 16

/* What the application hands to open(). */
typedef struct hs_tp_cfg {
    const char *key[HS_TP_MAX_OPTS];  /* option names, e.g. "listen", "peer", "can-if", "dbc" */
    const char *val[HS_TP_MAX_OPTS];  /* their values */
    int nopt;
    const char *prog;                 /* program name for messages, e.g. "hilstep-rt" */
    uint32_t period_us;               /* the application's frame period (us) */
    unsigned rx_kind, tx_kind;        /* HS_FRAME_KIND_* received and sent (UDP frame) */
    const hs_signal_map *map;         /* the application's own map: names to bind, safety ranges */
    int rcvbuf;                       /* receive queue bytes asked (0 = default) */
    int map_only;                     /* 1: set up t->map only, touch no bus (--signals) */
    uint32_t *read;                   /* NULL, or bit i set by hs_tp_opt when option i is read:
                                       * the application refuses options no transport reads */
} hs_tp_cfg;

/* One counter for a report: key (stats file), value, a short note (may be ""). */
typedef void (*hs_tp_kv)(void *ctx, const char *key, double v, const char *note);

/* One send: the outputs of one frame. */
typedef struct hs_tp_out {
    uint64_t tick;        /* the application's frame index k */
    int extra;            /* 0: the frame of tick k; 1: an extra one (overrun / final / safe) */
    const hs_tx *tx;      /* the send side (signals, fallbacks) */
    const hs_real *y;     /* (tx->n) engineering outputs, NULL = the safe values (fallbacks) */
    const uint8_t *frame; /* the same outputs as a FRAME.md frame (n bytes; 0 = none built) */
    size_t n;
} hs_tp_out;

/* Why open() refused, filled at the point of failure (the transports' hs_error): the status,
 * the option at fault with its value, the errno of the system call that failed, one line. */
typedef struct hs_tp_error {
    hs_status status;     /* what open() returned: HS_E_USAGE (an option), HS_E_DBC (the DBC
                           * file or its binding), HS_E_SETUP (the bus, interface or socket) */
    char option[16];      /* the option at fault: "listen", "peer", "can-if", "dbc", ... or "" */
    char value[96];       /* its value: the address, interface or file ("" when none) */
    int sys_errno;        /* errno of the system call that failed, 0 when none did */
    char msg[384];        /* the console line naming the above (and strerror(sys_errno)) */
} hs_tp_error;

typedef struct hs_transport hs_transport;

typedef struct hs_transport_ops {
    const char *name;     /* --transport NAME */
    const char *usage;    /* one line: the options it reads */
    /* Opens the bus from cfg. May set t->map to the signal map the application must use
     * (CAN: the DBC's). HS_OK, or HS_E_USAGE (bad option), HS_E_DBC (the DBC refused) or
     * HS_E_SETUP (the bus, the interface or a file could not be set up; nothing left open)
     * with err filled; the application's exit is hs_exit_of(tool, status) (hil/hs_exit.h). */
    hs_status (*open)(hs_transport *t, const hs_tp_cfg *cfg, hs_tp_error *err);
    /* Hands at most max queued messages (then one more, so a left-over is noticed and counted)
     * to rx; never blocks. Returns the number handed in. */
    int (*receive)(hs_transport *t, hs_rx *rx, int max);
    /* Sends what is due of one frame's outputs; failures are counted, never retried. */
    void (*send)(hs_transport *t, const hs_tp_out *o);
    /* Waits up to timeout_ns for a message (non-RT use: lingering after the run). 1 ready. */
    int (*wait)(hs_transport *t, int64_t timeout_ns);
    /* Reports every counter of the transport through kv. */
    void (*counters)(const hs_transport *t, hs_tp_kv kv, void *ctx);
    /* Closes; safe to call twice. */
    void (*close)(hs_transport *t);
    /* 1: it carries the frame of hil/FRAME.md (sessions, sequence numbers, MAC apply). */
    int frame;
} hs_transport_ops;

struct hs_transport {
    const hs_transport_ops *ops;
    void *state;                  /* the implementation's own (static) storage */
    const hs_signal_map *map;     /* set by open when the bus dictates the map, else NULL */
    char desc[160];               /* set by open: one line naming the bus, for the console */
    int rx_kind, tx_kind;         /* from cfg */
    uint64_t rx_cap_hits;         /* receive calls that stopped at max with messages left */
    uint64_t rx_errors;           /* receive errors other than "nothing queued" */
    uint64_t link_alarms;         /* frames refused as not from the link's peer (CAN E2E: CRC,
                                   * counter, cadence): each fails the run's link verdict */
};

/* The ops named name in table (NULL-terminated), or NULL. */
const hs_transport_ops *hs_transport_find(const hs_transport_ops *const *table, const char *name);

/* The value of option key in cfg (the last one given), or dflt. */
const char *hs_tp_opt(const hs_tp_cfg *cfg, const char *key, const char *dflt);

/* Adds key=val to cfg; HS_OK, or HS_E_SIZE when full. */
hs_status hs_tp_opt_add(hs_tp_cfg *cfg, const char *key, const char *val);

/* The first option at index >= from that open() did not read (bit clear in read), or -1. */
int hs_tp_opt_unread(const hs_tp_cfg *cfg, int from, uint32_t read);

#endif
