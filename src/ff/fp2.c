/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Fp2 = Fp[u] / (u² + 1). */
#include "cuzk/ff.h"
#include "fp_wide.h"

void cuzk_fp2_set_zero(cuzk_fp2_t *r)
{
    cuzk_fp_set_zero(&r->c0);
    cuzk_fp_set_zero(&r->c1);
}
void cuzk_fp2_set_one(cuzk_fp2_t *r)
{
    cuzk_fp_set_one(&r->c0);
    cuzk_fp_set_zero(&r->c1);
}
/* & on ints, not &&: both halves are always looked at (no data-dependent branch) */
bool cuzk_fp2_is_zero(const cuzk_fp2_t *a) { return (int)cuzk_fp_is_zero(&a->c0) & (int)cuzk_fp_is_zero(&a->c1); }
bool cuzk_fp2_is_one(const cuzk_fp2_t *a) { return (int)cuzk_fp_is_one(&a->c0) & (int)cuzk_fp_is_zero(&a->c1); }
bool cuzk_fp2_eq(const cuzk_fp2_t *a, const cuzk_fp2_t *b)
{
    return (int)cuzk_fp_eq(&a->c0, &b->c0) & (int)cuzk_fp_eq(&a->c1, &b->c1);
}

#ifndef CUZK_FF_INLINE_ADDSUB
void cuzk_fp2_add(cuzk_fp2_t *r, const cuzk_fp2_t *a, const cuzk_fp2_t *b)
{
    cuzk_fp_add(&r->c0, &a->c0, &b->c0);
    cuzk_fp_add(&r->c1, &a->c1, &b->c1);
}

void cuzk_fp2_sub(cuzk_fp2_t *r, const cuzk_fp2_t *a, const cuzk_fp2_t *b)
{
    cuzk_fp_sub(&r->c0, &a->c0, &b->c0);
    cuzk_fp_sub(&r->c1, &a->c1, &b->c1);
}

void cuzk_fp2_dbl(cuzk_fp2_t *r, const cuzk_fp2_t *a)
{
    cuzk_fp_dbl(&r->c0, &a->c0);
    cuzk_fp_dbl(&r->c1, &a->c1);
}
#endif

void cuzk_fp2_neg(cuzk_fp2_t *r, const cuzk_fp2_t *a)
{
    cuzk_fp_neg(&r->c0, &a->c0);
    cuzk_fp_neg(&r->c1, &a->c1);
}

void cuzk_fp2_conj(cuzk_fp2_t *r, const cuzk_fp2_t *a)
{
    r->c0 = a->c0;
    cuzk_fp_neg(&r->c1, &a->c1);
}

void cuzk_fp2_frobenius(cuzk_fp2_t *r, const cuzk_fp2_t *a) { cuzk_fp2_conj(r, a); }

/* Karatsuba at double width (fp_wide.h): three 768-bit products, two reductions; one routine of the CPU path. */
void cuzk_fp2_mul(cuzk_fp2_t *r, const cuzk_fp2_t *a, const cuzk_fp2_t *b) { fpw_now()->fp2_mul(r, a, b); }

/* (a0 + a1 u)² = (a0 + a1)(a0 − a1) + 2 a0 a1 u: two Montgomery products (fp_wide.c). */
void cuzk_fp2_sqr(cuzk_fp2_t *r, const cuzk_fp2_t *a) { fpw_now()->fp2_sqr(r, a); }

#ifndef CUZK_FF_INLINE_ADDSUB
void cuzk_fp2_add_lazy(cuzk_fp2_t *r, const cuzk_fp2_t *a, const cuzk_fp2_t *b) { fp2_add_nr(r, a, b); }
#endif

/* Both squares at double width (below 8p² each, fp2w_sqr), 3b² subtracted mod p·2^384, one reduction of each half
 * instead of two squarings' four. r may alias a or b. */
void cuzk_fp2_sqr_sub3(cuzk_fp2_t *r, const cuzk_fp2_t *a, const cuzk_fp2_t *b)
{
    const fpw_prims *P = fpw_now();
    fp2w ta, tb;
    fp2w_sqr(P, &ta, a);
    fp2w_sqr(P, &tb, b);
    fp2w_sub(&ta, &ta, &tb);
    fp2w_sub(&ta, &ta, &tb);
    fp2w_sub(&ta, &ta, &tb);
    fp2w_redc(P, r, &ta);
}

void cuzk_fp2_mul_fp(cuzk_fp2_t *r, const cuzk_fp2_t *a, const cuzk_fp_t *b)
{
    const fpw_prims *P = fpw_now();
    P->mul(r->c0.l, a->c0.l, b->l);
    P->mul(r->c1.l, a->c1.l, b->l);
}

#ifndef CUZK_FF_INLINE_ADDSUB
/* (a0 + a1 u)(1 + u) = (a0 − a1) + (a0 + a1) u */
void cuzk_fp2_mul_by_nonresidue(cuzk_fp2_t *r, const cuzk_fp2_t *a)
{
    cuzk_fp_t t;
    cuzk_fp_sub(&t, &a->c0, &a->c1);
    cuzk_fp_add(&r->c1, &a->c0, &a->c1);
    r->c0 = t;
}
#endif

