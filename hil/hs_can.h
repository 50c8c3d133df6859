/* hs_can.h - CAN signal maps from a Vector DBC file, and the CAN codec (hil/CAN.md).
 *
 * Freestanding C99 like the frame codec: the DBC text parser (hs_dbc.c) reads a memory buffer
 * into a fixed-capacity table with the line of every error; the codec (hs_can.c) binds the
 * table's signals by name to an application's inputs and outputs, decodes received CAN / CAN FD
 * frames into the receive side of hs_signal.h (fallback, clamping, staleness, counters) and
 * encodes the outputs into the messages due at a tick. The socket lives in the port
 * (port/linux-rt/hs_socketcan.c); the board links a generated const table (hilstep-dbcgen). */
#ifndef HS_CAN_H
#define HS_CAN_H

#include "hs_e2e.h"
#include "hs_secoc.h"
#include "hs_signal.h"

#define HS_CAN_MAX_MSGS 32   /* messages of one DBC */
#define HS_CAN_MAX_SIGS 128  /* signals of one DBC, all messages (the truck-trailer: 81 with E2E) */
#define HS_CAN_NAME 32       /* bytes of a message or signal name, terminator included */
#define HS_CAN_UNIT 16       /* bytes of a unit, terminator included */
#define HS_CAN_MAX_LEN 64u   /* bytes of a CAN FD payload */
#define HS_CAN_CLASSIC_LEN 8u /* bytes of a classic CAN payload */
#define HS_CAN_STALE_CYCLES 3u /* default staleness limit of an input message, cycle times */
#define HS_CAN_MAX_CYCLE_MS 1000u     /* largest GenMsgCycleTime, ms (hil/CAN.md, "Limits") */
#define HS_CAN_MAX_STALE_CYCLES 1000u /* largest HilstepStaleCycles, cycle times */
#define HS_CAN_MAX_STALE_MS 10000u    /* largest stale limit of an input message, ms */
#define HS_CAN_MIN_FACTOR 1e-12       /* smallest |factor| of a signal */
#define HS_CAN_MAX_FACTOR 1e12        /* largest |factor| of a signal */
#define HS_CAN_MAX_PHYS 1e15          /* largest |offset| of a signal */

/* One signal of a message (DBC `SG_`). Physical value = raw * factor + offset. */
typedef struct hs_can_sig {
    char name[HS_CAN_NAME];   /* binds to the application's input or output of this name */
    char unit[HS_CAN_UNIT];   /* engineering unit as the DBC spells it */
    uint16_t start;           /* DBC start bit: LSB (Intel) or MSB (Motorola), 0..511 */
    uint8_t len;              /* bits, 1..64 */
    uint8_t intel;            /* 1: @1 little-endian (Intel); 0: @0 big-endian (Motorola) */
    uint8_t is_signed;        /* 1: '-' two's complement raw value; 0: '+' unsigned */
    uint8_t has_init;         /* 1 when BA_ "GenSigStartValue" gave init_raw */
    double factor;            /* physical units per raw unit, finite and non-zero */
    double offset;            /* physical value of raw 0 */
    double min, max;          /* admissible physical range; [0|0] = the raw range */
    double init_raw;          /* GenSigStartValue (raw): the fallback / safe value */
    uint32_t line;            /* source line of the SG_ (0 in generated tables) */
    uint8_t e2e_role;         /* BA_ "HsE2ESignal": HS_E2E_ROLE_DATA, _COUNTER or _CRC (hs_e2e.h);
                               * BA_ "HsSecOCSignal": HS_SECOC_ROLE_FV or _MAC (hs_secoc.h) */
} hs_can_sig;

