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

typedef struct { fp_t x, y; } g1_affine_t;
typedef struct { fp_t x, y, z; } g1_jac_t;
typedef struct { fp_t x, y, zz, zzz; } g1_xyzz_t;
typedef struct { fp2_t x, y; } g2_affine_t;
typedef struct { fp2_t x, y, z; } g2_jac_t;
typedef struct { fp2_t x, y, zz, zzz; } g2_xyzz_t;

#define G1_COMPRESSED_BYTES 48
#define G1_UNCOMPRESSED_BYTES 96
#define G2_COMPRESSED_BYTES 96
#define G2_UNCOMPRESSED_BYTES 192
#define G1_IDEN3_BYTES 96
#define G2_IDEN3_BYTES 192
#define GROTH16_PROOF_BYTES 192

/* Decoding options (bit flags); 0 = strictest: infinity rejected, subgroup checked. */
#define EC_DECODE_ALLOW_INFINITY 1u
#define EC_DECODE_SKIP_SUBGROUP 2u /* for bulk loads of trusted keys; the curve check is never skipped */

/* ---- G1 ---------------------------------------------------------------------------------------------------------- */
void g1_generator(g1_affine_t *r);
void g1_affine_set_infinity(g1_affine_t *r);
bool g1_affine_is_infinity(const g1_affine_t *p);
bool g1_affine_eq(const g1_affine_t *a, const g1_affine_t *b);
void g1_affine_neg(g1_affine_t *r, const g1_affine_t *p);
bool g1_affine_on_curve(const g1_affine_t *p);         /* infinity counts as on the curve */
bool g1_affine_in_subgroup(const g1_affine_t *p);      /* fast endomorphism test; assumes on curve */
void g1_curve_rhs(fp_t *r, const fp_t *x);             /* x³ + 4, the y² of the curve at x */
bool g1_affine_in_subgroup_naive(const g1_affine_t *p); /* [r]P = 0, the reference for the fast test */

void g1_jac_set_infinity(g1_jac_t *r);
bool g1_jac_is_infinity(const g1_jac_t *p);
bool g1_jac_eq(const g1_jac_t *a, const g1_jac_t *b);
void g1_jac_from_affine(g1_jac_t *r, const g1_affine_t *p);
void g1_jac_to_affine(g1_affine_t *r, const g1_jac_t *p);
/* Normalizes n points with one (variable-time) field inversion and no scratch memory; out must not overlap in. */
void g1_jac_batch_to_affine(g1_affine_t *out, const g1_jac_t *in, size_t n);
void g1_jac_neg(g1_jac_t *r, const g1_jac_t *p);
void g1_jac_dbl(g1_jac_t *r, const g1_jac_t *p);
void g1_jac_add(g1_jac_t *r, const g1_jac_t *a, const g1_jac_t *b);        /* complete: handles a = ±b, infinity */
void g1_jac_add_affine(g1_jac_t *r, const g1_jac_t *a, const g1_affine_t *b); /* mixed; complete likewise */
/* [k]P for a public scalar given as canonical little-endian limbs (any value, need not be < r). */
void g1_jac_mul(g1_jac_t *r, const g1_jac_t *p, const uint64_t *k, size_t k_limbs);
/* [k]P in constant time with respect to k (for secret scalars: r, s in the prover). P must lie in the order-r
 * subgroup: internally k is replaced by k + r or k + 2r. */
void g1_jac_mul_ct(g1_jac_t *r, const g1_jac_t *p, const fr_t *k);

void g1_xyzz_set_infinity(g1_xyzz_t *r);
bool g1_xyzz_is_infinity(const g1_xyzz_t *p);
void g1_xyzz_from_affine(g1_xyzz_t *r, const g1_affine_t *p);
void g1_xyzz_to_jac(g1_jac_t *r, const g1_xyzz_t *p);
void g1_xyzz_dbl(g1_xyzz_t *r, const g1_xyzz_t *p);
void g1_xyzz_add(g1_xyzz_t *r, const g1_xyzz_t *a, const g1_xyzz_t *b);
void g1_xyzz_add_affine(g1_xyzz_t *r, const g1_xyzz_t *a, const g1_affine_t *b);

/* ---- G2 (same operations) ---------------------------------------------------------------------------------------- */
void g2_generator(g2_affine_t *r);
void g2_affine_set_infinity(g2_affine_t *r);
bool g2_affine_is_infinity(const g2_affine_t *p);
bool g2_affine_eq(const g2_affine_t *a, const g2_affine_t *b);
void g2_affine_neg(g2_affine_t *r, const g2_affine_t *p);
bool g2_affine_on_curve(const g2_affine_t *p);
bool g2_affine_in_subgroup(const g2_affine_t *p);
bool g2_affine_in_subgroup_naive(const g2_affine_t *p);
void g2_curve_rhs(fp2_t *r, const fp2_t *x);

