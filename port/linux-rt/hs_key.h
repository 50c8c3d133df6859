/* hs_key.h - the link's pre-shared key on Linux: the key file's checks and parser, the per-user
 * default key (created on first use), and the link options both tools share (hil/FRAME.md,
 * "Security"). Split in layers so a socket-free fuzz harness reaches each: hs_key_parse_text
 * (bytes in memory), hs_key_load_fd (an open descriptor: fstat checks, bounded read),
 * hs_key_load (a path: opened without following a symbolic link or blocking on a FIFO). */
#ifndef HS_KEY_H
#define HS_KEY_H

#include <stddef.h>
#include <stdint.h>

#include "hs_mac.h"
#include "hs_signal.h"

/* Largest key file read (bytes): 128 hex digits plus generous room for comments; a larger
 * file is refused, never read in part. */
#define HS_KEY_FILE_MAX 4096u
/* Random bytes of a key created on first use (256 bits, hex in the file). */
#define HS_KEY_NEW_BYTES 32u
/* Name of the per-user key under $XDG_CONFIG_HOME/hilstep/ (else ~/.config/hilstep/). */
#define HS_KEY_DEFAULT_NAME "link.key"

/* Parses n bytes of key file text (hex digits, whitespace ignored, '#' to end of line a
 * comment) into key (cap HS_MAC_KEY_MAX bytes); name labels errors. Returns the key length
 * (HS_MAC_KEY_MIN..HS_MAC_KEY_MAX bytes, not all zero), or -1 with "NAME:LINE: reason" in
 * why (cap bytes). key is wiped on failure. No OS call. */
int hs_key_parse_text(const char *text, size_t n, const char *name, uint8_t *key, char *why,
                      size_t cap);

/* Reads the key file open on fd (name labels errors) into mac: refused unless fd is a regular
 * file owned by the effective user with no group/other permission bits and at most
 * HS_KEY_FILE_MAX bytes. Returns the key length in bytes, or -1 with "NAME: reason" in why.
 * Does not close fd. */
int hs_key_load_fd(int fd, const char *name, hs_mac *mac, char *why, size_t cap);

/* Opens path (O_RDONLY|O_NONBLOCK|O_NOFOLLOW: a FIFO cannot hang the start, a symbolic link
 * is refused) and hs_key_load_fd's it. Returns the key length or -1 with the reason in why. */
int hs_key_load(const char *path, hs_mac *mac, char *why, size_t cap);

/* The per-user key's path, $XDG_CONFIG_HOME/hilstep/link.key (an absolute XDG_CONFIG_HOME
 * only, as the XDG spec says) else $HOME/.config/hilstep/link.key, into buf (cap bytes).
 * 0, or -1 with the reason in why (neither variable usable, path too long). */
int hs_key_default_path(char *buf, size_t cap, char *why, size_t wcap);

/* Creates the key file path when it does not exist: its directories mode 0700, the file mode
 * 0600 holding HS_KEY_NEW_BYTES from getrandom (else /dev/urandom), written to a temporary
 * file opened O_CREAT|O_EXCL and linked into place, so a concurrent start never reads half a
 * key and never replaces one. 1 created, 0 it existed, -1 with the reason in why. The
 * directory holding it must be the user's and not writable by group or others. */
int hs_key_create(const char *path, char *why, size_t cap);

/* A random nonzero 64-bit run nonce (getrandom, else /dev/urandom) into *nonce; 0 or -1. */
int hs_key_nonce(uint64_t *nonce);

/* Link authentication a tool asked for. */
typedef enum hs_auth {
    HS_AUTH_DEFAULT = 0, /* no option: the per-user key (hs_key_default_path), created on first use */
    HS_AUTH_FILE,        /* --key FILE */
    HS_AUTH_NONE         /* --no-auth: version-1 frames, the verdict says "link unauthenticated" */
} hs_auth;

/* The link options of both tools: takeover_ms >= 0 sets rx's takeover limit (ms, rounded up
 * to whole periods of period_ns); auth (key_path for HS_AUTH_FILE) loads the key into mac and
 * authenticates rx and tx with it. Prints one "PROG: link: ..." line (peer_name: "ECU" or
 * "plant"); errors go to stderr as "PROG: reason". 0, or -1 (exit 2). */
int hs_link_setup(hs_rx *rx, hs_tx *tx, hs_mac *mac, hs_auth auth, const char *key_path,
                  double takeover_ms, int64_t period_ns, const char *prog, const char *peer_name);

#endif
