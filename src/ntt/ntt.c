/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The public transforms, natural order in and out: a DIF kernel (natural in, bit-reversed out) followed by one
 * bit-reversal pass. Coset transforms scale the coefficients by powers of the shift. */
#include "ntt_internal.h"

void cuzk_ntt_forward(cuzk_fr_t *x, const cuzk_ntt_domain *d, unsigned threads)
{
    cuzk_ntt_dif(x, d, false, threads);
    cuzk_ntt_bitrev(x, d->log2n, threads);
}

void cuzk_ntt_inverse(cuzk_fr_t *x, const cuzk_ntt_domain *d, unsigned threads)
{
    cuzk_ntt_dif(x, d, true, threads);
    cuzk_ntt_bitrev(x, d->log2n, threads);
    cuzk_ntt_scale_powers(&x, 1, d->n, &d->n_inv, NULL, threads);
}

/* p(g·ω^i) = Σ_j (p_j·g^j)·ω^(i·j) */
void cuzk_ntt_coset_forward(cuzk_fr_t *x, const cuzk_ntt_domain *d, const cuzk_fr_t *g, unsigned threads)
{
    cuzk_fr_t one;
    cuzk_fr_set_one(&one);
    cuzk_ntt_scale_powers(&x, 1, d->n, &one, g, threads);
    cuzk_ntt_forward(x, d, threads);
}

void cuzk_ntt_coset_inverse(cuzk_fr_t *x, const cuzk_ntt_domain *d, const cuzk_fr_t *g, unsigned threads)
{
    cuzk_fr_t g_inv;
    cuzk_fr_inv_vartime(&g_inv, g);
    cuzk_ntt_dif(x, d, true, threads);
    cuzk_ntt_bitrev(x, d->log2n, threads);
    cuzk_ntt_scale_powers(&x, 1, d->n, &d->n_inv, &g_inv, threads);
}
