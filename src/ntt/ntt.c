/* The public transforms, natural order in and out: a DIF kernel (natural in, bit-reversed out) followed by one
 * bit-reversal pass. Coset transforms scale the coefficients by powers of the shift. */
#include "ntt_internal.h"

void ntt_forward(fr_t *x, const ntt_domain *d, unsigned threads)
{
    ntt_dif(x, d, false, threads);
    ntt_bitrev(x, d->log2n, threads);
}

void ntt_inverse(fr_t *x, const ntt_domain *d, unsigned threads)
{
    ntt_dif(x, d, true, threads);
    ntt_bitrev(x, d->log2n, threads);
    ntt_scale_powers(&x, 1, d->n, &d->n_inv, NULL, threads);
}

/* p(g·ω^i) = Σ_j (p_j·g^j)·ω^(i·j) */
void ntt_coset_forward(fr_t *x, const ntt_domain *d, const fr_t *g, unsigned threads)
{
    fr_t one;
    fr_set_one(&one);
    ntt_scale_powers(&x, 1, d->n, &one, g, threads);
    ntt_forward(x, d, threads);
}

void ntt_coset_inverse(fr_t *x, const ntt_domain *d, const fr_t *g, unsigned threads)
{
    fr_t g_inv;
    fr_inv_vartime(&g_inv, g);
    ntt_dif(x, d, true, threads);
    ntt_bitrev(x, d->log2n, threads);
    ntt_scale_powers(&x, 1, d->n, &d->n_inv, &g_inv, threads);
}
