/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The CPU paths (base.h): their names, switching between them, and every path the processor has running the field
 * kernels against the portable C on the same inputs: random values and the extremes that the bounds of the lazy
 * reduction rest on (0, 1, p − 1, sums up to 2p − 1, wide values up to p·2^384 − 1). */
#include <string.h>

#include "testutil.h"
#include "test_ff.h"
#include "../../src/ff/ff_internal.h"
#include "../../src/ff/fp_wide.h"

#define ITER 300

static void test_path_names(void **state)
{
    (void)state;
    cuzk_cpu_path p, saved = cuzk_cpu_path_get();
    static const char *const names[] = {"portable", "adx", "ifma"};
    for (unsigned i = 0; i < CUZK_CPU_PATH_COUNT; i++) {
        assert_int_equal(cuzk_cpu_path_parse(names[i], &p), CUZK_OK);
        assert_int_equal(p, i);
        assert_string_equal(cuzk_cpu_path_name((cuzk_cpu_path)i), names[i]);
    }
    assert_int_equal(cuzk_cpu_path_parse("auto", &p), CUZK_OK);
    assert_int_equal(p, cuzk_cpu_path_best());
    assert_int_equal(cuzk_cpu_path_parse("ADX", &p), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_cpu_path_parse("avx512", &p), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_cpu_path_parse(NULL, &p), CUZK_ERR_INVALID_ARG);
    assert_string_equal(cuzk_cpu_path_name(CUZK_CPU_PATH_COUNT), "?");
    /* out of the enum, or more than the processor has: refused, the current path unchanged */
    assert_int_equal(cuzk_cpu_path_set(CUZK_CPU_PATH_COUNT), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_cpu_path_get(), saved);
    if (cuzk_cpu_path_best() < CUZK_CPU_IFMA) {
        assert_int_equal(cuzk_cpu_path_set(CUZK_CPU_IFMA), CUZK_ERR_UNSUPPORTED);
        assert_int_equal(cuzk_cpu_path_get(), saved);
    }
    assert_int_equal(cuzk_cpu_path_set(CUZK_CPU_PORTABLE), CUZK_OK);
    assert_int_equal(cuzk_cpu_path_get(), CUZK_CPU_PORTABLE);
    assert_int_equal(cuzk_cpu_path_set(saved), CUZK_OK);
}

/* Raw limbs of an extreme value: 0, 1, p − 1, p − 2, a value with every limb below p's top one all ones, 2^380. */
static void fp_edge(cuzk_fp_t *r, int k)
{
    memset(r, 0, sizeof *r);
    switch (k % 6) {
    case 0: break;
    case 1: r->l[0] = 1; break;
    case 2:
        memcpy(r->l, CUZK_FP_MODULUS, sizeof r->l);
        r->l[0] -= 1;
        break;
    case 3:
        memcpy(r->l, CUZK_FP_MODULUS, sizeof r->l);
        r->l[0] -= 2;
        break;
    case 4:
        for (int i = 0; i < CUZK_FP_LIMBS - 1; i++) r->l[i] = ~0ULL;
        r->l[CUZK_FP_LIMBS - 1] = CUZK_FP_MODULUS[CUZK_FP_LIMBS - 1] - 1;
        break;
    case 5: r->l[CUZK_FP_LIMBS - 1] = 1ULL << 60; break;
    }
}

static void fp_inputs(cuzk_fp_t *a, cuzk_fp_t *b, int i)
{
    if (i < 36) {
        fp_edge(a, i / 6);
        fp_edge(b, i);
    } else {
        test_rand_fp(a);
        test_rand_fp(b);
    }
}

/* The double-width primitives of each path against the portable table, and against the Montgomery product:
 * REDC(a·b) = a·b·2^-384. Unreduced sums (< 2p) enter the products as Karatsuba feeds them; REDC also gets the
 * largest input it allows, p·2^384 − 1. */
