/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Inline Fp and Fr addition, subtraction and doubling (included by ff.h; not a header of its own).
 *
 * Hot loops elsewhere (NTT butterflies, SpMV rows, curve formulas, the tower) do an addition for every
 * multiplication; as out-of-line calls these cost as much as an Fr multiplication. On x86-64 (GCC or Clang, ELF)
 * cuzk_fp_add, cuzk_fp_sub, cuzk_fp_dbl, cuzk_fr_add, cuzk_fr_sub and cuzk_fr_dbl are therefore defined here as
 * static inline functions around a few lines of extended asm, so every caller inlines them (and cuzk_fp2_add,
 * cuzk_fp2_sub, cuzk_fp2_dbl, cuzk_fp2_mul_by_nonresidue on top of them); other targets declare them as ordinary
 * functions (the portable C of src/ff/mont.h). The asm uses baseline x86-64 instructions only
 * (ADD/ADC/SUB/SBB/AND/CMOV/NEG), so it needs no run-time dispatch: one binary runs it on every x86-64 processor.
 *
 * Both moduli leave the top bit free (m < 2^(64n−1)), so for inputs < m the sum a + b < 2m never carries out of n
 * words. Constant time: the reduction is chosen by a mask or CMOV on the borrow, never branched on. Two forms:
 *   select (Fr): t = a ± b, u = t ∓ m; the carry or borrow of the second step says which one is the result (for
 *        the subtraction: t + m carries out of n words exactly when a − b borrowed). CMOV picks. 2n registers.
 *   add-back (Fp, where 2n registers plus two pointers would not fit at -O0): t = a − b, or a + b − p;
 *        mask = −borrow (SBB of a register with itself); t += p & mask in two halves of three words, since AND
 *        clobbers the carry: the carry between the halves is kept in a register (SBB) and brought back by NEG.
 *        n + 6 registers.
 * The asm stores the result itself: left to the compiler, the n scalar stores get packed into vector inserts. b and r
 * are passed as pointers (one register each, also at -O0, where every per-word memory operand would take a base
 * register of its own); the whole-object memory operands tell the compiler what is read and written. The moduli are
 * file-local copies, addressed relative to RIP without a register. */
#ifndef CUZK_FF_INLINE_H
#define CUZK_FF_INLINE_H

#ifdef __cplusplus
extern "C" {
#endif

/* the inline assembly keeps its hand layout */
/* clang-format off */
#if defined(__x86_64__) && defined(__ELF__) && defined(__GNUC__) && !defined(__clang__) /* clang runs out of registers on these */
#define CUZK_FF_INLINE_ADDSUB 1

static const uint64_t cuzk_ff_inline_p[CUZK_FP_LIMBS] = {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL,
                                                         0x6730d2a0f6b0f624ULL, 0x64774b84f38512bfULL,
                                                         0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};
static const uint64_t cuzk_ff_inline_r[CUZK_FR_LIMBS] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                                         0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};

#define CUZK_FF_STORE_(x, i, off) "mov %[" #x #i "], " #off "(%[r])\n\t"

/* Fr: t = a + b, u = t − r; u borrowed exactly when t < r, then t is the result. */
static inline void cuzk_fr_add(cuzk_fr_t *r, const cuzk_fr_t *a, const cuzk_fr_t *b)
{
    uint64_t t0 = a->l[0], t1 = a->l[1], t2 = a->l[2], t3 = a->l[3], d0, d1, d2, d3;
    __asm__("add 0(%[b]), %[t0]\n\t adc 8(%[b]), %[t1]\n\t adc 16(%[b]), %[t2]\n\t adc 24(%[b]), %[t3]\n\t"
            "mov %[t0], %[d0]\n\t sub %[m0], %[d0]\n\t mov %[t1], %[d1]\n\t sbb %[m1], %[d1]\n\t"
            "mov %[t2], %[d2]\n\t sbb %[m2], %[d2]\n\t mov %[t3], %[d3]\n\t sbb %[m3], %[d3]\n\t"
            "cmovc %[t0], %[d0]\n\t cmovc %[t1], %[d1]\n\t cmovc %[t2], %[d2]\n\t cmovc %[t3], %[d3]\n\t"
            CUZK_FF_STORE_(d, 0, 0) CUZK_FF_STORE_(d, 1, 8) CUZK_FF_STORE_(d, 2, 16) CUZK_FF_STORE_(d, 3, 24)
            : "=m"(*r), [t0] "+r"(t0), [t1] "+r"(t1), [t2] "+r"(t2), [t3] "+r"(t3), [d0] "=&r"(d0), [d1] "=&r"(d1),
              [d2] "=&r"(d2), [d3] "=&r"(d3)
            : [r] "r"(r), [b] "r"(b), "m"(*b), [m0] "m"(cuzk_ff_inline_r[0]), [m1] "m"(cuzk_ff_inline_r[1]),
              [m2] "m"(cuzk_ff_inline_r[2]), [m3] "m"(cuzk_ff_inline_r[3])
            : "cc");
}

