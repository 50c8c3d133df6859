/* unit_main.c - the host unit tests of rt/ and model/ on the board: the harness prints through
 * the UART and the failure count becomes QEMU's exit status. */
#include "hs_board.h"
#include "hs_test_list.h"

void hs_test_putc(char c) { hs_con_putc(c); }

int main(void)
{
    long long failed = hs_test_run(NULL, hs_unit_tests, HS_TEST_COUNT(hs_unit_tests), 1);
    hs_con_puts("stack used=");
    hs_con_u64(hs_stack_used());
    hs_con_puts(" of ");
    hs_con_u64(hs_stack_size());
    hs_con_puts(" bytes\n");
    return failed ? HS_EXIT_TEST : HS_EXIT_OK;
}