/* One message (DBC `BO_`); its signals are sig[first .. first + n). */
typedef struct hs_can_msg {
    char name[HS_CAN_NAME];
    uint32_t id;              /* 11-bit or 29-bit identifier, without the DBC's bit 31 */
    uint8_t ext;              /* 1: 29-bit (DBC id with bit 31 set) */
    uint8_t fd;               /* 1: CAN FD (BA_ "VFrameFormat" 14 or 15) */
    uint8_t len;              /* payload bytes (the BO_ size); a frame of another length is refused */
    uint32_t cycle_ms;        /* BA_ "GenMsgCycleTime", 0 = not given (every plant period) */
    uint32_t stale_cycles;    /* BA_ "HilstepStaleCycles", 0 = HS_CAN_STALE_CYCLES */
    int first, n;             /* its signals in hs_can_db.sig */
    uint32_t line;            /* source line of the BO_ (0 in generated tables) */
    uint8_t e2e;              /* BA_ "HsE2EProfile": HS_E2E_NONE, HS_E2E_J1850 or HS_E2E_H2F */
    uint16_t e2e_data_id;     /* BA_ "HsE2EDataId" (default: the id's low 16 bits), fed to the CRC */
    int e2e_ctr, e2e_crc;     /* indices in hs_can_db.sig of the counter and the CRC, -1 = none */
    uint8_t secoc;            /* BA_ "HsSecOCProfile": HS_SECOC_NONE or HS_SECOC_HMAC (hs_secoc.h);
                               * BA_ "HsSecOCCollection": HS_SECOC_CRYPTO (a cryptographic message) */
    int secoc_fv, secoc_mac;  /* indices in hs_can_db.sig of the freshness and the MAC, -1 = none */
    int secoc_by;             /* BA_ "HsSecOCCryptoPdu": index in hs_can_db.msg of the cryptographic
                               * message that authenticates this one, -1 = none */
} hs_can_msg;

/* A parsed DBC (or a generated const table of one). */
typedef struct hs_can_db {
    hs_can_msg msg[HS_CAN_MAX_MSGS];
    int nmsg;
    hs_can_sig sig[HS_CAN_MAX_SIGS];
    int nsig;
} hs_can_db;

/* Where and why a DBC was refused: the error record (rt/hs_types.h); msg points to detail,
 * one English sentence naming the message/signal at fault. */
typedef hs_error hs_dbc_error;

/* Parses len bytes of text (need not be NUL-terminated) into db: BO_, SG_ (multiplexed
 * signals refused), BA_ GenMsgCycleTime / VFrameFormat / GenSigStartValue /
 * HilstepStaleCycles / HsE2E* / HsSecOC* (a SecOC collection's authentic messages checked to
 * precede their cryptographic one on its cycle); other statements (VERSION, NS_, BS_, BU_, CM_, BA_DEF_, VAL_ ...) are
 * skipped. Then checks every message: payload length (classic <= 8 bytes, FD one of the FD
 * lengths), signals inside the payload and not overlapping, unique ids and names. Returns HS_OK,
 * or HS_E_DBC with err filled (db then holds no usable table). Work is linear in len. */
hs_status hs_dbc_parse(const char *text, size_t len, hs_can_db *db, hs_dbc_error *err);

/* Bit positions of a signal, payload bit numbering (byte * 8 + bit, bit 0 = LSB), LSB of the
 * raw value first, into pos (s->len entries). Returns 0, or -1 when a bit falls outside
 * bytes payload bytes. */
int hs_can_sig_bits(const hs_can_sig *s, unsigned bytes, uint16_t *pos);

/* Raw value of signal s in payload data (len bytes, inside the payload: checked by the DBC
 * parser), sign-extended when signed. */
int64_t hs_can_get_raw(const hs_can_sig *s, const uint8_t *data);

/* Stores raw (two's complement truncated to s->len bits) into data; other bits untouched. */
void hs_can_put_raw(const hs_can_sig *s, uint8_t *data, int64_t raw);

/* Raw value for physical value x: round half away from zero of (x - offset) / factor,
 * saturated to the raw range; *sat = 1 when it had to be saturated (or x was NaN: raw 0). */
int64_t hs_can_phys_to_raw(const hs_can_sig *s, double x, int *sat);

/* Physical value of raw. */
double hs_can_raw_to_phys(const hs_can_sig *s, int64_t raw);

/* Payload bytes of a CAN FD DLC code 0..15 and back (smallest DLC holding len; -1 when len
 * is over 64). */
unsigned hs_can_dlc_to_len(unsigned dlc);
int hs_can_len_to_dlc(unsigned len);

