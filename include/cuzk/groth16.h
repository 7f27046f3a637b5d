/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk groth16: proving and verifying keys in the two conventions in use (Filecoin/bellperson .params and snarkjs
 * .zkey), the prover, the verifier (single and batch), a test setup, and the proof/key encodings.
 *
 * Variables are ordered as bellperson orders them (see r1cs.h): index 0 is the constant ONE, then the other public
 * inputs, then the aux (private) variables; a witness z holds all of them with z[0] = 1. circom's wire order is the
 * same order. "inputs" below always counts ONE, so a circuit with P public signals has num_inputs = P + 1.
 *
 * Functions that read files or untrusted bytes take an optional cuzk_errmsg that receives a one-line detail besides
 * the status code; NULL ignores it. */
#ifndef CUZK_GROTH16_H
#define CUZK_GROTH16_H

#include "cuzk/ec.h"
#include "cuzk/ff.h"
#include "cuzk/msm.h"
#include "cuzk/ntt.h"
#include "cuzk/pairing.h"
#include "cuzk/r1cs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The conventions differ in the H basis, the root of unity and the rows the prover adds:
 *  BELLPERSON: domain n = next_pow2(constraints + inputs); the prover appends one row per input i (A = z_i, B = C = 0);
 *              roots from generator 7; h = (a·b − c)/Z on the coset g = 7 (cuzk_ntt_h_bellperson), n − 1 points
 *              h_i = τ^i·Z(τ)/δ; a/b bases only for the variables the circuit's density bitmaps select.
 *  SNARKJS:    the zkey's own A/B matrices already hold the input rows; roots from generator 5; h on the odd coset of
 *              the 2n domain without division (cuzk_ntt_h_snarkjs), n points; a/b bases dense over every variable. */
typedef enum {
    CUZK_GROTH16_BELLPERSON = 1,
    CUZK_GROTH16_SNARKJS = 2,
} cuzk_groth16_convention;

typedef struct {
    cuzk_g1_affine_t alpha_g1, beta_g1, delta_g1;
    cuzk_g2_affine_t beta_g2, gamma_g2, delta_g2;
    cuzk_g1_affine_t *ic; /* num_inputs points: the public-input basis, already divided by γ (snarkjs: γ = 1) */
    uint64_t num_inputs;  /* ONE included */
    void *storage; /* malloc'd block owned by the vk when it was loaded on its own (freed by cuzk_groth16_vk_free);
                          * NULL when ic lives in the pk's storage */
} cuzk_groth16_vk;

typedef struct {
    cuzk_groth16_convention conv;
    cuzk_groth16_vk vk;
    uint64_t num_aux;
    uint64_t domain_size; /* n, a power of two */
    cuzk_g1_affine_t *h;
    uint64_t h_len; /* BELLPERSON n − 1, SNARKJS n */
    cuzk_g1_affine_t *l;
    uint64_t l_len; /* one per aux variable */
    cuzk_g1_affine_t *a;
    uint64_t a_len; /* BELLPERSON: inputs + aux selected by a_aux density; SNARKJS: all vars */
    cuzk_g1_affine_t *b_g1;
    uint64_t b_len; /* BELLPERSON: inputs and aux selected by b density; SNARKJS: all vars */
    cuzk_g2_affine_t *b_g2;
    cuzk_r1cs_t *circuit; /* SNARKJS: the A/B matrices from the zkey (C is never stored: c = a∘b); else NULL.
                        * Owned: cuzk_groth16_pk_free calls cuzk_r1cs_free on it */
    void *storage;        /* owned point storage: one malloc'd block (or NULL), freed by cuzk_groth16_pk_free */
} cuzk_groth16_pk;

/* ---- proofs (src/groth16/proof.c) ------------------------------------------------------------------------------- */
/* A Groth16 proof in bellperson's encoding, 192 bytes: A (G1, 48) ‖ B (G2, 96) ‖ C (G1, 48), each zcash-compressed.
 * Decoding rejects infinity nowhere (a proof point may legitimately be infinity) but checks curve and subgroup:
 * CUZK_ERR_BAD_LENGTH for any length but 192, else the ec decoders' status for the first bad point; *r is written
 * only on success. */
#define CUZK_GROTH16_PROOF_BYTES 192
typedef struct {
    cuzk_g1_affine_t a;
    cuzk_g2_affine_t b;
    cuzk_g1_affine_t c;
} cuzk_groth16_proof_t;
void cuzk_groth16_proof_to_bytes(uint8_t out[CUZK_GROTH16_PROOF_BYTES], const cuzk_groth16_proof_t *p);
cuzk_status cuzk_groth16_proof_from_bytes(cuzk_groth16_proof_t *r, const uint8_t *in, size_t len);

/* Release what the key owns (storage blocks, pk->circuit) and zero the struct; harmless on a zeroed key. */
void cuzk_groth16_vk_free(cuzk_groth16_vk *vk);
void cuzk_groth16_pk_free(cuzk_groth16_pk *pk);

/* ---- key files (src/groth16/params.c, zkey.c) -------------------------------------------------------------------- */
/* Loaders map the file read-only, derive the whole layout from its counts and check it against the file length before
 * allocating anything (a hostile count cannot make them allocate more than the file holds), then decode every point
 * (curve always checked) into one malloc'd block, pk->storage (the vk's ic included; vk.storage = NULL). On failure
 * *pk is zeroed. Statuses: CUZK_ERR_IO (open/map), CUZK_ERR_TRUNCATED (a count or section runs past the end),
 * CUZK_ERR_BAD_HEADER (counts that disagree), and the ec decoders' point statuses (CUZK_ERR_BAD_FLAGS,
 * CUZK_ERR_COORD_RANGE, CUZK_ERR_NOT_ON_CURVE, CUZK_ERR_NOT_IN_SUBGROUP, CUZK_ERR_INFINITY) for the lowest bad
 * point; the detail names the array and index ("params: h[2] (byte 1540): ..."). threads 0 = 1. */
