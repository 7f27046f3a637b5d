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

#include "cuzk/status.h"

#define FP_LIMBS 6
#define FR_LIMBS 4
#define FP_BYTES 48
#define FR_BYTES 32

typedef struct { uint64_t l[FP_LIMBS]; } fp_t;
typedef struct { uint64_t l[FR_LIMBS]; } fr_t;
typedef struct { fp_t c0, c1; } fp2_t;
typedef struct { fp2_t c0, c1, c2; } fp6_t;
typedef struct { fp6_t c0, c1; } fp12_t;

/* Moduli as plain little-endian limbs (not Montgomery form). */
extern const uint64_t FP_MODULUS[FP_LIMBS];
extern const uint64_t FR_MODULUS[FR_LIMBS];

/* fp_add, fp_sub, fp_dbl, fr_add, fr_sub, fr_dbl: inline definitions where the target has them (ff_inline.h),
 * declared below otherwise. Same names and semantics either way. */
#include "cuzk/ff_inline.h"

/* ---- Fp ---------------------------------------------------------------------------------------------------------- */
void fp_set_zero(fp_t *r);
void fp_set_one(fp_t *r);
void fp_from_u64(fp_t *r, uint64_t v);
bool fp_is_zero(const fp_t *a);
bool fp_is_one(const fp_t *a);
bool fp_eq(const fp_t *a, const fp_t *b);
#ifndef CUZK_FF_INLINE_ADDSUB
void fp_add(fp_t *r, const fp_t *a, const fp_t *b);
void fp_sub(fp_t *r, const fp_t *a, const fp_t *b);
void fp_dbl(fp_t *r, const fp_t *a);
#endif
void fp_neg(fp_t *r, const fp_t *a);
void fp_mul(fp_t *r, const fp_t *a, const fp_t *b);
void fp_sqr(fp_t *r, const fp_t *a);
/* a^e with e given as little-endian 64-bit limbs (plain integer, any length). Variable time in e. */
void fp_pow(fp_t *r, const fp_t *a, const uint64_t *e, size_t e_limbs);
/* Constant-time inverse (a^(p-2)); 0 maps to 0. */
void fp_inv(fp_t *r, const fp_t *a);
/* Fast variable-time inverse for public values; 0 maps to 0. */
void fp_inv_vartime(fp_t *r, const fp_t *a);
/* Square root: returns false (r untouched) when a is not a square. */
bool fp_sqrt(fp_t *r, const fp_t *a);
/* Legendre symbol: 1 for a non-zero square, -1 for a non-square, 0 for zero. */
int fp_legendre(const fp_t *a);
/* Constant-time select: r = flag ? b : a. */
void fp_cmov(fp_t *r, const fp_t *a, const fp_t *b, bool flag);
/* Canonical (non-Montgomery) integer as limbs, and back with range check. */
void fp_to_limbs(uint64_t out[FP_LIMBS], const fp_t *a);
cuzk_status fp_from_limbs(fp_t *r, const uint64_t in[FP_LIMBS]);
/* Raw Montgomery limbs (for formats that store x·R, like iden3): no conversion, range check only. */
cuzk_status fp_from_mont_limbs(fp_t *r, const uint64_t in[FP_LIMBS]);
/* Canonical 48-byte encodings; decoding rejects values >= p with CUZK_ERR_NOT_CANONICAL. */
void fp_to_bytes_be(uint8_t out[FP_BYTES], const fp_t *a);
void fp_to_bytes_le(uint8_t out[FP_BYTES], const fp_t *a);
cuzk_status fp_from_bytes_be(fp_t *r, const uint8_t in[FP_BYTES]);
cuzk_status fp_from_bytes_le(fp_t *r, const uint8_t in[FP_BYTES]);
/* True when a (as canonical integer) is > (p-1)/2: the "lexicographically largest" rule of the zcash encoding. */
bool fp_is_lexicographically_largest(const fp_t *a);
/* Montgomery's simultaneous inversion: out[i] = 1/in[i]; zeros map to zero. out may equal in.
 * scratch must hold n elements. One field inversion in all. */
