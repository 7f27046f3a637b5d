/* SPDX-License-Identifier: Apache-2.0 OR MIT */
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

#include <stdbool.h>
#include <stddef.h>
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
cuzk_status cuzk_circuits_synthetic(unsigned log2n, uint64_t seed, unsigned threads, cuzk_r1cs_t **cs,
                                    cuzk_fr_t **witness, cuzk_errmsg *err);

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
    double per_row[3];    /* nnz / rows for A, B, C */
    double a_aux_density; /* fraction of aux variables with an entry in A */
    double b_aux_density; /* ... in B */
    double bit_fraction;  /* fraction of aux witness values that are 0 or 1; -1 without a witness */
    uint32_t num_values;  /* distinct coefficients */
} cuzk_circuits_stats;

/* z may be NULL. */
void cuzk_circuits_stats_compute(const cuzk_r1cs_t *r, const cuzk_fr_t *z, cuzk_circuits_stats *st);

/* ==== Poseidon (neptune 11, Strength::Standard) =================================================================
 *
 * Filecoin's Poseidon over BLS12-381 Fr: width t = arity + 1, S-box x^5, RF = 8 full rounds and RP partial rounds
 * (arity 2: 55, 4: 56, 8: 57, 11: 57, 16: 59, 24: 59, 36: 60). State element 0 is the domain tag, elements 1..arity
 * the inputs (zeros after the last one given), and the digest is element 1 after the permutation. Constants are made
 * here (Grain LFSR, Cauchy MDS, neptune's preprocessing) once per process and arity, on first use, thread-safely.
 * docs/formats/poseidon.md describes the constants, the tags and the round schedule.
 *
 * The permutation follows neptune's optimised schedule, whose intermediate values are the aux values of the legacy
 * circuit. Rounds r = 0 .. RF+RP−1; h = RF/2; round r is full when r < h or r >= h + RP, else partial:
 *   before round 0   state[i] += compressed[i]                                    ("pre" keys, t of them)
 *   S-box layer      full: every element x -> x^5; partial: element 0 only
 *   post keys        added right after the S-box: cuzk_poseidon_post_keys(p, r) (t in a full round, 1 in a partial
 *                    round, none in the last round)
 *   mix              state <- state · M (a row vector times M: new[j] = Σ_i state[i]·M[i][j]) with M = the MDS matrix,
 *                    except after round h−1 (the pre-sparse matrix) and after partial round h+k (sparse matrix k:
 *                    new[0] = Σ_i w_hat[i]·state[i], new[j] = state[j] + v_rest[j−1]·state[0] for j >= 1).
 * cuzk_poseidon_round_mix() names the matrix of each round; cuzk_poseidon_permute_trace() records every S-box input. */

#define CUZK_POSEIDON_FULL_ROUNDS 8u
#define CUZK_POSEIDON_MAX_ARITY 36u
#define CUZK_POSEIDON_MAX_WIDTH (CUZK_POSEIDON_MAX_ARITY + 1u)
/* S-boxes in one permutation: RF·t + RP; the size of cuzk_poseidon_permute_trace's record. */
#define CUZK_POSEIDON_SBOXES(p) ((p)->full_rounds * (p)->width + (p)->partial_rounds)

/* One arity's constants; every matrix is t×t row-major (M[i][j] at [i·t + j]), all values Montgomery-form Fr. */
typedef struct {
    unsigned arity, width; /* width t = arity + 1 */
    unsigned full_rounds, partial_rounds;
    const cuzk_fr_t *round_constants; /* (RF+RP)·t textbook round keys, round r at [r·t] (Grain LFSR order) */
    const cuzk_fr_t *mds;             /* Cauchy MDS, M[i][j] = 1/(i + t + j), symmetric */
    const cuzk_fr_t *compressed;      /* RF·t + RP compressed round constants, in the order the schedule uses them */
    const cuzk_fr_t *pre_sparse;      /* the dense matrix of round h−1 */
    const cuzk_fr_t *sparse;          /* RP sparse matrices of 2t−1 values: w_hat[0..t−1], then v_rest[0..t−2] */
    const cuzk_fr_t *pre_sparse_cols; /* pre_sparse transposed: column j at [j·t] (the MDS is its own transpose) */
    const cuzk_fr_t *blocked;         /* the partial rounds' coefficients in blocks (poseidon_int.h) */
} cuzk_poseidon_params;

/* The constants of an arity (2, 4, 8, 11, 16, 24 or 36), generated on the first call; NULL for any other arity or
 * when memory runs out on that first call. The pointer stays valid for the life of the process. */
const cuzk_poseidon_params *cuzk_poseidon_params_get(unsigned arity);
/* RP of an arity (55 .. 60), 0 for an unsupported one. */
unsigned cuzk_poseidon_partial_rounds(unsigned arity);

/* The schedule, for code (the circuit gadget) that walks the rounds itself. post keys: the t (full round) or 1
 * (partial round) constants added after round r's S-boxes; NULL for the last round and r out of range. */
bool cuzk_poseidon_round_is_full(const cuzk_poseidon_params *p, unsigned round);
const cuzk_fr_t *cuzk_poseidon_post_keys(const cuzk_poseidon_params *p, unsigned round);
/* The linear layer after round r: p->mds, p->pre_sparse, or (with *sparse = true) the 2t−1 values of a sparse
 * matrix; NULL for r out of range. */
const cuzk_fr_t *cuzk_poseidon_round_mix(const cuzk_poseidon_params *p, unsigned round, bool *sparse);

/* The permutation in place on state[0 .. t−1]. The trace variant also writes, for each S-box in evaluation order
 * (round by round; elements 0..t−1 of a full round, element 0 of a partial one), the value it raises to the fifth
 * power into sbox_in[0 .. CUZK_POSEIDON_SBOXES(p)−1]: in round 0 that is input + pre key, later the state element.
 * The circuit's aux values follow: x, x², x⁴ and x⁵ + post key per S-box, and the digest state[1] at the end. */
void cuzk_poseidon_permute(const cuzk_poseidon_params *p, cuzk_fr_t *state);
void cuzk_poseidon_permute_trace(const cuzk_poseidon_params *p, cuzk_fr_t *state, cuzk_fr_t *sbox_in);

/* Domain tags (neptune's HashType). param: the bitmask (MERKLE_TREE_SPARSE), the length (CONSTANT_LENGTH) or the
 * identifier, 1..256 (CUSTOM); ignored otherwise. arity matters only for MERKLE_TREE (1..63). */
