/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The Groth16 verifier: one proof, or many proofs of one circuit folded into a single check.
 *
 * A proof (A, B, C) for public inputs x (x_0 = 1) is valid when
 *   e(A, B) = e(α1, β2) · e(acc, γ2) · e(C, δ2),   acc = Σ_i x_i·IC_i,
 * checked as e(A, B)·e(acc, −γ2)·e(C, −δ2) = e(α1, β2) with one multi-Miller loop and one final exponentiation.
 *
 * A batch of proofs j with random 128-bit weights z_j is checked as
 *   ∏_j e(z_j·A_j, B_j) · e(Σ_j z_j·acc_j, −γ2) · e(Σ_j z_j·C_j, −δ2) · e(−(Σ_j z_j)·α1, β2) = 1,
 * the weighted product of the single equations. The weights keep one proof's error from being cancelled by
 * another's: a forger would have to guess them (probability 2^−128). e(α1, β2)^(Σz) is folded in as the pairing of
 * (Σz)·α1 with the prepared β2, which costs one more line evaluation per step instead of a 128-bit power in GT. */
#include <stdlib.h>
#include <string.h>

#include "g16_internal.h"

void cuzk_groth16_prepare_vk(cuzk_groth16_pvk *pvk, const cuzk_groth16_vk *vk)
{
    cuzk_g2_affine_t neg;
    cuzk_pairing(&pvk->alpha_beta, &vk->alpha_g1, &vk->beta_g2);
    cuzk_g2_affine_neg(&neg, &vk->gamma_g2);
    cuzk_g2_prepare_fixed(&pvk->neg_gamma, &neg); /* lines with l4 = 1: fewer products in every verification */
    cuzk_g2_affine_neg(&neg, &vk->delta_g2);
    cuzk_g2_prepare_fixed(&pvk->neg_delta, &neg);
    cuzk_g2_prepare_fixed(&pvk->beta, &vk->beta_g2);
    pvk->vk = vk;
}

/* scalars[0] = x0, scalars[1 + i] = inputs[i]: acc = Σ scalars_i·IC_i. */
static cuzk_status verify_input_acc(cuzk_g1_affine_t *acc, const cuzk_groth16_vk *vk, const cuzk_fr_t *scalars)
{
    cuzk_g1_jac_t j;
    cuzk_status s = cuzk_g1_msm(&j, vk->ic, scalars, vk->num_inputs, 1);
    if (s != CUZK_OK) return s;
    cuzk_g1_jac_to_affine(acc, &j);
    return CUZK_OK;
}

cuzk_status cuzk_groth16_verify(const cuzk_groth16_pvk *pvk, const cuzk_groth16_proof_t *proof, const cuzk_fr_t *inputs,
                                uint64_t num_inputs)
{
    if (pvk == NULL || pvk->vk == NULL || proof == NULL || (num_inputs > 0 && inputs == NULL))
        return CUZK_ERR_INVALID_ARG;
    const cuzk_groth16_vk *vk = pvk->vk;
    if (vk->num_inputs == 0 || num_inputs != vk->num_inputs - 1) return CUZK_ERR_MISMATCH;

    cuzk_fr_t *x = malloc(vk->num_inputs * sizeof *x);
    cuzk_g2_prepared_t *q = malloc(3 * sizeof *q);
    if (x == NULL || q == NULL) {
        free(x);
        free(q);
        return CUZK_ERR_NOMEM;
    }
    cuzk_fr_set_one(&x[0]);
    if (num_inputs) memcpy(&x[1], inputs, num_inputs * sizeof *x);
    cuzk_g1_affine_t p[3];
    cuzk_status s = verify_input_acc(&p[1], vk, x);
    free(x);
    if (s != CUZK_OK) {
        free(q);
        return s;
    }
    p[0] = proof->a;
    p[2] = proof->c;
    /* B changes with every proof; preparing it costs what evaluating its lines inline would */
    cuzk_g2_prepare(&q[0], &proof->b);
    q[1] = pvk->neg_gamma;
    q[2] = pvk->neg_delta;
    cuzk_fp12_t f, e;
    cuzk_miller_loop_prepared(&f, p, q, 3);
    free(q);
    cuzk_final_exponentiation(&e, &f);
    return cuzk_fp12_eq(&e, &pvk->alpha_beta) ? CUZK_OK : CUZK_ERR_PROOF_INVALID;
}

