/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* NTT: transforms against a naive DFT and Horner evaluation, round trips at sizes that use the cache-blocked and
 * multi-threaded paths, and the two Groth16 H computations checked through the identity A·B − C = H·Z. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "cuzk/ntt.h"

static const cuzk_fr_roots CONVS[2] = {CUZK_FR_ROOTS_GEN7, CUZK_FR_ROOTS_GEN5};

static cuzk_fr_t *rand_vec(size_t n)
{
    cuzk_fr_t *v = malloc(n * sizeof *v);
    assert_non_null(v);
    for (size_t i = 0; i < n; i++) test_rand_fr(&v[i]);
    return v;
}

static cuzk_fr_t *copy_vec(const cuzk_fr_t *x, size_t n)
{
    cuzk_fr_t *v = malloc(n * sizeof *v);
    assert_non_null(v);
    memcpy(v, x, n * sizeof *v);
    return v;
}

static void assert_vec_eq(const cuzk_fr_t *x, const cuzk_fr_t *y, size_t n)
{
    for (size_t i = 0; i < n; i++) assert_true(cuzk_fr_eq(&x[i], &y[i]));
}

static void poly_eval(cuzk_fr_t *r, const cuzk_fr_t *p, size_t n, const cuzk_fr_t *x)
{
    cuzk_fr_set_zero(r);
    for (size_t i = n; i-- > 0;) {
        cuzk_fr_mul(r, r, x);
        cuzk_fr_add(r, r, &p[i]);
    }
}

static void pow_u64(cuzk_fr_t *r, const cuzk_fr_t *a, uint64_t e) { cuzk_fr_pow(r, a, &e, 1); }

static void init_ok(cuzk_ntt_domain *d, unsigned k, cuzk_fr_roots conv)
{
    assert_int_equal(cuzk_ntt_domain_init(d, k, conv), CUZK_OK);
}

/* y_i = Σ_j x_j·w^(i·j), with w given by its table of n powers. */
static void naive_dft(cuzk_fr_t *y, const cuzk_fr_t *x, const cuzk_fr_t *pw, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        cuzk_fr_set_zero(&y[i]);
        for (size_t j = 0; j < n; j++) {
            cuzk_fr_t t;
            cuzk_fr_mul(&t, &x[j], &pw[(i * j) % n]);
            cuzk_fr_add(&y[i], &y[i], &t);
        }
    }
}

static void test_against_naive_dft(void **state)
{
    (void)state;
    for (int c = 0; c < 2; c++) {
        for (unsigned k = 0; k <= 7; k++) {
            cuzk_ntt_domain d;
            init_ok(&d, k, CONVS[c]);
            size_t n = d.n;
            cuzk_fr_t w;
            assert_int_equal(cuzk_fr_root_of_unity(&w, k, CONVS[c]), CUZK_OK);
            cuzk_fr_t *pw = malloc(n * sizeof *pw), *pw_inv = malloc(n * sizeof *pw_inv), *y = malloc(n * sizeof *y);
            assert_true(pw && pw_inv && y);
            cuzk_fr_t w_inv;
            cuzk_fr_inv(&w_inv, &w);
            cuzk_fr_set_one(&pw[0]);
            cuzk_fr_set_one(&pw_inv[0]);
            for (size_t i = 1; i < n; i++) {
                cuzk_fr_mul(&pw[i], &pw[i - 1], &w);
                cuzk_fr_mul(&pw_inv[i], &pw_inv[i - 1], &w_inv);
            }
            cuzk_fr_t *x = rand_vec(n), *t = copy_vec(x, n);
            naive_dft(y, x, pw, n);
            cuzk_ntt_forward(t, &d, 1 + (k & 1));
            assert_vec_eq(t, y, n);
            /* inverse: (1/n)·Σ_j x_j·w^(−i·j) */
            memcpy(t, x, n * sizeof *t);
            naive_dft(y, x, pw_inv, n);
            for (size_t i = 0; i < n; i++) cuzk_fr_mul(&y[i], &y[i], &d.n_inv);
            cuzk_ntt_inverse(t, &d, 2);
            assert_vec_eq(t, y, n);
            free(pw), free(pw_inv), free(y), free(x), free(t);
            cuzk_ntt_domain_free(&d);
        }
    }
}

/* Sizes past the block size run the large sweeps and the thread split; a few outputs are checked by Horner, the
 * round trip checks all of them, and every thread count must give the same bits. */