typedef enum {
    CUZK_POSEIDON_MERKLE_TREE,        /* 2^arity − 1: tree R / tree C nodes, column hashes, comm_r */
    CUZK_POSEIDON_MERKLE_TREE_SPARSE, /* the bitmask itself */
    CUZK_POSEIDON_VARIABLE_LENGTH,    /* 2^64 */
    CUZK_POSEIDON_CONSTANT_LENGTH,    /* length · 2^64 */
    CUZK_POSEIDON_ENCRYPTION,         /* 2^32 */
    CUZK_POSEIDON_CUSTOM,             /* id · 2^40; SnapDeals' generation randomness is id 1 (arity 2) */
    CUZK_POSEIDON_SPONGE,             /* 0 */
} cuzk_poseidon_hash_type;
#define CUZK_POSEIDON_GEN_RANDOMNESS_ID 1u
cuzk_status cuzk_poseidon_tag(cuzk_fr_t *tag, cuzk_poseidon_hash_type type, unsigned arity, uint64_t param,
                              cuzk_errmsg *err);

/* *out = Poseidon(tag, in[0], .., in[n−1], 0, ..) with the arity's constants, 0 < n <= arity (fewer inputs are
 * zero-padded as neptune's input() does). CUZK_ERR_INVALID_ARG for an unsupported arity or n, CUZK_ERR_NOMEM when the
 * constants cannot be made. */
cuzk_status cuzk_poseidon_hash(cuzk_fr_t *out, unsigned arity, const cuzk_fr_t *tag, const cuzk_fr_t *in, size_t n,
                               cuzk_errmsg *err);
/* The same with the MerkleTree tag and arity 32-byte little-endian reprs in, one out (filecoin-hashers' node hash);
 * CUZK_ERR_NOT_CANONICAL names the input >= r. */
cuzk_status cuzk_poseidon_merkle_hash_bytes(uint8_t out[CUZK_FR_BYTES], unsigned arity, const uint8_t *in,
                                            cuzk_errmsg *err);
/* comm_r = Poseidon-2 MerkleTree(comm_c, comm_r_last), all 32-byte little-endian reprs. */
cuzk_status cuzk_poseidon_comm_r(uint8_t comm_r[CUZK_FR_BYTES], const uint8_t comm_c[CUZK_FR_BYTES],
                                 const uint8_t comm_r_last[CUZK_FR_BYTES], cuzk_errmsg *err);
/* filecoin-hashers' hash_md: arity 36, MerkleTree tag, acc = in[0], then acc = H(acc, next 35 inputs, zero padding)
 * until the inputs run out; n >= 2. */
cuzk_status cuzk_poseidon_hash_md(cuzk_fr_t *out, const cuzk_fr_t *in, size_t n, cuzk_errmsg *err);

/* The constants in the layout of the preprocessed constant files (curio's supraseal poseidon/constants/constants_N):
 * compressed (RF·t + RP), mds (t²), pre_sparse (t²), sparse (RP·(2t−1)), each value 32 bytes, the Montgomery form's
 * limbs little-endian. cuzk_poseidon_constants_size gives the byte count; write needs that many bytes at out. */
size_t cuzk_poseidon_constants_size(const cuzk_poseidon_params *p);
void cuzk_poseidon_constants_write(const cuzk_poseidon_params *p, uint8_t *out);

/* ---- Poseidon Merkle trees (filecoin's tree R and tree C) ----------------------------------------------------------
 * Leaves and nodes are 32-byte little-endian Fr reprs; every node is the MerkleTree-tagged hash of its children, in
 * order. A tree of shape base-sub-top (8-0-0, 8-8-0, 8-8-2) is sub·top base trees of arity base over consecutive
 * equal leaf ranges, whose roots are hashed sub at a time (arity sub), and those top at a time (arity top). So a tree
 * is a stack of levels, leaves first: k levels of the base arity (n/(sub·top) = base^k, k >= 1), then one level of
 * the sub arity when there is one, then one of the top arity. */
#define CUZK_POSEIDON_TREE_MAX_ARITY 16u
#define CUZK_POSEIDON_TREE_MAX_LEVELS 64u
typedef struct {
    uint32_t base_arity; /* 2, 4, 8 or 16 */
    uint32_t sub_arity;  /* 0 (none), 2, 4, 8 or 16 */
    uint32_t top_arity;  /* 0 (none), 2, 4, 8 or 16; needs a sub arity */
} cuzk_poseidon_tree_shape;

/* The levels of a tree of n_leaves leaves of this shape (the path length), or CUZK_ERR_INVALID_ARG naming what does
 * not fit. arities (may be NULL) gets each level's arity, leaves first. */
cuzk_status cuzk_poseidon_tree_levels(const cuzk_poseidon_tree_shape *shape, uint64_t n_leaves, unsigned *levels,
                                      uint32_t arities[CUZK_POSEIDON_TREE_MAX_LEVELS], cuzk_errmsg *err);

/* The root straight from the leaves (n_leaves · 32 bytes), keeping only two levels above the leaves in memory
 * (n/base·32 bytes). threads = 0 means 1. CUZK_ERR_NOT_CANONICAL names the first leaf >= r. */
cuzk_status cuzk_poseidon_tree_root(uint8_t root[CUZK_FR_BYTES], const uint8_t *leaves, uint64_t n_leaves,
                                    const cuzk_poseidon_tree_shape *shape, unsigned threads, cuzk_errmsg *err);

/* A whole tree in memory (about 1.15 · 32 bytes a leaf at arity 8), for paths. */
typedef struct cuzk_poseidon_tree cuzk_poseidon_tree;
cuzk_status cuzk_poseidon_tree_build(cuzk_poseidon_tree **out, const uint8_t *leaves, uint64_t n_leaves,
                                     const cuzk_poseidon_tree_shape *shape, unsigned threads, cuzk_errmsg *err);
void cuzk_poseidon_tree_free(cuzk_poseidon_tree *t);
void cuzk_poseidon_tree_root_of(const cuzk_poseidon_tree *t, uint8_t root[CUZK_FR_BYTES]);
uint64_t cuzk_poseidon_tree_leaves(const cuzk_poseidon_tree *t);

/* One level of an inclusion path, as the vanilla proofs carry it (storage-proofs-core PathElement): the arity - 1
 * other children of the path's node's parent in order (the node itself left out), and the node's place among them. */
typedef struct {
    uint32_t arity;
    uint32_t index; /* 0 .. arity − 1 */
    uint8_t siblings[CUZK_POSEIDON_TREE_MAX_ARITY - 1][CUZK_FR_BYTES];
} cuzk_poseidon_path_elem;

