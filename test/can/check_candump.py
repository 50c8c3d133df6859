#!/usr/bin/python3
"""Checks a CAN run of the plant against the bus as candump logged it, decoding with
python3-canmatrix (an implementation of DBC semantics that is not ours).

usage: check_candump.py CANDUMP_LOG DBC PLANT_CSV PLANT_STATS ECU_STATS

CANDUMP_LOG is `candump -L IF` output: "(sec.usec) IF ID#HEX" (classic) or "ID##FHEX" (CAN FD).
PLANT_CSV is hilstep-rt's telemetry (--log), the stats files are `--stats` of hilstep-rt and
hilstep-ecu. The run must have been: candump started first; hilstep-rt; hilstep-ecu started
after the plant's socket was open and ended before the plant's (so the plant read every ECU
frame); candump stopped last (test/can/scenario.sh does this).

Checks, all exact:
  frames: the frames logged with the plant's ids = the plant's can_tx_frames; with the ECU's
          ids = the ECU's can_tx_frames; no other frame on the bus; the plant read every ECU
          frame (plant can_rx_frames = ECU can_tx_frames) and accepted all of them.
  decode: the k-th frame of a plant message with cycle c periods carries the outputs of the
          k-th CSV row whose tick is a multiple of c: every signal decoded by canmatrix equals
          the CSV's out_<name> to the DBC's resolution (|a - b| <= factor / 2). Every ECU frame
          the plant applied (CSV rows flagged fresh, in_seq = the frame's number on the bus
          among the ECU's) decodes to the CSV's in_<name> to the same resolution.
  e2e:    every frame of a message with HsE2EProfile carries the CRC test/can/e2e.py computes
          and its message's previous counter + 1.
  losses: a frame the sender's kernel refused (write() failed: ENOBUFS under load; counted
          in the sender's can_tx_errors, its E2E counter spent) is not on the bus. The sender's
          books must balance exactly (can_tx_frames + can_tx_errors = can_tx_encoded), and the
          check realigns past at most can_tx_errors frames in all: a protected message skips
          exactly the rows its counter jumped over, an unprotected one the fewest rows that make
          the frame decode; every skipped row is one of the counted errors, so a frame lost
          without a count, or one error too many, still fails.
Prints "can: frames=N candump=N decode_mismatch=N" (N frames = plant + ECU counters) and
details of what differs; exit 0 only when every check holds."""
import csv
import sys
from decimal import Decimal

import logging
logging.disable(logging.WARNING)  # canmatrix warns about optional formats it cannot load
import canmatrix.formats  # noqa: E402
import os  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402


def die(msg):
    print("check_candump: " + msg)
    sys.exit(2)


def stats(path):
    out = {}
    try:
        with open(path) as f:
            for line in f:
                if "=" in line:
                    k, v = line.strip().split("=", 1)
                    try:
                        out[k] = float(v)
                    except ValueError:
                        pass
    except OSError as e:
        die("%s: %s" % (path, e.strerror))
    return out


def candump(path):
    """[(id, extended, fd, payload bytes)] in log order."""
    frames = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            parts = line.split()
            if not parts:
                continue
            if len(parts) < 3 or "#" not in parts[2]:
                die("%s:%d: not a candump -L line: %s" % (path, n, line.strip()))
            ident, data = parts[2].split("#", 1)
            fd = data.startswith("#")
            if fd:
                data = data[2:]  # the flags nibble
            if data.startswith("R"):
                data = ""
            frames.append((int(ident, 16), len(ident) == 8, fd, bytes.fromhex(data)))
    return frames


