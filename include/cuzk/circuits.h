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
    unsigned arity, width;               /* width t = arity + 1 */
    unsigned full_rounds, partial_rounds;
    const cuzk_fr_t *round_constants;    /* (RF+RP)·t textbook round keys, round r at [r·t] (Grain LFSR order) */
    const cuzk_fr_t *mds;                /* Cauchy MDS, M[i][j] = 1/(i + t + j), symmetric */
    const cuzk_fr_t *compressed;         /* RF·t + RP compressed round constants, in the order the schedule uses them */
    const cuzk_fr_t *pre_sparse;         /* the dense matrix of round h−1 */
    const cuzk_fr_t *sparse;             /* RP sparse matrices of 2t−1 values: w_hat[0..t−1], then v_rest[0..t−2] */
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

#ifdef __cplusplus
}
#endif

#endif
