/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Tests shared by G1 and G2, written once. The including file defines FE, FE_, G_, AFF, JAC, XYZZ, RAND_FE (a
 * random field element), FE_BYTES and R_LIMBS-related helpers via ec_test.h. */

/* A random point of the subgroup: [k]G for a random k. */
static void G_(rand_point)(JAC *r)
{
    AFF g;
    JAC gj;
    cuzk_fr_t k;
    uint64_t l[CUZK_FR_LIMBS];
    G_(generator)(&g);
    G_(jac_from_affine)(&gj, &g);
    test_rand_fr(&k);
    cuzk_fr_to_limbs(l, &k);
    G_(jac_mul)(r, &gj, l, CUZK_FR_LIMBS);
}

/* A random point of the curve, with no cofactor clearing: outside the subgroup except with probability ~1/h. */
static void G_(rand_curve_point)(AFF *r)
{
    FE y2;
    do {
        RAND_FE(&r->x);
        G_(curve_rhs)(&y2, &r->x);
    } while (!FE_(sqrt)(&r->y, &y2));
}

/* An x for which x³ + b has no square root. */
static void G_(rand_x_without_y)(FE *x)
{
    FE y2, y;
    do {
        RAND_FE(x);
        G_(curve_rhs)(&y2, x);
    } while (FE_(sqrt)(&y, &y2));
}

static void G_(test_generator)(void **state)
{
    (void)state;
    AFF g;
    G_(generator)(&g);
    assert_true(G_(affine_on_curve)(&g));
    assert_false(G_(affine_is_infinity)(&g));
    assert_true(G_(affine_in_subgroup)(&g));
    assert_true(G_(affine_in_subgroup_naive)(&g));
}

