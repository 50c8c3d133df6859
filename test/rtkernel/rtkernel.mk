# test/rtkernel/rtkernel.mk - make rtkernel-test: hilstep-rt on Debian's PREEMPT_RT kernel,
# booted under qemu-system-x86_64 (KVM when it works, else TCG) with an initramfs built at test
# time under build/rtkernel/ (test/rtkernel/README.md). make rtkernel-shell boots the same
# guest with a shell on the terminal. Included by the top Makefile after port/linux-rt/linux-rt.mk.
RTKERNEL_BINS := $(BUILD)/hilstep-rt $(BUILD)/hilstep-ecu $(BUILD)/hilstep-sim $(BUILD)/hilstep-can-spoof

.PHONY: rtkernel-test rtkernel-shell
TEST_SUITES += rtkernel-test
rtkernel-test: $(RTKERNEL_BINS)
	@sh test/rtkernel/run.sh $(BUILD)

rtkernel-shell: $(RTKERNEL_BINS)
	@sh test/rtkernel/run.sh $(BUILD) shell
