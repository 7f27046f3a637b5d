/* MSM and batch addition over G2 (coordinates in Fp2). */
#include "cuzk/msm.h"

/* 1/(a0 + a1 u) = (a0 − a1 u)/(a0² + a1²), with the fast variable-time Fp inverse: MSM inputs are public. */
static void g2_msm_fp2_inv_vartime(fp2_t *r, const fp2_t *a)
{
    fp_t n, t;
    fp_sqr(&n, &a->c0);
    fp_sqr(&t, &a->c1);
    fp_add(&n, &n, &t);
    fp_inv_vartime(&n, &n);
    fp_mul(&r->c0, &a->c0, &n);
    fp_neg(&t, &a->c1);
    fp_mul(&r->c1, &t, &n);
}

#define G(name) g2_##name
#define AFF g2_affine_t
#define JAC g2_jac_t
#define XYZZ g2_xyzz_t
#define FE fp2_t
#define F(name) fp2_##name
#define F_INV_VARTIME g2_msm_fp2_inv_vartime
#define MSM_CHUNK 2048
#define MSM_BUCKET_COST 2.2
#include "msm_template.h"
