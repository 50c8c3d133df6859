/* hs_key.c - key files, the per-user default key and the link options (hs_key.h). */
#define _GNU_SOURCE /* getrandom */
#include "hs_key.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

int hs_key_parse_text(const char *text, size_t n, const char *name, uint8_t *key, char *why,
                      size_t cap)
{
    size_t k = 0;
    int line = 1, hi = -1;
    unsigned nonzero = 0;
    for (size_t i = 0; i < n; ++i) {
        int c = (unsigned char)text[i];
        if (c == '#') {
            while (i < n && text[i] != '\n') ++i;
            if (i == n) break;
            c = '\n';
        }
        if (c == '\n') { ++line; continue; }
        if (c == ' ' || c == '\t' || c == '\r') continue;
        int d = (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10
              : (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
        if (d < 0) {
            snprintf(why, cap, "%s:%d: '%c' is not a hex digit (the key file holds %u to %u "
                     "bytes as hex, see hil/FRAME.md \"Security\")", name, line,
                     (c >= 32 && c < 127) ? c : '?', HS_MAC_KEY_MIN, HS_MAC_KEY_MAX);
            memset(key, 0, HS_MAC_KEY_MAX);
            return -1;
        }
        if (hi < 0) { hi = d; continue; }
        if (k == HS_MAC_KEY_MAX) {
            snprintf(why, cap, "%s:%d: key longer than %u bytes (%u hex digits)", name, line,
                     HS_MAC_KEY_MAX, 2u * HS_MAC_KEY_MAX);
            memset(key, 0, HS_MAC_KEY_MAX);
            return -1;
        }
        key[k] = (uint8_t)(hi * 16 + d);
        nonzero |= key[k++];
        hi = -1;
    }
    if (hi >= 0) {
        snprintf(why, cap, "%s:%d: odd number of hex digits", name, line);
        memset(key, 0, HS_MAC_KEY_MAX);
        return -1;
    }
    if (k < HS_MAC_KEY_MIN) {
        snprintf(why, cap, "%s: key of %zu bytes is too short: at least %u bytes (%u hex digits), "
                 "e.g. od -An -tx1 -N32 /dev/urandom > %s", name, k, HS_MAC_KEY_MIN,
                 2u * HS_MAC_KEY_MIN, name);
        memset(key, 0, HS_MAC_KEY_MAX);
        return -1;
    }
    /* An all-zero key is what an empty or wiped file turns into; nobody chose it as a secret. */
    if (nonzero == 0u) {
        snprintf(why, cap, "%s: key of %zu bytes is all zero: not a secret (make one with "
                 "od -An -tx1 -N32 /dev/urandom)", name, k);
        return -1;
    }
    return (int)k;
}

int hs_key_load_fd(int fd, const char *name, hs_mac *mac, char *why, size_t cap)
{
    struct stat st;
    char text[HS_KEY_FILE_MAX + 1u];
    uint8_t key[HS_MAC_KEY_MAX];
    if (fstat(fd, &st) != 0) {
        snprintf(why, cap, "key file %s: %s", name, strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        const char *what = S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISCHR(st.st_mode) ? "a character device"
                         : S_ISBLK(st.st_mode) ? "a block device" : S_ISDIR(st.st_mode) ? "a directory"
                         : S_ISSOCK(st.st_mode) ? "a socket" : "not a file";
        snprintf(why, cap, "key file %s: %s, not a regular file: refused", name, what);
        return -1;
    }
    if (st.st_uid != geteuid()) {
        snprintf(why, cap, "key file %s: owned by uid %u, not by this user (uid %u): refused "
                 "(whoever owns it can change the key)", name, (unsigned)st.st_uid,
                 (unsigned)geteuid());
        return -1;
    }
    if ((st.st_mode & 077) != 0) {
        snprintf(why, cap, "key file %s: mode %04o gives group or others access: refused "
                 "(chmod 600 %s)", name, (unsigned)(st.st_mode & 07777), name);
        return -1;
    }
    if (st.st_size > (off_t)HS_KEY_FILE_MAX) {
        snprintf(why, cap, "key file %s: %lld bytes, larger than the limit of %u bytes: refused",
                 name, (long long)st.st_size, HS_KEY_FILE_MAX);
        return -1;
    }
    size_t n = 0;
    /* Bounded by the buffer, not by st_size: the file may grow between fstat and read. */
    while (n <= HS_KEY_FILE_MAX) {
        ssize_t r = read(fd, text + n, HS_KEY_FILE_MAX + 1u - n);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
            snprintf(why, cap, "key file %s: read: %s", name, strerror(errno));
            memset(text, 0, sizeof text);
            return -1;
        }
        if (r == 0) break;
        n += (size_t)r;
    }
    if (n > HS_KEY_FILE_MAX) {
        snprintf(why, cap, "key file %s: larger than the limit of %u bytes: refused", name,
                 HS_KEY_FILE_MAX);
        memset(text, 0, sizeof text);
        return -1;
    }
    int k = hs_key_parse_text(text, n, name, key, why, cap);
    memset(text, 0, sizeof text);
    if (k < 0) {
        memset(key, 0, sizeof key);
        return -1;
    }
    hs_mac_init(mac, key, (size_t)k);
    memset(key, 0, sizeof key);
    if (cap) why[0] = '\0';
    return k;
}

int hs_key_load(const char *path, hs_mac *mac, char *why, size_t cap)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        if (errno == ELOOP)
            snprintf(why, cap, "key file %s: a symbolic link: refused (give the file itself)", path);
        else
            snprintf(why, cap, "key file %s: %s", path, strerror(errno));
        return -1;
    }
    int k = hs_key_load_fd(fd, path, mac, why, cap);
    close(fd);
    return k;
}

