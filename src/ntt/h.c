/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The H polynomial of Groth16 in the bellperson and snarkjs conventions (see ntt.h for the mathematics).
 *
 * Order of elements between steps: a DIT kernel takes bit-reversed input and a DIF kernel gives bit-reversed
 * output, and a point-wise product does not care about order. So each input is bit-reversed once, interpolated by
 * DIT (natural coefficients, where the coset shift g^i is applied), evaluated on the coset by DIF (bit-reversed
 * evaluations), combined point-wise, and, for bellperson, interpolated back by DIT straight into natural order. */
#include "ntt_internal.h"

typedef struct {
    cuzk_fr_t *h;
    const cuzk_fr_t *a, *b, *c;
    cuzk_fr_t s;
} combine_ctx;

/* h := a·b − c (c NULL: h := a·b) */
static void combine_range(void *arg, size_t lo, size_t hi)
{
    const combine_ctx *k = arg;
    for (size_t i = lo; i < hi; i++) {
        cuzk_fr_t t;
        cuzk_fr_mul(&t, &k->a[i], &k->b[i]);
        if (k->c != NULL) cuzk_fr_sub(&t, &t, &k->c[i]);
        k->h[i] = t;
    }
}

/* h := h − c·s */
static void subtract_range(void *arg, size_t lo, size_t hi)
{
    const combine_ctx *k = arg;
    for (size_t i = lo; i < hi; i++) {
        cuzk_fr_t t;
        cuzk_fr_mul(&t, &k->c[i], &k->s);
        cuzk_fr_sub(&k->h[i], &k->h[i], &t);
    }
}

/* Natural-order evaluations on the domain -> bit-reversed evaluations on the coset of shift g, for `count` vectors.
 * They are scaled in one pass so that they share each power of g. */
static void to_coset(cuzk_fr_t *const *v, size_t count, const cuzk_ntt_domain *d, const cuzk_fr_t *g, unsigned threads)
{
    for (size_t i = 0; i < count; i++) {
        cuzk_ntt_bitrev(v[i], d->log2n, threads);
        cuzk_ntt_dit(v[i], d, true, threads);
    }
    cuzk_ntt_scale_powers(v, count, d->n, &d->n_inv, g, threads);
    for (size_t i = 0; i < count; i++) cuzk_ntt_dif(v[i], d, false, threads);
}

/* C is never taken to the coset: H = (A·B − C)/Z has degree < n, Z is the constant g^n − 1 on the coset, and the
 * coset interpolation is linear and gives C's own coefficients back for C's coset values, so
 * H = (coset-interpolation of A·B − C)/(g^n − 1). Six transforms instead of seven (as the GPU prover does). */
void cuzk_ntt_h_bellperson(cuzk_fr_t *h, cuzk_fr_t *a, cuzk_fr_t *b, cuzk_fr_t *c, const cuzk_ntt_domain *d,
                           unsigned threads)
{
    cuzk_fr_t g, g_inv, z_inv;
    cuzk_fr_from_u64(&g, 7);
    cuzk_fr_inv_vartime(&g_inv, &g);
    uint64_t n = d->n;
    cuzk_fr_pow(&z_inv, &g, &n, 1);
    cuzk_fr_t one;
    cuzk_fr_set_one(&one);
    cuzk_fr_sub(&z_inv, &z_inv, &one);
    cuzk_fr_inv_vartime(&z_inv, &z_inv);

    cuzk_fr_t *const ab[2] = {a, b};
    to_coset(ab, 2, d, &g, threads);
    cuzk_ntt_bitrev(c, d->log2n, threads);
    cuzk_ntt_dit(c, d, true, threads); /* n·C's coefficients, natural order */
    combine_ctx k = {h, a, b, NULL, one};
    cuzk_par_for(threads, d->n, 1 << 13, combine_range, &k);
    cuzk_ntt_dit(h, d, true, threads);
    /* the division by Z, a constant on the coset, rides along with the 1/n of the interpolation */
    cuzk_fr_mul(&k.s, &d->n_inv, &z_inv);
    cuzk_ntt_scale_powers(&h, 1, d->n, &k.s, &g_inv, threads);
    k.c = c;
    cuzk_par_for(threads, d->n, 1 << 13, subtract_range, &k);
}

void cuzk_ntt_h_snarkjs(cuzk_fr_t *h, cuzk_fr_t *a, cuzk_fr_t *b, cuzk_fr_t *c, const cuzk_ntt_domain *d,
                        unsigned threads)
{
    cuzk_fr_t w2n;
    cuzk_fr_root_of_unity(&w2n, d->log2n + 1, d->conv); /* log2n + 1 <= CUZK_NTT_MAX_LOG2 + 1 < CUZK_FR_TWO_ADICITY */
    cuzk_fr_t *const abc[3] = {a, b, c};
    to_coset(abc, 3, d, &w2n, threads);
    combine_ctx k = {h, a, b, c, {{0}}};
    cuzk_par_for(threads, d->n, 1 << 13, combine_range, &k);
    cuzk_ntt_bitrev(h, d->log2n, threads);
}
