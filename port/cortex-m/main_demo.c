/* main_demo.c - `make run TARGET=qemu`: the car axle plant on the 1 ms SysTick frame, in real
 * time, with a status line every second. Command line (semihosting): [seconds], default 10. */
#include "hs_app.h"
#include "hs_board.h"

int main(void)
{
    char cmd[128];
    uint32_t seconds = 10;
    if (hs_cmdline(cmd, (int)sizeof cmd) > 0) {
        /* "<kernel> [seconds]": the last word, when it is a number. */
        const char *last = cmd;
        for (const char *p = cmd; *p; ++p)
            if (*p == ' ' && p[1] && p[1] != ' ') last = p + 1;
        long v = hs_parse_ulong(last);
        if (v > 0) seconds = (uint32_t)v;
    }
    hs_app_cfg c = hs_app_default_cfg();
    c.nsteps = seconds * 1000u;
    hs_app_configure(&c);
    hs_con_puts("hilstep car axle, J2 index-2 projection, h = 1 ms, SysTick frame, ");
    hs_con_u64(seconds);
    hs_con_puts(" s\n");
    int rc = hs_frame_run(&hs_app_frame, HS_SYSTICK_HZ / 1000u);
    if (rc) return rc;
    hs_app_print_frame();
    hs_app_print_hash();
    hs_con_puts("stack used=");
    hs_con_u64(hs_stack_used());
    hs_con_puts(" of ");
    hs_con_u64(hs_stack_size());
    hs_con_puts(" bytes\n");
    /* Without icount, guest time is the host's clock: overruns here can come from the host
     * (other load, QEMU's own work) and are reported, not treated as failure. The exact,
     * repeatable check is `make qemu-test`. */
    hs_con_puts(hs_frame.overruns ? "real-time run: overruns occurred (see above)\n"
                                  : "real-time run: no overruns\n");
    return HS_EXIT_OK;
}
