/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Fp12 = Fp6[w] / (w² − v). Element c0 + c1·w. */
#include "cuzk/ff.h"
#include "tower.h"

void cuzk_fp12_set_zero(cuzk_fp12_t *r)
{
    cuzk_fp6_set_zero(&r->c0);
    cuzk_fp6_set_zero(&r->c1);
}
void cuzk_fp12_set_one(cuzk_fp12_t *r)
{
    cuzk_fp6_set_one(&r->c0);
    cuzk_fp6_set_zero(&r->c1);
}
bool cuzk_fp12_is_one(const cuzk_fp12_t *a)
{
    cuzk_fp6_t one;
    cuzk_fp6_set_one(&one);
    return cuzk_fp6_eq(&a->c0, &one) & cuzk_fp6_is_zero(&a->c1);
}
bool cuzk_fp12_eq(const cuzk_fp12_t *a, const cuzk_fp12_t *b)
{
    return cuzk_fp6_eq(&a->c0, &b->c0) & cuzk_fp6_eq(&a->c1, &b->c1);
}

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

/* Karatsuba: 3 Fp6 products at double width, one reduction per coefficient (12 in all, against 54 products).
 * c0 = a0b0 + v·a1b1, c1 = (a0+a1)(b0+b1) − a0b0 − a1b1 */
void cuzk_fp12_mul(cuzk_fp12_t *r, const cuzk_fp12_t *a, const cuzk_fp12_t *b)
{
    const fpw_prims *P = fpw_now();
    fp6w t0, t1, m;
    cuzk_fp6_t s, u;
    cuzk_fp6w_mul(P, &t0, &a->c0, &b->c0);
    cuzk_fp6w_mul(P, &t1, &a->c1, &b->c1);
    fp6_add_i(&s, &a->c0, &a->c1);
    fp6_add_i(&u, &b->c0, &b->c1);
    cuzk_fp6w_mul(P, &m, &s, &u);
    fp6w_sub(&m, &m, &t0);
    fp6w_sub(&m, &m, &t1);
    fp6w_redc(P, &r->c1, &m);
    fp6w_add_mul_by_v(&m, &t0, &t1);
    fp6w_redc(P, &r->c0, &m);
}

/* Complex squaring: 2 Fp6 products at double width. With t = a0a1:
 * c0 = (a0 + a1)(a0 + v·a1) − t − v·t = a0² + v·a1², c1 = 2t. Both products are reduced once each, so t − v·t is
 * subtracted after the reductions: six modular Fp2 subtractions instead of fourteen 12-word operations. */
void cuzk_fp12_sqr(cuzk_fp12_t *r, const cuzk_fp12_t *a)
{
    const fpw_prims *P = fpw_now();
    fp6w t, m;
    cuzk_fp6_t s, u, tr;
    cuzk_fp2_t x;
    cuzk_fp6w_mul(P, &t, &a->c0, &a->c1);
    fp6_add_i(&s, &a->c0, &a->c1);
    fp6_mul_by_v_add_i(&u, &a->c1, &a->c0);
    cuzk_fp6w_mul(P, &m, &s, &u);
    fp6w_redc(P, &tr, &t);
    fp6w_redc(P, &r->c0, &m);
    cuzk_fp2_mul_by_nonresidue(&x, &tr.c2);
    cuzk_fp2_sub(&r->c0.c0, &r->c0.c0, &tr.c0);
    cuzk_fp2_sub(&r->c0.c0, &r->c0.c0, &x);
    cuzk_fp2_sub(&r->c0.c1, &r->c0.c1, &tr.c1);
    cuzk_fp2_sub(&r->c0.c1, &r->c0.c1, &tr.c0);
    cuzk_fp2_sub(&r->c0.c2, &r->c0.c2, &tr.c2);
    cuzk_fp2_sub(&r->c0.c2, &r->c0.c2, &tr.c1);
    cuzk_fp2_dbl(&r->c1.c0, &tr.c0);
    cuzk_fp2_dbl(&r->c1.c1, &tr.c1);
    cuzk_fp2_dbl(&r->c1.c2, &tr.c2);
}