cuzk_status cuzk_groth16_verify_batch(const cuzk_groth16_pvk *pvk, const cuzk_groth16_proof_t *proofs,
                                      const cuzk_fr_t *inputs, uint64_t num_inputs, uint64_t count)
{
    if (pvk == NULL || pvk->vk == NULL || proofs == NULL || count == 0 || (num_inputs > 0 && inputs == NULL))
        return CUZK_ERR_INVALID_ARG;
    const cuzk_groth16_vk *vk = pvk->vk;
    if (vk->num_inputs == 0 || num_inputs != vk->num_inputs - 1) return CUZK_ERR_MISMATCH;
    if (count == 1) return cuzk_groth16_verify(pvk, proofs, inputs, num_inputs);
    if (count > ((uint64_t)1 << 24)) return CUZK_ERR_TOO_LARGE;

    size_t np = (size_t)count + 3;
    cuzk_fr_t *w = malloc(count * sizeof *w);         /* weights z_j */
    cuzk_fr_t *x = calloc(vk->num_inputs, sizeof *x); /* Σ_j z_j·x_j, input by input */
    cuzk_g1_affine_t *cs = malloc(count * sizeof *cs);
    cuzk_g1_affine_t *p = malloc(np * sizeof *p);
    cuzk_g2_prepared_t *q = malloc(np * sizeof *q);
    cuzk_status s = CUZK_OK;
    if (w == NULL || x == NULL || cs == NULL || p == NULL || q == NULL) {
        s = CUZK_ERR_NOMEM;
        goto done;
    }

    cuzk_fr_t wsum;
    cuzk_fr_set_zero(&wsum);
    for (uint64_t j = 0; j < count; j++) {
        uint64_t limbs[CUZK_FR_LIMBS] = {0, 0, 0, 0};
        do {
            if (cuzk_random_bytes(limbs, 16) != CUZK_OK) {
                s = CUZK_ERR_IO;
                goto done;
            }
        } while (limbs[0] == 0 && limbs[1] == 0);
        cuzk_fr_from_limbs(&w[j], limbs); /* < 2^128 < r: always canonical */
        cuzk_fr_add(&wsum, &wsum, &w[j]);
        const cuzk_fr_t *xj = &inputs[j * num_inputs];
        for (uint64_t i = 0; i < num_inputs; i++) {
            cuzk_fr_t t;
            cuzk_fr_mul(&t, &w[j], &xj[i]);
            cuzk_fr_add(&x[1 + i], &x[1 + i], &t);
        }
        cuzk_g1_jac_t a;
        cuzk_g1_jac_from_affine(&a, &proofs[j].a);
        cuzk_g1_jac_mul(&a, &a, limbs, 2);
        cuzk_g1_jac_to_affine(&p[j], &a);
        cuzk_g2_prepare(&q[j], &proofs[j].b);
        cs[j] = proofs[j].c;
    }
    x[0] = wsum;

    s = verify_input_acc(&p[count], vk, x);
    if (s != CUZK_OK) goto done;
    cuzk_g1_jac_t t;
    s = cuzk_g1_msm(&t, cs, w, count, 1);
    if (s != CUZK_OK) goto done;
    cuzk_g1_jac_to_affine(&p[count + 1], &t);
    uint64_t wl[CUZK_FR_LIMBS];
    cuzk_fr_to_limbs(wl, &wsum);
    cuzk_g1_jac_from_affine(&t, &vk->alpha_g1);
    cuzk_g1_jac_mul(&t, &t, wl, CUZK_FR_LIMBS);
    cuzk_g1_jac_neg(&t, &t);
    cuzk_g1_jac_to_affine(&p[count + 2], &t);
    q[count] = pvk->neg_gamma;
    q[count + 1] = pvk->neg_delta;
    q[count + 2] = pvk->beta;

    cuzk_fp12_t f, e;
    cuzk_miller_loop_prepared(&f, p, q, np);
    cuzk_final_exponentiation(&e, &f);
    s = cuzk_fp12_is_one(&e) ? CUZK_OK : CUZK_ERR_PROOF_INVALID;

done:
    free(w);
    free(x);
    free(cs);
    free(p);
    free(q);
    return s;
}
