/* Fp12 = Fp6[w] / (w² − v). Element c0 + c1·w. */
#include "cuzk/ff.h"

void cuzk_fp12_set_zero(cuzk_fp12_t *r) { cuzk_fp6_set_zero(&r->c0); cuzk_fp6_set_zero(&r->c1); }
void cuzk_fp12_set_one(cuzk_fp12_t *r) { cuzk_fp6_set_one(&r->c0); cuzk_fp6_set_zero(&r->c1); }
bool cuzk_fp12_is_one(const cuzk_fp12_t *a)
{
    cuzk_fp6_t one;
    cuzk_fp6_set_one(&one);
    return cuzk_fp6_eq(&a->c0, &one) & cuzk_fp6_is_zero(&a->c1);
}
bool cuzk_fp12_eq(const cuzk_fp12_t *a, const cuzk_fp12_t *b) { return cuzk_fp6_eq(&a->c0, &b->c0) & cuzk_fp6_eq(&a->c1, &b->c1); }

void cuzk_fp12_add(cuzk_fp12_t *r, const cuzk_fp12_t *a, const cuzk_fp12_t *b)
{
    cuzk_fp6_add(&r->c0, &a->c0, &b->c0);
    cuzk_fp6_add(&r->c1, &a->c1, &b->c1);
}

void cuzk_fp12_sub(cuzk_fp12_t *r, const cuzk_fp12_t *a, const cuzk_fp12_t *b)
{
    cuzk_fp6_sub(&r->c0, &a->c0, &b->c0);
    cuzk_fp6_sub(&r->c1, &a->c1, &b->c1);
}

/* Karatsuba: 3 Fp6 multiplications. c0 = a0b0 + v·a1b1, c1 = (a0+a1)(b0+b1) − a0b0 − a1b1 */
void cuzk_fp12_mul(cuzk_fp12_t *r, const cuzk_fp12_t *a, const cuzk_fp12_t *b)
{
    cuzk_fp6_t t0, t1, s, u;
    cuzk_fp6_mul(&t0, &a->c0, &b->c0);
    cuzk_fp6_mul(&t1, &a->c1, &b->c1);
    cuzk_fp6_add(&s, &a->c0, &a->c1);
    cuzk_fp6_add(&u, &b->c0, &b->c1);
    cuzk_fp6_mul(&s, &s, &u);
    cuzk_fp6_sub(&s, &s, &t0);
    cuzk_fp6_sub(&r->c1, &s, &t1);
    cuzk_fp6_mul_by_nonresidue(&t1, &t1);
    cuzk_fp6_add(&r->c0, &t0, &t1);
}

/* Complex squaring: 2 Fp6 multiplications. With t = a0a1:
 * c0 = (a0 + a1)(a0 + v·a1) − t − v·t = a0² + v·a1², c1 = 2t */
void cuzk_fp12_sqr(cuzk_fp12_t *r, const cuzk_fp12_t *a)
{
    cuzk_fp6_t t, s, u;
    cuzk_fp6_mul(&t, &a->c0, &a->c1);
    cuzk_fp6_add(&s, &a->c0, &a->c1);
    cuzk_fp6_mul_by_nonresidue(&u, &a->c1);
    cuzk_fp6_add(&u, &u, &a->c0);
    cuzk_fp6_mul(&s, &s, &u);
    cuzk_fp6_sub(&s, &s, &t);
    cuzk_fp6_mul_by_nonresidue(&u, &t);
    cuzk_fp6_sub(&r->c0, &s, &u);
    cuzk_fp6_add(&r->c1, &t, &t);
}

