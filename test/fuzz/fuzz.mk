# test/fuzz/fuzz.mk - libFuzzer harnesses (issue 11): the frame decoder and receive
# validation, the signal-map validation, hilstep-sim's command line, and every other
# test/fuzz/fuzz_*.c (e.g. a model-file parser). Built with clang under ASan + UBSan.
#   make fuzz-test            bounded: FUZZ_RUNS executions each (part of make test)
#   make fuzz FUZZ_SECONDS=N  N seconds each; the grown corpus stays in build/fuzz/corpus/
FUZZ_CC      ?= clang
FUZZ_RUNS    ?= 300000
FUZZ_SECONDS ?= 60
FUZZ_CFLAGS  := -std=c99 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
                $(FPFLAGS) -D_POSIX_C_SOURCE=200809L -DHS_SIM_NO_MAIN -Irt -Imodel -Ihil -Iport/host
FUZZ_NAMES   := $(patsubst test/fuzz/fuzz_%.c,%,$(wildcard test/fuzz/fuzz_*.c))
FUZZ_BINS    := $(FUZZ_NAMES:%=$(BUILD)/fuzz/fuzz_%)
FUZZ_LIBSRC  := $(wildcard rt/*.c model/*.c hil/*.c)
# Extra sources per harness: the CLI harness calls hilstep-sim's parser.
FUZZ_EXTRA_cli := port/host/sim_main.c

$(BUILD)/fuzz/fuzz_%: test/fuzz/fuzz_%.c $(FUZZ_LIBSRC) $(wildcard rt/*.h model/*.h hil/*.h port/host/*.h port/host/*.c)
	@mkdir -p $(BUILD)/fuzz
	$(FUZZ_CC) $(FUZZ_CFLAGS) $< $(FUZZ_EXTRA_$*) $(FUZZ_LIBSRC) -o $@ -lm

.PHONY: fuzz fuzz-test fuzz-build
fuzz-build: $(FUZZ_BINS)

TEST_SUITES += fuzz-test
fuzz-test: fuzz-build
	@sh test/fuzz/run_fuzz.sh $(BUILD) runs $(FUZZ_RUNS) $(FUZZ_NAMES)

fuzz: fuzz-build
	@sh test/fuzz/run_fuzz.sh $(BUILD) seconds $(FUZZ_SECONDS) $(FUZZ_NAMES)