/* a·l for a line l = (l0 + l1·v) + (l4·v)·w: 13 Fp2 products at double width, 12 reductions. */
void cuzk_fp12_mul_by_014(cuzk_fp12_t *r, const cuzk_fp12_t *a, const cuzk_fp2_t *l0, const cuzk_fp2_t *l1,
                          const cuzk_fp2_t *l4)
{
    const fpw_prims *P = fpw_now();
    fp6w t0, t1, m;
    cuzk_fp6_t s;
    cuzk_fp2_t l14;
    cuzk_fp6w_mul_by_01(P, &t0, &a->c0, l0, l1);
    cuzk_fp6w_mul_by_1(P, &t1, &a->c1, l4);
    fp6_add_i(&s, &a->c0, &a->c1);
    cuzk_fp2_add(&l14, l1, l4);
    cuzk_fp6w_mul_by_01(P, &m, &s, l0, &l14);
    fp6w_sub(&m, &m, &t0);
    fp6w_sub(&m, &m, &t1);
    fp6w_redc(P, &r->c1, &m);
    fp6w_add_mul_by_v(&m, &t0, &t1);
    fp6w_redc(P, &r->c0, &m);
}

/* a·(L0 + v·(L11 + L12·v)·w), the shape of the product of two lines (no c1.c0 term): a0·L0 (6 Fp2 products),
 * v·(a1·(L11 + L12·v)) (5), (a0 + a1)(L0 + L1) (6), 17 in all. L0 is overwritten. */
static void mul_by_line_product(const fpw_prims *P, cuzk_fp12_t *r, const cuzk_fp12_t *a, cuzk_fp6_t *L0,
                                const cuzk_fp2_t *L11, const cuzk_fp2_t *L12)
{
    fp6w t0, t1, w, vt1;
    cuzk_fp6_t s;
    cuzk_fp6w_mul(P, &t0, &a->c0, L0);
    cuzk_fp6w_mul_by_01(P, &w, &a->c1, L11, L12); /* a1·(L11 + L12·v); t1 = v·w */
    fp2w_mul_by_nonresidue(&t1.c0, &w.c2);
    t1.c1 = w.c0;
    t1.c2 = w.c1;
    fp6_add_i(&s, &a->c0, &a->c1);
    cuzk_fp2_add(&L0->c1, &L0->c1, L11);
    cuzk_fp2_add(&L0->c2, &L0->c2, L12);
    cuzk_fp6w_mul(P, &w, &s, L0);
    fp6w_sub(&w, &w, &t0);
    fp6w_sub(&w, &w, &t1);
    fp6w_redc(P, &r->c1, &w);
    fp6w_add_mul_by_v(&vt1, &t0, &t1);
    fp6w_redc(P, &r->c0, &vt1);
}

/* a·l·m for two lines l = (l0 + l1·v) + (l4·v)·w and m = (m0 + m1·v) + (m4·v)·w. The lines are multiplied together
 * first: with z_i = l_i·m_i,
 *   l·m = (z0 + ξz4) + ((l0+l1)(m0+m1) − z0 − z1)·v + z1·v²
 *         + ((l0+l4)(m0+m4) − z0 − z4)·v·w + ((l1+l4)(m1+m4) − z1 − z4)·v²·w,
 * 6 Fp2 products and no c1.c0 term; then a·(L0 + L1·w) with L1 = (0, L11, L12) = v·(L11 + L12·v):
 * a0·L0 (6), v·(a1·(L11 + L12·v)) (5), (a0 + a1)(L0 + L1) (6). 23 Fp2 products against 26 for two calls of
 * cuzk_fp12_mul_by_014. */
