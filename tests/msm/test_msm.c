/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* MSM and bitmap batch addition for G1 and G2, against one-by-one scalar multiplications and additions. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "cuzk/msm.h"
#include "cuzk/ff_x8.h"

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

#define G(name) cuzk_g1_##name
#define T(name) test_g1_##name
#define AFF cuzk_g1_affine_t
#define JAC cuzk_g1_jac_t
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

/* ---- GLV (cuzk_g1_msm for n <= 2^18, cuzk_g2_msm for n <= 2^20): k ≡ k1 + k2·z² -------------------------------- */

static const uint64_t GLV_Z2[4] = {0x0000000100000000ULL, 0xac45a4010001a402ULL, 0, 0};

/* The two non-trivial cube roots of unity of Fp (Montgomery form): β of cuzk_g1_affine_in_subgroup and β². (βx, y) acts
 * on G1 as [−z²] = [r − z²], so ψ(P) = (βx, −y) is [z²]P; (β²x, y) is [z² − 1]P, the eigenvalue λ = z² − 1 with
 * λ² + λ + 1 = r. */
static void test_g1_glv_endomorphism(void **state)
{
    (void)state;
    static const cuzk_fp_t beta = {{0x30f1361b798a64e8ULL, 0xf3b8ddab7ece5a2aULL, 0x16a8ca3ac61577f7ULL,
                                    0xc26a2ff874fd029bULL, 0x3636b76660701c6eULL, 0x051ba4ab241b6160ULL}};
    static const cuzk_fp_t beta2 = {{0xcd03c9e48671f071ULL, 0x5dab22461fcda5d2ULL, 0x587042afd3851b95ULL,
                                     0x8eb60ebe01bacb9eULL, 0x03f97d6e83d050d2ULL, 0x18f0206554638741ULL}};
    cuzk_fp_t t;
    cuzk_fp_mul(&t, &beta, &beta);
    assert_true(cuzk_fp_eq(&t, &beta2));
    cuzk_fp_mul(&t, &t, &beta);
    cuzk_fp_t one;
    cuzk_fp_set_one(&one);
    assert_true(cuzk_fp_eq(&t, &one));
    const uint64_t lambda[4] = {0x00000000ffffffffULL, 0xac45a4010001a402ULL, 0, 0};
    cuzk_g1_affine_t pts[8];
    test_g1_rand_points(pts, 8);
    for (int i = 0; i < 8; i++) {
        cuzk_g1_jac_t p, want;
        cuzk_g1_affine_t psi, got;
        cuzk_g1_jac_from_affine(&p, &pts[i]);
        cuzk_g1_jac_mul(&want, &p, GLV_Z2, 4);
        cuzk_fp_mul(&psi.x, &pts[i].x, &beta);
        cuzk_fp_neg(&psi.y, &pts[i].y);
        cuzk_g1_jac_to_affine(&got, &want);
        assert_true(cuzk_g1_affine_eq(&got, &psi));
        cuzk_g1_jac_mul(&want, &p, lambda, 4);
        cuzk_fp_mul(&psi.x, &pts[i].x, &beta2);
        psi.y = pts[i].y;
        cuzk_g1_jac_to_affine(&got, &want);
        assert_true(cuzk_g1_affine_eq(&got, &psi));
    }
}

/* Scalars at the edges of the split (k ≡ k1 + k2·z² with both halves balanced into (−z²/2, z²/2]): 0, 1, r − 1,
 * r − 2, z² − 1 = λ, λ ± 1, multiples of z² and their neighbours, powers of two around 2^128 and above, and the
 * thresholds where a half turns negative. Each alone, all together over distinct bases, and all on one repeated base
 * (with infinity among the bases). */
