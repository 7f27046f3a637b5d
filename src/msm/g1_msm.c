/* MSM and batch addition over G1 (coordinates in Fp). */
#include "cuzk/msm.h"

#define G(name) g1_##name
#define AFF g1_affine_t
#define JAC g1_jac_t
#define XYZZ g1_xyzz_t
#define FE fp_t
#define F(name) fp_##name
#define F_INV_VARTIME fp_inv_vartime
#define MSM_CHUNK 4096
#define MSM_BUCKET_COST 2.2
#include "msm_template.h"
