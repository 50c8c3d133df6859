/* hs_test_list.h - the unit suite: every unit test, one row each, in the order they run.
 * A test is void test_NAME(void) in one of test/unit/test_*.c (the build takes every file
 * there) plus its row here; the host (test/host_main.c) and the board (test/qemu/unit_main.c)
 * run this table. */
#ifndef HS_TEST_LIST_H
#define HS_TEST_LIST_H

#include "hs_test.h"

#define HS_UNIT_TESTS(X) \
    X(dense) \
    X(math) \
    X(atan2) \
    X(stability) \
    X(car_axle) \
    X(drift) \
    X(circular_track) \
    X(pendulum) \
    X(reject) \
    X(hash) \
    X(sparse) \
    X(sparse_step) \
    X(sparse_masks) \
    X(sparse_schur) \
    X(sparse_leaf) \
    X(redundant) \
    X(models) \
    X(methods) \
    X(dvp) \
    X(method_list) \
    X(workspace) \
    X(range)

#define HS_UNIT_DECLARE(name) void test_##name(void);
HS_UNIT_TESTS(HS_UNIT_DECLARE)
#undef HS_UNIT_DECLARE

#define HS_UNIT_ROW(name) { #name, test_##name },
static const hs_test_case hs_unit_tests[] = { HS_UNIT_TESTS(HS_UNIT_ROW) };
#undef HS_UNIT_ROW

#endif