enum {
    CUZK_GROTH16_LOAD_SUBGROUP = 1, /* also check every point's subgroup membership (the curve check always runs) */
};
/* bellperson .params: vk (α1, β1, β2, γ2, δ1, δ2, u32 count, ic), then h, l, a, b_g1, b_g2, each a u32 big-endian
 * count and uncompressed zcash points. As bellperson, infinity is refused everywhere. Trailing bytes:
 * CUZK_ERR_BAD_LENGTH. h + 1 must be a power of two (domain_size), ic non-empty (num_inputs), |b_g1| = |b_g2|,
 * |a| and |b| at most ic + l (num_aux = |l|): CUZK_ERR_BAD_HEADER otherwise. */
cuzk_status cuzk_groth16_params_load(cuzk_groth16_pk *pk, const char *path, unsigned flags, unsigned threads,
                                     cuzk_errmsg *err);
/* The same from a .params image already in memory (len bytes at data, which the caller keeps: a mapping kept for
 * a fast reload, for example); pk does not point into it. */
cuzk_status cuzk_groth16_params_parse(cuzk_groth16_pk *pk, const uint8_t *data, size_t len, unsigned flags,
                                      unsigned threads, cuzk_errmsg *err);
/* The exact inverse (a loaded file is written back byte for byte). BELLPERSON keys only (CUZK_ERR_INVALID_ARG);
 * a point at infinity gives CUZK_ERR_INFINITY, since no reader would take the file; no partial file is left. */
cuzk_status cuzk_groth16_params_write(const cuzk_groth16_pk *pk, const char *path, cuzk_errmsg *err);
/* bellperson .vk: the vk prefix of .params alone (868 + 96·ic bytes). A verifying key decides what a verifier
 * accepts, so its points are always subgroup-checked. vk->storage owns vk->ic. */
cuzk_status cuzk_groth16_vk_load(cuzk_groth16_vk *vk, const char *path, cuzk_errmsg *err);
cuzk_status cuzk_groth16_vk_parse(cuzk_groth16_vk *vk, const uint8_t *data, size_t len, cuzk_errmsg *err);
cuzk_status cuzk_groth16_vk_write(const cuzk_groth16_vk *vk, const char *path, cuzk_errmsg *err);
/* snarkjs .zkey (Groth16 over bls12381): iden3 container (sections by type in any order; sections 1-9 each exactly
 * once, else CUZK_ERR_BAD_SECTION; others, like the MPC transcript 10, ignored). Protocol other than 1:
 * CUZK_ERR_WRONG_PROTOCOL; field sizes or primes other than BLS12-381's: CUZK_ERR_WRONG_CURVE. Every section's size
 * must follow from nVars, nPublic and domainSize (CUZK_ERR_BAD_SECTION). α, β, γ, δ may not be infinity; the bases
 * (IC, A, B1, B2, C, H) may. The coefficient section (values coef·R² mod r) becomes pk->circuit: num_inputs =
 * nPublic + 1, A and B with repeated entries summed, C empty, rows = the highest constraint index + 1, which must
 * make domainSize the smallest power of two holding them (CUZK_ERR_BAD_HEADER); a coefficient names matrix 0 or 1
 * (CUZK_ERR_BAD_SECTION), a signal < nVars (CUZK_ERR_R1CS_COLUMN), a value < r (CUZK_ERR_R1CS_COEFF).
 * Result: conv = SNARKJS, a/b_g1/b_g2 over all nVars, l = C (nVars − nPublic − 1), h = H (domainSize). */
cuzk_status cuzk_groth16_zkey_load(cuzk_groth16_pk *pk, const char *path, unsigned flags, unsigned threads,
                                   cuzk_errmsg *err);
/* The same from an image in memory (which the caller keeps; pk does not point into it). */
cuzk_status cuzk_groth16_zkey_parse(cuzk_groth16_pk *pk, const uint8_t *data, size_t len, unsigned flags,
                                    unsigned threads, cuzk_errmsg *err);
/* A SNARKJS key (with pk->circuit: A and B, input rows included) as a .zkey that cuzk_groth16_zkey_load reads back
 * to the same key: sections in the order `snarkjs groth16 setup` writes them (1, 2, 4, 3, 9, 8, 5, 6, 7, 10), a
 * transcript of no contributions. For test fixtures; written whole or not at all. CUZK_ERR_INVALID_ARG for a
 * bellperson key, CUZK_ERR_TOO_LARGE past the format's u32 counts. */
cuzk_status cuzk_groth16_zkey_write(const cuzk_groth16_pk *pk, const char *path, cuzk_errmsg *err);
/* A circuit and its key belong together: counts, densities and domain must agree (CUZK_ERR_MISMATCH otherwise). */
cuzk_status cuzk_groth16_pk_check_circuit(const cuzk_groth16_pk *pk, const cuzk_r1cs_t *circuit, cuzk_errmsg *err);

