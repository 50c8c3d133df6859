#!/usr/bin/env python3
"""Hand-made seeds of the application harnesses (fuzz_rtapp.c, fuzz_ecuapp.c): one file per
run, in the input format those files describe (7 header bytes, the arguments NUL-separated up
to 0xFF, then one byte per tick for the peer). Writes test/fuzz/corpus/rtapp/ and .../ecuapp/;
run from the repository root: python3 test/fuzz/gen_app_seeds.py"""
import os

F = {n: i for i, n in enumerate(
    "SOCKET BIND CONNECT REUSE INTRUDER SEND SCHED AFFINITY MLOCK DMA RTKERNEL RANDOM URANDOM "
    "READ WRITE LINK IFINDEX IFDOWN FSTAT CANFILTER EINTR REUSE0 KEYOPEN XDG FSIZE XCPBIND XCPTHREAD".split())}


def seed(flags=1, faults=(), tscript=0, sigtick=0, args=(), script=b""):
    f = 0
    for n in faults:
        f |= 1 << F[n]
    if faults:
        flags |= 0x40
    head = bytes([flags, f & 255, (f >> 8) & 255, (f >> 16) & 255, tscript, sigtick, (f >> 24) & 255])
    return head + b"\0".join(a.encode() for a in args) + b"\xff" + bytes(script)


def op(o, arg=0):
    return (arg << 3) | o


CAN = ["--transport", "can", "--can-if", "vcan0", "--dbc", "hil/dbc/circular_track.dbc"]
RUN = ["--duration", "0.05", "--quiet"]
MIX = bytes([op(1), op(1, 1), op(2, 3), op(3, 5), op(4), op(4, 1), op(5), op(5, 1), op(6), op(6, 1),
             op(7, 2), op(1, 4), op(1, 5), op(0), op(3, 7), op(2, 31), op(1, 2)])

# hilstep-rt with --xcp: each tick takes the ECU's byte, then the XCP master's (fuzz_rtapp.c's
# xcp_tick: action = low 3 bits, argument above)
SPRING = ["--model-file", "test/xcp/spring.hsm"]
XCP = ["--xcp", "127.0.0.1:5555"]
XS = [op(0), op(0, 1), op(3), op(1), op(2), op(1, 1), op(2, 1), op(0), op(1, 1), op(2), op(1), op(2),
      op(4), op(3, 0), op(3, 9), op(3, 18), op(3, 27), op(3, 2), op(3, 3)] + \
     [op(5, a) for a in range(8)] + [op(5, 24 + a) for a in range(8)] + \
     [op(6), op(6, 1), op(7, 5), op(7, 0), op(3, 12), op(3, 4), op(3, 1), op(3, 5), op(0, 1), op(5, 7), op(0)]


def xcp_script(xs, ecu=op(1)):
    return bytes(b for x in xs for b in (ecu, x))


# genuine ECU CAN frames (fuzz_rtapp.c's can_genuine: op 3 with arg >= 16): in sequence, a
# replay, a forgery E2E passes, a lost one, values
SECOC = CAN[:4] + ["--dbc", "test/can/circular_track_secoc.dbc"]
QCOLL = ["--model-file", "model/mech/quarter_car.hsm"] + CAN[:4] + ["--dbc", "hil/dbc/mech/quarter_car.dbc"]
GEN = bytes(b for g in [op(3, 16)] * 3 + [op(3, 17), op(3, 16), op(3, 18), op(3, 16), op(3, 20), op(3, 16),
                          op(3, 24), op(3, 19), op(3, 28), op(3, 16), op(3, 30), op(3, 16), op(3, 16)]
            for b in [g] + [op(0)] * 9)  # every 10 ms, the message's cycle


