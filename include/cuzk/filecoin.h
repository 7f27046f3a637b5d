/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk filecoin: Filecoin's side of a proof request — which circuit a registered proof names, the parameter files
 * that circuit needs, and the vanilla proofs Curio sends (PoSt and SnapDeals bincode, the PoRep commit-phase-1
 * JSON), decoded with every count, index and field element checked into compact C structures for the circuits.
 *
 * Byte strings of 32 bytes ("domains": commitments, tree nodes, labels) are kept as the Rust code stores them: the
 * little-endian representation of a BLS12-381 scalar. The decoders reject any that is not below r.
 * Layouts: docs/formats/filecoin-vanilla.md, filecoin-c1.md, filecoin-params.md.
 *
 * The SDR section (PoRep's graph, parent cache, labels, tree D, challenges and a test sealer; the cuzk_fil_sdr_
 * family) computes natively what sealing computes: docs/formats/sdr.md. */
#ifndef CUZK_FILECOIN_H
#define CUZK_FILECOIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cuzk/base.h"
#include "cuzk/circuits.h"
#include "cuzk/ff.h"
#include "cuzk/groth16.h"
#include "cuzk/r1cs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ==================================================================================================================
 * Registered proofs
 * ================================================================================================================== */

#define CUZK_FIL_NODE_BYTES 32
#define CUZK_FIL_MAX_LEVELS 32    /* longest Merkle path: tree D of a 64 GiB sector has 31 levels */
#define CUZK_FIL_DRG_PARENTS 6    /* base (DRG) parents of an SDR node */
#define CUZK_FIL_EXP_PARENTS 8    /* expander parents */
#define CUZK_FIL_LABEL_PARENTS 37 /* parents hashed into a label, repeated to this count */

/* A 32-byte node (commitment, tree node, label): the little-endian repr of a scalar below r. */
typedef uint8_t cuzk_fil_node[32];

/* Which abi enum a registered_proof number belongs to: the same number means different proofs in each. */
typedef enum {
    CUZK_FIL_CLASS_SEAL = 0,   /* abi.RegisteredSealProof: PoRep */
    CUZK_FIL_CLASS_POST = 1,   /* abi.RegisteredPoStProof: WinningPoSt and WindowPoSt */
    CUZK_FIL_CLASS_UPDATE = 2, /* abi.RegisteredUpdateProof: SnapDeals */
} cuzk_fil_class;

/* The circuit family. The PoRep kinds share one circuit per sector size (same parameters); SNAP_POSEIDON has
 * parameter files but no registered proof. */
typedef enum {
    CUZK_FIL_KIND_POREP = 0,   /* interactive SDR PoRep */
    CUZK_FIL_KIND_POREP_SYNTH, /* synthetic PoRep (same circuit, other challenge derivation) */
    CUZK_FIL_KIND_POREP_NI,    /* non-interactive PoRep (same circuit, more partitions, aggregated) */
    CUZK_FIL_KIND_WINNING_POST,
    CUZK_FIL_KIND_WINDOW_POST,
    CUZK_FIL_KIND_SNAP,          /* EmptySectorUpdate (SnapDeals) */
    CUZK_FIL_KIND_SNAP_POSEIDON, /* EmptySectorUpdate-Poseidon: not reachable from the proofs API */
    CUZK_FIL_KIND_COUNT
} cuzk_fil_kind;

/* The proofs API version a registered proof selects (rust-filecoin-proofs-api ApiVersion). */
typedef enum { CUZK_FIL_API_1_0 = 0, CUZK_FIL_API_1_1 = 1, CUZK_FIL_API_1_2 = 2 } cuzk_fil_api;

/* A Merkle tree's shape: base_levels levels of arity `base`, then one level of arity `sub` and one of arity `top`
 * where those are non-zero (a tree of `sub` (× `top`) base trees). Tree D is {2, 0, 0, log2 nodes}. */
typedef struct {
    uint8_t base, sub, top;
    uint8_t base_levels;
} cuzk_fil_shape;

/* One registered proof. Counts are those of the circuit and of the vanilla proofs Curio sends for it. */
typedef struct {
    cuzk_fil_class cls;
    uint32_t id;      /* the registered_proof number of the request (go-state-types abi) */
    const char *name; /* the Rust API's variant: "StackedDrg32GiBV1_1", "StackedDrgWindow32GiBV1_2" */
    cuzk_fil_kind kind;
    cuzk_fil_api api;
    uint64_t sector_size;  /* bytes */
    uint64_t nodes;        /* sector_size / 32 */
    uint32_t partitions;   /* Groth16 proofs per request: PoRep 10 or 1 (NI 126 or 13), SnapDeals 16/4/1, PoSt 1 */
    uint32_t challenges;   /* PoRep and SnapDeals: per partition; PoSt: inclusion proofs per sector vanilla proof
                               * (WindowPoSt 10, WinningPoSt 66) */
    uint32_t post_sectors; /* PoSt circuit: sector slots (WindowPoSt 2349 / 2300 / 2, WinningPoSt 66) */
    uint32_t post_sector_challenges; /* PoSt circuit: challenges per slot (WindowPoSt 10, WinningPoSt 1) */
    uint32_t layers;                 /* PoRep: SDR layers (11, test sizes 2) */
    cuzk_fil_shape tree_r;           /* tree R (replica) and tree C (columns): Poseidon */
    cuzk_fil_shape tree_d;           /* tree D (data): binary SHA-256 */
    uint32_t apex_leaves;            /* SnapDeals: leaves of a partition's apex tree (128, test sizes 8) */
    uint32_t snap_h;                 /* SnapDeals: the h (high challenge bits) the proofs API uses */
    uint8_t porep_id[32];            /* PoRep and SnapDeals: id u64 LE ‖ nonce u64 LE (0) ‖ 16 zero bytes */
    const char *srs_id;              /* circuit id for PreloadSRS / EvictSRS ("porep-32g"); one per parameter file */
} cuzk_fil_proof;

size_t cuzk_fil_proof_count(void);
const cuzk_fil_proof *cuzk_fil_proof_at(size_t i);
/* NULL when the class has no such number. */
const cuzk_fil_proof *cuzk_fil_proof_find(cuzk_fil_class cls, uint64_t id);
/* By the Rust variant name within a class (the JSON form of registered_proof is a SEAL name); NULL when unknown. */
const cuzk_fil_proof *cuzk_fil_proof_by_name(cuzk_fil_class cls, const char *name);
/* By SRS id: Curio's porep-32g, porep-64g, wpost-32g, winning-32g, snap-32g, snap-64g (and wpost-64g, winning-64g
 * that its naming rule gives), plus the same pattern with k/m for the test sizes (porep-2k, wpost-8m, snap-512m).
 * The entry returned is the current interactive registered proof of that circuit (PoRep V1_1, WindowPoSt V1_2);
 * every proof with the same srs_id shares its parameter files. NULL when unknown. */
const cuzk_fil_proof *cuzk_fil_proof_by_srs_id(const char *srs_id);

/* cuzk.v1 ProofKind numbers (cuzk.proto). */
#define CUZK_FIL_WIRE_POREP 1
#define CUZK_FIL_WIRE_SNAP 2
#define CUZK_FIL_WIRE_WINDOW_POST 3
#define CUZK_FIL_WIRE_WINNING_POST 4

/* The registered proof of a request: proof_kind picks the class (and Winning vs Window must agree with the entry),
 * sector_size must match unless 0. CUZK_ERR_NOT_FOUND for an unknown number, CUZK_ERR_MISMATCH when kind or size
 * disagree, CUZK_ERR_INVALID_ARG for a proof_kind that is not one of the four above. */
cuzk_status cuzk_fil_proof_for_request(uint32_t proof_kind, uint64_t registered_proof, uint64_t sector_size,
                                       const cuzk_fil_proof **out, cuzk_errmsg *err);

/* The prover id filecoin-proofs takes for a miner: the payload of its ID address (the actor id as unsigned LEB128),
 * left-aligned in 32 zero bytes (Lotus' toProverID, curio cuzk's make_prover_id). */
void cuzk_fil_prover_id(uint64_t miner_id, uint8_t out[32]);

const char *cuzk_fil_kind_name(cuzk_fil_kind k); /* "porep", "porep-synthetic", "porep-ni", "winning", "window",
                                                     "snap", "snap-poseidon" */
/* -1 when unknown. */
int cuzk_fil_kind_parse(const char *s);
/* "2KiB", "8MiB", "512MiB", "32GiB", "64GiB" (any power of two, else the decimal number). */
const char *cuzk_fil_size_str(uint64_t bytes, char buf[24]);
/* Parses "32GiB", "32G", "32g", "32gib", "2KiB", "512MiB" or a decimal byte count; false when malformed. */
bool cuzk_fil_size_parse(const char *s, uint64_t *out);

/* Levels of a shape, the arity of a level (0 = none) and the siblings a path carries (Σ arity − 1). */
unsigned cuzk_fil_shape_levels(const cuzk_fil_shape *s);
unsigned cuzk_fil_shape_arity(const cuzk_fil_shape *s, unsigned level);
unsigned cuzk_fil_shape_siblings(const cuzk_fil_shape *s);

