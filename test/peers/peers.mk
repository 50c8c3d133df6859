# test/peers/peers.mk - `make bench-peers` (optional, not in `make test`): the chain of n rods
# in hilstep, MuJoCo 2.2.2 (Debian libmujoco-dev), ODE 0.16 (libode-dev) and Bullet 3.24
# btMultiBody (libbullet-dev, double) in one process: ns/step and ratios, energy change and
# constraint drift over 10 s, side by side; then instructions per step of each engine
# (callgrind, test/peers/peers_ir.sh) and the car axle against SUNDIALS IDA (libsundials-dev)
# at equal position error (test/peers/peers_ida.c). Installs the libraries when missing.
# PEERS_ARGS: n = 8..128, h = 1 ms, T = 10 s, the stepper's default and semi-implicit Euler;
# a 10-s accuracy run that would step longer than --budget seconds is skipped ("-"); ODE's
# dWorldStep at n = 128 (a dense solve, about 25 ms per step) just fits. Up to ~15 minutes.
PEERS_ARGS ?= --n 8,16,32,64,128 --methods default,symplectic --budget 240

.PHONY: bench-peers peers-deps

peers-deps:
	@[ -f /usr/include/mujoco/mujoco.h ] && [ -f /usr/include/ode/ode.h ] \
	  && [ -f /usr/include/bullet/btBulletDynamicsCommon.h ] && [ -f /usr/include/ida/ida.h ] || { \
	  echo "installing libmujoco-dev libode-dev libbullet-dev libsundials-dev"; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  SUDO=; [ "$$(id -u)" -eq 0 ] || SUDO=sudo; mkdir -p $(BUILD); \
	  ( $$SUDO apt-get install -y -qq -o DPkg::Lock::Timeout=600 libmujoco-dev libode-dev libbullet-dev libsundials-dev || \
	    { $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq -o DPkg::Lock::Timeout=600 libmujoco-dev libode-dev libbullet-dev libsundials-dev; } ) \
	    >$(BUILD)/hilstep-peers-apt.log 2>&1 || { echo "apt-get failed, see $(BUILD)/hilstep-peers-apt.log"; exit 1; }; }

$(BUILD)/obj/peers_bullet.o: test/peers/peers_bullet.cpp
	@mkdir -p $(dir $@)
	$(CXX) -O2 -g -DBT_USE_DOUBLE_PRECISION -I/usr/include/bullet -c $< -o $@

$(BUILD)/hilstep-peers: test/peers/peers.c test/peers/peers_ida.c test/unit/tmodel.c test/unit/tmodel.h $(CORE_OBJ) $(BUILD)/obj/peers_bullet.o
	@mkdir -p $(BUILD)
	$(CC) $(CFLAGS_HOST) -Itest/unit -DHS_PEERS_MUJOCO -DHS_PEERS_ODE -DHS_PEERS_BULLET -DHS_PEERS_IDA -DdDOUBLE \
	  test/peers/peers.c test/peers/peers_ida.c test/unit/tmodel.c $(CORE_OBJ) $(BUILD)/obj/peers_bullet.o -o $@ \
	  -lmujoco -lode -lBulletDynamics-float64 -lBulletCollision-float64 -lLinearMath-float64 \
	  -lsundials_ida -lsundials_nvecserial -lsundials_sunlinsoldense -lsundials_sunmatrixdense -lstdc++ -lm

# The lines the README's comparison comes from: instructions per step (chain) and the car axle
# against IDA; then the timed table with energies. PEERS_IR_N: chain sizes counted.
PEERS_IR_N ?= 8 32 128
bench-peers: peers-deps
	@$(MAKE) --no-print-directory $(BUILD)/hilstep-peers
	@sh test/peers/peers_ir.sh $(BUILD)/hilstep-peers $(PEERS_IR_N)
	$(BUILD)/hilstep-peers --car-axle
	$(BUILD)/hilstep-peers $(PEERS_ARGS)

# make bench's part (test/bench/MEASUREMENTS.md): the counted lines and the IDA comparison when
# the peers' libraries are installed (make peers-deps), a line saying so when not.
.PHONY: bench-peers-ir
bench-peers-ir:
	@echo "== peers: chain instructions per step, car axle against SUNDIALS IDA (make bench-peers)"
	@if [ -f /usr/include/mujoco/mujoco.h ] && [ -f /usr/include/ode/ode.h ] \
	  && [ -f /usr/include/bullet/btBulletDynamicsCommon.h ] && [ -f /usr/include/ida/ida.h ]; then \
	  $(MAKE) --no-print-directory -s $(BUILD)/hilstep-peers && \
	  sh test/peers/peers_ir.sh $(BUILD)/hilstep-peers $(PEERS_IR_N) && $(BUILD)/hilstep-peers --car-axle; \
	else echo "skipped: the peers' libraries are not installed (make peers-deps)"; fi
bench-run: bench-peers-ir
