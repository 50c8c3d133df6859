/* host_main.c - runs the unit tests on the host: `hilstep-unit [--quick] [--float]`. */
#include <string.h>

#include "hs_test_list.h"

int main(int argc, char **argv)
{
    int quick = 0;
    for (int i = 1; i < argc; ++i)
        if (!strcmp(argv[i], "--quick")) quick = 1;
    return hs_test_run(NULL, hs_unit_tests, HS_TEST_COUNT(hs_unit_tests), quick) ? 1 : 0;
}
