#!/usr/bin/python3
# ecu_can_example.py - the README's ECU over CAN ("Connecting an ECU over CAN"); make rtkernel-run
# starts it with HILSTEP_CAN_INTERFACE, HILSTEP_CAN_CHANNEL, HILSTEP_DBC and HILSTEP_SECOC_KEY set. The README shows it from the import on.
import os, sys, can, canmatrix.formats, decimal, functools, hmac, hashlib
db = canmatrix.formats.loadp_flat(os.environ["HILSTEP_DBC"])                 # the plant's DBC
state, cmd, auth = (db.frame_by_name(f) for f in ("PlantState1", "EcuCommand1", "EcuCommandAuth"))
key = bytes.fromhex("".join(l.split("#")[0] for l in open(os.environ["HILSTEP_SECOC_KEY"])))  # the plant's key
road = [float(l.split(",")[1]) for l in open("model/mech/quarter_car_road.csv") if l[0].isdigit()]
c, dt = 1000.0, 0.01                     # damper on the travel's rate (N s/m); the state's cycle (s)
bit = lambda r, _: r << 1 ^ 0x11D if r & 0x80 else r << 1         # CRC-8 SAE J1850 (poly 0x1D), one bit
crc8 = lambda d: functools.reduce(lambda a, b: functools.reduce(bit, range(8), a ^ b), d, 0xFF) ^ 0xFF
n, x0, did = 0, None, int(cmd.attributes["HsE2EDataId"]).to_bytes(2, "little")  # E2E data id: the CRC's first bytes
with can.Bus(interface=os.environ["HILSTEP_CAN_INTERFACE"], channel=os.environ["HILSTEP_CAN_CHANNEL"]) as bus:
    while (msg := bus.recv(timeout=3.0 if n else 300.0)) is not None:   # boot first; 3 s of silence: done
        if msg.arbitration_id != state.arbitration_id.id or msg.is_extended_id: continue
        x = float(state.decode(msg.data)["susp_travel"].phys_value)
        F = 0.0 if x0 is None else max(-5000.0, min(5000.0, -c * (x - x0) / dt))
        x0, z, n = x, road[min(n, len(road) - 1)], n + 1          # one road row (10 ms) per plant frame
        v = {"road_z": z, "F_act": F, "EcuCommand1_Counter": n % 16, "EcuCommand1_CRC": 0}  # alive counter
        data = bytearray(cmd.encode({k: cmd.signal_by_name(k).phys2raw(decimal.Decimal(y)) for k, y in v.items()}))
        data[7] = crc8(did + data[:7])                            # then the CRC over id and bytes 0..6
        fv = n.to_bytes(8, "little")  # SecOC: freshness n; MAC over it, the command's id, DLC and bytes
        mac = hmac.new(key, fv + cmd.arbitration_id.id.to_bytes(4, "little") + bytes([8]) + data, hashlib.sha256)
        for i, d in ((cmd.arbitration_id.id, data), (auth.arbitration_id.id, fv[:2] + mac.digest()[:6])):
            bus.send(can.Message(arbitration_id=i, is_extended_id=False, data=d))
print("ecu: answered %d plant frames with a command each" % n)
sys.exit(0 if n else 1)
