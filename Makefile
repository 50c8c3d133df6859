# hilstep - top-level build. `make` builds the host tools, `make check` runs the quick tier
# (unit tests and host contracts, under a minute), `make test` runs every suite (two at a
# time), `make run` runs the main job, `make bench` prints the benchmark table.
# Platform parts add themselves through their fragments (port/*/*.mk, test/*/*.mk).

CC      ?= cc
BUILD   := build
PY      := /usr/bin/python3

# model/ is in rooms (model/ROOMS: each room and what it may include, lowest first).
MODEL_ROOMS := $(shell awk '!/^\#/ && NF { print "model/" $$1 }' model/ROOMS)
MODEL_INC := $(addprefix -I,$(MODEL_ROOMS))
MODEL_SRC := $(wildcard $(addsuffix /*.c,$(MODEL_ROOMS)))
MODEL_HDR := $(wildcard $(addsuffix /*.h,$(MODEL_ROOMS)))

# Warnings that rt/ and model/ must be clean under, on gcc and clang.
WARN    := -Wall -Wextra -Werror -Wconversion -Wdouble-promotion -Wshadow
# -ffp-contract=off keeps x86-64 and Cortex-M7 bit-identical; -fno-math-errno lets
# __builtin_sqrt become the FPU instruction without libm.
FPFLAGS := -ffp-contract=off -fno-math-errno
CSTD    := -std=c99
OPT     ?= -O2
REALDEF ?=
# The description capacities (model/mb/hs_mb.h; model/README.md "Sizes"): `make HS_MB_MAX_BODIES=200`
# builds with another (after `make clean`: objects do not depend on the variable).
HS_MB_LIMIT_VARS := HS_MB_MAX_BODIES HS_MB_MAX_JOINTS HS_MB_MAX_FORCES HS_MB_MAX_OUTPUTS HS_MB_MAX_NQ \
                    HS_MB_MAX_NC HS_MB_MAX_NIN HS_MB_MAX_NZ HS_MB_MAX_NOUT HS_MB_MAX_SHAPES \
                    HS_MB_MAX_CONTACTS HS_MB_MAX_STOPS HS_MB_MAX_CT HS_MB_MAX_POINTS HS_MB_MAX_PARAMS \
                    HS_PLANT_MAX_NQ HS_PLANT_MAX_NC HS_PLANT_MAX_NZ HS_PLANT_MAX_SIG
HS_MB_LIMITS := $(foreach v,$(HS_MB_LIMIT_VARS),$(if $($(v)),-D$(v)=$($(v))))
# Debug information: line tables and symbols (-g1) are all that any tool of the suites reads
# (callgrind_annotate's file:function names, valgrind, gcc's own reports); full -g (variables
# and types, for a debugger) cost ~20 % more CPU per host compile (make test's build, test/README.md).
# The code is the same either way (gcc's -g never changes code generation): `make DBG=-g` for gdb.
DBG     ?= -g1
CFLAGS_RT := $(CSTD) $(OPT) $(DBG) $(WARN) $(FPFLAGS) -ffreestanding $(REALDEF) $(HS_MB_LIMITS) -Irt $(MODEL_INC)
CFLAGS_HOST := $(CSTD) $(OPT) $(DBG) $(WARN) $(FPFLAGS) $(REALDEF) $(HS_MB_LIMITS) -D_POSIX_C_SOURCE=200809L -Irt $(MODEL_INC) -Iport/host -Ihil

RT_SRC    := $(wildcard rt/*.c)
CORE_SRC  := $(RT_SRC) $(MODEL_SRC)
# Host-only model sources (none now). The vehicles on TMeasy tires (model/TIRE.md) build for the
# boards too; the boards' registry leaves them out (-DHS_NO_VEHICLES) and hilstep-mech.elf links
# them by name (test/qemu/mech_main.c).
HOST_ONLY_SRC :=

.PHONY: all run run-main test test-suites check bench clean check-tools host-test asan-test float-test lint-test deps-test plot-test docs-test
all: $(BUILD)/hilstep-sim $(BUILD)/hilstep-plot

# ---- host objects of rt/ and model/ (freestanding flags) ----
$(BUILD)/obj/%.o: %.c $(MODEL_HDR) $(wildcard rt/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_RT) -c $< -o $@

CORE_OBJ := $(CORE_SRC:%.c=$(BUILD)/obj/%.o)

# hil/ (freestanding) for the signal-map check, input clamping and output refusal the plant
# applies: the simulator behaves as the rig does (hs_plant_signal_map, hs_plant_check_outputs).
SIM_HIL := $(wildcard hil/*.c)
$(BUILD)/hilstep-sim: port/host/sim_main.c $(CORE_OBJ) $(SIM_HIL) $(wildcard port/host/*.h hil/*.h)
	$(CC) $(CFLAGS_HOST) port/host/sim_main.c $(SIM_HIL) $(CORE_OBJ) -o $@ -lm

# The car's manoeuvres closed offline under hil/hs_vdc.c's ABS, ESC and driver (hil/VEHICLE.md).
$(BUILD)/hilstep-vdc: port/host/vdc_main.c hil/hs_vdc.c $(CORE_OBJ) $(wildcard hil/*.h)
	$(CC) $(CFLAGS_HOST) port/host/vdc_main.c hil/hs_vdc.c $(CORE_OBJ) -o $@ -lm
all: $(BUILD)/hilstep-vdc

# The plotting command: any hilstep CSV (hilstep-sim --csv, hilstep-rt --log) to PNGs.
$(BUILD)/hilstep-plot: port/host/hilstep_plot.py
	@mkdir -p $(BUILD)
	cp $< $@ && chmod +x $@

# ---- host unit tests ----
# The one harness of the C suites (test/unit/hs_test.h); every suite's binary links it.
TEST_HARNESS := test/unit/hs_test.c test/unit/hs_test.h
TEST_SRC := $(wildcard test/unit/*.c) test/host_main.c
# Every test binary links objects compiled once per set of flags (one compile per file, so
# make -j spreads them; the tools build was bound by single compiles of 110 files). Sets:
#   unit/   the host unit tests and the tallied hs_sparse (CFLAGS_HOST); the rest is CORE_OBJ
#   asan/   ASan + UBSan at -O1: rt/, model/ and hil/, shared by asan/hilstep-unit,
#           hilstep-plant-unit, hilstep-link-unit and hilstep-mac-unit (which compiled the same
#           files with the same flags each); asan/tally/: the unit tests and the tallied hs_sparse
#   float/  HS_REAL_FLOAT: rt/ and model/, shared by float/hilstep-unit and the boards' host
#           float simulator (host-float/hilstep-sim); float/tally/: as asan/tally/
# The tally (HS_SPARSE_TALLY) changes rt/hs_sparse.c alone (rt/hs_sparse.h), so the tallied
# binaries link the shared set with that one object swapped.
HS_OBJ_HDRS := $(MODEL_HDR) $(wildcard rt/*.h hil/*.h port/host/*.h test/unit/*.h)
# ASan + UBSan are clang's: rt/, model/ and hil/ are the fuzz harnesses' objects (test/fuzz/fuzz.mk,
# the same sanitizers plus libFuzzer's coverage hooks, which the ASan runtime stubs out in a
# binary without libFuzzer), compiled once for both; the test sources with the same compiler.
ASAN_CC     ?= clang
ASAN_FLAGS  := -O1 -fsanitize=address,undefined -fno-sanitize-recover=all
# clang's sanitizer builds: line tables only, enough for the reports' file:line frames (the
# symbolizer reads nothing else); `make ASAN_DBG=-g` for a debugger.
ASAN_DBG    ?= -gline-tables-only
UNIT_OFLAGS := $(CFLAGS_HOST) -DHS_SPARSE_TALLY -Itest/unit
ASAN_OFLAGS := $(CSTD) $(ASAN_DBG) $(WARN) $(FPFLAGS) $(REALDEF) $(HS_MB_LIMITS) -D_POSIX_C_SOURCE=200809L $(ASAN_FLAGS) -Irt $(MODEL_INC) -Iport/host -Ihil
ASAN_TFLAGS := $(ASAN_OFLAGS) -DHS_SPARSE_TALLY -Itest/unit
FLOAT_OFLAGS := $(CFLAGS_HOST) -DHS_REAL_FLOAT -Wno-double-promotion
FLOAT_TFLAGS := $(FLOAT_OFLAGS) -DHS_SPARSE_TALLY -Itest/unit
# $(1): the set's directory under $(BUILD); $(2): the variable holding its flags; $(3): the
# variable holding its compiler (default CC).
define HS_OBJ_SET
$(BUILD)/$(1)/%.o: %.c $(HS_OBJ_HDRS)
	@mkdir -p $$(dir $$@)
	$$($(or $(3),CC)) $$($(2)) -c $$< -o $$@
endef
$(eval $(call HS_OBJ_SET,unit,UNIT_OFLAGS))
$(eval $(call HS_OBJ_SET,asan/tally,ASAN_TFLAGS,ASAN_CC))
# rt/, model/ and hil/ in float: the strict flags of CFLAGS_RT (lint-test's gcc float check is
# this set), freestanding as on the boards
FLOAT_CFLAGS_LIB := $(CFLAGS_RT) -DHS_REAL_FLOAT -Ihil
$(eval $(call HS_OBJ_SET,float/obj,FLOAT_CFLAGS_LIB))
$(eval $(call HS_OBJ_SET,float/tally,FLOAT_TFLAGS))
hs_objs = $(patsubst %.c,$(BUILD)/$(1)/%.o,$(2))
# the unit tests and the tallied hs_sparse; rt/ and model/ are the tools' own objects
UNIT_OBJ   := $(call hs_objs,unit,$(TEST_SRC) rt/hs_sparse.c) $(filter-out %/rt/hs_sparse.o,$(CORE_OBJ))
# rt/, model/ and hil/ under ASan (hil/ for the plant and link suites); the tallied hs_sparse.
ASAN_CORE  := $(call hs_objs,fuzz/obj,$(CORE_SRC))
ASAN_HIL   := $(call hs_objs,fuzz/obj,$(wildcard hil/*.c))
ASAN_UNIT  := $(call hs_objs,asan/tally,$(TEST_SRC) rt/hs_sparse.c) $(filter-out %/rt/hs_sparse.o,$(ASAN_CORE))
FLOAT_CORE := $(call hs_objs,float/obj,$(CORE_SRC))
FLOAT_UNIT := $(call hs_objs,float/tally,$(TEST_SRC) rt/hs_sparse.c) $(filter-out %/rt/hs_sparse.o,$(FLOAT_CORE))

$(BUILD)/hilstep-unit: $(UNIT_OBJ)
	$(CC) $(CFLAGS_HOST) $(UNIT_OBJ) -o $@ -lm

$(BUILD)/asan/hilstep-unit: $(ASAN_UNIT)
	$(ASAN_CC) $(ASAN_OFLAGS) $(ASAN_UNIT) -o $@ -lm

$(BUILD)/float/hilstep-unit: $(FLOAT_UNIT)
	$(CC) $(FLOAT_OFLAGS) $(FLOAT_UNIT) -o $@ -lm

# Each suite target prints its own "N passed, N failed" line; test/run_suites.sh sums them.
# CHECK_SUITES is `make check`, the edit-compile loop's tier; `make test` runs them all.
TEST_SUITES := host-test asan-test float-test lint-test deps-test sim-test plot-test docs-test
CHECK_SUITES := host-test deps-test sim-test plot-test docs-test
# Suites that never run at the same time as each other (UDP on 127.0.0.1, real-time budgets).
TEST_SERIAL :=
# Built before the suites start, besides their prerequisites (images their recipes make).
TEST_PREBUILD :=

host-test: $(BUILD)/hilstep-unit
	$(BUILD)/hilstep-unit

# The sanitizers look for memory and undefined-behaviour faults on the code's paths, which the
# board's quick tier (--quick: every test of the table, shorter runs, fewer step sizes) walks as the
# full tier does; host-test runs the full tier's long runs and tight numbers at -O2. The full
# tier under ASan was 95 s of CPU, most of it circular_track's 10^6 steps and sparse_step's runs.
asan-test: $(BUILD)/asan/hilstep-unit
	ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 $(BUILD)/asan/hilstep-unit --quick

float-test: $(BUILD)/float/hilstep-unit
	$(BUILD)/float/hilstep-unit --float

# gcc: the build's objects in double and float are the check (test/lint.sh checks their flags).
lint-test: $(CORE_OBJ) $(FLOAT_CORE)
	@sh test/lint.sh

print-cflags-rt:
	@echo $(CFLAGS_RT)
print-cflags-float:
	@echo $(FLOAT_CFLAGS_LIB)

# The dependency order: includes follow model/ROOMS, no circle among rt/ and model/ objects.
deps-test: $(BUILD)/hilstep-sim
	@$(PY) test/deps_check.py $(BUILD)

sim-test: $(BUILD)/hilstep-sim
	@sh test/sim_contract.sh $(BUILD)/hilstep-sim

plot-test: $(BUILD)/hilstep-sim $(BUILD)/hilstep-plot
	@sh test/plot_contract.sh $(BUILD)/hilstep-plot $(BUILD)/hilstep-sim

# The documents: README a guide (<= 400 lines, contents), links resolve, no internal words in
# them or in any tool's --help, README figures beside the command that writes them.
docs-test: $(BUILD)/hilstep-sim $(BUILD)/hilstep-plot $(BUILD)/hilstep-mbgen $(BUILD)/hilstep-rt $(BUILD)/hilstep-ecu $(BUILD)/hilstep-vdc
	@sh test/docs_check.sh $(BUILD)

# Fragments of the platform parts; each may append to TEST_SUITES.
-include port/cortex-m/cortex-m.mk
-include port/linux-rt/linux-rt.mk
-include test/figures/figures.mk
-include test/sparse/sparse.mk
-include test/peers/peers.mk
-include test/mb/mb.mk
-include test/soak/soak.mk
-include test/range/range.mk
-include test/misra/misra.mk test/fuzz/fuzz.mk test/link/link.mk
-include test/can/can.mk
-include test/qemu/mech.mk
-include test/tire/tire.mk
-include test/rtkernel/rtkernel.mk
-include test/plant/plant.mk
-include test/story/story.mk
-include test/contact/contact.mk
-include test/compl/compl.mk
-include test/err/err.mk
-include test/runner/runner.mk
-include test/xcp/xcp.mk
-include test/mdf/mdf.mk

# The network suites: each picks free UDP ports, but two at once could pick the same range
# between checking and binding, and their real-time budgets want a quiet core.
TEST_SERIAL += linux-test link-test wireshark-test

# `make test` and `make run` install what they need first, as the first command of their own
# recipe and before the sub-make that compiles anything: as a prerequisite (even order-only)
# make would be free to build other prerequisites first. test/linux/setup_test.sh checks it.
test:
	@sh test/install_deps.sh
	@$(MAKE) --no-print-directory test-suites

# Two suites at a time (TEST_JOBS): the machine's two cores; each suite's output stays together.
TEST_JOBS ?= 2
# The longest suites start first, in this order (a plain $(filter) would keep TEST_SUITES's
# order and start rtkernel-test seventh), so the two lanes end together; the serial suites
# (TEST_SERIAL, one at a time) among them, so they do not queue up one after another at the
# end with the other lane idle (they did: 38 s of one lane at the end of a 630 s run).
# methods-table-test ... contact-test: the next longest by CPU (about 55, 48, 34, 32, 30 and
# 27 s each on the loaded VM), which TEST_SUITES's order had started among the short suites.
TEST_FIRST := rtkernel-test qemu-test linux-test qemu-mech-test fuzz-test link-test misra-test \
              lint-test mb-test xcp-test tire-test methods-table-test figures-smoke err-test \
              compliance-test rtkernel-ecu-test contact-test mdf-test story-test
# Suites whose recipes build nothing beyond their own prerequisites: test/run_suites.sh builds
# their tools first and starts them while the other suites' tools build (one beside the build).
TEST_EARLY := misra-test lint-test
# TEST_TIMES=FILE: one line per phase and suite, "NAME wall-s cpu-s" (test/README.md).
TEST_TIMES ?=
test-suites:
	@TEST_SERIAL="$(TEST_SERIAL)" TEST_PREBUILD="$(TEST_PREBUILD)" TEST_EARLY="$(TEST_EARLY)" \
	  TEST_TIMES="$(TEST_TIMES)" sh test/run_suites.sh -j $(TEST_JOBS) \
	  $(foreach s,$(TEST_FIRST),$(filter $(s),$(TEST_SUITES))) $(filter-out $(TEST_FIRST),$(TEST_SUITES))

# The quick tier: unit tests and the host tools' contracts (no QEMU, no network, no fuzzing),
# after installing what they need as `make test` does (about 2 s when all is there).
check:
	@sh test/install_deps.sh
	@sh test/run_suites.sh -j $(TEST_JOBS) $(CHECK_SUITES)

check-tools:
	@sh test/install_deps.sh

# Every host tool first (hilstep-sim, -plot, -mbgen and the Linux plant and ECU), then the job.
run:
	@sh test/install_deps.sh
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory run-main

$(BUILD)/hilstep-bench: test/bench/bench.c $(CORE_OBJ)
	$(CC) $(CFLAGS_HOST) test/bench/bench.c $(CORE_OBJ) -o $@ -lm

# `make bench` measures (bench-run: this table and every fragment's, e.g. mb-bench) and writes
# what it printed to test/bench/MEASUREMENTS.md, the page the documents quote.
.PHONY: bench-run
bench-run: $(BUILD)/hilstep-bench $(BUILD)/hilstep-sim
	@sh test/bench/bench.sh

# The default method's instructions per step by stage and by kind of work (car axle, chain).
.PHONY: bench-stages
bench-stages:
	@echo "== default method by stage, instructions per step (sh test/bench/stages.sh)"
	@sh test/bench/stages.sh
bench-run: bench-stages

# (the peers' libraries too: the page's peer rows are skipped without them). One fragment at a
# time (-j1, whatever -j `make bench` was given): under -j2 two fragments' lines interleaved on
# the page (chain-ir's code block cut by mb-bench's table rows), and instruction counts need no
# second core.
bench:
	@sh test/install_deps.sh
	@$(MAKE) --no-print-directory peers-deps
	@sh test/bench/write_page.sh test/bench/MEASUREMENTS.md $(MAKE) --no-print-directory -s -j1 bench-run

# Until a platform fragment defines the real-time main job, run the car axle offline.
ifndef RUN_DEFINED
run-main: $(BUILD)/hilstep-sim
	$(BUILD)/hilstep-sim --model car_axle --method j2 --form index2 --stab projection --h 1e-3 --t 3 --hash
endif

ifdef RUN_DEFINED
all: $(BUILD)/hilstep-rt $(BUILD)/hilstep-ecu
endif
# The DBC generator of the CAN transport (test/can/can.mk) is a host tool too.
ifneq ($(wildcard port/host/dbcgen_main.c),)
all: $(BUILD)/hilstep-dbcgen
endif

clean:
	rm -rf $(BUILD)
