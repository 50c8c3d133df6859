# test/misra/misra.mk - the MISRA C:2012 gate (issue 11): `make misra` prints the per-rule
# table, `misra-test` (in make test) fails on any finding neither fixed nor deviated.
.PHONY: misra misra-test
misra:
	@BUILD=$(BUILD) sh test/misra/misra.sh --table

TEST_SUITES += misra-test
misra-test:
	@BUILD=$(BUILD) sh test/misra/misra.sh
