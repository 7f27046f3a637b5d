/* Inline Fp and Fr addition, subtraction and doubling (included by ff.h; not a header of its own).
 *
 * Hot loops elsewhere (NTT butterflies, SpMV rows, curve formulas) do an addition for every multiplication; as
 * out-of-line calls these cost as much as an Fr multiplication. On x86-64 with BMI2 and ADX (the same targets that
 * get the assembly multiplication) fp_add, fp_sub, fp_dbl, fr_add, fr_sub and fr_dbl are therefore defined here as
 * static inline functions around a few lines of extended asm, so every caller inlines them; other targets declare
 * them as ordinary functions (the portable C of src/ff/mont.h).
 *
 * Both moduli leave the top bit free (m < 2^(64n−1)), so for inputs < m the sum a + b < 2m never carries out of n
 * words. Constant time: the reduction is selected with CMOV on the borrow, never branched on.
 *   add: t = a + b; d = t − m; the result is t where that borrowed, else d.
 *   sub: t = a − b; mask = −borrow (SBB of a register with itself, which also sets ZF = no borrow and OF = 0);
 *        then t += (borrow ? m : 0) limb by limb: CMOV picks m_i or 0 on ZF and ADOX carries on OF, so the
 *        flags the selection reads survive the carry chain. Two spare registers instead of n. */
#ifndef CUZK_FF_INLINE_H
#define CUZK_FF_INLINE_H

#if defined(__x86_64__) && defined(__ELF__) && defined(__BMI2__) && defined(__ADX__)
#define CUZK_FF_ASM 1
#endif

#ifdef CUZK_FF_ASM
#define CUZK_FF_INLINE_ADDSUB 1

/* One step of the conditional add-back of sub: s = ZF ? 0 : m_i; t_i += s with the carry in OF. */
#define CUZK_FF_ADDBACK_(i) "mov %[z], %[s]\n\t cmovnz %[m" #i "], %[s]\n\t adox %[s], %[t" #i "]\n\t"

static inline void fr_add(fr_t *r, const fr_t *a, const fr_t *b)
{
    uint64_t t0 = a->l[0], t1 = a->l[1], t2 = a->l[2], t3 = a->l[3], d0, d1, d2, d3;
    __asm__("add %[b0], %[t0]\n\t adc %[b1], %[t1]\n\t adc %[b2], %[t2]\n\t adc %[b3], %[t3]\n\t"
            "mov %[t0], %[d0]\n\t sub %[m0], %[d0]\n\t mov %[t1], %[d1]\n\t sbb %[m1], %[d1]\n\t"
            "mov %[t2], %[d2]\n\t sbb %[m2], %[d2]\n\t mov %[t3], %[d3]\n\t sbb %[m3], %[d3]\n\t"
            "cmovc %[t0], %[d0]\n\t cmovc %[t1], %[d1]\n\t cmovc %[t2], %[d2]\n\t cmovc %[t3], %[d3]"
            : [t0] "+r"(t0), [t1] "+r"(t1), [t2] "+r"(t2), [t3] "+r"(t3), [d0] "=&r"(d0), [d1] "=&r"(d1),
              [d2] "=&r"(d2), [d3] "=&r"(d3)
            : [b0] "m"(b->l[0]), [b1] "m"(b->l[1]), [b2] "m"(b->l[2]), [b3] "m"(b->l[3]), [m0] "m"(FR_MODULUS[0]),
              [m1] "m"(FR_MODULUS[1]), [m2] "m"(FR_MODULUS[2]), [m3] "m"(FR_MODULUS[3])
            : "cc");
    r->l[0] = d0;
    r->l[1] = d1;
    r->l[2] = d2;
    r->l[3] = d3;
}

static inline void fr_sub(fr_t *r, const fr_t *a, const fr_t *b)
{
    uint64_t t0 = a->l[0], t1 = a->l[1], t2 = a->l[2], t3 = a->l[3], z, s;
    __asm__("sub %[b0], %[t0]\n\t sbb %[b1], %[t1]\n\t sbb %[b2], %[t2]\n\t sbb %[b3], %[t3]\n\t"
            "sbb %[z], %[z]\n\t"
            CUZK_FF_ADDBACK_(0) CUZK_FF_ADDBACK_(1) CUZK_FF_ADDBACK_(2) CUZK_FF_ADDBACK_(3)
            : [t0] "+r"(t0), [t1] "+r"(t1), [t2] "+r"(t2), [t3] "+r"(t3), [z] "=&r"(z), [s] "=&r"(s)
            : [b0] "m"(b->l[0]), [b1] "m"(b->l[1]), [b2] "m"(b->l[2]), [b3] "m"(b->l[3]), [m0] "m"(FR_MODULUS[0]),
              [m1] "m"(FR_MODULUS[1]), [m2] "m"(FR_MODULUS[2]), [m3] "m"(FR_MODULUS[3])
            : "cc");
    r->l[0] = t0;
    r->l[1] = t1;
    r->l[2] = t2;
    r->l[3] = t3;
}

