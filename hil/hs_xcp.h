/* hs_xcp.h - an XCP slave (ASAM MCD-1 XCP 1.5) over the plant's signals: packet in, packet
 * out, no sockets. The transport layer is XCP on Ethernet (UDP/IP): every XCP packet on the
 * wire is preceded by LEN (WORD, bytes of the packet) and CTR (WORD; the slave counts every
 * packet it sends, responses, events and DTOs alike). A port hands each received datagram to
 * hs_xcp_rx and calls hs_xcp_event once per frame, after the step; the engine sends through
 * the port's callback. Byte order Intel, address granularity BYTE.
 *
 * Freestanding C99, no allocation: the DAQ tables have compile-time capacities
 * (HS_XCP_MAX_*), and hs_xcp_event's work is bounded by them (at most HS_XCP_MAX_ODT DTOs,
 * HS_XCP_MAX_ENTRY entries of at most HS_XCP_MAX_ENTRY_SIZE bytes), so a frame's cost is
 * fixed once the master has started its lists. The address map, the commands and what is not
 * supported: hil/XCP.md. */
#ifndef HS_XCP_H
#define HS_XCP_H

#include <stddef.h>
#include <stdint.h>

#include "hs_mac.h"
#include "hs_types.h"

#define HS_XCP_MAX_CTO 255u         /* bytes of a command or response packet */
#define HS_XCP_MAX_DTO 256u         /* bytes of a DTO packet */
#define HS_XCP_MAX_DAQ 8u           /* DAQ lists (dynamic) */
#define HS_XCP_MAX_ODT 32u          /* ODTs over all lists */
#define HS_XCP_MAX_ENTRY 256u       /* ODT entries over all ODTs */
#define HS_XCP_MAX_ENTRY_SIZE 8u    /* bytes of one ODT entry */
#define HS_XCP_MAX_REGION 10u       /* address regions */
#define HS_XCP_SEED_BYTES 32u       /* GET_SEED's seed; the key is its HMAC-SHA-256 (32 bytes) */
#define HS_XCP_LOG 64u              /* calibration writes kept for the port to drain */
#define HS_XCP_HDR 4u               /* XCP on Ethernet header: LEN, CTR */

/* The address map (address extension 0): one region per kind, element i of a region at
 * base + i * element size. hil/XCP.md "Addresses". */
#define HS_XCP_ADDR_OUT 0x00010000u   /* outputs y (read) */
#define HS_XCP_ADDR_IN 0x00020000u    /* inputs handed to the model (read) */
#define HS_XCP_ADDR_Q 0x00030000u     /* positions q (read) */
#define HS_XCP_ADDR_U 0x00040000u     /* velocities u (read) */
#define HS_XCP_ADDR_Z 0x00050000u     /* auxiliary states z (read) */
#define HS_XCP_ADDR_T 0x00060000u     /* simulated time of the committed state (read) */
#define HS_XCP_ADDR_PARAM 0x00070000u /* params (read; DOWNLOAD calibrates, one whole param) */
#define HS_XCP_ADDR_ID 0x00080000u    /* GET_ID's text and the EPK (read) */
#define HS_XCP_ADDR_EVNAME 0x00090000u /* the event channel's name (read) */

