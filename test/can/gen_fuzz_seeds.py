#!/usr/bin/python3
"""Writes the committed seed corpora of the CAN fuzz harnesses: test/fuzz/corpus/dbc/ (DBC texts:
the shipped files, every refusal of the parser, number forms; padded with newlines to lengths
that pick each binding mode and period of fuzz_dbc.c) and test/fuzz/corpus/can/ (frame records
for fuzz_can.c). Run from the repository root: /usr/bin/python3 test/can/gen_fuzz_seeds.py"""
import glob
import os
import shutil
import struct

ROOT = "test/fuzz/corpus"
HEAD = 'VERSION ""\n\nNS_ :\n\tCM_\n\tBA_\n\nBS_:\n\nBU_: A B\n'


def fresh(name):
    d = os.path.join(ROOT, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def pad(text, mode, pm=0):
    """text + newlines so that len % 7 == mode and len // 7 % 3 == pm (fuzz_dbc.c's selectors)."""
    b = text.encode()
    while not (len(b) % 7 == mode and len(b) // 7 % 3 == pm):
        b += b"\n"
    return b


D = fresh("dbc")
n = 0


def put(key, data):
    with open(os.path.join(D, key), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


ct = open("hil/dbc/circular_track.dbc").read()
for mode in range(7):
    for pm in range(3):
        put("circular_track_m%d_p%d" % (mode, pm), pad(ct, mode, pm))
for f in ["hil/dbc/car_axle.dbc", "hil/dbc/mech/bushing_pendulum.dbc", "hil/dbc/mech/quarter_car.dbc"]:
    put("shipped_" + os.path.basename(f)[:-4], open(f).read())
for f in glob.glob("test/can/bad/*.dbc"):
    put("bad_" + os.path.basename(f)[:-4], open(f).read())

# one message of each kind and multi-signal messages, for the binding modes
multi = HEAD + ('BO_ 2147484000 Ext: 64 A\n SG_ a_b : 7|16@0+ (1,0) [0|0] "" B\n'
                ' SG_ b : 16|12@1- (0.5,-3) [-100|100] "m" B\n SG_ u64 : 64|64@1+ (1,0) [0|0] "" B\n'
                ' SG_ s64 : 135|64@0- (1,0) [0|0] "" B\n'
                'BO_ 5 Cls: 8 B\n SG_ c : 0|8@1+ (1e-3,-1.5E+2) [0|0] "" A\n SG_ d : 8|8@1+ (1,0) [5|10] "" A\n'
                'BO_ 6 Cls2: 2 B\n SG_ e : 0|16@1- (1,0) [0|0] "" A\n'
                'BO_ 3221225472 VECTOR__INDEPENDENT_SIG_MSG: 0 Vector__XXX\n SG_ lonely : 0|8@1+ (1,0) [0|0] "" B\n'
                'CM_ SG_ 1 a "a comment; over\ntwo lines";\nVAL_ 5 c 0 "off" 1 "on";\n'
                'BA_DEF_ BO_ "GenMsgCycleTime" INT 0 65535;\nBA_ "VFrameFormat" BO_ 2147484000 15;\n'
                'BA_ "HilstepStaleCycles" BO_ 2147484000 5;\nBA_ "GenMsgCycleTime" BO_ 5 20;\n'
                'BA_ "GenSigStartValue" SG_ 5 c 200;\nBA_ "GenSigStartValue" SG_ 3221225472 lonely 3;\n'
                'BA_ "BusType" "CAN";\n')
for mode in range(7):
    for pm in range(3):
        put("multi_m%d_p%d" % (mode, pm), pad(multi, mode, pm))
put("stale_huge", pad(HEAD + 'BO_ 1 M: 1 A\n SG_ a : 0|8@1+ (1,0) [0|0] "" B\nBA_ "GenMsgCycleTime" BO_ 1 4000000;\n'
                      'BA_ "HilstepStaleCycles" BO_ 1 4000000;\n', 0, 0))
put("stale_over", pad(HEAD + 'BO_ 1 M: 1 A\n SG_ a : 0|8@1+ (1,0) [0|0] "" B\nBA_ "GenMsgCycleTime" BO_ 1 1000;\n'
                      'BA_ "HilstepStaleCycles" BO_ 1 4000000;\n', 0, 0))

refusals = {
    "bo_syntax": "BO_ x\n", "bo_noname": "BO_ 1 : 8 A\n", "bo_2048": "BO_ 2048 M: 8 A\n",
    "bo_ext_big": "BO_ 4294967295 M: 8 A\n", "bo_dup": "BO_ 1 M: 8 A\nBO_ 1 N: 8 A\n",
    "bo_65": "BO_ 1 M: 65 A\n", "bo_dupname": "BO_ 1 M: 8 A\nBO_ 2 M: 8 A\n",
    "bo_33": "".join("BO_ %d M%d: 1 A\n" % (i, i) for i in range(33)),
    "bo_id_over32": "BO_ 99999999999 M: 8 A\n",
    "sg_noname": "BO_ 1 M: 8 A\n SG_ : 0|8@1+ (1,0) [0|0] \"\" B\n",
    "sg_longname": "BO_ 1 M: 8 A\n SG_ " + "x" * 40 + " : 0|8@1+ (1,0) [0|0] \"\" B\n",
    "sg_mux_M": "BO_ 1 M: 8 A\n SG_ a M : 0|8@1+ (1,0) [0|0] \"\" B\n",
    "sg_mux_m3": "BO_ 1 M: 8 A\n SG_ a m3 : 0|8@1+ (1,0) [0|0] \"\" B\n",
    "sg_nocolon": "BO_ 1 M: 8 A\n SG_ a x : 0|8@1+ (1,0) [0|0] \"\" B\n",
    "sg_nocolon2": "BO_ 1 M: 8 A\n SG_ a\n",
    "sg_nobar": "BO_ 1 M: 8 A\n SG_ a : 0-8@1+ (1,0) [0|0] \"\" B\n",
    "sg_order": "BO_ 1 M: 8 A\n SG_ a : 0|8@2+ (1,0) [0|0] \"\" B\n",
    "sg_sign": "BO_ 1 M: 8 A\n SG_ a : 0|8@1* (1,0) [0|0] \"\" B\n",
    "sg_factor": "BO_ 1 M: 8 A\n SG_ a : 0|8@1+ (x,0) [0|0] \"\" B\n",
    "sg_range": "BO_ 1 M: 8 A\n SG_ a : 0|8@1+ (1,0) [0,0] \"\" B\n",
    "sg_unit": "BO_ 1 M: 8 A\n SG_ a : 0|8@1+ (1,0) [0|0] B\n",
    "sg_unit_eof": "BO_ 1 M: 8 A\n SG_ a : 0|8@1+ (1,0) [0|0] \"never",
    "sg_first": " SG_ a : 0|8@1+ (1,0) [0|0] \"\" B\n",
    "sg_len0": "BO_ 1 M: 8 A\n SG_ a : 0|0@1+ (1,0) [0|0] \"\" B\n",
    "sg_len65": "BO_ 1 M: 8 A\n SG_ a : 0|65@1+ (1,0) [0|0] \"\" B\n",
    "sg_start512": "BO_ 1 M: 64 A\n SG_ a : 512|8@1+ (1,0) [0|0] \"\" B\n",
    "sg_factor0": "BO_ 1 M: 8 A\n SG_ a : 0|8@1+ (0,0) [0|0] \"\" B\n",
    "sg_factor_inf": "BO_ 1 M: 8 A\n SG_ a : 0|8@1+ (1e400,0) [0|0] \"\" B\n",
    "sg_minmax": "BO_ 1 M: 8 A\n SG_ a : 0|8@1+ (1,0) [5|1] \"\" B\n",
    "sg_65": "".join("BO_ %d M%d: 8 A\n" % (i, i) + "".join(" SG_ s%d_%d : %d|8@1+ (1,0) [0|0] \"\" B\n" % (i, j, 8 * j) for j in range(8)) for i in range(9)),
    "sg_dup": "BO_ 1 M: 8 A\n SG_ a : 0|8@1+ (1,0) [0|0] \"\" B\n SG_ a : 8|8@1+ (1,0) [0|0] \"\" B\n",
    "sg_overlap": "BO_ 1 M: 8 A\n SG_ a : 0|8@1+ (1,0) [0|0] \"\" B\n SG_ b : 4|8@1+ (1,0) [0|0] \"\" B\n",
    "sg_outside": "BO_ 1 M: 2 A\n SG_ a : 8|9@1+ (1,0) [0|0] \"\" B\n",
    "sg_outside_moto": "BO_ 1 M: 2 A\n SG_ a : 0|10@0+ (1,0) [0|0] \"\" B\n",
    "fd_len10": "BO_ 1 M: 10 A\nBA_ \"VFrameFormat\" BO_ 1 14;\n",
    "classic12": "BO_ 1 M: 12 A\n",
    "ba_noquote": "BO_ 1 M: 8 A\nBA_ GenMsgCycleTime BO_ 1 10;\n",
    "ba_other_eof": "BO_ 1 M: 8 A\nBA_ \"Other\" BO_ 1 10",
    "ba_obj": "BO_ 1 M: 8 A\nBA_ \"GenMsgCycleTime\" 10;\n",
    "ba_sg": "BO_ 1 M: 8 A\nBA_ \"GenMsgCycleTime\" SG_ 1 a 10;\n",
    "ba_unknown": "BO_ 1 M: 8 A\nBA_ \"GenMsgCycleTime\" BO_ 9 10;\n",
    "ba_neg": "BO_ 1 M: 8 A\nBA_ \"GenMsgCycleTime\" BO_ 1 -5;\n",
    "ba_frac": "BO_ 1 M: 8 A\nBA_ \"GenMsgCycleTime\" BO_ 1 1.5;\n",
    "ba_init_syntax": "BO_ 1 M: 8 A\nBA_ \"GenSigStartValue\" BO_ 1 3;\n",
    "ba_init_nosig": "BO_ 1 M: 8 A\n SG_ a : 0|8@1+ (1,0) [0|0] \"\" B\nBA_ \"GenSigStartValue\" SG_ 1 zz 3;\n",
    "ba_init_nomsg": "BO_ 1 M: 8 A\nBA_ \"GenSigStartValue\" SG_ 7 zz 3;\n",
    "mul_val": "BO_ 1 M: 8 A\nSG_MUL_VAL_ 1 a b 0-0;\n",
    "valtype": "BO_ 1 M: 8 A\nSIG_VALTYPE_ 1 a : 1;\n",
    "unknown_stmt": "BO_ 1 M: 8 A\nFOO_ bar;\n",
    "garbage": "BO_ 1 M: 8 A\n%% nonsense\n",
    "cm_open": "BO_ 1 M: 8 A\nCM_ \"never closed;\n",
    "cm_nosemi": "BO_ 1 M: 8 A\nCM_ \"closed\" but no end",
    "none": "",
    "numbers": "BO_ 1 M: 8 A\n SG_ a : 0|8@1+ (1e-30,12345678901234567890123) [-1e+30|0.000000000000000000000000001] \"\" B\n"
               " SG_ b : 8|8@1+ (+5,-0.5e1) [0|1E45] \"\" B\n",
    "number_bad_exp": "BO_ 1 M: 8 A\n SG_ a : 0|8@1+ (1e,0) [0|0] \"\" B\n",
    "number_sign_only": "BO_ 1 M: 8 A\n SG_ a : 0|8@1+ (-,0) [0|0] \"\" B\n",
    "number_big_exp": "BO_ 1 M: 8 A\n SG_ a : 0|8@1+ (1e99999,0) [0|0] \"\" B\n",
    "nocr_ns": "VERSION \"\"\nNS_ :\n\tCM_\n\tBA_\nBS_:\nBU_:\nBO_ 1 M: 1 A\n SG_ a : 0|8@1+ (1,0) [0|0] \"\" B",
}
# a SecOC collection and its refusals (hil/CAN.md, "Limits")
COL = ("BO_ 1 A: 8 E\n SG_ a : 0|16@1- (1,0) [0|0] \"\" P\nBO_ 2 S: 8 E\n SG_ f : 0|16@1+ (1,0) [0|0] \"\" P\n"
       " SG_ t : 16|48@1+ (1,0) [0|0] \"\" P\n")
SIG2 = "BA_ \"HsSecOCSignal\" SG_ 2 f 1;\nBA_ \"HsSecOCSignal\" SG_ 2 t 2;\n"
refusals.update({
    "coll_ok": COL + "BA_ \"HsSecOCCollection\" BO_ 2 1;\nBA_ \"HsSecOCCryptoPdu\" BO_ 1 2;\n" + SIG2,
    "coll_noauth": COL + "BA_ \"HsSecOCCollection\" BO_ 2 1;\n" + SIG2,
    "coll_notcoll": COL + "BA_ \"HsSecOCProfile\" BO_ 2 1;\nBA_ \"HsSecOCCryptoPdu\" BO_ 1 2;\n" + SIG2,
    "coll_nomsg": COL + "BA_ \"HsSecOCCollection\" BO_ 2 1;\nBA_ \"HsSecOCCryptoPdu\" BO_ 1 9;\n" + SIG2,
    "coll_cycle": COL + "BA_ \"HsSecOCCollection\" BO_ 2 1;\nBA_ \"HsSecOCCryptoPdu\" BO_ 1 2;\n"
                  "BA_ \"GenMsgCycleTime\" BO_ 1 10;\n" + SIG2,
})
for k, v in refusals.items():
    put("r_" + k, pad(HEAD + v, 0, 0))

# fuzz_can: [selector byte] then records [flags][id selector][len][payload]
C = fresh("can")


def rec(flags, sel, payload):
    return bytes([flags, sel, len(payload)]) + payload


def putc(key, data):
    with open(os.path.join(C, key), "wb") as f:
        f.write(data)


cmd = lambda force, mode: struct.pack("<h", force) + bytes([0, mode])   # Cmd: 4 bytes
putc("plant_good", bytes([0]) + rec(4 | 8, 0, cmd(1000, 0x00)) + rec(4 | 8, 0, cmd(-2000, 0x00)))
putc("plant_range", bytes([0]) + rec(4, 0, cmd(30000, 0)) + rec(4, 0, bytes([0, 0, 0, 0x09])))
putc("plant_fd_ext", bytes([2]) + rec(1 | 2 | 4, 1, bytes(12)) + rec(1 | 2 | 4 | 8, 1, bytes([0xFF] * 12))
     + rec(1 | 2 | 4, 1, bytes([0x80, 0, 0] + [0x7F] * 9)))
putc("rejects", bytes([0]) + rec(0, 0, bytes(3)) + rec(2, 0, bytes(4)) + rec(0, 4, b"\x00") + rec(1, 0, bytes(4))
     + rec(0xF0, 0xF3, bytes(8)) + rec(4, 2, bytes(8)))
putc("ecu_side", bytes([1 | 2]) + rec(4 | 8, 2, bytes([0x10, 0x00, 0xA0, 0x86, 0x01, 0x00, 0x01, 0x00]))
     + rec(2 | 4 | 8, 3, bytes([0x80] + [0] * 63)) + rec(2 | 4 | 8 | 16, 3, bytes([0xFF] * 64)))
putc("ecu_neg", bytes([1]) + rec(4, 2, bytes([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0])) + rec(4 | 8, 3, bytes([0xFF] * 64)))
putc("stale", bytes([0]) + rec(0, 0, cmd(5, 0)) + b"".join(rec(4 | 8, 5, b"") for _ in range(30)))
putc("supersede", bytes([2]) + rec(0, 0, cmd(1, 1)) + rec(0, 0, cmd(2, 2)) + rec(4 | 8, 0, cmd(3, 3)))
doubles = struct.pack("<5d", float("nan"), 1e300, -1e300, 9.3e18, 2e19)
# tick 0 (no tick flag before): every output message is due
putc("encode_extremes", bytes([0]) + rec(8 | 32, 5, doubles) + rec(4, 5, b"") + rec(8 | 32, 5, struct.pack("<5d", -9.3e18, -2e19, 0.5, -0.5, 1.5)))
putc("encode_u64", bytes([0]) + rec(8 | 32, 5, struct.pack("<5d", 0, 0, 0, 0, 1.7e19)))
putc("encode_ecu_extremes", bytes([1]) + rec(8 | 32, 5, struct.pack("<4d", float("nan"), -1e9, float("inf"), -3e3)))
print("seeds: %d dbc, %d can" % (len(os.listdir(D)), len(os.listdir(C))))
