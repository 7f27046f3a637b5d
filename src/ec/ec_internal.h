/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Declarations shared inside the ec layer only. */
#ifndef CUZK_EC_INTERNAL_H
#define CUZK_EC_INTERNAL_H

#include <string.h>

#include "cuzk/ec.h"

typedef unsigned __int128 u128;

/* [|x|]P for the BLS parameter |x| = 0xd201000000010000 (x itself is negative) */
void cuzk_g1_jac_mul_by_x_abs(cuzk_g1_jac_t *r, const cuzk_g1_jac_t *p);
void cuzk_g2_jac_mul_by_x_abs(cuzk_g2_jac_t *r, const cuzk_g2_jac_t *p);
void cuzk_g1_affine_mul_by_x_abs(cuzk_g1_jac_t *r, const cuzk_g1_affine_t *p);
void cuzk_g2_affine_mul_by_x_abs(cuzk_g2_jac_t *r, const cuzk_g2_affine_t *p);

/* ψ, the untwist-Frobenius-twist endomorphism of G2 */
void cuzk_g2_affine_psi(cuzk_g2_affine_t *r, const cuzk_g2_affine_t *p);

/* The 64-bit word at p, little-endian (a plain load on little-endian hosts). */
static inline uint64_t ec_load_le64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

#endif