/* 1/(a0 + a1 u) = (a0 − a1 u) / (a0² + a1²) */
void cuzk_fp2_inv(cuzk_fp2_t *r, const cuzk_fp2_t *a)
{
    cuzk_fp_t n, t;
    cuzk_fp_sqr(&n, &a->c0);
    cuzk_fp_sqr(&t, &a->c1);
    cuzk_fp_add(&n, &n, &t);
    cuzk_fp_inv(&n, &n);
    cuzk_fp_mul(&r->c0, &a->c0, &n);
    cuzk_fp_neg(&t, &a->c1);
    cuzk_fp_mul(&r->c1, &t, &n);
}

/* The same for public values, with the variable-time Fp inverse. */
void cuzk_fp2_inv_vartime(cuzk_fp2_t *r, const cuzk_fp2_t *a)
{
    cuzk_fp_t n, t;
    cuzk_fp_sqr(&n, &a->c0);
    cuzk_fp_sqr(&t, &a->c1);
    cuzk_fp_add(&n, &n, &t);
    cuzk_fp_inv_vartime(&n, &n);
    cuzk_fp_mul(&r->c0, &a->c0, &n);
    cuzk_fp_neg(&t, &a->c1);
    cuzk_fp_mul(&r->c1, &t, &n);
}

void cuzk_fp2_pow(cuzk_fp2_t *r, const cuzk_fp2_t *a, const uint64_t *e, size_t e_limbs)
{
    cuzk_fp2_t acc, base = *a;
    cuzk_fp2_set_one(&acc);
    for (size_t i = e_limbs; i-- > 0;) {
        for (int bit = 63; bit >= 0; bit--) {
            cuzk_fp2_sqr(&acc, &acc);
            if ((e[i] >> bit) & 1) cuzk_fp2_mul(&acc, &acc, &base);
        }
    }
    *r = acc;
}

void cuzk_fp2_cmov(cuzk_fp2_t *r, const cuzk_fp2_t *a, const cuzk_fp2_t *b, bool flag)
{
    cuzk_fp_cmov(&r->c0, &a->c0, &b->c0, flag);
    cuzk_fp_cmov(&r->c1, &a->c1, &b->c1, flag);
}

bool cuzk_fp2_is_lexicographically_largest(const cuzk_fp2_t *a)
{
    if (!cuzk_fp_is_zero(&a->c1)) return cuzk_fp_is_lexicographically_largest(&a->c1);
    return cuzk_fp_is_lexicographically_largest(&a->c0);
}

/* Square root for p ≡ 3 (mod 4) (Adj and Rodríguez-Henríquez, algorithm 9):
 * a1 = a^((p−3)/4), α = a1² a, x0 = a1 a; if α = −1 the root is u·x0, else (1 + α)^((p−1)/2) · x0. */
bool cuzk_fp2_sqrt(cuzk_fp2_t *r, const cuzk_fp2_t *a)
{
    static const uint64_t P_MINUS_3_QUARTER[CUZK_FP_LIMBS] = {0xee7fbfffffffeaaaULL, 0x07aaffffac54ffffULL,
                                                              0xd9cc34a83dac3d89ULL, 0xd91dd2e13ce144afULL,
                                                              0x92c6e9ed90d2eb35ULL, 0x0680447a8e5ff9a6ULL};
    static const uint64_t P_MINUS_1_HALF[CUZK_FP_LIMBS] = {0xdcff7fffffffd555ULL, 0x0f55ffff58a9ffffULL,
                                                           0xb39869507b587b12ULL, 0xb23ba5c279c2895fULL,
                                                           0x258dd3db21a5d66bULL, 0x0d0088f51cbff34dULL};
    cuzk_fp2_t a1, alpha, x0, x, minus_one, check;
    cuzk_fp2_pow(&a1, a, P_MINUS_3_QUARTER, CUZK_FP_LIMBS);
    cuzk_fp2_sqr(&alpha, &a1);
    cuzk_fp2_mul(&alpha, &alpha, a);
    cuzk_fp2_mul(&x0, &a1, a);
    cuzk_fp2_set_one(&minus_one);
    cuzk_fp2_neg(&minus_one, &minus_one);
    if (cuzk_fp2_eq(&alpha, &minus_one)) {
        /* u·(x0 + x1 u) = −x1 + x0 u */
        cuzk_fp_neg(&x.c0, &x0.c1);
        x.c1 = x0.c0;
    } else {
        cuzk_fp2_t b, one;
        cuzk_fp2_set_one(&one);
        cuzk_fp2_add(&b, &alpha, &one);
        cuzk_fp2_pow(&b, &b, P_MINUS_1_HALF, CUZK_FP_LIMBS);
        cuzk_fp2_mul(&x, &b, &x0);
    }
    cuzk_fp2_sqr(&check, &x);
    if (!cuzk_fp2_eq(&check, a)) return false;
    *r = x;
    return true;
}

void cuzk_fp2_batch_inv(cuzk_fp2_t *out, const cuzk_fp2_t *in, size_t n, cuzk_fp2_t *scratch)
{
    if (n == 0) return;
    cuzk_fp2_t acc, inv_i;
    cuzk_fp2_set_one(&acc);
    for (size_t i = 0; i < n; i++) {
        scratch[i] = acc;
        if (!cuzk_fp2_is_zero(&in[i])) cuzk_fp2_mul(&acc, &acc, &in[i]);
    }
    cuzk_fp2_inv(&acc, &acc);
    for (size_t i = n; i-- > 0;) {
        if (cuzk_fp2_is_zero(&in[i])) {
            cuzk_fp2_set_zero(&out[i]);
            continue;
        }
        cuzk_fp2_mul(&inv_i, &acc, &scratch[i]);
        cuzk_fp2_mul(&acc, &acc, &in[i]);
        out[i] = inv_i;
    }
}
