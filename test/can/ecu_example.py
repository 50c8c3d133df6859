#!/usr/bin/python3
"""A third-party ECU for the circular track over CAN in Python (python-can), the way
hil/CAN.md's walk-through connects one: a PI speed controller that reads PlantState (speed)
and sends EcuCommand (F_t) every 10 ms, writing the alive counter and the CRC-8 SAE J1850 of
hil/dbc/circular_track.dbc's E2E protection (hil/CAN.md, "Security") and checking them on
every plant frame it reads (a frame that fails is counted and ignored).

  ecu_example.py IF [SECONDS]          e.g. ecu_example.py vcan0 5, beside
                                       hilstep-rt --transport can --can-if vcan0 --dbc hil/dbc/circular_track.dbc
  ecu_example.py --frame F COUNTER     prints the EcuCommand payload for F newtons (hex), the
                                       bytes this ECU would send: test/can/run_tests.sh holds
                                       them against hilstep-can-tool's codec"""
import os
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402

CMD_ID, STATE_ID = 0x100, 0x200           # BO_ 256 EcuCommand, BO_ 512 PlantState
CMD_DATA_ID, STATE_DATA_ID = 0x1100, 0x1200  # BA_ "HsE2EDataId"
KP, KI, V_REF, F_MAX = 20.0, 100.0, 1.0, 50.0


def command_frame(force, counter):
    """EcuCommand: F_t 0|16@1- (0.002,0), counter 16|4@1+, CRC 24|8@1+ (byte 3)."""
    raw = int(force / 0.002 + (0.5 if force >= 0 else -0.5))
    raw = max(-32768, min(32767, raw))
    body = bytearray(struct.pack("<h", raw) + bytes([counter & 0x0F, 0]))
    body[3] = e2e.e2e_crc(1, CMD_DATA_ID, body, 3)
    return bytes(body)


def state_speed(data, last):
    """speed of a PlantState payload, or None when its CRC or counter is wrong."""
    if len(data) != 6 or data[5] != e2e.e2e_crc(1, STATE_DATA_ID, data, 5):
        return None, last
    ctr = data[4] & 0x0F
    if last is not None and ctr != (last + 1) % 16:
        return None, last
    return struct.unpack("<h", data[0:2])[0] * 0.001, ctr


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "--frame":
        print(command_frame(float(sys.argv[2]), int(sys.argv[3])).hex().upper())
        return 0
    import can
    bus = can.Bus(interface="socketcan", channel=sys.argv[1],
                  can_filters=[{"can_id": STATE_ID, "can_mask": 0x7FF, "extended": False}])
    end = time.monotonic() + (float(sys.argv[2]) if len(sys.argv) > 2 else 10.0)
    v, integ, counter, last, refused, t_next = 0.0, 0.0, 0, None, 0, time.monotonic()
    while time.monotonic() < end:
        msg = bus.recv(timeout=max(0.0, t_next - time.monotonic()))
        if msg is not None:
            speed, last2 = state_speed(bytes(msg.data), last)
            if speed is None:
                refused += 1
            else:
                v, last = speed, last2
            continue
        integ += (v - V_REF) * 0.01
        force = max(-F_MAX, min(F_MAX, -KP * (v - V_REF) - KI * integ))
        bus.send(can.Message(arbitration_id=CMD_ID, is_extended_id=False, data=command_frame(force, counter)))
        counter += 1
        t_next += 0.01
    print("ecu_example: sent %d commands, refused %d plant frames (E2E)" % (counter, refused))
    bus.shutdown()
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(main())