static const uint64_t GLV_EDGE[][4] = {
    {0, 0, 0, 0},
    {1, 0, 0, 0},
    {2, 0, 0, 0},
    {0xffffffff00000000ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL},
    {0xfffffffeffffffffULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL},
    {0x00000000fffffffeULL, 0xac45a4010001a402ULL, 0, 0},
    {0x00000000ffffffffULL, 0xac45a4010001a402ULL, 0, 0},
    {0x0000000100000000ULL, 0xac45a4010001a402ULL, 0, 0},
    {0x0000000100000001ULL, 0xac45a4010001a402ULL, 0, 0},
    {0x00000001ffffffffULL, 0x588b480200034804ULL, 1, 0},
    {0x0000000200000000ULL, 0x588b480200034804ULL, 1, 0},
    {0, 0x8000000000000000ULL, 0, 0},
    {0xffffffffffffffffULL, 0xffffffffffffffffULL, 0, 0},
    {0, 0, 1, 0},
    {5, 0, 0, 1},
    {0, 0, 0, 0x4000000000000000ULL},
    {0x00003039ffffffffULL, 0x1687583a4f1f8874ULL, 0x2074ULL, 0},
    {0x5555555500000000ULL, 0x713f36abaaaa1eaaULL, 0x66689d580335f2acULL, 0x26a48d1bb889d46dULL},
    /* the balancing thresholds: remainder z²/2 and z²/2 + 1, quotient z²/2 and z²/2 + 1, both above, r − 1 − z²/2 */
    {0x0000000080000000ULL, 0x5622d2008000d201ULL, 0, 0},
    {0x0000000080000001ULL, 0x5622d2008000d201ULL, 0, 0},
    {0x8000000000000000ULL, 0x0001a40200000000ULL, 0x199cec0404d0ec03ULL, 0x39f6d3a994cebea4ULL},
    {0x8000000100000000ULL, 0xac4748030001a402ULL, 0x199cec0404d0ec03ULL, 0x39f6d3a994cebea4ULL},
    {0x8000000180000001ULL, 0x026a1a0380027603ULL, 0x199cec0404d0ec04ULL, 0x39f6d3a994cebea4ULL},
    {0xfffffffe80000000ULL, 0xfd9ad2027ffd89fdULL, 0x3339d80809a1d804ULL, 0x73eda753299d7d48ULL},
};
enum { GLV_NK = sizeof GLV_EDGE / sizeof GLV_EDGE[0] };

#define GLV_EDGE_TEST(G, AFF)                                                                                          \
    static void test_##G##_glv_edge_scalars(void **state)                                                              \
    {                                                                                                                  \
        (void)state;                                                                                                   \
        AFF bases[2 * GLV_NK];                                                                                         \
        uint64_t k[2 * GLV_NK][4];                                                                                     \
        test_##G##_rand_points(bases, GLV_NK);                                                                         \
        for (size_t i = 0; i < GLV_NK; i++) test_##G##_check_msm(&bases[i], &GLV_EDGE[i], 1);                          \
        test_##G##_check_msm(bases, GLV_EDGE, GLV_NK);                                                                 \
        for (size_t i = 0; i < 2 * GLV_NK; i++) {                                                                      \
            bases[i] = bases[0];                                                                                       \
            memcpy(k[i], GLV_EDGE[i % GLV_NK], sizeof k[i]);                                                           \
        }                                                                                                              \
        cuzk_##G##_affine_set_infinity(&bases[3]);                                                                     \
        test_##G##_check_msm(bases, (const uint64_t(*)[4])k, 2 * GLV_NK);                                              \
    }
GLV_EDGE_TEST(g1, cuzk_g1_affine_t)

/* Around the switch: n = 2^18 takes the GLV path, n = 2^18 + 1 the plain one; adding a point with scalar 0, or a
 * base at infinity, must not change the result. */
static void test_g1_glv_switch(void **state)
{
    (void)state;
    const size_t n = (size_t)1 << 18;
    assert_true(cuzk_g1_msm_scratch_bytes(n, 1) >
                cuzk_g1_msm_scratch_bytes(n + 1, 1)); /* the ψ(P_i) block: GLV below */
    cuzk_g1_affine_t *bases = malloc((n + 1) * sizeof *bases);
    uint64_t(*k)[4] = malloc((n + 1) * sizeof *k);
    assert_non_null(bases);
    assert_non_null(k);
    test_g1_rand_points(bases, n + 1);
    test_g1_rand_scalars(k, n + 1);
    cuzk_g1_jac_t a, b;
    cuzk_g1_affine_t aa, ba;
    assert_int_equal(cuzk_g1_msm_raw(&a, bases, (const uint64_t(*)[4])k, n, 2), CUZK_OK);
    memset(k[n], 0, sizeof k[n]);
    assert_int_equal(cuzk_g1_msm_raw(&b, bases, (const uint64_t(*)[4])k, n + 1, 2), CUZK_OK);
    cuzk_g1_jac_to_affine(&aa, &a);
    cuzk_g1_jac_to_affine(&ba, &b);
    assert_true(cuzk_g1_affine_eq(&aa, &ba));
    k[n][0] = 12345;
    cuzk_g1_affine_set_infinity(&bases[n]);
    assert_int_equal(cuzk_g1_msm_raw(&b, bases, (const uint64_t(*)[4])k, n + 1, 1), CUZK_OK);
    cuzk_g1_jac_to_affine(&ba, &b);
    assert_true(cuzk_g1_affine_eq(&aa, &ba));
    free(bases);
    free(k);
}

