/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Fp6 = Fp2[v] / (v³ − ξ), ξ = 1 + u. Element c0 + c1·v + c2·v². */
#include "cuzk/ff.h"
#include "tower.h"

void cuzk_fp6_set_zero(cuzk_fp6_t *r)
{
    cuzk_fp2_set_zero(&r->c0);
    cuzk_fp2_set_zero(&r->c1);
    cuzk_fp2_set_zero(&r->c2);
}
void cuzk_fp6_set_one(cuzk_fp6_t *r)
{
    cuzk_fp2_set_one(&r->c0);
    cuzk_fp2_set_zero(&r->c1);
    cuzk_fp2_set_zero(&r->c2);
}
bool cuzk_fp6_is_zero(const cuzk_fp6_t *a)
{
    return cuzk_fp2_is_zero(&a->c0) & cuzk_fp2_is_zero(&a->c1) & cuzk_fp2_is_zero(&a->c2);
}
bool cuzk_fp6_eq(const cuzk_fp6_t *a, const cuzk_fp6_t *b)
{
    return cuzk_fp2_eq(&a->c0, &b->c0) & cuzk_fp2_eq(&a->c1, &b->c1) & cuzk_fp2_eq(&a->c2, &b->c2);
}

void cuzk_fp6_add(cuzk_fp6_t *r, const cuzk_fp6_t *a, const cuzk_fp6_t *b)
{
    cuzk_fp2_add(&r->c0, &a->c0, &b->c0);
    cuzk_fp2_add(&r->c1, &a->c1, &b->c1);
    cuzk_fp2_add(&r->c2, &a->c2, &b->c2);
}

void cuzk_fp6_sub(cuzk_fp6_t *r, const cuzk_fp6_t *a, const cuzk_fp6_t *b)
{
    cuzk_fp2_sub(&r->c0, &a->c0, &b->c0);
    cuzk_fp2_sub(&r->c1, &a->c1, &b->c1);
    cuzk_fp2_sub(&r->c2, &a->c2, &b->c2);
}

void cuzk_fp6_neg(cuzk_fp6_t *r, const cuzk_fp6_t *a)
{
    cuzk_fp2_neg(&r->c0, &a->c0);
    cuzk_fp2_neg(&r->c1, &a->c1);
    cuzk_fp2_neg(&r->c2, &a->c2);
}

/* Karatsuba over three terms: 6 Fp2 products at double width, 6 Fp2 reductions. The sums enter unreduced (< 2p per
 * half, which fp2w_mul allows), so a and b must be reduced.
 *   c0 = a0b0 + ξ·((a1+a2)(b1+b2) − a1b1 − a2b2)
 *   c1 = (a0+a1)(b0+b1) − a0b0 − a1b1 + ξ·a2b2
 *   c2 = (a0+a2)(b0+b2) − a0b0 − a2b2 + a1b1
 * The imaginary half of each product is an integer below 2p² (a0b1 + a1b0 of reduced halves), and that of each
 * Karatsuba difference the sum of the cross products, below 4p²: added to one another they stay below 6p², exactly,
 * so only the additions that bring in a real half (a difference mod p·2^384) take the modular correction. */
static inline void fp2w_add_mul_by_nonresidue(fp2w *r, const fp2w *a, const fp2w *m)
{
    /* r = a + ξ·m = (a_r + m_r − m_i) + (a_i + m_i + m_r)·u, with a_i + m_i exact */
    fpw t;
    fpw_add_exact(&t, &a->c1, &m->c1);
    fpw_sub(&r->c0, &m->c0, &m->c1);
    fpw_add(&r->c0, &r->c0, &a->c0);
    fpw_add(&r->c1, &t, &m->c0);
}

