#!/usr/bin/python3
"""Holds the shipped generated DBCs (hil/dbc/*.dbc but the hand-written circular_track.dbc,
hil/dbc/mech/*.dbc) to what hil/CAN.md ("Shipped DBCs") says of them. Per file:
  generated: test/can/gen_dbc.py writes it byte for byte (no hand edit, no stale file);
  E2E:       every message carries HsE2EProfile, a 4-bit alive counter and a CRC byte
             (test/can/e2e.py's reading of the file, canmatrix), but the cryptographic one;
  SecOC:     per direction with messages, exactly one cryptographic message (HsSecOCCollection
             1: 16-bit freshness at bit 0, 48-bit MAC on bytes 2..7, nothing else, its data's
             cycle) after them: EcuCommandAuth after the commands (the plant obeys them),
             PlantStateAuth after the state (the ECU's law reads it); HsSecOCCryptoPdu on every
             message carrying a signal, naming its direction's, and on no other;
  range:     every data signal's DBC [min|max] holds the model's own map range (hilstep-rt
             --signals without the DBC: the range the plant holds every output to, one outside
             it being a refused step; inputs are clamped into it), and its raw range holds the
             map's ends (no saturation); the map hilstep-rt builds from the DBC has the model's
             own ranges and fallbacks, line for line (the DBC narrows nothing);
  resolution: the range spans at least 2^24 steps of the factor (a 24-bit converter's);
  outputs:   a run of the model on hilstep-sim (inputs on their fallbacks, 1 s at 1 ms): every
             output value of every step lies in its signal's DBC range and canmatrix's
             encoding of it (phys2raw, then raw2phys) is within the signal's factor of it.
usage: check_shipped_dbc.py BUILD_DIR TMP_DIR. Ends with "N passed, N failed"."""
import csv
import filecmp
import glob
import os
import subprocess
import sys
from decimal import Decimal

import logging
logging.disable(logging.WARNING)
import canmatrix.formats  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402

B, T = sys.argv[1], sys.argv[2]
PY = sys.executable
REG = ["car_axle", "pendulum", "chain", "ladder", "car_axle_mb", "car", "truck_trailer", "truck_trailer_pen"]
EXTRA = {"ladder": ["--method", "spook"]}
passed = failed = 0


def check(cond, what):
    global passed, failed
    print("  %s %s" % ("ok  " if cond else "FAIL", what))
    if cond:
        passed += 1
    else:
        failed += 1


def sigmap(args):
    out = subprocess.run([os.path.join(B, "hilstep-rt")] + args + ["--signals"], capture_output=True, text=True)
    rows = {}
    for line in out.stdout.splitlines()[2:]:
        f = line.split()
        if len(f) >= 9 and f[0] in ("in", "out"):
            rows[(f[0], ident(f[2]))] = (Decimal(f[-4]), Decimal(f[-3]), Decimal(f[-2]))
    return out.returncode, rows


def ident(name):
    return "".join(c if c.isalnum() or c == "_" else "_" for c in name)


def models():
    for m in REG:
        yield m, "hil/dbc/%s.dbc" % m, ["--model", m] + EXTRA.get(m, [])
    for f in sorted(glob.glob("model/mech/*.hsm")):
        n = os.path.basename(f)[:-4]
        yield n, "hil/dbc/mech/%s.dbc" % n, ["--model-file", f]


def raw_ends(s):
    n = int(s.size)
    return (-(2 ** (n - 1)), 2 ** (n - 1) - 1) if s.is_signed else (0, 2 ** n - 1)


# generated: the generator's output, byte for byte
gen = os.path.join(T, "gen")
os.makedirs(gen, exist_ok=True)
r = subprocess.run([PY, "test/can/gen_dbc.py", os.path.join(B, "hilstep-rt"), "--out", gen], capture_output=True, text=True)
files = [d for _, d, _ in models()]
same = [d for d in files if os.path.exists(os.path.join(gen, d[len("hil/dbc/"):]))
        and filecmp.cmp(d, os.path.join(gen, d[len("hil/dbc/"):]), shallow=False)]
