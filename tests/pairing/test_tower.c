/* Fp6 and Fp12: ring laws, sparse products against full ones, inversion, Frobenius against plain powering,
 * cyclotomic squaring against plain squaring. */
#include "test_pairing.h"

#define ITER 20

void rand_fp6(cuzk_fp6_t *r)
{
    test_rand_fp2(&r->c0);
    test_rand_fp2(&r->c1);
    test_rand_fp2(&r->c2);
}

void rand_fp12(cuzk_fp12_t *r)
{
    rand_fp6(&r->c0);
    rand_fp6(&r->c1);
}

static void test_fp6_laws(void **state)
{
    (void)state;
    for (int i = 0; i < ITER; i++) {
        cuzk_fp6_t a, b, c, t0, t1, t2, v;
        rand_fp6(&a);
        rand_fp6(&b);
        rand_fp6(&c);
        /* (a + b)·c = a·c + b·c, a·b = b·a, (a·b)·c = a·(b·c) */
        cuzk_fp6_add(&t0, &a, &b);
        cuzk_fp6_mul(&t0, &t0, &c);
        cuzk_fp6_mul(&t1, &a, &c);
        cuzk_fp6_mul(&t2, &b, &c);
        cuzk_fp6_add(&t1, &t1, &t2);
        assert_true(cuzk_fp6_eq(&t0, &t1));
        cuzk_fp6_mul(&t0, &a, &b);
        cuzk_fp6_mul(&t1, &b, &a);
        assert_true(cuzk_fp6_eq(&t0, &t1));
        cuzk_fp6_mul(&t0, &t0, &c);
        cuzk_fp6_mul(&t1, &b, &c);
        cuzk_fp6_mul(&t1, &a, &t1);
        assert_true(cuzk_fp6_eq(&t0, &t1));
        /* a² = a·a, a·a⁻¹ = 1, a − b + b = a */
        cuzk_fp6_sqr(&t0, &a);
        cuzk_fp6_mul(&t1, &a, &a);
        assert_true(cuzk_fp6_eq(&t0, &t1));
        cuzk_fp6_inv(&t0, &a);
        cuzk_fp6_mul(&t0, &t0, &a);
        cuzk_fp6_set_one(&t1);
        assert_true(cuzk_fp6_eq(&t0, &t1));
        cuzk_fp6_sub(&t0, &a, &b);
        cuzk_fp6_add(&t0, &t0, &b);
        assert_true(cuzk_fp6_eq(&t0, &a));
        /* a·v by the shortcut and by full multiplication; v³ = ξ */
        cuzk_fp6_set_zero(&v);
        cuzk_fp2_set_one(&v.c1);
        cuzk_fp6_mul(&t0, &a, &v);
        cuzk_fp6_mul_by_nonresidue(&t1, &a);
        assert_true(cuzk_fp6_eq(&t0, &t1));
        cuzk_fp6_mul(&t0, &v, &v);
        cuzk_fp6_mul(&t0, &t0, &v);
        assert_true(cuzk_fp2_is_zero(&t0.c1) && cuzk_fp2_is_zero(&t0.c2));
        assert_true(cuzk_fp_is_one(&t0.c0.c0) && cuzk_fp_is_one(&t0.c0.c1));
        /* sparse products */
        cuzk_fp6_t s = b;
        cuzk_fp2_set_zero(&s.c2);
        cuzk_fp6_mul(&t0, &a, &s);
        cuzk_fp6_mul_by_01(&t1, &a, &s.c0, &s.c1);
        assert_true(cuzk_fp6_eq(&t0, &t1));
        cuzk_fp2_set_zero(&s.c0);
        cuzk_fp6_mul(&t0, &a, &s);
        cuzk_fp6_mul_by_1(&t1, &a, &s.c1);
        assert_true(cuzk_fp6_eq(&t0, &t1));
        /* aliasing: output equal to an input */
        t0 = a;
        cuzk_fp6_mul(&t0, &t0, &t0);
        cuzk_fp6_sqr(&t1, &a);
        assert_true(cuzk_fp6_eq(&t0, &t1));
    }
}