/* Fr: t = a − b, u = t + r; u carries out exactly when a − b borrowed, then u is the result. */
static inline void cuzk_fr_sub(cuzk_fr_t *r, const cuzk_fr_t *a, const cuzk_fr_t *b)
{
    uint64_t t0 = a->l[0], t1 = a->l[1], t2 = a->l[2], t3 = a->l[3], d0, d1, d2, d3;
    __asm__("sub 0(%[b]), %[t0]\n\t sbb 8(%[b]), %[t1]\n\t sbb 16(%[b]), %[t2]\n\t sbb 24(%[b]), %[t3]\n\t"
            "mov %[t0], %[d0]\n\t add %[m0], %[d0]\n\t mov %[t1], %[d1]\n\t adc %[m1], %[d1]\n\t"
            "mov %[t2], %[d2]\n\t adc %[m2], %[d2]\n\t mov %[t3], %[d3]\n\t adc %[m3], %[d3]\n\t"
            "cmovnc %[t0], %[d0]\n\t cmovnc %[t1], %[d1]\n\t cmovnc %[t2], %[d2]\n\t cmovnc %[t3], %[d3]\n\t"
            CUZK_FF_STORE_(d, 0, 0) CUZK_FF_STORE_(d, 1, 8) CUZK_FF_STORE_(d, 2, 16) CUZK_FF_STORE_(d, 3, 24)
            : "=m"(*r), [t0] "+r"(t0), [t1] "+r"(t1), [t2] "+r"(t2), [t3] "+r"(t3), [d0] "=&r"(d0), [d1] "=&r"(d1),
              [d2] "=&r"(d2), [d3] "=&r"(d3)
            : [r] "r"(r), [b] "r"(b), "m"(*b), [m0] "m"(cuzk_ff_inline_r[0]), [m1] "m"(cuzk_ff_inline_r[1]),
              [m2] "m"(cuzk_ff_inline_r[2]), [m3] "m"(cuzk_ff_inline_r[3])
            : "cc");
}

static inline void cuzk_fr_dbl(cuzk_fr_t *r, const cuzk_fr_t *a) { cuzk_fr_add(r, a, a); }

/* Fp tail, after t = a − b or t = a + b − p left the borrow in CF: t += p & −borrow, then store. */
#define CUZK_FP_ADDBACK_                                                                                               \
    "sbb %[z], %[z]\n\t"                                                                                               \
    "mov %[z], %[s0]\n\t and %[p0], %[s0]\n\t mov %[z], %[s1]\n\t and %[p1], %[s1]\n\t"                                \
    "mov %[z], %[s2]\n\t and %[p2], %[s2]\n\t"                                                                         \
    "add %[s0], %[t0]\n\t adc %[s1], %[t1]\n\t adc %[s2], %[t2]\n\t sbb %[s0], %[s0]\n\t"                              \
    "mov %[z], %[s1]\n\t and %[p3], %[s1]\n\t mov %[z], %[s2]\n\t and %[p4], %[s2]\n\t and %[p5], %[z]\n\t"            \
    "neg %[s0]\n\t adc %[s1], %[t3]\n\t adc %[s2], %[t4]\n\t adc %[z], %[t5]\n\t"                                      \
    CUZK_FF_STORE_(t, 0, 0) CUZK_FF_STORE_(t, 1, 8) CUZK_FF_STORE_(t, 2, 16) CUZK_FF_STORE_(t, 3, 24)                 \
    CUZK_FF_STORE_(t, 4, 32) CUZK_FF_STORE_(t, 5, 40)                                                                 \
    : "=m"(*r), [t0] "+r"(t0), [t1] "+r"(t1), [t2] "+r"(t2), [t3] "+r"(t3), [t4] "+r"(t4), [t5] "+r"(t5),            \
      [z] "=&r"(z), [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2)                                                    \
    : [r] "r"(r), [b] "r"(b), "m"(*b), [p0] "m"(cuzk_ff_inline_p[0]), [p1] "m"(cuzk_ff_inline_p[1]),                  \
      [p2] "m"(cuzk_ff_inline_p[2]), [p3] "m"(cuzk_ff_inline_p[3]), [p4] "m"(cuzk_ff_inline_p[4]),                    \
      [p5] "m"(cuzk_ff_inline_p[5])                                                                                    \
    : "cc"

