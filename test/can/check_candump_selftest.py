#!/usr/bin/python3
"""Holds test/can/check_candump.py's loss accounting against mutations of a real bus run.

usage: check_candump_selftest.py OUTDIR TAG DBC

OUTDIR/TAG.candump, TAG_rt.csv, TAG_rt.stats, TAG_ecu.stats are a run the checker passes
(test/rtkernel/run.sh calls this after its own check of the run). Each case copies the run,
changes it as a loaded kernel or a forger would, and runs the checker:
  - frames refused by the plant's kernel (three plant frames, one of each of the first three
    plant ids, taken off the bus and counted as can_tx_errors): passes, realigned;
  - the same frames gone without the count: fails (the bus lost what the plant says it sent);
  - one error counted but three frames gone: fails;
  - three refused frames and, later, one frame's payload changed by one bit: fails (a
    realignment never hides a wrong value);
  - a payload changed by one bit, nothing lost: fails.
Prints "candump-selftest: N passed, N failed"; exit 0 when every case behaved."""
import os
import shutil
import subprocess
import sys
import tempfile

import logging
logging.disable(logging.WARNING)  # canmatrix warns about optional formats it cannot load
import canmatrix.formats  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import e2e  # noqa: E402


def read(p):
    with open(p) as f:
        return f.read().splitlines()


def write(p, lines):
    with open(p, "w") as f:
        f.write("\n".join(lines) + "\n")


def stats_set(lines, key, delta):
    out, seen = [], False
    for ln in lines:
        if ln.startswith(key + "="):
            ln = "%s=%d" % (key, int(float(ln.split("=", 1)[1])) + delta)
            seen = True
        out.append(ln)
    if not seen:
        out.append("%s=%d" % (key, delta))
    return out


def split(line):
    """(head through the last '#', the FD flags nibble or '', payload bytes)."""
    head, data = line.rsplit("#", 1)
    fd = head.endswith("#")
    return head + "#", (data[:1] if fd else ""), bytearray(bytes.fromhex(data[1:] if fd else data))


def value_bit(db, line):
    """A payload bit of line's message whose flip changes a value signal's decoded value (not
    an E2E counter or CRC, which the E2E check would catch on its own); None when none does."""
    ident = int(line.split()[2].split("#", 1)[0], 16)
    fr = next((f for f in db.frames if f.arbitration_id.id == ident), None)
    if fr is None:
        return None
    _, _, b = split(line)
    base = fr.decode(bytearray(b))
    names = [sg.name for sg in fr.signals if not e2e.is_e2e_signal(sg)]
    for bit in range(len(b) * 8):
        c = bytearray(b)
        c[bit // 8] ^= 1 << (bit % 8)
        dec = fr.decode(c)
        if any(dec[n].raw_value != base[n].raw_value for n in names):
            return bit
    return None


def flip(line, bit):
    head, flags, b = split(line)
    b[bit // 8] ^= 1 << (bit % 8)
    return head + flags + b.hex().upper()


def main():
    if len(sys.argv) != 4:
        print("usage: check_candump_selftest.py OUTDIR TAG DBC")
        sys.exit(2)
    out, tag, dbc = sys.argv[1:]
    bus = read(os.path.join(out, tag + ".candump"))
    pst = read(os.path.join(out, tag + "_rt.stats"))
    plant_ids = []
    for ln in bus:
        ident = ln.split()[2].split("#", 1)[0]
        if ident not in plant_ids:
            plant_ids.append(ident)
    # The plant's ids: the ones whose count on the bus is the plant's can_tx_frames' share (the
    # plant sends first, at every tick); the ECU's ids are the rest. Told apart by the stats.
    tx = int(float(next(ln for ln in pst if ln.startswith("can_tx_frames=")).split("=", 1)[1]))
    count = {i: sum(1 for ln in bus if ln.split()[2].startswith(i + "#")) for i in plant_ids}
    mine, total = [], 0
    for i in sorted(count, key=lambda i: -count[i]):
        if total + count[i] <= tx:
            mine.append(i)
            total += count[i]
    if total != tx or len(mine) < 1:
        print("candump-selftest: cannot tell the plant's ids from %s (can_tx_frames %d)" % (tag, tx))
        sys.exit(2)
    # Three frames refused: spread over the plant's ids (round robin), a quarter into the run.
    at = {i: [k for k, ln in enumerate(bus) if ln.split()[2].startswith(i + "#")] for i in mine}
    drops = [at[mine[n % len(mine)]][len(at[mine[n % len(mine)]]) // 4 + 37 * n] for n in range(3)]
    # The forged frame: a later plant frame of a message without E2E if there is one (so that
    # only the decode can catch it), its value bit flipped.
    db = canmatrix.formats.loadp_flat(dbc)
    prot = set()
    for f in db.frames:
        if e2e.layout(f):
            prot.add("%X" % f.arbitration_id.id)
    cands = [k for k, ln in enumerate(bus) if ln.split()[2].split("#", 1)[0] in mine and k > max(drops) + 50]
    cands.sort(key=lambda k: int(bus[k].split()[2].split("#", 1)[0], 16) in
               {int(x, 16) for x in prot})
    later = next((k for k in cands if value_bit(db, bus[k]) is not None), None)
    if later is None:
        print("candump-selftest: no plant frame of %s with a value bit to flip" % tag)
        sys.exit(2)
    bit = value_bit(db, bus[later])
    unprot = int(bus[later].split()[2].split("#", 1)[0], 16) not in {int(x, 16) for x in prot}

    def case(name, expect_ok, lost, counted, flips):
        d = tempfile.mkdtemp(prefix="hs-cdst.")
        try:
            lines = [flip(ln, bit) if k in flips else ln for k, ln in enumerate(bus) if k not in lost]
            write(os.path.join(d, "c.candump"), lines)
            st = stats_set(stats_set(pst, "can_tx_frames", -counted), "can_tx_errors", counted)
            write(os.path.join(d, "p.stats"), st)
            r = subprocess.run([sys.executable, os.path.join(HERE, "check_candump.py"), os.path.join(d, "c.candump"),
                                dbc, os.path.join(out, tag + "_rt.csv"), os.path.join(d, "p.stats"),
                                os.path.join(out, tag + "_ecu.stats")], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, universal_newlines=True)
            good = (r.returncode == 0) == expect_ok and r.returncode in (0, 1)
            first = next((ln.strip() for ln in r.stdout.splitlines() if "FAIL" in ln), "every check ok")
            print("  %s %s: checker exit %d (%s)" % ("ok  " if good else "FAIL", name, r.returncode, first))
            return good
        finally:
            shutil.rmtree(d)

    n = len(drops)
    res = [case("%d plant frames refused by the kernel and counted: passes, realigned" % n, True, drops, n, ()),
           case("%d plant frames gone, none counted: fails" % n, False, drops, 0, ()),
           case("%d plant frames gone, 1 counted: fails" % n, False, drops, 1, ()),
           case("%d refused and counted, a later %s frame's value off by one bit: fails"
                % (n, "unprotected" if unprot else "protected"), False, drops, n,
                (later,)),
           case("a frame's payload off by one bit, nothing lost: fails", False, (), 0, (later,))]
    print("candump-selftest: %d passed, %d failed" % (sum(res), len(res) - sum(res)))
    sys.exit(0 if all(res) else 1)


main()
