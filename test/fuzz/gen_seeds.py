#!/usr/bin/python3
"""Writes the committed seed corpus of the fuzz harnesses (test/fuzz/corpus/NAME/).
Run from the repository root: /usr/bin/python3 test/fuzz/gen_seeds.py"""
import os
import struct
import zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")


def put(name, key, data):
    d = os.path.join(ROOT, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, key), "wb") as f:
        f.write(data)


def frame(kind, values, session=0x01020304, seq=42, send_ns=100000000, ack=41, flags=0):
    body = struct.pack("<IBBHIIQII", 0x31465348, 1, kind, len(values), session, seq, send_ns, ack,
                       flags) + b"".join(struct.pack("<d", v) for v in values)
    return body + struct.pack("<I", zlib.crc32(body))


# frame: [count][mode][datagrams as (len, bytes)]
golden = frame(1, [12.5])
put("frame", "golden", bytes([1, 0]) + golden)
put("frame", "golden_resealed", bytes([1, 1]) + bytes([len(golden)]) + golden)
put("frame", "plant_out", bytes([4, 2]) + frame(2, [1.0, 1.0, 1.0, 0.0]))
seqs = b"".join(bytes([44]) + frame(1, [float(i)], seq=s) for i, s in
                enumerate([1, 2, 2, 1, 5, 0x80000004, 6, 7]))
put("frame", "sequence", bytes([1, 8]) + seqs)
restart = b"".join(bytes([44]) + frame(1, [1.0], session=ss, seq=s) for ss, s in
                   [(7, 100), (7, 101), (8, 1), (7, 102), (8, 2), (8, 3)])
put("frame", "session_restart", bytes([1, 9]) + restart)
put("frame", "nonfinite", bytes([1, 8]) + bytes([44]) + frame(1, [float("nan")]))
put("frame", "clamp", bytes([1, 8]) + bytes([44]) + frame(1, [1e6]) + bytes([44]) + frame(1, [-1e300], seq=43))
put("frame", "empty", bytes([0, 0]))

# signal: [n][nin][nout] then 47 bytes per signal
def sig(name, unit, d, stale, scale, offset, lo, hi, fb):
    return bytes([name, unit, d]) + struct.pack("<I", stale) + struct.pack("<5d", scale, offset, lo, hi, fb)
ct = sig(0, 0, 0, 20, 1, 0, -50, 50, 0) + sig(1, 1, 1, 0, 1, 0, -1e9, 1e9, 0) + \
     sig(2, 2, 1, 0, 1, 0, -1e9, 1e9, 1) + sig(3, 2, 1, 0, 1, 0, -1e9, 1e9, 1) + sig(4, 2, 1, 0, 1, 0, -1e9, 1e9, 0)
put("signal", "circular_track", bytes([5, 1, 4]) + ct)
put("signal", "scaled", bytes([2, 1, 1]) + sig(0, 0, 0, 5, 0.01, 3, -10, 10, 3) + sig(1, 1, 1, 0, -2, 1, 0, 5, 1))
put("signal", "dup_name", bytes([2, 2, 0]) + sig(0, 0, 0, 5, 1, 0, -1, 1, 0) * 2)
put("signal", "bad_fallback", bytes([1, 1, 0]) + sig(0, 0, 0, 5, 1, 0, -1, 1, 2))
put("signal", "nan_scale", bytes([1, 1, 0]) + sig(0, 0, 0, 5, float("nan"), 0, -1, 1, 0))
put("signal", "empty", bytes([0, 0, 0]))

# cli: NUL-separated arguments
def cli(*a):
    return b"\0".join(x.encode() for x in a)
put("cli", "base", cli("--model", "car_axle", "--method", "j2", "--form", "index2", "--stab", "projection",
                       "--h", "1e-3", "--t", "3", "--csv", "x.csv", "--every", "10", "--hash"))
