/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk pairing: the optimal ate pairing e: G1 × G2 → GT ⊂ Fp12* of BLS12-381.
 *
 * Miller loop over |x|, x = −0xd201000000010000 (the sign is applied by a conjugation at the end), lines on the
 * M-type twist in homogeneous coordinates, then the final exponentiation to the power 3·(p^12 − 1)/r (the
 * Hayashida–Hayasaka–Teruya chain), which is the value zcash, blst and noble return for e(P, Q).
 * A point at infinity (x = y = 0, see ec.h) in either argument contributes 1. Inputs are public: variable time. */
#ifndef CUZK_PAIRING_H
#define CUZK_PAIRING_H

#include "cuzk/ec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Lines of one Miller loop: 63 doublings and 5 additions (the weight of |x| less its top bit). */
#define CUZK_PAIRING_LINES 68

/* One line on the twist, before evaluation at P: l0 + (l1·xP)·v + (l4·yP)·v·w. */
typedef struct {
    cuzk_fp2_t l0, l1, l4;
} cuzk_pairing_line_t;

/* A G2 point with its line coefficients precomputed (for a verifier's fixed β, γ, δ). ~19.6 KB, no pointers. */
typedef struct {
    cuzk_pairing_line_t lines[CUZK_PAIRING_LINES];
    bool infinity;
    bool normalized; /* every l4 = 1 (cuzk_g2_prepare_fixed) */
} cuzk_g2_prepared_t;

void cuzk_g2_prepare(cuzk_g2_prepared_t *r, const cuzk_g2_affine_t *q);
/* The same lines divided by their l4 (one batched inversion, about 50 µs): a Miller loop then evaluates them at P
 * scaled by 1/yP, with 1 at v·w, and multiplies by each in 10 Fp2 products instead of 13 (20 for two instead of 23).
 * For a point used in many Miller loops (a verifying key's); a point used once is cheaper with cuzk_g2_prepare. */
void cuzk_g2_prepare_fixed(cuzk_g2_prepared_t *r, const cuzk_g2_affine_t *q);

/* r = ∏ f_{|x|,Q_i}(P_i), conjugated for the sign of x, without final exponentiation; the n loops share one
 * chain of Fp12 squarings. n = 0 gives 1. */
void cuzk_miller_loop(cuzk_fp12_t *r, const cuzk_g1_affine_t *p, const cuzk_g2_affine_t *q, size_t n);
void cuzk_miller_loop_prepared(cuzk_fp12_t *r, const cuzk_g1_affine_t *p, const cuzk_g2_prepared_t *q, size_t n);

/* r = f^(3·(p^12 − 1)/r). */
void cuzk_final_exponentiation(cuzk_fp12_t *r, const cuzk_fp12_t *f);

/* e(P, Q). */
void cuzk_pairing(cuzk_fp12_t *r, const cuzk_g1_affine_t *p, const cuzk_g2_affine_t *q);
/* ∏ e(P_i, Q_i) with one final exponentiation. */
void cuzk_multi_pairing(cuzk_fp12_t *r, const cuzk_g1_affine_t *p, const cuzk_g2_affine_t *q, size_t n);
/* ∏ e(P_i, Q_i) = 1: the check a verifier makes. */
bool cuzk_multi_pairing_is_one(const cuzk_g1_affine_t *p, const cuzk_g2_affine_t *q, size_t n);

#ifdef __cplusplus
}
#endif

#endif
