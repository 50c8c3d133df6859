# port/cortex-m/cortex-m.mk - bare-metal firmware for QEMU's MPS2 boards and the QEMU test stage.
# Included by the top Makefile. Targets: firmware, qemu-test, qemu-run.
#   make firmware MODEL_FILE=path.hsm [PARAM="NAME=VALUE ..."]
#                                              the plant image of a description (hilstep-user.elf)
#   make qemu-run MODEL_FILE=path.hsm [T=10] [H=1e-3] [METHOD=..] [FORM=..] [STAB=..]
#                                              runs it on the M7 (QEMU mps2-an500) in real time
#   make qemu-run ... INPUTS=file.csv [INTERP=hold] [EXPECT_HASH=0x...]
#                                              replays an input CSV (hilstep-sim --inputs's
#                                              format) and ends with the verdict line
# The boards are the folders port/cortex-m/boards/*/ with a board.mk (README.md, "A new board"):
#   m7  : boards/mps2-an500, Cortex-M7, double precision (the primary board)
#   m4f : boards/mps2-an386, Cortex-M4F, the HS_REAL_FLOAT build
# Images land in build/cortex-m/<board>/: hilstep-demo.elf (qemu-run), hilstep-test.elf and
# hilstep-test-stop.elf (skip / stop overrun policy, test switches), hilstep-unit.elf.

