# The default method's range checks on a grid (rt/METHODS.md "Where a method stops"): every
# shipped model at h = 0.5, 1, 2, 4 ms, checked against a build without the rotation check
# (-DHS_SD_MAX_HW=1e30, run with --max-h-omega 0); false positives and negatives counted into
# build/range_grid.md, which rt/METHODS.md carries. Not in make test (about a minute).
$(BUILD)/nohw/hilstep-sim: port/host/sim_main.c $(CORE_SRC) $(MODEL_HDR) $(wildcard rt/*.h port/host/*.h hil/*.h hil/*.c)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_HOST) -DHS_SD_MAX_HW=1e30 port/host/sim_main.c $(wildcard hil/*.c) $(CORE_SRC) -o $@ -lm
.PHONY: range-grid
range-grid: $(BUILD)/hilstep-sim $(BUILD)/nohw/hilstep-sim
	@$(PY) test/range/range_grid.py $(BUILD)/hilstep-sim $(BUILD)/nohw/hilstep-sim $(BUILD)/range_grid.md
