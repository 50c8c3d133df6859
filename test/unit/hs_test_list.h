/* hs_test_list.h - the one list of unit tests, in the order they run: HS_TEST(name) stands for
 * void test_name(void), defined in one of test/unit/test_*.c. hs_test.h declares them and
 * hs_test.c runs them from this list, so a new test is its function plus one line here.
 * No include guard: included once per meaning of HS_TEST. */
HS_TEST(dense)
HS_TEST(math)
HS_TEST(atan2)
HS_TEST(stability)
HS_TEST(car_axle)
HS_TEST(drift)
HS_TEST(circular_track)
HS_TEST(pendulum)
HS_TEST(reject)
HS_TEST(hash)
HS_TEST(sparse)
HS_TEST(sparse_step)
HS_TEST(sparse_masks)
HS_TEST(sparse_schur)
HS_TEST(redundant)
HS_TEST(models)
HS_TEST(issue8)
HS_TEST(dvp)
HS_TEST(workspace)
HS_TEST(range)
