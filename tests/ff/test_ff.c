/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Fp, Fr and Fp2: algebraic laws on fresh random inputs, known answers, and every rejection path of decoding.
 * Component-by-component agreement with an independent implementation is checked by the noble oracle test. */
#include "testutil.h"
#include "test_ff.h"
#include "../../src/ff/ff_internal.h"

#include <string.h>

#define ITER 200

static void test_fp_ring_laws(void **state)
{
    (void)state;
    for (int i = 0; i < ITER; i++) {
        cuzk_fp_t a, b, c, t0, t1, t2;
        test_rand_fp(&a);
        test_rand_fp(&b);
        test_rand_fp(&c);
        /* (a + b)·c = a·c + b·c */
        cuzk_fp_add(&t0, &a, &b);
        cuzk_fp_mul(&t0, &t0, &c);
        cuzk_fp_mul(&t1, &a, &c);
        cuzk_fp_mul(&t2, &b, &c);
        cuzk_fp_add(&t1, &t1, &t2);
        assert_true(cuzk_fp_eq(&t0, &t1));
        /* a − b + b = a, a + (−a) = 0, 2a = a + a, a² = a·a */
        cuzk_fp_sub(&t0, &a, &b);
        cuzk_fp_add(&t0, &t0, &b);
        assert_true(cuzk_fp_eq(&t0, &a));
        cuzk_fp_neg(&t0, &a);
        cuzk_fp_add(&t0, &t0, &a);
        assert_true(cuzk_fp_is_zero(&t0));
        cuzk_fp_dbl(&t0, &a);
        cuzk_fp_add(&t1, &a, &a);
        assert_true(cuzk_fp_eq(&t0, &t1));
        cuzk_fp_sqr(&t0, &a);
        cuzk_fp_mul(&t1, &a, &a);
        assert_true(cuzk_fp_eq(&t0, &t1));
        /* both inverses agree and invert */
        cuzk_fp_inv(&t0, &a);
        cuzk_fp_inv_vartime(&t1, &a);
        assert_true(cuzk_fp_eq(&t0, &t1));
        cuzk_fp_mul(&t0, &t0, &a);
        assert_true(cuzk_fp_is_one(&t0));
    }
}

static void test_fr_ring_laws(void **state)
{
    (void)state;
    for (int i = 0; i < ITER; i++) {
        cuzk_fr_t a, b, c, t0, t1, t2;
        test_rand_fr(&a);
        test_rand_fr(&b);
        test_rand_fr(&c);
        cuzk_fr_add(&t0, &a, &b);
        cuzk_fr_mul(&t0, &t0, &c);
        cuzk_fr_mul(&t1, &a, &c);
        cuzk_fr_mul(&t2, &b, &c);
        cuzk_fr_add(&t1, &t1, &t2);
        assert_true(cuzk_fr_eq(&t0, &t1));
        cuzk_fr_sub(&t0, &a, &b);
        cuzk_fr_add(&t0, &t0, &b);
        assert_true(cuzk_fr_eq(&t0, &a));
        cuzk_fr_neg(&t0, &a);
        cuzk_fr_add(&t0, &t0, &a);
        assert_true(cuzk_fr_is_zero(&t0));
        cuzk_fr_inv(&t0, &a);
        cuzk_fr_inv_vartime(&t1, &a);
        assert_true(cuzk_fr_eq(&t0, &t1));
        cuzk_fr_mul(&t0, &t0, &a);
        assert_true(cuzk_fr_is_one(&t0));
    }
}

