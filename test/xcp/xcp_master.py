#!/usr/bin/python3
"""xcp_master.py - an XCP master and an A2L reader, written from ASAM MCD-1 XCP 1.5 (protocol
layer, XCP on Ethernet transport layer) and ASAM MCD-2 MC 1.7 for the xcp-test suite; it shares
no code with the slave (hil/hs_xcp.c) or the A2L writer (port/linux-rt/hs_xcp_port.c).

Usage: xcp_master.py A2L HSM|- KEYFILE|- [DAQ_SECONDS]
It runs against a hilstep-rt started with --xcp at the A2L's XCP_ON_UDP_IP address and prints
"ok"/"FAIL" lines and "N passed, N failed" last. KEYFILE: the link key (hex, '#' comments) for
SEED & KEY, '-' for an unauthenticated slave. HSM '-': a C model (a calibration read back and
one beyond its limits, no DAQ). DAQ_SECONDS: only a DAQ of every output for that long, every
frame checked (the latency comparison of the suite)."""
import hashlib
import hmac
import re
import socket
import struct
import sys
import time

# Command codes and error codes (XCP 1.5 part 2).
CONNECT, DISCONNECT, GET_STATUS, SYNCH, GET_COMM_MODE_INFO, GET_ID = 0xFF, 0xFE, 0xFD, 0xFC, 0xFB, 0xFA
GET_SEED, UNLOCK, SET_MTA, UPLOAD, SHORT_UPLOAD, DOWNLOAD = 0xF8, 0xF7, 0xF6, 0xF5, 0xF4, 0xF0
SET_DAQ_PTR, WRITE_DAQ, SET_DAQ_LIST_MODE, START_STOP_DAQ_LIST = 0xE2, 0xE1, 0xE0, 0xDE
START_STOP_SYNCH, GET_DAQ_PROCESSOR_INFO, GET_DAQ_RESOLUTION_INFO = 0xDD, 0xDA, 0xD9
FREE_DAQ, ALLOC_DAQ, ALLOC_ODT, ALLOC_ODT_ENTRY = 0xD6, 0xD5, 0xD4, 0xD3
ERR = {0x00: "CMD_SYNCH", 0x10: "CMD_BUSY", 0x11: "DAQ_ACTIVE", 0x20: "CMD_UNKNOWN", 0x21: "CMD_SYNTAX",
       0x22: "OUT_OF_RANGE", 0x23: "WRITE_PROTECTED", 0x24: "ACCESS_DENIED", 0x25: "ACCESS_LOCKED",
       0x27: "MODE_NOT_VALID", 0x29: "SEQUENCE", 0x2A: "DAQ_CONFIG", 0x30: "MEMORY_OVERFLOW"}

passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
        print("  ok   " + what)
    else:
        failed += 1
        print("  FAIL " + what)
    return cond


