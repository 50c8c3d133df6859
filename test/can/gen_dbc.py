#!/usr/bin/python3
"""Writes the DBC files shipped for the models (hil/dbc/): one per registry model with inputs or
outputs (hil/dbc/NAME.dbc) and per description in model/mech (hil/dbc/mech/NAME.dbc), from the
signal map `hilstep-rt --signals` prints. hil/dbc/circular_track.dbc is written by hand (the
walk-through of hil/CAN.md) and left alone.

Layout: inputs then outputs, two signals per classic 8-byte message, each a 32-bit signed Intel
signal with factor 1e-5 (resolution 10 um, 10 uN, ...; range +-21474.83647), every message on a
10 ms cycle (GenMsgCycleTime 10: a whole multiple of plant periods of 1, 2, 5 and 10 ms). Input
ranges are the map's safety range (capped at the raw range); output ranges [0|0] (the raw
range); GenSigStartValue is the map's fallback. Ids: ECU -> plant 0x100 + k, plant -> ECU
0x200 + k. Usage (repository root): /usr/bin/python3 test/can/gen_dbc.py build/hilstep-rt"""
import glob
import os
import subprocess
import sys

RT = sys.argv[1] if len(sys.argv) > 1 else "build/hilstep-rt"
FACTOR, RAWMAX = 1e-5, 2 ** 31 - 1
LIM = RAWMAX * FACTOR


def signals(args):
    out = subprocess.run([RT] + args + ["--signals"], capture_output=True, text=True, check=True).stdout
    sig = []
    for line in out.splitlines()[2:]:
        f = line.split()
        if len(f) >= 9 and f[0] in ("in", "out"):
            # unit may hold spaces ("N m"): the six numeric columns are counted from the right
            sig.append(dict(dir=f[0], name=f[2], unit=" ".join(f[3:-6]), lo=float(f[-4]), hi=float(f[-3]),
                            fb=float(f[-2])))
    return sig


def ident(name):
    return "".join(c if c.isalnum() or c == "_" else "_" for c in name)


def num(x):
    return ("%.10g" % x)


def write(path, model, src, sig):
    ins = [s for s in sig if s["dir"] == "in"]
    outs = [s for s in sig if s["dir"] == "out"]
    msgs = []
    for d, group, base, tx, rx in (("in", ins, 0x100, "ECU", "PLANT"), ("out", outs, 0x200, "PLANT", "ECU")):
        for k in range(0, len(group), 2):
            msgs.append(("%s%d" % ("EcuCommand" if d == "in" else "PlantState", k // 2 + 1),
                         base + k // 2, tx, rx, group[k:k + 2], d))
    L = ['VERSION ""', "", "NS_ :", "\tCM_", "\tBA_DEF_", "\tBA_", "\tBA_DEF_DEF_", "", "BS_:", "",
         "BU_: ECU PLANT", ""]
    for name, mid, tx, rx, group, d in msgs:
        L.append("BO_ %d %s: 8 %s" % (mid, name, tx))
        for j, s in enumerate(group):
            lo, hi = (max(s["lo"], -LIM), min(s["hi"], LIM)) if d == "in" else (0, 0)
            L.append(' SG_ %s : %d|32@1- (%s,0) [%s|%s] "%s" %s'
                     % (ident(s["name"]), 32 * j, num(FACTOR), num(lo), num(hi), s["unit"], rx))
        L.append("")
    L.append('CM_ "hilstep signal map of %s (%s), written by test/can/gen_dbc.py; edit freely: '
             'hilstep-rt --transport can --dbc FILE binds by name.";' % (model, src))
    L += ['BA_DEF_ BO_ "GenMsgCycleTime" INT 0 65535;', 'BA_DEF_ SG_ "GenSigStartValue" FLOAT -2147483648 2147483647;',
          'BA_DEF_DEF_ "GenMsgCycleTime" 0;', 'BA_DEF_DEF_ "GenSigStartValue" 0;']
    for name, mid, tx, rx, group, d in msgs:
        L.append('BA_ "GenMsgCycleTime" BO_ %d 10;' % mid)
    for name, mid, tx, rx, group, d in msgs:
        for s in group:
            if s["fb"] != 0:
                L.append('BA_ "GenSigStartValue" SG_ %d %s %d;' % (mid, ident(s["name"]), round(s["fb"] / FACTOR)))
    with open(path, "w") as f:
        f.write("\n".join(L) + "\n")
    print("wrote %s: %d in, %d out, %d messages" % (path, len(ins), len(outs), len(msgs)))


# The ladder's constraints can fold flat, so the default method refuses it at init; its map is
# the same under the method that runs it.
EXTRA = {"ladder": ["--method", "spook"]}
for name in ["car_axle", "pendulum", "chain", "ladder", "car_axle_mb", "car", "truck_trailer",
             "truck_trailer_pen"]:
    write("hil/dbc/%s.dbc" % name, name, "--model " + name,
          signals(["--model", name] + EXTRA.get(name, [])))
os.makedirs("hil/dbc/mech", exist_ok=True)
for f in sorted(glob.glob("model/mech/*.hsm")):
    b = os.path.basename(f)[:-4]
    write("hil/dbc/mech/%s.dbc" % b, b, "--model-file " + f, signals(["--model-file", f]))
