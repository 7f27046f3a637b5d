/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* G2: the sextic M-twist y² = x³ + 4(1 + u) over Fp2. */
#include <string.h>

#include "ec_internal.h"

static const cuzk_fp2_t G2_B = {
    {{0xaa270000000cfff3ULL, 0x53cc0032fc34000aULL, 0x478fe97a6b0a807fULL, 0xb1d37ebee6ba24d7ULL, 0x8ec9733bbf78ab2fULL,
      0x09d645513d83de7eULL}},
    {{0xaa270000000cfff3ULL, 0x53cc0032fc34000aULL, 0x478fe97a6b0a807fULL, 0xb1d37ebee6ba24d7ULL, 0x8ec9733bbf78ab2fULL,
      0x09d645513d83de7eULL}},
};

#define FE cuzk_fp2_t
#define FE_(name) cuzk_fp2_##name
#define FE_INV_VARTIME cuzk_fp2_inv_vartime
#define G_(name) cuzk_g2_##name
#define AFF cuzk_g2_affine_t
#define JAC cuzk_g2_jac_t
#define XYZZ cuzk_g2_xyzz_t
#define CURVE_B (&G2_B)
#include "curve_template.h"

/* The standard generator (zcash, IETF), Montgomery form. */
void cuzk_g2_generator(cuzk_g2_affine_t *r)
{
    static const cuzk_g2_affine_t G = {
        {{{0xf5f28fa202940a10ULL, 0xb3f5fb2687b4961aULL, 0xa1a893b53e2ae580ULL, 0x9894999d1a3caee9ULL,
           0x6f67b7631863366bULL, 0x058191924350bcd7ULL}},
         {{0xa5a9c0759e23f606ULL, 0xaaa0c59dbccd60c3ULL, 0x3bb17e18e2867806ULL, 0x1b1ab6cc8541b367ULL,
           0xc2b6ed0ef2158547ULL, 0x11922a097360edf3ULL}}},
        {{{0x4c730af860494c4aULL, 0x597cfa1f5e369c5aULL, 0xe7e6856caa0a635aULL, 0xbbefb5e96e0d495fULL,
           0x07d3a975f0ef25a2ULL, 0x0083fd8e7e80dae5ULL}},
         {{0xadc0fc92df64b05dULL, 0x18aa270a2b1461dcULL, 0x86adac6a3be4eba0ULL, 0x79495c4ec93da33aULL,
           0xe7175850a43ccaedULL, 0x0b2bc2a163de1bf2ULL}}},
    };
    *r = G;
}

/* ψ = untwist ∘ Frobenius ∘ twist: ψ(x, y) = (cx·x̄, cy·ȳ) with cx = 1/(1+u)^((p−1)/3) and cy = 1/(1+u)^((p−1)/2).
 * cx has c0 = 0, so cx·x̄ costs two Fp multiplications. */
void cuzk_g2_affine_psi(cuzk_g2_affine_t *r, const cuzk_g2_affine_t *p)
{
    static const cuzk_fp_t CX1 = {{0x890dc9e4867545c3ULL, 0x2af322533285a5d5ULL, 0x50880866309b7e2cULL,
                                   0xa20d1b8c7e881024ULL, 0x14e4f04fe2db9068ULL, 0x14e56d3f1564853aULL}};
    static const cuzk_fp2_t CY = {
        {{0x3e2f585da55c9ad1ULL, 0x4294213d86c18183ULL, 0x382844c88b623732ULL, 0x92ad2afd19103e18ULL,
          0x1d794e4fac7cf0b9ULL, 0x0bd592fc7d825ec8ULL}},
        {{0x7bcfa7a25aa30fdaULL, 0xdc17dec12a927e7cULL, 0x2f088dd86b4ebef1ULL, 0xd1ca2087da74d4a7ULL,
          0x2da2596696cebc1dULL, 0x0e2b7eedbbfd87d2ULL}},
    };
    /* (cx1·u)(x0 − x1 u) = cx1·x1 + cx1·x0·u */
    cuzk_fp_t t0, t1;
    cuzk_fp_mul(&t0, &CX1, &p->x.c1);
    cuzk_fp_mul(&t1, &CX1, &p->x.c0);
    r->x.c0 = t0;
    r->x.c1 = t1;
    cuzk_fp2_t yc;
    cuzk_fp2_conj(&yc, &p->y);
    cuzk_fp2_mul(&r->y, &CY, &yc);
}

/* Scott 2021: P is in G2 iff ψ(P) = [x]P with x = −0xd201000000010000 the (negative) BLS parameter, i.e.
 * ψ(P) = −[|x|]P. */
bool cuzk_g2_affine_in_subgroup(const cuzk_g2_affine_t *p)
{
    if (cuzk_g2_affine_is_infinity(p)) return true;
    cuzk_g2_affine_t psi;
    cuzk_g2_jac_t q, pj;
    cuzk_g2_affine_psi(&psi, p);
    cuzk_g2_affine_mul_by_x_abs(&q, p);
    cuzk_g2_jac_neg(&q, &q);
    cuzk_g2_jac_from_affine(&pj, &psi);
    return cuzk_g2_jac_eq(&pj, &q);
}
