# test/tire/tire.mk - the tire element's suite (issue 18): exact derivatives against central
# differences, lift-off, the low-speed behaviour of one wheel (rest, 10 % slope with brakes,
# braking to a stop, start from rest), and TMeasy's steady-state curves against an independent
# implementation of Rill's formulas (test/tire/tmeasy_ref.py, 1e-9 relative), and the car
# description through hilstep-sim: rest, 10 % grade with brakes, braking to a stop (car_test.py);
# the multibody tire element against hs_tire.c and differences (tire_mb.c) and the same runs of
# model/mech/vehicles/car.hsm with load transfer (car_hsm_test.py); the 4WD launch at 1500 N m
# per wheel, dry and on ice, on both cars and one wheel alone (spin_test.py, issue 32 item 5).
# The truck-trailer descriptions (model/mech/vehicles/large/) against hs_veh.c's models through
# the lane change's first 0.8 s (tt_hsm_test.py, about 2 s of CPU).
# The manoeuvres under hil/hs_vdc.c's ABS and ESC through hilstep-vdc (vdc_test.py: FMVSS 126,
# mu-split).
TIRE_TEST_OBJ := $(addprefix $(BUILD)/obj/,model/vehicle/hs_tire.o model/vehicle/hs_tire_values.o model/vehicle/hs_veh.o rt/hs_math.o rt/hs_model.o)
$(BUILD)/hilstep-tiretest: test/tire/tire_main.c $(TEST_HARNESS) $(TIRE_TEST_OBJ) model/vehicle/hs_tire.h model/vehicle/hs_veh.h rt/hs_types.h
	@mkdir -p $(BUILD)
	$(CC) $(CFLAGS_HOST) -Itest/unit test/tire/tire_main.c test/unit/hs_test.c $(TIRE_TEST_OBJ) -o $@ -lm

# the multibody tire element against hs_tire.c and against differences (test/tire/tire_mb.c)
$(BUILD)/hilstep-tiremb: test/tire/tire_mb.c $(TEST_HARNESS) $(CORE_OBJ) $(MODEL_HDR) $(wildcard rt/*.h)
	@mkdir -p $(BUILD)
	$(CC) $(CFLAGS_HOST) -Itest/unit test/tire/tire_mb.c test/unit/hs_test.c $(CORE_OBJ) -o $@ -lm

.PHONY: tire-test
tire-test: $(BUILD)/hilstep-tiretest $(BUILD)/hilstep-tiremb $(BUILD)/hilstep-sim $(BUILD)/hilstep-vdc
	@$(PY) test/tire/run_tire_test.py $(BUILD)/hilstep-tiretest $(BUILD)/hilstep-sim $(BUILD)/hilstep-tiremb $(BUILD)/hilstep-vdc

TEST_SUITES += tire-test

# The 10^6-step soak of the truck-trailer (issue 18): the default method through lane changes
# driven back to back (the driver's course repeats every 150 m), max |g| and the hitch defect
# per 10^5-step block must not grow. About 4 minutes on one core: not in make test.
.PHONY: tire-soak
tire-soak: $(BUILD)/hilstep-sim
	@$(PY) test/tire/soak_trailer.py $(BUILD)/hilstep-sim

# hs_tire_values.c compiles hs_tire.c's text a second time (#include): without this line an edit
# of hs_tire.c left a stale values-only object (the forces and state rates of one source disagreeing)
$(BUILD)/obj/model/vehicle/hs_tire_values.o: model/vehicle/hs_tire.c model/vehicle/hs_tire.h
