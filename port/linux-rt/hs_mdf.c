/* hs_mdf.c - the ASAM MDF 4.1 writer of hs_mdf.h (block layouts: ASAM MDF 4.1.1, "Block
 * types"; every block starts 8-byte aligned with the 24-byte header id[4] reserved[4]
 * length u64 link_count u64, then its links, then its data). */
#include "hs_mdf.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#define CG_CYCLES_AT 80u         /* cg_cycle_count: 24-byte header + 6 links */
#define CG_LEN 104u              /* the ##CG block: header, 6 links, 32 data bytes */
#define BLK_LEN_AT 8u            /* the block header's length field */
/* The commit window: the ##CG's cycle count through the ##DT's length (the ##DT follows the
 * ##CG directly), 40 bytes rewritten by one pwrite that never crosses a 512-byte sector. */
#define COMMIT_LEN (CG_LEN + 16u - CG_CYCLES_AT)
#define SECTOR 512u

uint8_t *hs_mdf_put_u(uint8_t *p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n && i < 8u; ++i) p[i] = (uint8_t)(v >> (8u * i));
    return p + n;
}

uint8_t *hs_mdf_put_f64(uint8_t *p, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return hs_mdf_put_u(p, u, 8u);
}

/* The metadata under construction: blocks appended to m->meta, links patched in place. */
typedef struct hm_meta {
    hs_mdf *m;
    size_t len;
    int over;             /* a block did not fit */
} hm_meta;

/* Appends a block with nlinks links (NIL) and ndata zeroed data bytes; returns its offset. */
static size_t hm_blk(hm_meta *b, const char *id, unsigned nlinks, size_t ndata)
{
    const size_t off = b->len, len = 24u + 8u * (size_t)nlinks + ndata;
    const size_t padded = (len + 7u) & ~(size_t)7u;
    if (b->over || padded > sizeof b->m->meta - off) { b->over = 1; return 0; }
    uint8_t *p = b->m->meta + off;
    memset(p, 0, padded);
    memcpy(p, id, 4);
    (void)hs_mdf_put_u(p + BLK_LEN_AT, (uint64_t)len, 8u);
    (void)hs_mdf_put_u(p + 16, (uint64_t)nlinks, 8u);
    b->len = off + padded;
    return off;
}

/* Link i of the block at off := target (a file offset). */
static void hm_link_set(hm_meta *b, size_t off, unsigned i, size_t target)
{
    if (!b->over) (void)hs_mdf_put_u(b->m->meta + off + 24u + 8u * i, (uint64_t)target, 8u);
}

/* The data section of the block at off with nlinks links. */
static uint8_t *hm_data_at(hm_meta *b, size_t off, unsigned nlinks)
{
    return b->m->meta + off + 24u + 8u * nlinks;
}

/* A ##TX (or ##MD: XML) block of text s, zero-terminated, padded with zeros to 8 bytes. */
static size_t hm_text(hm_meta *b, const char *id, const char *s)
{
    const size_t n = strlen(s) + 1u;
    const size_t off = hm_blk(b, id, 0, (n + 7u) & ~(size_t)7u);
    if (!b->over) memcpy(hm_data_at(b, off, 0), s, n - 1u);
    return off;
}

static int hm_channels_ok(const hs_mdf_channel *ch, int n, uint32_t *rec_bytes)
{
    int masters = 0;
    uint32_t bytes = 0;
    if (n < 1 || n > HS_MDF_MAX_CHANNELS) return 0;
    for (int i = 0; i < n; ++i) {
        const unsigned s = ch[i].bytes;
        if (!ch[i].name || !ch[i].name[0] || !ch[i].unit) return 0;
        if (s != 1u && s != 2u && s != 4u && s != 8u) return 0;
        if (ch[i].type != HS_MDF_U && ch[i].type != HS_MDF_I && ch[i].type != HS_MDF_F) return 0;
        if (ch[i].type == HS_MDF_F && s < 4u) return 0;
        if (ch[i].master && (ch[i].type != HS_MDF_F || ++masters > 1)) return 0;
        bytes += s;
    }
    *rec_bytes = bytes;
    return masters == 1;
}

/* ##ID: file id "MDF     " (finalized from the start: no id_unfin_flags), version "4.10",
 * program id, version number 410. */
static void hm_ident(uint8_t *p)
{
    memset(p, 0, 64);
    memcpy(p, "MDF     ", 8);
    memcpy(p + 8, "4.10    ", 8);
    memcpy(p + 16, "hilstep ", 8);
    (void)hs_mdf_put_u(p + 28, 410u, 2u);
}

