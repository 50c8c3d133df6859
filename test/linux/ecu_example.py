#!/usr/bin/python3
# ecu_example.py - the complete ECU of hil/FRAME.md, verbatim: a PI speed controller for the
# circular-track plant written from the frame document alone. linux-test closes a loop with it.
import socket, struct, zlib, time
PLANT, ME = ("127.0.0.1", 47001), ("127.0.0.1", 47002)   # hilstep-rt --listen / --peer
kp, ki, v_ref, dt = 20.0, 100.0, 1.0, 1e-3
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(ME); s.setblocking(False)
session, seq, used, integ, v, t = 0x0EC00001, 0, 0, 0.0, None, time.monotonic()
while True:
    try:
        while True:                                           # newest valid plant frame
            d, src = s.recvfrom(2048)
            if src != PLANT or len(d) != 68 or zlib.crc32(d[:-4]) != struct.unpack_from("<I", d, 64)[0]:
                continue
            magic, ver, kind, n, _, pseq, _, _, flags = struct.unpack_from("<IBBHIIQII", d)
            if (magic, ver, kind, n) == (0x31465348, 1, 2, 4):
                v, used = struct.unpack_from("<d", d, 32)[0], pseq
                if flags & 8: raise SystemExit                # FINAL: plant finished
    except BlockingIOError:
        pass
    F = 0.0
    if v is not None:                                         # PI, integrator in m
        integ += (v - v_ref) * dt
        F = max(-50.0, min(50.0, -kp * (v - v_ref) - ki * integ))
    seq += 1
    body = struct.pack("<IBBHIIQII", 0x31465348, 1, 1, 1, session, seq,
                       time.monotonic_ns(), used, 0) + struct.pack("<d", F)
    s.sendto(body + struct.pack("<I", zlib.crc32(body)), PLANT)
    t += dt; time.sleep(max(0.0, t - time.monotonic()))