put("cli", "defaults", cli("--model", "car_axle", "--h", "1e-3", "--t", "3"))
put("cli", "params", cli("--model", "circular_track", "--param", "kp=20", "--param", "v_ref=2", "--h", "0.5e-3", "--t", "1"))
put("cli", "baumgarte", cli("--model", "car_axle", "--form", "index1", "--stab", "baumgarte", "--alpha", "100",
                            "--beta", "1e4", "--h", "1e-200", "--t", "0"))
put("cli", "huge", cli("--model", "test_eq", "--method", "explicit", "--h", "1", "--t", "1e19"))
put("cli", "not_multiple", cli("--model", "pendulum", "--jac", "fd", "--h", "0.3", "--t", "1"))
put("cli", "unknown_last", cli("--model", "car_axle", "--h", "1e-3", "--t", "1", "--frobnicate"))
put("cli", "help", cli("--help"))
put("cli", "ggl", cli("--model", "car_axle", "--method", "symplectic", "--form", "ggl", "--stab", "none", "--h", "2e-3", "--t", "0.5"))

# plant: 8 setup bytes [model][method][form|stab<<2|labels<<4|packed<<6]
#        [fault_hold|stop<<4|hash<<5|clock<<6][inject tick, 0xff off][map][session lo][session hi]
# then operations (fuzz_plant.c): op%9 = 0 raw datagram (0x10 re-seal, 0x20 foreign) len bytes,
# 1 input frame (session 1+(op>>4&3), seq byte, values), 2/3 step (0x10 last, 0x20 no row),
# 4 overrun (missed 1+op>>4), 5 forced state (0x10 q too), 6 safe outputs, 7 final, 8 idle tick
CT, AXLE, PEND, TEQ, AXLE_MB, NOSUCH = range(6)
HSM_PEND, HSM_FAST, HSM_CART, HSM_MANY, HSM_WIDE = range(6, 11)
SDIRK, J2, METHODS = 10, 4, 12
IDX2_PROJ = 1 | 2 << 2


def plant(model, ops, method=SDIRK, fs=IDX2_PROJ, hold=10, flags=0, inject=0xff, mp=0, sess=(1, 2)):
    return bytes([model, method, fs, hold | flags, inject, mp, sess[0], sess[1]]) + bytes(ops)


def step(n, op=2):
    return [op] * n


def inframe(seq, *vals, sess=0, op=1):
    out = [op | sess << 4, seq]
    for v in vals:
        out += [v]
    return out


def raw(data, op=0x10):
    return [op, len(data)] + list(data)


good = frame(1, [12.5])
put("plant", "ct_loop", plant(CT, inframe(1, 1) + step(2) + inframe(2, 0) + inframe(3, 3) + step(1) +
                              raw(good) + raw(good, op=0x30) + raw(b"junk", op=0) + step(3) + [7]))
put("plant", "ct_overrun_skip", plant(CT, step(2) + [4 | 0x20] + step(2) + [0x12], flags=0x60))
put("plant", "ct_overrun_stop", plant(CT, step(2) + [4 | 0x10] + step(1), flags=0x10))
put("plant", "ct_inject", plant(CT, step(6), inject=2 | 0x20, hold=3))
put("plant", "ct_inject_hold1", plant(CT, step(4), inject=1, hold=0))
put("plant", "ct_state", plant(CT, [5 | 0x10] + [0, 0, 7, 7] + step(3) + [6] + step(1)))
put("plant", "ct_nan_state", plant(CT, [5] + [200] + list(struct.pack("<d", float("nan"))) + [3] + step(3)))
put("plant", "ct_restart", plant(CT, inframe(1, 1) + step(3) + inframe(9, 1, sess=2) + step(1) +
                                 inframe(10, 1, sess=2) + step(1) + inframe(11, 1, sess=2) + step(4) + [8, 8, 7]))
