#!/usr/bin/python3
"""The README's python-can ECU ("Connecting an ECU over CAN", the quarter car) on the host, without
a bus: its code, taken from README.md, runs on python-can's in-process virtual bus against a
stand-in plant that sends PlantState1 frames encoded by our codec (hilstep-can-tool encode: E2E
counter and CRC). Every EcuCommand1 frame the ECU answers with must carry the E2E protection of
hil/dbc/mech/quarter_car.dbc as test/can/e2e.py (table-driven, apart from the ECU's bitwise
CRC and hil/hs_e2e.c) computes it, an alive counter + 1 per frame, and the ECU's law decoded by
our codec (hilstep-can-tool decode): road_z = row j of the road, F_act = canmatrix's phys2raw of
clamp(-c (x_j - x_(j-1)) / dt). The stand-in plant's frames carry the state's collection
(PlantStateAuth, our codec's MAC): the ECU acts only on verified state, and a forged state is
never answered. Each command is followed by EcuCommandAuth, the SecOC
collection's MAC the ECU computes with Python's hmac: our receive side (hilstep-can-tool receive,
hil/hs_secoc.c's HMAC-SHA-256) must verify every cycle and apply the command's values, and
refuse each cycle with one command byte changed. The full loop through the plant on a bus is
make rtkernel-ecu-test's.
usage: readme_ecu_check.py BUILD_DIR. Ends with "N passed, N failed"."""
import logging
import math
import os
import re
import subprocess
import sys
import threading
from decimal import Decimal

logging.disable(logging.WARNING)
import can  # noqa: E402
import canmatrix.formats  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402
import secrets  # noqa: E402
import tempfile  # noqa: E402

B = sys.argv[1]
DBC = "hil/dbc/mech/quarter_car.dbc"
N = 40
passed = failed = 0


def check(cond, what):
    global passed, failed
    print("  %s %s" % ("ok  " if cond else "FAIL", what))
    passed, failed = passed + (1 if cond else 0), failed + (0 if cond else 1)


text = open("README.md").read()
m = re.search(r"^## Connecting an ECU over CAN$.*?^```python\n(.*?)^```$", text, re.S | re.M)
code = m.group(1) if m else ""
cm = re.search(r"^c, dt = ([0-9.e+-]+), ([0-9.e+-]+) ", code, re.M)
C, DT = (float(cm.group(1)), float(cm.group(2))) if cm else (None, None)
check(bool(code) and cm is not None, "README's CAN ECU found (%d lines), damper c = %s N s/m over dt = %s s" % (code.count("\n"), C, DT))
KEY = secrets.token_bytes(32)
kf = tempfile.NamedTemporaryFile("w", suffix=".key", delete=False)
kf.write("# a test key, hex as the per-user key file holds it\n%s\n%s\n" % (KEY[:16].hex(), KEY[16:].hex()))
kf.close()
os.environ.update(HILSTEP_CAN_INTERFACE="virtual", HILSTEP_CAN_CHANNEL="hilstep-readme-ecu", HILSTEP_DBC=DBC,
                  HILSTEP_SECOC_KEY=kf.name)
result = {}


def ecu():
    out = []
    g = {"__name__": "__readme__", "print": lambda *a: out.append(" ".join(str(x) for x in a))}
    try:
        exec(compile(code, "README.md", "exec"), g)
        result["rc"] = 0
    except SystemExit as e:
        result["rc"] = e.code
    except Exception as e:  # noqa: BLE001 - reported as the failure it is
        result["rc"] = "exception %r" % e
    result["out"] = out


# the plant's frames: susp_travel a damped ring, body_acc anything; our codec writes counter and CRC
xs = [0.02 * math.exp(-0.05 * j) * math.cos(0.7 * j) for j in range(N)]
# (each followed by PlantStateAuth, the state's SecOC collection: our codec's HMAC under the key)
enc = subprocess.run([os.path.join(B, "hilstep-can-tool"), "encode", DBC, KEY.hex()], capture_output=True, text=True,
                     input="".join("PlantState1 %.9f %.12f\nPlantStateAuth\n" % (-3.0 * x, x) for x in xs))
