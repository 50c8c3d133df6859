/* fuzz_key.c - libFuzzer harness of the link's key loader (hil/FRAME.md "Security") without a
 * key file on disk: the text goes into an anonymous memory file (memfd_create), so each input
 * is a file with the mode the input chooses.
 *
 * Two generations of the loader are driven, whichever the tree has:
 * - port/linux-rt/hs_key.c (hs_key.h present): hs_key_parse_text(text, n, name, key, why, cap)
 *   on the bytes, hs_key_load_fd(fd, name, mac, why, cap) on the memory file, and
 *   hs_key_load(path, ...) on its /proc/self/fd/N name (a symbolic link: refused);
 * - otherwise hs_key_load(path, mac, why, cap) of port/linux-rt/hs_linux.c on that name.
 * Input: byte 0 the file's mode bits (bit 0..5 -> group/other rwx), the rest the key text.
 * Checked invariants (abort on violation) against an independent reading of the format (hex
 * digits, space/tab/CR ignored, '#' to the end of the line, 16..64 bytes): a valid text gives
 * exactly its bytes (compared through an HMAC made from the reference bytes), an invalid one
 * -1 with a terminated "NAME..." reason and the key wiped; a file with group/other bits is
 * refused (hs_key.c) or warned about (hs_linux.c); a reason never overflows its buffer. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hs_mac.h"
#if defined(__has_include)
#if __has_include("hs_key.h")
#include "hs_key.h"
#define FZ_KEY_SPLIT 1
#endif
#endif
#ifndef FZ_KEY_SPLIT
#include "hs_linux.h"
#endif

#define require(c) \
    do { \
        if (!(c)) { \
            fprintf(stderr, "fuzz_key.c:%d: invariant failed: %s\n", __LINE__, #c); \
            abort(); \
        } \
    } while (0)

/* The format read independently: the key length (and bytes in out), or -1. */
static int ref_parse(const uint8_t *t, size_t n, uint8_t *out, int *all_zero)
{
    int k = 0, hi = -1;
    unsigned nz = 0;
    for (size_t i = 0; i < n; ++i) {
        const int c = t[i];
        if (c == '#') {
            while (i < n && t[i] != '\n') ++i;
            continue;
        }
        if (c == '\n' || c == ' ' || c == '\t' || c == '\r') continue;
        int d;
        if (c >= '0' && c <= '9') d = c - '0';
        else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
        else return -1;
        if (hi < 0) { hi = d; continue; }
        if (k == (int)HS_MAC_KEY_MAX) return -1;
        out[k] = (uint8_t)(hi * 16 + d);
        nz |= out[k++];
        hi = -1;
    }
    if (hi >= 0 || k < (int)HS_MAC_KEY_MIN) return -1;
    *all_zero = nz == 0u;
    return k;
}

/* 1 when mac holds the key ref[0..n) (same HMAC of a fixed message). */
static int same_key(const hs_mac *mac, const uint8_t *ref, int n)
{
    static const uint8_t msg[] = "hilstep key check";
    hs_mac want;
    uint8_t a[32], b[32];
    hs_mac_init(&want, ref, (size_t)n);
    hs_mac_full(mac, msg, sizeof msg, a);
    hs_mac_full(&want, msg, sizeof msg, b);
    return memcmp(a, b, sizeof a) == 0;
}


#ifdef FZ_KEY_SPLIT
#include <sys/types.h>
/* The loader's file side, once per process in a private directory under TMPDIR (removed at
 * exit): the per-user path from XDG_CONFIG_HOME / HOME, hs_key_create (created once, then
 * left alone), its refusals (no directory, a file where the directory goes, a directory
 * writable by others, a path too long), hs_key_load_fd's refusals the memory file never
 * meets (no descriptor, a FIFO, a directory, a foreign owner, too large), the run nonce, and
 * hs_link_setup's three ways (no auth, a key file, the per-user default). */
static char tdir[512];
static char rfile[600]; /* the per-input regular file */

static void cleanup(void)
{
    char cmd[700];
    if (tdir[0] == '\0') return;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tdir);
    if (system(cmd) != 0) fprintf(stderr, "fuzz_key: could not remove %s\n", tdir);
}