/* The leaf and the path (leaf level first, *len elements; path must hold CUZK_POSEIDON_TREE_MAX_LEVELS) of leaf
 * leaf_index. CUZK_ERR_INVALID_ARG when the index is out of range. */
cuzk_status cuzk_poseidon_tree_path(const cuzk_poseidon_tree *t, uint64_t leaf_index, uint8_t leaf[CUZK_FR_BYTES],
                                    cuzk_poseidon_path_elem *path, unsigned *len, cuzk_errmsg *err);
/* The root a path leads to from leaf. CUZK_ERR_INVALID_ARG for an arity or index out of range, CUZK_ERR_NOT_CANONICAL
 * for a node >= r. */
cuzk_status cuzk_poseidon_path_root(uint8_t root[CUZK_FR_BYTES], const uint8_t leaf[CUZK_FR_BYTES],
                                    const cuzk_poseidon_path_elem *path, unsigned len, cuzk_errmsg *err);
/* The leaf index a path's indices spell (mixed radix, leaf level least significant). */
uint64_t cuzk_poseidon_path_index(const cuzk_poseidon_path_elem *path, unsigned len);
/* Checks a path for leaf leaf_index of a tree of n_leaves leaves of this shape with the given root:
 * CUZK_ERR_MISMATCH when its length, arities or indices do not fit the shape and index, CUZK_ERR_PROOF_INVALID when it
 * leads to another root. */
cuzk_status cuzk_poseidon_path_verify(const cuzk_poseidon_tree_shape *shape, uint64_t n_leaves, uint64_t leaf_index,
                                      const uint8_t leaf[CUZK_FR_BYTES], const cuzk_poseidon_path_elem *path,
                                      unsigned len, const uint8_t root[CUZK_FR_BYTES], cuzk_errmsg *err);
/* ==== end of Poseidon ============================================================================================= */

/* ==== Constraint systems with bellperson semantics ================================================================
 *
 * A circuit is one C function made of gadgets; the same function runs in each mode of the constraint system (cs)
 * it is given:
 *   CUZK_CS_SHAPE    records the rows (A, B, C) into CSR arrays; cuzk_cs_finish turns them into a cuzk_r1cs_t
 *   CUZK_CS_WITNESS  writes only the assignment, straight into a caller's z = [inputs | aux]: no row is built
 *   CUZK_CS_CHECK    both, and every row is checked against the values as it is enforced; the first unsatisfied
 *                    row is named by its gadget path ("por/base/merkle tree hash 3/.../boolean constraint")
 *   CUZK_CS_COUNT    counts variables, rows and non-zeros only (sizing before a parallel shape build)
 *
 * Numbering is bellperson's: ONE is input 0, inputs and aux are numbered separately in allocation order, and in the
 * system every input column comes before every aux column. Rows are numbered in enforce order. The system holds only
 * the synthesized rows: the Groth16 prover appends the rows input_i·0 = 0 itself (groth16.h, bellperson convention).
 * A row's linear combinations are stored as bellpepper's LinearCombination leaves them: repeated variables summed,
 * zero coefficients dropped, columns ascending; so equal circuits give equal bytes and equal cuzk_r1cs_identity.
 *
 * Gadgets carry their values in their handles (cuzk_bit, cuzk_num, cuzk_u32), as bellpepper's AllocatedBit and
 * AllocatedNum do, and compute them in every mode; in SHAPE and COUNT modes the values are whatever the circuit
 * feeds in (zeros for a blank circuit) and are never stored. The structure never depends on a value.
 *
 * Errors are sticky: the first failure (out of memory, more variables than the caller's z holds, a gadget given
 * arguments bellperson would panic on) is kept in the cs and every later call does nothing harmful; the circuit
 * checks cuzk_cs_status() when it likes, cuzk_cs_finish() always reports it. An unsatisfied row in CHECK mode is not
 * an error until cuzk_cs_finish, which returns CUZK_ERR_R1CS_UNSATISFIED naming it.
 *
 * Limits: fewer than 2^31 inputs and 2^31 aux variables; at most 2^32 − 1 variables in all. */

/* A variable: input i is i, aux j is CUZK_VAR_AUX | j (so inputs sort before aux). ONE is input 0. */
typedef uint32_t cuzk_var;
#define CUZK_VAR_AUX 0x80000000u
#define CUZK_VAR_ONE ((cuzk_var)0)

typedef enum {
    CUZK_CS_COUNT = 0,
    CUZK_CS_SHAPE = 1,
    CUZK_CS_WITNESS = 2,
    CUZK_CS_CHECK = 3,
} cuzk_cs_mode;

/* What a mode does (cuzk_cs.flags). */
#define CUZK_CS_F_LC 1u     /* gadgets build their linear combinations (SHAPE, CHECK, COUNT) */
#define CUZK_CS_F_ROWS 2u   /* rows are stored (SHAPE, CHECK) */
#define CUZK_CS_F_VALUES 4u /* values are stored (WITNESS, CHECK) */
#define CUZK_CS_F_EVAL 8u   /* rows are checked against the values (CHECK) */
#define CUZK_CS_F_NAMES 16u /* namespaces are kept (CHECK, or a watched row) */

/* What a cs (or one block of it) holds or allocated: inputs (a root cs counts ONE), aux, rows, non-zeros of A, B, C
 * (zero outside SHAPE, CHECK and COUNT). */
typedef struct {
    uint64_t inputs, aux, rows, nnz[3];
} cuzk_cs_counts;

struct cuzk_cs_int;

/* The fields are read by the inline functions below; everything else goes through functions. */
typedef struct cuzk_cs {
    unsigned flags;                /* CUZK_CS_F_* */
    cuzk_status status;            /* first error (sticky) */
    uint32_t next_input, next_aux; /* numbers the next allocations get */
    uint64_t next_row;             /* rows enforced so far (the next row's number) */
    uint64_t nnz[3];               /* non-zeros so far */
    cuzk_fr_t *in_vals, *aux_vals; /* CUZK_CS_F_VALUES: value slots, by input / aux number */
    uint32_t in_lim, aux_lim;      /* slots available in in_vals / aux_vals */
    cuzk_fr_t one;                 /* 1 in Montgomery form */
    struct cuzk_cs_int *in;
} cuzk_cs;

