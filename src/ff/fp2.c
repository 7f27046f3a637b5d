/* Fp2 = Fp[u] / (u² + 1). */
#include "cuzk/ff.h"

void fp2_set_zero(fp2_t *r) { fp_set_zero(&r->c0); fp_set_zero(&r->c1); }
void fp2_set_one(fp2_t *r) { fp_set_one(&r->c0); fp_set_zero(&r->c1); }
/* & on ints, not &&: both halves are always looked at (no data-dependent branch) */
bool fp2_is_zero(const fp2_t *a) { return (int)fp_is_zero(&a->c0) & (int)fp_is_zero(&a->c1); }
bool fp2_is_one(const fp2_t *a) { return (int)fp_is_one(&a->c0) & (int)fp_is_zero(&a->c1); }
bool fp2_eq(const fp2_t *a, const fp2_t *b) { return (int)fp_eq(&a->c0, &b->c0) & (int)fp_eq(&a->c1, &b->c1); }

void fp2_add(fp2_t *r, const fp2_t *a, const fp2_t *b)
{
    fp_add(&r->c0, &a->c0, &b->c0);
    fp_add(&r->c1, &a->c1, &b->c1);
}

void fp2_sub(fp2_t *r, const fp2_t *a, const fp2_t *b)
{
    fp_sub(&r->c0, &a->c0, &b->c0);
    fp_sub(&r->c1, &a->c1, &b->c1);
}

void fp2_dbl(fp2_t *r, const fp2_t *a)
{
    fp_dbl(&r->c0, &a->c0);
    fp_dbl(&r->c1, &a->c1);
}

void fp2_neg(fp2_t *r, const fp2_t *a)
{
    fp_neg(&r->c0, &a->c0);
    fp_neg(&r->c1, &a->c1);
}

void fp2_conj(fp2_t *r, const fp2_t *a)
{
    r->c0 = a->c0;
    fp_neg(&r->c1, &a->c1);
}

void fp2_frobenius(fp2_t *r, const fp2_t *a) { fp2_conj(r, a); }

/* Karatsuba: (a0 + a1 u)(b0 + b1 u) = a0b0 − a1b1 + ((a0+a1)(b0+b1) − a0b0 − a1b1) u */
void fp2_mul(fp2_t *r, const fp2_t *a, const fp2_t *b)
{
    fp_t t0, t1, s0, s1;
    fp_mul(&t0, &a->c0, &b->c0);
    fp_mul(&t1, &a->c1, &b->c1);
    fp_add(&s0, &a->c0, &a->c1);
    fp_add(&s1, &b->c0, &b->c1);
    fp_mul(&s0, &s0, &s1);
    fp_sub(&s0, &s0, &t0);
    fp_sub(&r->c1, &s0, &t1);
    fp_sub(&r->c0, &t0, &t1);
}

/* (a0 + a1 u)² = (a0 + a1)(a0 − a1) + 2 a0 a1 u */
void fp2_sqr(fp2_t *r, const fp2_t *a)
{
    fp_t s, d, m;
    fp_add(&s, &a->c0, &a->c1);
    fp_sub(&d, &a->c0, &a->c1);
    fp_mul(&m, &a->c0, &a->c1);
    fp_mul(&r->c0, &s, &d);
    fp_dbl(&r->c1, &m);
}

void fp2_mul_fp(fp2_t *r, const fp2_t *a, const fp_t *b)
{
    fp_mul(&r->c0, &a->c0, b);
    fp_mul(&r->c1, &a->c1, b);
}

/* (a0 + a1 u)(1 + u) = (a0 − a1) + (a0 + a1) u */
void fp2_mul_by_nonresidue(fp2_t *r, const fp2_t *a)
{
    fp_t t;
    fp_sub(&t, &a->c0, &a->c1);
    fp_add(&r->c1, &a->c0, &a->c1);
    r->c0 = t;
}

/* 1/(a0 + a1 u) = (a0 − a1 u) / (a0² + a1²) */
void fp2_inv(fp2_t *r, const fp2_t *a)
{
    fp_t n, t;
    fp_sqr(&n, &a->c0);
    fp_sqr(&t, &a->c1);
    fp_add(&n, &n, &t);
    fp_inv(&n, &n);
    fp_mul(&r->c0, &a->c0, &n);
    fp_neg(&t, &a->c1);
    fp_mul(&r->c1, &t, &n);
}

