/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The GPU's plain-C Montgomery multiplications are checked here, on any machine, against the CPU field layer:
 *   - the parity-split multiplication, squaring and Fp2 multiplication (src/gpu/ff/mont_eo.h) and the binary-GCD
 *     inversion (src/gpu/ff/inv_bgcd.h): the product's;
 *   - the lab's: 28-bit digits (src/gpu/lab/mont28.h), 32-bit words with 64-bit steps (src/gpu/lab/mont32w.h), a·b +
 *     c·d with one reduction (src/gpu/lab/mont_eo_sum.h), Fr and Fp in double precision (src/gpu/lab/mont_f64.h).
 * The same canonical product, bit for bit, for Fp and Fr, on fresh random inputs and on the values where digit and
 * column bounds are tightest (0, 1, m − 1, R mod m, the largest values below m with all low digits set). */
#include "testutil.h"
#include "gpu_host_test.h"
#include "ff/inv_bgcd.h"
#include "ff/mont_eo.h"
#include "lab/mont28.h"
#include "lab/mont32w.h"
#include "lab/mont_eo_sum.h"
#include "lab/mont_f64.h"

#include <string.h>

#define ITER 200000

static void cuzk_fp_edges(cuzk_fp_t *e, int *n)
{
    cuzk_fp_t one, mone;
    cuzk_fp_set_one(&one);
    cuzk_fp_neg(&mone, &one);
    int k = 0;
    cuzk_fp_set_zero(&e[k++]);
    e[k++] = one;
    e[k++] = mone;                /* p − 1 in Montgomery form is −1; its canonical bytes are R·(p−1) mod p */
    cuzk_fp_from_u64(&e[k++], 1); /* same as one */
    cuzk_fp_from_u64(&e[k++], 0xfffffffffffffffULL);
    cuzk_fp_t t;
    cuzk_fp_sub(&t, &mone, &one); /* −2 */
    e[k++] = t;
    /* raw bytes p − 1 and p − 2^k: the largest canonical values */
    static const uint64_t p[6] = {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL, 0x6730d2a0f6b0f624ULL,
                                  0x64774b84f38512bfULL, 0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};
    for (int s = 0; s < 3; s++) {
        uint64_t v[6];
        memcpy(v, p, sizeof v);
        v[0] -= (uint64_t)1 << (s * 20);
        memcpy(&e[k++], v, sizeof v);
    }
    *n = k;
}

/* every plain-C Montgomery multiplication of the GPU code (mont28.h, mont32w.h, mont_eo.h, mont_f64.h) */
typedef void (*gpu_mont_mul)(int f, uint32_t *r, const uint32_t *a, const uint32_t *b);
static const gpu_mont_mul gpu_muls[] = {m28_mul, mw_mul_sos, eo_mul, f64_mul};

/* each of them on a and b (words of field f) against want, the CPU's product */
static void check_muls(int f, const void *want, const void *a, const void *b, size_t bytes)
{
    uint32_t got[12];
    for (size_t i = 0; i < sizeof gpu_muls / sizeof gpu_muls[0]; i++) {
        gpu_muls[i](f, got, (const uint32_t *)a, (const uint32_t *)b);
        assert_memory_equal(want, got, bytes);
    }
}

static void check_fp(const cuzk_fp_t *a, const cuzk_fp_t *b)
{
    cuzk_fp_t want, got;
    cuzk_fp_mul(&want, a, b);
    check_muls(MONT_FP, &want, a, b, sizeof want);
    cuzk_fp_t c, d, cd; /* a·b + c·d with one reduction, c = b², d = a + b (both sums near 2p² at the edge values) */
    cuzk_fp_sqr(&c, b);
    cuzk_fp_add(&d, a, b);
    cuzk_fp_mul(&cd, &c, &d);
    cuzk_fp_add(&want, &want, &cd);
    eo_mul_add(MONT_FP, (uint32_t *)&got, (const uint32_t *)a, (const uint32_t *)b, (const uint32_t *)&c,
               (const uint32_t *)&d);
    assert_memory_equal(&want, &got, sizeof want);
}