/* ---- file formats (src/groth16/format.c) ------------------------------------------------------------------------ */
/* Every file format the CLI, the daemon and the tests read, told apart by content (docs/formats/README.md): one table
 * of rules tried in order, each a magic (PCE, the iden3 containers) or a shape (the first keys of a snarkjs JSON
 * document, the compressed flags of a 192-byte proof, a bellperson key's valid α1), and for the formats whose header
 * or counts fix the file's size, that size against the file's (a .vk is exactly 868 + 96·IC bytes; a .params goes
 * on with H's count and points, and its counts must lay out the whole file). */
typedef enum {
    CUZK_GROTH16_FORMAT_UNKNOWN = 0,
    CUZK_GROTH16_FORMAT_PCE,
    CUZK_GROTH16_FORMAT_WTNS,
    CUZK_GROTH16_FORMAT_R1CS,
    CUZK_GROTH16_FORMAT_ZKEY,
    CUZK_GROTH16_FORMAT_PTAU,
    CUZK_GROTH16_FORMAT_PARAMS,      /* bellperson .params: the vk, then the prover's bases */
    CUZK_GROTH16_FORMAT_VK,          /* bellperson .vk: the vk prefix alone */
    CUZK_GROTH16_FORMAT_PROOF_BIN,   /* 192-byte compressed proof */
    CUZK_GROTH16_FORMAT_PROOF_JSON,  /* snarkjs proof.json */
    CUZK_GROTH16_FORMAT_VK_JSON,     /* snarkjs verification_key.json */
    CUZK_GROTH16_FORMAT_PUBLIC_JSON, /* snarkjs public.json */
} cuzk_groth16_format;

/* How the bytes measure up to the format's layout (only formats with a size rule can be other than WHOLE). */
typedef enum {
    CUZK_GROTH16_SHAPE_WHOLE = 0, /* the size its header or counts make it, or a format without such a rule */
    CUZK_GROTH16_SHAPE_TRUNCATED, /* shorter than its header or counts make it */
    CUZK_GROTH16_SHAPE_TRAILING,  /* longer: bytes follow where it ends */
    CUZK_GROTH16_SHAPE_DAMAGED,   /* the format's signature, but a header or counts that lay out no such file */
} cuzk_groth16_shape;

typedef struct {
    cuzk_groth16_format format;
    cuzk_groth16_shape shape;
    uint64_t size;     /* the file's bytes */
    uint64_t expected; /* TRUNCATED, TRAILING: the size its header or counts make, where they can be read; else 0 */
    /* Another format the bytes may be, cut short: a .params starts with its .vk, so a truncated .vk, or one followed
     * by fewer bytes than an H count other than 0 and H's first point, is also a truncated .params. Else UNKNOWN. */
    cuzk_groth16_format also;
    /* The answer in words, an article first: "a bellperson verifying key (.vk)", "a truncated .vk (5 IC points make
     * 1348 bytes, this file has 1000)", "a .vk with 1 trailing byte (5 IC points make 1348 bytes, this file has
     * 1349)", "a damaged .params (...)", "an empty file", "no format cuzk knows". */
    char what[320];
} cuzk_groth16_format_info;

/* The format of the len bytes at buf (a whole file: a mapping costs only the pages the tests read); info (may be
 * NULL) gets the shape and the words. Nothing is decoded beyond α1 (and the point after a .vk's end) and the counts.
 * A file with a format's signature but the wrong size is still given that format, with its shape saying how it is
 * wrong: a truncated .vk is a truncated .vk, not unknown, and a .vk with bytes appended is not a .params. */
cuzk_groth16_format cuzk_groth16_detect_format(const uint8_t *buf, size_t len, cuzk_groth16_format_info *info);
/* Whether the bytes may be a file of format want, whole or damaged: they have that format, or none cuzk knows (the
 * loader then says what is wrong), or want is what they may also be (info.also). Loaders and the CLI name the format
 * of a file for which this is false ("--params: this is a snarkjs proof (proof.json), not a ..."). */
bool cuzk_groth16_format_may_be(const cuzk_groth16_format_info *in, cuzk_groth16_format want);
/* "bellperson verifying key (.vk)"; "unknown" for values outside the enum. */
const char *cuzk_groth16_format_name(cuzk_groth16_format f);
/* ".vk", "proof.json", "192-byte proof": the short name the shapes' words use. */
const char *cuzk_groth16_format_short_name(cuzk_groth16_format f);
/* The public inputs (ONE included) a verifying key takes, without decoding any of its points: a .vk's IC count (the
 * file must be exactly that long), a verification_key.json's nPublic + 1 (its IC array must have that many elements,
 * counted by a scan that allocates nothing). For a caller that compares it with its public inputs before paying for
 * a load. CUZK_ERR_BAD_MAGIC for other formats, CUZK_ERR_TRUNCATED / CUZK_ERR_BAD_LENGTH / CUZK_ERR_BAD_JSON for a
 * key that is not whole. */
cuzk_status cuzk_groth16_vk_inputs(const uint8_t *buf, size_t len, uint64_t *num_inputs, cuzk_errmsg *err);