static void test_small_integers(void **state)
{
    (void)state;
    cuzk_fp_t a, b, c;
    cuzk_fp_from_u64(&a, 6);
    cuzk_fp_from_u64(&b, 7);
    cuzk_fp_mul(&c, &a, &b);
    cuzk_fp_from_u64(&a, 42);
    assert_true(cuzk_fp_eq(&c, &a));
    uint64_t limbs[CUZK_FP_LIMBS];
    cuzk_fp_to_limbs(limbs, &c);
    assert_int_equal(limbs[0], 42);
    for (int i = 1; i < CUZK_FP_LIMBS; i++) assert_int_equal(limbs[i], 0);
    /* −1 = p − 1 */
    cuzk_fp_set_one(&a);
    cuzk_fp_neg(&a, &a);
    cuzk_fp_to_limbs(limbs, &a);
    assert_int_equal(limbs[0], CUZK_FP_MODULUS[0] - 1);
    for (int i = 1; i < CUZK_FP_LIMBS; i++) assert_int_equal(limbs[i], CUZK_FP_MODULUS[i]);
    /* zero inverts to zero in both inverses */
    cuzk_fp_set_zero(&a);
    cuzk_fp_inv(&b, &a);
    assert_true(cuzk_fp_is_zero(&b));
    cuzk_fp_inv_vartime(&b, &a);
    assert_true(cuzk_fp_is_zero(&b));
}

static void test_sqrt_and_legendre(void **state)
{
    (void)state;
    int squares = 0, non_squares = 0;
    for (int i = 0; i < ITER; i++) {
        cuzk_fp_t a, s, t;
        test_rand_fp(&a);
        cuzk_fp_sqr(&s, &a);
        assert_int_equal(cuzk_fp_legendre(&s), 1);
        assert_true(cuzk_fp_sqrt(&t, &s));
        cuzk_fp_sqr(&t, &t);
        assert_true(cuzk_fp_eq(&t, &s));
        if (cuzk_fp_legendre(&a) == 1) {
            squares++;
            assert_true(cuzk_fp_sqrt(&t, &a));
        } else {
            non_squares++;
            assert_false(cuzk_fp_sqrt(&t, &a));
        }

        cuzk_fr_t x, y, z;
        test_rand_fr(&x);
        cuzk_fr_sqr(&y, &x);
        assert_true(cuzk_fr_sqrt(&z, &y));
        cuzk_fr_sqr(&z, &z);
        assert_true(cuzk_fr_eq(&z, &y));
        if (cuzk_fr_legendre(&x) == -1) assert_false(cuzk_fr_sqrt(&z, &x));

        cuzk_fp2_t u, v, w;
        test_rand_fp2(&u);
        cuzk_fp2_sqr(&v, &u);
        assert_true(cuzk_fp2_sqrt(&w, &v));
        cuzk_fp2_sqr(&w, &w);
        assert_true(cuzk_fp2_eq(&w, &v));
    }
    assert_true(squares > 0 && non_squares > 0);
    cuzk_fp_t zero, r;
    cuzk_fp_set_zero(&zero);
    assert_int_equal(cuzk_fp_legendre(&zero), 0);
    assert_true(cuzk_fp_sqrt(&r, &zero));
    assert_true(cuzk_fp_is_zero(&r));
}

