# mb.mk - the multibody layer's suite (issue 10): derivative checks, shipped descriptions end
# to end, the car axle description against the hand-written model.
MB_TEST_SRC := test/mb/mb_main.c test/mb/test_mb_deriv.c test/mb/test_mb_mech.c test/mb/test_mb_dvp.c
$(BUILD)/hilstep-mbtest: $(MB_TEST_SRC) $(CORE_OBJ) $(wildcard test/mb/*.h model/*.h rt/*.h port/host/*.h)
	@mkdir -p $(BUILD)
	$(CC) $(CFLAGS_HOST) -Wno-double-promotion -Wno-conversion -Itest/mb $(MB_TEST_SRC) $(CORE_OBJ) -o $@ -lm

mb-test: $(BUILD)/hilstep-mbtest
	$(BUILD)/hilstep-mbtest model/mech $(BUILD)/hilstep-sim $(BUILD)/hilstep-mbgen

TEST_SUITES += mb-test

# The generator: C tables of a description for the firmware (port/host/mbgen_main.c).
$(BUILD)/hilstep-mbgen: port/host/mbgen_main.c $(CORE_OBJ) $(wildcard model/*.h rt/*.h port/host/*.h)
	@mkdir -p $(BUILD)
	$(CC) $(CFLAGS_HOST) port/host/mbgen_main.c $(CORE_OBJ) -o $@ -lm

all: $(BUILD)/hilstep-mbgen
mb-test: $(BUILD)/hilstep-mbgen $(BUILD)/hilstep-sim

# make bench: instructions per step of the shipped descriptions (host, callgrind).
.PHONY: mb-bench
mb-bench: $(BUILD)/hilstep-sim
	@sh test/mb/mb_bench.sh $(BUILD)/hilstep-sim
bench: mb-bench
