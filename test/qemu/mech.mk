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
# The vehicles on TMeasy tires (model/mech/vehicles, auxiliary states) are generated too; every
# image links their tire element (model/elements/hs_mb_el_tire.c, CM_TIRE_FLAGS).
MB_HSM := $(sort $(wildcard model/mech/*.hsm model/mech/vehicles/*.hsm))
.PHONY: mb-gen
mb-gen: $(BUILD)/hilstep-mbgen
	@sh test/mb/mb_gen.sh $(BUILD)/hilstep-mbgen model/gen $(MB_HSM)

# ---- the image: build/cortex-m/<board>/hilstep-mech.elf ----
# Uses CM_BASE_<board> (the core, the board, rt/, model/) and the SysTick frame shell; no plant.
# The stack of every image (ld/hs_sections.ld, 48 KiB: the static bound with the vehicles).
define MECH_BOARD_RULES
$(CM_DIR)/$(1)/hilstep-mech.elf: $$(CM_BASE_$(1)) $$(CM_O_$(1))/port/cortex-m/core/hs_tick.o $$(CM_O_$(1))/test/qemu/mech_main.o $(CM_LDS_$(1)) $(CM_LDSECT) | $(CM_DIR)/$(1)/qemu-machine
	$(CM_CC) $(CM_ARCH_$(1)) $(CM_LDFLAGS) -T $(CM_LDS_$(1)) -Wl,-Map=$$@.map $$(filter %.o,$$^) -lgcc -o $$@
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
