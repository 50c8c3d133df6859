/* host_main.c - runs the unit tests on the host: `hilstep-unit [--quick] [--float]`. */
#include <stdio.h>
#include <string.h>

#include "hs_test.h"

void hs_test_putc(char c) { putchar(c); }

int main(int argc, char **argv)
{
    int quick = 0;
    for (int i = 1; i < argc; ++i)
        if (!strcmp(argv[i], "--quick")) quick = 1;
    setvbuf(stdout, NULL, _IOLBF, 0);
    return hs_test_main(quick) ? 1 : 0;
}
