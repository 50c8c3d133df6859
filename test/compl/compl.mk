# test/compl/compl.mk - compliant, redundant and nonholonomic constraints (model/COMPLIANCE.md):
# analytic static deflection c F, the rolling disk's slip and energy, the spatial four-bar
# with every regularized method, the singular slider crank, and the regularized-stepper
# paper's statements about its examples (test/compl/compl_test.py, about 30 s).
compliance-test: $(BUILD)/hilstep-sim
	@/usr/bin/python3 test/compl/compl_test.py $(BUILD)/hilstep-sim

TEST_SUITES += compliance-test
.PHONY: compliance-test
