#!/usr/bin/python3
"""hilstep-plot - turns a hilstep CSV (hilstep-sim --csv, hilstep-rt --log) into PNG plots.

usage: hilstep-plot FILE.csv|FILE.mf4 [--out DIR] [--columns NAME,...] [--title TEXT]

One PNG per group of columns against time: positions q, velocities u, constraint residuals g,
auxiliary states z, multipliers lam, inputs in_*, outputs out_*, and for telemetry the frame
timing (*_ns) and counters. --columns picks columns by name instead (one PNG, all of them);
a name matches a column with or without its [unit] and its in_/out_ prefix. Written to DIR (default: the CSV's
directory) as STEM_GROUP.png; the paths are printed, one per line. FILE.mf4: hilstep-rt's ASAM
MDF 4.1 log (--log FILE.mf4, hil/MDF.md), its channels read as the CSV's columns; an unfinalized
file (an older build's run cut off) is recovered by the standard's rule, with a note.
Exit status: 0 ok, 2 bad arguments or a bad CSV (file:line says where), 3 a PNG not written.
Needs Debian's python3-matplotlib (`make test` and `make run` install it)."""
import argparse
import csv
import math
import os
import re
import struct
import sys

TIME_COLS = ("t", "t_s", "t [s]", "t[s]")
# (group, title, test on the bare column name)
GROUPS = [
    ("inputs", "inputs", lambda n: n.startswith("in_") or n.startswith("in") and n[2:].isdigit()),
    ("outputs", "outputs", lambda n: n.startswith("out_") or n.startswith("out") and n[3:].isdigit()),
    ("q", "positions q", lambda n: re.fullmatch(r"q\d+", n) is not None),
    ("u", "velocities u", lambda n: re.fullmatch(r"u\d+", n) is not None),
    ("g", "constraint residual g", lambda n: re.fullmatch(r"g\d+", n) is not None or n == "gmax"),
    ("z", "auxiliary states z", lambda n: re.fullmatch(r"z\d+", n) is not None),
    ("lam", "multipliers lambda", lambda n: re.fullmatch(r"lam\d+", n) is not None),
    ("timing", "frame timing (ns)", lambda n: n.endswith("_ns")),
    ("counters", "counters and flags", lambda n: n in ("missed", "rejected", "faults", "fresh", "stale",
                                                        "fault", "flags", "in_seq", "tx_seq", "tx_flags")),
]


def die(msg, code=2):
    sys.stderr.write("hilstep-plot: %s\n" % msg)
    sys.exit(code)


def bare(col):
    """'out_speed[m/s]' -> ('out_speed', 'm/s'); 'road_z [m]' -> ('road_z', 'm')."""
    m = re.fullmatch(r"\s*([^\[\(]*?)\s*(?:[\[\(]\s*([^\]\)]*?)\s*[\]\)])?\s*", col)
    return (m.group(1), m.group(2) or "") if m else (col.strip(), "")


def read(path):
    try:
        f = open(path, newline="")
    except OSError as e:
        die("cannot open %s: %s" % (path, e.strerror))
    head, rows = None, []
    with f:
        for ln, rec in enumerate(csv.reader(f), 1):
            if not rec or rec[0].lstrip().startswith("#"):
                continue
            if head is None:
                head = [c.strip() for c in rec]
                continue
            if len(rec) != len(head):
                die("%s:%d: %d fields, the header has %d" % (path, ln, len(rec), len(head)))
            row = []
            for k, v in enumerate(rec):
                try:
                    row.append(float(v))
                except ValueError:
                    die("%s:%d: field %d (%s) is not a number: '%s'" % (path, ln, k + 1, head[k], v))
            rows.append(row)
    if head is None:
        die("%s: no header row" % path)
    if not rows:
        die("%s: no data rows" % path)
    return head, rows


