/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Fr, the 255-bit scalar field of BLS12-381 (the group order r), and its power-of-two roots of unity. */
#include "cuzk/ff.h"
#include "ff_internal.h"
#include "mont.h"
#include "mont_x86_64.h"
#include "safegcd.h"

const uint64_t CUZK_FR_MODULUS[CUZK_FR_LIMBS] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL,
                                                 0x73eda753299d7d48ULL};
static const uint64_t FR_ONE[CUZK_FR_LIMBS] = {0x00000001fffffffeULL, 0x5884b7fa00034802ULL, 0x998c4fefecbc4ff5ULL,
                                               0x1824b159acc5056fULL};
static const uint64_t FR_R2[CUZK_FR_LIMBS] = {0xc999e990f3f29c6dULL, 0x2b6cedcb87925c23ULL, 0x05d314967254398fULL,
                                              0x0748d9d99f59ff11ULL};
static const uint64_t FR_R3[CUZK_FR_LIMBS] = {0xc62c1807439b73afULL, 0x1b3e0d188cf06990ULL, 0x73d13c71c7b5f418ULL,
                                              0x6e2a5bb9c8db33e9ULL};
static const uint64_t FR_R_MINUS_1_HALF[CUZK_FR_LIMBS] = {0x7fffffff80000000ULL, 0xa9ded2017fff2dffULL,
                                                          0x199cec0404d0ec02ULL, 0x39f6d3a994cebea4ULL};
/* r - 1 = 2^32 · t with t odd */
static const uint64_t FR_T_MINUS_1_HALF[CUZK_FR_LIMBS] = {0x7fff2dff7fffffffULL, 0x04d0ec02a9ded201ULL,
                                                          0x94cebea4199cec04ULL, 0x0000000039f6d3a9ULL};
/* 7^t and 5^t (Montgomery form): primitive 2^32-th roots of unity */
static const uint64_t FR_ROOT7_2_32[CUZK_FR_LIMBS] = {0xb9b58d8c5f0e466aULL, 0x5b1b4c801819d7ecULL,
                                                      0x0af53ae352a31e64ULL, 0x5bf3adda19e9b27bULL};
static const uint64_t FR_ROOT5_2_32[CUZK_FR_LIMBS] = {0x9cab6d5c0c17f47cULL, 0x1ce1e93dfd4b71e5ULL,
                                                      0x0d6db230471dd505ULL, 0x3f0ee990743a3b6aULL};

#define FIELD(name) cuzk_fr_##name
#define ELEM cuzk_fr_t
#define NLIMBS CUZK_FR_LIMBS
#define NBYTES CUZK_FR_BYTES
#define MOD CUZK_FR_MODULUS
#define MINV 0xfffffffeffffffffULL
#define ONE_MONT FR_ONE
#define R2_MONT FR_R2
#define R3_MONT FR_R3
#define SG_LIMBS 5
#define SG_CT_BATCHES 12
#define MOD_MINUS_1_HALF FR_R_MINUS_1_HALF
#ifdef CUZK_FF_ASM
#define MUL_ASM cuzk_mont_r255_mul_mulx
#endif
#include "field_template.h"

void cuzk_fr_from_limbs_reduce(cuzk_fr_t *r, const uint64_t in[CUZK_FR_LIMBS])
{
    /* in < 2^256 < 3r, so at most two subtractions bring it into range */
    uint64_t t[CUZK_FR_LIMBS];
    memcpy(t, in, sizeof t);
    while (!mont_lt_vartime(t, CUZK_FR_MODULUS, CUZK_FR_LIMBS)) {
        uint64_t borrow = 0;
        for (size_t i = 0; i < CUZK_FR_LIMBS; i++) t[i] = mont_subb(t[i], CUZK_FR_MODULUS[i], &borrow);
    }
    cuzk_fr_mul_raw(r->l, t, FR_R2);
}

/* Tonelli–Shanks with the 2^32-th root 7^t as the non-residue power (7 is a non-square mod r). */
bool cuzk_fr_sqrt(cuzk_fr_t *r, const cuzk_fr_t *a)
{
    if (cuzk_fr_is_zero(a)) {
        cuzk_fr_set_zero(r);
        return true;
    }
    if (cuzk_fr_legendre(a) != 1) return false;
    cuzk_fr_t w, x, b, z, t;
    cuzk_fr_pow(&w, a, FR_T_MINUS_1_HALF, CUZK_FR_LIMBS); /* w = a^((t-1)/2) */
    cuzk_fr_mul(&x, a, &w);                               /* x = a^((t+1)/2) */
    cuzk_fr_mul(&b, &x, &w);                              /* b = a^t */
    memcpy(z.l, FR_ROOT7_2_32, sizeof z.l);
    unsigned v = CUZK_FR_TWO_ADICITY;
    while (!cuzk_fr_is_one(&b)) {
        unsigned k = 0;
        t = b;
        while (!cuzk_fr_is_one(&t)) {
            cuzk_fr_sqr(&t, &t);
            k++;
        }
        cuzk_fr_t s = z;
        for (unsigned i = 0; i < v - k - 1; i++) cuzk_fr_sqr(&s, &s);
        cuzk_fr_sqr(&z, &s);
        cuzk_fr_mul(&b, &b, &z);
        cuzk_fr_mul(&x, &x, &s);
        v = k;
    }
    *r = x;
    return true;
}

cuzk_status cuzk_fr_root_of_unity(cuzk_fr_t *r, unsigned log2n, cuzk_fr_roots conv)
{
    if (log2n > CUZK_FR_TWO_ADICITY) return CUZK_ERR_BAD_ROOT_ORDER;
    const uint64_t *base;
    switch (conv) {
    case CUZK_FR_ROOTS_GEN7: base = FR_ROOT7_2_32; break;
    case CUZK_FR_ROOTS_GEN5: base = FR_ROOT5_2_32; break;
    default: return CUZK_ERR_INVALID_ARG;
    }
    /* g^((r-1)/2^k) = (g^t)^(2^(32-k)) */
    memcpy(r->l, base, sizeof r->l);
    for (unsigned i = log2n; i < CUZK_FR_TWO_ADICITY; i++) cuzk_fr_sqr(r, r);
    return CUZK_OK;
}