# ------------------------------------------------------------------ A2L reader ----
def read_a2l(path):
    """The blocks this suite needs, from the A2L's grammar: /begin KEYWORD ... /end KEYWORD."""
    text = open(path).read()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    toks = re.findall(r'"(?:[^"\\]|\\.)*"|/begin|/end|[^\s]+', text)
    a2l = {"version": None, "meas": {}, "char": {}, "compu": {}, "layout": {}, "udp": None,
           "proto": None, "epk": None, "addr_epk": None, "daq": None, "byte_order": None}
    i = 0
    stack = []

    def body(j):
        """Tokens from j to the matching /end, and the index after it."""
        depth, k = 1, j
        while depth:
            if toks[k] == "/begin":
                depth += 1
            elif toks[k] == "/end":
                depth -= 1
            k += 1
        return toks[j:k - 1], k + 1

    while i < len(toks):
        t = toks[i]
        if t == "ASAP2_VERSION":
            a2l["version"] = (int(toks[i + 1]), int(toks[i + 2]))
            i += 3
            continue
        if t != "/begin":
            i += 1
            continue
        kw = toks[i + 1]
        if kw in ("PROJECT", "MODULE", "IF_DATA", "DAQ"):
            stack.append(kw)
            if kw == "DAQ":
                b, _ = body(i + 2)
                a2l["daq"] = b
            i += 2 + (1 if kw in ("IF_DATA",) else 0)
            continue
        b, nxt = body(i + 2)
        if kw == "MEASUREMENT":
            name, _, dtype, conv = b[0], b[1], b[2], b[3]
            lo, hi = float(b[6]), float(b[7])
            addr = int(b[b.index("ECU_ADDRESS") + 1], 16)
            a2l["meas"][name] = dict(type=dtype, conv=conv, lo=lo, hi=hi, addr=addr)
        elif kw == "CHARACTERISTIC":
            name, _, ctype, addr, layout, _, conv, lo, hi = b[:9]
            unit = b[b.index("PHYS_UNIT") + 1].strip('"') if "PHYS_UNIT" in b else ""
            a2l["char"][name] = dict(type=ctype, addr=int(addr, 16), layout=layout, conv=conv,
                                     lo=float(lo), hi=float(hi), unit=unit)
        elif kw == "COMPU_METHOD":
            a2l["compu"][b[0]] = dict(type=b[2], unit=b[4].strip('"'))
        elif kw == "RECORD_LAYOUT":
            a2l["layout"][b[0]] = b[1:]
        elif kw == "XCP_ON_UDP_IP":
            a2l["udp"] = (b[b.index("ADDRESS") + 1].strip('"'), int(b[1], 0))
        elif kw == "PROTOCOL_LAYER":
            a2l["proto"] = b
        elif kw == "MOD_PAR":
            if "EPK" in b:
                a2l["epk"] = b[b.index("EPK") + 1].strip('"')
            if "ADDR_EPK" in b:
                a2l["addr_epk"] = int(b[b.index("ADDR_EPK") + 1], 16)
        elif kw == "MOD_COMMON":
            if "BYTE_ORDER" in b:
                a2l["byte_order"] = b[b.index("BYTE_ORDER") + 1]
        i = nxt
    return a2l


def hsm_params(path):
    """The description's param statements evaluated as the format says (+ - * / and names)."""
    vals = {}
    for line in open(path):
        line = line.split("#")[0].strip()
        m = re.match(r"param\s+([A-Za-z_]\w*)\s*=\s*(.+)$", line)
        if m:
            vals[m.group(1)] = float(eval(m.group(2), {"__builtins__": {}}, dict(vals)))
    return vals


# ------------------------------------------------------------------ the master ----
class XcpError(Exception):
    def __init__(self, code):
        Exception.__init__(self, ERR.get(code, hex(code)))
        self.code = code
        self.name = ERR.get(code, hex(code))