#define G(name) cuzk_g2_##name
#define T(name) test_g2_##name
#define AFF cuzk_g2_affine_t
#define JAC cuzk_g2_jac_t
#define GEN_CHUNK 2048
#define BIG_N (SMALL_RUN ? 300 : 1200)
#define LOG_N (SMALL_RUN ? 6000 : 9000)
#include "msm_tests.h"

GLV_EDGE_TEST(g2, cuzk_g2_affine_t)

/* G2's GLV map (β²x, −y), with β² the square of G1's cube root of unity, is [z²] on G2: the map cuzk_g2_msm uses for
 * n <= 2^20. */
static void test_g2_glv_endomorphism(void **state)
{
    (void)state;
    static const cuzk_fp_t beta2 = {{0xcd03c9e48671f071ULL, 0x5dab22461fcda5d2ULL, 0x587042afd3851b95ULL,
                                     0x8eb60ebe01bacb9eULL, 0x03f97d6e83d050d2ULL, 0x18f0206554638741ULL}};
    cuzk_g2_affine_t pts[4];
    test_g2_rand_points(pts, 4);
    for (int i = 0; i < 4; i++) {
        cuzk_g2_jac_t p, want;
        cuzk_g2_affine_t psi, got;
        cuzk_g2_jac_from_affine(&p, &pts[i]);
        cuzk_g2_jac_mul(&want, &p, GLV_Z2, 4);
        cuzk_fp2_mul_fp(&psi.x, &pts[i].x, &beta2);
        cuzk_fp2_neg(&psi.y, &pts[i].y);
        cuzk_g2_jac_to_affine(&got, &want);
        assert_true(cuzk_g2_affine_eq(&got, &psi));
    }
}

/* The 8-lane IFMA field arithmetic of the G1 MSM (ff_x8.h, run only where the processor has AVX-512 IFMA) against
 * the scalar cuzk_fp_t functions: canonical inputs and, in some lanes, the same values plus p (the lazily reduced range
 * [p, 2p) that cuzk_fpx8_mul and cuzk_fpx8_sub produce and accept), with 0, 1, p − 1 and 2p − 1 among them. */
#ifdef CUZK_FPX8
CUZK_FPX8_TARGET static void fp_x8_check(void)
{
    const __m512i lane = _mm512_set_epi64(7 * 48, 6 * 48, 5 * 48, 4 * 48, 3 * 48, 2 * 48, 48, 0);
    for (int it = 0; it < 2000; it++) {
        cuzk_fp_t a[8], b[8], ar[8], br[8], got[8];
        for (int l = 0; l < 8; l++) {
            test_rand_fp(&a[l]);
            test_rand_fp(&b[l]);
        }
        if (it == 0) {
            memset(&a[0], 0, sizeof a[0]);
            cuzk_fp_set_one(&b[1]);
            cuzk_fp_set_one(&a[2]);
            cuzk_fp_neg(&a[2], &a[2]);
            cuzk_fp_sub(&a[3], &a[3], &a[3]);
            cuzk_fp_set_one(&b[3]);
            cuzk_fp_neg(&b[3], &b[3]); /* with + p below: 2p − 1 */
        }
        /* raw words: lanes 3..7 of a and odd lanes of b hold value + p */
        for (int l = 0; l < 8; l++) {
            ar[l] = a[l];
            br[l] = b[l];
            for (int v = 0; v < 2; v++) {
                cuzk_fp_t *x = v ? &br[l] : &ar[l];
                if (v ? (l & 1) == 0 : l < 3) continue;
                unsigned __int128 c = 0;
                for (int k = 0; k < CUZK_FP_LIMBS; k++) {
                    c += (unsigned __int128)x->l[k] + CUZK_FP_MODULUS[k];
                    x->l[k] = (uint64_t)c;
                    c >>= 64;
                }
            }
        }
        cuzk_fpx8 A, B, R;
        cuzk_fpx8_gather(&A, ar, lane);
        cuzk_fpx8_gather(&B, br, lane);
        cuzk_fpx8_mul(&R, &A, &B);
        cuzk_fpx8_canon(&R, &R);
        cuzk_fpx8_scatter(got, 0xff, lane, &R);
        for (int l = 0; l < 8; l++) {
            cuzk_fp_t want;
            cuzk_fp_mul(&want, &a[l], &b[l]);
            assert_memory_equal(&got[l], &want, sizeof want);
        }
        cuzk_fpx8_sub(&R, &A, &B);
        cuzk_fpx8_canon(&R, &R);
        cuzk_fpx8_scatter(got, 0xff, lane, &R);
        for (int l = 0; l < 8; l++) {
            cuzk_fp_t want;
            cuzk_fp_sub(&want, &a[l], &b[l]);
            assert_memory_equal(&got[l], &want, sizeof want);
        }
        /* a chain of products stays in range */
        cuzk_fpx8_mul(&R, &A, &B);
        for (int k = 0; k < 5; k++) cuzk_fpx8_mul(&R, &R, &R);
        cuzk_fpx8_canon(&R, &R);
        cuzk_fpx8_scatter(got, 0xff, lane, &R);
        for (int l = 0; l < 8; l++) {
            cuzk_fp_t want;
            cuzk_fp_mul(&want, &a[l], &b[l]);
            for (int k = 0; k < 5; k++) cuzk_fp_sqr(&want, &want);
            assert_memory_equal(&got[l], &want, sizeof want);
        }
    }
}
#endif