static inline void fr_dbl(fr_t *r, const fr_t *a) { fr_add(r, a, a); }

static inline void fp_add(fp_t *r, const fp_t *a, const fp_t *b)
{
    uint64_t t0 = a->l[0], t1 = a->l[1], t2 = a->l[2], t3 = a->l[3], t4 = a->l[4], t5 = a->l[5], z, s;
    __asm__("add %[b0], %[t0]\n\t adc %[b1], %[t1]\n\t adc %[b2], %[t2]\n\t"
            "adc %[b3], %[t3]\n\t adc %[b4], %[t4]\n\t adc %[b5], %[t5]\n\t"
            "sub %[m0], %[t0]\n\t sbb %[m1], %[t1]\n\t sbb %[m2], %[t2]\n\t"
            "sbb %[m3], %[t3]\n\t sbb %[m4], %[t4]\n\t sbb %[m5], %[t5]\n\t"
            "sbb %[z], %[z]\n\t"
            CUZK_FF_ADDBACK_(0) CUZK_FF_ADDBACK_(1) CUZK_FF_ADDBACK_(2) CUZK_FF_ADDBACK_(3) CUZK_FF_ADDBACK_(4)
            CUZK_FF_ADDBACK_(5)
            : [t0] "+r"(t0), [t1] "+r"(t1), [t2] "+r"(t2), [t3] "+r"(t3), [t4] "+r"(t4), [t5] "+r"(t5),
              [z] "=&r"(z), [s] "=&r"(s)
            : [b0] "m"(b->l[0]), [b1] "m"(b->l[1]), [b2] "m"(b->l[2]), [b3] "m"(b->l[3]), [b4] "m"(b->l[4]),
              [b5] "m"(b->l[5]), [m0] "m"(FP_MODULUS[0]), [m1] "m"(FP_MODULUS[1]), [m2] "m"(FP_MODULUS[2]),
              [m3] "m"(FP_MODULUS[3]), [m4] "m"(FP_MODULUS[4]), [m5] "m"(FP_MODULUS[5])
            : "cc");
    r->l[0] = t0;
    r->l[1] = t1;
    r->l[2] = t2;
    r->l[3] = t3;
    r->l[4] = t4;
    r->l[5] = t5;
}

static inline void fp_sub(fp_t *r, const fp_t *a, const fp_t *b)
{
    uint64_t t0 = a->l[0], t1 = a->l[1], t2 = a->l[2], t3 = a->l[3], t4 = a->l[4], t5 = a->l[5], z, s;
    __asm__("sub %[b0], %[t0]\n\t sbb %[b1], %[t1]\n\t sbb %[b2], %[t2]\n\t"
            "sbb %[b3], %[t3]\n\t sbb %[b4], %[t4]\n\t sbb %[b5], %[t5]\n\t"
            "sbb %[z], %[z]\n\t"
            CUZK_FF_ADDBACK_(0) CUZK_FF_ADDBACK_(1) CUZK_FF_ADDBACK_(2) CUZK_FF_ADDBACK_(3) CUZK_FF_ADDBACK_(4)
            CUZK_FF_ADDBACK_(5)
            : [t0] "+r"(t0), [t1] "+r"(t1), [t2] "+r"(t2), [t3] "+r"(t3), [t4] "+r"(t4), [t5] "+r"(t5),
              [z] "=&r"(z), [s] "=&r"(s)
            : [b0] "m"(b->l[0]), [b1] "m"(b->l[1]), [b2] "m"(b->l[2]), [b3] "m"(b->l[3]), [b4] "m"(b->l[4]),
              [b5] "m"(b->l[5]), [m0] "m"(FP_MODULUS[0]), [m1] "m"(FP_MODULUS[1]), [m2] "m"(FP_MODULUS[2]),
              [m3] "m"(FP_MODULUS[3]), [m4] "m"(FP_MODULUS[4]), [m5] "m"(FP_MODULUS[5])
            : "cc");
    r->l[0] = t0;
    r->l[1] = t1;
    r->l[2] = t2;
    r->l[3] = t3;
    r->l[4] = t4;
    r->l[5] = t5;
}

static inline void fp_dbl(fp_t *r, const fp_t *a) { fp_add(r, a, a); }

#undef CUZK_FF_ADDBACK_
#endif /* CUZK_FF_ASM */

#endif
