/* tarena.h - one static arena shared by the unit tests with the largest working sets
 * (test_sparse.c, test_sparse_step.c). They run one after the other, so sharing costs nothing on
 * the host and keeps the Cortex-M7 unit image (double, every generated description linked) inside
 * the board's 4 MiB of data RAM. Each user clears its part on entry. */
#ifndef TARENA_H
#define TARENA_H

/* 1280 KiB: the largest user (test_sparse.c's sp_work) fits on the host with at least 80 KiB to spare
 * (gcc -fsyntax-only of both users at 1200 KiB); 1400 overflowed the M7 unit image once every
 * generated description's model grew the error metric's points */
#define HS_TEST_ARENA_BYTES (1280u * 1024u)

typedef union hs_test_arena_u {
    double d;                                /* alignment for reals and pointers */
    long long ll;
    unsigned char b[HS_TEST_ARENA_BYTES];
} hs_test_arena_u;

extern hs_test_arena_u hs_test_arena; /* defined in test_sparse.c */

#endif
