# test/xcp/xcp.mk - the XCP slave and the A2L (issue 36; hil/XCP.md): xcp-test runs
# hilstep-rt --xcp against the Python master and A2L reader of test/xcp/xcp_master.py (written
# from the standards, no code shared with the slave), and counts the DAQ's cost per frame with
# callgrind (test/xcp/xcp_bench.c); `make xcp-bench` prints those counts alone.
$(BUILD)/hilstep-xcp-bench: test/xcp/xcp_bench.c $(CORE_OBJ) $(wildcard hil/*.c hil/*.h port/host/*.h)
	@mkdir -p $(BUILD)
	$(CC) $(CFLAGS_HOST) test/xcp/xcp_bench.c hil/hs_xcp.c hil/hs_mac.c hil/hs_plant.c hil/hs_signal.c \
	  hil/hs_frame.c hil/hs_exit.c hil/hs_apps.c $(CORE_OBJ) -o $@ -lm

# the slave under a storm of bad datagrams, ASan+UBSan (test/xcp/xcp_storm.c)
$(BUILD)/hilstep-xcp-storm: test/xcp/xcp_storm.c hil/hs_xcp.c hil/hs_mac.c hil/hs_xcp.h hil/hs_mac.h
	@mkdir -p $(BUILD)
	$(CC) $(CSTD) -O1 $(DBG) $(WARN) $(REALDEF) -fsanitize=address,undefined -fno-sanitize-recover=all -Irt -Ihil \
	  test/xcp/xcp_storm.c hil/hs_xcp.c hil/hs_mac.c -o $@

.PHONY: xcp-test xcp-bench
TEST_SUITES += xcp-test
TEST_SERIAL += xcp-test
xcp-test: $(BUILD)/hilstep-rt $(BUILD)/hilstep-xcp-bench $(BUILD)/hilstep-xcp-storm
	@sh test/xcp/run_tests.sh $(BUILD)

xcp-bench: $(BUILD)/hilstep-xcp-bench
	@sh test/xcp/xcp_bench.sh $(BUILD) model/mech/quarter_car.hsm --calibration
	@sh test/xcp/xcp_bench.sh $(BUILD) model/mech/vehicles/car.hsm --calibration
