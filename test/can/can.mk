# test/can/can.mk - the CAN side of the plant (issue 17): DBC parser and codec unit tests, the
# bit-exact cross-check against python3-canmatrix, the candump checker on a synthetic run, the
# DBC -> C generator, and hilstep-rt / hilstep-ecu refusing bad input (exit 2, FILE:LINE or the
# interface). The bus itself (vcan0) runs in the PREEMPT_RT guest: test/can/scenario.sh.
CAN_HOST_CFLAGS := $(CSTD) -O1 $(DBG) $(WARN) $(FPFLAGS) -D_POSIX_C_SOURCE=200809L \
                   -fsanitize=address,undefined -fno-sanitize-recover=all -Irt $(MODEL_INC) -Ihil -Iport/host
CAN_HIL := hil/hs_can.c hil/hs_e2e.c hil/hs_secoc.c hil/hs_dbc.c hil/hs_signal.c hil/hs_frame.c hil/hs_mac.c hil/hs_apps.c hil/hs_transport.c
CAN_DEPS := $(CAN_HIL) $(wildcard hil/*.h) port/host/hs_dbc_file.h

$(BUILD)/hilstep-can-unit: test/can/can_unit.c $(TEST_HARNESS) $(CAN_DEPS)
	@mkdir -p $(BUILD)
	$(CC) $(CAN_HOST_CFLAGS) -Itest/unit test/can/can_unit.c test/unit/hs_test.c $(CAN_HIL) -o $@ -lm

$(BUILD)/hilstep-can-tool: test/can/can_tool.c $(CAN_DEPS)
	@mkdir -p $(BUILD)
	$(CC) $(CAN_HOST_CFLAGS) test/can/can_tool.c $(CAN_HIL) -o $@ -lm

$(BUILD)/hilstep-dbcgen: port/host/dbcgen_main.c $(CAN_DEPS)
	@mkdir -p $(BUILD)
	$(CC) $(CFLAGS_HOST) port/host/dbcgen_main.c hil/hs_dbc.c -o $@

# The generated table of the shipped circular-track DBC, compiled and compared with the parse.
$(BUILD)/can/circular_track_dbc.c: hil/dbc/circular_track.dbc $(BUILD)/hilstep-dbcgen
	@mkdir -p $(BUILD)/can
	$(BUILD)/hilstep-dbcgen $< gen > $@

$(BUILD)/hilstep-can-gen: test/can/gen_check.c $(BUILD)/can/circular_track_dbc.c $(TEST_HARNESS) $(CAN_DEPS)
	$(CC) $(CAN_HOST_CFLAGS) -Itest/unit test/can/gen_check.c test/unit/hs_test.c $(BUILD)/can/circular_track_dbc.c $(CAN_HIL) -o $@ -lm

# A third transport built into a copy of hilstep-rt: its own file plus a registration table one
# line longer than the port's (the test counts the line difference).
$(BUILD)/can/hs_transports_null.c: port/linux-rt/hs_transports.c
	@mkdir -p $(BUILD)/can
	sed 's|^    /\* end of the list|    X(null) /* test/can/hs_tp_null.c */ \\\n&|' $< > $@

$(BUILD)/hilstep-rt-null: $(BUILD)/can/hs_transports_null.c test/can/hs_tp_null.c $(LINUX_DIR)/hilstep_rt.c $(LINUX_BASE_OBJ) $(LINUX_TP_OBJ) $(LINUX_XCP_OBJ) $(CORE_OBJ) $(LINUX_HDR)
	$(CC) $(CFLAGS_LINUX) $(LINUX_DIR)/hilstep_rt.c $(LINUX_BASE_OBJ) $(filter-out %/hs_transports.o,$(LINUX_TP_OBJ)) $(LINUX_XCP_OBJ) \
	  $(BUILD)/can/hs_transports_null.c test/can/hs_tp_null.c $(CORE_OBJ) -o $@ $(LINUX_LIBS)

.PHONY: can-test can-build
can-build: $(BUILD)/hilstep-can-unit $(BUILD)/hilstep-can-tool $(BUILD)/hilstep-can-gen \
           $(BUILD)/hilstep-rt $(BUILD)/hilstep-ecu $(BUILD)/hilstep-rt-null $(BUILD)/hilstep-can-spoof $(BUILD)/hilstep-sim \
           $(BUILD)/hilstep-can-mac-bench

TEST_SUITES += can-test
can-test: can-build
	@sh test/can/run_tests.sh $(BUILD)

# The second sender of issue 31 (test/can/spoof.sh runs it in the rtkernel guest).
$(BUILD)/hilstep-can-spoof: test/can/can_spoof.c $(CAN_DEPS)
	@mkdir -p $(BUILD)
	$(CC) $(CFLAGS_HOST) -Iport/host test/can/can_spoof.c hil/hs_can.c hil/hs_e2e.c hil/hs_secoc.c hil/hs_dbc.c hil/hs_signal.c hil/hs_frame.c hil/hs_mac.c hil/hs_apps.c hil/hs_transport.c -o $@ -lm

# make can-mac-bench: instructions per CAN frame of E2E and SecOC (callgrind), the figures in
# hil/CAN.md "Security" (as make mac-bench does for the UDP frame's MAC).
$(BUILD)/hilstep-can-mac-bench: test/can/secoc_bench.c $(CAN_DEPS)
	@mkdir -p $(BUILD)
	$(CC) $(CSTD) $(OPT) $(DBG) $(WARN) -D_POSIX_C_SOURCE=200809L -Irt $(MODEL_INC) -Ihil -Iport/host test/can/secoc_bench.c $(CAN_HIL) -o $@ -lm

.PHONY: can-mac-bench
can-mac-bench: $(BUILD)/hilstep-can-mac-bench
	@sh test/can/secoc_bench.sh $(BUILD)

