/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk r1cs: rank-1 constraint systems, their compiled file format (PCE), witnesses and sparse evaluation.
 *
 * Variables (columns) are numbered as bellperson numbers them: column 0 is the constant ONE (input 0), columns
 * 1 .. num_inputs-1 are the other public inputs, columns num_inputs .. num_inputs+num_aux-1 are the aux (private)
 * variables. A witness z is indexed by column. Constraint (row) i says (A_i·z)·(B_i·z) = C_i·z.
 *
 * Circom numbers its wires 0 = ONE, then public outputs, then public inputs, then private inputs and internal
 * wires. Public signals come first, so wire w is column w unchanged: num_inputs = 1 + nPubOut + nPubIn and every
 * later wire is aux. A .wtns witness is therefore already in column order.
 *
 * Each matrix is CSR: row_ptr[rows+1] (u64 offsets: 130 M rows × a few entries overflow u32), col[nnz] (u32, so
 * at most 2^32-1 variables) and coef[nnz], a u32 index into one value table shared by A, B and C. Ids 0 and 1 are
 * reserved for +1 and -1 (CUZK_R1CS_COEF_ONE, CUZK_R1CS_COEF_MINUS_ONE), which the evaluator adds or subtracts without a
 * multiplication; every other id names a distinct non-zero value, numbered by first appearance scanning A, then
 * B, then C row by row, so the same matrices always give the same bytes. Columns within a row are strictly
 * increasing and no stored coefficient is zero. Values are cuzk_fr_t in Montgomery form.
 *
 * Density bitmaps (bellperson's, one bit per variable, LSB-first in 64-bit words, bits past the end zero):
 * a_aux[j] = aux variable j has a non-zero entry in A; b_input[i] / b_aux[j] = input i / aux j has one in B.
 *
 * Functions that parse input take an optional cuzk_r1cs_err that receives a one-line human-readable detail
 * ("section 2 length 123 exceeds file size 100") besides the status code; pass NULL to ignore it. */
#ifndef CUZK_R1CS_H
#define CUZK_R1CS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/ff.h"
#include "cuzk/base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CUZK_R1CS_COEF_ONE 0u
#define CUZK_R1CS_COEF_MINUS_ONE 1u

typedef cuzk_errmsg cuzk_r1cs_err;

typedef struct {
    const uint64_t *row_ptr; /* num_constraints + 1 entries, row_ptr[0] = 0, row_ptr[rows] = nnz */
    const uint32_t *col;     /* nnz column indices */
    const uint32_t *coef;    /* nnz ids into cuzk_r1cs_t.values */
    uint64_t nnz;
} cuzk_r1cs_matrix;

typedef struct cuzk_r1cs {
    uint32_t num_inputs; /* including ONE, >= 1 */
    uint32_t num_aux;
    uint64_t num_constraints;
    cuzk_r1cs_matrix m[3]; /* A, B, C */
    const cuzk_fr_t *values;
    uint32_t num_values;             /* >= 2: values[0] = 1, values[1] = -1 */
    const uint64_t *a_aux_density;   /* ceil(num_aux / 64) words */
    const uint64_t *b_input_density; /* ceil(num_inputs / 64) words */
    const uint64_t *b_aux_density;   /* ceil(num_aux / 64) words */
    uint8_t identity[32];            /* SHA-256 identity of the matrices (see cuzk_r1cs_identity) */
    /* storage: either one mapping of a PCE file or separate heap blocks */
    void *map;
    size_t map_len;
    void *heap[13];
} cuzk_r1cs_t;

enum { CUZK_R1CS_A = 0, CUZK_R1CS_B = 1, CUZK_R1CS_C = 2 };

static inline uint64_t cuzk_r1cs_num_vars(const cuzk_r1cs_t *r) { return (uint64_t)r->num_inputs + r->num_aux; }
static inline bool cuzk_r1cs_density_get(const uint64_t *bits, uint64_t i) { return (bits[i >> 6] >> (i & 63)) & 1; }

void cuzk_r1cs_free(cuzk_r1cs_t *r);

/* The identity: SHA-256 over "cuzk-r1cs-v1", num_inputs, num_aux, num_constraints, num_values, nnz of A, B, C
 * (each u64 LE), then for A, B, C: row_ptr, col, coef (LE), then the value table (Montgomery limbs, LE). Equal
 * matrices give equal identities because the encoding above is canonical. */
void cuzk_r1cs_identity(const cuzk_r1cs_t *r, uint8_t out[32]);

/* ---- builder ----------------------------------------------------------------------------------------------------- */
/* A variable handle: input i is CUZK_R1CS_INPUT(i), aux j is CUZK_R1CS_AUX(j). Inputs and aux are numbered separately, in
 * allocation order, as in bellperson; inputs may be allocated at any time and all end up before the aux columns.
 * Limits: fewer than 2^31 inputs, fewer than 2^31 aux, num_inputs + num_aux < 2^32. */
typedef uint64_t cuzk_r1cs_var;
#define CUZK_R1CS_INPUT(i) ((cuzk_r1cs_var)(uint32_t)(i))
#define CUZK_R1CS_AUX(j) (((cuzk_r1cs_var)1 << 32) | (uint32_t)(j))
#define CUZK_R1CS_ONE CUZK_R1CS_INPUT(0)

typedef struct {
    cuzk_r1cs_var var;
    cuzk_fr_t coeff; /* Montgomery form */
} cuzk_r1cs_term;

typedef struct cuzk_r1cs_builder cuzk_r1cs_builder;

/* Starts a system with num_inputs (>= 1, counting ONE) inputs already allocated. NULL when out of memory. */
cuzk_r1cs_builder *cuzk_r1cs_builder_new(uint32_t num_inputs);
void cuzk_r1cs_builder_free(cuzk_r1cs_builder *b);
/* Allocate the next input / aux variable; the handle is written to *out. */
cuzk_status cuzk_r1cs_builder_alloc_input(cuzk_r1cs_builder *b, cuzk_r1cs_var *out);
cuzk_status cuzk_r1cs_builder_alloc_aux(cuzk_r1cs_builder *b, cuzk_r1cs_var *out);
/* Allocates n aux variables at once (O(1)); the first handle goes to *first, the others follow it. */
cuzk_status cuzk_r1cs_builder_alloc_aux_n(cuzk_r1cs_builder *b, uint32_t n, cuzk_r1cs_var *first);
/* Adds the constraint (Σ a)·(Σ b) = Σ c. Terms may come in any order; repeated variables are summed and zero
 * results dropped. CUZK_ERR_R1CS_COLUMN for a variable not yet allocated. */
cuzk_status cuzk_r1cs_builder_enforce(cuzk_r1cs_builder *b, const cuzk_r1cs_term *a, size_t na,
                                      const cuzk_r1cs_term *bt, size_t nb, const cuzk_r1cs_term *c, size_t nc);
/* Turns the builder into a system (renumbering coefficients canonically, computing densities and the identity)
 * and frees the builder. */
cuzk_status cuzk_r1cs_builder_finish(cuzk_r1cs_builder *b, cuzk_r1cs_t **out);

/* ---- caller-built systems --------------------------------------------------------------------------------------- */
/* For generators too large for the builder's per-constraint work: the caller fills CSR arrays directly (malloc'd),
 * with coefficient ids into its own value table (values[0] = 1, values[1] = -1, others non-zero; duplicates are
 * allowed and merged). */
typedef struct {
    uint32_t num_inputs, num_aux;
    uint64_t num_constraints;
    uint64_t *row_ptr[3]; /* A, B, C: num_constraints + 1 offsets each */
    uint32_t *col[3], *coef[3];
    uint64_t nnz[3];
    cuzk_fr_t *values;
    uint32_t num_values;
} cuzk_r1cs_parts;

/* Takes ownership of every array in *p (and zeroes *p): validates them as the PCE loader does, renumbers the
 * coefficient ids canonically (as cuzk_r1cs_builder_finish does, dropping unused values), then computes the densities
 * and the identity. On failure the arrays are freed and err says why. */
cuzk_status cuzk_r1cs_adopt(cuzk_r1cs_parts *p, cuzk_r1cs_t **out, cuzk_r1cs_err *err);

/* ---- evaluation -------------------------------------------------------------------------------------------------- */
typedef enum {
    CUZK_R1CS_C_MATRIX,  /* c = C·z */
    CUZK_R1CS_C_PRODUCT, /* c = a∘b: right for a satisfying witness, C is not read */
    CUZK_R1CS_C_CHECKED, /* c = a∘b, and C·z is evaluated to confirm it: CUZK_ERR_R1CS_UNSATISFIED otherwise */
} cuzk_r1cs_c_mode;

/* a = A·z, b = B·z and c per mode, each of num_constraints elements; z has cuzk_r1cs_num_vars entries. c may be NULL
 * (then mode only matters for CUZK_R1CS_C_CHECKED, which still checks). threads = 0 means 1. In CUZK_R1CS_C_CHECKED mode the
 * lowest unsatisfied row goes to *first_bad_row (may be NULL) and the outputs are still complete. */
cuzk_status cuzk_r1cs_spmv(const cuzk_r1cs_t *r, const cuzk_fr_t *z, cuzk_fr_t *a, cuzk_fr_t *b, cuzk_fr_t *c,
                           cuzk_r1cs_c_mode mode, unsigned threads, uint64_t *first_bad_row);
/* CUZK_OK when z satisfies every row, else CUZK_ERR_R1CS_UNSATISFIED with the lowest failing row in *first_bad_row.
 * Also CUZK_ERR_INVALID_ARG when z[0] != 1. */
cuzk_status cuzk_r1cs_check(const cuzk_r1cs_t *r, const cuzk_fr_t *z, unsigned threads, uint64_t *first_bad_row);

/* ---- PCE files --------------------------------------------------------------------------------------------------- */
/* Layout (version 1), all little-endian, every section at a multiple of 4096:
 *   0     magic "CUZKPCE\0"
 *   8     u32 version (1), u32 header size (4096)
 *   16    u64 num_inputs, num_aux, num_constraints, num_values, nnz A, nnz B, nnz C
 *   72    u32 section count (13), u32 flags (0)
 *   80    13 × {u64 offset, u64 length}: A.row_ptr, A.col, A.coef, B.(same), C.(same), values,
 *         a_aux density, b_input density, b_aux density; lengths fixed by the counts, offsets ascending
 *   288   identity (32 bytes, cuzk_r1cs_identity)
 *   320   checksum (32 bytes): SHA-256 over the 4096-byte header with this field zeroed, then the three density
 *         sections. The header holds the identity, which covers counts, matrices and values, so the two hashes
 *         together cover every byte once: verifying costs one SHA-256 pass over the file (~1.5 GB/s with SHA-NI).
 *   352   zero up to 4096
 * The file ends at the end of the last section rounded up to 4096; padding between sections must be zero. */
#define CUZK_R1CS_PCE_VERSION 1u

enum {
    CUZK_R1CS_PCE_TRUSTED = 1, /* skip SHA-256 (checksum and identity): structure checks still run; for files this host
                           * wrote or verified before */
};

cuzk_status cuzk_r1cs_pce_write(const cuzk_r1cs_t *r, const char *path, cuzk_r1cs_err *err);
/* Maps path read-only and validates it: header, section table, row offsets, columns, coefficient ids and values,
 * densities against the matrices, then (unless CUZK_R1CS_PCE_TRUSTED) identity and checksum. expect_identity (may be
 * NULL) must equal the file's identity, else CUZK_ERR_MISMATCH. The result points into the mapping. */
cuzk_status cuzk_r1cs_pce_load(const char *path, unsigned flags, const uint8_t expect_identity[32], cuzk_r1cs_t **out,
                               cuzk_r1cs_err *err);
/* The same checks on an image in memory (8-byte aligned, else CUZK_ERR_INVALID_ARG): the result points into data,
 * which the caller keeps until cuzk_r1cs_free. */
cuzk_status cuzk_r1cs_pce_parse(const uint8_t *data, size_t size, unsigned flags, const uint8_t expect_identity[32],
                                cuzk_r1cs_t **out, cuzk_r1cs_err *err);
/* The size the header's section table makes the file, read without trusting it, for telling files apart: CUZK_OK
 * with *file_size = the end of the furthest section rounded up to 4096 (compare with size: shorter is truncated,
 * longer has bytes trailing), CUZK_ERR_TRUNCATED for fewer than the header's 4096 bytes, CUZK_ERR_BAD_HEADER for a
 * section count other than 13 or a section past 2^62. Magic, version and counts are not looked at. */
cuzk_status cuzk_r1cs_pce_measure(const uint8_t *data, size_t size, uint64_t *file_size, cuzk_r1cs_err *err);
/* The counts from the header alone (one small read; magic, version and ranges checked, nothing else), for planning
 * before a load. */
cuzk_status cuzk_r1cs_pce_read_counts(const char *path, uint64_t *num_inputs, uint64_t *num_aux,
                                      uint64_t *num_constraints, cuzk_r1cs_err *err);

/* ---- iden3 files ------------------------------------------------------------------------------------------------- */
/* .wtns (version 2): values are canonical little-endian integers (CUZK_ERR_NOT_CANONICAL when >= r), converted to
 * Montgomery form. When circuit is not NULL the count must equal its variable count (CUZK_ERR_MISMATCH). w[0] = 1
 * is left to cuzk_r1cs_check. *out is malloc'd. */
cuzk_status cuzk_r1cs_wtns_parse(const uint8_t *buf, size_t len, const cuzk_r1cs_t *circuit, cuzk_fr_t **out,
                                 uint64_t *count, cuzk_r1cs_err *err);
cuzk_status cuzk_r1cs_wtns_load(const char *path, const cuzk_r1cs_t *circuit, cuzk_fr_t **out, uint64_t *count,
                                cuzk_r1cs_err *err);
/* The same into a caller's buffer of cuzk_r1cs_num_vars(circuit) values (circuit required; the count must match). */
cuzk_status cuzk_r1cs_wtns_parse_into(const uint8_t *buf, size_t len, const cuzk_r1cs_t *circuit, cuzk_fr_t *out,
                                      cuzk_r1cs_err *err);
cuzk_status cuzk_r1cs_wtns_load_into(const char *path, const cuzk_r1cs_t *circuit, cuzk_fr_t *out, cuzk_r1cs_err *err);
/* Encodes n values as a .wtns image (malloc'd). */
cuzk_status cuzk_r1cs_wtns_encode(const cuzk_fr_t *w, uint64_t n, uint8_t **buf, size_t *len);
cuzk_status cuzk_r1cs_wtns_save(const cuzk_fr_t *w, uint64_t n, const char *path, cuzk_r1cs_err *err);

/* circom .r1cs (version 1): sections in any order, header (1) and constraints (2) required exactly once, others
 * ignored. Field must be BLS12-381's r. */
cuzk_status cuzk_r1cs_circom_parse(const uint8_t *buf, size_t len, cuzk_r1cs_t **out, cuzk_r1cs_err *err);
cuzk_status cuzk_r1cs_circom_load(const char *path, cuzk_r1cs_t **out, cuzk_r1cs_err *err);

#ifdef __cplusplus
}
#endif

#endif
