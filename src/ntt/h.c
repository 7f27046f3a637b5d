/* The H polynomial of Groth16 in the bellperson and snarkjs conventions (see ntt.h for the mathematics).
 *
 * Order of elements between steps: a DIT kernel takes bit-reversed input and a DIF kernel gives bit-reversed
 * output, and a point-wise product does not care about order. So each input is bit-reversed once, interpolated by
 * DIT (natural coefficients, where the coset shift g^i is applied), evaluated on the coset by DIF (bit-reversed
 * evaluations), combined point-wise, and, for bellperson, interpolated back by DIT straight into natural order. */
#include "ntt_internal.h"

typedef struct {
    fr_t *h;
    const fr_t *a, *b, *c;
} combine_ctx;

/* h := a·b − c */
static void combine_range(void *arg, size_t lo, size_t hi)
{
    const combine_ctx *k = arg;
    for (size_t i = lo; i < hi; i++) {
        fr_t t;
        fr_mul(&t, &k->a[i], &k->b[i]);
        fr_sub(&k->h[i], &t, &k->c[i]);
    }
}

/* Natural-order evaluations of a, b, c on the domain -> bit-reversed evaluations on the coset of shift g. The three
 * coefficient vectors are scaled in one pass so that they share each power of g. */
static void to_coset(fr_t *const abc[3], const ntt_domain *d, const fr_t *g, unsigned threads)
{
    for (int v = 0; v < 3; v++) {
        ntt_bitrev(abc[v], d->log2n, threads);
        ntt_dit(abc[v], d, true, threads);
    }
    ntt_scale_powers(abc, 3, d->n, &d->n_inv, g, threads);
    for (int v = 0; v < 3; v++) ntt_dif(abc[v], d, false, threads);
}

void ntt_h_bellperson(fr_t *h, fr_t *a, fr_t *b, fr_t *c, const ntt_domain *d, unsigned threads)
{
    fr_t g, g_inv, z_inv, s;
    fr_from_u64(&g, 7);
    fr_inv_vartime(&g_inv, &g);
    uint64_t n = d->n;
    fr_pow(&z_inv, &g, &n, 1);
    fr_t one;
    fr_set_one(&one);
    fr_sub(&z_inv, &z_inv, &one);
    fr_inv_vartime(&z_inv, &z_inv);

    fr_t *const abc[3] = {a, b, c};
    to_coset(abc, d, &g, threads);
    combine_ctx k = {h, a, b, c};
    ntt_par_for(threads, d->n, 1 << 13, combine_range, &k);
    ntt_dit(h, d, true, threads);
    /* the division by Z, a constant on the coset, rides along with the 1/n of the interpolation */
    fr_mul(&s, &d->n_inv, &z_inv);
    ntt_scale_powers(&h, 1, d->n, &s, &g_inv, threads);
}

void ntt_h_snarkjs(fr_t *h, fr_t *a, fr_t *b, fr_t *c, const ntt_domain *d, unsigned threads)
{
    fr_t w2n;
    fr_root_of_unity(&w2n, d->log2n + 1, d->conv); /* log2n + 1 <= NTT_MAX_LOG2 + 1 < FR_TWO_ADICITY */
    fr_t *const abc[3] = {a, b, c};
    to_coset(abc, d, &w2n, threads);
    combine_ctx k = {h, a, b, c};
    ntt_par_for(threads, d->n, 1 << 13, combine_range, &k);
    ntt_bitrev(h, d->log2n, threads);
}