/* Why a received CAN frame was not applied; HS_CAN_OK when it was decoded and offered. */
typedef enum hs_can_reason {
    HS_CAN_OK = 0,
    HS_CAN_UNKNOWN_ID = 1,   /* no input message of the DBC has this id (and frame format) */
    HS_CAN_BAD_LEN = 2,      /* payload length differs from the message's DBC length */
    HS_CAN_BAD_FORMAT = 3,   /* CAN FD frame for a classic message or the other way round */
    HS_CAN_RANGE = 4,        /* a signal's physical value lies outside its DBC [min|max] */
    HS_CAN_E2E_CRC = 5,      /* E2E: CRC wrong (hs_e2e.h) */
    HS_CAN_E2E_REPEATED = 6, /* E2E: counter repeated */
    HS_CAN_E2E_JUMP = 7,     /* E2E: counter jumped */
    HS_CAN_E2E_EARLY = 8,    /* E2E: next counter, sooner than the message's cadence allows */
    HS_CAN_SECOC_MAC = 9,    /* SecOC: the MAC verifies with no fresh value: forged, no key (hs_secoc.h) */
    HS_CAN_SECOC_STALE = 10, /* SecOC: the MAC verifies with an old freshness value: a replay */
    HS_CAN_SECOC_UNVERIFIED = 11 /* SecOC collection: an authentic frame held for its cycle's
                                  * cryptographic message, which did not verify (or never came) */
} hs_can_reason;
#define HS_CAN_REASONS 12
#define HS_CAN_NO_TIME HS_E2E_NO_TIME /* arrival unknown: hs_can_receive_at skips the cadence check */

/* Short identifier of a reason ("unknown_id", ...); never NULL. */
const char *hs_can_reason_name(int reason);

/* The link of one application to a DBC: direction and schedule of every message, the slot
 * of every signal in the application's input or output vector, and the counters. */
typedef struct hs_can_link {
    const hs_can_db *db;
    uint8_t dir[HS_CAN_MAX_MSGS];     /* HS_SIG_IN (received) or HS_SIG_OUT (sent) */
    uint8_t slot[HS_CAN_MAX_SIGS];    /* index into the application's in[] or out[] */
    uint32_t every[HS_CAN_MAX_MSGS];  /* cycle time in application periods (>= 1) */
    uint32_t stale[HS_CAN_MAX_MSGS];  /* input staleness limit in periods */
    int nin, nout;                    /* application inputs / outputs bound */
    uint32_t accepted_seq;            /* frames accepted so far: the seq handed to hs_rx */
    uint64_t rx_frames;               /* frames offered */
    uint64_t rejected[HS_CAN_REASONS];/* per hs_can_reason; index 0 counts accepted */
    uint64_t tx_frames;               /* frames encoded for sending */
    uint64_t tx_saturated;            /* output values saturated to their raw range */
    uint32_t period_us;               /* the application's period, us */
    hs_e2e_rx e2e_rx[HS_CAN_MAX_MSGS];/* receive state of each protected input message */
    uint8_t e2e_tx[HS_CAN_MAX_MSGS];  /* next counter of each protected output message */
    uint64_t e2e_count[HS_CAN_MAX_MSGS][HS_E2E_RESULTS]; /* per message, per hs_e2e_result */
    uint64_t e2e_timeouts[HS_CAN_MAX_MSGS]; /* sequences restarted after a silence past the stale limit */
    uint8_t e2e_cadence_off;          /* 1: no cadence check (set after hs_can_bind; an emulator's
                                       * scheduling gaps exceed any cycle), counters and CRC still */
    const hs_mac *secoc_key;          /* the link's key for SecOC messages (set after hs_can_bind);
                                       * NULL: their frames are refused, sent with a zero MAC */
    uint64_t secoc_rx[HS_CAN_MAX_MSGS]; /* full freshness of the last accepted frame, 0 = none */
    uint64_t secoc_tx[HS_CAN_MAX_MSGS]; /* freshness of the last sent frame (the first is 1) */
    uint8_t secoc_off;                /* 1: collections not checked (--no-auth; set after hs_can_bind):
                                       * authentic frames applied at once, cryptographic ones ignored */
    uint8_t held[HS_CAN_MAX_MSGS];    /* 1: hold[m] is a received authentic frame awaiting its verdict */
    uint8_t hold[HS_CAN_MAX_MSGS][HS_CAN_MAX_LEN]; /* per authentic message: the held frame (received)
                                       * or the last one encoded (sent), what the collection's MAC covers */
    uint64_t secoc_verified;          /* cryptographic frames that verified (their cycle applied) */
    uint64_t secoc_refused;           /* cryptographic frames that did not verify (also counted in
                                       * rejected[] under their reason): with the held frames they
                                       * refused, one forgery may count twice in the alarms */
    uint64_t secoc_unchecked;         /* cryptographic frames read with secoc_off (not judged) */
} hs_can_link;

