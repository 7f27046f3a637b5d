/* MSM and bitmap batch addition for G1 and G2, against one-by-one scalar multiplications and additions. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "cuzk/msm.h"

/* Sanitized builds run the same tests on smaller inputs. */
#if defined(__SANITIZE_ADDRESS__)
#define SMALL_RUN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SMALL_RUN 1
#endif
#endif
#ifndef SMALL_RUN
#define SMALL_RUN 0
#endif

#define G(name) g1_##name
#define T(name) test_g1_##name
#define AFF g1_affine_t
#define JAC g1_jac_t
#define GEN_CHUNK 4096
#define BIG_N (SMALL_RUN ? 700 : 3000)
#define LOG_N (SMALL_RUN ? 9000 : 20000)
#include "msm_tests.h"
#undef G
#undef T
#undef AFF
#undef JAC
#undef GEN_CHUNK
#undef BIG_N
#undef LOG_N

#define G(name) g2_##name
#define T(name) test_g2_##name
#define AFF g2_affine_t
#define JAC g2_jac_t
#define GEN_CHUNK 2048
#define BIG_N (SMALL_RUN ? 300 : 1200)
#define LOG_N (SMALL_RUN ? 6000 : 9000)
#include "msm_tests.h"

/* The _upto bound covers every smaller count (the exact scratch is not monotone: fewer points may pick a narrower
 * window with more task sums), and the scratch figures are what the calls need: 0 for nothing to do. */
static void test_scratch_bytes(void **state)
{
    (void)state;
    static const unsigned threads[] = {1, 2, 3, 4, 8, 16};
    const size_t limit = SMALL_RUN ? 3000 : 20000;
    for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
        size_t max1 = 0, max2 = 0;
        for (size_t n = 1; n <= limit; n++) {
            size_t b1 = g1_msm_scratch_bytes(n, threads[t]), b2 = g2_msm_scratch_bytes(n, threads[t]);
            assert_true(b1 >= (n + 1) * 32 && b2 >= (n + 1) * 32); /* the scalar copy at least */
            if (b1 > max1) max1 = b1;
            if (b2 > max2) max2 = b2;
            assert_true(g1_msm_scratch_bytes_upto(n, threads[t]) >= max1);
            assert_true(g2_msm_scratch_bytes_upto(n, threads[t]) >= max2);
            if (n % 97 == 0) {
                assert_true(g1_batch_add_scratch_bytes(n, threads[t]) >= g1_batch_add_scratch_bytes(n - 1, threads[t]));
                assert_true(g2_batch_add_scratch_bytes(n, threads[t]) >= g2_batch_add_scratch_bytes(n - 1, threads[t]));
            }
        }
    }
    assert_int_equal(g1_msm_scratch_bytes(0, 1), 0);
    assert_int_equal(g2_msm_scratch_bytes(0, 4), 0);
}

int main(void)
{
    test_seed_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_g1_msm_random),   cmocka_unit_test(test_g1_msm_big),
        cmocka_unit_test(test_g1_msm_edges),    cmocka_unit_test(test_g1_msm_overflowing_bucket),
        cmocka_unit_test(test_g1_msm_rejects),  cmocka_unit_test(test_g1_batch_add),
        cmocka_unit_test(test_g1_msm_known_logs),
        cmocka_unit_test(test_g2_msm_random),   cmocka_unit_test(test_g2_msm_big),
        cmocka_unit_test(test_g2_msm_edges),    cmocka_unit_test(test_g2_msm_overflowing_bucket),
        cmocka_unit_test(test_g2_msm_rejects),  cmocka_unit_test(test_g2_batch_add),
        cmocka_unit_test(test_g2_msm_known_logs),
        cmocka_unit_test(test_scratch_bytes),
    };
    return cmocka_run_group_tests_name("msm", tests, NULL, NULL);
}