void fp_batch_inv(fp_t *out, const fp_t *in, size_t n, fp_t *scratch);

/* ---- Fr ---------------------------------------------------------------------------------------------------------- */
void fr_set_zero(fr_t *r);
void fr_set_one(fr_t *r);
void fr_from_u64(fr_t *r, uint64_t v);
bool fr_is_zero(const fr_t *a);
bool fr_is_one(const fr_t *a);
bool fr_eq(const fr_t *a, const fr_t *b);
#ifndef CUZK_FF_INLINE_ADDSUB
void fr_add(fr_t *r, const fr_t *a, const fr_t *b);
void fr_sub(fr_t *r, const fr_t *a, const fr_t *b);
void fr_dbl(fr_t *r, const fr_t *a);
#endif
void fr_neg(fr_t *r, const fr_t *a);
void fr_mul(fr_t *r, const fr_t *a, const fr_t *b);
void fr_sqr(fr_t *r, const fr_t *a);
void fr_pow(fr_t *r, const fr_t *a, const uint64_t *e, size_t e_limbs);
void fr_inv(fr_t *r, const fr_t *a);
void fr_inv_vartime(fr_t *r, const fr_t *a);
bool fr_sqrt(fr_t *r, const fr_t *a);
int fr_legendre(const fr_t *a);
void fr_cmov(fr_t *r, const fr_t *a, const fr_t *b, bool flag);
void fr_to_limbs(uint64_t out[FR_LIMBS], const fr_t *a);
cuzk_status fr_from_limbs(fr_t *r, const uint64_t in[FR_LIMBS]);
cuzk_status fr_from_mont_limbs(fr_t *r, const uint64_t in[FR_LIMBS]);
/* Reduce any 256-bit integer modulo r (never fails). */
void fr_from_limbs_reduce(fr_t *r, const uint64_t in[FR_LIMBS]);
void fr_to_bytes_be(uint8_t out[FR_BYTES], const fr_t *a);
void fr_to_bytes_le(uint8_t out[FR_BYTES], const fr_t *a);
cuzk_status fr_from_bytes_be(fr_t *r, const uint8_t in[FR_BYTES]);
cuzk_status fr_from_bytes_le(fr_t *r, const uint8_t in[FR_BYTES]);
void fr_batch_inv(fr_t *out, const fr_t *in, size_t n, fr_t *scratch);

/* ---- Fr domains -------------------------------------------------------------------------------------------------- */
#define FR_TWO_ADICITY 32
typedef enum {
    FR_ROOTS_GEN7 = 7, /* bellperson, blst, arkworks: omega_{2^32} = 7^((r-1)/2^32), smaller orders by squaring */
    FR_ROOTS_GEN5 = 5, /* snarkjs / ffjavascript: omega_{2^k} = 5^((r-1)/2^k) */
} fr_roots;
/* Primitive 2^log2n-th root of unity in the chosen convention; CUZK_ERR_BAD_ROOT_ORDER when log2n > 32. */
cuzk_status fr_root_of_unity(fr_t *r, unsigned log2n, fr_roots conv);

