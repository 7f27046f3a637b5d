/* Fp, Fr and Fp2: algebraic laws on fresh random inputs, known answers, and every rejection path of decoding.
 * Component-by-component agreement with an independent implementation is checked by the noble oracle test. */
#include "testutil.h"
#include "../../src/ff/ff_internal.h"

#include <string.h>

#define ITER 200

static void test_fp_ring_laws(void **state)
{
    (void)state;
    for (int i = 0; i < ITER; i++) {
        fp_t a, b, c, t0, t1, t2;
        test_rand_fp(&a);
        test_rand_fp(&b);
        test_rand_fp(&c);
        /* (a + b)·c = a·c + b·c */
        fp_add(&t0, &a, &b);
        fp_mul(&t0, &t0, &c);
        fp_mul(&t1, &a, &c);
        fp_mul(&t2, &b, &c);
        fp_add(&t1, &t1, &t2);
        assert_true(fp_eq(&t0, &t1));
        /* a − b + b = a, a + (−a) = 0, 2a = a + a, a² = a·a */
        fp_sub(&t0, &a, &b);
        fp_add(&t0, &t0, &b);
        assert_true(fp_eq(&t0, &a));
        fp_neg(&t0, &a);
        fp_add(&t0, &t0, &a);
        assert_true(fp_is_zero(&t0));
        fp_dbl(&t0, &a);
        fp_add(&t1, &a, &a);
        assert_true(fp_eq(&t0, &t1));
        fp_sqr(&t0, &a);
        fp_mul(&t1, &a, &a);
        assert_true(fp_eq(&t0, &t1));
        /* both inverses agree and invert */
        fp_inv(&t0, &a);
        fp_inv_vartime(&t1, &a);
        assert_true(fp_eq(&t0, &t1));
        fp_mul(&t0, &t0, &a);
        assert_true(fp_is_one(&t0));
    }
}

static void test_fr_ring_laws(void **state)
{
    (void)state;
    for (int i = 0; i < ITER; i++) {
        fr_t a, b, c, t0, t1, t2;
        test_rand_fr(&a);
        test_rand_fr(&b);
        test_rand_fr(&c);
        fr_add(&t0, &a, &b);
        fr_mul(&t0, &t0, &c);
        fr_mul(&t1, &a, &c);
        fr_mul(&t2, &b, &c);
        fr_add(&t1, &t1, &t2);
        assert_true(fr_eq(&t0, &t1));
        fr_sub(&t0, &a, &b);
        fr_add(&t0, &t0, &b);
        assert_true(fr_eq(&t0, &a));
        fr_neg(&t0, &a);
        fr_add(&t0, &t0, &a);
        assert_true(fr_is_zero(&t0));
        fr_inv(&t0, &a);
        fr_inv_vartime(&t1, &a);
        assert_true(fr_eq(&t0, &t1));
        fr_mul(&t0, &t0, &a);
        assert_true(fr_is_one(&t0));
    }
}

static void test_small_integers(void **state)
{
    (void)state;
    fp_t a, b, c;
    fp_from_u64(&a, 6);
    fp_from_u64(&b, 7);
    fp_mul(&c, &a, &b);
    fp_from_u64(&a, 42);
    assert_true(fp_eq(&c, &a));
    uint64_t limbs[FP_LIMBS];
    fp_to_limbs(limbs, &c);
    assert_int_equal(limbs[0], 42);
    for (int i = 1; i < FP_LIMBS; i++) assert_int_equal(limbs[i], 0);
    /* −1 = p − 1 */
    fp_set_one(&a);
    fp_neg(&a, &a);
    fp_to_limbs(limbs, &a);
    assert_int_equal(limbs[0], FP_MODULUS[0] - 1);
    for (int i = 1; i < FP_LIMBS; i++) assert_int_equal(limbs[i], FP_MODULUS[i]);
    /* zero inverts to zero in both inverses */
    fp_set_zero(&a);
    fp_inv(&b, &a);
    assert_true(fp_is_zero(&b));
    fp_inv_vartime(&b, &a);
    assert_true(fp_is_zero(&b));
}

