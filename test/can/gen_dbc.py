#!/usr/bin/python3
"""Writes the DBC files shipped for the models (hil/dbc/): one per registry model with inputs or
outputs (hil/dbc/NAME.dbc) and per description in model/mech (hil/dbc/mech/NAME.dbc), from the
signal map `hilstep-rt --signals` prints. hil/dbc/circular_track.dbc is written by hand (the
walk-through of hil/CAN.md) and left alone.

Layout (hil/CAN.md, "Shipped DBCs"): inputs then outputs in map order, in classic 8-byte
messages on a 10 ms cycle (GenMsgCycleTime 10: a whole multiple of plant periods of 1, 2, 5 and
10 ms). Every message is protected by default (hil/CAN.md, "Security"): bits 0..51 carry the
data, bits 52..55 the 4-bit alive counter NAME_Counter, byte 7 the CRC-8 SAE J1850 NAME_CRC
(HsE2EProfile 1, HsE2EDataId 0x1000 + id). A data signal is 26 bits wide, two per message,
Intel, signed ('+' unsigned when the map's min >= 0), its [min|max] the map's range (the range
the plant holds every output to: one outside it is a refused step, exit 4; an input is clamped
into it), its factor the finest of 1, 2, 5 x 10^k that holds that range in the raw range: the
range in 2^25 (signed) or 2^26 (unsigned) steps. A signal whose factor would then be coarser
than WIDE_FACTOR (a range over +-33,554) gets 52 bits and a message of its own. GenSigStartValue
is the map's fallback. Ids: ECU -> plant 0x100 + k, plant -> ECU 0x200 + k.

The messages the plant obeys (ECU -> plant) are a secured PDU collection (hil/CAN.md,
"Authentication of the shipped DBCs"): after the last EcuCommandK the ECU sends one more
8-byte message, EcuCommandAuth (id 0x100 + the number of command messages, HsSecOCCollection
1), carrying a 16-bit freshness value (bits 0..15) and a 48-bit HMAC-SHA-256 (bytes 2..7)
over the freshness and every EcuCommandK frame of the cycle (HsSecOCCryptoPdu on each); the
plant applies a cycle only when it verifies. The plant's state is a collection the same way:
PlantStateAuth (id 0x200 + the number of state messages) after the last PlantStateK, which the
ECU verifies before its law reads the cycle (a forged state would steer the ECU's command).

Usage (repository root): /usr/bin/python3 test/can/gen_dbc.py [build/hilstep-rt] [--no-e2e]
[--out DIR] (DIR instead of hil/dbc, e.g. to compare with the shipped files). --no-e2e writes
the same layout without counter, CRC and the collections' cryptographic messages (for an ECU
that writes none of them)."""
import argparse
import glob
import os
import subprocess
from decimal import Decimal

DATA_BITS = 52      # bits 0..51 of the 8 bytes; 52..55 counter, 56..63 CRC
NARROW, WIDE = 26, 52
WIDE_FACTOR = Decimal("1e-3")
CTR_BITS = 4
FV_BITS, MAC_BYTES = 16, 6   # EcuCommandAuth: freshness bits 0..15, MAC bytes 2..7


def signals(rt, args):
    out = subprocess.run([rt] + args + ["--signals"], capture_output=True, text=True, check=True).stdout
    sig = []
    for line in out.splitlines()[2:]:
        f = line.split()
        if len(f) >= 9 and f[0] in ("in", "out"):
            # unit may hold spaces ("N m"): the six numeric columns are counted from the right
            sig.append(dict(dir=f[0], name=f[2], unit=" ".join(f[3:-6]), lo=Decimal(f[-4]), hi=Decimal(f[-3]),
                            fb=Decimal(f[-2])))
    return sig


def ident(name):
    return "".join(c if c.isalnum() or c == "_" else "_" for c in name)


def raw_max(bits, signed):
    return 2 ** (bits - 1) - 1 if signed else 2 ** bits - 1


def factor_for(lo, hi, bits, signed):
    """The finest 1, 2, 5 x 10^k with the range [lo, hi] inside the raw range, exactly (Decimal)."""
    need = max(abs(lo), abs(hi))
    for k in range(-15, 16):
        for m in (1, 2, 5):
            f = Decimal(m).scaleb(k)
            if f * raw_max(bits, signed) >= need:
                return f
    raise SystemExit("gen_dbc: range [%s, %s] too wide" % (lo, hi))