static void G_(test_group_laws)(void **state)
{
    (void)state;
    for (int it = 0; it < 6; it++) {
        JAC p, q, s, t0, t1, inf;
        G_(rand_point)(&p);
        G_(rand_point)(&q);
        G_(rand_point)(&s);
        G_(jac_set_infinity)(&inf);
        assert_false(G_(jac_eq)(&p, &q));
        /* commutativity, associativity */
        G_(jac_add)(&t0, &p, &q);
        G_(jac_add)(&t1, &q, &p);
        assert_true(G_(jac_eq)(&t0, &t1));
        G_(jac_add)(&t0, &t0, &s);
        G_(jac_add)(&t1, &q, &s);
        G_(jac_add)(&t1, &p, &t1);
        assert_true(G_(jac_eq)(&t0, &t1));
        /* identity and inverse */
        G_(jac_add)(&t0, &p, &inf);
        assert_true(G_(jac_eq)(&t0, &p));
        G_(jac_add)(&t0, &inf, &p);
        assert_true(G_(jac_eq)(&t0, &p));
        G_(jac_neg)(&t0, &p);
        G_(jac_add)(&t0, &t0, &p);
        assert_true(G_(jac_is_infinity)(&t0));
        /* doubling, also through the P = Q branch with full aliasing */
        G_(jac_dbl)(&t0, &p);
        t1 = p;
        G_(jac_add)(&t1, &t1, &t1);
        assert_true(G_(jac_eq)(&t0, &t1));
        assert_false(G_(jac_eq)(&t0, &p));
        /* 3P − P = 2P */
        G_(jac_add)(&t1, &t0, &p);
        G_(jac_neg)(&s, &p);
        G_(jac_add)(&t1, &t1, &s);
        assert_true(G_(jac_eq)(&t0, &t1));
        G_(jac_dbl)(&t0, &inf);
        assert_true(G_(jac_is_infinity)(&t0));

        /* mixed addition agrees with full addition, including its exceptional cases */
        AFF qa, pa, infa;
        G_(jac_to_affine)(&qa, &q);
        G_(jac_to_affine)(&pa, &p);
        G_(affine_set_infinity)(&infa);
        assert_true(G_(affine_on_curve)(&qa));
        G_(jac_add)(&t0, &p, &q);
        G_(jac_add_affine)(&t1, &p, &qa);
        assert_true(G_(jac_eq)(&t0, &t1));
        t1 = p;
        G_(jac_add_affine)(&t1, &t1, &pa);
        G_(jac_dbl)(&t0, &p);
        assert_true(G_(jac_eq)(&t0, &t1));
        G_(affine_neg)(&pa, &pa);
        G_(jac_add_affine)(&t1, &p, &pa);
        assert_true(G_(jac_is_infinity)(&t1));
        G_(jac_add_affine)(&t1, &inf, &qa);
        assert_true(G_(jac_eq)(&t1, &q));
        G_(jac_add_affine)(&t1, &p, &infa);
        assert_true(G_(jac_eq)(&t1, &p));

        /* XYZZ agrees with Jacobian: sums, mixed sums, doublings and their exceptional cases */
        XYZZ xp, xq, x0;
        G_(jac_to_affine)(&pa, &p);
        G_(xyzz_from_affine)(&xp, &pa);
        G_(xyzz_from_affine)(&xq, &qa);
        G_(xyzz_dbl)(&xp, &xp); /* make ZZ ≠ 1 */
        G_(xyzz_add_affine)(&xq, &xq, &pa);
        G_(jac_dbl)(&s, &p);      /* s = 2P, matching xp */
        G_(jac_add)(&t0, &q, &p); /* t0 = Q + P, matching xq */
        G_(xyzz_to_jac)(&t1, &xp);
        assert_true(G_(jac_eq)(&t1, &s));
        G_(xyzz_to_jac)(&t1, &xq);
        assert_true(G_(jac_eq)(&t1, &t0));
        G_(xyzz_add)(&x0, &xp, &xq);
        G_(jac_add)(&t0, &s, &t0);
        G_(xyzz_to_jac)(&t1, &x0);
        assert_true(G_(jac_eq)(&t1, &t0));
        G_(xyzz_add_affine)(&x0, &xp, &qa);
        G_(jac_add_affine)(&t0, &s, &qa);
        G_(xyzz_to_jac)(&t1, &x0);
        assert_true(G_(jac_eq)(&t1, &t0));
        x0 = xp;
        G_(xyzz_add)(&x0, &x0, &x0);
        G_(jac_dbl)(&t0, &s);
        G_(xyzz_to_jac)(&t1, &x0);
        assert_true(G_(jac_eq)(&t1, &t0));
        XYZZ xn = xp;
        FE_(neg)(&xn.y, &xn.y);
        G_(xyzz_add)(&x0, &xp, &xn);
        assert_true(G_(xyzz_is_infinity)(&x0));
        AFF sa;
        G_(jac_to_affine)(&sa, &s);
        G_(xyzz_add_affine)(&x0, &xp, &sa);
        G_(jac_dbl)(&t0, &s);
        G_(xyzz_to_jac)(&t1, &x0);
        assert_true(G_(jac_eq)(&t1, &t0));
        G_(affine_neg)(&sa, &sa);
        G_(xyzz_add_affine)(&x0, &xp, &sa);
        assert_true(G_(xyzz_is_infinity)(&x0));
        G_(xyzz_set_infinity)(&x0);
        G_(xyzz_add)(&x0, &x0, &xp);
        G_(xyzz_add)(&x0, &x0, &x0);
        G_(xyzz_to_jac)(&t1, &x0);
        G_(jac_dbl)(&t0, &s);
        assert_true(G_(jac_eq)(&t1, &t0));
        G_(xyzz_set_infinity)(&x0);
        G_(xyzz_add_affine)(&x0, &x0, &qa);
        G_(xyzz_add_affine)(&x0, &x0, &infa);
        G_(xyzz_to_jac)(&t1, &x0);
        assert_true(G_(jac_eq)(&t1, &q));
        G_(xyzz_set_infinity)(&x0);
        G_(xyzz_dbl)(&x0, &x0);
        assert_true(G_(xyzz_is_infinity)(&x0));
        G_(xyzz_to_jac)(&t1, &x0);
        assert_true(G_(jac_is_infinity)(&t1));
    }
}

