/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Every CPU path the processor has (base.h) computes the tower and the pairing limb for limb as the portable path
 * does: products, squares, sparse line products, inverses, the compressed cyclotomic power, Miller loops (fresh and
 * prepared lines, one pair and several) and the final exponentiation. */
#include <string.h>

#include "test_pairing.h"

#define ITER 10
#define PAIRS 4

typedef struct {
    cuzk_fp12_t mul, sqr, l014, l014_014, inv, cyc_sqr, cyc_pow;
    cuzk_fp6_t mul6, inv6;
    cuzk_fp12_t miller, miller_n, miller_prep, e, multi;
} path_results;

static void run_all(path_results *o, const cuzk_fp12_t *a, const cuzk_fp12_t *b, const cuzk_g1_affine_t *p,
                    const cuzk_g2_affine_t *q, const cuzk_g2_prepared_t *prep)
{
    memset(o, 0, sizeof *o);
    cuzk_fp12_mul(&o->mul, a, b);
    cuzk_fp12_sqr(&o->sqr, a);
    cuzk_fp12_mul_by_014(&o->l014, a, &b->c0.c0, &b->c0.c1, &b->c1.c1);
    const cuzk_fp2_t l[3] = {b->c0.c0, b->c0.c1, b->c1.c1}, m[3] = {b->c0.c2, b->c1.c0, b->c1.c2};
    cuzk_fp12_mul_by_014_014(&o->l014_014, a, l, m);
    cuzk_fp12_inv(&o->inv, a);
    cuzk_fp6_mul(&o->mul6, &a->c0, &b->c1);
    cuzk_fp6_inv(&o->inv6, &b->c0);
    cuzk_miller_loop(&o->miller, p, q, 1);
    cuzk_final_exponentiation(&o->e, &o->miller);
    cuzk_fp12_cyclotomic_sqr(&o->cyc_sqr, &o->e);
    const uint64_t ex[2] = {0xd201000000010000ULL, 0x123456789abcdefULL};
    cuzk_fp12_cyclotomic_pow_vartime(&o->cyc_pow, &o->e, ex, 2);
    cuzk_miller_loop(&o->miller_n, p, q, PAIRS);
    cuzk_miller_loop_prepared(&o->miller_prep, p, prep, PAIRS);
    cuzk_multi_pairing(&o->multi, p, q, PAIRS);
}

static void test_paths_agree(void **state)
{
    (void)state;
    cuzk_cpu_path saved = cuzk_cpu_path_get();
    cuzk_g2_prepared_t *prep = test_malloc(PAIRS * sizeof *prep);
    for (int it = 0; it < ITER; it++) {
        cuzk_fp12_t a, b;
        rand_fp12(&a);
        rand_fp12(&b);
        cuzk_g1_affine_t p[PAIRS], g1;
        cuzk_g2_affine_t q[PAIRS], g2;
        cuzk_g1_generator(&g1);
        cuzk_g2_generator(&g2);
        for (int i = 0; i < PAIRS; i++) {
            uint64_t k[2] = {test_rand_u64(), test_rand_u64()};
            cuzk_g1_jac_t j1;
            cuzk_g2_jac_t j2;
            cuzk_g1_jac_from_affine(&j1, &g1);
            cuzk_g1_jac_mul(&j1, &j1, k, 2);
            cuzk_g1_jac_to_affine(&p[i], &j1);
            cuzk_g2_jac_from_affine(&j2, &g2);
            cuzk_g2_jac_mul(&j2, &j2, k + 1, 1);
            cuzk_g2_jac_to_affine(&q[i], &j2);
        }
        if (it == 1) cuzk_g1_affine_set_infinity(&p[2]); /* a pair that contributes 1 */
        for (int i = 0; i < PAIRS; i++) cuzk_g2_prepare(&prep[i], &q[i]);
        path_results want, got;
        for (unsigned path = CUZK_CPU_PORTABLE; path <= cuzk_cpu_path_best(); path++) {
            assert_int_equal(cuzk_cpu_path_set((cuzk_cpu_path)path), CUZK_OK);
            run_all(path == CUZK_CPU_PORTABLE ? &want : &got, &a, &b, p, q, prep);
            if (path != CUZK_CPU_PORTABLE) assert_memory_equal(&got, &want, sizeof got);
        }
    }
    test_free(prep);
    assert_int_equal(cuzk_cpu_path_set(saved), CUZK_OK);
}

const struct CMUnitTest path_tests[] = {
    cmocka_unit_test(test_paths_agree),
};
const size_t path_tests_count = sizeof path_tests / sizeof path_tests[0];
