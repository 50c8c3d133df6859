#!/usr/bin/python3
"""mdf_reader.py - a reader of ASAM MDF 4.x files, written from the standard (ASAM MDF 4.1.1,
"Block types"), for mdf-test. It shares no code with the writer (port/linux-rt/hs_mdf.c) or
with hilstep-plot's reader (port/host/hilstep_plot.py).

Reads sorted data groups of fixed-length records in one ##DT block: ##ID, ##HD, ##DG, ##CG,
##CN with ##TX/##MD names and units, ##CC of type 0 (identity) or none; integers (types 0, 2)
and IEEE floats (type 4), little endian, byte-aligned. Anything else is refused by name, so a
file this reader accepts is one whose every block's every byte it checked. Every link of a
block read must be NIL or an 8-byte aligned offset of a block inside the file.
read(path, recover, strict, data) -> dict; recover=True applies the standard's rule for an
unfinalized file ("UnFinMF ", id_unfin_flags bit 2: the last ##DT block's length is the rest
of the file; bit 0: the cycle count follows from it), else the counts in the file are taken as
they are. strict=True reads as a tool that takes only finalized files: "UnFinMF " or any
unfinalized flag is refused, and a sorted group's ##DT must hold exactly cycle count x record
bytes. Bytes after the last block (no block covers them, e.g. a flush a kill cut short) are
allowed, as the standard allows unreferenced bytes between blocks; they are reported as
"trailing". data: the file's bytes (a snapshot) instead of reading path; values=False: the
records' bytes only (no "rows")."""
import struct


class MdfError(Exception):
    pass


class _Buf(bytes):
    """The file's bytes, and the end of the furthest block read (for "trailing")."""
    end = 0


HDR = struct.Struct("<4s4xQQ")   # id, block length, link count
LINKS = {b"##HD": 6, b"##DG": 4, b"##CG": 6, b"##CN": 8, b"##TX": 0, b"##MD": 0, b"##DT": 0,
         b"##FH": 2, b"##CC": 4}


def _block(buf, off, want):
    """(length, links, data offset) of the block at off, checked against the standard."""
    if off % 8:
        raise MdfError("block at %d is not 8-byte aligned" % off)
    if off + 24 > len(buf):
        raise MdfError("block at %d: beyond the end of the file (%d bytes)" % (off, len(buf)))
    bid, length, nlinks = HDR.unpack_from(buf, off)
    if bid != want:
        raise MdfError("block at %d: id %r, expected %r" % (off, bid, want))
    if want in LINKS and nlinks < LINKS[want]:
        raise MdfError("%s at %d: %d links, the standard has %d" % (want.decode(), off, nlinks, LINKS[want]))
    if length < 24 + 8 * nlinks or off + length > len(buf):
        raise MdfError("%s at %d: length %d out of the file" % (want.decode(), off, length))
    links = struct.unpack_from("<%dQ" % nlinks, buf, off + 24)
    for i, t in enumerate(links):
        if t and (t % 8 or t + 24 > len(buf)):
            raise MdfError("%s at %d: link %d to %d, not a block in the file (%d bytes)" %
                           (want.decode(), off, i, t, len(buf)))
    if isinstance(buf, _Buf):
        buf.end = max(buf.end, off + length)
    return length, links, off + 24 + 8 * nlinks


def _text(buf, off):
    """The text of a ##TX or ##MD block ('' for NIL); an MD's XML is returned as it is."""
    if off == 0:
        return ""
    bid = buf[off:off + 4]
    if bid not in (b"##TX", b"##MD"):
        raise MdfError("text link to %d: block %r is neither ##TX nor ##MD" % (off, bid))
    length, _, data = _block(buf, off, bid)
    raw = buf[data:off + length]
    end = raw.find(b"\0")
    if end < 0:
        raise MdfError("%s at %d: text not zero-terminated" % (bid.decode(), off))
    if any(raw[end:]):
        raise MdfError("%s at %d: non-zero bytes after the terminator" % (bid.decode(), off))
    return raw[:end].decode("utf-8")


def _ident(buf):
    if len(buf) < 64:
        raise MdfError("%d bytes: shorter than the 64-byte ##ID block" % len(buf))
    fid, vers, prog, ver, unfin, cust = struct.unpack_from("<8s8s8s4xH30xHH", buf, 0)
    if fid not in (b"MDF     ", b"UnFinMF "):
        raise MdfError("##ID: file id %r is neither 'MDF     ' nor 'UnFinMF '" % fid)
    if not vers.startswith(b"4.") or ver < 400 or ver >= 500:
        raise MdfError("##ID: version %r (%d) is not MDF 4" % (vers, ver))
    return {"finalized": fid == b"MDF     ", "version": ver, "version_str": vers.decode().strip(),
            "program": prog.decode("latin-1").strip(), "unfin_flags": unfin, "custom_unfin_flags": cust}


