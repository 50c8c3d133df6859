/* hs_signal.h - signal maps and the input/output side of the HIL frame.
 *
 * A signal map is the static table of one application's wire signals. hs_rx turns received
 * datagrams into validated engineering values once per frame; hs_tx turns engineering values
 * into the outgoing frame. No OS calls: the transport (UDP socket, UART, shared memory) hands
 * datagrams in and takes frames out. Every rejection and every correction is counted. */
#ifndef HS_SIGNAL_H
#define HS_SIGNAL_H

#include "hs_frame.h"
#include "hs_types.h"

/* Direction of a signal as seen by the application that owns the map. */
typedef enum hs_sig_dir {
    HS_SIG_IN = 0, /* received: decoded, validated, clamped, falls back when stale */
    HS_SIG_OUT = 1 /* sent: encoded from the application's values */
} hs_sig_dir;

/* One wire signal. Engineering value = wire value * scale + offset. */
typedef struct hs_signal {
    const char *name;     /* identifier, unique in its map, e.g. "F_t" */
    const char *unit;     /* engineering unit, e.g. "N" */
    hs_sig_dir dir;       /* HS_SIG_IN or HS_SIG_OUT */
    double scale;         /* engineering units per wire unit, finite and non-zero */
    double offset;        /* engineering value of wire value 0 (engineering unit) */
    double min, max;      /* admissible engineering range; inputs are clamped into it */
    double fallback;      /* engineering value used while stale (in) / sent as safe output (out) */
    uint32_t stale_limit; /* inputs: frames without a fresh value before fallback, >= 1 */
} hs_signal;

/* The static signal table of one application, signals of either direction in any order; the
 * wire order of each direction is the table order. */
typedef struct hs_signal_map {
    const char *app;         /* application name, e.g. "circular_track" */
    const hs_signal *sig;    /* (n) signals */
    int n;                   /* number of signals, both directions */
} hs_signal_map;

/* Validates a map once at start: names non-empty and unique, finite non-zero scale, finite
 * offset, min <= max, fallback inside [min, max], stale_limit >= 1 for inputs, and exactly
 * nin inputs and nout outputs (both <= HS_FRAME_MAX_VALUES). Returns HS_OK, or HS_E_SIGNAL_MAP
 * with *err (may be NULL) naming it: index and field the signal (-1 and "" for the whole
 * map), msg the reason, detail the one line a tool prints ("signal map APP, signal NAME:
 * reason"; a count's "(map N, M)" with the limit or the model's count M, value = N). */
hs_status hs_signal_map_check(const hs_signal_map *map, int nin, int nout, hs_error *err);

/* Number of signals of direction dir in map. */
int hs_signal_map_count(const hs_signal_map *map, hs_sig_dir dir);

/* Receive-side counters; every datagram offered lands in exactly one of rejected[1..] or
 * accepted, and every accepted frame ends up in exactly one of used, superseded or (after
 * hs_rx_finish) unapplied. */
typedef struct hs_rx_stats {
    uint64_t datagrams;                /* datagrams offered */
    uint64_t accepted;                 /* passed every check (rejected[HS_RX_OK] mirrors it) */
    uint64_t rejected[HS_RX_REASONS];  /* per hs_rx_reason; index 0 unused */
    uint64_t used;                     /* accepted frames whose values reached the application */
    uint64_t superseded;               /* accepted frames replaced by a newer one in the same tick */
    uint64_t clamped;                  /* values of accepted frames clamped into [min, max] */
    uint64_t seq_gaps;                 /* sequence numbers skipped by the peer (lost or never sent) */
    uint64_t peer_restarts;            /* session changes after the first accepted frame */
    uint64_t peer_returns;             /* of which a stream the link had left came back (a paused ECU) */
    uint64_t seq_resyncs;              /* same-session sequence restarts/jumps confirmed */
    uint64_t stale_frames;             /* ticks with at least one input on its fallback value */
    uint64_t fresh_ticks;              /* ticks that applied a fresh frame */
    uint64_t unapplied;                /* accepted after the last tick: the run ended first */
} hs_rx_stats;