put("plant", "axle", plant(AXLE, inframe(1, 1) + step(3) + [0x13], method=J2, mp=0))
put("plant", "axle_badmap", plant(CT, step(1), mp=1))
put("plant", "ecu_map", plant(CT, step(1), mp=2))
put("plant", "pend_generic", plant(PEND, step(3) + [0x22, 0x16] + step(1), flags=0x20))
put("plant", "teq", plant(TEQ, step(3), method=0, fs=0))
put("plant", "axle_mb", plant(AXLE_MB, step(3), method=J2))
put("plant", "nosuch", plant(NOSUCH, step(1)))
put("plant", "bad_method", plant(CT, step(1), method=METHODS))
put("plant", "bad_form", plant(CT, step(1), fs=3 | 3 << 2))
put("plant", "hsm_pend", plant(HSM_PEND, step(5) + [5 | 0x10, 3, 3, 3, 3] + step(3)))
put("plant", "hsm_fast", plant(HSM_FAST, step(12)))
put("plant", "hsm_cart", plant(HSM_CART, inframe(1, 2) + step(3) + inframe(2, 4) + step(2), fs=IDX2_PROJ | 0x40))
put("plant", "hsm_many_nolabels", plant(HSM_MANY, step(2), fs=IDX2_PROJ | 0x10))
put("plant", "hsm_many_labels", plant(HSM_MANY, step(2), fs=IDX2_PROJ | 0x20, sess=(3, 0)))
put("plant", "hsm_cart_labels", plant(HSM_CART, step(2), fs=IDX2_PROJ | 0x30))
put("plant", "hsm_wide", plant(HSM_WIDE, step(1)))
put("plant", "tight_range", plant(HSM_PEND, step(6), mp=3 | 4, hold=2))
put("plant", "wide_range", plant(HSM_PEND, step(3), mp=3 | 8))
put("plant", "tiny_scale", plant(HSM_PEND, step(4), mp=3 | 16))
put("plant", "cart_fuzzmap", plant(HSM_CART, inframe(1, 3) + step(2), mp=3 | 0x30))

# ring: [cap][record size][bit 0 no storage, bit 1 counters near the wrap] then ops (bit 0 push)
put("ring", "fill_drain", bytes([4, 3, 0]) + (b"\x01abc" * 6) + b"\x00" * 6)
put("ring", "wrap", bytes([2, 1, 2]) + b"\x01a\x01b\x00\x01c\x00\x00\x01d\x01e\x01f\x00\x00\x00")
put("ring", "invalid_cap", bytes([3, 4, 0]))
put("ring", "no_storage", bytes([8, 4, 1]))
put("ring", "zero_size", bytes([8, 0, 0]))

# hist: [bins][bin width int64] then samples: first byte's low 3 bits = length - 1, value >> 3
def hist_sample(v):
    for n in range(1, 8):  # n bytes carry a signed (8n - 3)-bit value, sign-extended
        if -(1 << (8 * n - 4)) <= v < (1 << (8 * n - 4)):
            return (((v << 3) | (n - 1)) & ((1 << (8 * n)) - 1)).to_bytes(n, "little")
    return (((v << 3) | 7) & ((1 << 64) - 1)).to_bytes(8, "little")  # 8 bytes: non-negative only


put("hist", "latency", bytes([10]) + struct.pack("<q", 1000) +
    b"".join(hist_sample(v) for v in [500, 1500, 2500, 9999, 10000, 50000, -3, 0, 700]))
put("hist", "zero_width", bytes([4]) + struct.pack("<q", 0) + b"".join(hist_sample(v) for v in [1, 2, 3, 4, 5]))
put("hist", "extremes", bytes([1]) + struct.pack("<q", -5) + b"\xff" * 8 + b"\xfe" * 8 + hist_sample(12))
put("hist", "overflows", bytes([1]) + struct.pack("<q", 1) + b"".join(hist_sample(v) for v in range(5, 45)))
put("hist", "empty", bytes([0]) + struct.pack("<q", 10))

# rtcli: hilstep-rt's arguments, NUL-separated
def rt(*a):
    return b"\0".join(x.encode() for x in a)