static void test_wide_primitives(void **state)
{
    (void)state;
    const fpw_prims *C = &cuzk_fpw_prims[CUZK_CPU_PORTABLE];
    for (unsigned path = CUZK_CPU_PORTABLE; path <= cuzk_cpu_path_best(); path++) {
        const fpw_prims *P = &cuzk_fpw_prims[path];
        for (int i = 0; i < ITER + 36; i++) {
            cuzk_fp_t a, b, s, m, x, y;
            fp_inputs(&a, &b, i);
            fpw w0, w1;
            P->mulw(w0.l, a.l, b.l);
            C->mulw(w1.l, a.l, b.l);
            assert_memory_equal(&w0, &w1, sizeof w0);
            P->redc(x.l, w0.l);
            cuzk_fp_mul_portable(&m, &a, &b);
            assert_memory_equal(&x, &m, sizeof x);
            P->mul(y.l, a.l, b.l);
            assert_memory_equal(&y, &m, sizeof y);
            /* a + b < 2p unreduced, squared: < 4p² */
            fp_add_nr(&s, &a, &b);
            P->mulw(w0.l, s.l, s.l);
            C->mulw(w1.l, s.l, s.l);
            assert_memory_equal(&w0, &w1, sizeof w0);
            P->redc(x.l, w0.l);
            C->redc(y.l, w1.l);
            assert_memory_equal(&x, &y, sizeof x);
            /* Fp2 at double width, then reduced, against the schoolbook product in Fp */
            cuzk_fp2_t u = {a, b}, v = {b, a}, r, want;
            if (i % 3 == 1) v.c1 = a;
            fp2w t0, t1;
            P->fp2_mulw(&t0, &u, &v);
            C->fp2_mulw(&t1, &u, &v);
            assert_memory_equal(&t0, &t1, sizeof t0);
            P->redc(r.c0.l, t0.c0.l);
            P->redc(r.c1.l, t0.c1.l);
            cuzk_fp_t p00, p11, p01, p10;
            cuzk_fp_mul_portable(&p00, &u.c0, &v.c0);
            cuzk_fp_mul_portable(&p11, &u.c1, &v.c1);
            cuzk_fp_mul_portable(&p01, &u.c0, &v.c1);
            cuzk_fp_mul_portable(&p10, &u.c1, &v.c0);
            cuzk_fp_sub_portable(&want.c0, &p00, &p11);
            cuzk_fp_add_portable(&want.c1, &p01, &p10);
            assert_memory_equal(&r, &want, sizeof r);
            /* the fused Fp2 routines: reduction of both halves, product, square and square at double width */
            cuzk_fp2_t r2;
            P->fp2_redc(&r2, &t0);
            assert_memory_equal(&r2, &want, sizeof r2);
            P->fp2_mul(&r2, &u, &v);
            assert_memory_equal(&r2, &want, sizeof r2);
            r2 = u;
            P->fp2_mul(&r2, &r2, &r2);
            P->fp2_sqr(&r, &u);
            assert_memory_equal(&r, &r2, sizeof r);
            C->fp2_sqr(&r2, &u);
            assert_memory_equal(&r, &r2, sizeof r);
            P->fp2_sqrw(&t0, &u);
            C->fp2_sqrw(&t1, &u);
            assert_memory_equal(&t0, &t1, sizeof t0);
            C->fp2_redc(&r2, &t1);
            assert_memory_equal(&r, &r2, sizeof r);
            r2 = u;
            P->fp2_sqr(&r2, &r2);
            assert_memory_equal(&r, &r2, sizeof r);
        }
        /* REDC's largest input: p·2^384 − 1 */
        fpw t;
        for (int k = 0; k < CUZK_FP_LIMBS; k++) t.l[k] = ~0ULL;
        memcpy(t.l + CUZK_FP_LIMBS, CUZK_FP_MODULUS, sizeof(cuzk_fp_t));
        t.l[CUZK_FP_LIMBS] -= 1;
        cuzk_fp_t x, y;
        P->redc(x.l, t.l);
        C->redc(y.l, t.l);
        assert_memory_equal(&x, &y, sizeof x);
        assert_true(cuzk_fp_from_mont_limbs(&y, x.l) == CUZK_OK); /* fully reduced */
    }
}

/* The public kernels on every path give the portable path's results limb for limb. */
static void test_paths_agree(void **state)
{
    (void)state;
    cuzk_cpu_path saved = cuzk_cpu_path_get();
    for (int i = 0; i < ITER + 36; i++) {
        cuzk_fp_t a, b;
        cuzk_fr_t c, d;
        fp_inputs(&a, &b, i);
        test_rand_fr(&c);
        test_rand_fr(&d);
        cuzk_fp2_t u = {a, b}, v = {b, a};
        struct {
            cuzk_fp_t fm, fs, finv;
            cuzk_fr_t rm, rs;
            cuzk_fp2_t m2, s2, mf, inv2;
        } want, got;
        for (unsigned path = CUZK_CPU_PORTABLE; path <= cuzk_cpu_path_best(); path++) {
            assert_int_equal(cuzk_cpu_path_set((cuzk_cpu_path)path), CUZK_OK);
            memset(&got, 0, sizeof got);
            cuzk_fp_mul(&got.fm, &a, &b);
            cuzk_fp_sqr(&got.fs, &a);
            cuzk_fp_inv(&got.finv, &b);
            cuzk_fr_mul(&got.rm, &c, &d);
            cuzk_fr_sqr(&got.rs, &c);
            cuzk_fp2_mul(&got.m2, &u, &v);
            cuzk_fp2_sqr(&got.s2, &u);
            cuzk_fp2_mul_fp(&got.mf, &u, &b);
            cuzk_fp2_inv(&got.inv2, &u);
            if (path == CUZK_CPU_PORTABLE) want = got;
            else assert_memory_equal(&got, &want, sizeof got);
        }
    }
    assert_int_equal(cuzk_cpu_path_set(saved), CUZK_OK);
}

const struct CMUnitTest path_tests[] = {
    cmocka_unit_test(test_path_names),
    cmocka_unit_test(test_wide_primitives),
    cmocka_unit_test(test_paths_agree),
};
const size_t path_tests_count = sizeof path_tests / sizeof path_tests[0];
