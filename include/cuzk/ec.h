/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk ec: the BLS12-381 groups G1 (over Fp, y² = x³ + 4) and G2 (over Fp2, the twist y² = x³ + 4(1 + u)),
 * their coordinate systems, scalar multiplication, subgroup checks and byte encodings.
 *
 * Affine points carry no flag: the point at infinity is stored as x = y = 0 (not a curve point, since b ≠ 0), so
 * arrays of bases stay 96 / 192 bytes per point. Jacobian (X, Y, Z) means x = X/Z², y = Y/Z³, infinity when Z = 0.
 * XYZZ (X, Y, ZZ, ZZZ) means x = X/ZZ, y = Y/ZZZ with ZZ³ = ZZZ², infinity when ZZ = 0.
 * Arithmetic never allocates and allows outputs to alias inputs. */
#ifndef CUZK_EC_H
#define CUZK_EC_H

#include "cuzk/ff.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    cuzk_fp_t x, y;
} cuzk_g1_affine_t;
typedef struct {
    cuzk_fp_t x, y, z;
} cuzk_g1_jac_t;
typedef struct {
    cuzk_fp_t x, y, zz, zzz;
} cuzk_g1_xyzz_t;
typedef struct {
    cuzk_fp2_t x, y;
} cuzk_g2_affine_t;
typedef struct {
    cuzk_fp2_t x, y, z;
} cuzk_g2_jac_t;
typedef struct {
    cuzk_fp2_t x, y, zz, zzz;
} cuzk_g2_xyzz_t;

#define CUZK_G1_COMPRESSED_BYTES 48
#define CUZK_G1_UNCOMPRESSED_BYTES 96
#define CUZK_G2_COMPRESSED_BYTES 96
#define CUZK_G2_UNCOMPRESSED_BYTES 192
#define CUZK_G1_IDEN3_BYTES 96
#define CUZK_G2_IDEN3_BYTES 192

/* Decoding options (bit flags); 0 = strictest: infinity rejected, subgroup checked. */
#define CUZK_EC_DECODE_ALLOW_INFINITY 1u
#define CUZK_EC_DECODE_SKIP_SUBGROUP 2u /* for bulk loads of trusted keys; the curve check is never skipped */

/* ---- G1 ---------------------------------------------------------------------------------------------------------- */
void cuzk_g1_generator(cuzk_g1_affine_t *r);
void cuzk_g1_affine_set_infinity(cuzk_g1_affine_t *r);
bool cuzk_g1_affine_is_infinity(const cuzk_g1_affine_t *p);
bool cuzk_g1_affine_eq(const cuzk_g1_affine_t *a, const cuzk_g1_affine_t *b);
void cuzk_g1_affine_neg(cuzk_g1_affine_t *r, const cuzk_g1_affine_t *p);
bool cuzk_g1_affine_on_curve(const cuzk_g1_affine_t *p);          /* infinity counts as on the curve */
bool cuzk_g1_affine_in_subgroup(const cuzk_g1_affine_t *p);       /* fast endomorphism test; assumes on curve */
void cuzk_g1_curve_rhs(cuzk_fp_t *r, const cuzk_fp_t *x);         /* x³ + 4, the y² of the curve at x */
bool cuzk_g1_affine_in_subgroup_naive(const cuzk_g1_affine_t *p); /* [r]P = 0, the reference for the fast test */

void cuzk_g1_jac_set_infinity(cuzk_g1_jac_t *r);
bool cuzk_g1_jac_is_infinity(const cuzk_g1_jac_t *p);
bool cuzk_g1_jac_eq(const cuzk_g1_jac_t *a, const cuzk_g1_jac_t *b);
void cuzk_g1_jac_from_affine(cuzk_g1_jac_t *r, const cuzk_g1_affine_t *p);
void cuzk_g1_jac_to_affine(cuzk_g1_affine_t *r, const cuzk_g1_jac_t *p);
/* Normalizes n points with one (variable-time) field inversion and no scratch memory; out must not overlap in. */
void cuzk_g1_jac_batch_to_affine(cuzk_g1_affine_t *out, const cuzk_g1_jac_t *in, size_t n);
void cuzk_g1_jac_neg(cuzk_g1_jac_t *r, const cuzk_g1_jac_t *p);
void cuzk_g1_jac_dbl(cuzk_g1_jac_t *r, const cuzk_g1_jac_t *p);
void cuzk_g1_jac_add(cuzk_g1_jac_t *r, const cuzk_g1_jac_t *a,
                     const cuzk_g1_jac_t *b); /* complete: handles a = ±b, infinity */
