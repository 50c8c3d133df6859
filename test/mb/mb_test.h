/* mb_test.h - the multibody suite's checks (host, hosted C). */
#ifndef MB_TEST_H
#define MB_TEST_H
/* Prints "ok|FAIL <what>" and returns 1 on failure. */
int mb_check(int ok, const char *what);
int mb_test_deriv(void);
/* rt: build/hilstep-rt (may be NULL) for the one-exit-status check */
int mb_test_mech(const char *dir, const char *sim, const char *gen, const char *rt);
/* method dvp on seed 002's cases (test_mb_dvp.c) */
int mb_test_dvp(const char *dir);
/* Generated tables (make mb-gen) up to date with dir's descriptions, and their bits on the host. */
int mb_test_gen(const char *dir, const char *gen);
#endif