/* ##HD, ##FH with its ##MD (the tool), ##DG: returns the ##DG's offset. */
static size_t hm_header(hm_meta *b, int64_t start_ns, const char *tool)
{
    char xml[512];
    size_t k = 0;
    const char *parts[] = {"<FHcomment xmlns=\"http://www.asam.net/mdf/v4\"><TX>telemetry of ", tool,
                           "</TX><tool_id>", tool, "</tool_id><tool_vendor>hilstep</tool_vendor>"
                           "<tool_version>1</tool_version></FHcomment>"};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; ++i) {
        const size_t n = strlen(parts[i]);
        if (n >= sizeof xml - k) { b->over = 1; return 0; }
        memcpy(xml + k, parts[i], n);
        k += n;
    }
    xml[k] = '\0';
    memset(b->m->meta, 0, 64); /* room for the ##ID, filled by the caller */
    b->len = 64;
    const size_t hd = hm_blk(b, "##HD", 6, 32);
    const size_t fh = hm_blk(b, "##FH", 2, 16);
    const size_t md = hm_text(b, "##MD", xml);
    const size_t dg = hm_blk(b, "##DG", 4, 8);
    if (b->over) return 0;
    hm_link_set(b, hd, 0, dg);
    hm_link_set(b, hd, 1, fh);
    /* hd_start_time_ns (UTC), tz/dst offsets 0, time flags 0 (UTC), class 0 (local PC clock) */
    (void)hs_mdf_put_u(hm_data_at(b, hd, 6), (uint64_t)start_ns, 8u);
    hm_link_set(b, fh, 1, md);
    (void)hs_mdf_put_u(hm_data_at(b, fh, 2), (uint64_t)start_ns, 8u);
    return dg;
}

/* The ##CN chain (with each channel's ##TX name and unit); returns the first ##CN's offset. */
static size_t hm_channels(hm_meta *b, const hs_mdf_channel *ch, int n)
{
    size_t prev = 0, first = 0;
    uint32_t byte_off = 0;
    for (int i = 0; i < n && !b->over; ++i) {
        const size_t cn = hm_blk(b, "##CN", 8, 72);
        const size_t name = hm_text(b, "##TX", ch[i].name);
        const size_t unit = ch[i].unit[0] ? hm_text(b, "##TX", ch[i].unit) : 0;
        if (b->over) return 0;
        if (prev) hm_link_set(b, prev, 0, cn);
        else first = cn;
        hm_link_set(b, cn, 2, name);
        hm_link_set(b, cn, 6, unit);
        uint8_t *d = hm_data_at(b, cn, 8);
        d[0] = ch[i].master ? 2u : 0u;          /* cn_type: master or fixed-length data */
        d[1] = ch[i].master ? 1u : 0u;          /* cn_sync_type: time */
        d[2] = (uint8_t)ch[i].type;             /* cn_data_type */
        d[3] = 0;                               /* cn_bit_offset */
        (void)hs_mdf_put_u(d + 4, byte_off, 4u);          /* cn_byte_offset */
        (void)hs_mdf_put_u(d + 8, 8u * ch[i].bytes, 4u);  /* cn_bit_count; flags, ranges: 0 */
        byte_off += ch[i].bytes;
        prev = cn;
    }
    return first;
}

/* The ##CG's acquisition name (##TX), the ##CG and the ##DT, last and in that order: the ##CG's
 * cycle count and the ##DT's length then lie in one 40-byte window, which the name's zero
 * padding keeps inside one 512-byte sector. Returns the ##CG's offset. */
static size_t hm_group(hm_meta *b, size_t dg, size_t cn, const char *group, uint32_t rec_bytes)
{
    const size_t n = strlen(group) + 1u, acq_len = (n + 7u) & ~(size_t)7u;
    const size_t at = (b->len + 24u + acq_len + CG_CYCLES_AT) % SECTOR;
    const size_t pad = at + COMMIT_LEN > SECTOR ? SECTOR - at : 0u;
    const size_t acq = hm_blk(b, "##TX", 0, acq_len + pad);
    if (!b->over) memcpy(hm_data_at(b, acq, 0), group, n - 1u);
    const size_t cg = hm_blk(b, "##CG", 6, 32);
    const size_t dt = hm_blk(b, "##DT", 0, 0);
    if (b->over) return 0;
    hm_link_set(b, dg, 1, cg);
    hm_link_set(b, dg, 2, dt);
    hm_link_set(b, cg, 1, cn);
    hm_link_set(b, cg, 2, acq);
    (void)hs_mdf_put_u(hm_data_at(b, cg, 6) + 24, rec_bytes, 4u); /* cg_data_bytes; inval bytes 0 */
    return cg;
}

