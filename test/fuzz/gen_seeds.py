#!/usr/bin/python3
"""Writes the committed seed corpus of the fuzz harnesses (test/fuzz/corpus/NAME/).
Run from the repository root: /usr/bin/python3 test/fuzz/gen_seeds.py"""
import os
import struct
import zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")


def put(name, key, data):
    d = os.path.join(ROOT, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, key), "wb") as f:
        f.write(data)


def frame(kind, values, session=0x01020304, seq=42, send_ns=100000000, ack=41, flags=0):
    body = struct.pack("<IBBHIIQII", 0x31465348, 1, kind, len(values), session, seq, send_ns, ack,
                       flags) + b"".join(struct.pack("<d", v) for v in values)
    return body + struct.pack("<I", zlib.crc32(body))


# frame: [count][mode][datagrams as (len, bytes)]
golden = frame(1, [12.5])
put("frame", "golden", bytes([1, 0]) + golden)
put("frame", "golden_resealed", bytes([1, 1]) + bytes([len(golden)]) + golden)
put("frame", "plant_out", bytes([4, 2]) + frame(2, [1.0, 1.0, 1.0, 0.0]))
seqs = b"".join(bytes([44]) + frame(1, [float(i)], seq=s) for i, s in
                enumerate([1, 2, 2, 1, 5, 0x80000004, 6, 7]))
put("frame", "sequence", bytes([1, 8]) + seqs)
restart = b"".join(bytes([44]) + frame(1, [1.0], session=ss, seq=s) for ss, s in
                   [(7, 100), (7, 101), (8, 1), (7, 102), (8, 2), (8, 3)])
put("frame", "session_restart", bytes([1, 9]) + restart)
put("frame", "nonfinite", bytes([1, 8]) + bytes([44]) + frame(1, [float("nan")]))
put("frame", "clamp", bytes([1, 8]) + bytes([44]) + frame(1, [1e6]) + bytes([44]) + frame(1, [-1e300], seq=43))
put("frame", "empty", bytes([0, 0]))

# signal: [n][nin][nout] then 47 bytes per signal
def sig(name, unit, d, stale, scale, offset, lo, hi, fb):
    return bytes([name, unit, d]) + struct.pack("<I", stale) + struct.pack("<5d", scale, offset, lo, hi, fb)
ct = sig(0, 0, 0, 20, 1, 0, -50, 50, 0) + sig(1, 1, 1, 0, 1, 0, -1e9, 1e9, 0) + \
     sig(2, 2, 1, 0, 1, 0, -1e9, 1e9, 1) + sig(3, 2, 1, 0, 1, 0, -1e9, 1e9, 1) + sig(4, 2, 1, 0, 1, 0, -1e9, 1e9, 0)
put("signal", "circular_track", bytes([5, 1, 4]) + ct)
put("signal", "scaled", bytes([2, 1, 1]) + sig(0, 0, 0, 5, 0.01, 3, -10, 10, 3) + sig(1, 1, 1, 0, -2, 1, 0, 5, 1))
put("signal", "dup_name", bytes([2, 2, 0]) + sig(0, 0, 0, 5, 1, 0, -1, 1, 0) * 2)
put("signal", "bad_fallback", bytes([1, 1, 0]) + sig(0, 0, 0, 5, 1, 0, -1, 1, 2))
put("signal", "nan_scale", bytes([1, 1, 0]) + sig(0, 0, 0, 5, float("nan"), 0, -1, 1, 0))
put("signal", "empty", bytes([0, 0, 0]))

# cli: NUL-separated arguments
def cli(*a):
    return b"\0".join(x.encode() for x in a)
put("cli", "base", cli("--model", "car_axle", "--method", "j2", "--form", "index2", "--stab", "projection",
                       "--h", "1e-3", "--t", "3", "--csv", "x.csv", "--every", "10", "--hash"))
put("cli", "defaults", cli("--model", "car_axle", "--h", "1e-3", "--t", "3"))
put("cli", "params", cli("--model", "circular_track", "--param", "kp=20", "--param", "v_ref=2", "--h", "0.5e-3", "--t", "1"))
put("cli", "baumgarte", cli("--model", "car_axle", "--form", "index1", "--stab", "baumgarte", "--alpha", "100",
                            "--beta", "1e4", "--h", "1e-200", "--t", "0"))
put("cli", "huge", cli("--model", "test_eq", "--method", "explicit", "--h", "1", "--t", "1e19"))
put("cli", "not_multiple", cli("--model", "pendulum", "--jac", "fd", "--h", "0.3", "--t", "1"))
put("cli", "unknown_last", cli("--model", "car_axle", "--h", "1e-3", "--t", "1", "--frobnicate"))
put("cli", "help", cli("--help"))
put("cli", "ggl", cli("--model", "car_axle", "--method", "symplectic", "--form", "ggl", "--stab", "none", "--h", "2e-3", "--t", "0.5"))
