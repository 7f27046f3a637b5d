/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Fp, the 381-bit base field of BLS12-381. */
#include "cuzk/ff.h"
#include "ff_internal.h"
#include "mont.h"
#include "mont_x86_64.h"
#include "safegcd.h"

const uint64_t CUZK_FP_MODULUS[CUZK_FP_LIMBS] = {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL, 0x6730d2a0f6b0f624ULL,
                                                 0x64774b84f38512bfULL, 0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};
static const uint64_t FP_ONE[CUZK_FP_LIMBS] = {0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL,
                                               0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL};
static const uint64_t FP_R2[CUZK_FP_LIMBS] = {0xf4df1f341c341746ULL, 0x0a76e6a609d104f1ULL, 0x8de5476c4c95b6d5ULL,
                                              0x67eb88a9939d83c0ULL, 0x9a793e85b519952dULL, 0x11988fe592cae3aaULL};
static const uint64_t FP_R3[CUZK_FP_LIMBS] = {0xed48ac6bd94ca1e0ULL, 0x315f831e03a7adf8ULL, 0x9a53352a615e29ddULL,
                                              0x34c04e5e921e1761ULL, 0x2512d43565724728ULL, 0x0aa6346091755d4dULL};
static const uint64_t FP_P_MINUS_1_HALF[CUZK_FP_LIMBS] = {0xdcff7fffffffd555ULL, 0x0f55ffff58a9ffffULL,
                                                          0xb39869507b587b12ULL, 0xb23ba5c279c2895fULL,
                                                          0x258dd3db21a5d66bULL, 0x0d0088f51cbff34dULL};
static const uint64_t FP_P_PLUS_1_QUARTER[CUZK_FP_LIMBS] = {0xee7fbfffffffeaabULL, 0x07aaffffac54ffffULL,
                                                            0xd9cc34a83dac3d89ULL, 0xd91dd2e13ce144afULL,
                                                            0x92c6e9ed90d2eb35ULL, 0x0680447a8e5ff9a6ULL};

#define FIELD(name) cuzk_fp_##name
#define ELEM cuzk_fp_t
#define NLIMBS CUZK_FP_LIMBS
#define NBYTES CUZK_FP_BYTES
#define MOD CUZK_FP_MODULUS
#define MINV 0x89f3fffcfffcfffdULL
#define ONE_MONT FP_ONE
#define R2_MONT FP_R2
#define R3_MONT FP_R3
#define SG_LIMBS 7
#define SG_CT_BATCHES 18
#define MOD_MINUS_1_HALF FP_P_MINUS_1_HALF
#ifdef CUZK_FF_ASM
#define MUL_ASM cuzk_mont_p381_mul_mulx
#endif
#include "field_template.h"

/* p ≡ 3 (mod 4): a candidate root is a^((p+1)/4); it is a root exactly when a is a square. */
bool cuzk_fp_sqrt(cuzk_fp_t *r, const cuzk_fp_t *a)
{
    cuzk_fp_t c, check;
    cuzk_fp_pow(&c, a, FP_P_PLUS_1_QUARTER, CUZK_FP_LIMBS);
    cuzk_fp_sqr(&check, &c);
    if (!cuzk_fp_eq(&check, a)) return false;
    *r = c;
    return true;
}

bool cuzk_fp_is_lexicographically_largest(const cuzk_fp_t *a)
{
    uint64_t t[CUZK_FP_LIMBS];
    cuzk_fp_to_limbs(t, a);
    /* t > (p-1)/2 */
    for (size_t i = CUZK_FP_LIMBS; i-- > 0;) {
        if (t[i] != FP_P_MINUS_1_HALF[i]) return t[i] > FP_P_MINUS_1_HALF[i];
    }
    return false;
}