static void test_sqrt_and_legendre(void **state)
{
    (void)state;
    int squares = 0, non_squares = 0;
    for (int i = 0; i < ITER; i++) {
        fp_t a, s, t;
        test_rand_fp(&a);
        fp_sqr(&s, &a);
        assert_int_equal(fp_legendre(&s), 1);
        assert_true(fp_sqrt(&t, &s));
        fp_sqr(&t, &t);
        assert_true(fp_eq(&t, &s));
        if (fp_legendre(&a) == 1) {
            squares++;
            assert_true(fp_sqrt(&t, &a));
        } else {
            non_squares++;
            assert_false(fp_sqrt(&t, &a));
        }

        fr_t x, y, z;
        test_rand_fr(&x);
        fr_sqr(&y, &x);
        assert_true(fr_sqrt(&z, &y));
        fr_sqr(&z, &z);
        assert_true(fr_eq(&z, &y));
        if (fr_legendre(&x) == -1) assert_false(fr_sqrt(&z, &x));

        fp2_t u, v, w;
        test_rand_fp2(&u);
        fp2_sqr(&v, &u);
        assert_true(fp2_sqrt(&w, &v));
        fp2_sqr(&w, &w);
        assert_true(fp2_eq(&w, &v));
    }
    assert_true(squares > 0 && non_squares > 0);
    fp_t zero, r;
    fp_set_zero(&zero);
    assert_int_equal(fp_legendre(&zero), 0);
    assert_true(fp_sqrt(&r, &zero));
    assert_true(fp_is_zero(&r));
}

static void test_bytes_roundtrip_and_range(void **state)
{
    (void)state;
    uint8_t be[FP_BYTES], le[FP_BYTES];
    for (int i = 0; i < ITER; i++) {
        fp_t a, b;
        test_rand_fp(&a);
        fp_to_bytes_be(be, &a);
        fp_to_bytes_le(le, &a);
        for (int j = 0; j < FP_BYTES; j++) assert_int_equal(be[j], le[FP_BYTES - 1 - j]);
        assert_int_equal(fp_from_bytes_be(&b, be), CUZK_OK);
        assert_true(fp_eq(&a, &b));
        assert_int_equal(fp_from_bytes_le(&b, le), CUZK_OK);
        assert_true(fp_eq(&a, &b));
        fr_t x, y;
        uint8_t rb[FR_BYTES];
        test_rand_fr(&x);
        fr_to_bytes_le(rb, &x);
        assert_int_equal(fr_from_bytes_le(&y, rb), CUZK_OK);
        assert_true(fr_eq(&x, &y));
        fr_to_bytes_be(rb, &x);
        assert_int_equal(fr_from_bytes_be(&y, rb), CUZK_OK);
        assert_true(fr_eq(&x, &y));
    }
    /* p itself and all-ones are rejected; p − 1 is accepted */
    fp_t r;
    for (int i = 0; i < FP_BYTES; i++) le[i] = (uint8_t)(FP_MODULUS[i / 8] >> (8 * (i % 8)));
    assert_int_equal(fp_from_bytes_le(&r, le), CUZK_ERR_NOT_CANONICAL);
    le[0]--;
    assert_int_equal(fp_from_bytes_le(&r, le), CUZK_OK);
    memset(be, 0xff, sizeof be);
    assert_int_equal(fp_from_bytes_be(&r, be), CUZK_ERR_NOT_CANONICAL);
    fr_t s;
    uint8_t rb[FR_BYTES];
    for (int i = 0; i < FR_BYTES; i++) rb[i] = (uint8_t)(FR_MODULUS[i / 8] >> (8 * (i % 8)));
    assert_int_equal(fr_from_bytes_le(&s, rb), CUZK_ERR_NOT_CANONICAL);
    uint64_t limbs[FR_LIMBS] = {FR_MODULUS[0], FR_MODULUS[1], FR_MODULUS[2], FR_MODULUS[3]};
    assert_int_equal(fr_from_limbs(&s, limbs), CUZK_ERR_NOT_CANONICAL);
    assert_int_equal(fr_from_mont_limbs(&s, limbs), CUZK_ERR_NOT_CANONICAL);
    /* reduction of r + 5 gives 5 */
    limbs[0] += 5;
    fr_from_limbs_reduce(&s, limbs);
    fr_t five;
    fr_from_u64(&five, 5);
    assert_true(fr_eq(&s, &five));
}