void cuzk_fp12_mul_by_014_014(cuzk_fp12_t *r, const cuzk_fp12_t *a, const cuzk_fp2_t l[3], const cuzk_fp2_t m[3])
{
    const fpw_prims *P = fpw_now();
    fp2w z0, z1, z4, u;
    cuzk_fp2_t x, y;
    cuzk_fp6_t L0;
    cuzk_fp2_t L11, L12;
    fp2w_mul(P, &z0, &l[0], &m[0]);
    fp2w_mul(P, &z1, &l[1], &m[1]);
    fp2w_mul(P, &z4, &l[2], &m[2]);
    fp2w_mul_by_nonresidue(&u, &z4);
    fp2w_add(&u, &u, &z0);
    fp2w_redc(P, &L0.c0, &u);
    fp2w_redc(P, &L0.c2, &z1);
    fp2_add_nr(&x, &l[0], &l[1]);
    fp2_add_nr(&y, &m[0], &m[1]);
    fp2w_mul(P, &u, &x, &y);
    fp2w_sub_karatsuba(&u, &u, &z0);
    fp2w_sub_karatsuba(&u, &u, &z1);
    fp2w_redc(P, &L0.c1, &u);
    fp2_add_nr(&x, &l[0], &l[2]);
    fp2_add_nr(&y, &m[0], &m[2]);
    fp2w_mul(P, &u, &x, &y);
    fp2w_sub_karatsuba(&u, &u, &z0);
    fp2w_sub_karatsuba(&u, &u, &z4);
    fp2w_redc(P, &L11, &u);
    fp2_add_nr(&x, &l[1], &l[2]);
    fp2_add_nr(&y, &m[1], &m[2]);
    fp2w_mul(P, &u, &x, &y);
    fp2w_sub_karatsuba(&u, &u, &z1);
    fp2w_sub_karatsuba(&u, &u, &z4);
    fp2w_redc(P, &L12, &u);

    mul_by_line_product(P, r, a, &L0, &L11, &L12);
}

/* a·(L0 + v·w) with L0 = l0 + l1·v: since w² = v,
 *   (a0 + a1·w)(L0 + v·w) = (a0·L0 + v²·a1) + ((a0 + a1)(L0 + v) − a0·L0 − v·a1)·w,
 * two products by an Fp6 element of the shape b0 + b1·v (5 Fp2 products each); v·a1 and v²·a1 are shifts. */
void cuzk_fp12_mul_by_01v(cuzk_fp12_t *r, const cuzk_fp12_t *a, const cuzk_fp2_t *l0, const cuzk_fp2_t *l1)
{
    const fpw_prims *P = fpw_now();
    fp6w t0, m;
    cuzk_fp6_t s, va1, v2a1, c0;
    cuzk_fp2_t l1p, one;
    cuzk_fp2_set_one(&one);
    cuzk_fp2_add(&l1p, l1, &one);
    cuzk_fp2_mul_by_nonresidue(&va1.c0, &a->c1.c2); /* v·a1 = ξa12 + a10·v + a11·v² */
    va1.c1 = a->c1.c0;
    va1.c2 = a->c1.c1;
    cuzk_fp2_mul_by_nonresidue(&v2a1.c0, &a->c1.c1); /* v²·a1 = ξa11 + ξa12·v + a10·v² */
    v2a1.c1 = va1.c0;
    v2a1.c2 = a->c1.c0;
    fp6_add_i(&s, &a->c0, &a->c1);
    cuzk_fp6w_mul_by_01(P, &t0, &a->c0, l0, l1);
    cuzk_fp6w_mul_by_01(P, &m, &s, l0, &l1p);
    fp6w_redc(P, &c0, &t0);
    fp6w_redc(P, &r->c1, &m);
    cuzk_fp6_sub(&r->c1, &r->c1, &c0); /* a0·L0 reduced anyway: subtracted at single width */
    cuzk_fp6_sub(&r->c1, &r->c1, &va1);
    fp6_add_i(&r->c0, &c0, &v2a1);
}

/* a·l·m for l = L + v·w, m = M + v·w with L = l0 + l1·v, M = m0 + m1·v: (v·w)² = v³ = ξ, so
 *   l·m = (L·M + ξ) + v·((l0 + m0) + (l1 + m1)·v)·w,
 * L·M in 3 Fp2 products (Karatsuba), then the 17 of mul_by_line_product: 20 against 2·10. */
void cuzk_fp12_mul_by_01v_01v(cuzk_fp12_t *r, const cuzk_fp12_t *a, const cuzk_fp2_t l[2], const cuzk_fp2_t m[2])
{
    const fpw_prims *P = fpw_now();
    fp2w z0, z1, u;
    cuzk_fp2_t x, y, xi, L11, L12;
    cuzk_fp6_t L0;
    fp2w_mul(P, &z0, &l[0], &m[0]);
    fp2w_mul(P, &z1, &l[1], &m[1]);
    fp2_add_nr(&x, &l[0], &l[1]);
    fp2_add_nr(&y, &m[0], &m[1]);
    fp2w_mul(P, &u, &x, &y);
    fp2w_sub_karatsuba(&u, &u, &z0);
    fp2w_sub_karatsuba(&u, &u, &z1);
    fp2w_redc(P, &L0.c0, &z0);
    fp2w_redc(P, &L0.c1, &u);
    fp2w_redc(P, &L0.c2, &z1);
    cuzk_fp2_set_one(&xi);
    cuzk_fp_set_one(&xi.c1); /* ξ = 1 + u */
    cuzk_fp2_add(&L0.c0, &L0.c0, &xi);
    cuzk_fp2_add(&L11, &l[0], &m[0]);
    cuzk_fp2_add(&L12, &l[1], &m[1]);
    mul_by_line_product(P, r, a, &L0, &L11, &L12);
}