static void test_roundtrip_and_threads(void **state)
{
    (void)state;
    static const unsigned ks[] = {1, 2, 9, 10, 11, 14, 16};
    static const unsigned threads[] = {0, 1, 2, 3, 4};
    for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++) {
        cuzk_ntt_domain d;
        cuzk_fr_roots conv = CONVS[ki % 2];
        init_ok(&d, ks[ki], conv);
        size_t n = d.n;
        cuzk_fr_t *x = rand_vec(n), *ref = copy_vec(x, n);
        cuzk_ntt_forward(ref, &d, 1);
        for (int s = 0; s < 3; s++) {
            size_t i = test_rand_u64() % n;
            cuzk_fr_t pt, v;
            pow_u64(&pt, &d.omega, i);
            poly_eval(&v, x, n, &pt);
            assert_true(cuzk_fr_eq(&v, &ref[i]));
        }
        /* the monomial X maps to ω^i at every position i: the whole output order is checked, not a sample */
        cuzk_fr_t *e1 = calloc(n, sizeof *e1), w;
        assert_non_null(e1);
        cuzk_fr_set_one(&e1[n > 1 ? 1 : 0]);
        cuzk_ntt_forward(e1, &d, 2);
        cuzk_fr_set_one(&w);
        for (size_t i = 0; i < n; i++) {
            assert_true(cuzk_fr_eq(&e1[i], &w));
            cuzk_fr_mul(&w, &w, &d.omega);
        }
        free(e1);
        for (size_t ti = 0; ti < sizeof threads / sizeof threads[0]; ti++) {
            cuzk_fr_t *t = copy_vec(x, n);
            cuzk_ntt_forward(t, &d, threads[ti]);
            assert_vec_eq(t, ref, n);
            cuzk_ntt_inverse(t, &d, threads[ti]);
            assert_vec_eq(t, x, n);
            free(t);
        }
        free(x), free(ref);
        cuzk_ntt_domain_free(&d);
    }
}

static void test_coset(void **state)
{
    (void)state;
    static const unsigned ks[] = {0, 1, 3, 6, 15};
    for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++) {
        for (int c = 0; c < 2; c++) {
            cuzk_ntt_domain d;
            init_ok(&d, ks[ki], CONVS[c]);
            size_t n = d.n;
            cuzk_fr_t g;
            test_rand_fr(&g);
            cuzk_fr_t *x = rand_vec(n), *t = copy_vec(x, n);
            cuzk_ntt_coset_forward(t, &d, &g, 2);
            /* all points for small n, a sample for large n */
            size_t checks = n <= 64 ? n : 4;
            for (size_t s = 0; s < checks; s++) {
                size_t i = n <= 64 ? s : test_rand_u64() % n;
                cuzk_fr_t pt, v;
                pow_u64(&pt, &d.omega, i);
                cuzk_fr_mul(&pt, &pt, &g);
                poly_eval(&v, x, n, &pt);
                assert_true(cuzk_fr_eq(&v, &t[i]));
            }
            cuzk_ntt_coset_inverse(t, &d, &g, 3);
            assert_vec_eq(t, x, n);
            free(x), free(t);
            cuzk_ntt_domain_free(&d);
        }
    }
}

/* A, B random of degree < n; a, b their evaluations on the domain; c = a∘b, so C interpolates A·B on the domain and
 * Z = X^n − 1 divides A·B − C. */
typedef struct {
    size_t n;
    cuzk_fr_t *A, *B, *C, *a, *b, *c;
} h_case;

static void h_case_make(h_case *hc, const cuzk_ntt_domain *d)
{
    size_t n = d->n;
    hc->n = n;
    hc->A = rand_vec(n);
    hc->B = rand_vec(n);
    hc->a = copy_vec(hc->A, n);
    hc->b = copy_vec(hc->B, n);
    cuzk_ntt_forward(hc->a, d, 2);
    cuzk_ntt_forward(hc->b, d, 2);
    hc->c = malloc(n * sizeof(cuzk_fr_t));
    assert_non_null(hc->c);
    for (size_t i = 0; i < n; i++) cuzk_fr_mul(&hc->c[i], &hc->a[i], &hc->b[i]);
    hc->C = copy_vec(hc->c, n);
    cuzk_ntt_inverse(hc->C, d, 2);
}

static void h_case_free(h_case *hc) { free(hc->A), free(hc->B), free(hc->C), free(hc->a), free(hc->b), free(hc->c); }

