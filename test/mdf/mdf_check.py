#!/usr/bin/python3
"""mdf_check.py - mdf-test's checks of one hilstep-rt MDF4 log against the telemetry CSV the
same run wrote from the same rows (--log FILE.csv --log FILE.mf4), through the independent
reader test/mdf/mdf_reader.py.

usage: mdf_check.py MODE FILE.mf4 FILE.csv [STATS | MIN]
  full    a complete run: finalized file, every CSV row present, values bit for bit
  killed  a run killed with SIGKILL: read strictly (no recovery): finalized, the ##DT holds
          exactly the declared records, at least MIN of them (the CSV's rows flushed more than
          100 ms before the kill, test/mdf/mdf_kill.py), at most the CSV's, all bit for bit
  cut     a run whose disk filled up (ulimit -f): the records in the file are the ones its
          counts and the stats name, a prefix of the run, bit for bit
"Bit for bit": a CSV field printed with %.17g (q, u, z, in_*, out_*) parses to the double
whose 8 bytes are in the record; integer fields equal; the three fields the CSV rounds (t_s
%.9f, gmax and err_est %.3e) equal the record's value printed the same way. Ends with
"N passed, N failed"."""
import math
import re
import struct
import sys

import mdf_reader

ROUNDED = {"t_s": "%.9f", "gmax": "%.3e", "err_est": "%.3e"}
passed = failed = 0


def ok(msg):
    global passed
    passed += 1
    print("  ok   " + msg)


def ko(msg):
    global failed
    failed += 1
    print("  FAIL " + msg)


def check(cond, good, bad):
    (ok if cond else ko)(good if cond else bad)
    return cond


def read_csv(path):
    """Header and complete rows (a killed run may leave no partial line; one is skipped)."""
    with open(path, newline="") as f:
        text = f.read()
    lines = text.split("\n")
    tail = lines.pop()  # after the last newline: "" when the file ends in a complete row
    head = lines[0].split(",")
    return head, [ln.split(",") for ln in lines[1:]], tail


def unit_of(col):
    """The unit the CSV names for a column: its [unit], s for t_s, ns for *_ns, else none."""
    m = re.fullmatch(r"[^\[]*\[(.*)\]", col)
    if m:
        return m.group(1)
    return "s" if col == "t_s" else "ns" if col.endswith("_ns") else ""


def same(field, value, raw, col, ch):
    """Whether a CSV field and the record's value (and its bytes raw) are the same number."""
    if col in ROUNDED:
        if math.isnan(value):
            return field.lstrip("-") == "nan"
        return ROUNDED[col] % value == field
    if ch["data_type"] != 4:
        return int(field) == value
    f = float(field)
    if math.isnan(f):
        return math.isnan(value)
    return struct.pack("<d", f) == raw


def compare(g, head, rows, n):
    """Records 0..n-1 against CSV rows 0..n-1: (bad count, first bad description)."""
    bad, first = 0, None
    chans = g["channels"]
    for i in range(n):
        rec, row = g["raw"][i], rows[i]
        for k, ch in enumerate(chans):
            raw = rec[ch["byte_offset"]:ch["byte_offset"] + ch["bytes"]]
            if not same(row[k], g["rows"][i][k], raw, head[k], ch):
                bad += 1
                if first is None:
                    first = "row %d %s: CSV %s, MDF %r" % (i, head[k], row[k], g["rows"][i][k])
    return bad, first


def structure(m, head, mode):
    check(m["version"] == 410 and m["version_str"] == "4.10", "##ID: MDF 4.10 (version 410)",
          "##ID: version %s (%d)" % (m["version_str"], m["version"]))
    check(len(m["groups"]) == 1, "one data group (the run's frame rate)", "%d data groups" % len(m["groups"]))
    g = m["groups"][0]
    names = [c["name"] for c in g["channels"]]
    check(names == head, "%d channels, named as the CSV's columns, in its order" % len(names),
          "channel names %s != CSV header %s" % (names, head))
    units = [c["unit"] for c in g["channels"]]
    want = [unit_of(h) for h in head]
    check(units == want, "units as the CSV names them (%s)" % ", ".join(sorted(set(u for u in want if u))),
          "units %s != %s" % (units, want))
    ms = g["master"]
    check(ms["name"] == "t_s" and ms["sync"] == 1 and ms["unit"] == "s" and ms["data_type"] == 4 and ms["bytes"] == 8,
          "master channel t_s: sync type 1 (time), s, float64",
          "master channel %s sync %d unit %s" % (ms["name"], ms["sync"], ms["unit"]))
    check("<tool_id>hilstep-rt</tool_id>" in m["history"], "##FH names the tool", "##FH comment: %r" % m["history"])
    return g


