# test/misra/misra.mk - the MISRA C:2012 gate (issues 11, 16): `make misra` prints the per-rule
# table and writes it to test/misra/REPORT.md; `misra-test` (in make test) fails on any
# finding neither fixed nor deviated, and on a scoped record for a required rule.
# `make misra-fix` runs the mechanical fixer of the required rules (test/misra/fix_required.sh).
.PHONY: misra misra-test misra-fix
misra:
	@BUILD=$(BUILD) sh test/misra/misra.sh --table --write

TEST_SUITES += misra-test
misra-test:
	@BUILD=$(BUILD) sh test/misra/misra.sh

misra-fix:
	@BUILD=$(BUILD) sh test/misra/fix_required.sh