put("rtcli", "defaults", rt("--quiet"))
put("rtcli", "full", rt("--model", "car_axle", "--method", "j2", "--form", "index2", "--stab", "projection",
                        "--period-us", "500", "--duration", "2", "--priority", "0", "--cpu", "1", "--policy", "stop",
                        "--listen", "127.0.0.1:1", "--peer", "127.0.0.1:2", "--log", "none", "--hist", "-",
                        "--stats", "s", "--max-rx", "8", "--budget-us", "900", "--fault-hold", "3",
                        "--linger-ms", "5", "--inject-overrun", "10:2.5", "--inject-fault", "5:2", "--verbose",
                        "--signals"))
put("rtcli", "params", rt("--model", "circular_track", "--param", "kp=20", "--param", "v_ref=2"))
put("rtcli", "bad_param", rt("--param", "nokey=1"))
put("rtcli", "bad_param_range", rt("--param", "kp=-1e300"))
put("rtcli", "bad_values", rt("--period-us", "10"))
put("rtcli", "policy_skip", rt("--policy", "skip", "--inject-fault", "7"))
put("rtcli", "bad_policy", rt("--policy", "maybe"))
put("rtcli", "missing", rt("--model"))
put("rtcli", "unknown", rt("--frobnicate"))
put("rtcli", "help", rt("--help"))
put("rtcli", "unknown_model", rt("--model", "nope"))
put("rtcli", "model_file", rt("--model-file", "x.hsm"))
put("rtcli", "bad_method", rt("--method", "rk4"))
put("rtcli", "bad_form", rt("--form", "index3"))
put("rtcli", "bad_stab", rt("--stab", "magic"))
put("rtcli", "ggl_setup", rt("--form", "ggl", "--stab", "projection"))
put("rtcli", "bad_overrun", rt("--inject-overrun", "5"))
put("rtcli", "bad_overrun_k", rt("--inject-overrun", "x:2"))
put("rtcli", "bad_overrun_x", rt("--inject-overrun", "5:0.5"))
put("rtcli", "bad_fault", rt("--inject-fault", "3:0"))
put("rtcli", "bad_fault_k", rt("--inject-fault", "-1"))
put("rtcli", "long_k", rt("--inject-fault", "1" * 40))
for o in ["--duration", "--priority", "--cpu", "--max-rx", "--budget-us", "--fault-hold", "--linger-ms"]:
    put("rtcli", "bad" + o.replace("-", "_"), rt(o, "-7"))
put("plant", "no_param_room", plant(CT, step(1), sess=(0x40, 0)))
put("plant", "no_param_block", plant(AXLE, step(1), sess=(0x80, 0)))
put("plant", "hsm_no_param_block", plant(HSM_PEND, step(1), sess=(0xc0, 0)))
# --inject-fault/--inject-overrun ticks beyond int64 were converted anyway (UBSan, found by fuzz_rtcli)
put("rtcli", "huge_fault_tick", rt("--inject-fault", "1" * 22))
put("rtcli", "huge_overrun_tick", rt("--inject-overrun", "1" * 22 + ":2"))

# Authenticated links (version-2 frames, HMAC-SHA-256 truncated to 16 bytes, hil/hs_mac.h).
import hashlib
import hmac


def frame2(kind, values, key, session=0x01020304, seq=42, send_ns=100000000, ack=41, flags=0, bad_tag=False,
           challenge=0, version=3):
    """An authenticated frame: version 3 with the run challenge after the values (version 2,
    retired, had none)."""
    body = struct.pack("<IBBHIIQII", 0x31465348, version, kind, len(values), session, seq, send_ns, ack,
                       flags) + b"".join(struct.pack("<d", v) for v in values)
    if version == 3:
        body += struct.pack("<Q", challenge)
    tag = hmac.new(key, body, hashlib.sha256).digest()[:16]
    if bad_tag:
        tag = bytes([tag[0] ^ 1]) + tag[1:]
    return body + tag + struct.pack("<I", zlib.crc32(body + tag))


