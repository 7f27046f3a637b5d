/* Pairings assembled from the Miller loop and the final exponentiation. */
#include "cuzk/pairing.h"

void pairing(fp12_t *r, const g1_affine_t *p, const g2_affine_t *q) { multi_pairing(r, p, q, 1); }

void multi_pairing(fp12_t *r, const g1_affine_t *p, const g2_affine_t *q, size_t n)
{
    fp12_t f;
    miller_loop(&f, p, q, n);
    final_exponentiation(r, &f);
}

bool multi_pairing_is_one(const g1_affine_t *p, const g2_affine_t *q, size_t n)
{
    fp12_t f;
    multi_pairing(&f, p, q, n);
    return fp12_is_one(&f);
}
