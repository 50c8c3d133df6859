# test/qemu/mech.mk - every shipped multibody description on the boards (issue 10): the
# generated tables (make mb-gen), the QEMU image that runs one of them and counts instructions
# per step (hilstep-mech.elf), its suite (qemu-mech-test) and the board columns of make bench.
# Included by the top Makefile after port/cortex-m/cortex-m.mk (uses its per-board variables).

# ---- make mb-gen: model/gen/mb_NAME.c, model/gen/mb_gen.h, model/gen/mb_gen.c from model/mech/*.hsm ----
# The generated C is committed (not generated into build/): the firmware then builds with the
# cross compiler alone, every gate that reads model/*/*.c (lint, cppcheck, MISRA, the fuzzers,
# the unit tests on both boards) sees the code the boards run, and a description change shows
# up as a reviewed diff of the tables. make mb-test fails when a committed file is not what
# the generator writes now (test/mb/test_mb_gen.c), so host and board cannot drift apart.
# The vehicles on TMeasy tires (model/mech/vehicles, auxiliary states) are generated too; their
# tire element is real only in hilstep-mech.elf (the other images build it -DHS_NO_VEHICLES).
MB_HSM := $(sort $(wildcard model/mech/*.hsm model/mech/vehicles/*.hsm))
.PHONY: mb-gen
mb-gen: $(BUILD)/hilstep-mbgen
	@sh test/mb/mb_gen.sh $(BUILD)/hilstep-mbgen model/gen $(MB_HSM)

# ---- the image: build/cortex-m/<board>/hilstep-mech.elf ----
# Uses CM_BASE_<board> (the core, the board, rt/, model/) and the SysTick frame shell; no plant.
# 32 KiB of stack: mech_main keeps its sizing scratch (hs_stepper_workspace_tmp) on the stack.
# The tire element (model/elements/hs_mb_el_tire.c) once more without -DHS_NO_VEHICLES, in place of the
# stub the other images link: car.hsm's generated tables run on it here.
define MECH_BOARD_RULES
$$(CM_O_$(1))/mech/hs_mb_el_tire.o: model/elements/hs_mb_el_tire.c $(CM_HDRS)
	@mkdir -p $$(dir $$@)
	$(CM_CC) $(CM_ARCH_$(1)) $(CM_REAL_$(1)) $(filter-out -DHS_NO_VEHICLES,$(CM_CFLAGS)) $(CM_TIRE_FLAGS) -c $$< -o $$@
$(CM_DIR)/$(1)/hilstep-mech.elf: $$(filter-out %/model/elements/hs_mb_el_tire.o,$$(CM_BASE_$(1))) $$(CM_O_$(1))/mech/hs_mb_el_tire.o $$(CM_O_$(1))/port/cortex-m/core/hs_tick.o $$(CM_O_$(1))/test/qemu/mech_main.o $(CM_LDS_$(1)) $(CM_LDSECT) | $(CM_DIR)/$(1)/qemu-machine
	$(CM_CC) $(CM_ARCH_$(1)) $(CM_LDFLAGS) -Wl,--defsym=HS_STACK_SIZE=0x8000 -T $(CM_LDS_$(1)) -Wl,-Map=$$@.map $$(filter %.o,$$^) -lgcc -o $$@
MECH_ELFS += $(CM_DIR)/$(1)/hilstep-mech.elf
endef
$(foreach b,$(CM_BOARDS),$(eval $(call MECH_BOARD_RULES,$(b))))

.PHONY: mech-firmware qemu-mech-test
mech-firmware: $(MECH_ELFS)
ifeq ($(MODEL_FILE),)
firmware: $(MECH_ELFS)
endif

# ---- the suite: every description x {default, j2} x {m7, m4f}: hash = host's, cost, arena ----
TEST_SUITES += qemu-mech-test
qemu-mech-test: $(BUILD)/hilstep-sim $(CM_DIR)/host-float/hilstep-sim
	-@$(MAKE) --no-print-directory -s -k -j2 mech-firmware
	@sh test/qemu/mech_tests.sh $(CM_DIR) $(BUILD)/hilstep-sim $(CM_DIR)/host-float/hilstep-sim

# ---- make bench's multibody table (test/mb/mb_bench.sh) needs the images; the table is part
# of test/bench/MEASUREMENTS.md, which `make bench` writes (mb-bench-readme: the same) ----
mb-bench: mech-firmware $(CM_DIR)/host-float/hilstep-sim
.PHONY: mb-bench-readme
mb-bench-readme: bench

# ---- make bench: the descriptions against their hand-written twins on the boards (qemu-mech's
# twin runs again, a few seconds, into CM_DIR/qemu-mech-twins: test/qemu/mech_twins.sh) ----
.PHONY: mech-twins
mech-twins: mech-firmware $(BUILD)/hilstep-sim $(CM_DIR)/host-float/hilstep-sim
	@sh test/qemu/mech_twins.sh $(CM_DIR) $(BUILD)/hilstep-sim $(CM_DIR)/host-float/hilstep-sim
bench-run: mech-twins
