# test/peers/peers.mk - `make bench-peers` (optional, not in `make test`): the chain of n rods
# in hilstep, MuJoCo 2.2.2 (Debian libmujoco-dev) and ODE 0.16 (libode-dev) in one process:
# ns/step and ratios, energy change and constraint drift over 10 s, side by side (issue 9).
# Installs the two libraries with apt-get when they are missing.
# PEERS_ARGS: n = 8..128, h = 1 ms, T = 10 s, the stepper's default and semi-implicit Euler;
# a 10-s accuracy run that would step longer than --budget seconds is skipped ("-"); ODE's
# dWorldStep at n = 128 (a dense solve, about 25 ms per step) just fits. Up to ~15 minutes.
PEERS_ARGS ?= --n 8,16,32,64,128 --methods default,symplectic --budget 240

.PHONY: bench-peers peers-deps

peers-deps:
	@[ -f /usr/include/mujoco/mujoco.h ] && [ -f /usr/include/ode/ode.h ] || { \
	  echo "installing libmujoco-dev libode-dev"; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  SUDO=; [ "$$(id -u)" -eq 0 ] || SUDO=sudo; mkdir -p $(BUILD); \
	  ( $$SUDO apt-get install -y -qq libmujoco-dev libode-dev || \
	    { $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq libmujoco-dev libode-dev; } ) \
	    >$(BUILD)/hilstep-peers-apt.log 2>&1 || { echo "apt-get failed, see $(BUILD)/hilstep-peers-apt.log"; exit 1; }; }

$(BUILD)/hilstep-peers: test/peers/peers.c test/unit/tmodel.c test/unit/tmodel.h $(CORE_OBJ)
	@mkdir -p $(BUILD)
	$(CC) $(CFLAGS_HOST) -Itest/unit -DHS_PEERS_MUJOCO -DHS_PEERS_ODE -DdDOUBLE \
	  test/peers/peers.c test/unit/tmodel.c $(CORE_OBJ) -o $@ -lmujoco -lode -lm

bench-peers: peers-deps
	@$(MAKE) --no-print-directory $(BUILD)/hilstep-peers
	$(BUILD)/hilstep-peers $(PEERS_ARGS)
