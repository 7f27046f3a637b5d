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
    };
    return cmocka_run_group_tests_name("msm", tests, NULL, NULL);
}