void cuzk_fp6w_mul(const fpw_prims *P, fp6w *r, const cuzk_fp6_t *a, const cuzk_fp6_t *b)
{
    fp2w t0, t1, t2, m;
    cuzk_fp2_t s, u;
    fp2w_mul(P, &t0, &a->c0, &b->c0);
    fp2w_mul(P, &t1, &a->c1, &b->c1);
    fp2w_mul(P, &t2, &a->c2, &b->c2);

    fp2_add_nr(&s, &a->c1, &a->c2);
    fp2_add_nr(&u, &b->c1, &b->c2);
    fp2w_mul(P, &m, &s, &u);
    fp2w_sub_karatsuba(&m, &m, &t1);
    fp2w_sub_karatsuba(&m, &m, &t2);
    fp2w_add_mul_by_nonresidue(&r->c0, &t0, &m);

    fp2_add_nr(&s, &a->c0, &a->c1);
    fp2_add_nr(&u, &b->c0, &b->c1);
    fp2w_mul(P, &m, &s, &u);
    fp2w_sub_karatsuba(&m, &m, &t0);
    fp2w_sub_karatsuba(&m, &m, &t1);
    fp2w_add_mul_by_nonresidue(&r->c1, &m, &t2);

    fp2_add_nr(&s, &a->c0, &a->c2);
    fp2_add_nr(&u, &b->c0, &b->c2);
    fp2w_mul(P, &m, &s, &u);
    fp2w_sub_karatsuba(&m, &m, &t0);
    fp2w_sub_karatsuba(&m, &m, &t2);
    fpw_add(&r->c2.c0, &m.c0, &t1.c0);
    fpw_add_exact(&r->c2.c1, &m.c1, &t1.c1);
}

void cuzk_fp6_mul(cuzk_fp6_t *r, const cuzk_fp6_t *a, const cuzk_fp6_t *b)
{
    const fpw_prims *P = fpw_now();
    fp6w t;
    cuzk_fp6w_mul(P, &t, a, b);
    fp6w_redc(P, r, &t);
}

/* Chung–Hasan SQR2: 2 multiplications and 3 squarings in Fp2.
 *   s0 = a0², s1 = 2a0a1, s2 = (a0 − a1 + a2)², s3 = 2a1a2, s4 = a2²
 *   c0 = s0 + ξs3, c1 = s1 + ξs4, c2 = s1 + s2 + s3 − s0 − s4 */
void cuzk_fp6_sqr(cuzk_fp6_t *r, const cuzk_fp6_t *a)
{
    cuzk_fp2_t s0, s1, s2, s3, s4, t;
    cuzk_fp2_sqr(&s0, &a->c0);
    cuzk_fp2_mul(&s1, &a->c0, &a->c1);
    cuzk_fp2_dbl(&s1, &s1);
    cuzk_fp2_sub(&s2, &a->c0, &a->c1);
    cuzk_fp2_add(&s2, &s2, &a->c2);
    cuzk_fp2_sqr(&s2, &s2);
    cuzk_fp2_mul(&s3, &a->c1, &a->c2);
    cuzk_fp2_dbl(&s3, &s3);
    cuzk_fp2_sqr(&s4, &a->c2);

    cuzk_fp2_add(&t, &s1, &s2);
    cuzk_fp2_add(&t, &t, &s3);
    cuzk_fp2_sub(&t, &t, &s0);
    cuzk_fp2_sub(&r->c2, &t, &s4);
    cuzk_fp2_mul_by_nonresidue(&t, &s3);
    cuzk_fp2_add(&r->c0, &s0, &t);
    cuzk_fp2_mul_by_nonresidue(&t, &s4);
    cuzk_fp2_add(&r->c1, &s1, &t);
}

/* (a0 + a1v + a2v²)·v = ξa2 + a0v + a1v² */
void cuzk_fp6_mul_by_nonresidue(cuzk_fp6_t *r, const cuzk_fp6_t *a)
{
    cuzk_fp2_t t;
    cuzk_fp2_mul_by_nonresidue(&t, &a->c2);
    r->c2 = a->c1;
    r->c1 = a->c0;
    r->c0 = t;
}

