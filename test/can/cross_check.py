#!/usr/bin/python3
"""Holds hil/hs_can's codec against python3-canmatrix, an implementation of DBC semantics that
is not ours, bit for bit.

A DBC is generated from a fixed seed: classic and CAN FD messages (8, 12, 20, 64 bytes; 11- and
29-bit ids), Intel (@1) and Motorola (@0) signals of 1..64 bits at random non-overlapping
places, signed and unsigned, with factors and offsets such as 0.1, -40, 0.05, 1e-4. Then:
  encode: for random raw values r, the physical value r * factor + offset (exact, Decimal) goes
          to canmatrix (Signal.phys2raw, then Frame.encode packs the raw values) and, printed
          with 17 digits, to our encoder
          (build/hilstep-can-tool encode); the payloads must be equal byte for byte;
  decode: random payloads go to canmatrix's Frame.decode and to our decoder; the raw values must
          be equal and the physical values equal to 1e-12 relative.
Usage: cross_check.py TOOL WORKDIR. Prints "  ok ..." / "  FAIL ..." lines and
"can-cross: N passed, N failed"."""
import decimal
import os
import random
import subprocess
import sys

import logging
logging.disable(logging.WARNING)  # canmatrix warns about optional formats it cannot load
import canmatrix.formats  # noqa: E402

TOOL, WORK = sys.argv[1], sys.argv[2]
rng = random.Random(20261126)
passed = failed = 0


def ok(cond, what):
    global passed, failed
    if cond:
        passed += 1
        print("  ok   " + what)
    else:
        failed += 1
        print("  FAIL " + what)


def motorola_bits(start, length):
    """Payload bit positions (byte*8+bit) of a Motorola signal, MSB first."""
    out, p = [], start
    for _ in range(length):
        out.append(p)
        p = p + 15 if p % 8 == 0 else p - 1
    return out


def place(used, nbytes, length, intel):
    """A random free place for a signal; None when none was found."""
    for _ in range(200):
        if intel:
            start = rng.randrange(0, nbytes * 8 - length + 1)
            bits = list(range(start, start + length))
        else:
            start = rng.randrange(0, nbytes * 8)
            bits = motorola_bits(start, length)
            if max(bits) >= nbytes * 8:
                continue
        if not used.intersection(bits):
            used.update(bits)
            return start
    return None


FACTORS = [("1", "0"), ("0.1", "-40"), ("0.05", "0"), ("0.0001", "0"), ("2", "100"),
           ("0.5", "-0.25"), ("0.001", "12.5"), ("10", "-1000")]
msgs = []  # (name, id_dbc, size, fd, [(name, start, len, intel, signed, factor, offset)])
layouts = [(8, False, 0x101), (8, False, 0x7FF), (4, False, 0x23), (8, False, 0x80000000 | 0x18FF1234),
           (12, True, 0x300), (20, True, 0x301), (64, True, 0x80000000 | 0x1ABCDE), (64, True, 0x302)]
for k, (size, fd, did) in enumerate(layouts):
    used, sigs = set(), []
    lengths = [64] if k == 1 else []
    lengths += [rng.choice([1, 2, 3, 7, 8, 9, 12, 16, 17, 24, 31, 32, 33, 48]) for _ in range(12)]
    for j, ln in enumerate(lengths):
        if ln > size * 8:
            continue
        intel = rng.random() < 0.5
        start = place(used, size, ln, intel)
        if start is None:
            continue
        signed = ln > 1 and rng.random() < 0.5
        fac, off = rng.choice(FACTORS) if ln < 53 else ("1", "0")
        sigs.append(("S%d_%d" % (k, j), start, ln, intel, signed, fac, off))
    msgs.append(("M%d" % k, did, size, fd, sigs))

dbc = os.path.join(WORK, "cross.dbc")
with open(dbc, "w") as f:
    f.write('VERSION ""\n\nNS_ :\n\tBA_DEF_\n\tBA_\n\nBS_:\n\nBU_: A B\n\n')
    for name, did, size, fd, sigs in msgs:
        f.write("BO_ %d %s: %d A\n" % (did, name, size))
        for s, start, ln, intel, signed, fac, off in sigs:
            f.write(' SG_ %s : %d|%d@%d%s (%s,%s) [0|0] "u" B\n'
                    % (s, start, ln, 1 if intel else 0, "-" if signed else "+", fac, off))
        f.write("\n")
    f.write('BA_DEF_ BO_ "VFrameFormat" ENUM "StandardCAN","ExtendedCAN","reserved","reserved",'
            '"reserved","reserved","reserved","reserved","reserved","reserved","reserved","reserved",'
            '"reserved","reserved","StandardCAN_FD","ExtendedCAN_FD";\n')
    f.write('BA_DEF_DEF_ "VFrameFormat" "StandardCAN";\n')
    for name, did, size, fd, sigs in msgs:
        if fd:
            f.write('BA_ "VFrameFormat" BO_ %d %d;\n' % (did, 15 if did & 0x80000000 else 14))