/* ---- parameter file names, derived as filecoin-proofs derives them ------------------------------------------------
 * name = "v28-" ‖ prefix ‖ "-" ‖ hex(SHA-256(identifier)) ‖ ".params" | ".vk", where the prefix names the circuit
 * and tree shape and the identifier is the Rust public parameters' identifier() string (filecoin-params.md). Every
 * function writes a NUL-terminated string; CUZK_ERR_INVALID_ARG for a kind/size with no circuit, CUZK_ERR_TOO_LARGE
 * when out is too small (400 bytes are always enough). */
cuzk_status cuzk_fil_param_identifier(cuzk_fil_kind kind, uint64_t sector_size, char *out, size_t cap,
                                      cuzk_errmsg *err);
cuzk_status cuzk_fil_param_name(cuzk_fil_kind kind, uint64_t sector_size, bool vk, char *out, size_t cap,
                                cuzk_errmsg *err);
/* The .params (vk false) or .vk file of a registered proof's circuit. */
cuzk_status cuzk_fil_proof_param_name(const cuzk_fil_proof *p, bool vk, char *out, size_t cap, cuzk_errmsg *err);

/* ==================================================================================================================
 * Parameter manifest (parameters.json of rust-fil-proofs, v28) and its check
 * ================================================================================================================== */

typedef struct {
    const char *name;   /* file name, e.g. v28-stacked-proof-of-replication-...-82a3...7820.params */
    const char *cid;    /* IPFS CID */
    const char *digest; /* 32 hex digits: the first 16 bytes of BLAKE2b-512 of the file */
    uint64_t sector_size;
    cuzk_fil_kind kind; /* POREP for every PoRep circuit; SNAP_POSEIDON for the unreachable update circuit */
    bool vk;            /* a .vk file (else .params) */
} cuzk_fil_param;

size_t cuzk_fil_params_count(void);
const cuzk_fil_param *cuzk_fil_params_at(size_t i);
const cuzk_fil_param *cuzk_fil_params_find(const char *name);
/* $FIL_PROOFS_PARAMETER_CACHE when set and non-empty, else /var/tmp/filecoin-proof-parameters. */
const char *cuzk_fil_params_default_dir(void);

/* The manifest digest of a file: BLAKE2b-512 over the whole file (mapped, streamed, pages dropped behind the
 * hash so a 57 GiB file does not stay resident), first 16 bytes as lowercase hex. CUZK_ERR_IO when it cannot be
 * opened, mapped or is not a regular file. */
cuzk_status cuzk_fil_file_digest(const char *path, char hex[33], uint64_t *bytes, cuzk_errmsg *err);

typedef enum {
    CUZK_FIL_PARAM_OK = 0,
    CUZK_FIL_PARAM_MISSING, /* no such file */
    CUZK_FIL_PARAM_WRONG,   /* digest differs */
    CUZK_FIL_PARAM_ERROR,   /* present but unreadable (detail says why) */
} cuzk_fil_param_state;

typedef struct {
    const cuzk_fil_param *param;
    cuzk_fil_param_state state;
    uint64_t bytes;   /* file size (OK, WRONG) */
    char digest[33];  /* what the file hashed to (OK, WRONG) */
    char detail[256]; /* ERROR: why */
} cuzk_fil_param_result;

typedef struct {
    uint32_t kinds;        /* bit (1 << kind) per wanted kind; 0 = every kind */
    const uint64_t *sizes; /* wanted sector sizes; nsizes 0 = every size */
    size_t nsizes;
    bool vk_only;     /* only .vk files */
    unsigned threads; /* files hashed at once (0 or 1: one at a time) */
} cuzk_fil_params_check_opts;

/* Checks the manifest entries the options select against the files in dir; out must hold cuzk_fil_params_count()
 * results, *n is set to how many were checked (in manifest order). Returns CUZK_OK once every selected file was
 * looked at, whatever their states. */
cuzk_status cuzk_fil_params_check(const char *dir, const cuzk_fil_params_check_opts *o, cuzk_fil_param_result *out,
                                  size_t *n, cuzk_errmsg *err);
/* The same over a caller's list (all of it); o may be NULL. */
cuzk_status cuzk_fil_params_check_list(const char *dir, const cuzk_fil_param *list, size_t count,
                                       const cuzk_fil_params_check_opts *o, cuzk_fil_param_result *out,
                                       cuzk_errmsg *err);

/* ==================================================================================================================
 * Merkle inclusion proofs (as decoded from the vanilla proofs)
 * ================================================================================================================== */

/* The serde variant: Single for a plain tree, Sub for a tree of base trees, Top for a tree of sub trees. */
typedef enum { CUZK_FIL_MERKLE_SINGLE = 0, CUZK_FIL_MERKLE_SUB = 1, CUZK_FIL_MERKLE_TOP = 2 } cuzk_fil_merkle_kind;

/* A path from a leaf to the root, level 0 at the leaf. Level l carries arity(l) − 1 siblings, in order, and the
 * position (index[l] < arity(l)) at which the running hash goes among them. */
typedef struct {
    uint8_t root[32], leaf[32];
    const cuzk_fil_node *siblings; /* every level's siblings, level 0 first (cuzk_fil_shape_siblings of them) */
    uint8_t index[CUZK_FIL_MAX_LEVELS];
    uint8_t levels;
    uint8_t kind;        /* cuzk_fil_merkle_kind */
    uint64_t leaf_index; /* the leaf the path opens: Σ index[l] · Π_{j<l} arity(j) */
} cuzk_fil_merkle_proof;

/* The siblings of one level. */
static inline const cuzk_fil_node *cuzk_fil_merkle_level(const cuzk_fil_merkle_proof *m, const cuzk_fil_shape *s,
                                                         unsigned level)
{
    unsigned off = level < s->base_levels
                       ? level * (s->base - 1u)
                       : s->base_levels * (s->base - 1u) + (level > s->base_levels ? s->sub - 1u : 0);
    return m->siblings + off;
}

/* How a tree's nodes are hashed: Poseidon with the MerkleTree tag of each level's arity (tree R, tree C), or SHA-256
 * of the two children with the top two bits of the digest cleared (tree D). */
typedef enum { CUZK_FIL_HASH_POSEIDON = 0, CUZK_FIL_HASH_SHA256 = 1 } cuzk_fil_hasher;

/* The root the path gives for m->leaf (storage-proofs-core's InclusionPath::root, level by level). Nothing is
 * compared; CUZK_ERR_INVALID_ARG for a path that does not fit the shape. */
cuzk_status cuzk_fil_merkle_root(const cuzk_fil_merkle_proof *m, const cuzk_fil_shape *s, cuzk_fil_hasher h,
                                 uint8_t root[32], cuzk_errmsg *err);
/* CUZK_ERR_PROOF_INVALID when that root is not m->root. */
cuzk_status cuzk_fil_merkle_verify(const cuzk_fil_merkle_proof *m, const cuzk_fil_shape *s, cuzk_fil_hasher h,
                                   cuzk_errmsg *err);

/* ==================================================================================================================
 * PoSt vanilla proofs (one FallbackPoStSectorProof per sector, bincode)
 * ================================================================================================================== */

typedef struct {
    uint64_t sector_id;
    uint8_t comm_r[32]; /* Poseidon-2(comm_c, comm_r_last) */
    uint8_t comm_c[32];
    uint8_t comm_r_last[32];          /* root of tree R: every inclusion proof's root */
    uint32_t challenges;              /* = proof->challenges */
    cuzk_fil_merkle_proof *inclusion; /* [challenges], tree R */
    void *mem;                        /* the one allocation behind inclusion and the siblings */
} cuzk_fil_post_sector;

/* Exact bincode size of one sector's vanilla proof for this proof (WindowPoSt 32 GiB: 24,960 bytes). */
size_t cuzk_fil_post_sector_bytes(const cuzk_fil_proof *p);
/* Decodes and checks one vanilla proof (p must be a PoSt entry): counts, variants and path lengths of p's tree R,
 * every index, every field element below r, each inclusion root equal to comm_r_last, leaves inside the sector, no
 * trailing bytes. Errors name the field ("vanilla_proof.sectors[0].inclusion_proofs[3].base_proof.path[2].hashes:
 * expected 7 found 6"). On error *out is left empty (nothing to free). */
cuzk_status cuzk_fil_post_sector_decode(const cuzk_fil_proof *p, const uint8_t *buf, size_t len,
                                        cuzk_fil_post_sector *out, cuzk_errmsg *err);
void cuzk_fil_post_sector_free(cuzk_fil_post_sector *s);
/* Writes the bincode form (exactly cuzk_fil_post_sector_bytes(p)); CUZK_ERR_TOO_LARGE when cap is too small. */
cuzk_status cuzk_fil_post_sector_encode(const cuzk_fil_proof *p, const cuzk_fil_post_sector *s, uint8_t *out,
                                        size_t cap, size_t *len, cuzk_errmsg *err);

/* leaf = LE-u64(SHA-256(randomness ‖ sector_id u64 LE ‖ challenge_index u64 LE)[0..8]) mod nodes */
uint64_t cuzk_fil_post_challenge(const uint8_t randomness[32], uint64_t sector_id, uint64_t challenge_index,
                                 uint64_t nodes);
/* challenge_index of challenge n of the sector at sector_index (its position in the proof's sector list): API 1.0
 * and 1.1 sector_index · challenges + n, API 1.2 n. */
uint64_t cuzk_fil_post_challenge_index(cuzk_fil_api api, uint64_t sector_index, uint32_t challenges, uint32_t n);
/* The p->challenges leaves a sector's vanilla proof opens. randomness must be below r (CUZK_ERR_NOT_CANONICAL). */
cuzk_status cuzk_fil_post_sector_challenges(const cuzk_fil_proof *p, const uint8_t randomness[32], uint64_t sector_id,
                                            uint64_t sector_index, uint64_t *out, cuzk_errmsg *err);