# fuzz_frame's fixed key: 70 bytes i*7+1 (longer than a SHA-256 block, hashed first)
FKEY = bytes((i * 7 + 1) & 0xff for i in range(70))
g2 = frame2(1, [12.5], FKEY)
put("frame", "mac_golden", bytes([1, 0x10]) + g2)
put("frame", "mac_bad_tag", bytes([1, 0x10]) + frame2(1, [12.5], FKEY, bad_tag=True))
put("frame", "mac_missing", bytes([1, 0x10]) + frame(1, [12.5]))
put("frame", "mac_stream", bytes([1, 0x18]) + b"".join(bytes([len(f)]) + f for f in [
    frame2(1, [1.0], FKEY, seq=1), frame2(1, [2.0], FKEY, seq=2), frame2(1, [3.0], FKEY, seq=3, bad_tag=True),
    frame(1, [4.0], seq=4), frame2(1, [5.0], FKEY, seq=5)]))
put("frame", "mac_resealed", bytes([1, 0x19]) + bytes([len(g2)]) + g2[:-20] + b"\0" * 20)

# fuzz_plant keyed (map byte bit 6; key: 32 bytes i*13 + session hi byte): frames the harness
# tags itself (op 1), a version-1 frame (missing MAC: exit 8 where no other outcome wins),
# a re-sealed raw one, and a new session that may take over at once (map byte bit 7)
put("plant", "keyed", plant(CT, inframe(1, 1) + step(2) + raw(good, op=0) + step(2) + [7], mp=0x40))
put("plant", "keyed_bad_only", plant(CT, raw(good, op=0) + step(2) + [0x13], mp=0x40))
put("plant", "keyed_resealed", plant(CT, raw(frame2(1, [1.0], b"x" * 32), op=0x10) + step(2), mp=0x40))
put("plant", "keyed_takeover", plant(CT, inframe(1, 1) + step(1) + inframe(5, 1, sess=2) + step(1) +
                                     inframe(6, 1, sess=2) + step(1) + inframe(7, 1, sess=2) + step(3) +
                                     inframe(2, 1) + step(1), mp=0xc0))
# --transport-opt keys were strndup'ed and never freed (LeakSanitizer, found by fuzz_rtcli)
put("rtcli", "transport_opt_leak", rt("--transport-opt", "kp=1e30"))
put("rtcli", "transport_can", rt("--transport", "can", "--can-if", "vcan0", "--dbc", "x.dbc",
                                 "--transport-opt", "fd=1", "--key", "k", "--takeover-ms", "5"))

# fuzz_health: [maxfb][maxrej][bit0 allow_no_peer, bit1 tail_ok, bits 2..7 cap/5][period u16]
# [n][stale x4][bit7: 16 extra rejection counts follow] then one op per tick (bit 0 good frame,
# bit 1 corrupted copy, bit 2 foreign, bit 3 the good one twice)
def health(maxfb, maxrej, flags, n, stale, ops, period=1000, extra=None, peer=0):
    h = bytes([maxfb, maxrej, flags]) + struct.pack("<H", period) + bytes([n]) + bytes(stale)
    h += bytes([(0x80 if extra is not None else 0) | peer])
    if extra is not None:
        h += bytes(extra)
    return h + bytes(ops)


