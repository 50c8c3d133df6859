# sparse.mk - the sparse linear-system backend's build hooks (issue 9).
# The unit binaries count the factorization's inner iterations so test_sparse can check that
# every factorization runs exactly the operation count the analysis fixed.
$(BUILD)/hilstep-unit $(BUILD)/asan/hilstep-unit $(BUILD)/float/hilstep-unit: CFLAGS_HOST += -DHS_SPARSE_TALLY

# build/hilstep-spbench: cost and [L2] data of the sparse path (see test/sparse/sp_bench.c)
$(BUILD)/hilstep-spbench: test/sparse/sp_bench.c $(CORE_OBJ)
	@mkdir -p $(BUILD)
	$(CC) $(CFLAGS_HOST) test/sparse/sp_bench.c $(CORE_OBJ) -o $@ -lm

.PHONY: bench-sparse
# Instructions per step (callgrind, (Ir(1100) - Ir(100)) / 1000) of the chain (n = 8..128) and
# the ladder (n = 5..100), default configuration and spook, with the log-log slopes.
bench-sparse: $(BUILD)/hilstep-spbench
	@sh test/sparse/bench_sparse.sh $(BUILD)/hilstep-spbench

# ---- the sparse path on the Cortex-M7 board (QEMU mps2-an500) ----
ifdef CM_BASE_m7
$(CM_DIR)/m7/hilstep-sparse.elf: $(CM_BASE_m7) $(CM_O_m7)/test/sparse/sp_fw.o $(CM_LDS_m7) $(CM_LDSECT) | $(CM_DIR)/m7/qemu-machine
	$(CM_CC) $(CM_ARCH_m7) $(CM_LDFLAGS) -T $(CM_LDS_m7) $(filter %.o,$^) -lgcc -o $@

.PHONY: qemu-sparse-test
# Chain n = 32 and ladder n = 20, default configuration and spook, on the M7 under QEMU:
# instructions per step (every step timed), max/min, the trajectory hash against the host's.
qemu-sparse-test: $(CM_DIR)/m7/hilstep-sparse.elf $(BUILD)/hilstep-spbench
	@sh test/sparse/qemu_sparse.sh $(CM_DIR)/m7/hilstep-sparse.elf $(BUILD)/hilstep-spbench
TEST_SUITES += qemu-sparse-test
endif

.PHONY: figures-l2
# [L2]'s ladder figures (stability at h = 1/60 and 1/20, Figs. 4-7) into build/figures/l2.
figures-l2: $(BUILD)/hilstep-spbench
	$(PY) test/sparse/l2_ladder.py --bench $(BUILD)/hilstep-spbench --out $(BUILD)/figures/l2
figures: figures-l2