/* Checks that inclusion proof n opens challenge n (CUZK_ERR_MISMATCH naming the first that does not). */
cuzk_status cuzk_fil_post_sector_check(const cuzk_fil_proof *p, const cuzk_fil_post_sector *s,
                                       const uint8_t randomness[32], uint64_t sector_index, cuzk_errmsg *err);

/* The hashes the circuit will check, done natively: comm_r = Poseidon-2(comm_c, comm_r_last) and every inclusion path
 * hashing to comm_r_last. CUZK_ERR_PROOF_INVALID names the first that fails. About 100 Poseidon-8 hashes per
 * WindowPoSt sector (17 ms on one core of the development machine): for WinningPoSt and spot checks, not for every
 * sector of a 2349-sector partition. */
cuzk_status cuzk_fil_post_sector_verify(const cuzk_fil_proof *p, const cuzk_fil_post_sector *s, cuzk_errmsg *err);

typedef struct {
    uint64_t sector_id;
    uint8_t comm_r[32];
} cuzk_fil_post_pub_sector;

/* Public inputs of one PoSt circuit, without the leading ONE: post_sectors × (1 + post_sector_challenges)
 * (WindowPoSt 32 GiB: 25,839; WinningPoSt: 132). */
size_t cuzk_fil_post_public_input_count(const cuzk_fil_proof *p);
/* The public-input vector, as storage-proofs-post's FallbackPoStCompound generates it: per sector slot comm_r, then
 * per challenge the leaf index. WindowPoSt: sectors are partition partition_index's (1 ..= post_sectors, in the
 * proof's order: the verifier sorts by sector id), short partitions repeat the last sector. WinningPoSt: the one
 * sector, listed post_sectors times, slot i taking challenge i. out holds cuzk_fil_post_public_input_count(p). */
cuzk_status cuzk_fil_post_public_inputs(const cuzk_fil_proof *p, const uint8_t randomness[32],
                                        const cuzk_fil_post_pub_sector *sectors, size_t nsectors,
                                        uint32_t partition_index, cuzk_fr_t *out, cuzk_errmsg *err);

/* ==================================================================================================================
 * The FallbackPoSt circuit (storage-proofs-post fallback/circuit.rs): WinningPoSt and WindowPoSt
 * ==================================================================================================================
 * Per sector slot, in bellperson's order: comm_r_last, comm_c and comm_r allocated, comm_r made an input, Poseidon-2
 * MerkleTree(comm_c, comm_r_last) enforced equal to comm_r; then per challenge a PoR over tree R (the leaf allocated,
 * the path's index bits packed into one input, comm_r_last the private root). Public inputs: per slot comm_r, then
 * each challenge's leaf index (cuzk_fil_post_public_inputs). Slots are synthesized as parallel uniform blocks.
 * docs/circuits.md (FallbackPoSt) describes the layout and the padding. */

/* A FallbackPoSt circuit's geometry. */
typedef struct {
    cuzk_fil_shape tree; /* tree R */
    uint64_t nodes;      /* leaves of a sector: base^base_levels · sub · top */
    uint32_t sectors;    /* sector slots (WindowPoSt 2349 / 2300 / 2, WinningPoSt 66) */
    uint32_t challenges; /* challenges per slot (WindowPoSt 10, WinningPoSt 1) */
} cuzk_fil_post_geom;

/* A PoSt registered proof's geometry; CUZK_ERR_INVALID_ARG for another kind. */
cuzk_status cuzk_fil_post_geom_of(const cuzk_fil_proof *p, cuzk_fil_post_geom *g, cuzk_errmsg *err);

/* One slot's witness: 32-byte little-endian reprs below r, and `challenges` inclusion proofs (leaf, siblings,
 * leaf_index) of the geometry's tree. */
typedef struct {
    uint64_t sector_id; /* for messages */
    const uint8_t *comm_r, *comm_c, *comm_r_last;
    const cuzk_fil_merkle_proof *inclusion;
} cuzk_fil_post_slot;

/* Synthesizes the circuit into cs (any mode): slots NULL for the blank circuit (shapes, keys, counts), else
 * g->sectors slots. With values (WITNESS, CHECK) a slot whose comm_r is not the hash of its comm_c and comm_r_last, or
 * whose path does not lead to comm_r_last, fails the cs (CUZK_ERR_PROOF_INVALID naming slot, sector and challenge);
 * a path of the wrong length or a leaf outside the sector fails it with CUZK_ERR_MISMATCH. Returns cs's status. */
cuzk_status cuzk_fil_post_synthesize(cuzk_cs *cs, const cuzk_fil_post_geom *g, const cuzk_fil_post_slot *slots,
                                     unsigned threads);
/* The circuit's counts (inputs with ONE, aux, rows, non-zeros), by COUNT mode over one slot: cheap at any size. */
cuzk_status cuzk_fil_post_counts(const cuzk_fil_post_geom *g, cuzk_cs_counts *out, cuzk_errmsg *err);

/* What a PoSt partition proof is made from (filecoin-proofs generate_single_window_post_with_vanilla,
 * generate_winning_post_with_vanilla). */
typedef struct {
    const cuzk_fil_proof *proof;         /* a WinningPoSt or WindowPoSt entry */
    const cuzk_fil_post_sector *vanilla; /* decoded vanilla proofs, one per sector */
    size_t nvanilla;
    const uint64_t *sector_ids; /* the partition's sectors in order; NULL: the vanilla proofs' order */
    size_t nsectors;            /* WinningPoSt 1; WindowPoSt 1 ..= proof->post_sectors */
    const uint8_t *randomness;  /* 32 bytes below r */
    const uint8_t *prover_id;   /* 32 bytes below r (checked as filecoin-proofs does; not in the circuit) */
    uint32_t partition_index;   /* WindowPoSt: the partition (challenge indices under API 1.0 / 1.1) */
} cuzk_fil_post_request;

/* The witness z = [inputs | aux] (zlen = the counts' inputs + aux) of the partition's circuit: each sector id found
 * among the vanilla proofs (CUZK_ERR_NOT_FOUND), short WindowPoSt partitions padded with the last sector, WinningPoSt's
 * one sector unrolled into its 66 slots; every opened leaf checked against the challenge the randomness derives and
 * the inputs the synthesis made against cuzk_fil_post_public_inputs (CUZK_ERR_MISMATCH naming the first that
 * differs), the hashes against comm_r and comm_r_last as above. Work: the Poseidon hashes of every slot, in parallel
 * over the slots on `threads` threads. */
cuzk_status cuzk_fil_post_witness(const cuzk_fil_post_request *rq, cuzk_fr_t *z, uint64_t zlen, unsigned threads,
                                  cuzk_errmsg *err);

/* ==================================================================================================================
 * Circuits of registered proofs and their shapes as PCE files
 * ==================================================================================================================
 * One table by kind (WinningPoSt, WindowPoSt, SnapDeals); the registered proofs sharing a parameter file share the
 * circuit, and SnapDeals' test geometries (cuzk_fil_snap_geometry) have theirs too (no parameter file; their keys use
 * the same identifier form). A kind without a circuit gives CUZK_ERR_NOT_FOUND. */

bool cuzk_fil_circuit_supported(const cuzk_fil_proof *p);
/* The blank circuit (no witness) into cs, any mode; blocks on `threads` threads. */
cuzk_status cuzk_fil_circuit_synthesize(cuzk_cs *cs, const cuzk_fil_proof *p, unsigned threads, cuzk_errmsg *err);
/* Its counts by COUNT mode (cheap: uniform blocks are counted once). */
cuzk_status cuzk_fil_circuit_counts(const cuzk_fil_proof *p, cuzk_cs_counts *out, cuzk_errmsg *err);
/* Its shape, built in SHAPE mode (heap; see cuzk_fil_shape_load_or_build for the memory). */
cuzk_status cuzk_fil_circuit_shape(const cuzk_fil_proof *p, unsigned threads, cuzk_r1cs_t **out, cuzk_errmsg *err);
/* The circuit's cache key, "<srs id>-<16 hex>" ("wpost-32g-…"): its canonical name and the first 8 bytes of SHA-256
 * over the synthesis version and Filecoin's parameter identifier. 64 bytes are enough. */
cuzk_status cuzk_fil_circuit_key(const cuzk_fil_proof *p, char *out, size_t cap, cuzk_errmsg *err);
/* The R1CS identity (cuzk_r1cs_identity) of the circuit where it is pinned here; false otherwise. */
bool cuzk_fil_circuit_pinned_identity(const cuzk_fil_proof *p, uint8_t identity[32]);
/* dir/<key>.pce */
cuzk_status cuzk_fil_shape_path(const char *dir, const cuzk_fil_proof *p, char *out, size_t cap, cuzk_errmsg *err);

/* The circuit's shape from the cache directory dir: dir/<key>.pce mapped when it loads (cuzk_r1cs_pce_load with
 * flags, and the pinned identity where there is one), else built in SHAPE mode on `threads` threads, written under a
 * temporary name, renamed into place (dir made if missing; a damaged file under the key is replaced) and mapped;
 * *built (may be NULL) says which. Peak memory while building: the rows held as CSR before the file is written,
 * 24 bytes a row plus 8 bytes a non-zero (WindowPoSt 32 GiB: about 13 GB; WinningPoSt 32 GiB: about 40 MB), then
 * nothing but the mapping. */