rt = {
    "pass": seed(1, args=RUN + ["--log", "@out.csv", "--stats", "@out.stats", "--hist", "@out.hist"]),
    "pass_verbose": seed(1, args=["--duration", "0.03", "--verbose", "--hist", "-"]),
    "noauth": seed(1, args=RUN + ["--no-auth", "--log", "none"]),
    "key_good": seed(1, args=RUN + ["--key", "@good.key", "--log", "none"]),
    "key_loose": seed(1, args=RUN + ["--key", "@loose.key"]),
    "key_zero": seed(1, args=RUN + ["--key", "@zero.key"]),
    "key_missing": seed(1, args=RUN + ["--key", "@missing.key"]),
    "key_fresh": seed(0x21, args=RUN + ["--log", "none"]),
    "key_fresh_norandom": seed(0x21, faults=["RANDOM", "URANDOM"], args=RUN),
    "key_fresh_random_fallback": seed(0x21, faults=["RANDOM"], args=RUN + ["--log", "none"]),
    "key_fresh_nowrite": seed(0x21, faults=["WRITE"], args=RUN),
    "key_fresh_nolink": seed(0x21, faults=["LINK"], args=RUN),
    "key_read_error": seed(1, faults=["READ"], args=RUN),
    "key_fstat_error": seed(1, faults=["FSTAT"], args=RUN),
    "help": seed(1, args=["--help"]),
    "signals": seed(1, args=["--signals"]),
    "signals_can": seed(1, args=["--signals"] + CAN),
    "can_run": seed(1, args=RUN + CAN + ["--stats", "@can.stats"], script=bytes([op(3, i) for i in range(24)])),
    "can_key": seed(1, args=RUN + CAN + ["--key", "@good.key"]),
    "can_period": seed(1, args=RUN + CAN + ["--period-us", "1000.5"]),
    "can_down": seed(1, faults=["IFDOWN"], args=RUN + CAN),
    "policy_stop": seed(1, args=RUN + ["--policy", "stop"], script=bytes([op(1)] * 5 + [op(2, 31)])),
    "overrun_skip": seed(0x81, args=RUN + ["--log", "@o.csv"], script=bytes([op(2, 20), op(1), op(2, 9)])),
    "inject_overrun": seed(1, args=RUN + ["--inject-overrun", "10:3.5"]),
    "inject_fault": seed(1, args=RUN + ["--inject-fault", "5:20", "--fault-hold", "3"]),
    "inject_fault_short": seed(1, args=RUN + ["--inject-fault", "5:2"]),
    "sigint": seed(0x05, sigtick=2, args=["--duration", "0", "--log", "none"]),
    "sighup": seed(0x0D, sigtick=1, args=["--duration", "10"]),
    "sigterm": seed(0x15, sigtick=1, args=["--duration", "10"]),
    "silent": seed(0, args=["--duration", "1.2", "--log", "none"]),
    "silent_allowed": seed(0, args=["--duration", "1.2", "--allow-no-ecu", "--stats", "@s.stats"]),
    "late_ecu": seed(2, args=["--duration", "0.2", "--max-fallback-ticks", "5"], script=bytes([0] * 30)),
    "mix": seed(3, args=RUN + ["--max-rejected", "2", "--log", "@m.csv"], script=MIX),
    "mix_budget": seed(3, args=RUN + ["--budget-us", "10"], script=MIX),
    "require_rt": seed(1, args=RUN + ["--require-rt"]),
    "hard_rt": seed(1, faults=["RTKERNEL"], args=RUN + ["--priority", "80"]),
    "log_full": seed(1, args=RUN + ["--log", "@full"]),
    "stats_full": seed(1, args=RUN + ["--stats", "@full"]),
    "hist_full": seed(1, args=RUN + ["--hist", "@full"]),
    "log_dir": seed(1, args=RUN + ["--log", "@dir"]),
    "stats_dir": seed(1, args=RUN + ["--stats", "@dir"]),
    "hist_dir": seed(1, args=RUN + ["--log", "none", "--hist", "@dir"]),
    "csv_write_error": seed(1, faults=["WRITE"], args=RUN + ["--key", "@good.key", "--log", "@w.csv"]),
    "sock_fail": seed(1, faults=["SOCKET"], args=RUN),
    "bind_fail": seed(1, faults=["BIND"], args=RUN),
    "connect_fail": seed(1, faults=["CONNECT"], args=RUN),
    "intruder": seed(1, faults=["INTRUDER"], args=RUN),
    "reuse_refused": seed(1, faults=["REUSE", "SEND"], args=RUN),
    "mlock_dma": seed(1, faults=["MLOCK", "DMA"], args=RUN),
    "dma_write": seed(1, faults=["DMA"], args=RUN),
    "sched_affinity": seed(1, faults=["SCHED", "AFFINITY"], tscript=0x08, args=RUN + ["--cpu", "1"]),
    "affinity_ok": seed(1, tscript=0x08, args=RUN + ["--cpu", "0"]),
    "logger_eagain": seed(1, tscript=0x01, args=RUN),
    "logger_eagain_nolock": seed(1, faults=["MLOCK"], tscript=0x01, args=RUN),
    "logger_enomem": seed(1, tscript=0x03, args=RUN),
    "rt_eagain": seed(1, tscript=0x04, args=RUN),
    "rt_eperm_eagain": seed(1, tscript=0x18, args=RUN),
    "rt_eperm_fail": seed(1, tscript=0x28, args=RUN),
    "rt_enomem": seed(1, tscript=0x0C, args=RUN),
    "rt_prio0": seed(1, args=RUN + ["--priority", "0"]),
    "car": seed(1, args=["--duration", "0.03", "--model", "car", "--quiet"]),
    "model_file": seed(1, args=RUN + ["--model-file", "model/mech/ball.hsm"]),
    "model_file_bad": seed(1, args=RUN + ["--model-file", "@missing.hsm"]),
    "model_unknown": seed(1, args=RUN + ["--model", "nonesuch"]),
    "param": seed(1, args=RUN + ["--param", "v_ref=2", "--param", "kp=3"]),
    "param_unknown": seed(1, args=RUN + ["--param", "nonesuch=2"]),
    "param_bad": seed(1, args=RUN + ["--param", "v_ref=0x1p3"]),
    "method": seed(1, args=RUN + ["--method", "spook", "--spook-tau", "0.004", "--compliance", "1e-6"]),
    "bad_option": seed(1, args=["--nonesuch"]),
    "transport_unknown": seed(1, args=RUN + ["--transport", "nonesuch"]),
    "transport_opt_unread": seed(1, args=RUN + ["--transport-opt", "x=y"]),
    "can_no_dbc": seed(1, args=RUN + ["--transport", "can", "--can-if", "vcan0"]),
    "damping": seed(1, args=RUN + ["--damping", "0.5", "--spook-eps", "1e-7"]),
    "transport_opt_bad": seed(1, args=RUN + ["--transport-opt", "=x"]),
    "param_twice": seed(1, args=RUN + ["--param", "v_ref=2", "--param", "v_ref=3"]),
    "model_file_param": seed(1, args=RUN + ["--model-file", "model/mech/ball.hsm", "--param", "nonesuch=1"]),
    "fsize": seed(1, faults=["FSIZE"], args=RUN + ["--log", "@fsize.csv"]),
    "mdf_both": seed(1, args=RUN + ["--log", "@out.mf4", "--log", "@out.csv", "--stats", "@m.stats"]),
    "mdf_fsize": seed(1, faults=["FSIZE"], args=RUN + ["--log", "@fsize.mf4"]),
    "mdf_nodir": seed(1, args=RUN + ["--log", "@nodir/x.mf4"]),
    "mdf_none": seed(1, args=RUN + ["--log", "@a.mf4", "--log", "none"]),
    "eintr": seed(1, faults=["EINTR"], args=RUN),
    "reuse0": seed(1, faults=["REUSE0"], args=RUN),
    "key_big": seed(1, args=RUN + ["--key", "@big.key"]),
    "key_xdg_file": seed(0x21, faults=["XDG"], args=RUN),
    "key_tmp_refused": seed(0x21, faults=["KEYOPEN"], args=RUN),
    "nonce_norandom": seed(1, faults=["RANDOM", "URANDOM"], args=RUN + ["--key", "@good.key"]),
    "hist_overflow": seed(1, args=["--duration", "1.5", "--hist", "@ovf.hist"], script=bytes([op(2, 20)] * 40)),
    "forged": seed(1, args=RUN, script=bytes([op(7, 8)] * 10)),
    "can_ts": seed(1, args=RUN + CAN, script=bytes([op(3, 4), op(3, 5), op(3, 12)])),
    "can_car_dbc": seed(1, args=RUN + CAN[:4] + ["--dbc", "hil/dbc/car.dbc"]),
    "stepper_refused": seed(1, args=RUN + ["--method", "em", "--stab", "baumgarte"]),
    "model_file_param_long": seed(1, args=RUN + ["--model-file", "model/mech/ball.hsm", "--param", "a" * 40 + "=1"]),
    "takeover": seed(1, args=RUN + ["--takeover-ms", "3", "--linger-ms", "5"], script=MIX),
    "can_genuine": seed(1, args=["--duration", "0.2", "--quiet"] + CAN, script=GEN),
    "can_secoc": seed(1, args=["--duration", "0.2", "--quiet"] + SECOC + ["--stats", "@sc.stats", "--transport-opt", "secoc-key=@good.key"], script=GEN),
    "can_secoc_pretty": seed(1, args=["--duration", "0.2"] + SECOC + ["--transport-opt", "secoc-key=@good.key"], script=GEN),
    "can_secoc_loose": seed(1, args=RUN + SECOC + ["--transport-opt", "secoc-key=@loose.key"], script=GEN),
    "can_secoc_nokey": seed(1, args=RUN + SECOC, script=GEN),
    "can_secoc_keymissing": seed(1, args=RUN + SECOC + ["--transport-opt", "secoc-key=@missing.key"]),
    # the shipped quarter car's secured PDU collection (EcuCommandAuth): genuine, replayed,
    # forged and lost cycles, without a key, unauthenticated
    "can_coll": seed(1, args=["--duration", "0.2", "--quiet"] + QCOLL + ["--stats", "@qc.stats", "--transport-opt", "secoc-key=@good.key"], script=GEN),
    "can_coll_mix": seed(1, args=["--duration", "0.2", "--quiet"] + QCOLL + ["--transport-opt", "secoc-key=@good.key"],
                         script=bytes(b for g in [op(3, 0), op(3, 1), op(3, 2), op(3, 4), op(3, 8), op(3, 0), op(3, 5), op(3, 0), op(3, 5)] * 4 for b in [g] + [op(0)] * 4)),
    "can_coll_nokey": seed(1, args=RUN + QCOLL, script=GEN),
    "can_coll_pretty": seed(1, args=["--duration", "0.2"] + QCOLL + ["--transport-opt", "secoc-key=@good.key"], script=GEN),
    "can_coll_loose": seed(1, args=RUN + QCOLL + ["--transport-opt", "secoc-key=@loose.key"], script=GEN),
    "can_coll_ecu_dbc": seed(1, args=RUN + ["--model-file", "model/mech/quarter_car.hsm"] + CAN[:4] + ["--dbc", "hil/dbc/mech/door.dbc", "--transport-opt", "secoc-key=@good.key"], script=GEN),
    "can_coll_noauth": seed(1, args=["--duration", "0.1", "--quiet", "--no-auth"] + QCOLL, script=GEN),
    "xcp_a2l": seed(1, args=["--a2l", "@x.a2l"]),
    "xcp_a2l_file": seed(1, args=SPRING + ["--a2l", "@s.a2l", "--xcp", "0.0.0.0:5556"]),
    "xcp_a2l_desc": seed(1, args=SPRING + ["--a2l", "@s.a2l"]),
    "xcp_a2l_car": seed(1, args=["--model", "car", "--a2l", "@car.a2l"]),
    "xcp_a2l_quarter": seed(1, args=["--model-file", "model/mech/quarter_car.hsm", "--a2l", "@q.a2l"]),
    "xcp_a2l_dir": seed(1, args=["--a2l", "@dir"]),
    "xcp_a2l_full": seed(1, args=["--a2l", "@full"]),
    "xcp_bad_addr": seed(1, args=RUN + ["--xcp", "127.0.0.1:notaport"]),
    "xcp_bind": seed(1, faults=["XCPBIND"], args=RUN + XCP),
    "xcp_thread": seed(1, faults=["XCPTHREAD"], args=RUN + SPRING + XCP),
    "xcp_desc_bad": seed(1, args=RUN + SPRING + XCP + ["--param", "nonesuch=1"]),
    "xcp_session": seed(1, args=RUN + XCP + ["--key", "@good.key", "--stats", "@x.stats"], script=xcp_script(XS)),
    "xcp_session_pretty": seed(1, args=["--duration", "0.05"] + XCP + ["--key", "@good.key"], script=xcp_script(XS)),
    "xcp_session_file": seed(1, args=RUN + SPRING + XCP + ["--key", "@good.key", "--param", "k=500",
                                                         "--stats", "@xf.stats"], script=xcp_script(XS)),
    "xcp_session_file_pretty": seed(1, args=["--duration", "0.05"] + SPRING + XCP + ["--key", "@good.key"],
                                    script=xcp_script(XS)),
    "xcp_noauth": seed(1, args=RUN + XCP + ["--no-auth", "--stats", "@n.stats"], script=xcp_script(XS)),
    "xcp_can": seed(1, args=RUN + CAN + XCP, script=xcp_script(XS, op(3, 1))),
    "xcp_desc_units": seed(1, args=RUN + ["--model-file", "@xcp.hsm", "--a2l", "@u.a2l"] + XCP + ["--key", "@good.key"],
                           script=xcp_script(XS + [op(3, 9), op(3, 1), op(3, 2), op(0), op(3, 9)])),
    "xcp_period_250": seed(1, args=["--duration", "0.02", "--quiet", "--period-us", "250"] + XCP + ["--no-auth"],
                           script=xcp_script([op(0), op(5, 8), op(5, 11), op(5, 27), op(4), op(5, 3)])),
    "xcp_period_2500": seed(1, args=["--duration", "0.05", "--quiet", "--period-us", "2500"] + XCP + ["--no-auth"],
                            script=xcp_script([op(0), op(5, 8), op(4), op(5, 3), op(5, 19)])),
    "xcp_mdf": seed(1, args=RUN + XCP + ["--no-auth", "--log", "@x.mf4", "--tol", "off"],
                    script=xcp_script([op(0), op(3, 1), op(5, 14), op(3, 2)])),
    "tol": seed(1, args=RUN + ["--tol", "0.1"]),
    "xcp_norandom": seed(1, faults=["RANDOM"], args=RUN + XCP + ["--key", "@good.key"],
                         script=xcp_script(XS)),
}
ERUN = ["--duration", "0.05", "--stats", "@e.stats"]
ecu = {
    "pi": seed(1, args=ERUN),
    "pi_final": seed(2, args=["--stats", "@f.stats"]),
    "pi_quiet": seed(2, args=["--quiet"]),
    "pi_saturate": seed(1, args=ERUN + ["--v-ref", "30", "--f-max", "5", "--kp", "100", "--ki", "0"]),
    "noauth": seed(2, args=["--no-auth"]),
    "key_good": seed(2, args=["--key", "@good.key"]),
    "key_loose": seed(2, args=["--key", "@loose.key"]),
    "key_fresh": seed(0x22, args=[]),
    "help": seed(1, args=["--help"]),
    "bad_option": seed(1, args=["--nonesuch", "1"]),
    "needs_value": seed(1, args=["--kp"]),
    "bad_value": seed(1, args=["--period-us", "10"]),
    "bad_control": seed(1, args=["--control", "nonesuch"]),
    "hold": seed(2, args=["--control", "hold", "--wait-plant"]),
    "wait_plant": seed(0, args=["--wait-plant", "--timeout-ms", "30"], script=bytes([0] * 10 + [op(1)] * 5)),
    "silent": seed(0, args=["--timeout-ms", "20"]),
    "car_hold": seed(2, args=["--model", "car", "--phase-us", "100"]),
    "car_abs": seed(1, args=["--model", "car", "--control", "abs", "--duration", "0.2"], script=bytes([op(1, 3)] * 200)),
    "car_abs_slow": seed(1, args=["--model", "car", "--control", "abs", "--duration", "0.05"], script=bytes([op(1, 1)] * 50)),
    "car_brake": seed(1, args=["--model", "car", "--control", "brake", "--duration", "0.2", "--brake-rate", "1e6"], script=bytes([op(1, 3)] * 200)),
    "abs_not_car": seed(1, args=["--control", "abs"]),
    "car_esc": seed(1, args=["--model", "car", "--control", "esc", "--duration", "0.7", "--steer-amp", "0.3"], script=bytes([op(1, 3)] * 700)),
    "esc_not_car": seed(1, args=["--control", "esc"]),
    "pi_no_io": seed(1, args=["--model", "chain", "--control", "pi"]),
    "model_file": seed(2, args=["--model-file", "model/mech/ball.hsm"]),
    "model_file_bad": seed(2, args=["--model-file", "@none.hsm"]),
    "model_unknown": seed(2, args=["--model", "nonesuch"]),
    "signal": seed(0x05, sigtick=1, args=[]),
    "mix": seed(1, args=ERUN + ["--max-rejected", "1"], script=MIX),
    "mix_late": seed(0x81, args=ERUN, script=MIX),
    "stale_flags": seed(1, args=ERUN, script=bytes([op(7, 1)] * 10)),
    "stats_full": seed(2, args=["--stats", "@full"]),
    "stats_dir": seed(2, args=["--stats", "@dir"]),
    "can": seed(1, args=CAN + ["--duration", "0.05"], script=bytes([op(3, i) for i in range(32)])),
    "can_final": seed(3, args=CAN + ["--timeout-ms", "5"], script=bytes([op(3, i) for i in range(32)])),
    "can_key": seed(1, args=CAN + ["--key", "@good.key"]),
    "can_opt": seed(1, args=CAN + ["--transport-opt", "nonesuch=1"]),
    "transport_unknown": seed(1, args=["--transport", "nonesuch"]),
    "transport_opt": seed(1, args=["--transport-opt", "a=b"]),
    "transport_opt_bad": seed(1, args=["--transport-opt", "=b"]),
    "sock_fail": seed(1, faults=["SOCKET"], args=[]),
    "send_fail": seed(2, faults=["SEND"], args=[]),
    "prio_mlock": seed(2, faults=["MLOCK"], args=["--priority", "50", "--cpu", "0"]),
    "thread_fail": seed(2, tscript=0x03, args=[]),
    "thread_eperm": seed(2, tscript=0x02, faults=["SCHED", "AFFINITY"], args=["--priority", "50", "--cpu", "3"]),
    "forged": seed(1, args=ERUN, script=bytes([op(7, 1)] * 10)),
    "wrong_map": seed(0, args=ERUN, script=bytes([op(7, 2)] * 10)),
    "can_ts": seed(1, args=CAN + ["--duration", "0.02"], script=bytes([op(3, 4), op(3, 5), op(3, 20)])),
    "can_car": seed(1, args=["--model", "car", "--control", "abs", "--duration", "0.02"] + CAN[:4] + ["--dbc", "hil/dbc/circular_track.dbc"]),
    "can_car_dbc": seed(1, args=["--model", "car", "--control", "abs", "--duration", "0.02"] + CAN[:4] + ["--dbc", "hil/dbc/car.dbc"]),
    "can_secoc": seed(1, args=SECOC + ["--duration", "0.05", "--stats", "@sc.stats", "--transport-opt", "secoc-key=@good.key"], script=bytes([op(3, i) for i in range(32)])),
    "limits": seed(3, args=["--max-fallback-ticks", "2", "--takeover-ms", "5", "--timeout-ms", "50"]),
}

for name, table in (("rtapp", rt), ("ecuapp", ecu)):
    d = os.path.join("test/fuzz/corpus", name)
    os.makedirs(d, exist_ok=True)
    for k, v in table.items():
        with open(os.path.join(d, k), "wb") as f:
            f.write(v)