def read_mdf(path):
    """hilstep-rt's MDF4 log as (channel names, rows): the first data group's one channel group
    of fixed-length sorted records (integers, floats), as hs_mdf.c writes them."""
    try:
        with open(path, "rb") as f:
            b = f.read()
    except OSError as e:
        die("cannot open %s: %s" % (path, e.strerror))

    def block(off, want):
        if off + 24 > len(b) or b[off:off + 4] != want:
            die("%s: no %s block at offset %d (not an MDF4 file, or cut off)" % (path, want.decode(), off))
        length, n = struct.unpack_from("<QQ", b, off + 8)
        if off + length > len(b):
            die("%s: %s block at %d runs past the end of the file" % (path, want.decode(), off))
        return struct.unpack_from("<%dQ" % n, b, off + 24), off + 24 + 8 * n

    def text(off):
        if not off:
            return ""
        blk = b[off:off + 4]
        _, d = block(off, blk if blk in (b"##TX", b"##MD") else b"##TX")
        return b[d:b.index(b"\0", d)].decode("utf-8")

    if len(b) < 64 or b[:8] not in (b"MDF     ", b"UnFinMF "):
        die("%s: not an MDF4 file (no 'MDF     ' identification)" % path)
    unfinished = b[:8] == b"UnFinMF "
    hd, _ = block(64, b"##HD")
    dg, dgd = block(hd[0], b"##DG")
    if b[dgd]:
        die("%s: record ids (unsorted data) are not read here" % path)
    cg, cgd = block(dg[1], b"##CG")
    cycles, = struct.unpack_from("<Q", b, cgd + 8)
    rec, = struct.unpack_from("<I", b, cgd + 24)
    fmt = {(0, 1): "<B", (0, 2): "<H", (0, 4): "<I", (0, 8): "<Q", (2, 1): "<b", (2, 2): "<h",
           (2, 4): "<i", (2, 8): "<q", (4, 4): "<f", (4, 8): "<d"}
    chans, off = [], cg[1]
    while off:
        cn, d = block(off, b"##CN")
        _, _, dtype, bit_off, byte_off, bits = struct.unpack_from("<4B2I", b, d)
        key = (dtype, bits // 8)
        if key not in fmt or bit_off:
            die("%s: channel %s: data type %d of %d bits is not read here" % (path, text(cn[2]), dtype, bits))
        chans.append((text(cn[2]), byte_off, fmt[key]))
        off = cn[0]
    _, dtd = block(dg[2], b"##DT")
    nbytes = struct.unpack_from("<Q", b, dg[2] + 8)[0] - 24
    if unfinished:  # the last ##DT runs to the end of the file; whole records only
        nbytes = len(b) - dtd
        cycles = nbytes // rec
        sys.stderr.write("hilstep-plot: note: %s is unfinalized (a run cut off): %d complete records "
                         "recovered\n" % (path, cycles))
    if cycles * rec > nbytes or not chans:
        die("%s: %d records of %d bytes, the data block holds %d" % (path, cycles, rec, nbytes))
    rows = [[float(struct.unpack_from(f, b, dtd + i * rec + o)[0]) for _, o, f in chans]
            for i in range(cycles)]
    if not rows:
        die("%s: no records" % path)
    return [c[0] for c in chans], rows


def main():
    ap = argparse.ArgumentParser(prog="hilstep-plot", description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv")
    ap.add_argument("--out", help="directory for the PNGs (default: the CSV's)")
    ap.add_argument("--columns", help="comma-separated column names: one plot of just these")
    ap.add_argument("--title", help="title prefix (default: the file name)")
    a = ap.parse_args()
    head, rows = read_mdf(a.csv) if a.csv.lower().endswith(".mf4") else read(a.csv)
    names = [bare(h)[0] for h in head]
    xi = next((i for i, h in enumerate(head) if h in TIME_COLS or names[i] == "t"), None)
    if xi is None:
        die("%s:1: no time column (t or t_s)" % a.csv)
    plots = []
    if a.columns:
        want = [c.strip() for c in a.columns.split(",") if c.strip()]
        idx = []
        for w in want:
            b = bare(w)[0]  # a signal matches with or without its in_/out_ prefix and unit
            hit = [i for i, h in enumerate(head) if h == w or names[i] in (b, "in_" + b, "out_" + b)]
            if not hit:
                die("%s:1: no column '%s' (columns: %s)" % (a.csv, w, ", ".join(head)))
            idx.append(hit[0])
        plots.append(("columns", "selected columns", idx))
    else:
        taken = {xi}
        for key, title, test in GROUPS:
            idx = [i for i, n in enumerate(names) if i not in taken and test(n)]
            taken.update(idx)
            if idx:
                plots.append((key, title, idx))
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        die("needs python3-matplotlib (Debian: apt-get install python3-matplotlib)")
    out = a.out or os.path.dirname(os.path.abspath(a.csv))
    os.makedirs(out, exist_ok=True)
    stem = os.path.splitext(os.path.basename(a.csv))[0]
    label = a.title or os.path.basename(a.csv)
    x = [r[xi] for r in rows]
    for key, title, idx in plots:
        # One panel per unit, so metres and newtons do not share an axis.
        units = []
        for i in idx:
            u = bare(head[i])[1]
            if u not in units:
                units.append(u)
        fig, axes = plt.subplots(len(units), 1, sharex=True, squeeze=False,
                                 figsize=(8, 2.2 + 1.8 * len(units)))
        for ax, u in zip(axes[:, 0], units):
            for i in idx:
                if bare(head[i])[1] != u:
                    continue
                ys = [r[i] for r in rows]
                ax.plot(x, ys, lw=1.0, label=names[i])
            ax.set_ylabel(u if u else "value")
            ax.grid(True, lw=0.3)
            ax.legend(fontsize=7, loc="best", ncol=1 + len([i for i in idx if bare(head[i])[1] == u]) // 8)
        axes[-1, 0].set_xlabel("t (s)")
        axes[0, 0].set_title("%s: %s" % (label, title))
        fig.tight_layout()
        path = os.path.join(out, "%s_%s.png" % (stem, key))
        try:
            fig.savefig(path, dpi=100)
        except OSError as e:
            die("cannot write %s: %s" % (path, e.strerror), 3)
        plt.close(fig)
        print(path)
    finite = all(math.isfinite(v) for r in rows for v in r)
    if not finite:
        sys.stderr.write("hilstep-plot: note: %s has non-finite values (nan/inf); they are gaps in the plots\n" % a.csv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
