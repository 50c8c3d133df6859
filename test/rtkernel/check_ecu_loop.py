#!/usr/bin/python3
"""Judges a make rtkernel-run of the quarter car with the README's python-can ECU: did the
loop close? Decodes the guest's candump log with canmatrix and holds it against the plant's
telemetry and stats and the ECU's own report line.

usage: check_ecu_loop.py RUN_DIR DBC ROAD_CSV C DT

RUN_DIR holds candump.log, telemetry.csv, plant.stats and ecu.out (user_run.sh's OUT); C and
DT are the ECU's damper constant (N s/m) and the period it differentiates over (s), as the
README's code has them. Checks, all exact unless a resolution is named:
  plant -> ECU: the ECU verified and answered as many plant frames as the plant put on the
                bus (its can_tx_frames = PlantState frames in the log, twice that with the
                state's collection PlantStateAuth), with one command each (the EcuCommand
                frames in the log);
  the ECU's law: command j carries road_z = row j of ROAD_CSV (the last row after its end)
                and F_act = clamp(-C (x_j - x_(j-1)) / DT, +-5000) with x_j the susp_travel
                of the j-th plant frame on the bus (F_act = 0 for the first): the raw values
                on the bus are canmatrix's phys2raw of these, exactly (it truncates toward 0,
                so a value is up to one factor below the law's): every command was computed
                from the plant's frames;
  ECU -> plant: test/can/check_candump.py's checks (every frame on the bus is the plant's or
                the ECU's by the counters, the plant read and accepted every ECU frame, every
                plant frame equals its telemetry row and every applied ECU frame the row it
                was applied in, to the DBC's resolution); applied + superseded + unapplied =
                accepted; the road's bump reached the model's input (at least half its height, no more).
Prints "ecu-can: ..." with the figures; exit 0 only when every check holds."""
import os
import re
import subprocess
import sys
from decimal import Decimal

