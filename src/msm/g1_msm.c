/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* MSM and batch addition over G1 (coordinates in Fp). */
#include "cuzk/msm.h"

#define G(name) cuzk_g1_##name
#define AFF cuzk_g1_affine_t
#define JAC cuzk_g1_jac_t
#define XYZZ cuzk_g1_xyzz_t
#define FE cuzk_fp_t
#define F(name) cuzk_fp_##name
#define F_INV_VARTIME cuzk_fp_inv_vartime
#define MSM_CHUNK 4096
#define MSM_BUCKET_COST 2.2

/* GLV: β is the cube root of unity of cuzk_g1_affine_in_subgroup, for which (βx, y) = [−z²]P on G1; so
 * ψ(P) = (βx, −y) = [z²]P (checked by test_msm). */
static const cuzk_fp_t MSM_G1_BETA = {{0x30f1361b798a64e8ULL, 0xf3b8ddab7ece5a2aULL, 0x16a8ca3ac61577f7ULL,
                                       0xc26a2ff874fd029bULL, 0x3636b76660701c6eULL, 0x051ba4ab241b6160ULL}};
static inline void cuzk_g1_msm_glv_phi(cuzk_g1_affine_t *r, const cuzk_g1_affine_t *p)
{
    cuzk_fp_mul(&r->x, &p->x, &MSM_G1_BETA);
    cuzk_fp_neg(&r->y, &p->y);
}
#define MSM_GLV_PHI cuzk_g1_msm_glv_phi
/* above 2^18 the gather over 2n points and the ψ(P_i) block outweigh the halved bucket work (docs/performance/msm.md) */
#define MSM_GLV_MAX_N ((size_t)1 << 18)
/* AVX-512 IFMA: the batched affine additions 8 at a time (ff_x8.h) */
#include "cuzk/ff_x8.h"
#ifdef CUZK_FPX8
#define MSM_X8 1
#endif
#include "msm_template.h"