void g2_jac_set_infinity(g2_jac_t *r);
bool g2_jac_is_infinity(const g2_jac_t *p);
bool g2_jac_eq(const g2_jac_t *a, const g2_jac_t *b);
void g2_jac_from_affine(g2_jac_t *r, const g2_affine_t *p);
void g2_jac_to_affine(g2_affine_t *r, const g2_jac_t *p);
void g2_jac_batch_to_affine(g2_affine_t *out, const g2_jac_t *in, size_t n);
void g2_jac_neg(g2_jac_t *r, const g2_jac_t *p);
void g2_jac_dbl(g2_jac_t *r, const g2_jac_t *p);
void g2_jac_add(g2_jac_t *r, const g2_jac_t *a, const g2_jac_t *b);
void g2_jac_add_affine(g2_jac_t *r, const g2_jac_t *a, const g2_affine_t *b);
void g2_jac_mul(g2_jac_t *r, const g2_jac_t *p, const uint64_t *k, size_t k_limbs);
void g2_jac_mul_ct(g2_jac_t *r, const g2_jac_t *p, const fr_t *k);

void g2_xyzz_set_infinity(g2_xyzz_t *r);
bool g2_xyzz_is_infinity(const g2_xyzz_t *p);
void g2_xyzz_from_affine(g2_xyzz_t *r, const g2_affine_t *p);
void g2_xyzz_to_jac(g2_jac_t *r, const g2_xyzz_t *p);
void g2_xyzz_dbl(g2_xyzz_t *r, const g2_xyzz_t *p);
void g2_xyzz_add(g2_xyzz_t *r, const g2_xyzz_t *a, const g2_xyzz_t *b);
void g2_xyzz_add_affine(g2_xyzz_t *r, const g2_xyzz_t *a, const g2_affine_t *b);

/* ---- Encodings --------------------------------------------------------------------------------------------------- */
/* zcash / IETF: big-endian, Fp2 written c1 ‖ c0, flags in the top bits of byte 0:
 * 0x80 compressed, 0x40 infinity, 0x20 y is the lexicographically largest root (compressed only). */
void g1_to_compressed(uint8_t out[G1_COMPRESSED_BYTES], const g1_affine_t *p);
void g1_to_uncompressed(uint8_t out[G1_UNCOMPRESSED_BYTES], const g1_affine_t *p);
cuzk_status g1_from_compressed(g1_affine_t *r, const uint8_t *in, size_t len, unsigned flags);
cuzk_status g1_from_uncompressed(g1_affine_t *r, const uint8_t *in, size_t len, unsigned flags);
void g2_to_compressed(uint8_t out[G2_COMPRESSED_BYTES], const g2_affine_t *p);
void g2_to_uncompressed(uint8_t out[G2_UNCOMPRESSED_BYTES], const g2_affine_t *p);
cuzk_status g2_from_compressed(g2_affine_t *r, const uint8_t *in, size_t len, unsigned flags);
cuzk_status g2_from_uncompressed(g2_affine_t *r, const uint8_t *in, size_t len, unsigned flags);

/* iden3 / snarkjs binary: x ‖ y, each coordinate 48 bytes little-endian in Montgomery form (x·2^384 mod p),
 * G2 coordinates c0 ‖ c1; infinity is all-zero bytes. */
void g1_to_iden3(uint8_t out[G1_IDEN3_BYTES], const g1_affine_t *p);
cuzk_status g1_from_iden3(g1_affine_t *r, const uint8_t *in, size_t len, unsigned flags);
void g2_to_iden3(uint8_t out[G2_IDEN3_BYTES], const g2_affine_t *p);
cuzk_status g2_from_iden3(g2_affine_t *r, const uint8_t *in, size_t len, unsigned flags);

/* A Groth16 proof in bellperson's encoding: A (G1, 48) ‖ B (G2, 96) ‖ C (G1, 48), all compressed.
 * Decoding rejects infinity nowhere (a proof point may legitimately be infinity) but checks curve and subgroup. */
typedef struct { g1_affine_t a; g2_affine_t b; g1_affine_t c; } groth16_proof_t;
void groth16_proof_to_bytes(uint8_t out[GROTH16_PROOF_BYTES], const groth16_proof_t *p);
cuzk_status groth16_proof_from_bytes(groth16_proof_t *r, const uint8_t *in, size_t len);

#endif
