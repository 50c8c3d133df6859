# test/plant/plant.mk - plant-test (issue 16): outputs the wire must not carry (hil/hs_plant.c,
# unit level under ASan + UBSan and end to end through hilstep-rt with a UDP receiver), and a
# file-size limit (SIGXFSZ) on hilstep-rt's and hilstep-sim's outputs.
# Uses the top Makefile's CSTD OPT WARN FPFLAGS CORE_OBJ BUILD and linux-rt.mk's HIL_SRC.

# rt/, model/ and hil/ are the top Makefile's ASan objects (ASAN_CORE, ASAN_HIL: compiled once
# for every ASan suite, with these flags).
$(BUILD)/hilstep-plant-unit: test/plant/plant_unit.c $(TEST_HARNESS) $(ASAN_HIL) $(ASAN_CORE) $(wildcard hil/*.h rt/*.h $(MODEL_HDR))
	@mkdir -p $(BUILD)
	$(ASAN_CC) $(ASAN_OFLAGS) -Itest/unit test/plant/plant_unit.c test/unit/hs_test.c $(ASAN_HIL) $(ASAN_CORE) -o $@ -lm

.PHONY: plant-test
TEST_SUITES += plant-test
plant-test: $(BUILD)/hilstep-plant-unit $(BUILD)/hilstep-rt $(BUILD)/hilstep-ecu $(BUILD)/hilstep-sim
	@sh test/plant/run_tests.sh $(BUILD)
