# test/soak/soak.mk - the methods' measured bars (build/hilstep-method-bars), `make soak` (10^8 steps of
# car_axle and circular_track with the library default; not in `make test`, ~minutes per model)
# and `soak-test` (10^6 steps of each, part of `make test`; 1000 s is then a single window, so
# soak-test compares 100 s windows: ten of them).
$(BUILD)/hilstep-method-bars: test/soak/method_bars.c $(CORE_OBJ)
	$(CC) $(CFLAGS_HOST) test/soak/method_bars.c $(CORE_OBJ) -o $@ -lm

.PHONY: soak soak-test method-bars
SOAK_STEPS ?= 100000000
soak: $(BUILD)/hilstep-method-bars
	@$(BUILD)/hilstep-method-bars soak car_axle $(SOAK_STEPS) & p1=$$!; \
	 $(BUILD)/hilstep-method-bars soak circular_track $(SOAK_STEPS); r2=$$?; wait $$p1; r1=$$?; \
	 [ $$r1 -eq 0 ] && [ $$r2 -eq 0 ]

soak-test: $(BUILD)/hilstep-method-bars
	@pass=0; fail=0; \
	 for m in car_axle circular_track; do \
	   if $(BUILD)/hilstep-method-bars soak $$m 1000000 100 | tail -1 | grep -q PASS; then pass=$$((pass+1)); \
	   else fail=$$((fail+1)); echo "  FAIL soak $$m 1e6 steps"; fi; \
	 done; \
	 echo "soak-test: $$pass passed, $$fail failed"; [ $$fail -eq 0 ]

# Every bar of issue 8 in one go (minutes; the README section quotes its output).
method-bars: $(BUILD)/hilstep-method-bars
	-$(BUILD)/hilstep-method-bars accuracy
	-$(BUILD)/hilstep-method-bars stiff
	-$(BUILD)/hilstep-method-bars pendulum
	-$(BUILD)/hilstep-method-bars chain 32

# The bars of issue 8 on every `make test` (about 10 s): accuracy at 1 ms + order, the
# stiffness sweep, the pendulum at 1/60 and the chain n = 1..32 (exit 1 when a bar fails).
.PHONY: method-bars-test
method-bars-test: $(BUILD)/hilstep-method-bars
	@pass=0; fail=0; \
	 for c in accuracy stiff pendulum "chain 32"; do \
	   if $(BUILD)/hilstep-method-bars $$c > $(BUILD)/method-bars-$${c%% *}.log 2>&1; then pass=$$((pass+1)); \
	   else fail=$$((fail+1)); echo "  FAIL hilstep-method-bars $$c"; tail -n 3 $(BUILD)/method-bars-$${c%% *}.log; fi; \
	 done; \
	 grep -h "bar 2.6e-4" $(BUILD)/method-bars-accuracy.log; \
	 echo "bars: $$pass passed, $$fail failed"; [ $$fail -eq 0 ]

TEST_SUITES += soak-test method-bars-test

# The energy figure (part of `make figures`): energy against time per method, chain n = 8 and
# the car axle over 10^4 s (a few minutes: 10^7 car axle steps per method).
.PHONY: figures-energy
figures-energy: $(BUILD)/hilstep-method-bars $(BUILD)/hilstep-sim
	/usr/bin/python3 test/soak/energy_fig.py --bin $(BUILD)/hilstep-method-bars --out $(BUILD)/figures
figures: figures-energy

# The shipped models x methods x h in {1/20, 1/60, 1e-2, 1e-3} table of rt/METHODS.md (issue 20
# item 1): `methods-table-test` (in make test, ~40 s on 2 cores) fails on any non-finite step
# and on any mid-run refusal of the default; `make methods-table` rewrites the table in
# rt/METHODS.md from the same runs.
.PHONY: methods-table methods-table-test
methods-table-test: $(BUILD)/hilstep-sim
	@/usr/bin/python3 test/soak/method_table.py $(BUILD)/hilstep-sim --md $(BUILD)/methods_table.md --glob-check off
methods-table: $(BUILD)/hilstep-sim
	@/usr/bin/python3 test/soak/method_table.py $(BUILD)/hilstep-sim --into rt/METHODS.md
TEST_SUITES += methods-table-test

# rt/METHODS.md's method table from the stepper's (hilstep-sim --methods); sim-test checks it.
.PHONY: methods-doc
methods-doc: $(BUILD)/hilstep-sim
	@$(BUILD)/hilstep-sim --methods > $(BUILD)/methods.md && \
	 /usr/bin/python3 -c 'import sys; d = open("rt/METHODS.md").read(); a = d.index("\n", d.index("<!-- methods-table")) + 1; b = d.index("<!-- /methods-table -->"); open("rt/METHODS.md", "w").write(d[:a] + open(sys.argv[1]).read() + d[b:])' $(BUILD)/methods.md

# Long-run energy and momentum (rt/METHODS.md "Long runs"): the chain of 8 rods and the free
# rigid body (two spin rates) with `--method auto` and with the default, h = 1 ms.
# `energy-trend-test` (make test, 100 s each, about 30 s): bars on the auto runs (max |dE| over
# every step <= 1 % of the scale, drift extrapolated to 10^4 s <= 1 %, angular momentum
# <= 1e-6 relative). `make energy-soak` (not in make test: 10^7 steps per run, about 20
# minutes) is the same over 10^4 s; its table goes to build/energy_soak.md and into
# rt/METHODS.md (README quotes it).
.PHONY: energy-soak energy-trend-test
energy-trend-test: $(BUILD)/hilstep-sim
	@/usr/bin/python3 test/soak/energy_soak.py $(BUILD)/hilstep-sim --t 100 --md $(BUILD)/energy_trend.md --name energy-trend
energy-soak: $(BUILD)/hilstep-sim
	@/usr/bin/python3 test/soak/energy_soak.py $(BUILD)/hilstep-sim --t 10000 --md $(BUILD)/energy_soak.md --into rt/METHODS.md
TEST_SUITES += energy-trend-test

# Why the default drifts (rt/METHODS.md "Long runs: why the default drifts"): the chain of 8
# rods over 200 s at h = 2, 1, 0.5 ms, the shipped sdirk against a build solving each stage to
# round-off (HS_SD_NEWTON=3), with and without the projection; its table goes into
# rt/METHODS.md. Not in make test (~2 minutes).
$(BUILD)/sdnewton3/hilstep-sim: port/host/sim_main.c $(CORE_SRC) $(MODEL_HDR) $(wildcard rt/*.h port/host/*.h hil/*.h hil/*.c)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_HOST) -DHS_SD_NEWTON=3 port/host/sim_main.c $(wildcard hil/*.c) $(CORE_SRC) -o $@ -lm
.PHONY: sdirk-drift
sdirk-drift: $(BUILD)/hilstep-sim $(BUILD)/sdnewton3/hilstep-sim
	@/usr/bin/python3 test/soak/sdirk_drift.py $(BUILD)/hilstep-sim $(BUILD)/sdnewton3/hilstep-sim --into rt/METHODS.md