static void G_(test_eq_and_affine)(void **state)
{
    (void)state;
    JAC p, q;
    AFF a, b;
    G_(rand_point)(&p);
    /* rescale Z by λ: same point, different coordinates */
    FE l, l2, l3;
    RAND_FE(&l);
    FE_(sqr)(&l2, &l);
    FE_(mul)(&l3, &l2, &l);
    FE_(mul)(&q.x, &p.x, &l2);
    FE_(mul)(&q.y, &p.y, &l3);
    FE_(mul)(&q.z, &p.z, &l);
    assert_false(FE_(eq)(&q.x, &p.x));
    assert_true(G_(jac_eq)(&p, &q));
    G_(jac_to_affine)(&a, &p);
    G_(jac_to_affine)(&b, &q);
    assert_true(G_(affine_eq)(&a, &b));
    G_(jac_neg)(&q, &q);
    assert_false(G_(jac_eq)(&p, &q));
    /* infinity is equal only to itself */
    JAC inf;
    G_(jac_set_infinity)(&inf);
    assert_false(G_(jac_eq)(&p, &inf));
    assert_false(G_(jac_eq)(&inf, &p));
    assert_true(G_(jac_eq)(&inf, &inf));
    G_(jac_to_affine)(&a, &inf);
    assert_true(G_(affine_is_infinity)(&a));
    assert_true(G_(affine_on_curve)(&a));
    G_(jac_from_affine)(&q, &a);
    assert_true(G_(jac_is_infinity)(&q));
    /* a random (x, y) is not on the curve; a solved one is */
    RAND_FE(&a.x);
    RAND_FE(&a.y);
    assert_false(G_(affine_on_curve)(&a));
    G_(rand_curve_point)(&a);
    assert_true(G_(affine_on_curve)(&a));
    FE_(add)(&a.y, &a.y, &l);
    assert_false(G_(affine_on_curve)(&a));
}

static void G_(test_batch_to_affine)(void **state)
{
    (void)state;
    enum { N = 9 };
    JAC in[N];
    AFF out[N], one;
    for (int i = 0; i < N; i++) G_(rand_point)(&in[i]);
    G_(jac_set_infinity)(&in[0]);
    G_(jac_set_infinity)(&in[4]);
    G_(jac_set_infinity)(&in[N - 1]);
    G_(jac_batch_to_affine)(out, in, N);
    for (int i = 0; i < N; i++) {
        G_(jac_to_affine)(&one, &in[i]);
        assert_true(G_(affine_eq)(&one, &out[i]));
        assert_int_equal(G_(affine_is_infinity)(&out[i]), i == 0 || i == 4 || i == N - 1);
        assert_true(G_(affine_on_curve)(&out[i]));
    }
    G_(jac_batch_to_affine)(out, in, 0);
    G_(jac_batch_to_affine)(out, in + 1, 1);
    G_(jac_to_affine)(&one, &in[1]);
    assert_true(G_(affine_eq)(&one, &out[0]));
}