/* ---- JSON (snarkjs layouts; src/groth16/json.c) ------------------------------------------------------------------ */
/* Output strings are malloc'd (free()), indented like snarkjs's; inputs are NUL-terminated. Public signals exclude
 * ONE. Numbers are canonical decimal strings, points affine with z = "1" (infinity ["0", "1", "0"]), Fp2 [c0, c1].
 * Readers are strict: CUZK_ERR_BAD_JSON for malformed JSON, repeated keys, missing fields, wrong types or array
 * lengths, non-canonical decimals (sign, leading zero, other characters) and a z other than 1 (or infinity's form);
 * CUZK_ERR_WRONG_PROTOCOL / CUZK_ERR_WRONG_CURVE unless "groth16" / "bls12381"; CUZK_ERR_COORD_RANGE for a coordinate
 * >= p, then CUZK_ERR_NOT_ON_CURVE / CUZK_ERR_NOT_IN_SUBGROUP (both always checked); CUZK_ERR_NOT_CANONICAL for a
 * public signal >= r. The detail names the field ("pi_b[0][1]: ..."). Unknown extra keys are ignored.
 * Proof points may be infinity. verification_key.json: α, β, γ, δ may not (CUZK_ERR_INFINITY), IC points may;
 * len(IC) must be nPublic + 1, and vk_alphabeta_12 must equal e(α1, β2) (CUZK_ERR_MISMATCH). The JSON has no β1 and
 * δ1: cuzk_groth16_vk_from_json leaves them at infinity, and vk->storage owns vk->ic. cuzk_groth16_public_from_json gives
 * *pub = NULL for an empty array. A build without jansson (an optional dependency) returns CUZK_ERR_UNSUPPORTED
 * from all six. */
cuzk_status cuzk_groth16_proof_to_json(const cuzk_groth16_proof_t *proof, char **out);
cuzk_status cuzk_groth16_proof_from_json(cuzk_groth16_proof_t *proof, const char *json, cuzk_errmsg *err);
cuzk_status cuzk_groth16_public_to_json(const cuzk_fr_t *pub, uint64_t n, char **out);
cuzk_status cuzk_groth16_public_from_json(cuzk_fr_t **pub, uint64_t *n, const char *json, cuzk_errmsg *err);
cuzk_status cuzk_groth16_vk_to_json(const cuzk_groth16_vk *vk, char **out);
cuzk_status cuzk_groth16_vk_from_json(cuzk_groth16_vk *vk, const char *json, cuzk_errmsg *err);

/* ---- prover (src/groth16/prover.c) ------------------------------------------------------------------------------- */
typedef struct {
    unsigned threads; /* 0 = 1 */
    bool given_rs;    /* use r and s below instead of the OS random source (deterministic tests) */
    cuzk_fr_t r, s;
    cuzk_r1cs_c_mode
        c_mode;  /* how c = C·z is formed: CUZK_R1CS_C_PRODUCT (fast), CUZK_R1CS_C_CHECKED (reject bad witness) */
    bool verify; /* check the proof made as a verifier would before returning it (see below) */
    bool no_merge_equal; /* every witness scalar its own MSM point: equal scalars are otherwise merged (same proof) */
} cuzk_groth16_prove_opts;

/* Wall-clock seconds per phase, filled when the caller passes a stats pointer (verify: the check opts->verify asks
 * for, 0 without it), and the proof's work: the transforms' size 2^domain_log2, and the points each MSM sums with
 * a scalar other than 0 and 1 (H: its coefficients; L, A and B after the 0/1 split and, where equal scalars are
 * merged, one point per group of them; B's count holds for G1 and G2). What a floor of the proof's arithmetic is
 * computed from (cuzk-engine-bench --floor). */
typedef struct {
    double spmv, ntt_h, msm_h, msm_l, msm_a, msm_b1, msm_b2, assembly, verify, total;
    unsigned domain_log2;
    uint64_t points_h, points_l, points_a, points_b;
} cuzk_groth16_prove_stats;

/* One proof for witness z (cuzk_r1cs_num_vars(circuit) values, z[0] = 1 else CUZK_ERR_INVALID_ARG). opts NULL: one
 * thread, random r and s, c = C·z. The key must fit the circuit (cuzk_groth16_pk_check_circuit, CUZK_ERR_MISMATCH).
 *  BELLPERSON: circuit is the circuit the key was made for (required). An unsatisfied witness in CUZK_R1CS_C_CHECKED
 *              mode gives CUZK_ERR_R1CS_UNSATISFIED with the row in the message.
 *  SNARKJS:    pk->circuit drives the prover and c is always a∘b (the key has no C). circuit may be NULL; in
 *              CUZK_R1CS_C_CHECKED mode it must be the full circuit (with C, without the input rows), which the witness
 *              is checked against first (CUZK_ERR_INVALID_ARG when it is NULL or pk->circuit).
 * r and s are wiped before returning; the terms that hold them use constant-time scalar multiplication.
 * opts->verify: the proof is encoded, decoded with every check a verifier makes (curve, subgroup) and verified against
 * pk->vk with the witness's public inputs z[1 .. num_inputs − 1]; CUZK_ERR_PROOF_INVALID when it does not verify
 * (the witness does not satisfy the circuit, which a snarkjs key alone cannot tell, or the key is inconsistent), and
 * *proof is then zeroed. A few milliseconds: one prepared key and one three-pairing check. */
cuzk_status cuzk_groth16_prove(cuzk_groth16_proof_t *proof, const cuzk_groth16_pk *pk, const cuzk_r1cs_t *circuit,
                               const cuzk_fr_t *z, const cuzk_groth16_prove_opts *opts, cuzk_groth16_prove_stats *stats,
                               cuzk_errmsg *err);

