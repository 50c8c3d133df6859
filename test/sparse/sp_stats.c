/* sp_stats.c - build/hilstep-spstats: the sparse analysis of the chain and ladder step
 * matrices (unknowns, nonzeros of K and L, operation counts of factor and solve) against the
 * dense LU's, per model size. `hilstep-spstats [sym]` */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hs_models.h"
#include "hs_sparse.h"

int main(int argc, char **argv)
{
    const int sym = argc > 1 && !strcmp(argv[1], "sym");
    static int bbuf[1 << 16];
    printf("%-7s %5s %6s %7s %7s %10s %10s %12s %8s\n", "model", "n", "unk", "nnz(K)", "nnz(L)",
           "ops/fact", "ops/solve", "dense-LU ops", "nb");
    const char *names[2] = {"chain", "ladder"};
    const int ns[2][8] = {{8, 16, 32, 64, 128, 0}, {5, 10, 20, 40, 80, 100, 0}};
    for (int mi = 0; mi < 2; ++mi) {
        const hs_model_type *T = hs_model_find(names[mi]);
        for (int k = 0; ns[mi][k]; ++k) {
            hs_model m;
            union { hs_real r[32]; double a; } P;
            hs_model_init(&m, T, &P);
            hs_model_set_param(&m, "n", (hs_real)ns[mi][k]);
            hs_blocks b;
            T->blocks(&m, &b, bbuf, (int)(sizeof bbuf / sizeof bbuf[0]));
            hs_sparse S;
            static int tmp[4 << 20];
            hs_sparse_analyze(&S, &b, m.d.nq, m.d.nc, sym, NULL, 0, NULL, 0, tmp, sizeof tmp / sizeof tmp[0]);
            int *iw = malloc(S.need_ints * sizeof(int));
            hs_real *rw = malloc(S.need_reals * sizeof(hs_real));
            int rc = hs_sparse_analyze(&S, &b, m.d.nq, m.d.nc, sym, iw, S.need_ints, rw, S.need_reals, tmp,
                                       sizeof tmp / sizeof tmp[0]);
            const double nn = m.d.nq + m.d.nc;
            printf("%-7s %5d %6d %7d %7d %10lld %10lld %12.0f %8d %s\n", names[mi], ns[mi][k], S.n,
                   S.n + 2 * S.nnz_a, S.nnz_l, (long long)S.ops_factor, (long long)S.ops_solve,
                   2.0 * nn * nn * nn / 3.0, S.nb, rc ? "ANALYSIS FAILED" : "");
            free(iw);
            free(rw);
        }
    }
    return 0;
}
