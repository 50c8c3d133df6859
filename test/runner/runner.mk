# test/runner/runner.mk - runner-test: test/run_suites.sh (make test's runner) on a scratch
# Makefile of fake suites: the start and end lines as they happen, blocks kept whole, the
# totals, failures without a result line, early suites beside the build. Part of make check.
.PHONY: runner-test
TEST_SUITES += runner-test
CHECK_SUITES += runner-test
runner-test:
	@sh test/runner/runner_test.sh