/* 1/(a0 + a1w) = (a0 − a1w)/(a0² − v·a1²) */
static void fp12_inv(cuzk_fp12_t *r, const cuzk_fp12_t *a, bool vartime)
{
    cuzk_fp6_t t0, t1;
    cuzk_fp6_sqr(&t0, &a->c0);
    cuzk_fp6_sqr(&t1, &a->c1);
    cuzk_fp6_mul_by_nonresidue(&t1, &t1);
    cuzk_fp6_sub(&t0, &t0, &t1);
    if (vartime) cuzk_fp6_inv_vartime(&t0, &t0);
    else cuzk_fp6_inv(&t0, &t0);
    cuzk_fp6_mul(&r->c0, &a->c0, &t0);
    cuzk_fp6_mul(&r->c1, &a->c1, &t0);
    cuzk_fp6_neg(&r->c1, &r->c1);
}

void cuzk_fp12_inv(cuzk_fp12_t *r, const cuzk_fp12_t *a) { fp12_inv(r, a, false); }
void cuzk_fp12_inv_vartime(cuzk_fp12_t *r, const cuzk_fp12_t *a) { fp12_inv(r, a, true); }

/* a^(p^6): w ↦ −w. The inverse for elements of the cyclotomic subgroup. */
void cuzk_fp12_conj(cuzk_fp12_t *r, const cuzk_fp12_t *a)
{
    r->c0 = a->c0;
    cuzk_fp6_neg(&r->c1, &a->c1);
}

/* Granger–Scott squaring for elements of the cyclotomic subgroup (order p^4 − p^2 + 1: norm 1 over Fp6 and over Fp4).
 * View Fp12 as Fp4[w]/(w³ − s) with Fp4 = Fp2[s]/(s² − ξ), s = w³:
 *   a = A0 + A1·w + A2·w²,  A0 = c0.c0 + c1.c1·s,  A1 = c1.c0 + c0.c2·s,  A2 = c0.c1 + c1.c2·s.
 * Then a² = (3A0² − 2Ā0) + (3s·A2² + 2Ā1)·w + (3A1² − 2Ā2)·w², bar being s ↦ −s: 9 Fp2 squarings.
 * (x + y·s)² = (x² + ξy²) + ((x + y)² − x² − y²)·s: three squarings at double width, two Fp2 reductions. For reduced
 * x, y the squares are small integers: x² = (P1, P2) with P1 = (x0 + x1)(x0 − x1 [+ 2p]) < 4p², P2 = x0·2x1 < 2p²,
 * y² = (P3, P4) likewise, (x + y)² = (P5, P6) < 8p² each. So
 *   x² + ξy² = (P1 + P3 − P4) + (P2 + P3 + P4)·s,  (x + y)² − x² − y² = (P5 − (P1 + P3)) + (P6 − P2 − P4)·s,
 * where P1 + P3 is formed once and every sum and the imaginary difference are exact (below 8p² < p·2^384): two
 * modular 12-word steps instead of six. x and y must be reduced. */
static void fp4_sqr(const fpw_prims *P, cuzk_fp2_t *r0, cuzk_fp2_t *r1, const cuzk_fp2_t *x, const cuzk_fp2_t *y)
{
    fp2w t0, t1, t;
    fpw u;
    cuzk_fp2_t s;
    fp2w_sqr(P, &t0, x);
    fp2w_sqr(P, &t1, y);
    fp2_add_nr(&s, x, y);
    fp2w_sqr(P, &t, &s);
    fpw_add_exact(&u, &t0.c0, &t1.c0);
    fpw_sub(&t.c0, &t.c0, &u);
    fpw_sub_exact(&t.c1, &t.c1, &t0.c1);
    fpw_sub_exact(&t.c1, &t.c1, &t1.c1);
    fp2w_redc(P, r1, &t);
    fpw_sub(&t0.c0, &u, &t1.c1);
    fpw_add_exact(&t0.c1, &t0.c1, &t1.c0);
    fpw_add_exact(&t0.c1, &t0.c1, &t1.c1);
    fp2w_redc(P, r0, &t0);
}

