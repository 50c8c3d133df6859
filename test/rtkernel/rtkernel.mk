# test/rtkernel/rtkernel.mk - make rtkernel-test: hilstep-rt on Debian's PREEMPT_RT kernel,
# booted under qemu-system-x86_64 (KVM when it works, else TCG) with an initramfs built at test
# time under build/rtkernel/ (test/rtkernel/README.md). make rtkernel-shell boots the same
# guest with a shell on the terminal. Included by the top Makefile after port/linux-rt/linux-rt.mk.
RTKERNEL_BINS := $(BUILD)/hilstep-rt $(BUILD)/hilstep-ecu $(BUILD)/hilstep-sim $(BUILD)/hilstep-can-spoof

.PHONY: rtkernel-test rtkernel-shell
TEST_SUITES += rtkernel-test
rtkernel-test: $(RTKERNEL_BINS)
	@sh test/rtkernel/run.sh $(BUILD)

rtkernel-shell: $(RTKERNEL_BINS)
	@sh test/rtkernel/run.sh $(BUILD) shell

# make rtkernel-run: the user's plant on a CAN bus in the same guest, the user's ECU on the host
# (test/rtkernel/user_run.sh; README "Connecting an ECU over CAN"). Default: the quarter car,
# its DBC and the README's python-can ECU. MODEL=name (a registry model) instead of
# MODEL_FILE needs DBC (default hil/dbc/NAME.dbc) and ECU. Results: build/rtkernel-run/.
# The ECU command reaches the script through the environment (make exports command-line
# variables), so quotes in it stay the user's.
RUN_ECU_DEFAULT := $(if $(filter command line,$(origin MODEL)),,/usr/bin/python3 test/rtkernel/ecu_can_example.py)
RUN_DBC_DEFAULT := $(if $(filter command line,$(origin MODEL)),hil/dbc/$(MODEL).dbc,hil/dbc/mech/quarter_car.dbc)
.PHONY: rtkernel-run
rtkernel-run: $(RTKERNEL_BINS)
	@RUN_MODEL_FILE="$(if $(filter command line,$(origin MODEL)),$(MODEL_FILE),$(or $(MODEL_FILE),model/mech/quarter_car.hsm))" \
	  RUN_MODEL="$(MODEL)" RUN_DBC="$(or $(DBC),$(RUN_DBC_DEFAULT))" \
	  RUN_ECU="$${ECU:-$(RUN_ECU_DEFAULT)}" \
	  RUN_DURATION="$(if $(filter command line environment,$(origin DURATION)),$(DURATION),6)" RUN_PERIOD_US="$(or $(PERIOD_US),10000)" \
	  RUN_BUDGET_US="$(or $(BUDGET_US),1000000)" RUN_PARAM="$(PARAM)" RUN_HOLD_S="$(HOLD_S)" RUN_PLANT_OPTS="$(PLANT_OPTS)" \
	  RUN_SECOC_KEY="$(SECOC_KEY)" sh test/rtkernel/user_run.sh $(BUILD)

# The README's python-can ECU through rtkernel-run's path, judged (test/rtkernel/ecu_test.sh).
.PHONY: rtkernel-ecu-test
TEST_SUITES += rtkernel-ecu-test
rtkernel-ecu-test: $(RTKERNEL_BINS)
	@sh test/rtkernel/ecu_test.sh $(BUILD)
