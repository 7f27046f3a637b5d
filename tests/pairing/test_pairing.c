/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The optimal ate pairing: a known answer from noble, bilinearity, non-degeneracy, the order of GT, and the
 * agreement of every entry point (multi, prepared, infinity handling). */
#include "test_pairing.h"

/* e(G1, G2) as @noble/curves 2.4.0 computes it (bls12_381.pairing(G1.Point.BASE, G2.Point.BASE)), canonical
 * limbs in the order c0.c0.c0, c0.c0.c1, c0.c1.c0, ..., c1.c2.c1. */
static const uint64_t E_G1_G2[12][CUZK_FP_LIMBS] = {
    {0xa84305aaca1789b6ULL, 0xb6d194f60839c508ULL, 0x3dd8e90ce98db3e7ULL, 0x272d441befa15c50ULL, 0xa7b2d83168d0d727ULL,
     0x1250ebd871fc0a92ULL},
    {0x59882a98eaa0170fULL, 0xf1a8943e50439f1dULL, 0xaf5af689452eafabULL, 0x68a84045483c92b7ULL, 0x86750ec6a5323488ULL,
     0x089a1c5b46e5110bULL},
    {0x881c4c849ec23e87ULL, 0xddff57309396b38cULL, 0x16da0e22a5031b54ULL, 0x0378a68e72a6b3b2ULL, 0x9703f239689ce34cULL,
     0x1368bb445c7c2d20ULL},
    {0x315021ec3c19934fULL, 0xffe51d7a579973b1ULL, 0x7c90d8bd66065b1fULL, 0x37e0794e1e65a761ULL, 0xc273fa075a505129ULL,
     0x193502b86edb8857ULL},
    {0x1dad1c1fb597aaa5ULL, 0x19c34dffbbaad843ULL, 0x185203fcca589ac7ULL, 0xfbf2f8da752f7c74ULL, 0x91125ba84dc4007cULL,
     0x01b2f522473d1713ULL},
    {0x8beae9624045b4b6ULL, 0x23f7dacaa35c8ca7ULL, 0x8061e55cceba478bULL, 0x46da634b8f6be14aULL, 0xbd3c79937a45b845ULL,
     0x018107154f25a764ULL},
    {0x0f948226e47ee89dULL, 0xbb12d58386a8703eULL, 0xdea54d43b2b73f2cULL, 0xc88784fbb3d0b2dbULL, 0x9cd6bd15c3d5a04dULL,
     0x19f26337d205fb46ULL},
    {0x102ae1c2d5d5ab1aULL, 0x1bfd1b68ff02f0b8ULL, 0xa7d2809d61bfe02eULL, 0xd5857baaf222eb95ULL, 0x9f80940ca771b6ffULL,
     0x06fba23eb7c5af0dULL},
    {0x1b93b47333e2ba57ULL, 0x78ef48881e32fac9ULL, 0x7d0d15ff7b984e89ULL, 0xc81a93b330ee1a67ULL, 0xfcef68083b0b0ec5ULL,
     0x11b8b424cd48bf38ULL},
    {0xbe2291a0c25a99a2ULL, 0x7ba810c5a09ffdd9ULL, 0x20c806ad36082910ULL, 0xc6a0e9786ab59733ULL, 0xc31b4fcb6ce5771cULL,
     0x03350f55a7aefcd3ULL},
    {0x9108f0242d0fe3efULL, 0xa4fafc05066245cbULL, 0x1c7cdba7b3872629ULL, 0xa189e87935a95405ULL, 0x02249b64728ffd21ULL,
     0x04c581234d086a99ULL},
    {0xfde449383b676631ULL, 0xd48eaa24afe47e1eULL, 0xdeff686bfd6df543ULL, 0x3baca4d72ca93544ULL, 0x068672cbd01a7ec7ULL,
     0x0f41e58663bf08cfULL},
};

static void fp12_from_table(cuzk_fp12_t *r, const uint64_t t[12][CUZK_FP_LIMBS])
{
    cuzk_fp2_t *c[6] = {&r->c0.c0, &r->c0.c1, &r->c0.c2, &r->c1.c0, &r->c1.c1, &r->c1.c2};
    for (int i = 0; i < 6; i++) {
        assert_int_equal(cuzk_fp_from_limbs(&c[i]->c0, t[2 * i]), CUZK_OK);
        assert_int_equal(cuzk_fp_from_limbs(&c[i]->c1, t[2 * i + 1]), CUZK_OK);
    }
}

