/* cuzk pairing: the optimal ate pairing e: G1 × G2 → GT ⊂ Fp12* of BLS12-381.
 *
 * Miller loop over |x|, x = −0xd201000000010000 (the sign is applied by a conjugation at the end), lines on the
 * M-type twist in homogeneous coordinates, then the final exponentiation to the power 3·(p^12 − 1)/r (the
 * Hayashida–Hayasaka–Teruya chain), which is the value zcash, blst and noble return for e(P, Q).
 * A point at infinity (x = y = 0, see ec.h) in either argument contributes 1. Inputs are public: variable time. */
#ifndef CUZK_PAIRING_H
#define CUZK_PAIRING_H

#include "cuzk/ec.h"

/* Lines of one Miller loop: 63 doublings and 5 additions (the weight of |x| less its top bit). */
#define PAIRING_LINES 68

/* One line on the twist, before evaluation at P: l0 + (l1·xP)·v + (l4·yP)·v·w. */
typedef struct { fp2_t l0, l1, l4; } pairing_line_t;

/* A G2 point with its line coefficients precomputed (for a verifier's fixed β, γ, δ). ~19.6 KB, no pointers. */
typedef struct {
    pairing_line_t lines[PAIRING_LINES];
    bool infinity;
} g2_prepared_t;

void g2_prepare(g2_prepared_t *r, const g2_affine_t *q);

/* r = ∏ f_{|x|,Q_i}(P_i), conjugated for the sign of x, without final exponentiation; the n loops share one
 * chain of Fp12 squarings. n = 0 gives 1. */
void miller_loop(fp12_t *r, const g1_affine_t *p, const g2_affine_t *q, size_t n);
void miller_loop_prepared(fp12_t *r, const g1_affine_t *p, const g2_prepared_t *q, size_t n);

/* r = f^(3·(p^12 − 1)/r). */
void final_exponentiation(fp12_t *r, const fp12_t *f);

/* e(P, Q). */
void pairing(fp12_t *r, const g1_affine_t *p, const g2_affine_t *q);
/* ∏ e(P_i, Q_i) with one final exponentiation. */
void multi_pairing(fp12_t *r, const g1_affine_t *p, const g2_affine_t *q, size_t n);
/* ∏ e(P_i, Q_i) = 1: the check a verifier makes. */
bool multi_pairing_is_one(const g1_affine_t *p, const g2_affine_t *q, size_t n);

#endif
