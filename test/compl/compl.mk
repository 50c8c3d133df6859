# test/compl/compl.mk - compliant, redundant and nonholonomic constraints (model/COMPLIANCE.md):
# analytic static deflection c F, the rolling disk's slip and energy, the spatial four-bar
# with every regularized method, the singular slider crank, and the regularized-stepper
# paper's statements about its examples, and compliance and spook's epsilon and tau from
# hilstep-rt's CLI as from hilstep-sim's (test/compl/compl_test.py, about 40 s).
compliance-test: $(BUILD)/hilstep-sim $(BUILD)/hilstep-rt
	@/usr/bin/python3 test/compl/compl_test.py $(BUILD)/hilstep-sim $(BUILD)/hilstep-rt

TEST_SUITES += compliance-test
.PHONY: compliance-test
