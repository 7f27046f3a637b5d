/* Inline Fp and Fr addition, subtraction and doubling (included by ff.h; not a header of its own).
 *
 * Hot loops elsewhere (NTT butterflies, SpMV rows, curve formulas) do an addition for every multiplication; as
 * out-of-line calls these cost as much as an Fr multiplication. On x86-64 with BMI2 and ADX (the same targets that
 * get the assembly multiplication) cuzk_fp_add, cuzk_fp_sub, cuzk_fp_dbl, cuzk_fr_add, cuzk_fr_sub and cuzk_fr_dbl are therefore defined here as
 * static inline functions around a few lines of extended asm, so every caller inlines them; other targets declare
 * them as ordinary functions (the portable C of src/ff/mont.h).
 *
 * Both moduli leave the top bit free (m < 2^(64n−1)), so for inputs < m the sum a + b < 2m never carries out of n
 * words. Constant time: the reduction is selected with CMOV on the borrow, never branched on. Two forms:
 *   select (cuzk_fr_add): t = a + b; d = t − m; the result is t where that borrowed, else d. Shortest latency, 2n
 *        registers.
 *   add-back (cuzk_fr_sub; cuzk_fp_add after t = a + b − p; cuzk_fp_sub): t = a − b; mask = −borrow (SBB of a register with itself,
 *        which also leaves ZF = no borrow and OF = 0); then t += (borrow ? m : 0) word by word: CMOV picks m_i or 0
 *        on ZF and ADOX carries on OF, which CMOV's flag does not share. n + 2 registers.
 * The asm stores the result itself: left to the compiler, the n scalar stores get packed into vector inserts. */
#ifndef CUZK_FF_INLINE_H
#define CUZK_FF_INLINE_H

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__x86_64__) && defined(__ELF__) && defined(__BMI2__) && defined(__ADX__)
#define CUZK_FF_ASM 1
#endif

#ifdef CUZK_FF_ASM
#define CUZK_FF_INLINE_ADDSUB 1

/* b, m and r are passed as pointers (one register each, also at -O0, where every per-word memory operand would
 * take a base register of its own); the whole-object memory operands tell the compiler what is read and written.
 * ADDBACK_(i, off): s = ZF ? 0 : m_i; t_i += s with the carry in OF. STORE_(i, off) writes t_i (or d_i). */
#define CUZK_FF_ADDBACK_(i, off) "mov %[z], %[s]\n\t cmovnz " #off "(%[m]), %[s]\n\t adox %[s], %[t" #i "]\n\t"
#define CUZK_FF_STORE_(x, i, off) "mov %[" #x #i "], " #off "(%[r])\n\t"

static inline void cuzk_fr_add(cuzk_fr_t *r, const cuzk_fr_t *a, const cuzk_fr_t *b)
{
    uint64_t t0 = a->l[0], t1 = a->l[1], t2 = a->l[2], t3 = a->l[3], d0, d1, d2, d3;
    __asm__("add 0(%[b]), %[t0]\n\t adc 8(%[b]), %[t1]\n\t adc 16(%[b]), %[t2]\n\t adc 24(%[b]), %[t3]\n\t"
            "mov %[t0], %[d0]\n\t sub 0(%[m]), %[d0]\n\t mov %[t1], %[d1]\n\t sbb 8(%[m]), %[d1]\n\t"
            "mov %[t2], %[d2]\n\t sbb 16(%[m]), %[d2]\n\t mov %[t3], %[d3]\n\t sbb 24(%[m]), %[d3]\n\t"
            "cmovc %[t0], %[d0]\n\t cmovc %[t1], %[d1]\n\t cmovc %[t2], %[d2]\n\t cmovc %[t3], %[d3]\n\t"
            CUZK_FF_STORE_(d, 0, 0) CUZK_FF_STORE_(d, 1, 8) CUZK_FF_STORE_(d, 2, 16) CUZK_FF_STORE_(d, 3, 24)
            : "=m"(*r), [t0] "+r"(t0), [t1] "+r"(t1), [t2] "+r"(t2), [t3] "+r"(t3), [d0] "=&r"(d0), [d1] "=&r"(d1),
              [d2] "=&r"(d2), [d3] "=&r"(d3)
            : [r] "r"(r), [b] "r"(b), [m] "r"(CUZK_FR_MODULUS), "m"(*b), "m"(*(const uint64_t(*)[CUZK_FR_LIMBS])CUZK_FR_MODULUS)
            : "cc");
}