static void test_roots_of_unity(void **state)
{
    (void)state;
    fr_roots convs[2] = {FR_ROOTS_GEN7, FR_ROOTS_GEN5};
    for (int c = 0; c < 2; c++) {
        for (unsigned k = 0; k <= FR_TWO_ADICITY; k++) {
            fr_t w, t;
            assert_int_equal(fr_root_of_unity(&w, k, convs[c]), CUZK_OK);
            /* w^(2^k) = 1 and, for k >= 1, w^(2^(k-1)) = −1: the order is exactly 2^k */
            t = w;
            for (unsigned i = 0; i + 1 < k; i++) fr_sqr(&t, &t);
            if (k >= 1) {
                fr_t minus_one;
                fr_set_one(&minus_one);
                fr_neg(&minus_one, &minus_one);
                assert_true(fr_eq(&t, &minus_one));
                fr_sqr(&t, &t);
            }
            assert_true(fr_is_one(&t));
        }
        fr_t w;
        assert_int_equal(fr_root_of_unity(&w, 33, convs[c]), CUZK_ERR_BAD_ROOT_ORDER);
    }
    /* generator 5: omega_{2^k} = 5^((r-1)/2^k) literally, checked at k = 10 */
    fr_t five, w, expect;
    uint64_t e[FR_LIMBS] = {FR_MODULUS[0] - 1, FR_MODULUS[1], FR_MODULUS[2], FR_MODULUS[3]};
    for (int s = 0; s < 10; s++) {
        for (int i = 0; i < FR_LIMBS - 1; i++) e[i] = (e[i] >> 1) | (e[i + 1] << 63);
        e[FR_LIMBS - 1] >>= 1;
    }
    fr_from_u64(&five, 5);
    fr_pow(&expect, &five, e, FR_LIMBS);
    fr_root_of_unity(&w, 10, FR_ROOTS_GEN5);
    assert_true(fr_eq(&w, &expect));
}

static void test_batch_inversion(void **state)
{
    (void)state;
    enum { N = 37 };
    fp_t in[N], out[N], scratch[N];
    for (int i = 0; i < N; i++) test_rand_fp(&in[i]);
    fp_set_zero(&in[3]);
    fp_set_zero(&in[N - 1]);
    fp_batch_inv(out, in, N, scratch);
    for (int i = 0; i < N; i++) {
        fp_t t;
        fp_inv(&t, &in[i]);
        assert_true(fp_eq(&t, &out[i]));
    }
    fp_batch_inv(in, in, N, scratch); /* in place */
    for (int i = 0; i < N; i++) assert_true(fp_eq(&in[i], &out[i]));
    fp_batch_inv(out, in, 0, scratch);

    fr_t a[N], b[N], s[N];
    for (int i = 0; i < N; i++) test_rand_fr(&a[i]);
    fr_set_zero(&a[0]);
    fr_batch_inv(b, a, N, s);
    for (int i = 0; i < N; i++) {
        fr_t t;
        fr_inv(&t, &a[i]);
        assert_true(fr_eq(&t, &b[i]));
    }
}