/* Sequence and session policy (hil/FRAME.md, "Sessions and sequence numbers"). A frame of the
 * current session is in the window when its seq is 1..HS_RX_SEQ_AHEAD ahead of the last
 * accepted one; 1..HS_RX_SEQ_BEHIND behind is a plain late/duplicate frame. Anything else (a
 * far jump, a far-behind seq, a new session) is accepted only when HS_RX_CONFIRM consecutive
 * such frames (each 1..HS_RX_SEQ_AHEAD after the previous one, same session) arrive while
 * the current stream has been silent for MORE than hs_rx.takeover_ticks ticks (default: the
 * largest stale_limit of the inputs, so the inputs are already on their fallbacks): a
 * restarted ECU is back within a few frames of that silence, while stray or replayed frames,
 * or a second sender beside a live or briefly paused ECU, never take the link over. Sessions
 * left behind are remembered (the last HS_RX_OLD_SESSIONS) with their last accepted seq: a
 * frame at or behind it is a replay (session_old); one ahead of it is the stream coming back
 * (a paused ECU after a takeover) and wins the link back by the same rule as a new session. */
#define HS_RX_SEQ_AHEAD 1000u   /* frames: 1 s of 1 kHz frames may be lost without a resync */
#define HS_RX_SEQ_BEHIND 64u    /* frames: reordering/duplicates tolerated as plain stale */
#define HS_RX_CONFIRM 3u        /* consecutive frames that confirm a restart or resync */
#define HS_RX_OLD_SESSIONS 4    /* sessions remembered as left behind */

/* The receiving end of one link, sized statically. */
typedef struct hs_rx {
    const hs_signal *sig[HS_FRAME_MAX_VALUES]; /* (n) input signals in wire order */
    unsigned n;                 /* values per frame */
    unsigned kind;              /* HS_FRAME_KIND_* expected */
    int have_peer;              /* 1 once a frame was accepted */
    uint32_t session;           /* session of the last accepted frame */
    uint32_t last_seq;          /* seq of the last accepted frame */
    uint32_t cand_session;      /* candidate stream (restart/resync) awaiting confirmation */
    uint32_t cand_seq;          /* seq of its newest frame */
    uint32_t cand_n;            /* its consecutive frames so far, 0 = no candidate */
    uint32_t quiet;             /* ticks since a fresh frame was applied (saturating) */
    uint32_t takeover_ticks;    /* a new stream may win only after more silent ticks than this */
    const hs_mac *mac;          /* NULL: version-1 frames; else only frames tagged under it */
    uint32_t old_session[HS_RX_OLD_SESSIONS]; /* sessions left behind, newest first */
    uint32_t old_seq[HS_RX_OLD_SESSIONS];     /* last accepted seq of each of them */
    uint64_t challenge;         /* authenticated plant: its run nonce, which every accepted frame
                                   must carry (else old_run); 0 = not checked (the ECU's end) */
    uint64_t peer_challenge;    /* challenge of the frame applied most recently (the ECU answers it) */
    int n_old;                  /* entries of old_session in use */
    int pending;                /* accepted frames waiting for the next tick (UDP: 0 or 1; CAN:
                                   one per message, each covering its own signals) */
    hs_frame_hdr pending_hdr;   /* header of the newest of them */
    uint64_t pending_challenge; /* and its challenge (authenticated links) */
    double pending_v[HS_FRAME_MAX_VALUES]; /* their engineering values, already clamped */
    uint8_t pend[HS_FRAME_MAX_VALUES];     /* 1 where pending_v holds a value for the next tick */
    uint32_t used_seq;          /* seq of the frame applied most recently (0 = none) */
    uint32_t peer_ack;          /* ack_seq of that frame: newest of our frames the peer used */
    uint32_t peer_flags;        /* flags of that frame */
    uint64_t peer_send_ns;      /* send_ns of that frame */
    hs_real value[HS_FRAME_MAX_VALUES]; /* current engineering values handed to the application */
    uint32_t age[HS_FRAME_MAX_VALUES];  /* ticks since each value was fresh (saturating) */
    int stale;                  /* 1 when any value is on its fallback this tick */
    hs_rx_stats st;
} hs_rx;