/* The prover in two steps, for pipelines that synthesize one partition while proving another:
 *  cuzk_groth16_synthesize: the checks above, then a, b, c = the witness combinations evaluated on the key's domain
 *                      (the sparse evaluation; stats->spmv). *syn owns them; on failure *syn is empty.
 *  cuzk_groth16_prove_from_synthesis: H, the MSMs and the assembly, with the same key, circuit, z and options. It
 *                      consumes *syn, freeing each vector as soon as it is no longer needed (so the MSMs have its
 *                      memory); *syn is empty afterwards whatever the outcome. Passing the stats filled by
 *                      cuzk_groth16_synthesize keeps its spmv figure in the totals.
 * cuzk_groth16_prove is exactly the two in a row. */
typedef struct {
    uint64_t n;           /* the key's domain size */
    cuzk_fr_t *a, *b, *c; /* n each, malloc'd */
} cuzk_groth16_synthesis;

cuzk_status cuzk_groth16_synthesize(cuzk_groth16_synthesis *syn, const cuzk_groth16_pk *pk, const cuzk_r1cs_t *circuit,
                                    const cuzk_fr_t *z, const cuzk_groth16_prove_opts *opts,
                                    cuzk_groth16_prove_stats *stats, cuzk_errmsg *err);
cuzk_status cuzk_groth16_prove_from_synthesis(cuzk_groth16_proof_t *proof, const cuzk_groth16_pk *pk,
                                              const cuzk_r1cs_t *circuit, const cuzk_fr_t *z,
                                              cuzk_groth16_synthesis *syn, const cuzk_groth16_prove_opts *opts,
                                              cuzk_groth16_prove_stats *stats, cuzk_errmsg *err);
void cuzk_groth16_synthesis_free(cuzk_groth16_synthesis *syn);

/* The prover's last step on its own, for backends that compute the MSMs elsewhere (the GPU): the five sums over
 * the key's bases (H, L, A, B1 in G1, B2 in G2; see prover.c for what each is), then r and s (opts->given_rs, or
 * the OS random source: CUZK_ERR_IO if it fails) and the proof A, B, C with constant-time multiplications for
 * every term that holds them. r and s are wiped before returning. opts may be NULL. */
typedef struct {
    cuzk_g1_jac_t h, l, a, b1;
    cuzk_g2_jac_t b2;
} cuzk_groth16_msm_sums;
cuzk_status cuzk_groth16_assemble(cuzk_groth16_proof_t *proof, const cuzk_groth16_vk *vk,
                                  const cuzk_groth16_msm_sums *sums, const cuzk_groth16_prove_opts *opts);

/* ---- memory model (prover.c) ---------------------------------------------------------------------------------- */
/* The dimensions the prover's allocations depend on. Index 0, 1, 2 of the arrays: the L, A and B MSMs (B1 and B2
 * share B's split). The model (cuzk_groth16_prove_shape_peak_bytes) goes through the prover's phases in order, adds up
 * the blocks live in each, exactly as the code sizes them, and takes the largest; the formula is in prover.c. */
enum { CUZK_GROTH16_MSM_L = 0, CUZK_GROTH16_MSM_A = 1, CUZK_GROTH16_MSM_B = 2 };
#define CUZK_GROTH16_UNKNOWN UINT64_MAX
typedef struct {
    uint64_t domain_size; /* n */
    uint64_t h_len;       /* points of the H MSM (pk->h_len): n − 1 or n */
    uint64_t vars[3];     /* variables each split visits: L the aux ones, A and B all (ONE included) */
    uint64_t sel[3];      /* the positions it keeps = the key's bases: pk->l_len, pk->a_len, pk->b_len */
    uint64_t tail[3];     /* of those, scalars other than 0 and 1 (the split's tail) */
    uint64_t gathered[4]; /* of those, with a base not at infinity, for L, A, B1 and B2: the points of each
                           * Pippenger MSM. CUZK_GROTH16_UNKNOWN: any count up to the tail */
    uint64_t groups[3];   /* groups of equal scalars in the tail (each one point of a second MSM), and the tail */
    uint64_t moved[3];    /* scalars that left the tail for them (all but one a group); UNKNOWN: up to the tail */
} cuzk_groth16_prove_shape;

/* The worst case knowing only the key's domain and the circuit's variable count: every split keeps every
 * variable and finds no 0 or 1 (the bound must hold before the witness is known), h_len up to n. */
void cuzk_groth16_prove_shape_worst(cuzk_groth16_prove_shape *sh, uint64_t domain_size, uint64_t num_vars);
/* The worst witness for a loaded key: the key's densities (its l, a, b lengths) and h_len, no scalar 0 or 1. */
void cuzk_groth16_prove_shape_key(cuzk_groth16_prove_shape *sh, const cuzk_groth16_pk *pk);
/* The exact shape of proving witness z with this key and circuit (as cuzk_groth16_prove would take them; the key must
 * fit the circuit): one pass over z, as the prover's splits count. */
cuzk_status cuzk_groth16_prove_shape_of(cuzk_groth16_prove_shape *sh, const cuzk_groth16_pk *pk,
                                        const cuzk_r1cs_t *circuit, const cuzk_fr_t *z);
/* The most bytes cuzk_groth16_synthesize + cuzk_groth16_prove_from_synthesis have allocated (from malloc, with its
 * per-block overhead) at any moment for this shape on `threads` threads, the witness and key not included. */
uint64_t cuzk_groth16_prove_shape_peak_bytes(const cuzk_groth16_prove_shape *sh, unsigned threads);
/* cuzk_groth16_prove_shape_peak_bytes of cuzk_groth16_prove_shape_worst: what memory admission reserves per partition,
 * before any witness is known. Never below the real peak, whatever the witness. */
