/* test_dense.c - the LU against hand-computed solutions and its singular detection. */
#include "hs_dense.h"
#include "hs_test.h"
#include "tutil.h"

void test_dense(void)
{
    /* A KKT-shaped matrix with a zero diagonal block: needs the row pivoting. */
    hs_real A[9] = {2, 0, 1, 0, 2, 1, 1, 1, 0};
    hs_real b[3] = {1, 3, 1};
    int piv[3];
    CHECK(hs_lu_factor(A, piv, 3) == HS_OK);
    hs_lu_solve(A, piv, 3, b);
    /* exact solution of [[2,0,1],[0,2,1],[1,1,0]] x = (1,3,1): x = (0, 1, 1) */
    CHECK_RANGE(b[0], -1e-6, 1e-6);
    CHECK_RANGE(b[1], 1 - 1e-6, 1 + 1e-6);
    CHECK_RANGE(b[2], 1 - 1e-6, 1 + 1e-6);

    /* Rank 1: refused, as is a matrix holding a NaN. */
    hs_real S[4] = {1, 2, 2, 4};
    CHECK(hs_lu_factor(S, piv, 2) == HS_E_SINGULAR);
    hs_real N[4] = {1, 0, 0, 1};
    N[3] = N[3] * (hs_real)__builtin_nan("");
    CHECK(hs_lu_factor(N, piv, 2) == HS_E_SINGULAR);
    hs_real Z[4] = {0, 0, 0, 0};
    CHECK(hs_lu_factor(Z, piv, 2) == HS_E_SINGULAR);

    /* 4x4 with known inverse action: A = I + ones, A^{-1} = I - ones/5 */
    hs_real B[16], x[4] = {1, 2, 3, 4};
    int p4[4];
    for (int i = 0; i < 16; ++i) B[i] = (i % 5 == 0) ? 2 : 1;
    CHECK(hs_lu_factor(B, p4, 4) == HS_OK);
    hs_lu_solve(B, p4, 4, x);
    for (int i = 0; i < 4; ++i) CHECK_RANGE(x[i], (i + 1) - 2.0 - 1e-5, (i + 1) - 2.0 + 1e-5);
}
