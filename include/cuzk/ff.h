/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk ff: the BLS12-381 base field Fp, the scalar field Fr and the extension tower Fp2 -> Fp6 -> Fp12.
 *
 * Every element is held in Montgomery form (x·R mod m with R = 2^(64·limbs)), limbs little-endian. Arithmetic
 * functions take the output first, never allocate, and allow the output to alias any input.
 *
 * Tower (as zcash, blst and noble build it, so values compare component by component):
 *   Fp2  = Fp[u]  / (u² + 1)         element c0 + c1·u
 *   Fp6  = Fp2[v] / (v³ − (1 + u))   element c0 + c1·v + c2·v²
 *   Fp12 = Fp6[w] / (w² − v)         element c0 + c1·w
 */
#ifndef CUZK_FF_H
#define CUZK_FF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CUZK_FP_LIMBS 6
#define CUZK_FR_LIMBS 4
#define CUZK_FP_BYTES 48
#define CUZK_FR_BYTES 32

typedef struct {
    uint64_t l[CUZK_FP_LIMBS];
} cuzk_fp_t;
typedef struct {
    uint64_t l[CUZK_FR_LIMBS];
} cuzk_fr_t;
typedef struct {
    cuzk_fp_t c0, c1;
} cuzk_fp2_t;
typedef struct {
    cuzk_fp2_t c0, c1, c2;
} cuzk_fp6_t;
typedef struct {
    cuzk_fp6_t c0, c1;
} cuzk_fp12_t;

/* Moduli as plain little-endian limbs (not Montgomery form). */
extern const uint64_t CUZK_FP_MODULUS[CUZK_FP_LIMBS];
extern const uint64_t CUZK_FR_MODULUS[CUZK_FR_LIMBS];

/* cuzk_fp_add, cuzk_fp_sub, cuzk_fp_dbl, cuzk_fr_add, cuzk_fr_sub, cuzk_fr_dbl, cuzk_fp2_add, cuzk_fp2_sub,
 * cuzk_fp2_dbl, cuzk_fp2_mul_by_nonresidue: inline definitions where the target has them (ff_inline.h), declared below
 * otherwise. Same names and semantics either way. */
#include "cuzk/ff_inline.h"