static void G_(test_scalar_mul)(void **state)
{
    (void)state;
    for (int it = 0; it < 3; it++) {
        JAC p, t0, t1;
        cuzk_fr_t a, b, ab;
        uint64_t la[CUZK_FR_LIMBS], lb[CUZK_FR_LIMBS], lab[CUZK_FR_LIMBS];
        G_(rand_point)(&p);
        test_rand_fr(&a);
        test_rand_fr(&b);
        cuzk_fr_mul(&ab, &a, &b);
        cuzk_fr_to_limbs(la, &a);
        cuzk_fr_to_limbs(lb, &b);
        cuzk_fr_to_limbs(lab, &ab);
        /* [a]([b]P) = [ab]P, vartime and constant time alike */
        G_(jac_mul)(&t0, &p, lb, CUZK_FR_LIMBS);
        G_(jac_mul)(&t0, &t0, la, CUZK_FR_LIMBS);
        G_(jac_mul)(&t1, &p, lab, CUZK_FR_LIMBS);
        assert_true(G_(jac_eq)(&t0, &t1));
        G_(jac_mul_ct)(&t0, &p, &b);
        G_(jac_mul_ct)(&t0, &t0, &a);
        assert_true(G_(jac_eq)(&t0, &t1));
        /* ab as an unreduced 512-bit product: a·b = ab + q·r, so [a·b]P = [ab]P */
        uint64_t wide[2 * CUZK_FR_LIMBS] = {0};
        for (int i = 0; i < CUZK_FR_LIMBS; i++) {
            uint64_t c = 0;
            for (int j = 0; j < CUZK_FR_LIMBS; j++) {
                unsigned __int128 s = (unsigned __int128)la[i] * lb[j] + wide[i + j] + c;
                wide[i + j] = (uint64_t)s;
                c = (uint64_t)(s >> 64);
            }
            wide[i + CUZK_FR_LIMBS] = c;
        }
        G_(jac_mul)(&t0, &p, wide, 2 * CUZK_FR_LIMBS);
        assert_true(G_(jac_eq)(&t0, &t1));
        /* [a]P + [b]P = [a + b]P */
        cuzk_fr_t s;
        uint64_t ls[CUZK_FR_LIMBS];
        cuzk_fr_add(&s, &a, &b);
        cuzk_fr_to_limbs(ls, &s);
        G_(jac_mul)(&t0, &p, la, CUZK_FR_LIMBS);
        G_(jac_mul)(&t1, &p, lb, CUZK_FR_LIMBS);
        G_(jac_add)(&t0, &t0, &t1);
        G_(jac_mul_ct)(&t1, &p, &s);
        assert_true(G_(jac_eq)(&t0, &t1));
        /* [r]P = 0 */
        G_(jac_mul)(&t0, &p, CUZK_FR_MODULUS, CUZK_FR_LIMBS);
        assert_true(G_(jac_is_infinity)(&t0));
    }
    /* edge scalars: 0, 1, 2, 3, r − 1, r − 2 through both paths */
    JAC p, t0, t1, e;
    G_(rand_point)(&p);
    cuzk_fr_t k, one;
    cuzk_fr_set_one(&one);
    cuzk_fr_set_zero(&k);
    G_(jac_mul_ct)(&t0, &p, &k);
    assert_true(G_(jac_is_infinity)(&t0));
    uint64_t zero = 0;
    G_(jac_mul)(&t0, &p, &zero, 1);
    assert_true(G_(jac_is_infinity)(&t0));
    G_(jac_mul)(&t0, &p, &zero, 0);
    assert_true(G_(jac_is_infinity)(&t0));
    G_(jac_set_infinity)(&e);
    for (uint64_t small = 1; small <= 40; small++) {
        cuzk_fr_add(&k, &k, &one);
        G_(jac_add)(&e, &e, &p);
        G_(jac_mul)(&t0, &p, &small, 1);
        G_(jac_mul_ct)(&t1, &p, &k);
        assert_true(G_(jac_eq)(&t0, &e));
        assert_true(G_(jac_eq)(&t1, &e));
    }
    /* k = −1 and k = −2 */
    uint64_t lk[CUZK_FR_LIMBS];
    cuzk_fr_set_zero(&k);
    G_(jac_neg)(&e, &p);
    for (int i = 0; i < 2; i++) {
        cuzk_fr_sub(&k, &k, &one);
        cuzk_fr_to_limbs(lk, &k);
        G_(jac_mul_ct)(&t1, &p, &k);
        G_(jac_mul)(&t0, &p, lk, CUZK_FR_LIMBS);
        assert_true(G_(jac_eq)(&t1, &e));
        assert_true(G_(jac_eq)(&t0, &e));
        G_(jac_dbl)(&e, &e);
    }
    /* the point at infinity times anything */
    JAC inf;
    G_(jac_set_infinity)(&inf);
    test_rand_fr(&k);
    G_(jac_mul_ct)(&t0, &inf, &k);
    assert_true(G_(jac_is_infinity)(&t0));
}

static void G_(test_subgroup)(void **state)
{
    (void)state;
    AFF a;
    JAC p;
    for (int it = 0; it < 4; it++) {
        G_(rand_point)(&p);
        G_(jac_to_affine)(&a, &p);
        assert_true(G_(affine_in_subgroup)(&a));
        assert_true(G_(affine_in_subgroup_naive)(&a));
        G_(rand_curve_point)(&a);
        assert_false(G_(affine_in_subgroup_naive)(&a));
        assert_false(G_(affine_in_subgroup)(&a));
        /* P + T with P in the subgroup and T outside stays outside */
        G_(jac_add_affine)(&p, &p, &a);
        G_(jac_to_affine)(&a, &p);
        assert_false(G_(affine_in_subgroup_naive)(&a));
        assert_false(G_(affine_in_subgroup)(&a));
    }
    G_(affine_set_infinity)(&a);
    assert_true(G_(affine_in_subgroup)(&a));
    assert_true(G_(affine_in_subgroup_naive)(&a));
}
