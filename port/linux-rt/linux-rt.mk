# port/linux-rt/linux-rt.mk - the Linux PREEMPT_RT plant (hilstep-rt), the software ECU
# (hilstep-ecu), their tests (linux-test), `make run` and `make rt-bench`.
# Included by the top Makefile; uses its CSTD OPT WARN FPFLAGS CORE_OBJ BUILD PY.

LINUX_DIR   := port/linux-rt
HIL_SRC     := $(wildcard hil/*.c)
HIL_HDR     := $(wildcard hil/*.h)
LINUX_HDR   := $(wildcard $(LINUX_DIR)/*.h) $(HIL_HDR) $(MODEL_HDR) $(wildcard rt/*.h) port/host/hs_mb_file.h
# hil/ is compiled with the host flags here; it has no OS calls, so the board build compiles
# the same files with its own flags. The port sources define _GNU_SOURCE themselves (CPU
# affinity, SO_RXQ_OVFL); everything else stays POSIX.1-2008.
CFLAGS_LINUX := $(CSTD) $(OPT) $(DBG) $(WARN) $(FPFLAGS) $(REALDEF) -D_POSIX_C_SOURCE=200809L \
                -Irt $(MODEL_INC) -Ihil -I$(LINUX_DIR) -Iport/host
LINUX_LIBS  := -lpthread -lm
DURATION    ?= 10
TRANSPORT   ?= udp
CAN_IF      ?= vcan0
# make run MODEL=car: the car braking under hilstep-ecu's ABS instead of the circular track's PI loop
MODEL       ?= circular_track

# The transports (hil/hs_transport.h): every hs_tp_*.c plus the registration table.
LINUX_TP    := $(wildcard $(LINUX_DIR)/hs_tp_*.c) $(LINUX_DIR)/hs_transports.c
LINUX_HDR   += port/host/hs_dbc_file.h

# hil/, the socket layer, the key loader and the transports compiled once (same flags) for
# the plant, the ECU and the test peer, instead of once per binary.
LINUX_OBJDIR := $(BUILD)/linux/obj
LINUX_BASE_OBJ := $(patsubst %.c,$(LINUX_OBJDIR)/%.o,$(LINUX_DIR)/hs_linux.c $(LINUX_DIR)/hs_key.c $(HIL_SRC))
LINUX_TP_OBJ := $(patsubst %.c,$(LINUX_OBJDIR)/%.o,$(LINUX_TP))
$(LINUX_OBJDIR)/%.o: %.c $(LINUX_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_LINUX) -c $< -o $@

# the plant's XCP slave over UDP and its A2L writer (hil/XCP.md): hilstep-rt's alone; the MDF4 log writer (hs_mdf.c)
LINUX_XCP_OBJ := $(LINUX_OBJDIR)/$(LINUX_DIR)/hs_xcp_port.o $(LINUX_OBJDIR)/$(LINUX_DIR)/hs_mdf.o
$(BUILD)/hilstep-rt: $(LINUX_DIR)/hilstep_rt.c $(LINUX_BASE_OBJ) $(LINUX_TP_OBJ) $(LINUX_XCP_OBJ) $(CORE_OBJ) $(LINUX_HDR)
	@mkdir -p $(BUILD)
	$(CC) $(CFLAGS_LINUX) $(LINUX_DIR)/hilstep_rt.c $(LINUX_BASE_OBJ) $(LINUX_TP_OBJ) $(LINUX_XCP_OBJ) $(CORE_OBJ) -o $@ $(LINUX_LIBS)

$(BUILD)/hilstep-ecu: $(LINUX_DIR)/hilstep_ecu.c $(LINUX_BASE_OBJ) $(LINUX_TP_OBJ) $(CORE_OBJ) $(LINUX_HDR)
	@mkdir -p $(BUILD)
	$(CC) $(CFLAGS_LINUX) $(LINUX_DIR)/hilstep_ecu.c $(LINUX_BASE_OBJ) $(LINUX_TP_OBJ) $(CORE_OBJ) -o $@ $(LINUX_LIBS)

# Test tools: hil/ unit tests (codec, validation, ring, histogram, maps) and the UDP test peer
# that plays a scripted ECU (bad-input storm, closed-loop checks).
$(BUILD)/hilstep-hil-unit: test/linux/hil_unit.c $(TEST_HARNESS) $(HIL_SRC) $(CORE_OBJ) $(LINUX_HDR)
	@mkdir -p $(BUILD)
	$(CC) $(CFLAGS_LINUX) -fsanitize=address,undefined -fno-sanitize-recover=all -Itest/unit \
	  test/linux/hil_unit.c test/unit/hs_test.c $(HIL_SRC) $(CORE_OBJ) -o $@ $(LINUX_LIBS)

$(BUILD)/hilstep-testpeer: test/linux/testpeer.c $(LINUX_BASE_OBJ) $(CORE_OBJ) $(LINUX_HDR)
	@mkdir -p $(BUILD)
	$(CC) $(CFLAGS_LINUX) test/linux/testpeer.c $(LINUX_BASE_OBJ) $(CORE_OBJ) -o $@ $(LINUX_LIBS)

.PHONY: linux-test rt-bench linux-build
linux-build: $(BUILD)/hilstep-rt $(BUILD)/hilstep-ecu $(BUILD)/hilstep-hil-unit $(BUILD)/hilstep-testpeer

TEST_SUITES += linux-test
linux-test: linux-build
	@sh test/linux/run_tests.sh $(BUILD)

# `make run` (top Makefile) installs the tools, then makes run-main.
RUN_DEFINED := 1
ifeq ($(TARGET),qemu)
run-main: qemu-run
else
run-main: $(BUILD)/hilstep-rt $(BUILD)/hilstep-ecu
	@TRANSPORT=$(TRANSPORT) CAN_IF=$(CAN_IF) MODEL=$(MODEL) sh $(LINUX_DIR)/run.sh $(BUILD) $(DURATION) $(BUDGET_US)
endif

rt-bench: $(BUILD)/hilstep-rt $(BUILD)/hilstep-ecu
	@sh test/linux/rt_bench.sh $(BUILD) $(DURATION)

# make run / make test install their tools before compiling; scratch files stay in build/.
.PHONY: setup-test
TEST_SUITES += setup-test
setup-test:
	@sh test/linux/setup_test.sh

# The Wireshark dissector (hil/hilstep.lua) checked against a live loopback capture.
.PHONY: wireshark-test
TEST_SUITES += wireshark-test
wireshark-test: $(BUILD)/hilstep-rt $(BUILD)/hilstep-ecu
	@sh test/linux/wireshark_test.sh $(BUILD)
