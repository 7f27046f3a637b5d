/* Internals of Groth16 on the GPU shared by key.cu (upload, planning), params.cu (.params decoded on the device),
 * setup.cu (keys generated on the device) and prover.cu. */
#ifndef CUZK_G16_GPU_CUH
#define CUZK_G16_GPU_CUH

#include "msm/msm.cuh"
#include "ntt/ntt.cuh"
#include "runtime/runtime.cuh"

/* One CSR matrix on the device (the layout of cuzk_r1cs_matrix). */
typedef struct {
    uint64_t *row_ptr; /* rows + 1 */
    uint32_t *col, *coef;
    uint64_t nnz;
} gpu_csr;

struct cuzk_gpu_key {
    int device;
    cuzk_groth16_convention conv;
    cuzk_gpu_key_placement placement;
    uint64_t domain_size;                  /* n */
    uint32_t log2n;
    uint64_t num_inputs, num_aux;          /* variables = num_inputs + num_aux; ONE included in the inputs */
    uint64_t rows;                         /* rows of the matrices on the device (SNARKJS: input rows included) */

    /* the circuit: A and B always, C when has_c (BELLPERSON circuits with C; a SNARKJS key's matrices have none) */
    gpu_csr m[3];
    bool has_c;
    cuzk_fr_t *values; /* the coefficient table (Montgomery) */
    uint32_t num_values;

    /* SNARKJS keys given their full circuit: its A, B, C, for CUZK_R1CS_C_CHECKED */
    gpu_csr chk[3];
    cuzk_fr_t *chk_values;
    uint64_t chk_rows;
    bool has_chk;

    /* position → variable of the a and b bases (BELLPERSON: the density-selected variables in order);
     * NULL when every variable has a base (SNARKJS: dense) */
    uint32_t *a_vars, *b_vars;
    uint64_t h_len, l_len, a_len, b_len;

    /* the bases, affine Montgomery (the CPU layout); DEVICE pointers when RESIDENT, pinned HOST pointers when
     * STREAMED */
    cuzk_g1_affine_t *h, *l, *a, *b_g1;
    cuzk_g2_affine_t *b_g2;

    uint64_t stream_buffer_bytes; /* STREAMED: bytes of each of a prover's two base buffers */
    bool ntt_whole;               /* its provers' NTT domains have whole tables (g16_gpu_plan) */
    cuzk_groth16_vk vk;     /* host copy; vk.storage owns vk.ic */
    uint64_t vram_bytes, pinned_bytes;
    double upload_s;
};

/* The placement for a key of `key_bases_bytes` bases plus `fixed_bytes` of matrices and tables, with `workers`
 * provers of `prover_bytes` each, under opts (see cuzk_gpu_key_opts), and *whole: whether each prover also takes its
 * `whole_bytes` of whole NTT tables (RESIDENT only, when that fits as well). CUZK_ERR_NOMEM with a message when
 * nothing fits. */
cuzk_status g16_gpu_plan(cuzk_gpu_key_placement *out, bool *whole, uint64_t key_bases_bytes, uint64_t fixed_bytes,
                         uint64_t prover_bytes, uint64_t whole_bytes, const cuzk_gpu_key_opts *opts, cuzk_errmsg *err);
/* The whole NTT tables a prover of a key of domain n and convention conv would add (ntt.cu's coset kinds of H) */
uint64_t g16_gpu_key_whole_bytes(uint64_t n, cuzk_groth16_convention conv);
/* The whole key's device bytes after it is made: the key records what it holds (vram_bytes, pinned_bytes); the
 * provers size their stream buffers with g16_gpu_stream_chunk_bytes(free VRAM). */

/* Bytes of the five base arrays, of a circuit's first `matrices` CSR matrices with its value table and two
 * position tables, and of one of a streaming prover's two base buffers under a VRAM budget. */
uint64_t g16_gpu_bases_bytes(uint64_t h_len, uint64_t l_len, uint64_t a_len, uint64_t b_len);
uint64_t g16_gpu_circuit_bytes(const cuzk_r1cs_t *c, int matrices);
uint64_t g16_gpu_stream_chunk_bytes(const cuzk_gpu_key_opts *opts);

/* A zeroed key with its device, its placement and (from opts, which may be NULL) its stream buffer size recorded;
 * every pointer NULL (cuzk_gpu_key_free releases whatever is set). Every way of making a key starts here. */
cuzk_status g16_gpu_key_new(cuzk_gpu_key **out, cuzk_gpu_key_placement placement, const cuzk_gpu_key_opts *opts);

/* Copies the circuit's matrices (A, B and, for BELLPERSON, C), the value table and, for BELLPERSON, the a/b position
 * tables from its density bitmaps to the device; fills m, has_c, values, num_inputs, num_aux, rows and, for
 * BELLPERSON, a_vars, b_vars, a_len, b_len (the counts the densities give). */
cuzk_status g16_gpu_key_circuit(cuzk_gpu_key *k, const cuzk_r1cs_t *circuit, bool bellperson, cuzk_errmsg *err);

/* Keeps a copy of the verifying key (α, β, γ, δ and ic) in k->vk. */
cuzk_status g16_gpu_key_vk(cuzk_gpu_key *k, const cuzk_groth16_vk *vk);


#endif