/* ---- Fp ---------------------------------------------------------------------------------------------------------- */
void cuzk_fp_set_zero(cuzk_fp_t *r);
void cuzk_fp_set_one(cuzk_fp_t *r);
void cuzk_fp_from_u64(cuzk_fp_t *r, uint64_t v);
bool cuzk_fp_is_zero(const cuzk_fp_t *a);
bool cuzk_fp_is_one(const cuzk_fp_t *a);
bool cuzk_fp_eq(const cuzk_fp_t *a, const cuzk_fp_t *b);
#ifndef CUZK_FF_INLINE_ADDSUB
void cuzk_fp_add(cuzk_fp_t *r, const cuzk_fp_t *a, const cuzk_fp_t *b);
void cuzk_fp_sub(cuzk_fp_t *r, const cuzk_fp_t *a, const cuzk_fp_t *b);
void cuzk_fp_dbl(cuzk_fp_t *r, const cuzk_fp_t *a);
#endif
void cuzk_fp_neg(cuzk_fp_t *r, const cuzk_fp_t *a);
void cuzk_fp_mul(cuzk_fp_t *r, const cuzk_fp_t *a, const cuzk_fp_t *b);
void cuzk_fp_sqr(cuzk_fp_t *r, const cuzk_fp_t *a);
/* a^e with e given as little-endian 64-bit limbs (plain integer, any length). Variable time in e. */
void cuzk_fp_pow(cuzk_fp_t *r, const cuzk_fp_t *a, const uint64_t *e, size_t e_limbs);
/* Constant-time inverse (a^(p-2)); 0 maps to 0. */
void cuzk_fp_inv(cuzk_fp_t *r, const cuzk_fp_t *a);
/* Fast variable-time inverse for public values; 0 maps to 0. */
void cuzk_fp_inv_vartime(cuzk_fp_t *r, const cuzk_fp_t *a);
/* Square root: returns false (r untouched) when a is not a square. */
bool cuzk_fp_sqrt(cuzk_fp_t *r, const cuzk_fp_t *a);
/* Legendre symbol: 1 for a non-zero square, -1 for a non-square, 0 for zero. */
int cuzk_fp_legendre(const cuzk_fp_t *a);
/* Constant-time select: r = flag ? b : a. */
void cuzk_fp_cmov(cuzk_fp_t *r, const cuzk_fp_t *a, const cuzk_fp_t *b, bool flag);
/* Canonical (non-Montgomery) integer as limbs, and back with range check. */
void cuzk_fp_to_limbs(uint64_t out[CUZK_FP_LIMBS], const cuzk_fp_t *a);
cuzk_status cuzk_fp_from_limbs(cuzk_fp_t *r, const uint64_t in[CUZK_FP_LIMBS]);
/* Raw Montgomery limbs (for formats that store x·R, like iden3): no conversion, range check only. */
cuzk_status cuzk_fp_from_mont_limbs(cuzk_fp_t *r, const uint64_t in[CUZK_FP_LIMBS]);
/* Canonical 48-byte encodings; decoding rejects values >= p with CUZK_ERR_NOT_CANONICAL. */
void cuzk_fp_to_bytes_be(uint8_t out[CUZK_FP_BYTES], const cuzk_fp_t *a);
void cuzk_fp_to_bytes_le(uint8_t out[CUZK_FP_BYTES], const cuzk_fp_t *a);
cuzk_status cuzk_fp_from_bytes_be(cuzk_fp_t *r, const uint8_t in[CUZK_FP_BYTES]);
cuzk_status cuzk_fp_from_bytes_le(cuzk_fp_t *r, const uint8_t in[CUZK_FP_BYTES]);
/* True when a (as canonical integer) is > (p-1)/2: the "lexicographically largest" rule of the zcash encoding. */
bool cuzk_fp_is_lexicographically_largest(const cuzk_fp_t *a);
/* Montgomery's simultaneous inversion: out[i] = 1/in[i]; zeros map to zero. out may equal in.
 * scratch must hold n elements. One field inversion in all. */
void cuzk_fp_batch_inv(cuzk_fp_t *out, const cuzk_fp_t *in, size_t n, cuzk_fp_t *scratch);

/* ---- Fr ---------------------------------------------------------------------------------------------------------- */
void cuzk_fr_set_zero(cuzk_fr_t *r);
void cuzk_fr_set_one(cuzk_fr_t *r);
void cuzk_fr_from_u64(cuzk_fr_t *r, uint64_t v);
bool cuzk_fr_is_zero(const cuzk_fr_t *a);
bool cuzk_fr_is_one(const cuzk_fr_t *a);
bool cuzk_fr_eq(const cuzk_fr_t *a, const cuzk_fr_t *b);
#ifndef CUZK_FF_INLINE_ADDSUB
void cuzk_fr_add(cuzk_fr_t *r, const cuzk_fr_t *a, const cuzk_fr_t *b);
void cuzk_fr_sub(cuzk_fr_t *r, const cuzk_fr_t *a, const cuzk_fr_t *b);
void cuzk_fr_dbl(cuzk_fr_t *r, const cuzk_fr_t *a);
#endif
void cuzk_fr_neg(cuzk_fr_t *r, const cuzk_fr_t *a);
void cuzk_fr_mul(cuzk_fr_t *r, const cuzk_fr_t *a, const cuzk_fr_t *b);
void cuzk_fr_sqr(cuzk_fr_t *r, const cuzk_fr_t *a);
/* r = Σ a[i]·b[i] over i < n: the products summed at double width and reduced once, about half the work of n
 * multiplications (Poseidon's matrices). r may alias any input element. */