void cuzk_g1_jac_add_affine(cuzk_g1_jac_t *r, const cuzk_g1_jac_t *a,
                            const cuzk_g1_affine_t *b); /* mixed; complete likewise */
/* [k]P for a public scalar given as canonical little-endian limbs (any value, need not be < r). */
void cuzk_g1_jac_mul(cuzk_g1_jac_t *r, const cuzk_g1_jac_t *p, const uint64_t *k, size_t k_limbs);
/* [k]P in constant time with respect to k (for secret scalars: r, s in the prover). P must lie in the order-r
 * subgroup: internally k is replaced by k + r or k + 2r. */
void cuzk_g1_jac_mul_ct(cuzk_g1_jac_t *r, const cuzk_g1_jac_t *p, const cuzk_fr_t *k);

void cuzk_g1_xyzz_set_infinity(cuzk_g1_xyzz_t *r);
bool cuzk_g1_xyzz_is_infinity(const cuzk_g1_xyzz_t *p);
void cuzk_g1_xyzz_from_affine(cuzk_g1_xyzz_t *r, const cuzk_g1_affine_t *p);
void cuzk_g1_xyzz_to_jac(cuzk_g1_jac_t *r, const cuzk_g1_xyzz_t *p);
void cuzk_g1_xyzz_dbl(cuzk_g1_xyzz_t *r, const cuzk_g1_xyzz_t *p);
void cuzk_g1_xyzz_add(cuzk_g1_xyzz_t *r, const cuzk_g1_xyzz_t *a, const cuzk_g1_xyzz_t *b);
void cuzk_g1_xyzz_add_affine(cuzk_g1_xyzz_t *r, const cuzk_g1_xyzz_t *a, const cuzk_g1_affine_t *b);

/* ---- G2 (same operations) ---------------------------------------------------------------------------------------- */
void cuzk_g2_generator(cuzk_g2_affine_t *r);
void cuzk_g2_affine_set_infinity(cuzk_g2_affine_t *r);
bool cuzk_g2_affine_is_infinity(const cuzk_g2_affine_t *p);
bool cuzk_g2_affine_eq(const cuzk_g2_affine_t *a, const cuzk_g2_affine_t *b);
void cuzk_g2_affine_neg(cuzk_g2_affine_t *r, const cuzk_g2_affine_t *p);
bool cuzk_g2_affine_on_curve(const cuzk_g2_affine_t *p);
bool cuzk_g2_affine_in_subgroup(const cuzk_g2_affine_t *p);
bool cuzk_g2_affine_in_subgroup_naive(const cuzk_g2_affine_t *p);
void cuzk_g2_curve_rhs(cuzk_fp2_t *r, const cuzk_fp2_t *x);

void cuzk_g2_jac_set_infinity(cuzk_g2_jac_t *r);
bool cuzk_g2_jac_is_infinity(const cuzk_g2_jac_t *p);
bool cuzk_g2_jac_eq(const cuzk_g2_jac_t *a, const cuzk_g2_jac_t *b);
void cuzk_g2_jac_from_affine(cuzk_g2_jac_t *r, const cuzk_g2_affine_t *p);
void cuzk_g2_jac_to_affine(cuzk_g2_affine_t *r, const cuzk_g2_jac_t *p);
void cuzk_g2_jac_batch_to_affine(cuzk_g2_affine_t *out, const cuzk_g2_jac_t *in, size_t n);
void cuzk_g2_jac_neg(cuzk_g2_jac_t *r, const cuzk_g2_jac_t *p);
void cuzk_g2_jac_dbl(cuzk_g2_jac_t *r, const cuzk_g2_jac_t *p);
void cuzk_g2_jac_add(cuzk_g2_jac_t *r, const cuzk_g2_jac_t *a, const cuzk_g2_jac_t *b);
void cuzk_g2_jac_add_affine(cuzk_g2_jac_t *r, const cuzk_g2_jac_t *a, const cuzk_g2_affine_t *b);
void cuzk_g2_jac_mul(cuzk_g2_jac_t *r, const cuzk_g2_jac_t *p, const uint64_t *k, size_t k_limbs);
void cuzk_g2_jac_mul_ct(cuzk_g2_jac_t *r, const cuzk_g2_jac_t *p, const cuzk_fr_t *k);

