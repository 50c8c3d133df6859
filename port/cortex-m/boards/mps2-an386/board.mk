# QEMU mps2-an386: Cortex-M4F with the single-precision FPU, the float build (HS_REAL_FLOAT).
# Images land in build/cortex-m/m4f/ (cortex-m.mk reads every boards/*/board.mk).
CM_BOARDS += m4f
CM_BOARD_DIR_m4f := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
# The CPU and its FPU; -mfloat-abi=hard, so the core turns the FPU on before any C runs.
CM_ARCH_m4f    := -mthumb -mcpu=cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=hard
# The build's real type: float, compared with the host's float build (host-float/hilstep-sim).
CM_REAL_m4f    := -DHS_REAL_FLOAT
# The memory map (INCLUDEs the core's section layout, ld/hs_sections.ld).
CM_LDS_m4f     := ld/mps2-an386.ld
# Where hs_bsp.h is (console, clock): the MPS2 family's, shared with mps2-an500.
CM_INC_m4f     := -I$(CM_BOARD_DIR_m4f) -Iport/cortex-m/boards/mps2-common
# The board's own C sources, linked into every image (none: hs_bsp.h is inline).
CM_SRC_m4f     :=
# QEMU's -M machine that runs the images (make qemu-run, the qemu suites).
CM_MACHINE_m4f := mps2-an386
