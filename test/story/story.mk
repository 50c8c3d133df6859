# test/story/story.mk - the quarter car from description to board (story-test, part of
# `make test`): model/mech/quarter_car.hsm driven offline by model/mech/quarter_car_road.csv
# and plotted, closed-loop against the README's Python ECU (test/story/quarter_car_ecu.py,
# checked verbatim against README.md), and on the M7 through qemu-user-test.
ifneq ($(wildcard model/mech/quarter_car.hsm),)
.PHONY: story-test
TEST_SUITES += story-test
TEST_SERIAL += story-test
QEMU_USER_FILES += model/mech/quarter_car.hsm
story-test: $(BUILD)/hilstep-sim $(BUILD)/hilstep-plot $(BUILD)/hilstep-rt
	@sh test/story/run.sh $(BUILD)
endif
