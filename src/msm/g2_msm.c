/* MSM and batch addition over G2 (coordinates in Fp2). */
#include "cuzk/msm.h"

#define G(name) g2_##name
#define AFF g2_affine_t
#define JAC g2_jac_t
#define XYZZ g2_xyzz_t
#define FE fp2_t
#define F(name) fp2_##name
#define F_INV_VARTIME fp2_inv_vartime
#define MSM_CHUNK 2048
#define MSM_BUCKET_COST 2.2
#include "msm_template.h"