static inline void cuzk_fr_sub(cuzk_fr_t *r, const cuzk_fr_t *a, const cuzk_fr_t *b)
{
    uint64_t t0 = a->l[0], t1 = a->l[1], t2 = a->l[2], t3 = a->l[3], z, s;
    __asm__("sub 0(%[b]), %[t0]\n\t sbb 8(%[b]), %[t1]\n\t sbb 16(%[b]), %[t2]\n\t sbb 24(%[b]), %[t3]\n\t"
            "sbb %[z], %[z]\n\t"
            CUZK_FF_ADDBACK_(0, 0) CUZK_FF_ADDBACK_(1, 8) CUZK_FF_ADDBACK_(2, 16) CUZK_FF_ADDBACK_(3, 24)
            CUZK_FF_STORE_(t, 0, 0) CUZK_FF_STORE_(t, 1, 8) CUZK_FF_STORE_(t, 2, 16) CUZK_FF_STORE_(t, 3, 24)
            : "=m"(*r), [t0] "+r"(t0), [t1] "+r"(t1), [t2] "+r"(t2), [t3] "+r"(t3), [z] "=&r"(z), [s] "=&r"(s)
            : [r] "r"(r), [b] "r"(b), [m] "r"(CUZK_FR_MODULUS), "m"(*b), "m"(*(const uint64_t(*)[CUZK_FR_LIMBS])CUZK_FR_MODULUS)
            : "cc");
}

static inline void cuzk_fr_dbl(cuzk_fr_t *r, const cuzk_fr_t *a) { cuzk_fr_add(r, a, a); }

/* Fp: the add-back form for both (fewer registers than the CMOV form, and 6 words each of t and d with three
 * pointers would not fit in the registers left at -O0). */
#define CUZK_FP_ASM_TAIL_                                                                                             \
    "sbb %[z], %[z]\n\t"                                                                                              \
    CUZK_FF_ADDBACK_(0, 0) CUZK_FF_ADDBACK_(1, 8) CUZK_FF_ADDBACK_(2, 16) CUZK_FF_ADDBACK_(3, 24)                    \
    CUZK_FF_ADDBACK_(4, 32) CUZK_FF_ADDBACK_(5, 40)                                                                 \
    CUZK_FF_STORE_(t, 0, 0) CUZK_FF_STORE_(t, 1, 8) CUZK_FF_STORE_(t, 2, 16) CUZK_FF_STORE_(t, 3, 24)             \
    CUZK_FF_STORE_(t, 4, 32) CUZK_FF_STORE_(t, 5, 40)                                                             \
    : "=m"(*r), [t0] "+r"(t0), [t1] "+r"(t1), [t2] "+r"(t2), [t3] "+r"(t3), [t4] "+r"(t4), [t5] "+r"(t5),        \
      [z] "=&r"(z), [s] "=&r"(s)                                                                                  \
    : [r] "r"(r), [b] "r"(b), [m] "r"(CUZK_FP_MODULUS), "m"(*b), "m"(*(const uint64_t(*)[CUZK_FP_LIMBS])CUZK_FP_MODULUS)         \
    : "cc"

static inline void cuzk_fp_add(cuzk_fp_t *r, const cuzk_fp_t *a, const cuzk_fp_t *b)
{
    uint64_t t0 = a->l[0], t1 = a->l[1], t2 = a->l[2], t3 = a->l[3], t4 = a->l[4], t5 = a->l[5], z, s;
    __asm__("add 0(%[b]), %[t0]\n\t adc 8(%[b]), %[t1]\n\t adc 16(%[b]), %[t2]\n\t"
            "adc 24(%[b]), %[t3]\n\t adc 32(%[b]), %[t4]\n\t adc 40(%[b]), %[t5]\n\t"
            "sub 0(%[m]), %[t0]\n\t sbb 8(%[m]), %[t1]\n\t sbb 16(%[m]), %[t2]\n\t"
            "sbb 24(%[m]), %[t3]\n\t sbb 32(%[m]), %[t4]\n\t sbb 40(%[m]), %[t5]\n\t"
            CUZK_FP_ASM_TAIL_);
}

static inline void cuzk_fp_sub(cuzk_fp_t *r, const cuzk_fp_t *a, const cuzk_fp_t *b)
{
    uint64_t t0 = a->l[0], t1 = a->l[1], t2 = a->l[2], t3 = a->l[3], t4 = a->l[4], t5 = a->l[5], z, s;
    __asm__("sub 0(%[b]), %[t0]\n\t sbb 8(%[b]), %[t1]\n\t sbb 16(%[b]), %[t2]\n\t"
            "sbb 24(%[b]), %[t3]\n\t sbb 32(%[b]), %[t4]\n\t sbb 40(%[b]), %[t5]\n\t"
            CUZK_FP_ASM_TAIL_);
}

static inline void cuzk_fp_dbl(cuzk_fp_t *r, const cuzk_fp_t *a) { cuzk_fp_add(r, a, a); }

#undef CUZK_FF_ADDBACK_
#undef CUZK_FF_STORE_
#undef CUZK_FP_ASM_TAIL_
#endif /* CUZK_FF_ASM */

#ifdef __cplusplus
}
#endif

#endif