static void test_bytes_roundtrip_and_range(void **state)
{
    (void)state;
    uint8_t be[CUZK_FP_BYTES], le[CUZK_FP_BYTES];
    for (int i = 0; i < ITER; i++) {
        cuzk_fp_t a, b;
        test_rand_fp(&a);
        cuzk_fp_to_bytes_be(be, &a);
        cuzk_fp_to_bytes_le(le, &a);
        for (int j = 0; j < CUZK_FP_BYTES; j++) assert_int_equal(be[j], le[CUZK_FP_BYTES - 1 - j]);
        assert_int_equal(cuzk_fp_from_bytes_be(&b, be), CUZK_OK);
        assert_true(cuzk_fp_eq(&a, &b));
        assert_int_equal(cuzk_fp_from_bytes_le(&b, le), CUZK_OK);
        assert_true(cuzk_fp_eq(&a, &b));
        cuzk_fr_t x, y;
        uint8_t rb[CUZK_FR_BYTES];
        test_rand_fr(&x);
        cuzk_fr_to_bytes_le(rb, &x);
        assert_int_equal(cuzk_fr_from_bytes_le(&y, rb), CUZK_OK);
        assert_true(cuzk_fr_eq(&x, &y));
        cuzk_fr_to_bytes_be(rb, &x);
        assert_int_equal(cuzk_fr_from_bytes_be(&y, rb), CUZK_OK);
        assert_true(cuzk_fr_eq(&x, &y));
    }
    /* p itself and all-ones are rejected; p − 1 is accepted */
    cuzk_fp_t r;
    for (int i = 0; i < CUZK_FP_BYTES; i++) le[i] = (uint8_t)(CUZK_FP_MODULUS[i / 8] >> (8 * (i % 8)));
    assert_int_equal(cuzk_fp_from_bytes_le(&r, le), CUZK_ERR_NOT_CANONICAL);
    le[0]--;
    assert_int_equal(cuzk_fp_from_bytes_le(&r, le), CUZK_OK);
    memset(be, 0xff, sizeof be);
    assert_int_equal(cuzk_fp_from_bytes_be(&r, be), CUZK_ERR_NOT_CANONICAL);
    cuzk_fr_t s;
    uint8_t rb[CUZK_FR_BYTES];
    for (int i = 0; i < CUZK_FR_BYTES; i++) rb[i] = (uint8_t)(CUZK_FR_MODULUS[i / 8] >> (8 * (i % 8)));
    assert_int_equal(cuzk_fr_from_bytes_le(&s, rb), CUZK_ERR_NOT_CANONICAL);
    uint64_t limbs[CUZK_FR_LIMBS] = {CUZK_FR_MODULUS[0], CUZK_FR_MODULUS[1], CUZK_FR_MODULUS[2], CUZK_FR_MODULUS[3]};
    assert_int_equal(cuzk_fr_from_limbs(&s, limbs), CUZK_ERR_NOT_CANONICAL);
    assert_int_equal(cuzk_fr_from_mont_limbs(&s, limbs), CUZK_ERR_NOT_CANONICAL);
    /* reduction of r + 5 gives 5 */
    limbs[0] += 5;
    cuzk_fr_from_limbs_reduce(&s, limbs);
    cuzk_fr_t five;
    cuzk_fr_from_u64(&five, 5);
    assert_true(cuzk_fr_eq(&s, &five));
}

static void test_roots_of_unity(void **state)
{
    (void)state;
    cuzk_fr_roots convs[2] = {CUZK_FR_ROOTS_GEN7, CUZK_FR_ROOTS_GEN5};
    for (int c = 0; c < 2; c++) {
        for (unsigned k = 0; k <= CUZK_FR_TWO_ADICITY; k++) {
            cuzk_fr_t w, t;
            assert_int_equal(cuzk_fr_root_of_unity(&w, k, convs[c]), CUZK_OK);
            /* w^(2^k) = 1 and, for k >= 1, w^(2^(k-1)) = −1: the order is exactly 2^k */
            t = w;
            for (unsigned i = 0; i + 1 < k; i++) cuzk_fr_sqr(&t, &t);
            if (k >= 1) {
                cuzk_fr_t minus_one;
                cuzk_fr_set_one(&minus_one);
                cuzk_fr_neg(&minus_one, &minus_one);
                assert_true(cuzk_fr_eq(&t, &minus_one));
                cuzk_fr_sqr(&t, &t);
            }
            assert_true(cuzk_fr_is_one(&t));
        }
        cuzk_fr_t w;
        assert_int_equal(cuzk_fr_root_of_unity(&w, 33, convs[c]), CUZK_ERR_BAD_ROOT_ORDER);
    }
    /* generator 5: omega_{2^k} = 5^((r-1)/2^k) literally, checked at k = 10 */
    cuzk_fr_t five, w, expect;
    uint64_t e[CUZK_FR_LIMBS] = {CUZK_FR_MODULUS[0] - 1, CUZK_FR_MODULUS[1], CUZK_FR_MODULUS[2], CUZK_FR_MODULUS[3]};
    for (int s = 0; s < 10; s++) {
        for (int i = 0; i < CUZK_FR_LIMBS - 1; i++) e[i] = (e[i] >> 1) | (e[i + 1] << 63);
        e[CUZK_FR_LIMBS - 1] >>= 1;
    }
    cuzk_fr_from_u64(&five, 5);
    cuzk_fr_pow(&expect, &five, e, CUZK_FR_LIMBS);
    cuzk_fr_root_of_unity(&w, 10, CUZK_FR_ROOTS_GEN5);
    assert_true(cuzk_fr_eq(&w, &expect));
}