uint64_t cuzk_groth16_prove_peak_bytes(uint64_t domain_size, uint64_t num_vars, unsigned threads);

/* ---- verifier (src/groth16/verifier.c) --------------------------------------------------------------------------- */
typedef struct {
    cuzk_fp12_t alpha_beta; /* e(α1, β2) */
    cuzk_g2_prepared_t neg_gamma, neg_delta, beta;
    const cuzk_groth16_vk *vk;
} cuzk_groth16_pvk;

void cuzk_groth16_prepare_vk(cuzk_groth16_pvk *pvk, const cuzk_groth16_vk *vk);
/* inputs: the public inputs without ONE (vk->num_inputs − 1 of them). CUZK_OK when the proof is valid,
 * CUZK_ERR_PROOF_INVALID when it is not, CUZK_ERR_MISMATCH for a wrong input count. Proof points must already be
 * validated (on curve, in subgroup), as the decoders do. */
cuzk_status cuzk_groth16_verify(const cuzk_groth16_pvk *pvk, const cuzk_groth16_proof_t *proof, const cuzk_fr_t *inputs,
                                uint64_t num_inputs);
/* count proofs of the same circuit, inputs[j·num_inputs + i]; random 128-bit weights from the OS, one Miller loop
 * over count + 3 pairs, one final exponentiation. CUZK_OK only when every proof is valid (a bad one slips through
 * with probability 2^−128). count = 1 is cuzk_groth16_verify; count = 0 is CUZK_ERR_INVALID_ARG. */
cuzk_status cuzk_groth16_verify_batch(const cuzk_groth16_pvk *pvk, const cuzk_groth16_proof_t *proofs,
                                      const cuzk_fr_t *inputs, uint64_t num_inputs, uint64_t count);

/* ---- setup for tests and benchmarks, not a ceremony (src/groth16/setup.c) ---------------------------------------- */
/* Random τ, α, β, γ, δ (or given, for reproducible keys) → a key for the circuit in either convention.
 *  BELLPERSON (conv 0 means this too): the key .params would hold for the circuit; the domain holds the circuit's
 *              rows and one row per input; a/b points for the density-selected variables only.
 *  SNARKJS:    the key a zkey would hold: γ = 1 (the given gamma is ignored, gamma_g2 is the generator), IC not
 *              divided by γ, dense a/b, H points L^{2n}_{2j+1}(τ)/δ, and pk->circuit = the circuit's A and B with
 *              the input rows (A = z_i) appended after its rows and no C, as a zkey's coefficient section gives.
 * Given toxic waste must have γ, δ ≠ 0 and τ outside the domain (and its 2n extension), else CUZK_ERR_INVALID_ARG.
 * CUZK_ERR_TOO_LARGE when rows + inputs exceed 2^CUZK_NTT_MAX_LOG2. A variable that appears in no constraint gets the
 * point at infinity in L (bellperson's generator refuses such circuits; a test setup need not). The key's points
 * and the vk's IC live in pk->storage, one malloc'd block; cuzk_groth16_pk_free releases it. */
typedef struct {
    unsigned threads;
    bool given_toxic;
    cuzk_fr_t tau, alpha, beta, gamma, delta;
    cuzk_groth16_convention conv; /* 0 = CUZK_GROTH16_BELLPERSON */
} cuzk_groth16_setup_opts;
cuzk_status cuzk_groth16_setup(cuzk_groth16_pk *pk, const cuzk_r1cs_t *circuit, const cuzk_groth16_setup_opts *opts,
                               cuzk_errmsg *err);

/* ---- powers of tau for snarkjs, for tests and fixtures, not a ceremony (src/groth16/ptau.c) ---------------------- */
/* A snarkjs .ptau (BLS12-381) already prepared for phase 2, from random τ, α, β (or given ones), that
 * `snarkjs groth16 setup` reads like the output of `snarkjs powersoftau prepare phase2`. Layout
 * (docs/formats/snarkjs.md §3), sections in snarkjs's order 1-7, 12-15, points iden3-encoded:
 *   1 header: n8 = 48, q, power, ceremonyPower = power     2: τ^i·G1, i < 2^(power+1) − 1     3: τ^i·G2, i < 2^power
 *   4: α·τ^i·G1, 5: β·τ^i·G1, i < 2^power                  6: β·G2     7: no contributions (a u32 count of 0)
 *   12-15: the Lagrange forms of 2-5: for k = 0 .. power (section 12 also power + 1) the values L_i(τ), i < 2^k, of
 *          the Lagrange basis of the 2^k domain (roots from generator 5, natural order) times G1, G2, α·G1, β·G1; the
 *          block of 2^k starts at point 2^k − 1. Section 12's block of 2^(power+1) is, as prepare phase2 makes it,
 *          the transform of section 2 with the missing power τ^(2^(power+1) − 1) taken as zero.
 * power 1 .. CUZK_PTAU_MAX_POWER, else CUZK_ERR_INVALID_ARG; given α, β must be non-zero and τ outside the
 * 2^(power+1) domain (CUZK_ERR_INVALID_ARG). CUZK_ERR_IO when the file cannot be written (no partial file is left). */
#define CUZK_PTAU_MAX_POWER 28
typedef struct {
    unsigned threads; /* 0 = 1 */
    bool given_toxic;
    cuzk_fr_t tau, alpha, beta;
} cuzk_groth16_ptau_opts;
cuzk_status cuzk_groth16_ptau_write(const char *path, unsigned power, const cuzk_groth16_ptau_opts *opts,
                                    cuzk_errmsg *err);

