# test/link/link.mk - the ECU link's sequence/session policy and foreign-flood resistance
# (issue 11 items 5 and 6) and its binding to the ECU (issue 16): link-test runs the hs_rx
# scenarios and the MAC vectors and frame rules (ASan+UBSan), a 100k datagrams/s foreign
# flood against hilstep-rt in closed loop with hilstep-ecu, the hijack and takeover attacks
# by a second process, authenticated runs, and hilstep-ecu against other plants' maps.
LINK_HIL := $(wildcard hil/*.c)

# rt/, model/ and hil/: the top Makefile's ASan objects (ASAN_CORE, ASAN_HIL), shared by every
# ASan suite (LINK_HIL is all of hil/, as ASAN_HIL).
$(BUILD)/hilstep-link-unit: test/link/link_unit.c $(TEST_HARNESS) $(ASAN_HIL) $(ASAN_CORE) $(wildcard hil/*.h rt/*.h $(MODEL_HDR))
	@mkdir -p $(BUILD)
	$(ASAN_CC) $(ASAN_OFLAGS) -Itest/unit test/link/link_unit.c test/unit/hs_test.c $(ASAN_HIL) $(ASAN_CORE) -o $@ -lm

$(BUILD)/hilstep-mac-unit: test/link/mac_unit.c $(TEST_HARNESS) $(ASAN_HIL) $(ASAN_CORE) $(wildcard hil/*.h rt/*.h $(MODEL_HDR))
	@mkdir -p $(BUILD)
	$(ASAN_CC) $(ASAN_OFLAGS) -Itest/unit test/link/mac_unit.c test/unit/hs_test.c $(ASAN_HIL) $(ASAN_CORE) -o $@ -lm

$(BUILD)/hilstep-flood: test/link/flood.c hil/hs_frame.c hil/hs_mac.c hil/hs_frame.h hil/hs_mac.h
	@mkdir -p $(BUILD)
	$(CC) $(CSTD) -O2 $(DBG) $(WARN) -D_POSIX_C_SOURCE=200809L -Ihil -Irt $(MODEL_INC) test/link/flood.c hil/hs_frame.c hil/hs_mac.c -o $@

.PHONY: link-test
TEST_SUITES += link-test
link-test: $(BUILD)/hilstep-link-unit $(BUILD)/hilstep-mac-unit $(BUILD)/hilstep-flood $(BUILD)/hilstep-rt $(BUILD)/hilstep-ecu
	@sh test/link/run.sh $(BUILD)

# make mac-bench: instructions per tag (callgrind), the figure in hil/FRAME.md "Security".
$(BUILD)/hilstep-mac-bench: test/link/mac_bench.c hil/hs_frame.c hil/hs_mac.c hil/hs_frame.h hil/hs_mac.h
	@mkdir -p $(BUILD)
	$(CC) $(CSTD) $(OPT) $(DBG) $(WARN) -Ihil -Irt $(MODEL_INC) test/link/mac_bench.c hil/hs_frame.c hil/hs_mac.c -o $@

.PHONY: mac-bench
mac-bench: $(BUILD)/hilstep-mac-bench
	@sh test/link/mac_bench.sh $(BUILD)