/* A new cs in mode. For WITNESS and CHECK, z (may be NULL) is where values go: z[0 .. num_inputs) the inputs
 * (z[0] = 1 is written now), then num_aux aux values, exactly as many as the circuit allocates (cuzk_cs_finish
 * checks); this is the layout cuzk_r1cs_check and the provers take, and z may be pinned memory. With z NULL the cs
 * grows its own arrays and cuzk_cs_finish hands them out. NULL when out of memory or mode is unknown. */
cuzk_cs *cuzk_cs_new(cuzk_cs_mode mode, cuzk_fr_t *z, uint64_t num_inputs, uint64_t num_aux);

/* Ends synthesis and frees cs (also on failure). Returns the sticky error, else CUZK_ERR_R1CS_UNSATISFIED with the
 * row number and gadget path (CHECK), else CUZK_ERR_MISMATCH when a caller's z was not filled exactly. shape (SHAPE,
 * CHECK; may be NULL) receives the system through cuzk_r1cs_adopt (canonical coefficient ids, densities, identity);
 * z (WITNESS, CHECK without a caller's z; may be NULL) the malloc'd assignment [inputs | aux]. */
cuzk_status cuzk_cs_finish(cuzk_cs *cs, cuzk_r1cs_t **shape, cuzk_fr_t **z, cuzk_errmsg *err);
void cuzk_cs_free(cuzk_cs *cs);