lines = [l.split() for l in enc.stdout.splitlines()]
frames = [bytes.fromhex(l[2]) for l in lines if l[0] == "PlantState1"]
sauths = [bytes.fromhex(l[2]) for l in lines if l[0] == "PlantStateAuth"]
check(enc.returncode == 0 and len(frames) == len(sauths) == N,
      "%d PlantState1 frames and %d PlantStateAuth from hilstep-can-tool" % (len(frames), len(sauths)))
db = canmatrix.formats.loadp_flat(DBC)
state, cmd = db.frame_by_name("PlantState1"), db.frame_by_name("EcuCommand1")
xs = [float(state.decode(bytearray(f))["susp_travel"].phys_value) for f in frames]  # as the ECU reads them
plant = can.Bus(interface="virtual", channel="hilstep-readme-ecu")
t = threading.Thread(target=ecu, daemon=True)
t.start()
# the ECU's bus joins the virtual channel when its code reaches can.Bus: frames before would be lost
import can.interfaces.virtual as vbus  # noqa: E402
for _ in range(200):
    if len(vbus.channels.get("hilstep-readme-ecu", [])) >= 2 or not t.is_alive():
        break
    threading.Event().wait(0.05)
sa_id = db.frame_by_name("PlantStateAuth").arbitration_id.id
got, auth, forged_answers = [], [], 0
prof_s, did_s, _, crc_s = e2e.layout(state)
for j, (f, sa) in enumerate(zip(frames, sauths)):
    if j == N // 2:
        # a forger without the key before the genuine cycle: the state with its travel's low byte
        # changed and the CRC recomputed (public arithmetic), under the genuine PlantStateAuth of
        # this cycle, then one under an authenticator of its own making: the ECU must answer neither
        bad = bytearray(f)
        bad[0] ^= 0x40
        bad[crc_s.start_bit // 8] = e2e.e2e_crc(prof_s, did_s, bad, crc_s.start_bit // 8)
        for fa in (sa, sa[:2] + bytes(6)):
            plant.send(can.Message(arbitration_id=state.arbitration_id.id, is_extended_id=False, data=bytes(bad)))
            plant.send(can.Message(arbitration_id=sa_id, is_extended_id=False, data=fa))
            forged_answers += plant.recv(timeout=0.5) is not None
    plant.send(can.Message(arbitration_id=state.arbitration_id.id, is_extended_id=False, data=f))
    plant.send(can.Message(arbitration_id=sa_id, is_extended_id=False, data=sa))
    r, a = plant.recv(timeout=10.0), plant.recv(timeout=10.0)
    if r is None or a is None:
        break
    if r.arbitration_id == cmd.arbitration_id.id and a.arbitration_id == db.frame_by_name("EcuCommandAuth").arbitration_id.id:
        got.append(bytes(r.data))
        auth.append(bytes(a.data))
t.join(timeout=30.0)
plant.shutdown()
os.unlink(kf.name)
check(result.get("rc") == 0 and result.get("out") == ["ecu: answered %d plant frames with a command each" % N],
      "the ECU's run: exit %r, %s" % (result.get("rc"), result.get("out")))
check(len(got) == N, "one EcuCommand1 per verified PlantState1: %d of %d" % (len(got), N))
check(forged_answers == 0, "a forged PlantState1 (right counter and CRC, no key), under the cycle's genuine "
      "PlantStateAuth and under a made-up one: answered %d times (the ECU's law never reads it)" % forged_answers)
prof, did, ctr, crc = e2e.layout(cmd)
bad_crc = [j for j, d in enumerate(got) if d[crc.start_bit // 8] != e2e.e2e_crc(prof, did, d, crc.start_bit // 8)]
ctrs = [d[ctr.start_bit // 8] >> (ctr.start_bit % 8) & 0xF for d in got]
bad_ctr = [j for j in range(1, len(ctrs)) if ctrs[j] != (ctrs[j - 1] + 1) % 16]
check(got and not bad_crc, "CRC-8 (data id 0x%04X) of every command = test/can/e2e.py's: %d wrong" % (did, len(bad_crc)))
check(got and not bad_ctr, "alive counter + 1 mod 16 per command (%s..): %d jumps" % (ctrs[:3], len(bad_ctr)))
dec = subprocess.run([os.path.join(B, "hilstep-can-tool"), "decode", DBC], capture_output=True, text=True,
                     input="".join("EcuCommand1 %s\n" % d.hex().upper() for d in got))
road = [float(l.split(",")[1]) for l in open("model/mech/quarter_car_road.csv") if l[0].isdigit()]
law_bad, x0 = 0, None
sz, sF = cmd.signal_by_name("road_z"), cmd.signal_by_name("F_act")
for j, line in enumerate(dec.stdout.splitlines()):
    f = line.split()
    want_F = 0.0 if x0 is None else max(-5000.0, min(5000.0, -C * (xs[j] - x0) / DT))
    x0 = xs[j]
    if int(f[1]) != sz.phys2raw(Decimal(road[min(j, len(road) - 1)])) or int(f[3]) != sF.phys2raw(Decimal(want_F)):
        law_bad += 1
check(dec.returncode == 0 and len(dec.stdout.splitlines()) == N and law_bad == 0,
      "our codec decodes every command to the ECU's law (road row j, -c dx/dt): %d mismatches" % law_bad)
# SecOC: the cycles through our receive side under the key, then each with a command byte changed
rcv = subprocess.run([os.path.join(B, "hilstep-can-tool"), "receive", DBC, KEY.hex()], capture_output=True, text=True,
                     input="".join("EcuCommand1 %s\nEcuCommandAuth %s\n" % (d.hex(), a.hex()) for d, a in zip(got, auth)))
out = rcv.stdout.splitlines()
want = []
for line in dec.stdout.splitlines():
    f = line.split()
    want += ["EcuCommand1 held", "EcuCommandAuth accepted", "applied EcuCommand1 %s %s" % (f[2], f[4])]
check(rcv.returncode == 0 and len(auth) == N and out == want,
      "%d EcuCommandAuth frames (Python's hmac) verify in hil/hs_secoc.c and apply their command's values bit for bit: "
      "%d of %d lines as expected" % (len(auth), sum(1 for a, b in zip(out, want) if a == b), len(want)))
# a forger without the key: command 7 lost, in its place one with F_act's low byte changed and the
# CRC recomputed (public arithmetic), then the genuine EcuCommandAuth 7; command 8 again genuine
prof, did, _, crc = e2e.layout(cmd)
bad = bytearray(got[6])
bad[4] ^= 0x40
bad[crc.start_bit // 8] = e2e.e2e_crc(prof, did, bad, crc.start_bit // 8)
seq = [(got[j], auth[j]) for j in range(6)] + [(bytes(bad), auth[6]), (got[7], auth[7])]
rcv = subprocess.run([os.path.join(B, "hilstep-can-tool"), "receive", DBC, KEY.hex()], capture_output=True, text=True,
                     input="".join("EcuCommand1 %s\nEcuCommandAuth %s\n" % (d.hex(), a.hex()) for d, a in seq))
want2 = want[:18] + ["EcuCommand1 held", "EcuCommandAuth secoc_mac"] + want[21:24]
check(rcv.returncode == 0 and rcv.stdout.splitlines() == want2,
      "a forged command (right counter and CRC, no key) in place of the 7th: held, its cycle refused (secoc_mac), "
      "never applied; the 8th applied: %s" % rcv.stdout.splitlines()[18:21])
print("readme-ecu: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
