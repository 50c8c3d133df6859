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