#if defined(CUZK_FF_INLINE_ADDSUB) && defined(__OPTIMIZE__) && !defined(__SANITIZE_ADDRESS__)
/* r = 3z − 2g = 2(z − g) + z and r = 3z + 2g = 2(z + g) + z in Fp, z, g < p: the three modular steps of each in one
 * asm statement, the value kept in registers between them (13 registers, what optimized builds have). Each step
 * leaves t − p or t with a borrow in CF, and t += p & −borrow follows (two halves of three words, as in
 * cuzk/ff_inline.h). */
#define FP3_ADDBACK_                                                                                                   \
    "sbb %[m], %[m]\n\t"                                                                                               \
    "mov %[m], %[s0]\n\t and %[p0], %[s0]\n\t mov %[m], %[s1]\n\t and %[p1], %[s1]\n\t"                                \
    "mov %[m], %[s2]\n\t and %[p2], %[s2]\n\t"                                                                         \
    "add %[s0], %[t0]\n\t adc %[s1], %[t1]\n\t adc %[s2], %[t2]\n\t sbb %[s0], %[s0]\n\t"                              \
    "mov %[m], %[s1]\n\t and %[p3], %[s1]\n\t mov %[m], %[s2]\n\t and %[p4], %[s2]\n\t and %[p5], %[m]\n\t"            \
    "neg %[s0]\n\t adc %[s1], %[t3]\n\t adc %[s2], %[t4]\n\t adc %[m], %[t5]\n\t"
#define FP3_SUB_P_                                                                                                     \
    "sub %[p0], %[t0]\n\t sbb %[p1], %[t1]\n\t sbb %[p2], %[t2]\n\t"                                                   \
    "sbb %[p3], %[t3]\n\t sbb %[p4], %[t4]\n\t sbb %[p5], %[t5]\n\t"
/* t = 2t mod p, then t = t + z mod p */
#define FP3_TAIL_                                                                                                      \
    "add %[t0], %[t0]\n\t adc %[t1], %[t1]\n\t adc %[t2], %[t2]\n\t adc %[t3], %[t3]\n\t adc %[t4], %[t4]\n\t"         \
    "adc %[t5], %[t5]\n\t" FP3_SUB_P_ FP3_ADDBACK_                                                                     \
    "add 0(%[z]), %[t0]\n\t adc 8(%[z]), %[t1]\n\t adc 16(%[z]), %[t2]\n\t"                                            \
    "adc 24(%[z]), %[t3]\n\t adc 32(%[z]), %[t4]\n\t adc 40(%[z]), %[t5]\n\t" FP3_SUB_P_ FP3_ADDBACK_                  \
    "mov %[t0], 0(%[r])\n\t mov %[t1], 8(%[r])\n\t mov %[t2], 16(%[r])\n\t"                                            \
    "mov %[t3], 24(%[r])\n\t mov %[t4], 32(%[r])\n\t mov %[t5], 40(%[r])\n\t"
#define FP3_OPERANDS_                                                                                                  \
    : "=m"(*r), [t0] "+r"(t0), [t1] "+r"(t1), [t2] "+r"(t2), [t3] "+r"(t3), [t4] "+r"(t4), [t5] "+r"(t5),            \
      [m] "=&r"(m), [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2)                                                    \
    : [r] "r"(r), [z] "r"(z), [g] "r"(g), "m"(*z), "m"(*g), [p0] "m"(cuzk_ff_inline_p[0]),                             \
      [p1] "m"(cuzk_ff_inline_p[1]), [p2] "m"(cuzk_ff_inline_p[2]), [p3] "m"(cuzk_ff_inline_p[3]),                     \
      [p4] "m"(cuzk_ff_inline_p[4]), [p5] "m"(cuzk_ff_inline_p[5])                                                     \
    : "cc"