class Master:
    """XCP on UDP/IP: each packet is LEN (WORD), CTR (WORD), then the XCP packet (Intel)."""

    def __init__(self, addr):
        self.addr = addr
        self.s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 22)
        self.s.bind(("127.0.0.1", 0))
        self.ctr = 0
        self.dtos = []          # (slave CTR, packet bytes, arrival time)
        self.slave_ctr = []     # every slave packet's CTR, in arrival order

    def packets(self, timeout):
        self.s.settimeout(timeout)
        try:
            d, src = self.s.recvfrom(65536)
        except socket.timeout:
            return []
        out = []
        at = 0
        while at + 4 <= len(d):
            ln, ctr = struct.unpack_from("<HH", d, at)
            out.append((ctr, d[at + 4:at + 4 + ln]))
            at += 4 + ln
        return out

    def cmd(self, *b, raw=None, timeout=2.0):
        pkt = bytes(raw if raw is not None else b)
        self.s.sendto(struct.pack("<HH", len(pkt), self.ctr) + pkt, self.addr)
        self.ctr = (self.ctr + 1) & 0xFFFF
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for ctr, p in self.packets(max(0.001, end - time.monotonic())):
                self.slave_ctr.append(ctr)
                if p[0] == 0xFF:
                    return p
                if p[0] == 0xFE:
                    raise XcpError(p[1])
                self.dtos.append((ctr, p, time.monotonic()))
        raise TimeoutError("no response to 0x%02X" % pkt[0])

    def err(self, *b, raw=None):
        """The error name of a command expected to fail, or 'ok'."""
        try:
            self.cmd(*b, raw=raw)
            return "ok"
        except XcpError as e:
            return e.name

    def short_upload(self, addr, n):
        return self.cmd(SHORT_UPLOAD, n, 0, 0, *struct.pack("<I", addr))[1:1 + n]

    def read_f64(self, addr):
        return struct.unpack("<d", self.short_upload(addr, 8))[0]

    def download_f64(self, addr, v):
        self.cmd(SET_MTA, 0, 0, 0, *struct.pack("<I", addr))
        return self.cmd(DOWNLOAD, 8, *struct.pack("<d", v), timeout=5.0)

    def unlock(self, key, res):
        seed = self.cmd(GET_SEED, 0, res)
        n = seed[1]
        if n == 0:
            return None
        k = hmac.new(key, seed[2:2 + n], hashlib.sha256).digest()
        return self.cmd(UNLOCK, len(k), *k)