def layout(s):
    """(bits, signed, factor) of a data signal."""
    signed = s["lo"] < 0
    f = factor_for(s["lo"], s["hi"], NARROW, signed)
    if f > WIDE_FACTOR:
        return WIDE, signed, factor_for(s["lo"], s["hi"], WIDE, signed)
    return NARROW, signed, f


def num(x):
    """The shortest decimal that reads back as the double x (5000, -0.6, 200.00000000000003)."""
    r = repr(float(x))
    return r[:-2] if r.endswith(".0") else r


def dec(x):
    """A Decimal as the DBC writes it: 2E-8 as 2e-08, 5000 as 5000."""
    return "%.10g" % float(x)


def messages(sig):
    msgs = []
    for d, base, tx, rx, kind in (("in", 0x100, "ECU", "PLANT", "EcuCommand"), ("out", 0x200, "PLANT", "ECU", "PlantState")):
        cur, used = None, DATA_BITS
        for s in (s for s in sig if s["dir"] == d):
            bits, signed, f = layout(s)
            if used + bits > DATA_BITS:
                cur = dict(name="%s%d" % (kind, sum(1 for m in msgs if m["d"] == d) + 1),
                           id=base + sum(1 for m in msgs if m["d"] == d), tx=tx, rx=rx, d=d, sig=[])
                msgs.append(cur)
                used = 0
            cur["sig"].append(dict(s, start=used, bits=bits, signed=signed, factor=f))
            used += bits
    return msgs


def auth_msgs(msgs):
    """The collections' cryptographic messages, one per direction with messages: EcuCommandAuth
    after the commands (the plant verifies them), PlantStateAuth after the plant's state (the
    ECU verifies it: a forged state would steer the ECU's law)."""
    out = []
    for d, base, name, tx, rx in (("in", 0x100, "EcuCommandAuth", "ECU", "PLANT"),
                                  ("out", 0x200, "PlantStateAuth", "PLANT", "ECU")):
        ids = [m["id"] for m in msgs if m["d"] == d]
        if ids:
            out.append(dict(name=name, id=base + len(ids), tx=tx, rx=rx, d=d, sig=[], auth=ids))
    return out


