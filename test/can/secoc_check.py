#!/usr/bin/python3
"""SecOC (hil/CAN.md, "Security") against an implementation apart from hil/hs_secoc.c: the MAC
by Python's hmac module (test/can/e2e.py secoc_tag), the frames by struct. On
test/can/circular_track_secoc.dbc's EcuCommand (F_t, 4-bit counter, CRC-8 in byte 3, 8-bit
freshness in byte 4, 24-bit MAC in bytes 5..7), under a random key:
  - 300 frames our codec writes (hilstep-can-tool encode DBC KEY) carry the freshness k and
    the MAC Python computes for it (the 8-bit freshness wraps past 255);
  - Python's own frames, fed to our receive side (hilstep-can-tool receive DBC KEY): every
    genuine one accepted; a forged one (+50 N, the next counter and freshness, the CRC right,
    a MAC that is not the key's) refused as secoc_mac; replays (the last frame again, a frame
    from 6 frames back) refused as secoc_stale; a frame under another key secoc_mac; each time
    the genuine frame after it is accepted (nothing the attacker sent moved the sequence);
  - without the key every frame is refused.
usage: secoc_check.py BUILD_DIR. Ends with "N passed, N failed"."""
import logging
import os
import struct
import subprocess
import sys

logging.disable(logging.WARNING)
import canmatrix.formats  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402

B = sys.argv[1]
DBC = "test/can/circular_track_secoc.dbc"
TOOL = os.path.join(B, "hilstep-can-tool")
passed = failed = 0


def check(cond, what):
    global passed, failed
    print("  %s %s" % ("ok  " if cond else "FAIL", what))
    passed, failed = passed + (1 if cond else 0), failed + (0 if cond else 1)


key, key2 = os.urandom(32), os.urandom(32)
fr = canmatrix.formats.loadp_flat(DBC).frame_by_name("EcuCommand")
did, fvs, macs, crcb = e2e.secoc_layout(fr)
prof, _, ctrs, _ = e2e.layout(fr)
mb, ml = macs.start_bit // 8, int(macs.size) // 8
check((did, fvs.start_bit, int(fvs.size), mb, ml, crcb) == (0x1100, 32, 8, 5, 3, 3),
      "layout read by canmatrix: data id 0x%04X, freshness %d|%d, MAC bytes %d..%d, CRC byte %s"
      % (did, fvs.start_bit, int(fvs.size), mb, mb + ml - 1, crcb))

# our codec's frames, judged by Python's MAC
N = 300
forces = [49.9 * ((k * 37) % 101 - 50) / 50.0 for k in range(N)]
enc = subprocess.run([TOOL, "encode", DBC, key.hex()], capture_output=True, text=True,
                     input="".join("EcuCommand %.3f\n" % f for f in forces))
frames = [bytes.fromhex(l.split()[2]) for l in enc.stdout.splitlines()]
bad = [k for k, d in enumerate(frames)
       if d[4] != (k + 1) & 0xFF or d[mb:mb + ml] != e2e.secoc_tag(key, did, d, mb, ml, crcb, k + 1)
       or d[crcb] != e2e.e2e_crc(prof, did, d, crcb)]
check(enc.returncode == 0 and len(frames) == N and not bad,
      "%d frames of hilstep-can-tool encode: freshness k (8 bits, wrapping), MAC = Python hmac's, CRC = e2e.py's: %d wrong"
      % (len(frames), len(bad)))


def frame(force, ctr, fv, k=None, mac=None):
    d = bytearray(struct.pack("<h", int(round(force / 0.002))) + bytes([ctr & 15, 0, fv & 0xFF, 0, 0, 0]))
    d[mb:mb + ml] = mac if mac is not None else e2e.secoc_tag(k if k is not None else key, did, d, mb, ml, crcb, fv)
    d[crcb] = e2e.e2e_crc(prof, did, d, crcb)
    return bytes(d)


# Python's stream: genuine frames 1..40 with attacks between them
stream, want = [], []
genuine = []
for j in range(1, 41):
    g = frame(2.0, j, j)
    genuine.append(g)
    stream.append(g)
    want.append("accepted")
    if j % 8 == 3:
        stream.append(frame(50.0, j + 1, j + 1, mac=bytes(ml)))        # forged: no key, the rest right
        want.append("secoc_mac")
    if j % 8 == 5:
        stream.append(g)                                             # the last frame again
        want.append("secoc_stale")
    if j % 8 == 7 and j > 6:
        stream.append(genuine[j - 7])                                # 6 frames back
        want.append("secoc_stale")
    if j % 8 == 0:
        stream.append(frame(50.0, j + 1, j + 1, k=key2))             # another key
        want.append("secoc_mac")
rcv = subprocess.run([TOOL, "receive", DBC, key.hex()], capture_output=True, text=True,
                     input="".join("EcuCommand %s\n" % d.hex().upper() for d in stream))
got = [l.split()[1] for l in rcv.stdout.splitlines()]
att = sum(1 for w in want if w != "accepted")
check(rcv.returncode == 0 and got == want,
      "Python's 40 genuine frames accepted, its %d attacks refused (forged and another key: secoc_mac; replays: "
      "secoc_stale), each followed by an accepted genuine frame%s"
      % (att, "" if got == want else ": got %s" % [(i, a, b) for i, (a, b) in enumerate(zip(got, want)) if a != b][:4]))
nokey = subprocess.run([TOOL, "receive", DBC], capture_output=True, text=True,
                       input="".join("EcuCommand %s\n" % d.hex().upper() for d in genuine[:5]))
check(nokey.stdout.split() == ["EcuCommand", "secoc_mac"] * 5, "without the key: 5 genuine frames refused (secoc_mac)")
print("secoc: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
