/* hs_bsp.h - board support of QEMU's MPS2 boards (mps2-an500 Cortex-M7, mps2-an386
 * Cortex-M4F): the console on the CMSDK APB UART0 and the 25 MHz clock. What the core needs
 * from a board and nothing else (core/hs_board.h says what that is); inline, in the role of
 * FreeRTOS's per-board FreeRTOSConfig.h, so that the core's console writes the UART directly.
 * Both MPS2 images share it: their board.mk put this folder on the include path. */
#ifndef HS_BSP_H
#define HS_BSP_H

#include <stdint.h>

/* SysTick reference clock of the MPS2 boards in QEMU (Hz); 1 count = 40 ns. */
#define HS_SYSTICK_HZ 25000000u

/* CMSDK APB UART0: data, state (bit 0: TX full), control (bit 0: TX enable), baud divisor. */
#define HS_BSP_UART0_DATA    (*(volatile uint32_t *)(uintptr_t)0x40004000u)
#define HS_BSP_UART0_STATE   (*(volatile uint32_t *)(uintptr_t)0x40004004u)
#define HS_BSP_UART0_CTRL    (*(volatile uint32_t *)(uintptr_t)0x40004008u)
#define HS_BSP_UART0_BAUDDIV (*(volatile uint32_t *)(uintptr_t)0x40004010u)

/* The board's part of hs_board_init (before main): the console's transmitter on. */
static inline void hs_bsp_init(void)
{
    /* The baud divisor only matters on real hardware (115200 Bd at 25 MHz); QEMU ignores it. */
    HS_BSP_UART0_BAUDDIV = 217u;
    HS_BSP_UART0_CTRL = 1u; /* TX enable */
}

/* One character c to the console, waiting while the transmitter is full (polled: callable
 * from any priority, interrupts masked or not). */
static inline void hs_bsp_putc(char c)
{
    while (HS_BSP_UART0_STATE & 1u) {
    }
    HS_BSP_UART0_DATA = (uint32_t)(unsigned char)c;
}

#endif
