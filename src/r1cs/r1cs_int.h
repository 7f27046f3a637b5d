/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Internals shared by the r1cs sources: error reporting, hashing, whole-file access. */
#ifndef CUZK_R1CS_INT_H
#define CUZK_R1CS_INT_H

#include <string.h>

#include <openssl/evp.h>

#include "cuzk/r1cs.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "cuzk file formats are little-endian and mapped directly: a little-endian host is required"
#endif

/* Index of each array in cuzk_r1cs_t.heap (and of each PCE section). */
enum {
    R1CS_SEC_ROW_PTR = 0, /* + 3·matrix */
    R1CS_SEC_COL = 1,
    R1CS_SEC_COEF = 2,
    R1CS_SEC_VALUES = 9,
    R1CS_SEC_A_AUX = 10,
    R1CS_SEC_B_INPUT = 11,
    R1CS_SEC_B_AUX = 12,
    R1CS_SEC_COUNT = 13,
};

static inline uint64_t r1cs_density_words(uint64_t bits) { return (bits + 63) / 64; }

/* Feeds the identity's prefix and every matrix and value array of r into ctx (see cuzk_r1cs_identity). */
void cuzk_r1cs_hash_matrices(const cuzk_r1cs_t *r, EVP_MD_CTX *ctx);

/* Builds the three density bitmaps of r's matrices into caller-zeroed arrays of the documented sizes. */
void cuzk_r1cs_compute_density(const cuzk_r1cs_t *r, uint64_t *a_aux, uint64_t *b_input, uint64_t *b_aux);

/* Value table (starts with 1, -1; every value canonical and non-zero) and one matrix's structure (row offsets,
 * strictly increasing in-range columns, coefficient ids below num_values), with a detail line on failure. */
cuzk_status cuzk_r1cs_check_values(const cuzk_r1cs_t *r, cuzk_r1cs_err *err);
cuzk_status cuzk_r1cs_check_matrix(const cuzk_r1cs_t *r, int k, cuzk_r1cs_err *err);

#endif
