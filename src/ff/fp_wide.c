/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The double-width Fp multiplications of each CPU path (fp_wide.h): portable C, and the MULX/ADX assembly of
 * mont_x86_64.c for the ADX and IFMA paths. */
#include "fp_wide.h"
#include "mont_x86_64.h"

static const uint64_t P[CUZK_FP_LIMBS] = {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL, 0x6730d2a0f6b0f624ULL,
                                          0x64774b84f38512bfULL, 0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};
#define P_INV 0x89f3fffcfffcfffdULL

static void mul_c(uint64_t r[CUZK_FP_LIMBS], const uint64_t a[CUZK_FP_LIMBS], const uint64_t b[CUZK_FP_LIMBS])
{
    mont_mul(r, a, b, P, P_INV, CUZK_FP_LIMBS);
}

/* Schoolbook product, row by row. */
static void mulw_c(uint64_t r[2 * CUZK_FP_LIMBS], const uint64_t a[CUZK_FP_LIMBS], const uint64_t b[CUZK_FP_LIMBS])
{
    uint64_t t[2 * CUZK_FP_LIMBS] = {0};
    for (size_t i = 0; i < CUZK_FP_LIMBS; i++) {
        uint64_t carry = 0;
        for (size_t j = 0; j < CUZK_FP_LIMBS; j++) {
            u128 s = (u128)a[j] * b[i] + t[i + j] + carry;
            t[i + j] = (uint64_t)s;
            carry = (uint64_t)(s >> 64);
        }
        t[i + CUZK_FP_LIMBS] = carry;
    }
    memcpy(r, t, sizeof t);
}

/* Word-by-word REDC of the low half (u = (t_lo + q·p)/2^384 <= p), then u + t_hi <= 2p − 1 and one conditional
 * subtraction, as the assembly does. */
static void redc_c(uint64_t r[CUZK_FP_LIMBS], const uint64_t t[2 * CUZK_FP_LIMBS])
{
    uint64_t w[CUZK_FP_LIMBS + 1];
    memcpy(w, t, CUZK_FP_LIMBS * sizeof w[0]);
    for (size_t i = 0; i < CUZK_FP_LIMBS; i++) {
        uint64_t q = w[0] * P_INV;
        u128 s = (u128)q * P[0] + w[0];
        uint64_t carry = (uint64_t)(s >> 64);
        for (size_t j = 1; j < CUZK_FP_LIMBS; j++) {
            s = (u128)q * P[j] + w[j] + carry;
            w[j - 1] = (uint64_t)s;
            carry = (uint64_t)(s >> 64);
        }
        w[CUZK_FP_LIMBS - 1] = carry;
    }
    uint64_t c = 0;
    for (size_t i = 0; i < CUZK_FP_LIMBS; i++) w[i] = mont_addc(w[i], t[CUZK_FP_LIMBS + i], &c);
    mont_final_sub(r, w, c, P, CUZK_FP_LIMBS);
}

/* The portable Fp2 routines: the C compositions of fp_wide.h over the portable products. */
static const fpw_prims *portable(void) { return &cuzk_fpw_prims[CUZK_CPU_PORTABLE]; }
static void fp2_mulw_c(fp2w *r, const cuzk_fp2_t *a, const cuzk_fp2_t *b) { fp2w_mul_c(portable(), r, a, b); }
static void fp2_sqrw_c(fp2w *r, const cuzk_fp2_t *a) { fp2w_sqr_c(portable(), r, a); }
static void fp2_redc_c(cuzk_fp2_t *r, const fp2w *t)
{
    redc_c(r->c0.l, t->c0.l);
    redc_c(r->c1.l, t->c1.l);
}
static void fp2_mul_c(cuzk_fp2_t *r, const cuzk_fp2_t *a, const cuzk_fp2_t *b)
{
    fp2w t;
    fp2_mulw_c(&t, a, b);
    fp2_redc_c(r, &t);
}
/* (a0 + a1)(a0 − a1) + a0·2a1·u: two Montgomery products; the sums a0 + a1 and 2a1 enter unreduced and a0 − a1 takes
 * 2p when it borrows, which the product allows: for halves of a below 2p the operands stay below 4p and 2p, and the
 * value before the final subtraction below 8p²/2^384 + p < 2p. */
static void fp2_sqr_c(cuzk_fp2_t *r, const cuzk_fp2_t *a)
{
    cuzk_fp_t s, d, m, a0 = a->c0;
    fp_add_nr(&s, &a->c0, &a->c1);
    fp_sub_2p(&d, &a->c0, &a->c1);
    fp_add_nr(&m, &a->c1, &a->c1);
    mul_c(r->c0.l, s.l, d.l);
    mul_c(r->c1.l, a0.l, m.l);
}

#ifdef CUZK_FF_ASM
static void fp2_mulw_asm(fp2w *r, const cuzk_fp2_t *a, const cuzk_fp2_t *b) { cuzk_mont_p381_fp2_mulw_mulx(r, a, b); }
static void fp2_sqrw_asm(fp2w *r, const cuzk_fp2_t *a) { cuzk_mont_p381_fp2_sqrw_mulx(r, a); }
static void fp2_redc_asm(cuzk_fp2_t *r, const fp2w *t) { cuzk_mont_p381_fp2_redc_mulx(r, t); }
static void fp2_mul_asm(cuzk_fp2_t *r, const cuzk_fp2_t *a, const cuzk_fp2_t *b)
{
    cuzk_mont_p381_fp2_mul_mulx(r, a, b);
}
static void fp2_sqr_asm(cuzk_fp2_t *r, const cuzk_fp2_t *a) { cuzk_mont_p381_fp2_sqr_mulx(r, a); }
/* clang-format off */
#define ASM_PRIMS                                                                                                  \
    {cuzk_mont_p381_mul_mulx, cuzk_mont_p381_mul_wide_mulx, cuzk_mont_p381_redc_mulx, fp2_mulw_asm, fp2_sqrw_asm,    \
     fp2_redc_asm, fp2_mul_asm, fp2_sqr_asm}
#else
#define ASM_PRIMS {mul_c, mulw_c, redc_c, fp2_mulw_c, fp2_sqrw_c, fp2_redc_c, fp2_mul_c, fp2_sqr_c}
#endif
/* clang-format on */

const fpw_prims cuzk_fpw_prims[CUZK_CPU_PATH_COUNT] = {
    [CUZK_CPU_PORTABLE] = {mul_c, mulw_c, redc_c, fp2_mulw_c, fp2_sqrw_c, fp2_redc_c, fp2_mul_c, fp2_sqr_c},
    [CUZK_CPU_ADX] = ASM_PRIMS,
    [CUZK_CPU_IFMA] = ASM_PRIMS,
};