static void test_batch_inversion(void **state)
{
    (void)state;
    enum { N = 37 };
    cuzk_fp_t in[N], out[N], scratch[N];
    for (int i = 0; i < N; i++) test_rand_fp(&in[i]);
    cuzk_fp_set_zero(&in[3]);
    cuzk_fp_set_zero(&in[N - 1]);
    cuzk_fp_batch_inv(out, in, N, scratch);
    for (int i = 0; i < N; i++) {
        cuzk_fp_t t;
        cuzk_fp_inv(&t, &in[i]);
        assert_true(cuzk_fp_eq(&t, &out[i]));
    }
    cuzk_fp_batch_inv(in, in, N, scratch); /* in place */
    for (int i = 0; i < N; i++) assert_true(cuzk_fp_eq(&in[i], &out[i]));
    cuzk_fp_batch_inv(out, in, 0, scratch);

    cuzk_fr_t a[N], b[N], s[N];
    for (int i = 0; i < N; i++) test_rand_fr(&a[i]);
    cuzk_fr_set_zero(&a[0]);
    cuzk_fr_batch_inv(b, a, N, s);
    for (int i = 0; i < N; i++) {
        cuzk_fr_t t;
        cuzk_fr_inv(&t, &a[i]);
        assert_true(cuzk_fr_eq(&t, &b[i]));
    }
}

static void test_fp2_laws(void **state)
{
    (void)state;
    for (int i = 0; i < ITER; i++) {
        cuzk_fp2_t a, b, t0, t1;
        test_rand_fp2(&a);
        test_rand_fp2(&b);
        cuzk_fp2_mul(&t0, &a, &b);
        cuzk_fp2_mul(&t1, &b, &a);
        assert_true(cuzk_fp2_eq(&t0, &t1));
        cuzk_fp2_sqr(&t0, &a);
        cuzk_fp2_mul(&t1, &a, &a);
        assert_true(cuzk_fp2_eq(&t0, &t1));
        cuzk_fp2_inv(&t0, &a);
        cuzk_fp2_mul(&t0, &t0, &a);
        assert_true(cuzk_fp2_is_one(&t0));
        /* u² = −1 */
        cuzk_fp2_t u = {{{0}}, {{0}}}, uu;
        cuzk_fp_set_one(&u.c1);
        cuzk_fp2_sqr(&uu, &u);
        cuzk_fp2_t minus_one;
        cuzk_fp2_set_one(&minus_one);
        cuzk_fp2_neg(&minus_one, &minus_one);
        assert_true(cuzk_fp2_eq(&uu, &minus_one));
        /* a·(1+u) through the dedicated path */
        cuzk_fp2_t xi;
        cuzk_fp_set_one(&xi.c0);
        cuzk_fp_set_one(&xi.c1);
        cuzk_fp2_mul(&t0, &a, &xi);
        cuzk_fp2_mul_by_nonresidue(&t1, &a);
        assert_true(cuzk_fp2_eq(&t0, &t1));
        /* frobenius is a^p */
        cuzk_fp2_pow(&t0, &a, CUZK_FP_MODULUS, CUZK_FP_LIMBS);
        cuzk_fp2_frobenius(&t1, &a);
        assert_true(cuzk_fp2_eq(&t0, &t1));
    }
}