/* Command codes (XCP 1.5 part 2, table "command codes"). */
#define HS_XCP_CONNECT 0xFFu
#define HS_XCP_DISCONNECT 0xFEu
#define HS_XCP_GET_STATUS 0xFDu
#define HS_XCP_SYNCH 0xFCu
#define HS_XCP_GET_COMM_MODE_INFO 0xFBu
#define HS_XCP_GET_ID 0xFAu
#define HS_XCP_GET_SEED 0xF8u
#define HS_XCP_UNLOCK 0xF7u
#define HS_XCP_SET_MTA 0xF6u
#define HS_XCP_UPLOAD 0xF5u
#define HS_XCP_SHORT_UPLOAD 0xF4u
#define HS_XCP_DOWNLOAD 0xF0u
#define HS_XCP_CLEAR_DAQ_LIST 0xE3u
#define HS_XCP_SET_DAQ_PTR 0xE2u
#define HS_XCP_WRITE_DAQ 0xE1u
#define HS_XCP_SET_DAQ_LIST_MODE 0xE0u
#define HS_XCP_GET_DAQ_LIST_MODE 0xDFu
#define HS_XCP_START_STOP_DAQ_LIST 0xDEu
#define HS_XCP_START_STOP_SYNCH 0xDDu
#define HS_XCP_GET_DAQ_CLOCK 0xDCu
#define HS_XCP_GET_DAQ_PROCESSOR_INFO 0xDAu
#define HS_XCP_GET_DAQ_RESOLUTION_INFO 0xD9u
#define HS_XCP_GET_DAQ_EVENT_INFO 0xD7u
#define HS_XCP_FREE_DAQ 0xD6u
#define HS_XCP_ALLOC_DAQ 0xD5u
#define HS_XCP_ALLOC_ODT 0xD4u
#define HS_XCP_ALLOC_ODT_ENTRY 0xD3u

/* Error codes of a negative response (0xFE, code). */
#define HS_XCP_ERR_CMD_SYNCH 0x00u
#define HS_XCP_ERR_CMD_BUSY 0x10u
#define HS_XCP_ERR_DAQ_ACTIVE 0x11u
#define HS_XCP_ERR_CMD_UNKNOWN 0x20u
#define HS_XCP_ERR_CMD_SYNTAX 0x21u
#define HS_XCP_ERR_OUT_OF_RANGE 0x22u
#define HS_XCP_ERR_WRITE_PROTECTED 0x23u
#define HS_XCP_ERR_ACCESS_DENIED 0x24u
#define HS_XCP_ERR_ACCESS_LOCKED 0x25u
#define HS_XCP_ERR_MODE_NOT_VALID 0x27u
#define HS_XCP_ERR_SEQUENCE 0x29u
#define HS_XCP_ERR_DAQ_CONFIG 0x2Au
#define HS_XCP_ERR_MEMORY_OVERFLOW 0x30u
#define HS_XCP_ERR_GENERIC 0x31u

/* Resource bits (CONNECT, GET_STATUS, GET_SEED, UNLOCK). */
#define HS_XCP_RES_CAL 0x01u
#define HS_XCP_RES_DAQ 0x04u

/* A calibration hook's answer (hs_xcp_def.cal). */
#define HS_XCP_CAL_APPLIED 0   /* the new value is in use from the next step */
#define HS_XCP_CAL_PENDING 1   /* the port applies it later and calls hs_xcp_cal_finish */
#define HS_XCP_CAL_REFUSED (-1) /* the model refused the value: nothing changed */

/* One address region: n elements of size bytes from base; mem may change between frames
 * (the engine reads it when asked). cal = 1: the param region (DOWNLOAD goes through the
 * hook, checked against lo/hi first). */
typedef struct hs_xcp_region {
    uint32_t base;
    uint32_t n;
    uint32_t size;
    const uint8_t *mem;
    int cal;
} hs_xcp_region;

/* One calibration write, accepted or refused. */
typedef struct hs_xcp_cal_rec {
    double t;          /* simulated time when it was applied or refused (s) */
    uint32_t index;    /* param index */
    double old_value, new_value;
    int applied;       /* 1 applied, 0 refused (limits or the model) */
} hs_xcp_cal_rec;

typedef struct hs_xcp_def {
    void *ctx;
    /* sends one XCP packet with its Ethernet header (n bytes) to the master `to` */
    void (*send)(void *ctx, const uint8_t *p, size_t n, uint64_t to);
    /* calibrates param index to value (already within [lo, hi]): HS_XCP_CAL_* */
    int (*cal)(void *ctx, uint32_t index, hs_real value);
    /* fills n random bytes (the seeds); 0, or -1 when none could be had */
    int (*random)(void *ctx, uint8_t *p, size_t n);
    const hs_mac *mac;          /* the link key: SEED & KEY required for CAL and DAQ; NULL none */
    const hs_real *lo, *hi;     /* (nparams) the limits the A2L declares */
    uint32_t period_us;         /* the frame, the one event channel's cycle (us) */
    const char *id;             /* GET_ID type 0 and 1 text (the A2L's name), NUL-terminated */
} hs_xcp_def;

