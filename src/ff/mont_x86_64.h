/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Montgomery multiplication in x86-64 assembly (MULX with the two carry chains of ADCX/ADOX), for the two
 * BLS12-381 moduli. Assembled into every x86-64 build (the assembler needs no -madx); called only where
 * cuzk_cpu_path_current is CUZK_CPU_ADX or above, so a processor without BMI2 and ADX never runs it.
 *
 * Inputs must be fully reduced (< modulus); the output is fully reduced and may alias either input. */
#ifndef CUZK_FF_MONT_X86_64_H
#define CUZK_FF_MONT_X86_64_H

#include "cuzk/ff.h"

#if defined(__x86_64__) && defined(__ELF__) && defined(__GNUC__) &&                                                    \
    !defined(__clang__) /* clang runs out of registers on these */
#define CUZK_FF_ASM 1
#endif

#ifdef CUZK_FF_ASM
/* r = a·b·2^-384 mod p */
void cuzk_mont_p381_mul_mulx(uint64_t r[6], const uint64_t a[6], const uint64_t b[6]);
/* r = a·b as a plain 768-bit integer (a, b < 2^384); r must not overlap a or b */
void cuzk_mont_p381_mul_wide_mulx(uint64_t r[12], const uint64_t a[6], const uint64_t b[6]);
/* r = (a0 + a1·u)(b0 + b1·u) at double width: r0 = a0b0 − a1b1 mod p·2^384, r1 = a0b1 + a1b0 (src/ff/fp_wide.h);
 * each half of a and b below 2p; r must not overlap a or b */
void cuzk_mont_p381_fp2_mulw_mulx(void *r, const void *a, const void *b); /* uint64_t r[24], a[12], b[12] */
/* r = t·2^-384 mod p, fully reduced, for t < p·2^384; r may equal t */
void cuzk_mont_p381_redc_mulx(uint64_t r[6], const uint64_t t[12]);
/* Fp2 routines on uint64_t r[12] (or [24] at double width), a[12], b[12], fully reduced in and out:
 * both halves of a double-width value reduced (r may equal t); r = a·b (r may alias a or b); r = a² (r may equal a);
 * a² at double width, r0 = (a0 + a1)(a0 − a1), r1 = a0·2a1 (r must not overlap a). The squarings also take halves
 * of a below 2p (unreduced sums). */
void cuzk_mont_p381_fp2_redc_mulx(void *r, const void *t);
void cuzk_mont_p381_fp2_mul_mulx(void *r, const void *a, const void *b);
void cuzk_mont_p381_fp2_sqr_mulx(void *r, const void *a);
void cuzk_mont_p381_fp2_sqrw_mulx(void *r, const void *a);
/* r = a·b·2^-256 mod r (the group order) */
void cuzk_mont_r255_mul_mulx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
/* r = Σ a_i·b_i·2^-256 mod r over n ≥ 1 pairs (a, b: n consecutive 4-word elements, each < r), the products summed at
 * double width and reduced once; s ≥ 1 conditional subtractions with 2^s ≥ 1 + n/2, s ≤ 5. r may alias a or b. */
void cuzk_mont_r255_dot_mulx(uint64_t r[4], const uint64_t *a, const uint64_t *b, size_t n, unsigned s);
#endif

#endif