def main():
    a2l = read_a2l(sys.argv[1])
    params = hsm_params(sys.argv[2]) if sys.argv[2] != "-" else {}
    key = None
    if sys.argv[3] != "-":
        key = bytes.fromhex("".join(l.split("#")[0] for l in open(sys.argv[3])).strip())
    print("--- the A2L (ASAM MCD-2 MC 1.7) read back")
    check(a2l["version"] == (1, 71), "ASAP2_VERSION 1 71")
    check(a2l["byte_order"] == "MSB_LAST", "MOD_COMMON BYTE_ORDER MSB_LAST (Intel)")
    check(a2l["udp"] is not None and a2l["proto"] is not None, "IF_DATA XCP: PROTOCOL_LAYER, XCP_ON_UDP_IP")
    check(a2l["proto"] is not None and "ADDRESS_GRANULARITY_BYTE" in a2l["proto"], "ADDRESS_GRANULARITY_BYTE")
    refs = [m["conv"] for m in a2l["meas"].values()] + [c["conv"] for c in a2l["char"].values()]
    check(all(r in a2l["compu"] for r in refs), "every conversion names a COMPU_METHOD (%d)" % len(a2l["compu"]))
    check(all(c["layout"] in a2l["layout"] for c in a2l["char"].values()), "every CHARACTERISTIC's RECORD_LAYOUT exists")
    outs = [n for n in a2l["meas"] if n.startswith("out.")]
    ins = [n for n in a2l["meas"] if n.startswith("in.")]
    states = [n for n in a2l["meas"] if n[:2] in ("q.", "u.", "z.")]
    check(len(outs) > 0 and len(states) > 0, "MEASUREMENTs: %d outputs, %d inputs, %d states" % (len(outs), len(ins), len(states)))
    if params:
        check(sorted(a2l["char"]) == sorted(params), "a CHARACTERISTIC for every param of the description (%d)" % len(params))
    addrs = [m["addr"] for m in a2l["meas"].values()] + [c["addr"] for c in a2l["char"].values()]
    check(len(set(addrs)) == len(addrs), "addresses distinct (%d)" % len(addrs))
    m = Master(a2l["udp"])
    if len(sys.argv) > 4:
        daq_only(m, a2l, key, float(sys.argv[4]))
        return

    print("--- session: CONNECT, GET_STATUS, GET_COMM_MODE_INFO, GET_ID")
    r = m.cmd(CONNECT, 0)
    check(len(r) == 8 and r[1] & 0x05 == 0x05, "CONNECT: resources CAL/PAG and DAQ")
    check(r[2] & 0x01 == 0 and (r[2] >> 1) & 3 == 0, "COMM_MODE_BASIC: Intel byte order, granularity BYTE")
    max_cto, max_dto = r[3], struct.unpack_from("<H", r, 4)[0]
    check(str(max_cto) in a2l["proto"] and str(max_dto) in a2l["proto"], "MAX_CTO %d, MAX_DTO %d as in the A2L" % (max_cto, max_dto))
    st = m.cmd(GET_STATUS)
    check(st[2] == (0x05 if key else 0), "GET_STATUS: protection %s" % ("CAL, DAQ" if key else "none"))
    check(len(m.cmd(GET_COMM_MODE_INFO)) == 8, "GET_COMM_MODE_INFO")
    g = m.cmd(GET_ID, 1)
    n = struct.unpack_from("<I", g, 4)[0]
    ident = m.cmd(UPLOAD, n)[1:1 + n].decode()
    check(ident == a2l["epk"], "GET_ID + UPLOAD: %r, the A2L's EPK" % ident)
    check(m.short_upload(a2l["addr_epk"], len(ident)).decode() == a2l["epk"], "EPK at ADDR_EPK")

    print("--- errors")
    check(m.err(0xC9) == "CMD_UNKNOWN", "an unknown command: ERR_CMD_UNKNOWN")
    check(m.err(raw=[SET_MTA, 0, 0]) == "CMD_SYNTAX", "SET_MTA of 3 bytes: ERR_CMD_SYNTAX")
    check(m.err(raw=[SHORT_UPLOAD, 8, 0]) == "CMD_SYNTAX", "SHORT_UPLOAD of 3 bytes: ERR_CMD_SYNTAX")
    check(m.err(SHORT_UPLOAD, 8, 0, 0, *struct.pack("<I", 0x00FF0000)) == "ACCESS_DENIED", "SHORT_UPLOAD outside the map: ERR_ACCESS_DENIED")
    last = max(a2l["meas"].values(), key=lambda x: x["addr"] if x["addr"] < 0x60000 else -1)
    check(m.err(SHORT_UPLOAD, 16, 0, 0, *struct.pack("<I", last["addr"])) == "ACCESS_DENIED", "an upload past a region's end: ERR_ACCESS_DENIED")
    check(m.err(SHORT_UPLOAD, 0, 0, 0, *struct.pack("<I", last["addr"])) == "OUT_OF_RANGE", "SHORT_UPLOAD of 0 bytes: ERR_OUT_OF_RANGE")
    check(m.err(SYNCH) == "CMD_SYNCH", "SYNCH: ERR_CMD_SYNCH")
    kname = "k" if "k" in a2l["char"] else "m" if "m" in a2l["char"] else sorted(a2l["char"])[0]
    kaddr = a2l["char"][kname]["addr"]
    if key:
        check(m.err(FREE_DAQ) == "ACCESS_LOCKED", "DAQ before UNLOCK: ERR_ACCESS_LOCKED")
        m.cmd(SET_MTA, 0, 0, 0, *struct.pack("<I", kaddr))
        check(m.err(DOWNLOAD, 8, *struct.pack("<d", 1.0)) == "ACCESS_LOCKED", "DOWNLOAD before UNLOCK: ERR_ACCESS_LOCKED")
        m.cmd(GET_SEED, 0, 0x01)
        check(m.err(UNLOCK, 32, *bytes(32)) == "ACCESS_LOCKED", "UNLOCK with a wrong key: ERR_ACCESS_LOCKED")
        m.cmd(CONNECT, 0)  # the wrong key disconnected the session (the standard's rule)
        r = m.unlock(key, 0x01)
        check(r is not None and r[1] & 0x01 == 0, "GET_SEED + UNLOCK (HMAC-SHA-256 of the seed): CAL unlocked")
        r = m.unlock(key, 0x04)
        check(r is not None and r[1] == 0, "DAQ unlocked")
    m.cmd(SET_MTA, 0, 0, 0, *struct.pack("<I", a2l["meas"][outs[0]]["addr"]))
    check(m.err(DOWNLOAD, 8, *struct.pack("<d", 1.0)) == "WRITE_PROTECTED", "DOWNLOAD into an output: ERR_WRITE_PROTECTED")
    m.cmd(SET_MTA, 0, 0, 0, *struct.pack("<I", kaddr + 1))
    check(m.err(DOWNLOAD, 4, 0, 0, 0, 0) == "ACCESS_DENIED", "DOWNLOAD of part of a param: ERR_ACCESS_DENIED")

    print("--- poll (SHORT_UPLOAD) every A2L address")
    for name, c in sorted(a2l["char"].items()):
        v = m.read_f64(c["addr"])
        want = params.get(name)
        if want is not None:
            check(v == want, "CHARACTERISTIC %s at 0x%08X = %.17g, the description's value" % (name, c["addr"], v))
        else:
            check(c["lo"] <= v <= c["hi"], "CHARACTERISTIC %s = %g within its limits" % (name, v))
    t1 = m.read_f64(a2l["meas"]["t"]["addr"])
    vals = {n: m.read_f64(x["addr"]) for n, x in a2l["meas"].items()}
    t2 = m.read_f64(a2l["meas"]["t"]["addr"])
    check(0 < t1 <= vals["t"] <= t2, "t advances: %.3f <= %.3f <= %.3f s" % (t1, vals["t"], t2))
    for n in outs + ins:
        x = a2l["meas"][n]
        check(x["lo"] <= vals[n] <= x["hi"], "MEASUREMENT %s = %.6g within [%g, %g]" % (n, vals[n], x["lo"], x["hi"]))
    if params:  # the spring at rest: y = -(l0 + (m g + F) / k), the state and the output agree
        p = params
        y_eq = -(p["l0"] + p["m"] * p["g"] / p["k"])
        check(abs(vals["out.y"] - y_eq) < 1e-12, "out.y = %.15g = -(l0 + m g / k) = %.15g" % (vals["out.y"], y_eq))
        check(vals["q.mass.y"] == vals["out.y"], "q.mass.y at its address = out.y")
        check(vals["in.F"] == 0.0 and abs(vals["u.mass.y"]) < 1e-12, "in.F = 0 (its fallback), u.mass.y = 0")

    if not params:  # a C model: a calibration read back, one out of limits refused
        c = a2l["char"][kname]
        new = c["lo"] + 0.5 * (c["hi"] - c["lo"]) if c["hi"] < 1e29 else c["lo"] + 1.0
        m.download_f64(kaddr, new)
        check(m.read_f64(kaddr) == new, "DOWNLOAD %s = %g read back" % (kname, new))
        if c["hi"] < 1e29:
            m.cmd(SET_MTA, 0, 0, 0, *struct.pack("<I", kaddr))
            check(m.err(DOWNLOAD, 8, *struct.pack("<d", c["hi"] * 2 + 1)) == "OUT_OF_RANGE", "beyond its upper limit: ERR_OUT_OF_RANGE")
            check(m.read_f64(kaddr) == new, "nothing changed")
        m.cmd(DISCONNECT)
        finish()
        return

    print("--- DAQ of every output and t at the 1 ms frame, 10 s, a calibration of k on the way")
    print("  info k's limits in the A2L: [%g, %g]" % (a2l["char"]["k"]["lo"], a2l["char"]["k"]["hi"]))
    info = m.cmd(GET_DAQ_PROCESSOR_INFO)
    check(info[1] & 0x01 and info[1] & 0x10, "GET_DAQ_PROCESSOR_INFO: dynamic, timestamps")
    res = m.cmd(GET_DAQ_RESOLUTION_INFO)
    ts_size, ts_unit, ticks = res[5] & 7, res[5] >> 4, struct.unpack_from("<H", res, 6)[0]
    check((ts_size, ts_unit, ticks) == (4, 3, 1), "timestamps DWORD, 1 us, 1 tick")
    sig = outs + ["t"]
    m.cmd(FREE_DAQ)
    m.cmd(ALLOC_DAQ, 0, 1, 0)
    m.cmd(ALLOC_ODT, 0, 0, 0, 1)
    m.cmd(ALLOC_ODT_ENTRY, 0, 0, 0, 0, len(sig))
    m.cmd(SET_DAQ_PTR, 0, 0, 0, 0, 0)
    for n in sig:
        m.cmd(WRITE_DAQ, 0xFF, 8, 0, *struct.pack("<I", a2l["meas"][n]["addr"]))
    check(m.err(WRITE_DAQ, 0xFF, 8, 0, *struct.pack("<I", a2l["meas"]["t"]["addr"])) == "OUT_OF_RANGE", "WRITE_DAQ past the ODT's entries: ERR_OUT_OF_RANGE")
    m.cmd(SET_DAQ_LIST_MODE, 0x10, 0, 0, 0, 0, 1, 0)
    first_pid = m.cmd(START_STOP_DAQ_LIST, 2, 0, 0)[1]
    m.cmd(START_STOP_SYNCH, 1)
    t_start = time.monotonic()
    k_new = 2.0 * params["k"]
    cal_at = None
    while time.monotonic() - t_start < 10.0:
        if cal_at is None and time.monotonic() - t_start > 3.0:
            m.download_f64(kaddr, k_new)
            cal_at = len(m.dtos)
            m.cmd(SET_MTA, 0, 0, 0, *struct.pack("<I", kaddr))
            check(m.err(DOWNLOAD, 8, *struct.pack("<d", a2l["char"]["k"]["hi"] * 1.5)) == "OUT_OF_RANGE",
                  "k = %g beyond the A2L's limit %g: ERR_OUT_OF_RANGE" % (a2l["char"]["k"]["hi"] * 1.5, a2l["char"]["k"]["hi"]))
            check(m.read_f64(kaddr) == k_new, "k reads %g after the refused write: nothing changed" % k_new)
            other = Master(a2l["udp"])
            check(other.err(CONNECT, 0) == "ACCESS_DENIED", "a second master's CONNECT: ERR_ACCESS_DENIED")
            try:
                other.cmd(GET_STATUS, timeout=0.3)
                check(False, "a second master's GET_STATUS is ignored")
            except TimeoutError:
                check(True, "a second master's GET_STATUS is ignored")
        for ctr, p in m.packets(0.05):
            m.slave_ctr.append(ctr)
            m.dtos.append((ctr, p, time.monotonic()))
    m.cmd(START_STOP_SYNCH, 0)
    time.sleep(0.05)
    while True:  # DTOs of frames before the stop
        pk = m.packets(0.05)
        if not pk:
            break
        for ctr, p in pk:
            m.slave_ctr.append(ctr)
            m.dtos.append((ctr, p, 0))
    fmt = "<BI" + "d" * len(sig)
    rows = [struct.unpack(fmt, p) for _, p, _ in m.dtos if p[0] == first_pid and len(p) == struct.calcsize(fmt)]
    print("  info dtos %d" % len(rows))
    check(len(rows) == len(m.dtos) and len(rows) > 9000, "%d DTOs, every one of the list's layout (PID %d, timestamp, %d values)" % (len(rows), first_pid, len(sig)))
    ts = [r[1] for r in rows]
    tt = [r[-1] for r in rows]
    ymin = [r[2] for r in rows]
    h = 1e-3
    steps = [round((b - a) / h) for a, b in zip(tt, tt[1:])]
    check(all(s == 1 for s in steps), "every frame present: t steps by h = 1 ms from DTO to DTO (%d frames, %.3f s)" % (len(rows), tt[-1] - tt[0]))
    gaps = [b - a for a, b in zip(ts, ts[1:])]
    check(all(g > 0 and g % 1000 == 0 for g in gaps), "timestamps rise by whole 1000 us frames")
    lag = [a * 1e-6 + h - b for a, b in zip(ts, tt)]  # frame k (planned at k ms) ends at t = (k + 1 - missed) h
    check(all(x > -1e-9 and abs(x / h - round(x / h)) < 1e-6 for x in lag),
          "timestamp + h - t is a whole number of missed frames >= 0 (max %d)" % round(max(lag) / h))
    c = m.slave_ctr
    check(all(((b - a) & 0xFFFF) == 1 for a, b in zip(c, c[1:])), "the slave's CTR rises by 1 on every packet (%d packets: no loss)" % len(c))
    y_old = -(params["l0"] + params["m"] * params["g"] / params["k"])
    y_new = -(params["l0"] + params["m"] * params["g"] / k_new)
    before = ymin[:max(1, cal_at - 5)]
    check(max(abs(y - y_old) for y in before) < 1e-12, "before the calibration y = -(l0 + m g / k) = %.12g" % y_old)
    check(abs(ymin[-1] - y_new) < 1e-9, "after k = %g the plant settles at y = %.12g, analytic -(l0 + m g / k) = %.12g" % (k_new, ymin[-1], y_new))
    moved = next(i for i, y in enumerate(ymin) if abs(y - y_old) > 1e-9)
    check(abs(tt[moved] - tt[moved - 1] - h) < 1e-12 and tt[moved] > 3.0, "the new k took effect between two steps at t = %.3f s" % tt[moved])
    m.cmd(DISCONNECT)
    finish()


