/* hs_mdf.h - an ASAM MDF 4.1 writer for hilstep-rt's telemetry (--log FILE.mf4, hil/MDF.md).
 *
 * One data group with one channel group of fixed-length records, sorted, no record ids: the
 * frame rate of the run. The metadata (##ID ##HD ##FH ##MD ##DG ##CG ##CN ##TX) is written
 * once at open, the ##DT block last, so records append at the end of the file. The file is
 * written unfinalized ("UnFinMF ", id_unfin_flags = cycle count and DT length to update) and
 * after every flush the ##DT length and the ##CG cycle count are patched to the records in
 * the file; close writes the final counts and only then "MDF     " with the flags cleared.
 * A run cut off at any point leaves a file whose counts name complete records only, and a
 * reader that recovers unfinalized files (the standard's 4.1 rule: DT length from the file
 * size) gets every complete record. No allocation: the caller owns the hs_mdf (static). */
#ifndef HS_MDF_H
#define HS_MDF_H

#include <stddef.h>
#include <stdint.h>

#define HS_MDF_MAX_CHANNELS 512   /* channels of the one channel group, the master among them */
#define HS_MDF_MAX_RECORD 4096    /* bytes per record at most */
#define HS_MDF_U 0u               /* cn_data_type: unsigned integer, little endian */
#define HS_MDF_I 2u               /* cn_data_type: signed integer (two's complement), little endian */
#define HS_MDF_F 4u               /* cn_data_type: IEEE 754 floating point, little endian */

/* One channel of the record, in record order (byte offsets follow from the sizes). */
typedef struct hs_mdf_channel {
    const char *name;     /* channel name (UTF-8, non-empty) */
    const char *unit;     /* unit text, "" = none */
    unsigned type;        /* HS_MDF_U, HS_MDF_I or HS_MDF_F */
    unsigned bytes;       /* size in the record: 1, 2, 4 or 8 (floats 4 or 8) */
    int master;           /* 1: the time master channel (cn_type 2, sync type 1, seconds); exactly one */
} hs_mdf_channel;

/* A writer. Fields after open are read-only for the caller. */
typedef struct hs_mdf {
    int fd;               /* -1 = closed */
    int err;              /* errno of the first failed write, patch, sync or close; 0 = none */
    uint32_t rec_bytes;   /* bytes per record */
    uint64_t records;     /* complete records in the file (what ##DT and ##CG say) */
    uint64_t lost;        /* records not in the file because of err */
    uint64_t cg_off;      /* file offset of the ##CG block */
    uint64_t dt_off;      /* file offset of the ##DT block */
    uint64_t end;         /* file offset after the last complete record */
    size_t len;           /* bytes buffered (whole records) */
    int counts_ok;        /* the last patch of the counts (or the metadata) reached the file */
    uint8_t buf[1u << 16];   /* records not yet written */
    uint8_t meta[1u << 18];  /* the metadata blocks, built at open */
} hs_mdf;

/* Creates path (truncated, 0644) and writes the metadata: channels ch (n of them), the start
 * of the measurement start_ns (ns since 1970 UTC), tool (the ##FH tool id, e.g. "hilstep-rt"),
 * group (the ##CG acquisition name, e.g. "frames 1 ms"). 0, or an errno of open (EINVAL: bad
 * channel list, EOVERFLOW: metadata or record beyond the limits above), m->fd -1 then. A
 * failed write of the metadata is m->err (the records are then counted lost), not a failure. */
int hs_mdf_open(hs_mdf *m, const char *path, const hs_mdf_channel *ch, int n, int64_t start_ns,
                const char *tool, const char *group);

/* Appends one record of m->rec_bytes bytes (flushes first when the buffer is full). After an
 * error the record is counted in m->lost instead. */
void hs_mdf_add(hs_mdf *m, const uint8_t *rec);

/* Writes the buffered records and patches the ##DT length and ##CG cycle count. A short write
 * cuts the file back to the last complete record. 0, or m->err. */
int hs_mdf_flush(hs_mdf *m);

/* Flushes, syncs, finalizes the ##ID block (when the counts in the file are right, also after
 * a write error: they then name the records that made it) and closes. 0, or m->err. */
int hs_mdf_close(hs_mdf *m);

/* v as an n-byte little-endian integer at p (n <= 8); returns p + n. */
uint8_t *hs_mdf_put_u(uint8_t *p, uint64_t v, unsigned n);

/* v as an IEEE 754 binary64, little endian, at p; returns p + 8. */
uint8_t *hs_mdf_put_f64(uint8_t *p, double v);

#endif