/* a·(b0 + b1v): the shape of a Miller-loop line's first half. 5 Fp2 products, the sums unreduced and the imaginary
 * halves added exactly as above (a, b0, b1 reduced).
 *   c0 = a0b0 + ξa2b1, c1 = (a0+a1)(b0+b1) − a0b0 − a1b1, c2 = a1b1 + a2b0 */
void cuzk_fp6w_mul_by_01(const fpw_prims *P, fp6w *r, const cuzk_fp6_t *a, const cuzk_fp2_t *b0, const cuzk_fp2_t *b1)
{
    fp2w t0, t1, m;
    cuzk_fp2_t s, u;
    fp2w_mul(P, &t0, &a->c0, b0);
    fp2w_mul(P, &t1, &a->c1, b1);

    fp2w_mul(P, &m, &a->c2, b1);
    fp2w_add_mul_by_nonresidue(&r->c0, &t0, &m);

    fp2w_mul(P, &m, &a->c2, b0);
    fpw_add(&r->c2.c0, &m.c0, &t1.c0);
    fpw_add_exact(&r->c2.c1, &m.c1, &t1.c1); /* imaginary halves below 2p² each */

    fp2_add_nr(&s, &a->c0, &a->c1);
    fp2_add_nr(&u, b0, b1);
    fp2w_mul(P, &m, &s, &u);
    fp2w_sub_karatsuba(&m, &m, &t0);
    fp2w_sub_karatsuba(&r->c1, &m, &t1);
}

/* a·(b1v) = ξa2b1 + a0b1v + a1b1v². 3 Fp2 products. */
void cuzk_fp6w_mul_by_1(const fpw_prims *P, fp6w *r, const cuzk_fp6_t *a, const cuzk_fp2_t *b1)
{
    fp2w m;
    fp2w_mul(P, &m, &a->c2, b1);
    fp2w_mul_by_nonresidue(&r->c0, &m);
    fp2w_mul(P, &r->c1, &a->c0, b1);
    fp2w_mul(P, &r->c2, &a->c1, b1);
}

void cuzk_fp6_mul_by_01(cuzk_fp6_t *r, const cuzk_fp6_t *a, const cuzk_fp2_t *b0, const cuzk_fp2_t *b1)
{
    const fpw_prims *P = fpw_now();
    fp6w t;
    cuzk_fp6w_mul_by_01(P, &t, a, b0, b1);
    fp6w_redc(P, r, &t);
}

void cuzk_fp6_mul_by_1(cuzk_fp6_t *r, const cuzk_fp6_t *a, const cuzk_fp2_t *b1)
{
    const fpw_prims *P = fpw_now();
    fp6w t;
    cuzk_fp6w_mul_by_1(P, &t, a, b1);
    fp6w_redc(P, r, &t);
}

/* 1/a = (A + Bv + Cv²)/F with A = a0² − ξa1a2, B = ξa2² − a0a1, C = a1² − a0a2, F = a0A + ξ(a2B + a1C):
 * (A, B, C) is the adjugate row, F the norm down to Fp2. The Fp2 inverse is constant time or not. */
static void fp6_inv(cuzk_fp6_t *r, const cuzk_fp6_t *a, bool vartime)
{
    cuzk_fp2_t A, B, C, F, t;
    cuzk_fp2_sqr(&A, &a->c0);
    cuzk_fp2_mul(&t, &a->c1, &a->c2);
    cuzk_fp2_mul_by_nonresidue(&t, &t);
    cuzk_fp2_sub(&A, &A, &t);

    cuzk_fp2_sqr(&B, &a->c2);
    cuzk_fp2_mul_by_nonresidue(&B, &B);
    cuzk_fp2_mul(&t, &a->c0, &a->c1);
    cuzk_fp2_sub(&B, &B, &t);

    cuzk_fp2_sqr(&C, &a->c1);
    cuzk_fp2_mul(&t, &a->c0, &a->c2);
    cuzk_fp2_sub(&C, &C, &t);

    cuzk_fp2_mul(&F, &a->c2, &B);
    cuzk_fp2_mul(&t, &a->c1, &C);
    cuzk_fp2_add(&F, &F, &t);
    cuzk_fp2_mul_by_nonresidue(&F, &F);
    cuzk_fp2_mul(&t, &a->c0, &A);
    cuzk_fp2_add(&F, &F, &t);
    if (vartime) cuzk_fp2_inv_vartime(&F, &F);
    else cuzk_fp2_inv(&F, &F);

    cuzk_fp2_mul(&r->c0, &A, &F);
    cuzk_fp2_mul(&r->c1, &B, &F);
    cuzk_fp2_mul(&r->c2, &C, &F);
}