cuzk_status cuzk_fil_shape_load_or_build(const char *dir, const cuzk_fil_proof *p, unsigned threads, unsigned flags,
                                         cuzk_r1cs_t **out, bool *built, cuzk_errmsg *err);

/* ==================================================================================================================
 * SnapDeals vanilla proofs (one PartitionProof per partition, bincode)
 * ================================================================================================================== */

typedef struct {
    cuzk_fil_merkle_proof r_old; /* tree R of the old replica */
    cuzk_fil_merkle_proof d_new; /* tree D of the new data (binary SHA-256) */
    cuzk_fil_merkle_proof r_new; /* tree R of the new replica */
} cuzk_fil_snap_challenge;

typedef struct {
    uint8_t comm_c[32];
    uint32_t apex_count; /* = proof->apex_leaves */
    const cuzk_fil_node *apex_leafs;
    uint32_t challenges;        /* = proof->challenges */
    cuzk_fil_snap_challenge *c; /* [challenges] */
    void *mem;
} cuzk_fil_snap_partition;

size_t cuzk_fil_snap_partition_bytes(const cuzk_fil_proof *p); /* 32 GiB: 561,768 */
/* Decodes and checks one partition proof (p an UPDATE entry), with the same strictness as the PoSt decoder; each
 * challenge's three proofs must open the same leaf. */
cuzk_status cuzk_fil_snap_partition_decode(const cuzk_fil_proof *p, const uint8_t *buf, size_t len,
                                           cuzk_fil_snap_partition *out, cuzk_errmsg *err);
void cuzk_fil_snap_partition_free(cuzk_fil_snap_partition *s);
cuzk_status cuzk_fil_snap_partition_encode(const cuzk_fil_proof *p, const cuzk_fil_snap_partition *s, uint8_t *out,
                                           size_t cap, size_t *len, cuzk_errmsg *err);
/* Checks a partition against its index k: every challenge inside partition k's share of the sector, every r_old /
 * d_new / r_new root the same across challenges, and d_new's root equal to comm_d_new when that is not NULL. */
cuzk_status cuzk_fil_snap_partition_check(const cuzk_fil_proof *p, const cuzk_fil_snap_partition *s, uint32_t k,
                                          const uint8_t comm_d_new[32], cuzk_errmsg *err);
/* The hashes of the partition's Merkle proofs, done natively: every proof_r_old, proof_d_new and proof_r_new hashes to
 * its root, and comm_r_old = Poseidon-2(comm_c, root of r_old), comm_r_new = Poseidon-2(comm_c, root of r_new),
 * comm_d_new = root of d_new for the commitments given (any may be NULL). CUZK_ERR_PROOF_INVALID names the first that
 * fails. */
cuzk_status cuzk_fil_snap_partition_verify(const cuzk_fil_proof *p, const cuzk_fil_snap_partition *s,
                                           const uint8_t comm_r_old[32], const uint8_t comm_d_new[32],
                                           const uint8_t comm_r_new[32], cuzk_errmsg *err);
/* The six h values the circuit allows (storage-proofs-update hs()): {7..12}, or all 1 up to 32 KiB sectors. */
void cuzk_fil_snap_hs(const cuzk_fil_proof *p, uint32_t hs[6]);
/* k | h_select << partition_bits, h_select = 1 << (position of h in hs); h 0 means p->snap_h. */
cuzk_status cuzk_fil_snap_k_and_h_select(const cuzk_fil_proof *p, uint32_t k, uint32_t h, uint64_t *out,
                                         cuzk_errmsg *err);
/* The 4 public inputs (without ONE): k_and_h_select, comm_r_old, comm_d_new, comm_r_new (each below r). */
cuzk_status cuzk_fil_snap_public_inputs(const cuzk_fil_proof *p, uint32_t k, uint32_t h, const uint8_t comm_r_old[32],
                                        const uint8_t comm_d_new[32], const uint8_t comm_r_new[32], cuzk_fr_t out[4],
                                        cuzk_errmsg *err);

/* ==================================================================================================================
 * SnapDeals (EmptySectorUpdate) circuit, one per partition (storage-proofs-update circuit.rs, gadgets.rs)
 * ================================================================================================================== */

/* The update geometry of a sector size: the registered proof's entry for 2 KiB, 8 MiB, 512 MiB, 32 GiB and 64 GiB,
 * and entries of id CUZK_FIL_SNAP_TEST_ID (no registered proof, no parameter files) for the sizes only
 * storage-proofs-update's tests use: 1, 4, 8, 16, 32 KiB and 16 MiB, with their own tree R shapes (8-4-0, 8-2-0,
 * 8-4-0, 8-8-0, 8-8-2, 8-2-0). NULL for any other size. */
#define CUZK_FIL_SNAP_TEST_ID 0xffffffffu
const cuzk_fil_proof *cuzk_fil_snap_geometry(uint64_t sector_size);

/* A commitment as a request may carry it: its 32 bytes, or the binary CID of a sealed commitment
 * (fil-commitment-sealed, poseidon-bls12_381-a2-fc1: 40 bytes) or of an unsealed one (fil-commitment-unsealed,
 * sha2-256-trunc254-padded: 39 bytes), whose last 32 bytes it is. CUZK_ERR_BAD_LENGTH or CUZK_ERR_BAD_HEADER
 * otherwise. */
cuzk_status cuzk_fil_commitment_parse(const uint8_t *buf, size_t len, uint8_t out[32], cuzk_errmsg *err);

/* One partition's circuit: the geometry, the partition k, h (0 = proof->snap_h), and for a witness the decoded
 * partition proof with the request's commitments (32-byte little-endian reprs, as Curio sends them). part NULL is
 * the blank circuit (zeros; for SHAPE and COUNT), and the commitments may then be NULL too. */
typedef struct {
    const cuzk_fil_proof *proof;
    uint32_t k;
    uint32_t h;
    const cuzk_fil_snap_partition *part;
    const uint8_t *comm_r_old, *comm_d_new, *comm_r_new;
} cuzk_fil_snap_circuit;

/* Public inputs, ONE included. */
#define CUZK_FIL_SNAP_INPUTS 5u

/* Synthesizes the circuit into cs (any mode) in circuit.rs's allocation and enforce order; the challenges, and each
 * row of the apex tree, as parallel uniform blocks on `threads` threads (0 = 1). Values are not checked here
 * (cuzk_fil_snap_validate does that); a bad argument becomes cs's sticky error. */
void cuzk_fil_snap_synthesize(cuzk_cs *cs, const cuzk_fil_snap_circuit *c, unsigned threads);

/* The blank circuit of p into cs (any mode), for a table of circuits by kind; returns cs's status. */
cuzk_status cuzk_fil_snap_blank(cuzk_cs *cs, const cuzk_fil_proof *p, unsigned threads, cuzk_errmsg *err);
/* The counts of p's circuit (the same for every partition): COUNT mode once per geometry and process, then kept. */
cuzk_status cuzk_fil_snap_counts(const cuzk_fil_proof *p, unsigned threads, cuzk_cs_counts *out, cuzk_errmsg *err);
/* The constraint system (SHAPE mode, blank circuit), the same for every partition. */
cuzk_status cuzk_fil_snap_shape(const cuzk_fil_proof *p, unsigned threads, cuzk_r1cs_t **out, cuzk_errmsg *err);

/* The leaves partition k's challenges open (storage-proofs-update challenges.rs): out[p->challenges]. */
cuzk_status cuzk_fil_snap_challenges(const cuzk_fil_proof *p, uint32_t k, const uint8_t comm_r_new[32], uint64_t *out,
                                     cuzk_errmsg *err);
/* phi = Poseidon-2 with SnapDeals' randomness tag over (comm_d_new, comm_r_old); rho(high) = the same over
 * (phi, high). CUZK_ERR_NOT_CANONICAL for an input not below r. */
cuzk_status cuzk_fil_snap_phi(const uint8_t comm_d_new[32], const uint8_t comm_r_old[32], cuzk_fr_t *phi,
                              cuzk_errmsg *err);
cuzk_status cuzk_fil_snap_rho(const cuzk_fr_t *phi, uint64_t high, cuzk_fr_t *rho, cuzk_errmsg *err);

/* Everything the circuit enforces, checked natively on c->part before a witness is made, so that a bad vanilla
 * proof is refused with the field it concerns instead of an unsatisfied row: partition k's challenges as derived from
 * comm_r_new, every root shared, comm_r_old / comm_r_new = Poseidon-2(comm_c, root of r_old / r_new), every path
 * hashing to its root, the new label = old label + data label · rho, the apex leaves hashing with challenge 0's
 * partition path to comm_d_new, every challenge's tree D path reaching its apex leaf. Challenges in parallel on
 * `threads` threads. CUZK_ERR_MISMATCH for a proof of another sector, partition or request, CUZK_ERR_PROOF_INVALID
 * for a hash that does not hold; the detail names the field ("challenge_proofs[7].proof_r_new.leaf"). */
cuzk_status cuzk_fil_snap_validate(const cuzk_fil_snap_circuit *c, unsigned threads, cuzk_errmsg *err);

/* A partition's witness into the caller's z of len = inputs + aux (cuzk_fil_snap_counts; pinned memory for a device
 * is fine): cuzk_fil_snap_validate, then WITNESS mode on `threads` threads, then z[1 .. 5) compared with
 * cuzk_fil_snap_public_inputs computed from the request alone. */
