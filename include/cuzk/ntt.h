/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk ntt: number-theoretic transforms over Fr on power-of-two domains, and the H polynomial of Groth16.
 *
 * A domain of size n = 2^k is the group {ω^i} of n-th roots of unity, with ω = cuzk_fr_root_of_unity(k, conv). The two
 * root conventions give different ω for the same n, so a domain is tied to one of them: CUZK_FR_ROOTS_GEN7 for
 * bellperson / zcash key material, CUZK_FR_ROOTS_GEN5 for snarkjs zkeys.
 *
 * Every transform works in place on n elements, natural order in and out:
 *   forward:        x[i] := Σ_j x[j]·ω^(i·j)            (coefficients -> evaluations at ω^i)
 *   inverse:        the inverse of forward, 1/n included (evaluations at ω^i -> coefficients)
 *   coset forward:  x[i] := Σ_j x[j]·(g·ω^i)^j          (coefficients -> evaluations at g·ω^i)
 *   coset inverse:  the inverse of coset forward
 * threads is the number of threads to use, the caller's included; 0 and 1 both run inline on the caller's thread.
 * Small transforms use fewer threads than asked for when splitting would cost more than it gains. */
#ifndef CUZK_NTT_H
#define CUZK_NTT_H

#include <stddef.h>

#include "cuzk/ff.h"
#include "cuzk/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest supported log2 of a domain size. The twiddle table holds n/2 elements (4 GiB at the maximum). */
#define CUZK_NTT_MAX_LOG2 28

typedef struct {
    unsigned log2n;
    size_t n;
    cuzk_fr_roots conv;
    cuzk_fr_t omega; /* primitive n-th root of unity */
    cuzk_fr_t omega_inv;
    cuzk_fr_t n_inv; /* 1/n */
    cuzk_fr_t *tw;   /* tw[i] = ω^i for i < n/2 (one element when n = 1); inverse twiddles are read from it too */
} cuzk_ntt_domain;

/* Builds the domain of size 2^log2n in the given convention. CUZK_ERR_BAD_ROOT_ORDER when log2n > CUZK_NTT_MAX_LOG2,
 * CUZK_ERR_INVALID_ARG for an unknown convention, CUZK_ERR_NOMEM when the twiddle table cannot be allocated. On
 * failure *d is left empty, and cuzk_ntt_domain_free on it is harmless. */
cuzk_status cuzk_ntt_domain_init(cuzk_ntt_domain *d, unsigned log2n, cuzk_fr_roots conv);
void cuzk_ntt_domain_free(cuzk_ntt_domain *d);

void cuzk_ntt_forward(cuzk_fr_t *x, const cuzk_ntt_domain *d, unsigned threads);
void cuzk_ntt_inverse(cuzk_fr_t *x, const cuzk_ntt_domain *d, unsigned threads);
/* g must be non-zero; g outside the domain (e.g. 7, or ω_2n) gives a coset disjoint from it. */
void cuzk_ntt_coset_forward(cuzk_fr_t *x, const cuzk_ntt_domain *d, const cuzk_fr_t *g, unsigned threads);
void cuzk_ntt_coset_inverse(cuzk_fr_t *x, const cuzk_ntt_domain *d, const cuzk_fr_t *g, unsigned threads);

/* The H polynomial of Groth16, from the evaluations a[i] = A(ω^i), b[i] = B(ω^i), c[i] = C(ω^i) of the witness
 * combinations of the R1CS matrices on the domain (n elements each). a, b and c are used as scratch and hold
 * nothing meaningful afterwards; h may be a, b or separate memory of n elements (not c, which cuzk_ntt_h_bellperson
 * reads last).
 *
 * cuzk_ntt_h_bellperson (domain in CUZK_FR_ROOTS_GEN7, as bellperson and the zcash-style parameters expect):
 *   A, B, C = inverse NTT of a, b, c (coefficients, degree < n);
 *   evaluate A and B on the coset g·ω^i with g = 7, the multiplicative generator of Fr;
 *   there Z(X) = X^n − 1 is the constant g^n − 1, so H = (coset inverse NTT of A·B there − C) / (g^n − 1) (the
 *   coset inverse NTT is linear and gives C back for C's coset values) -> h[0..n−1], the coefficients of
 *   H = (A·B − C) / Z. A·B − C has degree ≤ 2n − 2, so H has degree ≤ n − 2 and h[n−1] is zero for a satisfying
 *   witness; the prover uses h[0..n−2] against the τ^i·Z(τ)/δ points.
 *
 * cuzk_ntt_h_snarkjs (domain in CUZK_FR_ROOTS_GEN5, as snarkjs's groth16 prove):
 *   A, B, C = inverse NTT of a, b, c; evaluate each at x_i = ω_2n·ω^i = ω_2n^(2i+1), the odd powers of a primitive
 *   2n-th root of unity (ω_2n = cuzk_fr_root_of_unity(k + 1, GEN5)), where Z(x_i) = x_i^n − 1 = −2;
 *   h[i] = (A·B − C)(x_i), natural order, with NO division by Z: the zkey's H points are Lagrange points of the
 *   2n domain with the factor −1/2 folded in, so MSM(H, h) = H(τ)·Z(τ)/δ. */
void cuzk_ntt_h_bellperson(cuzk_fr_t *h, cuzk_fr_t *a, cuzk_fr_t *b, cuzk_fr_t *c, const cuzk_ntt_domain *d,
                           unsigned threads);
void cuzk_ntt_h_snarkjs(cuzk_fr_t *h, cuzk_fr_t *a, cuzk_fr_t *b, cuzk_fr_t *c, const cuzk_ntt_domain *d,
                        unsigned threads);

#ifdef __cplusplus
}
#endif

#endif
