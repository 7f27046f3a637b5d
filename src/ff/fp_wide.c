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

static void fp2_mulw_c(fp2w *r, const cuzk_fp2_t *a, const cuzk_fp2_t *b)
{
    fp2w_mul_c(&cuzk_fpw_prims[CUZK_CPU_PORTABLE], r, a, b);
}

#ifdef CUZK_FF_ASM
static void fp2_mulw_asm(fp2w *r, const cuzk_fp2_t *a, const cuzk_fp2_t *b)
{
    cuzk_mont_p381_fp2_mulw_mulx(r, a, b);
}
#define ASM_PRIMS {cuzk_mont_p381_mul_mulx, cuzk_mont_p381_mul_wide_mulx, cuzk_mont_p381_redc_mulx, fp2_mulw_asm}
#else
#define ASM_PRIMS {mul_c, mulw_c, redc_c, fp2_mulw_c}
#endif

const fpw_prims cuzk_fpw_prims[CUZK_CPU_PATH_COUNT] = {
    [CUZK_CPU_PORTABLE] = {mul_c, mulw_c, redc_c, fp2_mulw_c},
    [CUZK_CPU_ADX] = ASM_PRIMS,
    [CUZK_CPU_IFMA] = ASM_PRIMS,
};
