/* hs_board.h - what a Cortex-M image gets from the port: console, exit through semihosting,
 * command line, fault reports, stack measurement. The core (this folder) implements it on
 * the board's hs_bsp.h, found on the include path the board's board.mk sets: the console's
 * init and one character out, and the SysTick clock. No libc: everything here is freestanding. */
#ifndef HS_BOARD_H
#define HS_BOARD_H

#include <stdint.h>

/* Exit statuses: hil/hs_exit.h, one table for every hilstep plant (QEMU's exit status through
 * semihosting SYS_EXIT_EXTENDED, low 8 bits). */
#include "hs_exit.h"

/* The board: HS_SYSTICK_HZ, hs_bsp_init, hs_bsp_putc (boards/<board>/ or a family's folder). */
#include "hs_bsp.h"

#ifndef HS_SYSTICK_HZ
#error "hs_bsp.h must define HS_SYSTICK_HZ, the SysTick clock in Hz"
#endif
/* Under `-icount shift=0` one guest instruction takes 1 ns, so one count is 1e9 / HS_SYSTICK_HZ
 * instructions (40 at the MPS2 boards' 25 MHz): the cost lines the tests read. */
#define HS_INSN_PER_COUNT (1000000000u / HS_SYSTICK_HZ)
#if HS_INSN_PER_COUNT * HS_SYSTICK_HZ != 1000000000u
#error "HS_SYSTICK_HZ must divide 1 GHz: the cost lines count whole instructions per SysTick count"
#endif

/* Called by the reset code before main: the board's console on (hs_bsp_init), fault
 * exceptions routed to their handlers, division by zero trapped. */
void hs_board_init(void);

/* One character c to the console (polled, callable from any priority). */
void hs_con_putc(char c);
/* The NUL-terminated string s to the console, byte by byte. */
void hs_con_puts(const char *s);
/* Exactly `digits` lowercase hex digits of v (leading zeros kept), no prefix. */
void hs_con_hex(uint64_t v, int digits);
/* v in decimal, no padding. */
void hs_con_u64(uint64_t v);
/* v in decimal with a '-' when negative, no padding. */
void hs_con_i64(int64_t v);
/* x in %.3e style (sign, one digit, '.', three digits, e, sign, two+ digits); nan/inf spelled out. */
void hs_con_sci(double x);

/* Ends the program: QEMU exits with status (code & 0xff). Never returns. */
void hs_exit(int code) __attribute__((noreturn));

/* Copies the semihosting command line (QEMU: "<kernel> <-append text>") into buf (len bytes,
 * NUL-terminated). Returns its length, or -1 when semihosting gives none. */
int hs_cmdline(char *buf, int len);

/* 1 when the NUL-terminated strings a and b are equal byte for byte, else 0 (no libc). */
int hs_streq(const char *a, const char *b);
/* Parses a decimal unsigned integer; returns -1 on anything else. */
long hs_parse_ulong(const char *s);

/* Executes an undefined instruction (fault-path test). */
void hs_trigger_udf(void);

/* Bytes of the main stack ever used since reset (stack painting high-water mark). */
uint32_t hs_stack_used(void);
/* Bytes of the main stack (the linker script's .stack section). */
uint32_t hs_stack_size(void);

#endif
