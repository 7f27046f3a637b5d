/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Double-width Fp values for lazy reduction in the tower (Aranha, Karabina, Longa, Gebotys, López, "Faster explicit
 * formulas for computing pairings over ordinary curves", 2011): products are kept as 768-bit integers, added and
 * subtracted at that width, and reduced once per output coefficient.
 *
 * A wide value t is an integer in [0, p·2^384) standing for t·2^-384 mod p (Montgomery's REDC maps it to a fully
 * reduced Fp element). Any multiple of p may be added without changing what it stands for, so:
 *   fpw_add  t = a + b, minus p·2^384 when the sum reaches it (the subtraction touches the high half only);
 *   fpw_sub  t = a − b, plus p·2^384 when it borrows;
 *   fpw_sub_exact / fpw_add_exact for sums and differences the caller knows to stay in range (no correction).
 * Products of inputs below 2p stay below 4p² < p·2^384 (p < 2^381), which is what lets Karatsuba's sums enter a
 * multiplication unreduced (fp_add_nr: a + b < 2p, no reduction).
 *
 * The multiplications come from a table per CPU path (cuzk_fpw_prims, fp_wide.c): MULX/ADX assembly or portable C.
 * The additions are inline asm of baseline x86-64 instructions (or C elsewhere), the same on every path. */
#ifndef CUZK_FF_FP_WIDE_H
#define CUZK_FF_FP_WIDE_H

#include "cuzk/ff.h"
#include "mont.h"

typedef struct {
    uint64_t l[2 * CUZK_FP_LIMBS];
} fpw;
typedef struct {
    fpw c0, c1;
} fp2w;
typedef struct {
    fp2w c0, c1, c2;
} fp6w;

typedef struct {
    /* r = a·b·2^-384 mod p, fully reduced, for a, b < p; r may alias a or b */
    void (*mul)(uint64_t r[CUZK_FP_LIMBS], const uint64_t a[CUZK_FP_LIMBS], const uint64_t b[CUZK_FP_LIMBS]);
    /* r = a·b as a 768-bit integer; r must not overlap a or b */
    void (*mulw)(uint64_t r[2 * CUZK_FP_LIMBS], const uint64_t a[CUZK_FP_LIMBS], const uint64_t b[CUZK_FP_LIMBS]);
    /* r = t·2^-384 mod p, fully reduced, for t < p·2^384; r may equal t */
    void (*redc)(uint64_t r[CUZK_FP_LIMBS], const uint64_t t[2 * CUZK_FP_LIMBS]);
    /* Fp2: the product and the square at double width (fp2w_mul, fp2w_sqr below; r must not overlap a or b), both
     * halves of a double-width value reduced (r may equal t), and the reduced product and square (r may alias) */
    void (*fp2_mulw)(fp2w *r, const cuzk_fp2_t *a, const cuzk_fp2_t *b);
    void (*fp2_sqrw)(fp2w *r, const cuzk_fp2_t *a);
    void (*fp2_redc)(cuzk_fp2_t *r, const fp2w *t);
    void (*fp2_mul)(cuzk_fp2_t *r, const cuzk_fp2_t *a, const cuzk_fp2_t *b);
    void (*fp2_sqr)(cuzk_fp2_t *r, const cuzk_fp2_t *a);
} fpw_prims;

extern const fpw_prims cuzk_fpw_prims[CUZK_CPU_PATH_COUNT];

/* The table of the current path: one load, read again at every public entry point. */
static inline const fpw_prims *fpw_now(void) { return &cuzk_fpw_prims[cuzk_cpu_path_current]; }

/* the inline assembly keeps its hand layout */
/* clang-format off */
#if defined(CUZK_FF_INLINE_ADDSUB)
#define FPW_STORE_(off0, off1, off2, off3, off4, off5)                                                                 \
    "mov %[t0], " #off0 "(%[r])\n\t mov %[t1], " #off1 "(%[r])\n\t mov %[t2], " #off2 "(%[r])\n\t"                     \
    "mov %[t3], " #off3 "(%[r])\n\t mov %[t4], " #off4 "(%[r])\n\t mov %[t5], " #off5 "(%[r])\n\t"

#if defined(__OPTIMIZE__) && !defined(__SANITIZE_ADDRESS__)
/* Optimized builds: one asm statement per 12-word operation (13 registers): the low half is stored, the high half
 * loaded into the same registers (loads and stores leave the carry alone), then the correction of the high half:
 * t_hi −= p for the addition, and under the borrow mask t_hi += p, applied in two halves of three words since AND
 * clobbers the carry (the carry between them kept in s0 and brought back by NEG). */
#define FPW1_SUB_P_                                                                                                    \
    "sub %[p0], %[t0]\n\t sbb %[p1], %[t1]\n\t sbb %[p2], %[t2]\n\t"                                                   \
    "sbb %[p3], %[t3]\n\t sbb %[p4], %[t4]\n\t sbb %[p5], %[t5]\n\t"
#define FPW1_ADDBACK_HI_                                                                                               \
    "sbb %[z], %[z]\n\t"                                                                                               \
    "mov %[z], %[s0]\n\t and %[p0], %[s0]\n\t mov %[z], %[s1]\n\t and %[p1], %[s1]\n\t"                                \
    "mov %[z], %[s2]\n\t and %[p2], %[s2]\n\t"                                                                         \
    "add %[s0], %[t0]\n\t adc %[s1], %[t1]\n\t adc %[s2], %[t2]\n\t sbb %[s0], %[s0]\n\t"                              \
    "mov %[z], %[s1]\n\t and %[p3], %[s1]\n\t mov %[z], %[s2]\n\t and %[p4], %[s2]\n\t and %[p5], %[z]\n\t"            \
    "neg %[s0]\n\t adc %[s1], %[t3]\n\t adc %[s2], %[t4]\n\t adc %[z], %[t5]\n\t"                                      \
    "mov %[t0], 48(%[r])\n\t mov %[t1], 56(%[r])\n\t mov %[t2], 64(%[r])\n\t"                                          \
    "mov %[t3], 72(%[r])\n\t mov %[t4], 80(%[r])\n\t mov %[t5], 88(%[r])\n\t"
#define FPW1_STORE_LO_                                                                                                 \
    "mov %[t0], 0(%[r])\n\t mov %[t1], 8(%[r])\n\t mov %[t2], 16(%[r])\n\t"                                            \
    "mov %[t3], 24(%[r])\n\t mov %[t4], 32(%[r])\n\t mov %[t5], 40(%[r])\n\t"
#define FPW1_LOAD_HI_                                                                                                  \
    "mov 48(%[a]), %[t0]\n\t mov 56(%[a]), %[t1]\n\t mov 64(%[a]), %[t2]\n\t"                                          \
    "mov 72(%[a]), %[t3]\n\t mov 80(%[a]), %[t4]\n\t mov 88(%[a]), %[t5]\n\t"
#define FPW1_OPERANDS_                                                                                                 \
    : "=m"(*r), [t0] "+r"(t0), [t1] "+r"(t1), [t2] "+r"(t2), [t3] "+r"(t3), [t4] "+r"(t4), [t5] "+r"(t5),            \
      [z] "=&r"(z), [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2)                                                    \
    : [r] "r"(r), [a] "r"(a), [b] "r"(b), "m"(*a), "m"(*b), [p0] "m"(cuzk_ff_inline_p[0]),                             \
      [p1] "m"(cuzk_ff_inline_p[1]), [p2] "m"(cuzk_ff_inline_p[2]), [p3] "m"(cuzk_ff_inline_p[3]),                     \
      [p4] "m"(cuzk_ff_inline_p[4]), [p5] "m"(cuzk_ff_inline_p[5])                                                     \
    : "cc"

/* r = a + b mod p·2^384 (a, b < p·2^384, so the sum < 2^766 never leaves 12 words). r may alias a or b. */
static inline void fpw_add(fpw *r, const fpw *a, const fpw *b)
{
    uint64_t t0 = a->l[0], t1 = a->l[1], t2 = a->l[2], t3 = a->l[3], t4 = a->l[4], t5 = a->l[5], z, s0, s1, s2;
    __asm__("add 0(%[b]), %[t0]\n\t adc 8(%[b]), %[t1]\n\t adc 16(%[b]), %[t2]\n\t"
            "adc 24(%[b]), %[t3]\n\t adc 32(%[b]), %[t4]\n\t adc 40(%[b]), %[t5]\n\t"
            FPW1_STORE_LO_ FPW1_LOAD_HI_
            "adc 48(%[b]), %[t0]\n\t adc 56(%[b]), %[t1]\n\t adc 64(%[b]), %[t2]\n\t"
            "adc 72(%[b]), %[t3]\n\t adc 80(%[b]), %[t4]\n\t adc 88(%[b]), %[t5]\n\t"
            FPW1_SUB_P_ FPW1_ADDBACK_HI_ FPW1_OPERANDS_);
}

/* r = a − b mod p·2^384. r may alias a or b. */
static inline void fpw_sub(fpw *r, const fpw *a, const fpw *b)
{
    uint64_t t0 = a->l[0], t1 = a->l[1], t2 = a->l[2], t3 = a->l[3], t4 = a->l[4], t5 = a->l[5], z, s0, s1, s2;
    __asm__("sub 0(%[b]), %[t0]\n\t sbb 8(%[b]), %[t1]\n\t sbb 16(%[b]), %[t2]\n\t"
            "sbb 24(%[b]), %[t3]\n\t sbb 32(%[b]), %[t4]\n\t sbb 40(%[b]), %[t5]\n\t"
            FPW1_STORE_LO_ FPW1_LOAD_HI_
            "sbb 48(%[b]), %[t0]\n\t sbb 56(%[b]), %[t1]\n\t sbb 64(%[b]), %[t2]\n\t"
            "sbb 72(%[b]), %[t3]\n\t sbb 80(%[b]), %[t4]\n\t sbb 88(%[b]), %[t5]\n\t"
            FPW1_ADDBACK_HI_ FPW1_OPERANDS_);
}

/* r = a − b where the caller knows a >= b. */
static inline void fpw_sub_exact(fpw *r, const fpw *a, const fpw *b)
{
    uint64_t t0 = a->l[0], t1 = a->l[1], t2 = a->l[2], t3 = a->l[3], t4 = a->l[4], t5 = a->l[5];
    __asm__("sub 0(%[b]), %[t0]\n\t sbb 8(%[b]), %[t1]\n\t sbb 16(%[b]), %[t2]\n\t"
            "sbb 24(%[b]), %[t3]\n\t sbb 32(%[b]), %[t4]\n\t sbb 40(%[b]), %[t5]\n\t"
            FPW1_STORE_LO_ FPW1_LOAD_HI_
            "sbb 48(%[b]), %[t0]\n\t sbb 56(%[b]), %[t1]\n\t sbb 64(%[b]), %[t2]\n\t"
            "sbb 72(%[b]), %[t3]\n\t sbb 80(%[b]), %[t4]\n\t sbb 88(%[b]), %[t5]\n\t"
            "mov %[t0], 48(%[r])\n\t mov %[t1], 56(%[r])\n\t mov %[t2], 64(%[r])\n\t"
            "mov %[t3], 72(%[r])\n\t mov %[t4], 80(%[r])\n\t mov %[t5], 88(%[r])\n\t"
            : "=m"(*r), [t0] "+r"(t0), [t1] "+r"(t1), [t2] "+r"(t2), [t3] "+r"(t3), [t4] "+r"(t4), [t5] "+r"(t5)
            : [r] "r"(r), [a] "r"(a), [b] "r"(b), "m"(*a), "m"(*b)
            : "cc");
}

/* r = a + b where the caller knows the sum stays below p·2^384. */
static inline void fpw_add_exact(fpw *r, const fpw *a, const fpw *b)
{
    uint64_t t0 = a->l[0], t1 = a->l[1], t2 = a->l[2], t3 = a->l[3], t4 = a->l[4], t5 = a->l[5];
    __asm__("add 0(%[b]), %[t0]\n\t adc 8(%[b]), %[t1]\n\t adc 16(%[b]), %[t2]\n\t"
            "adc 24(%[b]), %[t3]\n\t adc 32(%[b]), %[t4]\n\t adc 40(%[b]), %[t5]\n\t"
            FPW1_STORE_LO_ FPW1_LOAD_HI_
            "adc 48(%[b]), %[t0]\n\t adc 56(%[b]), %[t1]\n\t adc 64(%[b]), %[t2]\n\t"
            "adc 72(%[b]), %[t3]\n\t adc 80(%[b]), %[t4]\n\t adc 88(%[b]), %[t5]\n\t"
            "mov %[t0], 48(%[r])\n\t mov %[t1], 56(%[r])\n\t mov %[t2], 64(%[r])\n\t"
            "mov %[t3], 72(%[r])\n\t mov %[t4], 80(%[r])\n\t mov %[t5], 88(%[r])\n\t"
            : "=m"(*r), [t0] "+r"(t0), [t1] "+r"(t1), [t2] "+r"(t2), [t3] "+r"(t3), [t4] "+r"(t4), [t5] "+r"(t5)
            : [r] "r"(r), [a] "r"(a), [b] "r"(b), "m"(*a), "m"(*b)
            : "cc");
}

#undef FPW1_SUB_P_
#undef FPW1_ADDBACK_HI_
#undef FPW1_STORE_LO_
#undef FPW1_LOAD_HI_
#undef FPW1_OPERANDS_

#else /* -O0 or the sanitizers: fewer registers */
/* Each 12-word addition or subtraction is two asm statements of 6 words, so that neither needs more than 12
 * registers (-O0 with the sanitizers has no more): the carry or borrow between them travels as 0 or 1 in c and
 * comes back into CF by adding 2^64 − 1 to it. The high half then takes the correction: t_hi −= p for the addition,
 * and under the borrow mask t_hi += p, applied in two halves of three words since AND clobbers the carry (the carry
 * between them kept in s0 and brought back by NEG). */
#define FPW_LO_(r) (*(uint64_t(*)[CUZK_FP_LIMBS])(r)->l)
#define FPW_HI_(r) (*(uint64_t(*)[CUZK_FP_LIMBS])((r)->l + CUZK_FP_LIMBS))
#define FPW_LO_OPERANDS_                                                                                               \
    : "=m"(FPW_LO_(r)), [t0] "+r"(t0), [t1] "+r"(t1), [t2] "+r"(t2), [t3] "+r"(t3), [t4] "+r"(t4), [t5] "+r"(t5), \
      [c] "=r"(c)                                                                                                     \
    : [r] "r"(r), [b] "r"(b), "m"(*b)                                                                                  \
    : "cc"
#define FPW_ADDBACK_HI_                                                                                                \
    "sbb %[c], %[c]\n\t"                                                                                               \
    "mov %[c], %[s0]\n\t and %[p0], %[s0]\n\t mov %[c], %[s1]\n\t and %[p1], %[s1]\n\t"                                \
    "mov %[c], %[s2]\n\t and %[p2], %[s2]\n\t"                                                                         \
    "add %[s0], %[t0]\n\t adc %[s1], %[t1]\n\t adc %[s2], %[t2]\n\t sbb %[s0], %[s0]\n\t"                              \
    "mov %[c], %[s1]\n\t and %[p3], %[s1]\n\t mov %[c], %[s2]\n\t and %[p4], %[s2]\n\t and %[p5], %[c]\n\t"            \
    "neg %[s0]\n\t adc %[s1], %[t3]\n\t adc %[s2], %[t4]\n\t adc %[c], %[t5]\n\t"                                      \
    FPW_STORE_(48, 56, 64, 72, 80, 88)                                                                                 \
    : "=m"(FPW_HI_(r)), [t0] "+r"(t0), [t1] "+r"(t1), [t2] "+r"(t2), [t3] "+r"(t3), [t4] "+r"(t4), [t5] "+r"(t5),      \
      [c] "+r"(c), [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2)                                                     \
    : [r] "r"(r), [b] "r"(b), "m"(*b), [p0] "m"(cuzk_ff_inline_p[0]), [p1] "m"(cuzk_ff_inline_p[1]),                   \
      [p2] "m"(cuzk_ff_inline_p[2]), [p3] "m"(cuzk_ff_inline_p[3]), [p4] "m"(cuzk_ff_inline_p[4]),                     \
      [p5] "m"(cuzk_ff_inline_p[5])                                                                                    \
    : "cc"

/* r = a + b mod p·2^384 (a, b < p·2^384, so the sum < 2^766 never leaves 12 words). r may alias a or b. */
static inline void fpw_add(fpw *r, const fpw *a, const fpw *b)
{
    uint64_t t0 = a->l[0], t1 = a->l[1], t2 = a->l[2], t3 = a->l[3], t4 = a->l[4], t5 = a->l[5], c, s0, s1, s2;
    __asm__("add 0(%[b]), %[t0]\n\t adc 8(%[b]), %[t1]\n\t adc 16(%[b]), %[t2]\n\t"
            "adc 24(%[b]), %[t3]\n\t adc 32(%[b]), %[t4]\n\t adc 40(%[b]), %[t5]\n\t"
            FPW_STORE_(0, 8, 16, 24, 32, 40) "setc %b[c]\n\t movzbl %b[c], %k[c]\n\t" FPW_LO_OPERANDS_);
    t0 = a->l[6], t1 = a->l[7], t2 = a->l[8], t3 = a->l[9], t4 = a->l[10], t5 = a->l[11];
    __asm__("add $-1, %[c]\n\t"
            "adc 48(%[b]), %[t0]\n\t adc 56(%[b]), %[t1]\n\t adc 64(%[b]), %[t2]\n\t"
            "adc 72(%[b]), %[t3]\n\t adc 80(%[b]), %[t4]\n\t adc 88(%[b]), %[t5]\n\t"
            "sub %[p0], %[t0]\n\t sbb %[p1], %[t1]\n\t sbb %[p2], %[t2]\n\t"
            "sbb %[p3], %[t3]\n\t sbb %[p4], %[t4]\n\t sbb %[p5], %[t5]\n\t"
            FPW_ADDBACK_HI_);
}

/* r = a − b mod p·2^384. r may alias a or b. */
static inline void fpw_sub(fpw *r, const fpw *a, const fpw *b)
{
    uint64_t t0 = a->l[0], t1 = a->l[1], t2 = a->l[2], t3 = a->l[3], t4 = a->l[4], t5 = a->l[5], c, s0, s1, s2;
    __asm__("sub 0(%[b]), %[t0]\n\t sbb 8(%[b]), %[t1]\n\t sbb 16(%[b]), %[t2]\n\t"
            "sbb 24(%[b]), %[t3]\n\t sbb 32(%[b]), %[t4]\n\t sbb 40(%[b]), %[t5]\n\t"
            FPW_STORE_(0, 8, 16, 24, 32, 40) "setc %b[c]\n\t movzbl %b[c], %k[c]\n\t" FPW_LO_OPERANDS_);
    t0 = a->l[6], t1 = a->l[7], t2 = a->l[8], t3 = a->l[9], t4 = a->l[10], t5 = a->l[11];
    __asm__("add $-1, %[c]\n\t"
            "sbb 48(%[b]), %[t0]\n\t sbb 56(%[b]), %[t1]\n\t sbb 64(%[b]), %[t2]\n\t"
            "sbb 72(%[b]), %[t3]\n\t sbb 80(%[b]), %[t4]\n\t sbb 88(%[b]), %[t5]\n\t"
            FPW_ADDBACK_HI_);
}

/* r = a − b where the caller knows a >= b. */
static inline void fpw_sub_exact(fpw *r, const fpw *a, const fpw *b)
{
    uint64_t t0 = a->l[0], t1 = a->l[1], t2 = a->l[2], t3 = a->l[3], t4 = a->l[4], t5 = a->l[5], c;
    __asm__("sub 0(%[b]), %[t0]\n\t sbb 8(%[b]), %[t1]\n\t sbb 16(%[b]), %[t2]\n\t"
            "sbb 24(%[b]), %[t3]\n\t sbb 32(%[b]), %[t4]\n\t sbb 40(%[b]), %[t5]\n\t"
            FPW_STORE_(0, 8, 16, 24, 32, 40) "setc %b[c]\n\t movzbl %b[c], %k[c]\n\t" FPW_LO_OPERANDS_);
    t0 = a->l[6], t1 = a->l[7], t2 = a->l[8], t3 = a->l[9], t4 = a->l[10], t5 = a->l[11];
    __asm__("add $-1, %[c]\n\t"
            "sbb 48(%[b]), %[t0]\n\t sbb 56(%[b]), %[t1]\n\t sbb 64(%[b]), %[t2]\n\t"
            "sbb 72(%[b]), %[t3]\n\t sbb 80(%[b]), %[t4]\n\t sbb 88(%[b]), %[t5]\n\t"
            FPW_STORE_(48, 56, 64, 72, 80, 88)
            : "=m"(FPW_HI_(r)), [t0] "+r"(t0), [t1] "+r"(t1), [t2] "+r"(t2), [t3] "+r"(t3), [t4] "+r"(t4),
              [t5] "+r"(t5), [c] "+r"(c)
            : [r] "r"(r), [b] "r"(b), "m"(*b)
            : "cc");
}

/* r = a + b where the caller knows the sum stays below p·2^384. */
static inline void fpw_add_exact(fpw *r, const fpw *a, const fpw *b)
{
    uint64_t t0 = a->l[0], t1 = a->l[1], t2 = a->l[2], t3 = a->l[3], t4 = a->l[4], t5 = a->l[5], c;
    __asm__("add 0(%[b]), %[t0]\n\t adc 8(%[b]), %[t1]\n\t adc 16(%[b]), %[t2]\n\t"
            "adc 24(%[b]), %[t3]\n\t adc 32(%[b]), %[t4]\n\t adc 40(%[b]), %[t5]\n\t"
            FPW_STORE_(0, 8, 16, 24, 32, 40) "setc %b[c]\n\t movzbl %b[c], %k[c]\n\t" FPW_LO_OPERANDS_);
    t0 = a->l[6], t1 = a->l[7], t2 = a->l[8], t3 = a->l[9], t4 = a->l[10], t5 = a->l[11];
    __asm__("add $-1, %[c]\n\t"
            "adc 48(%[b]), %[t0]\n\t adc 56(%[b]), %[t1]\n\t adc 64(%[b]), %[t2]\n\t"
            "adc 72(%[b]), %[t3]\n\t adc 80(%[b]), %[t4]\n\t adc 88(%[b]), %[t5]\n\t"
            FPW_STORE_(48, 56, 64, 72, 80, 88)
            : "=m"(FPW_HI_(r)), [t0] "+r"(t0), [t1] "+r"(t1), [t2] "+r"(t2), [t3] "+r"(t3), [t4] "+r"(t4),
              [t5] "+r"(t5), [c] "+r"(c)
            : [r] "r"(r), [b] "r"(b), "m"(*b)
            : "cc");
}

#endif

/* r = a + b without reduction (a, b < p gives r < 2p < 2^382). r may alias a or b. */
static inline void fp_add_nr(cuzk_fp_t *r, const cuzk_fp_t *a, const cuzk_fp_t *b)
{
    uint64_t t0 = a->l[0], t1 = a->l[1], t2 = a->l[2], t3 = a->l[3], t4 = a->l[4], t5 = a->l[5];
    __asm__("add 0(%[b]), %[t0]\n\t adc 8(%[b]), %[t1]\n\t adc 16(%[b]), %[t2]\n\t"
            "adc 24(%[b]), %[t3]\n\t adc 32(%[b]), %[t4]\n\t adc 40(%[b]), %[t5]\n\t"
            FPW_STORE_(0, 8, 16, 24, 32, 40)
            : "=m"(*r), [t0] "+r"(t0), [t1] "+r"(t1), [t2] "+r"(t2), [t3] "+r"(t3), [t4] "+r"(t4), [t5] "+r"(t5)
            : [r] "r"(r), [b] "r"(b), "m"(*b)
            : "cc");
}

#undef FPW_STORE_
#undef FPW_LO_
#undef FPW_HI_
#undef FPW_LO_OPERANDS_
#undef FPW_ADDBACK_HI_

#else /* portable C */
/* clang-format on */

static const uint64_t FPW_P[CUZK_FP_LIMBS] = {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL, 0x6730d2a0f6b0f624ULL,
                                              0x64774b84f38512bfULL, 0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};

static inline void fpw_add(fpw *r, const fpw *a, const fpw *b)
{
    uint64_t t[2 * CUZK_FP_LIMBS], c = 0;
    for (size_t i = 0; i < 2 * CUZK_FP_LIMBS; i++) t[i] = mont_addc(a->l[i], b->l[i], &c);
    memcpy(r->l, t, CUZK_FP_LIMBS * sizeof t[0]);
    mont_final_sub(r->l + CUZK_FP_LIMBS, t + CUZK_FP_LIMBS, 0, FPW_P, CUZK_FP_LIMBS);
}

static inline void fpw_sub(fpw *r, const fpw *a, const fpw *b)
{
    uint64_t t[2 * CUZK_FP_LIMBS], bw = 0, c = 0;
    for (size_t i = 0; i < 2 * CUZK_FP_LIMBS; i++) t[i] = mont_subb(a->l[i], b->l[i], &bw);
    uint64_t mask = (uint64_t)0 - bw;
    for (size_t i = 0; i < CUZK_FP_LIMBS; i++)
        t[CUZK_FP_LIMBS + i] = mont_addc(t[CUZK_FP_LIMBS + i], FPW_P[i] & mask, &c);
    memcpy(r->l, t, sizeof t);
}

static inline void fpw_sub_exact(fpw *r, const fpw *a, const fpw *b)
{
    uint64_t bw = 0;
    for (size_t i = 0; i < 2 * CUZK_FP_LIMBS; i++) r->l[i] = mont_subb(a->l[i], b->l[i], &bw);
}

static inline void fpw_add_exact(fpw *r, const fpw *a, const fpw *b)
{
    uint64_t c = 0;
    for (size_t i = 0; i < 2 * CUZK_FP_LIMBS; i++) r->l[i] = mont_addc(a->l[i], b->l[i], &c);
}

static inline void fp_add_nr(cuzk_fp_t *r, const cuzk_fp_t *a, const cuzk_fp_t *b)
{
    uint64_t c = 0;
    for (size_t i = 0; i < CUZK_FP_LIMBS; i++) r->l[i] = mont_addc(a->l[i], b->l[i], &c);
}
#endif

/* r = a + b without reduction, each half below 2p: a Karatsuba sum that feeds fp2w_mul. */
static inline void fp2_add_nr(cuzk_fp2_t *r, const cuzk_fp2_t *a, const cuzk_fp2_t *b)
{
    fp_add_nr(&r->c0, &a->c0, &b->c0);
    fp_add_nr(&r->c1, &a->c1, &b->c1);
}

/* ---- Fp2 at double width ---------------------------------------------------------------------------------------- */
static inline void fp2w_add(fp2w *r, const fp2w *a, const fp2w *b)
{
    fpw_add(&r->c0, &a->c0, &b->c0);
    fpw_add(&r->c1, &a->c1, &b->c1);
}

static inline void fp2w_sub(fp2w *r, const fp2w *a, const fp2w *b)
{
    fpw_sub(&r->c0, &a->c0, &b->c0);
    fpw_sub(&r->c1, &a->c1, &b->c1);
}

/* r = m − a, where m is the product (x0 + y0)(x1 + y1) of Karatsuba sums that entered fp2w_mul unreduced (or the square
 * (x + y)² of fp2w_sqr) and a one of the products x0·x1 or y0·y1 (x², y²), or m minus one of them already: the
 * imaginary half r1 is then a sum of non-negative cross products as an integer, so it is subtracted exactly (no
 * correction); the real half is taken mod p·2^384. */
static inline void fp2w_sub_karatsuba(fp2w *r, const fp2w *m, const fp2w *a)
{
    fpw_sub(&r->c0, &m->c0, &a->c0);
    fpw_sub_exact(&r->c1, &m->c1, &a->c1);
}

/* r = a·ξ = (a0 − a1) + (a0 + a1)u; r must not alias a. */
static inline void fp2w_mul_by_nonresidue(fp2w *r, const fp2w *a)
{
    fpw_sub(&r->c0, &a->c0, &a->c1);
    fpw_add(&r->c1, &a->c0, &a->c1);
}

static inline void fp2w_redc(const fpw_prims *P, cuzk_fp2_t *r, const fp2w *a) { P->fp2_redc(r, a); }

/* r = a·b at double width (Karatsuba: three products, the sums enter unreduced):
 *   r0 = a0b0 − a1b1 (mod p·2^384), r1 = (a0 + a1)(b0 + b1) − a0b0 − a1b1 = a0b1 + a1b0 exactly.
 * Each half of a and b may be below 2p (an unreduced sum, fp2_add_nr): then a0 + a1 < 4p < 2^383, the product
 * (a0 + a1)(b0 + b1) < 16p² < 2^768 stays exact in 12 words, a0b0 − a1b1 lies in (−4p², 4p²) and r1 < 8p², both
 * below p·2^384 (8p < 2^384), which is all that the wide additions and REDC ask. One call of the path's fused
 * routine (this C composition on the portable path). */
static inline void fp2w_mul(const fpw_prims *P, fp2w *r, const cuzk_fp2_t *a, const cuzk_fp2_t *b)
{
    P->fp2_mulw(r, a, b);
}

static inline void fp2w_mul_c(const fpw_prims *P, fp2w *r, const cuzk_fp2_t *a, const cuzk_fp2_t *b)
{
    fpw t0, t1;
    cuzk_fp_t sa, sb;
    fp_add_nr(&sa, &a->c0, &a->c1);
    fp_add_nr(&sb, &b->c0, &b->c1);
    P->mulw(t0.l, a->c0.l, b->c0.l);
    P->mulw(t1.l, a->c1.l, b->c1.l);
    P->mulw(r->c1.l, sa.l, sb.l);
    fpw_sub(&r->c0, &t0, &t1);
    fpw_add_exact(&t0, &t0, &t1);
    fpw_sub_exact(&r->c1, &r->c1, &t0);
}

/* d = a − b, plus 2p when that borrows: below 2p for a, b < 2p, the difference of an Fp2 squaring. */
static inline void fp_sub_2p(cuzk_fp_t *d, const cuzk_fp_t *a, const cuzk_fp_t *b)
{
    static const uint64_t p2[CUZK_FP_LIMBS] = {0x73fdffffffff5556ULL, 0x3d57fffd62a7ffffULL, 0xce61a541ed61ec48ULL,
                                               0xc8ee9709e70a257eULL, 0x96374f6c869759aeULL, 0x340223d472ffcd34ULL};
    uint64_t t[CUZK_FP_LIMBS], bw = 0, c = 0;
    for (size_t i = 0; i < CUZK_FP_LIMBS; i++) t[i] = mont_subb(a->l[i], b->l[i], &bw);
    uint64_t mask = (uint64_t)0 - bw;
    for (size_t i = 0; i < CUZK_FP_LIMBS; i++) d->l[i] = mont_addc(t[i], p2[i] & mask, &c);
}

/* r = a² at double width: r0 = (a0 + a1)(a0 − a1) (the difference plus 2p when it borrows), r1 = a0·2a1. Each half of
 * a may be below 2p (an unreduced sum): both products stay below 8p² < p·2^384. When a is such a sum s = x + y of
 * reduced x, y, r1 = (x0 + y0)·2(x1 + y1) is, as an integer, x² 's r1 plus y² 's r1 plus non-negative cross products
 * (fp2w_sub_karatsuba subtracts those exactly). */
static inline void fp2w_sqr(const fpw_prims *P, fp2w *r, const cuzk_fp2_t *a) { P->fp2_sqrw(r, a); }

static inline void fp2w_sqr_c(const fpw_prims *P, fp2w *r, const cuzk_fp2_t *a)
{
    cuzk_fp_t s, d, a1x2;
    fp_add_nr(&s, &a->c0, &a->c1);
    fp_sub_2p(&d, &a->c0, &a->c1);
    fp_add_nr(&a1x2, &a->c1, &a->c1);
    P->mulw(r->c0.l, s.l, d.l);
    P->mulw(r->c1.l, a->c0.l, a1x2.l);
}

#endif