/* Elements at the edges of the range: 0, 1, 2, p − 1, p − 2, and values with all-ones or all-zero limbs below p. */
static void edge_fp(cuzk_fp_t *r, int k)
{
    uint64_t l[CUZK_FP_LIMBS] = {0};
    switch (k % 6) {
    case 0: break;
    case 1: l[0] = 1; break;
    case 2: l[0] = 2; break;
    case 3:
        memcpy(l, CUZK_FP_MODULUS, sizeof l);
        l[0] -= 1;
        break;
    case 4:
        memcpy(l, CUZK_FP_MODULUS, sizeof l);
        l[0] -= 2;
        break;
    case 5:
        for (int i = 0; i < CUZK_FP_LIMBS - 1; i++) l[i] = ~0ULL;
        l[CUZK_FP_LIMBS - 1] = CUZK_FP_MODULUS[CUZK_FP_LIMBS - 1] - 1;
        break;
    }
    /* raw Montgomery limbs: the value the multiplier sees is exactly l */
    assert_int_equal(cuzk_fp_from_mont_limbs(r, l), CUZK_OK);
}

static void edge_fr(cuzk_fr_t *r, int k)
{
    uint64_t l[CUZK_FR_LIMBS] = {0};
    switch (k % 6) {
    case 0: break;
    case 1: l[0] = 1; break;
    case 2: l[0] = 2; break;
    case 3:
        memcpy(l, CUZK_FR_MODULUS, sizeof l);
        l[0] -= 1;
        break;
    case 4:
        memcpy(l, CUZK_FR_MODULUS, sizeof l);
        l[0] -= 2;
        break;
    case 5:
        for (int i = 0; i < CUZK_FR_LIMBS - 1; i++) l[i] = ~0ULL;
        l[CUZK_FR_LIMBS - 1] = CUZK_FR_MODULUS[CUZK_FR_LIMBS - 1] - 1;
        break;
    }
    assert_int_equal(cuzk_fr_from_mont_limbs(r, l), CUZK_OK);
}

/* Unreduced sums (cuzk_fp2_add_lazy, halves up to 2p − 2) as operands of the Fp2 product, the square and a² − 3b² give
 * the same fully reduced results as the reduced sums, on every CPU path; halves p − 1 and p − 2 reach the bounds. */
static void test_fp2_lazy_operands(void **state)
{
    (void)state;
    for (int i = 0; i < 4 * ITER + 36; i++) {
        cuzk_fp2_t a, b, c, d, s, t, sr, tr, x, y, z;
        if (i < 36) {
            edge_fp(&a.c0, i);
            edge_fp(&a.c1, i / 6);
            edge_fp(&b.c0, i / 6 + 3);
            edge_fp(&b.c1, i + 3);
            edge_fp(&c.c0, i + 4);
            edge_fp(&c.c1, i);
            edge_fp(&d.c0, i / 6);
            edge_fp(&d.c1, i + 1);
        } else {
            test_rand_fp2(&a);
            test_rand_fp2(&b);
            test_rand_fp2(&c);
            test_rand_fp2(&d);
        }
        cuzk_fp2_add_lazy(&s, &a, &b);
        cuzk_fp2_add_lazy(&t, &c, &d);
        cuzk_fp2_add(&sr, &a, &b);
        cuzk_fp2_add(&tr, &c, &d);
        cuzk_fp2_mul(&x, &s, &t);
        cuzk_fp2_mul(&y, &sr, &tr);
        assert_memory_equal(&x, &y, sizeof x);
        cuzk_fp2_sqr(&x, &s);
        cuzk_fp2_sqr(&y, &sr);
        assert_memory_equal(&x, &y, sizeof x);
        /* a² − 3b² against its definition, lazy and reduced operands */
        cuzk_fp2_sqr(&z, &tr);
        cuzk_fp2_sub(&y, &y, &z);
        cuzk_fp2_sub(&y, &y, &z);
        cuzk_fp2_sub(&y, &y, &z);
        cuzk_fp2_sqr_sub3(&x, &s, &t);
        assert_memory_equal(&x, &y, sizeof x);
        cuzk_fp2_sqr_sub3(&x, &sr, &tr);
        assert_memory_equal(&x, &y, sizeof x);
        x = s;
        cuzk_fp2_sqr_sub3(&x, &x, &t); /* r may alias a */
        assert_memory_equal(&x, &y, sizeof x);
    }
}