static inline void cuzk_fp_add(cuzk_fp_t *r, const cuzk_fp_t *a, const cuzk_fp_t *b)
{
    uint64_t t0 = a->l[0], t1 = a->l[1], t2 = a->l[2], t3 = a->l[3], t4 = a->l[4], t5 = a->l[5], z, s0, s1, s2;
    __asm__("add 0(%[b]), %[t0]\n\t adc 8(%[b]), %[t1]\n\t adc 16(%[b]), %[t2]\n\t"
            "adc 24(%[b]), %[t3]\n\t adc 32(%[b]), %[t4]\n\t adc 40(%[b]), %[t5]\n\t"
            "sub %[p0], %[t0]\n\t sbb %[p1], %[t1]\n\t sbb %[p2], %[t2]\n\t"
            "sbb %[p3], %[t3]\n\t sbb %[p4], %[t4]\n\t sbb %[p5], %[t5]\n\t"
            CUZK_FP_ADDBACK_);
}

static inline void cuzk_fp_sub(cuzk_fp_t *r, const cuzk_fp_t *a, const cuzk_fp_t *b)
{
    uint64_t t0 = a->l[0], t1 = a->l[1], t2 = a->l[2], t3 = a->l[3], t4 = a->l[4], t5 = a->l[5], z, s0, s1, s2;
    __asm__("sub 0(%[b]), %[t0]\n\t sbb 8(%[b]), %[t1]\n\t sbb 16(%[b]), %[t2]\n\t"
            "sbb 24(%[b]), %[t3]\n\t sbb 32(%[b]), %[t4]\n\t sbb 40(%[b]), %[t5]\n\t"
            CUZK_FP_ADDBACK_);
}

static inline void cuzk_fp_dbl(cuzk_fp_t *r, const cuzk_fp_t *a) { cuzk_fp_add(r, a, a); }

/* Fp2 addition, subtraction and doubling: two of the above each, inline as well (the tower and G2 formulas do one
 * for every multiplication). */
static inline void cuzk_fp2_add(cuzk_fp2_t *r, const cuzk_fp2_t *a, const cuzk_fp2_t *b)
{
    cuzk_fp_add(&r->c0, &a->c0, &b->c0);
    cuzk_fp_add(&r->c1, &a->c1, &b->c1);
}

static inline void cuzk_fp2_sub(cuzk_fp2_t *r, const cuzk_fp2_t *a, const cuzk_fp2_t *b)
{
    cuzk_fp_sub(&r->c0, &a->c0, &b->c0);
    cuzk_fp_sub(&r->c1, &a->c1, &b->c1);
}

static inline void cuzk_fp2_dbl(cuzk_fp2_t *r, const cuzk_fp2_t *a)
{
    cuzk_fp_dbl(&r->c0, &a->c0);
    cuzk_fp_dbl(&r->c1, &a->c1);
}

/* r = a·(1 + u) = (a0 − a1) + (a0 + a1)u, the Fp6 non-residue */
static inline void cuzk_fp2_mul_by_nonresidue(cuzk_fp2_t *r, const cuzk_fp2_t *a)
{
    cuzk_fp_t t;
    cuzk_fp_sub(&t, &a->c0, &a->c1);
    cuzk_fp_add(&r->c1, &a->c0, &a->c1);
    r->c0 = t;
}

/* r = a + b without reduction (each half below 2p): only an operand of cuzk_fp2_mul, cuzk_fp2_sqr and
 * cuzk_fp2_sqr_sub3, which take such halves (cuzk/ff.h). */
static inline void cuzk_fp2_add_lazy(cuzk_fp2_t *r, const cuzk_fp2_t *a, const cuzk_fp2_t *b)
{
    for (int h = 0; h < 2; h++) {
        const cuzk_fp_t *x = h ? &a->c1 : &a->c0, *y = h ? &b->c1 : &b->c0;
        cuzk_fp_t *z = h ? &r->c1 : &r->c0;
        uint64_t t0 = x->l[0], t1 = x->l[1], t2 = x->l[2], t3 = x->l[3], t4 = x->l[4], t5 = x->l[5];
        __asm__("add 0(%[b]), %[t0]\n\t adc 8(%[b]), %[t1]\n\t adc 16(%[b]), %[t2]\n\t"
                "adc 24(%[b]), %[t3]\n\t adc 32(%[b]), %[t4]\n\t adc 40(%[b]), %[t5]\n\t"
                CUZK_FF_STORE_(t, 0, 0) CUZK_FF_STORE_(t, 1, 8) CUZK_FF_STORE_(t, 2, 16) CUZK_FF_STORE_(t, 3, 24)
                CUZK_FF_STORE_(t, 4, 32) CUZK_FF_STORE_(t, 5, 40)
                : "=m"(*z), [t0] "+r"(t0), [t1] "+r"(t1), [t2] "+r"(t2), [t3] "+r"(t3), [t4] "+r"(t4), [t5] "+r"(t5)
                : [r] "r"(z), [b] "r"(y), "m"(*y)
                : "cc");
    }
}

#undef CUZK_FF_STORE_
#undef CUZK_FP_ADDBACK_
#endif /* x86-64 */
/* clang-format on */

#ifdef __cplusplus
}
#endif

#endif
