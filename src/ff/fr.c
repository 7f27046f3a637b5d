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

/* ---- sums of products ---------------------------------------------------------------------------------------------
 * Σ a_i·b_i with the products added at double width and one Montgomery reduction of the sum (mont_x86_64.h describes
 * the bound): the reduction takes half of a multiplication's work, so a sum of n products costs about n/2 + 1/2
 * multiplications. At most DOT_MAX pairs per reduction (2^5 ≥ 1 + 60/2); longer sums are split. */
#define DOT_MAX 60u

/* s conditional subtractions bring W + T_hi < (1 + n/2)·r below r: the least s with 2^s ≥ 1 + ⌈n/2⌉, which is the
 * bit length of ⌈n/2⌉ (n ≥ 1) */
static inline unsigned dot_rungs(size_t n) { return 64u - (unsigned)__builtin_clzll((unsigned long long)(n + 1) / 2); }

/* 16r, 8r, 4r, 2r, r */
static const uint64_t DOT_LADDER[5][5] = {
    {0xfffffff000000010ULL, 0x3bda402fffe5bfefULL, 0x339d80809a1d8055ULL, 0x3eda753299d7d483ULL, 7},
    {0xfffffff800000008ULL, 0x9ded2017fff2dff7ULL, 0x99cec0404d0ec02aULL, 0x9f6d3a994cebea41ULL, 3},
    {0xfffffffc00000004ULL, 0x4ef6900bfff96ffbULL, 0xcce7602026876015ULL, 0xcfb69d4ca675f520ULL, 1},
    {0xfffffffe00000002ULL, 0xa77b4805fffcb7fdULL, 0x6673b0101343b00aULL, 0xe7db4ea6533afa90ULL, 0},
    {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL, 0},
};

static void dot_c(uint64_t r[CUZK_FR_LIMBS], const cuzk_fr_t *a, const cuzk_fr_t *b, size_t n)
{
    uint64_t t[9] = {0};
    for (size_t i = 0; i < n; i++) {
        uint64_t p[8] = {0};
        for (size_t j = 0; j < CUZK_FR_LIMBS; j++) {
            uint64_t carry = 0;
            for (size_t k = 0; k < CUZK_FR_LIMBS; k++) {
                u128 s = (u128)a[i].l[k] * b[i].l[j] + p[j + k] + carry;
                p[j + k] = (uint64_t)s;
                carry = (uint64_t)(s >> 64);
            }
            p[j + CUZK_FR_LIMBS] = carry;
        }
        uint64_t carry = 0;
        for (size_t k = 0; k < 8; k++) t[k] = mont_addc(t[k], p[k], &carry);
        t[8] += carry;
    }
    /* W = (T_lo + Q·r)/2^256 ≤ r: four rounds on the low half */
    uint64_t w[CUZK_FR_LIMBS + 1];
    memcpy(w, t, sizeof(uint64_t) * CUZK_FR_LIMBS);
    for (size_t i = 0; i < CUZK_FR_LIMBS; i++) {
        uint64_t q = w[0] * MINV, carry = 0;
        for (size_t k = 0; k < CUZK_FR_LIMBS; k++) {
            u128 s = (u128)q * CUZK_FR_MODULUS[k] + w[k] + carry;
            w[k] = (uint64_t)s;
            carry = (uint64_t)(s >> 64);
        }
        memmove(w, w + 1, sizeof(uint64_t) * (CUZK_FR_LIMBS - 1));
        w[CUZK_FR_LIMBS - 1] = carry;
    }
    /* u = W + T_hi, then 2^k·r subtracted where it does not borrow */
    uint64_t u[5], carry = 0;
    for (size_t k = 0; k < CUZK_FR_LIMBS; k++) u[k] = mont_addc(w[k], t[4 + k], &carry);
    u[4] = t[8] + carry;
    for (unsigned k = 5 - dot_rungs(n); k < 5; k++) {
        uint64_t d[5], borrow = 0;
        for (size_t j = 0; j < 5; j++) d[j] = mont_subb(u[j], DOT_LADDER[k][j], &borrow);
        uint64_t keep = (uint64_t)0 - borrow;
        for (size_t j = 0; j < 5; j++) u[j] = (u[j] & keep) | (d[j] & ~keep);
    }
    memcpy(r, u, sizeof(uint64_t) * CUZK_FR_LIMBS);
}

typedef void dot_fn(uint64_t r[CUZK_FR_LIMBS], const cuzk_fr_t *a, const cuzk_fr_t *b, size_t n);

/* sums of more than DOT_MAX products in runs of at most DOT_MAX, each reduced once */
static inline void dot_runs(cuzk_fr_t *r, const cuzk_fr_t *a, const cuzk_fr_t *b, size_t n, dot_fn *run)
{
    if (n <= DOT_MAX) {
        if (n == 0) cuzk_fr_set_zero(r);
        else run(r->l, a, b, n);
        return;
    }
    cuzk_fr_t acc = {{0}}, x;
    for (size_t i = 0; i < n; i += DOT_MAX) {
        size_t m = n - i < DOT_MAX ? n - i : DOT_MAX;
        run(x.l, a + i, b + i, m);
        cuzk_fr_add(&acc, &acc, &x);
    }
    *r = acc;
}

void cuzk_fr_dot_portable(cuzk_fr_t *r, const cuzk_fr_t *a, const cuzk_fr_t *b, size_t n)
{
    dot_runs(r, a, b, n, dot_c);
}

#ifdef CUZK_FF_ASM
static void dot_mulx(uint64_t r[CUZK_FR_LIMBS], const cuzk_fr_t *a, const cuzk_fr_t *b, size_t n)
{
    cuzk_mont_r255_dot_mulx(r, a->l, b->l, n, dot_rungs(n));
}
#endif

void cuzk_fr_dot(cuzk_fr_t *r, const cuzk_fr_t *a, const cuzk_fr_t *b, size_t n)
{
#ifdef CUZK_FF_ASM
    if (__builtin_expect(cuzk_cpu_path_current != CUZK_CPU_PORTABLE, 1)) {
        dot_runs(r, a, b, n, dot_mulx);
        return;
    }
#endif
    cuzk_fr_dot_portable(r, a, b, n);
}
