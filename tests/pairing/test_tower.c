/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Fp6 and Fp12: ring laws, sparse products against full ones, inversion, Frobenius against plain powering,
 * cyclotomic squaring against plain squaring; the products at double width (lazy reduction), the paired line product
 * and the compressed cyclotomic exponentiation against a schoolbook tower built from Fp multiplications alone. */
#include <string.h>

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

/* ---- the reference tower: schoolbook, every product reduced at once, Fp operations only ---------------------- */
static void ref_fp2_mul(cuzk_fp2_t *r, const cuzk_fp2_t *a, const cuzk_fp2_t *b)
{
    cuzk_fp_t t00, t11, t01, t10;
    cuzk_fp_mul(&t00, &a->c0, &b->c0);
    cuzk_fp_mul(&t11, &a->c1, &b->c1);
    cuzk_fp_mul(&t01, &a->c0, &b->c1);
    cuzk_fp_mul(&t10, &a->c1, &b->c0);
    cuzk_fp_sub(&r->c0, &t00, &t11);
    cuzk_fp_add(&r->c1, &t01, &t10);
}

/* a·(1 + u) */
static void ref_fp2_xi(cuzk_fp2_t *r, const cuzk_fp2_t *a)
{
    cuzk_fp2_t t;
    cuzk_fp_sub(&t.c0, &a->c0, &a->c1);
    cuzk_fp_add(&t.c1, &a->c0, &a->c1);
    *r = t;
}

/* Σ a_i b_j v^(i+j) with v³ = ξ */
static void ref_fp6_mul(cuzk_fp6_t *r, const cuzk_fp6_t *a, const cuzk_fp6_t *b)
{
    const cuzk_fp2_t *x[3] = {&a->c0, &a->c1, &a->c2}, *y[3] = {&b->c0, &b->c1, &b->c2};
    cuzk_fp2_t acc[5], t;
    for (int k = 0; k < 5; k++) cuzk_fp2_set_zero(&acc[k]);
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            ref_fp2_mul(&t, x[i], y[j]);
            cuzk_fp_add(&acc[i + j].c0, &acc[i + j].c0, &t.c0);
            cuzk_fp_add(&acc[i + j].c1, &acc[i + j].c1, &t.c1);
        }
    }
    for (int k = 3; k < 5; k++) {
        ref_fp2_xi(&t, &acc[k]);
        cuzk_fp_add(&acc[k - 3].c0, &acc[k - 3].c0, &t.c0);
        cuzk_fp_add(&acc[k - 3].c1, &acc[k - 3].c1, &t.c1);
    }
    r->c0 = acc[0];
    r->c1 = acc[1];
    r->c2 = acc[2];
}

/* (a0 + a1w)(b0 + b1w) = a0b0 + v·a1b1 + (a0b1 + a1b0)w */
static void ref_fp12_mul(cuzk_fp12_t *r, const cuzk_fp12_t *a, const cuzk_fp12_t *b)
{
    cuzk_fp6_t t00, t11, t01, t10, v;
    ref_fp6_mul(&t00, &a->c0, &b->c0);
    ref_fp6_mul(&t11, &a->c1, &b->c1);
    ref_fp6_mul(&t01, &a->c0, &b->c1);
    ref_fp6_mul(&t10, &a->c1, &b->c0);
    ref_fp2_xi(&v.c0, &t11.c2);
    v.c1 = t11.c0;
    v.c2 = t11.c1;
    cuzk_fp6_add(&r->c0, &t00, &v);
    cuzk_fp6_add(&r->c1, &t01, &t10);
}

/* Coefficients at their extremes: each Fp2 coefficient's halves 0, 1 or p − 1 by the bits of k, so that the
 * unreduced Karatsuba sums reach 2p − 2 and the double-width differences borrow. */