/* a·l for a line l = (l0 + l1·v) + (l4·v)·w: 13 Fp2 multiplications instead of 18. */
void cuzk_fp12_mul_by_014(cuzk_fp12_t *r, const cuzk_fp12_t *a, const cuzk_fp2_t *l0, const cuzk_fp2_t *l1, const cuzk_fp2_t *l4)
{
    cuzk_fp6_t t0, t1, s;
    cuzk_fp2_t l14;
    cuzk_fp6_mul_by_01(&t0, &a->c0, l0, l1);
    cuzk_fp6_mul_by_1(&t1, &a->c1, l4);
    cuzk_fp6_add(&s, &a->c0, &a->c1);
    cuzk_fp2_add(&l14, l1, l4);
    cuzk_fp6_mul_by_01(&s, &s, l0, &l14);
    cuzk_fp6_sub(&s, &s, &t0);
    cuzk_fp6_sub(&r->c1, &s, &t1);
    cuzk_fp6_mul_by_nonresidue(&t1, &t1);
    cuzk_fp6_add(&r->c0, &t0, &t1);
}

/* 1/(a0 + a1w) = (a0 − a1w)/(a0² − v·a1²) */
void cuzk_fp12_inv(cuzk_fp12_t *r, const cuzk_fp12_t *a)
{
    cuzk_fp6_t t0, t1;
    cuzk_fp6_sqr(&t0, &a->c0);
    cuzk_fp6_sqr(&t1, &a->c1);
    cuzk_fp6_mul_by_nonresidue(&t1, &t1);
    cuzk_fp6_sub(&t0, &t0, &t1);
    cuzk_fp6_inv(&t0, &t0);
    cuzk_fp6_mul(&r->c0, &a->c0, &t0);
    cuzk_fp6_mul(&r->c1, &a->c1, &t0);
    cuzk_fp6_neg(&r->c1, &r->c1);
}

/* a^(p^6): w ↦ −w. The inverse for elements of the cyclotomic subgroup. */
void cuzk_fp12_conj(cuzk_fp12_t *r, const cuzk_fp12_t *a)
{
    r->c0 = a->c0;
    cuzk_fp6_neg(&r->c1, &a->c1);
}

/* Granger–Scott squaring for elements of the cyclotomic subgroup (norm 1 over Fp6: a^(p^6+1) = 1).
 * View Fp12 as Fp4[w]/(w³ − s) with Fp4 = Fp2[s]/(s² − ξ), s = w³:
 *   a = A0 + A1·w + A2·w²,  A0 = c0.c0 + c1.c1·s,  A1 = c1.c0 + c0.c2·s,  A2 = c0.c1 + c1.c2·s.
 * Then a² = (3A0² − 2Ā0) + (3s·A2² + 2Ā1)·w + (3A1² − 2Ā2)·w², bar being s ↦ −s: 9 Fp2 squarings. */
static void fp4_sqr(cuzk_fp2_t *r0, cuzk_fp2_t *r1, const cuzk_fp2_t *x, const cuzk_fp2_t *y)
{
    cuzk_fp2_t t0, t1, t;
    cuzk_fp2_sqr(&t0, x);
    cuzk_fp2_sqr(&t1, y);
    cuzk_fp2_add(&t, x, y);
    cuzk_fp2_sqr(&t, &t);
    cuzk_fp2_sub(&t, &t, &t0);
    cuzk_fp2_sub(r1, &t, &t1);
    cuzk_fp2_mul_by_nonresidue(&t1, &t1);
    cuzk_fp2_add(r0, &t0, &t1);
}

/* r = 3z − 2g = 2(z − g) + z */
static void three_minus_two(cuzk_fp2_t *r, const cuzk_fp2_t *z, const cuzk_fp2_t *g)
{
    cuzk_fp2_t t;
    cuzk_fp2_sub(&t, z, g);
    cuzk_fp2_dbl(&t, &t);
    cuzk_fp2_add(r, &t, z);
}

/* r = 3z + 2h = 2(z + h) + z */
static void three_plus_two(cuzk_fp2_t *r, const cuzk_fp2_t *z, const cuzk_fp2_t *h)
{
    cuzk_fp2_t t;
    cuzk_fp2_add(&t, z, h);
    cuzk_fp2_dbl(&t, &t);
    cuzk_fp2_add(r, &t, z);
}