/* Multiplication, addition and subtraction as the build selected them (assembly where available) agree limb for limb with the portable C, on
 * random and on edge inputs, including when the output aliases an input. */
static void test_mul_paths_agree(void **state)
{
    (void)state;
    for (int i = 0; i < 20 * ITER + 36; i++) {
        cuzk_fp_t a, b, x, y;
        cuzk_fr_t c, d, u, v;
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
        cuzk_fp_mul_portable(&x, &a, &b);
        cuzk_fp_mul(&y, &a, &b);
        assert_memory_equal(&x, &y, sizeof x);
        cuzk_fp_mul_portable(&x, &a, &a);
        cuzk_fp_sqr(&y, &a);
        assert_memory_equal(&x, &y, sizeof x);
        y = a;
        cuzk_fp_mul(&y, &y, &y);
        assert_memory_equal(&x, &y, sizeof x);
        cuzk_fp_add_portable(&x, &a, &b);
        cuzk_fp_add(&y, &a, &b);
        assert_memory_equal(&x, &y, sizeof x);
        cuzk_fp_add_portable(&x, &a, &a);
        y = a;
        cuzk_fp_dbl(&y, &y);
        assert_memory_equal(&x, &y, sizeof x);
        cuzk_fp_sub_portable(&x, &a, &b);
        cuzk_fp_sub(&y, &a, &b);
        assert_memory_equal(&x, &y, sizeof x);
        y = b;
        cuzk_fp_sub(&y, &a, &y);
        assert_memory_equal(&x, &y, sizeof x);
        cuzk_fp_sub_portable(&x, &b, &a);
        cuzk_fp_sub(&y, &b, &a);
        assert_memory_equal(&x, &y, sizeof x);
        cuzk_fr_add_portable(&u, &c, &d);
        cuzk_fr_add(&v, &c, &d);
        assert_memory_equal(&u, &v, sizeof u);
        cuzk_fr_sub_portable(&u, &c, &d);
        cuzk_fr_sub(&v, &c, &d);
        assert_memory_equal(&u, &v, sizeof u);
        cuzk_fr_mul_portable(&u, &c, &d);
        cuzk_fr_mul(&v, &c, &d);
        assert_memory_equal(&u, &v, sizeof u);
        cuzk_fr_mul_portable(&u, &c, &c);
        cuzk_fr_sqr(&v, &c);
        assert_memory_equal(&u, &v, sizeof u);
        v = c;
        cuzk_fr_sqr(&v, &v);
        assert_memory_equal(&u, &v, sizeof u);
        v = c;
        cuzk_fr_mul(&v, &v, &d);
        cuzk_fr_mul_portable(&u, &c, &d);
        assert_memory_equal(&u, &v, sizeof u);
    }
}

/* A sum of products reduced once equals the sum of the multiplications, on both paths, for every length up to two
 * reductions' worth (the bound of each reduction is tightest with every element r − 1), aliased output included. */