static void extreme_fp12(cuzk_fp12_t *r, unsigned k)
{
    cuzk_fp_t pm1, one;
    memcpy(pm1.l, CUZK_FP_MODULUS, sizeof pm1.l);
    pm1.l[0] -= 1;
    cuzk_fp_from_u64(&one, 1);
    cuzk_fp_t *c = (cuzk_fp_t *)r;
    for (int i = 0; i < 12; i++) {
        unsigned sel = (k >> (i % 8)) % 3;
        if (sel == 0) c[i] = pm1;
        else if (sel == 1) memset(&c[i], 0, sizeof c[i]);
        else c[i] = one;
    }
    if (k % 5 == 0)
        for (int i = 0; i < 12; i++) c[i] = pm1;
}

/* The products at double width against the reference, on random and on extreme inputs: Fp6 and Fp12 products and
 * squares, the sparse line products (one line, two lines at once), with the output aliasing an input. */
static void test_lazy_products(void **state)
{
    (void)state;
    for (unsigned i = 0; i < 3 * ITER; i++) {
        cuzk_fp12_t a, b, want, got, l, m;
        if (i < ITER) {
            extreme_fp12(&a, i * 7 + 1);
            extreme_fp12(&b, i * 13 + 2);
        } else {
            rand_fp12(&a);
            rand_fp12(&b);
        }
        ref_fp6_mul(&want.c0, &a.c0, &b.c0);
        cuzk_fp6_mul(&got.c0, &a.c0, &b.c0);
        assert_memory_equal(&got.c0, &want.c0, sizeof got.c0);
        ref_fp12_mul(&want, &a, &b);
        cuzk_fp12_mul(&got, &a, &b);
        assert_memory_equal(&got, &want, sizeof got);
        got = a;
        cuzk_fp12_mul(&got, &got, &b);
        assert_memory_equal(&got, &want, sizeof got);
        ref_fp12_mul(&want, &a, &a);
        cuzk_fp12_sqr(&got, &a);
        assert_memory_equal(&got, &want, sizeof got);
        /* lines l = (b.c0.c0, b.c0.c1, b.c1.c1) and m = (b.c0.c2, b.c1.c0, b.c1.c2) */
        cuzk_fp12_set_zero(&l);
        l.c0.c0 = b.c0.c0;
        l.c0.c1 = b.c0.c1;
        l.c1.c1 = b.c1.c1;
        cuzk_fp12_set_zero(&m);
        m.c0.c0 = b.c0.c2;
        m.c0.c1 = b.c1.c0;
        m.c1.c1 = b.c1.c2;
        ref_fp12_mul(&want, &a, &l);
        cuzk_fp12_mul_by_014(&got, &a, &l.c0.c0, &l.c0.c1, &l.c1.c1);
        assert_memory_equal(&got, &want, sizeof got);
        ref_fp12_mul(&want, &want, &m);
        const cuzk_fp2_t ll[3] = {l.c0.c0, l.c0.c1, l.c1.c1}, mm[3] = {m.c0.c0, m.c0.c1, m.c1.c1};
        got = a;
        cuzk_fp12_mul_by_014_014(&got, &got, ll, mm);
        assert_memory_equal(&got, &want, sizeof got);
    }
}

/* m = a^((p^6 − 1)(p^2 + 1)): an element of the cyclotomic subgroup */
static void to_cyclotomic(cuzk_fp12_t *m, const cuzk_fp12_t *a)
{
    cuzk_fp12_t t;
    cuzk_fp12_inv(&t, a);
    cuzk_fp12_conj(m, a);
    cuzk_fp12_mul(m, m, &t);
    cuzk_fp12_frobenius(&t, m, 2);
    cuzk_fp12_mul(m, m, &t);
}

/* The compressed exponentiation (Karabina) against plain powering with the reference product, for exponents with
 * few and many set bits, the BLS parameter |x|, and 0, 1, 2; the three relations its decompression rests on hold on
 * random cyclotomic elements; 1 (whose decompression has no denominator) takes the uncompressed way. */