CM_CC    ?= arm-none-eabi-gcc
CM_DIR   := $(BUILD)/cortex-m
CM_QEMU  ?= qemu-system-arm
# Each board.mk appends its name to CM_BOARDS and sets CM_ARCH_, CM_REAL_, CM_LDS_, CM_INC_,
# CM_SRC_ and CM_MACHINE_ of that name; nothing else in the build names a board.
CM_BOARDS :=
include $(sort $(wildcard port/cortex-m/boards/*/board.mk))
# The core's part of the link: the section layout every board's linker script (ld/BOARD.ld) INCLUDEs.
CM_LDSECT := ld/hs_sections.ld

# rt/ and model/ are built exactly as on the host (C99, no FP contraction) so the M7 trajectory
# is bit-identical to x86-64. -fstack-usage / -fcallgraph-info=su leave .su / .ci files next to
# every object: test/qemu/stack_bound.py turns them into a worst-case stack bound.
# -fno-short-enums: arm-none-eabi defaults to 1-byte enums, under which rt/'s range checks on
# enum values are "always true" (-Werror=type-limits) and struct layouts differ from the host.
# The plant application (hil/) is the same code hilstep-rt runs; the board sizes it for small
# models (HS_PLANT_MAX_*) and picks the model it runs by name (CM_MODEL, no name in the port).
CM_MODEL ?= car_axle
# A model named on the command line must exist (a registry model or a shipped description):
# refused here, before minutes of building, not by the board at run time.
ifeq ($(origin CM_MODEL),command line)
ifeq ($(shell grep -lE '^ *\.name = "$(CM_MODEL)",' $(MODEL_SRC) 2>/dev/null),)
$(error CM_MODEL=$(CM_MODEL): no model or shipped description of that name (model/*/*.c, model/mech/*.hsm); for a description of your own use MODEL_FILE=path.hsm)
endif
endif
# A description of one's own (MODEL_FILE=path.hsm): hilstep-mbgen turns it into C tables that
# the image hilstep-user.elf links (no source file edited); `firmware` then builds that image.
MODEL_FILE ?=
# The board `make qemu-run` (and `make firmware MODEL_FILE=...`) uses: m7 (default) or m4f,
# the float build.
QEMU_RUN_BOARD ?= m7
# The boards' description capacities (model/mb/hs_mb.h): smaller than the host's, so each generated
# model's static tables (hs_mb_model: 100,544 bytes on the host at these values) and the images'
# stack bound stay as they were; `make HS_MB_MAX_BODIES=N ...` overrides one for both builds.
CM_MB_DEFAULTS := HS_MB_MAX_BODIES=24 HS_MB_MAX_JOINTS=40 HS_MB_MAX_FORCES=40 HS_MB_MAX_OUTPUTS=24 \
                  HS_MB_MAX_NQ=96 HS_MB_MAX_NC=96 HS_MB_MAX_NIN=16 HS_MB_MAX_NZ=48 HS_MB_MAX_NOUT=64 \
                  HS_MB_MAX_SHAPES=24 HS_MB_MAX_CONTACTS=24 HS_MB_MAX_STOPS=8 HS_MB_MAX_CT=144
CM_MB_LIMITS := $(foreach d,$(CM_MB_DEFAULTS),-D$(firstword $(subst =, ,$(d)))=$(or $($(firstword $(subst =, ,$(d)))),$(lastword $(subst =, ,$(d)))))
# No debug information in the board objects (CM_DBG): no suite reads it (stack_bound.py reads
# the .su/.ci files and the relocations of code sections, the checks read nm and size, whose
# text, data and bss do not change with -g), and -g cost ~30 % of each compile's CPU;
# `make CM_DBG=-g` for a debugger (gcc's -g never changes the code).
CM_DBG ?= -g0
CM_CFLAGS := -std=c99 -O2 $(CM_DBG) -ffreestanding -nostdlib $(FPFLAGS) $(WARN) -fno-short-enums \
             -ffunction-sections -fdata-sections -fstack-usage -fcallgraph-info=su -Irt $(MODEL_INC) -Ihil -Iport/cortex-m -Iport/cortex-m/core \
             -DHS_PLANT_MAX_NQ=8 -DHS_PLANT_MAX_NC=8 -DHS_PLANT_MAX_NZ=12 $(CM_MB_LIMITS)
# The vehicles (model/vehicle/hs_veh.c on hs_tire.c, hs_tire_values.c, and the description's tire
# element model/elements/hs_mb_el_tire.c) are built with -O3 and a higher
# inline limit: the tire's small value-and-partials helpers are then inlined and their
# temporaries kept in registers (car 41k instead of 76k instructions per step, truck-trailer
# 121k instead of 193k: test/qemu/mech_tests.sh). Inlining changes no floating-point operation
# (no contraction), so the bits stay the host's. Every image links the vehicles (the
# plant runs `make qemu-run CM_MODEL=car`); HS_PLANT_MAX_NZ 12 holds the car's tread and brake
# states; the stack (ld/hs_sections.ld, 48 KiB) holds their static bound (test/qemu/stack_bound.py,
# 37 KB with the model layer's rooms counted: the bound of 16 KiB images had left model/ out).
CM_TIRE_FLAGS := -O3 -finline-limit=1000
# The dense step's path (factor, solve, the stepper's loops, sin/cos) and the hand-written car
# axle get the same flags: the car axle's default step on the M7 goes from 5,299 to 4,960
# instructions (QEMU -icount shift=0, hs_stepper_step, test/qemu/mech_tests.sh), same bits.
# Measured before the dense L D L^T was unrolled: 7,338 -> 6,040 (-O3 alone 6,178, the same
# with -O3 on all of rt/; -funroll-loops 6,578); the static stack bound of the test image
# (test/qemu/stack_bound.py) rose from 9,820 to 10,324 bytes of its 16 KiB.
CM_FAST_SRC := rt/hs_dense.c rt/hs_linsys_blk.c rt/hs_linsys_init.c rt/hs_linsys_num.c rt/hs_linsys_rs.c rt/hs_sdirk.c rt/hs_stepper.c rt/hs_math.c model/models/car_axle.c
CM_FAST_FLAGS := -O3 -finline-limit=1000
# The test sources print doubles of float results on purpose (as the host float build allows).
CM_TESTFLAGS := -Itest/unit -Wno-double-promotion
# libgcc is built with short enums; none of its helpers (soft double, division) takes an enum,
# so the ABI-tag mismatch it reports against our 32-bit-enum objects is harmless.
CM_LDFLAGS := -nostdlib -Lld -Wl,--gc-sections -Wl,--no-enum-size-warning
CM_HDRS := $(MODEL_HDR) $(wildcard rt/*.h hil/*.h port/cortex-m/*.h port/cortex-m/core/*.h \
           port/cortex-m/boards/*/*.h test/unit/*.h)
# hil/ objects the plant needs on the board (the ring and histogram are the Linux logger's).
CM_HIL_SRC := hil/hs_plant.c hil/hs_signal.c hil/hs_frame.c hil/hs_mac.c hil/hs_apps.c hil/hs_exit.c \
              hil/hs_transport.c

# The ARM core (port/cortex-m/core/): reset, vectors, faults, console formatting, semihosting,
# memory functions; the board adds CM_SRC_<board>. The SysTick frame (core/hs_tick.c) is linked
# by the images that run one, in one of its two overrun policies.
CM_PORT_SRC  := port/cortex-m/core/startup.S port/cortex-m/core/hs_core.c port/cortex-m/core/libc_min.c
CM_UNIT_SRC  := $(wildcard test/unit/*.c)

# $(1) = board
define CM_BOARD_RULES
CM_O_$(1) := $(CM_DIR)/$(1)/obj

$$(CM_O_$(1))/%.o: %.c $(CM_HDRS) $(CM_DIR)/cm_limits.txt
	@mkdir -p $$(dir $$@)
	$(CM_CC) $(CM_ARCH_$(1)) $(CM_REAL_$(1)) $(CM_CFLAGS) $(CM_INC_$(1)) $$(CM_EXTRA) $$(if $$(filter test/unit/% test/qemu/unit_main.c,$$<),$(CM_TESTFLAGS)) \
	  $$(if $$(filter model/vehicle/hs_tire.c model/vehicle/hs_tire_values.c model/vehicle/hs_veh.c model/elements/hs_mb_el_tire.c,$$<),$(CM_TIRE_FLAGS)) \
	  $$(if $$(filter $(CM_FAST_SRC),$$<),$(CM_FAST_FLAGS)) \
	  $$(if $$(filter %/libc_min.c,$$<),-fno-builtin -fno-tree-loop-distribute-patterns) -c $$< -o $$@

$$(CM_O_$(1))/%.o: %.S
	@mkdir -p $$(dir $$@)
	$(CM_CC) $(CM_ARCH_$(1)) -c $$< -o $$@

$$(CM_O_$(1))/port/cortex-m/core/hs_tick_stop.o: port/cortex-m/core/hs_tick.c $(CM_HDRS)
	@mkdir -p $$(dir $$@)
	$(CM_CC) $(CM_ARCH_$(1)) $(CM_REAL_$(1)) $(CM_CFLAGS) $(CM_INC_$(1)) -DHS_OVERRUN_POLICY_STOP -c $$< -o $$@

# Only the demo's main carries the build's model name (the objects every image shares do not,
# so naming another model never changes the test images); rebuilt when CM_MODEL changes.
$$(CM_O_$(1))/port/cortex-m/main_demo.o: $(CM_DIR)/cm_model.txt
$$(CM_O_$(1))/port/cortex-m/main_demo.o: CM_EXTRA := -DHS_BOARD_MODEL='"$(CM_MODEL)"'

CM_BASE_$(1) := $$(patsubst %,$$(CM_O_$(1))/%.o,$$(basename $(CM_PORT_SRC) $(CM_SRC_$(1)) $(filter-out $(HOST_ONLY_SRC),$(CORE_SRC))))
CM_APP_$(1)  := $$(CM_O_$(1))/port/cortex-m/hs_app.o $$(CM_O_$(1))/port/cortex-m/hs_replay.o $$(patsubst %.c,$$(CM_O_$(1))/%.o,$(CM_HIL_SRC))

# The input table of INPUTS, compiled for the board. The images with the demo main link it in
# images of their own (hilstep-demo-inputs.elf, hilstep-user-inputs.elf); hilstep-demo.elf and
# hilstep-user.elf link the empty table (hs_replay_none.c), so no build without INPUTS, nor
# any test image, ever changes with INPUTS.
$$(CM_O_$(1))/inputs/hs_inputs.o: $(CM_INPUTS_DIR)/hs_inputs.c $(CM_HDRS)
	@mkdir -p $$(dir $$@)
	$(CM_CC) $(CM_ARCH_$(1)) $(CM_REAL_$(1)) $(CM_CFLAGS) $(CM_INC_$(1)) -c $$< -o $$@

$(CM_DIR)/$(1)/hilstep-demo.elf: $$(CM_BASE_$(1)) $$(CM_APP_$(1)) $$(CM_O_$(1))/port/cortex-m/core/hs_tick.o $$(CM_O_$(1))/port/cortex-m/main_demo.o $$(CM_O_$(1))/port/cortex-m/hs_replay_none.o $(CM_LDS_$(1)) $(CM_LDSECT) | $(CM_DIR)/$(1)/qemu-machine
	$(CM_CC) $(CM_ARCH_$(1)) $(CM_LDFLAGS) -T $(CM_LDS_$(1)) -Wl,-Map=$$@.map $$(filter %.o,$$^) -lgcc -o $$@

$(CM_DIR)/$(1)/hilstep-demo-inputs.elf: $$(CM_BASE_$(1)) $$(CM_APP_$(1)) $$(CM_O_$(1))/port/cortex-m/core/hs_tick.o $$(CM_O_$(1))/port/cortex-m/main_demo.o $$(CM_O_$(1))/inputs/hs_inputs.o $(CM_LDS_$(1)) $(CM_LDSECT) | $(CM_DIR)/$(1)/qemu-machine
	$(CM_CC) $(CM_ARCH_$(1)) $(CM_LDFLAGS) -T $(CM_LDS_$(1)) -Wl,-Map=$$@.map $$(filter %.o,$$^) -lgcc -o $$@

$(CM_DIR)/$(1)/hilstep-test.elf: $$(CM_BASE_$(1)) $$(CM_APP_$(1)) $$(CM_O_$(1))/port/cortex-m/core/hs_tick.o $$(CM_O_$(1))/test/qemu/fw_test.o $(CM_LDS_$(1)) $(CM_LDSECT) | $(CM_DIR)/$(1)/qemu-machine
	$(CM_CC) $(CM_ARCH_$(1)) $(CM_LDFLAGS) -T $(CM_LDS_$(1)) -Wl,-Map=$$@.map $$(filter %.o,$$^) -lgcc -o $$@

$(CM_DIR)/$(1)/hilstep-test-stop.elf: $$(CM_BASE_$(1)) $$(CM_APP_$(1)) $$(CM_O_$(1))/port/cortex-m/core/hs_tick_stop.o $$(CM_O_$(1))/test/qemu/fw_test.o $(CM_LDS_$(1)) $(CM_LDSECT) | $(CM_DIR)/$(1)/qemu-machine
	$(CM_CC) $(CM_ARCH_$(1)) $(CM_LDFLAGS) -T $(CM_LDS_$(1)) -Wl,-Map=$$@.map $$(filter %.o,$$^) -lgcc -o $$@

# The unit tests keep big fixtures on the stack: 64 KiB instead of the application's 16 KiB.
$(CM_DIR)/$(1)/hilstep-unit.elf: $$(CM_BASE_$(1)) $$(patsubst %.c,$$(CM_O_$(1))/%.o,$(CM_UNIT_SRC)) $$(CM_O_$(1))/test/qemu/unit_main.o $(CM_LDS_$(1)) $(CM_LDSECT) | $(CM_DIR)/$(1)/qemu-machine
	$(CM_CC) $(CM_ARCH_$(1)) $(CM_LDFLAGS) -Wl,--defsym=HS_STACK_SIZE=0x10000 -T $(CM_LDS_$(1)) -Wl,-Map=$$@.map $$(filter %.o,$$^) -lgcc -o $$@

# The image of a user's description (MODEL_FILE): the demo main bound to the generated type;
# the plant and the shell are compiled with limits sized to the description (cm_user_limits).
CM_UO_$(1) := $(CM_DIR)/$(1)/user
$$(CM_UO_$(1))/%.o: %.c $(CM_HDRS) $(CM_USER_DIR)/hs_user_limits.h $(CM_DIR)/cm_limits.txt
	@mkdir -p $$(dir $$@)
	$(CM_CC) $(CM_ARCH_$(1)) $(CM_REAL_$(1)) $(CM_USER_CFLAGS) $(CM_INC_$(1)) -c $$< -o $$@
$$(CM_UO_$(1))/mb_user.o: $(CM_USER_DIR)/mb_user.c $(CM_HDRS) $(CM_DIR)/cm_limits.txt
	@mkdir -p $$(dir $$@)
	$(CM_CC) $(CM_ARCH_$(1)) $(CM_REAL_$(1)) $(CM_CFLAGS) $(CM_INC_$(1)) -c $$< -o $$@
CM_USER_OBJ_$(1) := $$(CM_BASE_$(1)) $$(patsubst %.c,$$(CM_UO_$(1))/%.o,port/cortex-m/hs_app.c port/cortex-m/hs_replay.c port/cortex-m/main_demo.c port/cortex-m/core/hs_tick.c $(CM_HIL_SRC)) $$(CM_UO_$(1))/mb_user.o
$(CM_DIR)/$(1)/hilstep-user.elf: $$(CM_USER_OBJ_$(1)) $$(CM_O_$(1))/port/cortex-m/hs_replay_none.o $(CM_LDS_$(1)) $(CM_LDSECT) | $(CM_DIR)/$(1)/qemu-machine
	$(CM_CC) $(CM_ARCH_$(1)) $(CM_LDFLAGS) -T $(CM_LDS_$(1)) -Wl,-Map=$$@.map $$(filter %.o,$$^) -lgcc -o $$@
$(CM_DIR)/$(1)/hilstep-user-inputs.elf: $$(CM_USER_OBJ_$(1)) $$(CM_O_$(1))/inputs/hs_inputs.o $(CM_LDS_$(1)) $(CM_LDSECT) | $(CM_DIR)/$(1)/qemu-machine
	$(CM_CC) $(CM_ARCH_$(1)) $(CM_LDFLAGS) -T $(CM_LDS_$(1)) -Wl,-Map=$$@.map $$(filter %.o,$$^) -lgcc -o $$@

CM_ELFS += $(CM_DIR)/$(1)/hilstep-demo.elf $(CM_DIR)/$(1)/hilstep-test.elf \
           $(CM_DIR)/$(1)/hilstep-test-stop.elf $(CM_DIR)/$(1)/hilstep-unit.elf

# The QEMU machine of the board's images, beside them: the suites' scripts read it there, so
# that no script names a board's machine (rewritten only when board.mk changes it).
$(CM_DIR)/$(1)/qemu-machine: $(CM_BOARD_DIR_$(1))/board.mk
	@mkdir -p $$(dir $$@)
	@echo "$(CM_MACHINE_$(1))" > $$@
endef

# ---- INPUTS=file.csv: the input CSV as a C table (port/cortex-m/inputs_table.py), INTERP=hold
# as hilstep-sim's --interp hold; the stamp holds the file, its interpolation and the limit,
# so a change of any of them regenerates the table. ----
INPUTS ?=
INTERP ?= linear
INPUTS_MAX_BYTES ?= 1048576
CM_INPUTS_DIR := $(CM_DIR)/inputs
ifneq ($(filter-out linear hold,$(INTERP)),)
$(error INTERP=$(INTERP): expected linear or hold, as hilstep-sim's --interp)
endif
.PHONY: cm-inputs-force
$(CM_INPUTS_DIR)/inputs_file.txt: cm-inputs-force
	@mkdir -p $(dir $@)
	@[ -z "$(INPUTS)" ] || [ -f "$(INPUTS)" ] || { echo "INPUTS=$(INPUTS): no such file"; exit 2; }
	@echo "$(if $(INPUTS),$(abspath $(INPUTS))) $(INTERP) $(INPUTS_MAX_BYTES)" | cmp -s - $@ || echo "$(if $(INPUTS),$(abspath $(INPUTS))) $(INTERP) $(INPUTS_MAX_BYTES)" > $@
$(CM_INPUTS_DIR)/hs_inputs.c: $(CM_INPUTS_DIR)/inputs_file.txt $(INPUTS) port/cortex-m/inputs_table.py
	@[ -n "$(INPUTS)" ] || { echo "INPUTS=file.csv is required for this image"; exit 2; }
	$(PY) port/cortex-m/inputs_table.py $(if $(filter hold,$(INTERP)),--hold) --max-bytes $(INPUTS_MAX_BYTES) $(INPUTS) $@.tmp || { rm -f $@.tmp; exit 2; }
	@mv $@.tmp $@

.PHONY: cm-model-force
$(CM_DIR)/cm_model.txt: cm-model-force
	@mkdir -p $(dir $@)
	@echo "$(CM_MODEL)" | cmp -s - $@ || echo "$(CM_MODEL)" > $@
# The model layer's capacities the objects were built with (CM_MB_LIMITS, overridable as
# `make HS_MB_MAX_BODIES=N ...`): a stamp rewritten only when they change, so changing one
# rebuilds the objects instead of linking ones built with the others.
$(CM_DIR)/cm_limits.txt: cm-model-force
	@mkdir -p $(dir $@)
	@echo "$(CM_MB_LIMITS)" | cmp -s - $@ || echo "$(CM_MB_LIMITS)" > $@

# ---- a user's description: MODEL_FILE -> build/cortex-m/user/mb_user.c ----
CM_USER_DIR := $(CM_DIR)/user
# The generated type is renamed hs_user_model_type, so a description that shares its name with
# a shipped one (model/gen/mb_NAME.c) links beside it.
CM_USER_CFLAGS := $(filter-out -DHS_PLANT_MAX_%,$(CM_CFLAGS)) -DHS_BOARD_USER_MODEL \
                  $(patsubst -DHS_PLANT_MAX_%,-DHS_PLANT_REG_MAX_%,$(filter -DHS_PLANT_MAX_%,$(CM_CFLAGS))) \
                  -include $(CM_USER_DIR)/hs_user_limits.h

# PARAM="NAME=VALUE ...": the description's params for this build (hilstep-mbgen --param).
PARAM ?=
# Which file and params: a stamp rewritten only when they change, so switching back to an
# older description regenerates the tables too.
.PHONY: cm-user-force
$(CM_USER_DIR)/model_file.txt: cm-user-force
	@mkdir -p $(dir $@)
	@[ -n "$(MODEL_FILE)" ] || { echo "MODEL_FILE=path.hsm is required for this image"; exit 2; }
	@[ -f "$(MODEL_FILE)" ] || { echo "MODEL_FILE=$(MODEL_FILE): no such file"; exit 2; }
	@echo "$(abspath $(MODEL_FILE)) $(PARAM)" | cmp -s - $@ || echo "$(abspath $(MODEL_FILE)) $(PARAM)" > $@

$(CM_USER_DIR)/mb_user.c: $(CM_USER_DIR)/model_file.txt $(MODEL_FILE) $(BUILD)/hilstep-mbgen
	$(BUILD)/hilstep-mbgen $(addprefix --param ,$(PARAM)) $(MODEL_FILE) > $@.tmp || { rm -f $@.tmp; exit 2; }
	sed 's/\bhs_mb_[A-Za-z0-9_]*_type\b/hs_user_model_type/' $@.tmp > $@ && rm -f $@.tmp

# The plant's limits (HS_PLANT_MAX_*) from the description's sizes (hilstep-mbgen --header), and the
# stepper arenas it needs (HS_PLANT_WS_*, hilstep-mbgen --workspace: beyond the dense bound for
# a description on the sparse backend, car.hsm).
$(CM_USER_DIR)/hs_user_limits.h: $(CM_USER_DIR)/model_file.txt $(MODEL_FILE) $(BUILD)/hilstep-mbgen
	$(BUILD)/hilstep-mbgen --header $(MODEL_FILE) > $@.tmp || { rm -f $@.tmp; exit 2; }
	awk '/define HS_MB_GEN_MAX_NQ/ { nq = $$3 } /define HS_MB_GEN_MAX_NC/ { nc = $$3 } /define HS_MB_GEN_MAX_NZ/ { nz = $$3 } \
	  END { if (nq == "" || nz == "") exit 1; printf "/* generated from %s */\n#define HS_PLANT_MAX_NQ %d\n#define HS_PLANT_MAX_NC %d\n#define HS_PLANT_MAX_NZ %d\n", \
	  "$(MODEL_FILE)", nq, (nc > 0 ? nc : 1), (nz > 2 ? nz : 2) }' $@.tmp > $@.lim && rm -f $@.tmp
	$(BUILD)/hilstep-mbgen $(addprefix --param ,$(PARAM)) --workspace $(MODEL_FILE) >> $@.lim || { rm -f $@.lim; exit 2; }
	mv $@.lim $@

$(foreach b,$(CM_BOARDS),$(eval $(call CM_BOARD_RULES,$(b))))

.PHONY: firmware qemu-test qemu-run
ifeq ($(MODEL_FILE),)
firmware: $(CM_ELFS)
else
# Only the user's image: seconds, not the minutes of every test image.
firmware: $(CM_DIR)/$(QEMU_RUN_BOARD)/hilstep-user.elf
	@echo "built $<: $(MODEL_FILE) on $(QEMU_RUN_BOARD); run it with make qemu-run MODEL_FILE=$(MODEL_FILE)"
endif
TEST_PREBUILD += firmware

# The float board is compared with the same simulator built for float on the host: x86-64
# SSE single precision and the M4F FPU give the same bits under -ffp-contract=off.
# Its rt/, model/ and hil/ objects are the float unit tests' (FLOAT_CORE, the top Makefile); it
# links hil/ for the map and output checks it shares with hilstep-rt.
FLOAT_HIL := $(call hs_objs,float/obj,$(wildcard hil/*.c))
$(CM_DIR)/host-float/hilstep-sim: port/host/sim_main.c $(FLOAT_CORE) $(FLOAT_HIL) $(MODEL_HDR) $(wildcard rt/*.h port/host/*.h hil/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(FLOAT_OFLAGS) port/host/sim_main.c $(FLOAT_CORE) $(FLOAT_HIL) -o $@ -lm

TEST_SUITES += qemu-test
# An image that fails to build fails its own tests (the script checks every image exists)
# instead of hiding the results of all the others.
qemu-test: $(BUILD)/hilstep-sim $(CM_DIR)/host-float/hilstep-sim
	-@$(MAKE) --no-print-directory -s -k -j2 firmware
	@sh test/qemu/run_tests.sh $(CM_DIR) $(BUILD)/hilstep-sim $(CM_DIR)/host-float/hilstep-sim

# A description of one's own on the M7 with one command each (firmware, qemu-run), checked
# against hilstep-sim's hash of the same file.
TEST_SUITES += qemu-user-test
QEMU_USER_FILES ?= model/mech/door.hsm
qemu-user-test: $(BUILD)/hilstep-sim $(BUILD)/hilstep-mbgen
	@sh test/qemu/user_test.sh $(BUILD)/hilstep-sim $(QEMU_USER_FILES)

# Real time with exact costs: -icount shift=0 makes one guest instruction one ns, so the step
# cost the banner prints is in instructions; sleep=on lets guest time follow the host's clock
# while the board waits for its next tick (WFI), so the frames come at the real rate.
# T: seconds of guest time (QEMU_RUN_SECONDS, or DURATION, the linux run's knob); H: step and
# frame period in seconds, a whole number of microseconds; METHOD/FORM/STAB: as hilstep-sim's
# --method/--form/--stab (default: the library's). The banner prints what runs.
QEMU_RUN_SECONDS ?= $(if $(T),$(T),$(if $(DURATION),$(DURATION),10))
# The demo image also takes the model by name at run time: QEMU_RUN_MODEL (default CM_MODEL,
# the build's) names a registry model or a shipped description without relinking anything.
QEMU_RUN_MODEL ?= $(CM_MODEL)
# EXPECT_HASH=0x...: the trajectory hash the run must give (hilstep-sim --hash's for the same
# model, inputs, method and h); the verdict fails (exit 7) when the board's differs.
EXPECT_HASH ?=
QEMU_RUN_ARGS := $(QEMU_RUN_SECONDS)$(if $(MODEL_FILE),, $(QEMU_RUN_MODEL))$(if $(H), h=$(H))$(if $(METHOD), method=$(METHOD))$(if $(FORM), form=$(FORM))$(if $(STAB), stab=$(STAB))$(if $(EXPECT_HASH), expect=$(EXPECT_HASH))
QEMU_RUN_IMAGE := $(CM_DIR)/$(QEMU_RUN_BOARD)/$(if $(MODEL_FILE),hilstep-user,hilstep-demo)$(if $(INPUTS),-inputs).elf
qemu-run: $(QEMU_RUN_IMAGE)
	timeout $$(( $(firstword $(subst ., ,$(QEMU_RUN_SECONDS))) * 2 + 30 )) $(CM_QEMU) -M $(CM_MACHINE_$(QEMU_RUN_BOARD)) -display none -monitor none \
	  -serial stdio -semihosting-config enable=on,target=native -icount shift=0,sleep=on -kernel $< -append "$(QEMU_RUN_ARGS)"