cm = canmatrix.formats.loadp_flat(dbc)
frames = {fr.name: fr for fr in cm.frames}
nsig = sum(len(m[4]) for m in msgs)
intel_n = sum(1 for m in msgs for s in m[4] if s[3])
ok(len(frames) == len(msgs) and all(frames[m[0]].is_fd == m[3] for m in msgs),
   "canmatrix reads the generated DBC: %d messages (%d CAN FD), %d signals (%d Intel, %d Motorola)"
   % (len(msgs), sum(m[3] for m in msgs), nsig, intel_n, nsig - intel_n))
r = subprocess.run([TOOL, "check", dbc], capture_output=True, text=True)
ok(r.returncode == 0 and r.stdout.startswith("ok %d messages %d signals" % (len(msgs), nsig)),
   "our parser reads it too: " + (r.stdout.strip() or r.stderr.strip()))

D = decimal.Decimal
decimal.getcontext().prec = 60
enc_in, enc_want = [], []
dec_in, dec_want = [], []
for name, did, size, fd, sigs in msgs:
    fr = frames[name]
    for trial in range(60):
        vals, phys = [], {}
        for s, start, ln, intel, signed, fac, off in sigs:
            lo, hi = (-(1 << (ln - 1)), (1 << (ln - 1)) - 1) if signed else (0, (1 << ln) - 1)
            raw = rng.choice([lo, hi, 0, 1 if hi >= 1 else 0, rng.randint(lo, hi)])
            p = D(raw) * D(fac) + D(off)
            phys[s] = p
            # 17 significant digits name the double nearest p; our encoder rounds (p - off)/fac
            # back to the integer raw.
            vals.append(repr(float(p)) if ln < 53 else "r:%d" % raw)
        enc_in.append(name + " " + " ".join(vals))
        # canmatrix's Frame.encode packs raw values: its own Signal.phys2raw makes them.
        raws = {sg.name: sg.phys2raw(phys[sg.name]) for sg in fr.signals}
        enc_want.append(fr.encode(raws).hex().upper())
        payload = bytes(rng.getrandbits(8) for _ in range(size))
        if trial == 0:
            payload = bytes([0xFF] * size)
        elif trial == 1:
            payload = bytes(size)
        dec_in.append(name + " " + payload.hex().upper())
        got = fr.decode(payload)
        dec_want.append([(int(got[s[0]].raw_value), D(got[s[0]].phys_value)) for s in sigs])

r = subprocess.run([TOOL, "encode", dbc], input="\n".join(enc_in) + "\n", capture_output=True, text=True)
ours = [ln.split()[2] if len(ln.split()) == 3 else "" for ln in r.stdout.splitlines()]
bad = [i for i in range(len(enc_in)) if i >= len(ours) or ours[i] != enc_want[i]]
ok(r.returncode == 0 and not bad,
   "encode: %d payloads bit-identical to canmatrix's (%s)" % (len(enc_in) - len(bad), "none differ" if not bad else
   "first difference: %s -> ours %s, canmatrix %s" % (enc_in[bad[0]], ours[bad[0]] if bad[0] < len(ours) else "?", enc_want[bad[0]])))

r = subprocess.run([TOOL, "decode", dbc], input="\n".join(dec_in) + "\n", capture_output=True, text=True)
lines = r.stdout.splitlines()
nbad_raw = nbad_phys = nvals = 0
first = ""
for i, want in enumerate(dec_want):
    f = lines[i].split() if i < len(lines) else []
    for j, (wraw, wphys) in enumerate(want):
        nvals += 1
        try:
            raw, phys = int(f[1 + 2 * j]), D(f[2 + 2 * j])
        except (IndexError, ValueError):
            raw, phys = None, None
        if raw != wraw:
            nbad_raw += 1
            first = first or "%s signal %d: raw ours %s canmatrix %s" % (dec_in[i], j, raw, wraw)
        elif phys is None or abs(phys - wphys) > abs(wphys) * D("1e-12") + D("1e-300"):
            nbad_phys += 1
            first = first or "%s signal %d: phys ours %s canmatrix %s" % (dec_in[i], j, phys, wphys)
ok(r.returncode == 0 and nbad_raw == 0 and nbad_phys == 0,
   "decode: %d values of %d random payloads, raw identical to canmatrix's, physical within 1e-12%s"
   % (nvals, len(dec_in), "" if not first else "; " + first))
print("can-cross: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
