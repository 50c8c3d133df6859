#!/usr/bin/python3
# ecu_can_example.py - the README's ECU over CAN ("Connecting an ECU over CAN"); make rtkernel-run
# starts it with HILSTEP_CAN_INTERFACE, HILSTEP_CAN_CHANNEL, HILSTEP_DBC and HILSTEP_SECOC_KEY set. The README shows it from the import on.
import os, sys, can, canmatrix.formats, decimal, functools, hmac, hashlib
db = canmatrix.formats.loadp_flat(os.environ["HILSTEP_DBC"])                 # the plant's DBC
state, sauth, cmd, auth = (db.frame_by_name(f) for f in ("PlantState1", "PlantStateAuth", "EcuCommand1", "EcuCommandAuth"))
key = bytes.fromhex("".join(l.split("#")[0] for l in open(os.environ["HILSTEP_SECOC_KEY"])))  # the plant's key
road = [float(l.split(",")[1]) for l in open("model/mech/quarter_car_road.csv") if l[0].isdigit()]
c, dt = 1000.0, 0.01                     # damper on the travel's rate (N s/m); the state's cycle (s)
bit = lambda r, _: r << 1 ^ 0x11D if r & 0x80 else r << 1         # CRC-8 SAE J1850 (poly 0x1D), one bit
crc8 = lambda d: functools.reduce(lambda a, b: functools.reduce(bit, range(8), a ^ b), d, 0xFF) ^ 0xFF
mac = lambda fv, m, d: hmac.new(key, fv.to_bytes(8, "little") + m.arbitration_id.id.to_bytes(4, "little")
                                + bytes([8]) + d, hashlib.sha256).digest()[:6]  # SecOC: freshness, id, DLC, bytes
n, x0, held, last, did = 0, None, None, 0, int(cmd.attributes["HsE2EDataId"]).to_bytes(2, "little")  # CRC's data id
with can.Bus(interface=os.environ["HILSTEP_CAN_INTERFACE"], channel=os.environ["HILSTEP_CAN_CHANNEL"]) as bus:
    while (msg := bus.recv(timeout=3.0 if n else 300.0)) is not None:   # boot first; 3 s of silence: done
        if msg.is_extended_id: continue
        if msg.arbitration_id == state.arbitration_id.id: held = bytes(msg.data); continue  # until its MAC comes
        if msg.arbitration_id != sauth.arbitration_id.id or held is None: continue
        fv = last + 1 + ((int.from_bytes(msg.data[:2], "little") - last - 1) & 0xFFFF)  # next with these low bits
        if not hmac.compare_digest(mac(fv, state, held), bytes(msg.data[2:8])): held = None; continue  # forged
        x, last, held = float(state.decode(bytearray(held))["susp_travel"].phys_value), fv, None
        F = 0.0 if x0 is None else max(-5000.0, min(5000.0, -c * (x - x0) / dt))
        x0, z, n = x, road[min(n, len(road) - 1)], n + 1          # one road row (10 ms) per plant frame
        v = {"road_z": z, "F_act": F, "EcuCommand1_Counter": n % 16, "EcuCommand1_CRC": 0}  # alive counter
        data = bytearray(cmd.encode({k: cmd.signal_by_name(k).phys2raw(decimal.Decimal(y)) for k, y in v.items()}))
        data[7] = crc8(did + data[:7])                            # then the CRC over id and bytes 0..6
        for i, d in ((cmd.arbitration_id.id, data), (auth.arbitration_id.id, n.to_bytes(8, "little")[:2] + mac(n, cmd, data))):
            bus.send(can.Message(arbitration_id=i, is_extended_id=False, data=d))
print("ecu: answered %d plant frames with a command each" % n)
sys.exit(0 if n else 1)
