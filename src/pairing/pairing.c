/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Pairings assembled from the Miller loop and the final exponentiation. */
#include "cuzk/pairing.h"

void cuzk_pairing(cuzk_fp12_t *r, const cuzk_g1_affine_t *p, const cuzk_g2_affine_t *q)
{
    cuzk_multi_pairing(r, p, q, 1);
}

void cuzk_multi_pairing(cuzk_fp12_t *r, const cuzk_g1_affine_t *p, const cuzk_g2_affine_t *q, size_t n)
{
    cuzk_fp12_t f;
    cuzk_miller_loop(&f, p, q, n);
    cuzk_final_exponentiation(r, &f);
}

bool cuzk_multi_pairing_is_one(const cuzk_g1_affine_t *p, const cuzk_g2_affine_t *q, size_t n)
{
    cuzk_fp12_t f;
    cuzk_multi_pairing(&f, p, q, n);
    return cuzk_fp12_is_one(&f);
}