def main():
    if len(sys.argv) != 6:
        die("usage: check_candump.py CANDUMP_LOG DBC PLANT_CSV PLANT_STATS ECU_STATS")
    log, dbc, csv_path, pst_path, est_path = sys.argv[1:]
    db = canmatrix.formats.loadp_flat(dbc)
    bus = candump(log)
    pst, est = stats(pst_path), stats(est_path)
    with open(csv_path) as f:
        rows = list(csv.DictReader(f))
    if not rows:
        die("%s: no telemetry rows" % csv_path)
    cols = rows[0].keys()
    outs = {c.split("[")[0][4:]: c for c in cols if c.startswith("out_")}
    ins = {c.split("[")[0][3:]: c for c in cols if c.startswith("in_") and c != "in_seq"}
    # the period: planned_ns / tick of a row past the first
    period_ns = next((int(r["planned_ns"]) // int(r["tick"]) for r in rows if int(r["tick"]) > 0), 0)
    if period_ns <= 0:
        die("%s: cannot tell the period (one row only?)" % csv_path)

    plant_msgs, ecu_msgs, auth_msgs = {}, {}, {}
    for fr in db.frames:
        names = [s.name for s in fr.signals if not e2e.is_e2e_signal(s)]
        key = (fr.arbitration_id.id, bool(fr.arbitration_id.extended))
        if not names and str(fr.attributes.get("HsSecOCCollection", "none")) in ("HMAC_SHA256_TRUNCATED", "1"):
            auth_msgs[key] = fr  # a SecOC collection's cryptographic message: no values, its sender's
        elif names and all(n in outs for n in names):
            plant_msgs[key] = fr
        elif names and all(n in ins for n in names):
            ecu_msgs[key] = fr
        else:
            die("%s: message %s binds neither to the CSV's outputs nor its inputs" % (dbc, fr.name))

    n_plant = n_ecu = n_other = 0
    mismatch = 0
    details = []
    per_msg = {k: 0 for k in plant_msgs}
    due_rows = {}
    for key, fr in plant_msgs.items():
        every = max(1, fr.cycle_time * 1000000 // period_ns) if fr.cycle_time else 1
        due_rows[key] = [r for r in rows if int(r["tick"]) % every == 0]
    ecu_frames = []
    e2e_bad = []
    last_ctr = {}
    # Frames each sender's kernel refused: the budget the realignment may spend (see losses).
    lost = {"plant": int(pst.get("can_tx_errors", 0)), "ecu": int(est.get("can_tx_errors", 0))}
    spent = {"plant": 0, "ecu": 0}
    for ident, ext, fd, data in bus:
        key = (ident, ext)
        fr = plant_msgs.get(key) or ecu_msgs.get(key)
        side = "plant" if key in plant_msgs else "ecu"
        lay = e2e.layout(fr) if fr is not None else None
        jumped = None  # rows a protected message's counter skipped (frames lost before this one)
        if lay and len(data) == fr.size:
            # E2E, judged by test/can/e2e.py's CRC (not the codec's): CRC right, counter + 1
            # (or + 1 + the frames lost, when the sender counted that many refused writes).
            prof, did, cs, crs = lay
            dec = fr.decode(bytearray(data))
            byte = crs.start_bit // 8
            want = e2e.e2e_crc(prof, did, data, byte)
            ctr = int(dec[cs.name].raw_value)
            if data[byte] != want:
                e2e_bad.append("%s: CRC 0x%02X, expected 0x%02X" % (fr.name, data[byte], want))
            if key in last_ctr:
                jumped = (ctr - last_ctr[key] - 1) % (1 << cs.size)
                if jumped > lost[side] - spent[side]:
                    e2e_bad.append("%s: counter %d after %d (%d %s frames refused by the kernel, %d "
                                   "already accounted)" % (fr.name, ctr, last_ctr[key], lost[side], side,
                                                            spent[side]))
                    jumped = 0
                elif key in ecu_msgs:
                    spent[side] += jumped  # plant frames are charged below, with their rows
            last_ctr[key] = ctr
        if key in plant_msgs:
            fr = plant_msgs[key]
            k = per_msg[key]
            n_plant += 1
            skip = realign(fr, fd, data, due_rows[key], k, outs, jumped, lost["plant"] - spent["plant"])
            spent["plant"] += skip
            k += skip
            per_msg[key] = k + 1
            if k >= len(due_rows[key]):
                mismatch += 1
                details.append("%s frame %d: no CSV row due for it" % (fr.name, k + 1))
                continue
            row = due_rows[key][k]
            bad = check_frame(fr, fd, data, row, outs)
            if bad:
                mismatch += 1
                details.append("%s frame %d (tick %s): %s" % (fr.name, k + 1, row["tick"], bad))
        elif key in ecu_msgs:
            n_ecu += 1
            ecu_frames.append((ecu_msgs[key], fd, data))
        elif key in auth_msgs and "PLANT" in auth_msgs[key].transmitters:
            n_plant += 1  # the plant's collection (its state): counted in its can_tx_frames
        elif key in auth_msgs:
            n_ecu += 1  # the plant counts it can_rx_secoc_verified, not accepted (in_seq skips it)
        else:
            n_other += 1
    applied = 0
    for row in rows:
        seq = int(row["in_seq"])
        if not int(row["fresh"]) or seq == 0:
            continue
        applied += 1
        if seq > len(ecu_frames):
            mismatch += 1
            details.append("tick %s applied ECU frame %d, the bus carried %d" % (row["tick"], seq, len(ecu_frames)))
            continue
        fr, fd, data = ecu_frames[seq - 1]
        bad = check_frame(fr, fd, data, row, ins)
        if bad:
            mismatch += 1
            details.append("ECU frame %d (%s, applied at tick %s): %s" % (seq, fr.name, row["tick"], bad))

    p_tx, e_tx = int(pst.get("can_tx_frames", -1)), int(est.get("can_tx_frames", -1))
    p_rx, p_acc = int(pst.get("can_rx_frames", -1)), int(pst.get("can_rx_accepted", -1))
    p_acc += int(pst.get("can_rx_secoc_verified", 0))  # the collection's verified cryptographic frames
    print("can: frames=%d candump=%d decode_mismatch=%d" % (p_tx + e_tx, len(bus), mismatch))
    if lost["plant"] or lost["ecu"]:
        print("  info refused by the kernel: plant %d, ECU %d frames; realigned past %d and %d"
              % (lost["plant"], lost["ecu"], spent["plant"], spent["ecu"]))
    p_enc, e_enc = int(pst.get("can_tx_encoded", -1)), int(est.get("can_tx_encoded", -1))
    ok = True
    for cond, what in [
            (p_enc < 0 or p_tx + lost["plant"] == p_enc,
             "plant can_tx_frames %d + can_tx_errors %d = can_tx_encoded %d" % (p_tx, lost["plant"], p_enc)),
            (e_enc < 0 or e_tx + lost["ecu"] == e_enc,
             "ECU can_tx_frames %d + can_tx_errors %d = can_tx_encoded %d" % (e_tx, lost["ecu"], e_enc)),
            (p_tx == n_plant, "plant can_tx_frames %d, candump logged %d plant frames" % (p_tx, n_plant)),
            (e_tx == n_ecu, "ECU can_tx_frames %d, candump logged %d ECU frames" % (e_tx, n_ecu)),
            (n_other == 0, "%d frames with ids of neither" % n_other),
            (p_rx == e_tx and p_acc == p_rx, "plant can_rx_frames %d (accepted %d), ECU sent %d" % (p_rx, p_acc, e_tx)),
            (mismatch == 0, "decode mismatches %d" % mismatch),
            (not e2e_bad, "E2E (CRC by test/can/e2e.py, alive counter + 1 per message): %d frames of %d protected "
             "messages wrong%s" % (len(e2e_bad), len(last_ctr), (": " + "; ".join(e2e_bad[:3])) if e2e_bad else "")),
            (applied > 0 and n_plant > 0, "%d plant frames decoded, %d applied ECU frames decoded" % (n_plant, applied))]:
        print("  %s %s" % ("ok  " if cond else "FAIL", what))
        ok = ok and cond
    for d in details[:10]:
        print("    " + d)
    sys.exit(0 if ok else 1)


def realign(fr, fd, data, due, k, cols, jumped, budget):
    """Rows to skip before due[k] for this plant frame: 0 without refused writes left; a
    protected message's counter jump; else the fewest rows (<= budget) after which the frame
    decodes (0 when none does: the mismatch is then reported at due[k])."""
    if budget <= 0:
        return 0
    if jumped is not None:
        return jumped
    for j in range(0, budget + 1):
        if k + j < len(due) and not check_frame(fr, fd, data, due[k + j], cols):
            return j
    return 0


def check_frame(fr, fd, data, row, cols):
    """'' when every signal of fr decoded from data equals the row's value to the resolution."""
    if len(data) != fr.size or bool(fd) != bool(fr.is_fd):
        return "length %d%s, the DBC says %d%s" % (len(data), " FD" if fd else "", fr.size, " FD" if fr.is_fd else "")
    dec = fr.decode(bytearray(data))
    for s in fr.signals:
        if e2e.is_e2e_signal(s):
            continue
        got = Decimal(dec[s.name].phys_value)
        want = Decimal(row[cols[s.name]])
        tol = abs(Decimal(s.factor)) / 2 * (1 + Decimal("1e-9")) + Decimal("1e-12")
        if abs(got - want) > tol:
            return "%s bus %s, CSV %s (resolution %s)" % (s.name, got, want, s.factor)
    return ""


main()