static size_t slurp(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    require(f != NULL);
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

static void files(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(tdir, sizeof tdir, "%s/fuzz_key.XXXXXX", (tmp && tmp[0] == '/') ? tmp : "/tmp");
    require(mkdtemp(tdir) != NULL);
    atexit(cleanup);
    snprintf(rfile, sizeof rfile, "%s/input.key", tdir);
    char why[256], path[4096], want[700], a[256], b[256];
    hs_mac mac;

    /* the per-user path: an absolute XDG_CONFIG_HOME, else HOME, else refused */
    require(setenv("XDG_CONFIG_HOME", tdir, 1) == 0);
    require(hs_key_default_path(path, sizeof path, why, sizeof why) == 0);
    snprintf(want, sizeof want, "%s/hilstep/%s", tdir, HS_KEY_DEFAULT_NAME);
    require(strcmp(path, want) == 0);
    require(hs_key_default_path(path, 8, why, sizeof why) == -1 && strstr(why, "longer") != NULL);
    require(setenv("XDG_CONFIG_HOME", "relative", 1) == 0 && setenv("HOME", tdir, 1) == 0);
    require(hs_key_default_path(path, sizeof path, why, sizeof why) == 0);
    snprintf(want, sizeof want, "%s/.config/hilstep/%s", tdir, HS_KEY_DEFAULT_NAME);
    require(strcmp(path, want) == 0);
    require(unsetenv("HOME") == 0);
    memset(why, 'X', sizeof why);
    require(hs_key_default_path(path, sizeof path, why, sizeof why) == -1 && memchr(why, '\0', sizeof why) && why[0] != '\0');

    /* created once with its directories, then the same file on every later call */
    require(hs_key_create(want, why, sizeof why) == 1);
    struct stat st;
    require(lstat(want, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0777) == 0600);
    const size_t na = slurp(want, a, sizeof a);
    require(hs_key_load(want, &mac, why, sizeof why) == (int)HS_KEY_NEW_BYTES && why[0] == '\0');
    require(hs_key_create(want, why, sizeof why) == 0);
    require(slurp(want, b, sizeof b) == na && memcmp(a, b, na) == 0);
    /* refusals */
    require(hs_key_create("nodir.key", why, sizeof why) == -1 && strstr(why, "directory") != NULL);
    static char longp[5000];
    memset(longp, 'a', sizeof longp - 1);
    longp[0] = '/';
    require(hs_key_create(longp, why, sizeof why) == -1 && strncmp(why, "key file /aaa", 13) == 0); /* (truncated reason) */
    snprintf(path, sizeof path, "%s/plain", tdir);
    FILE *f = fopen(path, "w");
    require(f != NULL && fclose(f) == 0);
    snprintf(path, sizeof path, "%s/plain/k.key", tdir);
    require(hs_key_create(path, why, sizeof why) == -1 && strstr(why, "not a directory") != NULL);
    snprintf(path, sizeof path, "%s/open", tdir);
    require(mkdir(path, 0777) == 0 && chmod(path, 0777) == 0);
    snprintf(path, sizeof path, "%s/open/k.key", tdir);
    require(hs_key_create(path, why, sizeof why) == -1 && strstr(why, "refused") != NULL);
    require(lstat(path, &st) != 0); /* nothing written there */

    /* hs_key_load_fd: no descriptor, a FIFO, a directory, too large, another owner */
    require(hs_key_load_fd(-1, "k", &mac, why, sizeof why) == -1 && why[0] == 'k');
    int pfd[2];
    require(pipe(pfd) == 0);
    require(hs_key_load_fd(pfd[0], "k", &mac, why, sizeof why) == -1 && strstr(why, "FIFO") != NULL);
    close(pfd[0]);
    close(pfd[1]);
    const int dfd = open(tdir, O_RDONLY | O_DIRECTORY);
    require(dfd >= 0 && hs_key_load_fd(dfd, "k", &mac, why, sizeof why) == -1 && strstr(why, "directory") != NULL);
    close(dfd);
    snprintf(path, sizeof path, "%s/big.key", tdir);
    const int bfd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
    require(bfd >= 0 && ftruncate(bfd, HS_KEY_FILE_MAX + 1) == 0);
    require(hs_key_load_fd(bfd, "k", &mac, why, sizeof why) == -1 && strstr(why, "larger") != NULL);
    if (geteuid() == 0) { /* root may give it away: then it is someone else's file */
        require(ftruncate(bfd, 64) == 0 && fchown(bfd, 1, 1) == 0);
        require(hs_key_load_fd(bfd, "k", &mac, why, sizeof why) == -1 && strstr(why, "owned by uid 1") != NULL);
    }
    close(bfd);

    /* the run nonce: nonzero, and not the same twice */
    uint64_t n1 = 0, n2 = 0;
    require(hs_key_nonce(&n1) == 0 && hs_key_nonce(&n2) == 0 && n1 != 0u && n2 != 0u && n1 != n2);

    /* hs_link_setup: the takeover in whole periods, and who gets the key and the challenge */
    static hs_rx rx;
    static hs_tx tx;
    for (int kind = 0; kind < 2; ++kind) {
        for (int auth = 0; auth < 3; ++auth) {
            memset(&rx, 0, sizeof rx);
            memset(&tx, 0, sizeof tx);
            rx.kind = kind ? HS_FRAME_KIND_FROM_PLANT : HS_FRAME_KIND_TO_PLANT;
            require(setenv("XDG_CONFIG_HOME", tdir, 1) == 0);
            const int r = hs_link_setup(&rx, &tx, &mac, (hs_auth)auth, want, 2.5, 1000000, "fuzz_key", "ECU");
            require(r == 0 && rx.takeover_ticks == 3u);
            require(auth == HS_AUTH_NONE ? (rx.mac == NULL && tx.mac == NULL) : (rx.mac == &mac && tx.mac == &mac));
            require(auth != HS_AUTH_NONE && !kind ? (rx.challenge != 0u && tx.challenge == rx.challenge)
                                                  : rx.challenge == 0u);
        }
        /* a key file that is not there, no per-user path */
        snprintf(path, sizeof path, "%s/missing.key", tdir);
        require(hs_link_setup(&rx, &tx, &mac, HS_AUTH_FILE, path, -1.0, 1000000, "fuzz_key", "ECU") == -1);
        require(unsetenv("XDG_CONFIG_HOME") == 0);
        require(hs_link_setup(&rx, &tx, &mac, HS_AUTH_DEFAULT, NULL, -1.0, 1000000, "fuzz_key", "ECU") == -1);
    }
    fflush(stdout);
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 8192) return 0;
    const uint8_t *text = data + 1;
    const size_t n = size - 1;
    const mode_t loose = (mode_t)(data[0] & 077u);
    uint8_t ref[HS_MAC_KEY_MAX];
    int all_zero = 0;
    const int want = ref_parse(text, n, ref, &all_zero);
    char why[256];
    hs_mac mac;

    const int fd = memfd_create("fuzz-key", MFD_CLOEXEC);
    require(fd >= 0);
    require(write(fd, text, n) == (ssize_t)n);
    require(fchmod(fd, 0600u | loose) == 0 && lseek(fd, 0, SEEK_SET) == 0);
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);