static void test_known_answer(void **state)
{
    (void)state;
    cuzk_g1_affine_t p;
    cuzk_g2_affine_t q;
    cuzk_fp12_t e, want;
    cuzk_g1_generator(&p);
    cuzk_g2_generator(&q);
    cuzk_pairing(&e, &p, &q);
    fp12_from_table(&want, E_G1_G2);
    assert_true(cuzk_fp12_eq(&e, &want));
}

/* e(G1, G2)^r = 1 and e(G1, G2) ≠ 1. */
static void test_order_and_nondegeneracy(void **state)
{
    (void)state;
    cuzk_g1_affine_t p;
    cuzk_g2_affine_t q;
    cuzk_fp12_t e, t;
    cuzk_g1_generator(&p);
    cuzk_g2_generator(&q);
    cuzk_pairing(&e, &p, &q);
    assert_false(cuzk_fp12_is_one(&e));
    cuzk_fp12_pow(&t, &e, CUZK_FR_MODULUS, CUZK_FR_LIMBS);
    assert_true(cuzk_fp12_is_one(&t));
}

/* e(P, −Q)·e(P, Q) = 1 and e(−P, Q) = e(P, −Q) = e(P, Q)⁻¹, checked through cuzk_multi_pairing_is_one. */
static void test_negation(void **state)
{
    (void)state;
    cuzk_g1_affine_t p[2];
    cuzk_g2_affine_t q[2];
    cuzk_g1_generator(&p[0]);
    cuzk_g2_generator(&q[0]);
    p[1] = p[0];
    cuzk_g2_affine_neg(&q[1], &q[0]);
    assert_true(cuzk_multi_pairing_is_one(p, q, 2));
    cuzk_g1_affine_neg(&p[1], &p[0]);
    q[1] = q[0];
    assert_true(cuzk_multi_pairing_is_one(p, q, 2));
    cuzk_g1_affine_neg(&p[1], &p[0]);
    cuzk_g2_affine_neg(&q[1], &q[0]);
    assert_false(cuzk_multi_pairing_is_one(p, q, 2)); /* e(−P, −Q) = e(P, Q) */
}

static void test_infinity(void **state)
{
    (void)state;
    cuzk_g1_affine_t p, p0;
    cuzk_g2_affine_t q, q0;
    cuzk_fp12_t e;
    cuzk_g1_generator(&p);
    cuzk_g2_generator(&q);
    cuzk_g1_affine_set_infinity(&p0);
    cuzk_g2_affine_set_infinity(&q0);
    cuzk_pairing(&e, &p0, &q);
    assert_true(cuzk_fp12_is_one(&e));
    cuzk_pairing(&e, &p, &q0);
    assert_true(cuzk_fp12_is_one(&e));
    cuzk_pairing(&e, &p0, &q0);
    assert_true(cuzk_fp12_is_one(&e));
    cuzk_multi_pairing(&e, &p, &q, 0);
    assert_true(cuzk_fp12_is_one(&e));
    /* an infinity pair in a batch contributes 1 */
    cuzk_g1_affine_t ps[3] = {p, p0, p};
    cuzk_g2_affine_t qs[3] = {q, q, q0};
    cuzk_fp12_t want;
    cuzk_multi_pairing(&e, ps, qs, 3);
    cuzk_pairing(&want, &p, &q);
    assert_true(cuzk_fp12_eq(&e, &want));
    cuzk_g2_prepared_t *prep = test_malloc(sizeof *prep);
    cuzk_g2_prepare(prep, &q0);
    cuzk_miller_loop_prepared(&e, &p, prep, 1);
    assert_true(cuzk_fp12_is_one(&e));
    test_free(prep);
}

/* [k]G1 and [k]G2 for a scalar k (Fr element as canonical limbs). */
static void cuzk_g1_mul_gen(cuzk_g1_affine_t *r, const cuzk_fr_t *k)
{
    cuzk_g1_affine_t g;
    cuzk_g1_jac_t t;
    uint64_t l[CUZK_FR_LIMBS];
    cuzk_g1_generator(&g);
    cuzk_g1_jac_from_affine(&t, &g);
    cuzk_fr_to_limbs(l, k);
    cuzk_g1_jac_mul(&t, &t, l, CUZK_FR_LIMBS);
    cuzk_g1_jac_to_affine(r, &t);
}

