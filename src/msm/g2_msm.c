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
#include "msm_template.h"
