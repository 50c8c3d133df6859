# test/plant/plant.mk - plant-test (issue 16): outputs the wire must not carry (hil/hs_plant.c,
# unit level under ASan + UBSan and end to end through hilstep-rt with a UDP receiver), and a
# file-size limit (SIGXFSZ) on hilstep-rt's and hilstep-sim's outputs.
# Uses the top Makefile's CSTD OPT WARN FPFLAGS CORE_OBJ BUILD and linux-rt.mk's HIL_SRC.

$(BUILD)/hilstep-plant-unit: test/plant/plant_unit.c $(TEST_HARNESS) $(HIL_SRC) $(CORE_SRC) $(wildcard hil/*.h rt/*.h $(MODEL_HDR))
	@mkdir -p $(BUILD)
	$(CC) $(CSTD) -O1 -g $(WARN) $(FPFLAGS) -D_POSIX_C_SOURCE=200809L -fsanitize=address,undefined \
	  -fno-sanitize-recover=all -Irt $(MODEL_INC) -Ihil -Itest/unit test/plant/plant_unit.c test/unit/hs_test.c $(HIL_SRC) $(CORE_SRC) -o $@ -lm

.PHONY: plant-test
TEST_SUITES += plant-test
plant-test: $(BUILD)/hilstep-plant-unit $(BUILD)/hilstep-rt $(BUILD)/hilstep-ecu $(BUILD)/hilstep-sim
	@sh test/plant/run_tests.sh $(BUILD)