void cuzk_fr_dot(cuzk_fr_t *r, const cuzk_fr_t *a, const cuzk_fr_t *b, size_t n);
void cuzk_fr_pow(cuzk_fr_t *r, const cuzk_fr_t *a, const uint64_t *e, size_t e_limbs);
void cuzk_fr_inv(cuzk_fr_t *r, const cuzk_fr_t *a);
void cuzk_fr_inv_vartime(cuzk_fr_t *r, const cuzk_fr_t *a);
bool cuzk_fr_sqrt(cuzk_fr_t *r, const cuzk_fr_t *a);
int cuzk_fr_legendre(const cuzk_fr_t *a);
void cuzk_fr_cmov(cuzk_fr_t *r, const cuzk_fr_t *a, const cuzk_fr_t *b, bool flag);
void cuzk_fr_to_limbs(uint64_t out[CUZK_FR_LIMBS], const cuzk_fr_t *a);
cuzk_status cuzk_fr_from_limbs(cuzk_fr_t *r, const uint64_t in[CUZK_FR_LIMBS]);
/* A uniformly random element (rejection sampling over OS randomness, no modular bias); CUZK_ERR_IO when the OS
 * refuses randomness. */
cuzk_status cuzk_fr_random(cuzk_fr_t *r);
cuzk_status cuzk_fr_from_mont_limbs(cuzk_fr_t *r, const uint64_t in[CUZK_FR_LIMBS]);
/* Reduce any 256-bit integer modulo r (never fails). */
void cuzk_fr_from_limbs_reduce(cuzk_fr_t *r, const uint64_t in[CUZK_FR_LIMBS]);
void cuzk_fr_to_bytes_be(uint8_t out[CUZK_FR_BYTES], const cuzk_fr_t *a);
void cuzk_fr_to_bytes_le(uint8_t out[CUZK_FR_BYTES], const cuzk_fr_t *a);
cuzk_status cuzk_fr_from_bytes_be(cuzk_fr_t *r, const uint8_t in[CUZK_FR_BYTES]);
cuzk_status cuzk_fr_from_bytes_le(cuzk_fr_t *r, const uint8_t in[CUZK_FR_BYTES]);
void cuzk_fr_batch_inv(cuzk_fr_t *out, const cuzk_fr_t *in, size_t n, cuzk_fr_t *scratch);

/* ---- Fr domains -------------------------------------------------------------------------------------------------- */
#define CUZK_FR_TWO_ADICITY 32
typedef enum {
    CUZK_FR_ROOTS_GEN7 = 7, /* bellperson, blst, arkworks: omega_{2^32} = 7^((r-1)/2^32), smaller orders by squaring */
    CUZK_FR_ROOTS_GEN5 = 5, /* snarkjs / ffjavascript: omega_{2^k} = 5^((r-1)/2^k) */
} cuzk_fr_roots;
/* Primitive 2^log2n-th root of unity in the chosen convention; CUZK_ERR_BAD_ROOT_ORDER when log2n > 32. */
cuzk_status cuzk_fr_root_of_unity(cuzk_fr_t *r, unsigned log2n, cuzk_fr_roots conv);

/* ---- Fp2 --------------------------------------------------------------------------------------------------------- */
void cuzk_fp2_set_zero(cuzk_fp2_t *r);
void cuzk_fp2_set_one(cuzk_fp2_t *r);
bool cuzk_fp2_is_zero(const cuzk_fp2_t *a);
bool cuzk_fp2_is_one(const cuzk_fp2_t *a);
bool cuzk_fp2_eq(const cuzk_fp2_t *a, const cuzk_fp2_t *b);
#ifndef CUZK_FF_INLINE_ADDSUB
void cuzk_fp2_add(cuzk_fp2_t *r, const cuzk_fp2_t *a, const cuzk_fp2_t *b);
void cuzk_fp2_sub(cuzk_fp2_t *r, const cuzk_fp2_t *a, const cuzk_fp2_t *b);
void cuzk_fp2_dbl(cuzk_fp2_t *r, const cuzk_fp2_t *a);
#endif
void cuzk_fp2_neg(cuzk_fp2_t *r, const cuzk_fp2_t *a);
void cuzk_fp2_conj(cuzk_fp2_t *r, const cuzk_fp2_t *a);
/* The product and the square also take operands whose halves are below 2p (cuzk_fp2_add_lazy: a sum that goes straight
 * into a product needs no reduction); the result is fully reduced. */
