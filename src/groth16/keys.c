/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Key lifetime and the check that a key was made for a given circuit. */
#include <stdlib.h>
#include <string.h>

#include "g16_internal.h"

void cuzk_groth16_vk_free(cuzk_groth16_vk *vk)
{
    if (vk == NULL) return;
    free(vk->storage);
    memset(vk, 0, sizeof *vk);
}

void cuzk_groth16_pk_free(cuzk_groth16_pk *pk)
{
    if (pk == NULL) return;
    cuzk_groth16_vk_free(&pk->vk);
    cuzk_r1cs_free(pk->circuit);
    free(pk->storage);
    memset(pk, 0, sizeof *pk);
}

/* Every count the prover relies on, so that it can index the key's arrays without further checks. */
cuzk_status cuzk_groth16_pk_check_circuit(const cuzk_groth16_pk *pk, const cuzk_r1cs_t *circuit, cuzk_errmsg *err)
{
    if (pk == NULL || circuit == NULL) return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "key or circuit is NULL");
    if (pk->conv != CUZK_GROTH16_BELLPERSON && pk->conv != CUZK_GROTH16_SNARKJS)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "key convention %d unknown", (int)pk->conv);
    if (pk->vk.num_inputs != circuit->num_inputs)
        return cuzk_fail(err, CUZK_ERR_MISMATCH, "key has %llu inputs, circuit %u",
                         (unsigned long long)pk->vk.num_inputs, circuit->num_inputs);
    if (pk->num_aux != circuit->num_aux)
        return cuzk_fail(err, CUZK_ERR_MISMATCH, "key has %llu aux variables, circuit %u",
                         (unsigned long long)pk->num_aux, circuit->num_aux);
    uint64_t n = pk->domain_size;
    if (n == 0 || (n & (n - 1)) != 0 || cuzk_log2_ceil(n) > CUZK_NTT_MAX_LOG2)
        return cuzk_fail(err, CUZK_ERR_MISMATCH, "key domain size %llu is not a supported power of two",
                         (unsigned long long)n);
    if (pk->l_len != circuit->num_aux)
        return cuzk_fail(err, CUZK_ERR_MISMATCH, "key has %llu L points for %u aux variables",
                         (unsigned long long)pk->l_len, circuit->num_aux);
    uint64_t vars = cuzk_r1cs_num_vars(circuit);
    uint64_t rows = circuit->num_constraints;

    if (pk->conv == CUZK_GROTH16_BELLPERSON) {
        /* the prover appends one row per input, and the domain is the smallest one that holds them all */
        uint64_t want = (uint64_t)1 << cuzk_log2_ceil(rows + circuit->num_inputs);
        if (n != want)
            return cuzk_fail(err, CUZK_ERR_MISMATCH, "key domain %llu, circuit of %llu rows + %u inputs needs %llu",
                             (unsigned long long)n, (unsigned long long)rows, circuit->num_inputs,
                             (unsigned long long)want);
        if (pk->h_len != n - 1)
            return cuzk_fail(err, CUZK_ERR_MISMATCH, "key has %llu H points, domain %llu needs %llu",
                             (unsigned long long)pk->h_len, (unsigned long long)n, (unsigned long long)(n - 1));
        uint64_t a_len = circuit->num_inputs + cuzk_popcount(circuit->a_aux_density, circuit->num_aux);
        uint64_t b_len = cuzk_popcount(circuit->b_input_density, circuit->num_inputs) +
                         cuzk_popcount(circuit->b_aux_density, circuit->num_aux);
        if (pk->a_len != a_len)
            return cuzk_fail(err, CUZK_ERR_MISMATCH, "key has %llu A points, circuit density selects %llu",
                             (unsigned long long)pk->a_len, (unsigned long long)a_len);
        if (pk->b_len != b_len)
            return cuzk_fail(err, CUZK_ERR_MISMATCH, "key has %llu B points, circuit density selects %llu",
                             (unsigned long long)pk->b_len, (unsigned long long)b_len);
    } else {
        /* the key's own matrices (input rows included) drive the prover; the circuit passed in may be that very
         * system or the original one without the input rows, and must fit the domain either way */
        const cuzk_r1cs_t *own = pk->circuit;
        if (own == NULL) return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "snarkjs key carries no matrices");
        if (own->num_inputs != circuit->num_inputs || own->num_aux != circuit->num_aux)
            return cuzk_fail(err, CUZK_ERR_MISMATCH, "key matrices have %u inputs and %u aux, circuit %u and %u",
                             own->num_inputs, own->num_aux, circuit->num_inputs, circuit->num_aux);
        uint64_t need = circuit == own ? rows : rows + circuit->num_inputs;
        if (own->num_constraints > n || need > n)
            return cuzk_fail(err, CUZK_ERR_MISMATCH, "circuit of %llu rows does not fit the key's domain %llu",
                             (unsigned long long)need, (unsigned long long)n);
        if (pk->h_len != n)
            return cuzk_fail(err, CUZK_ERR_MISMATCH, "key has %llu H points, domain %llu needs %llu",
                             (unsigned long long)pk->h_len, (unsigned long long)n, (unsigned long long)n);
        if (pk->a_len != vars || pk->b_len != vars)
            return cuzk_fail(err, CUZK_ERR_MISMATCH, "key has %llu A and %llu B points for %llu variables",
                             (unsigned long long)pk->a_len, (unsigned long long)pk->b_len, (unsigned long long)vars);
    }
    if ((pk->h_len && pk->h == NULL) || (pk->l_len && pk->l == NULL) || (pk->a_len && pk->a == NULL) ||
        (pk->b_len && (pk->b_g1 == NULL || pk->b_g2 == NULL)) || pk->vk.ic == NULL)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "key point arrays missing");
    return CUZK_OK;
}
