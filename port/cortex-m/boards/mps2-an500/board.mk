# QEMU mps2-an500: Cortex-M7 with the double-precision FPU, the primary board. Images land in
# build/cortex-m/m7/ (cortex-m.mk reads every boards/*/board.mk; one board per file).
CM_BOARDS += m7
CM_BOARD_DIR_m7 := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
# The CPU and its FPU; -mfloat-abi=hard, so the core turns the FPU on before any C runs.
CM_ARCH_m7    := -mthumb -mcpu=cortex-m7 -mfpu=fpv5-d16 -mfloat-abi=hard
# The build's real type: empty = double (the host's bits), -DHS_REAL_FLOAT = float.
CM_REAL_m7    :=
# The memory map (INCLUDEs the core's section layout, ld/hs_sections.ld).
CM_LDS_m7     := ld/mps2-an500.ld
# Where hs_bsp.h is (console, clock): the MPS2 family's, shared with mps2-an386.
CM_INC_m7     := -I$(CM_BOARD_DIR_m7) -Iport/cortex-m/boards/mps2-common
# The board's own C sources, linked into every image (none: hs_bsp.h is inline).
CM_SRC_m7     :=
# QEMU's -M machine that runs the images (make qemu-run, the qemu suites).
CM_MACHINE_m7 := mps2-an500