void cuzk_fp2_mul(cuzk_fp2_t *r, const cuzk_fp2_t *a, const cuzk_fp2_t *b);
void cuzk_fp2_sqr(cuzk_fp2_t *r, const cuzk_fp2_t *a);
#ifndef CUZK_FF_INLINE_ADDSUB
void cuzk_fp2_add_lazy(cuzk_fp2_t *r, const cuzk_fp2_t *a, const cuzk_fp2_t *b); /* r = a + b unreduced, halves < 2p */
#endif
/* r = a² − 3b² with one reduction (the squares subtracted at double width); halves of a and b below 2p allowed. */
void cuzk_fp2_sqr_sub3(cuzk_fp2_t *r, const cuzk_fp2_t *a, const cuzk_fp2_t *b);
void cuzk_fp2_mul_fp(cuzk_fp2_t *r, const cuzk_fp2_t *a, const cuzk_fp_t *b);
/* r = a·(1 + u), the Fp6 non-residue (inline where the additions are). */
#ifndef CUZK_FF_INLINE_ADDSUB
void cuzk_fp2_mul_by_nonresidue(cuzk_fp2_t *r, const cuzk_fp2_t *a);
#endif
void cuzk_fp2_inv(cuzk_fp2_t *r, const cuzk_fp2_t *a);
void cuzk_fp2_inv_vartime(cuzk_fp2_t *r, const cuzk_fp2_t *a); /* for public values */
void cuzk_fp2_pow(cuzk_fp2_t *r, const cuzk_fp2_t *a, const uint64_t *e, size_t e_limbs);
bool cuzk_fp2_sqrt(cuzk_fp2_t *r, const cuzk_fp2_t *a);
/* Frobenius: a^p (conjugation). */
void cuzk_fp2_frobenius(cuzk_fp2_t *r, const cuzk_fp2_t *a);
void cuzk_fp2_cmov(cuzk_fp2_t *r, const cuzk_fp2_t *a, const cuzk_fp2_t *b, bool flag);
/* zcash rule for Fp2: compare c1 first, c0 when c1 = 0. */
bool cuzk_fp2_is_lexicographically_largest(const cuzk_fp2_t *a);
void cuzk_fp2_batch_inv(cuzk_fp2_t *out, const cuzk_fp2_t *in, size_t n, cuzk_fp2_t *scratch);

/* ---- Fp6 and Fp12 (pairing targets) ------------------------------------------------------------------------------ */
void cuzk_fp6_set_zero(cuzk_fp6_t *r);
void cuzk_fp6_set_one(cuzk_fp6_t *r);
bool cuzk_fp6_is_zero(const cuzk_fp6_t *a);
bool cuzk_fp6_eq(const cuzk_fp6_t *a, const cuzk_fp6_t *b);
void cuzk_fp6_add(cuzk_fp6_t *r, const cuzk_fp6_t *a, const cuzk_fp6_t *b);
void cuzk_fp6_sub(cuzk_fp6_t *r, const cuzk_fp6_t *a, const cuzk_fp6_t *b);
void cuzk_fp6_neg(cuzk_fp6_t *r, const cuzk_fp6_t *a);
void cuzk_fp6_mul(cuzk_fp6_t *r, const cuzk_fp6_t *a, const cuzk_fp6_t *b);
void cuzk_fp6_sqr(cuzk_fp6_t *r, const cuzk_fp6_t *a);
void cuzk_fp6_mul_by_nonresidue(cuzk_fp6_t *r, const cuzk_fp6_t *a); /* r = a·v */
void cuzk_fp6_inv(cuzk_fp6_t *r, const cuzk_fp6_t *a);
void cuzk_fp6_inv_vartime(cuzk_fp6_t *r, const cuzk_fp6_t *a); /* for public values */
void cuzk_fp6_frobenius(cuzk_fp6_t *r, const cuzk_fp6_t *a, unsigned power);
/* Sparse products for Miller-loop lines: r = a·(b0 + b1·v) and r = a·(b1·v). */
void cuzk_fp6_mul_by_01(cuzk_fp6_t *r, const cuzk_fp6_t *a, const cuzk_fp2_t *b0, const cuzk_fp2_t *b1);
void cuzk_fp6_mul_by_1(cuzk_fp6_t *r, const cuzk_fp6_t *a, const cuzk_fp2_t *b1);

