#!/usr/bin/python3
"""Plays the ECU's receiving end for plant-test: binds HOST:PORT, decodes every frame the
plant sends (hil/FRAME.md: 32-byte header '<IBBHIIQII', count doubles, CRC-32) until a FINAL
frame or TIMEOUT seconds, and prints one line of counts:
  frames=N nonfinite=N fault=N safe=N final=N last_flags=N bad=N
nonfinite counts frames with a NaN or Inf value; bad counts datagrams that are no frame.
Usage: wire_rx.py HOST PORT TIMEOUT"""
import math
import socket
import struct
import sys
import zlib

FAULT, SAFE, FINAL = 0x1, 0x4, 0x8


def main():
    host, port, timeout = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((host, port))
    s.settimeout(timeout)
    c = dict(frames=0, nonfinite=0, fault=0, safe=0, final=0, last_flags=0, bad=0)
    print("ready", flush=True)
    while True:
        try:
            d = s.recv(4096)
        except socket.timeout:
            break
        if len(d) < 36 or zlib.crc32(d[:-4]) != struct.unpack("<I", d[-4:])[0]:
            c["bad"] += 1
            continue
        magic, _ver, _kind, count, _sess, _seq, _ns, _ack, flags = struct.unpack("<IBBHIIQII", d[:32])
        if magic != 0x31465348 or len(d) != 36 + 8 * count:
            c["bad"] += 1
            continue
        vals = struct.unpack("<%dd" % count, d[32:32 + 8 * count])
        c["frames"] += 1
        c["nonfinite"] += any(not math.isfinite(v) for v in vals)
        c["fault"] += bool(flags & FAULT)
        c["safe"] += bool(flags & SAFE)
        c["final"] += bool(flags & FINAL)
        c["last_flags"] = flags
        if flags & FINAL:
            break
    print(" ".join("%s=%d" % kv for kv in c.items()), flush=True)


main()
