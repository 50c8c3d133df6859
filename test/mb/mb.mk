# mb.mk - the multibody layer's suite (issue 10): derivative checks, shipped descriptions end
# to end, the car axle description against the hand-written model.
# Every test/mb/test_mb_*.c; test/mb/mb_main.c's table runs them.
MB_TEST_SRC := test/mb/mb_main.c $(wildcard test/mb/test_mb_*.c) test/unit/hs_test.c
$(BUILD)/hilstep-mbtest: $(MB_TEST_SRC) $(TEST_HARNESS) $(CORE_OBJ) $(wildcard test/mb/*.h model/*/*.h rt/*.h port/host/*.h)
	@mkdir -p $(BUILD)
	$(CC) $(CFLAGS_HOST) -Wno-double-promotion -Wno-conversion -Itest/mb -Itest/unit $(MB_TEST_SRC) $(CORE_OBJ) -o $@ -lm

mb-test: $(BUILD)/hilstep-mbtest
	$(BUILD)/hilstep-mbtest model/mech $(BUILD)/hilstep-sim $(BUILD)/hilstep-mbgen $(BUILD)/hilstep-rt

TEST_SUITES += mb-test

# The generator: C tables of a description for the firmware (port/host/mbgen_main.c). It links
# rt/ and the multibody layer only, not the models it generates (nor the registry that lists
# them), so a broken or stale generated file never keeps `make mb-gen` from rewriting it.
MBGEN_OBJ := $(filter $(BUILD)/obj/rt/% $(addprefix $(BUILD)/obj/model/,mb/% elements/% contact/% lang/% vehicle/hs_tire.o vehicle/hs_tire_values.o),$(CORE_OBJ))
$(BUILD)/hilstep-mbgen: port/host/mbgen_main.c $(MBGEN_OBJ) $(MODEL_HDR) $(wildcard rt/*.h port/host/hs_mb_file.h)
	@mkdir -p $(BUILD)
	$(CC) $(CFLAGS_HOST) port/host/mbgen_main.c $(MBGEN_OBJ) -o $@ -lm

all: $(BUILD)/hilstep-mbgen
mb-test: $(BUILD)/hilstep-mbgen $(BUILD)/hilstep-sim $(BUILD)/hilstep-rt

# make bench: instructions per step of the shipped descriptions (host: callgrind; boards:
# QEMU, the images and host float build come from test/qemu/mech.mk).
.PHONY: mb-bench
mb-bench: $(BUILD)/hilstep-sim
	@sh test/mb/mb_bench.sh $(BUILD)/hilstep-sim $(CM_DIR) $(CM_DIR)/host-float/hilstep-sim
bench-run: mb-bench

# The multibody layer's checks are part of `make check` as mb-check: the same suite without the
# dvp test (HS_MB_QUICK), whose 3e5-step references are most of mb-test's time (idle machine:
# mb-check 126 checks in 13.7 s, mb-test 144 in 47.3 s); make test runs mb-test, all of it.
.PHONY: mb-check
mb-check: $(BUILD)/hilstep-mbtest $(BUILD)/hilstep-mbgen $(BUILD)/hilstep-sim $(BUILD)/hilstep-rt
	HS_MB_QUICK=1 $(BUILD)/hilstep-mbtest model/mech $(BUILD)/hilstep-sim $(BUILD)/hilstep-mbgen $(BUILD)/hilstep-rt
CHECK_SUITES += mb-check

# make bench: descriptions (generated, file-loaded) against their hand-written twins, with the
# instructions per step by stage (test/bench/mb_twins.sh; test/bench/mb_twins.c is the driver).
$(BUILD)/hilstep-mbtwins: test/bench/mb_twins.c $(CORE_OBJ) $(MODEL_HDR) $(wildcard rt/*.h port/host/hs_mb_file.h)
	@mkdir -p $(BUILD)
	$(CC) $(CFLAGS_HOST) test/bench/mb_twins.c $(CORE_OBJ) -o $@ -lm

.PHONY: mb-twins
mb-twins: $(BUILD)/hilstep-mbtwins
	@sh test/bench/mb_twins.sh $(BUILD)
bench-run: mb-twins

# Sizes from the build (issue 32 item 4): every capacity's refusal names it, the need and the
# setting; the 81-body N-four-bar against the parallelogram motion; the 20- and 50-box towers.
size-test: $(BUILD)/hilstep-sim
	@sh test/mb/size_test.sh $(BUILD)/hilstep-sim
TEST_SUITES += size-test

# make bench: instructions per step of the N-four-bar (N = 5..40) and the box towers (5..50)
# on the host (callgrind), per body and against the smallest: the cost's growth with size.
.PHONY: size-bench
size-bench: $(BUILD)/hilstep-sim
	@sh test/mb/size_bench.sh $(BUILD)/hilstep-sim
bench-run: size-bench