static inline void fp_three_minus_two(cuzk_fp_t *r, const cuzk_fp_t *z, const cuzk_fp_t *g)
{
    uint64_t t0 = z->l[0], t1 = z->l[1], t2 = z->l[2], t3 = z->l[3], t4 = z->l[4], t5 = z->l[5], m, s0, s1, s2;
    __asm__(
        "sub 0(%[g]), %[t0]\n\t sbb 8(%[g]), %[t1]\n\t sbb 16(%[g]), %[t2]\n\t"
        "sbb 24(%[g]), %[t3]\n\t sbb 32(%[g]), %[t4]\n\t sbb 40(%[g]), %[t5]\n\t" FP3_ADDBACK_ FP3_TAIL_ FP3_OPERANDS_);
}

static inline void fp_three_plus_two(cuzk_fp_t *r, const cuzk_fp_t *z, const cuzk_fp_t *g)
{
    uint64_t t0 = z->l[0], t1 = z->l[1], t2 = z->l[2], t3 = z->l[3], t4 = z->l[4], t5 = z->l[5], m, s0, s1, s2;
    __asm__("add 0(%[g]), %[t0]\n\t adc 8(%[g]), %[t1]\n\t adc 16(%[g]), %[t2]\n\t"
            "adc 24(%[g]), %[t3]\n\t adc 32(%[g]), %[t4]\n\t adc 40(%[g]), %[t5]\n\t" FP3_SUB_P_ FP3_ADDBACK_ FP3_TAIL_
                FP3_OPERANDS_);
}

#undef FP3_ADDBACK_
#undef FP3_SUB_P_
#undef FP3_TAIL_
#undef FP3_OPERANDS_

/* r = 3z − 2g */
static void three_minus_two(cuzk_fp2_t *r, const cuzk_fp2_t *z, const cuzk_fp2_t *g)
{
    fp_three_minus_two(&r->c0, &z->c0, &g->c0);
    fp_three_minus_two(&r->c1, &z->c1, &g->c1);
}

/* r = 3z + 2h */
static void three_plus_two(cuzk_fp2_t *r, const cuzk_fp2_t *z, const cuzk_fp2_t *h)
{
    fp_three_plus_two(&r->c0, &z->c0, &h->c0);
    fp_three_plus_two(&r->c1, &z->c1, &h->c1);
}
#else
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
#endif

void cuzk_fp12_cyclotomic_sqr(cuzk_fp12_t *r, const cuzk_fp12_t *a)
{
    const fpw_prims *P = fpw_now();
    cuzk_fp2_t x0, y0, x1, y1, x2, y2;
    fp4_sqr(P, &x0, &y0, &a->c0.c0, &a->c1.c1); /* A0² */
    fp4_sqr(P, &x1, &y1, &a->c1.c0, &a->c0.c2); /* A1² */
    fp4_sqr(P, &x2, &y2, &a->c0.c1, &a->c1.c2); /* A2² */
    cuzk_fp2_mul_by_nonresidue(&y2, &y2);       /* s·A2² = ξ·y2 + x2·s */

    three_minus_two(&r->c0.c0, &x0, &a->c0.c0);
    three_plus_two(&r->c1.c1, &y0, &a->c1.c1);
    three_plus_two(&r->c1.c0, &y2, &a->c1.c0);
    three_minus_two(&r->c0.c2, &x2, &a->c0.c2);
    three_minus_two(&r->c0.c1, &x1, &a->c0.c1);
    three_plus_two(&r->c1.c2, &y1, &a->c1.c2);
}

/* Karabina's compressed squaring ("Squaring in cyclotomic subgroups", 2013), derived here for this tower. The
 * squaring above computes the coefficients g1 = c0.c1, g2 = c0.c2, g3 = c1.c0, g5 = c1.c2 from A1 = (g3, g2) and
 * A2 = (g1, g5) alone:
 *   g1' = 3(g3² + ξg2²) − 2g1,  g2' = 3(g1² + ξg5²) − 2g2,  g3' = 3ξ·2g1g5 + 2g3,  g5' = 3·2g2g3 + 2g5,
 * so a chain of squarings can run on those four (two Fp4 squarings, 6 Fp2 squarings instead of 9) and recover
 * g0 = c0.c0 and g4 = c1.c1 at the end. Comparing the squaring above with the generic one coefficient by
 * coefficient, and using the norm condition c0² − v·c1² = 1, gives
 *   4g3·g4 = 3g1² + ξg5² − 2g2,   and where g3 = 0:  g2·g4 = 2g1g5,
 *   g0 = ξ(2g4² − 3g1g2 + g3g5) + 1. */