static void test_fp_x8(void **state)
{
    (void)state;
#ifdef CUZK_FPX8
    if (cuzk_cpu_path_get() >= CUZK_CPU_IFMA) {
        fp_x8_check();
        return;
    }
#endif
    skip(); /* the processor (or CUZK_CPU_PATH) has no IFMA path */
}

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
            size_t b1 = cuzk_g1_msm_scratch_bytes(n, threads[t]), b2 = cuzk_g2_msm_scratch_bytes(n, threads[t]);
            assert_true(b1 >= (n + 1) * 32 && b2 >= (n + 1) * 32); /* the scalar copy at least */
            if (b1 > max1) max1 = b1;
            if (b2 > max2) max2 = b2;
            assert_true(cuzk_g1_msm_scratch_bytes_upto(n, threads[t]) >= max1);
            assert_true(cuzk_g2_msm_scratch_bytes_upto(n, threads[t]) >= max2);
            if (n % 97 == 0) {
                assert_true(cuzk_g1_batch_add_scratch_bytes(n, threads[t]) >=
                            cuzk_g1_batch_add_scratch_bytes(n - 1, threads[t]));
                assert_true(cuzk_g2_batch_add_scratch_bytes(n, threads[t]) >=
                            cuzk_g2_batch_add_scratch_bytes(n - 1, threads[t]));
            }
        }
    }
    assert_int_equal(cuzk_g1_msm_scratch_bytes(0, 1), 0);
    assert_int_equal(cuzk_g2_msm_scratch_bytes(0, 4), 0);
}

int main(void)
{
    test_seed_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_g1_msm_random),
        cmocka_unit_test(test_g1_msm_big),
        cmocka_unit_test(test_g1_msm_edges),
        cmocka_unit_test(test_g1_msm_overflowing_bucket),
        cmocka_unit_test(test_g1_msm_rejects),
        cmocka_unit_test(test_g1_batch_add),
        cmocka_unit_test(test_g1_msm_known_logs),
        cmocka_unit_test(test_g1_glv_endomorphism),
        cmocka_unit_test(test_g1_glv_edge_scalars),
        cmocka_unit_test(test_g1_glv_switch),
        cmocka_unit_test(test_g2_msm_random),
        cmocka_unit_test(test_g2_msm_big),
        cmocka_unit_test(test_g2_msm_edges),
        cmocka_unit_test(test_g2_msm_overflowing_bucket),
        cmocka_unit_test(test_g2_msm_rejects),
        cmocka_unit_test(test_g2_batch_add),
        cmocka_unit_test(test_g2_msm_known_logs),
        cmocka_unit_test(test_g2_glv_endomorphism),
        cmocka_unit_test(test_g2_glv_edge_scalars),
        cmocka_unit_test(test_scratch_bytes),
        cmocka_unit_test(test_fp_x8),
    };
    return cmocka_run_group_tests_name("msm", tests, NULL, NULL);
}