/* Binds rx to the inputs (dir HS_SIG_IN) of a checked map; kind is the HS_FRAME_KIND_* this end
 * receives. Values start on their fallbacks (no frame seen yet); takeover_ticks is the largest
 * input stale_limit (1 for a map without inputs), mac NULL; a port may set both afterwards.
 * Returns HS_OK or HS_E_SIZE (too many). */
hs_status hs_rx_init(hs_rx *rx, const hs_signal_map *map, unsigned kind);

/* Classifies one datagram of len bytes; from_peer = 0 when its source is not the configured
 * peer. An accepted frame becomes pending (replacing, and counting as superseded, an earlier
 * pending one). Returns the hs_rx_reason. Cost is linear in len, bounded by the frame size. */
int hs_rx_offer(hs_rx *rx, const uint8_t *buf, size_t len, int from_peer);

/* A frame already decoded by another codec (CAN: hs_can_receive): n engineering values v for
 * the inputs slot[0..n) (each < rx->n), the transport's running seq (becomes used_seq when
 * applied). Counted like an accepted datagram: clamped into [min, max] (counted), pending for
 * the next tick; a frame whose signals are all still pending from an earlier one supersedes
 * it. Non-finite values reject it (HS_RX_NONFINITE). Returns the hs_rx_reason. */
int hs_rx_offer_values(hs_rx *rx, const uint8_t *slot, const double *v, unsigned n, uint32_t seq);

/* Once per frame: applies the pending frame if any, ages the others, falls back where a value
 * is older than its stale_limit, and copies the n current values into in (may be NULL).
 * Returns 1 when a fresh frame was applied, 0 otherwise. */
int hs_rx_tick(hs_rx *rx, hs_real *in);

/* At the end of the run, after the last drain: a frame still pending is counted unapplied. */
void hs_rx_finish(hs_rx *rx);

/* Total datagrams rejected for any reason. */
uint64_t hs_rx_rejected_total(const hs_rx *rx);

/* The sending end of one link. */
typedef struct hs_tx {
    const hs_signal *sig[HS_FRAME_MAX_VALUES]; /* (n) output signals in wire order */
    unsigned n;         /* values per frame */
    unsigned kind;      /* HS_FRAME_KIND_* sent */
    uint32_t session;   /* this run's id */
    uint32_t seq;       /* seq of the last frame built */
    uint64_t frames;    /* frames built */
    const hs_mac *mac;  /* NULL: version-1 frames; else version-3 frames tagged under it */
    uint64_t challenge; /* written into authenticated frames: the plant's own run nonce, or the
                           one the ECU answers (0 = none heard yet) */
} hs_tx;

/* Binds tx to the outputs (dir HS_SIG_OUT) of a checked map. session should differ between
 * runs (e.g. derived from the clock) so the peer can tell a restart from a replay. mac starts
 * NULL (version-1 frames); a port sets it to authenticate. HS_OK or HS_E_SIZE (too many). */
hs_status hs_tx_init(hs_tx *tx, const hs_signal_map *map, unsigned kind, uint32_t session);

/* Builds the next frame (seq + 1) from the n engineering values y (NULL = every signal's
 * fallback, the safe outputs) into buf (cap >= HS_FRAME_MAC_BYTES(n)); returns its size or 0.
 * An authenticated ECU without a challenge yet sends challenge 0 (the plant counts such
 * frames as unanswered: a wrong key still shows as bad_mac at once). */
size_t hs_tx_build(hs_tx *tx, uint8_t *buf, size_t cap, const hs_real *y, uint64_t send_ns,
                   uint32_t ack_seq, uint32_t flags);

#endif
