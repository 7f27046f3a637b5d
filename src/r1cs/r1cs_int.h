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

/* The one allocation cuzk_r1cs_spmv (and cuzk_r1cs_check) makes on `threads` threads (after clamping to the row chunks, so
 * at most this for the threads asked), live while it runs: the worker thread ids. 0: none. */
size_t cuzk_r1cs_spmv_scratch_bytes(unsigned threads);

/* Builds the three density bitmaps of r's matrices into caller-zeroed arrays of the documented sizes. */
void cuzk_r1cs_compute_density(const cuzk_r1cs_t *r, uint64_t *a_aux, uint64_t *b_input, uint64_t *b_aux);

/* Value table (starts with 1, -1; every value canonical and non-zero) and one matrix's structure (row offsets,
 * strictly increasing in-range columns, coefficient ids below num_values), with a detail line on failure. */
cuzk_status cuzk_r1cs_check_values(const cuzk_r1cs_t *r, cuzk_r1cs_err *err);
cuzk_status cuzk_r1cs_check_matrix(const cuzk_r1cs_t *r, int k, cuzk_r1cs_err *err);

/* iden3 containers (.r1cs, .wtns, .zkey: magic, u32 version, u32 count, then typed sections {u32 type, u64 size,
 * payload}). cuzk_r1cs_iden3_check verifies magic and version and walks every section header, so that each section is
 * known to lie inside buf and no byte follows the last one; `what` prefixes the error detail.
 * cuzk_r1cs_iden3_find then returns the one section of a type (CUZK_ERR_BAD_SECTION when it is missing or repeated). */
cuzk_status cuzk_r1cs_iden3_check(const uint8_t *buf, size_t len, const char magic[4], uint32_t version, const char *what,
                             cuzk_r1cs_err *err);
cuzk_status cuzk_r1cs_iden3_find(const uint8_t *buf, uint32_t type, const uint8_t **sec, uint64_t *size, const char *what,
                            cuzk_r1cs_err *err);

/* Read-only mapping of a whole file. Empty files map to len 0 and a NULL pointer. */
cuzk_status cuzk_r1cs_map_file(const char *path, const uint8_t **data, size_t *len, cuzk_r1cs_err *err);
void cuzk_r1cs_unmap_file(const uint8_t *data, size_t len);
cuzk_status cuzk_r1cs_write_file(const char *path, const uint8_t *data, size_t len, cuzk_r1cs_err *err);

/* Little-endian integers of the iden3 containers (.r1cs, .wtns, .zkey, .ptau), read from unaligned bytes. */
static inline uint32_t rd32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static inline uint64_t rd64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

#endif