put("health", "ok", health(0, 0, 0xfc, 2, [2, 3, 0, 0], [1] * 20))
put("health", "no_peer", health(0, 0, 0x40, 3, [1, 1, 1, 0], [0] * 12))
put("health", "no_peer_allowed", health(0, 0, 0x41, 2, [1, 1, 0, 0], [4] * 6, peer=1))
put("health", "no_inputs", health(0, 0, 0x41, 0, [0, 0, 0, 0], [0] * 3))
put("health", "fallback", health(2, 5, 0xf0, 4, [0, 1, 2, 3], [0, 0, 1, 1] + [0] * 9 + [1, 0, 0, 0, 0, 1]))
put("health", "fallback_tail", health(0, 0, 0xf2, 2, [1, 2, 0, 0], [0, 1, 1, 0, 0, 0, 0, 0, 0]))
put("health", "rejected", health(0, 0, 0xfc, 2, [1, 1, 0, 0], [1, 3, 3, 9, 0x23, 1, 5, 1], peer=1))
put("health", "rejected_none_applied", health(0, 1, 0x80, 1, [1, 0, 0, 0], [2, 0x12, 6]))
put("health", "all_causes", health(0, 0, 0xfc, 1, [0, 0, 0, 0], [1, 0, 1], extra=range(1, 17)))
put("health", "foreign_only", health(0, 0, 0xfc, 1, [0, 0, 0, 0], [5, 5, 5], extra=[9] + [0] * 14 + [7]))
put("health", "short_buffer", health(0, 0, 0x08, 2, [1, 1, 0, 0], [0, 0, 1, 0, 0, 0]))
put("health", "strict_default", health(0, 0, 0, 1, [0, 0, 0, 0], [1, 0, 0]))
put("health", "no_limit", health(255, 255, 0xfc, 2, [0, 0, 0, 0], [1, 3, 0, 0, 0, 1], period=65535))

# fuzz_can E2E: byte 0 (bit 0 ECU side, bit 1 10 ms period, bit 2 no cadence check), then
# records [flags][sel][len][payload]: sel 0xE8 the id 768 (J1850, the plant's input), 0xE9 the
# id 769 (8H2F, the ECU's input); flags 4 tick, 8 encode, bits 3..5 the clock (ms), 64 the
# harness seals the CRC, 64|1 also writes the next counter, 128 no arrival time
def canrec(flags, sel, payload):
    return bytes([flags, sel, len(payload)]) + bytes(payload)


def e2e_run(side, sel):
    pay = [0x10, 0x00, 0, 0, 0, 0, 0, 0]
    recs = [canrec(0x7D, sel, pay) for _ in range(4)]            # sealed, next counter, 7 ms apart
    recs += [canrec(0x7C, sel, pay[:2] + [3] + pay[3:])]          # sealed, counter jump
    recs += [canrec(0x7D, sel, pay), canrec(0x7C, sel, pay[:2] + [5] + pay[3:])]  # then a repeat
    recs += [canrec(0x45, sel, pay)]                              # next counter, 0 ms later: early
    recs += [canrec(0x3C, sel, pay)]                              # not sealed: CRC
    recs += [canrec(0x3C, 0, [0, 0, 0, 0])] * 6                   # silence on the id: a restart
    recs += [canrec(0x7D, sel, [0xFF, 0xFF] + pay[2:])]           # sealed, brake out of range
    recs += [canrec(0xC1, sel, pay), canrec(0xC1, sel, pay)]      # no arrival time
    recs += [canrec(0x0C | 0x38, 0, [1, 2, 3, 4])] * 4            # ticks that send the outputs
    return bytes([side]) + b"".join(recs)


put("can", "e2e_plant", e2e_run(2, 0xE8))
put("can", "e2e_plant_1ms", e2e_run(0, 0xE8))
put("can", "e2e_ecu", e2e_run(3, 0xE9))
put("can", "e2e_no_cadence", e2e_run(6, 0xE8))

# fuzz_can's SecOC collection (byte 0 bit 3; the shipped quarter car's EcuCommandAuth): records
# [op][a][b], one cycle each: op 0 genuine, 1 commands lost, 2 EcuCommandAuth lost, 3 all lost,
# 4 the cycle a + 1 back replayed (| 8: its EcuCommandAuth alone), 5 a command forged (bit b;
# | 8 its CRC sealed again), 6 the EcuCommandAuth forged (| 8 another key, else bit b), 7 the
# sender's freshness on by (a << 8 | b) + 1; | 32 no arrival time. Byte 0: bit 0 no key at the
# plant, bit 1 --no-auth, bit 4 both ends near a freshness wrap (then byte 1: how near).
def cyc(op, a=0, b=0):
    return bytes([op, a, b])


