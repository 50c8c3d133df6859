#!/usr/bin/python3
"""mdf_kill.py - mdf-test's SIGKILL series: hilstep-rt runs (--log FILE.csv --log FILE.mf4, no
ECU, run side by side), each killed with SIGKILL at a random instant. While a run goes, the
.mf4 is copied every 20 ms (snapshots) and the CSV's complete rows are counted. After each
kill, through the independent reader test/mdf/mdf_reader.py in strict mode (no recovery):
  - the file is a finalized MDF 4.1 file, its ##DT exactly the declared records;
  - it declares at least the rows the CSV held more than 100 ms before the kill (the logger
    flushes the CSV, then the MDF log, in the same pass) and at most the CSV's rows;
  - every declared record equals its CSV row bit for bit (mdf_check.py's rules);
  - up to 6 snapshots per run, read strictly too, are valid files whose records are a prefix
    of the final file's (the file was valid at those instants, and no record changed after).
usage: mdf_kill.py BUILD DIR PORT... (one run per free UDP port). Each kill comes 0.15 to
0.9 s after the CSV's first row was seen (so rows were flushed 100 ms before it); the seed of
the kill instants is printed; MDF_KILL_SEED=N repeats it. Ends with "N passed, N failed"."""
import os
import random
import signal
import subprocess
import sys
import time

import mdf_check
import mdf_reader

POLL = 0.02          # s between snapshots
SAMPLES = 6          # snapshots per run read strictly
KILL_AT = (0.15, 0.9)  # s after the first CSV row is seen: the kill instant's range
NO_ROWS = 5.0          # s without a CSV row: killed anyway (and found short)


def csv_rows(path):
    """Complete rows in the CSV now (lines after the header)."""
    try:
        with open(path, "rb") as f:
            return max(f.read().count(b"\n") - 1, 0)
    except OSError:
        return 0


def start(build, d, i, port):
    base = os.path.join(d, "k%d" % i)
    cmd = [os.path.join(build, "hilstep-rt"), "--model", "circular_track", "--listen",
           "127.0.0.1:%s" % port, "--peer", "127.0.0.1:9", "--no-auth", "--quiet", "--budget-us",
           "1000000", "--allow-no-ecu", "--duration", "10", "--log", base + ".csv", "--log", base + ".mf4"]
    out = open(base + ".out", "wb")
    p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
    return {"p": p, "base": base, "t0": time.monotonic(), "snaps": [], "rows_at": [], "killed": None, "at": None}


def sample(r):
    """A snapshot of the .mf4 and the CSV's rows, stamped after both reads."""
    try:
        with open(r["base"] + ".mf4", "rb") as f:
            data = f.read()
    except OSError:
        data = b""
    rows = csv_rows(r["base"] + ".csv")
    now = time.monotonic()
    if data:
        r["snaps"].append(data)
    r["rows_at"].append((now, rows))


def check_run(r, i):
    rc = r["p"].returncode
    mdf_check.check(rc == -signal.SIGKILL, "run %d: killed by SIGKILL %.3f s after its start" % (i, r["killed"] - r["t0"]),
                    "run %d: exit %s, not the SIGKILL" % (i, rc))
    # The rows the CSV held more than 100 ms before the kill (stamped after their read).
    early = [n for t, n in r["rows_at"] if t <= r["killed"] - 0.1]
    least = early[-1] if early else 0
    try:
        final = mdf_check.run("killed", r["base"] + ".mf4", r["base"] + ".csv", {}, least)
    except mdf_reader.MdfError as e:
        mdf_check.ko("run %d: the strict reader refuses the killed run's file: %s" % (i, e))
        return
    g = final["groups"][0]
    snaps = r["snaps"]
    pick = sorted(set(snaps[int(k * (len(snaps) - 1) / (SAMPLES - 1))] for k in range(SAMPLES))) if snaps else []
    bad = None
    for s in pick:
        try:
            m = mdf_reader.read(None, strict=True, data=s, values=False)
        except mdf_reader.MdfError as e:
            bad = "a snapshot of %d bytes: %s" % (len(s), e)
            break
        sg = m["groups"][0]
        if sg["cycles"] > g["cycles"] or sg["raw"] != g["raw"][:sg["cycles"]]:
            bad = "a snapshot's %d records are not a prefix of the final %d" % (sg["cycles"], g["cycles"])
            break
    mdf_check.check(bad is None and len(pick) >= 2,
                    "run %d: %d snapshots during the run read strictly, each a prefix of the final file"
                    % (i, len(pick)), "run %d: %s (%d snapshots)" % (i, bad, len(pick)))


def main():
    build, d, ports = sys.argv[1], sys.argv[2], sys.argv[3:]
    seed = int(os.environ.get("MDF_KILL_SEED", str(int.from_bytes(os.urandom(4), "little"))))
    rnd = random.Random(seed)
    print("  info seed %d (MDF_KILL_SEED=%d repeats the kill instants)" % (seed, seed))
    runs = [start(build, d, i, p) for i, p in enumerate(ports)]
    while any(r["killed"] is None for r in runs):
        for r in runs:
            if r["killed"] is not None:
                continue
            sample(r)
            now = time.monotonic()
            if r["at"] is None and r["rows_at"][-1][1] > 0:
                r["at"] = r["rows_at"][-1][0] + rnd.uniform(*KILL_AT)
            if (r["at"] is not None and now >= r["at"]) or now - r["t0"] > NO_ROWS:
                r["killed"] = now  # before the signal: "100 ms before the kill" errs early
                r["p"].send_signal(signal.SIGKILL)
                r["p"].wait()
        time.sleep(POLL)
    for i, r in enumerate(runs):
        check_run(r, i)
    print("%d passed, %d failed" % (mdf_check.passed, mdf_check.failed))
    return 1 if mdf_check.failed else 0


if __name__ == "__main__":
    sys.exit(main())
