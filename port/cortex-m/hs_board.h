/* hs_board.h - the bare-metal board layer of the MPS2 images (QEMU mps2-an500 Cortex-M7 and
 * mps2-an386 Cortex-M4F): console on CMSDK UART0, exit through semihosting, a monotonic
 * time base on SysTick, fault reporting. No libc: everything here is freestanding. */
#ifndef HS_BOARD_H
#define HS_BOARD_H

#include <stdint.h>

/* Exit statuses: hil/hs_exit.h, one table for every hilstep plant (QEMU's exit status through
 * semihosting SYS_EXIT_EXTENDED, low 8 bits). */
#include "hs_exit.h"

/* SysTick reference clock of the MPS2 boards in QEMU (Hz); 1 count = 40 ns. */
#define HS_SYSTICK_HZ 25000000u
/* Under `-icount shift=0` one guest instruction takes 1 ns, so one count is 40 instructions. */
#define HS_INSN_PER_COUNT 40u

/* Called by the reset code before main: UART on, fault exceptions routed to their handlers. */
void hs_board_init(void);

void hs_con_putc(char c);
void hs_con_puts(const char *s);
/* Exactly `digits` lowercase hex digits of v (leading zeros kept), no prefix. */
void hs_con_hex(uint64_t v, int digits);
void hs_con_u64(uint64_t v);
void hs_con_i64(int64_t v);
/* x in %.3e style (sign, one digit, '.', three digits, e, sign, two+ digits); nan/inf spelled out. */
void hs_con_sci(double x);

/* Ends the program: QEMU exits with status (code & 0xff). Never returns. */
void hs_exit(int code) __attribute__((noreturn));

/* Copies the semihosting command line (QEMU: "<kernel> <-append text>") into buf (len bytes,
 * NUL-terminated). Returns its length, or -1 when semihosting gives none. */
int hs_cmdline(char *buf, int len);

/* Byte-wise string helpers the mains need (no libc). */
int hs_streq(const char *a, const char *b);
/* Parses a decimal unsigned integer; returns -1 on anything else. */
long hs_parse_ulong(const char *s);

/* Executes an undefined instruction (fault-path test). */
void hs_trigger_udf(void);

/* Bytes of the main stack ever used since reset (stack painting high-water mark), and its size. */
uint32_t hs_stack_used(void);
uint32_t hs_stack_size(void);

#endif
