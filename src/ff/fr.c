/* Fr, the 255-bit scalar field of BLS12-381 (the group order r), and its power-of-two roots of unity. */
#include "cuzk/ff.h"
#include "ff_internal.h"
#include "mont.h"
#include "mont_x86_64.h"
#include "safegcd.h"

const uint64_t FR_MODULUS[FR_LIMBS] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL,
                                       0x73eda753299d7d48ULL};
static const uint64_t FR_ONE[FR_LIMBS] = {0x00000001fffffffeULL, 0x5884b7fa00034802ULL, 0x998c4fefecbc4ff5ULL,
                                          0x1824b159acc5056fULL};
static const uint64_t FR_R2[FR_LIMBS] = {0xc999e990f3f29c6dULL, 0x2b6cedcb87925c23ULL, 0x05d314967254398fULL,
                                         0x0748d9d99f59ff11ULL};
static const uint64_t FR_R3[FR_LIMBS] = {0xc62c1807439b73afULL, 0x1b3e0d188cf06990ULL, 0x73d13c71c7b5f418ULL,
                                         0x6e2a5bb9c8db33e9ULL};
static const uint64_t FR_R_MINUS_1_HALF[FR_LIMBS] = {0x7fffffff80000000ULL, 0xa9ded2017fff2dffULL,
                                                     0x199cec0404d0ec02ULL, 0x39f6d3a994cebea4ULL};
/* r - 1 = 2^32 · t with t odd */
static const uint64_t FR_T_MINUS_1_HALF[FR_LIMBS] = {0x7fff2dff7fffffffULL, 0x04d0ec02a9ded201ULL,
                                                     0x94cebea4199cec04ULL, 0x0000000039f6d3a9ULL};
/* 7^t and 5^t (Montgomery form): primitive 2^32-th roots of unity */
static const uint64_t FR_ROOT7_2_32[FR_LIMBS] = {0xb9b58d8c5f0e466aULL, 0x5b1b4c801819d7ecULL, 0x0af53ae352a31e64ULL,
                                                 0x5bf3adda19e9b27bULL};
static const uint64_t FR_ROOT5_2_32[FR_LIMBS] = {0x9cab6d5c0c17f47cULL, 0x1ce1e93dfd4b71e5ULL, 0x0d6db230471dd505ULL,
                                                 0x3f0ee990743a3b6aULL};

#define FIELD(name) fr_##name
#define ELEM fr_t
#define NLIMBS FR_LIMBS
#define NBYTES FR_BYTES
#define MOD FR_MODULUS
#define MINV 0xfffffffeffffffffULL
#define ONE_MONT FR_ONE
#define R2_MONT FR_R2
#define R3_MONT FR_R3
#define SG_LIMBS 5
#define SG_CT_BATCHES 12
#define MOD_MINUS_1_HALF FR_R_MINUS_1_HALF
#ifdef CUZK_FF_ASM
#define MUL_ASM mont_r255_mul_mulx
#endif
#include "field_template.h"

void fr_from_limbs_reduce(fr_t *r, const uint64_t in[FR_LIMBS])
{
    /* in < 2^256 < 3r, so at most two subtractions bring it into range */
    uint64_t t[FR_LIMBS];
    memcpy(t, in, sizeof t);
    while (!mont_lt_vartime(t, FR_MODULUS, FR_LIMBS)) {
        uint64_t borrow = 0;
        for (size_t i = 0; i < FR_LIMBS; i++) t[i] = mont_subb(t[i], FR_MODULUS[i], &borrow);
    }
    fr_mul_raw(r->l, t, FR_R2);
}

/* Tonelli–Shanks with the 2^32-th root 7^t as the non-residue power (7 is a non-square mod r). */
bool fr_sqrt(fr_t *r, const fr_t *a)
{
    if (fr_is_zero(a)) {
        fr_set_zero(r);
        return true;
    }
    if (fr_legendre(a) != 1) return false;
    fr_t w, x, b, z, t;
    fr_pow(&w, a, FR_T_MINUS_1_HALF, FR_LIMBS); /* w = a^((t-1)/2) */
    fr_mul(&x, a, &w);                           /* x = a^((t+1)/2) */
    fr_mul(&b, &x, &w);                          /* b = a^t */
    memcpy(z.l, FR_ROOT7_2_32, sizeof z.l);
    unsigned v = FR_TWO_ADICITY;
    while (!fr_is_one(&b)) {
        unsigned k = 0;
        t = b;
        while (!fr_is_one(&t)) {
            fr_sqr(&t, &t);
            k++;
        }
        fr_t s = z;
        for (unsigned i = 0; i < v - k - 1; i++) fr_sqr(&s, &s);
        fr_sqr(&z, &s);
        fr_mul(&b, &b, &z);
        fr_mul(&x, &x, &s);
        v = k;
    }
    *r = x;
    return true;
}

cuzk_status fr_root_of_unity(fr_t *r, unsigned log2n, fr_roots conv)
{
    if (log2n > FR_TWO_ADICITY) return CUZK_ERR_BAD_ROOT_ORDER;
    const uint64_t *base;
    switch (conv) {
    case FR_ROOTS_GEN7: base = FR_ROOT7_2_32; break;
    case FR_ROOTS_GEN5: base = FR_ROOT5_2_32; break;
    default: return CUZK_ERR_INVALID_ARG;
    }
    /* g^((r-1)/2^k) = (g^t)^(2^(32-k)) */
    memcpy(r->l, base, sizeof r->l);
    for (unsigned i = log2n; i < FR_TWO_ADICITY; i++) fr_sqr(r, r);
    return CUZK_OK;
}