/* Binds db to an application with nin inputs named in_names and nout outputs named out_names
 * (each name bound to exactly one DBC signal) running at period_us microseconds: a message
 * whose signals are inputs is received, one whose signals are outputs is sent every
 * cycle_ms / period (which must be a whole number >= 1; no cycle time: every period); input
 * staleness is stale_cycles (default 3) cycle times. Returns HS_OK, or HS_E_DBC with err filled (the
 * line of the message or signal at fault): a signal the application lacks, a message mixing
 * inputs and outputs, an application signal missing from the DBC, a cycle time that is not a
 * multiple of the period. */
hs_status hs_can_bind(hs_can_link *L, const hs_can_db *db, const char *const *in_names, int nin,
                const char *const *out_names, int nout, uint32_t period_us, hs_dbc_error *err);

/* Fills sig (cap entries) and map with the application's signal map taken from the DBC:
 * inputs in slot order, then outputs; unit, range [min, max] from the DBC (intersected with
 * the signal of safety in the same slot - the map whose names were bound, e.g. the bench's
 * shipped one - when given), fallback from
 * GenSigStartValue, else safety's, else 0, clamped into the range; stale limit from the
 * link. Returns HS_OK, or HS_E_DBC with err filled (cap too small, an empty range intersection). */
hs_status hs_can_map(const hs_can_link *L, const hs_signal_map *safety, const char *app,
               hs_signal *sig, int cap, hs_signal_map *map, hs_dbc_error *err);

/* One received frame (id without flags, ext 1 for 29-bit ids, fd 1 for a CAN FD frame, len
 * payload bytes): counted in exactly one of L->rejected[]; an accepted one is decoded and
 * offered to rx (hs_rx_offer_values), which clamps, counts and applies it at the next tick.
 * An authentic message of a SecOC collection that passes every check is held instead (L->held)
 * until its cycle's cryptographic message: verified, the cycle's held frames are counted
 * accepted and offered in DBC order (that frame counted in secoc_verified); refused, each held
 * frame is counted HS_CAN_SECOC_UNVERIFIED and never applied (as a held frame replaced by
 * its message's next frame).
 * An E2E message's CRC and counter are checked first (hs_e2e.h), without its cadence.
 * Returns the hs_can_reason. */
int hs_can_receive(hs_can_link *L, hs_rx *rx, uint32_t id, int ext, int fd, const uint8_t *data,
                   size_t len);

/* hs_can_receive with the frame's arrival time now_us (us, any monotonic origin; the kernel's
 * receive stamp), so an E2E message's cadence and silence are checked too. */
int hs_can_receive_at(hs_can_link *L, hs_rx *rx, uint32_t id, int ext, int fd, const uint8_t *data,
                      size_t len, uint64_t now_us);

/* Frames refused by an E2E check (CRC, counter repeated or jumped, too early) or a SecOC check
 * (bad MAC, stale freshness, a held frame its collection did not verify): each is a second sender, a forgery, a replay or corruption, and
 * fails the link's verdict. */
uint64_t hs_can_e2e_alarms(const hs_can_link *L);

/* 1 when output message m is due at tick (tick % every == 0), else 0 (also for inputs). */
int hs_can_due(const hs_can_link *L, int m, uint64_t tick);

/* Encodes output message m from the application's outputs y (NULL: every signal's fallback,
 * the safe values, from tx) into data (HS_CAN_MAX_LEN bytes; unused bytes 0); an E2E message
 * gets its next alive counter and its CRC, a SecOC message its next freshness value and the
 * MAC under L->secoc_key (before the CRC, which covers it). Returns the payload length, 0 when m is not an
 * output message. Counts tx_frames and tx_saturated. */
size_t hs_can_encode(hs_can_link *L, int m, const hs_tx *tx, const hs_real *y, uint8_t *data);

/* Received frames held now, awaiting their collection's cryptographic message. */
unsigned hs_can_held(const hs_can_link *L);

/* Total frames rejected for any reason. */
uint64_t hs_can_rejected_total(const hs_can_link *L);

#endif
