# contact.mk - contacts, end stops and dry friction (model/CONTACT.md): analytic checks of the
# shipped scenarios in model/mech/, refusals, and the fixed cost per step.
contact-test: $(BUILD)/hilstep-sim $(BUILD)/hilstep-ctenergy
	@sh test/contact/contact_test.sh $(BUILD)/hilstep-sim

# "the contact stage never adds energy": energy after the stage against before it, every step
# of every contact scene (test/contact/ct_energy.c; contact_test.sh runs it)
$(BUILD)/hilstep-ctenergy: test/contact/ct_energy.c $(CORE_OBJ) $(wildcard model/*/*.h rt/*.h port/host/hs_mb_file.h)
	@mkdir -p $(BUILD)
	$(CC) $(CFLAGS_HOST) -Wno-double-promotion -Wno-conversion test/contact/ct_energy.c $(CORE_OBJ) -o $@ -lm

TEST_SUITES += contact-test

# make contact-bench: instructions per step of the five-box stack (host, callgrind) and their
# spread over 60 s at h = 1/60 s (every step measured), and the box towers of 20 and 50 boxes
# (cost per box, spread, 20 s drift and settle), written to stdout.
.PHONY: contact-bench
contact-bench: $(BUILD)/hilstep-sim
	@sh test/contact/contact_bench.sh $(BUILD)/hilstep-sim