GEN16 = b"".join(cyc(0, 17 * k, 91 * k & 0xFF) for k in range(16))
put("can", "coll_genuine", bytes([0x08]) + GEN16)
# 3 verified cycles, 3 lost (a silence past the stale limit restarts the E2E sequence), then
# cycle 1 replayed whole: its freshness is one window back, stale
put("can", "coll_replay_stale", bytes([0x08]) + GEN16[:9] + cyc(3) * 3 + cyc(4, 4) + cyc(0, 1, 2) + cyc(0, 3, 4))
put("can", "coll_attacks", bytes([0x08]) + b"".join([
    cyc(0, 1, 1), cyc(0, 2, 2), cyc(1), cyc(0, 3, 3), cyc(2), cyc(0, 4, 4), cyc(3), cyc(0, 5, 5),
    cyc(5, 0, 9), cyc(5 | 8, 0, 20), cyc(0, 6, 6), cyc(6, 0, 17), cyc(6 | 8), cyc(0, 7, 7)]))
put("can", "coll_attacks_2", bytes([0x08]) + b"".join([
    cyc(0, 1, 1), cyc(0, 2, 2), cyc(4, 0), cyc(4 | 8, 0), cyc(0, 8, 8), cyc(5, 0, 60),
    cyc(0, 9, 9 | 0x80), cyc(32, 10, 10), cyc(32 | 2), cyc(32, 11, 11)]))
# near the wrap of the 16-bit freshness (65,534 verified): across it, an authenticator replayed,
# then 65,535 authenticators lost (bridged) and 65,536 (the sender lost for good)
put("can", "coll_wrap", bytes([0x18, 0x04]) + b"".join(cyc(0, k, 3 * k) for k in range(6)) +
    cyc(4 | 8, 2) + cyc(0, 40, 40) + cyc(7, 0xFF, 0xFE) + cyc(0, 41, 41) + cyc(0, 42, 42) +
    cyc(7, 0xFF, 0xFF) + cyc(0, 43, 43) + cyc(0, 44, 44))
put("can", "coll_nokey", bytes([0x09]) + GEN16[:24] + cyc(2) + cyc(0, 9, 9))
put("can", "coll_noauth", bytes([0x0A]) + GEN16[:12] + cyc(5 | 8, 0, 20) + cyc(6, 0, 3) + cyc(4, 0) + cyc(0, 5, 6))

# fuzz_frame with a run challenge (mode 0x30; 0x0123456789abcdef): answered, unanswered (0),
# an old run's, then the retired version 2
RUN = 0x0123456789ABCDEF
put("frame", "mac_challenge", bytes([1, 0x38]) + b"".join(bytes([len(f)]) + f for f in [
    frame2(1, [1.0], FKEY, seq=1, challenge=0), frame2(1, [2.0], FKEY, seq=2, challenge=RUN),
    frame2(1, [3.0], FKEY, seq=3, challenge=RUN ^ 1), frame2(1, [4.0], FKEY, seq=4, challenge=RUN),
    frame2(1, [5.0], FKEY, seq=5, challenge=RUN, bad_tag=True), frame2(1, [6.0], FKEY, seq=6, version=2)]))
put("frame", "mac_challenge_none", bytes([1, 0x10]) + b"".join(bytes([len(f)]) + f for f in [
    frame2(1, [1.0], FKEY, seq=1, challenge=RUN), frame2(1, [2.0], FKEY, seq=2, challenge=0)]))
# fuzz_plant keyed with a run challenge ([7] bit 0): frames answering it, one before the ECU
# heard it (challenge 0: unanswered, seq bit 7), one of an old run (seq bit 6), then answered
put("plant", "keyed_challenge", plant(CT, inframe(1, 1) + step(2) + inframe(0x82, 1) + step(1) +
                                      inframe(0x43, 1) + step(1) + inframe(4, 1) + step(2) + [7],
                                      mp=0x40, sess=(1, 3)))
put("plant", "keyed_challenge_unanswered", plant(CT, inframe(0x81, 1) + step(2) + inframe(0x42, 1) + step(2),
                                                 mp=0x40, sess=(2, 5)))