check(r.returncode == 0 and len(same) == len(files),
      "%d of %d shipped DBCs are test/can/gen_dbc.py's output byte for byte%s"
      % (len(same), len(files), "" if r.returncode == 0 else ": " + r.stderr.strip()[-200:]))

n_msg = n_e2e = n_sig = 0
n_coll = n_auth = n_noin = 0
bad_sec = []
bad_e2e, bad_range, bad_res, bad_map, bad_out = [], [], [], [], []
n_vals = 0
worst_res = None  # (steps, name)
for model, dbc, args in models():
    db = canmatrix.formats.loadp_flat(dbc)
    rc, own = sigmap(args)
    rc2, via = sigmap(args + ["--transport", "can", "--can-if", "none", "--dbc", dbc])
    if rc != 0 or not own:
        bad_map.append("%s: hilstep-rt --signals exit %d" % (model, rc))
        continue
    if rc2 != 0:
        bad_map.append("%s: hilstep-rt --dbc %s --signals exit %d" % (model, dbc, rc2))
    elif via != own:
        bad_map.append("%s: %s" % (model, sorted(set(via.items()) ^ set(own.items()))[:2]))
    by_ident = {ident(n): v for (_, n), v in own.items()}
    sigs = {}
    ins = {ident(n) for (d, n) in own if d == "in"}
    outs = {ident(n) for (d, n) in own if d == "out"}
    coll = [fr for fr in db.frames if str(fr.attributes.get("HsSecOCCollection", "none")) in ("HMAC_SHA256_TRUNCATED", "1")]
    by = {fr.name: int(fr.attributes["HsSecOCCryptoPdu"]) for fr in db.frames if "HsSecOCCryptoPdu" in fr.attributes}
    order = [fr.name for fr in db.frames]
    # one collection per direction that has messages: the ECU's commands (the plant verifies
    # them) and the plant's state (the ECU verifies it); every authentic message in exactly one
    covered = {}
    for d, names, want in (("in", ins, "EcuCommandAuth"), ("out", outs, "PlantStateAuth")):
        data = [fr for fr in db.frames if any(s.name in names for s in fr.signals)]
        mine = [c for c in coll if c.name == want]
        if not data:
            n_noin += d == "in"
            if mine:
                bad_sec.append("%s: %s without %s" % (model, want, "inputs" if d == "in" else "outputs"))
            continue
        if len(mine) != 1:
            bad_sec.append("%s: %d %s messages" % (model, len(mine), want))
            continue
        c = mine[0]
        fv = [s for s in c.signals if s.attributes.get("HsSecOCSignal") in ("freshness", "1")]
        mac = [s for s in c.signals if s.attributes.get("HsSecOCSignal") in ("mac", "2")]
        ok = (len(c.signals) == 2 and len(fv) == 1 and len(mac) == 1 and fv[0].start_bit == 0 and int(fv[0].size) == 16
              and mac[0].start_bit == 16 and int(mac[0].size) == 48 and int(c.size) == 8
              and all(by.get(fr.name) == c.arbitration_id.id for fr in data)
              and all(order.index(fr.name) < order.index(c.name) for fr in data)
              and all(fr.attributes.get("GenMsgCycleTime") == c.attributes.get("GenMsgCycleTime") for fr in data))
        if ok:
            n_coll += 1
            n_auth += len(data)
            covered.update({fr.name: c.arbitration_id.id for fr in data})
        else:
            bad_sec.append("%s: %s" % (model, c.name))
    if len(coll) > sum(1 for c in coll if c.name in ("EcuCommandAuth", "PlantStateAuth")) or \
            any(n not in covered for n in by):
        bad_sec.append("%s: a cryptographic message or HsSecOCCryptoPdu outside the two collections" % model)
    for fr in db.frames:
        if fr in coll:
            continue
        n_msg += 1
        lay = e2e.layout(fr)
        if lay is None or int(lay[2].size) != 4 or int(lay[3].size) != 8 or lay[3].start_bit % 8 != 0:
            bad_e2e.append("%s %s" % (model, fr.name))
        else:
            n_e2e += 1
        for s in fr.signals:
            if e2e.is_e2e_signal(s):
                continue
            n_sig += 1
            if s.name not in by_ident:
                bad_map.append("%s: DBC signal %s is not in the model's map" % (model, s.name))
                continue
            lo, hi, _ = by_ident[s.name]
            f = Decimal(s.factor)
            rl, rh = raw_ends(s)
            if not (Decimal(s.min) <= lo and Decimal(s.max) >= hi and rl * f <= lo and rh * f >= hi):
                bad_range.append("%s.%s: DBC [%s|%s] raw %s..%s x %s, map [%s, %s]"
                                 % (model, s.name, s.min, s.max, rl, rh, f, lo, hi))
            steps = (hi - lo) / f
            if worst_res is None or steps < worst_res[0]:
                worst_res = (steps, "%s.%s" % (model, s.name))
            if steps < 2 ** 24:
                bad_res.append("%s.%s: %s steps" % (model, s.name, steps))
            sigs[s.name] = s
    # the model's outputs on the simulator, through canmatrix's encoding
    if not any(k == "out" for k, _ in own):
        continue
    out_csv = os.path.join(T, model + ".csv")
    sim = subprocess.run([os.path.join(B, "hilstep-sim")] + args + ["--h", "1e-3", "--t", "1", "--csv", out_csv],
                         capture_output=True, text=True)
    if sim.returncode != 0:
        bad_out.append("%s: hilstep-sim exit %d: %s" % (model, sim.returncode, sim.stderr.strip()[-150:]))
        continue
    rows = list(csv.DictReader(open(out_csv)))
    for col in rows[0]:
        if not col.startswith("out_"):
            continue
        s = sigs.get(ident(col[4:].split("[")[0]))
        if s is None:
            bad_out.append("%s: column %s has no DBC signal" % (model, col))
            continue
        f = Decimal(s.factor)
        for row in rows:
            v = Decimal(row[col])
            n_vals += 1
            back = s.raw2phys(s.phys2raw(v))
            if not (Decimal(s.min) <= v <= Decimal(s.max)) or abs(back - v) > f:
                bad_out.append("%s.%s = %s: DBC [%s|%s], encoded %s" % (model, s.name, v, s.min, s.max, back))
                break

