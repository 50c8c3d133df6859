# test/err/err.mk - the error estimate (rt/METHODS.md "The error estimate"): err_est against
# the true local error (hilstep-sim --err-check 16) on the shipped models, every method and
# h = 0.5, 1, 2 ms; the default --tol flags spook on the rigid slider crank at 1/20 s
# (test/err/calib.py). `make err-table` writes the full table to test/err/TABLE.md.
err-test: $(BUILD)/hilstep-sim
	@$(PY) test/err/calib.py $(BUILD)

err-table: $(BUILD)/hilstep-sim
	@$(PY) test/err/calib.py $(BUILD) --table > test/err/TABLE.md

TEST_SUITES += err-test
.PHONY: err-test err-table

# The IFToMM benchmarks (model/mech/iftomm/README.md): error against the reduced-coordinate
# reference and instructions per step, every method, h = 0.5, 1, 2 ms; the full table into
# model/mech/iftomm/RESULTS.md, then README's rows (sdirk, em, spook at 1 ms).
$(BUILD)/iftomm-ref: test/iftomm/ref.c
	@mkdir -p $(BUILD)
	$(CC) -std=c99 -O2 -Wall -Wextra -Werror test/iftomm/ref.c -o $@ -lm

$(BUILD)/iftomm-a03-ref: test/iftomm/a03_ref.c
	@mkdir -p $(BUILD)
	$(CC) -std=c99 -O2 -Wall -Wextra -Werror test/iftomm/a03_ref.c -o $@ -lm

$(BUILD)/iftomm-a05-ref: test/iftomm/a05_ref.c
	@mkdir -p $(BUILD)
	$(CC) -std=c99 -O2 -Wall -Wextra -Werror test/iftomm/a05_ref.c -o $@ -lm

bench-iftomm: $(BUILD)/hilstep-sim $(BUILD)/iftomm-ref $(BUILD)/iftomm-a03-ref $(BUILD)/iftomm-a05-ref
	@$(PY) test/iftomm/bench.py $(BUILD) --out model/mech/iftomm/RESULTS.md --short

# the IFToMM check (test/iftomm/check.py): A03's reference against the IVP test set's published
# solution, its description against the reference, and the default tolerance's verdicts on
# the benchmark runs whose error is known (flagged when wrong, not when right)
iftomm-test: $(BUILD)/hilstep-sim $(BUILD)/iftomm-ref $(BUILD)/iftomm-a03-ref $(BUILD)/iftomm-a05-ref
	@$(PY) test/iftomm/check.py $(BUILD)

TEST_SUITES += iftomm-test
.PHONY: bench-iftomm iftomm-test

# A04, Bricard's mechanism: its reference (test/iftomm/a04_ref.c, one coordinate, RK4) over the
# benchmark's 10 s at 200 outputs, cached at 2 ms and at 4 ms (the check compares the two)
$(BUILD)/iftomm-a04-ref: test/iftomm/a04_ref.c
	@mkdir -p $(BUILD)
	$(CC) -std=c99 -O2 -Wall -Wextra -Werror test/iftomm/a04_ref.c -o $@ -lm

$(BUILD)/iftomm-a04-ref.txt: $(BUILD)/iftomm-a04-ref
	$< 10 200 2e-3 > $@.tmp && mv $@.tmp $@

$(BUILD)/iftomm-a04-ref-2h.txt: $(BUILD)/iftomm-a04-ref
	$< 10 200 4e-3 > $@.tmp && mv $@.tmp $@

iftomm-test bench-iftomm: $(BUILD)/iftomm-a04-ref.txt $(BUILD)/iftomm-a04-ref-2h.txt
