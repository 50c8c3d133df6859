#!/usr/bin/python3
"""Tests test/can/check_candump.py on the host (no vcan here): a synthetic run of the circular
track at a 10 ms period - the plant's telemetry CSV, both stats files and the candump -L log -
whose frames our codec (build/hilstep-can-tool) encodes. The checker must pass it exactly
(can: frames=N candump=N decode_mismatch=0) and must fail each of: one flipped bit in a plant
frame, one flipped bit in an applied ECU frame, one frame missing from the log, a counter off
by one, a foreign frame on the bus.
Usage: checker_test.py TOOL WORKDIR. Ends with "can-checker: N passed, N failed"."""
import math
import os
import subprocess
import sys

TOOL, W = sys.argv[1], sys.argv[2]
HERE = os.path.dirname(os.path.abspath(__file__))
DBC = os.path.join(HERE, "..", "..", "hil", "dbc", "circular_track.dbc")
CHECK = os.path.join(HERE, "check_candump.py")
N, PERIOD = 200, 10000000
passed = failed = 0


def ok(cond, what):
    global passed, failed
    passed, failed = passed + bool(cond), failed + (not cond)
    print("  %s %s" % ("ok  " if cond else "FAIL", what))


def tool(mode, lines):
    r = subprocess.run([TOOL, mode, DBC], input="\n".join(lines) + "\n", capture_output=True, text=True)
    if r.returncode:
        sys.exit("can tool: " + r.stderr)
    return r.stdout.splitlines()


# the plant's outputs per tick and the ECU's commands
outs = [(math.sin(0.05 * k) * 1.3, 1.0 + 1e-4 * math.cos(k), math.cos(0.05 * k), math.sin(0.05 * k))
        for k in range(N)]
cmds = [20.0 * math.exp(-0.02 * k) - 3.0 for k in range(N)]
state_hex = [l.split()[2] for l in tool("encode", ["PlantState %r %r" % o[:2] for o in outs])]
pos_hex = [l.split()[2] for l in tool("encode", ["PlantPosition %r %r" % o[2:] for o in outs])]
plant_hex = list(zip(state_hex, pos_hex))
ecu_hex = [l.split()[2] for l in tool("encode", ["EcuCommand %r" % F for F in cmds])]
# what the plant applied: the decoded command (our decoder; the checker decodes with canmatrix)
applied = [float(l.split()[2]) for l in tool("decode", ["EcuCommand " + h for h in ecu_hex])]

header = ("tick,t_s,planned_ns,latency_ns,exec_ns,frame_ns,q1,q2,u1,u2,in_F_t[N],out_speed[m/s],"
          "out_radius[m],out_x1[m],out_x2[m],gmax,in_seq,fresh,stale,fault,missed,rejected,faults,tx_seq,tx_flags")
rows = []
for k in range(N):
    # ECU frame k arrives during tick k and is applied at tick k + 1 (seq k + 1)
    seq = k if k > 0 else 0
    F = applied[k - 1] if k > 0 else 0.0
    o = outs[k]
    rows.append("%d,%.9f,%d,0,0,0,0,0,0,0,%.17g,%.17g,%.17g,%.17g,%.17g,0,%d,%d,%d,0,0,0,0,%d,0"
                % (k, (k + 1) * 0.01, k * PERIOD, F, o[0], o[1], o[2], o[3], seq, 1 if k > 0 else 0,
                   0 if k > 0 else 1, k + 1))