/* ---- Fp2 --------------------------------------------------------------------------------------------------------- */
void fp2_set_zero(fp2_t *r);
void fp2_set_one(fp2_t *r);
bool fp2_is_zero(const fp2_t *a);
bool fp2_is_one(const fp2_t *a);
bool fp2_eq(const fp2_t *a, const fp2_t *b);
void fp2_add(fp2_t *r, const fp2_t *a, const fp2_t *b);
void fp2_sub(fp2_t *r, const fp2_t *a, const fp2_t *b);
void fp2_dbl(fp2_t *r, const fp2_t *a);
void fp2_neg(fp2_t *r, const fp2_t *a);
void fp2_conj(fp2_t *r, const fp2_t *a);
void fp2_mul(fp2_t *r, const fp2_t *a, const fp2_t *b);
void fp2_sqr(fp2_t *r, const fp2_t *a);
void fp2_mul_fp(fp2_t *r, const fp2_t *a, const fp_t *b);
/* r = a·(1 + u), the Fp6 non-residue. */
void fp2_mul_by_nonresidue(fp2_t *r, const fp2_t *a);
void fp2_inv(fp2_t *r, const fp2_t *a);
void fp2_inv_vartime(fp2_t *r, const fp2_t *a); /* for public values */
void fp2_pow(fp2_t *r, const fp2_t *a, const uint64_t *e, size_t e_limbs);
bool fp2_sqrt(fp2_t *r, const fp2_t *a);
/* Frobenius: a^p (conjugation). */
void fp2_frobenius(fp2_t *r, const fp2_t *a);
void fp2_cmov(fp2_t *r, const fp2_t *a, const fp2_t *b, bool flag);
/* zcash rule for Fp2: compare c1 first, c0 when c1 = 0. */
bool fp2_is_lexicographically_largest(const fp2_t *a);
void fp2_batch_inv(fp2_t *out, const fp2_t *in, size_t n, fp2_t *scratch);

/* ---- Fp6 and Fp12 (pairing targets) ------------------------------------------------------------------------------ */
void fp6_set_zero(fp6_t *r);
void fp6_set_one(fp6_t *r);
bool fp6_is_zero(const fp6_t *a);
bool fp6_eq(const fp6_t *a, const fp6_t *b);
void fp6_add(fp6_t *r, const fp6_t *a, const fp6_t *b);
void fp6_sub(fp6_t *r, const fp6_t *a, const fp6_t *b);
void fp6_neg(fp6_t *r, const fp6_t *a);
void fp6_mul(fp6_t *r, const fp6_t *a, const fp6_t *b);
void fp6_sqr(fp6_t *r, const fp6_t *a);
void fp6_mul_by_nonresidue(fp6_t *r, const fp6_t *a); /* r = a·v */
void fp6_inv(fp6_t *r, const fp6_t *a);
void fp6_frobenius(fp6_t *r, const fp6_t *a, unsigned power);
/* Sparse products for Miller-loop lines: r = a·(b0 + b1·v) and r = a·(b1·v). */
void fp6_mul_by_01(fp6_t *r, const fp6_t *a, const fp2_t *b0, const fp2_t *b1);
void fp6_mul_by_1(fp6_t *r, const fp6_t *a, const fp2_t *b1);

void fp12_set_zero(fp12_t *r);
void fp12_set_one(fp12_t *r);
bool fp12_is_one(const fp12_t *a);
bool fp12_eq(const fp12_t *a, const fp12_t *b);
void fp12_add(fp12_t *r, const fp12_t *a, const fp12_t *b);
void fp12_sub(fp12_t *r, const fp12_t *a, const fp12_t *b);
void fp12_mul(fp12_t *r, const fp12_t *a, const fp12_t *b);
void fp12_sqr(fp12_t *r, const fp12_t *a);
void fp12_inv(fp12_t *r, const fp12_t *a);
void fp12_conj(fp12_t *r, const fp12_t *a);
void fp12_frobenius(fp12_t *r, const fp12_t *a, unsigned power);
void fp12_pow(fp12_t *r, const fp12_t *a, const uint64_t *e, size_t e_limbs);
/* r = a·((l0 + l1·v) + (l4·v)·w): the sparse shape of a line on the M-type twist (coefficients 0, 1, 4 of
 * c0.c0, c0.c1, c0.c2, c1.c0, c1.c1, c1.c2). */
void fp12_mul_by_014(fp12_t *r, const fp12_t *a, const fp2_t *l0, const fp2_t *l1, const fp2_t *l4);
/* Squaring valid only for elements of the cyclotomic subgroup (a^(p^6+1) = 1, e.g. after the easy part of the
 * final exponentiation); 9 Fp2 squarings instead of 12 Fp2 multiplications. */
void fp12_cyclotomic_sqr(fp12_t *r, const fp12_t *a);

#endif
