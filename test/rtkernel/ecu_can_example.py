#!/usr/bin/python3
# ecu_can_example.py - the README's ECU over CAN ("Connecting an ECU over CAN"); make rtkernel-run
# starts it with HILSTEP_CAN_INTERFACE, HILSTEP_CAN_CHANNEL and HILSTEP_DBC set. The README shows it from the import on.
import os, sys, can, canmatrix.formats
from decimal import Decimal
db = canmatrix.formats.loadp_flat(os.environ["HILSTEP_DBC"])                 # the plant's DBC
state, cmd = db.frame_by_name("PlantState1"), db.frame_by_name("EcuCommand1")
road = [float(l.split(",")[1]) for l in open("model/mech/quarter_car_road.csv") if l[0].isdigit()]
c, dt = 1000.0, 0.01                     # damper on the travel's rate (N s/m); the state's cycle (s)
bus = can.Bus(interface=os.environ["HILSTEP_CAN_INTERFACE"], channel=os.environ["HILSTEP_CAN_CHANNEL"])
n, x0 = 0, None
while (msg := bus.recv(timeout=3.0 if n else 300.0)) is not None:   # boot first; 3 s of silence: done
    if msg.arbitration_id != state.arbitration_id.id or msg.is_extended_id:
        continue
    x = float(state.decode(msg.data)["susp_travel"].phys_value)
    F = 0.0 if x0 is None else max(-5000.0, min(5000.0, -c * (x - x0) / dt))
    x0, z, n = x, road[min(n, len(road) - 1)], n + 1          # one road row (10 ms) per plant frame
    values = {"road_z": z, "F_act": F}                           # every signal of EcuCommand1
    data = cmd.encode({k: cmd.signal_by_name(k).phys2raw(Decimal(v)) for k, v in values.items()})
    bus.send(can.Message(arbitration_id=cmd.arbitration_id.id, is_extended_id=False, data=data))
bus.shutdown()
print("ecu: answered %d plant frames with a command each" % n)
sys.exit(0 if n else 1)