/* A(X)·B(X) − C(X) at X */
static void abc_at(cuzk_fr_t *r, const h_case *hc, const cuzk_fr_t *x)
{
    cuzk_fr_t va, vb, vc;
    poly_eval(&va, hc->A, hc->n, x);
    poly_eval(&vb, hc->B, hc->n, x);
    poly_eval(&vc, hc->C, hc->n, x);
    cuzk_fr_mul(r, &va, &vb);
    cuzk_fr_sub(r, r, &vc);
}

static void z_at(cuzk_fr_t *r, size_t n, const cuzk_fr_t *x)
{
    cuzk_fr_t one;
    cuzk_fr_set_one(&one);
    pow_u64(r, x, n);
    cuzk_fr_sub(r, r, &one);
}

static void test_h_bellperson(void **state)
{
    (void)state;
    static const unsigned ks[] = {0, 1, 2, 5, 10, 14};
    for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++) {
        cuzk_ntt_domain d;
        init_ok(&d, ks[ki], CUZK_FR_ROOTS_GEN7);
        h_case hc;
        h_case_make(&hc, &d);
        size_t n = d.n;
        cuzk_fr_t *h = malloc(n * sizeof *h);
        assert_non_null(h);
        cuzk_ntt_h_bellperson(h, hc.a, hc.b, hc.c, &d, 1 + (unsigned)(ki % 3));
        assert_true(cuzk_fr_is_zero(&h[n - 1]));
        for (int s = 0; s < 2; s++) {
            cuzk_fr_t x, lhs, rhs, z;
            test_rand_fr(&x);
            abc_at(&lhs, &hc, &x);
            poly_eval(&rhs, h, n, &x);
            z_at(&z, n, &x);
            cuzk_fr_mul(&rhs, &rhs, &z);
            assert_true(cuzk_fr_eq(&lhs, &rhs));
        }
        h_case_free(&hc);
        free(h);
        cuzk_ntt_domain_free(&d);
    }
}

static void test_h_bellperson_aliased_and_unsatisfied(void **state)
{
    (void)state;
    cuzk_ntt_domain d;
    init_ok(&d, 6, CUZK_FR_ROOTS_GEN7);
    h_case hc;
    h_case_make(&hc, &d);
    size_t n = d.n;
    cuzk_fr_t *a = copy_vec(hc.a, n), *b = copy_vec(hc.b, n), *c = copy_vec(hc.c, n), *h = malloc(n * sizeof *h);
    assert_non_null(h);
    cuzk_ntt_h_bellperson(h, a, b, c, &d, 2);
    /* h aliasing a gives the same result */
    cuzk_ntt_h_bellperson(hc.a, hc.a, hc.b, hc.c, &d, 1);
    assert_vec_eq(hc.a, h, n);
    /* a witness that does not satisfy one constraint leaves a remainder: the top coefficient is no longer zero */
    free(a), free(b), free(c);
    h_case_free(&hc);
    h_case_make(&hc, &d);
    cuzk_fr_t one;
    cuzk_fr_set_one(&one);
    cuzk_fr_add(&hc.c[5], &hc.c[5], &one);
    cuzk_ntt_h_bellperson(h, hc.a, hc.b, hc.c, &d, 2);
    assert_false(cuzk_fr_is_zero(&h[n - 1]));
    free(h);
    h_case_free(&hc);
    cuzk_ntt_domain_free(&d);
}

