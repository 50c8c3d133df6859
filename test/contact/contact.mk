# contact.mk - contacts, end stops and dry friction (model/CONTACT.md): analytic checks of the
# shipped scenarios in model/mech/, refusals, and the fixed cost per step.
contact-test: $(BUILD)/hilstep-sim
	@sh test/contact/contact_test.sh $(BUILD)/hilstep-sim

TEST_SUITES += contact-test

# make contact-bench: instructions per step of the five-box stack (host, callgrind) and their
# spread over 60 s at h = 1/60 s (every step measured), written to stdout.
.PHONY: contact-bench
contact-bench: $(BUILD)/hilstep-sim
	@sh test/contact/contact_bench.sh $(BUILD)/hilstep-sim
