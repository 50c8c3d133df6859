/* mb_main.c - build/hilstep-mbtest: the multibody suite. Usage: hilstep-mbtest [MECH_DIR]. */
#include <stdio.h>
#include "mb_test.h"

static int npass, nfail;
int mb_check(int ok, const char *what)
{
    printf("%s %s\n", ok ? "ok  " : "FAIL", what);
    if (ok) ++npass; else ++nfail;
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    mb_test_deriv();
    mb_test_elem();
    if (argc > 1) mb_test_mech(argv[1], argc > 2 ? argv[2] : NULL, argc > 3 ? argv[3] : NULL, argc > 4 ? argv[4] : NULL);
    if (argc > 1) mb_test_dvp(argv[1]);
    if (argc > 1) mb_test_fast(argv[1]);
    if (argc > 1) mb_test_lang(argv[1]);
    if (argc > 1) mb_test_fb(argv[1]);
    if (argc > 1) mb_test_fbstep(argv[1]);
    if (argc > 3) mb_test_gen(argv[1], argv[3]);
    printf("mb: %d passed, %d failed\n", npass, nfail);
    return nfail ? 1 : 0;
}