static void cuzk_g2_mul_gen(cuzk_g2_affine_t *r, const cuzk_fr_t *k)
{
    cuzk_g2_affine_t g;
    cuzk_g2_jac_t t;
    uint64_t l[CUZK_FR_LIMBS];
    cuzk_g2_generator(&g);
    cuzk_g2_jac_from_affine(&t, &g);
    cuzk_fr_to_limbs(l, k);
    cuzk_g2_jac_mul(&t, &t, l, CUZK_FR_LIMBS);
    cuzk_g2_jac_to_affine(r, &t);
}

static void fp12_pow_fr(cuzk_fp12_t *r, const cuzk_fp12_t *a, const cuzk_fr_t *k)
{
    uint64_t l[CUZK_FR_LIMBS];
    cuzk_fr_to_limbs(l, k);
    cuzk_fp12_pow(r, a, l, CUZK_FR_LIMBS);
}

/* e(aP, bQ) = e(P, Q)^(ab) = e(abP, Q) = e(P, abQ) for random a, b and random P, Q. */
static void test_bilinearity(void **state)
{
    (void)state;
    for (int i = 0; i < 2; i++) {
        cuzk_fr_t a, b, ab, s, t;
        cuzk_g1_affine_t p, ap, abp;
        cuzk_g2_affine_t q, bq, abq;
        cuzk_fp12_t e, e1, e2, e3;
        test_rand_fr(&s);
        test_rand_fr(&t);
        test_rand_fr(&a);
        test_rand_fr(&b);
        cuzk_fr_mul(&ab, &a, &b);
        cuzk_g1_mul_gen(&p, &s);
        cuzk_g2_mul_gen(&q, &t);
        cuzk_fr_mul(&a, &a, &s); /* aP = [a·s]G1 */
        cuzk_g1_mul_gen(&ap, &a);
        cuzk_fr_mul(&b, &b, &t);
        cuzk_g2_mul_gen(&bq, &b);
        cuzk_fr_t abs, abt;
        cuzk_fr_mul(&abs, &ab, &s);
        cuzk_fr_mul(&abt, &ab, &t);
        cuzk_g1_mul_gen(&abp, &abs);
        cuzk_g2_mul_gen(&abq, &abt);

        cuzk_pairing(&e, &p, &q);
        cuzk_pairing(&e1, &ap, &bq);
        fp12_pow_fr(&e2, &e, &ab);
        assert_true(cuzk_fp12_eq(&e1, &e2));
        cuzk_pairing(&e3, &abp, &q);
        assert_true(cuzk_fp12_eq(&e1, &e3));
        cuzk_pairing(&e3, &p, &abq);
        assert_true(cuzk_fp12_eq(&e1, &e3));
        assert_false(cuzk_fp12_eq(&e, &e1)); /* ab ≠ 1 with overwhelming probability: the check can fail */
    }
}

#define BATCH 10 /* more than one chunk of the shared-squaring Miller loop */

