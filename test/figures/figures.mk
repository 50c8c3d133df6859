# test/figures/figures.mk - `make figures` reproduces Figs. 1, 3, 5, 6, 7, 8 of [BAE] from
# hilstep-sim runs into $(BUILD)/figures (PNG + CSV + README.md captions), and the car's
# manoeuvres under the ABS and ESC of hil/hs_vdc.c from hilstep-vdc runs (fig_vdc.py, vdc.md); `figures-test`
# (part of `make test`) re-runs the Fig. 1 and Fig. 6 data at reduced resolution and checks
# the stability classification and the drift slopes. Scripts need Debian's /usr/bin/python3;
# the plots need python3-matplotlib and python3-numpy, installed here when missing.
FIG_PY  := /usr/bin/python3
FIG_DIR := $(BUILD)/figures

.PHONY: figures figures-test figures-smoke figures-deps figures-commit-png

figures-deps:
	@$(FIG_PY) -c 'import matplotlib, numpy' >/dev/null 2>&1 || { \
	  echo "installing python3-matplotlib python3-numpy"; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  SUDO=; [ "$$(id -u)" -eq 0 ] || SUDO=sudo; \
	  mkdir -p $(BUILD); ( $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq python3-matplotlib python3-numpy ) \
	    >$(BUILD)/hilstep-figures-apt.log 2>&1 || { echo "apt-get failed, see $(BUILD)/hilstep-figures-apt.log"; exit 1; }; }

figures: $(BUILD)/hilstep-sim $(BUILD)/hilstep-vdc figures-deps
	$(FIG_PY) test/figures/make_figures.py --sim $(BUILD)/hilstep-sim --out $(FIG_DIR)
	$(FIG_PY) test/figures/fig_trailer.py --sim $(BUILD)/hilstep-sim --out $(FIG_DIR)
	$(FIG_PY) test/figures/fig_compliance.py --sim $(BUILD)/hilstep-sim --out $(FIG_DIR)
	$(FIG_PY) test/figures/fig_vdc.py --vdc $(BUILD)/hilstep-vdc --out $(FIG_DIR)

# Refreshes the small PNGs committed under test/figures/ (shown in the top README and hil/VEHICLE.md).
figures-commit-png: $(BUILD)/hilstep-sim $(BUILD)/hilstep-vdc figures-deps
	$(FIG_PY) test/figures/make_figures.py --sim $(BUILD)/hilstep-sim --out $(FIG_DIR) --copy-committed
	$(FIG_PY) test/figures/fig_vdc.py --vdc $(BUILD)/hilstep-vdc --out $(FIG_DIR) --copy-committed

figures-test: $(BUILD)/hilstep-sim
	@$(FIG_PY) test/figures/check.py --sim $(BUILD)/hilstep-sim

TEST_SUITES += figures-test

# Every script behind `make figures`, at reduced resolution, in `make test` (about a minute):
# a figure that no longer builds fails here, not on the next `make figures`.
TEST_SUITES += figures-smoke
figures-smoke: $(BUILD)/hilstep-sim $(BUILD)/hilstep-method-bars $(BUILD)/hilstep-spbench $(BUILD)/hilstep-vdc
	@sh test/figures/smoke.sh $(BUILD)/hilstep-sim $(BUILD)/hilstep-method-bars $(BUILD)/hilstep-spbench $(BUILD)/hilstep-vdc
