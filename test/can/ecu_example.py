#!/usr/bin/python3
"""A third-party ECU for the circular track over CAN in Python (python-can), the way
hil/CAN.md's walk-through connects one: a PI speed controller that reads PlantState (speed)
and sends EcuCommand (F_t) every 10 ms, with hil/dbc/circular_track.dbc's protection
(hil/CAN.md, "Security"): the alive counter and CRC-8 SAE J1850 of every message, and each
direction a SecOC secured PDU collection. After each EcuCommand it sends EcuCommandAuth (16-bit
freshness, 48-bit HMAC-SHA-256 under the link key over the full freshness, then the command's
id, DLC and payload); it holds each PlantState and PlantPosition frame whose CRC and counter
hold, and acts on the speed only when the cycle's PlantAuth verifies. A frame that fails is
counted and ignored.

  ecu_example.py IF [SECONDS] [KEY]     e.g. ecu_example.py vcan0 5, beside
                                       hilstep-rt --transport can --can-if vcan0 --dbc hil/dbc/circular_track.dbc
                                       (KEY: the key file; default $HILSTEP_SECOC_KEY, else the
                                       per-user key both tools use, ~/.config/hilstep/link.key)
  ecu_example.py --frame F COUNTER     prints the EcuCommand payload for F newtons (hex)
  ecu_example.py --cycle F COUNTER FV KEYHEX
                                       prints "EcuCommand HEX" and "EcuCommandAuth HEX": the
                                       cycle this ECU would send with freshness FV
  ecu_example.py --verify KEYHEX       reads "MSG ID HEX" lines (hilstep-can-tool encode) and
                                       prints per PlantAuth "speed V" (verified) or "refused R"
test/can/run_tests.sh holds the three against hil/hs_can's codec and receive side."""
import hashlib
import hmac
import os
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402

CMD_ID, AUTH_ID = 0x100, 0x101                       # BO_ 256 EcuCommand, BO_ 257 EcuCommandAuth
STATE_ID, POS_ID, PAUTH_ID = 0x200, 0x201, 0x202     # BO_ 512, 513 and their collection, 514
DATA_ID = {CMD_ID: 0x1100, STATE_ID: 0x1200, POS_ID: 0x1201}   # BA_ "HsE2EDataId"
KP, KI, V_REF, F_MAX = 20.0, 100.0, 1.0, 50.0
MAC_BYTES, FV_BITS = 6, 16


def load_key(path):
    """The key file's bytes: hex digits, '#' comments (the format hilstep-rt reads)."""
    return bytes.fromhex("".join(l.split("#")[0].strip() for l in open(path)))


def default_key_path():
    xdg = os.environ.get("XDG_CONFIG_HOME", "")
    base = xdg + "/hilstep" if xdg.startswith("/") else os.path.expanduser("~/.config/hilstep")
    return os.environ.get("HILSTEP_SECOC_KEY") or base + "/link.key"


def coll_mac(key, fv, parts):
    """HMAC-SHA-256 truncated to MAC_BYTES over the 64-bit freshness (low byte first), then per
    authentic frame in DBC order its id (4 bytes), DLC (1) and payload."""
    msg = struct.pack("<Q", fv) + b"".join(struct.pack("<IB", i, len(d)) + d for i, d in parts)
    return hmac.new(key, msg, hashlib.sha256).digest()[:MAC_BYTES]


def command_frame(force, counter):
    """EcuCommand: F_t 0|16@1- (0.002,0), counter 16|4@1+, CRC 24|8@1+ (byte 3)."""
    raw = int(force / 0.002 + (0.5 if force >= 0 else -0.5))
    raw = max(-32768, min(32767, raw))
    body = bytearray(struct.pack("<h", raw) + bytes([counter & 0x0F, 0]))
    body[3] = e2e.e2e_crc(1, DATA_ID[CMD_ID], body, 3)
    return bytes(body)


def auth_frame(key, fv, cmd):
    """EcuCommandAuth: freshness 0|16, MAC 16|48 over the cycle's EcuCommand frame."""
    return struct.pack("<H", fv & 0xFFFF) + coll_mac(key, fv, [(CMD_ID, cmd)])