def setup_daq(m, a2l, sig):
    """One dynamic DAQ list, one ODT of the signals sig, timestamps, event 0, started."""
    m.cmd(FREE_DAQ)
    m.cmd(ALLOC_DAQ, 0, 1, 0)
    m.cmd(ALLOC_ODT, 0, 0, 0, 1)
    m.cmd(ALLOC_ODT_ENTRY, 0, 0, 0, 0, len(sig))
    m.cmd(SET_DAQ_PTR, 0, 0, 0, 0, 0)
    for n in sig:
        m.cmd(WRITE_DAQ, 0xFF, 8, 0, *struct.pack("<I", a2l["meas"][n]["addr"]))
    m.cmd(SET_DAQ_LIST_MODE, 0x10, 0, 0, 0, 0, 1, 0)
    pid = m.cmd(START_STOP_DAQ_LIST, 2, 0, 0)[1]
    m.cmd(START_STOP_SYNCH, 1)
    return pid


def daq_only(m, a2l, key, seconds):
    print("--- a DAQ of every output and t at the frame for %g s" % seconds)
    m.cmd(CONNECT, 0)
    if key:
        m.unlock(key, 0x04)
    sig = [n for n in a2l["meas"] if n.startswith("out.")] + ["t"]
    pid = setup_daq(m, a2l, sig)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for ctr, p in m.packets(0.05):
            m.dtos.append((ctr, p, 0))
    m.cmd(START_STOP_SYNCH, 0)
    fmt = "<BI" + "d" * len(sig)
    tt = [struct.unpack(fmt, p)[-1] for _, p, _ in m.dtos if p[0] == pid and len(p) == struct.calcsize(fmt)]
    check(len(tt) > 0.9 * seconds * 1000 and all(round((b - a) / 1e-3) == 1 for a, b in zip(tt, tt[1:])),
          "%d DTOs, one for every frame (t steps by 1 ms)" % len(tt))
    print("  info dtos %d" % len(tt))
    m.cmd(DISCONNECT)
    finish()


def finish():
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