void cuzk_cs_get_counts(const cuzk_cs *cs, cuzk_cs_counts *out);
static inline cuzk_status cuzk_cs_status(const cuzk_cs *cs) { return cs->status; }
static inline bool cuzk_cs_builds_lc(const cuzk_cs *cs) { return (cs->flags & CUZK_CS_F_LC) != 0; }
static inline bool cuzk_cs_has_values(const cuzk_cs *cs) { return (cs->flags & CUZK_CS_F_VALUES) != 0; }
/* Records the first error, formatted as cuzk_fail does; later ones are ignored. */
void cuzk_cs_fail(cuzk_cs *cs, cuzk_status s, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The sticky error's detail ("" when none). */
const char *cuzk_cs_errmsg(const cuzk_cs *cs);

/* ---- namespaces (bellperson's cs.namespace(|| name)): kept in CHECK mode or for a watched row, else free -------- */
void cuzk_cs_push_(cuzk_cs *cs, const char *name);
void cuzk_cs_pushf_(cuzk_cs *cs, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cuzk_cs_pop_(cuzk_cs *cs);
static inline void cuzk_cs_push(cuzk_cs *cs, const char *name)
{
    if (cs->flags & CUZK_CS_F_NAMES) cuzk_cs_push_(cs, name);
}
/* The arguments are not evaluated unless namespaces are kept. */
#define cuzk_cs_pushf(cs, ...) (((cs)->flags & CUZK_CS_F_NAMES) ? cuzk_cs_pushf_((cs), __VA_ARGS__) : (void)0)
static inline void cuzk_cs_pop(cuzk_cs *cs)
{
    if (cs->flags & CUZK_CS_F_NAMES) cuzk_cs_pop_(cs);
}
/* The current path ("" when namespaces are not kept). */
const char *cuzk_cs_path(const cuzk_cs *cs);
/* Keeps namespaces (in any mode) to name row `row` when it is enforced: for a row that cuzk_r1cs_check reports
 * unsatisfied, rerun the circuit in WITNESS mode with the row watched. Call before synthesis. cuzk_cs_watched: the
 * row's path ("path/constraint name"), NULL until it is enforced (read it before cuzk_cs_finish). */
cuzk_status cuzk_cs_watch_row(cuzk_cs *cs, uint64_t row);
const char *cuzk_cs_watched(const cuzk_cs *cs);

/* ---- allocation ------------------------------------------------------------------------------------------------- */
void cuzk_cs_grow_(cuzk_cs *cs, bool input);

/* cs.alloc(|| value): the next aux variable. value may be NULL outside WITNESS and CHECK. */
static inline cuzk_var cuzk_cs_alloc(cuzk_cs *cs, const cuzk_fr_t *value)
{
    uint32_t j = cs->next_aux;
    if (cs->flags & CUZK_CS_F_VALUES) {
        if (j >= cs->aux_lim) cuzk_cs_grow_(cs, false);
        if (j < cs->aux_lim) cs->aux_vals[j] = *value;
    }
    if (j < CUZK_VAR_AUX - 1) cs->next_aux = j + 1;
    else cuzk_cs_fail(cs, CUZK_ERR_TOO_LARGE, "more than 2^31 aux variables");
    return CUZK_VAR_AUX | j;
}

/* An aux variable holding 0 or 1 (one store, no field arithmetic). */
static inline cuzk_var cuzk_cs_alloc_bool(cuzk_cs *cs, bool value)
{
    uint32_t j = cs->next_aux;
    if (cs->flags & CUZK_CS_F_VALUES) {
        if (j >= cs->aux_lim) cuzk_cs_grow_(cs, false);
        if (j < cs->aux_lim) {
            cuzk_fr_t *v = &cs->aux_vals[j];
            for (int i = 0; i < CUZK_FR_LIMBS; i++) v->l[i] = value ? cs->one.l[i] : 0;
        }
    }
    if (j < CUZK_VAR_AUX - 1) cs->next_aux = j + 1;
    else cuzk_cs_fail(cs, CUZK_ERR_TOO_LARGE, "more than 2^31 aux variables");
    return CUZK_VAR_AUX | j;
}

/* cs.alloc_input(|| value): the next input variable. */
static inline cuzk_var cuzk_cs_alloc_input(cuzk_cs *cs, const cuzk_fr_t *value)
{
    uint32_t i = cs->next_input;
    if (cs->flags & CUZK_CS_F_VALUES) {
        if (i >= cs->in_lim) cuzk_cs_grow_(cs, true);
        if (i < cs->in_lim) cs->in_vals[i] = *value;
    }
    if (i < CUZK_VAR_AUX - 1) cs->next_input = i + 1;
    else cuzk_cs_fail(cs, CUZK_ERR_TOO_LARGE, "more than 2^31 inputs");
    return i;
}

/* The value of a variable (WITNESS and CHECK; NULL otherwise or when out of range). */
const cuzk_fr_t *cuzk_cs_value(const cuzk_cs *cs, cuzk_var v);

/* ---- linear combinations and constraints ------------------------------------------------------------------------ */
typedef struct {
    cuzk_var var;
    cuzk_fr_t coeff; /* Montgomery form */
} cuzk_term;

/* A growable list of terms in any order, repeats allowed (summed when the row is stored). Start one on the stack
 * with CUZK_LC_ON(array) (it moves to the heap if it outgrows the array) or as CUZK_LC_EMPTY; cuzk_lc_free releases
 * what moved to the heap. */
typedef struct {
    cuzk_term *t;
    uint32_t n, cap;
    bool heap;
} cuzk_lc;
#define CUZK_LC_ON(arr) ((cuzk_lc){(arr), 0, (uint32_t)(sizeof(arr) / sizeof((arr)[0])), false})
#define CUZK_LC_EMPTY ((cuzk_lc){NULL, 0, 0, false})
void cuzk_lc_free(cuzk_lc *lc);
static inline void cuzk_lc_clear(cuzk_lc *lc) { lc->n = 0; }

/* 2^k (k < 256), 1 and −1 in Montgomery form, for coefficients. */
const cuzk_fr_t *cuzk_cs_pow2(unsigned k);
const cuzk_fr_t *cuzk_cs_minus_one(void);

/* lc += coeff·v (coeff NULL = 1); lc −= v; lc += coeff·other (coeff NULL = 1). cs takes an out-of-memory error. */
void cuzk_lc_add(cuzk_cs *cs, cuzk_lc *lc, cuzk_var v, const cuzk_fr_t *coeff);
void cuzk_lc_sub(cuzk_cs *cs, cuzk_lc *lc, cuzk_var v);
void cuzk_lc_add_lc(cuzk_cs *cs, cuzk_lc *lc, const cuzk_lc *other, const cuzk_fr_t *coeff);

void cuzk_cs_enforce_(cuzk_cs *cs, const char *name, const cuzk_lc *a, const cuzk_lc *b, const cuzk_lc *c);
/* cs.enforce(|| name, a, b, c): the next row, (A·z)(B·z) = C·z. Without CUZK_CS_F_LC (WITNESS) only the row count
 * moves and a, b, c are not read (they may be NULL): gadgets build them only when cuzk_cs_builds_lc(cs). */
static inline void cuzk_cs_enforce(cuzk_cs *cs, const char *name, const cuzk_lc *a, const cuzk_lc *b, const cuzk_lc *c)
{
    if (cs->flags & (CUZK_CS_F_LC | CUZK_CS_F_NAMES)) cuzk_cs_enforce_(cs, name, a, b, c);
    else cs->next_row++;
}

/* ---- independent blocks, synthesized in parallel ---------------------------------------------------------------- */
/* A block fn synthesizes block number `block` into cs, a sub-cs that numbers its inputs, aux and rows exactly where
 * sequential synthesis would: after everything cs's parent held, then after every earlier block. A block may use the
 * parent's variables (handles made before the call) and its own; never another block's. It writes results for later
 * sequential code only into its own slot of ctx. Its namespaces start at the parent's current path. */
typedef void (*cuzk_cs_block_fn)(cuzk_cs *cs, void *ctx, uint64_t block);

#define CUZK_CS_BLOCKS_UNIFORM 1u /* every block allocates and enforces what block 0 does */
#define CUZK_CS_BLOCKS_NO_HANDLES                                                                                      \
    2u /* with UNIFORM: nothing after the call reads what blocks leave in ctx, so a COUNT
                                      * cs counts block 0 (unless counts are given) and runs no block */

/* Synthesizes blocks 0 .. nblocks-1 on `threads` threads (0 = 1) and leaves cs exactly as calling fn(cs, ctx, 0),
 * fn(cs, ctx, 1), ... in order would have (numbering, rows, values, the first unsatisfied row), for every thread
 * count. counts (may be NULL) gives each block's counts (inputs, aux, rows and, where rows are built, non-zeros, all
 * as allocated by the block; one entry with CUZK_CS_BLOCKS_UNIFORM, else nblocks); without it a counting pass
 * runs first (block 0 only when uniform). A block that allocates or enforces other than its counts say fails with
 * CUZK_ERR_MISMATCH. Every mode, COUNT included, runs each block once at its true numbers (plus the counting pass),
 * so the handles blocks leave in ctx are the ones sequential synthesis would leave; except COUNT with
 * CUZK_CS_BLOCKS_NO_HANDLES, which only adds nblocks times the uniform counts. */
cuzk_status cuzk_cs_blocks(cuzk_cs *cs, uint64_t nblocks, cuzk_cs_block_fn fn, void *ctx, const cuzk_cs_counts *counts,
                           unsigned flags, unsigned threads);
/* What block `block` would allocate and enforce after cs's current contents (non-zeros included), cs unchanged: the
 * counts to keep for later cuzk_cs_blocks calls in any mode. */
cuzk_status cuzk_cs_count_block(cuzk_cs *cs, cuzk_cs_block_fn fn, void *ctx, uint64_t block, cuzk_cs_counts *out);

/* ---- Boolean (bellpepper boolean.rs) ---------------------------------------------------------------------------- */
enum { CUZK_BIT_CONST = 0, CUZK_BIT_IS = 1, CUZK_BIT_NOT = 2 };

/* Boolean::Constant(val), Boolean::Is(var) or Boolean::Not(var). val is the Boolean's own value (for NOT, the
 * negation of var's value). */
typedef struct {
    cuzk_var var;
    uint8_t kind;
    uint8_t val;
} cuzk_bit;

static inline cuzk_bit cuzk_bit_const(bool v)
{
    cuzk_bit b;
    b.var = 0;
    b.kind = CUZK_BIT_CONST;
    b.val = (uint8_t)v;
    return b;
}
/* Boolean::not: no constraint. */
static inline cuzk_bit cuzk_bit_not(cuzk_bit b)
{
    b.kind = b.kind == CUZK_BIT_CONST ? CUZK_BIT_CONST : (uint8_t)(3 - b.kind);
    b.val ^= 1;
    return b;
}
static inline bool cuzk_bit_is_const(cuzk_bit b) { return b.kind == CUZK_BIT_CONST; }

/* AllocatedBit::alloc: one aux, (1 − b)·b = 0. */
cuzk_bit cuzk_bit_alloc(cuzk_cs *cs, bool value);
/* AllocatedBit::alloc_conditionally: one aux, (1 − must_be_false − b)·b = 0 (must_be_false an allocated bit). */
cuzk_bit cuzk_bit_alloc_conditionally(cuzk_cs *cs, bool value, cuzk_bit must_be_false);
/* AllocatedBit::xor / and / and_not / nor on the variables of two allocated bits (kind IS; NOT is taken as its
 * variable, as bellperson does with the AllocatedBit inside): one aux and one row each. */
cuzk_bit cuzk_abit_xor(cuzk_cs *cs, cuzk_bit a, cuzk_bit b);
cuzk_bit cuzk_abit_and(cuzk_cs *cs, cuzk_bit a, cuzk_bit b);
cuzk_bit cuzk_abit_and_not(cuzk_cs *cs, cuzk_bit a, cuzk_bit b);
cuzk_bit cuzk_abit_nor(cuzk_cs *cs, cuzk_bit a, cuzk_bit b);
/* Boolean::xor / and / or / sha256_ch / sha256_maj with bellperson's constant folding and allocation order. */
cuzk_bit cuzk_bit_xor(cuzk_cs *cs, cuzk_bit a, cuzk_bit b);
cuzk_bit cuzk_bit_and(cuzk_cs *cs, cuzk_bit a, cuzk_bit b);
cuzk_bit cuzk_bit_or(cuzk_cs *cs, cuzk_bit a, cuzk_bit b);
cuzk_bit cuzk_bit_sha256_ch(cuzk_cs *cs, cuzk_bit a, cuzk_bit b, cuzk_bit c);
cuzk_bit cuzk_bit_sha256_maj(cuzk_cs *cs, cuzk_bit a, cuzk_bit b, cuzk_bit c);
/* Boolean::enforce_equal: one row 0·0 = a − b (none for two constants; unequal constants fail the cs). */
void cuzk_bit_enforce_equal(cuzk_cs *cs, cuzk_bit a, cuzk_bit b);
/* lc += Boolean::lc(ONE, coeff) (coeff NULL = 1): coeff·ONE for true, nothing for false, coeff·v, coeff·(ONE − v). */
void cuzk_lc_add_bit(cuzk_cs *cs, cuzk_lc *lc, cuzk_bit b, const cuzk_fr_t *coeff);
/* u64_into_boolean_vec_le: 64 allocated bits, least significant first. */
void cuzk_bit_alloc_u64_le(cuzk_cs *cs, uint64_t value, cuzk_bit out[64]);
/* bytes_into_boolean_vec (bits of each byte least significant first) / _be (most significant first): 8·n bits. */
void cuzk_bit_alloc_bytes_le(cuzk_cs *cs, const uint8_t *bytes, size_t n, cuzk_bit *out);
void cuzk_bit_alloc_bytes_be(cuzk_cs *cs, const uint8_t *bytes, size_t n, cuzk_bit *out);
/* storage-proofs-core reverse_bit_numbering: pads bits to a whole number of bytes with constant false (n to
 * ceil(n/8)·8; out must hold that many) and reverses the bits within each byte. Returns the padded length. */
size_t cuzk_bit_reverse_bit_numbering(const cuzk_bit *bits, size_t n, cuzk_bit *out);

/* ---- AllocatedNum (bellpepper num.rs) and storage-proofs-core constraint.rs / encode.rs -------------------------- */
typedef struct {
    cuzk_var var;
    cuzk_fr_t val;
} cuzk_num;

#define CUZK_NUM_BITS 255u     /* Fr::NUM_BITS */
#define CUZK_NUM_CAPACITY 254u /* Fr::CAPACITY */

/* AllocatedNum::alloc / alloc_input (value may be NULL in SHAPE and COUNT modes: zero). No row. */
cuzk_num cuzk_num_alloc(cuzk_cs *cs, const cuzk_fr_t *value);
cuzk_num cuzk_num_alloc_input(cuzk_cs *cs, const cuzk_fr_t *value);
/* AllocatedNum::inputize: a new input x, x·1 = n. */
void cuzk_num_inputize(cuzk_cs *cs, cuzk_num n);
/* AllocatedNum::add / mul / square: a new aux and one row ((a + b)·1 = c, a·b = c, a·a = c). */
cuzk_num cuzk_num_add(cuzk_cs *cs, cuzk_num a, cuzk_num b);
cuzk_num cuzk_num_mul(cuzk_cs *cs, cuzk_num a, cuzk_num b);
cuzk_num cuzk_num_square(cuzk_cs *cs, cuzk_num a);
/* AllocatedNum::assert_nonzero: an aux (the inverse; 0 for 0, which the row then rejects) and a·inv = 1. */
void cuzk_num_assert_nonzero(cuzk_cs *cs, cuzk_num a);
/* AllocatedNum::conditionally_reverse: (b, a) when cond, else (a, b); two aux and two rows. */
void cuzk_num_conditionally_reverse(cuzk_cs *cs, cuzk_num a, cuzk_num b, cuzk_bit cond, cuzk_num *c, cuzk_num *d);
/* AllocatedNum::to_bits_le: 255 allocated bits (least significant first) then 0·0 = Σ 2^i b_i − n (256 rows). */
void cuzk_num_to_bits_le(cuzk_cs *cs, cuzk_num n, cuzk_bit out[CUZK_NUM_BITS]);
/* AllocatedNum::to_bits_le_strict: bits constrained to a value below r (runs of ones of r − 1 and-ed). */
void cuzk_num_to_bits_le_strict(cuzk_cs *cs, cuzk_num n, cuzk_bit out[CUZK_NUM_BITS]);
/* constraint::equal: a·1 = b. */
void cuzk_num_equal(cuzk_cs *cs, const char *name, cuzk_num a, cuzk_num b);
/* constraint::sum: (a + b)·1 = sum; constraint::difference: (diff + b)·1 = a. */
void cuzk_num_sum(cuzk_cs *cs, const char *name, cuzk_num a, cuzk_num b, cuzk_num sum);
void cuzk_num_difference(cuzk_cs *cs, const char *name, cuzk_num a, cuzk_num b, cuzk_num diff);
/* constraint::sub (= encode's decode with (value, key)): a new aux a − b, then difference. constraint::add and
 * encode::encode are cuzk_num_add (the same row). */
cuzk_num cuzk_num_sub(cuzk_cs *cs, cuzk_num a, cuzk_num b);

/* bellpepper's Num: a value with its linear combination, for sums built before (or instead of) an allocation
 * (neptune's Elt::Num). The combination is built only when cuzk_cs_builds_lc(cs); the value always. */
typedef struct {
    cuzk_fr_t val;
    cuzk_lc lc;
} cuzk_lcnum;
void cuzk_lcnum_init(cuzk_lcnum *n); /* Num::zero */
void cuzk_lcnum_free(cuzk_lcnum *n);
/* n += k·x (k NULL = 1), n += k·ONE, n += Boolean::lc(ONE, k) (add_bool_with_coeff), n += k·other. */
void cuzk_lcnum_add_num(cuzk_cs *cs, cuzk_lcnum *n, cuzk_num x, const cuzk_fr_t *k);
void cuzk_lcnum_add_const(cuzk_cs *cs, cuzk_lcnum *n, const cuzk_fr_t *k);
void cuzk_lcnum_add_bit(cuzk_cs *cs, cuzk_lcnum *n, cuzk_bit b, const cuzk_fr_t *k);
void cuzk_lcnum_add(cuzk_cs *cs, cuzk_lcnum *n, const cuzk_lcnum *other, const cuzk_fr_t *k);
/* Num::scale: n *= k. */
void cuzk_lcnum_scale(cuzk_cs *cs, cuzk_lcnum *n, const cuzk_fr_t *k);
/* A new aux holding n's value and, when enforce, the row n·1 = x (neptune's ensure_allocated). */
cuzk_num cuzk_lcnum_alloc(cuzk_cs *cs, const cuzk_lcnum *n, bool enforce);

/* ---- multipack (bellperson multipack.rs) ------------------------------------------------------------------------- */
/* pack_bits: the first min(n, 254) bits as Σ 2^i b_i: a new aux and one row (Σ…)·1 = x. */
cuzk_num cuzk_multipack_pack_bits(cuzk_cs *cs, const cuzk_bit *bits, size_t n);
/* pack_into_inputs: per chunk of 254 bits an input x and (Σ…)·1 = x. */
void cuzk_multipack_pack_into_inputs(cuzk_cs *cs, const cuzk_bit *bits, size_t n);
/* compute_multipacking: the values pack_into_inputs exposes, ceil(n/254) of them into out; returns the count. */
size_t cuzk_multipack_compute(const bool *bits, size_t n, cuzk_fr_t *out);
/* bytes_to_bits (most significant bit of each byte first) and bytes_to_bits_le: 8·n bools. */
void cuzk_multipack_bytes_to_bits(const uint8_t *bytes, size_t n, bool *bits);
void cuzk_multipack_bytes_to_bits_le(const uint8_t *bytes, size_t n, bool *bits);

/* ---- UInt32 and MultiEq (bellperson uint32.rs, multieq.rs) ------------------------------------------------------- */
typedef struct {
    cuzk_bit b[32]; /* least significant first */
    uint32_t val;
} cuzk_u32;

/* MultiEq: equalities of at most 253 bits each packed into shared rows lhs·1 = rhs, each new one shifted by 2^bits
 * used; a row is emitted when the next one would reach 254 bits, and by cuzk_multieq_finish (bellperson's Drop). */
typedef struct {
    cuzk_cs *cs;
    unsigned bits_used;
    uint64_t ops;
    cuzk_lc lhs, rhs;
} cuzk_multieq;
void cuzk_multieq_init(cuzk_multieq *me, cuzk_cs *cs);
void cuzk_multieq_enforce_equal(cuzk_multieq *me, unsigned num_bits, const cuzk_lc *lhs, const cuzk_lc *rhs);
void cuzk_multieq_finish(cuzk_multieq *me);

void cuzk_u32_const(uint32_t v, cuzk_u32 *out);
/* UInt32::alloc: 32 allocated bits. */
void cuzk_u32_alloc(cuzk_cs *cs, uint32_t v, cuzk_u32 *out);
/* from_bits (least significant first) / from_bits_be; into_bits / into_bits_be (32 bits out). */
void cuzk_u32_from_bits(const cuzk_bit bits[32], cuzk_u32 *out);
void cuzk_u32_from_bits_be(const cuzk_bit bits[32], cuzk_u32 *out);
void cuzk_u32_into_bits_be(const cuzk_u32 *a, cuzk_bit out[32]);
/* rotr / shr: no constraint. In these and the functions below, out may be an operand. */
void cuzk_u32_rotr(const cuzk_u32 *a, unsigned by, cuzk_u32 *out);
void cuzk_u32_shr(const cuzk_u32 *a, unsigned by, cuzk_u32 *out);
/* xor, sha256_maj, sha256_ch bit by bit (Boolean's folding). out may alias an operand. */
void cuzk_u32_xor(cuzk_cs *cs, const cuzk_u32 *a, const cuzk_u32 *b, cuzk_u32 *out);
void cuzk_u32_sha256_maj(cuzk_cs *cs, const cuzk_u32 *a, const cuzk_u32 *b, const cuzk_u32 *c, cuzk_u32 *out);
void cuzk_u32_sha256_ch(cuzk_cs *cs, const cuzk_u32 *a, const cuzk_u32 *b, const cuzk_u32 *c, cuzk_u32 *out);
/* addmany of 2..10 operands: a constant when every bit is, else bitlen(n·(2^32 − 1)) allocated result bits and the
 * equality deferred into me. */
void cuzk_u32_addmany(cuzk_cs *cs, cuzk_multieq *me, const cuzk_u32 *ops, size_t n, cuzk_u32 *out);

/* ---- UInt64 (storage-proofs-core uint64.rs) ---------------------------------------------------------------------- */
typedef struct {
    cuzk_bit b[64]; /* least significant first */
    uint64_t val;
} cuzk_u64;
void cuzk_u64_const(uint64_t v, cuzk_u64 *out);
/* UInt64::alloc: 64 allocated bits. */
void cuzk_u64_alloc(cuzk_cs *cs, uint64_t v, cuzk_u64 *out);
/* pack_into_input: its 64 bits as one input (one row). */
void cuzk_u64_pack_into_input(cuzk_cs *cs, const cuzk_u64 *a);
void cuzk_u64_from_bits(const cuzk_bit bits[64], cuzk_u64 *out);
void cuzk_u64_from_bits_be(const cuzk_bit bits[64], cuzk_u64 *out);
void cuzk_u64_to_bits_be(const cuzk_u64 *a, cuzk_bit out[64]);

/* ---- SHA-256 (bellperson sha256.rs) and filecoin-hashers' Sha256Function circuits -------------------------------- */
/* sha256_compression_function: 512 message bits (most significant bit of each word first) into the state cur; out
 * may be cur. */
void cuzk_sha256_gadget_compression(cuzk_cs *cs, const cuzk_bit in[512], const cuzk_u32 cur[8], cuzk_u32 out[8]);
void cuzk_sha256_gadget_iv(cuzk_u32 iv[8]);
/* sha256_block_no_padding: one compression from the IV; out 256 bits, big-endian. */
void cuzk_sha256_gadget_block_no_padding(cuzk_cs *cs, const cuzk_bit in[512], cuzk_bit out[256]);
/* sha256: the padded message (nbits a multiple of 8) block by block; out 256 bits, big-endian. */
void cuzk_sha256_gadget(cuzk_cs *cs, const cuzk_bit *in, size_t nbits, cuzk_bit out[256]);
/* Sha256Function::hash_circuit: sha256 of bits, the digest's bits reordered little-endian within each byte, the first
 * 254 packed (pack_bits). */
cuzk_num cuzk_sha256_gadget_hash_bits(cuzk_cs *cs, const cuzk_bit *bits, size_t nbits);
/* hash_leaf_bits_circuit: each side padded to whole bytes and reverse_bit_numbering'd, then hash_bits. */
cuzk_num cuzk_sha256_gadget_hash_leaf_bits(cuzk_cs *cs, const cuzk_bit *left, size_t nl, const cuzk_bit *right,
                                           size_t nr);
/* hash2_circuit and hash_leaf_circuit (the same rows): to_bits_le of a, then of b, then hash_leaf_bits. */
cuzk_num cuzk_sha256_gadget_hash2(cuzk_cs *cs, cuzk_num a, cuzk_num b);
/* hash_multi_leaf_circuit: to_bits_le of every leaf in order, then as hash2 (height unused). */
cuzk_num cuzk_sha256_gadget_hash_multi_leaf(cuzk_cs *cs, const cuzk_num *leaves, size_t n);

/* ---- insertion (storage-proofs-core insertion.rs) ---------------------------------------------------------------- */
/* pick: a new aux c = cond ? a : b, (b − a)·cond = b − c. */
cuzk_num cuzk_insert_pick(cuzk_cs *cs, cuzk_bit cond, cuzk_num a, cuzk_num b);
/* insert: element placed after elements[index − 1], index given by nbits bits (least significant first); n + 1 =
 * 2^nbits results in out. 2, 4, 8 use insert_2 / insert_4 / insert_8 (2 / 8 / 22 rows; insert_8 needs allocated
 * bits b0, b1), other sizes the general selection (size·(size − 1) rows). */
void cuzk_insert(cuzk_cs *cs, cuzk_num element, const cuzk_bit *bits, unsigned nbits, const cuzk_num *elements,
                 cuzk_num *out);
/* select: from[index] over 2^nbits candidates, 2^nbits − 1 picks. */
cuzk_num cuzk_insert_select(cuzk_cs *cs, const cuzk_num *from, const cuzk_bit *bits, unsigned nbits);

/* ---- Merkle inclusion (storage-proofs-core por.rs) --------------------------------------------------------------- */
/* The hash hook: the node over `arity` children (in order), as the tree's Hasher::hash_multi_leaf_circuit does.
 * height is the level within its sub-path (por.rs passes its loop index). cuzk_sha256_gadget_por_hash is the binary
 * SHA-256 tree's (any arity); a Poseidon hook takes its constants through ctx. */
typedef cuzk_num (*cuzk_por_hash_fn)(cuzk_cs *cs, void *ctx, const cuzk_num *children, unsigned arity, unsigned height);
cuzk_num cuzk_sha256_gadget_por_hash(cuzk_cs *cs, void *ctx, const cuzk_num *children, unsigned arity, unsigned height);

/* A tree's shape (MerkleTreeTrait's Arity, SubTreeArity, TopTreeArity; 0 = none) and hash. base_levels is the base
 * path's length: log_base_arity(leaves per base tree). */
typedef struct {
    unsigned base_arity, sub_arity, top_arity;
    unsigned base_levels;
    cuzk_por_hash_fn hash;
    void *hash_ctx;
} cuzk_por_tree;

/* Levels in all, challenge bits (Σ log2 arity) and sibling values (Σ arity − 1) of a path. */
unsigned cuzk_por_levels(const cuzk_por_tree *t);
unsigned cuzk_por_challenge_bits(const cuzk_por_tree *t);
unsigned cuzk_por_siblings(const cuzk_por_tree *t);

/* variables::Root: a number already allocated (Var) or a value to allocate where the gadget first needs it (Val). */
typedef struct {
    cuzk_num num; /* Val: only num.val is read */
    bool is_var;
} cuzk_por_root;

/* PoRCircuit::synthesize: value (namespace "value"), then per level of base, sub and top: index bits (from
 * challenge), the siblings (cuzk_por_siblings values in path order), insert, hash; then pack_into_inputs of the
 * challenge bits ("path"), root ("root_value"), root == computed, and unless private, root made an input. */
void cuzk_por_circuit(cuzk_cs *cs, const cuzk_por_tree *t, cuzk_por_root value, uint64_t challenge,
                      const cuzk_fr_t *siblings, cuzk_por_root root, bool private_root);
/* por_no_challenge_input: challenge bits (allocated, least significant first) and sibling numbers given; insert and
 * hash per level; then computed·1 = root. */
void cuzk_por_no_challenge_input(cuzk_cs *cs, const cuzk_por_tree *t, const cuzk_bit *challenge_bits, cuzk_num leaf,
                                 const cuzk_num *siblings, cuzk_num root);

/* ---- Poseidon gadget (neptune circuit.rs, the legacy poseidon_hash circuit) -------------------------------------
 * The circuit Filecoin's keys fix: state element 0 is the tag (a constant, so round 0's tag S-box costs nothing),
 * elements 1..arity the inputs; every later S-box input is allocated (ensure_allocated: lc·1 = x), then x², x⁴ and
 * x⁵ + post key, each one row; the MDS layers are free (linear combinations). The aux values are those of the
 * optimised schedule above. Rows = aux = 3·arity + 4·(RF·t + RP − t) + 1: arity 2 / 4 / 8 / 11 / 16 = 311 / 377 /
 * 505 / 598 / 761. */

/* Poseidon(tag, in[0..arity−1]) for arity 2, 4, 8, 11, 16, 24 or 36; the digest's handle. Other arities fail the cs
 * (CUZK_ERR_INVALID_ARG). In SHAPE and COUNT modes the digest's value is zero (the permutation is not run). */
cuzk_num cuzk_poseidon_gadget_hash(cuzk_cs *cs, unsigned arity, const cuzk_fr_t *tag, const cuzk_num *in);
/* The PoR hook of Poseidon trees (filecoin-hashers' hash_multi_leaf_circuit, also hash2_circuit for arity 2): the
 * MerkleTree tag of the node's arity; ctx and height unused. */
cuzk_num cuzk_poseidon_gadget_por_hash(cuzk_cs *cs, void *ctx, const cuzk_num *children, unsigned arity,
                                       unsigned height);

#ifdef __cplusplus
}
#endif

#endif