cuzk_status cuzk_fil_snap_witness(const cuzk_fil_snap_circuit *c, unsigned threads, cuzk_fr_t *z, uint64_t len,
                                  cuzk_errmsg *err);

/* ---- a native SnapDeals update, for small sectors (tests, benchmarks, seal-test) -----------------------------------
 * Encodes new data into an existing replica as storage-proofs-update's encode_into does (tree D over the new data,
 * phi, rho per h high bits of the node index, new label = old label + data · rho, tree R over the new replica) and
 * writes every partition proof as generate_partition_proofs would (apex leaves, three Merkle proofs per challenge),
 * in the bincode form Curio sends. Everything is held in memory: meant for sectors up to a few MiB. */
typedef struct {
    const cuzk_fil_proof *proof; /* an UPDATE entry or cuzk_fil_snap_geometry's */
    const uint8_t *replica_old;  /* nodes × 32 bytes: the sector key (tree R old's leaves), each below r */
    const uint8_t *data_new;     /* nodes × 32 bytes: the new data, fr32 (each node below r) */
    const uint8_t *comm_c;       /* 32 bytes, below r */
    uint32_t h;                  /* 0: proof->snap_h */
    unsigned threads;            /* 0 = 1 */
} cuzk_fil_snap_update_in;

typedef struct {
    uint8_t comm_r_old[32], comm_d_new[32], comm_r_new[32], comm_c[32];
    uint8_t comm_r_last_old[32], comm_r_last_new[32]; /* roots of tree R old and new */
    uint8_t *replica_new;                             /* nodes × 32 bytes (malloc'd) */
    uint32_t partitions;
    size_t partition_bytes; /* one partition proof's bincode size (cuzk_fil_snap_partition_bytes) */
    uint8_t *vanilla;       /* partitions × partition_bytes: the PartitionProofs in partition order */
} cuzk_fil_snap_update;

cuzk_status cuzk_fil_snap_update_prove(const cuzk_fil_snap_update_in *in, cuzk_fil_snap_update *out, cuzk_errmsg *err);
/* The same from a seeded generator: a random sector key, comm_c and new data. */
cuzk_status cuzk_fil_snap_update_random(const cuzk_fil_proof *p, uint64_t seed, unsigned threads,
                                        cuzk_fil_snap_update *out, cuzk_errmsg *err);
void cuzk_fil_snap_update_free(cuzk_fil_snap_update *u);

/* A structurally valid partition proof of partition k for any size (32 GiB included) from a seeded generator:
 * random canonical nodes, leaves at partition k's challenges for comm_r_new, paths that open them. Nothing hashes to
 * anything: cuzk_fil_snap_validate refuses it and a proof from it does not verify. For witness benchmarks. */
cuzk_status cuzk_fil_snap_partition_random(const cuzk_fil_proof *p, uint32_t k, const uint8_t comm_r_new[32],
                                           uint64_t seed, cuzk_fil_snap_partition *out, cuzk_errmsg *err);

/* ==================================================================================================================
 * PoRep commit-phase-1 output (C1): JSON SealCommitPhase1Output, Curio's envelope, supraseal's bincode
 * ================================================================================================================== */

typedef struct {
    uint32_t index;              /* the column's node (= proof.leaf_index) */
    const cuzk_fil_node *rows;   /* [layers]: the node's label in each layer */
    cuzk_fil_merkle_proof proof; /* tree C */
} cuzk_fil_column_proof;

/* One challenge's vanilla proof (storage-proofs-porep stacked::Proof). */
typedef struct {
    uint64_t node;                     /* the challenged node: every proof below opens it */
    cuzk_fil_merkle_proof comm_d;      /* tree D */
    cuzk_fil_merkle_proof comm_r_last; /* tree R */
    cuzk_fil_column_proof c_x;
    cuzk_fil_column_proof drg[CUZK_FIL_DRG_PARENTS];
    cuzk_fil_column_proof exp[CUZK_FIL_EXP_PARENTS];
    const cuzk_fil_node *labeling; /* [layers × 37]: layer l's parents at (l − 1) · 37 */
    const cuzk_fil_node *encoding; /* [37]: the last layer's parents */
} cuzk_fil_porep_challenge;

typedef struct {
    const cuzk_fil_proof *proof;     /* registered_proof */
    uint32_t partitions, challenges; /* challenges per partition */
    cuzk_fil_porep_challenge *c;     /* [partitions × challenges], partition-major */
    uint8_t comm_r[32], comm_d[32], replica_id[32], seed[32], ticket[32];
    bool wrapped;                     /* it came in Curio's envelope */
    uint64_t sector_num, sector_size; /* the envelope's SectorNum and SectorSize (0 when not wrapped) */
    uint64_t mem_bytes;               /* bytes this structure holds */
    void *mem;
} cuzk_fil_c1;

/* Parses a commit-phase-1 JSON document — Curio's envelope {"SectorNum", "Phase1Out": base64(JSON), "SectorSize"}
 * or the bare SealCommitPhase1Output — in one streaming pass (no document tree; base64 decoded on the fly), writing
 * straight into arrays sized from counts already checked. Every count and index is checked against the registered
 * proof (partitions, challenges, layers, parents, path lengths, arities), every node consistent within a challenge,
 * every field element below r; errors name the JSON path ("vanilla_proofs[3][7].labeling_proofs[2].parents[36]").
 * Unknown keys are skipped (as serde and Go do). On error *out is left empty. */
cuzk_status cuzk_fil_c1_parse(const uint8_t *buf, size_t len, cuzk_fil_c1 *out, cuzk_errmsg *err);
/* The same, read from a file descriptor or a file in 256 KiB pieces: memory is the result plus the piece. */
cuzk_status cuzk_fil_c1_parse_fd(int fd, cuzk_fil_c1 *out, cuzk_errmsg *err);
cuzk_status cuzk_fil_c1_parse_file(const char *path, cuzk_fil_c1 *out, cuzk_errmsg *err);
void cuzk_fil_c1_free(cuzk_fil_c1 *c);

/* Bincode forms. SUPRASEAL: filecoin-proofs' SealCommitPhase1Output (what supraseal's C1 writes; no registered
 * proof, so p must be given). API: rust-filecoin-proofs-api's, which starts with the registered_proof and
 * VanillaSealProof enum tags (p may be NULL; when given it must agree). */
typedef enum { CUZK_FIL_C1_BIN_SUPRASEAL = 0, CUZK_FIL_C1_BIN_API = 1 } cuzk_fil_c1_bin_form;
cuzk_status cuzk_fil_c1_decode_bincode(const uint8_t *buf, size_t len, cuzk_fil_c1_bin_form form,
                                       const cuzk_fil_proof *p, cuzk_fil_c1 *out, cuzk_errmsg *err);
/* Bytes of the bincode form of c (SUPRASEAL 32 GiB: 11,014,808). */
size_t cuzk_fil_c1_bincode_bytes(const cuzk_fil_c1 *c, cuzk_fil_c1_bin_form form);
cuzk_status cuzk_fil_c1_encode_bincode(const cuzk_fil_c1 *c, cuzk_fil_c1_bin_form form, uint8_t *out, size_t cap,
                                       size_t *len, cuzk_errmsg *err);

/* Writes c as serde_json writes a SealCommitPhase1Output (compact, Rust field order), or wrapped in Curio's
 * envelope (base64 made on the fly) with SectorNum and SectorSize from c (SectorSize 0 → the proof's size). */
cuzk_status cuzk_fil_c1_write_json(const cuzk_fil_c1 *c, bool wrapped, FILE *f, cuzk_errmsg *err);
/* A structurally valid C1 of registered proof p from a seeded generator: random canonical field elements, random
 * challenged nodes in 1..nodes−1 with paths, columns, labeling and encoding proofs that open them. Not a proof
 * anything would verify (no hashing); for tests and benchmarks. */
cuzk_status cuzk_fil_c1_random(const cuzk_fil_proof *p, uint64_t seed, cuzk_fil_c1 *out, cuzk_errmsg *err);

/* ================================================================================================================
 * SDR (StackedDrg PoRep): graph, parent cache, labels, tree D, challenges, a test sealer  (src/filecoin/sdr*.c)
 * ================================================================================================================ */

#define CUZK_FIL_SDR_NODE_BYTES 32
#define CUZK_FIL_SDR_DRG_DEGREE 6     /* base (DRG) parents per node */
#define CUZK_FIL_SDR_EXP_DEGREE 8     /* expander parents per node */
#define CUZK_FIL_SDR_DEGREE 14        /* parents per node in the parent cache: 6 DRG then 8 expander */
#define CUZK_FIL_SDR_LABEL_PARENTS 37 /* parent labels hashed into one label (the 6 or 14 repeated) */
#define CUZK_FIL_SDR_CACHE_VERSION 28 /* the "v28" of parent-cache file names */

/* Graph semantics by proof API version. V1_0 (registered ids 0-4) puts the predecessor last among the DRG parents
 * and truncates expander indices to 32 bits before dividing; V1_1 and later put it first and keep 64 bits. V1_1 and
 * V1_2 graphs are identical. */
typedef enum {
    CUZK_FIL_SDR_API_V1_0 = 0,
    CUZK_FIL_SDR_API_V1_1 = 1,
    CUZK_FIL_SDR_API_V1_2 = 2,
} cuzk_fil_sdr_api;