/* The whole of buf[0, n) at file offset off; bytes written. */
static size_t hm_put_all(hs_mdf *m, const uint8_t *buf, size_t n, uint64_t off)
{
    size_t done = 0;
    while (done < n) {
        const ssize_t w = pwrite(m->fd, buf + done, n - done, (off_t)(off + done));
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            if (!m->err) m->err = w < 0 ? errno : EIO;
            break;
        }
        done += (size_t)w;
    }
    return done;
}

/* fdatasync, EINVAL/EROFS (a file that cannot be synced: /dev/full, a pipe) taken as done.
 * 1 = synced, 0 = failed (m->err). */
static int hm_sync(hs_mdf *m)
{
    int r;
    do r = fdatasync(m->fd); while (r != 0 && errno == EINTR);
    if (r == 0 || errno == EINVAL || errno == EROFS) return 1;
    if (!m->err) m->err = errno;
    return 0;
}

int hs_mdf_open(hs_mdf *m, const char *path, const hs_mdf_channel *ch, int n, int64_t start_ns,
                const char *tool, const char *group)
{
    hm_meta b = {m, 0, 0};
    m->fd = -1;
    m->err = 0;
    m->records = m->lost = 0;
    m->len = 0;
    if (!hm_channels_ok(ch, n, &m->rec_bytes)) return EINVAL;
    if (m->rec_bytes > HS_MDF_MAX_RECORD) return EOVERFLOW;
    const size_t dg = hm_header(&b, start_ns, tool);
    const size_t cn = hm_channels(&b, ch, n);
    const size_t cg = hm_group(&b, dg, cn, group, m->rec_bytes);
    if (b.over) return EOVERFLOW;
    hm_ident(m->meta);
    m->cg_off = cg;
    m->dt_off = cg + CG_LEN;
    m->end = m->dt_off + 24u;
    m->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (m->fd < 0) return errno;
    /* A failed write (disk full) is m->err, as for the records: the run goes on, output lost. */
    (void)hm_put_all(m, m->meta, (size_t)m->end, 0);
    return 0;
}

/* The commit: the ##CG cycle count and the ##DT length := records, in one write of the
 * 40-byte window (a SIGKILL cannot split a pwrite within one page; a power cut cannot split a
 * write within one sector). Before it the file says the old count, after it the new one.
 * 1 = written, 0 = failed (m->err; the file keeps the old count). */
static int hm_commit(hs_mdf *m, uint64_t records)
{
    uint8_t *w = m->meta + m->cg_off + CG_CYCLES_AT;
    (void)hs_mdf_put_u(w, records, 8u);
    (void)hs_mdf_put_u(m->meta + m->dt_off + BLK_LEN_AT, 24u + records * m->rec_bytes, 8u);
    return hm_put_all(m, w, COMMIT_LEN, m->cg_off + CG_CYCLES_AT) == COMMIT_LEN;
}

int hs_mdf_flush(hs_mdf *m)
{
    /* Nothing is buffered once m->err is set (hs_mdf_add counts those records lost). */
    if (m->fd < 0 || m->len == 0) return m->err;
    const uint64_t buffered = m->len / m->rec_bytes;
    /* The records go past the end of the ##DT (bytes no block covers yet: the file stays valid),
     * reach the disk, and only then the commit makes the ##DT and the ##CG cover them. */
    const size_t done = hm_put_all(m, m->buf, m->len, m->end);
    uint64_t whole = done / m->rec_bytes;
    m->len = 0;
    if (whole > 0 && !hm_sync(m)) whole = 0;
    m->lost += buffered - whole;
    /* A partial record, or records not synced, are cut off (nothing to cut on /dev/full). */
    if (whole < buffered && ftruncate(m->fd, (off_t)(m->end + whole * m->rec_bytes)) != 0) { /* uncovered: harmless */ }
    if (whole == 0) return m->err;
    const int e = m->err;
    if (hm_commit(m, m->records + whole)) {
        m->records += whole;
        m->end += whole * m->rec_bytes;
    } else {
        m->lost += whole; /* the file still declares the previous count: these are not in it */
    }
    if (e) m->err = e; /* the data error is the one to report */
    return m->err;
}

void hs_mdf_add(hs_mdf *m, const uint8_t *rec)
{
    if (m->fd < 0) return;
    if (m->err) { m->lost++; return; }
    if (m->len + m->rec_bytes > sizeof m->buf) (void)hs_mdf_flush(m);
    if (m->err) { m->lost++; return; }
    memcpy(m->buf + m->len, rec, m->rec_bytes);
    m->len += m->rec_bytes;
}

int hs_mdf_close(hs_mdf *m)
{
    if (m->fd < 0) return m->err;
    (void)hs_mdf_flush(m);
    /* The file is finalized at every commit; the last commit reaches the disk here. */
    (void)hm_sync(m);
    if (close(m->fd) != 0 && !m->err) m->err = errno;
    m->fd = -1;
    return m->err;
}