void cuzk_fp6_inv(cuzk_fp6_t *r, const cuzk_fp6_t *a) { fp6_inv(r, a, false); }
void cuzk_fp6_inv_vartime(cuzk_fp6_t *r, const cuzk_fp6_t *a) { fp6_inv(r, a, true); }

/* v^(p^k) = v·ξ^((p^k−1)/3) and (v²)^(p^k) = v²·ξ^(2(p^k−1)/3), in Montgomery form, for k = 1, 2, 3
 * (computed once with exact integer arithmetic; the tests check cuzk_fp6_frobenius against a^(p^k)). */
static const cuzk_fp2_t FROB_V[3] = {
    {{{0}},
     {{0xcd03c9e48671f071ULL, 0x5dab22461fcda5d2ULL, 0x587042afd3851b95ULL, 0x8eb60ebe01bacb9eULL,
       0x03f97d6e83d050d2ULL, 0x18f0206554638741ULL}}},
    {{{0x30f1361b798a64e8ULL, 0xf3b8ddab7ece5a2aULL, 0x16a8ca3ac61577f7ULL, 0xc26a2ff874fd029bULL,
       0x3636b76660701c6eULL, 0x051ba4ab241b6160ULL}},
     {{0}}},
    {{{0}},
     {{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL, 0x77ce585370525745ULL,
       0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}}},
};
static const cuzk_fp2_t FROB_V2[3] = {
    {{{0x890dc9e4867545c3ULL, 0x2af322533285a5d5ULL, 0x50880866309b7e2cULL, 0xa20d1b8c7e881024ULL,
       0x14e4f04fe2db9068ULL, 0x14e56d3f1564853aULL}},
     {{0}}},
    {{{0xcd03c9e48671f071ULL, 0x5dab22461fcda5d2ULL, 0x587042afd3851b95ULL, 0x8eb60ebe01bacb9eULL,
       0x03f97d6e83d050d2ULL, 0x18f0206554638741ULL}},
     {{0}}},
    {{{0x43f5fffffffcaaaeULL, 0x32b7fff2ed47fffdULL, 0x07e83a49a2e99d69ULL, 0xeca8f3318332bb7aULL,
       0xef148d1ea0f4c069ULL, 0x040ab3263eff0206ULL}},
     {{0}}},
};

/* One application of the p^k power map, 1 ≤ k ≤ 3. */
static void fp6_frobenius_k(cuzk_fp6_t *r, const cuzk_fp6_t *a, unsigned k)
{
    cuzk_fp2_t c0 = a->c0, c1 = a->c1, c2 = a->c2;
    if (k & 1) {
        cuzk_fp2_conj(&c0, &c0);
        cuzk_fp2_conj(&c1, &c1);
        cuzk_fp2_conj(&c2, &c2);
    }
    r->c0 = c0;
    cuzk_fp2_mul(&r->c1, &c1, &FROB_V[k - 1]);
    cuzk_fp2_mul(&r->c2, &c2, &FROB_V2[k - 1]);
}

/* a^(p^power); the map has order 6 on Fp6. */
void cuzk_fp6_frobenius(cuzk_fp6_t *r, const cuzk_fp6_t *a, unsigned power)
{
    power %= 6;
    *r = *a;
    while (power > 0) {
        unsigned k = power > 3 ? 3 : power;
        fp6_frobenius_k(r, r, k);
        power -= k;
    }
}
