/* cuzk circuits: synthetic constraint systems with their witnesses, for tests, benchmarks and the demo.
 *
 * cuzk_circuits_synthetic() makes a system shaped like one Filecoin PoRep partition at any size 2^k: most witness values
 * are bits from SHA-256-style gadgets (bit allocations, XOR/AND over earlier bits, bits packed into field values),
 * the rest field values from Poseidon-style x^5 chains. It aims at PoRep's measured shape: about 2.4 / 1.0 / 2.2
 * non-zeros per row in A / B / C, about 99.7 % of the aux variables in A and 25 % in B.
 *
 * Sizes: CUZK_CIRCUITS_SYNTHETIC_INPUTS inputs (ONE and 4 public values) and 2^k − CUZK_CIRCUITS_SYNTHETIC_INPUTS
 * constraints, so that the bellperson domain (constraints + inputs) is exactly 2^k. The system and the witness are
 * a pure function of (k, seed): the thread count changes the speed only. The system's structure comes from the seed
 * alone; the witness's free values from a witness seed (the same seed here, any other in
 * cuzk_circuits_synthetic_witness). */
#ifndef CUZK_CIRCUITS_H
#define CUZK_CIRCUITS_H

#include <stdint.h>

#include "cuzk/ff.h"
#include "cuzk/r1cs.h"
#include "cuzk/base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CUZK_CIRCUITS_SYNTHETIC_INPUTS 5u
#define CUZK_CIRCUITS_LOG2_MIN 4u
#define CUZK_CIRCUITS_LOG2_MAX 31u

/* *cs gets the system, *witness (malloc'd, cuzk_r1cs_num_vars entries, witness[0] = 1) a satisfying assignment; the
 * public inputs are witness[1 .. CUZK_CIRCUITS_SYNTHETIC_INPUTS-1]. witness may be NULL when only the system is wanted.
 * threads = 0 means 1. CUZK_ERR_INVALID_ARG for log2n outside [CUZK_CIRCUITS_LOG2_MIN, CUZK_CIRCUITS_LOG2_MAX]. */
cuzk_status cuzk_circuits_synthetic(unsigned log2n, uint64_t seed, unsigned threads, cuzk_r1cs_t **cs, cuzk_fr_t **witness,
                               cuzk_errmsg *err);

/* Another satisfying witness of the system cuzk_circuits_synthetic(log2n, seed) gives: the same system (same identity),
 * free values drawn from witness_seed instead, so the public inputs differ too. witness_seed = seed gives the
 * witness cuzk_circuits_synthetic returns. One pass that writes no rows: cheaper than cuzk_circuits_synthetic. Below 2^9 no
 * tobits gadget fits and the witness has a single free bit, so two witness seeds agree half the time. */
cuzk_status cuzk_circuits_synthetic_witness(unsigned log2n, uint64_t seed, uint64_t witness_seed, unsigned threads,
                                       cuzk_fr_t **witness, cuzk_errmsg *err);

/* The same into a caller's buffer of len values (pinned memory for a device, say), which must be exactly
 * cuzk_circuits_synthetic_num_vars(log2n) (CUZK_ERR_INVALID_ARG otherwise). */
cuzk_status cuzk_circuits_synthetic_witness_into(unsigned log2n, uint64_t seed, uint64_t witness_seed, unsigned threads,
                                            cuzk_fr_t *z, uint64_t len, cuzk_errmsg *err);
/* cuzk_r1cs_num_vars of cuzk_circuits_synthetic(log2n, ...): 2^log2n − CUZK_CIRCUITS_SYNTHETIC_INPUTS + 1; 0 outside the range. */
uint64_t cuzk_circuits_synthetic_num_vars(unsigned log2n);

/* The shape of a system, as the targets above describe it. */
typedef struct {
    uint64_t rows, inputs, aux;
    uint64_t nnz[3];
    double per_row[3];      /* nnz / rows for A, B, C */
    double a_aux_density;   /* fraction of aux variables with an entry in A */
    double b_aux_density;   /* ... in B */
    double bit_fraction;    /* fraction of aux witness values that are 0 or 1; -1 without a witness */
    uint32_t num_values;    /* distinct coefficients */
} cuzk_circuits_stats;

/* z may be NULL. */
void cuzk_circuits_stats_compute(const cuzk_r1cs_t *r, const cuzk_fr_t *z, cuzk_circuits_stats *st);

#ifdef __cplusplus
}
#endif

#endif
