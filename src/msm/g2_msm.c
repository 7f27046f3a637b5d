/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* MSM and batch addition over G2 (coordinates in Fp2). */
#include "cuzk/msm.h"

#define G(name) cuzk_g2_##name
#define AFF cuzk_g2_affine_t
#define JAC cuzk_g2_jac_t
#define XYZZ cuzk_g2_xyzz_t
#define FE cuzk_fp2_t
#define F(name) cuzk_fp2_##name
#define F_INV_VARTIME cuzk_fp2_inv_vartime
#define MSM_CHUNK 2048
#define MSM_BUCKET_COST 2.2

/* GLV: ψ² of the untwist-Frobenius-twist endomorphism, (β²x, −y) with β² the cube root of unity of G1's ψ squared, is
 * [z²]Q on G2 (checked by test_msm), so G2 takes the same split as G1. */
static const cuzk_fp_t MSM_G2_BETA2 = {{0xcd03c9e48671f071ULL, 0x5dab22461fcda5d2ULL, 0x587042afd3851b95ULL,
                                        0x8eb60ebe01bacb9eULL, 0x03f97d6e83d050d2ULL, 0x18f0206554638741ULL}};
static inline void cuzk_g2_msm_glv_phi(cuzk_g2_affine_t *r, const cuzk_g2_affine_t *p)
{
    cuzk_fp2_mul_fp(&r->x, &p->x, &MSM_G2_BETA2);
    cuzk_fp2_neg(&r->y, &p->y);
}
#define MSM_GLV_PHI cuzk_g2_msm_glv_phi
/* a G2 addition costs three G1 ones, so the doubled gather weighs less than in G1; 2^20 keeps ψ's block at 192 MB */
#define MSM_GLV_MAX_N ((size_t)1 << 20)
#include "msm_template.h"