/* what depends on a alone: the squaring and the binary-GCD inversion, once per value */
static void check_fp_one(const cuzk_fp_t *a)
{
    cuzk_fp_t want, got;
    cuzk_fp_inv(&want, a); /* 0 gives 0 */
    assert_int_equal(bg_inv((uint32_t *)&got, (const uint32_t *)a), 1);
    assert_memory_equal(&want, &got, sizeof want);
    /* too few batches are reported, never answered: 381-bit inputs need more than 5 */
    uint32_t plain[12];
    if (!cuzk_fp_is_zero(a)) assert_int_equal(bg_inv_plain(plain, (const uint32_t *)a, 5), 0);
    cuzk_fp_mul(&want, a, a);
    eo_sqr(MONT_FP, (uint32_t *)&got, (const uint32_t *)a);
    assert_memory_equal(&want, &got, sizeof want);
}

/* the Fp2 product with one reduction per coefficient, its sums a0 + a1 at their largest when the inputs are */
static void check_fp2(const cuzk_fp2_t *a, const cuzk_fp2_t *b)
{
    cuzk_fp2_t want, got;
    cuzk_fp2_mul(&want, a, b);
    eo_fp2_mul((uint32_t *)&got.c0, (uint32_t *)&got.c1, (const uint32_t *)&a->c0, (const uint32_t *)&a->c1,
               (const uint32_t *)&b->c0, (const uint32_t *)&b->c1);
    assert_memory_equal(&want, &got, sizeof want);
}

static void check_fr(const cuzk_fr_t *a, const cuzk_fr_t *b)
{
    cuzk_fr_t want, got;
    cuzk_fr_mul(&want, a, b);
    check_muls(MONT_FR, &want, a, b, sizeof want);
    cuzk_fr_mul(&want, a, a);
    eo_sqr(MONT_FR, (uint32_t *)&got, (const uint32_t *)a);
    assert_memory_equal(&want, &got, sizeof want);
}

static void test_fp_random(void **state)
{
    (void)state;
    for (int i = 0; i < ITER; i++) {
        cuzk_fp_t a, b;
        test_rand_fp(&a);
        test_rand_fp(&b);
        check_fp(&a, &b);
        check_fp(&a, &a); /* squaring goes through the same routine on the GPU */
        check_fp_one(&a);
    }
}

static void test_fp_edges(void **state)
{
    (void)state;
    cuzk_fp_t e[16], r;
    int n;
    cuzk_fp_edges(e, &n);
    for (int i = 0; i < n; i++) {
        check_fp_one(&e[i]);
        for (int j = 0; j < n; j++) check_fp(&e[i], &e[j]);
        for (int k = 0; k < 1000; k++) {
            test_rand_fp(&r);
            check_fp(&e[i], &r);
            check_fp(&r, &e[i]);
            check_fp_one(&r);
        }
    }
    /* r aliases an input */
    cuzk_fp_t a, b, want;
    test_rand_fp(&a);
    test_rand_fp(&b);
    cuzk_fp_mul(&want, &a, &b);
    m28_mul(MONT_FP, (uint32_t *)&a, (const uint32_t *)&a, (const uint32_t *)&b);
    assert_memory_equal(&want, &a, sizeof want);
}

/* the binary-GCD inversion where its approximations change shape: inputs 2^k, 2^k − 1 and p − 2^k for every k, so
 * that the longer length n crosses every word boundary (the top 33 bits taken from one or two words) and the short
 * path (n ≤ 64) starts at every size */