static void test_fr_dot(void **state)
{
    (void)state;
    enum { N = 130 };
    static cuzk_fr_t a[N], b[N];
    for (int pass = 0; pass < 3; pass++) {
        for (int i = 0; i < N; i++) {
            if (pass == 0) {
                edge_fr(&a[i], 3);
                edge_fr(&b[i], 3);
            } else {
                test_rand_fr(&a[i]);
                test_rand_fr(&b[i]);
            }
        }
        if (pass == 0) cuzk_fr_set_zero(&b[7]);
        for (size_t n = 0; n <= N; n++) {
            cuzk_fr_t want = {{0}}, x, got, port;
            for (size_t i = 0; i < n; i++) {
                cuzk_fr_mul(&x, &a[i], &b[i]);
                cuzk_fr_add(&want, &want, &x);
            }
            cuzk_fr_dot(&got, a, b, n);
            cuzk_fr_dot_portable(&port, a, b, n);
            assert_memory_equal(&got, &want, sizeof got);
            assert_memory_equal(&port, &want, sizeof port);
        }
        cuzk_fr_t keep = a[0], want;
        cuzk_fr_dot(&want, a, b, 9);
        cuzk_fr_dot(&a[0], a, b, 9);
        assert_memory_equal(&a[0], &want, sizeof want);
        a[0] = keep;
    }
}

/* Both divsteps inverses agree with Fermat's a^(m−2) on random and edge inputs (raw Montgomery limbs 0, 1, 2,
 * m − 1, m − 2, and a value with all-ones limbs), and a·a^-1 = 1. */
static void test_inverse_vs_fermat(void **state)
{
    (void)state;
    uint64_t pm2[CUZK_FP_LIMBS], rm2[CUZK_FR_LIMBS];
    memcpy(pm2, CUZK_FP_MODULUS, sizeof pm2);
    pm2[0] -= 2;
    memcpy(rm2, CUZK_FR_MODULUS, sizeof rm2);
    rm2[0] -= 2;
    for (int i = 0; i < ITER; i++) {
        cuzk_fp_t a, x, y, z;
        cuzk_fr_t c, u, v, w;
        if (i < 6) {
            edge_fp(&a, i);
            edge_fr(&c, i);
        } else {
            test_rand_fp(&a);
            test_rand_fr(&c);
        }
        cuzk_fp_pow(&x, &a, pm2, CUZK_FP_LIMBS);
        cuzk_fp_inv(&y, &a);
        cuzk_fp_inv_vartime(&z, &a);
        assert_memory_equal(&x, &y, sizeof x);
        assert_memory_equal(&x, &z, sizeof x);
        cuzk_fr_pow(&u, &c, rm2, CUZK_FR_LIMBS);
        cuzk_fr_inv(&v, &c);
        cuzk_fr_inv_vartime(&w, &c);
        assert_memory_equal(&u, &v, sizeof u);
        assert_memory_equal(&u, &w, sizeof u);
        if (!cuzk_fp_is_zero(&a)) {
            cuzk_fp_mul(&x, &x, &a);
            assert_true(cuzk_fp_is_one(&x));
        }
        /* in place */
        cuzk_fp_inv_vartime(&a, &a);
        assert_memory_equal(&a, &z, sizeof a);
        cuzk_fr_inv(&c, &c);
        assert_memory_equal(&c, &v, sizeof c);
    }
}

int main(void)
{
    test_seed_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fp_ring_laws),
        cmocka_unit_test(test_fr_ring_laws),
        cmocka_unit_test(test_small_integers),
        cmocka_unit_test(test_sqrt_and_legendre),
        cmocka_unit_test(test_bytes_roundtrip_and_range),
        cmocka_unit_test(test_roots_of_unity),
        cmocka_unit_test(test_batch_inversion),
        cmocka_unit_test(test_fp2_laws),
        cmocka_unit_test(test_mul_paths_agree),
        cmocka_unit_test(test_fp2_lazy_operands),
        cmocka_unit_test(test_fr_dot),
        cmocka_unit_test(test_inverse_vs_fermat),
    };
    int failed = cmocka_run_group_tests_name("ff", tests, NULL, NULL);
    failed += _cmocka_run_group_tests("cpu paths", path_tests, path_tests_count, NULL, NULL);
    return failed;
}