typedef struct {
    cuzk_fp2_t g1, g2, g3, g5;
} fp12c;

static void fp12c_sqr(const fpw_prims *P, fp12c *r, const fp12c *a)
{
    cuzk_fp2_t x1, y1, x2, y2;
    fp4_sqr(P, &x1, &y1, &a->g3, &a->g2); /* A1² = (g3² + ξg2²) + 2g3g2·s */
    fp4_sqr(P, &x2, &y2, &a->g1, &a->g5); /* A2² = (g1² + ξg5²) + 2g1g5·s */
    cuzk_fp2_mul_by_nonresidue(&y2, &y2);
    three_plus_two(&r->g3, &y2, &a->g3);
    three_minus_two(&r->g2, &x2, &a->g2);
    three_minus_two(&r->g1, &x1, &a->g1);
    three_plus_two(&r->g5, &y1, &a->g5);
}

/* out[i] = the full element of in[i], all with one inversion; false (out untouched) when a denominator is zero
 * (g3 = g2 = 0: 1, −1 and few others), which the caller handles without compression. */
#define CPOW_BATCH 8
static bool fp12c_decompress(cuzk_fp12_t *out, const fp12c *in, size_t n)
{
    cuzk_fp2_t num[CPOW_BATCH], den[CPOW_BATCH], pre[CPOW_BATCH], acc, t, u;
    cuzk_fp2_set_one(&acc);
    for (size_t i = 0; i < n; i++) {
        const fp12c *c = &in[i];
        if (!cuzk_fp2_is_zero(&c->g3)) {
            cuzk_fp2_sqr(&t, &c->g1);
            cuzk_fp2_sub(&num[i], &t, &c->g2);
            cuzk_fp2_dbl(&num[i], &num[i]);
            cuzk_fp2_add(&num[i], &num[i], &t);
            cuzk_fp2_sqr(&t, &c->g5);
            cuzk_fp2_mul_by_nonresidue(&t, &t);
            cuzk_fp2_add(&num[i], &num[i], &t);
            cuzk_fp2_dbl(&den[i], &c->g3);
            cuzk_fp2_dbl(&den[i], &den[i]);
        } else {
            cuzk_fp2_mul(&num[i], &c->g1, &c->g5);
            cuzk_fp2_dbl(&num[i], &num[i]);
            den[i] = c->g2;
            if (cuzk_fp2_is_zero(&den[i])) return false;
        }
        pre[i] = acc;
        cuzk_fp2_mul(&acc, &acc, &den[i]);
    }
    cuzk_fp2_inv_vartime(&acc, &acc);
    for (size_t i = n; i-- > 0;) {
        const fp12c *c = &in[i];
        cuzk_fp12_t *o = &out[i];
        cuzk_fp2_mul(&t, &acc, &pre[i]); /* 1/den[i] */
        cuzk_fp2_mul(&acc, &acc, &den[i]);
        cuzk_fp2_mul(&o->c1.c1, &num[i], &t);
        o->c0.c1 = c->g1;
        o->c0.c2 = c->g2;
        o->c1.c0 = c->g3;
        o->c1.c2 = c->g5;
        cuzk_fp2_sqr(&t, &o->c1.c1);
        cuzk_fp2_mul(&u, &c->g1, &c->g2);
        cuzk_fp2_sub(&t, &t, &u);
        cuzk_fp2_dbl(&t, &t);
        cuzk_fp2_sub(&t, &t, &u);
        cuzk_fp2_mul(&u, &c->g3, &c->g5);
        cuzk_fp2_add(&t, &t, &u);
        cuzk_fp2_mul_by_nonresidue(&t, &t);
        cuzk_fp2_set_one(&u);
        cuzk_fp2_add(&o->c0.c0, &t, &u);
    }
    return true;
}

static void fp12_cyclotomic_pow_plain(cuzk_fp12_t *r, const cuzk_fp12_t *a, const uint64_t *e, size_t e_limbs)
{
    cuzk_fp12_t acc, base = *a;
    cuzk_fp12_set_one(&acc);
    bool started = false;
    for (size_t i = e_limbs; i-- > 0;) {
        for (int bit = 63; bit >= 0; bit--) {
            if (started) cuzk_fp12_cyclotomic_sqr(&acc, &acc);
            if ((e[i] >> bit) & 1) {
                if (started) cuzk_fp12_mul(&acc, &acc, &base);
                else acc = base;
                started = true;
            }
        }
    }
    *r = acc;
}