void cuzk_g2_xyzz_set_infinity(cuzk_g2_xyzz_t *r);
bool cuzk_g2_xyzz_is_infinity(const cuzk_g2_xyzz_t *p);
void cuzk_g2_xyzz_from_affine(cuzk_g2_xyzz_t *r, const cuzk_g2_affine_t *p);
void cuzk_g2_xyzz_to_jac(cuzk_g2_jac_t *r, const cuzk_g2_xyzz_t *p);
void cuzk_g2_xyzz_dbl(cuzk_g2_xyzz_t *r, const cuzk_g2_xyzz_t *p);
void cuzk_g2_xyzz_add(cuzk_g2_xyzz_t *r, const cuzk_g2_xyzz_t *a, const cuzk_g2_xyzz_t *b);
void cuzk_g2_xyzz_add_affine(cuzk_g2_xyzz_t *r, const cuzk_g2_xyzz_t *a, const cuzk_g2_affine_t *b);

/* ---- Encodings --------------------------------------------------------------------------------------------------- */
/* zcash / IETF: big-endian, Fp2 written c1 ‖ c0, flags in the top bits of byte 0:
 * 0x80 compressed, 0x40 infinity, 0x20 y is the lexicographically largest root (compressed only). */
void cuzk_g1_to_compressed(uint8_t out[CUZK_G1_COMPRESSED_BYTES], const cuzk_g1_affine_t *p);
void cuzk_g1_to_uncompressed(uint8_t out[CUZK_G1_UNCOMPRESSED_BYTES], const cuzk_g1_affine_t *p);
cuzk_status cuzk_g1_from_compressed(cuzk_g1_affine_t *r, const uint8_t *in, size_t len, unsigned flags);
cuzk_status cuzk_g1_from_uncompressed(cuzk_g1_affine_t *r, const uint8_t *in, size_t len, unsigned flags);
void cuzk_g2_to_compressed(uint8_t out[CUZK_G2_COMPRESSED_BYTES], const cuzk_g2_affine_t *p);
void cuzk_g2_to_uncompressed(uint8_t out[CUZK_G2_UNCOMPRESSED_BYTES], const cuzk_g2_affine_t *p);
cuzk_status cuzk_g2_from_compressed(cuzk_g2_affine_t *r, const uint8_t *in, size_t len, unsigned flags);
cuzk_status cuzk_g2_from_uncompressed(cuzk_g2_affine_t *r, const uint8_t *in, size_t len, unsigned flags);

/* iden3 / snarkjs binary: x ‖ y, each coordinate 48 bytes little-endian in Montgomery form (x·2^384 mod p),
 * G2 coordinates c0 ‖ c1; infinity is all-zero bytes. */
void cuzk_g1_to_iden3(uint8_t out[CUZK_G1_IDEN3_BYTES], const cuzk_g1_affine_t *p);
cuzk_status cuzk_g1_from_iden3(cuzk_g1_affine_t *r, const uint8_t *in, size_t len, unsigned flags);
void cuzk_g2_to_iden3(uint8_t out[CUZK_G2_IDEN3_BYTES], const cuzk_g2_affine_t *p);
cuzk_status cuzk_g2_from_iden3(cuzk_g2_affine_t *r, const uint8_t *in, size_t len, unsigned flags);

#ifdef __cplusplus
}
#endif

#endif