def write(path, model, src, sig, e2e):
    msgs = messages(sig)
    auths = auth_msgs(msgs) if e2e else []
    for a in auths:
        k = max(i for i, m in enumerate(msgs) if m["d"] == a["d"])
        msgs.insert(k + 1, a)
    L = ['VERSION ""', "", "NS_ :", "\tCM_", "\tBA_DEF_", "\tBA_", "\tBA_DEF_DEF_", "", "BS_:", "",
         "BU_: ECU PLANT", ""]
    for m in msgs:
        L.append("BO_ %d %s: 8 %s" % (m["id"], m["name"], m["tx"]))
        if m in auths:
            L.append(' SG_ %s_Freshness : 0|%d@1+ (1,0) [0|%d] "" %s' % (m["name"], FV_BITS, 2 ** FV_BITS - 1, m["rx"]))
            L.append(' SG_ %s_MAC : %d|%d@1+ (1,0) [0|0] "" %s' % (m["name"], FV_BITS, 8 * MAC_BYTES, m["rx"]))
            L.append("")
            continue
        for s in m["sig"]:
            f = s["factor"]
            # the range's ends as the codec decodes their raw values: a double a rounding step
            # outside [lo, hi] widens the DBC range by that step, so an end value is never refused
            rl, rh = round(s["lo"] / f), round(s["hi"] / f)
            lo, hi = min(float(s["lo"]), rl * float(f)), max(float(s["hi"]), rh * float(f))
            L.append(' SG_ %s : %d|%d@1%s (%s,0) [%s|%s] "%s" %s'
                     % (ident(s["name"]), s["start"], s["bits"], "-" if s["signed"] else "+", dec(f),
                        num(lo), num(hi), s["unit"], m["rx"]))
        if e2e:
            L.append(' SG_ %s_Counter : %d|%d@1+ (1,0) [0|%d] "" %s' % (m["name"], DATA_BITS, CTR_BITS, 2 ** CTR_BITS - 1, m["rx"]))
            L.append(' SG_ %s_CRC : 56|8@1+ (1,0) [0|255] "" %s' % (m["name"], m["rx"]))
        L.append("")
    L.append('CM_ "hilstep signal map of %s (%s), written by test/can/gen_dbc.py%s; edit freely: '
             'hilstep-rt --transport can --dbc FILE binds by name.";'
             % (model, src, "" if e2e else " --no-e2e"))
    L += ['BA_DEF_ BO_ "GenMsgCycleTime" INT 0 65535;',
          'BA_DEF_ SG_ "GenSigStartValue" FLOAT -4503599627370496 4503599627370495;']
    if e2e:
        L += ['BA_DEF_ BO_ "HsE2EProfile" ENUM "none","CRC8_SAE_J1850","CRC8H2F";',
              'BA_DEF_ BO_ "HsE2EDataId" INT 0 65535;', 'BA_DEF_ SG_ "HsE2ESignal" ENUM "data","counter","crc";']
    if auths:
        L += ['BA_DEF_ BO_ "HsSecOCCollection" ENUM "none","HMAC_SHA256_TRUNCATED";',
              'BA_DEF_ BO_ "HsSecOCCryptoPdu" INT 0 2147483647;', 'BA_DEF_ SG_ "HsSecOCSignal" ENUM "data","freshness","mac";']
    L += ['BA_DEF_DEF_ "GenMsgCycleTime" 0;', 'BA_DEF_DEF_ "GenSigStartValue" 0;']
    if e2e:
        L += ['BA_DEF_DEF_ "HsE2EProfile" "none";', 'BA_DEF_DEF_ "HsE2EDataId" 0;', 'BA_DEF_DEF_ "HsE2ESignal" "data";']
    if auths:
        L += ['BA_DEF_DEF_ "HsSecOCCollection" "none";', 'BA_DEF_DEF_ "HsSecOCCryptoPdu" 0;',
              'BA_DEF_DEF_ "HsSecOCSignal" "data";']
    prot = [m for m in msgs if m not in auths]
    for m in msgs:
        L.append('BA_ "GenMsgCycleTime" BO_ %d 10;' % m["id"])
    for m in msgs:
        for s in m["sig"]:
            if s["fb"] != 0:
                L.append('BA_ "GenSigStartValue" SG_ %d %s %d;' % (m["id"], ident(s["name"]), round(s["fb"] / s["factor"])))
    if e2e:
        for m in prot:
            L.append('BA_ "HsE2EProfile" BO_ %d 1;' % m["id"])
        for m in prot:
            L.append('BA_ "HsE2EDataId" BO_ %d %d;' % (m["id"], 0x1000 + m["id"]))
        for m in prot:
            L.append('BA_ "HsE2ESignal" SG_ %d %s_Counter 1;' % (m["id"], m["name"]))
            L.append('BA_ "HsE2ESignal" SG_ %d %s_CRC 2;' % (m["id"], m["name"]))
    for auth in auths:
        L.append('BA_ "HsSecOCCollection" BO_ %d 1;' % auth["id"])
        for i in auth["auth"]:
            L.append('BA_ "HsSecOCCryptoPdu" BO_ %d %d;' % (i, auth["id"]))
        L.append('BA_ "HsSecOCSignal" SG_ %d %s_Freshness 1;' % (auth["id"], auth["name"]))
        L.append('BA_ "HsSecOCSignal" SG_ %d %s_MAC 2;' % (auth["id"], auth["name"]))
    with open(path, "w") as f:
        f.write("\n".join(L) + "\n")
    print("wrote %s: %d in, %d out, %d messages, %d signals%s%s"
          % (path, sum(1 for s in sig if s["dir"] == "in"), sum(1 for s in sig if s["dir"] == "out"), len(msgs),
             len(sig) + (2 * len(msgs) if e2e else 0), "" if e2e else " (no E2E)",
             " (SecOC collections: %s)" % ", ".join(a["name"] for a in auths) if auths else ""))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("rt", nargs="?", default="build/hilstep-rt")
    ap.add_argument("--no-e2e", action="store_true", help="no alive counter and CRC (an ECU that writes neither)")
    ap.add_argument("--out", default="hil/dbc", help="directory to write into (default hil/dbc)")
    a = ap.parse_args()
    # The ladder's constraints can fold flat, so the default method refuses it at init; its map is
    # the same under the method that runs it.
    extra = {"ladder": ["--method", "spook"]}
    for name in ["car_axle", "pendulum", "chain", "ladder", "car_axle_mb", "car", "truck_trailer",
                 "truck_trailer_pen"]:
        write(os.path.join(a.out, "%s.dbc" % name), name, "--model " + name,
              signals(a.rt, ["--model", name] + extra.get(name, [])), not a.no_e2e)
    os.makedirs(os.path.join(a.out, "mech"), exist_ok=True)
    for f in sorted(glob.glob("model/mech/*.hsm")):
        b = os.path.basename(f)[:-4]
        write(os.path.join(a.out, "mech", "%s.dbc" % b), b, "--model-file " + f, signals(a.rt, ["--model-file", f]),
              not a.no_e2e)


main()