class PlantIn:
    """The plant's collection as this ECU receives it: E2E per frame, held until PlantAuth."""

    def __init__(self, key):
        self.key, self.last_ctr, self.held, self.fv, self.refused = key, {}, {}, 0, 0

    def frame(self, i, data):
        """Returns the verified speed (m/s) when i is PlantAuth and its cycle verifies, else None."""
        if i in (STATE_ID, POS_ID):
            last = self.last_ctr.get(i)
            ctr = data[4] & 0x0F
            if len(data) != 6 or data[5] != e2e.e2e_crc(1, DATA_ID[i], data, 5) or \
                    (last is not None and ctr != (last + 1) % 16):
                self.refused += 1
                return None
            self.last_ctr[i] = ctr
            if i in self.held:
                self.refused += 1                  # held before, never verified
            self.held[i] = bytes(data)
            return None
        if i != PAUTH_ID or len(data) != 8:
            return None
        trunc = struct.unpack("<H", data[:2])[0]
        fv = (self.fv & ~0xFFFF) | trunc           # the smallest value above the last with these bits
        if fv <= self.fv:
            fv += 1 << FV_BITS
        held, self.held = self.held, {}
        if set(held) != {STATE_ID, POS_ID} or \
                not hmac.compare_digest(coll_mac(self.key, fv, [(STATE_ID, held[STATE_ID]), (POS_ID, held[POS_ID])]), data[2:]):
            self.refused += 1 + len(held)
            return None
        self.fv = fv
        return struct.unpack("<h", held[STATE_ID][0:2])[0] * 0.001


def main():
    a = sys.argv
    if len(a) >= 4 and a[1] == "--frame":
        print(command_frame(float(a[2]), int(a[3])).hex().upper())
        return 0
    if len(a) >= 6 and a[1] == "--cycle":
        cmd = command_frame(float(a[2]), int(a[3]))
        print("EcuCommand %s\nEcuCommandAuth %s" % (cmd.hex().upper(), auth_frame(bytes.fromhex(a[5]), int(a[4]), cmd).hex().upper()))
        return 0
    if len(a) >= 3 and a[1] == "--verify":
        p = PlantIn(bytes.fromhex(a[2]))
        for line in sys.stdin:
            f = line.split()
            v = p.frame(int(f[1], 0), bytes.fromhex(f[2]))
            if int(f[1], 0) == PAUTH_ID:
                print("speed %.3f" % v if v is not None else "refused %d" % p.refused)
        return 0
    import can
    key = load_key(a[3] if len(a) > 3 else default_key_path())
    bus = can.Bus(interface="socketcan", channel=a[1],
                  can_filters=[{"can_id": i, "can_mask": 0x7FF, "extended": False} for i in (STATE_ID, POS_ID, PAUTH_ID)])
    end = time.monotonic() + (float(a[2]) if len(a) > 2 else 10.0)
    plant = PlantIn(key)
    v, integ, counter, t_next = 0.0, 0.0, 0, time.monotonic()
    while time.monotonic() < end:
        msg = bus.recv(timeout=max(0.0, t_next - time.monotonic()))
        if msg is not None:
            s = plant.frame(msg.arbitration_id, bytes(msg.data))
            v = v if s is None else s
            continue
        integ += (v - V_REF) * 0.01
        force = max(-F_MAX, min(F_MAX, -KP * (v - V_REF) - KI * integ))
        cmd = command_frame(force, counter)
        counter += 1
        for i, d in ((CMD_ID, cmd), (AUTH_ID, auth_frame(key, counter, cmd))):   # freshness 1, 2, ...
            bus.send(can.Message(arbitration_id=i, is_extended_id=False, data=d))
        t_next += 0.01
    print("ecu_example: sent %d commands, refused %d plant frames (E2E, SecOC)" % (counter, plant.refused))
    bus.shutdown()
    return 1 if plant.refused else 0


if __name__ == "__main__":
    sys.exit(main())