/* cuzk_multi_pairing = ∏ pairing; the Miller loops agree one by one, in a batch, and from prepared lines. */
static void test_multi_and_prepared(void **state)
{
    (void)state;
    cuzk_g1_affine_t p[BATCH];
    cuzk_g2_affine_t q[BATCH];
    cuzk_g2_prepared_t *prep = test_malloc(BATCH * sizeof *prep);
    for (int i = 0; i < BATCH; i++) {
        cuzk_fr_t k;
        test_rand_fr(&k);
        cuzk_g1_mul_gen(&p[i], &k);
        if (i < 3) {
            test_rand_fr(&k);
            cuzk_g2_mul_gen(&q[i], &k);
        } else {
            q[i] = q[i % 3];
        }
        cuzk_g2_prepare(&prep[i], &q[i]);
    }
    cuzk_fp12_t f, g, acc, e;
    cuzk_fp12_set_one(&acc);
    for (int i = 0; i < BATCH; i++) {
        cuzk_miller_loop(&f, &p[i], &q[i], 1);
        cuzk_miller_loop_prepared(&g, &p[i], &prep[i], 1);
        assert_true(cuzk_fp12_eq(&f, &g));
        cuzk_fp12_mul(&acc, &acc, &f);
    }
    cuzk_miller_loop(&f, p, q, BATCH);
    cuzk_miller_loop_prepared(&g, p, prep, BATCH);
    assert_true(cuzk_fp12_eq(&f, &g));
    cuzk_final_exponentiation(&f, &f);
    cuzk_final_exponentiation(&acc, &acc);
    assert_true(cuzk_fp12_eq(&f, &acc));
    cuzk_multi_pairing(&e, p, q, BATCH);
    assert_true(cuzk_fp12_eq(&e, &acc));
    /* and the product of the first three full pairings */
    cuzk_fp12_t prod, t;
    cuzk_fp12_set_one(&prod);
    for (int i = 0; i < 3; i++) {
        cuzk_pairing(&t, &p[i], &q[i]);
        cuzk_fp12_mul(&prod, &prod, &t);
    }
    cuzk_multi_pairing(&e, p, q, 3);
    assert_true(cuzk_fp12_eq(&e, &prod));
    test_free(prep);
}

/* Lines prepared for a fixed G2 point (l4 = 1) give the same pairings after the final exponentiation (the Miller-loop
 * values differ by factors in Fp): one pair, a batch where they alternate with ordinary prepared lines, more of them
 * than take the 1/yP form, a P at infinity among them, and Q at infinity. */
static void test_prepared_fixed(void **state)
{
    (void)state;
    cuzk_g1_affine_t p[BATCH];
    cuzk_g2_affine_t q[BATCH];
    cuzk_g2_prepared_t *fixed = test_malloc(BATCH * sizeof *fixed), *mixed = test_malloc(BATCH * sizeof *mixed);
    for (int i = 0; i < BATCH; i++) {
        cuzk_fr_t k;
        test_rand_fr(&k);
        cuzk_g1_mul_gen(&p[i], &k);
        test_rand_fr(&k);
        cuzk_g2_mul_gen(&q[i], &k);
        cuzk_g2_prepare_fixed(&fixed[i], &q[i]);
        assert_true(fixed[i].normalized);
        if (i % 2) cuzk_g2_prepare(&mixed[i], &q[i]);
        else mixed[i] = fixed[i];
    }
    cuzk_fp12_t f, g;
    for (int i = 0; i < 3; i++) {
        cuzk_multi_pairing(&f, &p[i], &q[i], 1);
        cuzk_miller_loop_prepared(&g, &p[i], &fixed[i], 1);
        cuzk_final_exponentiation(&g, &g);
        assert_true(cuzk_fp12_eq(&f, &g));
    }
    cuzk_g1_affine_set_infinity(&p[4]);
    for (size_t n = 1; n <= BATCH; n += 3) {
        cuzk_multi_pairing(&f, p, q, n);
        cuzk_miller_loop_prepared(&g, p, fixed, n);
        cuzk_final_exponentiation(&g, &g);
        assert_true(cuzk_fp12_eq(&f, &g));
        cuzk_miller_loop_prepared(&g, p, mixed, n);
        cuzk_final_exponentiation(&g, &g);
        assert_true(cuzk_fp12_eq(&f, &g));
    }
    cuzk_g2_affine_t inf;
    cuzk_g2_affine_set_infinity(&inf);
    cuzk_g2_prepare_fixed(&fixed[0], &inf);
    cuzk_miller_loop_prepared(&g, p, fixed, 1);
    assert_true(cuzk_fp12_is_one(&g));
    test_free(fixed);
    test_free(mixed);
}

const struct CMUnitTest pairing_tests[] = {
    cmocka_unit_test(test_bilinearity),
    cmocka_unit_test(test_multi_and_prepared),
    cmocka_unit_test(test_prepared_fixed),
    cmocka_unit_test(test_known_answer),
    cmocka_unit_test(test_order_and_nondegeneracy),
    cmocka_unit_test(test_negation),
    cmocka_unit_test(test_infinity),
};
const size_t pairing_tests_count = sizeof pairing_tests / sizeof pairing_tests[0];
