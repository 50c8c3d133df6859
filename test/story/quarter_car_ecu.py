#!/usr/bin/python3
# quarter_car_ecu.py - an active-suspension ECU for model/mech/quarter_car.hsm: it plays
# the road of quarter_car_road.csv and damps the suspension with F_act = -c d(susp_travel)/dt.
import hashlib, hmac, os, socket, struct, sys, time, zlib
PLANT, ME = ("127.0.0.1", 47001), ("127.0.0.1", 47002)     # hilstep-rt --listen / --peer
cfg = os.environ.get("XDG_CONFIG_HOME") or os.path.expanduser("~/.config")  # the plant's key:
key = bytes.fromhex("".join(l.split("#")[0] for l in open(cfg + "/hilstep/link.key")))
tag = lambda b: hmac.new(key, b, hashlib.sha256).digest()[:16]   # HMAC-SHA-256-128
road = [float(l.split(",")[1]) for l in open("model/mech/quarter_car_road.csv") if l[0].isdigit()]
c, dt, HDR = 2000.0, 1e-3, "<IBBHIIQII"                     # N s/m, s, the frame header
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(ME); s.setblocking(False)
seq = used = 0; x0 = None; F = 0.0; chal = bytes(8)        # the plant's run challenge
while True:
    try:
        while True:                                         # every valid plant frame, in order
            d, src = s.recvfrom(2048)
            if src != PLANT or len(d) != 76 or not hmac.compare_digest(tag(d[:56]), d[56:72]):
                continue                                    # (CRC at 72: the MAC decides here)
            magic, ver, kind, n, _, pseq, _, _, flags = struct.unpack_from(HDR, d)
            if (magic, ver, kind, n) == (0x31465348, 3, 2, 2) and pseq > used:
                acc, x = struct.unpack_from("<2d", d, 32)    # outputs: body_acc, susp_travel
                F = F if x0 is None else -c * (x - x0) / (dt * (pseq - used))
                x0, used, chal = x, pseq, d[48:56]
                if flags & 8: sys.exit(0)                   # FINAL: the plant has finished
    except BlockingIOError: pass                            # nothing queued
    z = road[min(used // 10, len(road) - 1)]                 # road at the plant's time (10 ms rows)
    seq += 1                                                # inputs: road_z, F_act
    body = struct.pack(HDR, 0x31465348, 3, 1, 2, 0x0EC00002, seq, time.monotonic_ns(), used, 0)
    body += struct.pack("<2d", z, F) + chal; body += tag(body)   # values, challenge, MAC
    s.sendto(body + struct.pack("<I", zlib.crc32(body)), PLANT); time.sleep(dt)