/* Reads a .ptau (BLS12-381) and checks it: the container, the header, sections 1-7 each once with the sizes the
 * power fixes, the contribution count (section 7's records are not parsed); when section 12 is present, the
 * prepared sections 12-15 with their sizes. Every point is decoded (on the curve; infinity allowed), then
 * e(τ·G1, G2) = e(G1, τ·G2), e(α·τ·G1, G2) = e(α·G1, τ·G2), e(β·G1, G2) = e(G1, β·G2) are checked, and every
 * Lagrange block must sum to its section's first point (Σ_i L_i = 1). Statuses: the container's, CUZK_ERR_WRONG_CURVE,
 * CUZK_ERR_BAD_HEADER, CUZK_ERR_BAD_SECTION, point decoding statuses, CUZK_ERR_MISMATCH for a failed relation. */
typedef struct {
    uint32_t power, ceremony_power, contributions;
    bool prepared; /* sections 12-15 present */
} cuzk_groth16_ptau_info;
cuzk_status cuzk_groth16_ptau_check(const char *path, cuzk_groth16_ptau_info *info, cuzk_errmsg *err);
/* The same on an image in memory. */
cuzk_status cuzk_groth16_ptau_check_buf(const uint8_t *data, size_t len, cuzk_groth16_ptau_info *info,
                                        cuzk_errmsg *err);

/* ==== building blocks shared with the gpu layer (cuzk_g16_*) =========================================================
 * The GPU backend builds keys and reads key files with the same pieces the CPU code uses, so that both produce
 * bit-identical keys and report bad files with the same messages. */

/* ---- fixed-base multiplication by the generators (fixed_base.c) ---- */
/* A table of window multiples of the G1 / G2 generator: t[k·half + d − 1] = d·2^(w·k)·G for windows k of w bits and
 * d = 1 .. 2^(w−1) (signed digits, so a multiplication is ceil(256/w) mixed additions and no doubling). build picks
 * the window for about `count` multiplications (table under 64 MiB); CUZK_ERR_NOMEM when it cannot allocate.
 * mul_many: out[i] = k[i]·G for i < n on `threads` threads (0 = 1), normalized to affine in batches. */
typedef struct {
    unsigned w, nw, half; /* window bits, windows, entries per window */
    cuzk_g1_affine_t *t;
} cuzk_g16_fb1_table;
typedef struct {
    unsigned w, nw, half;
    cuzk_g2_affine_t *t;
} cuzk_g16_fb2_table;
cuzk_status cuzk_g16_fb1_table_build(cuzk_g16_fb1_table *tb, size_t count);
cuzk_status cuzk_g16_fb2_table_build(cuzk_g16_fb2_table *tb, size_t count);
/* The same with the window given (2 .. 16): the GPU setup's tables have a fixed layout. */
cuzk_status cuzk_g16_fb1_table_build_w(cuzk_g16_fb1_table *tb, unsigned w);
cuzk_status cuzk_g16_fb2_table_build_w(cuzk_g16_fb2_table *tb, unsigned w);
void cuzk_g16_fb1_table_free(cuzk_g16_fb1_table *tb);
void cuzk_g16_fb2_table_free(cuzk_g16_fb2_table *tb);
void cuzk_g16_fb1_mul_many(cuzk_g1_affine_t *out, const cuzk_g16_fb1_table *tb, const cuzk_fr_t *k, size_t n,
                           unsigned threads);
void cuzk_g16_fb2_mul_many(cuzk_g2_affine_t *out, const cuzk_g16_fb2_table *tb, const cuzk_fr_t *k, size_t n,
                           unsigned threads);

/* Positions of the density-selected variables, in order: every input i with in_bits NULL or bit i set, then
 * ni + j for every aux j with bit j of aux_bits. *out is malloc'd with *count entries; threads 0 = 1. (setup.c) */
cuzk_status cuzk_g16_positions(uint32_t **out, uint64_t *count, const uint64_t *in_bits, uint64_t ni,
                               const uint64_t *aux_bits, uint64_t na, unsigned threads);

/* ---- the scalars of a test setup (setup.c), shared by cuzk_groth16_setup and cuzk_gpu_setup ---- */
/* Every point of a key is k·G for the generator G of its group and a scalar k from the toxic waste. make computes
 * what the scalars of a whole key need (O(variables + domain) memory); fill then writes the scalars of any range of
 * positions of one array, so that a caller can produce them in chunks:
 *   IC  (β·u_j + α·v_j + w_j)/γ for the inputs j            L  the same over δ for the aux variables
 *   H   BELLPERSON τ^i·Z(τ)/δ, i < n − 1; SNARKJS L^{2n}_{2i+1}(τ)/δ, i < n
 *   A   u_j, B  v_j for the density-selected variables (BELLPERSON) or every variable (SNARKJS), in order;
 *       B's scalars serve both b_g1 and b_g2
 * where u_j, v_j, w_j are the QAP polynomials of variable j at τ. The vk's α, β, δ (G1) and β, γ, δ (G2) are the
 * toxic waste itself (SNARKJS: γ = 1). Every step is spread over `threads` threads. */