typedef struct hs_xcp_odt_entry {
    const uint8_t *src;  /* resolved at WRITE_DAQ */
    uint32_t addr;
    uint8_t size;
} hs_xcp_odt_entry;

typedef struct hs_xcp_daq {
    uint16_t first_odt, nodt;
    uint8_t mode;        /* SET_DAQ_LIST_MODE bits (timestamp 0x10) */
    uint8_t selected, running, event_set;
} hs_xcp_daq;

typedef struct hs_xcp {
    hs_xcp_def def;
    hs_xcp_region reg[HS_XCP_MAX_REGION];
    uint32_t nreg;
    int connected;
    uint64_t master;     /* address of the connected master */
    uint16_t ctr;        /* next CTR of a slave packet */
    uint8_t protect;     /* RES_* still locked */
    uint8_t seed_res;    /* resource of the last GET_SEED, 0 none */
    uint8_t seed[HS_XCP_SEED_BYTES];
    uint32_t mta;
    int busy;            /* a calibration is pending: its response is owed */
    uint32_t busy_index;
    double busy_old, busy_new;
    /* DAQ (dynamic) */
    uint16_t ndaq, nodt, nentry;
    uint16_t odt_first[HS_XCP_MAX_ODT], odt_n[HS_XCP_MAX_ODT];
    int alloc_state;     /* 0 free, 1 daq allocated, 2 odts, 3 entries */
    hs_xcp_daq daq[HS_XCP_MAX_DAQ];
    hs_xcp_odt_entry entry[HS_XCP_MAX_ENTRY];
    uint16_t ptr_daq, ptr_odt, ptr_entry;
    int ptr_set;
    uint32_t ts;         /* timestamp of the last event (us) */
    double t_now;        /* simulated time the port gave last (s) */
    /* calibration record */
    hs_xcp_cal_rec log[HS_XCP_LOG];
    uint32_t log_head, log_tail;
    /* counters */
    uint64_t commands, responses, errors, unknown, syntax;
    uint64_t foreign;    /* packets from another address while connected, ignored */
    uint64_t refused_connects; /* CONNECTs from a second master, refused */
    uint64_t idle;       /* commands while not connected (ignored, except CONNECT) */
    uint64_t bad_header; /* datagrams whose LEN does not fit */
    uint64_t dtos, daq_frames;
    uint64_t cal_writes, cal_refused, cal_out_of_limits;
    uint64_t unlocks, unlock_failed;
    uint64_t log_lost;
} hs_xcp;

/* Binds def (copied); no regions yet. */
void hs_xcp_init(hs_xcp *x, const hs_xcp_def *def);

/* Adds a region (at most HS_XCP_MAX_REGION; regions must not overlap): 0, or -1. */
int hs_xcp_region_add(hs_xcp *x, uint32_t base, uint32_t n, uint32_t size, const void *mem, int cal);

/* A received datagram of n bytes from the address `from`; t = the simulated time now (s).
 * Each XCP packet in it is answered (or ignored and counted). */
void hs_xcp_rx(hs_xcp *x, const uint8_t *d, size_t n, uint64_t from, double t);

/* The frame's event (channel 0) at tick: one DTO per ODT of every running list, the
 * timestamp tick * period_us (us, DWORD, on each list's first ODT when the list asked). */
void hs_xcp_event(hs_xcp *x, uint64_t tick, double t);

/* The port applied (ok = 1) or refused (ok = 0) the pending calibration: its response goes
 * out and the write is recorded. */
void hs_xcp_cal_finish(hs_xcp *x, int ok, double t);

/* The oldest recorded calibration write into *r: 1, or 0 when none is left. */
int hs_xcp_log_pop(hs_xcp *x, hs_xcp_cal_rec *r);

#endif