def write_run(d, plant_hex, ecu_hex, p_tx=N, e_tx=N, p_rx=N, extra=None, drop=None):
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "plant.csv"), "w") as f:
        f.write(header + "\n" + "\n".join(rows) + "\n")
    lines = []
    for k in range(N):
        lines.append("(1700000000.%06d) vcan0 200#%s" % (k * 10000, plant_hex[k][0]))
        lines.append("(1700000000.%06d) vcan0 201#%s" % (k * 10000 + 1, plant_hex[k][1]))
        lines.append("(1700000000.%06d) vcan0 100#%s" % (k * 10000 + 5000, ecu_hex[k]))
    if extra:
        lines.insert(7, extra)
    if drop is not None:
        del lines[drop]
    with open(os.path.join(d, "candump.log"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(d, "plant.stats"), "w") as f:
        f.write("frames=%d\ncan_rx_frames=%d\ncan_rx_accepted=%d\ncan_tx_frames=%d\n" % (N, p_rx, p_rx, 2 * p_tx))
    with open(os.path.join(d, "ecu.stats"), "w") as f:
        f.write("ticks=%d\ncan_rx_frames=%d\ncan_tx_frames=%d\n" % (N, N, e_tx))
    r = subprocess.run([CHECK, os.path.join(d, "candump.log"), DBC, os.path.join(d, "plant.csv"),
                        os.path.join(d, "plant.stats"), os.path.join(d, "ecu.stats")],
                       capture_output=True, text=True)
    return r.returncode, r.stdout


def flip(h, byte, bit):
    b = bytearray(bytes.fromhex(h))
    b[byte] ^= 1 << bit
    return b.hex().upper()


rc, out = write_run(os.path.join(W, "good"), plant_hex, ecu_hex)
line = out.splitlines()[0] if out else ""
ok(rc == 0 and line == "can: frames=%d candump=%d decode_mismatch=0" % (3 * N, 3 * N)
   and "ok   E2E (CRC by test/can/e2e.py, alive counter + 1 per message): 0 frames of 3 protected" in out,
   "synthetic run of %d plant + %d ECU frames: %s, E2E right on 3 messages" % (2 * N, N, line))
if rc:
    print(out)
ph = list(plant_hex)
ph[57] = (flip(ph[57][0], 0, 3), ph[57][1])  # speed: 8 LSB of the resolution 0.001 m/s
rc, out = write_run(os.path.join(W, "flip_plant"), ph, ecu_hex)
ok(rc == 1 and "decode_mismatch=1" in out and "1 frames of 3 protected messages wrong: PlantState: CRC" in out,
   "one bit flipped in plant frame 58: " + out.splitlines()[0] + ", its CRC caught")
eh = list(ecu_hex)
eh[99] = flip(eh[99], 1, 0)
rc, out = write_run(os.path.join(W, "flip_ecu"), plant_hex, eh)
ok(rc == 1 and "decode_mismatch=1" in out, "one bit flipped in ECU frame 100: " + out.splitlines()[0])
eh = list(ecu_hex)
eh[100] = eh[99]  # the same frame twice: values plausible, CRC right, counter repeated
rc, out = write_run(os.path.join(W, "repeat_ecu"), plant_hex, eh)
ok(rc == 1 and "EcuCommand: counter 3 after 3" in out, "an ECU frame repeated (a replay): the counter caught it")
ph = list(plant_hex)
ph[10] = (ph[10][0], flip(ph[10][1], 5, 0))  # the CRC byte only: decoded values unchanged
rc, out = write_run(os.path.join(W, "crc_plant"), ph, ecu_hex)
ok(rc == 1 and "decode_mismatch=0" in out and "PlantPosition: CRC" in out,
   "one bit flipped in a CRC byte only (values decode alike): the E2E check fails it")
rc, out = write_run(os.path.join(W, "drop"), plant_hex, ecu_hex, drop=452)
ok(rc == 1 and "FAIL ECU can_tx_frames 200, candump logged 199" in out, "one ECU frame missing from the log: exit 1")
rc, out = write_run(os.path.join(W, "count"), plant_hex, ecu_hex, p_tx=N + 1)
ok(rc == 1 and "FAIL plant can_tx_frames 402" in out, "plant counter off by one: exit 1")
rc, out = write_run(os.path.join(W, "foreign"), plant_hex, ecu_hex, extra="(1700000000.000001) vcan0 7FF#00")
ok(rc == 1 and "FAIL 1 frames with ids of neither" in out, "a foreign frame on the bus: exit 1")
print("can-checker: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