static void test_fp2_laws(void **state)
{
    (void)state;
    for (int i = 0; i < ITER; i++) {
        fp2_t a, b, t0, t1;
        test_rand_fp2(&a);
        test_rand_fp2(&b);
        fp2_mul(&t0, &a, &b);
        fp2_mul(&t1, &b, &a);
        assert_true(fp2_eq(&t0, &t1));
        fp2_sqr(&t0, &a);
        fp2_mul(&t1, &a, &a);
        assert_true(fp2_eq(&t0, &t1));
        fp2_inv(&t0, &a);
        fp2_mul(&t0, &t0, &a);
        assert_true(fp2_is_one(&t0));
        /* u² = −1 */
        fp2_t u = {{{0}}, {{0}}}, uu;
        fp_set_one(&u.c1);
        fp2_sqr(&uu, &u);
        fp2_t minus_one;
        fp2_set_one(&minus_one);
        fp2_neg(&minus_one, &minus_one);
        assert_true(fp2_eq(&uu, &minus_one));
        /* a·(1+u) through the dedicated path */
        fp2_t xi;
        fp_set_one(&xi.c0);
        fp_set_one(&xi.c1);
        fp2_mul(&t0, &a, &xi);
        fp2_mul_by_nonresidue(&t1, &a);
        assert_true(fp2_eq(&t0, &t1));
        /* frobenius is a^p */
        fp2_pow(&t0, &a, FP_MODULUS, FP_LIMBS);
        fp2_frobenius(&t1, &a);
        assert_true(fp2_eq(&t0, &t1));
    }
}

/* Elements at the edges of the range: 0, 1, 2, p − 1, p − 2, and values with all-ones or all-zero limbs below p. */
static void edge_fp(fp_t *r, int k)
{
    uint64_t l[FP_LIMBS] = {0};
    switch (k % 6) {
    case 0: break;
    case 1: l[0] = 1; break;
    case 2: l[0] = 2; break;
    case 3: memcpy(l, FP_MODULUS, sizeof l); l[0] -= 1; break;
    case 4: memcpy(l, FP_MODULUS, sizeof l); l[0] -= 2; break;
    case 5: for (int i = 0; i < FP_LIMBS - 1; i++) l[i] = ~0ULL; l[FP_LIMBS - 1] = FP_MODULUS[FP_LIMBS - 1] - 1; break;
    }
    /* raw Montgomery limbs: the value the multiplier sees is exactly l */
    assert_int_equal(fp_from_mont_limbs(r, l), CUZK_OK);
}

static void edge_fr(fr_t *r, int k)
{
    uint64_t l[FR_LIMBS] = {0};
    switch (k % 6) {
    case 0: break;
    case 1: l[0] = 1; break;
    case 2: l[0] = 2; break;
    case 3: memcpy(l, FR_MODULUS, sizeof l); l[0] -= 1; break;
    case 4: memcpy(l, FR_MODULUS, sizeof l); l[0] -= 2; break;
    case 5: for (int i = 0; i < FR_LIMBS - 1; i++) l[i] = ~0ULL; l[FR_LIMBS - 1] = FR_MODULUS[FR_LIMBS - 1] - 1; break;
    }
    assert_int_equal(fr_from_mont_limbs(r, l), CUZK_OK);
}

/* Multiplication, addition and subtraction as the build selected them (assembly where available) agree limb for limb with the portable C, on
 * random and on edge inputs, including when the output aliases an input. */
