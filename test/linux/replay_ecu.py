#!/usr/bin/python3
# replay_ecu.py - a scripted ECU for the quarter car (model/mech/quarter_car.hsm: inputs road_z,
# F_act; outputs body_acc, susp_travel) that answers every plant frame with the next input
# frame, so the plant applies them in order without a race against its clock. The values are a
# function of the frame's seq (inputs(seq)), so a test knows from the plant's telemetry (its
# in_seq column) which values each tick was sent. F_act leaves its declared [-5000, 5000] N in
# two blocks: the plant clamps it, and hilstep-sim replaying the same values must clamp alike.
#   replay_ecu.py PLANT_PORT ECU_PORT [TIMEOUT_S]; ends on the plant's FINAL frame (exit 0).
import socket, struct, sys, time, zlib

ROAD = (0.0, 0.02, -0.01, 0.015, 0.0, -0.02)            # m, within [-0.5, 0.5]
FORCE = (0.0, 300.0, 6000.0, -200.0, -7000.0, 0.0)      # N; 6000 and -7000 are out of range


def inputs(seq):
    """(road_z, F_act) of ECU frame seq (1, 2, ...): blocks of 50 frames."""
    b = (seq // 50) % len(ROAD)
    return ROAD[b], FORCE[b]


def main():
    plant = ("127.0.0.1", int(sys.argv[1]))
    me = ("127.0.0.1", int(sys.argv[2]))
    until = time.monotonic() + (float(sys.argv[3]) if len(sys.argv) > 3 else 20.0)
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(me)
    s.settimeout(0.5)
    seq, got = 0, 0
    while time.monotonic() < until:
        try:
            d, src = s.recvfrom(2048)
        except socket.timeout:
            continue
        if src != plant or len(d) != 52 or zlib.crc32(d[:-4]) != struct.unpack_from("<I", d, 48)[0]:
            continue
        magic, ver, kind, n, _, pseq, _, _, flags = struct.unpack_from("<IBBHIIQII", d)
        if (magic, ver, kind, n) != (0x31465348, 1, 2, 2):
            continue
        got += 1
        if flags & 8:                                     # FINAL: the plant finished
            print(f"sent={seq}\nplant_frames={got}")
            return 0
        seq += 1
        road, force = inputs(seq)
        body = struct.pack("<IBBHIIQII", 0x31465348, 1, 1, 2, 0x0EC0CAFE, seq, time.monotonic_ns(),
                           pseq, 0) + struct.pack("<dd", road, force)
        s.sendto(body + struct.pack("<I", zlib.crc32(body)), plant)
    print(f"sent={seq}\nplant_frames={got}\ntimeout=1")
    return 3


if __name__ == "__main__":
    sys.exit(main())