/* porep_id = registered-proof id (u64 LE) ‖ nonce (u64 LE) ‖ 16 zero bytes. Ids 0-4: 2KiB, 8MiB, 512MiB, 32GiB,
 * 64GiB V1; 5-9 the same sizes V1_1; 10-14 V1_1 SyntheticPoRep; 15-19 V1_2 NonInteractivePoRep. */
void cuzk_fil_sdr_porep_id(uint64_t registered_id, uint64_t nonce, uint8_t out[32]);

/* Layers: 2 for test sizes (up to 1 GiB), 11 for 32 and 64 GiB; 0 for other sizes. */
unsigned cuzk_fil_sdr_layers(uint64_t sector_size);

/* ---- the graph -------------------------------------------------------------------------------------------------- */
typedef struct {
    uint64_t nodes;
    cuzk_fil_sdr_api api;
    uint8_t porep_id[32];
    uint8_t drg_seed[28];     /* SHA-256("Filecoin_DRSample" ‖ porep_id)[0..28] */
    uint64_t feistel_keys[4]; /* SHA-256("Filecoin_Feistel" ‖ porep_id) as 4 u64 LE */
    uint64_t feistel_left_mask, feistel_right_mask;
    unsigned feistel_half_bits;
} cuzk_fil_sdr_graph;

/* nodes: 2 .. 2^32 − 1 (any count; sectors have a power of two). */
cuzk_status cuzk_fil_sdr_graph_init(cuzk_fil_sdr_graph *g, uint64_t nodes, const uint8_t porep_id[32],
                                    cuzk_fil_sdr_api api, cuzk_errmsg *err);
/* The 6 DRG parents of node (< g->nodes), in rust-fil-proofs order; all zero for nodes 0 and 1. */
void cuzk_fil_sdr_drg_parents(const cuzk_fil_sdr_graph *g, uint32_t node, uint32_t out[CUZK_FIL_SDR_DRG_DEGREE]);
/* The 8 expander parents of node (nodes of the previous layer). */
void cuzk_fil_sdr_exp_parents(const cuzk_fil_sdr_graph *g, uint32_t node, uint32_t out[CUZK_FIL_SDR_EXP_DEGREE]);
/* Both: 6 DRG then 8 expander, the parent-cache record of node. */
void cuzk_fil_sdr_parents(const cuzk_fil_sdr_graph *g, uint32_t node, uint32_t out[CUZK_FIL_SDR_DEGREE]);
/* Feistel permutation of the expander graph on [0, 8·nodes) and its inverse (exposed for checks). */
uint64_t cuzk_fil_sdr_feistel_permute(const cuzk_fil_sdr_graph *g, uint64_t index);
uint64_t cuzk_fil_sdr_feistel_invert(const cuzk_fil_sdr_graph *g, uint64_t index);

/* rand_chacha's ChaChaRng (ChaCha8Rng with rounds 8, ChaCha20Rng with 20) from a 32-byte seed. */
typedef struct {
    uint32_t key[8];
    uint32_t buf[64];
    uint64_t block;
    unsigned idx, rounds;
} cuzk_fil_sdr_chacharng;
void cuzk_fil_sdr_chacharng_seed(cuzk_fil_sdr_chacharng *r, const uint8_t seed[32], unsigned rounds);
uint32_t cuzk_fil_sdr_chacharng_next_u32(cuzk_fil_sdr_chacharng *r);
uint64_t cuzk_fil_sdr_chacharng_next_u64(cuzk_fil_sdr_chacharng *r);

/* SHA-256 block function: n 64-byte blocks into the 8-word state h (SHA extensions where the processor has them). */
void cuzk_fil_sdr_sha256_blocks(uint32_t h[8], const uint8_t *blocks, size_t n);

/* ---- the parent cache -------------------------------------------------------------------------------------------
 * nodes records of 14 u32 little-endian parents (56 bytes): the file rust-fil-proofs writes as
 * <dir>/v28-sdr-parent-<id>.cache and whose SHA-256 its parent_cache.json lists for the production graphs. */
typedef struct {
    const uint32_t *parents; /* nodes × 14 */
    uint64_t nodes;
    void *mem; /* owned allocation or mapping */
    size_t mem_len;
    bool mapped;
} cuzk_fil_sdr_parent_cache;

/* Generates the cache in memory with `threads` threads (0 = all processors). */
cuzk_status cuzk_fil_sdr_parent_cache_generate(cuzk_fil_sdr_parent_cache *c, const cuzk_fil_sdr_graph *g,
                                               unsigned threads, cuzk_errmsg *err);
/* Generates straight into the file at path (created or truncated, written through a shared mapping, so a 56 GiB
 * cache needs no 56 GiB of memory) and returns its SHA-256 in digest (when not NULL). When the graph is a
 * production one the digest is checked against the manifest (CUZK_ERR_CHECKSUM on a mismatch). */
cuzk_status cuzk_fil_sdr_parent_cache_write(const cuzk_fil_sdr_graph *g, const char *path, unsigned threads,
                                            uint8_t digest[32], cuzk_errmsg *err);
/* Maps an existing cache file read-only. It must be exactly nodes·56 bytes. check_digest hashes the whole file and
 * compares it with the manifest (production graphs; others are not checked); in any case the parents of 64 nodes
 * spread over the graph are recomputed and compared, which rejects a cache of another graph. */
cuzk_status cuzk_fil_sdr_parent_cache_open(cuzk_fil_sdr_parent_cache *c, const cuzk_fil_sdr_graph *g, const char *path,
                                           bool check_digest, cuzk_errmsg *err);
void cuzk_fil_sdr_parent_cache_free(cuzk_fil_sdr_parent_cache *c);
/* SHA-256 of the cache bytes, the manifest's digest. */
void cuzk_fil_sdr_parent_cache_digest(const cuzk_fil_sdr_parent_cache *c, uint8_t out[32]);
/* The same digest of a graph's cache without keeping the cache: windows of 2^20 nodes generated by `threads`
 * threads (0 = all processors) and hashed in order, in 56 MiB of memory whatever the size. */
cuzk_status cuzk_fil_sdr_parent_cache_digest_graph(const cuzk_fil_sdr_graph *g, unsigned threads, uint8_t digest[32],
                                                   cuzk_errmsg *err);
/* The file name rust-fil-proofs gives this graph's cache: "v28-sdr-parent-<64 hex>.cache" (out: 96 bytes). */
void cuzk_fil_sdr_parent_cache_name(const cuzk_fil_sdr_graph *g, char out[96]);
/* The manifest digest of a production graph (the 10 of parent_cache.json); false for any other graph. */
bool cuzk_fil_sdr_parent_cache_expected(const cuzk_fil_sdr_graph *g, uint8_t digest[32]);

/* ---- labels -----------------------------------------------------------------------------------------------------
 * label(layer, node) = SHA-256(replica_id ‖ layer u32 BE ‖ node u64 BE ‖ 20 zero bytes ‖ 37 parent labels) with
 * the top two bits of the last byte cleared; node 0 hashes no parents. Layer 1 repeats the 6 DRG parents (same layer)
 * to 37; later layers repeat the 6 DRG parents (same layer) and 8 expander parents (previous layer) to 37. */

/* One label from its parent labels as a labeling proof carries them (n_parents 0 or 37, already repeated). */
cuzk_status cuzk_fil_sdr_label_from_parents(const uint8_t replica_id[32], uint32_t layer, uint64_t node,
                                            const uint8_t (*parents)[32], size_t n_parents, uint8_t out[32],
                                            cuzk_errmsg *err);
/* The 37 parent labels of (layer, node) gathered from the layer's labels and the previous layer's (NULL for layer
 * 1), for labeling and encoding proofs. */
cuzk_status cuzk_fil_sdr_label_parents(const cuzk_fil_sdr_parent_cache *c, uint32_t layer, uint64_t node,
                                       const uint8_t *layer_labels, const uint8_t *prev_labels,
                                       uint8_t out[CUZK_FIL_SDR_LABEL_PARENTS][32], cuzk_errmsg *err);
/* Labels all nodes of one layer (1-based) into out (nodes × 32 bytes). prev is the previous layer's labels (NULL for
 * layer 1). threads > 1 adds producer threads that gather parent labels ahead of the hashing thread (a layer is
 * sequential). Parent indices are range-checked as they are used (a damaged cache gives CUZK_ERR_BAD_SECTION). */
cuzk_status cuzk_fil_sdr_label_layer(const cuzk_fil_sdr_parent_cache *c, const uint8_t replica_id[32], uint32_t layer,
                                     const uint8_t *prev, uint8_t *out, unsigned threads, cuzk_errmsg *err);

/* ---- data, tree D and comm_d -------------------------------------------------------------------------------------
 * Tree D is the binary SHA-256 tree over the 32-byte nodes of the (fr32-padded) sector: leaves as they are, each
 * inner node SHA-256(left ‖ right) with the top two bits of byte 31 cleared. It is stored bottom-up, level by level
 * (the n leaves, then n/2, ..., then the root): 2n − 1 nodes. comm_d is its root. */

/* fr32 padding: every 127 input bytes (1016 bits, read LSB first) become four 32-byte nodes of 254 bits and two zero
 * bits. in_len must be a multiple of 127; out gets in_len/127·128 bytes. */
