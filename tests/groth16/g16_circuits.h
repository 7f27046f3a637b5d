/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Random satisfiable circuits with their witnesses, for the Groth16 tests. */
#ifndef CUZK_TEST_G16_CIRCUITS_H
#define CUZK_TEST_G16_CIRCUITS_H

#include "testutil.h"

#include "cuzk/groth16.h"

typedef struct {
    cuzk_r1cs_t *r;
    cuzk_fr_t *z; /* witness, cuzk_r1cs_num_vars(r) values, z[0] = 1 */
} g16_circuit;

/* About `rows` constraints over `num_public` public inputs (num_inputs = num_public + 1): a mix of multiplication
 * chains over random field values, booleanity constraints of bits, linear sums with constant coefficients and
 * sums of bits weighted by powers of two (packing), so that witnesses hold many 0s and 1s and many other values.
 * Every aux variable appears in some constraint. The matrices depend on shape_seed only and the witness on
 * value_seed only, so the same shape with another value seed gives another witness of the same circuit. */
void g16_circuit_make(g16_circuit *c, uint64_t rows, uint32_t num_public, uint64_t shape_seed, uint64_t value_seed);
void g16_circuit_free(g16_circuit *c);

#endif
