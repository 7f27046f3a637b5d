/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Pieces shared by the ntt sources: the thread splitter, the radix-2 kernels and the element-wise passes. */
#ifndef CUZK_NTT_INTERNAL_H
#define CUZK_NTT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "cuzk/ntt.h"

/* Decimation in frequency: natural order in, bit-reversed order out. Decimation in time: bit-reversed in, natural
 * out. inverse selects ω^-1 (no 1/n scaling). */
void cuzk_ntt_dif(cuzk_fr_t *x, const cuzk_ntt_domain *d, bool inverse, unsigned threads);
void cuzk_ntt_dit(cuzk_fr_t *x, const cuzk_ntt_domain *d, bool inverse, unsigned threads);

/* Bit-reversal permutation of n = 2^log2n elements. */
void cuzk_ntt_bitrev(cuzk_fr_t *x, unsigned log2n, unsigned threads);

/* x[v][i] := x[v][i]·s·g^i for i < n and each of the count vectors x[v]; g = NULL scales by s alone. Vectors
 * scaled together share the one multiplication that steps the power. */
void cuzk_ntt_scale_powers(cuzk_fr_t *const *x, size_t count, size_t n, const cuzk_fr_t *s, const cuzk_fr_t *g,
                           unsigned threads);

#endif
