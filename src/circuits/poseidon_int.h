/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The partial rounds of the optimised schedule, run in blocks (shared by the permutation and the gadget's witness).
 *
 * A partial round r changes element 0 by its S-box, y_r = s_0^5 + key, then mixes with a sparse matrix:
 * s_0 <- w_r[0]·y_r + Σ_{j≥1} w_r[j]·s_j, and s_j <- s_j + v_r[j−1]·y_r for j ≥ 1. Within a block of rounds b..e the
 * elements j ≥ 1 only ever gain multiples of the y's, s_j = s_j(b) + Σ_{b≤r'<r} v_r'[j−1]·y_r', so round r's new s_0
 * is one sum of products over (s_1(b) .. s_{t−1}(b), y_b .. y_r) with the coefficients
 * (w_r[1..t−1], c_{r,b} .. c_{r,r−1}, w_r[0]), where c_{r,r'} = Σ_{j≥1} w_r[j]·v_r'[j−1] is a constant; the elements
 * j ≥ 1 are brought up to date once, at the block's end, each one sum over (y_b .. y_e) with (v_b[j−1] .. v_e[j−1]).
 * A round then costs t + i products (i its place in the block) and the block t − 1 sums of its length, instead of
 * t products and t − 1 whole multiplications a round: every sum is reduced once (cuzk_fr_dot). The values are the
 * same field elements; the order of additions is all that changes. */
#ifndef CUZK_CIRCUITS_POSEIDON_INT_H
#define CUZK_CIRCUITS_POSEIDON_INT_H

#include "cuzk/circuits.h"

/* Rounds per block: five measured best on arity 8 (docs/performance/poseidon.md). */
#define CUZK_POSEIDON_BLOCK 5u

/* The number of coefficients p->blocked holds for width t and rp partial rounds. */
size_t cuzk_poseidon_blocked_len(unsigned t, unsigned rp);
/* Fills out (cuzk_poseidon_blocked_len values) from the sparse matrices (2t−1 values per round). */
void cuzk_poseidon_blocked_make(cuzk_fr_t *out, const cuzk_fr_t *sparse, unsigned t, unsigned rp);
/* The partial rounds on s (after the pre-sparse mix, before the first of them). keep 0 writes nothing, 1 each round's
 * S-box input, 4 the input, its square, its fourth power and the S-box output plus the key (the gadget's aux values);
 * returns o past what it wrote. */
cuzk_fr_t *cuzk_poseidon_partial(const cuzk_poseidon_params *p, cuzk_fr_t *s, cuzk_fr_t *o, unsigned keep);
/* The permutation for a hash, which reads element 1 alone: the last mix makes only that one (the other elements of
 * state are left unmixed). */
void cuzk_poseidon_permute_digest(const cuzk_poseidon_params *p, cuzk_fr_t *state);

#endif