check(n_msg > 0 and not bad_e2e, "%d of %d messages protected (HsE2EProfile, 4-bit counter, CRC in a whole byte)%s"
      % (n_e2e, n_msg, ": not " + ", ".join(bad_e2e[:4]) if bad_e2e else ""))
check(n_coll > 0 and not bad_sec, "%d collections (EcuCommandAuth after the commands where a DBC has inputs, "
      "PlantStateAuth after the state where it has outputs; each 16-bit freshness, 48-bit MAC), covering all %d "
      "messages that carry signals, each in one; %d DBCs without inputs: no EcuCommandAuth%s"
      % (n_coll, n_auth, n_noin, ": " + "; ".join(bad_sec[:3]) if bad_sec else ""))
check(n_sig > 0 and not bad_range, "%d data signals: DBC range and raw range hold the model's map range%s"
      % (n_sig, ": " + "; ".join(bad_range[:3]) if bad_range else ""))
check(not bad_map, "the map hilstep-rt builds from each of the %d DBCs = the model's own (ranges, fallbacks)%s"
      % (len(files), ": " + "; ".join(bad_map[:3]) if bad_map else ""))
check(n_sig > 0 and not bad_res, "every range spans >= 2^24 steps of its factor (fewest: %s, %.4g steps)%s"
      % (worst_res[1], worst_res[0], ": " + "; ".join(bad_res[:3]) if bad_res else ""))
check(n_vals > 0 and not bad_out, "%d output values of 1 s runs on hilstep-sim inside their DBC range, encoded by canmatrix "
      "within one factor%s" % (n_vals, ": " + "; ".join(bad_out[:3]) if bad_out else ""))
print("shipped-dbc: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
