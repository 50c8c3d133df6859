/* tarena.h - one static arena shared by the unit tests with the largest working sets
 * (test_sparse.c, test_sparse_step.c). They run one after the other, so sharing costs nothing on
 * the host and keeps the Cortex-M7 unit image (double, every generated description linked) inside
 * the board's 4 MiB of data RAM. Each user clears its part on entry. */
#ifndef TARENA_H
#define TARENA_H

#define HS_TEST_ARENA_BYTES (1400u * 1024u)

typedef union hs_test_arena_u {
    double d;                                /* alignment for reals and pointers */
    long long ll;
    unsigned char b[HS_TEST_ARENA_BYTES];
} hs_test_arena_u;

extern hs_test_arena_u hs_test_arena; /* defined in test_sparse.c */

#endif
