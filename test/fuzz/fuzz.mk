# test/fuzz/fuzz.mk - libFuzzer harnesses (issues 11, 16): every test/fuzz/fuzz_*.c is one,
# picked up by name (frame decoder and receive validation, signal maps, the plant application,
# the telemetry ring and histogram, the command lines of hilstep-sim and hilstep-rt, the .hsm
# parser, the whole of hilstep-rt and hilstep-ecu in a fake process, and whatever harness is
# added next). Built with clang under ASan + UBSan.
#   make fuzz-test            bounded: FUZZ_RUNS executions each (FUZZ_RUNS_name overrides one),
#                             part of make test
#   make fuzz FUZZ_SECONDS=N  N seconds each; the grown corpus stays in build/fuzz/corpus/
#   make fuzz-coverage        replays every committed corpus under clang source-based coverage
#                             and prints the line coverage of hil/ and port/linux-rt/
#                             (fuzz-coverage-test: hil/ >= FUZZ_COV_MIN, port/linux-rt/ >=
#                             FUZZ_COV_MIN_PORT: each the measured figure rounded down)
FUZZ_CC      ?= clang
FUZZ_RUNS    ?= 150000
FUZZ_SECONDS ?= 60
FUZZ_COV_MIN ?= 99
# port/linux-rt/'s floor (coverage.sh): the measured figure rounded down, so a harness or
# corpus that loses reach fails (FUZZ.md lists the lines left and why).
FUZZ_COV_MIN_PORT ?= 98
export FUZZ_COV_MIN_PORT
# make test's counts were halved for the seven slowest harnesses (cli, rtcli, signal, dbc, mbfile,
# frame, xcp: 78 of the suite's 126 s in a clean-clone run) when make test reached 17 min on the
# shared machine: the corpus replay (fuzz-coverage-test) keeps the reach, `make fuzz` goes deep.
# Executions per target in make test where FUZZ_RUNS does not fit, so the ten harnesses stay
# near 100 s together (measured on the shared 2-core VM at load ~12, FUZZ.md): the plant steps
# a model per operation and hashes keyed frames, the CAN codec and the two parsers are slower
# per input than the frame decoder; ring and hist are cheap but saturate early.
FUZZ_RUNS_plant  ?= 10000
# can: half its inputs drive the quarter car's SecOC collection (two to three HMACs per cycle,
# 0.4 ms per input on average), so 20,000 take the time 60,000 of the E2E harness alone took
# (19.9 and 19.5 s against 22.0 and 21.2 s, back to back at load ~6, FUZZ.md).
FUZZ_RUNS_can    ?= 20000
FUZZ_RUNS_dbc    ?= 50000
FUZZ_RUNS_mbfile ?= 75000
FUZZ_RUNS_frame  ?= 100000
FUZZ_RUNS_ring   ?= 200000
FUZZ_RUNS_hist   ?= 200000
# The socket-free harnesses: tp replays a script of fake system calls per input (30,000 took
# 40 s at load ~24), key writes a memory file per input (30,000 took 13 s): together ~7 % of
# the suite's fuzzing time at these counts.
FUZZ_RUNS_tp     ?= 15000
FUZZ_RUNS_key    ?= 20000
# The link health verdict: a receive side ticked up to 512 times per input (100,000 took 13 s
# on the idle VM); 30,000 saturate its coverage and keep it near 4 s.
FUZZ_RUNS_health ?= 30000
# The XCP slave: a session of datagrams per input, cheap (no model step).
FUZZ_RUNS_xcp    ?= 50000
# The car's control laws: a few arithmetic ticks per input; 50,000 saturate hs_vdc.c's branches.
FUZZ_RUNS_vdc    ?= 50000
# The application harnesses: one input is a whole run of hilstep-rt / hilstep-ecu (up to 1,500
# frames, a model step each, threads taking turns): 500 and 1,000 executions took 3 s each
# at load ~19 on the 2-core VM (FUZZ.md).
FUZZ_RUNS_rtapp  ?= 500
FUZZ_RUNS_ecuapp ?= 1000
FUZZ_DEFS    := $(FPFLAGS) $(REALDEF) $(HS_MB_LIMITS) -D_POSIX_C_SOURCE=200809L -DHS_SIM_NO_MAIN -Irt $(MODEL_INC) -Ihil -Iport/host -Iport/linux-rt
# No full unrolling under the sanitizers: rt/hs_dense.c's "GCC unroll 8" loops, unrolled for
# every constant n of its dispatcher and then instrumented access by access, took 17 s of CPU
# to compile (0.2 s without; hs_dense.o alone was a tenth of the build's sanitizer objects).
# The checks are the same: UBSan's are inserted before any loop pass, ASan checks each access
# of the loop as it checks each unrolled copy. Debug information: line tables (ASAN_DBG, the
# reports' file:line frames).
FUZZ_NOUNROLL := -mllvm -unroll-full-max-count=0 -mllvm -pragma-unroll-threshold=0 -Wno-pass-failed
FUZZ_CFLAGS  := -std=c99 $(ASAN_DBG) -O1 $(FUZZ_NOUNROLL) -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all $(FUZZ_DEFS)
FUZZ_OCFLAGS := -std=c99 $(ASAN_DBG) -O1 $(FUZZ_NOUNROLL) -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all $(FUZZ_DEFS)
FUZZ_COVFLAGS := -std=c99 $(ASAN_DBG) -O1 -fprofile-instr-generate -fcoverage-mapping $(FUZZ_DEFS)
FUZZ_NAMES   := $(patsubst test/fuzz/fuzz_%.c,%,$(wildcard test/fuzz/fuzz_*.c))
FUZZ_BINS    := $(FUZZ_NAMES:%=$(BUILD)/fuzz/fuzz_%)
FUZZ_COVBINS := $(FUZZ_NAMES:%=$(BUILD)/fuzzcov/fuzz_%)
FUZZ_LIBSRC  := $(RT_SRC) $(MODEL_SRC) $(wildcard hil/*.c)
FUZZ_HDRS    := $(MODEL_HDR) $(wildcard rt/*.h hil/*.h port/host/*.h port/linux-rt/*.h)
# The library is compiled once per flavour; each harness links it.
FUZZ_OBJS    := $(FUZZ_LIBSRC:%.c=$(BUILD)/fuzz/obj/%.o)
# The coverage build measures hil/ and port/linux-rt/ alone: rt/ and model/ link the tools' own
# objects (CORE_OBJ, the same definitions) instead of a third compile of them.
FUZZ_COVOBJS := $(patsubst %.c,$(BUILD)/fuzzcov/obj/%.o,$(wildcard hil/*.c)) $(CORE_OBJ)
# Extra sources per harness: the CLI harnesses call the tools' parsers (fuzz_rtcli.c includes
# hilstep_rt.c itself, which needs the Linux port's socket and thread helpers). A harness that
# needs more than rt/ model/ hil/ sets FUZZ_EXTRA_NAME (sources), FUZZ_DEP_NAME (headers or
# sources it includes) or FUZZ_LIBS_NAME here, above the rules (they are expanded there).
FUZZ_EXTRA_cli   := port/host/sim_main.c
FUZZ_EXTRA_rtcli := port/linux-rt/hs_linux.c port/linux-rt/hs_key.c $(wildcard port/linux-rt/hs_tp_*.c) port/linux-rt/hs_transports.c port/linux-rt/hs_xcp_port.c port/linux-rt/hs_mdf.c
FUZZ_DEP_rtcli   := port/linux-rt/hilstep_rt.c
FUZZ_LIBS_rtcli  := -lpthread
# fuzz_tp.c includes the Linux port's socket code whole, its system calls renamed to fakes.
FUZZ_DEP_tp      := port/linux-rt/hs_linux.c $(wildcard port/linux-rt/hs_tp_*.c) port/linux-rt/hs_transports.c
FUZZ_LIBS_tp     := -lpthread
# hs_tp_can.c reads the key of a DBC's SecOC messages with hs_key_load (real calls: read only).
FUZZ_EXTRA_tp    := port/linux-rt/hs_key.c
# fuzz_key.c drives port/linux-rt/hs_key.c when the tree has it, else hs_linux.c's loader.
FUZZ_EXTRA_key   := port/linux-rt/hs_linux.c $(wildcard port/linux-rt/hs_key.c)
FUZZ_LIBS_key    := -lpthread

# The application harnesses (fuzz_rtapp.c, fuzz_ecuapp.c) include an application whole with its
# main renamed, inside the fake process of test/fuzz/fz_app.h (which includes the port's sources).
FZ_APP_DEP       := test/fuzz/fz_app.h port/linux-rt/hs_linux.c $(wildcard port/linux-rt/hs_tp_*.c) port/linux-rt/hs_transports.c port/linux-rt/hs_key.c port/linux-rt/hs_xcp_port.c port/linux-rt/hs_mdf.c
FUZZ_DEP_rtapp   := port/linux-rt/hilstep_rt.c $(FZ_APP_DEP)
FUZZ_LIBS_rtapp  := -lpthread
FUZZ_DEP_ecuapp  := port/linux-rt/hilstep_ecu.c $(FZ_APP_DEP)
FUZZ_LIBS_ecuapp := -lpthread
# fuzz_xcp.c shares test/xcp/xcp_storm.c's slave setup and hooks (it includes it, main renamed).
FUZZ_DEP_xcp     := test/xcp/xcp_storm.c

$(BUILD)/fuzz/obj/%.o: %.c $(FUZZ_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_OCFLAGS) -c $< -o $@

$(BUILD)/fuzzcov/obj/%.o: %.c $(FUZZ_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_COVFLAGS) -c $< -o $@

# One link rule per harness (its extra sources and libraries differ).
define FUZZ_LINK
$(BUILD)/fuzz/fuzz_$(1): test/fuzz/fuzz_$(1).c $(FUZZ_OBJS) $(FUZZ_HDRS) $(FUZZ_EXTRA_$(1)) $(FUZZ_DEP_$(1))
	@mkdir -p $(BUILD)/fuzz
	$(FUZZ_CC) $(FUZZ_CFLAGS) $$< $(FUZZ_EXTRA_$(1)) $(FUZZ_OBJS) -o $$@ -lm $(FUZZ_LIBS_$(1))

$(BUILD)/fuzzcov/fuzz_$(1): test/fuzz/fuzz_$(1).c $(FUZZ_COVOBJS) $(FUZZ_HDRS) $(FUZZ_EXTRA_$(1)) $(FUZZ_DEP_$(1))
	@mkdir -p $(BUILD)/fuzzcov
	$(FUZZ_CC) $(FUZZ_COVFLAGS) -fsanitize=fuzzer $$< $(FUZZ_EXTRA_$(1)) $(FUZZ_COVOBJS) -o $$@ -lm $(FUZZ_LIBS_$(1))
endef
$(foreach n,$(FUZZ_NAMES),$(eval $(call FUZZ_LINK,$(n))))
# Objects outlive the link (make would delete them as intermediates of a pattern chain).
.SECONDARY: $(FUZZ_OBJS) $(FUZZ_COVOBJS)

.PHONY: fuzz fuzz-test fuzz-build fuzz-coverage fuzz-coverage-test
fuzz-build: $(FUZZ_BINS)

# NAME=RUNS per harness.
FUZZ_PLAN = $(foreach n,$(FUZZ_NAMES),$(n)=$(or $(FUZZ_RUNS_$(n)),$(FUZZ_RUNS)))

TEST_SUITES += fuzz-test
fuzz-test: fuzz-build
	@sh test/fuzz/run_fuzz.sh $(BUILD) runs $(FUZZ_RUNS) $(FUZZ_PLAN)

fuzz: fuzz-build
	@sh test/fuzz/run_fuzz.sh $(BUILD) seconds $(FUZZ_SECONDS) $(FUZZ_NAMES)

fuzz-coverage: $(FUZZ_COVBINS)
	@sh test/fuzz/coverage.sh $(BUILD) 0 $(FUZZ_NAMES)

TEST_SUITES += fuzz-coverage-test
fuzz-coverage-test: $(FUZZ_COVBINS)
	@sh test/fuzz/coverage.sh $(BUILD) $(FUZZ_COV_MIN) $(FUZZ_NAMES)