static void test_cyclotomic_pow(void **state)
{
    (void)state;
    for (int i = 0; i < ITER; i++) {
        cuzk_fp12_t a, m, got, want;
        rand_fp12(&a);
        to_cyclotomic(&m, &a);
        uint64_t e[2] = {test_rand_u64(), test_rand_u64()};
        size_t limbs = 1 + (size_t)(i & 1);
        switch (i % 6) {
        case 0:
            e[0] = 0xd201000000010000ULL;
            limbs = 1;
            break;
        case 1:
            e[0] = (uint64_t)(i % 3);
            limbs = 1;
            break;
        case 2:
            e[0] &= 0x8000000000000411ULL;
            e[1] &= 0x1;
            break;
        default: break;
        }
        cuzk_fp12_pow(&want, &m, e, limbs);
        cuzk_fp12_cyclotomic_pow_vartime(&got, &m, e, limbs);
        assert_memory_equal(&got, &want, sizeof got);
        /* with g0 = c0.c0, g1 = c0.c1, g2 = c0.c2, g3 = c1.c0, g4 = c1.c1, g5 = c1.c2 and ξ = 1 + u:
         *   4·g3·g4 = 3g1² + ξg5² − 2g2,   2ξ·g1g5 + g3 = g0g3 + ξ·g2g4,   g0 = ξ(2g4² − 3g1g2 + g3g5) + 1 */
        const cuzk_fp2_t *g0 = &m.c0.c0, *g1 = &m.c0.c1, *g2 = &m.c0.c2, *g3 = &m.c1.c0, *g4 = &m.c1.c1, *g5 = &m.c1.c2;
        cuzk_fp2_t l, r, t, one;
        ref_fp2_mul(&l, g3, g4);
        cuzk_fp2_dbl(&l, &l);
        cuzk_fp2_dbl(&l, &l);
        ref_fp2_mul(&r, g1, g1);
        cuzk_fp2_dbl(&t, &r);
        cuzk_fp2_add(&r, &r, &t);
        ref_fp2_mul(&t, g5, g5);
        ref_fp2_xi(&t, &t);
        cuzk_fp2_add(&r, &r, &t);
        cuzk_fp2_dbl(&t, g2);
        cuzk_fp2_sub(&r, &r, &t);
        assert_true(cuzk_fp2_eq(&l, &r));
        ref_fp2_mul(&l, g1, g5);
        cuzk_fp2_dbl(&l, &l);
        ref_fp2_xi(&l, &l);
        cuzk_fp2_add(&l, &l, g3);
        ref_fp2_mul(&r, g0, g3);
        ref_fp2_mul(&t, g2, g4);
        ref_fp2_xi(&t, &t);
        cuzk_fp2_add(&r, &r, &t);
        assert_true(cuzk_fp2_eq(&l, &r));
        ref_fp2_mul(&r, g4, g4);
        cuzk_fp2_dbl(&r, &r);
        ref_fp2_mul(&t, g1, g2);
        cuzk_fp2_sub(&r, &r, &t);
        cuzk_fp2_sub(&r, &r, &t);
        cuzk_fp2_sub(&r, &r, &t);
        ref_fp2_mul(&t, g3, g5);
        cuzk_fp2_add(&r, &r, &t);
        ref_fp2_xi(&r, &r);
        cuzk_fp2_set_one(&one);
        cuzk_fp2_add(&r, &r, &one);
        assert_true(cuzk_fp2_eq(g0, &r));
    }
    /* 1: no denominator to decompress with, the uncompressed way is taken */
    cuzk_fp12_t one, got;
    cuzk_fp12_set_one(&one);
    const uint64_t x = 0xd201000000010000ULL, odd = 0x8000000000000005ULL;
    cuzk_fp12_cyclotomic_pow_vartime(&got, &one, &x, 1);
    assert_true(cuzk_fp12_is_one(&got));
    cuzk_fp12_cyclotomic_pow_vartime(&got, &one, &odd, 1);
    assert_true(cuzk_fp12_is_one(&got));
}

const struct CMUnitTest tower_tests[] = {
    cmocka_unit_test(test_fp6_laws),       cmocka_unit_test(test_frobenius),     cmocka_unit_test(test_fp12_laws),
    cmocka_unit_test(test_cyclotomic_sqr), cmocka_unit_test(test_lazy_products), cmocka_unit_test(test_cyclotomic_pow),
};
const size_t tower_tests_count = sizeof tower_tests / sizeof tower_tests[0];