static void test_fp12_laws(void **state)
{
    (void)state;
    for (int i = 0; i < ITER; i++) {
        cuzk_fp12_t a, b, c, t0, t1, t2;
        rand_fp12(&a);
        rand_fp12(&b);
        rand_fp12(&c);
        cuzk_fp12_add(&t0, &a, &b);
        cuzk_fp12_mul(&t0, &t0, &c);
        cuzk_fp12_mul(&t1, &a, &c);
        cuzk_fp12_mul(&t2, &b, &c);
        cuzk_fp12_add(&t1, &t1, &t2);
        assert_true(cuzk_fp12_eq(&t0, &t1));
        cuzk_fp12_mul(&t0, &a, &b);
        cuzk_fp12_mul(&t0, &t0, &c);
        cuzk_fp12_mul(&t1, &b, &c);
        cuzk_fp12_mul(&t1, &a, &t1);
        assert_true(cuzk_fp12_eq(&t0, &t1));
        cuzk_fp12_sqr(&t0, &a);
        cuzk_fp12_mul(&t1, &a, &a);
        assert_true(cuzk_fp12_eq(&t0, &t1));
        cuzk_fp12_inv(&t0, &a);
        cuzk_fp12_mul(&t0, &t0, &a);
        assert_true(cuzk_fp12_is_one(&t0));
        assert_false(cuzk_fp12_is_one(&a));
        cuzk_fp12_sub(&t0, &a, &b);
        cuzk_fp12_add(&t0, &t0, &b);
        assert_true(cuzk_fp12_eq(&t0, &a));
        /* w² = v */
        cuzk_fp12_t w;
        cuzk_fp12_set_zero(&w);
        cuzk_fp2_set_one(&w.c1.c0);
        cuzk_fp12_sqr(&t0, &w);
        cuzk_fp12_set_zero(&t1);
        cuzk_fp2_set_one(&t1.c0.c1);
        assert_true(cuzk_fp12_eq(&t0, &t1));
        /* line-shaped sparse product */
        cuzk_fp12_t l;
        cuzk_fp12_set_zero(&l);
        l.c0.c0 = b.c0.c0;
        l.c0.c1 = b.c0.c1;
        l.c1.c1 = b.c1.c1;
        cuzk_fp12_mul(&t0, &a, &l);
        cuzk_fp12_mul_by_014(&t1, &a, &l.c0.c0, &l.c0.c1, &l.c1.c1);
        assert_true(cuzk_fp12_eq(&t0, &t1));
        /* conjugation is the p^6 power map */
        cuzk_fp12_conj(&t0, &a);
        cuzk_fp12_frobenius(&t1, &a, 6);
        assert_true(cuzk_fp12_eq(&t0, &t1));
    }
}

/* out = a·b for little-endian multi-limb integers; out has na + nb limbs. */
static void mul_limbs(uint64_t *out, const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
    for (size_t i = 0; i < na + nb; i++) out[i] = 0;
    for (size_t i = 0; i < na; i++) {
        unsigned __int128 carry = 0;
        for (size_t j = 0; j < nb; j++) {
            unsigned __int128 t = (unsigned __int128)a[i] * b[j] + out[i + j] + carry;
            out[i + j] = (uint64_t)t;
            carry = t >> 64;
        }
        out[i + nb] = (uint64_t)carry;
    }
}

static void test_frobenius(void **state)
{
    (void)state;
    uint64_t p2[2 * CUZK_FP_LIMBS], p3[3 * CUZK_FP_LIMBS];
    mul_limbs(p2, CUZK_FP_MODULUS, CUZK_FP_LIMBS, CUZK_FP_MODULUS, CUZK_FP_LIMBS);
    mul_limbs(p3, p2, 2 * CUZK_FP_LIMBS, CUZK_FP_MODULUS, CUZK_FP_LIMBS);
    const uint64_t *pk[3] = {CUZK_FP_MODULUS, p2, p3};
    for (int i = 0; i < 2; i++) {
        cuzk_fp12_t a, t0, t1;
        rand_fp12(&a);
        for (unsigned k = 1; k <= 3; k++) {
            cuzk_fp12_frobenius(&t0, &a, k);
            cuzk_fp12_pow(&t1, &a, pk[k - 1], k * CUZK_FP_LIMBS);
            assert_true(cuzk_fp12_eq(&t0, &t1));
            cuzk_fp6_t s0, s1;
            cuzk_fp6_frobenius(&s0, &a.c0, k);
            assert_true(cuzk_fp6_eq(&s0, &t1.c0)); /* Fp6 is stable under the map */
            (void)s1;
        }
        /* composition: frob(frob(a, 5), 7) = a */
        cuzk_fp12_frobenius(&t0, &a, 5);
        cuzk_fp12_frobenius(&t0, &t0, 7);
        assert_true(cuzk_fp12_eq(&t0, &a));
    }
}

static void test_cyclotomic_sqr(void **state)
{
    (void)state;
    for (int i = 0; i < ITER; i++) {
        cuzk_fp12_t a, m, t0, t1;
        rand_fp12(&a);
        /* m = a^((p^6 − 1)(p^2 + 1)) lies in the cyclotomic subgroup */
        cuzk_fp12_inv(&t0, &a);
        cuzk_fp12_conj(&m, &a);
        cuzk_fp12_mul(&m, &m, &t0);
        cuzk_fp12_frobenius(&t0, &m, 2);
        cuzk_fp12_mul(&m, &m, &t0);
        cuzk_fp12_sqr(&t0, &m);
        cuzk_fp12_cyclotomic_sqr(&t1, &m);
        assert_true(cuzk_fp12_eq(&t0, &t1));
        cuzk_fp12_cyclotomic_sqr(&m, &m); /* aliasing */
        assert_true(cuzk_fp12_eq(&m, &t1));
        /* and it is not a general squaring */
        cuzk_fp12_sqr(&t0, &a);
        cuzk_fp12_cyclotomic_sqr(&t1, &a);
        assert_false(cuzk_fp12_eq(&t0, &t1));
    }
}

const struct CMUnitTest tower_tests[] = {
    cmocka_unit_test(test_fp6_laws),
    cmocka_unit_test(test_frobenius),
    cmocka_unit_test(test_fp12_laws),
    cmocka_unit_test(test_cyclotomic_sqr),
};
const size_t tower_tests_count = sizeof tower_tests / sizeof tower_tests[0];