static void test_h_snarkjs(void **state)
{
    (void)state;
    static const unsigned ks[] = {0, 1, 3, 7, 14};
    for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++) {
        cuzk_ntt_domain d;
        init_ok(&d, ks[ki], CUZK_FR_ROOTS_GEN5);
        h_case hc;
        h_case_make(&hc, &d);
        size_t n = d.n;
        cuzk_fr_t *h = malloc(n * sizeof *h);
        assert_non_null(h);
        cuzk_ntt_h_snarkjs(h, hc.a, hc.b, hc.c, &d, 1 + (unsigned)(ki % 3));
        /* h_i = (A·B − C)(ω_2n^(2i+1)) */
        cuzk_fr_t w2n;
        assert_int_equal(cuzk_fr_root_of_unity(&w2n, ks[ki] + 1, CUZK_FR_ROOTS_GEN5), CUZK_OK);
        size_t checks = n <= 128 ? n : 4;
        for (size_t s = 0; s < checks; s++) {
            size_t i = n <= 128 ? s : test_rand_u64() % n;
            cuzk_fr_t x, v;
            pow_u64(&x, &w2n, 2 * i + 1);
            abc_at(&v, &hc, &x);
            assert_true(cuzk_fr_eq(&v, &h[i]));
        }
        /* and h determines H: on the coset Z = −2, so interpolating h there gives −2·H, and A·B − C = H·Z */
        cuzk_ntt_coset_inverse(h, &d, &w2n, 2);
        cuzk_fr_t x, lhs, rhs, z, minus_half;
        cuzk_fr_from_u64(&minus_half, 2);
        cuzk_fr_neg(&minus_half, &minus_half);
        cuzk_fr_inv(&minus_half, &minus_half);
        test_rand_fr(&x);
        abc_at(&lhs, &hc, &x);
        poly_eval(&rhs, h, n, &x);
        z_at(&z, n, &x);
        cuzk_fr_mul(&rhs, &rhs, &z);
        cuzk_fr_mul(&rhs, &rhs, &minus_half);
        assert_true(cuzk_fr_eq(&lhs, &rhs));
        assert_true(cuzk_fr_is_zero(&h[n - 1]));
        h_case_free(&hc);
        free(h);
        cuzk_ntt_domain_free(&d);
    }
}

static void test_edge_cases(void **state)
{
    (void)state;
    cuzk_ntt_domain d;
    assert_int_equal(cuzk_ntt_domain_init(&d, CUZK_NTT_MAX_LOG2 + 1, CUZK_FR_ROOTS_GEN7), CUZK_ERR_BAD_ROOT_ORDER);
    assert_null(d.tw);
    cuzk_ntt_domain_free(&d);
    assert_int_equal(cuzk_ntt_domain_init(&d, 33, CUZK_FR_ROOTS_GEN5), CUZK_ERR_BAD_ROOT_ORDER);
    assert_int_equal(cuzk_ntt_domain_init(&d, 4, (cuzk_fr_roots)3), CUZK_ERR_INVALID_ARG);
    cuzk_ntt_domain_free(&d);

    /* n = 1: every transform is the identity */
    init_ok(&d, 0, CUZK_FR_ROOTS_GEN7);
    cuzk_fr_t x, y, g;
    test_rand_fr(&x);
    test_rand_fr(&g);
    y = x;
    cuzk_ntt_forward(&y, &d, 4);
    cuzk_ntt_inverse(&y, &d, 4);
    cuzk_ntt_coset_forward(&y, &d, &g, 4);
    assert_true(cuzk_fr_eq(&x, &y));
    cuzk_ntt_domain_free(&d);

    /* n = 2: (x0 + x1, x0 − x1), and the domain's ω is −1 */
    init_ok(&d, 1, CUZK_FR_ROOTS_GEN5);
    cuzk_fr_t v[2], s, t;
    test_rand_fr(&v[0]);
    test_rand_fr(&v[1]);
    cuzk_fr_add(&s, &v[0], &v[1]);
    cuzk_fr_sub(&t, &v[0], &v[1]);
    cuzk_ntt_forward(v, &d, 2);
    assert_true(cuzk_fr_eq(&v[0], &s));
    assert_true(cuzk_fr_eq(&v[1], &t));
    cuzk_fr_t minus_one;
    cuzk_fr_set_one(&minus_one);
    cuzk_fr_neg(&minus_one, &minus_one);
    assert_true(cuzk_fr_eq(&d.omega, &minus_one));
    cuzk_ntt_domain_free(&d);

    /* the two conventions pick different roots (from n = 8 on), so their transforms differ */
    cuzk_ntt_domain d7, d5;
    init_ok(&d7, 3, CUZK_FR_ROOTS_GEN7);
    init_ok(&d5, 3, CUZK_FR_ROOTS_GEN5);
    assert_false(cuzk_fr_eq(&d7.omega, &d5.omega));
    cuzk_ntt_domain_free(&d7);
    cuzk_ntt_domain_free(&d5);
}

int main(void)
{
    test_seed_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_naive_dft),
        cmocka_unit_test(test_roundtrip_and_threads),
        cmocka_unit_test(test_coset),
        cmocka_unit_test(test_h_bellperson),
        cmocka_unit_test(test_h_bellperson_aliased_and_unsatisfied),
        cmocka_unit_test(test_h_snarkjs),
        cmocka_unit_test(test_edge_cases),
    };
    return cmocka_run_group_tests_name("ntt", tests, NULL, NULL);
}
