/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Groth16's H on the device, by six NTTs of the key's domain with the pointwise work on their last passes
 * (docs/performance/ntt.md). */
#include <string.h>

#include "groth16/groth16.cuh"

static bool ntt_opts_eq(const cuzk_gpu_ntt_opts *a, const cuzk_gpu_ntt_opts *b)
{
    return a->tile_log2 == b->tile_log2 && a->split_twiddles == b->split_twiddles &&
           a->whole_tables == b->whole_tables && a->whole_without_roots == b->whole_without_roots &&
           a->kernels == b->kernels;
}

/* The NTT domain of k's size and roots, with whole tables when k's plan gave its provers room for them */
extern "C" cuzk_status cuzk_gpu_g16_domain(cuzk_gpu_prover *p, const cuzk_gpu_key *k)
{
    cuzk_fr_roots conv = k->conv == CUZK_GROTH16_BELLPERSON ? CUZK_FR_ROOTS_GEN7 : CUZK_FR_ROOTS_GEN5;
    cuzk_gpu_ntt_opts o = p->ntt_opts;
    o.whole_tables = k->ntt_whole;
    if (p->dom != NULL && p->dom_log2 == k->log2n && p->dom_conv == conv && ntt_opts_eq(&p->dom_opts, &o))
        return CUZK_OK;
    cuzk_gpu_ntt_domain_destroy(p->dom);
    p->dom = NULL;
    CUZK_TRY(cuzk_gpu_ntt_domain_create(&p->dom, k->log2n, conv, &o));
    p->dom_log2 = k->log2n;
    p->dom_conv = conv;
    p->dom_opts = o;
    return CUZK_OK;
}

/* The coset H is evaluated on (shift g) and the factor of its last pass (cuzk_gpu_g16_h): bellperson's coset of 7 and
 * 1/(n·Z) there, 1/(n·(g^n − 1)) (the 1/n that neither unscaled inverse applied); snarkjs's odd coset (g a
 * primitive 2n-th root) and 1. */
extern "C" void cuzk_gpu_g16_h_coset(const cuzk_gpu_key *k, cuzk_fr_t *g, cuzk_fr_t *s)
{
    uint64_t n = k->domain_size;
    cuzk_fr_t one, nn;
    cuzk_fr_set_one(&one);
    if (k->conv == CUZK_GROTH16_BELLPERSON) {
        cuzk_fr_from_u64(g, 7);
        cuzk_fr_pow(s, g, &n, 1);
        cuzk_fr_sub(s, s, &one);
        cuzk_fr_from_u64(&nn, n);
        cuzk_fr_mul(s, s, &nn);
        cuzk_fr_inv_vartime(s, s);
    } else {
        cuzk_fr_root_of_unity(g, k->log2n + 1, CUZK_FR_ROOTS_GEN5);
        *s = one;
    }
}

/* the finish's factor k as a plain integer in Fr's words, so that its Montgomery product leaves v·k canonical */
static void plain_factor(cuzk_gpu_ntt_finish *f, const cuzk_fr_t *k)
{
    cuzk_fr_to_limbs(f->k.l, k);
    f->has_k = true;
}

/* a := H's coefficients (bellperson) or its odd-coset values (snarkjs), canonical (not Montgomery: the last pass's
 * factor goes in as a plain integer, and Montgomery's product by it drops the R), as the H MSM reads them; b and c
 * are scratch.
 * snarkjs: A, B and C are interpolated and evaluated on the coset, and a·b − c there is the answer (six NTTs).
 * bellperson: H = (A·B − C)/Z with deg H < n, and Z = g^n − 1 on the whole coset. The coset inverse NTT is linear and
 * returns C's own coefficients for C's coset values (deg C < n), so H = (coset-iNTT(A·B on the coset) − C)/(g^n − 1):
 * C is never taken to the coset, six NTTs instead of seven.
 * The pointwise work rides on the transforms' last passes (cuzk_gpu_ntt_finish): the product on B's, and bellperson's
 * − C and 1/(n·Z) on the coset inverse's; h_coset's factor is the last pass's k either way. */
extern "C" cuzk_status cuzk_gpu_g16_h(cuzk_gpu_prover *p, const cuzk_gpu_key *k)
{
    bool bell = k->conv == CUZK_GROTH16_BELLPERSON;
    CUZK_TRY(cuzk_gpu_g16_domain(p, k));
    cuzk_fr_t g, s;
    cuzk_gpu_g16_h_coset(k, &g, &s);
    cuzk_fr_t *a = p->abc[0], *b = p->abc[1], *c = p->abc[2];
    cuzk_gpu_ntt_finish prod;
    memset(&prod, 0, sizeof prod);
    prod.mul = a;
    if (!bell) {
        CUZK_TRY(cuzk_gpu_ntt_to_coset(c, p->dom, &g, NULL, NULL));
        prod.minus = c;
        plain_factor(&prod, &s);
    }
    CUZK_TRY(cuzk_gpu_ntt_to_coset(a, p->dom, &g, NULL, NULL));
    CUZK_TRY(cuzk_gpu_ntt_to_coset(b, p->dom, &g, &prod, a)); /* a := a·b (− c) on the coset */
    if (!bell) return CUZK_OK;
    CUZK_TRY(cuzk_gpu_ntt_inverse_raw(c, p->dom));
    cuzk_gpu_ntt_finish fin;
    memset(&fin, 0, sizeof fin);
    fin.minus = c;
    plain_factor(&fin, &s);
    return cuzk_gpu_ntt_coset_inverse_raw(a, p->dom, &g, &fin);
}