import logging
logging.disable(logging.WARNING)  # canmatrix warns about optional formats it cannot load
import canmatrix.formats  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    if len(sys.argv) != 6:
        print("usage: check_ecu_loop.py RUN_DIR DBC ROAD_CSV C DT")
        return 2
    run, dbc, road_csv, c, dt = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5])
    db = canmatrix.formats.loadp_flat(dbc)
    state, cmd = db.frame_by_name("PlantState1"), db.frame_by_name("EcuCommand1")
    road = [float(l.split(",")[1]) for l in open(road_csv) if l[0].isdigit()]
    st = {}
    for line in open(os.path.join(run, "plant.stats")):
        if "=" in line:
            k, v = line.strip().split("=", 1)
            st[k] = v
    m = re.search(r"^ecu: answered (\d+) plant frames with a command each$",
                  open(os.path.join(run, "ecu.out")).read(), re.M)
    if not m:
        print("check_ecu_loop: no 'ecu: answered N plant frames' line in %s/ecu.out" % run)
        return 2
    answered = int(m.group(1))
    P, E = [], []
    # the plant's state frames in bus order and, with the state's collection, which of them its
    # PlantStateAuth followed before the next state (the ECU holds a state until its
    # authenticator verifies it, and a newer state replaces a held one: a lost authenticator, a
    # write the kernel refused under load, counted can_tx_errors, is a state the ECU never reads)
    sauth = next((fr for fr in db.frames if fr.name == "PlantStateAuth"), None)
    V, n_auth, last = [], 0, None
    for n, line in enumerate(open(os.path.join(run, "candump.log")), 1):
        parts = line.split()
        if len(parts) < 3 or "#" not in parts[2]:
            print("check_ecu_loop: candump.log:%d: not a candump -L line" % n)
            return 2
        ident, data = parts[2].split("#", 1)
        data = bytes.fromhex(data)
        if int(ident, 16) == state.arbitration_id.id and len(ident) == 3:
            d = state.decode(bytearray(data))
            P.append(Decimal(d["susp_travel"].phys_value))
            V.append(sauth is None)
            last = int(d["PlantState1_Counter"].raw_value) if sauth is not None else None
        elif sauth is not None and int(ident, 16) == sauth.arbitration_id.id and len(ident) == 3:
            n_auth += 1
            # its cycle's state: the state's alive counter runs 0, 1, .. and the freshness 1, 2, ..
            # per cycle, so an authenticator whose state was lost verifies nothing
            if P and last is not None and (int.from_bytes(data[:2], "little") - 1) % 16 == last:
                V[-1] = True
            last = None
        elif int(ident, 16) == cmd.arbitration_id.id and len(ident) == 3:
            d = cmd.decode(bytearray(data))
            E.append((d["road_z"].raw_value, d["F_act"].raw_value))
    ok = True

    def check(cond, what):
        nonlocal ok
        print("  %s %s" % ("ok  " if cond else "FAIL", what))
        ok = ok and cond

    p_tx = int(st.get("can_tx_frames", -1))
    p_enc, p_err = int(st.get("can_tx_encoded", -1)), int(st.get("can_tx_errors", -1))
    # the plant encodes PlantStateAuth after each PlantState1 when the DBC has the collection
    # (SecOC); every frame the kernel took is on the bus, every one it refused is counted
    per_p = 1 if sauth is None else 2
    P = [x for x, v in zip(P, V) if v]   # the states the ECU can verify, in order
    check(p_tx == len(V) + n_auth and p_tx + p_err == p_enc and p_enc == per_p * int(st.get("tx_frames", -1)) and len(P) > 0,
          "plant -> ECU: the plant encoded %d frames (%d per state), the kernel took %d (%d refused, counted), the bus "
          "carried %d states and %d authenticators" % (p_enc, per_p, p_tx, p_err, len(V), n_auth))
    check(answered == len(P),
          "the ECU verified and answered %d states: the %d of %d on the bus its PlantStateAuth followed"
          % (answered, len(P), len(V)))
    check(len(E) == answered, "one command per plant frame: %d commands on the bus for %d answered" % (len(E), answered))
    res = {s.name: abs(Decimal(s.factor)) / 2 * (1 + Decimal("1e-9")) + Decimal("1e-12") for s in cmd.signals}
    sz, sF = cmd.signal_by_name("road_z"), cmd.signal_by_name("F_act")
    law_bad, bad = 0, []
    x0 = None
    for j, (z, F) in enumerate(E):
        if j >= len(P):
            break
        x = float(P[j])
        want_F = 0.0 if x0 is None else max(-5000.0, min(5000.0, -c * (x - x0) / dt))
        want_z = road[min(j, len(road) - 1)]
        x0 = x
        # canmatrix's own conversion (the ECU's encoder) of the law's values: raw equal, exactly
        rz, rF = sz.phys2raw(Decimal(want_z)), sF.phys2raw(Decimal(want_F))
        if F != rF or z != rz:
            law_bad += 1
            if len(bad) < 5:
                bad.append("command %d: raw road_z %s F_act %s, the law gives %r %r (raw %s %s)"
                           % (j + 1, z, F, want_z, want_F, rz, rF))
    moved = sum(1 for _, F in E if F != 0)
    check(law_bad == 0 and moved > 0,
          "the ECU's law on the plant's frames: %d of %d commands = road row j and -c dx/dt of plant frames j-1, j (%d with F_act != 0)"
          % (len(E) - law_bad, len(E), moved))
    for b in bad:
        print("    " + b)
    # The ECU's side as check_candump.py reads it (its counters: what the ECU said it sent).
    est = os.path.join(run, "ecu.stats")
    with open(est, "w") as f:
        # the README's ECU sends EcuCommandAuth after each command when the DBC has it (SecOC)
        per = 2 if any(fr.name == "EcuCommandAuth" for fr in db.frames) else 1
        f.write("can_tx_frames=%d\ncan_rx_frames=%d\n" % (per * answered, answered))
    r = subprocess.run([sys.executable, os.path.join(HERE, "..", "can", "check_candump.py"),
                        os.path.join(run, "candump.log"), dbc, os.path.join(run, "telemetry.csv"),
                        os.path.join(run, "plant.stats"), est], capture_output=True, text=True)
    for line in r.stdout.splitlines():
        print("    " + line)
    check(r.returncode == 0, "ECU -> plant: check_candump.py (bus = telemetry = counters) exit %d" % r.returncode)
    acc, used = int(st.get("can_rx_accepted", -1)), int(st.get("rx_used", -1))
    sup, una = int(st.get("rx_superseded", -1)), int(st.get("rx_unapplied", -1))
    check(used + sup + una == acc and used > 0,
          "commands in the telemetry: %d applied + %d superseded + %d left at the end = %d accepted" % (used, sup, una, acc))
    import csv
    rows = list(csv.DictReader(open(os.path.join(run, "telemetry.csv"))))
    zcol = next(k for k in rows[0] if k.startswith("in_road_z"))
    zmax = max(Decimal(r[zcol]) for r in rows)
    # Superseded commands never reach the telemetry, so the bump's top row may be missing; its
    # upper half lasts 9 rows (90 ms), longer than the emulator's stalls (70 ms seen).
    # "no more" within the encoding: raw 2500000 at the DBC's factor 2e-08 decodes to the double
    # nearest 2500000 * 2e-08, at most a rounding step above the CSV's 0.05
    top = Decimal(max(road)) * (1 + Decimal("1e-15"))
    check(zmax >= Decimal(max(road)) / 2 and zmax <= top,
          "the road's bump reached the model: largest road_z in the telemetry %s m, the road's %s m" % (zmax, max(road)))
    print("ecu-can: plant->ecu %d/%d frames, ecu->plant %d/%d frames, commands applied %d superseded %d, law mismatches %d"
          % (answered, p_tx, int(st.get("can_rx_frames", -1)), len(E), used, sup, law_bad))
    return 0 if ok else 1


sys.exit(main())