/* The same for public values, with the variable-time Fp inverse. */
void fp2_inv_vartime(fp2_t *r, const fp2_t *a)
{
    fp_t n, t;
    fp_sqr(&n, &a->c0);
    fp_sqr(&t, &a->c1);
    fp_add(&n, &n, &t);
    fp_inv_vartime(&n, &n);
    fp_mul(&r->c0, &a->c0, &n);
    fp_neg(&t, &a->c1);
    fp_mul(&r->c1, &t, &n);
}

void fp2_pow(fp2_t *r, const fp2_t *a, const uint64_t *e, size_t e_limbs)
{
    fp2_t acc, base = *a;
    fp2_set_one(&acc);
    for (size_t i = e_limbs; i-- > 0;) {
        for (int bit = 63; bit >= 0; bit--) {
            fp2_sqr(&acc, &acc);
            if ((e[i] >> bit) & 1) fp2_mul(&acc, &acc, &base);
        }
    }
    *r = acc;
}

void fp2_cmov(fp2_t *r, const fp2_t *a, const fp2_t *b, bool flag)
{
    fp_cmov(&r->c0, &a->c0, &b->c0, flag);
    fp_cmov(&r->c1, &a->c1, &b->c1, flag);
}

bool fp2_is_lexicographically_largest(const fp2_t *a)
{
    if (!fp_is_zero(&a->c1)) return fp_is_lexicographically_largest(&a->c1);
    return fp_is_lexicographically_largest(&a->c0);
}

/* Square root for p ≡ 3 (mod 4) (Adj and Rodríguez-Henríquez, algorithm 9):
 * a1 = a^((p−3)/4), α = a1² a, x0 = a1 a; if α = −1 the root is u·x0, else (1 + α)^((p−1)/2) · x0. */
bool fp2_sqrt(fp2_t *r, const fp2_t *a)
{
    static const uint64_t P_MINUS_3_QUARTER[FP_LIMBS] = {0xee7fbfffffffeaaaULL, 0x07aaffffac54ffffULL,
                                                         0xd9cc34a83dac3d89ULL, 0xd91dd2e13ce144afULL,
                                                         0x92c6e9ed90d2eb35ULL, 0x0680447a8e5ff9a6ULL};
    static const uint64_t P_MINUS_1_HALF[FP_LIMBS] = {0xdcff7fffffffd555ULL, 0x0f55ffff58a9ffffULL,
                                                      0xb39869507b587b12ULL, 0xb23ba5c279c2895fULL,
                                                      0x258dd3db21a5d66bULL, 0x0d0088f51cbff34dULL};
    fp2_t a1, alpha, x0, x, minus_one, check;
    fp2_pow(&a1, a, P_MINUS_3_QUARTER, FP_LIMBS);
    fp2_sqr(&alpha, &a1);
    fp2_mul(&alpha, &alpha, a);
    fp2_mul(&x0, &a1, a);
    fp2_set_one(&minus_one);
    fp2_neg(&minus_one, &minus_one);
    if (fp2_eq(&alpha, &minus_one)) {
        /* u·(x0 + x1 u) = −x1 + x0 u */
        fp_neg(&x.c0, &x0.c1);
        x.c1 = x0.c0;
    } else {
        fp2_t b, one;
        fp2_set_one(&one);
        fp2_add(&b, &alpha, &one);
        fp2_pow(&b, &b, P_MINUS_1_HALF, FP_LIMBS);
        fp2_mul(&x, &b, &x0);
    }
    fp2_sqr(&check, &x);
    if (!fp2_eq(&check, a)) return false;
    *r = x;
    return true;
}

void fp2_batch_inv(fp2_t *out, const fp2_t *in, size_t n, fp2_t *scratch)
{
    if (n == 0) return;
    fp2_t acc, inv_i;
    fp2_set_one(&acc);
    for (size_t i = 0; i < n; i++) {
        scratch[i] = acc;
        if (!fp2_is_zero(&in[i])) fp2_mul(&acc, &acc, &in[i]);
    }
    fp2_inv(&acc, &acc);
    for (size_t i = n; i-- > 0;) {
        if (fp2_is_zero(&in[i])) {
            fp2_set_zero(&out[i]);
            continue;
        }
        fp2_mul(&inv_i, &acc, &scratch[i]);
        fp2_mul(&acc, &acc, &in[i]);
        out[i] = inv_i;
    }
}