static void test_fp_inv_bgcd_shapes(void **state)
{
    (void)state;
    static const uint32_t p[12] = {0xffffaaab, 0xb9feffff, 0xb153ffff, 0x1eabfffe, 0xf6b0f624, 0x6730d2a0,
                                   0xf38512bf, 0x64774b84, 0x434bacd7, 0x4b1ba7b6, 0x397fe69a, 0x1a0111ea};
    for (int k = 0; k < 381; k++) {
        for (int shape = 0; shape < 3; shape++) {
            uint32_t y[12] = {0};
            y[k >> 5] = 1u << (k & 31); /* 2^k */
            if (shape == 1) {           /* 2^k − 1 */
                for (int i = 0; i < 12; i++) {
                    uint32_t was = y[i];
                    y[i] = was - 1;
                    if (was != 0) break;
                }
            } else if (shape == 2) { /* p − 2^k */
                uint64_t borrow = 0;
                for (int i = 0; i < 12; i++) {
                    uint64_t d = (uint64_t)p[i] - y[i] - borrow;
                    y[i] = (uint32_t)d;
                    borrow = (d >> 32) & 1;
                }
            }
            cuzk_fp_t a, want, got;
            memcpy(&a, y, sizeof a);
            cuzk_fp_inv(&want, &a);
            assert_int_equal(bg_inv((uint32_t *)&got, y), 1);
            assert_memory_equal(&want, &got, sizeof want);
        }
    }
}

static void test_fp2(void **state)
{
    (void)state;
    cuzk_fp2_t a, b;
    for (int i = 0; i < ITER / 4; i++) {
        test_rand_fp2(&a);
        test_rand_fp2(&b);
        check_fp2(&a, &b);
        check_fp2(&a, &a);
    }
    /* coefficients from the edge values: a0b0 < a1b1 (the p² added to c0), both sums near 2p, zeros */
    cuzk_fp_t e[16];
    int n;
    cuzk_fp_edges(e, &n);
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            a.c0 = e[i], a.c1 = e[j], b.c0 = e[j], b.c1 = e[i];
            check_fp2(&a, &b);
            check_fp2(&a, &a);
            test_rand_fp2(&b);
            check_fp2(&a, &b);
        }
    }
    /* the results may alias the inputs */
    test_rand_fp2(&a);
    test_rand_fp2(&b);
    cuzk_fp2_t want;
    cuzk_fp2_mul(&want, &a, &b);
    eo_fp2_mul((uint32_t *)&a.c0, (uint32_t *)&a.c1, (const uint32_t *)&a.c0, (const uint32_t *)&a.c1,
               (const uint32_t *)&b.c0, (const uint32_t *)&b.c1);
    assert_memory_equal(&want, &a, sizeof want);
}

static void test_fr_random_and_edges(void **state)
{
    (void)state;
    for (int i = 0; i < ITER; i++) {
        cuzk_fr_t a, b;
        test_rand_fr(&a);
        test_rand_fr(&b);
        check_fr(&a, &b);
        check_fr(&a, &a);
        /* a low word of 0 makes a reduction row's q zero with the other words not (Fr's special row, mont_eo.h) */
        memset(&a, 0, sizeof(uint32_t));
        check_fr(&a, &b);
        check_fr(&b, &a);
        check_fr(&a, &a);
    }
    cuzk_fr_t e[8], one, r;
    cuzk_fr_set_zero(&e[0]);
    cuzk_fr_set_one(&one);
    e[1] = one;
    cuzk_fr_neg(&e[2], &one);
    static const uint64_t m[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL,
                                  0x73eda753299d7d48ULL};
    for (int s = 0; s < 3; s++) {
        uint64_t v[4];
        memcpy(v, m, sizeof v);
        v[0] -= (uint64_t)1 << (s * 20);
        memcpy(&e[3 + s], v, sizeof v);
    }
    for (int i = 0; i < 6; i++) {
        for (int j = 0; j < 6; j++) check_fr(&e[i], &e[j]);
        for (int k = 0; k < 1000; k++) {
            test_rand_fr(&r);
            check_fr(&e[i], &r);
        }
    }
}

int main(void)
{
    test_seed_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fp_random),           cmocka_unit_test(test_fp_edges),
        cmocka_unit_test(test_fr_random_and_edges), cmocka_unit_test(test_fp2),
        cmocka_unit_test(test_fp_inv_bgcd_shapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL) + run_witness_pack_tests();
}
