/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* G1: y² = x³ + 4 over Fp. */
#include <string.h>

#include "ec_internal.h"

static const cuzk_fp_t G1_B = {{0xaa270000000cfff3ULL, 0x53cc0032fc34000aULL, 0x478fe97a6b0a807fULL,
                                0xb1d37ebee6ba24d7ULL, 0x8ec9733bbf78ab2fULL, 0x09d645513d83de7eULL}};

#define FE cuzk_fp_t
#define FE_(name) cuzk_fp_##name
#define FE_INV_VARTIME cuzk_fp_inv_vartime
#define G_(name) cuzk_g1_##name
#define AFF cuzk_g1_affine_t
#define JAC cuzk_g1_jac_t
#define XYZZ cuzk_g1_xyzz_t
#define CURVE_B (&G1_B)
#include "curve_template.h"

/* The standard generator (zcash, IETF), Montgomery form. */
void cuzk_g1_generator(cuzk_g1_affine_t *r)
{
    static const cuzk_g1_affine_t G = {
        {{0x5cb38790fd530c16ULL, 0x7817fc679976fff5ULL, 0x154f95c7143ba1c1ULL, 0xf0ae6acdf3d0e747ULL,
          0xedce6ecc21dbf440ULL, 0x120177419e0bfb75ULL}},
        {{0xbaac93d50ce72271ULL, 0x8c22631a7918fd8eULL, 0xdd595f13570725ceULL, 0x51ac582950405194ULL,
          0x0e1c8c3fad0059c0ULL, 0x0bbc3efc5008a26aULL}},
    };
    *r = G;
}

/* Scott 2021: P is in G1 iff φ(P) = −[x²]P, where φ(x, y) = (βx, y). Of the two non-trivial cube roots of unity,
 * β = 0x5f19672f...fefffe is the one whose φ acts on G1 as −x² (the other acts as the conjugate eigenvalue); the
 * tests check the choice against [r]P = 0. In Jacobian coordinates φ(X, Y, Z) = (βX, Y, Z). */
bool cuzk_g1_affine_in_subgroup(const cuzk_g1_affine_t *p)
{
    static const cuzk_fp_t BETA = {{0x30f1361b798a64e8ULL, 0xf3b8ddab7ece5a2aULL, 0x16a8ca3ac61577f7ULL,
                                    0xc26a2ff874fd029bULL, 0x3636b76660701c6eULL, 0x051ba4ab241b6160ULL}};
    if (cuzk_g1_affine_is_infinity(p)) return true;
    cuzk_g1_jac_t q, phi;
    cuzk_g1_affine_mul_by_x_abs(&q, p);
    cuzk_g1_jac_mul_by_x_abs(&q, &q);
    cuzk_g1_jac_from_affine(&phi, p);
    cuzk_g1_jac_neg(&q, &q);
    cuzk_fp_mul(&phi.x, &phi.x, &BETA);
    return cuzk_g1_jac_eq(&phi, &q);
}
