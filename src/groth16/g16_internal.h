/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Internals shared by the prover, verifier, setup and key sources of the groth16 layer. */
#ifndef CUZK_G16_INTERNAL_H
#define CUZK_G16_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/groth16.h"

/* ---- Lagrange values at τ (setup.c) ---- */
/* false when τ^order = 1 (τ in the domain of that power-of-two order: a Lagrange denominator would vanish). */
bool cuzk_g16_tau_outside_domain(const cuzk_fr_t *tau, uint64_t order);
/* r = (τ^e − 1)/e for a power of two e. */
void cuzk_g16_vanishing_over(cuzk_fr_t *r, const cuzk_fr_t *tau, uint64_t e);
/* out[j] = c·x_j/(τ − x_j) at the points x_j = g·ω^j, j < n (scratch: n elements). With g = 1, ω = ω_n and
 * c = (τ^n − 1)/n this is L_j(τ), the Lagrange basis of the n domain at τ; with g = ω_2n, ω = ω_2n² and
 * c = (τ^2n − 1)/(2n) it is L^{2n}_{2j+1}(τ), the Lagrange polynomial of the odd point ω_2n^(2j+1) of the 2n domain. */
void cuzk_g16_lagrange(cuzk_fr_t *out, cuzk_fr_t *scratch, size_t n, const cuzk_fr_t *g, const cuzk_fr_t *omega,
                       const cuzk_fr_t *tau, const cuzk_fr_t *c);
/* The same on `threads` threads (0 = 1): each range starts from x = g·ω^lo and inverts its own batch. */
void cuzk_g16_lagrange_par(cuzk_fr_t *out, cuzk_fr_t *scratch, size_t n, const cuzk_fr_t *g, const cuzk_fr_t *omega,
                           const cuzk_fr_t *tau, const cuzk_fr_t *c, unsigned threads);

/* ---- verification_key.json counts (json_scan.c) ---- */
/* The top-level "nPublic" and the number of elements of the top-level "IC" array, found by one pass over the n bytes
 * at s that allocates nothing (strings and nested values skipped): a document whose counts disagree is refused before
 * it is parsed. false when the text is not an object holding both (the parser then says what is wrong). */
bool cuzk_g16_vk_json_counts(const char *s, size_t n, uint64_t *npublic, uint64_t *nic);

#endif