#ifdef FZ_KEY_SPLIT
    /* the parser on the bytes */
    uint8_t key[HS_MAC_KEY_MAX];
    memset(why, 'X', sizeof why);
    const int k = hs_key_parse_text((const char *)text, n, "k", key, why, sizeof why);
    if (want < 0 || all_zero) {
        require(k == -1 && memchr(why, '\0', sizeof why) && why[0] == 'k');
        for (size_t i = 0; i < sizeof key; ++i) require(key[i] == 0u || all_zero);
    } else {
        require(k == want && memcmp(key, ref, (size_t)k) == 0);
    }
    /* the descriptor: mode and size checks, then the same parse */
    memset(why, 'X', sizeof why);
    const int kf = hs_key_load_fd(fd, "k", &mac, why, sizeof why);
    require(memchr(why, '\0', sizeof why));
    if (loose || n > HS_KEY_FILE_MAX || want < 0 || all_zero) {
        require(kf == -1 && why[0] != '\0');
    } else {
        require(kf == want && why[0] == '\0' && same_key(&mac, ref, want));
    }
    /* a path that is a symbolic link (/proc/self/fd/N) is refused without reading it */
    require(hs_key_load(path, &mac, why, sizeof why) == -1 && why[0] != '\0');
    /* the same text as a regular file opened by name: the same verdict as the descriptor */
    {
        static int files_done;
        if (!files_done) {
            files();
            files_done = 1;
        }
        unlink(rfile);
        const int rf = open(rfile, O_WRONLY | O_CREAT | O_EXCL, 0600);
        require(rf >= 0 && write(rf, text, n) == (ssize_t)n && fchmod(rf, 0600u | loose) == 0 && close(rf) == 0);
        memset(why, 'X', sizeof why);
        const int kr = hs_key_load(rfile, &mac, why, sizeof why);
        require(kr == kf && memchr(why, '\0', sizeof why) && (kr < 0 ? why[0] != '\0' : same_key(&mac, ref, want)));
    }
#else
    memset(why, 'X', sizeof why);
    const int kf = hs_key_load(path, &mac, why, sizeof why);
    require(memchr(why, '\0', sizeof why));
    if (want < 0) {
        require(kf == -1 && why[0] != '\0');
    } else {
        /* this loader accepts a loose mode with a warning, and any nonzero-length key */
        require(kf == want && same_key(&mac, ref, want));
        require(loose ? strstr(why, "readable by group or others") != NULL : why[0] == '\0');
    }
#endif
    close(fd);
    return 0;
}
