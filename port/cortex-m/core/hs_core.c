/* hs_core.c - what every Cortex-M board gets from the core: fault routing and reports,
 * semihosting exit and command line, stack measurement, the console's number formatting.
 * The board's two pieces (hs_bsp.h: console init and one character out) are inline here so
 * the formatting loops write the UART directly, as they did when this was one board file. */
#include "hs_board.h"
#include "hs_port.h"

extern uint32_t __stack_bottom[], __stack_top[];
#define STACK_PAINT 0x5AC5AC5Au

void hs_board_init(void)
{
    hs_bsp_init();
    /* Route the configurable faults to their own vectors so the report names the real cause,
     * and trap integer division by zero instead of silently returning 0. */
    HS_SCB_SHCSR |= (1u << 16) | (1u << 17) | (1u << 18);
    HS_SCB_CCR |= (1u << 4);
}

void hs_con_putc(char c)
{
    hs_bsp_putc(c);
}

void hs_con_puts(const char *s)
{
    while (*s) hs_con_putc(*s++);
}

void hs_con_hex(uint64_t v, int digits)
{
    static const char hex[] = "0123456789abcdef";
    for (int i = digits - 1; i >= 0; --i) hs_con_putc(hex[(v >> (4 * i)) & 0xfu]);
}

void hs_con_u64(uint64_t v)
{
    char buf[21];
    int n = 0;
    do {
        buf[n++] = (char)('0' + (int)(v % 10u));
        v /= 10u;
    } while (v);
    while (n) hs_con_putc(buf[--n]);
}

void hs_con_i64(int64_t v)
{
    if (v < 0) {
        hs_con_putc('-');
        hs_con_u64((uint64_t)0 - (uint64_t)v);
    } else {
        hs_con_u64((uint64_t)v);
    }
}

void hs_con_sci(double x)
{
    if (x != x) { hs_con_puts("nan"); return; }
    if (x < 0.0) { hs_con_putc('-'); x = -x; }
    if (x > 1.7976931348623157e308) { hs_con_puts("inf"); return; }
    int e = 0;
    if (x != 0.0) {
        /* Decimal scaling by repeated *10 and /10 loses a few ulps; three printed digits
         * are far coarser than that, and this is status output, not data. */
        while (x >= 10.0) { x /= 10.0; ++e; }
        while (x < 1.0) { x *= 10.0; --e; }
    }
    uint32_t m = (uint32_t)(x * 1000.0 + 0.5);
    if (m >= 10000u) { m /= 10u; ++e; }
    hs_con_putc((char)('0' + (int)(m / 1000u)));
    hs_con_putc('.');
    hs_con_putc((char)('0' + (int)(m / 100u % 10u)));
    hs_con_putc((char)('0' + (int)(m / 10u % 10u)));
    hs_con_putc((char)('0' + (int)(m % 10u)));
    hs_con_putc('e');
    hs_con_putc(e < 0 ? '-' : '+');
    if (e < 0) e = -e;
    if (e < 10) hs_con_putc('0');
    hs_con_u64((uint64_t)e);
}

/* ARM semihosting call: BKPT 0xAB on M-profile. */
static int semihost(uint32_t op, void *arg)
{
    register uint32_t r0 __asm__("r0") = op;
    register void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    return (int)r0;
}

#define SYS_GET_CMDLINE   0x15u
#define SYS_EXIT          0x18u
#define SYS_EXIT_EXTENDED 0x20u
#define ADP_Stopped_ApplicationExit 0x20026u

void hs_exit(int code)
{
    __asm__ volatile("cpsid i" ::: "memory");
    /* Let the UART drain nothing: QEMU's CMSDK UART transmits synchronously. */
    uint32_t blk[2] = { ADP_Stopped_ApplicationExit, (uint32_t)code };
    semihost(SYS_EXIT_EXTENDED, blk);
    /* Only reached when semihosting is off: nothing else can report, so stop here. */
    semihost(SYS_EXIT, (void *)(uintptr_t)ADP_Stopped_ApplicationExit);
    for (;;) __asm__ volatile("wfi");
}

int hs_cmdline(char *buf, int len)
{
    uint32_t blk[2] = { (uint32_t)(uintptr_t)buf, (uint32_t)len };
    if (len < 1) return -1;
    buf[0] = '\0';
    if (semihost(SYS_GET_CMDLINE, blk) != 0) return -1;
    return (int)blk[1];
}

