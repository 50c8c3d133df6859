/* hs_mdf.h - an ASAM MDF 4.1 writer for hilstep-rt's telemetry (--log FILE.mf4, hil/MDF.md).
 *
 * One data group with one channel group of fixed-length records, sorted, no record ids: the
 * frame rate of the run. The metadata (##ID ##HD ##FH ##MD ##DG ##CN ##TX, then the ##CG and
 * the ##DT last) is written once at open, so records append at the end of the file. The file
 * is finalized ("MDF     ") from the start: a flush appends the records after the ##DT (bytes
 * no block covers), fdatasyncs them, and only then one 40-byte write (within one 512-byte
 * sector) sets the ##CG cycle count and the ##DT length together. At every instant the file
 * is a valid finalized MDF 4.1 file holding the records of the last completed flush, plus at
 * most one flush of trailing bytes (hil/MDF.md "A run that is cut off"). No allocation: the
 * caller owns the hs_mdf (static). */
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

/* Writes the buffered records, syncs them, then sets the ##DT length and ##CG cycle count (one
 * write). A short write or a failed sync cuts the file back to the last committed record (the
 * ones cut off count in m->lost). 0, or m->err. */
int hs_mdf_flush(hs_mdf *m);

/* Flushes, syncs and closes (the file is finalized at every commit, after a write error too:
 * its counts name the records that made it). 0, or m->err. */
int hs_mdf_close(hs_mdf *m);

/* v as an n-byte little-endian integer at p (n <= 8); returns p + n. */
uint8_t *hs_mdf_put_u(uint8_t *p, uint64_t v, unsigned n);

/* v as an IEEE 754 binary64, little endian, at p; returns p + 8. */
uint8_t *hs_mdf_put_f64(uint8_t *p, double v);

#endif
