# sparse.mk - the sparse linear-system backend's build hooks (issue 9).
# The unit binaries count the factorization's inner iterations so test_sparse can check that
# every factorization runs exactly the operation count the analysis fixed.
$(BUILD)/hilstep-unit $(BUILD)/asan/hilstep-unit $(BUILD)/float/hilstep-unit: CFLAGS_HOST += -DHS_SPARSE_TALLY

# build/hilstep-spbench: cost and seed 000 data of the sparse path (see test/sparse/sp_bench.c)
$(BUILD)/hilstep-spbench: test/sparse/sp_bench.c $(CORE_OBJ)
	@mkdir -p $(BUILD)
	$(CC) $(CFLAGS_HOST) test/sparse/sp_bench.c $(CORE_OBJ) -o $@ -lm

.PHONY: bench-sparse
# Instructions per step (callgrind, (Ir(1100) - Ir(100)) / 1000) of the chain (n = 8..128) and
# the ladder (n = 5..100), default configuration and spook, with the log-log slopes.
bench-sparse: $(BUILD)/hilstep-spbench
	@sh test/sparse/bench_sparse.sh $(BUILD)/hilstep-spbench