void cuzk_fil_sdr_fr32_pad(const uint8_t *in, size_t in_len, uint8_t *out);
/* The inverse; false when a node has one of its top two bits set. */
bool cuzk_fil_sdr_fr32_unpad(const uint8_t *in, size_t in_len, uint8_t *out);
/* Builds tree D over nodes (a power of two ≥ 1) leaves; tree (NULL: only the root) gets 2·nodes − 1 nodes. */
cuzk_status cuzk_fil_sdr_tree_d(const uint8_t *leaves, uint64_t nodes, uint8_t *tree, uint8_t root[32],
                                unsigned threads, cuzk_errmsg *err);
/* The log2(nodes) siblings of leaf in a stored tree D, leaf level first. */
cuzk_status cuzk_fil_sdr_tree_d_path(const uint8_t *tree, uint64_t nodes, uint64_t leaf, uint8_t (*siblings)[32],
                                     cuzk_errmsg *err);
/* comm_d of all-zero data of padded size bytes (a power of two from 32 B to 2^61 B). */
cuzk_status cuzk_fil_sdr_zero_comm_d(uint64_t size, uint8_t out[32], cuzk_errmsg *err);

/* ---- replica id and challenges ----------------------------------------------------------------------------------- */
/* SHA-256(prover_id ‖ sector_id u64 BE ‖ ticket ‖ comm_d ‖ porep_id), top two bits of byte 31 cleared. */
void cuzk_fil_sdr_replica_id(const uint8_t prover_id[32], uint64_t sector_id, const uint8_t ticket[32],
                             const uint8_t comm_d[32], const uint8_t porep_id[32], uint8_t out[32]);

typedef enum {
    CUZK_FIL_SDR_CHALLENGES_INTERACTIVE = 0, /* from the seed */
    CUZK_FIL_SDR_CHALLENGES_SYNTHETIC = 1,   /* selected by the seed among synthetic ones drawn from comm_r */
    CUZK_FIL_SDR_CHALLENGES_NI = 2,          /* non-interactive: from comm_r */
} cuzk_fil_sdr_challenge_kind;

/* Partitions and challenges per partition of a PoRep (interactive and synthetic: 1 × 2 for test sizes, 10 × 18 at
 * 32/64 GiB; NI: 13 × 2 and 126 × 18). Error for an unknown sector size. */
cuzk_status cuzk_fil_sdr_challenge_count(uint64_t sector_size, cuzk_fil_sdr_challenge_kind kind, unsigned *partitions,
                                         unsigned *per_partition, cuzk_errmsg *err);
/* The challenges (node indices in 1 .. nodes−1) of partition k: count of them into out. Interactive uses seed, NI
 * uses comm_r, synthetic uses both. nodes: 2 .. 2^32. */
cuzk_status cuzk_fil_sdr_challenges(cuzk_fil_sdr_challenge_kind kind, uint64_t nodes, const uint8_t replica_id[32],
                                    const uint8_t seed[32], const uint8_t comm_r[32], unsigned k, unsigned count,
                                    uint64_t *out, cuzk_errmsg *err);
/* Synthetic PoRep: the number of synthetic challenges of a sector, min(nodes, 2^18) */
uint64_t cuzk_fil_sdr_synth_count(uint64_t nodes);
/* synthetic challenge i (< count) of the set drawn from (replica_id, comm_r) */
uint64_t cuzk_fil_sdr_synth_challenge(uint64_t nodes, const uint8_t replica_id[32], const uint8_t comm_r[32],
                                      uint64_t i);
/* the index (< synth_count) of the synthetic challenge that is PoRep challenge j = k·per_partition + i, from seed */
uint64_t cuzk_fil_sdr_synth_index(uint64_t synth_count, const uint8_t replica_id[32], const uint8_t seed[32],
                                  uint64_t j);

/* ---- column hashes, tree C, tree R (Poseidon) -------------------------------------------------------------------
 * neptune Poseidon with the MerkleTree domain tags (the circuits layer's): arity 2 / 11 columns, arity 8 trees (2 or 8
 * at the sub and top levels), arity 2 comm_r. */
/* Poseidon with the MerkleTree tag of the given arity (2, 8 or 11) over arity 32-byte LE inputs (each < r). */
cuzk_status cuzk_fil_sdr_poseidon(unsigned arity, const uint8_t (*in)[32], uint8_t out[32], cuzk_errmsg *err);

/* A tree R / tree C shape: base arity 8 over each of sub·top base trees, then an arity-sub level and an arity-top
 * level (0 = none): 8-0-0 up to 512 MiB, 8-8-0 at 32 GiB, 8-8-2 at 64 GiB. */
typedef struct {
    unsigned base, sub, top;
} cuzk_fil_sdr_shape;
cuzk_status cuzk_fil_sdr_shape_of(uint64_t sector_size, cuzk_fil_sdr_shape *shape, cuzk_errmsg *err);
/* Nodes of the whole stored tree (leaves included) of a shape over nodes leaves; 0 when nodes does not fit. */
uint64_t cuzk_fil_sdr_tree_len(cuzk_fil_sdr_shape shape, uint64_t nodes);
/* Builds the Poseidon tree bottom-up (leaves, then each level): tree gets tree_len nodes, root the last one. */
cuzk_status cuzk_fil_sdr_tree_build(cuzk_fil_sdr_shape shape, const uint8_t *leaves, uint64_t nodes, uint8_t *tree,
                                    uint8_t root[32], unsigned threads, cuzk_errmsg *err);
/* The path of leaf: for each level (leaf level first) the arity−1 siblings in order, and the leaf's index within its
 * group (into siblings / positions, as many levels as the shape has: log8 of the base tree, then sub, then top). */
cuzk_status cuzk_fil_sdr_tree_path(cuzk_fil_sdr_shape shape, const uint8_t *tree, uint64_t nodes, uint64_t leaf,
                                   uint8_t (*siblings)[32], unsigned *positions, unsigned *levels, cuzk_errmsg *err);
/* Column hash of the labels of node across `layers` layers (labels: layers × nodes × 32, layer 1 first). */
cuzk_status cuzk_fil_sdr_column_hash(const uint8_t *labels, unsigned layers, uint64_t nodes, uint64_t node,
                                     uint8_t out[32], cuzk_errmsg *err);

/* ---- the test sealer --------------------------------------------------------------------------------------------
 * Seals small sectors in memory (what rust-fil-proofs' seal_pre_commit_phase1/2 compute, without files): for the
 * C1 writer and tests. Sizes up to 512 MiB (2 layers). */
typedef struct {
    uint64_t sector_size; /* 2048, 8 MiB or 512 MiB (any power of two 2 KiB .. 1 GiB with a base shape) */
    uint8_t porep_id[32];
    cuzk_fil_sdr_api api;
    uint8_t prover_id[32];
    uint64_t sector_id;
    uint8_t ticket[32];
    unsigned threads; /* 0 = all processors */
} cuzk_fil_sdr_seal_params;

typedef struct {
    uint64_t nodes;
    unsigned layers;
    cuzk_fil_sdr_graph graph;
    cuzk_fil_sdr_parent_cache cache;
    uint8_t *data;    /* the fr32-padded sector, nodes × 32 */
    uint8_t *tree_d;  /* 2·nodes − 1 nodes */
    uint8_t *labels;  /* layers × nodes × 32; layer l (1-based) at (l−1)·nodes·32 */
    uint8_t *replica; /* the sealed sector: data + last-layer label mod r, nodes × 32 */
    cuzk_fil_sdr_shape shape;
    uint8_t *tree_c, *tree_r; /* tree_len(shape, nodes) nodes each */
    uint8_t replica_id[32], comm_d[32], comm_c[32], comm_r_last[32], comm_r[32];
} cuzk_fil_sdr_replica;

/* Seals unpadded bytes (len ≤ sector_size·127/128, zero-filled to the sector; NULL/0 for an empty sector). */
cuzk_status cuzk_fil_sdr_seal(const cuzk_fil_sdr_seal_params *p, const uint8_t *unpadded, size_t len,
                              cuzk_fil_sdr_replica *out, cuzk_errmsg *err);
void cuzk_fil_sdr_replica_free(cuzk_fil_sdr_replica *r);
/* The label of (layer, node), layers from 1; NULL outside the replica. */
const uint8_t *cuzk_fil_sdr_replica_label(const cuzk_fil_sdr_replica *r, unsigned layer, uint64_t node);
/* The column of node: its labels in layers 1 .. layers, into rows (layers × 32 bytes); false outside the replica. */
bool cuzk_fil_sdr_replica_column(const cuzk_fil_sdr_replica *r, uint64_t node, uint8_t (*rows)[32]);

/* ==================================================================================================================
 * PoRep C2: the StackedDrg partition circuit (storage-proofs-porep stacked/circuit), its witness from a C1
 * ================================================================================================================== */

/* One partition's circuit, row for row and column for column the R1CS of rust-fil-proofs' StackedCircuit: the
 * commitments first (replica_id, comm_d and comm_r made inputs, comm_r = Poseidon-2(comm_c, comm_r_last)), then per
 * challenge the data leaf and its tree D path, the 6 DRG and 8 expander parents' columns with their column hashes and
 * tree C paths, the challenge as a 64-bit input, one SHA-256 label per layer, the encoding, its tree R path, and the
 * column hash of the labels with its tree C path. docs/formats/porep-circuit.md describes the layout.
 *
 * A circuit object is made once per geometry: it lays the partition out as parallel blocks (per challenge: one for
 * the data and parent columns, one per label, one for the encoding and the challenged column) and keeps every block's
 * counts. Only the registered proof's nodes, layers, challenges, tree_r and tree_d fields are read, so a caller may
 * pass a geometry of its own (rust-fil-proofs' test circuits: 8 nodes, 2 layers, 1 challenge, tree shape 8-4-2...).
 * Tree R / tree C base arity 2, 4 or 8, sub and top 0, 2, 4 or 8; 2 or 11 layers; tree D binary. */