enum { CUZK_G16_SEC_IC, CUZK_G16_SEC_H, CUZK_G16_SEC_L, CUZK_G16_SEC_A, CUZK_G16_SEC_B, CUZK_G16_SEC_COUNT };
typedef struct {
    cuzk_groth16_convention conv;
    unsigned threads;
    cuzk_fr_t tau, alpha, beta, gamma, delta;
    cuzk_fr_t h0; /* BELLPERSON: Z(τ)/δ, the first H scalar */
    unsigned log2n;
    uint64_t n, ni, na, nv;
    uint64_t len[CUZK_G16_SEC_COUNT]; /* scalars of each array */
    cuzk_fr_t *u, *v;                 /* nv each */
    cuzk_fr_t *icl;                   /* nv: the IC scalars, then the L scalars */
    cuzk_fr_t *h;                     /* SNARKJS: the n H scalars; BELLPERSON: NULL (computed from h0 and τ) */
    uint32_t *a_vars, *b_vars;        /* position -> variable (BELLPERSON); NULL when dense */
} cuzk_g16_setup_scalars;
/* Draws (or takes the given) toxic waste and checks it as cuzk_groth16_setup documents; errors as cuzk_groth16_setup's.
 * threads 0 = 1. On failure nothing is left to free. */
cuzk_status cuzk_g16_setup_scalars_make(cuzk_g16_setup_scalars *s, const cuzk_r1cs_t *circuit,
                                        const cuzk_groth16_setup_opts *opts, unsigned threads, cuzk_errmsg *err);
/* out[i] = scalar lo + i of array sec, for lo <= i + lo < hi <= s->len[sec], on s->threads threads. */
void cuzk_g16_setup_scalars_fill(const cuzk_g16_setup_scalars *s, int sec, uint64_t lo, uint64_t hi, cuzk_fr_t *out);
/* Frees the vectors and wipes the toxic waste. Harmless on a zeroed struct. */
void cuzk_g16_setup_scalars_free(cuzk_g16_setup_scalars *s);

/* ---- key files: point runs and the .params layout (params.c, zkey.c) ---- */
/* The four point encodings key files use. */
typedef enum {
    CUZK_G16_KEYIO_G1_ZCASH, /* 96-byte uncompressed zcash (bellperson .params) */
    CUZK_G16_KEYIO_G2_ZCASH, /* 192-byte uncompressed zcash */
    CUZK_G16_KEYIO_G1_IDEN3, /* 96-byte iden3 Montgomery (snarkjs .zkey) */
    CUZK_G16_KEYIO_G2_IDEN3, /* 192-byte iden3 Montgomery */
} cuzk_g16_keyio_enc;

/* Decodes n points of encoding enc from src into dst (cuzk_g1_affine_t or cuzk_g2_affine_t array) with the ec decoder flags,
 * spread over `threads` threads. On failure returns the status of the lowest failing index, which goes to *bad. */
cuzk_status cuzk_g16_keyio_decode_points(void *dst, const uint8_t *src, uint64_t n, cuzk_g16_keyio_enc enc,
                                         unsigned flags, unsigned threads, uint64_t *bad);

/* Bytes of one encoded point. */
static inline size_t cuzk_g16_keyio_point_bytes(cuzk_g16_keyio_enc enc)
{
    return (enc == CUZK_G16_KEYIO_G2_ZCASH || enc == CUZK_G16_KEYIO_G2_IDEN3) ? 192 : 96;
}

/* ---- bellperson .params (params.c), shared with the GPU loader -------------------------------------------------- */
/* The counted arrays in file order, after the six fixed vk points (α1, β1, β2, γ2, δ1, δ2). */
enum {
    CUZK_G16_PARAMS_SEC_IC,
    CUZK_G16_PARAMS_SEC_H,
    CUZK_G16_PARAMS_SEC_L,
    CUZK_G16_PARAMS_SEC_A,
    CUZK_G16_PARAMS_SEC_B_G1,
    CUZK_G16_PARAMS_SEC_B_G2,
    CUZK_G16_PARAMS_SEC_COUNT
};
#define CUZK_G16_PARAMS_VK_FIXED_BYTES (3 * 96 + 3 * 192)
/* The 4 bytes at byte pos of the file (within its length); false when they cannot be read. */
typedef bool (*cuzk_g16_params_read4_fn)(void *ctx, uint64_t pos, uint8_t out[4]);
/* The layout of a len-byte .params file: off[k] / cnt[k] locate array k (off at its first point). Every check and
 * message of cuzk_groth16_params_load before any point is decoded (CUZK_ERR_TRUNCATED, CUZK_ERR_BAD_LENGTH,
 * CUZK_ERR_BAD_HEADER; CUZK_ERR_IO when read4 fails). */
cuzk_status cuzk_g16_params_layout(uint64_t off[CUZK_G16_PARAMS_SEC_COUNT], uint64_t cnt[CUZK_G16_PARAMS_SEC_COUNT],
                                   size_t len, cuzk_g16_params_read4_fn read4, void *ctx, cuzk_errmsg *err);
/* Decodes the six fixed vk points at d (CUZK_G16_PARAMS_VK_FIXED_BYTES bytes) with the ec decoder flags. */
cuzk_status cuzk_g16_params_decode_vk_fixed(cuzk_groth16_vk *vk, const uint8_t *d, unsigned ecflags, const char *what,
                                            cuzk_errmsg *err);
/* The message of a bad point: status s at index bad of array k ("params: h[2] (byte 1540): ..."); returns s. */
cuzk_status cuzk_g16_params_point_fail(cuzk_errmsg *err, cuzk_status s, const uint64_t off[CUZK_G16_PARAMS_SEC_COUNT],
                                       int k, uint64_t bad, const char *what);
const char *cuzk_g16_params_section_name(int k);

#ifdef __cplusplus
}
#endif

#endif