int hs_key_default_path(char *buf, size_t cap, char *why, size_t wcap)
{
    const char *xdg = getenv("XDG_CONFIG_HOME");
    const char *home = getenv("HOME");
    int n;
    if (xdg && xdg[0] == '/')
        n = snprintf(buf, cap, "%s/hilstep/%s", xdg, HS_KEY_DEFAULT_NAME);
    else if (home && home[0] == '/')
        n = snprintf(buf, cap, "%s/.config/hilstep/%s", home, HS_KEY_DEFAULT_NAME);
    else {
        snprintf(why, wcap, "no per-user key: neither XDG_CONFIG_HOME nor HOME is an absolute "
                 "path (give --key FILE, or --no-auth)");
        return -1;
    }
    if (n < 0 || (size_t)n >= cap) {
        snprintf(why, wcap, "per-user key path longer than %zu bytes (give --key FILE)", cap - 1);
        return -1;
    }
    return 0;
}

/* One directory level: created 0700 when missing; an existing one must be a directory. */
static int make_dir(const char *dir, char *why, size_t cap)
{
    struct stat st;
    if (mkdir(dir, 0700) == 0 || errno == EEXIST) {
        if (lstat(dir, &st) == 0 && S_ISDIR(st.st_mode)) return 0;
        snprintf(why, cap, "key directory %s: not a directory", dir);
        return -1;
    }
    snprintf(why, cap, "key directory %s: mkdir: %s", dir, strerror(errno));
    return -1;
}

static int random_bytes(uint8_t *p, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = getrandom(p + got, n - got, 0);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) break;
        got += (size_t)r;
    }
    if (got == n) return 0;
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    got = 0;
    while (got < n) {
        ssize_t r = read(fd, p + got, n - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
    }
    close(fd);
    return got == n ? 0 : -1;
}

int hs_key_nonce(uint64_t *nonce)
{
    uint8_t b[8];
    uint64_t x = 0;
    for (int tries = 0; tries < 4 && x == 0u; ++tries) {
        if (random_bytes(b, sizeof b) != 0) return -1;
        for (unsigned i = 0; i < 8u; ++i) x = (x << 8) | b[i];
    }
    *nonce = x;
    return x != 0u ? 0 : -1;
}