def _channel(buf, off):
    length, links, d = _block(buf, off, b"##CN")
    if length < 24 + 8 * len(links) + 72:
        raise MdfError("##CN at %d: data section shorter than 72 bytes" % off)
    ctype, sync, dtype, bit_off, byte_off, bits, flags = struct.unpack_from("<4B3I", buf, d)
    if links[1]:
        raise MdfError("##CN at %d: composition (structures, arrays) not supported" % off)
    if links[5]:
        raise MdfError("##CN at %d: signal data (cn_data) not supported" % off)
    if links[4]:
        _, _, cd = _block(buf, links[4], b"##CC")
        if buf[cd] != 0:
            raise MdfError("##CN at %d: conversion type %d, only 0 (identity) supported" % (off, buf[cd]))
    if ctype not in (0, 2):
        raise MdfError("##CN at %d: channel type %d, only 0 (data) and 2 (master) supported" % (off, ctype))
    if dtype not in (0, 2, 4):
        raise MdfError("##CN at %d: data type %d, only 0, 2 (LE integers) and 4 (LE float) supported" % (off, dtype))
    if bit_off or bits % 8 or bits not in (8, 16, 32, 64) or (dtype == 4 and bits not in (32, 64)):
        raise MdfError("##CN at %d: %d bits at bit offset %d not supported" % (off, bits, bit_off))
    return {"name": _text(buf, links[2]), "unit": _text(buf, links[6]), "type": ctype, "sync": sync,
            "data_type": dtype, "byte_offset": byte_off, "bytes": bits // 8, "flags": flags,
            "next": links[0]}


def _value(rec, ch):
    o, n = ch["byte_offset"], ch["bytes"]
    raw = rec[o:o + n]
    if ch["data_type"] == 4:
        return struct.unpack("<d" if n == 8 else "<f", raw)[0]
    return int.from_bytes(raw, "little", signed=ch["data_type"] == 2)


def _group(buf, cg_off, data_off, recover, ident, strict, values):
    length, links, d = _block(buf, cg_off, b"##CG")
    rec_id, cycles, flags, _sep, data_bytes, inval_bytes = struct.unpack_from("<QQHH4xII", buf, d)
    if flags & 1:
        raise MdfError("##CG at %d: a VLSD channel group, not supported" % cg_off)
    if inval_bytes:
        raise MdfError("##CG at %d: invalidation bytes, not supported" % cg_off)
    chans, off, seen = [], links[1], set()
    while off:
        if off in seen:
            raise MdfError("##CN chain of ##CG at %d loops" % cg_off)
        seen.add(off)
        ch = _channel(buf, off)
        if ch["byte_offset"] + ch["bytes"] > data_bytes:
            raise MdfError("channel %s: bytes %d..%d beyond the record (%d bytes)" %
                           (ch["name"], ch["byte_offset"], ch["byte_offset"] + ch["bytes"], data_bytes))
        chans.append(ch)
        off = ch["next"]
    masters = [c for c in chans if c["type"] == 2]
    if len(masters) != 1:
        raise MdfError("##CG at %d: %d master channels, expected 1" % (cg_off, len(masters)))
    dlen, _, dd = _block(buf, data_off, b"##DT")
    in_file = len(buf) - dd
    if recover and not ident["finalized"] and ident["unfin_flags"] & 4:
        dlen = 24 + in_file  # the last ##DT block runs to the end of the file
    nbytes = dlen - 24
    if recover and not ident["finalized"] and ident["unfin_flags"] & 1:
        cycles = nbytes // data_bytes
    if cycles * data_bytes > nbytes or (strict and cycles * data_bytes != nbytes):
        raise MdfError("##CG at %d: %d cycles of %d bytes, the ##DT holds %d bytes" %
                       (cg_off, cycles, data_bytes, nbytes))
    recs = [buf[dd + i * data_bytes:dd + (i + 1) * data_bytes] for i in range(cycles)]
    return {"acq_name": _text(buf, links[2]), "record_bytes": data_bytes, "cycles": cycles,
            "record_id": rec_id, "channels": chans, "master": masters[0],
            "dt_bytes": nbytes, "rows": [[_value(r, c) for c in chans] for r in recs] if values else None,
            "raw": recs}


def read(path, recover=False, strict=False, data=None, values=True):
    if data is None:
        with open(path, "rb") as f:
            data = f.read()
    buf = _Buf(data)
    ident = _ident(buf)
    if strict and (not ident["finalized"] or ident["unfin_flags"] or ident["custom_unfin_flags"]):
        raise MdfError("##ID: unfinalized (file id %r, id_unfin_flags 0x%x, custom 0x%x): refused in strict mode" %
                       (buf[:8].decode("latin-1"), ident["unfin_flags"], ident["custom_unfin_flags"]))
    _, hd, hdd = _block(buf, 64, b"##HD")
    start_ns = struct.unpack_from("<Q", buf, hdd)[0]
    if hd[1] == 0:
        raise MdfError("##HD: no ##FH block (the standard requires one)")
    _, fh, _ = _block(buf, hd[1], b"##FH")
    history = _text(buf, fh[1])
    groups, dg_off = [], hd[0]
    while dg_off:
        _, dg, dgd = _block(buf, dg_off, b"##DG")
        rec_id_size = buf[dgd]
        if rec_id_size:
            raise MdfError("##DG at %d: record ids (unsorted data), not supported" % dg_off)
        if not dg[1] or not dg[2]:
            raise MdfError("##DG at %d: no channel group or no data" % dg_off)
        _, cg, _ = _block(buf, dg[1], b"##CG")
        if cg[0]:
            raise MdfError("##DG at %d: more than one channel group (unsorted), not supported" % dg_off)
        groups.append(_group(buf, dg[1], dg[2], recover and not strict, ident, strict, values))
        dg_off = dg[0]
    ident.update({"start_ns": start_ns, "history": history, "groups": groups, "size": len(buf),
                  "trailing": len(buf) - buf.end})
    return ident


if __name__ == "__main__":
    import sys
    m = read(sys.argv[1], recover="--recover" in sys.argv, strict="--strict" in sys.argv)
    for g in m["groups"]:
        print(",".join(c["name"] for c in g["channels"]))
        for r in g["rows"]:
            print(",".join(repr(v) for v in r))