typedef struct cuzk_fil_porep_circuit cuzk_fil_porep_circuit;

/* Synthesizes challenge 0 once in COUNT mode to lay the blocks out (about 7.2 M rows at 32 GiB; its labels on up to
 * `threads` threads, 0 = 1). CUZK_ERR_INVALID_ARG for a geometry the circuit does not take. */
cuzk_status cuzk_fil_porep_circuit_new(cuzk_fil_porep_circuit **out, const cuzk_fil_proof *p, unsigned threads,
                                       cuzk_errmsg *err);
void cuzk_fil_porep_circuit_free(cuzk_fil_porep_circuit *c);
/* The partition's counts: inputs (ONE included), aux, rows and non-zeros of A, B, C. */
void cuzk_fil_porep_circuit_counts(const cuzk_fil_porep_circuit *c, cuzk_cs_counts *out);
/* The same for one challenge's share (what each further challenge adds). */
void cuzk_fil_porep_circuit_challenge_counts(const cuzk_fil_porep_circuit *c, cuzk_cs_counts *out);
/* Variables of the witness: inputs + aux. */
uint64_t cuzk_fil_porep_circuit_num_vars(const cuzk_fil_porep_circuit *c);

/* Synthesizes partition k of c1 into cs, any mode; c1 NULL gives the blank circuit (zeros). c1 must be of c's
 * geometry and already checked (cuzk_fil_porep_c1_check): the blocks take the values they share (parent rows,
 * labels, the data leaf) from the C1, so an inconsistent one gives an assignment that does not satisfy. CHECK mode
 * runs on one thread (a block reads values other blocks write). threads 0 = 1. Returns cuzk_cs_status(cs). */
cuzk_status cuzk_fil_porep_synthesize(const cuzk_fil_porep_circuit *c, cuzk_cs *cs, const cuzk_fil_c1 *c1, uint32_t k,
                                      unsigned threads);
/* The blank circuit of registered proof p into cs, any mode, the circuit object made and freed on the way: the
 * PoRep row of a table of circuits by kind. Returns cuzk_cs_status(cs) (with its detail in err). */
cuzk_status cuzk_fil_porep_blank(cuzk_cs *cs, const cuzk_fil_proof *p, unsigned threads, cuzk_errmsg *err);
/* The system (SHAPE mode; what a PCE file caches). */
cuzk_status cuzk_fil_porep_shape(const cuzk_fil_porep_circuit *c, unsigned threads, cuzk_r1cs_t **out,
                                 cuzk_errmsg *err);
/* Partition k's assignment [inputs | aux] into z (len = cuzk_fil_porep_circuit_num_vars values, pinned memory for
 * a device say). */
cuzk_status cuzk_fil_porep_witness(const cuzk_fil_porep_circuit *c, const cuzk_fil_c1 *c1, uint32_t k, unsigned threads,
                                   cuzk_fr_t *z, uint64_t len, cuzk_errmsg *err);

/* ---- what the proof says: public inputs, and the check of a C1 --------------------------------------------------- */

/* The public data of a sealed sector's PoRep: what a verifier knows (filecoin-proofs' verify_seal arguments). */
typedef struct {
    uint8_t prover_id[32];
    uint64_t sector_id;
    uint8_t ticket[32], seed[32];
    uint8_t comm_d[32], comm_r[32];
} cuzk_fil_porep_public;

/* SHA-256(prover_id ‖ sector_id u64 BE ‖ ticket ‖ comm_d ‖ porep_id) with the top two bits cleared. */
void cuzk_fil_porep_replica_id(const cuzk_fil_proof *p, const uint8_t prover_id[32], uint64_t sector_id,
                               const uint8_t ticket[32], const uint8_t comm_d[32], uint8_t out[32]);
/* Public inputs of one partition without ONE: 3 + 18 per challenge (327 at 32 GiB, 39 at the test sizes). */
size_t cuzk_fil_porep_public_input_count(const cuzk_fil_proof *p);
/* Partition k's inputs as StackedCompound::generate_public_inputs orders them: replica_id, comm_d, comm_r, then per
 * challenge its node (tree D path), the 6 DRG and 8 expander parents (their tree C paths), the node three more times
 * (the UInt64 challenge, tree R path, tree C path). Challenges are interactive, synthetic or NI as p's kind says.
 * CUZK_ERR_INVALID_ARG for an all-zero comm_d, comm_r or seed (Rust refuses them), CUZK_ERR_NOT_CANONICAL for a
 * commitment not below r. out holds cuzk_fil_porep_public_input_count(p). */
cuzk_status cuzk_fil_porep_public_inputs(const cuzk_fil_proof *p, const cuzk_fil_porep_public *pub, uint32_t k,
                                         cuzk_fr_t *out, cuzk_errmsg *err);
/* The public data a C1 carries, with the request's prover id and sector. */
void cuzk_fil_porep_public_of_c1(const cuzk_fil_c1 *c1, const uint8_t prover_id[32], uint64_t sector_id,
                                 cuzk_fil_porep_public *out);

/* Checks that a parsed C1 proves what it claims, so that no witness that cannot satisfy is ever proved: replica_id
 * is the one prover_id and sector_id give, comm_r = Poseidon(comm_c, comm_r_last), every challenge is the one derived
 * for its partition, every column is the graph's parent it stands for and hashes to its tree C leaf, every path hashes
 * to its root, every label is the SHA-256 of its parents' rows (and the labeling and encoding proofs carry those
 * rows), and the replica node is the last label plus the data. Challenges are checked on `threads` threads (0 = 1).
 * CUZK_ERR_MISMATCH (or CUZK_ERR_PROOF_INVALID for a path) naming the field of the lowest failing challenge:
 * "vanilla_proofs[3][7].replica_column_proofs.exp_parents[2]: column 9, the graph's is 12". */
cuzk_status cuzk_fil_porep_c1_check(const cuzk_fil_c1 *c1, const uint8_t prover_id[32], uint64_t sector_id,
                                    unsigned threads, cuzk_errmsg *err);

/* Commit phase 1 of a test replica (cuzk_fil_sdr_seal, sealed for p's porep id and API): the C1 filecoin-proofs'
 * seal_commit_phase1 makes for seed (and ticket, which the replica id was made from), every partition's challenges
 * opened. CUZK_ERR_MISMATCH when the replica is not of p's geometry or porep id. */
cuzk_status cuzk_fil_porep_c1_from_replica(const cuzk_fil_sdr_replica *r, const cuzk_fil_proof *p,
                                           const uint8_t ticket[32], const uint8_t seed[32], cuzk_fil_c1 *out,
                                           cuzk_errmsg *err);

/* ---- proving and verifying (CPU) --------------------------------------------------------------------------------- */

/* A system built elsewhere (a PCE file) against the circuit's counts: CUZK_ERR_MISMATCH when they differ. */
cuzk_status cuzk_fil_porep_check_circuit(const cuzk_fil_porep_circuit *c, const cuzk_r1cs_t *shape, cuzk_errmsg *err);

typedef struct {
    unsigned threads; /* 0 = 1 */
    bool c1_checked;  /* the caller ran cuzk_fil_porep_c1_check on this C1 and request already */
    bool benchmark;   /* a generated C1 (cuzk_fil_c1_random), which cannot verify: no check, no comparison of the
                        * public inputs, no verification; the proofs are worthless */
} cuzk_fil_porep_prove_opts;

typedef struct {
    double check, witness, prove, verify, total; /* seconds, witness and prove summed over partitions */
} cuzk_fil_porep_prove_stats;

/* A whole C2: checks c1 (cuzk_fil_porep_c1_check), then per partition makes the witness, compares its input part
 * with cuzk_fil_porep_public_inputs and proves with pk (bellperson convention) over shape (the circuit's system),
 * then verifies all partitions with vk (NULL: pk's own). proofs gets c1->partitions proofs in partition order
 * (bellperson's multi-proof: their 192-byte encodings concatenated); CUZK_OK only when they verify. */
cuzk_status cuzk_fil_porep_prove(const cuzk_fil_porep_circuit *c, const cuzk_r1cs_t *shape, const cuzk_groth16_pk *pk,
                                 const cuzk_groth16_vk *vk, const cuzk_fil_c1 *c1, const uint8_t prover_id[32],
                                 uint64_t sector_id, const cuzk_fil_porep_prove_opts *o, cuzk_groth16_proof_t *proofs,
                                 cuzk_fil_porep_prove_stats *st, cuzk_errmsg *err);
/* verify_seal: the n (= p->partitions) proofs against the public inputs pub gives. CUZK_OK when valid,
 * CUZK_ERR_PROOF_INVALID when not, other statuses for bad arguments (a vk of another input count:
 * CUZK_ERR_MISMATCH). */
cuzk_status cuzk_fil_porep_verify(const cuzk_groth16_vk *vk, const cuzk_fil_proof *p, const cuzk_fil_porep_public *pub,
                                  const cuzk_groth16_proof_t *proofs, uint32_t n, cuzk_errmsg *err);

#ifdef __cplusplus
}
#endif

#endif