int hs_key_create(const char *path, char *why, size_t cap)
{
    char dir[4096], tmp[4200];
    struct stat st;
    if (lstat(path, &st) == 0) return 0; /* exists: hs_key_load judges it */
    size_t len = strlen(path);
    if (len >= sizeof dir) {
        snprintf(why, cap, "key file %s: path too long", path);
        return -1;
    }
    memcpy(dir, path, len + 1);
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir) {
        snprintf(why, cap, "key file %s: needs a directory", path);
        return -1;
    }
    *slash = '\0';
    /* The last two levels (".config/hilstep" or "$XDG_CONFIG_HOME/hilstep"): the config
     * directory may be missing on a fresh account; home itself must exist. */
    char *up = strrchr(dir, '/');
    if (up && up != dir) {
        *up = '\0';
        if (lstat(dir, &st) != 0 && make_dir(dir, why, cap) != 0) return -1;
        *up = '/';
    }
    if (make_dir(dir, why, cap) != 0) return -1;
    if (lstat(dir, &st) != 0 || st.st_uid != geteuid() || (st.st_mode & 022) != 0) {
        snprintf(why, cap, "key directory %s: not owned by this user or writable by group or "
                 "others: refused (chmod 700 %s)", dir, dir);
        return -1;
    }
    uint8_t key[HS_KEY_NEW_BYTES];
    if (random_bytes(key, sizeof key) != 0) {
        snprintf(why, cap, "key file %s: no random bytes (getrandom and /dev/urandom failed)", path);
        return -1;
    }
    char text[160];
    int t = snprintf(text, sizeof text, "# hilstep link key (hil/FRAME.md \"Security\"), made on "
                     "first use; keep it 0600\n");
    for (size_t i = 0; i < sizeof key; ++i)
        t += snprintf(text + t, sizeof text - (size_t)t, "%02x", key[i]);
    text[t++] = '\n';
    memset(key, 0, sizeof key);
    snprintf(tmp, sizeof tmp, "%s.new.%ld", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        snprintf(why, cap, "key file %s: %s", tmp, strerror(errno));
        memset(text, 0, sizeof text);
        return -1;
    }
    /* An odd umask could leave the file 0; the mode is exactly 0600 whatever it is. */
    int ok = fchmod(fd, 0600) == 0;
    ok = ok && write(fd, text, (size_t)t) == (ssize_t)t;
    ok = ok && fsync(fd) == 0;
    int err = errno;
    memset(text, 0, sizeof text);
    ok = (close(fd) == 0) && ok;
    if (!ok) {
        unlink(tmp);
        snprintf(why, cap, "key file %s: write: %s", tmp, strerror(err));
        return -1;
    }
    /* link() never replaces: a start that raced us and won keeps its key, and ours goes. */
    int linked = link(tmp, path);
    err = errno;
    unlink(tmp);
    if (linked != 0 && err != EEXIST) {
        snprintf(why, cap, "key file %s: %s", path, strerror(err));
        return -1;
    }
    return linked == 0 ? 1 : 0;
}

int hs_link_setup(hs_rx *rx, hs_tx *tx, hs_mac *mac, hs_auth auth, const char *key_path,
                  double takeover_ms, int64_t period_ns, const char *prog, const char *peer_name)
{
    char why[768], def[4096];
    const char *path = key_path;
    if (takeover_ms >= 0.0)
        rx->takeover_ticks = (uint32_t)ceil(takeover_ms * 1e6 / (double)period_ns - 1e-9);
    if (auth == HS_AUTH_DEFAULT) {
        if (hs_key_default_path(def, sizeof def, why, sizeof why) != 0) {
            fprintf(stderr, "%s: %s\n", prog, why);
            return -1;
        }
        const int made = hs_key_create(def, why, sizeof why);
        if (made < 0) {
            fprintf(stderr, "%s: %s\n", prog, why);
            return -1;
        }
        if (made > 0)
            printf("%s: link: created the per-user key %s (%u random bytes, mode 0600); the ECU "
                   "of this user reads the same file\n", prog, def, HS_KEY_NEW_BYTES);
        path = def;
    }
    if (auth != HS_AUTH_NONE) {
        if (hs_key_load(path, mac, why, sizeof why) < 0) {
            fprintf(stderr, "%s: %s\n", prog, why);
            return -1;
        }
        rx->mac = mac;
        tx->mac = mac;
        /* The plant (the end that receives inputs) challenges: every ECU frame must carry this
         * run's nonce under the MAC, so no frame of an earlier run verifies. */
        if (rx->kind == HS_FRAME_KIND_TO_PLANT) {
            if (hs_key_nonce(&rx->challenge) != 0) {
                fprintf(stderr, "%s: no random bytes for the run's challenge\n", prog);
                return -1;
            }
            tx->challenge = rx->challenge;
        }
        printf("%s: link: frames authenticated (version 3, HMAC-SHA-256-128, key %s%s)", prog,
               path, auth == HS_AUTH_DEFAULT ? ", the per-user default" : "");
        if (rx->challenge != 0u)
            printf("; run challenge %016llx", (unsigned long long)rx->challenge);
        else
            printf("; frames answer the plant's run challenge");
    } else {
        printf("%s: link: frames NOT authenticated (version 1, --no-auth): anyone who can send "
               "from the %s's address can be the %s", prog, peer_name, peer_name);
    }
    printf("; a new %s session takes over only after more than %u frames (%.1f ms) of silence\n",
           peer_name, (unsigned)rx->takeover_ticks,
           (double)rx->takeover_ticks * (double)period_ns / 1e6);
    return 0;
}