void cuzk_fp12_cyclotomic_sqr(cuzk_fp12_t *r, const cuzk_fp12_t *a)
{
    cuzk_fp2_t x0, y0, x1, y1, x2, y2;
    fp4_sqr(&x0, &y0, &a->c0.c0, &a->c1.c1); /* A0² */
    fp4_sqr(&x1, &y1, &a->c1.c0, &a->c0.c2); /* A1² */
    fp4_sqr(&x2, &y2, &a->c0.c1, &a->c1.c2); /* A2² */
    cuzk_fp2_mul_by_nonresidue(&y2, &y2);          /* s·A2² = ξ·y2 + x2·s */

    three_minus_two(&r->c0.c0, &x0, &a->c0.c0);
    three_plus_two(&r->c1.c1, &y0, &a->c1.c1);
    three_plus_two(&r->c1.c0, &y2, &a->c1.c0);
    three_minus_two(&r->c0.c2, &x2, &a->c0.c2);
    three_minus_two(&r->c0.c1, &x1, &a->c0.c1);
    three_plus_two(&r->c1.c2, &y1, &a->c1.c2);
}

/* w^(p^k) = w·ξ^((p^k−1)/6) for k = 1, 2, 3, Montgomery form (checked by the tests against a^(p^k)). */
static const cuzk_fp2_t FROB_W[3] = {
    {{{0x07089552b319d465ULL, 0xc6695f92b50a8313ULL, 0x97e83cccd117228fULL, 0xa35baecab2dc29eeULL,
       0x1ce393ea5daace4dULL, 0x08f2220fb0fb66ebULL}},
     {{0xb2f66aad4ce5d646ULL, 0x5842a06bfc497cecULL, 0xcf4895d42599d394ULL, 0xc11b9cba40a8e8d0ULL,
       0x2e3813cbe5a0de89ULL, 0x110eefda88847fafULL}}},
    {{{0xecfb361b798dba3aULL, 0xc100ddb891865a2cULL, 0x0ec08ff1232bda8eULL, 0xd5c13cc6f1ca4721ULL,
       0x47222a47bf7b5c04ULL, 0x0110f184e51c5f59ULL}}, {{0}}},
    {{{0x3e2f585da55c9ad1ULL, 0x4294213d86c18183ULL, 0x382844c88b623732ULL, 0x92ad2afd19103e18ULL,
       0x1d794e4fac7cf0b9ULL, 0x0bd592fc7d825ec8ULL}},
     {{0x7bcfa7a25aa30fdaULL, 0xdc17dec12a927e7cULL, 0x2f088dd86b4ebef1ULL, 0xd1ca2087da74d4a7ULL,
       0x2da2596696cebc1dULL, 0x0e2b7eedbbfd87d2ULL}}},
};

static void fp12_frobenius_k(cuzk_fp12_t *r, const cuzk_fp12_t *a, unsigned k)
{
    cuzk_fp6_frobenius(&r->c0, &a->c0, k);
    cuzk_fp6_frobenius(&r->c1, &a->c1, k);
    cuzk_fp2_mul(&r->c1.c0, &r->c1.c0, &FROB_W[k - 1]);
    cuzk_fp2_mul(&r->c1.c1, &r->c1.c1, &FROB_W[k - 1]);
    cuzk_fp2_mul(&r->c1.c2, &r->c1.c2, &FROB_W[k - 1]);
}

/* a^(p^power); the map has order 12 on Fp12. */
void cuzk_fp12_frobenius(cuzk_fp12_t *r, const cuzk_fp12_t *a, unsigned power)
{
    power %= 12;
    *r = *a;
    while (power > 0) {
        unsigned k = power > 3 ? 3 : power;
        fp12_frobenius_k(r, r, k);
        power -= k;
    }
}

void cuzk_fp12_pow(cuzk_fp12_t *r, const cuzk_fp12_t *a, const uint64_t *e, size_t e_limbs)
{
    cuzk_fp12_t acc, base = *a;
    cuzk_fp12_set_one(&acc);
    for (size_t i = e_limbs; i-- > 0;) {
        for (int bit = 63; bit >= 0; bit--) {
            cuzk_fp12_sqr(&acc, &acc);
            if ((e[i] >> bit) & 1) cuzk_fp12_mul(&acc, &acc, &base);
        }
    }
    *r = acc;
}