void cuzk_fp12_set_zero(cuzk_fp12_t *r);
void cuzk_fp12_set_one(cuzk_fp12_t *r);
bool cuzk_fp12_is_one(const cuzk_fp12_t *a);
bool cuzk_fp12_eq(const cuzk_fp12_t *a, const cuzk_fp12_t *b);
void cuzk_fp12_add(cuzk_fp12_t *r, const cuzk_fp12_t *a, const cuzk_fp12_t *b);
void cuzk_fp12_sub(cuzk_fp12_t *r, const cuzk_fp12_t *a, const cuzk_fp12_t *b);
void cuzk_fp12_mul(cuzk_fp12_t *r, const cuzk_fp12_t *a, const cuzk_fp12_t *b);
void cuzk_fp12_sqr(cuzk_fp12_t *r, const cuzk_fp12_t *a);
void cuzk_fp12_inv(cuzk_fp12_t *r, const cuzk_fp12_t *a);
void cuzk_fp12_inv_vartime(cuzk_fp12_t *r, const cuzk_fp12_t *a); /* for public values */
void cuzk_fp12_conj(cuzk_fp12_t *r, const cuzk_fp12_t *a);
void cuzk_fp12_frobenius(cuzk_fp12_t *r, const cuzk_fp12_t *a, unsigned power);
void cuzk_fp12_pow(cuzk_fp12_t *r, const cuzk_fp12_t *a, const uint64_t *e, size_t e_limbs);
/* r = a·((l0 + l1·v) + (l4·v)·w): the sparse shape of a line on the M-type twist (coefficients 0, 1, 4 of
 * c0.c0, c0.c1, c0.c2, c1.c0, c1.c1, c1.c2). */
void cuzk_fp12_mul_by_014(cuzk_fp12_t *r, const cuzk_fp12_t *a, const cuzk_fp2_t *l0, const cuzk_fp2_t *l1,
                          const cuzk_fp2_t *l4);
/* r = a·l·m for two lines of that shape, l = {l0, l1, l4} and m likewise: the lines are multiplied together first, 23
 * Fp2 multiplications instead of 26 (the Miller loop of several pairs, or a doubling and an addition step). */
void cuzk_fp12_mul_by_014_014(cuzk_fp12_t *r, const cuzk_fp12_t *a, const cuzk_fp2_t l[3], const cuzk_fp2_t m[3]);
/* r = a·(l0 + l1·v + v·w), a line whose v·w coefficient is 1 (a fixed G2 point's lines scaled by their slope's
 * denominator and the line by 1/yP): 10 Fp2 products; and r = a·l·m for two such lines l = {l0, l1}, m = {m0, m1}:
 * 20. */
void cuzk_fp12_mul_by_01v(cuzk_fp12_t *r, const cuzk_fp12_t *a, const cuzk_fp2_t *l0, const cuzk_fp2_t *l1);
void cuzk_fp12_mul_by_01v_01v(cuzk_fp12_t *r, const cuzk_fp12_t *a, const cuzk_fp2_t l[2], const cuzk_fp2_t m[2]);
/* Squaring valid only for elements of the cyclotomic subgroup (of order p^4 − p^2 + 1, e.g. after the easy part of
 * the final exponentiation; a^(p^6+1) = 1 alone is not enough: −1 has it); 9 Fp2 squarings instead of 12 Fp2
 * multiplications. */
void cuzk_fp12_cyclotomic_sqr(cuzk_fp12_t *r, const cuzk_fp12_t *a);
/* r = a^e for a in the cyclotomic subgroup, e as little-endian 64-bit limbs: the squarings run on 4 of the 6 Fp2
 * coefficients (Karabina's compressed squaring, 6 Fp2 squarings each) and the powers at the set bits of e are
 * decompressed together with one inversion. Variable time in a and e (public values, e.g. the pairing's final
 * exponentiation). */
void cuzk_fp12_cyclotomic_pow_vartime(cuzk_fp12_t *r, const cuzk_fp12_t *a, const uint64_t *e, size_t e_limbs);

#ifdef __cplusplus
}
#endif

#endif
