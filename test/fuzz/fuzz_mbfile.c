/* fuzz_mbfile.c - libFuzzer harness of the .hsm multibody description parser and compiler
 * (model/lang/hs_mb_parse.c: hs_mb_parse_compile, the buffer entry point hilstep-sim's
 * --model-file uses after reading the file).
 *
 * Input: byte 0 bit 0 selects packed (block-sparse) compilation; the rest is the file text.
 * Checked invariants (abort on violation): a refusal carries a static message, a line >= 0
 * and a terminated field; an accepted description gives a model whose sizes are within the
 * HS_MB_MAX_* capacities and that a stepper initializes from and steps once (or refuses with
 * a status, never a crash or UB), and whose outputs evaluate. */
#include "hs_mb_parse.h"
#include "hs_stepper.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void require(int ok)
{
    if (!ok) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static hs_mb_store st;
    static hs_mb_model mb;
    static hs_real reals[HS_STEPPER_REALS(HS_MB_MAX_NQ, HS_MB_MAX_NC, HS_MB_MAX_NZ)];
    static int ints[HS_STEPPER_INTS(HS_MB_MAX_NQ, HS_MB_MAX_NC)];
    static _Alignas(16) unsigned char pblock[4096];
    if (size < 1) return 0;
    const int packed = data[0] & 1;
    hs_mb_error err;
    memset(&err, 0, sizeof err);
    int rc = hs_mb_parse_compile((const char *)data + 1, size - 1, &st, &mb, packed, &err);
    if (rc != HS_OK) {
        require(err.msg != NULL && err.msg[0] != '\0' && err.line >= 0);
        require(memchr(err.field, '\0', sizeof err.field) != NULL);
        return 0;
    }
    const hs_model_type *T = &mb.type;
    require(T->nq >= 1 && T->nq <= HS_MB_MAX_NQ && T->nc >= 0 && T->nc <= HS_MB_MAX_NC);
    require(T->nin >= 0 && T->nin <= HS_MB_MAX_NIN && T->nout >= 0 && T->nout <= HS_MB_MAX_NOUT);
    if (T->param_size > sizeof pblock) return 0;
    hs_model m;
    if (hs_model_init(&m, T, pblock) != HS_OK) return 0;
    m.desc = &mb;
    if (hs_model_check(&m) != HS_OK) return 0;
    hs_stepper s;
    hs_stepper_def d = hs_stepper_default_def();
    if (hs_stepper_init(&s, &d, &m, HS_R(0.0), reals, sizeof reals / sizeof reals[0], ints,
                        sizeof ints / sizeof ints[0]) != HS_OK)
        return 0;
    hs_real in[HS_MB_MAX_NIN];
    memset(in, 0, sizeof in);
    (void)hs_stepper_step(&s, in);
    if (T->output != NULL) { /* outputs (acc lines evaluate the forces) of the stepped state */
        hs_real y[HS_MB_MAX_NOUT];
        (void)T->output(&m, s.t, s.q, s.u, NULL, in, y);
    }
    return 0;
}