def run(mode, mf4, csvp, stats, min_records=0, data=None):
    """One file's checks (ok/ko lines); returns the reader's result."""
    head, rows, tail = read_csv(csvp)
    if mode == "killed":
        m = mdf_reader.read(mf4, strict=True, data=data)
        check(m["finalized"] and m["unfin_flags"] == 0,
              "killed: strict read, no recovery: ##ID 'MDF     ', finalized, ##DT = cycle count x record bytes",
              "killed: finalized %s flags 0x%x" % (m["finalized"], m["unfin_flags"]))
    else:
        m = mdf_reader.read(mf4)
        check(m["finalized"] and m["unfin_flags"] == 0, "##ID 'MDF     ', finalized (id_unfin_flags 0)",
              "finalized %s flags 0x%x" % (m["finalized"], m["unfin_flags"]))
    g = structure(m, head, mode)
    n = g["cycles"]
    t = [r[head.index("t_s")] for r in g["rows"]]
    check(all(b > a for a, b in zip(t, t[1:])), "the master channel increases strictly over %d records" % n,
          "t_s not increasing")
    if mode == "full":
        check(n == len(rows) and tail == "" and n > 0, "%d records = the CSV's %d rows" % (n, len(rows)),
              "%d records, CSV %d rows (tail %r)" % (n, len(rows), tail))
        if stats:
            check(stats.get("telemetry_mdf_records") == str(n) and stats.get("telemetry_mdf_lost") == "0",
                  "stats: telemetry_mdf_records %d, lost 0" % n, "stats: %s / %s" %
                  (stats.get("telemetry_mdf_records"), stats.get("telemetry_mdf_lost")))
    elif mode == "killed":
        check(0 < min_records <= n <= len(rows),
              "killed: %d records declared, >= the %d CSV rows flushed 100 ms before the kill, <= the CSV's %d"
              % (n, min_records, len(rows)),
              "killed: %d records declared, CSV rows flushed 100 ms before the kill %d, CSV %d"
              % (n, min_records, len(rows)))
        print("  info killed: %d records, %d trailing bytes no block covers, CSV %d rows"
              % (n, m["trailing"], len(rows)))
    elif mode == "cut":
        check(stats.get("telemetry_mdf_records") == str(n) and int(stats.get("telemetry_mdf_lost", "0")) > 0
              and g["dt_bytes"] == n * g["record_bytes"],
              "disk full: %d records in the file = stats' telemetry_mdf_records, %s lost, no partial record"
              % (n, stats.get("telemetry_mdf_lost")),
              "disk full: %d records, stats %s records %s lost, DT %d bytes" %
              (n, stats.get("telemetry_mdf_records"), stats.get("telemetry_mdf_lost"), g["dt_bytes"]))
    k = min(n, len(rows))
    bad, first = compare(g, head, rows, k)
    check(bad == 0 and k > 0, "%d records x %d channels equal the CSV's rows bit for bit" % (k, len(head)),
          "%d of %d rows' fields differ: first %s" % (bad, k, first))
    return m


def main():
    mode, mf4, csvp = sys.argv[1:4]
    stats, min_records = {}, 0
    if mode == "killed" and len(sys.argv) < 5:
        sys.exit("mdf_check.py killed: MIN (the CSV rows flushed 100 ms before the kill) is required")
    if len(sys.argv) > 4 and mode == "killed":
        min_records = int(sys.argv[4])
    elif len(sys.argv) > 4:
        for ln in open(sys.argv[4]):
            k, _, v = ln.strip().partition("=")
            stats[k] = v
    run(mode, mf4, csvp, stats, min_records)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (mdf_reader.MdfError, OSError, ValueError, IndexError) as e:
        ko("reading: %s" % e)
        print("%d passed, %d failed" % (passed, failed))
        sys.exit(1)
