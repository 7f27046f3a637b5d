/* Montgomery multiplication in x86-64 assembly (MULX with the two carry chains of ADCX/ADOX), for the two
 * BLS12-381 moduli. Compiled in when the target has BMI2 and ADX; otherwise the portable C of mont.h is used.
 *
 * Inputs must be fully reduced (< modulus); the output is fully reduced and may alias either input. */
#ifndef CUZK_FF_MONT_X86_64_H
#define CUZK_FF_MONT_X86_64_H

#include "cuzk/ff.h" /* CUZK_FF_ASM: the target test lives with the inline additions (cuzk/ff_inline.h) */

#ifdef CUZK_FF_ASM
/* r = a·b·2^-384 mod p */
void cuzk_mont_p381_mul_mulx(uint64_t r[6], const uint64_t a[6], const uint64_t b[6]);
/* r = a·b·2^-256 mod r (the group order) */
void cuzk_mont_r255_mul_mulx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
#endif

#endif
