/* hs_port.h - the ARM core as the port sees it, in the role of FreeRTOS's portmacro.h: the
 * registers every ARMv7-M core has at the same architectural address (System Control Block,
 * SysTick), interrupt masking and the barrier the port needs. Nothing here names a board;
 * hs_bsp.h, in the board's folder, is the board's side. */
#ifndef HS_PORT_H
#define HS_PORT_H

#include <stdint.h>

/* A 32-bit memory-mapped register at address a (a: integer constant). */
#define HS_REG(a) (*(volatile uint32_t *)(uintptr_t)(a))

/* System Control Block. */
#define HS_SCB_ICSR  HS_REG(0xE000ED04u) /* interrupt control and state */
#define HS_SCB_CCR   HS_REG(0xE000ED14u) /* configuration and control */
#define HS_SCB_SHPR3 HS_REG(0xE000ED20u) /* priorities of PendSV (bits 16-23), SysTick (24-31) */
#define HS_SCB_SHCSR HS_REG(0xE000ED24u) /* system handler control and state */
#define HS_SCB_CFSR  HS_REG(0xE000ED28u) /* configurable fault status */
#define HS_SCB_HFSR  HS_REG(0xE000ED2Cu) /* HardFault status */
#define HS_SCB_MMFAR HS_REG(0xE000ED34u) /* MemManage fault address */
#define HS_SCB_BFAR  HS_REG(0xE000ED38u) /* BusFault address */

/* ICSR bits: pend PendSV, SysTick pending, clear a pending SysTick. */
#define HS_ICSR_PENDSVSET (1u << 28)
#define HS_ICSR_PENDSTSET (1u << 26)
#define HS_ICSR_PENDSTCLR (1u << 25)

/* SysTick: control and status, reload value (counts - 1), current value (counts, down to 0). */
#define HS_SYST_CSR HS_REG(0xE000E010u)
#define HS_SYST_RVR HS_REG(0xE000E014u)
#define HS_SYST_CVR HS_REG(0xE000E018u)

/* CSR bits: counter on, interrupt at 0, clocked by the processor clock (CLKSOURCE = 1, which is
 * what QEMU's -icount shift=0 turns into a whole number of instructions per count). */
#define HS_SYST_ENABLE    (1u << 0)
#define HS_SYST_TICKINT   (1u << 1)
#define HS_SYST_CLKSOURCE (1u << 2)

/* Masks interrupts (PRIMASK) and returns the previous PRIMASK for hs_port_irq_restore. */
static inline uint32_t hs_port_irq_save(void)
{
    uint32_t pm;
    __asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(pm)::"memory");
    return pm;
}

/* Restores PRIMASK from hs_port_irq_save (pm: its return value). */
static inline void hs_port_irq_restore(uint32_t pm)
{
    __asm__ volatile("msr primask, %0" ::"r"(pm) : "memory");
}

#endif