int hs_streq(const char *a, const char *b)
{
    while (*a && *a == *b) { ++a; ++b; }
    return *a == *b;
}

long hs_parse_ulong(const char *s)
{
    long v = 0;
    if (!*s) return -1;
    for (; *s; ++s) {
        if (*s < '0' || *s > '9' || v > 100000000L) return -1;
        v = v * 10 + (*s - '0');
    }
    return v;
}

void hs_trigger_udf(void)
{
    __asm__ volatile("udf #0" ::: "memory");
}

uint32_t hs_stack_size(void)
{
    return (uint32_t)((uintptr_t)__stack_top - (uintptr_t)__stack_bottom);
}

uint32_t hs_stack_used(void)
{
    /* Walk addresses, not pointers: the two linker symbols are distinct objects to C. */
    uintptr_t a = (uintptr_t)__stack_bottom, top = (uintptr_t)__stack_top;
    while (a < top && *(const volatile uint32_t *)a == STACK_PAINT) a += 4u;
    return (uint32_t)(top - a);
}

/* ---- fault reports ---- */

static const char *const exc_names[16] = {
    "?", "Reset", "NMI", "HardFault", "MemManage", "BusFault", "UsageFault", "?",
    "?", "?", "?", "SVCall", "DebugMonitor", "?", "PendSV", "SysTick"
};

static const char *const cfsr_bits[32] = {
    "IACCVIOL", "DACCVIOL", 0, "MUNSTKERR", "MSTKERR", "MLSPERR", 0, "MMARVALID",
    "IBUSERR", "PRECISERR", "IMPRECISERR", "UNSTKERR", "STKERR", "LSPERR", 0, "BFARVALID",
    "UNDEFINSTR", "INVSTATE", "INVPC", "NOCP", 0, 0, 0, 0,
    "UNALIGNED", "DIVBYZERO", 0, 0, 0, 0, 0, 0
};

static void put_reg(const char *name, uint32_t v)
{
    hs_con_putc(' ');
    hs_con_puts(name);
    hs_con_puts("=0x");
    hs_con_hex(v, 8);
}

/* Called from hs_fault_entry with the stacked frame (r0-r3, r12, lr, pc, xpsr), the
 * EXC_RETURN value and IPSR. Everything it uses is polled I/O, so it works with interrupts
 * of any priority masked. */
void hs_fault_report(const uint32_t *frame, uint32_t exc_return, uint32_t ipsr)
    __attribute__((noreturn));
void hs_fault_report(const uint32_t *frame, uint32_t exc_return, uint32_t ipsr)
{
    uint32_t exc = ipsr & 0x1ffu;
    uint32_t cfsr = HS_SCB_CFSR;
    hs_con_puts("\nFAULT ");
    if (exc < 16u) hs_con_puts(exc_names[exc]);
    else { hs_con_puts("IRQ"); hs_con_u64(exc - 16u); }
    hs_con_puts(" exception=");
    hs_con_u64(exc);
    put_reg("CFSR", cfsr);
    put_reg("HFSR", HS_SCB_HFSR);
    put_reg("MMFAR", HS_SCB_MMFAR);
    put_reg("BFAR", HS_SCB_BFAR);
    hs_con_puts("\nFAULT frame");
    put_reg("PC", frame[6]);
    put_reg("LR", frame[5]);
    put_reg("xPSR", frame[7]);
    put_reg("R0", frame[0]);
    put_reg("EXC_RETURN", exc_return);
    hs_con_puts("\nFAULT cause");
    int any = 0;
    for (int i = 0; i < 32; ++i) {
        if ((cfsr >> i) & 1u && cfsr_bits[i]) {
            hs_con_putc(' ');
            hs_con_puts(cfsr_bits[i]);
            any = 1;
        }
    }
    if (HS_SCB_HFSR & (1u << 30)) { hs_con_puts(" FORCED"); any = 1; }
    if (!any) hs_con_puts(" none-recorded");
    hs_con_putc('\n');
    hs_exit((int)(HS_EXIT_CPU_FAULT + (exc > 0x3fu ? 0x3fu : exc)));
}
