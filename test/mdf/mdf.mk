# test/mdf/mdf.mk - hilstep-rt's MDF4 log (issue 36; hil/MDF.md): mdf-test runs hilstep-rt
# --log FILE.csv --log FILE.mf4 (complete, killed with SIGKILL, disk full, /dev/full) and reads
# the log back with test/mdf/mdf_reader.py, written from the ASAM MDF 4.1 standard (no code
# shared with port/linux-rt/hs_mdf.c), against the CSV bit for bit; and hilstep-plot on it.
.PHONY: mdf-test
TEST_SUITES += mdf-test
TEST_SERIAL += mdf-test
mdf-test: $(BUILD)/hilstep-rt $(BUILD)/hilstep-ecu $(BUILD)/hilstep-plot
	@sh test/mdf/run_tests.sh $(BUILD)
