#!/usr/bin/python3
# ecu_example.py - the complete ECU of hil/FRAME.md, verbatim: a PI speed controller for the
# circular-track plant written from the frame document alone. linux-test closes a loop with it.
import hashlib, hmac, os, socket, struct, time, zlib
PLANT, ME = ("127.0.0.1", 47001), ("127.0.0.1", 47002)   # hilstep-rt --listen / --peer
cfg = os.environ.get("XDG_CONFIG_HOME", "")                   # the plant's per-user key file
cfg = cfg if cfg.startswith("/") else os.path.expanduser("~/.config")
text = open(os.path.join(cfg, "hilstep", "link.key")).read()  # (start the plant first)
key = bytes.fromhex("".join(l.split("#")[0] for l in text.splitlines()))
tag = lambda b: hmac.new(key, b, hashlib.sha256).digest()[:16]  # HMAC-SHA-256-128
kp, ki, v_ref, dt = 20.0, 100.0, 1.0, 1e-3
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(ME); s.setblocking(False)
session, seq, used, integ, v, chal, t = 0x0EC00001, 0, 0, 0.0, None, None, time.monotonic()
while True:
    try:
        while True:                                           # newest valid plant frame
            d, src = s.recvfrom(2048)
            if src != PLANT or len(d) != 92 or zlib.crc32(d[:-4]) != struct.unpack_from("<I", d, 88)[0]:
                continue
            if not hmac.compare_digest(tag(d[:72]), d[72:88]):
                continue                                      # not from the key's holder
            magic, ver, kind, n, _, pseq, _, _, flags = struct.unpack_from("<IBBHIIQII", d)
            if (magic, ver, kind, n) == (0x31465348, 3, 2, 4):
                v, used, chal = struct.unpack_from("<d", d, 32)[0], pseq, d[64:72]
                if flags & 8: raise SystemExit                # FINAL: plant finished
    except BlockingIOError:
        pass
    F = 0.0
    if v is not None:                                         # PI, integrator in m
        integ += (v - v_ref) * dt
        F = max(-50.0, min(50.0, -kp * (v - v_ref) - ki * integ))
    if chal is not None:                                      # answer the plant's run challenge
        seq += 1
        body = struct.pack("<IBBHIIQII", 0x31465348, 3, 1, 1, session, seq,
                           time.monotonic_ns(), used, 0) + struct.pack("<d", F) + chal
        body += tag(body)
        s.sendto(body + struct.pack("<I", zlib.crc32(body)), PLANT)
    t += dt; time.sleep(max(0.0, t - time.monotonic()))
