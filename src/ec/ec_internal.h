/* Declarations shared inside the ec layer only. */
#ifndef CUZK_EC_INTERNAL_H
#define CUZK_EC_INTERNAL_H

#include "cuzk/ec.h"

typedef unsigned __int128 u128;

/* [|x|]P for the BLS parameter |x| = 0xd201000000010000 (x itself is negative) */
void g1_jac_mul_by_x_abs(g1_jac_t *r, const g1_jac_t *p);
void g2_jac_mul_by_x_abs(g2_jac_t *r, const g2_jac_t *p);
void g1_affine_mul_by_x_abs(g1_jac_t *r, const g1_affine_t *p);
void g2_affine_mul_by_x_abs(g2_jac_t *r, const g2_affine_t *p);

/* ψ, the untwist-Frobenius-twist endomorphism of G2 */
void g2_affine_psi(g2_affine_t *r, const g2_affine_t *p);

#endif