/* Right to left: a chain of compressed squarings c_i = a^(2^i) runs from a up to a set bit s of e; the c_i at set
 * bits are kept, decompressed a batch at a time with one inversion, and multiplied together. Above s the chain goes on
 * with uncompressed squarings of the decompressed a^(2^s), which cost more each (9 Fp2 squarings against 6) but need
 * no decompression (about 11 Fp2 squarings' worth): s is the set bit that minimises the total, so a dense run of top
 * bits (|x| = 2^63 + 2^62 + 2^60 + 2^57 + 2^48 + 2^16: s = 57) is squared uncompressed. */
#define CPOW_COST_COMPRESSED 6
#define CPOW_COST_PLAIN 9
#define CPOW_COST_DECOMPRESS 11
void cuzk_fp12_cyclotomic_pow_vartime(cuzk_fp12_t *r, const cuzk_fp12_t *a, const uint64_t *e, size_t e_limbs)
{
    const fpw_prims *P = fpw_now();
    size_t top = 0, set = 0, s = 0, best = SIZE_MAX;
    bool any = false;
    for (size_t i = 0; i < 64 * e_limbs; i++) {
        if ((e[i / 64] >> (i % 64)) & 1) top = i, any = true;
    }
    if (!any) {
        cuzk_fp12_set_one(r);
        return;
    }
    for (size_t i = 0; i <= top; i++) {
        if (!((e[i / 64] >> (i % 64)) & 1)) continue;
        set += i > 0; /* bit 0 needs no decompression: it is a itself */
        size_t cost = i * CPOW_COST_COMPRESSED + set * CPOW_COST_DECOMPRESS + (top - i) * CPOW_COST_PLAIN;
        if (cost < best) best = cost, s = i;
    }
    cuzk_fp12_t acc, full[CPOW_BATCH];
    fp12c c = {a->c0.c1, a->c0.c2, a->c1.c0, a->c1.c2}, kept[CPOW_BATCH];
    bool have = e[0] & 1;
    if (have) acc = *a;
    cuzk_fp12_t d = *a; /* a^(2^s) once decompressed */
    size_t n = 0;
    for (size_t i = 1; i <= s; i++) {
        fp12c_sqr(P, &c, &c);
        if (!((e[i / 64] >> (i % 64)) & 1)) continue;
        kept[n++] = c;
        if (n < CPOW_BATCH && i < s) continue;
        if (!fp12c_decompress(full, kept, n)) {
            fp12_cyclotomic_pow_plain(r, a, e, e_limbs);
            return;
        }
        for (size_t j = 0; j < n; j++) {
            if (have) cuzk_fp12_mul(&acc, &acc, &full[j]);
            else acc = full[j];
            have = true;
        }
        d = full[n - 1];
        n = 0;
    }
    for (size_t i = s + 1; i <= top; i++) {
        cuzk_fp12_cyclotomic_sqr(&d, &d);
        if ((e[i / 64] >> (i % 64)) & 1) cuzk_fp12_mul(&acc, &acc, &d);
    }
    *r = acc;
}

/* w^(p^k) = w·ξ^((p^k−1)/6) for k = 1, 2, 3, Montgomery form (checked by the tests against a^(p^k)). */
static const cuzk_fp2_t FROB_W[3] = {
    {{{0x07089552b319d465ULL, 0xc6695f92b50a8313ULL, 0x97e83cccd117228fULL, 0xa35baecab2dc29eeULL,
       0x1ce393ea5daace4dULL, 0x08f2220fb0fb66ebULL}},
     {{0xb2f66aad4ce5d646ULL, 0x5842a06bfc497cecULL, 0xcf4895d42599d394ULL, 0xc11b9cba40a8e8d0ULL,
       0x2e3813cbe5a0de89ULL, 0x110eefda88847fafULL}}},
    {{{0xecfb361b798dba3aULL, 0xc100ddb891865a2cULL, 0x0ec08ff1232bda8eULL, 0xd5c13cc6f1ca4721ULL,
       0x47222a47bf7b5c04ULL, 0x0110f184e51c5f59ULL}},
     {{0}}},
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
