# sparse.mk - the sparse linear-system backend's build hooks (issue 9).
# The unit binaries count the factorization's inner iterations so test_sparse can check that
# every factorization runs exactly the operation count the analysis fixed.
$(BUILD)/hilstep-unit $(BUILD)/asan/hilstep-unit $(BUILD)/float/hilstep-unit: CFLAGS_HOST += -DHS_SPARSE_TALLY