static void test_mul_paths_agree(void **state)
{
    (void)state;
    for (int i = 0; i < 20 * ITER + 36; i++) {
        fp_t a, b, x, y;
        fr_t c, d, u, v;
        if (i < 36) {
            edge_fp(&a, i / 6);
            edge_fp(&b, i);
            edge_fr(&c, i / 6);
            edge_fr(&d, i);
        } else {
            test_rand_fp(&a);
            test_rand_fp(&b);
            test_rand_fr(&c);
            test_rand_fr(&d);
        }
        fp_mul_portable(&x, &a, &b);
        fp_mul(&y, &a, &b);
        assert_memory_equal(&x, &y, sizeof x);
        fp_mul_portable(&x, &a, &a);
        fp_sqr(&y, &a);
        assert_memory_equal(&x, &y, sizeof x);
        y = a;
        fp_mul(&y, &y, &y);
        assert_memory_equal(&x, &y, sizeof x);
        fp_add_portable(&x, &a, &b);
        fp_add(&y, &a, &b);
        assert_memory_equal(&x, &y, sizeof x);
        fp_add_portable(&x, &a, &a);
        y = a;
        fp_dbl(&y, &y);
        assert_memory_equal(&x, &y, sizeof x);
        fp_sub_portable(&x, &a, &b);
        fp_sub(&y, &a, &b);
        assert_memory_equal(&x, &y, sizeof x);
        y = b;
        fp_sub(&y, &a, &y);
        assert_memory_equal(&x, &y, sizeof x);
        fp_sub_portable(&x, &b, &a);
        fp_sub(&y, &b, &a);
        assert_memory_equal(&x, &y, sizeof x);
        fr_add_portable(&u, &c, &d);
        fr_add(&v, &c, &d);
        assert_memory_equal(&u, &v, sizeof u);
        fr_sub_portable(&u, &c, &d);
        fr_sub(&v, &c, &d);
        assert_memory_equal(&u, &v, sizeof u);
        fr_mul_portable(&u, &c, &d);
        fr_mul(&v, &c, &d);
        assert_memory_equal(&u, &v, sizeof u);
        fr_mul_portable(&u, &c, &c);
        fr_sqr(&v, &c);
        assert_memory_equal(&u, &v, sizeof u);
        v = c;
        fr_mul(&v, &v, &d);
        fr_mul_portable(&u, &c, &d);
        assert_memory_equal(&u, &v, sizeof u);
    }
}

/* Both divsteps inverses agree with Fermat's a^(m−2) on random and edge inputs (raw Montgomery limbs 0, 1, 2,
 * m − 1, m − 2, and a value with all-ones limbs), and a·a^-1 = 1. */
static void test_inverse_vs_fermat(void **state)
{
    (void)state;
    uint64_t pm2[FP_LIMBS], rm2[FR_LIMBS];
    memcpy(pm2, FP_MODULUS, sizeof pm2);
    pm2[0] -= 2;
    memcpy(rm2, FR_MODULUS, sizeof rm2);
    rm2[0] -= 2;
    for (int i = 0; i < ITER; i++) {
        fp_t a, x, y, z;
        fr_t c, u, v, w;
        if (i < 6) {
            edge_fp(&a, i);
            edge_fr(&c, i);
        } else {
            test_rand_fp(&a);
            test_rand_fr(&c);
        }
        fp_pow(&x, &a, pm2, FP_LIMBS);
        fp_inv(&y, &a);
        fp_inv_vartime(&z, &a);
        assert_memory_equal(&x, &y, sizeof x);
        assert_memory_equal(&x, &z, sizeof x);
        fr_pow(&u, &c, rm2, FR_LIMBS);
        fr_inv(&v, &c);
        fr_inv_vartime(&w, &c);
        assert_memory_equal(&u, &v, sizeof u);
        assert_memory_equal(&u, &w, sizeof u);
        if (!fp_is_zero(&a)) {
            fp_mul(&x, &x, &a);
            assert_true(fp_is_one(&x));
        }
        /* in place */
        fp_inv_vartime(&a, &a);
        assert_memory_equal(&a, &z, sizeof a);
        fr_inv(&c, &c);
        assert_memory_equal(&c, &v, sizeof c);
    }
}

int main(void)
{
    test_seed_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fp_ring_laws),      cmocka_unit_test(test_fr_ring_laws),
        cmocka_unit_test(test_small_integers),    cmocka_unit_test(test_sqrt_and_legendre),
        cmocka_unit_test(test_bytes_roundtrip_and_range), cmocka_unit_test(test_roots_of_unity),
        cmocka_unit_test(test_batch_inversion),   cmocka_unit_test(test_fp2_laws),
        cmocka_unit_test(test_mul_paths_agree),
        cmocka_unit_test(test_inverse_vs_fermat),
    };
    return cmocka_run_group_tests_name("ff", tests, NULL, NULL);
}
