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

/* The conventions differ in the H basis, the root of unity and the rows the prover adds:
 *  BELLPERSON: domain n = next_pow2(constraints + inputs); the prover appends one row per input i (A = z_i, B = C = 0);
 *              roots from generator 7; h = (a·b − c)/Z on the coset g = 7 (ntt_h_bellperson), n − 1 points
 *              h_i = τ^i·Z(τ)/δ; a/b bases only for the variables the circuit's density bitmaps select.
 *  SNARKJS:    the zkey's own A/B matrices already hold the input rows; roots from generator 5; h on the odd coset of
 *              the 2n domain without division (ntt_h_snarkjs), n points; a/b bases dense over every variable. */
typedef enum {
    GROTH16_BELLPERSON = 1,
    GROTH16_SNARKJS = 2,
} groth16_convention;

typedef struct {
    g1_affine_t alpha_g1, beta_g1, delta_g1;
    g2_affine_t beta_g2, gamma_g2, delta_g2;
    g1_affine_t *ic;     /* num_inputs points: the public-input basis, already divided by γ (snarkjs: γ = 1) */
    uint64_t num_inputs; /* ONE included */
    void *storage;       /* owned by the vk when it was loaded on its own */
} groth16_vk;

typedef struct {
    groth16_convention conv;
    groth16_vk vk;
    uint64_t num_aux;
    uint64_t domain_size;             /* n, a power of two */
    g1_affine_t *h;    uint64_t h_len;  /* BELLPERSON n − 1, SNARKJS n */
    g1_affine_t *l;    uint64_t l_len;  /* one per aux variable */
    g1_affine_t *a;    uint64_t a_len;  /* BELLPERSON: inputs + aux selected by a_aux density; SNARKJS: all vars */
    g1_affine_t *b_g1; uint64_t b_len;  /* BELLPERSON: inputs and aux selected by b density; SNARKJS: all vars */
    g2_affine_t *b_g2;
    r1cs_t *circuit;   /* SNARKJS: the A/B matrices from the zkey (C is never stored: c = a∘b); else NULL */
    void *storage;     /* owned point storage */
} groth16_pk;

void groth16_vk_free(groth16_vk *vk);
void groth16_pk_free(groth16_pk *pk);

/* ---- key files (src/groth16/params.c, zkey.c) -------------------------------------------------------------------- */
enum {
    GROTH16_LOAD_SUBGROUP = 1, /* also check every point's subgroup membership (the curve check always runs) */
};
/* bellperson .params: vk, then h, l, a, b_g1, b_g2, each a u32 big-endian count and uncompressed zcash points.
 * The file is mapped and decoded in parallel with `threads` workers. */
cuzk_status groth16_params_load(groth16_pk *pk, const char *path, unsigned flags, unsigned threads,
                                cuzk_errmsg *err);
cuzk_status groth16_params_write(const groth16_pk *pk, const char *path, cuzk_errmsg *err);
/* bellperson .vk: the vk prefix of .params alone. */
cuzk_status groth16_vk_load(groth16_vk *vk, const char *path, cuzk_errmsg *err);
cuzk_status groth16_vk_write(const groth16_vk *vk, const char *path, cuzk_errmsg *err);
/* snarkjs .zkey (Groth16 over bls12381); sections are found by type, in any order. */
cuzk_status groth16_zkey_load(groth16_pk *pk, const char *path, unsigned flags, unsigned threads, cuzk_errmsg *err);
/* A circuit and its key belong together: counts, densities and domain must agree (CUZK_ERR_MISMATCH otherwise). */
cuzk_status groth16_pk_check_circuit(const groth16_pk *pk, const r1cs_t *circuit, cuzk_errmsg *err);

/* ---- JSON (snarkjs layouts; src/groth16/json.c) ------------------------------------------------------------------ */
/* Output strings are malloc'd; inputs are NUL-terminated. Public signals exclude ONE. */
cuzk_status groth16_proof_to_json(const groth16_proof_t *proof, char **out);
cuzk_status groth16_proof_from_json(groth16_proof_t *proof, const char *json, cuzk_errmsg *err);
cuzk_status groth16_public_to_json(const fr_t *pub, uint64_t n, char **out);
cuzk_status groth16_public_from_json(fr_t **pub, uint64_t *n, const char *json, cuzk_errmsg *err);
cuzk_status groth16_vk_to_json(const groth16_vk *vk, char **out);
cuzk_status groth16_vk_from_json(groth16_vk *vk, const char *json, cuzk_errmsg *err);

/* ---- prover (src/groth16/prover.c) ------------------------------------------------------------------------------- */
typedef struct {
    unsigned threads;      /* 0 = 1 */
    bool given_rs;         /* use r and s below instead of the OS random source (deterministic tests) */
    fr_t r, s;
    r1cs_c_mode c_mode;    /* how c = C·z is formed: R1CS_C_PRODUCT (fast), R1CS_C_CHECKED (reject bad witness) */
} groth16_prove_opts;

/* Wall-clock seconds per phase, filled when the caller passes a stats pointer. */
typedef struct {
    double spmv, ntt_h, msm_h, msm_l, msm_a, msm_b1, msm_b2, assembly, total;
} groth16_prove_stats;

/* One proof for witness z (r1cs_num_vars(circuit) values). circuit: the circuit the key was made for (for SNARKJS
 * keys pass NULL to use pk->circuit). An unsatisfied witness in R1CS_C_CHECKED mode gives
 * CUZK_ERR_R1CS_UNSATISFIED with the row in the message. */
cuzk_status groth16_prove(groth16_proof_t *proof, const groth16_pk *pk, const r1cs_t *circuit, const fr_t *z,
                          const groth16_prove_opts *opts, groth16_prove_stats *stats, cuzk_errmsg *err);

/* ---- verifier (src/groth16/verifier.c) --------------------------------------------------------------------------- */
typedef struct {
    fp12_t alpha_beta;          /* e(α1, β2) */
    g2_prepared_t neg_gamma, neg_delta, beta;
    const groth16_vk *vk;
} groth16_pvk;

void groth16_prepare_vk(groth16_pvk *pvk, const groth16_vk *vk);
/* inputs: the public inputs without ONE (vk->num_inputs − 1 of them). CUZK_OK when the proof is valid,
 * CUZK_ERR_PROOF_INVALID when it is not, CUZK_ERR_MISMATCH for a wrong input count. Proof points must already be
 * validated (on curve, in subgroup), as the decoders do. */
cuzk_status groth16_verify(const groth16_pvk *pvk, const groth16_proof_t *proof, const fr_t *inputs,
                           uint64_t num_inputs);
/* count proofs of the same circuit, inputs[j·num_inputs + i]; random 128-bit weights, one final exponentiation.
 * CUZK_OK only when every proof is valid. */
cuzk_status groth16_verify_batch(const groth16_pvk *pvk, const groth16_proof_t *proofs, const fr_t *inputs,
                                 uint64_t num_inputs, uint64_t count);

/* ---- setup for tests and benchmarks, not a ceremony (src/groth16/setup.c) ---------------------------------------- */
/* Random τ, α, β, γ, δ (or given, for reproducible keys) → a BELLPERSON-convention key for the circuit. */
typedef struct {
    unsigned threads;
    bool given_toxic;
    fr_t tau, alpha, beta, gamma, delta;
} groth16_setup_opts;
cuzk_status groth16_setup(groth16_pk *pk, const r1cs_t *circuit, const groth16_setup_opts *opts, cuzk_errmsg *err);

#endif
